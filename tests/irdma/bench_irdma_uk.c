/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Hot-path cost of the data path (irdma_uk_post.c, irdma_uk_poll.c), each beside its floor
 * measured in the same run:
 *   write1    post_send of one 1-SGE RDMA WRITE per call     floor: copy 32 WQE bytes + doorbell
 *   inline64  post_send of one 64-byte inline WRITE per call floor: copy 96 WQE bytes + doorbell
 *   burst16   post_send of 16 1-SGE WRITEs per call (per WR) floor: 16 x 32 bytes + 1 doorbell
 *   burst16t  post_send_tmpl of 16 WRITEs of one template     floor: as burst16
 *             per call (per WR)
 *   burst16ti post_send_tmpl of 16 WRITE_IMMs of one template  floor: 16 x 64 bytes + 1
 *             per call (per WR)                               doorbell
 *   burst16tm the burst16t loop again, against the bytes any post must store per 1-quantum
 *             WR with the ring's invariants: the 32-byte WQE, the 32-byte tracking entry and
 *             32 bytes of pre-invalidation (a 4 KB fill every 128 quanta), + 1 doorbell
 *             per 16 (timing only: devtools/callgrind.sh leaves it out)
 *   poll      poll_cq in bursts of 16 (per CQE)              floor: copy 32 CQE bytes into a
 *                                                                   48-byte completion
 * The QP and CQ live in ordinary memory; the doorbell is a direct store to a word (hw->bar0
 * set, db_off 0) so the numbers are the PMD's own cost, as doc/baselines.md measures rdma-core.
 * Posted WRs "complete" at once (the SQ tail follows the head) so the ring never fills.
 *
 *   bench_irdma_uk [--quick] [--callgrind] [--workload NAME]
 * prints ns/op and the ratio to the floor. With --callgrind each selected loop and its floor
 * run exactly once for the op count printed on the "ops" line: devtools/callgrind.sh counts
 * them with --toggle-collect=loop_<workload> (and loop_<workload>_floor) and divides.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_io.h>

#include "irdma_cq.h"
#include "irdma_hw.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

#define SQ_QUANTA	2048u
#define CQ_SIZE		4096u
#define BURST		16u

static struct irdma_hw hw;
static struct irdma_qp qp;
static struct irdma_cq cq;
static uint32_t doorbell[16];
static uint8_t payload[64];
static struct rdmadev_sge sge = { .addr = 0x100000, .length = 4096, .lkey = 0x1234 };
static struct rdmadev_sge sge_inline;
static struct rdmadev_send_wr wr_write, wr_inline, wr_burst[BURST];
static struct rdmadev_send_tmpl tmpl_burst, tmpl_imm;
static struct rdmadev_tmpl_wr twr_burst[BURST];
static struct rdmadev_send_wr wr_imm;
static struct rdmadev_wc wcs[BURST];
static uint8_t tmpl_write[32], tmpl_inline[96], tmpl_trk[32], tmpl_wimm[64];
static uint64_t sink;

static void *
zalloc(size_t len)
{
	void *p = aligned_alloc(4096, RTE_ALIGN_CEIL(len, 4096));

	if (p == NULL)
		abort();
	memset(p, 0, len);
	return p;
}

static uint32_t
fake_read(struct irdma_hw *h, uint32_t off)
{
	RTE_SET_USED(h);
	RTE_SET_USED(off);
	return 0;
}

static void
fake_write(struct irdma_hw *h, uint32_t off, uint32_t v)
{
	RTE_SET_USED(h);
	RTE_SET_USED(off);
	RTE_SET_USED(v);
}

static const struct irdma_hw_backend fake_be = {
	.name = "bench", .reg_read = fake_read, .reg_write = fake_write,
};

static void
setup(void)
{
	unsigned int i;

	hw.be = &fake_be;
	hw.bar0 = (uint8_t *)doorbell;	/* the doorbell: a direct store at offset 0 */
	hw.bar0_len = sizeof(doorbell);
	hw.gen = 2;
	snprintf(hw.name, sizeof(hw.name), "bench");
	qp.sq.base = zalloc((size_t)SQ_QUANTA * 32);
	qp.sq.quanta = SQ_QUANTA;
	qp.rq.base = zalloc(64 * 32);
	qp.rq.quanta = 64;
	qp.sq_wrtrk = zalloc(sizeof(*qp.sq_wrtrk) * SQ_QUANTA);
	qp.rq_wrid = zalloc(sizeof(*qp.rq_wrid) * 64);
	qp.hw = &hw;
	qp.db_off = 0;
	qp.gen = 2;
	qp.qp_id = 5;
	irdma_uk_sq_track_init(&qp);
	qp.qp_type = IRDMA_QP_TYPE_ROCE_RC;
	qp.hw_state = IRDMA_QP_HW_RTS;
	qp.max_send_sge = 4;
	qp.max_recv_sge = 1;
	qp.max_inline = 101;
	irdma_uk_qp_select(&qp);
	cq.cur.base = zalloc((size_t)CQ_SIZE * 32);
	cq.cur.size = CQ_SIZE;
	cq.cur.polarity = 1;
	cq.shadow = zalloc(64);
	cq.hw = &hw;
	cq.id = 3;
	irdma_uk_cq_select(&cq);
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;
	sge_inline = (struct rdmadev_sge){ .addr = (uintptr_t)payload, .length = 64 };
	wr_write = (struct rdmadev_send_wr){
		.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
		.flags = RDMADEV_SEND_SIGNALED, .rdma = { .remote_addr = 0x200000, .rkey = 0x55 },
	};
	wr_inline = wr_write;
	wr_inline.sg_list = &sge_inline;
	wr_inline.flags |= RDMADEV_SEND_INLINE;
	for (i = 0; i < BURST; i++) {
		wr_burst[i] = wr_write;
		twr_burst[i] = (struct rdmadev_tmpl_wr){
			.wr_id = 1, .addr = sge.addr, .length = sge.length,
			.remote_addr = wr_write.rdma.remote_addr,
		};
	}
	wr_imm = wr_write;
	wr_imm.opcode = RDMADEV_WR_RDMA_WRITE_IMM;
	wr_imm.imm_data = 0x12345678;
	if (irdma_uk_send_tmpl_init(&qp, &wr_write, &tmpl_burst) != 0 ||
	    irdma_uk_send_tmpl_init(&qp, &wr_imm, &tmpl_imm) != 0)
		abort();
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- the measured loops (callgrind toggles on these names) ---- */

static __rte_noinline void
loop_write1(uint32_t ops)
{
	int err;

	while (ops--) {
		irdma_uk_post_send(&qp, &wr_write, 1, &err);
		qp.sq.tail = qp.sq.head;
	}
}

static __rte_noinline void
loop_inline64(uint32_t ops)
{
	int err;

	while (ops--) {
		irdma_uk_post_send(&qp, &wr_inline, 1, &err);
		qp.sq.tail = qp.sq.head;
	}
}

static __rte_noinline void
loop_burst16(uint32_t ops)
{
	int err;

	for (ops /= BURST; ops != 0; ops--) {
		irdma_uk_post_send(&qp, wr_burst, BURST, &err);
		qp.sq.tail = qp.sq.head;
	}
}

static __rte_noinline void
loop_burst16t(uint32_t ops)
{
	int err;

	for (ops /= BURST; ops != 0; ops--) {
		irdma_uk_post_send_tmpl(&qp, &tmpl_burst, twr_burst, BURST, &err);
		qp.sq.tail = qp.sq.head;
	}
}

static __rte_noinline void
loop_burst16ti(uint32_t ops)
{
	int err;

	for (ops /= BURST; ops != 0; ops--) {
		irdma_uk_post_send_tmpl(&qp, &tmpl_imm, twr_burst, BURST, &err);
		qp.sq.tail = qp.sq.head;
	}
}

static __rte_noinline void
loop_poll(uint32_t ops)
{
	uint32_t n = 0;

	while (n < ops)
		n += irdma_uk_poll_cq(&cq, wcs, BURST);
	sink += wcs[0].wr_id;
}

/*
 * Floors: the same bytes copied into the same ring, and the doorbell store. Inlined into each
 * loop_<name>_floor with constant sizes, so the copy is what a post's own stores are: fixed-size
 * vector moves. (An out-of-line copy for every size would let GCC use a variable-length rep movsq
 * whose start-up cost is most of these floors.)
 */
static __rte_always_inline void
floor_post(const uint8_t *tmpl, const uint32_t len, const uint32_t per_db, uint32_t ops)
{
	uint32_t head = 0, quanta = len / 32, i;

	for (ops /= per_db; ops != 0; ops--) {
		for (i = 0; i < per_db; i++) {
			memcpy(qp.sq.base + (size_t)head * 32, tmpl, len);
			head += quanta;
			if (head + quanta > SQ_QUANTA)
				head = 0;
		}
		rte_write32(qp.qp_id, &doorbell[0]);
	}
}

static __rte_noinline void
loop_write1_floor(uint32_t ops)
{
	floor_post(tmpl_write, sizeof(tmpl_write), 1, ops);
}

static __rte_noinline void
loop_inline64_floor(uint32_t ops)
{
	floor_post(tmpl_inline, sizeof(tmpl_inline), 1, ops);
}

static __rte_noinline void
loop_burst16_floor(uint32_t ops)
{
	floor_post(tmpl_write, sizeof(tmpl_write), BURST, ops);
}

static __rte_noinline void
loop_burst16t_floor(uint32_t ops)
{
	floor_post(tmpl_write, sizeof(tmpl_write), BURST, ops);
}

static __rte_noinline void
loop_burst16ti_floor(uint32_t ops)
{
	floor_post(tmpl_wimm, sizeof(tmpl_wimm), BURST, ops);
}

/* The bytes a 1-quantum post stores (burst16tm): WQE, tracking entry, pre-invalidation. */
static __rte_noinline void
loop_burst16tm_floor(uint32_t ops)
{
	uint32_t head = 0, i;

	for (ops /= BURST; ops != 0; ops--) {
		for (i = 0; i < BURST; i++) {
			if ((head & 127) == 0)
				memset(qp.sq.base + (size_t)((head + 128) & (SQ_QUANTA - 1)) * 32,
				       0, 128 * 32);
			memcpy(qp.sq.base + (size_t)head * 32, tmpl_write, sizeof(tmpl_write));
			memcpy(&qp.sq_wrtrk[head], tmpl_trk, sizeof(tmpl_trk));
			head = (head + 1) & (SQ_QUANTA - 1);
		}
		rte_write32(qp.qp_id, &doorbell[0]);
	}
}

static __rte_noinline void
loop_poll_floor(uint32_t ops)
{
	uint32_t head = 0, i;

	while (ops != 0) {
		for (i = 0; i < BURST && ops != 0; i++, ops--) {
			memcpy(&wcs[i], cq.cur.base + (size_t)head * 32, 32);
			wcs[i].vendor_err = 0;
			wcs[i].reserved1 = 0;
			if (++head == CQ_SIZE)
				head = 0;
		}
		*(volatile uint64_t *)cq.shadow = head;
	}
}

/* ---- CQ filling (not measured) ---- */

/* Write @p n SQ CQEs for the tracking entries 0..n-1 (one quantum each) at the CQ head. */
static void
cq_fill(uint32_t n)
{
	uint32_t head = cq.cur.head, pol = cq.cur.polarity, i;

	for (i = 0; i < n; i++) {
		struct irdma_cqe *c = (struct irdma_cqe *)(void *)(cq.cur.base +
								   (size_t)head * 32);
		uint32_t idx = i & (SQ_QUANTA - 1);

		qp.sq_wrtrk[idx] = (struct irdma_sq_wrtrk){
			.wr_id = idx, .wr_len = 4096, .quanta = 1, .opcode = RDMADEV_WC_RDMA_WRITE,
			.signaled = 1, .next = (uint16_t)((idx + 1) & (SQ_QUANTA - 1)),
			.qp_num = qp.qp_id,
		};
		c->qw[0] = 0;
		c->qw[1] = rte_cpu_to_le_64((uint64_t)(uintptr_t)&qp);
		c->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(CQE_QPID, qp.qp_id));
		c->qw[3] = rte_cpu_to_le_64(IRDMA_PREP(CQE_WQEIDX, idx) |
					    IRDMA_PREP(CQE_OP, IRDMA_OP_RDMA_WRITE) |
					    IRDMA_PREP(CQE_SQ, 1) | IRDMA_PREP(CQE_VALID, pol));
		if (++head == CQ_SIZE) {
			head = 0;
			pol ^= 1;
		}
	}
}

/* ---- driver ---- */

typedef void (*loop_fn)(uint32_t ops);

static const struct workload {
	const char *name;
	loop_fn run, floor;
} workloads[] = {
	{ "write1", loop_write1, loop_write1_floor },
	{ "inline64", loop_inline64, loop_inline64_floor },
	{ "burst16", loop_burst16, loop_burst16_floor },
	{ "burst16t", loop_burst16t, loop_burst16t_floor },
	{ "burst16ti", loop_burst16ti, loop_burst16ti_floor },
	{ "burst16tm", loop_burst16t, loop_burst16tm_floor },
	{ "poll", loop_poll, loop_poll_floor },
};

/* Run @p fn for @p ops ops; poll runs CQ_SIZE at a time with the ring refilled between. */
static double
timed(const struct workload *w, loop_fn fn, uint32_t ops)
{
	double t = 0, t0;
	uint32_t done, n;

	if (w->run != loop_poll) {
		t0 = now_ns();
		fn(ops);
		return now_ns() - t0;
	}
	for (done = 0; done < ops; done += n) {
		n = RTE_MIN(ops - done, CQ_SIZE);
		cq_fill(n);
		t0 = now_ns();
		fn(n);
		t += now_ns() - t0;
	}
	return t;
}

int
main(int argc, char **argv)
{
	const char *only = NULL;
	uint32_t ops = 1u << 21;
	bool callgrind = false;
	unsigned int i;
	int err, a;

	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--quick") == 0)
			ops = 1u << 14;
		else if (strcmp(argv[a], "--callgrind") == 0)
			callgrind = true;
		else if (strcmp(argv[a], "--workload") == 0 && a + 1 < argc)
			only = argv[++a];
		else {
			fprintf(stderr, "usage: %s [--quick] [--callgrind] "
				"[--workload write1|inline64|burst16|burst16t|burst16ti|burst16tm|poll]\n", argv[0]);
			return 2;
		}
	}
	setup();
	/* the floors copy the bytes the driver writes for these WRs */
	irdma_uk_post_send(&qp, &wr_write, 1, &err);
	memcpy(tmpl_write, qp.sq.base, sizeof(tmpl_write));
	memcpy(tmpl_trk, &qp.sq_wrtrk[0], sizeof(tmpl_trk));
	irdma_uk_post_send(&qp, &wr_inline, 1, &err);
	memcpy(tmpl_inline, qp.sq.base + 32, sizeof(tmpl_inline));
	irdma_uk_post_send(&qp, &wr_imm, 1, &err);	/* at quantum 4 */
	memcpy(tmpl_wimm, qp.sq.base + 4 * 32, sizeof(tmpl_wimm));
	qp.sq.tail = qp.sq.head;

	printf("ops %u\n", ops);
	printf("%-10s %10s %10s %8s\n", "workload", "ns/op", "floor", "ratio");
	for (i = 0; i < RTE_DIM(workloads); i++) {
		const struct workload *w = &workloads[i];
		double tr, tf;

		if (only != NULL && strcmp(only, w->name) != 0)
			continue;
		if (callgrind) {
			/* exactly ops in each of loop_<name> and loop_<name>_floor */
			timed(w, w->run, ops);
			timed(w, w->floor, ops);
			continue;
		}
		/* warm up, then measure each twice interleaved and keep the better */
		timed(w, w->run, ops / 8);
		timed(w, w->floor, ops / 8);
		tr = RTE_MIN(timed(w, w->run, ops), timed(w, w->run, ops));
		tf = RTE_MIN(timed(w, w->floor, ops), timed(w, w->floor, ops));
		printf("%-10s %10.2f %10.2f %8.2f\n", w->name, tr / ops, tf / ops, tr / tf);
	}
	return sink == UINT64_MAX;
}
