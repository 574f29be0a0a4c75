/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * write_bw: RDMA WRITE stream (perftest's ib_write_bw). The client keeps tx_depth writes in
 * flight per QP, posted post_list at a time, one signaled every cq_mod; the server's CPU does
 * nothing.
 */

#include "testpmd.h"

/** RDMA write stream. */
const struct tp_engine tp_eng_write_bw = {
	.name = "write_bw",
	.kind = TP_BW,
	.opcode = RDMADEV_WR_RDMA_WRITE,
	.rtt_factor = 1,
	.start = tp_start_none,
	.step = tp_rdma_stream_step,
};
