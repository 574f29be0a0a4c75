/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Fast-path helpers the engines share: post a burst of the engine's opcode with perftest's
 * signaling rule (one signaled WR every cq_mod, and the last one), keep the receive rings full,
 * and poll the CQs with their accounting (a signaled completion retires the unsignaled WRs
 * posted before it on its QP). Nothing here blocks: the engines are steps of a loop.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "testpmd.h"

/* Largest burst of completions or receives handled per poll. */
#define TP_POLL_BURST	64u
/* Largest receive burst posted at once. */
#define TP_RECV_BURST	64u
/* wr_id: QP index in the high half, WRs the completion retires in the low half. */
#define TP_WRID(qi, n)	(((uint64_t)(qi) << 32) | (uint32_t)(n))
#define TP_WRID_QP(id)	((uint32_t)((id) >> 32))
#define TP_WRID_N(id)	((uint32_t)(id))

int
tp_side_fail(struct tp_side *s, int rc, const char *fmt, ...)
{
	va_list ap;

	if (s->error == 0) {
		va_start(ap, fmt);
		vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
		va_end(ap);
		/* The message first: another lcore may read it once it sees the error. */
		__atomic_store_n(&s->error, rc, __ATOMIC_RELEASE);
	}
	return rc;
}

uint8_t *
tp_recv_area(struct tp_side *s, uint32_t i)
{
	return s->buf + (uint64_t)2 * i * s->area;
}

uint8_t *
tp_send_area(struct tp_side *s, uint32_t i)
{
	return s->buf + ((uint64_t)2 * i + 1) * s->area;
}

uint8_t
tp_poll_byte(struct tp_side *s, uint32_t i)
{
	const volatile uint8_t *p = tp_recv_area(s, i) + s->size - 1;

	return *p;
}

/* WR @p seq of QP @p i (its 0-based count of WRs). */
static void
tp_fill_wr(struct tp_side *s, uint32_t i, uint64_t seq, struct rdmadev_send_wr *wr,
	   struct rdmadev_sge *sge)
{
	uint8_t op = s->eng->opcode;

	memset(wr, 0, sizeof(*wr));
	/* A read or an atomic's old value lands in the local receive area; the rest leaves the
	 * send area. */
	sge->addr = (uint64_t)(uintptr_t)(op == RDMADEV_WR_RDMA_READ || tp_is_atomic(op) ?
					  tp_recv_area(s, i) : tp_send_area(s, i));
	sge->length = s->size;
	sge->lkey = rdmadev_mr_lkey(s->mr);
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = op;
	if (tp_is_atomic(op)) {
		/*
		 * The word at the start of the peer's area for this QP: add 1, or swap in k + 1
		 * where it holds k, for the QP's k-th WR (the responder executes them in order).
		 */
		wr->atomic.remote_addr = s->remote[i].addr;
		wr->atomic.rkey = s->remote[i].rkey;
		if (s->cfg->atomic_cas) {
			wr->opcode = RDMADEV_WR_ATOMIC_CS;
			wr->atomic.compare_add = seq;
			wr->atomic.swap = seq + 1;
		} else {
			wr->atomic.compare_add = 1;
		}
		return;
	}
	if (op != RDMADEV_WR_RDMA_READ && s->size <= s->cfg->inline_size)
		wr->flags |= RDMADEV_SEND_INLINE;
	if (op == RDMADEV_WR_RDMA_WRITE || op == RDMADEV_WR_RDMA_READ) {
		wr->rdma.remote_addr = s->remote[i].addr;
		wr->rdma.rkey = s->remote[i].rkey;
	} else if (s->cfg->conn == RDMADEV_QPT_UD) {
		wr->ud.ah = s->ah[i];
		wr->ud.remote_qpn = s->remote[i].qpn;
		wr->ud.remote_qkey = TP_QKEY_OF(s->cfg);
	}
}

int
tp_post(struct tp_side *s, uint32_t i, uint32_t n, bool signal_all)
{
	struct rdmadev_send_wr wrs[TP_MAX_POST_LIST];
	struct rdmadev_sge sges[TP_MAX_POST_LIST];
	uint32_t k, covered = s->unsig[i], cq_mod = signal_all ? 1 : s->cq_mod;
	uint64_t pos, now;
	uint16_t done;
	int err = 0;

	n = RTE_MIN(n, (uint32_t)TP_MAX_POST_LIST);
	for (k = 0; k < n; k++) {
		pos = s->qp_posted[i] + k;
		tp_fill_wr(s, i, pos, &wrs[k], &sges[k]);
		covered++;
		if ((pos + 1) % cq_mod == 0 || pos + 1 == s->iters) {
			wrs[k].flags |= RDMADEV_SEND_SIGNALED;
			wrs[k].wr_id = TP_WRID(i, covered);
			covered = 0;
		}
	}
	now = tp_ticks();
	done = rdmadev_post_send(s->qp[i], wrs, (uint16_t)n, &err);
	if (done < n && err != -ENOSPC && err != -EAGAIN && err != -ENOMEM)
		return tp_side_fail(s, err, "rdmadev_post_send on QP %u: %s",
				    rdmadev_qp_num(s->qp[i]), strerror(-err));
	for (k = 0; k < done; k++) {
		if (s->tposted != NULL && s->scnt < s->nb_samples)
			s->tposted[s->scnt] = now;
		s->scnt++;
		/* Unsignaled WRs since the last signaled one: the next completion retires them. */
		if (wrs[k].flags & RDMADEV_SEND_SIGNALED) {
			s->unsig[i] = 0;
			s->signaled++;
		} else {
			s->unsig[i]++;
		}
	}
	s->qp_posted[i] += done;
	s->outstanding[i] += done;
	if (done > 0)
		s->progress++;
	return done;
}

int
tp_fill_recv(struct tp_side *s, uint32_t i)
{
	struct rdmadev_recv_wr wrs[TP_RECV_BURST];
	struct rdmadev_sge sge;
	uint32_t n, k;
	uint16_t done;
	int err = 0;

	sge.addr = (uint64_t)(uintptr_t)tp_recv_area(s, i);
	sge.length = s->area;
	sge.lkey = rdmadev_mr_lkey(s->mr);
	while (s->rx_posted[i] < s->cfg->rx_depth) {
		n = RTE_MIN(s->cfg->rx_depth - s->rx_posted[i], TP_RECV_BURST);
		for (k = 0; k < n; k++) {
			memset(&wrs[k], 0, sizeof(wrs[k]));
			wrs[k].wr_id = TP_WRID(i, 1);
			wrs[k].sg_list = &sge;
			wrs[k].num_sge = 1;
		}
		done = rdmadev_post_recv(s->qp[i], wrs, (uint16_t)n, &err);
		s->rx_posted[i] += done;
		if (done < n) {
			if (err == -ENOSPC || err == -EAGAIN || err == -ENOMEM)
				return 0;
			return tp_side_fail(s, err, "rdmadev_post_recv on QP %u: %s",
					    rdmadev_qp_num(s->qp[i]), strerror(-err));
		}
	}
	return 0;
}

static int
tp_wc_check(struct tp_side *s, const struct rdmadev_wc *wc, const char *cq)
{
	if (wc->status == RDMADEV_WC_SUCCESS)
		return 0;
	return tp_side_fail(s, -EIO, "%s completion on QP %u: %s (vendor error 0x%x)", cq,
			    wc->qp_num, rdmadev_wc_status_str(wc->status), wc->vendor_err);
}

int
tp_poll_send(struct tp_side *s)
{
	struct rdmadev_wc wcs[TP_POLL_BURST];
	uint16_t n, k;
	uint32_t qi, j;
	uint64_t now;

	n = rdmadev_poll_cq(s->scq, wcs, TP_POLL_BURST);
	if (n == 0)
		return 0;
	now = tp_ticks();
	for (k = 0; k < n; k++) {
		if (tp_wc_check(s, &wcs[k], "send") < 0)
			return s->error;
		qi = TP_WRID_QP(wcs[k].wr_id);
		if (qi >= s->nb_qps || TP_WRID_N(wcs[k].wr_id) > s->outstanding[qi])
			return tp_side_fail(s, -EPROTO, "send completion with a foreign wr_id 0x%lx",
					    (unsigned long)wcs[k].wr_id);
		s->outstanding[qi] -= TP_WRID_N(wcs[k].wr_id);
		for (j = 0; j < TP_WRID_N(wcs[k].wr_id); j++) {
			if (s->tcompleted != NULL && s->ccnt < s->nb_samples)
				s->tcompleted[s->ccnt] = now;
			s->ccnt++;
		}
	}
	s->progress++;
	return n;
}

int
tp_poll_recv(struct tp_side *s, uint32_t *qp_hits)
{
	struct rdmadev_wc wcs[TP_POLL_BURST];
	uint16_t n, k;
	uint32_t qi;

	n = rdmadev_poll_cq(s->rcq, wcs, TP_POLL_BURST);
	for (k = 0; k < n; k++) {
		if (tp_wc_check(s, &wcs[k], "receive") < 0)
			return s->error;
		qi = TP_WRID_QP(wcs[k].wr_id);
		if (qi >= s->nb_qps || s->rx_posted[qi] == 0)
			return tp_side_fail(s, -EPROTO, "receive completion with a foreign wr_id "
					    "0x%lx", (unsigned long)wcs[k].wr_id);
		s->rx_posted[qi]--;
		s->rcnt++;
		if (qp_hits != NULL)
			qp_hits[qi]++;
	}
	if (n > 0)
		s->progress++;
	return n;
}

void
tp_reset_side(struct tp_side *s, uint32_t size)
{
	uint32_t i;

	s->size = size;
	s->scnt = 0;
	s->ccnt = 0;
	s->rcnt = 0;
	s->seq = 0;
	s->waiting = false;
	s->done = false;
	s->idle = 0;
	s->peeks = 0;
	s->peer_finished = false;
	s->signaled = 0;
	/* A latency engine signals every WR (tp_post's signal_all); a stream uses this. */
	s->cq_mod = tp_cq_mod(s->cfg);
	for (i = 0; i < s->nb_qps; i++) {
		s->outstanding[i] = 0;
		s->qp_posted[i] = 0;
		s->unsig[i] = 0;
		/*
		 * The byte a ping-pong waits on starts at a value no first message carries. Not in
		 * two processes: the peer's first write of this size may already be there (perftest
		 * does not sync between sizes), and each run has fresh zeroed buffers.
		 */
		if (s->peer != NULL)
			tp_recv_area(s, i)[size - 1] = 0;
		tp_send_area(s, i)[size - 1] = 0;
	}
}

void
tp_set_target(struct tp_side *s, uint64_t iters)
{
	/* Release: the peer may step on another lcore and reads the target with acquire. */
	__atomic_store_n(&s->iters, iters, __ATOMIC_RELEASE);
	if (s->peer != NULL)
		__atomic_store_n(&s->peer->iters, iters, __ATOMIC_RELEASE);
}

bool
tp_deadline_passed(const struct tp_side *s)
{
	return s->deadline != 0 && tp_ticks() >= s->deadline;
}

int
tp_passive_step(struct tp_side *s)
{
	if (tp_poll_send(s) < 0)
		return s->error;
	/* In one process, stay (and keep the device polled) until the client is done; acquire
	 * pairs with the release of the loop that set it (maybe on another lcore). */
	if (s->peer != NULL)
		return __atomic_load_n(&s->peer->done, __ATOMIC_ACQUIRE) ? 1 : 0;
	return 1;
}

uint8_t
tp_next_seq(uint8_t seq)
{
	/* perftest's values: the iteration count's low byte, 1, 2 ... 255, 0, 1 ... */
	return (uint8_t)(seq + 1);
}

int
tp_stream_step(struct tp_side *s)
{
	const struct tp_config *cfg = s->cfg;
	uint64_t most = 0, target;
	uint32_t i, n;

	if (tp_poll_send(s) < 0)
		return s->error;
	if (tp_deadline_passed(s)) {
		/* Stop at the next signaled position so every posted WR completes. */
		for (i = 0; i < s->nb_qps; i++)
			most = RTE_MAX(most, s->qp_posted[i]);
		target = RTE_MIN(s->iters, (most + s->cq_mod - 1) / s->cq_mod * s->cq_mod);
		tp_set_target(s, RTE_MAX(target, (uint64_t)1));
		s->deadline = 0;
	}
	for (i = 0; i < s->nb_qps; i++) {
		while (s->qp_posted[i] < s->iters &&
		       s->outstanding[i] + cfg->post_list <= cfg->tx_depth) {
			n = (uint32_t)RTE_MIN((uint64_t)cfg->post_list, s->iters - s->qp_posted[i]);
			if (tp_post(s, i, n, false) <= 0)
				break;
		}
		if (s->error != 0)
			return s->error;
	}
	return s->ccnt == s->iters * s->nb_qps ? 1 : 0;
}

int
tp_atomic_check(struct tp_side *s)
{
	uint32_t i;

	for (i = 0; i < s->nb_qps; i++) {
		uint64_t got = *(const volatile uint64_t *)(const void *)tp_recv_area(s, i);

		if (s->qp_posted[i] != 0 && got != s->qp_posted[i] - 1)
			return tp_side_fail(s, -EIO, "atomic check: QP %u's last atomic returned "
					    "%" PRIu64 ", not %" PRIu64 " (its count of atomics - 1)",
					    rdmadev_qp_num(s->qp[i]), got, s->qp_posted[i] - 1);
	}
	return 1;
}

int
tp_start_none(struct tp_side *s)
{
	RTE_SET_USED(s);
	return 0;
}

int
tp_rdma_stream_step(struct tp_side *s)
{
	return s->role == TP_SERVER ? tp_passive_step(s) : tp_stream_step(s);
}
