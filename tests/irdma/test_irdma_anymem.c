/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Any process memory as MRs, end to end on the device model: malloc'd (unaligned),
 * anonymous mmap, file-backed mmap, stack and static buffers, and memory put into EAL's
 * tables without a DMA map (rte_extmem_register, pbl_mem_register without a hook) on either
 * side of an RDMA
 * WRITE, an RDMA READ and a SEND, every byte checked against the source. Then the
 * application memory table's rules through the model's IOMMU view: overlapping and repeated
 * registrations share the DMA map, which goes with the last of them in either order; a
 * deregistered region's rkey no longer reaches the memory. Bad input: NULL, zero length, a
 * range that wraps, an unmapped page, a range straddling EAL memory. Built once per model
 * mode.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <pbl.h>
#include <rdmadev.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "e2e_lib.h"
#include "test.h"

#define PG 4096u
/* Buffer length: three pages and an odd tail, so buffers straddle pages unaligned. */
#define BUF_LEN (3 * PG + 123)

enum kind {
	K_MALLOC,
	K_MMAP_ANON,
	K_MMAP_FILE,
	K_STACK,
	K_STATIC,
	K_EXTMEM,	/* rte_extmem_register()ed (IOVA = VA), not DMA-mapped by anyone */
	K_PBL_NOHOOK,	/* pbl_mem_register()ed without a DMA hook */
	K_COUNT,
};

static const char *const kind_name[K_COUNT] = {
	"malloc", "mmap-anon", "mmap-file", "stack", "static", "extmem", "pbl-nohook",
};

/* Static buffers of both sides (odd offsets into them keep them unaligned). */
static uint8_t static_a[BUF_LEN + 64];
static uint8_t static_b[BUF_LEN + 64];

struct abuf {
	enum kind kind;
	uint8_t *p;		/* the registered bytes */
	void *base;		/* what to free or unmap */
	size_t maplen;
	int fd;
	struct rdmadev_mr *mr;
	uint32_t lkey, rkey;
};

/* Place a buffer of @p kind; @p stack is the caller's stack array for K_STACK. */
static int
abuf_make(struct abuf *b, enum kind k, uint8_t *stack, uint8_t *stat)
{
	char path[] = "/tmp/irdma_anymem_XXXXXX";

	memset(b, 0, sizeof(*b));
	b->kind = k;
	b->fd = -1;
	switch (k) {
	case K_MALLOC:
		b->base = malloc(BUF_LEN + 7);
		b->p = b->base != NULL ? (uint8_t *)b->base + 7 : NULL;
		break;
	case K_MMAP_ANON:
		b->maplen = 4 * PG;
		b->base = mmap(NULL, b->maplen, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		b->p = b->base != MAP_FAILED ? (uint8_t *)b->base + 100 : NULL;
		break;
	case K_MMAP_FILE:
		b->maplen = 4 * PG;
		b->fd = mkstemp(path);
		if (b->fd < 0 || unlink(path) != 0 || ftruncate(b->fd, (off_t)b->maplen) != 0)
			break;
		b->base = mmap(NULL, b->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
		b->p = b->base != MAP_FAILED ? (uint8_t *)b->base + 300 : NULL;
		break;
	case K_STACK:
		b->p = stack + 5;
		break;
	case K_STATIC:
		b->p = stat + 11;
		break;
	case K_EXTMEM:
	case K_PBL_NOHOOK: {
		rte_iova_t iovas[4];
		unsigned int i;

		b->maplen = 4 * PG;
		b->base = mmap(NULL, b->maplen, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b->base == MAP_FAILED)
			break;
		for (i = 0; i < 4; i++)
			iovas[i] = (rte_iova_t)(uintptr_t)b->base + i * PG;
		if (k == K_EXTMEM)
			TEST_CHECK_EQ(rte_extmem_register(b->base, b->maplen, iovas, 4, PG), 0);
		else
			TEST_CHECK_EQ(pbl_mem_register(b->base, b->maplen, iovas, 4, PG, NULL), 0);
		b->p = (uint8_t *)b->base + 200;
		break;
	}
	default:
		break;
	}
	TEST_CHECK(b->p != NULL);
	if (b->p == NULL)
		return -1;
	memset(b->p, 0, BUF_LEN);
	return 0;
}

static void
abuf_free(struct abuf *b)
{
	if (b->mr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(b->mr), 0);
	b->mr = NULL;
	if (b->kind == K_MALLOC) {
		free(b->base);
	} else if (b->base != NULL && b->base != MAP_FAILED) {
		if (b->kind == K_EXTMEM)
			TEST_CHECK_EQ(rte_extmem_unregister(b->base, b->maplen), 0);
		else if (b->kind == K_PBL_NOHOOK)
			TEST_CHECK_EQ(pbl_mem_unregister(b->base, b->maplen), 0);
		munmap(b->base, b->maplen);
	}
	if (b->fd >= 0)
		close(b->fd);
	b->p = NULL;
}

static int
abuf_reg(struct abuf *b, struct rdmadev_pd *pd)
{
	const struct rdmadev_mr_attr a = {
		.addr = b->p, .length = BUF_LEN, .iova = (uint64_t)(uintptr_t)b->p,
		.access = E2E_ACC_ALL,
	};
	int ret = rdmadev_mr_reg(pd, &a, &b->mr);

	TEST_CHECK_EQ(ret, 0);
	if (ret != 0)
		return ret;
	b->lkey = rdmadev_mr_lkey(b->mr);
	b->rkey = rdmadev_mr_rkey(b->mr);
	return 0;
}

static void
rdma(struct e2e_qp *q, uint8_t op, const struct abuf *l, uint32_t loff, uint32_t len,
     const struct abuf *r, uint32_t roff, uint64_t id)
{
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s = { (uint64_t)(uintptr_t)(l->p + loff), len, l->lkey };

	e2e_wr_init(&wr, id, op, &s, 1);
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)(r->p + roff);
	wr.rdma.rkey = r->rkey;
	e2e_send(q, &wr);
}

/* WRITE a -> b, READ b -> a and SEND a -> b between buffers of kinds ka and kb. */
static void
one_pair(struct e2e_dev *da, struct e2e_dev *db, struct e2e_qp *qa, struct e2e_qp *qb,
	 enum kind ka, enum kind kb, uint64_t seed)
{
	uint8_t stack_a[BUF_LEN + 64], stack_b[BUF_LEN + 64];
	uint8_t expect[BUF_LEN];
	struct abuf a, b;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;
	int before = test_case_failures;

	if (abuf_make(&a, ka, stack_a, static_a) != 0 || abuf_make(&b, kb, stack_b, static_b) != 0)
		goto out;
	if (abuf_reg(&a, da->pd) != 0 || abuf_reg(&b, db->pd) != 0)
		goto out;

	/* WRITE: all of a to b, across every page boundary of both. */
	e2e_fill(a.p, BUF_LEN, seed);
	rdma(qa, RDMADEV_WR_RDMA_WRITE, &a, 0, BUF_LEN, &b, 0, 1);
	e2e_expect(&da->scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(b.p, a.p, BUF_LEN) == 0);

	/* READ: b's bytes (new ones) into a at an offset. */
	e2e_fill(b.p, BUF_LEN, seed + 1);
	memcpy(expect, b.p + 50, BUF_LEN - 100);
	rdma(qa, RDMADEV_WR_RDMA_READ, &a, 17, BUF_LEN - 100, &b, 50, 2);
	e2e_expect(&da->scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
	TEST_CHECK(memcmp(a.p + 17, expect, BUF_LEN - 100) == 0);

	/* SEND: a's first 4000 bytes into a receive at b + 1000. */
	e2e_fill(a.p, BUF_LEN, seed + 2);
	r = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(b.p + 1000), 5000, b.lkey };
	e2e_recv(qb, 10, &r, 1);
	s = (struct rdmadev_sge){ (uint64_t)(uintptr_t)a.p, 4000, a.lkey };
	e2e_wr_init(&wr, 3, RDMADEV_WR_SEND, &s, 1);
	e2e_send(qa, &wr);
	e2e_expect(&da->scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&db->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 10);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.byte_len, 4000);
	TEST_CHECK(memcmp(b.p + 1000, a.p, 4000) == 0);
out:
	if (test_case_failures != before)
		printf("# failed: %s -> %s\n", kind_name[ka], kind_name[kb]);
	abuf_free(&b);
	abuf_free(&a);
}

/* Every kind against every kind, two devices on a loop wire. */
static void
test_kinds(void)
{
	static struct e2e_dev d0, d1 = { .id = -1 };
	struct e2e_qp a = { 0 }, b = { 0 };
	unsigned int ka, kb;

	if (e2e_dev_open(&d0, E2E_DEVARGS(0, "loop:anymem1")) != 0 ||
	    e2e_dev_open(&d1, E2E_DEVARGS(1, "loop:anymem1")) != 0 ||
	    e2e_pair(&d0, &d1, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	for (ka = 0; ka < K_COUNT; ka++)
		for (kb = 0; kb < K_COUNT; kb++)
			one_pair(&d0, &d1, &a, &b, ka, kb, ka * 16 + kb);
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d0);
	e2e_drain(&d1);
	e2e_dev_close(&d1);
	e2e_dev_close(&d0);
}

static struct rdmadev_mr *
reg(struct rdmadev_pd *pd, void *addr, uint64_t len)
{
	const struct rdmadev_mr_attr a = {
		.addr = addr, .length = len, .iova = (uint64_t)(uintptr_t)addr,
		.access = E2E_ACC_ALL,
	};
	struct rdmadev_mr *mr = NULL;

	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &a, &mr), 0);
	return mr;
}

static struct pbl_umem_stats
umem_stats(struct e2e_dev *d)
{
	struct pbl_umem_stats st;

	pbl_umem_stats_get(irdma_dev_ctrl(rdmadev_get(d->id))->umem, &st);
	return st;
}

/* Whether the model's IOMMU view holds pages [first, first + n) of @p buf (IOVA = VA). */
static int
dev_sees(struct e2e_dev *d, const uint8_t *buf, unsigned int first, unsigned int n)
{
	return irdma_model_dma_mapped(irdma_dev_hw(rdmadev_get(d->id)),
				      (rte_iova_t)(uintptr_t)(buf + first * PG), n * PG);
}

/* WRITE 64 bytes of @p src to @p dst through @p rkey; the status it completes with. */
static enum rdmadev_wc_status
write_to(struct e2e_dev *d, struct e2e_qp *q, uint8_t *src, uint32_t lkey, uint8_t *dst,
	 uint32_t rkey, uint64_t id)
{
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s = { (uint64_t)(uintptr_t)src, 64, lkey };
	struct rdmadev_wc wc;

	e2e_wr_init(&wr, id, RDMADEV_WR_RDMA_WRITE, &s, 1);
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)dst;
	wr.rdma.rkey = rkey;
	e2e_send(q, &wr);
	TEST_CHECK(e2e_next(&d->scq, &wc));
	TEST_CHECK_EQ(wc.wr_id, id);
	return wc.status;
}

/*
 * Overlapping and repeated registrations share pieces; the map goes with the last MR over
 * it, whichever order they go in; a dead rkey does not reach the memory.
 */
static void
test_overlap(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 }, c = { 0 }, e = { 0 };
	struct rdmadev_mr *m1, *m2, *m3, *src;
	struct pbl_umem_stats st0, st;
	uint8_t *buf, *lsrc, save[64];
	uint64_t unmaps0;
	uint32_t rkey3;

	/* inside one PBL_UMEM_CHUNK, so that each gap is one piece */
	if (posix_memalign((void **)&buf, PBL_UMEM_CHUNK, 8 * PG) != 0)
		buf = NULL;
	lsrc = malloc(PG);
	TEST_CHECK(buf != NULL && lsrc != NULL);
	if (buf == NULL || lsrc == NULL || e2e_dev_open(&d, E2E_DEVARGS(0, "loop:anymem2")) != 0 ||
	    e2e_pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	memset(buf, 0, 8 * PG);
	e2e_fill(lsrc, PG, 3);
	src = reg(d.pd, lsrc, PG);
	st0 = umem_stats(&d);
	unmaps0 = E2E_STAT(&d, dma_unmaps);

	/* pages 0-2, then 1-4 (one new piece: pages 3-4), then 0-2 again (nothing new) */
	m1 = reg(d.pd, buf + 10, 3 * PG - 20);
	m2 = reg(d.pd, buf + PG, 4 * PG);
	m3 = reg(d.pd, buf + 10, 3 * PG - 20);
	if (m1 == NULL || m2 == NULL || m3 == NULL || src == NULL)
		goto out;
	st = umem_stats(&d);
	TEST_CHECK_EQ(st.regs, st0.regs + 3);
	TEST_CHECK_EQ(st.maps, st0.maps + 2);
	TEST_CHECK_EQ(st.pieces, st0.pieces + 2);
	TEST_CHECK_EQ(st.mapped_bytes, st0.mapped_bytes + 5 * PG);
	TEST_CHECK_EQ(dev_sees(&d, buf, 0, 5), 1);
	TEST_CHECK_EQ(dev_sees(&d, buf, 5, 1), 0);

	/* m1 goes first: m3 keeps pages 0-2 mapped, m2 keeps 3-4 */
	TEST_CHECK_EQ(rdmadev_mr_dereg(m1), 0);
	TEST_CHECK_EQ(E2E_STAT(&d, dma_unmaps), unmaps0);
	TEST_CHECK_EQ(dev_sees(&d, buf, 0, 5), 1);
	TEST_CHECK_EQ(write_to(&d, &a, lsrc, rdmadev_mr_lkey(src), buf + 100,
			       rdmadev_mr_rkey(m3), 1), RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(buf + 100, lsrc, 64) == 0);
	TEST_CHECK_EQ(write_to(&d, &a, lsrc + 64, rdmadev_mr_lkey(src), buf + 4 * PG + 7,
			       rdmadev_mr_rkey(m2), 2), RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(buf + 4 * PG + 7, lsrc + 64, 64) == 0);

	/* m2 next: pages 3-4 go (its own piece), 0-2 stay for m3 */
	TEST_CHECK_EQ(rdmadev_mr_dereg(m2), 0);
	st = umem_stats(&d);
	TEST_CHECK_EQ(st.pieces, st0.pieces + 1);
	TEST_CHECK_EQ(st.mapped_bytes, st0.mapped_bytes + 3 * PG);
	TEST_CHECK_EQ(E2E_STAT(&d, dma_unmaps), unmaps0 + 1);
	TEST_CHECK_EQ(dev_sees(&d, buf, 0, 3), 1);
	TEST_CHECK_EQ(dev_sees(&d, buf, 3, 1), 0);
	TEST_CHECK_EQ(dev_sees(&d, buf, 4, 1), 0);
	TEST_CHECK_EQ(write_to(&d, &a, lsrc + 128, rdmadev_mr_lkey(src), buf + 2 * PG,
			       rdmadev_mr_rkey(m3), 3), RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(buf + 2 * PG, lsrc + 128, 64) == 0);

	/* m3 last: everything goes; its rkey then reaches nothing (on a fresh pair) */
	rkey3 = rdmadev_mr_rkey(m3);
	TEST_CHECK_EQ(rdmadev_mr_dereg(m3), 0);
	st = umem_stats(&d);
	TEST_CHECK_EQ(st.pieces, st0.pieces);
	TEST_CHECK_EQ(st.mapped_bytes, st0.mapped_bytes);
	TEST_CHECK_EQ(st.regs, st0.regs);
	TEST_CHECK_EQ(E2E_STAT(&d, dma_unmaps), unmaps0 + 2);
	TEST_CHECK_EQ(dev_sees(&d, buf, 0, 1), 0);
	TEST_CHECK_EQ(dev_sees(&d, buf, 2, 1), 0);
	if (e2e_pair(&d, &d, &c, &e, E2E_ACC_ALL) == 0) {
		memcpy(save, buf + 100, sizeof(save));
		TEST_CHECK_EQ(write_to(&d, &c, lsrc + 256, rdmadev_mr_lkey(src), buf + 100,
				       rkey3, 4), RDMADEV_WC_REM_ACCESS_ERR);
		TEST_CHECK(memcmp(buf + 100, save, sizeof(save)) == 0);
	}
	TEST_CHECK_EQ(rdmadev_mr_dereg(src), 0);
	TEST_CHECK_EQ(umem_stats(&d).pieces, 0);
	TEST_CHECK_EQ(umem_stats(&d).regs, 0);
out:
	e2e_unpair(&a, &b);
	e2e_unpair(&c, &e);
	e2e_drain(&d);
	e2e_dev_close(&d);
	free(lsrc);
	free(buf);
}

static int
reg_rc(struct rdmadev_pd *pd, void *addr, uint64_t len)
{
	const struct rdmadev_mr_attr a = {
		.addr = addr, .length = len, .iova = (uint64_t)(uintptr_t)addr,
		.access = RDMADEV_ACCESS_LOCAL_WRITE,
	};
	struct rdmadev_mr *mr = NULL;
	int ret = rdmadev_mr_reg(pd, &a, &mr);

	if (ret == 0)
		TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	return ret;
}

/* Bad ranges: a negative errno, nothing mapped, nothing leaked. */
static void
test_bad_input(void)
{
	static struct e2e_dev d;
	uint8_t *map, *eal;
	struct rdmadev_mr_attr a;
	struct rdmadev_mr *mr = NULL;

	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:anymem3")) != 0)
		goto out;
	memset(&a, 0, sizeof(a));
	a.length = PG;
	TEST_CHECK_EQ(rdmadev_mr_reg(d.pd, &a, &mr), -EINVAL);		/* NULL address */
	TEST_CHECK_EQ(rdmadev_mr_reg(d.pd, NULL, &mr), -EINVAL);	/* NULL attributes */
	TEST_CHECK(mr == NULL);
	TEST_CHECK_EQ(reg_rc(d.pd, static_a, 0), -EINVAL);		/* zero length */
	/* a range that wraps the address space (IOVA 0, so only the VA wraps) */
	a.addr = (void *)(uintptr_t)(UINT64_MAX - PG + 1);
	a.length = 2 * PG;
	a.iova = 0;
	a.access = RDMADEV_ACCESS_LOCAL_WRITE;
	TEST_CHECK_EQ(rdmadev_mr_reg(d.pd, &a, &mr), -EINVAL);
	/* unmapped pages: the middle page of three, then all three */
	map = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		TEST_CHECK_EQ(munmap(map + PG, PG), 0);
		TEST_CHECK_EQ(reg_rc(d.pd, map + 8, 3 * PG - 16), -EFAULT);
		TEST_CHECK_EQ(reg_rc(d.pd, map, PG), 0);
		munmap(map, 3 * PG);
		TEST_CHECK_EQ(reg_rc(d.pd, map, 3 * PG), -EFAULT);
	}
	/* Read-only memory: refused for any write right, taken for reads (what VFIO's pin
	 * does); the same with one read-only page in the middle of three writable ones. Without
	 * the check the model's view would write the read-only pages: SIGSEGV. */
	map = mmap(NULL, 3 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_CHECK(map != MAP_FAILED);
	if (map != MAP_FAILED) {
		/* (gen2 has no atomics: REMOTE_ATOMIC is refused before the memory is seen) */
		static const uint32_t wr[] = { RDMADEV_ACCESS_LOCAL_WRITE,
			RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_LOCAL_WRITE,
			RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ };
		unsigned int k;

		memset(&a, 0, sizeof(a));
		a.addr = map;
		a.length = 3 * PG;
		a.iova = (uint64_t)(uintptr_t)map;
		for (k = 0; k < RTE_DIM(wr); k++) {
			a.access = wr[k];
			mr = NULL;
			TEST_CHECK_EQ(rdmadev_mr_reg(d.pd, &a, &mr), -EFAULT);
			TEST_CHECK(mr == NULL);
		}
		a.access = RDMADEV_ACCESS_REMOTE_READ;
		TEST_CHECK_EQ(rdmadev_mr_reg(d.pd, &a, &mr), 0);
		if (mr != NULL)
			TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
		TEST_CHECK_EQ(mprotect(map, 3 * PG, PROT_READ | PROT_WRITE), 0);
		TEST_CHECK_EQ(mprotect(map + PG, PG, PROT_READ), 0);
		TEST_CHECK_EQ(reg_rc(d.pd, map + 8, 3 * PG - 16), -EFAULT);
		TEST_CHECK_EQ(reg_rc(d.pd, map, PG), 0);
		TEST_CHECK_EQ(reg_rc(d.pd, map + 2 * PG, PG), 0);
		munmap(map, 3 * PG);
	}
	/* EAL memory still takes EAL's path: no piece */
	eal = rte_malloc("anymem", 4 * PG, PG);
	TEST_CHECK(eal != NULL);
	if (eal != NULL) {
		TEST_CHECK_EQ(reg_rc(d.pd, eal, 4 * PG), 0);
		rte_free(eal);
	}
	TEST_CHECK_EQ(umem_stats(&d).pieces, 0);
	TEST_CHECK_EQ(umem_stats(&d).regs, 0);
out:
	e2e_dev_close(&d);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_anymem") < 0)
		return test_eal_bail();
	TEST_RUN(test_kinds);
	TEST_RUN(test_overlap);
	TEST_RUN(test_bad_input);
	rte_eal_cleanup();
	return test_done();
}
