/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Cost of the model's RoCEv2 codec per frame: model_pkt_build, model_pkt_parse and both,
 * for a 64-byte and a 4096-byte payload, next to a memcpy of the same frame measured in the
 * same run (the floor any packet path pays), plus the ICRC alone. Prints a table of ns per
 * frame and the ratio to memcpy; never fails on timing. Exits non-zero only when a frame
 * does not build or parse back.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model_clock.h"
#include "model_pkt.h"

#define REPEATS 5

static uint8_t frame[MODEL_PKT_MAX], copy[MODEL_PKT_MAX], payload[4096];
static volatile uint32_t sink;

enum what { W_MEMCPY, W_BUILD, W_PARSE, W_BOTH, W_ICRC, W_N };
static const char *const names[W_N] = { "memcpy", "build", "parse", "build+parse", "icrc" };

/* Best of REPEATS runs of @p iters operations @p w; ns per operation. -1 on a failure. */
static double
measure(enum what w, struct model_pkt_hdr *h, uint32_t plen, int flen, long iters)
{
	double best = 1e30;

	for (int r = 0; r < REPEATS; r++) {
		double t0 = bench_now_ns();

		for (long i = 0; i < iters; i++) {
			struct model_pkt_hdr d;
			const uint8_t *p;
			uint32_t len;
			int n = flen;

			h->psn = (uint32_t)i & 0xffffff;
			switch (w) {
			case W_MEMCPY:
				memcpy(copy, frame, (size_t)flen);
				sink += copy[i % flen];
				break;
			case W_BUILD:
				n = model_pkt_build(h, payload, plen, frame, sizeof(frame));
				sink += (uint32_t)n;
				break;
			case W_PARSE:
				if (model_pkt_parse(frame, (uint32_t)flen, &d, &p, &len) != 0)
					return -1;
				sink += len;
				break;
			case W_BOTH:
				n = model_pkt_build(h, payload, plen, frame, sizeof(frame));
				if (n != flen || model_pkt_parse(frame, (uint32_t)n, &d, &p, &len) != 0)
					return -1;
				sink += d.psn;
				break;
			case W_ICRC:
				sink += model_pkt_icrc(frame, (uint32_t)flen);
				break;
			default:
				break;
			}
		}
		double t = (bench_now_ns() - t0) / (double)iters;

		if (t < best)
			best = t;
	}
	/* leave a valid frame behind for the next measurement */
	h->psn = 0;
	if (model_pkt_build(h, payload, plen, frame, sizeof(frame)) != flen)
		return -1;
	return best;
}

int
main(int argc, char **argv)
{
	static const uint32_t sizes[] = { 64, 4096 };
	long iters = argc > 1 ? atol(argv[1]) : 200000;
	struct model_pkt_hdr h;
	int errors = 0;

	memset(&h, 0, sizeof(h));
	h.ipv4 = true;
	h.sgid[10] = h.sgid[11] = h.dgid[10] = h.dgid[11] = 0xff;
	h.sgid[15] = 1;
	h.dgid[15] = 2;
	h.ttl = 64;
	h.opcode = MODEL_RC_WRITE_ONLY;
	h.pkey = 0xffff;
	h.dqpn = 17;
	h.reth_len = 64;
	for (unsigned int i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;

	printf("%-12s %8s %12s %10s\n", "operation", "payload", "ns/frame", "x memcpy");
	for (unsigned int s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int flen = model_pkt_build(&h, payload, sizes[s], frame, sizeof(frame));
		double base = 0;

		if (flen < 0) {
			printf("build failed: %d\n", flen);
			return 1;
		}
		for (enum what w = W_MEMCPY; w < W_N; w++) {
			double t = measure(w, &h, sizes[s], flen, sizes[s] > 1000 ? iters / 8 : iters);

			if (t < 0) {
				printf("%-12s %8u   FAILED (frame did not build or parse back)\n",
				       names[w], sizes[s]);
				errors++;
				continue;
			}
			if (w == W_MEMCPY)
				base = t;
			printf("%-12s %8u %12.1f %10.1f\n", names[w], sizes[s], t, t / base);
		}
	}
	return errors != 0;
}
