/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, QPs, address handles, SRQs and asynchronous events; and the verbs this
 * layer does not offer on its devices (an errno and a log line).
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_priv.h"

/* Attribute mask bits rdmadev takes (the verbs values 0 .. 20). */
#define IV_QP_MASK_KNOWN ((uint32_t)RDMADEV_QP_ATTR_MASK_ALL)

static const char *
iv_qp_type_name(enum ibv_qp_type t)
{
	switch (t) {
	case IBV_QPT_UC:
		return "UC";
	case IBV_QPT_RAW_PACKET:
		return "RAW_PACKET";
	case IBV_QPT_XRC_SEND:
	case IBV_QPT_XRC_RECV:
		return "XRC";
	case IBV_QPT_DRIVER:
		return "DRIVER (DC)";
	default:
		return "unknown";
	}
}

/*
 * verbs address vector -> rdmadev's; -EINVAL without a GRH (RoCE needs one). The
 * destination MAC is what the kernel resolves: the port's own for a GID of the device
 * (loopback), else 0, which the device model's wires resolve themselves (ARP on Ethernet).
 */
static int
iv_ah_attr_in(struct ibv_context *c, const struct ibv_ah_attr *in, struct rdmadev_ah_attr *out)
{
	const struct iv_dev *d = iv_ctx_of(c)->dev;
	uint8_t g[16];
	uint32_t i;

	memset(out, 0, sizeof(*out));
	if (!in->is_global) {
		IV_LOG(ERR, "address without a GRH (is_global 0): RoCE addresses by GID");
		return -EINVAL;
	}
	memcpy(out->dgid, in->grh.dgid.raw, sizeof(out->dgid));
	out->flow_label = in->grh.flow_label;
	out->sgid_index = in->grh.sgid_index;
	out->hop_limit = in->grh.hop_limit;
	out->traffic_class = in->grh.traffic_class;
	out->sl = in->sl;
	out->vlan_id = 0xffff;
	out->port_num = in->port_num != 0 ? in->port_num : 1;
	for (i = 0; i < d->port.gid_tbl_len; i++) {
		if (rdmadev_gid_get(d->dev_id, i, g) == 0 && memcmp(g, out->dgid, 16) == 0) {
			memcpy(out->dmac, d->port.mac, sizeof(out->dmac));
			break;
		}
	}
	return 0;
}

static void
iv_ah_attr_out(const struct rdmadev_ah_attr *in, struct ibv_ah_attr *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->grh.dgid.raw, in->dgid, sizeof(in->dgid));
	out->grh.flow_label = in->flow_label;
	out->grh.sgid_index = in->sgid_index;
	out->grh.hop_limit = in->hop_limit;
	out->grh.traffic_class = in->traffic_class;
	out->sl = in->sl;
	out->is_global = 1;
	out->port_num = in->port_num;
}

static void
iv_cap_out(const struct rdmadev_qp_cap *in, struct ibv_qp_cap *out)
{
	out->max_send_wr = in->max_send_wr;
	out->max_recv_wr = in->max_recv_wr;
	out->max_send_sge = in->max_send_sge;
	out->max_recv_sge = in->max_recv_sge;
	out->max_inline_data = in->max_inline_data;
}

/* True when @p o (a PD, CQ, SRQ: anything starting with its context) is of context @p c. */
static bool
iv_same_ctx(const void *o, const struct ibv_context *c)
{
	return o == NULL || *(struct ibv_context *const *)o == c;
}

struct ibv_qp *
ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct rdmadev_qp_init_attr a;
	struct rdmadev_qp_attr qa;
	struct iv_qp *qp;
	int rc;

	if (pd == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", pd == NULL ? "PD" : "attributes");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_qp *(*)(struct ibv_pd *, struct ibv_qp_init_attr *),
			   "ibv_create_qp", "IBVERBS_1.1", NULL);
		return real(pd, attr);
	}
	if (attr->qp_type != IBV_QPT_RC && attr->qp_type != IBV_QPT_UD) {
		IV_LOG(ERR, "%s QPs are not supported (RC and UD are)",
		       iv_qp_type_name(attr->qp_type));
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (attr->send_cq == NULL || attr->recv_cq == NULL ||
	    !iv_same_ctx(attr->send_cq, pd->context) || !iv_same_ctx(attr->recv_cq, pd->context) ||
	    !iv_same_ctx(attr->srq, pd->context)) {
		IV_LOG(ERR, "%s", attr->send_cq == NULL || attr->recv_cq == NULL ? "NULL CQ" :
		       "the CQs, SRQ and PD belong to different contexts");
		errno = EINVAL;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	memset(&a, 0, sizeof(a));
	a.pd = container_of(pd, struct iv_pd, pd)->r;
	a.send_cq = container_of(attr->send_cq, struct iv_cq, cq)->r;
	a.recv_cq = container_of(attr->recv_cq, struct iv_cq, cq)->r;
	a.srq = attr->srq != NULL ? container_of(attr->srq, struct iv_srq, srq)->r : NULL;
	a.qp_type = attr->qp_type == IBV_QPT_RC ? RDMADEV_QPT_RC : RDMADEV_QPT_UD;
	a.cap.max_send_wr = attr->cap.max_send_wr;
	a.cap.max_recv_wr = attr->cap.max_recv_wr;
	a.cap.max_send_sge = attr->cap.max_send_sge;
	a.cap.max_recv_sge = attr->cap.max_recv_sge;
	a.cap.max_inline_data = attr->cap.max_inline_data;
	if (a.cap.max_inline_data > iv_ctx_of(pd->context)->dev->info.max_inline) {
		/* perftest asks for 220 whatever the device: give what there is (see iv_qp). */
		IV_LOG(NOTICE, "max_inline_data %u beyond the device's %u: %u", a.cap.max_inline_data,
		       iv_ctx_of(pd->context)->dev->info.max_inline,
		       iv_ctx_of(pd->context)->dev->info.max_inline);
		a.cap.max_inline_data = iv_ctx_of(pd->context)->dev->info.max_inline;
	}
	a.sq_sig_all = attr->sq_sig_all != 0;
	rc = rdmadev_qp_create(&a, &qp->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_qp_create: %s", strerror(-rc));
		free(qp);
		errno = rc == -ENOTSUP ? EOPNOTSUPP : -rc;
		return NULL;
	}
	if (rdmadev_qp_query(qp->r, &qa, &a) == 0)
		iv_cap_out(&a.cap, &attr->cap);
	qp->max_inline = attr->cap.max_inline_data;
	qp->qp.context = pd->context;
	qp->qp.qp_context = attr->qp_context;
	qp->qp.pd = pd;
	qp->qp.send_cq = attr->send_cq;
	qp->qp.recv_cq = attr->recv_cq;
	qp->qp.srq = attr->srq;
	qp->qp.qp_num = rdmadev_qp_num(qp->r);
	qp->qp.handle = qp->qp.qp_num;
	qp->qp.state = IBV_QPS_RESET;
	qp->qp.qp_type = attr->qp_type;
	pthread_mutex_init(&qp->qp.mutex, NULL);
	pthread_cond_init(&qp->qp.cond, NULL);
	iv_track(pd->context, IV_QP, &qp->link);
	return &qp->qp;
}

int
ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
	struct rdmadev_qp_attr a;
	struct iv_qp *q;
	uint32_t mask = (uint32_t)attr_mask;
	int rc;

	if (qp == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", qp == NULL ? "QP" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(qp->context)) {
		IV_FORWARD(int (*)(struct ibv_qp *, struct ibv_qp_attr *, int), "ibv_modify_qp",
			   "IBVERBS_1.1", EINVAL);
		return real(qp, attr, attr_mask);
	}
	if (mask & ~IV_QP_MASK_KNOWN) {
		IV_LOG(ERR, "QP %u: attribute mask bits 0x%x not supported", qp->qp_num,
		       mask & ~IV_QP_MASK_KNOWN);
		return (mask & IBV_QP_RATE_LIMIT) ? EOPNOTSUPP : EINVAL;
	}
	q = container_of(qp, struct iv_qp, qp);
	memset(&a, 0, sizeof(a));
	a.qp_state = (enum rdmadev_qp_state)attr->qp_state;
	a.cur_qp_state = (enum rdmadev_qp_state)attr->cur_qp_state;
	a.path_mtu = (enum rdmadev_mtu)attr->path_mtu;
	a.path_mig_state = attr->path_mig_state;
	a.qkey = attr->qkey;
	a.rq_psn = attr->rq_psn;
	a.sq_psn = attr->sq_psn;
	a.dest_qp_num = attr->dest_qp_num;
	a.qp_access_flags = (uint32_t)attr->qp_access_flags;
	a.pkey_index = attr->pkey_index;
	a.en_sqd_async_notify = attr->en_sqd_async_notify;
	a.max_rd_atomic = attr->max_rd_atomic;
	a.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	a.min_rnr_timer = attr->min_rnr_timer;
	a.port_num = attr->port_num;
	a.timeout = attr->timeout;
	a.retry_cnt = attr->retry_cnt;
	a.rnr_retry = attr->rnr_retry;
	if ((mask & IBV_QP_AV) && iv_ah_attr_in(qp->context, &attr->ah_attr, &a.ah_attr) < 0)
		return EINVAL;
	rc = rdmadev_qp_modify(q->r, &a, mask);
	if (rc < 0) {
		IV_LOG(ERR, "QP %u: rdmadev_qp_modify(mask 0x%x): %s", qp->qp_num, mask,
		       strerror(-rc));
		return rc == -ENOTSUP ? EOPNOTSUPP : -rc;
	}
	if (mask & IBV_QP_QKEY)
		q->qkey = attr->qkey;
	if (mask & IBV_QP_STATE)
		qp->state = attr->qp_state;
	return 0;
}

int
ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
	     struct ibv_qp_init_attr *init_attr)
{
	struct rdmadev_qp_init_attr ia;
	struct rdmadev_qp_attr a;
	int rc;

	if (qp == NULL || attr == NULL || init_attr == NULL) {
		IV_LOG(ERR, "NULL %s", qp == NULL ? "QP" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(qp->context)) {
		IV_FORWARD(int (*)(struct ibv_qp *, struct ibv_qp_attr *, int,
				   struct ibv_qp_init_attr *), "ibv_query_qp", "IBVERBS_1.1",
			   EINVAL);
		return real(qp, attr, attr_mask, init_attr);
	}
	rc = rdmadev_qp_query(container_of(qp, struct iv_qp, qp)->r, &a, &ia);
	if (rc < 0) {
		IV_LOG(ERR, "QP %u: rdmadev_qp_query: %s", qp->qp_num, strerror(-rc));
		return -rc;
	}
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = (enum ibv_qp_state)a.qp_state;
	attr->cur_qp_state = (enum ibv_qp_state)a.qp_state;
	attr->path_mtu = (enum ibv_mtu)a.path_mtu;
	attr->path_mig_state = (enum ibv_mig_state)a.path_mig_state;
	attr->qkey = a.qkey;
	attr->rq_psn = a.rq_psn;
	attr->sq_psn = a.sq_psn;
	attr->dest_qp_num = a.dest_qp_num;
	attr->qp_access_flags = (unsigned int)a.qp_access_flags;
	iv_cap_out(&ia.cap, &attr->cap);
	if (qp->qp_type == IBV_QPT_RC)
		iv_ah_attr_out(&a.ah_attr, &attr->ah_attr);
	attr->pkey_index = a.pkey_index;
	attr->en_sqd_async_notify = a.en_sqd_async_notify;
	attr->sq_draining = a.sq_draining;
	attr->max_rd_atomic = a.max_rd_atomic;
	attr->max_dest_rd_atomic = a.max_dest_rd_atomic;
	attr->min_rnr_timer = a.min_rnr_timer;
	attr->port_num = a.port_num;
	attr->timeout = a.timeout;
	attr->retry_cnt = a.retry_cnt;
	attr->rnr_retry = a.rnr_retry;
	memset(init_attr, 0, sizeof(*init_attr));
	init_attr->qp_context = qp->qp_context;
	init_attr->send_cq = qp->send_cq;
	init_attr->recv_cq = qp->recv_cq;
	init_attr->srq = qp->srq;
	init_attr->cap = attr->cap;
	init_attr->qp_type = qp->qp_type;
	init_attr->sq_sig_all = ia.sq_sig_all;
	qp->state = attr->qp_state;
	return 0;
}

int
ibv_destroy_qp(struct ibv_qp *qp)
{
	struct iv_qp *q;
	int rc;

	if (qp == NULL) {
		IV_LOG(ERR, "NULL QP");
		return EINVAL;
	}
	if (!iv_ctx_ours(qp->context)) {
		IV_FORWARD(int (*)(struct ibv_qp *), "ibv_destroy_qp", "IBVERBS_1.1", EINVAL);
		return real(qp);
	}
	q = container_of(qp, struct iv_qp, qp);
	iv_async_drain(qp->context, &q->async, &qp->mutex, &qp->cond, &qp->events_completed);
	rc = rdmadev_qp_destroy(q->r);
	if (rc < 0) {
		IV_LOG(ERR, "QP %u: rdmadev_qp_destroy: %s", qp->qp_num, strerror(-rc));
		iv_async_revive(qp->context, &q->async);
		return -rc;
	}
	iv_untrack(qp->context, &q->link);
	pthread_cond_destroy(&qp->cond);
	pthread_mutex_destroy(&qp->mutex);
	free(q->wrx);
	free(q);
	return 0;
}

struct ibv_qp_ex *
ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	if (qp == NULL) {
		IV_LOG(ERR, "NULL QP");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(qp->context)) {
		IV_FORWARD(struct ibv_qp_ex *(*)(struct ibv_qp *), "ibv_qp_to_qp_ex", "IBVERBS_1.6",
			   NULL);
		return real(qp);
	}
	if (container_of(qp, struct iv_qp, qp)->wrx != NULL)
		return &container_of(qp, struct iv_qp, qp)->qpx;
	IV_LOG(ERR, "QP %u: not created by ibv_create_qp_ex with send_ops_flags", qp->qp_num);
	errno = EOPNOTSUPP;
	return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Address handles                                                                          */

struct ibv_ah *
ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct rdmadev_ah_attr a;
	struct iv_ah *ah;
	int rc;

	if (pd == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", pd == NULL ? "PD" : "attributes");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_ah *(*)(struct ibv_pd *, struct ibv_ah_attr *),
			   "ibv_create_ah", "IBVERBS_1.1", NULL);
		return real(pd, attr);
	}
	if (iv_ah_attr_in(pd->context, attr, &a) < 0) {
		errno = EINVAL;
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (ah == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = rdmadev_ah_create(container_of(pd, struct iv_pd, pd)->r, &a, &ah->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_ah_create: %s", strerror(-rc));
		free(ah);
		errno = -rc;
		return NULL;
	}
	ah->ah.context = pd->context;
	ah->ah.pd = pd;
	iv_track(pd->context, IV_AH, &ah->link);
	return &ah->ah;
}

int
ibv_destroy_ah(struct ibv_ah *ah)
{
	struct iv_ah *a;
	int rc;

	if (ah == NULL) {
		IV_LOG(ERR, "NULL AH");
		return EINVAL;
	}
	if (!iv_ctx_ours(ah->context)) {
		IV_FORWARD(int (*)(struct ibv_ah *), "ibv_destroy_ah", "IBVERBS_1.1", EINVAL);
		return real(ah);
	}
	a = container_of(ah, struct iv_ah, ah);
	rc = rdmadev_ah_destroy(a->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_ah_destroy: %s", strerror(-rc));
		return -rc;
	}
	iv_untrack(ah->context, &a->link);
	free(a);
	return 0;
}

int
ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc,
		    struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)
{
	const uint8_t *g = (const uint8_t *)grh;

	if (context == NULL || wc == NULL || ah_attr == NULL) {
		IV_LOG(ERR, "NULL argument");
		return -1;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, struct ibv_wc *, struct ibv_grh *,
				   struct ibv_ah_attr *), "ibv_init_ah_from_wc", "IBVERBS_1.1", -1);
		return real(context, port_num, wc, grh, ah_attr);
	}
	if (!(wc->wc_flags & IBV_WC_GRH) || grh == NULL) {
		IV_LOG(ERR, "the completion has no GRH: RoCE replies need the sender's GID");
		errno = EINVAL;
		return -1;
	}
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->is_global = 1;
	ah_attr->port_num = port_num;
	ah_attr->sl = wc->sl;
	ah_attr->grh.hop_limit = 0xff;
	if ((g[20] >> 4) == 4) {
		/* RoCEv2 over IPv4: the IPv4 header is in the GRH area's last 20 bytes. */
		ah_attr->grh.dgid.raw[10] = 0xff;
		ah_attr->grh.dgid.raw[11] = 0xff;
		memcpy(&ah_attr->grh.dgid.raw[12], &g[20 + 12], 4);
		ah_attr->grh.traffic_class = g[21];
	} else {
		memcpy(ah_attr->grh.dgid.raw, grh->sgid.raw, 16);
		ah_attr->grh.flow_label = be32toh(grh->version_tclass_flow) & 0xfffff;
		ah_attr->grh.traffic_class = (uint8_t)(be32toh(grh->version_tclass_flow) >> 20);
	}
	/* Reply from the GID of our table that carries the destination's address family. */
	{
		union ibv_gid sg;
		int i, n = (int)iv_ctx_of(context)->dev->port.gid_tbl_len;
		bool v4 = (g[20] >> 4) == 4;

		for (i = 0; i < n; i++) {
			if (ibv_query_gid(context, port_num, i, &sg) != 0)
				continue;
			if (v4 == (sg.raw[10] == 0xff && sg.raw[11] == 0xff &&
				   sg.global.subnet_prefix == 0)) {
				ah_attr->grh.sgid_index = (uint8_t)i;
				break;
			}
		}
	}
	return 0;
}

struct ibv_ah *
ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh,
		      uint8_t port_num)
{
	struct ibv_ah_attr a;

	if (pd == NULL) {
		IV_LOG(ERR, "NULL PD");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_ah *(*)(struct ibv_pd *, struct ibv_wc *, struct ibv_grh *,
					      uint8_t), "ibv_create_ah_from_wc", "IBVERBS_1.1",
			   NULL);
		return real(pd, wc, grh, port_num);
	}
	if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &a) != 0)
		return NULL;
	return ibv_create_ah(pd, &a);
}

/* ---------------------------------------------------------------------------------------- */
/* SRQ                                                                                      */

struct ibv_srq *
ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	struct rdmadev_srq_attr a;
	struct iv_srq *srq;
	int rc;

	if (pd == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", pd == NULL ? "PD" : "attributes");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_ctx_ours(pd->context)) {
		IV_FORWARD(struct ibv_srq *(*)(struct ibv_pd *, struct ibv_srq_init_attr *),
			   "ibv_create_srq", "IBVERBS_1.1", NULL);
		return real(pd, attr);
	}
	srq = calloc(1, sizeof(*srq));
	if (srq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	a.max_wr = attr->attr.max_wr;
	a.max_sge = attr->attr.max_sge;
	a.srq_limit = attr->attr.srq_limit;
	rc = rdmadev_srq_create(container_of(pd, struct iv_pd, pd)->r, &a, &srq->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_srq_create: %s", strerror(-rc));
		free(srq);
		errno = rc == -ENOTSUP ? EOPNOTSUPP : -rc;
		return NULL;
	}
	if (rdmadev_srq_query(srq->r, &a) == 0) {
		attr->attr.max_wr = a.max_wr;
		attr->attr.max_sge = a.max_sge;
	}
	srq->srq.context = pd->context;
	srq->srq.srq_context = attr->srq_context;
	srq->srq.pd = pd;
	pthread_mutex_init(&srq->srq.mutex, NULL);
	pthread_cond_init(&srq->srq.cond, NULL);
	iv_track(pd->context, IV_SRQ, &srq->link);
	return &srq->srq;
}

int
ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
	struct rdmadev_srq_attr a;
	int rc;

	if (srq == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", srq == NULL ? "SRQ" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(srq->context)) {
		IV_FORWARD(int (*)(struct ibv_srq *, struct ibv_srq_attr *, int), "ibv_modify_srq",
			   "IBVERBS_1.1", EINVAL);
		return real(srq, attr, mask);
	}
	a.max_wr = attr->max_wr;
	a.max_sge = attr->max_sge;
	a.srq_limit = attr->srq_limit;
	rc = rdmadev_srq_modify(container_of(srq, struct iv_srq, srq)->r, &a, (uint32_t)mask);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_srq_modify(mask 0x%x): %s", (unsigned int)mask, strerror(-rc));
		return rc == -ENOTSUP ? EOPNOTSUPP : -rc;
	}
	return 0;
}

int
ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct rdmadev_srq_attr a;
	int rc;

	if (srq == NULL || attr == NULL) {
		IV_LOG(ERR, "NULL %s", srq == NULL ? "SRQ" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(srq->context)) {
		IV_FORWARD(int (*)(struct ibv_srq *, struct ibv_srq_attr *), "ibv_query_srq",
			   "IBVERBS_1.1", EINVAL);
		return real(srq, attr);
	}
	rc = rdmadev_srq_query(container_of(srq, struct iv_srq, srq)->r, &a);
	if (rc < 0)
		return -rc;
	attr->max_wr = a.max_wr;
	attr->max_sge = a.max_sge;
	attr->srq_limit = a.srq_limit;
	return 0;
}

int
ibv_destroy_srq(struct ibv_srq *srq)
{
	struct iv_srq *s;
	int rc;

	if (srq == NULL) {
		IV_LOG(ERR, "NULL SRQ");
		return EINVAL;
	}
	if (!iv_ctx_ours(srq->context)) {
		IV_FORWARD(int (*)(struct ibv_srq *), "ibv_destroy_srq", "IBVERBS_1.1", EINVAL);
		return real(srq);
	}
	s = container_of(srq, struct iv_srq, srq);
	iv_async_drain(srq->context, &s->async, &srq->mutex, &srq->cond, &srq->events_completed);
	rc = rdmadev_srq_destroy(s->r);
	if (rc < 0) {
		IV_LOG(ERR, "rdmadev_srq_destroy: %s", strerror(-rc));
		iv_async_revive(srq->context, &s->async);
		return -rc;
	}
	iv_untrack(srq->context, &s->link);
	pthread_cond_destroy(&srq->cond);
	pthread_mutex_destroy(&srq->mutex);
	free(s);
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Asynchronous events                                                                      */

static const enum ibv_event_type iv_event_map[RDMADEV_EVENT_MAX] = {
	[RDMADEV_EVENT_QP_FATAL] = IBV_EVENT_QP_FATAL,
	[RDMADEV_EVENT_QP_REQ_ERR] = IBV_EVENT_QP_REQ_ERR,
	[RDMADEV_EVENT_QP_ACCESS_ERR] = IBV_EVENT_QP_ACCESS_ERR,
	[RDMADEV_EVENT_QP_LAST_WQE_REACHED] = IBV_EVENT_QP_LAST_WQE_REACHED,
	[RDMADEV_EVENT_SQ_DRAINED] = IBV_EVENT_SQ_DRAINED,
	[RDMADEV_EVENT_COMM_EST] = IBV_EVENT_COMM_EST,
	[RDMADEV_EVENT_PATH_MIG] = IBV_EVENT_PATH_MIG,
	[RDMADEV_EVENT_PATH_MIG_ERR] = IBV_EVENT_PATH_MIG_ERR,
	[RDMADEV_EVENT_CQ_ERR] = IBV_EVENT_CQ_ERR,
	[RDMADEV_EVENT_SRQ_ERR] = IBV_EVENT_SRQ_ERR,
	[RDMADEV_EVENT_SRQ_LIMIT] = IBV_EVENT_SRQ_LIMIT_REACHED,
	[RDMADEV_EVENT_DEVICE_FATAL] = IBV_EVENT_DEVICE_FATAL,
	[RDMADEV_EVENT_PORT_ACTIVE] = IBV_EVENT_PORT_ACTIVE,
	[RDMADEV_EVENT_PORT_ERR] = IBV_EVENT_PORT_ERR,
};

void
iv_async_drain(struct ibv_context *c, struct iv_async *a, pthread_mutex_t *mutex,
	       pthread_cond_t *cond, const uint32_t *completed)
{
	struct iv_ctx *x = iv_ctx_of(c);

	pthread_mutex_lock(&x->lock);
	a->dying = true;
	pthread_mutex_unlock(&x->lock);
	if (x->closing)
		return;
	pthread_mutex_lock(mutex);
	while (*completed != a->returned)
		pthread_cond_wait(cond, mutex);
	pthread_mutex_unlock(mutex);
}

void
iv_async_revive(struct ibv_context *c, struct iv_async *a)
{
	struct iv_ctx *x = iv_ctx_of(c);

	pthread_mutex_lock(&x->lock);
	a->dying = false;
	pthread_mutex_unlock(&x->lock);
}

static void
iv_async_count(struct iv_async *a, pthread_mutex_t *mutex)
{
	pthread_mutex_lock(mutex);
	a->returned++;
	pthread_mutex_unlock(mutex);
}

/*
 * The verbs object of an rdmadev event, found in the context's lists, its event counted:
 * false when the context has no such object (another context of the device, or one being
 * destroyed).
 */
static bool
iv_event_object(struct iv_ctx *x, const struct rdmadev_event *ev, struct ibv_async_event *out)
{
	enum iv_kind k = ev->qp != NULL ? IV_QP : ev->cq != NULL ? IV_CQ : IV_SRQ;
	struct iv_link *l;
	bool found = false;

	pthread_mutex_lock(&x->lock);
	for (l = x->objs[k].next; l != &x->objs[k] && !found; l = l->next) {
		if (k == IV_QP) {
			struct iv_qp *q = container_of(l, struct iv_qp, link);

			if (q->r != ev->qp || q->async.dying)
				continue;
			iv_async_count(&q->async, &q->qp.mutex);
			out->element.qp = &q->qp;
		} else if (k == IV_CQ) {
			struct iv_cq *c = container_of(l, struct iv_cq, link);

			if (c->r != ev->cq || c->async.dying)
				continue;
			iv_async_count(&c->async, &c->cq.mutex);
			out->element.cq = &c->cq;
		} else {
			struct iv_srq *s = container_of(l, struct iv_srq, link);

			if (s->r != ev->srq || s->async.dying)
				continue;
			iv_async_count(&s->async, &s->srq.mutex);
			out->element.srq = &s->srq;
		}
		found = true;
	}
	pthread_mutex_unlock(&x->lock);
	return found;
}

/*
 * rdmadev's events, in order: an event of a QP, CQ or SRQ names the application's verbs
 * object (element.qp / cq / srq) and is counted for that object's destroy, which waits for
 * ibv_ack_async_event(); device and port events name port 1. Blocks until an event comes,
 * unless the application made async_fd non-blocking (then EAGAIN), as rdma-core's read of
 * the kernel's file does.
 */
int
ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	struct rdmadev_event ev;
	struct iv_ctx *x;
	int n;

	if (context == NULL || event == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "event");
		errno = EINVAL;
		return -1;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, struct ibv_async_event *),
			   "ibv_get_async_event", "IBVERBS_1.1", -1);
		return real(context, event);
	}
	x = iv_ctx_of(context);
	for (;;) {
		n = rdmadev_event_poll(x->dev->dev_id, &ev, 1);
		if (n < 0) {
			IV_LOG(ERR, "rdmadev_event_poll: %s", strerror(-n));
			errno = -n;
			return -1;
		}
		if (n == 1) {
			memset(event, 0, sizeof(*event));
			if (ev.qp == NULL && ev.cq == NULL && ev.srq == NULL) {
				event->element.port_num = 1;
				break;
			}
			if (iv_event_object(x, &ev, event))
				break;
			IV_LOG(WARNING, "%s: %s event of object %u (vendor code 0x%x): no such "
			       "live object in this context, dropped", context->device->name,
			       rdmadev_event_type_name(ev.type), ev.obj_id, ev.vendor_code);
			continue;
		}
		if (fcntl(context->async_fd, F_GETFL) & O_NONBLOCK) {
			errno = EAGAIN;
			return -1;
		}
		{
			struct pollfd p = { .fd = context->async_fd, .events = POLLIN };

			(void)poll(&p, 1, 100);
		}
	}
	event->event_type = iv_event_map[ev.type];
	IV_LOG(INFO, "%s: event %s of object %u (vendor code 0x%x)", context->device->name,
	       rdmadev_event_type_name(ev.type), ev.obj_id, ev.vendor_code);
	return 0;
}

/* The verbs object an event names, by its type (NULL for device and port events). */
static struct ibv_context *
iv_event_context(const struct ibv_async_event *e)
{
	switch (e->event_type) {
	case IBV_EVENT_CQ_ERR:
		return e->element.cq != NULL ? e->element.cq->context : NULL;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return e->element.srq != NULL ? e->element.srq->context : NULL;
	case IBV_EVENT_DEVICE_FATAL:
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE:
		return NULL;
	default:
		return e->element.qp != NULL ? e->element.qp->context : NULL;
	}
}

void
ibv_ack_async_event(struct ibv_async_event *event)
{
	typedef void (*fn_t)(struct ibv_async_event *);
	static fn_t real;
	struct ibv_context *c;

	if (event == NULL) {
		IV_LOG(ERR, "NULL event");
		return;
	}
	c = iv_event_context(event);
	if (c != NULL && iv_ctx_ours(c)) {
		pthread_mutex_t *m;
		pthread_cond_t *cv;
		uint32_t *done;

		if (event->event_type == IBV_EVENT_CQ_ERR) {
			m = &event->element.cq->mutex;
			cv = &event->element.cq->cond;
			done = &event->element.cq->async_events_completed;
		} else if (event->event_type == IBV_EVENT_SRQ_ERR ||
			   event->event_type == IBV_EVENT_SRQ_LIMIT_REACHED) {
			m = &event->element.srq->mutex;
			cv = &event->element.srq->cond;
			done = &event->element.srq->events_completed;
		} else {
			m = &event->element.qp->mutex;
			cv = &event->element.qp->cond;
			done = &event->element.qp->events_completed;
		}
		pthread_mutex_lock(m);
		++*done;
		pthread_cond_broadcast(cv);
		pthread_mutex_unlock(m);
		return;
	}
	/* Device and port events of our devices have nothing to count. */
	if (c == NULL && (event->event_type == IBV_EVENT_DEVICE_FATAL ||
			  event->event_type == IBV_EVENT_PORT_ACTIVE ||
			  event->event_type == IBV_EVENT_PORT_ERR))
		return;
	if (real == NULL)
		real = (fn_t)iv_real_sym("ibv_ack_async_event", "IBVERBS_1.1");
	if (real != NULL)
		real(event);
}

/* ---------------------------------------------------------------------------------------- */
/* Verbs this layer does not offer on its devices                                           */

/* Multicast on our devices (the caller forwarded the others): logged under the verb @p fn. */
static int
iv_mcast_unsupported(const struct ibv_qp *qp, const char *fn)
{
	if (qp == NULL) {
		IV_LOG_AT(ERR, fn, "NULL QP");
		return EINVAL;
	}
	IV_LOG_AT(ERR, fn, "QP %u: multicast is not supported", qp->qp_num);
	return EOPNOTSUPP;
}

int
ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	if (qp != NULL && !iv_ctx_ours(qp->context)) {
		IV_FORWARD(int (*)(struct ibv_qp *, const union ibv_gid *, uint16_t),
			   "ibv_attach_mcast", "IBVERBS_1.1", EINVAL);
		return real(qp, gid, lid);
	}
	return iv_mcast_unsupported(qp, __func__);
}

int
ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	if (qp != NULL && !iv_ctx_ours(qp->context)) {
		IV_FORWARD(int (*)(struct ibv_qp *, const union ibv_gid *, uint16_t),
			   "ibv_detach_mcast", "IBVERBS_1.1", EINVAL);
		return real(qp, gid, lid);
	}
	return iv_mcast_unsupported(qp, __func__);
}
