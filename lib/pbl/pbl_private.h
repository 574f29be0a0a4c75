/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef PBL_PRIVATE_H
#define PBL_PRIVATE_H

/* Shared by the files of lib/pbl only; not installed. */

#include <inttypes.h>

#include <rte_byteorder.h>
#include <rte_log.h>

#include "pbl.h"

#define PBL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pbl_logtype, "PBL: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

/* Largest page size a PBL may use (1 GB, the largest irdma MR page size). */
#define PBL_MAX_PAGE_SHIFT 30
/* Smallest page size a PBL may use (4 KB). */
#define PBL_MIN_PAGE_SHIFT 12

/*
 * What the pool handed out for one PBL: a level-1 run, or a level-2 root run whose PBLEs
 * already hold the indices of the leaf runs (leaf i has PBL_LEAF_PBLES entries, the last
 * one the remainder).
 */
struct pbl_pool_grant {
	uint8_t level;
	struct pbl_run run;	/* level 1: the run; level 2: the root */
};

/*
 * Allocate the PBLEs for npages pages at level 1 or 2 as allowed by level_mask, trying
 * level 1 first and level 2 next (only for more than PBL_LEAF_PBLES pages), growing the pool
 * a chunk at a time when neither fits. Returns 0 or -ENOMEM; logs nothing on -ENOMEM (the
 * caller knows the context).
 */
int pbl_pool_grant(struct pbl_pool *pool, uint64_t npages, uint32_t level_mask,
		   struct pbl_pool_grant *grant);

/* Return a level-2 tree: every leaf named by the root, then the root. */
int pbl_pool_free_tree(struct pbl_pool *pool, uint32_t root_index, uint32_t root_count,
		       uint64_t npages);

static inline uint64_t
pbl_le64_load(const uint64_t *p)
{
	return rte_le_to_cpu_64(*(const volatile uint64_t *)p);
}

static inline void
pbl_le64_store(uint64_t *p, uint64_t v)
{
	*p = rte_cpu_to_le_64(v);
}

#endif /* PBL_PRIVATE_H */
