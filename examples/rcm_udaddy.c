/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rcm_udaddy: rdma_cm's UDP port space (lib/rdmadev/rdmadev_rcm.h, RDMADEV_RCM_PS_UDP),
 * speaking the exchange of rdma-core's udaddy (librdmacm/examples/udaddy.c), so that either
 * side may be that program, unmodified.
 *
 *   rcm_udaddy [EAL options] -- [options] server <devargs>
 *   rcm_udaddy [EAL options] -- [options] client <devargs> <server-ipv4>
 *
 * Options, as udaddy's: -p <port> (7174), -S <message bytes> (100), -C <messages> (10);
 * -w <seconds> (30), the longest wait for any one step.
 *
 * The client resolves the server through SIDR (the CM's SIDR_REQ with the CMA header), posts
 * its receives, takes the server's UD QP, Q_Key and address from ESTABLISHED and SENDs -C
 * datagrams of -S bytes with immediate data (its QPN, big endian), then waits for as many
 * replies. The server accepts (SIDR_REP with its UD QP and Q_Key 0x01234567), receives -C
 * datagrams, answers each sender at the source address of the first (its GRH area) and the
 * QPN of its immediate data, -C datagrams back. Both check every datagram's length and
 * immediate data.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
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

#define EXAMPLE_NAME "rcm_udaddy"
#include "example_qp.h"

#define GRH 40u			/* the GRH area ahead of every UD receive */
#define MAX_MSGS 1024u

struct uda {
	struct rdmadev_rcm_channel *ch;
	struct rdmadev_rcm_id *id;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	struct rdmadev_ah *ah;
	uint8_t *buf;		/* one send slot, then a receive slot per message */
	uint32_t size, count;
	uint64_t wait_ns;
	uint32_t remote_qpn, remote_qkey;
};

/* Wait for event @p want (any other is an error, named). */
static int
cm_wait(struct uda *u, enum rdmadev_rcm_event_type want, struct rdmadev_rcm_event *ev)
{
	uint64_t end = example_now_ns() + u->wait_ns;
	int rc;

	while (example_now_ns() < end) {
		rc = rdmadev_rcm_process(u->ch, example_now_ns());
		if (rc < 0)
			return rc;
		if (rdmadev_rcm_get_event(u->ch, ev) != 0)
			continue;
		if (ev->event == want)
			return 0;
		fprintf(stderr, "rcm_udaddy: waiting for %s, got %s (status %d)\n",
			rdmadev_rcm_event_str(want), rdmadev_rcm_event_str(ev->event), ev->status);
		return -ECONNREFUSED;
	}
	fprintf(stderr, "rcm_udaddy: no %s\n", rdmadev_rcm_event_str(want));
	return -ETIMEDOUT;
}

/* The UD QP (RESET: the CM brings it to RTS), its CQ, buffer and receives. */
static int
resources(struct uda *u, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd)
{
	struct rdmadev_cq_attr ca = { .cqe = 2 * u->count + 4 };
	size_t len = (size_t)(u->count + 1) * (GRH + u->size);

	CHECK(rdmadev_cq_create(ctx, &ca, &u->cq));
	CHECK(example_qp_create(pd, u->cq, RDMADEV_QPT_UD, u->count, &u->qp));
	u->buf = rte_zmalloc("rcm_udaddy", len, 64);
	if (u->buf == NULL)
		return -ENOMEM;
	CHECK(example_mr_reg(pd, u->buf, len, RDMADEV_ACCESS_LOCAL_WRITE, &u->mr));
	return 0;
out:
	return -1;
}

/* After the CM moved the QP to RTS: the receives, one slot each. */
static int
post_recvs(struct uda *u)
{
	struct rdmadev_recv_wr wr = { 0 };
	struct rdmadev_sge sge;
	uint32_t i;
	int err = 0;

	for (i = 0; i < u->count; i++) {
		sge.addr = (uint64_t)(uintptr_t)(u->buf + (size_t)(i + 1) * (GRH + u->size));
		sge.length = GRH + u->size;
		sge.lkey = rdmadev_mr_lkey(u->mr);
		wr.wr_id = 1000 + i;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		if (rdmadev_post_recv(u->qp, &wr, 1, &err) != 1)
			return err != 0 ? err : -EIO;
	}
	return 0;
}

/* -C SENDs with immediate data (our QPN) to the peer, each signaled. */
static int
post_sends(struct uda *u)
{
	struct rdmadev_send_wr wr = { 0 };
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)u->buf, u->size, rdmadev_mr_lkey(u->mr) };
	uint32_t i;
	int err = 0;

	memset(u->buf, 'u', u->size);
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RDMADEV_WR_SEND_IMM;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.imm_data = rte_cpu_to_be_32(rdmadev_qp_num(u->qp));
	wr.ud.ah = u->ah;
	wr.ud.remote_qpn = u->remote_qpn;
	wr.ud.remote_qkey = u->remote_qkey;
	for (i = 0; i < u->count; i++) {
		wr.wr_id = i;
		if (rdmadev_post_send(u->qp, &wr, 1, &err) != 1)
			return err != 0 ? err : -EIO;
	}
	return 0;
}

/*
 * Wait for -C receives (checked: the size, immediate data; the first one's sender in
 * @p first) and @p sends send completions.
 */
static int
poll_all(struct uda *u, uint32_t recvs, uint32_t sends, struct rdmadev_wc *first)
{
	uint64_t end = example_now_ns() + u->wait_ns;
	struct rdmadev_wc wc;

	while ((recvs > 0 || sends > 0) && example_now_ns() < end) {
		(void)rdmadev_rcm_process(u->ch, example_now_ns());
		if (rdmadev_poll_cq(u->cq, &wc, 1) != 1)
			continue;
		if (wc.status != RDMADEV_WC_SUCCESS) {
			fprintf(stderr, "rcm_udaddy: wr %" PRIu64 ": %s\n", wc.wr_id,
				rdmadev_wc_status_str(wc.status));
			return -EIO;
		}
		if (wc.opcode != RDMADEV_WC_RECV) {
			sends--;
			continue;
		}
		if (wc.byte_len != GRH + u->size || !(wc.wc_flags & RDMADEV_WC_WITH_IMM)) {
			fprintf(stderr, "rcm_udaddy: a datagram of %u bytes%s, not %u with "
				"immediate data\n", wc.byte_len - GRH,
				(wc.wc_flags & RDMADEV_WC_WITH_IMM) ? "" : " without immediate",
				u->size);
			return -EPROTO;
		}
		if (first != NULL && recvs == u->count)
			*first = wc;
		recvs--;
	}
	if (recvs > 0 || sends > 0) {
		fprintf(stderr, "rcm_udaddy: %u datagrams and %u send completions missing\n",
			recvs, sends);
		return -ETIMEDOUT;
	}
	return 0;
}

static int
run_client(struct uda *u, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
	   const struct sockaddr_in *dst)
{
	struct rdmadev_rcm_event ev;

	CHECK(rdmadev_rcm_create_id(u->ch, RDMADEV_RCM_PS_UDP, &u->id));
	CHECK(rdmadev_rcm_resolve_addr(u->id, (const struct sockaddr *)dst, NULL, 2000));
	CHECK(cm_wait(u, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev));
	CHECK(rdmadev_rcm_resolve_route(u->id));
	CHECK(cm_wait(u, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, &ev));
	CHECK(resources(u, ctx, pd));
	CHECK(rdmadev_rcm_connect(u->id, u->qp, NULL, example_now_ns()));
	CHECK(post_recvs(u));		/* the QP is in RTS from connect on */
	CHECK(cm_wait(u, RDMADEV_RCM_EVENT_ESTABLISHED, &ev));
	u->remote_qpn = ev.ud_qpn;
	u->remote_qkey = ev.ud_qkey;
	CHECK(rdmadev_ah_create(pd, &ev.ah_attr, &u->ah));
	printf("rcm_udaddy: resolved %s:%u: QPN %u, Q_Key 0x%x\n", inet_ntoa(dst->sin_addr),
	       ntohs(dst->sin_port), u->remote_qpn, u->remote_qkey);
	CHECK(post_sends(u));
	CHECK(poll_all(u, u->count, u->count, NULL));
	printf("rcm_udaddy: %u datagrams of %u bytes sent, %u replies received\n", u->count,
	       u->size, u->count);
	return 0;
out:
	return -1;
}

static int
run_server(struct uda *u, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd, uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct rdmadev_rcm_id *listener = NULL;
	struct rdmadev_ah_attr av = { 0 };
	struct rdmadev_rcm_event ev;
	struct rdmadev_wc wc;
	const uint8_t *g;
	int ret = -1;

	CHECK(rdmadev_rcm_create_id(u->ch, RDMADEV_RCM_PS_UDP, &listener));
	CHECK(rdmadev_rcm_bind_addr(listener, (const struct sockaddr *)&sin));
	CHECK(rdmadev_rcm_listen(listener, 0));
	printf("rcm_udaddy: listening on port %u\n", port);
	fflush(stdout);
	CHECK(cm_wait(u, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev));
	u->id = ev.id;
	CHECK(resources(u, ctx, pd));
	CHECK(rdmadev_rcm_accept(u->id, u->qp, NULL, example_now_ns()));
	CHECK(post_recvs(u));
	printf("rcm_udaddy: request from %s:%u, QP %u\n", inet_ntoa(ev.dst.sin.sin_addr),
	       ntohs(ev.dst.sin.sin_port), rdmadev_qp_num(u->qp));
	CHECK(poll_all(u, u->count, 0, &wc));
	/* udaddy's create_reply_ah: the sender's address, its QPN from the immediate data */
	g = u->buf + (size_t)(wc.wr_id - 1000 + 1) * (GRH + u->size);	/* its GRH area */
	if ((g[0] >> 4) == 6) {
		memcpy(av.dgid, g + 8, 16);		/* an IPv6 header: its source */
	} else {
		av.dgid[10] = 0xff;			/* IPv4: the header in the last 20 */
		av.dgid[11] = 0xff;
		memcpy(av.dgid + 12, g + 20 + 12, 4);
	}
	memcpy(av.dmac, wc.smac, 6);
	av.hop_limit = 64;
	av.vlan_id = 0xffff;
	av.port_num = 1;
	CHECK(rdmadev_ah_create(pd, &av, &u->ah));
	u->remote_qpn = rte_be_to_cpu_32(wc.imm_data) & 0xffffffu;
	u->remote_qkey = RDMADEV_RCM_UDP_QKEY;
	CHECK(post_sends(u));
	CHECK(poll_all(u, 0, u->count, NULL));
	printf("rcm_udaddy: %u datagrams of %u bytes received, %u replies sent to QPN %u\n",
	       u->count, u->size, u->count, u->remote_qpn);
	ret = 0;
out:
	if (listener != NULL)
		rdmadev_rcm_destroy_id(listener);
	return ret;
}

int
main(int argc, char **argv)
{
	struct uda u = { .size = 100, .count = 10, .wait_ns = 30000000000ull };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	unsigned int port = 7174;
	int16_t dev = -1;
	int n, c, ret = 1, role;

	n = example_eal_init(argc, argv);
	if (n < 0)
		return 1;
	argc -= n;
	argv += n;
	while ((c = getopt(argc, argv, "p:S:C:w:")) != -1) {
		long v = strtol(optarg, NULL, 0);

		if ((c == 'p' && (v < 1 || v > 65535)) || (c == 'S' && (v < 1 || v > 4096)) ||
		    (c == 'C' && (v < 1 || v > MAX_MSGS)) || (c == 'w' && (v < 1 || v > 3600)) ||
		    (c != 'p' && c != 'S' && c != 'C' && c != 'w')) {
			fprintf(stderr, "rcm_udaddy: bad option -%c\n", c);
			return 2;
		}
		if (c == 'p')
			port = (unsigned int)v;
		else if (c == 'S')
			u.size = (uint32_t)v;
		else if (c == 'C')
			u.count = (uint32_t)v;
		else
			u.wait_ns = (uint64_t)v * 1000000000u;
	}
	argv += optind;
	argc -= optind;
	role = example_role(argc, argv);
	if (role < 0) {
		fprintf(stderr, "usage: rcm_udaddy [EAL options] -- [-p port] [-S size] [-C count] "
			"[-w seconds] server <devargs> | client <devargs> <server-ipv4>\n");
		return 2;
	}
	sin.sin_port = htons((uint16_t)port);
	if (argc >= 3 && inet_pton(AF_INET, argv[2], &sin.sin_addr) != 1) {
		fprintf(stderr, "rcm_udaddy: not an IPv4 address: %s\n", argv[2]);
		return 2;
	}
	if (example_dev_open(argv[1], &dev, &ctx, &pd) < 0)
		goto out;
	CHECK(rdmadev_rcm_channel_create(ctx, &u.ch));
	if (role == 1)
		ret = run_server(&u, ctx, pd, (uint16_t)port) == 0 ? 0 : 1;
	else
		ret = run_client(&u, ctx, pd, &sin) == 0 ? 0 : 1;
out:
	if (u.id != NULL)
		rdmadev_rcm_destroy_id(u.id);
	if (u.ah != NULL)
		rdmadev_ah_destroy(u.ah);
	if (u.qp != NULL)
		rdmadev_qp_destroy(u.qp);
	if (u.mr != NULL)
		rdmadev_mr_dereg(u.mr);
	if (u.cq != NULL)
		rdmadev_cq_destroy(u.cq);
	rte_free(u.buf);
	rdmadev_rcm_channel_destroy(u.ch);
	if (example_dev_close(dev, ctx, pd) != 0) {
		fprintf(stderr, "rcm_udaddy: objects left at close\n");
		ret = 1;
	}
	rte_eal_cleanup();
	return ret;
}
