/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * HMC address resolution and the PBLE walker (doc/hardware.md §6, §7). Called with dev->lock
 * held. Nothing is cached: like silicon after a PDINV, every resolution re-reads the PD
 * entry from host memory, so the driver may change PD pages at any time.
 *
 *  object (type, index) -> FPM address = base + index * size         (committed layout)
 *  FPM address -> SD = first_pe_sd + fpm / 2 MB                       (UPDATE_PE_SDS)
 *  direct SD   -> SD address + fpm % 2 MB
 *  paged SD    -> PD entry (fpm % 2 MB) / 4 KB of the SD's PD page, read through DMA;
 *                 PD_VALID set -> page address + fpm % 4 KB
 *
 * PBLEs are 8-byte objects of type PBLE; a level-1 run holds page addresses, a level-2
 * root run holds the PBLE indices of leaf runs of up to 512 entries.
 */

#include "model_priv.h"

/* IOVA of byte @p fpm of the function's FPM space; 0 or a minor code. */
static uint16_t
hmc_fpm_iova(struct model_dev *d, uint64_t fpm, rte_iova_t *iova)
{
	uint32_t sd_idx = irdma_hmc_sd_index(fpm);
	const struct model_sd *sd;
	struct irdma_pd_entry pd;
	uint64_t pd_iova;

	/* The function's FPM space starts at SD first_pe_sd (bases include it). */
	if (sd_idx < d->cfg.first_pe_sd || sd_idx - d->cfg.first_pe_sd >= d->sd_committed)
		return IRDMA_MODEL_MIN_HMC_UNBACKED;
	sd = &d->sd[sd_idx - d->cfg.first_pe_sd];
	switch (sd->type) {
	case IRDMA_SD_TYPE_DIRECT:
		*iova = sd->addr + fpm % IRDMA_HMC_SD_SIZE;
		return 0;
	case IRDMA_SD_TYPE_PAGED:
		pd_iova = sd->addr + (uint64_t)(irdma_hmc_pd_index(fpm) % IRDMA_HMC_PD_PER_SD) *
				     sizeof(pd);
		if (model_dma_read(d, pd_iova, &pd, sizeof(pd)) != 0)
			return IRDMA_MODEL_MIN_DMA_FAULT;
		if (!irdma_get(&pd, PD_VALID))
			return IRDMA_MODEL_MIN_HMC_UNBACKED;
		*iova = (irdma_get(&pd, PD_PFN) << IRDMA_HMC_PAGED_BP_SHIFT) +
			fpm % IRDMA_HMC_PD_SIZE;
		return 0;
	default:
		return IRDMA_MODEL_MIN_HMC_UNBACKED;
	}
}

uint16_t
model_hmc_iova(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t index,
	       rte_iova_t *iova)
{
	const struct model_hmc_obj *o;

	if (!d->fpm_committed)
		return IRDMA_MODEL_MIN_NO_FPM;
	if ((unsigned int)obj >= IRDMA_HMC_OBJ_MAX)
		return IRDMA_MODEL_MIN_BAD_ID;
	o = &d->obj[obj];
	if (index >= o->cnt)
		return IRDMA_MODEL_MIN_BAD_ID;
	return hmc_fpm_iova(d, o->base + (uint64_t)index * o->size, iova);
}

/* The 64-bit value of PBLE @p idx. */
static uint16_t
pble_read(struct model_dev *d, uint32_t idx, uint64_t *val)
{
	rte_iova_t iova;
	uint16_t minor;

	if (!d->fpm_committed)
		return IRDMA_MODEL_MIN_NO_FPM;
	if (idx >= d->obj[IRDMA_HMC_OBJ_PBLE].cnt)
		return IRDMA_MODEL_MIN_BAD_PBLE;
	minor = model_hmc_iova(d, IRDMA_HMC_OBJ_PBLE, idx, &iova);
	if (minor != 0)
		return minor;
	if (model_dma_load64(d, iova, val) != 0)
		return IRDMA_MODEL_MIN_DMA_FAULT;
	return 0;
}

uint16_t
model_pble_iova(struct model_dev *d, unsigned int level, uint32_t first, uint32_t page,
		rte_iova_t *iova)
{
	uint64_t leaf;
	uint16_t minor;

	if ((uint64_t)first + page > UINT32_MAX)
		return IRDMA_MODEL_MIN_BAD_PBLE;
	if (level == IRDMA_PBLE_LEVEL_1)
		return pble_read(d, first + page, iova);
	if (level != IRDMA_PBLE_LEVEL_2)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	minor = pble_read(d, first + page / IRDMA_PBLE_PER_PAGE, &leaf);
	if (minor != 0)
		return minor;
	if (leaf + page % IRDMA_PBLE_PER_PAGE > UINT32_MAX)
		return IRDMA_MODEL_MIN_BAD_PBLE;
	return pble_read(d, (uint32_t)leaf + page % IRDMA_PBLE_PER_PAGE, iova);
}

uint16_t
model_ring_from_wqe(struct model_dev *d, struct model_ring *ring, bool vmap, uint32_t lpbl,
		    rte_iova_t pa, uint32_t first)
{
	ring->pa = 0;
	ring->first_pble = 0;
	ring->level = IRDMA_PBLE_LEVEL_0;
	if (!vmap) {
		/* A physically addressed queue takes no PBL level and no PBLE index. */
		if (lpbl != MODEL_LPBLSIZE_L0 || first != 0)
			return IRDMA_MODEL_MIN_BAD_FIELD;
		ring->pa = pa;
		return 0;
	}
	if (pa != 0)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (lpbl == MODEL_LPBLSIZE_L1)
		ring->level = IRDMA_PBLE_LEVEL_1;
	else if (lpbl == MODEL_LPBLSIZE_L2)
		ring->level = IRDMA_PBLE_LEVEL_2;
	else
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (!d->fpm_committed || first >= d->obj[IRDMA_HMC_OBJ_PBLE].cnt)
		return IRDMA_MODEL_MIN_BAD_PBLE;
	ring->first_pble = first;
	return 0;
}

uint16_t
model_ring_entry_pbl(struct model_dev *d, const struct model_ring *ring, uint32_t idx,
		     rte_iova_t *iova)
{
	uint64_t off = (uint64_t)idx * ring->esize;
	rte_iova_t page;
	uint16_t minor;

	minor = model_pble_iova(d, ring->level, ring->first_pble,
				(uint32_t)(off >> IRDMA_HW_PAGE_SHIFT), &page);
	if (minor != 0)
		return minor;
	*iova = page + off % IRDMA_HW_PAGE_SIZE;
	return 0;
}

/*
 * Create-time check of a queue: alignment, and every byte of the ring reachable (each
 * page through its PBLE for levels 1 and 2; PBL pages must be 4 KB aligned).
 */
uint16_t
model_ring_check(struct model_dev *d, const struct model_ring *ring, uint32_t align_mask)
{
	uint64_t bytes = (uint64_t)ring->size * ring->esize;
	uint32_t pages, p;
	rte_iova_t page;
	uint16_t minor;

	if (ring->level == IRDMA_PBLE_LEVEL_0) {
		if ((ring->pa & align_mask) != 0)
			return IRDMA_MODEL_MIN_BAD_ALIGN;
		return model_dma_check(d, ring->pa, bytes) != 0 ? IRDMA_MODEL_MIN_DMA_FAULT : 0;
	}
	pages = (uint32_t)((bytes + IRDMA_HW_PAGE_SIZE - 1) >> IRDMA_HW_PAGE_SHIFT);
	for (p = 0; p < pages; p++) {
		uint64_t len = RTE_MIN((uint64_t)IRDMA_HW_PAGE_SIZE,
				       bytes - ((uint64_t)p << IRDMA_HW_PAGE_SHIFT));

		minor = model_pble_iova(d, ring->level, ring->first_pble, p, &page);
		if (minor != 0)
			return minor;
		if ((page & (IRDMA_HW_PAGE_SIZE - 1)) != 0)
			return IRDMA_MODEL_MIN_BAD_ALIGN;
		if (model_dma_check(d, page, len) != 0)
			return IRDMA_MODEL_MIN_DMA_FAULT;
	}
	return 0;
}

bool
model_hmc_entry(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t first, uint32_t idx,
		rte_iova_t *iova, struct model_res *r)
{
	uint16_t minor;

	if (model_refuse(r, d->fpm_committed ? 0 : IRDMA_MODEL_MIN_NO_FPM) ||
	    model_refuse(r, idx >= first && idx < d->obj[obj].cnt ? 0 : IRDMA_MODEL_MIN_BAD_ID))
		return true;
	minor = model_hmc_iova(d, obj, idx, iova);
	if (minor != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, minor);
		return true;
	}
	return false;
}
