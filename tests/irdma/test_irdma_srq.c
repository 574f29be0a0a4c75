/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Shared receive queues (gen3) end to end on the device model: the SRQ WQE the PMD writes,
 * decoded with doc/hardware.md's bit positions (§1.4, §2) by hand; two RC QPs and a UD QP that
 * receive SENDs from one SRQ (data byte for byte, wr_ids, QP numbers); the ring wrapping
 * (polarity); the limit event (once, then disarmed); a QP in error leaving the SRQ's WQEs to
 * the others (and its LAST_WQE_REACHED event); destroy of an SRQ in use (-EBUSY); a QP
 * destroyed mid-message giving its SRQ WQE back; the largest SRQ past the CQE's 15-bit WQE
 * index; the model's checks of the SRQ commands; gen2 refusing SRQs; restrack counts that
 * balance.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev_driver.h>
#include <restrack.h>

#include "test.h"
#include "e2e_lib.h"
#include "irdma_cq.h"
#include "irdma_ctrl.h"
#include "irdma_qp.h"
#include "irdma_srq.h"
#include "irdma_dev.h"
#include "model_pkt.h"
#include "uk_fixture.h"

/* A gen3 model on its own loop wire. */
#define SRQ_DEVARGS(wire) "irdma_model0,gen=3,qps=64,cqs=64,mrs=256,wire=loop:" wire

#define MR_LEN		(64u * 1024u)
#define RECV_LEN	1024u
#define UD_QKEY		0x5151u
#define MID_MR_LEN	(256u * 1024u)

/* Independent decoder of doc/hardware.md's words (little-endian qwords; test_bits() is
 * uk_fixture.h's). */
static uint64_t
qw(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	int b;

	for (b = 7; b >= 0; b--)
		v = (v << 8) | p[8 * n + (unsigned int)b];
	return v;
}


static struct irdma_srq *
drv_srq(struct rdmadev_srq *srq)
{
	return srq->obj.fp.drv;
}

/* A QP of @p type on @p srq (no RQ of its own). */
static int
qp_on_srq(struct e2e_dev *d, struct e2e_qp *p, enum rdmadev_qp_type type,
	  struct rdmadev_srq *srq)
{
	static const struct rdmadev_qp_cap cap = { .max_send_wr = 64, .max_send_sge = 2 };

	return e2e_qp_create_cap(d, p, type, NULL, &cap, srq);
}

static int
srq_make(struct e2e_dev *d, uint32_t max_wr, uint32_t max_sge, uint32_t limit,
	 struct rdmadev_srq **srq)
{
	struct rdmadev_srq_attr a = { .max_wr = max_wr, .max_sge = max_sge, .srq_limit = limit };

	*srq = NULL;
	TEST_CHECK_EQ(rdmadev_srq_create(d->pd, &a, srq), 0);
	return *srq != NULL ? 0 : -1;
}

static bool
srq_recv(struct rdmadev_srq *srq, uint64_t wr_id, const struct rdmadev_sge *sge, uint16_t n)
{
	struct rdmadev_recv_wr wr = { .wr_id = wr_id, .sg_list = sge, .num_sge = n };
	int err = 1;

	return rdmadev_post_srq_recv(srq, &wr, 1, &err) == 1 && err == 0;
}

static bool
send_one(struct e2e_qp *p, uint64_t wr_id, const struct rdmadev_sge *s, struct rdmadev_ah *ah,
	 uint32_t dest_qpn)
{
	struct rdmadev_send_wr wr;

	e2e_wr_init(&wr, wr_id, RDMADEV_WR_SEND, s, 1);
	if (ah != NULL) {
		wr.ud.ah = ah;
		wr.ud.remote_qpn = dest_qpn;
		wr.ud.remote_qkey = UD_QKEY;
	}
	return e2e_send(p, &wr);
}

static int
ah_to_self(struct e2e_dev *d, struct rdmadev_ah **ah)
{
	struct rdmadev_ah_attr aa;

	memset(&aa, 0, sizeof(aa));
	memcpy(aa.dgid, d->gid, 16);
	memcpy(aa.dmac, d->mac, 6);
	aa.hop_limit = 64;
	aa.vlan_id = 0xffff;
	aa.port_num = 1;
	*ah = NULL;
	TEST_CHECK_EQ(rdmadev_ah_create(d->pd, &aa, ah), 0);
	return *ah != NULL ? 0 : -1;
}

static int
restrack_of(struct e2e_dev *d, enum restrack_type t)
{
	return restrack_count(rdmadev_get(d->id)->res, t, NULL);
}

/*
 * A test's objects: an MR and an SRQ on a device, and up to two RC pairs a[i] -> b[i] whose
 * receivers b[i] take their receives from the SRQ (the senders have RQs of their own).
 */
struct srq_env {
	struct e2e_dev *d;
	struct e2e_mr m;
	struct rdmadev_srq *srq;
	struct e2e_qp a[2];
	struct e2e_qp b[2];
	struct model_port *tap;	/* a tap port on the device's wire, or NULL */
};

/* Destroy @p e's SRQ, which restrack then no longer tracks. */
static void
env_srq_destroy(struct srq_env *e)
{
	TEST_CHECK_EQ(rdmadev_srq_destroy(e->srq), 0);
	e->srq = NULL;
	TEST_CHECK_EQ(restrack_of(e->d, RESTRACK_SRQ), 0);
}

/* Open @p d with @p devargs into @p e, with an MR of @p mr_len bytes (0: both there). */
static int
env_open(struct srq_env *e, struct e2e_dev *d, const char *devargs, uint64_t mr_len)
{
	memset(e, 0, sizeof(*e));
	e->d = d;
	if (e2e_dev_open(d, devargs) != 0)
		return -1;
	e2e_mr_reg(d, NULL, &e->m, mr_len, E2E_ACC_ALL);
	return e->m.mr != NULL ? 0 : -1;
}

/* @p n RC pairs a[i] -> b[i] on @p e's SRQ (all senders first), connected when @p connect. */
static int
env_pairs(struct srq_env *e, unsigned int n, bool connect)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		e2e_qp_create(e->d, &e->a[i], RDMADEV_QPT_RC, NULL);
	for (i = 0; i < n; i++)
		qp_on_srq(e->d, &e->b[i], RDMADEV_QPT_RC, e->srq);
	for (i = 0; i < n; i++)
		if (e->a[i].qp == NULL || e->b[i].qp == NULL)
			return -1;
	for (i = 0; i < n && connect; i++)
		if (e2e_rc_connect(&e->a[i], &e->b[i], NULL) != 0)
			return -1;
	return 0;
}

/* env_open() with an MR of MR_LEN, an SRQ of @p max_wr WRs of @p max_sge SGEs (no limit) and
 * @p npairs connected pairs on it. */
static int
env_up(struct srq_env *e, struct e2e_dev *d, const char *devargs, uint32_t max_wr,
       uint32_t max_sge, unsigned int npairs)
{
	if (env_open(e, d, devargs, MR_LEN) != 0 || srq_make(d, max_wr, max_sge, 0, &e->srq) != 0)
		return -1;
	return env_pairs(e, npairs, true);
}

/*
 * Undo env_open() and env_pairs() (any part of them): receivers, senders, the SRQ (nothing
 * of either kind is left then), the MR, the tap port; close the device.
 */
static void
env_close(struct srq_env *e)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(e->b); i++)
		e2e_qp_destroy(&e->b[i]);
	for (i = 0; i < RTE_DIM(e->a); i++)
		e2e_qp_destroy(&e->a[i]);
	if (e->srq != NULL)
		TEST_CHECK_EQ(rdmadev_srq_destroy(e->srq), 0);
	if (e->d->id >= 0) {
		TEST_CHECK_EQ(restrack_of(e->d, RESTRACK_SRQ), 0);
		TEST_CHECK_EQ(restrack_of(e->d, RESTRACK_QP), 0);
	}
	e2e_mr_dereg(&e->m);
	model_port_detach(e->tap);
	e2e_dev_close(e->d);
}

/* Events of @p type for object @p id among those pending now (processed, then counted). */
static unsigned int
events_of(struct e2e_dev *d, enum rdmadev_event_type type, uint32_t id)
{
	struct rdmadev_event ev[16];
	unsigned int found = 0;
	int n, i;

	e2e_collect();
	do {
		n = rdmadev_event_poll(d->id, ev, RTE_DIM(ev));
		for (i = 0; i < n; i++)
			if (ev[i].type == type && ev[i].obj_id == id)
				found++;
	} while (n == (int)RTE_DIM(ev));
	return found;
}

/* The SRQ WQE layout and the shadow head, decoded by hand (doc/hardware.md §1.4, §2). */
static void
test_srq_wqe_encoding(void)
{
	static struct e2e_dev d;
	struct rdmadev_sge sg[3];
	struct srq_env e;
	struct irdma_srq *s;
	unsigned int n, k;

	if (env_open(&e, &d, SRQ_DEVARGS("srqwqe"), MR_LEN) != 0 ||
	    srq_make(&d, 16, 3, 0, &e.srq) != 0)
		goto out;
	s = drv_srq(e.srq);
	/* 3 SGEs: 64-byte WQEs (shift 1); 16 WRs + 1 -> 64 quanta, 32 WQEs */
	TEST_CHECK_EQ(s->shift, 1);
	TEST_CHECK_EQ(s->size, 32);
	TEST_CHECK_EQ(e.srq->attr.max_wr, 31);
	for (k = 0; k < 3; k++)
		sg[k] = e2e_sge(&e.m, 4096 * k + 8 * k, 100 + k);
	for (n = 1; n <= 3; n++) {
		const uint8_t *w = s->base + (size_t)(n - 1) * 64;
		uint64_t wr_id = UINT64_C(0xfeed000000000000) | n;
		uint64_t h, f1;
		/* gen3: an even fragment count gets a NULL pad that ADDFRAGCNT does not count */
		unsigned int pad = n % 2 == 0 ? 1 : 0;

		TEST_CHECK(srq_recv(e.srq, wr_id, sg, (uint16_t)n));
		h = qw(w, 3);
		TEST_CHECK_EQ(test_bits(h, 63, 63), 1);		/* first pass: valid = 1 */
		TEST_CHECK_EQ(test_bits(h, 41, 38), n - 1);		/* ADDFRAGCNT */
		TEST_CHECK_EQ(qw(w, 2), wr_id);			/* SRQ: qword 2 = wr_id */
		TEST_CHECK_EQ(qw(w, 0), sg[0].addr);
		f1 = qw(w, 1);
		TEST_CHECK_EQ(test_bits(f1, 31, 0), sg[0].lkey);
		TEST_CHECK_EQ(test_bits(f1, 62, 32), sg[0].length);
		TEST_CHECK_EQ(test_bits(f1, 63, 63), 1);
		for (k = 1; k < n + pad; k++) {
			const uint8_t *f = w + 32 + 16 * (k - 1);
			uint64_t fq1 = qw(f, 1);

			TEST_CHECK_EQ(test_bits(fq1, 63, 63), 1);
			if (k < n) {
				TEST_CHECK_EQ(qw(f, 0), sg[k].addr);
				TEST_CHECK_EQ(test_bits(fq1, 31, 0), sg[k].lkey);
				TEST_CHECK_EQ(test_bits(fq1, 62, 32), sg[k].length);
			} else {
				TEST_CHECK_EQ(qw(f, 0), 0);
				TEST_CHECK_EQ(test_bits(fq1, 62, 0), 0);
			}
		}
		/* the shadow head: (index of the last WQE + 1) % size */
		TEST_CHECK_EQ(qw(s->shadow, 0), n % s->size);
	}
	/* too many SGEs: refused, nothing written */
	{
		struct rdmadev_sge four[4] = { sg[0], sg[1], sg[2], sg[0] };
		struct rdmadev_recv_wr wr = { .wr_id = 9, .sg_list = four, .num_sge = 4 };
		int err = 0;

		TEST_CHECK_EQ(rdmadev_post_srq_recv(e.srq, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		TEST_CHECK_EQ(qw(s->shadow, 0), 3);
	}
	/* full: max_wr outstanding, the next is refused */
	for (n = 3; n < e.srq->attr.max_wr; n++)
		TEST_CHECK(srq_recv(e.srq, n, sg, 1));
	{
		struct rdmadev_recv_wr wr = { .wr_id = 99, .sg_list = sg, .num_sge = 1 };
		int err = 0;

		TEST_CHECK_EQ(rdmadev_post_srq_recv(e.srq, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -ENOMEM);
	}
	TEST_CHECK_EQ(restrack_of(&d, RESTRACK_SRQ), 1);
	/* the SRQ holds its PD */
	TEST_CHECK_EQ(rdmadev_pd_free(d.pd), -EBUSY);
	env_srq_destroy(&e);
out:
	env_close(&e);
}

/*
 * One receive through the SRQ: the completion and the bytes (after the 40-byte GRH area,
 * holding the IPv4 header in its last 20 bytes, on UD: @p grh).
 */
static void
expect_recv(struct e2e_dev *d, const struct e2e_mr *m, uint64_t wr_id, uint32_t qpn,
	    uint32_t len, uint64_t src_off, uint64_t dst_off, bool grh)
{
	uint32_t g = grh ? 40 : 0;
	struct rdmadev_wc wc;

	TEST_CHECK(e2e_next(&d->rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, wr_id);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(wc.qp_num, qpn);
	TEST_CHECK_EQ(wc.byte_len, g + len);
	TEST_CHECK_EQ(!!(wc.wc_flags & RDMADEV_WC_GRH), grh);
	if (grh) {
		TEST_CHECK_EQ(m->buf[dst_off + 20], 0x45);
		TEST_CHECK_EQ(m->buf[dst_off + 29], 17);
	}
	TEST_CHECK(memcmp(m->buf + dst_off + g, m->buf + src_off, len) == 0);
}

/* Post @p n receives of 1 KB to @p e's SRQ: wr_ids @p first + i, at 16 KB + i KB of the MR. */
static void
post_kb_recvs(struct srq_env *e, uint64_t first, uint32_t n)
{
	struct rdmadev_sge r;
	uint32_t i;

	for (i = 0; i < n; i++) {
		r = e2e_sge(&e->m, 16384 + 1024 * i, 1024);
		TEST_CHECK(srq_recv(e->srq, first + i, &r, 1));
	}
}

/*
 * A SEND of @p len bytes at @p src_off of the MR from a[@p k] (wr_id @p id), into b[@p k]
 * through the SRQ WQE @p recv_id at @p dst_off: the sender's completion, then expect_recv().
 */
static void
send_through(struct srq_env *e, unsigned int k, uint64_t id, uint64_t src_off, uint32_t len,
	     uint64_t recv_id, uint64_t dst_off)
{
	struct rdmadev_sge snd = e2e_sge(&e->m, src_off, len);

	TEST_CHECK(send_one(&e->a[k], id, &snd, NULL, 0));
	e2e_expect(&e->d->scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	expect_recv(e->d, &e->m, recv_id, e->b[k].qpn, len, src_off, dst_off, false);
}

/*
 * Two RC QPs and a UD QP share one SRQ: each SEND takes the SRQ's next WQE, whatever QP it
 * arrives on; over several passes of a small ring (polarity flips at each wrap).
 */
static void
test_srq_shared(void)
{
	static struct e2e_dev d;
	struct e2e_qp ua = { 0 }, ub = { 0 };
	struct srq_env e;
	struct e2e_qp *senders[3] = { &e.a[0], &e.a[1], &ua };
	struct e2e_qp *receivers[3] = { &e.b[0], &e.b[1], &ub };
	struct rdmadev_ah *ah = NULL;
	struct irdma_srq *s;
	uint32_t i, posted = 0, got = 0;

	if (env_up(&e, &d, SRQ_DEVARGS("srqshared"), 8, 1, 2) != 0)
		goto out;
	s = drv_srq(e.srq);
	TEST_CHECK_EQ(s->size, 16);
	/* and a UD pair: ua -> ub on the SRQ */
	if (e2e_qp_create(&d, &ua, RDMADEV_QPT_UD, NULL) != 0 ||
	    qp_on_srq(&d, &ub, RDMADEV_QPT_UD, e.srq) != 0 || e2e_ud_up(&ua, UD_QKEY) != 0 ||
	    e2e_ud_up(&ub, UD_QKEY) != 0 || ah_to_self(&d, &ah) != 0)
		goto out;
	TEST_CHECK_EQ(restrack_of(&d, RESTRACK_SRQ), 1);
	TEST_CHECK_EQ(__atomic_load_n(&e.srq->obj.users, __ATOMIC_RELAXED), 3);
	/* post_recv on a QP of an SRQ: it has no RQ (with and without an SGE: -EINVAL) */
	{
		struct rdmadev_sge r = e2e_sge(&e.m, 32768, 64);
		struct rdmadev_recv_wr wr = { .wr_id = 1, .sg_list = &r, .num_sge = 1 };
		int err = 0;

		TEST_CHECK_EQ(rdmadev_post_recv(e.b[0].qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		wr.num_sge = 0;
		err = 0;
		TEST_CHECK_EQ(rdmadev_post_recv(e.b[0].qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
	}
	e2e_fill(e.m.buf, 3 * RECV_LEN, 77);
	/* 40 messages over a 16-WQE ring: 2.5 passes, 8 receives posted ahead at most */
	for (i = 0; i < 40; i++) {
		uint32_t who = i % 3, len = 100 + 37 * i;
		struct rdmadev_sge snd = e2e_sge(&e.m, who * RECV_LEN, len % (RECV_LEN - 40));
		uint32_t slot;

		while (posted < got + 8) {
			struct rdmadev_sge r;

			slot = posted % 8;
			r = e2e_sge(&e.m, 16384 + slot * RECV_LEN, RECV_LEN);
			TEST_CHECK(srq_recv(e.srq, 1000 + posted, &r, 1));
			posted++;
		}
		TEST_CHECK(send_one(senders[who], i, &snd, who == 2 ? ah : NULL, ub.qpn));
		e2e_expect(&d.scq, i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		expect_recv(&d, &e.m, 1000 + got, receivers[who]->qpn, len % (RECV_LEN - 40),
			    who * RECV_LEN, 16384 + (got % 8) * RECV_LEN, who == 2);
		got++;
	}
	/*
	 * 47 WQEs over a 16-WQE ring of 32-byte WQEs: passes 1, 2, 3 write valid 1, 0, 1.
	 * WQE 14 was last written by post 46 (pass 3), WQE 15 by post 31 (pass 2).
	 */
	TEST_CHECK_EQ(posted, 47);
	TEST_CHECK_EQ(s->polarity, 1);
	TEST_CHECK_EQ(test_bits(qw(s->base + 14 * 32, 3), 63, 63), 1);
	TEST_CHECK_EQ(test_bits(qw(s->base + 15 * 32, 3), 63, 63), 0);
	TEST_CHECK_EQ(qw(s->base + 15 * 32, 2), 1000 + 31);
	TEST_CHECK_EQ(qw(s->shadow, 0), 47 % 16);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 50), 0);
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
out:
	e2e_qp_destroy(&ub);
	e2e_qp_destroy(&ua);
	env_close(&e);
}

/* SRQ WQEs of 1, 2 and 3 SGEs (gen3 pad rule): a SEND scattered across them in order. */
static void
test_srq_sges(void)
{
	static struct e2e_dev d;
	struct rdmadev_sge snd, r[3];
	struct rdmadev_wc wc;
	struct srq_env e;
	uint32_t n, k, off, lens[3] = { 100, 250, 4000 };

	if (env_up(&e, &d, SRQ_DEVARGS("srqsge"), 16, 3, 1) != 0)
		goto out;
	e2e_fill(e.m.buf, 8192, 31);
	for (n = 1; n <= 3; n++) {
		uint32_t len = 0;

		memset(e.m.buf + 16384, 0, 32768);
		for (k = 0; k < n; k++) {
			/* pieces apart from each other, so a wrong placement shows */
			r[k] = e2e_sge(&e.m, 16384 + 10000 * k + 8 * n, lens[k]);
			len += lens[k];
		}
		len -= 50;	/* the last piece is not filled to its end */
		TEST_CHECK(srq_recv(e.srq, 40 + n, r, (uint16_t)n));
		snd = e2e_sge(&e.m, 0, len);
		TEST_CHECK(send_one(&e.a[0], n, &snd, NULL, 0));
		e2e_expect(&d.scq, n, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&d.rcq, &wc));
		TEST_CHECK_EQ(wc.wr_id, 40 + n);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK_EQ(wc.qp_num, e.b[0].qpn);
		TEST_CHECK_EQ(wc.byte_len, len);
		for (k = 0, off = 0; k < n; off += lens[k], k++) {
			uint32_t piece = RTE_MIN(lens[k], len - off);

			TEST_CHECK(memcmp(e.m.buf + 16384 + 10000 * k + 8 * n, e.m.buf + off,
					  piece) == 0);
		}
		/* nothing after the message's end in the last piece */
		TEST_CHECK_EQ(e.m.buf[16384 + 10000 * (n - 1) + 8 * n + lens[n - 1] - 50], 0);
	}
out:
	env_close(&e);
}

/* The limit: armed by modify, one event when fewer WQEs than the limit are posted. */
static void
test_srq_limit(void)
{
	static struct e2e_dev d;
	struct rdmadev_srq_attr q, arm = { .srq_limit = 6 };
	struct rdmadev_sge snd, r;
	struct srq_env e;
	uint32_t i, sid;

	if (env_up(&e, &d, SRQ_DEVARGS("srqlimit"), 16, 1, 1) != 0)
		goto out;
	sid = rdmadev_obj_id(&e.srq->obj);
	TEST_CHECK_EQ(rdmadev_srq_query(e.srq, &q), 0);
	TEST_CHECK_EQ(q.srq_limit, 0);
	TEST_CHECK_EQ(q.max_wr, e.srq->attr.max_wr);
	/* bad modifies */
	TEST_CHECK_EQ(rdmadev_srq_modify(e.srq, &arm, 0x100), -EINVAL);
	TEST_CHECK_EQ(rdmadev_srq_modify(e.srq, &arm, RDMADEV_SRQ_MAX_WR), -ENOTSUP);
	q.srq_limit = e.srq->attr.max_wr + 1;
	TEST_CHECK_EQ(rdmadev_srq_modify(e.srq, &q, RDMADEV_SRQ_LIMIT), -EINVAL);
	r = e2e_sge(&e.m, 16384, 512);
	for (i = 0; i < 10; i++)
		TEST_CHECK(srq_recv(e.srq, 500 + i, &r, 1));
	TEST_CHECK_EQ(rdmadev_srq_modify(e.srq, &arm, RDMADEV_SRQ_LIMIT), 0);
	TEST_CHECK_EQ(rdmadev_srq_query(e.srq, &q), 0);
	TEST_CHECK_EQ(q.srq_limit, 6);
	snd = e2e_sge(&e.m, 0, 64);
	for (i = 0; i < 10; i++) {
		TEST_CHECK(send_one(&e.a[0], i, &snd, NULL, 0));
		e2e_expect(&d.scq, i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		e2e_expect(&d.rcq, 500 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
		/* 10 - (i + 1) left: below 6 after the 5th receive, reported once */
		TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_SRQ_LIMIT, sid), i == 4 ? 1u : 0u);
	}
	TEST_CHECK_EQ(rdmadev_srq_query(e.srq, &q), 0);
	TEST_CHECK_EQ(q.srq_limit, 0);			/* disarmed by the event */
	/* armed again: fires again when it drops below */
	for (i = 0; i < 4; i++)
		TEST_CHECK(srq_recv(e.srq, 600 + i, &r, 1));
	arm.srq_limit = 3;
	TEST_CHECK_EQ(rdmadev_srq_modify(e.srq, &arm, RDMADEV_SRQ_LIMIT), 0);
	for (i = 0; i < 2; i++) {
		TEST_CHECK(send_one(&e.a[0], 20 + i, &snd, NULL, 0));
		e2e_expect(&d.scq, 20 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		e2e_expect(&d.rcq, 600 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_RECV);
		TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_SRQ_LIMIT, sid), i == 1 ? 1u : 0u);
	}
out:
	env_close(&e);
}

/*
 * A QP of an SRQ goes to ERR: LAST_WQE_REACHED, no flush of the SRQ's WQEs, which the other
 * QP then receives into. Destroying the SRQ while a QP uses it: -EBUSY.
 */
static void
test_srq_qp_error_and_busy(void)
{
	static struct e2e_dev d;
	struct rdmadev_sge r;
	struct srq_env e;
	uint32_t i;

	if (env_up(&e, &d, SRQ_DEVARGS("srqerr"), 16, 1, 2) != 0)
		goto out;
	e2e_fill(e.m.buf, 4096, 5);
	post_kb_recvs(&e, 700, 4);
	/* b[0] to ERR: its event, and no completion for the SRQ's WQEs */
	(void)events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[0].qpn);
	TEST_CHECK_EQ(e2e_qp_to(&e.b[0], RDMADEV_QPS_ERR), 0);
	TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[0].qpn), 1);
	TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[1].qpn), 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 100), 0);
	/* b[1] receives into all four, in order */
	for (i = 0; i < 4; i++)
		send_through(&e, 1, i, 100 * i, 200 + i, 700 + i, 16384 + 1024 * i);
	/* in use: -EBUSY, the SRQ stays usable and tracked */
	TEST_CHECK_EQ(rdmadev_srq_destroy(e.srq), -EBUSY);
	TEST_CHECK_EQ(restrack_of(&d, RESTRACK_SRQ), 1);
	r = e2e_sge(&e.m, 16384, 1024);
	TEST_CHECK(srq_recv(e.srq, 800, &r, 1));
	e2e_qp_destroy(&e.b[0]);
	TEST_CHECK_EQ(rdmadev_srq_destroy(e.srq), -EBUSY);
	e2e_qp_destroy(&e.b[1]);
	env_srq_destroy(&e);
out:
	env_close(&e);
}

/*
 * A SEND longer than the SRQ WQE it took fails the receiving QP: that WQE completes in error
 * with its wr_id (the only SRQ WQE flushed), the QP reports its error and LAST_WQE_REACHED
 * once, and the SRQ's next WQEs go to another QP.
 */
static void
test_srq_qp_fail(void)
{
	static struct e2e_dev d;
	struct rdmadev_sge snd;
	struct rdmadev_wc wc;
	struct srq_env e;
	uint32_t i;

	/* pairs a[0] -> b[0] and a[1] -> b[1] */
	if (env_up(&e, &d, SRQ_DEVARGS("srqfail"), 16, 1, 2) != 0)
		goto out;
	e2e_fill(e.m.buf, 8192, 9);
	post_kb_recvs(&e, 900, 3);
	(void)events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[0].qpn);
	snd = e2e_sge(&e.m, 0, 3000);
	TEST_CHECK(send_one(&e.a[0], 1, &snd, NULL, 0));
	TEST_CHECK(e2e_next(&d.rcq, &wc));
	TEST_CHECK_EQ(wc.wr_id, 900);
	TEST_CHECK_EQ(wc.qp_num, e.b[0].qpn);
	TEST_CHECK_EQ(wc.status, RDMADEV_WC_LOC_LEN_ERR);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 100), 0);
	TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[0].qpn), 1);
	TEST_CHECK_EQ(rdmadev_qp_get_state(e.b[0].qp), RDMADEV_QPS_ERR);
	/* already in ERR: moving it there again reports nothing more */
	TEST_CHECK_EQ(e2e_qp_to(&e.b[0], RDMADEV_QPS_ERR), 0);
	TEST_CHECK_EQ(events_of(&d, RDMADEV_EVENT_QP_LAST_WQE_REACHED, e.b[0].qpn), 0);
	/* the sender failed too (its request was refused): drop its completions */
	(void)e2e_idle(&d.scq, 100);
	d.scq.head = d.scq.tail;
	for (i = 1; i < 3; i++)
		send_through(&e, 1, 10 + i, 64 * i, 500 + i, 900 + i, 16384 + 1024 * i);
out:
	env_close(&e);
}

/*
 * Write an SRQ CQE at slot @p i of @p cq and its extension at i + 1 (first pass: valid 1),
 * with doc/hardware.md's positions (§3: SRQ bit 52 of qword 3, wr_id in qword 1, the QP's
 * context at byte 40), qword 3 last.
 */
static void
put_srq_cqe(struct irdma_cq *cq, uint32_t i, uint64_t wr_id, const void *qp, uint32_t len,
	    uint32_t major, uint32_t minor)
{
	uint8_t *c = cq->cur.base + (size_t)i * 32, *x = c + 32;

	test_le64_put(c, 0, test_bits_put(len, 31, 0));
	test_le64_put(c, 8, wr_id);
	test_le64_put(c, 16, test_bits_put(0x123, 55, 32));
	test_le64_put(x, 8, (uint64_t)(uintptr_t)qp);
	test_le64_put(x, 24, test_bits_put(1, 63, 63));
	test_le64_put(c, 24, test_bits_put(1, 63, 63) | test_bits_put(0x04, 61, 56) |
		      test_bits_put(1, 52, 52) | test_bits_put(1, 50, 50) |
		      test_bits_put(major != 0, 55, 55) | test_bits_put(major, 31, 16) |
		      test_bits_put(minor, 15, 0));
}

/* The driver's reading of SRQ CQEs, fed by hand: wr_id, QP, status, no flush replay. */
static void
test_srq_cqe_decode(void)
{
	struct rdmadev_wc wc[4];
	struct irdma_srq srq;
	struct irdma_qp qp;
	struct irdma_cq cq;
	struct irdma_hw hw;

	ukf_hw_init(&hw);
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 16);
	memset(&srq, 0, sizeof(srq));
	srq.size = 16;
	qp.srq = &srq;
	/* success */
	put_srq_cqe(&cq, 0, UINT64_C(0xabcdef0123456789), &qp, 777, 0, 0);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, UINT64_C(0xabcdef0123456789));
	TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc[0].opcode, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(wc[0].qp_num, qp.qp_id);
	TEST_CHECK_EQ(wc[0].byte_len, 777);
	TEST_CHECK_EQ(srq.done, 1);
	/* gen3's SRQ flush major: the minor is an AE code (UDA_XMIT_DGRAM_TOO_LONG: LOC_LEN) */
	put_srq_cqe(&cq, 2, 5, &qp, 0, 0xfffe, 0x0132);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 5);
	TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_LOC_LEN_ERR);
	TEST_CHECK_EQ(wc[0].vendor_err, 0xfffe0132u);
	TEST_CHECK_EQ(srq.done, 2);
	/* a flush (major 1): that WQE only, whatever else the QP's RQ holds */
	put_srq_cqe(&cq, 4, 6, &qp, 0, 1, 1);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 6);
	TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_WR_FLUSH_ERR);
	TEST_CHECK_EQ(srq.done, 3);
	/* a destroyed QP's (cleaned: context 0): consumed, nothing reported */
	put_srq_cqe(&cq, 6, 7, NULL, 10, 0, 0);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);
	TEST_CHECK_EQ(cq.cur.head, 8);
	TEST_CHECK_EQ(srq.done, 3);
	/* the extension not written yet: the CQE waits */
	put_srq_cqe(&cq, 8, 8, &qp, 10, 0, 0);
	test_le64_put(cq.cur.base + 9 * 32, 24, 0);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);
	TEST_CHECK_EQ(cq.cur.head, 8);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* A raw SRQ command naming SRQ id @p id, with @p s's ring, shadow area and PD. */
static void
raw_srq_wqe(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, const struct irdma_srq *s,
	    uint32_t id)
{
	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_SRQ_ID, id);
	irdma_set(w, CQP_SRQ_PD_ID, s->pd_id);
	irdma_set(w, CQP_SRQ_RQSIZE, irdma_encode_srq_size(s->size << s->shift));
	irdma_set(w, CQP_SRQ_RQ_WQE_SIZE, s->shift);
	irdma_set(w, CQP_SRQ_SHADOW_PA, s->shadow_mem.iova);
	if (s->pbl.virtual_map) {
		irdma_set(w, CQP_SRQ_VIRTMAP, 1);
		irdma_set(w, CQP_SRQ_LEAF_PBL_SIZE, 1);
		irdma_set(w, CQP_SRQ_FIRST_PBLIDX, s->pbl.ring_addr);
	} else {
		irdma_set(w, CQP_SRQ_PA, s->pbl.ring_addr);
	}
}

/* The minor code a refused raw command completed with (0: accepted). */
static uint16_t
raw_exec(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w)
{
	struct irdma_cqp_cmpl cmpl;
	int ret;

	memset(&cmpl, 0, sizeof(cmpl));
	ret = irdma_cqp_exec(c, w, &cmpl);
	if (ret == 0)
		return 0;
	TEST_CHECK_EQ(ret, -EIO);
	TEST_CHECK_EQ(cmpl.major, IRDMA_CQP_MAJ_ERROR);
	return cmpl.minor;
}

/* The model's checks of CREATE / MODIFY / DESTROY_SRQ, with raw CQP commands. */
static void
test_srq_cqp_checks(void)
{
	static struct e2e_dev d, d2;
	struct rdmadev_srq *srq = NULL;
	struct e2e_qp b = { 0 };
	struct irdma_cqp_wqe w;
	struct irdma_ctrl *c;
	struct irdma_srq *s;
	uint32_t last, sid;

	if (e2e_dev_open(&d, SRQ_DEVARGS("srqcqp")) != 0 || srq_make(&d, 16, 1, 0, &srq) != 0)
		goto out;
	c = irdma_dev_ctrl(rdmadev_get(d.id));
	s = drv_srq(srq);
	sid = rdmadev_obj_id(&srq->obj);
	last = IRDMA_DEV_DEF_SRQS - 1;	/* an id restrack will not hand out during the test */
	/* beyond the committed object-2 count */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, IRDMA_DEV_DEF_SRQS);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_ID);
	/* a reserved PD id */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
	irdma_set(&w, CQP_SRQ_PD_ID, 1);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_ID);
	/* 8 quanta of 256-byte WQEs: one WQE */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
	irdma_set(&w, CQP_SRQ_RQSIZE, 0);
	irdma_set(&w, CQP_SRQ_RQ_WQE_SIZE, 3);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_SIZE);
	/* a shadow area off its 64-byte alignment */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
	irdma_set(&w, CQP_SRQ_SHADOW_PA, s->shadow_mem.iova + 8);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_ALIGN);
	/* a ring off its 256-byte alignment (level 0) */
	if (!s->pbl.virtual_map) {
		raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
		irdma_set(&w, CQP_SRQ_PA, s->pbl.ring_addr + 32);
		TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_ALIGN);
	}
	/* a limit of as many WQEs as the ring has */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
	irdma_set(&w, CQP_SRQ_LIMIT, s->size);
	irdma_set(&w, CQP_SRQ_ARM_LIMIT_EVENT, 1);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_FIELD);
	/* modify / destroy of an SRQ that does not exist */
	raw_srq_wqe(&w, IRDMA_CQP_OP_MODIFY_SRQ, s, last);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_NO_OBJ);
	raw_srq_wqe(&w, IRDMA_CQP_OP_DESTROY_SRQ, s, last);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_NO_OBJ);
	/* a second create of a live id */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, sid);
	TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_OBJ_EXISTS);
	/* accepted at the last id, then destroyed */
	raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, last);
	TEST_CHECK_EQ(raw_exec(c, &w), 0);
	raw_srq_wqe(&w, IRDMA_CQP_OP_DESTROY_SRQ, s, last);
	TEST_CHECK_EQ(raw_exec(c, &w), 0);
	/* a QP names the SRQ: the device refuses its destroy too (under rdmadev's -EBUSY) */
	if (qp_on_srq(&d, &b, RDMADEV_QPT_UD, srq) == 0) {
		raw_srq_wqe(&w, IRDMA_CQP_OP_DESTROY_SRQ, s, sid);
		TEST_CHECK_EQ(raw_exec(c, &w), IRDMA_MODEL_MIN_BAD_STATE);
		e2e_qp_destroy(&b);
	}
	/* gen2: the SRQ opcodes do not exist */
	if (e2e_dev_open(&d2, E2E_DEVARGS(1, "loop:srqcqp2")) == 0) {
		raw_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s, 1);
		TEST_CHECK_EQ(raw_exec(irdma_dev_ctrl(rdmadev_get(d2.id)), &w),
			      IRDMA_MODEL_MIN_BAD_OPCODE);
	}
	e2e_dev_close(&d2);
out:
	if (srq != NULL)
		TEST_CHECK_EQ(rdmadev_srq_destroy(srq), 0);
	e2e_dev_close(&d);
}

/* Gen2 has no SRQ: no capability, create refused with -ENOTSUP; gen3 advertises it. */
static void
test_gen2_refuses(void)
{
	struct rdmadev_srq_attr a = { .max_wr = 16, .max_sge = 1 };
	static struct e2e_dev d2, d3;
	struct rdmadev_srq *srq = NULL;
	struct rdmadev_info info;

	if (e2e_dev_open(&d2, E2E_DEVARGS(1, "loop:srqgen2")) == 0) {
		TEST_CHECK_EQ(rdmadev_info_get(d2.id, &info), 0);
		TEST_CHECK_EQ(info.capa & RDMADEV_CAPA_SRQ, 0);
		TEST_CHECK_EQ(info.max_srq, 0);
		TEST_CHECK_EQ(rdmadev_srq_create(d2.pd, &a, &srq), -ENOTSUP);
		TEST_CHECK(srq == NULL);
		TEST_CHECK_EQ(restrack_of(&d2, RESTRACK_SRQ), 0);
	}
	e2e_dev_close(&d2);
	if (e2e_dev_open(&d3, SRQ_DEVARGS("srqgen3")) == 0) {
		TEST_CHECK_EQ(rdmadev_info_get(d3.id, &info), 0);
		TEST_CHECK(info.capa & RDMADEV_CAPA_SRQ);
		TEST_CHECK(info.max_srq > 0);
		TEST_CHECK_EQ(info.max_srq_wr, 32767);
		a.max_wr = info.max_srq_wr + 1;
		TEST_CHECK_EQ(rdmadev_srq_create(d3.pd, &a, &srq), -EINVAL);
		TEST_CHECK_EQ(restrack_of(&d3, RESTRACK_SRQ), 0);
	}
	e2e_dev_close(&d3);
}

/*
 * The largest SRQ (max_srq_wr WRs of 13 SGEs: 256-byte WQEs, a ring of 262144 quanta) end to
 * end past quantum 32768, which the CQE's 15-bit WQE index cannot name: the PMD takes an SRQ
 * completion's wr_id from CQE qword 1 (as the kernel and rdma-core do), never from the index,
 * so WQE 4096 (quantum 32768) and the ones after it complete with their own wr_ids and data.
 */
static void
test_srq_max_size(void)
{
	static struct e2e_dev d;
	struct rdmadev_srq_attr sa;
	struct rdmadev *dev;
	struct srq_env e;
	uint32_t i;

	if (env_open(&e, &d, SRQ_DEVARGS("srqmax"), MR_LEN) != 0)
		goto out;
	dev = rdmadev_get(d.id);
	if (srq_make(&d, dev->info.max_srq_wr, dev->info.max_sge, 0, &e.srq) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_srq_query(e.srq, &sa), 0);
	TEST_CHECK_EQ(sa.max_wr, 32767);
	TEST_CHECK_EQ(drv_srq(e.srq)->size << drv_srq(e.srq)->shift, 262144);
	if (env_pairs(&e, 1, true) != 0)
		goto out;
	e2e_fill(e.m.buf, 4096, 99);
	/* bursts of 50; WQE i at quantum 8 i: 4096 is quantum 32768, 4299 is 34392 */
	for (i = 0; i < 4300; i += 50) {
		uint32_t k;

		for (k = i; k < i + 50; k++) {
			struct rdmadev_sge r = e2e_sge(&e.m, 8192 + (k % 64) * 64, 64);

			memset(e.m.buf + 8192 + (k % 64) * 64, 0, 64);
			TEST_CHECK(srq_recv(e.srq, 1000000 + k, &r, 1));
		}
		for (k = i; k < i + 50; k++) {
			struct rdmadev_sge snd = e2e_sge(&e.m, k % 4000, 1 + k % 61);

			TEST_CHECK(send_one(&e.a[0], k, &snd, NULL, 0));
		}
		for (k = i; k < i + 50; k++)
			e2e_expect(&d.scq, k, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		for (k = i; k < i + 50; k++)
			expect_recv(&d, &e.m, 1000000 + k, e.b[0].qpn, 1 + k % 61, k % 4000,
				    8192 + (k % 64) * 64, false);
		if (test_case_failures > 0)
			break;
	}
	TEST_CHECK_EQ(i, 4300);
	TEST_CHECK_EQ(drv_srq(e.srq)->done, 4300);
	/*
	 * The last SRQ CQE (two slots before the receive CQ's head), decoded by hand: qword 1 =
	 * WQE 4299's wr_id, SRQ bit 52 set, WQEIDX (qword 3 bits 46:32) only the low 15 bits
	 * of its quantum 4299 * 8 = 34392.
	 */
	{
		const struct irdma_cq *cq = d.rcq.cq->obj.fp.drv;
		uint32_t at = (cq->cur.head + cq->cur.size - 2) % cq->cur.size;
		const uint8_t *cqe = cq->cur.base + (size_t)at * 32;

		TEST_CHECK_EQ(qw(cqe, 1), 1000000 + 4299);
		TEST_CHECK_EQ(test_bits(qw(cqe, 3), 52, 52), 1);
		TEST_CHECK_EQ(test_bits(qw(cqe, 3), 46, 32), (4299u * 8) & 0x7fffu);
	}
out:
	env_close(&e);
}

/* The next frame the tap port @p tap receives, into @p f (bounded wait; 0: none). */
static int
tap_recv(struct model_port *tap, uint8_t *f)
{
	uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	int n;

	while (rte_get_timer_cycles() < deadline) {
		n = model_port_recv(tap, f, MODEL_PKT_MAX);
		if (n != 0)
			return n;
		e2e_collect();
	}
	return 0;
}

/*
 * Collect until device @p d has received more than @p base RoCEv2 datagrams (bounded), then
 * take the model's lock once (a QP query), so that what its engine wrote while receiving
 * them is visible to this thread (a threaded model writes receive buffers on its own).
 */
static bool
wait_received(struct e2e_dev *d, uint64_t base, uint32_t qpn)
{
	uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	struct irdma_model_qp_info qi;

	while (E2E_STAT(d, udp_in_datagrams) <= base) {
		if (rte_get_timer_cycles() > deadline)
			return false;
		e2e_collect();
	}
	return irdma_model_qp_get(irdma_dev_hw(rdmadev_get(d->id)), qpn, &qi) == 0;
}

/*
 * A QP of an SRQ destroyed in the middle of a message, straight from RTS: the SRQ WQE its
 * first packet took comes back (the driver takes the QP through ERROR first, as the kernel
 * does, and the flush CQE is counted when the CQ is cleaned), so afterwards the SRQ holds
 * max_wr WRs again and another QP receives into every one of them. The first packet is
 * delivered alone by a tap port the sender's path points at (the rest never arrive).
 */
static void
test_srq_destroy_mid_message(void)
{
	static const uint8_t tap_mac[6] = { 0x02, 0x00, 0x5e, 0x00, 0x77, 0x01 };
	static struct e2e_dev d, via_tap;
	struct rdmadev_srq_attr sa;
	struct rdmadev_sge snd, r;
	struct model_pkt_hdr h;
	uint8_t f[MODEL_PKT_MAX];
	struct e2e_qp b_tap;
	struct srq_env e;
	uint32_t i, max_wr;
	uint64_t rx0;
	int n;

	/* pairs a[0] -> b[0] (through the tap) and a[1] -> b[1] */
	if (env_open(&e, &d, SRQ_DEVARGS("srqmid"), MID_MR_LEN) != 0)
		goto out;
	TEST_CHECK_EQ(model_port_attach("loop:srqmid", tap_mac, d.gid, &e.tap), 0);
	if (e.tap == NULL || srq_make(&d, 16, 1, 0, &e.srq) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_srq_query(e.srq, &sa), 0);
	max_wr = sa.max_wr;
	TEST_CHECK(max_wr >= 16 && 16384 + (uint64_t)(max_wr + 1) * RECV_LEN * 4 <= MID_MR_LEN);
	if (16384 + (uint64_t)(max_wr + 1) * RECV_LEN * 4 > MID_MR_LEN)
		goto out;
	if (env_pairs(&e, 2, false) != 0)
		goto out;
	/* a[0]'s path to b[0] goes to the tap (the path back is direct) */
	memcpy(via_tap.gid, d.gid, sizeof(via_tap.gid));
	memcpy(via_tap.mac, tap_mac, sizeof(via_tap.mac));
	b_tap = e.b[0];
	b_tap.dev = &via_tap;
	if (e2e_rc_connect(&e.a[0], &b_tap, NULL) != 0 ||
	    e2e_rc_connect(&e.a[1], &e.b[1], NULL) != 0)
		goto out;
	/* the SRQ full: max_wr receives of 4 KB */
	for (i = 0; i < max_wr; i++) {
		r = e2e_sge(&e.m, 16384 + (uint64_t)i * 4 * RECV_LEN, 4 * RECV_LEN);
		TEST_CHECK(srq_recv(e.srq, 900 + i, &r, 1));
	}
	r = e2e_sge(&e.m, 16384, RECV_LEN);
	TEST_CHECK(!srq_recv(e.srq, 1, &r, 1));
	/* a 3-packet SEND (MTU 1024): only its first packet reaches b[0] */
	e2e_fill(e.m.buf, 3 * RECV_LEN, 41);
	memset(e.m.buf + 16384, 0, 4 * RECV_LEN);
	snd = e2e_sge(&e.m, 0, 3 * RECV_LEN);
	TEST_CHECK(send_one(&e.a[0], 1, &snd, NULL, 0));
	n = tap_recv(e.tap, f);
	TEST_CHECK(n > 0);
	if (n <= 0)
		goto out;
	TEST_CHECK_EQ(model_pkt_parse(f, (uint32_t)n, &h, NULL, NULL), 0);
	TEST_CHECK_EQ(h.opcode, MODEL_RC_SEND_FIRST);
	TEST_CHECK_EQ(h.dqpn, e.b[0].qpn);
	memcpy(f, d.mac, 6);	/* to the device; the ICRC does not cover the MACs */
	rx0 = E2E_STAT(&d, udp_in_datagrams);
	TEST_CHECK_EQ(model_port_send(e.tap, f, (uint32_t)n), 0);
	/* the first KB landed in b[0]'s SRQ WQE; the message is not complete */
	TEST_CHECK(wait_received(&d, rx0, e.b[0].qpn));
	TEST_CHECK(memcmp(e.m.buf + 16384, e.m.buf, RECV_LEN) == 0);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 20), 0);
	/* the sender goes (its SEND is never answered), then b[0], from RTS, mid-message */
	e2e_qp_destroy(&e.a[0]);
	e2e_qp_destroy(&e.b[0]);
	TEST_CHECK_EQ(drv_srq(e.srq)->posted - __atomic_load_n(&drv_srq(e.srq)->done,
								__ATOMIC_ACQUIRE), max_wr - 1);
	/* one slot came back: the SRQ takes exactly one more WR */
	r = e2e_sge(&e.m, 16384 + (uint64_t)max_wr * 4 * RECV_LEN, 4 * RECV_LEN);
	TEST_CHECK(srq_recv(e.srq, 900 + max_wr, &r, 1));
	TEST_CHECK(!srq_recv(e.srq, 2, &r, 1));
	/* b[1] receives into every one: WQEs 1 .. max_wr, in order (WQE 0 went with b[0]) */
	for (i = 1; i <= max_wr; i++)
		send_through(&e, 1, 10 + i, 100 + i, 200 + i, 900 + i,
			     16384 + (uint64_t)i * 4 * RECV_LEN);
	TEST_CHECK_EQ(e2e_idle(&d.rcq, 20), 0);
	/* and the SRQ is full again */
	TEST_CHECK_EQ(drv_srq(e.srq)->posted - __atomic_load_n(&drv_srq(e.srq)->done,
								__ATOMIC_ACQUIRE), 0);
	for (i = 0; i < max_wr; i++) {
		r = e2e_sge(&e.m, 16384 + (uint64_t)i * 4 * RECV_LEN, 4 * RECV_LEN);
		TEST_CHECK(srq_recv(e.srq, 5000 + i, &r, 1));
	}
	TEST_CHECK(!srq_recv(e.srq, 3, &r, 1));
out:
	env_close(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_irdma_srq", NULL) < 0)
		return test_eal_bail();
	TEST_RUN(test_srq_wqe_encoding);
	TEST_RUN(test_srq_cqe_decode);
	TEST_RUN(test_srq_shared);
	TEST_RUN(test_srq_sges);
	TEST_RUN(test_srq_limit);
	TEST_RUN(test_srq_qp_error_and_busy);
	TEST_RUN(test_srq_qp_fail);
	TEST_RUN(test_srq_destroy_mid_message);
	TEST_RUN(test_srq_max_size);
	TEST_RUN(test_srq_cqp_checks);
	TEST_RUN(test_gen2_refuses);
	rte_eal_cleanup();
	return test_done();
}
