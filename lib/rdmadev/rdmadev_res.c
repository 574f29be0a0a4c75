/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* Resource dumps: the restrack fill callbacks that give every object the attributes of
 * `rdma resource show`, in iproute2's order, and the FILE dump built on them. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>

#include "rdmadev_private.h"

static struct rdmadev_obj *
rec_obj(const struct restrack_dump_rec *rec)
{
	return container_of(rec->entry, struct rdmadev_obj, res);
}

/* Driver attributes go last. */
static int
fill_driver(struct rdmadev_obj *obj, struct restrack_dump_rec *rec)
{
	if (obj->dev->ops->res_fill != NULL)
		return obj->dev->ops->res_fill(obj->dev, obj, rec);
	return 0;
}

static int
fill_qp(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_qp *qp = (struct rdmadev_qp *)(void *)rec_obj(rec);
	struct rdmadev_qp_attr a;
	uint32_t set;

	RTE_SET_USED(arg);
	pthread_mutex_lock(&qp->lock);
	a = qp->attr;
	set = qp->attr_set;
	a.qp_state = __atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&qp->lock);
	rec->port = (set & RDMADEV_QP_PORT) ? a.port_num : 0;
	restrack_dump_attr(rec, "lqpn", "%u", rdmadev_obj_id(&qp->obj));
	if (qp->init.qp_type == RDMADEV_QPT_RC && (set & RDMADEV_QP_DEST_QPN))
		restrack_dump_attr(rec, "rqpn", "%u", a.dest_qp_num);
	restrack_dump_attr(rec, "type", "%s", rdmadev_qp_type_name(qp->init.qp_type));
	restrack_dump_attr(rec, "state", "%s", rdmadev_qp_state_name(a.qp_state));
	if (qp->init.qp_type == RDMADEV_QPT_RC && (set & RDMADEV_QP_RQ_PSN))
		restrack_dump_attr(rec, "rq-psn", "%u", a.rq_psn);
	restrack_dump_attr(rec, "sq-psn", "%u", a.sq_psn);
	if (qp->init.qp_type == RDMADEV_QPT_RC)
		restrack_dump_attr(rec, "path-mig-state", "%s",
				   a.path_mig_state == 0 ? "MIGRATED" :
				   a.path_mig_state == 1 ? "REARM" : "ARMED");
	restrack_dump_attr(rec, "pdn", "%u", rdmadev_obj_id(&qp->init.pd->obj));
	return fill_driver(&qp->obj, rec);
}

static int
fill_cq(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_cq *cq = (struct rdmadev_cq *)(void *)rec_obj(rec);

	RTE_SET_USED(arg);
	restrack_dump_attr(rec, "cqn", "%u", rdmadev_obj_id(&cq->obj));
	restrack_dump_attr(rec, "cqe", "%u", cq->cqe);
	restrack_dump_attr(rec, "users", "%d", rdmadev_obj_users(&cq->obj));
	restrack_dump_attr(rec, "poll-ctx", "DIRECT");
	restrack_dump_attr(rec, "ctxn", "%u", rdmadev_obj_id(&cq->obj.ctx->obj));
	return fill_driver(&cq->obj, rec);
}

static int
fill_mr(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_obj *obj = rec_obj(rec);

	RTE_SET_USED(arg);
	restrack_dump_attr(rec, "mrn", "%u", rdmadev_obj_id(obj));
	if (obj->type == RDMADEV_OBJ_MW) {
		const struct rdmadev_mw *mw = (const void *)obj;

		restrack_dump_attr(rec, "rkey", "0x%x", mw->rkey);
		restrack_dump_attr(rec, "mrlen", "0");
		restrack_dump_attr(rec, "pdn", "%u", rdmadev_obj_id(&mw->pd->obj));
		restrack_dump_attr(rec, "type", "mw");
	} else {
		const struct rdmadev_mr *mr = (const void *)obj;

		restrack_dump_attr(rec, "rkey", "0x%x", mr->rkey);
		restrack_dump_attr(rec, "lkey", "0x%x", mr->lkey);
		restrack_dump_attr(rec, "iova", "0x%" PRIx64, mr->iova);
		restrack_dump_attr(rec, "mrlen", "%" PRIu64, mr->length);
		restrack_dump_attr(rec, "pdn", "%u", rdmadev_obj_id(&mr->pd->obj));
	}
	return fill_driver(obj, rec);
}

static int
fill_pd(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_obj *obj = rec_obj(rec);

	RTE_SET_USED(arg);
	restrack_dump_attr(rec, "pdn", "%u", rdmadev_obj_id(obj));
	restrack_dump_attr(rec, "users", "%d", rdmadev_obj_users(obj));
	restrack_dump_attr(rec, "ctxn", "%u", rdmadev_obj_id(&obj->ctx->obj));
	return fill_driver(obj, rec);
}

static int
fill_ctx(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_obj *obj = rec_obj(rec);

	RTE_SET_USED(arg);
	restrack_dump_attr(rec, "ctxn", "%u", rdmadev_obj_id(obj));
	restrack_dump_attr(rec, "users", "%d", rdmadev_obj_users(obj));
	return fill_driver(obj, rec);
}

static int
fill_srq(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_srq *srq = (struct rdmadev_srq *)(void *)rec_obj(rec);

	RTE_SET_USED(arg);
	restrack_dump_attr(rec, "srqn", "%u", rdmadev_obj_id(&srq->obj));
	restrack_dump_attr(rec, "type", "BASIC");
	restrack_dump_attr(rec, "users", "%d", rdmadev_obj_users(&srq->obj));
	restrack_dump_attr(rec, "pdn", "%u", rdmadev_obj_id(&srq->pd->obj));
	return fill_driver(&srq->obj, rec);
}

/* COUNTER, COMP_CNTR, DMAH, CM_ID: the ID under its name, the users and the context. */
static int
fill_other(struct restrack_dump_rec *rec, void *arg)
{
	struct rdmadev_obj *obj = rec_obj(rec);
	const char *idname = arg;

	restrack_dump_attr(rec, idname, "%u", rdmadev_obj_id(obj));
	if (obj->type == RDMADEV_OBJ_DMAH) {
		const struct rdmadev_dmah *d = (const void *)obj;

		restrack_dump_attr(rec, "cpu", "%d", d->attr.cpu_id);
		restrack_dump_attr(rec, "numa", "%d", d->attr.numa_node);
	} else if (obj->type == RDMADEV_OBJ_CM_ID && ((const struct rdmadev_cm_id *)obj)->rcm) {
		const struct rdmadev_cm_id *cm = (const void *)obj;

		/* iproute2's `rdma res show cm_id` columns */
		restrack_dump_attr(rec, "state", "%s", cm->rcm_state);
		restrack_dump_attr(rec, "ps", "%s", cm->rcm_ps[0] != '\0' ? cm->rcm_ps : "TCP");
		if (cm->qpn != 0)
			restrack_dump_attr(rec, "qpn", "%u", cm->qpn);
		restrack_dump_attr(rec, "src-addr", "%s", cm->src_addr);
		if (cm->dst_addr[0] != '\0')
			restrack_dump_attr(rec, "dst-addr", "%s", cm->dst_addr);
	} else if (obj->type == RDMADEV_OBJ_CM_ID) {
		const struct rdmadev_cm_id *cm = (const void *)obj;

		restrack_dump_attr(rec, "state", "%s", cm->state == 1 ? "LISTEN" :
				   cm->state == 2 ? "CONNECTED" : "IDLE");
		restrack_dump_attr(rec, "src-port", "%u", cm->port);
	} else {
		restrack_dump_attr(rec, "users", "%d", rdmadev_obj_users(obj));
	}
	restrack_dump_attr(rec, "ctxn", "%u", rdmadev_obj_id(&obj->ctx->obj));
	return fill_driver(obj, rec);
}

int
rdmadev_res_register_fills(struct rdmadev *dev)
{
	static char counter_name[] = "counter";
	static char cntr_name[] = "comp-cntrn";
	static char dmah_name[] = "dmahn";
	static char cm_name[] = "cm-idn";
	int rc = 0;

	rc |= restrack_set_fill(dev->res, RESTRACK_QP, fill_qp, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_CQ, fill_cq, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_MR, fill_mr, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_PD, fill_pd, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_CTX, fill_ctx, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_SRQ, fill_srq, dev);
	rc |= restrack_set_fill(dev->res, RESTRACK_COUNTER, fill_other, counter_name);
	rc |= restrack_set_fill(dev->res, RESTRACK_COMP_CNTR, fill_other, cntr_name);
	rc |= restrack_set_fill(dev->res, RESTRACK_DMAH, fill_other, dmah_name);
	rc |= restrack_set_fill(dev->res, RESTRACK_CM_ID, fill_other, cm_name);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: cannot register the dump callbacks", dev->name);
		return -EINVAL;
	}
	return 0;
}

static int
emit_line(const struct restrack_dump_rec *rec, void *arg)
{
	char line[512];

	restrack_format(rec, line, sizeof(line));
	fprintf(arg, "%s\n", line);
	return 0;
}

static int
res_dump_locked(struct rdmadev *dev, int restrack_type, FILE *f)
{
	char line[256];
	int t, rc;

	if (restrack_type != RESTRACK_MAX)
		return restrack_dump(dev->res, restrack_type, NULL, emit_line, f);
	restrack_summary(dev->res, line, sizeof(line));
	fprintf(f, "%d: %s\n", dev->dev_id, line);
	for (t = 0; t < RESTRACK_MAX; t++) {
		rc = restrack_dump(dev->res, t, NULL, emit_line, f);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
rdmadev_res_dump(int16_t dev_id, int restrack_type, FILE *f)
{
	struct rdmadev *dev;
	int rc;

	if (f == NULL || restrack_type < 0 || restrack_type > RESTRACK_MAX) {
		RDMADEV_LOG(ERR, "res_dump: NULL FILE or bad type %d", restrack_type);
		return -EINVAL;
	}
	dev = rdmadev_ctl_enter(dev_id, "res_dump");
	if (dev == NULL)
		return -EINVAL;
	rc = res_dump_locked(dev, restrack_type, f);
	rdmadev_ctl_leave(dev);
	return rc;
}
