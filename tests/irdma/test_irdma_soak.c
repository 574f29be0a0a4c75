/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Soak of the data path on the model: random mixes of WRITE, WRITE_IMM, SEND, SEND_IMM and
 * READ of 0 .. 64 KiB over several RC QP pairs between two devices on one loop switch, in
 * random bursts with random shares of unsignaled WRs. Every message's bytes derive from the
 * run's seed and the message's sequence number and are checked at the target; every
 * completion is matched against the WR it must belong to (order, status, opcode, length,
 * immediate), so a missing, extra or wrong completion fails the run.
 *
 *   test_irdma_soak [--ops N] [--time SECONDS] [--seed S] [--pairs P]
 *
 * --time bounds the run (it stops after the round in which the bound passed, and says so).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>

#include "test.h"
#include "e2e_lib.h"

#define MAX_PAIRS	8u
#define MAX_BURST	16u
#define SLOT		(64u * 1024u)	/* one message's room; also the largest size */

/* One WR of the current round. */
struct op {
	uint8_t opcode;		/* enum rdmadev_wr_opcode */
	bool signaled;
	uint32_t len;
	uint64_t seq;
};

/* A QP pair: a on device 0 sends into b on device 1. */
struct pair {
	struct e2e_qp a, b;
	struct e2e_mr src;	/* at a: two halves of MAX_BURST slots */
	struct e2e_mr dst;	/* at b: two halves of MAX_BURST slots */
	struct op ops[MAX_BURST];
	unsigned int n;
	/*
	 * The half the current burst uses; bursts alternate. A READ request the requester
	 * retransmitted may be executed again by the responder after the READ completed (legal:
	 * the requester drops the duplicate response), so the next burst must not refill the
	 * memory it reads. Two bursts on, the responder has answered later requests, so it is
	 * done with it (and TSan sees that through the completions).
	 */
	unsigned int half;
	unsigned int sq_next;	/* next signaled op expected on the send CQ */
	unsigned int rq_next;	/* next receiving op expected on the receive CQ */
};

static struct e2e_dev d0, d1;
static uint64_t nops = 200000;
static double tmax;
static unsigned int np = 4;
static struct pair pairs[MAX_PAIRS];
static uint64_t seed = 1;
static uint64_t mismatches, bad_wcs;
static uint64_t nb_ops[RDMADEV_WR_OPCODE_MAX], nb_bytes, nb_sq_wcs, nb_rq_wcs;

/* The bytes of message @p seq: 64-bit xorshift words from the seed and the number. */
static void
pat_fill(uint8_t *p, uint32_t n, uint64_t seq)
{
	uint64_t s = (seed ^ (seq * UINT64_C(0x9e3779b97f4a7c15))) | 1;
	uint32_t i;

	for (i = 0; i < n; i += 8) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		memcpy(p + i, &s, RTE_MIN(8u, n - i));
	}
}

static bool
pat_check(const uint8_t *p, uint32_t n, uint64_t seq)
{
	static uint8_t want[SLOT];

	pat_fill(want, n, seq);
	return memcmp(p, want, n) == 0;
}

static bool
receives(uint8_t opcode)
{
	return opcode == RDMADEV_WR_SEND || opcode == RDMADEV_WR_SEND_IMM ||
	       opcode == RDMADEV_WR_RDMA_WRITE_IMM;
}

/* Sizes 0 .. 64 KiB, most of them small (log-uniform). */
static uint32_t
rand_len(uint64_t *r)
{
	unsigned int bits = (unsigned int)(e2e_rand(r) % 17);

	return (uint32_t)(e2e_rand(r) % ((1u << bits) + 1));
}

/* Post one random burst of at most @p cap WRs on pair @p p, sequence numbers from @p seq. */
static void
post_burst(struct pair *p, unsigned int pi, uint64_t *r, uint64_t *seq, uint64_t cap)
{
	static const uint8_t mix[] = { RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_RDMA_WRITE_IMM,
				       RDMADEV_WR_SEND, RDMADEV_WR_SEND_IMM,
				       RDMADEV_WR_RDMA_READ };
	struct rdmadev_send_wr wrs[MAX_BURST];
	struct rdmadev_recv_wr rwrs[MAX_BURST];
	struct rdmadev_sge s[MAX_BURST], rs[MAX_BURST];
	unsigned int i, nr = 0, unsig = (unsigned int)(e2e_rand(r) % 4);
	int err = 0;

	p->n = 1 + (unsigned int)(e2e_rand(r) % MAX_BURST);
	if (p->n > cap)
		p->n = (unsigned int)cap;
	p->sq_next = 0;
	p->rq_next = 0;
	p->half ^= 1;
	memset(wrs, 0, sizeof(wrs));
	memset(rwrs, 0, sizeof(rwrs));
	for (i = 0; i < p->n; i++) {
		struct op *o = &p->ops[i];
		uint64_t so = ((uint64_t)p->half * MAX_BURST + i) * SLOT;

		o->opcode = mix[e2e_rand(r) % RTE_DIM(mix)];
		o->len = rand_len(r);
		o->seq = (*seq)++;
		/* the last of a burst is always signaled: its completion ends the burst */
		o->signaled = i == p->n - 1 || e2e_rand(r) % 4 >= unsig;
		if (o->opcode == RDMADEV_WR_RDMA_READ) {
			pat_fill(p->dst.buf + so, o->len, o->seq);
			memset(p->src.buf + so, 0, o->len);
		} else {
			pat_fill(p->src.buf + so, o->len, o->seq);
			memset(p->dst.buf + so, 0, o->len);
		}
		s[i] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(p->src.buf + so), o->len,
					     p->src.lkey };
		wrs[i].wr_id = ((uint64_t)pi << 56) | o->seq;
		wrs[i].sg_list = &s[i];
		wrs[i].num_sge = 1;
		wrs[i].opcode = o->opcode;
		wrs[i].flags = o->signaled ? RDMADEV_SEND_SIGNALED : 0;
		wrs[i].imm_data = rte_cpu_to_be_32((uint32_t)o->seq);
		wrs[i].rdma.remote_addr = (uint64_t)(uintptr_t)(p->dst.buf + so);
		wrs[i].rdma.rkey = p->dst.rkey;
		if (receives(o->opcode)) {
			rs[nr] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)(p->dst.buf + so),
						       SLOT, p->dst.lkey };
			rwrs[nr].wr_id = o->seq;
			rwrs[nr].sg_list = &rs[nr];
			rwrs[nr].num_sge = 1;
			nr++;
		}
		nb_ops[o->opcode]++;
		nb_bytes += o->len;
	}
	if (nr > 0)
		TEST_CHECK_EQ(rdmadev_post_recv(p->b.qp, rwrs, (uint16_t)nr, &err), nr);
	TEST_CHECK_EQ(rdmadev_post_send(p->a.qp, wrs, (uint16_t)p->n, &err), p->n);
	TEST_CHECK_EQ(err, 0);
}

static void
bad(const char *what, const struct rdmadev_wc *wc)
{
	if (bad_wcs++ < 10)
		printf("# bad completion (%s): wr_id %#" PRIx64 " status %s opcode %u len %u\n",
		       what, wc->wr_id, rdmadev_wc_status_str(wc->status), wc->opcode,
		       wc->byte_len);
}

/* Match a send completion to the next signaled op of its pair. */
static void
sq_wc(const struct rdmadev_wc *wc)
{
	unsigned int pi = (unsigned int)(wc->wr_id >> 56);
	struct pair *p;
	struct op *o;

	nb_sq_wcs++;
	if (pi >= MAX_PAIRS || wc->status != RDMADEV_WC_SUCCESS)
		return bad("send status", wc);
	p = &pairs[pi];
	while (p->sq_next < p->n && !p->ops[p->sq_next].signaled)
		p->sq_next++;
	if (p->sq_next >= p->n)
		return bad("extra send", wc);
	o = &p->ops[p->sq_next++];
	if ((wc->wr_id & ((UINT64_C(1) << 56) - 1)) != o->seq ||
	    wc->opcode != (o->opcode == RDMADEV_WR_RDMA_READ ? RDMADEV_WC_RDMA_READ :
			   o->opcode == RDMADEV_WR_SEND || o->opcode == RDMADEV_WR_SEND_IMM ?
			   RDMADEV_WC_SEND : RDMADEV_WC_RDMA_WRITE))
		bad("send order or opcode", wc);
}

/* Match a receive completion to the next receiving op of the pair owning the QP. */
static void
rq_wc(const struct rdmadev_wc *wc)
{
	struct pair *p = NULL;
	struct op *o;
	unsigned int i;

	nb_rq_wcs++;
	for (i = 0; i < MAX_PAIRS; i++)
		if (pairs[i].b.qp != NULL && pairs[i].b.qpn == wc->qp_num)
			p = &pairs[i];
	if (p == NULL || wc->status != RDMADEV_WC_SUCCESS)
		return bad("receive status", wc);
	while (p->rq_next < p->n && !receives(p->ops[p->rq_next].opcode))
		p->rq_next++;
	if (p->rq_next >= p->n)
		return bad("extra receive", wc);
	o = &p->ops[p->rq_next++];
	if (wc->wr_id != o->seq || wc->byte_len != o->len ||
	    wc->opcode != (o->opcode == RDMADEV_WR_RDMA_WRITE_IMM ? RDMADEV_WC_RECV_RDMA_IMM :
			   RDMADEV_WC_RECV) ||
	    ((wc->wc_flags & RDMADEV_WC_WITH_IMM) != 0) != (o->opcode != RDMADEV_WR_SEND) ||
	    (o->opcode != RDMADEV_WR_SEND &&
	     wc->imm_data != rte_cpu_to_be_32((uint32_t)o->seq)))
		bad("receive order, length or immediate", wc);
}

/* Wait for the round's completions and check the data of every op. */
static bool
finish_round(unsigned int np, unsigned int want_sq, unsigned int want_rq)
{
	struct rdmadev_wc wc;
	unsigned int i, k;

	if (!e2e_wait(&d0.scq, want_sq) || !e2e_wait(&d1.rcq, want_rq)) {
		printf("# missing completions: send %u of %u, receive %u of %u\n",
		       d0.scq.tail - d0.scq.head, want_sq, d1.rcq.tail - d1.rcq.head, want_rq);
		return false;
	}
	while (e2e_take(&d0.scq, &wc))
		sq_wc(&wc);
	while (e2e_take(&d1.rcq, &wc))
		rq_wc(&wc);
	while (e2e_take(&d0.rcq, &wc))
		bad("receive on the requester", &wc);
	while (e2e_take(&d1.scq, &wc))
		bad("send on the responder", &wc);
	for (i = 0; i < np; i++) {
		struct pair *p = &pairs[i];

		for (k = 0; k < p->n; k++) {
			const struct op *o = &p->ops[k];
			const uint8_t *at = o->opcode == RDMADEV_WR_RDMA_READ ? p->src.buf :
					    p->dst.buf;

			if (!pat_check(at + ((uint64_t)p->half * MAX_BURST + k) * SLOT, o->len,
				       o->seq) &&
			    mismatches++ < 10)
				printf("# data mismatch: pair %u op %u seq %" PRIu64 " len %u\n",
				       i, o->opcode, o->seq, o->len);
		}
	}
	return true;
}

static void
test_soak(void)
{
	uint64_t r = seed * 2654435761u + 7, seq = 0, t0, ops = 0;
	unsigned int i, k, sq, rq;
	struct e2e_conn c;
	double el;
	bool timed_out = false;

	e2e_conn_default(&c);
	c.mtu = RDMADEV_MTU_4096;
	for (i = 0; i < np; i++) {
		struct pair *p = &pairs[i];

		if (e2e_mr_reg(&d0, NULL, &p->src, 2 * MAX_BURST * SLOT, E2E_ACC_ALL) != 0 ||
		    e2e_mr_reg(&d1, NULL, &p->dst, 2 * MAX_BURST * SLOT, E2E_ACC_ALL) != 0 ||
		    e2e_qp_create(&d0, &p->a, RDMADEV_QPT_RC, NULL) != 0 ||
		    e2e_qp_create(&d1, &p->b, RDMADEV_QPT_RC, NULL) != 0 ||
		    e2e_rc_connect(&p->a, &p->b, &c) != 0)
			return;
	}
	t0 = rte_get_timer_cycles();
	while (ops < nops && bad_wcs == 0 && mismatches == 0) {
		sq = 0;
		rq = 0;
		for (i = 0; i < np && ops < nops; i++) {
			post_burst(&pairs[i], i, &r, &seq, nops - ops);
			ops += pairs[i].n;
			for (k = 0; k < pairs[i].n; k++) {
				sq += pairs[i].ops[k].signaled;
				rq += receives(pairs[i].ops[k].opcode);
			}
		}
		if (!finish_round(i, sq, rq)) {
			bad_wcs++;
			break;
		}
		for (; i < np; i++)
			pairs[i].n = 0;
		if (tmax > 0 && (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz() > tmax) {
			timed_out = true;
			break;
		}
	}
	el = (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz();
	TEST_CHECK_EQ(e2e_idle(&d0.scq, 100) + e2e_idle(&d1.rcq, 1) +
		      e2e_idle(&d0.rcq, 1) + e2e_idle(&d1.scq, 1), 0);
	printf("# %" PRIu64 " ops in %.2f s: %.0f ops/s, %.1f MB/s%s\n", ops, el,
	       el > 0 ? ops / el : 0.0, el > 0 ? nb_bytes / el / 1e6 : 0.0,
	       timed_out ? " (time bound reached)" : "");
	printf("# WRITE %" PRIu64 " WRITE_IMM %" PRIu64 " SEND %" PRIu64 " SEND_IMM %" PRIu64
	       " READ %" PRIu64 "; %" PRIu64 " bytes; completions: %" PRIu64 " send, %" PRIu64
	       " receive\n", nb_ops[RDMADEV_WR_RDMA_WRITE], nb_ops[RDMADEV_WR_RDMA_WRITE_IMM],
	       nb_ops[RDMADEV_WR_SEND], nb_ops[RDMADEV_WR_SEND_IMM],
	       nb_ops[RDMADEV_WR_RDMA_READ], nb_bytes, nb_sq_wcs, nb_rq_wcs);
	TEST_CHECK_EQ(mismatches, 0);
	TEST_CHECK_EQ(bad_wcs, 0);
	TEST_CHECK(timed_out || ops == nops);
}

static void
teardown(void)
{
	unsigned int i;

	for (i = 0; i < np; i++) {
		e2e_qp_destroy(&pairs[i].a);
		e2e_qp_destroy(&pairs[i].b);
		e2e_mr_dereg(&pairs[i].src);
		e2e_mr_dereg(&pairs[i].dst);
	}
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc)
			nops = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
			tmax = strtod(argv[++i], NULL);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc)
			np = (unsigned int)strtoul(argv[++i], NULL, 0);
		else {
			printf("Bail out! usage: %s [--ops N] [--time S] [--seed S] [--pairs P]\n",
			       argv[0]);
			return 1;
		}
	}
	if (np == 0 || np > MAX_PAIRS) {
		printf("Bail out! --pairs must be 1 .. %u\n", MAX_PAIRS);
		return 1;
	}
	if (test_variant_eal_init("test_irdma_soak") < 0)
		return test_eal_bail();
	printf("# model mode: %s, %" PRIu64 " ops, %u pairs, seed %" PRIu64 "\n",
	       test_variant(), nops, np, seed);
	d1.id = -1;
	if (e2e_dev_open(&d0, E2E_DEVARGS(0, "loop:soak")) == 0 &&
	    e2e_dev_open(&d1, E2E_DEVARGS(1, "loop:soak")) == 0)
		TEST_RUN(test_soak);
	teardown();
	e2e_dev_close(&d1);
	e2e_dev_close(&d0);
	rte_eal_cleanup();
	return test_done();
}
