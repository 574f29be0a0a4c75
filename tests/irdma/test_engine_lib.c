/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Test-side "user space" for the data-path engine tests: objects through rdmadev, and an
 * SQ / RQ encoder and CQE decoder of its own, written from doc/hardware.md's bit positions
 * (§1 SQ WQE, §2 RQ WQE, §3 CQE, §4 doorbells and shadow areas), not from base/.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "test.h"
#include "test_bits.h"
#include "test_engine_lib.h"

/* Register offsets (doc/hardware.md §4.3). */
#define T_WQEALLOC	0x00504400u
#define T_DB_PAGE	0x007f0000u

static const struct rdmadev_conf t_conf = { .nb_comp_vectors = 1 };

static void
tcq_init(struct tcq *c, struct rdmadev_cq *cq)
{
	c->cq = cq;
	c->drv = cq->obj.fp.drv;
	c->head = 0;
	c->pol = 1; /* the device writes 1 on its first pass */
}

int
tdev_open(struct tdev *t, const char *devargs)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 1024, .comp_vector = 0 };
	struct rdmadev_cq *scq = NULL, *rcq = NULL;

	memset(t, 0, sizeof(*t));
	t->id = rdmadev_open(test_variant_devargs(devargs));
	if (t->id == -EADDRINUSE)
		return -EADDRINUSE;	/* a UDP wire's address is taken: the caller may try another */
	TEST_CHECK(t->id >= 0);
	if (t->id < 0)
		return -1;
	t->hw = irdma_dev_hw(rdmadev_get((int16_t)t->id));
	TEST_CHECK_EQ(rdmadev_configure((int16_t)t->id, &t_conf), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)t->id), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc((int16_t)t->id, &t->ctx), 0);
	if (t->ctx == NULL)
		return -1;
	TEST_CHECK_EQ(rdmadev_pd_alloc(t->ctx, &t->pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(t->ctx, &t->pd2), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(t->ctx, &cqa, &scq), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(t->ctx, &cqa, &rcq), 0);
	if (scq == NULL || rcq == NULL || t->pd == NULL || t->pd2 == NULL)
		return -1;
	tcq_init(&t->scq, scq);
	tcq_init(&t->rcq, rcq);
	TEST_CHECK_EQ(irdma_model_port_gid(t->hw, t->gid), 0);
	return 0;
}

void
tdev_close(struct tdev *t)
{
	struct irdma_model_stats st;

	if (t->id < 0)
		return;
	if (t->rcq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(t->rcq.cq), 0);
	if (t->scq.cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(t->scq.cq), 0);
	if (t->pd2 != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(t->pd2), 0);
	if (t->pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(t->pd), 0);
	if (t->ctx != NULL)
		TEST_CHECK_EQ(rdmadev_ctx_free(t->ctx), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)t->id), 0);
	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(t->hw, &st), 0);
	TEST_CHECK_EQ(st.dma_faults, 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)t->id), 0);
	t->id = -1;
}

bool
tdev_up(struct tdev *t, const char *devargs)
{
	if (tdev_open(t, devargs) == 0)
		return true;
	tdev_close(t);
	return false;
}

void
tdev_service(struct tdev *a, struct tdev *b)
{
	irdma_hw_service(a->hw);
	if (b != NULL && b != a)
		irdma_hw_service(b->hw);
	if (a->hw->be->service == NULL)
		rte_pause();
}

uint64_t
tstat(struct tdev *t, size_t off)
{
	struct irdma_model_stats st;

	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(t->hw, &st), 0);
	return *(const uint64_t *)(const void *)((const uint8_t *)&st + off);
}

struct irdma_model_wire_stats
twstats(struct tdev *t)
{
	struct irdma_model_wire_stats s;

	memset(&s, 0, sizeof(s));
	TEST_CHECK_EQ(irdma_model_wire_stats_get(t->hw, &s), 0);
	return s;
}

void
tfill(uint8_t *p, size_t n, uint32_t seed)
{
	uint64_t s = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;
	size_t i;

	for (i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		p[i] = (uint8_t)s;
	}
}

/*
 * Map (or unmap) [va, va + len) in the model's IOMMU view, one run per IOVA-contiguous
 * stretch of 4 KB pages: the application's memory is the device's to reach only once
 * mapped (the PMD maps its own rings; MR memory is the application's to map).
 */
static int
tdma(struct irdma_hw *hw, uint8_t *va, uint64_t len, bool map)
{
	uint64_t off = 0;
	int ret = 0;

	while (off < len && ret == 0) {
		rte_iova_t start = rte_mem_virt2iova(va + off);
		uint64_t run = RTE_MIN(len - off, 4096 - ((uintptr_t)(va + off) & 4095));

		while (off + run < len && rte_mem_virt2iova(va + off + run) == start + run)
			run += RTE_MIN(len - off - run, (uint64_t)4096);
		ret = map ? irdma_hw_dma_map(hw, va + off, start, run) :
			    irdma_hw_dma_unmap(hw, va + off, start, run);
		off += run;
	}
	return ret;
}

int
tmr_reg(struct tdev *t, struct rdmadev_pd *pd, struct tmr *m, uint64_t len, uint32_t access)
{
	struct rdmadev_mr_attr a;

	memset(m, 0, sizeof(*m));
	m->buf = rte_zmalloc("engine_test", len, 4096);
	TEST_CHECK(m->buf != NULL);
	if (m->buf == NULL)
		return -ENOMEM;
	m->len = len;
	m->hw = t->hw;
	TEST_CHECK_EQ(tdma(t->hw, m->buf, len, true), 0);
	memset(&a, 0, sizeof(a));
	a.addr = m->buf;
	a.length = len;
	a.iova = (uint64_t)(uintptr_t)m->buf;
	a.access = access;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd != NULL ? pd : t->pd, &a, &m->mr), 0);
	if (m->mr == NULL)
		return -EINVAL;
	m->lkey = rdmadev_mr_lkey(m->mr);
	m->rkey = rdmadev_mr_rkey(m->mr);
	return 0;
}

void
tmr_dereg(struct tmr *m)
{
	if (m->mr != NULL)
		TEST_CHECK_EQ(rdmadev_mr_dereg(m->mr), 0);
	if (m->buf != NULL)
		TEST_CHECK_EQ(tdma(m->hw, m->buf, m->len, false), 0);
	rte_free(m->buf);
	memset(m, 0, sizeof(*m));
}

int
tqp_create(struct tdev *t, struct tqp *p, enum rdmadev_qp_type type)
{
	return tqp_create_cq(t, p, type, t->scq.cq);
}

int
tqp_create_cq(struct tdev *t, struct tqp *p, enum rdmadev_qp_type type, struct rdmadev_cq *scq)
{
	struct rdmadev_qp_init_attr a;

	memset(p, 0, sizeof(*p));
	memset(&a, 0, sizeof(a));
	a.pd = t->pd;
	a.send_cq = scq;
	a.recv_cq = t->rcq.cq;
	a.qp_type = type;
	a.cap.max_send_wr = 128;
	a.cap.max_recv_wr = 128;
	a.cap.max_send_sge = 6;
	a.cap.max_recv_sge = 6;
	a.cap.max_inline_data = 101;
	TEST_CHECK_EQ(rdmadev_qp_create(&a, &p->qp), 0);
	if (p->qp == NULL)
		return -1;
	p->dev = t;
	p->q = p->qp->obj.fp.drv;
	p->qpn = rdmadev_qp_num(p->qp);
	p->sq_pol = 0;
	p->rq_pol = 0;
	return 0;
}

void
tqp_destroy(struct tqp *p)
{
	if (p->qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(p->qp), 0);
	p->qp = NULL;
}

void
tconn_default(struct tconn *c)
{
	memset(c, 0, sizeof(*c));
	c->mtu = RDMADEV_MTU_1024;
	c->access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
		    RDMADEV_ACCESS_REMOTE_READ;
	c->retry = 7;
	c->rnr_retry = 7;
	c->timeout = 12;
	c->psn_a = 0xfffff0; /* both directions wrap the 24-bit PSN early */
	c->psn_b = 0x123;
}

static int
modify(struct rdmadev_qp *qp, struct rdmadev_qp_attr *a, enum rdmadev_qp_state s, uint32_t m)
{
	a->qp_state = s;
	return rdmadev_qp_modify(qp, a, m | RDMADEV_QP_STATE);
}

/* One side of an RC connection: INIT, RTR to @p peer, RTS. */
static int
tqp_rc_up(struct tqp *p, const struct tqp *peer, const struct tconn *c, uint32_t spsn,
	  uint32_t rpsn)
{
	struct rdmadev_qp_attr a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qp_access_flags = c->access;
	ret = modify(p->qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
		     RDMADEV_QP_ACCESS_FLAGS);
	if (ret != 0)
		return ret;
	memset(&a, 0, sizeof(a));
	memcpy(a.ah_attr.dgid, peer->dev->gid, 16);
	if (c->no_dmac && !c->ipv6) {
		/* the peer's GID 0, as an application knowing only the peer's GID has it */
		ret = rdmadev_gid_get((int16_t)peer->dev->id, 0, a.ah_attr.dgid);
		if (ret != 0)
			return ret;
	}
	if (c->ipv6) {
		/*
		 * Both ends' GID 1: the link-local fe80:: address the driver derives from the
		 * port MAC (GID 0 is IPv4-mapped; the families of source and destination must
		 * match). The switch routes by MAC, the frames are IPv6.
		 */
		ret = rdmadev_gid_get((int16_t)peer->dev->id, 1, a.ah_attr.dgid);
		if (ret != 0 || a.ah_attr.dgid[0] != 0xfe || a.ah_attr.dgid[1] != 0x80)
			return ret != 0 ? ret : -EPROTO;
		a.ah_attr.sgid_index = 1;
	}
	if (!c->no_dmac)
		memcpy(a.ah_attr.dmac, peer->dev->hw->mac, 6);
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = c->vlan != 0 ? c->vlan : 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = (enum rdmadev_mtu)c->mtu;
	a.dest_qp_num = peer->qpn;
	a.rq_psn = rpsn;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 1;
	ret = modify(p->qp, &a, RDMADEV_QPS_RTR, RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
		     RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
		     RDMADEV_QP_MIN_RNR_TIMER);
	if (ret != 0)
		return ret;
	memset(&a, 0, sizeof(a));
	a.timeout = c->timeout;
	a.retry_cnt = c->retry;
	a.rnr_retry = c->rnr_retry;
	a.sq_psn = spsn;
	a.max_rd_atomic = 8;
	return modify(p->qp, &a, RDMADEV_QPS_RTS, RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
		      RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN | RDMADEV_QP_MAX_QP_RD_ATOMIC);
}

int
tqp_connect(struct tqp *a, struct tqp *b, const struct tconn *c)
{
	int ret;

	if (a->qp == NULL || b->qp == NULL)
		return -EINVAL;
	if (a->qp->init.qp_type == RDMADEV_QPT_UD) {
		struct rdmadev_qp_attr at;
		struct tqp *p[2] = { a, b };
		unsigned int i;

		for (i = 0; i < 2; i++) {
			memset(&at, 0, sizeof(at));
			at.port_num = 1;
			at.qkey = 0x11110000u + i;
			ret = modify(p[i]->qp, &at, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX |
				     RDMADEV_QP_PORT | RDMADEV_QP_QKEY);
			if (ret == 0)
				ret = modify(p[i]->qp, &at, RDMADEV_QPS_RTR, 0);
			at.sq_psn = 0x42;
			if (ret == 0)
				ret = modify(p[i]->qp, &at, RDMADEV_QPS_RTS, RDMADEV_QP_SQ_PSN);
			TEST_CHECK_EQ(ret, 0);
			if (ret != 0)
				return ret;
		}
		return 0;
	}
	ret = tqp_rc_up(a, b, c, c->psn_a, c->psn_b);
	TEST_CHECK_EQ(ret, 0);
	if (ret == 0 && a != b)
		ret = tqp_rc_up(b, a, c, c->psn_b, c->psn_a);
	TEST_CHECK_EQ(ret, 0);
	return ret;
}

int
tqp_to_err(struct tqp *p)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	return modify(p->qp, &a, RDMADEV_QPS_ERR, 0);
}

/* ---- SQ / RQ encoding (doc/hardware.md §1, §2) ---- */

static void
qw_put(uint8_t *base, unsigned int qw, uint64_t v)
{
	memcpy(base + 8 * qw, &v, 8); /* little-endian hosts (x86) */
}

/* Fragment @p k (16 B) at byte 0 or 32 + 16 (k - 1): address, STag 31:0, LEN 62:32, VALID 63. */
static void
frag_put(uint8_t *w, unsigned int k, uint64_t addr, uint32_t stag, uint32_t len, uint8_t pol)
{
	unsigned int off = k == 0 ? 0 : 32 + 16 * (k - 1);

	qw_put(w, off / 8, addr);
	qw_put(w, off / 8 + 1, (uint64_t)stag | ((uint64_t)(len & 0x7fffffffu) << 32) |
		   ((uint64_t)pol << 63));
}

/* Copy @p quanta quanta to the SQ at @p idx, header qword (qw 3 of quantum 0) last. */
static void
sq_write(struct tqp *p, uint32_t idx, const uint8_t *w, unsigned int quanta)
{
	uint8_t *dst = p->q->sq.base + (size_t)idx * 32;
	uint64_t hdr;

	memcpy(dst + 32, w + 32, (size_t)(quanta - 1) * 32);
	memcpy(dst, w, 24);
	memcpy(&hdr, w + 24, 8);
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(void *)(dst + 24), hdr, __ATOMIC_RELEASE);
}

/* Make room for @p quanta at the SQ head: a WQE never crosses an 8-quantum chunk. */
static uint32_t
sq_place(struct tqp *p, unsigned int quanta)
{
	uint8_t nop[32];
	uint32_t idx;

	while ((p->sq_head % 8) + quanta > 8) {
		if (p->sq_head == 0)
			p->sq_pol ^= 1;
		memset(nop, 0, sizeof(nop));
		qw_put(nop, 3, ((uint64_t)T_OP_NOP << 32) | ((uint64_t)p->sq_pol << 63));
		sq_write(p, p->sq_head, nop, 1);
		p->sq_head = (p->sq_head + 1) % p->q->sq.quanta;
	}
	if (p->sq_head == 0)
		p->sq_pol ^= 1;
	idx = p->sq_head;
	p->sq_head = (p->sq_head + quanta) % p->q->sq.quanta;
	return idx;
}

void
twr_init(struct twr *wr, uint8_t op, const struct tsge *sge, unsigned int nsge)
{
	memset(wr, 0, sizeof(*wr));
	wr->op = op;
	wr->sge = sge;
	wr->nsge = nsge;
	wr->signaled = true;
}

uint32_t
tpost_send(struct tqp *p, const struct twr *wr)
{
	uint8_t w[256];
	unsigned int quanta, frags, addfrag, i, slot;
	uint64_t hdr = 0;
	uint32_t idx;

	memset(w, 0, sizeof(w));
	if (wr->inl != NULL) {
		quanta = wr->inl_len <= 8 ? 1 : 1 + (wr->inl_len - 8 + 30) / 31;
		idx = sq_place(p, quanta);
		for (i = 0; i < wr->inl_len; i++) {
			unsigned int pos = i < 8 ? 8 + i : 32 * (1 + (i - 8) / 31) + (i - 8) % 31;

			w[pos] = wr->inl[i];
		}
		for (i = 1; i < quanta; i++)
			w[32 * i + 31] = (uint8_t)(p->sq_pol << 7);
		hdr |= (uint64_t)1 << 57 | (uint64_t)wr->inl_len << 48;
		addfrag = 0;
	} else if (wr->op == T_OP_FAST_REG || wr->op == T_OP_LOCAL_INV || wr->op == T_OP_NOP) {
		quanta = 1;
		idx = sq_place(p, quanta);
		addfrag = 0;
	} else {
		frags = wr->nsge + (wr->has_imm ? 1 : 0);
		addfrag = frags > 1 ? frags - 1 : 0;
		quanta = frags / 2 + 1;
		idx = sq_place(p, quanta);
		slot = wr->has_imm ? 1 : 0;
		for (i = 0; i < wr->nsge; i++)
			frag_put(w, slot + i, wr->sge[i].addr, wr->sge[i].lkey, wr->sge[i].len,
				 p->sq_pol);
		if (frags == 0)
			frag_put(w, 0, 0, 0, 0, p->sq_pol);
		if (frags != 0 && (frags & 1) == 0) {
			frag_put(w, frags, 0, 0, 0, p->sq_pol); /* gen2 NULL pad */
			addfrag++;
		}
	}
	if (wr->has_imm) {
		qw_put(w, 0, wr->imm);
		hdr |= (uint64_t)1 << 47;
	}
	switch (wr->op) {
	case T_OP_WRITE:
	case T_OP_WRITE_SOL:
	case T_OP_READ:
	case T_OP_READ_LOC_INV:
		qw_put(w, 2, wr->rva);
		hdr |= wr->rkey;
		break;
	case T_OP_SEND_INV:
	case T_OP_SEND_SE_INV:
		hdr |= wr->rkey;
		break;
	case T_OP_SEND:
	case T_OP_SEND_SE:
		if (p->qp->init.qp_type == RDMADEV_QPT_UD) {
			qw_put(w, 2, (uint64_t)wr->qkey | ((uint64_t)wr->dqpn << 32));
			hdr |= wr->ah_id & 0x1ffffu;
		}
		break;
	case T_OP_LOCAL_INV:
		qw_put(w, 1, wr->rkey);
		break;
	case T_OP_FAST_REG:
		qw_put(w, 0, wr->fr_va);
		qw_put(w, 1, (uint64_t)(wr->fr_first_pble >> 16));
		qw_put(w, 2, (wr->fr_len & ((UINT64_C(1) << 41) - 1)) |
			   ((uint64_t)(wr->fr_first_pble & 0xffff) << 48));
		hdr |= (uint64_t)(wr->fr_stag & 0xff) | ((uint64_t)(wr->fr_stag >> 8) << 8);
		hdr |= (uint64_t)wr->fr_chunk << 44 | (uint64_t)wr->fr_rights << 48 |
		       (uint64_t)1 << 53;
		break;
	default:
		break;
	}
	hdr |= (uint64_t)wr->op << 32 | (uint64_t)addfrag << 38 |
	       (uint64_t)(wr->signaled ? 1 : 0) << 62 | (uint64_t)p->sq_pol << 63;
	qw_put(w, 3, hdr);
	for (i = 1; i < quanta; i++) {
		uint64_t v;

		memcpy(&v, w + 32 * i + 24, 8);
		v |= (uint64_t)p->sq_pol << 63;
		qw_put(w, 4 * i + 3, v);
	}
	sq_write(p, idx, w, quanta);
	return idx;
}

bool
p_sq_pol_next(const struct tqp *p)
{
	/* The polarity the next WQE gets: it flips when the head is at index 0. */
	return p->sq_head == 0 ? !p->sq_pol : p->sq_pol;
}

uint32_t
tpost_raw(struct tqp *p, const uint64_t *qw, unsigned int quanta)
{
	uint32_t idx = sq_place(p, quanta);

	sq_write(p, idx, (const uint8_t *)qw, quanta);
	return idx;
}

void
tpost_recv(struct tqp *p, const struct tsge *sge, unsigned int nsge)
{
	unsigned int wqe_quanta = 1u << p->q->rq.shift;
	unsigned int addfrag = nsge > 1 ? nsge - 1 : 0, i;
	uint8_t w[256];
	uint8_t *dst;
	uint64_t hdr;

	if (p->rq_head == 0)
		p->rq_pol ^= 1;
	memset(w, 0, sizeof(w));
	for (i = 0; i < nsge; i++)
		frag_put(w, i, sge[i].addr, sge[i].lkey, sge[i].len, p->rq_pol);
	if (nsge == 0)
		frag_put(w, 0, 0, 0, 0, p->rq_pol);
	if (nsge != 0 && (nsge & 1) == 0) {
		frag_put(w, nsge, 0, 0, 0, p->rq_pol);
		addfrag++;
	}
	hdr = (uint64_t)addfrag << 38 | (uint64_t)p->rq_pol << 63;
	qw_put(w, 3, hdr);
	for (i = 1; i < wqe_quanta; i++) {
		uint64_t v;

		memcpy(&v, w + 32 * i + 24, 8);
		qw_put(w, 4 * i + 3, v | (uint64_t)p->rq_pol << 63);
	}
	dst = p->q->rq.base + (size_t)p->rq_head * 32;
	memcpy(dst + 32, w + 32, (size_t)(wqe_quanta - 1) * 32);
	memcpy(dst, w, 24);
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n((uint64_t *)(void *)(dst + 24), hdr, __ATOMIC_RELEASE);
	p->rq_head = (p->rq_head + wqe_quanta) % p->q->rq.quanta;
}

void
tring(struct tqp *p)
{
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	irdma_wr32(p->dev->hw, p->use_db_page ? T_DB_PAGE : T_WQEALLOC, p->qpn);
}

/* ---- CQE decoding (doc/hardware.md §3) ---- */

static uint64_t
qw_get(const uint8_t *slot, unsigned int qw)
{
	uint64_t v;

	memcpy(&v, slot + 8 * qw, 8);
	return v;
}

bool
tpoll(struct tcq *c, struct tcqe *e)
{
	struct irdma_cq *cq = c->drv;
	const uint8_t *slot = cq->cur.base + (size_t)c->head * 32;
	uint64_t q3 = __atomic_load_n((const uint64_t *)(const void *)(slot + 24),
				      __ATOMIC_ACQUIRE);
	uint64_t shadow;

	if ((q3 >> 63) != c->pol)
		return false;
	memset(e, 0, sizeof(*e));
	e->len = (uint32_t)test_bits(qw_get(slot, 0), 31, 0);
	e->ctx = qw_get(slot, 1);
	e->qw2lo = (uint32_t)test_bits(qw_get(slot, 2), 31, 0);
	e->qpid = (uint32_t)test_bits(qw_get(slot, 2), 55, 32);
	e->minor = (uint16_t)test_bits(q3, 15, 0);
	e->major = (uint16_t)test_bits(q3, 31, 16);
	e->wqe_idx = (uint32_t)test_bits(q3, 46, 32);
	e->ext = test_bits(q3, 50, 50);
	e->stag_or_ipv4 = test_bits(q3, 53, 53);
	e->se = test_bits(q3, 54, 54);
	e->error = test_bits(q3, 55, 55);
	e->op = (uint8_t)test_bits(q3, 61, 56);
	e->sq = test_bits(q3, 62, 62);
	if (++c->head == cq->cur.size) {
		c->head = 0;
		c->pol ^= 1;
	}
	if (e->ext) {
		const uint8_t *x = cq->cur.base + (size_t)c->head * 32;
		uint64_t x3 = qw_get(x, 3);

		TEST_CHECK_EQ(x3 >> 63, c->pol);
		e->imm = (uint32_t)test_bits(qw_get(x, 0), 31, 0);
		e->smac = test_bits(qw_get(x, 2), 47, 0);
		e->vlan = (uint16_t)test_bits(qw_get(x, 2), 63, 48);
		e->vlan_valid = test_bits(x3, 60, 60);
		e->smac_valid = test_bits(x3, 61, 61);
		e->imm_valid = test_bits(x3, 62, 62);
		if (++c->head == cq->cur.size) {
			c->head = 0;
			c->pol ^= 1;
		}
	}
	/* SW's consumer index in CQ shadow qword 0 (the device's overflow check). */
	shadow = c->head;
	__atomic_store_n((uint64_t *)cq->shadow, shadow, __ATOMIC_RELEASE);
	return true;
}

bool
twait(struct tcq *c, struct tcqe *e, struct tdev *a, struct tdev *b)
{
	unsigned int i;

	for (i = 0; i < T_POLL_MAX; i++) {
		if (tpoll(c, e))
			return true;
		tdev_service(a, b);
		if ((i & 0xfff) == 0xfff)
			sched_yield();
	}
	return false;
}

unsigned int
tidle(struct tcq *c, struct tdev *a, struct tdev *b, unsigned int n)
{
	struct tcqe e;
	unsigned int i, got = 0;

	for (i = 0; i < n; i++) {
		tdev_service(a, b);
		while (tpoll(c, &e))
			got++;
	}
	return got;
}

/* ---- shared checks ---- */

/* Check a successful SQ completion of @p p for the WQE at @p idx with opcode @p op. */
void
check_sq_cqe(const struct tcqe *e, const struct tqp *p, uint32_t idx, uint8_t op)
{
	TEST_CHECK(e->sq);
	TEST_CHECK(!e->error);
	if (e->error)
		printf("# error CQE: QP %u WQE %u minor %u\n", e->qpid, e->wqe_idx, e->minor);
	TEST_CHECK_EQ(e->major, 0);
	TEST_CHECK_EQ(e->wqe_idx, idx);
	TEST_CHECK_EQ(e->op, op);
	TEST_CHECK_EQ(e->qpid, p->qpn);
	TEST_CHECK(e->ctx == (uint64_t)(uintptr_t)p->q);
}

/* Wait for the SQ CQE of @p p; false when none came. */
bool
sq_done(struct tqp *p, struct tdev *other, uint32_t idx, uint8_t op)
{
	struct tcqe e;
	bool ok = twait(&p->dev->scq, &e, p->dev, other);

	TEST_CHECK(ok);
	if (ok)
		check_sq_cqe(&e, p, idx, op);
	return ok;
}

bool
tsend_done(struct tqp *p, struct tdev *other, const struct twr *wr, uint8_t op)
{
	uint32_t idx = tpost_send(p, wr);

	tring(p);
	return sq_done(p, other, idx, op);
}

/* Wait for the RQ CQE of @p p. */
bool
rq_done(struct tqp *p, struct tdev *other, struct tcqe *e)
{
	bool ok = twait(&p->dev->rcq, e, p->dev, other);

	TEST_CHECK(ok);
	if (ok) {
		TEST_CHECK(!e->sq);
		TEST_CHECK(!e->error);
		TEST_CHECK_EQ(e->qpid, p->qpn);
		TEST_CHECK(e->ctx == (uint64_t)(uintptr_t)p->q);
	}
	return ok;
}

/* A pair of connected RC QPs on one device with default parameters. */
void
tdev_down(struct tdev *t, struct tqp *a, struct tqp *b, struct tmr *m)
{
	tqp_destroy(a);
	tqp_destroy(b);
	tmr_dereg(m);
	tdev_close(t);
}

int
pair_up(struct tdev *t, struct tqp *a, struct tqp *b, const struct tconn *c)
{
	struct tconn d;

	if (c == NULL) {
		tconn_default(&d);
		c = &d;
	}
	if (tqp_create(t, a, RDMADEV_QPT_RC) != 0 || tqp_create(t, b, RDMADEV_QPT_RC) != 0)
		return -1;
	return tqp_connect(a, b, c);
}

/* Expect one error CQE on @p c with flush minor @p minor at WQE @p idx. */
void
expect_err(struct tcq *c, struct tdev *t, uint16_t minor, uint32_t idx)
{
	struct tcqe e;

	if (!twait(c, &e, t, NULL)) {
		TEST_CHECK(false);
		return;
	}
	TEST_CHECK(e.error);
	TEST_CHECK_EQ(e.major, 1);
	TEST_CHECK_EQ(e.minor, minor);
	TEST_CHECK_EQ(e.wqe_idx, idx);
}

uint64_t
xrand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}
