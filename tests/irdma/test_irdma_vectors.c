/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Completion vectors and the interrupt-cause registers (doc/e810.md, "Interrupts"):
 *  - four completion vectors: CEQ k routed to MSI-X vector k (GLINT_CEQCTL), the AEQ and the
 *    other causes (PFINT_AEQCTL, PFINT_OICR_CTL) to vector 0, decoded here from the bit
 *    positions of ice_hw_autogen.h (MSIX_INDX 10:0, ITR_INDX 12:11, CAUSE_ENA bit 30);
 *  - a CQ on each vector: its completion (data checked) raises its own vector and no other
 *    (the model's per-vector count), and in thread mode its event arrives on its channel;
 *  - more vectors than the function's MSI-X count (devargs msix=2) or than rdmadev allows:
 *    -EINVAL; a CQ on a vector not configured: -EINVAL;
 *  - the model is strict: a CEQ whose cause is disabled, or routed to a vector beyond the
 *    function's MSI-X count, raises nothing (its CEQE is still written);
 *  - an event pass with no vector fired reads no register; a device reset is noticed only
 *    through PFINT_OICR's route (with the route off, never; once routed, exactly once).
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_eal.h>

#include <rdmadev_driver.h>
#include "irdma_dev.h"
#include "irdma_model.h"
#include "test.h"
#include "e2e_lib.h"

#define MR_LEN		(64u * 1024u)
#define NVEC		4u
/** Longest a channel wait lasts: a lost event fails instead of hanging. */
#define WAIT_MS		30000
/** Bound of the CQ poll loops (iterations, not time). */
#define POLL_SPINS	20000000u

/* Register offsets and fields written out here (ice_hw_autogen.h), not the driver's headers. */
#define R_GLINT_CEQCTL(k)	(0x15c000u + 4u * (k))
#define R_PFINT_AEQCTL		0x16cb00u
#define R_PFINT_OICR_ENA	0x16c900u
#define R_PFINT_OICR_CTL	0x16ca80u
#define F_MSIX_INDX(v)		((v) & 0x7ffu)
#define F_ITR_INDX(v)		(((v) >> 11) & 3u)
#define F_CAUSE_ENA(v)		(((v) >> 30) & 1u)
#define F_INTEVENT(v)		(((v) >> 31) & 1u)
#define OICR_GRST		(1u << 20)

#define thread_mode test_variant_thread()
static struct e2e_dev d;
static struct e2e_mr ml;
static struct e2e_mr mt;

static struct irdma_hw *
hw_of(void)
{
	return irdma_dev_hw(rdmadev_get(d.id));
}

static uint64_t
irqs(unsigned int v)
{
	uint64_t n = 0;

	TEST_CHECK_EQ(irdma_model_irq_count(hw_of(), v, &n), 0);
	return n;
}

/* A CQ on @p vec (with @p ch, may be NULL) and a connected pair a -> b sending into it. */
static struct rdmadev_cq *
vec_pair(uint32_t vec, struct rdmadev_comp_channel *ch, struct e2e_qp *a, struct e2e_qp *b)
{
	struct rdmadev_cq_attr ca = { .cqe = 64, .comp_vector = vec, .channel = ch };
	struct rdmadev_cq *cq = NULL, *save = d.scq.cq;

	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &ca, &cq), 0);
	if (cq == NULL)
		return NULL;
	d.scq.cq = cq;
	e2e_qp_create(&d, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, b, RDMADEV_QPT_RC, NULL);
	d.scq.cq = save;
	if (a->qp == NULL || b->qp == NULL || e2e_rc_connect(a, b, NULL) != 0)
		TEST_CHECK(0);
	return cq;
}

/* One signalled WRITE of @p len bytes of pattern @p seed from a; its completion polled. */
static bool
vec_write(struct e2e_qp *a, struct rdmadev_cq *cq, uint32_t len, uint64_t seed)
{
	struct rdmadev_sge s = { (uint64_t)(uintptr_t)ml.buf, len, ml.lkey };
	struct rdmadev_send_wr wr;
	struct rdmadev_wc wc;
	unsigned int spins;
	int err = 0;

	e2e_fill(ml.buf, len, seed);
	memset(mt.buf, 0, len);
	e2e_wr_init(&wr, seed, RDMADEV_WR_RDMA_WRITE, &s, 1);
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)mt.buf;
	wr.rdma.rkey = mt.rkey;
	TEST_CHECK_EQ(rdmadev_post_send(a->qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	for (spins = 0; spins < POLL_SPINS; spins++) {
		if (rdmadev_poll_cq(cq, &wc, 1) == 1)
			break;
		sched_yield();
	}
	TEST_CHECK(spins < POLL_SPINS);
	if (spins == POLL_SPINS)
		return false;
	TEST_CHECK_EQ(wc.wr_id, seed);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK(memcmp(ml.buf, mt.buf, len) == 0);
	return wc.status == RDMADEV_WC_SUCCESS;
}

/* Wait until vector @p v fired more than @p before times (bounded spins). */
static bool
irq_after(unsigned int v, uint64_t before)
{
	unsigned int spins;

	for (spins = 0; spins < POLL_SPINS && irqs(v) <= before; spins++)
		sched_yield();
	return irqs(v) > before;
}

/* Wait for the channel's event in epoll; false after WAIT_MS. */
static bool
chan_event(struct rdmadev_comp_channel *ch, struct rdmadev_cq **cq)
{
	struct epoll_event e = { .events = EPOLLIN };
	void *ctx;
	int ep = epoll_create1(EPOLL_CLOEXEC), n;

	TEST_CHECK(ep >= 0);
	TEST_CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, rdmadev_comp_channel_fd(ch), &e), 0);
	do {
		n = epoll_wait(ep, &e, 1, WAIT_MS);
	} while (n < 0 && errno == EINTR);
	close(ep);
	return n == 1 && rdmadev_cq_get_event(ch, cq, &ctx) == 0;
}

static bool
open_dev(const char *devargs, uint32_t nvec)
{
	if (e2e_dev_open_vectors(&d, devargs, nvec) != 0)
		return false;
	e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL);
	return ml.mr != NULL && mt.mr != NULL;
}

static void
close_dev(void)
{
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mt);
	e2e_dev_close(&d);
}

/* ---- the cause registers as written ---- */

static void
test_cause_registers(void)
{
	struct irdma_hw *hw;
	uint32_t k, v;

	if (!open_dev(E2E_DEVARGS(0, "loop:vec"), NVEC))
		goto out;
	hw = hw_of();
	for (k = 0; k < NVEC; k++) {
		v = irdma_rd32(hw, R_GLINT_CEQCTL(k));
		printf("# GLINT_CEQCTL(%u) = 0x%08x\n", k, v);
		TEST_CHECK_EQ(F_MSIX_INDX(v), k);
		TEST_CHECK_EQ(F_ITR_INDX(v), 3u);
		TEST_CHECK_EQ(F_CAUSE_ENA(v), 1u);
		TEST_CHECK_EQ(F_INTEVENT(v), 0u);
		/* nothing else set: bits 29:13 are reserved */
		TEST_CHECK_EQ(v & 0x3fffe000u, 0u);
	}
	/* a CEQ not created is not routed */
	TEST_CHECK_EQ(irdma_rd32(hw, R_GLINT_CEQCTL(NVEC)), 0u);
	v = irdma_rd32(hw, R_PFINT_AEQCTL);
	TEST_CHECK_EQ(F_MSIX_INDX(v), 0u);
	TEST_CHECK_EQ(F_ITR_INDX(v), 3u);
	TEST_CHECK_EQ(F_CAUSE_ENA(v), 1u);
	v = irdma_rd32(hw, R_PFINT_OICR_CTL);
	TEST_CHECK_EQ(F_MSIX_INDX(v), 0u);
	TEST_CHECK_EQ(F_CAUSE_ENA(v), 1u);
	TEST_CHECK(irdma_rd32(hw, R_PFINT_OICR_ENA) & OICR_GRST);
out:
	close_dev();
}

/* ---- a CQ per vector: completions, interrupts, channel events ---- */

static void
test_cq_per_vector(void)
{
	struct rdmadev_comp_channel *ch[NVEC] = { NULL };
	struct rdmadev_cq *cq[NVEC] = { NULL }, *got;
	struct e2e_qp a[NVEC], b[NVEC];
	uint64_t before[NVEC];
	uint32_t k, v;

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	if (!open_dev(E2E_DEVARGS(0, "loop:vec"), NVEC))
		goto out;
	for (k = 0; k < NVEC; k++) {
		if (thread_mode)
			TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, &ch[k]), 0);
		cq[k] = vec_pair(k, ch[k], &a[k], &b[k]);
		if (cq[k] == NULL || a[k].qp == NULL)
			goto out;
	}
	/* Twice round: each CQ's completion raises its vector and no other. */
	for (k = 0; k < 2 * NVEC; k++) {
		uint32_t c = k % NVEC;

		for (v = 0; v < NVEC; v++)
			before[v] = irqs(v);
		TEST_CHECK_EQ(rdmadev_cq_arm(cq[c], 0), 0);
		if (!vec_write(&a[c], cq[c], 256 + 64 * k, 40 + k))
			goto out;
		TEST_CHECK(irq_after(c, before[c]));
		if (thread_mode) {
			got = NULL;
			TEST_CHECK(chan_event(ch[c], &got));
			TEST_CHECK(got == cq[c]);
			if (got != NULL)
				TEST_CHECK_EQ(rdmadev_cq_ack_events(got, 1), 0);
		}
		/* vector 0 also carries the AEQ and the AdminQ: only the others are exact */
		for (v = 1; v < NVEC; v++)
			if (v != c)
				TEST_CHECK_EQ(irqs(v), before[v]);
	}
	/* no channel got another CQ's event (non-blocking: nothing left to read) */
	for (k = 0; thread_mode && k < NVEC; k++) {
		int fd = rdmadev_comp_channel_fd(ch[k]);

		TEST_CHECK_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
		TEST_CHECK_EQ(rdmadev_cq_get_event(ch[k], &got, &(void *){ NULL }), -EAGAIN);
	}
out:
	for (k = 0; k < NVEC; k++) {
		if (a[k].qp != NULL)
			e2e_qp_destroy(&a[k]);
		if (b[k].qp != NULL)
			e2e_qp_destroy(&b[k]);
		if (cq[k] != NULL)
			TEST_CHECK_EQ(rdmadev_cq_destroy(cq[k]), 0);
		if (ch[k] != NULL)
			TEST_CHECK_EQ(rdmadev_comp_channel_destroy(ch[k]), 0);
	}
	close_dev();
}

/* ---- counts beyond what the function has ---- */

static void
test_vector_limits(void)
{
	const char *devargs = test_variant_devargs("irdma_model0,qps=64,cqs=64,mrs=256,msix=2");
	struct rdmadev_conf conf = { .nb_comp_vectors = 4 };
	struct rdmadev_cq_attr ca = { .cqe = 8, .comp_vector = 2 };
	struct rdmadev_info info;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_ctx *ctx = NULL;
	int id;

	id = rdmadev_open(devargs);
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)id, &info), 0);
	TEST_CHECK_EQ(info.max_comp_vectors, 16u);
	/* beyond what rdmadev was told */
	conf.nb_comp_vectors = info.max_comp_vectors + 1;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), -EINVAL);
	/* within it, but beyond the function's two MSI-X vectors (LIST_FUNC_CAPS) */
	conf.nb_comp_vectors = 4;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), -EINVAL);
	/* two are fine; a CQ on the third is refused */
	conf.nb_comp_vectors = 2;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc((int16_t)id, &ctx), 0);
	if (ctx != NULL) {
		TEST_CHECK_EQ(rdmadev_cq_create(ctx, &ca, &cq), -EINVAL);
		TEST_CHECK(cq == NULL);
		ca.comp_vector = 1;
		TEST_CHECK_EQ(rdmadev_cq_create(ctx, &ca, &cq), 0);
		if (cq != NULL)
			TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
		TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	}
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/* ---- the model refuses what silicon would not deliver ---- */

static void
test_model_strict(void)
{
	struct rdmadev_cq *cq = NULL;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct irdma_hw *hw;
	uint64_t n1, n5;

	if (!open_dev(E2E_DEVARGS(0, "loop:vec") ",msix=2", 2))
		goto out;
	hw = hw_of();
	cq = vec_pair(1, NULL, &a, &b);
	if (cq == NULL || a.qp == NULL)
		goto out;
	/* routed as configured: vector 1 fires */
	n1 = irqs(1);
	TEST_CHECK_EQ(rdmadev_cq_arm(cq, 0), 0);
	if (!vec_write(&a, cq, 128, 1))
		goto out;
	TEST_CHECK(irq_after(1, n1));
	/* CAUSE_ENA clear: the completion arrives, no interrupt */
	irdma_wr32(hw, R_GLINT_CEQCTL(1), 1u | (3u << 11));
	n1 = irqs(1);
	TEST_CHECK_EQ(rdmadev_cq_arm(cq, 0), 0);
	if (!vec_write(&a, cq, 128, 2))
		goto out;
	TEST_CHECK_EQ(irqs(1), n1);
	/* routed to vector 5, beyond the function's two: nothing fires anywhere it could */
	irdma_wr32(hw, R_GLINT_CEQCTL(1), 5u | (3u << 11) | (1u << 30));
	n5 = irqs(5);
	TEST_CHECK_EQ(rdmadev_cq_arm(cq, 0), 0);
	if (!vec_write(&a, cq, 128, 3))
		goto out;
	TEST_CHECK_EQ(irqs(5), n5);
	TEST_CHECK_EQ(irqs(1), n1);
out:
	if (a.qp != NULL)
		e2e_qp_destroy(&a);
	if (b.qp != NULL)
		e2e_qp_destroy(&b);
	if (cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	close_dev();
}

/* ---- the OICR route: no register read when idle, a reset seen only through it ---- */

static unsigned int
fatal_events(unsigned int polls)
{
	struct rdmadev_event ev[8];
	unsigned int fatal = 0, i;
	int n, j;

	for (i = 0; i < polls; i++) {
		n = rdmadev_event_poll(d.id, ev, RTE_DIM(ev));
		TEST_CHECK(n >= 0);
		for (j = 0; j < n; j++)
			fatal += ev[j].type == RDMADEV_EVENT_DEVICE_FATAL;
	}
	return fatal;
}

static void
test_oicr_route(void)
{
	struct irdma_model_stats st0, st1;
	struct irdma_hw *hw;
	unsigned int fatal, i;

	if (!open_dev(E2E_DEVARGS(0, "loop:vec") ",reset_poll_ms=0", 2))
		goto out;
	hw = hw_of();
	/* Idle event passes: no vector fired, so not one register read (the OICR included). */
	(void)fatal_events(10);
	TEST_CHECK_EQ(irdma_model_stats_get(hw, &st0), 0);
	TEST_CHECK_EQ(fatal_events(100), 0);
	TEST_CHECK_EQ(irdma_model_stats_get(hw, &st1), 0);
	printf("# 100 idle event passes: %" PRIu64 " register reads\n",
	       st1.reg_reads - st0.reg_reads);
	if (!thread_mode)
		TEST_CHECK_EQ(st1.reg_reads, st0.reg_reads);
	/* The OICR cause unrouted: the reset latches in PFINT_OICR but nothing tells the PMD. */
	irdma_wr32(hw, R_PFINT_OICR_CTL, 3u << 11);
	TEST_CHECK_EQ(irdma_model_set_reset_reads(hw, 1), 0);
	TEST_CHECK_EQ(irdma_model_reset(hw, IRDMA_MODEL_RESET_GLOBR), 0);
	TEST_CHECK_EQ(fatal_events(200), 0);
	/* Routed again: the latched GRST raises vector 0, and the PMD sees the reset once. */
	irdma_wr32(hw, R_PFINT_OICR_CTL, (3u << 11) | (1u << 30));
	fatal = 0;
	for (i = 0; i < 2000 && fatal == 0; i++)
		fatal += fatal_events(1);
	TEST_CHECK_EQ(fatal, 1u);
	TEST_CHECK_EQ(fatal_events(200), 0);
out:
	close_dev();
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_vectors") < 0)
		return test_eal_bail();
	TEST_RUN(test_cause_registers);
	TEST_RUN(test_cq_per_vector);
	TEST_RUN(test_vector_limits);
	TEST_RUN(test_model_strict);
	TEST_RUN(test_oicr_route);
	rte_eal_cleanup();
	return test_done();
}
