/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Gen3 atomics through rdmadev on the device model opened with gen=3 (the windows are
 * test_irdma_gen3_mw.c, the error paths test_irdma_gen3_errors.c):
 *  - capabilities: ATOMICS and MW on gen3 only; the gen3 QP context's ORD, IRD and
 *    REMOTE_ATOMIC_EN at the kernel's gen3 bit positions;
 *  - WQE conformance: ATOMIC_FA, ATOMIC_CS and BIND_MW as the PMD writes them, read back with
 *    rdmadev_qp_dump_wqe() and decoded with test_bits() at doc/hardware.md's bit positions
 *    (§1.2, §1.3, §1.5), independent of base/; the chunk rule with a 2-quantum WQE;
 *  - fetch-add and compare-swap end to end (old value in the local SGE, the target changed
 *    or not), many atomics from two QPs summing exactly with every old value seen once;
 *  - a duplicated / retransmitted atomic executes once (wire fault injection), and READs,
 *    atomics and WRITEs mixed beyond the ORD on a lossy wire all complete with their data;
 *  - FAST_REG with REMOTE_ATOMIC.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>

#include <rdmadev_driver.h>

#include "irdma_qp.h"
#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

/* Device arguments of a gen3 (or gen2) model on wire @p wire. */
#define G3_DEVARGS(n, wire) E2E_DEVARGS_GEN(n, 3, wire)
#define G2_DEVARGS(n, wire) E2E_DEVARGS_GEN(n, 2, wire)

#define MR_LEN		(64u * 1024u)

/* §1.3 opcodes. */
enum { F_OP_BIND_MW = 0x08, F_OP_NOP = 0x0c, F_OP_FETCH_ADD = 0x0f, F_OP_CMP_SWAP = 0x11 };

/* The two devices of the two-device tests. */
static struct e2e_dev da, db;
/* The next two_up() makes lossy devices (faults injected: e2e_dev lossy, short timeout). */
static bool two_lossy;

/*
 * Open da on @p wire_a and db on @p wire_b, register @p ml (the local buffer) on da and
 * @p mr (the atomics' target) on db, and connect an atomic RC pair @p a (on da) -> @p b;
 * 0 when all are there. two_down() undoes any part of it.
 */
static int
two_up(const char *wire_a, const char *wire_b, struct e2e_mr *ml, struct e2e_mr *mr,
       struct e2e_qp *a, struct e2e_qp *b)
{
	db.id = -1;
	if (e2e_dev_open(&da, wire_a) != 0 || e2e_dev_open(&db, wire_b) != 0)
		return -1;
	da.lossy = db.lossy = two_lossy;
	two_lossy = false;
	if (e2e_mr_reg(&da, NULL, ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&db, NULL, mr, MR_LEN, E2E_ACC_ATOMIC) != 0 ||
	    e2e_pair(&da, &db, a, b, E2E_ACC_ATOMIC) != 0)
		return -1;
	return 0;
}

/* Undo two_up(): the pair, what is left on both devices' CQs, the MRs, the devices. */
static void
two_down(struct e2e_mr *ml, struct e2e_mr *mr, struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_unpair(a, b);
	e2e_drain(&da);
	e2e_drain(&db);
	e2e_mr_dereg(ml);
	e2e_mr_dereg(mr);
	e2e_dev_close(&db);
	e2e_dev_close(&da);
}

/* Faults @p f (NULL: none) on both devices' wire ports. */
static void
two_faults(const struct irdma_model_wire_faults *f)
{
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(da.id)), f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(db.id)), f), 0);
}

/* ---- tests ---- */

/* Capabilities: gen3 advertises atomics and windows, gen2 neither. */
static void
test_capa(void)
{
	static struct e2e_dev d2, d3 = { .id = -1 };
	struct rdmadev_info in;

	if (e2e_dev_open(&d2, G2_DEVARGS(0, "loop:g3capa")) != 0 ||
	    e2e_dev_open(&d3, G3_DEVARGS(1, "loop:g3capa")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_info_get(d2.id, &in), 0);
	TEST_CHECK_EQ(in.capa & (RDMADEV_CAPA_ATOMICS | RDMADEV_CAPA_MW), 0);
	TEST_CHECK_EQ(in.max_mw, 0);
	TEST_CHECK_EQ(rdmadev_info_get(d3.id, &in), 0);
	TEST_CHECK_EQ(in.hw_gen, 3);
	TEST_CHECK(in.capa & RDMADEV_CAPA_ATOMICS);
	TEST_CHECK(in.capa & RDMADEV_CAPA_MW);
	TEST_CHECK(in.max_mw > 0);
out:
	e2e_dev_close(&d3);
	e2e_dev_close(&d2);
}

/*
 * Qword 20 (byte 160) of the host context of QP @p p, as the driver last gave it to the
 * device: gen3 has ORD in 10:0, the IRD code in 17:14 and REMOTE_ATOMIC_EN in bit 18 (the
 * kernel's irdma_sc_qp_setctx_roce_gen_3); gen2 has ORD in 7:0 and the IRD code in 18:16.
 */
static uint64_t
qpc_byte160(const struct e2e_qp *p)
{
	const struct irdma_qp *q = p->qp->obj.fp.drv;

	return e2e_qw((const uint8_t *)q->hctx.va + IRDMA_Q2_BUF_SIZE, 20);
}

/* The gen3 QP context: ORD, IRD and the remote-atomic right where gen3 keeps them. */
static void
test_qp_context(void)
{
	static struct e2e_dev d2, d3 = { .id = -1 };
	struct e2e_qp a = { 0 }, b = { 0 }, c = { 0 }, e = { 0 };
	uint64_t v;

	if (e2e_dev_open(&d2, G2_DEVARGS(0, "loop:g3qpc2")) != 0 ||
	    e2e_dev_open(&d3, G3_DEVARGS(1, "loop:g3qpc3")) != 0)
		goto out;
	/* e2e_rc_connect: max_rd_atomic 8, max_dest_rd_atomic 16 */
	if (e2e_pair(&d3, &d3, &a, &b, E2E_ACC_ATOMIC) != 0 ||
	    e2e_pair(&d2, &d2, &c, &e, E2E_ACC_ALL) != 0)
		goto out;
	v = qpc_byte160(&a);
	TEST_CHECK_EQ(test_bits(v, 10, 0), 8);		/* ORD */
	TEST_CHECK_EQ(test_bits(v, 17, 14), 3);		/* IRD: 2 x 16 = 32 = 4 << 3 */
	TEST_CHECK_EQ(test_bits(v, 18, 18), 1);		/* REMOTE_ATOMIC_EN */
	TEST_CHECK_EQ(test_bits(v, 20, 20), 1);		/* WRRDRSPOK */
	TEST_CHECK_EQ(test_bits(v, 21, 21), 1);		/* RDOK */
	v = qpc_byte160(&c);
	TEST_CHECK_EQ(test_bits(v, 7, 0), 8);		/* gen2 ORD */
	TEST_CHECK_EQ(test_bits(v, 18, 16), 2);		/* gen2 IRD: 32 -> 2 */
	TEST_CHECK_EQ(test_bits(v, 21, 20), 3);
out:
	e2e_unpair(&a, &b);
	e2e_unpair(&c, &e);
	e2e_dev_close(&d3);
	e2e_dev_close(&d2);
}

/* The PMD's ATOMIC_FA / ATOMIC_CS / BIND_MW WQEs at doc/hardware.md's bit positions. */
static void
test_wqe_conformance(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr m = { 0 };
	struct rdmadev_mw *mw = NULL;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	uint8_t w[64];
	uint64_t hdr, raddr;
	uint32_t idx = 0, rkey;

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3wqe")) != 0)
		goto out;
	if (e2e_mr_reg(&d, NULL, &m, MR_LEN, E2E_ACC_ATOMIC | RDMADEV_ACCESS_MW_BIND) != 0 ||
	    e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)m.buf + 4096;

	/* FETCH_ADD, fenced: 2 quanta at quantum 0 */
	e2e_atomic_wr(&wr, &res, 1, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey,
		      UINT64_C(0x1122334455667788), UINT64_C(0xdead));
	wr.flags |= RDMADEV_SEND_FENCE;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, idx, w, sizeof(w)), (int)sizeof(w));
	hdr = e2e_qw(w, 3);
	TEST_CHECK_EQ(test_bits(hdr, 37, 32), F_OP_FETCH_ADD);
	TEST_CHECK_EQ(test_bits(hdr, 31, 0), m.rkey);		/* REMOTE_STAG */
	TEST_CHECK_EQ(test_bits(hdr, 41, 38), 1);			/* ADDFRAGCNT */
	TEST_CHECK_EQ(test_bits(hdr, 60, 60), 1);			/* READFENCE */
	TEST_CHECK_EQ(test_bits(hdr, 61, 61), 0);			/* LOCALFENCE */
	TEST_CHECK_EQ(test_bits(hdr, 62, 62), 1);			/* SIGCOMPL */
	TEST_CHECK_EQ(test_bits(hdr, 63, 63), 1);			/* VALID, first pass */
	TEST_CHECK_EQ(test_bits(hdr, 59, 42), 0);			/* nothing else */
	TEST_CHECK_EQ(e2e_qw(w, 0), res.addr);			/* local TO */
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 1), 31, 0), m.lkey);		/* local STag */
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 1), 63, 32), 0);
	TEST_CHECK_EQ(e2e_qw(w, 2), raddr);				/* remote TO */
	TEST_CHECK_EQ(e2e_qw(w, 4), UINT64_C(0x1122334455667788));	/* add value */
	TEST_CHECK_EQ(e2e_qw(w, 5), 0);				/* no compare */
	TEST_CHECK_EQ(e2e_qw(w, 6), 0);
	TEST_CHECK_EQ(e2e_qw(w, 7), UINT64_C(1) << 63);		/* VALID only */
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	idx += 2;

	/* COMPARE_SWAP, local fence, unsignaled then a signaled NOP behind it */
	e2e_atomic_wr(&wr, &res, 2, RDMADEV_WR_ATOMIC_CS, &m, 8, raddr, m.rkey, 77, 99);
	wr.flags = RDMADEV_SEND_LOCAL_FENCE;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, idx, w, sizeof(w)), (int)sizeof(w));
	hdr = e2e_qw(w, 3);
	TEST_CHECK_EQ(test_bits(hdr, 37, 32), F_OP_CMP_SWAP);
	TEST_CHECK_EQ(test_bits(hdr, 31, 0), m.rkey);
	TEST_CHECK_EQ(test_bits(hdr, 41, 38), 1);
	TEST_CHECK_EQ(test_bits(hdr, 60, 60), 0);
	TEST_CHECK_EQ(test_bits(hdr, 61, 61), 1);
	TEST_CHECK_EQ(test_bits(hdr, 62, 62), 0);
	TEST_CHECK_EQ(test_bits(hdr, 63, 63), 1);
	TEST_CHECK_EQ(e2e_qw(w, 0), res.addr);
	TEST_CHECK_EQ(e2e_qw(w, 2), raddr);
	TEST_CHECK_EQ(e2e_qw(w, 4), 99);				/* swap value */
	TEST_CHECK_EQ(e2e_qw(w, 5), 77);				/* compare value */
	TEST_CHECK_EQ(e2e_qw(w, 7), UINT64_C(1) << 63);
	idx += 2;
	e2e_wr_init(&wr, 3, RDMADEV_WR_NOP, NULL, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_NOP);
	idx += 1;

	/* the chunk rule: 2 quanta never cross an 8-quantum boundary (a filler NOP at 7) */
	for (; idx < 7; idx++) {
		e2e_wr_init(&wr, 50 + idx, RDMADEV_WR_NOP, NULL, 0);
		wr.flags = 0;
		TEST_CHECK(e2e_send(&a, &wr));
	}
	e2e_atomic_wr(&wr, &res, 6, RDMADEV_WR_ATOMIC_FA, &m, 16, raddr, m.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, 7, w, 32), 32);
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 37, 32), F_OP_NOP);
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 62, 62), 0);		/* unsignaled */
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, 8, w, sizeof(w)), (int)sizeof(w));
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 37, 32), F_OP_FETCH_ADD);
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 3), 63, 63), 1);
	TEST_CHECK_EQ(e2e_qw(w, 7), UINT64_C(1) << 63);
	e2e_expect(&d.scq, 6, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 20), 0);	/* the filler and unsignaled NOPs: silent */

	/* BIND_MW on b (the window lives in b's PD): 1 quantum */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	if (mw == NULL)
		goto out;
	rkey = (mw->rkey & ~0xffu) | ((mw->rkey + 1) & 0xffu);
	e2e_wr_init(&wr, 4, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = m.mr;
	wr.bind_mw.addr = raddr;
	wr.bind_mw.length = 8192;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_ATOMIC;
	TEST_CHECK(e2e_send(&b, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(b.qp, 0, w, 32), 32);
	hdr = e2e_qw(w, 3);
	TEST_CHECK_EQ(test_bits(hdr, 37, 32), F_OP_BIND_MW);
	TEST_CHECK_EQ(test_bits(hdr, 52, 48), 1u << 3);		/* STAGRIGHTS: write << 3 */
	TEST_CHECK_EQ(test_bits(hdr, 53, 53), 1);			/* VABASEDTO */
	TEST_CHECK_EQ(test_bits(hdr, 54, 54), 0);			/* MEMWINDOWTYPE: type 2 */
	TEST_CHECK_EQ(test_bits(hdr, 55, 55), 1);			/* REMOTE_ATOMICS_EN */
	TEST_CHECK_EQ(test_bits(hdr, 62, 62), 1);
	TEST_CHECK_EQ(test_bits(hdr, 63, 63), 1);
	TEST_CHECK_EQ(e2e_qw(w, 0), raddr);				/* VA */
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 1), 63, 32), m.rkey);		/* parent MR */
	TEST_CHECK_EQ(test_bits(e2e_qw(w, 1), 31, 0), rkey);		/* window's new rkey */
	TEST_CHECK_EQ(e2e_qw(w, 2), 8192);				/* length */
	e2e_expect(&d.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_BIND_MW);
	TEST_CHECK_EQ(mw->rkey, rkey);
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&m);
	e2e_dev_close(&d);
}

/* Fetch-add and compare-swap between two devices: old values, targets, completions. */
static void
test_fa_cs(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	struct rdmadev_wc wc;
	uint8_t *t;
	uint64_t raddr;

	if (two_up(G3_DEVARGS(0, "loop:g3facs"), G3_DEVARGS(1, "loop:g3facs"), &ml, &mr, &a,
		   &b) != 0)
		goto out;
	t = mr.buf + 1024;
	raddr = (uint64_t)(uintptr_t)t;
	e2e_wr64(t, UINT64_C(0x00000000fffffff0));
	memset(ml.buf, 0xee, 64);

	/* fetch-add: old value back, the target adds (carry across 32 bits) */
	e2e_atomic_wr(&wr, &res, 10, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 0x20, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(e2e_next(&da.scq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 10);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(wc.byte_len, 8);
	TEST_CHECK_EQ(wc.qp_num, a.qpn);
	TEST_CHECK_EQ(e2e_rd64(ml.buf), UINT64_C(0x00000000fffffff0));
	TEST_CHECK_EQ(e2e_rd64(t), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(ml.buf[8], 0xee);				/* 8 bytes written, no more */

	/* compare-swap, no match: nothing changes, the old value comes back */
	e2e_atomic_wr(&wr, &res, 11, RDMADEV_WR_ATOMIC_CS, &ml, 16, raddr, mr.rkey, 5, 0xabc);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(e2e_next(&da.scq, &wc));
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(wc.byte_len, 8);
	TEST_CHECK_EQ(e2e_rd64(ml.buf + 16), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(e2e_rd64(t), UINT64_C(0x0000000100000010));

	/* compare-swap, match: swapped */
	e2e_atomic_wr(&wr, &res, 12, RDMADEV_WR_ATOMIC_CS, &ml, 24, raddr, mr.rkey,
		      UINT64_C(0x0000000100000010), UINT64_C(0xfeedfacecafebeef));
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&da.scq, 12, RDMADEV_WC_SUCCESS, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(e2e_rd64(ml.buf + 24), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(e2e_rd64(t), UINT64_C(0xfeedfacecafebeef));

	/* fetch-add wraps modulo 2^64 */
	e2e_atomic_wr(&wr, &res, 13, RDMADEV_WR_ATOMIC_FA, &ml, 32, raddr, mr.rkey,
		      UINT64_C(0x0123456789abcdef), 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&da.scq, 13, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_rd64(t), UINT64_C(0xfeedfacecafebeef) + UINT64_C(0x0123456789abcdef));
	TEST_CHECK(e2e_canary_ok(&ml) && e2e_canary_ok(&mr));
	TEST_CHECK_EQ(e2e_idle(&db.rcq, 50), 0);	/* atomics take no receive */
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), 4);
	TEST_CHECK_EQ(E2E_STAT(&da, out_atomics), 4);
out:
	two_down(&ml, &mr, &a, &b);
}

#define MANY	192u	/* a multiple of the burst of 16 */

/* Two QPs add 1 to one counter MANY times each, in bursts beyond the ORD: the sum is exact
 * and every old value 0 .. 2 MANY - 1 comes back exactly once. */
static void
test_many_two_qps(void)
{
	static struct e2e_dev d;
	static uint8_t seen[2 * MANY];
	struct e2e_qp a1 = { 0 }, b1 = { 0 }, a2 = { 0 }, b2 = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr[2][16];
	struct rdmadev_sge res[2][16];
	struct rdmadev_wc wc;
	unsigned int i, k, done = 0, dupes = 0;
	uint64_t raddr;
	int err;

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3many")) != 0)
		goto out;
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, E2E_ACC_ATOMIC) != 0 ||
	    e2e_pair(&d, &d, &a1, &b1, E2E_ACC_ATOMIC) != 0 ||
	    e2e_pair(&d, &d, &a2, &b2, E2E_ACC_ATOMIC) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf + 8192;
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < MANY; k += 16) {
		for (i = 0; i < 16; i++) {
			e2e_atomic_wr(&wr[0][i], &res[0][i], k + i, RDMADEV_WR_ATOMIC_FA, &ml,
				      8 * (k + i), raddr, mr.rkey, 1, 0);
			e2e_atomic_wr(&wr[1][i], &res[1][i], MANY + k + i, RDMADEV_WR_ATOMIC_FA,
				      &ml, 8 * (MANY + k + i), raddr, mr.rkey, 1, 0);
		}
		TEST_CHECK_EQ(rdmadev_post_send(a1.qp, wr[0], 16, &err), 16);
		TEST_CHECK_EQ(rdmadev_post_send(a2.qp, wr[1], 16, &err), 16);
		for (i = 0; i < 32; i++) {
			if (!e2e_next(&d.scq, &wc))
				break;
			TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
			TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_FETCH_ADD);
			done++;
		}
	}
	TEST_CHECK_EQ(done, 2 * MANY);
	TEST_CHECK_EQ(e2e_rd64(mr.buf + 8192), 2 * MANY);
	for (i = 0; i < 2 * MANY; i++) {
		uint64_t v = e2e_rd64(ml.buf + 8 * i);

		if (v >= 2 * MANY || seen[v]++)
			dupes++;
	}
	TEST_CHECK_EQ(dupes, 0);
out:
	e2e_unpair(&a1, &b1);
	e2e_unpair(&a2, &b2);
	e2e_drain(&d);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_dev_close(&d);
}

#define DUP_N	64u

/*
 * Faults on the wire: every frame duplicated, then frames dropped (lost ATOMIC_ACKs make the
 * requester ask again): each atomic still executes exactly once.
 */
static void
dup_run(const struct irdma_model_wire_faults *f, const char *wire_a, const char *wire_b,
	bool expect_saved)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	unsigned int i, ok = 0;
	uint64_t raddr;

	two_lossy = true;
	if (two_up(wire_a, wire_b, &ml, &mr, &a, &b) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	two_faults(f);
	for (i = 0; i < DUP_N; i++) {
		struct rdmadev_wc wc;

		/* alternate fetch-add of 3 and a compare-swap that always matches (+5) */
		if (i & 1)
			e2e_atomic_wr(&wr, &res, i, RDMADEV_WR_ATOMIC_CS, &ml, 8 * i, raddr,
				      mr.rkey, e2e_rd64(mr.buf), e2e_rd64(mr.buf) + 5);
		else
			e2e_atomic_wr(&wr, &res, i, RDMADEV_WR_ATOMIC_FA, &ml, 8 * i, raddr,
				      mr.rkey, 3, 0);
		TEST_CHECK(e2e_send(&a, &wr));
		if (!e2e_next(&da.scq, &wc))
			break;
		if (wc.status == RDMADEV_WC_SUCCESS && wc.wr_id == i)
			ok++;
	}
	TEST_CHECK_EQ(ok, DUP_N);
	/* executed once each: 32 x 3 + 32 x 5 */
	TEST_CHECK_EQ(e2e_rd64(mr.buf), DUP_N / 2 * 3 + DUP_N / 2 * 5);
	/* each result is the value before it */
	for (i = 1; i < DUP_N; i++)
		TEST_CHECK_EQ(e2e_rd64(ml.buf + 8 * i),
			      e2e_rd64(ml.buf + 8 * (i - 1)) + (i & 1 ? 3 : 5));
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), DUP_N);
	TEST_CHECK(E2E_STAT(&db, dup_requests) > 0);
	if (expect_saved)
		TEST_CHECK(E2E_STAT(&db, dup_atomics) > 0);
	printf("# dup requests %" PRIu64 ", answered from saved results %" PRIu64
	       ", retransmits %" PRIu64 "\n", E2E_STAT(&db, dup_requests),
	       E2E_STAT(&db, dup_atomics), E2E_STAT(&da, rc_retransmits));
	two_faults(NULL);
out:
	two_down(&ml, &mr, &a, &b);
}

static void
test_duplicates(void)
{
	struct irdma_model_wire_faults f = { .dup_ppm = 1000000, .seed = 7 };

	dup_run(&f, G3_DEVARGS(0, "loop:g3dup"), G3_DEVARGS(1, "loop:g3dup"), false);
	/* lost acknowledges: the retransmitted request is answered from the saved result */
	f = (struct irdma_model_wire_faults){ .drop_ppm = 250000, .dup_ppm = 100000,
					      .reorder_ppm = 100000, .seed = 11 };
	dup_run(&f, G3_DEVARGS(0, "loop:g3drop"), G3_DEVARGS(1, "loop:g3drop"), true);
}

#define MIX_ROUNDS	12u
#define MIX_BURST	24u

/*
 * READs, atomics and WRITEs mixed in bursts beyond the ORD (8), on a lossy wire: read
 * responses and atomic acknowledges share the responder's IRD queue and the requester's
 * in-order response check, and every rewind has to land on the right kind. Every READ's data,
 * every atomic's old value and the final counter are checked.
 */
static void
test_mixed_lossy(void)
{
	const struct irdma_model_wire_faults f = { .drop_ppm = 50000, .dup_ppm = 50000,
						   .reorder_ppm = 50000, .seed = 23 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr[MIX_BURST];
	struct rdmadev_sge sge[MIX_BURST];
	uint64_t raddr, expect = 0, seed = 5;
	unsigned int r, i, bad = 0, done = 0;
	int err;

	two_lossy = true;
	if (two_up(G3_DEVARGS(0, "loop:g3mix"), G3_DEVARGS(1, "loop:g3mix"), &ml, &mr, &a,
		   &b) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	e2e_fill(mr.buf + 4096, 32768, 77);
	two_faults(&f);
	for (r = 0; r < MIX_ROUNDS; r++) {
		memset(ml.buf, 0, 32768);
		for (i = 0; i < MIX_BURST; i++) {
			uint32_t len = 1 + (uint32_t)(e2e_rand(&seed) % 1000); /* < a slot */

			switch (i % 3) {
			case 0:	/* READ into its own slot of the local buffer */
				sge[i] = (struct rdmadev_sge){
					(uint64_t)(uintptr_t)ml.buf + 1024 * i, len, ml.lkey };
				e2e_wr_init(&wr[i], i, RDMADEV_WR_RDMA_READ, &sge[i], 1);
				wr[i].rdma.remote_addr = raddr + 4096 + 1024 * i;
				wr[i].rdma.rkey = mr.rkey;
				break;
			case 1:	/* fetch-add of i */
				e2e_atomic_wr(&wr[i], &sge[i], i, RDMADEV_WR_ATOMIC_FA, &ml,
					      1024 * i, raddr, mr.rkey, i, 0);
				break;
			default: /* WRITE into the remote scratch area */
				sge[i] = (struct rdmadev_sge){
					(uint64_t)(uintptr_t)ml.buf + 1024 * i, len, ml.lkey };
				e2e_wr_init(&wr[i], i, RDMADEV_WR_RDMA_WRITE, &sge[i], 1);
				wr[i].rdma.remote_addr = raddr + 40960 + 1024 * i;
				wr[i].rdma.rkey = mr.rkey;
				break;
			}
		}
		TEST_CHECK_EQ(rdmadev_post_send(a.qp, wr, MIX_BURST, &err), MIX_BURST);
		for (i = 0; i < MIX_BURST; i++) {
			struct rdmadev_wc wc;

			if (!e2e_next(&da.scq, &wc))
				break;
			if (wc.status != RDMADEV_WC_SUCCESS || wc.wr_id != i) {
				bad++;
				continue;
			}
			done++;
			if (i % 3 == 0 && memcmp(ml.buf + 1024 * i, mr.buf + 4096 + 1024 * i,
						 sge[i].length) != 0)
				bad++;
			if (i % 3 == 1) {
				if (e2e_rd64(ml.buf + 1024 * i) != expect)
					bad++;
				expect += i;
			}
		}
	}
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(done, MIX_ROUNDS * MIX_BURST);
	TEST_CHECK_EQ(e2e_rd64(mr.buf), expect);
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), MIX_ROUNDS * MIX_BURST / 3);
	printf("# retransmits %" PRIu64 ", duplicate requests %" PRIu64 ", saved answers %" PRIu64
	       "\n", E2E_STAT(&da, rc_retransmits), E2E_STAT(&db, dup_requests),
	       E2E_STAT(&db, dup_atomics));
	two_faults(NULL);
out:
	two_down(&ml, &mr, &a, &b);
}

/* FAST_REG with REMOTE_ATOMIC on gen3: atomics through the fast-registered key. */
static void
test_fast_reg_atomic(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mb = { 0 };
	struct rdmadev_mr *fmr = NULL;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	uint64_t pages[2];

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3fr")) != 0)
		goto out;
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d, NULL, &mb, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_pair(&d, &d, &a, &b, E2E_ACC_ATOMIC) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(d.pd, 2, &fmr), 0);
	if (fmr == NULL)
		goto out;
	pages[0] = rte_mem_virt2iova(mb.buf);
	pages[1] = rte_mem_virt2iova(mb.buf + 4096);
	e2e_wr_init(&wr, 1, RDMADEV_WR_FAST_REG, NULL, 0);
	wr.fast_reg.mr = fmr;
	wr.fast_reg.page_list = pages;
	wr.fast_reg.nb_pages = 2;
	wr.fast_reg.page_shift = 12;
	wr.fast_reg.iova = (uint64_t)(uintptr_t)mb.buf;
	wr.fast_reg.length = 8192;
	wr.fast_reg.access = E2E_ACC_ATOMIC;
	wr.fast_reg.key = 0x77;
	TEST_CHECK(e2e_send(&b, &wr));
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_REG_MR);
	e2e_wr64(mb.buf + 4096 + 8, 9);
	e2e_atomic_wr(&wr, &res, 2, RDMADEV_WR_ATOMIC_CS, &ml, 0,
		      (uint64_t)(uintptr_t)mb.buf + 4096 + 8, rdmadev_mr_rkey(fmr), 9, 10);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(e2e_rd64(mb.buf + 4096 + 8), 10);
	TEST_CHECK_EQ(e2e_rd64(ml.buf), 9);
out:
	e2e_unpair(&a, &b);
	e2e_drain(&d);
	if (fmr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(fmr), 0);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mb);
	e2e_dev_close(&d);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_gen3_atomic") < 0)
		return test_eal_bail();
	TEST_RUN(test_capa);
	TEST_RUN(test_qp_context);
	TEST_RUN(test_wqe_conformance);
	TEST_RUN(test_fa_cs);
	TEST_RUN(test_many_two_qps);
	TEST_RUN(test_duplicates);
	TEST_RUN(test_mixed_lossy);
	TEST_RUN(test_fast_reg_atomic);
	rte_eal_cleanup();
	return test_done();
}
