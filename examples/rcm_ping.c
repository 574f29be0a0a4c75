/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rcm_ping: the smallest rdma_cm client and server (lib/rdmadev/rdmadev_rcm.h), speaking
 * the exchange of rdma-core's rping (librdmacm/examples/rping.c), so that either side may
 * be that program, unmodified.
 *
 *   rcm_ping [EAL options] -- [options] server <devargs> [bind-ip]
 *   rcm_ping [EAL options] -- [options] client <devargs> <server-ip>
 *
 * The addresses are IPv4 or IPv6; a server without one listens on every IPv4 address, an
 * IPv6 server binds to its address or to :: (IPv6 and IPv4 requests).
 *
 * Options, as rping's: -p <port> (7174), -S <buffer bytes> (64, both sides the same),
 * -C <pings> (client: 10; server: 0 = until the client disconnects); and -w <seconds>
 * (30), the longest wait for any one step; -T: the CM runs in a thread of its own
 * (rdmadev_rcm_process and the events there, under a mutex the main thread also takes for
 * its CM calls) while the main thread posts and polls the QP; -E: the exchange of
 * rdma-core's rdma_client / rdma_server instead (one 16-byte SEND each way, port 7471).
 *
 * The client connects (RC, responder resources and initiator depth 1, retry and RNR retry
 * 7, as rping's conn_param), then per ping: fills its start buffer with rping's text
 * ("rdma-ping-%d: " and a rolling A..z run, a NUL last); SENDs a 16-byte
 * struct rping_rdma_info { be64 buf; be32 rkey; be32 size; } naming it; the server RDMA
 * READs it and SENDs a 16-byte go-ahead; the client SENDs the info of its sink buffer; the
 * server RDMA WRITEs what it read there (strlen + 1 bytes) and SENDs a go-ahead; the client
 * checks the sink against the start buffer byte for byte. The server checks every buffer it
 * reads is ping i's text. Then the client disconnects (DREQ / DREP) and both wait for the
 * end of timewait.
 *
 * On one host each process gets its own model device on the UDP wire:
 *   rcm_ping --no-huge -m 512 -l 0 --file-prefix s -- server irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1
 *   rcm_ping --no-huge -m 512 -l 1 --file-prefix c -- client irdma_model0,ip=127.0.0.2,wire=udp:127.0.0.2 127.0.0.1
 * Against Linux (rping on rdma_rxe) the model needs the Ethernet wire (doc/interop.md); the
 * peer's MAC is resolved by the wire's ARP (the CM is given none).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>
#include <rdmadev_rcm.h>

#define EXAMPLE_NAME "rcm_ping"
#include "example_qp.h"

#define INFO_LEN 16u		/* struct rping_rdma_info */
#define MIN_SIZE 24u		/* rping's RPING_MIN_BUFSIZE, about */
#define MAX_SIZE (1u << 20)

/* wr_ids; the buffer layout is [send info][recv info][start][rdma] */
enum { WR_SEND = 1, WR_RECV, WR_READ, WR_WRITE };

struct ping {
	struct rdmadev_rcm_channel *ch;
	struct rdmadev_rcm_id *id;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	uint8_t *buf;
	uint8_t *sinfo, *rinfo, *start, *rdma;
	uint32_t size;
	uint64_t wait_ns;
	bool disconnected;	/* DISCONNECTED seen */
	bool timewait_exit;	/* TIMEWAIT_EXIT seen */
	/* -T: the CM thread, its lock, the events it took for the main thread */
	bool threaded;
	pthread_t thread;
	pthread_mutex_t lock;
	atomic_bool stop;
	struct rdmadev_rcm_event q[16];
	unsigned int q_head, q_tail;
};

/* The channel's lock (-T): the CM thread holds it while it drives the CM. */
static void
cm_lock(struct ping *p)
{
	if (p->threaded)
		pthread_mutex_lock(&p->lock);
}

static void
cm_unlock(struct ping *p)
{
	if (p->threaded)
		pthread_mutex_unlock(&p->lock);
}

/* -T: drive the CM until told to stop; queue its events for the main thread. */
static void *
cm_thread(void *arg)
{
	struct ping *p = arg;
	struct rdmadev_rcm_event ev;

	while (!atomic_load(&p->stop)) {
		pthread_mutex_lock(&p->lock);
		(void)rdmadev_rcm_process(p->ch, example_now_ns());
		while (p->q_tail - p->q_head < 16 && rdmadev_rcm_get_event(p->ch, &ev) == 0)
			p->q[p->q_tail++ % 16] = ev;
		pthread_mutex_unlock(&p->lock);
		sched_yield();
	}
	return NULL;
}

/* The next event: from the channel, or (-T) from the CM thread's queue. 0 or -EAGAIN. */
static int
cm_next(struct ping *p, struct rdmadev_rcm_event *ev)
{
	int rc = -EAGAIN;

	if (!p->threaded)
		return rdmadev_rcm_get_event(p->ch, ev);
	pthread_mutex_lock(&p->lock);
	if (p->q_head != p->q_tail) {
		*ev = p->q[p->q_head++ % 16];
		rc = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return rc;
}

/* Drive the CM once; note the events that end a connection, return the first other one. */
static int
cm_step(struct ping *p, struct rdmadev_rcm_event *ev)
{
	int rc = p->threaded ? 0 : rdmadev_rcm_process(p->ch, example_now_ns());

	if (rc < 0)
		return rc;
	while (cm_next(p, ev) == 0) {
		if (ev->event == RDMADEV_RCM_EVENT_DISCONNECTED)
			p->disconnected = true;
		else if (ev->event == RDMADEV_RCM_EVENT_TIMEWAIT_EXIT)
			p->timewait_exit = true;
		else
			return 1;
	}
	return 0;
}

/* Wait for event @p want; anything else (REJECTED, UNREACHABLE, ...) fails with its name. */
static int
cm_wait(struct ping *p, enum rdmadev_rcm_event_type want, struct rdmadev_rcm_event *ev)
{
	uint64_t end = example_now_ns() + p->wait_ns;
	int rc;

	while (example_now_ns() < end) {
		rc = cm_step(p, ev);
		if (rc < 0)
			return rc;
		if ((want == RDMADEV_RCM_EVENT_DISCONNECTED && p->disconnected) ||
		    (want == RDMADEV_RCM_EVENT_TIMEWAIT_EXIT && p->timewait_exit))
			return 0;
		if (rc == 1) {
			if (ev->event == want)
				return 0;
			fprintf(stderr, "rcm_ping: waiting for %s, got %s (status %d)\n",
				rdmadev_rcm_event_str(want), rdmadev_rcm_event_str(ev->event), ev->status);
			return -ECONNREFUSED;
		}
	}
	fprintf(stderr, "rcm_ping: no %s in %" PRIu64 " s\n", rdmadev_rcm_event_str(want),
		p->wait_ns / 1000000000u);
	return -ETIMEDOUT;
}

/*
 * Wait for a successful completion of @p wr_id. A flushed receive after the peer
 * disconnected is -ENOTCONN (the end of a server's open-ended run).
 */
static int
cq_wait(struct ping *p, uint64_t wr_id)
{
	uint64_t end = example_now_ns() + p->wait_ns;
	struct rdmadev_rcm_event ev;
	struct rdmadev_wc wc;

	while (example_now_ns() < end) {
		if (rdmadev_poll_cq(p->cq, &wc, 1) == 1) {
			if (wc.status == RDMADEV_WC_WR_FLUSH_ERR)
				return -ENOTCONN;
			if (wc.status != RDMADEV_WC_SUCCESS) {
				fprintf(stderr, "rcm_ping: completion %" PRIu64 ": %s\n",
					wc.wr_id, rdmadev_wc_status_str(wc.status));
				return -EIO;
			}
			if (wc.wr_id == WR_RECV && wc.byte_len != INFO_LEN) {
				fprintf(stderr, "rcm_ping: received %u bytes, rping sends %u\n",
					wc.byte_len, INFO_LEN);
				return -EBADMSG;
			}
			if (wc.wr_id == wr_id)
				return 0;
			continue;	/* a send completing before the receive waited for */
		}
		if (cm_step(p, &ev) == 1)
			fprintf(stderr, "rcm_ping: unexpected %s\n", rdmadev_rcm_event_str(ev.event));
		if (p->disconnected && wr_id == WR_RECV) {
			/* the QP is in ERR: its receive comes back flushed */
			continue;
		}
	}
	fprintf(stderr, "rcm_ping: no completion of wr %" PRIu64 " in %" PRIu64 " s\n", wr_id,
		p->wait_ns / 1000000000u);
	return -ETIMEDOUT;
}

static int
post_recv(struct ping *p)
{
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)p->rinfo, INFO_LEN,
				   rdmadev_mr_lkey(p->mr) };
	struct rdmadev_recv_wr wr = { .wr_id = WR_RECV, .sg_list = &sge, .num_sge = 1 };
	int err = 0;

	return rdmadev_post_recv(p->qp, &wr, 1, &err) == 1 ? 0 : err;
}

/* One signaled WR: SEND of the info buffer, or READ / WRITE of @p len bytes at @p local. */
static int
post(struct ping *p, uint64_t wr_id, uint8_t *local, uint32_t len, uint64_t raddr,
     uint32_t rkey)
{
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)local, len, rdmadev_mr_lkey(p->mr) };
	struct rdmadev_send_wr wr = { 0 };
	int err = 0;

	wr.wr_id = wr_id;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.opcode = wr_id == WR_SEND ? RDMADEV_WR_SEND :
		    wr_id == WR_READ ? RDMADEV_WR_RDMA_READ : RDMADEV_WR_RDMA_WRITE;
	wr.rdma.remote_addr = raddr;
	wr.rdma.rkey = rkey;
	return rdmadev_post_send(p->qp, &wr, 1, &err) == 1 ? 0 : err;
}

/* struct rping_rdma_info naming @p b (all big endian). */
static void
info_format(struct ping *p, const uint8_t *b)
{
	uint64_t addr = rte_cpu_to_be_64((uint64_t)(uintptr_t)b);
	uint32_t rkey = rte_cpu_to_be_32(rdmadev_mr_rkey(p->mr));
	uint32_t size = rte_cpu_to_be_32(p->size);

	memcpy(p->sinfo, &addr, 8);
	memcpy(p->sinfo + 8, &rkey, 4);
	memcpy(p->sinfo + 12, &size, 4);
}

static void
info_parse(const struct ping *p, uint64_t *addr, uint32_t *rkey, uint32_t *size)
{
	memcpy(addr, p->rinfo, 8);
	memcpy(rkey, p->rinfo + 8, 4);
	memcpy(size, p->rinfo + 12, 4);
	*addr = rte_be_to_cpu_64(*addr);
	*rkey = rte_be_to_cpu_32(*rkey);
	*size = rte_be_to_cpu_32(*size);
}

/* rping's buffer for ping @p ping: "rdma-ping-%d: ", then 'A' + (ping + k) % 58, a NUL last. */
static void
ping_fill(uint8_t *b, uint32_t size, unsigned int ping)
{
	int cc = snprintf((char *)b, size, "rdma-ping-%u: ", ping);
	unsigned int c = 65 + ping % 58;
	uint32_t i;

	for (i = (uint32_t)cc; i < size; i++) {
		b[i] = (uint8_t)c;
		if (++c > 122)
			c = 65;
	}
	b[size - 1] = 0;
}

/* The QP, the CQ and one registered buffer for both infos and both data buffers. */
static int
resources(struct ping *p, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd)
{
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	size_t len = 2 * INFO_LEN + 2 * (size_t)p->size;
	int rc;

	rc = rdmadev_cq_create(ctx, &cqa, &p->cq);
	if (rc < 0)
		return rc;
	rc = example_qp_create(pd, p->cq, RDMADEV_QPT_RC, 4, &p->qp);
	if (rc < 0)
		return rc;
	p->buf = rte_zmalloc("rcm_ping", len, 4096);
	if (p->buf == NULL)
		return -ENOMEM;
	p->sinfo = p->buf;
	p->rinfo = p->buf + INFO_LEN;
	p->start = p->buf + 2 * INFO_LEN;
	p->rdma = p->start + p->size;
	return example_mr_reg(pd, p->buf, len, RDMADEV_ACCESS_LOCAL_WRITE |
			      RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_READ, &p->mr);
}

static const struct rdmadev_rcm_conn_param rping_param = {
	.responder_resources = 1, .initiator_depth = 1, .retry_count = 7, .rnr_retry_count = 7,
};

/* @p a as "ip:port" ("[ip]:port" for IPv6) in @p buf. */
static const char *
addr_str(const union rdmadev_rcm_addr *a, char buf[INET6_ADDRSTRLEN + 8])
{
	char ip[INET6_ADDRSTRLEN];

	if (a->sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &a->sin6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, INET6_ADDRSTRLEN + 8, "[%s]:%u", ip, ntohs(a->sin6.sin6_port));
	} else {
		inet_ntop(AF_INET, &a->sin.sin_addr, ip, sizeof(ip));
		snprintf(buf, INET6_ADDRSTRLEN + 8, "%s:%u", ip, ntohs(a->sin.sin_port));
	}
	return buf;
}

/* The client's id, its address and route resolved toward @p dst. 0 or -1. */
static int
resolve(struct ping *p, const union rdmadev_rcm_addr *dst)
{
	struct rdmadev_rcm_event ev;
	int rc;

	cm_lock(p);
	rc = rdmadev_rcm_create_id(p->ch, RDMADEV_RCM_PS_TCP, &p->id);
	if (rc == 0)
		rc = rdmadev_rcm_resolve_addr(p->id, &dst->sa, NULL,
					      2000);	/* rping's timeout */
	cm_unlock(p);
	CHECK(rc);
	CHECK(cm_wait(p, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev));
	cm_lock(p);
	rc = rdmadev_rcm_resolve_route(p->id);
	cm_unlock(p);
	CHECK(rc);
	CHECK(cm_wait(p, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, &ev));
	return 0;
out:
	return -1;
}

/* The end of a connection: DISCONNECTED (unless seen), then TIMEWAIT_EXIT. 0 or -1. */
static int
wait_end(struct ping *p)
{
	struct rdmadev_rcm_event ev;

	if (!p->disconnected)
		CHECK(cm_wait(p, RDMADEV_RCM_EVENT_DISCONNECTED, &ev));
	CHECK(cm_wait(p, RDMADEV_RCM_EVENT_TIMEWAIT_EXIT, &ev));
	printf("rcm_ping: disconnected\n");
	return 0;
out:
	return -1;
}

static void
drop_id(struct ping *p, struct rdmadev_rcm_id *id)
{
	if (id == NULL)
		return;
	cm_lock(p);
	rdmadev_rcm_destroy_id(id);
	cm_unlock(p);
}

/*
 * The server's listener on @p local (in *@p listener, for drop_id()) with @p backlog, until
 * a client's CONNECT_REQUEST, whose id becomes the connection's. 0 or -1.
 */
static int
listen_for(struct ping *p, const union rdmadev_rcm_addr *local, int backlog,
	   struct rdmadev_rcm_id **listener)
{
	struct rdmadev_rcm_event ev;
	int rc;

	cm_lock(p);
	rc = rdmadev_rcm_create_id(p->ch, RDMADEV_RCM_PS_TCP, listener);
	if (rc == 0)
		rc = rdmadev_rcm_bind_addr(*listener, &local->sa);
	if (rc == 0)
		rc = rdmadev_rcm_listen(*listener, backlog);
	cm_unlock(p);
	CHECK(rc);
	printf("rcm_ping: listening on port %u\n", ntohs(local->sin.sin_port));
	fflush(stdout);
	CHECK(cm_wait(p, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev));
	p->id = ev.id;
	return 0;
out:
	return -1;
}

/*
 * The connection's QP and buffer, then accept (@p server) or connect with rping's
 * parameters and post the first receive (the QP is in RTR, or the client's in INIT, from
 * there on); ESTABLISHED in @p ev. 0 or -1.
 */
static int
establish(struct ping *p, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd, bool server,
	  struct rdmadev_rcm_event *ev)
{
	int rc;

	CHECK(resources(p, ctx, pd));
	cm_lock(p);
	rc = server ? rdmadev_rcm_accept(p->id, p->qp, &rping_param, example_now_ns()) :
		      rdmadev_rcm_connect(p->id, p->qp, &rping_param, example_now_ns());
	if (rc == 0)
		rc = post_recv(p);
	cm_unlock(p);
	CHECK(rc);
	CHECK(cm_wait(p, RDMADEV_RCM_EVENT_ESTABLISHED, ev));
	return 0;
out:
	return -1;
}

static int
run_client(struct ping *p, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
	   const union rdmadev_rcm_addr *dst, unsigned int count)
{
	struct rdmadev_rcm_event ev;
	char astr[INET6_ADDRSTRLEN + 8];
	unsigned int i;
	int rc;

	CHECK(resolve(p, dst));
	CHECK(establish(p, ctx, pd, false, &ev));
	printf("rcm_ping: connected to %s, QP %u\n", addr_str(&ev.dst, astr),
	       rdmadev_qp_num(p->qp));
	for (i = 0; i < count; i++) {
		ping_fill(p->start, p->size, i);
		memset(p->rdma, 0, p->size);
		info_format(p, p->start);
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));
		CHECK(cq_wait(p, WR_RECV));	/* the server read it */
		CHECK(post_recv(p));
		info_format(p, p->rdma);
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));
		CHECK(cq_wait(p, WR_RECV));	/* the server wrote it back */
		CHECK(post_recv(p));
		if (memcmp(p->start, p->rdma, p->size) != 0) {
			fprintf(stderr, "rcm_ping: ping %u: the data written back differs\n", i);
			return -EBADMSG;
		}
	}
	printf("rcm_ping: %u pings of %u bytes, each read and written back and checked\n",
	       count, p->size);
	cm_lock(p);
	rc = rdmadev_rcm_disconnect(p->id, example_now_ns());
	cm_unlock(p);
	CHECK(rc);
	return wait_end(p);
out:
	return -1;
}

static int
run_server(struct ping *p, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
	   const union rdmadev_rcm_addr *local, unsigned int count)
{
	struct rdmadev_rcm_id *listener = NULL;
	struct rdmadev_rcm_event ev;
	char astr[INET6_ADDRSTRLEN + 8];
	uint64_t raddr;
	uint32_t rkey, rsize;
	unsigned int i;
	int rc, ret = -1;

	CHECK(listen_for(p, local, 3, &listener));	/* rping's backlog */
	CHECK(establish(p, ctx, pd, true, &ev));
	printf("rcm_ping: connection from %s, QP %u\n", addr_str(&ev.dst, astr),
	       rdmadev_qp_num(p->qp));
	for (i = 0; count == 0 || i < count; i++) {
		rc = cq_wait(p, WR_RECV);	/* the client's start buffer */
		if (rc == -ENOTCONN && count == 0 && i > 0)
			break;
		CHECK(rc);
		CHECK(post_recv(p));
		info_parse(p, &raddr, &rkey, &rsize);
		if (rsize != p->size) {
			fprintf(stderr, "rcm_ping: the client's buffer is %u bytes, ours %u "
				"(give both the same -S)\n", rsize, p->size);
			goto out;
		}
		CHECK(post(p, WR_READ, p->rdma, rsize, raddr, rkey));
		CHECK(cq_wait(p, WR_READ));
		ping_fill(p->start, p->size, i);
		if (memcmp(p->start, p->rdma, p->size) != 0) {
			fprintf(stderr, "rcm_ping: ping %u: read \"%.*s\", not rping's text\n", i,
				(int)p->size, (const char *)p->rdma);
			goto out;
		}
		memset(p->sinfo, 0, INFO_LEN);
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));	/* go ahead */
		CHECK(cq_wait(p, WR_RECV));	/* the client's sink buffer */
		CHECK(post_recv(p));
		info_parse(p, &raddr, &rkey, &rsize);
		CHECK(post(p, WR_WRITE, p->rdma,
			   (uint32_t)strnlen((const char *)p->rdma, p->size - 1) + 1, raddr,
			   rkey));
		CHECK(cq_wait(p, WR_WRITE));
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));	/* written */
	}
	printf("rcm_ping: %u pings of %u bytes read, checked and written back\n", i, p->size);
	ret = wait_end(p);
out:
	drop_id(p, listener);
	return ret;
}

/*
 * -E, rdma-core's rdma_client / rdma_server (librdmacm/examples): one 16-byte SEND each
 * way. The client posts its receive, connects, SENDs, waits for the server's message and
 * disconnects; the server posts its receive, accepts, waits for the client's message,
 * SENDs and disconnects. The DREQs may cross; both wait for the end of timewait.
 */
static int
run_echo(struct ping *p, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
	 const union rdmadev_rcm_addr *addr, bool server)
{
	struct rdmadev_rcm_id *listener = NULL;
	struct rdmadev_rcm_event ev;
	int rc, ret = -1;

	if (server)
		CHECK(listen_for(p, addr, 0, &listener));
	else
		CHECK(resolve(p, addr));
	CHECK(establish(p, ctx, pd, server, &ev));
	memset(p->sinfo, server ? 's' : 'c', INFO_LEN);
	if (!server) {
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));
		CHECK(cq_wait(p, WR_SEND));
	}
	CHECK(cq_wait(p, WR_RECV));
	if (server) {
		CHECK(post(p, WR_SEND, p->sinfo, INFO_LEN, 0, 0));
		CHECK(cq_wait(p, WR_SEND));
	}
	printf("rcm_ping: %u bytes each way (rdma_%s's exchange)\n", INFO_LEN,
	       server ? "client" : "server");
	if (!p->disconnected) {
		cm_lock(p);
		rc = rdmadev_rcm_disconnect(p->id, example_now_ns());
		cm_unlock(p);
		if (rc < 0 && !p->disconnected)
			CHECK(rc);
	}
	ret = wait_end(p);
out:
	drop_id(p, listener);
	return ret;
}

static void
usage(void)
{
	fprintf(stderr, "usage: rcm_ping [EAL options] -- [-p port] [-S size] [-C count] "
		"[-w seconds] [-T] [-E] server <devargs> [bind-ip]\n"
		"       rcm_ping [EAL options] -- [...] client <devargs> <server-ip>\n"
		"       (an IPv4 or IPv6 address; an IPv6 server binds to one, :: for any)\n");
}

int
main(int argc, char **argv)
{
	struct ping p = { .size = 64, .wait_ns = 30000000000ull };
	union rdmadev_rcm_addr sin = { .sin.sin_family = AF_INET };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	unsigned int count = 0, port = 7174;
	bool server, count_set = false, echo = false, port_set = false;
	int16_t dev = -1;
	int n, c, ret = 1, role;

	n = example_eal_init(argc, argv);
	if (n < 0)
		return 1;
	argc -= n;
	argv += n;
	while ((c = getopt(argc, argv, "p:S:C:w:TE")) != -1) {
		long v = optarg != NULL ? strtol(optarg, NULL, 0) : 0;

		switch (c) {
		case 'T':
			p.threaded = true;
			break;
		case 'E':
			echo = true;
			break;
		case 'p':
			if (v < 1 || v > 65535)
				goto bad_opt;
			port = (unsigned int)v;
			port_set = true;
			break;
		case 'S':
			if (v < MIN_SIZE || v > MAX_SIZE)
				goto bad_opt;
			p.size = (uint32_t)v;
			break;
		case 'C':
			if (v < 0 || v > 1000000000)
				goto bad_opt;
			count = (unsigned int)v;
			count_set = true;
			break;
		case 'w':
			if (v < 1 || v > 3600)
				goto bad_opt;
			p.wait_ns = (uint64_t)v * 1000000000u;
			break;
		default:
			usage();
			return 2;
		}
	}
	argv += optind;
	argc -= optind;
	role = example_role(argc, argv);
	if (role < 0) {
		usage();
		return 2;
	}
	server = role == 1;
	if (!server && !count_set)
		count = 10;
	if (!server && count == 0) {
		fprintf(stderr, "rcm_ping: the client needs -C 1 or more\n");
		return 2;
	}
	if (echo && !port_set)
		port = 7471;		/* rdma_server's */
	sin.sin.sin_port = htons((uint16_t)port);	/* sin_port and sin6_port share their place */
	if (argc >= 3 && inet_pton(AF_INET, argv[2], &sin.sin.sin_addr) != 1) {
		sin.sin6.sin6_family = AF_INET6;
		if (inet_pton(AF_INET6, argv[2], &sin.sin6.sin6_addr) != 1) {
			fprintf(stderr, "rcm_ping: not an IPv4 or IPv6 address: %s\n", argv[2]);
			return 2;
		}
	}

	if (example_dev_open(argv[1], &dev, &ctx, &pd) < 0)
		goto out;
	CHECK(rdmadev_rcm_channel_create(ctx, &p.ch));
	if (p.threaded) {
		pthread_mutex_init(&p.lock, NULL);
		if (pthread_create(&p.thread, NULL, cm_thread, &p) != 0) {
			fprintf(stderr, "rcm_ping: no CM thread\n");
			p.threaded = false;
			goto out;
		}
	}
	if (echo)
		ret = run_echo(&p, ctx, pd, &sin, server) == 0 ? 0 : 1;
	else if (server)
		ret = run_server(&p, ctx, pd, &sin, count) == 0 ? 0 : 1;
	else
		ret = run_client(&p, ctx, pd, &sin, count) == 0 ? 0 : 1;
	goto out;
bad_opt:
	fprintf(stderr, "rcm_ping: bad value for -%c: %s\n", c, optarg);
	usage();
	ret = 2;
out:
	if (p.threaded) {
		atomic_store(&p.stop, true);
		pthread_join(p.thread, NULL);
		p.threaded = false;
	}
	if (p.id != NULL)
		rdmadev_rcm_destroy_id(p.id);
	if (p.qp != NULL && rdmadev_qp_destroy(p.qp) < 0)
		ret = 1;
	if (p.mr != NULL && rdmadev_mr_dereg(p.mr) < 0)
		ret = 1;
	rte_free(p.buf);
	if (p.cq != NULL && rdmadev_cq_destroy(p.cq) < 0)
		ret = 1;
	rdmadev_rcm_channel_destroy(p.ch);
	if (example_dev_close(dev, ctx, pd) != 0)
		ret = 1;
	rte_eal_cleanup();
	return ret;
}
