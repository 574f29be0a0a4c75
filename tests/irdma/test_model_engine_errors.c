/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's data-path engine when things go wrong, end to end over the real control path
 * (test_engine_lib.c): remote and local protection errors with the target untouched, a SEND
 * longer than its receive, RNR with and without recovery, the retry count exhausted, a QP
 * moved to error with work outstanding (one flush CQE per queue), a CQ overflow.
 */

#include <stdio.h>
#include <string.h>

#include <rte_eal.h>

#include "test.h"
#include "test_engine_lib.h"

/* pair_up(), the QPs destroyed again when it fails: true when the pair is up. */
static bool
pair_or_clean(struct tdev *t, struct tqp *a, struct tqp *b, const struct tconn *c)
{
	if (pair_up(t, a, b, c) == 0)
		return true;
	tqp_destroy(a);
	tqp_destroy(b);
	return false;
}

/* One region of a test: its PD (NULL: the device's), length and rights. */
struct tmr_spec {
	struct rdmadev_pd *pd;
	uint64_t len;
	uint32_t access;
};

/* Register regions @p m[0..n) as @p spec says: true when all of them are. */
static bool
tmrs_reg(struct tdev *t, struct tmr *m, const struct tmr_spec *spec, unsigned int n)
{
	bool ok = true;
	unsigned int i;

	for (i = 0; i < n; i++) {
		tmr_reg(t, spec[i].pd, &m[i], spec[i].len, spec[i].access);
		ok = ok && m[i].mr != NULL;
	}
	return ok;
}

/* Deregister regions @p m[0..n). */
static void
tmrs_dereg(struct tmr *m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tmr_dereg(&m[i]);
}

/* Remote protection: bad rkey, other PD, no rights, out of bounds, QP without RDOK. */
static void
test_remote_errors(void)
{
	struct tmr src, tgt, other, ro;
	struct tdev t;
	unsigned int k;

	if (!tdev_up(&t, DEVARGS(0, "loop:remerr")))
		return;
	tmr_reg(&t, NULL, &src, 8192, ACC_ALL);
	tmr_reg(&t, NULL, &tgt, 8192, ACC_ALL);
	tmr_reg(&t, t.pd2, &other, 8192, ACC_ALL);
	tmr_reg(&t, NULL, &ro, 8192, RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ);
	if (src.mr == NULL || tgt.mr == NULL || other.mr == NULL || ro.mr == NULL)
		goto out;
	tfill(src.buf, src.len, 5);
	for (k = 0; k < 7; k++) {
		struct tsge sg = { (uint64_t)(uintptr_t)src.buf, src.lkey, 4096 };
		struct twr wr = { .op = T_OP_WRITE, .sge = &sg, .nsge = 1, .signaled = true };
		struct tmr *target = &tgt;
		struct tconn c;
		struct tqp a, b;
		uint8_t before[8192];
		uint32_t idx, idx2;

		tconn_default(&c);
		wr.rva = (uint64_t)(uintptr_t)tgt.buf;
		wr.rkey = tgt.rkey;
		switch (k) {
		case 0: /* wrong key */
			wr.rkey = tgt.rkey ^ 0x5a;
			break;
		case 1: /* MR of another PD */
			target = &other;
			wr.rva = (uint64_t)(uintptr_t)other.buf;
			wr.rkey = other.rkey;
			break;
		case 2: /* MR without remote write */
			target = &ro;
			wr.rva = (uint64_t)(uintptr_t)ro.buf;
			wr.rkey = ro.rkey;
			break;
		case 3: /* beyond the end */
			wr.rva = (uint64_t)(uintptr_t)tgt.buf + 8192 - 100;
			break;
		case 4: /* below the start */
			wr.rva = (uint64_t)(uintptr_t)tgt.buf - 64;
			break;
		case 5: /* READ, QP without remote read */
			c.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE;
			wr.op = T_OP_READ;
			break;
		default: /* READ of a write-only range: MR 'ro' allows read, so use bounds */
			wr.op = T_OP_READ;
			wr.rva = (uint64_t)(uintptr_t)tgt.buf + 8000;
			break;
		}
		if (!pair_or_clean(&t, &a, &b, &c))
			break;
		memcpy(before, target->buf, sizeof(before));
		idx = tpost_send(&a, &wr);
		/* A second WR behind it: flushed by the same CQE (driver replay). */
		idx2 = tpost_send(&a, &wr);
		RTE_SET_USED(idx2);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_REM_ACCESS, idx);
		TEST_CHECK(memcmp(before, target->buf, sizeof(before)) == 0);
		/* One flush CQE covers the rest: nothing more on the SQ. */
		TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 200), 0);
		tqp_destroy(&a);
		tqp_destroy(&b);
	}
	TEST_CHECK(TSTAT(&t, naks_sent) >= 7);
	TEST_CHECK(TSTAT(&t, aeqes) >= 14); /* requester and responder each raise one */
out:
	tmr_dereg(&src);
	tmr_dereg(&tgt);
	tmr_dereg(&other);
	tmr_dereg(&ro);
	tdev_close(&t);
}

/*
 * Remote protection with the target's context already cached (its host address too,
 * model_mr_copy()'s fast path): a good WRITE or READ completes first, then, with no CQP WQE
 * since, a WRITE with a wrong key, out of bounds either side, or into a region without
 * remote write. The good one lands; the bad one is refused and writes nothing.
 */
static void
test_remote_errors_cached(void)
{
	static const struct tmr_spec spec[3] = {
		{ NULL, 8192, ACC_ALL },
		{ NULL, 8192, ACC_ALL },
		{ NULL, 8192, RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ },
	};
	struct tmr m[3], *src = &m[0], *tgt = &m[1], *ro = &m[2];
	struct tdev t;
	unsigned int k;

	if (!tdev_up(&t, DEVARGS(0, "loop:remerrc")))
		return;
	if (!tmrs_reg(&t, m, spec, 3))
		goto out;
	tfill(src->buf, src->len, 11);
	tfill(ro->buf, ro->len, 12);
	for (k = 0; k < 4; k++) {
		struct tsge sg = { (uint64_t)(uintptr_t)src->buf, src->lkey, 64 };
		struct tsge bsg = { (uint64_t)(uintptr_t)src->buf + 64, src->lkey, 200 };
		struct twr good = { .op = T_OP_WRITE, .sge = &sg, .nsge = 1, .signaled = true };
		struct twr bad = { .op = T_OP_WRITE, .sge = &bsg, .nsge = 1, .signaled = true };
		struct tmr *target = tgt;
		uint8_t before[8192];
		struct tqp a, b;
		uint32_t idx, idx2;

		good.rva = (uint64_t)(uintptr_t)tgt->buf;
		good.rkey = tgt->rkey;
		bad.rva = (uint64_t)(uintptr_t)tgt->buf + 64;
		bad.rkey = tgt->rkey;
		switch (k) {
		case 0: /* the same index, another key */
			bad.rkey = tgt->rkey ^ 0x5a;
			break;
		case 1: /* beyond the end */
			bad.rva = (uint64_t)(uintptr_t)tgt->buf + 8192 - 100;
			break;
		case 2: /* below the start */
			bad.rva = (uint64_t)(uintptr_t)tgt->buf - 64;
			break;
		default: /* a READ of 'ro' caches it; a WRITE into it has no right to */
			target = ro;
			good.op = T_OP_READ;
			good.rva = (uint64_t)(uintptr_t)ro->buf;
			good.rkey = ro->rkey;
			sg = (struct tsge){ (uint64_t)(uintptr_t)tgt->buf, tgt->lkey, 64 };
			bad.rva = (uint64_t)(uintptr_t)ro->buf + 64;
			bad.rkey = ro->rkey;
			break;
		}
		if (!pair_or_clean(&t, &a, &b, NULL))
			break;
		memset(tgt->buf, 0, tgt->len);
		memcpy(before, target->buf, sizeof(before));
		idx = tpost_send(&a, &good);
		tring(&a);
		TEST_CHECK(sq_done(&a, NULL, idx, good.op));
		idx2 = tpost_send(&a, &bad);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_REM_ACCESS, idx2);
		if (k < 3) {
			/* The good WRITE's 64 bytes landed, nothing of the bad one did. */
			TEST_CHECK(memcmp(tgt->buf, src->buf, 64) == 0);
			TEST_CHECK(memcmp(tgt->buf + 64, before + 64, sizeof(before) - 64) == 0);
		} else {
			TEST_CHECK(memcmp(tgt->buf, ro->buf, 64) == 0);
			TEST_CHECK(memcmp(ro->buf, before, sizeof(before)) == 0);
		}
		tqp_destroy(&a);
		tqp_destroy(&b);
	}
out:
	tmrs_dereg(m, 3);
	tdev_close(&t);
}

/*
 * Responses in PSN order: a READ, then in the same doorbell a WRITE the responder refuses.
 * The READ's response goes before the WRITE's NAK: the READ completes with its data, the
 * WRITE in error. Both a one-packet and a 16-packet READ (MTU 1024).
 */
static void
test_read_before_nak(void)
{
	static const struct tmr_spec spec[3] = {
		{ NULL, 16384, ACC_ALL },
		{ NULL, 16384, ACC_ALL },
		{ NULL, 16384, RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ },
	};
	struct tmr m[3], *src = &m[0], *dst = &m[1], *ro = &m[2];
	struct tdev t;
	unsigned int k;

	if (!tdev_up(&t, DEVARGS(0, "loop:rdnak")))
		return;
	if (!tmrs_reg(&t, m, spec, 3))
		goto out;
	tfill(ro->buf, ro->len, 13);
	for (k = 0; k < 2; k++) {
		uint32_t rlen = k == 0 ? 200 : 16384;
		struct tsge rsg = { (uint64_t)(uintptr_t)dst->buf, dst->lkey, rlen };
		struct tsge wsg = { (uint64_t)(uintptr_t)src->buf, src->lkey, 64 };
		struct twr rd = { .op = T_OP_READ, .sge = &rsg, .nsge = 1, .signaled = true };
		struct twr wr = { .op = T_OP_WRITE, .sge = &wsg, .nsge = 1, .signaled = true };
		uint8_t before[64];
		struct tqp a, b;
		uint32_t idx, idx2;

		rd.rva = (uint64_t)(uintptr_t)ro->buf;
		rd.rkey = ro->rkey;
		wr.rva = (uint64_t)(uintptr_t)ro->buf;	/* no remote write */
		wr.rkey = ro->rkey;
		if (!pair_or_clean(&t, &a, &b, NULL))
			break;
		memset(dst->buf, 0, dst->len);
		memcpy(before, ro->buf, sizeof(before));
		idx = tpost_send(&a, &rd);
		idx2 = tpost_send(&a, &wr);
		tring(&a);
		TEST_CHECK(sq_done(&a, NULL, idx, T_OP_READ));
		expect_err(&t.scq, &t, T_FLUSH_REM_ACCESS, idx2);
		TEST_CHECK(memcmp(dst->buf, ro->buf, rlen) == 0);
		TEST_CHECK(memcmp(ro->buf, before, sizeof(before)) == 0);
		tqp_destroy(&a);
		tqp_destroy(&b);
	}
out:
	tmrs_dereg(m, 3);
	tdev_close(&t);
}

/* A SEND larger than the receive: NAK invalid request; the receive fails with LOC_LEN. */
static void
test_recv_too_small(void)
{
	struct tmr m;
	struct tqp a, b;
	struct tdev t;
	struct tsge sg, rs;
	struct twr wr;
	uint32_t idx;

	if (!tdev_up(&t, DEVARGS(0, "loop:small")))
		return;
	tmr_reg(&t, NULL, &m, 8192, ACC_ALL);
	if (m.mr == NULL || pair_up(&t, &a, &b, NULL) != 0)
		goto out;
	memset(m.buf, 0x5a, 4096);
	rs = (struct tsge){ (uint64_t)(uintptr_t)m.buf + 4096, m.lkey, 100 };
	tpost_recv(&b, &rs, 1);
	sg = (struct tsge){ (uint64_t)(uintptr_t)m.buf, m.lkey, 500 };
	twr_init(&wr, T_OP_SEND, &sg, 1);
	idx = tpost_send(&a, &wr);
	tring(&a);
	expect_err(&t.scq, &t, T_FLUSH_REM_INV_REQ, idx);
	expect_err(&t.rcq, &t, T_FLUSH_LOC_LEN, 0);
out:
	tdev_down(&t, &a, &b, &m);
}

/* Local protection at fetch: bad lkey, another PD's MR, a READ into a read-only MR. */
static void
test_local_errors(void)
{
	struct tmr src, other, ro;
	struct tdev t;
	unsigned int k;

	if (!tdev_up(&t, DEVARGS(0, "loop:locerr")))
		return;
	tmr_reg(&t, NULL, &src, 8192, ACC_ALL);
	tmr_reg(&t, t.pd2, &other, 8192, ACC_ALL);
	tmr_reg(&t, NULL, &ro, 8192, RDMADEV_ACCESS_REMOTE_READ);
	if (src.mr == NULL || other.mr == NULL || ro.mr == NULL)
		goto out;
	for (k = 0; k < 4; k++) {
		struct tsge sg = { (uint64_t)(uintptr_t)src.buf, src.lkey, 100 };
		struct twr wr = { .op = T_OP_SEND, .sge = &sg, .nsge = 1, .signaled = true };
		struct tqp a, b;
		uint32_t idx;

		if (k == 0)
			sg.lkey ^= 1;
		else if (k == 1)
			sg = (struct tsge){ (uint64_t)(uintptr_t)other.buf, other.lkey, 100 };
		else if (k == 2)
			sg.addr += 8190;
		else {
			wr.op = T_OP_READ;
			wr.rva = (uint64_t)(uintptr_t)src.buf;
			wr.rkey = src.rkey;
			sg = (struct tsge){ (uint64_t)(uintptr_t)ro.buf, ro.lkey, 100 };
		}
		if (!pair_or_clean(&t, &a, &b, NULL))
			break;
		idx = tpost_send(&a, &wr);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_PROT, idx);
		tqp_destroy(&a);
		tqp_destroy(&b);
	}
out:
	tmr_dereg(&src);
	tmr_dereg(&other);
	tmr_dereg(&ro);
	tdev_close(&t);
}

/*
 * Local protection at fetch with the region's context already cached: a SEND from it
 * completes first, then, with no CQP WQE since, a SEND with a wrong key or beyond its end,
 * or a READ into a region without local write, is refused.
 */
static void
test_local_errors_cached(void)
{
	static const struct tmr_spec spec[3] = {
		{ NULL, 8192, ACC_ALL },
		{ NULL, 8192, RDMADEV_ACCESS_REMOTE_READ },
		{ NULL, 8192, ACC_ALL },
	};
	struct tmr m[3], *src = &m[0], *ro = &m[1], *dst = &m[2];
	struct tdev t;
	unsigned int k;

	if (!tdev_up(&t, DEVARGS(0, "loop:locerrc")))
		return;
	if (!tmrs_reg(&t, m, spec, 3))
		goto out;
	for (k = 0; k < 3; k++) {
		struct tsge sg = { (uint64_t)(uintptr_t)src->buf, src->lkey, 100 };
		struct tsge rs = { (uint64_t)(uintptr_t)dst->buf, dst->lkey, 8192 };
		struct twr good = { .op = T_OP_SEND, .sge = &sg, .nsge = 1, .signaled = true };
		struct twr bad = good;
		struct tsge bsg = sg;
		struct tcqe e;
		struct tqp a, b;
		uint32_t idx;

		bad.sge = &bsg;
		if (k == 0) {
			bsg.lkey ^= 1;
		} else if (k == 1) {
			bsg.addr += 8190;
		} else {
			/* The SEND from 'ro' caches it; a READ may not write into it. */
			sg = (struct tsge){ (uint64_t)(uintptr_t)ro->buf, ro->lkey, 100 };
			bsg = sg;
			bad.op = T_OP_READ;
			bad.rva = (uint64_t)(uintptr_t)src->buf;
			bad.rkey = src->rkey;
		}
		if (!pair_or_clean(&t, &a, &b, NULL))
			break;
		tpost_recv(&b, &rs, 1);
		idx = tpost_send(&a, &good);
		tring(&a);
		TEST_CHECK(sq_done(&a, NULL, idx, T_OP_SEND));
		TEST_CHECK(rq_done(&b, NULL, &e));
		idx = tpost_send(&a, &bad);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_PROT, idx);
		tqp_destroy(&a);
		tqp_destroy(&b);
	}
out:
	tmrs_dereg(m, 3);
	tdev_close(&t);
}

/*
 * An MR deregistered while a message using it is under way (INLINE: the first round sends
 * 32 of its 64 packets, the deregistration's CQP WQE runs before the next): the packets
 * after it are refused (the SGE checked at fetch is checked again once a context may have
 * changed), the WQE completes in error and the target's second half stays untouched. Both
 * directions: the SQ gather of a WRITE's source and the receive scatter of a SEND.
 */
static void
test_mr_gone_mid_message(void)
{
	static const uint32_t len = 65536;
	unsigned int k;

	if (test_variant_thread()) {
		printf("# THREAD: the engine may finish the message before the dereg; not run\n");
		return;
	}
	for (k = 0; k < 2; k++) {
		struct tmr src, dst;
		struct tqp a, b;
		struct tdev t;
		struct tsge sg, rs;
		struct twr wr;
		uint32_t idx, i, hit = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		if (!tdev_up(&t, DEVARGS(0, "loop:mrgone")))
			return;
		tmr_reg(&t, NULL, &src, len, ACC_ALL);
		tmr_reg(&t, NULL, &dst, len, ACC_ALL);
		if (src.mr == NULL || dst.mr == NULL || pair_up(&t, &a, &b, NULL) != 0)
			goto out;
		tfill(src.buf, len, 9);
		sg = (struct tsge){ (uint64_t)(uintptr_t)src.buf, src.lkey, len };
		memset(&wr, 0, sizeof(wr));
		wr.sge = &sg;
		wr.nsge = 1;
		wr.signaled = true;
		if (k == 0) {
			wr.op = T_OP_WRITE;
			wr.rva = (uint64_t)(uintptr_t)dst.buf;
			wr.rkey = dst.rkey;
		} else {
			wr.op = T_OP_SEND;
			rs = (struct tsge){ (uint64_t)(uintptr_t)dst.buf, dst.lkey, len };
			tpost_recv(&b, &rs, 1);
		}
		idx = tpost_send(&a, &wr);
		tring(&a);
		/* The MR's context goes; its memory stays mapped (a stale use would succeed). */
		TEST_CHECK_EQ(rdmadev_mr_dereg(k == 0 ? src.mr : dst.mr), 0);
		if (k == 0)
			src.mr = NULL;
		else
			dst.mr = NULL;
		if (k == 0) {
			expect_err(&t.scq, &t, T_FLUSH_PROT, idx);
		} else {
			struct tcqe e;

			/* The responder fails (the receive in error), the requester is NAKed. */
			TEST_CHECK(twait(&t.rcq, &e, &t, NULL));
			TEST_CHECK(e.error);
			TEST_CHECK(twait(&t.scq, &e, &t, NULL));
			TEST_CHECK(e.error);
			TEST_CHECK_EQ(e.wqe_idx, idx);
		}
		for (i = len / 2; i < len; i++)
			hit |= dst.buf[i];
		TEST_CHECK_EQ(hit, 0);
out:
		tqp_destroy(&a);
		tqp_destroy(&b);
		tmr_dereg(&src);
		tmr_dereg(&dst);
		tdev_close(&t);
	}
}

/* RNR: a SEND with no receive posted waits (infinite RNR retry) until one is posted. */
static void
test_rnr(void)
{
	struct tmr m;
	struct tqp a, b;
	struct tdev t;
	struct tconn c;
	struct tcqe e;
	struct tsge sg, rsg;
	struct twr wr;
	uint32_t idx;

	if (!tdev_up(&t, DEVARGS(0, "loop:rnr")))
		return;
	tmr_reg(&t, NULL, &m, 16384, ACC_ALL);
	tconn_default(&c);
	if (m.mr == NULL || pair_up(&t, &a, &b, &c) != 0)
		goto out;
	tfill(m.buf, 4096, 9);
	sg = (struct tsge){ (uint64_t)(uintptr_t)m.buf, m.lkey, 3000 };
	rsg = (struct tsge){ (uint64_t)(uintptr_t)m.buf + 8192, m.lkey, 4096 };
	twr_init(&wr, T_OP_SEND, &sg, 1);
	idx = tpost_send(&a, &wr);
	tring(&a);
	while (TSTAT(&t, rnr_naks_rcvd) < 3 && tidle(&t.scq, &t, NULL, 1000) == 0)
		;
	TEST_CHECK(TSTAT(&t, rnr_naks_sent) >= 3);
	TEST_CHECK_EQ(tidle(&t.rcq, &t, NULL, 10), 0);
	tpost_recv(&b, &rsg, 1);
	sq_done(&a, NULL, idx, T_OP_SEND);
	if (rq_done(&b, NULL, &e))
		TEST_CHECK_EQ(e.len, 3000);
	TEST_CHECK(memcmp(m.buf + 8192, m.buf, 3000) == 0);
	tqp_destroy(&a);
	tqp_destroy(&b);

	/* RNR retry 1: the second RNR NAK ends the QP with RNR_RETRY_EXC. */
	c.rnr_retry = 1;
	if (pair_up(&t, &a, &b, &c) == 0) {
		idx = tpost_send(&a, &wr);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_RNR_RETRY_EXC, idx);
	}
	tqp_destroy(&a);
	tqp_destroy(&b);
out:
	tmr_dereg(&m);
	tdev_close(&t);
}

/* The peer is gone: retransmit timeouts up to the retry count, then RETRY_EXC_ERR. */
static void
test_retry_exceeded(void)
{
	struct tmr m;
	struct tqp a, b;
	struct tdev t;
	struct tconn c;
	struct twr wr;
	struct tsge sg;
	uint64_t to0;
	uint32_t idx;

	if (!tdev_up(&t, DEVARGS(0, "loop:retry")))
		return;
	tmr_reg(&t, NULL, &m, 8192, ACC_ALL);
	tconn_default(&c);
	c.retry = 2;
	c.timeout = 1;
	if (m.mr == NULL || pair_up(&t, &a, &b, &c) != 0)
		goto out;
	/* b disappears: its packets find no QP. */
	tqp_destroy(&b);
	to0 = TSTAT(&t, rc_timeouts);
	sg = (struct tsge){ (uint64_t)(uintptr_t)m.buf, m.lkey, 3000 };
	twr_init(&wr, T_OP_WRITE, &sg, 1);
	wr.rva = (uint64_t)(uintptr_t)m.buf + 4096;
	wr.rkey = m.rkey;
	idx = tpost_send(&a, &wr);
	tring(&a);
	expect_err(&t.scq, &t, T_FLUSH_RETRY_EXC, idx);
	/* The first send and c.retry resends, then the error on the next expiry. */
	TEST_CHECK_EQ(TSTAT(&t, rc_timeouts) - to0, c.retry + 1);
	TEST_CHECK(TSTAT(&t, rx_no_qp) > 0);
out:
	tdev_down(&t, &a, &b, &m);
}

/* A QP moved to error with work outstanding: one flush CQE per queue, at the oldest WQE. */
static void
test_error_flush(void)
{
	struct tmr m;
	struct tqp a, b;
	struct tdev t;
	struct tcqe e;
	struct tsge sg;
	struct twr wr;
	uint32_t first, i;

	if (!tdev_up(&t, DEVARGS(0, "loop:flush")))
		return;
	tmr_reg(&t, NULL, &m, 16384, ACC_ALL);
	if (m.mr == NULL || pair_up(&t, &a, &b, NULL) != 0)
		goto out;
	sg = (struct tsge){ (uint64_t)(uintptr_t)m.buf, m.lkey, 100 };
	/* b has 3 receives; a sends 4 messages: 3 land, the 4th meets RNR (retry forever). */
	for (i = 0; i < 3; i++)
		tpost_recv(&b, &sg, 1);
	twr_init(&wr, T_OP_SEND, &sg, 1);
	first = 0;
	for (i = 0; i < 4; i++) {
		uint32_t idx = tpost_send(&a, &wr);

		if (i == 3)
			first = idx;
	}
	tring(&a);
	for (i = 0; i < 3; i++) {
		TEST_CHECK(twait(&t.scq, &e, &t, NULL));
		TEST_CHECK(!e.error);
		TEST_CHECK(rq_done(&b, NULL, &e));
	}
	while (TSTAT(&t, rnr_naks_rcvd) < 2)
		tdev_service(&t, NULL);
	/* a to error: one SQ flush CQE at the stuck SEND, nothing else. */
	TEST_CHECK_EQ(tqp_to_err(&a), 0);
	expect_err(&t.scq, &t, T_FLUSH_GENERAL, first);
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 100), 0);
	/* A receive b never uses, then b to error: one RQ flush CQE at it. */
	tpost_recv(&b, &sg, 1);
	TEST_CHECK_EQ(tqp_to_err(&b), 0);
	if (twait(&t.rcq, &e, &t, NULL)) {
		TEST_CHECK(e.error);
		TEST_CHECK(!e.sq);
		TEST_CHECK_EQ(e.major, 1);
		TEST_CHECK_EQ(e.minor, T_FLUSH_GENERAL);
		/* The 4th RQ WQE (the first not consumed), in quanta. */
		TEST_CHECK_EQ(e.wqe_idx, 3u << b.q->rq.shift);
	}
	TEST_CHECK_EQ(tidle(&t.rcq, &t, NULL, 100), 0);
out:
	tdev_down(&t, &a, &b, &m);
}

/* A full CQ (SW never polls): the CQE is refused and an AEQE CQ_OPERATION_ERROR raised. */
static void
test_cq_overflow(void)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 4, .comp_vector = 0 };
	struct rdmadev_cq *small = NULL;
	struct tqp a, b;
	struct tdev t;
	struct twr wr;
	struct tconn c;
	uint64_t ov0, ae0;
	unsigned int i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (tdev_open(&t, DEVARGS(0, "loop:ovf")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_cq_create(t.ctx, &cqa, &small), 0);
	if (small == NULL || tqp_create_cq(&t, &a, RDMADEV_QPT_RC, small) != 0 ||
	    tqp_create(&t, &b, RDMADEV_QPT_RC) != 0)
		goto out;
	tconn_default(&c);
	if (tqp_connect(&a, &b, &c) != 0)
		goto out;
	ov0 = TSTAT(&t, cq_overflows);
	ae0 = TSTAT(&t, aeqes) + TSTAT(&t, eq_dropped);
	twr_init(&wr, T_OP_NOP, NULL, 0);
	for (i = 0; i < 12; i++)
		(void)tpost_send(&a, &wr);
	tring(&a);
	/* THREAD: the engine counts the overflow before it writes the AEQE: wait for both. */
	for (i = 0; i < T_POLL_MAX && (TSTAT(&t, cq_overflows) == ov0 ||
				       TSTAT(&t, aeqes) + TSTAT(&t, eq_dropped) == ae0); i++)
		tdev_service(&t, NULL);
	TEST_CHECK(TSTAT(&t, cq_overflows) > ov0);
	TEST_CHECK(TSTAT(&t, aeqes) + TSTAT(&t, eq_dropped) > ae0);
out:
	tqp_destroy(&a);
	tqp_destroy(&b);
	if (small != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(small), 0);
	tdev_close(&t);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_model_engine_errors") < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_remote_errors);
	TEST_RUN(test_remote_errors_cached);
	TEST_RUN(test_read_before_nak);
	TEST_RUN(test_recv_too_small);
	TEST_RUN(test_local_errors);
	TEST_RUN(test_local_errors_cached);
	TEST_RUN(test_mr_gone_mid_message);
	TEST_RUN(test_rnr);
	TEST_RUN(test_retry_exceeded);
	TEST_RUN(test_error_flush);
	TEST_RUN(test_cq_overflow);
	rte_eal_cleanup();
	return test_done();
}
