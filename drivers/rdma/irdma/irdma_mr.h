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

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_MR_H */
