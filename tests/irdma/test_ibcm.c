/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The GSI QP (QP 1) and the IB CM over it (lib/rdmadev/rdmadev_ibcm.c, doc/cm.md), between
 * two model devices on one wire:
 *  - QP 1: MAD-sized UD sends between the devices' QP 1s, data, source QP and GRH area
 *    checked; a datagram to QP 1 with another Q_Key is dropped; one GSI per device; the
 *    GSI's Q_Key cannot be changed.
 *  - The CM: listen / REQ / MRA / REP / RTU, the QPs in RTS with the negotiated values, RC
 *    traffic both ways, DREQ / DREP, timewait (a REQ from the same QP then: REJ 10); REJ 8 for a service nobody listens on; REJ
 *    28 with private data from the application; a lost REP resent after the REQ's Local CM
 *    Response Timeout; every retry lost: REP_ERROR on the passive side, REQ_ERROR on the
 *    active side.
 *  - Over IPv6 GIDs (GID 1): REQ GIDs, the peer's address from the GRH area, traffic.
 *  - Every MAD either agent sends is checked field by field by an independent decoder of
 *    the IBA chapter 12 positions (bit 0 = most significant bit of a byte, big endian), as
 *    Linux's include/rdma/ibta_vol1_c12.h lists them.
 *  - rdma_cm on top (rdmadev_rcm.c): resolve, listen, connect with private data behind the
 *    CMA header, CONNECT_REQUEST with the peer's address and port, accept, ESTABLISHED on
 *    both sides, DISCONNECTED, TIMEWAIT_EXIT, REJECTED 28 and 8, the channel's fd, and the
 *    ids as CM_ID objects in `rdmadev_res_dump` with iproute2's columns.
 * Time is the test's: the agents run their timers on a stepped clock (no timed waits).
 */

#include <arpa/inet.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ring.h>

#include "irdma_dev.h"
#include "rdmadev_ibcm.h"
#include "rdmadev_private.h"
#include "rdmadev_rcm.h"
#include "test.h"
#include "e2e_lib.h"

#define SID		0x0000000001061c06ull	/* rdma_cm TCP port space, port 7174 */
#define PUMP		64u			/* process rounds per step */

/* ---- the independent decoder ---- */

/* @p width bits starting @p bit bits below the MSB of MAD byte @p byte (iba.h's rule). */
static uint64_t
fld(const uint8_t *m, unsigned int byte, unsigned int bit, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i, total = bit + width, nbytes = (total + 7) / 8;

	for (i = 0; i < nbytes; i++)
		v = v << 8 | m[byte + i];
	v >>= nbytes * 8 - total;
	return width == 64 ? v : v & ((1ull << width) - 1);
}

/* MADs one agent sent, in order. */
struct mad_log {
	uint8_t m[64][256];
	unsigned int n;
};

static void
log_mad(void *arg, const uint8_t *mad)
{
	struct mad_log *l = arg;

	if (l->n < 64)
		memcpy(l->m[l->n], mad, 256);
	l->n++;
}

/* The common header of every CM MAD (IBA 13.4.2): base 1, class 7, version 2, Send. */
static void
check_hdr(const uint8_t *m, uint16_t attr)
{
	unsigned int i;

	TEST_CHECK_EQ(fld(m, 0, 0, 8), 1);
	TEST_CHECK_EQ(fld(m, 1, 0, 8), 0x07);
	TEST_CHECK_EQ(fld(m, 2, 0, 8), 2);
	TEST_CHECK_EQ(fld(m, 3, 0, 8), 0x03);
	TEST_CHECK_EQ(fld(m, 4, 0, 16), 0);		/* Status */
	TEST_CHECK_EQ(fld(m, 6, 0, 16), 0);		/* ClassSpecific */
	TEST_CHECK_EQ(fld(m, 16, 0, 16), attr);
	TEST_CHECK_EQ(fld(m, 18, 0, 16), 0);
	TEST_CHECK_EQ(fld(m, 20, 0, 32), 0);		/* AttributeModifier */
	for (i = 0; i < 4; i++)
		TEST_CHECK(attr != 0x10 || m[28 + i] == 0);
}

/* The first MAD of @p attr in @p l at or after index *@p from; NULL when none. */
static const uint8_t *
find_mad(const struct mad_log *l, uint16_t attr, unsigned int *from)
{
	unsigned int i;

	for (i = from != NULL ? *from : 0; i < l->n && i < 64; i++) {
		if (fld(l->m[i], 16, 0, 16) == attr) {
			if (from != NULL)
				*from = i + 1;
			return l->m[i];
		}
	}
	return NULL;
}

/* ---- helpers ---- */

/* One end of the tests' connections: its CM agent, or its rdma_cm channel over one. */
struct side {
	struct e2e_dev d;
	struct rdmadev_ibcm *cm;
	struct mad_log log;
	struct rdmadev_rcm_channel *ch;	/* rdma_cm tests: the channel runs its own agent */
};

static uint64_t now;

static void
side_process(struct side *s)
{
	if (s->ch != NULL)
		rdmadev_rcm_process(s->ch, now);
	else
		rdmadev_ibcm_process(s->cm, now);
}

static void
pump(struct side *a, struct side *b)
{
	unsigned int i;

	for (i = 0; i < PUMP; i++) {
		side_process(a);
		side_process(b);
		e2e_collect();
	}
}

/* Pump until @p s has an event (bounded); true with it in @p ev. */
static bool
next_event(struct side *a, struct side *b, struct side *s, struct rdmadev_ibcm_event *ev)
{
	unsigned int i;

	for (i = 0; i < 50; i++) {
		if (rdmadev_ibcm_event_get(s->cm, ev) == 0)
			return true;
		pump(a, b);
	}
	return false;
}

static void
expect_event(struct side *a, struct side *b, struct side *s, enum rdmadev_ibcm_event_type t,
	     struct rdmadev_ibcm_event *ev)
{
	struct rdmadev_ibcm_event tmp;

	if (ev == NULL)
		ev = &tmp;
	memset(ev, 0, sizeof(*ev));
	TEST_CHECK(next_event(a, b, s, ev));
	if (ev->type != t)
		printf("# expected event %d, got %d\n", t, ev->type);
	TEST_CHECK_EQ(ev->type, t);
}

static bool
no_event(struct side *a, struct side *b, struct side *s)
{
	struct rdmadev_ibcm_event ev;

	pump(a, b);
	return rdmadev_ibcm_event_get(s->cm, &ev) == -EAGAIN;
}

static int
sides_open_gid(struct side *a, struct side *b, const char *wire0, const char *wire1,
	       uint8_t sgid_index)
{
	struct rdmadev_ibcm_conf c;

	memset(&a->log, 0, sizeof(a->log));
	memset(&b->log, 0, sizeof(b->log));
	if (e2e_dev_open(&a->d, wire0) != 0 || e2e_dev_open(&b->d, wire1) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	c.ctx = a->d.ctx;
	c.seed = 1;
	c.sgid_index = sgid_index;
	TEST_CHECK_EQ(rdmadev_ibcm_open(&c, &a->cm), 0);
	c.ctx = b->d.ctx;
	c.seed = 2;
	TEST_CHECK_EQ(rdmadev_ibcm_open(&c, &b->cm), 0);
	if (a->cm == NULL || b->cm == NULL)
		return -1;
	rdmadev_ibcm_set_tx_hook(a->cm, log_mad, &a->log);
	rdmadev_ibcm_set_tx_hook(b->cm, log_mad, &b->log);
	now = 1000000;
	return 0;
}

static int
sides_open(struct side *a, struct side *b, const char *wire0, const char *wire1)
{
	return sides_open_gid(a, b, wire0, wire1, 0);
}

static void
sides_close(struct side *a, struct side *b)
{
	rdmadev_ibcm_close(b->cm);
	rdmadev_ibcm_close(a->cm);
	b->cm = NULL;
	a->cm = NULL;
	e2e_dev_close(&b->d);
	e2e_dev_close(&a->d);
}

/* One connection's ends: an RC QP @p qa / @p qb and a 16 KiB MR @p ma / @p mb on each side. */
static void
ends_up(struct side *a, struct side *b, struct e2e_qp *qa, struct e2e_qp *qb, struct e2e_mr *ma,
	struct e2e_mr *mb)
{
	e2e_mr_reg(&a->d, NULL, ma, 16384, E2E_ACC_ALL);
	e2e_mr_reg(&b->d, NULL, mb, 16384, E2E_ACC_ALL);
	e2e_qp_create(&a->d, qa, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&b->d, qb, RDMADEV_QPT_RC, NULL);
}

/*
 * The end of a test of one connection: its CM ids @p ids (active, passive, listener; NULL
 * ones skipped) destroyed, both devices drained, the ends released, the sides closed.
 */
static void
ends_down(struct side *a, struct side *b, struct rdmadev_ibcm_id *const ids[3], struct e2e_qp *qa,
	  struct e2e_qp *qb, struct e2e_mr *ma, struct e2e_mr *mb)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		rdmadev_ibcm_id_destroy(ids[i]);
	e2e_drain(&a->d);
	e2e_drain(&b->d);
	e2e_qp_destroy(qa);
	e2e_qp_destroy(qb);
	e2e_mr_dereg(ma);
	e2e_mr_dereg(mb);
	sides_close(a, b);
}

static void
conn_param(struct rdmadev_ibcm_conn_param *p, struct e2e_qp *q, const struct e2e_dev *peer)
{
	memset(p, 0, sizeof(*p));
	p->qp = q->qp;
	p->qp_access = E2E_ACC_ALL;
	p->service_id = SID;
	memcpy(p->dgid, peer->gid, 16);
	memcpy(p->dmac, peer->mac, 6);
	p->responder_resources = 4;
	p->initiator_depth = 2;
	p->retry_count = 7;
	p->rnr_retry_count = 6;
	p->path_mtu = RDMADEV_MTU_1024;
}

static void
wire_drop(struct e2e_dev *d, bool on)
{
	struct irdma_model_wire_faults f = { .drop_ppm = 1000000, .seed = 1 };

	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(d->id)), on ? &f : NULL), 0);
	d->lossy = true;
}

/* ---- QP 1 ---- */

static void
test_gsi_ud(void)
{
	static struct e2e_dev d0, d1 = { .id = -1 };
	struct e2e_qp g0 = { 0 }, g1 = { 0 }, g2 = { 0 }, u = { 0 };
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_send_wr wr;
	struct rdmadev_ah_attr aa;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_qp_attr qa;
	struct rdmadev_sge s, r;
	struct rdmadev_wc wc;
	struct e2e_mr m0, m1;
	const uint8_t *g;
	uint64_t drops;

	if (e2e_dev_open(&d0, E2E_DEVARGS(0, "loop:gsi")) != 0 ||
	    e2e_dev_open(&d1, E2E_DEVARGS(1, "loop:gsi")) != 0)
		goto out_dev;
	e2e_mr_reg(&d0, NULL, &m0, 16384, E2E_ACC_ALL);
	e2e_mr_reg(&d1, NULL, &m1, 16384, E2E_ACC_ALL);
	TEST_CHECK_EQ(e2e_qp_create(&d0, &g0, RDMADEV_QPT_GSI, NULL), 0);
	TEST_CHECK_EQ(e2e_qp_create(&d1, &g1, RDMADEV_QPT_GSI, NULL), 0);
	TEST_CHECK_EQ(g0.qpn, 1);
	TEST_CHECK_EQ(g1.qpn, 1);
	/* one GSI per device: QP 1 is taken */
	memset(&qi, 0, sizeof(qi));
	qi.pd = d0.pd;
	qi.send_cq = d0.scq.cq;
	qi.recv_cq = d0.rcq.cq;
	qi.qp_type = RDMADEV_QPT_GSI;
	qi.cap.max_send_wr = 4;
	qi.cap.max_recv_wr = 4;
	qi.cap.max_send_sge = 1;
	qi.cap.max_recv_sge = 1;
	TEST_CHECK_EQ(rdmadev_qp_create(&qi, &g2.qp), -EBUSY);
	/* its Q_Key is the well-known one */
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = RDMADEV_QPS_INIT;
	qa.port_num = 1;
	qa.qkey = 0x1234;
	TEST_CHECK_EQ(rdmadev_qp_modify(g0.qp, &qa, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
					RDMADEV_QP_PORT | RDMADEV_QP_QKEY), -EINVAL);
	if (m0.mr == NULL || m1.mr == NULL || g0.qp == NULL || g1.qp == NULL ||
	    e2e_ud_up(&g0, RDMADEV_GSI_QKEY) != 0 || e2e_ud_up(&g1, RDMADEV_GSI_QKEY) != 0)
		goto out;
	memset(&aa, 0, sizeof(aa));
	memcpy(aa.dgid, d1.gid, 16);
	memcpy(aa.dmac, d1.mac, 6);
	aa.hop_limit = 64;
	aa.vlan_id = 0xffff;
	aa.port_num = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(d0.pd, &aa, &ah), 0);
	if (ah == NULL)
		goto out;
	/* a 256-byte MAD, QP 1 to QP 1 */
	e2e_fill(m0.buf, 256, 77);
	s = e2e_sge(&m0, 0, 256);
	r = e2e_sge(&m1, 0, 40 + 256);
	e2e_recv(&g1, 10, &r, 1);
	e2e_wr_init(&wr, 1, RDMADEV_WR_SEND, &s, 1);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = 1;
	wr.ud.remote_qkey = RDMADEV_GSI_QKEY;
	e2e_send(&g0, &wr);
	e2e_expect(&d0.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&d1.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 10);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.qp_num, 1);
	TEST_CHECK_EQ(wc.src_qp, 1);
	TEST_CHECK_EQ(wc.byte_len, 40 + 256);
	TEST_CHECK(memcmp(wc.smac, d0.mac, 6) == 0);
	TEST_CHECK(memcmp(m1.buf + 40, m0.buf, 256) == 0);
	/* the GRH area: the IPv4 header in its last 20 bytes, the sender's address */
	g = m1.buf;
	TEST_CHECK_EQ(g[20] >> 4, 4);
	TEST_CHECK_EQ(g[20 + 9], 17);
	TEST_CHECK(memcmp(g + 20 + 12, d0.gid + 12, 4) == 0);
	TEST_CHECK(memcmp(g + 20 + 16, d1.gid + 12, 4) == 0);
	/* another Q_Key to QP 1: dropped, the receive stays */
	drops = E2E_STAT(&d1, rx_qkey_drops);
	e2e_recv(&g1, 11, &r, 1);
	wr.wr_id = 2;
	wr.ud.remote_qkey = 0x80010001u;
	e2e_send(&g0, &wr);
	e2e_expect(&d0.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK_EQ(e2e_idle(&d1.rcq, 300), 0);
	TEST_CHECK_EQ(E2E_STAT(&d1, rx_qkey_drops), drops + 1);
	/* a plain UD QP may send to QP 1 with the GSI Q_Key: the source QP is its own */
	TEST_CHECK_EQ(e2e_qp_create(&d0, &u, RDMADEV_QPT_UD, NULL), 0);
	if (u.qp != NULL && e2e_ud_up(&u, 0x55) == 0) {
		e2e_fill(m0.buf, 256, 78);
		wr.wr_id = 3;
		wr.ud.remote_qkey = RDMADEV_GSI_QKEY;
		e2e_send(&u, &wr);
		e2e_expect(&d0.scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d1.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 11);
		TEST_CHECK_EQ(wc.src_qp, u.qpn);
		TEST_CHECK(memcmp(m1.buf + 40, m0.buf, 256) == 0);
	}
	d1.lossy = true;
out:
	if (ah != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	e2e_qp_destroy(&u);
	e2e_qp_destroy(&g1);
	e2e_qp_destroy(&g0);
	e2e_mr_dereg(&m1);
	e2e_mr_dereg(&m0);
out_dev:
	e2e_dev_close(&d1);
	e2e_dev_close(&d0);
}

/* ---- the CM ---- */

/* The REQ @p m as sent for @p p from QP @p qpn of a side with GID @p sgid. */
static void
check_req(const uint8_t *m, const struct rdmadev_ibcm_conn_param *p, uint32_t qpn,
	  const uint8_t *sgid, const void *pdata, unsigned int plen)
{
	check_hdr(m, 0x0010);
	TEST_CHECK(fld(m, 24, 0, 32) != 0);			/* Local Comm ID */
	TEST_CHECK_EQ(fld(m, 28, 0, 32), 0);
	TEST_CHECK_EQ(fld(m, 32, 0, 64), p->service_id);
	TEST_CHECK(fld(m, 40, 0, 64) != 0);			/* Local CA GUID */
	TEST_CHECK_EQ(fld(m, 52, 0, 32), 0);			/* Local Q_Key (RC) */
	TEST_CHECK_EQ(fld(m, 56, 0, 24), qpn);
	TEST_CHECK_EQ(fld(m, 59, 0, 8), p->responder_resources);
	TEST_CHECK_EQ(fld(m, 60, 0, 24), 0);			/* Local EECN */
	TEST_CHECK_EQ(fld(m, 63, 0, 8), p->initiator_depth);
	TEST_CHECK_EQ(fld(m, 64, 0, 24), 0);			/* Remote EECN */
	TEST_CHECK_EQ(fld(m, 67, 0, 5), 20);			/* Remote CM Response Timeout */
	TEST_CHECK_EQ(fld(m, 67, 5, 2), 0);			/* RC */
	TEST_CHECK_EQ(fld(m, 67, 7, 1), 1);			/* End-to-End Flow Control */
	TEST_CHECK(fld(m, 68, 0, 24) < (1u << 24));		/* Starting PSN */
	TEST_CHECK_EQ(fld(m, 71, 0, 5), 20);			/* Local CM Response Timeout */
	TEST_CHECK_EQ(fld(m, 71, 5, 3), p->retry_count);
	TEST_CHECK_EQ(fld(m, 72, 0, 16), 0xffff);		/* P_Key */
	TEST_CHECK_EQ(fld(m, 74, 0, 4), p->path_mtu);
	TEST_CHECK_EQ(fld(m, 74, 4, 1), 0);			/* RDC Exists */
	TEST_CHECK_EQ(fld(m, 74, 5, 3), p->rnr_retry_count);
	TEST_CHECK_EQ(fld(m, 75, 0, 4), p->max_cm_retries != 0 ? p->max_cm_retries : 15);
	TEST_CHECK_EQ(fld(m, 75, 4, 1), 0);			/* SRQ */
	TEST_CHECK_EQ(fld(m, 75, 5, 3), 0);			/* Extended Transport Type */
	TEST_CHECK_EQ(fld(m, 76, 0, 16), 0xffff);		/* Primary Local Port LID */
	TEST_CHECK_EQ(fld(m, 78, 0, 16), 0xffff);		/* Primary Remote Port LID */
	TEST_CHECK(memcmp(m + 80, sgid, 16) == 0);		/* Primary Local Port GID */
	TEST_CHECK(memcmp(m + 96, p->dgid, 16) == 0);		/* Primary Remote Port GID */
	TEST_CHECK_EQ(fld(m, 112, 0, 20), 0);			/* Flow Label */
	TEST_CHECK_EQ(fld(m, 117, 0, 8), 64);			/* Hop Limit */
	TEST_CHECK_EQ(fld(m, 118, 0, 4), 0);			/* SL */
	TEST_CHECK_EQ(fld(m, 118, 4, 1), 0);			/* Subnet Local */
	TEST_CHECK_EQ(fld(m, 119, 0, 5), 17);			/* Local ACK Timeout: 16 + 1 */
	TEST_CHECK_EQ(fld(m, 120, 0, 64) | fld(m, 128, 0, 64) | fld(m, 136, 0, 64) |
		      fld(m, 144, 0, 64) | fld(m, 152, 0, 64) | fld(m, 160, 0, 32), 0);
	TEST_CHECK(memcmp(m + 164, pdata, plen) == 0);		/* Private Data */
}

static void
check_rep(const uint8_t *m, const uint8_t *req, uint32_t qpn, uint8_t rr, uint8_t id,
	  uint8_t rnr)
{
	check_hdr(m, 0x0013);
	TEST_CHECK_EQ(fld(m, 8, 0, 64), fld(req, 8, 0, 64));	/* TID of the REQ */
	TEST_CHECK(fld(m, 24, 0, 32) != 0);
	TEST_CHECK_EQ(fld(m, 28, 0, 32), fld(req, 24, 0, 32));	/* Remote Comm ID */
	TEST_CHECK_EQ(fld(m, 32, 0, 32), 0);			/* Local Q_Key */
	TEST_CHECK_EQ(fld(m, 36, 0, 24), qpn);
	TEST_CHECK_EQ(fld(m, 40, 0, 24), 0);			/* Local EECN */
	TEST_CHECK_EQ(fld(m, 48, 0, 8), rr);
	TEST_CHECK_EQ(fld(m, 49, 0, 8), id);
	TEST_CHECK_EQ(fld(m, 50, 0, 5), 15);			/* Target ACK Delay */
	TEST_CHECK_EQ(fld(m, 50, 5, 2), 0);			/* Failover Accepted */
	TEST_CHECK_EQ(fld(m, 50, 7, 1), 1);			/* End-to-End Flow Control */
	TEST_CHECK_EQ(fld(m, 51, 0, 3), rnr);
	TEST_CHECK_EQ(fld(m, 51, 3, 1), 0);			/* SRQ */
	TEST_CHECK(fld(m, 52, 0, 64) != 0);			/* Local CA GUID */
	TEST_CHECK(fld(m, 52, 0, 64) != fld(req, 40, 0, 64));
}

/* RTU / DREP / MRA / REJ: comm ids of @p m against @p local / @p remote. */
static void
check_ids(const uint8_t *m, uint16_t attr, uint64_t tid, uint32_t local, uint32_t remote)
{
	check_hdr(m, attr);
	TEST_CHECK_EQ(fld(m, 8, 0, 64), tid);
	TEST_CHECK_EQ(fld(m, 24, 0, 32), local);
	TEST_CHECK_EQ(fld(m, 28, 0, 32), remote);
}

static void
rc_traffic(struct e2e_qp *a, struct e2e_qp *b, struct e2e_mr *ma, struct e2e_mr *mb, uint64_t seed)
{
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s, r;

	e2e_fill(ma->buf, 3000, seed);
	s = e2e_sge(ma, 0, 3000);
	r = e2e_sge(mb, 4096, 4096);
	e2e_recv(b, 100 + seed, &r, 1);
	e2e_wr_init(&wr, seed, RDMADEV_WR_SEND, &s, 1);
	e2e_send(a, &wr);
	e2e_expect(&a->dev->scq, seed, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	e2e_expect(&b->dev->rcq, 100 + seed, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
	TEST_CHECK(memcmp(mb->buf + 4096, ma->buf, 3000) == 0);
}

static void
test_cm_connect(void)
{
	static struct side a, b;
	static const char req_pd[] = "hello from the active side";
	static const char rej_pd[] = "not you";
	struct rdmadev_ibcm_id *l = NULL, *ca = NULL, *cb = NULL, *cx = NULL;
	struct rdmadev_ibcm_conn_param pa, pb;
	struct rdmadev_ibcm_event ev;
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_ibcm_stats st;
	struct e2e_qp qa1 = { 0 }, qb1 = { 0 }, qx = { 0 };
	struct e2e_mr ma = { 0 }, mb = { 0 };
	const uint8_t *req, *rep, *m;
	unsigned int i;
	uint32_t a_id, b_id;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:cm1"), E2E_DEVARGS(1, "loop:cm1")) != 0)
		goto out;
	ends_up(&a, &b, &qa1, &qb1, &ma, &mb);
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &cx), -EADDRINUSE);
	conn_param(&pa, &qa1, &b.d);
	pa.private_data = req_pd;
	pa.private_data_len = sizeof(req_pd);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
	if (ca == NULL || l == NULL)
		goto out;
	TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(ca), "REQ_SENT"), 0);
	/* passive: the REQ, with the active side's values */
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	cb = ev.id;
	TEST_CHECK(ev.listen_id == l);
	TEST_CHECK_EQ(ev.peer.service_id, SID);
	TEST_CHECK_EQ(ev.peer.qpn, qa1.qpn);
	TEST_CHECK_EQ(ev.peer.responder_resources, 4);
	TEST_CHECK_EQ(ev.peer.initiator_depth, 2);
	TEST_CHECK_EQ(ev.peer.path_mtu, RDMADEV_MTU_1024);
	TEST_CHECK_EQ(ev.peer.retry_count, 7);
	TEST_CHECK_EQ(ev.peer.rnr_retry_count, 6);
	TEST_CHECK(memcmp(ev.peer.gid, a.d.gid, 16) == 0);
	TEST_CHECK(memcmp(ev.peer.mac, a.d.mac, 6) == 0);
	TEST_CHECK_EQ(ev.private_data_len, 92);
	TEST_CHECK(memcmp(ev.private_data, req_pd, sizeof(req_pd)) == 0);
	/* the passive side MRAed the REQ at once; the active one stops resending it */
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, &ev);
	TEST_CHECK_EQ(ev.service_timeout, 24);
	TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(ca), "MRA_REP_RCVD"), 0);
	req = find_mad(&a.log, 0x0010, NULL);
	TEST_CHECK(req != NULL);
	if (req == NULL || cb == NULL)
		goto out;
	check_req(req, &pa, qa1.qpn, a.d.gid, req_pd, sizeof(req_pd));
	a_id = (uint32_t)fld(req, 24, 0, 32);
	m = find_mad(&b.log, 0x0011, NULL);
	TEST_CHECK(m != NULL);
	if (m != NULL) {
		check_hdr(m, 0x0011);
		TEST_CHECK_EQ(fld(m, 8, 0, 64), fld(req, 8, 0, 64));
		TEST_CHECK_EQ(fld(m, 28, 0, 32), a_id);
		TEST_CHECK_EQ(fld(m, 32, 0, 2), 0);		/* Message MRAed: REQ */
		TEST_CHECK_EQ(fld(m, 33, 0, 5), 24);		/* Service Timeout */
	}
	/* much later than the REQ's timeout, but within the MRA's: no REQ again */
	now += 10ull * 1000 * 1000 * 1000;
	TEST_CHECK(no_event(&a, &b, &a));
	TEST_CHECK_EQ(a.log.n, 1);
	/* accept: responder resources / initiator depth swapped and capped */
	conn_param(&pb, &qb1, &a.d);
	pb.responder_resources = 8;	/* capped by the REQ's initiator depth 2 */
	pb.initiator_depth = 1;		/* below the REQ's responder resources 4 */
	pb.rnr_retry_count = 5;
	TEST_CHECK_EQ(rdmadev_ibcm_accept(cb, &pb, now), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REP_RECEIVED, &ev);
	TEST_CHECK_EQ(ev.peer.qpn, qb1.qpn);
	TEST_CHECK_EQ(ev.peer.responder_resources, 2);
	TEST_CHECK_EQ(ev.peer.initiator_depth, 1);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_ESTABLISHED, NULL);
	rep = find_mad(&b.log, 0x0013, NULL);
	m = find_mad(&a.log, 0x0014, NULL);
	TEST_CHECK(rep != NULL && m != NULL);
	if (rep == NULL || m == NULL)
		goto out;
	check_rep(rep, req, qb1.qpn, 2, 1, 5);
	b_id = (uint32_t)fld(rep, 24, 0, 32);
	check_ids(m, 0x0014, fld(req, 8, 0, 64), a_id, b_id);
	/* both QPs in RTS with the negotiated values */
	TEST_CHECK_EQ(rdmadev_qp_query(qa1.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_RTS);
	TEST_CHECK_EQ(qa.dest_qp_num, qb1.qpn);
	/*
	 * A message's Starting PSN is what its sender expects to receive: Linux's
	 * ib_send_cm_req() takes the REQ's as the active side's rq_psn, cm_req_handler() as
	 * the passive side's sq_psn (and the REP's the other way round); rping on rxe sends
	 * from the REP's PSN.
	 */
	TEST_CHECK_EQ(qa.rq_psn, fld(req, 68, 0, 24));
	TEST_CHECK_EQ(qa.sq_psn, fld(rep, 44, 0, 24));
	TEST_CHECK_EQ(qa.path_mtu, RDMADEV_MTU_1024);
	TEST_CHECK_EQ(qa.max_rd_atomic, 2);		/* min(our 2, REP responder resources 2) */
	TEST_CHECK_EQ(qa.max_dest_rd_atomic, 4);
	TEST_CHECK_EQ(qa.retry_cnt, 7);
	TEST_CHECK_EQ(qa.rnr_retry, 5);			/* the REP's */
	TEST_CHECK_EQ(qa.timeout, 17);
	TEST_CHECK_EQ(rdmadev_qp_query(qb1.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_RTS);
	TEST_CHECK_EQ(qa.dest_qp_num, qa1.qpn);
	TEST_CHECK_EQ(qa.rq_psn, fld(rep, 44, 0, 24));
	TEST_CHECK_EQ(qa.sq_psn, fld(req, 68, 0, 24));
	TEST_CHECK_EQ(qa.max_rd_atomic, 1);
	TEST_CHECK_EQ(qa.max_dest_rd_atomic, 2);
	TEST_CHECK_EQ(qa.rnr_retry, 6);			/* the REQ's */
	TEST_CHECK_EQ(qa.timeout, 17);
	/* RC traffic both ways */
	rc_traffic(&qa1, &qb1, &ma, &mb, 1);
	rc_traffic(&qb1, &qa1, &mb, &ma, 2);
	/* a second REQ from another QP, rejected by the application with private data */
	e2e_qp_create(&a.d, &qx, RDMADEV_QPT_RC, NULL);
	conn_param(&pa, &qx, &b.d);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &cx), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
	TEST_CHECK_EQ(rdmadev_ibcm_reject(ev.id, RDMADEV_IBCM_REJ_CONSUMER, rej_pd,
					  sizeof(rej_pd)), 0);
	rdmadev_ibcm_id_destroy(ev.id);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REJ_RECEIVED, &ev);
	TEST_CHECK(ev.id == cx);
	TEST_CHECK_EQ(ev.rej_reason, 28);
	TEST_CHECK(memcmp(ev.private_data, rej_pd, sizeof(rej_pd)) == 0);
	i = 0;
	m = find_mad(&b.log, 0x0012, &i);
	TEST_CHECK(m != NULL);
	if (m != NULL) {
		check_hdr(m, 0x0012);
		TEST_CHECK_EQ(fld(m, 28, 0, 32), fld(find_mad(&a.log, 0x0010, (unsigned int[]){ 1 }),
							24, 0, 32));
		TEST_CHECK_EQ(fld(m, 32, 0, 2), 0);		/* Message REJected: REQ */
		TEST_CHECK_EQ(fld(m, 33, 0, 7), 0);		/* ARI length */
		TEST_CHECK_EQ(fld(m, 34, 0, 16), 28);		/* Reason */
		TEST_CHECK(memcmp(m + 24 + 84, rej_pd, sizeof(rej_pd)) == 0);
	}
	rdmadev_ibcm_id_destroy(cx);
	cx = NULL;
	/* disconnect from the active side: DREQ, DREP, timewait on both */
	TEST_CHECK_EQ(rdmadev_ibcm_disconnect(ca, NULL, 0, now), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_DREQ_RECEIVED, NULL);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_DREP_RECEIVED, NULL);
	TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(ca), "TIMEWAIT"), 0);
	TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(cb), "TIMEWAIT"), 0);
	m = find_mad(&a.log, 0x0015, NULL);
	TEST_CHECK(m != NULL);
	if (m != NULL) {
		const uint8_t *drep = find_mad(&b.log, 0x0016, NULL);

		check_ids(m, 0x0015, fld(m, 8, 0, 64), a_id, b_id);
		TEST_CHECK(fld(m, 8, 0, 64) != fld(req, 8, 0, 64));	/* a new TID */
		TEST_CHECK_EQ(fld(m, 32, 0, 24), qb1.qpn);		/* Remote QPN */
		TEST_CHECK(drep != NULL);
		if (drep != NULL)
			check_ids(drep, 0x0016, fld(m, 8, 0, 64), b_id, a_id);
	}
	TEST_CHECK_EQ(rdmadev_qp_query(qa1.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
	TEST_CHECK_EQ(rdmadev_qp_query(qb1.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
	/* the same QP again toward the same CA while the old connection is in timewait: stale */
	TEST_CHECK_EQ(e2e_qp_to(&qa1, RDMADEV_QPS_RESET), 0);
	conn_param(&pa, &qa1, &b.d);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &cx), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REJ_RECEIVED, &ev);
	TEST_CHECK(ev.id == cx);
	TEST_CHECK_EQ(ev.rej_reason, RDMADEV_IBCM_REJ_STALE_CONN);
	TEST_CHECK(no_event(&a, &b, &b));
	rdmadev_ibcm_id_destroy(cx);
	cx = NULL;
	/* timewait: 4.096 us x 2^17 = 537 ms; not over before */
	now += rdmadev_ibcm_time_ns(17) - 1000;
	TEST_CHECK(no_event(&a, &b, &a));
	now += 2000;
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_TIMEWAIT_EXIT, NULL);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_TIMEWAIT_EXIT, NULL);
	rdmadev_ibcm_stats_get(a.cm, &st);
	TEST_CHECK_EQ(st.tx[0], 3);		/* three REQs */
	TEST_CHECK_EQ(st.tx[4], 1);		/* one RTU */
	TEST_CHECK_EQ(st.retries, 0);
	a.d.lossy = true;	/* the QPs went to ERROR with nothing in flight */
	b.d.lossy = true;
out:
	e2e_qp_destroy(&qx);
	ends_down(&a, &b, (struct rdmadev_ibcm_id *[]){ ca, cb, l }, &qa1, &qb1, &ma, &mb);
}

/* A REQ for a service nobody listens on: REJ 8 (invalid service id). */
/* The path MTU of @p q's QP (enum rdmadev_mtu), 0 when the query fails. */
static unsigned int
qp_mtu(const struct e2e_qp *q)
{
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_qp_attr qa;

	if (q->qp == NULL || rdmadev_qp_query(q->qp, &qa, &qi) != 0)
		return 0;
	return qa.path_mtu;
}

/* The GRH area of a MAD from @p src (IPv4, TTL 64) followed by @p mad, into @p buf. */
static void
mad_from(uint8_t buf[296], const struct e2e_dev *src, const struct e2e_dev *dst,
	 const uint8_t *mad)
{
	memset(buf, 0, 296);
	buf[20] = 0x45;
	buf[20 + 8] = 64;
	buf[20 + 9] = 17;
	memcpy(buf + 20 + 12, src->gid + 12, 4);
	memcpy(buf + 20 + 16, dst->gid + 12, 4);
	memcpy(buf + 40, mad, 256);
}

/*
 * The path MTU (IBA 12.7.25, Linux's cm_format_paths_from_req): the active side offers the
 * smaller of its wish and the port's active MTU (1024: the model's 1500-byte Ethernet), the
 * passive side takes the REQ's, never above its port's, and the caller may cap either.
 */
static void
test_cm_mtu(void)
{
	static struct side a, b;
	static const struct {
		uint8_t want_a, cap_b, req, qp_a, qp_b;
	} c[] = {
		{ RDMADEV_MTU_4096, 0, RDMADEV_MTU_1024, RDMADEV_MTU_1024, RDMADEV_MTU_1024 },
		{ 0, 0, RDMADEV_MTU_1024, RDMADEV_MTU_1024, RDMADEV_MTU_1024 },
		{ RDMADEV_MTU_512, 0, RDMADEV_MTU_512, RDMADEV_MTU_512, RDMADEV_MTU_512 },
		{ RDMADEV_MTU_512, RDMADEV_MTU_256, RDMADEV_MTU_512, RDMADEV_MTU_512,
		  RDMADEV_MTU_256 },
	};
	struct rdmadev_ibcm_id *l = NULL, *ca, *cb;
	struct rdmadev_ibcm_conn_param pa, pb;
	struct rdmadev_ibcm_event ev;
	struct e2e_qp qa1 = { 0 }, qb1 = { 0 };
	uint8_t req[256], buf[296];
	unsigned int i, from;
	const uint8_t *m;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:mtu"), E2E_DEVARGS(1, "loop:mtu")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	for (i = 0; i < RTE_DIM(c); i++) {
		e2e_qp_create(&a.d, &qa1, RDMADEV_QPT_RC, NULL);
		e2e_qp_create(&b.d, &qb1, RDMADEV_QPT_RC, NULL);
		if (qa1.qp == NULL || qb1.qp == NULL)
			goto out;
		conn_param(&pa, &qa1, &b.d);
		pa.path_mtu = c[i].want_a;
		from = a.log.n;
		ca = cb = NULL;
		TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
		expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
		cb = ev.id;
		TEST_CHECK_EQ(ev.peer.path_mtu, c[i].req);
		m = find_mad(&a.log, 0x0010, &from);
		TEST_CHECK(m != NULL && fld(m, 74, 0, 4) == c[i].req);	/* Path MTU */
		if (m != NULL)
			memcpy(req, m, sizeof(req));
		conn_param(&pb, &qb1, &a.d);
		pb.path_mtu = c[i].cap_b;
		TEST_CHECK_EQ(rdmadev_ibcm_accept(cb, &pb, now), 0);
		expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
		expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REP_RECEIVED, NULL);
		expect_event(&a, &b, &b, RDMADEV_IBCM_EV_ESTABLISHED, NULL);
		if (qp_mtu(&qa1) != c[i].qp_a || qp_mtu(&qb1) != c[i].qp_b)
			printf("# case %u: MTUs %u / %u\n", i, qp_mtu(&qa1), qp_mtu(&qb1));
		TEST_CHECK_EQ(qp_mtu(&qa1), c[i].qp_a);
		TEST_CHECK_EQ(qp_mtu(&qb1), c[i].qp_b);
		rdmadev_ibcm_id_destroy(ca);
		rdmadev_ibcm_id_destroy(cb);
		e2e_qp_destroy(&qa1);
		e2e_qp_destroy(&qb1);
	}
	/* a REQ offering 4096 (a peer on a jumbo link): the passive QP stays at 1024 */
	e2e_qp_create(&b.d, &qb1, RDMADEV_QPT_RC, NULL);
	req[24] ^= 0x5a;				/* another Local Comm ID */
	req[58] ^= 0x33;				/* and QPN */
	req[74] = (uint8_t)(RDMADEV_MTU_4096 << 4 | (req[74] & 0xfu));
	mad_from(buf, &a.d, &b.d, req);
	rdmadev_ibcm_rx_inject(b.cm, buf, sizeof(buf), a.d.mac);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	TEST_CHECK_EQ(ev.peer.path_mtu, RDMADEV_MTU_4096);
	if (ev.id != NULL && qb1.qp != NULL) {
		conn_param(&pb, &qb1, &a.d);
		pb.path_mtu = 0;
		TEST_CHECK_EQ(rdmadev_ibcm_accept(ev.id, &pb, now), 0);
		TEST_CHECK_EQ(qp_mtu(&qb1), RDMADEV_MTU_1024);
		rdmadev_ibcm_id_destroy(ev.id);
	}
	/* an MTU code outside 256 .. 4096: REJ 26 */
	req[24] ^= 0x11;
	req[74] = (uint8_t)(6 << 4 | (req[74] & 0xfu));
	from = b.log.n;
	mad_from(buf, &a.d, &b.d, req);
	rdmadev_ibcm_rx_inject(b.cm, buf, sizeof(buf), a.d.mac);
	m = find_mad(&b.log, 0x0012, &from);
	TEST_CHECK(m != NULL && fld(m, 34, 0, 16) == 26);
	TEST_CHECK(no_event(&a, &b, &b));
	a.d.lossy = true;
	b.d.lossy = true;
out:
	rdmadev_ibcm_id_destroy(l);
	e2e_qp_destroy(&qa1);
	e2e_qp_destroy(&qb1);
	sides_close(&a, &b);
}

static void
test_cm_no_listener(void)
{
	static struct side a, b;
	struct rdmadev_ibcm_id *ca = NULL;
	struct rdmadev_ibcm_conn_param pa;
	struct rdmadev_ibcm_event ev;
	struct e2e_qp q = { 0 };
	const uint8_t *req, *rej;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:cm2"), E2E_DEVARGS(1, "loop:cm2")) != 0)
		goto out;
	e2e_qp_create(&a.d, &q, RDMADEV_QPT_RC, NULL);
	conn_param(&pa, &q, &b.d);
	pa.service_id = 0x0000000001060000ull | 4000;
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REJ_RECEIVED, &ev);
	TEST_CHECK(ev.id == ca);
	TEST_CHECK_EQ(ev.rej_reason, RDMADEV_IBCM_REJ_INVALID_SERVICE_ID);
	TEST_CHECK_EQ(ev.rej_reason, 8);
	req = find_mad(&a.log, 0x0010, NULL);
	rej = find_mad(&b.log, 0x0012, NULL);
	TEST_CHECK(req != NULL && rej != NULL);
	if (req != NULL && rej != NULL) {
		check_ids(rej, 0x0012, fld(req, 8, 0, 64), 0, (uint32_t)fld(req, 24, 0, 32));
		TEST_CHECK_EQ(fld(rej, 32, 0, 2), 0);
		TEST_CHECK_EQ(fld(rej, 34, 0, 16), 8);
	}
	/* no passive event, no MRA */
	TEST_CHECK(no_event(&a, &b, &b));
	TEST_CHECK(find_mad(&b.log, 0x0011, NULL) == NULL);
	a.d.lossy = true;
out:
	rdmadev_ibcm_id_destroy(ca);
	e2e_qp_destroy(&q);
	sides_close(&a, &b);
}

/*
 * A REJ of every reason code IBA defines (1..33 and 35; 34 is reserved), and two it does
 * not (34, 200): the passive application rejects each REQ with that reason and private
 * data; the active side gets one REJ_RECEIVED naming it, with the data, its QP in ERR and
 * its id IDLE; the REJ MAD carries the reason and "REQ rejected"; nothing else happens on
 * either side and nothing is resent.
 */
static void
test_cm_rej_reasons(void)
{
	static struct side a, b;
	struct rdmadev_ibcm_id *l = NULL;
	struct rdmadev_ibcm_conn_param pa;
	struct rdmadev_ibcm_event ev;
	struct rdmadev_ibcm_stats sa, sb;
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	unsigned int r, n = 0;
	char pd[32];

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:cmrej"), E2E_DEVARGS(1, "loop:cmrej")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	for (r = 1; r <= 36; r++) {
		struct rdmadev_ibcm_id *ca = NULL, *cb = NULL;
		struct e2e_qp q = { 0 };
		unsigned int reason = r == 36 ? 200 : r;
		const uint8_t *rej;

		memset(&b.log, 0, sizeof(b.log));
		e2e_qp_create(&a.d, &q, RDMADEV_QPT_RC, NULL);
		if (q.qp == NULL)
			break;
		conn_param(&pa, &q, &b.d);
		TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
		expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
		cb = ev.id;
		expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
		snprintf(pd, sizeof(pd), "reason %u", reason);
		TEST_CHECK_EQ(rdmadev_ibcm_reject(cb, (uint16_t)reason, pd, sizeof(pd)), 0);
		expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REJ_RECEIVED, &ev);
		TEST_CHECK(ev.id == ca);
		if (ev.rej_reason != reason)
			printf("# reason %u arrived as %u\n", reason, ev.rej_reason);
		TEST_CHECK_EQ(ev.rej_reason, reason);
		TEST_CHECK(ev.private_data_len >= sizeof(pd) &&
			   memcmp(ev.private_data, pd, sizeof(pd)) == 0);
		TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(ca), "IDLE"), 0);
		TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(cb), "IDLE"), 0);
		TEST_CHECK_EQ(rdmadev_qp_query(q.qp, &qa, &qi), 0);
		TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_ERR);
		rej = find_mad(&b.log, 0x0012, NULL);
		TEST_CHECK(rej != NULL);
		if (rej != NULL) {
			TEST_CHECK_EQ(fld(rej, 32, 0, 2), 0);		/* REQ rejected */
			TEST_CHECK_EQ(fld(rej, 34, 0, 16), reason);
		}
		TEST_CHECK(no_event(&a, &b, &a) && no_event(&a, &b, &b));
		rdmadev_ibcm_id_destroy(ca);
		rdmadev_ibcm_id_destroy(cb);
		e2e_qp_destroy(&q);
		n++;
	}
	TEST_CHECK_EQ(n, 36);
	rdmadev_ibcm_stats_get(a.cm, &sa);
	rdmadev_ibcm_stats_get(b.cm, &sb);
	TEST_CHECK_EQ(sb.tx[2], n);	/* REJs sent */
	TEST_CHECK_EQ(sa.rx[2], n);	/* and received */
	TEST_CHECK_EQ(sa.tx[0], n);	/* one REQ each: nothing resent */
	TEST_CHECK_EQ(sa.retries + sb.retries, 0);
	a.d.lossy = true;		/* the QPs went to ERR with nothing in flight */
	b.d.lossy = true;
out:
	rdmadev_ibcm_id_destroy(l);
	e2e_drain(&a.d);
	e2e_drain(&b.d);
	sides_close(&a, &b);
}

/*
 * expect_event() on a wire that may hold the last frame back until another one comes: when
 * nothing arrives, the clock moves on by a response timeout (2^21 x 4.096 us, longer than
 * every one used here) so that the sender's retransmission pushes the held frame out.
 */
static void
expect_event_late(struct side *a, struct side *b, struct side *s,
		  enum rdmadev_ibcm_event_type t, struct rdmadev_ibcm_event *ev)
{
	struct rdmadev_ibcm_event tmp;
	unsigned int i;

	if (ev == NULL)
		ev = &tmp;
	for (i = 0; i < 20; i++) {
		if (next_event(a, b, s, ev))
			break;
		now += rdmadev_ibcm_time_ns(21);
	}
	TEST_CHECK(i < 20);
	if (i < 20 && ev->type != t)
		printf("# expected event %d, got %d\n", t, ev->type);
	TEST_CHECK(i == 20 || ev->type == t);
}

/*
 * A connection through a wire that delivers every frame twice, then one that holds frames
 * back behind the next one (the last frame of an exchange waits for a retransmission): each side gets its events exactly once (REQ_RECEIVED, MRA,
 * REP_RECEIVED, ESTABLISHED), the duplicates are counted and answered or dropped, both QPs
 * reach RTS, and a disconnect ends both cleanly.
 */
static void
test_cm_dup_reorder(void)
{
	static struct side a, b;
	struct rdmadev_ibcm_id *l = NULL, *ca = NULL, *cb = NULL;
	struct rdmadev_ibcm_conn_param pa, pb;
	struct rdmadev_ibcm_event ev;
	struct rdmadev_ibcm_stats sa, sb;
	struct rdmadev_qp_attr qa;
	struct rdmadev_qp_init_attr qi;
	unsigned int round;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:cmdup"), E2E_DEVARGS(1, "loop:cmdup")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	for (round = 0; round < 2; round++) {
		struct irdma_model_wire_faults f = { .seed = 7 + round };
		struct e2e_qp qa1 = { 0 }, qb1 = { 0 };

		if (round == 0)
			f.dup_ppm = 1000000;
		else
			f.reorder_ppm = 500000;
		printf("# %s\n", round == 0 ? "every frame twice" : "half the frames reordered");
		TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(a.d.id)), &f), 0);
		TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(b.d.id)), &f), 0);
		a.d.lossy = b.d.lossy = true;
		e2e_qp_create(&a.d, &qa1, RDMADEV_QPT_RC, NULL);
		e2e_qp_create(&b.d, &qb1, RDMADEV_QPT_RC, NULL);
		conn_param(&pa, &qa1, &b.d);
		TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
		expect_event_late(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
		cb = ev.id;
		expect_event_late(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
		if (cb == NULL || ca == NULL)
			goto round_end;
		conn_param(&pb, &qb1, &a.d);
		TEST_CHECK_EQ(rdmadev_ibcm_accept(cb, &pb, now), 0);
		expect_event_late(&a, &b, &a, RDMADEV_IBCM_EV_REP_RECEIVED, NULL);
		expect_event_late(&a, &b, &b, RDMADEV_IBCM_EV_ESTABLISHED, NULL);
		/* exactly once: nothing more on either side */
		TEST_CHECK(no_event(&a, &b, &a) && no_event(&a, &b, &b));
		TEST_CHECK_EQ(rdmadev_qp_query(qa1.qp, &qa, &qi), 0);
		TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_RTS);
		TEST_CHECK_EQ(rdmadev_qp_query(qb1.qp, &qa, &qi), 0);
		TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_RTS);
		TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(ca), "ESTABLISHED"), 0);
		TEST_CHECK_EQ(strcmp(rdmadev_ibcm_id_state(cb), "ESTABLISHED"), 0);
		TEST_CHECK_EQ(rdmadev_ibcm_disconnect(ca, NULL, 0, now), 0);
		expect_event_late(&a, &b, &b, RDMADEV_IBCM_EV_DREQ_RECEIVED, NULL);
		expect_event_late(&a, &b, &a, RDMADEV_IBCM_EV_DREP_RECEIVED, NULL);
		TEST_CHECK(no_event(&a, &b, &a) && no_event(&a, &b, &b));
round_end:
		rdmadev_ibcm_id_destroy(ca);
		rdmadev_ibcm_id_destroy(cb);
		ca = cb = NULL;
		TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(a.d.id)), NULL), 0);
		TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(b.d.id)), NULL), 0);
		e2e_drain(&a.d);
		e2e_drain(&b.d);
		e2e_qp_destroy(&qa1);
		e2e_qp_destroy(&qb1);
	}
	rdmadev_ibcm_stats_get(a.cm, &sa);
	rdmadev_ibcm_stats_get(b.cm, &sb);
	printf("# duplicates answered or dropped: active %" PRIu64 ", passive %" PRIu64 "\n",
	       sa.duplicates, sb.duplicates);
	TEST_CHECK(sa.duplicates + sb.duplicates + sa.rx_dropped + sb.rx_dropped > 0);
out:
	rdmadev_ibcm_id_destroy(l);
	sides_close(&a, &b);
}

/*
 * The REP is lost: resent after the REQ's Local CM Response Timeout (2^20 x 4.096 us); then a
 * second connection whose every REP is lost ends in REP_ERROR after Max CM Retries, and a
 * REQ nobody answers ends in REQ_ERROR.
 */
static void
test_cm_retries(void)
{
	static struct side a, b;
	struct rdmadev_ibcm_id *l = NULL, *ca = NULL, *cb = NULL, *ca2 = NULL, *cb2 = NULL;
	struct rdmadev_ibcm_id *ca3 = NULL;
	struct rdmadev_ibcm_conn_param pa, pb;
	struct rdmadev_ibcm_event ev;
	struct rdmadev_ibcm_stats st;
	struct e2e_qp qa1 = { 0 }, qb1 = { 0 }, qa2 = { 0 }, qb2 = { 0 }, qa3 = { 0 };
	unsigned int i, reps;
	uint64_t retries0, period = rdmadev_ibcm_time_ns(20);

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:cm3"), E2E_DEVARGS(1, "loop:cm3")) != 0)
		goto out;
	e2e_qp_create(&a.d, &qa1, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&b.d, &qb1, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&a.d, &qa2, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&b.d, &qb2, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&a.d, &qa3, RDMADEV_QPT_RC, NULL);
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	conn_param(&pa, &qa1, &b.d);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	cb = ev.id;
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
	if (cb == NULL || ca == NULL)
		goto out;
	/* the REP is lost */
	wire_drop(&b.d, true);
	conn_param(&pb, &qb1, &a.d);
	TEST_CHECK_EQ(rdmadev_ibcm_accept(cb, &pb, now), 0);
	TEST_CHECK(no_event(&a, &b, &a));
	wire_drop(&b.d, false);
	/* not before the timeout */
	now += period - 1000;
	TEST_CHECK(no_event(&a, &b, &a));
	now += 2000;
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REP_RECEIVED, NULL);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_ESTABLISHED, NULL);
	rdmadev_ibcm_stats_get(b.cm, &st);
	TEST_CHECK_EQ(st.retries, 1);
	TEST_CHECK_EQ(st.tx[3], 2);			/* two REPs */
	/* every REP lost: 1 + 15 REPs, then REP_ERROR (and a REJ timeout, lost too) */
	conn_param(&pa, &qa2, &b.d);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca2), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	cb2 = ev.id;
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
	wire_drop(&b.d, true);
	conn_param(&pb, &qb2, &a.d);
	TEST_CHECK_EQ(rdmadev_ibcm_accept(cb2, &pb, now), 0);
	for (i = 0; i < 15; i++) {
		now += period;
		TEST_CHECK(no_event(&a, &b, &b));
	}
	now += period;
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REP_ERROR, &ev);
	TEST_CHECK(ev.id == cb2);
	reps = 0;
	for (i = 0; i < b.log.n && i < 64; i++)
		reps += fld(b.log.m[i], 16, 0, 16) == 0x0013 &&
			fld(b.log.m[i], 28, 0, 32) == fld(find_mad(&a.log, 0x0010,
							(unsigned int[]){ 1 }), 24, 0, 32);
	TEST_CHECK_EQ(reps, 16);
	wire_drop(&b.d, false);
	/* (its REJ was lost too: the active id would wait out the MRA; gone here) */
	rdmadev_ibcm_id_destroy(ca2);
	ca2 = NULL;
	/* a REQ nobody answers (the passive device drops everything): REQ_ERROR */
	wire_drop(&b.d, true);
	conn_param(&pa, &qa3, &b.d);
	pa.max_cm_retries = 3;
	rdmadev_ibcm_stats_get(a.cm, &st);
	retries0 = st.retries;
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca3), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	rdmadev_ibcm_id_destroy(ev.id);
	/* REQ timeout: 2 x 2^16 + 2^20 (x 4.096 us) */
	for (i = 0; i < 3; i++) {
		now += 2 * rdmadev_ibcm_time_ns(16) + period;
		TEST_CHECK(no_event(&a, &b, &a));
	}
	now += 2 * rdmadev_ibcm_time_ns(16) + period;
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REQ_ERROR, &ev);
	TEST_CHECK(ev.id == ca3);
	rdmadev_ibcm_stats_get(a.cm, &st);
	TEST_CHECK_EQ(st.retries - retries0, 3);
	wire_drop(&b.d, false);
	a.d.lossy = true;
out:
	rdmadev_ibcm_id_destroy(ca);
	rdmadev_ibcm_id_destroy(cb);
	rdmadev_ibcm_id_destroy(ca2);
	rdmadev_ibcm_id_destroy(cb2);
	rdmadev_ibcm_id_destroy(ca3);
	rdmadev_ibcm_id_destroy(l);
	e2e_drain(&a.d);
	e2e_drain(&b.d);
	e2e_qp_destroy(&qa1);
	e2e_qp_destroy(&qb1);
	e2e_qp_destroy(&qa2);
	e2e_qp_destroy(&qb2);
	e2e_qp_destroy(&qa3);
	sides_close(&a, &b);
}

/*
 * SIDR: a served ServiceID is answered with the UD QP's number and Q_Key, an unknown one
 * with status 1 (unsupported), each field at its IBA position and the TID echoed; a
 * SIDR_REQ nobody answers is resent every 2^20 x 4.096 us, 15 times, then SIDR_REQ_ERROR.
 */
static void
test_cm_sidr(void)
{
	static struct side a, b;
	static const uint8_t hello[] = "sidr hello";
	struct rdmadev_ibcm_id *l = NULL, *r1 = NULL, *r2 = NULL, *r3 = NULL, *dup = NULL;
	struct rdmadev_ibcm_event ev;
	struct rdmadev_ibcm_stats st;
	const uint8_t *req, *rep;
	unsigned int from = 0, i;
	uint64_t retries0;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open(&a, &b, E2E_DEVARGS(0, "loop:sidr"), E2E_DEVARGS(1, "loop:sidr")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_listen(b.cm, SID, 0x1000000, 1, &l), -EINVAL);
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_listen(b.cm, SID, 0x123456, 0x11111111, &l), 0);
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_listen(b.cm, SID, 7, 7, &dup), -EADDRINUSE);
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_req(a.cm, SID, b.d.gid, b.d.mac, hello, 217, now, &r1),
		      -EINVAL);
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_req(a.cm, SID, b.d.gid, b.d.mac, hello, sizeof(hello),
					    now, &r1), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_SIDR_REP_RECEIVED, &ev);
	TEST_CHECK(ev.id == r1);
	TEST_CHECK_EQ(ev.sidr_status, RDMADEV_IBCM_SIDR_SUCCESS);
	TEST_CHECK_EQ(ev.peer.qpn, 0x123456);
	TEST_CHECK_EQ(ev.sidr_qkey, 0x11111111);
	TEST_CHECK_EQ(ev.peer.service_id, SID);
	TEST_CHECK(no_event(&a, &b, &b));		/* answered without an event */
	req = find_mad(&a.log, 0x0017, NULL);
	rep = find_mad(&b.log, 0x0018, &from);
	TEST_CHECK(req != NULL && rep != NULL);
	if (req != NULL && rep != NULL) {
		check_hdr(req, 0x0017);
		check_hdr(rep, 0x0018);
		TEST_CHECK_EQ(fld(rep, 8, 0, 64), fld(req, 8, 0, 64));	/* TID */
		TEST_CHECK(fld(req, 24, 0, 32) != 0);			/* Request ID */
		TEST_CHECK_EQ(fld(rep, 24, 0, 32), fld(req, 24, 0, 32));
		TEST_CHECK_EQ(fld(req, 28, 0, 16), 0xffff);		/* P_Key */
		TEST_CHECK_EQ(fld(req, 32, 0, 64), SID);
		TEST_CHECK(memcmp(req + 40, hello, sizeof(hello)) == 0);
		TEST_CHECK_EQ(fld(rep, 28, 0, 8), 0);			/* Status */
		TEST_CHECK_EQ(fld(rep, 32, 0, 24), 0x123456);		/* QPN */
		TEST_CHECK_EQ(fld(rep, 36, 0, 64), SID);
		TEST_CHECK_EQ(fld(rep, 44, 0, 32), 0x11111111);		/* Q_Key */
	}
	/* a service nobody serves: status 1, no QPN */
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_req(a.cm, SID + 1, b.d.gid, b.d.mac, NULL, 0, now, &r2), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_SIDR_REP_RECEIVED, &ev);
	TEST_CHECK(ev.id == r2);
	TEST_CHECK_EQ(ev.sidr_status, RDMADEV_IBCM_SIDR_UNSUPPORTED);
	rep = find_mad(&b.log, 0x0018, &from);
	TEST_CHECK(rep != NULL && fld(rep, 28, 0, 8) == 1 && fld(rep, 32, 0, 24) == 0 &&
		   fld(rep, 36, 0, 64) == SID + 1);
	/* nobody answers: 15 resends, then SIDR_REQ_ERROR */
	wire_drop(&b.d, true);
	rdmadev_ibcm_stats_get(a.cm, &st);
	retries0 = st.retries;
	TEST_CHECK_EQ(rdmadev_ibcm_sidr_req(a.cm, SID, b.d.gid, b.d.mac, NULL, 0, now, &r3), 0);
	for (i = 0; i < 15; i++) {
		now += rdmadev_ibcm_time_ns(20);
		TEST_CHECK(no_event(&a, &b, &a));
	}
	rdmadev_ibcm_stats_get(a.cm, &st);
	TEST_CHECK_EQ(st.retries - retries0, 15);
	now += rdmadev_ibcm_time_ns(20);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_SIDR_REQ_ERROR, &ev);
	TEST_CHECK(ev.id == r3);
	wire_drop(&b.d, false);
	a.d.lossy = true;
out:
	rdmadev_ibcm_id_destroy(r1);
	rdmadev_ibcm_id_destroy(r2);
	rdmadev_ibcm_id_destroy(r3);
	rdmadev_ibcm_id_destroy(l);
	e2e_drain(&a.d);
	e2e_drain(&b.d);
	sides_close(&a, &b);
}

/* Over IPv6 (GID 1, the link-local address): the GIDs of the REQ, the GRH area's source. */
static void
test_cm_ipv6(void)
{
	static struct side a, b;
	struct rdmadev_ibcm_id *l = NULL, *ca = NULL, *cb = NULL;
	struct rdmadev_ibcm_conn_param pa, pb;
	struct rdmadev_ibcm_event ev;
	struct e2e_qp qa1 = { 0 }, qb1 = { 0 };
	struct e2e_mr ma = { 0 }, mb = { 0 };
	uint8_t ga[16], gb[16];
	const uint8_t *req;

	a.d.id = -1;
	b.d.id = -1;
	if (sides_open_gid(&a, &b, E2E_DEVARGS(0, "loop:cm6"), E2E_DEVARGS(1, "loop:cm6"), 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_gid_get(a.d.id, 1, ga), 0);
	TEST_CHECK_EQ(rdmadev_gid_get(b.d.id, 1, gb), 0);
	ends_up(&a, &b, &qa1, &qb1, &ma, &mb);
	TEST_CHECK_EQ(rdmadev_ibcm_listen(b.cm, SID, &l), 0);
	conn_param(&pa, &qa1, &b.d);
	memcpy(pa.dgid, gb, 16);
	TEST_CHECK_EQ(rdmadev_ibcm_connect(a.cm, &pa, now, &ca), 0);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_REQ_RECEIVED, &ev);
	cb = ev.id;
	TEST_CHECK(memcmp(ev.peer.gid, ga, 16) == 0);
	TEST_CHECK_EQ(ev.peer.hop_limit, 64);
	req = find_mad(&a.log, 0x0010, NULL);
	TEST_CHECK(req != NULL);
	if (req != NULL)
		check_req(req, &pa, qa1.qpn, ga, "", 0);
	if (cb == NULL || ca == NULL)
		goto out;
	conn_param(&pb, &qb1, &a.d);
	TEST_CHECK_EQ(rdmadev_ibcm_accept(cb, &pb, now), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_MRA_RECEIVED, NULL);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_REP_RECEIVED, NULL);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_ESTABLISHED, NULL);
	rc_traffic(&qa1, &qb1, &ma, &mb, 5);
	rc_traffic(&qb1, &qa1, &mb, &ma, 6);
	TEST_CHECK_EQ(rdmadev_ibcm_disconnect(cb, NULL, 0, now), 0);
	expect_event(&a, &b, &a, RDMADEV_IBCM_EV_DREQ_RECEIVED, NULL);
	expect_event(&a, &b, &b, RDMADEV_IBCM_EV_DREP_RECEIVED, NULL);
	a.d.lossy = true;
	b.d.lossy = true;
out:
	ends_down(&a, &b, (struct rdmadev_ibcm_id *[]){ ca, cb, l }, &qa1, &qb1, &ma, &mb);
}

/* ---- rdma_cm ---- */

/* Open the devices of @p srv and @p cli (devargs @p a0 / @p a1) and their channels. */
static int
rsides_open(struct side *srv, struct side *cli, const char *a0, const char *a1)
{
	srv->ch = NULL;
	cli->ch = NULL;
	if (e2e_dev_open(&srv->d, a0) != 0 || e2e_dev_open(&cli->d, a1) != 0)
		return -1;
	TEST_CHECK_EQ(rdmadev_rcm_channel_create(srv->d.ctx, &srv->ch), 0);
	TEST_CHECK_EQ(rdmadev_rcm_channel_create(cli->d.ctx, &cli->ch), 0);
	now = 1000000;
	return srv->ch != NULL && cli->ch != NULL ? 0 : -1;
}

/*
 * Drain both devices, destroy the channels, the QPs @p qc and @p qs, and close the devices
 * (restrack must report nothing left); the CM's MADs in flight at the end may be dropped.
 */
static void
rsides_close(struct side *srv, struct side *cli, struct e2e_qp *qc, struct e2e_qp *qs)
{
	srv->d.lossy = true;
	cli->d.lossy = true;
	e2e_drain(&srv->d);
	e2e_drain(&cli->d);
	rdmadev_rcm_channel_destroy(cli->ch);
	rdmadev_rcm_channel_destroy(srv->ch);
	cli->ch = NULL;
	srv->ch = NULL;
	e2e_qp_destroy(qc);
	e2e_qp_destroy(qs);
	e2e_dev_close(&cli->d);
	e2e_dev_close(&srv->d);
}

/* A listener of @p s on any address, port 7174 (rping's), with @p backlog; NULL on failure. */
static struct rdmadev_rcm_id *
rlisten(struct side *s, int backlog)
{
	struct rdmadev_rcm_id *l = NULL;
	struct sockaddr_in sin;

	TEST_CHECK_EQ(rdmadev_rcm_create_id(s->ch, RDMADEV_RCM_PS_TCP, &l), 0);
	if (l == NULL)
		return NULL;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(7174);
	TEST_CHECK_EQ(rdmadev_rcm_bind_addr(l, (struct sockaddr *)&sin), 0);
	TEST_CHECK_EQ(rdmadev_rcm_listen(l, backlog), 0);
	return l;
}

/* @p dst: the address of @p s, port 7174. */
static void
rdst(struct sockaddr_in *dst, const struct side *s)
{
	memset(dst, 0, sizeof(*dst));
	dst->sin_family = AF_INET;
	dst->sin_port = htons(7174);
	memcpy(&dst->sin_addr, s->d.gid + 12, 4);
}

static void
rexpect(struct side *a, struct side *b, struct side *s, enum rdmadev_rcm_event_type t,
	struct rdmadev_rcm_event *ev)
{
	struct rdmadev_rcm_event tmp;
	unsigned int i;
	int rc = -EAGAIN;

	if (ev == NULL)
		ev = &tmp;
	memset(ev, 0, sizeof(*ev));
	for (i = 0; i < 50 && (rc = rdmadev_rcm_get_event(s->ch, ev)) != 0; i++)
		pump(a, b);
	TEST_CHECK_EQ(rc, 0);
	if (ev->event != t)
		printf("# expected rdma_cm event %d, got %d\n", t, ev->event);
	TEST_CHECK_EQ(ev->event, t);
}

/* The device's CM_ID dump in @p buf. */
static void
cm_dump(int16_t dev, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	memset(buf, 0, len);
	if (f == NULL)
		return;
	TEST_CHECK_EQ(rdmadev_res_dump(dev, RESTRACK_CM_ID, f), 0);
	fclose(f);
}

static void
test_rcm(void)
{
	static struct side srv, cli;
	static const char hello[] = "rdma_cm private data";
	static const char welcome[] = "welcome";
	struct rdmadev_rcm_id *l = NULL, *c = NULL, *s = NULL, *c2 = NULL;
	struct rdmadev_rcm_conn_param p;
	struct rdmadev_qp_init_attr ri;
	struct rdmadev_qp_attr ra;
	struct rdmadev_rcm_event ev;
	struct sockaddr_in dst;
	struct e2e_qp qc = { 0 }, qs = { 0 }, qc2 = { 0 };
	struct e2e_mr mc, ms;
	struct pollfd pfd;
	static char dump[4096];
	char line[160], ip_s[INET_ADDRSTRLEN], ip_c[INET_ADDRSTRLEN];

	srv.d.id = -1;
	cli.d.id = -1;
	if (rsides_open(&srv, &cli, E2E_DEVARGS(0, "loop:rcm"), E2E_DEVARGS(1, "loop:rcm")) != 0)
		goto out;
	e2e_mr_reg(&cli.d, NULL, &mc, 16384, E2E_ACC_ALL);
	e2e_mr_reg(&srv.d, NULL, &ms, 16384, E2E_ACC_ALL);
	e2e_qp_create(&cli.d, &qc, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&srv.d, &qs, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&cli.d, &qc2, RDMADEV_QPT_RC, NULL);
	inet_ntop(AF_INET, srv.d.gid + 12, ip_s, sizeof(ip_s));
	inet_ntop(AF_INET, cli.d.gid + 12, ip_c, sizeof(ip_c));
	/* the server listens on any address, port 7174 (rping's) */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(srv.ch, 0x013f, &l), -EINVAL);	/* IB: no */
	l = rlisten(&srv, 0);
	cm_dump(srv.d.id, dump, sizeof(dump));
	snprintf(line, sizeof(line), "cm-idn %u state LISTEN ps TCP", rdmadev_rcm_id_num(l));
	TEST_CHECK(strstr(dump, line) != NULL);
	TEST_CHECK(strstr(dump, "src-addr 0.0.0.0:7174") != NULL);
	TEST_CHECK(strstr(dump, " pid ") != NULL && strstr(dump, " comm ") != NULL);
	if (strstr(dump, line) == NULL)
		printf("# %s", dump);
	/* the client resolves and connects */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c), 0);
	rdst(&dst, &srv);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev);
	TEST_CHECK(ev.id == c);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	memset(&p, 0, sizeof(p));
	p.private_data = hello;
	p.private_data_len = sizeof(hello);
	p.responder_resources = 1;
	p.initiator_depth = 1;
	p.retry_count = 7;
	p.rnr_retry_count = 7;
	if (qc.qp == NULL || qs.qp == NULL)
		goto out;
	/* the client's QP gets the ACK timeout it sets, the server's the path's (17) */
	TEST_CHECK_EQ(rdmadev_rcm_set_ack_timeout(c, 32), -EINVAL);
	TEST_CHECK_EQ(rdmadev_rcm_set_ack_timeout(NULL, 20), -EINVAL);
	TEST_CHECK_EQ(rdmadev_rcm_set_ack_timeout(c, 21), 0);
	/* and a path MTU of 512 (the port's is 1024): both QPs use it, the REQ carried it */
	TEST_CHECK_EQ(rdmadev_rcm_set_path_mtu(c, 6), -EINVAL);
	TEST_CHECK_EQ(rdmadev_rcm_set_path_mtu(NULL, 2), -EINVAL);
	TEST_CHECK_EQ(rdmadev_rcm_set_path_mtu(c, RDMADEV_MTU_512), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc.qp, &p, now), 0);
	/* the server's channel fd becomes readable with the CONNECT_REQUEST */
	pump(&srv, &cli);
	pfd.fd = rdmadev_rcm_channel_fd(srv.ch);
	pfd.events = POLLIN;
	TEST_CHECK_EQ(poll(&pfd, 1, 0), 1);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	s = ev.id;
	TEST_CHECK(ev.listen_id == l);
	TEST_CHECK_EQ(ev.private_data_len, RDMADEV_RCM_CONNECT_PDATA);
	TEST_CHECK(memcmp(ev.private_data, hello, sizeof(hello)) == 0);
	TEST_CHECK_EQ(ev.dst.sa.sa_family, AF_INET);
	TEST_CHECK(memcmp(&ev.dst.sin.sin_addr, cli.d.gid + 12, 4) == 0);
	TEST_CHECK_EQ(ev.dst.sin.sin_port, c != NULL ? htons(32768) : 0);	/* the client's port */
	TEST_CHECK(memcmp(&ev.src.sin.sin_addr, srv.d.gid + 12, 4) == 0);
	TEST_CHECK_EQ(ntohs(ev.src.sin.sin_port), 7174);
	TEST_CHECK_EQ(poll(&pfd, 1, 0), 0);		/* drained */
	if (s == NULL)
		goto out;
	/* the REQ carried the CMA header and the TCP port space's ServiceID */
	p.private_data = welcome;
	p.private_data_len = sizeof(welcome);
	TEST_CHECK_EQ(rdmadev_rcm_accept(s, qs.qp, &p, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ESTABLISHED, &ev);
	TEST_CHECK(ev.id == c);
	TEST_CHECK(memcmp(ev.private_data, welcome, sizeof(welcome)) == 0);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_ESTABLISHED, &ev);
	TEST_CHECK(ev.id == s);
	TEST_CHECK_EQ(rdmadev_qp_query(qc.qp, &ra, &ri), 0);
	TEST_CHECK_EQ(ra.timeout, 21);
	TEST_CHECK_EQ(rdmadev_qp_query(qs.qp, &ra, &ri), 0);
	TEST_CHECK_EQ(ra.timeout, 17);
	TEST_CHECK_EQ(qp_mtu(&qc), RDMADEV_MTU_512);
	TEST_CHECK_EQ(qp_mtu(&qs), RDMADEV_MTU_512);
	rc_traffic(&qc, &qs, &mc, &ms, 3);
	rc_traffic(&qs, &qc, &ms, &mc, 4);
	cm_dump(srv.d.id, dump, sizeof(dump));
	snprintf(line, sizeof(line), "cm-idn %u state CONNECT ps TCP qpn %u src-addr %s:7174 "
		 "dst-addr %s:32768", rdmadev_rcm_id_num(s), qs.qpn, ip_s, ip_c);
	TEST_CHECK(strstr(dump, line) != NULL);
	if (strstr(dump, line) == NULL)
		printf("# want: %s\n# got:\n%s", line, dump);
	/* a second client rejected by the application */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c2), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c2), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c2, qc2.qp, NULL, now), 0);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	TEST_CHECK_EQ(rdmadev_rcm_reject(ev.id, "no", 2), 0);
	rdmadev_rcm_destroy_id(ev.id);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_REJECTED, &ev);
	TEST_CHECK(ev.id == c2);
	TEST_CHECK_EQ(ev.status, 28);
	TEST_CHECK(memcmp(ev.private_data, "no", 2) == 0);
	rdmadev_rcm_destroy_id(c2);
	c2 = NULL;
	/* to a port nobody listens on: REJECTED 8 */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c2), 0);
	dst.sin_port = htons(7175);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c2), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	e2e_qp_destroy(&qc2);
	e2e_qp_create(&cli.d, &qc2, RDMADEV_QPT_RC, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c2, qc2.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_REJECTED, &ev);
	TEST_CHECK_EQ(ev.status, 8);
	/* the server disconnects */
	TEST_CHECK_EQ(rdmadev_rcm_disconnect(s, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_DISCONNECTED, &ev);
	TEST_CHECK(ev.id == c);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_DISCONNECTED, NULL);
	now += rdmadev_ibcm_time_ns(20);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_TIMEWAIT_EXIT, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_TIMEWAIT_EXIT, NULL);
out:
	e2e_qp_destroy(&qc2);
	e2e_mr_dereg(&mc);
	e2e_mr_dereg(&ms);
	rsides_close(&srv, &cli, &qc, &qs);
}

/* The two ends of a net_ring pair: the Ethernet wire of two devices (test_rcm_resolve). */
static int eth_a = -1, eth_b = -1;

static uint64_t
wire_stat(const struct e2e_dev *d, size_t off)
{
	struct irdma_model_wire_stats st;

	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_wire_stats_get(irdma_dev_hw(rdmadev_get(d->id)), &st), 0);
	return *(const uint64_t *)((const uint8_t *)&st + off);
}
#define WIRE_STAT(d, f) wire_stat((d), offsetof(struct irdma_model_wire_stats, f))

/*
 * Address resolution through the neighbour table, as rdma_resolve_addr waits for ARP: on
 * the Ethernet wire (a net_ring pair) ADDR_RESOLVED comes only after the peer's ARP reply,
 * with the peer's MAC in the table; an address nobody has gives ADDR_ERROR (-ETIMEDOUT)
 * after the timeout, not before, counted from the first process; then a connection over
 * the resolved MAC. The loop wire has no neighbours: ADDR_RESOLVED at once (test_rcm).
 */
static void
test_rcm_resolve(void)
{
	static struct side srv, cli;
	struct rdmadev_rcm_id *l = NULL, *c = NULL, *c2 = NULL;
	struct sockaddr_in dst;
	struct rdmadev_rcm_event ev;
	struct e2e_qp qc = { 0 }, qs = { 0 };
	struct sockaddr_in6 dst6;
	uint64_t req0, rep0, t0;
	char args[160], args1[160], dump[2048];
	uint8_t mac[6], gid[16];
	unsigned int i;
	int rc = -EAGAIN;

	srv.d.id = -1;
	cli.d.id = -1;
	if (eth_a < 0 || eth_b < 0) {
		printf("# no net_ring pair: skipped\n");
		return;
	}
	snprintf(args, sizeof(args), "irdma_model0,qps=64,cqs=64,mrs=256,mode=inline"
		 ",wire=eth:%d", eth_a);
	snprintf(args1, sizeof(args1), "irdma_model1,qps=64,cqs=64,mrs=256,mode="
		 "inline,wire=eth:%d", eth_b);
	if (rsides_open(&srv, &cli, args, args1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_neigh_resolve(cli.d.id, 99, srv.d.gid, mac), -EINVAL);
	TEST_CHECK_EQ(rdmadev_neigh_resolve(cli.d.id, 0, NULL, mac), -EINVAL);
	l = rlisten(&srv, 0);
	TEST_CHECK(l != NULL);
	/* resolve the server: an ARP request out, no event until its reply came */
	req0 = WIRE_STAT(&cli.d, wire_arp_requests_tx);
	rep0 = WIRE_STAT(&srv.d, wire_arp_replies_tx);
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c), 0);
	rdst(&dst, &srv);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst, NULL, 1000), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst, NULL, 1000), -EINVAL);
	TEST_CHECK_EQ(rdmadev_rcm_get_event(cli.ch, &ev), -EAGAIN);
	TEST_CHECK_EQ(WIRE_STAT(&cli.d, wire_arp_requests_tx), req0 + 1);
	cm_dump(cli.d.id, dump, sizeof(dump));
	TEST_CHECK(strstr(dump, "state ADDR_QUERY") != NULL);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), -EINVAL);	/* not resolved yet */
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev);
	TEST_CHECK(ev.id == c);
	TEST_CHECK_EQ(ev.status, 0);
	TEST_CHECK(WIRE_STAT(&srv.d, wire_arp_replies_tx) >= rep0 + 1);
	TEST_CHECK_EQ(rdmadev_neigh_resolve(cli.d.id, 0, srv.d.gid, mac), 0);
	TEST_CHECK(memcmp(mac, srv.d.mac, 6) == 0);
	/* the server's IPv6 (link-local) address: through neighbour discovery */
	TEST_CHECK_EQ(rdmadev_gid_get(srv.d.id, 1, gid), 0);
	memset(&dst6, 0, sizeof(dst6));
	dst6.sin6_family = AF_INET6;
	dst6.sin6_port = htons(7174);
	memcpy(&dst6.sin6_addr, gid, 16);
	req0 = WIRE_STAT(&cli.d, wire_nd_solicits_tx);
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c2), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst6, NULL, 1000), 0);
	TEST_CHECK_EQ(WIRE_STAT(&cli.d, wire_nd_solicits_tx), req0 + 1);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev);
	TEST_CHECK(ev.id == c2 && ev.src.sa.sa_family == AF_INET6);
	TEST_CHECK_EQ(rdmadev_neigh_resolve(cli.d.id, 1, gid, mac), 0);
	TEST_CHECK(memcmp(mac, srv.d.mac, 6) == 0);
	rdmadev_rcm_destroy_id(c2);
	/* an address nobody has: ADDR_ERROR after 50 ms of the caller's clock, not before */
	memset(gid, 0, sizeof(gid));
	gid[10] = 0xff;
	gid[11] = 0xff;
	memcpy(gid + 12, srv.d.gid + 12, 4);
	gid[15] ^= 0x55;
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c2), 0);
	memcpy(&dst.sin_addr, gid + 12, 4);
	req0 = WIRE_STAT(&cli.d, wire_arp_requests_tx);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst, NULL, 50), 0);
	t0 = now;
	for (i = 0; i < 20 && rc == -EAGAIN; i++) {
		pump(&srv, &cli);
		rc = rdmadev_rcm_get_event(cli.ch, &ev);
		if (now + 5000000 < t0 + 50000000)
			now += 5000000;
		usleep(2000);			/* the model's ARP retry timer is real time */
	}
	TEST_CHECK_EQ(rc, -EAGAIN);		/* 45 ms of the clock: still waiting */
	TEST_CHECK(WIRE_STAT(&cli.d, wire_arp_requests_tx) >= req0 + 2);	/* asked again */
	now = t0 + 50000000;
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_ERROR, &ev);
	TEST_CHECK(ev.id == c2);
	TEST_CHECK_EQ(ev.status, -ETIMEDOUT);
	TEST_CHECK_EQ(strcmp(rdmadev_rcm_event_str(RDMADEV_RCM_EVENT_ADDR_ERROR), "ADDR_ERROR"), 0);
	rdmadev_rcm_destroy_id(c2);
	c2 = NULL;
	/* connect over the resolved address */
	e2e_qp_create(&cli.d, &qc, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&srv.d, &qs, RDMADEV_QPT_RC, NULL);
	if (qc.qp == NULL || qs.qp == NULL)
		goto out;
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc.qp, NULL, now), 0);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	TEST_CHECK(ev.id != NULL);
	if (ev.id != NULL)
		TEST_CHECK_EQ(rdmadev_rcm_accept(ev.id, qs.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
out:
	rsides_close(&srv, &cli, &qc, &qs);
}

/*
 * rdma_cm over IPv6 (the devices' GID 1, a link-local address): a dual-stack listener (IPv6
 * any), a client resolving the server's IPv6 address gets its own IPv6 GID as the source;
 * the REQ's CMA header carries IP version 6 and both 16-byte addresses, its GIDs are the
 * addresses; CONNECT_REQUEST with IPv6 addresses and ports; the QPs' AV from GID 1; the
 * dump's IPv6 addresses; an IPv4 client on the same listener; an IPv4-only listener refuses
 * an IPv6 request (REJ 8).
 */
static void
test_rcm_ipv6(void)
{
	static struct side srv, cli;
	static struct mad_log clog;
	struct rdmadev_rcm_id *l = NULL, *l4 = NULL, *c = NULL, *c4 = NULL, *c6 = NULL;
	struct e2e_qp qc = { 0 }, qs = { 0 }, qc4 = { 0 }, qs4 = { 0 }, qc6 = { 0 };
	struct sockaddr_in6 any6, dst6;
	struct sockaddr_in sin, dst;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_qp_attr qa;
	struct rdmadev_rcm_event ev;
	uint8_t gs[16], gc[16];
	char ip[INET6_ADDRSTRLEN], line[128], dump[4096];
	const uint8_t *m;

	srv.d.id = -1;
	cli.d.id = -1;
	memset(&clog, 0, sizeof(clog));
	if (rsides_open(&srv, &cli, E2E_DEVARGS(0, "loop:rcm6"), E2E_DEVARGS(1, "loop:rcm6")) != 0)
		goto out;
	rdmadev_ibcm_set_tx_hook(rdmadev_rcm_channel_ibcm(cli.ch), log_mad, &clog);
	TEST_CHECK_EQ(rdmadev_gid_get(srv.d.id, 1, gs), 0);
	TEST_CHECK_EQ(rdmadev_gid_get(cli.d.id, 1, gc), 0);
	TEST_CHECK(gs[0] == 0xfe && gc[0] == 0xfe);		/* link-local */
	e2e_qp_create(&cli.d, &qc, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&srv.d, &qs, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&cli.d, &qc4, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&srv.d, &qs4, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&cli.d, &qc6, RDMADEV_QPT_RC, NULL);
	if (qc.qp == NULL || qs.qp == NULL || qc4.qp == NULL || qs4.qp == NULL || qc6.qp == NULL)
		goto out;
	/* the listener: IPv6 any, port 7174; an address that is not the device's is refused */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(srv.ch, RDMADEV_RCM_PS_TCP, &l), 0);
	memset(&any6, 0, sizeof(any6));
	any6.sin6_family = AF_INET6;
	any6.sin6_port = htons(7174);
	memcpy(&any6.sin6_addr, gc, 16);
	TEST_CHECK_EQ(rdmadev_rcm_bind_addr(l, (struct sockaddr *)&any6), -EADDRNOTAVAIL);
	any6.sin6_addr = in6addr_any;
	TEST_CHECK_EQ(rdmadev_rcm_bind_addr(l, (struct sockaddr *)&any6), 0);
	TEST_CHECK_EQ(rdmadev_rcm_listen(l, 0), 0);
	/* the client resolves the server's IPv6 address */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c), 0);
	memset(&dst6, 0, sizeof(dst6));
	dst6.sin6_family = AF_INET6;
	dst6.sin6_port = htons(7174);
	memcpy(&dst6.sin6_addr, gs, 16);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst6, srv.d.mac, 0), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, &ev);
	TEST_CHECK_EQ(ev.src.sa.sa_family, AF_INET6);
	TEST_CHECK(memcmp(&ev.src.sin6.sin6_addr, gc, 16) == 0);
	TEST_CHECK_EQ(ev.dst.sa.sa_family, AF_INET6);
	TEST_CHECK_EQ(ntohs(ev.dst.sin6.sin6_port), 7174);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc.qp, NULL, now), 0);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	TEST_CHECK_EQ(ev.dst.sa.sa_family, AF_INET6);
	TEST_CHECK(memcmp(&ev.dst.sin6.sin6_addr, gc, 16) == 0);
	TEST_CHECK_EQ(ntohs(ev.dst.sin6.sin6_port), 32768);
	TEST_CHECK_EQ(ev.src.sa.sa_family, AF_INET6);
	TEST_CHECK(memcmp(&ev.src.sin6.sin6_addr, gs, 16) == 0);
	TEST_CHECK_EQ(ntohs(ev.src.sin6.sin6_port), 7174);
	m = find_mad(&clog, 0x0010, NULL);
	TEST_CHECK(m != NULL);
	if (m != NULL) {
		/* GIDs and the CMA header (cma_hdr: version 0, IP version 6, port, addresses) */
		TEST_CHECK(memcmp(m + 80, gc, 16) == 0);
		TEST_CHECK(memcmp(m + 96, gs, 16) == 0);
		TEST_CHECK_EQ(fld(m, 164, 0, 8), 0);
		TEST_CHECK_EQ(fld(m, 165, 0, 4), 6);
		TEST_CHECK_EQ(fld(m, 166, 0, 16), 32768);
		TEST_CHECK(memcmp(m + 168, gc, 16) == 0);
		TEST_CHECK(memcmp(m + 184, gs, 16) == 0);
	}
	if (ev.id == NULL)
		goto out;
	TEST_CHECK_EQ(rdmadev_rcm_accept(ev.id, qs.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
	TEST_CHECK_EQ(rdmadev_qp_query(qc.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.ah_attr.sgid_index, 1);
	TEST_CHECK(memcmp(qa.ah_attr.dgid, gs, 16) == 0);
	TEST_CHECK_EQ(rdmadev_qp_query(qs.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.ah_attr.sgid_index, 1);
	TEST_CHECK(memcmp(qa.ah_attr.dgid, gc, 16) == 0);
	cm_dump(srv.d.id, dump, sizeof(dump));
	inet_ntop(AF_INET6, gs, ip, sizeof(ip));
	snprintf(line, sizeof(line), "src-addr %s:7174 dst-addr ", ip);
	TEST_CHECK(strstr(dump, line) != NULL);
	if (strstr(dump, line) == NULL)
		printf("# want %s in\n%s", line, dump);
	/* an IPv4 client on the dual-stack listener */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c4), 0);
	rdst(&dst, &srv);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c4, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c4), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c4, qc4.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	TEST_CHECK_EQ(ev.dst.sa.sa_family, AF_INET);
	TEST_CHECK(memcmp(&ev.dst.sin.sin_addr, cli.d.gid + 12, 4) == 0);
	if (ev.id != NULL)
		TEST_CHECK_EQ(rdmadev_rcm_accept(ev.id, qs4.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_ESTABLISHED, NULL);
	/* an IPv4-only listener on 7175: an IPv6 request to it is refused (8) */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(srv.ch, RDMADEV_RCM_PS_TCP, &l4), 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(7175);
	TEST_CHECK_EQ(rdmadev_rcm_bind_addr(l4, (struct sockaddr *)&sin), 0);
	TEST_CHECK_EQ(rdmadev_rcm_listen(l4, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c6), 0);
	dst6.sin6_port = htons(7175);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c6, (struct sockaddr *)&dst6, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c6), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c6, qc6.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_REJECTED, &ev);
	TEST_CHECK_EQ(ev.status, 8);
	TEST_CHECK_EQ(rdmadev_rcm_get_event(srv.ch, &ev), -EAGAIN);
out:
	e2e_qp_destroy(&qc4);
	e2e_qp_destroy(&qs4);
	e2e_qp_destroy(&qc6);
	rsides_close(&srv, &cli, &qc, &qs);
}

/*
 * rdma_cm's UDP port space (SIDR inside rdma_cm, as udaddy uses it): a listener on 7174, a
 * client's connect sends a SIDR_REQ for ServiceID 0x0111 << 16 | 7174 with the CMA header
 * and its private data; CONNECT_REQUEST with them; accept answers a SIDR_REP with the UD QP
 * and Q_Key 0x01234567 (both QPs brought to RTS with it); the client's ESTABLISHED carries
 * them and the address, and a datagram sent with them arrives. A reject: UNREACHABLE 2 with
 * the private data; a port nobody serves: UNREACHABLE 1. The dump says "ps UDP".
 */
static void
test_rcm_udp(void)
{
	static struct side srv, cli;
	static struct mad_log clog, slog;
	static const char hello[] = "udaddy-like";
	struct rdmadev_rcm_id *l = NULL, *c = NULL, *c2 = NULL;
	struct e2e_qp qc = { 0 }, qs = { 0 }, qc2 = { 0 };
	struct rdmadev_rcm_conn_param p;
	struct rdmadev_rcm_event ev, est;
	struct rdmadev_qp_init_attr qi;
	struct rdmadev_qp_attr qa;
	struct rdmadev_send_wr wr;
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_sge s, r;
	struct sockaddr_in sin, dst;
	struct rdmadev_wc wc;
	struct e2e_mr mc, ms;
	static char dump[4096];
	const uint8_t *m;

	srv.d.id = -1;
	cli.d.id = -1;
	memset(&clog, 0, sizeof(clog));
	memset(&slog, 0, sizeof(slog));
	if (rsides_open(&srv, &cli, E2E_DEVARGS(0, "loop:rcmu"), E2E_DEVARGS(1, "loop:rcmu")) != 0)
		goto out;
	rdmadev_ibcm_set_tx_hook(rdmadev_rcm_channel_ibcm(cli.ch), log_mad, &clog);
	rdmadev_ibcm_set_tx_hook(rdmadev_rcm_channel_ibcm(srv.ch), log_mad, &slog);
	e2e_mr_reg(&cli.d, NULL, &mc, 16384, E2E_ACC_ALL);
	e2e_mr_reg(&srv.d, NULL, &ms, 16384, E2E_ACC_ALL);
	e2e_qp_create(&cli.d, &qc, RDMADEV_QPT_UD, NULL);
	e2e_qp_create(&srv.d, &qs, RDMADEV_QPT_UD, NULL);
	e2e_qp_create(&cli.d, &qc2, RDMADEV_QPT_RC, NULL);
	if (qc.qp == NULL || qs.qp == NULL || qc2.qp == NULL || mc.mr == NULL || ms.mr == NULL)
		goto out;
	TEST_CHECK_EQ(rdmadev_rcm_create_id(srv.ch, RDMADEV_RCM_PS_UDP, &l), 0);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(7174);
	TEST_CHECK_EQ(rdmadev_rcm_bind_addr(l, (struct sockaddr *)&sin), 0);
	TEST_CHECK_EQ(rdmadev_rcm_listen(l, 0), 0);
	cm_dump(srv.d.id, dump, sizeof(dump));
	TEST_CHECK(strstr(dump, "state LISTEN ps UDP") != NULL);
	/* a UDP id needs a UD QP */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_UDP, &c), 0);
	rdst(&dst, &srv);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc2.qp, NULL, now), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.private_data = hello;
	p.private_data_len = sizeof(hello);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc.qp, &p, now), 0);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	TEST_CHECK(ev.listen_id == l);
	TEST_CHECK_EQ(ev.private_data_len, RDMADEV_RCM_UDP_CONNECT_PDATA);
	TEST_CHECK(memcmp(ev.private_data, hello, sizeof(hello)) == 0);
	TEST_CHECK(memcmp(&ev.dst.sin.sin_addr, cli.d.gid + 12, 4) == 0);
	TEST_CHECK_EQ(ntohs(ev.dst.sin.sin_port), 32768);
	m = find_mad(&clog, 0x0017, NULL);
	TEST_CHECK(m != NULL);
	if (m != NULL) {
		TEST_CHECK_EQ(fld(m, 32, 0, 64), 0x0000000001111c06ull);	/* ServiceID */
		TEST_CHECK_EQ(fld(m, 40, 0, 8), 0);				/* cma_hdr */
		TEST_CHECK_EQ(fld(m, 41, 0, 4), 4);
		TEST_CHECK_EQ(fld(m, 42, 0, 16), 32768);
		TEST_CHECK(memcmp(m + 40 + 16, cli.d.gid + 12, 4) == 0);
		TEST_CHECK(memcmp(m + 40 + 32, srv.d.gid + 12, 4) == 0);
		TEST_CHECK(memcmp(m + 40 + 36, hello, sizeof(hello)) == 0);
	}
	if (ev.id == NULL)
		goto out;
	p.private_data = "ok";
	p.private_data_len = 2;
	TEST_CHECK_EQ(rdmadev_rcm_accept(ev.id, qs.qp, &p, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ESTABLISHED, &est);
	TEST_CHECK(est.id == c);
	TEST_CHECK_EQ(est.ud_qpn, qs.qpn);
	TEST_CHECK_EQ(est.ud_qkey, RDMADEV_RCM_UDP_QKEY);
	TEST_CHECK(memcmp(est.ah_attr.dgid, srv.d.gid, 16) == 0);
	TEST_CHECK(memcmp(est.private_data, "ok", 2) == 0);
	m = find_mad(&slog, 0x0018, NULL);
	TEST_CHECK(m != NULL && fld(m, 28, 0, 8) == 0 && fld(m, 44, 0, 32) == 0x01234567u);
	TEST_CHECK_EQ(rdmadev_rcm_get_event(srv.ch, &ev), -EAGAIN);	/* none on the passive side */
	TEST_CHECK_EQ(rdmadev_qp_query(qs.qp, &qa, &qi), 0);
	TEST_CHECK_EQ(qa.qp_state, RDMADEV_QPS_RTS);
	TEST_CHECK_EQ(qa.qkey, RDMADEV_RCM_UDP_QKEY);
	/* a datagram with what ESTABLISHED gave */
	TEST_CHECK_EQ(rdmadev_ah_create(cli.d.pd, &est.ah_attr, &ah), 0);
	if (ah == NULL)
		goto out;
	e2e_fill(mc.buf, 100, 5);
	s = e2e_sge(&mc, 0, 100);
	r = e2e_sge(&ms, 0, 40 + 100);
	e2e_recv(&qs, 7, &r, 1);
	e2e_wr_init(&wr, 8, RDMADEV_WR_SEND, &s, 1);
	wr.ud.ah = ah;
	wr.ud.remote_qpn = est.ud_qpn;
	wr.ud.remote_qkey = est.ud_qkey;
	e2e_send(&qc, &wr);
	e2e_expect(&cli.d.scq, 8, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&srv.d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 7);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.src_qp, qc.qpn);
	TEST_CHECK(memcmp(ms.buf + 40, mc.buf, 100) == 0);
	/* rejected: UNREACHABLE with status 2 (IB_SIDR_REJECT) and the private data */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_UDP, &c2), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c2), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c2, qc.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	rexpect(&srv, &cli, &srv, RDMADEV_RCM_EVENT_CONNECT_REQUEST, &ev);
	if (ev.id != NULL) {
		TEST_CHECK_EQ(rdmadev_rcm_reject(ev.id, "no", 2), 0);
		TEST_CHECK_EQ(rdmadev_rcm_destroy_id(ev.id), 0);
	}
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_UNREACHABLE, &ev);
	TEST_CHECK(ev.id == c2);
	TEST_CHECK_EQ(ev.status, 2);
	TEST_CHECK(memcmp(ev.private_data, "no", 2) == 0);
	rdmadev_rcm_destroy_id(c2);
	/* a port nobody serves: UNREACHABLE 1 */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_UDP, &c2), 0);
	dst.sin_port = htons(7175);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c2, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c2), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c2, qc.qp, NULL, now), 0);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ADDR_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_ROUTE_RESOLVED, NULL);
	rexpect(&srv, &cli, &cli, RDMADEV_RCM_EVENT_UNREACHABLE, &ev);
	TEST_CHECK_EQ(ev.status, 1);
	TEST_CHECK_EQ(rdmadev_rcm_get_event(srv.ch, &ev), -EAGAIN);
out:
	if (ah != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	e2e_qp_destroy(&qc2);
	e2e_mr_dereg(&mc);
	e2e_mr_dereg(&ms);
	rsides_close(&srv, &cli, &qc, &qs);
}

/* Events of @p s after pumping: counted by type in @p n, CONNECT_REQUEST ids into @p req. */
static void
rcollect(struct side *a, struct side *b, struct side *s, unsigned int n[16],
	 struct rdmadev_rcm_id **req, unsigned int *nreq)
{
	struct rdmadev_rcm_event ev;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		pump(a, b);
		while (rdmadev_rcm_get_event(s->ch, &ev) == 0) {
			n[ev.event & 15u]++;
			if (ev.event == RDMADEV_RCM_EVENT_CONNECT_REQUEST && req != NULL &&
			    *nreq < 32)
				req[(*nreq)++] = ev.id;
		}
	}
}

/* CM_ID objects of device @p dev (lines of its dump). */
static unsigned int
cm_ids(int16_t dev)
{
	static char dump[8192];
	const char *p = dump;
	unsigned int n = 0;

	cm_dump(dev, dump, sizeof(dump));
	while ((p = strstr(p, "cm-idn ")) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* MADs of @p attr in @p l from index @p from on. */
static unsigned int
count_mads(const struct mad_log *l, uint16_t attr, unsigned int from)
{
	unsigned int n = 0;

	while (find_mad(l, attr, &from) != NULL)
		n++;
	return n;
}

/* Hand @p mad to @p to's agent as if it came from @p from (a replay, or a forged REQ). */
static void
rinject(struct side *from, struct side *to, const uint8_t *mad)
{
	uint8_t buf[296];

	mad_from(buf, &from->d, &to->d, mad);
	rdmadev_ibcm_rx_inject(rdmadev_rcm_channel_ibcm(to->ch), buf, sizeof(buf), from->d.mac);
}

/*
 * A flood of REQs against a listener with a backlog of 4 (forged from a real client's REQ,
 * each its own comm id and QPN): 4 CONNECT_REQUESTs, the rest dropped without an MRA or a
 * REJ, the CM_IDs bounded at 1 + 4; a dropped REQ sent again once two were rejected: taken.
 * Replays of every message of a connection (REQ, REP, RTU, DREQ, DREP) change nothing but
 * the answer the IB CM gives a duplicate (MRA, RTU, DREP again); no event. At the end
 * restrack has no CM_ID left (e2e_dev_close's rdmadev_close).
 */
static void
test_rcm_flood(void)
{
	static struct side srv, cli;
	static struct mad_log slog, clog;
	struct rdmadev_rcm_id *l = NULL, *c = NULL, *req[32];
	unsigned int n[16] = { 0 }, nreq = 0, i, s0;
	struct rdmadev_ibcm_stats st;
	struct sockaddr_in dst;
	struct e2e_qp qc = { 0 }, qs = { 0 };
	uint8_t tmpl[256], forged[19][256], m[256];
	const uint8_t *p;

	srv.d.id = -1;
	cli.d.id = -1;
	memset(&slog, 0, sizeof(slog));
	memset(&clog, 0, sizeof(clog));
	if (rsides_open(&srv, &cli, E2E_DEVARGS(0, "loop:flood"),
			E2E_DEVARGS(1, "loop:flood")) != 0)
		goto out;
	rdmadev_ibcm_set_tx_hook(rdmadev_rcm_channel_ibcm(srv.ch), log_mad, &slog);
	rdmadev_ibcm_set_tx_hook(rdmadev_rcm_channel_ibcm(cli.ch), log_mad, &clog);
	TEST_CHECK(rdmadev_rcm_channel_ibcm(NULL) == NULL);
	e2e_qp_create(&cli.d, &qc, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&srv.d, &qs, RDMADEV_QPT_RC, NULL);
	if (qc.qp == NULL || qs.qp == NULL)
		goto out;
	l = rlisten(&srv, 4);
	TEST_CHECK(l != NULL);
	/* the real client's REQ: the first of the backlog */
	TEST_CHECK_EQ(rdmadev_rcm_create_id(cli.ch, RDMADEV_RCM_PS_TCP, &c), 0);
	rdst(&dst, &srv);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_addr(c, (struct sockaddr *)&dst, srv.d.mac, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_resolve_route(c), 0);
	TEST_CHECK_EQ(rdmadev_rcm_connect(c, qc.qp, NULL, now), 0);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_CONNECT_REQUEST], 1);
	p = find_mad(&clog, 0x0010, NULL);
	TEST_CHECK(p != NULL && nreq == 1);
	if (p == NULL || nreq != 1)
		goto out;
	memcpy(tmpl, p, sizeof(tmpl));
	s0 = 0;
	/* 19 forged REQs: 3 fill the backlog, 16 dropped unanswered */
	for (i = 0; i < RTE_DIM(forged); i++) {
		memcpy(forged[i], tmpl, 256);
		forged[i][15] ^= (uint8_t)(i + 1);		/* TID */
		forged[i][26] ^= (uint8_t)(i + 1);		/* Local Comm ID */
		forged[i][58] = (uint8_t)(0x40 + i);		/* Local QPN */
		rinject(&cli, &srv, forged[i]);
	}
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rdmadev_ibcm_stats_get(rdmadev_rcm_channel_ibcm(srv.ch), &st);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_CONNECT_REQUEST], 4);
	TEST_CHECK_EQ(st.backlog_drops, 16);
	TEST_CHECK_EQ(count_mads(&slog, 0x0011, 0), 4);		/* an MRA for each taken */
	TEST_CHECK_EQ(count_mads(&slog, 0x0012, 0), 0);		/* no REJ */
	TEST_CHECK_EQ(cm_ids(srv.d.id), 1 + 4);
	/* still full: a dropped one sent again is dropped again */
	rinject(&cli, &srv, forged[3]);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rdmadev_ibcm_stats_get(rdmadev_rcm_channel_ibcm(srv.ch), &st);
	TEST_CHECK_EQ(st.backlog_drops, 17);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_CONNECT_REQUEST], 4);
	/* two rejected: room for it now, and its duplicate only gets the MRA again */
	TEST_CHECK_EQ(rdmadev_rcm_reject(req[1], NULL, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_destroy_id(req[1]), 0);
	TEST_CHECK_EQ(rdmadev_rcm_reject(req[2], NULL, 0), 0);
	TEST_CHECK_EQ(rdmadev_rcm_destroy_id(req[2]), 0);
	TEST_CHECK_EQ(cm_ids(srv.d.id), 1 + 2);
	rinject(&cli, &srv, forged[3]);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_CONNECT_REQUEST], 5);
	i = slog.n;
	rinject(&cli, &srv, forged[3]);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_CONNECT_REQUEST], 5);
	TEST_CHECK_EQ(count_mads(&slog, 0x0011, i), 1);
	TEST_CHECK_EQ(cm_ids(srv.d.id), 1 + 3);
	/* the real one accepted; replays of its REQ, REP and RTU */
	TEST_CHECK_EQ(rdmadev_rcm_accept(req[s0], qs.qp, NULL, now), 0);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rcollect(&srv, &cli, &cli, n, NULL, NULL);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_ESTABLISHED], 2);
	memset(n, 0, sizeof(n));
	i = clog.n;
	rinject(&cli, &srv, tmpl);				/* REQ: dropped */
	p = find_mad(&slog, 0x0013, NULL);			/* REP: RTU again */
	TEST_CHECK(p != NULL);
	if (p != NULL)
		rinject(&srv, &cli, p);
	p = find_mad(&clog, 0x0014, NULL);			/* RTU: dropped */
	TEST_CHECK(p != NULL);
	if (p != NULL)
		rinject(&cli, &srv, p);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rcollect(&srv, &cli, &cli, n, NULL, NULL);
	TEST_CHECK_EQ(count_mads(&clog, 0x0014, i), 1);
	for (i = 0; i < 16; i++)
		TEST_CHECK_EQ(n[i], 0);
	/* disconnect; replays of the DREQ (DREP again) and the DREP (dropped) */
	TEST_CHECK_EQ(rdmadev_rcm_disconnect(c, now), 0);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rcollect(&srv, &cli, &cli, n, NULL, NULL);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_DISCONNECTED], 2);
	memset(n, 0, sizeof(n));
	p = find_mad(&clog, 0x0015, NULL);
	TEST_CHECK(p != NULL);
	if (p != NULL) {
		memcpy(m, p, sizeof(m));
		i = slog.n;
		rinject(&cli, &srv, m);
		rcollect(&srv, &cli, &srv, n, req, &nreq);
		TEST_CHECK_EQ(count_mads(&slog, 0x0016, i), 1);
	}
	p = find_mad(&slog, 0x0016, NULL);
	TEST_CHECK(p != NULL);
	if (p != NULL)
		rinject(&srv, &cli, p);
	rcollect(&srv, &cli, &cli, n, NULL, NULL);
	for (i = 0; i < 16; i++)
		TEST_CHECK_EQ(n[i], 0);
	now += rdmadev_ibcm_time_ns(20);
	rcollect(&srv, &cli, &srv, n, req, &nreq);
	rcollect(&srv, &cli, &cli, n, NULL, NULL);
	TEST_CHECK_EQ(n[RDMADEV_RCM_EVENT_TIMEWAIT_EXIT], 2);
	/* every id the flood made destroyed: the listener alone is left */
	for (i = 0; i < nreq; i++)
		if (i != 1 && i != 2)
			TEST_CHECK_EQ(rdmadev_rcm_destroy_id(req[i]), 0);
	TEST_CHECK_EQ(cm_ids(srv.d.id), 1);
out:
	rsides_close(&srv, &cli, &qc, &qs);
}

/* A net_ring pair for the Ethernet wire: eth_a and eth_b, -1 when not made. */
static void
eth_rings(void)
{
	struct rte_ring *ab = rte_ring_create("ibcm_ab", 1024, SOCKET_ID_ANY, 0);
	struct rte_ring *ba = rte_ring_create("ibcm_ba", 1024, SOCKET_ID_ANY, 0);

	if (ab == NULL || ba == NULL)
		return;
	eth_a = rte_eth_from_rings("ibcm_a", &ba, 1, &ab, 1, SOCKET_ID_ANY);
	eth_b = rte_eth_from_rings("ibcm_b", &ab, 1, &ba, 1, SOCKET_ID_ANY);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_ibcm", NULL) < 0)
		return test_eal_bail();
	TEST_RUN(test_gsi_ud);
	TEST_RUN(test_cm_connect);
	TEST_RUN(test_cm_no_listener);
	TEST_RUN(test_cm_mtu);
	TEST_RUN(test_cm_sidr);
	TEST_RUN(test_cm_retries);
	TEST_RUN(test_cm_rej_reasons);
	TEST_RUN(test_cm_dup_reorder);
	TEST_RUN(test_cm_ipv6);
	TEST_RUN(test_rcm);
	TEST_RUN(test_rcm_flood);
	TEST_RUN(test_rcm_ipv6);
	TEST_RUN(test_rcm_udp);
	eth_rings();
	TEST_RUN(test_rcm_resolve);
	rte_eal_cleanup();
	return test_done();
}
