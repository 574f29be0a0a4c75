/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's data-path engine under adverse conditions, end to end over the real control
 * path (test_engine_lib.c): a lossy, duplicating, reordering, corrupting switch and UDP
 * sockets between two models with exactly-once delivery; many QP pairs at once; random
 * garbage in the SQ with canaries around the only registered target.
 */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "test.h"
#include "test_engine_lib.h"

/*
 * A lossy, duplicating, reordering, corrupting wire between two models: SENDs, WRITEs and
 * READs of random sizes arrive exactly once, in order, byte for byte; every signaled WR
 * gets exactly one CQE.
 */
#define FAULT_MSGS	120u
#define FAULT_BATCH	16u
#define FAULT_MAX	6000u

/* Both devices' wires back to loss-free (a device not opened has no wire). */
static void
wire_faults_off(struct tdev *t1, struct tdev *t2)
{
	if (t1->hw != NULL)
		(void)irdma_model_wire_faults(t1->hw, NULL);
	if (t2->hw != NULL)
		(void)irdma_model_wire_faults(t2->hw, NULL);
}

static void
run_faults(const char *w1, const char *w2, const struct irdma_model_wire_faults *f)
{
	static char args1[160], args2[160];
	struct tmr s1, r2, rd1;
	struct tdev t1 = { .id = -1 }, t2 = { .id = -1 };
	struct tqp a, b;
	struct tconn c;
	uint32_t done = 0, rq_seen = 0, k;
	uint64_t seed = 77;
	int r1 = 0, r2c = 0;

	memset(&s1, 0, sizeof(s1));
	memset(&r2, 0, sizeof(r2));
	memset(&rd1, 0, sizeof(rd1));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/*
	 * A UDP wire's address ("udp:IP") gets a port of its own, tried until one is free: the
	 * inline and threaded runs of this test may run at the same time.
	 */
	for (k = 0; k < 20; k++) {
		unsigned int port = 20000 + ((unsigned int)getpid() * 7 + k * 131) % 30000;

		snprintf(args1, sizeof(args1), "irdma_model0,qps=64,cqs=64,mrs=64,wire=%s", w1);
		snprintf(args2, sizeof(args2), "irdma_model1,qps=64,cqs=64,mrs=64,wire=%s", w2);
		if (strncmp(w1, "udp:", 4) == 0) {
			snprintf(args1 + strlen(args1), sizeof(args1) - strlen(args1), ":%u", port);
			snprintf(args2 + strlen(args2), sizeof(args2) - strlen(args2), ":%u", port);
		}
		r1 = tdev_open(&t1, args1);
		r2c = r1 == 0 ? tdev_open(&t2, args2) : -1;
		if (r1 != -EADDRINUSE && r2c != -EADDRINUSE)
			break;
		tdev_close(&t2);
		tdev_close(&t1);
		t1.id = -1;
		t2.id = -1;
	}
	TEST_CHECK(r1 == 0 && r2c == 0);
	if (r1 != 0 || r2c != 0)
		goto out;
	tmr_reg(&t1, NULL, &s1, FAULT_MSGS * FAULT_MAX, ACC_ALL);
	tmr_reg(&t1, NULL, &rd1, FAULT_MSGS * FAULT_MAX, ACC_ALL);
	tmr_reg(&t2, NULL, &r2, 2 * FAULT_MSGS * FAULT_MAX, ACC_ALL);
	tqp_create(&t1, &a, RDMADEV_QPT_RC);
	tqp_create(&t2, &b, RDMADEV_QPT_RC);
	tconn_default(&c);
	/* clean: 537 ms, a busy machine's pauses are no loss (no retransmission expected) */
	c.timeout = f != NULL ? T_LOSSY_TIMEOUT : 17;
	if (s1.mr == NULL || r2.mr == NULL || rd1.mr == NULL || tqp_connect(&a, &b, &c) != 0)
		goto out;
	tfill(s1.buf, s1.len, 11);
	tfill(r2.buf + FAULT_MSGS * FAULT_MAX, FAULT_MSGS * FAULT_MAX, 12);
	TEST_CHECK_EQ(irdma_model_wire_faults(t1.hw, f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(t2.hw, f), 0);
	for (k = 0; k < FAULT_MSGS; k += FAULT_BATCH) {
		uint32_t idx[FAULT_BATCH], len[FAULT_BATCH], i, n = 0;
		uint8_t op[FAULT_BATCH];

		for (i = 0; i < FAULT_BATCH && k + i < FAULT_MSGS; i++, n++) {
			uint32_t m = k + i;
			struct tsge sg = { (uint64_t)(uintptr_t)s1.buf + (uint64_t)m * FAULT_MAX,
					   s1.lkey, 0 };
			struct tsge rs = { (uint64_t)(uintptr_t)r2.buf + (uint64_t)m * FAULT_MAX,
					   r2.lkey, FAULT_MAX };
			struct twr wr = { .sge = &sg, .nsge = 1, .signaled = true };

			len[i] = 1 + (uint32_t)((seed = seed * 6364136223846793005ULL + 1) >> 33) %
				 (FAULT_MAX - 1);
			sg.len = len[i];
			op[i] = (uint8_t)(m % 3 == 0 ? T_OP_SEND :
					  m % 3 == 1 ? T_OP_WRITE : T_OP_READ);
			wr.op = op[i];
			if (op[i] == T_OP_SEND) {
				tpost_recv(&b, &rs, 1);
			} else if (op[i] == T_OP_WRITE) {
				wr.rva = rs.addr;
				wr.rkey = r2.rkey;
			} else {
				sg.addr = (uint64_t)(uintptr_t)rd1.buf + (uint64_t)m * FAULT_MAX;
				sg.lkey = rd1.lkey;
				wr.rva = rs.addr + (uint64_t)FAULT_MSGS * FAULT_MAX;
				wr.rkey = r2.rkey;
			}
			idx[i] = tpost_send(&a, &wr);
		}
		tring(&a);
		for (i = 0; i < n; i++) {
			uint32_t m = k + i;
			struct tcqe e;

			if (!twait(&t1.scq, &e, &t1, &t2)) {
				TEST_CHECK(false);
				goto out;
			}
			check_sq_cqe(&e, &a, idx[i], op[i]);
			done++;
			if (op[i] == T_OP_SEND) {
				if (twait(&t2.rcq, &e, &t2, &t1)) {
					TEST_CHECK(!e.error);
					TEST_CHECK_EQ(e.len, len[i]);
					TEST_CHECK_EQ(e.wqe_idx,
						      (rq_seen << b.q->rq.shift) % b.q->rq.quanta);
					rq_seen++;
				}
			}
			if (op[i] == T_OP_READ)
				TEST_CHECK(memcmp(rd1.buf + (uint64_t)m * FAULT_MAX,
						  r2.buf + (uint64_t)(FAULT_MSGS + m) * FAULT_MAX,
						  len[i]) == 0);
			else
				TEST_CHECK(memcmp(r2.buf + (uint64_t)m * FAULT_MAX,
						  s1.buf + (uint64_t)m * FAULT_MAX, len[i]) == 0);
		}
	}
	TEST_CHECK_EQ(done, FAULT_MSGS);
	/* Exactly once: nothing more arrives on either CQ. */
	TEST_CHECK_EQ(tidle(&t1.scq, &t1, &t2, 2000), 0);
	TEST_CHECK_EQ(tidle(&t2.rcq, &t1, &t2, 2000), 0);
	printf("# %u messages; retransmits %" PRIu64 ", timeouts %" PRIu64 ", seq NAKs %" PRIu64
	       ", duplicates %" PRIu64 "\n", done, TSTAT(&t1, rc_retransmits),
	       TSTAT(&t1, rc_timeouts), TSTAT(&t1, seq_naks_rcvd), TSTAT(&t2, dup_requests));
	if (f != NULL) {
		TEST_CHECK(TSTAT(&t1, rc_retransmits) > 0);
	} else {
		/* a loss-free wire: nothing sent twice, no timer fired, no NAK */
		TEST_CHECK_EQ(TSTAT(&t1, rc_retransmits) + TSTAT(&t2, rc_retransmits), 0);
		TEST_CHECK_EQ(TSTAT(&t1, rc_timeouts) + TSTAT(&t2, rc_timeouts), 0);
		TEST_CHECK_EQ(TSTAT(&t1, seq_naks_rcvd) + TSTAT(&t2, seq_naks_rcvd), 0);
	}
out:
	wire_faults_off(&t1, &t2);
	tqp_destroy(&a);
	tqp_destroy(&b);
	tmr_dereg(&s1);
	tmr_dereg(&rd1);
	tmr_dereg(&r2);
	tdev_close(&t2);
	tdev_close(&t1);
}

static void
test_faults(void)
{
	struct irdma_model_wire_faults f = {
		.drop_ppm = 30000, .dup_ppm = 30000, .reorder_ppm = 30000, .corrupt_ppm = 10000,
	};
	const char *env = getenv("IRDMA_ENGINE_SEED");
	uint64_t base = env != NULL ? strtoull(env, NULL, 0) : 12345;
	unsigned int s;

	/* IRDMA_ENGINE_SEED varies the fault sequences (stress runs). */
	printf("# fault seeds from %" PRIu64 "\n", base);
	for (s = 0; s < 4; s++) {
		f.seed = base + s;
		run_faults("loop:faults", "loop:faults", &f);
	}
	/* Heavier: 10 % of everything. */
	f = (struct irdma_model_wire_faults){
		.drop_ppm = 100000, .dup_ppm = 100000, .reorder_ppm = 100000,
		.corrupt_ppm = 50000, .seed = 4242,
	};
	run_faults("loop:faults", "loop:faults", &f);
}

/*
 * Messages of 1 MiB (1024 packets at MTU 1024) on a lossy wire: losses inside a message
 * whose packets fill the window are recovered by NAKs and by the timer.
 */
static void
test_faults_big(void)
{
	const struct irdma_model_wire_faults f = {
		.drop_ppm = 20000, .dup_ppm = 10000, .reorder_ppm = 10000, .seed = 31,
	};
	const uint32_t len = 1u << 20;
	struct tdev t1 = { .id = -1 }, t2 = { .id = -1 };
	struct tmr m1, m2;
	struct tqp a, b;
	struct tconn c;
	struct tsge sg, rs;
	struct twr wr;
	struct tcqe e;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&m1, 0, sizeof(m1));
	memset(&m2, 0, sizeof(m2));
	if (tdev_open(&t1, DEVARGS(0, "loop:big")) != 0 ||
	    tdev_open(&t2, DEVARGS(1, "loop:big")) != 0)
		goto out;
	tmr_reg(&t1, NULL, &m1, 2 * len, ACC_ALL);
	tmr_reg(&t2, NULL, &m2, 2 * len, ACC_ALL);
	tqp_create(&t1, &a, RDMADEV_QPT_RC);
	tqp_create(&t2, &b, RDMADEV_QPT_RC);
	tconn_default(&c);
	c.timeout = T_LOSSY_TIMEOUT;
	if (m1.mr == NULL || m2.mr == NULL || tqp_connect(&a, &b, &c) != 0)
		goto out;
	tfill(m1.buf, len, 41);
	tfill(m2.buf + len, len, 42);
	TEST_CHECK_EQ(irdma_model_wire_faults(t1.hw, &f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(t2.hw, &f), 0);
	/* SEND 1 MiB, WRITE 1 MiB, READ 1 MiB. */
	rs = (struct tsge){ (uint64_t)(uintptr_t)m2.buf, m2.lkey, len };
	tpost_recv(&b, &rs, 1);
	sg = (struct tsge){ (uint64_t)(uintptr_t)m1.buf, m1.lkey, len };
	twr_init(&wr, T_OP_SEND, &sg, 1);
	tsend_done(&a, &t2, &wr, T_OP_SEND);
	if (rq_done(&b, &t1, &e))
		TEST_CHECK_EQ(e.len, len);
	TEST_CHECK(memcmp(m2.buf, m1.buf, len) == 0);
	memset(m2.buf, 0, len);
	wr.op = T_OP_WRITE;
	wr.rva = (uint64_t)(uintptr_t)m2.buf;
	wr.rkey = m2.rkey;
	tsend_done(&a, &t2, &wr, T_OP_WRITE);
	TEST_CHECK(memcmp(m2.buf, m1.buf, len) == 0);
	sg.addr = (uint64_t)(uintptr_t)m1.buf + len;
	wr.op = T_OP_READ;
	wr.rva = (uint64_t)(uintptr_t)m2.buf + len;
	tsend_done(&a, &t2, &wr, T_OP_READ);
	TEST_CHECK(memcmp(m1.buf + len, m2.buf + len, len) == 0);
	TEST_CHECK_EQ(tidle(&t1.scq, &t1, &t2, 1000), 0);
	TEST_CHECK_EQ(tidle(&t2.rcq, &t1, &t2, 1000), 0);
	printf("# 3 x 1 MiB; retransmits %" PRIu64 ", timeouts %" PRIu64 "\n",
	       TSTAT(&t1, rc_retransmits), TSTAT(&t1, rc_timeouts));
	TEST_CHECK(TSTAT(&t1, rc_retransmits) > 0);
out:
	wire_faults_off(&t1, &t2);
	tqp_destroy(&a);
	tqp_destroy(&b);
	tmr_dereg(&m1);
	tmr_dereg(&m2);
	tdev_close(&t2);
	tdev_close(&t1);
}

/* Two models over UDP sockets on 127.0.0.1 and 127.0.0.2 (with faults too). */
static void
test_udp(void)
{
	const struct irdma_model_wire_faults f = {
		.drop_ppm = 20000, .dup_ppm = 20000, .reorder_ppm = 20000, .seed = 99,
	};

	run_faults("udp:127.0.0.1", "udp:127.0.0.2", NULL);
	run_faults("udp:127.0.0.1", "udp:127.0.0.2", &f);
}

/*
 * Garbage in the SQ: random quanta with their valid bits set (some with a real opcode and
 * real keys but random addresses and lengths). The model never crashes, the QP goes to
 * error with an AE (or the WQE happens to be a valid one), and nothing outside the
 * registered regions changes: the target MR sits between two canaries that are DMA-mapped
 * but not registered.
 */
#define FUZZ_ROUNDS	300u
#define FUZZ_CANARY	65536u

static void
test_fuzz_sq(void)
{
	struct tmr big, src;
	struct tdev t;
	uint8_t *tgt, *pattern;
	struct rdmadev_mr *mr = NULL;
	struct rdmadev_mr_attr ma;
	uint64_t seed = 0x1234567, ae0, err0;
	unsigned int r, errors = 0, alive = 0;

	if (!tdev_up(&t, DEVARGS(0, "loop:fuzz")))
		return;
	/* [canary | target | canary], all DMA-mapped, only the middle registered. */
	tmr_reg(&t, NULL, &big, 3 * FUZZ_CANARY, ACC_ALL);
	tmr_reg(&t, NULL, &src, 65536, ACC_ALL);
	pattern = malloc(3 * FUZZ_CANARY);
	if (big.mr == NULL || src.mr == NULL || pattern == NULL)
		goto out;
	TEST_CHECK_EQ(rdmadev_mr_dereg(big.mr), 0);
	big.mr = NULL;
	tgt = big.buf + FUZZ_CANARY;
	memset(&ma, 0, sizeof(ma));
	ma.addr = tgt;
	ma.length = FUZZ_CANARY;
	ma.iova = (uint64_t)(uintptr_t)tgt;
	ma.access = ACC_ALL;
	TEST_CHECK_EQ(rdmadev_mr_reg(t.pd, &ma, &mr), 0);
	if (mr == NULL)
		goto out;
	tfill(big.buf, 3 * FUZZ_CANARY, 99);
	tfill(src.buf, src.len, 98);
	ae0 = TSTAT(&t, aeqes) + TSTAT(&t, eq_dropped);
	err0 = TSTAT(&t, sq_wqe_errors);
	for (r = 0; r < FUZZ_ROUNDS; r++) {
		struct irdma_model_qp_info in;
		uint64_t qw[32];
		unsigned int quanta = 1 + (unsigned int)(xrand(&seed) % 8), i;
		struct tqp a, b;

		if (pair_up(&t, &a, &b, NULL) != 0) {
			tqp_destroy(&a);
			tqp_destroy(&b);
			break;
		}
		for (i = 0; i < 4 * quanta; i++)
			qw[i] = xrand(&seed);
		if (r % 2 == 0) {
			/* A real opcode with real keys, random rest. */
			static const uint8_t ops[] = { T_OP_WRITE, T_OP_READ, T_OP_SEND,
						       T_OP_SEND_INV, T_OP_LOCAL_INV, T_OP_FAST_REG,
						       T_OP_NOP };
			uint64_t op = ops[xrand(&seed) % RTE_DIM(ops)];

			qw[3] = (qw[3] & ~(UINT64_C(0x3f) << 32) & ~UINT64_C(0xffffffff)) |
				op << 32 | rdmadev_mr_rkey(mr);
			qw[1] = (qw[1] & ~UINT64_C(0xffffffff)) | (r % 4 == 0 ? src.lkey :
								      rdmadev_mr_lkey(mr));
			qw[0] = (uint64_t)(uintptr_t)tgt + (xrand(&seed) % (3 * FUZZ_CANARY)) -
				FUZZ_CANARY;
			qw[2] = qw[0] ^ (xrand(&seed) & 0xffff);
		}
		if (p_sq_pol_next(&a))
			for (i = 0; i < quanta; i++)
				qw[4 * i + 3] |= UINT64_C(1) << 63;
		else
			for (i = 0; i < quanta; i++)
				qw[4 * i + 3] &= ~(UINT64_C(1) << 63);
		(void)tpost_raw(&a, qw, quanta);
		tring(&a);
		/* Until the QP is in error, or a while (the garbage may be a valid WQE). */
		for (i = 0; i < 20000; i++) {
			(void)tidle(&t.scq, &t, NULL, 1);
			(void)tidle(&t.rcq, &t, NULL, 1);
			TEST_CHECK_EQ(irdma_model_qp_get(t.hw, a.qpn, &in), 0);
			if (in.state == 6)
				break;
			if ((i & 1023) == 1023)
				sched_yield();
		}
		if (in.state == 6)
			errors++;
		else
			alive++;
		tqp_destroy(&a);
		tqp_destroy(&b);
		(void)tidle(&t.scq, &t, NULL, 1);
		(void)tidle(&t.rcq, &t, NULL, 1);
	}
	printf("# fuzz: %u rounds, %u QPs to error, %u still up\n", r, errors, alive);
	TEST_CHECK_EQ(r, FUZZ_ROUNDS);
	TEST_CHECK(errors > FUZZ_ROUNDS / 2);
	TEST_CHECK(TSTAT(&t, sq_wqe_errors) - err0 >= errors / 2);
	TEST_CHECK(TSTAT(&t, aeqes) + TSTAT(&t, eq_dropped) - ae0 >= errors);
	/* The canaries around the target are untouched. */
	tfill(pattern, 3 * FUZZ_CANARY, 99);
	TEST_CHECK(memcmp(big.buf, pattern, FUZZ_CANARY) == 0);
	TEST_CHECK(memcmp(big.buf + 2 * FUZZ_CANARY, pattern + 2 * FUZZ_CANARY,
			  FUZZ_CANARY) == 0);
	tfill(pattern, src.len, 98);
	TEST_CHECK(memcmp(src.buf, pattern, src.len) == 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
out:
	free(pattern);
	tmr_dereg(&big);
	tmr_dereg(&src);
	tdev_close(&t);
}

/*
 * Many QP pairs at once between two models on a lossy switch: every pair's SENDs arrive
 * exactly once, in order, byte for byte; CQEs are told apart by QP id.
 */
#define MANY_PAIRS	8u
#define MANY_MSGS	40u
#define MANY_MAX	3000u

static void
test_many_qps(void)
{
	const struct irdma_model_wire_faults f = {
		.drop_ppm = 20000, .dup_ppm = 20000, .reorder_ppm = 20000, .seed = 7,
	};
	struct tqp a[MANY_PAIRS], b[MANY_PAIRS];
	uint32_t sent[MANY_PAIRS], rcvd[MANY_PAIRS], sq_cqes = 0, rq_cqes = 0, i, k;
	uint32_t lens[MANY_PAIRS][MANY_MSGS];
	struct tdev t1 = { .id = -1 }, t2 = { .id = -1 };
	struct tmr s1, r2;
	struct tconn c;
	uint64_t seed = 5;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	memset(sent, 0, sizeof(sent));
	memset(rcvd, 0, sizeof(rcvd));
	memset(&s1, 0, sizeof(s1));
	memset(&r2, 0, sizeof(r2));
	if (tdev_open(&t1, DEVARGS(0, "loop:many")) != 0 ||
	    tdev_open(&t2, DEVARGS(1, "loop:many")) != 0)
		goto out;
	tmr_reg(&t1, NULL, &s1, MANY_PAIRS * MANY_MSGS * MANY_MAX, ACC_ALL);
	tmr_reg(&t2, NULL, &r2, MANY_PAIRS * MANY_MSGS * MANY_MAX, ACC_ALL);
	if (s1.mr == NULL || r2.mr == NULL)
		goto out;
	tfill(s1.buf, s1.len, 17);
	tconn_default(&c);
	c.timeout = T_LOSSY_TIMEOUT;
	for (i = 0; i < MANY_PAIRS; i++) {
		tqp_create(&t1, &a[i], RDMADEV_QPT_RC);
		tqp_create(&t2, &b[i], RDMADEV_QPT_RC);
		c.psn_a = 0xfffff0 + i;
		if (tqp_connect(&a[i], &b[i], &c) != 0)
			goto out;
	}
	TEST_CHECK_EQ(irdma_model_wire_faults(t1.hw, &f), 0);
	TEST_CHECK_EQ(irdma_model_wire_faults(t2.hw, &f), 0);
	/* Post everything (receives first), ring every QP, then drain both CQs. */
	for (i = 0; i < MANY_PAIRS; i++) {
		for (k = 0; k < MANY_MSGS; k++) {
			uint64_t off = ((uint64_t)i * MANY_MSGS + k) * MANY_MAX;
			struct tsge rs = { (uint64_t)(uintptr_t)r2.buf + off, r2.lkey, MANY_MAX };
			struct tsge sg = { (uint64_t)(uintptr_t)s1.buf + off, s1.lkey, 0 };
			struct twr wr = {
				.op = T_OP_SEND, .sge = &sg, .nsge = 1, .signaled = true,
			};

			lens[i][k] = 1 + (uint32_t)(xrand(&seed) % (MANY_MAX - 1));
			sg.len = lens[i][k];
			tpost_recv(&b[i], &rs, 1);
			(void)tpost_send(&a[i], &wr);
		}
		tring(&a[i]);
	}
	for (k = 0; k < T_POLL_MAX && (sq_cqes < MANY_PAIRS * MANY_MSGS ||
				       rq_cqes < MANY_PAIRS * MANY_MSGS); k++) {
		struct tcqe e;

		while (tpoll(&t1.scq, &e)) {
			for (i = 0; i < MANY_PAIRS && a[i].qpn != e.qpid; i++)
				;
			TEST_CHECK(i < MANY_PAIRS && !e.error);
			if (e.error)
				printf("# SQ error CQE: QP %u minor %u\n", e.qpid, e.minor);
			if (i < MANY_PAIRS)
				sent[i]++;
			sq_cqes++;
		}
		while (tpoll(&t2.rcq, &e)) {
			for (i = 0; i < MANY_PAIRS && b[i].qpn != e.qpid; i++)
				;
			TEST_CHECK(i < MANY_PAIRS && !e.error);
			if (i < MANY_PAIRS && rcvd[i] < MANY_MSGS) {
				TEST_CHECK_EQ(e.len, lens[i][rcvd[i]]);
				TEST_CHECK_EQ(e.wqe_idx, ((rcvd[i] << b[i].q->rq.shift) %
							  b[i].q->rq.quanta));
				rcvd[i]++;
			}
			rq_cqes++;
		}
		tdev_service(&t1, &t2);
	}
	TEST_CHECK_EQ(sq_cqes, MANY_PAIRS * MANY_MSGS);
	TEST_CHECK_EQ(rq_cqes, MANY_PAIRS * MANY_MSGS);
	for (i = 0; i < MANY_PAIRS; i++) {
		TEST_CHECK_EQ(sent[i], MANY_MSGS);
		TEST_CHECK_EQ(rcvd[i], MANY_MSGS);
		for (k = 0; k < MANY_MSGS; k++) {
			uint64_t off = ((uint64_t)i * MANY_MSGS + k) * MANY_MAX;

			TEST_CHECK(memcmp(r2.buf + off, s1.buf + off, lens[i][k]) == 0);
		}
	}
	TEST_CHECK_EQ(tidle(&t1.scq, &t1, &t2, 1000), 0);
	TEST_CHECK_EQ(tidle(&t2.rcq, &t1, &t2, 1000), 0);
	printf("# %u pairs x %u SENDs; retransmits %" PRIu64 ", duplicates %" PRIu64 "\n",
	       MANY_PAIRS, MANY_MSGS, TSTAT(&t1, rc_retransmits), TSTAT(&t2, dup_requests));
out:
	wire_faults_off(&t1, &t2);
	for (i = 0; i < MANY_PAIRS; i++) {
		tqp_destroy(&a[i]);
		tqp_destroy(&b[i]);
	}
	tmr_dereg(&s1);
	tmr_dereg(&r2);
	tdev_close(&t2);
	tdev_close(&t1);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_model_engine_faults") < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_faults);
	TEST_RUN(test_faults_big);
	TEST_RUN(test_udp);
	TEST_RUN(test_many_qps);
	TEST_RUN(test_fuzz_sq);
	rte_eal_cleanup();
	return test_done();
}
