/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Hardware counters and transport timers end to end: rdmadev_xstats_get -> irdma PMD ->
 * GATHER_STATS -> the model's statistics instance, after known traffic between two model
 * devices on one switch.
 *
 * The expectations are computed here from the traffic alone: RoCEv2 over IPv4 packets of
 * IPv4 (20) + UDP (8) + BTH (12) + the extension headers of the opcode (RETH 16, AETH 4) +
 * payload + pad to 4 + ICRC (4) octets (the IP datagram, as the IP-MIB counts octets), the
 * message cut at the path MTU. Every SEND / WRITE packet counts as a send / write, a READ
 * request as a read, on the side that sends it (Out) and the side that receives it (In).
 * What one device sends the other receives: its Tx counters equal the peer's Rx counters.
 *
 * Then the transport (IBA 9.7.6): the engine's timer values against the IBA's numbers (local
 * ACK timeout, RNR NAK timer table); the retransmit timer of a QP with local ACK timeout T
 * does not fire before 4.096 us << T (a lower bound measured with the model's clock, the timer
 * cycles), and with retry count R a request nobody answers is sent R more times, then the
 * QP fails with RETRY_EXC_ERR; a lossy wire shows retransmits, timeouts or duplicates, and a
 * clean one none (e2e_dev_close checks that for every clean device of every e2e test). The
 * MSN of every AETH the requester receives (from the port's pcap capture, decoded with the
 * model's codec) counts the responder's completed requests, READs included (IBA 9.7.7.2).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include "irdma_dev.h"
#include "model_engine.h"
#include "test.h"
#include "e2e_lib.h"

#define MR_LEN		(256u * 1024u)
#define MTU		1024u
#define N_WRITES	5u
#define S_WRITE		3000u
#define M_SENDS		4u
#define S_SEND		100u
#define K_READS		3u
#define S_READ		2500u

/* The counters of a device, by hw_counters name (gen2: 46, gen3: 57). */
struct hw {
	uint64_t v[64];
	char name[64][64];
	int n;		/* hardware counters (irdma's hw_counters) */
	bool gen3;	/* gen3 names: no "iw" / "tcp" prefixes */
	uint64_t wire_tx, wire_rx;	/* the model's wire_tx_frames / wire_rx_frames */
	int nwire;	/* wire_* counters after the hardware's */
};

static void
hw_read(const struct e2e_dev *d, struct hw *h)
{
	struct rdmadev_xstat xs[128];
	int i, n;

	memset(h, 0, sizeof(*h));
	n = rdmadev_xstats_get(d->id, xs, RTE_DIM(xs));
	/* A model device appends its wire's counters (struct irdma_model_wire_stats). */
	for (i = 0; i < n && i < 128 && strncmp(xs[i].name, "wire_", 5) != 0; i++)
		;
	h->n = i;
	TEST_CHECK(h->n == 46 || h->n == 57);
	h->gen3 = h->n == 57;
	for (; i < n && i < 128; i++) {
		TEST_CHECK(strncmp(xs[i].name, "wire_", 5) == 0);
		h->nwire++;
		if (strcmp(xs[i].name, "wire_tx_frames") == 0)
			h->wire_tx = xs[i].value;
		if (strcmp(xs[i].name, "wire_rx_frames") == 0)
			h->wire_rx = xs[i].value;
	}
	TEST_CHECK_EQ(h->nwire, (int)(sizeof(struct irdma_model_wire_stats) / sizeof(uint64_t)));
	for (i = 0; i < h->n && i < 64; i++) {
		h->v[i] = xs[i].value;
		memcpy(h->name[i], xs[i].name, sizeof(h->name[i]));
		h->name[i][sizeof(h->name[i]) - 1] = '\0';
	}
}

/* Counter @p name ("iw..." names: without the prefix on gen3). */
static uint64_t
hw_get(const struct hw *h, const char *name)
{
	int i;

	if (h->gen3 && strncmp(name, "iw", 2) == 0)
		name += 2;
	for (i = 0; i < h->n; i++)
		if (strcmp(h->name[i], name) == 0)
			return h->v[i];
	printf("# no counter %s\n", name);
	TEST_CHECK(false);
	return UINT64_MAX;
}

/* Octets of one RoCEv2 / IPv4 packet with @p ext extension-header bytes and @p pay bytes. */
static uint64_t
pkt_octets(uint32_t ext, uint32_t pay)
{
	return 20u + 8u + 12u + ext + pay + (4u - pay % 4u) % 4u + 4u;
}

/* Expected traffic of one direction. */
struct dir {
	uint64_t pkts, octets, writes, sends, reads;
};

/* A message of @p len bytes cut at the MTU; @p ext0 / @p extl: headers of the first / last. */
static void
msg(struct dir *x, uint32_t len, uint32_t ext0, uint32_t extm, uint32_t extl, uint64_t *cls)
{
	uint32_t off = 0;

	do {
		uint32_t p = len - off < MTU ? len - off : MTU;
		bool first = off == 0, last = off + p == len;
		uint32_t ext = first ? ext0 : last ? extl : extm;

		if (first && last)
			ext = ext0 > extl ? ext0 : extl;
		x->pkts++;
		x->octets += pkt_octets(ext, p);
		if (cls != NULL)
			(*cls)++;
		off += p;
	} while (off < len);
}

/* Every counter of @p h but those checked by name is 0. */
static void
others_zero(const struct hw *h)
{
	static const char *const traffic[] = {
		"ip4InOctets", "ip4InPkts", "ip4OutOctets", "ip4OutPkts", "RxUDP", "TxUDP",
		"iwInRdmaWrites", "iwInRdmaReads", "iwInRdmaSends", "iwOutRdmaWrites",
		"iwOutRdmaReads", "iwOutRdmaSends",
	};
	int i;
	unsigned int k;

	for (i = 0; i < h->n; i++) {
		bool t = false;

		for (k = 0; k < RTE_DIM(traffic); k++)
			t |= strcmp(h->name[i], traffic[k] + (h->gen3 && traffic[k][0] == 'i' &&
							      traffic[k][1] == 'w' ? 2 : 0)) == 0;
		if (!t && h->v[i] != 0)
			printf("# %s = %" PRIu64 ", expected 0\n", h->name[i], h->v[i]);
		TEST_CHECK(t || h->v[i] == 0);
	}
}

static void
check_dir(const struct hw *tx, const struct hw *rx, const struct dir *x)
{
	TEST_CHECK_EQ(hw_get(tx, "ip4OutPkts"), x->pkts);
	TEST_CHECK_EQ(hw_get(tx, "ip4OutOctets"), x->octets);
	TEST_CHECK_EQ(hw_get(tx, "TxUDP"), x->pkts);
	TEST_CHECK_EQ(hw_get(tx, "iwOutRdmaWrites"), x->writes);
	TEST_CHECK_EQ(hw_get(tx, "iwOutRdmaSends"), x->sends);
	TEST_CHECK_EQ(hw_get(tx, "iwOutRdmaReads"), x->reads);
	TEST_CHECK_EQ(hw_get(rx, "ip4InPkts"), x->pkts);
	TEST_CHECK_EQ(hw_get(rx, "ip4InOctets"), x->octets);
	TEST_CHECK_EQ(hw_get(rx, "RxUDP"), x->pkts);
	TEST_CHECK_EQ(hw_get(rx, "iwInRdmaWrites"), x->writes);
	TEST_CHECK_EQ(hw_get(rx, "iwInRdmaSends"), x->sends);
	TEST_CHECK_EQ(hw_get(rx, "iwInRdmaReads"), x->reads);
	/* The wire saw the same frames (every one IPv4 RoCEv2, nothing lost). */
	TEST_CHECK_EQ(tx->wire_tx, x->pkts);
	TEST_CHECK_EQ(rx->wire_rx, x->pkts);
}

/* Two devices on one switch, an MR on each, an RC pair a (device 0) -> b (device 1). */
struct env {
	struct e2e_dev d0, d1;
	struct e2e_mr ma, mb;
	struct e2e_qp a, b;
};

/*
 * Open the environment on switch @p wire with local ACK timeout @p timeout and retry count
 * @p retry; @p lossy: frames will be lost on purpose. 0 when everything is there.
 */
static int
env_up(struct env *e, const char *args0, const char *args1, uint8_t timeout, uint8_t retry,
       bool lossy)
{
	/* Gen3 devices get remote atomics too. */
	uint32_t acc = strstr(args0, "gen=3") != NULL ? E2E_ACC_ATOMIC : E2E_ACC_ALL;
	struct e2e_conn c;

	memset(e, 0, sizeof(*e));
	e->d1.id = -1;
	if (e2e_dev_open(&e->d0, args0) != 0 || e2e_dev_open(&e->d1, args1) != 0)
		return -1;
	e->d0.lossy = e->d1.lossy = lossy;
	e2e_mr_reg(&e->d0, NULL, &e->ma, MR_LEN, E2E_ACC_ALL);
	e2e_mr_reg(&e->d1, NULL, &e->mb, MR_LEN, acc);
	e2e_qp_create(&e->d0, &e->a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&e->d1, &e->b, RDMADEV_QPT_RC, NULL);
	e2e_conn_default(&c);
	c.mtu = RDMADEV_MTU_1024;
	c.access = acc;
	c.timeout = timeout;
	c.retry = retry;
	if (e->ma.mr == NULL || e->mb.mr == NULL)
		return -1;
	return e2e_rc_connect(&e->a, &e->b, &c);
}

static void
env_down(struct env *e)
{
	e2e_qp_destroy(&e->a);
	e2e_qp_destroy(&e->b);
	e2e_drain(&e->d0);
	e2e_mr_dereg(&e->ma);
	e2e_mr_dereg(&e->mb);
	e2e_dev_close(&e->d1);
	e2e_dev_close(&e->d0);
}

/* Faults @p f (NULL: none) on the port of device @p d. */
static void
faults(struct e2e_dev *d, const struct irdma_model_wire_faults *f)
{
	TEST_CHECK_EQ(irdma_model_wire_faults(irdma_dev_hw(rdmadev_get(d->id)), f), 0);
}

/*
 * N WRITEs of S bytes, M SENDs, K READs from a (device 0) to b (device 1), one at a time;
 * every counter of both devices against the traffic.
 */
static void
traffic_run(const char *args0, const char *args1)
{
	static struct env e;
	struct dir ab, ba;
	struct hw h0, h1;
	struct rdmadev_wc wc;
	uint64_t id = 1, acks, rb;
	uint32_t i;

	if (env_up(&e, args0, args1, 14, 7, false) != 0)
		goto out;
	rb = (uint64_t)(uintptr_t)e.mb.buf;
	/* Nothing has been sent yet: every counter of both devices is 0. */
	hw_read(&e.d0, &h0);
	hw_read(&e.d1, &h1);
	TEST_CHECK_EQ(h0.n, strstr(args0, "gen=3") != NULL ? 57 : 46);
	for (i = 0; i < (uint32_t)h0.n; i++)
		TEST_CHECK(h0.v[i] == 0 && h1.v[i] == 0);

	memset(&ab, 0, sizeof(ab));
	memset(&ba, 0, sizeof(ba));
	for (i = 0; i < N_WRITES; i++, id++) {
		e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_WRITE, &e.ma, 0, S_WRITE, rb + i * 8192u,
			    e.mb.rkey, id);
		e2e_expect(&e.d0.scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
		msg(&ab, S_WRITE, 16, 0, 0, &ab.writes);
	}
	for (i = 0; i < M_SENDS; i++, id++) {
		struct rdmadev_sge r = e2e_sge(&e.mb, 100000 + i * 4096u, 4096);
		struct rdmadev_sge s = e2e_sge(&e.ma, 0, S_SEND);
		struct rdmadev_send_wr wr;

		e2e_recv(&e.b, 1000 + i, &r, 1);
		e2e_wr_init(&wr, id, RDMADEV_WR_SEND, &s, 1);
		e2e_send(&e.a, &wr);
		e2e_expect(&e.d0.scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&e.d1.rcq, &wc));
		msg(&ab, S_SEND, 0, 0, 0, &ab.sends);
	}
	for (i = 0; i < K_READS; i++, id++) {
		e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_READ, &e.ma, 20000 + i * 4096u, S_READ,
			    rb + 150000, e.mb.rkey, id);
		e2e_expect(&e.d0.scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
		msg(&ab, 0, 16, 0, 0, &ab.reads);	/* the request: RETH, no payload */
		msg(&ba, S_READ, 4, 0, 4, NULL);	/* responses: AETH on first / last */
	}
	/*
	 * ACKs: one per WRITE and SEND (AckReq on their last packet; each waited for), none
	 * for the READs (their responses acknowledge). A threaded responder may add
	 * time-bound ACKs while a message is half received: then more, never fewer.
	 */
	acks = E2E_STAT(&e.d1, acks_sent);
	if (!test_variant_thread())
		TEST_CHECK_EQ(acks, N_WRITES + M_SENDS);
	TEST_CHECK(acks >= N_WRITES + M_SENDS && acks <= N_WRITES * 3 + M_SENDS);
	for (i = 0; i < acks; i++)
		msg(&ba, 0, 4, 0, 0, NULL);
	hw_read(&e.d0, &h0);
	hw_read(&e.d1, &h1);
	check_dir(&h0, &h1, &ab);
	check_dir(&h1, &h0, &ba);
	others_zero(&h0);
	others_zero(&h1);
	printf("# a->b %" PRIu64 " packets %" PRIu64 " octets, b->a %" PRIu64 " packets %"
	       PRIu64 " octets\n", ab.pkts, ab.octets, ba.pkts, ba.octets);
	/* stats_reset (and the driver's xstats_reset): everything reads 0 again. */
	TEST_CHECK_EQ(rdmadev_stats_reset(e.d0.id), 0);
	hw_read(&e.d0, &h0);
	for (i = 0; i < (uint32_t)h0.n; i++)
		TEST_CHECK_EQ(h0.v[i], 0);
out:
	env_down(&e);
}

static void
test_traffic_counters(void)
{
	traffic_run(E2E_DEVARGS(0, "loop:hws1"), E2E_DEVARGS(1, "loop:hws1"));
}

/* The same on gen3 devices: gen3's gather layout and names reach xstats as well. */
static void
test_traffic_counters_gen3(void)
{
	traffic_run(E2E_DEVARGS_GEN(0, 3, "loop:hws7"), E2E_DEVARGS_GEN(1, 3, "loop:hws7"));
}

/* Wait (collecting completions) until @p field of @p d reaches @p n; false if it did not. */
#define WAIT_STAT(d, field, n) wait_stat((d), offsetof(struct irdma_model_stats, field), (n))

static bool
wait_stat(struct e2e_dev *d, size_t off, uint64_t n)
{
	uint64_t until = rte_get_timer_cycles() + 60 * rte_get_timer_hz();

	while (e2e_stat(d, off) < n) {
		if (rte_get_timer_cycles() > until)
			return false;
		e2e_collect();
	}
	return true;
}

/*
 * A peer that never answers (every frame of device 1 dropped, so no ACK comes back): the
 * first retransmission is not earlier than 4.096 us << T after the WRITE was posted (the
 * model's clock, rte timer cycles), and with retry count R the WRITE goes out 1 + R times,
 * the timer expires R + 1 times and the QP fails with RETRY_EXC_ERR.
 */
static void
test_retransmit_timer(void)
{
	static struct env e;
	const struct irdma_model_wire_faults drop_all = { .drop_ppm = 1000000, .seed = 1 };
	const uint8_t timeout = 10, retry = 3;
	uint64_t t0, t1, rto;

	if (env_up(&e, E2E_DEVARGS(0, "loop:hws2"), E2E_DEVARGS(1, "loop:hws2"), timeout, retry,
		   true) != 0)
		goto out;
	faults(&e.d1, &drop_all);
	rto = (uint64_t)(4.096e-6 * (double)(1u << timeout) * (double)rte_get_timer_hz());
	t0 = rte_get_timer_cycles();
	e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_WRITE, &e.ma, 0, 100, (uint64_t)(uintptr_t)e.mb.buf,
		    e.mb.rkey, 9);
	TEST_CHECK(WAIT_STAT(&e.d0, rc_retx_pkts, 1));
	t1 = rte_get_timer_cycles();
	printf("# first retransmission seen after %.3f ms (timeout %u: %.3f ms)\n",
	       (double)(t1 - t0) * 1e3 / (double)rte_get_timer_hz(), timeout,
	       4.096e-3 * (double)(1u << timeout));
	TEST_CHECK(t1 - t0 >= rto);
	e2e_expect(&e.d0.scq, 9, RDMADEV_WC_RETRY_EXC_ERR, -1);
	TEST_CHECK_EQ(E2E_STAT(&e.d0, rc_retx_pkts), retry);
	TEST_CHECK_EQ(E2E_STAT(&e.d0, rc_timeouts), retry + 1u);
	TEST_CHECK_EQ(E2E_STAT(&e.d0, rc_retry_exceeded), 1);
	/* The same WRITE reached the responder each time: one original, R duplicates ... */
	TEST_CHECK_EQ(E2E_STAT(&e.d1, in_rdma_writes), 1);
	TEST_CHECK_EQ(E2E_STAT(&e.d1, dup_requests), retry);
	/* ... and every ACK was dropped: the requester's device received nothing. */
	TEST_CHECK_EQ(E2E_STAT(&e.d0, acks_rcvd), 0);
out:
	env_down(&e);
}

/*
 * Timeout 0 is infinite (IBA): with nothing coming back the WRITE is never sent again while
 * the test keeps servicing the devices for 50 ms (timeout 8 would have fired 50 times).
 */
static void
test_timeout_infinite(void)
{
	static struct env e;
	const struct irdma_model_wire_faults drop_all = { .drop_ppm = 1000000, .seed = 1 };
	uint64_t until;

	if (env_up(&e, E2E_DEVARGS(0, "loop:hws3"), E2E_DEVARGS(1, "loop:hws3"), 0, 7,
		   true) != 0)
		goto out;
	faults(&e.d1, &drop_all);
	e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_WRITE, &e.ma, 0, 100, (uint64_t)(uintptr_t)e.mb.buf,
		    e.mb.rkey, 9);
	until = rte_get_timer_cycles() + rte_get_timer_hz() / 20;
	while (rte_get_timer_cycles() < until)
		e2e_collect();
	TEST_CHECK_EQ(E2E_STAT(&e.d0, rc_timeouts), 0);
	TEST_CHECK_EQ(E2E_STAT(&e.d0, rc_retx_pkts), 0);
	TEST_CHECK_EQ(E2E_STAT(&e.d1, in_rdma_writes), 1);
out:
	env_down(&e);
}

/*
 * A lossy wire (a tenth of both devices' frames dropped): everything completes, and the loss
 * shows: the requester resent, after its timer or a sequence NAK; the responder saw
 * duplicates or packets out of sequence; each side received fewer frames than the other
 * sent.
 */
static void
test_lossy_counters(void)
{
	static struct env e;
	const struct irdma_model_wire_faults f = { .drop_ppm = 100000, .seed = 5 };
	struct hw h0, h1;
	uint64_t id, rb;

	if (env_up(&e, E2E_DEVARGS(0, "loop:hws4"), E2E_DEVARGS(1, "loop:hws4"),
		   E2E_LOSSY_TIMEOUT, 7, true) != 0)
		goto out;
	rb = (uint64_t)(uintptr_t)e.mb.buf;
	faults(&e.d0, &f);
	faults(&e.d1, &f);
	for (id = 1; id <= 40; id++) {
		e2e_rdma_op(&e.a, id % 2 ? RDMADEV_WR_RDMA_WRITE : RDMADEV_WR_RDMA_READ, &e.ma,
			    (id % 8) * 8192u, 5000, rb + (id % 8) * 8192u, e.mb.rkey, id);
		e2e_expect(&e.d0.scq, id, RDMADEV_WC_SUCCESS, -1);
	}
	faults(&e.d0, NULL);
	faults(&e.d1, NULL);
	TEST_CHECK(E2E_STAT(&e.d0, rc_retx_pkts) > 0);
	TEST_CHECK(E2E_STAT(&e.d0, rc_retransmits) > 0);
	TEST_CHECK(E2E_STAT(&e.d0, rc_timeouts) + E2E_STAT(&e.d0, seq_naks_rcvd) > 0);
	TEST_CHECK(E2E_STAT(&e.d1, dup_requests) + E2E_STAT(&e.d1, seq_errors) > 0);
	hw_read(&e.d0, &h0);
	hw_read(&e.d1, &h1);
	TEST_CHECK(hw_get(&h1, "ip4InPkts") < hw_get(&h0, "ip4OutPkts"));
	TEST_CHECK(hw_get(&h0, "ip4InPkts") < hw_get(&h1, "ip4OutPkts"));
	TEST_CHECK(hw_get(&h1, "iwInRdmaWrites") <= hw_get(&h0, "iwOutRdmaWrites"));
	printf("# a->b sent %" PRIu64 " received %" PRIu64 "; b->a sent %" PRIu64
	       " received %" PRIu64 "; retransmitted %" PRIu64 ", timeouts %" PRIu64 "\n",
	       hw_get(&h0, "ip4OutPkts"), hw_get(&h1, "ip4InPkts"), hw_get(&h1, "ip4OutPkts"),
	       hw_get(&h0, "ip4InPkts"), E2E_STAT(&e.d0, rc_retx_pkts),
	       E2E_STAT(&e.d0, rc_timeouts));
out:
	env_down(&e);
}

/*
 * The engine's timers against the IBA's numbers: the local ACK timeout 4.096 us << T
 * (0: none) and the RNR NAK timer field (table 45, in milliseconds).
 */
static void
test_timer_tables(void)
{
	static const double rnr_ms[32] = {
		655.36, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16, 0.24, 0.32, 0.48, 0.64,
		0.96, 1.28, 1.92, 2.56, 3.84, 5.12, 7.68, 10.24, 15.36, 20.48, 30.72, 40.96,
		61.44, 81.92, 122.88, 163.84, 245.76, 327.68, 491.52,
	};
	double hz = (double)rte_get_timer_hz();
	unsigned int i;

	TEST_CHECK_EQ(model_rto_of(0), 0);
	for (i = 1; i < 32; i++) {
		double want = 4.096e-6 * (double)(UINT64_C(1) << i) * hz;
		double got = (double)model_rto_of(i);

		TEST_CHECK(got >= want && got <= want + 2);
	}
	for (i = 0; i < 32; i++) {
		double want = rnr_ms[i] * 1e-3 * hz;
		double got = (double)model_rnr_cycles(i);

		if (!(got >= want - 1 && got <= want + 2))
			printf("# RNR timer %u: %.0f cycles, expected %.0f\n", i, got, want);
		TEST_CHECK(got >= want - 1 && got <= want + 2);
	}
}

/*
 * Gen3's transport counters through xstats, each against the engine's own count of the
 * same events and against what the test caused: an RNR NAK (a SEND before its receive), an
 * atomic each way, then WRITEs over a lossy wire (timer expiries, sequence NAKs, packets
 * out of order).
 */
static void
test_gen3_transport(void)
{
	static struct env e;
	const struct irdma_model_wire_faults f = { .drop_ppm = 150000, .seed = 9 };
	struct rdmadev_sge r, s, res;
	struct rdmadev_send_wr wr;
	struct rdmadev_wc wc;
	struct hw h0, h1;
	uint64_t id, rb;

	if (env_up(&e, E2E_DEVARGS_GEN(0, 3, "loop:hws8"), E2E_DEVARGS_GEN(1, 3, "loop:hws8"),
		   E2E_LOSSY_TIMEOUT, 7, true) != 0)
		goto out;
	rb = (uint64_t)(uintptr_t)e.mb.buf;
	/* A SEND before its receive: RNR NAKs until the receive is posted. */
	s = e2e_sge(&e.ma, 0, 64);
	e2e_wr_init(&wr, 1, RDMADEV_WR_SEND, &s, 1);
	e2e_send(&e.a, &wr);
	TEST_CHECK(WAIT_STAT(&e.d0, rnr_naks_rcvd, 1));
	r = e2e_sge(&e.mb, 0, 4096);
	e2e_recv(&e.b, 100, &r, 1);
	e2e_expect(&e.d0.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
	TEST_CHECK(e2e_next(&e.d1.rcq, &wc));
	/* One fetch-and-add: a Tx atomic on a, an Rx atomic on b. */
	e2e_atomic_wr(&wr, &res, 2, RDMADEV_WR_ATOMIC_FA, &e.ma, 4096, rb + 8192, e.mb.rkey, 1,
		      0);
	e2e_send(&e.a, &wr);
	e2e_expect(&e.d0.scq, 2, RDMADEV_WC_SUCCESS, RDMADEV_WC_FETCH_ADD);
	hw_read(&e.d0, &h0);
	hw_read(&e.d1, &h1);
	TEST_CHECK_EQ(h0.n, 57);
	TEST_CHECK(hw_get(&h1, "RNR sent") >= 1);
	TEST_CHECK_EQ(hw_get(&h1, "RNR sent"), E2E_STAT(&e.d1, rnr_naks_sent));
	TEST_CHECK_EQ(hw_get(&h0, "RNR received"), E2E_STAT(&e.d0, rnr_naks_rcvd));
	TEST_CHECK_EQ(hw_get(&h0, "RNR received"), hw_get(&h1, "RNR sent"));
	TEST_CHECK_EQ(hw_get(&h0, "Tx atomics"), 1);
	TEST_CHECK_EQ(hw_get(&h1, "Rx atomics"), 1);
	TEST_CHECK_EQ(hw_get(&h0, "RTO"), 0);
	/* WRITEs of 20 packets over a lossy wire. */
	faults(&e.d0, &f);
	faults(&e.d1, &f);
	for (id = 10; id < 30; id++) {
		e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_WRITE, &e.ma, 0, 20 * 1024, rb, e.mb.rkey, id);
		e2e_expect(&e.d0.scq, id, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	}
	faults(&e.d0, NULL);
	faults(&e.d1, NULL);
	hw_read(&e.d0, &h0);
	hw_read(&e.d1, &h1);
	TEST_CHECK(hw_get(&h0, "RTO") + hw_get(&h0, "Nak Sequence Error") > 0);
	TEST_CHECK_EQ(hw_get(&h0, "RTO"), E2E_STAT(&e.d0, rc_timeouts));
	TEST_CHECK_EQ(hw_get(&h0, "Nak Sequence Error"), E2E_STAT(&e.d0, seq_naks_rcvd));
	TEST_CHECK(hw_get(&h1, "Rcvd Out of order packets") > 0);
	TEST_CHECK_EQ(hw_get(&h1, "Rcvd Out of order packets"), E2E_STAT(&e.d1, seq_errors));
	/* Every sequence NAK answered packets out of order (at most one NAK per gap). */
	TEST_CHECK(hw_get(&h0, "Nak Sequence Error") <= hw_get(&h1, "Rcvd Out of order packets"));
	printf("# RTO %" PRIu64 ", sequence NAKs %" PRIu64 ", out of order %" PRIu64 "\n",
	       hw_get(&h0, "RTO"), hw_get(&h0, "Nak Sequence Error"),
	       hw_get(&h1, "Rcvd Out of order packets"));
out:
	env_down(&e);
}

/* Start (@p path) or stop (NULL) the pcap capture of device @p d's port. */
static int
capture(struct e2e_dev *d, const char *path)
{
	struct model_dev *m = model_dev_of(irdma_dev_hw(rdmadev_get(d->id)));
	int ret;

	if (m == NULL)
		return -EINVAL;
	model_lock(&m->lock);	/* the port belongs to the engine */
	ret = model_port_pcap_open(m->port, path);
	model_unlock(&m->lock);
	return ret;
}

/* The MSNs of the AETHs in the frames to @p mac in pcap file @p path, in order; the count. */
static unsigned int
capture_msns(const char *path, const uint8_t mac[6], uint32_t *msn, uint8_t *op,
	     unsigned int max)
{
	static uint8_t frame[MODEL_PKT_MAX];
	uint32_t rec[4];
	unsigned int n = 0;
	FILE *f = fopen(path, "rb");

	TEST_CHECK(f != NULL);
	if (f == NULL || fseek(f, 24, SEEK_SET) != 0)
		goto out;
	while (fread(rec, sizeof(rec), 1, f) == 1 && rec[2] <= sizeof(frame) &&
	       fread(frame, rec[2], 1, f) == 1) {
		struct model_pkt_hdr h;
		const uint8_t *pay;
		uint32_t len;

		if (memcmp(frame, mac, 6) != 0 ||
		    model_pkt_parse(frame, rec[2], &h, &pay, &len) != 0 ||
		    !(model_bth_hdrs(h.opcode) & MODEL_HDR_AETH) || n == max)
			continue;
		op[n] = h.opcode;
		msn[n++] = h.aeth_msn;
	}
out:
	if (f != NULL)
		fclose(f);
	return n;
}

/*
 * SEND, SEND, READ (3 responses), WRITE, READ (1 response), one at a time: the responder's
 * MSN is 1, 2 after the SENDs, 3 with the first READ, 4, 5; each ACK and read response with
 * an AETH (first, last, only; a middle response has none) carries the MSN of the request
 * it answers.
 */
static void
test_msn(void)
{
	static const uint32_t want[] = { 1, 2, 3, 3, 4, 5 };
	static const uint8_t want_op[] = {
		MODEL_RC_ACK, MODEL_RC_ACK, MODEL_RC_READ_RESP_FIRST, MODEL_RC_READ_RESP_LAST,
		MODEL_RC_ACK, MODEL_RC_READ_RESP_ONLY,
	};
	static struct env e;
	char path[128];
	uint32_t msn[16];
	uint8_t op[16];
	uint64_t rb;
	unsigned int i, n;

	snprintf(path, sizeof(path), "/tmp/irdma_hwstats_%d_%s.pcap", (int)getpid(),
		 test_variant());
	if (env_up(&e, E2E_DEVARGS(0, "loop:hws5"), E2E_DEVARGS(1, "loop:hws5"), 14, 7,
		   false) != 0)
		goto out;
	rb = (uint64_t)(uintptr_t)e.mb.buf;
	TEST_CHECK_EQ(capture(&e.d0, path), 0);
	for (i = 0; i < 2; i++) {
		struct rdmadev_sge r = e2e_sge(&e.mb, 100000 + i * 4096u, 4096);
		struct rdmadev_sge s = e2e_sge(&e.ma, 0, 64);
		struct rdmadev_send_wr wr;
		struct rdmadev_wc wc;

		e2e_recv(&e.b, 1000 + i, &r, 1);
		e2e_wr_init(&wr, 1 + i, RDMADEV_WR_SEND, &s, 1);
		e2e_send(&e.a, &wr);
		e2e_expect(&e.d0.scq, 1 + i, RDMADEV_WC_SUCCESS, RDMADEV_WC_SEND);
		TEST_CHECK(e2e_next(&e.d1.rcq, &wc));
	}
	e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_READ, &e.ma, 8192, 2500, rb, e.mb.rkey, 3);
	e2e_expect(&e.d0.scq, 3, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
	e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_WRITE, &e.ma, 0, 100, rb, e.mb.rkey, 4);
	e2e_expect(&e.d0.scq, 4, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	e2e_rdma_op(&e.a, RDMADEV_WR_RDMA_READ, &e.ma, 16384, 100, rb, e.mb.rkey, 5);
	e2e_expect(&e.d0.scq, 5, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_READ);
	TEST_CHECK_EQ(capture(&e.d0, NULL), 0);
	n = capture_msns(path, e.d0.mac, msn, op, RTE_DIM(msn));
	TEST_CHECK_EQ(n, RTE_DIM(want));
	for (i = 0; i < n && i < RTE_DIM(want); i++) {
		if (msn[i] != want[i] || op[i] != want_op[i])
			printf("# AETH %u: opcode 0x%02x MSN %u, expected 0x%02x MSN %u\n", i,
			       op[i], msn[i], want_op[i], want[i]);
		TEST_CHECK_EQ(msn[i], want[i]);
		TEST_CHECK_EQ(op[i], want_op[i]);
	}
	unlink(path);
out:
	env_down(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_hwstats") < 0)
		return test_eal_bail();
	TEST_RUN(test_timer_tables);
	TEST_RUN(test_traffic_counters);
	TEST_RUN(test_traffic_counters_gen3);
	TEST_RUN(test_retransmit_timer);
	TEST_RUN(test_timeout_infinite);
	TEST_RUN(test_lossy_counters);
	TEST_RUN(test_gen3_transport);
	TEST_RUN(test_msn);
	rte_eal_cleanup();
	return test_done();
}
