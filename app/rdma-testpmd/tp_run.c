/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd runs: the engine registry, and the loop that drives the sides through every
 * message size of a test. Engines are non-blocking steps, so one lcore can drive both sides
 * of a one-process run in turn (the default: deterministic on a small machine, and with the
 * device model in inline mode the same thread runs the model when it polls); with --tp-cores
 * C,S the server side runs on lcore S. Every loop has a watchdog: no progress for `timeout`
 * ms fails the run. Two-process runs synchronise where perftest's tests do (tp_xchg_plan()).
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "testpmd.h"

/* Check the clock once every this many loop turns. */
#define TP_CLOCK_EVERY	256u
/* Progress line: after a second, every half second (on a terminal). */
#define TP_PROGRESS_MS	500u

static const struct tp_engine *const tp_engines[] = {
	&tp_eng_write_lat, &tp_eng_read_lat, &tp_eng_send_lat,
	&tp_eng_write_bw, &tp_eng_read_bw, &tp_eng_send_bw,
	&tp_eng_atomic_lat, &tp_eng_atomic_bw,
};

const struct tp_engine *
tp_engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < RTE_DIM(tp_engines); i++)
		if (strcmp(tp_engines[i]->name, name) == 0)
			return tp_engines[i];
	return NULL;
}

const char *
tp_engine_names(void)
{
	return "write_lat read_lat send_lat write_bw read_bw send_bw";
}

uint64_t
tp_ticks(void)
{
	return rte_rdtsc();
}

double
tp_ticks_hz(void)
{
	return (double)rte_get_tsc_hz();
}

/** Loop state of one driving thread. */
struct tp_loop {
	struct tp_ctx *t;		/**< program */
	struct tp_side *sides[2];	/**< sides this thread steps */
	unsigned int nb;		/**< entries in sides */
	bool show_progress;		/**< print the progress line */
	uint32_t size;			/**< message size (progress line) */
	int rc;				/**< result */
};

static uint64_t
tp_ms_ticks(uint32_t ms)
{
	return (uint64_t)(tp_ticks_hz() * ms / 1000.0);
}

static void
tp_progress_line(const struct tp_loop *l, uint64_t start, uint64_t now)
{
	const struct tp_side *s = l->sides[0];

	fprintf(stderr, "\r  %s %u B: %" PRIu64 " / %" PRIu64 " posted, %.1f s   ",
		s->eng->name, l->size, s->scnt, s->iters * s->nb_qps,
		(double)(now - start) / tp_ticks_hz());
}

static int
tp_loop_check(struct tp_loop *l, uint64_t start, uint64_t *last_change, uint64_t *last_sum,
	      uint64_t *last_line)
{
	uint64_t now = tp_ticks(), sum = 0;
	unsigned int i;

	for (i = 0; i < l->nb; i++)
		sum += l->sides[i]->progress;
	if (sum != *last_sum) {
		*last_sum = sum;
		*last_change = now;
	} else if (now - *last_change > tp_ms_ticks(l->t->cfg.timeout_ms)) {
		return tp_side_fail(l->sides[0], -ETIMEDOUT, "no progress for %u ms (the peer "
				    "is gone or the device stopped)", l->t->cfg.timeout_ms);
	}
	if (l->t->stop)
		return tp_side_fail(l->sides[0], -EINTR, "stopped");
	/* A side stepped on another lcore failed: this one will not get its answers. */
	for (i = 0; i < l->t->nb_sides; i++)
		if (__atomic_load_n(&l->t->side[i].error, __ATOMIC_ACQUIRE) != 0)
			return l->t->side[i].error;
	if (l->show_progress && now - start > tp_ms_ticks(1000) &&
	    now - *last_line > tp_ms_ticks(TP_PROGRESS_MS)) {
		tp_progress_line(l, start, now);
		*last_line = now;
	}
	return 0;
}

static int
tp_loop_run(void *arg)
{
	struct tp_loop *l = arg;
	uint64_t start = tp_ticks(), last_change = start, last_sum = 0, last_line = 0;
	unsigned int i, left = l->nb, turn = 0;
	int rc;

	while (left > 0) {
		for (i = 0; i < l->nb; i++) {
			struct tp_side *s = l->sides[i];

			/* done: written by this loop, read by a peer's step on another lcore. */
			if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
				continue;
			rc = s->eng->step(s);
			if (rc < 0) {
				l->rc = s->error != 0 ? s->error : rc;
				return l->rc;
			}
			if (rc > 0) {
				__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
				left--;
			}
		}
		if (++turn % TP_CLOCK_EVERY == 0) {
			rc = tp_loop_check(l, start, &last_change, &last_sum, &last_line);
			if (rc < 0) {
				l->rc = rc;
				return rc;
			}
		}
	}
	if (last_line != 0)
		fprintf(stderr, "\r%60s\r", "");
	l->rc = 0;
	return 0;
}

/* Post timestamps, and completion timestamps for the BW tests. */
static int
tp_samples_alloc(struct tp_side *s, uint64_t n, bool completions)
{
	rte_free(s->tposted);
	rte_free(s->tcompleted);
	s->tposted = rte_malloc("tp_tposted", n * sizeof(uint64_t), 0);
	s->tcompleted = completions ? rte_malloc("tp_tcompleted", n * sizeof(uint64_t), 0) : NULL;
	s->nb_samples = n;
	if (s->tposted == NULL || (completions && s->tcompleted == NULL)) {
		/* Said at once: no size ran, so no size's failure report will say it. */
		fprintf(stderr, "rdma-testpmd: %s: no memory for %" PRIu64 " timestamps (%" PRIu64
			" MiB of EAL memory): lower --iters%s or give EAL more memory (-m)\n",
			s->cfg->test, n,
			(n * sizeof(uint64_t) * (completions ? 2 : 1) + (1u << 20) - 1) >> 20,
			s->cfg->qps > 1 ? " or --qps" : "");
		s->error = 0;
		return tp_side_fail(s, -ENOMEM, "no memory for %" PRIu64 " timestamps", n);
	}
	return 0;
}

/* Both sides (or the one of this process) for one size: start, sync, drive, sync. */
static int
tp_run_size(struct tp_ctx *t, const struct tp_engine *eng, uint32_t size,
	    const struct tp_plan *plan)
{
	struct tp_loop main_loop = { .t = t, .size = size }, srv_loop = { .t = t, .size = size };
	bool split = t->nb_sides == 2 && t->cfg.lcore_server >= 0 &&
		     t->cfg.lcore_server != t->cfg.lcore_client;
	unsigned int i;
	int rc;

	for (i = 0; i < t->nb_sides; i++) {
		struct tp_side *s = &t->side[i];

		s->eng = eng;
		tp_reset_side(s, size);
		s->iters = t->cfg.iters;
		s->deadline = t->cfg.duration ? tp_ticks() + tp_ms_ticks(t->cfg.duration * 1000) :
			      0;
		if (eng->start(s) < 0)
			return s->error;
	}
	if (t->nb_sides == 1 && plan->sync_before_size) {
		rc = tp_xchg_sync(t);
		if (rc < 0)
			return rc;
	}
	main_loop.show_progress = isatty(fileno(stderr));
	main_loop.sides[main_loop.nb++] = &t->side[0];
	if (split) {
		srv_loop.sides[srv_loop.nb++] = &t->side[1];
		rc = rte_eal_remote_launch(tp_loop_run, &srv_loop, (unsigned int)t->cfg.lcore_server);
		if (rc < 0)
			return tp_side_fail(&t->side[1], rc, "cannot launch the server side on "
					    "lcore %d: %s", t->cfg.lcore_server, strerror(-rc));
	} else if (t->nb_sides == 2) {
		main_loop.sides[main_loop.nb++] = &t->side[1];
	}
	rc = tp_loop_run(&main_loop);
	if (split) {
		if (rc < 0)
			t->stop = true;
		rte_eal_wait_lcore((unsigned int)t->cfg.lcore_server);
		t->stop = false;
		if (rc == 0)
			rc = srv_loop.rc;
	}
	/* perftest's send_bw syncs after a size only in its -a loop (RUN_ALL), not for one. */
	if (rc == 0 && t->nb_sides == 1 && plan->sync_after_size && t->cfg.sweep)
		rc = tp_xchg_sync(t);
	return rc;
}

/* Counts that must balance after a size: what the client posted arrived or completed. */
static int
tp_balance(struct tp_ctx *t, const struct tp_engine *eng)
{
	const struct tp_side *c = &t->side[0], *s = &t->side[1];
	uint64_t want;

	if (c->role != TP_CLIENT)
		return 0;
	want = c->iters * c->nb_qps;
	if (c->scnt != want || (eng->kind == TP_BW && c->ccnt != want))
		return tp_side_fail(&t->side[0], -EPROTO, "counts do not balance: %" PRIu64
				    " posted, %" PRIu64 " completed, %" PRIu64 " expected",
				    c->scnt, c->ccnt, want);
	if (t->nb_sides == 2 && eng->uses_recv && t->cfg.conn == RDMADEV_QPT_RC &&
	    s->rcnt != c->scnt)
		return tp_side_fail(&t->side[0], -EPROTO, "counts do not balance: client sent %"
				    PRIu64 ", server received %" PRIu64, c->scnt, s->rcnt);
	return 0;
}

static int
tp_report_size(struct tp_ctx *t, const struct tp_engine *eng, uint32_t size)
{
	struct tp_side *s = &t->side[0];
	struct tp_lat_result lr;
	struct tp_bw_result br;
	uint64_t *scratch;
	int rc;

	if (s->role == TP_SERVER && (eng->kind == TP_BW || eng->rtt_factor == 1)) {
		fprintf(t->rep.out, " %-7u    %-10" PRIu64 " (server: %" PRIu64 " received, %"
			PRIu64 " sent)\n", size, s->iters, s->rcnt, s->scnt);
		return 0;
	}
	if (eng->kind == TP_BW) {
		rc = tp_bw_compute(s->tposted, s->tcompleted, s->ccnt, t->cfg.post_list,
				   tp_cq_mod(&t->cfg), size, tp_ticks_hz(), t->cfg.no_peak, &br);
		if (rc == 0) {
			tp_report_bw(&t->rep, &br);
			t->last_bw = br;
		}
		return rc;
	}
	scratch = rte_malloc("tp_scratch", s->scnt * sizeof(uint64_t), 0);
	if (scratch == NULL)
		return -ENOMEM;
	rc = tp_lat_compute(s->tposted, s->scnt, scratch, tp_ticks_hz() / 1e6, eng->rtt_factor,
			    size, &lr);
	rte_free(scratch);
	if (rc == 0)
		tp_report_lat(&t->rep, &lr);
	else
		fprintf(stderr, "rdma-testpmd: %u B: too few iterations (%" PRIu64 ") for "
			"latency statistics\n", size, s->scnt);
	return rc;
}

/* --tp-cores C,S: the client runs on the main lcore (C names it), the server on S. */
static int
tp_lcores_check(const struct tp_ctx *t)
{
	int c = t->cfg.lcore_client, s = t->cfg.lcore_server;

	if (c >= 0 && (unsigned int)c != rte_get_main_lcore()) {
		fprintf(stderr, "rdma-testpmd: --tp-cores %d,%d: the client side runs on the main "
			"lcore (%u): name it first\n", c, s, rte_get_main_lcore());
		return -EINVAL;
	}
	if (s >= 0 && s != c && !rte_lcore_is_enabled((unsigned int)s)) {
		fprintf(stderr, "rdma-testpmd: --tp-cores %d,%d: lcore %d is not enabled (give EAL "
			"-l with it)\n", c, s, s);
		return -EINVAL;
	}
	return 0;
}

static FILE *
tp_open_sink(const char *path)
{
	if (path[0] == '\0')
		return NULL;
	if (strcmp(path, "-") == 0)
		return stdout;
	return fopen(path, "w");
}

/*
 * Flush and close a --json / --csv sink (stdout is flushed, not closed): a write error, also
 * one only fflush or fclose sees (a full disk, /dev/full), is reported and fails the run.
 */
static int
tp_close_sink(FILE *f, const char *opt, const char *path)
{
	int err = 0;

	if (f == NULL)
		return 0;
	/* An earlier write that failed left only the error flag (its errno is gone). */
	if (ferror(f))
		err = -1;
	if (fflush(f) != 0 && err == 0)
		err = errno;
	if (f != stdout && fclose(f) != 0 && err == 0)
		err = errno;
	if (err == 0)
		return 0;
	fprintf(stderr, "rdma-testpmd: writing %s %s: %s\n", opt, path,
		err > 0 ? strerror(err) : "a write failed (a full disk or device?)");
	return -EIO;
}

/* Posted work and not a single completion or arrival on any side. */
static bool
tp_nothing_completed(const struct tp_ctx *t)
{
	uint64_t posted = 0, seen = 0;
	unsigned int i;

	for (i = 0; i < t->nb_sides; i++) {
		posted += t->side[i].scnt;
		seen += t->side[i].ccnt + t->side[i].rcnt;
	}
	return posted > 0 && seen == 0;
}

/* Signaled WRs posted on every side. */
static uint64_t
tp_signaled(const struct tp_ctx *t)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < t->nb_sides; i++)
		n += t->side[i].signaled;
	return n;
}

static void
tp_explain(struct tp_ctx *t, const struct tp_engine *eng, uint32_t size, int rc)
{
	unsigned int i;
	const char *msg = strerror(-rc);

	for (i = 0; i < t->nb_sides; i++)
		if (t->side[i].error != 0) {
			msg = t->side[i].errmsg;
			break;
		}
	fprintf(stderr, "rdma-testpmd: %s %u B failed: %s\n", eng->name, size, msg);
	if (rc == -ENOTSUP || (i < t->nb_sides && t->side[i].error == -ENOTSUP))
		fprintf(stderr, "rdma-testpmd: the device's data path is not available in this "
			"build (the irdma PMD's post_send/post_recv/poll_cq refuse with -ENOTSUP)"
			"\n");
	else if (rc == -ETIMEDOUT && tp_nothing_completed(t) && tp_signaled(t) == 0)
		fprintf(stderr, "rdma-testpmd: no signaled work request was posted, so none could "
			"complete (tx_depth %u, post_list %u, cq_mod %u)\n", t->cfg.tx_depth,
			t->cfg.post_list, tp_cq_mod(&t->cfg));
	else if (rc == -ETIMEDOUT && tp_nothing_completed(t))
		fprintf(stderr, "rdma-testpmd: the device completed none of the work requests "
			"posted: its data path is not running%s\n", t->model ? " (on the device "
			"model: the engine that executes WQEs is not in this build, or stopped)" :
			"");
}

/*
 * A two-process server of a test where only the client works (RDMA write and read BW, read
 * latency): it waits at the client's final handshake, its device serving meanwhile, and for
 * the BW tests prints the client's last row (as perftest's server does).
 */
static int
tp_run_passive(struct tp_ctx *t, const struct tp_engine *eng, const struct tp_plan *plan)
{
	struct tp_bw_result br;
	int rc = 0;

	/* The first message comes when the client's run ends, however long it takes. */
	t->xchg.patient = true;
	if (plan->bw_report) {
		rc = tp_xchg_sync(t);
		t->xchg.patient = false;
		if (rc == 0)
			rc = tp_xchg_bw_report(t, NULL, &br);
		if (rc == 0)
			tp_report_bw(&t->rep, &br);
	}
	if (rc == 0)
		rc = tp_xchg_close(t);
	t->xchg.patient = false;
	if (rc < 0) {
		fprintf(stderr, "rdma-testpmd: %s: the server's wait for the client failed\n",
			eng->name);
		tp_xchg_end(t);
	}
	return rc;
}

/* Two processes, after the last size: the test's final exchanges. */
static int
tp_run_finish(struct tp_ctx *t, const struct tp_plan *plan)
{
	struct tp_bw_result br;
	int rc = 0;

	if (plan->bw_report && t->side[0].role == TP_CLIENT) {
		rc = tp_xchg_sync(t);
		if (rc == 0)
			rc = tp_xchg_bw_report(t, &t->last_bw, &br);
	}
	if (rc == 0 && plan->close)
		rc = tp_xchg_close(t);
	/* write_lat: perftest ends without a word (both sides have seen every round trip). */
	tp_xchg_end(t);
	return rc;
}

static int
tp_run_sizes(struct tp_ctx *t, const struct tp_engine *eng)
{
	bool atomic = tp_is_atomic(eng->opcode);
	uint32_t size = atomic ? TP_ATOMIC_SIZE : t->cfg.sweep ? t->cfg.size_min : t->cfg.size;
	bool remote = t->nb_sides == 1;
	struct tp_plan plan;
	unsigned int i;
	int rc = 0;

	tp_xchg_plan(eng, &plan);
	memset(&t->last_bw, 0, sizeof(t->last_bw));
	if (remote && t->side[0].role == TP_SERVER && plan.server_passive) {
		tp_report_header(&t->rep, eng->kind, eng->name, &t->cfg);
		rc = tp_run_passive(t, eng, &plan);
		tp_report_footer(&t->rep);
		return rc;
	}
	/* Timestamps: the client always, a server for its own latency table. */
	for (i = 0; i < t->nb_sides; i++)
		if ((t->side[i].role == TP_CLIENT || eng->kind == TP_LAT) &&
		    tp_samples_alloc(&t->side[i], (uint64_t)t->cfg.iters * t->cfg.qps,
				     eng->kind == TP_BW) < 0)
			return t->side[i].error;
	tp_report_header(&t->rep, eng->kind, eng->name, &t->cfg);
	for (;;) {
		for (i = 0; i < t->nb_sides; i++)
			t->side[i].error = 0;
		rc = tp_run_size(t, eng, size, &plan);
		if (rc == 0)
			rc = tp_balance(t, eng);
		if (rc == 0)
			rc = tp_report_size(t, eng, size);
		if (rc < 0) {
			tp_explain(t, eng, size, rc);
			/* The peer learns it at its next read (perftest has no abort message). */
			if (remote)
				tp_xchg_end(t);
			break;
		}
		if (!t->cfg.sweep || atomic || size >= t->cfg.size_max)
			break;
		size *= 2;
	}
	if (rc == 0 && remote)
		rc = tp_run_finish(t, &plan);
	tp_report_footer(&t->rep);
	return rc;
}

int
tp_run_test(struct tp_ctx *t)
{
	const struct tp_engine *eng = tp_engine_find(t->cfg.test);
	int rc;

	if (tp_config_check(&t->cfg, stderr) < 0 || tp_lcores_check(t) < 0)
		return -EINVAL;
	/*
	 * The objects are kept between runs (`show qp`, `dump wqe` see the rings a run used)
	 * unless a knob that shapes them changed or the last run failed.
	 */
	if (tp_needs_setup(t)) {
		rc = tp_setup(t);
		if (rc < 0) {
			tp_teardown(t);
			return rc;
		}
	}
	t->rep.out = t->out;
	t->rep.histogram = t->cfg.histogram;
	t->rep.json = tp_open_sink(t->cfg.json_path);
	t->rep.csv = tp_open_sink(t->cfg.csv_path);
	if ((t->cfg.json_path[0] && t->rep.json == NULL) ||
	    (t->cfg.csv_path[0] && t->rep.csv == NULL)) {
		fprintf(stderr, "rdma-testpmd: cannot write the --json / --csv file: %s\n",
			strerror(errno));
		rc = -EIO;
	} else {
		rc = tp_run_sizes(t, eng);
	}
	/* Two processes: the connection served this run; the next one connects anew. */
	if (rc < 0 || t->cfg.mode != TP_MODE_LOCAL)
		t->stale = true;
	if (tp_close_sink(t->rep.json, "--json", t->cfg.json_path) < 0 && rc == 0)
		rc = -EIO;
	if (tp_close_sink(t->rep.csv, "--csv", t->cfg.csv_path) < 0 && rc == 0)
		rc = -EIO;
	t->rep.json = t->rep.csv = NULL;
	return rc;
}
