/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev objects that live in a PD: MR (user, DMA, fast registration), AH, MW, SRQ. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rdmadev_private.h"

/* Start the create of an object that lives in @p pd: allocate it, claim its ID and take a
 * use on the PD (and the PD's context). */
static void *
rdmadev_pd_child_new(struct rdmadev_pd *pd, enum rdmadev_obj_type type, size_t size,
		     bool has_op, void *out, const char *what, int *rc)
{
	struct rdmadev_obj *obj;

	obj = rdmadev_obj_new(pd->obj.ctx, type, size, has_op, out, what, rc);
	if (obj == NULL)
		return NULL;
	*rc = rdmadev_obj_use_opt(obj, RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, what);
	return *rc == 0 ? obj : NULL;
}

/* ---- MR ---- */

#define RDMADEV_ACCESS_ALL (RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE | \
			    RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_ATOMIC | \
			    RDMADEV_ACCESS_MW_BIND)

/* Access flags rules shared by every MR kind. */
static int
rdmadev_mr_check_access(struct rdmadev *dev, uint32_t access, const char *what)
{
	if (access & ~RDMADEV_ACCESS_ALL) {
		RDMADEV_LOG(ERR, "%s: unknown access flags 0x%x", what,
			    access & ~RDMADEV_ACCESS_ALL);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if ((access & (RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & RDMADEV_ACCESS_LOCAL_WRITE)) {
		RDMADEV_LOG(ERR, "%s: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE", what);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if ((access & RDMADEV_ACCESS_REMOTE_ATOMIC) && !(dev->info.capa & RDMADEV_CAPA_ATOMICS)) {
		RDMADEV_LOG(ERR, "%s: %s has no atomics", what, dev->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	if ((access & RDMADEV_ACCESS_MW_BIND) && !(dev->info.capa & RDMADEV_CAPA_MW)) {
		RDMADEV_LOG(ERR, "%s: %s has no memory windows", what, dev->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	return 0;
}

/* Create an MR of any kind once the kind-specific arguments were checked. */
static int
rdmadev_mr_create(struct rdmadev_pd *pd, const struct rdmadev_mr_attr *attr, uint8_t kind,
		  uint32_t access, uint32_t max_pages, struct rdmadev_mr **out, const char *what)
{
	struct rdmadev *dev = pd->obj.dev;
	struct rdmadev_mr *mr;
	int rc;

	rc = rdmadev_mr_check_access(dev, access, what);
	if (rc != 0)
		return rc;
	mr = rdmadev_pd_child_new(pd, RDMADEV_OBJ_MR, sizeof(*mr), dev->ops->mr_reg != NULL, out,
				  what, &rc);
	if (mr == NULL)
		return rc;
	if (attr != NULL)
		rc = rdmadev_obj_use_opt(RDMADEV_OBJ(mr), RDMADEV_OBJ(attr->dmah), RDMADEV_OBJ_DMAH,
					 what);
	if (rc != 0)
		return rc;
	mr->pd = pd;
	mr->kind = kind;
	mr->access = access;
	mr->max_pages = max_pages;
	if (attr != NULL) {
		mr->addr = attr->addr;
		mr->length = attr->length;
		mr->iova = attr->iova;
		mr->dmah = attr->dmah;
	}
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(mr), dev->ops->mr_reg(dev, mr, attr));
	if (rc == 0)
		*out = mr;
	return rc;
}

int
rdmadev_mr_reg(struct rdmadev_pd *pd, const struct rdmadev_mr_attr *attr,
	       struct rdmadev_mr **out)
{
	struct rdmadev *dev;

	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "mr_reg"))
		return -EINVAL;
	dev = pd->obj.dev;
	if (attr == NULL || attr->addr == NULL || attr->length == 0 ||
	    attr->length > dev->info.max_mr_size) {
		RDMADEV_LOG(ERR, "mr_reg: NULL attributes, NULL address or length %" PRIu64
			    " outside 1..%" PRIu64, attr != NULL ? attr->length : 0,
			    dev->info.max_mr_size);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (attr->iova + attr->length < attr->iova) {
		RDMADEV_LOG(ERR, "mr_reg: IOVA range wraps");
		return rdmadev_fail(dev, -EINVAL, false);
	}
	return rdmadev_mr_create(pd, attr, RDMADEV_MR_USER, attr->access, 0, out, "mr_reg");
}

int
rdmadev_mr_reg_dma(struct rdmadev_pd *pd, uint32_t access, struct rdmadev_mr **out)
{
	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "mr_reg_dma"))
		return -EINVAL;
	if (access & ~RDMADEV_ACCESS_LOCAL_WRITE) {
		RDMADEV_LOG(ERR, "mr_reg_dma: a DMA MR allows local access only (0x%x)", access);
		return rdmadev_fail(pd->obj.dev, -EINVAL, false);
	}
	return rdmadev_mr_create(pd, NULL, RDMADEV_MR_DMA, access, 0, out, "mr_reg_dma");
}

int
rdmadev_mr_alloc_fast_reg(struct rdmadev_pd *pd, uint32_t max_pages, struct rdmadev_mr **out)
{
	struct rdmadev *dev;

	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "mr_alloc_fast_reg"))
		return -EINVAL;
	dev = pd->obj.dev;
	if (max_pages == 0 || max_pages > dev->info.max_fast_reg_pages) {
		RDMADEV_LOG(ERR, "mr_alloc_fast_reg: %u pages, device allows 1..%u", max_pages,
			    dev->info.max_fast_reg_pages);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	return rdmadev_mr_create(pd, NULL, RDMADEV_MR_FAST_REG, 0, max_pages, out,
				 "mr_alloc_fast_reg");
}

/* Windows named in the -EBUSY line of a dereg (more are counted, not named). */
#define RDMADEV_MR_BUSY_NAMED	8

/* A region with windows bound: the line naming them (the device's object list), -EBUSY. */
static int
rdmadev_mr_busy(struct rdmadev_mr *mr, uint32_t nb)
{
	struct rdmadev *dev = mr->obj.dev;
	char names[RDMADEV_MR_BUSY_NAMED * 32] = "";
	unsigned int named = 0;
	struct rdmadev_obj *o;
	size_t at = 0;

	pthread_mutex_lock(&dev->obj_lock);
	for (o = dev->objs; o != NULL && named < RDMADEV_MR_BUSY_NAMED; o = o->next) {
		const struct rdmadev_mw *mw = (const struct rdmadev_mw *)o;
		int w;

		if (o->type != RDMADEV_OBJ_MW ||
		    __atomic_load_n(&mw->bound_mr, __ATOMIC_ACQUIRE) != mr)
			continue;
		w = snprintf(names + at, sizeof(names) - at, "%sMW %u (rkey 0x%x)",
			     named != 0 ? ", " : "", rdmadev_obj_id(o),
			     __atomic_load_n(&mw->rkey, __ATOMIC_RELAXED));
		if (w < 0 || (size_t)w >= sizeof(names) - at)
			break;
		at += (size_t)w;
		named++;
	}
	pthread_mutex_unlock(&dev->obj_lock);
	RDMADEV_LOG(ERR, "mr_dereg: MR %u (rkey 0x%x) has %u memory window(s) bound: %s%s",
		    rdmadev_obj_id(&mr->obj), mr->rkey, nb, names, nb > named ? ", ..." : "");
	return rdmadev_fail(dev, -EBUSY, false);
}

int
rdmadev_mr_dereg(struct rdmadev_mr *mr)
{
	uint32_t nb;

	if (!rdmadev_obj_check(RDMADEV_OBJ(mr), RDMADEV_OBJ_MR, "mr_dereg"))
		return -EINVAL;
	/* acquire: pairs with the release of rdmadev_mw_bound() */
	nb = __atomic_load_n(&mr->mw_bound, __ATOMIC_ACQUIRE);
	if (nb != 0)
		return rdmadev_mr_busy(mr, nb);
	return rdmadev_obj_destroy(RDMADEV_OBJ(mr), RDMADEV_OBJ_MR, RDMADEV_OP_OF(mr, mr_dereg),
				   "mr_dereg");
}

uint32_t
rdmadev_mr_lkey(const struct rdmadev_mr *mr)
{
	return mr != NULL ? mr->lkey : 0;
}

uint32_t
rdmadev_mr_rkey(const struct rdmadev_mr *mr)
{
	return mr != NULL ? mr->rkey : 0;
}

/* ---- AH, MW, SRQ ---- */

int
rdmadev_ah_create(struct rdmadev_pd *pd, const struct rdmadev_ah_attr *attr,
		  struct rdmadev_ah **out)
{
	struct rdmadev *dev;
	struct rdmadev_ah *ah;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "ah_create"))
		return -EINVAL;
	dev = pd->obj.dev;
	if (attr == NULL || attr->port_num == 0 || attr->port_num > dev->info.nb_ports) {
		RDMADEV_LOG(ERR, "ah_create: NULL attributes or port %u outside 1..%u",
			    attr != NULL ? attr->port_num : 0, dev->info.nb_ports);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	ah = rdmadev_pd_child_new(pd, RDMADEV_OBJ_AH, sizeof(*ah),
				  dev->ops->ah_create != NULL, out, "ah_create", &rc);
	if (ah == NULL)
		return rc;
	ah->pd = pd;
	ah->attr = *attr;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(ah), dev->ops->ah_create(dev, ah, attr));
	if (rc == 0)
		*out = ah;
	return rc;
}

int
rdmadev_ah_destroy(struct rdmadev_ah *ah)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(ah), RDMADEV_OBJ_AH, RDMADEV_OP_OF(ah, ah_destroy),
				   "ah_destroy");
}

int
rdmadev_mw_alloc(struct rdmadev_pd *pd, struct rdmadev_mw **out)
{
	struct rdmadev *dev;
	struct rdmadev_mw *mw;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "mw_alloc"))
		return -EINVAL;
	dev = pd->obj.dev;
	if (!(dev->info.capa & RDMADEV_CAPA_MW)) {
		RDMADEV_LOG(ERR, "mw_alloc: %s (gen %u) has no memory windows", dev->name,
			    dev->info.hw_gen);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	mw = rdmadev_pd_child_new(pd, RDMADEV_OBJ_MW, sizeof(*mw),
				  dev->ops->mw_alloc != NULL, out, "mw_alloc", &rc);
	if (mw == NULL)
		return rc;
	mw->pd = pd;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(mw), dev->ops->mw_alloc(dev, mw));
	if (rc == 0)
		*out = mw;
	return rc;
}

void
rdmadev_mw_bound(struct rdmadev_mw *mw, struct rdmadev_mr *mr)
{
	struct rdmadev_mr *old;

	if (mw == NULL)
		return;
	if (mr != NULL)
		__atomic_fetch_add(&mr->mw_bound, 1, __ATOMIC_RELEASE);
	old = __atomic_exchange_n(&mw->bound_mr, mr, __ATOMIC_ACQ_REL);
	if (old != NULL)
		__atomic_fetch_sub(&old->mw_bound, 1, __ATOMIC_RELEASE);
}

int
rdmadev_mw_free(struct rdmadev_mw *mw)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(mw), RDMADEV_OBJ_MW, RDMADEV_OP_OF(mw, mw_free),
				   "mw_free");
}

int
rdmadev_srq_create(struct rdmadev_pd *pd, const struct rdmadev_srq_attr *attr,
		   struct rdmadev_srq **out)
{
	struct rdmadev_srq *srq;
	struct rdmadev *dev;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, "srq_create"))
		return -EINVAL;
	dev = pd->obj.dev;
	if (!(dev->info.capa & RDMADEV_CAPA_SRQ)) {
		RDMADEV_LOG(ERR, "srq_create: %s (gen %u) has no SRQs", dev->name,
			    dev->info.hw_gen);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	if (attr == NULL || attr->max_wr == 0 || attr->max_wr > dev->info.max_srq_wr ||
	    attr->max_sge == 0 || attr->max_sge > dev->info.max_sge ||
	    attr->srq_limit > attr->max_wr) {
		RDMADEV_LOG(ERR, "srq_create: NULL attributes or max_wr/max_sge/limit beyond "
			    "%u/%u/max_wr", dev->info.max_srq_wr, dev->info.max_sge);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	srq = rdmadev_pd_child_new(pd, RDMADEV_OBJ_SRQ, sizeof(*srq),
				   dev->ops->srq_create != NULL, out, "srq_create", &rc);
	if (srq == NULL)
		return rc;
	srq->pd = pd;
	srq->attr = *attr;
	pthread_mutex_init(&srq->lock, NULL);
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(srq), dev->ops->srq_create(dev, srq, attr));
	if (rc == 0)
		*out = srq;
	return rc;
}

int
rdmadev_srq_destroy(struct rdmadev_srq *srq)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(srq), RDMADEV_OBJ_SRQ,
				   RDMADEV_OP_OF(srq, srq_destroy), "srq_destroy");
}

int
rdmadev_srq_modify(struct rdmadev_srq *srq, const struct rdmadev_srq_attr *attr, uint32_t mask)
{
	struct rdmadev *dev;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(srq), RDMADEV_OBJ_SRQ, "srq_modify"))
		return -EINVAL;
	dev = srq->obj.dev;
	rc = rdmadev_obj_dev_ready(dev, "srq_modify");
	if (rc != 0)
		return rc;
	if (attr == NULL || mask == 0 || (mask & ~(RDMADEV_SRQ_LIMIT | RDMADEV_SRQ_MAX_WR)) != 0) {
		RDMADEV_LOG(ERR, "srq_modify: SRQ %u: NULL attributes or mask 0x%x (known 0x%x)",
			    rdmadev_obj_id(&srq->obj), mask,
			    RDMADEV_SRQ_LIMIT | RDMADEV_SRQ_MAX_WR);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if ((mask & RDMADEV_SRQ_LIMIT) && attr->srq_limit > srq->attr.max_wr) {
		RDMADEV_LOG(ERR, "srq_modify: SRQ %u: limit %u beyond max_wr %u",
			    rdmadev_obj_id(&srq->obj), attr->srq_limit, srq->attr.max_wr);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->srq_modify == NULL) {
		RDMADEV_LOG(ERR, "srq_modify: %s cannot modify SRQs", dev->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	pthread_mutex_lock(&srq->lock);
	rc = dev->ops->srq_modify(dev, srq, attr, mask);
	pthread_mutex_unlock(&srq->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "srq_modify: driver refused SRQ %u: %s",
			    rdmadev_obj_id(&srq->obj), strerror(-rc));
		return rdmadev_fail(dev, rc, rc != -ENOTSUP);
	}
	return 0;
}

int
rdmadev_srq_query(struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr)
{
	struct rdmadev *dev;
	int rc = 0;

	if (!rdmadev_obj_check(RDMADEV_OBJ(srq), RDMADEV_OBJ_SRQ, "srq_query"))
		return -EINVAL;
	dev = srq->obj.dev;
	if (attr == NULL) {
		RDMADEV_LOG(ERR, "srq_query: SRQ %u: NULL attributes", rdmadev_obj_id(&srq->obj));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	pthread_mutex_lock(&srq->lock);
	*attr = srq->attr;
	if (dev->ops->srq_query != NULL)
		rc = dev->ops->srq_query(dev, srq, attr);
	pthread_mutex_unlock(&srq->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "srq_query: driver failed on SRQ %u: %s",
			    rdmadev_obj_id(&srq->obj), strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}
