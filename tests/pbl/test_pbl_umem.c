/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The application memory table (pbl_umem_*) against an independent model: a fake DMA hook
 * keeps the live maps and refuses overlapping maps and inexact unmaps (as the VFIO type1
 * IOMMU and the device model do); random registrations and deregistrations of unaligned
 * ranges over an mmap'd arena, some with a map failure injected, are checked after every
 * step: every page of a live registration is mapped, every map sits in one 2 MB chunk and
 * overlaps a live registration, and a failed registration changes nothing. Then bad input and destroy with live registrations.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include <pbl.h>

#include "test.h"

#define PG 4096u
#define ARENA_PAGES 1600u	/* three 2 MB chunks and more */
#define MAX_MAPS 1024u
#define MAX_REGS 16u

struct fake_map {
	uint64_t va, len;
	rte_iova_t iova;
};

struct fake {
	struct fake_map m[MAX_MAPS];
	unsigned int n;
	unsigned int bad;	/* overlapping maps, inexact unmaps */
	unsigned int fail_in;	/* fail the map call this many calls from now (0: never) */
	unsigned int calls;
};

static int
fake_map(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	struct fake *f = ctx;
	unsigned int i;

	f->calls++;
	if (f->fail_in != 0 && --f->fail_in == 0)
		return -ENOMEM;
	for (i = 0; i < f->n; i++)
		if ((uintptr_t)va < f->m[i].va + f->m[i].len && f->m[i].va < (uintptr_t)va + len) {
			f->bad++;
			return -EEXIST;
		}
	if (f->n == MAX_MAPS || len % PG != 0 || (uintptr_t)va % PG != 0) {
		f->bad++;
		return -EINVAL;
	}
	f->m[f->n++] = (struct fake_map){ (uintptr_t)va, len, iova };
	return 0;
}

static int
fake_unmap(void *ctx, void *va, rte_iova_t iova, size_t len)
{
	struct fake *f = ctx;
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (f->m[i].va == (uintptr_t)va && f->m[i].len == len && f->m[i].iova == iova) {
			f->m[i] = f->m[--f->n];
			return 0;
		}
	f->bad++;
	return -ENOENT;
}

struct reg {
	uint64_t off, len;
};

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * The invariants: every page a live registration touches is mapped; every map lies inside
 * one PBL_UMEM_CHUNK and overlaps a live registration (so nothing stays mapped for long
 * without a user); maps are IOVA = VA.
 */
static unsigned int
check_state(const struct fake *f, const uint8_t *arena, const struct reg *regs, unsigned int nr)
{
	static bool mapped[ARENA_PAGES];
	uint64_t base = (uintptr_t)arena;
	unsigned int p, i, k, bad = 0;

	memset(mapped, 0, sizeof(mapped));
	for (i = 0; i < f->n; i++) {
		const struct fake_map *m = &f->m[i];
		bool used = false;

		if (m->iova != m->va || m->va < base || m->va + m->len > base + ARENA_PAGES * PG ||
		    m->va / PBL_UMEM_CHUNK != (m->va + m->len - 1) / PBL_UMEM_CHUNK)
			bad++;
		for (k = 0; k < nr; k++) {
			uint64_t lo = RTE_ALIGN_FLOOR(base + regs[k].off, PG);
			uint64_t hi = RTE_ALIGN_CEIL(base + regs[k].off + regs[k].len, PG);

			if (m->va < hi && lo < m->va + m->len)
				used = true;
		}
		if (!used)
			bad++;
		for (p = (unsigned int)((m->va - base) / PG);
		     p < (m->va + m->len - base) / PG && p < ARENA_PAGES; p++)
			mapped[p] = true;
	}
	for (k = 0; k < nr; k++)
		for (p = (unsigned int)(regs[k].off / PG);
		     p <= (regs[k].off + regs[k].len - 1) / PG; p++)
			if (!mapped[p])
				bad++;
	if (bad != 0 && getenv("UMEM_DEBUG") != NULL)
		printf("# %u broken invariants\n", bad);
	return bad;
}

static void
test_random_vs_model(void)
{
	static struct fake f;
	const struct pbl_dma_hook hook = { fake_map, fake_unmap, &f };
	struct reg regs[MAX_REGS];
	unsigned int nr = 0, it, bad = 0, failed = 0, shared = 0;
	struct pbl_umem_stats st;
	struct pbl_umem *u = NULL;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint8_t *arena;

	memset(&f, 0, sizeof(f));
	arena = mmap(NULL, ARENA_PAGES * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	TEST_CHECK(arena != MAP_FAILED);
	if (arena == MAP_FAILED)
		return;
	TEST_CHECK_EQ(pbl_umem_create(&hook, "test", &u), 0);
	if (u == NULL)
		goto out;
	for (it = 0; it < 2000; it++) {
		bool add = nr == 0 || (nr < MAX_REGS && rnd(&seed) % 3 != 0);

		if (add) {
			uint64_t off = rnd(&seed) % (ARENA_PAGES * PG - 1);
			uint64_t len = 1 + rnd(&seed) % RTE_MIN(ARENA_PAGES * PG - off,
							(rnd(&seed) & 1) ? 8u * PG : 700u * PG);
			struct pbl_umem_stats before;
			struct pbl_layout *l = NULL;
			unsigned int maps_before = f.n;
			int rc;

			pbl_umem_stats_get(u, &before);
			if (rnd(&seed) % 4 == 0)
				f.fail_in = 1 + (unsigned int)(rnd(&seed) % 2);
			rc = pbl_umem_reg(u, arena + off, len, &l);
			if (f.fail_in != 0) {
				/* the injected failure was not reached: nothing new to map */
				f.fail_in = 0;
				shared++;
			}
			if (rc != 0) {
				failed++;
				TEST_CHECK_EQ(rc, -ENOMEM);
				TEST_CHECK(l == NULL);
				pbl_umem_stats_get(u, &st);
				TEST_CHECK_EQ(st.regs, before.regs);
				TEST_CHECK_EQ(st.pieces, before.pieces);
				TEST_CHECK_EQ(st.mapped_bytes, before.mapped_bytes);
				TEST_CHECK_EQ(f.n, maps_before);
			} else {
				TEST_CHECK(l != NULL);
				if (l != NULL) {
					TEST_CHECK_EQ(l->nsegs, 1);
					TEST_CHECK_EQ(l->va, (uintptr_t)(arena + off));
					TEST_CHECK_EQ(l->len, len);
					TEST_CHECK_EQ(l->segs[0].iova, (uintptr_t)(arena + off));
					TEST_CHECK_EQ(l->segs[0].len, len);
				}
				pbl_layout_free(l);
				regs[nr++] = (struct reg){ off, len };
			}
		} else {
			unsigned int k = (unsigned int)(rnd(&seed) % nr);

			TEST_CHECK_EQ(pbl_umem_dereg(u, arena + regs[k].off, regs[k].len), 0);
			regs[k] = regs[--nr];
		}
		bad += check_state(&f, arena, regs, nr);
		if (bad != 0 && getenv("UMEM_DEBUG") != NULL) {
			printf("# it %u add %d nr %u\n", it, add, nr);
			break;
		}
		pbl_umem_stats_get(u, &st);
		if (st.regs != nr || st.pieces != f.n)
			bad++;
	}
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(f.bad, 0);
	TEST_CHECK(failed > 10);
	printf("# %u registrations failed on purpose, %u mapped less than the failure point\n", failed,
	       shared);
	while (nr > 0) {
		nr--;
		TEST_CHECK_EQ(pbl_umem_dereg(u, arena + regs[nr].off, regs[nr].len), 0);
	}
	TEST_CHECK_EQ(f.n, 0);
	pbl_umem_stats_get(u, &st);
	TEST_CHECK_EQ(st.regs, 0);
	TEST_CHECK_EQ(st.pieces, 0);
	TEST_CHECK_EQ(st.mapped_bytes, 0);
	TEST_CHECK_EQ(st.maps, st.unmaps);
	TEST_CHECK_EQ(pbl_umem_destroy(u), 0);
out:
	munmap(arena, ARENA_PAGES * PG);
}

static void
test_bad_input(void)
{
	static struct fake f;
	const struct pbl_dma_hook hook = { fake_map, fake_unmap, &f };
	const struct pbl_dma_hook no_unmap = { fake_map, NULL, &f };
	struct pbl_layout *l = NULL;
	struct pbl_umem *u = NULL;
	uint8_t *arena, *eal;

	memset(&f, 0, sizeof(f));
	TEST_CHECK_EQ(pbl_umem_create(NULL, "x", &u), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_create(&no_unmap, "x", &u), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_create(&hook, "x", NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_create(&hook, NULL, &u), 0);
	if (u == NULL)
		return;
	arena = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_CHECK(arena != MAP_FAILED);
	if (arena == MAP_FAILED)
		goto out;
	TEST_CHECK_EQ(pbl_umem_reg(NULL, arena, PG, &l), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_reg(u, arena, PG, NULL), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_reg(u, NULL, PG, &l), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_reg(u, arena, 0, &l), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_reg(u, (void *)(uintptr_t)(UINT64_MAX - 100), 200, &l), -EINVAL);
	/* a hole in the middle */
	TEST_CHECK_EQ(munmap(arena + 2 * PG, PG), 0);
	TEST_CHECK_EQ(pbl_umem_reg(u, arena + 1, 4 * PG - 2, &l), -EFAULT);
	TEST_CHECK_EQ(f.calls, 0);
	/* EAL memory is not the table's */
	eal = rte_malloc("umem", 2 * PG, PG);
	TEST_CHECK(eal != NULL);
	if (eal != NULL)
		TEST_CHECK_EQ(pbl_umem_reg(u, eal, PG, &l), -EINVAL);
	rte_free(eal);
	/* dereg of what was never registered, or only partly */
	TEST_CHECK_EQ(pbl_umem_reg(u, arena, PG, &l), 0);
	pbl_layout_free(l);
	TEST_CHECK_EQ(pbl_umem_dereg(u, arena + PG, PG), -ENOENT);
	TEST_CHECK_EQ(pbl_umem_dereg(u, arena, 2 * PG), -ENOENT);
	TEST_CHECK_EQ(pbl_umem_dereg(NULL, arena, PG), -EINVAL);
	TEST_CHECK_EQ(pbl_umem_dereg(u, arena, 0), -EINVAL);
	TEST_CHECK_EQ(f.n, 1);
	/* destroy with a live registration: -EBUSY, its map undone */
	TEST_CHECK_EQ(pbl_umem_destroy(u), -EBUSY);
	TEST_CHECK_EQ(f.n, 0);
	TEST_CHECK_EQ(f.bad, 0);
	munmap(arena, 4 * PG);
	return;
out:
	pbl_umem_destroy(u);
}

int
main(void)
{
	if (test_eal_init("test_pbl_umem", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_random_vs_model);
	TEST_RUN(test_bad_input);
	rte_eal_cleanup();
	return test_done();
}
