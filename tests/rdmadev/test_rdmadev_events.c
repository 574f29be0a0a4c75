/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The rdmadev event API over the software test driver: the queue (order, depth, the
 * eventfd's level), callbacks (registration rules, delivery instead of queueing, from the
 * EAL interrupt thread when the driver has an interrupt fd), events of destroyed objects
 * purged, QP events moving the QP to ERR, the driver-side helpers refusing bad input, and a
 * driver without event ops. restrack counts after each scenario.
 */

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "test.h"
#include "test_driver.h"

/* Liveness bound of the waits for the interrupt thread (not a timing check). */
#define WAIT_MS 10000u

struct fx {
	int16_t id;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
};

static int
fx_open(struct fx *f, const char *devargs)
{
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_qp_init_attr qpa = { .qp_type = RDMADEV_QPT_RC,
					    .cap = { .max_send_wr = 8, .max_recv_wr = 8 } };

	memset(f, 0, sizeof(*f));
	f->id = (int16_t)td_dev_up(devargs);
	TEST_CHECK(f->id >= 0);
	if (f->id < 0)
		return -1;
	TEST_CHECK_EQ(rdmadev_ctx_alloc(f->id, &f->ctx), 0);
	if (f->ctx == NULL)
		return -1;
	TEST_CHECK_EQ(rdmadev_pd_alloc(f->ctx, &f->pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(f->ctx, &cqa, &f->cq), 0);
	if (f->pd == NULL || f->cq == NULL)
		return -1;
	qpa.pd = f->pd;
	qpa.send_cq = f->cq;
	qpa.recv_cq = f->cq;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &f->qp), 0);
	return f->qp != NULL ? 0 : -1;
}

static void
fx_down(struct fx *f)
{
	if (f->qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(f->qp), 0);
	if (f->cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(f->cq), 0);
	if (f->pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(f->pd), 0);
	if (f->ctx != NULL)
		TEST_CHECK_EQ(rdmadev_ctx_free(f->ctx), 0);
	if (f->id >= 0) {
		TEST_CHECK_EQ(td_count(f->id, RESTRACK_QP), 0);
		TEST_CHECK_EQ(td_count(f->id, RESTRACK_CQ), 0);
		TEST_CHECK_EQ(td_dev_down(f->id), 0);
	}
	TEST_CHECK_EQ(td_live_objects(), 0);
}

/* fx_open(); when it fails, fx_down() what it opened. True when the fixture is up. */
static bool
fx_up(struct fx *f, const char *devargs)
{
	if (fx_open(f, devargs) == 0)
		return true;
	fx_down(f);
	return false;
}

static bool
fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Let every raised event be processed (poll with nothing to return). */
static void
settle(int16_t id)
{
	TEST_CHECK_EQ(rdmadev_event_poll(id, NULL, 0), 0);
}

static void
test_queue(void)
{
	struct rdmadev_event ev[4];
	struct rdmadev_qp_attr qa;
	uint32_t qpn, cqn, i;
	struct fx f;
	int efd;

	if (!fx_up(&f, "rdma_test0"))
		return;
	qpn = rdmadev_qp_num(f.qp);
	cqn = rdmadev_cq_id(f.cq);
	efd = rdmadev_event_fd(f.id);
	TEST_CHECK(efd >= 0);
	TEST_CHECK(!fd_readable(efd));
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 0);
	/* FIFO, one at a time; the fd is readable until the last one is taken. */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_COMM_EST, RDMADEV_OBJ_QP, qpn, 1), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ, cqn, 2), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 3), 0);
	settle(f.id);
	TEST_CHECK(fd_readable(efd));
	for (i = 1; i <= 3; i++) {
		memset(ev, 0, sizeof(ev));
		TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, 1), 1);
		TEST_CHECK_EQ(ev[0].vendor_code, i);
		TEST_CHECK_EQ(fd_readable(efd), i < 3);
	}
	/* (the order and the objects) */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_COMM_EST, RDMADEV_OBJ_QP, qpn, 1), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ, cqn, 2), 0);
	memset(ev, 0, sizeof(ev));
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 2);
	TEST_CHECK_EQ(ev[0].type, RDMADEV_EVENT_COMM_EST);
	TEST_CHECK(ev[0].qp == f.qp && ev[0].cq == NULL);
	TEST_CHECK_EQ(ev[0].obj_id, qpn);
	TEST_CHECK_EQ(ev[1].type, RDMADEV_EVENT_CQ_ERR);
	TEST_CHECK(ev[1].cq == f.cq && ev[1].qp == NULL);
	TEST_CHECK(!fd_readable(efd));
	/* A QP error event on a QP in RESET changes nothing (stale: reset since). */
	TEST_CHECK_EQ(rdmadev_qp_async_state(f.qp, RDMADEV_QPS_ERR), -ESTALE);
	TEST_CHECK_EQ(rdmadev_qp_get_state(f.qp), RDMADEV_QPS_RESET);
	/* Out of RESET, a QP error event finds the QP in ERR. */
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = RDMADEV_QPS_INIT;
	qa.port_num = 1;
	TEST_CHECK_EQ(rdmadev_qp_modify(f.qp, &qa, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				       RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_QP_FATAL, RDMADEV_OBJ_QP, qpn, 9), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, 1), 1);
	TEST_CHECK_EQ(rdmadev_qp_get_state(f.qp), RDMADEV_QPS_ERR);
	/* Ids of no object: nothing. */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_QP_FATAL, RDMADEV_OBJ_QP, qpn + 1, 9), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ, 4000, 9), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, 1), 0);
	fx_down(&f);
}

/* The queue holds RDMADEV_EVENT_QUEUE_SIZE events; more are dropped until polled. */
static void
test_overflow(void)
{
	struct rdmadev_event ev[64];
	uint32_t i, got = 0, first = UINT32_MAX, last = 0;
	struct fx f;
	int n;

	if (!fx_up(&f, "rdma_test0"))
		return;
	for (i = 0; i < RDMADEV_EVENT_QUEUE_SIZE + 40; i++) {
		TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0,
					     i), 0);
		if (i % 32 == 31)
			settle(f.id);
	}
	settle(f.id);
	while ((n = rdmadev_event_poll(f.id, ev, RTE_DIM(ev))) > 0) {
		if (first == UINT32_MAX)
			first = ev[0].vendor_code;
		last = ev[n - 1].vendor_code;
		got += (uint32_t)n;
	}
	TEST_CHECK_EQ(got, RDMADEV_EVENT_QUEUE_SIZE);
	TEST_CHECK_EQ(first, 0);	/* the oldest kept, the newest dropped */
	TEST_CHECK_EQ(last, RDMADEV_EVENT_QUEUE_SIZE - 1);
	/* Room again. */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 7), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, 1), 1);
	fx_down(&f);
}

static void
test_destroyed(void)
{
	struct rdmadev_event ev[4];
	struct fx f;
	int efd;

	if (!fx_up(&f, "rdma_test0"))
		return;
	efd = rdmadev_event_fd(f.id);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_COMM_EST, RDMADEV_OBJ_QP,
				     rdmadev_qp_num(f.qp), 1), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ,
				     rdmadev_cq_id(f.cq), 2), 0);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_QP_FATAL, RDMADEV_OBJ_QP,
				     rdmadev_qp_num(f.qp), 3), 0);
	settle(f.id);
	TEST_CHECK_EQ(rdmadev_qp_destroy(f.qp), 0);
	f.qp = NULL;
	TEST_CHECK(fd_readable(efd));
	memset(ev, 0, sizeof(ev));
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 1);
	TEST_CHECK(ev[0].cq == f.cq);
	TEST_CHECK_EQ(ev[0].vendor_code, 2);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ,
				     rdmadev_cq_id(f.cq), 4), 0);
	settle(f.id);
	TEST_CHECK(fd_readable(efd));
	TEST_CHECK_EQ(rdmadev_cq_destroy(f.cq), 0);
	f.cq = NULL;
	TEST_CHECK(!fd_readable(efd));
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 0);
	fx_down(&f);
}

/*
 * An event the hardware holds for a QP when the QP is destroyed is read by the destroy (the
 * QP is hidden then, so it is dropped): it can never reach a new QP that gets the same ID.
 */
static void
test_destroy_drains(void)
{
	struct rdmadev_event ev[4];
	uint32_t qpn;
	struct fx f;

	if (!fx_up(&f, "rdma_test0"))
		return;
	settle(f.id);
	qpn = rdmadev_qp_num(f.qp);
	TEST_CHECK_EQ(td_event_stage(f.id, RDMADEV_EVENT_QP_FATAL, RDMADEV_OBJ_QP, qpn, 9), 0);
	TEST_CHECK_EQ(td_events_pending(f.id), 1);
	TEST_CHECK_EQ(rdmadev_qp_destroy(f.qp), 0);
	f.qp = NULL;
	TEST_CHECK_EQ(td_events_pending(f.id), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 0);
	/* the same for a CQ's event */
	TEST_CHECK_EQ(td_event_stage(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ,
				     rdmadev_cq_id(f.cq), 10), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(f.cq), 0);
	f.cq = NULL;
	TEST_CHECK_EQ(td_events_pending(f.id), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, ev, RTE_DIM(ev)), 0);
	fx_down(&f);
}

struct seen {
	uint32_t n;	/* atomic */
	struct rdmadev_event last;
	int unreg_rc;
	bool unreg;
};

static void
seen_cb(int16_t dev_id, const struct rdmadev_event *ev, void *arg)
{
	struct seen *s = arg;

	s->last = *ev;
	if (s->unreg)
		s->unreg_rc = rdmadev_event_callback_unregister(dev_id, seen_cb, arg);
	__atomic_fetch_add(&s->n, 1, __ATOMIC_RELEASE);
}

static void
test_callbacks(void)
{
	struct seen a, b, c[RDMADEV_EVENT_MAX_CALLBACKS];
	struct rdmadev_event ev;
	struct fx f;
	unsigned int i;

	if (!fx_up(&f, "rdma_test0"))
		return;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, seen_cb, &a), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, seen_cb, &a), -EEXIST);
	TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, seen_cb, &b), 0);
	/* The interrupt thread delivers, to both, without a poll. */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_CQ_ERR, RDMADEV_OBJ_CQ,
				     rdmadev_cq_id(f.cq), 5), 0);
	TEST_CHECK(test_wait_count(&a.n, 1, WAIT_MS));
	TEST_CHECK(test_wait_count(&b.n, 1, WAIT_MS));
	TEST_CHECK(a.last.cq == f.cq);
	TEST_CHECK_EQ(b.last.vendor_code, 5);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, &ev, 1), 0);	/* not queued */
	/* From a callback, unregister would wait for itself. */
	a.unreg = true;
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 6), 0);
	settle(f.id);
	TEST_CHECK(test_wait_count(&a.n, 2, WAIT_MS));
	TEST_CHECK_EQ(a.unreg_rc, -EDEADLK);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, seen_cb, &a), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, seen_cb, &a), -ENOENT);
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 7), 0);
	settle(f.id);
	TEST_CHECK(test_wait_count(&b.n, 3, WAIT_MS));
	TEST_CHECK_EQ(__atomic_load_n(&a.n, __ATOMIC_ACQUIRE), 2);	/* a is gone */
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, seen_cb, &b), 0);
	/* Table full. */
	memset(c, 0, sizeof(c));
	for (i = 0; i < RDMADEV_EVENT_MAX_CALLBACKS; i++)
		TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, seen_cb, &c[i]), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, seen_cb, &a), -ENOSPC);
	for (i = 0; i < RDMADEV_EVENT_MAX_CALLBACKS; i++)
		TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, seen_cb, &c[i]), 0);
	/* Back to the queue; the interrupt thread queues and the fd wakes an epoll. */
	TEST_CHECK_EQ(td_event_raise(f.id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 8), 0);
	{
		struct pollfd p = { .fd = rdmadev_event_fd(f.id), .events = POLLIN };

		TEST_CHECK_EQ(poll(&p, 1, (int)WAIT_MS), 1);
	}
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, &ev, 1), 1);
	TEST_CHECK_EQ(ev.vendor_code, 8);
	fx_down(&f);
}

static void
test_errors(void)
{
	struct rdmadev_event ev;
	struct rdmadev *dev;
	struct fx f;
	int16_t id;

	TEST_CHECK_EQ(rdmadev_event_poll(-1, &ev, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_poll(RDMADEV_MAX_DEVS, &ev, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_poll(7, &ev, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_fd(-1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_register(7, seen_cb, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(-3, seen_cb, NULL), -EINVAL);
	TEST_CHECK(strcmp(rdmadev_event_type_name(RDMADEV_EVENT_QP_FATAL), "QP_FATAL") == 0);
	TEST_CHECK(strcmp(rdmadev_event_type_name((enum rdmadev_event_type)-1), "UNKNOWN") == 0);
	TEST_CHECK_EQ(rdmadev_event_report(NULL, &ev), -EINVAL);
	if (!fx_up(&f, "rdma_test0"))
		return;
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, NULL, 2), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_register(f.id, NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(f.id, seen_cb, NULL), -ENOENT);
	/* Driver side: events whose object does not fit their type are refused. */
	dev = rdmadev_get(f.id);
	memset(&ev, 0, sizeof(ev));
	ev.type = RDMADEV_EVENT_CQ_ERR;
	ev.qp = f.qp;
	TEST_CHECK_EQ(rdmadev_event_report(dev, &ev), -EINVAL);
	ev.type = RDMADEV_EVENT_QP_FATAL;
	ev.cq = f.cq;
	TEST_CHECK_EQ(rdmadev_event_report(dev, &ev), -EINVAL);	/* two objects */
	ev.cq = NULL;
	ev.type = RDMADEV_EVENT_MAX;
	TEST_CHECK_EQ(rdmadev_event_report(dev, &ev), -EINVAL);
	ev.type = RDMADEV_EVENT_DEVICE_FATAL;
	ev.qp = NULL;
	TEST_CHECK_EQ(rdmadev_event_report(dev, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_report(dev, &ev), 0);
	TEST_CHECK_EQ(rdmadev_event_poll(f.id, &ev, 1), 1);
	/* Lookups: wrong type, out of range, a type without IDs. */
	TEST_CHECK(rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP, rdmadev_cq_id(f.cq) + 100) == NULL);
	TEST_CHECK(rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP, UINT32_MAX) == NULL);
	TEST_CHECK(rdmadev_obj_get_byid(dev, RDMADEV_OBJ_AH, 1) == NULL);
	TEST_CHECK(rdmadev_obj_get_byid(NULL, RDMADEV_OBJ_QP, 3) == NULL);
	{
		struct rdmadev_obj *o = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP,
							     rdmadev_qp_num(f.qp));

		TEST_CHECK(o == &f.qp->obj);
		rdmadev_obj_put(o);
	}
	rdmadev_obj_put(NULL);
	fx_down(&f);
	/* A driver without event ops: polled, never processed. */
	id = (int16_t)td_dev_up("rdma_testmin0");
	TEST_CHECK(id >= 0);
	if (id >= 0) {
		TEST_CHECK_EQ(rdmadev_event_poll(id, &ev, 1), 0);
		TEST_CHECK(rdmadev_event_fd(id) >= 0);
		TEST_CHECK_EQ(rdmadev_event_callback_register(id, seen_cb, NULL), 0);
		TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, seen_cb, NULL), 0);
		TEST_CHECK_EQ(td_event_raise(id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 0),
			      -EINVAL);
		TEST_CHECK_EQ(td_dev_down(id), 0);
	}
	/* Before start: queued events are still returned, nothing is processed. */
	id = (int16_t)rdmadev_open("rdma_test1");
	TEST_CHECK(id >= 0);
	if (id >= 0) {
		TEST_CHECK_EQ(td_event_raise(id, RDMADEV_EVENT_DEVICE_FATAL, RDMADEV_OBJ_MAX, 0, 0),
			      0);
		TEST_CHECK_EQ(rdmadev_event_poll(id, &ev, 1), 0);
		TEST_CHECK_EQ(rdmadev_close(id), 0);
	}
}

int
main(void)
{
	if (test_eal_init("test_rdmadev_events", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_errors);
	TEST_RUN(test_queue);
	TEST_RUN(test_overflow);
	TEST_RUN(test_destroyed);
	TEST_RUN(test_destroy_drains);
	TEST_RUN(test_callbacks);
	rte_eal_cleanup();
	return test_done();
}
