/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data path's error paths end to end (PMD WQEs executed by the model, completions
 * through rdmadev_poll_cq): bad lkey, bad rkey, PD mismatch, access rights, bounds, RNR
 * exhausted and recovered, a QP moved to ERR mid-stream, a SEND longer than the receive, a
 * UD send error (SQE, recovered), the verbs drain pattern (WRs posted in ERR complete with
 * WR_FLUSH_ERR), qp_query after a remote error.
 * Exactly one completion per signaled WR, with the right status, the rest flushed; target
 * memory and the canaries around every MR untouched.
 */

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_pause.h>

#include <rdmadev_driver.h>
#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

#define MR_LEN	(64u * 1024u)

/* The device and MRs every case shares. */
static struct e2e_dev d;
static struct e2e_mr ml;	/* local, every right */
static struct e2e_mr mt;	/* target, every right */
static struct e2e_mr mro;	/* target, local write only */
static struct e2e_mr mwo;	/* target, remote write but no remote read */
static struct e2e_mr mpd2;	/* target, every right, in the other PD */

static void
wr_rdma(struct rdmadev_send_wr *wr, uint64_t id, uint8_t op, struct rdmadev_sge *s,
	uint64_t rva, uint32_t rkey)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = id;
	wr->opcode = op;
	wr->sg_list = s;
	wr->num_sge = s != NULL ? 1 : 0;
	wr->flags = RDMADEV_SEND_SIGNALED;
	wr->rdma.remote_addr = rva;
	wr->rdma.rkey = rkey;
}

static int
pair_up(struct e2e_qp *a, struct e2e_qp *b, const struct e2e_conn *c)
{
	e2e_qp_create(&d, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, b, RDMADEV_QPT_RC, NULL);
	if (a->qp == NULL || b->qp == NULL)
		return -1;
	return e2e_rc_connect(a, b, c);
}

/* Check that nothing more completes, then destroy the pair. */
static void
pair_down(struct e2e_qp *a, struct e2e_qp *b)
{
	TEST_CHECK_EQ(e2e_idle(&d.scq, 200), 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 1), 0);
	e2e_qp_destroy(a);
	e2e_qp_destroy(b);
	(void)e2e_idle(&d.scq, 16);
	d.scq.head = d.scq.tail;
	d.rcq.head = d.rcq.tail;
}

/*
 * One RDMA op (WRITE or READ) of @p len bytes at @p rva / @p rkey that the responder must
 * refuse: the requester completes with REM_ACCESS_ERR, @p t's bytes and canaries unchanged.
 */
static void
remote_err(const char *what, uint8_t op, uint64_t rva, uint32_t rkey, uint32_t len,
	   struct e2e_mr *t)
{
	static uint8_t save[MR_LEN];
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s;

	printf("# remote error: %s\n", what);
	e2e_fill(t->buf, t->len, 99);
	memcpy(save, t->buf, t->len);
	e2e_fill(ml.buf, ml.len, 98);
	if (pair_up(&a, &b, NULL) == 0) {
		s = e2e_sge(&ml, 0, len);
		wr_rdma(&wr, 7, op, &s, rva, rkey);
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 7, RDMADEV_WC_REM_ACCESS_ERR, -1);
		TEST_CHECK(memcmp(t->buf, save, t->len) == 0);
		TEST_CHECK(e2e_canary_ok(t) && e2e_canary_ok(&ml));
		if (op == RDMADEV_WR_RDMA_READ) {
			uint8_t want[MR_LEN / 16];

			e2e_fill(want, sizeof(want), 98);
			TEST_CHECK(memcmp(ml.buf, want, RTE_MIN(len, sizeof(want))) == 0);
		}
	}
	pair_down(&a, &b);
}

static void
test_remote_access(void)
{
	uint64_t t = (uint64_t)(uintptr_t)mt.buf;

	remote_err("WRITE, unknown rkey", RDMADEV_WR_RDMA_WRITE, t, mt.rkey ^ 0x300u, 64, &mt);
	remote_err("WRITE, rkey with another key byte", RDMADEV_WR_RDMA_WRITE, t,
		   mt.rkey ^ 0x1u, 64, &mt);
	remote_err("READ, unknown rkey", RDMADEV_WR_RDMA_READ, t, mt.rkey ^ 0x300u, 64, &mt);
	remote_err("WRITE, MR of another PD", RDMADEV_WR_RDMA_WRITE,
		   (uint64_t)(uintptr_t)mpd2.buf, mpd2.rkey, 64, &mpd2);
	remote_err("READ, MR of another PD", RDMADEV_WR_RDMA_READ,
		   (uint64_t)(uintptr_t)mpd2.buf, mpd2.rkey, 64, &mpd2);
	remote_err("WRITE, MR without remote write", RDMADEV_WR_RDMA_WRITE,
		   (uint64_t)(uintptr_t)mro.buf, mro.rkey, 64, &mro);
	remote_err("READ, MR without remote read", RDMADEV_WR_RDMA_READ,
		   (uint64_t)(uintptr_t)mwo.buf, mwo.rkey, 64, &mwo);
	remote_err("WRITE past the end", RDMADEV_WR_RDMA_WRITE, t + MR_LEN - 10, mt.rkey, 20,
		   &mt);
	remote_err("WRITE before the start", RDMADEV_WR_RDMA_WRITE, t - 8, mt.rkey, 20, &mt);
	remote_err("multi-packet WRITE past the end", RDMADEV_WR_RDMA_WRITE, t + 4096,
		   mt.rkey, MR_LEN - 4000, &mt);
	remote_err("READ past the end", RDMADEV_WR_RDMA_READ, t + MR_LEN - 4000, mt.rkey, 8000,
		   &mt);
}

/* Bad lkeys: LOC_PROT_ERR at the requester for a gather and for a READ's scatter. */
static void
test_bad_lkey(void)
{
	static const uint8_t ops[] = { RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_RDMA_READ,
				       RDMADEV_WR_SEND };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	unsigned int i;

	for (i = 0; i < RTE_DIM(ops); i++) {
		e2e_fill(mt.buf, 256, 3);
		if (pair_up(&a, &b, NULL) == 0) {
			r = e2e_sge(&mt, 8192, 256);
			if (ops[i] == RDMADEV_WR_SEND)
				e2e_recv(&b, 70, &r, 1);
			s = e2e_sge(&ml, 0, 256);
			s.lkey ^= 0x300u;
			wr_rdma(&wr, 8, ops[i], &s, (uint64_t)(uintptr_t)mt.buf, mt.rkey);
			e2e_send(&a, &wr);
			e2e_expect(&d.scq, 8, RDMADEV_WC_LOC_PROT_ERR, -1);
			if (ops[i] == RDMADEV_WR_SEND) {
				/* the receive never matched: flushed when b is moved to ERR */
				TEST_CHECK_EQ(e2e_idle(&d.rcq, 100), 0);
				TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_ERR), 0);
				e2e_expect(&d.rcq, 70, RDMADEV_WC_WR_FLUSH_ERR, -1);
			}
			TEST_CHECK(e2e_canary_ok(&ml) && e2e_canary_ok(&mt));
		}
		pair_down(&a, &b);
	}
}

/* RNR: exhausted with rnr_retry < 7; recovered with rnr_retry 7 and a late receive. */
static void
test_rnr(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;
	struct e2e_conn c;

	e2e_conn_default(&c);
	c.rnr_retry = 2;
	c.min_rnr_timer = 1;
	s = e2e_sge(&ml, 0, 100);
	r = e2e_sge(&mt, 0, 4096);
	e2e_wr_init(&wr, 0, RDMADEV_WR_SEND, &s, 1);
	if (pair_up(&a, &b, &c) == 0) {
		wr.wr_id = 9;
		e2e_send(&a, &wr);
		e2e_expect(&d.scq, 9, RDMADEV_WC_RNR_RETRY_EXC_ERR, -1);
	}
	pair_down(&a, &b);
	c.rnr_retry = 7;
	if (pair_up(&a, &b, &c) == 0) {
		e2e_fill(ml.buf, 100, 4);
		wr.wr_id = 10;
		e2e_send(&a, &wr);
		TEST_CHECK_EQ(e2e_idle(&d.scq, 2000), 0);	/* still retrying */
		e2e_recv(&b, 71, &r, 1);
		e2e_expect(&d.scq, 10, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 71);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK_EQ(wc.byte_len, 100);
		TEST_CHECK(memcmp(mt.buf, ml.buf, 100) == 0);
	}
	pair_down(&a, &b);
}

/* SEND longer than the receive: LOC_LEN_ERR at the receiver, an error at the sender. */
static void
test_recv_too_short(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;

	memset(mt.buf + 100, 0x5c, 4096);
	if (pair_up(&a, &b, NULL) == 0) {
		s = e2e_sge(&ml, 0, 2000);
		r = e2e_sge(&mt, 0, 100);
		e2e_recv(&b, 72, &r, 1);
		e2e_wr_init(&wr, 11, RDMADEV_WR_SEND, &s, 1);
		e2e_send(&a, &wr);
		e2e_expect(&d.rcq, 72, RDMADEV_WC_LOC_LEN_ERR, -1);
		TEST_CHECK(e2e_next(&d.scq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 11);
		TEST_CHECK(wc.status != RDMADEV_WC_SUCCESS);
		printf("# sender of the too long SEND: %s\n", rdmadev_wc_status_str(wc.status));
		TEST_CHECK_EQ(mt.buf[100], 0x5c);	/* nothing past the receive buffer */
		TEST_CHECK(e2e_canary_ok(&mt));
	}
	pair_down(&a, &b);
}

/*
 * Many WRs in flight, then the requester moved to ERR: every WR completes exactly once, in
 * order, the ones not executed with WR_FLUSH_ERR; the responder's receives flush too.
 */
static void
test_err_mid_stream(void)
{
	enum { N = 300, R = 40 };
	static struct rdmadev_send_wr wrs[N];
	static struct rdmadev_sge s[N];
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_sge r;
	struct e2e_tally t;
	unsigned int i;
	uint16_t posted;
	int err = 0;

	if (pair_up(&a, &b, NULL) == 0) {
		/*
		 * Nothing leaves the device until the QP is in ERR, so every WR is still
		 * outstanding when it moves and the flush is certain, however fast the model
		 * thread runs (it could otherwise finish all 300 first).
		 */
		TEST_CHECK_EQ(e2e_wire_hold(&d), 0);
		for (i = 0; i < N; i++) {
			s[i] = e2e_sge(&ml, (i * 4096u) % (MR_LEN - 8192), 4096 + i);
			wr_rdma(&wrs[i], 1000 + i, i % 3 == 2 ? RDMADEV_WR_RDMA_READ :
				RDMADEV_WR_RDMA_WRITE, &s[i],
				(uint64_t)(uintptr_t)mt.buf + (i * 4096u) % (MR_LEN - 8192),
				mt.rkey);
		}
		r = e2e_sge(&mt, 0, 64);
		for (i = 0; i < R; i++)
			e2e_recv(&b, 5000 + i, &r, 1);
		posted = rdmadev_post_send(a.qp, wrs, N, &err);
		TEST_CHECK_EQ(posted, N);
		TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_ERR), 0);
		TEST_CHECK_EQ(e2e_tally(&d.scq, posted, 1000, &t), 0);
		TEST_CHECK_EQ(t.ok + t.flushed, posted);
		TEST_CHECK_EQ(t.other, 0);
		TEST_CHECK(t.flushed > 0);
		TEST_CHECK_EQ(e2e_wire_release(&d), 0);
		TEST_CHECK_EQ(e2e_idle(&d.scq, 200), 0);
		/* the responder's receives: still posted (RDMA ops consume none), then flushed */
		TEST_CHECK_EQ(e2e_idle(&d.rcq, 1), 0);
		TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_ERR), 0);
		for (i = 0; i < R; i++)
			e2e_expect(&d.rcq, 5000 + i, RDMADEV_WC_WR_FLUSH_ERR, -1);
		TEST_CHECK(e2e_canary_ok(&ml) && e2e_canary_ok(&mt));
	}
	pair_down(&a, &b);
}

/*
 * The device moves the requester to ERR (RNR with rnr_retry 0) while the application moves
 * it to RESET: the modify must succeed whatever the device did first, and the QP must come
 * back to RTS and work.
 */
static void
test_reset_after_async_error(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct e2e_conn c;
	unsigned int i;

	e2e_conn_default(&c);
	c.rnr_retry = 0;
	c.retry = 1;
	c.timeout = 1;
	s = e2e_sge(&ml, 0, 64);
	r = e2e_sge(&mt, 0, 64);
	e2e_wr_init(&wr, 0, RDMADEV_WR_SEND, &s, 1);
	/* a 8 us ACK timeout: the requester may well time out and resend before the NAK */
	e2e_excuse_begin(&d);
	if (pair_up(&a, &b, &c) != 0)
		goto out;
	for (i = 0; i < 8; i++) {
		wr.wr_id = 20 + i;
		e2e_send(&a, &wr);	/* no receive: RNR, and the device errs the QP */
		/* the device runs a little: the QP may be in ERROR before its AE is seen */
		(void)e2e_idle(&d.scq, i * 8);
		TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_RESET), 0);
		TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_RESET), 0);
		(void)e2e_idle(&d.scq, 64);
		d.scq.head = d.scq.tail;
		TEST_CHECK_EQ(e2e_rc_connect(&a, &b, &c), 0);
	}
	/* and the pair works (with timers a slow machine meets) */
	e2e_conn_default(&c);
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_rc_connect(&a, &b, &c), 0);
	e2e_fill(ml.buf, 64, 11);
	e2e_recv(&b, 73, &r, 1);
	wr.wr_id = 30;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 30, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	e2e_expect(&d.rcq, 73, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	TEST_CHECK(memcmp(mt.buf, ml.buf, 64) == 0);
out:
	pair_down(&a, &b);
	e2e_excuse_end(&d);
}

/*
 * The device fails the requester (RNR with rnr_retry 0) and raises an AE; before anyone
 * processes it, the application resets the QP and brings it back to RTS. The AE is about the
 * old incarnation: processing it now must not move the QP to ERR. (The interrupt thread may
 * take the AE at any point; test_irdma_events holds it back to make the order certain.)
 */
static void
test_stale_ae_after_reinit(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_event ev[8];
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct e2e_conn c;

	e2e_conn_default(&c);
	c.rnr_retry = 0;
	s = e2e_sge(&ml, 0, 64);
	r = e2e_sge(&mt, 0, 64);
	e2e_wr_init(&wr, 0, RDMADEV_WR_SEND, &s, 1);
	if (pair_up(&a, &b, &c) != 0)
		goto out;
	(void)rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
	wr.wr_id = 40;
	e2e_send(&a, &wr);	/* no receive: RNR NAK, and the device errs the QP */
	e2e_expect(&d.scq, 40, RDMADEV_WC_RNR_RETRY_EXC_ERR, RDMADEV_WC_SEND);
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_RESET), 0);
	/*
	 * The new incarnation retries RNR: an RNR NAK of the old one still on the wire (the
	 * requester may have resent its SEND on a slow machine) names the same PSN.
	 */
	c.rnr_retry = 7;
	TEST_CHECK_EQ(e2e_rc_connect(&a, &b, &c), 0);
	/* now the AE is processed (if it was not yet) */
	/* an event the interrupt thread reported before the reset may be queued: fine */
	(void)rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
	TEST_CHECK_EQ(rdmadev_qp_get_state(a.qp), RDMADEV_QPS_RTS);
	TEST_CHECK_EQ(rdmadev_qp_get_state(b.qp), RDMADEV_QPS_RTS);
	/* and the new incarnation works */
	e2e_fill(ml.buf, 64, 12);
	e2e_recv(&b, 74, &r, 1);
	wr.wr_id = 41;
	e2e_send(&a, &wr);
	e2e_expect(&d.scq, 41, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	e2e_expect(&d.rcq, 74, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	TEST_CHECK(memcmp(mt.buf, ml.buf, 64) == 0);
out:
	pair_down(&a, &b);
}

/*
 * A QP moved to ERR with WRs outstanding, its flush completions left unpolled, then reset and
 * brought back to RTS: as with verbs (rdma-core's irdma_clean_cqes at RESET), the reset
 * removes the old incarnation's completions, so a WR posted now completes once, with
 * success, and nothing of the old WRs is returned.
 */
static void
test_reset_drops_unpolled(void)
{
	enum { N = 8 };
	struct rdmadev_send_wr wr;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_sge s;
	struct rdmadev_wc wc;
	unsigned int i;

	if (pair_up(&a, &b, NULL) != 0)
		goto out;
	s = e2e_sge(&ml, 0, 256);
	e2e_fill(ml.buf, 256, 31);
	TEST_CHECK_EQ(e2e_wire_hold(&d), 0);
	for (i = 0; i < N; i++) {
		wr_rdma(&wr, 900 + i, RDMADEV_WR_RDMA_WRITE, &s, (uint64_t)(uintptr_t)mt.buf,
			mt.rkey);
		TEST_CHECK(e2e_send(&a, &wr));
	}
	/* ERR: the device flushes the eight (completions written, not polled) */
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_ERR), 0);
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_wire_release(&d), 0);
	TEST_CHECK_EQ(e2e_rc_connect(&a, &b, NULL), 0);
	memset(mt.buf, 0, 256);
	wr_rdma(&wr, 950, RDMADEV_WR_RDMA_WRITE, &s, (uint64_t)(uintptr_t)mt.buf, mt.rkey);
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(e2e_next(&d.scq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 950);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(mt.buf, ml.buf, 256) == 0);
out:
	pair_down(&a, &b);
}

/*
 * A QP destroyed with completions still in its CQs: polling afterwards returns none of them
 * (and reads nothing of the freed QP).
 */
static void
test_destroy_unpolled(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	struct rdmadev_cq_attr ca = { .cqe = 4 };
	struct rdmadev_cq *spare = NULL;
	struct rdmadev_wc wc[4];
	uint64_t c0;
	unsigned int i;

	if (pair_up(&a, &b, NULL) != 0) {
		pair_down(&a, &b);
		return;
	}
	c0 = E2E_STAT(&d, sq_cqes) + E2E_STAT(&d, rq_cqes);
	s = e2e_sge(&ml, 0, 64);
	r = e2e_sge(&mt, 0, 64);
	for (i = 0; i < 4; i++) {
		e2e_recv(&b, 80 + i, &r, 1);
		e2e_wr_init(&wr, 40 + i, RDMADEV_WR_SEND, &s, 1);
		e2e_send(&a, &wr);
	}
	/* let the device complete all 8 without taking the CQEs: poll another, empty CQ */
	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &ca, &spare), 0);
	for (i = 0; spare != NULL && i < 1000000 &&
	     E2E_STAT(&d, sq_cqes) + E2E_STAT(&d, rq_cqes) < c0 + 8; i++) {
		TEST_CHECK_EQ(rdmadev_poll_cq(spare, wc, 1), 0);
		rte_pause();
	}
	if (spare != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(spare), 0);
	TEST_CHECK_EQ(E2E_STAT(&d, sq_cqes) + E2E_STAT(&d, rq_cqes), c0 + 8);
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	TEST_CHECK_EQ(rdmadev_poll_cq(d.scq.cq, wc, RTE_DIM(wc)), 0);
	TEST_CHECK_EQ(rdmadev_poll_cq(d.rcq.cq, wc, RTE_DIM(wc)), 0);
	pair_down(&a, &b);
}

/* One UD SEND of @p s from @p a to @p dqpn through @p ah. */
static bool
ud_send(struct e2e_qp *a, uint64_t id, struct rdmadev_sge *s, struct rdmadev_ah *ah,
	uint32_t dqpn)
{
	struct rdmadev_send_wr wr;

	e2e_wr_init(&wr, id, RDMADEV_WR_SEND, s, 1);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = dqpn;
	wr.ud.remote_qkey = 0x77;
	return e2e_send(a, &wr);
}

/*
 * A UD send error (a datagram longer than the port's 4096-byte MTU) puts the send queue in
 * error, as verbs and silicon do: SQE, not ERR. The failing WR completes with LOC_LEN, the
 * ones behind it and any posted in SQE are flushed and not sent, receives keep working;
 * SQE -> RTS (after the flushed completions were polled) sends again.
 */
static void
test_ud_send_error_sqe(void)
{
	struct rdmadev_ah_attr aa = { .hop_limit = 64, .vlan_id = 0xffff, .port_num = 1 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_event ev[4];
	struct rdmadev_qp_attr at;
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_sge s, big, r;
	struct rdmadev_wc wc;
	uint64_t errs, dl;
	int n;

	memcpy(aa.dgid, d.gid, 16);
	memcpy(aa.dmac, d.mac, 6);
	e2e_qp_create(&d, &a, RDMADEV_QPT_UD, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_UD, NULL);
	if (a.qp == NULL || b.qp == NULL || e2e_ud_up(&a, 0x77) != 0 ||
	    e2e_ud_up(&b, 0x77) != 0 || rdmadev_ah_create(d.pd, &aa, &ah) != 0)
		goto out;
	(void)rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
	errs = E2E_STAT(&d, sq_wqe_errors);
	e2e_fill(ml.buf, 8192, 21);
	s = e2e_sge(&ml, 0, 700);
	big = e2e_sge(&ml, 0, 5000);
	r = e2e_sge(&mt, 0, 4096);
	TEST_CHECK(e2e_recv(&b, 80, &r, 1));
	TEST_CHECK(ud_send(&a, 1, &big, ah, b.qpn));
	TEST_CHECK(ud_send(&a, 2, &s, ah, b.qpn));
	e2e_expect(&d.scq, 1, RDMADEV_WC_LOC_LEN_ERR, -1);
	e2e_expect(&d.scq, 2, RDMADEV_WC_WR_FLUSH_ERR, -1);
	TEST_CHECK_EQ(E2E_STAT(&d, sq_wqe_errors), errs + 1);
	n = rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
	TEST_CHECK_EQ(n, 1);
	TEST_CHECK(n < 1 || (ev[0].qp == a.qp && ev[0].vendor_code == 0x0132));
	TEST_CHECK_EQ(rdmadev_qp_get_state(a.qp), RDMADEV_QPS_SQE);
	/* nothing reached b, whose receive is still posted */
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 100), 0);
	/* in SQE: a WR is flushed, not sent; a's receive side still works */
	TEST_CHECK(ud_send(&a, 3, &s, ah, b.qpn));
	e2e_expect(&d.scq, 3, RDMADEV_WC_WR_FLUSH_ERR, -1);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 100), 0);
	r = e2e_sge(&mt, 8192, 4096);
	TEST_CHECK(e2e_recv(&a, 81, &r, 1));
	TEST_CHECK(ud_send(&b, 4, &s, ah, a.qpn));
	e2e_expect(&d.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 81);
	TEST_CHECK_EQ(wc.qp_num, a.qpn);
	TEST_CHECK_EQ(wc.byte_len, 40 + 700);
	TEST_CHECK(memcmp(mt.buf + 8192 + 40, ml.buf, 700) == 0);
	/* SQE -> RTS: sends again; b's first receive takes it */
	memset(&at, 0, sizeof(at));
	at.qp_state = RDMADEV_QPS_RTS;
	TEST_CHECK_EQ(rdmadev_qp_modify(a.qp, &at, RDMADEV_QP_STATE), 0);
	TEST_CHECK_EQ(rdmadev_qp_get_state(a.qp), RDMADEV_QPS_RTS);
	s = e2e_sge(&ml, 1000, 300);
	TEST_CHECK(ud_send(&a, 5, &s, ah, b.qpn));
	e2e_expect(&d.scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 80);
	TEST_CHECK_EQ(wc.qp_num, b.qpn);
	TEST_CHECK_EQ(wc.byte_len, 40 + 300);
	TEST_CHECK(memcmp(mt.buf + 40, ml.buf + 1000, 300) == 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 50) + e2e_idle(&d.scq, 1), 0);
	/* a second error: SQE again; SQE -> RTS refused while its flush is not polled */
	TEST_CHECK(ud_send(&a, 6, &big, ah, b.qpn));
	/*
	 * Wait for SQE through the events only: polling the send CQ here could take WR 6's
	 * completion (the threaded model may write it before the AE is read), and then the
	 * refusal below would rightly not happen.
	 */
	/* Bounded in time: on a loaded machine the threaded model's engine may wait for a core. */
	dl = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	for (n = 0; rdmadev_qp_get_state(a.qp) != RDMADEV_QPS_SQE &&
		    rte_get_timer_cycles() < dl; n++) {
		(void)rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
		if ((n & 1023) == 1023)
			sched_yield();
	}
	TEST_CHECK_EQ(rdmadev_qp_get_state(a.qp), RDMADEV_QPS_SQE);
	TEST_CHECK_EQ(rdmadev_qp_modify(a.qp, &at, RDMADEV_QP_STATE), -EBUSY);
	e2e_expect(&d.scq, 6, RDMADEV_WC_LOC_LEN_ERR, -1);
	TEST_CHECK_EQ(rdmadev_qp_modify(a.qp, &at, RDMADEV_QP_STATE), 0);
out:
	if (ah != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	pair_down(&a, &b);
}

/*
 * The verbs drain pattern: WRs in flight, the QP to ERR, a marker WR posted (SQ and RQ) and
 * polled for until its flush completion; every earlier WR completed exactly once, in order,
 * then the marker with WR_FLUSH_ERR. Then, with the CQs empty, more WRs (an unsignaled one
 * among them) posted to the QP in ERR: each completes once, WR_FLUSH_ERR, none refused.
 */
static void
test_drain_pattern(void)
{
	enum { N = 64, R = 16, MARK = 9999, RMARK = 8888 };
	static struct rdmadev_send_wr wrs[N];
	static struct rdmadev_sge s[N];
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr mark;
	struct rdmadev_sge ms, r;
	struct rdmadev_wc wc;
	unsigned int i, seen = 0, order = 1, bad = 0, rseen = 0;
	uint16_t posted;
	bool got_mark = false;
	int err = 0;

	if (pair_up(&a, &b, NULL) != 0)
		goto out;
	for (i = 0; i < N; i++) {
		s[i] = e2e_sge(&ml, (i * 512u) % (MR_LEN - 4096), 512);
		wr_rdma(&wrs[i], 100 + i, RDMADEV_WR_RDMA_WRITE, &s[i],
			(uint64_t)(uintptr_t)mt.buf + (i * 512u) % (MR_LEN - 4096), mt.rkey);
	}
	r = e2e_sge(&ml, 0, 64);
	for (i = 0; i < R; i++)
		TEST_CHECK(e2e_recv(&a, 500 + i, &r, 1));
	posted = rdmadev_post_send(a.qp, wrs, N, &err);
	TEST_CHECK_EQ(posted, N);
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_ERR), 0);
	ms = e2e_sge(&ml, 0, 8);
	wr_rdma(&mark, MARK, RDMADEV_WR_RDMA_WRITE, &ms, (uint64_t)(uintptr_t)mt.buf, mt.rkey);
	TEST_CHECK(e2e_send(&a, &mark));
	TEST_CHECK(e2e_recv(&a, RMARK, &r, 1));
	/* poll until the marker's flush completion: everything before it came first */
	while (!got_mark && e2e_next(&d.scq, &wc)) {
		if (wc.wr_id == MARK) {
			got_mark = true;
			TEST_CHECK_EQ(wc.status, RDMADEV_WC_WR_FLUSH_ERR);
			break;
		}
		if (wc.wr_id != 100 + seen)
			order = 0;
		if (wc.status != RDMADEV_WC_SUCCESS && wc.status != RDMADEV_WC_WR_FLUSH_ERR)
			bad++;
		seen++;
	}
	printf("# drain: %u WRs completed before the marker\n", seen);
	TEST_CHECK(got_mark);
	TEST_CHECK(order);
	TEST_CHECK_EQ(seen, N);
	TEST_CHECK_EQ(bad, 0);
	for (i = 0; i < R; i++)
		e2e_expect(&d.rcq, 500 + i, RDMADEV_WC_WR_FLUSH_ERR, -1);
	e2e_expect(&d.rcq, RMARK, RDMADEV_WC_WR_FLUSH_ERR, -1);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 100), 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 1), 0);
	/* the CQs are empty and the device flushed long ago: post again */
	for (i = 0; i < 3; i++) {
		wr_rdma(&mark, 7000 + i, RDMADEV_WR_RDMA_WRITE, &ms,
			(uint64_t)(uintptr_t)mt.buf, mt.rkey);
		if (i == 1)
			mark.flags = 0;	/* unsignaled: flushed WRs complete all the same */
		TEST_CHECK(e2e_send(&a, &mark));
		TEST_CHECK(e2e_recv(&a, 7100 + i, &r, 1));
	}
	for (i = 0; i < 3; i++) {
		e2e_expect(&d.scq, 7000 + i, RDMADEV_WC_WR_FLUSH_ERR, -1);
		e2e_expect(&d.rcq, 7100 + i, RDMADEV_WC_WR_FLUSH_ERR, -1);
	}
	TEST_CHECK_EQ(e2e_idle(&d.scq, 100), 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 1), 0);
	while (e2e_take(&d.rcq, &wc))
		rseen++;
	TEST_CHECK_EQ(rseen, 0);
	/* back through RESET, the QP works again */
	TEST_CHECK_EQ(e2e_qp_to(&a, RDMADEV_QPS_RESET), 0);
	TEST_CHECK_EQ(e2e_qp_to(&b, RDMADEV_QPS_RESET), 0);
	/* the flush of the move to RESET can leave a CQE (as test_reset_after_async_error) */
	(void)e2e_idle(&d.scq, 64);
	d.scq.head = d.scq.tail;
	d.rcq.head = d.rcq.tail;
	TEST_CHECK_EQ(e2e_rc_connect(&a, &b, NULL), 0);
	wr_rdma(&mark, 42, RDMADEV_WR_RDMA_WRITE, &ms, (uint64_t)(uintptr_t)mt.buf, mt.rkey);
	TEST_CHECK(e2e_send(&a, &mark));
	e2e_expect(&d.scq, 42, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
out:
	pair_down(&a, &b);
}

/*
 * A remote access error moves the requester to ERR: rdmadev_qp_query says so at once (no
 * rdmadev_event_poll() first), and a WR posted then completes with WR_FLUSH_ERR.
 */
static void
test_query_after_remote_err(void)
{
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_qp_attr attr;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s;

	if (pair_up(&a, &b, NULL) != 0)
		goto out;
	s = e2e_sge(&ml, 0, 64);
	wr_rdma(&wr, 61, RDMADEV_WR_RDMA_WRITE, &s, (uint64_t)(uintptr_t)mt.buf,
		mt.rkey ^ 0x300u);
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 61, RDMADEV_WC_REM_ACCESS_ERR, -1);
	TEST_CHECK_EQ(rdmadev_qp_query(a.qp, &attr, NULL), 0);
	TEST_CHECK_EQ(attr.qp_state, RDMADEV_QPS_ERR);
	TEST_CHECK_EQ(attr.cur_qp_state, RDMADEV_QPS_ERR);
	wr.wr_id = 62;
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 62, RDMADEV_WC_WR_FLUSH_ERR, -1);
	/* the responder refused the access: it is in ERR as well (IBA 9.9.2) */
	TEST_CHECK_EQ(rdmadev_qp_query(b.qp, &attr, NULL), 0);
	TEST_CHECK_EQ(attr.qp_state, RDMADEV_QPS_ERR);
out:
	pair_down(&a, &b);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_e2e_err") < 0)
		return test_eal_bail();
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:e2eerr")) == 0) {
		e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL);
		e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL);
		e2e_mr_reg(&d, NULL, &mro, MR_LEN, RDMADEV_ACCESS_LOCAL_WRITE);
		e2e_mr_reg(&d, NULL, &mwo, MR_LEN, RDMADEV_ACCESS_LOCAL_WRITE |
			   RDMADEV_ACCESS_REMOTE_WRITE);
		e2e_mr_reg(&d, d.pd2, &mpd2, MR_LEN, E2E_ACC_ALL);
		if (ml.mr != NULL && mt.mr != NULL && mro.mr != NULL && mwo.mr != NULL &&
		    mpd2.mr != NULL) {
			TEST_RUN(test_remote_access);
			TEST_RUN(test_bad_lkey);
			TEST_RUN(test_rnr);
			TEST_RUN(test_recv_too_short);
			TEST_RUN(test_err_mid_stream);
			TEST_RUN(test_reset_after_async_error);
			TEST_RUN(test_stale_ae_after_reinit);
			TEST_RUN(test_reset_drops_unpolled);
			TEST_RUN(test_destroy_unpolled);
			TEST_RUN(test_ud_send_error_sqe);
			TEST_RUN(test_drain_pattern);
			TEST_RUN(test_query_after_remote_err);
		}
		e2e_mr_dereg(&ml);
		e2e_mr_dereg(&mt);
		e2e_mr_dereg(&mro);
		e2e_mr_dereg(&mwo);
		e2e_mr_dereg(&mpd2);
	}
	e2e_dev_close(&d);
	rte_eal_cleanup();
	return test_done();
}
