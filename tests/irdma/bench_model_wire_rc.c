/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * write_lat and write_bw between two model devices (inline mode: this one thread services
 * both engines) joined by each wire, measured in the same run:
 *  - loop: the in-process switch ("loop:<name>");
 *  - ring: the Ethernet wire on a net_ring pair (rte_eth_from_rings), needs nothing;
 *  - afpkt: as root, the Ethernet wire through net_af_packet on a veth pair made in a
 *    private network namespace of this process (skipped otherwise).
 * write_lat is perftest's ping-pong: each side WRITEs to the other, which sees the last
 * byte change and answers; half the round trip is printed (median, as perftest's typical,
 * and minimum, in us). write_bw keeps BW_WINDOW signalled WRITEs in flight and prints
 * MB/s. Each Ethernet figure is also printed as its ratio to the loop wire's (latency: >1
 * slower; bandwidth: <1 slower).
 *
 * Checked (exit non-zero otherwise; never on timing): every WRITE completes with success,
 * the last data arrives intact, no retransmission and no timeout on either device (the
 * wires are loss-free), and the frames each device sent are the frames the other received.
 * "--quick": few iterations, the unit suite's smoke run.
 */

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

#include "test.h"
#include "test_engine_lib.h"

#define MR_LEN		(256u * 1024u)	/* receive area, then send area */
#define SEND_OFF	(128u * 1024u)
#define BW_WINDOW	32u
#define N_WIRES		3
#define N_RES		4		/* lat 64, lat 4096, bw 4096, bw 65536 */

static const uint32_t res_size[N_RES] = { 64, 4096, 4096, 65536 };
static const char *const res_name[N_RES] = { "write_lat", "write_lat", "write_bw", "write_bw" };
static const char *const wire_name[N_WIRES] = { "loop", "ring", "afpkt" };

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct bench {
	struct tdev t1, t2;
	struct tmr m1, m2;
	struct tqp a, b;
	bool ok;
};

/* A signalled WRITE of @p len bytes from @p p's send area to the peer's receive area. */
static void
post_write(struct tqp *p, const struct tmr *mine, const struct tmr *peer, uint32_t len)
{
	struct tsge sg = { (uint64_t)(uintptr_t)mine->buf + SEND_OFF, mine->lkey, len };
	struct twr wr;

	twr_init(&wr, T_OP_WRITE, &sg, 1);
	wr.rva = (uint64_t)(uintptr_t)peer->buf;
	wr.rkey = peer->rkey;
	(void)tpost_send(p, &wr);
	tring(p);
}

/* One send completion of @p p, a success of a WRITE. */
static bool
reap(struct bench *b, struct tqp *p)
{
	struct tcqe e;

	if (!twait(&p->dev->scq, &e, &b->t1, &b->t2)) {
		printf("# no completion\n");
		return false;
	}
	if (e.error || e.op != T_OP_WRITE) {
		printf("# completion: error %d op %u minor 0x%x\n", e.error, e.op, e.minor);
		return false;
	}
	return true;
}

/* Service both devices until @p byte holds @p tag; false after T_POLL_MAX rounds. */
static bool
wait_byte(struct bench *b, volatile const uint8_t *byte, uint8_t tag)
{
	for (uint32_t i = 0; i < T_POLL_MAX; i++) {
		if (*byte == tag)
			return true;
		tdev_service(&b->t1, &b->t2);
		if ((i & 0xfff) == 0xfff)
			sched_yield();
	}
	printf("# WRITE data did not arrive\n");
	return false;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * perftest's write_lat: half the round trip of a ping-pong, typical (the median, as
 * perftest's t_typical) and minimum (us).
 */
static bool
write_lat(struct bench *b, uint32_t len, long iters, double *typ, double *min)
{
	double *t_all = calloc((size_t)iters, sizeof(*t_all));

	if (t_all == NULL)
		return false;
	/* the first iters / 4 warm the caches and are not counted */
	for (long i = -iters / 4; i < iters; i++) {
		uint8_t tag = (uint8_t)((i + iters) % 255 + 1);
		double t = now_us();

		b->m1.buf[SEND_OFF + len - 1] = tag;
		post_write(&b->a, &b->m1, &b->m2, len);
		if (!wait_byte(b, &b->m2.buf[len - 1], tag))
			goto fail;
		b->m2.buf[SEND_OFF + len - 1] = tag;
		post_write(&b->b, &b->m2, &b->m1, len);
		if (!wait_byte(b, &b->m1.buf[len - 1], tag))
			goto fail;
		if (i >= 0)
			t_all[i] = (now_us() - t) / 2;
		if (!reap(b, &b->a) || !reap(b, &b->b))
			goto fail;
	}
	qsort(t_all, (size_t)iters, sizeof(*t_all), cmp_double);
	*typ = t_all[iters / 2];
	*min = t_all[0];
	free(t_all);
	return true;
fail:
	free(t_all);
	return false;
}

/* write_bw: @p iters WRITEs of @p len bytes a -> b, BW_WINDOW in flight; MB/s. */
static bool
write_bw(struct bench *b, uint32_t len, long iters, double *mbs)
{
	long posted = 0, done = 0;
	double t0 = now_us();

	while (done < iters) {
		while (posted < iters && posted - done < BW_WINDOW) {
			post_write(&b->a, &b->m1, &b->m2, len);
			posted++;
		}
		if (!reap(b, &b->a))
			return false;
		done++;
	}
	*mbs = (double)len * (double)iters / (now_us() - t0);
	return true;
}

/* Two devices on @p w1 / @p w2, an MR and a connected RC QP each. */
static bool
bench_open(struct bench *b, const char *w1, const char *w2)
{
	char a1[512], a2[512];
	struct tconn c;

	memset(b, 0, sizeof(*b));
	b->t1.id = b->t2.id = -1;
	snprintf(a1, sizeof(a1), "irdma_model0,qps=8,cqs=8,mrs=8,mode=inline,wire=%s", w1);
	snprintf(a2, sizeof(a2), "irdma_model1,qps=8,cqs=8,mrs=8,mode=inline,wire=%s", w2);
	if (!tdev_up(&b->t1, a1))
		return false;
	if (!tdev_up(&b->t2, a2))
		return false;
	tconn_default(&c);
	c.timeout = 20;		/* 4.3 s: a loaded machine's pauses are no loss */
	tmr_reg(&b->t1, NULL, &b->m1, MR_LEN, ACC_ALL);
	tmr_reg(&b->t2, NULL, &b->m2, MR_LEN, ACC_ALL);
	tqp_create(&b->t1, &b->a, RDMADEV_QPT_RC);
	tqp_create(&b->t2, &b->b, RDMADEV_QPT_RC);
	if (b->m1.mr != NULL && b->m2.mr != NULL) {
		memset(b->m1.buf, 0, MR_LEN);
		memset(b->m2.buf, 0, MR_LEN);
	}
	return b->m1.mr != NULL && b->m2.mr != NULL && tqp_connect(&b->a, &b->b, &c) == 0;
}

static void
bench_close(struct bench *b)
{
	tqp_destroy(&b->a);
	tqp_destroy(&b->b);
	tmr_dereg(&b->m1);
	tmr_dereg(&b->m2);
	if (b->t2.id >= 0)
		tdev_close(&b->t2);
	if (b->t1.id >= 0)
		tdev_close(&b->t1);
}

/*
 * The clean-wire balance after a run: no retransmission or timeout, every frame one device
 * sent received by the other (after a few idle rounds for the last ACK).
 */
static bool
balanced(struct bench *b, const char *wire)
{
	struct irdma_model_wire_stats s1, s2;
	uint64_t rt = TSTAT(&b->t1, rc_retransmits) + TSTAT(&b->t2, rc_retransmits);
	uint64_t to = TSTAT(&b->t1, rc_timeouts) + TSTAT(&b->t2, rc_timeouts);

	(void)tidle(&b->t1.scq, &b->t1, &b->t2, 1000);
	s1 = twstats(&b->t1);
	s2 = twstats(&b->t2);
	printf("# %s: frames 1->2 %" PRIu64 "/%" PRIu64 ", 2->1 %" PRIu64 "/%" PRIu64
	       ", retransmits %" PRIu64 ", timeouts %" PRIu64 "\n", wire, s1.wire_tx_frames,
	       s2.wire_rx_frames, s2.wire_tx_frames, s1.wire_rx_frames, rt, to);
	return rt == 0 && to == 0 && s1.wire_tx_frames == s2.wire_rx_frames &&
	       s2.wire_tx_frames == s1.wire_rx_frames && s1.wire_tx_frames > 0 &&
	       s1.wire_dropped + s2.wire_dropped == 0;
}

/* All four results on one wire; false when a check failed. */
static bool
run_wire(const char *name, const char *w1, const char *w2, bool quick, double res[N_RES],
	 double lmin[2])
{
	struct bench b;
	bool ok = bench_open(&b, w1, w2);

	for (int i = 0; ok && i < 2; i++)
		ok = write_lat(&b, res_size[i], quick ? 50 : 5000, &res[i], &lmin[i]);
	for (int i = 2; ok && i < N_RES; i++) {
		long n = (quick ? 1 : 64) * (long)(1u << 20) / res_size[i];

		tfill(b.m1.buf + SEND_OFF, res_size[i], (uint32_t)i);
		ok = write_bw(&b, res_size[i], quick ? n / 8 + 1 : n, &res[i]);
		if (ok && memcmp(b.m2.buf, b.m1.buf + SEND_OFF, res_size[i]) != 0) {
			printf("# %s: write_bw %u: data differ\n", name, res_size[i]);
			ok = false;
		}
	}
	if (ok)
		ok = balanced(&b, name);
	else
		printf("# %s: set-up or a run failed\n", name);
	bench_close(&b);
	return ok;
}

/* The veth pair and its af_packet ports, in a network namespace of our own; false: skip. */
static bool
afpkt_up(void)
{
	if (geteuid() != 0 || unshare(CLONE_NEWNET) != 0 ||
	    system("ip link add bmwr0 type veth peer name bmwr1 2>/dev/null && "
		   "ip link set bmwr0 up && ip link set bmwr1 up") != 0)
		return false;
	return rte_vdev_init("net_af_packet_bmwr0", "iface=bmwr0") == 0 &&
	       rte_vdev_init("net_af_packet_bmwr1", "iface=bmwr1") == 0;
}

int
main(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0, have[N_WIRES] = { true, true };
	double res[N_WIRES][N_RES], lmin[N_WIRES][2];
	char w[N_WIRES][2][64];
	struct rte_ring *ab, *ba;
	int pa, pb, ret = 0;

	if (test_eal_init("bench_model_wire_rc", NULL) < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	ab = rte_ring_create("bmwr_ab", 1024, SOCKET_ID_ANY, 0);
	ba = rte_ring_create("bmwr_ba", 1024, SOCKET_ID_ANY, 0);
	pa = ab != NULL && ba != NULL ? rte_eth_from_rings("bmwr_a", &ba, 1, &ab, 1,
							  SOCKET_ID_ANY) : -1;
	pb = pa >= 0 ? rte_eth_from_rings("bmwr_b", &ab, 1, &ba, 1, SOCKET_ID_ANY) : -1;
	if (pb < 0) {
		printf("net_ring pair: set-up failed\n");
		return 1;
	}
	snprintf(w[0][0], sizeof(w[0][0]), "loop:bench_rc");
	snprintf(w[0][1], sizeof(w[0][1]), "loop:bench_rc");
	snprintf(w[1][0], sizeof(w[1][0]), "eth:%d", pa);
	snprintf(w[1][1], sizeof(w[1][1]), "eth:%d", pb);
	snprintf(w[2][0], sizeof(w[2][0]), "eth:net_af_packet_bmwr0");
	snprintf(w[2][1], sizeof(w[2][1]), "eth:net_af_packet_bmwr1");
	have[2] = afpkt_up();
	if (!have[2])
		printf("# afpkt: no veth pair (not root, or no ip / veth): skipped\n");
	for (int k = 0; k < N_WIRES; k++) {
		if (have[k] && !run_wire(wire_name[k], w[k][0], w[k][1], quick, res[k], lmin[k])) {
			have[k] = false;
			ret = 1;
		}
	}
	printf("%-10s %6s  %-6s %12s %12s %8s\n", "test", "bytes", "wire", "typical", "min",
	       "x loop");
	for (int i = 0; i < N_RES; i++)
		for (int k = 0; k < N_WIRES; k++) {
			if (!have[k])
				continue;
			printf("%-10s %6u  %-6s %9.2f %s", res_name[i], res_size[i], wire_name[k],
			       res[k][i], i < 2 ? "us" : "MB/s");
			if (i < 2)
				printf(" %9.2f us", lmin[k][i]);
			else
				printf(" %12s", "");
			if (k > 0 && have[0])
				printf(" %8.2f", res[k][i] / res[0][i]);
			printf("\n");
		}
	if (have[2]) {
		(void)rte_vdev_uninit("net_af_packet_bmwr0");
		(void)rte_vdev_uninit("net_af_packet_bmwr1");
	}
	(void)rte_eth_dev_close((uint16_t)pa);
	(void)rte_eth_dev_close((uint16_t)pb);
	rte_eal_cleanup();
	return ret != 0 || test_case_failures != 0 ? 1 : 0;
}
