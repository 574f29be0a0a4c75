/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Gen3 atomics and windows: the error paths, through rdmadev on the device model.
 *  - the responder refuses: no remote-atomic right on the QP or the region, out of bounds
 *    (REM_ACCESS_ERR), a misaligned target (REM_INV_REQ_ERR); targets untouched;
 *  - WQEs the PMD never writes, patched in the ring before the model reads them: the model's
 *    own checks (ADDFRAGCNT, type-1 bind, atomics on gen2);
 *  - work requests the PMD refuses before writing anything (-EINVAL; -ENOTSUP on gen2, where
 *    windows and remote-atomic regions are refused too).
 */

#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_eal.h>

#include <rdmadev_driver.h>

#include "irdma_qp.h"
#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

#define G3_DEVARGS(n, wire) E2E_DEVARGS_GEN(n, 3, wire)
#define G2_DEVARGS(n, wire) E2E_DEVARGS_GEN(n, 2, wire)

#define MR_LEN		(64u * 1024u)

/* doc/hardware.md §1.3 opcodes. */
enum { F_OP_NOP = 0x0c, F_OP_FETCH_ADD = 0x0f };

/* WQEs the model's requester fetches ahead (MODEL_SQ_WINDOW; 1-quantum SENDs). */
#define SQ_WINDOW	64u

/*
 * Stall fresh QP @p a's SQ in the model: SQ_WINDOW SENDs (wr_id 100..) that @p a's peer has
 * no receive for (RNR, retried forever) fill the window the model fetches ahead, so the next
 * WQE posted stays unread until unstall(). @return the quantum the next WQE goes to.
 */
static uint8_t *
stall(struct e2e_qp *a)
{
	struct irdma_qp *q = a->qp->obj.fp.drv;
	struct rdmadev_send_wr wr;
	unsigned int i;

	for (i = 0; i < SQ_WINDOW; i++) {
		e2e_wr_init(&wr, 100 + i, RDMADEV_WR_SEND, NULL, 0);
		TEST_CHECK(e2e_send(a, &wr));
	}
	return q->sq.base + SQ_WINDOW * IRDMA_QUANTUM_SIZE;
}

/* Post the receives @p b lacked: the stalled SENDs go on and the model fetches what follows. */
static void
unstall(struct e2e_qp *b)
{
	unsigned int i;

	for (i = 0; i < SQ_WINDOW; i++)
		TEST_CHECK(e2e_recv(b, i, NULL, 0));
}

/*
 * Wait for the @p n completions of a stalled QP whose last WR @p wr_id the model refuses:
 * @p wr_id must not succeed, and at most one completion carries a status other than SUCCESS
 * and WR_FLUSH_ERR (the model puts the failing WQE's code on the oldest outstanding WQE).
 * @return that status, or WR_FLUSH_ERR when the code is the general one.
 */
static int
status_of(struct e2e_dev *d, unsigned int n, uint64_t wr_id)
{
	unsigned int codes = 0, seen = 0;
	int st = RDMADEV_WC_WR_FLUSH_ERR;
	struct rdmadev_wc wc;

	while (n-- > 0 && e2e_next(&d->scq, &wc)) {
		if (wc.wr_id == wr_id) {
			seen++;
			TEST_CHECK(wc.status != RDMADEV_WC_SUCCESS);
		}
		if (wc.status != RDMADEV_WC_SUCCESS && wc.status != RDMADEV_WC_WR_FLUSH_ERR) {
			st = wc.status;
			codes++;
		}
	}
	TEST_CHECK_EQ(seen, 1);
	TEST_CHECK(codes <= 1);
	return st;
}

/* Responder refusals: rights, bounds, alignment. */
static void
test_remote_errors(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 }, mn = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	uint64_t raddr;
	unsigned int i;
	uint8_t *w;

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3err")) != 0)
		goto out;
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, E2E_ACC_ATOMIC) != 0 ||
	    e2e_mr_reg(&d, NULL, &mn, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	e2e_wr64(mr.buf, 1000);
	e2e_wr64(mn.buf, 2000);
	e2e_wr64(ml.buf, 0x5555);

	/* the responder QP lacks REMOTE_ATOMIC: REM_ACCESS_ERR, target untouched */
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	e2e_atomic_wr(&wr, &res, 20, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 7, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 20, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK_EQ(e2e_rd64(mr.buf), 1000);
	TEST_CHECK_EQ(e2e_rd64(ml.buf), 0x5555);		/* no result written */
	e2e_unpair(&a, &b);
	e2e_drain(&d);

	/* the region lacks REMOTE_ATOMIC */
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	e2e_atomic_wr(&wr, &res, 21, RDMADEV_WR_ATOMIC_CS, &ml, 0, (uint64_t)(uintptr_t)mn.buf,
		      mn.rkey, 2000, 1);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 21, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK_EQ(e2e_rd64(mn.buf), 2000);
	e2e_unpair(&a, &b);
	e2e_drain(&d);

	/*
	 * Misaligned at the device: the PMD refuses such a WR, so the posted WQE's remote TO
	 * (qword 2) is moved by 4 bytes before the model fetches it. The model fetches at most
	 * its window of WQEs ahead: SENDs without receives (RNR, retried forever) fill it first.
	 * The responder NAKs an invalid request: REM_INV_REQ_ERR, the target untouched.
	 */
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	w = stall(&a);
	e2e_atomic_wr(&wr, &res, 23, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr + 8, mr.rkey, 1, 0);
	e2e_wr64(mr.buf + 8, 0x0102030405060708);
	e2e_wr64(mr.buf + 16, 0x1112131415161718);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(e2e_idle(&d.scq, 20), 0);
	TEST_CHECK_EQ(e2e_qw(w, 2), raddr + 8);
	e2e_wr64(w + 16, rte_cpu_to_le_64(raddr + 12));
	unstall(&b);
	for (i = 0; i < SQ_WINDOW; i++)
		e2e_expect(&d.scq, 100 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	e2e_expect(&d.scq, 23, RDMADEV_WC_REM_INV_REQ_ERR, -1);
	TEST_CHECK_EQ(e2e_rd64(mr.buf + 8), 0x0102030405060708);
	TEST_CHECK_EQ(e2e_rd64(mr.buf + 16), 0x1112131415161718);
	e2e_unpair(&a, &b);
	e2e_drain(&d);

	/* out of the region's bounds (last 4 bytes + 4 beyond): REM_ACCESS_ERR */
	if (e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	e2e_atomic_wr(&wr, &res, 22, RDMADEV_WR_ATOMIC_FA, &ml, 0,
		      (uint64_t)(uintptr_t)mr.buf + MR_LEN, mr.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 22, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK(e2e_canary_ok(&mr));
	e2e_unpair(&a, &b);
	e2e_drain(&d);
out:
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_mr_dereg(&mn);
	e2e_dev_close(&d);
}

/*
 * WQEs the PMD never writes, made by patching a posted one before the model reads it: the
 * model's own checks. A gen3 atomic with ADDFRAGCNT 2 (WQE_INVALID_PARAMETER), a type-1
 * BIND_MW (MWBIND_WRONG_TYPE: the window stays unbound), an atomic opcode on a gen2 model
 * (WQE_UNEXPECTED_OPCODE: LOC_QP_OP_ERR). Each ends its QP; the target stays untouched.
 */
static void
test_model_wqe_refusals(void)
{
	static struct e2e_dev d3, d2 = { .id = -1 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 }, m2 = { 0 };
	struct rdmadev_mw *mw = NULL;
	struct irdma_model_mr_info mi;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	uint64_t raddr;
	uint8_t *w;

	if (e2e_dev_open(&d3, G3_DEVARGS(0, "loop:g3mref")) != 0 ||
	    e2e_dev_open(&d2, G2_DEVARGS(1, "loop:g3mref2")) != 0)
		goto out;
	if (e2e_mr_reg(&d3, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d3, NULL, &mr, MR_LEN, E2E_ACC_ATOMIC | RDMADEV_ACCESS_MW_BIND) != 0 ||
	    e2e_mr_reg(&d2, NULL, &m2, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	e2e_wr64(mr.buf, 500);

	/* ADDFRAGCNT 2 on an atomic */
	if (e2e_pair(&d3, &d3, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	w = stall(&a);
	e2e_atomic_wr(&wr, &res, 1, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 41, 38), 1);
	e2e_wr64(w + 24, rte_cpu_to_le_64(e2e_qw(w, 3) + (UINT64_C(1) << 38)));
	unstall(&b);
	TEST_CHECK_EQ(status_of(&d3, SQ_WINDOW + 1, 1), RDMADEV_WC_WR_FLUSH_ERR);
	TEST_CHECK_EQ(e2e_rd64(mr.buf), 500);
	e2e_unpair(&a, &b);
	e2e_drain(&d3);

	/* a type-1 bind (MEMWINDOWTYPE 1) */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d3.pd, &mw), 0);
	if (mw == NULL || e2e_pair(&d3, &d3, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	w = stall(&a);
	e2e_wr_init(&wr, 2, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = mr.mr;
	wr.bind_mw.addr = raddr;
	wr.bind_mw.length = 64;
	wr.bind_mw.rkey = mw->rkey;
	wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 54, 54), 0);
	e2e_wr64(w + 24, rte_cpu_to_le_64(e2e_qw(w, 3) | (UINT64_C(1) << 54)));
	unstall(&b);
	(void)status_of(&d3, SQ_WINDOW + 1, 2);
	TEST_CHECK_EQ(irdma_model_mr_get(irdma_dev_hw(rdmadev_get(d3.id)), mw->rkey >> 8, &mi),
		      0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_ALLOCATED);
	e2e_unpair(&a, &b);
	e2e_drain(&d3);

	/* gen2: a NOP turned into a FETCH_ADD */
	if (e2e_pair(&d2, &d2, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	w = stall(&a);
	e2e_wr_init(&wr, 3, RDMADEV_WR_NOP, NULL, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 37, 32), F_OP_NOP);
	e2e_wr64(w + 24, rte_cpu_to_le_64((e2e_qw(w, 3) & ~(UINT64_C(0x3f) << 32)) |
		 ((uint64_t)F_OP_FETCH_ADD << 32)));
	unstall(&b);
	TEST_CHECK_EQ(status_of(&d2, SQ_WINDOW + 1, 3), RDMADEV_WC_LOC_QP_OP_ERR);
	e2e_unpair(&a, &b);
	e2e_drain(&d2);
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d3);
	e2e_drain(&d2);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_mr_dereg(&m2);
	e2e_dev_close(&d2);
	e2e_dev_close(&d3);
}

/* Work requests the PMD refuses before writing anything: -EINVAL / -ENOTSUP. */
static void
test_post_refusals(void)
{
	static struct e2e_dev d2, d3 = { .id = -1 };
	struct e2e_qp a = { 0 }, b = { 0 }, u = { 0 }, a2 = { 0 }, b2 = { 0 };
	struct e2e_mr m = { 0 }, m2 = { 0 };
	struct rdmadev_mw *mw = NULL;
	struct rdmadev_mr *mr = NULL;
	struct rdmadev_mr_attr ma;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res, two[2];
	uint64_t raddr;
	int err;

	if (e2e_dev_open(&d3, G3_DEVARGS(0, "loop:g3ref")) != 0 ||
	    e2e_dev_open(&d2, G2_DEVARGS(1, "loop:g3ref2")) != 0)
		goto out;
	if (e2e_mr_reg(&d3, NULL, &m, MR_LEN, E2E_ACC_ATOMIC) != 0 ||
	    e2e_pair(&d3, &d3, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)m.buf + 64;
	/* length other than 8 */
	e2e_atomic_wr(&wr, &res, 30, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
	res.length = 4;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* two SGEs, or none */
	two[0] = two[1] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)m.buf, 8, m.lkey };
	wr.sg_list = two;
	wr.num_sge = 2;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	wr.num_sge = 0;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* remote address not 8-byte aligned */
	e2e_atomic_wr(&wr, &res, 31, RDMADEV_WR_ATOMIC_CS, &m, 0, raddr + 4, m.rkey, 1, 2);
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* inline */
	e2e_atomic_wr(&wr, &res, 32, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
	wr.flags |= RDMADEV_SEND_INLINE;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* on a UD QP */
	e2e_qp_create(&d3, &u, RDMADEV_QPT_UD, NULL);
	if (u.qp != NULL && e2e_ud_up(&u, 0x1234) == 0) {
		e2e_atomic_wr(&wr, &res, 33, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
		TEST_CHECK_EQ(rdmadev_post_send(u.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
	}
	/* BIND_MW: rkey of another index, no window, rights beyond remote ones, length 0 */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d3.pd, &mw), 0);
	if (mw != NULL) {
		e2e_wr_init(&wr, 34, RDMADEV_WR_BIND_MW, NULL, 0);
		wr.bind_mw.mw = mw;
		wr.bind_mw.mr = m.mr;
		wr.bind_mw.addr = (uint64_t)(uintptr_t)m.buf;
		wr.bind_mw.length = 4096;
		wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
		wr.bind_mw.rkey = mw->rkey + 0x100;
		TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		wr.bind_mw.rkey = mw->rkey;
		wr.bind_mw.access = RDMADEV_ACCESS_LOCAL_WRITE;
		TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
		wr.bind_mw.length = 0;
		TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		wr.bind_mw.length = 4096;
		wr.bind_mw.mw = NULL;
		TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
	}
	/* nothing reached the device: the QP still works */
	e2e_atomic_wr(&wr, &res, 35, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d3.scq, 35, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_idle(&d3.scq, 50), 0);

	/* gen2: -ENOTSUP for atomics, windows and atomic regions */
	if (e2e_mr_reg(&d2, NULL, &m2, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_pair(&d2, &d2, &a2, &b2, E2E_ACC_ALL) != 0)
		goto out;
	e2e_atomic_wr(&wr, &res, 40, RDMADEV_WR_ATOMIC_FA, &m2, 0, (uint64_t)(uintptr_t)m2.buf,
		      m2.rkey, 1, 0);
	TEST_CHECK_EQ(rdmadev_post_send(a2.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	wr.opcode = RDMADEV_WR_ATOMIC_CS;
	TEST_CHECK_EQ(rdmadev_post_send(a2.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	e2e_wr_init(&wr, 41, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = m2.mr;
	wr.bind_mw.length = 8;
	TEST_CHECK_EQ(rdmadev_post_send(a2.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	{
		struct rdmadev_mw *mw2 = NULL;

		TEST_CHECK_EQ(rdmadev_mw_alloc(d2.pd, &mw2), -ENOTSUP);
		TEST_CHECK(mw2 == NULL);
	}
	memset(&ma, 0, sizeof(ma));
	ma.addr = m2.buf;
	ma.length = 4096;
	ma.iova = (uint64_t)(uintptr_t)m2.buf;
	ma.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_ATOMIC;
	TEST_CHECK_EQ(rdmadev_mr_reg(d2.pd, &ma, &mr), -ENOTSUP);
	TEST_CHECK(mr == NULL);
	TEST_CHECK_EQ(e2e_idle(&d2.scq, 50), 0);
out:
	e2e_unpair(&a2, &b2);
	e2e_unpair(&a, &b);
	e2e_qp_destroy(&u);
	e2e_drain(&d3);
	e2e_drain(&d2);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&m);
	e2e_mr_dereg(&m2);
	e2e_dev_close(&d2);
	e2e_dev_close(&d3);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_gen3_errors") < 0)
		return test_eal_bail();
	TEST_RUN(test_remote_errors);
	TEST_RUN(test_model_wqe_refusals);
	TEST_RUN(test_post_refusals);
	rte_eal_cleanup();
	return test_done();
}
