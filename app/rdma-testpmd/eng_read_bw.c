/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * read_bw: RDMA READ stream (perftest's ib_read_bw). As write_bw with reads: the responder's
 * device answers; the number in flight per QP is also bounded by the QP's ORD.
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
