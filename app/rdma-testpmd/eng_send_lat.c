/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * send_lat: SEND/RECV ping-pong (perftest's ib_send_lat). Both sides keep rx_depth receives
 * posted; the client sends and waits for the server's send to arrive; the server answers each
 * receive with a send. Samples are round trips; the report halves them. Runs on RC and UD.
 */

#include "testpmd.h"

static int
send_lat_start(struct tp_side *s)
{
	return tp_fill_recv(s, 0);
}

static int
send_lat_send(struct tp_side *s)
{
	int rc = tp_post(s, 0, 1, true);

	return rc == 1 ? 0 : (s->error ? s->error : -EAGAIN);
}

static int
send_lat_step(struct tp_side *s)
{
	if (tp_poll_send(s) < 0 || tp_poll_recv(s, NULL) < 0 || tp_fill_recv(s, 0) < 0)
		return s->error;
	if (s->role == TP_SERVER) {
		if (s->scnt < s->rcnt && send_lat_send(s) < 0 && s->error)
			return s->error;
		return s->scnt == s->iters && s->rcnt == s->iters && s->outstanding[0] == 0;
	}
	if (s->waiting) {
		if (s->rcnt == s->scnt)
			s->waiting = false;
		return 0;
	}
	if (s->scnt < s->iters && tp_deadline_passed(s))
		tp_set_target(s, s->scnt);
	if (s->scnt == s->iters)
		return s->outstanding[0] == 0;
	if (send_lat_send(s) < 0)
		return s->error ? s->error : 0;
	s->waiting = true;
	return 0;
}

/** Send/receive ping-pong. */
const struct tp_engine tp_eng_send_lat = {
	.name = "send_lat",
	.kind = TP_LAT,
	.opcode = RDMADEV_WR_SEND,
	.rtt_factor = 2,
	.uses_recv = true,
	.ud_ok = true,
	.start = send_lat_start,
	.step = send_lat_step,
};
