/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Gen3 type-2 memory windows through rdmadev on the device model: a window bound over part of
 * a region (BIND_MW), WRITE / READ / atomics through its rkey inside its range, refused
 * outside it or beyond its rights, dead after LOCAL_INV or a SEND with invalidate (and bound
 * again in between), bind errors (no MW_BIND right, a range beyond the region, a window
 * bound twice); restrack: windows are MR-type entries and every count balances at the end.
 * A region with a window bound is not deregistered (-EBUSY from rdmadev and from the device)
 * until the window is invalidated (locally or by the peer) or freed; failed binds bind nothing,
 * and a LOCAL_INV that fails or is flushed leaves its window bound in the driver's record too.
 */

#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_mr.h"
#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

#define MR_LEN		(64u * 1024u)

/* The pair a -> b on @p d again, fresh (an error put the last one in ERR). */
static int
repair(struct e2e_dev *d, struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_unpair(a, b);
	e2e_drain(d);
	return e2e_pair(d, d, a, b, E2E_ACC_ATOMIC);
}

static uint32_t
res_count(const struct e2e_dev *d, enum restrack_type t)
{
	return (uint32_t)restrack_count(rdmadev_get(d->id)->res, t, NULL);
}

/* Bind @p mw over [addr, addr + len) of @p m on @p q with rights @p acc and key @p key. */
static uint32_t
bind(struct e2e_qp *q, struct rdmadev_mw *mw, const struct e2e_mr *m, uint64_t addr,
     uint32_t len, uint32_t acc, uint8_t key, uint64_t id, enum rdmadev_wc_status st)
{
	struct rdmadev_send_wr wr;
	uint32_t rkey = (mw->rkey & ~0xffu) | key;

	e2e_wr_init(&wr, id, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = m->mr;
	wr.bind_mw.addr = addr;
	wr.bind_mw.length = len;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.access = acc;
	TEST_CHECK(e2e_send(q, &wr));
	e2e_expect(&q->dev->scq, id, st, RDMADEV_WC_BIND_MW);
	return rkey;
}

/* One RDMA op of @p a on its own pair; expect @p st. */
static void
rdma(struct e2e_qp *a, uint8_t op, const struct e2e_mr *l, uint64_t loff, uint32_t len,
     uint64_t raddr, uint32_t rkey, uint64_t id, enum rdmadev_wc_status st)
{
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)(l->buf + loff), len, l->lkey };
	struct rdmadev_send_wr wr;

	e2e_wr_init(&wr, id, op, &sge, 1);
	wr.rdma.remote_addr = raddr;
	wr.rdma.rkey = rkey;
	TEST_CHECK(e2e_send(a, &wr));
	e2e_expect(&a->dev->scq, id, st, st == RDMADEV_WC_SUCCESS ?
		   (op == RDMADEV_WR_RDMA_READ ? RDMADEV_WC_RDMA_READ : RDMADEV_WC_RDMA_WRITE) :
		   -1);
}

/* Type-2 windows: access through the window inside / outside, invalidation, bind errors. */
static void
test_mw(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 }, nob = { 0 };
	struct rdmadev_mw *mw = NULL, *mw2 = NULL;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	struct rdmadev_wc wc;
	uint32_t mrs0 = 0, rkey;
	uint8_t *win, save[256];
	uint64_t wva;

	if (e2e_dev_open(&d, E2E_DEVARGS_GEN(0, 3, "loop:g3mw")) != 0)
		goto out;
	mrs0 = res_count(&d, RESTRACK_MR);
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, E2E_ACC_ATOMIC | RDMADEV_ACCESS_MW_BIND) != 0 ||
	    e2e_mr_reg(&d, NULL, &nob, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw2), 0);
	if (mw == NULL || mw2 == NULL)
		goto out;
	/* windows are MR-type restrack entries under their STag index */
	TEST_CHECK_EQ(res_count(&d, RESTRACK_MR), mrs0 + 5);
	TEST_CHECK_EQ(rdmadev_obj_id(&mw->obj), mw->rkey >> 8);
	TEST_CHECK(rdmadev_obj_id(&mw->obj) != rdmadev_obj_id(&mr.mr->obj));
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	win = mr.buf + 8192;
	wva = (uint64_t)(uintptr_t)win;
	e2e_fill(ml.buf, 4096, 3);
	e2e_fill(mr.buf, MR_LEN, 4);

	/* an unbound window's key is not valid */
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 64, wva, mw->rkey, 1, RDMADEV_WC_REM_ACCESS_ERR);
	if (repair(&d, &a, &b) != 0)
		goto out;

	/* bind on b (same PD as the region and the window): [win, win + 4096), write+read */
	rkey = bind(&b, mw, &mr, wva, 4096, RDMADEV_ACCESS_REMOTE_WRITE |
		    RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_ATOMIC, 0x31, 2,
		    RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(mw->rkey, rkey);
	{
		struct irdma_model_mr_info mi;
		struct irdma_hw *hw = irdma_dev_hw(rdmadev_get(d.id));

		TEST_CHECK_EQ(irdma_model_mr_get(hw, rkey >> 8, &mi), 0);
		TEST_CHECK_EQ(mi.mw, 1);
		TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_VALID);
		TEST_CHECK_EQ(mi.key, 0x31);
		TEST_CHECK_EQ(mi.va, wva);
		TEST_CHECK_EQ(mi.len, 4096);
		TEST_CHECK_EQ(mi.pd, rdmadev_obj_id(&d.pd->obj));
		TEST_CHECK_EQ(irdma_model_mr_get(hw, mw2->rkey >> 8, &mi), 0);
		TEST_CHECK_EQ(mi.mw, 1);
		TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_ALLOCATED);
		TEST_CHECK_EQ(irdma_model_mr_get(hw, mr.rkey >> 8, &mi), 0);
		TEST_CHECK_EQ(mi.mw, 0);
	}
	/* inside: WRITE at the start, READ at the end, an atomic in the middle */
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 256, wva, rkey, 3, RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(win, ml.buf, 256) == 0);
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 1024, 256, wva + 4096 - 256, rkey, 4,
	     RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(ml.buf + 1024, win + 4096 - 256, 256) == 0);
	e2e_wr64(win + 2048, 40);
	e2e_atomic_wr(&wr, &res, 5, RDMADEV_WR_ATOMIC_FA, &ml, 2048, wva + 2048, rkey, 2, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_rd64(win + 2048), 42);
	/* the region's own rkey keeps working beside the window */
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 512, 64, (uint64_t)(uintptr_t)mr.buf, mr.rkey, 6,
	     RDMADEV_WC_SUCCESS);
	/* a bound type-2 window cannot bind again before it is invalidated */
	(void)bind(&b, mw, &mr, wva, 64, RDMADEV_ACCESS_REMOTE_READ, 0x32, 7,
		   RDMADEV_WC_MW_BIND_ERR);

	/* outside the window (inside the region): refused, nothing written */
	if (repair(&d, &a, &b) != 0)
		goto out;
	memcpy(save, win - 256, sizeof(save));
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 256, wva - 128, rkey, 8,
	     RDMADEV_WC_REM_ACCESS_ERR);
	TEST_CHECK(memcmp(save, win - 256, sizeof(save)) == 0);
	if (repair(&d, &a, &b) != 0)
		goto out;
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 64, wva + 4096 - 32, rkey, 9,
	     RDMADEV_WC_REM_ACCESS_ERR);

	/* LOCAL_INV of the window on b: a's WRITE through it fails */
	if (repair(&d, &a, &b) != 0)
		goto out;
	e2e_wr_init(&wr, 10, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr.invalidate_rkey = rkey;
	TEST_CHECK(e2e_send(&b, &wr));
	e2e_expect(&d.scq, 10, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	memcpy(save, win, sizeof(save));
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 512, 64, wva, rkey, 11, RDMADEV_WC_REM_ACCESS_ERR);
	TEST_CHECK(memcmp(save, win, sizeof(save)) == 0);

	/* bind again (read only, new key), then SEND with invalidate from a kills it */
	if (repair(&d, &a, &b) != 0)
		goto out;
	rkey = bind(&b, mw, &mr, wva, 1024, RDMADEV_ACCESS_REMOTE_READ, 0x33, 12,
		    RDMADEV_WC_SUCCESS);
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 128, wva, rkey, 13, RDMADEV_WC_SUCCESS);
	{
		struct rdmadev_sge rs = { (uint64_t)(uintptr_t)ml.buf + 8192, 64, ml.lkey };
		struct rdmadev_sge ss = { (uint64_t)(uintptr_t)ml.buf, 16, ml.lkey };

		TEST_CHECK(e2e_recv(&b, 14, &rs, 1));
		e2e_wr_init(&wr, 15, RDMADEV_WR_SEND_INV, &ss, 1);
		wr.invalidate_rkey = rkey;
		TEST_CHECK(e2e_send(&a, &wr));
		e2e_expect(&d.scq, 15, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 14);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_INV);
		TEST_CHECK_EQ(wc.invalidated_rkey, rkey);
	}
	/* the window is dead: the READ it allowed a moment ago fails */
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 64, wva, rkey, 16, RDMADEV_WC_REM_ACCESS_ERR);

	/* rights: a read-only window refuses a WRITE */
	if (repair(&d, &a, &b) != 0)
		goto out;
	rkey = bind(&b, mw2, &mr, wva, 64, RDMADEV_ACCESS_REMOTE_READ, 0x40, 17,
		    RDMADEV_WC_SUCCESS);
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 8, wva, rkey, 18, RDMADEV_WC_REM_ACCESS_ERR);

	/* bind errors: a region without MW_BIND, a range beyond the region */
	if (repair(&d, &a, &b) != 0)
		goto out;
	(void)bind(&b, mw, &nob, (uint64_t)(uintptr_t)nob.buf, 64, RDMADEV_ACCESS_REMOTE_READ,
		   0x50, 19, RDMADEV_WC_MW_BIND_ERR);
	if (repair(&d, &a, &b) != 0)
		goto out;
	(void)bind(&b, mw, &mr, (uint64_t)(uintptr_t)mr.buf + MR_LEN - 64, 128,
		   RDMADEV_ACCESS_REMOTE_READ, 0x51, 20, RDMADEV_WC_MW_BIND_ERR);
	e2e_unpair(&a, &b);
	e2e_drain(&d);
	TEST_CHECK(e2e_canary_ok(&mr) && e2e_canary_ok(&ml));
	TEST_CHECK_EQ(E2E_STAT(&d, mw_binds), 3);	/* 0x31, 0x33 and mw2 */
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d);
	if (mw2 != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw2), 0);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&nob);
	e2e_mr_dereg(&mr);
	e2e_mr_dereg(&ml);
	if (d.id >= 0) {
		/* restrack: every window and region gone, the counts back where they were */
		TEST_CHECK_EQ(res_count(&d, RESTRACK_MR), mrs0);
		TEST_CHECK_EQ(res_count(&d, RESTRACK_QP), 0);
	}
	e2e_dev_close(&d);
}

/* rdmadev_mr_dereg of @p m with the log captured into @p log (@p cap bytes). */
static int
dereg_logged(struct e2e_mr *m, char *log, size_t cap)
{
	FILE *f = fmemopen(log, cap, "w");
	int ret;

	memset(log, 0, cap);
	if (f == NULL)
		return rdmadev_mr_dereg(m->mr);
	setvbuf(f, NULL, _IONBF, 0);
	rte_openlog_stream(f);
	ret = rdmadev_mr_dereg(m->mr);
	rte_openlog_stream(NULL);
	fclose(f);
	log[cap - 1] = '\0';
	return ret;
}

/*
 * A region with a type-2 window bound cannot be deregistered: rdmadev refuses with -EBUSY
 * and a line naming the region and the window, and the device itself refuses DEALLOC_STAG
 * (IRDMA_CQP_MIN_BUSY, -EBUSY from the driver's op called directly); the region and the
 * window keep working. Bound ends with LOCAL_INV, a SEND with invalidate received, the
 * window's free; a bind that failed or was flushed never made the window bound.
 */
static void
test_mw_dereg_busy(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, r[6];
	struct rdmadev_mw *mw = NULL;
	struct rdmadev_send_wr wr[2];
	struct irdma_model_mr_info mi;
	struct irdma_hw *hw;
	struct rdmadev_wc wc;
	char log[1024], want[64];
	uint32_t rkey, mrs0 = 0;
	uint64_t wva;
	uint16_t n;
	unsigned int i;
	int err;

	memset(r, 0, sizeof(r));
	if (e2e_dev_open(&d, E2E_DEVARGS_GEN(0, 3, "loop:g3mwbusy")) != 0)
		goto out;
	hw = irdma_dev_hw(rdmadev_get(d.id));
	mrs0 = res_count(&d, RESTRACK_MR);
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	for (i = 0; i < RTE_DIM(r); i++)
		if (e2e_mr_reg(&d, NULL, &r[i], MR_LEN, E2E_ACC_ALL | RDMADEV_ACCESS_MW_BIND) != 0)
			goto out;
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	if (mw == NULL || e2e_pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	e2e_fill(ml.buf, 4096, 7);

	/* bound: rdmadev refuses, naming MR and MW; the region stays registered */
	wva = (uint64_t)(uintptr_t)r[0].buf + 4096;
	rkey = bind(&b, mw, &r[0], wva, 4096, RDMADEV_ACCESS_REMOTE_WRITE |
		    RDMADEV_ACCESS_REMOTE_READ, 0x61, 1, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(r[0].mr->mw_bound, 1);
	TEST_CHECK(mw->bound_mr == r[0].mr);
	TEST_CHECK_EQ(dereg_logged(&r[0], log, sizeof(log)), -EBUSY);
	snprintf(want, sizeof(want), "MR %u", rdmadev_obj_id(&r[0].mr->obj));
	TEST_CHECK(strstr(log, want) != NULL);
	snprintf(want, sizeof(want), "MW %u (rkey 0x%x)", rdmadev_obj_id(&mw->obj), rkey);
	TEST_CHECK(strstr(log, want) != NULL);
	TEST_CHECK_EQ(res_count(&d, RESTRACK_MR), mrs0 + RTE_DIM(r) + 2);
	/* the device's own refusal, without rdmadev's check: the driver's op directly */
	TEST_CHECK_EQ(irdma_mr_dereg(irdma_dev_ctrl(rdmadev_get(d.id)), r[0].mr), -EBUSY);
	TEST_CHECK_EQ(irdma_model_mr_get(hw, r[0].rkey >> 8, &mi), 0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_VALID);
	/* both keep working: a WRITE through the window, a READ through the region */
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 512, wva, rkey, 2, RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(r[0].buf + 4096, ml.buf, 512) == 0);
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 2048, 64, (uint64_t)(uintptr_t)r[0].buf + 4096,
	     r[0].rkey, 3, RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(ml.buf + 2048, ml.buf, 64) == 0);
	/* LOCAL_INV of the window: the region may go */
	e2e_wr_init(&wr[0], 4, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr[0].invalidate_rkey = rkey;
	TEST_CHECK(e2e_send(&b, &wr[0]));
	e2e_expect(&d.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	TEST_CHECK_EQ(r[0].mr->mw_bound, 0);
	e2e_mr_dereg(&r[0]);

	/* bound again (another region), then a SEND with invalidate from a ends it */
	wva = (uint64_t)(uintptr_t)r[1].buf;
	rkey = bind(&b, mw, &r[1], wva, 256, RDMADEV_ACCESS_REMOTE_READ, 0x62, 5,
		    RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(rdmadev_mr_dereg(r[1].mr), -EBUSY);
	{
		struct rdmadev_sge rs = { (uint64_t)(uintptr_t)ml.buf + 8192, 64, ml.lkey };
		struct rdmadev_sge ss = { (uint64_t)(uintptr_t)ml.buf, 16, ml.lkey };

		TEST_CHECK(e2e_recv(&b, 6, &rs, 1));
		e2e_wr_init(&wr[0], 7, RDMADEV_WR_SEND_INV, &ss, 1);
		wr[0].invalidate_rkey = rkey;
		TEST_CHECK(e2e_send(&a, &wr[0]));
		e2e_expect(&d.scq, 7, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 6);
		TEST_CHECK_EQ(wc.invalidated_rkey, rkey);
	}
	TEST_CHECK(mw->bound_mr == NULL);
	e2e_mr_dereg(&r[1]);

	/*
	 * bound again, a SEND with invalidate whose receive b never polls: b destroyed, the CQ
	 * clean unbinds the window (then a fresh pair)
	 */
	rkey = bind(&b, mw, &r[2], (uint64_t)(uintptr_t)r[2].buf, 256,
		    RDMADEV_ACCESS_REMOTE_READ, 0x66, 12, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(rdmadev_mr_dereg(r[2].mr), -EBUSY);
	{
		struct rdmadev_sge rs = { (uint64_t)(uintptr_t)ml.buf + 8192, 64, ml.lkey };
		struct rdmadev_sge ss = { (uint64_t)(uintptr_t)ml.buf, 16, ml.lkey };
		uint64_t end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

		TEST_CHECK(e2e_recv(&b, 13, &rs, 1));
		e2e_wr_init(&wr[0], 14, RDMADEV_WR_SEND_INV, &ss, 1);
		wr[0].invalidate_rkey = rkey;
		TEST_CHECK(e2e_send(&a, &wr[0]));
		/* the send CQ only: the receive stays in b's CQ */
		for (n = 0; n == 0 && rte_get_timer_cycles() < end; )
			n = rdmadev_poll_cq(d.scq.cq, &wc, 1);
		TEST_CHECK_EQ(n, 1);
		TEST_CHECK_EQ(wc.wr_id, 14);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK(mw->bound_mr == r[2].mr);
	}
	e2e_unpair(&a, &b);
	TEST_CHECK(mw->bound_mr == NULL);
	TEST_CHECK_EQ(r[2].mr->mw_bound, 0);
	e2e_mr_dereg(&r[2]);
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;

	/* bound again, then the window freed: the region may go */
	(void)bind(&b, mw, &r[5], (uint64_t)(uintptr_t)r[5].buf, 256,
		   RDMADEV_ACCESS_REMOTE_READ, 0x63, 8, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(rdmadev_mr_dereg(r[5].mr), -EBUSY);
	TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	mw = NULL;
	e2e_mr_dereg(&r[5]);

	/* a bind that fails (range beyond the region) binds nothing */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	if (mw == NULL)
		goto out;
	(void)bind(&b, mw, &r[3], (uint64_t)(uintptr_t)r[3].buf + MR_LEN - 64, 128,
		   RDMADEV_ACCESS_REMOTE_READ, 0x64, 9, RDMADEV_WC_MW_BIND_ERR);
	TEST_CHECK(mw->bound_mr == NULL);
	TEST_CHECK_EQ(r[3].mr->mw_bound, 0);
	e2e_mr_dereg(&r[3]);

	/* a good bind behind a failing one, in one burst: flushed, binds nothing */
	if (repair(&d, &a, &b) != 0)
		goto out;
	e2e_wr_init(&wr[0], 10, RDMADEV_WR_BIND_MW, NULL, 0);
	wr[0].bind_mw.mw = mw;
	wr[0].bind_mw.mr = r[4].mr;
	wr[0].bind_mw.addr = (uint64_t)(uintptr_t)r[4].buf + MR_LEN - 64;
	wr[0].bind_mw.length = 128;
	wr[0].bind_mw.rkey = (mw->rkey & ~0xffu) | 0x65;
	wr[0].bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
	wr[1] = wr[0];
	wr[1].wr_id = 11;
	wr[1].bind_mw.addr = (uint64_t)(uintptr_t)r[4].buf;
	wr[1].bind_mw.length = 64;
	err = 1;
	n = rdmadev_post_send(b.qp, wr, 2, &err);
	TEST_CHECK_EQ(n, 2);
	TEST_CHECK_EQ(err, 0);
	e2e_expect(&d.scq, 10, RDMADEV_WC_MW_BIND_ERR, RDMADEV_WC_BIND_MW);
	e2e_expect(&d.scq, 11, RDMADEV_WC_WR_FLUSH_ERR, RDMADEV_WC_BIND_MW);
	TEST_CHECK(mw->bound_mr == NULL);
	TEST_CHECK_EQ(irdma_model_mr_get(hw, mw->rkey >> 8, &mi), 0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_ALLOCATED);
	e2e_mr_dereg(&r[4]);
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	for (i = 0; i < RTE_DIM(r); i++)
		e2e_mr_dereg(&r[i]);
	e2e_mr_dereg(&ml);
	if (d.id >= 0)
		TEST_CHECK_EQ(res_count(&d, RESTRACK_MR), mrs0);
	e2e_dev_close(&d);
}

/* @p m's deregistration refused by rdmadev's own check: -EBUSY naming @p m and @p mw. */
static void
dereg_refused(struct e2e_mr *m, const struct rdmadev_mw *mw, uint32_t rkey)
{
	char log[1024], want[64];

	TEST_CHECK_EQ(dereg_logged(m, log, sizeof(log)), -EBUSY);
	snprintf(want, sizeof(want), "MR %u (rkey 0x%x) has 1 memory window(s) bound",
		 rdmadev_obj_id(&m->mr->obj), m->rkey);
	TEST_CHECK(strstr(log, want) != NULL);
	snprintf(want, sizeof(want), "MW %u (rkey 0x%x)", rdmadev_obj_id(&mw->obj), rkey);
	TEST_CHECK(strstr(log, want) != NULL);
	/* not the device's refusal (rdmadev's check stopped it first) */
	TEST_CHECK(strstr(log, "DEALLOC_STAG") == NULL);
}

/*
 * A LOCAL_INV that does not run leaves its window bound: the record follows the device.
 * Flushed (behind a failing bind in one burst) and failed itself (posted on a QP of another
 * PD): the window is still valid on the device and bound to its region in the record, so
 * rdmadev refuses the region's deregistration with its line naming the window (not the
 * device's DEALLOC_STAG refusal). A LOCAL_INV that runs ends it; the region goes.
 */
static void
test_mw_inv_flushed(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 }, c = { 0 }, e = { 0 };
	struct rdmadev_mw *mw = NULL, *mw2 = NULL;
	struct e2e_mr r = { 0 };
	struct irdma_model_mr_info mi;
	struct rdmadev_send_wr wr[2];
	struct irdma_hw *hw;
	struct rdmadev_wc wc;
	uint32_t rkey, mrs0 = 0;
	int err;

	if (e2e_dev_open(&d, E2E_DEVARGS_GEN(0, 3, "loop:g3mwinv")) != 0)
		goto out;
	hw = irdma_dev_hw(rdmadev_get(d.id));
	mrs0 = res_count(&d, RESTRACK_MR);
	if (e2e_mr_reg(&d, NULL, &r, MR_LEN, E2E_ACC_ALL | RDMADEV_ACCESS_MW_BIND) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw2), 0);
	if (mw == NULL || mw2 == NULL || e2e_pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	rkey = bind(&b, mw, &r, (uint64_t)(uintptr_t)r.buf, 4096, RDMADEV_ACCESS_REMOTE_READ,
		    0x71, 20, RDMADEV_WC_SUCCESS);
	TEST_CHECK(mw->bound_mr == r.mr);

	/* flushed: a failing bind (mw2, range beyond the region), then the LOCAL_INV */
	e2e_wr_init(&wr[0], 21, RDMADEV_WR_BIND_MW, NULL, 0);
	wr[0].bind_mw.mw = mw2;
	wr[0].bind_mw.mr = r.mr;
	wr[0].bind_mw.addr = (uint64_t)(uintptr_t)r.buf + MR_LEN - 64;
	wr[0].bind_mw.length = 128;
	wr[0].bind_mw.rkey = (mw2->rkey & ~0xffu) | 0x72;
	wr[0].bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
	e2e_wr_init(&wr[1], 22, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr[1].invalidate_rkey = rkey;
	err = 1;
	TEST_CHECK_EQ(rdmadev_post_send(b.qp, wr, 2, &err), 2);
	TEST_CHECK_EQ(err, 0);
	e2e_expect(&d.scq, 21, RDMADEV_WC_MW_BIND_ERR, RDMADEV_WC_BIND_MW);
	e2e_expect(&d.scq, 22, RDMADEV_WC_WR_FLUSH_ERR, RDMADEV_WC_LOCAL_INV);
	TEST_CHECK_EQ(irdma_model_mr_get(hw, rkey >> 8, &mi), 0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_VALID);
	TEST_CHECK(mw->bound_mr == r.mr);
	TEST_CHECK(mw2->bound_mr == NULL);
	TEST_CHECK_EQ(r.mr->mw_bound, 1);
	dereg_refused(&r, mw, rkey);

	/* failed itself: posted on a QP of another PD (the device refuses the window) */
	if (e2e_qp_create(&d, &c, RDMADEV_QPT_RC, d.pd2) != 0 ||
	    e2e_qp_create(&d, &e, RDMADEV_QPT_RC, d.pd2) != 0 || e2e_rc_connect(&c, &e, NULL) != 0)
		goto out;
	e2e_wr_init(&wr[0], 23, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr[0].invalidate_rkey = rkey;
	TEST_CHECK(e2e_send(&c, &wr[0]));
	TEST_CHECK(e2e_next(&d.scq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 23);
	TEST_CHECK(wc.status != RDMADEV_WC_SUCCESS && wc.status != RDMADEV_WC_WR_FLUSH_ERR);
	TEST_CHECK_EQ(irdma_model_mr_get(hw, rkey >> 8, &mi), 0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_VALID);
	TEST_CHECK(mw->bound_mr == r.mr);
	TEST_CHECK_EQ(r.mr->mw_bound, 1);
	dereg_refused(&r, mw, rkey);

	/* a LOCAL_INV that runs: the window is unbound, on the device and in the record */
	if (repair(&d, &a, &b) != 0)
		goto out;
	e2e_wr_init(&wr[0], 24, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr[0].invalidate_rkey = rkey;
	TEST_CHECK(e2e_send(&b, &wr[0]));
	e2e_expect(&d.scq, 24, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	TEST_CHECK_EQ(irdma_model_mr_get(hw, rkey >> 8, &mi), 0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_ALLOCATED);
	TEST_CHECK(mw->bound_mr == NULL);
	TEST_CHECK_EQ(r.mr->mw_bound, 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(r.mr), 0);
	r.mr = NULL;
out:
	e2e_unpair(&a, &b);
	e2e_unpair(&c, &e);
	e2e_drain(&d);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	if (mw2 != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw2), 0);
	e2e_mr_dereg(&r);
	if (d.id >= 0)
		TEST_CHECK_EQ(res_count(&d, RESTRACK_MR), mrs0);
	e2e_dev_close(&d);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_gen3_mw") < 0)
		return test_eal_bail();
	TEST_RUN(test_mw);
	TEST_RUN(test_mw_dereg_busy);
	TEST_RUN(test_mw_inv_flushed);
	rte_eal_cleanup();
	return test_done();
}
