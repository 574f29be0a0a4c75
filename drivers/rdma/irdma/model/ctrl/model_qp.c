/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCE QPs: CREATE_QP, MODIFY_QP, DESTROY_QP and FLUSH_WQES (doc/hardware.md §5.3, §5.4).
 * Called with dev->lock held.
 *
 * Behaviour relied on by the driver:
 *  - QP ids 0 and 2 are reserved (ILQ / IEQ, never created by the PMD) and refused with
 *    BAD_ID, as are ids at or above the committed QP count. QP 1 is the GSI: a RoCE UD QP
 *    only (BAD_FIELD for RC), whose receives take only Q_Key 0x80010000 (model_ud.c).
 *  - CREATE_QP reads the 256-byte host context at CQP_QP_CTX_PA through the IOMMU view and
 *    checks it: QPTYPE RoCE RC (3) or UD (4); context PA 4-byte aligned, shadow PA 128-byte
 *    aligned, both mapped; SQ / RQ sizes encoded 1..13 (8..32768 quanta) and their rings
 *    mapped (level 0 address, or a level-1 PBLE index when CQP_QP_VQ); RQ WQE shift <= 3;
 *    gen3 QPC_USE_SRQ: no RQ, QPC_SRQ_ID names a live SRQ of the QP's PD (model_srq.c);
 *    CQNUMVALID set and both CQ ids naming live, non-CCQ CQs; PD id 3..IRDMA_MAX_PDS-1. The
 *    QP starts in HW state INVALID.
 *  - MODIFY_QP re-reads and re-checks the context (same checks, CQ ids only when
 *    CQNUMVALID) and moves to CQP_QP_NEXTIWSTATE: INVALID -> IDLE, ERROR; IDLE -> IDLE, RTR,
 *    ERROR; RTR -> RTR, RTS, ERROR; RTS -> RTS, SQD, ERROR; SQD -> SQD, RTS, ERROR;
 *    ERROR -> ERROR, IDLE (verbs RESET then INIT reuses the QP). Anything else (TERMINATE
 *    included: iWARP only) is refused with BAD_STATE and leaves the QP unchanged.
 *    To RTR / RTS, QPC_ARPIDX must name a valid ARP entry (model_ah.c: BAD_ID beyond the
 *    committed ARP count, NO_OBJ when not added; index 0 is the reserved default).
 *  - FLUSH_WQES needs at least one of FLUSHSQ / FLUSHRQ / GENERATE_AE (BAD_FIELD) and the QP
 *    in ERROR (BAD_STATE otherwise); it counts the flushes and writes one flush CQE per named
 *    queue that still holds WQEs (model_engine_flush; the driver replays it for each WQE),
 *    with the minor codes of the WQE when USERFLCODE is set, else FLUSH_GENERAL_ERR.
 *    GENERATE_AE (the kernel's GEN_AE) raises AECODE (12 bits, else BAD_FIELD) from AESOURCE
 *    for the QP as the engine would (model_irq.c).
 *  - DESTROY_QP works in any state.
 *  - The QP table is allocated with the first QP, sized by the committed QP count, and
 *    freed with the last one.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_engine.h"

/* Quanta of an encoded SQ / RQ size (irdma_encode_wq_size inverse). */
static uint32_t
qp_wq_quanta(uint32_t enc)
{
	return UINT32_C(1) << (enc + 2);
}

static bool
qp_cq_ok(const struct model_dev *d, uint32_t id)
{
	return id != IRDMA_CCQ_ID && id < d->cq_tab && d->cq[id].valid;
}

/*
 * Read and check the context at @p ctx_pa for a QP of @p type into @p q (its context fields;
 * identity and state are the caller's). 0 or a minor code.
 */
static uint16_t
qp_ctx_decode(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_qp *q,
	      bool need_cqs)
{
	rte_iova_t ctx_pa = irdma_get(w, CQP_QP_CTX_PA);
	rte_iova_t shadow = irdma_get(w, CQP_QP_SHADOW_PA);
	bool vq = irdma_get(w, CQP_QP_VQ);
	/* QP WQEs have no LPBLSIZE (bits 45:44 are VQ and CACHEDVARVALID): VQ is level 1. */
	uint32_t lpbl = vq ? MODEL_LPBLSIZE_L1 : MODEL_LPBLSIZE_L0;
	struct irdma_qp_ctx ctx;
	uint64_t sq_addr, rq_addr;
	uint32_t sq_enc, rq_enc;
	uint16_t minor;

	if ((ctx_pa & IRDMA_HOST_CTX_ALIGN_MASK) != 0 ||
	    (shadow & (IRDMA_SHADOW_AREA_ALIGN - 1)) != 0)
		return IRDMA_MODEL_MIN_BAD_ALIGN;
	if (ctx_pa == 0 || model_dma_read(d, ctx_pa, &ctx, sizeof(ctx)) != 0 ||
	    model_dma_check(d, shadow, IRDMA_SHADOW_AREA_SIZE) != 0)
		return IRDMA_MODEL_MIN_DMA_FAULT;
	sq_enc = irdma_get(&ctx, QPC_SQSIZE);
	rq_enc = irdma_get(&ctx, QPC_RQSIZE);
	/* Gen3 QPs of an SRQ have no RQ: QPC_SRQ_ID in place of the RQ address. */
	q->use_srq = irdma_get(&ctx, QPC_USE_SRQ) != 0;
	q->srq_id = q->use_srq ? (uint32_t)irdma_get(&ctx, QPC_SRQ_ID) : 0;
	if (q->use_srq && rq_enc == 0)
		rq_enc = irdma_encode_wq_size(IRDMA_MIN_WQ_WQES);
	if (sq_enc < irdma_encode_wq_size(IRDMA_MIN_WQ_WQES) ||
	    sq_enc > irdma_encode_wq_size(IRDMA_MAX_WQ_QUANTA) ||
	    rq_enc < irdma_encode_wq_size(IRDMA_MIN_WQ_WQES) ||
	    rq_enc > irdma_encode_wq_size(IRDMA_MAX_WQ_QUANTA))
		return IRDMA_MODEL_MIN_BAD_SIZE;
	q->rq_shift = irdma_get(&ctx, QPC_RQWQESIZE);
	memset(&q->sq, 0, sizeof(q->sq));
	memset(&q->rq, 0, sizeof(q->rq));
	q->sq.size = qp_wq_quanta(sq_enc);
	q->sq.esize = IRDMA_QUANTUM_SIZE;
	q->rq.size = qp_wq_quanta(rq_enc);
	q->rq.esize = IRDMA_QUANTUM_SIZE;
	/* With VQ the addresses are level-1 PBLE indices, else IOVAs. */
	sq_addr = irdma_get(&ctx, QPC_SQ_ADDR);
	rq_addr = irdma_get(&ctx, QPC_RQ_ADDR);
	minor = model_ring_from_wqe(d, &q->sq, vq, lpbl, vq ? 0 : sq_addr,
				    vq ? (uint32_t)sq_addr : 0);
	if (minor == 0)
		minor = model_ring_check(d, &q->sq, IRDMA_QUANTUM_SIZE - 1);
	if (minor == 0 && !q->use_srq)
		minor = model_ring_from_wqe(d, &q->rq, vq, lpbl, vq ? 0 : rq_addr,
					    vq ? (uint32_t)rq_addr : 0);
	if (minor == 0 && !q->use_srq)
		minor = model_ring_check(d, &q->rq, IRDMA_QUANTUM_SIZE - 1);
	if (minor != 0)
		return minor;
	if (q->use_srq)
		memset(&q->rq, 0, sizeof(q->rq));
	q->pd = (uint32_t)(irdma_get(&ctx, QPC_PDIDXHI) << IRDMA_FIELD_BITS(QPC_PDIDX)) |
		(uint32_t)irdma_get(&ctx, QPC_PDIDX);
	if (q->pd < IRDMA_FIRST_USER_PD_ID || q->pd >= IRDMA_MAX_PDS)
		return IRDMA_MODEL_MIN_BAD_ID;
	if (q->use_srq) {
		minor = model_srq_attach(d, q->srq_id, q->pd, 0);
		if (minor != 0)
			return minor;
	}
	if (irdma_get(w, CQP_QP_CQNUMVALID)) {
		q->tx_cq = irdma_get(&ctx, QPC_TXCQNUM);
		q->rx_cq = irdma_get(&ctx, QPC_RXCQNUM);
		if (!qp_cq_ok(d, q->tx_cq) || !qp_cq_ok(d, q->rx_cq))
			return IRDMA_MODEL_MIN_BAD_ID;
	} else if (need_cqs) {
		return IRDMA_MODEL_MIN_BAD_FIELD;
	}
	q->dest_qpn = irdma_get(&ctx, QPC_DESTQP);
	q->qkey = irdma_get(&ctx, QPC_QKEY);
	q->sq_psn = irdma_get(&ctx, QPC_PSNNXT);
	q->rq_psn = irdma_get(&ctx, QPC_EPSN);
	q->mss = irdma_get(&ctx, QPC_SNDMSS);
	q->arp_idx = irdma_get(&ctx, QPC_ARPIDX);
	if (d->cfg.gen >= IRDMA_GEN_3) {
		/* Gen3 byte 160: ORD 10:0, IRD code 17:14 (4 << code), remote atomics 18. */
		q->ord = irdma_get(&ctx, QPC_ORDSIZE_GEN3);
		q->ird_enc = irdma_get(&ctx, QPC_IRDSIZE_GEN3);
		q->atomic_en = (uint8_t)irdma_get(&ctx, QPC_REMOTE_ATOMIC_EN);
	} else {
		q->ord = irdma_get(&ctx, QPC_ORDSIZE);
		q->ird_enc = irdma_get(&ctx, QPC_IRDSIZE);
		q->atomic_en = 0;
	}
	q->rdok = irdma_get(&ctx, QPC_RDOK);
	q->wrrdrspok = irdma_get(&ctx, QPC_WRRDRSPOK);
	q->retry = irdma_get(&ctx, QPC_REXMIT_THRESH);
	q->rnr_retry = irdma_get(&ctx, QPC_RNRNAK_THRESH);
	q->compl_ctx = irdma_get(&ctx, QPC_COMPL_CTX);
	minor = model_stats_qp_ctx(d, &ctx, &q->stats_use, &q->stats_idx);
	if (minor != 0)
		return minor;
	/* An unbound QP names this function's default instance: the HMC function id. */
	if (!q->stats_use && irdma_get(&ctx, QPC_STAT_INDEX) != d->cfg.hmc_fn_id)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	/* The Tx scheduler: the QP's qs_handle names an enabled work scheduler leaf whose
	 * qset firmware has (model_sched.c). */
	minor = model_qs_check(d, (uint32_t)irdma_get(&ctx, QPC_QSHANDLE));
	if (minor != 0)
		return minor;
	q->hw_st = model_stats_vals(d, q->stats_idx);
	q->ipv4 = (uint8_t)irdma_get(&ctx, QPC_IPV4);
	q->insert_vlan = (uint8_t)irdma_get(&ctx, QPC_INSERTVLANTAG);
	q->vlan_tag = (uint16_t)irdma_get(&ctx, QPC_VLANTAG);
	q->ttl = (uint8_t)irdma_get(&ctx, QPC_TTL);
	q->tos = (uint8_t)irdma_get(&ctx, QPC_TOS);
	q->src_port = (uint16_t)irdma_get(&ctx, QPC_SRCPORTNUM);
	q->pkey = (uint16_t)irdma_get(&ctx, QPC_PKEY);
	q->flow_label = irdma_get(&ctx, QPC_FLOWLABEL);
	q->rtomin = irdma_get(&ctx, QPC_RTOMIN);
	q->rto_cycles = model_rto_of(q->rtomin);
	q->mac = irdma_get(&ctx, QPC_MACADDRESS);
	q->dest_ip[0] = irdma_get(&ctx, QPC_DESTIPADDR0);
	q->dest_ip[1] = irdma_get(&ctx, QPC_DESTIPADDR1);
	q->dest_ip[2] = irdma_get(&ctx, QPC_DESTIPADDR2);
	q->dest_ip[3] = irdma_get(&ctx, QPC_DESTIPADDR3);
	q->local_ip[0] = irdma_get(&ctx, QPC_LOCAL_IPADDR0);
	q->local_ip[1] = irdma_get(&ctx, QPC_LOCAL_IPADDR1);
	q->local_ip[2] = irdma_get(&ctx, QPC_LOCAL_IPADDR2);
	q->local_ip[3] = irdma_get(&ctx, QPC_LOCAL_IPADDR3);
	q->ctx_pa = ctx_pa;
	q->shadow_pa = shadow;
	return 0;
}

/* Common id checks; the QP table is created on demand. 0 or a minor code. */
static uint16_t
qp_id_check(struct model_dev *d, uint32_t id)
{
	if (!d->fpm_committed)
		return IRDMA_MODEL_MIN_NO_FPM;
	if ((id < IRDMA_FIRST_USER_QP_ID && id != IRDMA_GSI_QP_ID) ||
	    id >= d->obj[IRDMA_HMC_OBJ_QP].cnt)
		return IRDMA_MODEL_MIN_BAD_ID;
	return 0;
}

static struct model_qp *
qp_lookup(struct model_dev *d, uint32_t id)
{
	if (d->qp == NULL || id >= d->qp_tab || !d->qp[id].valid)
		return NULL;
	return &d->qp[id];
}

void
model_op_create_qp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_QP_ID);
	uint32_t type = irdma_get(w, CQP_QP_TYPE);
	struct model_qp q;
	rte_iova_t hmc;
	uint16_t minor;

	if (model_refuse(r, qp_id_check(d, id)) ||
	    model_refuse(r, qp_lookup(d, id) != NULL ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0))
		return;
	/* The QP context lives in the HMC: its address must be backed. */
	minor = model_hmc_iova(d, IRDMA_HMC_OBJ_QP, id, &hmc);
	if (minor != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, minor);
		return;
	}
	if (model_refuse(r, type == IRDMA_QP_TYPE_ROCE_RC || type == IRDMA_QP_TYPE_ROCE_UD ?
		       0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, id == IRDMA_GSI_QP_ID && type != IRDMA_QP_TYPE_ROCE_UD ?
		       IRDMA_MODEL_MIN_BAD_FIELD : 0) ||
	    model_refuse(r, irdma_get(w, CQP_QP_NEXTIWSTATE) == IRDMA_QP_HW_INVALID ?
		       0 : IRDMA_MODEL_MIN_BAD_STATE))
		return;
	memset(&q, 0, sizeof(q));
	if (model_refuse(r, qp_ctx_decode(d, w, &q, true)))
		return;
	if (d->qp == NULL) {
		d->qp = calloc(d->obj[IRDMA_HMC_OBJ_QP].cnt, sizeof(*d->qp));
		if (d->qp == NULL) {
			model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_STATE);
			return;
		}
		d->qp_tab = d->obj[IRDMA_HMC_OBJ_QP].cnt;
	}
	if (model_refuse(r, id < d->qp_tab ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, q.use_srq ? model_srq_attach(d, q.srq_id, q.pd, 1) : 0))
		return;
	q.valid = true;
	q.type = (uint8_t)type;
	q.state = IRDMA_QP_HW_INVALID;
	d->qp[id] = q;
	d->qp_live++;
}

/* Whether the HW state machine allows @p cur -> @p next. */
static bool
qp_step_ok(uint32_t cur, uint32_t next)
{
	if (next == IRDMA_QP_HW_ERROR)
		return true;
	switch (cur) {
	case IRDMA_QP_HW_INVALID:
		return next == IRDMA_QP_HW_IDLE;
	case IRDMA_QP_HW_IDLE:
		return next == IRDMA_QP_HW_IDLE || next == IRDMA_QP_HW_RTR;
	case IRDMA_QP_HW_RTR:
		return next == IRDMA_QP_HW_RTR || next == IRDMA_QP_HW_RTS;
	case IRDMA_QP_HW_RTS:
		return next == IRDMA_QP_HW_RTS || next == IRDMA_QP_HW_SQD;
	case IRDMA_QP_HW_SQD:
		return next == IRDMA_QP_HW_SQD || next == IRDMA_QP_HW_RTS;
	case IRDMA_QP_HW_ERROR:
		return next == IRDMA_QP_HW_IDLE;
	default:
		return false;
	}
}

void
model_op_modify_qp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_QP_ID);
	uint32_t next = irdma_get(w, CQP_QP_NEXTIWSTATE);
	struct model_qp *cur;
	struct model_qp q;
	uint8_t old;

	if (model_refuse(r, qp_id_check(d, id)))
		return;
	cur = qp_lookup(d, id);
	if (model_refuse(r, cur == NULL ? IRDMA_MODEL_MIN_NO_OBJ : 0) ||
	    model_refuse(r, irdma_get(w, CQP_QP_TYPE) == cur->type ? 0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, qp_step_ok(cur->state, next) ? 0 : IRDMA_MODEL_MIN_BAD_STATE))
		return;
	q = *cur;
	old = cur->state;
	if (model_refuse(r, qp_ctx_decode(d, w, &q, false)) ||
	    model_refuse(r, q.use_srq == cur->use_srq && q.srq_id == cur->srq_id ?
		       0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, next == IRDMA_QP_HW_RTR || next == IRDMA_QP_HW_RTS ?
		       model_arp_check(d, q.arp_idx) : 0))
		return;
	q.state = (uint8_t)next;
	q.modifies++;
	*cur = q;
	model_engine_qp_state(d, id, old, (uint8_t)next);
	if (cur->type == IRDMA_QP_TYPE_ROCE_UD && next == IRDMA_QP_HW_RTS)
		model_ud_sq_resume(d, id, cur);
}

void
model_op_destroy_qp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_QP_ID);
	struct model_qp *q;

	if (model_refuse(r, qp_id_check(d, id)))
		return;
	q = qp_lookup(d, id);
	if (model_refuse(r, q == NULL ? IRDMA_MODEL_MIN_NO_OBJ : 0))
		return;
	if (q->use_srq)
		(void)model_srq_attach(d, q->srq_id, q->pd, -1);
	model_engine_qp_destroy(d, q);
	memset(q, 0, sizeof(*q));
	if (--d->qp_live == 0)
		model_qp_free(d);
}

void
model_op_flush_wqes(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_FLUSH_QP_ID);
	bool sq = irdma_get(w, CQP_FLUSH_SQ);
	bool rq = irdma_get(w, CQP_FLUSH_RQ);
	bool ae = irdma_get(w, CQP_FLUSH_GENERATE_AE);
	struct model_qp *q;

	if (model_refuse(r, qp_id_check(d, id)))
		return;
	q = qp_lookup(d, id);
	if (model_refuse(r, q == NULL ? IRDMA_MODEL_MIN_NO_OBJ : 0) ||
	    model_refuse(r, !sq && !rq && !ae ?
		       IRDMA_MODEL_MIN_BAD_FIELD : 0) ||
	    model_refuse(r, (sq || rq) && q->state != IRDMA_QP_HW_ERROR ?
		       IRDMA_MODEL_MIN_BAD_STATE : 0) ||
	    model_refuse(r, ae && irdma_get(w, CQP_FLUSH_AECODE) > IRDMA_FIELD_MAX(AEQE_AECODE) ?
		       IRDMA_MODEL_MIN_BAD_FIELD : 0))
		return;
	q->sq_flushes += sq;
	q->rq_flushes += rq;
	/* One flush CQE per queue with WQEs left (the driver replays it, doc/hardware.md §3). */
	if (irdma_get(w, CQP_FLUSH_USERFLCODE))
		model_engine_flush(d, id, sq, rq, (uint16_t)irdma_get(w, CQP_FLUSH_SQ_MINOR),
				   (uint16_t)irdma_get(w, CQP_FLUSH_RQ_MINOR));
	else
		model_engine_flush(d, id, sq, rq, IRDMA_FLUSH_GENERAL_ERR,
				   IRDMA_FLUSH_GENERAL_ERR);
	/* GEN_AE: the AE as if the engine raised it (it may move the QP to ERROR). */
	if (ae)
		(void)model_ae_raise(d, irdma_get(w, CQP_FLUSH_AECODE),
				     irdma_get(w, CQP_FLUSH_AESOURCE), id);
}

void
model_qp_free(struct model_dev *d)
{
	uint32_t i;

	for (i = 0; d->qp != NULL && i < d->qp_tab; i++)
		model_engine_qp_destroy(d, &d->qp[i]);
	model_engine_free(d);
	free(d->qp);
	d->qp = NULL;
	d->qp_tab = 0;
	d->qp_live = 0;
}

int
irdma_model_qp_get(struct irdma_hw *hw, uint32_t qp_id, struct irdma_model_qp_info *info)
{
	struct model_dev *d = model_dev_of(hw);
	const struct model_qp *q;
	int ret = 0;

	if (d == NULL || info == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	q = qp_lookup(d, qp_id);
	if (q == NULL) {
		ret = -ENOENT;
		goto out;
	}
	*info = (struct irdma_model_qp_info){
		.type = q->type,
		.state = q->state,
		.pbl_level = q->sq.level,
		.rq_shift = q->rq_shift,
		.sq_pa = q->sq.pa,
		.sq_quanta = q->sq.size,
		.rq_pa = q->rq.pa,
		.rq_quanta = q->rq.size,
		.tx_cq = q->tx_cq,
		.rx_cq = q->rx_cq,
		.pd = q->pd,
		.dest_qpn = q->dest_qpn,
		.sq_psn = q->sq_psn,
		.rq_psn = q->rq_psn,
		.qkey = q->qkey,
		.mss = q->mss,
		.arp_idx = q->arp_idx,
		.ord = q->ord,
		.ird_enc = q->ird_enc,
		.rdok = q->rdok,
		.wrrdrspok = q->wrrdrspok,
		.retry = q->retry,
		.rnr_retry = q->rnr_retry,
		.compl_ctx = q->compl_ctx,
		.ctx_pa = q->ctx_pa,
		.shadow_pa = q->shadow_pa,
		.modifies = q->modifies,
		.sq_flushes = q->sq_flushes,
		.rq_flushes = q->rq_flushes,
		.stats_use = q->stats_use,
		.stats_idx = q->stats_idx,
		.sq_first_pble = q->sq.first_pble,
		.rq_first_pble = q->rq.first_pble,
	};
out:
	model_unlock(&d->lock);
	return ret;
}
