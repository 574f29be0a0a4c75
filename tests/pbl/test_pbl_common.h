/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_PBL_COMMON_H
#define TEST_PBL_COMMON_H

/*
 * Helpers shared by the pbl test programs and the benchmark: a PBLE region in heap memory,
 * external memory with a synthetic IOVA table, and a checker that walks a PBL back and
 * compares every page with an independent answer.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pbl.h>

/* IOVA base for synthetic tables: far from anything EAL hands out, 1 GB aligned. */
#define TPBL_FAKE_IOVA_BASE (UINT64_C(0x40) << 32)
/* IOVA of the PBLE region (the engine addresses PBLEs by index; any value does). */
#define TPBL_POOL_IOVA (UINT64_C(0x7f) << 32)

/* How a synthetic IOVA table places page i of n. */
enum tpbl_order {
	TPBL_ASCENDING,		/* IOVA-contiguous */
	TPBL_DESCENDING,	/* no two neighbours contiguous */
	TPBL_GROUPS,		/* groups of 'group' contiguous pages, groups descending */
};

/* External memory registered with pbl_mem_register(). */
struct tpbl_ext {
	void *map;		/* mmap'd area (reserved, never touched) */
	size_t map_len;
	uint8_t *va;		/* aligned start */
	size_t len;
	size_t pgsz;
	unsigned int n;
	rte_iova_t *iovas;	/* the table given to EAL */
};

/* Map n pages of pgsz (reserved only) and register them with the given IOVA order. */
int tpbl_ext_make(struct tpbl_ext *e, unsigned int n, size_t pgsz, enum tpbl_order order,
		  unsigned int group, const struct pbl_dma_hook *hook);
/* The same with page i at IOVA TPBL_FAKE_IOVA_BASE + slots[i] * pgsz. */
int tpbl_ext_make_slots(struct tpbl_ext *e, unsigned int n, size_t pgsz, const uint64_t *slots,
			const struct pbl_dma_hook *hook);
void tpbl_ext_destroy(struct tpbl_ext *e);

/* xorshift64*: reproducible pseudo-random numbers without libc's rand state. */
static inline uint32_t
tpbl_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (uint32_t)((*state * UINT64_C(2685821657736338717)) >> 32);
}

/* A pool over a heap region of 'size' bytes. */
struct pbl_pool *tpbl_pool_make(uint64_t size);
void tpbl_pool_destroy(struct pbl_pool *pool);
uint64_t tpbl_pool_used(struct pbl_pool *pool);

/* The reference answer for the IOVA of one byte. */
typedef rte_iova_t (*tpbl_expect_fn)(void *ctx, uint64_t va);

/* EAL's own answer (rte_mem_virt2iova). */
rte_iova_t tpbl_expect_eal(void *ctx, uint64_t va);
/* The synthetic table of a struct tpbl_ext, cross-checked with EAL's memseg entry. */
rte_iova_t tpbl_expect_ext(void *ctx, uint64_t va);

/*
 * Walk the PBL back with pbl_walk() and pbl_translate() and compare each page (and the
 * first and last byte of the range) with the reference. Also decodes the PBLE memory on its
 * own, without the library's walkers, as the engine would read it (level 1: PBLE[index + p];
 * level 2: root PBLE = leaf index, then the leaf's PBLE), and checks the level-2 structure:
 * leaf indices, leaf sizes, no two runs overlapping. Returns the number of mismatches (also
 * recorded as failed checks).
 */
unsigned int tpbl_check_pbl(const struct pbl *pbl, tpbl_expect_fn expect, void *ctx);

#endif /* TEST_PBL_COMMON_H */
