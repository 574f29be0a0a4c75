/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd -R: what perftest 4.5 does with -R (linux-rdma/perftest, create_comm_struct(),
 * rdma_client_connect() / rdma_server_connect() and create_rdma_cm_connection() in
 * src/perftest_communication.c), so that either side may be an unmodified ib_*_lat -R or
 * ib_*_bw -R.
 *
 * Two kinds of rdma_cm connections, all in the TCP port space on the one --port:
 *
 *   control   one RC connection made first (responder resources and initiator depth 0,
 *             retry and RNR retry 7). It carries the whole exchange of tp_xchg.c, each
 *             message one SEND of exactly its size into a 56-byte receive, strictly in
 *             lockstep (each side has one receive posted and re-posts it before it sends
 *             again). The QP records are perftest's struct pingpong_dest in binary (56
 *             bytes, tp_rcm_record_*), not the text of the TCP exchange; there is no "done".
 *   test      after a handshake on the control connection, one connection per test QP (the
 *             server listens again on the same port; the client retries a rejected connect,
 *             as perftest does, while the server is not listening yet), then another
 *             handshake. Responder resources and initiator depth are the outstanding reads
 *             for read tests, else 0; retry and RNR retry 7. The CM moves the QPs to RTS.
 *
 * After the run the client disconnects the test connections (the server too: both DREQs may
 * cross), then both drop the control connection.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>

#include "testpmd.h"

/* One message slot of the control QP (perftest posts sizeof(struct pingpong_dest)). */
#define TP_RCM_MSG	64u
/* wr_ids of the control QP. */
#define TP_RCM_WR_SEND	1u
#define TP_RCM_WR_RECV	2u
/* wr_id of a UD latency server's receive for the client's QPN datagram (a test QP's). */
#define TP_RCM_WR_HELLO	0x48454c4cu
/* The GRH before a UD receive's data. */
#define TP_RCM_UD_GRH	40u
/* The pause between two connect attempts of the client (perftest's: 100 ms). */
#define TP_RCM_RETRY_US	100000u
/* Outstanding reads offered on read tests' connections (the records' out_reads). */
#define TP_RCM_OUT_READS 16u
/* The server waits for a client (and the client retries) this many times --timeout. */
#define TP_RCM_ACCEPT_FACTOR 10u

static uint64_t
tp_rcm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Drive the CM once and take one event: 1 and @p ev, or 0. Notes the end of the control and
 * test connections. With @p keep (a wait for a message on the control connection) an event
 * of another id is queued for the next step without it (a listener's request may come while
 * the handshake before the test connections runs).
 */
static int
tp_rcm_step(struct tp_ctx *t, struct rdmadev_rcm_event *ev, bool keep)
{
	struct tp_xchg *x = &t->xchg;
	unsigned int i;
	int rc;

	if (!keep && x->nb_evq > 0) {
		*ev = x->evq[0];
		memmove(&x->evq[0], &x->evq[1], --x->nb_evq * sizeof(x->evq[0]));
		return 1;
	}
	rc = rdmadev_rcm_process(x->ch, tp_rcm_now());
	if (rc < 0)
		return rc;
	if (rdmadev_rcm_get_event(x->ch, ev) != 0)
		return 0;
	if (ev->event == RDMADEV_RCM_EVENT_DISCONNECTED && x->cid != NULL && ev->id == x->cid)
		x->disconnected = true;
	for (i = 0; ev->event == RDMADEV_RCM_EVENT_DISCONNECTED && i < x->nb_tid; i++)
		if (ev->id == x->tid[i])
			x->tid_down |= 1u << i;
	if (t->cfg.verbose)
		fprintf(t->out, "rdma-testpmd: rdma_cm event %s on id %u (status %d)\n",
			rdmadev_rcm_event_str(ev->event), rdmadev_rcm_id_num(ev->id), ev->status);
	if (keep && ev->id != x->cid) {
		if (x->nb_evq < RTE_DIM(x->evq))
			x->evq[x->nb_evq++] = *ev;
		else
			fprintf(stderr, "rdma-testpmd: -R: dropped an rdma_cm %s (queue full)\n",
				rdmadev_rcm_event_str(ev->event));
		return 0;
	}
	return 1;
}

/*
 * Wait up to @p ms for event @p want on @p id (any id when NULL; a listener: its requests). REJECTED or UNREACHABLE of
 * that id is -ECONNREFUSED (@p status gets the reason), the control's end -ECONNRESET.
 * Other events are dropped (DISCONNECTED / TIMEWAIT_EXIT of ids going away).
 */
static int
tp_rcm_wait(struct tp_ctx *t, struct rdmadev_rcm_id *id, enum rdmadev_rcm_event_type want,
	    struct rdmadev_rcm_event *ev, uint64_t ms, int *status)
{
	uint64_t end = tp_rcm_now() + ms * 1000000u;
	int rc;

	while (tp_rcm_now() < end) {
		if (t->stop)
			return -EINTR;
		rc = tp_rcm_step(t, ev, false);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			sched_yield();
			continue;
		}
		/* A CONNECT_REQUEST names the listener in listen_id, the new id in id. */
		if (id != NULL && ev->id != id && ev->listen_id != id)
			continue;
		if (ev->event == want)
			return 0;
		if (ev->event == RDMADEV_RCM_EVENT_ADDR_ERROR) {
			fprintf(stderr, "rdma-testpmd: -R: %s did not answer ARP: %s\n",
				t->cfg.peer,
				strerror(ev->status < 0 ? -ev->status : EHOSTUNREACH));
			return -EHOSTUNREACH;
		}
		if (ev->event == RDMADEV_RCM_EVENT_REJECTED ||
		    ev->event == RDMADEV_RCM_EVENT_UNREACHABLE) {
			if (status != NULL)
				*status = ev->status;
			return -ECONNREFUSED;
		}
		if (ev->event == RDMADEV_RCM_EVENT_DISCONNECTED && want != ev->event)
			return -ECONNRESET;
	}
	fprintf(stderr, "rdma-testpmd: -R: no %s within %" PRIu64 " ms\n", rdmadev_rcm_event_str(want),
		ms);
	return -ETIMEDOUT;
}

static int
tp_rcm_post_recv(struct tp_xchg *x)
{
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)(x->cbuf + TP_RCM_MSG), TP_RCM_MSG,
				   rdmadev_mr_lkey(x->cmr) };
	struct rdmadev_recv_wr wr = { .wr_id = TP_RCM_WR_RECV, .sg_list = &sge, .num_sge = 1 };
	int err = 0;

	return rdmadev_post_recv(x->cqp, &wr, 1, &err) == 1 ? 0 : (err < 0 ? err : -EIO);
}

/* The control QP, its CQ and buffer, on side 0's PD. */
static int
tp_rcm_control_objects(struct tp_ctx *t)
{
	struct tp_xchg *x = &t->xchg;
	struct tp_side *s = &t->side[0];
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_qp_init_attr qa = { 0 };
	struct rdmadev_mr_attr ma = { 0 };
	int rc;

	rc = rdmadev_cq_create(s->ctx, &cqa, &x->ccq);
	if (rc < 0)
		return rc;
	qa.pd = s->pd;
	qa.send_cq = x->ccq;
	qa.recv_cq = x->ccq;
	qa.qp_type = RDMADEV_QPT_RC;
	qa.cap.max_send_wr = 4;
	qa.cap.max_recv_wr = 4;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	rc = rdmadev_qp_create(&qa, &x->cqp);
	if (rc < 0)
		return rc;
	x->cbuf = rte_zmalloc("rdma-testpmd-rcm", 2 * TP_RCM_MSG, 64);
	if (x->cbuf == NULL)
		return -ENOMEM;
	ma.addr = x->cbuf;
	ma.iova = (uint64_t)(uintptr_t)x->cbuf;
	ma.length = 2 * TP_RCM_MSG;
	ma.access = RDMADEV_ACCESS_LOCAL_WRITE;
	return rdmadev_mr_reg(s->pd, &ma, &x->cmr);
}

/* Back to RESET after a refused connect, its flushed receive drained from the CQ. */
static void
tp_rcm_qp_reset(struct tp_xchg *x, struct rdmadev_qp *qp, struct rdmadev_cq *cq)
{
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_RESET };
	struct rdmadev_wc wc[4];

	(void)rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE);
	if (cq != NULL)
		x->held = false;
	if (cq != NULL)
		while (rdmadev_poll_cq(cq, wc, RTE_DIM(wc)) > 0)
			;
}

/*
 * A test QP's local ACK timeout: the path's (the CM's packet lifetime + 1, 17: 0.5 s), as
 * perftest -R leaves it, unless --qp-timeout was given (then that; 0 leaves the path's).
 */
static int
tp_rcm_ack_timeout(struct tp_ctx *t, struct rdmadev_rcm_id *id)
{
	/* The path MTU is the CM's (the port's, the REQ's), at most -m when -m was given. */
	int rc = t->cfg.mtu_set ? rdmadev_rcm_set_path_mtu(id, (uint8_t)t->cfg.mtu) : 0;

	if (rc != 0 || !t->cfg.qp_timeout_set)
		return rc;
	return rdmadev_rcm_set_ack_timeout(id, (uint8_t)t->cfg.qp_timeout);
}

/* The test QPs' port space: TCP for RC, UDP (SIDR) for UD, as perftest -R picks it. */
static uint16_t
tp_rcm_ps(const struct tp_ctx *t)
{
	return t->cfg.conn == RDMADEV_QPT_UD ? RDMADEV_RCM_PS_UDP : RDMADEV_RCM_PS_TCP;
}

/* The server's address (--client HOST), IPv4 or IPv6. */
static int
tp_rcm_peer_addr(struct tp_ctx *t, union rdmadev_rcm_addr *dst)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
	int rc = getaddrinfo(t->cfg.peer, NULL, &hints, &res);

	if (rc != 0) {
		fprintf(stderr, "rdma-testpmd: --client %s: %s\n", t->cfg.peer, gai_strerror(rc));
		return -EINVAL;
	}
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, res->ai_addr, RTE_MIN((size_t)res->ai_addrlen, sizeof(*dst)));
	freeaddrinfo(res);
	if (dst->sa.sa_family == AF_INET6)
		dst->sin6.sin6_port = htons(t->cfg.port);
	else
		dst->sin.sin_port = htons(t->cfg.port);
	return 0;
}

/*
 * Client: connect @p qp (RESET) to the server's port, retrying a rejected connect (nobody
 * listening yet) every TP_RCM_RETRY_US for TP_RCM_ACCEPT_FACTOR x --timeout (perftest tries
 * 10 times; a server in a slow VM may take longer to listen). With @p cq the control QP's receive is posted
 * right after connect (the QP is in INIT from there). The id goes to @p out.
 */
static int
tp_rcm_dial(struct tp_ctx *t, struct rdmadev_qp *qp, struct rdmadev_cq *cq,
	    const struct rdmadev_rcm_conn_param *p, struct rdmadev_rcm_id **out,
	    struct rdmadev_rcm_event *est)
{
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_rcm_event ev;
	struct rdmadev_rcm_id *id = NULL;
	union rdmadev_rcm_addr dst;
	uint64_t end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * TP_RCM_ACCEPT_FACTOR *
		       1000000u;
	unsigned int attempt;
	int rc, status = 0;

	rc = tp_rcm_peer_addr(t, &dst);
	for (attempt = 1; rc == 0; attempt++) {
		rc = rdmadev_rcm_create_id(x->ch, cq == NULL ? tp_rcm_ps(t) : RDMADEV_RCM_PS_TCP,
					   &id);
		if (rc == 0 && cq == NULL)
			rc = tp_rcm_ack_timeout(t, id);
		if (rc == 0)
			rc = rdmadev_rcm_resolve_addr(id, &dst.sa, NULL,
						      t->cfg.timeout_ms);
		if (rc == 0)
			rc = tp_rcm_wait(t, id, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev,
					 t->cfg.timeout_ms, NULL);
		if (rc == 0)
			rc = rdmadev_rcm_resolve_route(id);
		if (rc == 0)
			rc = tp_rcm_wait(t, id, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, &ev,
					 t->cfg.timeout_ms, NULL);
		if (rc == 0)
			rc = rdmadev_rcm_connect(id, qp, p, tp_rcm_now());
		if (rc == 0 && cq != NULL)
			rc = tp_rcm_post_recv(x);
		/* The CM retries an unanswered REQ for about a minute before UNREACHABLE. */
		if (rc == 0)
			rc = tp_rcm_wait(t, id, RDMADEV_RCM_EVENT_ESTABLISHED, &ev,
					 (uint64_t)t->cfg.timeout_ms * TP_RCM_ACCEPT_FACTOR +
					 120000u, &status);
		if (rc == 0) {
			*out = id;
			if (est != NULL)
				*est = ev;
			return 0;
		}
		if (id != NULL)
			rdmadev_rcm_destroy_id(id);
		id = NULL;
		tp_rcm_qp_reset(x, qp, cq);
		if (rc != -ECONNREFUSED || tp_rcm_now() > end)
			break;
		usleep(TP_RCM_RETRY_US);
		rc = 0;
	}
	if (rc == -ECONNREFUSED)
		fprintf(stderr, "rdma-testpmd: -R: %s:%u refused the connection %u times in %"
			PRIu64 " ms (reason %d; 8: nobody listens on that port)\n", t->cfg.peer,
			t->cfg.port, attempt, (uint64_t)t->cfg.timeout_ms * TP_RCM_ACCEPT_FACTOR,
			status);
	return rc;
}

/* Server: a listening id on the port (any address, IPv6 and IPv4: dual stack). */
static int
tp_rcm_listen(struct tp_ctx *t, uint16_t ps, struct rdmadev_rcm_id **out)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT,
				     .sin6_port = htons(t->cfg.port) };
	int rc = rdmadev_rcm_create_id(t->xchg.ch, ps, out);

	if (rc == 0)
		rc = rdmadev_rcm_bind_addr(*out, (const struct sockaddr *)&sin6);
	if (rc == 0)
		rc = rdmadev_rcm_listen(*out, 0);
	if (rc < 0) {
		fprintf(stderr, "rdma-testpmd: -R: cannot listen on port %u: %s\n", t->cfg.port,
			strerror(-rc));
		if (*out != NULL)
			rdmadev_rcm_destroy_id(*out);
		*out = NULL;
	}
	return rc;
}

void
tp_rcm_record_format(const struct tp_record *r, uint8_t out[TP_RCM_RECORD_LEN])
{
	uint32_t w[5] = { r->lid, r->out_reads, r->qpn, r->psn, r->rkey };
	uint64_t a = rte_cpu_to_be_64(r->addr);
	uint32_t v;
	unsigned int i;

	/* perftest's struct pingpong_dest, big endian: 5 x 32 bits, a hole, the address at 24,
	 * the GID at 32, the SRQN at 48, the GID index at 52. */
	memset(out, 0, TP_RCM_RECORD_LEN);
	for (i = 0; i < RTE_DIM(w); i++) {
		v = rte_cpu_to_be_32(w[i]);
		memcpy(out + 4 * i, &v, 4);
	}
	memcpy(out + 24, &a, 8);
	memcpy(out + 32, r->gid, 16);
	v = rte_cpu_to_be_32(r->srqn);
	memcpy(out + 48, &v, 4);
}

void
tp_rcm_record_parse(const uint8_t in[TP_RCM_RECORD_LEN], struct tp_record *r)
{
	uint32_t w[5];
	uint64_t a;
	unsigned int i;

	memcpy(w, in, sizeof(w));
	memcpy(&a, in + 24, 8);
	for (i = 0; i < RTE_DIM(w); i++)
		w[i] = rte_be_to_cpu_32(w[i]);
	memset(r, 0, sizeof(*r));
	r->lid = w[0];
	r->out_reads = w[1];
	r->qpn = w[2] & 0xffffffu;
	r->psn = w[3] & 0xffffffu;
	r->rkey = w[4];
	r->addr = rte_be_to_cpu_64(a);
	memcpy(r->gid, in + 32, 16);
	memcpy(&r->srqn, in + 48, 4);
	r->srqn = rte_be_to_cpu_32(r->srqn);
}

int
tp_rcm_open(struct tp_ctx *t)
{
	static const struct rdmadev_rcm_conn_param cp = { .retry_count = 7,
							  .rnr_retry_count = 7 };
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_rcm_event ev;
	struct rdmadev_rcm_id *lid = NULL;
	int rc;

	x->rcm = true;
	x->disconnected = false;
	x->held = false;
	x->nb_evq = 0;
	rc = rdmadev_rcm_channel_create(t->side[0].ctx, &x->ch);
	if (rc < 0) {
		fprintf(stderr, "rdma-testpmd: -R: no rdma_cm channel on the device: %s\n",
			strerror(-rc));
		return rc;
	}
	rc = tp_rcm_control_objects(t);
	if (rc < 0) {
		fprintf(stderr, "rdma-testpmd: -R: the control QP: %s\n", strerror(-rc));
		return rc;
	}
	if (t->cfg.mode == TP_MODE_CLIENT)
		return tp_rcm_dial(t, x->cqp, x->ccq, &cp, &x->cid, NULL);
	rc = tp_rcm_listen(t, RDMADEV_RCM_PS_TCP, &lid);
	if (rc < 0)
		return rc;
	fprintf(t->out, "rdma-testpmd: waiting for a client on port %u (rdma_cm)\n", t->cfg.port);
	fflush(t->out);
	rc = tp_rcm_wait(t, lid, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev,
			 (uint64_t)t->cfg.timeout_ms * TP_RCM_ACCEPT_FACTOR, NULL);
	if (rc == 0) {
		x->cid = ev.id;
		rc = rdmadev_rcm_accept(x->cid, x->cqp, &cp, tp_rcm_now());
	}
	if (rc == 0)
		rc = tp_rcm_post_recv(x);
	/* perftest's server takes one client on the control id and drops the listener. */
	rdmadev_rcm_destroy_id(lid);
	if (rc == 0)
		rc = tp_rcm_wait(t, x->cid, RDMADEV_RCM_EVENT_ESTABLISHED, &ev, t->cfg.timeout_ms,
				 NULL);
	if (rc < 0)
		fprintf(stderr, "rdma-testpmd: -R: accepting the control connection failed: %s\n",
			strerror(-rc));
	return rc;
}

int
tp_rcm_send(struct tp_ctx *t, const void *buf, size_t len, const char *what)
{
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)x->cbuf, (uint32_t)len,
				   rdmadev_mr_lkey(x->cmr) };
	struct rdmadev_send_wr wr = { 0 };
	uint64_t end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * 1000000u;
	struct rdmadev_wc wc;
	int err = 0;

	if (len > TP_RCM_RECORD_LEN || x->cqp == NULL)
		return -EINVAL;
	memcpy(x->cbuf, buf, len);
	wr.wr_id = TP_RCM_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RDMADEV_WR_SEND;
	wr.flags = RDMADEV_SEND_SIGNALED;
	if (rdmadev_post_send(x->cqp, &wr, 1, &err) != 1) {
		fprintf(stderr, "rdma-testpmd: -R: posting the %s: %s\n", what,
			strerror(err < 0 ? -err : EIO));
		return err < 0 ? err : -EIO;
	}
	/*
	 * The peer's answer may complete our receive before this SEND's completion is seen
	 * (its SEND acknowledges ours): keep that one for tp_rcm_poll().
	 */
	while (tp_rcm_now() < end) {
		if (rdmadev_poll_cq(x->ccq, &wc, 1) != 1) {
			struct rdmadev_rcm_event ev;

			(void)tp_rcm_step(t, &ev, true);
			continue;
		}
		if (wc.wr_id == TP_RCM_WR_SEND && wc.status == RDMADEV_WC_SUCCESS)
			return 0;
		if (wc.wr_id == TP_RCM_WR_RECV && wc.status == RDMADEV_WC_SUCCESS &&
		    !x->held) {
			x->held = true;
			x->held_wc = wc;
			continue;
		}
		fprintf(stderr, "rdma-testpmd: -R: sending the %s: %s (wr %" PRIu64 ")\n", what,
			rdmadev_wc_status_str(wc.status), wc.wr_id);
		return -EIO;
	}
	fprintf(stderr, "rdma-testpmd: -R: the %s was not acknowledged within %u ms\n", what,
		t->cfg.timeout_ms);
	return -ETIMEDOUT;
}

bool
tp_rcm_pending(struct tp_xchg *x)
{
	if (!x->held && x->ccq != NULL && rdmadev_poll_cq(x->ccq, &x->held_wc, 1) == 1)
		x->held = true;
	return x->held;
}

int
tp_rcm_poll(struct tp_ctx *t, void *buf, size_t len, const char *what)
{
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_rcm_event ev;
	struct rdmadev_wc wc;
	int rc;

	if (x->held || rdmadev_poll_cq(x->ccq, &wc, 1) == 1) {
		if (x->held)
			wc = x->held_wc;
		x->held = false;
		if (wc.status != RDMADEV_WC_SUCCESS || wc.wr_id != TP_RCM_WR_RECV) {
			fprintf(stderr, "rdma-testpmd: -R: instead of the %s: a completion of wr %"
				PRIu64 ", %s%s\n", what, wc.wr_id, rdmadev_wc_status_str(wc.status),
				x->disconnected ? " (the peer disconnected)" : "");
			return x->disconnected ? -ECONNRESET : -EIO;
		}
		if (wc.byte_len != len) {
			fprintf(stderr, "rdma-testpmd: -R: the peer's %s is %u bytes, not %zu: not "
				"perftest's exchange, or another test\n", what, wc.byte_len, len);
			return -EPROTO;
		}
		memcpy(buf, x->cbuf + TP_RCM_MSG, len);
		rc = tp_rcm_post_recv(x);
		return rc < 0 ? rc : 1;
	}
	rc = tp_rcm_step(t, &ev, true);
	if (rc < 0)
		return rc;
	if (x->disconnected) {
		fprintf(stderr, "rdma-testpmd: -R: the peer disconnected instead of sending the "
			"%s: it failed or exited (see its output)\n", what);
		return -ECONNRESET;
	}
	return 0;
}

/*
 * UD latency tests: perftest's send_qp_num_for_ah. Its client, once SIDR resolved the
 * server's UD QP, SENDs it 4 bytes with its own QPN as immediate data, so that perftest's
 * server (create_ah_from_wc_recv) learns where to answer; rdma-testpmd's client does the
 * same, and rdma-testpmd's server takes it (tp_rcm_hello_post, tp_rcm_hello_take).
 */
static int
tp_rcm_ud_hello(struct tp_ctx *t, struct tp_side *s, uint32_t i,
		const struct rdmadev_rcm_event *est)
{
	uint32_t qpn = rdmadev_qp_num(s->qp[i]);
	uint8_t *b = tp_send_area(s, i);
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)b, 4, rdmadev_mr_lkey(s->mr) };
	struct rdmadev_send_wr wr = { 0 };
	uint64_t end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * 1000000u;
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_wc wc;
	int rc, err = 0;

	rc = rdmadev_ah_create(s->pd, &est->ah_attr, &ah);
	if (rc < 0)
		return tp_side_fail(s, rc, "-R: no AH toward the server's UD QP");
	memcpy(b, &qpn, 4);			/* host order, as perftest */
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RDMADEV_WR_SEND_IMM;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.imm_data = rte_cpu_to_be_32(qpn);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = est->ud_qpn;
	wr.ud.remote_qkey = est->ud_qkey;
	rc = rdmadev_post_send(s->qp[i], &wr, 1, &err) == 1 ? -ETIMEDOUT : (err < 0 ? err : -EIO);
	while (rc == -ETIMEDOUT && tp_rcm_now() < end) {
		if (rdmadev_poll_cq(s->scq, &wc, 1) == 1)
			rc = wc.status == RDMADEV_WC_SUCCESS ? 0 : -EIO;
	}
	(void)rdmadev_ah_destroy(ah);
	return rc < 0 ? tp_side_fail(s, rc, "-R: sending our QPN to the server's UD QP") : 0;
}

/*
 * A UD latency server, before it accepts test QP @p i: the QP to RTS with rdma_cm's Q_Key
 * (librdmacm's ucma_init_ud_qp does it when the QP is created on a UDP id; accept then
 * leaves it as it is) and one receive posted for the client's QPN datagram (perftest's
 * post_recv_to_get_ah), so that it cannot arrive before the receive.
 */
static int
tp_rcm_hello_post(struct tp_side *s, uint32_t i)
{
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)tp_recv_area(s, i),
				   TP_RCM_UD_GRH + 4u, rdmadev_mr_lkey(s->mr) };
	struct rdmadev_recv_wr wr = { .wr_id = TP_RCM_WR_HELLO, .sg_list = &sge, .num_sge = 1 };
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1,
				     .qkey = RDMADEV_RCM_UDP_QKEY };
	int rc, err = 0;

	rc = rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
			       RDMADEV_QP_PORT | RDMADEV_QP_QKEY);
	a.qp_state = RDMADEV_QPS_RTR;
	if (rc == 0)
		rc = rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE);
	a.qp_state = RDMADEV_QPS_RTS;
	a.sq_psn = 0;
	if (rc == 0)
		rc = rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN);
	if (rc < 0)
		return tp_side_fail(s, rc, "-R: UD QP %u to RTS: %s", i, strerror(-rc));
	if (rdmadev_post_recv(s->qp[i], &wr, 1, &err) != 1)
		return tp_side_fail(s, err < 0 ? err : -EIO, "-R: the receive for the client's "
				    "QPN datagram on QP %u", i);
	return 0;
}

/*
 * A UD latency server, once every test QP is accepted: take each QP's datagram from the
 * client (perftest's create_ah_from_wc_recv): a SEND with immediate data of 4 bytes after
 * the GRH, the client's QPN in the immediate. perftest's server reads only that; so does
 * this one (the 4 bytes of perftest 4.5's client are not its QPN). The client's records
 * come later; tp_rcm_hello_check compares the two.
 */
static int
tp_rcm_hello_take(struct tp_ctx *t, struct tp_side *s, uint32_t qpn[TP_MAX_QPS])
{
	uint64_t end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * 1000000u;
	uint32_t got = 0, i, v;
	struct rdmadev_wc wc;

	while (got < s->nb_qps) {
		if (t->stop || tp_rcm_now() > end)
			return tp_side_fail(s, t->stop ? -EINTR : -ETIMEDOUT, "-R: %u of %u QPN "
					    "datagrams from the client in %u ms", got, s->nb_qps,
					    t->cfg.timeout_ms);
		if (rdmadev_poll_cq(s->rcq, &wc, 1) != 1)
			continue;
		for (i = 0; i < s->nb_qps && rdmadev_qp_num(s->qp[i]) != wc.qp_num; i++)
			;
		if (i == s->nb_qps || wc.wr_id != TP_RCM_WR_HELLO || qpn[i] != 0)
			return tp_side_fail(s, -EPROTO, "-R: a receive completion on QPN %u that "
					    "is no QPN datagram", wc.qp_num);
		v = rte_be_to_cpu_32(wc.imm_data);
		if (wc.status != RDMADEV_WC_SUCCESS || !(wc.wc_flags & RDMADEV_WC_WITH_IMM) ||
		    wc.byte_len != TP_RCM_UD_GRH + 4u || v == 0 || v > 0xffffffu)
			return tp_side_fail(s, -EPROTO, "-R: QP %u: a bad QPN datagram (status "
					    "%s, %u bytes, immediate%s 0x%x)", i,
					    rdmadev_wc_status_str(wc.status), wc.byte_len,
					    wc.wc_flags & RDMADEV_WC_WITH_IMM ? "" : " (none)", v);
		qpn[i] = v;
		got++;
	}
	return 0;
}

int
tp_rcm_connect_qps(struct tp_ctx *t, struct tp_side *s)
{
	const struct tp_engine *e = tp_engine_find(t->cfg.test);
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_rcm_conn_param cp = { .retry_count = 7, .rnr_retry_count = 7 };
	struct rdmadev_rcm_event ev, resolved;
	struct rdmadev_rcm_id *lid = NULL;
	bool ud_lat = t->cfg.conn == RDMADEV_QPT_UD && e->kind == TP_LAT;
	uint64_t end;
	unsigned int est = 0, i;
	int rc;

	memset(x->hello_qpn, 0, sizeof(x->hello_qpn));
	if (e->opcode != RDMADEV_WR_RDMA_WRITE && e->opcode != RDMADEV_WR_SEND) {
		cp.responder_resources = TP_RCM_OUT_READS;
		cp.initiator_depth = TP_RCM_OUT_READS;
	}
	/*
	 * perftest: a handshake before the test connections and one after; its records are
	 * still all zero then, nothing is checked in either. perftest's server listens after
	 * the first, and its client connects at once: a REQ that comes first is rejected
	 * (reason 8) and perftest's client does not always survive its retry. This server
	 * listens before the handshake.
	 */
	if (t->cfg.mode == TP_MODE_SERVER)
		rc = tp_rcm_listen(t, tp_rcm_ps(t), &lid);
	else
		rc = 0;
	if (rc == 0)
		rc = tp_xchg_record(t, s, 0, true);
	if (rc < 0) {
		if (lid != NULL)
			rdmadev_rcm_destroy_id(lid);
		return rc;
	}
	if (t->cfg.mode == TP_MODE_CLIENT) {
		for (i = 0; rc == 0 && i < s->nb_qps; i++) {
			rc = tp_rcm_dial(t, s->qp[i], NULL, &cp, &x->tid[i], &resolved);
			if (rc == 0)
				x->nb_tid++;
			if (rc == 0 && ud_lat)
				rc = tp_rcm_ud_hello(t, s, i, &resolved);
		}
	} else {
		end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * TP_RCM_ACCEPT_FACTOR *
		      1000000u;
		while (rc == 0 && est < s->nb_qps) {
			if (t->stop || tp_rcm_now() > end || x->disconnected) {
				rc = t->stop ? -EINTR : x->disconnected ? -ECONNRESET : -ETIMEDOUT;
				break;
			}
			rc = tp_rcm_step(t, &ev, false);
			if (rc <= 0)
				continue;
			rc = 0;
			if (ev.event == RDMADEV_RCM_EVENT_CONNECT_REQUEST && ev.listen_id == lid) {
				if (x->nb_tid == s->nb_qps) {
					rdmadev_rcm_reject(ev.id, NULL, 0);
					rdmadev_rcm_destroy_id(ev.id);
					continue;
				}
				rc = tp_rcm_ack_timeout(t, ev.id);
				if (rc == 0 && ud_lat)
					rc = tp_rcm_hello_post(s, x->nb_tid);
				if (rc == 0)
					rc = rdmadev_rcm_accept(ev.id, s->qp[x->nb_tid], &cp,
								tp_rcm_now());
				x->tid[x->nb_tid++] = ev.id;
				/* UD: the SIDR_REP is the answer; no ESTABLISHED here */
				if (rc == 0 && t->cfg.conn == RDMADEV_QPT_UD)
					est++;
			} else if (ev.event == RDMADEV_RCM_EVENT_ESTABLISHED) {
				est++;
			} else if (ev.event == RDMADEV_RCM_EVENT_REJECTED ||
				   ev.event == RDMADEV_RCM_EVENT_UNREACHABLE) {
				rc = -ECONNREFUSED;
			}
		}
		if (lid != NULL)
			rdmadev_rcm_destroy_id(lid);
		if (rc == 0 && ud_lat && tp_rcm_hello_take(t, s, x->hello_qpn) < 0)
			return s->error;
	}
	if (rc < 0)
		return tp_side_fail(s, rc, "-R: connecting the test QPs through rdma_cm failed "
				    "(%u of %u)", t->cfg.mode == TP_MODE_CLIENT ? x->nb_tid : est,
				    s->nb_qps);
	for (i = 0; t->cfg.verbose && i < s->nb_qps; i++) {
		struct rdmadev_qp_init_attr qi;
		struct rdmadev_qp_attr qa;

		if (rdmadev_qp_query(s->qp[i], &qa, &qi) == 0 && t->cfg.conn == RDMADEV_QPT_UD)
			fprintf(t->out, "rdma-testpmd: -R: QP %u: UD QPN %u in %s, Q_Key 0x%x\n", i,
				rdmadev_qp_num(s->qp[i]), rdmadev_qp_state_name(qa.qp_state),
				qa.qkey);
		else if (rdmadev_qp_query(s->qp[i], &qa, &qi) == 0)
			fprintf(t->out, "rdma-testpmd: -R: QP %u: QPN %u to peer QPN %u, MTU %u, ACK "
				"timeout %u, reads out %u / in %u, retry %u, RNR retry %u\n", i,
				rdmadev_qp_num(s->qp[i]), qa.dest_qp_num, 128u << qa.path_mtu,
				qa.timeout, qa.max_rd_atomic, qa.max_dest_rd_atomic, qa.retry_cnt,
				qa.rnr_retry);
	}
	return tp_xchg_record(t, s, 0, true);
}

int
tp_rcm_hello_check(struct tp_ctx *t, struct tp_side *s)
{
	uint32_t i;

	for (i = 0; t->xchg.hello_qpn[0] != 0 && i < s->nb_qps; i++) {
		if (t->cfg.verbose)
			fprintf(t->out, "rdma-testpmd: -R: QP %u: the client's QPN datagram: QPN "
				"%u\n", i, t->xchg.hello_qpn[i]);
		/* perftest's server answers the datagram's QPN; the record must agree */
		if (s->remote[i].qpn != t->xchg.hello_qpn[i])
			return tp_side_fail(s, -EPROTO, "-R: QP %u: the client's datagram says "
					    "QPN %u, its record %u", i, t->xchg.hello_qpn[i],
					    s->remote[i].qpn);
	}
	return 0;
}

void
tp_rcm_end(struct tp_ctx *t)
{
	struct tp_xchg *x = &t->xchg;
	struct rdmadev_rcm_event ev;
	unsigned int i;
	uint32_t want = 0;
	uint64_t end = tp_rcm_now() + (uint64_t)t->cfg.timeout_ms * 1000000u;

	if (x->ch == NULL)
		return;
	/* Take what already happened (the peer's DREQs) before sending ours. */
	while (tp_rcm_step(t, &ev, false) == 1)
		;
	for (i = 0; i < x->nb_tid; i++) {
		/* UD ids (SIDR) have no connection to end */
		if ((x->tid_down & (1u << i)) || t->cfg.conn == RDMADEV_QPT_UD)
			continue;
		want |= 1u << i;
		if (rdmadev_rcm_disconnect(x->tid[i], tp_rcm_now()) < 0)
			want &= ~(1u << i);
	}
	/* DISCONNECTED of each test id: our DREQ answered, the peer's, or a timeout. */
	while ((x->tid_down & want) != want && tp_rcm_now() < end)
		if (tp_rcm_step(t, &ev, false) < 0)
			break;
	for (i = 0; i < x->nb_tid; i++)
		rdmadev_rcm_destroy_id(x->tid[i]);
	x->nb_tid = 0;
	x->tid_down = 0;
	x->nb_evq = 0;
	if (x->cid != NULL && !x->disconnected &&
	    rdmadev_rcm_disconnect(x->cid, tp_rcm_now()) == 0)
		(void)tp_rcm_wait(t, x->cid, RDMADEV_RCM_EVENT_DISCONNECTED, &ev,
				  t->cfg.timeout_ms, NULL);
	if (x->cid != NULL)
		rdmadev_rcm_destroy_id(x->cid);
	x->cid = NULL;
	if (x->cqp != NULL)
		rdmadev_qp_destroy(x->cqp);
	if (x->cmr != NULL)
		rdmadev_mr_dereg(x->cmr);
	if (x->ccq != NULL)
		rdmadev_cq_destroy(x->ccq);
	rte_free(x->cbuf);
	rdmadev_rcm_channel_destroy(x->ch);
	x->cqp = NULL;
	x->cmr = NULL;
	x->ccq = NULL;
	x->cbuf = NULL;
	x->ch = NULL;
	x->rcm = false;
}
