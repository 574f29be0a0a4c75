/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef PBL_PRIVATE_H
#define PBL_PRIVATE_H

/* Shared by the files of lib/pbl only; not installed. */

#include <inttypes.h>

#include <rte_byteorder.h>
#include <rte_common.h>
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
 * The levels of level_mask that can describe npages pages with PBLEs at all: level 1 up to
 * one chunk of PBLEs; level 2 (as the kernel's get_lvl1_lvl2_pble allows it) only for more
 * than one leaf of pages, and up to a root of one chunk. The one place that rule lives: the
 * builder's up-front check and the pool's grant both use it.
 */
static inline uint32_t
pbl_levels_possible(uint64_t npages, uint32_t level_mask)
{
	uint32_t ok = 0;

	if (npages >= 1 && npages <= PBL_CHUNK_PBLES)
		ok |= PBL_LEVEL_MASK(PBL_LEVEL_1);
	if (npages > PBL_LEAF_PBLES && npages <= PBL_CHUNK_PBLES * PBL_LEAF_PBLES)
		ok |= PBL_LEVEL_MASK(PBL_LEVEL_2);
	return ok & level_mask;
}

/* Leaves of a level-2 tree over npages pages. */
static inline uint64_t
pbl_leaf_count(uint64_t npages)
{
	return (npages + PBL_LEAF_PBLES - 1) >> PBL_LEAF_SHIFT;
}

/* PBLEs in leaf 'leaf' of a level-2 tree over npages pages: 512, the last one the rest. */
static inline uint32_t
pbl_leaf_pbles(uint64_t npages, uint64_t leaf)
{
	return (uint32_t)RTE_MIN(npages - (leaf << PBL_LEAF_SHIFT), (uint64_t)PBL_LEAF_PBLES);
}

/*
 * Allocate the PBLEs for npages pages at level 1 or 2 as allowed by level_mask
 * (pbl_levels_possible() must leave one): in the chunks already added, level 1 first and
 * level 2 next; only when neither fits is the pool grown by one chunk and both tried again,
 * as irdma's irdma_get_pble does. Returns 0 or -ENOMEM; logs nothing on -ENOMEM (the caller
 * knows the context).
 */
int pbl_pool_grant(struct pbl_pool *pool, uint64_t npages, uint32_t level_mask,
		   struct pbl_pool_grant *grant);

/*
 * Return a level-2 tree: every leaf named by the root, then the root. All or nothing: the
 * root and every leaf it names must be allocated runs of the expected sizes, else nothing is
 * freed and -EINVAL is returned with a log line (a stale or corrupted PBL must not free runs
 * that now belong to someone else).
 */
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
