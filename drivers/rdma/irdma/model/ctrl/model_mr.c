/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Memory regions: ALLOC_STAG, REG_MR and DEALLOC_STAG (doc/hardware.md §5.3, §6, §8), and the
 * translation the engine will use on the data path. Called with dev->lock held.
 *
 * The STag table is the committed HMC MR object: entry i (64 bytes) is the context of STag
 * index i, kept in the host memory that backs the HMC, like silicon does. The layout of the
 * entry is the model's own (struct model_stag); a zeroed entry is a free STag. Index 0 is
 * reserved (the driver never hands it out; IRDMA_FIRST_USER_MR_IDX) and refused.
 *
 * Checks (all refusals are IRDMA_CQP_MAJ_ERROR with an enum irdma_model_minor code, except an
 * unbacked MR entry, which is IRDMA_CQP_MAJ_CNTXTCACHE_ERROR):
 *  - index 1 .. committed MR count - 1 (BAD_ID); REG_MR / ALLOC_STAG on a used index
 *    (OBJ_EXISTS); DEALLOC_STAG of a free index (NO_OBJ), with another PD (BAD_FIELD);
 *  - PD id below IRDMA_MAX_PDS; MR bit set, except for a gen3 type-2 window (MW alloc: MR 0,
 *    MWTYPE 0; type-1 windows and gen2 windows are NOT_MODELED);
 *  - length 1 .. IRDMA_MAX_MR_SIZE; rights inside IRDMA_ACCESS_ALL, remote write only with
 *    local write, REMACCENABLED equal to "remote read or write granted" (BAD_FIELD);
 *  - HPAGESIZE 4K, 2M or 1G; LPBLSIZE 0, 1 or 3 (ALLOC_STAG: 1 or 3);
 *  - level 0: PA aligned to the page size; levels 1, 2: the run (and for level 2 every leaf
 *    it names) inside the PBLE object (BAD_PBLE) and its first PBLE backed by the HMC;
 *  - ALLOC_STAG carries no key (BAD_FIELD when the key bits are set);
 *  - DEALLOC_STAG names the kind the index holds (MR bit 1: a region, 0: a window); a region
 *    a window is bound to is refused with IRDMA_CQP_MIN_BUSY, as silicon refuses it (the
 *    kernel turns that code into -EBUSY for ibv_dereg_mr); a bound window may go.
 *
 * Windows (gen3, type 2): ALLOC_STAG with MR 0 makes the entry a window of a PD, allocated
 * but not valid. A BIND_MW WQE (model_mw_bind) makes it valid with its own key, rights and
 * [va, va + len) inside a parent region that allows binding; a remote access through the
 * window's key is checked against the window (state, key, PD, rights, bounds) and then
 * translated through the parent region, which must still be valid. LOCAL_INV or a SEND with
 * invalidate returns the window to allocated. The parent counts its bound windows.
 */

#include <string.h>

#include "model_priv.h"

_Static_assert(sizeof(struct model_stag) <= (UINT64_C(1) << 6),
	       "the STag context must fit an HMC MR entry (64 bytes)");

static int
stag_load(struct model_dev *d, rte_iova_t iova, struct model_stag *s)
{
	return model_dma_read(d, iova, s, sizeof(*s));
}

static int
stag_store(struct model_dev *d, rte_iova_t iova, const struct model_stag *s)
{
	model_ctx_changed(d);
	return model_dma_write(d, iova, s, sizeof(*s));
}

/*
 * The context of STag index @p idx, read past the data path's cache, when it is not free:
 * 0, IRDMA_AE_AMP_BAD_STAG_INDEX (out of range) or IRDMA_AE_AMP_UNALLOCATED_STAG (unbacked or
 * free). *e receives the entry's IOVA.
 */
static uint32_t
stag_allocated(struct model_dev *d, uint32_t idx, struct model_stag *s, rte_iova_t *e)
{
	if (!d->fpm_committed || idx < IRDMA_FIRST_USER_MR_IDX ||
	    idx >= d->obj[IRDMA_HMC_OBJ_MR].cnt)
		return IRDMA_AE_AMP_BAD_STAG_INDEX;
	if (model_hmc_iova(d, IRDMA_HMC_OBJ_MR, idx, e) != 0 || stag_load(d, *e, s) != 0 ||
	    s->state == IRDMA_MODEL_STAG_FREE)
		return IRDMA_AE_AMP_UNALLOCATED_STAG;
	return 0;
}

/* What a fast-register and a bind both set: @p s valid under the key of @p stag. */
static void
stag_make_valid(struct model_stag *s, uint32_t stag, uint8_t access, uint64_t va, uint64_t len,
		bool va_based)
{
	s->state = IRDMA_MODEL_STAG_VALID;
	s->key = (uint8_t)(stag & ((1u << IRDMA_STAG_KEY_BITS) - 1));
	s->access = access;
	s->va = va;
	s->len = len;
	s->va_based = va_based;
}

/* Page shift of an HPAGESIZE code, or 0 when the code is not accepted. */
static uint8_t
hpage_shift(uint32_t code)
{
	switch (code) {
	case IRDMA_HPAGE_4K:
		return 12;
	case IRDMA_HPAGE_2M:
		return 21;
	case IRDMA_HPAGE_1G:
		return 30;
	default:
		return 0;
	}
}

/* Level of an LPBLSIZE code, or -1. */
static int
lpbl_level(uint32_t code)
{
	switch (code) {
	case IRDMA_PBL_CHUNK_PHYS:
		return IRDMA_PBLE_LEVEL_0;
	case IRDMA_PBL_CHUNK_L1:
		return IRDMA_PBLE_LEVEL_1;
	case IRDMA_PBL_CHUNK_L2:
		return IRDMA_PBLE_LEVEL_2;
	default:
		return -1;
	}
}

/* Common fields of ALLOC_STAG and REG_MR; 0 or a minor code. */
static uint16_t
stag_common(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_stag *s)
{
	uint32_t rights = irdma_get(w, CQP_STAG_ARIGHTS);
	bool remote = (rights & (IRDMA_ACCESS_REMOTE_READ | IRDMA_ACCESS_REMOTE_WRITE)) != 0;
	int level;

	if (!irdma_get(w, CQP_STAG_MR))
		return IRDMA_MODEL_MIN_NOT_MODELED;
	if (irdma_get(w, CQP_STAG_USEHMCFNIDX) &&
	    irdma_get(w, CQP_STAG_HMCFNIDX) != d->cfg.hmc_fn_id)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	s->pd = irdma_get(w, CQP_STAG_PDID);
	s->len = irdma_get(w, CQP_STAG_LEN);
	if (s->pd >= IRDMA_MAX_PDS || s->len == 0 || s->len > IRDMA_MAX_MR_SIZE)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if ((rights & ~(uint32_t)IRDMA_ACCESS_ALL) != 0 ||
	    ((rights & IRDMA_ACCESS_REMOTE_WRITE) && !(rights & IRDMA_ACCESS_LOCAL_WRITE)) ||
	    (uint32_t)irdma_get(w, CQP_STAG_REMACCENABLED) != (uint32_t)remote)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	s->access = (uint8_t)rights;
	/* Gen3 reuses bit 61 (USEPFRID) for the remote-atomic right; it needs local write. */
	if (d->cfg.gen >= IRDMA_GEN_3 && irdma_get(w, CQP_STAG_REMOTE_ATOMIC_EN)) {
		if (!(rights & IRDMA_ACCESS_LOCAL_WRITE))
			return IRDMA_MODEL_MIN_BAD_FIELD;
		s->access |= MODEL_ACCESS_REMOTE_ATOMIC;
	}
	s->page_shift = hpage_shift(irdma_get(w, CQP_STAG_HPAGESIZE));
	level = lpbl_level(irdma_get(w, CQP_LPBLSIZE));
	if (s->page_shift == 0 || level < 0)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	s->level = (uint8_t)level;
	return 0;
}

/* A PBL of @p npages pages at @p first inside the PBLE object, every leaf included. */
static uint16_t
pbl_check(struct model_dev *d, unsigned int level, uint32_t first, uint64_t npages)
{
	uint64_t cnt = d->obj[IRDMA_HMC_OBJ_PBLE].cnt;
	uint64_t nleaves, i, leaf, n;
	rte_iova_t iova;
	uint16_t minor;

	if (npages == 0)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (level == IRDMA_PBLE_LEVEL_1)
		return first + npages <= cnt ? model_pble_iova(d, level, first, 0, &iova) :
					       IRDMA_MODEL_MIN_BAD_PBLE;
	nleaves = (npages + IRDMA_PBLE_PER_PAGE - 1) / IRDMA_PBLE_PER_PAGE;
	if (first + nleaves > cnt)
		return IRDMA_MODEL_MIN_BAD_PBLE;
	for (i = 0; i < nleaves; i++) {
		minor = model_hmc_iova(d, IRDMA_HMC_OBJ_PBLE, (uint32_t)(first + i), &iova);
		if (minor != 0)
			return minor;
		if (model_dma_load64(d, iova, &leaf) != 0)
			return IRDMA_MODEL_MIN_DMA_FAULT;
		n = RTE_MIN((uint64_t)IRDMA_PBLE_PER_PAGE, npages - i * IRDMA_PBLE_PER_PAGE);
		if (leaf + n > cnt)
			return IRDMA_MODEL_MIN_BAD_PBLE;
	}
	return 0;
}

/* Pages of 1 << shift that [va, va + len) touches, va taken modulo the page size. */
static uint64_t
mr_pages(uint64_t va, uint64_t len, uint8_t shift)
{
	uint64_t fbo = va & ((UINT64_C(1) << shift) - 1);

	return (fbo + len + (UINT64_C(1) << shift) - 1) >> shift;
}

/* ALLOC_STAG with MR 0: a type-2 window of a PD, allocated, not valid until bound (gen3). */
static void
mw_alloc(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r,
	 rte_iova_t e, uint32_t idx)
{
	struct model_stag s;

	memset(&s, 0, sizeof(s));
	s.pd = irdma_get(w, CQP_STAG_PDID);
	if (model_refuse(r, d->cfg.gen >= IRDMA_GEN_3 && !irdma_get(w, CQP_STAG_MWTYPE) ? 0 :
			 IRDMA_MODEL_MIN_NOT_MODELED) ||
	    model_refuse(r, s.pd < IRDMA_MAX_PDS && irdma_get(w, CQP_STAG_KEY) == 0 ? 0 :
			 IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	s.state = IRDMA_MODEL_STAG_ALLOCATED;
	s.mw = 1;
	if (model_refuse(r, stag_store(d, e, &s) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT))
		return;
	MODEL_LOG(DEBUG, d, "STag %u allocated as a type-2 window of PD %u", idx, s.pd);
}

void
model_op_alloc_stag(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_STAG_IDX);
	struct model_stag s, old;
	rte_iova_t e;

	memset(&s, 0, sizeof(s));
	if (model_hmc_entry(d, IRDMA_HMC_OBJ_MR, IRDMA_FIRST_USER_MR_IDX, idx, &e, r))
		return;
	if (!irdma_get(w, CQP_STAG_MR)) {
		if (!model_refuse(r, stag_load(d, e, &old) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT) &&
		    !model_refuse(r, old.state == IRDMA_MODEL_STAG_FREE ? 0 :
				  IRDMA_MODEL_MIN_OBJ_EXISTS))
			mw_alloc(d, w, r, e, idx);
		return;
	}
	if (model_refuse(r, stag_load(d, e, &old) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT) ||
	    model_refuse(r, old.state == IRDMA_MODEL_STAG_FREE ? 0 : IRDMA_MODEL_MIN_OBJ_EXISTS) ||
	    model_refuse(r, irdma_get(w, CQP_STAG_KEY) == 0 ? 0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, stag_common(d, w, &s)) ||
	    model_refuse(r, s.level != IRDMA_PBLE_LEVEL_0 ? 0 : IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	s.addr = irdma_get(w, CQP_STAG_FIRST_PBLIDX);
	/* The run holds one PBLE per page of the region's capacity. */
	s.max_pages = (uint32_t)RTE_MIN(s.len >> s.page_shift, (uint64_t)UINT32_MAX);
	if (model_refuse(r, s.max_pages != 0 && (s.len & ((UINT64_C(1) << s.page_shift) - 1)) == 0 ?
		       0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, s.level == IRDMA_PBLE_LEVEL_1 ?
		       pbl_check(d, s.level, (uint32_t)s.addr, s.max_pages) :
		       (s.addr + (s.max_pages + IRDMA_PBLE_PER_PAGE - 1) / IRDMA_PBLE_PER_PAGE <=
			d->obj[IRDMA_HMC_OBJ_PBLE].cnt ? 0 : IRDMA_MODEL_MIN_BAD_PBLE)))
		return;
	s.state = IRDMA_MODEL_STAG_ALLOCATED;
	s.va_based = 1;
	if (model_refuse(r, stag_store(d, e, &s) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT))
		return;
	MODEL_LOG(DEBUG, d, "STag %u allocated for fast registration: PD %u, %u pages", idx,
		  s.pd, s.max_pages);
}

void
model_op_reg_mr(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_STAG_IDX);
	struct model_stag s, old;
	uint64_t pgsz;
	rte_iova_t e;

	memset(&s, 0, sizeof(s));
	if (model_hmc_entry(d, IRDMA_HMC_OBJ_MR, IRDMA_FIRST_USER_MR_IDX, idx, &e, r))
		return;
	if (model_refuse(r, stag_load(d, e, &old) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT) ||
	    model_refuse(r, old.state == IRDMA_MODEL_STAG_FREE ? 0 : IRDMA_MODEL_MIN_OBJ_EXISTS) ||
	    model_refuse(r, stag_common(d, w, &s)))
		return;
	pgsz = UINT64_C(1) << s.page_shift;
	s.key = (uint8_t)irdma_get(w, CQP_STAG_KEY);
	s.va = irdma_get(w, CQP_STAG_VA_FBO);
	s.va_based = (uint8_t)irdma_get(w, CQP_STAG_VABASEDTO);
	if (model_refuse(r, s.va_based || s.va < pgsz ? 0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, s.va + s.len >= s.va ? 0 : IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	if (s.level == IRDMA_PBLE_LEVEL_0) {
		s.addr = irdma_get(w, CQP_STAG_PA);
		if (model_refuse(r, irdma_get(w, CQP_STAG_FIRST_PBLIDX) == 0 ? 0 :
			       IRDMA_MODEL_MIN_BAD_FIELD) ||
		    model_refuse(r, (s.addr & (pgsz - 1)) == 0 ? 0 : IRDMA_MODEL_MIN_BAD_ALIGN))
			return;
	} else {
		s.addr = irdma_get(w, CQP_STAG_FIRST_PBLIDX);
		if (model_refuse(r, irdma_get(w, CQP_STAG_PA) == 0 ? 0 : IRDMA_MODEL_MIN_BAD_FIELD) ||
		    model_refuse(r, pbl_check(d, s.level, (uint32_t)s.addr,
					 mr_pages(s.va, s.len, s.page_shift))))
			return;
	}
	s.state = IRDMA_MODEL_STAG_VALID;
	if (model_refuse(r, stag_store(d, e, &s) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT))
		return;
	MODEL_LOG(DEBUG, d, "STag %u registered: PD %u, %" PRIu64 " bytes, level %u, page 2^%u",
		  idx, s.pd, s.len, s.level, s.page_shift);
}

/* A bound window @p w stops counting in its parent region (an unbind, or its dealloc). */
static void
mw_unlink(struct model_dev *d, const struct model_stag *w)
{
	uint32_t idx = w->parent >> IRDMA_STAG_KEY_BITS;
	struct model_stag mr;
	rte_iova_t e;

	if (!w->mw || w->state != IRDMA_MODEL_STAG_VALID || idx < IRDMA_FIRST_USER_MR_IDX ||
	    idx >= d->obj[IRDMA_HMC_OBJ_MR].cnt ||
	    model_hmc_iova(d, IRDMA_HMC_OBJ_MR, idx, &e) != 0 || stag_load(d, e, &mr) != 0 ||
	    mr.windows == 0)
		return;
	mr.windows--;
	(void)stag_store(d, e, &mr);
}

void
model_op_dealloc_stag(struct model_dev *d, const struct irdma_cqp_wqe *w,
		      struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_STAG_IDX);
	struct model_stag s;
	rte_iova_t e;

	if (model_hmc_entry(d, IRDMA_HMC_OBJ_MR, IRDMA_FIRST_USER_MR_IDX, idx, &e, r))
		return;
	if (model_refuse(r, stag_load(d, e, &s) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT) ||
	    model_refuse(r, s.state != IRDMA_MODEL_STAG_FREE ? 0 : IRDMA_MODEL_MIN_NO_OBJ) ||
	    model_refuse(r, irdma_get(w, CQP_STAG_MR) == (uint64_t)!s.mw ? 0 :
			 IRDMA_MODEL_MIN_BAD_FIELD) ||
	    model_refuse(r, s.pd == irdma_get(w, CQP_STAG_PDID) ? 0 : IRDMA_MODEL_MIN_BAD_FIELD))
		return;
	if (!s.mw && s.windows != 0) {
		MODEL_LOG(DEBUG, d, "STag %u: DEALLOC_STAG refused, %u window(s) bound", idx,
			  s.windows);
		(void)model_refuse(r, IRDMA_CQP_MIN_BUSY);
		return;
	}
	mw_unlink(d, &s);
	memset(&s, 0, sizeof(s));
	if (model_refuse(r, stag_store(d, e, &s) == 0 ? 0 : IRDMA_MODEL_MIN_DMA_FAULT))
		return;
	MODEL_LOG(DEBUG, d, "STag %u deallocated", idx);
}

/* ---- diagnostics ---- */

/* Read the context of @p idx; -ENOENT when free or out of range. */
static int
stag_get(struct model_dev *d, uint32_t idx, struct model_stag *s)
{
	rte_iova_t e;

	return stag_allocated(d, idx, s, &e) == 0 ? 0 : -ENOENT;
}

int
irdma_model_mr_get(struct irdma_hw *hw, uint32_t stag_idx, struct irdma_model_mr_info *info)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_stag s;
	int ret;

	if (d == NULL || info == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = stag_get(d, stag_idx, &s);
	model_unlock(&d->lock);
	if (ret != 0)
		return ret;
	*info = (struct irdma_model_mr_info){
		.state = s.state,
		.pd = s.pd,
		.key = s.key,
		.access = s.access,
		.level = s.level,
		.va_based = s.va_based,
		.va = s.va,
		.len = s.len,
		.pa = s.level == IRDMA_PBLE_LEVEL_0 ? s.addr : 0,
		.first_pble = s.level == IRDMA_PBLE_LEVEL_0 ? 0 : (uint32_t)s.addr,
		.page_size = UINT64_C(1) << s.page_shift,
		.max_pages = s.max_pages,
		.mw = s.mw,
	};
	return 0;
}

int
irdma_model_mr_translate(struct irdma_hw *hw, uint32_t stag, uint64_t va, rte_iova_t *iova)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_stag s;
	uint64_t pgsz, pos;
	int ret;

	if (d == NULL || iova == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = stag_get(d, stag >> IRDMA_STAG_KEY_BITS, &s);
	/* Regions only: a window translates through its parent (the data path's mw_access). */
	if (ret == 0 && (s.state != IRDMA_MODEL_STAG_VALID || s.mw ||
			 s.key != (stag & ((1u << IRDMA_STAG_KEY_BITS) - 1))))
		ret = -ENOENT;
	if (ret != 0)
		goto out;
	pgsz = UINT64_C(1) << s.page_shift;
	/* VA-based: the offset is va - VA; else va is the offset from the first byte. */
	if (s.va_based) {
		if (va < s.va || va - s.va >= s.len) {
			ret = -ERANGE;
			goto out;
		}
		pos = (s.va & (pgsz - 1)) + (va - s.va);
	} else {
		if (va >= s.len) {
			ret = -ERANGE;
			goto out;
		}
		pos = s.va + va;
	}
	if (s.level == IRDMA_PBLE_LEVEL_0) {
		*iova = s.addr + pos;
	} else {
		rte_iova_t page;

		ret = model_pble_iova(d, s.level, (uint32_t)s.addr, (uint32_t)(pos >> s.page_shift),
				      &page);
		if (ret == 0)
			*iova = page + (pos & (pgsz - 1));
	}
out:
	model_unlock(&d->lock);
	return ret;
}

/* ---- data path ---- */

/*
 * The host address of the first byte of region @p s when it is valid, level 0 and one DMA
 * map holds all of it (model_mr_cached.host), else NULL. Byte pos (stag_pos()) of such a
 * region lies at host + pos.
 */
static uint8_t *
stag_host(struct model_dev *d, const struct model_stag *s)
{
	uint64_t pgsz = UINT64_C(1) << s->page_shift;
	uint64_t first = s->va_based ? s->va & (pgsz - 1) : s->va;

	if (s->state != IRDMA_MODEL_STAG_VALID || s->mw || s->level != IRDMA_PBLE_LEVEL_0 ||
	    s->len > SIZE_MAX - first)
		return NULL;
	return model_dma_va(d, s->addr, (size_t)(first + s->len));
}

/*
 * Load the context of @p stag for a data-path access and check its state, key and PD.
 * 0 or an AE code; *e receives the entry's IOVA.
 */
static uint32_t
stag_use(struct model_dev *d, uint32_t stag, uint32_t pd, struct model_stag *s, rte_iova_t *e)
{
	uint32_t idx = stag >> IRDMA_STAG_KEY_BITS;
	struct model_mr_cached *c;

	if (stag == 0)
		return IRDMA_AE_STAG_ZERO_INVALID;
	if (!d->fpm_committed || idx < IRDMA_FIRST_USER_MR_IDX ||
	    idx >= d->obj[IRDMA_HMC_OBJ_MR].cnt)
		return IRDMA_AE_AMP_BAD_STAG_INDEX;
	c = &d->mr_cache[idx & (MODEL_MR_CACHE - 1)];
	if (c->gen == d->ctx_gen && c->idx == idx) {
		/* Nothing changed contexts or their memory since it was read. */
		*s = c->ctx;
		*e = c->e;
	} else {
		if (model_hmc_iova(d, IRDMA_HMC_OBJ_MR, idx, e) != 0 || stag_load(d, *e, s) != 0)
			return IRDMA_AE_AMP_UNALLOCATED_STAG;
		c->gen = d->ctx_gen;
		c->idx = idx;
		c->e = *e;
		c->ctx = *s;
		c->host = stag_host(d, s);
	}
	if (s->state == IRDMA_MODEL_STAG_FREE)
		return IRDMA_AE_AMP_UNALLOCATED_STAG;
	if (s->state != IRDMA_MODEL_STAG_VALID)
		return IRDMA_AE_AMP_INVALID_STAG;
	if (s->key != (stag & ((1u << IRDMA_STAG_KEY_BITS) - 1)))
		return IRDMA_AE_AMP_BAD_STAG_KEY;
	if (s->pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	return 0;
}

/* Offset of @p va from the region's first page start; an AE code when out of bounds. */
static uint32_t
stag_pos(const struct model_stag *s, uint64_t va, uint32_t len, uint64_t *pos)
{
	uint64_t pgsz = UINT64_C(1) << s->page_shift;
	uint64_t off;

	if (s->va_based) {
		if (va < s->va)
			return IRDMA_AE_AMP_BOUNDS_VIOLATION;
		off = va - s->va;
		*pos = (s->va & (pgsz - 1)) + off;
	} else {
		off = va;
		*pos = s->va + va;
	}
	if (off > s->len || len > s->len - off)
		return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	return 0;
}

/*
 * A window's access: inside [va, va + len) of the window (offsets from 0 when zero-based),
 * then through its parent region, which must still be the valid one it was bound to. On
 * success *s is the parent's context and *pos the offset in it.
 */
static uint32_t
mw_access(struct model_dev *d, uint64_t va, uint32_t len, struct model_stag *s, uint64_t *pos)
{
	uint64_t pva, off;
	rte_iova_t e;
	uint32_t ae;

	off = s->va_based ? va - s->va : va;
	if ((s->va_based && va < s->va) || off > s->len || len > s->len - off)
		return IRDMA_AE_AMP_BOUNDS_VIOLATION;
	pva = s->va + off;
	ae = stag_use(d, s->parent, s->pd, s, &e);
	if (ae != 0 || s->mw)
		return IRDMA_AE_AMP_INVALID_STAG;
	return stag_pos(s, pva, len, pos);
}

static uint32_t
mr_access(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len, uint8_t access,
	  uint32_t pd, struct model_stag *s, uint64_t *pos)
{
	rte_iova_t e;
	uint32_t ae;

	ae = stag_use(d, stag, pd, s, &e);
	if (ae != 0)
		return ae;
	if ((s->access & access) != access)
		return IRDMA_AE_AMP_RIGHTS_VIOLATION;
	if (s->mw)
		return mw_access(d, va, len, s, pos);
	return stag_pos(s, va, len, pos);
}

/*
 * model_mr_copy()'s access without translating: the cached context of a region with a host
 * address (stag_host()), current, and the key, PD, rights and bounds as stag_use() and
 * mr_access() check them. The host address of @p va, or NULL: the full path decides (and
 * names the AE of a refused access).
 */
static inline uint8_t *
mr_host(const struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len, uint8_t access,
	uint32_t pd)
{
	uint32_t idx = stag >> IRDMA_STAG_KEY_BITS;
	const struct model_mr_cached *c = &d->mr_cache[idx & (MODEL_MR_CACHE - 1)];
	const struct model_stag *s = &c->ctx;
	uint64_t pos;

	if (c->host == NULL || c->gen != d->ctx_gen || c->idx != idx ||
	    s->key != (stag & ((1u << IRDMA_STAG_KEY_BITS) - 1)) || s->pd != pd ||
	    (s->access & access) != access || stag_pos(s, va, len, &pos) != 0)
		return NULL;
	return c->host + pos;
}

uint32_t
model_mr_check(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len, uint8_t access,
	       uint32_t pd)
{
	struct model_stag s;
	uint64_t pos;

	if (likely(mr_host(d, stag, va, len, access, pd) != NULL))
		return 0;
	return mr_access(d, stag, va, len, access, pd, &s, &pos);
}

uint32_t
model_mr_copy(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len, uint8_t access,
	      uint32_t pd, bool to_mem, void *buf)
{
	uint8_t *p = buf, *host;
	struct model_stag s;
	uint64_t pos, pgsz;
	uint32_t ae;

	host = mr_host(d, stag, va, len, access, pd);
	if (likely(host != NULL)) {
		if (to_mem)
			memcpy(host, buf, len);
		else
			memcpy(buf, host, len);
		return 0;
	}
	ae = mr_access(d, stag, va, len, access, pd, &s, &pos);
	if (ae != 0)
		return ae;
	pgsz = UINT64_C(1) << s.page_shift;
	/* Level 0 is physically contiguous; otherwise one PBLE walk per page. */
	while (len > 0) {
		uint32_t n = (uint32_t)RTE_MIN((uint64_t)len, pgsz - (pos & (pgsz - 1)));
		rte_iova_t iova;
		int ret;

		if (s.level == IRDMA_PBLE_LEVEL_0) {
			iova = s.addr + pos;
			n = len;
		} else if (model_pble_iova(d, s.level, (uint32_t)s.addr,
					   (uint32_t)(pos >> s.page_shift), &iova) != 0) {
			return IRDMA_AE_AMP_BOUNDS_VIOLATION;
		} else {
			iova += pos & (pgsz - 1);
		}
		ret = to_mem ? model_dma_write(d, iova, p, n) : model_dma_read(d, iova, p, n);
		if (ret != 0)
			return IRDMA_AE_AMP_BOUNDS_VIOLATION;
		p += n;
		pos += n;
		len -= n;
	}
	return 0;
}

uint32_t
model_mr_invalidate(struct model_dev *d, uint32_t stag, uint32_t pd, bool remote)
{
	struct model_stag s;
	rte_iova_t e;
	uint32_t ae;

	ae = stag_use(d, stag, pd, &s, &e);
	if (ae != 0)
		return ae;
	if (remote && !(s.access & (IRDMA_ACCESS_REMOTE_READ | IRDMA_ACCESS_REMOTE_WRITE |
				    MODEL_ACCESS_REMOTE_ATOMIC)))
		return IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS;
	/* Invalid but allocated: a fast-register (or a bind, for a window) may bring it back. */
	mw_unlink(d, &s);
	s.state = IRDMA_MODEL_STAG_ALLOCATED;
	if (s.max_pages == 0 && !s.mw)
		s.max_pages = (uint32_t)RTE_MIN(mr_pages(s.va, s.len, s.page_shift),
						(uint64_t)UINT32_MAX);
	if (stag_store(d, e, &s) != 0)
		return IRDMA_AE_AMP_UNALLOCATED_STAG;
	MODEL_LOG(DEBUG, d, "STag 0x%x invalidated", stag);
	return 0;
}

uint32_t
model_mr_fastreg(struct model_dev *d, uint32_t stag, uint32_t pd, uint64_t va, uint64_t len,
		 uint64_t pbl, uint8_t level, uint8_t page_shift, uint8_t rights, bool va_based)
{
	uint32_t idx = stag >> IRDMA_STAG_KEY_BITS;
	uint64_t pgsz = UINT64_C(1) << page_shift;
	struct model_stag s;
	rte_iova_t e;
	uint32_t ae;

	ae = stag_allocated(d, idx, &s, &e);
	if (ae != 0)
		return ae;
	if (s.mw)
		return IRDMA_AE_AMP_FASTREG_MW_STAG;
	if (s.state == IRDMA_MODEL_STAG_VALID)
		return IRDMA_AE_AMP_FASTREG_VALID_STAG;
	if (s.pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	if ((rights & ~(uint32_t)(IRDMA_ACCESS_ALL | MODEL_ACCESS_REMOTE_ATOMIC)) != 0 ||
	    ((rights & (IRDMA_ACCESS_REMOTE_WRITE | MODEL_ACCESS_REMOTE_ATOMIC)) &&
	     !(rights & IRDMA_ACCESS_LOCAL_WRITE)))
		return IRDMA_AE_AMP_FASTREG_INVALID_RIGHTS;
	if (len == 0 || len > IRDMA_MAX_MR_SIZE || (!va_based && va >= pgsz) ||
	    mr_pages(va, len, page_shift) > s.max_pages || va + len < va)
		return IRDMA_AE_AMP_FASTREG_INVALID_LENGTH;
	if (level == IRDMA_PBLE_LEVEL_0 ? (pbl & (pgsz - 1)) != 0 :
	    pbl_check(d, level, (uint32_t)pbl, mr_pages(va, len, page_shift)) != 0)
		return IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH;
	stag_make_valid(&s, stag, (uint8_t)(rights | IRDMA_ACCESS_LOCAL_READ), va, len, va_based);
	s.addr = pbl;
	s.level = level;
	s.page_shift = page_shift;
	if (stag_store(d, e, &s) != 0)
		return IRDMA_AE_AMP_UNALLOCATED_STAG;
	MODEL_LOG(DEBUG, d, "STag 0x%x fast-registered: %" PRIu64 " bytes, level %u", stag, len,
		  level);
	return 0;
}

/* ---- gen3: windows and atomics ---- */

uint32_t
model_mw_bind(struct model_dev *d, uint32_t mw_stag, uint32_t mr_stag, uint32_t pd, uint64_t va,
	      uint64_t len, uint8_t rights, bool va_based)
{
	uint32_t idx = mw_stag >> IRDMA_STAG_KEY_BITS;
	struct model_stag w, mr;
	rte_iova_t e, me;
	uint64_t pos;
	uint32_t ae;

	ae = stag_allocated(d, idx, &w, &e);
	if (ae != 0)
		return ae;
	if (!w.mw)
		return IRDMA_AE_AMP_MWBIND_OF_MR_STAG;
	/* Type 2: bound once, invalidated before it binds again; the QP's PD is the window's. */
	if (w.state == IRDMA_MODEL_STAG_VALID)
		return IRDMA_AE_AMP_MWBIND_VALID_STAG;
	if (w.pd != pd)
		return IRDMA_AE_AMP_BAD_PD;
	if (stag_use(d, mr_stag, pd, &mr, &me) != 0)
		return IRDMA_AE_AMP_MWBIND_TO_INVALID_PARENT;
	if (mr.mw)
		return IRDMA_AE_AMP_MWBIND_TO_MW_STAG;
	if (!(mr.access & IRDMA_ACCESS_WINDOW_BIND))
		return IRDMA_AE_AMP_MWBIND_BIND_DISABLED;
	/* Only remote rights; writes and atomics through it need the region's local write. */
	if ((rights & ~(uint32_t)(IRDMA_ACCESS_REMOTE_READ | IRDMA_ACCESS_REMOTE_WRITE |
				  MODEL_ACCESS_REMOTE_ATOMIC)) != 0 ||
	    ((rights & (IRDMA_ACCESS_REMOTE_WRITE | MODEL_ACCESS_REMOTE_ATOMIC)) &&
	     !(mr.access & IRDMA_ACCESS_LOCAL_WRITE)))
		return IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS;
	if (len == 0 || len > UINT32_MAX || stag_pos(&mr, va, (uint32_t)len, &pos) != 0)
		return IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS;
	stag_make_valid(&w, mw_stag, rights, va, len, va_based);
	w.parent = mr_stag;
	if (stag_store(d, e, &w) != 0)
		return IRDMA_AE_AMP_UNALLOCATED_STAG;
	mr.windows++;
	(void)stag_store(d, me, &mr);
	MODEL_LOG(DEBUG, d, "window 0x%x bound to 0x%x: 0x%" PRIx64 "+%" PRIu64 ", rights 0x%x",
		  mw_stag, mr_stag, va, len, rights);
	return 0;
}

uint32_t
model_mr_atomic(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t pd, bool cmp_swap,
		uint64_t swap_add, uint64_t cmp, uint64_t *orig)
{
	uint64_t v;
	uint32_t ae;

	/* One engine thread holds dev->lock: the read-modify-write is atomic to other QPs. */
	ae = model_mr_copy(d, stag, va, sizeof(v), MODEL_ACCESS_REMOTE_ATOMIC, pd, false, &v);
	if (ae != 0)
		return ae;
	*orig = v;
	if (cmp_swap) {
		if (v != cmp)
			return 0;
		v = swap_add;
	} else {
		v += swap_add;
	}
	return model_mr_copy(d, stag, va, sizeof(v), MODEL_ACCESS_REMOTE_ATOMIC, pd, true, &v);
}
