/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * read_bw: RDMA READ stream (perftest's ib_read_bw). As write_bw with reads: the responder's
 * device answers; the number in flight per QP is also bounded by the QP's ORD. atomic_bw
 * (ib_atomic_bw): the same with 8-byte fetch-adds.
 */

#include "testpmd.h"

/** RDMA read stream. */
const struct tp_engine tp_eng_read_bw = {
	.name = "read_bw",
	.kind = TP_BW,
	.opcode = RDMADEV_WR_RDMA_READ,
	.rtt_factor = 1,
	.start = tp_start_none,
	.step = tp_rdma_stream_step,
};

/* atomic_bw: as read_bw, then the fetched values checked (tp_atomic_check). */
static int
atomic_bw_step(struct tp_side *s)
{
	int rc = tp_rdma_stream_step(s);

	return rc == 1 && s->role == TP_CLIENT ? tp_atomic_check(s) : rc;
}

/** Fetch-add stream (perftest's ib_atomic_bw): 8 bytes, bounded by the ORD like reads. */
const struct tp_engine tp_eng_atomic_bw = {
	.name = "atomic_bw",
	.kind = TP_BW,
	.opcode = RDMADEV_WR_ATOMIC_FA,
	.rtt_factor = 1,
	.start = tp_start_none,
	.step = atomic_bw_step,
};
