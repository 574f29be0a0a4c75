/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * PDs and MRs end to end on the device model: rdmadev -> irdma PMD (irdma_mr.c) -> CQP
 * (ALLOC_STAG / REG_MR / DEALLOC_STAG) -> the model's STag table. MRs over EAL memory and
 * over external memory with synthetic IOVA tables at levels 0, 1 and 2 (level 2 forced by
 * fragmenting the PBLE pool), each checked page by page with irdma_model_mr_translate()
 * against an independent answer; fast-register MRs; fault injection; the model's refusals
 * of malformed STag commands through a bare control path. Built once per model mode.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"
#include "test_pbl_common.h"

#define PG4K UINT64_C(4096)

/* The fixture's device (no CQs); user PDs start above the reserved ones. */
static int
mr_env_up(struct test_env *e)
{
	if (test_env_up(e, "irdma_model0", 0) != 0)
		return -1;
	TEST_CHECK(rdmadev_obj_id(&e->pd->obj) >= IRDMA_FIRST_USER_PD_ID);
	return 0;
}

static int
mr_live(const struct test_env *e)
{
	return restrack_count(rdmadev_get((int16_t)e->id)->res, RESTRACK_MR, NULL);
}

/* Independent answer for a VA: EAL's, or the external region's table. */
static rte_iova_t
expect_iova(const struct tpbl_ext *x, const uint8_t *va)
{
	uint64_t off;

	if (x == NULL)
		return rte_mem_virt2iova(va);
	off = (uint64_t)(va - x->va);
	return x->iovas[off / x->pgsz] + off % x->pgsz;
}

static uint32_t
access_bits(uint32_t acc)
{
	uint32_t r = IRDMA_ACCESS_LOCAL_READ;

	if (acc & RDMADEV_ACCESS_LOCAL_WRITE)
		r |= IRDMA_ACCESS_LOCAL_WRITE;
	if (acc & RDMADEV_ACCESS_REMOTE_READ)
		r |= IRDMA_ACCESS_REMOTE_READ;
	if (acc & RDMADEV_ACCESS_REMOTE_WRITE)
		r |= IRDMA_ACCESS_REMOTE_WRITE;
	return r;
}

/*
 * Register [addr, addr + len) and check the keys, the model's STag entry and the
 * translation of the first byte of every 4 KB page and of the last byte. Returns the MR
 * (NULL on failure); *info gets the model's entry.
 */
static struct rdmadev_mr *
reg_check_iova(struct test_env *e, const struct tpbl_ext *x, uint8_t *addr, uint64_t len,
	       uint64_t va, uint32_t acc, struct irdma_model_mr_info *info)
{
	const struct rdmadev_mr_attr attr = {
		.addr = addr, .length = len, .iova = va, .access = acc,
	};
	struct rdmadev_mr *mr = NULL;
	unsigned int bad = 0;
	uint64_t off;
	rte_iova_t iova;
	uint32_t idx;

	TEST_CHECK_EQ(rdmadev_mr_reg(e->pd, &attr, &mr), 0);
	if (mr == NULL)
		return NULL;
	idx = rdmadev_obj_id(&mr->obj);
	TEST_CHECK_EQ(mr->lkey, mr->rkey);
	TEST_CHECK_EQ(mr->lkey >> IRDMA_STAG_KEY_BITS, idx);
	TEST_CHECK(idx >= IRDMA_FIRST_USER_MR_IDX);
	memset(info, 0, sizeof(*info));
	TEST_CHECK_EQ(irdma_model_mr_get(e->hw, idx, info), 0);
	TEST_CHECK_EQ(info->state, IRDMA_MODEL_STAG_VALID);
	TEST_CHECK_EQ(info->key, mr->lkey & ((1u << IRDMA_STAG_KEY_BITS) - 1));
	TEST_CHECK_EQ(info->pd, rdmadev_obj_id(&e->pd->obj));
	TEST_CHECK_EQ(info->va, attr.iova);
	TEST_CHECK_EQ(info->len, len);
	TEST_CHECK_EQ(info->va_based, 1);
	TEST_CHECK_EQ(info->access, access_bits(acc));
	TEST_CHECK(info->page_size == PG4K || info->page_size == (UINT64_C(1) << 21) ||
		   info->page_size == (UINT64_C(1) << 30));
	if (info->level == 0)
		TEST_CHECK_EQ(info->pa & (info->page_size - 1), 0);
	/* Byte 0, then the first byte of every following 4 KB page. */
	for (off = 0; off < len;
	     off = RTE_ALIGN_FLOOR((uintptr_t)addr + off, PG4K) + PG4K - (uintptr_t)addr)
		if (irdma_model_mr_translate(e->hw, mr->lkey, attr.iova + off, &iova) != 0 ||
		    iova != expect_iova(x, addr + off))
			bad++;
	TEST_CHECK_EQ(irdma_model_mr_translate(e->hw, mr->lkey, attr.iova + len - 1, &iova), 0);
	TEST_CHECK_EQ(iova, expect_iova(x, addr + len - 1));
	TEST_CHECK_EQ(bad, 0);
	/* Outside the MR, a wrong key. */
	TEST_CHECK_EQ(irdma_model_mr_translate(e->hw, mr->lkey, attr.iova + len, &iova), -ERANGE);
	TEST_CHECK_EQ(irdma_model_mr_translate(e->hw, mr->lkey ^ 1, attr.iova, &iova), -ENOENT);
	return mr;
}

static struct rdmadev_mr *
reg_check(struct test_env *e, const struct tpbl_ext *x, uint8_t *addr, uint64_t len, uint32_t acc,
	  struct irdma_model_mr_info *info)
{
	return reg_check_iova(e, x, addr, len, (uint64_t)(uintptr_t)addr, acc, info);
}

static void
dereg_check(struct test_env *e, struct rdmadev_mr *mr)
{
	struct irdma_model_mr_info info;
	uint32_t idx;

	if (mr == NULL)
		return;
	idx = rdmadev_obj_id(&mr->obj);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	TEST_CHECK_EQ(irdma_model_mr_get(e->hw, idx, &info), -ENOENT);
}

/* PDs are IDs only: several, distinct, above the reserved ones. */
static void
test_pd(void)
{
	struct rdmadev_pd *p2 = NULL;
	struct test_env e;

	if (mr_env_up(&e) == 0) {
		TEST_CHECK_EQ(rdmadev_pd_alloc(e.ctx, &p2), 0);
		if (p2 != NULL) {
			TEST_CHECK(rdmadev_obj_id(&p2->obj) != rdmadev_obj_id(&e.pd->obj));
			TEST_CHECK_EQ(rdmadev_pd_free(p2), 0);
		}
	}
	test_env_down(&e);
}

/* EAL memory: a small MR at an odd offset and a multi-page one. */
static void
test_mr_eal(void)
{
	const uint32_t acc = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ |
			     RDMADEV_ACCESS_REMOTE_WRITE;
	struct irdma_model_mr_info info;
	struct rdmadev_mr *a, *b, *c;
	uint8_t *buf;
	struct test_env e;

	buf = rte_malloc("mr_test", 1 << 20, PG4K);
	TEST_CHECK(buf != NULL);
	if (buf != NULL && mr_env_up(&e) == 0) {
		a = reg_check(&e, NULL, buf + 100, 3000, RDMADEV_ACCESS_LOCAL_WRITE, &info);
		b = reg_check(&e, NULL, buf + 4000, (1 << 20) - 5000, acc, &info);
		if (a != NULL && b != NULL)
			TEST_CHECK(a->lkey >> IRDMA_STAG_KEY_BITS != b->lkey >> IRDMA_STAG_KEY_BITS);
		/* A device address other than the VA, congruent modulo 4 KB only: 4 KB pages. */
		c = reg_check_iova(&e, NULL, buf + 8192 + 16, 200000,
				   (UINT64_C(0x5) << 40) + 16, 0, &info);
		TEST_CHECK_EQ(info.page_size, PG4K);
		dereg_check(&e, c);
		/* Not congruent: refused, nothing left behind. */
		{
			const struct rdmadev_mr_attr bad = {
				.addr = buf, .length = 100, .iova = 8,
			};

			c = NULL;
			TEST_CHECK_EQ(rdmadev_mr_reg(e.pd, &bad, &c), -EINVAL);
			TEST_CHECK(c == NULL);
		}
		TEST_CHECK_EQ(mr_live(&e), 2);
		/* The PD is busy while MRs use it, and stop is refused. */
		TEST_CHECK_EQ(rdmadev_pd_free(e.pd), -EBUSY);
		TEST_CHECK_EQ(rdmadev_stop((int16_t)e.id), -EBUSY);
		dereg_check(&e, a);
		dereg_check(&e, b);
	}
	if (buf != NULL)
		test_env_down(&e);
	rte_free(buf);
}

/* External memory with synthetic IOVAs: contiguous -> level 0, scattered -> level 1. */
static void
test_mr_ext_levels(void)
{
	struct irdma_model_mr_info info;
	struct pbl_dma_hook hook;
	struct rdmadev_mr *mr;
	struct tpbl_ext x;
	struct test_env e;

	if (mr_env_up(&e) != 0) {
		test_env_down(&e);
		return;
	}
	hook = pmd_dma_hook(e.hw);
	TEST_CHECK_EQ(tpbl_ext_make(&x, 64, PG4K, TPBL_ASCENDING, 0, &hook), 0);
	if (x.va != NULL) {
		mr = reg_check(&e, &x, x.va + 123, 64 * PG4K - 500, 0, &info);
		TEST_CHECK_EQ(info.level, 0);
		dereg_check(&e, mr);
		tpbl_ext_destroy(&x);
	}
	TEST_CHECK_EQ(tpbl_ext_make(&x, 300, PG4K, TPBL_DESCENDING, 0, &hook), 0);
	if (x.va != NULL) {
		mr = reg_check(&e, &x, x.va + 5, 300 * PG4K - 10, RDMADEV_ACCESS_LOCAL_WRITE,
			       &info);
		TEST_CHECK_EQ(info.level, 1);
		TEST_CHECK_EQ(info.page_size, PG4K);
		dereg_check(&e, mr);
		tpbl_ext_destroy(&x);
	}
	/* 2 MB pages, scattered: level 1 at 2 MB. */
	TEST_CHECK_EQ(tpbl_ext_make(&x, 4, RTE_PGSIZE_2M, TPBL_DESCENDING, 0, &hook), 0);
	if (x.va != NULL) {
		mr = reg_check(&e, &x, x.va, 4 * RTE_PGSIZE_2M, 0, &info);
		TEST_CHECK_EQ(info.level, 1);
		TEST_CHECK_EQ(info.page_size, RTE_PGSIZE_2M);
		dereg_check(&e, mr);
		tpbl_ext_destroy(&x);
	}
	test_env_down(&e);
}

#define FILL_PAGES 600u
#define FILL_MAX 256u
#define L2_PAGES 1500u

/* Level 2: fragment the PBLE pool with level-1 MRs so that no run of L2_PAGES is left. */
static void
test_mr_level2(void)
{
	struct rdmadev_mr *fill[FILL_MAX];
	struct irdma_model_mr_info info;
	struct rdmadev_stats st0, st1;
	struct pbl_dma_hook hook;
	struct rdmadev_mr *mr;
	struct tpbl_ext x;
	unsigned int n, i;
	struct test_env e;
	int rc = 0;

	if (mr_env_up(&e) != 0) {
		test_env_down(&e);
		return;
	}
	hook = pmd_dma_hook(e.hw);
	TEST_CHECK_EQ(tpbl_ext_make(&x, 2048, PG4K, TPBL_DESCENDING, 0, &hook), 0);
	if (x.va == NULL) {
		test_env_down(&e);
		return;
	}
	memset(fill, 0, sizeof(fill));
	for (n = 0; n < FILL_MAX; n++) {
		const struct rdmadev_mr_attr a = {
			.addr = x.va, .length = FILL_PAGES * PG4K,
			.iova = (uint64_t)(uintptr_t)x.va,
		};

		rc = rdmadev_mr_reg(e.pd, &a, &fill[n]);
		if (rc != 0)
			break;
		TEST_CHECK_EQ(irdma_model_mr_get(e.hw, rdmadev_obj_id(&fill[n]->obj), &info), 0);
		if (info.level != 1) {
			/* The tail of the pool held a level-2 tree: that is full enough. */
			dereg_check(&e, fill[n]);
			fill[n] = NULL;
			break;
		}
	}
	/* The pool ran out (or only a tree fitted): a failure left nothing behind. */
	TEST_CHECK(rc == -ENOMEM || rc == 0);
	TEST_CHECK(n >= 6);
	TEST_CHECK_EQ(mr_live(&e), (int)n);
	/* Every other MR goes: holes of FILL_PAGES PBLEs, none long enough for L2_PAGES. */
	for (i = 1; i < n; i += 2) {
		dereg_check(&e, fill[i]);
		fill[i] = NULL;
	}
	TEST_CHECK_EQ(rdmadev_stats_get((int16_t)e.id, &st0), 0);
	mr = reg_check(&e, &x, x.va + 7, L2_PAGES * PG4K - 7, RDMADEV_ACCESS_LOCAL_WRITE, &info);
	TEST_CHECK_EQ(info.level, 2);
	TEST_CHECK_EQ(rdmadev_stats_get((int16_t)e.id, &st1), 0);
	TEST_CHECK_EQ(st1.created[RDMADEV_OBJ_MR], st0.created[RDMADEV_OBJ_MR] + 1);
	dereg_check(&e, mr);
	for (i = 0; i < n; i += 2)
		dereg_check(&e, fill[i]);
	tpbl_ext_destroy(&x);
	test_env_down(&e);
}

/* Fast registration: ALLOC_STAG with a level-1 run of max_pages PBLEs. */
static void
test_mr_fast_reg(void)
{
	struct irdma_model_mr_info info;
	struct rdmadev_mr *mr = NULL;
	rte_iova_t iova;
	struct test_env e;

	if (mr_env_up(&e) == 0) {
		TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(e.pd, 256, &mr), 0);
		if (mr != NULL) {
			TEST_CHECK_EQ(mr->lkey, mr->rkey);
			TEST_CHECK_EQ(mr->lkey >> 8, rdmadev_obj_id(&mr->obj));
			TEST_CHECK_EQ(irdma_model_mr_get(e.hw, mr->lkey >> 8, &info), 0);
			TEST_CHECK_EQ(info.state, IRDMA_MODEL_STAG_ALLOCATED);
			TEST_CHECK_EQ(info.level, 1);
			TEST_CHECK_EQ(info.max_pages, 256);
			TEST_CHECK_EQ(info.len, 256 * PG4K);
			TEST_CHECK_EQ(info.pd, rdmadev_obj_id(&e.pd->obj));
			/* Not valid for the data path until a fast-register. */
			TEST_CHECK_EQ(irdma_model_mr_translate(e.hw, mr->lkey, 0, &iova), -ENOENT);
			dereg_check(&e, mr);
		}
		/* DMA MRs are not supported. */
		mr = NULL;
		TEST_CHECK_EQ(rdmadev_mr_reg_dma(e.pd, 0, &mr), -ENOTSUP);
		TEST_CHECK(mr == NULL);
	}
	test_env_down(&e);
}

/* REG_MR and DEALLOC_STAG refused by the device: clean failure, nothing leaked. */
static void
test_mr_faults(void)
{
	struct irdma_model_mr_info info, again;
	struct rdmadev_stats st0, st1;
	struct pbl_dma_hook hook;
	struct rdmadev_mr *mr, *bad = NULL;
	struct rdmadev_mr_attr a;
	struct tpbl_ext x;
	struct test_env e;
	int live;

	if (mr_env_up(&e) != 0) {
		test_env_down(&e);
		return;
	}
	hook = pmd_dma_hook(e.hw);
	TEST_CHECK_EQ(tpbl_ext_make(&x, 100, PG4K, TPBL_DESCENDING, 0, &hook), 0);
	if (x.va == NULL) {
		test_env_down(&e);
		return;
	}
	a = (struct rdmadev_mr_attr){
		.addr = x.va, .length = 100 * PG4K, .iova = (uint64_t)(uintptr_t)x.va,
	};
	mr = reg_check(&e, &x, x.va, 100 * PG4K, 0, &info);
	dereg_check(&e, mr);
	/* REG_MR fails: -EIO, no MR in restrack, its PBLEs are free again (first fit). */
	live = mr_live(&e);
	TEST_CHECK_EQ(rdmadev_stats_get((int16_t)e.id, &st0), 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, IRDMA_CQP_OP_REG_MR, 1,
						   IRDMA_CQP_MAJ_ERROR, 0x1), 0);
	TEST_CHECK_EQ(rdmadev_mr_reg(e.pd, &a, &bad), -EIO);
	TEST_CHECK(bad == NULL);
	TEST_CHECK_EQ(mr_live(&e), live);
	TEST_CHECK_EQ(rdmadev_stats_get((int16_t)e.id, &st1), 0);
	TEST_CHECK_EQ(st1.created[RDMADEV_OBJ_MR], st0.created[RDMADEV_OBJ_MR]);
	TEST_CHECK_EQ(st1.driver_errors, st0.driver_errors + 1);
	mr = reg_check(&e, &x, x.va, 100 * PG4K, 0, &again);
	TEST_CHECK_EQ(again.first_pble, info.first_pble);
	/* DEALLOC_STAG fails: the MR stays registered and usable, then goes. */
	if (mr != NULL) {
		TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, IRDMA_CQP_OP_DEALLOC_STAG, 1,
							   IRDMA_CQP_MAJ_ERROR, 0x1), 0);
		TEST_CHECK_EQ(rdmadev_mr_dereg(mr), -EIO);
		TEST_CHECK_EQ(irdma_model_mr_get(e.hw, mr->lkey >> 8, &again), 0);
		TEST_CHECK_EQ(mr_live(&e), live + 1);
		dereg_check(&e, mr);
	}
	/* ALLOC_STAG fails the same way. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, IRDMA_CQP_OP_ALLOC_STAG, 1,
						   IRDMA_CQP_MAJ_ERROR, 0x1), 0);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(e.pd, 16, &bad), -EIO);
	TEST_CHECK_EQ(mr_live(&e), live);
	tpbl_ext_destroy(&x);
	test_env_down(&e);
}

/* Application memory EAL does not know: the driver registers and DMA-maps it itself. */
static void
test_mr_malloc(void)
{
	struct irdma_model_mr_info info;
	struct irdma_model_stats st0, st1;
	struct rdmadev_mr *mr;
	uint8_t *buf;
	struct test_env e;

	if (rte_eal_iova_mode() != RTE_IOVA_VA) {
		printf("# skipped: IOVA-as-PA needs /proc/self/pagemap for malloc'd memory\n");
		return;
	}
	buf = aligned_alloc(PG4K, 16 * PG4K);
	TEST_CHECK(buf != NULL);
	if (buf == NULL)
		return;
	memset(buf, 0, 16 * PG4K);
	if (mr_env_up(&e) == 0) {
		memset(&st0, 0, sizeof(st0));
		memset(&st1, 0, sizeof(st1));
		TEST_CHECK_EQ(irdma_model_stats_get(e.hw, &st0), 0);
		mr = reg_check(&e, NULL, buf + 10, 15 * PG4K, RDMADEV_ACCESS_LOCAL_WRITE, &info);
		TEST_CHECK_EQ(irdma_model_stats_get(e.hw, &st1), 0);
		TEST_CHECK(st1.dma_maps > st0.dma_maps);
		dereg_check(&e, mr);
		/* REG_MR refused: the registration is undone too. */
		TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, IRDMA_CQP_OP_REG_MR, 1,
							   IRDMA_CQP_MAJ_ERROR, 0x1), 0);
		{
			const struct rdmadev_mr_attr a = {
				.addr = buf, .length = PG4K, .iova = (uint64_t)(uintptr_t)buf,
			};

			mr = NULL;
			TEST_CHECK_EQ(rdmadev_mr_reg(e.pd, &a, &mr), -EIO);
		}
		TEST_CHECK(rte_mem_virt2memseg_list(buf) == NULL);
	}
	test_env_down(&e);
	free(buf);
}

/* The model's refusals of malformed STag commands, through a bare control path. */
static void
test_model_strict(void)
{
	const struct irdma_hmc_request req = { .qps = 1024, .cqs = 2048, .mrs = 64 };
	struct irdma_cqp_cmpl cmpl;
	struct irdma_dma_mem page;
	struct irdma_cqp_wqe w;
	struct irdma_ctrl c;
	struct irdma_hw hw;

	pmd_raw_up(&hw, &c, &req);
	TEST_CHECK_EQ(irdma_dma_alloc(&c, &page, PG4K, PG4K), 0);

#define REG(idx, pd, len, rights, rem, hp, lpbl, pa, first)				\
	do {										\
		irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_REG_MR);				\
		irdma_set(&w, CQP_STAG_IDX, (idx));					\
		irdma_set(&w, CQP_STAG_KEY, 0x5a);					\
		irdma_set(&w, CQP_STAG_PDID, (pd));					\
		irdma_set(&w, CQP_STAG_LEN, (len));					\
		irdma_set(&w, CQP_STAG_ARIGHTS, (rights));				\
		irdma_set(&w, CQP_STAG_REMACCENABLED, (rem));				\
		irdma_set(&w, CQP_STAG_HPAGESIZE, (hp));				\
		irdma_set(&w, CQP_LPBLSIZE, (lpbl));					\
		irdma_set(&w, CQP_STAG_PA, (pa));					\
		irdma_set(&w, CQP_STAG_FIRST_PBLIDX, (first));				\
		irdma_set(&w, CQP_STAG_MR, 1);						\
		irdma_set(&w, CQP_STAG_VA_FBO, 0x10000);				\
		irdma_set(&w, CQP_STAG_VABASEDTO, 1);					\
	} while (0)
#define EXPECT_MINOR(m)									\
	do {										\
		memset(&cmpl, 0, sizeof(cmpl));						\
		TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, &cmpl), -EIO);			\
		TEST_CHECK_EQ(cmpl.minor, (m));						\
	} while (0)

	/* Index 0 and beyond the committed count. */
	REG(0, 3, PG4K, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_ID);
	REG(64, 3, PG4K, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_ID);
	/* Lengths 0 and above 32 TiB, a bad page size, a bad level, misaligned PA. */
	REG(5, 3, 0, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	REG(5, 3, IRDMA_MAX_MR_SIZE + 1, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova,
	    0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	REG(5, 3, PG4K, 1, 0, 3, IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	REG(5, 3, PG4K, 1, 0, IRDMA_HPAGE_4K, 2, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	REG(5, 3, PG4K, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova + 8, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_ALIGN);
	/* Remote write without local write; REMACCENABLED disagreeing with the rights. */
	REG(5, 3, PG4K, IRDMA_ACCESS_LOCAL_READ | IRDMA_ACCESS_REMOTE_WRITE, 1, IRDMA_HPAGE_4K,
	    IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	REG(5, 3, PG4K, IRDMA_ACCESS_LOCAL_READ | IRDMA_ACCESS_REMOTE_READ, 0, IRDMA_HPAGE_4K,
	    IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	/* A PBLE run beyond the PBLE object (PD ids fill the 18-bit field: all valid). */
	REG(5, 3, 2 * PG4K, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_L1, 0,
	    IRDMA_HMC_PBLE_COUNT - 1);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_PBLE);
	/* A good one, then the same index again. */
	REG(5, 3, PG4K, 1, 0, IRDMA_HPAGE_4K, IRDMA_PBL_CHUNK_PHYS, page.iova, 0);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_OBJ_EXISTS);
	/* DEALLOC_STAG: another PD, an unknown index, then the right one, then again. */
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DEALLOC_STAG);
	irdma_set(&w, CQP_STAG_IDX, 5);
	irdma_set(&w, CQP_STAG_PDID, 4);
	irdma_set(&w, CQP_STAG_MR, 1);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	irdma_set(&w, CQP_STAG_IDX, 6);
	EXPECT_MINOR(IRDMA_MODEL_MIN_NO_OBJ);
	irdma_set(&w, CQP_STAG_IDX, 5);
	irdma_set(&w, CQP_STAG_PDID, 3);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), 0);
	EXPECT_MINOR(IRDMA_MODEL_MIN_NO_OBJ);
	/* ALLOC_STAG carries no key and needs a PBLE run. */
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_ALLOC_STAG);
	irdma_set(&w, CQP_STAG_IDX, 7);
	irdma_set(&w, CQP_STAG_KEY, 1);
	irdma_set(&w, CQP_STAG_PDID, 3);
	irdma_set(&w, CQP_STAG_LEN, 4 * PG4K);
	irdma_set(&w, CQP_STAG_ARIGHTS, IRDMA_ACCESS_LOCAL_READ);
	irdma_set(&w, CQP_LPBLSIZE, IRDMA_PBL_CHUNK_L1);
	irdma_set(&w, CQP_STAG_MR, 1);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	irdma_set(&w, CQP_STAG_KEY, 0);
	irdma_set(&w, CQP_LPBLSIZE, IRDMA_PBL_CHUNK_PHYS);
	EXPECT_MINOR(IRDMA_MODEL_MIN_BAD_FIELD);
	irdma_set(&w, CQP_LPBLSIZE, IRDMA_PBL_CHUNK_L1);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), 0);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DEALLOC_STAG);
	irdma_set(&w, CQP_STAG_IDX, 7);
	irdma_set(&w, CQP_STAG_PDID, 3);
	irdma_set(&w, CQP_STAG_MR, 1);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), 0);
#undef REG
#undef EXPECT_MINOR

	irdma_dma_free(&c, &page);
	pmd_raw_down(&hw, &c);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_mr") < 0)
		return test_eal_bail();
	TEST_RUN(test_pd);
	TEST_RUN(test_mr_eal);
	TEST_RUN(test_mr_ext_levels);
	TEST_RUN(test_mr_level2);
	TEST_RUN(test_mr_fast_reg);
	TEST_RUN(test_mr_faults);
	TEST_RUN(test_mr_malloc);
	TEST_RUN(test_model_strict);
	rte_eal_cleanup();
	return test_done();
}
