/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * pingpong: SEND / RECV ping-pong between two processes that pairs with rdma-core's
 * ibv_rc_pingpong (either side may be that program, unmodified).
 *
 *   pingpong [EAL options] -- [options] server <devargs>
 *   pingpong [EAL options] -- [options] client <devargs> <server-host>
 *
 * Options, as ibv_rc_pingpong's: -p <tcp port> (18515), -s <message bytes> (4096),
 * -n <iterations> (1000; both sides must be given the same), -g <local GID index> (0),
 * -m <path MTU> (1024); and -t <local ACK timeout exponent> (14: 4.096 us << 14, what
 * ibv_rc_pingpong sets; the device model divides its retransmit timeout by 64, so a slow
 * peer such as rxe in an emulated VM wants 20 or more).
 *
 * On one host with the device model, each process gets its own model device on the UDP wire,
 * bound to its own loopback address, which is also its GID:
 *   pingpong --no-huge -m 512 -l 0 --file-prefix s -- server irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1
 *   pingpong --no-huge -m 512 -l 1 --file-prefix c -- client irdma_model0,ip=127.0.0.2,wire=udp:127.0.0.2 127.0.0.1
 * Against a kernel RoCEv2 device (rdma_rxe) the model needs the Ethernet wire
 * (doc/interop.md), the verbs side `ibv_rc_pingpong -g 1` (rxe's IPv4-mapped GID).
 *
 * The QP parameters travel over TCP as ibv_rc_pingpong sends them: each side one
 * NUL-terminated "LID:QPN:PSN:GID" string ("%04x:%06x:%06x:" and the GID's 16 raw bytes as
 * 32 hex digits, 52 bytes in all), the client first; the server connects its QP before it
 * answers; the client then writes "done" (5 bytes with the NUL). The client sends message i,
 * the server echoes it, for the given number of iterations. Data checks: every echo the
 * client gets is byte for byte what it sent; every message the server gets is this client's
 * message i or, from ibv_rc_pingpong (which sends from the buffer it receives into), its
 * first buffer (0x7b, with `-c` a 0 at every 4 KiB offset) and then the server's last echo.
 * The client's messages have a 0 at every 4 KiB offset, so `ibv_rc_pingpong -c` (which
 * checks those bytes) finds what it expects.
 */

#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include <rdmadev.h>

#define EXAMPLE_NAME "pingpong"
#include "example_qp.h"

#define TIMEOUT_MS 10000	/* longest wait for a completion or a TCP read */
#define CONNECT_MS 60000	/* how long the client retries connecting to the server */
#define ACCEPT_MS 120000	/* how long the server waits for the client */
#define MAX_SIZE (16u << 20)	/* largest message */
#define RC_PAGE 4096u		/* ibv_rc_pingpong -c's check stride (its page size) */
#define RC_FILL 0x7b		/* ibv_rc_pingpong's initial buffer byte */

/* ibv_rc_pingpong's message: "%04x:%06x:%06x:%s" with a 32-digit GID, and its NUL. */
#define EXCH_LEN (sizeof("0000:000000:000000:00000000000000000000000000000000"))

#define WR_SEND 1u	/* wr_id of the send, bit in wait_for()'s mask */
#define WR_RECV 2u	/* wr_id of the receive */

/* What a side tells the other. */
struct pp_dest {
	unsigned int lid;
	unsigned int qpn;
	unsigned int psn;
	uint8_t gid[16];
};

/*
 * Completions that came before they were waited for: the server's next receive can complete
 * before its echo's send does (ibv_rc_pingpong sends again as soon as it has the echo).
 */
static unsigned int early;

/* Poll until a successful completion of each WR in @p want (WR_SEND | WR_RECV) has come. */
static int
wait_for(struct rdmadev_cq *cq, unsigned int want)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * TIMEOUT_MS / 1000;
	unsigned int got = early & want;
	struct rdmadev_wc wc;

	early &= ~got;
	want &= ~got;
	while (want != 0) {
		if (rdmadev_poll_cq(cq, &wc, 1) == 0) {
			if (rte_get_timer_cycles() > deadline) {
				fprintf(stderr, "pingpong: no completion in %u ms\n", TIMEOUT_MS);
				return -ETIMEDOUT;
			}
			continue;
		}
		if (wc.status != RDMADEV_WC_SUCCESS ||
		    (wc.wr_id != WR_SEND && wc.wr_id != WR_RECV) || (early & wc.wr_id)) {
			fprintf(stderr, "pingpong: completion %" PRIu64 ": %s\n", wc.wr_id,
				rdmadev_wc_status_str(wc.status));
			return -EIO;
		}
		if (want & wc.wr_id)
			want &= ~(unsigned int)wc.wr_id;
		else
			early |= (unsigned int)wc.wr_id;
	}
	return 0;
}

/* Keep the engine turning a little (it runs in our polls): the last ACK leaves. */
static void
drain(struct rdmadev_cq *cq)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 20;
	struct rdmadev_wc wc;

	while (rte_get_timer_cycles() < end)
		(void)rdmadev_poll_cq(cq, &wc, 1);
}

/* The client's message @p i: every byte depends on i, 0 at each RC_PAGE offset. */
static void
fill(uint8_t *m, size_t size, unsigned int i)
{
	size_t j;

	for (j = 0; j < size; j++)
		m[j] = j % RC_PAGE == 0 ? 0 : (uint8_t)(i * 31 + j * 7 + 1);
}

static int
is_fill(const uint8_t *m, size_t size, unsigned int i)
{
	size_t j;

	for (j = 0; j < size; j++)
		if (m[j] != (j % RC_PAGE == 0 ? 0 : (uint8_t)(i * 31 + j * 7 + 1)))
			return 0;
	return 1;
}

/* ibv_rc_pingpong's first buffer: all RC_FILL, with its -c a 0 at each RC_PAGE offset. */
static int
is_rc_first(const uint8_t *m, size_t size)
{
	int zeros = size > 0 && m[0] == 0;
	size_t j;

	for (j = 0; j < size; j++)
		if (m[j] != (zeros && j % RC_PAGE == 0 ? 0 : RC_FILL))
			return 0;
	return 1;
}

/* Read exactly @p len bytes within TIMEOUT_MS; 0, or -1 with a message. */
static int
read_full(int fd, char *buf, size_t len, const char *what)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&p, 1, TIMEOUT_MS) <= 0) {
			fprintf(stderr, "pingpong: no %s from the peer in %u ms\n", what,
				TIMEOUT_MS);
			return -1;
		}
		n = read(fd, buf + got, len - got);
		if (n <= 0) {
			fprintf(stderr, "pingpong: reading the peer's %s: %s\n", what,
				n == 0 ? "connection closed" : strerror(errno));
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

static int
write_full(int fd, const char *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len) {
		fprintf(stderr, "pingpong: writing to the peer: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static void
dest_format(char msg[EXCH_LEN], const struct pp_dest *d)
{
	char gid[33];
	unsigned int i;

	for (i = 0; i < 16; i++)
		snprintf(gid + 2 * i, 3, "%02x", d->gid[i]);
	snprintf(msg, EXCH_LEN, "%04x:%06x:%06x:%s", d->lid & 0xffff, d->qpn & 0xffffff,
		 d->psn & 0xffffff, gid);
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse the peer's message; -EBADMSG with a log line when it is not one. */
static int
dest_parse(const char *msg, struct pp_dest *d)
{
	char gid[33];
	unsigned int i;
	int hi, lo;

	if (memchr(msg, '\0', EXCH_LEN) == NULL ||
	    sscanf(msg, "%x:%x:%x:%32s", &d->lid, &d->qpn, &d->psn, gid) != 4 ||
	    strlen(gid) != 32)
		goto bad;
	for (i = 0; i < 16; i++) {
		hi = hexval(gid[2 * i]);
		lo = hexval(gid[2 * i + 1]);
		if (hi < 0 || lo < 0)
			goto bad;
		d->gid[i] = (uint8_t)(hi << 4 | lo);
	}
	if (d->qpn > 0xffffff || d->psn > 0xffffff)
		goto bad;
	/* ibv_rc_pingpong without -g sends GID 0: no GRH, which RoCEv2 cannot route. */
	for (i = 8; i < 16 && d->gid[i] == 0; i++)
		;
	if (i == 16) {
		fprintf(stderr, "pingpong: the peer sent no GID (give ibv_rc_pingpong -g)\n");
		return -EBADMSG;
	}
	return 0;
bad:
	fprintf(stderr, "pingpong: the peer's message is not LID:QPN:PSN:GID: \"%.*s\"\n",
		(int)EXCH_LEN - 1, msg);
	return -EBADMSG;
}

/* A TCP socket: listening on @p port (host NULL) or connected to host:port; -1 on failure. */
static int
tcp_open(const char *host, uint16_t port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = host == NULL ? AI_PASSIVE : 0 };
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * CONNECT_MS / 1000;
	struct addrinfo *res, *t;
	char service[8];
	int fd = -1, one = 1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0) {
		fprintf(stderr, "pingpong: %s:%u: %s\n", host ? host : "*", port,
			gai_strerror(rc));
		return -1;
	}
	for (;;) {
		for (t = res; t != NULL; t = t->ai_next) {
			fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
			if (fd < 0)
				continue;
			if (host == NULL) {
				setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
				if (bind(fd, t->ai_addr, t->ai_addrlen) == 0 && listen(fd, 1) == 0)
					break;
			} else if (connect(fd, t->ai_addr, t->ai_addrlen) == 0) {
				break;
			}
			close(fd);
			fd = -1;
		}
		/* The server may not listen yet: the client retries for CONNECT_MS. */
		if (fd >= 0 || host == NULL || rte_get_timer_cycles() > deadline)
			break;
		rte_delay_ms(100);
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "pingpong: cannot %s %s:%u\n", host ? "connect to" : "listen on",
			host ? host : "*", port);
	return fd;
}

static int
mtu_enum(long mtu)
{
	switch (mtu) {
	case 256: return RDMADEV_MTU_256;
	case 512: return RDMADEV_MTU_512;
	case 1024: return RDMADEV_MTU_1024;
	case 2048: return RDMADEV_MTU_2048;
	case 4096: return RDMADEV_MTU_4096;
	default: return -1;
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: pingpong [EAL] -- [-p port] [-s size] [-n iters] [-g gid-index] "
		"[-m mtu] [-t timeout] server <devargs> | client <devargs> <server-host>\n");
}

int
main(int argc, char **argv)
{
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev_mr *mr = NULL;
	/*
	 * No MAC: the UDP wire delivers by IP address, the model's Ethernet wire resolves the
	 * peer's GID by ARP (doc/interop.md).
	 */
	struct rdmadev_ah_attr av = { .hop_limit = 64, .vlan_id = 0xffff, .port_num = 1 };
	struct rdmadev_send_wr swr = { .wr_id = WR_SEND, .num_sge = 1,
				       .opcode = RDMADEV_WR_SEND,
				       .flags = RDMADEV_SEND_SIGNALED };
	struct rdmadev_recv_wr rwr = { .wr_id = WR_RECV, .num_sge = 1 };
	struct pp_dest me = { 0 }, peer;
	struct rdmadev_sge ssge, rsge;
	char msg[EXCH_LEN];
	unsigned int iters = 1000, gidx = 0, i;
	unsigned long size = 4096;
	uint16_t port = 18515;
	uint64_t t0 = 0, t1;
	uint8_t *buf = NULL, *sbuf, *rbuf;
	int16_t dev = -1;
	int n, c, ret = 1, err = 0, server, fd = -1, lfd = -1, mtu = RDMADEV_MTU_1024;
	uint8_t timeout = 14;

	n = example_eal_init(argc, argv);
	if (n < 0)
		return 2;
	argv += n;
	argc -= n;
	optind = 1;
	while ((c = getopt(argc, argv, "p:s:n:g:m:t:")) != -1) {
		switch (c) {
		case 'p':
			n = atoi(optarg);
			if (n <= 0 || n > 65535)
				goto bad_opt;
			port = (uint16_t)n;
			break;
		case 's':
			size = strtoul(optarg, NULL, 0);
			if (size == 0 || size > MAX_SIZE)
				goto bad_opt;
			break;
		case 'n':
			n = atoi(optarg);
			if (n <= 0)
				goto bad_opt;
			iters = (unsigned int)n;
			break;
		case 'g':
			n = atoi(optarg);
			if (n < 0 || n > 255)
				goto bad_opt;
			gidx = (unsigned int)n;
			break;
		case 'm':
			mtu = mtu_enum(strtol(optarg, NULL, 0));
			if (mtu < 0)
				goto bad_opt;
			break;
		case 't':
			n = atoi(optarg);
			if (n < 1 || n > 31)
				goto bad_opt;
			timeout = (uint8_t)n;
			break;
		default:
			usage();
			return 2;
		}
	}
	argv += optind;
	argc -= optind;
	server = example_role(argc, argv);
	if (server < 0) {
		usage();
		return 2;
	}

	/* The device, its objects, one buffer: [0, size) to send from, [size, 2 size) to
	 * receive into.
	 */
	if (example_dev_open(argv[1], &dev, &ctx, &pd) < 0)
		goto out;
	CHECK(rdmadev_cq_create(ctx, &cqa, &cq));
	CHECK(example_qp_create(pd, cq, RDMADEV_QPT_RC, 4, &qp));
	buf = rte_zmalloc("pingpong", 2 * size, 4096);
	if (buf == NULL) {
		fprintf(stderr, "pingpong: no memory for 2 x %lu bytes\n", size);
		goto out;
	}
	sbuf = buf;
	rbuf = buf + size;
	CHECK(example_mr_reg(pd, buf, 2 * size, RDMADEV_ACCESS_LOCAL_WRITE, &mr));
	ssge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)sbuf, (uint32_t)size,
				     rdmadev_mr_lkey(mr) };
	rsge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)rbuf, (uint32_t)size,
				     rdmadev_mr_lkey(mr) };
	swr.sg_list = &ssge;
	rwr.sg_list = &rsge;

	/* A receive is posted before the QP can get a message (else the sender sees RNR). */
	CHECK(example_qp_init(qp));
	CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
	me.qpn = rdmadev_qp_num(qp);
	me.psn = (unsigned int)(rte_rand() & 0xffffff);
	CHECK(rdmadev_gid_get(dev, gidx, me.gid));
	dest_format(msg, &me);
	printf("pingpong: local address: LID 0x0000, QPN 0x%06x, PSN 0x%06x, GID index %u\n",
	       me.qpn, me.psn, gidx);

	/* ibv_rc_pingpong's exchange, in its order (see the top of this file). */
	if (server) {
		lfd = tcp_open(NULL, port);
		if (lfd < 0)
			goto out;
		printf("pingpong: listening on TCP port %u\n", port);
		fflush(stdout);
		{
			struct pollfd p = { .fd = lfd, .events = POLLIN };

			if (poll(&p, 1, ACCEPT_MS) <= 0) {
				fprintf(stderr, "pingpong: no client in %u ms\n", ACCEPT_MS);
				goto out;
			}
		}
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 || read_full(fd, msg, EXCH_LEN, "address") < 0)
			goto out;
		CHECK(dest_parse(msg, &peer));
	} else {
		fd = tcp_open(argv[2], port);
		if (fd < 0 || write_full(fd, msg, EXCH_LEN) < 0 ||
		    read_full(fd, msg, EXCH_LEN, "address") < 0)
			goto out;
		CHECK(dest_parse(msg, &peer));
	}
	memcpy(av.dgid, peer.gid, 16);
	av.sgid_index = (uint8_t)gidx;
	CHECK(example_qp_connect_timeout(qp, peer.qpn, &av, (enum rdmadev_mtu)mtu, peer.psn,
					 me.psn, timeout));
	if (server) {
		char done[sizeof("done")];

		dest_format(msg, &me);
		if (write_full(fd, msg, EXCH_LEN) < 0 ||
		    read_full(fd, done, sizeof(done), "\"done\"") < 0)
			goto out;
		if (memcmp(done, "done", sizeof(done)) != 0) {
			fprintf(stderr, "pingpong: the client did not say \"done\"\n");
			goto out;
		}
	} else if (write_full(fd, "done", sizeof("done")) < 0) {
		goto out;
	}
	close(fd);
	fd = -1;
	printf("pingpong: remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x\n", peer.lid,
	       peer.qpn, peer.psn);

	if (!server) {
		/* Send message i, get its echo, check it; the first round trip warms up. */
		for (i = 0; i < iters; i++) {
			fill(sbuf, size, i);
			if (i == 1)
				t0 = rte_get_timer_cycles();
			CHECK(rdmadev_post_send(qp, &swr, 1, &err) == 1 ? 0 : err);
			CHECK(wait_for(cq, WR_SEND | WR_RECV));
			if (memcmp(rbuf, sbuf, size) != 0) {
				fprintf(stderr, "pingpong: echo %u differs from message %u\n", i, i);
				goto out;
			}
			if (i + 1 < iters)
				CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
		}
		t1 = rte_get_timer_cycles();
		printf("pingpong: %u round trips of %lu bytes, %.2f us each\n", iters, size,
		       iters > 1 ? (double)(t1 - t0) * 1e6 / rte_get_timer_hz() / (iters - 1) : 0);
	} else {
		/* Check message i, echo it. */
		for (i = 0; i < iters; i++) {
			CHECK(wait_for(cq, WR_RECV));
			if (!is_fill(rbuf, size, i) &&
			    !(i == 0 ? is_rc_first(rbuf, size) : memcmp(rbuf, sbuf, size) == 0)) {
				fprintf(stderr, "pingpong: message %u is not what the client can "
					"have sent\n", i);
				goto out;
			}
			memcpy(sbuf, rbuf, size);
			if (i + 1 < iters)
				CHECK(rdmadev_post_recv(qp, &rwr, 1, &err) == 1 ? 0 : err);
			CHECK(rdmadev_post_send(qp, &swr, 1, &err) == 1 ? 0 : err);
			CHECK(wait_for(cq, WR_SEND));
		}
		printf("pingpong: echoed %u messages of %lu bytes\n", i, size);
	}
	drain(cq);
	ret = 0;
	goto out;
bad_opt:
	fprintf(stderr, "pingpong: bad value for -%c: %s\n", c, optarg);
	usage();
	ret = 2;
out:
	if (fd >= 0)
		close(fd);
	if (lfd >= 0)
		close(lfd);
	if (qp != NULL && rdmadev_qp_destroy(qp) < 0)
		ret = 1;
	if (mr != NULL && rdmadev_mr_dereg(mr) < 0)
		ret = 1;
	rte_free(buf);
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		ret = 1;
	if (example_dev_close(dev, ctx, pd) != 0)
		ret = 1;
	rte_eal_cleanup();
	return ret;
}
