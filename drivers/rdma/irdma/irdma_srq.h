/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_SRQ_H
#define IRDMA_SRQ_H

/**
 * @file
 * A shared receive queue of the irdma PMD (gen3; irdma_srq.c creates, modifies and destroys
 * it, irdma_uk_srq.c posts to it): struct irdma_srq, its control-path interface, its
 * asynchronous events and the LAST_WQE_REACHED events of the QPs that use it.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pbl.h>

#include "irdma_base.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct irdma_hw;
struct irdma_aeqe_info;
struct rdmadev;
struct rdmadev_srq;
struct rdmadev_srq_attr;

/**
 * A shared receive queue of the PMD: data-path fields first, then control-path state.
 *
 * Ring of @c size WQEs of 32 << shift bytes (doc/hardware.md §2: an RQ WQE with qword 2 = wr_id);
 * after each burst the poster stores the index after its last WQE in shadow qword 0 (the
 * SRQ's doorbell in host memory). Room: @c posted counts WQEs posted, @c done those whose
 * completion was polled (any CQ of any QP using the SRQ); at most max_wr are outstanding.
 * One lcore posts; pollers on other lcores only add to @c done.
 */
struct irdma_srq {
	uint8_t *base;			/**< first quantum of the ring */
	void *shadow;			/**< shadow area (struct irdma_srq_shadow) */
	uint32_t size;			/**< ring size in WQEs (power of two) */
	uint32_t head;			/**< next WQE the poster writes */
	uint32_t posted;		/**< WQEs posted since create (poster) */
	uint32_t done;			/**< completions polled since create (atomic) */
	uint32_t max_wr;		/**< WQEs outstanding at most */
	uint8_t polarity;		/**< valid bit of the current pass (starts 0, flips at 0) */
	uint8_t shift;			/**< WQE size shift */
	uint8_t max_sge;		/**< SGEs a receive WR may carry */
	uint8_t gen;			/**< engine generation: the NULL-pad count rule */
	struct irdma_hw *hw;		/**< device (logs) */
	uint32_t srq_id;		/**< SRQ id (restrack ID, HMC object 2 index) */
	/* Control path. */
	uint32_t pd_id;			/**< PD id */
	uint32_t limit;			/**< armed limit, 0 when not armed (atomic) */
	struct irdma_qmem ring;		/**< ring pages */
	struct irdma_dma_mem shadow_mem;	/**< shadow area */
	struct pbl_cq pbl;		/**< what CREATE_SRQ is told about @c ring */
};

/**
 * Create rdmadev SRQ @p srq (gen3): ring of attr->max_wr WQEs (the RQ sizing rules, §2),
 * shadow area, CREATE_SRQ with the limit armed when attr->srq_limit is not 0. Raises
 * srq->attr.max_wr / max_sge to what the ring holds; sets srq->obj.fp.drv.
 * @return 0, -ENOTSUP (gen2), -EINVAL (beyond the SRQ limits), -ENOMEM, or the CQP's
 *         -errno; nothing stays allocated on failure.
 */
int irdma_srq_create(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr);

/**
 * MODIFY_SRQ: arm the limit at attr->srq_limit (0 disarms) with RDMADEV_SRQ_LIMIT.
 * @return 0, -ENOTSUP (RDMADEV_SRQ_MAX_WR: no resize), or the CQP's -errno.
 */
int irdma_srq_modify(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr, uint32_t mask);

/** Fill what the driver owns of @p attr: the armed limit (0 once the event fired). */
void irdma_srq_query(struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr);

/**
 * DESTROY_SRQ, then free the SRQ's memory (rdmadev refuses while a QP uses it).
 * @return 0, or the CQP's -errno (the SRQ stays usable).
 */
int irdma_srq_destroy(struct irdma_ctrl *c, struct rdmadev_srq *srq);

/**
 * The SRQ AEs (IRDMA_AE_SRQ_LIMIT, IRDMA_AE_SRQ_CATASTROPHIC_ERROR): the SRQ of the AE's id
 * whose context matches gets RDMADEV_EVENT_SRQ_LIMIT (its limit disarmed) or
 * RDMADEV_EVENT_SRQ_ERR. @return true when @p a is an SRQ AE (handled or dropped).
 */
bool irdma_event_srq(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a);

/**
 * Note that QP @p qp_id, which uses an SRQ, went to ERR: its RDMADEV_EVENT_QP_LAST_WQE_REACHED
 * is reported by the next irdma_event_process() (not from inside the modify, which holds the
 * QP's lock while callbacks may take it).
 */
void irdma_srq_last_wqe_note(struct irdma_ctrl *c, uint32_t qp_id);

/** Report the LAST_WQE_REACHED events noted since the last call (irdma_event_process). */
void irdma_srq_last_wqe_report(struct irdma_ctrl *c, struct rdmadev *dev);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_SRQ_H */
