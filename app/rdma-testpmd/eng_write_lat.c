/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * write_lat: RDMA WRITE ping-pong (perftest's ib_write_lat). As in perftest's
 * run_iter_lat_write(), the server writes first: a message whose last byte is a sequence
 * number, into the client's buffer, then waits until the client's write brings the same
 * number back into its own; the client answers each number it sees. (A client that wrote
 * first would meet perftest's server writing too: both numbers 1, then the next write
 * overwrites a number before the other side saw it, and both wait for ever.) Samples are
 * round trips; the report halves them (one-way latency).
 */

#include "testpmd.h"

static int
write_lat_reply(struct tp_side *s)
{
	tp_send_area(s, 0)[s->size - 1] = s->seq;
	return tp_post(s, 0, 1, true) == 1 ? 0 : (s->error ? s->error : -EAGAIN);
}

static int
write_lat_step(struct tp_side *s)
{
	uint8_t want;

	if (tp_poll_send(s) < 0)
		return s->error;
	if (s->role == TP_CLIENT) {
		want = tp_next_seq(s->seq);
		if (s->rcnt < s->iters && tp_poll_byte(s, 0) == want) {
			s->seq = want;
			s->rcnt++;
			s->progress++;
			if (write_lat_reply(s) < 0)
				return s->error;
		}
		return s->rcnt == s->iters && s->outstanding[0] == 0;
	}
	if (s->waiting) {
		if (tp_poll_byte(s, 0) == s->seq) {
			s->waiting = false;
			s->rcnt++;
			s->progress++;
		}
		return 0;
	}
	if (s->scnt < s->iters && tp_deadline_passed(s))
		tp_set_target(s, s->scnt);
	if (s->scnt == s->iters)
		return s->outstanding[0] == 0;
	s->seq = tp_next_seq(s->seq);
	if (write_lat_reply(s) < 0)
		return s->error;
	s->waiting = true;
	return 0;
}

/** RDMA write ping-pong. */
const struct tp_engine tp_eng_write_lat = {
	.name = "write_lat",
	.kind = TP_LAT,
	.opcode = RDMADEV_WR_RDMA_WRITE,
	.rtt_factor = 2,
	.start = tp_start_none,
	.step = write_lat_step,
};
