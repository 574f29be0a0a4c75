/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * send_bw: SEND stream (perftest's ib_send_bw). The client streams sends as write_bw does;
 * the server keeps rx_depth receives posted per QP and counts what arrives. On RC every send
 * must arrive; on UD a send that finds no receive is dropped (as on the wire), so the server
 * stops once the client is done and its CQ stays empty. In two processes the server learns
 * that the client is done when the client's next handshake arrives (perftest's UD server
 * stops on a quiet timer instead).
 */

#include "testpmd.h"

/* UD server: empty polls after the client finished before the count is final. */
#define SEND_BW_UD_DRAIN	100000u
/* UD server in two processes: steps between two looks at the connection (a syscall). */
#define SEND_BW_UD_PEEK		4096u

/* The client has finished sending (in this process: its loop is done). */
static bool
send_bw_client_done(struct tp_side *s)
{
	if (s->peer != NULL)
		return __atomic_load_n(&s->peer->done, __ATOMIC_ACQUIRE);
	if (!s->peer_finished && s->xchg != NULL && ++s->peeks >= SEND_BW_UD_PEEK) {
		s->peeks = 0;
		s->peer_finished = tp_xchg_pending(s->xchg);
	}
	return s->peer_finished;
}

static int
send_bw_start(struct tp_side *s)
{
	uint32_t i;

	if (s->role == TP_CLIENT)
		return 0;
	for (i = 0; i < s->nb_qps; i++)
		if (tp_fill_recv(s, i) < 0)
			return s->error;
	return 0;
}

static int
send_bw_server(struct tp_side *s)
{
	uint32_t i;
	int n;

	n = tp_poll_recv(s, NULL);
	if (n < 0)
		return s->error;
	for (i = 0; i < s->nb_qps; i++)
		if (tp_fill_recv(s, i) < 0)
			return s->error;
	/* Acquire: a duration run's client lowers the target from its lcore (tp_set_target). */
	if (s->rcnt >= __atomic_load_n(&s->iters, __ATOMIC_ACQUIRE) * s->nb_qps)
		return 1;
	if (s->cfg->conn == RDMADEV_QPT_UD && send_bw_client_done(s)) {
		s->idle = n == 0 ? s->idle + 1 : 0;
		return s->idle >= SEND_BW_UD_DRAIN;
	}
	return 0;
}

static int
send_bw_step(struct tp_side *s)
{
	return s->role == TP_SERVER ? send_bw_server(s) : tp_stream_step(s);
}

/** Send stream. */
const struct tp_engine tp_eng_send_bw = {
	.name = "send_bw",
	.kind = TP_BW,
	.opcode = RDMADEV_WR_SEND,
	.rtt_factor = 1,
	.uses_recv = true,
	.ud_ok = true,
	.start = send_bw_start,
	.step = send_bw_step,
};
