/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev asynchronous events: the per-device queue and its eventfd, the callbacks, the
 * driver-facing report and object lookup, and the EAL interrupt hookup.
 *
 * Invariants:
 *  - ev->lock guards the queue, the eventfd's level and the callback table. The eventfd is
 *    readable exactly while the queue is not empty (pushes write it, the pop that empties
 *    the queue reads it, both under the lock).
 *  - ev->process_lock serialises the driver's event_process op and, through it, every
 *    callback invocation; unregister takes it once after removing the callback, so that it
 *    returns only when no invocation of that callback is running.
 *  - A queued event names a live object: the driver reports an object only while it holds
 *    a restrack reference (rdmadev_obj_get_byid), so a destroy's begin_del waits for the
 *    report to finish, and rdmadev_event_purge() then removes the object's queued events
 *    before the object is freed.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_interrupts.h>

#include "rdmadev_private.h"

struct rdmadev_event_cb {
	rdmadev_event_cb_t cb;
	void *arg;
};

/*
 * The device whose events this thread is processing now (its driver's event_process and the
 * callbacks it runs), or NULL: a thread's own state, so asking "am I inside a callback of
 * this device" is no data race.
 */
static __thread const struct rdmadev *rdmadev_processing_dev;

/* This thread runs @p dev's event processing (a callback of it is calling us). */
static bool
rdmadev_event_processing_here(const struct rdmadev *dev)
{
	return rdmadev_processing_dev == dev;
}

struct rdmadev_events {
	pthread_mutex_t lock;
	pthread_mutex_t process_lock;
	struct rdmadev_event q[RDMADEV_EVENT_QUEUE_SIZE];
	uint32_t head;			/* oldest queued event */
	uint32_t count;			/* queued events */
	uint64_t dropped;		/* events lost to a full queue */
	int efd;			/* readable while count > 0 */
	struct rdmadev_event_cb cbs[RDMADEV_EVENT_MAX_CALLBACKS];
	unsigned int nb_cbs;
	struct rte_intr_handle *intr;	/* registered interrupt, or NULL */
	bool period_on;			/* the periodic pass's thread runs */
	bool period_stop;		/* (period_mu) the thread is to end */
	uint32_t period_ms;		/* its period */
	pthread_t period_thread;
	pthread_mutex_t period_mu;
	pthread_cond_t period_cond;
};

static const char *const rdmadev_event_names[RDMADEV_EVENT_MAX] = {
	[RDMADEV_EVENT_QP_FATAL] = "QP_FATAL",
	[RDMADEV_EVENT_QP_REQ_ERR] = "QP_REQ_ERR",
	[RDMADEV_EVENT_QP_ACCESS_ERR] = "QP_ACCESS_ERR",
	[RDMADEV_EVENT_QP_LAST_WQE_REACHED] = "QP_LAST_WQE_REACHED",
	[RDMADEV_EVENT_SQ_DRAINED] = "SQ_DRAINED",
	[RDMADEV_EVENT_COMM_EST] = "COMM_EST",
	[RDMADEV_EVENT_PATH_MIG] = "PATH_MIG",
	[RDMADEV_EVENT_PATH_MIG_ERR] = "PATH_MIG_ERR",
	[RDMADEV_EVENT_CQ_ERR] = "CQ_ERR",
	[RDMADEV_EVENT_SRQ_ERR] = "SRQ_ERR",
	[RDMADEV_EVENT_SRQ_LIMIT] = "SRQ_LIMIT",
	[RDMADEV_EVENT_DEVICE_FATAL] = "DEVICE_FATAL",
	[RDMADEV_EVENT_PORT_ACTIVE] = "PORT_ACTIVE",
	[RDMADEV_EVENT_PORT_ERR] = "PORT_ERR",
};

const char *
rdmadev_event_type_name(enum rdmadev_event_type type)
{
	return (unsigned int)type < RDMADEV_EVENT_MAX ? rdmadev_event_names[type] : "UNKNOWN";
}

/* ---- lifecycle (rdmadev.c) ---- */

int
rdmadev_event_init(struct rdmadev *dev)
{
	struct rdmadev_events *ev = calloc(1, sizeof(*ev));

	if (ev == NULL) {
		RDMADEV_LOG(ERR, "%s: no memory for the event queue", dev->name);
		return -ENOMEM;
	}
	ev->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ev->efd < 0) {
		int rc = -errno;

		RDMADEV_LOG(ERR, "%s: eventfd: %s", dev->name, strerror(-rc));
		free(ev);
		return rc;
	}
	pthread_mutex_init(&ev->lock, NULL);
	pthread_mutex_init(&ev->process_lock, NULL);
	dev->events = ev;
	return 0;
}

void
rdmadev_event_fini(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;

	if (ev == NULL)
		return;
	if (ev->count != 0)
		RDMADEV_LOG(INFO, "%s: %u events never polled", dev->name, ev->count);
	close(ev->efd);
	pthread_mutex_destroy(&ev->lock);
	pthread_mutex_destroy(&ev->process_lock);
	free(ev);
	dev->events = NULL;
}

/* Run the driver's event_process op, serialised (both threads that process come here). */
static int
rdmadev_event_process(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;
	int rc;

	if (dev->ops->event_process == NULL ||
	    __atomic_load_n(&dev->state, __ATOMIC_ACQUIRE) != RDMADEV_STATE_STARTED)
		return 0;
	pthread_mutex_lock(&ev->process_lock);
	rdmadev_processing_dev = dev;
	rc = dev->ops->event_process(dev);
	rdmadev_processing_dev = NULL;
	pthread_mutex_unlock(&ev->process_lock);
	if (rc < 0)
		RDMADEV_LOG(ERR, "%s: driver event processing failed: %s", dev->name,
			    strerror(-rc));
	return rc;
}

void
rdmadev_event_drain(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;

	if (ev == NULL || rdmadev_event_processing_here(dev))
		return;
	(void)rdmadev_event_process(dev);
}

static void
rdmadev_event_intr(void *arg)
{
	rdmadev_event_process(arg);
}

/*
 * The periodic pass: a thread of the library's per started device that asks for one, waiting
 * on period_cond with a timeout of the period between passes; rdmadev_event_stop() sets
 * period_stop, signals and joins it (no fd, no EAL alarm: everything it shares is ordered by
 * period_mu, process_lock and the join).
 */
static void *
rdmadev_event_period_main(void *arg)
{
	struct rdmadev *dev = arg;
	struct rdmadev_events *ev = dev->events;
	struct timespec at;

	pthread_mutex_lock(&ev->period_mu);
	while (!ev->period_stop) {
		clock_gettime(CLOCK_MONOTONIC, &at);
		at.tv_sec += ev->period_ms / 1000;
		at.tv_nsec += (long)(ev->period_ms % 1000) * 1000000L;
		if (at.tv_nsec >= 1000000000L) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000L;
		}
		while (!ev->period_stop &&
		       pthread_cond_timedwait(&ev->period_cond, &ev->period_mu, &at) == 0)
			;
		if (ev->period_stop)
			break;
		pthread_mutex_unlock(&ev->period_mu);
		rdmadev_event_process(dev);
		pthread_mutex_lock(&ev->period_mu);
	}
	pthread_mutex_unlock(&ev->period_mu);
	return NULL;
}

/* Start the periodic pass when the driver asks for one (after the interrupt is registered). */
static void
rdmadev_event_period_start(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;
	pthread_condattr_t ca;
	uint32_t ms;
	int rc;

	if (dev->ops->event_period_ms == NULL)
		return;
	ms = dev->ops->event_period_ms(dev);
	if (ms == 0)
		return;
	ev->period_ms = ms;
	ev->period_stop = false;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ev->period_cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&ev->period_mu, NULL);
	rc = pthread_create(&ev->period_thread, NULL, rdmadev_event_period_main, dev);
	if (rc != 0) {
		pthread_cond_destroy(&ev->period_cond);
		pthread_mutex_destroy(&ev->period_mu);
		RDMADEV_LOG(WARNING, "%s: no periodic event pass every %u ms (pthread_create: %s): "
			    "states no interrupt announces are seen at rdmadev_event_poll() only",
			    dev->name, ms, strerror(rc));
		return;
	}
	ev->period_on = true;
	RDMADEV_LOG(DEBUG, "%s: events also processed every %u ms", dev->name, ms);
}

int
rdmadev_event_start(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;
	struct rte_intr_handle *h;
	int fd, rc;

	if (dev->ops->event_intr_fd == NULL)
		return 0;
	fd = dev->ops->event_intr_fd(dev);
	if (fd < 0) {
		RDMADEV_LOG(INFO, "%s: no event interrupt (%s): events are processed by"
			    " rdmadev_event_poll() only", dev->name, strerror(-fd));
		return 0;
	}
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (h == NULL) {
		RDMADEV_LOG(ERR, "%s: no interrupt instance", dev->name);
		return -ENOMEM;
	}
	rc = rte_intr_fd_set(h, fd);
	if (rc == 0)
		rc = rte_intr_type_set(h, RTE_INTR_HANDLE_EXT);
	if (rc == 0)
		rc = rte_intr_callback_register(h, rdmadev_event_intr, dev);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: event interrupt registration failed: %s", dev->name,
			    strerror(rc < 0 ? -rc : rc));
		rte_intr_instance_free(h);
		return rc < 0 ? rc : -rc;
	}
	ev->intr = h;
	/* The interrupt may have fired before the callback existed: look once. */
	rdmadev_event_process(dev);
	rdmadev_event_period_start(dev);
	return 0;
}

void
rdmadev_event_stop(struct rdmadev *dev)
{
	struct rdmadev_events *ev = dev->events;
	int rc;

	if (ev == NULL || ev->intr == NULL)
		return;
	if (ev->period_on) {
		/* After the join no pass runs; the driver may then tear its queues down. */
		pthread_mutex_lock(&ev->period_mu);
		ev->period_stop = true;
		pthread_cond_signal(&ev->period_cond);
		pthread_mutex_unlock(&ev->period_mu);
		pthread_join(ev->period_thread, NULL);
		pthread_cond_destroy(&ev->period_cond);
		pthread_mutex_destroy(&ev->period_mu);
		ev->period_on = false;
	}
	/* Waits for a running invocation: afterwards the driver may tear its queue down. */
	rc = rte_intr_callback_unregister_sync(ev->intr, rdmadev_event_intr, dev);
	if (rc < 0)
		RDMADEV_LOG(ERR, "%s: event interrupt unregistration failed: %s", dev->name,
			    strerror(-rc));
	/*
	 * The interrupt thread's last invocation released process_lock before EAL let the
	 * unregistration finish; taking it once makes that ordering visible to everyone here
	 * (and to ThreadSanitizer, which cannot see EAL's own synchronisation).
	 */
	pthread_mutex_lock(&ev->process_lock);
	pthread_mutex_unlock(&ev->process_lock);
	rte_intr_instance_free(ev->intr);
	ev->intr = NULL;
}

/* ---- driver side ---- */

struct rdmadev_obj *
rdmadev_obj_get_byid(struct rdmadev *dev, enum rdmadev_obj_type type, uint32_t id)
{
	enum restrack_type rt = rdmadev_obj_restrack_type(type);
	struct restrack_entry *e;
	struct rdmadev_obj *obj;

	if (dev == NULL || dev->res == NULL || rt == RESTRACK_MAX ||
	    id >= dev->res_cfg.type[rt].nb_ids)
		return NULL;
	if (restrack_get_byid(dev->res, rt, id, &e) != 0)
		return NULL;
	obj = container_of(e, struct rdmadev_obj, res);
	if (obj->type != type) {
		/* MRs and MWs share the STag index space */
		restrack_put(e);
		return NULL;
	}
	return obj;
}

void
rdmadev_obj_put(struct rdmadev_obj *obj)
{
	if (obj != NULL)
		restrack_put(&obj->res);
}

/* The object an event names, and whether the event type needs one of that kind. */
static bool
rdmadev_event_valid(const struct rdmadev_event *e)
{
	unsigned int n = (e->qp != NULL) + (e->cq != NULL) + (e->srq != NULL);

	switch (e->type) {
	case RDMADEV_EVENT_CQ_ERR:
		return n == 1 && e->cq != NULL;
	case RDMADEV_EVENT_SRQ_ERR:
	case RDMADEV_EVENT_SRQ_LIMIT:
		return n == 1 && e->srq != NULL;
	case RDMADEV_EVENT_DEVICE_FATAL:
	case RDMADEV_EVENT_PORT_ACTIVE:
	case RDMADEV_EVENT_PORT_ERR:
		return n == 0;
	case RDMADEV_EVENT_MAX:
		return false;
	default:
		return (unsigned int)e->type < RDMADEV_EVENT_MAX && n == 1 && e->qp != NULL;
	}
}

int
rdmadev_event_report(struct rdmadev *dev, const struct rdmadev_event *e)
{
	struct rdmadev_event_cb cbs[RDMADEV_EVENT_MAX_CALLBACKS];
	struct rdmadev_events *ev;
	unsigned int i, n;

	if (dev == NULL || dev->events == NULL || e == NULL || !rdmadev_event_valid(e)) {
		RDMADEV_LOG(ERR, "event_report: bad device or event (type %d)",
			    e != NULL ? (int)e->type : -1);
		return -EINVAL;
	}
	ev = dev->events;
	pthread_mutex_lock(&ev->lock);
	n = ev->nb_cbs;
	memcpy(cbs, ev->cbs, sizeof(cbs[0]) * n);
	if (n == 0) {
		if (ev->count == RDMADEV_EVENT_QUEUE_SIZE) {
			ev->dropped++;
			pthread_mutex_unlock(&ev->lock);
			RDMADEV_LOG(WARNING, "%s: event queue full: %s of object %u dropped",
				    dev->name, rdmadev_event_type_name(e->type), e->obj_id);
			return -ENOSPC;
		}
		ev->q[(ev->head + ev->count) % RDMADEV_EVENT_QUEUE_SIZE] = *e;
		if (ev->count++ == 0 && eventfd_write(ev->efd, 1) != 0)
			RDMADEV_LOG(ERR, "%s: eventfd write: %s", dev->name, strerror(errno));
	}
	pthread_mutex_unlock(&ev->lock);
	for (i = 0; i < n; i++)
		cbs[i].cb(dev->dev_id, e, cbs[i].arg);
	return 0;
}

void
rdmadev_event_purge(struct rdmadev_obj *obj)
{
	struct rdmadev_events *ev = obj->dev->events;
	struct rdmadev_event *e;
	uint32_t i, kept = 0;
	eventfd_t v;

	if (ev == NULL)
		return;
	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < ev->count; i++) {
		e = &ev->q[(ev->head + i) % RDMADEV_EVENT_QUEUE_SIZE];
		if ((void *)e->qp == obj || (void *)e->cq == obj || (void *)e->srq == obj)
			continue;
		ev->q[(ev->head + kept++) % RDMADEV_EVENT_QUEUE_SIZE] = *e;
	}
	if (kept != ev->count)
		RDMADEV_LOG(DEBUG, "%s: %u events of %s %u dropped with it", obj->dev->name,
			    ev->count - kept, rdmadev_obj_type_name(obj->type),
			    rdmadev_obj_id(obj));
	if (kept == 0 && ev->count != 0)
		(void)eventfd_read(ev->efd, &v);
	ev->count = kept;
	pthread_mutex_unlock(&ev->lock);
}

/* ---- application side ---- */

static struct rdmadev *
rdmadev_event_dev(int16_t dev_id, const char *what)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, what);

	if (dev != NULL && dev->events == NULL) {
		RDMADEV_LOG(ERR, "%s: %s has no event queue", what, dev->name);
		return NULL;
	}
	return dev;
}

int
rdmadev_event_poll(int16_t dev_id, struct rdmadev_event *out, unsigned int n)
{
	struct rdmadev *dev = rdmadev_event_dev(dev_id, "event_poll");
	struct rdmadev_events *ev;
	unsigned int i;
	eventfd_t v;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (out == NULL && n > 0) {
		RDMADEV_LOG(ERR, "event_poll: %s: NULL event array", dev->name);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = rdmadev_event_process(dev);
	if (rc < 0)
		return rdmadev_fail(dev, rc, true);
	ev = dev->events;
	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < n && ev->count > 0; i++) {
		out[i] = ev->q[ev->head];
		ev->head = (ev->head + 1) % RDMADEV_EVENT_QUEUE_SIZE;
		if (--ev->count == 0)
			(void)eventfd_read(ev->efd, &v);
	}
	pthread_mutex_unlock(&ev->lock);
	return (int)i;
}

int
rdmadev_event_fd(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_event_dev(dev_id, "event_fd");

	return dev != NULL ? dev->events->efd : -EINVAL;
}

int
rdmadev_event_callback_register(int16_t dev_id, rdmadev_event_cb_t cb, void *arg)
{
	struct rdmadev *dev = rdmadev_event_dev(dev_id, "event_callback_register");
	struct rdmadev_events *ev;
	unsigned int i;
	int rc = 0;

	if (dev == NULL)
		return -EINVAL;
	if (cb == NULL) {
		RDMADEV_LOG(ERR, "event_callback_register: %s: NULL callback", dev->name);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	ev = dev->events;
	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < ev->nb_cbs; i++)
		if (ev->cbs[i].cb == cb && ev->cbs[i].arg == arg)
			rc = -EEXIST;
	if (rc == 0 && ev->nb_cbs == RDMADEV_EVENT_MAX_CALLBACKS)
		rc = -ENOSPC;
	if (rc == 0) {
		ev->cbs[ev->nb_cbs].cb = cb;
		ev->cbs[ev->nb_cbs].arg = arg;
		ev->nb_cbs++;
	}
	pthread_mutex_unlock(&ev->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "event_callback_register: %s: %s", dev->name,
			    rc == -EEXIST ? "callback and argument registered already" :
					    "too many callbacks");
		return rdmadev_fail(dev, rc, false);
	}
	return 0;
}

int
rdmadev_event_callback_unregister(int16_t dev_id, rdmadev_event_cb_t cb, void *arg)
{
	struct rdmadev *dev = rdmadev_event_dev(dev_id, "event_callback_unregister");
	struct rdmadev_events *ev;
	unsigned int i;
	int rc = -ENOENT;

	if (dev == NULL)
		return -EINVAL;
	if (cb == NULL) {
		RDMADEV_LOG(ERR, "event_callback_unregister: %s: NULL callback", dev->name);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	ev = dev->events;
	/* A callback of this device unregistering would wait for itself. */
	if (rdmadev_event_processing_here(dev)) {
		RDMADEV_LOG(ERR, "event_callback_unregister: %s: called from an event callback",
			    dev->name);
		return rdmadev_fail(dev, -EDEADLK, false);
	}
	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < ev->nb_cbs; i++) {
		if (ev->cbs[i].cb == cb && ev->cbs[i].arg == arg) {
			ev->cbs[i] = ev->cbs[--ev->nb_cbs];
			rc = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ev->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "event_callback_unregister: %s: callback not registered",
			    dev->name);
		return rdmadev_fail(dev, rc, false);
	}
	/* Wait for an invocation that copied the table before the removal. */
	pthread_mutex_lock(&ev->process_lock);
	pthread_mutex_unlock(&ev->process_lock);
	return 0;
}
