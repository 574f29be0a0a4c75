/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libFuzzer target: the IB CM's MAD parser and state machine (lib/rdmadev/rdmadev_ibcm.c).
 * One model device (inline, loop wire, IPv4 10.77.0.2) with a CM agent listening on
 * ServiceID 0x0000000001061C06 (rdma_cm's TCP port 7174, rping's) and answering SIDR_REQs
 * for 0x0000000001111C06 (its UDP port 7174) itself. An input is a sequence
 * of received buffers, 296 bytes each (the 40-byte GRH area, then the 256-byte MAD); the
 * last may be shorter (a truncated MAD). A buffer repeated in the input is a replayed MAD.
 * After each buffer the agent runs (its answers go to the wire) and every id a REQ made is
 * destroyed; after the input the clock jumps 10 minutes so that every response timer and
 * timewait of this input expires before the next. The agent must neither crash nor leak:
 * it is closed and reopened every 4096 inputs, and the device's restrack reports no
 * object left at exit (the replay driver, fuzz_main.c, checks that).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "rdmadev.h"
#include "rdmadev_ibcm.h"
#include "rdmadev_private.h"

#include "fuzz.h"

#define BUF_LEN (40u + RDMADEV_IBCM_MAD_LEN)

static struct {
	int16_t dev;
	struct rdmadev_ctx *ctx;
	struct rdmadev_ibcm *cm;
	struct rdmadev_ibcm_id *listener;
	struct rdmadev_ibcm_id *sidr;	/* rdma_cm's UDP port space, port 7174 */
	uint64_t now;
	unsigned long inputs;
} f = { .dev = -1 };

static int
agent_open(void)
{
	struct rdmadev_ibcm_conf c;

	memset(&c, 0, sizeof(c));
	c.ctx = f.ctx;
	c.seed = 1;
	if (rdmadev_ibcm_open(&c, &f.cm) != 0 ||
	    rdmadev_ibcm_listen(f.cm, 0x0000000001061C06ull, &f.listener) != 0 ||
	    rdmadev_ibcm_sidr_listen_events(f.cm, 0x0000000001111C06ull, &f.sidr) != 0) {
		fprintf(stderr, "fuzz_ibcm_mad: agent or listener\n");
		return -1;
	}
	return 0;
}

int
fuzz_setup(void)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };

	if (fuzz_eal_init("fuzz_ibcm_mad") < 0)
		return -1;
	f.dev = (int16_t)rdmadev_open("irdma_model0,ip=10.77.0.2,wire=loop:fuzzibcm");
	if (f.dev < 0 || rdmadev_configure(f.dev, &conf) != 0 || rdmadev_start(f.dev) != 0 ||
	    rdmadev_ctx_alloc(f.dev, &f.ctx) != 0) {
		fprintf(stderr, "fuzz_ibcm_mad: no model device\n");
		return -1;
	}
	f.now = 1000000000ull;
	return agent_open();
}

void
fuzz_teardown(void)
{
	rdmadev_ibcm_close(f.cm);
	f.cm = NULL;
	if (f.ctx != NULL)
		rdmadev_ctx_free(f.ctx);
	if (f.dev >= 0) {
		rdmadev_stop(f.dev);
		if (rdmadev_close(f.dev) != 0)
			fuzz_fail("fuzz_ibcm_mad: rdmadev_close reports objects left");
	}
}

/*
 * Run the agent; destroy each id a REQ made (the application never answers); answer each
 * SIDR_REQ (every other one refused) and destroy its id.
 */
static void
run(void)
{
	struct rdmadev_ibcm_event ev;

	(void)rdmadev_ibcm_process(f.cm, f.now);
	while (rdmadev_ibcm_event_get(f.cm, &ev) == 0) {
		if (ev.type == RDMADEV_IBCM_EV_REQ_RECEIVED && ev.id != NULL)
			rdmadev_ibcm_id_destroy(ev.id);
		if (ev.type == RDMADEV_IBCM_EV_SIDR_REQ_RECEIVED && ev.id != NULL) {
			(void)rdmadev_ibcm_sidr_reply(ev.id, f.inputs & 1 ?
						      RDMADEV_IBCM_SIDR_REJECT :
						      RDMADEV_IBCM_SIDR_SUCCESS, 0x42,
						      0x01234567u, ev.private_data, 8);
			rdmadev_ibcm_id_destroy(ev.id);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t smac[6] = { 0x52, 0x54, 0x00, 0x4d, 0x00, 0x01 };
	size_t off, n;

	if (f.cm == NULL && fuzz_setup_once() != 0)
		abort();
	for (off = 0; off < size; off += n) {
		n = size - off < BUF_LEN ? size - off : BUF_LEN;
		rdmadev_ibcm_rx_inject(f.cm, data + off, (uint32_t)n, smac);
		f.now += 1000000;	/* 1 ms between MADs */
		run();
	}
	f.now += 600000000000ull;
	run();
	if (++f.inputs % 4096 == 0) {
		rdmadev_ibcm_close(f.cm);
		f.cm = NULL;
		if (agent_open() != 0)
			abort();
	}
	return 0;
}
