/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCEv2 reliable connection, responder side: PSN checks (duplicates re-ACKed or READs
 * answered again, a sequence NAK once per gap), RQ WQEs for SENDs and WRITEs with
 * immediate (RNR NAK when none), rkey / PD / rights / bounds checks on every remote access,
 * WRITE placement, READ responses within the IRD, ACK coalescing (one ACK per round, after
 * the read responses that precede it), NAKs. Called with dev->lock held.
 *
 * Errors of class C (remote access, invalid request, remote operational) send the NAK,
 * raise the AE and move the responder QP to error as well, as rxe does.
 *
 * Atomics (gen3, QPC_REMOTE_ATOMIC_EN): the request is checked (8-byte alignment: invalid
 * request; QP or key without the remote-atomic right, bounds: remote access; nothing is
 * touched on a refusal), executed once on the 8 bytes (host order, under dev->lock), its
 * result saved by PSN (MODEL_ATOMIC_SAVED newest) and answered with an ATOMIC_ACKNOWLEDGE
 * that takes an IRD slot like a READ. A duplicate request gets the saved result again and
 * never executes twice.
 */

#include <errno.h>
#include <limits.h>
#include <string.h>

#include <rte_byteorder.h>

#include "model_engine.h"
#include "model_opcode.h"

static int
rc_ack_send(struct model_dev *d, struct model_qp *q, uint8_t syn, uint32_t psn)
{
	struct model_pkt_hdr h;
	int ret;

	/* A plain ACK acknowledges everything accepted: the PSN before the expected one. */
	if (syn == MODEL_AETH_ACK)
		psn = model_psn_add(q->eng->epsn, 0xffffffu);
	model_hdr_init(d, q, &h, MODEL_RC_ACK, psn);
	h.aeth_syndrome = syn;
	h.aeth_msn = q->eng->msn & 0xffffffu;
	if (syn == MODEL_AETH_ACK)
		h.aeth_syndrome = MODEL_AETH_ACK | 0x1f; /* credits: not limited */
	ret = model_tx(d, q, &h, NULL, 0);
	if (ret != 0)
		return ret;
	/* Every ACK / NAK acknowledges the packets before its PSN. */
	q->eng->unacked = 0;
	if (syn == MODEL_AETH_ACK) {
		MODEL_INC(d, acks_sent);
	} else if ((syn & 0xe0u) == MODEL_AETH_RNR_NAK) {
		MODEL_INC(d, rnr_naks_sent);
		MODEL_HW(q->hw_st, RNR_SENT, 1);
	} else {
		MODEL_INC(d, naks_sent);
	}
	return 0;
}

static void
ack_queue(struct model_qpe *e, uint8_t syn, uint32_t psn)
{
	/* A NAK is never replaced by a plain ACK of the same round. */
	if (e->ack_pending && e->ack_syn != MODEL_AETH_ACK && syn == MODEL_AETH_ACK)
		return;
	e->ack_pending = true;
	e->ack_syn = syn;
	e->ack_psn = psn;
}

/* No RQ WQE: RNR NAK; later packets are dropped silently until the retry comes. */
static void
rnr_queue(struct model_dev *d, struct model_qpe *e, uint32_t psn)
{
	MODEL_INC(d, rnr_events);
	e->nak_sent = true;
	ack_queue(e, MODEL_AETH_RNR_NAK | MODEL_RNR_TIMER_CODE, psn);
}

static bool rr_send(struct model_dev *d, uint32_t qp_id, struct model_qp *q, unsigned int max);

/*
 * Class C error at the responder: NAK now, AE, and the QP goes to error. The READ and
 * atomic responses still queued answer requests before the failed one (every queued
 * request has a lower PSN): they go first, as a responder answers in PSN order, unless one
 * of them fails itself (its own NAK then ends the QP) or the wire is full.
 */
static void
rc_resp_error(struct model_dev *d, uint32_t qp_id, struct model_qp *q, uint8_t syn,
	      uint32_t psn, uint32_t ae)
{
	struct model_qpe *e = q->eng;

	if (e->rr_cnt > 0 && !e->rr_draining) {
		bool sent;

		e->rr_draining = true;
		sent = rr_send(d, qp_id, q, UINT_MAX);
		e->rr_draining = false;
		if (q->state == IRDMA_QP_HW_ERROR)
			return;
		if (!sent)
			MODEL_LOG(DEBUG, d, "QP %u: %u read responses lost before the NAK (wire "
				  "full)", qp_id, e->rr_cnt);
	}
	MODEL_LOG(DEBUG, d, "QP %u: NAK 0x%x at PSN 0x%x (expected 0x%x, SEND %s, WRITE %s)",
		  qp_id, syn, psn, e->epsn, e->rx_active ? "open" : "closed",
		  e->wr_active ? "open" : "closed");
	(void)rc_ack_send(d, q, syn, psn);
	q->eng->ack_pending = false;
	model_qp_fail(d, qp_id, ae, IRDMA_AE_SOURCE_IN_RR_WR);
}

/* The answer of a failed responder check: a NAK syndrome and the asynchronous error. */
struct model_resp_err {
	uint8_t syn;	/* MODEL_AETH_NAK_*, 0 when the check passed */
	uint32_t ae;	/* IRDMA_AE_* */
};

/* A check passed. */
#define RESP_OK		((struct model_resp_err){ 0, 0 })
/* The invalid-request NAK of an opcode out of sequence, a bad length or an unknown request. */
#define RESP_INV_REQ	((struct model_resp_err){ MODEL_AETH_NAK_INV_REQ, \
						  IRDMA_AE_IB_INVALID_REQUEST })

/* Answer request @p h with the pair @p err (class C: the QP goes to error). */
static void
rc_resp_nak(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	    const struct model_pkt_hdr *h, struct model_resp_err err)
{
	rc_resp_error(d, qp_id, q, err.syn, h->psn, err.ae);
}

/*
 * Send up to @p max packets of the queued READ and atomic responses, in PSN order: false
 * when the wire is full (the rest next round) or a response failed (the QP is in error).
 */
static bool
rr_send(struct model_dev *d, uint32_t qp_id, struct model_qp *q, unsigned int max)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q);
	unsigned int n = 0;

	while (e->rr_cnt > 0 && n < max) {
		struct model_rdreq *r = &e->rr[e->rr_head];
		uint32_t plen = RTE_MIN(mtu, r->len - r->off);
		bool first = r->off == 0, last = r->off + plen == r->len;
		struct model_pkt_hdr h;
		uint8_t *pay;
		uint32_t ae;

		if (r->atomic) {
			model_hdr_init(d, q, &h, MODEL_RC_ATOMIC_ACK, r->psn);
			h.aeth_syndrome = MODEL_AETH_ACK | 0x1f;
			h.aeth_msn = r->msn & 0xffffffu;
			h.atomic_orig = r->orig;
			if (model_tx(d, q, &h, NULL, 0) == -ENOBUFS)
				return false;
			n++;
			e->rr_head = (e->rr_head + 1) % MODEL_IRD_MAX;
			e->rr_cnt--;
			continue;
		}
		model_hdr_init(d, q, &h, first && last ? MODEL_RC_READ_RESP_ONLY :
				   first ? MODEL_RC_READ_RESP_FIRST :
				   last ? MODEL_RC_READ_RESP_LAST : MODEL_RC_READ_RESP_MIDDLE,
			       model_psn_add(r->psn, r->off / mtu));
		h.aeth_syndrome = MODEL_AETH_ACK | 0x1f;
		h.aeth_msn = r->msn & 0xffffffu;
		/* read straight into the frame (one that cannot be built is lost, as sent) */
		pay = model_tx_prep(d, &h, plen);
		ae = plen == 0 || pay == NULL ? 0 :
		     model_mr_copy(d, r->rkey, r->va + r->off, plen, IRDMA_ACCESS_REMOTE_READ,
				   q->pd, false, pay);
		if (ae != 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS,
				      model_psn_add(r->psn, r->off / mtu), ae);
			return false;
		}
		if (pay != NULL && model_tx_commit(d, q, &h) == -ENOBUFS)
			return false; /* the wire is full: this response again next round */
		r->off += plen;
		n++;
		if (last) {
			e->rr_head = (e->rr_head + 1) % MODEL_IRD_MAX;
			e->rr_cnt--;
		}
	}
	return e->rr_cnt == 0 || n == max;
}

/* Responder output: read responses first (they are in PSN order), then the ACK / NAK. */
void
model_rc_resp_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	struct model_qpe *e = q->eng;

	if (e->rr_cnt > 0 && !rr_send(d, qp_id, q, MODEL_TX_BURST))
		return;
	/* The time bound of the coalescing: packets waiting too long get their ACK now. */
	if (!e->ack_pending && e->unacked > 0 &&
	    model_now() - e->unacked_since >= d->ack_coalesce_cycles) {
		MODEL_INC(d, acks_coalesced);
		ack_queue(e, MODEL_AETH_ACK, 0);
	}
	/*
	 * In a stream of WRITEs (one in each round, as a bandwidth test sends them), the plain
	 * ACK a WRITE of this round asked for waits for the next rounds' (IBA vol. 1 ch. 9
	 * coalesced acknowledges: one ACK covers every request up to its PSN): it goes in the
	 * first round that brings this QP no new request, or at the packet bound above.
	 */
	if (e->rr_cnt == 0 && e->ack_pending &&
	    !(e->ack_wait && e->ack_syn == MODEL_AETH_ACK && e->req_round == d->round) &&
	    rc_ack_send(d, q, e->ack_syn, e->ack_psn) == 0)
		e->ack_pending = false;
}

void
model_rc_resp_ack_flush(struct model_dev *d, struct model_qp *q)
{
	struct model_qpe *e = q->eng;

	if (e == NULL || q->type == IRDMA_QP_TYPE_ROCE_UD || !e->ack_pending ||
	    e->ack_syn != MODEL_AETH_ACK || e->rr_cnt != 0)
		return;
	if (rc_ack_send(d, q, e->ack_syn, e->ack_psn) == 0)
		e->ack_pending = false;
}

/*
 * IRD the responder honours, capped: QPC_IRDSIZE decoded (0: 4, 1: 16, 2: 64, 3: 128,
 * 4: 256), on gen3 QPC_IRDSIZE_GEN3 (4 << code).
 */
static uint32_t
rc_ird(const struct model_dev *d, const struct model_qp *q)
{
	static const uint32_t ird[] = { 4, 16, 64, 128, 256 };

	if (d->cfg.gen >= IRDMA_GEN_3)
		return 4u << RTE_MIN(q->ird_enc, 5u); /* 128 = MODEL_IRD_MAX from code 5 on */
	return RTE_MIN(ird[RTE_MIN(q->ird_enc, (uint32_t)RTE_DIM(ird) - 1)], MODEL_IRD_MAX);
}

static void
rr_push(struct model_qpe *e, uint32_t psn, uint64_t va, uint32_t rkey, uint32_t len)
{
	struct model_rdreq *r = &e->rr[(e->rr_head + e->rr_cnt) % MODEL_IRD_MAX];

	r->psn = psn;
	r->va = va;
	r->rkey = rkey;
	r->len = len;
	r->off = 0;
	r->atomic = false;
	r->msn = e->msn;
	e->rr_cnt++;
}

/* Queue the ATOMIC_ACKNOWLEDGE of PSN @p psn with @p orig (an IRD slot, in PSN order). */
static void
rr_push_atomic(struct model_qpe *e, uint32_t psn, uint64_t orig)
{
	struct model_rdreq *r = &e->rr[(e->rr_head + e->rr_cnt) % MODEL_IRD_MAX];

	memset(r, 0, sizeof(*r));
	r->psn = psn;
	r->atomic = true;
	r->orig = orig;
	r->msn = e->msn;
	e->rr_cnt++;
}

/* A duplicate atomic request: answer it from its saved result (never execute it again). */
static void
rc_resp_atomic_dup(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	uint32_t i;

	for (i = 0; i < e->rr_cnt; i++) {
		const struct model_rdreq *r = &e->rr[(e->rr_head + i) % MODEL_IRD_MAX];

		if (r->atomic && r->psn == h->psn)
			return; /* its acknowledge is still queued */
	}
	for (i = 0; i < MODEL_ATOMIC_SAVED; i++) {
		const struct model_atomic_saved *s = &e->at_saved[i];

		if (s->valid && s->psn == h->psn) {
			if (e->rr_cnt < rc_ird(d, q)) {
				rr_push_atomic(e, h->psn, s->orig);
				MODEL_INC(d, dup_atomics);
			}
			return;
		}
	}
	/* Older than what the responder keeps: dropped (the requester's timer gives up). */
	MODEL_LOG(DEBUG, d, "duplicate atomic at PSN 0x%x: no saved result", h->psn);
}

/* A new atomic request at the expected PSN; false when it was refused (QP in error). */
static bool
rc_resp_atomic(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	       const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	struct model_atomic_saved *s;
	uint64_t orig = 0;
	uint32_t ae;

	if (h->atomic_va & (sizeof(uint64_t) - 1)) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_INV_REQ, h->psn,
			      IRDMA_AE_ATOMIC_ALIGNMENT);
		return false;
	}
	if (!q->atomic_en) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn,
			      IRDMA_AE_AMP_RIGHTS_VIOLATION);
		return false;
	}
	if (e->rr_cnt >= rc_ird(d, q)) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_INV_REQ, h->psn,
			      IRDMA_AE_IB_RREQ_AND_Q1_FULL);
		return false;
	}
	ae = model_mr_atomic(d, h->atomic_rkey, h->atomic_va, q->pd,
			     h->opcode == MODEL_RC_CMP_SWAP, h->atomic_swap_add, h->atomic_cmp,
			     &orig);
	if (ae != 0) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn, ae);
		return false;
	}
	s = &e->at_saved[e->at_next];
	e->at_next = (e->at_next + 1) % MODEL_ATOMIC_SAVED;
	s->psn = h->psn;
	s->orig = orig;
	s->valid = true;
	/* A new atomic completes at the responder when executed (IBA C9-148): MSN + 1. */
	e->msn++;
	rr_push_atomic(e, h->psn, orig);
	MODEL_INC(d, in_atomics);
	return true;
}

/* A READ request (new or duplicate); false when it was refused (QP in error). */
static bool
rc_resp_read(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	     const struct model_pkt_hdr *h, bool dup)
{
	struct model_qpe *e = q->eng;
	uint32_t ae;

	if (!q->rdok) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn,
			      IRDMA_AE_AMP_RIGHTS_VIOLATION);
		return false;
	}
	ae = h->reth_len == 0 ? 0 : model_mr_check(d, h->reth_rkey, h->reth_va, h->reth_len,
						   IRDMA_ACCESS_REMOTE_READ, q->pd);
	if (ae != 0) {
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn, ae);
		return false;
	}
	if (e->rr_cnt >= rc_ird(d, q)) {
		if (dup)
			return true; /* answered later by the requester's retry */
		rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_INV_REQ, h->psn,
			      IRDMA_AE_IB_RREQ_AND_Q1_FULL);
		return false;
	}
	if (dup) {
		uint32_t i;

		/* Already queued from this PSN: answered anyway. */
		for (i = 0; i < e->rr_cnt; i++)
			if (e->rr[(e->rr_head + i) % MODEL_IRD_MAX].psn == h->psn)
				return true;
	}
	/* A new READ counts in the MSN once accepted (IBA C9-148); its responses carry it. */
	if (!dup)
		e->msn++;
	rr_push(e, h->psn, h->reth_va, h->reth_rkey, h->reth_len);
	MODEL_INC(d, in_rdma_reads);
	return true;
}

/* A SEND packet at the expected PSN. */
static bool
rc_resp_send(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	     const struct model_pkt_hdr *h, uint16_t f, const uint8_t *payload, uint32_t len)
{
	struct model_qpe *e = q->eng;
	uint8_t op = h->opcode;
	bool first = (f & MODEL_OPF_FIRST) != 0;
	bool last = (f & MODEL_OPF_LAST) != 0;
	struct model_rq_cqe c;
	uint32_t ae;
	int ret;

	if (first) {
		ret = model_rq_peek(d, qp_id, q, e->rx_frag, &e->rx_nfrags, &e->rx_idx, &ae);
		if (ret == 0) {
			rnr_queue(d, e, h->psn);
			return false;
		}
		if (ret < 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_OP, h->psn, ae);
			return false;
		}
		model_rq_consume(q);
		e->rx_active = true;
		e->rx_off = 0;
		MODEL_INC(d, in_rdma_sends);
	}
	ae = model_scatter(d, q, e->rx_frag, e->rx_nfrags, e->rx_off, payload, len);
	if (ae != 0) {
		/* Longer than the receive: invalid request; an SGE refused: remote op. */
		bool too_long = ae == IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER;
		uint8_t syn = too_long ? MODEL_AETH_NAK_INV_REQ : MODEL_AETH_NAK_REM_OP;

		rc_resp_error(d, qp_id, q, syn, h->psn, ae);
		return false;
	}
	e->rx_off += len;
	if (!last)
		return true;
	memset(&c, 0, sizeof(c));
	c.idx = e->rx_idx;
	c.len = e->rx_off;
	c.op = op;
	c.solicited = h->se;
	if (f & MODEL_OPF_IMM) {
		c.imm_valid = true;
		c.imm = rte_be_to_cpu_32(h->imm_be);
	}
	if (f & MODEL_OPF_INV) {
		ae = model_mr_invalidate(d, h->ieth_rkey, q->pd, true);
		if (ae != 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn, ae);
			return false;
		}
		MODEL_INC(d, rdma_inv);
		MODEL_HW(q->hw_st, RDMAVINV, 1);
		c.inv_valid = true;
		c.inv_stag = h->ieth_rkey;
	}
	e->rx_active = false;
	e->msn++;
	model_rq_cqe(d, qp_id, &c);
	return true;
}

/* A WRITE packet at the expected PSN. */
static bool
rc_resp_write(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	      const struct model_pkt_hdr *h, uint16_t f, const uint8_t *payload, uint32_t len)
{
	struct model_qpe *e = q->eng;
	uint8_t op = h->opcode;
	bool first = (f & MODEL_OPF_FIRST) != 0;
	bool last = (f & MODEL_OPF_LAST) != 0;
	bool imm = (f & MODEL_OPF_IMM) != 0;
	struct model_frag frag[MODEL_MAX_FRAGS];
	uint32_t ae, idx = 0;
	uint8_t nfrags;
	int ret;

	if (first) {
		if (!q->wrrdrspok) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn,
				      IRDMA_AE_AMP_RIGHTS_VIOLATION);
			return false;
		}
		/*
		 * A WRITE ONLY of exactly reth_len bytes without immediate: the copy below
		 * checks the same R_Key, range and right before it places a byte, and fails
		 * the same way, with nothing between them that could answer first.
		 */
		bool checked_by_copy = last && !imm && len == h->reth_len;

		ae = h->reth_len == 0 || checked_by_copy ? 0 :
		     model_mr_check(d, h->reth_rkey, h->reth_va, h->reth_len,
				    IRDMA_ACCESS_REMOTE_WRITE, q->pd);
		if (ae != 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn, ae);
			return false;
		}
		e->wr_va = h->reth_va;
		e->wr_rkey = h->reth_rkey;
		e->wr_left = h->reth_len;
		e->rx_off = h->reth_len; /* the total, for a WRITE with immediate */
	}
	if (len > e->wr_left || (last && len != e->wr_left)) {
		rc_resp_nak(d, qp_id, q, h, RESP_INV_REQ);
		return false;
	}
	if (imm) {
		/* The immediate needs an RQ WQE: RNR before placing anything of this packet. */
		ret = model_rq_peek(d, qp_id, q, frag, &nfrags, &idx, &ae);
		if (ret == 0) {
			rnr_queue(d, e, h->psn);
			return false;
		}
		if (ret < 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_OP, h->psn, ae);
			return false;
		}
	}
	if (len > 0) {
		ae = model_mr_copy(d, e->wr_rkey, e->wr_va, len, IRDMA_ACCESS_REMOTE_WRITE, q->pd,
				   true, (void *)(uintptr_t)payload);
		if (ae != 0) {
			rc_resp_error(d, qp_id, q, MODEL_AETH_NAK_REM_ACCESS, h->psn, ae);
			return false;
		}
	}
	if (first)
		MODEL_INC(d, in_rdma_writes);
	e->wr_va += len;
	e->wr_left -= len;
	e->wr_active = !last;
	if (last)
		e->msn++;
	if (imm) {
		struct model_rq_cqe c;

		model_rq_consume(q);
		memset(&c, 0, sizeof(c));
		c.idx = idx;
		c.len = e->rx_off;
		c.op = op;
		c.solicited = h->se;
		c.imm_valid = true;
		c.imm = rte_be_to_cpu_32(h->imm_be);
		model_rq_cqe(d, qp_id, &c);
	}
	return true;
}

/*
 * The responder's steps for a request packet, in order (IBA 9.7.5.1): check the PSN, check
 * the opcode against the message in progress and the packet's length, then execute
 * (resources, R_Key and access checks inside each operation), then acknowledge. A check
 * that fails answers with its {NAK syndrome, asynchronous error} pair (rc_resp_nak()).
 */

/* Step 1: the PSN. True for the expected PSN; a duplicate or a gap is answered here. */
static bool
resp_check_psn(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	       const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	int32_t diff = model_psn_diff(h->psn, e->epsn);

	if (diff < 0) {
		/* Duplicate: re-ACK (SEND / WRITE), or answer the READ / atomic again. */
		MODEL_INC(d, dup_requests);
		if (model_bth_is(h->opcode, MODEL_OPF_READ))
			(void)rc_resp_read(d, qp_id, q, h, true);
		else if (model_bth_is(h->opcode, MODEL_OPF_ATOMIC) && d->cfg.gen >= IRDMA_GEN_3)
			rc_resp_atomic_dup(d, q, h);
		else
			ack_queue(e, MODEL_AETH_ACK, model_psn_add(e->epsn, 0xffffffu));
		return false;
	}
	if (diff > 0) {
		MODEL_INC(d, seq_errors);
		MODEL_HW(q->hw_st, RXOOOPKTS, 1);
		if (!e->nak_sent) {
			e->nak_sent = true;
			ack_queue(e, MODEL_AETH_NAK_PSN_SEQ, e->epsn);
		}
		return false;
	}
	e->nak_sent = false;
	return true;
}

/*
 * Step 2: the opcode in sequence and the length. A SEND continues only a SEND, a WRITE only
 * a WRITE; a READ or an atomic starts nothing while one is open; a first packet opens a
 * message, the others continue one; a packet that is not the last is one MTU long;
 * atomics exist from generation 3.
 */
static struct model_resp_err
resp_check_op_seq(const struct model_dev *d, const struct model_qp *q, uint16_t f,
		  uint32_t len)
{
	const struct model_qpe *e = q->eng;
	bool first = (f & MODEL_OPF_FIRST) != 0;

	if (f & (MODEL_OPF_READ | MODEL_OPF_ATOMIC)) {
		/* one packet each, nothing open */
		if (e->rx_active || e->wr_active ||
		    ((f & MODEL_OPF_ATOMIC) && d->cfg.gen < IRDMA_GEN_3))
			return RESP_INV_REQ;
		return RESP_OK;
	}
	if (f & MODEL_OPF_SEND) {
		if (e->wr_active || first == e->rx_active)
			return RESP_INV_REQ;
	} else if (f & MODEL_OPF_WRITE) {
		if (e->rx_active || first == e->wr_active)
			return RESP_INV_REQ;
	} else {
		return RESP_INV_REQ; /* not a request */
	}
	if (!(f & MODEL_OPF_LAST) && len != model_rc_mtu(q))
		return RESP_INV_REQ;
	return RESP_OK;
}

/* Step 4: acknowledge an executed SEND / WRITE packet (coalesced up to the packet bound). */
static void
resp_ack(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	uint16_t f = model_bth_ops[h->opcode].flags;
	/*
	 * WRITEs without immediate in consecutive rounds: a stream, whose ACKs wait
	 * (model_rc_resp_tx()). Never a SEND or an immediate: its receive completion may let
	 * the application go (and destroy the QP) before a later round sends the ACK.
	 */
	bool stream = d->round - e->req_round <= 1 && (f & MODEL_OPF_WRITE) &&
		      !(f & MODEL_OPF_IMM);

	e->req_round = d->round;
	e->epsn = model_psn_add(e->epsn, 1);
	if (e->unacked++ == 0)
		e->unacked_since = model_now();
	if (e->unacked >= MODEL_ACK_COALESCE_PKTS) {
		/* The packet bound: this ACK does not wait for the end of the burst. */
		if (!h->ackreq)
			MODEL_INC(d, acks_coalesced);
		ack_queue(e, MODEL_AETH_ACK, h->psn);
		if (e->rr_cnt == 0 && rc_ack_send(d, q, e->ack_syn, e->ack_psn) == 0)
			e->ack_pending = false;
	} else if (h->ackreq) {
		ack_queue(e, MODEL_AETH_ACK, h->psn);
		e->ack_wait = stream;
	}
}

/* A request packet (SEND / WRITE / READ / atomic) at the responder. */
void
model_rc_request(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	      const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len)
{
	struct model_qpe *e = q->eng;
	uint16_t f = model_bth_ops[h->opcode].flags;
	struct model_resp_err err;

	if (!resp_check_psn(d, qp_id, q, h))
		return;
	err = resp_check_op_seq(d, q, f, len);
	if (err.syn != 0) {
		rc_resp_nak(d, qp_id, q, h, err);
		return;
	}
	/* Step 3: execute (each operation checks its resources, R_Key and access). */
	if (f & MODEL_OPF_READ) {
		if (rc_resp_read(d, qp_id, q, h, false))
			e->epsn = model_psn_add(e->epsn,
						model_pkts_of(h->reth_len, model_rc_mtu(q)));
		return;
	}
	if (f & MODEL_OPF_ATOMIC) {
		if (rc_resp_atomic(d, qp_id, q, h))
			e->epsn = model_psn_add(e->epsn, 1);
		return;
	}
	if ((f & MODEL_OPF_SEND) ? rc_resp_send(d, qp_id, q, h, f, payload, len) :
	    rc_resp_write(d, qp_id, q, h, f, payload, len))
		resp_ack(d, q, h);
}
