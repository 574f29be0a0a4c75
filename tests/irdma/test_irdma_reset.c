/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Device resets during operation (doc/e810.md, "Resets"): for each kind the model raises
 * (core, global, EMP) in the middle of traffic, the PMD must report exactly one
 * DEVICE_FATAL, complete every outstanding WR exactly once (those in flight with
 * WR_FLUSH_ERR), refuse new posts and creates with -EIO, report the QPs in ERR, and after
 * rdmadev_stop + rdmadev_start (or, once, rdmadev_close + rdmadev_open) pass data again
 * (written, then read back).
 */

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev_driver.h>
#include "irdma_dev.h"
#include "irdma_model.h"
#include "test.h"
#include "e2e_lib.h"

#define MR_LEN	(64u * 1024u)
#define N_WR	64u
#define N_RECV	16u

static struct e2e_dev d;

/* The objects e2e_dev_open() makes after the start, made again after a restart. */
static int
dev_objects_make(void)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 4096, .comp_vector = 0 };
	struct rdmadev_cq *scq = NULL, *rcq = NULL;

	TEST_CHECK_EQ(rdmadev_ctx_alloc(d.id, &d.ctx), 0);
	if (d.ctx == NULL)
		return -1;
	TEST_CHECK_EQ(rdmadev_pd_alloc(d.ctx, &d.pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(d.ctx, &d.pd2), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &cqa, &scq), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &cqa, &rcq), 0);
	memset(&d.scq, 0, sizeof(d.scq));
	memset(&d.rcq, 0, sizeof(d.rcq));
	d.scq.cq = scq;
	d.rcq.cq = rcq;
	return scq != NULL && rcq != NULL && d.pd != NULL && d.pd2 != NULL ? 0 : -1;
}

/* Every object of dev_objects_make() freed: after a reset this must work too. */
static void
dev_objects_free(void)
{
	if (d.rcq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(d.rcq.cq), 0);
	if (d.scq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(d.scq.cq), 0);
	if (d.pd2 != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(d.pd2), 0);
	if (d.pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(d.pd), 0);
	if (d.ctx != NULL)
		TEST_CHECK_EQ(rdmadev_ctx_free(d.ctx), 0);
	d.rcq.cq = d.scq.cq = NULL;
	d.pd = d.pd2 = NULL;
	d.ctx = NULL;
}

/* Poll events until none come for a while; the number of DEVICE_FATAL among them. */
static unsigned int
fatal_events(void)
{
	struct rdmadev_event ev[8];
	unsigned int fatal = 0, quiet = 0;
	int n, i;

	/* Bounded, not timed: 200 empty polls in a row end it. */
	while (quiet < 200) {
		n = rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
		TEST_CHECK(n >= 0);
		if (n <= 0) {
			quiet++;
			continue;
		}
		quiet = 0;
		for (i = 0; i < n; i++)
			if (ev[i].type == RDMADEV_EVENT_DEVICE_FATAL)
				fatal++;
	}
	return fatal;
}

/* WRITE @p len bytes of pattern @p seed to @p t, READ them back into @p l; both checked. */
static void
traffic_ok(struct e2e_qp *a, struct e2e_mr *l, struct e2e_mr *t, uint32_t len, uint64_t seed)
{
	static uint8_t want[MR_LEN];

	e2e_fill(l->buf, len, seed);
	memcpy(want, l->buf, len);
	memset(t->buf, 0, len);
	e2e_rdma_op(a, RDMADEV_WR_RDMA_WRITE, l, 0, len, (uint64_t)(uintptr_t)t->buf, t->rkey,
		    1);
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, -1);
	TEST_CHECK(memcmp(t->buf, want, len) == 0);
	memset(l->buf, 0, len);
	e2e_rdma_op(a, RDMADEV_WR_RDMA_READ, l, 0, len, (uint64_t)(uintptr_t)t->buf, t->rkey, 2);
	e2e_expect(&d.scq, 2, RDMADEV_WC_SUCCESS, -1);
	TEST_CHECK(memcmp(l->buf, want, len) == 0);
	TEST_CHECK(e2e_canary_ok(l) && e2e_canary_ok(t));
}

/* A case's end, whatever state it stopped in: its QPs, MRs and the device go. */
static void
case_end(struct e2e_qp *a, struct e2e_qp *b, struct e2e_mr *ml, struct e2e_mr *mt)
{
	if (a->qp != NULL)
		e2e_qp_destroy(a);
	if (b->qp != NULL)
		e2e_qp_destroy(b);
	e2e_mr_dereg(ml);
	e2e_mr_dereg(mt);
	e2e_dev_close(&d);
}

/*
 * @p slow: the reset runs for a while (GLGEN_RSTAT.DEVSTATE reads 1 when the PMD looks);
 * otherwise it is over by then and only the AdminQ it took away (ATQLEN.ENABLE 0) tells.
 */
static void
reset_case(enum irdma_model_reset_kind kind, const char *name, bool slow, bool reopen)
{
	struct irdma_model_stats st;
	struct irdma_hw *hw;
	uint32_t rstat;
	static struct rdmadev_send_wr wrs[N_WR];
	static struct rdmadev_sge s[N_WR];
	const struct rdmadev_cq_attr cqa = { .cqe = 64, .comp_vector = 0 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_qp *qc = NULL;
	struct e2e_mr ml = { 0 }, mt = { 0 };
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_sge r;
	struct rdmadev_wc wc;
	struct e2e_tally t;
	unsigned int i, rflushed = 0;
	uint16_t posted;
	int err = 0;

	printf("# %s reset%s\n", name, reopen ? ", then close and open" : "");
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:reset")) != 0)
		goto out;
	e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL);
	if (ml.mr == NULL || mt.mr == NULL)
		goto out;
	e2e_qp_create(&d, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_RC, NULL);
	if (a.qp == NULL || b.qp == NULL || e2e_rc_connect(&a, &b, NULL) != 0)
		goto out;
	traffic_ok(&a, &ml, &mt, 4096, 11);
	/* the EMP case with the interrupt thread running beside the application's polls */
	if (kind == IRDMA_MODEL_RESET_EMPR)
		TEST_CHECK(rdmadev_event_fd(d.id) >= 0 || !test_variant_thread());
	/* In flight: nothing leaves the device, so every WR is outstanding at the reset. */
	TEST_CHECK_EQ(e2e_wire_hold(&d), 0);
	for (i = 0; i < N_WR; i++) {
		s[i] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(ml.buf + i * 512u), 512,
					     ml.lkey };
		e2e_wr_init(&wrs[i], 100 + i, RDMADEV_WR_RDMA_WRITE, &s[i], 1);
		wrs[i].rdma.remote_addr = (uint64_t)(uintptr_t)(mt.buf + i * 512u);
		wrs[i].rdma.rkey = mt.rkey;
	}
	r = (struct rdmadev_sge){ (uint64_t)(uintptr_t)mt.buf, 64, mt.lkey };
	for (i = 0; i < N_RECV; i++)
		e2e_recv(&b, 500 + i, &r, 1);
	posted = rdmadev_post_send(a.qp, wrs, N_WR, &err);
	TEST_CHECK_EQ(posted, N_WR);
	TEST_CHECK_EQ(err, 0);

	hw = irdma_dev_hw(rdmadev_get(d.id));
	TEST_CHECK_EQ(irdma_model_set_reset_reads(hw, slow ? 20 : 1), 0);
	TEST_CHECK_EQ(irdma_model_reset(hw, kind), 0);
	/* exactly one fatal event, however often the application looks */
	TEST_CHECK_EQ(fatal_events(), 1);
	TEST_CHECK_EQ(fatal_events(), 0);
	/* every WR completed exactly once: the in-flight ones flushed */
	TEST_CHECK_EQ(e2e_tally(&d.scq, posted, 100, &t), 0);
	TEST_CHECK_EQ(t.ok, 0);
	TEST_CHECK_EQ(t.flushed, posted);
	TEST_CHECK_EQ(t.other, 0);
	TEST_CHECK(e2e_wait(&d.rcq, N_RECV));
	for (i = 0; i < N_RECV && e2e_take(&d.rcq, &wc); i++) {
		TEST_CHECK_EQ(wc.wr_id, 500 + i);
		rflushed += wc.status == RDMADEV_WC_WR_FLUSH_ERR;
	}
	TEST_CHECK_EQ(rflushed, N_RECV);
	TEST_CHECK_EQ(e2e_idle(&d.scq, 50), 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 1), 0);
	/* every object reports the fatal state; new work is refused with -EIO */
	TEST_CHECK_EQ(rdmadev_qp_query(a.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
	TEST_CHECK_EQ(rdmadev_qp_query(b.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
	err = 0;
	TEST_CHECK_EQ(rdmadev_post_send(a.qp, wrs, 1, &err), 0);
	TEST_CHECK_EQ(err, -EIO);
	err = 0;
	TEST_CHECK_EQ(rdmadev_post_recv(b.qp, &(struct rdmadev_recv_wr){ .wr_id = 9,
				.sg_list = &r, .num_sge = 1 }, 1, &err), 0);
	TEST_CHECK_EQ(err, -EIO);
	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &cqa, &cq), -EIO);
	TEST_CHECK(cq == NULL);
	memset(&qi, 0, sizeof(qi));
	qi.pd = d.pd;
	qi.send_cq = d.scq.cq;
	qi.recv_cq = d.rcq.cq;
	qi.qp_type = RDMADEV_QPT_RC;
	qi.cap = (struct rdmadev_qp_cap){ .max_send_wr = 16, .max_recv_wr = 16,
					  .max_send_sge = 1, .max_recv_sge = 1 };
	TEST_CHECK_EQ(rdmadev_qp_create(&qi, &qc), -EIO);
	TEST_CHECK(qc == NULL);
	TEST_CHECK_EQ(e2e_wire_release(&d), 0);

	/* recovery: everything freed, stop, start, new objects pass data */
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mt);
	if (reopen) {
		/* close after the reset (its teardown on a device that lost everything), open */
		e2e_dev_close(&d);
		if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:reset")) != 0)
			goto out;
		hw = irdma_dev_hw(rdmadev_get(d.id));
		TEST_CHECK_EQ(irdma_model_stats_get(hw, &st), 0);
		TEST_CHECK_EQ(st.dev_resets, 0);
	} else {
		dev_objects_free();
		TEST_CHECK_EQ(rdmadev_stop(d.id), 0);
		TEST_CHECK_EQ(rdmadev_start(d.id), 0);
		/* the model did reset, of this kind (GLGEN_RSTAT.RESET_TYPE, bits 3:2) */
		TEST_CHECK_EQ(irdma_model_stats_get(hw, &st), 0);
		TEST_CHECK_EQ(st.dev_resets, 1);
		rstat = irdma_rd32(hw, 0xb8188);
		TEST_CHECK_EQ(rstat & 3u, 0);
		TEST_CHECK_EQ((rstat >> 2) & 3u, (uint32_t)kind);
		if (dev_objects_make() != 0)
			goto out;
	}
	TEST_CHECK_EQ(fatal_events(), 0);
	e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL);
	if (ml.mr == NULL || mt.mr == NULL)
		goto out;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	e2e_qp_create(&d, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_RC, NULL);
	if (a.qp == NULL || b.qp == NULL || e2e_rc_connect(&a, &b, NULL) != 0)
		goto out;
	traffic_ok(&a, &ml, &mt, MR_LEN, 22 + kind);
	TEST_CHECK_EQ(fatal_events(), 0);
out:
	case_end(&a, &b, &ml, &mt);
}

static void
test_reset_core(void)
{
	reset_case(IRDMA_MODEL_RESET_CORER, "core", true, false);
}

static void
test_reset_global(void)
{
	reset_case(IRDMA_MODEL_RESET_GLOBR, "global", false, false);
}

static void
test_reset_emp(void)
{
	reset_case(IRDMA_MODEL_RESET_EMPR, "EMP", true, false);
}

static void
test_reset_reopen(void)
{
	reset_case(IRDMA_MODEL_RESET_CORER, "core", true, true);
}

/* PFINT_OICR_CTL with its cause routed nowhere (ITR index 3, CAUSE_ENA clear). */
#define R_PFINT_OICR_CTL	0x16ca80u
#define OICR_CTL_UNROUTED	(3u << 11)

/* Event passes 1 ms apart until a DEVICE_FATAL, at most @p max_ms of them; how many came. */
static unsigned int
fatal_within(unsigned int max_ms)
{
	unsigned int fatal = 0, i;

	for (i = 0; i < max_ms && fatal == 0; i++) {
		fatal = fatal_events();
		if (fatal == 0)
			rte_delay_ms(1);
	}
	return fatal;
}

/* A pair of connected QPs with traffic checked; false when something failed. */
static bool
pair_up(struct e2e_qp *a, struct e2e_qp *b, struct e2e_mr *ml, struct e2e_mr *mt, uint64_t seed)
{
	e2e_mr_reg(&d, NULL, ml, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, mt, MR_LEN, E2E_ACC_ALL);
	if (ml->mr == NULL || mt->mr == NULL)
		return false;
	e2e_qp_create(&d, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, b, RDMADEV_QPT_RC, NULL);
	if (a->qp == NULL || b->qp == NULL || e2e_rc_connect(a, b, NULL) != 0)
		return false;
	traffic_ok(a, ml, mt, 4096, seed);
	return true;
}

/*
 * A reset that PFINT_OICR does not announce: its cause routed nowhere, as after a
 * function-level reset, which raises no OICR cause and disables MSI-X. @p cqp_first: no event
 * pass looks (reset_poll_ms=0) and the teardown's CQP commands find it: the QP destroys
 * succeed without the device, a create is -EIO, and the next event pass reports it. Else the
 * event passes' reset poll (reset_poll_ms=1) finds it. Either way one DEVICE_FATAL, and close
 * and open give a working device.
 */
static void
unannounced_case(bool cqp_first)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 64, .comp_vector = 0 };
	struct e2e_mr ml = { 0 }, mt = { 0 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_cq *cq = NULL;
	struct irdma_hw *hw;

	printf("# a reset PFINT_OICR does not announce, found by %s\n",
	       cqp_first ? "a CQP command" : "the reset poll");
	if (e2e_dev_open(&d, cqp_first ? E2E_DEVARGS(0, "loop:reset") ",reset_poll_ms=0" :
			 E2E_DEVARGS(0, "loop:reset") ",reset_poll_ms=1") != 0)
		goto out;
	if (!pair_up(&a, &b, &ml, &mt, 31))
		goto out;
	hw = irdma_dev_hw(rdmadev_get(d.id));
	irdma_wr32(hw, R_PFINT_OICR_CTL, OICR_CTL_UNROUTED);
	TEST_CHECK_EQ(irdma_model_set_reset_reads(hw, 1), 0);
	TEST_CHECK_EQ(irdma_model_reset(hw, IRDMA_MODEL_RESET_GLOBR), 0);
	if (cqp_first) {
		/* Without reset_poll_ms nothing in the event path looks. */
		TEST_CHECK_EQ(fatal_within(20), 0);
		/* The first command waits for its timeout, then finds the reset. */
		TEST_CHECK_EQ(rdmadev_qp_destroy(a.qp), 0);
		a.qp = NULL;
		TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &cqa, &cq), -EIO);
		TEST_CHECK(cq == NULL);
		TEST_CHECK_EQ(fatal_events(), 1);
	} else {
		TEST_CHECK_EQ(fatal_within(5000), 1);
		TEST_CHECK_EQ(rdmadev_qp_query(a.qp, &qa, &qi), 0);
		TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
		TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &cqa, &cq), -EIO);
	}
	TEST_CHECK_EQ(fatal_events(), 0);
	/* the teardown on a device that lost everything, then a new device that works */
	if (a.qp != NULL)
		e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mt);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	e2e_dev_close(&d);
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:reset")) != 0)
		goto out;
	if (pair_up(&a, &b, &ml, &mt, 32))
		traffic_ok(&a, &ml, &mt, MR_LEN, 33);
	TEST_CHECK_EQ(fatal_events(), 0);
out:
	case_end(&a, &b, &ml, &mt);
}

static void
test_reset_unannounced_poll(void)
{
	unannounced_case(false);
}

static void
test_reset_unannounced_cqp(void)
{
	unannounced_case(true);
}

/*
 * The same unannounced reset while the application only waits on rdmadev_event_fd() and never
 * calls rdmadev_event_poll() until the fd is readable (an event-channel application). THREAD
 * mode: rdmadev's periodic pass (every reset_poll_ms, from the interrupt thread) finds the
 * reset, so the fd becomes readable with no vector firing. INLINE mode has no interrupt
 * thread: events are processed by rdmadev_event_poll() only, so this case has nothing to show.
 */
static void
test_reset_unannounced_waiting(void)
{
	struct e2e_mr ml = { 0 }, mt = { 0 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_event ev[4];
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	struct irdma_hw *hw;
	struct pollfd pfd;
	int n, rc, i;

	if (!test_variant_thread()) {
		printf("# INLINE mode: no interrupt thread, nothing processes events unasked\n");
		return;
	}
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:reset") ",reset_poll_ms=20") != 0)
		goto out;
	if (!pair_up(&a, &b, &ml, &mt, 41))
		goto out;
	pfd.fd = rdmadev_event_fd(d.id);
	pfd.events = POLLIN;
	TEST_CHECK(pfd.fd >= 0);
	/* nothing pending yet: the fd is not readable */
	TEST_CHECK_EQ(poll(&pfd, 1, 0), 0);
	hw = irdma_dev_hw(rdmadev_get(d.id));
	irdma_wr32(hw, R_PFINT_OICR_CTL, OICR_CTL_UNROUTED);
	TEST_CHECK_EQ(irdma_model_set_reset_reads(hw, 1), 0);
	TEST_CHECK_EQ(irdma_model_reset(hw, IRDMA_MODEL_RESET_GLOBR), 0);
	/* A liveness bound (100 x 20 ms periods), not a timing check. */
	rc = poll(&pfd, 1, 2000);
	TEST_CHECK_EQ(rc, 1);
	TEST_CHECK(rc != 1 || (pfd.revents & POLLIN) != 0);
	n = rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
	TEST_CHECK_EQ(n, 1);
	for (i = 0; i < n; i++)
		TEST_CHECK_EQ(ev[i].type, RDMADEV_EVENT_DEVICE_FATAL);
	TEST_CHECK_EQ(fatal_events(), 0);
	TEST_CHECK_EQ(rdmadev_qp_query(a.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
out:
	case_end(&a, &b, &ml, &mt);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_reset") < 0)
		return test_eal_bail();
	TEST_RUN(test_reset_core);
	TEST_RUN(test_reset_global);
	TEST_RUN(test_reset_emp);
	TEST_RUN(test_reset_reopen);
	TEST_RUN(test_reset_unannounced_poll);
	TEST_RUN(test_reset_unannounced_cqp);
	TEST_RUN(test_reset_unannounced_waiting);
	rte_eal_cleanup();
	return test_done();
}
