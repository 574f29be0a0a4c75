/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCEv2 reliable connection, requester side (IBA chapter 9 semantics, as Linux rxe
 * implements them): SQ WQEs to packets, PSNs and AckReq; the completer (ACK / NAK / read
 * responses, in-order completions, go-back-N retransmission, retry and RNR counters, the
 * retransmit timer); and the RC receive dispatch. The responder is model_rc_resp.c.
 * Called with dev->lock held.
 *
 * Requester window: up to MODEL_SQ_WINDOW fetched WQEs, oldest first; tx_i / tx_off is the
 * send cursor, npsn the next PSN. Go-back-N: a NAK, an out-of-order read response or the
 * timer moves the cursor back to the PSN to resend (the WQE is still in the window, its
 * data still in host memory). Completions leave the window in order. Read responses are
 * accepted only in order, for the oldest READ not complete; a READ asked again asks for
 * what it lacks, at the PSN that matches that offset.
 *
 * Atomics (gen3) travel like one-packet READs: they count against the ORD, take one PSN, and
 * their ATOMIC_ACKNOWLEDGE is the response (in PSN order with the read responses); a lost
 * one is asked for again at the same PSN, and the responder answers a duplicate from its
 * saved result. The original value goes to the 8-byte local SGE in host order.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>

#include "model_engine.h"
#include "model_opcode.h"

static struct model_wqe *
win(struct model_qpe *e, uint32_t i)
{
	return &e->w[(e->w_head + i) % MODEL_SQ_WINDOW];
}

/* Messages with packets on the wire: those before the cursor, and the cursor's once begun. */
static uint32_t
sent_cnt(const struct model_qpe *e)
{
	return RTE_MIN(e->tx_i + (e->tx_off > 0 ? 1u : 0u), e->w_cnt);
}

static bool
is_read(const struct model_wqe *w)
{
	return model_wqe_is(w->op, MODEL_WQF_READ);
}

static bool
is_atomic(const struct model_wqe *w)
{
	return model_wqe_is(w->op, MODEL_WQF_ATOMIC);
}

/* A READ or an atomic: a request whose response carries data (ORD, responses in order). */
static bool
is_rdatom(const struct model_wqe *w)
{
	return is_read(w) || is_atomic(w);
}

static bool
is_local(const struct model_wqe *w)
{
	return model_wqe_is(w->op, MODEL_WQF_LOCAL);
}


/* ---- requester: completions ---- */

/*
 * The send cursor is on @p w, which completed meanwhile (a rewind went back to it and the
 * missing responses / ACK came after all): step over it.
 */
static void
cursor_skip(struct model_qpe *e, const struct model_wqe *w)
{
	e->tx_off = 0;
	if (w->npkts > 0 && model_psn_diff(model_psn_add(w->psn, w->npkts), e->npsn) > 0)
		e->npsn = model_psn_add(w->psn, w->npkts);
}

/* rc_retire() once the WQE at the head of the window is done. */
static void
rc_retire_done(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	struct model_qpe *e = q->eng;
	bool progress = false;

	while (e->w_cnt > 0 && (win(e, 0)->flags & MODEL_WQE_DONE)) {
		model_sq_cqe(d, qp_id, win(e, 0));
		if (e->tx_i == 0)
			cursor_skip(e, win(e, 0));
		else
			e->tx_i--;
		e->w_head = (e->w_head + 1) % MODEL_SQ_WINDOW;
		e->w_cnt--;
		progress = true;
	}
	if (progress) {
		e->retries = 0;
		/* Still something in flight (whole messages, or part of the one at the cursor)? */
		e->deadline = e->tx_i > 0 || e->tx_off > 0 ? model_rc_deadline(q, model_now()) : 0;
	}
}

/* Retire the done WQEs at the head of the window, in order (every send round ends here). */
static inline void
rc_retire(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	const struct model_qpe *e = q->eng;

	if (e->w_cnt > 0 && (e->w[e->w_head].flags & MODEL_WQE_DONE))
		rc_retire_done(d, qp_id, q);
}

/*
 * Mark the sent messages whose every PSN precedes @p psn (or is @p psn when @p inclusive)
 * done. A READ whose responses are not all in is not done: when the ACK covers it, its
 * responses were lost and *lost_read receives the PSN to request again.
 */
static void
rc_ack_upto(struct model_qpe *e, uint32_t psn, bool inclusive, bool *lost, uint32_t *lost_psn,
	    uint32_t mtu)
{
	uint32_t i;

	*lost = false;
	for (i = 0; i < e->tx_i && i < e->w_cnt; i++) {
		struct model_wqe *w = win(e, i);
		int32_t dlast;

		if (w->flags & MODEL_WQE_DONE)
			continue;
		if (w->npkts == 0)
			break; /* a local op not executed yet */
		dlast = model_psn_diff(model_psn_add(w->psn, w->npkts - 1), psn);
		if (dlast > 0 || (dlast == 0 && !inclusive))
			break;
		if (is_rdatom(w)) {
			*lost = true;
			*lost_psn = model_psn_add(w->psn, w->rd_done / mtu);
			break;
		}
		w->flags |= MODEL_WQE_DONE;
	}
}

/* Move the send cursor back to PSN @p psn (go-back-N). */
static void
rc_rewind(struct model_dev *d, struct model_qpe *e, uint32_t psn, uint32_t mtu)
{
	uint32_t i, n = sent_cnt(e);

	for (i = 0; i < n; i++) {
		struct model_wqe *w = win(e, i);
		int32_t off;

		if (w->npkts == 0 || (w->flags & MODEL_WQE_DONE))
			continue;
		off = model_psn_diff(psn, w->psn);
		if (off < 0 || (uint32_t)off >= w->npkts)
			continue;
		e->tx_i = i;
		if (is_rdatom(w)) {
			/* A READ asks again for what it lacks: the PSN must match the offset. */
			e->tx_off = w->rd_done;
			e->npsn = model_psn_add(w->psn, w->rd_done / mtu);
		} else {
			e->tx_off = (uint32_t)off * mtu;
			e->npsn = psn;
		}
		MODEL_INC(d, rc_retransmits);
		return;
	}
}

static void
rc_error(struct model_dev *d, uint32_t qp_id, uint32_t ae)
{
	model_qp_fail(d, qp_id, ae, IRDMA_AE_SOURCE_SQ);
}

/*
 * A request packet at @p psn left, taking the PSNs up to @p end (exclusive; a READ takes one
 * per response): a retransmit when that PSN was sent before.
 */
static inline void
rc_sent(struct model_dev *d, struct model_qpe *e, uint32_t psn, uint32_t end)
{
	if (model_psn_diff(psn, e->hi_psn) < 0)
		MODEL_CNT(d, rc_retx_pkts, 1);
	else
		e->hi_psn = end;
}

static void
rc_rx_ack(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	  const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q);
	uint8_t kind = h->aeth_syndrome & 0xe0u;
	uint32_t lost_psn = 0;
	bool lost;

	MODEL_INC(d, acks_rcvd);
	if (kind == MODEL_AETH_ACK) {
		rc_ack_upto(e, h->psn, true, &lost, &lost_psn, mtu);
		if (model_psn_diff(model_psn_add(h->psn, 1), e->una_psn) > 0) {
			/* Progress inside a long message counts too: the timer starts again. */
			e->una_psn = model_psn_add(h->psn, 1);
			e->retries = 0;
			if (e->deadline != 0)
				e->deadline = model_rc_deadline(q, model_now());
		}
		e->rnr_retries = 0;
		rc_retire(d, qp_id, q);
		if (lost && lost_psn != e->retx_psn) {
			e->retx_psn = lost_psn;
			rc_rewind(d, e, lost_psn, mtu);
		}
		return;
	}
	rc_ack_upto(e, h->psn, false, &lost, &lost_psn, mtu);
	rc_retire(d, qp_id, q);
	if (kind == MODEL_AETH_RNR_NAK) {
		MODEL_INC(d, rnr_naks_rcvd);
		MODEL_HW(q->hw_st, RNR_RCVD, 1);
		e->rnr_retries++;
		if (q->rnr_retry != 7 && e->rnr_retries > q->rnr_retry) {
			MODEL_INC(d, rc_rnr_exceeded);
			rc_error(d, qp_id, IRDMA_AE_LLP_TOO_MANY_RNRS);
			return;
		}
		/* The RNR NAK timer the responder asked for (IBA table 45). */
		e->rnr_until = model_now() + d->rnr_cycles[h->aeth_syndrome & 31u];
		e->deadline = 0;
		rc_rewind(d, e, h->psn, mtu);
		return;
	}
	MODEL_INC(d, naks_rcvd);
	switch (h->aeth_syndrome) {
	case MODEL_AETH_NAK_PSN_SEQ:
		MODEL_INC(d, seq_naks_rcvd);
		MODEL_HW(q->hw_st, NAKSEQERR, 1);
		rc_rewind(d, e, h->psn, mtu);
		break;
	case MODEL_AETH_NAK_REM_ACCESS:
		rc_error(d, qp_id, IRDMA_AE_IB_REMOTE_ACCESS_ERROR);
		break;
	case MODEL_AETH_NAK_INV_REQ:
		rc_error(d, qp_id, IRDMA_AE_IB_INVALID_REQUEST);
		break;
	default:
		rc_error(d, qp_id, IRDMA_AE_IB_REMOTE_OP_ERROR);
		break;
	}
}

/*
 * The request a response at @p psn answers: the oldest READ or atomic not complete, when
 * @p psn is the one it expects next. A stale response is counted and a gap asks again (once
 * per gap): both return NULL. On success every message before it is done (the response
 * acknowledges them) and *pos is its window position.
 */
static struct model_wqe *
rc_resp_expected(struct model_dev *d, struct model_qp *q, uint32_t psn, uint32_t mtu,
		 uint32_t *pos)
{
	struct model_qpe *e = q->eng;
	struct model_wqe *w = NULL;
	uint32_t i, expect;

	for (i = 0; i < sent_cnt(e); i++) {
		struct model_wqe *c = win(e, i);

		if (is_rdatom(c) && !(c->flags & MODEL_WQE_DONE) && c->npkts > 0) {
			w = c;
			break;
		}
	}
	if (w == NULL || model_psn_diff(psn, w->psn) < 0) {
		MODEL_INC(d, dup_responses);
		return NULL;
	}
	expect = model_psn_add(w->psn, w->rd_done / mtu);
	if (psn != expect) {
		if (model_psn_diff(psn, expect) > 0 && e->retx_psn != expect) {
			/* A response is missing (an implied NAK): ask again, once per gap. */
			MODEL_HW(q->hw_st, NAKSEQERR_IMPLIED, 1);
			e->retx_psn = expect;
			rc_rewind(d, e, expect, mtu);
		} else {
			MODEL_INC(d, dup_responses);
		}
		return NULL;
	}
	*pos = i;
	for (; i > 0; i--) {
		struct model_wqe *c = win(e, i - 1);

		if (c->npkts > 0)
			c->flags |= MODEL_WQE_DONE;
	}
	return w;
}

/* An ATOMIC_ACKNOWLEDGE: the original value into the local SGE, the atomic is done. */
static void
rc_rx_atomic_ack(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		 const struct model_pkt_hdr *h)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q);
	uint64_t orig = h->atomic_orig;
	struct model_wqe *w;
	uint32_t i, ae;

	MODEL_INC(d, acks_rcvd);
	w = rc_resp_expected(d, q, h->psn, mtu, &i);
	if (w == NULL)
		return;
	if (!is_atomic(w)) {
		rc_error(d, qp_id, IRDMA_AE_ROCE_RSP_LENGTH_ERROR);
		return;
	}
	ae = model_scatter(d, q, w->frag, w->nfrags, 0, &orig, sizeof(orig));
	if (ae != 0) {
		rc_error(d, qp_id, ae);
		return;
	}
	w->rd_done = sizeof(orig);
	w->flags |= MODEL_WQE_DONE;
	e->una_psn = model_psn_add(h->psn, 1);
	e->retries = 0;
	e->deadline = model_rc_deadline(q, model_now());
	rc_retire(d, qp_id, q);
}

static void
rc_rx_read_resp(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q);
	bool last = model_bth_is(h->opcode, MODEL_OPF_LAST);
	struct model_wqe *w;
	uint32_t i, ae;

	w = rc_resp_expected(d, q, h->psn, mtu, &i);
	if (w == NULL)
		return;
	if (!is_read(w)) {
		/* In order, but the oldest request waiting for a response is an atomic. */
		rc_error(d, qp_id, IRDMA_AE_ROCE_RSP_LENGTH_ERROR);
		return;
	}
	if (len > w->len - w->rd_done || (!last && len != mtu) ||
	    (last && w->rd_done + len != w->len)) {
		rc_error(d, qp_id, IRDMA_AE_ROCE_RSP_LENGTH_ERROR);
		return;
	}
	ae = model_scatter(d, q, w->frag, w->nfrags, w->rd_done, payload, len);
	if (ae != 0) {
		rc_error(d, qp_id, ae);
		return;
	}
	w->rd_done += len;
	e->una_psn = model_psn_add(h->psn, 1);
	e->retries = 0;
	e->deadline = model_rc_deadline(q, model_now());
	if (last) {
		w->flags |= MODEL_WQE_DONE;
		if (w->op == IRDMA_OP_RDMA_READ_LOC_INV && w->nfrags > 0 &&
		    model_mr_invalidate(d, w->frag[0].stag, q->pd, false) == 0)
			MODEL_HW(q->hw_st, RDMAVINV, 1);
	}
	rc_retire(d, qp_id, q);
}

void
model_rc_timer(struct model_dev *d, uint32_t qp_id, struct model_qp *q, uint64_t now)
{
	struct model_qpe *e = q->eng;
	struct model_wqe *w = NULL;
	uint32_t i, psn, mtu = model_rc_mtu(q);

	if (e->rnr_until != 0 && now >= e->rnr_until)
		e->rnr_until = 0;
	if (e->deadline == 0 || now < e->deadline)
		return;
	for (i = 0; i < sent_cnt(e); i++) {
		if (!(win(e, i)->flags & MODEL_WQE_DONE) && win(e, i)->npkts > 0) {
			w = win(e, i);
			break;
		}
	}
	if (w == NULL) {
		e->deadline = 0;
		return;
	}
	MODEL_INC(d, rc_timeouts);
	MODEL_HW(q->hw_st, RTO, 1);
	e->retries++;
	if (e->retries > q->retry) {
		MODEL_INC(d, rc_retry_exceeded);
		rc_error(d, qp_id, IRDMA_AE_LLP_TOO_MANY_RETRIES);
		return;
	}
	if (is_rdatom(w))
		psn = model_psn_add(w->psn, w->rd_done / mtu);
	else if (model_psn_diff(e->una_psn, w->psn) > 0 &&
		 model_psn_diff(e->una_psn, model_psn_add(w->psn, w->npkts)) < 0)
		psn = e->una_psn;
	else
		psn = w->psn;
	e->retx_psn = psn;
	rc_rewind(d, e, psn, mtu);
	/* The same timeout again (IBA: no back-off); QPC_REXMIT_THRESH bounds the retries. */
	e->deadline = model_rc_deadline(q, now);
}

/* ---- requester: sending ---- */

/* Reads sent and not complete before window position @p upto. */
static uint32_t
reads_out(struct model_qpe *e, uint32_t upto)
{
	uint32_t i, n = 0;

	for (i = 0; i < upto && i < e->w_cnt; i++)
		if (is_rdatom(win(e, i)) && !(win(e, i)->flags & MODEL_WQE_DONE))
			n++;
	return n;
}

/* The request of atomic @p w (AtomicETH), within the ORD. false: stop sending now. */
static bool
rc_send_atomic(struct model_dev *d, struct model_qp *q, struct model_wqe *w)
{
	struct model_qpe *e = q->eng;
	uint32_t ord = q->ord != 0 ? q->ord : 1;
	struct model_pkt_hdr h;

	if (reads_out(e, e->tx_i) >= ord)
		return false;
	model_hdr_init(d, q, &h, model_wqe_bth(q->type, w->op, false, true, true), w->psn);
	h.atomic_va = w->rva;
	h.atomic_rkey = w->rkey;
	h.atomic_swap_add = w->at_swap_add;
	h.atomic_cmp = w->at_cmp;
	h.ackreq = true;
	if (model_tx(d, q, &h, NULL, 0) == -ENOBUFS)
		return false;
	rc_sent(d, e, w->psn, model_psn_add(w->psn, 1));
	MODEL_INC(d, out_atomics);
	e->npsn = model_psn_add(w->psn, 1);
	e->tx_i++;
	e->tx_off = 0;
	return true;
}

/*
 * After @p k packets (@p plen payload bytes) of SEND / WRITE @p w went, @p first the
 * message's first, @p last its last: the message counters, the next PSN, the SQ cursor.
 */
static inline void
rc_advance(struct model_dev *d, struct model_qpe *e, const struct model_wqe *w, bool first,
	   bool last, uint32_t plen, uint32_t k)
{
	if (first) {
		if (model_wqe_is(w->op, MODEL_WQF_WRITE))
			MODEL_INC(d, out_rdma_writes);
		else
			MODEL_INC(d, out_rdma_sends);
	}
	e->npsn = model_psn_add(e->npsn, k);
	if (last) {
		e->tx_i++;
		e->tx_off = 0;
	} else {
		e->tx_off += plen;
	}
}

/*
 * The consecutive packets of message @p w from its next one, as one frame (a train,
 * model_port_send_train()), when the port sends the QP's frames to itself bare, the
 * description is not checked, and two or more of its packets fit: at most @p room (the
 * burst's) and what the PSN window leaves.
 * @return 1 sent (*sent packets), 0 stop sending now, -1 not a train (nothing done).
 */
static int __rte_noinline
rc_send_train(struct model_dev *d, uint32_t qp_id, struct model_qp *q, struct model_wqe *w,
	      uint32_t room, unsigned int *sent)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q), sh = (uint32_t)__builtin_ctz(mtu);
	uint32_t rem = w->len - e->tx_off, k = ((rem - 1) >> sh) + 1, plen, ae, i;
	bool first = e->tx_off == 0, last, imm = (w->flags & MODEL_WQE_IMM) != 0;
	uint8_t op0 = model_wqe_bth(q->type, w->op, imm, first, false);
	const struct model_pkt_hdr *t = model_hdr_tmpl(d, q);
	struct model_pkt_train tr;
	struct model_pkt_hdr h;
	uint8_t *pay;
	int ret;

	if (!model_port_train(d->port, t->dmac))
		return -1;
	if (first) {
		w->psn = e->npsn;
		w->npkts = model_pkts_of(w->len, mtu);
	}
	/* as many as the burst and the window allow and the frame holds (the ICRC, a pad) */
	room = RTE_MIN(room, MODEL_RC_PKT_WINDOW - (uint32_t)model_psn_diff(e->npsn, e->una_psn));
	k = RTE_MIN(RTE_MIN(k, room), MODEL_TRAIN_MAX);
	k = RTE_MIN(k, (MODEL_PKT_MAX - model_pkt_frame_len(t, op0, 0) - 4u) >> sh);
	if (k < 2)
		return -1;
	plen = RTE_MIN(k * mtu, rem);
	last = plen == rem;
	model_hdr_init(d, q, &h, op0, e->npsn);
	if (first && model_wqe_is(w->op, MODEL_WQF_WRITE)) {
		h.reth_va = w->rva;
		h.reth_rkey = w->rkey;
		h.reth_len = w->len;
	}
	/* each packet as rc_send_one() would send it alone */
	tr.count = (uint16_t)k;
	tr.ack_mask = 0;
	tr.stride = mtu;
	tr.mid_op = model_wqe_bth(q->type, w->op, imm, false, false);
	tr.last_op = model_wqe_bth(q->type, w->op, imm, false, last);
	tr.last_se = last && (w->flags & MODEL_WQE_SOLICITED) != 0;
	tr.last_imm_be = last ? rte_cpu_to_be_32(w->imm) : 0;
	tr.last_ieth_rkey = last ? w->rkey : 0;
	tr.bytes = 0;
	for (i = 0; i < k; i++)
		if ((i + 1 == k && last) ||
		    (model_psn_diff(model_psn_add(e->npsn, i), w->psn) + 1) % MODEL_ACK_EVERY == 0)
			tr.ack_mask |= (uint16_t)(1u << i);
	h.ackreq = (tr.ack_mask & 1u) != 0;
	pay = model_tx_prep(d, &h, plen);
	if (pay != NULL) {
		ae = (uint32_t)model_gather(d, q, w, e->tx_off, pay, plen);
		if (ae != 0) {
			rc_error(d, qp_id, ae);
			return 0;
		}
		ret = model_tx_commit_train(d, q, &h, &tr);
		if (ret == -ENOBUFS)
			return 0;
	}
	for (i = 0; i < k; i++) {
		uint32_t psn = model_psn_add(h.psn, i);

		rc_sent(d, e, psn, model_psn_add(psn, 1));
		if (i > 0)
			(void)model_port_ip_id(d->port);	/* the IPv4 ID of each frame */
	}
	rc_advance(d, e, w, first, last, plen, k);
	*sent = k;
	return 1;
}

/* Send one packet of message @p w (or execute a local op). false: stop sending now. */
static bool
rc_send_one(struct model_dev *d, uint32_t qp_id, struct model_qp *q, struct model_wqe *w)
{
	struct model_qpe *e = q->eng;
	uint32_t mtu = model_rc_mtu(q);
	struct model_pkt_hdr h;
	uint8_t *pay;
	uint32_t plen, ae;
	bool first, last;

	if (is_local(w)) {
		if (!(w->flags & MODEL_WQE_EXECUTED)) {
			ae = model_local_op(d, q, w);
			w->flags |= MODEL_WQE_EXECUTED;
			if (ae != 0) {
				/* Everything before it must leave first: flushes follow them. */
				rc_error(d, qp_id, ae);
				return false;
			}
		}
		w->flags |= MODEL_WQE_DONE;
		e->tx_i++;
		e->tx_off = 0;
		return true;
	}
	if (e->tx_off == 0 && (is_read(w) ? w->rd_done == 0 : true)) {
		w->psn = e->npsn;
		w->npkts = model_pkts_of(w->len, mtu);
	}
	if (is_atomic(w))
		return rc_send_atomic(d, q, w);
	if (is_read(w)) {
		uint32_t ord = q->ord != 0 ? q->ord : 1;

		if (w->rd_done == 0 && e->tx_off == 0 && reads_out(e, e->tx_i) >= ord)
			return false;
		/*
		 * Ask for what is missing, at the PSN of that offset: responses may have come
		 * in since a rewind chose this READ, so the PSN follows rd_done, not npsn.
		 */
		model_hdr_init(d, q, &h, model_wqe_bth(q->type, w->op, false, true, true),
			       model_psn_add(w->psn, w->rd_done / mtu));
		h.reth_va = w->rva + w->rd_done;
		h.reth_rkey = w->rkey;
		h.reth_len = w->len - w->rd_done;
		h.ackreq = true;
		if (model_tx(d, q, &h, NULL, 0) == -ENOBUFS)
			return false;
		rc_sent(d, e, h.psn, model_psn_add(w->psn, w->npkts));
		MODEL_INC(d, out_rdma_reads);
		e->npsn = model_psn_add(w->psn, w->npkts);
		e->tx_i++;
		e->tx_off = 0;
		return true;
	}
	first = e->tx_off == 0;
	plen = RTE_MIN(mtu, w->len - e->tx_off);
	last = e->tx_off + plen == w->len;
	model_hdr_init(d, q, &h,
		       model_wqe_bth(q->type, w->op, (w->flags & MODEL_WQE_IMM) != 0, first, last),
		       e->npsn);
	if (first && model_wqe_is(w->op, MODEL_WQF_WRITE)) {
		h.reth_va = w->rva;
		h.reth_rkey = w->rkey;
		h.reth_len = w->len;
	}
	if (last) {
		h.imm_be = rte_cpu_to_be_32(w->imm);
		h.ieth_rkey = w->rkey;
		h.se = (w->flags & MODEL_WQE_SOLICITED) != 0;
		h.ackreq = true;
	} else if ((model_psn_diff(e->npsn, w->psn) + 1) % MODEL_ACK_EVERY == 0) {
		h.ackreq = true;
	}
	/* gathered straight into the frame (a frame that cannot be built is lost, as sent) */
	pay = model_tx_prep(d, &h, plen);
	if (pay != NULL) {
		ae = (uint32_t)model_gather(d, q, w, e->tx_off, pay, plen);
		if (ae != 0) {
			rc_error(d, qp_id, ae);
			return false;
		}
		if (model_tx_commit(d, q, &h) == -ENOBUFS)
			return false;
	}
	rc_sent(d, e, h.psn, model_psn_add(h.psn, 1));
	rc_advance(d, e, w, first, last, plen, 1);
	return true;
}

void
model_rc_rx(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	    const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len)
{
	const struct model_bth_op *op = &model_bth_ops[h->opcode];
	bool requester = q->state == IRDMA_QP_HW_RTS || q->state == IRDMA_QP_HW_SQD;

	if (h->pkey != (q->pkey != 0 ? q->pkey : MODEL_DEFAULT_PKEY)) {
		MODEL_INC(d, rx_bad_pkey);
		return;
	}
	/* Only RC QPs come here: the row's RC bit is the QP-type check. */
	if (!(op->qp_types & MODEL_OPQ_RC)) {
		MODEL_INC(d, rx_no_qp); /* a UD packet at an RC QP */
		return;
	}
	if (!(op->flags & MODEL_OPF_RESP)) {
		model_rc_request(d, qp_id, q, h, payload, len);
		return;
	}
	if (!requester)
		return;
	if (op->flags & MODEL_OPF_ACK)
		rc_rx_ack(d, qp_id, q, h);
	else if (op->flags & MODEL_OPF_READ)
		rc_rx_read_resp(d, qp_id, q, h, payload, len);
	else
		rc_rx_atomic_ack(d, qp_id, q, h);
}

void
model_rc_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	struct model_qpe *e = q->eng;
	unsigned int n = 0;
	uint32_t ae;
	int ret;

	model_rc_resp_tx(d, qp_id, q);
	if (q->state == IRDMA_QP_HW_ERROR ||
	    (q->state != IRDMA_QP_HW_RTS && q->state != IRDMA_QP_HW_SQD))
		return;
	/* Fetch what the doorbell announced, as far as the window goes. */
	while (q->db && q->state == IRDMA_QP_HW_RTS && e->w_cnt < MODEL_SQ_WINDOW) {
		struct model_wqe *w = win(e, e->w_cnt);

		ret = model_sq_fetch(d, qp_id, q, w, &ae);
		if (ret == 0) {
			q->db = false;
			break;
		}
		if (ret < 0) {
			/* The bad WQE is not taken; its error ends the QP (AE, then flushes). */
			MODEL_INC(d, sq_wqe_errors);
			rc_error(d, qp_id, ae);
			return;
		}
		e->w_cnt++;
	}
	if (e->rnr_until != 0)
		return;
	while (n < MODEL_TX_BURST && e->tx_i < e->w_cnt &&
	       model_psn_diff(e->npsn, e->una_psn) < (int32_t)MODEL_RC_PKT_WINDOW) {
		if ((win(e, e->tx_i)->flags & MODEL_WQE_DONE) && !is_local(win(e, e->tx_i))) {
			cursor_skip(e, win(e, e->tx_i));
			e->tx_i++;
			continue;
		}
		struct model_wqe *w = win(e, e->tx_i);
		unsigned int sent = 1;
		int r = -1;

		/* a SEND or WRITE with more than a packet left may go as a train (two fit) */
		if (!d->desc_check && model_rc_mtu(q) <= MODEL_PKT_MAX / 2 &&
		    w->len - e->tx_off > model_rc_mtu(q) && !is_local(w) && !is_read(w) &&
		    !is_atomic(w))
			r = rc_send_train(d, qp_id, q, w, MODEL_TX_BURST - n, &sent);
		if (r == 0 || (r < 0 && !rc_send_one(d, qp_id, q, w)))
			break;
		n += sent;
		if (e->deadline == 0)
			e->deadline = model_rc_deadline(q, model_now());
	}
	rc_retire(d, qp_id, q);
}
