/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The completion half of the data path: poll_cq over the CQE ring (doc/hardware.md §3) and the
 * CQ arm (§3 "CQ arm", §4).
 *
 * Which CQ takes which path. The variant is chosen at create, after a resize and when poll
 * has drained a resize's old ring (irdma_uk_cq_select()) and stored in cq->poll;
 * irdma_uk_poll_cq() only calls it:
 *
 *   CQ                                             cq->poll
 *   no service hook, no old ring, no counter   ->  irdma_uk_poll_fast
 *   a service hook (inline model), an old ring
 *   or a completion counter                    ->  irdma_uk_poll_any
 *
 *   irdma_uk_poll_fast: successful plain SQ CQEs of the current ring, up to its last slot,
 *     in a leaf loop; at the first other CQE (RQ, error, flush, extended, cleaned), the
 *     ring's last slot, or an empty ring with driver flushes queued  ->  irdma_uk_poll_general
 *     with the completions so far
 *   irdma_uk_poll_any  ->  irdma_uk_poll_general: the hook, the old ring first, then
 *     irdma_uk_poll_ring (the fast CQEs inline, the rest irdma_uk_cqe_slow), driver flushes,
 *     the counter
 *
 * Per CQE: the valid bit against the ring's expected polarity, a read barrier, then the rest.
 * The QP is the CQE's completion context (the struct irdma_qp * in QPC_COMPL_CTX). SQ
 * completions take wr_id, opcode and byte count from the tracking entry at the CQE's WQE
 * index and move the SQ tail past it (unsignaled WRs and chunk NOPs before it complete
 * silently, as on silicon); RQ completions take wr_id from rq_wrid and the byte count from
 * the CQE.
 *
 * Flushes: a CQE with major IRDMA_CQE_MAJOR_FLUSH stays at the head of the ring while its
 * queue has outstanding WQEs and completes them one by one, from the tail, with the CQE's
 * status for the first and WR_FLUSH_ERR for the rest (its minor code is rewritten in place,
 * as rdma-core does), unsignaled WRs included and chunk NOPs skipped; then it is consumed.
 * sq_flushed / rq_flushed remember that the queue was flushed: a later error CQE for a WQE
 * the replay already completed (a device that writes one flush CQE per WQE) is consumed
 * silently, so every WR completes exactly once. Success CQEs never follow a flush CQE of the
 * same queue (the device completes in order), so the fast path does not look.
 *
 * Driver flushes (irdma_uk_flush_queue): WRs posted to a QP in ERROR, which the device no
 * longer takes, are completed by the driver with WR_FLUSH_ERR, as the kernel's
 * irdma_generate_flush_completions does: the queue waits on its CQ's flush list and poll
 * replays it (the same replay as a flush CQE's) when the CQE ring is empty, so the device's
 * CQEs come first. The hot loop reads cq->sw_flush only when it found the ring empty.
 *
 * After a burst the new head goes to CQ shadow qword 0 (the consumer index the device checks
 * for overflow), once. A ring a resize left behind (cq->old) is drained first.
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>
#include <rte_prefetch.h>

#include "irdma_cq.h"
#include "irdma_mr.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

/* Flush minor codes (enum irdma_flush_code) to statuses (doc/hardware.md §3). */
static const uint8_t irdma_uk_flush_status[] = {
	[IRDMA_FLUSH_INVALID] = RDMADEV_WC_GENERAL_ERR,
	[IRDMA_FLUSH_GENERAL_ERR] = RDMADEV_WC_WR_FLUSH_ERR,
	[IRDMA_FLUSH_PROT_ERR] = RDMADEV_WC_LOC_PROT_ERR,
	[IRDMA_FLUSH_REM_ACCESS_ERR] = RDMADEV_WC_REM_ACCESS_ERR,
	[IRDMA_FLUSH_LOC_QP_OP_ERR] = RDMADEV_WC_LOC_QP_OP_ERR,
	[IRDMA_FLUSH_REM_OP_ERR] = RDMADEV_WC_REM_OP_ERR,
	[IRDMA_FLUSH_LOC_LEN_ERR] = RDMADEV_WC_LOC_LEN_ERR,
	[IRDMA_FLUSH_FATAL_ERR] = RDMADEV_WC_FATAL_ERR,
	[IRDMA_FLUSH_RETRY_EXC_ERR] = RDMADEV_WC_RETRY_EXC_ERR,
	[IRDMA_FLUSH_MW_BIND_ERR] = RDMADEV_WC_MW_BIND_ERR,
	[IRDMA_FLUSH_REM_INV_REQ_ERR] = RDMADEV_WC_REM_INV_REQ_ERR,
	[IRDMA_FLUSH_RNR_RETRY_EXC_ERR] = RDMADEV_WC_RNR_RETRY_EXC_ERR,
};

/* Status of an error CQE: flushed ones by their minor code, other majors GENERAL_ERR. */
static inline uint8_t
irdma_uk_err_status(uint32_t major, uint32_t minor)
{
	if (major != IRDMA_CQE_MAJOR_FLUSH || minor >= RTE_DIM(irdma_uk_flush_status))
		return RDMADEV_WC_GENERAL_ERR;
	return irdma_uk_flush_status[minor];
}

static inline struct irdma_cqe *
irdma_uk_cqe(const struct irdma_cq_ring *r, uint32_t idx)
{
	return (struct irdma_cqe *)(void *)(r->base + (size_t)idx * IRDMA_CQE_SIZE);
}

/* A completion with everything but wr_id, status, opcode and byte_len zero. */
static inline void
irdma_uk_wc(struct rdmadev_wc *wc, uint64_t wr_id, uint8_t status, uint8_t opcode,
	    uint32_t len, uint32_t qp_num)
{
	*wc = (struct rdmadev_wc){
		.wr_id = wr_id,
		.status = status,
		.opcode = opcode,
		.byte_len = len,
		.qp_num = qp_num,
	};
}

/* Poll state of one ring during a burst. */
struct irdma_uk_pos {
	uint32_t head;		/* next slot */
	uint32_t pol;		/* expected valid bit */
};

/*
 * A BIND_MW or LOCAL_INV at SQ index @p idx that failed or was flushed did nothing: a bind's
 * window it counted as bound (pad) is not; a LOCAL_INV's window it counted as unbound is
 * bound to the region in pad again (its key from the WQE, still in the ring: the SQ tail
 * has not passed it). Out of line and cold, as the window bookkeeping below: the poll loops
 * inline their callers, and their code is part of a latency loop's instruction working set
 * (a few hundred bytes more in irdma_uk_poll_ring cost the model's write_lat 0.85 us, same
 * instructions executed).
 */
static __rte_noinline __rte_cold void
irdma_uk_mw_undo(const struct irdma_qp *qp, uint32_t idx)
{
	const struct irdma_sq_wrtrk *t = &qp->sq_wrtrk[idx];
	const struct irdma_wqe *wqe = (const struct irdma_wqe *)(const void *)
				      (qp->sq.base + (size_t)idx * IRDMA_QUANTUM_SIZE);

	if (t->opcode == RDMADEV_WC_BIND_MW && (t->pad & IRDMA_UK_TRK_MW_BOUND))
		irdma_mw_bind_failed(qp->ctrl, t->pad & IRDMA_UK_TRK_MW_IDX);
	else if (t->opcode == RDMADEV_WC_LOCAL_INV && (t->pad & IRDMA_UK_TRK_MW_UNBOUND))
		irdma_mw_inv_failed(qp->ctrl, (uint32_t)irdma_get(wqe, SQ_LINV_STAG),
				    t->pad & IRDMA_UK_TRK_MW_IDX);
}

/* A received SEND with invalidate: window bookkeeping (irdma_mw_note_inv), out of line. */
static __rte_noinline __rte_cold void
irdma_uk_inv_note(const struct irdma_qp *qp, uint32_t rkey)
{
	irdma_mw_note_inv(qp->ctrl, rkey);
}

/*
 * One completion of a flush replay on @p qp's SQ (@p sq) or RQ from the CQE at @p cqe.
 * @return 1 with *wc filled, or 0 when the queue has nothing left (the CQE is consumed).
 */
static int
irdma_uk_flush_one(struct irdma_qp *qp, bool sq, struct irdma_cqe *cqe, uint64_t qw3,
		   struct rdmadev_wc *wc)
{
	uint32_t major = (uint32_t)IRDMA_GET(CQE_MAJERR, qw3);
	uint32_t minor = (uint32_t)IRDMA_GET(CQE_MINERR, qw3);
	struct irdma_qp_ring *ring = sq ? &qp->sq : &qp->rq;
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	uint32_t mask = ring->quanta - 1;
	uint32_t tail = ring->tail;
	uint64_t wr_id;
	uint32_t len = 0;
	uint8_t opcode;

	if (sq) {
		qp->sq_flushed = 1;
		while (tail != head && qp->sq_wrtrk[tail].nop)
			tail = (tail + 1) & mask;
		if (tail == head) {
			__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
			return 0;
		}
		wr_id = qp->sq_wrtrk[tail].wr_id;
		len = qp->sq_wrtrk[tail].wr_len;
		opcode = qp->sq_wrtrk[tail].opcode;
		if (unlikely(opcode == RDMADEV_WC_BIND_MW || opcode == RDMADEV_WC_LOCAL_INV))
			irdma_uk_mw_undo(qp, tail);
		tail = (tail + qp->sq_wrtrk[tail].quanta) & mask;
	} else {
		qp->rq_flushed = 1;
		if (tail == head)
			return 0;
		wr_id = qp->rq_wrid[tail >> ring->shift];
		opcode = RDMADEV_WC_RECV;
		tail = (tail + (1u << ring->shift)) & mask;
	}
	irdma_uk_wc(wc, wr_id, irdma_uk_err_status(major, minor), opcode, len, qp->qp_id);
	wc->vendor_err = irdma_cqe_vendor_err(major, minor);
	/* The CQE's own code went to the first WR; the rest are plain flushes. */
	if (minor != IRDMA_FLUSH_GENERAL_ERR)
		irdma_set(cqe, CQE_MINERR, IRDMA_FLUSH_GENERAL_ERR);
	__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	return 1;
}

void
irdma_uk_flush_queue(struct irdma_qp *qp, bool sq)
{
	struct irdma_flush_link *l = sq ? &qp->sq_fl : &qp->rq_fl;
	struct irdma_cq *cq = sq ? qp->scq : qp->rcq;

	if (cq == NULL)
		return;
	pthread_mutex_lock(&cq->flush_lock);
	if (!l->queued) {
		l->qp = qp;
		l->sq = sq;
		l->queued = 1;
		l->next = cq->flush_list;
		cq->flush_list = l;
	}
	/* release: the ring's new head before the poller sees the flag */
	__atomic_store_n(&cq->sw_flush, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&cq->flush_lock);
}

static void
irdma_uk_flush_unlink(struct irdma_cq *cq, struct irdma_flush_link *l)
{
	struct irdma_flush_link **pp;

	if (cq == NULL)
		return;
	pthread_mutex_lock(&cq->flush_lock);
	for (pp = &cq->flush_list; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	}
	l->queued = 0;
	l->next = NULL;
	if (cq->flush_list == NULL)
		__atomic_store_n(&cq->sw_flush, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cq->flush_lock);
}

void
irdma_uk_flush_forget(struct irdma_qp *qp)
{
	irdma_uk_flush_unlink(qp->scq, &qp->sq_fl);
	irdma_uk_flush_unlink(qp->rcq, &qp->rq_fl);
}

/* Up to @p nb driver flush completions of @p cq's flush list (the ring is empty). */
static uint16_t
irdma_uk_poll_sw_flush(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb)
{
	const uint64_t qw3 = IRDMA_PREP(CQE_MAJERR, IRDMA_CQE_MAJOR_FLUSH) |
			     IRDMA_PREP(CQE_MINERR, IRDMA_FLUSH_GENERAL_ERR);
	struct irdma_flush_link *l;
	struct irdma_cqe cqe;
	uint16_t n = 0;

	memset(&cqe, 0, sizeof(cqe));
	pthread_mutex_lock(&cq->flush_lock);
	while ((l = cq->flush_list) != NULL) {
		while (n < nb && irdma_uk_flush_one(l->qp, l->sq, &cqe, qw3, &wcs[n]) == 1)
			n++;
		if (n == nb)
			break;
		/* drained: a WR posted from now on queues it again (under this lock) */
		cq->flush_list = l->next;
		l->queued = 0;
		l->next = NULL;
	}
	if (cq->flush_list == NULL)
		__atomic_store_n(&cq->sw_flush, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cq->flush_lock);
	return n;
}

/* RQ details: immediate, invalidated key, UD source (§3, extension slot @p ext or NULL). */
static inline void
irdma_uk_rq_details(const struct irdma_qp *qp, const struct irdma_cqe *cqe, uint64_t qw3,
		    const struct irdma_cqe_ext *ext, struct rdmadev_wc *wc)
{
	uint32_t op = (uint32_t)IRDMA_GET(CQE_OP, qw3);
	uint64_t e3;

	wc->byte_len = (uint32_t)irdma_get(cqe, CQE_PAYLDLEN);
	if (op == IRDMA_IBA_WRITE_ONLY_IMM || op == IRDMA_IBA_WRITE_LAST_IMM)
		wc->opcode = RDMADEV_WC_RECV_RDMA_IMM;
	if (qp->qp_type == IRDMA_QP_TYPE_ROCE_UD) {
		wc->src_qp = (uint32_t)irdma_get(cqe, CQE_UD_SRCQPN);
		wc->wc_flags |= RDMADEV_WC_GRH;
	} else if (IRDMA_GET(CQE_STAG, qw3)) {
		wc->invalidated_rkey = (uint32_t)irdma_get(cqe, CQE_INVSTAG);
		wc->wc_flags |= RDMADEV_WC_WITH_INV;
		/* a window of ours invalidated by the peer: bound to nothing any more */
		if (!IRDMA_GET(CQE_ERROR, qw3))
			irdma_uk_inv_note(qp, wc->invalidated_rkey);
	}
	if (ext == NULL)
		return;
	e3 = irdma_qw_get(&ext->qw[IRDMA_FIELD_QW(CQE_EXT_VALID)]);
	if (IRDMA_GET(CQE_EXT_IMMVALID, e3)) {
		wc->imm_data = rte_cpu_to_be_32((uint32_t)irdma_get(ext, CQE_EXT_IMMDATA));
		wc->wc_flags |= RDMADEV_WC_WITH_IMM;
	}
	if (IRDMA_GET(CQE_EXT_UDSMACVALID, e3)) {
		uint64_t mac = irdma_get(ext, CQE_EXT_UDSMAC);
		unsigned int b;

		/* byte 0 of the field is smac[5] */
		for (b = 0; b < RTE_DIM(wc->smac); b++)
			wc->smac[RTE_DIM(wc->smac) - 1 - b] = (uint8_t)(mac >> (8 * b));
		wc->wc_flags |= RDMADEV_WC_WITH_SMAC;
	}
	if (IRDMA_GET(CQE_EXT_UDVLANVALID, e3)) {
		uint32_t vlan = (uint32_t)irdma_get(ext, CQE_EXT_UDVLAN);

		wc->vlan_id = (uint16_t)(vlan & 0xfffu);
		wc->sl = (uint8_t)(vlan >> 13);
		wc->wc_flags |= RDMADEV_WC_WITH_VLAN;
	}
}

/*
 * A gen3 SRQ completion (CQE_SRQ): one per SRQ WQE, flushed ones too (a QP in error flushes
 * only the WQE it had taken; the SRQ's other WQEs stay for the other QPs), so no replay.
 * @return 1 with *wc filled, 0 for a CQE consumed silently.
 */
static int
irdma_uk_srq_wc(const struct irdma_cqe *cqe, uint64_t qw3, const struct irdma_cqe_ext *ext,
		struct rdmadev_wc *wc)
{
	struct irdma_qp *qp;
	uint64_t wr_id;

	qp = irdma_uk_srq_cqe(cqe, ext, &wr_id);
	if (qp == NULL)
		return 0;
	irdma_uk_wc(wc, wr_id, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV, 0, qp->qp_id);
	irdma_uk_rq_details(qp, cqe, qw3, ext, wc);
	if (IRDMA_GET(CQE_ERROR, qw3)) {
		uint32_t major = (uint32_t)IRDMA_GET(CQE_MAJERR, qw3);
		uint32_t minor = (uint32_t)IRDMA_GET(CQE_MINERR, qw3);

		wc->vendor_err = irdma_cqe_vendor_err(major, minor);
		/* Gen3's SRQ flush major carries the AE code as minor (rdma-core uk.c). */
		if (major == IRDMA_CQE_MAJOR_SRQ_FLUSH_RSVD) {
			major = IRDMA_CQE_MAJOR_FLUSH;
			minor = (uint32_t)irdma_ae_to_flush_code(minor, NULL);
		}
		wc->status = irdma_uk_err_status(major, minor);
		wc->byte_len = 0;
	}
	return 1;
}

/*
 * Everything but a successful plain SQ CQE: RQ completions, errors, flushes, extended CQEs,
 * CQEs of destroyed QPs. @return completions written to *wc (0 or 1); *slots = ring slots
 * to consume (0: the CQE stays, a flush replay continues; -1 in *slots: the extension slot
 * is not written yet, stop).
 */
static int
irdma_uk_cqe_slow(const struct irdma_cq_ring *r, const struct irdma_uk_pos *pos,
		  struct irdma_cqe *cqe, uint64_t qw3, struct rdmadev_wc *wc, int *slots)
{
	struct irdma_qp *qp = (struct irdma_qp *)(uintptr_t)irdma_get(cqe, CQE_COMP_CTX);
	bool sq = IRDMA_GET(CQE_SQ, qw3) == IRDMA_CQE_QTYPE_SQ;
	uint32_t idx = (uint32_t)IRDMA_GET(CQE_WQEIDX, qw3);
	const struct irdma_cqe_ext *ext = NULL;
	uint32_t major, minor, mask;

	*slots = 1;
	if (IRDMA_GET(CQE_EXTCQE, qw3)) {
		/* The extension is the next slot; its valid bit is that slot's pass. */
		uint32_t next = pos->head + 1 == r->size ? 0 : pos->head + 1;
		uint32_t epol = next == 0 ? !pos->pol : pos->pol;

		ext = (const struct irdma_cqe_ext *)(const void *)irdma_uk_cqe(r, next);
		if (IRDMA_GET(CQE_EXT_VALID, irdma_qw_load(ext, CQE_EXT_VALID)) != epol) {
			*slots = -1;
			return 0;
		}
		rte_io_rmb();
		*slots = 2;
	}
	if (IRDMA_GET(CQE_SRQ, qw3))
		return irdma_uk_srq_wc(cqe, qw3, ext, wc);
	if (unlikely(qp == NULL))
		return 0;	/* a destroyed QP's CQE (cleaned): consume it silently */
	major = (uint32_t)IRDMA_GET(CQE_MAJERR, qw3);
	minor = (uint32_t)IRDMA_GET(CQE_MINERR, qw3);
	if (IRDMA_GET(CQE_ERROR, qw3) && major == IRDMA_CQE_MAJOR_FLUSH) {
		if (irdma_uk_flush_one(qp, sq, cqe, qw3, wc) == 0)
			return 0;
		*slots = 0;
		return 1;
	}
	if (sq) {
		const struct irdma_sq_wrtrk *t = &qp->sq_wrtrk[idx];

		mask = qp->sq.quanta - 1;
		/* After a flush replay, a CQE for a WQE it completed is stale. */
		if (qp->sq_flushed && ((idx - qp->sq.tail) & mask) >=
		    ((__atomic_load_n(&qp->sq.head, __ATOMIC_ACQUIRE) - qp->sq.tail) & mask))
			return 0;
		irdma_uk_wc(wc, t->wr_id, RDMADEV_WC_SUCCESS, t->opcode, t->wr_len, qp->qp_id);
		/*
		 * A bind or a LOCAL_INV that failed changed no window; before the tail passes
		 * the WQE (a poster may reuse its slot and tracking entry from then on).
		 */
		if (IRDMA_GET(CQE_ERROR, qw3) && (t->opcode == RDMADEV_WC_BIND_MW ||
						  t->opcode == RDMADEV_WC_LOCAL_INV))
			irdma_uk_mw_undo(qp, idx);
		__atomic_store_n(&qp->sq.tail, t->next, __ATOMIC_RELEASE);
	} else {
		mask = qp->rq.quanta - 1;
		if (qp->rq_flushed && ((idx - qp->rq.tail) & mask) >=
		    ((__atomic_load_n(&qp->rq.head, __ATOMIC_ACQUIRE) - qp->rq.tail) & mask))
			return 0;
		irdma_uk_wc(wc, qp->rq_wrid[(idx & mask) >> qp->rq.shift], RDMADEV_WC_SUCCESS,
			    RDMADEV_WC_RECV, 0, qp->qp_id);
		irdma_uk_rq_details(qp, cqe, qw3, ext, wc);
		__atomic_store_n(&qp->rq.tail, (idx + (1u << qp->rq.shift)) & mask,
				 __ATOMIC_RELEASE);
	}
	if (IRDMA_GET(CQE_ERROR, qw3)) {
		wc->status = irdma_uk_err_status(major, minor);
		wc->vendor_err = irdma_cqe_vendor_err(major, minor);
	}
	return 1;
}

/* The tracking entry's first 24 bytes are the completion's (irdma_uk.h). */
#define IRDMA_UK_WC_HEAD	24u
_Static_assert(offsetof(struct irdma_sq_wrtrk, wr_id) == offsetof(struct rdmadev_wc, wr_id) &&
	       offsetof(struct irdma_sq_wrtrk, nop) == offsetof(struct rdmadev_wc, status) &&
	       offsetof(struct irdma_sq_wrtrk, opcode) == offsetof(struct rdmadev_wc, opcode) &&
	       offsetof(struct irdma_sq_wrtrk, rsvd) == offsetof(struct rdmadev_wc, wc_flags) &&
	       offsetof(struct irdma_sq_wrtrk, wr_len) == offsetof(struct rdmadev_wc, byte_len) &&
	       offsetof(struct irdma_sq_wrtrk, imm) == offsetof(struct rdmadev_wc, imm_data) &&
	       offsetof(struct irdma_sq_wrtrk, qp_num) == offsetof(struct rdmadev_wc, qp_num) &&
	       offsetof(struct rdmadev_wc, src_qp) == IRDMA_UK_WC_HEAD &&
	       sizeof(struct irdma_sq_wrtrk) == 32 && sizeof(struct rdmadev_wc) == 48,
	       "tracking entry and work completion line up");

/* A successful SQ completion from tracking entry @p t (nop, rsvd and imm are 0 there). */
static inline void
irdma_uk_wc_sq(struct rdmadev_wc *wc, const struct irdma_sq_wrtrk *t)
{
	memcpy(wc, t, IRDMA_UK_WC_HEAD);
	memset(&wc->src_qp, 0, sizeof(*wc) - IRDMA_UK_WC_HEAD);
}

/* qword 3 of a valid, successful, plain SQ CQE under this mask: the fast path's CQE */
#define IRDMA_UK_FAST_MASK (IRDMA_FIELD_MASK(CQE_VALID) | IRDMA_FIELD_MASK(CQE_ERROR) | \
			    IRDMA_FIELD_MASK(CQE_EXTCQE) | IRDMA_FIELD_MASK(CQE_SQ))

/*
 * A successful plain SQ CQE with qword 3 @p qw3 of QP @p qp into @p wc: the completion from
 * the tracking entry, which the SQ tail then passes.
 */
static __rte_always_inline void
irdma_uk_cqe_fast(struct irdma_qp *qp, uint64_t qw3, struct rdmadev_wc *wc)
{
	const struct irdma_sq_wrtrk *t = &qp->sq_wrtrk[IRDMA_GET(CQE_WQEIDX, qw3)];

	irdma_uk_wc_sq(wc, t);
	/* release: the entry is read before the poster may reuse it */
	__atomic_store_n(&qp->sq.tail, t->next, __ATOMIC_RELEASE);
}

/*
 * Poll ring @p r into @p wcs (at most @p nb), any kind of CQE. @return completions written;
 * *empty is set when the ring's next entry is not valid.
 *
 * A successful SQ CQE that is not extended is recognised by one masked compare of qword 3
 * (the valid bit and those three properties at once); everything else takes
 * irdma_uk_cqe_slow.
 */
static __rte_noinline uint16_t
irdma_uk_poll_ring(struct irdma_cq_ring *r, struct rdmadev_wc *wcs, uint16_t nb, bool *empty)
{
	uint8_t *base = r->base;
	uint8_t *end = base + (size_t)r->size * IRDMA_CQE_SIZE;
	uint8_t *c = base + (size_t)r->head * IRDMA_CQE_SIZE;
	/* qword 3 of a valid, successful, plain SQ CQE, masked with fast_mask */
	uint64_t expect = IRDMA_PREP(CQE_VALID, r->polarity) | IRDMA_FIELD_MASK(CQE_SQ);
	struct rdmadev_wc *wc = wcs, *wc_end = wcs + nb;

	*empty = false;
	while (wc != wc_end) {
		struct irdma_cqe *cqe = (struct irdma_cqe *)(void *)c;
		uint64_t qw3 = irdma_qw_load(cqe, CQE_VALID);
		struct irdma_uk_pos pos;
		uint32_t slots;
		int ret;

		if ((qw3 & IRDMA_UK_FAST_MASK) == expect) {
			struct irdma_qp *qp;

			/* Nothing of the CQE is read before its valid bit (dma_rmb). */
			rte_io_rmb();
			qp = (struct irdma_qp *)(uintptr_t)irdma_get(cqe, CQE_COMP_CTX);
			/* No flush guard: see irdma_uk_poll_fast. */
			if (likely(qp != NULL)) {
				irdma_uk_cqe_fast(qp, qw3, wc++);
				c += IRDMA_CQE_SIZE;
				if (unlikely(c == end)) {
					c = base;
					expect ^= IRDMA_FIELD_MASK(CQE_VALID);
				}
				continue;
			}
		}
		if ((qw3 ^ expect) & IRDMA_FIELD_MASK(CQE_VALID)) {
			*empty = true;
			break;
		}
		rte_io_rmb();
		pos.head = (uint32_t)((size_t)(c - base) / IRDMA_CQE_SIZE);
		pos.pol = (expect & IRDMA_FIELD_MASK(CQE_VALID)) != 0;
		wc += irdma_uk_cqe_slow(r, &pos, cqe, qw3, wc, &ret);
		if (ret < 0)
			break;
		for (slots = (uint32_t)ret; slots != 0; slots--) {
			c += IRDMA_CQE_SIZE;
			if (c == end) {
				c = base;
				expect ^= IRDMA_FIELD_MASK(CQE_VALID);
			}
		}
	}
	r->head = (uint32_t)((size_t)(c - base) / IRDMA_CQE_SIZE);
	r->polarity = (expect & IRDMA_FIELD_MASK(CQE_VALID)) != 0;
	return (uint16_t)(wc - wcs);
}

/*
 * Drain the ring a resize left behind; once it is empty, forget it and count it retired in
 * the arm word's SW_CQ_SELECT (irdma_uk_cq_set_resized_cnt; the other bits kept).
 */
static uint16_t
irdma_uk_poll_old(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb)
{
	struct irdma_cq_shadow *sh = cq->shadow;
	uint64_t w, sel;
	bool empty;
	uint16_t n = irdma_uk_poll_ring(&cq->old, wcs, nb, &empty);

	if (!empty)
		return n;
	cq->old.base = NULL;	/* drained: the control path frees it later */
	irdma_uk_cq_select(cq);
	w = irdma_qw_load(sh, CQ_ARM_SW_CQ_SELECT);
	sel = (IRDMA_GET(CQ_ARM_SW_CQ_SELECT, w) + 1) & IRDMA_FIELD_MAX(CQ_ARM_SW_CQ_SELECT);
	irdma_qw_store(sh, CQ_ARM_SW_CQ_SELECT, (w & ~IRDMA_FIELD_MASK(CQ_ARM_SW_CQ_SELECT)) |
		       IRDMA_PREP(CQ_ARM_SW_CQ_SELECT, sel));
	return n;
}

/* Tell the device the CQ's consumer index: the CQEs were read before their slots are reused. */
static __rte_always_inline void
irdma_uk_cq_consumed(struct irdma_cq *cq)
{
	rte_io_wmb();
	irdma_qw_store((struct irdma_cq_shadow *)cq->shadow, CQ_SHADOW_CQEIDX, cq->cur.head);
}

/*
 * poll_cq in general: the model's service hook, a resize's old ring, any kind of CQE, the
 * completion counter. @p n completions are already in @p wcs (the hot loop's, which runs only
 * without hook, old ring and counter). @return the burst's completions, @p n included.
 */
static __rte_noinline uint16_t
irdma_uk_poll_general(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs, uint16_t n)
{
	uint16_t first = n;
	uint32_t head;
	bool empty;

	if (cq->service != NULL)
		cq->service(cq->hw);
	if (cq->old.base != NULL)
		n = (uint16_t)(n + irdma_uk_poll_old(cq, wcs + n, (uint16_t)(nb_wcs - n)));
	if (n < nb_wcs) {
		head = cq->cur.head;
		n = (uint16_t)(n + irdma_uk_poll_ring(&cq->cur, wcs + n, (uint16_t)(nb_wcs - n),
						      &empty));
		/* The shadow holds the head only: a whole pass back to it changes nothing. */
		if (cq->cur.head != head)
			irdma_uk_cq_consumed(cq);
		if (empty && n < nb_wcs && __atomic_load_n(&cq->sw_flush, __ATOMIC_ACQUIRE) != 0)
			n = (uint16_t)(n + irdma_uk_poll_sw_flush(cq, wcs + n,
								  (uint16_t)(nb_wcs - n)));
	}
	if (cq->comp_cntr != NULL && n != first)
		/* relaxed: a statistic; readers need no ordering with the completions */
		__atomic_fetch_add(cq->comp_cntr, n - first, __ATOMIC_RELAXED);
	return n;
}

/*
 * The variant irdma_uk_poll_fast is a leaf: successful plain SQ CQEs of the current ring, up
 * to nb_wcs of them and up to the ring's last slot, one compare a CQE for both limits.
 * Whatever else there is (another kind of CQE, the wrap, driver flushes) goes to
 * irdma_uk_poll_general, as a tail call with the completions so far. The CQ has no service
 * hook, old ring or completion counter (irdma_uk_cq_select()).
 */
uint16_t
irdma_uk_poll_fast(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	struct irdma_cq_ring *r = &cq->cur;
	uint8_t *base = r->base;
	uint8_t *c = base + (size_t)r->head * IRDMA_CQE_SIZE, *start = c;
	/* the ring's last slot (the wrap) is left to the general loop */
	uint32_t ring_left = r->size - r->head - 1;
	uint64_t expect = IRDMA_PREP(CQE_VALID, r->polarity) | IRDMA_FIELD_MASK(CQE_SQ);
	struct rdmadev_wc *wc = wcs, *stop = wcs + (nb_wcs <= ring_left ? nb_wcs : ring_left);
	bool general = true;

	while (wc != stop) {
		struct irdma_cqe *cqe = (struct irdma_cqe *)(void *)c;
		uint64_t qw3 = irdma_qw_load(cqe, CQE_VALID);
		struct irdma_qp *qp;

		if (unlikely((qw3 & IRDMA_UK_FAST_MASK) != expect)) {
			/* not written yet: the ring is empty */
			general = ((qw3 ^ expect) & IRDMA_FIELD_MASK(CQE_VALID)) == 0;
			break;
		}
		/* Nothing of the CQE is read before its valid bit (dma_rmb). */
		rte_io_rmb();
		qp = (struct irdma_qp *)(uintptr_t)irdma_get(cqe, CQE_COMP_CTX);
		rte_prefetch0(c + 2 * IRDMA_CQE_SIZE);
		/*
		 * A cleaned CQE (its QP destroyed) has no QP: the general loop consumes it.
		 * No flush guard here: a device completes a queue in order, so no success CQE
		 * follows a flush CQE of the same SQ (error CQEs, which can, take the slow path
		 * and its guard).
		 */
		if (unlikely(qp == NULL))
			break;
		irdma_uk_cqe_fast(qp, qw3, wc++);
		c += IRDMA_CQE_SIZE;
	}
	if (c != start) {
		r->head = (uint32_t)((size_t)(c - base) / IRDMA_CQE_SIZE);
		irdma_uk_cq_consumed(cq);
	}
	if (likely(wc == wcs + nb_wcs ||
		   (!general && __atomic_load_n(&cq->sw_flush, __ATOMIC_RELAXED) == 0)))
		return (uint16_t)(wc - wcs);
	/* Another kind of CQE, or the ring's last slot: the general loop takes the rest. */
	return irdma_uk_poll_general(cq, wcs, nb_wcs, (uint16_t)(wc - wcs));
}

/* The variant irdma_uk_poll_any: everything irdma_uk_poll_general takes, from the start. */
uint16_t
irdma_uk_poll_any(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	return irdma_uk_poll_general(cq, wcs, nb_wcs, 0);
}

void
irdma_uk_cq_select(struct irdma_cq *cq)
{
	cq->poll = cq->service == NULL && cq->old.base == NULL && cq->comp_cntr == NULL ?
		   irdma_uk_poll_fast : irdma_uk_poll_any;
}

/* The rdmadev entry: the CQ's variant. */
uint16_t
irdma_uk_poll_cq(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	struct irdma_cq *cq = cq_priv;

	return cq->poll(cq, wcs, nb_wcs);
}

int
irdma_uk_cq_arm(void *cq_priv, int solicited_only)
{
	struct irdma_cq *cq = cq_priv;
	struct irdma_cq_shadow *sh = cq->shadow;
	uint64_t word = irdma_cq_arm_word(irdma_qw_load(sh, CQ_ARM_NEXT), solicited_only == 0);

	irdma_qw_store(sh, CQ_ARM_NEXT, word);
	cq->arm_seq = (uint32_t)IRDMA_GET(CQ_ARM_SEQ_NUM, word);
	/* irdma_wr32 orders the arm word before the doorbell (dma_wmb, then write32). */
	irdma_wr32(cq->hw, IRDMA_PFPE_CQARM, cq->id);
	return 0;
}
