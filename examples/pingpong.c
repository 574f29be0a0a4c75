/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * pingpong: SEND / RECV ping-pong between two processes, like ibv_rc_pingpong.
 *
 *   pingpong [EAL options] -- server <devargs> [tcp-port]
 *   pingpong [EAL options] -- client <devargs> <server-ipv4> [tcp-port] [iterations]
 *
 * On one host with the device model, each process gets its own model device on the UDP wire,
 * bound to its own loopback address, which is also its GID:
 *   pingpong --no-huge -m 512 -l 0 --file-prefix s -- server irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1
 *   pingpong --no-huge -m 512 -l 1 --file-prefix c -- client irdma_model0,ip=127.0.0.2,wire=udp:127.0.0.2 127.0.0.1
 *
 * The QPs are connected with the parameters exchanged over TCP (rdmadev_cm_*: QPN, PSN, GID,
 * MTU), as ibv_rc_pingpong does on port 18515. Then the client sends, the server echoes, for
 * the given number of iterations; each side checks every byte it receives.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>

#define EXAMPLE_NAME "pingpong"
#include "example_qp.h"

#define MSG 64u			/* bytes per message */
#define TIMEOUT_MS 5000		/* longest wait for the peer or a completion */

#define WR_SEND 1u	/* wr_id of the send, bit in wait_for()'s mask */
#define WR_RECV 2u	/* wr_id of the receive */

/* Poll until a successful completion of each WR in @p want (WR_SEND | WR_RECV) has come. */
static int
wait_for(struct rdmadev_cq *cq, unsigned int want)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * TIMEOUT_MS / 1000;
	struct rdmadev_wc wc;

	while (want != 0) {
		if (rdmadev_poll_cq(cq, &wc, 1) == 0) {
			if (rte_get_timer_cycles() > deadline)
				return -ETIMEDOUT;
			continue;
		}
		if (wc.status != RDMADEV_WC_SUCCESS || !(want & wc.wr_id)) {
			fprintf(stderr, "pingpong: completion %" PRIu64 ": %s\n", wc.wr_id,
				rdmadev_wc_status_str(wc.status));
			return -EIO;
		}
		want &= ~(unsigned int)wc.wr_id;
	}
	return 0;
}

/* Message @p i from the client (@p from 0) or the server (1): every byte depends on both. */
static void
fill(uint8_t *m, unsigned int i, unsigned int from)
{
	unsigned int j;

	for (j = 0; j < MSG; j++)
		m[j] = (uint8_t)(i * 31 + j * 7 + from);
}

static int
check(const uint8_t *m, unsigned int i, unsigned int from)
{
	uint8_t want[MSG];

	fill(want, i, from);
	if (memcmp(m, want, MSG) == 0)
		return 0;
	fprintf(stderr, "pingpong: message %u differs\n", i);
	return -EBADMSG;
}

int
main(int argc, char **argv)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_qp_init_attr qa = { .qp_type = RDMADEV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			 .max_recv_sge = 1 } };
	struct rdmadev_cm_param local = { .mtu = RDMADEV_MTU_1024 }, remote;
	struct rdmadev_mr_attr ma = { .length = 2 * MSG,
				      .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev_mr *mr = NULL;
	struct rdmadev_cm_id *cm = NULL;
	/*
	 * No MAC: the UDP wire delivers by IP address, the model's Ethernet wire resolves the
	 * peer's GID by ARP (doc/interop.md).
	 */
	struct rdmadev_ah_attr av = { .hop_limit = 64, .vlan_id = 0xffff, .port_num = 1 };
	struct rdmadev_send_wr swr = { .wr_id = WR_SEND, .num_sge = 1,
				       .opcode = RDMADEV_WR_SEND,
				       .flags = RDMADEV_SEND_SIGNALED };
	struct rdmadev_recv_wr rwr = { .wr_id = WR_RECV, .num_sge = 1 };
	struct rdmadev_sge ssge, rsge;
	unsigned int iters = 1000, i;
	uint16_t port = 18515;
	uint64_t t0 = 0, t1;
	uint8_t *buf = NULL;
	int16_t dev = -1;
	int n, ret = 1, err = 0, server;

	n = rte_eal_init(argc, argv);
	if (n < 0 || argc - n < 3 ||
	    (strcmp(argv[n + 1], "server") != 0 &&
	     (strcmp(argv[n + 1], "client") != 0 || argc - n < 4))) {
		fprintf(stderr, "usage: pingpong [EAL] -- server <devargs> [port] | "
			"client <devargs> <server-ipv4> [port] [iterations]\n");
		return 2;
	}
	argv += n + 1;
	argc -= n + 1;
	server = strcmp(argv[0], "server") == 0;
	if (argc > (server ? 2 : 3))
		port = (uint16_t)atoi(argv[server ? 2 : 3]);
	if (!server && argc > 4)
		iters = (unsigned int)atoi(argv[4]);

	/* The device, its objects, one buffer: [0, MSG) to send from, [MSG, 2 MSG) to receive. */
	CHECK(dev = (int16_t)rdmadev_open(argv[1]));
	CHECK(rdmadev_configure(dev, &conf));
	CHECK(rdmadev_start(dev));
	CHECK(rdmadev_ctx_alloc(dev, &ctx));
	CHECK(rdmadev_pd_alloc(ctx, &pd));
	CHECK(rdmadev_cq_create(ctx, &cqa, &cq));
	qa.pd = pd;
	qa.send_cq = cq;
	qa.recv_cq = cq;
	CHECK(rdmadev_qp_create(&qa, &qp));
	buf = rte_zmalloc("pingpong", 2 * MSG, 64);
	if (buf == NULL)
		goto out;
	ma.addr = buf;
	ma.iova = (uint64_t)(uintptr_t)buf;
	CHECK(rdmadev_mr_reg(pd, &ma, &mr));
	ssge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)buf, MSG, rdmadev_mr_lkey(mr) };
	rsge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)buf + MSG, MSG, rdmadev_mr_lkey(mr) };
	swr.sg_list = &ssge;
	rwr.sg_list = &rsge;

	/* Exchange QPN, PSN, GID and MTU over TCP, then connect. */
	local.qpn = rdmadev_qp_num(qp);
	local.psn = server ? 0x1000 : 0x2000;
	CHECK(rdmadev_gid_get(dev, 0, local.gid));
	CHECK(rdmadev_cm_id_create(ctx, &cm));
	if (server) {
		CHECK(rdmadev_cm_listen(cm, NULL, port));
		CHECK(rdmadev_cm_accept(cm, &local, &remote, 10 * TIMEOUT_MS));
	} else {
		CHECK(rdmadev_cm_connect(cm, argv[2], port, &local, &remote, TIMEOUT_MS));
	}
	/* A receive is posted before the QP can get a message (else the sender sees RNR). */
	CHECK(example_qp_init(qp));
	CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
	memcpy(av.dgid, remote.gid, 16);
	CHECK(example_qp_connect(qp, remote.qpn, &av, RTE_MIN(local.mtu, remote.mtu),
				 remote.psn, local.psn));

	if (!server) {
		/* Send message i, get its echo, check it; the first round trip warms up. */
		for (i = 0; i < iters; i++) {
			fill(buf, i, 0);
			if (i == 1)
				t0 = rte_get_timer_cycles();
			CHECK(rdmadev_post_send(qp, &swr, 1, &err) == 1 ? 0 : err);
			CHECK(wait_for(cq, WR_SEND | WR_RECV));
			CHECK(check(buf + MSG, i, 1));
			CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
		}
		t1 = rte_get_timer_cycles();
		printf("pingpong: %u round trips of %u bytes, %.2f us each\n", iters, MSG,
		       iters > 1 ? (double)(t1 - t0) * 1e6 / rte_get_timer_hz() / (iters - 1) : 0);
		memset(buf, 0xff, MSG);	/* the last message: tells the server to stop */
		CHECK(rdmadev_post_send(qp, &swr, 1, &err) == 1 ? 0 : err);
		CHECK(wait_for(cq, WR_SEND));
	} else {
		/* Echo every message until the client's all-0xff one. */
		for (i = 0;; i++) {
			CHECK(wait_for(cq, WR_RECV));
			if (buf[MSG] == 0xff && buf[2 * MSG - 1] == 0xff)
				break;
			CHECK(check(buf + MSG, i, 0));
			CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
			fill(buf, i, 1);
			CHECK(rdmadev_post_send(qp, &swr, 1, &err) == 1 ? 0 : err);
			CHECK(wait_for(cq, WR_SEND));
		}
		printf("pingpong: echoed %u messages of %u bytes\n", i, MSG);
	}
	ret = 0;
out:
	if (cm != NULL)
		rdmadev_cm_id_destroy(cm);
	if (qp != NULL && rdmadev_qp_destroy(qp) < 0)
		ret = 1;
	if (mr != NULL && rdmadev_mr_dereg(mr) < 0)
		ret = 1;
	rte_free(buf);
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		ret = 1;
	if (pd != NULL && rdmadev_pd_free(pd) < 0)
		ret = 1;
	if (ctx != NULL && rdmadev_ctx_free(ctx) < 0)
		ret = 1;
	if (dev >= 0) {
		rdmadev_stop(dev);
		if (rdmadev_close(dev) < 0)
			ret = 1;
	}
	rte_eal_cleanup();
	return ret;
}
