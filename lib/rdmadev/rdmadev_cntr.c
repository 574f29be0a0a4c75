/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev counters: statistics counters bound to QPs, completion counters, DMA handles. */

#include <errno.h>
#include <sched.h>
#include <string.h>

#include <rte_common.h>

#include "rdmadev_private.h"


int
rdmadev_counter_alloc(struct rdmadev_ctx *ctx, struct rdmadev_counter **out)
{
	struct rdmadev_counter *c;
	int rc;

	c = rdmadev_obj_new(ctx, RDMADEV_OBJ_COUNTER, sizeof(*c), RDMADEV_OP_OF(ctx, counter_alloc),
			    out, "counter_alloc", &rc);
	if (c == NULL)
		return rc;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(c),
				    ctx->obj.dev->ops->counter_alloc(ctx->obj.dev, c));
	if (rc == 0)
		*out = c;
	return rc;
}

int
rdmadev_counter_free(struct rdmadev_counter *c)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(c), RDMADEV_OBJ_COUNTER,
				   RDMADEV_OP_OF(c, counter_free), "counter_free");
}

/* Common checks of bind and unbind. */
static int
rdmadev_counter_check(struct rdmadev_counter *c, struct rdmadev_qp *qp, bool has_op,
		      const char *what)
{
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(c), RDMADEV_OBJ_COUNTER, what) ||
	    !rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, what))
		return -EINVAL;
	rc = rdmadev_obj_dev_ready(c->obj.dev, what);
	if (rc != 0)
		return rc;
	if (!has_op) {
		RDMADEV_LOG(ERR, "%s: not supported by driver %s", what, c->obj.dev->drv->name);
		return rdmadev_fail(c->obj.dev, -ENOTSUP, false);
	}
	return 0;
}

int
rdmadev_counter_bind_qp(struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	struct rdmadev *dev;
	int rc;

	rc = rdmadev_counter_check(c, qp, RDMADEV_OP_OF(c, counter_bind), "counter_bind_qp");
	if (rc != 0)
		return rc;
	dev = c->obj.dev;
	pthread_mutex_lock(&qp->lock);
	if (qp->counter != NULL) {
		RDMADEV_LOG(ERR, "counter_bind_qp: QP %u is already bound to counter %u",
			    rdmadev_qp_num(qp), rdmadev_obj_id(&qp->counter->obj));
		rc = -EBUSY;
		goto out;
	}
	rc = rdmadev_obj_use(RDMADEV_OBJ(qp), RDMADEV_OBJ(c), "counter_bind_qp");
	if (rc != 0)
		goto out;
	rc = dev->ops->counter_bind(dev, c, qp);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "counter_bind_qp: driver refused: %s", strerror(-rc));
		rdmadev_obj_drop_use(RDMADEV_OBJ(qp), RDMADEV_OBJ(c));
		pthread_mutex_unlock(&qp->lock);
		return rdmadev_fail(dev, rc, true);
	}
	qp->counter = c;
out:
	pthread_mutex_unlock(&qp->lock);
	return rdmadev_fail(dev, rc, false);
}

int
rdmadev_counter_unbind_qp(struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	struct rdmadev *dev;
	int rc;

	rc = rdmadev_counter_check(c, qp, RDMADEV_OP_OF(c, counter_unbind), "counter_unbind_qp");
	if (rc != 0)
		return rc;
	dev = c->obj.dev;
	pthread_mutex_lock(&qp->lock);
	if (qp->counter != c) {
		RDMADEV_LOG(ERR, "counter_unbind_qp: QP %u is not bound to counter %u",
			    rdmadev_qp_num(qp), rdmadev_obj_id(&c->obj));
		pthread_mutex_unlock(&qp->lock);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = dev->ops->counter_unbind(dev, c, qp);
	if (rc == 0) {
		qp->counter = NULL;
		rdmadev_obj_drop_use(RDMADEV_OBJ(qp), RDMADEV_OBJ(c));
	}
	pthread_mutex_unlock(&qp->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "counter_unbind_qp: driver refused: %s", strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}

int
rdmadev_counter_read(struct rdmadev_counter *c, struct rdmadev_xstat *xs, unsigned int n)
{
	if (!rdmadev_obj_check(RDMADEV_OBJ(c), RDMADEV_OBJ_COUNTER, "counter_read"))
		return -EINVAL;
	if (xs == NULL && n != 0) {
		RDMADEV_LOG(ERR, "counter_read: NULL array of %u", n);
		return rdmadev_fail(c->obj.dev, -EINVAL, false);
	}
	if (c->obj.dev->ops->counter_read == NULL) {
		RDMADEV_LOG(ERR, "counter_read: not supported by driver %s", c->obj.dev->drv->name);
		return rdmadev_fail(c->obj.dev, -ENOTSUP, false);
	}
	return c->obj.dev->ops->counter_read(c->obj.dev, c, xs, n);
}

int
rdmadev_comp_cntr_create(struct rdmadev_ctx *ctx, struct rdmadev_comp_cntr **out)
{
	struct rdmadev_comp_cntr *cc;
	int rc;

	cc = rdmadev_obj_new(ctx, RDMADEV_OBJ_COMP_CNTR, sizeof(*cc),
			     RDMADEV_OP_OF(ctx, comp_cntr_create), out, "comp_cntr_create", &rc);
	if (cc == NULL)
		return rc;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(cc),
				    ctx->obj.dev->ops->comp_cntr_create(ctx->obj.dev, cc));
	if (rc == 0)
		*out = cc;
	return rc;
}

int
rdmadev_comp_cntr_read(struct rdmadev_comp_cntr *cc, uint64_t *value)
{
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(cc), RDMADEV_OBJ_COMP_CNTR, "comp_cntr_read"))
		return -EINVAL;
	if (value == NULL) {
		RDMADEV_LOG(ERR, "comp_cntr_read: NULL value");
		return rdmadev_fail(cc->obj.dev, -EINVAL, false);
	}
	if (cc->obj.dev->ops->comp_cntr_read == NULL) {
		RDMADEV_LOG(ERR, "comp_cntr_read: not supported by driver %s",
			    cc->obj.dev->drv->name);
		return rdmadev_fail(cc->obj.dev, -ENOTSUP, false);
	}
	rc = cc->obj.dev->ops->comp_cntr_read(cc->obj.dev, cc, value);
	return rdmadev_fail(cc->obj.dev, rc, true);
}

int
rdmadev_comp_cntr_destroy(struct rdmadev_comp_cntr *cc)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(cc), RDMADEV_OBJ_COMP_CNTR,
				   RDMADEV_OP_OF(cc, comp_cntr_destroy), "comp_cntr_destroy");
}

int
rdmadev_dmah_alloc(struct rdmadev_ctx *ctx, const struct rdmadev_dmah_attr *attr,
		   struct rdmadev_dmah **out)
{
	struct rdmadev_dmah *d;
	int rc;

	if (attr == NULL || attr->cpu_id < -1 || attr->cpu_id >= CPU_SETSIZE ||
	    attr->numa_node < -1 || attr->numa_node >= RTE_MAX_NUMA_NODES || attr->ph > 3) {
		RDMADEV_LOG(ERR, "dmah_alloc: NULL attributes, or cpu %d / numa %d / ph %u out "
			    "of range", attr != NULL ? attr->cpu_id : 0,
			    attr != NULL ? attr->numa_node : 0, attr != NULL ? attr->ph : 0);
		return -EINVAL;
	}
	d = rdmadev_obj_new(ctx, RDMADEV_OBJ_DMAH, sizeof(*d), RDMADEV_OP_OF(ctx, dmah_alloc), out,
			    "dmah_alloc", &rc);
	if (d == NULL)
		return rc;
	d->attr = *attr;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(d),
				    ctx->obj.dev->ops->dmah_alloc(ctx->obj.dev, d, attr));
	if (rc == 0)
		*out = d;
	return rc;
}

int
rdmadev_dmah_free(struct rdmadev_dmah *d)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(d), RDMADEV_OBJ_DMAH, RDMADEV_OP_OF(d, dmah_free),
				   "dmah_free");
}
