/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RQ WQEs and receive completions (doc/hardware.md §2, §3). There is no RQ doorbell: when a
 * SEND (or WRITE with immediate) arrives, the engine looks at the RQ WQE at its fetch index
 * and takes it when its valid bit equals the RQ polarity (1 on the first pass, flipping at
 * each wrap). The RQ index in CQEs is in quanta. A QP that uses an SRQ (gen3) takes its
 * WQEs from the SRQ instead (model_srq.c). Called with dev->lock held.
 */

#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>

#include "model_engine.h"

int
model_rq_peek(struct model_dev *d, uint32_t qp_id, struct model_qp *q, struct model_frag *frag,
	      uint8_t *nfrags, uint32_t *idx, uint32_t *ae)
{
	struct model_qpe *e = q->eng;
	uint32_t wqe_quanta = 1u << q->rq_shift;
	struct irdma_wqe wqe;
	uint32_t i, k, slots;
	rte_iova_t iova;
	uint64_t hdr;

	if (q->use_srq)
		return model_srq_peek(d, qp_id, q, frag, nfrags, idx, ae);
	*ae = 0;
	*nfrags = 0;
	*idx = e->rq_next;
	if (model_ring_entry(d, &q->rq, e->rq_next, &iova) != 0 ||
	    model_dma_load64(d, iova + IRDMA_FIELD_BYTE(RQ_VALID), &hdr) != 0) {
		*ae = IRDMA_AE_LCE_QP_CATASTROPHIC;
		return -1;
	}
	if (IRDMA_GET(RQ_VALID, hdr) != e->rq_pol)
		return 0;
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	slots = (uint32_t)IRDMA_GET(RQ_ADDFRAGCNT, hdr) + 1;
	if (slots > IRDMA_WQE_MAX_FRAGS || slots / 2 + 1 > wqe_quanta ||
	    e->rq_next + wqe_quanta > q->rq.size) {
		*ae = IRDMA_AE_WQE_INVALID_PARAMETER;
		return -1;
	}
	memset(&wqe, 0, sizeof(wqe));
	for (i = 0; i < slots / 2 + 1; i++) {
		uint8_t *qn = (uint8_t *)&wqe + i * IRDMA_QUANTUM_SIZE;

		if (model_ring_entry(d, &q->rq, e->rq_next + i, &iova) != 0 ||
		    model_dma_read(d, iova, qn, IRDMA_QUANTUM_SIZE) != 0) {
			*ae = IRDMA_AE_LCE_QP_CATASTROPHIC;
			return -1;
		}
		if (i > 0 && irdma_get((struct irdma_quantum *)(void *)qn, QUANTUM_VALID) !=
			     e->rq_pol) {
			*ae = IRDMA_AE_WQE_INVALID_FRAG_DATA;
			return -1;
		}
	}
	for (k = 0; k < slots; k++) {
		const struct irdma_wqe_frag *f = irdma_wqe_frag_c(&wqe, k);
		struct model_frag fr = {
			.addr = irdma_get(f, FRAG_ADDR),
			.stag = (uint32_t)irdma_get(f, FRAG_STAG),
			.len = (uint32_t)irdma_get(f, FRAG_LEN),
		};

		if (fr.len == 0)
			continue;
		*ae = model_mr_check(d, fr.stag, fr.addr, fr.len, IRDMA_ACCESS_LOCAL_WRITE, q->pd);
		if (*ae != 0)
			return -1;
		frag[(*nfrags)++] = fr;
	}
	MODEL_DBG(d, "QP %u: RQ WQE %u, %u fragments", qp_id, *idx, *nfrags);
	return 1;
}

void
model_rq_consume(struct model_qp *q)
{
	struct model_qpe *e = q->eng;

	if (q->use_srq) {
		model_srq_consume(q);
		return;
	}
	e->rq_next += 1u << q->rq_shift;
	if (e->rq_next >= q->rq.size) {
		e->rq_next = 0;
		e->rq_pol ^= 1;
	}
}

uint32_t
model_frags_len(const struct model_frag *frag, uint8_t nfrags)
{
	uint64_t total = 0;
	uint8_t k;

	for (k = 0; k < nfrags; k++)
		total += frag[k].len;
	return (uint32_t)RTE_MIN(total, (uint64_t)UINT32_MAX);
}

uint32_t
model_scatter(struct model_dev *d, const struct model_qp *q, const struct model_frag *frag,
	      uint8_t nfrags, uint32_t off, const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint32_t ae;
	uint8_t k;

	for (k = 0; k < nfrags && len > 0; k++) {
		const struct model_frag *f = &frag[k];
		uint32_t n;

		if (off >= f->len) {
			off -= f->len;
			continue;
		}
		n = RTE_MIN(len, f->len - off);
		ae = model_mr_copy(d, f->stag, f->addr + off, n, IRDMA_ACCESS_LOCAL_WRITE, q->pd,
				   true, (void *)(uintptr_t)p);
		if (ae != 0)
			return ae;
		p += n;
		len -= n;
		off = 0;
	}
	return len == 0 ? 0 : IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER;
}

void
model_rq_cqe(struct model_dev *d, uint32_t qp_id, const struct model_rq_cqe *c)
{
	struct model_qp *q = model_engine_qp(d, qp_id);
	struct irdma_cqe_ext ext = { .qw = { 0 } };
	struct irdma_cqe cqe = { .qw = { 0 } };
	uint64_t mac = 0;
	unsigned int i;

	if (q == NULL)
		return;
	irdma_set(&cqe, CQE_PAYLDLEN, c->len);
	irdma_set(&cqe, CQE_COMP_CTX, q->compl_ctx);
	irdma_set(&cqe, CQE_QPID, qp_id);
	irdma_set(&cqe, CQE_WQEIDX, c->idx);
	irdma_set(&cqe, CQE_OP, c->op);
	irdma_set(&cqe, CQE_SQ, IRDMA_CQE_QTYPE_RQ);
	irdma_set(&cqe, CQE_SOEVENT, c->solicited ? 1 : 0);
	if (c->ud) {
		irdma_set(&cqe, CQE_UD_SRCQPN, c->src_qpn);
		irdma_set(&cqe, CQE_IPV4, c->ipv4 ? 1 : 0);
		for (i = 0; i < 6; i++)
			mac = (mac << 8) | c->smac[i];
		irdma_set(&ext, CQE_EXT_UDSMAC, mac);
		irdma_set(&ext, CQE_EXT_UDSMACVALID, 1);
		if (c->vlan_valid) {
			irdma_set(&ext, CQE_EXT_UDVLAN, c->vlan);
			irdma_set(&ext, CQE_EXT_UDVLANVALID, 1);
		}
	} else if (c->inv_valid) {
		irdma_set(&cqe, CQE_INVSTAG, c->inv_stag);
		irdma_set(&cqe, CQE_STAG, 1);
	}
	MODEL_INC(d, rq_cqes);
	if (c->imm_valid) {
		irdma_set(&ext, CQE_EXT_IMMDATA, c->imm);
		irdma_set(&ext, CQE_EXT_IMMVALID, 1);
	}
	if (q->use_srq)
		model_srq_cqe_fill(q, &cqe, &ext);
	if (c->ud || c->imm_valid || q->use_srq)
		(void)model_cq_post_ext(d, q->rx_cq, &cqe, &ext);
	else
		(void)model_cq_post(d, q->rx_cq, &cqe);
}
