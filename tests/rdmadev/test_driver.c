/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* The software test driver: every rdmadev op in memory, with fault injection. */

#include "test_driver.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_common.h>

static uint32_t td_fail_count[TD_OP_MAX];
static uint32_t td_fail_one_in;
static uint64_t td_call_count[TD_OP_MAX];
static int64_t td_live;
static uint16_t td_ready;
static uint64_t td_sent, td_recvd;
static uint32_t td_next_ah = 1;

void
td_fail_next(enum td_op op, uint32_t count)
{
	__atomic_store_n(&td_fail_count[op], count, __ATOMIC_RELAXED);
}

void
td_fail_rate(uint32_t one_in)
{
	__atomic_store_n(&td_fail_one_in, one_in, __ATOMIC_RELAXED);
}

uint64_t
td_calls(enum td_op op)
{
	return __atomic_load_n(&td_call_count[op], __ATOMIC_RELAXED);
}

int64_t
td_live_objects(void)
{
	return __atomic_load_n(&td_live, __ATOMIC_RELAXED);
}

void
td_cq_ready(uint16_t n)
{
	__atomic_store_n(&td_ready, n, __ATOMIC_RELAXED);
}

uint64_t
td_posted_send(void)
{
	return __atomic_load_n(&td_sent, __ATOMIC_RELAXED);
}

uint64_t
td_posted_recv(void)
{
	return __atomic_load_n(&td_recvd, __ATOMIC_RELAXED);
}

void
td_reset(void)
{
	unsigned int i;

	for (i = 0; i < TD_OP_MAX; i++) {
		__atomic_store_n(&td_fail_count[i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&td_call_count[i], 0, __ATOMIC_RELAXED);
	}
	td_fail_rate(0);
	td_cq_ready(0);
}

/* Count the call and decide whether it fails. */
static int
td_enter(enum td_op op)
{
	static __thread uint64_t seed;
	uint32_t n, one_in;

	__atomic_fetch_add(&td_call_count[op], 1, __ATOMIC_RELAXED);
	n = __atomic_load_n(&td_fail_count[op], __ATOMIC_RELAXED);
	while (n > 0) {
		if (__atomic_compare_exchange_n(&td_fail_count[op], &n, n - 1, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return -EIO;
	}
	one_in = __atomic_load_n(&td_fail_one_in, __ATOMIC_RELAXED);
	if (one_in != 0) {
		if (seed == 0)
			seed = (uint64_t)(uintptr_t)&seed | 1;
		seed ^= seed >> 12;
		seed ^= seed << 25;
		seed ^= seed >> 27;
		if ((seed * UINT64_C(0x2545F4914F6CDD1D)) % one_in == 0)
			return -EIO;
	}
	return 0;
}

/* Driver object of a QP or CQ: what the fast path receives. */
struct td_queue {
	uint32_t magic;
	uint32_t id;
};

#define TD_QP_MAGIC 0x71707170u
#define TD_CQ_MAGIC 0x63716371u

/* A "hardware" event raised by td_event_raise(), reported by the event_process op. */
struct td_hw_event {
	enum rdmadev_event_type type;
	enum rdmadev_obj_type obj_type;
	uint32_t id;
	uint32_t code;
};

#define TD_HW_EVENTS 64

struct td_dev {
	uint8_t gen;
	uint32_t max_qp;
	pthread_mutex_t ev_lock;
	struct td_hw_event ev[TD_HW_EVENTS];
	unsigned int nb_ev;
	int irq_fd;		/* the "interrupt": written by td_event_raise */
	uint64_t processed;	/* event_process calls */
};

static int
td_created(int rc)
{
	if (rc == 0)
		__atomic_fetch_add(&td_live, 1, __ATOMIC_RELAXED);
	return rc;
}

static int
td_destroyed(int rc)
{
	if (rc == 0)
		__atomic_fetch_sub(&td_live, 1, __ATOMIC_RELAXED);
	return rc;
}

/* ---- fast path ---- */

static uint16_t
td_post_send(void *qp, const struct rdmadev_send_wr *wrs, uint16_t n, int *err)
{
	const struct td_queue *q = qp;
	uint16_t i;

	*err = 0;
	if (q->magic != TD_QP_MAGIC) {
		*err = -EINVAL;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (wrs[i].opcode >= RDMADEV_WR_OPCODE_MAX) {
			*err = -EINVAL;
			break;
		}
	}
	__atomic_fetch_add(&td_sent, i, __ATOMIC_RELAXED);
	return i;
}

static uint16_t
td_post_recv(void *qp, const struct rdmadev_recv_wr *wrs, uint16_t n, int *err)
{
	const struct td_queue *q = qp;

	RTE_SET_USED(wrs);
	*err = q->magic == TD_QP_MAGIC ? 0 : -EINVAL;
	if (*err != 0)
		return 0;
	__atomic_fetch_add(&td_recvd, n, __ATOMIC_RELAXED);
	return n;
}

static uint16_t
td_poll_cq(void *cq, struct rdmadev_wc *wcs, uint16_t n)
{
	const struct td_queue *q = cq;
	uint16_t i, ready;

	if (q->magic != TD_CQ_MAGIC)
		return 0;
	ready = __atomic_exchange_n(&td_ready, 0, __ATOMIC_RELAXED);
	ready = RTE_MIN(ready, n);
	for (i = 0; i < ready; i++) {
		memset(&wcs[i], 0, sizeof(wcs[i]));
		wcs[i].wr_id = i + 1;
		wcs[i].status = RDMADEV_WC_SUCCESS;
		wcs[i].opcode = RDMADEV_WC_SEND;
		wcs[i].qp_num = q->id;
	}
	return ready;
}

/* ---- device ---- */

static int
td_info_get(struct rdmadev *dev, struct rdmadev_info *in)
{
	const struct td_dev *td = dev->dev_private;

	memset(in, 0, sizeof(*in));
	in->hw_gen = td->gen;
	in->numa_node = -1;
	in->capa = RDMADEV_CAPA_RTS_AE | RDMADEV_CAPA_CQ_RESIZE;
	in->page_size_cap = RDMADEV_PAGE_4K | RDMADEV_PAGE_2M | RDMADEV_PAGE_1G;
	in->max_mr_size = UINT64_C(0x200000000000);
	in->max_msg_size = 2147483647u;
	in->max_ctx = 256;
	in->max_qp = td->max_qp;
	in->max_qp_wr = 4063;
	in->max_sge = 13;
	in->max_sge_rd = 13;
	in->max_inline = 101;
	in->max_cq = 1024;
	in->min_cqe = 1;
	in->max_cqe = 1048574;
	in->max_mr = 4096;
	in->max_pd = 1024;
	in->max_ah = 1024;
	in->max_fast_reg_pages = 512;
	in->max_qp_rd_atom = 127;
	in->max_qp_init_rd_atom = 255;
	in->max_counters = 128;
	in->max_comp_cntr = 64;
	in->max_dmah = 64;
	in->max_comp_vectors = 4;
	in->max_pkeys = 1;
	in->nb_ports = 1;
	if (td->gen >= 3) {
		in->capa |= RDMADEV_CAPA_CQE_64B | RDMADEV_CAPA_ATOMICS | RDMADEV_CAPA_SRQ |
			    RDMADEV_CAPA_CQE_TIMESTAMP | RDMADEV_CAPA_MW;
		in->max_srq = 1024;
		in->max_srq_wr = 4063;
		in->max_mw = 4096;
	}
	return 0;
}

static int
td_configure(struct rdmadev *dev, const struct rdmadev_conf *conf)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(conf);
	return td_enter(TD_CONFIGURE);
}

static int
td_start(struct rdmadev *dev)
{
	RTE_SET_USED(dev);
	return td_enter(TD_START);
}

static int
td_stop(struct rdmadev *dev)
{
	RTE_SET_USED(dev);
	return td_enter(TD_STOP);
}

static int
td_close(struct rdmadev *dev)
{
	struct td_dev *td = dev->dev_private;

	close(td->irq_fd);
	pthread_mutex_destroy(&td->ev_lock);
	free(dev->dev_private);
	dev->dev_private = NULL;
	return 0;
}

static int
td_xstats_get(struct rdmadev *dev, struct rdmadev_xstat *xs, unsigned int n)
{
	RTE_SET_USED(dev);
	if (n > 0) {
		snprintf(xs[0].name, sizeof(xs[0].name), "cqpCommands");
		xs[0].value = td_calls(TD_QP_CREATE) + td_calls(TD_QP_MODIFY);
	}
	if (n > 1) {
		snprintf(xs[1].name, sizeof(xs[1].name), "ip4InReceives");
		xs[1].value = 0;
	}
	return 2;
}

/* ---- objects ---- */

static int
td_ctx_alloc(struct rdmadev *dev, struct rdmadev_ctx *ctx)
{
	int rc = td_enter(TD_CTX_ALLOC);

	RTE_SET_USED(dev);
	if (rc != 0)
		return rc;
	ctx->doorbell = calloc(1, 4096);
	return td_created(ctx->doorbell != NULL ? 0 : -ENOMEM);
}

static int
td_ctx_free(struct rdmadev *dev, struct rdmadev_ctx *ctx)
{
	int rc = td_enter(TD_CTX_FREE);

	RTE_SET_USED(dev);
	if (rc == 0) {
		free(ctx->doorbell);
		ctx->doorbell = NULL;
	}
	return td_destroyed(rc);
}

#define TD_SIMPLE(fn, op, T)				\
	static int					\
	fn(struct rdmadev *dev, T *obj)			\
	{						\
		RTE_SET_USED(dev);			\
		RTE_SET_USED(obj);			\
		return td_created(td_enter(op));	\
	}
#define TD_SIMPLE_DEL(fn, op, T)			\
	static int					\
	fn(struct rdmadev *dev, T *obj)			\
	{						\
		RTE_SET_USED(dev);			\
		RTE_SET_USED(obj);			\
		return td_destroyed(td_enter(op));	\
	}

TD_SIMPLE(td_pd_alloc, TD_PD_ALLOC, struct rdmadev_pd)
TD_SIMPLE_DEL(td_pd_free, TD_PD_FREE, struct rdmadev_pd)
TD_SIMPLE_DEL(td_ah_destroy, TD_AH_DESTROY, struct rdmadev_ah)
TD_SIMPLE_DEL(td_mw_free, TD_MW_FREE, struct rdmadev_mw)
TD_SIMPLE_DEL(td_srq_destroy, TD_SRQ_DESTROY, struct rdmadev_srq)
TD_SIMPLE(td_counter_alloc, TD_COUNTER_ALLOC, struct rdmadev_counter)
TD_SIMPLE_DEL(td_counter_free, TD_COUNTER_FREE, struct rdmadev_counter)
TD_SIMPLE(td_comp_cntr_create, TD_COMP_CNTR_CREATE, struct rdmadev_comp_cntr)
TD_SIMPLE_DEL(td_comp_cntr_destroy, TD_COMP_CNTR_DESTROY, struct rdmadev_comp_cntr)
TD_SIMPLE_DEL(td_dmah_free, TD_DMAH_FREE, struct rdmadev_dmah)
TD_SIMPLE_DEL(td_mr_dereg, TD_MR_DEREG, struct rdmadev_mr)

static struct td_queue *
td_queue_new(uint32_t magic, uint32_t id)
{
	struct td_queue *q = malloc(sizeof(*q));

	if (q != NULL) {
		q->magic = magic;
		q->id = id;
	}
	return q;
}

static int
td_queue_free(struct rdmadev_obj *obj, enum td_op op)
{
	int rc = td_enter(op);

	if (rc == 0) {
		free(obj->fp.drv);
		obj->fp.drv = NULL;
	}
	return td_destroyed(rc);
}

static int
td_cq_create(struct rdmadev *dev, struct rdmadev_cq *cq, const struct rdmadev_cq_attr *attr)
{
	int rc = td_enter(TD_CQ_CREATE);

	RTE_SET_USED(dev);
	if (rc != 0)
		return rc;
	/* irdma's rounding: a ring of (cqe + 1) * 2 entries, at least 4, reported back */
	cq->cqe = RTE_MAX((attr->cqe + 1) * 2, 4u) - 1;
	if (cq->cqe > 1048574)
		cq->cqe = 1048574;
	cq->obj.fp.drv = td_queue_new(TD_CQ_MAGIC, rdmadev_obj_id(&cq->obj));
	return td_created(cq->obj.fp.drv != NULL ? 0 : -ENOMEM);
}

static int
td_cq_resize(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t cqe)
{
	int rc = td_enter(TD_CQ_RESIZE);

	RTE_SET_USED(dev);
	if (rc == 0)
		cq->cqe = cqe;
	return rc;
}

static int
td_cq_destroy(struct rdmadev *dev, struct rdmadev_cq *cq)
{
	RTE_SET_USED(dev);
	return td_queue_free(&cq->obj, TD_CQ_DESTROY);
}

static int
td_qp_create(struct rdmadev *dev, struct rdmadev_qp *qp, const struct rdmadev_qp_init_attr *a)
{
	int rc = td_enter(TD_QP_CREATE);

	RTE_SET_USED(dev);
	RTE_SET_USED(a);
	if (rc != 0)
		return rc;
	if (qp->init.cap.max_send_wr < 8)
		qp->init.cap.max_send_wr = 8;	/* ICRDMA_MIN_WQ_SIZE */
	qp->obj.fp.drv = td_queue_new(TD_QP_MAGIC, rdmadev_obj_id(&qp->obj));
	return td_created(qp->obj.fp.drv != NULL ? 0 : -ENOMEM);
}

static int
td_qp_modify(struct rdmadev *dev, struct rdmadev_qp *qp, const struct rdmadev_qp_attr *attr,
	     uint32_t mask)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(qp);
	RTE_SET_USED(attr);
	RTE_SET_USED(mask);
	return td_enter(TD_QP_MODIFY);
}

static int
td_qp_destroy(struct rdmadev *dev, struct rdmadev_qp *qp)
{
	RTE_SET_USED(dev);
	return td_queue_free(&qp->obj, TD_QP_DESTROY);
}

static int
td_mr_reg(struct rdmadev *dev, struct rdmadev_mr *mr, const struct rdmadev_mr_attr *attr)
{
	int rc = td_enter(TD_MR_REG);
	uint32_t idx = rdmadev_obj_id(&mr->obj);

	RTE_SET_USED(dev);
	RTE_SET_USED(attr);
	if (rc != 0)
		return rc;
	mr->lkey = idx << 8 | (idx & 0xff);	/* stag = index << 8 | key */
	mr->rkey = mr->lkey;
	return td_created(0);
}

static int
td_ah_create(struct rdmadev *dev, struct rdmadev_ah *ah, const struct rdmadev_ah_attr *attr)
{
	int rc = td_enter(TD_AH_CREATE);

	RTE_SET_USED(dev);
	RTE_SET_USED(attr);
	if (rc == 0)
		ah->ah_id = __atomic_fetch_add(&td_next_ah, 1, __ATOMIC_RELAXED);
	return td_created(rc);
}

static int
td_mw_alloc(struct rdmadev *dev, struct rdmadev_mw *mw)
{
	int rc = td_enter(TD_MW_ALLOC);

	RTE_SET_USED(dev);
	if (rc == 0)
		mw->rkey = rdmadev_obj_id(&mw->obj) << 8 | 1;
	return td_created(rc);
}

static int
td_srq_create(struct rdmadev *dev, struct rdmadev_srq *srq, const struct rdmadev_srq_attr *a)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(srq);
	RTE_SET_USED(a);
	return td_created(td_enter(TD_SRQ_CREATE));
}

static int
td_counter_bind(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(c);
	RTE_SET_USED(qp);
	return td_enter(TD_COUNTER_BIND);
}

static int
td_counter_unbind(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(c);
	RTE_SET_USED(qp);
	return td_enter(TD_COUNTER_UNBIND);
}

static int
td_counter_read(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_xstat *xs,
		unsigned int n)
{
	RTE_SET_USED(dev);
	if (n > 0) {
		snprintf(xs[0].name, sizeof(xs[0].name), "boundQPs");
		xs[0].value = (uint64_t)__atomic_load_n(&c->obj.users, __ATOMIC_RELAXED);
	}
	return 1;
}

static int
td_comp_cntr_read(struct rdmadev *dev, struct rdmadev_comp_cntr *cc, uint64_t *value)
{
	RTE_SET_USED(dev);
	*value = cc->value;
	return 0;
}

static int
td_dmah_alloc(struct rdmadev *dev, struct rdmadev_dmah *d, const struct rdmadev_dmah_attr *a)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(d);
	RTE_SET_USED(a);
	return td_created(td_enter(TD_DMAH_ALLOC));
}

static int
td_res_fill(struct rdmadev *dev, const struct rdmadev_obj *obj, struct restrack_dump_rec *rec)
{
	RTE_SET_USED(dev);
	if (obj->type == RDMADEV_OBJ_QP)
		return restrack_dump_attr(rec, "drv-sq-depth", "%u",
					  ((const struct rdmadev_qp *)(const void *)obj)
						  ->init.cap.max_send_wr);
	return 0;
}

/* One port: a fixed MAC and two GIDs, ::ffff:10.0.0.1 and fe80::1. */
static int
td_port_info_get(struct rdmadev *dev, struct rdmadev_port_info *pi)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

	RTE_SET_USED(dev);
	memcpy(pi->mac, mac, sizeof(mac));
	pi->state = RDMADEV_PORT_ACTIVE;
	pi->mtu = 1500;
	pi->max_mtu = RDMADEV_MTU_4096;
	pi->active_mtu = RDMADEV_MTU_1024;
	pi->gid_tbl_len = 2;
	return 0;
}

static int
td_gid_get(struct rdmadev *dev, uint32_t index, uint8_t gid[16])
{
	RTE_SET_USED(dev);
	memset(gid, 0, 16);
	if (index == 0) {
		gid[10] = 0xff;
		gid[11] = 0xff;
		gid[12] = 10;
		gid[15] = 1;
	} else {
		gid[0] = 0xfe;
		gid[1] = 0x80;
		gid[15] = 1;
	}
	return 0;
}

/* Report the raised events; objects are looked up by ID, missing ones are skipped. */
static int
td_event_process(struct rdmadev *dev)
{
	struct td_dev *td = dev->dev_private;
	struct td_hw_event hw[TD_HW_EVENTS];
	struct rdmadev_event ev;
	struct rdmadev_obj *obj;
	unsigned int i, n;
	uint64_t v;

	if (read(td->irq_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	pthread_mutex_lock(&td->ev_lock);
	n = td->nb_ev;
	memcpy(hw, td->ev, sizeof(hw[0]) * n);
	td->nb_ev = 0;
	td->processed++;
	pthread_mutex_unlock(&td->ev_lock);
	for (i = 0; i < n; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = hw[i].type;
		ev.obj_id = hw[i].id;
		ev.vendor_code = hw[i].code;
		obj = NULL;
		if (hw[i].obj_type != RDMADEV_OBJ_MAX) {
			obj = rdmadev_obj_get_byid(dev, hw[i].obj_type, hw[i].id);
			if (obj == NULL)
				continue;
			if (hw[i].obj_type == RDMADEV_OBJ_QP)
				ev.qp = (struct rdmadev_qp *)obj;
			else if (hw[i].obj_type == RDMADEV_OBJ_CQ)
				ev.cq = (struct rdmadev_cq *)obj;
			else
				ev.srq = (struct rdmadev_srq *)obj;
		}
		if (ev.qp != NULL && ev.type <= RDMADEV_EVENT_QP_ACCESS_ERR)
			rdmadev_qp_async_state(ev.qp, RDMADEV_QPS_ERR);
		rdmadev_event_report(dev, &ev);
		rdmadev_obj_put(obj);
	}
	return (int)n;
}

static int
td_event_intr_fd(struct rdmadev *dev)
{
	const struct td_dev *td = dev->dev_private;

	return td->irq_fd;
}

static const struct rdmadev_ops td_ops = {
	.dev_info_get = td_info_get,
	.dev_configure = td_configure,
	.dev_start = td_start,
	.dev_stop = td_stop,
	.dev_close = td_close,
	.xstats_get = td_xstats_get,
	.ctx_alloc = td_ctx_alloc,
	.ctx_free = td_ctx_free,
	.pd_alloc = td_pd_alloc,
	.pd_free = td_pd_free,
	.cq_create = td_cq_create,
	.cq_resize = td_cq_resize,
	.cq_destroy = td_cq_destroy,
	.qp_create = td_qp_create,
	.qp_modify = td_qp_modify,
	.qp_destroy = td_qp_destroy,
	.mr_reg = td_mr_reg,
	.mr_dereg = td_mr_dereg,
	.ah_create = td_ah_create,
	.ah_destroy = td_ah_destroy,
	.mw_alloc = td_mw_alloc,
	.mw_free = td_mw_free,
	.srq_create = td_srq_create,
	.srq_destroy = td_srq_destroy,
	.counter_alloc = td_counter_alloc,
	.counter_free = td_counter_free,
	.counter_bind = td_counter_bind,
	.counter_unbind = td_counter_unbind,
	.counter_read = td_counter_read,
	.comp_cntr_create = td_comp_cntr_create,
	.comp_cntr_read = td_comp_cntr_read,
	.comp_cntr_destroy = td_comp_cntr_destroy,
	.dmah_alloc = td_dmah_alloc,
	.dmah_free = td_dmah_free,
	.res_fill = td_res_fill,
	.port_info_get = td_port_info_get,
	.gid_get = td_gid_get,
	.event_process = td_event_process,
	.event_intr_fd = td_event_intr_fd,
};

/* A driver with almost no ops, for the -ENOTSUP paths. */
static const struct rdmadev_ops td_min_ops = {
	.dev_info_get = td_info_get,
	.dev_close = td_close,
	.ctx_alloc = td_ctx_alloc,
	.ctx_free = td_ctx_free,
};

static const char *const td_keys[] = { "gen", "fail_probe", "max_qp", NULL };

static int
td_probe(struct rdmadev *dev, const char *name, const struct rte_kvargs *kv)
{
	struct td_dev *td;
	unsigned int i, t;

	RTE_SET_USED(name);
	td = calloc(1, sizeof(*td));
	if (td == NULL)
		return -ENOMEM;
	td->gen = 2;
	td->max_qp = 1024;
	td->irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (td->irq_fd < 0) {
		free(td);
		return -errno;
	}
	pthread_mutex_init(&td->ev_lock, NULL);
	for (i = 0; kv != NULL && i < kv->count; i++) {
		const char *k = kv->pairs[i].key, *v = kv->pairs[i].value;

		if (strcmp(k, "gen") == 0 && v != NULL && (strcmp(v, "2") == 0 ||
							   strcmp(v, "3") == 0)) {
			td->gen = (uint8_t)atoi(v);
		} else if (strcmp(k, "max_qp") == 0 && v != NULL && atoi(v) > 3) {
			td->max_qp = (uint32_t)atoi(v);
		} else if (strcmp(k, "fail_probe") == 0) {
			free(td);
			return -EIO;
		} else {
			free(td);
			return -EINVAL;
		}
	}
	dev->dev_private = td;
	dev->fp_ops.post_send = td_post_send;
	dev->fp_ops.post_recv = td_post_recv;
	dev->fp_ops.poll_cq = td_poll_cq;
	for (t = 0; t < RESTRACK_MAX; t++)
		dev->res_cfg.type[t].nb_ids = 4096;
	dev->res_cfg.type[RESTRACK_QP].nb_ids = td->max_qp;
	dev->res_cfg.type[RESTRACK_QP].nb_reserved = 3;	/* QP 0, 1, 2 */
	dev->res_cfg.type[RESTRACK_CQ].nb_reserved = 3;	/* CCQ, ILQ, IEQ */
	dev->res_cfg.type[RESTRACK_PD].nb_reserved = 3;
	dev->res_cfg.type[RESTRACK_MR].nb_reserved = 1;	/* STag index 0 */
	return 0;
}

static struct rdmadev_driver td_driver = {
	.name = "rdma_test",
	.keys = td_keys,
	.ops = &td_ops,
	.probe = td_probe,
};

static struct rdmadev_driver td_min_driver = {
	.name = "rdma_testmin",
	.keys = td_keys,
	.ops = &td_min_ops,
	.probe = td_probe,
};

RDMADEV_REGISTER_DRIVER(rdma_test, td_driver);
RDMADEV_REGISTER_DRIVER(rdma_testmin, td_min_driver);

/* ---- helpers of the test programs ---- */

#include <rte_log.h>

int
td_dev_up(const char *devargs)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	int id = rdmadev_open(devargs), rc;

	if (id < 0)
		return id;
	rc = rdmadev_configure((int16_t)id, &conf);
	if (rc == 0)
		rc = rdmadev_start((int16_t)id);
	if (rc != 0) {
		rdmadev_close((int16_t)id);
		return rc;
	}
	return id;
}

int
td_dev_down(int16_t dev_id)
{
	if (rdmadev_get_state(dev_id) == RDMADEV_STATE_STARTED)
		rdmadev_stop(dev_id);
	return rdmadev_close(dev_id);
}

int
td_count(int16_t dev_id, enum restrack_type type)
{
	struct rdmadev *dev = rdmadev_get(dev_id);

	return dev != NULL ? restrack_count(dev->res, type, NULL) : -1;
}

static FILE *td_log_file;
static char *td_log_buf;
static size_t td_log_len;

void
td_log_start(void)
{
	td_log_file = open_memstream(&td_log_buf, &td_log_len);
	rte_openlog_stream(td_log_file);
}

char *
td_log_stop(void)
{
	rte_openlog_stream(NULL);
	fclose(td_log_file);
	td_log_file = NULL;
	return td_log_buf;
}

static struct td_dev *
td_of(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_get(dev_id);

	if (dev == NULL || dev->drv->ops->event_process != td_event_process)
		return NULL;
	return dev->dev_private;
}

int
td_event_stage(int16_t dev_id, enum rdmadev_event_type type, enum rdmadev_obj_type obj_type,
	       uint32_t id, uint32_t code)
{
	struct td_dev *td = td_of(dev_id);
	int rc = 0;

	if (td == NULL)
		return -EINVAL;
	pthread_mutex_lock(&td->ev_lock);
	if (td->nb_ev == TD_HW_EVENTS) {
		rc = -ENOSPC;
	} else {
		td->ev[td->nb_ev].type = type;
		td->ev[td->nb_ev].obj_type = obj_type;
		td->ev[td->nb_ev].id = id;
		td->ev[td->nb_ev].code = code;
		td->nb_ev++;
	}
	pthread_mutex_unlock(&td->ev_lock);
	return rc;
}

int
td_event_raise(int16_t dev_id, enum rdmadev_event_type type, enum rdmadev_obj_type obj_type,
	       uint32_t id, uint32_t code)
{
	int rc = td_event_stage(dev_id, type, obj_type, id, code);

	if (rc == 0 && eventfd_write(td_of(dev_id)->irq_fd, 1) != 0)
		rc = -errno;
	return rc;
}

int
td_events_pending(int16_t dev_id)
{
	struct td_dev *td = td_of(dev_id);
	int n;

	if (td == NULL)
		return -EINVAL;
	pthread_mutex_lock(&td->ev_lock);
	n = (int)td->nb_ev;
	pthread_mutex_unlock(&td->ev_lock);
	return n;
}

