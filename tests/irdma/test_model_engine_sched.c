/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The engine's scheduling (doc/model.md "Scheduling"): on a device opened with many QPs, a
 * round works only on the QPs with work or a due timer. Hundreds of connected RC QPs stay
 * idle beside one busy pair: the model's qp_visits counter grows by at most the busy pair per
 * round, not at all while nothing has work, and the retransmit and RNR timers of a QP that
 * sleeps on the timer list still fire (timer_wakes); the data path's DEBUG lines follow the
 * log level. Inline model: the counters are read between rounds.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>

#include "test.h"
#include "test_engine_lib.h"

#define SCHED_ARGS(name) \
	"irdma_model0,qps=1024,cqs=64,mrs=256,mode=inline,wire=loop:" name
/* Idle connected pairs beside the busy one. */
#define IDLE_PAIRS	100u
/* WRITEs the busy pair completes. */
#define WRITES		50u

static struct tqp idle[IDLE_PAIRS][2];

static bool
idle_up(struct tdev *t)
{
	unsigned int i;

	for (i = 0; i < IDLE_PAIRS; i++)
		if (pair_up(t, &idle[i][0], &idle[i][1], NULL) != 0) {
			TEST_CHECK(false);
			return false;
		}
	return true;
}

static void
idle_down(void)
{
	unsigned int i;

	for (i = 0; i < IDLE_PAIRS; i++) {
		tqp_destroy(&idle[i][0]);
		tqp_destroy(&idle[i][1]);
	}
}

/*
 * Open the device of @p args with a 16 KB MR in @p m; the idle QPs, @p a and @p b zeroed
 * first, so that the test's end may destroy them whatever it got to.
 */
static bool
sched_up(struct tdev *t, struct tqp *a, struct tqp *b, struct tmr *m, const char *args)
{
	memset(idle, 0, sizeof(idle));
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	if (!tdev_up(t, args))
		return false;
	tmr_reg(t, NULL, m, 16384, ACC_ALL);
	return true;
}

/* One busy pair among 200 idle QPs: at most its two QPs a round; none once it is done. */
static void
test_idle_not_visited(void)
{
	uint64_t v0, r0, dv, dr;
	struct tqp a, b;
	struct tdev t;
	struct tmr m;
	unsigned int k;

	if (!sched_up(&t, &a, &b, &m, SCHED_ARGS("idle")))
		return;
	if (m.mr == NULL || !idle_up(&t) || pair_up(&t, &a, &b, NULL) != 0)
		goto out;
	/* Each QP's moves to RTR and RTS got it looked at once; then nothing has work. */
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 10), 0);
	v0 = TSTAT(&t, qp_visits);
	r0 = TSTAT(&t, engine_rounds);
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 1000), 0);
	TEST_CHECK_EQ(TSTAT(&t, qp_visits), v0);
	TEST_CHECK_EQ(TSTAT(&t, engine_rounds), r0);

	tfill(m.buf, 4096, 3);
	for (k = 0; k < WRITES; k++) {
		struct tsge sg = { (uint64_t)(uintptr_t)m.buf + k * 64, m.lkey, 64 };
		struct twr wr = {
			.op = T_OP_WRITE, .sge = &sg, .nsge = 1, .signaled = true,
			.rva = (uint64_t)(uintptr_t)m.buf + 8192 + k * 64, .rkey = m.rkey,
		};

		if (!tsend_done(&a, NULL, &wr, T_OP_WRITE))
			goto out;
	}
	TEST_CHECK(memcmp(m.buf + 8192, m.buf, WRITES * 64) == 0);
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 10), 0);
	dv = TSTAT(&t, qp_visits) - v0;
	dr = TSTAT(&t, engine_rounds) - r0;
	printf("# %u WRITEs: %" PRIu64 " rounds, %" PRIu64 " QP visits\n", WRITES, dr, dv);
	/* Every WRITE needs its requester (send, then retire) and its responder (ACK). */
	TEST_CHECK(dv >= 2 * WRITES);
	TEST_CHECK(dv <= 2 * dr);
	/* Done: no QP has work, no timer is pending, no round runs. */
	v0 = TSTAT(&t, qp_visits);
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 1000), 0);
	TEST_CHECK_EQ(TSTAT(&t, qp_visits), v0);
out:
	idle_down();
	tdev_down(&t, &a, &b, &m);
}

/*
 * Timers among idle QPs: a requester whose peer is gone sleeps on the timer list and is
 * woken by each retransmit expiry until the retry count ends it; an RNR NAK's back-off wakes
 * the requester again until a receive is posted. Only that pair is ever visited.
 */
static void
test_timers_fire(void)
{
	uint64_t to0, tw0, v0, r0;
	struct tqp a, b;
	struct tdev t;
	struct tconn c;
	struct tcqe e;
	struct tmr m;
	struct tsge sg, rsg;
	struct twr wr;
	uint32_t idx;

	if (!sched_up(&t, &a, &b, &m, SCHED_ARGS("timers")))
		return;
	if (m.mr == NULL || !idle_up(&t))
		goto out;
	tfill(m.buf, 4096, 7);
	sg = (struct tsge){ (uint64_t)(uintptr_t)m.buf, m.lkey, 3000 };
	twr_init(&wr, T_OP_WRITE, &sg, 1);

	/* Retransmit timer: 8.192 us (timeout 1), two retries, the peer destroyed. */
	tconn_default(&c);
	c.retry = 2;
	c.timeout = 1;
	if (pair_up(&t, &a, &b, &c) != 0)
		goto out;
	tqp_destroy(&b);
	TEST_CHECK_EQ(tidle(&t.scq, &t, NULL, 10), 0);
	to0 = TSTAT(&t, rc_timeouts);
	tw0 = TSTAT(&t, timer_wakes);
	v0 = TSTAT(&t, qp_visits);
	r0 = TSTAT(&t, engine_rounds);
	wr.op = T_OP_WRITE;
	wr.rva = (uint64_t)(uintptr_t)m.buf + 8192;
	wr.rkey = m.rkey;
	idx = tpost_send(&a, &wr);
	tring(&a);
	expect_err(&t.scq, &t, T_FLUSH_RETRY_EXC, idx);
	TEST_CHECK_EQ(TSTAT(&t, rc_timeouts) - to0, c.retry + 1);
	TEST_CHECK(TSTAT(&t, timer_wakes) - tw0 >= (uint64_t)c.retry + 1);
	/* Only a: one QP a round at most. */
	TEST_CHECK(TSTAT(&t, qp_visits) - v0 <= TSTAT(&t, engine_rounds) - r0);
	tqp_destroy(&a);

	/* RNR back-off: a SEND with no receive waits, retried by the timer, until one is. */
	tconn_default(&c);
	if (pair_up(&t, &a, &b, &c) != 0)
		goto out;
	tw0 = TSTAT(&t, timer_wakes);
	rsg = (struct tsge){ (uint64_t)(uintptr_t)m.buf + 8192, m.lkey, 4096 };
	wr.op = T_OP_SEND;
	wr.rva = 0;
	wr.rkey = 0;
	idx = tpost_send(&a, &wr);
	tring(&a);
	while (TSTAT(&t, rnr_naks_rcvd) < 3 && tidle(&t.scq, &t, NULL, 1000) == 0)
		;
	TEST_CHECK(TSTAT(&t, timer_wakes) - tw0 >= 2);
	tpost_recv(&b, &rsg, 1);
	sq_done(&a, NULL, idx, T_OP_SEND);
	if (rq_done(&b, NULL, &e))
		TEST_CHECK_EQ(e.len, 3000);
	TEST_CHECK(memcmp(m.buf + 8192, m.buf, 3000) == 0);
out:
	idle_down();
	tdev_down(&t, &a, &b, &m);
}

/* One signaled 64-byte WRITE from @p a into @p m's second half. */
static bool
write64(struct tqp *a, struct tmr *m)
{
	struct tsge sg = { (uint64_t)(uintptr_t)m->buf, m->lkey, 64 };
	struct twr wr = {
		.op = T_OP_WRITE, .sge = &sg, .nsge = 1, .signaled = true,
		.rva = (uint64_t)(uintptr_t)m->buf + 8192, .rkey = m->rkey,
	};

	return tsend_done(a, NULL, &wr, T_OP_WRITE);
}

/*
 * The data path's DEBUG lines are decided outside the per-WQE path: a level raised with
 * rte_log_set_level_pattern() still brings "SQ WQE" lines (taken at the next CQP command),
 * and lowering it stops them.
 */
static void
test_debug_lines(void)
{
	struct tqp a, b, c, e;
	struct tdev t;
	struct tmr m;
	char *text = NULL;
	size_t len = 0;
	FILE *f, *old = rte_log_get_stream();
	int level = rte_log_get_level(rte_log_register("pmd.rdma.irdma.model"));

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	memset(&e, 0, sizeof(e));
	f = open_memstream(&text, &len);
	TEST_CHECK(f != NULL);
	if (f == NULL || !tdev_up(&t, SCHED_ARGS("debug"))) {
		if (f != NULL)
			fclose(f);
		free(text);
		return;
	}
	tmr_reg(&t, NULL, &m, 16384, ACC_ALL);
	rte_openlog_stream(f);
	TEST_CHECK_EQ(rte_log_set_level_pattern("pmd.rdma.irdma.model", RTE_LOG_DEBUG), 0);
	if (m.mr != NULL && pair_up(&t, &a, &b, NULL) == 0)
		TEST_CHECK(write64(&a, &m));
	TEST_CHECK_EQ(rte_log_set_level_pattern("pmd.rdma.irdma.model", RTE_LOG_NOTICE), 0);
	fflush(f);
	TEST_CHECK(text != NULL && strstr(text, ": SQ WQE ") != NULL);
	len = 0;
	rewind(f);
	if (m.mr != NULL && pair_up(&t, &c, &e, NULL) == 0)
		TEST_CHECK(write64(&c, &m));
	fflush(f);
	TEST_CHECK(len == 0 || strstr(text, ": SQ WQE ") == NULL);
	rte_openlog_stream(old);
	(void)rte_log_set_level_pattern("pmd.rdma.irdma.model", (uint32_t)level);
	fclose(f);
	free(text);
	tqp_destroy(&c);
	tqp_destroy(&e);
	tdev_down(&t, &a, &b, &m);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_model_engine_sched", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_idle_not_visited);
	TEST_RUN(test_timers_fire);
	TEST_RUN(test_debug_lines);
	rte_eal_cleanup();
	return test_done();
}
