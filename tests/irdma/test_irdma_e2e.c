/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data path end to end: WRs posted through rdmadev_post_send / rdmadev_post_recv (the
 * irdma PMD's own WQE encoder), executed by the device model, completions read through
 * rdmadev_poll_cq. Every gen2 opcode between two RC QPs (one device on a loop wire, and two
 * devices on one loop switch) and over UD, data checked byte for byte; READ sizes across
 * path MTUs; inline lengths and SGE counts; unsignaled WRs, ordering, fences; CQ arming;
 * every error path with exactly one completion per signaled WR; restrack clean at the end.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "test.h"
#include "e2e_lib.h"

#define MR_LEN	(64u * 1024u)

/* Drop every collected completion of @p d. */
static void
drain(struct e2e_dev *d)
{
	(void)e2e_idle(&d->scq, 64);
	d->scq.head = d->scq.tail;
	d->rcq.head = d->rcq.tail;
}

/* Fast-register @p fmr over the 4 pages at @p m's start with @p key; b's SQ completes it. */
static void
fast_reg(struct e2e_qp *b, struct rdmadev_mr *fmr, const struct e2e_mr *m, uint8_t key,
	 uint64_t id)
{
	struct rdmadev_send_wr wr;
	uint64_t pages[4];
	unsigned int i;

	for (i = 0; i < 4; i++)
		pages[i] = rte_mem_virt2iova(m->buf + 4096 * i);
	e2e_wr_init(&wr, id, RDMADEV_WR_FAST_REG, NULL, 0);
	wr.fast_reg.mr = fmr;
	wr.fast_reg.page_list = pages;
	wr.fast_reg.nb_pages = 4;
	wr.fast_reg.page_shift = 12;
	wr.fast_reg.iova = (uint64_t)(uintptr_t)m->buf;
	wr.fast_reg.length = 4 * 4096;
	wr.fast_reg.access = E2E_ACC_ALL;
	wr.fast_reg.key = key;
	e2e_send(b, &wr);
	e2e_expect(&b->dev->scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_REG_MR);
	TEST_CHECK_EQ(rdmadev_mr_rkey(fmr) & 0xff, key);
}

/* Every gen2 opcode from a to b (b on @p db), data checked. */
static void
rc_opcodes(struct e2e_dev *da, struct e2e_dev *db)
{
	struct e2e_mr ma, mb, fb;
	struct rdmadev_mr *fmr = NULL;
	struct e2e_qp a = { 0 }, b = { 0 }, c = { 0 }, e = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;
	uint32_t rkey;
	uint8_t save[64];

	e2e_mr_reg(da, NULL, &ma, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(db, NULL, &mb, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(db, NULL, &fb, 4 * 4096, E2E_ACC_ALL);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(db->pd, 4, &fmr), 0);
	e2e_qp_create(da, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(db, &b, RDMADEV_QPT_RC, NULL);
	if (ma.mr == NULL || mb.mr == NULL || fb.mr == NULL || fmr == NULL ||
	    e2e_rc_connect(&a, &b, NULL) != 0)
		goto out;
	e2e_fill(ma.buf, MR_LEN, 1);

	/* SEND, SEND_IMM, solicited SEND */
	s = e2e_sge(&ma, 0, 1000);
	r = e2e_sge(&mb, 0, 4096);
	e2e_recv(&b, 100, &r, 1);
	e2e_wr_init(&wr, 1, RDMADEV_WR_SEND, &s, 1);
	e2e_send(&a, &wr);
	e2e_expect(&da->scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&db->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 100);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(wc.byte_len, 1000);
	TEST_CHECK_EQ(wc.qp_num, b.qpn);
	TEST_CHECK_EQ(wc.wc_flags & (RDMADEV_WC_WITH_IMM | RDMADEV_WC_WITH_INV), 0);
	TEST_CHECK(memcmp(mb.buf, ma.buf, 1000) == 0);

	s = e2e_sge(&ma, 1000, 77);
	e2e_recv(&b, 101, &r, 1);
	e2e_wr_init(&wr, 2, RDMADEV_WR_SEND_IMM, &s, 1);
	wr.flags |= RDMADEV_SEND_SOLICITED;
	wr.imm_data = rte_cpu_to_be_32(0x12345678);
	e2e_send(&a, &wr);
	e2e_expect(&da->scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&db->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 101);
	TEST_CHECK_EQ(wc.byte_len, 77);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_IMM);
	TEST_CHECK_EQ(wc.imm_data, rte_cpu_to_be_32(0x12345678));
	TEST_CHECK(memcmp(mb.buf, ma.buf + 1000, 77) == 0);

	/* RDMA WRITE, WRITE with immediate (consumes a receive), READ */
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &ma, 2000, 5000,
		(uint64_t)(uintptr_t)mb.buf + 8192, mb.rkey, 3);
	e2e_expect(&da->scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(mb.buf + 8192, ma.buf + 2000, 5000) == 0);
	e2e_recv(&b, 102, &r, 1);
	s = e2e_sge(&ma, 300, 3000);
	e2e_wr_init(&wr, 4, RDMADEV_WR_RDMA_WRITE_IMM, &s, 1);
	wr.imm_data = rte_cpu_to_be_32(0xfeedf00d);
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)mb.buf + 20000;
	wr.rdma.rkey = mb.rkey;
	e2e_send(&a, &wr);
	e2e_expect(&da->scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(e2e_next(&db->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 102);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_RECV_RDMA_IMM);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_IMM);
	TEST_CHECK_EQ(wc.imm_data, rte_cpu_to_be_32(0xfeedf00d));
	TEST_CHECK(memcmp(mb.buf + 20000, ma.buf + 300, 3000) == 0);
	e2e_fill(mb.buf + 30000, 6000, 9);
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_READ, &ma, 40000, 6000,
		(uint64_t)(uintptr_t)mb.buf + 30000, mb.rkey, 5);
	e2e_expect(&da->scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
	TEST_CHECK(memcmp(ma.buf + 40000, mb.buf + 30000, 6000) == 0);

	/* NOP */
	e2e_wr_init(&wr, 6, RDMADEV_WR_NOP, NULL, 0);
	e2e_send(&a, &wr);
	e2e_expect(&da->scq, 6, RDMADEV_WC_SUCCESS, RDMADEV_WC_NOP);

	/* FAST_REG at b, then a writes and reads through the new key */
	fast_reg(&b, fmr, &fb, 0x5a, 7);
	rkey = rdmadev_mr_rkey(fmr);
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &ma, 100, 9000,
		(uint64_t)(uintptr_t)fb.buf + 5000, rkey, 8);
	e2e_expect(&da->scq, 8, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(fb.buf + 5000, ma.buf + 100, 9000) == 0);
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_READ, &ma, 50000, 9000,
		(uint64_t)(uintptr_t)fb.buf + 5000, rkey, 9);
	e2e_expect(&da->scq, 9, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
	TEST_CHECK(memcmp(ma.buf + 50000, ma.buf + 100, 9000) == 0);

	/* SEND_INV invalidates it at b: delivered with the key; FAST_REG again then works */
	e2e_recv(&b, 103, &r, 1);
	s = e2e_sge(&ma, 0, 16);
	e2e_wr_init(&wr, 10, RDMADEV_WR_SEND_INV, &s, 1);
	wr.invalidate_rkey = rkey;
	e2e_send(&a, &wr);
	e2e_expect(&da->scq, 10, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&db->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 103);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_INV);
	TEST_CHECK_EQ(wc.invalidated_rkey, rkey);
	/* really invalid: a WRITE through the key (on a second pair, which it breaks) fails */
	e2e_qp_create(da, &c, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(db, &e, RDMADEV_QPT_RC, NULL);
	if (c.qp != NULL && e.qp != NULL && e2e_rc_connect(&c, &e, NULL) == 0) {
		memcpy(save, fb.buf + 5000, sizeof(save));
		e2e_rdma_op(&c, RDMADEV_WR_RDMA_WRITE, &ma, 0, 64,
			(uint64_t)(uintptr_t)fb.buf + 5000, rkey, 15);
		e2e_expect(&da->scq, 15, RDMADEV_WC_REM_ACCESS_ERR, -1);
		TEST_CHECK(memcmp(fb.buf + 5000, save, sizeof(save)) == 0);
	}
	fast_reg(&b, fmr, &fb, 0x5b, 11);
	rkey = rdmadev_mr_rkey(fmr);
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &ma, 0, 64, (uint64_t)(uintptr_t)fb.buf, rkey, 12);
	e2e_expect(&da->scq, 12, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(fb.buf, ma.buf, 64) == 0);

	/* LOCAL_INV at b: the key is dead, a's WRITE through it fails and touches nothing */
	e2e_wr_init(&wr, 13, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr.invalidate_rkey = rkey;
	e2e_send(&b, &wr);
	e2e_expect(&db->scq, 13, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	TEST_CHECK_EQ(e2e_idle(&db->rcq, 100), 0);	/* WRITE / READ / NOP: no receive side */
	memcpy(save, fb.buf, sizeof(save));
	e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &ma, 5000, 64, (uint64_t)(uintptr_t)fb.buf, rkey,
		    14);
	e2e_expect(&da->scq, 14, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK(memcmp(fb.buf, save, sizeof(save)) == 0);
	TEST_CHECK(e2e_canary_ok(&fb) && e2e_canary_ok(&mb) && e2e_canary_ok(&ma));
	TEST_CHECK_EQ(e2e_idle(&da->scq, 100), 0);	/* exactly one completion each */
out:
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	e2e_qp_destroy(&c);
	e2e_qp_destroy(&e);
	drain(da);
	drain(db);
	if (fmr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(fmr), 0);
	e2e_mr_dereg(&fb);
	e2e_mr_dereg(&mb);
	e2e_mr_dereg(&ma);
}

static void
test_rc_opcodes_one_dev(void)
{
	static struct e2e_dev d;

	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:e2e1")) == 0)
		rc_opcodes(&d, &d);
	e2e_dev_close(&d);
}

static void
test_rc_opcodes_two_devs(void)
{
	static struct e2e_dev d0, d1 = { .id = -1 };

	if (e2e_dev_open(&d0, E2E_DEVARGS(0, "loop:e2e2")) == 0 &&
	    e2e_dev_open(&d1, E2E_DEVARGS(1, "loop:e2e2")) == 0)
		rc_opcodes(&d0, &d1);
	e2e_dev_close(&d1);
	e2e_dev_close(&d0);
}

/* A connected RC pair on @p d with connection @p c (NULL: default). */
static int pair_up(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b,
		   const struct e2e_conn *c);
static void pair_down(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b);

/*
 * FAST_REG with 4 KB, 2 MB and 1 GB pages (HPAGESIZE 0, 1, 2: the 1 GB code sets bit 47,
 * which is IMMDATAFLAG on data WQEs): one page covering a registered buffer, then an RDMA
 * WRITE through the new key, the bytes checked.
 */
static void
test_fast_reg_page_sizes(void)
{
	static const uint8_t shifts[] = { 12, 21, 30 };
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_mr *fmr = NULL;
	struct e2e_mr src, dst;
	unsigned int k;

	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:e2efr")) != 0)
		goto out;
	e2e_mr_reg(&d, NULL, &src, 4096, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, &dst, 4096, E2E_ACC_ALL);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(d.pd, 1, &fmr), 0);
	if (src.mr == NULL || dst.mr == NULL || fmr == NULL || pair_up(&d, &a, &b, NULL) != 0)
		goto out;
	for (k = 0; k < RTE_DIM(shifts); k++) {
		uint64_t iova = rte_mem_virt2iova(dst.buf), page = iova &
				~((UINT64_C(1) << shifts[k]) - 1);
		struct rdmadev_send_wr wr;
		struct rdmadev_sge sg = e2e_sge(&src, 0, 4096);

		e2e_wr_init(&wr, 10 + k, RDMADEV_WR_FAST_REG, NULL, 0);
		wr.fast_reg.mr = fmr;
		wr.fast_reg.page_list = &page;
		wr.fast_reg.nb_pages = 1;
		wr.fast_reg.page_shift = shifts[k];
		/* a VA-based region whose VA is the IOVA: the buffer sits at its own address */
		wr.fast_reg.iova = page;
		wr.fast_reg.length = (uint32_t)(iova - page) + 4096;
		wr.fast_reg.access = E2E_ACC_ALL;
		wr.fast_reg.key = (uint8_t)(0x40 + k);
		e2e_send(&b, &wr);
		e2e_expect(&d.scq, 10 + k, RDMADEV_WC_SUCCESS, RDMADEV_WC_REG_MR);
		e2e_fill(src.buf, 4096, 20 + k);
		memset(dst.buf, 0, 4096);
		e2e_wr_init(&wr, 20 + k, RDMADEV_WR_RDMA_WRITE, &sg, 1);
		wr.rdma.remote_addr = iova;
		wr.rdma.rkey = rdmadev_mr_rkey(fmr);
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 20 + k, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
		TEST_CHECK(memcmp(dst.buf, src.buf, 4096) == 0);
		/* LOCAL_INV, so the next FAST_REG finds the region invalid */
		e2e_wr_init(&wr, 30 + k, RDMADEV_WR_LOCAL_INV, NULL, 0);
		wr.invalidate_rkey = rdmadev_mr_rkey(fmr);
		e2e_send(&b, &wr);
		e2e_expect(&d.scq, 30 + k, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	}
out:
	pair_down(&d, &a, &b);
	if (fmr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(fmr), 0);
	e2e_mr_dereg(&src);
	e2e_mr_dereg(&dst);
	e2e_dev_close(&d);
}

/* A connected RC pair on @p d with connection @p c (NULL: default). */
static int
pair_up(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b, const struct e2e_conn *c)
{
	e2e_qp_create(d, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(d, b, RDMADEV_QPT_RC, NULL);
	if (a->qp == NULL || b->qp == NULL)
		return -1;
	return e2e_rc_connect(a, b, c);
}

static void
pair_down(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_qp_destroy(a);
	e2e_qp_destroy(b);
	drain(d);
}

/*
 * Open @p d from @p devargs with MRs @p m and (unless NULL) @p t of @p len and a connected
 * RC pair @p a / @p b on it; rig_down() undoes whatever was done, also after a failure.
 */
static int
rig_up(struct e2e_dev *d, const char *devargs, struct e2e_mr *m, struct e2e_mr *t,
       uint64_t len, struct e2e_qp *a, struct e2e_qp *b)
{
	memset(m, 0, sizeof(*m));
	if (t != NULL)
		memset(t, 0, sizeof(*t));
	if (e2e_dev_open(d, devargs) != 0)
		return -1;
	e2e_mr_reg(d, NULL, m, len, E2E_ACC_ALL);
	if (t != NULL)
		e2e_mr_reg(d, NULL, t, len, E2E_ACC_ALL);
	if (m->mr == NULL || (t != NULL && t->mr == NULL))
		return -1;
	return pair_up(d, a, b, NULL);
}

static void
rig_down(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b, struct e2e_mr *m,
	 struct e2e_mr *t)
{
	pair_down(d, a, b);
	e2e_mr_dereg(m);
	if (t != NULL)
		e2e_mr_dereg(t);
	e2e_dev_close(d);
}

/* READs of 1 B .. 1 MiB at every path MTU, data checked. */
static void
test_read_sizes_mtus(void)
{
	static const uint32_t sizes[] = { 1, 2, 255, 256, 257, 1023, 1024, 1025, 2048, 4095,
					  4096, 4097, 12345, 65536, 1u << 20 };
	static struct e2e_dev d;
	struct e2e_mr ml, mr;
	struct e2e_conn c;
	struct e2e_qp a = { 0 }, b = { 0 };
	uint32_t mtu;
	unsigned int i, bad = 0, done = 0;

	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:e2esz")) != 0)
		goto out_dev;
	e2e_mr_reg(&d, NULL, &ml, 1u << 20, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, &mr, 1u << 20, E2E_ACC_ALL);
	if (ml.mr == NULL || mr.mr == NULL)
		goto out;
	for (mtu = RDMADEV_MTU_256; mtu <= RDMADEV_MTU_4096; mtu++) {
		e2e_conn_default(&c);
		c.mtu = mtu;
		if (pair_up(&d, &a, &b, &c) != 0) {
			pair_down(&d, &a, &b);
			break;
		}
		for (i = 0; i < RTE_DIM(sizes); i++) {
			e2e_fill(mr.buf, sizes[i], mtu * 100 + i);
			memset(ml.buf, 0, sizes[i] + (sizes[i] < ml.len));
			e2e_rdma_op(&a, RDMADEV_WR_RDMA_READ, &ml, 0, sizes[i],
				(uint64_t)(uintptr_t)mr.buf, mr.rkey, i);
			e2e_expect(&d.scq, i, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
			if (memcmp(ml.buf, mr.buf, sizes[i]) != 0 ||
			    (sizes[i] < ml.len && ml.buf[sizes[i]] != 0)) {
				printf("# READ of %u B at MTU %u differs\n", sizes[i],
				       128u << mtu);
				bad++;
			}
			done++;
		}
		pair_down(&d, &a, &b);
	}
	printf("# %u READs checked, %u differ\n", done, bad);
	TEST_CHECK_EQ(done, 5 * RTE_DIM(sizes));
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK(e2e_canary_ok(&ml) && e2e_canary_ok(&mr));
out:
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
out_dev:
	e2e_dev_close(&d);
}

/*
 * Two models whose ports have an Ethernet MTU of 9000 (devargs mtu): the active path MTU is
 * 4096, and an RC pair at that MTU moves 64 KiB WRITEs and READs (16 full frames each) over
 * @p w0 / @p w1 (addresses @p ip0 / @p ip1), data checked.
 */
static void
mtu4096_two_devs(const char *ip0, const char *w0, const char *ip1, const char *w1)
{
	static struct e2e_dev d0, d1;
	struct rdmadev_port_info pi;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ma, mb;
	struct e2e_conn c;
	char args[2][192];
	unsigned int k;

	d1.id = -1;
	snprintf(args[0], sizeof(args[0]), "irdma_model0,qps=64,cqs=64,mrs=256"
		 ",mtu=9000,ip=%s,wire=%s" IRDMA_TEST_DEVARGS_EXTRA, ip0, w0);
	snprintf(args[1], sizeof(args[1]), "irdma_model1,qps=64,cqs=64,mrs=256"
		 ",mtu=9000,ip=%s,wire=%s" IRDMA_TEST_DEVARGS_EXTRA, ip1, w1);
	if (e2e_dev_open(&d0, args[0]) != 0 || e2e_dev_open(&d1, args[1]) != 0)
		goto out_dev;
	TEST_CHECK_EQ(rdmadev_port_info_get(d0.id, &pi), 0);
	TEST_CHECK_EQ(pi.mtu, 9000);
	TEST_CHECK_EQ(pi.active_mtu, RDMADEV_MTU_4096);
	e2e_mr_reg(&d0, NULL, &ma, 1u << 17, E2E_ACC_ALL);
	e2e_mr_reg(&d1, NULL, &mb, 1u << 17, E2E_ACC_ALL);
	e2e_qp_create(&d0, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d1, &b, RDMADEV_QPT_RC, NULL);
	e2e_conn_default(&c);
	c.mtu = pi.active_mtu;
	if (ma.mr == NULL || mb.mr == NULL || a.qp == NULL || b.qp == NULL ||
	    e2e_rc_connect(&a, &b, &c) != 0)
		goto out;
	for (k = 0; k < 3; k++) {
		e2e_fill(ma.buf, 65536, 700 + k);
		memset(mb.buf, 0, 65536 + 1);
		e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &ma, 0, 65536,
			    (uint64_t)(uintptr_t)mb.buf, mb.rkey, 10 + k);
		e2e_expect(&d0.scq, 10 + k, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
		TEST_CHECK(memcmp(mb.buf, ma.buf, 65536) == 0);
		TEST_CHECK_EQ(mb.buf[65536], 0);
		/* back again with a READ into the second half */
		memset(ma.buf + 65536, 0, 65536);
		e2e_rdma_op(&a, RDMADEV_WR_RDMA_READ, &ma, 65536, 65536,
			    (uint64_t)(uintptr_t)mb.buf, mb.rkey, 20 + k);
		e2e_expect(&d0.scq, 20 + k, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
		TEST_CHECK(memcmp(ma.buf + 65536, ma.buf, 65536) == 0);
	}
	TEST_CHECK(e2e_canary_ok(&ma) && e2e_canary_ok(&mb));
out:
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	drain(&d0);
	drain(&d1);
	e2e_mr_dereg(&ma);
	e2e_mr_dereg(&mb);
out_dev:
	e2e_dev_close(&d1);
	e2e_dev_close(&d0);
}

static void
test_mtu4096_loop(void)
{
	mtu4096_two_devs("10.9.0.1", "loop:e2emtu", "10.9.0.2", "loop:e2emtu");
}

/* The UDP wire, on loopback addresses of the process id (two runs at once do not clash). */
static void
test_mtu4096_udp(void)
{
	unsigned int pid = (unsigned int)getpid();
	char ip0[24], ip1[24], w0[32], w1[32];

	snprintf(ip0, sizeof(ip0), "127.%u.%u.1", 1 + pid % 250, (pid / 250) % 250);
	snprintf(ip1, sizeof(ip1), "127.%u.%u.2", 1 + pid % 250, (pid / 250) % 250);
	snprintf(w0, sizeof(w0), "udp:%s", ip0);
	snprintf(w1, sizeof(w1), "udp:%s", ip1);
	mtu4096_two_devs(ip0, w0, ip1, w1);
}

/* Inline SENDs and WRITEs at the layout's boundaries; gather and scatter over 1..13 SGEs. */
static void
test_inline_and_sges(void)
{
	static const uint32_t inl[] = { 0, 1, 8, 9, 39, 40, 70, 71, 100, 101 };
	static struct e2e_dev d;
	struct rdmadev_sge s[13], r[13];
	struct rdmadev_send_wr wr;
	struct rdmadev_wc wc;
	struct e2e_mr m;
	struct e2e_qp a = { 0 }, b = { 0 };
	uint8_t data[101];
	unsigned int i, n, k;
	uint32_t total;

	if (rig_up(&d, E2E_DEVARGS(0, "loop:e2einl"), &m, NULL, MR_LEN, &a, &b) != 0)
		goto out;
	for (i = 0; i < RTE_DIM(inl); i++) {
		e2e_fill(data, sizeof(data), 40 + i);
		memset(m.buf + 32768, 0xee, 256);
		r[0] = e2e_sge(&m, 32768, 256);
		e2e_recv(&b, 200 + i, r, 1);
		s[0] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)data, inl[i], 0 };
		e2e_wr_init(&wr, i, RDMADEV_WR_SEND, s, 1);
		wr.flags |= RDMADEV_SEND_INLINE;
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 200 + i);
		TEST_CHECK_EQ(wc.byte_len, inl[i]);
		TEST_CHECK(memcmp(m.buf + 32768, data, inl[i]) == 0);
		TEST_CHECK_EQ(m.buf[32768 + inl[i]], 0xee);
		/* inline WRITE, two SGEs of inline data */
		s[0].length = inl[i] / 2;
		s[1] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)data + inl[i] / 2,
					     inl[i] - inl[i] / 2, 0 };
		e2e_wr_init(&wr, 300 + i, RDMADEV_WR_RDMA_WRITE, s, 2);
		wr.flags |= RDMADEV_SEND_INLINE;
		wr.rdma.remote_addr = (uint64_t)(uintptr_t)m.buf + 40000;
		wr.rdma.rkey = m.rkey;
		memset(m.buf + 40000, 0xee, 256);
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 300 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
		TEST_CHECK(memcmp(m.buf + 40000, data, inl[i]) == 0);
		TEST_CHECK_EQ(m.buf[40000 + inl[i]], 0xee);
	}
	/* n gather SGEs of 100 + k bytes scattered into 14 - n receive SGEs */
	e2e_fill(m.buf, 16384, 77);
	for (n = 1; n <= 13; n++) {
		total = 0;
		for (k = 0; k < n; k++) {
			s[k] = e2e_sge(&m, 1000 * k + k, 100 + k);
			total += 100 + k;
		}
		memset(m.buf + 32768, 0, 16384);
		for (k = 0; k < 14 - n; k++)
			r[k] = e2e_sge(&m, 32768 + 1024 * k,
				      k == 13 - n ? 2048 : total / (14 - n));
		e2e_recv(&b, 500 + n, r, (uint16_t)(14 - n));
		e2e_wr_init(&wr, 400 + n, RDMADEV_WR_SEND, s, (uint16_t)n);
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 400 + n, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 500 + n);
		TEST_CHECK_EQ(wc.byte_len, total);
		/* reassemble both sides and compare */
		{
			uint8_t want[2048], got[2048];
			uint32_t off = 0, left = total;

			for (k = 0; k < n; k++) {
				memcpy(want + off, m.buf + 1000 * k + k, 100 + k);
				off += 100 + k;
			}
			off = 0;
			for (k = 0; k < 14 - n && left > 0; k++) {
				uint32_t c = RTE_MIN(left, r[k].length);

				memcpy(got + off, m.buf + 32768 + 1024 * k, c);
				off += c;
				left -= c;
			}
			TEST_CHECK(memcmp(want, got, total) == 0);
		}
		/* the same list as a WRITE gather */
		e2e_wr_init(&wr, 600 + n, RDMADEV_WR_RDMA_WRITE, s, (uint16_t)n);
		wr.rdma.remote_addr = (uint64_t)(uintptr_t)m.buf + 50000;
		wr.rdma.rkey = m.rkey;
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 600 + n, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
		TEST_CHECK(memcmp(m.buf + 50000 + total - (100 + n - 1),
				  m.buf + 1000 * (n - 1) + n - 1, 100 + n - 1) == 0);
	}
	TEST_CHECK_EQ(e2e_idle(&d.scq, 100) + e2e_idle(&d.rcq, 1), 0);
out:
	rig_down(&d, &a, &b, &m, NULL);
}

/* Unsignaled WRs, many in flight completing in order, and a read fence. */
static void
test_order_unsignaled_fence(void)
{
	static struct e2e_dev d;
	struct rdmadev_send_wr wrs[64];
	struct rdmadev_sge s[64];
	struct rdmadev_wc wc;
	struct e2e_mr m, t;
	struct e2e_qp a = { 0 }, b = { 0 };
	unsigned int i, seen = 0, inorder = 1;
	int err = 0;

	if (rig_up(&d, E2E_DEVARGS(0, "loop:e2eord"), &m, &t, 1u << 20, &a, &b) != 0)
		goto out;
	e2e_fill(m.buf, 1u << 20, 5);
	/* 64 WRITEs of growing size in one burst, every 4th signaled */
	for (i = 0; i < 64; i++) {
		s[i] = e2e_sge(&m, 16384 * i, 100 + 250 * i);
		e2e_wr_init(&wrs[i], 1000 + i, RDMADEV_WR_RDMA_WRITE, &s[i], 1);
		wrs[i].flags = i % 4 == 3 ? RDMADEV_SEND_SIGNALED : 0;
		wrs[i].rdma.remote_addr = (uint64_t)(uintptr_t)t.buf + 16384 * i;
		wrs[i].rdma.rkey = t.rkey;
	}
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, wrs, 64, &err), 64);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK(e2e_wait(&d.scq, 16));
	while (e2e_take(&d.scq, &wc)) {
		if (wc.wr_id != 1000 + 4 * seen + 3 || wc.status != RDMADEV_WC_SUCCESS)
			inorder = 0;
		seen++;
	}
	TEST_CHECK_EQ(seen, 16);
	TEST_CHECK(inorder);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 200), 0);
	for (i = 0; i < 64; i++)
		TEST_CHECK(memcmp(t.buf + 16384 * i, m.buf + 16384 * i, 100 + 250 * i) == 0);
	/* Read fence: READ 256 KiB of t into m, then WRITE that local copy back to t + 512 KiB
	 * with FENCE: the WRITE must carry the READ's data. */
	e2e_fill(t.buf, 256 * 1024, 6);
	memset(m.buf, 0, 256 * 1024);
	s[0] = e2e_sge(&m, 0, 256 * 1024);
	e2e_wr_init(&wrs[0], 1, RDMADEV_WR_RDMA_READ, &s[0], 1);
	wrs[0].flags = 0;
	wrs[0].rdma.remote_addr = (uint64_t)(uintptr_t)t.buf;
	wrs[0].rdma.rkey = t.rkey;
	e2e_wr_init(&wrs[1], 2, RDMADEV_WR_RDMA_WRITE, &s[0], 1);
	wrs[1].flags |= RDMADEV_SEND_FENCE;
	wrs[1].rdma.remote_addr = (uint64_t)(uintptr_t)t.buf + 512 * 1024;
	wrs[1].rdma.rkey = t.rkey;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, wrs, 2, &err), 2);
	e2e_expect(&d.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(t.buf + 512 * 1024, t.buf, 256 * 1024) == 0);
	/* Local fence on a SEND after a WRITE; sig_all-like: everything signaled, in order */
	for (i = 0; i < 32; i++) {
		s[i] = e2e_sge(&m, 1024 * i, 64);
		e2e_wr_init(&wrs[i], 2000 + i, i % 2 ? RDMADEV_WR_NOP : RDMADEV_WR_RDMA_WRITE,
			    i % 2 ? NULL : &s[i], i % 2 ? 0 : 1);
		wrs[i].flags |= i % 8 == 0 ? RDMADEV_SEND_LOCAL_FENCE : 0;
		wrs[i].rdma.remote_addr = (uint64_t)(uintptr_t)t.buf + 1024 * i;
		wrs[i].rdma.rkey = t.rkey;
	}
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, wrs, 32, &err), 32);
	for (i = 0; i < 32; i++)
		e2e_expect(&d.scq, 2000 + i, RDMADEV_WC_SUCCESS,
			   i % 2 ? RDMADEV_WC_NOP : RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 100) + e2e_idle(&d.rcq, 1), 0);
out:
	rig_down(&d, &a, &b, &m, &t);
}

/*
 * ACK coalescing: 40 signaled WRITEs, each posted (and its doorbell rung) on its own, the CQ
 * not polled in between. The responder may answer several with one ACK (IBA's coalesced
 * acknowledges); the requester still completes every one of them exactly once, in order.
 * INLINE: a round brings one WRITE, so the ACKs go at the 32-packet bound and at the end.
 */
static void
test_ack_coalescing(void)
{
	static struct e2e_dev d;
	struct rdmadev_wc wc;
	struct e2e_mr m, t;
	struct e2e_qp a = { 0 }, b = { 0 };
	unsigned int i, seen = 0, inorder = 1;
	uint64_t acks;

	if (rig_up(&d, E2E_DEVARGS(0, "loop:e2eack"), &m, &t, 1u << 16, &a, &b) != 0)
		goto out;
	e2e_fill(m.buf, 1u << 16, 7);
	acks = E2E_STAT(&d, acks_sent);
	for (i = 0; i < 40; i++)
		e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &m, 64 * i, 64,
			    (uint64_t)(uintptr_t)t.buf + 64 * i, t.rkey, 3000 + i);
	TEST_CHECK(e2e_wait(&d.scq, 40));
	while (e2e_take(&d.scq, &wc)) {
		if (wc.wr_id != 3000 + seen || wc.status != RDMADEV_WC_SUCCESS ||
		    wc.opcode != RDMADEV_WC_RDMA_WRITE)
			inorder = 0;
		seen++;
	}
	TEST_CHECK_EQ(seen, 40);
	TEST_CHECK(inorder);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 200), 0);
	TEST_CHECK(memcmp(t.buf, m.buf, 64 * 40) == 0);
	acks = E2E_STAT(&d, acks_sent) - acks;
	printf("# 40 WRITEs, %" PRIu64 " ACKs\n", acks);
	TEST_CHECK(acks >= 1 && acks <= 40);
	if (!test_variant_thread())
		TEST_CHECK(acks <= 4);
out:
	rig_down(&d, &a, &b, &m, &t);
}

/*
 * A responder that goes away as soon as it sees the data: 40 WRITEs, one doorbell each, the
 * responder's side driven one device pass at a time (one poll of its empty receive CQ) until
 * the last message is in its memory, then its QP destroyed at once. The ACK a WRITE stream's
 * coalescing still held back must go out at the destroy: the requester completes all 40
 * successfully, with no retransmission (e2e_dev_close asserts a clean transport).
 */
static void
test_ack_before_destroy(void)
{
	static struct e2e_dev d;
	struct rdmadev_wc wc;
	struct e2e_mr m, t;
	struct e2e_qp a = { 0 }, b = { 0 };
	unsigned int i, seen = 0, ok = 0, passes;

	/*
	 * INLINE only: it reads the target while the device may write it, which THREAD mode's
	 * engine does from its own thread (a data race by design, as with any RDMA target).
	 */
	if (test_variant_thread()) {
		printf("# THREAD: the responder's memory is written by another thread; not run\n");
		return;
	}
	if (rig_up(&d, E2E_DEVARGS(0, "loop:e2eackd"), &m, &t, 1u << 16, &a, &b) != 0)
		goto out;
	e2e_fill(m.buf, 1u << 16, 9);
	memset(t.buf, 0, 64 * 40);
	for (i = 0; i < 40; i++)
		e2e_rdma_op(&a, RDMADEV_WR_RDMA_WRITE, &m, 64 * i, 64,
			    (uint64_t)(uintptr_t)t.buf + 64 * i, t.rkey, 4000 + i);
	/* a bound on the passes, not a time */
	for (passes = 0; passes < 100000; passes++) {
		if (memcmp(t.buf + 64 * 39, m.buf + 64 * 39, 64) == 0)
			break;
		TEST_CHECK_EQ(rdmadev_poll_cq(d.rcq.cq, &wc, 1), 0);
	}
	TEST_CHECK(memcmp(t.buf, m.buf, 64 * 40) == 0);
	e2e_qp_destroy(&b);
	TEST_CHECK(e2e_wait(&d.scq, 40));
	while (e2e_take(&d.scq, &wc)) {
		if (wc.wr_id == 4000 + seen && wc.status == RDMADEV_WC_SUCCESS)
			ok++;
		seen++;
	}
	printf("# data seen after %u passes; %u of %u completions successful, in order\n",
	       passes, ok, seen);
	TEST_CHECK_EQ(seen, 40);
	TEST_CHECK_EQ(ok, 40);
out:
	rig_down(&d, &a, &b, &m, &t);
}

/* Wait (bounded) until the model's CEQE count reaches @p n. */
static void
ceqes_reach(struct e2e_dev *d, uint64_t n)
{
	uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	while (E2E_STAT(d, ceqes) < n && rte_get_timer_cycles() < deadline)
		e2e_collect();
}

/* rdmadev_cq_arm: solicited-only arms fire on a solicited SEND only; next arms on any. */
static void
test_cq_arm(void)
{
	static struct e2e_dev d;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct e2e_mr m;
	struct e2e_qp a = { 0 }, b = { 0 };
	uint64_t c0;

	if (rig_up(&d, E2E_DEVARGS(0, "loop:e2earm"), &m, NULL, 8192, &a, &b) != 0)
		goto out;
	s = e2e_sge(&m, 0, 64);
	r = e2e_sge(&m, 4096, 64);
	TEST_CHECK_EQ(rdmadev_cq_arm(d.rcq.cq, 1), 0);
	c0 = E2E_STAT(&d, ceqes);
	e2e_recv(&b, 1, &r, 1);
	e2e_wr_init(&wr, 1, RDMADEV_WR_SEND, &s, 1);
	e2e_send(&a, &wr);
	e2e_expect(&d.rcq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(E2E_STAT(&d, ceqes), c0);
	e2e_recv(&b, 2, &r, 1);
	wr.flags |= RDMADEV_SEND_SOLICITED;
	e2e_send(&a, &wr);
	e2e_expect(&d.rcq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	ceqes_reach(&d, c0 + 1);
	TEST_CHECK_EQ(E2E_STAT(&d, ceqes), c0 + 1);
	/* consumed: the next solicited SEND raises nothing until armed again */
	e2e_recv(&b, 3, &r, 1);
	e2e_send(&a, &wr);
	e2e_expect(&d.rcq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(E2E_STAT(&d, ceqes), c0 + 1);
	TEST_CHECK_EQ(rdmadev_cq_arm(d.rcq.cq, 0), 0);
	e2e_recv(&b, 4, &r, 1);
	wr.flags &= (uint8_t)~RDMADEV_SEND_SOLICITED;
	e2e_send(&a, &wr);
	e2e_expect(&d.rcq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	ceqes_reach(&d, c0 + 2);
	TEST_CHECK_EQ(E2E_STAT(&d, ceqes), c0 + 2);
	/* the send CQ, armed, fires on a's SEND completion */
	TEST_CHECK_EQ(rdmadev_cq_arm(d.scq.cq, 0), 0);
	e2e_recv(&b, 5, &r, 1);
	e2e_send(&a, &wr);
	e2e_expect(&d.rcq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	ceqes_reach(&d, c0 + 3);
	TEST_CHECK_EQ(E2E_STAT(&d, ceqes), c0 + 3);
out:
	rig_down(&d, &a, &b, &m, NULL);
}

/*
 * The GRH area of a UD receive over IPv4 (RoCEv2): 20 zero bytes, then the IPv4 header
 * (RFC 791 layout: version 4 / IHL 5, total length @p tot, protocol UDP, the addresses, a
 * valid header checksum).
 */
static void
check_grh_v4(const uint8_t *g, const uint8_t sgid[16], const uint8_t dgid[16], uint16_t tot)
{
	const uint8_t *ip = g + 20;
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < 20; i++)
		TEST_CHECK_EQ(g[i], 0);
	TEST_CHECK_EQ(ip[0], 0x45);
	TEST_CHECK_EQ((ip[2] << 8) | ip[3], tot);
	TEST_CHECK_EQ(ip[9], 17);
	TEST_CHECK(memcmp(ip + 12, sgid + 12, 4) == 0);
	TEST_CHECK(memcmp(ip + 16, dgid + 12, 4) == 0);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffffu) + (sum >> 16);
	TEST_CHECK_EQ(sum, 0xffffu);
}

/* UD: SEND and SEND_IMM with an AH, remote QPN and Q_Key; a wrong Q_Key is dropped. */
static void
test_ud(void)
{
	static struct e2e_dev d;
	struct rdmadev_ah_attr aa;
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;
	struct e2e_mr m;
	struct e2e_qp a = { 0 }, b = { 0 };
	uint8_t g6[16];
	uint64_t drops;

	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:e2eud")) != 0)
		goto out_dev;
	e2e_mr_reg(&d, NULL, &m, 16384, E2E_ACC_ALL);
	e2e_qp_create(&d, &a, RDMADEV_QPT_UD, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_UD, NULL);
	if (m.mr == NULL || a.qp == NULL || b.qp == NULL || e2e_ud_up(&a, 0x1111) != 0 ||
	    e2e_ud_up(&b, 0x2222) != 0)
		goto out;
	memset(&aa, 0, sizeof(aa));
	memcpy(aa.dgid, d.gid, 16);
	memcpy(aa.dmac, d.mac, 6);
	aa.hop_limit = 64;
	aa.vlan_id = 0xffff;
	aa.port_num = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(d.pd, &aa, &ah), 0);
	if (ah == NULL)
		goto out;
	e2e_fill(m.buf, 4096, 8);
	s = e2e_sge(&m, 0, 1000);
	r = e2e_sge(&m, 8192, 4096);
	e2e_recv(&b, 50, &r, 1);
	e2e_wr_init(&wr, 1, RDMADEV_WR_SEND_IMM, &s, 1);
	wr.imm_data = rte_cpu_to_be_32(0xabcd1234);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = b.qpn;
	wr.ud.remote_qkey = 0x2222;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 50);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_RECV);
	/* verbs' 40-byte GRH area first: RoCEv2 over IPv4 puts the IPv4 header in its last 20 */
	TEST_CHECK_EQ(wc.byte_len, 40 + 1000);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_GRH);
	check_grh_v4(m.buf + 8192, d.gid, d.gid, 20 + 8 + 12 + 8 + 4 + 1000 + 4);
	TEST_CHECK_EQ(wc.src_qp, a.qpn);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_IMM);
	TEST_CHECK_EQ(wc.imm_data, rte_cpu_to_be_32(0xabcd1234));
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_SMAC);
	TEST_CHECK(memcmp(wc.smac, d.mac, 6) == 0);
	TEST_CHECK(memcmp(m.buf + 8192 + 40, m.buf, 1000) == 0);
	/* wrong Q_Key: the sender completes, the receiver drops it (its receive stays) */
	drops = E2E_STAT(&d, rx_qkey_drops);
	e2e_recv(&b, 51, &r, 1);
	e2e_wr_init(&wr, 2, RDMADEV_WR_SEND, &s, 1);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = b.qpn;
	wr.ud.remote_qkey = 0x999;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 500), 0);
	TEST_CHECK_EQ(E2E_STAT(&d, rx_qkey_drops), drops + 1);
	/* the right one takes the receive posted before */
	s = e2e_sge(&m, 2000, 333);
	wr.ud.remote_qkey = 0x2222;
	wr.wr_id = 3;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 51);
	TEST_CHECK_EQ(wc.byte_len, 40 + 333);
	TEST_CHECK_EQ(wc.wc_flags & RDMADEV_WC_WITH_IMM, 0);
	/* the payload is padded to 4 bytes on the wire (BTH PadCnt) */
	check_grh_v4(m.buf + 8192, d.gid, d.gid, 20 + 8 + 12 + 8 + RTE_ALIGN_CEIL(333, 4) + 4);
	TEST_CHECK(memcmp(m.buf + 8192 + 40, m.buf + 2000, 333) == 0);
	/* a receive that holds the datagram but not the GRH area too: dropped, it stays */
	drops = E2E_STAT(&d, rx_len_drops);
	r = e2e_sge(&m, 8192, 333 + 39);
	e2e_recv(&b, 52, &r, 1);
	wr.wr_id = 4;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 200), 0);
	TEST_CHECK_EQ(E2E_STAT(&d, rx_len_drops), drops + 1);
	/* one that fits with its GRH area takes that receive */
	s = e2e_sge(&m, 0, 333 - 1);
	wr.wr_id = 6;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 6, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 52);
	TEST_CHECK_EQ(wc.byte_len, 40 + 333 - 1);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 100) + e2e_idle(&d.scq, 1), 0);
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	ah = NULL;
	/* over IPv6 (GID 1, the link-local address): the GRH area is the whole IPv6 header */
	TEST_CHECK_EQ(rdmadev_gid_get(d.id, 1, g6), 0);
	memcpy(aa.dgid, g6, 16);
	aa.sgid_index = 1;
	aa.traffic_class = 0x20;
	aa.flow_label = 0x12345;
	TEST_CHECK_EQ(rdmadev_ah_create(d.pd, &aa, &ah), 0);
	if (ah == NULL)
		goto out;
	r = e2e_sge(&m, 8192, 4096);
	e2e_recv(&b, 53, &r, 1);
	s = e2e_sge(&m, 0, 600);
	wr.ud.ah = ah;
	wr.wr_id = 5;
	wr.sg_list = &s;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 53);
	TEST_CHECK_EQ(wc.byte_len, 40 + 600);
	TEST_CHECK(wc.wc_flags & RDMADEV_WC_GRH);
	{
		const uint8_t *g = m.buf + 8192;

		TEST_CHECK_EQ(g[0] >> 4, 6);					/* version */
		TEST_CHECK_EQ(((g[0] & 0xf) << 4) | (g[1] >> 4), 0x20);	/* traffic class */
		TEST_CHECK_EQ(((g[1] & 0xfu) << 16) | (g[2] << 8) | g[3], 0x12345);
		TEST_CHECK_EQ((g[4] << 8) | g[5], 8 + 12 + 8 + 600 + 4);	/* payload length */
		TEST_CHECK_EQ(g[6], 17);					/* UDP */
		TEST_CHECK(memcmp(g + 8, g6, 16) == 0);
		TEST_CHECK(memcmp(g + 24, g6, 16) == 0);
	}
	TEST_CHECK(memcmp(m.buf + 8192 + 40, m.buf, 600) == 0);
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
out:
	pair_down(&d, &a, &b);
	e2e_mr_dereg(&m);
out_dev:
	e2e_dev_close(&d);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_e2e") < 0)
		return test_eal_bail();
	TEST_RUN(test_rc_opcodes_one_dev);
	TEST_RUN(test_rc_opcodes_two_devs);
	TEST_RUN(test_fast_reg_page_sizes);
	TEST_RUN(test_read_sizes_mtus);
	TEST_RUN(test_mtu4096_loop);
	TEST_RUN(test_mtu4096_udp);
	TEST_RUN(test_inline_and_sges);
	TEST_RUN(test_order_unsignaled_fence);
	TEST_RUN(test_ack_coalescing);
	TEST_RUN(test_ack_before_destroy);
	TEST_RUN(test_cq_arm);
	TEST_RUN(test_ud);
	rte_eal_cleanup();
	return test_done();
}
