/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * read_lat: RDMA READ request/response (perftest's ib_read_lat). The client posts one
 * signaled read and waits for its completion before the next; the server's CPU does nothing.
 * A sample is one request/response, reported whole (RTT factor 1, as perftest does for reads).
 * atomic_lat (ib_atomic_lat): the same with 8-byte fetch-adds.
 */

#include "testpmd.h"

static int
read_lat_step(struct tp_side *s)
{
	if (s->role == TP_SERVER)
		return tp_passive_step(s);
	if (tp_poll_send(s) < 0)
		return s->error;
	if (s->waiting) {
		if (s->ccnt == s->scnt)
			s->waiting = false;
		return 0;
	}
	if (s->scnt < s->iters && tp_deadline_passed(s))
		tp_set_target(s, s->scnt);
	if (s->scnt == s->iters)
		return 1;
	if (tp_post(s, 0, 1, true) != 1)
		return s->error;
	s->waiting = true;
	return 0;
}

/** RDMA read request/response. */
const struct tp_engine tp_eng_read_lat = {
	.name = "read_lat",
	.kind = TP_LAT,
	.opcode = RDMADEV_WR_RDMA_READ,
	.rtt_factor = 1,
	.start = tp_start_none,
	.step = read_lat_step,
};

/* atomic_lat: as read_lat, then the fetched values checked (tp_atomic_check). */
static int
atomic_lat_step(struct tp_side *s)
{
	int rc = read_lat_step(s);

	return rc == 1 && s->role == TP_CLIENT ? tp_atomic_check(s) : rc;
}

/** Fetch-add request/response (perftest's ib_atomic_lat): 8 bytes, needs device atomics. */
const struct tp_engine tp_eng_atomic_lat = {
	.name = "atomic_lat",
	.kind = TP_LAT,
	.opcode = RDMADEV_WR_ATOMIC_FA,
	.rtt_factor = 1,
	.start = tp_start_none,
	.step = atomic_lat_step,
};
