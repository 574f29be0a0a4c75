/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Wake-up latency of a completion channel on the threaded model, beside a busy-poll
 * baseline in the same run: one RDMA WRITE at a time on a loopback RC pair, timed from the
 * post to the consumer thread running with the completion (busy: rdmadev_poll_cq returned
 * it; channel: rdmadev_cq_get_event returned in a thread that slept in epoll_wait). Both
 * include the model's work on the WRITE; the difference is the cost of sleeping (CEQE,
 * interrupt eventfd, the EAL interrupt thread, the channel's eventfd, the scheduler).
 * Prints the median and the 99th percentile in ns of each.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "test.h"
#include "e2e_lib.h"

#define ROUNDS	2000u
#define MR_LEN	4096u

static struct e2e_dev d;
static struct e2e_mr ml, mt;
static uint64_t lat[ROUNDS];

struct run {
	struct rdmadev_cq *cq;
	struct rdmadev_comp_channel *ch;	/* NULL: busy poll */
	uint64_t t_post;	/* atomic: TSC of the post */
	unsigned int ready;	/* atomic: rounds the consumer is ready for */
	unsigned int done;	/* atomic: rounds completed */
	int fail;
};

static void *
consumer(void *arg)
{
	struct run *r = arg;
	struct epoll_event e = { .events = EPOLLIN };
	struct rdmadev_wc wc;
	struct rdmadev_cq *cq;
	unsigned int i;
	int ep = -1;

	if (r->ch != NULL) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, rdmadev_comp_channel_fd(r->ch), &e) != 0)
			r->fail = 1;
	}
	for (i = 0; i < ROUNDS && !r->fail; i++) {
		if (r->ch != NULL) {
			(void)rdmadev_cq_arm(r->cq, 0);
			__atomic_store_n(&r->ready, i + 1, __ATOMIC_RELEASE);
			if (epoll_wait(ep, &e, 1, 30000) != 1 ||
			    rdmadev_cq_get_event(r->ch, &cq, NULL) != 0) {
				r->fail = 1;
				break;
			}
			lat[i] = rte_rdtsc() - __atomic_load_n(&r->t_post, __ATOMIC_ACQUIRE);
			(void)rdmadev_cq_ack_events(cq, 1);
			while (rdmadev_poll_cq(r->cq, &wc, 1) == 0)
				;
		} else {
			__atomic_store_n(&r->ready, i + 1, __ATOMIC_RELEASE);
			while (rdmadev_poll_cq(r->cq, &wc, 1) == 0)
				;
			lat[i] = rte_rdtsc() - __atomic_load_n(&r->t_post, __ATOMIC_ACQUIRE);
		}
		__atomic_store_n(&r->done, i + 1, __ATOMIC_RELEASE);
	}
	if (ep >= 0)
		close(ep);
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One run; prints its median and p99. */
static int
run_one(const char *name, struct rdmadev_comp_channel *ch)
{
	struct rdmadev_cq_attr ca = { .cqe = 64, .channel = ch };
	struct rdmadev_cq *save = d.scq.cq;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s;
	struct run r = { .ch = ch };
	double ns = 1e9 / (double)rte_get_tsc_hz();
	pthread_t t;
	unsigned int i;
	int err;

	if (rdmadev_cq_create(d.ctx, &ca, &r.cq) != 0)
		return -1;
	d.scq.cq = r.cq;
	e2e_qp_create(&d, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_RC, NULL);
	d.scq.cq = save;
	if (a.qp == NULL || b.qp == NULL || e2e_rc_connect(&a, &b, NULL) != 0)
		return -1;
	s = (struct rdmadev_sge){ (uint64_t)(uintptr_t)ml.buf, 64, ml.lkey };
	memset(&wr, 0, sizeof(wr));
	wr.opcode = RDMADEV_WR_RDMA_WRITE;
	wr.sg_list = &s;
	wr.num_sge = 1;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)mt.buf;
	wr.rdma.rkey = mt.rkey;
	if (pthread_create(&t, NULL, consumer, &r) != 0)
		return -1;
	for (i = 0; i < ROUNDS && !r.fail; i++) {
		while (__atomic_load_n(&r.ready, __ATOMIC_ACQUIRE) != i + 1 && !r.fail)
			sched_yield();
		/* let the consumer fall asleep (channel) or spin (busy) */
		rte_delay_us_sleep(50);
		__atomic_store_n(&r.t_post, rte_rdtsc(), __ATOMIC_RELEASE);
		wr.wr_id = i;
		err = 0;
		if (rdmadev_post_send(a.qp, &wr, 1, &err) != 1) {
			r.fail = 1;
			break;
		}
		while (__atomic_load_n(&r.done, __ATOMIC_ACQUIRE) != i + 1 && !r.fail)
			sched_yield();
	}
	pthread_join(t, NULL);
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	(void)rdmadev_cq_destroy(r.cq);
	if (r.fail) {
		printf("%s: failed\n", name);
		return -1;
	}
	qsort(lat, ROUNDS, sizeof(lat[0]), cmp_u64);
	printf("%-10s %10.0f %10.0f\n", name, (double)lat[ROUNDS / 2] * ns,
	       (double)lat[ROUNDS * 99 / 100] * ns);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rdmadev_comp_channel *ch = NULL;
	int rc = 1;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("bench_irdma_channel", NULL) < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	if (e2e_dev_open(&d, E2E_DEVARGS(0, "loop:benchch")) == 0 &&
	    e2e_mr_reg(&d, NULL, &ml, MR_LEN, E2E_ACC_ALL) == 0 &&
	    e2e_mr_reg(&d, NULL, &mt, MR_LEN, E2E_ACC_ALL) == 0 &&
	    rdmadev_comp_channel_create(d.id, &ch) == 0) {
		printf("post -> consumer running with the completion, %u rounds\n", ROUNDS);
		printf("%-10s %10s %10s\n", "mode", "median ns", "p99 ns");
		rc = run_one("busy-poll", NULL) != 0 || run_one("channel", ch) != 0;
		(void)rdmadev_comp_channel_destroy(ch);
	}
	e2e_mr_dereg(&ml);
	e2e_mr_dereg(&mt);
	e2e_dev_close(&d);
	rte_eal_cleanup();
	return rc;
}
