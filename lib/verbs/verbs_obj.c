/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, objects: PD, MR, completion channel, CQ, QP, AH, SRQ, asynchronous events,
 * and the verbs this layer does not offer (an errno and a log line, never a crash).
 * Every call takes the objects of the system's libibverbs as well and forwards them there.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_memory.h>

#include "verbs_priv.h"

/* Access bits rdma-core lets a provider ignore (IBV_ACCESS_OPTIONAL_RANGE). */
#define IV_ACCESS_OPTIONAL	IBV_ACCESS_OPTIONAL_RANGE
/* Access bits rdmadev knows (same values as verbs). */
#define IV_ACCESS_KNOWN		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
				 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | \
				 IBV_ACCESS_MW_BIND)

/* The context a PD, CQ, QP ... belongs to: every verbs object starts with it. */
#define IV_OBJ_CTX(o) (*(struct ibv_context *const *)(const void *)(o))

/* ---------------------------------------------------------------------------------------- */
/* PD                                                                                       */

struct ibv_pd *
ibv_alloc_pd(struct ibv_context *context)
{
	struct iv_pd *pd;
	int rc;

	if (context == NULL) {
		IV_LOG(ERR, "NULL context");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(struct ibv_pd *(*)(struct ibv_context *), "ibv_alloc_pd", "IBVERBS_1.1",
			   NULL);
		return real(context);
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = rdmadev_pd_alloc(iv_ctx_of(context)->r, &pd->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_pd_alloc: %s", strerror(-rc));
		free(pd);
		errno = -rc;
		return NULL;
	}
	pd->pd.context = context;
	pd->pd.handle = rdmadev_pd_id(pd->r);
	iv_track(context, IV_PD, &pd->link);
	return &pd->pd;
}

int
ibv_dealloc_pd(struct ibv_pd *pd)
{
	struct iv_pd *p;
	int rc;

	if (pd == NULL) {
		IV_LOG(ERR, "NULL PD");
		return EINVAL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(int (*)(struct ibv_pd *), "ibv_dealloc_pd", "IBVERBS_1.1", EINVAL);
		return real(pd);
	}
	p = container_of(pd, struct iv_pd, pd);
	rc = rdmadev_pd_free(p->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_pd_free: %s", strerror(-rc));
		return -rc;
	}
	iv_untrack(pd->context, &p->link);
	free(p);
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* MR                                                                                       */

struct ibv_mr *
ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova,
		 unsigned int access)
{
	struct rdmadev_mr_attr a;
	struct iv_mr *mr;
	int rc;

	if (pd == NULL) {
		IV_LOG(ERR, "NULL PD");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_mr *(*)(struct ibv_pd *, void *, size_t, uint64_t,
					      unsigned int), "ibv_reg_mr_iova2", "IBVERBS_1.8",
			   NULL);
		return real(pd, addr, length, iova, access);
	}
	access &= ~(unsigned int)IV_ACCESS_OPTIONAL;
	if (access & (IBV_ACCESS_ON_DEMAND | IBV_ACCESS_ZERO_BASED)) {
		IV_LOG(ERR, "%s MRs are not supported",
		       (access & IBV_ACCESS_ON_DEMAND) ? "on-demand paging (ODP)" : "zero-based");
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (access & ~(unsigned int)(IV_ACCESS_KNOWN | IBV_ACCESS_HUGETLB)) {
		IV_LOG(ERR, "unknown access flags 0x%x", access & ~(unsigned int)IV_ACCESS_KNOWN);
		errno = EINVAL;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = iv_fork_protect(addr, length, &mr->dontfork);
	if (rc != 0) {
		free(mr);
		errno = rc;
		return NULL;
	}
	memset(&a, 0, sizeof(a));
	a.addr = addr;
	a.length = length;
	a.iova = iova;
	a.access = access & IV_ACCESS_KNOWN;
	rc = rdmadev_mr_reg(container_of(pd, struct iv_pd, pd)->r, &a, &mr->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_mr_reg(%p, %zu bytes): %s", addr, length, strerror(-rc));
		if (mr->dontfork)
			iv_fork_unprotect(addr, length);
		free(mr);
		errno = -rc;
		return NULL;
	}
	mr->mr.context = pd->context;
	mr->mr.pd = pd;
	mr->mr.addr = addr;
	mr->mr.length = length;
	mr->mr.lkey = rdmadev_mr_lkey(mr->r);
	mr->mr.rkey = rdmadev_mr_rkey(mr->r);
	mr->mr.handle = mr->mr.lkey;
	iv_track(pd->context, IV_MR, &mr->link);
	return &mr->mr;
}

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

struct ibv_mr *
ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	if (pd != NULL && !iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_mr *(*)(struct ibv_pd *, void *, size_t, int), "ibv_reg_mr",
			   "IBVERBS_1.1", NULL);
		return real(pd, addr, length, access);
	}
	return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, (unsigned int)access);
}

struct ibv_mr *
ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
	if (pd != NULL && !iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_mr *(*)(struct ibv_pd *, void *, size_t, uint64_t, int),
			   "ibv_reg_mr_iova", "IBVERBS_1.7", NULL);
		return real(pd, addr, length, iova, access);
	}
	return ibv_reg_mr_iova2(pd, addr, length, iova, (unsigned int)access);
}

int
ibv_dereg_mr(struct ibv_mr *mr)
{
	struct iv_mr *m;
	int rc;

	if (mr == NULL) {
		IV_LOG(ERR, "NULL MR");
		return EINVAL;
	}
	if (!iv_ctx_ours(mr->context)) {
		IV_FORWARD(int (*)(struct ibv_mr *), "ibv_dereg_mr", "IBVERBS_1.1", EINVAL);
		return real(mr);
	}
	m = container_of(mr, struct iv_mr, mr);
	rc = rdmadev_mr_dereg(m->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_mr_dereg: %s", strerror(-rc));
		return -rc;
	}
	if (m->dontfork)
		iv_fork_unprotect(mr->addr, mr->length);
	iv_untrack(mr->context, &m->link);
	free(m);
	return 0;
}

int
ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length,
	     int access)
{
	if (mr == NULL) {
		IV_LOG(ERR, "NULL MR");
		return IBV_REREG_MR_ERR_INPUT;
	}
	if (!iv_ctx_ours(mr->context)) {
		IV_FORWARD(int (*)(struct ibv_mr *, int, struct ibv_pd *, void *, size_t, int),
			   "ibv_rereg_mr", "IBVERBS_1.1", IBV_REREG_MR_ERR_INPUT);
		return real(mr, flags, pd, addr, length, access);
	}
	IV_LOG(ERR, "re-registration is not supported: deregister and register");
	errno = EOPNOTSUPP;
	return IBV_REREG_MR_ERR_INPUT;
}

/* ---------------------------------------------------------------------------------------- */
/* Completion channels                                                                      */

struct ibv_comp_channel *
ibv_create_comp_channel(struct ibv_context *context)
{
	struct iv_chan *ch;
	int rc;

	if (context == NULL) {
		IV_LOG(ERR, "NULL context");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(struct ibv_comp_channel *(*)(struct ibv_context *),
			   "ibv_create_comp_channel", "IBVERBS_1.0", NULL);
		return real(context);
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = rdmadev_comp_channel_create(iv_ctx_of(context)->dev->dev_id, &ch->r);
	if (rc < 0) {
		IV_LOG(ERR, "%s: rdmadev_comp_channel_create: %s%s", context->device->name,
		       strerror(-rc), rc == -ENOTSUP ?
		       " (the device model needs mode=thread for completion events)" : "");
		free(ch);
		errno = rc == -ENOTSUP ? EOPNOTSUPP : -rc;
		return NULL;
	}
	ch->ch.context = context;
	ch->ch.fd = rdmadev_comp_channel_fd(ch->r);
	return &ch->ch;
}

int
ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct iv_chan *ch;
	int rc;

	if (channel == NULL) {
		IV_LOG(ERR, "NULL channel");
		return EINVAL;
	}
	if (!iv_ctx_ours(channel->context)) {
		IV_FORWARD(int (*)(struct ibv_comp_channel *), "ibv_destroy_comp_channel",
			   "IBVERBS_1.0", EINVAL);
		return real(channel);
	}
	ch = container_of(channel, struct iv_chan, ch);
	rc = rdmadev_comp_channel_destroy(ch->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_comp_channel_destroy: %s", strerror(-rc));
		return -rc;
	}
	free(ch);
	return 0;
}

int
ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	struct rdmadev_cq *rcq;
	void *arg = NULL;
	int rc;

	if (channel == NULL || cq == NULL || cq_context == NULL) {
		IV_LOG(ERR, "NULL argument");
		errno = EINVAL;
		return -1;
	}
	if (!iv_ctx_ours(channel->context)) {
		IV_FORWARD(int (*)(struct ibv_comp_channel *, struct ibv_cq **, void **),
			   "ibv_get_cq_event", "IBVERBS_1.1", -1);
		return real(channel, cq, cq_context);
	}
	rc = rdmadev_cq_get_event(container_of(channel, struct iv_chan, ch)->r, &rcq, &arg);
	if (rc < 0) {
		if (rc != -EAGAIN)
			IV_LOG(ERR, "rdmadev_cq_get_event: %s", strerror(-rc));
		errno = -rc;
		return -1;
	}
	*cq = &((struct iv_cq *)arg)->cq;
	*cq_context = (*cq)->cq_context;
	pthread_mutex_lock(&(*cq)->mutex);
	((struct iv_cq *)arg)->events++;
	pthread_mutex_unlock(&(*cq)->mutex);
	return 0;
}

void
ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	int rc;

	if (cq == NULL) {
		IV_LOG(ERR, "NULL CQ");
		return;
	}
	if (!iv_ctx_ours(cq->context)) {
		typedef void (*fn_t)(struct ibv_cq *, unsigned int);
		static fn_t real;

		if (real == NULL)
			real = (fn_t)iv_real_sym("ibv_ack_cq_events", "IBVERBS_1.1");
		if (real != NULL)
			real(cq, nevents);
		else
			IV_LOG(ERR, "not an irdma-pmd CQ");
		return;
	}
	rc = rdmadev_cq_ack_events(container_of(cq, struct iv_cq, cq)->r, nevents);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_cq_ack_events(%u): %s", nevents, strerror(-rc));
		return;
	}
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}

/* ---------------------------------------------------------------------------------------- */
/* CQ                                                                                       */

struct ibv_cq *
ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
	      struct ibv_comp_channel *channel, int comp_vector)
{
	struct rdmadev_cq_attr a;
	struct iv_cq *cq;
	int rc;

	if (context == NULL) {
		IV_LOG(ERR, "NULL context");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(struct ibv_cq *(*)(struct ibv_context *, int, void *,
					      struct ibv_comp_channel *, int), "ibv_create_cq",
			   "IBVERBS_1.1", NULL);
		return real(context, cqe, cq_context, channel, comp_vector);
	}
	if (cqe <= 0 || comp_vector < 0 || comp_vector >= context->num_comp_vectors) {
		IV_LOG(ERR, "bad size %d or completion vector %d", cqe, comp_vector);
		errno = EINVAL;
		return NULL;
	}
	if (channel != NULL && channel->context != context) {
		IV_LOG(ERR, "the channel belongs to another context");
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	memset(&a, 0, sizeof(a));
	a.cqe = (uint32_t)cqe;
	a.comp_vector = (uint32_t)comp_vector;
	a.channel = channel != NULL ? container_of(channel, struct iv_chan, ch)->r : NULL;
	a.cq_context = cq;
	rc = rdmadev_cq_create(iv_ctx_of(context)->r, &a, &cq->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_cq_create(%d entries): %s", cqe, strerror(-rc));
		free(cq);
		errno = -rc;
		return NULL;
	}
	cq->cq.context = context;
	cq->cq.channel = channel;
	cq->cq.cq_context = cq_context;
	cq->cq.handle = rdmadev_cq_id(cq->r);
	cq->cq.cqe = (int)rdmadev_cq_size(cq->r);
	pthread_mutex_init(&cq->cq.mutex, NULL);
	pthread_cond_init(&cq->cq.cond, NULL);
	if (channel != NULL)
		channel->refcnt++;
	iv_track(context, IV_CQ, &cq->link);
	return &cq->cq;
}

int
ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	struct iv_cq *c;
	int rc;

	if (cq == NULL) {
		IV_LOG(ERR, "NULL CQ");
		return EINVAL;
	}
	if (!iv_ctx_ours(cq->context)) {
		IV_FORWARD(int (*)(struct ibv_cq *, int), "ibv_resize_cq", "IBVERBS_1.1", EINVAL);
		return real(cq, cqe);
	}
	if (cqe <= 0) {
		IV_LOG(ERR, "bad size %d", cqe);
		return EINVAL;
	}
	c = container_of(cq, struct iv_cq, cq);
	rc = rdmadev_cq_resize(c->r, (uint32_t)cqe);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_cq_resize(%d): %s", cqe, strerror(-rc));
		return rc == -ENOTSUP ? EOPNOTSUPP : -rc;
	}
	cq->cqe = (int)rdmadev_cq_size(c->r);
	return 0;
}

int
ibv_destroy_cq(struct ibv_cq *cq)
{
	struct iv_cq *c;
	int rc;

	if (cq == NULL) {
		IV_LOG(ERR, "NULL CQ");
		return EINVAL;
	}
	if (!iv_ctx_ours(cq->context)) {
		IV_FORWARD(int (*)(struct ibv_cq *), "ibv_destroy_cq", "IBVERBS_1.1", EINVAL);
		return real(cq);
	}
	c = container_of(cq, struct iv_cq, cq);
	/* As rdma-core: wait until every event returned is acknowledged (ibv_ack_cq_events). */
	pthread_mutex_lock(&cq->mutex);
	while (cq->comp_events_completed != c->events)
		pthread_cond_wait(&cq->cond, &cq->mutex);
	pthread_mutex_unlock(&cq->mutex);
	iv_async_drain(cq->context, &c->async, &cq->mutex, &cq->cond,
		       &cq->async_events_completed);
	rc = rdmadev_cq_destroy(c->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_cq_destroy: %s", strerror(-rc));
		iv_async_revive(cq->context, &c->async);
		return -rc;
	}
	if (cq->channel != NULL)
		cq->channel->refcnt--;
	iv_untrack(cq->context, &c->link);
	pthread_cond_destroy(&cq->cond);
	pthread_mutex_destroy(&cq->mutex);
	free(c->cqx_poll);
	free(c);
	return 0;
}
