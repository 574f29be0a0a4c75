/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_FP_INTERNAL_H
#define RDMADEV_FP_INTERNAL_H

/**
 * @file
 * Internal, driver-facing: rdmadev's fast-path table. The signatures of a driver's
 * fast-path functions, the per-device table of them that rdmadev fills when a device starts,
 * and the head of every QP, CQ and SRQ handle that the inline burst functions of
 * rdmadev_core.h read. It is installed only because those inline functions read it;
 * applications do not use its contents (they call the burst functions), drivers return
 * their functions in struct rdmadev_ops (rdmadev_driver.h).
 */

#include <stdint.h>

#include "rdmadev_wr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Driver fast-path function: post send WRs on the driver's QP. See rdmadev_post_send(). */
typedef uint16_t (*rdmadev_post_send_t)(void *qp_priv, const struct rdmadev_send_wr *wrs,
					uint16_t nb_wrs, int *err);
/** Driver fast-path function: post receive WRs. See rdmadev_post_recv(). */
typedef uint16_t (*rdmadev_post_recv_t)(void *qp_priv, const struct rdmadev_recv_wr *wrs,
					uint16_t nb_wrs, int *err);
/** Driver fast-path function: poll completions. See rdmadev_poll_cq(). */
typedef uint16_t (*rdmadev_poll_cq_t)(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs);
/** Driver fast-path function: arm a CQ for its next event. See rdmadev_cq_arm(). */
typedef int (*rdmadev_cq_arm_t)(void *cq_priv, int solicited_only);
/** Driver fast-path function: post receive WRs to an SRQ. See rdmadev_post_srq_recv(). */
typedef uint16_t (*rdmadev_post_srq_recv_t)(void *srq_priv, const struct rdmadev_recv_wr *wrs,
					    uint16_t nb_wrs, int *err);

/**
 * Driver fast-path function: post WRs of a send template. See rdmadev_post_send_tmpl().
 */
typedef uint16_t (*rdmadev_post_send_tmpl_t)(void *qp_priv, const struct rdmadev_send_tmpl *t,
					     const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs,
					     int *err);

/**
 * Per-device fast-path functions, one cache line per device in rdmadev_fp_objs[]. Slots of
 * devices that are not started hold dummy functions that log once and return 0; a started
 * device whose driver has no send templates holds one for post_send_tmpl (-ENOTSUP).
 */
struct rdmadev_fp_obj {
	rdmadev_post_send_t post_send;	/**< post send WRs */
	rdmadev_post_recv_t post_recv;	/**< post receive WRs */
	rdmadev_poll_cq_t poll_cq;	/**< poll a CQ */
	rdmadev_cq_arm_t cq_arm;	/**< arm a CQ */
	rdmadev_post_srq_recv_t post_srq_recv;	/**< post receive WRs to an SRQ */
	rdmadev_post_send_tmpl_t post_send_tmpl;	/**< post WRs of a send template */
	void *reserved[2];		/**< for later functions */
} __rte_cache_aligned;

/** The fast-path objects, indexed by device id (RDMADEV_MAX_DEVS of them, rdmadev_core.h). */
extern struct rdmadev_fp_obj rdmadev_fp_objs[];

/**
 * First member of every QP, CQ and SRQ handle: what the inline fast path reads. Everything
 * behind it is control-path state.
 */
struct rdmadev_fp_head {
	void *drv;		/**< driver's private object, passed to the fast-path function */
	uint16_t dev_id;	/**< device id, index into rdmadev_fp_objs[] */
};

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_FP_INTERNAL_H */
