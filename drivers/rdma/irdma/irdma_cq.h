/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CQ_H
#define IRDMA_CQ_H

/**
 * @file
 * A CQ of the irdma PMD (irdma_cq.c creates, resizes and destroys it; irdma_uk_poll.c polls
 * it): struct irdma_cq with its rings, the hot poll-path fields first, the flush list of queues
 * the driver completes itself, and the control-path interface.
 */

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <pbl.h>

#include "irdma_base.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct irdma_hw;
struct irdma_qp;
struct irdma_cq;
struct rdmadev_cq;
struct rdmadev_cq_attr;

/** One CQE ring as the poll path walks it. */
struct irdma_cq_ring {
	uint8_t *base;		/**< first CQE (CPU address); NULL when the ring is not in use */
	uint32_t size;		/**< entries (ring slots) */
	uint32_t head;		/**< next CQE SW reads */
	uint8_t polarity;	/**< valid bit expected on this pass (IRDMA_CQ_POLARITY_INIT first) */
};

/**
 * A queue (SQ or RQ) of a QP in ERROR whose WRs the driver completes with WR_FLUSH_ERR
 * itself: linked on its CQ's flush list (irdma_cq.flush_list) while queued.
 */
struct irdma_flush_link {
	struct irdma_flush_link *next;	/**< next queue on the CQ's list */
	struct irdma_qp *qp;		/**< the QP */
	uint8_t sq;			/**< 1: its SQ, 0: its RQ */
	uint8_t queued;			/**< on the list now */
};

struct rdmadev_wc;

/**
 * A poll variant (irdma_uk_poll.c): what irdma_uk_poll_cq() calls for this CQ, chosen by
 * irdma_uk_cq_select().
 */
typedef uint16_t (*irdma_uk_poll_fn)(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs);

/**
 * A CQ of the PMD: hot poll-path fields first (what the fast variant reads, in the first cache
 * line; checked below), then what the general variant and the error path read, then
 * control-path state.
 *
 * Resize (irdma_cq_resize) swaps in a new ring with MODIFY_CQ: the device writes only the new
 * ring afterwards, and the CQEs it wrote to the old ring before the swap are still to be
 * polled. The old ring moves to @c old; poll drains @c old first and sets old.base to NULL
 * when it reads an entry whose valid bit does not match (the control path frees the old
 * memory at the next resize or at destroy). Resize and poll are never concurrent (a CQ is
 * used by one lcore at a time, as DPDK queues are).
 */
struct irdma_cq {
	/** The poll variant (irdma_uk_cq_select(): at create, at resize, when old drains). */
	irdma_uk_poll_fn poll;
	struct irdma_cq_ring cur;	/**< the ring the device writes */
	void *shadow;			/**< shadow area (struct irdma_cq_shadow): head, arm word */
	/** Non-zero while flush_list holds queues: poll completes them when the ring is empty. */
	uint32_t sw_flush;
	uint32_t id;			/**< CQ id (restrack ID) */
	struct irdma_cq_ring old;	/**< a ring left by a resize, still to drain (base NULL: none) */
	uint64_t *comp_cntr;		/**< completion counter value to add to, or NULL */
	struct irdma_hw *hw;		/**< device: CQ arm doorbell */
	uint32_t arm_seq;		/**< data path: arm sequence number last written */
	pthread_mutex_t flush_lock;	/**< guards flush_list (error path only) */
	struct irdma_flush_link *flush_list;	/**< queues to complete with WR_FLUSH_ERR */
	/* Control path. */
	/** Model in inline mode: let it run once per poll (hw->be->service), else NULL. */
	void (*service)(struct irdma_hw *hw);
	struct irdma_qmem ring;		/**< memory of cur */
	struct irdma_qmem old_ring;	/**< memory of old (freed at the next resize / destroy) */
	struct irdma_dma_mem shadow_mem;	/**< memory of shadow */
	uint32_t ceq_id;		/**< its CEQ: the completion vector it was created on */
	struct rdmadev_cq *rcq;		/**< the rdmadev CQ (its completion events) */
	struct pbl_cq pbl;		/**< what the device is told about @c ring */
	struct pbl_cq old_pbl;		/**< ... and about @c old_ring */
};

/* The hot-field promise of struct irdma_cq, held. */
_Static_assert(offsetof(struct irdma_cq, poll) == 0 &&
	       offsetof(struct irdma_cq, cur) + sizeof(struct irdma_cq_ring) <= 64 &&
	       offsetof(struct irdma_cq, shadow) + sizeof(void *) <= 64 &&
	       offsetof(struct irdma_cq, sw_flush) + sizeof(uint32_t) <= 64,
	       "what the fast poll variant reads sits in the CQ's first cache line");
_Static_assert(offsetof(struct irdma_cq, old) + sizeof(struct irdma_cq_ring) <= 128 &&
	       offsetof(struct irdma_cq, comp_cntr) < 128 && offsetof(struct irdma_cq, hw) < 128 &&
	       offsetof(struct irdma_cq, arm_seq) < 128,
	       "what the general poll variant and the arm read sits in the first two lines");

/**
 * Choose @p cq's poll variant (irdma_uk_poll.c) from its service hook, old ring and completion
 * counter, and store it in cq->poll. Called at create, after a resize, and by poll when it
 * has drained the old ring.
 */
void irdma_uk_cq_select(struct irdma_cq *cq);

/**
 * Create rdmadev CQ @p cq: a ring of attr->cqe + 1 entries (at least IRDMA_MIN_USER_CQ_RING;
 * level 0 when IOVA-contiguous, else a level-1 PBL with VIRTMAP; level 1 always with
 * c->ring_pbl), its shadow area and CREATE_CQ on the CEQ of attr->comp_vector. Sets cq->cqe
 * and cq->obj.fp.drv.
 * @return 0, -ENOMEM, or the CQP's -errno; nothing stays allocated on failure.
 */
int irdma_cq_create(struct irdma_ctrl *c, struct rdmadev_cq *cq,
		    const struct rdmadev_cq_attr *attr);

/**
 * Resize CQ @p cq to hold @p cqe entries (a ring of cqe + 1, at least
 * IRDMA_MIN_USER_CQ_RING) with MODIFY_CQ, following the struct irdma_cq contract: the new
 * ring becomes cur, the old one old (old.base NULL at once when nothing is left to poll in
 * it). Sets cq->cqe.
 * @return 0, -EINVAL (beyond IRDMA_MAX_CQ_SIZE, or fewer entries than CQEs not yet polled),
 *         -EBUSY (the ring of the last resize still holds unpolled CQEs), -ENOMEM, or the
 *         CQP's -errno (the CQ keeps its ring).
 */
int irdma_cq_resize(struct irdma_ctrl *c, struct rdmadev_cq *cq, uint32_t cqe);

/**
 * DESTROY_CQ, then free the CQ's memory.
 * @return 0, or the CQP's -errno (the CQ stays usable).
 */
int irdma_cq_destroy(struct irdma_ctrl *c, struct rdmadev_cq *cq);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_CQ_H */
