/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Memory regions (doc/hardware.md §5.3, §6, §8; the kernel's irdma_reg_user_mr, irdma_alloc_mr,
 * irdma_hwreg_mr, irdma_hw_alloc_stag, irdma_dereg_mr):
 *  - USER: the range is resolved to IOVAs (pbl_build_mr: EAL memseg tables), described at the
 *    largest page size it allows (4 KB, 2 MB, 1 GB) at level 0 (one address), 1 or 2 (PBLEs
 *    from the pool over the HMC PBLE object) and registered with REG_MR, VA-based. Any other
 *    process memory (malloc, mmap, stack, static, external memory nobody DMA-mapped) goes
 *    through the device's application memory table (c->umem, pbl_umem_reg()): its pages are
 *    mapped with irdma_hw_dma_map() at IOVA = VA (one map per new range, shared and counted
 *    across overlapping MRs), and unmapped when the last MR over them is deregistered.
 *  - FAST_REG: a level-1 run of max_pages PBLEs (4 KB pages) and ALLOC_STAG.
 *  - DMA MRs are not supported (-ENOTSUP).
 * lkey = rkey = STag = index << 8 | key; the index is the restrack ID, the key a per-device
 * counter. DEALLOC_STAG, then the PBLEs are freed. On gen3 a region may allow remote atomics
 * (REG_MR's REMOTE_ATOMIC_EN); gen2 refuses them (-ENOTSUP).
 *
 * Memory windows (gen3, type 2; the kernel's irdma_alloc_mw / irdma_hw_alloc_mw /
 * irdma_dealloc_mw): the window takes an STag index from the MR ID space (rdmadev tracks it
 * as RESTRACK_MR), ALLOC_STAG with MR 0 and MWTYPE 0 makes it a window of its PD, and its
 * rkey starts as index << 8 | key; BIND_MW work requests give it a key, a range and rights.
 * DEALLOC_STAG with MR 0 frees it.
 *
 * Bound windows (rdmadev_mw_bound(): the region's mw_bound, which rdmadev_mr_dereg checks):
 * a window counts as bound to a region from the post of its BIND_MW (the device may run it
 * at any time from then on) until the bind completes in error or is flushed (poll), a
 * LOCAL_INV of its key is posted, a SEND with invalidate of its key is received (poll, or
 * the CQ clean of a destroyed QP), or the window is freed. A LOCAL_INV that completes in
 * error or is flushed (poll) invalidated nothing: the window is bound to its region again
 * (the tracking entry's pad names the region, the WQE still in the ring the key). The
 * device has the last word: DEALLOC_STAG of a region a window is still bound to completes
 * with IRDMA_CQP_MIN_BUSY (-EBUSY, the kernel's code for it), e.g. a region deregistered
 * while a LOCAL_INV of its window is posted and not yet run, or one the bookkeeping cannot
 * follow (a flushed LOCAL_INV whose window a later BIND_MW, flushed too, had taken).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_memory.h>

#include <pbl.h>
#include <rdmadev_driver.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_log.h"
#include "irdma_mr.h"

/* ---- DMA hook for memory EAL does not know ---- */

static int
irdma_mr_dma_map(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	return irdma_hw_dma_map(ctx, va, iova, len);
}

static int
irdma_mr_dma_unmap(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	return irdma_hw_dma_unmap(ctx, va, iova, len);
}

int
irdma_umem_create(struct irdma_ctrl *c)
{
	const struct pbl_dma_hook hook = {
		.map = irdma_mr_dma_map,
		.unmap = irdma_mr_dma_unmap,
		.ctx = c->hw,
	};
	int ret = pbl_umem_create(&hook, c->hw->name, &c->umem);

	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR: no table for application memory: %s", strerror(-ret));
		c->umem = NULL;
	}
	return ret;
}

void
irdma_umem_destroy(struct irdma_ctrl *c)
{
	if (c->umem == NULL)
		return;
	if (pbl_umem_destroy(c->umem) != 0)
		IRDMA_LOG(ERR, c->hw, "MR: application memory still registered at teardown");
	c->umem = NULL;
}

/*
 * True when the device reaches [addr, addr + len) without a registration of its own: EAL's
 * internal memory (the backend maps it), or memory a pbl_mem_register() with a DMA hook
 * mapped already.
 */
static bool
irdma_mr_premapped(const void *addr, uint64_t len)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(addr);

	if (msl == NULL)
		return false;
	return !msl->external || pbl_mem_is_mapped(addr, len);
}

static void
irdma_mr_ext_unregister(struct irdma_ctrl *c, struct irdma_mr *m)
{
	int ret;

	if (m->ext_va == NULL)
		return;
	ret = pbl_umem_dereg(c->umem, m->ext_va, m->ext_len);
	if (ret != 0)
		IRDMA_LOG(ERR, c->hw, "MR: unregistering application memory %p failed: %s",
			  m->ext_va, strerror(-ret));
	m->ext_va = NULL;
}

/*
 * The PBL of application memory: map it through c->umem (shared with other MRs over the
 * same pages), then build from the layout that returns.
 */
static int
irdma_mr_build_umem(struct irdma_ctrl *c, struct irdma_mr *m, void *addr, uint64_t len,
		    uint64_t bitmap)
{
	struct pbl_layout *l;
	uint64_t pgsz;
	int ret;

	ret = pbl_umem_reg(c->umem, addr, len, &l);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: registering application memory %p+%" PRIu64
			  " failed: %s", m->stag, addr, len, strerror(-ret));
		return ret;
	}
	m->ext_va = addr;
	m->ext_len = len;
	pgsz = pbl_best_pgsz(l, bitmap);
	if (pgsz == 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: no page size fits the IOVA layout of %p+%" PRIu64,
			  m->stag, addr, len);
		ret = -EINVAL;
	} else {
		ret = pbl_build(c->pble_pool, l, pgsz, PBL_LEVELS_ALL, &m->pbl);
	}
	pbl_layout_free(l);
	if (ret != 0)
		irdma_mr_ext_unregister(c, m);
	return ret;
}

/* ---- helpers ---- */

/* rdmadev rights to ARIGHTS; local read is always granted (irdma_get_mr_access). */
static int
irdma_mr_rights(struct irdma_ctrl *c, uint32_t access, uint32_t *rights)
{
	if ((access & RDMADEV_ACCESS_REMOTE_ATOMIC) && c->hw->gen < IRDMA_GEN_3) {
		IRDMA_LOG(ERR, c->hw, "MR: remote atomics are not supported on gen2");
		return -ENOTSUP;
	}
	*rights = irdma_mr_access_bits(access);
	return 0;
}

/* Fields ALLOC_STAG and REG_MR share. */
static void
irdma_mr_wqe_common(struct irdma_cqp_wqe *w, const struct irdma_mr *m, uint64_t len,
		    uint32_t rights, uint32_t chunk, uint32_t hpage)
{
	irdma_set(w, CQP_STAG_LEN, len);
	irdma_set(w, CQP_STAG_PDID, m->pd_id);
	irdma_set(w, CQP_STAG_IDX, m->stag >> IRDMA_STAG_KEY_BITS);
	irdma_set(w, CQP_STAG_MR, 1);
	irdma_set(w, CQP_LPBLSIZE, chunk);
	irdma_set(w, CQP_STAG_HPAGESIZE, hpage);
	irdma_set(w, CQP_STAG_ARIGHTS, rights);
	irdma_set(w, CQP_STAG_REMACCENABLED,
		  (rights & (IRDMA_ACCESS_REMOTE_READ | IRDMA_ACCESS_REMOTE_WRITE)) != 0);
}

static uint32_t
irdma_mr_hpage(uint8_t page_shift)
{
	switch (page_shift) {
	case 30:
		return IRDMA_HPAGE_1G;
	case 21:
		return IRDMA_HPAGE_2M;
	default:
		return IRDMA_HPAGE_4K;
	}
}

/* Page sizes of PBL_PGSZ_CAP at which addr and iova sit at the same offset in the page. */
static uint64_t
irdma_mr_pgsz_bitmap(const void *addr, uint64_t iova)
{
	uint64_t diff = (uint64_t)(uintptr_t)addr ^ iova;
	uint64_t bm = 0, sz;

	for (sz = PBL_PGSZ_4K; sz <= PBL_PGSZ_1G; sz <<= 1)
		if ((PBL_PGSZ_CAP & sz) && (diff & (sz - 1)) == 0)
			bm |= sz;
	return bm;
}

/* ---- USER ---- */

static int
irdma_mr_reg_user(struct irdma_ctrl *c, struct irdma_mr *m, const struct rdmadev_mr_attr *a,
		  uint32_t rights)
{
	uint64_t bitmap = irdma_mr_pgsz_bitmap(a->addr, a->iova);
	struct irdma_cqp_wqe w;
	uint32_t chunk;
	int ret;

	if (bitmap == 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: IOVA 0x%" PRIx64 " and address %p differ modulo 4 KB",
			  m->stag, a->iova, a->addr);
		return -EINVAL;
	}
	if (irdma_mr_premapped(a->addr, a->length)) {
		ret = pbl_build_mr(c->pble_pool, a->addr, a->length, bitmap, PBL_LEVELS_ALL,
				   &m->pbl);
	} else if ((a->access & (RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
				 RDMADEV_ACCESS_REMOTE_ATOMIC)) != 0 &&
		   pbl_umem_check_writable(a->addr, a->length) != 0) {
		/* What VFIO's pin for device writes refuses; the model's view would fault. */
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: %p+%" PRIu64 " asks for write access to memory "
			  "that is not all writable", m->stag, a->addr, a->length);
		return -EFAULT;
	} else {
		ret = irdma_mr_build_umem(c, m, a->addr, a->length, bitmap);
	}
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: no PBL for %p+%" PRIu64 ": %s", m->stag, a->addr,
			  a->length, strerror(-ret));
		return ret;
	}
	chunk = m->pbl.level == PBL_LEVEL_0 ? IRDMA_PBL_CHUNK_PHYS :
		m->pbl.level == PBL_LEVEL_1 ? IRDMA_PBL_CHUNK_L1 : IRDMA_PBL_CHUNK_L2;
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_REG_MR);
	irdma_mr_wqe_common(&w, m, a->length, rights, chunk, irdma_mr_hpage(m->pbl.page_shift));
	irdma_set(&w, CQP_STAG_KEY, m->stag & ((1u << IRDMA_STAG_KEY_BITS) - 1));
	irdma_set(&w, CQP_STAG_VA_FBO, a->iova);
	irdma_set(&w, CQP_STAG_VABASEDTO, 1);
	if (c->hw->gen >= IRDMA_GEN_3)
		irdma_set(&w, CQP_STAG_REMOTE_ATOMIC_EN,
			  (a->access & RDMADEV_ACCESS_REMOTE_ATOMIC) ? 1 : 0);
	if (m->pbl.level == PBL_LEVEL_0)
		irdma_set(&w, CQP_STAG_PA, m->pbl.addr);
	else
		irdma_set(&w, CQP_STAG_FIRST_PBLIDX, m->pbl.index);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: REG_MR failed: %s", m->stag, strerror(-ret));
		if (pbl_free(&m->pbl) != 0)
			IRDMA_LOG(ERR, c->hw, "MR 0x%x: freeing the PBL failed", m->stag);
		irdma_mr_ext_unregister(c, m);
		return ret;
	}
	IRDMA_LOG(DEBUG, c->hw, "MR 0x%x: %" PRIu64 " bytes, level %u, %" PRIu64 " pages of 2^%u",
		  m->stag, a->length, m->pbl.level, m->pbl.npages, m->pbl.page_shift);
	return 0;
}

/* ---- FAST_REG ---- */

static int
irdma_mr_alloc_fast_reg(struct irdma_ctrl *c, struct irdma_mr *m, uint32_t max_pages)
{
	struct irdma_cqp_wqe w;
	int ret;

	ret = pbl_pool_alloc(c->pble_pool, max_pages, &m->run);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: no run of %u PBLEs: %s", m->stag, max_pages,
			  strerror(-ret));
		return ret;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_ALLOC_STAG);
	irdma_mr_wqe_common(&w, m, (uint64_t)max_pages * IRDMA_HW_PAGE_SIZE,
			    IRDMA_ACCESS_LOCAL_READ, IRDMA_PBL_CHUNK_L1, IRDMA_HPAGE_4K);
	irdma_set(&w, CQP_STAG_FIRST_PBLIDX, m->run.index);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: ALLOC_STAG failed: %s", m->stag, strerror(-ret));
		if (pbl_pool_free(c->pble_pool, m->run.index, m->run.count) != 0)
			IRDMA_LOG(ERR, c->hw, "MR 0x%x: freeing the PBLE run failed", m->stag);
		return ret;
	}
	m->fast_reg = true;
	return 0;
}

/* ---- ops ---- */

int
irdma_mr_reg(struct irdma_ctrl *c, struct rdmadev_mr *mr, const struct rdmadev_mr_attr *attr)
{
	uint32_t idx = rdmadev_obj_id(&mr->obj);
	uint32_t key, rights;
	struct irdma_mr *m;
	int ret;

	if (c->pble_pool == NULL) {
		IRDMA_LOG(ERR, c->hw, "MR %u: the device is not up", idx);
		return -ENODEV;
	}
	if (mr->kind == RDMADEV_MR_DMA) {
		IRDMA_LOG(ERR, c->hw, "MR %u: DMA MRs are not supported", idx);
		return -ENOTSUP;
	}
	if (idx >= c->hmc.obj[IRDMA_HMC_OBJ_MR].cnt || idx < IRDMA_FIRST_USER_MR_IDX) {
		IRDMA_LOG(ERR, c->hw, "MR %u: STag index outside the committed MRs", idx);
		return -EINVAL;
	}
	ret = irdma_mr_rights(c, mr->access, &rights);
	if (ret != 0)
		return ret;
	if (mr->kind == RDMADEV_MR_USER && attr == NULL) {
		IRDMA_LOG(ERR, c->hw, "MR %u: no attributes", idx);
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		IRDMA_LOG(ERR, c->hw, "MR %u: no memory", idx);
		return -ENOMEM;
	}
	key = __atomic_fetch_add(&c->mr_key, 1, __ATOMIC_RELAXED) &
	      ((1u << IRDMA_STAG_KEY_BITS) - 1);
	m->stag = (idx << IRDMA_STAG_KEY_BITS) | key;
	m->pd_id = rdmadev_obj_id(&mr->pd->obj);
	if (mr->kind == RDMADEV_MR_FAST_REG)
		ret = irdma_mr_alloc_fast_reg(c, m, mr->max_pages);
	else
		ret = irdma_mr_reg_user(c, m, attr, rights);
	if (ret != 0) {
		free(m);
		return ret;
	}
	mr->lkey = m->stag;
	mr->rkey = m->stag;
	mr->obj.fp.drv = m;
	__atomic_fetch_add(&c->nb_mrs, 1, __ATOMIC_RELAXED);
	return 0;
}

int
irdma_mr_dereg(struct irdma_ctrl *c, struct rdmadev_mr *mr)
{
	struct irdma_mr *m = mr->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	if (m == NULL) {
		IRDMA_LOG(ERR, c->hw, "MR dereg: no driver state");
		return -EINVAL;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DEALLOC_STAG);
	irdma_set(&w, CQP_STAG_PDID, m->pd_id);
	irdma_set(&w, CQP_STAG_IDX, m->stag >> IRDMA_STAG_KEY_BITS);
	irdma_set(&w, CQP_STAG_MR, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret == -EBUSY) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: DEALLOC_STAG refused by the device: a memory "
			  "window is still bound to it", m->stag);
		return ret;
	}
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: DEALLOC_STAG failed: %s", m->stag, strerror(-ret));
		return ret;
	}
	if (m->fast_reg) {
		if (pbl_pool_free(c->pble_pool, m->run.index, m->run.count) != 0)
			IRDMA_LOG(ERR, c->hw, "MR 0x%x: freeing the PBLE run failed", m->stag);
	} else if (pbl_free(&m->pbl) != 0) {
		IRDMA_LOG(ERR, c->hw, "MR 0x%x: freeing the PBL failed", m->stag);
	}
	irdma_mr_ext_unregister(c, m);
	free(m);
	mr->obj.fp.drv = NULL;
	__atomic_fetch_sub(&c->nb_mrs, 1, __ATOMIC_RELAXED);
	return 0;
}

/* ---- memory windows (gen3) ---- */

int
irdma_mw_alloc(struct irdma_ctrl *c, struct rdmadev_mw *mw)
{
	uint32_t idx = rdmadev_obj_id(&mw->obj);
	struct irdma_cqp_wqe w;
	uint32_t key;
	int ret;

	if (c->pble_pool == NULL) {
		IRDMA_LOG(ERR, c->hw, "MW %u: the device is not up", idx);
		return -ENODEV;
	}
	if (c->hw->gen < IRDMA_GEN_3) {
		IRDMA_LOG(ERR, c->hw, "MW %u: memory windows are gen3 only", idx);
		return -ENOTSUP;
	}
	if (idx >= c->hmc.obj[IRDMA_HMC_OBJ_MR].cnt || idx < IRDMA_FIRST_USER_MR_IDX) {
		IRDMA_LOG(ERR, c->hw, "MW %u: STag index outside the committed MRs", idx);
		return -EINVAL;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_ALLOC_STAG);
	irdma_set(&w, CQP_STAG_PDID, rdmadev_obj_id(&mw->pd->obj));
	irdma_set(&w, CQP_STAG_IDX, idx);
	irdma_set(&w, CQP_STAG_MWTYPE, 0);	/* type 2 */
	irdma_set(&w, CQP_STAG_MR, 0);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MW %u: ALLOC_STAG failed: %s", idx, strerror(-ret));
		return ret;
	}
	key = __atomic_fetch_add(&c->mr_key, 1, __ATOMIC_RELAXED) &
	      ((1u << IRDMA_STAG_KEY_BITS) - 1);
	mw->rkey = (idx << IRDMA_STAG_KEY_BITS) | key;
	/* the data path finds windows by index on this device (one device per control path) */
	__atomic_store_n(&c->rdev, mw->obj.dev, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->nb_mws, 1, __ATOMIC_RELEASE);
	IRDMA_LOG(DEBUG, c->hw, "MW %u: allocated, rkey 0x%x", idx, mw->rkey);
	return 0;
}

int
irdma_mw_free(struct irdma_ctrl *c, struct rdmadev_mw *mw)
{
	uint32_t idx = rdmadev_obj_id(&mw->obj);
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DEALLOC_STAG);
	irdma_set(&w, CQP_STAG_PDID, rdmadev_obj_id(&mw->pd->obj));
	irdma_set(&w, CQP_STAG_IDX, idx);
	irdma_set(&w, CQP_STAG_MR, 0);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MW %u: DEALLOC_STAG failed: %s", idx, strerror(-ret));
		return ret;
	}
	/* a freed window is bound to nothing: its region may go */
	rdmadev_mw_bound(mw, NULL);
	__atomic_fetch_sub(&c->nb_mws, 1, __ATOMIC_RELEASE);
	return 0;
}

/* The window of STag index @p idx on @p c's device, referenced, or NULL. */
static struct rdmadev_mw *
irdma_mw_get(struct irdma_ctrl *c, uint32_t idx)
{
	struct rdmadev *dev = __atomic_load_n(&c->rdev, __ATOMIC_RELAXED);
	struct rdmadev_obj *o;

	if (dev == NULL)
		return NULL;
	o = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_MW, idx);
	return o != NULL ? container_of(o, struct rdmadev_mw, obj) : NULL;
}

uint32_t
irdma_mw_invalidated(struct irdma_ctrl *c, uint32_t rkey)
{
	struct rdmadev_mw *mw = irdma_mw_get(c, rkey >> IRDMA_STAG_KEY_BITS);
	struct rdmadev_mr *mr;
	uint32_t mr_idx = 0;

	if (mw == NULL)
		return 0;	/* a region's key (or no such window): nothing to note */
	mr = __atomic_load_n(&mw->bound_mr, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&mw->rkey, __ATOMIC_RELAXED) == rkey && mr != NULL) {
		mr_idx = rdmadev_obj_id(&mr->obj);
		rdmadev_mw_bound(mw, NULL);
	}
	rdmadev_obj_put(&mw->obj);
	return mr_idx;
}

void
irdma_mw_inv_failed(struct irdma_ctrl *c, uint32_t rkey, uint32_t mr_idx)
{
	struct rdmadev_mw *mw;
	struct rdmadev_obj *o;

	if (c == NULL)
		return;
	mw = irdma_mw_get(c, rkey >> IRDMA_STAG_KEY_BITS);
	if (mw == NULL)
		return;
	o = rdmadev_obj_get_byid(mw->obj.dev, RDMADEV_OBJ_MR, mr_idx);
	/* the key the LOCAL_INV named is still the window's, and nothing bound it since */
	if (o != NULL && __atomic_load_n(&mw->rkey, __ATOMIC_RELAXED) == rkey &&
	    __atomic_load_n(&mw->bound_mr, __ATOMIC_ACQUIRE) == NULL) {
		rdmadev_mw_bound(mw, container_of(o, struct rdmadev_mr, obj));
		IRDMA_LOG(DEBUG, c->hw, "MW %u: LOCAL_INV of rkey 0x%x did not complete: bound "
			  "to MR %u again", rdmadev_obj_id(&mw->obj), rkey, mr_idx);
	}
	rdmadev_obj_put(o);
	rdmadev_obj_put(&mw->obj);
}

void
irdma_mw_bind_failed(struct irdma_ctrl *c, uint32_t idx)
{
	struct rdmadev_mw *mw;

	if (c == NULL)
		return;
	mw = irdma_mw_get(c, idx);
	if (mw == NULL)
		return;
	rdmadev_mw_bound(mw, NULL);
	rdmadev_obj_put(&mw->obj);
}
