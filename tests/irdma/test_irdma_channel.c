/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Completion channels (rdmadev_comp_channel_*, rdmadev_cq_get_event / ack) on the model:
 *  - inline mode: creating a channel is refused (-ENOTSUP: nothing runs while the
 *    application sleeps);
 *  - thread mode: a consumer thread that sleeps in epoll and is woken by each completion
 *    (N completions, N wake-ups, each event naming the CQ and its context); the
 *    poll-arm-poll pattern against a producer posting as fast as it can (every completion
 *    seen exactly once, none lost between a poll and an arm); a solicited-only arm (no
 *    event for an unsolicited receive, one for a solicited one); destroy with
 *    unacknowledged events (-EBUSY, then fine once acknowledged) and a channel destroyed
 *    while a CQ uses it (-EBUSY).
 * Waits are epoll waits of 30 s: a lost event fails the case instead of hanging.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_eal.h>

#include "test.h"
#include "e2e_lib.h"

#define MR_LEN		(64u * 1024u)
/** Longest a woken consumer waits: a lost event fails instead of hanging. */
#define WAIT_MS		30000

static struct e2e_dev d;
static struct e2e_mr ml;
static struct e2e_mr mt;
static int tag;		/* the CQ context */

/* A CQ on @p ch, and the pair a -> b with it as a's send CQ (@p recv: b's receive CQ). */
static struct rdmadev_cq *
chan_pair(struct rdmadev_comp_channel *ch, struct e2e_qp *a, struct e2e_qp *b, bool recv)
{
	struct rdmadev_cq_attr ca = { .cqe = 256, .channel = ch, .cq_context = &tag };
	struct rdmadev_cq *cq = NULL, *save_s = d.scq.cq, *save_r = d.rcq.cq;

	TEST_CHECK_EQ(rdmadev_cq_create(d.ctx, &ca, &cq), 0);
	if (cq == NULL)
		return NULL;
	if (recv)
		d.rcq.cq = cq;
	else
		d.scq.cq = cq;
	e2e_qp_create(&d, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, b, RDMADEV_QPT_RC, NULL);
	d.scq.cq = save_s;
	d.rcq.cq = save_r;
	if (a->qp == NULL || b->qp == NULL || e2e_rc_connect(a, b, NULL) != 0)
		TEST_CHECK(0);
	return cq;
}

static void
chan_unpair(struct rdmadev_cq *cq, struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_qp_destroy(a);
	e2e_qp_destroy(b);
	if (cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	(void)e2e_idle(&d.scq, 8);
	d.scq.head = d.scq.tail;
	d.rcq.head = d.rcq.tail;
}

static void
write_wr(struct rdmadev_send_wr *wr, struct rdmadev_sge *s, uint64_t id)
{
	*s = (struct rdmadev_sge){ (uint64_t)(uintptr_t)ml.buf, 64, ml.lkey };
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = id;
	wr->opcode = RDMADEV_WR_RDMA_WRITE;
	wr->sg_list = s;
	wr->num_sge = 1;
	wr->flags = RDMADEV_SEND_SIGNALED;
	wr->rdma.remote_addr = (uint64_t)(uintptr_t)mt.buf;
	wr->rdma.rkey = mt.rkey;
}

/* Wait for the channel's fd in epoll; false after WAIT_MS. */
static bool
wait_fd(int ep)
{
	struct epoll_event e;
	int n;

	do {
		n = epoll_wait(ep, &e, 1, WAIT_MS);
	} while (n < 0 && errno == EINTR);
	return n == 1;
}

static int
epoll_of(struct rdmadev_comp_channel *ch)
{
	struct epoll_event e = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	TEST_CHECK(ep >= 0);
	TEST_CHECK_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, rdmadev_comp_channel_fd(ch), &e), 0);
	return ep;
}

/* ---- inline: refused ---- */

static void
test_inline_refused(void)
{
	struct rdmadev_comp_channel *ch = NULL;

	TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, &ch), -ENOTSUP);
	TEST_CHECK(ch == NULL);
	TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_comp_channel_destroy(NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_comp_channel_fd(NULL), -EINVAL);
}

/* ---- one wake-up per completion ---- */

struct wake {
	struct rdmadev_comp_channel *ch;
	struct rdmadev_cq *cq;
	unsigned int n;		/* completions to expect */
	unsigned int armed;	/* atomic: arms done (the producer posts after each) */
	unsigned int wakeups, comps, wrong, lost;
};

static void *
wake_consumer(void *arg)
{
	struct wake *w = arg;
	struct rdmadev_cq *cq;
	struct rdmadev_wc wc[4];
	void *ctx;
	int ep = epoll_of(w->ch);
	uint16_t k;

	TEST_CHECK_EQ(rdmadev_cq_arm(w->cq, 0), 0);
	__atomic_store_n(&w->armed, 1, __ATOMIC_RELEASE);
	while (w->comps < w->n) {
		if (!wait_fd(ep)) {
			w->lost++;
			break;
		}
		if (rdmadev_cq_get_event(w->ch, &cq, &ctx) != 0) {
			w->wrong++;
			break;
		}
		w->wakeups++;
		if (cq != w->cq || ctx != &tag)
			w->wrong++;
		TEST_CHECK_EQ(rdmadev_cq_ack_events(cq, 1), 0);
		/* poll, arm, poll: the standard loop */
		while ((k = rdmadev_poll_cq(w->cq, wc, 4)) > 0)
			w->comps += k;
		TEST_CHECK_EQ(rdmadev_cq_arm(w->cq, 0), 0);
		while ((k = rdmadev_poll_cq(w->cq, wc, 4)) > 0)
			w->comps += k;
		__atomic_store_n(&w->armed, w->comps + 1, __ATOMIC_RELEASE);
	}
	close(ep);
	return NULL;
}

static void
test_wakeups(void)
{
	enum { N = 200 };
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s;
	struct wake w = { .n = N };
	pthread_t t;
	unsigned int i;

	TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, &w.ch), 0);
	if (w.ch == NULL)
		return;
	w.cq = chan_pair(w.ch, &a, &b, false);
	if (w.cq == NULL || a.qp == NULL)
		goto out;
	TEST_CHECK_EQ(pthread_create(&t, NULL, wake_consumer, &w), 0);
	for (i = 0; i < N; i++) {
		/* one WR each time the consumer is armed and idle: one wake-up each */
		while (__atomic_load_n(&w.armed, __ATOMIC_ACQUIRE) != i + 1 && w.lost == 0 &&
		       w.wrong == 0)
			sched_yield();
		if (w.lost != 0 || w.wrong != 0)
			break;
		write_wr(&wr, &s, i);
		TEST_CHECK(e2e_send(&a, &wr));
	}
	pthread_join(t, NULL);
	printf("# %u completions, %u wake-ups, %u wrong, %u lost\n", w.comps, w.wakeups,
	       w.wrong, w.lost);
	TEST_CHECK_EQ(w.comps, N);
	TEST_CHECK_EQ(w.wakeups, N);
	TEST_CHECK_EQ(w.wrong, 0);
	TEST_CHECK_EQ(w.lost, 0);
out:
	chan_unpair(w.cq, &a, &b);
	TEST_CHECK_EQ(rdmadev_comp_channel_destroy(w.ch), 0);
}

/* ---- poll-arm-poll against a free-running producer ---- */

struct race {
	struct rdmadev_comp_channel *ch;
	struct rdmadev_cq *cq;
	unsigned int n;
	unsigned int done;	/* atomic: completions seen */
	unsigned int lost, dup, events;
	uint8_t *seen;
};

static void
race_poll(struct race *r)
{
	struct rdmadev_wc wc[16];
	uint16_t k, i;

	while ((k = rdmadev_poll_cq(r->cq, wc, 16)) > 0) {
		for (i = 0; i < k; i++) {
			if (wc[i].wr_id >= r->n || r->seen[wc[i].wr_id]++ != 0 ||
			    wc[i].status != RDMADEV_WC_SUCCESS)
				r->dup++;
		}
		__atomic_fetch_add(&r->done, k, __ATOMIC_RELEASE);
	}
}

static void *
race_consumer(void *arg)
{
	struct race *r = arg;
	struct rdmadev_cq *cq;
	int ep = epoll_of(r->ch);

	TEST_CHECK_EQ(rdmadev_cq_arm(r->cq, 0), 0);
	race_poll(r);
	while (__atomic_load_n(&r->done, __ATOMIC_ACQUIRE) < r->n) {
		if (!wait_fd(ep) || rdmadev_cq_get_event(r->ch, &cq, NULL) != 0) {
			r->lost++;
			break;
		}
		r->events++;
		TEST_CHECK_EQ(rdmadev_cq_ack_events(cq, 1), 0);
		race_poll(r);
		TEST_CHECK_EQ(rdmadev_cq_arm(r->cq, 0), 0);
		race_poll(r);
	}
	close(ep);
	return NULL;
}

static void
test_arm_race(void)
{
	enum { N = 20000, DEPTH = 24 };
	static uint8_t seen[N];
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s;
	struct race r = { .n = N, .seen = seen };
	struct rdmadev_cq *cq;
	pthread_t t;
	unsigned int i;
	int err;

	memset(seen, 0, sizeof(seen));
	TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, &r.ch), 0);
	if (r.ch == NULL)
		return;
	r.cq = chan_pair(r.ch, &a, &b, false);
	if (r.cq == NULL || a.qp == NULL)
		goto out;
	TEST_CHECK_EQ(pthread_create(&t, NULL, race_consumer, &r), 0);
	for (i = 0; i < N && r.lost == 0;) {
		if (i - __atomic_load_n(&r.done, __ATOMIC_ACQUIRE) >= DEPTH) {
			sched_yield();
			continue;
		}
		write_wr(&wr, &s, i);
		err = 0;
		if (rdmadev_post_send(a.qp, &wr, 1, &err) == 1)
			i++;
		else
			TEST_CHECK_EQ(err, -ENOMEM);
	}
	pthread_join(t, NULL);
	printf("# %u completions, %u events, %u bad, %u lost\n", r.done, r.events, r.dup,
	       r.lost);
	TEST_CHECK_EQ(r.done, N);
	TEST_CHECK_EQ(r.dup, 0);
	TEST_CHECK_EQ(r.lost, 0);
	TEST_CHECK(r.events >= 1 && r.events <= N);
	for (i = 0; i < N; i++)
		if (seen[i] != 1)
			break;
	TEST_CHECK_EQ(i, N);
	/* an event of the last arm may still come: take and acknowledge it */
	(void)rdmadev_event_poll(d.id, NULL, 0);
	TEST_CHECK_EQ(fcntl(rdmadev_comp_channel_fd(r.ch), F_SETFL, O_NONBLOCK), 0);
	while (rdmadev_cq_get_event(r.ch, &cq, NULL) == 0)
		TEST_CHECK_EQ(rdmadev_cq_ack_events(cq, 1), 0);
out:
	chan_unpair(r.cq, &a, &b);
	TEST_CHECK_EQ(rdmadev_comp_channel_destroy(r.ch), 0);
}

/* ---- solicited only; destroy with unacknowledged events ---- */

static bool
fd_ready(struct rdmadev_comp_channel *ch)
{
	struct pollfd p = { .fd = rdmadev_comp_channel_fd(ch), .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* Wait for @p n receive completions on @p cq (bounded). */
static unsigned int
recv_wait(struct rdmadev_cq *cq, unsigned int n)
{
	struct rdmadev_wc wc;
	unsigned int got = 0, spins;

	for (spins = 0; got < n && spins < 20000000u; spins++) {
		if (rdmadev_poll_cq(cq, &wc, 1) == 1) {
			TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
			got++;
		} else {
			sched_yield();
		}
	}
	return got;
}

static void
test_solicited_and_destroy(void)
{
	struct rdmadev_comp_channel *ch = NULL;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_cq *rcq, *cq;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;
	void *ctx = NULL;
	int ep;

	TEST_CHECK_EQ(rdmadev_comp_channel_create(d.id, &ch), 0);
	if (ch == NULL)
		return;
	rcq = chan_pair(ch, &a, &b, true);
	if (rcq == NULL || a.qp == NULL)
		goto out;
	ep = epoll_of(ch);
	r = (struct rdmadev_sge){ (uint64_t)(uintptr_t)mt.buf, 64, mt.lkey };
	s = (struct rdmadev_sge){ (uint64_t)(uintptr_t)ml.buf, 64, ml.lkey };
	memset(&wr, 0, sizeof(wr));
	wr.opcode = RDMADEV_WR_SEND;
	wr.sg_list = &s;
	wr.num_sge = 1;
	/* solicited only: an unsolicited receive raises nothing */
	TEST_CHECK_EQ(rdmadev_cq_arm(rcq, 1), 0);
	TEST_CHECK(e2e_recv(&b, 1, &r, 1));
	wr.wr_id = 1;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(recv_wait(rcq, 1), 1);
	/* every CEQE written so far processed: no event may come from it */
	TEST_CHECK_EQ(rdmadev_event_poll(d.id, NULL, 0), 0);
	TEST_CHECK(!fd_ready(ch));
	/* a solicited one does */
	TEST_CHECK(e2e_recv(&b, 2, &r, 1));
	wr.wr_id = 2;
	wr.flags = RDMADEV_SEND_SOLICITED;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(wait_fd(ep));
	TEST_CHECK_EQ(rdmadev_cq_get_event(ch, &cq, &ctx), 0);
	TEST_CHECK(cq == rcq && ctx == &tag);
	TEST_CHECK_EQ(recv_wait(rcq, 1), 1);
	/* one event per arm: the next completion, not armed, raises none */
	TEST_CHECK(e2e_recv(&b, 3, &r, 1));
	wr.wr_id = 3;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK_EQ(recv_wait(rcq, 1), 1);
	TEST_CHECK_EQ(rdmadev_event_poll(d.id, NULL, 0), 0);
	TEST_CHECK(!fd_ready(ch));
	/* armed for anything: the next (unsolicited) receive raises one */
	TEST_CHECK_EQ(rdmadev_cq_arm(rcq, 0), 0);
	TEST_CHECK(e2e_recv(&b, 4, &r, 1));
	wr.wr_id = 4;
	wr.flags = 0;
	TEST_CHECK(e2e_send(&a, &wr));
	TEST_CHECK(wait_fd(ep));
	TEST_CHECK_EQ(recv_wait(rcq, 1), 1);
	close(ep);
	/* two events returned, one acknowledged: destroy refused, the CQ still works */
	TEST_CHECK_EQ(rdmadev_cq_get_event(ch, &cq, NULL), 0);
	TEST_CHECK(cq == rcq);
	TEST_CHECK_EQ(rdmadev_cq_ack_events(rcq, 1), 0);
	TEST_CHECK_EQ(rdmadev_cq_ack_events(rcq, 2), -EINVAL);
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	TEST_CHECK_EQ(rdmadev_cq_destroy(rcq), -EBUSY);
	TEST_CHECK_EQ(rdmadev_comp_channel_destroy(ch), -EBUSY);
	TEST_CHECK_EQ(rdmadev_cq_ack_events(rcq, 1), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(rcq), 0);
	rcq = NULL;
out:
	chan_unpair(rcq, &a, &b);
	TEST_CHECK_EQ(rdmadev_comp_channel_destroy(ch), 0);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_channel") < 0)
		return test_eal_bail();
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:chan")) == 0) {
		e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL);
		e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL);
		if (ml.mr != NULL && mt.mr != NULL) {
			if (!test_variant_thread()) {
				TEST_RUN(test_inline_refused);
			} else {
				TEST_RUN(test_wakeups);
				TEST_RUN(test_arm_race);
				TEST_RUN(test_solicited_and_destroy);
			}
		}
		e2e_mr_dereg(&ml);
		e2e_mr_dereg(&mt);
	}
	e2e_dev_close(&d);
	rte_eal_cleanup();
	return test_done();
}
