/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * SQ WQEs on the data path (doc/hardware.md §1): fetch by polarity, decode every field, validate
 * (opcode, quanta, fragment count, lengths, inline length, every quantum's valid bit, the
 * local STags, PD, rights and bounds), gather the payload through the MRs, and the local
 * operations (NOP, LOCAL_INV, FAST_REG; gen3: BIND_MW). Gen3 atomics are decoded here (2
 * quanta, their 8-byte local SGE checked for local write). Called with dev->lock held.
 *
 * A malformed WQE is refused with the AE silicon raises (WQE_UNEXPECTED_OPCODE,
 * WQE_INVALID_PARAMETER, WQE_INVALID_FRAG_DATA or the memory-protection AE_AMP_* codes);
 * the caller moves the QP to error. Nothing outside the registered regions is touched: all
 * memory accesses go through model_mr_copy() or the SQ ring itself.
 */

#include <string.h>

#include <rte_atomic.h>

#include "model_engine.h"
#include "model_opcode.h"

/* Read SQ quantum @p idx into @p qn. */
static int
sq_quantum(struct model_dev *d, const struct model_qp *q, uint32_t idx, void *qn)
{
	rte_iova_t iova;

	if (model_ring_entry(d, &q->sq, idx, &iova) != 0)
		return -EFAULT;
	return model_dma_read(d, iova, qn, IRDMA_QUANTUM_SIZE);
}

/* Quanta of an inline WQE of @p len bytes (gen2: 8 bytes in quantum 0, 31 in each next). */
static uint32_t
inline_quanta(uint32_t len)
{
	if (len <= IRDMA_INLINE_Q0_BYTES)
		return 1;
	return 1 + (len - IRDMA_INLINE_Q0_BYTES + IRDMA_INLINE_QN_BYTES - 1) /
		   IRDMA_INLINE_QN_BYTES;
}

/* Copy the inline payload out of the WQE (byte placement of doc/hardware.md §1.6). */
static void
inline_copy(const struct irdma_wqe *wqe, uint32_t len, uint8_t *out)
{
	const uint8_t *b = (const uint8_t *)wqe;
	uint32_t n = RTE_MIN(len, IRDMA_INLINE_Q0_BYTES);
	uint32_t qn = 1;

	memcpy(out, b + IRDMA_INLINE_Q0_OFFSET, n);
	out += n;
	len -= n;
	while (len > 0) {
		n = RTE_MIN(len, IRDMA_INLINE_QN_BYTES);
		memcpy(out, b + qn * IRDMA_QUANTUM_SIZE, n);
		out += n;
		len -= n;
		qn++;
	}
}

/* Decode the fragments of a data WQE; 0 or an AE code. */
static uint32_t
sq_frags(struct model_dev *d, const struct model_qp *q, const struct irdma_wqe *wqe,
	 struct model_wqe *w, uint32_t slots)
{
	bool is_read = model_wqe_is(w->op, MODEL_WQF_READ);
	uint8_t access = is_read ? IRDMA_ACCESS_LOCAL_WRITE : IRDMA_ACCESS_LOCAL_READ;
	uint64_t total = 0;
	uint32_t k, ae;

	/* With an immediate, slot 0 holds it and the SGEs start at slot 1. */
	for (k = (w->flags & MODEL_WQE_IMM) ? 1 : 0; k < slots; k++) {
		const struct irdma_wqe_frag *f = irdma_wqe_frag_c(wqe, k);
		struct model_frag fr = {
			.addr = irdma_get(f, FRAG_ADDR),
			.stag = (uint32_t)irdma_get(f, FRAG_STAG),
			.len = (uint32_t)irdma_get(f, FRAG_LEN),
		};

		if (fr.len == 0)
			continue; /* NULL pad (or an empty SGE) */
		ae = model_mr_check(d, fr.stag, fr.addr, fr.len, access, q->pd);
		if (ae != 0)
			return ae;
		total += fr.len;
		w->frag[w->nfrags++] = fr;
	}
	if (total > IRDMA_MAX_MSG_SIZE)
		return IRDMA_AE_WQE_INVALID_PARAMETER;
	w->len = (uint32_t)total;
	return 0;
}

/*
 * ATOMIC (gen3, doc/hardware.md §1.5): 2 quanta, ADDFRAGCNT 1, local TO / lkey in qw0 / qw1 (an
 * 8-byte SGE), remote TO in qw2, rkey in the header; the operands (qw4, qw5) are taken once
 * model_sq_fetch has read quantum 1.
 */
static uint32_t
sq_decode_atomic(const struct irdma_wqe *wqe, struct model_wqe *w)
{
	if (irdma_get(wqe, SQ_ADDFRAGCNT) != 1)
		return IRDMA_AE_WQE_INVALID_PARAMETER;
	w->quanta = 2;
	w->len = sizeof(uint64_t);
	w->rva = irdma_get(wqe, SQ_ATOM_REMOTE_TO);
	w->rkey = (uint32_t)irdma_get(wqe, SQ_REMSTAG);
	w->frag[0].addr = irdma_get(wqe, SQ_ATOM_LOCAL_TO);
	w->frag[0].stag = (uint32_t)irdma_get(wqe, SQ_ATOM_LOCAL_STAG);
	w->frag[0].len = sizeof(uint64_t);
	w->nfrags = 1;
	return 0;
}

/* BIND_MW (gen3 type-2 window): 1 quantum, fields of doc/hardware.md §1.5. */
static uint32_t
sq_decode_bind(const struct irdma_wqe *wqe, struct model_wqe *w)
{
	if (irdma_get(wqe, SQ_MEMWINDOWTYPE))
		return IRDMA_AE_AMP_MWBIND_WRONG_TYPE; /* type-1 windows are not modelled */
	w->rva = irdma_get(wqe, SQ_BIND_VA);
	w->rkey = (uint32_t)irdma_get(wqe, SQ_BIND_MW_STAG);
	w->bind_mr = (uint32_t)irdma_get(wqe, SQ_BIND_PARENT_STAG);
	w->fr_len = irdma_get(wqe, SQ_BIND_LEN);
	w->fr_rights = (uint8_t)irdma_get(wqe, SQ_STAGRIGHTS);
	if (irdma_get(wqe, SQ_REMOTE_ATOMICS_EN))
		w->fr_rights |= MODEL_ACCESS_REMOTE_ATOMIC;
	w->fr_va_based = (uint8_t)irdma_get(wqe, SQ_VABASEDTO);
	return 0;
}

/* Decode quantum 0's operation-specific fields and the WQE size; 0 or an AE code. */
static uint32_t
sq_decode(const struct model_qp *q, const struct irdma_wqe *wqe, uint8_t wf,
	  struct model_wqe *w, uint32_t *slots, bool gen3)
{
	uint32_t inl = irdma_get(wqe, SQ_INLINEDATALEN);

	*slots = 0;
	w->quanta = 1;
	if (!(wf & MODEL_WQF_DATA)) {
		/* FAST_REG's HPAGESIZE (47:46) shares bit 47 with IMMDATAFLAG (1 GB pages). */
		if (irdma_get(wqe, SQ_INLINEDATAFLAG) ||
		    (w->op != IRDMA_OP_FAST_REGISTER && irdma_get(wqe, SQ_IMMDATAFLAG)))
			return IRDMA_AE_WQE_INVALID_PARAMETER;
		if (wf & MODEL_WQF_ATOMIC)
			return sq_decode_atomic(wqe, w);
		if (w->op == IRDMA_OP_BIND_MW)
			return sq_decode_bind(wqe, w);
		if (w->op == IRDMA_OP_LOCAL_INVALIDATE)
			w->rkey = (uint32_t)irdma_get(wqe, SQ_LINV_STAG);
		if (w->op == IRDMA_OP_FAST_REGISTER) {
			uint32_t chunk = irdma_get(wqe, SQ_FR_LPBLSIZE);
			uint32_t hp = irdma_get(wqe, SQ_FR_HPAGESIZE);

			if (chunk == IRDMA_PBL_CHUNK_PHYS)
				w->fr_level = IRDMA_PBLE_LEVEL_0;
			else if (chunk == IRDMA_PBL_CHUNK_L1)
				w->fr_level = IRDMA_PBLE_LEVEL_1;
			else if (chunk == IRDMA_PBL_CHUNK_L2)
				w->fr_level = IRDMA_PBLE_LEVEL_2;
			else
				return IRDMA_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG;
			if (hp == IRDMA_HPAGE_4K)
				w->fr_shift = 12;
			else if (hp == IRDMA_HPAGE_2M)
				w->fr_shift = 21;
			else if (hp == IRDMA_HPAGE_1G)
				w->fr_shift = 30;
			else
				return IRDMA_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG;
			w->rva = irdma_get(wqe, SQ_FR_VA_FBO);
			w->fr_len = irdma_get(wqe, SQ_FR_STAGLEN);
			w->fr_stag = (uint32_t)(irdma_get(wqe, SQ_FR_STAGINDEX) <<
						IRDMA_STAG_KEY_BITS) |
				     (uint32_t)irdma_get(wqe, SQ_FR_STAGKEY);
			w->fr_rights = (uint8_t)irdma_get(wqe, SQ_STAGRIGHTS);
			if (gen3 && irdma_get(wqe, SQ_REMOTE_ATOMICS_EN))
				w->fr_rights |= MODEL_ACCESS_REMOTE_ATOMIC;
			w->fr_va_based = (uint8_t)irdma_get(wqe, SQ_VABASEDTO);
			if (w->fr_level == IRDMA_PBLE_LEVEL_0)
				w->fr_pbl = irdma_get(wqe, SQ_FR_PBL_PFN) << 12;
			else
				w->fr_pbl = (irdma_get(wqe, SQ_FR_FIRST_PBLIDX_HI) << 16) |
					    irdma_get(wqe, SQ_FR_FIRST_PBLIDX_LO);
		}
		return 0;
	}
	if (irdma_get(wqe, SQ_IMMDATAFLAG)) {
		if (wf & MODEL_WQF_READ)
			return IRDMA_AE_WQE_INVALID_PARAMETER;
		w->flags |= MODEL_WQE_IMM;
		w->imm = (uint32_t)irdma_get(wqe, SQ_IMMDATA);
	}
	if (wf & MODEL_WQF_SOLICITED)
		w->flags |= MODEL_WQE_SOLICITED;
	if (wf & MODEL_WQF_REMOTE) {
		w->rva = irdma_get(wqe, SQ_REMOTE_TO);
		w->rkey = (uint32_t)irdma_get(wqe, SQ_REMSTAG);
	} else if (wf & MODEL_WQF_INV) {
		w->rkey = (uint32_t)irdma_get(wqe, SQ_INV_STAG);
	} else if (q->type == IRDMA_QP_TYPE_ROCE_UD) {
		w->ah_id = (uint32_t)irdma_get(wqe, SQ_AHID);
		w->dest_qpn = (uint32_t)irdma_get(wqe, SQ_UD_DESTQPN);
		w->dest_qkey = (uint32_t)irdma_get(wqe, SQ_UD_DESTQKEY);
	}
	if (irdma_get(wqe, SQ_INLINEDATAFLAG)) {
		if ((wf & MODEL_WQF_READ) || inl > IRDMA_MAX_INLINE)
			return IRDMA_AE_WQE_INVALID_PARAMETER;
		w->flags |= MODEL_WQE_INLINE;
		w->len = inl;
		w->quanta = (uint8_t)inline_quanta(inl);
		return 0;
	}
	*slots = (uint32_t)irdma_get(wqe, SQ_ADDFRAGCNT) + 1;
	if (*slots > IRDMA_WQE_MAX_FRAGS)
		return IRDMA_AE_WQE_INVALID_PARAMETER;
	w->quanta = (uint8_t)(*slots / 2 + 1);
	return 0;
}

/* @p w before decoding the WQE at SQ quantum @p idx: nothing set but its position. */
static inline void
wqe_reset(struct model_wqe *w, uint32_t idx)
{
	memset(w, 0, offsetof(struct model_wqe, frag));
	w->idx = idx;
	w->quanta = 1;
}

int
model_sq_fetch(struct model_dev *d, uint32_t qp_id, struct model_qp *q, struct model_wqe *w,
	       uint32_t *ae)
{
	struct model_qpe *e = q->eng;
	const struct model_wqe_op *wo;
	struct irdma_wqe wqe;
	uint32_t i, slots;
	uint64_t hdr;
	rte_iova_t iova;

	*ae = 0;
	if (model_ring_entry(d, &q->sq, e->sq_next, &iova) != 0 ||
	    model_dma_load64(d, iova + IRDMA_FIELD_BYTE(SQ_VALID), &hdr) != 0) {
		wqe_reset(w, e->sq_next);
		*ae = IRDMA_AE_LCE_QP_CATASTROPHIC;
		return -1;
	}
	/* No WQE (the look after each one taken): @p w is left as it was. */
	if (IRDMA_GET(SQ_VALID, hdr) != e->sq_pol)
		return 0;
	wqe_reset(w, e->sq_next);
	/* The header is written last: read the body only after seeing it valid. */
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	/*
	 * Not zeroed first: only the quanta read below are ever looked at (the decode reads
	 * quantum 0, the fragments, inline bytes and atomic operands lie in the w->quanta
	 * quanta read after it).
	 */
	if (sq_quantum(d, q, e->sq_next, &wqe) != 0) {
		*ae = IRDMA_AE_LCE_QP_CATASTROPHIC;
		return -1;
	}
	wqe.qw[IRDMA_WQE_HDR_QW] = rte_cpu_to_le_64(hdr);
	MODEL_INC(d, sq_wqes);
	w->op = (uint8_t)irdma_get(&wqe, SQ_OPCODE);
	if (irdma_get(&wqe, SQ_SIGCOMPL))
		w->flags |= MODEL_WQE_SIGNALED;
	wo = &model_wqe_ops[w->op & 63];
	if (!model_opq_has(wo->qp_types, q->type) || d->cfg.gen < wo->min_gen) {
		*ae = IRDMA_AE_WQE_UNEXPECTED_OPCODE;
		return -1;
	}
	*ae = sq_decode(q, &wqe, wo->flags, w, &slots, d->cfg.gen >= IRDMA_GEN_3);
	if (*ae != 0)
		return -1;
	/* A WQE stays inside one 8-quantum chunk, hence inside the ring. */
	if ((w->idx % IRDMA_SQ_CHUNK_QUANTA) + w->quanta > IRDMA_SQ_CHUNK_QUANTA ||
	    w->idx + w->quanta > q->sq.size) {
		*ae = IRDMA_AE_WQE_INVALID_PARAMETER;
		return -1;
	}
	for (i = 1; i < w->quanta; i++) {
		struct irdma_quantum *qn = (struct irdma_quantum *)(void *)((uint8_t *)&wqe +
							i * IRDMA_QUANTUM_SIZE);

		if (sq_quantum(d, q, w->idx + i, qn) != 0) {
			*ae = IRDMA_AE_LCE_QP_CATASTROPHIC;
			return -1;
		}
		if (irdma_get(qn, QUANTUM_VALID) != e->sq_pol) {
			*ae = IRDMA_AE_WQE_INVALID_FRAG_DATA;
			return -1;
		}
	}
	if (w->flags & MODEL_WQE_INLINE) {
		inline_copy(&wqe, w->len, w->inl);
	} else if (wo->flags & MODEL_WQF_ATOMIC) {
		/* The original value lands in the local SGE: it must be writable. */
		w->at_swap_add = irdma_get(&wqe, SQ_ATOM_SWAP_ADD);
		w->at_cmp = irdma_get(&wqe, SQ_ATOM_COMPARE);
		*ae = model_mr_check(d, w->frag[0].stag, w->frag[0].addr, w->frag[0].len,
				     IRDMA_ACCESS_LOCAL_WRITE, q->pd);
	} else if (slots > 0) {
		*ae = sq_frags(d, q, &wqe, w, slots);
	}
	if (*ae != 0)
		return -1;
	/* Consumed: the next WQE starts after it; the polarity flips at the wrap. */
	e->sq_next += w->quanta;
	if (e->sq_next >= q->sq.size) {
		e->sq_next = 0;
		e->sq_pol ^= 1;
	}
	MODEL_DBG(d, "QP %u: SQ WQE %u op 0x%x, %u bytes, %u quanta", qp_id, w->idx, w->op,
		  w->len, w->quanta);
	return 1;
}

int
model_gather(struct model_dev *d, const struct model_qp *q, const struct model_wqe *w,
	     uint32_t off, void *buf, uint32_t len)
{
	uint8_t *p = buf;
	uint32_t k, ae;

	if (w->flags & MODEL_WQE_INLINE) {
		memcpy(p, w->inl + off, len);
		return 0;
	}
	for (k = 0; k < w->nfrags && len > 0; k++) {
		const struct model_frag *f = &w->frag[k];
		uint32_t n;

		if (off >= f->len) {
			off -= f->len;
			continue;
		}
		n = RTE_MIN(len, f->len - off);
		ae = model_mr_copy(d, f->stag, f->addr + off, n, IRDMA_ACCESS_LOCAL_READ, q->pd,
				   false, p);
		if (ae != 0)
			return (int)ae;
		p += n;
		len -= n;
		off = 0;
	}
	return len == 0 ? 0 : IRDMA_AE_WQE_INVALID_PARAMETER;
}

uint32_t
model_local_op(struct model_dev *d, const struct model_qp *q, const struct model_wqe *w)
{
	uint32_t ae;

	switch (w->op) {
	case IRDMA_OP_LOCAL_INVALIDATE:
		MODEL_INC(d, rdma_inv);
		ae = model_mr_invalidate(d, w->rkey, q->pd, false);
		if (ae == 0)
			MODEL_HW(q->hw_st, RDMAVINV, 1);
		return ae;
	case IRDMA_OP_FAST_REGISTER:
		return model_mr_fastreg(d, w->fr_stag, q->pd, w->rva, w->fr_len, w->fr_pbl,
					w->fr_level, w->fr_shift, w->fr_rights, w->fr_va_based);
	case IRDMA_OP_BIND_MW:
		ae = model_mw_bind(d, w->rkey, w->bind_mr, q->pd, w->rva, w->fr_len,
				   w->fr_rights, w->fr_va_based);
		if (ae == 0) {
			MODEL_INC(d, mw_binds);
			MODEL_HW(q->hw_st, RDMAVBND, 1);
		}
		return ae;
	default:
		return 0; /* NOP */
	}
}
