/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd two-process exchange: perftest 4.x's TCP protocol (linux-rdma/perftest,
 * src/perftest_communication.c), so that either side may be perftest's ib_*_lat / ib_*_bw.
 * One connection carries the whole run. Every message is a lockstep exchange: the client
 * (perftest's side with a server name) writes its message and reads the peer's, the server
 * reads and then writes. The messages, in order:
 *
 *   version       16 bytes, a NUL-terminated version number ("6.06"); perftest refuses a
 *                 peer older than 5.70. rdma-testpmd puts a tag after the NUL, where perftest
 *                 does not look (it reads the field with atof()).
 *   options       40 bytes, only when both version fields carry the tag: the options both
 *                 sides must share (tp_opts_pack()), so a mismatch is named, not a hang.
 *   system data   4 + 4 bytes: page size and cache line size, big-endian (each side takes
 *                 the larger; rdma-testpmd does not need them).
 *   MTU           2 bytes: the path MTU's enum value in decimal and a NUL; both use the
 *                 smaller.
 *   QP records    108 bytes each (tp_record_format()): LID, outstanding reads, QPN, PSN,
 *                 rkey, buffer address, GID, SRQN. Each test sends them in its own order,
 *                 and uses QP 0's record alone as a synchronisation ("handshake").
 *   BW report     5 x 8 bytes (write_bw, read_bw): size, iterations, peak, average (MB/s),
 *                 message rate (Mpps), big-endian, from the client to the server.
 *   "done"        5 bytes after the last handshake, then close.
 *
 * Waits poll the device between short slices (an RDMA target's device must keep running),
 * and fail after --timeout ms without a byte from the peer or any device activity. A passive
 * server's wait for the end of the client's run is patient: it ends when the peer closes, or
 * --timeout after the device's counters stopped moving (a device whose counters never move,
 * like the device model's now, lets it wait as long as the peer keeps the connection).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_common.h>

#include "testpmd.h"

/* Version number sent; perftest 4.5-0.17 (Debian 12) calls itself 6.06. */
#define TP_XCHG_VERSION		"6.06"
/* Oldest version perftest pairs with (check_version_compatibility()). */
#define TP_XCHG_MIN_VERSION	5.70
/* Tag after the version's NUL: the peer is rdma-testpmd and takes the options message. */
#define TP_XCHG_TAG		"rdma-tp1"
/* Bytes of the version, options, MTU and BW report fields. */
#define TP_XCHG_VERSION_LEN	16u
#define TP_XCHG_OPTS_LEN	40u
#define TP_XCHG_MTU_LEN		2u
/* The server accepts (and the client retries connecting) this many times --timeout. */
#define TP_XCHG_ACCEPT_FACTOR	10u
/* One wait slice (ms) between two polls of the device, and device activity checks (ms). */
#define TP_XCHG_SLICE_MS	1
#define TP_XCHG_ACTIVITY_MS	100u
/* How long the close waits for the peer's "done" (ms). */
#define TP_XCHG_DONE_MS		500u
/* Outstanding RDMA reads this side accepts as a responder (the record's out_reads). */
#define TP_XCHG_OUT_READS	16u

static uint64_t
tp_xchg_ms(uint64_t from)
{
	return (uint64_t)((double)(tp_ticks() - from) * 1000.0 / tp_ticks_hz());
}

/* Sum of the device's extended counters: it moves while the device carries traffic. */
static uint64_t
tp_xchg_activity(struct tp_ctx *t)
{
	struct tp_xchg *x = &t->xchg;
	uint64_t sum = 0;
	int n, i;

	if (x->xs == NULL || t->nb_sides == 0)
		return 0;
	n = rdmadev_xstats_get(t->side[0].dev_id, x->xs, x->nb_xs);
	for (i = 0; i < n && i < (int)x->nb_xs; i++)
		sum += x->xs[i].value;
	return sum;
}

/* Poll the sides' CQs: the device keeps running while this side waits for the peer. */
static void
tp_xchg_service(struct tp_ctx *t)
{
	struct rdmadev_wc wc[16];
	unsigned int i;

	for (i = 0; i < t->nb_sides; i++) {
		if (t->side[i].scq != NULL)
			rdmadev_poll_cq(t->side[i].scq, wc, RTE_DIM(wc));
		if (t->side[i].rcq != NULL)
			rdmadev_poll_cq(t->side[i].rcq, wc, RTE_DIM(wc));
	}
}

static const char *
tp_xchg_peer(const struct tp_ctx *t, char *buf, size_t len)
{
	if (t->cfg.mode == TP_MODE_CLIENT)
		snprintf(buf, len, "%s:%u", t->cfg.peer, t->cfg.port);
	else
		snprintf(buf, len, "the client (port %u)", t->cfg.port);
	return buf;
}

/* Print a message's bytes as hex (at most 24) for an error line. */
static void
tp_xchg_hex(const uint8_t *p, size_t n, char *buf, size_t len)
{
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < n && i < 24 && k + 4 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%02x", i ? " " : "", p[i]);
	if (i < n && k + 4 < len)
		snprintf(buf + k, len - k, " ...");
}

/*
 * Send @p len bytes in one write (perftest reads each message with one read() and takes a
 * short one for an error) and receive @p len from the peer, in the role's order.
 */
static int
tp_xchg_send(struct tp_ctx *t, const void *buf, size_t len, const char *what)
{
	char peer[96];
	ssize_t n;

	if (t->xchg.rcm)
		return tp_rcm_send(t, buf, len, what);
	n = send(t->xchg.fd, buf, len, MSG_NOSIGNAL);
	if (n == (ssize_t)len)
		return 0;
	fprintf(stderr, "rdma-testpmd: sending the %s to %s: %s\n", what,
		tp_xchg_peer(t, peer, sizeof(peer)), n < 0 ? strerror(errno) : "short write");
	return n < 0 && errno == EPIPE ? -EPIPE : n < 0 ? -errno : -EIO;
}

static int
tp_xchg_recv(struct tp_ctx *t, void *buf, size_t len, const char *what)
{
	struct tp_xchg *x = &t->xchg;
	uint64_t idle_from = tp_ticks(), last_check = idle_from, act = tp_xchg_activity(t), a;
	struct pollfd pfd = { .fd = x->fd, .events = POLLIN };
	bool moved = false;
	size_t got = 0;
	char peer[96];
	ssize_t n;

	while (got < len) {
		if (t->stop)
			return -EINTR;
		if (x->rcm) {
			/* -R: one message is one receive completion on the control QP. */
			n = tp_rcm_poll(t, buf, len, what);
			if (n != 0)
				return n < 0 ? (int)n : 0;
		} else if (poll(&pfd, 1, TP_XCHG_SLICE_MS) < 0 && errno != EINTR) {
			return -errno;
		}
		if (!x->rcm && pfd.revents != 0) {
			n = recv(x->fd, (uint8_t *)buf + got, len - got, MSG_DONTWAIT);
			if (n == 0) {
				fprintf(stderr, "rdma-testpmd: %s closed the connection %s the %s "
					"(%zu of %zu bytes): it failed or exited (see its output)\n",
					tp_xchg_peer(t, peer, sizeof(peer)),
					got ? "in the middle of" : "instead of sending", what, got, len);
				return -ECONNRESET;
			}
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				fprintf(stderr, "rdma-testpmd: receiving the %s from %s: %s\n", what,
					tp_xchg_peer(t, peer, sizeof(peer)), strerror(errno));
				return -errno;
			}
			if (n > 0) {
				got += (size_t)n;
				idle_from = tp_ticks();
				continue;
			}
		}
		tp_xchg_service(t);
		if (tp_xchg_ms(last_check) >= TP_XCHG_ACTIVITY_MS) {
			last_check = tp_ticks();
			a = tp_xchg_activity(t);
			if (a != act) {
				act = a;
				idle_from = last_check;
				moved = true;
			}
		}
		/* A patient wait (the peer runs its test meanwhile) ends on its counters only. */
		if (x->patient && got == 0 && !moved)
			continue;
		if (tp_xchg_ms(idle_from) > t->cfg.timeout_ms) {
			fprintf(stderr, "rdma-testpmd: %s sent %zu of the %zu bytes of the %s and "
				"nothing for %u ms (--timeout): it is not perftest's exchange, or the "
				"peer hangs\n", tp_xchg_peer(t, peer, sizeof(peer)), got, len, what,
				t->cfg.timeout_ms);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

int
tp_xchg_raw(struct tp_ctx *t, const void *mine, void *theirs, size_t len, const char *what)
{
	int rc;

	if (!t->xchg.up)
		return -ENOTCONN;
	if (t->cfg.mode == TP_MODE_CLIENT) {
		rc = tp_xchg_send(t, mine, len, what);
		return rc < 0 ? rc : tp_xchg_recv(t, theirs, len, what);
	}
	rc = tp_xchg_recv(t, theirs, len, what);
	return rc < 0 ? rc : tp_xchg_send(t, mine, len, what);
}

/* ---- QP records ---- */

void
tp_record_format(const struct tp_record *r, char out[TP_RECORD_LEN])
{
	const uint8_t *g = r->gid;
	char tmp[TP_RECORD_LEN + 16];

	snprintf(tmp, sizeof(tmp), "%04x:%04x:%06x:%06x:%08x:%016" PRIx64 ":"
		 "%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:%02x:"
		 "%08x:", r->lid & 0xffffu, r->out_reads & 0xffffu, r->qpn & 0xffffffu,
		 r->psn & 0xffffffu, r->rkey, r->addr, g[0], g[1], g[2], g[3], g[4], g[5], g[6],
		 g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15], r->srqn);
	memcpy(out, tmp, TP_RECORD_LEN - 1);
	out[TP_RECORD_LEN - 1] = '\0';
}

/* Fields of a record: hex digits each, a ':' after each (the last one too). */
static const struct {
	const char *name;
	unsigned int digits;
} tp_record_fields[] = {
	{ "LID", 4 }, { "outstanding reads", 4 }, { "QPN", 6 }, { "PSN", 6 }, { "rkey", 8 },
	{ "address", 16 },
	{ "GID byte 0", 2 }, { "GID byte 1", 2 }, { "GID byte 2", 2 }, { "GID byte 3", 2 },
	{ "GID byte 4", 2 }, { "GID byte 5", 2 }, { "GID byte 6", 2 }, { "GID byte 7", 2 },
	{ "GID byte 8", 2 }, { "GID byte 9", 2 }, { "GID byte 10", 2 }, { "GID byte 11", 2 },
	{ "GID byte 12", 2 }, { "GID byte 13", 2 }, { "GID byte 14", 2 }, { "GID byte 15", 2 },
	{ "SRQN", 8 },
};

static int
tp_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
tp_record_parse(const char msg[TP_RECORD_LEN], struct tp_record *r, FILE *err)
{
	uint64_t v[RTE_DIM(tp_record_fields)];
	unsigned int f, d, pos = 0;
	int h;

	for (f = 0; f < RTE_DIM(tp_record_fields); f++) {
		v[f] = 0;
		for (d = 0; d < tp_record_fields[f].digits; d++, pos++) {
			h = tp_hex_digit(msg[pos]);
			if (h < 0) {
				fprintf(err, "rdma-testpmd: the peer's QP record has 0x%02x at byte %u, "
					"in its %s (%u hex digits expected): not perftest's record\n",
					(uint8_t)msg[pos], pos, tp_record_fields[f].name,
					tp_record_fields[f].digits);
				return -EPROTO;
			}
			v[f] = v[f] << 4 | (uint64_t)h;
		}
		if (msg[pos] != ':') {
			fprintf(err, "rdma-testpmd: the peer's QP record has 0x%02x at byte %u, after "
				"its %s (':' expected): not perftest's record\n", (uint8_t)msg[pos], pos,
				tp_record_fields[f].name);
			return -EPROTO;
		}
		pos++;
	}
	if (pos != TP_RECORD_LEN - 1 || msg[pos] != '\0') {
		fprintf(err, "rdma-testpmd: the peer's QP record does not end with a NUL at byte "
			"%u (0x%02x)\n", TP_RECORD_LEN - 1, (uint8_t)msg[TP_RECORD_LEN - 1]);
		return -EPROTO;
	}
	r->lid = (uint32_t)v[0];
	r->out_reads = (uint32_t)v[1];
	r->qpn = (uint32_t)v[2];
	r->psn = (uint32_t)v[3];
	r->rkey = (uint32_t)v[4];
	r->addr = v[5];
	for (f = 0; f < 16; f++)
		r->gid[f] = (uint8_t)v[6 + f];
	r->srqn = (uint32_t)v[22];
	return 0;
}

void
tp_record_local(struct tp_side *s, uint32_t i, struct tp_record *r)
{
	struct rdmadev_cm_param p;

	tp_local_param(s, i, &p);
	memset(r, 0, sizeof(*r));
	r->out_reads = TP_XCHG_OUT_READS;
	r->qpn = p.qpn;
	r->psn = p.psn;
	r->rkey = p.rkey;
	r->addr = p.addr;
	memcpy(r->gid, p.gid, sizeof(r->gid));
}

int
tp_xchg_record(struct tp_ctx *t, struct tp_side *s, uint32_t i, bool store)
{
	char mine[TP_RECORD_LEN], theirs[TP_RECORD_LEN], what[32];
	struct tp_record lr, rr;
	struct tp_remote *rem = &s->remote[i];
	int rc;

	tp_record_local(s, i, &lr);
	snprintf(what, sizeof(what), "QP %u record", i);
	if (t->xchg.rcm) {
		/* -R: perftest's rdma_write_keys() sends the record in binary. */
		tp_rcm_record_format(&lr, (uint8_t *)mine);
		rc = tp_xchg_raw(t, mine, theirs, TP_RCM_RECORD_LEN, what);
		if (rc == 0)
			tp_rcm_record_parse((const uint8_t *)theirs, &rr);
	} else {
		tp_record_format(&lr, mine);
		rc = tp_xchg_raw(t, mine, theirs, sizeof(mine), what);
		if (rc == 0)
			rc = tp_record_parse(theirs, &rr, stderr);
	}
	if (rc < 0)
		return tp_side_fail(s, rc, "exchanging the %s with the peer failed", what);
	if (t->cfg.verbose && store) {
		char lg[INET6_ADDRSTRLEN], rg[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, lr.gid, lg, sizeof(lg));
		inet_ntop(AF_INET6, rr.gid, rg, sizeof(rg));
		fprintf(t->out, "rdma-testpmd: QP %u: local QPN 0x%06x PSN 0x%06x rkey 0x%08x addr "
			"0x%016" PRIx64 " GID %s; remote QPN 0x%06x PSN 0x%06x rkey 0x%08x addr "
			"0x%016" PRIx64 " GID %s out_reads %u\n", i, lr.qpn, lr.psn, lr.rkey, lr.addr, lg,
			rr.qpn, rr.psn, rr.rkey, rr.addr, rg, rr.out_reads);
	}
	if (store) {
		rem->qpn = rr.qpn;
		rem->psn = rr.psn;
		rem->rkey = rr.rkey;
		rem->addr = rr.addr;
		rem->out_reads = rr.out_reads;
		memcpy(rem->gid, rr.gid, sizeof(rem->gid));
		return 0;
	}
	/* perftest sends the same record every time; another QP's means the peer is lost. */
	if (rr.qpn != rem->qpn || rr.psn != rem->psn || rr.rkey != rem->rkey ||
	    rr.addr != rem->addr || memcmp(rr.gid, rem->gid, sizeof(rr.gid)) != 0)
		return tp_side_fail(s, -EPROTO, "the peer's %s changed (QPN %#x, was %#x): the two "
				    "sides run different tests or QP counts", what, rr.qpn,
				    rem->qpn);
	return 0;
}

int
tp_xchg_sync(struct tp_ctx *t)
{
	return tp_xchg_record(t, &t->side[0], 0, false);
}

/* ---- opening: connect, version, options, system data, MTU ---- */

static int
tp_xchg_listen(struct tp_ctx *t)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY),
				   .sin_port = htons(t->cfg.port) };
	int one = 1, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 || listen(fd, 1) < 0) {
		int e = errno;

		fprintf(stderr, "rdma-testpmd: cannot listen on TCP port %u: %s\n", t->cfg.port,
			strerror(e));
		close(fd);
		return -e;
	}
	return fd;
}

/* The server: accept one client within TP_XCHG_ACCEPT_FACTOR x --timeout. */
static int
tp_xchg_accept(struct tp_ctx *t)
{
	uint64_t start = tp_ticks(), limit = (uint64_t)t->cfg.timeout_ms * TP_XCHG_ACCEPT_FACTOR;
	int lfd = tp_xchg_listen(t), fd = -1;
	struct pollfd pfd;

	if (lfd < 0)
		return lfd;
	fprintf(t->out, "rdma-testpmd: waiting for a client on port %u\n", t->cfg.port);
	fflush(t->out);
	pfd.fd = lfd;
	pfd.events = POLLIN;
	while (fd < 0) {
		if (t->stop) {
			fd = -EINTR;
			break;
		}
		if (tp_xchg_ms(start) > limit) {
			fprintf(stderr, "rdma-testpmd: no client connected to port %u within %" PRIu64
				" ms (10 x --timeout)\n", t->cfg.port, limit);
			fd = -ETIMEDOUT;
			break;
		}
		if (poll(&pfd, 1, 20) > 0) {
			fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0 && errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
				fd = -errno;
				break;
			}
		}
		tp_xchg_service(t);
	}
	/* perftest's server takes one client and closes the listening socket. */
	close(lfd);
	return fd;
}

/* The client: connect, retrying while the server is not listening yet. */
static int
tp_xchg_dial(struct tp_ctx *t)
{
	uint64_t start = tp_ticks(), limit = (uint64_t)t->cfg.timeout_ms * TP_XCHG_ACCEPT_FACTOR;
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res;
	char port[8];
	int fd, rc, e = 0;

	snprintf(port, sizeof(port), "%u", t->cfg.port);
	rc = getaddrinfo(t->cfg.peer, port, &hints, &res);
	if (rc != 0) {
		fprintf(stderr, "rdma-testpmd: --client %s: %s\n", t->cfg.peer, gai_strerror(rc));
		return -EINVAL;
	}
	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			break;
		}
		if (connect(fd, res->ai_addr, res->ai_addrlen) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
		if ((e != ECONNREFUSED && e != ETIMEDOUT && e != EHOSTUNREACH) || t->stop ||
		    tp_xchg_ms(start) > limit)
			break;
		usleep(20000);
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "rdma-testpmd: cannot connect to %s:%u within %" PRIu64 " ms (10 x "
			"--timeout): %s\n", t->cfg.peer, t->cfg.port, limit, strerror(e));
	return fd >= 0 ? fd : -(e ? e : ETIMEDOUT);
}

/* Version field: "6.06", a NUL, the tag. Check the peer's (perftest's own rule, and sense). */
static int
tp_xchg_version(struct tp_ctx *t)
{
	char mine[TP_XCHG_VERSION_LEN] = { 0 }, theirs[TP_XCHG_VERSION_LEN], hex[100];
	size_t vlen = sizeof(TP_XCHG_VERSION);
	char *end;
	double v;
	int rc;

	memcpy(mine, TP_XCHG_VERSION, vlen);
	memcpy(mine + vlen, TP_XCHG_TAG, sizeof(TP_XCHG_TAG) - 1);
	rc = tp_xchg_raw(t, mine, theirs, sizeof(mine), "version string");
	if (rc < 0)
		return rc;
	tp_xchg_hex((const uint8_t *)theirs, sizeof(theirs), hex, sizeof(hex));
	if (memchr(theirs, '\0', sizeof(theirs)) == NULL || theirs[0] < '0' || theirs[0] > '9') {
		fprintf(stderr, "rdma-testpmd: the peer's first message is not a perftest version "
			"string (%s): is it perftest 4.x or rdma-testpmd on port %u?\n", hex,
			t->cfg.port);
		return -EPROTO;
	}
	v = strtod(theirs, &end);
	if (*end != '\0' || v < TP_XCHG_MIN_VERSION) {
		fprintf(stderr, "rdma-testpmd: the peer's version string \"%s\" is %s: this side "
			"speaks the exchange of perftest %s (it pairs with %.2f or later)\n", theirs,
			*end != '\0' ? "not a number" : "too old", TP_XCHG_VERSION,
			TP_XCHG_MIN_VERSION);
		return -EPROTO;
	}
	memcpy(t->xchg.rem_version, theirs, sizeof(theirs));
	vlen = strlen(theirs) + 1;
	t->xchg.peer_is_tp = vlen + sizeof(TP_XCHG_TAG) - 1 <= sizeof(theirs) &&
			     memcmp(theirs + vlen, TP_XCHG_TAG, sizeof(TP_XCHG_TAG) - 1) == 0;
	return 0;
}

static void
tp_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
tp_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void
tp_put64(uint8_t *p, uint64_t v)
{
	tp_put32(p, (uint32_t)(v >> 32));
	tp_put32(p + 4, (uint32_t)v);
}

static uint64_t
tp_get64(const uint8_t *p)
{
	return (uint64_t)tp_get32(p) << 32 | tp_get32(p + 4);
}

/* rdma-testpmd peers: the options both sides must share, compared with ours. */
static int
tp_xchg_opts(struct tp_ctx *t)
{
	uint8_t mine[TP_XCHG_OPTS_LEN] = { 0 }, theirs[TP_XCHG_OPTS_LEN];
	struct rdmadev_cm_param p;
	int rc;

	tp_opts_pack(&t->cfg, &p);
	tp_put32(mine, p.qpn);
	tp_put32(mine + 4, p.psn);
	tp_put32(mine + 8, p.rkey);
	tp_put64(mine + 12, p.addr);
	mine[20] = p.mtu;
	memcpy(mine + 24, p.gid, sizeof(p.gid));
	rc = tp_xchg_raw(t, mine, theirs, sizeof(mine), "options message");
	if (rc < 0)
		return rc;
	memset(&p, 0, sizeof(p));
	p.qpn = tp_get32(theirs);
	p.psn = tp_get32(theirs + 4);
	p.rkey = tp_get32(theirs + 8);
	p.addr = tp_get64(theirs + 12);
	p.mtu = theirs[20];
	memcpy(p.gid, theirs + 24, sizeof(p.gid));
	rc = tp_opts_compare(&t->cfg, &p, stderr);
	if (rc < 0)
		return rc;
	if (rc > 0) {
		fprintf(stderr, "rdma-testpmd: %d option(s) differ from the peer's (both sides need "
			"the same test options)\n", rc);
		return -EINVAL;
	}
	return 0;
}

/* Page size and cache line size (perftest's check_sys_data()): sent, the peer's ignored. */
static int
tp_xchg_sysdata(struct tp_ctx *t)
{
	uint8_t mine[4], theirs[4];
	long page = sysconf(_SC_PAGESIZE);
	int rc;

	tp_put32(mine, page > 0 ? (uint32_t)page : 4096u);
	rc = tp_xchg_raw(t, mine, theirs, sizeof(mine), "page size");
	if (rc < 0)
		return rc;
	tp_put32(mine, RTE_CACHE_LINE_SIZE);
	return tp_xchg_raw(t, mine, theirs, sizeof(mine), "cache line size");
}

/* The MTU (perftest's check_mtu()): both sides use the smaller of the two. */
static int
tp_xchg_mtu(struct tp_ctx *t)
{
	char mine[TP_XCHG_MTU_LEN], theirs[TP_XCHG_MTU_LEN];
	int rc, rem;

	mine[0] = (char)('0' + t->cfg.mtu);
	mine[1] = '\0';
	rc = tp_xchg_raw(t, mine, theirs, sizeof(mine), "MTU");
	if (rc < 0)
		return rc;
	if (theirs[0] < '0' || theirs[0] > '9' || (theirs[1] != '\0' &&
						    (theirs[1] < '0' || theirs[1] > '9'))) {
		fprintf(stderr, "rdma-testpmd: the peer's MTU message is 0x%02x 0x%02x, not a "
			"number: not perftest's exchange\n", (uint8_t)theirs[0], (uint8_t)theirs[1]);
		return -EPROTO;
	}
	rem = theirs[0] - '0';
	if (theirs[1] != '\0')
		rem = rem * 10 + theirs[1] - '0';
	t->xchg.mtu = t->cfg.mtu;
	if (rem >= RDMADEV_MTU_256 && rem <= RDMADEV_MTU_4096 && rem < (int)t->cfg.mtu) {
		t->xchg.mtu = (enum rdmadev_mtu)rem;
		fprintf(t->out, "rdma-testpmd: the peer's MTU is %u: both sides use it\n",
			128u << rem);
	}
	return 0;
}

int
tp_xchg_open(struct tp_ctx *t)
{
	struct tp_xchg *x = &t->xchg;
	int fd, one = 1, n;

	x->peer_is_tp = false;
	x->patient = false;
	x->mtu = t->cfg.mtu;
	if (t->cfg.rdma_cm) {
		/* -R: the exchange runs over an rdma_cm connection (tp_rcm.c). */
		x->fd = -1;
		x->up = true;
		n = tp_rcm_open(t);
		if (n < 0)
			return n;
	} else {
		fd = t->cfg.mode == TP_MODE_SERVER ? tp_xchg_accept(t) : tp_xchg_dial(t);
		if (fd < 0)
			return fd;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		x->fd = fd;
		x->up = true;
	}
	n = rdmadev_xstats_get(t->side[0].dev_id, NULL, 0);
	if (n > 0) {
		x->xs = calloc((size_t)n, sizeof(*x->xs));
		x->nb_xs = x->xs != NULL ? (unsigned int)n : 0;
	}
	n = tp_xchg_version(t);
	if (n == 0 && x->peer_is_tp)
		n = tp_xchg_opts(t);
	if (n == 0)
		n = tp_xchg_sysdata(t);
	if (n == 0)
		n = tp_xchg_mtu(t);
	if (n == 0 && t->cfg.verbose)
		fprintf(t->out, "rdma-testpmd: connected to %s (version %s%s), MTU %u\n",
			t->cfg.mode == TP_MODE_SERVER ? "a client" : t->cfg.peer, x->rem_version,
			x->peer_is_tp ? ", rdma-testpmd" : "", 128u << x->mtu);
	return n;
}

bool
tp_xchg_pending(struct tp_xchg *x)
{
	struct pollfd pfd = { .fd = x->fd, .events = POLLIN };

	if (x->rcm)
		return tp_rcm_pending(x);
	return x->up && poll(&pfd, 1, 0) > 0;
}

int
tp_xchg_bw_report(struct tp_ctx *t, const struct tp_bw_result *mine, struct tp_bw_result *theirs)
{
	static const char *const what[5] = { "BW report's size", "BW report's iterations",
		"BW report's peak", "BW report's average", "BW report's message rate" };
	uint64_t out[5], in;
	uint8_t a[8], b[8];
	double d[3];
	unsigned int i;
	int rc;

	out[0] = mine != NULL ? mine->size : 0;
	out[1] = mine != NULL ? mine->iters : 0;
	d[0] = mine != NULL ? mine->bw_peak : 0;
	d[1] = mine != NULL ? mine->bw_avg : 0;
	d[2] = mine != NULL ? mine->msg_rate : 0;
	memcpy(&out[2], &d[0], sizeof(double));
	memcpy(&out[3], &d[1], sizeof(double));
	memcpy(&out[4], &d[2], sizeof(double));
	memset(theirs, 0, sizeof(*theirs));
	for (i = 0; i < 5; i++) {
		tp_put64(a, out[i]);
		rc = tp_xchg_raw(t, a, b, sizeof(a), what[i]);
		if (rc < 0)
			return rc;
		in = tp_get64(b);
		switch (i) {
		case 0:
			theirs->size = in;
			break;
		case 1:
			theirs->iters = in;
			break;
		case 2:
			memcpy(&theirs->bw_peak, &in, sizeof(double));
			break;
		case 3:
			memcpy(&theirs->bw_avg, &in, sizeof(double));
			break;
		default:
			memcpy(&theirs->msg_rate, &in, sizeof(double));
			break;
		}
	}
	return 0;
}

int
tp_xchg_close(struct tp_ctx *t)
{
	int rc = tp_xchg_sync(t);

	char done[sizeof("done")];
	struct pollfd pfd = { .fd = t->xchg.fd, .events = POLLIN };
	uint64_t start = tp_ticks();
	size_t got = 0;
	ssize_t n;

	/* -R: perftest's ctx_close_connection() sends no "done" over rdma_cm. */
	if (rc == 0 && !t->xchg.rcm)
		rc = tp_xchg_send(t, "done", sizeof("done"), "final \"done\"");
	/*
	 * The peer writes its "done" too and nobody must read it (perftest does not); wait a
	 * little for it or the peer's close, so that closing here does not reset a connection
	 * whose last bytes the peer has not read yet.
	 */
	while (rc == 0 && !t->xchg.rcm && got < sizeof(done) &&
	       tp_xchg_ms(start) < TP_XCHG_DONE_MS) {
		if (poll(&pfd, 1, TP_XCHG_SLICE_MS) <= 0)
			continue;
		n = recv(t->xchg.fd, done + got, sizeof(done) - got, MSG_DONTWAIT);
		if (n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR)))
			break;
		if (n > 0)
			got += (size_t)n;
	}
	tp_xchg_end(t);
	return rc;
}

void
tp_xchg_end(struct tp_ctx *t)
{
	struct tp_xchg *x = &t->xchg;
	char drain[64];

	if (x->rcm || x->ch != NULL) {
		tp_rcm_end(t);
	} else if (x->up) {
		/* The peer's "done" may be in flight: read what is there so close sends FIN. */
		while (recv(x->fd, drain, sizeof(drain), MSG_DONTWAIT) > 0)
			;
		close(x->fd);
	}
	x->up = false;
	free(x->xs);
	x->xs = NULL;
	x->nb_xs = 0;
}

/*
 * What each test sends when (perftest 4.5's ib_*_lat / ib_*_bw main()): see the header's
 * struct tp_plan.
 */
void
tp_xchg_plan(const struct tp_engine *e, struct tp_plan *p)
{
	bool send = e->opcode == RDMADEV_WR_SEND;

	memset(p, 0, sizeof(*p));
	if (send) {
		/* send_lat, send_bw: N records, connect, a handshake, N records; a handshake
		 * before each size (the receives are posted), send_bw also after it. */
		p->sync_after_connect_first = true;
		p->sync_before_size = true;
		p->sync_after_size = e->kind == TP_BW;
		p->close = true;
		return;
	}
	/* write and read tests (the atomics like reads): N records, connect, N, a handshake. */
	p->lead_sync = e->kind == TP_LAT;
	p->close = e->opcode != RDMADEV_WR_RDMA_WRITE || e->kind == TP_BW;
	p->server_passive = e->opcode != RDMADEV_WR_RDMA_WRITE || e->kind == TP_BW;
	p->bw_report = e->kind == TP_BW;
}
