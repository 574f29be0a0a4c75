/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_QP_H
#define IRDMA_QP_H

/**
 * @file
 * A QP of the irdma PMD (irdma_qp.c creates, modifies and destroys it; irdma_uk_post.c posts
 * to it): struct irdma_qp with its SQ and RQ rings, the hot data-path fields first, and the
 * control-path interface.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pbl.h>

#include "irdma_base.h"
#include "irdma_cq.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct irdma_hw;
struct rdmadev_qp;
struct rdmadev_qp_init_attr;
struct rdmadev_qp_attr;

/** One work queue ring of a QP (SQ or RQ), shaped for the data path. */
struct irdma_qp_ring {
	uint8_t *base;		/**< first quantum (CPU address) */
	uint32_t quanta;	/**< ring size in 32-byte quanta (power of two) */
	uint32_t head;		/**< next quantum SW writes */
	uint32_t tail;		/**< oldest quantum not completed */
	uint8_t polarity;	/**< valid bit of the current pass (starts 0, flips at 0) */
	uint8_t shift;		/**< WQE size shift: 32 << shift bytes */
};

struct irdma_sq_wrtrk;
struct irdma_srq;
struct irdma_qp;
struct irdma_cq;
struct rdmadev_send_wr;

/**
 * A post_send variant (irdma_uk_post.c): what irdma_uk_post_send() calls for this QP, chosen
 * by irdma_uk_qp_select() from the QP's generation, type and hardware state.
 */
typedef uint16_t (*irdma_uk_post_send_fn)(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs,
					  uint16_t nb_wrs, int *err);

/**
 * A QP of the PMD: hot data-path fields first (post_send and the SQ in the first cache line,
 * everything the post path reads in the first two; checked below), then control-path state.
 */
struct irdma_qp {
	/** The post_send variant (irdma_uk_qp_select(); relaxed atomic: state changes set it). */
	irdma_uk_post_send_fn post_send;
	struct irdma_qp_ring sq;	/**< send queue */
	struct irdma_qp_ring rq;	/**< receive queue */
	/** SQ WR tracking, sq.quanta entries indexed by a WQE's first quantum (irdma_uk.h). */
	struct irdma_sq_wrtrk *sq_wrtrk;
	/** RQ wr_ids, one per RQ WQE (index = RQ quantum >> rq.shift). */
	uint64_t *rq_wrid;
	struct irdma_hw *hw;		/**< device: the doorbell goes through irdma_wr32() */
	uint32_t db_off;		/**< BAR0 offset of the SQ doorbell (WQEALLOC) */
	uint8_t gen;			/**< engine generation (2 or 3): fragment / inline layout */
	uint8_t sq_flushed;		/**< data path: the SQ saw a flush CQE (replay state) */
	uint8_t rq_flushed;		/**< data path: the RQ saw a flush CQE (replay state) */
	/** post_send_tmpl takes WRs: RTS or SQD (irdma_uk_qp_select(); relaxed atomic). */
	uint8_t sq_open;
	void *shadow;			/**< QP shadow area (struct irdma_qp_shadow) */
	uint32_t qp_id;			/**< QPN (restrack ID) */
	uint8_t qp_type;		/**< enum irdma_qp_type */
	uint8_t hw_state;		/**< enum irdma_qp_hw_state last accepted */
	uint8_t sq_sig_all;		/**< 1: every send WR is signaled (init attr sq_sig_all) */
	/** post_recv takes WRs: INIT (HW IDLE) to SQD, no SRQ (irdma_uk_qp_select()). */
	uint8_t rq_open;
	uint8_t max_send_sge;		/**< SGEs a send WR may carry (init attr cap) */
	uint8_t max_recv_sge;		/**< SGEs a receive WR may carry (init attr cap) */
	uint8_t max_inline;		/**< inline bytes a send WR may carry (init attr cap) */
	uint8_t rsvd1;			/**< zero */
	uint32_t max_send_wr;		/**< SQ WRs reported */
	uint32_t max_recv_wr;		/**< RQ WRs reported */
	uint32_t send_cq_id;		/**< TX CQ id */
	uint32_t recv_cq_id;		/**< RX CQ id */
	uint32_t pd_id;			/**< PD id */
	struct irdma_qmem ring;		/**< SQ pages | RQ pages | shadow area */
	struct irdma_dma_mem hctx;	/**< Q2 (+0) | RoCE host context (+IRDMA_Q2_BUF_SIZE) */
	uint32_t arp_idx;		/**< ARP entry the context names (0: the reserved default) */
	uint8_t stats_use;		/**< bound to a statistics instance (USESTATSINSTANCE) */
	uint32_t stats_idx;		/**< that instance (QPC_STAT_INDEX) */
	/** What CREATE_QP is told about @c ring: IOVAs, or a level-1 run (VQ). */
	struct pbl_qp pbl;
	/** Gen3: the SRQ the QP receives from (no RQ of its own), or NULL. */
	struct irdma_srq *srq;
	/**
	 * Send templates: this QP's generation (irdma_uk_tmpl_gen_next(), set at create), which
	 * every template of it records; a template of an earlier QP at the same address and
	 * with the same number is refused.
	 */
	uint32_t tmpl_gen;
	/** The control path (window bookkeeping of BIND_MW, LOCAL_INV), NULL outside a device. */
	struct irdma_ctrl *ctrl;
	/** Send and receive CQ (driver flush completions, irdma_uk_flush_queue()), or NULL. */
	struct irdma_cq *scq, *rcq;
	struct irdma_flush_link sq_fl;	/**< the SQ on scq's flush list */
	struct irdma_flush_link rq_fl;	/**< the RQ on rcq's flush list */
	/**
	 * AEs with a sequence number (irdma_aeqe_info.seq) below this are about an earlier
	 * incarnation of the QP (before its last RESET or RESET -> INIT) and are dropped
	 * (atomic; irdma_aeq_mark()).
	 */
	uint64_t ae_mark;
};

/**
 * The hardware state of @p q (enum irdma_qp_hw_state). The control path changes it under the
 * QP's lock while the data path reads it without one: relaxed atomics, plain moves on x86.
 */
static inline uint8_t
irdma_qp_hw_state(const struct irdma_qp *q)
{
	return __atomic_load_n(&q->hw_state, __ATOMIC_RELAXED);
}

/* The hot-field promise of struct irdma_qp, held. */
_Static_assert(offsetof(struct irdma_qp, post_send) == 0 &&
	       offsetof(struct irdma_qp, sq) + sizeof(struct irdma_qp_ring) <= 64 &&
	       offsetof(struct irdma_qp, sq_wrtrk) + sizeof(void *) <= 64,
	       "post_send, the SQ and its tracking sit in the QP's first cache line");
_Static_assert(offsetof(struct irdma_qp, hw) < 128 && offsetof(struct irdma_qp, db_off) < 128 &&
	       offsetof(struct irdma_qp, gen) < 128 && offsetof(struct irdma_qp, qp_id) < 128 &&
	       offsetof(struct irdma_qp, sq_sig_all) < 128 &&
	       offsetof(struct irdma_qp, max_send_sge) < 128 &&
	       offsetof(struct irdma_qp, max_inline) < 128 &&
	       offsetof(struct irdma_qp, rq) + sizeof(struct irdma_qp_ring) <= 128 &&
	       offsetof(struct irdma_qp, rq_wrid) + sizeof(void *) <= 128 &&
	       offsetof(struct irdma_qp, max_recv_sge) < 128 &&
	       offsetof(struct irdma_qp, sq_open) < 128 && offsetof(struct irdma_qp, rq_open) < 128,
	       "what post_send and post_recv read sits in the QP's first two cache lines");

/**
 * Choose @p q's post_send variant (irdma_uk_post.c) from its generation, QP type, hardware
 * state and send CQ, and store it in q->post_send; set q->sq_open (templates) and q->rq_open
 * (post_recv) from the state and the SRQ. Called when the QP is made and at every hardware
 * state change (irdma_qp_hw_state_set()).
 */
void irdma_uk_qp_select(struct irdma_qp *q);

/**
 * Set the hardware state of @p q (see irdma_qp_hw_state()) and choose the post_send variant
 * of that state (irdma_uk_qp_select()). Callers hold the rdmadev QP's lock (modify, the AE
 * path, the reset path), so the state and the variant change together.
 */
static inline void
irdma_qp_hw_state_set(struct irdma_qp *q, uint8_t s)
{
	__atomic_store_n(&q->hw_state, s, __ATOMIC_RELAXED);
	irdma_uk_qp_select(q);
}

/**
 * Create a RoCE RC or UD QP for rdmadev QP @p qp: size the SQ / RQ (gen2 rules), allocate
 * the ring pages (level 0 when IOVA-contiguous, else a level-1 PBL with VQ, the kernel's
 * irdma_handle_q_mem; level 1 always with c->ring_pbl) and the Q2 + host-context buffer,
 * build the context and issue CREATE_QP. Raises qp->init.cap to what the rings hold; sets
 * qp->obj.fp.drv.
 * @return 0, -EINVAL (sizes beyond the device), -ENOTSUP (SRQ), -ENOMEM, or the CQP's
 *         -errno; nothing stays allocated on failure.
 */
int irdma_qp_create(struct irdma_ctrl *c, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_init_attr *attr);

/**
 * Apply a modify rdmadev validated: update the context with the attributes in @p mask and
 * move the HW state (INIT -> IDLE, RTR, RTS, SQD; ERR and RESET through SQD (from RTS),
 * ERROR and FLUSH_WQES of SQ and RQ).
 * @return 0 or the CQP's -errno (the context is restored; the HW state is the last one the
 *         device accepted).
 */
int irdma_qp_modify(struct irdma_ctrl *c, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_attr *attr, uint32_t mask);

/**
 * Refresh what the device owns in @p attr (rdmadev filled it from its records): ERR once
 * the device moved the QP to ERROR (a fatal AE; not in RESET), sq_draining while in SQD
 * with WQEs in flight, and the SQ / RQ depths the rings hold. Called under the QP's lock.
 * @return 0.
 */
int irdma_qp_query(struct irdma_ctrl *c, struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr);

/**
 * DESTROY_QP, then free the QP's memory.
 * @return 0, or the CQP's -errno (the QP is left intact).
 */
int irdma_qp_destroy(struct irdma_ctrl *c, struct rdmadev_qp *qp);

/**
 * Bind (@p bind) a QP to statistics instance @p inst, or unbind it (back to the function's
 * default instance): QPC_USESTATSINSTANCE and QPC_STAT_INDEX in the context, kept across
 * RESET, applied with MODIFY_QP to the QP's current HW state (before the first INIT they
 * reach the device with the next modify). The caller holds the rdmadev QP lock.
 * @return 0, or the CQP's -errno (the context and the binding are restored).
 */
int irdma_qp_stats_bind(struct irdma_ctrl *c, struct rdmadev_qp *qp, bool bind, uint32_t inst);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_QP_H */
