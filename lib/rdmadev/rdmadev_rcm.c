/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma_cm over the IB CM (rdmadev_rcm.h, doc/cm.md): addresses and ports become ServiceIDs
 * and the CMA header (cma.c struct cma_hdr) of the REQ; IB CM events become rdma_cm events
 * as cma.c's cma_ib_handler / cma_ib_req_handler translate them. Each id is a CM_ID object
 * (rdmadev_cm_id_create) whose dump fields this file keeps current.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_common.h>

#include "rdmadev_ibcm.h"
#include "rdmadev_private.h"
#include "rdmadev_rcm.h"

#define RCM_EVENTS	64u

struct rdmadev_rcm_id {
	struct rdmadev_rcm_channel *ch;
	struct rdmadev_rcm_id *next;
	struct rdmadev_cm_id *obj;	/* the CM_ID object */
	struct rdmadev_ibcm_id *ib;	/* listener or connection */
	union rdmadev_rcm_addr src;	/* bound / local address (AF_INET or AF_INET6) */
	union rdmadev_rcm_addr dst;	/* peer, family 0 until resolve_addr */
	uint8_t sgid_index;		/* the GID entry of src (resolve_addr) */
	uint8_t dmac[6];
	uint8_t ack_timeout;		/* rdmadev_rcm_set_ack_timeout(), 0: the path's */
	uint8_t mtu;			/* rdmadev_rcm_set_path_mtu(), 0: the port's */
	uint16_t ps;			/* port space */
	bool addr_query;		/* waiting for the neighbour's MAC */
	uint32_t addr_timeout_ms;	/* of that wait */
	uint64_t addr_deadline;		/* set by the first process after the resolve, 0 before */
	struct rdmadev_qp *qp;
};

struct rdmadev_rcm_channel {
	struct rdmadev_ctx *ctx;
	struct rdmadev_ibcm *cm;
	int fd;
	uint16_t next_port;
	struct rdmadev_rcm_id *ids;
	struct rdmadev_rcm_event ev[RCM_EVENTS];
	unsigned int head, tail;
};

/* ---- ids and their dump fields ---- */

/* The port of @p a, network order (sin_port and sin6_port share their place). */
static uint16_t
addr_port(const union rdmadev_rcm_addr *a)
{
	return a->sa.sa_family == AF_INET6 ? a->sin6.sin6_port : a->sin.sin_port;
}

static void
addr_set_port(union rdmadev_rcm_addr *a, uint16_t port)
{
	if (a->sa.sa_family == AF_INET6)
		a->sin6.sin6_port = port;
	else
		a->sin.sin_port = port;
}

/* The GID of @p a: IPv4-mapped (::ffff:a.b.c.d) or the IPv6 address (rdma_ip2gid). */
static void
addr_gid(const union rdmadev_rcm_addr *a, uint8_t g[16])
{
	memset(g, 0, 16);
	if (a->sa.sa_family == AF_INET6) {
		memcpy(g, &a->sin6.sin6_addr, 16);
		return;
	}
	g[10] = 0xff;
	g[11] = 0xff;
	memcpy(g + 12, &a->sin.sin_addr, 4);
}

static bool
gid_is_v4(const uint8_t g[16])
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(g, pfx, 12) == 0;
}

/* @p a from GID @p g (IPv4 for an IPv4-mapped one) and @p port (network order). */
static void
addr_of_gid(union rdmadev_rcm_addr *a, const uint8_t g[16], uint16_t port)
{
	memset(a, 0, sizeof(*a));
	if (gid_is_v4(g)) {
		a->sin.sin_family = AF_INET;
		memcpy(&a->sin.sin_addr, g + 12, 4);
		a->sin.sin_port = port;
	} else {
		a->sin6.sin6_family = AF_INET6;
		memcpy(&a->sin6.sin6_addr, g, 16);
		a->sin6.sin6_port = port;
	}
}

static bool
addr_any(const union rdmadev_rcm_addr *a)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;

	return a->sa.sa_family == AF_INET6 ?
	       memcmp(&a->sin6.sin6_addr, &any6, sizeof(any6)) == 0 :
	       a->sin.sin_addr.s_addr == htonl(INADDR_ANY);
}

/* "address:port" as iproute2 prints it (IPv6 without brackets). */
static void
rcm_addr_str(char *buf, size_t len, const union rdmadev_rcm_addr *a)
{
	char ip[INET6_ADDRSTRLEN];
	const void *src = a->sa.sa_family == AF_INET6 ? (const void *)&a->sin6.sin6_addr :
			  (const void *)&a->sin.sin_addr;

	if (inet_ntop(a->sa.sa_family == AF_INET6 ? AF_INET6 : AF_INET, src, ip,
		      sizeof(ip)) == NULL)
		snprintf(ip, sizeof(ip), "?");
	snprintf(buf, len, "%s:%u", ip, ntohs(addr_port(a)));
}

/* Set the state name (cma.c's rdma_cm_state, as iproute2 prints it) and the addresses. */
static void
rcm_sync(struct rdmadev_rcm_id *id, const char *state)
{
	struct rdmadev_cm_id *o = id->obj;

	if (state != NULL)
		snprintf(o->rcm_state, sizeof(o->rcm_state), "%s", state);
	rcm_addr_str(o->src_addr, sizeof(o->src_addr), &id->src);
	if (id->dst.sa.sa_family != 0)
		rcm_addr_str(o->dst_addr, sizeof(o->dst_addr), &id->dst);
	o->qpn = id->qp != NULL ? rdmadev_qp_num(id->qp) : 0;
}

static struct rdmadev_rcm_event *
rcm_event(struct rdmadev_rcm_channel *ch, enum rdmadev_rcm_event_type type,
	  struct rdmadev_rcm_id *id)
{
	struct rdmadev_rcm_event *ev;
	uint64_t one = 1;

	if (ch->tail - ch->head >= RCM_EVENTS) {
		RDMADEV_LOG(WARNING, "rcm: event queue full, event %d lost", type);
		return NULL;
	}
	ev = &ch->ev[ch->tail++ % RCM_EVENTS];
	memset(ev, 0, sizeof(*ev));
	ev->event = type;
	ev->id = id;
	if (id != NULL) {
		ev->src = id->src;
		ev->dst = id->dst;
	}
	if (write(ch->fd, &one, sizeof(one)) != sizeof(one))
		RDMADEV_LOG(DEBUG, "rcm: eventfd write failed");
	return ev;
}

static void
rcm_event_pdata(struct rdmadev_rcm_event *ev, const uint8_t *p, unsigned int len)
{
	if (ev == NULL)
		return;
	len = RTE_MIN(len, (unsigned int)sizeof(ev->private_data));
	memcpy(ev->private_data, p, len);
	ev->private_data_len = (uint8_t)len;
}

const char *
rdmadev_rcm_event_str(enum rdmadev_rcm_event_type e)
{
	static const char *const n[] = {
		[RDMADEV_RCM_EVENT_ADDR_RESOLVED] = "ADDR_RESOLVED",
		[RDMADEV_RCM_EVENT_ROUTE_RESOLVED] = "ROUTE_RESOLVED",
		[RDMADEV_RCM_EVENT_CONNECT_REQUEST] = "CONNECT_REQUEST",
		[RDMADEV_RCM_EVENT_ESTABLISHED] = "ESTABLISHED",
		[RDMADEV_RCM_EVENT_REJECTED] = "REJECTED",
		[RDMADEV_RCM_EVENT_UNREACHABLE] = "UNREACHABLE",
		[RDMADEV_RCM_EVENT_DISCONNECTED] = "DISCONNECTED",
		[RDMADEV_RCM_EVENT_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
		[RDMADEV_RCM_EVENT_ADDR_ERROR] = "ADDR_ERROR",
	};

	return (unsigned int)e < sizeof(n) / sizeof(n[0]) ? n[e] : "UNKNOWN";
}

uint32_t
rdmadev_rcm_id_num(const struct rdmadev_rcm_id *id)
{
	return id != NULL ? rdmadev_obj_id(&id->obj->obj) : UINT32_MAX;
}

static struct rdmadev_rcm_id *
rcm_id_new(struct rdmadev_rcm_channel *ch)
{
	struct rdmadev_rcm_id *id = calloc(1, sizeof(*id));

	if (id == NULL) {
		RDMADEV_LOG(ERR, "rcm: no memory for an id");
		return NULL;
	}
	if (rdmadev_cm_id_create(ch->ctx, &id->obj) != 0) {
		free(id);
		return NULL;
	}
	id->obj->rcm = true;
	id->ch = ch;
	id->src.sin.sin_family = AF_INET;
	id->next = ch->ids;
	ch->ids = id;
	rcm_sync(id, "IDLE");
	return id;
}

static void
rcm_set_ps(struct rdmadev_rcm_id *id, uint16_t ps)
{
	id->ps = ps;
	snprintf(id->obj->rcm_ps, sizeof(id->obj->rcm_ps), "%s",
		 ps == RDMADEV_RCM_PS_UDP ? "UDP" : "TCP");
}

int
rdmadev_rcm_create_id(struct rdmadev_rcm_channel *ch, uint16_t ps, struct rdmadev_rcm_id **out)
{
	struct rdmadev_rcm_id *id;

	if (ch == NULL || out == NULL || (ps != RDMADEV_RCM_PS_TCP && ps != RDMADEV_RCM_PS_UDP)) {
		RDMADEV_LOG(ERR, "rcm_create_id: NULL channel or output, or port space 0x%x is "
			    "neither TCP (0x0106) nor UDP (0x0111)", ps);
		return -EINVAL;
	}
	id = rcm_id_new(ch);
	if (id == NULL)
		return -ENOMEM;
	rcm_set_ps(id, ps);
	*out = id;
	return 0;
}

int
rdmadev_rcm_destroy_id(struct rdmadev_rcm_id *id)
{
	struct rdmadev_rcm_channel *ch;
	struct rdmadev_rcm_id **pp;
	unsigned int i;

	if (id == NULL) {
		RDMADEV_LOG(ERR, "rcm_destroy_id: NULL id");
		return -EINVAL;
	}
	ch = id->ch;
	for (pp = &ch->ids; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == id) {
			*pp = id->next;
			break;
		}
	}
	for (i = ch->head; i != ch->tail; i++) {
		if (ch->ev[i % RCM_EVENTS].id == id)
			ch->ev[i % RCM_EVENTS].id = NULL;
		if (ch->ev[i % RCM_EVENTS].listen_id == id)
			ch->ev[i % RCM_EVENTS].listen_id = NULL;
	}
	rdmadev_ibcm_id_destroy(id->ib);
	rdmadev_cm_id_destroy(id->obj);
	free(id);
	return 0;
}

/* ---- addresses ---- */

int
rdmadev_rcm_bind_addr(struct rdmadev_rcm_id *id, const struct sockaddr *addr)
{
	union rdmadev_rcm_addr a;
	uint8_t g[16];

	if (id == NULL || addr == NULL ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)) {
		RDMADEV_LOG(ERR, "rcm_bind_addr: NULL id or address, or not AF_INET / AF_INET6");
		return -EINVAL;
	}
	memset(&a, 0, sizeof(a));
	memcpy(&a, addr, addr->sa_family == AF_INET6 ? sizeof(a.sin6) : sizeof(a.sin));
	addr_gid(&a, g);
	if (!addr_any(&a) && rdmadev_ibcm_gid_index(id->ch->cm, g) < 0) {
		RDMADEV_LOG(ERR, "rcm_bind_addr: the address is none of the device's GIDs");
		return -EADDRNOTAVAIL;
	}
	id->src = a;
	if (addr_port(&id->src) == 0)
		addr_set_port(&id->src, htons(id->ch->next_port++));
	rcm_sync(id, "ADDR_BOUND");
	return 0;
}

int
rdmadev_rcm_listen(struct rdmadev_rcm_id *id, int backlog)
{
	int rc;

	if (id == NULL || addr_port(&id->src) == 0 || id->ib != NULL) {
		RDMADEV_LOG(ERR, "rcm_listen: NULL, unbound or busy id");
		return -EINVAL;
	}
	if (id->ps == RDMADEV_RCM_PS_UDP)
		rc = rdmadev_ibcm_sidr_listen_events(id->ch->cm, RDMADEV_RCM_PS_SERVICE_ID(
						     id->ps, ntohs(addr_port(&id->src))), &id->ib);
	else
		rc = rdmadev_ibcm_listen(id->ch->cm, RDMADEV_RCM_SERVICE_ID(
					 ntohs(addr_port(&id->src))), &id->ib);
	if (rc != 0)
		return rc;
	/* As ucma: a backlog of 0 or less, or above the bound, is the bound. */
	(void)rdmadev_ibcm_set_backlog(id->ib, backlog <= 0 || backlog > RDMADEV_RCM_BACKLOG_MAX ?
				       RDMADEV_RCM_BACKLOG_MAX : (unsigned int)backlog);
	rdmadev_ibcm_id_set_context(id->ib, id);
	rcm_sync(id, "LISTEN");
	return 0;
}

/* The neighbour's MAC for @p id's destination: 0, -EAGAIN (asked), -ENOTSUP, errors. */
static int
rcm_neigh(struct rdmadev_rcm_id *id)
{
	uint8_t dgid[16];

	addr_gid(&id->dst, dgid);
	return rdmadev_neigh_resolve((int16_t)id->ch->ctx->obj.dev->dev_id, id->sgid_index, dgid,
				     id->dmac);
}

/* The end of an address query: ADDR_RESOLVED, or ADDR_ERROR with @p status. */
static void
rcm_addr_done(struct rdmadev_rcm_id *id, int status)
{
	struct rdmadev_rcm_event *ev;

	id->addr_query = false;
	rcm_sync(id, status == 0 ? "ADDR_RESOLVED" : "ADDR_BOUND");
	ev = rcm_event(id->ch, status == 0 ? RDMADEV_RCM_EVENT_ADDR_RESOLVED :
		       RDMADEV_RCM_EVENT_ADDR_ERROR, id);
	if (ev != NULL)
		ev->status = status;
}

int
rdmadev_rcm_resolve_addr(struct rdmadev_rcm_id *id, const struct sockaddr *dst,
			 const uint8_t dmac[6], uint32_t timeout_ms)
{
	static const uint8_t zero[6];
	union rdmadev_rcm_addr d;
	uint8_t dgid[16], sgid[16];
	uint16_t port;
	int rc;

	if (id == NULL || dst == NULL || (dst->sa_family != AF_INET &&
					  dst->sa_family != AF_INET6) ||
	    id->addr_query || id->ib != NULL) {
		RDMADEV_LOG(ERR, "rcm_resolve_addr: NULL id or address, not AF_INET / AF_INET6, "
			    "or the id is busy");
		return -EINVAL;
	}
	memset(&d, 0, sizeof(d));
	memcpy(&d, dst, dst->sa_family == AF_INET6 ? sizeof(d.sin6) : sizeof(d.sin));
	if (addr_port(&d) == 0 || addr_any(&d)) {
		RDMADEV_LOG(ERR, "rcm_resolve_addr: no port or no address");
		return -EINVAL;
	}
	addr_gid(&d, dgid);
	if (!addr_any(&id->src) && id->src.sa.sa_family == d.sa.sa_family) {
		/* bound to one of the device's addresses: that one */
		addr_gid(&id->src, sgid);
		rc = rdmadev_ibcm_gid_index(id->ch->cm, sgid);
	} else {
		/* the GID the CM sends from toward it (rdma_resolve_ip's source) */
		rc = rdmadev_ibcm_source_gid(id->ch->cm, dgid, sgid);
	}
	if (rc < 0 || gid_is_v4(sgid) != gid_is_v4(dgid)) {
		RDMADEV_LOG(ERR, "rcm_resolve_addr: the device has no address of the peer's "
			    "family");
		return -EADDRNOTAVAIL;
	}
	id->sgid_index = (uint8_t)rc;
	id->dst = d;
	port = addr_port(&id->src);
	addr_of_gid(&id->src, sgid, port != 0 ? port : htons(id->ch->next_port++));
	if (dmac != NULL && memcmp(dmac, zero, 6) != 0) {
		memcpy(id->dmac, dmac, 6);
		rcm_addr_done(id, 0);
		return 0;
	}
	/* As rdma_resolve_ip: the neighbour table, asked now and on every process until the
	 * answer or the timeout. */
	memset(id->dmac, 0, 6);
	rc = rcm_neigh(id);
	if (rc == 0 || rc == -ENOTSUP) {
		/* Known, or a driver without neighbours: the wire resolves when a frame goes. */
		if (rc != 0)
			memset(id->dmac, 0, 6);
		rcm_addr_done(id, 0);
		return 0;
	}
	if (rc != -EAGAIN)
		return rc;
	id->addr_query = true;
	id->addr_timeout_ms = timeout_ms != 0 ? timeout_ms : RDMADEV_RCM_RESOLVE_TIMEOUT_MS;
	id->addr_deadline = 0;
	rcm_sync(id, "ADDR_QUERY");
	return 0;
}

/* Address queries: ask again; the answer, or the timeout at @p now. */
static void
rcm_addr_poll(struct rdmadev_rcm_channel *ch, uint64_t now)
{
	struct rdmadev_rcm_id *id, *next;
	int rc;

	for (id = ch->ids; id != NULL; id = next) {
		next = id->next;
		if (!id->addr_query)
			continue;
		if (id->addr_deadline == 0)
			id->addr_deadline = now + (uint64_t)id->addr_timeout_ms * 1000000u;
		rc = rcm_neigh(id);
		if (rc == 0)
			rcm_addr_done(id, 0);
		else if (rc != -EAGAIN)
			rcm_addr_done(id, rc);
		else if (now >= id->addr_deadline)
			rcm_addr_done(id, -ETIMEDOUT);
	}
}

int
rdmadev_rcm_resolve_route(struct rdmadev_rcm_id *id)
{
	if (id == NULL || id->dst.sa.sa_family == 0 || id->addr_query) {
		RDMADEV_LOG(ERR, "rcm_resolve_route: NULL id or address not resolved");
		return -EINVAL;
	}
	rcm_sync(id, "ROUTE_RESOLVED");
	(void)rcm_event(id->ch, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, id);
	return 0;
}

/* ---- connect / accept / reject / disconnect ---- */

int
rdmadev_rcm_set_ack_timeout(struct rdmadev_rcm_id *id, uint8_t timeout)
{
	if (id == NULL || timeout > 31) {
		RDMADEV_LOG(ERR, "rcm_set_ack_timeout: %s", id == NULL ? "NULL id" :
			    "timeout exponent above 31");
		return -EINVAL;
	}
	id->ack_timeout = timeout;
	return 0;
}

int
rdmadev_rcm_set_path_mtu(struct rdmadev_rcm_id *id, uint8_t mtu)
{
	if (id == NULL || (mtu != 0 && (mtu < RDMADEV_MTU_256 || mtu > RDMADEV_MTU_4096))) {
		RDMADEV_LOG(ERR, "rcm_set_path_mtu: %s", id == NULL ? "NULL id" :
			    "not an enum rdmadev_mtu value (1 .. 5)");
		return -EINVAL;
	}
	id->mtu = mtu;
	return 0;
}

static void
rcm_param(struct rdmadev_ibcm_conn_param *cp, const struct rdmadev_rcm_id *id,
	  struct rdmadev_qp *qp, const struct rdmadev_rcm_conn_param *p)
{
	memset(cp, 0, sizeof(*cp));
	cp->qp = qp;
	cp->ack_timeout = id->ack_timeout;
	cp->qp_access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
			RDMADEV_ACCESS_REMOTE_READ;
	if (p != NULL) {
		cp->responder_resources = p->responder_resources;
		cp->initiator_depth = p->initiator_depth;
		cp->retry_count = (uint8_t)RTE_MIN(p->retry_count, 7);
		cp->rnr_retry_count = (uint8_t)RTE_MIN(p->rnr_retry_count, 7);
	}
	/* The route's MTU: the port's active one (the CM caps it), or less if the caller says. */
	cp->path_mtu = id->mtu;
}

/* A UD QP in RESET to RTS with the UDP port space's Q_Key (as librdmacm's ucma_init_ud_qp). */
static int
rcm_ud_up(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_qp_attr a;
	int rc = rdmadev_qp_query(qp, &a, &qi);

	if (rc != 0 || qi.qp_type != RDMADEV_QPT_UD) {
		RDMADEV_LOG(ERR, "rcm: a UDP id needs a UD QP");
		return rc != 0 ? rc : -EINVAL;
	}
	if (a.qp_state != RDMADEV_QPS_RESET)
		return 0;			/* the caller's */
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = RDMADEV_RCM_UDP_QKEY;
	rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
			       RDMADEV_QP_PORT | RDMADEV_QP_QKEY);
	if (rc == 0) {
		a.qp_state = RDMADEV_QPS_RTR;
		rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE);
	}
	if (rc == 0) {
		a.qp_state = RDMADEV_QPS_RTS;
		a.sq_psn = 0;
		rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN);
	}
	if (rc != 0)
		RDMADEV_LOG(ERR, "rcm: UD QP %u to RTS failed: %s", rdmadev_qp_num(qp),
			    strerror(-rc));
	return rc;
}

/* After the IB CM's connect (REQ or SIDR_REQ) returned @p rc: the id is connecting. */
static int
rcm_connecting(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp, int rc)
{
	if (rc != 0)
		return rc;
	rdmadev_ibcm_id_set_context(id->ib, id);
	id->qp = qp;
	rcm_sync(id, "CONNECT");
	return 0;
}

/* UDP connect (cma_resolve_ib_udp): a SIDR_REQ with the CMA header @p pd and the user's. */
static int
rcm_connect_ud(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp,
	       const struct rdmadev_rcm_conn_param *p, uint8_t *pd, uint64_t now_ns)
{
	uint8_t dgid[16];
	uint8_t len = RDMADEV_RCM_HDR_LEN;
	int rc = rcm_ud_up(qp);

	if (rc != 0)
		return rc;
	if (p != NULL && p->private_data_len != 0) {
		memcpy(pd + RDMADEV_RCM_HDR_LEN, p->private_data, p->private_data_len);
		len = (uint8_t)(len + p->private_data_len);
	}
	addr_gid(&id->dst, dgid);
	rc = rdmadev_ibcm_sidr_req(id->ch->cm, RDMADEV_RCM_PS_SERVICE_ID(id->ps,
				   ntohs(addr_port(&id->dst))), dgid, id->dmac, pd, len, now_ns,
				   &id->ib);
	return rcm_connecting(id, qp, rc);
}

int
rdmadev_rcm_connect(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp,
		    const struct rdmadev_rcm_conn_param *p, uint64_t now_ns)
{
	uint8_t pd[RDMADEV_IBCM_SIDR_REQ_PDATA];
	struct rdmadev_ibcm_conn_param cp;
	unsigned int room;
	uint16_t port;
	int rc;

	if (id == NULL || qp == NULL || id->dst.sa.sa_family == 0 || id->addr_query ||
	    id->ib != NULL) {
		RDMADEV_LOG(ERR, "rcm_connect: NULL id or QP, route not resolved, or id busy");
		return -EINVAL;
	}
	room = id->ps == RDMADEV_RCM_PS_UDP ? RDMADEV_RCM_UDP_CONNECT_PDATA :
					      RDMADEV_RCM_CONNECT_PDATA;
	if (p != NULL && (p->private_data_len > room ||
			  (p->private_data_len != 0 && p->private_data == NULL))) {
		RDMADEV_LOG(ERR, "rcm_connect: %u private data bytes, room for %u",
			    p->private_data_len, room);
		return -EINVAL;
	}
	/*
	 * struct cma_hdr: version 0, the IP version in the high nibble, the source port, then
	 * both addresses: IPv4 in the last 4 of their 16 bytes, IPv6 in all 16.
	 */
	memset(pd, 0, sizeof(pd));
	pd[0] = 0;
	pd[1] = (uint8_t)((id->dst.sa.sa_family == AF_INET6 ? 6 : 4) << 4);
	port = addr_port(&id->src);
	memcpy(pd + 2, &port, 2);
	if (id->dst.sa.sa_family == AF_INET6) {
		memcpy(pd + 4, &id->src.sin6.sin6_addr, 16);
		memcpy(pd + 20, &id->dst.sin6.sin6_addr, 16);
	} else {
		memcpy(pd + 4 + 12, &id->src.sin.sin_addr, 4);
		memcpy(pd + 20 + 12, &id->dst.sin.sin_addr, 4);
	}
	if (id->ps == RDMADEV_RCM_PS_UDP)
		return rcm_connect_ud(id, qp, p, pd, now_ns);
	if (p != NULL && p->private_data_len != 0)
		memcpy(pd + RDMADEV_RCM_HDR_LEN, p->private_data, p->private_data_len);
	rcm_param(&cp, id, qp, p);
	cp.service_id = RDMADEV_RCM_SERVICE_ID(ntohs(addr_port(&id->dst)));
	addr_gid(&id->dst, cp.dgid);
	memcpy(cp.dmac, id->dmac, 6);
	cp.private_data = pd;
	cp.private_data_len = (uint8_t)(RDMADEV_RCM_HDR_LEN +
					(p != NULL ? p->private_data_len : 0));
	rc = rdmadev_ibcm_connect(id->ch->cm, &cp, now_ns, &id->ib);
	return rcm_connecting(id, qp, rc);
}

int
rdmadev_rcm_accept(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp,
		   const struct rdmadev_rcm_conn_param *p, uint64_t now_ns)
{
	struct rdmadev_ibcm_conn_param cp;
	int rc;

	if (id == NULL || qp == NULL || id->ib == NULL) {
		RDMADEV_LOG(ERR, "rcm_accept: NULL id or QP, or no connect request");
		return -EINVAL;
	}
	if (id->ps == RDMADEV_RCM_PS_UDP) {
		/* cma_send_sidr_rep: the UD QP and the port space's Q_Key */
		rc = p != NULL && p->private_data_len > RDMADEV_IBCM_SIDR_REP_PDATA ? -EINVAL :
		     rcm_ud_up(qp);
		if (rc == 0)
			rc = rdmadev_ibcm_sidr_reply(id->ib, RDMADEV_IBCM_SIDR_SUCCESS,
						     rdmadev_qp_num(qp), RDMADEV_RCM_UDP_QKEY,
						     p != NULL ? p->private_data : NULL,
						     p != NULL ? p->private_data_len : 0);
		if (rc == 0) {
			id->qp = qp;
			rcm_sync(id, "CONNECT");
		}
		return rc;
	}
	rcm_param(&cp, id, qp, p);
	if (p != NULL) {
		cp.private_data = p->private_data;
		cp.private_data_len = p->private_data_len;
	}
	rc = rdmadev_ibcm_accept(id->ib, &cp, now_ns);
	if (rc != 0)
		return rc;
	id->qp = qp;
	rcm_sync(id, "CONNECT");
	return 0;
}

int
rdmadev_rcm_reject(struct rdmadev_rcm_id *id, const void *pdata, uint8_t len)
{
	if (id == NULL || id->ib == NULL) {
		RDMADEV_LOG(ERR, "rcm_reject: NULL id or no connect request");
		return -EINVAL;
	}
	if (id->ps == RDMADEV_RCM_PS_UDP)
		return rdmadev_ibcm_sidr_reply(id->ib, RDMADEV_IBCM_SIDR_REJECT, 0, 0, pdata,
					       (uint8_t)RTE_MIN(len, RDMADEV_IBCM_SIDR_REP_PDATA));
	return rdmadev_ibcm_reject(id->ib, RDMADEV_IBCM_REJ_CONSUMER, pdata, len);
}

int
rdmadev_rcm_disconnect(struct rdmadev_rcm_id *id, uint64_t now_ns)
{
	int rc;

	if (id == NULL || id->ib == NULL) {
		RDMADEV_LOG(ERR, "rcm_disconnect: NULL or unconnected id");
		return -EINVAL;
	}
	rc = rdmadev_ibcm_disconnect(id->ib, NULL, 0, now_ns);
	if (rc == 0)
		rcm_sync(id, "DISCONNECT");
	return rc;
}

/* ---- events ---- */

/* Refuse a request: REJ @p reason, or for a SIDR_REQ a SIDR_REP refusing; the id goes. */
static void
rcm_refuse(const struct rdmadev_ibcm_event *e, uint16_t reason)
{
	if (e->type == RDMADEV_IBCM_EV_SIDR_REQ_RECEIVED)
		(void)rdmadev_ibcm_sidr_reply(e->id, reason == RDMADEV_IBCM_REJ_INVALID_SERVICE_ID ?
					      RDMADEV_IBCM_SIDR_UNSUPPORTED :
					      RDMADEV_IBCM_SIDR_REJECT, 0, 0, NULL, 0);
	else
		(void)rdmadev_ibcm_reject(e->id, reason, NULL, 0);
	rdmadev_ibcm_id_destroy(e->id);
}

/*
 * A REQ (cma_ib_req_handler) or a SIDR_REQ (cma_sidr_req) on a listener: check the CMA
 * header, make the new id.
 */
static void
rcm_req(struct rdmadev_rcm_channel *ch, const struct rdmadev_ibcm_event *e)
{
	struct rdmadev_rcm_id *l = rdmadev_ibcm_id_context(e->listen_id), *id;
	const uint8_t *h = e->private_data;
	struct rdmadev_rcm_event *ev;
	union rdmadev_rcm_addr src, dst;
	uint8_t g[16];
	bool v6;

	if (l == NULL || e->private_data_len < RDMADEV_RCM_HDR_LEN || h[0] != 0 ||
	    ((h[1] >> 4) != 4 && (h[1] >> 4) != 6)) {
		RDMADEV_LOG(DEBUG, "rcm: REQ without a CMA header (version 0, IPv4 or IPv6): "
			    "rejected");
		rcm_refuse(e, RDMADEV_IBCM_REJ_CONSUMER);
		return;
	}
	/* The header's addresses (cma_save_ip_info): ours is its destination. */
	v6 = (h[1] >> 4) == 6;
	if (v6) {
		memcpy(g, h + 20, 16);
		addr_of_gid(&src, g, addr_port(&l->src));
		memcpy(g, h + 4, 16);
	} else {
		memset(g, 0, 16);
		g[10] = 0xff;
		g[11] = 0xff;
		memcpy(g + 12, h + 20 + 12, 4);
		addr_of_gid(&src, g, addr_port(&l->src));
		memcpy(g + 12, h + 4 + 12, 4);
	}
	addr_of_gid(&dst, g, 0);
	memcpy(&dst.sin.sin_port, h + 2, 2);	/* sin_port and sin6_port share their place */
	if (v6 && dst.sa.sa_family != AF_INET6)
		dst.sa.sa_family = 0;		/* an IPv4-mapped address in an IPv6 header */
	/*
	 * cma_match_private_data: an IPv4 listener takes IPv4 headers only; an IPv6 one IPv6
	 * headers, and IPv4 ones too when bound to any address (a dual-stack listener); a
	 * listener bound to an address only requests to that address.
	 */
	if (dst.sa.sa_family == 0 || (l->src.sa.sa_family == AF_INET && v6) ||
	    (l->src.sa.sa_family == AF_INET6 && !v6 && !addr_any(&l->src)) ||
	    (!addr_any(&l->src) &&
	     (l->src.sa.sa_family == AF_INET6 ?
	      memcmp(&src.sin6.sin6_addr, &l->src.sin6.sin6_addr, 16) :
	      memcmp(&src.sin.sin_addr, &l->src.sin.sin_addr, 4)) != 0)) {
		/* Bound to another address: nobody listens there. */
		rcm_refuse(e, RDMADEV_IBCM_REJ_INVALID_SERVICE_ID);
		return;
	}
	id = rcm_id_new(ch);
	if (id == NULL) {
		rcm_refuse(e, RDMADEV_IBCM_REJ_NO_RESOURCES);
		return;
	}
	rcm_set_ps(id, l->ps);
	id->ib = e->id;
	rdmadev_ibcm_id_set_context(id->ib, id);
	id->src = src;
	id->dst = dst;
	memcpy(id->dmac, e->peer.mac, 6);
	rcm_sync(id, "CONNECT");
	ev = rcm_event(ch, RDMADEV_RCM_EVENT_CONNECT_REQUEST, id);
	if (ev == NULL) {
		/* Nobody would learn of the id: refuse it rather than leak it. */
		if (l->ps == RDMADEV_RCM_PS_UDP)
			(void)rdmadev_ibcm_sidr_reply(id->ib, RDMADEV_IBCM_SIDR_REJECT, 0, 0, NULL,
						      0);
		else
			(void)rdmadev_ibcm_reject(id->ib, RDMADEV_IBCM_REJ_NO_RESOURCES, NULL, 0);
		rdmadev_rcm_destroy_id(id);
		return;
	}
	ev->listen_id = l;
	rcm_event_pdata(ev, h + RDMADEV_RCM_HDR_LEN, e->private_data_len - RDMADEV_RCM_HDR_LEN);
}

/*
 * The answer to a UDP connect (cma_sidr_rep_handler): ESTABLISHED with the peer's UD QP,
 * Q_Key and address; UNREACHABLE with the status of a refusal; ADDR_ERROR (-EINVAL) for a
 * Q_Key other than the port space's.
 */
static void
rcm_sidr_rep(struct rdmadev_rcm_channel *ch, struct rdmadev_rcm_id *id,
	     const struct rdmadev_ibcm_event *e)
{
	struct rdmadev_rcm_event *ev;

	if (e->sidr_status != RDMADEV_IBCM_SIDR_SUCCESS) {
		rcm_sync(id, "IDLE");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_UNREACHABLE, id);
		if (ev != NULL)
			ev->status = e->sidr_status;
		rcm_event_pdata(ev, e->private_data, RDMADEV_IBCM_SIDR_REP_PDATA);
		return;
	}
	if (e->sidr_qkey != RDMADEV_RCM_UDP_QKEY) {
		rcm_sync(id, "IDLE");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_ADDR_ERROR, id);
		if (ev != NULL)
			ev->status = -EINVAL;
		return;
	}
	rcm_sync(id, "CONNECT");
	ev = rcm_event(ch, RDMADEV_RCM_EVENT_ESTABLISHED, id);
	if (ev == NULL)
		return;
	ev->ud_qpn = e->peer.qpn;
	ev->ud_qkey = e->sidr_qkey;
	memcpy(ev->ah_attr.dgid, e->peer.gid, 16);
	memcpy(ev->ah_attr.dmac, id->dmac, 6);
	ev->ah_attr.sgid_index = id->sgid_index;
	ev->ah_attr.hop_limit = 64;
	ev->ah_attr.vlan_id = 0xffff;
	ev->ah_attr.port_num = 1;
	rcm_event_pdata(ev, e->private_data, RDMADEV_IBCM_SIDR_REP_PDATA);
}

/* One IB CM event as cma.c's cma_ib_handler turns it into an rdma_cm event. */
static void
rcm_translate(struct rdmadev_rcm_channel *ch, const struct rdmadev_ibcm_event *e)
{
	struct rdmadev_rcm_id *id = rdmadev_ibcm_id_context(e->id);
	struct rdmadev_rcm_event *ev;

	if (e->type == RDMADEV_IBCM_EV_REQ_RECEIVED ||
	    e->type == RDMADEV_IBCM_EV_SIDR_REQ_RECEIVED) {
		rcm_req(ch, e);
		return;
	}
	if (id == NULL)
		return;
	switch (e->type) {
	case RDMADEV_IBCM_EV_REP_RECEIVED:
	case RDMADEV_IBCM_EV_ESTABLISHED:
		rcm_sync(id, "CONNECT");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_ESTABLISHED, id);
		if (e->type == RDMADEV_IBCM_EV_REP_RECEIVED)
			rcm_event_pdata(ev, e->private_data, e->private_data_len);
		break;
	case RDMADEV_IBCM_EV_REJ_RECEIVED:
		rcm_sync(id, "IDLE");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_REJECTED, id);
		if (ev != NULL) {
			ev->status = e->rej_reason;
			rcm_event_pdata(ev, e->private_data, RDMADEV_IBCM_REJ_PDATA);
		}
		break;
	case RDMADEV_IBCM_EV_REQ_ERROR:
	case RDMADEV_IBCM_EV_REP_ERROR:
		rcm_sync(id, "IDLE");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_UNREACHABLE, id);
		if (ev != NULL)
			ev->status = -ETIMEDOUT;
		break;
	case RDMADEV_IBCM_EV_DREQ_RECEIVED:
	case RDMADEV_IBCM_EV_DREP_RECEIVED:
	case RDMADEV_IBCM_EV_DREQ_ERROR:
		rcm_sync(id, "DISCONNECT");
		(void)rcm_event(ch, RDMADEV_RCM_EVENT_DISCONNECTED, id);
		break;
	case RDMADEV_IBCM_EV_SIDR_REP_RECEIVED:
		rcm_sidr_rep(ch, id, e);
		break;
	case RDMADEV_IBCM_EV_SIDR_REQ_ERROR:
		rcm_sync(id, "IDLE");
		ev = rcm_event(ch, RDMADEV_RCM_EVENT_UNREACHABLE, id);
		if (ev != NULL)
			ev->status = -ETIMEDOUT;
		break;
	case RDMADEV_IBCM_EV_TIMEWAIT_EXIT:
		rcm_sync(id, "IDLE");
		(void)rcm_event(ch, RDMADEV_RCM_EVENT_TIMEWAIT_EXIT, id);
		break;
	default:
		/* MRA: librdmacm users see nothing. */
		break;
	}
}

int
rdmadev_rcm_process(struct rdmadev_rcm_channel *ch, uint64_t now_ns)
{
	struct rdmadev_ibcm_event e;
	int rc;

	if (ch == NULL) {
		RDMADEV_LOG(ERR, "rcm_process: NULL channel");
		return -EINVAL;
	}
	rcm_addr_poll(ch, now_ns);
	rc = rdmadev_ibcm_process(ch->cm, now_ns);
	if (rc < 0)
		return rc;
	while (rdmadev_ibcm_event_get(ch->cm, &e) == 0)
		rcm_translate(ch, &e);
	return (int)(ch->tail - ch->head);
}

int
rdmadev_rcm_get_event(struct rdmadev_rcm_channel *ch, struct rdmadev_rcm_event *ev)
{
	uint64_t v;

	if (ch == NULL || ev == NULL) {
		RDMADEV_LOG(ERR, "rcm_get_event: NULL channel or event");
		return -EINVAL;
	}
	if (ch->head == ch->tail)
		return -EAGAIN;
	*ev = ch->ev[ch->head++ % RCM_EVENTS];
	if (ch->head == ch->tail && read(ch->fd, &v, sizeof(v)) != sizeof(v))
		RDMADEV_LOG(DEBUG, "rcm: eventfd read failed");
	return 0;
}

/* ---- channel ---- */

struct rdmadev_ibcm *
rdmadev_rcm_channel_ibcm(const struct rdmadev_rcm_channel *ch)
{
	return ch != NULL ? ch->cm : NULL;
}

int
rdmadev_rcm_channel_fd(const struct rdmadev_rcm_channel *ch)
{
	return ch != NULL ? ch->fd : -1;
}

void
rdmadev_rcm_channel_destroy(struct rdmadev_rcm_channel *ch)
{
	if (ch == NULL)
		return;
	while (ch->ids != NULL)
		rdmadev_rcm_destroy_id(ch->ids);
	rdmadev_ibcm_close(ch->cm);
	if (ch->fd >= 0)
		close(ch->fd);
	free(ch);
}

int
rdmadev_rcm_channel_create(struct rdmadev_ctx *ctx, struct rdmadev_rcm_channel **out)
{
	struct rdmadev_ibcm_conf conf;
	struct rdmadev_rcm_channel *ch;
	int rc;

	if (ctx == NULL || out == NULL) {
		RDMADEV_LOG(ERR, "rcm_channel_create: NULL context or output");
		return -EINVAL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL)
		return -ENOMEM;
	ch->ctx = ctx;
	ch->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ch->fd < 0) {
		rc = -errno;
		free(ch);
		return rc;
	}
	memset(&conf, 0, sizeof(conf));
	conf.ctx = ctx;
	conf.seed = (uint64_t)(uintptr_t)ch ^ 0x5bd1e995u;
	rc = rdmadev_ibcm_open(&conf, &ch->cm);
	if (rc != 0) {
		rdmadev_rcm_channel_destroy(ch);
		return rc;
	}
	ch->next_port = 32768;
	*out = ch;
	return 0;
}
