/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev QPs: create, the verbs modify state machine, query, destroy.
 *
 * The transition table holds, for every (current, next) state pair, whether the transition
 * is legal and which attributes it requires and allows per QP type; the contents are the
 * verbs facts (the kernel's qp_state_table for RC and UD, RESET -> ERR included). SQE is
 * entered only by the device (rdmadev_qp_async_state()).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "rdmadev_private.h"

#define M(x) RDMADEV_QP_##x

/* Index of a QP type in the table. */
enum { QPT_RC, QPT_UD, QPT_NB };

struct rdmadev_qp_trans {
	bool valid;
	uint32_t req[QPT_NB];
	uint32_t opt[QPT_NB];
};

#define RC_RTS_OPT (M(CUR_STATE) | M(ALT_PATH) | M(ACCESS_FLAGS) | M(MIN_RNR_TIMER) | \
		    M(PATH_MIG_STATE))
#define UD_RTS_OPT (M(CUR_STATE) | M(QKEY))
/* The optional attributes of a transition to RTS, by QP type. */
#define RTS_OPT { [QPT_RC] = RC_RTS_OPT, [QPT_UD] = UD_RTS_OPT }
/* The attributes RESET -> INIT requires and INIT -> INIT may change, by QP type. */
#define INIT_ATTRS { \
	[QPT_RC] = M(PKEY_INDEX) | M(PORT) | M(ACCESS_FLAGS), \
	[QPT_UD] = M(PKEY_INDEX) | M(PORT) | M(QKEY), \
}

/* Every state goes to RESET and to ERR with the state attribute alone. */
#define TO_RESET_AND_ERR \
	[RDMADEV_QPS_RESET] = { .valid = true }, \
	[RDMADEV_QPS_ERR] = { .valid = true }

static const struct rdmadev_qp_trans rdmadev_qp_table[RDMADEV_QPS_MAX][RDMADEV_QPS_MAX] = {
	[RDMADEV_QPS_RESET] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_INIT] = { .valid = true, .req = INIT_ATTRS },
	},
	[RDMADEV_QPS_INIT] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_INIT] = { .valid = true, .opt = INIT_ATTRS },
		[RDMADEV_QPS_RTR] = {
			.valid = true,
			.req = {
				[QPT_RC] = M(AV) | M(PATH_MTU) | M(DEST_QPN) | M(RQ_PSN) |
					   M(MAX_DEST_RD_ATOMIC) | M(MIN_RNR_TIMER),
			},
			.opt = {
				[QPT_RC] = M(ALT_PATH) | M(ACCESS_FLAGS) | M(PKEY_INDEX),
				[QPT_UD] = M(PKEY_INDEX) | M(QKEY),
			},
		},
	},
	[RDMADEV_QPS_RTR] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_RTS] = {
			.valid = true,
			.req = {
				[QPT_RC] = M(TIMEOUT) | M(RETRY_CNT) | M(RNR_RETRY) | M(SQ_PSN) |
					   M(MAX_QP_RD_ATOMIC),
				[QPT_UD] = M(SQ_PSN),
			},
			.opt = RTS_OPT,
		},
	},
	[RDMADEV_QPS_RTS] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_RTS] = { .valid = true, .opt = RTS_OPT },
		[RDMADEV_QPS_SQD] = {
			.valid = true,
			.opt = {
				[QPT_RC] = M(EN_SQD_ASYNC_NOTIFY),
				[QPT_UD] = M(EN_SQD_ASYNC_NOTIFY),
			},
		},
	},
	[RDMADEV_QPS_SQD] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_RTS] = { .valid = true, .opt = RTS_OPT },
		[RDMADEV_QPS_SQD] = {
			.valid = true,
			.opt = {
				[QPT_RC] = M(PORT) | M(AV) | M(TIMEOUT) | M(RETRY_CNT) |
					   M(RNR_RETRY) | M(MAX_QP_RD_ATOMIC) |
					   M(MAX_DEST_RD_ATOMIC) | M(ALT_PATH) |
					   M(ACCESS_FLAGS) | M(PKEY_INDEX) | M(MIN_RNR_TIMER) |
					   M(PATH_MIG_STATE),
				[QPT_UD] = M(PKEY_INDEX) | M(QKEY),
			},
		},
	},
	[RDMADEV_QPS_SQE] = {
		TO_RESET_AND_ERR,
		[RDMADEV_QPS_RTS] = {
			.valid = true,
			.opt = {
				[QPT_UD] = M(CUR_STATE) | M(QKEY),
			},
		},
	},
	[RDMADEV_QPS_ERR] = { TO_RESET_AND_ERR },
};

static const char *const rdmadev_qp_state_names[RDMADEV_QPS_MAX] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};

static const char *const rdmadev_qp_attr_names[] = {
	"STATE", "CUR_STATE", "EN_SQD_ASYNC_NOTIFY", "ACCESS_FLAGS", "PKEY_INDEX", "PORT",
	"QKEY", "AV", "PATH_MTU", "TIMEOUT", "RETRY_CNT", "RNR_RETRY", "RQ_PSN",
	"MAX_QP_RD_ATOMIC", "ALT_PATH", "MIN_RNR_TIMER", "SQ_PSN", "MAX_DEST_RD_ATOMIC",
	"PATH_MIG_STATE", "CAP", "DEST_QPN",
};

const char *
rdmadev_qp_state_name(enum rdmadev_qp_state state)
{
	if ((unsigned int)state >= RDMADEV_QPS_MAX)
		return "UNKNOWN";
	return rdmadev_qp_state_names[state];
}

const char *
rdmadev_qp_type_name(enum rdmadev_qp_type type)
{
	switch (type) {
	case RDMADEV_QPT_RC:
		return "RC";
	case RDMADEV_QPT_UD:
		return "UD";
	case RDMADEV_QPT_GSI:
		return "GSI";
	}
	return "UNKNOWN";
}

const char *
rdmadev_qp_attr_name(uint32_t bit)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rdmadev_qp_attr_names); i++)
		if (bit == RTE_BIT32(i))
			return rdmadev_qp_attr_names[i];
	return "UNKNOWN";
}

/* Lowest set bit of a mask, for naming the first offending attribute. */
static uint32_t
lowest_bit(uint32_t mask)
{
	return mask & (~mask + 1);
}

/* ---- create ---- */

static int
rdmadev_qp_check_init(struct rdmadev *dev, const struct rdmadev_qp_init_attr *attr)
{
	const struct rdmadev_info *in = &dev->info;
	const struct rdmadev_qp_cap *cap = &attr->cap;

	if (attr->qp_type != RDMADEV_QPT_RC && attr->qp_type != RDMADEV_QPT_UD &&
	    attr->qp_type != RDMADEV_QPT_GSI) {
		RDMADEV_LOG(ERR, "qp_create: QP type %d is neither RC, UD nor GSI", attr->qp_type);
		return -EINVAL;
	}
	if (attr->qp_type == RDMADEV_QPT_GSI && attr->srq != NULL) {
		RDMADEV_LOG(ERR, "qp_create: the GSI QP receives on its own RQ, not an SRQ");
		return -EINVAL;
	}
	if (cap->max_send_wr == 0 || cap->max_send_wr > in->max_qp_wr ||
	    cap->max_recv_wr > in->max_qp_wr) {
		RDMADEV_LOG(ERR, "qp_create: max_send_wr %u / max_recv_wr %u, device allows 1..%u"
			    " / 0..%u", cap->max_send_wr, cap->max_recv_wr, in->max_qp_wr,
			    in->max_qp_wr);
		return -EINVAL;
	}
	if (cap->max_send_sge > in->max_sge || cap->max_recv_sge > in->max_sge) {
		RDMADEV_LOG(ERR, "qp_create: max_send_sge %u / max_recv_sge %u beyond %u",
			    cap->max_send_sge, cap->max_recv_sge, in->max_sge);
		return -EINVAL;
	}
	if (cap->max_inline_data > in->max_inline) {
		RDMADEV_LOG(ERR, "qp_create: max_inline_data %u beyond %u", cap->max_inline_data,
			    in->max_inline);
		return -EINVAL;
	}
	if (attr->send_cq == NULL || attr->recv_cq == NULL) {
		RDMADEV_LOG(ERR, "qp_create: a QP needs a send CQ and a receive CQ");
		return -EINVAL;
	}
	return 0;
}

int
rdmadev_qp_create(const struct rdmadev_qp_init_attr *attr, struct rdmadev_qp **out)
{
	struct rdmadev_qp *qp;
	struct rdmadev *dev;
	int rc;

	if (attr == NULL || !rdmadev_obj_check(RDMADEV_OBJ(attr->pd), RDMADEV_OBJ_PD,
					       "qp_create")) {
		RDMADEV_LOG(ERR, "qp_create: NULL attributes or bad PD");
		return -EINVAL;
	}
	dev = attr->pd->obj.dev;
	rc = rdmadev_qp_check_init(dev, attr);
	if (rc != 0)
		return rdmadev_fail(dev, rc, false);
	/* The GSI is QP 1 (a reserved number): a second one finds it taken (-EBUSY). */
	qp = rdmadev_obj_new_id(attr->pd->obj.ctx, RDMADEV_OBJ_QP, sizeof(*qp),
				dev->ops->qp_create != NULL, out, "qp_create",
				attr->qp_type == RDMADEV_QPT_GSI ? RDMADEV_GSI_QPN :
								   RESTRACK_ID_ANY, &rc);
	if (qp == NULL)
		return rc;
	rc = rdmadev_obj_use_opt(RDMADEV_OBJ(qp), RDMADEV_OBJ(attr->pd), RDMADEV_OBJ_PD,
				 "qp_create");
	if (rc == 0)
		rc = rdmadev_obj_use_opt(RDMADEV_OBJ(qp), RDMADEV_OBJ(attr->send_cq),
					 RDMADEV_OBJ_CQ, "qp_create send_cq");
	if (rc == 0)
		rc = rdmadev_obj_use_opt(RDMADEV_OBJ(qp), RDMADEV_OBJ(attr->recv_cq),
					 RDMADEV_OBJ_CQ, "qp_create recv_cq");
	if (rc == 0)
		rc = rdmadev_obj_use_opt(RDMADEV_OBJ(qp), RDMADEV_OBJ(attr->srq), RDMADEV_OBJ_SRQ,
					 "qp_create srq");
	if (rc != 0)
		return rc;
	qp->init = *attr;
	qp->state = RDMADEV_QPS_RESET;
	qp->attr.qp_state = RDMADEV_QPS_RESET;
	pthread_mutex_init(&qp->lock, NULL);
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(qp), dev->ops->qp_create(dev, qp, attr));
	if (rc == 0)
		*out = qp;
	return rc;
}

/* ---- modify ---- */

/* Check the value of every attribute in the mask against the device limits. */
static int
rdmadev_qp_check_values(const struct rdmadev_qp *qp, const struct rdmadev_qp_attr *a,
			uint32_t mask)
{
	const struct rdmadev_info *in = &qp->obj.dev->info;
	uint32_t qpn = rdmadev_obj_id(&qp->obj);
	const char *bad = NULL;

	if ((mask & M(ACCESS_FLAGS)) &&
	    (a->qp_access_flags & ~(RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
				    RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_ATOMIC) ||
	     ((a->qp_access_flags & RDMADEV_ACCESS_REMOTE_ATOMIC) &&
	      !(in->capa & RDMADEV_CAPA_ATOMICS))))
		bad = "ACCESS_FLAGS";
	else if ((mask & M(PKEY_INDEX)) && a->pkey_index >= in->max_pkeys)
		bad = "PKEY_INDEX";
	else if ((mask & M(PORT)) && (a->port_num == 0 || a->port_num > in->nb_ports))
		bad = "PORT";
	else if ((mask & M(AV)) &&
		 ((a->ah_attr.vlan_id >= 4096 && a->ah_attr.vlan_id != 0xffff) ||
		  a->ah_attr.flow_label >= (1u << 20)))
		bad = "AV";
	else if ((mask & M(PATH_MTU)) &&
		 (a->path_mtu < RDMADEV_MTU_256 || a->path_mtu > RDMADEV_MTU_4096))
		bad = "PATH_MTU";
	else if ((mask & M(TIMEOUT)) && a->timeout > 31)
		bad = "TIMEOUT";
	else if ((mask & M(RETRY_CNT)) && a->retry_cnt > 7)
		bad = "RETRY_CNT";
	else if ((mask & M(RNR_RETRY)) && a->rnr_retry > 7)
		bad = "RNR_RETRY";
	else if ((mask & M(MIN_RNR_TIMER)) && a->min_rnr_timer > 31)
		bad = "MIN_RNR_TIMER";
	else if ((mask & M(RQ_PSN)) && a->rq_psn >= (1u << 24))
		bad = "RQ_PSN";
	else if ((mask & M(SQ_PSN)) && a->sq_psn >= (1u << 24))
		bad = "SQ_PSN";
	else if ((mask & M(DEST_QPN)) && a->dest_qp_num >= (1u << 24))
		bad = "DEST_QPN";
	else if ((mask & M(MAX_QP_RD_ATOMIC)) && a->max_rd_atomic > in->max_qp_init_rd_atom)
		bad = "MAX_QP_RD_ATOMIC";
	else if ((mask & M(MAX_DEST_RD_ATOMIC)) && a->max_dest_rd_atomic > in->max_qp_rd_atom)
		bad = "MAX_DEST_RD_ATOMIC";
	else if ((mask & M(PATH_MIG_STATE)) && a->path_mig_state > 2)
		bad = "PATH_MIG_STATE";
	else if (mask & M(ALT_PATH))
		bad = "ALT_PATH (alternate paths are not supported)";
	else if ((mask & M(QKEY)) && qp->init.qp_type == RDMADEV_QPT_GSI &&
		 a->qkey != RDMADEV_GSI_QKEY)
		bad = "QKEY (the GSI QP's is 0x80010000)";
	if (bad != NULL) {
		RDMADEV_LOG(ERR, "qp_modify: QP %u: bad value of attribute %s", qpn, bad);
		return -EINVAL;
	}
	return 0;
}

/* The transition and mask checks of ib_modify_qp_is_ok. */
static int
rdmadev_qp_check_transition(const struct rdmadev_qp *qp, enum rdmadev_qp_state cur,
			    enum rdmadev_qp_state next, uint32_t mask)
{
	const struct rdmadev_qp_trans *tr;
	uint32_t qpn = rdmadev_obj_id(&qp->obj);
	const char *type = rdmadev_qp_type_name(qp->init.qp_type);
	int t = qp->init.qp_type == RDMADEV_QPT_RC ? QPT_RC : QPT_UD;
	uint32_t missing, extra;

	if ((mask & M(CUR_STATE)) && cur != RDMADEV_QPS_RTR && cur != RDMADEV_QPS_RTS &&
	    cur != RDMADEV_QPS_SQD && cur != RDMADEV_QPS_SQE) {
		RDMADEV_LOG(ERR, "qp_modify: %s QP %u %s -> %s: CUR_STATE is not allowed from %s",
			    type, qpn, rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next),
			    rdmadev_qp_state_name(cur));
		return -EINVAL;
	}
	tr = &rdmadev_qp_table[cur][next];
	if (!tr->valid) {
		RDMADEV_LOG(ERR, "qp_modify: %s QP %u: illegal transition %s -> %s", type, qpn,
			    rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next));
		return -EINVAL;
	}
	missing = tr->req[t] & ~mask;
	if (missing != 0) {
		RDMADEV_LOG(ERR, "qp_modify: %s QP %u %s -> %s: required attribute %s missing",
			    type, qpn, rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next),
			    rdmadev_qp_attr_name(lowest_bit(missing)));
		return -EINVAL;
	}
	extra = mask & ~(tr->req[t] | tr->opt[t] | M(STATE));
	if (extra != 0) {
		RDMADEV_LOG(ERR, "qp_modify: %s QP %u %s -> %s: attribute %s is not allowed",
			    type, qpn, rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next),
			    rdmadev_qp_attr_name(lowest_bit(extra)));
		return -EINVAL;
	}
	return 0;
}

/* Copy the attributes of @p mask from @p src into the QP's record. */
static void
rdmadev_qp_store(struct rdmadev_qp *qp, const struct rdmadev_qp_attr *a, uint32_t mask)
{
	struct rdmadev_qp_attr *d = &qp->attr;

	if (mask & M(EN_SQD_ASYNC_NOTIFY))
		d->en_sqd_async_notify = a->en_sqd_async_notify;
	if (mask & M(ACCESS_FLAGS))
		d->qp_access_flags = a->qp_access_flags;
	if (mask & M(PKEY_INDEX))
		d->pkey_index = a->pkey_index;
	if (mask & M(PORT))
		d->port_num = a->port_num;
	if (mask & M(QKEY))
		d->qkey = a->qkey;
	if (mask & M(AV))
		d->ah_attr = a->ah_attr;
	if (mask & M(PATH_MTU))
		d->path_mtu = a->path_mtu;
	if (mask & M(TIMEOUT))
		d->timeout = a->timeout;
	if (mask & M(RETRY_CNT))
		d->retry_cnt = a->retry_cnt;
	if (mask & M(RNR_RETRY))
		d->rnr_retry = a->rnr_retry;
	if (mask & M(RQ_PSN))
		d->rq_psn = a->rq_psn;
	if (mask & M(MAX_QP_RD_ATOMIC))
		d->max_rd_atomic = a->max_rd_atomic;
	if (mask & M(MIN_RNR_TIMER))
		d->min_rnr_timer = a->min_rnr_timer;
	if (mask & M(SQ_PSN))
		d->sq_psn = a->sq_psn;
	if (mask & M(MAX_DEST_RD_ATOMIC))
		d->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & M(PATH_MIG_STATE))
		d->path_mig_state = a->path_mig_state;
	if (mask & M(DEST_QPN))
		d->dest_qp_num = a->dest_qp_num;
	qp->attr_set |= mask;
}

int
rdmadev_qp_modify(struct rdmadev_qp *qp, const struct rdmadev_qp_attr *attr,
		  uint32_t attr_mask)
{
	enum rdmadev_qp_state cur, next;
	struct rdmadev *dev;
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "qp_modify"))
		return -EINVAL;
	dev = qp->obj.dev;
	if (attr == NULL || (attr_mask & ~(uint32_t)M(ATTR_MASK_ALL))) {
		RDMADEV_LOG(ERR, "qp_modify: QP %u: NULL attributes or unknown mask bits 0x%x",
			    rdmadev_qp_num(qp), attr_mask & ~(uint32_t)M(ATTR_MASK_ALL));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = rdmadev_obj_dev_ready(dev, "qp_modify");
	if (rc != 0)
		return rc;
	if (dev->ops->qp_modify == NULL) {
		RDMADEV_LOG(ERR, "qp_modify: not supported by driver %s", dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	pthread_mutex_lock(&qp->lock);
	/* acquire: pairs with the release of rdmadev_qp_async_state() */
	cur = __atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
	next = (attr_mask & M(STATE)) ? attr->qp_state : cur;
	if ((unsigned int)next >= RDMADEV_QPS_MAX) {
		RDMADEV_LOG(ERR, "qp_modify: QP %u: bad state %d", rdmadev_qp_num(qp), next);
		rc = -EINVAL;
	} else if ((attr_mask & M(CUR_STATE)) && attr->cur_qp_state != cur) {
		RDMADEV_LOG(ERR, "qp_modify: QP %u: cur_qp_state %s, but the QP is in %s",
			    rdmadev_qp_num(qp), rdmadev_qp_state_name(attr->cur_qp_state),
			    rdmadev_qp_state_name(cur));
		rc = -EINVAL;
	} else {
		rc = rdmadev_qp_check_transition(qp, cur, next, attr_mask);
		if (rc == 0)
			rc = rdmadev_qp_check_values(qp, attr, attr_mask);
	}
	if (rc != 0) {
		pthread_mutex_unlock(&qp->lock);
		return rdmadev_fail(dev, rc, false);
	}
	rc = dev->ops->qp_modify(dev, qp, attr, attr_mask);
	if (rc != 0) {
		pthread_mutex_unlock(&qp->lock);
		RDMADEV_LOG(ERR, "qp_modify: driver refused QP %u %s -> %s: %s",
			    rdmadev_qp_num(qp), rdmadev_qp_state_name(cur),
			    rdmadev_qp_state_name(next), strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	rdmadev_qp_store(qp, attr, attr_mask);
	if (next == RDMADEV_QPS_RESET) {
		/* back to RESET: the attributes start again */
		memset(&qp->attr, 0, sizeof(qp->attr));
		qp->attr_set = 0;
	}
	qp->attr.qp_state = next;
	__atomic_store_n(&qp->state, next, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&qp->lock);
	return 0;
}

int
rdmadev_qp_async_state_locked(struct rdmadev_qp *qp, enum rdmadev_qp_state state)
{
	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "qp_async_state"))
		return -EINVAL;
	if (state != RDMADEV_QPS_ERR &&
	    (state != RDMADEV_QPS_SQE || qp->init.qp_type == RDMADEV_QPT_RC)) {
		RDMADEV_LOG(ERR, "qp_async_state: %s QP %u cannot enter %s on its own",
			    rdmadev_qp_type_name(qp->init.qp_type), rdmadev_qp_num(qp),
			    rdmadev_qp_state_name(state));
		return -EINVAL;
	}
	if (__atomic_load_n(&qp->state, __ATOMIC_RELAXED) == RDMADEV_QPS_RESET) {
		/* The error was about work a reset has discarded since. */
		RDMADEV_LOG(DEBUG, "qp_async_state: QP %u is in RESET: %s is stale",
			    rdmadev_qp_num(qp), rdmadev_qp_state_name(state));
		return -ESTALE;
	}
	qp->attr.qp_state = state;
	/* release: publishes the state to modify and query */
	__atomic_store_n(&qp->state, state, __ATOMIC_RELEASE);
	return 0;
}

int
rdmadev_qp_async_state(struct rdmadev_qp *qp, enum rdmadev_qp_state state)
{
	int rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "qp_async_state"))
		return -EINVAL;
	pthread_mutex_lock(&qp->lock);
	rc = rdmadev_qp_async_state_locked(qp, state);
	pthread_mutex_unlock(&qp->lock);
	return rc;
}

int
rdmadev_qp_query(struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr,
		 struct rdmadev_qp_init_attr *init_attr)
{
	struct rdmadev *dev;
	int rc = 0;

	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "qp_query"))
		return -EINVAL;
	dev = qp->obj.dev;
	if (attr == NULL && init_attr == NULL) {
		RDMADEV_LOG(ERR, "qp_query: QP %u: nothing to fill", rdmadev_qp_num(qp));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	/* The device's pending events first: a QP it failed reports ERR (or SQE) now. */
	if (attr != NULL)
		rdmadev_event_drain(dev);
	pthread_mutex_lock(&qp->lock);
	if (attr != NULL) {
		*attr = qp->attr;
		attr->qp_state = __atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
		attr->cur_qp_state = attr->qp_state;
		attr->cap = qp->init.cap;
		if (dev->ops->qp_query != NULL)
			rc = dev->ops->qp_query(dev, qp, attr);
	}
	if (init_attr != NULL)
		*init_attr = qp->init;
	pthread_mutex_unlock(&qp->lock);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "qp_query: driver failed on QP %u: %s", rdmadev_qp_num(qp),
			    strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}

int
rdmadev_qp_destroy(struct rdmadev_qp *qp)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, RDMADEV_OP_OF(qp, qp_destroy),
				   "qp_destroy");
}

uint32_t
rdmadev_qp_num(const struct rdmadev_qp *qp)
{
	return qp != NULL ? rdmadev_obj_id(&qp->obj) : UINT32_MAX;
}

enum rdmadev_qp_state
rdmadev_qp_get_state(const struct rdmadev_qp *qp)
{
	if (qp == NULL)
		return RDMADEV_QPS_MAX;
	return (enum rdmadev_qp_state)__atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
}

/* ---- send templates ---- */

int
rdmadev_send_tmpl_init(struct rdmadev_qp *qp, const struct rdmadev_send_wr *proto,
		       struct rdmadev_send_tmpl *t)
{
	struct rdmadev *dev;
	int rc;

	if (t != NULL)
		memset(t, 0, sizeof(*t));
	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "send_tmpl_init"))
		return -EINVAL;
	dev = qp->obj.dev;
	if (proto == NULL || t == NULL) {
		RDMADEV_LOG(ERR, "send_tmpl_init: QP %u: NULL %s", rdmadev_qp_num(qp),
			    proto == NULL ? "prototype" : "template");
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (proto->num_sge != 1 || proto->sg_list == NULL ||
	    (proto->flags & RDMADEV_SEND_INLINE) != 0) {
		RDMADEV_LOG(ERR, "send_tmpl_init: QP %u: a template carries one SGE, not inline "
			    "(num_sge %u, flags 0x%x)", rdmadev_qp_num(qp), proto->num_sge,
			    proto->flags);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (proto->opcode >= RDMADEV_WR_OPCODE_MAX) {
		RDMADEV_LOG(ERR, "send_tmpl_init: QP %u: unknown opcode %u", rdmadev_qp_num(qp),
			    proto->opcode);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (proto->opcode != RDMADEV_WR_SEND && proto->opcode != RDMADEV_WR_SEND_IMM &&
	    proto->opcode != RDMADEV_WR_RDMA_WRITE && proto->opcode != RDMADEV_WR_RDMA_WRITE_IMM &&
	    proto->opcode != RDMADEV_WR_RDMA_READ) {
		RDMADEV_LOG(ERR, "send_tmpl_init: QP %u: opcode %u cannot be a template (SEND, "
			    "SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM, RDMA_READ)", rdmadev_qp_num(qp),
			    proto->opcode);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	if (dev->ops->send_tmpl_init == NULL) {
		RDMADEV_LOG(ERR, "send_tmpl_init: driver %s has no send templates", dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	rc = dev->ops->send_tmpl_init(dev, qp, proto, t);
	if (rc != 0) {
		memset(t, 0, sizeof(*t));
		RDMADEV_LOG(ERR, "send_tmpl_init: driver refused the prototype on QP %u: %s",
			    rdmadev_qp_num(qp), strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}
