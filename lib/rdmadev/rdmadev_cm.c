/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev CM_ID: the out-of-band exchange of QP parameters over TCP. One listening endpoint
 * accepts one connection per rdmadev_cm_accept(); both sides send their parameters as one
 * fixed 48-byte message in network order, read the peer's, and close the connection. Every
 * wait is bounded by the caller's timeout.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_string_fns.h>

#include "rdmadev_private.h"

#define CM_MAGIC 0x52444d43u	/* "RDMC" */
#define CM_VERSION 1
#define CM_MSG_LEN 48

enum { CM_IDLE, CM_LISTEN, CM_EXCHANGED };

void
rdmadev_cm_release(struct rdmadev_cm_id *cm)
{
	if (cm->listen_fd >= 0)
		close(cm->listen_fd);
	cm->listen_fd = -1;
}

int
rdmadev_cm_id_create(struct rdmadev_ctx *ctx, struct rdmadev_cm_id **out)
{
	struct rdmadev_cm_id *cm;
	int rc;

	cm = rdmadev_obj_new(ctx, RDMADEV_OBJ_CM_ID, sizeof(*cm), true, out, "cm_id_create", &rc);
	if (cm == NULL)
		return rc;
	cm->listen_fd = -1;
	rc = rdmadev_obj_end_create(RDMADEV_OBJ(cm), 0);
	if (rc == 0)
		*out = cm;
	return rc;
}

int
rdmadev_cm_id_destroy(struct rdmadev_cm_id *cm)
{
	return rdmadev_obj_destroy(RDMADEV_OBJ(cm), RDMADEV_OBJ_CM_ID, true, "cm_id_destroy");
}

uint16_t
rdmadev_cm_port(const struct rdmadev_cm_id *cm)
{
	return cm != NULL ? cm->port : 0;
}

static int
cm_addr(const char *addr, uint16_t port, struct sockaddr_in *sin)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (inet_pton(AF_INET, addr != NULL ? addr : "127.0.0.1", &sin->sin_addr) != 1) {
		RDMADEV_LOG(ERR, "cm: \"%s\" is not an IPv4 address", addr);
		return -EINVAL;
	}
	return 0;
}

int
rdmadev_cm_listen(struct rdmadev_cm_id *cm, const char *addr, uint16_t port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int one = 1, fd, rc;

	if (!rdmadev_obj_check(RDMADEV_OBJ(cm), RDMADEV_OBJ_CM_ID, "cm_listen"))
		return -EINVAL;
	if (cm->listen_fd >= 0) {
		RDMADEV_LOG(ERR, "cm_listen: CM_ID %u is already listening",
			    rdmadev_obj_id(RDMADEV_OBJ(cm)));
		return rdmadev_fail(cm->obj.dev, -EINVAL, false);
	}
	rc = cm_addr(addr, port, &sin);
	if (rc != 0)
		return rdmadev_fail(cm->obj.dev, rc, false);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return rdmadev_fail(cm->obj.dev, -errno, false);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0 || listen(fd, 4) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		rc = -errno;
		RDMADEV_LOG(ERR, "cm_listen: %s:%u: %s", addr != NULL ? addr : "127.0.0.1", port,
			    strerror(-rc));
		close(fd);
		return rdmadev_fail(cm->obj.dev, rc, false);
	}
	cm->listen_fd = fd;
	cm->port = ntohs(sin.sin_port);
	cm->state = CM_LISTEN;
	return 0;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for @p events on @p fd until @p deadline; 0 when ready, -ETIMEDOUT, -errno. */
static int
cm_wait(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int rc;

	do {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		rc = poll(&pfd, 1, (int)left);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -errno;
	return rc == 0 ? -ETIMEDOUT : 0;
}

static void
cm_encode(const struct rdmadev_cm_param *p, uint8_t *m)
{
	uint32_t v32;
	uint64_t v64;

	memset(m, 0, CM_MSG_LEN);
	v32 = rte_cpu_to_be_32(CM_MAGIC);
	memcpy(m, &v32, 4);
	m[4] = CM_VERSION;
	m[5] = p->mtu;
	m[6] = p->has_rdma;
	v32 = rte_cpu_to_be_32(p->qpn);
	memcpy(m + 8, &v32, 4);
	v32 = rte_cpu_to_be_32(p->psn);
	memcpy(m + 12, &v32, 4);
	v32 = rte_cpu_to_be_32(p->rkey);
	memcpy(m + 16, &v32, 4);
	memcpy(m + 20, p->gid, 16);
	v64 = rte_cpu_to_be_64(p->addr);
	memcpy(m + 36, &v64, 8);
}

static int
cm_decode(const uint8_t *m, struct rdmadev_cm_param *p)
{
	uint32_t v32;
	uint64_t v64;

	memcpy(&v32, m, 4);
	if (rte_be_to_cpu_32(v32) != CM_MAGIC || m[4] != CM_VERSION) {
		RDMADEV_LOG(ERR, "cm: peer message has a bad magic or version");
		return -EPROTO;
	}
	memset(p, 0, sizeof(*p));
	p->mtu = m[5];
	p->has_rdma = m[6];
	memcpy(&v32, m + 8, 4);
	p->qpn = rte_be_to_cpu_32(v32);
	memcpy(&v32, m + 12, 4);
	p->psn = rte_be_to_cpu_32(v32);
	memcpy(&v32, m + 16, 4);
	p->rkey = rte_be_to_cpu_32(v32);
	memcpy(p->gid, m + 20, 16);
	memcpy(&v64, m + 36, 8);
	p->addr = rte_be_to_cpu_64(v64);
	if (p->qpn >= (1u << 24) || p->psn >= (1u << 24) || p->mtu < RDMADEV_MTU_256 ||
	    p->mtu > RDMADEV_MTU_4096) {
		RDMADEV_LOG(ERR, "cm: peer sent QPN %u, PSN %u or MTU %u out of range", p->qpn,
			    p->psn, p->mtu);
		return -EPROTO;
	}
	return 0;
}

/* Send ours, receive theirs on a connected non-blocking socket. */
static int
cm_exchange(int fd, const struct rdmadev_cm_param *local, struct rdmadev_cm_param *remote,
	    int64_t deadline)
{
	uint8_t out[CM_MSG_LEN], in[CM_MSG_LEN];
	size_t sent = 0, got = 0;
	ssize_t n;
	int rc;

	cm_encode(local, out);
	while (sent < sizeof(out)) {
		rc = cm_wait(fd, POLLOUT, deadline);
		if (rc != 0)
			return rc;
		n = send(fd, out + sent, sizeof(out) - sent, MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0)
			sent += (size_t)n;
	}
	while (got < sizeof(in)) {
		rc = cm_wait(fd, POLLIN, deadline);
		if (rc != 0)
			return rc;
		n = recv(fd, in + got, sizeof(in) - got, 0);
		if (n == 0) {
			RDMADEV_LOG(ERR, "cm: peer closed after %zu of %d bytes", got, CM_MSG_LEN);
			return -EPROTO;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	return cm_decode(in, remote);
}

static int
cm_check(struct rdmadev_cm_id *cm, const struct rdmadev_cm_param *local,
	 struct rdmadev_cm_param *remote, int timeout_ms, const char *what)
{
	if (!rdmadev_obj_check(RDMADEV_OBJ(cm), RDMADEV_OBJ_CM_ID, what))
		return -EINVAL;
	if (local == NULL || remote == NULL || timeout_ms <= 0 || local->qpn >= (1u << 24) ||
	    local->psn >= (1u << 24)) {
		RDMADEV_LOG(ERR, "%s: NULL parameters, timeout %d ms or QPN/PSN beyond 24 bits",
			    what, timeout_ms);
		return rdmadev_fail(cm->obj.dev, -EINVAL, false);
	}
	return 0;
}

/* Finish an exchange on @p fd: record the peer, close, count errors. */
static int
cm_finish(struct rdmadev_cm_id *cm, int fd, int rc, const char *what)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);

	if (rc == 0 && getpeername(fd, (struct sockaddr *)&peer, &len) == 0) {
		inet_ntop(AF_INET, &peer.sin_addr, cm->peer, sizeof(cm->peer));
		cm->peer_port = ntohs(peer.sin_port);
		cm->state = CM_EXCHANGED;
	}
	close(fd);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: CM_ID %u: %s", what, rdmadev_obj_id(RDMADEV_OBJ(cm)),
			    strerror(-rc));
		return rdmadev_fail(cm->obj.dev, rc, false);
	}
	return 0;
}

int
rdmadev_cm_accept(struct rdmadev_cm_id *cm, const struct rdmadev_cm_param *local,
		  struct rdmadev_cm_param *remote, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int fd, rc;

	rc = cm_check(cm, local, remote, timeout_ms, "cm_accept");
	if (rc != 0)
		return rc;
	if (cm->listen_fd < 0) {
		RDMADEV_LOG(ERR, "cm_accept: CM_ID %u is not listening",
			    rdmadev_obj_id(RDMADEV_OBJ(cm)));
		return rdmadev_fail(cm->obj.dev, -EINVAL, false);
	}
	for (;;) {
		rc = cm_wait(cm->listen_fd, POLLIN, deadline);
		if (rc != 0) {
			RDMADEV_LOG(ERR, "cm_accept: CM_ID %u: no connection within %d ms",
				    rdmadev_obj_id(RDMADEV_OBJ(cm)), timeout_ms);
			return rdmadev_fail(cm->obj.dev, rc, false);
		}
		fd = accept4(cm->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0)
			break;
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			return rdmadev_fail(cm->obj.dev, -errno, false);
	}
	/* A peer is here: the exchange is not cut short by the wait's bound (see rdmadev.h). */
	deadline = RTE_MAX(deadline, now_ms() + RDMADEV_CM_EXCHANGE_MS);
	return cm_finish(cm, fd, cm_exchange(fd, local, remote, deadline), "cm_accept");
}

int
rdmadev_cm_connect(struct rdmadev_cm_id *cm, const char *addr, uint16_t port,
		   const struct rdmadev_cm_param *local, struct rdmadev_cm_param *remote,
		   int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	struct sockaddr_in sin;
	socklen_t len = sizeof(int);
	int fd, rc, err = 0;

	rc = cm_check(cm, local, remote, timeout_ms, "cm_connect");
	if (rc == 0 && port == 0) {
		RDMADEV_LOG(ERR, "cm_connect: port 0");
		rc = rdmadev_fail(cm->obj.dev, -EINVAL, false);
	}
	if (rc == 0)
		rc = cm_addr(addr, port, &sin);
	if (rc != 0)
		return rc;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return rdmadev_fail(cm->obj.dev, -errno, false);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
		if (errno != EINPROGRESS)
			return cm_finish(cm, fd, -errno, "cm_connect");
		rc = cm_wait(fd, POLLOUT, deadline);
		if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
			rc = -errno;
		if (rc == 0 && err != 0)
			rc = -err;
		if (rc != 0)
			return cm_finish(cm, fd, rc, "cm_connect");
	}
	return cm_finish(cm, fd, cm_exchange(fd, local, remote, deadline), "cm_connect");
}
