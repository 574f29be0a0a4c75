/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Completion channels (verbs' ibv_comp_channel): a FIFO of CQ events and an eventfd in
 * semaphore mode that counts them, so each read takes one event and the fd is readable
 * while events wait.
 *
 * Locking: ch->lock guards the FIFO, the number of CQs attached, and each attached CQ's
 * events_got and dying. The driver reports events (rdmadev_cq_comp_event) from its event
 * processing; rdmadev_cq_destroy marks the CQ dying and drops its queued events under the
 * lock before the driver destroys it, so no event names a destroyed CQ. A dropped event
 * leaves a count in the eventfd: rdmadev_cq_get_event then finds the FIFO empty and reads
 * again.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_common.h>

#include "rdmadev_private.h"

/** Events the FIFO holds before it first grows. */
#define RDMADEV_CHANNEL_FIFO_MIN	16u

struct rdmadev_comp_channel {
	int16_t dev_id;			/**< device */
	int fd;				/**< eventfd, EFD_SEMAPHORE */
	pthread_mutex_t lock;		/**< see the file comment */
	uint32_t ncqs;			/**< CQs attached */
	struct rdmadev_cq **ev;		/**< FIFO ring of events (their CQs) */
	uint32_t cap;			/**< ring slots */
	uint32_t head;			/**< oldest event */
	uint32_t len;			/**< events queued */
};

int
rdmadev_comp_channel_create(int16_t dev_id, struct rdmadev_comp_channel **out)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, "comp_channel_create");
	struct rdmadev_comp_channel *ch;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (out == NULL) {
		RDMADEV_LOG(ERR, "comp_channel_create: NULL out");
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->cq_events_check == NULL) {
		RDMADEV_LOG(ERR, "comp_channel_create: %s has no completion events", dev->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	rc = dev->ops->cq_events_check(dev);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "comp_channel_create: %s cannot deliver completion events on "
			    "its own: %s", dev->name, strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		RDMADEV_LOG(ERR, "comp_channel_create: no memory");
		return rdmadev_fail(dev, -ENOMEM, false);
	}
	ch->fd = eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC);
	if (ch->fd < 0) {
		rc = -errno;
		RDMADEV_LOG(ERR, "comp_channel_create: eventfd: %s", strerror(errno));
		free(ch);
		return rdmadev_fail(dev, rc, false);
	}
	ch->dev_id = dev_id;
	pthread_mutex_init(&ch->lock, NULL);
	*out = ch;
	return 0;
}

int
rdmadev_comp_channel_destroy(struct rdmadev_comp_channel *ch)
{
	if (ch == NULL) {
		RDMADEV_LOG(ERR, "comp_channel_destroy: NULL channel");
		return -EINVAL;
	}
	pthread_mutex_lock(&ch->lock);
	if (ch->ncqs != 0) {
		RDMADEV_LOG(ERR, "comp_channel_destroy: %u CQs still use the channel", ch->ncqs);
		pthread_mutex_unlock(&ch->lock);
		return -EBUSY;
	}
	pthread_mutex_unlock(&ch->lock);
	close(ch->fd);
	pthread_mutex_destroy(&ch->lock);
	free(ch->ev);
	free(ch);
	return 0;
}

int
rdmadev_comp_channel_fd(const struct rdmadev_comp_channel *ch)
{
	if (ch == NULL) {
		RDMADEV_LOG(ERR, "comp_channel_fd: NULL channel");
		return -EINVAL;
	}
	return ch->fd;
}

/* Make room for one more event (ch->lock held). */
static int
rdmadev_channel_grow(struct rdmadev_comp_channel *ch)
{
	uint32_t cap = ch->cap != 0 ? ch->cap * 2 : RDMADEV_CHANNEL_FIFO_MIN, i;
	struct rdmadev_cq **ev;

	if (ch->len < ch->cap)
		return 0;
	ev = malloc((size_t)cap * sizeof(*ev));
	if (ev == NULL)
		return -ENOMEM;
	for (i = 0; i < ch->len; i++)
		ev[i] = ch->ev[(ch->head + i) % ch->cap];
	free(ch->ev);
	ch->ev = ev;
	ch->cap = cap;
	ch->head = 0;
	return 0;
}

void
rdmadev_cq_comp_event(struct rdmadev_cq *cq)
{
	struct rdmadev_comp_channel *ch = cq != NULL ? cq->channel : NULL;

	if (ch == NULL)
		return;
	pthread_mutex_lock(&ch->lock);
	if (cq->dying) {
		pthread_mutex_unlock(&ch->lock);
		return;
	}
	if (rdmadev_channel_grow(ch) != 0) {
		pthread_mutex_unlock(&ch->lock);
		RDMADEV_LOG(ERR, "CQ %u: completion event lost: no memory", rdmadev_cq_id(cq));
		return;
	}
	ch->ev[(ch->head + ch->len) % ch->cap] = cq;
	ch->len++;
	pthread_mutex_unlock(&ch->lock);
	if (eventfd_write(ch->fd, 1) != 0)
		RDMADEV_LOG(ERR, "CQ %u: completion channel eventfd: %s", rdmadev_cq_id(cq),
			    strerror(errno));
}

int
rdmadev_cq_get_event(struct rdmadev_comp_channel *ch, struct rdmadev_cq **cq,
		     void **cq_context)
{
	struct rdmadev_cq *c;
	uint64_t v;

	if (ch == NULL || cq == NULL) {
		RDMADEV_LOG(ERR, "cq_get_event: NULL channel or CQ pointer");
		return -EINVAL;
	}
	for (;;) {
		if (read(ch->fd, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		pthread_mutex_lock(&ch->lock);
		if (ch->len == 0) {
			/* the event of a CQ destroyed since */
			pthread_mutex_unlock(&ch->lock);
			continue;
		}
		c = ch->ev[ch->head];
		ch->head = (ch->head + 1) % ch->cap;
		ch->len--;
		c->events_got++;
		pthread_mutex_unlock(&ch->lock);
		*cq = c;
		if (cq_context != NULL)
			*cq_context = c->cq_context;
		return 0;
	}
}

int
rdmadev_cq_ack_events(struct rdmadev_cq *cq, unsigned int n)
{
	struct rdmadev_comp_channel *ch;
	int rc = 0;

	if (cq == NULL || !rdmadev_obj_check(&cq->obj, RDMADEV_OBJ_CQ, "cq_ack_events"))
		return -EINVAL;
	ch = cq->channel;
	if (ch == NULL) {
		if (n != 0) {
			RDMADEV_LOG(ERR, "cq_ack_events: CQ %u has no completion channel",
				    rdmadev_cq_id(cq));
			rc = -EINVAL;
		}
		return rc;
	}
	pthread_mutex_lock(&ch->lock);
	if (n > cq->events_got - cq->events_acked) {
		RDMADEV_LOG(ERR, "cq_ack_events: CQ %u: %u acknowledged, %u unacknowledged",
			    rdmadev_cq_id(cq), n, cq->events_got - cq->events_acked);
		rc = -EINVAL;
	} else {
		cq->events_acked += n;
	}
	pthread_mutex_unlock(&ch->lock);
	return rc;
}

/* ---- CQ create / destroy (rdmadev_obj.c) ---- */

int
rdmadev_channel_check(struct rdmadev *dev, const struct rdmadev_comp_channel *ch)
{
	if (ch != NULL && ch->dev_id != dev->dev_id) {
		RDMADEV_LOG(ERR, "cq_create: the completion channel is of device %d, not %s",
			    ch->dev_id, dev->name);
		return -EINVAL;
	}
	return 0;
}

void
rdmadev_channel_attach(struct rdmadev_cq *cq, struct rdmadev_comp_channel *ch,
		       void *cq_context)
{
	cq->cq_context = cq_context;
	if (ch == NULL)
		return;
	pthread_mutex_lock(&ch->lock);
	ch->ncqs++;
	cq->channel = ch;
	pthread_mutex_unlock(&ch->lock);
}

int
rdmadev_channel_detach_begin(struct rdmadev_cq *cq)
{
	struct rdmadev_comp_channel *ch = cq->channel;
	uint32_t i, kept = 0;

	if (ch == NULL)
		return 0;
	pthread_mutex_lock(&ch->lock);
	if (cq->events_got != cq->events_acked) {
		RDMADEV_LOG(ERR, "cq_destroy: CQ %u has %u unacknowledged events "
			    "(rdmadev_cq_ack_events)", rdmadev_cq_id(cq),
			    cq->events_got - cq->events_acked);
		pthread_mutex_unlock(&ch->lock);
		return -EBUSY;
	}
	cq->dying = 1;
	/* its events not taken yet go (their eventfd counts stay: get skips them) */
	for (i = 0; i < ch->len; i++) {
		struct rdmadev_cq *c = ch->ev[(ch->head + i) % ch->cap];

		if (c != cq)
			ch->ev[(ch->head + kept++) % ch->cap] = c;
	}
	ch->len = kept;
	pthread_mutex_unlock(&ch->lock);
	return 0;
}

void
rdmadev_channel_detach_end(struct rdmadev_comp_channel *ch, struct rdmadev_cq *cq, bool done)
{
	if (ch == NULL)
		return;
	pthread_mutex_lock(&ch->lock);
	if (done)
		ch->ncqs--;
	else
		cq->dying = 0;
	pthread_mutex_unlock(&ch->lock);
}
