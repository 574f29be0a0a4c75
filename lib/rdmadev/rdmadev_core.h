/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_CORE_H
#define RDMADEV_CORE_H

/**
 * @file
 * rdmadev's fast path: the send template, the per-device fast-path object and the inline
 * burst functions over the work request and completion types of rdmadev_wr.h.
 * Applications include rdmadev.h, which includes this header.
 *
 * The burst functions rdmadev_post_send(), rdmadev_post_send_tmpl(), rdmadev_post_recv(),
 * rdmadev_post_srq_recv() and rdmadev_poll_cq() are at the bottom: one load of the device's
 * fast-path object and one indirect call, no lock, no division. Build with RDMADEV_DEBUG
 * defined for argument checks.
 *
 * A send template is one 64-byte cache line.
 */

#include <errno.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include "rdmadev_wr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of devices (device ids 0 .. RDMADEV_MAX_DEVS - 1). */
#define RDMADEV_MAX_DEVS 32

struct rdmadev_qp;
struct rdmadev_cq;
struct rdmadev_srq;

/** 64-bit words of a send template that belong to the driver. */
#define RDMADEV_SEND_TMPL_DRV_WORDS	6

/**
 * A send WR validated and encoded once (rdmadev_send_tmpl_init()), posted many times with
 * rdmadev_post_send_tmpl(): one cache line, filled by the library and the driver, opaque to
 * the application. It belongs to the QP it was made for; posting it on another QP is refused.
 */
struct rdmadev_send_tmpl {
	void *qp_drv;		/**< the driver object of the QP it was made for (NULL: unusable) */
	uint32_t qp_num;	/**< that QP's number */
	uint8_t opcode;		/**< the prototype's opcode (enum rdmadev_wr_opcode) */
	uint8_t flags;		/**< the prototype's flags (RDMADEV_SEND_*) */
	uint16_t reserved;	/**< zero */
	/** The driver's pre-encoded WR (its WQE and tracking constants). */
	uint64_t drv[RDMADEV_SEND_TMPL_DRV_WORDS];
} __rte_aligned(64);

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

/** The fast-path objects, indexed by device id. */
extern struct rdmadev_fp_obj rdmadev_fp_objs[RDMADEV_MAX_DEVS];

/**
 * First member of every QP, CQ and SRQ handle: what the inline fast path reads. Everything
 * behind it is control-path state.
 */
struct rdmadev_fp_head {
	void *drv;		/**< driver's private object, passed to the fast-path function */
	uint16_t dev_id;	/**< device id, index into rdmadev_fp_objs[] */
};

/**
 * Post send work requests.
 *
 * @param qp      QP in RTS (or SQD/ERR as the verbs allow).
 * @param wrs     Array of @p nb_wrs requests.
 * @param nb_wrs  Number of requests.
 * @param err     Receives 0 when all were posted, else the reason (negative errno) why
 *                wrs[returned] was refused.
 * @return Number of requests posted (the first ones); the doorbell rang once for them.
 */
static inline uint16_t
rdmadev_post_send(struct rdmadev_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		  int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_send == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_send(h->drv, wrs, nb_wrs, err);
}

/**
 * Post send work requests of a template (rdmadev_send_tmpl_init()): each element of @p wrs
 * gives only what varies (wr_id, local address and length, remote address, immediate); the
 * opcode, flags, keys and every check that does not depend on those were done once, when
 * the template was made. The WQEs are those rdmadev_post_send() writes for the same WRs.
 *
 * @param qp      The QP the template was made for, in RTS or SQD (checked once per call).
 * @param t       The template.
 * @param wrs     Array of @p nb_wrs variable parts.
 * @param nb_wrs  Number of WRs.
 * @param err     Receives 0 when all were posted, else the reason (negative errno) why
 *                wrs[returned] was refused: -EINVAL (NULL or unusable template, a template of
 *                another QP, QP state, a length beyond 2^31 - 1), -ENOMEM (the SQ is full),
 *                -ENOTSUP (the device's driver has no send templates: its templates are
 *                zeroed), -ENODEV (the device is not started).
 * @return Number of WRs posted (the first ones); the doorbell rang once for them.
 */
static inline uint16_t
rdmadev_post_send_tmpl(struct rdmadev_qp *qp, const struct rdmadev_send_tmpl *t,
		       const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs, int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || t == NULL || wrs == NULL || err == NULL ||
	    h->dev_id >= RDMADEV_MAX_DEVS || rdmadev_fp_objs[h->dev_id].post_send_tmpl == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_send_tmpl(h->drv, t, wrs, nb_wrs, err);
}

/**
 * Post receive work requests.
 *
 * @return Number posted; *err as for rdmadev_post_send().
 */
static inline uint16_t
rdmadev_post_recv(struct rdmadev_qp *qp, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs,
		  int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_recv == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_recv(h->drv, wrs, nb_wrs, err);
}

/**
 * Post receive work requests to a shared receive queue (RDMADEV_CAPA_SRQ): every QP created
 * with the SRQ takes its receives from it, in the order they were posted.
 *
 * @return Number posted; *err as for rdmadev_post_send() (-ENOMEM: the SRQ is full).
 */
static inline uint16_t
rdmadev_post_srq_recv(struct rdmadev_srq *srq, const struct rdmadev_recv_wr *wrs,
		      uint16_t nb_wrs, int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)srq;

#ifdef RDMADEV_DEBUG
	if (srq == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_srq_recv == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_srq_recv(h->drv, wrs, nb_wrs, err);
}

/**
 * Poll up to @p nb_wcs completions.
 *
 * @return Number of completions written to @p wcs.
 */
static inline uint16_t
rdmadev_poll_cq(struct rdmadev_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)cq;

#ifdef RDMADEV_DEBUG
	if (cq == NULL || wcs == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].poll_cq == NULL)
		return 0;
#endif
	return rdmadev_fp_objs[h->dev_id].poll_cq(h->drv, wcs, nb_wcs);
}

/**
 * Arm a CQ: the device signals the CQ's completion vector once, for the next completion
 * (@p solicited_only 0) or the next solicited one (@p solicited_only 1) written after this
 * call. Poll the CQ empty after the event and before arming again, as with verbs.
 *
 * @return 0, or a negative errno (-ENODEV when the device is not started).
 */
static inline int
rdmadev_cq_arm(struct rdmadev_cq *cq, int solicited_only)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)cq;

#ifdef RDMADEV_DEBUG
	if (cq == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].cq_arm == NULL)
		return -EINVAL;
#endif
	return rdmadev_fp_objs[h->dev_id].cq_arm(h->drv, solicited_only);
}

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_CORE_H */
