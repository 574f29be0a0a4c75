/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's wires (model/transport/model_wire.c): the in-process switch (delivery by destination
 * MAC, back to the sender, unknown MACs, separate named switches, the bounded queue), the UDP
 * wire between 127.0.0.1 and 127.0.0.2 (the receiver's rebuilt frame passes the ICRC check),
 * fault injection (exact behaviour at 0 and 100 %, balanced counts and repeatability at mixed
 * rates, corruption caught by model_pkt_parse) and the pcap file (read back here, and decoded
 * by tshark when it is installed), and the unsealed sends of the engine: no ICRC on a loop
 * port nothing can corrupt or capture, an ICRC written wherever a frame can be seen or
 * changed, the in-place receive, and the header a handed-over frame carries.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model_pkt.h"
#include "test.h"
#include "test_model_gid.h"

#define QUEUE 4096u	/* the loop wire's per-port queue (model_wire.c WIRE_QUEUE) */

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t mac_x[6] = { 0x02, 0, 0, 0, 0, 0xee };

/* A SEND_ONLY frame to @p dmac carrying @p psn (and a payload derived from it). */
static int
frame(uint8_t *f, const uint8_t *dmac, const uint8_t *smac, uint32_t psn, uint32_t plen)
{
	struct model_pkt_hdr h;
	uint8_t pay[256];

	memset(&h, 0, sizeof(h));
	memcpy(h.dmac, dmac, 6);
	memcpy(h.smac, smac, 6);
	h.ipv4 = true;
	gid_v4(h.sgid, 127, 0, 0, 1);
	gid_v4(h.dgid, 127, 0, 0, 2);
	h.ttl = 64;
	h.sport = 0xc123;
	h.opcode = MODEL_RC_SEND_ONLY;
	h.pkey = 0xffff;
	h.dqpn = 7;
	h.psn = psn & 0xffffff;
	for (uint32_t i = 0; i < plen && i < sizeof(pay); i++)
		pay[i] = (uint8_t)(psn + i);
	return model_pkt_build(&h, pay, plen < sizeof(pay) ? plen : sizeof(pay), f,
			       MODEL_PKT_MAX);
}

/* The PSN of a received frame, or -1 when it does not parse (-2: ICRC mismatch). */
static long
rx_psn(const uint8_t *f, int n)
{
	struct model_pkt_hdr h;
	int r = model_pkt_parse(f, (uint32_t)n, &h, NULL, NULL);

	if (r == -EILSEQ)
		return -2;
	return r == 0 ? (long)h.psn : -1;
}

static void
test_loop_delivery(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct model_port *a = NULL, *b = NULL, *c = NULL, *d = NULL;
	struct model_port_stats st;
	uint8_t gid[16] = { 0 };
	int n;

	TEST_CHECK_EQ(model_port_attach("loop:deliv", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:deliv", mac_b, gid, &b), 0);
	/* the same MAC twice on one switch is refused; on another switch it is fine */
	TEST_CHECK_EQ(model_port_attach("loop:deliv", mac_a, gid, &c), -EINVAL);
	TEST_CHECK_EQ(model_port_attach("loop:other", mac_a, gid, &c), 0);
	if (a == NULL || b == NULL || c == NULL)
		return;

	/* A to B */
	n = frame(f, mac_b, mac_a, 1, 10);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), 0);
	TEST_CHECK_EQ(model_port_recv(c, g, sizeof(g)), 0);	/* other switch, same MAC */
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), n);
	TEST_CHECK(memcmp(f, g, (size_t)n) == 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), 0);
	/* to the sender's own MAC: back to the sender */
	n = frame(f, mac_a, mac_a, 2, 3);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), 0);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), n);
	TEST_CHECK_EQ(rx_psn(g, n), 2);
	/* to nobody */
	n = frame(f, mac_x, mac_a, 3, 3);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), 0);
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.tx_frames, 3);
	TEST_CHECK_EQ(st.rx_frames, 1);
	TEST_CHECK_EQ(st.rx_no_port, 1);
	TEST_CHECK_EQ(st.tx_dropped, 0);
	model_port_stats_get(b, &st);
	TEST_CHECK_EQ(st.rx_frames, 1);
	TEST_CHECK_EQ(st.rx_bytes, frame(g, mac_b, mac_a, 1, 10));
	/* a buffer too small: -EMSGSIZE and the frame is gone */
	n = frame(f, mac_b, mac_a, 4, 100);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, (uint32_t)n - 1), -EMSGSIZE);
	TEST_CHECK_EQ(model_port_recv(b, g, (uint32_t)n), n);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), 0);
	/* after B leaves, its MAC is unknown; a new port may take it */
	model_port_detach(b);
	n = frame(f, mac_b, mac_a, 5, 0);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.rx_no_port, 2);
	TEST_CHECK_EQ(model_port_attach("loop:deliv", mac_b, gid, &d), 0);
	TEST_CHECK_EQ(model_port_recv(d, g, sizeof(g)), 0);	/* nothing left over */
	/* bad sends */
	TEST_CHECK_EQ(model_port_send(a, f, 13), -EINVAL);
	TEST_CHECK_EQ(model_port_send(a, f, MODEL_PKT_MAX + 1), -EINVAL);
	TEST_CHECK_EQ(model_port_send(a, NULL, 64), -EINVAL);
	TEST_CHECK_EQ(model_port_recv(a, NULL, 64), -EINVAL);
	model_port_detach(a);
	model_port_detach(c);
	model_port_detach(d);
	model_port_detach(NULL);
}

static void
test_attach_specs(void)
{
	static const char *const bad[] = {
		"loopx", "loop:", "udp:", "udp:1.2.3", "udp:1.2.3.4:0", "udp:1.2.3.4:65536",
		"udp:1.2.3.4:", "udp:1.2.3.4:12x", "udp:0.0.0.0", "udp:::1", "tcp:1.2.3.4", "",
		"loop:0123456789012345678901234567890123456789012345678901234567890123456789",
	};
	struct model_port *p = NULL, *q = NULL;
	uint8_t gid[16] = { 0 };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = NULL;
		TEST_CHECK_EQ(model_port_attach(bad[i], mac_a, gid, &p), -EINVAL);
		TEST_CHECK(p == NULL);
	}
	TEST_CHECK_EQ(model_port_attach("loop", NULL, gid, &p), -EINVAL);
	TEST_CHECK_EQ(model_port_attach("loop", mac_a, NULL, &p), -EINVAL);
	TEST_CHECK_EQ(model_port_attach("loop", mac_a, gid, NULL), -EINVAL);
	/* NULL and "loop" name the same switch */
	TEST_CHECK_EQ(model_port_attach(NULL, mac_a, gid, &p), 0);
	TEST_CHECK_EQ(model_port_attach("loop", mac_a, gid, &q), -EINVAL);
	model_port_detach(p);
	TEST_CHECK_EQ(model_port_attach("loop", mac_a, gid, &q), 0);
	model_port_detach(q);
}

static void
test_loop_queue_bound(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct model_port *a = NULL, *b = NULL;
	struct model_port_stats st;
	uint8_t gid[16] = { 0 };
	uint32_t got = 0, in_order = 0;
	int n, r;

	TEST_CHECK_EQ(model_port_attach("loop:bound", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:bound", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	for (uint32_t i = 0; i < QUEUE + 10; i++) {
		n = frame(f, mac_b, mac_a, i, 4);
		r = model_port_send(a, f, (uint32_t)n);
		TEST_CHECK_EQ(r, i < QUEUE ? 0 : -ENOBUFS);
	}
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.tx_frames, QUEUE + 10);
	TEST_CHECK_EQ(st.tx_dropped, 10);
	while ((n = model_port_recv(b, g, sizeof(g))) > 0) {
		if (rx_psn(g, n) == (long)got)
			in_order++;
		got++;
	}
	TEST_CHECK_EQ(got, QUEUE);
	TEST_CHECK_EQ(in_order, QUEUE);
	/* room again */
	n = frame(f, mac_b, mac_a, 99, 4);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), n);
	model_port_detach(a);
	model_port_detach(b);
}

/* Two threads, each owning a port on one switch, exchange frames (the switch's lock). */
#define XCHG_FRAMES 2000u	/* below QUEUE: no drop whatever the interleaving */

struct xchg {
	struct model_port *me;
	const uint8_t *peer;
	const uint8_t *self;
	bool handover;		/* built in model_port_tx_buf(), taken by model_port_recv_ref() */
	uint32_t got;
	uint32_t in_order;
	uint32_t bad;		/* frames received whose payload is not what was sent */
};

/* The PSN of frame @p f (@p n bytes), or -1 when it is not what frame() builds for it
 * with a payload of PSN % 50 bytes. */
static long
xchg_psn(const uint8_t *f, int n, bool sealed)
{
	struct model_pkt_hdr h;
	const uint8_t *pay;
	uint32_t len;

	if (model_pkt_parse_ex(f, (uint32_t)n, sealed, &h, &pay, &len) != 0 ||
	    len != h.psn % 50)
		return -1;
	for (uint32_t i = 0; i < len; i++)
		if (pay[i] != (uint8_t)(h.psn + i))
			return -1;
	return (long)h.psn;
}

static void *
xchg_thread(void *arg)
{
	static __thread uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct xchg *x = arg;
	uint32_t sent = 0;
	int n;

	while (sent < XCHG_FRAMES || x->got < XCHG_FRAMES) {
		if (sent < XCHG_FRAMES && x->handover) {
			uint8_t *t = model_port_tx_buf(x->me);

			n = frame(t, x->peer, x->self, sent, sent % 50);
			if (model_port_send_unsealed(x->me, t, (uint32_t)n) == 0)
				sent++;
		} else if (sent < XCHG_FRAMES) {
			n = frame(f, x->peer, x->self, sent, sent % 50);
			if (model_port_send(x->me, f, (uint32_t)n) == 0)
				sent++;
		}
		while (x->handover) {
			const uint8_t *fr;
			bool sealed;
			long psn;

			n = model_port_recv_ref(x->me, g, sizeof(g), &fr, &sealed);
			if (n <= 0)
				break;
			psn = xchg_psn(fr, n, sealed);
			x->in_order += psn == (long)x->got;
			x->bad += psn < 0;
			x->got++;
		}
		while (!x->handover && (n = model_port_recv(x->me, g, sizeof(g))) > 0) {
			x->in_order += rx_psn(g, n) == (long)x->got;
			x->got++;
		}
		if (sent == XCHG_FRAMES)
			sched_yield();
	}
	return NULL;
}

/* Two threads exchange XCHG_FRAMES frames each way, copied or (@p handover) handed over. */
static void
two_threads(bool handover)
{
	struct xchg xa = { .peer = mac_b, .self = mac_a, .handover = handover },
		    xb = { .peer = mac_a, .self = mac_b, .handover = handover };
	uint8_t gid[16] = { 0 };
	pthread_t ta, tb;

	TEST_CHECK_EQ(model_port_attach("loop:threads", mac_a, gid, &xa.me), 0);
	TEST_CHECK_EQ(model_port_attach("loop:threads", mac_b, gid, &xb.me), 0);
	if (xa.me == NULL || xb.me == NULL)
		return;
	TEST_CHECK_EQ(pthread_create(&ta, NULL, xchg_thread, &xa), 0);
	TEST_CHECK_EQ(pthread_create(&tb, NULL, xchg_thread, &xb), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	TEST_CHECK_EQ(xa.got, XCHG_FRAMES);
	TEST_CHECK_EQ(xb.got, XCHG_FRAMES);
	TEST_CHECK_EQ(xa.in_order, XCHG_FRAMES);
	TEST_CHECK_EQ(xb.in_order, XCHG_FRAMES);
	TEST_CHECK_EQ(xa.bad + xb.bad, 0);
	model_port_detach(xa.me);
	model_port_detach(xb.me);
}

static void
test_loop_two_threads(void)
{
	two_threads(false);
}

/* The same with frames built in the wire's buffers and handed over, not copied. */
static void
test_loop_two_threads_handover(void)
{
	two_threads(true);
}

/*
 * model_port_tx_buf(): a frame built there goes to the receiver's queue as it is (the
 * receiver is lent that very buffer) and the sender gets another; with faults, a capture or
 * on another wire the frame is copied and the buffer stays. Frames queued for a port that
 * detaches are dropped; its buffers serve the next port on the switch.
 */
static void
test_handover(void)
{
	static uint8_t g[MODEL_PKT_MAX];
	const struct model_wire_faults none = { 0 };
	struct model_port *a = NULL, *b = NULL, *c = NULL, *u = NULL;
	uint8_t gid[16] = { 0 }, *t, *t2, *t3;
	const uint8_t *fr;
	bool sealed;
	int n, m;

	TEST_CHECK_EQ(model_port_attach("loop:hand", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:hand", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	t = model_port_tx_buf(a);
	TEST_CHECK(t != NULL);
	if (t == NULL)
		goto out;
	TEST_CHECK(model_port_tx_buf(a) == t);		/* the same until a send */
	n = frame(t, mac_b, mac_a, 1, 1);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t, (uint32_t)n), 0);
	t2 = model_port_tx_buf(a);
	TEST_CHECK(t2 != NULL && t2 != t);
	/* a second one while the first is lent: both arrive, in order, the first intact */
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(fr == t && !sealed);
	m = frame(t2, mac_b, mac_a, 2, 2);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t2, (uint32_t)m), 0);
	t3 = model_port_tx_buf(a);
	TEST_CHECK(t3 != t && t3 != t2);
	TEST_CHECK_EQ(xchg_psn(fr, n, sealed), 1);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), m);
	TEST_CHECK(fr == t2);
	TEST_CHECK_EQ(xchg_psn(fr, m, sealed), 2);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), 0);
	/* to its own MAC: handed over to its own queue */
	n = frame(t3, mac_a, mac_a, 3, 3);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t3, (uint32_t)n), 0);
	TEST_CHECK(model_port_tx_buf(a) != t3);
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(fr == t3 && !sealed);
	TEST_CHECK_EQ(xchg_psn(fr, n, sealed), 3);
	/* fault injection: copied (sealed), the buffer stays the sender's */
	TEST_CHECK_EQ(model_port_set_faults(a, &none), 0);
	t = model_port_tx_buf(a);
	n = frame(t, mac_b, mac_a, 4, 20);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t, (uint32_t)n), 0);
	TEST_CHECK(model_port_tx_buf(a) == t);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(fr != t && sealed);
	TEST_CHECK_EQ(rx_psn(fr, n), 4);
	TEST_CHECK_EQ(model_port_set_faults(a, NULL), 0);
	/* a port detached with a frame queued: dropped; the next port takes its buffers */
	t = model_port_tx_buf(a);
	n = frame(t, mac_b, mac_a, 5, 20);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t, (uint32_t)n), 0);
	model_port_detach(b);
	b = NULL;
	TEST_CHECK_EQ(model_port_attach("loop:hand", mac_x, gid, &c), 0);
	TEST_CHECK_EQ(model_port_recv_ref(c, g, sizeof(g), &fr, &sealed), 0);
	t = model_port_tx_buf(a);
	n = frame(t, mac_x, mac_a, 6, 6);
	TEST_CHECK_EQ(model_port_send_unsealed(a, t, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv_ref(c, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK_EQ(xchg_psn(fr, n, sealed), 6);
	/* the UDP wire has no buffer of its own to build in */
	TEST_CHECK_EQ(model_port_attach("udp:127.0.0.1:1", mac_x, gid, &u), 0);
	TEST_CHECK(model_port_tx_buf(u) == NULL);
	TEST_CHECK(model_port_tx_buf(NULL) == NULL);
	model_port_detach(u);
out:
	model_port_detach(c);
	model_port_detach(b);
	model_port_detach(a);
}

/* ---- faults ---- */

struct run {
	struct model_port_stats tx;
	struct model_port_stats rx;
	uint64_t bad;		/* received frames failing the ICRC */
	uint64_t other;		/* received frames failing otherwise */
	uint64_t hash;		/* of the received PSN sequence */
	uint32_t count[2000];	/* deliveries per PSN */
	long order[4000];	/* PSNs in arrival order (-2: ICRC mismatch) */
	uint32_t norder;
};

/* Take every frame port @p b holds into @p out (its PSN, or why it has none). */
static void
drain_into(struct model_port *b, uint8_t *g, struct run *out)
{
	int n;

	while ((n = model_port_recv(b, g, MODEL_PKT_MAX)) > 0) {
		long psn = rx_psn(g, n);

		if (psn >= 0 && psn < 2000)
			out->count[psn]++;
		out->bad += psn == -2;
		out->other += psn == -1;
		if (out->norder < 4000)
			out->order[out->norder++] = psn;
		out->hash = (out->hash ^ (uint64_t)(psn + 3)) * 0x100000001b3ull;
	}
}

/* Send @p nframes frames A -> B with faults @p fl, then clear the faults and drain B. */
static void
fault_run(const struct model_wire_faults *fl, uint32_t nframes, struct run *out)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct model_port *a = NULL, *b = NULL;
	uint8_t gid[16] = { 0 };
	int n;

	memset(out, 0, sizeof(*out));
	TEST_CHECK_EQ(model_port_attach("loop:faults", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:faults", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	TEST_CHECK_EQ(model_port_set_faults(a, fl), 0);
	for (uint32_t i = 0; i < nframes; i++) {
		n = frame(f, mac_b, mac_a, i, i % 40);
		TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
		drain_into(b, g, out);	/* as we go, so the queue never fills */
	}
	TEST_CHECK_EQ(model_port_set_faults(a, NULL), 0);	/* releases a held frame */
	drain_into(b, g, out);
	model_port_stats_get(a, &out->tx);
	model_port_stats_get(b, &out->rx);
	model_port_detach(a);
	model_port_detach(b);
}

static struct run r1, r2;

static void
test_faults_none(void)
{
	struct model_wire_faults none = { .seed = 1 };
	uint32_t once = 0;

	fault_run(NULL, 1000, &r1);
	for (uint32_t i = 0; i < 1000; i++)
		once += r1.count[i] == 1;
	TEST_CHECK_EQ(once, 1000);
	for (uint32_t i = 0; i < r1.norder; i++)
		if (r1.order[i] != (long)i) {
			TEST_CHECK_EQ(r1.order[i], i);
			break;
		}
	TEST_CHECK_EQ(r1.tx.tx_frames, 1000);
	TEST_CHECK_EQ(r1.rx.rx_frames, 1000);
	TEST_CHECK_EQ(r1.rx.rx_bytes, r1.tx.tx_bytes);
	TEST_CHECK_EQ(r1.bad + r1.other, 0);
	/* faults set, every rate 0: the same */
	fault_run(&none, 1000, &r2);
	TEST_CHECK_EQ(r2.hash, r1.hash);
	TEST_CHECK_EQ(r2.tx.tx_dropped + r2.tx.tx_duplicated + r2.tx.tx_reordered +
		      r2.tx.tx_corrupted, 0);
}

static void
test_faults_all_or_nothing(void)
{
	struct model_wire_faults f = { .seed = 7 };
	uint32_t swapped = 0;

	f.drop_ppm = 1000000;
	fault_run(&f, 100, &r1);
	TEST_CHECK_EQ(r1.rx.rx_frames, 0);
	TEST_CHECK_EQ(r1.tx.tx_dropped, 100);

	f.drop_ppm = 0;
	f.dup_ppm = 1000000;
	fault_run(&f, 100, &r1);
	TEST_CHECK_EQ(r1.rx.rx_frames, 200);
	TEST_CHECK_EQ(r1.tx.tx_duplicated, 100);
	for (uint32_t i = 0; i < 100; i++)
		TEST_CHECK_EQ(r1.count[i], 2);

	/* every frame reordered: one is held, the next overtakes it: 1 0 3 2 5 4 ... */
	f.dup_ppm = 0;
	f.reorder_ppm = 1000000;
	fault_run(&f, 100, &r1);
	TEST_CHECK_EQ(r1.rx.rx_frames, 100);
	TEST_CHECK_EQ(r1.tx.tx_reordered, 50);
	for (uint32_t i = 0; i + 1 < r1.norder; i += 2)
		swapped += r1.order[i] == (long)i + 1 && r1.order[i + 1] == (long)i;
	TEST_CHECK_EQ(swapped, 50);
	/* an odd count: the last one is held until the faults are cleared */
	fault_run(&f, 5, &r1);
	TEST_CHECK_EQ(r1.norder, 5);
	TEST_CHECK_EQ(r1.order[4], 4);

	f.reorder_ppm = 0;
	f.corrupt_ppm = 1000000;
	fault_run(&f, 300, &r1);
	TEST_CHECK_EQ(r1.rx.rx_frames, 300);
	TEST_CHECK_EQ(r1.tx.tx_corrupted, 300);
	TEST_CHECK_EQ(r1.bad, 300);	/* every one caught by the ICRC, none otherwise */

	/* rates above 100 % are refused */
	f.corrupt_ppm = 1000001;
	{
		struct model_port *a = NULL;
		uint8_t gid[16] = { 0 };

		TEST_CHECK_EQ(model_port_attach("loop:refuse", mac_a, gid, &a), 0);
		TEST_CHECK_EQ(model_port_set_faults(a, &f), -EINVAL);
		TEST_CHECK_EQ(model_port_set_faults(NULL, NULL), -EINVAL);
		model_port_detach(a);
	}
}

static void
test_faults_mixed(void)
{
	struct model_wire_faults f = {
		.drop_ppm = 100000, .dup_ppm = 100000, .reorder_ppm = 100000,
		.corrupt_ppm = 100000, .seed = 0x1234,
	};
	uint32_t out_of_order = 0;
	long last = -1;

	fault_run(&f, 2000, &r1);
	/* every frame sent is received, less the dropped, plus the duplicated */
	TEST_CHECK_EQ(r1.rx.rx_frames, r1.tx.tx_frames - r1.tx.tx_dropped + r1.tx.tx_duplicated);
	TEST_CHECK_EQ(r1.tx.tx_frames, 2000);
	/* 10 % each of 2000 draws: far inside [100, 300] for any sane generator */
	TEST_CHECK(r1.tx.tx_dropped > 100 && r1.tx.tx_dropped < 300);
	TEST_CHECK(r1.tx.tx_duplicated > 100 && r1.tx.tx_duplicated < 300);
	TEST_CHECK(r1.tx.tx_reordered > 80 && r1.tx.tx_reordered < 300);
	TEST_CHECK(r1.tx.tx_corrupted > 100 && r1.tx.tx_corrupted < 300);
	/* corrupted frames fail the ICRC (a duplicated one twice); nothing else fails */
	TEST_CHECK(r1.bad >= r1.tx.tx_corrupted && r1.bad <= 2 * r1.tx.tx_corrupted);
	TEST_CHECK_EQ(r1.other, 0);
	for (uint32_t i = 0; i < r1.norder; i++) {
		if (r1.order[i] < 0)
			continue;
		out_of_order += r1.order[i] < last;
		last = r1.order[i];
	}
	TEST_CHECK(out_of_order > 50);
	/* the same seed gives the same run; another seed another */
	fault_run(&f, 2000, &r2);
	TEST_CHECK_EQ(r2.hash, r1.hash);
	TEST_CHECK(memcmp(&r1.tx, &r2.tx, sizeof(r1.tx)) == 0);
	f.seed = 0x1235;
	fault_run(&f, 2000, &r2);
	TEST_CHECK(r2.hash != r1.hash);
	TEST_CHECK_EQ(r2.rx.rx_frames, r2.tx.tx_frames - r2.tx.tx_dropped + r2.tx.tx_duplicated);
}

/* ---- UDP ---- */

/* Receive on @p p, retrying for up to about two seconds (the kernel delivers at once). */
static int
udp_recv_wait(struct model_port *p, uint8_t *g, uint32_t cap)
{
	for (int i = 0; i < 2000; i++) {
		int n = model_port_recv(p, g, cap);

		if (n != 0)
			return n;
		usleep(1000);
	}
	return 0;
}

static uint16_t udp_port;

static int
udp_pair(struct model_port **a, struct model_port **b)
{
	char sa[64], sb[64];
	uint8_t ga[16], gb[16];

	gid_v4(ga, 127, 0, 0, 1);
	gid_v4(gb, 127, 0, 0, 2);
	/* a port number unlikely to be in use; try a few */
	for (int k = 0; k < 20; k++) {
		udp_port = (uint16_t)(20000 + (getpid() * 7 + k * 131) % 30000);
		snprintf(sa, sizeof(sa), "udp:127.0.0.1:%u", udp_port);
		snprintf(sb, sizeof(sb), "udp:127.0.0.2:%u", udp_port);
		*a = *b = NULL;
		if (model_port_attach(sa, mac_a, ga, a) != 0)
			continue;
		if (model_port_attach(sb, mac_b, gb, b) == 0)
			return 0;
		model_port_detach(*a);
	}
	return -1;
}

static void
test_udp(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct model_port *a, *b;
	struct model_pkt_hdr h, s;
	struct model_wire_faults fl = { .corrupt_ppm = 1000000, .seed = 3 };
	struct model_port_stats st;
	const uint8_t *pay;
	uint32_t plen;
	int n, m;

	TEST_CHECK_EQ(udp_pair(&a, &b), 0);
	if (a == NULL || b == NULL)
		return;
	/* A (127.0.0.1) to B (127.0.0.2), with a TOS, a VLAN tag and a UDP source port the
	 * socket will not use */
	memset(&s, 0, sizeof(s));
	memcpy(s.dmac, mac_b, 6);
	memcpy(s.smac, mac_a, 6);
	s.has_vlan = true;
	s.vlan_tci = 5;
	s.ipv4 = true;
	gid_v4(s.sgid, 127, 0, 0, 1);
	gid_v4(s.dgid, 127, 0, 0, 2);
	s.tos = 0x02;
	s.ttl = 3;
	s.sport = 0xc0de;
	s.opcode = MODEL_RC_WRITE_ONLY_IMM;
	s.pkey = 0xffff;
	s.dqpn = 0x123;
	s.psn = 0x4567;
	s.reth_va = 0x1000;
	s.reth_rkey = 0x55;
	s.reth_len = 1000;
	s.imm_be = 0x11223344;
	memset(g, 0x3c, 1000);
	n = model_pkt_build(&s, g, 1000, f, sizeof(f));
	TEST_CHECK(n > 0);
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	m = udp_recv_wait(b, g, sizeof(g));
	TEST_CHECK_EQ(m, n - 4);	/* rebuilt without the VLAN tag */
	TEST_CHECK_EQ(model_pkt_parse(g, (uint32_t)m, &h, &pay, &plen), 0);
	TEST_CHECK(memcmp(h.dmac, mac_b, 6) == 0);
	TEST_CHECK(memcmp(h.sgid, s.sgid, 16) == 0);
	TEST_CHECK(memcmp(h.dgid, s.dgid, 16) == 0);
	TEST_CHECK_EQ(h.sport, udp_port);		/* the socket's port, not 0xc0de */
	TEST_CHECK_EQ(h.tos, 0x02);			/* IP_RECVTOS */
	TEST_CHECK_EQ(h.opcode, MODEL_RC_WRITE_ONLY_IMM);
	TEST_CHECK_EQ(h.dqpn, 0x123);
	TEST_CHECK_EQ(h.psn, 0x4567);
	TEST_CHECK_EQ(h.reth_len, 1000);
	TEST_CHECK_EQ(h.imm_be, 0x11223344);
	TEST_CHECK_EQ(plen, 1000);
	TEST_CHECK(plen == 1000 && pay[0] == 0x3c && pay[999] == 0x3c);

	/* a frame claiming another source address arrives from the socket's address */
	gid_v4(s.sgid, 10, 9, 8, 7);
	s.has_vlan = false;
	n = model_pkt_build(&s, NULL, 0, f, sizeof(f));
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	m = udp_recv_wait(b, g, sizeof(g));
	TEST_CHECK_EQ(model_pkt_parse(g, (uint32_t)m, &h, NULL, NULL), 0);
	TEST_CHECK_EQ(h.sgid[12], 127);
	TEST_CHECK_EQ(h.sgid[15], 1);

	/* B answers A: an ACK */
	memset(&s, 0, sizeof(s));
	memcpy(s.dmac, mac_a, 6);
	s.ipv4 = true;
	gid_v4(s.sgid, 127, 0, 0, 2);
	gid_v4(s.dgid, 127, 0, 0, 1);
	s.opcode = MODEL_RC_ACK;
	s.psn = 0x4567;
	s.aeth_msn = 1;
	n = model_pkt_build(&s, NULL, 0, f, sizeof(f));
	TEST_CHECK_EQ(model_port_send(b, f, (uint32_t)n), 0);
	m = udp_recv_wait(a, g, sizeof(g));
	TEST_CHECK_EQ(m, n);
	TEST_CHECK_EQ(model_pkt_parse(g, (uint32_t)m, &h, NULL, NULL), 0);
	TEST_CHECK(memcmp(h.dmac, mac_a, 6) == 0);
	TEST_CHECK_EQ(h.opcode, MODEL_RC_ACK);
	/* too small a buffer: dropped */
	TEST_CHECK_EQ(model_port_send(b, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(udp_recv_wait(a, g, 50), -EMSGSIZE);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), 0);

	/* corruption on the UDP wire is caught by the receiver's ICRC check */
	TEST_CHECK_EQ(model_port_set_faults(b, &fl), 0);
	TEST_CHECK_EQ(model_port_send(b, f, (uint32_t)n), 0);
	m = udp_recv_wait(a, g, sizeof(g));
	TEST_CHECK_EQ(m, n);
	TEST_CHECK_EQ(model_pkt_parse(g, (uint32_t)m, &h, NULL, NULL), -EILSEQ);
	TEST_CHECK_EQ(model_port_set_faults(b, NULL), 0);

	/* the UDP wire carries IPv4 only */
	s.ipv4 = false;
	n = model_pkt_build(&s, NULL, 0, f, sizeof(f));
	TEST_CHECK_EQ(model_port_send(b, f, (uint32_t)n), -EINVAL);

	model_port_stats_get(b, &st);
	TEST_CHECK_EQ(st.tx_frames, 3);
	TEST_CHECK_EQ(st.rx_frames, 2);
	TEST_CHECK_EQ(st.tx_corrupted, 1);
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.tx_frames, 2);
	TEST_CHECK_EQ(st.rx_frames, 2);

	/* the same address and port twice: the second bind fails */
	{
		struct model_port *c = NULL;
		char spec[64];

		snprintf(spec, sizeof(spec), "udp:127.0.0.1:%u", udp_port);
		TEST_CHECK_EQ(model_port_attach(spec, mac_x, s.sgid, &c), -EADDRINUSE);
	}
	model_port_detach(a);
	model_port_detach(b);
}

/* ---- pcap ---- */

static uint32_t
rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);	/* the file is in host order */
	return v;
}

static void
test_pcap(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX], file[16384];
	char path[64];
	struct model_port *a = NULL, *b = NULL;
	uint8_t gid[16] = { 0 };
	uint32_t lens[3], off = 24;
	size_t flen;
	FILE *fp;
	int n;

	snprintf(path, sizeof(path), "/tmp/test_model_wire_%d.pcap", (int)getpid());
	TEST_CHECK_EQ(model_port_attach("loop:pcap", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:pcap", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	TEST_CHECK_EQ(model_port_pcap_open(a, "/nonexistent-dir/x.pcap"), -ENOENT);
	TEST_CHECK_EQ(model_port_pcap_open(a, path), 0);
	/* A sends two (the second to itself, so A also receives one) */
	n = frame(f, mac_b, mac_a, 10, 5);
	lens[0] = (uint32_t)n;
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	n = frame(f, mac_a, mac_a, 11, 64);
	lens[1] = lens[2] = (uint32_t)n;
	TEST_CHECK_EQ(model_port_send(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), n);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), (int)lens[0]);
	TEST_CHECK_EQ(model_port_pcap_open(a, NULL), 0);	/* close */

	fp = fopen(path, "rb");
	TEST_CHECK(fp != NULL);
	if (fp == NULL)
		goto out;
	flen = fread(file, 1, sizeof(file), fp);
	fclose(fp);
	TEST_CHECK_EQ(flen, 24 + 3 * 16 + lens[0] + lens[1] + lens[2]);
	TEST_CHECK_EQ(rd32(file), 0xa1b2c3d4u);
	TEST_CHECK_EQ(rd32(file + 20), 1);	/* LINKTYPE_ETHERNET */
	for (int k = 0; k < 3 && off + 16 <= flen; k++) {
		TEST_CHECK_EQ(rd32(file + off + 8), lens[k]);
		TEST_CHECK_EQ(rd32(file + off + 12), lens[k]);
		off += 16;
		TEST_CHECK_EQ(rx_psn(file + off, (int)lens[k]), k == 0 ? 10 : 11);
		off += lens[k];
	}
	/* tshark, when installed, decodes the file as RoCEv2 */
	if (system("command -v tshark >/dev/null 2>&1") == 0) {
		char cmd[256], line[256];
		uint32_t psns = 0;

		snprintf(cmd, sizeof(cmd),
			 "tshark -r %s -T fields -e infiniband.bth.psn -e infiniband.bth.opcode "
			 "2>/dev/null", path);
		fp = popen(cmd, "r");
		TEST_CHECK(fp != NULL);
		while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
			printf("#   tshark: %s", line);
			psns += strtoul(line, NULL, 10) == (psns == 0 ? 10u : 11u);
		}
		if (fp != NULL)
			pclose(fp);
		TEST_CHECK_EQ(psns, 3);
	} else {
		printf("#   tshark not installed: pcap decoding by tshark skipped\n");
	}
out:
	unlink(path);
	model_port_detach(a);
	model_port_detach(b);
}

/*
 * model_port_send_desc(): a frame built in model_port_tx_buf() and handed over unsealed
 * carries the sender's header (extension headers the opcode lacks cleared, as a parse
 * leaves them) and payload place, and it is what the frame parses to; a frame from another
 * buffer, a port with faults and a capture carry none, and the copying receive gives none.
 */
static void
test_desc(void)
{
	static uint8_t g[MODEL_PKT_MAX], pay[9];
	const struct model_wire_faults none = { 0 };
	struct model_port *a = NULL, *b = NULL;
	const struct model_pkt_desc *dc;
	struct model_pkt_hdr h, p;
	const uint8_t *fr, *pl;
	uint8_t gid[16] = { 0 }, *f;
	uint32_t len;
	bool sealed;
	int n;

	TEST_CHECK_EQ(model_port_attach("loop:desc", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:desc", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	f = model_port_tx_buf(a);
	n = frame(f, mac_b, mac_a, 21, sizeof(pay));
	TEST_CHECK_EQ(model_pkt_parse(f, (uint32_t)n, &p, &pl, &len), 0);
	h = p;
	h.reth_rkey = 0x1234;	/* a SEND ONLY carries no RETH: not described */
	h.aeth_msn = 5;		/* nor an AETH */
	TEST_CHECK_EQ(model_port_send_desc(a, f, (uint32_t)n, &h, (uint32_t)(pl - f), len), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(!sealed);
	dc = model_port_rx_desc(b);
	TEST_CHECK(dc != NULL);
	if (dc != NULL) {
		TEST_CHECK(memcmp(&dc->h, &p, sizeof(p)) == 0);
		TEST_CHECK_EQ(dc->h.psn, 21);
		TEST_CHECK_EQ(dc->h.reth_rkey, 0);
		TEST_CHECK_EQ(dc->h.aeth_msn, 0);
		TEST_CHECK_EQ(dc->payload_off, (uint32_t)(pl - f));
		TEST_CHECK_EQ(dc->len, sizeof(pay));
		TEST_CHECK_EQ(model_pkt_parse_ex(fr, (uint32_t)n, false, &h, &pl, &len), 0);
		TEST_CHECK(memcmp(&dc->h, &h, sizeof(h)) == 0);
		TEST_CHECK(pl == fr + dc->payload_off);
	}
	/* nothing lent any more: no description */
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), 0);
	TEST_CHECK(model_port_rx_desc(b) == NULL);
	/* a frame from another buffer is copied into the slot: no description */
	n = frame(g, mac_b, mac_a, 22, sizeof(pay));
	TEST_CHECK_EQ(model_port_send_desc(a, g, (uint32_t)n, &p, 0, 0), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(model_port_rx_desc(b) == NULL);
	/* a description that would not fit the frame is not given */
	f = model_port_tx_buf(a);
	n = frame(f, mac_b, mac_a, 23, sizeof(pay));
	TEST_CHECK_EQ(model_port_send_desc(a, f, (uint32_t)n, &p, (uint32_t)n, 1), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(model_port_rx_desc(b) == NULL);
	/* the copying receive gives none */
	f = model_port_tx_buf(a);
	n = frame(f, mac_b, mac_a, 24, sizeof(pay));
	TEST_CHECK_EQ(model_port_send_desc(a, f, (uint32_t)n, &p, 0, 0), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), n);
	TEST_CHECK(model_port_rx_desc(b) == NULL);
	/* with fault injection on (even at 0 %): sealed, no description */
	TEST_CHECK_EQ(model_port_set_faults(a, &none), 0);
	f = model_port_tx_buf(a);
	n = frame(f, mac_b, mac_a, 25, sizeof(pay));
	TEST_CHECK_EQ(model_port_send_desc(a, f, (uint32_t)n, &p, 0, 0), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(sealed);
	TEST_CHECK(model_port_rx_desc(b) == NULL);
	TEST_CHECK_EQ(model_port_set_faults(a, NULL), 0);
	/* to its own MAC: through the port's own queue, described too */
	f = model_port_tx_buf(a);
	n = frame(f, mac_a, mac_a, 26, sizeof(pay));
	TEST_CHECK_EQ(model_pkt_parse(f, (uint32_t)n, &p, &pl, &len), 0);
	TEST_CHECK_EQ(model_port_send_desc(a, f, (uint32_t)n, &p, (uint32_t)(pl - f), len), 0);
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), n);
	dc = model_port_rx_desc(a);
	TEST_CHECK(dc != NULL && dc->h.psn == 26 && dc->len == sizeof(pay));
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), 0);
	model_port_detach(a);
	model_port_detach(b);
}

/*
 * Bare frames (model_pkt_build_bare(), model_port_send_bare()): only the MACs and the payload
 * are written. A loop port with no fault and no capture carries them so, described; every
 * receive that reads bytes gets the frame model_pkt_build() makes, byte for byte.
 */
static void
bare_send(struct model_port *a, const struct model_pkt_hdr *h, const uint8_t *want, int n,
	  uint32_t poff, uint32_t plen)
{
	uint8_t *f = model_port_tx_buf(a), *pl = NULL;

	if (f == NULL)
		return;
	memset(f, 0xa5, MODEL_PKT_MAX);	/* what a previous frame left */
	TEST_CHECK_EQ(model_pkt_build_bare(h, plen, f, MODEL_PKT_MAX, &pl), n);
	TEST_CHECK(pl == f + poff);
	TEST_CHECK(memcmp(f, want, 12) == 0);		/* the MACs, for the switch */
	TEST_CHECK_EQ(f[12], 0xa5);			/* the rest not */
	memcpy(f + poff, want + poff, plen);
	TEST_CHECK_EQ(model_port_send_bare(a, f, (uint32_t)n, h, poff, plen), 0);
}

static void
test_bare(void)
{
	static uint8_t g[MODEL_PKT_MAX], want[MODEL_PKT_MAX], own[MODEL_PKT_MAX];
	const struct model_wire_faults none = { 0 };
	struct model_port *a = NULL, *b = NULL;
	const struct model_pkt_desc *dc;
	struct model_pkt_hdr h, q;
	const uint8_t *fr, *pl;
	uint8_t gid[16] = { 0 }, *f;
	uint32_t len, poff;
	bool sealed;
	int n, m;

	TEST_CHECK_EQ(model_port_attach("loop:bare", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:bare", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	n = frame(want, mac_b, mac_a, 40, 13);	/* sealed, as model_pkt_build() makes it */
	TEST_CHECK_EQ(model_pkt_parse(want, (uint32_t)n, &h, &pl, &len), 0);
	poff = (uint32_t)(pl - want);
	TEST_CHECK(model_port_bare(a));
	/* lent in place: described, the header bytes still unwritten */
	bare_send(a, &h, want, n, poff, len);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(!sealed);
	dc = model_port_rx_desc(b);
	TEST_CHECK(dc != NULL && memcmp(&dc->h, &h, sizeof(h)) == 0);
	TEST_CHECK(dc != NULL && dc->payload_off == poff && dc->len == len);
	TEST_CHECK_EQ(fr[12], 0xa5);
	TEST_CHECK(memcmp(fr + poff, want + poff, len) == 0);
	/* the bytes asked for: the header written from the description, once */
	TEST_CHECK_EQ(model_port_rx_fill(b), 0);
	TEST_CHECK(memcmp(fr, want, (size_t)n - 4) == 0);
	TEST_CHECK_EQ(model_pkt_parse_ex(fr, (uint32_t)n, false, &q, NULL, NULL), 0);
	TEST_CHECK(memcmp(&q, &h, sizeof(h)) == 0);
	TEST_CHECK_EQ(model_port_rx_fill(b), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), 0);
	TEST_CHECK_EQ(model_port_rx_fill(b), 0);	/* nothing lent: nothing to do */
	/* the copying receive (a capture's too): the whole frame, sealed */
	bare_send(a, &h, want, n, poff, len);
	memset(g, 0, sizeof(g));
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), n);
	TEST_CHECK(memcmp(g, want, (size_t)n) == 0);
	/* through the port's own queue, lent and copied */
	m = frame(own, mac_a, mac_a, 41, 13);
	TEST_CHECK_EQ(m, n);
	TEST_CHECK_EQ(model_pkt_parse(own, (uint32_t)m, &q, &pl, &len), 0);
	bare_send(a, &q, own, m, poff, len);
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), m);
	TEST_CHECK(model_port_rx_desc(a) != NULL && fr[12] == 0xa5);
	TEST_CHECK_EQ(model_port_rx_fill(a), 0);
	TEST_CHECK(memcmp(fr, own, (size_t)m - 4) == 0);
	bare_send(a, &q, own, m, poff, len);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), m);
	TEST_CHECK(memcmp(g, own, (size_t)m) == 0);
	/* fault injection on (even at 0 %): not bare; the header is written on send, sealed */
	TEST_CHECK_EQ(model_port_set_faults(a, &none), 0);
	TEST_CHECK(!model_port_bare(a));
	bare_send(a, &h, want, n, poff, len);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(sealed);
	TEST_CHECK(memcmp(fr, want, (size_t)n) == 0);
	/* ... and a payload offset the header does not give is refused */
	f = model_port_tx_buf(a);
	TEST_CHECK_EQ(model_port_send_bare(a, f, (uint32_t)n, &h, poff + 4, len), -EINVAL);
	TEST_CHECK_EQ(model_port_set_faults(a, NULL), 0);
	/* a description that does not give the frame's length is not written into it */
	{
		struct model_pkt_desc d = { .h = h, .payload_off = poff, .len = len };

		memcpy(g, want, (size_t)n);
		TEST_CHECK_EQ(model_pkt_desc_fill(&d, g, (uint32_t)n + 4), -EINVAL);
		d.payload_off = poff + 1;
		TEST_CHECK_EQ(model_pkt_desc_fill(&d, g, (uint32_t)n), -EINVAL);
		d.payload_off = poff;
		memset(g, 0, poff);
		TEST_CHECK_EQ(model_pkt_desc_fill(&d, g, (uint32_t)n), 0);
		TEST_CHECK(memcmp(g, want, (size_t)n - 4) == 0);
	}
	/* a header model_pkt_build_hdr() refuses is refused bare too */
	q = h;
	q.psn = 1u << 24;
	TEST_CHECK(model_pkt_build_bare(&q, len, g, sizeof(g), &f) < 0);
	model_port_detach(a);
	model_port_detach(b);
}

/*
 * model_port_send_unsealed(): the engine leaves the ICRC field unwritten. A loop port with no
 * fault and no capture carries the frame so (model_port_recv_ref() says unsealed, in place);
 * the copying receive, a capture and fault injection all give the real ICRC.
 */
static void
test_unsealed(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX], want[MODEL_PKT_MAX];
	const struct model_wire_faults none = { 0 };
	struct model_port *a = NULL, *b = NULL;
	struct model_port_stats st;
	struct model_pkt_hdr h;
	const uint8_t *fr, *pay;
	uint8_t gid[16] = { 0 };
	char path[64];
	uint32_t len;
	bool sealed;
	int n;

	TEST_CHECK_EQ(model_port_attach("loop:unsealed", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:unsealed", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	n = frame(want, mac_b, mac_a, 20, 9);	/* with its ICRC, as model_pkt_build() makes it */
	/* unsealed on the wire: the ICRC field keeps what the sender left there */
	memcpy(f, want, (size_t)n);
	memset(f + n - 4, 0xa5, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK(memcmp(f + n - 4, "\xa5\xa5\xa5\xa5", 4) == 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(!sealed);
	TEST_CHECK(fr != g);	/* in place in B's queue */
	TEST_CHECK(memcmp(fr, want, (size_t)n - 4) == 0);
	TEST_CHECK_EQ(model_pkt_parse(fr, (uint32_t)n, &h, NULL, NULL), -EILSEQ);
	TEST_CHECK_EQ(model_pkt_parse_ex(fr, (uint32_t)n, false, &h, &pay, &len), 0);
	TEST_CHECK_EQ(h.psn, 20);
	TEST_CHECK_EQ(len, 9);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), 0);
	/* every other check stays: a bad IPv4 checksum is refused unsealed too */
	memcpy(f, want, (size_t)n);
	f[14 + 10] ^= 1;
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK_EQ(model_pkt_parse_ex(fr, (uint32_t)n, sealed, &h, NULL, NULL), -EBADMSG);
	/* the copying receive writes the ICRC */
	memcpy(f, want, (size_t)n);
	memset(f + n - 4, 0, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(b, g, sizeof(g)), n);
	TEST_CHECK(memcmp(g, want, (size_t)n) == 0);
	/* a frame lent stays intact while others come and go */
	memcpy(f, want, (size_t)n);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	for (uint32_t k = 0; k < 3; k++) {
		int m = frame(g, mac_b, mac_a, 30 + k, 40);

		TEST_CHECK_EQ(model_port_send_unsealed(a, g, (uint32_t)m), 0);
	}
	TEST_CHECK(memcmp(fr, want, (size_t)n - 4) == 0);
	for (uint32_t k = 0; k < 3; k++) {
		int m = model_port_recv_ref(b, g, sizeof(g), &fr, &sealed);

		TEST_CHECK(m > 0 && !sealed);
		TEST_CHECK_EQ(model_pkt_parse_ex(fr, (uint32_t)(m > 0 ? m : 0), sealed, &h, NULL,
						 NULL), 0);
		TEST_CHECK_EQ(h.psn, 30 + k);
	}
	/* with fault injection on (even at 0 %), sealed on send */
	TEST_CHECK_EQ(model_port_set_faults(a, &none), 0);
	memcpy(f, want, (size_t)n);
	memset(f + n - 4, 0, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK(memcmp(f, want, (size_t)n) == 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(sealed);
	TEST_CHECK(memcmp(fr, want, (size_t)n) == 0);
	TEST_CHECK_EQ(model_port_set_faults(a, NULL), 0);
	/* a capture on the sender: sealed on send; on the receiver: sealed on receipt */
	snprintf(path, sizeof(path), "/tmp/test_model_wire_u%d.pcap", (int)getpid());
	TEST_CHECK_EQ(model_port_pcap_open(a, path), 0);
	memcpy(f, want, (size_t)n);
	memset(f + n - 4, 0, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK(memcmp(f, want, (size_t)n) == 0);
	TEST_CHECK_EQ(model_port_pcap_open(a, NULL), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(sealed);
	TEST_CHECK_EQ(model_port_pcap_open(b, path), 0);
	memcpy(f, want, (size_t)n);
	memset(f + n - 4, 0, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK(sealed);
	TEST_CHECK(fr == g);
	TEST_CHECK(memcmp(g, want, (size_t)n) == 0);
	TEST_CHECK_EQ(model_port_pcap_open(b, NULL), 0);
	unlink(path);
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.tx_frames, 10);
	model_port_stats_get(b, &st);
	TEST_CHECK_EQ(st.rx_frames, 10);
	/* bad arguments */
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, 17), -EINVAL);
	TEST_CHECK_EQ(model_port_send_unsealed(NULL, f, (uint32_t)n), -EINVAL);
	TEST_CHECK_EQ(model_port_recv_ref(b, g, sizeof(g), NULL, &sealed), -EINVAL);
	model_port_detach(a);
	model_port_detach(b);
}

/*
 * Unsealed frames a loop port sends to its own MAC (a device talking to itself) skip the
 * switch: in place and unsealed for model_port_recv_ref(), sealed by model_port_recv(),
 * taken in turn with the frames of other ports (each source's order kept, neither
 * starved), and bounded (256 frames: -ENOBUFS, counted as tx_dropped).
 */
static void
test_unsealed_own(void)
{
	static uint8_t f[MODEL_PKT_MAX], g[MODEL_PKT_MAX];
	struct model_port *a = NULL, *b = NULL;
	struct model_port_stats st;
	uint32_t next_a = 100, next_b = 500, got_a = 0, got_b = 0, k;
	const uint8_t *fr;
	uint8_t gid[16] = { 0 };
	bool sealed, inorder = true;
	int n, m;

	TEST_CHECK_EQ(model_port_attach("loop:own", mac_a, gid, &a), 0);
	TEST_CHECK_EQ(model_port_attach("loop:own", mac_b, gid, &b), 0);
	if (a == NULL || b == NULL)
		return;
	/* 20 from A to itself, 20 from B to A, interleaved on the send side */
	for (k = 0; k < 20; k++) {
		n = frame(f, mac_a, mac_a, 100 + k, 16);
		memset(f + n - 4, 0, 4);
		TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
		n = frame(f, mac_a, mac_b, 500 + k, 16);
		memset(f + n - 4, 0, 4);
		TEST_CHECK_EQ(model_port_send_unsealed(b, f, (uint32_t)n), 0);
	}
	for (k = 0; k < 40; k++) {
		struct model_pkt_hdr h;

		m = model_port_recv_ref(a, g, sizeof(g), &fr, &sealed);
		TEST_CHECK(m > 0 && !sealed && fr != g);
		if (m <= 0 || model_pkt_parse_ex(fr, (uint32_t)m, false, &h, NULL, NULL) != 0) {
			inorder = false;
			break;
		}
		if (h.psn == next_a) {
			next_a++;
			got_a++;
		} else if (h.psn == next_b) {
			next_b++;
			got_b++;
		} else {
			inorder = false;
		}
		/* in turn: neither source runs more than one frame ahead of the other */
		if (got_a > got_b + 1 || got_b > got_a + 1)
			inorder = false;
	}
	TEST_CHECK(inorder);
	TEST_CHECK_EQ(got_a, 20);
	TEST_CHECK_EQ(got_b, 20);
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), 0);
	/* the copying receive seals a frame to itself */
	n = frame(f, mac_a, mac_a, 7, 33);
	memcpy(g, f, (size_t)n);
	memset(f + n - 4, 0, 4);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	memset(f, 0, (size_t)n);
	TEST_CHECK_EQ(model_port_recv(a, f, sizeof(f)), n);
	TEST_CHECK(memcmp(f, g, (size_t)n) == 0);
	TEST_CHECK_EQ(rx_psn(f, n), 7);
	/* too small a buffer: the frame is dropped, the next one comes */
	n = frame(f, mac_a, mac_a, 8, 33);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	n = frame(f, mac_a, mac_a, 9, 33);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_recv(a, g, 20), -EMSGSIZE);
	TEST_CHECK_EQ(model_port_recv(a, g, sizeof(g)), n);
	TEST_CHECK_EQ(rx_psn(g, n), 9);
	/* the bound */
	for (k = 0; k < 256; k++)
		TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), 0);
	TEST_CHECK_EQ(model_port_send_unsealed(a, f, (uint32_t)n), -ENOBUFS);
	model_port_stats_get(a, &st);
	TEST_CHECK_EQ(st.tx_dropped, 1);
	for (k = 0; k < 256; k++)
		TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), n);
	TEST_CHECK_EQ(model_port_recv_ref(a, g, sizeof(g), &fr, &sealed), 0);
	model_port_detach(a);
	model_port_detach(b);
}

int
main(void)
{
	TEST_RUN(test_attach_specs);
	TEST_RUN(test_loop_delivery);
	TEST_RUN(test_loop_queue_bound);
	TEST_RUN(test_loop_two_threads);
	TEST_RUN(test_loop_two_threads_handover);
	TEST_RUN(test_handover);
	TEST_RUN(test_desc);
	TEST_RUN(test_bare);
	TEST_RUN(test_faults_none);
	TEST_RUN(test_faults_all_or_nothing);
	TEST_RUN(test_faults_mixed);
	TEST_RUN(test_udp);
	TEST_RUN(test_pcap);
	TEST_RUN(test_unsealed);
	TEST_RUN(test_unsealed_own);
	return test_done();
}
