/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Trains: the consecutive packets of an RC message that a loop port sends to itself travel
 * as one frame (model_port_send_train()) when descriptions are not checked. The same work
 * runs on a device that sends trains (IRDMA_MODEL_DESC_CHECK=0) and on one that does not
 * (=1: every frame alone, its description checked against its parse), at path MTUs 256,
 * 1024 and 4096, and all that can be seen from outside must be equal: the data written,
 * the receive CQEs, every model counter but tx_trains (and engine_rounds, which counts the
 * polls of a timer's wait), the hardware and wire counters.
 * An RNR NAK inside a train and a remote access error end the run.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "test.h"
#include "test_engine_lib.h"

#define AREA		(512u * 1024u)
#define MAX_CQES	32u
#define MAX_XSTATS	128u

/* What one run leaves to compare. */
struct run_out {
	uint8_t *dst;				/* the target region's bytes */
	struct tcqe rq[MAX_CQES];		/* the receive CQEs, in order */
	unsigned int nrq;
	struct irdma_model_stats st;
	uint64_t xs[MAX_XSTATS];		/* hardware and wire counters */
	int nxs;
	bool done;				/* the run got to its end */
};

/* One message of the run: op, length, immediate (SENDs are received into the RQ). */
struct msg {
	uint8_t op;
	uint32_t len;
	bool imm;
	bool se;
};

/* Wait for the RQ CQE of @p b and keep it. */
static bool
keep_rq(struct tqp *b, struct run_out *o)
{
	struct tcqe e;

	if (!rq_done(b, NULL, &e) || o->nrq >= MAX_CQES)
		return false;
	o->rq[o->nrq++] = e;
	return true;
}

static void
run(bool trains, uint32_t mtu, struct run_out *o)
{
	const uint32_t m = 128u << mtu;	/* RDMADEV_MTU_256 is 1 */
	const struct msg msgs[] = {
		{ T_OP_WRITE, m / 2 + 1, false, false },	/* one packet: no train */
		{ T_OP_WRITE, m + 1, false, false },
		{ T_OP_WRITE, 3 * m - 5, false, false },
		{ T_OP_WRITE, 5000, true, false },
		{ T_OP_WRITE, 64 * 1024 + 7, false, false },
		{ T_OP_SEND, 4 * m + 3, false, false },
		{ T_OP_SEND, 2 * m, true, false },
		{ T_OP_SEND_SE, 7 * m + 1, false, true },
		{ T_OP_WRITE, 20 * m, true, false },
	};
	struct rdmadev_xstat xs[MAX_XSTATS];
	struct tdev t;
	struct tmr src, dst;
	struct tqp a, b;
	struct tconn c;
	uint32_t off = 0, idx;
	unsigned int i;
	int n;

	memset(o, 0, sizeof(*o));
	setenv("IRDMA_MODEL_DESC_CHECK", trains ? "0" : "1", 1);
	if (!tdev_up(&t, DEVARGS(0, "loop:train")))
		return;
	unsetenv("IRDMA_MODEL_DESC_CHECK");
	if (tmr_reg(&t, NULL, &src, AREA, ACC_ALL) != 0 ||
	    tmr_reg(&t, NULL, &dst, AREA, ACC_ALL) != 0)
		goto out;
	tfill(src.buf, src.len, 7 + mtu);
	memset(dst.buf, 0, dst.len);
	tconn_default(&c);
	c.mtu = mtu;
	c.psn_a = 0xffffff - 20;	/* the PSNs wrap inside the run */
	c.rnr_retry = 7;
	c.timeout = 20;		/* 4 s: no retransmission on a busy machine */
	if (pair_up(&t, &a, &b, &c) != 0)
		goto out_qp;
	for (i = 0; i < RTE_DIM(msgs); i++) {
		const struct msg *g = &msgs[i];
		struct tsge sg = { (uint64_t)(uintptr_t)src.buf + 3 * i, src.lkey, g->len };
		struct tsge rg = { (uint64_t)(uintptr_t)dst.buf + off, dst.lkey, g->len };
		struct twr wr = { .op = g->op, .sge = &sg, .nsge = 1, .signaled = true,
				  .has_imm = g->imm, .imm = 0x1000 + i,
				  .rva = (uint64_t)(uintptr_t)dst.buf + off, .rkey = dst.rkey };

		if (off + g->len > AREA) {
			TEST_CHECK(off + g->len <= AREA);
			goto out_qp;
		}
		if (g->op != T_OP_WRITE || g->imm)
			tpost_recv(&b, &rg, 1);
		idx = tpost_send(&a, &wr);
		tring(&a);
		if (!sq_done(&a, NULL, idx, g->op))
			goto out_qp;
		if ((g->op != T_OP_WRITE || g->imm) && !keep_rq(&b, o))
			goto out_qp;
		off += (g->len + 63u) & ~63u;
	}
	/* A SEND of 6 packets and more with no RQ WQE: RNR NAK, then taken. */
	{
		struct tsge sg = { (uint64_t)(uintptr_t)src.buf + 5, src.lkey, 6 * m + 9 };
		struct tsge rg = { (uint64_t)(uintptr_t)dst.buf + off, dst.lkey, 6 * m + 9 };
		struct twr wr = { .op = T_OP_SEND, .sge = &sg, .nsge = 1, .signaled = true };
		unsigned int k;

		idx = tpost_send(&a, &wr);
		tring(&a);
		for (k = 0; k < T_POLL_MAX && TSTAT(&t, rnr_naks_sent) == 0; k++)
			tdev_service(&t, NULL);
		TEST_CHECK(TSTAT(&t, rnr_naks_sent) > 0);
		tpost_recv(&b, &rg, 1);
		if (!sq_done(&a, NULL, idx, T_OP_SEND) || !keep_rq(&b, o))
			goto out_qp;
		off += (6 * m + 9 + 63u) & ~63u;
	}
	/* A WRITE of 5 packets past the region's end: refused, nothing written. */
	{
		uint32_t len = 5 * m + 3;
		struct tsge sg = { (uint64_t)(uintptr_t)src.buf, src.lkey, len };
		struct twr wr = { .op = T_OP_WRITE, .sge = &sg, .nsge = 1, .signaled = true,
				  .rva = (uint64_t)(uintptr_t)dst.buf + AREA - len + 1,
				  .rkey = dst.rkey };

		idx = tpost_send(&a, &wr);
		tring(&a);
		expect_err(&t.scq, &t, T_FLUSH_REM_ACCESS, idx);
	}
	o->done = true;
out_qp:
	tqp_destroy(&a);
	tqp_destroy(&b);
	TEST_CHECK_EQ(irdma_model_stats_get(t.hw, &o->st), 0);
	n = rdmadev_xstats_get(t.id, xs, RTE_DIM(xs));
	TEST_CHECK(n > 0);
	for (o->nxs = 0; o->nxs < n && o->nxs < (int)MAX_XSTATS; o->nxs++)
		o->xs[o->nxs] = xs[o->nxs].value;
	o->dst = malloc(AREA);
	if (o->dst != NULL)
		memcpy(o->dst, dst.buf, AREA);
out:
	tmr_dereg(&src);
	tmr_dereg(&dst);
	tdev_close(&t);
}

/* What the CQEs of two runs must agree on. */
static bool
same_cqe(const struct tcqe *a, const struct tcqe *b)
{
	return a->len == b->len && a->qw2lo == b->qw2lo && a->qpid == b->qpid &&
	       a->minor == b->minor && a->major == b->major && a->wqe_idx == b->wqe_idx &&
	       a->se == b->se && a->error == b->error && a->op == b->op && a->sq == b->sq &&
	       a->imm_valid == b->imm_valid && (!a->imm_valid || a->imm == b->imm);
}

/*
 * The model counters of @p a and @p b are the same (the index of one that is not is
 * printed), but tx_trains and engine_rounds.
 */
static void
same_stats(const struct irdma_model_stats *a, const struct irdma_model_stats *b)
{
	struct irdma_model_stats x = *a, y = *b;
	const uint64_t *p = (const uint64_t *)(const void *)&x;
	const uint64_t *q = (const uint64_t *)(const void *)&y;
	size_t i;

	x.tx_trains = y.tx_trains = 0;
	/* rounds while only a timer is pending (the RNR back-off) count polls: time */
	x.engine_rounds = y.engine_rounds = 0;
	for (i = 0; i < sizeof(x) / sizeof(uint64_t); i++)
		if (p[i] != q[i]) {
			printf("# model counter %zu (offset %zu): %" PRIu64 " with trains, %" PRIu64
			       " without\n", i, i * sizeof(uint64_t), p[i], q[i]);
			TEST_CHECK(false);
		}
}

static void
test_trains_equal(void)
{
	uint32_t mtu;

	for (mtu = RDMADEV_MTU_256; mtu <= RDMADEV_MTU_4096; mtu += 2) {
		struct run_out *w = calloc(2, sizeof(*w));

		if (w == NULL) {
			TEST_CHECK(false);
			return;
		}
		run(true, mtu, &w[0]);
		run(false, mtu, &w[1]);
		printf("# MTU %u: %" PRIu64 " trains, %" PRIu64 " frames sent\n", 128u << mtu,
		       w[0].st.tx_trains, w[0].st.ip4_out_pkts + w[0].st.ip6_out_pkts);
		TEST_CHECK(w[0].done && w[1].done);
		/* MTU 4096: a frame holds one packet, so no trains; below, many. */
		if (mtu == RDMADEV_MTU_4096)
			TEST_CHECK_EQ(w[0].st.tx_trains, 0);
		else
			TEST_CHECK(w[0].st.tx_trains >= 20);
		TEST_CHECK_EQ(w[1].st.tx_trains, 0);
		TEST_CHECK(w[0].st.rnr_naks_sent > 0 && w[0].st.naks_sent > 0);
		TEST_CHECK(w[0].dst != NULL && w[1].dst != NULL &&
			   memcmp(w[0].dst, w[1].dst, AREA) == 0);
		TEST_CHECK_EQ(w[0].nrq, w[1].nrq);
		for (unsigned int i = 0; i < w[0].nrq && i < w[1].nrq; i++)
			TEST_CHECK(same_cqe(&w[0].rq[i], &w[1].rq[i]));
		same_stats(&w[0].st, &w[1].st);
		TEST_CHECK_EQ(w[0].nxs, w[1].nxs);
		for (int i = 0; i < w[0].nxs && i < w[1].nxs; i++)
			if (w[0].xs[i] != w[1].xs[i]) {
				printf("# counter %d: %" PRIu64 " with trains, %" PRIu64 " without\n",
				       i, w[0].xs[i], w[1].xs[i]);
				TEST_CHECK(false);
			}
		free(w[0].dst);
		free(w[1].dst);
		free(w);
	}
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_model_train") < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_trains_equal);
	rte_eal_cleanup();
	return test_done();
}
