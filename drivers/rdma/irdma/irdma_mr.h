/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MR_H
#define IRDMA_MR_H

/**
 * @file
 * The driver's part of an MR (irdma_mr.c creates it), shared with the data path: a FAST_REG
 * work request (irdma_uk_post.c) writes its page list into the MR's PBLE run and names the
 * run in the WQE.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pbl.h>
#include <rdmadev.h>

#include "irdma_base.h"
#include "irdma_ctrl.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The driver's part of an MR (rdmadev_mr.obj.fp.drv). */
struct irdma_mr {
	struct pbl pbl;		/**< USER: the PBL (cleared at level 0 after free) */
	struct pbl_run run;	/**< FAST_REG: the PBLE run (run.va: its PBLEs, CPU address) */
	uint32_t stag;		/**< index << 8 | key (FAST_REG: the key of the last WR posted) */
	uint32_t pd_id;		/**< PD id */
	bool fast_reg;		/**< ALLOC_STAG rather than REG_MR */
	void *ext_va;		/**< range this MR registered with pbl_umem_reg(), or NULL */
	size_t ext_len;		/**< its length */
};

/**
 * ARIGHTS / STAGRIGHTS bits of rdmadev access flags @p access (local read always granted,
 * as the kernel's irdma_get_mr_access). RDMADEV_ACCESS_REMOTE_ATOMIC has no gen2 bit: the
 * callers refuse it.
 */
static inline uint32_t
irdma_mr_access_bits(uint32_t access)
{
	uint32_t r = IRDMA_ACCESS_LOCAL_READ;

	if (access & RDMADEV_ACCESS_LOCAL_WRITE)
		r |= IRDMA_ACCESS_LOCAL_WRITE;
	if (access & RDMADEV_ACCESS_REMOTE_READ)
		r |= IRDMA_ACCESS_REMOTE_READ;
	if (access & RDMADEV_ACCESS_REMOTE_WRITE)
		r |= IRDMA_ACCESS_REMOTE_WRITE;
	if (access & RDMADEV_ACCESS_MW_BIND)
		r |= IRDMA_ACCESS_WINDOW_BIND;
	return r;
}

struct irdma_ctrl;

/**
 * Create c->umem, the table of application memory this device may DMA (pbl_umem_create()
 * with irdma_hw_dma_map() / irdma_hw_dma_unmap() as the hook).
 * @return 0 or pbl_umem_create()'s -errno.
 */
int irdma_umem_create(struct irdma_ctrl *c);

/** Destroy c->umem, unmapping what is still mapped (logged). Safe when NULL. */
void irdma_umem_destroy(struct irdma_ctrl *c);

struct rdmadev_mr;
struct rdmadev_mr_attr;

/**
 * Register rdmadev MR @p mr at its claimed STag index. USER: resolve the range (EAL memory
 * from EAL's tables; any other process memory is DMA-mapped through c->umem,
 * pbl_umem_reg(), at IOVA = VA), build a level 0/1/2 PBL at
 * the best page size and issue REG_MR (VA-based). FAST_REG: a level-1 run of max_pages
 * PBLEs and ALLOC_STAG. Sets mr->lkey = mr->rkey = index << 8 | key and mr->obj.fp.drv.
 * @return 0, -ENOTSUP (DMA MRs, atomics on gen2), -EINVAL (range not resolvable, IOVA and address
 *         not congruent modulo 4 KB), -ENOMEM, or the CQP's -errno; nothing leaks.
 */
int irdma_mr_reg(struct irdma_ctrl *c, struct rdmadev_mr *mr,
		 const struct rdmadev_mr_attr *attr);

/**
 * DEALLOC_STAG, then free the MR's PBLEs and undo its DMA registration.
 * @return 0, or the CQP's -errno (the MR stays registered).
 */
int irdma_mr_dereg(struct irdma_ctrl *c, struct rdmadev_mr *mr);

struct rdmadev_mw;

/**
 * Allocate gen3 type-2 window @p mw at its claimed STag index: ALLOC_STAG with MR 0 and
 * MWTYPE 0 in its PD. Sets mw->rkey = index << 8 | key (BIND_MW work requests change it).
 * @return 0, -ENODEV (not up), -ENOTSUP (gen2), -EINVAL (index outside the committed MRs),
 *         or the CQP's -errno.
 */
int irdma_mw_alloc(struct irdma_ctrl *c, struct rdmadev_mw *mw);

/**
 * DEALLOC_STAG (MR 0) of window @p mw.
 * @return 0, or the CQP's -errno (the window stays allocated).
 */
int irdma_mw_free(struct irdma_ctrl *c, struct rdmadev_mw *mw);

/**
 * Window bookkeeping (rdmadev_mw_bound()) for an invalidated key: LOCAL_INV posted, or a
 * SEND with invalidate received (CQE INVSTAG). When @p rkey is the current key of a window
 * of the device, the window is bound to no region any more. Data path, rare: a restrack
 * lookup. Use irdma_mw_note_inv(), which skips devices without windows.
 * @return the STag index of the region the window was bound to, or 0 when this unbound
 *         nothing (index 0 is never a user region: IRDMA_FIRST_USER_MR_IDX).
 */
uint32_t irdma_mw_invalidated(struct irdma_ctrl *c, uint32_t rkey);

/**
 * Window bookkeeping for a LOCAL_INV of key @p rkey that completed in error or was flushed,
 * whose post counted the window as unbound from the region of STag index @p mr_idx
 * (irdma_mw_invalidated()'s return): the device did not invalidate, so the window is bound
 * to that region again, unless the window changed since (another key, or bound again).
 */
void irdma_mw_inv_failed(struct irdma_ctrl *c, uint32_t rkey, uint32_t mr_idx);

/**
 * Window bookkeeping for a BIND_MW that completed in error or was flushed: the window of
 * STag index @p idx is bound to no region (the bind did not happen).
 */
void irdma_mw_bind_failed(struct irdma_ctrl *c, uint32_t idx);

/** irdma_mw_invalidated() when @p c (may be NULL) has windows; 0 when it has none. */
static inline uint32_t
irdma_mw_note_inv(struct irdma_ctrl *c, uint32_t rkey)
{
	if (unlikely(c != NULL && __atomic_load_n(&c->nb_mws, __ATOMIC_RELAXED) != 0))
		return irdma_mw_invalidated(c, rkey);
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_MR_H */
