/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The IB CM over the GSI QP (rdmadev_ibcm.h, doc/cm.md). Messages are built and parsed at
 * the byte offsets of IBA vol. 1 chapter 12 (as Linux's ibta_vol1_c12.h lists them): big
 * endian, bit 0 the most significant bit of a byte. One agent owns QP 1 of its device, a
 * CQ for both directions, a ring of receive slots (40-byte GRH area + 256-byte MAD) and of
 * send slots, and a small cache of address handles toward the peers' QP 1.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "rdmadev_ibcm.h"
#include "rdmadev_private.h"

#define CM_RECVS	32u
#define CM_SENDS	32u
#define CM_SLOT		320u		/* GRH area 40 + MAD 256, rounded */
#define CM_GRH		40u
#define CM_EVENTS	64u
#define CM_AHS		16u
#define CM_SEND_TAG	0x10000u	/* wr_id of a send: tag | slot */
#define CM_GIDS		16u		/* GID table entries the agent sends from */
#define CM_HDR		24u		/* common MAD header */

/* Offsets in the MAD (common header 24 bytes, then the message's data). */
#define D(x)		(CM_HDR + (x))

enum cm_state {
	ST_IDLE, ST_LISTEN, ST_REQ_SENT, ST_MRA_REP_RCVD, ST_REQ_RCVD, ST_MRA_REQ_SENT,
	ST_REP_SENT, ST_ESTABLISHED, ST_DREQ_SENT, ST_TIMEWAIT, ST_SIDR_LISTEN,
	ST_SIDR_REQ_SENT, ST_SIDR_REQ_RCVD, ST_SIDR_REP_SENT, ST_NB
};

static const char *const cm_state_names[ST_NB] = {
	"IDLE", "LISTEN", "REQ_SENT", "MRA_REP_RCVD", "REQ_RCVD", "MRA_REQ_SENT", "REP_SENT",
	"ESTABLISHED", "DREQ_SENT", "TIMEWAIT", "SIDR_LISTEN", "SIDR_REQ_SENT",
	"SIDR_REQ_RCVD", "SIDR_REP_SENT",
};

struct cm_ah {
	struct rdmadev_ah *ah;
	uint8_t sgid;
	uint8_t dgid[16];
	uint8_t dmac[6];
};

struct rdmadev_ibcm_id {
	struct rdmadev_ibcm *cm;
	struct rdmadev_ibcm_id *next;
	enum cm_state state;
	uint64_t service_id;
	uint32_t local_id;
	uint32_t remote_id;
	uint64_t tid;			/* of the REQ (REP/REJ/MRA/RTU echo it) or the DREQ */
	struct rdmadev_qp *qp;
	struct rdmadev_ibcm_peer peer;
	struct rdmadev_ah *ah;		/* toward the peer's QP 1 (the agent's cache owns it) */
	uint8_t sgid;			/* the GID table entry it sends from */
	uint32_t psn;			/* our starting PSN: the one we receive from */
	uint8_t rr, id;			/* our responder resources / initiator depth */
	uint8_t retry, rnr_retry;	/* REQ values */
	uint8_t mtu, life, lcrt, rcrt, max_retries;
	uint8_t ack;			/* the QP's ACK timeout given by the caller, 0: the path's */
	uint32_t ud_qpn, ud_qkey;	/* SIDR_LISTEN: the answer */
	bool sidr_events;		/* SIDR_LISTEN: the application answers (events) */
	unsigned int backlog;		/* LISTEN: REQs held unanswered at most, 0: no bound */
	struct rdmadev_ibcm_id *listen;	/* a REQ's id: its listener (NULL once that is gone) */
	/* the retransmitted message (REQ, REP or DREQ) */
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];
	bool armed;
	uint64_t deadline;
	uint64_t period;
	uint8_t retries_left;
	uint64_t tw_deadline;
	void *context;			/* the caller's */
};

struct rdmadev_ibcm {
	struct rdmadev_ctx *ctx;
	int16_t dev_id;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	uint8_t *buf;			/* CM_RECVS receive slots, then CM_SENDS send slots */
	uint32_t send_busy;		/* bit per send slot */
	struct cm_ah ahs[CM_AHS];
	uint8_t gid[16];		/* entry sgid_index: the default source */
	uint8_t gids[CM_GIDS][16];	/* the port's GID table (n_gids valid) */
	uint8_t n_gids;
	uint8_t mac[6];
	uint8_t sgid_index;
	uint8_t mra_timeout;
	bool no_mra;
	uint8_t max_ird, max_ord, max_mtu;
	uint8_t active_mtu;		/* the port's: what its Ethernet MTU carries */
	uint64_t guid;
	uint64_t rng;
	uint32_t tid_next;
	uint64_t now;
	struct rdmadev_ibcm_id *ids;
	struct rdmadev_ibcm_event ev[CM_EVENTS];
	unsigned int ev_head, ev_tail;
	struct rdmadev_ibcm_stats st;
	void (*hook)(void *arg, const uint8_t *mad);
	void *hook_arg;
};

/* ---- byte helpers (big endian) ---- */

static void
put_be(uint8_t *p, uint64_t v, unsigned int n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t
get_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

uint64_t
rdmadev_ibcm_time_ns(uint8_t t)
{
	return 4096ull << (t & 31u);
}

static uint64_t
cm_rand(struct rdmadev_ibcm *cm)
{
	/* xorshift64 */
	cm->rng ^= cm->rng << 13;
	cm->rng ^= cm->rng >> 7;
	cm->rng ^= cm->rng << 17;
	return cm->rng;
}

void
rdmadev_ibcm_id_set_context(struct rdmadev_ibcm_id *id, void *context)
{
	if (id != NULL)
		id->context = context;
}

void *
rdmadev_ibcm_id_context(const struct rdmadev_ibcm_id *id)
{
	return id != NULL ? id->context : NULL;
}

const char *
rdmadev_ibcm_id_state(const struct rdmadev_ibcm_id *id)
{
	if (id == NULL || (unsigned int)id->state >= ST_NB)
		return "UNKNOWN";
	return cm_state_names[id->state];
}

void
rdmadev_ibcm_stats_get(const struct rdmadev_ibcm *cm, struct rdmadev_ibcm_stats *st)
{
	if (cm != NULL && st != NULL)
		*st = cm->st;
}

void
rdmadev_ibcm_set_tx_hook(struct rdmadev_ibcm *cm, void (*fn)(void *arg, const uint8_t *mad),
			 void *arg)
{
	if (cm == NULL)
		return;
	cm->hook = fn;
	cm->hook_arg = arg;
}

/* ---- events ---- */

static struct rdmadev_ibcm_event *
cm_event(struct rdmadev_ibcm *cm, enum rdmadev_ibcm_event_type type, struct rdmadev_ibcm_id *id)
{
	struct rdmadev_ibcm_event *ev;

	if (cm->ev_tail - cm->ev_head >= CM_EVENTS) {
		RDMADEV_LOG(WARNING, "ibcm: event queue full, event %d of id %u lost", type,
			    id != NULL ? id->local_id : 0);
		return NULL;
	}
	ev = &cm->ev[cm->ev_tail++ % CM_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->id = id;
	return ev;
}

static void
cm_event_pdata(struct rdmadev_ibcm_event *ev, const uint8_t *p, unsigned int len)
{
	if (ev == NULL)
		return;
	len = RTE_MIN(len, (unsigned int)sizeof(ev->private_data));
	memcpy(ev->private_data, p, len);
	ev->private_data_len = (uint8_t)len;
}

int
rdmadev_ibcm_event_get(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_event *ev)
{
	if (cm == NULL || ev == NULL) {
		RDMADEV_LOG(ERR, "ibcm_event_get: NULL agent or event");
		return -EINVAL;
	}
	if (cm->ev_head == cm->ev_tail)
		return -EAGAIN;
	*ev = cm->ev[cm->ev_head++ % CM_EVENTS];
	return 0;
}

/* ---- sending ---- */

static bool
gid_v4(const uint8_t g[16])
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(g, pfx, 12) == 0;
}

static bool
gid_link_local(const uint8_t g[16])
{
	return g[0] == 0xfe && (g[1] & 0xc0) == 0x80;
}

/*
 * The GID entry to send to @p dgid from: the default one when of @p dgid's family (IPv4 or
 * IPv6), else the first IPv4-mapped one for an IPv4 peer, and for an IPv6 peer the first of
 * its scope (link-local or not), else any IPv6 one.
 */
static uint8_t
cm_sgid_for(const struct rdmadev_ibcm *cm, const uint8_t dgid[16])
{
	unsigned int i, any = CM_GIDS;

	if (gid_v4(cm->gid) == gid_v4(dgid) &&
	    (gid_v4(dgid) || gid_link_local(cm->gid) == gid_link_local(dgid)))
		return cm->sgid_index;
	for (i = 0; i < cm->n_gids; i++) {
		if (gid_v4(cm->gids[i]) != gid_v4(dgid))
			continue;
		if (gid_v4(dgid) || gid_link_local(cm->gids[i]) == gid_link_local(dgid))
			return (uint8_t)i;
		if (any == CM_GIDS)
			any = i;
	}
	return any != CM_GIDS ? (uint8_t)any : cm->sgid_index;
}

int
rdmadev_ibcm_source_gid(const struct rdmadev_ibcm *cm, const uint8_t dgid[16],
			uint8_t sgid[16])
{
	uint8_t i;

	if (cm == NULL || dgid == NULL || sgid == NULL) {
		RDMADEV_LOG(ERR, "ibcm_source_gid: NULL agent or GID");
		return -EINVAL;
	}
	i = cm_sgid_for(cm, dgid);
	memcpy(sgid, cm->gids[i], 16);
	return i;
}

int
rdmadev_ibcm_gid_index(const struct rdmadev_ibcm *cm, const uint8_t gid[16])
{
	unsigned int i;

	if (cm == NULL || gid == NULL)
		return -EINVAL;
	for (i = 0; i < cm->n_gids; i++)
		if (memcmp(cm->gids[i], gid, 16) == 0)
			return (int)i;
	return -ENOENT;
}

static struct rdmadev_ah *
cm_ah(struct rdmadev_ibcm *cm, uint8_t sgid, const uint8_t dgid[16], const uint8_t dmac[6])
{
	struct rdmadev_ah_attr a;
	unsigned int i, free_i = CM_AHS;

	for (i = 0; i < CM_AHS; i++) {
		if (cm->ahs[i].ah == NULL) {
			if (free_i == CM_AHS)
				free_i = i;
			continue;
		}
		if (cm->ahs[i].sgid == sgid && memcmp(cm->ahs[i].dgid, dgid, 16) == 0 &&
		    memcmp(cm->ahs[i].dmac, dmac, 6) == 0)
			return cm->ahs[i].ah;
	}
	if (free_i == CM_AHS) {
		/* Full: replace the first (its ids resolve it again on their next send). */
		free_i = 0;
		rdmadev_ah_destroy(cm->ahs[0].ah);
		cm->ahs[0].ah = NULL;
	}
	memset(&a, 0, sizeof(a));
	memcpy(a.dgid, dgid, 16);
	memcpy(a.dmac, dmac, 6);
	a.sgid_index = sgid;
	a.hop_limit = 64;
	a.vlan_id = 0xffff;
	a.port_num = 1;
	if (rdmadev_ah_create(cm->pd, &a, &cm->ahs[free_i].ah) != 0) {
		RDMADEV_LOG(ERR, "ibcm: no address handle toward the peer's QP 1");
		cm->ahs[free_i].ah = NULL;
		return NULL;
	}
	cm->ahs[free_i].sgid = sgid;
	memcpy(cm->ahs[free_i].dgid, dgid, 16);
	memcpy(cm->ahs[free_i].dmac, dmac, 6);
	return cm->ahs[free_i].ah;
}

static void cm_reap(struct rdmadev_ibcm *cm);

/*
 * Send one MAD to the peer @p dgid / @p dmac (its QP 1) from GID entry @p sgid (negative:
 * the one cm_sgid_for picks). 0 or a negative errno.
 */
static int
cm_send(struct rdmadev_ibcm *cm, int sgid, const uint8_t dgid[16], const uint8_t dmac[6],
	const uint8_t *mad)
{
	struct rdmadev_send_wr wr;
	struct rdmadev_sge sge;
	struct rdmadev_ah *ah;
	unsigned int slot, attr;
	uint8_t *b;
	int err = 0;

	if (cm->send_busy == UINT32_MAX)
		cm_reap(cm);
	if (cm->send_busy == UINT32_MAX) {
		RDMADEV_LOG(WARNING, "ibcm: every send slot busy, MAD not sent (retries cover it)");
		return -ENOBUFS;
	}
	ah = cm_ah(cm, sgid >= 0 ? (uint8_t)sgid : cm_sgid_for(cm, dgid), dgid, dmac);
	if (ah == NULL)
		return -ENOMEM;
	slot = (unsigned int)__builtin_ctz(~cm->send_busy);
	b = cm->buf + (CM_RECVS + slot) * CM_SLOT;
	memcpy(b, mad, RDMADEV_IBCM_MAD_LEN);
	sge.addr = (uint64_t)(uintptr_t)b;
	sge.length = RDMADEV_IBCM_MAD_LEN;
	sge.lkey = rdmadev_mr_lkey(cm->mr);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = CM_SEND_TAG | slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RDMADEV_WR_SEND;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.ud.ah = ah;
	wr.ud.remote_qpn = RDMADEV_GSI_QPN;
	wr.ud.remote_qkey = RDMADEV_GSI_QKEY;
	if (rdmadev_post_send(cm->qp, &wr, 1, &err) != 1) {
		RDMADEV_LOG(ERR, "ibcm: GSI post_send failed: %s", strerror(-err));
		return err != 0 ? err : -EIO;
	}
	cm->send_busy |= RTE_BIT32(slot);
	attr = (unsigned int)get_be(mad + 16, 2) - RDMADEV_IBCM_ATTR_REQ;
	if (attr < RTE_DIM(cm->st.tx))
		cm->st.tx[attr]++;
	if (cm->hook != NULL)
		cm->hook(cm->hook_arg, mad);
	return 0;
}

/* The common MAD header. */
static void
cm_hdr(uint8_t *mad, uint16_t attr, uint64_t tid)
{
	memset(mad, 0, RDMADEV_IBCM_MAD_LEN);
	mad[0] = 1;				/* BaseVersion */
	mad[1] = RDMADEV_IBCM_MGMT_CLASS;
	mad[2] = RDMADEV_IBCM_CLASS_VERSION;
	mad[3] = 0x03;				/* Method: Send */
	put_be(mad + 8, tid, 8);
	put_be(mad + 16, attr, 2);
}

static int
cm_send_id(struct rdmadev_ibcm_id *id, const uint8_t *mad)
{
	return cm_send(id->cm, id->sgid, id->peer.gid, id->peer.mac, mad);
}

/* Arm the retransmission of @p mad (already sent) every @p period, @p retries times. */
static void
cm_arm(struct rdmadev_ibcm_id *id, const uint8_t *mad, uint64_t period, uint8_t retries)
{
	if (mad != id->mad)
		memcpy(id->mad, mad, RDMADEV_IBCM_MAD_LEN);
	id->armed = true;
	id->period = period;
	id->deadline = id->cm->now + period;
	id->retries_left = retries;
}

static void
cm_pdata(uint8_t *dst, const void *src, uint8_t len)
{
	if (src != NULL && len != 0)
		memcpy(dst, src, len);
}

static void
cm_send_rej(struct rdmadev_ibcm *cm, const uint8_t dgid[16], const uint8_t dmac[6],
	    uint64_t tid, uint32_t local, uint32_t remote, uint8_t msg, uint16_t reason,
	    const void *pdata, uint8_t len)
{
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];

	cm_hdr(mad, RDMADEV_IBCM_ATTR_REJ, tid);
	put_be(mad + D(0), local, 4);
	put_be(mad + D(4), remote, 4);
	mad[D(8)] = (uint8_t)(msg << 6);	/* Message REJected */
	put_be(mad + D(10), reason, 2);
	cm_pdata(mad + D(84), pdata, len);
	(void)cm_send(cm, -1, dgid, dmac, mad);
}

static void
cm_send_simple(struct rdmadev_ibcm_id *id, uint16_t attr, uint64_t tid, const void *pdata,
	       uint8_t len, uint8_t *out)
{
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];

	cm_hdr(mad, attr, tid);
	put_be(mad + D(0), id->local_id, 4);
	put_be(mad + D(4), id->remote_id, 4);
	if (attr == RDMADEV_IBCM_ATTR_DREQ) {
		put_be(mad + D(8), id->peer.qpn, 3);
		cm_pdata(mad + D(12), pdata, len);
	} else {
		cm_pdata(mad + D(8), pdata, len);
	}
	if (out != NULL)
		memcpy(out, mad, sizeof(mad));
	(void)cm_send_id(id, mad);
}

static void
cm_send_mra(struct rdmadev_ibcm_id *id)
{
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];

	cm_hdr(mad, RDMADEV_IBCM_ATTR_MRA, id->tid);
	put_be(mad + D(0), id->local_id, 4);
	put_be(mad + D(4), id->remote_id, 4);
	mad[D(8)] = 0 << 6;			/* Message MRAed: REQ */
	mad[D(9)] = (uint8_t)(id->cm->mra_timeout << 3);
	(void)cm_send_id(id, mad);
}

/* ---- ids ---- */

static uint32_t
cm_new_comm_id(struct rdmadev_ibcm *cm)
{
	struct rdmadev_ibcm_id *o;
	uint32_t v;

	for (;;) {
		v = (uint32_t)cm_rand(cm);
		if (v == 0)
			continue;
		for (o = cm->ids; o != NULL; o = o->next)
			if (o->local_id == v)
				break;
		if (o == NULL)
			return v;
	}
}

static struct rdmadev_ibcm_id *
cm_id_new(struct rdmadev_ibcm *cm, enum cm_state state)
{
	struct rdmadev_ibcm_id *id = calloc(1, sizeof(*id));

	if (id == NULL) {
		RDMADEV_LOG(ERR, "ibcm: no memory for a CM id");
		return NULL;
	}
	id->cm = cm;
	id->state = state;
	id->local_id = cm_new_comm_id(cm);
	id->next = cm->ids;
	cm->ids = id;
	return id;
}

/* The listener of @p service_id in @p state (ST_LISTEN or ST_SIDR_LISTEN), or NULL. */
static struct rdmadev_ibcm_id *
cm_listener(const struct rdmadev_ibcm *cm, enum cm_state state, uint64_t service_id)
{
	struct rdmadev_ibcm_id *l;

	for (l = cm->ids; l != NULL; l = l->next)
		if (l->state == state && l->service_id == service_id)
			return l;
	return NULL;
}

void
rdmadev_ibcm_id_destroy(struct rdmadev_ibcm_id *id)
{
	struct rdmadev_ibcm_id **pp;
	struct rdmadev_ibcm *cm;

	if (id == NULL)
		return;
	cm = id->cm;
	for (pp = &cm->ids; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == id) {
			*pp = id->next;
			break;
		}
	}
	for (struct rdmadev_ibcm_id *o = cm->ids; o != NULL; o = o->next)
		if (o->listen == id)
			o->listen = NULL;
	/* Events still queued for it name no id any more. */
	for (unsigned int i = cm->ev_head; i != cm->ev_tail; i++) {
		if (cm->ev[i % CM_EVENTS].id == id)
			cm->ev[i % CM_EVENTS].id = NULL;
		if (cm->ev[i % CM_EVENTS].listen_id == id)
			cm->ev[i % CM_EVENTS].listen_id = NULL;
	}
	free(id);
}

static struct rdmadev_ibcm_id *
cm_find_local(struct rdmadev_ibcm *cm, uint32_t local_id)
{
	struct rdmadev_ibcm_id *id;

	for (id = cm->ids; id != NULL; id = id->next)
		if (id->state != ST_LISTEN && id->state != ST_SIDR_LISTEN &&
		    id->local_id == local_id)
			return id;
	return NULL;
}

/* ---- QP moves ---- */

static int
cm_qp_modify(struct rdmadev_qp *qp, struct rdmadev_qp_attr *a, uint32_t mask)
{
	int rc = rdmadev_qp_modify(qp, a, mask);

	if (rc != 0)
		RDMADEV_LOG(ERR, "ibcm: QP %u to %s failed: %s", rdmadev_qp_num(qp),
			    rdmadev_qp_state_name(a->qp_state), strerror(-rc));
	return rc;
}

static int
cm_qp_init(struct rdmadev_qp *qp, uint32_t access)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = access;
	return cm_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
			    RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
}

/* RTR toward the peer: its QPN and PSN, the path MTU, our responder resources. */
static int
cm_qp_rtr(struct rdmadev_ibcm_id *id, uint8_t ird)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTR;
	memcpy(a.ah_attr.dgid, id->peer.gid, 16);
	memcpy(a.ah_attr.dmac, id->peer.mac, 6);
	a.ah_attr.sgid_index = id->sgid;
	a.ah_attr.hop_limit = id->peer.hop_limit != 0 ? id->peer.hop_limit : 64;
	a.ah_attr.traffic_class = id->peer.traffic_class;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = (enum rdmadev_mtu)id->mtu;
	a.dest_qp_num = id->peer.qpn;
	/*
	 * The Starting PSN a side puts in its REQ or REP is the one it expects to receive
	 * (ib_send_cm_req: rq_psn from the REQ; cm_req_handler: sq_psn from the REQ).
	 */
	a.rq_psn = id->psn;
	a.max_dest_rd_atomic = ird;
	a.min_rnr_timer = 12;
	return cm_qp_modify(id->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
			    RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
			    RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER);
}

static int
cm_qp_rts(struct rdmadev_ibcm_id *id, uint8_t ord, uint8_t ack_timeout, uint8_t rnr_retry)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTS;
	a.timeout = id->ack != 0 ? id->ack : ack_timeout;
	a.retry_cnt = id->retry;
	a.rnr_retry = rnr_retry;
	a.sq_psn = id->peer.starting_psn;
	a.max_rd_atomic = ord;
	return cm_qp_modify(id->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_TIMEOUT |
			    RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
			    RDMADEV_QP_MAX_QP_RD_ATOMIC);
}

static void
cm_qp_err(struct rdmadev_ibcm_id *id)
{
	struct rdmadev_qp_attr a;

	if (id->qp == NULL)
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_ERR;
	(void)cm_qp_modify(id->qp, &a, RDMADEV_QP_STATE);
}

static void
cm_timewait(struct rdmadev_ibcm_id *id)
{
	id->armed = false;
	id->state = ST_TIMEWAIT;
	/* As cm_enter_timewait: the path's packet lifetime + 1 as a time exponent. */
	id->tw_deadline = id->cm->now + rdmadev_ibcm_time_ns((uint8_t)RTE_MIN(id->life + 1, 31));
}

/* ---- listen / connect / accept / reject / disconnect ---- */

int
rdmadev_ibcm_listen(struct rdmadev_ibcm *cm, uint64_t service_id, struct rdmadev_ibcm_id **out)
{
	struct rdmadev_ibcm_id *id;

	if (cm == NULL || out == NULL) {
		RDMADEV_LOG(ERR, "ibcm_listen: NULL agent or output");
		return -EINVAL;
	}
	if (cm_listener(cm, ST_LISTEN, service_id) != NULL) {
		RDMADEV_LOG(ERR, "ibcm_listen: service id 0x%016" PRIx64 " has a listener",
			    service_id);
		return -EADDRINUSE;
	}
	id = cm_id_new(cm, ST_LISTEN);
	if (id == NULL)
		return -ENOMEM;
	id->service_id = service_id;
	*out = id;
	return 0;
}

int
rdmadev_ibcm_set_backlog(struct rdmadev_ibcm_id *l, unsigned int backlog)
{
	if (l == NULL || (l->state != ST_LISTEN && l->state != ST_SIDR_LISTEN)) {
		RDMADEV_LOG(ERR, "ibcm_set_backlog: %s", l == NULL ? "NULL id" : "not a listener");
		return -EINVAL;
	}
	l->backlog = backlog;
	return 0;
}

/* REQs of listener @p l not answered yet (accept or reject). */
static unsigned int
cm_pending(const struct rdmadev_ibcm *cm, const struct rdmadev_ibcm_id *l)
{
	const struct rdmadev_ibcm_id *id;
	unsigned int n = 0;

	for (id = cm->ids; id != NULL; id = id->next)
		if (id->listen == l && (id->state == ST_REQ_RCVD || id->state == ST_MRA_REQ_SENT ||
					id->state == ST_SIDR_REQ_RCVD))
			n++;
	return n;
}

int
rdmadev_ibcm_sidr_listen(struct rdmadev_ibcm *cm, uint64_t service_id, uint32_t qpn,
			 uint32_t qkey, struct rdmadev_ibcm_id **out)
{
	struct rdmadev_ibcm_id *id;

	if (cm == NULL || out == NULL || qpn > 0xffffffu) {
		RDMADEV_LOG(ERR, "ibcm_sidr_listen: NULL agent or output, or QPN 0x%x above 24 bits",
			    qpn);
		return -EINVAL;
	}
	if (cm_listener(cm, ST_SIDR_LISTEN, service_id) != NULL) {
		RDMADEV_LOG(ERR, "ibcm_sidr_listen: service id 0x%016" PRIx64 " is served",
			    service_id);
		return -EADDRINUSE;
	}
	id = cm_id_new(cm, ST_SIDR_LISTEN);
	if (id == NULL)
		return -ENOMEM;
	id->service_id = service_id;
	id->ud_qpn = qpn;
	id->ud_qkey = qkey;
	*out = id;
	return 0;
}

int
rdmadev_ibcm_sidr_req(struct rdmadev_ibcm *cm, uint64_t service_id, const uint8_t dgid[16],
		      const uint8_t dmac[6], const void *pdata, uint8_t len, uint64_t now_ns,
		      struct rdmadev_ibcm_id **out)
{
	struct rdmadev_ibcm_id *id;
	uint8_t *m;
	int rc;

	if (cm == NULL || out == NULL || dgid == NULL || dmac == NULL ||
	    len > RDMADEV_IBCM_SIDR_REQ_PDATA || (len != 0 && pdata == NULL)) {
		RDMADEV_LOG(ERR, "ibcm_sidr_req: NULL argument or %u private data bytes (room %u)",
			    len, RDMADEV_IBCM_SIDR_REQ_PDATA);
		return -EINVAL;
	}
	cm->now = now_ns > cm->now ? now_ns : cm->now;
	id = cm_id_new(cm, ST_SIDR_REQ_SENT);
	if (id == NULL)
		return -ENOMEM;
	id->service_id = service_id;
	memcpy(id->peer.gid, dgid, 16);
	memcpy(id->peer.mac, dmac, 6);
	id->sgid = cm_sgid_for(cm, dgid);
	id->peer.service_id = service_id;
	id->tid = (uint64_t)cm->tid_next++ << 32 | id->local_id;
	m = id->mad;
	cm_hdr(m, RDMADEV_IBCM_ATTR_SIDR_REQ, id->tid);
	put_be(m + D(0), id->local_id, 4);		/* Request ID */
	put_be(m + D(4), 0xffff, 2);			/* P_Key */
	put_be(m + D(8), service_id, 8);
	if (len != 0)
		memcpy(m + D(16), pdata, len);
	rc = cm_send_id(id, m);
	if (rc != 0 && rc != -ENOBUFS) {
		rdmadev_ibcm_id_destroy(id);
		return rc;
	}
	cm_arm(id, m, rdmadev_ibcm_time_ns(20), 15);
	*out = id;
	return 0;
}

int
rdmadev_ibcm_sidr_listen_events(struct rdmadev_ibcm *cm, uint64_t service_id,
				struct rdmadev_ibcm_id **out)
{
	int rc = rdmadev_ibcm_sidr_listen(cm, service_id, 0, 0, out);

	if (rc == 0)
		(*out)->sidr_events = true;
	return rc;
}

int
rdmadev_ibcm_sidr_reply(struct rdmadev_ibcm_id *id, uint8_t status, uint32_t qpn,
			uint32_t qkey, const void *pdata, uint8_t len)
{
	uint8_t *m;

	if (id == NULL || id->state != ST_SIDR_REQ_RCVD || qpn > 0xffffffu ||
	    len > RDMADEV_IBCM_SIDR_REP_PDATA || (len != 0 && pdata == NULL)) {
		RDMADEV_LOG(ERR, "ibcm_sidr_reply: id %s holds no SIDR_REQ, QPN 0x%x above 24 bits "
			    "or %u private data bytes (room %u)", rdmadev_ibcm_id_state(id), qpn,
			    len, RDMADEV_IBCM_SIDR_REP_PDATA);
		return -EINVAL;
	}
	m = id->mad;
	cm_hdr(m, RDMADEV_IBCM_ATTR_SIDR_REP, id->tid);
	put_be(m + D(0), id->remote_id, 4);		/* Request ID */
	m[D(4)] = status;
	put_be(m + D(8), status == RDMADEV_IBCM_SIDR_SUCCESS ? qpn : 0, 3);
	put_be(m + D(12), id->service_id, 8);
	put_be(m + D(20), status == RDMADEV_IBCM_SIDR_SUCCESS ? qkey : 0, 4);
	cm_pdata(m + D(96), pdata, len);
	id->state = ST_SIDR_REP_SENT;
	return cm_send_id(id, m);
}

/* A SIDR_REQ for a listener whose application answers: an id and an event. */
static void
cm_rx_sidr_req_ev(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *l, const uint8_t *m,
		  const uint8_t sgid[16], const uint8_t smac[6])
{
	uint32_t rid = (uint32_t)get_be(m + D(0), 4);
	struct rdmadev_ibcm_event *ev;
	struct rdmadev_ibcm_id *id;

	for (id = cm->ids; id != NULL; id = id->next) {
		if ((id->state != ST_SIDR_REQ_RCVD && id->state != ST_SIDR_REP_SENT) ||
		    id->remote_id != rid || memcmp(id->peer.gid, sgid, 16) != 0)
			continue;
		/* A retransmission: nothing while the application decides, else the answer. */
		cm->st.duplicates++;
		if (id->state == ST_SIDR_REP_SENT)
			(void)cm_send_id(id, id->mad);
		return;
	}
	if ((l->backlog != 0 && cm_pending(cm, l) >= l->backlog) ||
	    cm->ev_tail - cm->ev_head >= CM_EVENTS) {
		cm->st.backlog_drops++;
		return;
	}
	id = cm_id_new(cm, ST_SIDR_REQ_RCVD);
	if (id == NULL)
		return;
	id->listen = l;
	id->service_id = l->service_id;
	id->remote_id = rid;
	id->tid = get_be(m + 8, 8);
	memcpy(id->peer.gid, sgid, 16);
	memcpy(id->peer.mac, smac, 6);
	id->peer.service_id = l->service_id;
	id->sgid = cm_sgid_for(cm, sgid);
	ev = cm_event(cm, RDMADEV_IBCM_EV_SIDR_REQ_RECEIVED, id);
	ev->listen_id = l;
	ev->peer = id->peer;
	cm_event_pdata(ev, m + D(16), RDMADEV_IBCM_SIDR_REQ_PDATA);
}

/* A SIDR_REQ: answered at once, by the service's listener or with "unsupported". */
static void
cm_rx_sidr_req(struct rdmadev_ibcm *cm, const uint8_t *m, const uint8_t sgid[16],
	       const uint8_t smac[6])
{
	uint64_t sid = get_be(m + D(8), 8);
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];
	struct rdmadev_ibcm_id *l;

	l = cm_listener(cm, ST_SIDR_LISTEN, sid);
	if (l != NULL && l->sidr_events) {
		cm_rx_sidr_req_ev(cm, l, m, sgid, smac);
		return;
	}
	cm_hdr(mad, RDMADEV_IBCM_ATTR_SIDR_REP, get_be(m + 8, 8));
	memcpy(mad + D(0), m + D(0), 4);		/* Request ID */
	mad[D(4)] = l != NULL ? RDMADEV_IBCM_SIDR_SUCCESS : RDMADEV_IBCM_SIDR_UNSUPPORTED;
	put_be(mad + D(12), sid, 8);
	if (l != NULL) {
		put_be(mad + D(8), l->ud_qpn, 3);
		put_be(mad + D(20), l->ud_qkey, 4);
	}
	(void)cm_send(cm, -1, sgid, smac, mad);
}

/* A SIDR_REP: the answer to one of our SIDR_REQs (a duplicate one is dropped). */
static void
cm_rx_sidr_rep(struct rdmadev_ibcm *cm, const uint8_t *m)
{
	struct rdmadev_ibcm_id *id = cm_find_local(cm, (uint32_t)get_be(m + D(0), 4));
	struct rdmadev_ibcm_event *ev;

	if (id == NULL || id->state != ST_SIDR_REQ_SENT || get_be(m + 8, 8) != id->tid ||
	    get_be(m + D(12), 8) != id->service_id) {
		cm->st.rx_dropped++;
		return;
	}
	id->armed = false;
	id->state = ST_IDLE;
	ev = cm_event(cm, RDMADEV_IBCM_EV_SIDR_REP_RECEIVED, id);
	if (ev == NULL)
		return;
	ev->sidr_status = m[D(4)];
	ev->peer = id->peer;
	ev->peer.qpn = (uint32_t)get_be(m + D(8), 3);
	ev->sidr_qkey = (uint32_t)get_be(m + D(20), 4);
	cm_event_pdata(ev, m + D(96), RDMADEV_IBCM_SIDR_REP_PDATA);
}

static int
cm_check_param(const struct rdmadev_ibcm_conn_param *p, unsigned int room, const char *what)
{
	if (p == NULL || p->qp == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL parameters or QP", what);
		return -EINVAL;
	}
	if (p->private_data_len > room || (p->private_data_len != 0 && p->private_data == NULL)) {
		RDMADEV_LOG(ERR, "%s: %u private data bytes, the message has room for %u", what,
			    p->private_data_len, room);
		return -EINVAL;
	}
	if (p->retry_count > 7 || p->rnr_retry_count > 7 || p->max_cm_retries > 15 ||
	    p->path_mtu > RDMADEV_MTU_4096 || p->packet_life_time > 30 ||
	    p->local_cm_response_timeout > 31 || p->remote_cm_response_timeout > 31) {
		RDMADEV_LOG(ERR, "%s: retry %u / rnr_retry %u (0..7), cm retries %u (0..15), MTU %u,"
			    " lifetime %u or CM response timeouts %u/%u out of range", what,
			    p->retry_count, p->rnr_retry_count, p->max_cm_retries, p->path_mtu,
			    p->packet_life_time, p->local_cm_response_timeout,
			    p->remote_cm_response_timeout);
		return -EINVAL;
	}
	return 0;
}

int
rdmadev_ibcm_connect(struct rdmadev_ibcm *cm, const struct rdmadev_ibcm_conn_param *p,
		     uint64_t now_ns, struct rdmadev_ibcm_id **out)
{
	struct rdmadev_ibcm_id *id;
	uint8_t *m;
	int rc;

	if (cm == NULL || out == NULL) {
		RDMADEV_LOG(ERR, "ibcm_connect: NULL agent or output");
		return -EINVAL;
	}
	rc = cm_check_param(p, RDMADEV_IBCM_REQ_PDATA, "ibcm_connect");
	if (rc != 0)
		return rc;
	cm->now = now_ns;
	id = cm_id_new(cm, ST_REQ_SENT);
	if (id == NULL)
		return -ENOMEM;
	id->qp = p->qp;
	id->service_id = p->service_id;
	memcpy(id->peer.gid, p->dgid, 16);
	memcpy(id->peer.mac, p->dmac, 6);
	id->sgid = cm_sgid_for(cm, p->dgid);
	id->peer.hop_limit = 64;
	id->psn = (uint32_t)cm_rand(cm) & 0xffffffu;
	id->rr = (uint8_t)RTE_MIN(p->responder_resources, cm->max_ird);
	id->id = (uint8_t)RTE_MIN(p->initiator_depth, cm->max_ord);
	id->retry = p->retry_count;
	id->rnr_retry = p->rnr_retry_count;
	id->ack = (uint8_t)RTE_MIN(p->ack_timeout, 31);
	/* The path MTU: the caller's (a route's) if given, never above the port's active one. */
	id->mtu = p->path_mtu != 0 ? (uint8_t)RTE_MIN(p->path_mtu, cm->active_mtu) :
				     cm->active_mtu;
	id->life = p->packet_life_time != 0 ? p->packet_life_time : 16;
	id->lcrt = p->local_cm_response_timeout != 0 ? p->local_cm_response_timeout : 20;
	id->rcrt = p->remote_cm_response_timeout != 0 ? p->remote_cm_response_timeout : 20;
	id->max_retries = p->max_cm_retries != 0 ? p->max_cm_retries : 15;
	id->tid = (uint64_t)cm->tid_next++ << 32 | id->local_id;
	rc = cm_qp_init(p->qp, p->qp_access);
	if (rc != 0) {
		rdmadev_ibcm_id_destroy(id);
		return rc;
	}
	m = id->mad;
	cm_hdr(m, RDMADEV_IBCM_ATTR_REQ, id->tid);
	put_be(m + D(0), id->local_id, 4);
	put_be(m + D(8), id->service_id, 8);
	put_be(m + D(16), cm->guid, 8);
	put_be(m + D(28), 0, 4);				/* Local Q_Key: RC */
	put_be(m + D(32), rdmadev_qp_num(p->qp), 3);
	m[D(35)] = id->rr;
	m[D(39)] = id->id;
	/* Remote CM Response Timeout, Transport Service Type RC (0), End-to-End Flow Control */
	m[D(43)] = (uint8_t)(id->rcrt << 3 | 0 << 1 | 1);
	put_be(m + D(44), id->psn, 3);
	m[D(47)] = (uint8_t)(id->lcrt << 3 | id->retry);
	put_be(m + D(48), 0xffff, 2);				/* P_Key */
	m[D(50)] = (uint8_t)(id->mtu << 4 | id->rnr_retry);	/* MTU, RDC 0, RNR Retry */
	m[D(51)] = (uint8_t)(id->max_retries << 4);		/* Max CM Retries, SRQ 0 */
	put_be(m + D(52), 0xffff, 2);				/* LIDs: permissive (RoCE) */
	put_be(m + D(54), 0xffff, 2);
	memcpy(m + D(56), cm->gids[id->sgid], 16);
	memcpy(m + D(72), id->peer.gid, 16);
	m[D(93)] = 64;						/* Hop Limit */
	m[D(94)] = 0;						/* SL 0, Subnet Local 0 */
	m[D(95)] = (uint8_t)(RTE_MIN(id->life + 1, 31) << 3);	/* Local ACK Timeout */
	cm_pdata(m + D(140), p->private_data, p->private_data_len);
	rc = cm_send_id(id, m);
	if (rc != 0 && rc != -ENOBUFS) {
		rdmadev_ibcm_id_destroy(id);
		return rc;
	}
	/* REQ timeout: twice the packet lifetime plus the peer's CM response time. */
	cm_arm(id, m, 2 * rdmadev_ibcm_time_ns(id->life) + rdmadev_ibcm_time_ns(id->rcrt),
	       id->max_retries);
	*out = id;
	return 0;
}

int
rdmadev_ibcm_accept(struct rdmadev_ibcm_id *id, const struct rdmadev_ibcm_conn_param *p,
		    uint64_t now_ns)
{
	uint8_t mad[RDMADEV_IBCM_MAD_LEN];
	int rc;

	if (id == NULL || (id->state != ST_REQ_RCVD && id->state != ST_MRA_REQ_SENT)) {
		RDMADEV_LOG(ERR, "ibcm_accept: id %s holds no REQ", rdmadev_ibcm_id_state(id));
		return -EINVAL;
	}
	rc = cm_check_param(p, RDMADEV_IBCM_REP_PDATA, "ibcm_accept");
	if (rc != 0)
		return rc;
	id->cm->now = now_ns;
	id->qp = p->qp;
	id->ack = (uint8_t)RTE_MIN(p->ack_timeout, 31);
	if (p->path_mtu != 0)
		id->mtu = (uint8_t)RTE_MIN(id->mtu, p->path_mtu);
	id->psn = (uint32_t)cm_rand(id->cm) & 0xffffffu;
	/* Swap when consuming: our responders serve the peer's initiator depth and back. */
	id->rr = (uint8_t)RTE_MIN(RTE_MIN(p->responder_resources, id->peer.initiator_depth),
				  id->cm->max_ird);
	id->id = (uint8_t)RTE_MIN(RTE_MIN(p->initiator_depth, id->peer.responder_resources),
				  id->cm->max_ord);
	rc = cm_qp_init(p->qp, p->qp_access);
	if (rc == 0)
		rc = cm_qp_rtr(id, id->rr);
	if (rc != 0) {
		cm_qp_err(id);
		return rc;
	}
	cm_hdr(mad, RDMADEV_IBCM_ATTR_REP, id->tid);
	put_be(mad + D(0), id->local_id, 4);
	put_be(mad + D(4), id->remote_id, 4);
	put_be(mad + D(12), rdmadev_qp_num(p->qp), 3);
	put_be(mad + D(20), id->psn, 3);
	mad[D(24)] = id->rr;
	mad[D(25)] = id->id;
	mad[D(26)] = (uint8_t)(15 << 3 | 0 << 1 | 1);	/* Target ACK Delay, no failover, EEFC */
	mad[D(27)] = (uint8_t)(p->rnr_retry_count << 5);	/* RNR Retry Count, SRQ 0 */
	put_be(mad + D(28), id->cm->guid, 8);
	cm_pdata(mad + D(36), p->private_data, p->private_data_len);
	id->state = ST_REP_SENT;
	(void)cm_send_id(id, mad);
	/* The peer's Local CM Response Timeout and Max CM Retries govern the wait for RTU. */
	cm_arm(id, mad, rdmadev_ibcm_time_ns(id->lcrt), id->max_retries);
	return 0;
}

int
rdmadev_ibcm_reject(struct rdmadev_ibcm_id *id, uint16_t reason, const void *pdata,
		    uint8_t len)
{
	if (id == NULL || (id->state != ST_REQ_RCVD && id->state != ST_MRA_REQ_SENT)) {
		RDMADEV_LOG(ERR, "ibcm_reject: id %s holds no REQ", rdmadev_ibcm_id_state(id));
		return -EINVAL;
	}
	if (len > RDMADEV_IBCM_REJ_PDATA || (len != 0 && pdata == NULL)) {
		RDMADEV_LOG(ERR, "ibcm_reject: %u private data bytes, room for %u", len,
			    RDMADEV_IBCM_REJ_PDATA);
		return -EINVAL;
	}
	cm_send_rej(id->cm, id->peer.gid, id->peer.mac, id->tid,
		    id->state == ST_REQ_RCVD ? 0 : id->local_id, id->remote_id, 0, reason, pdata,
		    len);
	id->armed = false;
	id->state = ST_IDLE;
	return 0;
}

int
rdmadev_ibcm_disconnect(struct rdmadev_ibcm_id *id, const void *pdata, uint8_t len,
			uint64_t now_ns)
{
	if (id == NULL || (id->state != ST_ESTABLISHED && id->state != ST_REP_SENT)) {
		RDMADEV_LOG(ERR, "ibcm_disconnect: id %s is not connected",
			    rdmadev_ibcm_id_state(id));
		return -EINVAL;
	}
	if (len > RDMADEV_IBCM_DREQ_PDATA || (len != 0 && pdata == NULL)) {
		RDMADEV_LOG(ERR, "ibcm_disconnect: %u private data bytes, room for %u", len,
			    RDMADEV_IBCM_DREQ_PDATA);
		return -EINVAL;
	}
	id->cm->now = now_ns;
	cm_qp_err(id);
	id->tid = (uint64_t)id->cm->tid_next++ << 32 | id->local_id;
	cm_send_simple(id, RDMADEV_IBCM_ATTR_DREQ, id->tid, pdata, len, id->mad);
	id->state = ST_DREQ_SENT;
	cm_arm(id, id->mad, 2 * rdmadev_ibcm_time_ns(id->life) + rdmadev_ibcm_time_ns(id->rcrt),
	       id->max_retries);
	return 0;
}

/* ---- receiving ---- */

static void
cm_rx_req(struct rdmadev_ibcm *cm, const uint8_t *m, const uint8_t sgid[16], const uint8_t smac[6],
	  const struct rdmadev_wc *wc, const uint8_t *grh)
{
	uint32_t remote_id = (uint32_t)get_be(m + D(0), 4);
	uint64_t guid = get_be(m + D(16), 8);
	uint64_t sid = get_be(m + D(8), 8);
	uint64_t tid = get_be(m + 8, 8);
	struct rdmadev_ibcm_id *l, *id;
	struct rdmadev_ibcm_event *ev;
	uint16_t reason = 0;
	uint8_t mtu;

	RTE_SET_USED(wc);
	for (id = cm->ids; id != NULL; id = id->next) {
		if (id->state == ST_LISTEN || id->remote_id != remote_id ||
		    id->peer.ca_guid != guid)
			continue;
		/* A duplicate (cm_dup_req_handler): MRA again, or stale in timewait. */
		cm->st.duplicates++;
		if (id->state == ST_MRA_REQ_SENT)
			cm_send_mra(id);
		else if (id->state == ST_TIMEWAIT)
			cm_send_rej(cm, sgid, smac, tid, id->local_id, remote_id, 0,
				    RDMADEV_IBCM_REJ_STALE_CONN, NULL, 0);
		return;
	}
	for (id = cm->ids; id != NULL; id = id->next) {
		if ((id->state == ST_REP_SENT || id->state == ST_ESTABLISHED ||
		     id->state == ST_DREQ_SENT || id->state == ST_TIMEWAIT) &&
		    id->peer.ca_guid == guid && id->peer.qpn == get_be(m + D(32), 3)) {
			/* cm_match_req: that QP of that CA is still connected or in timewait. */
			cm_send_rej(cm, sgid, smac, tid, 0, remote_id, 0,
				    RDMADEV_IBCM_REJ_STALE_CONN, NULL, 0);
			return;
		}
	}
	l = cm_listener(cm, ST_LISTEN, sid);
	mtu = m[D(50)] >> 4;
	if (l == NULL)
		reason = RDMADEV_IBCM_REJ_INVALID_SERVICE_ID;
	else if (((m[D(43)] >> 1) & 3u) != 0)
		reason = RDMADEV_IBCM_REJ_INVALID_TRANSPORT;
	else if (rdmadev_ibcm_gid_index(cm, m + D(72)) < 0)
		reason = RDMADEV_IBCM_REJ_INVALID_GID;
	else if (mtu < RDMADEV_MTU_256 || mtu > cm->max_mtu)
		reason = RDMADEV_IBCM_REJ_INVALID_MTU;
	if (reason != 0) {
		/* No id (cm_issue_rej): the received comm ids swapped, ours 0. */
		cm_send_rej(cm, sgid, smac, tid, 0, remote_id, 0, reason, NULL, 0);
		return;
	}
	if ((l->backlog != 0 && cm_pending(cm, l) >= l->backlog) ||
	    cm->ev_tail - cm->ev_head >= CM_EVENTS) {
		/*
		 * The backlog is full (or no room for the event): drop it, no MRA and no REJ,
		 * so that the peer's retransmission may find room (cm_destroy_id's -ENOMEM
		 * case, ucma's backlog).
		 */
		cm->st.backlog_drops++;
		return;
	}
	id = cm_id_new(cm, ST_REQ_RCVD);
	if (id == NULL) {
		cm_send_rej(cm, sgid, smac, tid, 0, remote_id, 0, RDMADEV_IBCM_REJ_NO_RESOURCES,
			    NULL, 0);
		return;
	}
	id->service_id = sid;
	id->listen = l;
	id->sgid = (uint8_t)rdmadev_ibcm_gid_index(cm, m + D(72));
	id->remote_id = remote_id;
	id->tid = tid;
	id->peer.service_id = sid;
	id->peer.ca_guid = guid;
	id->peer.comm_id = remote_id;
	id->peer.qpn = (uint32_t)get_be(m + D(32), 3);
	id->peer.responder_resources = m[D(35)];
	id->peer.initiator_depth = m[D(39)];
	id->rcrt = m[D(43)] >> 3;
	id->peer.starting_psn = (uint32_t)get_be(m + D(44), 3);
	id->lcrt = m[D(47)] >> 3;
	id->retry = m[D(47)] & 7u;
	id->peer.retry_count = id->retry;
	/*
	 * The path MTU both QPs use: the REQ's, as Linux's cm_format_paths_from_req takes it,
	 * but never above this port's active MTU (a peer on a larger-MTU link may offer more).
	 */
	id->mtu = (uint8_t)RTE_MIN(mtu, cm->active_mtu);
	id->peer.path_mtu = mtu;
	id->peer.rnr_retry_count = m[D(50)] & 7u;
	id->rnr_retry = id->peer.rnr_retry_count;
	id->max_retries = m[D(51)] >> 4;
	/* The peer's GID is its Primary Local Port GID; the replies go where the MAD came from. */
	memcpy(id->peer.gid, m + D(56), 16);
	memcpy(id->peer.mac, smac, 6);
	id->peer.local_ack_timeout = m[D(95)] >> 3;
	id->life = id->peer.local_ack_timeout > 0 ? id->peer.local_ack_timeout - 1 : 0;
	/* hop limit / traffic class of the received packet */
	if ((grh[0] >> 4) == 6) {
		id->peer.hop_limit = grh[7];
		id->peer.traffic_class = (uint8_t)((grh[0] & 0xfu) << 4 | grh[1] >> 4);
	} else {
		id->peer.hop_limit = grh[20 + 8];
		id->peer.traffic_class = grh[20 + 1];
	}
	if (memcmp(sgid, id->peer.gid, 16) != 0)
		/* Not where the MAD came from: reply to the packet's source. */
		memcpy(id->peer.gid, sgid, 16);
	ev = cm_event(cm, RDMADEV_IBCM_EV_REQ_RECEIVED, id);
	if (ev != NULL) {
		ev->listen_id = l;
		ev->peer = id->peer;
		cm_event_pdata(ev, m + D(140), RDMADEV_IBCM_REQ_PDATA);
	}
	if (!cm->no_mra) {
		/* The application answers later (as librdmacm users always do): MRA now. */
		cm_send_mra(id);
		id->state = ST_MRA_REQ_SENT;
	}
}

static void
cm_rx_rep(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;
	uint8_t ord, rnr;

	if (id->state == ST_ESTABLISHED) {
		/* Our RTU was lost: the peer repeats its REP. */
		cm->st.duplicates++;
		cm_send_simple(id, RDMADEV_IBCM_ATTR_RTU, id->tid, NULL, 0, NULL);
		return;
	}
	if (id->state != ST_REQ_SENT && id->state != ST_MRA_REP_RCVD) {
		cm->st.rx_dropped++;
		return;
	}
	id->armed = false;
	id->remote_id = (uint32_t)get_be(m + D(0), 4);
	id->peer.comm_id = id->remote_id;
	id->peer.qpn = (uint32_t)get_be(m + D(12), 3);
	id->peer.starting_psn = (uint32_t)get_be(m + D(20), 3);
	id->peer.responder_resources = m[D(24)];
	id->peer.initiator_depth = m[D(25)];
	id->peer.rnr_retry_count = m[D(27)] >> 5;
	id->peer.ca_guid = get_be(m + D(28), 8);
	id->peer.path_mtu = id->mtu;
	id->peer.retry_count = id->retry;
	ord = (uint8_t)RTE_MIN(id->id, id->peer.responder_resources);
	rnr = id->peer.rnr_retry_count;
	if (cm_qp_rtr(id, id->rr) != 0 ||
	    cm_qp_rts(id, ord, (uint8_t)RTE_MIN(id->life + 1, 31), rnr) != 0) {
		/* As cma_rep_recv: the QP to ERR, REJ consumer-defined. */
		cm_qp_err(id);
		cm_send_rej(cm, id->peer.gid, id->peer.mac, id->tid, id->local_id, id->remote_id,
			    1, RDMADEV_IBCM_REJ_CONSUMER, NULL, 0);
		id->state = ST_IDLE;
		ev = cm_event(cm, RDMADEV_IBCM_EV_REJ_RECEIVED, id);
		if (ev != NULL)
			ev->rej_reason = RDMADEV_IBCM_REJ_CONSUMER;
		return;
	}
	cm_send_simple(id, RDMADEV_IBCM_ATTR_RTU, id->tid, NULL, 0, NULL);
	id->state = ST_ESTABLISHED;
	ev = cm_event(cm, RDMADEV_IBCM_EV_REP_RECEIVED, id);
	if (ev != NULL) {
		ev->peer = id->peer;
		cm_event_pdata(ev, m + D(36), RDMADEV_IBCM_REP_PDATA);
	}
}

static void
cm_rx_rtu(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;

	if (id->state != ST_REP_SENT) {
		cm->st.duplicates++;
		return;
	}
	id->armed = false;
	if (cm_qp_rts(id, id->id, (uint8_t)RTE_MIN(id->peer.local_ack_timeout, 31),
		      id->rnr_retry) != 0) {
		cm_qp_err(id);
		id->state = ST_IDLE;
		return;
	}
	id->state = ST_ESTABLISHED;
	ev = cm_event(cm, RDMADEV_IBCM_EV_ESTABLISHED, id);
	cm_event_pdata(ev, m + D(8), RDMADEV_IBCM_RTU_PDATA);
}

static void
cm_rx_rej(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;

	if (id->state != ST_REQ_SENT && id->state != ST_MRA_REP_RCVD && id->state != ST_REP_SENT) {
		cm->st.rx_dropped++;
		return;
	}
	id->armed = false;
	cm_qp_err(id);
	id->state = ST_IDLE;
	ev = cm_event(cm, RDMADEV_IBCM_EV_REJ_RECEIVED, id);
	if (ev != NULL) {
		ev->rej_reason = (uint16_t)get_be(m + D(10), 2);
		cm_event_pdata(ev, m + D(84), RDMADEV_IBCM_REJ_PDATA);
	}
}

static void
cm_rx_mra(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;
	uint8_t st = m[D(9)] >> 3;

	if ((m[D(8)] >> 6) != 0 || id->state != ST_REQ_SENT) {
		cm->st.duplicates++;
		return;
	}
	/* Stop resending the REQ; wait the service timeout plus the path's lifetime instead. */
	id->state = ST_MRA_REP_RCVD;
	id->deadline = cm->now + rdmadev_ibcm_time_ns(st) +
		       rdmadev_ibcm_time_ns((uint8_t)RTE_MIN(id->life + 1, 31));
	ev = cm_event(cm, RDMADEV_IBCM_EV_MRA_RECEIVED, id);
	if (ev != NULL)
		ev->service_timeout = st;
}

static void
cm_rx_dreq(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;
	uint64_t tid = get_be(m + 8, 8);

	if (id->state == ST_TIMEWAIT) {
		/* Our DREP was lost. */
		cm->st.duplicates++;
		cm_send_simple(id, RDMADEV_IBCM_ATTR_DREP, tid, NULL, 0, NULL);
		return;
	}
	if ((id->state != ST_ESTABLISHED && id->state != ST_DREQ_SENT &&
	     id->state != ST_REP_SENT) || get_be(m + D(8), 3) != rdmadev_qp_num(id->qp)) {
		cm->st.rx_dropped++;
		return;
	}
	cm_qp_err(id);
	cm_send_simple(id, RDMADEV_IBCM_ATTR_DREP, tid, NULL, 0, NULL);
	cm_timewait(id);
	ev = cm_event(cm, RDMADEV_IBCM_EV_DREQ_RECEIVED, id);
	cm_event_pdata(ev, m + D(12), RDMADEV_IBCM_DREQ_PDATA);
}

static void
cm_rx_drep(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_id *id, const uint8_t *m)
{
	struct rdmadev_ibcm_event *ev;

	if (id->state != ST_DREQ_SENT) {
		cm->st.duplicates++;
		return;
	}
	cm_timewait(id);
	ev = cm_event(cm, RDMADEV_IBCM_EV_DREP_RECEIVED, id);
	cm_event_pdata(ev, m + D(8), RDMADEV_IBCM_DREP_PDATA);
}

/* One received MAD: @p grh is the 40-byte GRH area, the MAD follows it. */
static void
cm_rx(struct rdmadev_ibcm *cm, const struct rdmadev_wc *wc, const uint8_t *grh)
{
	const uint8_t *m = grh + CM_GRH;
	struct rdmadev_ibcm_id *id;
	uint8_t sgid[16];
	unsigned int attr;

	if (wc->byte_len < CM_GRH + RDMADEV_IBCM_MAD_LEN || m[0] != 1 ||
	    m[1] != RDMADEV_IBCM_MGMT_CLASS || m[2] != RDMADEV_IBCM_CLASS_VERSION ||
	    m[3] != 0x03) {
		cm->st.rx_dropped++;
		RDMADEV_LOG(DEBUG, "ibcm: dropped a MAD of class 0x%02x version %u method %u "
			    "(%u bytes)", m[1], m[2], m[3], wc->byte_len);
		return;
	}
	attr = (unsigned int)get_be(m + 16, 2);
	if (attr < RDMADEV_IBCM_ATTR_REQ || attr > RDMADEV_IBCM_ATTR_SIDR_REP) {
		cm->st.rx_dropped++;
		return;
	}
	cm->st.rx[attr - RDMADEV_IBCM_ATTR_REQ]++;
	/*
	 * The source: an IPv6 header fills the GRH area (version 6 in its first nibble); an
	 * IPv4 one is in its last 20 bytes, the first 20 zero.
	 */
	memset(sgid, 0, sizeof(sgid));
	if ((grh[0] >> 4) != 6) {
		sgid[10] = 0xff;
		sgid[11] = 0xff;
		memcpy(sgid + 12, grh + 20 + 12, 4);
	} else {
		memcpy(sgid, grh + 8, 16);
	}
	if (attr == RDMADEV_IBCM_ATTR_REQ) {
		cm_rx_req(cm, m, sgid, wc->smac, wc, grh);
		return;
	}
	if (attr == RDMADEV_IBCM_ATTR_SIDR_REQ) {
		cm_rx_sidr_req(cm, m, sgid, wc->smac);
		return;
	}
	if (attr == RDMADEV_IBCM_ATTR_SIDR_REP) {
		cm_rx_sidr_rep(cm, m);
		return;
	}
	/* Everything else names our comm id as its Remote Communication ID. */
	id = cm_find_local(cm, (uint32_t)get_be(m + D(4), 4));
	if (id == NULL) {
		cm->st.rx_dropped++;
		if (attr == RDMADEV_IBCM_ATTR_DREQ) {
			/* cm_issue_drep: a DREQ for a connection we no longer know. */
			uint8_t mad[RDMADEV_IBCM_MAD_LEN];

			cm_hdr(mad, RDMADEV_IBCM_ATTR_DREP, get_be(m + 8, 8));
			memcpy(mad + D(0), m + D(4), 4);
			memcpy(mad + D(4), m + D(0), 4);
			(void)cm_send(cm, -1, sgid, wc->smac, mad);
		}
		return;
	}
	if (attr != RDMADEV_IBCM_ATTR_REJ && id->remote_id != 0 &&
	    id->remote_id != get_be(m + D(0), 4)) {
		cm->st.rx_dropped++;
		return;
	}
	switch (attr) {
	case RDMADEV_IBCM_ATTR_REP:
		cm_rx_rep(cm, id, m);
		break;
	case RDMADEV_IBCM_ATTR_RTU:
		cm_rx_rtu(cm, id, m);
		break;
	case RDMADEV_IBCM_ATTR_REJ:
		cm_rx_rej(cm, id, m);
		break;
	case RDMADEV_IBCM_ATTR_MRA:
		cm_rx_mra(cm, id, m);
		break;
	case RDMADEV_IBCM_ATTR_DREQ:
		cm_rx_dreq(cm, id, m);
		break;
	case RDMADEV_IBCM_ATTR_DREP:
		cm_rx_drep(cm, id, m);
		break;
	default:
		cm->st.rx_dropped++;
		break;
	}
}

void
rdmadev_ibcm_rx_inject(struct rdmadev_ibcm *cm, const uint8_t *buf, uint32_t len,
		       const uint8_t smac[6])
{
	uint8_t b[CM_GRH + RDMADEV_IBCM_MAD_LEN];
	struct rdmadev_wc wc;

	if (cm == NULL || (buf == NULL && len != 0))
		return;
	memset(b, 0, sizeof(b));
	memset(&wc, 0, sizeof(wc));
	if (len > sizeof(b))
		len = sizeof(b);
	if (len != 0)
		memcpy(b, buf, len);
	wc.byte_len = len;
	wc.opcode = RDMADEV_WC_RECV;
	wc.wc_flags = RDMADEV_WC_GRH | RDMADEV_WC_WITH_SMAC;
	wc.src_qp = RDMADEV_GSI_QPN;
	if (smac != NULL)
		memcpy(wc.smac, smac, 6);
	cm_rx(cm, &wc, b);
}

static int
cm_post_recv(struct rdmadev_ibcm *cm, unsigned int slot)
{
	struct rdmadev_recv_wr wr;
	struct rdmadev_sge sge;
	int err = 0;

	sge.addr = (uint64_t)(uintptr_t)(cm->buf + slot * CM_SLOT);
	sge.length = CM_GRH + RDMADEV_IBCM_MAD_LEN;
	sge.lkey = rdmadev_mr_lkey(cm->mr);
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = slot;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	if (rdmadev_post_recv(cm->qp, &wr, 1, &err) != 1) {
		RDMADEV_LOG(ERR, "ibcm: GSI post_recv failed: %s", strerror(-err));
		return err != 0 ? err : -EIO;
	}
	return 0;
}

/* Poll the GSI CQ: free send slots, handle and repost receives. */
static void
cm_reap(struct rdmadev_ibcm *cm)
{
	struct rdmadev_wc wc[16];
	uint16_t n, i;

	do {
		n = rdmadev_poll_cq(cm->cq, wc, RTE_DIM(wc));
		for (i = 0; i < n; i++) {
			if (wc[i].wr_id & CM_SEND_TAG) {
				cm->send_busy &= ~RTE_BIT32(wc[i].wr_id & (CM_SENDS - 1));
				if (wc[i].status != RDMADEV_WC_SUCCESS)
					RDMADEV_LOG(WARNING, "ibcm: MAD send completed with status %u",
						    wc[i].status);
				continue;
			}
			if (wc[i].wr_id >= CM_RECVS)
				continue;
			if (wc[i].status == RDMADEV_WC_SUCCESS)
				cm_rx(cm, &wc[i], cm->buf + wc[i].wr_id * CM_SLOT);
			if (wc[i].status != RDMADEV_WC_WR_FLUSH_ERR)
				(void)cm_post_recv(cm, (unsigned int)wc[i].wr_id);
		}
	} while (n == RTE_DIM(wc));
}

static void
cm_timers(struct rdmadev_ibcm *cm)
{
	struct rdmadev_ibcm_id *id;
	struct rdmadev_ibcm_event *ev;

	for (id = cm->ids; id != NULL; id = id->next) {
		if (id->state == ST_TIMEWAIT && cm->now >= id->tw_deadline) {
			id->state = ST_IDLE;
			(void)cm_event(cm, RDMADEV_IBCM_EV_TIMEWAIT_EXIT, id);
			continue;
		}
		if (!id->armed || cm->now < id->deadline)
			continue;
		if (id->retries_left > 0) {
			id->retries_left--;
			cm->st.retries++;
			(void)cm_send_id(id, id->mad);
			id->deadline = cm->now + id->period;
			continue;
		}
		id->armed = false;
		switch (id->state) {
		case ST_REQ_SENT:
		case ST_MRA_REP_RCVD:
			cm_qp_err(id);
			id->state = ST_IDLE;
			(void)cm_event(cm, RDMADEV_IBCM_EV_REQ_ERROR, id);
			break;
		case ST_REP_SENT:
			/* As cm.c: the connection is given up with a REJ timeout. */
			cm_qp_err(id);
			cm_send_rej(cm, id->peer.gid, id->peer.mac, id->tid, id->local_id,
				    id->remote_id, 1, RDMADEV_IBCM_REJ_TIMEOUT, NULL, 0);
			id->state = ST_IDLE;
			(void)cm_event(cm, RDMADEV_IBCM_EV_REP_ERROR, id);
			break;
		case ST_SIDR_REQ_SENT:
			id->state = ST_IDLE;
			(void)cm_event(cm, RDMADEV_IBCM_EV_SIDR_REQ_ERROR, id);
			break;
		case ST_DREQ_SENT:
			cm_timewait(id);
			ev = cm_event(cm, RDMADEV_IBCM_EV_DREQ_ERROR, id);
			RTE_SET_USED(ev);
			break;
		default:
			break;
		}
	}
}

int
rdmadev_ibcm_process(struct rdmadev_ibcm *cm, uint64_t now_ns)
{
	if (cm == NULL) {
		RDMADEV_LOG(ERR, "ibcm_process: NULL agent");
		return -EINVAL;
	}
	if (now_ns > cm->now)
		cm->now = now_ns;
	cm_reap(cm);
	cm_timers(cm);
	return (int)(cm->ev_tail - cm->ev_head);
}

/* ---- open / close ---- */

void
rdmadev_ibcm_close(struct rdmadev_ibcm *cm)
{
	unsigned int i;

	if (cm == NULL)
		return;
	while (cm->ids != NULL)
		rdmadev_ibcm_id_destroy(cm->ids);
	if (cm->qp != NULL)
		rdmadev_qp_destroy(cm->qp);
	for (i = 0; i < CM_AHS; i++)
		if (cm->ahs[i].ah != NULL)
			rdmadev_ah_destroy(cm->ahs[i].ah);
	if (cm->mr != NULL)
		rdmadev_mr_dereg(cm->mr);
	if (cm->cq != NULL)
		rdmadev_cq_destroy(cm->cq);
	if (cm->pd != NULL)
		rdmadev_pd_free(cm->pd);
	rte_free(cm->buf);
	free(cm);
}

static int
cm_gsi_up(struct rdmadev_ibcm *cm)
{
	struct rdmadev_qp_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = RDMADEV_GSI_QKEY;
	rc = cm_qp_modify(cm->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
			  RDMADEV_QP_PORT | RDMADEV_QP_QKEY);
	if (rc == 0) {
		a.qp_state = RDMADEV_QPS_RTR;
		rc = cm_qp_modify(cm->qp, &a, RDMADEV_QP_STATE);
	}
	if (rc == 0) {
		a.qp_state = RDMADEV_QPS_RTS;
		a.sq_psn = 0;
		rc = cm_qp_modify(cm->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN);
	}
	return rc;
}

int
rdmadev_ibcm_open(const struct rdmadev_ibcm_conf *conf, struct rdmadev_ibcm **out)
{
	struct rdmadev_port_info port;
	struct rdmadev_qp_init_attr qa;
	struct rdmadev_cq_attr ca;
	struct rdmadev_mr_attr ma;
	struct rdmadev_info info;
	struct rdmadev_ibcm *cm;
	unsigned int i;
	size_t len;
	int rc;

	if (conf == NULL || conf->ctx == NULL || out == NULL) {
		RDMADEV_LOG(ERR, "ibcm_open: NULL configuration, context or output");
		return -EINVAL;
	}
	cm = calloc(1, sizeof(*cm));
	if (cm == NULL)
		return -ENOMEM;
	cm->ctx = conf->ctx;
	cm->dev_id = (int16_t)conf->ctx->obj.dev->dev_id;
	cm->sgid_index = conf->sgid_index;
	cm->mra_timeout = conf->mra_service_timeout != 0 ? conf->mra_service_timeout : 24;
	cm->no_mra = conf->no_mra;
	cm->rng = conf->seed != 0 ? conf->seed : 0x9e3779b97f4a7c15ull;
	cm->tid_next = (uint32_t)cm_rand(cm);
	rc = rdmadev_info_get(cm->dev_id, &info);
	if (rc == 0)
		rc = rdmadev_port_info_get(cm->dev_id, &port);
	if (rc == 0)
		rc = rdmadev_gid_get(cm->dev_id, cm->sgid_index, cm->gid);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "ibcm_open: device %d: no device, port or GID %u: %s",
			    cm->dev_id, cm->sgid_index, strerror(-rc));
		goto fail;
	}
	cm->n_gids = (uint8_t)RTE_MIN(port.gid_tbl_len, CM_GIDS);
	for (i = 0; i < cm->n_gids; i++)
		if (rdmadev_gid_get(cm->dev_id, i, cm->gids[i]) != 0)
			memset(cm->gids[i], 0, 16);
	if (cm->sgid_index >= cm->n_gids) {
		RDMADEV_LOG(ERR, "ibcm_open: GID index %u beyond the %u the agent keeps",
			    cm->sgid_index, cm->n_gids);
		rc = -EINVAL;
		goto fail;
	}
	cm->max_ird = (uint8_t)RTE_MIN(info.max_qp_rd_atom, 255u);
	cm->max_ord = (uint8_t)RTE_MIN(info.max_qp_init_rd_atom, 255u);
	cm->max_mtu = port.max_mtu != 0 ? port.max_mtu : RDMADEV_MTU_4096;
	cm->active_mtu = port.active_mtu >= RDMADEV_MTU_256 ? port.active_mtu : RDMADEV_MTU_1024;
	cm->active_mtu = (uint8_t)RTE_MIN(cm->active_mtu, cm->max_mtu);
	memcpy(cm->mac, port.mac, 6);
	if (conf->ca_guid != 0) {
		cm->guid = conf->ca_guid;
	} else {
		/* EUI-64 of the MAC, as a RoCE device's node GUID. */
		cm->guid = (uint64_t)(port.mac[0] ^ 2u) << 56 | (uint64_t)port.mac[1] << 48 |
			   (uint64_t)port.mac[2] << 40 | 0xfffeull << 24 |
			   (uint64_t)port.mac[3] << 16 | (uint64_t)port.mac[4] << 8 | port.mac[5];
	}
	len = (size_t)(CM_RECVS + CM_SENDS) * CM_SLOT;
	cm->buf = rte_zmalloc("ibcm", len, 4096);
	if (cm->buf == NULL) {
		RDMADEV_LOG(ERR, "ibcm_open: no memory for %zu MAD buffer bytes", len);
		rc = -ENOMEM;
		goto fail;
	}
	rc = rdmadev_pd_alloc(cm->ctx, &cm->pd);
	if (rc == 0) {
		memset(&ca, 0, sizeof(ca));
		ca.cqe = 2 * (CM_RECVS + CM_SENDS);
		rc = rdmadev_cq_create(cm->ctx, &ca, &cm->cq);
	}
	if (rc == 0) {
		memset(&ma, 0, sizeof(ma));
		ma.addr = cm->buf;
		ma.length = len;
		ma.iova = (uint64_t)(uintptr_t)cm->buf;
		ma.access = RDMADEV_ACCESS_LOCAL_WRITE;
		rc = rdmadev_mr_reg(cm->pd, &ma, &cm->mr);
	}
	if (rc == 0) {
		memset(&qa, 0, sizeof(qa));
		qa.pd = cm->pd;
		qa.send_cq = cm->cq;
		qa.recv_cq = cm->cq;
		qa.qp_type = RDMADEV_QPT_GSI;
		qa.cap.max_send_wr = CM_SENDS;
		qa.cap.max_recv_wr = CM_RECVS;
		qa.cap.max_send_sge = 1;
		qa.cap.max_recv_sge = 1;
		rc = rdmadev_qp_create(&qa, &cm->qp);
	}
	if (rc == 0)
		rc = cm_gsi_up(cm);
	for (i = 0; rc == 0 && i < CM_RECVS; i++)
		rc = cm_post_recv(cm, i);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "ibcm_open: device %d: GSI QP set-up failed: %s", cm->dev_id,
			    strerror(-rc));
		goto fail;
	}
	*out = cm;
	return 0;
fail:
	rdmadev_ibcm_close(cm);
	return rc;
}
