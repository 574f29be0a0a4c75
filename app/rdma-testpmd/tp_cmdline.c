/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd interactive mode on librte_cmdline: the `rdma-testpmd>` prompt (-i) and
 * --cmdline-file, which feeds a file's lines through the same parser and counts the commands
 * that failed. Commands:
 *
 *   show device | show config | show res [TYPE] | show stats | show qp QPN
 *   set KNOB VALUE | start | stop | wait
 *   dump wqe QPN INDEX | dump cqe CQN INDEX | help | quit
 *
 * `start` runs the configured test; at the prompt it runs in the background (so `stop`,
 * `show` and `dump` work meanwhile), from a file it runs to the end before the next line.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmdline.h>
#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <cmdline_socket.h>
#include <restrack.h>

#include "testpmd.h"

/* Bytes a WQE or CQE dump reads at most. */
#define TP_DUMP_MAX	512u
/* Bytes per dump line: one 32-byte quantum. */
#define TP_DUMP_LINE	32u
/* Longest --cmdline-file line: with its newline and NUL it fills librte_cmdline's 512-byte
 * line buffer (RDLINE_BUF_SIZE), the longest line the prompt takes. */
#define TP_LINE_MAX	510u

/** Interactive state. */
static struct {
	struct tp_ctx *t;	/**< program */
	bool in_file;		/**< running --cmdline-file */
	bool quit;		/**< `quit` seen */
	unsigned int errors;	/**< commands that failed */
	pthread_t runner;	/**< background run */
	bool running;		/**< runner started and not joined */
	volatile bool finished;	/**< runner returned */
	int run_rc;		/**< its result */
	volatile bool reported;	/**< runner said already that the test failed */
} tp_cl;

static void
tp_cmd_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
tp_cmd_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "error: ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, "\n");
	va_end(ap);
	fflush(stdout);
	tp_cl.errors++;
}

/* ---- background runs ---- */

static void *
tp_runner(void *arg)
{
	int rc = tp_run_test(arg);

	tp_cl.run_rc = rc;
	/* Said when it happens, not at the next `wait` (counted there, on the main thread). */
	if (rc < 0 && rc != -EINTR) {
		fprintf(stdout, "error: the test failed: %s\n", strerror(-rc));
		fflush(stdout);
		tp_cl.reported = true;
	}
	tp_cl.finished = true;
	return NULL;
}

static int
tp_wait_run(void)
{
	if (!tp_cl.running)
		return 0;
	pthread_join(tp_cl.runner, NULL);
	tp_cl.running = false;
	tp_cl.t->stop = false;
	if (tp_cl.run_rc == -EINTR)
		fprintf(stdout, "the test was stopped\n");
	else if (tp_cl.run_rc < 0 && tp_cl.reported)
		tp_cl.errors++;
	else if (tp_cl.run_rc < 0)
		tp_cmd_fail("the test failed: %s", strerror(-tp_cl.run_rc));
	tp_cl.reported = false;
	return tp_cl.run_rc;
}

static bool
tp_busy(const char *what)
{
	if (tp_cl.running && !tp_cl.finished) {
		tp_cmd_fail("%s: a test is running (stop or wait first)", what);
		return true;
	}
	tp_wait_run();
	return false;
}

/* ---- token structures ---- */

struct tp_cmd_word { cmdline_fixed_string_t a; };
struct tp_cmd_two { cmdline_fixed_string_t a; cmdline_fixed_string_t b; };
struct tp_cmd_three { cmdline_fixed_string_t a; cmdline_fixed_string_t b;
	cmdline_fixed_string_t c; };
struct tp_cmd_four { cmdline_fixed_string_t a; cmdline_fixed_string_t b;
	cmdline_fixed_string_t c; cmdline_fixed_string_t d; };
struct tp_cmd_num { cmdline_fixed_string_t a; cmdline_fixed_string_t b; uint32_t n; };
struct tp_cmd_dump { cmdline_fixed_string_t a; cmdline_fixed_string_t b; uint32_t id;
	uint32_t idx; };

/* ---- show ---- */

static void
tp_show_device(void)
{
	struct tp_ctx *t = tp_cl.t;
	unsigned int i;

	for (i = 0; i < t->nb_dev; i++) {
		fprintf(stdout, "device %u: %s%s\n", i, rdmadev_name(t->dev[i]),
			t->model ? " (device model)" : "");
		if (rdmadev_dump(t->dev[i], stdout) < 0)
			tp_cmd_fail("rdmadev_dump failed");
	}
}

static const char *const tp_res_names[RESTRACK_MAX] = {
	[RESTRACK_PD] = "pd", [RESTRACK_CQ] = "cq", [RESTRACK_QP] = "qp",
	[RESTRACK_CM_ID] = "cm_id", [RESTRACK_MR] = "mr", [RESTRACK_CTX] = "ctx",
	[RESTRACK_COUNTER] = "counter", [RESTRACK_SRQ] = "srq", [RESTRACK_DMAH] = "dmah",
	[RESTRACK_COMP_CNTR] = "comp_cntr",
};

static void
tp_show_res(const char *type)
{
	struct tp_ctx *t = tp_cl.t;
	int kind = -1, k;
	unsigned int i;

	if (type == NULL || strcmp(type, "all") == 0)
		kind = RESTRACK_MAX;
	for (k = 0; kind < 0 && k < RESTRACK_MAX; k++)
		if (strcmp(tp_res_names[k], type) == 0)
			kind = k;
	if (kind < 0) {
		tp_cmd_fail("show res: unknown type '%s' (pd cq qp cm_id mr ctx counter srq dmah "
			    "comp_cntr all)", type);
		return;
	}
	for (i = 0; i < t->nb_dev; i++)
		if (rdmadev_res_dump(t->dev[i], kind, stdout) < 0)
			tp_cmd_fail("rdmadev_res_dump failed");
}

static void
tp_show_xstats(int16_t dev)
{
	struct rdmadev_xstat *xs;
	int n, i;

	n = rdmadev_xstats_get(dev, NULL, 0);
	if (n == -ENOTSUP) {
		fprintf(stdout, "  hw_counters: the driver has none (yet)\n");
		return;
	}
	if (n < 0) {
		tp_cmd_fail("rdmadev_xstats_get: %s", strerror(-n));
		return;
	}
	xs = calloc((size_t)n + 1, sizeof(*xs));
	if (xs == NULL) {
		tp_cmd_fail("no memory");
		return;
	}
	n = rdmadev_xstats_get(dev, xs, (unsigned int)n);
	fprintf(stdout, "  hw_counters:\n");
	for (i = 0; i < n; i++)
		fprintf(stdout, "    %-32s %" PRIu64 "\n", xs[i].name, xs[i].value);
	free(xs);
}

static void
tp_show_stats(void)
{
	struct tp_ctx *t = tp_cl.t;
	struct rdmadev_stats st;
	unsigned int i;
	int k;

	for (i = 0; i < t->nb_dev; i++) {
		if (rdmadev_stats_get(t->dev[i], &st) < 0) {
			tp_cmd_fail("rdmadev_stats_get failed");
			continue;
		}
		fprintf(stdout, "device %s: errors %" PRIu64 " (driver %" PRIu64 ")\n",
			rdmadev_name(t->dev[i]), st.errors, st.driver_errors);
		for (k = 0; k < RDMADEV_OBJ_MAX; k++)
			if (st.created[k] != 0)
				fprintf(stdout, "  %-10s created %-6" PRIu64 " destroyed %" PRIu64
					"\n", rdmadev_obj_type_name(k), st.created[k],
					st.destroyed[k]);
		tp_show_xstats(t->dev[i]);
	}
}

static void
tp_show_qp(uint32_t qpn)
{
	struct rdmadev_qp *qp = tp_find_qp(tp_cl.t, qpn);
	struct rdmadev_qp_init_attr ia;
	struct rdmadev_qp_attr a;
	int rc;

	if (qp == NULL) {
		tp_cmd_fail("show qp: no QP %u (show res qp lists them)", qpn);
		return;
	}
	rc = rdmadev_qp_query(qp, &a, &ia);
	if (rc < 0) {
		tp_cmd_fail("rdmadev_qp_query: %s", strerror(-rc));
		return;
	}
	fprintf(stdout, "qp %u: type %s state %s\n", qpn, rdmadev_qp_type_name(ia.qp_type),
		rdmadev_qp_state_name(a.qp_state));
	fprintf(stdout, "  dest_qpn %u sq_psn %u rq_psn %u path_mtu %u qkey 0x%x\n",
		a.dest_qp_num, a.sq_psn, a.rq_psn, a.path_mtu ? 128u << a.path_mtu : 0, a.qkey);
	fprintf(stdout, "  send_cq %u recv_cq %u pd %u access 0x%x port %u pkey_index %u\n",
		rdmadev_cq_id(ia.send_cq), rdmadev_cq_id(ia.recv_cq), rdmadev_pd_id(ia.pd),
		a.qp_access_flags, a.port_num, a.pkey_index);
	fprintf(stdout, "  max_send_wr %u max_recv_wr %u max_send_sge %u max_recv_sge %u "
		"max_inline %u\n", a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge,
		a.cap.max_recv_sge, a.cap.max_inline_data);
	fprintf(stdout, "  timeout %u retry_cnt %u rnr_retry %u min_rnr_timer %u ord %u ird %u"
		" sq_draining %u\n", a.timeout, a.retry_cnt, a.rnr_retry, a.min_rnr_timer,
		a.max_rd_atomic, a.max_dest_rd_atomic, a.sq_draining);
}

static void
tp_cmd_show1(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_two *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (strcmp(r->b, "device") == 0)
		tp_show_device();
	else if (strcmp(r->b, "config") == 0)
		tp_knob_show(&tp_cl.t->cfg, stdout);
	else if (strcmp(r->b, "res") == 0)
		tp_show_res(NULL);
	else
		tp_show_stats();
	fflush(stdout);
}

static void
tp_cmd_show_res(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_three *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	tp_show_res(r->c);
	fflush(stdout);
}

static void
tp_cmd_show_qp(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_num *r = res;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	tp_show_qp(r->n);
	fflush(stdout);
}

/* ---- set / start / stop / wait / quit / help ---- */

static void
tp_cmd_set(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_three *r = res;
	struct tp_config next = tp_cl.t->cfg;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (tp_busy("set"))
		return;
	if (tp_knob_set(&next, r->b, r->c, stdout) < 0) {
		tp_cl.errors++;
		return;
	}
	tp_cl.t->cfg = next;
	fprintf(stdout, "%s = %s\n", r->b, r->c);
	fflush(stdout);
}

/* set device KEY VALUE: a driver parameter of every device of this process, at once (also
 * during a run: the model's wire faults and capture). */
static void
tp_cmd_set_device(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_four *r = res;
	struct tp_ctx *t = tp_cl.t;
	unsigned int i;
	int rc;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	for (i = 0; i < t->nb_dev; i++) {
		rc = rdmadev_param_set(t->dev[i], r->c, r->d);
		if (rc < 0) {
			tp_cmd_fail("set device %s %s: %s: %s", r->c, r->d, rdmadev_name(t->dev[i]),
				    rc == -ENOENT ? "no such parameter" : strerror(-rc));
			return;
		}
		fprintf(stdout, "%s: %s = %s\n", rdmadev_name(t->dev[i]), r->c, r->d);
	}
	fflush(stdout);
}

static void
tp_start(void)
{
	struct tp_ctx *t = tp_cl.t;
	bool split = t->cfg.lcore_server >= 0 && t->cfg.lcore_server != t->cfg.lcore_client;
	int rc;

	if (tp_busy("start"))
		return;
	if (tp_cl.in_file || split) {
		rc = tp_run_test(t);
		t->stop = false;
		if (rc < 0)
			tp_cmd_fail("the test failed: %s", strerror(-rc));
		return;
	}
	tp_cl.finished = false;
	tp_cl.reported = false;
	if (pthread_create(&tp_cl.runner, NULL, tp_runner, t) != 0) {
		tp_cmd_fail("cannot start the test thread");
		return;
	}
	tp_cl.running = true;
}

static void
tp_cmd_word(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_word *r = res;

	RTE_SET_USED(data);
	if (strcmp(r->a, "start") == 0) {
		tp_start();
	} else if (strcmp(r->a, "stop") == 0) {
		if (!tp_cl.running)
			fprintf(stdout, "no test is running\n");
		tp_cl.t->stop = true;
		tp_wait_run();
		tp_cl.t->stop = false;
	} else if (strcmp(r->a, "wait") == 0) {
		tp_wait_run();
	} else if (strcmp(r->a, "help") == 0) {
		fprintf(stdout, "show device | show config | show res [pd|cq|qp|cm_id|mr|ctx|"
			"counter|srq|dmah|comp_cntr|all] | show stats | show qp QPN\n"
			"set KNOB VALUE (show config lists the knobs) | set device KEY VALUE\n"
			"start | stop | wait\n"
			"dump wqe QPN INDEX | dump cqe CQN INDEX | quit\n");
	} else {
		tp_cl.t->stop = true;
		tp_wait_run();
		tp_cl.quit = true;
		if (!tp_cl.in_file)
			cmdline_quit(cl);
	}
	fflush(stdout);
}

/* ---- dump ---- */

static void
tp_print_hex(const uint8_t *b, int n)
{
	int i, j;

	for (i = 0; i < n; i += TP_DUMP_LINE) {
		fprintf(stdout, "  %04x:", i);
		for (j = i; j < n && j < i + (int)TP_DUMP_LINE; j++)
			fprintf(stdout, " %02x", b[j]);
		fprintf(stdout, "\n");
	}
}

static void
tp_cmd_dump(void *res, struct cmdline *cl, void *data)
{
	const struct tp_cmd_dump *r = res;
	uint8_t buf[TP_DUMP_MAX];
	struct rdmadev_qp *qp;
	struct rdmadev_cq *cq;
	int n;

	RTE_SET_USED(cl);
	RTE_SET_USED(data);
	if (strcmp(r->b, "wqe") == 0) {
		qp = tp_find_qp(tp_cl.t, r->id);
		if (qp == NULL) {
			tp_cmd_fail("dump wqe: no QP %u", r->id);
			return;
		}
		n = rdmadev_qp_dump_wqe(qp, r->idx, buf, sizeof(buf));
		if (n >= 0)
			fprintf(stdout, "qp %u sq wqe at quantum %u, %d bytes:\n", r->id, r->idx, n);
	} else {
		cq = tp_find_cq(tp_cl.t, r->id);
		if (cq == NULL) {
			tp_cmd_fail("dump cqe: no CQ %u", r->id);
			return;
		}
		n = rdmadev_cq_dump_cqe(cq, r->idx, buf, sizeof(buf));
		if (n >= 0)
			fprintf(stdout, "cq %u cqe %u, %d bytes:\n", r->id, r->idx, n);
	}
	if (n < 0) {
		tp_cmd_fail("dump %s: %s", r->b, strerror(-n));
		return;
	}
	tp_print_hex(buf, n);
	fflush(stdout);
}

/* ---- the command table ---- */

#define TP_STR(st, f, s) TOKEN_STRING_INITIALIZER(struct st, f, s)

static cmdline_parse_token_string_t tp_t_show = TP_STR(tp_cmd_two, a, "show");
static cmdline_parse_token_string_t tp_t_show1 =
	TP_STR(tp_cmd_two, b, "device#config#res#stats");
static cmdline_parse_inst_t tp_i_show1 = {
	.f = tp_cmd_show1, .help_str = "show device|config|res|stats",
	.tokens = { (void *)&tp_t_show, (void *)&tp_t_show1, NULL },
};

static cmdline_parse_token_string_t tp_t_show3 = TP_STR(tp_cmd_three, a, "show");
static cmdline_parse_token_string_t tp_t_res = TP_STR(tp_cmd_three, b, "res");
static cmdline_parse_token_string_t tp_t_restype = TP_STR(tp_cmd_three, c, NULL);
static cmdline_parse_inst_t tp_i_show_res = {
	.f = tp_cmd_show_res, .help_str = "show res TYPE: restrack dump of one object type",
	.tokens = { (void *)&tp_t_show3, (void *)&tp_t_res, (void *)&tp_t_restype, NULL },
};

static cmdline_parse_token_string_t tp_t_shown = TP_STR(tp_cmd_num, a, "show");
static cmdline_parse_token_string_t tp_t_qp = TP_STR(tp_cmd_num, b, "qp");
static cmdline_parse_token_num_t tp_t_qpn = TOKEN_NUM_INITIALIZER(struct tp_cmd_num, n,
								  RTE_UINT32);
static cmdline_parse_inst_t tp_i_show_qp = {
	.f = tp_cmd_show_qp, .help_str = "show qp QPN: the QP's attributes (rdmadev_qp_query)",
	.tokens = { (void *)&tp_t_shown, (void *)&tp_t_qp, (void *)&tp_t_qpn, NULL },
};

static cmdline_parse_token_string_t tp_t_set = TP_STR(tp_cmd_three, a, "set");
static cmdline_parse_token_string_t tp_t_knob = TP_STR(tp_cmd_three, b, NULL);
static cmdline_parse_token_string_t tp_t_value = TP_STR(tp_cmd_three, c, NULL);
static cmdline_parse_inst_t tp_i_set = {
	.f = tp_cmd_set, .help_str = "set KNOB VALUE (show config lists the knobs)",
	.tokens = { (void *)&tp_t_set, (void *)&tp_t_knob, (void *)&tp_t_value, NULL },
};

static cmdline_parse_token_string_t tp_t_set4 = TP_STR(tp_cmd_four, a, "set");
static cmdline_parse_token_string_t tp_t_device = TP_STR(tp_cmd_four, b, "device");
static cmdline_parse_token_string_t tp_t_key = TP_STR(tp_cmd_four, c, NULL);
static cmdline_parse_token_string_t tp_t_val4 = TP_STR(tp_cmd_four, d, NULL);
static cmdline_parse_inst_t tp_i_set_device = {
	.f = tp_cmd_set_device,
	.help_str = "set device KEY VALUE: a driver parameter of every device (rdmadev_param_set)",
	.tokens = { (void *)&tp_t_set4, (void *)&tp_t_device, (void *)&tp_t_key,
		    (void *)&tp_t_val4, NULL },
};

static cmdline_parse_token_string_t tp_t_word =
	TP_STR(tp_cmd_word, a, "start#stop#wait#help#quit");
static cmdline_parse_inst_t tp_i_word = {
	.f = tp_cmd_word, .help_str = "start | stop | wait | help | quit",
	.tokens = { (void *)&tp_t_word, NULL },
};

static cmdline_parse_token_string_t tp_t_dump = TP_STR(tp_cmd_dump, a, "dump");
static cmdline_parse_token_string_t tp_t_what = TP_STR(tp_cmd_dump, b, "wqe#cqe");
static cmdline_parse_token_num_t tp_t_id = TOKEN_NUM_INITIALIZER(struct tp_cmd_dump, id,
								 RTE_UINT32);
static cmdline_parse_token_num_t tp_t_idx = TOKEN_NUM_INITIALIZER(struct tp_cmd_dump, idx,
								  RTE_UINT32);
static cmdline_parse_inst_t tp_i_dump = {
	.f = tp_cmd_dump, .help_str = "dump wqe QPN INDEX | dump cqe CQN INDEX: raw ring bytes",
	.tokens = { (void *)&tp_t_dump, (void *)&tp_t_what, (void *)&tp_t_id, (void *)&tp_t_idx,
		    NULL },
};

static cmdline_parse_ctx_t tp_cmds[] = {
	&tp_i_show1, &tp_i_show_res, &tp_i_show_qp, &tp_i_set, &tp_i_set_device, &tp_i_word,
	&tp_i_dump, NULL,
};

/* ---- drivers ---- */

/*
 * Read one line into @p line (@p size bytes). *total is its length without the newline; when
 * it is size - 1 or more the line did not fit: the rest was read to the newline and dropped.
 * @return 1 a line, 0 end of file (or a read error: ferror tells).
 */
static int
tp_read_line(FILE *f, char *line, size_t size, size_t *total)
{
	char rest[256];
	size_t len;

	if (fgets(line, (int)size, f) == NULL)
		return 0;
	len = strlen(line);
	*total = len;
	if (len > 0 && line[len - 1] == '\n') {
		*total = len - 1;
		return 1;
	}
	if (feof(f))
		return 1;
	/* No newline in size - 1 bytes: count the rest of the line, keep none of it. */
	while (fgets(rest, sizeof(rest), f) != NULL) {
		len = strlen(rest);
		if (len > 0 && rest[len - 1] == '\n') {
			*total += len - 1;
			break;
		}
		*total += len;
	}
	return 1;
}

static int
tp_run_file(const char *path)
{
	struct cmdline *cl;
	char line[TP_LINE_MAX + 2];
	unsigned int lineno = 0;
	size_t len, total;
	struct stat st;
	FILE *f;
	int rc;

	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "rdma-testpmd: cannot read --cmdline-file %s: %s\n", path,
			strerror(errno));
		return -ENOENT;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rdma-testpmd: cannot read --cmdline-file %s: it is a directory "
			"(give a file of commands)\n", path);
		fclose(f);
		return -EISDIR;
	}
	/* No terminal: the parser only parses; we echo the lines ourselves. */
	cl = cmdline_new(tp_cmds, "rdma-testpmd> ", -1, -1);
	if (cl == NULL) {
		fprintf(stderr, "rdma-testpmd: --cmdline-file: cannot create the parser\n");
		fclose(f);
		return -ENOMEM;
	}
	tp_cl.in_file = true;
	while (!tp_cl.quit && tp_read_line(f, line, sizeof(line), &total) == 1) {
		lineno++;
		/* A comment may be of any length (only its start was kept). */
		if (line[strspn(line, " \t")] == '#')
			continue;
		if (total > TP_LINE_MAX) {
			/* One error for the whole line, not one per piece of it. */
			tp_cmd_fail("--cmdline-file %s:%u: a line of %zu characters; a command "
				    "line has at most %u", path, lineno, total, TP_LINE_MAX);
			continue;
		}
		len = strcspn(line, "\r\n");
		line[len] = '\0';
		if (line[strspn(line, " \t")] == '\0' || line[strspn(line, " \t")] == '#')
			continue;
		fprintf(stdout, "rdma-testpmd> %s\n", line);
		fflush(stdout);
		line[len] = '\n';
		line[len + 1] = '\0';
		/* cmdline_parse() returns the parsed length on success. */
		rc = cmdline_parse(cl, line);
		if (rc < 0) {
			line[len] = '\0';
			tp_cmd_fail("%s:%u: '%s': %s", path, lineno, line,
				    rc == CMDLINE_PARSE_AMBIGUOUS ? "ambiguous" :
				    rc == CMDLINE_PARSE_NOMATCH ? "no such command" :
				    "bad arguments");
		}
	}
	tp_cl.in_file = false;
	cmdline_free(cl);
	rc = ferror(f) ? -EIO : 0;
	if (rc < 0)
		fprintf(stderr, "rdma-testpmd: reading --cmdline-file %s after line %u: %s\n",
			path, lineno, strerror(errno));
	fclose(f);
	return rc;
}

int
tp_cmdline_run(struct tp_ctx *t)
{
	unsigned int errors;
	struct cmdline *cl;
	int rc;

	tp_cl.t = t;
	tp_cl.errors = 0;
	if (t->cfg.auto_start) {
		/* From a file or without a prompt the run finishes before anything else. */
		tp_cl.in_file = !t->cfg.interactive || t->cfg.cmdline_file[0] != '\0';
		tp_start();
		tp_cl.in_file = false;
	}
	if (t->cfg.cmdline_file[0] != '\0') {
		rc = tp_run_file(t->cfg.cmdline_file);
		if (rc < 0)
			return rc;
	}
	/* A failed command fails the run from a file; at the prompt the user saw it. */
	errors = tp_cl.errors;
	if (t->cfg.interactive && !tp_cl.quit) {
		cl = cmdline_stdin_new(tp_cmds, "rdma-testpmd> ");
		if (cl == NULL) {
			fprintf(stderr, "rdma-testpmd: cannot start the prompt\n");
			return -ENOMEM;
		}
		cmdline_interact(cl);
		cmdline_stdin_exit(cl);
		t->stop = true;
		tp_wait_run();
	}
	if (errors > 0) {
		fprintf(stderr, "rdma-testpmd: %u command(s) failed\n", errors);
		return -EINVAL;
	}
	return 0;
}
