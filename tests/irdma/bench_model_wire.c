/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Cost per frame of the model's wires: model_port_send on one port and model_port_recv on
 * the other, for the in-process switch ("loop:<name>") and the Ethernet wire on a net_ring
 * pair ("eth:<port>", rte_eth_from_rings), with a 64-byte and a 1024-byte payload, measured
 * in the same run; prints ns per frame and the Ethernet wire's ratio to the loop wire.
 * Never fails on timing; exits non-zero when a frame does not arrive.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_ring.h>

#include "bench_model_clock.h"
#include "model_pkt.h"
#include "test.h"
#include "test_model_gid.h"

#define REPEATS 5
#define BATCH	32u	/* frames sent before they are received */

static const uint8_t mac_a[6] = { 0x02, 0, 0, 0, 0, 0x0a };
static const uint8_t mac_b[6] = { 0x02, 0, 0, 0, 0, 0x0b };

/* A SEND_ONLY frame from a to b with @p plen payload bytes. */
static int
frame(uint8_t *f, uint32_t plen)
{
	static uint8_t pay[1024];
	struct model_pkt_hdr h;

	memset(&h, 0, sizeof(h));
	memcpy(h.dmac, mac_b, 6);
	memcpy(h.smac, mac_a, 6);
	h.ipv4 = true;
	gid_v4(h.sgid, 10, 0, 0, 1);
	gid_v4(h.dgid, 10, 0, 0, 2);
	h.ttl = 64;
	h.ip_id = 1;
	h.sport = 0xc000;
	h.opcode = MODEL_RC_SEND_ONLY;
	h.pkey = 0xffff;
	h.dqpn = 7;
	return model_pkt_build(&h, pay, plen, f, MODEL_PKT_MAX);
}

/* Best of REPEATS runs of @p iters frames a -> b; ns per frame, or -1 when one was lost. */
static double
measure(struct model_port *a, struct model_port *b, const uint8_t *f, uint32_t len, long iters)
{
	static uint8_t buf[MODEL_PKT_MAX];
	double best = 1e30;

	for (int r = 0; r < REPEATS; r++) {
		double t0 = bench_now_ns();

		for (long i = 0; i < iters; i += BATCH) {
			for (uint32_t k = 0; k < BATCH; k++)
				if (model_port_send(a, f, len) != 0)
					return -1;
			for (uint32_t k = 0; k < BATCH; k++)
				if (model_port_recv(b, buf, sizeof(buf)) != (int)len)
					return -1;
		}
		t0 = (bench_now_ns() - t0) / (double)iters;
		if (t0 < best)
			best = t0;
	}
	return best;
}

int
main(int argc, char **argv)
{
	static uint8_t f[MODEL_PKT_MAX];
	struct model_port *la = NULL, *lb = NULL, *ea = NULL, *eb = NULL;
	struct rte_ring *ab, *ba;
	const long iters = argc > 1 && strcmp(argv[1], "--quick") == 0 ? 3200 : 320000;
	static const uint32_t sizes[] = { 64, 1024 };
	uint8_t ga[16], gb[16];
	char sa[32], sb[32];
	int pa, pb, ret = 0;

	if (test_eal_init("bench_model_wire", NULL) < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	ab = rte_ring_create("bmw_ab", 1024, SOCKET_ID_ANY, 0);
	ba = rte_ring_create("bmw_ba", 1024, SOCKET_ID_ANY, 0);
	pa = ab != NULL && ba != NULL ? rte_eth_from_rings("bmw_a", &ba, 1, &ab, 1,
							  SOCKET_ID_ANY) : -1;
	pb = pa >= 0 ? rte_eth_from_rings("bmw_b", &ab, 1, &ba, 1, SOCKET_ID_ANY) : -1;
	gid_v4(ga, 10, 0, 0, 1);
	gid_v4(gb, 10, 0, 0, 2);
	snprintf(sa, sizeof(sa), "eth:%d", pa);
	snprintf(sb, sizeof(sb), "eth:%d", pb);
	if (pb < 0 || model_port_attach("loop:bench", mac_a, ga, &la) != 0 ||
	    model_port_attach("loop:bench", mac_b, gb, &lb) != 0 ||
	    model_port_attach(sa, mac_a, ga, &ea) != 0 || model_port_attach(sb, mac_b, gb, &eb) != 0) {
		printf("set-up failed\n");
		return 1;
	}
	printf("%-8s %8s %12s %12s %8s\n", "payload", "frame", "loop ns", "eth ns", "eth/loop");
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int len = frame(f, sizes[i]);
		double tl = measure(la, lb, f, (uint32_t)len, iters);
		double te = measure(ea, eb, f, (uint32_t)len, iters);

		if (tl < 0 || te < 0) {
			printf("%u bytes: a frame did not arrive\n", sizes[i]);
			ret = 1;
			continue;
		}
		printf("%-8u %8d %12.1f %12.1f %8.2f\n", sizes[i], len, tl, te, te / tl);
	}
	model_port_detach(la);
	model_port_detach(lb);
	model_port_detach(ea);
	model_port_detach(eb);
	(void)rte_eth_dev_close((uint16_t)pa);
	(void)rte_eth_dev_close((uint16_t)pb);
	rte_eal_cleanup();
	return ret;
}
