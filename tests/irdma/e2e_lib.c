/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * End-to-end test helpers: rdmadev objects on the model and a completion collector, all
 * through the public API (the model's statistics are read for observations only).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include <rdmadev_driver.h>

#include "irdma_dev.h"
#include "test.h"
#include "e2e_lib.h"

/* Longest wait for a completion (a hang guard, not a speed assertion). */
#define E2E_WAIT_S	30u
#define E2E_MAX_DEVS	4u

static struct e2e_dev *e2e_devs[E2E_MAX_DEVS];


static void
e2e_cqrec_init(struct e2e_cqrec *r, struct rdmadev_cq *cq)
{
	r->cq = cq;
	r->head = 0;
	r->tail = 0;
	r->overflow = 0;
}

int
e2e_dev_open(struct e2e_dev *d, const char *devargs)
{
	return e2e_dev_open_vectors(d, devargs, 1);
}

int
e2e_dev_open_vectors(struct e2e_dev *d, const char *devargs, uint32_t nb_vectors)
{
	const struct rdmadev_conf conf = { .nb_comp_vectors = nb_vectors };
	const struct rdmadev_cq_attr cqa = { .cqe = 4096, .comp_vector = 0 };
	struct rdmadev_port_info port;
	struct rdmadev_cq *scq = NULL, *rcq = NULL;
	unsigned int i;
	int id;

	memset(d, 0, sizeof(*d));
	d->id = -1;
	id = rdmadev_open(test_variant_devargs(devargs));
	TEST_CHECK(id >= 0);
	if (id < 0)
		return -1;
	d->id = (int16_t)id;
	TEST_CHECK_EQ(rdmadev_configure(d->id, &conf), 0);
	TEST_CHECK_EQ(rdmadev_start(d->id), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(d->id, &d->ctx), 0);
	if (d->ctx == NULL)
		return -1;
	TEST_CHECK_EQ(rdmadev_pd_alloc(d->ctx, &d->pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(d->ctx, &d->pd2), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(d->ctx, &cqa, &scq), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(d->ctx, &cqa, &rcq), 0);
	e2e_cqrec_init(&d->scq, scq);
	e2e_cqrec_init(&d->rcq, rcq);
	if (scq == NULL || rcq == NULL || d->pd == NULL || d->pd2 == NULL)
		return -1;
	TEST_CHECK_EQ(rdmadev_port_info_get(d->id, &port), 0);
	memcpy(d->mac, port.mac, sizeof(d->mac));
	TEST_CHECK_EQ(rdmadev_gid_get(d->id, 0, d->gid), 0);
	for (i = 0; i < E2E_MAX_DEVS; i++) {
		if (e2e_devs[i] == NULL) {
			e2e_devs[i] = d;
			break;
		}
	}
	return 0;
}

void
e2e_dev_close(struct e2e_dev *d)
{
	unsigned int i;

	for (i = 0; i < E2E_MAX_DEVS; i++)
		if (e2e_devs[i] == d)
			e2e_devs[i] = NULL;
	if (d->id < 0)
		return;
	TEST_CHECK_EQ(d->scq.overflow + d->rcq.overflow, 0);
	if (d->rcq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(d->rcq.cq), 0);
	if (d->scq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(d->scq.cq), 0);
	if (d->pd2 != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(d->pd2), 0);
	if (d->pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(d->pd), 0);
	if (d->ctx != NULL)
		TEST_CHECK_EQ(rdmadev_ctx_free(d->ctx), 0);
	TEST_CHECK_EQ(E2E_STAT(d, dma_faults), 0);
	if (!d->lossy) {
		uint64_t retx = E2E_STAT(d, rc_retx_pkts) - d->held_retx;
		uint64_t to = E2E_STAT(d, rc_timeouts) - d->held_timeouts;
		uint64_t dup = E2E_STAT(d, dup_requests) - d->held_dup;
		uint64_t nak = E2E_STAT(d, seq_naks_rcvd);

		if (to != 0 || dup != 0 || nak != 0 ||
		    (retx != 0 && E2E_STAT(d, rnr_naks_rcvd) == 0))
			printf("# %s: a clean wire, yet %" PRIu64 " timeouts, %" PRIu64
			       " duplicates, %" PRIu64 " sequence NAKs, %" PRIu64
			       " retransmitted packets\n", rdmadev_get(d->id)->name, to, dup,
			       nak, retx);
		TEST_CHECK_EQ(to, 0);
		TEST_CHECK_EQ(dup, 0);
		TEST_CHECK_EQ(nak, 0);
		if (E2E_STAT(d, rnr_naks_rcvd) == 0)
			TEST_CHECK_EQ(retx, 0);
	}
	TEST_CHECK_EQ(rdmadev_stop(d->id), 0);
	/* restrack: nothing left behind */
	TEST_CHECK_EQ(rdmadev_close(d->id), 0);
	d->id = -1;
}

void
e2e_excuse_begin(struct e2e_dev *d)
{
	d->hold_to0 = E2E_STAT(d, rc_timeouts);
	d->hold_retx0 = E2E_STAT(d, rc_retx_pkts);
	d->hold_dup0 = E2E_STAT(d, dup_requests);
}

void
e2e_excuse_end(struct e2e_dev *d)
{
	d->held_timeouts += E2E_STAT(d, rc_timeouts) - d->hold_to0;
	d->held_retx += E2E_STAT(d, rc_retx_pkts) - d->hold_retx0;
	d->held_dup += E2E_STAT(d, dup_requests) - d->hold_dup0;
}

int
e2e_wire_hold(struct e2e_dev *d)
{
	const struct irdma_model_wire_faults all = { .drop_ppm = 1000000 };

	e2e_excuse_begin(d);
	return irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(d->id)), &all);
}

int
e2e_wire_release(struct e2e_dev *d)
{
	const struct irdma_model_wire_faults none = { .drop_ppm = 0 };

	e2e_excuse_end(d);
	return irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(d->id)), &none);
}

int
e2e_mr_reg(struct e2e_dev *d, struct rdmadev_pd *pd, struct e2e_mr *m, uint64_t len,
	   uint32_t access)
{
	struct rdmadev_mr_attr a;

	memset(m, 0, sizeof(*m));
	m->mem = rte_malloc("e2e", len + 2 * E2E_CANARY, 4096);
	TEST_CHECK(m->mem != NULL);
	if (m->mem == NULL)
		return -ENOMEM;
	memset(m->mem, E2E_CANARY_BYTE, len + 2 * E2E_CANARY);
	m->buf = m->mem + E2E_CANARY;
	memset(m->buf, 0, len);
	m->len = len;
	memset(&a, 0, sizeof(a));
	a.addr = m->buf;
	a.length = len;
	a.iova = (uint64_t)(uintptr_t)m->buf;
	a.access = access;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd != NULL ? pd : d->pd, &a, &m->mr), 0);
	if (m->mr == NULL)
		return -EINVAL;
	m->lkey = rdmadev_mr_lkey(m->mr);
	m->rkey = rdmadev_mr_rkey(m->mr);
	return 0;
}

void
e2e_mr_dereg(struct e2e_mr *m)
{
	if (m->mr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(m->mr), 0);
	rte_free(m->mem);
	memset(m, 0, sizeof(*m));
}

bool
e2e_canary_ok(const struct e2e_mr *m)
{
	uint64_t i;

	for (i = 0; i < E2E_CANARY; i++)
		if (m->mem[i] != E2E_CANARY_BYTE ||
		    m->mem[E2E_CANARY + m->len + i] != E2E_CANARY_BYTE)
			return false;
	return true;
}

int
e2e_qp_create_cap(struct e2e_dev *d, struct e2e_qp *p, enum rdmadev_qp_type type,
		  struct rdmadev_pd *pd, const struct rdmadev_qp_cap *cap, struct rdmadev_srq *srq)
{
	struct rdmadev_qp_init_attr a;

	memset(p, 0, sizeof(*p));
	memset(&a, 0, sizeof(a));
	a.pd = pd != NULL ? pd : d->pd;
	a.send_cq = d->scq.cq;
	a.recv_cq = d->rcq.cq;
	a.srq = srq;
	a.qp_type = type;
	a.cap = *cap;
	TEST_CHECK_EQ(rdmadev_qp_create(&a, &p->qp), 0);
	if (p->qp == NULL)
		return -1;
	p->dev = d;
	p->qpn = rdmadev_qp_num(p->qp);
	return 0;
}

int
e2e_qp_create(struct e2e_dev *d, struct e2e_qp *p, enum rdmadev_qp_type type,
	      struct rdmadev_pd *pd)
{
	static const struct rdmadev_qp_cap deep = {
		.max_send_wr = 512, .max_recv_wr = 512, .max_send_sge = 13, .max_recv_sge = 13,
		.max_inline_data = 101,
	};

	return e2e_qp_create_cap(d, p, type, pd, &deep, NULL);
}

void
e2e_qp_destroy(struct e2e_qp *p)
{
	if (p->qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(p->qp), 0);
	p->qp = NULL;
}

void
e2e_conn_default(struct e2e_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->mtu = RDMADEV_MTU_1024;
	c->access = E2E_ACC_ALL;
	c->retry = 7;
	c->rnr_retry = 7;
	c->min_rnr_timer = 1;
	c->timeout = 17;	/* 4.096 us << 17 = 537 ms: never fires on a slow (sanitized) run */
}

int
e2e_qp_to(struct e2e_qp *p, enum rdmadev_qp_state s)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = s;
	return rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE);
}

/* One side of an RC connection: INIT, RTR to @p peer, RTS. */
static int
e2e_rc_up(struct e2e_qp *p, const struct e2e_qp *peer, const struct e2e_conn *c)
{
	struct rdmadev_qp_attr a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = c->access;
	ret = rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
	if (ret != 0)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTR;
	memcpy(a.ah_attr.dgid, peer->dev->gid, 16);
	memcpy(a.ah_attr.dmac, peer->dev->mac, 6);
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = (enum rdmadev_mtu)c->mtu;
	a.dest_qp_num = peer->qpn;
	a.rq_psn = peer->qpn * 77u & 0xffffffu;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = c->min_rnr_timer;
	ret = rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV |
				RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
				RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER);
	if (ret != 0)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTS;
	a.timeout = c->timeout;
	a.retry_cnt = c->retry;
	a.rnr_retry = c->rnr_retry;
	a.sq_psn = p->qpn * 77u & 0xffffffu;
	a.max_rd_atomic = 8;
	return rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_TIMEOUT |
				 RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY |
				 RDMADEV_QP_SQ_PSN | RDMADEV_QP_MAX_QP_RD_ATOMIC);
}

int
e2e_rc_connect(struct e2e_qp *a, struct e2e_qp *b, const struct e2e_conn *c)
{
	struct e2e_conn def;
	int ret;

	if (a->qp == NULL || b->qp == NULL)
		return -EINVAL;
	if (c == NULL) {
		e2e_conn_default(&def);
		c = &def;
	}
	ret = e2e_rc_up(a, b, c);
	if (ret == 0)
		ret = e2e_rc_up(b, a, c);
	TEST_CHECK_EQ(ret, 0);
	return ret;
}

int
e2e_ud_up(struct e2e_qp *p, uint32_t qkey)
{
	struct rdmadev_qp_attr a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = qkey;
	ret = rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				RDMADEV_QP_PORT | RDMADEV_QP_QKEY);
	if (ret == 0)
		ret = e2e_qp_to(p, RDMADEV_QPS_RTR);
	a.qp_state = RDMADEV_QPS_RTS;
	a.sq_psn = 0x42;
	if (ret == 0)
		ret = rdmadev_qp_modify(p->qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN);
	TEST_CHECK_EQ(ret, 0);
	return ret;
}

bool
e2e_send(struct e2e_qp *p, const struct rdmadev_send_wr *wr)
{
	int err = 0;
	uint16_t n = rdmadev_post_send(p->qp, wr, 1, &err);

	TEST_CHECK_EQ(n, 1);
	TEST_CHECK_EQ(err, 0);
	return n == 1;
}

bool
e2e_recv(struct e2e_qp *p, uint64_t wr_id, const struct rdmadev_sge *sge, uint16_t n)
{
	struct rdmadev_recv_wr wr;
	int err = 0;
	uint16_t got;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.sg_list = sge;
	wr.num_sge = n;
	got = rdmadev_post_recv(p->qp, &wr, 1, &err);
	TEST_CHECK_EQ(got, 1);
	TEST_CHECK_EQ(err, 0);
	return got == 1;
}

static void
e2e_poll_rec(struct e2e_cqrec *r)
{
	struct rdmadev_wc wc[32];
	uint16_t n, i;

	if (r->cq == NULL)
		return;
	n = rdmadev_poll_cq(r->cq, wc, RTE_DIM(wc));
	for (i = 0; i < n; i++) {
		if (r->tail - r->head >= E2E_CQ_REC) {
			r->overflow++;
			continue;
		}
		r->wc[r->tail++ % E2E_CQ_REC] = wc[i];
	}
}

void
e2e_collect(void)
{
	unsigned int i;

	for (i = 0; i < E2E_MAX_DEVS; i++) {
		if (e2e_devs[i] == NULL)
			continue;
		e2e_poll_rec(&e2e_devs[i]->scq);
		e2e_poll_rec(&e2e_devs[i]->rcq);
	}
}

bool
e2e_wait(struct e2e_cqrec *r, unsigned int n)
{
	uint64_t deadline = rte_get_timer_cycles() + E2E_WAIT_S * rte_get_timer_hz();

	while (r->tail - r->head < n) {
		e2e_collect();
		if (rte_get_timer_cycles() > deadline)
			return false;
		rte_pause();
	}
	return true;
}

bool
e2e_take(struct e2e_cqrec *r, struct rdmadev_wc *wc)
{
	if (r->tail == r->head)
		return false;
	*wc = r->wc[r->head++ % E2E_CQ_REC];
	return true;
}

bool
e2e_next(struct e2e_cqrec *r, struct rdmadev_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	if (!e2e_wait(r, 1))
		return false;
	return e2e_take(r, wc);
}

unsigned int
e2e_idle(struct e2e_cqrec *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		e2e_collect();
	return r->tail - r->head;
}

unsigned int
e2e_tally(struct e2e_cqrec *r, unsigned int n, uint64_t first, struct e2e_tally *t)
{
	struct rdmadev_wc wc;
	unsigned int i, misplaced = 0;

	memset(t, 0, sizeof(*t));
	TEST_CHECK(e2e_wait(r, n));
	for (i = 0; i < n && e2e_take(r, &wc); i++) {
		if (wc.wr_id != first + i)
			misplaced++;
		/* a flush ends the QP's work: a success after it would be out of order */
		if (wc.status == RDMADEV_WC_SUCCESS && t->flushed == 0)
			t->ok++;
		else if (wc.status == RDMADEV_WC_WR_FLUSH_ERR)
			t->flushed++;
		else
			t->other++;
	}
	printf("# %u WRs: %u done, %u flushed, %u other\n", n, t->ok, t->flushed, t->other);
	return misplaced;
}

void
e2e_expect(struct e2e_cqrec *r, uint64_t wr_id, enum rdmadev_wc_status status, int opcode)
{
	struct rdmadev_wc wc;

	TEST_CHECK(e2e_next(r, &wc));
	TEST_CHECK_EQ(wc.wr_id, wr_id);
	if (wc.status != status)
		printf("#   wr_id %" PRIu64 ": status %s, expected %s\n", wr_id,
		       rdmadev_wc_status_str(wc.status), rdmadev_wc_status_str(status));
	TEST_CHECK_EQ(wc.status, status);
	if (status == RDMADEV_WC_SUCCESS && opcode >= 0)
		TEST_CHECK_EQ(wc.opcode, opcode);
}

uint64_t
e2e_stat(struct e2e_dev *d, size_t off)
{
	struct irdma_model_stats st;

	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(irdma_dev_hw(rdmadev_get(d->id)), &st), 0);
	return *(const uint64_t *)(const void *)((const uint8_t *)&st + off);
}

uint64_t
e2e_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

void
e2e_fill(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t s = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)e2e_rand(&s);
}

/* ---- gen3 helpers ---- */

void
e2e_wr_init(struct rdmadev_send_wr *wr, uint64_t id, uint8_t op, const struct rdmadev_sge *sge,
	    uint16_t nsge)
{
	memset(wr, 0, sizeof(*wr));
	wr->wr_id = id;
	wr->opcode = op;
	wr->sg_list = sge;
	wr->num_sge = nsge;
	wr->flags = RDMADEV_SEND_SIGNALED;
}

void
e2e_atomic_wr(struct rdmadev_send_wr *wr, struct rdmadev_sge *res, uint64_t id, uint8_t op,
	      const struct e2e_mr *local, uint64_t loff, uint64_t raddr, uint32_t rkey,
	      uint64_t compare_add, uint64_t swap)
{
	*res = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(local->buf + loff), 8, local->lkey };
	e2e_wr_init(wr, id, op, res, 1);
	wr->atomic.remote_addr = raddr;
	wr->atomic.rkey = rkey;
	wr->atomic.compare_add = compare_add;
	wr->atomic.swap = swap;
}

void
e2e_rdma_op(struct e2e_qp *a, uint8_t op, const struct e2e_mr *m, uint64_t loff, uint32_t len,
	    uint64_t rva, uint32_t rkey, uint64_t id)
{
	struct rdmadev_send_wr wr;
	struct rdmadev_sge s = { (uint64_t)(uintptr_t)(m->buf + loff), len, m->lkey };

	e2e_wr_init(&wr, id, op, &s, 1);
	wr.rdma.remote_addr = rva;
	wr.rdma.rkey = rkey;
	e2e_send(a, &wr);
}

int
e2e_pair(struct e2e_dev *da, struct e2e_dev *db, struct e2e_qp *a, struct e2e_qp *b,
	 uint32_t access)
{
	struct e2e_conn c;

	e2e_conn_default(&c);
	c.access = access;
	if (da->lossy || db->lossy)
		c.timeout = E2E_LOSSY_TIMEOUT;
	e2e_qp_create(da, a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(db, b, RDMADEV_QPT_RC, NULL);
	if (a->qp == NULL || b->qp == NULL)
		return -1;
	return e2e_rc_connect(a, b, &c);
}

void
e2e_unpair(struct e2e_qp *a, struct e2e_qp *b)
{
	e2e_qp_destroy(a);
	e2e_qp_destroy(b);
}

void
e2e_drain(struct e2e_dev *d)
{
	(void)e2e_idle(&d->scq, 64);
	d->scq.head = d->scq.tail;
	d->rcq.head = d->rcq.tail;
}

uint64_t
e2e_rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void
e2e_wr64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

uint64_t
e2e_qw(const uint8_t *b, unsigned int n)
{
	uint64_t v;

	memcpy(&v, b + 8 * n, sizeof(v));
	return rte_le_to_cpu_64(v);
}
