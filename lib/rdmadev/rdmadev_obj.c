/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev objects: the common create/destroy path through restrack, use counts, and every
 * object but the QP and the CM_ID.
 *
 * Use counts: obj->users counts the objects that use obj (a PD's QPs, MRs, AHs, ...). A child
 * takes a use with a CAS loop that fails once the count is RDMADEV_USERS_DYING; a destroy
 * CASes the count from 0 to RDMADEV_USERS_DYING, so a destroy and a concurrent create of a
 * child never both succeed. A refused destroy puts the count back to 0.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_memory.h>

#include "rdmadev_private.h"



enum restrack_type
rdmadev_obj_restrack_type(enum rdmadev_obj_type type)
{
	static const enum restrack_type map[RDMADEV_OBJ_MAX] = {
		[RDMADEV_OBJ_CTX] = RESTRACK_CTX,
		[RDMADEV_OBJ_PD] = RESTRACK_PD,
		[RDMADEV_OBJ_CQ] = RESTRACK_CQ,
		[RDMADEV_OBJ_QP] = RESTRACK_QP,
		[RDMADEV_OBJ_MR] = RESTRACK_MR,
		[RDMADEV_OBJ_MW] = RESTRACK_MR,	/* windows share the STag index space */
		[RDMADEV_OBJ_AH] = RESTRACK_MAX,
		[RDMADEV_OBJ_SRQ] = RESTRACK_SRQ,
		[RDMADEV_OBJ_COUNTER] = RESTRACK_COUNTER,
		[RDMADEV_OBJ_COMP_CNTR] = RESTRACK_COMP_CNTR,
		[RDMADEV_OBJ_DMAH] = RESTRACK_DMAH,
		[RDMADEV_OBJ_CM_ID] = RESTRACK_CM_ID,
	};

	return (unsigned int)type < RDMADEV_OBJ_MAX ? map[type] : RESTRACK_MAX;
}

int32_t
rdmadev_obj_users(const struct rdmadev_obj *obj)
{
	/* relaxed: a snapshot for dumps and error messages */
	int32_t u = __atomic_load_n(&obj->users, __ATOMIC_RELAXED);

	return u < 0 ? 0 : u;
}

bool
rdmadev_obj_check(const struct rdmadev_obj *obj, enum rdmadev_obj_type type, const char *what)
{
	if (obj == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL %s", what, rdmadev_obj_type_name(type));
		return false;
	}
	if (obj->type != type || !obj->live) {
		RDMADEV_LOG(ERR, "%s: %p is not a live %s", what, (const void *)obj,
			    rdmadev_obj_type_name(type));
		return false;
	}
	return true;
}

/* The device must be started for any object operation. */
int
rdmadev_obj_dev_ready(struct rdmadev *dev, const char *what)
{
	uint32_t state = __atomic_load_n(&dev->state, __ATOMIC_ACQUIRE);

	if (state != RDMADEV_STATE_STARTED) {
		RDMADEV_LOG(ERR, "%s: %s is %s, not started", what, dev->name,
			    rdmadev_state_name(state));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	return 0;
}

int
rdmadev_obj_use(struct rdmadev_obj *obj, struct rdmadev_obj *used, const char *what)
{
	unsigned int slot;
	int32_t u;

	if (used->dev != obj->dev) {
		RDMADEV_LOG(ERR, "%s: %s %u belongs to device %s, not %s", what,
			    rdmadev_obj_type_name(used->type), rdmadev_obj_id(used),
			    used->dev->name, obj->dev->name);
		return -EINVAL;
	}
	if (used != RDMADEV_OBJ(obj->ctx) && used->ctx != obj->ctx) {
		RDMADEV_LOG(ERR, "%s: %s %u belongs to another context", what,
			    rdmadev_obj_type_name(used->type), rdmadev_obj_id(used));
		return -EINVAL;
	}
	for (slot = 0; slot < RTE_DIM(obj->uses) && obj->uses[slot] != NULL; slot++)
		;
	if (slot == RTE_DIM(obj->uses)) {
		RDMADEV_LOG(ERR, "%s: too many parents", what);
		return -EINVAL;
	}
	/* relaxed load, acq_rel CAS: the CAS orders the use against a concurrent destroy's
	 * CAS on the same word; no other memory is published through it */
	u = __atomic_load_n(&used->users, __ATOMIC_RELAXED);
	do {
		if (u < 0) {
			RDMADEV_LOG(ERR, "%s: %s %u is being destroyed", what,
				    rdmadev_obj_type_name(used->type), rdmadev_obj_id(used));
			return -EINVAL;
		}
	} while (!__atomic_compare_exchange_n(&used->users, &u, u + 1, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	obj->uses[slot] = used;
	return 0;
}

void
rdmadev_obj_unuse(struct rdmadev_obj *used)
{
	/* release: our last accesses to the child happen before the parent may be freed */
	__atomic_fetch_sub(&used->users, 1, __ATOMIC_RELEASE);
}

void
rdmadev_obj_drop_use(struct rdmadev_obj *obj, struct rdmadev_obj *used)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(obj->uses); i++) {
		if (obj->uses[i] == used) {
			obj->uses[i] = NULL;
			rdmadev_obj_unuse(used);
			return;
		}
	}
}

static void
rdmadev_obj_unuse_all(struct rdmadev_obj *obj)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(obj->uses); i++) {
		if (obj->uses[i] != NULL)
			rdmadev_obj_unuse(obj->uses[i]);
		obj->uses[i] = NULL;
	}
}

int
rdmadev_obj_begin_create(struct rdmadev *dev, struct rdmadev_obj *obj,
			 enum rdmadev_obj_type type, struct rdmadev_ctx *ctx)
{
	return rdmadev_obj_begin_create_id(dev, obj, type, ctx, RESTRACK_ID_ANY);
}

int
rdmadev_obj_begin_create_id(struct rdmadev *dev, struct rdmadev_obj *obj,
			    enum rdmadev_obj_type type, struct rdmadev_ctx *ctx, uint32_t id)
{
	enum restrack_type rt = rdmadev_obj_restrack_type(type);
	int rc;

	obj->fp.dev_id = (uint16_t)dev->dev_id;
	obj->type = (uint8_t)type;
	obj->dev = dev;
	obj->ctx = ctx;
	rc = restrack_new(&obj->res, rt == RESTRACK_MAX ? RESTRACK_PD : rt);
	if (rc == 0 && rt == RESTRACK_MAX)
		rc = restrack_no_track(&obj->res);
	if (rc == 0)
		rc = ctx == NULL ? restrack_attach_task(&obj->res, NULL) :
				   restrack_parent_name(&obj->res, &ctx->obj.res);
	if (rc == 0 && ctx != NULL)
		rc = rdmadev_obj_use(obj, RDMADEV_OBJ(ctx), rdmadev_obj_type_name(type));
	if (rc == 0 && rt != RESTRACK_MAX) {
		rc = restrack_claim(dev->res, &obj->res, id);
		if (rc != 0 && id == RESTRACK_ID_ANY)
			RDMADEV_LOG(ERR, "%s: no free %s ID: %s", dev->name,
				    restrack_type_name(rt), strerror(-rc));
		else if (rc != 0)
			RDMADEV_LOG(ERR, "%s: %s ID %u not available: %s", dev->name,
				    restrack_type_name(rt), id, strerror(-rc));
	}
	return rc;
}

/* Call the driver's destroy op of an object (close and failed adds). */
static int
rdmadev_obj_driver_destroy(struct rdmadev_obj *obj)
{
	struct rdmadev *dev = obj->dev;
	const struct rdmadev_ops *ops = dev->ops;
	void *o = obj;

	switch ((enum rdmadev_obj_type)obj->type) {
	case RDMADEV_OBJ_CTX:
		return ops->ctx_free != NULL ? ops->ctx_free(dev, o) : 0;
	case RDMADEV_OBJ_PD:
		return ops->pd_free != NULL ? ops->pd_free(dev, o) : 0;
	case RDMADEV_OBJ_CQ:
		return ops->cq_destroy != NULL ? ops->cq_destroy(dev, o) : 0;
	case RDMADEV_OBJ_QP:
		return ops->qp_destroy != NULL ? ops->qp_destroy(dev, o) : 0;
	case RDMADEV_OBJ_MR:
		return ops->mr_dereg != NULL ? ops->mr_dereg(dev, o) : 0;
	case RDMADEV_OBJ_MW:
		return ops->mw_free != NULL ? ops->mw_free(dev, o) : 0;
	case RDMADEV_OBJ_AH:
		return ops->ah_destroy != NULL ? ops->ah_destroy(dev, o) : 0;
	case RDMADEV_OBJ_SRQ:
		return ops->srq_destroy != NULL ? ops->srq_destroy(dev, o) : 0;
	case RDMADEV_OBJ_COUNTER:
		return ops->counter_free != NULL ? ops->counter_free(dev, o) : 0;
	case RDMADEV_OBJ_COMP_CNTR:
		return ops->comp_cntr_destroy != NULL ? ops->comp_cntr_destroy(dev, o) : 0;
	case RDMADEV_OBJ_DMAH:
		return ops->dmah_free != NULL ? ops->dmah_free(dev, o) : 0;
	case RDMADEV_OBJ_CM_ID:
		rdmadev_cm_release(o);	/* no driver op: the exchange is the library's */
		return 0;
	case RDMADEV_OBJ_MAX:
		break;
	}
	return 0;
}

static void
rdmadev_obj_list_del(struct rdmadev *dev, struct rdmadev_obj *obj)
{
	if (obj->prev != NULL)
		obj->prev->next = obj->next;
	else
		dev->objs = obj->next;
	if (obj->next != NULL)
		obj->next->prev = obj->prev;
	obj->prev = obj->next = NULL;
}

int
rdmadev_obj_end_create(struct rdmadev_obj *obj, int rc)
{
	struct rdmadev *dev = obj->dev;
	const char *name = rdmadev_obj_type_name(obj->type);

	bool driver = rc != 0;

	if (rc == 0) {
		rc = restrack_add(dev->res, &obj->res);
		if (rc != 0) {
			RDMADEV_LOG(ERR, "%s: cannot track %s: %s", dev->name, name,
				    strerror(-rc));
			rdmadev_obj_driver_destroy(obj);
		}
	} else {
		RDMADEV_LOG(ERR, "%s: driver refused to create %s: %s", dev->name, name,
			    strerror(-rc));
	}
	if (rc != 0) {
		/* a claimed ID is released; a new entry needs nothing */
		if (obj->res.state == RESTRACK_STATE_CLAIMED)
			restrack_del(&obj->res);
		rdmadev_obj_unuse_all(obj);
		rdmadev_fail(dev, rc, driver);
		free(obj);
		return rc;
	}
	obj->live = 1;
	pthread_mutex_lock(&dev->obj_lock);
	obj->next = dev->objs;
	if (dev->objs != NULL)
		dev->objs->prev = obj;
	dev->objs = obj;
	pthread_mutex_unlock(&dev->obj_lock);
	/* relaxed: statistics */
	__atomic_fetch_add(&dev->created[obj->type], 1, __ATOMIC_RELAXED);
	return 0;
}

/* Undo a begin_create that failed before the driver ran. */
int
rdmadev_obj_abort_create(struct rdmadev_obj *obj, int rc)
{
	if (obj->res.state == RESTRACK_STATE_CLAIMED)
		restrack_del(&obj->res);
	rdmadev_obj_unuse_all(obj);
	rdmadev_fail(obj->dev, rc, false);
	free(obj);
	return rc;
}

int
rdmadev_obj_begin_destroy(struct rdmadev_obj *obj, const char *what)
{
	struct rdmadev *dev = obj->dev;
	int32_t zero = 0;
	int rc;

	rc = rdmadev_obj_dev_ready(dev, what);
	if (rc != 0)
		return rc;
	/* acq_rel: pairs with the CAS of rdmadev_obj_use() and the release of unuse, so every
	 * child's accesses happen before we tear the object down */
	if (!__atomic_compare_exchange_n(&obj->users, &zero, RDMADEV_USERS_DYING, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		if (zero < 0)
			RDMADEV_LOG(ERR, "%s: %s %u is already being destroyed", what,
				    rdmadev_obj_type_name(obj->type), rdmadev_obj_id(obj));
		else
			RDMADEV_LOG(ERR, "%s: %s %u is in use by %d objects", what,
				    rdmadev_obj_type_name(obj->type), rdmadev_obj_id(obj), zero);
		return rdmadev_fail(dev, -EBUSY, false);
	}
	rc = restrack_begin_del(&obj->res);
	if (rc != 0) {
		__atomic_store_n(&obj->users, 0, __ATOMIC_RELEASE);
		RDMADEV_LOG(ERR, "%s: restrack refused: %s", what, strerror(-rc));
		return rdmadev_fail(dev, rc, false);
	}
	return 0;
}

int
rdmadev_obj_end_destroy(struct rdmadev_obj *obj, int rc)
{
	struct rdmadev *dev = obj->dev;

	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: driver refused to destroy %s %u: %s", dev->name,
			    rdmadev_obj_type_name(obj->type), rdmadev_obj_id(obj), strerror(-rc));
		restrack_abort_del(&obj->res);
		/* release: the object is usable again */
		__atomic_store_n(&obj->users, 0, __ATOMIC_RELEASE);
		return rdmadev_fail(dev, rc, true);
	}
	/*
	 * The hardware may still hold events for the object that its driver has not read (a
	 * QP's AE raised just before the destroy). Read them now, while the object is hidden
	 * and keeps its ID: they are dropped, and none can reach a new object that gets the ID
	 * (and perhaps the same driver memory, so that even the context check would pass).
	 */
	if (obj->type == RDMADEV_OBJ_QP || obj->type == RDMADEV_OBJ_CQ ||
	    obj->type == RDMADEV_OBJ_SRQ)
		rdmadev_event_drain(dev);
	/* begin_del drained every reporter: no event can name the object any more */
	rdmadev_event_purge(obj);
	restrack_commit_del(&obj->res);
	pthread_mutex_lock(&dev->obj_lock);
	rdmadev_obj_list_del(dev, obj);
	pthread_mutex_unlock(&dev->obj_lock);
	rdmadev_obj_unuse_all(obj);
	__atomic_fetch_add(&dev->destroyed[obj->type], 1, __ATOMIC_RELAXED);
	obj->live = 0;
	free(obj);
	return 0;
}

/* The whole destroy of an object whose driver op is @p op. */
int
rdmadev_obj_destroy(struct rdmadev_obj *obj, enum rdmadev_obj_type type, bool has_op,
		    const char *what)
{
	int rc;

	if (!rdmadev_obj_check(obj, type, what))
		return -EINVAL;
	if (!has_op) {
		RDMADEV_LOG(ERR, "%s: not supported by %s", what, obj->dev->drv->name);
		return rdmadev_fail(obj->dev, -ENOTSUP, false);
	}
	rc = rdmadev_obj_begin_destroy(obj, what);
	if (rc != 0)
		return rc;
	return rdmadev_obj_end_destroy(obj, rdmadev_obj_driver_destroy(obj));
}

unsigned int
rdmadev_obj_release_all(struct rdmadev *dev)
{
	struct rdmadev_obj *obj;
	unsigned int untracked = 0;

	/* newest first: children go before the objects they use */
	while ((obj = dev->objs) != NULL) {
		dev->objs = obj->next;
		if (rdmadev_obj_restrack_type(obj->type) == RESTRACK_MAX) {
			untracked++;
			RDMADEV_LOG(WARNING, "%s: leaked %s (no restrack type) released",
				    dev->name, rdmadev_obj_type_name(obj->type));
		}
		rdmadev_obj_driver_destroy(obj);
		obj->live = 0;
		free(obj);
	}
	return untracked;
}

/* Common start of a create: check the output pointer, the context, the device state and the
 * driver op; allocate the handle and run begin_create. */
void *
rdmadev_obj_new(struct rdmadev_ctx *ctx, enum rdmadev_obj_type type, size_t size,
		bool has_op, void *out, const char *what, int *rc)
{
	return rdmadev_obj_new_id(ctx, type, size, has_op, out, what, RESTRACK_ID_ANY, rc);
}

void *
rdmadev_obj_new_id(struct rdmadev_ctx *ctx, enum rdmadev_obj_type type, size_t size,
		   bool has_op, void *out, const char *what, uint32_t id, int *rc)
{
	struct rdmadev_obj *obj;
	struct rdmadev *dev;

	*rc = -EINVAL;
	if (out == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL output pointer", what);
		return NULL;
	}
	if (!rdmadev_obj_check(RDMADEV_OBJ(ctx), RDMADEV_OBJ_CTX, what))
		return NULL;
	dev = ctx->obj.dev;
	*rc = rdmadev_obj_dev_ready(dev, what);
	if (*rc != 0)
		return NULL;
	if (!has_op) {
		RDMADEV_LOG(ERR, "%s: not supported by driver %s", what, dev->drv->name);
		*rc = rdmadev_fail(dev, -ENOTSUP, false);
		return NULL;
	}
	obj = calloc(1, size);
	if (obj == NULL) {
		*rc = rdmadev_fail(dev, -ENOMEM, false);
		return NULL;
	}
	*rc = rdmadev_obj_begin_create_id(dev, obj, type, ctx, id);
	if (*rc != 0) {
		rdmadev_obj_abort_create(obj, *rc);
		return NULL;
	}
	return obj;
}

/* Take a use on an optional parent of a half-created object; on failure the object is
 * released and NULL-ness reported through the return code. */
int
rdmadev_obj_use_opt(struct rdmadev_obj *obj, struct rdmadev_obj *used,
		    enum rdmadev_obj_type type, const char *what)
{
	int rc;

	if (used == NULL)
		return 0;
	if (!rdmadev_obj_check(used, type, what))
		return rdmadev_obj_abort_create(obj, -EINVAL);
	rc = rdmadev_obj_use(obj, used, what);
	if (rc != 0)
		return rdmadev_obj_abort_create(obj, rc);
	return 0;
}

/* ---- CTX ---- */

int
rdmadev_ctx_alloc(int16_t dev_id, struct rdmadev_ctx **out)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, "ctx_alloc");
	struct rdmadev_ctx *ctx;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (out == NULL) {
		RDMADEV_LOG(ERR, "ctx_alloc: NULL output pointer");
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = rdmadev_obj_dev_ready(dev, "ctx_alloc");
	if (rc != 0)
		return rc;
	if (dev->ops->ctx_alloc == NULL) {
		RDMADEV_LOG(ERR, "ctx_alloc: not supported by driver %s", dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL)
		return rdmadev_fail(dev, -ENOMEM, false);
	rc = rdmadev_obj_begin_create(dev, RDMADEV_OBJ(ctx), RDMADEV_OBJ_CTX, NULL);
	if (rc != 0)
		return rdmadev_obj_abort_create(RDMADEV_OBJ(ctx), rc);
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(ctx), dev->ops->ctx_alloc(dev, ctx));
	if (rc == 0)
		*out = ctx;
	return rc;
}

int
rdmadev_ctx_free(struct rdmadev_ctx *ctx)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(ctx), RDMADEV_OBJ_CTX, RDMADEV_OP_OF(ctx, ctx_free),
				   "ctx_free");
}

void *
rdmadev_ctx_doorbell(const struct rdmadev_ctx *ctx)
{
	return ctx != NULL ? ctx->doorbell : NULL;
}

uint32_t
rdmadev_ctx_id(const struct rdmadev_ctx *ctx)
{
	return ctx != NULL ? rdmadev_obj_id(&ctx->obj) : UINT32_MAX;
}

/* ---- PD ---- */

int
rdmadev_pd_alloc(struct rdmadev_ctx *ctx, struct rdmadev_pd **out)
{
	struct rdmadev_pd *pd;
	int rc;

	pd = rdmadev_obj_new(ctx, RDMADEV_OBJ_PD, sizeof(*pd), RDMADEV_OP_OF(ctx, pd_alloc), out,
			     "pd_alloc", &rc);
	if (pd == NULL)
		return rc;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(pd), ctx->obj.dev->ops->pd_alloc(ctx->obj.dev, pd));
	if (rc == 0)
		*out = pd;
	return rc;
}

int
rdmadev_pd_free(struct rdmadev_pd *pd)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(pd), RDMADEV_OBJ_PD, RDMADEV_OP_OF(pd, pd_free),
				   "pd_free");
}

uint32_t
rdmadev_pd_id(const struct rdmadev_pd *pd)
{
	return pd != NULL ? rdmadev_obj_id(&pd->obj) : UINT32_MAX;
}

/* ---- CQ ---- */

int
rdmadev_cq_create(struct rdmadev_ctx *ctx, const struct rdmadev_cq_attr *attr,
		  struct rdmadev_cq **out)
{
	const struct rdmadev_info *info;
	struct rdmadev_cq *cq;
	struct rdmadev *dev;
	int rc;

	if (attr == NULL || !rdmadev_obj_check(RDMADEV_OBJ(ctx), RDMADEV_OBJ_CTX, "cq_create")) {
		RDMADEV_LOG(ERR, "cq_create: NULL attributes or bad context");
		return -EINVAL;
	}
	dev = ctx->obj.dev;
	info = &dev->info;
	if (attr->cqe < RTE_MAX(info->min_cqe, 1u) || attr->cqe > info->max_cqe) {
		RDMADEV_LOG(ERR, "cq_create: %u entries, device allows %u..%u", attr->cqe,
			    RTE_MAX(info->min_cqe, 1u), info->max_cqe);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (attr->comp_vector >= dev->conf.nb_comp_vectors) {
		RDMADEV_LOG(ERR, "cq_create: completion vector %u, %u configured",
			    attr->comp_vector, dev->conf.nb_comp_vectors);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (rdmadev_channel_check(dev, attr->channel) != 0)
		return rdmadev_fail(dev, -EINVAL, false);
	cq = rdmadev_obj_new(ctx, RDMADEV_OBJ_CQ, sizeof(*cq), dev->ops->cq_create != NULL, out,
			     "cq_create", &rc);
	if (cq == NULL)
		return rc;
	rc = rdmadev_obj_use_opt(RDMADEV_OBJ(cq), RDMADEV_OBJ(attr->comp_cntr),
				 RDMADEV_OBJ_COMP_CNTR, "cq_create");
	if (rc != 0)
		return rc;
	cq->cqe = attr->cqe;
	cq->comp_vector = attr->comp_vector;
	cq->comp_cntr = attr->comp_cntr;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(cq), dev->ops->cq_create(dev, cq, attr));
	if (rc == 0) {
		rdmadev_channel_attach(cq, attr->channel, attr->cq_context);
		*out = cq;
	}
	return rc;
}

int
rdmadev_cq_resize(struct rdmadev_cq *cq, uint32_t cqe)
{
	struct rdmadev *dev;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(cq), RDMADEV_OBJ_CQ, "cq_resize"))
		return -EINVAL;
	dev = cq->obj.dev;
	rc = rdmadev_obj_dev_ready(dev, "cq_resize");
	if (rc != 0)
		return rc;
	if (!(dev->info.capa & RDMADEV_CAPA_CQ_RESIZE) || dev->ops->cq_resize == NULL) {
		RDMADEV_LOG(ERR, "cq_resize: %s cannot resize CQs", dev->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	if (cqe < RTE_MAX(dev->info.min_cqe, 1u) || cqe > dev->info.max_cqe) {
		RDMADEV_LOG(ERR, "cq_resize: CQ %u to %u entries, device allows %u..%u",
			    rdmadev_cq_id(cq), cqe, RTE_MAX(dev->info.min_cqe, 1u),
			    dev->info.max_cqe);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = dev->ops->cq_resize(dev, cq, cqe);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "cq_resize: driver refused CQ %u to %u: %s", rdmadev_cq_id(cq),
			    cqe, strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}

int
rdmadev_cq_destroy(struct rdmadev_cq *cq)
{
	struct rdmadev_comp_channel *ch;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(cq), RDMADEV_OBJ_CQ, "cq_destroy"))
		return -EINVAL;
	ch = cq->channel;
	rc = rdmadev_channel_detach_begin(cq);
	if (rc != 0)
		return rdmadev_fail(cq->obj.dev, rc, false);
	rc = rdmadev_obj_destroy(RDMADEV_OBJ(cq), RDMADEV_OBJ_CQ, RDMADEV_OP_OF(cq, cq_destroy),
				 "cq_destroy");
	rdmadev_channel_detach_end(ch, cq, rc == 0);
	return rc;
}

uint32_t
rdmadev_cq_size(const struct rdmadev_cq *cq)
{
	return cq != NULL ? cq->cqe : 0;
}

uint32_t
rdmadev_cq_id(const struct rdmadev_cq *cq)
{
	return cq != NULL ? rdmadev_obj_id(&cq->obj) : UINT32_MAX;
}

