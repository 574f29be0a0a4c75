/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Gen3 atomics and type-2 memory windows, through rdmadev on the device model opened with
 * gen=3:
 *  - WQE conformance: ATOMIC_FA, ATOMIC_CS and BIND_MW as the PMD writes them, read back with
 *    rdmadev_qp_dump_wqe() and decoded here at the fact sheet's bit positions (§1.2, §1.3,
 *    §1.5), independent of base/;
 *  - fetch-add and compare-swap end to end (old value in the local SGE, the target changed
 *    or not), many atomics from two QPs summing exactly, the ORD respected;
 *  - error paths: no remote-atomic right on the QP or the region, out of bounds
 *    (REM_ACCESS_ERR), a misaligned target reaching the device (REM_INV_REQ_ERR), targets
 *    untouched; work requests the PMD refuses (-EINVAL, -ENOTSUP on gen2) and WQEs it never
 *    writes (patched in the ring before the model reads them) that the model refuses;
 *  - a duplicated / retransmitted atomic executes once (wire fault injection), and READs,
 *    atomics and WRITEs mixed beyond the ORD on a lossy wire all complete with their data;
 *  - windows: bind, WRITE / READ / atomics through the window's rkey inside its range, outside
 *    refused, dead after LOCAL_INV or SEND with invalidate, bind errors;
 *  - restrack: windows are MR-type entries; every count balances at the end.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_eal.h>

#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

/* Device arguments of a gen3 (or gen2) model on wire @p wire. */
#define G3_DEVARGS(n, wire) "irdma_model" #n ",gen=3,qps=64,cqs=64,mrs=256,mode=" \
	IRDMA_TEST_MODE ",wire=" wire
#define G2_DEVARGS(n, wire) "irdma_model" #n ",gen=2,qps=64,cqs=64,mrs=256,mode=" \
	IRDMA_TEST_MODE ",wire=" wire

#define MR_LEN		(64u * 1024u)
#define ACC_ATOM	(E2E_ACC_ALL | RDMADEV_ACCESS_REMOTE_ATOMIC)

/* ---- the fact sheet's encoding, decoded independently ---- */

/* Bits hi..lo of @p v. */
static uint64_t
bits(uint64_t v, unsigned int hi, unsigned int lo)
{
	return (v >> lo) & (hi - lo == 63 ? UINT64_MAX : (UINT64_C(1) << (hi - lo + 1)) - 1);
}

/* Qword @p n (little endian) of the dumped WQE @p b. */
static uint64_t
qw(const uint8_t *b, unsigned int n)
{
	uint64_t v;

	memcpy(&v, b + 8 * n, sizeof(v));
	return rte_le_to_cpu_64(v);
}

/* §1.3 opcodes. */
enum { F_OP_BIND_MW = 0x08, F_OP_FETCH_ADD = 0x0f, F_OP_CMP_SWAP = 0x11 };

/* ---- helpers ---- */

static void
wr_init(struct rdmadev_send_wr *wr, uint64_t id, uint8_t op, const struct rdmadev_sge *sge,
	uint16_t nsge)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = id;
	wr->opcode = op;
	wr->sg_list = sge;
	wr->num_sge = nsge;
	wr->flags = RDMADEV_SEND_SIGNALED;
}

/* An atomic WR: result into @p res (8 bytes), target @p raddr / @p rkey. */
static void
atomic_wr(struct rdmadev_send_wr *wr, struct rdmadev_sge *res, uint64_t id, uint8_t op,
	  const struct e2e_mr *local, uint64_t loff, uint64_t raddr, uint32_t rkey,
	  uint64_t compare_add, uint64_t swap)
{
	*res = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(local->buf + loff), 8, local->lkey };
	wr_init(wr, id, op, res, 1);
	wr->atomic.remote_addr = raddr;
	wr->atomic.rkey = rkey;
	wr->atomic.compare_add = compare_add;
	wr->atomic.swap = swap;
}

static uint64_t
rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void
wr64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* A connected RC pair a (on @p da) -> b (on @p db) whose QPs have rights @p access. */
static int
pair(struct e2e_dev *da, struct e2e_dev *db, struct e2e_qp *a, struct e2e_qp *b,
     uint32_t access)
{
	struct e2e_conn c;

	e2e_conn_default(&c);
	c.access = access;
	c.timeout = 8;
	e2e_qp_create(da, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(db, b, RDMADEV_QPT_RC, NULL);
	if (a->qp == NULL || b->qp == NULL)
		return -1;
	return e2e_rc_connect(a, b, &c);
}

static void
unpair(struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_qp_destroy(a);
	e2e_qp_destroy(b);
}

/* Drop every collected completion of @p d. */
static void
drain(struct e2e_dev *d)
{
	(void)e2e_idle(&d->scq, 64);
	d->scq.head = d->scq.tail;
	d->rcq.head = d->rcq.tail;
}

static uint32_t
res_count(const struct e2e_dev *d, enum restrack_type t)
{
	return (uint32_t)restrack_count(rdmadev_get(d->id)->res, t, NULL);
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

/* The PMD's ATOMIC_FA / ATOMIC_CS / BIND_MW WQEs at the fact sheet's bit positions. */
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
	if (e2e_mr_reg(&d, NULL, &m, MR_LEN, ACC_ATOM | RDMADEV_ACCESS_MW_BIND) != 0 ||
	    pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)m.buf + 4096;

	/* FETCH_ADD, fenced: 2 quanta at quantum 0 */
	atomic_wr(&wr, &res, 1, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey,
		  UINT64_C(0x1122334455667788), UINT64_C(0xdead));
	wr.flags |= RDMADEV_SEND_FENCE;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, idx, w, sizeof(w)), (int)sizeof(w));
	hdr = qw(w, 3);
	TEST_CHECK_EQ(bits(hdr, 37, 32), F_OP_FETCH_ADD);
	TEST_CHECK_EQ(bits(hdr, 31, 0), m.rkey);		/* REMOTE_STAG */
	TEST_CHECK_EQ(bits(hdr, 41, 38), 1);			/* ADDFRAGCNT */
	TEST_CHECK_EQ(bits(hdr, 60, 60), 1);			/* READFENCE */
	TEST_CHECK_EQ(bits(hdr, 61, 61), 0);			/* LOCALFENCE */
	TEST_CHECK_EQ(bits(hdr, 62, 62), 1);			/* SIGCOMPL */
	TEST_CHECK_EQ(bits(hdr, 63, 63), 1);			/* VALID, first pass */
	TEST_CHECK_EQ(bits(hdr, 59, 42), 0);			/* nothing else */
	TEST_CHECK_EQ(qw(w, 0), res.addr);			/* local TO */
	TEST_CHECK_EQ(bits(qw(w, 1), 31, 0), m.lkey);		/* local STag */
	TEST_CHECK_EQ(bits(qw(w, 1), 63, 32), 0);
	TEST_CHECK_EQ(qw(w, 2), raddr);				/* remote TO */
	TEST_CHECK_EQ(qw(w, 4), UINT64_C(0x1122334455667788));	/* add value */
	TEST_CHECK_EQ(qw(w, 5), 0);				/* no compare */
	TEST_CHECK_EQ(qw(w, 6), 0);
	TEST_CHECK_EQ(qw(w, 7), UINT64_C(1) << 63);		/* VALID only */
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	idx += 2;

	/* COMPARE_SWAP, local fence, unsignaled then a signaled NOP behind it */
	atomic_wr(&wr, &res, 2, RDMADEV_WR_ATOMIC_CS, &m, 8, raddr, m.rkey, 77, 99);
	wr.flags = RDMADEV_SEND_LOCAL_FENCE;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, idx, w, sizeof(w)), (int)sizeof(w));
	hdr = qw(w, 3);
	TEST_CHECK_EQ(bits(hdr, 37, 32), F_OP_CMP_SWAP);
	TEST_CHECK_EQ(bits(hdr, 31, 0), m.rkey);
	TEST_CHECK_EQ(bits(hdr, 41, 38), 1);
	TEST_CHECK_EQ(bits(hdr, 60, 60), 0);
	TEST_CHECK_EQ(bits(hdr, 61, 61), 1);
	TEST_CHECK_EQ(bits(hdr, 62, 62), 0);
	TEST_CHECK_EQ(bits(hdr, 63, 63), 1);
	TEST_CHECK_EQ(qw(w, 0), res.addr);
	TEST_CHECK_EQ(qw(w, 2), raddr);
	TEST_CHECK_EQ(qw(w, 4), 99);				/* swap value */
	TEST_CHECK_EQ(qw(w, 5), 77);				/* compare value */
	TEST_CHECK_EQ(qw(w, 7), UINT64_C(1) << 63);
	idx += 2;
	wr_init(&wr, 3, RDMADEV_WR_NOP, NULL, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_NOP);
	idx += 1;

	/* the chunk rule: 2 quanta never cross an 8-quantum boundary (a filler NOP at 7) */
	for (; idx < 7; idx++) {
		wr_init(&wr, 50 + idx, RDMADEV_WR_NOP, NULL, 0);
		wr.flags = 0;
		TEST_CHECK(e2e_send(&a, &wr));
	}
	atomic_wr(&wr, &res, 6, RDMADEV_WR_ATOMIC_FA, &m, 16, raddr, m.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, 7, w, 32), 32);
	TEST_CHECK_EQ(bits(qw(w, 3), 37, 32), 0x0c);		/* NOP */
	TEST_CHECK_EQ(bits(qw(w, 3), 62, 62), 0);		/* unsignaled */
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(a.qp, 8, w, sizeof(w)), (int)sizeof(w));
	TEST_CHECK_EQ(bits(qw(w, 3), 37, 32), F_OP_FETCH_ADD);
	TEST_CHECK_EQ(bits(qw(w, 3), 63, 63), 1);
	TEST_CHECK_EQ(qw(w, 7), UINT64_C(1) << 63);
	e2e_expect(&d.scq, 6, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 20), 0);	/* the filler and unsignaled NOPs: silent */

	/* BIND_MW on b (the window lives in b's PD): 1 quantum */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d.pd, &mw), 0);
	if (mw == NULL)
		goto out;
	rkey = (mw->rkey & ~0xffu) | ((mw->rkey + 1) & 0xffu);
	wr_init(&wr, 4, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = m.mr;
	wr.bind_mw.addr = raddr;
	wr.bind_mw.length = 8192;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_ATOMIC;
	TEST_CHECK(e2e_send(&b, &wr));
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(b.qp, 0, w, 32), 32);
	hdr = qw(w, 3);
	TEST_CHECK_EQ(bits(hdr, 37, 32), F_OP_BIND_MW);
	TEST_CHECK_EQ(bits(hdr, 52, 48), 1u << 3);		/* STAGRIGHTS: write << 3 */
	TEST_CHECK_EQ(bits(hdr, 53, 53), 1);			/* VABASEDTO */
	TEST_CHECK_EQ(bits(hdr, 54, 54), 0);			/* MEMWINDOWTYPE: type 2 */
	TEST_CHECK_EQ(bits(hdr, 55, 55), 1);			/* REMOTE_ATOMICS_EN */
	TEST_CHECK_EQ(bits(hdr, 62, 62), 1);
	TEST_CHECK_EQ(bits(hdr, 63, 63), 1);
	TEST_CHECK_EQ(qw(w, 0), raddr);				/* VA */
	TEST_CHECK_EQ(bits(qw(w, 1), 63, 32), m.rkey);		/* parent MR */
	TEST_CHECK_EQ(bits(qw(w, 1), 31, 0), rkey);		/* window's new rkey */
	TEST_CHECK_EQ(qw(w, 2), 8192);				/* length */
	e2e_expect(&d.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_BIND_MW);
	TEST_CHECK_EQ(mw->rkey, rkey);
out:
	unpair(&a, &b);
	drain(&d);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&m);
	e2e_dev_close(&d);
}

/* Fetch-add and compare-swap between two devices: old values, targets, completions. */
static void
test_fa_cs(void)
{
	static struct e2e_dev da, db = { .id = -1 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	struct rdmadev_wc wc;
	uint8_t *t;
	uint64_t raddr;

	if (e2e_dev_open(&da, G3_DEVARGS(0, "loop:g3facs")) != 0 ||
	    e2e_dev_open(&db, G3_DEVARGS(1, "loop:g3facs")) != 0)
		goto out;
	if (e2e_mr_reg(&da, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&db, NULL, &mr, MR_LEN, ACC_ATOM) != 0 || pair(&da, &db, &a, &b, ACC_ATOM))
		goto out;
	t = mr.buf + 1024;
	raddr = (uint64_t)(uintptr_t)t;
	wr64(t, UINT64_C(0x00000000fffffff0));
	memset(ml.buf, 0xee, 64);

	/* fetch-add: old value back, the target adds (carry across 32 bits) */
	atomic_wr(&wr, &res, 10, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 0x20, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(e2e_next(&da.scq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 10);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(wc.byte_len, 8);
	TEST_CHECK_EQ(wc.qp_num, a.qpn);
	TEST_CHECK_EQ(rd64(ml.buf), UINT64_C(0x00000000fffffff0));
	TEST_CHECK_EQ(rd64(t), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(ml.buf[8], 0xee);				/* 8 bytes written, no more */

	/* compare-swap, no match: nothing changes, the old value comes back */
	atomic_wr(&wr, &res, 11, RDMADEV_WR_ATOMIC_CS, &ml, 16, raddr, mr.rkey, 5, 0xabc);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(e2e_next(&da.scq, &wc));
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(wc.byte_len, 8);
	TEST_CHECK_EQ(rd64(ml.buf + 16), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(rd64(t), UINT64_C(0x0000000100000010));

	/* compare-swap, match: swapped */
	atomic_wr(&wr, &res, 12, RDMADEV_WR_ATOMIC_CS, &ml, 24, raddr, mr.rkey,
		  UINT64_C(0x0000000100000010), UINT64_C(0xfeedfacecafebeef));
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&da.scq, 12, RDMADEV_WC_SUCCESS, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(rd64(ml.buf + 24), UINT64_C(0x0000000100000010));
	TEST_CHECK_EQ(rd64(t), UINT64_C(0xfeedfacecafebeef));

	/* fetch-add wraps modulo 2^64 */
	atomic_wr(&wr, &res, 13, RDMADEV_WR_ATOMIC_FA, &ml, 32, raddr, mr.rkey,
		  UINT64_C(0x0123456789abcdef), 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&da.scq, 13, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(rd64(t), UINT64_C(0xfeedfacecafebeef) + UINT64_C(0x0123456789abcdef));
	TEST_CHECK(e2e_canary_ok(&ml) && e2e_canary_ok(&mr));
	TEST_CHECK_EQ(e2e_idle(&db.rcq, 50), 0);	/* atomics take no receive */
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), 4);
	TEST_CHECK_EQ(E2E_STAT(&da, out_atomics), 4);
out:
	unpair(&a, &b);
	drain(&da);
	drain(&db);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_dev_close(&db);
	e2e_dev_close(&da);
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
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, ACC_ATOM) != 0 ||
	    pair(&d, &d, &a1, &b1, ACC_ATOM) != 0 || pair(&d, &d, &a2, &b2, ACC_ATOM) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf + 8192;
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < MANY; k += 16) {
		for (i = 0; i < 16; i++) {
			atomic_wr(&wr[0][i], &res[0][i], k + i, RDMADEV_WR_ATOMIC_FA, &ml,
				  8 * (k + i), raddr, mr.rkey, 1, 0);
			atomic_wr(&wr[1][i], &res[1][i], MANY + k + i, RDMADEV_WR_ATOMIC_FA, &ml,
				  8 * (MANY + k + i), raddr, mr.rkey, 1, 0);
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
	TEST_CHECK_EQ(rd64(mr.buf + 8192), 2 * MANY);
	for (i = 0; i < 2 * MANY; i++) {
		uint64_t v = rd64(ml.buf + 8 * i);

		if (v >= 2 * MANY || seen[v]++)
			dupes++;
	}
	TEST_CHECK_EQ(dupes, 0);
out:
	unpair(&a1, &b1);
	unpair(&a2, &b2);
	drain(&d);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_dev_close(&d);
}

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
		wr_init(&wr, 100 + i, RDMADEV_WR_SEND, NULL, 0);
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
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, ACC_ATOM) != 0 ||
	    e2e_mr_reg(&d, NULL, &mn, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	wr64(mr.buf, 1000);
	wr64(mn.buf, 2000);
	wr64(ml.buf, 0x5555);

	/* the responder QP lacks REMOTE_ATOMIC: REM_ACCESS_ERR, target untouched */
	if (pair(&d, &d, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	atomic_wr(&wr, &res, 20, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 7, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 20, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK_EQ(rd64(mr.buf), 1000);
	TEST_CHECK_EQ(rd64(ml.buf), 0x5555);		/* no result written */
	unpair(&a, &b);
	drain(&d);

	/* the region lacks REMOTE_ATOMIC */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	atomic_wr(&wr, &res, 21, RDMADEV_WR_ATOMIC_CS, &ml, 0, (uint64_t)(uintptr_t)mn.buf,
		  mn.rkey, 2000, 1);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 21, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK_EQ(rd64(mn.buf), 2000);
	unpair(&a, &b);
	drain(&d);

	/*
	 * Misaligned at the device: the PMD refuses such a WR, so the posted WQE's remote TO
	 * (qword 2) is moved by 4 bytes before the model fetches it. The model fetches at most
	 * its window of WQEs ahead: SENDs without receives (RNR, retried forever) fill it first.
	 * The responder NAKs an invalid request: REM_INV_REQ_ERR, the target untouched.
	 */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	w = stall(&a);
	atomic_wr(&wr, &res, 23, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr + 8, mr.rkey, 1, 0);
	wr64(mr.buf + 8, 0x0102030405060708);
	wr64(mr.buf + 16, 0x1112131415161718);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(e2e_idle(&d.scq, 20), 0);
	TEST_CHECK_EQ(qw(w, 2), raddr + 8);
	wr64(w + 16, rte_cpu_to_le_64(raddr + 12));
	unstall(&b);
	for (i = 0; i < SQ_WINDOW; i++)
		e2e_expect(&d.scq, 100 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	e2e_expect(&d.scq, 23, RDMADEV_WC_REM_INV_REQ_ERR, -1);
	TEST_CHECK_EQ(rd64(mr.buf + 8), 0x0102030405060708);
	TEST_CHECK_EQ(rd64(mr.buf + 16), 0x1112131415161718);
	unpair(&a, &b);
	drain(&d);

	/* out of the region's bounds (last 4 bytes + 4 beyond): REM_ACCESS_ERR */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	atomic_wr(&wr, &res, 22, RDMADEV_WR_ATOMIC_FA, &ml, 0,
		  (uint64_t)(uintptr_t)mr.buf + MR_LEN, mr.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 22, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK(e2e_canary_ok(&mr));
	unpair(&a, &b);
	drain(&d);
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
	    e2e_mr_reg(&d3, NULL, &mr, MR_LEN, ACC_ATOM | RDMADEV_ACCESS_MW_BIND) != 0 ||
	    e2e_mr_reg(&d2, NULL, &m2, MR_LEN, E2E_ACC_ALL) != 0)
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	wr64(mr.buf, 500);

	/* ADDFRAGCNT 2 on an atomic */
	if (pair(&d3, &d3, &a, &b, ACC_ATOM) != 0)
		goto out;
	w = stall(&a);
	atomic_wr(&wr, &res, 1, RDMADEV_WR_ATOMIC_FA, &ml, 0, raddr, mr.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(bits(qw(w, 3), 41, 38), 1);
	wr64(w + 24, rte_cpu_to_le_64(qw(w, 3) + (UINT64_C(1) << 38)));
	unstall(&b);
	TEST_CHECK_EQ(status_of(&d3, SQ_WINDOW + 1, 1), RDMADEV_WC_WR_FLUSH_ERR);
	TEST_CHECK_EQ(rd64(mr.buf), 500);
	unpair(&a, &b);
	drain(&d3);

	/* a type-1 bind (MEMWINDOWTYPE 1) */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d3.pd, &mw), 0);
	if (mw == NULL || pair(&d3, &d3, &a, &b, ACC_ATOM) != 0)
		goto out;
	w = stall(&a);
	wr_init(&wr, 2, RDMADEV_WR_BIND_MW, NULL, 0);
	wr.bind_mw.mw = mw;
	wr.bind_mw.mr = mr.mr;
	wr.bind_mw.addr = raddr;
	wr.bind_mw.length = 64;
	wr.bind_mw.rkey = mw->rkey;
	wr.bind_mw.access = RDMADEV_ACCESS_REMOTE_READ;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(bits(qw(w, 3), 54, 54), 0);
	wr64(w + 24, rte_cpu_to_le_64(qw(w, 3) | (UINT64_C(1) << 54)));
	unstall(&b);
	(void)status_of(&d3, SQ_WINDOW + 1, 2);
	TEST_CHECK_EQ(irdma_model_mr_get(irdma_dev_hw(rdmadev_get(d3.id)), mw->rkey >> 8, &mi),
		      0);
	TEST_CHECK_EQ(mi.state, IRDMA_MODEL_STAG_ALLOCATED);
	unpair(&a, &b);
	drain(&d3);

	/* gen2: a NOP turned into a FETCH_ADD */
	if (pair(&d2, &d2, &a, &b, E2E_ACC_ALL) != 0)
		goto out;
	w = stall(&a);
	wr_init(&wr, 3, RDMADEV_WR_NOP, NULL, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(bits(qw(w, 3), 37, 32), 0x0c);
	wr64(w + 24, rte_cpu_to_le_64((qw(w, 3) & ~(UINT64_C(0x3f) << 32)) |
				      ((uint64_t)F_OP_FETCH_ADD << 32)));
	unstall(&b);
	TEST_CHECK_EQ(status_of(&d2, SQ_WINDOW + 1, 3), RDMADEV_WC_LOC_QP_OP_ERR);
	unpair(&a, &b);
	drain(&d2);
out:
	unpair(&a, &b);
	drain(&d3);
	drain(&d2);
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
	if (e2e_mr_reg(&d3, NULL, &m, MR_LEN, ACC_ATOM) != 0 || pair(&d3, &d3, &a, &b, ACC_ATOM))
		goto out;
	raddr = (uint64_t)(uintptr_t)m.buf + 64;
	/* length other than 8 */
	atomic_wr(&wr, &res, 30, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
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
	atomic_wr(&wr, &res, 31, RDMADEV_WR_ATOMIC_CS, &m, 0, raddr + 4, m.rkey, 1, 2);
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* inline */
	atomic_wr(&wr, &res, 32, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
	wr.flags |= RDMADEV_SEND_INLINE;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* on a UD QP */
	e2e_qp_create(&d3, &u, RDMADEV_QPT_UD, NULL);
	if (u.qp != NULL && e2e_ud_up(&u, 0x1234) == 0) {
		atomic_wr(&wr, &res, 33, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
		TEST_CHECK_EQ(rdmadev_post_send(u.qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
	}
	/* BIND_MW: rkey of another index, no window, rights beyond remote ones, length 0 */
	TEST_CHECK_EQ(rdmadev_mw_alloc(d3.pd, &mw), 0);
	if (mw != NULL) {
		wr_init(&wr, 34, RDMADEV_WR_BIND_MW, NULL, 0);
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
	atomic_wr(&wr, &res, 35, RDMADEV_WR_ATOMIC_FA, &m, 0, raddr, m.rkey, 1, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d3.scq, 35, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(e2e_idle(&d3.scq, 50), 0);

	/* gen2: -ENOTSUP for atomics, windows and atomic regions */
	if (e2e_mr_reg(&d2, NULL, &m2, MR_LEN, E2E_ACC_ALL) != 0 ||
	    pair(&d2, &d2, &a2, &b2, E2E_ACC_ALL) != 0)
		goto out;
	atomic_wr(&wr, &res, 40, RDMADEV_WR_ATOMIC_FA, &m2, 0, (uint64_t)(uintptr_t)m2.buf,
		  m2.rkey, 1, 0);
	TEST_CHECK_EQ(rdmadev_post_send(a2.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	wr.opcode = RDMADEV_WR_ATOMIC_CS;
	TEST_CHECK_EQ(rdmadev_post_send(a2.qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	wr_init(&wr, 41, RDMADEV_WR_BIND_MW, NULL, 0);
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
	unpair(&a2, &b2);
	unpair(&a, &b);
	e2e_qp_destroy(&u);
	drain(&d3);
	drain(&d2);
	if (mw != NULL)
		TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	e2e_mr_dereg(&m);
	e2e_mr_dereg(&m2);
	e2e_dev_close(&d2);
	e2e_dev_close(&d3);
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
	static struct e2e_dev da, db;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge res;
	unsigned int i, ok = 0;
	uint64_t raddr;

	db.id = -1;
	if (e2e_dev_open(&da, wire_a) != 0 || e2e_dev_open(&db, wire_b) != 0)
		goto out;
	if (e2e_mr_reg(&da, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&db, NULL, &mr, MR_LEN, ACC_ATOM) != 0 || pair(&da, &db, &a, &b, ACC_ATOM))
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(da.id)), f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(db.id)), f), 0);
	for (i = 0; i < DUP_N; i++) {
		struct rdmadev_wc wc;

		/* alternate fetch-add of 3 and a compare-swap that always matches (+5) */
		if (i & 1)
			atomic_wr(&wr, &res, i, RDMADEV_WR_ATOMIC_CS, &ml, 8 * i, raddr, mr.rkey,
				  rd64(mr.buf), rd64(mr.buf) + 5);
		else
			atomic_wr(&wr, &res, i, RDMADEV_WR_ATOMIC_FA, &ml, 8 * i, raddr, mr.rkey,
				  3, 0);
		TEST_CHECK(e2e_send(&a, &wr));
		if (!e2e_next(&da.scq, &wc))
			break;
		if (wc.status == RDMADEV_WC_SUCCESS && wc.wr_id == i)
			ok++;
	}
	TEST_CHECK_EQ(ok, DUP_N);
	/* executed once each: 32 x 3 + 32 x 5 */
	TEST_CHECK_EQ(rd64(mr.buf), DUP_N / 2 * 3 + DUP_N / 2 * 5);
	/* each result is the value before it */
	for (i = 1; i < DUP_N; i++)
		TEST_CHECK_EQ(rd64(ml.buf + 8 * i), rd64(ml.buf + 8 * (i - 1)) + (i & 1 ? 3 : 5));
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), DUP_N);
	TEST_CHECK(E2E_STAT(&db, dup_requests) > 0);
	if (expect_saved)
		TEST_CHECK(E2E_STAT(&db, dup_atomics) > 0);
	printf("# dup requests %" PRIu64 ", answered from saved results %" PRIu64
	       ", retransmits %" PRIu64 "\n", E2E_STAT(&db, dup_requests),
	       E2E_STAT(&db, dup_atomics), E2E_STAT(&da, rc_retransmits));
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(da.id)), NULL), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(db.id)), NULL), 0);
out:
	unpair(&a, &b);
	drain(&da);
	drain(&db);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_dev_close(&db);
	e2e_dev_close(&da);
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
	static struct e2e_dev da, db;
	const struct irdma_model_wire_faults f = { .drop_ppm = 50000, .dup_ppm = 50000,
						   .reorder_ppm = 50000, .seed = 23 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr ml = { 0 }, mr = { 0 };
	struct rdmadev_send_wr wr[MIX_BURST];
	struct rdmadev_sge sge[MIX_BURST];
	uint64_t raddr, expect = 0, seed = 5;
	unsigned int r, i, bad = 0, done = 0;
	int err;

	db.id = -1;
	if (e2e_dev_open(&da, G3_DEVARGS(0, "loop:g3mix")) != 0 ||
	    e2e_dev_open(&db, G3_DEVARGS(1, "loop:g3mix")) != 0)
		goto out;
	if (e2e_mr_reg(&da, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&db, NULL, &mr, MR_LEN, ACC_ATOM) != 0 || pair(&da, &db, &a, &b, ACC_ATOM))
		goto out;
	raddr = (uint64_t)(uintptr_t)mr.buf;
	e2e_fill(mr.buf + 4096, 32768, 77);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(da.id)), &f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(db.id)), &f), 0);
	for (r = 0; r < MIX_ROUNDS; r++) {
		memset(ml.buf, 0, 32768);
		for (i = 0; i < MIX_BURST; i++) {
			uint32_t len = 1 + (uint32_t)(e2e_rand(&seed) % 1000); /* < a slot */

			switch (i % 3) {
			case 0:	/* READ into its own slot of the local buffer */
				sge[i] = (struct rdmadev_sge){
					(uint64_t)(uintptr_t)ml.buf + 1024 * i, len, ml.lkey };
				wr_init(&wr[i], i, RDMADEV_WR_RDMA_READ, &sge[i], 1);
				wr[i].rdma.remote_addr = raddr + 4096 + 1024 * i;
				wr[i].rdma.rkey = mr.rkey;
				break;
			case 1:	/* fetch-add of i */
				atomic_wr(&wr[i], &sge[i], i, RDMADEV_WR_ATOMIC_FA, &ml,
					  1024 * i, raddr, mr.rkey, i, 0);
				break;
			default: /* WRITE into the remote scratch area */
				sge[i] = (struct rdmadev_sge){
					(uint64_t)(uintptr_t)ml.buf + 1024 * i, len, ml.lkey };
				wr_init(&wr[i], i, RDMADEV_WR_RDMA_WRITE, &sge[i], 1);
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
				if (rd64(ml.buf + 1024 * i) != expect)
					bad++;
				expect += i;
			}
		}
	}
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK_EQ(done, MIX_ROUNDS * MIX_BURST);
	TEST_CHECK_EQ(rd64(mr.buf), expect);
	TEST_CHECK_EQ(E2E_STAT(&db, in_atomics), MIX_ROUNDS * MIX_BURST / 3);
	printf("# retransmits %" PRIu64 ", duplicate requests %" PRIu64 ", saved answers %" PRIu64
	       "\n", E2E_STAT(&da, rc_retransmits), E2E_STAT(&db, dup_requests),
	       E2E_STAT(&db, dup_atomics));
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(da.id)), NULL), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(db.id)), NULL), 0);
out:
	unpair(&a, &b);
	drain(&da);
	drain(&db);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mr);
	e2e_dev_close(&db);
	e2e_dev_close(&da);
}

/* Bind @p mw over [addr, addr + len) of @p m on @p q with rights @p acc and key @p key. */
static uint32_t
bind(struct e2e_qp *q, struct rdmadev_mw *mw, const struct e2e_mr *m, uint64_t addr,
     uint32_t len, uint32_t acc, uint8_t key, uint64_t id, enum rdmadev_wc_status st)
{
	struct rdmadev_send_wr wr;
	uint32_t rkey = (mw->rkey & ~0xffu) | key;

	wr_init(&wr, id, RDMADEV_WR_BIND_MW, NULL, 0);
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

	wr_init(&wr, id, op, &sge, 1);
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

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3mw")) != 0)
		goto out;
	mrs0 = res_count(&d, RESTRACK_MR);
	if (e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) != 0 ||
	    e2e_mr_reg(&d, NULL, &mr, MR_LEN, ACC_ATOM | RDMADEV_ACCESS_MW_BIND) != 0 ||
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
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	win = mr.buf + 8192;
	wva = (uint64_t)(uintptr_t)win;
	e2e_fill(ml.buf, 4096, 3);
	e2e_fill(mr.buf, MR_LEN, 4);

	/* an unbound window's key is not valid */
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 64, wva, mw->rkey, 1, RDMADEV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	drain(&d);
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
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
	wr64(win + 2048, 40);
	atomic_wr(&wr, &res, 5, RDMADEV_WR_ATOMIC_FA, &ml, 2048, wva + 2048, rkey, 2, 0);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	TEST_CHECK_EQ(rd64(win + 2048), 42);
	/* the region's own rkey keeps working beside the window */
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 512, 64, (uint64_t)(uintptr_t)mr.buf, mr.rkey, 6,
	     RDMADEV_WC_SUCCESS);
	/* a bound type-2 window cannot bind again before it is invalidated */
	(void)bind(&b, mw, &mr, wva, 64, RDMADEV_ACCESS_REMOTE_READ, 0x32, 7,
		   RDMADEV_WC_MW_BIND_ERR);
	unpair(&a, &b);
	drain(&d);

	/* outside the window (inside the region): refused, nothing written */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	memcpy(save, win - 256, sizeof(save));
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 256, wva - 128, rkey, 8,
	     RDMADEV_WC_REM_ACCESS_ERR);
	TEST_CHECK(memcmp(save, win - 256, sizeof(save)) == 0);
	unpair(&a, &b);
	drain(&d);
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 64, wva + 4096 - 32, rkey, 9,
	     RDMADEV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	drain(&d);

	/* LOCAL_INV of the window on b: a's WRITE through it fails */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	wr_init(&wr, 10, RDMADEV_WR_LOCAL_INV, NULL, 0);
	wr.invalidate_rkey = rkey;
	TEST_CHECK(e2e_send(&b, &wr));
	e2e_expect(&d.scq, 10, RDMADEV_WC_SUCCESS, RDMADEV_WC_LOCAL_INV);
	memcpy(save, win, sizeof(save));
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 512, 64, wva, rkey, 11, RDMADEV_WC_REM_ACCESS_ERR);
	TEST_CHECK(memcmp(save, win, sizeof(save)) == 0);
	unpair(&a, &b);
	drain(&d);

	/* bind again (read only, new key), then SEND with invalidate from a kills it */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	rkey = bind(&b, mw, &mr, wva, 1024, RDMADEV_ACCESS_REMOTE_READ, 0x33, 12,
		    RDMADEV_WC_SUCCESS);
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 128, wva, rkey, 13, RDMADEV_WC_SUCCESS);
	{
		struct rdmadev_sge rs = { (uint64_t)(uintptr_t)ml.buf + 8192, 64, ml.lkey };
		struct rdmadev_sge ss = { (uint64_t)(uintptr_t)ml.buf, 16, ml.lkey };

		TEST_CHECK(e2e_recv(&b, 14, &rs, 1));
		wr_init(&wr, 15, RDMADEV_WR_SEND_INV, &ss, 1);
		wr.invalidate_rkey = rkey;
		TEST_CHECK(e2e_send(&a, &wr));
		e2e_expect(&d.scq, 15, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 14);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK(wc.wc_flags & RDMADEV_WC_WITH_INV);
		TEST_CHECK_EQ(wc.invalidated_rkey, rkey);
	}
	/* a write-only right was never granted, and now the key is dead anyway */
	rdma(&a, RDMADEV_WR_RDMA_READ, &ml, 0, 64, wva, rkey, 16, RDMADEV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	drain(&d);

	/* rights: a read-only window refuses a WRITE */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	rkey = bind(&b, mw2, &mr, wva, 64, RDMADEV_ACCESS_REMOTE_READ, 0x40, 17,
		    RDMADEV_WC_SUCCESS);
	rdma(&a, RDMADEV_WR_RDMA_WRITE, &ml, 0, 8, wva, rkey, 18, RDMADEV_WC_REM_ACCESS_ERR);
	unpair(&a, &b);
	drain(&d);

	/* bind errors: a region without MW_BIND, a range beyond the region */
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	(void)bind(&b, mw, &nob, (uint64_t)(uintptr_t)nob.buf, 64, RDMADEV_ACCESS_REMOTE_READ,
		   0x50, 19, RDMADEV_WC_MW_BIND_ERR);
	unpair(&a, &b);
	drain(&d);
	if (pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	(void)bind(&b, mw, &mr, (uint64_t)(uintptr_t)mr.buf + MR_LEN - 64, 128,
		   RDMADEV_ACCESS_REMOTE_READ, 0x51, 20, RDMADEV_WC_MW_BIND_ERR);
	unpair(&a, &b);
	drain(&d);
	TEST_CHECK(e2e_canary_ok(&mr) && e2e_canary_ok(&ml));
	TEST_CHECK(E2E_STAT(&d, mw_binds) >= 3);
out:
	unpair(&a, &b);
	drain(&d);
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
	    pair(&d, &d, &a, &b, ACC_ATOM) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(d.pd, 2, &fmr), 0);
	if (fmr == NULL)
		goto out;
	pages[0] = rte_mem_virt2iova(mb.buf);
	pages[1] = rte_mem_virt2iova(mb.buf + 4096);
	wr_init(&wr, 1, RDMADEV_WR_FAST_REG, NULL, 0);
	wr.fast_reg.mr = fmr;
	wr.fast_reg.page_list = pages;
	wr.fast_reg.nb_pages = 2;
	wr.fast_reg.page_shift = 12;
	wr.fast_reg.iova = (uint64_t)(uintptr_t)mb.buf;
	wr.fast_reg.length = 8192;
	wr.fast_reg.access = ACC_ATOM;
	wr.fast_reg.key = 0x77;
	TEST_CHECK(e2e_send(&b, &wr));
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_REG_MR);
	wr64(mb.buf + 4096 + 8, 9);
	atomic_wr(&wr, &res, 2, RDMADEV_WR_ATOMIC_CS, &ml, 0,
		  (uint64_t)(uintptr_t)mb.buf + 4096 + 8, rdmadev_mr_rkey(fmr), 9, 10);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_COMP_SWAP);
	TEST_CHECK_EQ(rd64(mb.buf + 4096 + 8), 10);
	TEST_CHECK_EQ(rd64(ml.buf), 9);
out:
	unpair(&a, &b);
	drain(&d);
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
	if (test_eal_init("test_irdma_gen3_atomic_" IRDMA_TEST_MODE, NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	printf("# model mode: %s\n", IRDMA_TEST_MODE);
	TEST_RUN(test_capa);
	TEST_RUN(test_wqe_conformance);
	TEST_RUN(test_fa_cs);
	TEST_RUN(test_many_two_qps);
	TEST_RUN(test_remote_errors);
	TEST_RUN(test_post_refusals);
	TEST_RUN(test_model_wqe_refusals);
	TEST_RUN(test_duplicates);
	TEST_RUN(test_mixed_lossy);
	TEST_RUN(test_mw);
	TEST_RUN(test_fast_reg_atomic);
	rte_eal_cleanup();
	return test_done();
}
