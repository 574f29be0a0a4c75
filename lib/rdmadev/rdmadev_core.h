/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_CORE_H
#define RDMADEV_CORE_H

/**
 * @file
 * rdmadev's fast path: the inline burst functions rdmadev_post_send(),
 * rdmadev_post_send_tmpl(), rdmadev_post_recv(), rdmadev_post_srq_recv(), rdmadev_poll_cq()
 * and rdmadev_cq_arm(), over the work request and completion types of rdmadev_wr.h.
 * Applications include rdmadev.h, which includes this header.
 *
 * Each is one load of the device's entry in the internal fast-path table
 * (rdmadev_fp_internal.h) and one indirect call, no lock, no division. Build with
 * RDMADEV_DEBUG defined for argument checks.
 */

#include <errno.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include "rdmadev_wr.h"
#include "rdmadev_fp_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of devices (device ids 0 .. RDMADEV_MAX_DEVS - 1). */
#define RDMADEV_MAX_DEVS 32

struct rdmadev_qp;
struct rdmadev_cq;
struct rdmadev_srq;

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
