/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * CQs (the CCQ is CQ 0), CEQs and the AEQ: their CQP commands and the entry writers.
 * Called with dev->lock held.
 *
 * Behaviour relied on by the driver (doc/hardware.md §3, §5.5):
 *  - CQEs, CEQEs and AEQEs carry a valid bit equal to the queue's current polarity; it
 *    starts at 1 and flips each time the device wraps. The device writes the rest of the
 *    entry first and the qword holding the valid bit last.
 *  - A CQ created with CHKOVERFLOW reads SW's consumer index from shadow qword 0 before
 *    each CQE and refuses to fill the last free slot (the kernel sizes the CCQ one larger
 *    than the CQP for this reason); the overflow becomes an AEQE CQ_OPERATION_ERROR.
 *  - A CQE the device cannot write (ring no longer mapped, PBLE unreachable) becomes an
 *    AEQE LCE_CQ_CATASTROPHIC for that CQ.
 *  - A CQ armed through CQARM (or the DB page) with ENCEQEMASK and a valid CEQ gets one
 *    CEQE carrying its CQ context on its next CQE; the arm is then consumed.
 *  - MODIFY_CQ (resize) switches a CQ to a new ring validated like CREATE_CQ's; the
 *    device writes only the new ring afterwards, starting at head 0 with polarity 1.
 *  - The AEQ holds at most its size of entries SW has not returned through AEQALLOC;
 *    further events are dropped (counted).
 */

#include <string.h>

#include "model_priv.h"

bool
model_ccq_exists(const struct model_dev *d)
{
	return d->cq_tab > IRDMA_CCQ_ID && d->cq[IRDMA_CCQ_ID].valid;
}

/*
 * The ring and shadow area a CREATE_CQ or MODIFY_CQ names: size range, ring placement and
 * reachability, shadow alignment and reachability. Fills ring, shadow_pa and the flags.
 */
static bool
cq_ring_decode(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_cq *cq,
	       struct model_res *r)
{
	uint32_t size = irdma_get(w, CQP_CQ_SIZE);
	rte_iova_t shadow = irdma_get(w, CQP_CQ_SHADOW_PA);

	if (model_refuse(r, size >= IRDMA_MIN_CQ_SIZE && size <= IRDMA_MAX_CQ_SIZE ?
		      0 : IRDMA_MODEL_MIN_BAD_SIZE))
		return true;
	memset(&cq->ring, 0, sizeof(cq->ring));
	cq->ring.size = size;
	cq->ring.esize = irdma_get(w, CQP_CQ_AVOIDMEMCNFLCT) ? IRDMA_EXT_CQE_SIZE : IRDMA_CQE_SIZE;
	if (model_refuse(r, model_ring_from_wqe(d, &cq->ring, irdma_get(w, CQP_CQ_VIRTMAP),
					  irdma_get(w, CQP_LPBLSIZE), irdma_get(w, CQP_CQ_PA),
					  irdma_get(w, CQP_CQ_FIRST_PBLIDX))) ||
	    model_refuse(r, model_ring_check(d, &cq->ring, IRDMA_CQ0_ALIGN_MASK)))
		return true;
	if (model_refuse(r, (shadow & (IRDMA_SHADOW_AREA_ALIGN - 1)) == 0 ?
		      0 : IRDMA_MODEL_MIN_BAD_ALIGN) ||
	    model_refuse(r, model_dma_check(d, shadow, IRDMA_SHADOW_AREA_SIZE) == 0 ?
		      0 : IRDMA_MODEL_MIN_DMA_FAULT))
		return true;
	cq->shadow_pa = shadow;
	cq->ceqe_en = irdma_get(w, CQP_CQ_ENCEQEMASK);
	cq->chk_overflow = irdma_get(w, CQP_CQ_CHKOVERFLOW);
	cq->ctx = irdma_get(w, CQP_CQ_CTX);
	cq->head = 0;
	cq->polarity = IRDMA_CQ_POLARITY_INIT;
	return false;
}

void
model_op_create_cq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_CQ_ID);
	struct model_cq cq;
	rte_iova_t ctx;
	uint16_t minor;

	memset(&cq, 0, sizeof(cq));
	if (model_refuse(r, d->fpm_committed ? 0 : IRDMA_MODEL_MIN_NO_FPM) ||
	    model_refuse(r, id < d->cq_tab ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, d->cq[id].valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0))
		return;
	/* The CQ context lives in the HMC: its address must be backed. */
	minor = model_hmc_iova(d, IRDMA_HMC_OBJ_CQ, id, &ctx);
	if (minor != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, minor);
		return;
	}
	if (cq_ring_decode(d, w, &cq, r))
		return;
	cq.ceq_valid = irdma_get(w, CQP_CQ_CEQIDVALID);
	cq.ceq_id = irdma_get(w, CQP_CQ_CEQID);
	if (model_refuse(r, cq.ceq_valid && cq.ceq_id >= d->cfg.max_ceqs ? IRDMA_MODEL_MIN_BAD_ID : 0))
		return;
	cq.valid = true;
	d->cq[id] = cq;
}

/*
 * MODIFY_CQ with CQRESIZE: the CQ switches to the new ring (head 0, polarity 1); CQEs
 * written before stay in the old ring for SW to drain. The CEQ binding and the arm state
 * are kept; the CQ context must stay the same. Without CQRESIZE: BAD_FIELD.
 */
void
model_op_modify_cq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_CQ_ID);
	struct model_cq cq;

	if (model_refuse(r, d->fpm_committed ? 0 : IRDMA_MODEL_MIN_NO_FPM) ||
	    model_refuse(r, id < d->cq_tab && id != IRDMA_CCQ_ID ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, d->cq[id].valid ? 0 : IRDMA_MODEL_MIN_NO_OBJ) ||
	    model_refuse(r, irdma_get(w, CQP_CQ_RESIZE) ? 0 : IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	cq = d->cq[id];
	if (cq_ring_decode(d, w, &cq, r) ||
	    model_refuse(r, cq.ctx == d->cq[id].ctx ? 0 : IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	d->cq[id] = cq;
	MODEL_INC(d, cq_resizes);
}

void
model_op_destroy_cq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_CQ_ID);

	if (model_refuse(r, d->fpm_committed ? 0 : IRDMA_MODEL_MIN_NO_FPM) ||
	    model_refuse(r, id < d->cq_tab ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, d->cq[id].valid ? 0 : IRDMA_MODEL_MIN_NO_OBJ))
		return;
	memset(&d->cq[id], 0, sizeof(d->cq[id]));
}

/* Common part of CEQ / AEQ creation: size range, ring placement and reachability. */
static uint16_t
eq_setup(struct model_dev *d, struct model_eq *eq, uint32_t size, uint32_t min, uint32_t max,
	 uint32_t esize, bool vmap, uint32_t lpbl, rte_iova_t pa, uint32_t first,
	 uint32_t align_mask)
{
	uint16_t minor;

	memset(eq, 0, sizeof(*eq));
	if (size < min || size > max)
		return IRDMA_MODEL_MIN_BAD_SIZE;
	eq->ring.size = size;
	eq->ring.esize = esize;
	minor = model_ring_from_wqe(d, &eq->ring, vmap, lpbl, pa, first);
	if (minor == 0)
		minor = model_ring_check(d, &eq->ring, align_mask);
	if (minor != 0)
		return minor;
	eq->valid = true;
	eq->polarity = IRDMA_EQ_POLARITY_INIT;
	eq->credits = size;
	return 0;
}

void
model_op_create_ceq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_CEQ_ID);
	struct model_eq eq;

	if (model_refuse(r, id < d->cfg.max_ceqs ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, d->ceq[id].valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0) ||
	    model_refuse(r, eq_setup(d, &eq, irdma_get(w, CQP_CEQ_SIZE), IRDMA_MIN_CEQ_ENTRIES,
			       IRDMA_MAX_CEQ_ENTRIES, IRDMA_CEQE_SIZE, irdma_get(w, CQP_CEQ_VMAP),
			       irdma_get(w, CQP_LPBLSIZE), irdma_get(w, CQP_CEQ_PA),
			       irdma_get(w, CQP_CEQ_FIRST_PBLIDX), IRDMA_CEQ_ALIGN_MASK)))
		return;
	d->ceq[id] = eq;
}

void
model_op_destroy_ceq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_CEQ_ID);

	if (model_refuse(r, id < d->cfg.max_ceqs ? 0 : IRDMA_MODEL_MIN_BAD_ID) ||
	    model_refuse(r, d->ceq[id].valid ? 0 : IRDMA_MODEL_MIN_NO_OBJ))
		return;
	memset(&d->ceq[id], 0, sizeof(d->ceq[id]));
}

void
model_op_create_aeq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t max = d->cfg.gen == IRDMA_GEN_3 ? IRDMA_GEN3_MAX_AEQ_ENTRIES :
						   IRDMA_MAX_AEQ_ENTRIES;
	struct model_eq eq;

	if (model_refuse(r, d->aeq.valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0) ||
	    model_refuse(r, eq_setup(d, &eq, irdma_get(w, CQP_AEQ_SIZE), IRDMA_MIN_AEQ_ENTRIES, max,
			       IRDMA_AEQE_SIZE, irdma_get(w, CQP_AEQ_VMAP),
			       irdma_get(w, CQP_LPBLSIZE), irdma_get(w, CQP_AEQ_PA),
			       irdma_get(w, CQP_AEQ_FIRST_PBLIDX), IRDMA_AEQ_ALIGN_MASK)))
		return;
	d->aeq = eq;
}

void
model_op_destroy_aeq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	RTE_SET_USED(w);
	if (model_refuse(r, d->aeq.valid ? 0 : IRDMA_MODEL_MIN_NO_OBJ))
		return;
	memset(&d->aeq, 0, sizeof(d->aeq));
}

/* Advance a queue's head, flipping its polarity on wrap. */
static void
q_advance(uint32_t *head, uint8_t *polarity, uint32_t size)
{
	if (++*head == size) {
		*head = 0;
		*polarity ^= 1;
	}
}

void
model_aeq_post(struct model_dev *d, uint32_t ae, uint32_t src, uint32_t id, uint64_t compctx)
{
	struct model_eq *eq = &d->aeq;
	struct irdma_aeqe e = { .qw = { 0 } };
	rte_iova_t iova;

	if (!eq->valid || eq->credits == 0 || model_ring_entry(d, &eq->ring, eq->head, &iova)) {
		MODEL_INC(d, eq_dropped);
		MODEL_LOG(DEBUG, d, "AE 0x%x for id %u dropped", ae, id);
		return;
	}
	irdma_set(&e, AEQE_COMPCTX, compctx);
	irdma_set(&e, AEQE_QPCQID_LOW, id);
	irdma_set(&e, AEQE_QPCQID_HI, id >> IRDMA_AEQE_QPCQID_HI_SHIFT);
	irdma_set(&e, AEQE_AECODE, ae);
	irdma_set(&e, AEQE_AESRC, src);
	irdma_set(&e, AEQE_VALID, eq->polarity);
	if (model_dma_write(d, iova, &e.qw[IRDMA_FIELD_QW(AEQE_COMPCTX)], sizeof(e.qw[0])) ||
	    model_dma_store64(d, iova + IRDMA_FIELD_BYTE(AEQE_VALID),
			      irdma_qw_get(&e.qw[IRDMA_FIELD_QW(AEQE_VALID)]))) {
		MODEL_INC(d, eq_dropped);
		return;
	}
	eq->credits--;
	q_advance(&eq->head, &eq->polarity, eq->ring.size);
	MODEL_INC(d, aeqes);
	model_irq_raise(d, d->aeqctl);
}

void
model_aeq_alloc(struct model_dev *d, uint32_t count)
{
	if (!d->aeq.valid)
		return;
	d->aeq.credits = (uint32_t)RTE_MIN((uint64_t)d->aeq.credits + count,
					   (uint64_t)d->aeq.ring.size);
}

static void
ceq_post(struct model_dev *d, uint32_t ceq_id, uint64_t cq_ctx)
{
	struct model_eq *eq = &d->ceq[ceq_id];
	rte_iova_t iova;

	if (!eq->valid || model_ring_entry(d, &eq->ring, eq->head, &iova) != 0 ||
	    model_dma_store64(d, iova, IRDMA_PREP(CEQE_CQCTX, cq_ctx) |
				       IRDMA_PREP(CEQE_VALID, eq->polarity)) != 0) {
		MODEL_INC(d, eq_dropped);
		return;
	}
	q_advance(&eq->head, &eq->polarity, eq->ring.size);
	MODEL_INC(d, ceqes);
	if (ceq_id < IRDMA_GLINT_VECTORS)
		model_irq_raise(d, d->ceqctl[ceq_id]);
}

/* True when the CQ has fewer than @p need free slots (SW head from the shadow area). */
static int
cq_full(struct model_dev *d, const struct model_cq *cq, uint32_t need, bool *full)
{
	uint64_t v;
	uint32_t sw_head, used;

	*full = false;
	if (!cq->chk_overflow)
		return 0;
	if (model_dma_load64(d, cq->shadow_pa + IRDMA_FIELD_BYTE(CQ_SHADOW_CQEIDX), &v) != 0)
		return -EFAULT;
	/* No division unless SW wrote an index beyond the ring (it is taken modulo the size). */
	sw_head = (uint32_t)IRDMA_GET(CQ_SHADOW_CQEIDX, v);
	if (unlikely(sw_head >= cq->ring.size))
		sw_head %= cq->ring.size;
	used = cq->head + cq->ring.size - sw_head;	/* head, sw_head < size */
	if (used >= cq->ring.size)
		used -= cq->ring.size;
	/* One slot always stays free: head + need must not reach SW's head. */
	*full = used + need >= cq->ring.size;
	return 0;
}

/* The CQE went out: advance, and raise the CEQE an armed CQ owes. */
static void
cq_posted(struct model_dev *d, struct model_cq *cq, const struct irdma_cqe *cqe)
{
	bool se = irdma_get(cqe, CQE_SOEVENT) || irdma_get(cqe, CQE_ERROR);

	q_advance(&cq->head, &cq->polarity, cq->ring.size);
	if (cq->armed && cq->ceqe_en && cq->ceq_valid && (!cq->arm_se_only || se)) {
		cq->armed = false;
		ceq_post(d, cq->ceq_id, cq->ctx);
	}
}

/* Common checks of a CQE post; 0, or the negative errno the caller returns. */
static int
cq_room(struct model_dev *d, uint32_t cq_id, uint32_t need, struct model_cq **out)
{
	struct model_cq *cq;
	bool full;

	if (cq_id >= d->cq_tab || !d->cq[cq_id].valid)
		return -ENOENT;
	cq = &d->cq[cq_id];
	*out = cq;
	if (cq_full(d, cq, need, &full) != 0)
		return -EFAULT;
	if (full) {
		MODEL_INC(d, cqe_write_errors);
		MODEL_INC(d, cq_overflows);
		model_aeq_post(d, IRDMA_AE_CQ_OPERATION_ERROR, IRDMA_AE_SOURCE_CQ, cq_id, cq->ctx);
		return -ENOSPC;
	}
	return 0;
}

static int
cq_catastrophic(struct model_dev *d, uint32_t cq_id, const struct model_cq *cq)
{
	MODEL_INC(d, cqe_write_errors);
	model_aeq_post(d, IRDMA_AE_LCE_CQ_CATASTROPHIC, IRDMA_AE_SOURCE_CQ, cq_id, cq->ctx);
	return -EFAULT;
}

int
model_cq_post(struct model_dev *d, uint32_t cq_id, struct irdma_cqe *cqe)
{
	struct model_cq *cq = NULL;
	rte_iova_t iova;
	int ret;

	ret = cq_room(d, cq_id, 1, &cq);
	if (ret == -EFAULT)
		return cq_catastrophic(d, cq_id, cq);
	if (ret != 0)
		return ret;
	if (model_ring_entry(d, &cq->ring, cq->head, &iova) != 0)
		return cq_catastrophic(d, cq_id, cq);
	irdma_set(cqe, CQE_VALID, cq->polarity);
	/* Body first, then the qword with the valid bit (one atomic store). */
	if (model_dma_write(d, iova, cqe, IRDMA_FIELD_BYTE(CQE_VALID)) != 0 ||
	    model_dma_store64(d, iova + IRDMA_FIELD_BYTE(CQE_VALID),
			      irdma_qw_get(&cqe->qw[IRDMA_FIELD_QW(CQE_VALID)])) != 0)
		return cq_catastrophic(d, cq_id, cq);
	cq_posted(d, cq, cqe);
	return 0;
}

int
model_cq_post_ext(struct model_dev *d, uint32_t cq_id, struct irdma_cqe *cqe,
		  struct irdma_cqe_ext *ext)
{
	bool one = false;
	struct model_cq *cq = NULL;
	rte_iova_t iova, iova2;
	uint32_t slot2;
	uint8_t pol2;
	int ret;

	if (cq_id < d->cq_tab && d->cq[cq_id].valid)
		one = d->cq[cq_id].ring.esize >= IRDMA_EXT_CQE_SIZE;
	ret = cq_room(d, cq_id, one ? 1 : 2, &cq);
	if (ret == -EFAULT)
		return cq_catastrophic(d, cq_id, cq);
	if (ret != 0)
		return ret;
	irdma_set(cqe, CQE_EXTCQE, 1);
	irdma_set(cqe, CQE_VALID, cq->polarity);
	if (model_ring_entry(d, &cq->ring, cq->head, &iova) != 0)
		return cq_catastrophic(d, cq_id, cq);
	if (one) {
		/* 64-byte entries: the extension is bytes 32..63 of the same entry. */
		iova2 = iova + IRDMA_CQE_SIZE;
		pol2 = cq->polarity;
	} else {
		slot2 = (cq->head + 1) % cq->ring.size;
		pol2 = slot2 == 0 ? cq->polarity ^ 1 : cq->polarity;
		if (model_ring_entry(d, &cq->ring, slot2, &iova2) != 0)
			return cq_catastrophic(d, cq_id, cq);
	}
	irdma_set(ext, CQE_EXT_VALID, pol2);
	/* First slot's body, the whole second slot, then the first slot's valid qword. */
	if (model_dma_write(d, iova, cqe, IRDMA_FIELD_BYTE(CQE_VALID)) != 0 ||
	    model_dma_write(d, iova2, ext, IRDMA_FIELD_BYTE(CQE_EXT_VALID)) != 0 ||
	    model_dma_store64(d, iova2 + IRDMA_FIELD_BYTE(CQE_EXT_VALID),
			      irdma_qw_get(&ext->qw[IRDMA_FIELD_QW(CQE_EXT_VALID)])) != 0 ||
	    model_dma_store64(d, iova + IRDMA_FIELD_BYTE(CQE_VALID),
			      irdma_qw_get(&cqe->qw[IRDMA_FIELD_QW(CQE_VALID)])) != 0)
		return cq_catastrophic(d, cq_id, cq);
	if (!one)
		q_advance(&cq->head, &cq->polarity, cq->ring.size);
	cq_posted(d, cq, cqe);
	return 0;
}

/*
 * CQ arm doorbell: SW wrote the arm word in shadow qword 4 first (doc/hardware.md §3): ARM_NEXT
 * arms for the next completion of any kind, ARM_NEXT_SE alone for the next solicited one
 * (the model also counts error completions as solicited, as the IBA asks). An arm word with
 * neither bit set arms for any completion (bring-up code arms the CCQ that way).
 */
void
model_cq_arm(struct model_dev *d, uint32_t cq_id)
{
	struct model_cq *cq;
	uint64_t v;

	MODEL_INC(d, cq_arms);
	if (cq_id >= d->cq_tab || !d->cq[cq_id].valid)
		return;
	cq = &d->cq[cq_id];
	if (model_dma_load64(d, cq->shadow_pa + IRDMA_FIELD_BYTE(CQ_ARM_NEXT), &v) != 0) {
		MODEL_LOG(DEBUG, d, "CQ %u armed with an unreadable shadow area", cq_id);
		v = IRDMA_PREP(CQ_ARM_NEXT, 1);
	}
	if (IRDMA_GET(CQ_ARM_NEXT, v) || !IRDMA_GET(CQ_ARM_NEXT_SE, v)) {
		cq->armed = true;
		cq->arm_se_only = false;
	} else {
		/* A solicited arm never narrows an arm for any completion. */
		if (!cq->armed)
			cq->arm_se_only = true;
		cq->armed = true;
	}
}
