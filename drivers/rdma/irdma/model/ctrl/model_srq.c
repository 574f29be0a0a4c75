/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Shared receive queues (gen3): CREATE / MODIFY / DESTROY_SRQ and the receive side of the QPs
 * that use one. Called with dev->lock held.
 *
 * The SRQ's state is a record (struct model_srq_rec) in its entry of HMC object 2, read and
 * written through the IOMMU view as the QP / MR contexts are.
 *
 * Behaviour relied on by the driver:
 *  - CREATE_SRQ checks the id (below the committed object-2 count; OBJ_EXISTS when in use),
 *    the PD (3 .. IRDMA_MAX_PDS - 1), the size (CQP_SRQ_RQSIZE 0..15: 8 << n quanta; WQE
 *    shift <= 3; at least 8 WQEs), the ring (256-byte aligned IOVA, or a level-1 PBLE run with
 *    VIRTMAP; every byte mapped), the shadow area (64-byte aligned, mapped) and the limit
 *    (below the WQE count). MODIFY_SRQ re-arms or disarms the limit; DESTROY_SRQ refuses an
 *    SRQ a QP still uses (BAD_STATE).
 *  - A QP context with QPC_USE_SRQ names a live SRQ of the same PD in QPC_SRQ_ID
 *    (model_qp.c); the QP then has no RQ. Its receives take the SRQ's WQEs in ring order:
 *    a WQE is posted when its index is not the shadow head (qword 0) and its valid bit is the
 *    expected polarity (1 on the first pass). Its completion is an extended CQE with CQE_SRQ,
 *    the WQE's qword 2 (wr_id) in CQE_COMP_CTX and the QP's completion context in
 *    CQE_EXT_SRQ_QP_CTX; CQE_WQEIDX is the WQE's first quantum.
 *  - Limit: while armed, when a taken WQE leaves fewer posted WQEs than the limit, one
 *    IRDMA_AE_SRQ_LIMIT for the SRQ id (completion context: CQP_SRQ_CTX) and the limit
 *    disarms.
 *  - A QP in error flushes only the SRQ WQE it had taken for a message in progress (one
 *    SRQ CQE with the flush code); the SRQ's other WQEs stay for the other QPs.
 */

#include <string.h>

#include <rte_atomic.h>

#include "model_engine.h"

/* The SRQ record in HMC object 2 (its entry is 1 << MODEL_SRQ_SIZE_LOG2 bytes). */
struct model_srq_rec {
	uint8_t valid;
	uint8_t shift;		/* WQE size shift */
	uint8_t level;		/* enum irdma_pble_level of the ring */
	uint8_t pol;		/* valid bit expected at next */
	uint8_t armed;		/* the limit event is armed */
	uint8_t rsvd[3];
	uint32_t pd;
	uint32_t size;		/* WQEs */
	uint32_t next;		/* next WQE the device takes */
	uint32_t limit;
	uint64_t pa;		/* level 0: ring IOVA */
	uint32_t first_pble;	/* level 1: first PBLE */
	uint32_t users;		/* QPs created with it */
	uint64_t shadow_pa;
	uint64_t ctx;		/* CQP_SRQ_CTX, echoed in its AEs */
};

_Static_assert(sizeof(struct model_srq_rec) <= (1u << MODEL_SRQ_SIZE_LOG2),
	       "the SRQ record fits its HMC entry");

static uint16_t
srq_load(struct model_dev *d, uint32_t id, struct model_srq_rec *s, rte_iova_t *iova)
{
	uint16_t minor;

	if (!d->fpm_committed || id >= d->obj[IRDMA_HMC_OBJ_RESERVED].cnt)
		return IRDMA_MODEL_MIN_BAD_ID;
	minor = model_hmc_iova(d, IRDMA_HMC_OBJ_RESERVED, id, iova);
	if (minor != 0)
		return minor;
	return model_dma_read(d, *iova, s, sizeof(*s)) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT;
}

static uint16_t
srq_store(struct model_dev *d, rte_iova_t iova, const struct model_srq_rec *s)
{
	return model_dma_write(d, iova, s, sizeof(*s)) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT;
}

/* The ring of @p s in quanta, as model_ring_entry() walks it. */
static void
srq_ring(const struct model_srq_rec *s, struct model_ring *ring)
{
	memset(ring, 0, sizeof(*ring));
	ring->pa = s->pa;
	ring->first_pble = s->first_pble;
	ring->level = s->level;
	ring->size = s->size << s->shift;
	ring->esize = IRDMA_QUANTUM_SIZE;
}

/* Decode and check the ring, size and shadow fields of a CREATE_SRQ into @p s. */
static uint16_t
srq_decode(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_srq_rec *s)
{
	uint32_t enc = irdma_get(w, CQP_SRQ_RQSIZE);
	uint32_t shift = irdma_get(w, CQP_SRQ_RQ_WQE_SIZE);
	bool vmap = irdma_get(w, CQP_SRQ_VIRTMAP);
	uint32_t quanta = IRDMA_GEN3_MIN_SRQ_QUANTA << enc;
	struct model_ring ring;
	uint16_t minor;

	if (quanta > IRDMA_GEN3_MAX_SRQ_QUANTA || shift > 3 ||
	    (quanta >> shift) < IRDMA_MIN_WQ_WQES)
		return IRDMA_MODEL_MIN_BAD_SIZE;
	s->shift = (uint8_t)shift;
	s->size = quanta >> shift;
	s->pd = irdma_get(w, CQP_SRQ_PD_ID);
	if (s->pd < IRDMA_FIRST_USER_PD_ID || s->pd >= IRDMA_MAX_PDS)
		return IRDMA_MODEL_MIN_BAD_ID;
	memset(&ring, 0, sizeof(ring));
	ring.size = quanta;
	ring.esize = IRDMA_QUANTUM_SIZE;
	minor = model_ring_from_wqe(d, &ring, vmap, irdma_get(w, CQP_SRQ_LEAF_PBL_SIZE),
				    vmap ? 0 : irdma_get(w, CQP_SRQ_PA),
				    vmap ? irdma_get(w, CQP_SRQ_FIRST_PBLIDX) : 0);
	if (minor == 0)
		minor = model_ring_check(d, &ring, IRDMA_SRQ_RING_ALIGN - 1);
	if (minor != 0)
		return minor;
	s->level = ring.level;
	s->pa = ring.pa;
	s->first_pble = ring.first_pble;
	s->shadow_pa = irdma_get(w, CQP_SRQ_SHADOW_PA);
	if ((s->shadow_pa & (IRDMA_SRQ_SHADOW_ALIGN - 1)) != 0)
		return IRDMA_MODEL_MIN_BAD_ALIGN;
	if (s->shadow_pa == 0 || model_dma_check(d, s->shadow_pa, IRDMA_SHADOW_AREA_SIZE) != 0)
		return IRDMA_MODEL_MIN_DMA_FAULT;
	return 0;
}

/* The limit fields of CREATE / MODIFY_SRQ into @p s. */
static uint16_t
srq_limit(const struct irdma_cqp_wqe *w, struct model_srq_rec *s)
{
	uint32_t limit = irdma_get(w, CQP_SRQ_LIMIT);

	if (limit >= s->size)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	s->limit = limit;
	s->armed = irdma_get(w, CQP_SRQ_ARM_LIMIT_EVENT) && limit != 0;
	return 0;
}

void
model_op_create_srq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_SRQ_ID);
	struct model_srq_rec s, old;
	rte_iova_t e;

	memset(&s, 0, sizeof(s));
	if (model_refuse(r, d->fpm_committed ? 0 : IRDMA_MODEL_MIN_NO_FPM) ||
	    model_refuse(r, srq_load(d, id, &old, &e)) ||
	    model_refuse(r, old.valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0) ||
	    model_refuse(r, srq_decode(d, w, &s)) ||
	    model_refuse(r, srq_limit(w, &s)))
		return;
	s.valid = 1;
	s.pol = IRDMA_WQ_POLARITY_INIT ^ 1;	/* SW flips from 0 before index 0: pass 1 is 1 */
	s.ctx = irdma_get(w, CQP_SRQ_CTX);
	if (model_refuse(r, srq_store(d, e, &s)))
		return;
	MODEL_LOG(DEBUG, d, "SRQ %u created: PD %u, %u WQEs of %u bytes, limit %u%s", id, s.pd,
		  s.size, IRDMA_QUANTUM_SIZE << s.shift, s.limit, s.armed ? " (armed)" : "");
}

/* The SRQ a MODIFY or DESTROY names, which must exist. @return 0 or the minor code. */
static uint16_t
srq_existing(struct model_dev *d, uint32_t id, struct model_srq_rec *s, rte_iova_t *e)
{
	uint16_t minor;

	if (!d->fpm_committed)
		return IRDMA_MODEL_MIN_NO_FPM;
	minor = srq_load(d, id, s, e);
	if (minor != 0)
		return minor;
	return s->valid ? 0 : IRDMA_MODEL_MIN_NO_OBJ;
}

void
model_op_modify_srq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_SRQ_ID);
	struct model_srq_rec s;
	rte_iova_t e;

	if (model_refuse(r, srq_existing(d, id, &s, &e)) ||
	    model_refuse(r, srq_limit(w, &s)) ||
	    model_refuse(r, srq_store(d, e, &s)))
		return;
	MODEL_LOG(DEBUG, d, "SRQ %u: limit %u%s", id, s.limit, s.armed ? " (armed)" : "");
}

void
model_op_destroy_srq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_SRQ_ID);
	struct model_srq_rec s;
	rte_iova_t e;

	if (model_refuse(r, srq_existing(d, id, &s, &e)) ||
	    model_refuse(r, s.users == 0 ? 0 : IRDMA_MODEL_MIN_BAD_STATE))
		return;
	memset(&s, 0, sizeof(s));
	if (model_refuse(r, srq_store(d, e, &s)))
		return;
	MODEL_LOG(DEBUG, d, "SRQ %u destroyed", id);
}

uint16_t
model_srq_attach(struct model_dev *d, uint32_t id, uint32_t pd, int delta)
{
	struct model_srq_rec s;
	rte_iova_t e;
	uint16_t minor;

	if (d->cfg.gen < IRDMA_GEN_3)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	minor = srq_load(d, id, &s, &e);
	if (minor != 0)
		return minor;
	if (!s.valid)
		return IRDMA_MODEL_MIN_NO_OBJ;
	if (s.pd != pd)
		return IRDMA_MODEL_MIN_BAD_ID;
	if (delta == 0)
		return 0;
	s.users = (uint32_t)((int64_t)s.users + delta);
	return srq_store(d, e, &s);
}

/* Posted WQEs of @p s not taken yet: from next up to the SW head in the shadow area. */
static uint32_t
srq_posted(struct model_dev *d, const struct model_srq_rec *s)
{
	uint64_t head;

	if (model_dma_load64(d, s->shadow_pa + IRDMA_FIELD_BYTE(SRQ_SHADOW_HEAD), &head) != 0)
		return 0;
	head = IRDMA_GET(SRQ_SHADOW_HEAD, head);
	if (head >= s->size)
		return 0;
	return ((uint32_t)head - s->next) & (s->size - 1);
}

int
model_srq_peek(struct model_dev *d, uint32_t qp_id, struct model_qp *q, struct model_frag *frag,
	       uint8_t *nfrags, uint32_t *idx, uint32_t *ae)
{
	struct model_qpe *e = q->eng;
	struct model_srq_rec s;
	struct model_ring ring;
	struct irdma_wqe wqe;
	uint32_t i, k, slots, quanta;
	rte_iova_t iova;

	*ae = 0;
	*nfrags = 0;
	if (srq_load(d, q->srq_id, &s, &iova) != 0 || !s.valid) {
		*ae = IRDMA_AE_SRQ_CATASTROPHIC_ERROR;
		return -1;
	}
	if (srq_posted(d, &s) == 0)
		return 0;
	/* The head before the WQEs it covers (SW stores them first, then the head). */
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	srq_ring(&s, &ring);
	quanta = 1u << s.shift;
	*idx = s.next << s.shift;
	memset(&wqe, 0, sizeof(wqe));
	for (i = 0; i < quanta; i++) {
		uint8_t *qn = (uint8_t *)&wqe + i * IRDMA_QUANTUM_SIZE;

		if (model_ring_entry(d, &ring, *idx + i, &iova) != 0 ||
		    model_dma_read(d, iova, qn, IRDMA_QUANTUM_SIZE) != 0) {
			*ae = IRDMA_AE_SRQ_CATASTROPHIC_ERROR;
			return -1;
		}
	}
	/* The head says posted; the valid bit must agree (the header is written last). */
	if (irdma_get(&wqe, RQ_VALID) != s.pol)
		return 0;
	slots = (uint32_t)irdma_get(&wqe, RQ_ADDFRAGCNT) + 1;
	if (slots > IRDMA_WQE_MAX_FRAGS || slots / 2 + 1 > quanta) {
		*ae = IRDMA_AE_WQE_INVALID_PARAMETER;
		return -1;
	}
	for (k = 0; k < slots; k++) {
		const struct irdma_wqe_frag *f = irdma_wqe_frag_c(&wqe, k);
		struct model_frag fr = {
			.addr = irdma_get(f, FRAG_ADDR),
			.stag = (uint32_t)irdma_get(f, FRAG_STAG),
			.len = (uint32_t)irdma_get(f, FRAG_LEN),
		};

		if (irdma_get(f, FRAG_VALID) != s.pol) {
			*ae = IRDMA_AE_WQE_INVALID_FRAG_DATA;
			return -1;
		}
		if (fr.len == 0)
			continue;
		*ae = model_mr_check(d, fr.stag, fr.addr, fr.len, IRDMA_ACCESS_LOCAL_WRITE, q->pd);
		if (*ae != 0)
			return -1;
		frag[(*nfrags)++] = fr;
	}
	e->srq_dev = d;
	e->srq_peek_wrid = irdma_get(&wqe, SRQ_WRID);
	MODEL_DBG(d, "QP %u: SRQ %u WQE %u, %u fragments", qp_id, q->srq_id, s.next,
		  *nfrags);
	return 1;
}

void
model_srq_consume(struct model_qp *q)
{
	struct model_qpe *e = q->eng;
	struct model_dev *d = e->srq_dev;
	struct model_srq_rec s;
	rte_iova_t iova;

	e->srq_wrid = e->srq_peek_wrid;
	if (d == NULL || srq_load(d, q->srq_id, &s, &iova) != 0 || !s.valid)
		return;
	if (++s.next == s.size) {
		s.next = 0;
		s.pol ^= 1;
	}
	if (s.armed && srq_posted(d, &s) < s.limit) {
		/* One event, then the limit is disarmed until SW arms it again. */
		s.armed = 0;
		model_aeq_post(d, IRDMA_AE_SRQ_LIMIT, IRDMA_AE_SOURCE_RSVD, q->srq_id, s.ctx);
		MODEL_LOG(DEBUG, d, "SRQ %u: below its limit %u", q->srq_id, s.limit);
	}
	(void)srq_store(d, iova, &s);
}

void
model_srq_cqe_fill(const struct model_qp *q, struct irdma_cqe *cqe, struct irdma_cqe_ext *ext)
{
	irdma_set(cqe, CQE_COMP_CTX, q->eng->srq_wrid);
	irdma_set(cqe, CQE_SRQ, 1);
	irdma_set(ext, CQE_EXT_SRQ_QP_CTX, q->compl_ctx);
}

void
model_srq_flush_cqe(struct model_dev *d, uint32_t qp_id, struct model_qp *q, uint32_t idx,
		    uint16_t code)
{
	struct irdma_cqe_ext ext = { .qw = { 0 } };
	struct irdma_cqe cqe = { .qw = { 0 } };

	irdma_set(&cqe, CQE_QPID, qp_id);
	irdma_set(&cqe, CQE_WQEIDX, idx);
	irdma_set(&cqe, CQE_OP, IRDMA_OP_REC);
	irdma_set(&cqe, CQE_SQ, IRDMA_CQE_QTYPE_RQ);
	irdma_set(&cqe, CQE_ERROR, 1);
	irdma_set(&cqe, CQE_MAJERR, IRDMA_CQE_MAJOR_FLUSH);
	irdma_set(&cqe, CQE_MINERR, code);
	model_srq_cqe_fill(q, &cqe, &ext);
	MODEL_INC(d, flush_cqes);
	(void)model_cq_post_ext(d, q->rx_cq, &cqe, &ext);
}
