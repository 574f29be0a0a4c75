/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of lib/restrack against the contract in restrack.h: every function, every state
 * of an entry, every bad input. Each bad call is followed by a check that the table is still
 * what it was. The tests need no EAL (restrack only logs through rte_log).
 *
 * A watchdog (alarm) turns a hang, e.g. a begin_del waiting for a reference that was leaked,
 * into a TAP "Bail out!" naming the case.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_log.h>

#include "restrack.h"
#include "test.h"

#define WATCHDOG_SECONDS 30

/* Two user owners with distinct pids, used by the filter and dump tests. */
static const struct restrack_task task_a = {
	.pid = 1234, .tid = 1235, .lcore = 0, .comm = "app_a",
};
static const struct restrack_task task_b = {
	.pid = 4321, .tid = 4322, .lcore = 1, .comm = "app_b",
};

/* ---------------------------------------------------------------------------------------- */
/* Helpers                                                                                  */
/* ---------------------------------------------------------------------------------------- */

#define RUN(fn) TEST_RUN(fn)
#define sleep_ms test_sleep_ms

/* A root whose @p type has a small ID space; every other type gets the default space. */
static struct restrack_root *
make_root(const char *name, enum restrack_type type, uint32_t nb_ids, uint32_t nb_reserved)
{
	struct restrack_config cfg;
	struct restrack_root *root = NULL;

	memset(&cfg, 0, sizeof(cfg));
	if ((unsigned int)type < RESTRACK_MAX) {
		cfg.type[type].nb_ids = nb_ids;
		cfg.type[type].nb_reserved = nb_reserved;
	}
	TEST_CHECK_EQ(restrack_init(name, &cfg, &root), 0);
	TEST_CHECK(root != NULL);
	return root;
}

/* New entry owned by a user task. */
static void
init_user(struct restrack_entry *e, enum restrack_type type, const struct restrack_task *task)
{
	TEST_CHECK_EQ(restrack_new(e, type), 0);
	TEST_CHECK_EQ(restrack_attach_task(e, task), 0);
}

/* New driver-owned entry. */
static void
init_driver(struct restrack_entry *e, enum restrack_type type, const char *name)
{
	TEST_CHECK_EQ(restrack_new(e, type), 0);
	TEST_CHECK_EQ(restrack_set_name(e, name), 0);
}

/*
 * True when get_byid(type, id) finds exactly @p want (and the reference is dropped again),
 * or, with @p want NULL, when it reports -ENOENT.
 */
static bool
lookup_is(struct restrack_root *root, enum restrack_type type, uint32_t id,
	  const struct restrack_entry *want)
{
	struct restrack_entry *got = NULL;
	int rc = restrack_get_byid(root, type, id, &got);

	if (rc == 0) {
		bool same = got == want;

		if (restrack_put(got) != 0)
			return false;
		return same;
	}
	return want == NULL && rc == -ENOENT;
}

/* Field by field equality of two entries (no padding compared). */
static bool
entry_same(const struct restrack_entry *a, const struct restrack_entry *b)
{
	return a->ref == b->ref && a->root == b->root && a->id == b->id && a->type == b->type &&
	       a->state == b->state && a->no_track == b->no_track &&
	       a->driver_res == b->driver_res && memcmp(a->name, b->name, sizeof(a->name)) == 0 &&
	       a->task.pid == b->task.pid && a->task.tid == b->task.tid &&
	       a->task.lcore == b->task.lcore &&
	       memcmp(a->task.comm, b->task.comm, sizeof(a->task.comm)) == 0;
}

static void
strip_newline(char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Print text as TAP comments (one per line), for diagnostics of a failed check. */
static void
diag(const char *what, const char *text)
{
	const char *p = text != NULL ? text : "(null)";

	printf("#   %s:\n", what);
	do {
		const char *nl = strchr(p, '\n');
		int n = nl != NULL ? (int)(nl - p) : (int)strlen(p);

		if (n > 0 || nl == NULL)
			printf("#     \"%.*s\"\n", n, p);
		p = nl != NULL ? nl + 1 : NULL;
	} while (p != NULL && *p != '\0');
}

/* ---- rte_log capture ---- */

struct log_capture {
	FILE *f;
	char *buf;
	size_t len;
};

static void
log_capture_start(struct log_capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	TEST_CHECK(c->f != NULL);
	if (c->f != NULL)
		TEST_CHECK_EQ(rte_openlog_stream(c->f), 0);
}

/* Stop capturing; returns the text (caller frees), never NULL. */
static char *
log_capture_stop(struct log_capture *c)
{
	rte_openlog_stream(NULL);
	if (c->f != NULL)
		fclose(c->f);
	if (c->buf == NULL)
		c->buf = strdup("");
	return c->buf;
}

/* True when @p text mentions any of the NULL-terminated words, case-insensitively. */
static bool
mentions_any(const char *text, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strcasestr(text, *words) != NULL)
			return true;
	return false;
}

/* ---- foreach callback ---- */

struct walk {
	int n;
	uint32_t ids[32];
	struct restrack_entry *entries[32];
	int stop_at;		/* stop after this many visits (0: never) */
	int stop_value;
	int bad;		/* visits of a non-live entry or failing get/put inside */
};

static int
walk_cb(struct restrack_entry *entry, void *arg)
{
	struct walk *w = arg;

	if (w->n < 32) {
		w->ids[w->n] = restrack_id(entry);
		w->entries[w->n] = entry;
	}
	w->n++;
	if (entry->state != RESTRACK_STATE_LIVE)
		w->bad++;
	if (restrack_refcnt(entry) < 2)		/* birth + the walk's reference */
		w->bad++;
	/* the entry may be referenced again from inside the callback */
	if (restrack_get(entry) != 0 || restrack_put(entry) != 0)
		w->bad++;
	if (w->stop_at != 0 && w->n == w->stop_at)
		return w->stop_value;
	return 0;
}

/* ---- reader threads (hold a reference for a while, then drop it) ---- */

struct reader {
	struct restrack_root *root;
	enum restrack_type type;
	uint32_t id;			/* looked up by ID when entry is NULL */
	struct restrack_entry *entry;	/* restrack_get() on it when set */
	unsigned int hold_ms;		/* 0: hold until release is set */
	atomic_int release;
	struct restrack_entry *found;
	int get_rc;
	int put_rc;
	atomic_int got;			/* 1 once the reference is held, -1 on failure */
	atomic_int putting;		/* 1 right before restrack_put() */
	pthread_t thread;
};

static void *
reader_main(void *arg)
{
	struct reader *r = arg;

	if (r->entry != NULL) {
		r->get_rc = restrack_get(r->entry);
		r->found = r->entry;
	} else {
		r->get_rc = restrack_get_byid(r->root, r->type, r->id, &r->found);
	}
	if (r->get_rc != 0) {
		atomic_store(&r->got, -1);
		return NULL;
	}
	atomic_store(&r->got, 1);
	if (r->hold_ms != 0)
		sleep_ms(r->hold_ms);
	else
		while (!atomic_load(&r->release))
			sleep_ms(1);
	atomic_store(&r->putting, 1);
	r->put_rc = restrack_put(r->found);
	return NULL;
}

/*
 * Start a reader of @p e (restrack_get), or of ID @p id of @p type in @p root when @p e is
 * NULL, that holds its reference @p hold_ms ms (0: until released); wait until it holds it
 * (or failed to take it).
 */
static bool
reader_start(struct reader *r, struct restrack_root *root, enum restrack_type type, uint32_t id,
	     struct restrack_entry *e, unsigned int hold_ms)
{
	*r = (struct reader){
		.root = root, .type = type, .id = id, .entry = e, .hold_ms = hold_ms,
	};
	atomic_init(&r->got, 0);
	atomic_init(&r->putting, 0);
	atomic_init(&r->release, 0);
	r->found = NULL;
	r->get_rc = -1;
	r->put_rc = -1;
	if (pthread_create(&r->thread, NULL, reader_main, r) != 0)
		return false;
	while (atomic_load(&r->got) == 0)
		sched_yield();
	return atomic_load(&r->got) == 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Type names                                                                               */
/* ---------------------------------------------------------------------------------------- */

static void
test_type_name_all_types(void)
{
	static const char *const names[RESTRACK_MAX] = {
		"PD", "CQ", "QP", "CM_ID", "MR", "CTX", "COUNTER", "SRQ", "DMAH", "COMP_CNTR",
	};
	unsigned int t;

	TEST_CHECK_EQ(RESTRACK_MAX, 10);
	for (t = 0; t < RESTRACK_MAX; t++) {
		const char *n = restrack_type_name((enum restrack_type)t);

		TEST_CHECK(n != NULL && strcmp(n, names[t]) == 0);
		if (n == NULL || strcmp(n, names[t]) != 0)
			diag(names[t], n);
	}
}

static void
test_type_name_out_of_range(void)
{
	const char *n;

	n = restrack_type_name(RESTRACK_MAX);
	TEST_CHECK(n != NULL && strcmp(n, "UNKNOWN") == 0);
	n = restrack_type_name((enum restrack_type)99);
	TEST_CHECK(n != NULL && strcmp(n, "UNKNOWN") == 0);
	n = restrack_type_name((enum restrack_type)-1);
	TEST_CHECK(n != NULL && strcmp(n, "UNKNOWN") == 0);
}

/* ---------------------------------------------------------------------------------------- */
/* init / clean / root name                                                                 */
/* ---------------------------------------------------------------------------------------- */

static void
test_init_null_args(void)
{
	struct restrack_root *root = NULL;
	struct restrack_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	TEST_CHECK_EQ(restrack_init(NULL, NULL, &root), -EINVAL);
	TEST_CHECK_EQ(restrack_init(NULL, &cfg, &root), -EINVAL);
	TEST_CHECK_EQ(restrack_init("dev", NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_init("dev", &cfg, NULL), -EINVAL);
	TEST_CHECK(root == NULL);
}

static void
test_init_space_too_large(void)
{
	struct restrack_root *root = NULL;
	struct restrack_config cfg;
	unsigned int t;

	for (t = 0; t < RESTRACK_MAX; t++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.type[t].nb_ids = RESTRACK_MAX_IDS + 1;
		TEST_CHECK_EQ(restrack_init("dev", &cfg, &root), -EINVAL);
		cfg.type[t].nb_ids = UINT32_MAX;
		TEST_CHECK_EQ(restrack_init("dev", &cfg, &root), -EINVAL);
	}
	TEST_CHECK(root == NULL);
}

static void
test_init_reserving_whole_space(void)
{
	struct restrack_root *root = NULL;
	struct restrack_config cfg;
	unsigned int t;

	for (t = 0; t < RESTRACK_MAX; t++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.type[t].nb_ids = 8;
		cfg.type[t].nb_reserved = 8;
		TEST_CHECK_EQ(restrack_init("dev", &cfg, &root), -EINVAL);
		cfg.type[t].nb_reserved = 9;
		TEST_CHECK_EQ(restrack_init("dev", &cfg, &root), -EINVAL);
		/* nb_ids 0 means the default space: reserving all of it is invalid too */
		cfg.type[t].nb_ids = 0;
		cfg.type[t].nb_reserved = RESTRACK_DEFAULT_IDS;
		TEST_CHECK_EQ(restrack_init("dev", &cfg, &root), -EINVAL);
	}
	TEST_CHECK(root == NULL);
}

/* With a NULL or a zeroed configuration every type has RESTRACK_DEFAULT_IDS and no reserve. */
static void
check_default_spaces(struct restrack_root *root)
{
	unsigned int t;

	for (t = 0; t < RESTRACK_MAX; t++) {
		struct restrack_entry a, b, c;
		struct restrack_entry *out = NULL;

		init_driver(&a, (enum restrack_type)t, "def");
		init_driver(&b, (enum restrack_type)t, "def");
		init_driver(&c, (enum restrack_type)t, "def");
		TEST_CHECK_EQ(restrack_add(root, &a), 0);
		TEST_CHECK_EQ(restrack_id(&a), 0);
		TEST_CHECK_EQ(restrack_claim(root, &b, RESTRACK_DEFAULT_IDS - 1), 0);
		TEST_CHECK_EQ(restrack_id(&b), RESTRACK_DEFAULT_IDS - 1);
		TEST_CHECK_EQ(restrack_claim(root, &c, RESTRACK_DEFAULT_IDS), -ERANGE);
		TEST_CHECK_EQ(restrack_get_byid(root, (enum restrack_type)t, RESTRACK_DEFAULT_IDS,
						&out), -ERANGE);
		TEST_CHECK_EQ(restrack_del(&a), 0);
		TEST_CHECK_EQ(restrack_del(&b), 0);
	}
}

static void
test_init_defaults(void)
{
	struct restrack_root *root = NULL;
	struct restrack_config cfg;

	TEST_CHECK_EQ(restrack_init("dflt", NULL, &root), 0);
	TEST_CHECK(root != NULL);
	check_default_spaces(root);
	TEST_CHECK_EQ(restrack_clean(root), 0);

	root = NULL;
	memset(&cfg, 0, sizeof(cfg));
	TEST_CHECK_EQ(restrack_init("zero", &cfg, &root), 0);
	TEST_CHECK(root != NULL);
	check_default_spaces(root);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_init_limits(void)
{
	struct restrack_root *root = NULL;
	struct restrack_config cfg;
	struct restrack_entry a, b, c;

	/* the largest space is allowed; its last ID is valid */
	memset(&cfg, 0, sizeof(cfg));
	cfg.type[RESTRACK_QP].nb_ids = RESTRACK_MAX_IDS;
	cfg.type[RESTRACK_QP].nb_reserved = 3;
	TEST_CHECK_EQ(restrack_init("big", &cfg, &root), 0);
	init_driver(&a, RESTRACK_QP, "big");
	init_driver(&b, RESTRACK_QP, "big");
	TEST_CHECK_EQ(restrack_claim(root, &a, RESTRACK_MAX_IDS - 1), 0);
	TEST_CHECK_EQ(restrack_claim(root, &b, RESTRACK_MAX_IDS), -ERANGE);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, RESTRACK_MAX_IDS - 1, &a));
	TEST_CHECK_EQ(restrack_add(root, &b), 0);
	TEST_CHECK_EQ(restrack_id(&b), 3);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_del(&b), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);

	/* nb_reserved = nb_ids - 1 leaves exactly one allocatable ID */
	root = make_root("one", RESTRACK_CQ, 4, 3);
	init_driver(&a, RESTRACK_CQ, "one");
	init_driver(&b, RESTRACK_CQ, "one");
	init_driver(&c, RESTRACK_CQ, "one");
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	TEST_CHECK_EQ(restrack_id(&a), 3);
	TEST_CHECK_EQ(restrack_add(root, &b), -ENOSPC);
	TEST_CHECK_EQ(restrack_claim(root, &c, 0), 0);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_add(root, &b), 0);
	TEST_CHECK_EQ(restrack_id(&b), 3);
	TEST_CHECK_EQ(restrack_del(&b), 0);
	TEST_CHECK_EQ(restrack_del(&c), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_root_name_copied(void)
{
	struct restrack_root *root = NULL;
	char name[16];
	const char *n;

	strcpy(name, "mlx_rt0");
	TEST_CHECK_EQ(restrack_init(name, NULL, &root), 0);
	memset(name, 'X', sizeof(name) - 1);
	n = restrack_root_name(root);
	TEST_CHECK(n != NULL && strcmp(n, "mlx_rt0") == 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* A device name longer than an entry name is copied whole, or refused; never cut short. */
static void
test_root_name_long(void)
{
	static const char name[] = "0000:af:00.0_irdma_roce_port1_dev_long";
	struct restrack_root *root = NULL;
	int rc;

	/* The header: at most RESTRACK_NAME_LEN - 1 characters; longer is refused. */
	rc = restrack_init(name, NULL, &root);
	TEST_CHECK_EQ(rc, -EINVAL);
	if (rc == 0) {
		const char *n = restrack_root_name(root);

		TEST_CHECK(n != NULL && strcmp(n, name) == 0);
		if (n == NULL || strcmp(n, name) != 0)
			diag("root name", n);
		TEST_CHECK_EQ(restrack_clean(root), 0);
	}
}

static void
test_roots_are_independent(void)
{
	struct restrack_root *r1 = make_root("r1", RESTRACK_QP, 16, 0);
	struct restrack_root *r2 = make_root("r2", RESTRACK_QP, 16, 0);
	struct restrack_entry a, b;

	TEST_CHECK(r1 != r2);
	TEST_CHECK(strcmp(restrack_root_name(r1), "r1") == 0);
	TEST_CHECK(strcmp(restrack_root_name(r2), "r2") == 0);
	init_driver(&a, RESTRACK_QP, "a");
	init_driver(&b, RESTRACK_QP, "b");
	TEST_CHECK_EQ(restrack_claim(r1, &a, 5), 0);
	TEST_CHECK_EQ(restrack_claim(r2, &b, 5), 0);
	TEST_CHECK_EQ(restrack_add(r1, &a), 0);
	TEST_CHECK_EQ(restrack_add(r2, &b), 0);
	TEST_CHECK(lookup_is(r1, RESTRACK_QP, 5, &a));
	TEST_CHECK(lookup_is(r2, RESTRACK_QP, 5, &b));
	TEST_CHECK_EQ(restrack_count(r1, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_count(r2, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK(lookup_is(r1, RESTRACK_QP, 5, NULL));
	TEST_CHECK(lookup_is(r2, RESTRACK_QP, 5, &b));
	TEST_CHECK_EQ(restrack_del(&b), 0);
	TEST_CHECK_EQ(restrack_clean(r1), 0);
	TEST_CHECK_EQ(restrack_clean(r2), 0);
}

static void
test_clean_null_and_empty(void)
{
	struct restrack_root *root = NULL;

	TEST_CHECK_EQ(restrack_clean(NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_init("empty", NULL, &root), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_clean_after_everything_deleted(void)
{
	struct restrack_root *root = make_root("alldel", RESTRACK_QP, 32, 3);
	struct restrack_entry e[RESTRACK_MAX];
	struct restrack_entry q[8];
	unsigned int t, i;

	for (t = 0; t < RESTRACK_MAX; t++) {
		init_user(&e[t], (enum restrack_type)t, &task_a);
		TEST_CHECK_EQ(restrack_add(root, &e[t]), 0);
	}
	for (i = 0; i < 8; i++) {
		init_driver(&q[i], RESTRACK_QP, "qp");
		TEST_CHECK_EQ(restrack_add(root, &q[i]), 0);
	}
	/* every way of deleting: one step, two phase, abort then delete, claim then release */
	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(restrack_del(&e[t]), 0);
	for (i = 0; i < 4; i++) {
		TEST_CHECK_EQ(restrack_begin_del(&q[i]), 0);
		TEST_CHECK_EQ(restrack_commit_del(&q[i]), 0);
	}
	for (i = 4; i < 8; i++) {
		TEST_CHECK_EQ(restrack_begin_del(&q[i]), 0);
		TEST_CHECK_EQ(restrack_abort_del(&q[i]), 0);
		TEST_CHECK_EQ(restrack_del(&q[i]), 0);
	}
	init_driver(&e[0], RESTRACK_QP, "claimed");
	TEST_CHECK_EQ(restrack_claim(root, &e[0], 1), 0);
	TEST_CHECK_EQ(restrack_del(&e[0]), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Claimed, live and deleting entries are leaks; deleted and untracked ones are not. */
static void
test_clean_counts_leaks(void)
{
	struct restrack_root *root = make_root("leaky", RESTRACK_QP, 128, 3);
	struct restrack_entry live_qp, claimed_cq, deleting_pd, deleted_mr, new_qp;
	struct log_capture cap;
	char *text;

	init_driver(&live_qp, RESTRACK_QP, "leaky_drv");
	TEST_CHECK_EQ(restrack_claim(root, &live_qp, 77), 0);
	TEST_CHECK_EQ(restrack_add(root, &live_qp), 0);

	init_user(&claimed_cq, RESTRACK_CQ, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &claimed_cq, 45), 0);

	init_user(&deleting_pd, RESTRACK_PD, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &deleting_pd, 61), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleting_pd), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting_pd), 0);

	init_driver(&deleted_mr, RESTRACK_MR, "gone");
	TEST_CHECK_EQ(restrack_add(root, &deleted_mr), 0);
	TEST_CHECK_EQ(restrack_del(&deleted_mr), 0);

	init_driver(&new_qp, RESTRACK_QP, "never_added");

	log_capture_start(&cap);
	TEST_CHECK_EQ(restrack_clean(root), 3);
	text = log_capture_stop(&cap);
	/* each leak is reported with its type, ID and owner */
	TEST_CHECK(strstr(text, "QP") != NULL);
	TEST_CHECK(strstr(text, "77") != NULL);
	TEST_CHECK(strstr(text, "leaky_drv") != NULL);
	TEST_CHECK(strstr(text, "CQ") != NULL);
	TEST_CHECK(strstr(text, "45") != NULL);
	TEST_CHECK(strstr(text, "1234") != NULL || strstr(text, "app_a") != NULL);
	TEST_CHECK(strstr(text, "PD") != NULL);
	TEST_CHECK(strstr(text, "61") != NULL);
	TEST_CHECK(strstr(text, "4321") != NULL || strstr(text, "app_b") != NULL);
	TEST_CHECK(strstr(text, "gone") == NULL);
	TEST_CHECK(strstr(text, "never_added") == NULL);
	if (test_case_failures)
		diag("clean log", text);
	free(text);
}

/* The leak report names the owner in full: a driver name of RESTRACK_NAME_LEN - 1 chars. */
static void
test_clean_reports_full_names(void)
{
	static const char drv[] = "irdma_driver_owned_qp_creat";	/* 27 characters */
	static const char too_long[] = "irdma_driver_owned_qp_creato";	/* 28 characters */
	struct restrack_root *root = make_root("leaknames", RESTRACK_QP, 128, 3);
	struct restrack_entry qp;
	struct log_capture cap;
	char *text;

	TEST_CHECK_EQ(sizeof(drv), RESTRACK_NAME_LEN);
	/* One character more is refused, not silently cut. */
	TEST_CHECK_EQ(restrack_new(&qp, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_set_name(&qp, too_long), -EINVAL);
	init_driver(&qp, RESTRACK_QP, drv);
	TEST_CHECK(strcmp(qp.name, drv) == 0);
	TEST_CHECK_EQ(restrack_claim(root, &qp, 99), 0);
	TEST_CHECK_EQ(restrack_add(root, &qp), 0);
	log_capture_start(&cap);
	TEST_CHECK_EQ(restrack_clean(root), 1);
	text = log_capture_stop(&cap);
	TEST_CHECK(strstr(text, drv) != NULL);
	TEST_CHECK(strstr(text, "99") != NULL);
	if (strstr(text, drv) == NULL)
		diag("clean log", text);
	free(text);
}

/*
 * An untracked (no_track) entry is not in the table: clean does not count it. Its owner
 * leaked it; whatever restrack allocated for it must still not outlive the root (LSan).
 */
static void
test_clean_ignores_untracked_entry(void)
{
	struct restrack_root *root = make_root("leaky_nt", RESTRACK_QP, 128, 3);
	struct restrack_entry untracked_qp;
	struct log_capture cap;
	char *text;

	init_driver(&untracked_qp, RESTRACK_QP, "untracked");
	TEST_CHECK_EQ(restrack_no_track(&untracked_qp), 0);
	TEST_CHECK_EQ(restrack_add(root, &untracked_qp), 0);
	log_capture_start(&cap);
	TEST_CHECK_EQ(restrack_clean(root), 0);
	text = log_capture_stop(&cap);
	TEST_CHECK(strstr(text, "untracked") == NULL);
	free(text);
}

/* ---------------------------------------------------------------------------------------- */
/* new                                                                                      */
/* ---------------------------------------------------------------------------------------- */

static void
test_new_bad_args(void)
{
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_new(NULL, RESTRACK_QP), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_MAX), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, (enum restrack_type)99), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, (enum restrack_type)-1), -EINVAL);
}

/* A new entry is tracked-to-be but not in any table: every operation needing one fails. */
static void
test_new_entry_state(void)
{
	struct restrack_entry e;
	unsigned int t;

	for (t = 0; t < RESTRACK_MAX; t++) {
		memset(&e, 0xa5, sizeof(e));
		TEST_CHECK_EQ(restrack_new(&e, (enum restrack_type)t), 0);
		TEST_CHECK_EQ(e.type, t);
		TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);
		TEST_CHECK(!e.no_track);
		TEST_CHECK(restrack_is_tracked(&e));
	}
	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_begin_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_commit_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_abort_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);
}

/* ---------------------------------------------------------------------------------------- */
/* add and claim: ID allocation                                                             */
/* ---------------------------------------------------------------------------------------- */

static void
test_add_auto_ids_start_at_reserved(void)
{
	struct restrack_root *root = make_root("auto", RESTRACK_QP, 8, 3);
	struct restrack_entry e[5], extra;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		init_user(&e[i], RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_add(root, &e[i]), 0);
		TEST_CHECK_EQ(restrack_id(&e[i]), 3 + i);
		TEST_CHECK_EQ(e[i].state, RESTRACK_STATE_LIVE);
		TEST_CHECK(lookup_is(root, RESTRACK_QP, 3 + i, &e[i]));
	}
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 5);
	/* the reserved IDs 0..2 are free but never chosen */
	init_user(&extra, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &extra), -ENOSPC);
	TEST_CHECK_EQ(restrack_claim(root, &extra, RESTRACK_ID_ANY), -ENOSPC);
	TEST_CHECK_EQ(extra.state, RESTRACK_STATE_NEW);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 5);
	for (i = 0; i < 5; i++)
		TEST_CHECK_EQ(restrack_del(&e[i]), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Each freed ID comes back only after every other allocatable ID has been handed out. */
static void
test_add_cyclic_one_at_a_time(void)
{
	struct restrack_root *root = make_root("cyc1", RESTRACK_QP, 8, 3);
	struct restrack_entry e;
	unsigned int i;

	for (i = 0; i < 17; i++) {
		init_user(&e, RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_add(root, &e), 0);
		TEST_CHECK_EQ(restrack_id(&e), 3 + i % 5);
		TEST_CHECK_EQ(restrack_del(&e), 0);
	}
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_add_cyclic_freed_id_late(void)
{
	struct restrack_root *root = make_root("cyc2", RESTRACK_QP, 8, 3);
	struct restrack_entry a, b, c, d, e, f, g, h, x;

	init_user(&a, RESTRACK_QP, &task_a);
	init_user(&b, RESTRACK_QP, &task_a);
	init_user(&c, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	TEST_CHECK_EQ(restrack_add(root, &b), 0);
	TEST_CHECK_EQ(restrack_add(root, &c), 0);
	TEST_CHECK_EQ(restrack_id(&a), 3);
	TEST_CHECK_EQ(restrack_id(&b), 4);
	TEST_CHECK_EQ(restrack_id(&c), 5);
	TEST_CHECK_EQ(restrack_del(&b), 0);		/* 4 is free */
	init_user(&d, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &d), 0);
	TEST_CHECK_EQ(restrack_id(&d), 6);		/* not 4 */
	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_id(&e), 7);
	init_user(&f, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &f), 0);
	TEST_CHECK_EQ(restrack_id(&f), 4);		/* after the wrap */
	TEST_CHECK_EQ(restrack_del(&a), 0);		/* 3 free */
	TEST_CHECK_EQ(restrack_del(&c), 0);		/* 5 free */
	init_user(&g, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &g), 0);
	TEST_CHECK_EQ(restrack_id(&g), 5);		/* the cursor is past 4 */
	init_user(&h, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &h), 0);
	TEST_CHECK_EQ(restrack_id(&h), 3);		/* wrap again */
	init_user(&x, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &x), -ENOSPC);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 3, &h));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 4, &f));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, &g));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, &d));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 7, &e));
	TEST_CHECK_EQ(restrack_del(&d), 0);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&f), 0);
	TEST_CHECK_EQ(restrack_del(&g), 0);
	TEST_CHECK_EQ(restrack_del(&h), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* A failed add leaves the entry untouched and nothing tracked; it can be retried. */
static void
test_add_enospc_leaves_entry_untouched(void)
{
	struct restrack_root *root = make_root("full", RESTRACK_QP, 8, 3);
	struct restrack_entry e[5], x, saved;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		init_user(&e[i], RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_add(root, &e[i]), 0);
	}
	init_driver(&x, RESTRACK_QP, "late");
	saved = x;
	TEST_CHECK_EQ(restrack_add(root, &x), -ENOSPC);
	TEST_CHECK(entry_same(&x, &saved));
	TEST_CHECK_EQ(x.state, RESTRACK_STATE_NEW);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 5);
	TEST_CHECK_EQ(restrack_del(&e[1]), 0);		/* frees ID 4 */
	TEST_CHECK_EQ(restrack_add(root, &x), 0);
	TEST_CHECK_EQ(restrack_id(&x), 4);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 4, &x));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 5);
	TEST_CHECK_EQ(restrack_del(&x), 0);
	for (i = 0; i < 5; i++)
		if (i != 1)
			TEST_CHECK_EQ(restrack_del(&e[i]), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/*
 * Same for an entry whose owner was never set (restrack_add() may default it to the calling
 * task, but only on success): a failed add leaves every field as it was.
 */
static void
test_add_error_leaves_unowned_entry_untouched(void)
{
	struct restrack_root *root = make_root("full2", RESTRACK_QP, 4, 3);
	struct restrack_entry a, x, saved;

	init_driver(&a, RESTRACK_QP, "first");
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	TEST_CHECK_EQ(restrack_new(&x, RESTRACK_QP), 0);	/* no owner */
	saved = x;
	TEST_CHECK_EQ(restrack_add(root, &x), -ENOSPC);
	TEST_CHECK(entry_same(&x, &saved));
	if (!entry_same(&x, &saved))
		printf("#   task after the failed add: pid %d tid %d comm \"%s\"\n",
		       (int)x.task.pid, (int)x.task.tid, x.task.comm);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* The allocator skips IDs that are claimed or being deleted. */
static void
test_alloc_skips_claimed_and_deleting(void)
{
	struct restrack_root *root = make_root("skip", RESTRACK_QP, 8, 3);
	struct restrack_entry a, b, c, d, x, e, f;

	init_user(&a, RESTRACK_QP, &task_a);
	init_user(&b, RESTRACK_QP, &task_a);
	init_user(&c, RESTRACK_QP, &task_a);
	init_user(&d, RESTRACK_QP, &task_a);
	init_user(&x, RESTRACK_QP, &task_a);
	init_user(&e, RESTRACK_QP, &task_a);
	init_user(&f, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);		/* 3 */
	TEST_CHECK_EQ(restrack_add(root, &b), 0);		/* 4 */
	TEST_CHECK_EQ(restrack_claim(root, &x, 6), 0);		/* 6 claimed */
	TEST_CHECK_EQ(x.state, RESTRACK_STATE_CLAIMED);
	TEST_CHECK_EQ(restrack_add(root, &c), 0);
	TEST_CHECK_EQ(restrack_id(&c), 5);
	TEST_CHECK_EQ(restrack_add(root, &d), 0);
	TEST_CHECK_EQ(restrack_id(&d), 7);			/* 6 skipped */
	TEST_CHECK_EQ(restrack_add(root, &e), -ENOSPC);
	TEST_CHECK_EQ(restrack_begin_del(&b), 0);		/* 4 deleting */
	TEST_CHECK_EQ(restrack_add(root, &e), -ENOSPC);
	TEST_CHECK_EQ(restrack_claim(root, &e, RESTRACK_ID_ANY), -ENOSPC);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);
	TEST_CHECK_EQ(restrack_commit_del(&b), 0);		/* 4 free */
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_id(&e), 4);
	TEST_CHECK_EQ(restrack_add(root, &f), -ENOSPC);
	TEST_CHECK_EQ(restrack_del(&x), 0);			/* claimed 6 released */
	TEST_CHECK_EQ(restrack_add(root, &f), 0);
	TEST_CHECK_EQ(restrack_id(&f), 6);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 5);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_del(&c), 0);
	TEST_CHECK_EQ(restrack_del(&d), 0);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&f), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_claim_exact_id(void)
{
	struct restrack_root *root = make_root("exact", RESTRACK_QP, 64, 3);
	struct restrack_entry e;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 42), 0);
	TEST_CHECK_EQ(restrack_id(&e), 42);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_CLAIMED);
	TEST_CHECK(e.root == root);
	/* claimed: reserved but invisible */
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 42, NULL));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_id(&e), 42);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 42, &e));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	/* last valid ID */
	{
		struct restrack_entry last;

		init_user(&last, RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_claim(root, &last, 63), 0);
		TEST_CHECK_EQ(restrack_add(root, &last), 0);
		TEST_CHECK(lookup_is(root, RESTRACK_QP, 63, &last));
		TEST_CHECK_EQ(restrack_del(&last), 0);
	}
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Explicit claims may take reserved IDs (irdma's QP 0-2, CQ 0-2, PD 0-2, MR index 0). */
static void
test_claim_reserved_id(void)
{
	struct restrack_root *root = make_root("resv", RESTRACK_QP, 16, 3);
	struct restrack_entry q[3], auto_qp;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		init_driver(&q[i], RESTRACK_QP, "irdma");
		TEST_CHECK_EQ(restrack_claim(root, &q[i], i), 0);
		TEST_CHECK_EQ(restrack_add(root, &q[i]), 0);
		TEST_CHECK(lookup_is(root, RESTRACK_QP, i, &q[i]));
	}
	init_user(&auto_qp, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &auto_qp), 0);
	TEST_CHECK_EQ(restrack_id(&auto_qp), 3);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 4);
	for (i = 0; i < 3; i++)
		TEST_CHECK_EQ(restrack_del(&q[i]), 0);
	TEST_CHECK_EQ(restrack_del(&auto_qp), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* -EBUSY for an ID that is live, claimed or between begin_del and commit_del. */
static void
test_claim_busy(void)
{
	struct restrack_root *root = make_root("busy", RESTRACK_QP, 16, 3);
	struct restrack_entry live, claimed, deleting, x, saved;

	init_user(&live, RESTRACK_QP, &task_a);
	init_user(&claimed, RESTRACK_QP, &task_a);
	init_user(&deleting, RESTRACK_QP, &task_a);
	init_user(&x, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &live, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &live), 0);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, 6), 0);
	TEST_CHECK_EQ(restrack_claim(root, &deleting, 7), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleting), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting), 0);

	saved = x;
	TEST_CHECK_EQ(restrack_claim(root, &x, 5), -EBUSY);
	TEST_CHECK(entry_same(&x, &saved));
	TEST_CHECK_EQ(restrack_claim(root, &x, 6), -EBUSY);
	TEST_CHECK(entry_same(&x, &saved));
	TEST_CHECK_EQ(restrack_claim(root, &x, 7), -EBUSY);
	TEST_CHECK(entry_same(&x, &saved));
	TEST_CHECK_EQ(x.state, RESTRACK_STATE_NEW);

	/* nothing changed for the holders */
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, &live));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, NULL));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 7, NULL));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(claimed.state, RESTRACK_STATE_CLAIMED);
	TEST_CHECK_EQ(deleting.state, RESTRACK_STATE_DELETING);

	/* x is still usable at a free ID */
	TEST_CHECK_EQ(restrack_claim(root, &x, 8), 0);
	TEST_CHECK_EQ(restrack_add(root, &x), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 8, &x));

	TEST_CHECK_EQ(restrack_add(root, &claimed), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, &claimed));
	TEST_CHECK_EQ(restrack_commit_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_del(&live), 0);
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_del(&x), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/*
 * The kernel's untracked-QP window, replayed: QPN N is being destroyed (begin_del), the
 * driver reuses N for a new QP before commit_del. Here the insert fails loudly instead of
 * leaving the new QP silently untracked, and succeeds after commit_del.
 */
static void
test_claim_busy_closes_untracked_qp_window(void)
{
	struct restrack_root *root = make_root("window", RESTRACK_QP, 1u << 18, 3);
	struct restrack_entry old_qp, new_qp, other;
	const uint32_t qpn = 1000;

	/* commit path */
	init_user(&old_qp, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &old_qp, qpn), 0);
	TEST_CHECK_EQ(restrack_add(root, &old_qp), 0);
	TEST_CHECK_EQ(restrack_begin_del(&old_qp), 0);
	init_user(&new_qp, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &new_qp, qpn), -EBUSY);
	TEST_CHECK_EQ(new_qp.state, RESTRACK_STATE_NEW);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, qpn, NULL));
	TEST_CHECK_EQ(restrack_commit_del(&old_qp), 0);
	TEST_CHECK_EQ(restrack_claim(root, &new_qp, qpn), 0);
	TEST_CHECK_EQ(restrack_add(root, &new_qp), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, qpn, &new_qp));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_del(&new_qp), 0);

	/* abort path: the restored ID was never handed to anyone else */
	init_user(&old_qp, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &old_qp, qpn), 0);
	TEST_CHECK_EQ(restrack_add(root, &old_qp), 0);
	TEST_CHECK_EQ(restrack_begin_del(&old_qp), 0);
	init_user(&new_qp, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &new_qp, qpn), -EBUSY);
	init_user(&other, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_add(root, &other), 0);
	TEST_CHECK(restrack_id(&other) != qpn);
	TEST_CHECK_EQ(restrack_abort_del(&old_qp), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, qpn, &old_qp));
	TEST_CHECK_EQ(restrack_claim(root, &new_qp, qpn), -EBUSY);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 2);
	TEST_CHECK_EQ(restrack_del(&old_qp), 0);
	TEST_CHECK_EQ(restrack_del(&other), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_claim_out_of_range(void)
{
	struct restrack_root *root = make_root("range", RESTRACK_QP, 8, 3);
	struct restrack_entry x, saved;

	init_user(&x, RESTRACK_QP, &task_a);
	saved = x;
	TEST_CHECK_EQ(restrack_claim(root, &x, 8), -ERANGE);
	TEST_CHECK_EQ(restrack_claim(root, &x, 1000), -ERANGE);
	TEST_CHECK_EQ(restrack_claim(root, &x, RESTRACK_MAX_IDS), -ERANGE);
	TEST_CHECK_EQ(restrack_claim(root, &x, RESTRACK_ID_ANY - 1), -ERANGE);
	TEST_CHECK(entry_same(&x, &saved));
	/* every other type still has its default space */
	init_user(&x, RESTRACK_CQ, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &x, RESTRACK_DEFAULT_IDS), -ERANGE);
	TEST_CHECK_EQ(restrack_claim(root, &x, 8), 0);
	TEST_CHECK_EQ(restrack_del(&x), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_claim_bad_args(void)
{
	struct restrack_root *root = make_root("claimbad", RESTRACK_QP, 16, 3);
	struct restrack_root *other = make_root("other", RESTRACK_QP, 16, 3);
	struct restrack_entry e, live, nt, saved;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(NULL, &e, 5), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(NULL, &e, RESTRACK_ID_ANY), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(root, NULL, 5), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(root, NULL, RESTRACK_ID_ANY), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);

	/* claiming twice */
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	saved = e;
	TEST_CHECK_EQ(restrack_claim(root, &e, 6), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(root, &e, RESTRACK_ID_ANY), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(other, &e, 6), -EINVAL);
	TEST_CHECK(entry_same(&e, &saved));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, NULL));

	/* claiming a live entry */
	init_user(&live, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &live), 0);
	saved = live;
	TEST_CHECK_EQ(restrack_claim(root, &live, 9), -EINVAL);
	TEST_CHECK(entry_same(&live, &saved));

	/* an untracked entry gets no ID */
	init_user(&nt, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_no_track(&nt), 0);
	TEST_CHECK(restrack_claim(root, &nt, 10) < 0);
	TEST_CHECK_EQ(restrack_claim(root, &saved, 10), -EINVAL); /* copy of a live entry */
	{
		struct restrack_entry probe;

		init_user(&probe, RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_claim(root, &probe, 10), 0);
		TEST_CHECK_EQ(restrack_del(&probe), 0);
	}

	/* add in another root than the claim's */
	TEST_CHECK_EQ(restrack_add(other, &e), -EINVAL);
	TEST_CHECK_EQ(restrack_count(other, RESTRACK_QP, NULL), 0);
	TEST_CHECK(lookup_is(other, RESTRACK_QP, 5, NULL));
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, &e));

	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&live), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
	TEST_CHECK_EQ(restrack_clean(other), 0);
}

/* A create that fails after restrack_claim(): restrack_del releases the ID. */
static void
test_claim_then_del_releases_id(void)
{
	struct restrack_root *root = make_root("release", RESTRACK_QP, 16, 3);
	struct restrack_entry a, b;

	init_user(&a, RESTRACK_QP, &task_a);
	init_user(&b, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &a, 9), 0);
	TEST_CHECK_EQ(restrack_claim(root, &b, 9), -EBUSY);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(a.state, RESTRACK_STATE_DELETED);
	TEST_CHECK_EQ(restrack_del(&a), -EINVAL);
	TEST_CHECK_EQ(restrack_claim(root, &b, 9), 0);
	TEST_CHECK_EQ(restrack_add(root, &b), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 9, &b));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	/* an auto claim released the same way */
	TEST_CHECK_EQ(restrack_claim(root, &a, RESTRACK_ID_ANY), 0);
	TEST_CHECK(restrack_id(&a) >= 3 && restrack_id(&a) < 16 && restrack_id(&a) != 9);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_del(&b), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_add_double(void)
{
	struct restrack_root *root = make_root("dbl", RESTRACK_QP, 16, 3);
	struct restrack_entry e, saved;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	saved = e;
	TEST_CHECK_EQ(restrack_add(root, &e), -EINVAL);
	TEST_CHECK(entry_same(&e, &saved));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&e), &e));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	/* the birth reference was not duplicated: no extra reference to put */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* deleting: add is refused as well */
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETING);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_add_bad_args(void)
{
	struct restrack_root *root = make_root("addbad", RESTRACK_QP, 16, 3);
	struct restrack_entry e;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(NULL, &e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);
	TEST_CHECK_EQ(restrack_add(root, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_add_after_del(void)
{
	struct restrack_root *root = make_root("readd", RESTRACK_QP, 16, 3);
	struct restrack_entry e;
	uint32_t first;

	init_driver(&e, RESTRACK_QP, "first");
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	first = restrack_id(&e);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETED);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, first, NULL));
	/* a deleted entry is no longer tracked: its owner may change */
	TEST_CHECK_EQ(restrack_set_name(&e, "second"), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK_EQ(restrack_id(&e), first + 1);	/* cyclic */
	TEST_CHECK(lookup_is(root, RESTRACK_QP, first + 1, &e));
	TEST_CHECK(strcmp(e.name, "second") == 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	/* again at an explicit ID, the one used first */
	TEST_CHECK_EQ(restrack_claim(root, &e, first), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, first, &e));
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* get / put / get_byid                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void
test_get_put_balance(void)
{
	struct restrack_root *root = make_root("refs", RESTRACK_QP, 16, 3);
	struct restrack_entry e;
	struct restrack_entry *out;
	int i;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	for (i = 0; i < 3; i++)
		TEST_CHECK_EQ(restrack_get(&e), 0);
	for (i = 0; i < 2; i++) {
		out = NULL;
		TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, restrack_id(&e), &out), 0);
		TEST_CHECK(out == &e);
	}
	for (i = 0; i < 5; i++)
		TEST_CHECK_EQ(restrack_put(&e), 0);
	/* balanced: only the birth reference is left, which put does not drop */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* begin_del returns: no reference is outstanding (the watchdog catches a hang) */
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_refcnt(void)
{
	struct restrack_root *root = make_root("refcnt", RESTRACK_QP, 16, 3);
	struct restrack_entry e, c;
	struct restrack_entry *out = NULL;

	TEST_CHECK_EQ(restrack_refcnt(NULL), -EINVAL);
	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_refcnt(&e), -EINVAL);		/* new: no record */
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);			/* birth reference */
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 2);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, restrack_id(&e), &out), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 3);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(out), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);	/* the bad put changed nothing */
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	/* the birth reference is dropped and readers are drained */
	TEST_CHECK_EQ(restrack_refcnt(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);	/* a fresh birth reference */
	TEST_CHECK_EQ(restrack_sync(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), -EINVAL);		/* deleted: no record */
	/* a claimed entry has a record but no reference yet */
	init_user(&c, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &c, 9), 0);
	TEST_CHECK(restrack_refcnt(&c) >= 0);
	TEST_CHECK_EQ(restrack_del(&c), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_get_fails_unless_live(void)
{
	struct restrack_root *root = make_root("getfail", RESTRACK_QP, 16, 3);
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_get(NULL), -EINVAL);
	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);		/* new */
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);		/* claimed */
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);		/* deleting */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK_EQ(restrack_get(&e), 0);			/* live again */
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);		/* deleted */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_put_without_reference(void)
{
	struct restrack_root *root = make_root("putbad", RESTRACK_QP, 16, 3);
	struct restrack_entry e, other;

	TEST_CHECK_EQ(restrack_put(NULL), -EINVAL);
	init_user(&e, RESTRACK_QP, &task_a);
	init_user(&other, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);		/* new */
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_add(root, &other), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);		/* birth reference only */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* the bad puts changed nothing */
	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&e), &e));
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* a reference on another entry does not make a put on this one valid */
	TEST_CHECK_EQ(restrack_get(&other), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&other), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 2);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&other), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_get_byid_finds_exact_entry(void)
{
	struct restrack_root *root = make_root("byid", RESTRACK_QP, 64, 3);
	struct restrack_entry qp[3], cq, pd;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		init_user(&qp[i], RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_claim(root, &qp[i], 10 + i), 0);
		TEST_CHECK_EQ(restrack_add(root, &qp[i]), 0);
	}
	/* the same ID in other types is another object */
	init_user(&cq, RESTRACK_CQ, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &cq, 11), 0);
	TEST_CHECK_EQ(restrack_add(root, &cq), 0);
	init_user(&pd, RESTRACK_PD, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &pd, 11), 0);
	TEST_CHECK_EQ(restrack_add(root, &pd), 0);

	for (i = 0; i < 3; i++)
		TEST_CHECK(lookup_is(root, RESTRACK_QP, 10 + i, &qp[i]));
	TEST_CHECK(lookup_is(root, RESTRACK_CQ, 11, &cq));
	TEST_CHECK(lookup_is(root, RESTRACK_PD, 11, &pd));
	TEST_CHECK(lookup_is(root, RESTRACK_CQ, 10, NULL));
	TEST_CHECK(lookup_is(root, RESTRACK_MR, 11, NULL));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 9, NULL));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 13, NULL));

	for (i = 0; i < 3; i++)
		TEST_CHECK_EQ(restrack_del(&qp[i]), 0);
	TEST_CHECK_EQ(restrack_del(&cq), 0);
	TEST_CHECK_EQ(restrack_del(&pd), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_get_byid_not_found(void)
{
	struct restrack_root *root = make_root("byidnf", RESTRACK_QP, 16, 3);
	struct restrack_entry claimed, deleting, deleted;
	struct restrack_entry *out;

	init_user(&claimed, RESTRACK_QP, &task_a);
	init_user(&deleting, RESTRACK_QP, &task_a);
	init_user(&deleted, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, 4), 0);
	TEST_CHECK_EQ(restrack_claim(root, &deleting, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleting), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_claim(root, &deleted, 6), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleted), 0);
	TEST_CHECK_EQ(restrack_del(&deleted), 0);

	out = (struct restrack_entry *)&out;	/* poison */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 0, &out), -ENOENT);	/* reserved */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 3, &out), -ENOENT);	/* free */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 4, &out), -ENOENT);	/* claimed */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 5, &out), -ENOENT);	/* deleting */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 6, &out), -ENOENT);	/* deleted */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 15, &out), -ENOENT);
	TEST_CHECK_EQ(restrack_commit_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_get_byid_bad_args(void)
{
	struct restrack_root *root = make_root("byidbad", RESTRACK_QP, 16, 3);
	struct restrack_entry e;
	struct restrack_entry *out = NULL;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 7), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);

	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 16, &out), -ERANGE);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, RESTRACK_MAX_IDS, &out), -ERANGE);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, RESTRACK_ID_ANY, &out), -ERANGE);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_CQ, RESTRACK_DEFAULT_IDS, &out), -ERANGE);
	TEST_CHECK_EQ(restrack_get_byid(NULL, RESTRACK_QP, 7, &out), -EINVAL);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_MAX, 7, &out), -EINVAL);
	TEST_CHECK_EQ(restrack_get_byid(root, (enum restrack_type)99, 7, &out), -EINVAL);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 7, NULL), -EINVAL);
	TEST_CHECK(out == NULL);

	/* no reference leaked by the failed calls */
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 7, &e));
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* begin_del / commit_del / abort_del / del                                                 */
/* ---------------------------------------------------------------------------------------- */

static void
test_begin_del_hides_and_keeps_id(void)
{
	struct restrack_root *root = make_root("hide", RESTRACK_QP, 8, 3);
	struct restrack_entry e, other, x;

	init_user(&e, RESTRACK_QP, &task_a);
	init_user(&other, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_add(root, &other), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 2);

	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETING);
	TEST_CHECK_EQ(restrack_id(&e), 5);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, NULL));
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&other), &other));
	init_user(&x, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &x, 5), -EBUSY);

	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&other), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_commit_del_frees_id(void)
{
	struct restrack_root *root = make_root("commit", RESTRACK_QP, 8, 3);
	struct restrack_entry e, x;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETED);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, NULL));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	init_user(&x, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &x, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &x), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, &x));
	TEST_CHECK_EQ(restrack_del(&x), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_abort_del_restores(void)
{
	struct restrack_root *root = make_root("abort", RESTRACK_QP, 8, 3);
	struct restrack_entry e;
	struct restrack_entry *out = NULL;

	init_driver(&e, RESTRACK_QP, "irdma");
	TEST_CHECK_EQ(restrack_claim(root, &e, 6), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK_EQ(restrack_id(&e), 6);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, 6, &out), 0);
	TEST_CHECK(out == &e);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	/* exactly one fresh birth reference: no extra one to put */
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* and the cycle can be repeated */
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, &e));
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 6, NULL));
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_del_sequence_errors(void)
{
	struct restrack_root *root = make_root("seq", RESTRACK_QP, 16, 3);
	struct restrack_entry e, n, c;

	TEST_CHECK_EQ(restrack_del(NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_begin_del(NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_commit_del(NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_abort_del(NULL), -EINVAL);

	/* del / begin_del of an untracked (new) entry */
	init_user(&n, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_del(&n), -EINVAL);
	TEST_CHECK_EQ(restrack_begin_del(&n), -EINVAL);
	TEST_CHECK_EQ(n.state, RESTRACK_STATE_NEW);

	/* begin_del, commit_del, abort_del of a claimed entry */
	init_user(&c, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &c, 9), 0);
	TEST_CHECK_EQ(restrack_begin_del(&c), -EINVAL);
	TEST_CHECK_EQ(restrack_commit_del(&c), -EINVAL);
	TEST_CHECK_EQ(restrack_abort_del(&c), -EINVAL);
	TEST_CHECK_EQ(c.state, RESTRACK_STATE_CLAIMED);

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	/* commit / abort without begin */
	TEST_CHECK_EQ(restrack_commit_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_abort_del(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, &e));
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	/* double begin */
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETING);
	/* commit, then abort after commit and double commit */
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_commit_del(&e), -EINVAL);
	TEST_CHECK_EQ(restrack_begin_del(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETED);
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 5, NULL));
	/* double abort */
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK_EQ(restrack_abort_del(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	/* double del */
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_del(&e), -EINVAL);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETED);

	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_del(&c), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* begin_del waits until readers on other threads have dropped their references. */
static void
test_begin_del_waits_for_readers(void)
{
	struct restrack_root *root = make_root("wait", RESTRACK_QP, 16, 3);
	struct restrack_entry e;
	struct reader r[2];
	unsigned int i;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 8), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	for (i = 0; i < 2; i++)	/* one by ID, one by restrack_get */
		TEST_CHECK(reader_start(&r[i], root, RESTRACK_QP, 8, i == 1 ? &e : NULL,
					50 + 30 * i));
	TEST_CHECK_EQ(restrack_refcnt(&e), 3);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	/* begin_del can only have returned after both readers started their put */
	for (i = 0; i < 2; i++)
		TEST_CHECK_EQ(atomic_load(&r[i].putting), 1);
	for (i = 0; i < 2; i++) {
		pthread_join(r[i].thread, NULL);
		TEST_CHECK_EQ(r[i].get_rc, 0);
		TEST_CHECK(r[i].found == &e);
		TEST_CHECK_EQ(r[i].put_rc, 0);
	}
	TEST_CHECK(lookup_is(root, RESTRACK_QP, 8, NULL));
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* restrack_del (one step) waits the same way. */
static void
test_del_waits_for_reader(void)
{
	struct restrack_root *root = make_root("delwait", RESTRACK_QP, 16, 3);
	struct restrack_entry e;
	struct reader r;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(reader_start(&r, root, RESTRACK_QP, restrack_id(&e), NULL, 50));
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(atomic_load(&r.putting), 1);
	pthread_join(r.thread, NULL);
	TEST_CHECK_EQ(r.put_rc, 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* A thread running restrack_begin_del() or restrack_sync(), which may block. */
struct blocker {
	struct restrack_entry *entry;
	int (*op)(struct restrack_entry *entry);
	int rc;
	atomic_int done;
	pthread_t thread;
};

static void *
blocker_main(void *arg)
{
	struct blocker *b = arg;

	b->rc = b->op(b->entry);
	atomic_store(&b->done, 1);
	return NULL;
}

/* Run @p op on @p e in a thread of its own (false when the thread did not start). */
static bool
blocker_start(struct blocker *b, struct restrack_entry *e, int (*op)(struct restrack_entry *))
{
	memset(b, 0, sizeof(*b));
	b->entry = e;
	b->op = op;
	atomic_init(&b->done, 0);
	return pthread_create(&b->thread, NULL, blocker_main, b) == 0;
}

/* Release reader @p r (held until released), wait for it and for @p b: both succeeded. */
static void
release_both(struct reader *r, struct blocker *b)
{
	atomic_store(&r->release, 1);
	pthread_join(r->thread, NULL);
	pthread_join(b->thread, NULL);
	TEST_CHECK_EQ(r->put_rc, 0);
	TEST_CHECK_EQ(b->rc, 0);
}

/*
 * Wait (bounded) until get_byid stops finding @p e, i.e. the blocked operation has hidden it.
 * Returns false when it never became hidden.
 */
static bool
wait_hidden(struct restrack_root *root, enum restrack_type type, uint32_t id,
	    struct restrack_entry *e)
{
	unsigned int i;

	for (i = 0; i < 5000; i++) {
		struct restrack_entry *out = NULL;
		int rc = restrack_get_byid(root, type, id, &out);

		if (rc == -ENOENT)
			return true;
		if (rc != 0 || out != e)
			return false;
		restrack_put(out);
		sleep_ms(1);
	}
	return false;
}

/*
 * While begin_del waits for a reader, the entry is already hidden: get and get_byid fail,
 * it is not counted or walked, and its ID is still reserved. begin_del returns only after the
 * reader's put.
 */
static void
test_begin_del_hides_while_waiting(void)
{
	struct restrack_root *root = make_root("hidewait", RESTRACK_QP, 16, 3);
	struct restrack_entry e, x;
	struct reader r;
	struct blocker b;
	struct walk w;

	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 9), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(reader_start(&r, root, RESTRACK_QP, 9, NULL, 0));	/* until released */
	TEST_CHECK(blocker_start(&b, &e, restrack_begin_del));
	TEST_CHECK(wait_hidden(root, RESTRACK_QP, 9, &e));
	TEST_CHECK_EQ(atomic_load(&b.done), 0);	/* the reader still holds its reference */
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(root, RESTRACK_QP, NULL, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 0);
	init_user(&x, RESTRACK_QP, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &x, 9), -EBUSY);
	TEST_CHECK_EQ(atomic_load(&b.done), 0);

	release_both(&r, &b);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETING);
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_claim(root, &x, 9), 0);
	TEST_CHECK_EQ(restrack_del(&x), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* sync                                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void
test_sync_live_entry_stays_visible(void)
{
	struct restrack_root *root = make_root("sync", RESTRACK_MR, 16, 1);
	struct restrack_entry e;

	init_user(&e, RESTRACK_MR, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_sync(&e), 0);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK(lookup_is(root, RESTRACK_MR, restrack_id(&e), &e));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_MR, NULL), 1);
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);	/* still exactly one birth reference */
	TEST_CHECK_EQ(restrack_sync(&e), 0);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_sync_waits_for_reader(void)
{
	struct restrack_root *root = make_root("syncwait", RESTRACK_MR, 16, 1);
	struct restrack_entry e;
	struct reader r;

	init_user(&e, RESTRACK_MR, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(reader_start(&r, NULL, RESTRACK_MR, 0, &e, 50));
	TEST_CHECK_EQ(restrack_sync(&e), 0);
	TEST_CHECK_EQ(atomic_load(&r.putting), 1);
	pthread_join(r.thread, NULL);
	TEST_CHECK_EQ(r.put_rc, 0);
	TEST_CHECK(lookup_is(root, RESTRACK_MR, restrack_id(&e), &e));
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* While sync waits for a reader the entry is hidden; afterwards it is visible again. */
static void
test_sync_hides_while_waiting(void)
{
	struct restrack_root *root = make_root("synchide", RESTRACK_MR, 16, 1);
	struct restrack_entry e, x;
	struct reader r;
	struct blocker b;

	init_user(&e, RESTRACK_MR, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &e, 5), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK(reader_start(&r, root, RESTRACK_MR, 5, NULL, 0));
	TEST_CHECK(blocker_start(&b, &e, restrack_sync));
	TEST_CHECK(wait_hidden(root, RESTRACK_MR, 5, &e));
	TEST_CHECK_EQ(atomic_load(&b.done), 0);
	TEST_CHECK_EQ(restrack_get(&e), -ENOENT);
	init_user(&x, RESTRACK_MR, &task_b);
	TEST_CHECK_EQ(restrack_claim(root, &x, 5), -EBUSY);

	release_both(&r, &b);
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_LIVE);
	TEST_CHECK(lookup_is(root, RESTRACK_MR, 5, &e));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_MR, NULL), 1);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_sync_not_live(void)
{
	struct restrack_root *root = make_root("syncbad", RESTRACK_MR, 16, 1);
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_sync(NULL), -EINVAL);
	init_user(&e, RESTRACK_MR, &task_a);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);		/* new */
	TEST_CHECK_EQ(restrack_claim(root, &e, 3), 0);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);		/* claimed */
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_CLAIMED);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);		/* deleting */
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_DELETING);
	TEST_CHECK(lookup_is(root, RESTRACK_MR, 3, NULL));
	TEST_CHECK_EQ(restrack_commit_del(&e), 0);
	TEST_CHECK_EQ(restrack_sync(&e), -EINVAL);		/* deleted */
	TEST_CHECK(lookup_is(root, RESTRACK_MR, 3, NULL));
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* count and filters                                                                        */
/* ---------------------------------------------------------------------------------------- */

struct filter_fixture {
	struct restrack_root *root;
	struct restrack_entry u1, u2, u3, d1, d2, d3;	/* QPs: 3 user, 3 driver */
	struct restrack_entry cq;			/* one user CQ */
};

static void
filter_fixture_setup(struct filter_fixture *f)
{
	f->root = make_root("filt", RESTRACK_QP, 64, 3);
	init_user(&f->u1, RESTRACK_QP, &task_a);
	init_user(&f->u2, RESTRACK_QP, &task_a);
	init_user(&f->u3, RESTRACK_QP, &task_b);
	init_driver(&f->d1, RESTRACK_QP, "irdma");
	init_driver(&f->d2, RESTRACK_QP, "irdma");
	init_driver(&f->d3, RESTRACK_QP, "other");
	init_user(&f->cq, RESTRACK_CQ, &task_a);
	/* IDs out of creation order, to check ID-ordered walks */
	TEST_CHECK_EQ(restrack_claim(f->root, &f->u1, 20), 0);
	TEST_CHECK_EQ(restrack_claim(f->root, &f->d1, 4), 0);
	TEST_CHECK_EQ(restrack_claim(f->root, &f->u2, 11), 0);
	TEST_CHECK_EQ(restrack_claim(f->root, &f->d2, 30), 0);
	TEST_CHECK_EQ(restrack_claim(f->root, &f->u3, 7), 0);
	TEST_CHECK_EQ(restrack_claim(f->root, &f->d3, 1), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->u1), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->d1), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->u2), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->d2), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->u3), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->d3), 0);
	TEST_CHECK_EQ(restrack_add(f->root, &f->cq), 0);
}

static void
filter_fixture_teardown(struct filter_fixture *f)
{
	TEST_CHECK_EQ(restrack_del(&f->u1), 0);
	TEST_CHECK_EQ(restrack_del(&f->u2), 0);
	TEST_CHECK_EQ(restrack_del(&f->u3), 0);
	TEST_CHECK_EQ(restrack_del(&f->d1), 0);
	TEST_CHECK_EQ(restrack_del(&f->d2), 0);
	TEST_CHECK_EQ(restrack_del(&f->d3), 0);
	TEST_CHECK_EQ(restrack_del(&f->cq), 0);
	TEST_CHECK_EQ(restrack_clean(f->root), 0);
}

static void
test_count_per_type(void)
{
	struct restrack_root *root = make_root("cnt", RESTRACK_QP, 64, 3);
	struct restrack_entry e[RESTRACK_MAX][3];
	unsigned int t, i;

	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(restrack_count(root, (enum restrack_type)t, NULL), 0);
	for (t = 0; t < RESTRACK_MAX; t++)
		for (i = 0; i < t % 4; i++) {
			init_user(&e[t][i], (enum restrack_type)t, &task_a);
			TEST_CHECK_EQ(restrack_add(root, &e[t][i]), 0);
		}
	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(restrack_count(root, (enum restrack_type)t, NULL), t % 4);
	for (t = 0; t < RESTRACK_MAX; t++)
		for (i = 0; i < t % 4; i++)
			TEST_CHECK_EQ(restrack_del(&e[t][i]), 0);
	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(restrack_count(root, (enum restrack_type)t, NULL), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_count_filters(void)
{
	struct filter_fixture f;
	struct restrack_filter flt;

	filter_fixture_setup(&f);
	memset(&flt, 0, sizeof(flt));
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, NULL), 6);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 6);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_CQ, NULL), 1);

	flt.pid = task_a.pid;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 2);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_CQ, &flt), 1);
	flt.pid = task_b.pid;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 1);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_CQ, &flt), 0);
	flt.pid = 999999;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 0);

	memset(&flt, 0, sizeof(flt));
	flt.name = "irdma";
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 2);
	flt.name = "other";
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 1);
	flt.name = "app_a";	/* a user's comm is not a driver name */
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 0);
	flt.name = "nope";
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 0);

	memset(&flt, 0, sizeof(flt));
	flt.driver_only = true;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 3);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_CQ, &flt), 0);
	flt.name = "irdma";
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 2);

	memset(&flt, 0, sizeof(flt));
	flt.user_only = true;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 3);
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_CQ, &flt), 1);
	flt.pid = task_a.pid;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 2);

	/* driver objects have no owner pid */
	memset(&flt, 0, sizeof(flt));
	flt.driver_only = true;
	flt.pid = task_a.pid;
	TEST_CHECK_EQ(restrack_count(f.root, RESTRACK_QP, &flt), 0);

	filter_fixture_teardown(&f);
}

/* Claimed, deleting and untracked entries are not counted. */
static void
test_count_only_live_tracked(void)
{
	struct restrack_root *root = make_root("cntlive", RESTRACK_QP, 64, 3);
	struct restrack_entry live, claimed, deleting, nt;

	init_user(&live, RESTRACK_QP, &task_a);
	init_user(&claimed, RESTRACK_QP, &task_a);
	init_user(&deleting, RESTRACK_QP, &task_a);
	init_user(&nt, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &live), 0);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, RESTRACK_ID_ANY), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleting), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_no_track(&nt), 0);
	TEST_CHECK_EQ(restrack_add(root, &nt), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_abort_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_add(root, &claimed), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 3);
	TEST_CHECK_EQ(restrack_del(&live), 0);
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_del(&nt), 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_count_bad_args(void)
{
	struct restrack_root *root = make_root("cntbad", RESTRACK_QP, 64, 3);
	struct restrack_filter flt;

	memset(&flt, 0, sizeof(flt));
	TEST_CHECK_EQ(restrack_count(NULL, RESTRACK_QP, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_count(NULL, RESTRACK_QP, &flt), -EINVAL);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_MAX, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_count(root, (enum restrack_type)99, &flt), -EINVAL);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* no_track, is_tracked                                                                     */
/* ---------------------------------------------------------------------------------------- */

static void
test_no_track_entry(void)
{
	struct restrack_root *root = make_root("notrack", RESTRACK_QP, 8, 3);
	struct restrack_entry nt, e;
	struct restrack_entry *out;
	uint32_t id;

	init_user(&nt, RESTRACK_QP, &task_a);
	TEST_CHECK(restrack_is_tracked(&nt));
	TEST_CHECK_EQ(restrack_no_track(&nt), 0);
	TEST_CHECK(!restrack_is_tracked(&nt));
	TEST_CHECK_EQ(restrack_add(root, &nt), 0);
	TEST_CHECK(!restrack_is_tracked(&nt));
	/* valid and reference counted */
	TEST_CHECK_EQ(restrack_get(&nt), 0);
	TEST_CHECK_EQ(restrack_get(&nt), 0);
	TEST_CHECK_EQ(restrack_put(&nt), 0);
	TEST_CHECK_EQ(restrack_put(&nt), 0);
	TEST_CHECK_EQ(restrack_put(&nt), -EINVAL);
	/* but not in the table: no ID taken, not found, not counted */
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	for (id = 0; id < 8; id++) {
		out = NULL;
		if (restrack_get_byid(root, RESTRACK_QP, id, &out) == 0) {
			TEST_CHECK(out != &nt);
			restrack_put(out);
		}
	}
	init_user(&e, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_id(&e), 3);		/* the untracked entry took no ID */
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	/* deletion of an untracked entry: drop the birth reference */
	TEST_CHECK_EQ(restrack_del(&nt), 0);
	TEST_CHECK_EQ(restrack_get(&nt), -ENOENT);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_no_track_bad_args(void)
{
	struct restrack_root *root = make_root("ntbad", RESTRACK_QP, 8, 3);
	struct restrack_entry claimed, live;

	TEST_CHECK_EQ(restrack_no_track(NULL), -EINVAL);
	init_user(&claimed, RESTRACK_QP, &task_a);
	init_user(&live, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, 4), 0);
	TEST_CHECK_EQ(restrack_no_track(&claimed), -EBUSY);
	TEST_CHECK(restrack_is_tracked(&claimed));
	TEST_CHECK_EQ(restrack_add(root, &live), 0);
	TEST_CHECK_EQ(restrack_no_track(&live), -EBUSY);
	TEST_CHECK(restrack_is_tracked(&live));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&live), &live));
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 1);
	TEST_CHECK(!restrack_is_tracked(NULL));
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_del(&live), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* owners: set_name, attach_task, parent_name, is_driver_res                                */
/* ---------------------------------------------------------------------------------------- */

static void
test_set_name_driver_owned(void)
{
	struct restrack_entry e;
	char name[RESTRACK_NAME_LEN];

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_PD), 0);
	strcpy(name, "irdma_drv");
	TEST_CHECK_EQ(restrack_set_name(&e, name), 0);
	memset(name, 'Z', sizeof(name) - 1);		/* the name was copied */
	TEST_CHECK(restrack_is_driver_res(&e));
	TEST_CHECK(e.driver_res);
	TEST_CHECK(strcmp(e.name, "irdma_drv") == 0);
	/* renaming before add is allowed */
	TEST_CHECK_EQ(restrack_set_name(&e, "renamed"), 0);
	TEST_CHECK(strcmp(e.name, "renamed") == 0);
}

/* A name longer than RESTRACK_NAME_LEN - 1: truncated (or refused), never overflowing. */
static void
test_set_name_long(void)
{
	struct restrack_entry e;
	char longname[RESTRACK_NAME_LEN * 2];
	int rc;

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_PD), 0);
	TEST_CHECK_EQ(restrack_set_name(&e, "short"), 0);
	rc = restrack_set_name(&e, longname);
	TEST_CHECK(rc == 0 || rc == -EINVAL);
	TEST_CHECK(memchr(e.name, '\0', sizeof(e.name)) != NULL);
	if (rc == 0)
		TEST_CHECK(strlen(e.name) == RESTRACK_NAME_LEN - 1 &&
			   strncmp(e.name, longname, RESTRACK_NAME_LEN - 1) == 0);
	else
		TEST_CHECK(strcmp(e.name, "short") == 0);
}

static void
test_set_name_null_is_current_task(void)
{
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_CQ), 0);
	TEST_CHECK_EQ(restrack_set_name(&e, "drv"), 0);
	TEST_CHECK_EQ(restrack_set_name(&e, NULL), 0);
	TEST_CHECK(!restrack_is_driver_res(&e));
	TEST_CHECK_EQ(e.task.pid, getpid());
	TEST_CHECK_EQ(e.task.tid, gettid());
	TEST_CHECK(e.task.comm[0] != '\0');
}

static void
test_attach_task_explicit(void)
{
	struct restrack_entry e;
	struct restrack_task t = task_b;

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_set_name(&e, "drv"), 0);
	TEST_CHECK(restrack_is_driver_res(&e));
	TEST_CHECK_EQ(restrack_attach_task(&e, &t), 0);
	memset(&t, 0, sizeof(t));			/* the task was copied */
	TEST_CHECK(!restrack_is_driver_res(&e));
	TEST_CHECK(!e.driver_res);
	TEST_CHECK_EQ(e.task.pid, task_b.pid);
	TEST_CHECK_EQ(e.task.tid, task_b.tid);
	TEST_CHECK_EQ(e.task.lcore, task_b.lcore);
	TEST_CHECK(strcmp(e.task.comm, "app_b") == 0);
	/* a comm without its NUL is terminated in the copy */
	memset(t.comm, 'c', sizeof(t.comm));
	t.pid = 77;
	TEST_CHECK_EQ(restrack_attach_task(&e, &t), 0);
	TEST_CHECK(memchr(e.task.comm, '\0', sizeof(e.task.comm)) != NULL);
	TEST_CHECK_EQ(e.task.pid, 77);
	/* and back to driver-owned */
	TEST_CHECK_EQ(restrack_set_name(&e, "drv2"), 0);
	TEST_CHECK(restrack_is_driver_res(&e));
	TEST_CHECK(strcmp(e.name, "drv2") == 0);
}

/* The process name as the kernel's comm: /proc/self/comm, truncated to 15 characters. */
static void
read_self_comm(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/comm", "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	strip_newline(buf);
}

static void
test_attach_task_current(void)
{
	struct restrack_entry e;
	char comm[64];

	read_self_comm(comm, sizeof(comm));
	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_attach_task(&e, NULL), 0);
	TEST_CHECK(!restrack_is_driver_res(&e));
	TEST_CHECK_EQ(e.task.pid, getpid());
	TEST_CHECK_EQ(e.task.tid, gettid());
	TEST_CHECK_EQ(e.task.lcore, RESTRACK_LCORE_NONE);	/* no EAL here */
	TEST_CHECK(e.task.comm[0] != '\0');
	TEST_CHECK(memchr(e.task.comm, '\0', sizeof(e.task.comm)) != NULL);
	TEST_CHECK(strcmp(e.task.comm, comm) == 0);
	if (strcmp(e.task.comm, comm) != 0) {
		diag("task comm", e.task.comm);
		diag("/proc/self/comm", comm);
	}
}

struct attach_thread_arg {
	struct restrack_entry *entry;
	pid_t tid;
	int rc;
};

static void *
attach_thread_main(void *p)
{
	struct attach_thread_arg *a = p;

	a->tid = gettid();
	a->rc = restrack_attach_task(a->entry, NULL);
	return NULL;
}

/* The task records the thread that created the object. */
static void
test_attach_task_other_thread(void)
{
	struct restrack_entry e;
	struct attach_thread_arg a;
	pthread_t th;

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_QP), 0);
	memset(&a, 0, sizeof(a));
	a.entry = &e;
	TEST_CHECK_EQ(pthread_create(&th, NULL, attach_thread_main, &a), 0);
	pthread_join(th, NULL);
	TEST_CHECK_EQ(a.rc, 0);
	TEST_CHECK_EQ(e.task.pid, getpid());
	TEST_CHECK_EQ(e.task.tid, a.tid);
	TEST_CHECK(e.task.tid != gettid());
	TEST_CHECK(e.task.comm[0] != '\0');
}

static void
test_parent_name(void)
{
	struct restrack_root *root = make_root("parent", RESTRACK_QP, 16, 3);
	struct restrack_entry dpd, upd, child;

	/* a driver parent passes on its name */
	init_driver(&dpd, RESTRACK_PD, "irdma_pd");
	TEST_CHECK_EQ(restrack_add(root, &dpd), 0);
	TEST_CHECK_EQ(restrack_new(&child, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_attach_task(&child, &task_b), 0);
	TEST_CHECK_EQ(restrack_parent_name(&child, &dpd), 0);
	TEST_CHECK(restrack_is_driver_res(&child));
	TEST_CHECK(strcmp(child.name, "irdma_pd") == 0);

	/* a user parent passes on its task, turning the child into a user object */
	init_user(&upd, RESTRACK_PD, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &upd), 0);
	TEST_CHECK_EQ(restrack_parent_name(&child, &upd), 0);
	TEST_CHECK(!restrack_is_driver_res(&child));
	TEST_CHECK_EQ(child.task.pid, task_a.pid);
	TEST_CHECK_EQ(child.task.tid, task_a.tid);
	TEST_CHECK_EQ(child.task.lcore, task_a.lcore);
	TEST_CHECK(strcmp(child.task.comm, "app_a") == 0);

	/* and back to the driver parent */
	TEST_CHECK_EQ(restrack_parent_name(&child, &dpd), 0);
	TEST_CHECK(restrack_is_driver_res(&child));
	TEST_CHECK(strcmp(child.name, "irdma_pd") == 0);

	/* the inherited owner shows in filters */
	TEST_CHECK_EQ(restrack_parent_name(&child, &upd), 0);
	TEST_CHECK_EQ(restrack_add(root, &child), 0);
	{
		struct restrack_filter flt;

		memset(&flt, 0, sizeof(flt));
		flt.pid = task_a.pid;
		TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, &flt), 1);
	}
	TEST_CHECK_EQ(restrack_del(&child), 0);
	TEST_CHECK_EQ(restrack_del(&dpd), 0);
	TEST_CHECK_EQ(restrack_del(&upd), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Owner fields are immutable while tracked. */
static void
test_owner_busy_after_add(void)
{
	struct restrack_root *root = make_root("ownbusy", RESTRACK_QP, 16, 3);
	struct restrack_entry drv, usr, parent, saved_drv, saved_usr;

	init_driver(&drv, RESTRACK_QP, "irdma");
	init_user(&usr, RESTRACK_QP, &task_a);
	init_user(&parent, RESTRACK_PD, &task_b);
	TEST_CHECK_EQ(restrack_add(root, &drv), 0);
	TEST_CHECK_EQ(restrack_add(root, &usr), 0);
	saved_drv = drv;
	saved_usr = usr;

	TEST_CHECK_EQ(restrack_set_name(&drv, "other"), -EBUSY);
	TEST_CHECK_EQ(restrack_set_name(&drv, NULL), -EBUSY);
	TEST_CHECK_EQ(restrack_attach_task(&drv, &task_b), -EBUSY);
	TEST_CHECK_EQ(restrack_attach_task(&drv, NULL), -EBUSY);
	TEST_CHECK_EQ(restrack_parent_name(&drv, &parent), -EBUSY);
	TEST_CHECK(entry_same(&drv, &saved_drv));
	TEST_CHECK(restrack_is_driver_res(&drv));

	TEST_CHECK_EQ(restrack_set_name(&usr, "other"), -EBUSY);
	TEST_CHECK_EQ(restrack_attach_task(&usr, &task_b), -EBUSY);
	TEST_CHECK_EQ(restrack_parent_name(&usr, &parent), -EBUSY);
	TEST_CHECK(entry_same(&usr, &saved_usr));
	TEST_CHECK(!restrack_is_driver_res(&usr));

	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&drv), &drv));
	TEST_CHECK(lookup_is(root, RESTRACK_QP, restrack_id(&usr), &usr));
	TEST_CHECK_EQ(restrack_del(&drv), 0);
	TEST_CHECK_EQ(restrack_del(&usr), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_owner_bad_args(void)
{
	struct restrack_entry e, p;

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_QP), 0);
	init_driver(&p, RESTRACK_PD, "irdma");
	TEST_CHECK_EQ(restrack_set_name(NULL, "x"), -EINVAL);
	TEST_CHECK_EQ(restrack_set_name(NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_attach_task(NULL, &task_a), -EINVAL);
	TEST_CHECK_EQ(restrack_attach_task(NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_parent_name(NULL, &p), -EINVAL);
	TEST_CHECK_EQ(restrack_parent_name(&e, NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_parent_name(NULL, NULL), -EINVAL);
	TEST_CHECK(!restrack_is_driver_res(NULL));
	TEST_CHECK_EQ(e.state, RESTRACK_STATE_NEW);
}

/* ---------------------------------------------------------------------------------------- */
/* foreach                                                                                  */
/* ---------------------------------------------------------------------------------------- */

static void
test_foreach_id_order(void)
{
	struct filter_fixture f;
	struct walk w;
	static const uint32_t want[] = { 1, 4, 7, 11, 20, 30 };
	unsigned int i;

	filter_fixture_setup(&f);
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, NULL, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 6);
	TEST_CHECK_EQ(w.bad, 0);
	for (i = 0; i < 6 && i < (unsigned int)w.n; i++)
		TEST_CHECK_EQ(w.ids[i], want[i]);
	TEST_CHECK(w.entries[0] == &f.d3 && w.entries[1] == &f.d1 && w.entries[2] == &f.u3 &&
		   w.entries[3] == &f.u2 && w.entries[4] == &f.u1 && w.entries[5] == &f.d2);
	/* the walk left no reference behind */
	TEST_CHECK_EQ(restrack_put(&f.u1), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&f.d2), -EINVAL);
	TEST_CHECK_EQ(restrack_refcnt(&f.u1), 1);
	TEST_CHECK_EQ(restrack_refcnt(&f.d3), 1);
	/* other types are separate */
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_CQ, NULL, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 1);
	TEST_CHECK(w.entries[0] == &f.cq);
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_SRQ, NULL, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 0);
	filter_fixture_teardown(&f);
}

static void
test_foreach_filter(void)
{
	struct filter_fixture f;
	struct restrack_filter flt;
	struct walk w;

	filter_fixture_setup(&f);
	memset(&flt, 0, sizeof(flt));
	flt.pid = task_a.pid;
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, &flt, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 2);
	TEST_CHECK(w.entries[0] == &f.u2 && w.entries[1] == &f.u1);

	memset(&flt, 0, sizeof(flt));
	flt.name = "irdma";
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, &flt, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 2);
	TEST_CHECK(w.entries[0] == &f.d1 && w.entries[1] == &f.d2);

	memset(&flt, 0, sizeof(flt));
	flt.driver_only = true;
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, &flt, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 3);
	TEST_CHECK(w.entries[0] == &f.d3 && w.entries[1] == &f.d1 && w.entries[2] == &f.d2);

	memset(&flt, 0, sizeof(flt));
	flt.user_only = true;
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, &flt, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 3);
	TEST_CHECK(w.entries[0] == &f.u3 && w.entries[1] == &f.u2 && w.entries[2] == &f.u1);
	TEST_CHECK_EQ(w.bad, 0);

	/* hidden entries are not visited */
	TEST_CHECK_EQ(restrack_begin_del(&f.u2), 0);
	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, &flt, walk_cb, &w), 0);
	TEST_CHECK_EQ(w.n, 2);
	TEST_CHECK(w.entries[0] == &f.u3 && w.entries[1] == &f.u1);
	TEST_CHECK_EQ(restrack_abort_del(&f.u2), 0);
	filter_fixture_teardown(&f);
}

static void
test_foreach_early_stop(void)
{
	struct filter_fixture f;
	struct walk w;

	filter_fixture_setup(&f);
	memset(&w, 0, sizeof(w));
	w.stop_at = 2;
	w.stop_value = 42;
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, NULL, walk_cb, &w), 42);
	TEST_CHECK_EQ(w.n, 2);
	memset(&w, 0, sizeof(w));
	w.stop_at = 1;
	w.stop_value = -EIO;
	TEST_CHECK_EQ(restrack_foreach(f.root, RESTRACK_QP, NULL, walk_cb, &w), -EIO);
	TEST_CHECK_EQ(w.n, 1);
	/* no reference left behind by the stopped walks */
	TEST_CHECK_EQ(restrack_put(&f.d3), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&f.d1), -EINVAL);
	filter_fixture_teardown(&f);
}

static void
test_foreach_bad_args(void)
{
	struct restrack_root *root = make_root("febad", RESTRACK_QP, 16, 3);
	struct walk w;

	memset(&w, 0, sizeof(w));
	TEST_CHECK_EQ(restrack_foreach(NULL, RESTRACK_QP, NULL, walk_cb, &w), -EINVAL);
	TEST_CHECK_EQ(restrack_foreach(root, RESTRACK_MAX, NULL, walk_cb, &w), -EINVAL);
	TEST_CHECK_EQ(restrack_foreach(root, (enum restrack_type)99, NULL, walk_cb, &w),
		      -EINVAL);
	TEST_CHECK_EQ(restrack_foreach(root, RESTRACK_QP, NULL, NULL, &w), -EINVAL);
	TEST_CHECK_EQ(w.n, 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* dump, fill, dump_attr, format, summary                                                   */
/* ---------------------------------------------------------------------------------------- */

#define DUMP_MAX 16

struct dump_out {
	int n;
	const struct restrack_entry *entries[DUMP_MAX];
	struct restrack_dump_rec recs[DUMP_MAX];
	char lines[DUMP_MAX][256];
	int lens[DUMP_MAX];
	const char *dev;	/* expected rec->dev */
	int bad;
	int stop_at;
	int stop_value;
};

static int
emit_collect(const struct restrack_dump_rec *rec, void *arg)
{
	struct dump_out *o = arg;

	if (rec->dev == NULL || o->dev == NULL || strcmp(rec->dev, o->dev) != 0)
		o->bad++;
	if (rec->entry == NULL || rec->entry->state != RESTRACK_STATE_LIVE ||
	    restrack_refcnt(rec->entry) < 2)		/* birth + the dump's reference */
		o->bad++;
	if (o->n < DUMP_MAX) {
		o->entries[o->n] = rec->entry;
		o->recs[o->n] = *rec;
		o->lens[o->n] = restrack_format(rec, o->lines[o->n], sizeof(o->lines[0]));
		if (o->lens[o->n] != (int)strlen(o->lines[o->n]))
			o->bad++;
		strip_newline(o->lines[o->n]);
	}
	o->n++;
	if (o->stop_at != 0 && o->n == o->stop_at)
		return o->stop_value;
	return 0;
}

struct fill_ctx {
	int calls;
	int bad;
	const char *dev;
	int fail_on_call;	/* return fail_value on this call (1-based), 0: never */
	int fail_value;
};

/* The irdma QP fill: iproute2's order lqpn, type, state, sq-psn, pdn; port 1. */
static int
fill_qp(struct restrack_dump_rec *rec, void *arg)
{
	struct fill_ctx *ctx = arg;

	ctx->calls++;
	if (rec->nb_attrs != 0 || rec->entry == NULL || rec->dev == NULL ||
	    strcmp(rec->dev, ctx->dev) != 0 || rec->entry->type != RESTRACK_QP)
		ctx->bad++;
	if (ctx->fail_on_call != 0 && ctx->calls == ctx->fail_on_call)
		return ctx->fail_value;
	rec->port = 1;
	if (restrack_dump_attr(rec, "lqpn", "%u", restrack_id(rec->entry)) != 0 ||
	    restrack_dump_attr(rec, "type", "%s", "RC") != 0 ||
	    restrack_dump_attr(rec, "state", "%s", "RTS") != 0 ||
	    restrack_dump_attr(rec, "sq-psn", "%u", 0u) != 0 ||
	    restrack_dump_attr(rec, "pdn", "%u", 3u) != 0)
		ctx->bad++;
	return 0;
}

static void
test_dump_fill_qp_lines(void)
{
	struct restrack_root *root = make_root("irdma0", RESTRACK_QP, 64, 3);
	struct restrack_entry uqp, dqp;
	struct fill_ctx ctx;
	struct dump_out o;
	char want[256];

	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = "irdma0";
	TEST_CHECK_EQ(restrack_set_fill(root, RESTRACK_QP, fill_qp, &ctx), 0);
	init_user(&uqp, RESTRACK_QP, &task_a);
	init_driver(&dqp, RESTRACK_QP, "irdma");
	TEST_CHECK_EQ(restrack_claim(root, &uqp, 5), 0);
	TEST_CHECK_EQ(restrack_claim(root, &dqp, 6), 0);
	TEST_CHECK_EQ(restrack_add(root, &uqp), 0);
	TEST_CHECK_EQ(restrack_add(root, &dqp), 0);

	memset(&o, 0, sizeof(o));
	o.dev = "irdma0";
	TEST_CHECK_EQ(restrack_dump(root, RESTRACK_QP, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(ctx.calls, 2);
	TEST_CHECK_EQ(ctx.bad, 0);
	TEST_CHECK_EQ(o.bad, 0);
	TEST_CHECK_EQ(o.n, 2);
	TEST_CHECK(o.entries[0] == &uqp && o.entries[1] == &dqp);
	TEST_CHECK_EQ(o.recs[0].port, 1);
	TEST_CHECK_EQ(o.recs[0].nb_attrs, 5);
	TEST_CHECK(o.recs[0].attrs[0].name != NULL && strcmp(o.recs[0].attrs[0].name, "lqpn") == 0);
	TEST_CHECK(strcmp(o.recs[0].attrs[0].value, "5") == 0);
	TEST_CHECK(o.recs[0].attrs[3].name != NULL &&
		   strcmp(o.recs[0].attrs[3].name, "sq-psn") == 0);

	TEST_CHECK(starts_with(o.lines[0],
			       "link irdma0/1 lqpn 5 type RC state RTS sq-psn 0 pdn 3"));
	snprintf(want, sizeof(want),
		 "link irdma0/1 lqpn 5 type RC state RTS sq-psn 0 pdn 3 pid %d comm app_a",
		 (int)task_a.pid);
	TEST_CHECK(strcmp(o.lines[0], want) == 0);
	if (strcmp(o.lines[0], want) != 0) {
		diag("got ", o.lines[0]);
		diag("want", want);
	}
	strcpy(want, "link irdma0/1 lqpn 6 type RC state RTS sq-psn 0 pdn 3 comm [irdma]");
	TEST_CHECK(strcmp(o.lines[1], want) == 0);
	if (strcmp(o.lines[1], want) != 0) {
		diag("got ", o.lines[1]);
		diag("want", want);
	}
	TEST_CHECK(strstr(o.lines[1], "pid") == NULL);

	/* the filled records left no reference behind */
	TEST_CHECK_EQ(restrack_put(&uqp), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&dqp), -EINVAL);
	TEST_CHECK_EQ(restrack_del(&uqp), 0);
	TEST_CHECK_EQ(restrack_del(&dqp), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Without a fill callback the ID shows under its iproute2 name. */
static void
test_dump_default_attrs(void)
{
	static const struct {
		enum restrack_type type;
		const char *attr;
	} cases[] = {
		{ RESTRACK_QP, "lqpn" },
		{ RESTRACK_CQ, "cqn" },
		{ RESTRACK_MR, "mrn" },
		{ RESTRACK_PD, "pdn" },
	};
	struct restrack_root *root = make_root("rt_def", RESTRACK_QP, 64, 3);
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct restrack_entry u, d;
		struct dump_out o;
		char want[128];

		init_user(&u, cases[i].type, &task_b);
		init_driver(&d, cases[i].type, "irdma");
		TEST_CHECK_EQ(restrack_claim(root, &u, 9), 0);
		TEST_CHECK_EQ(restrack_claim(root, &d, 12), 0);
		TEST_CHECK_EQ(restrack_add(root, &u), 0);
		TEST_CHECK_EQ(restrack_add(root, &d), 0);
		memset(&o, 0, sizeof(o));
		o.dev = "rt_def";
		TEST_CHECK_EQ(restrack_dump(root, cases[i].type, NULL, emit_collect, &o), 0);
		TEST_CHECK_EQ(o.n, 2);
		TEST_CHECK_EQ(o.bad, 0);
		TEST_CHECK_EQ(o.recs[0].nb_attrs, 1);
		TEST_CHECK(o.recs[0].attrs[0].name != NULL &&
			   strcmp(o.recs[0].attrs[0].name, cases[i].attr) == 0);
		TEST_CHECK(strcmp(o.recs[0].attrs[0].value, "9") == 0);
		TEST_CHECK(o.recs[1].attrs[0].name != NULL &&
			   strcmp(o.recs[1].attrs[0].name, cases[i].attr) == 0);
		TEST_CHECK(strcmp(o.recs[1].attrs[0].value, "12") == 0);
		TEST_CHECK_EQ(o.recs[0].port, 0);

		/* user: "... <attr> 9 pid 4321 comm app_b"; driver: "... <attr> 12 comm [irdma]" */
		snprintf(want, sizeof(want), " %s 9 pid %d comm app_b", cases[i].attr,
			 (int)task_b.pid);
		TEST_CHECK(ends_with(o.lines[0], want));
		snprintf(want, sizeof(want), " %s 12 comm [irdma]", cases[i].attr);
		TEST_CHECK(ends_with(o.lines[1], want));
		if (cases[i].type == RESTRACK_QP) {
			TEST_CHECK(starts_with(o.lines[0], "link rt_def/"));
		} else {
			snprintf(want, sizeof(want), "dev rt_def %s 9 pid %d comm app_b",
				 cases[i].attr, (int)task_b.pid);
			TEST_CHECK(strcmp(o.lines[0], want) == 0);
			snprintf(want, sizeof(want), "dev rt_def %s 12 comm [irdma]",
				 cases[i].attr);
			TEST_CHECK(strcmp(o.lines[1], want) == 0);
		}
		if (test_case_failures) {
			diag("line 0", o.lines[0]);
			diag("line 1", o.lines[1]);
		}
		TEST_CHECK_EQ(restrack_del(&u), 0);
		TEST_CHECK_EQ(restrack_del(&d), 0);
	}
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* A QP without a port prints "link DEV/-", as iproute2 does when no port is sent. */
static void
test_format_qp_without_port(void)
{
	struct restrack_entry e;
	struct restrack_dump_rec rec;
	char buf[256];
	char want[128];

	init_user(&e, RESTRACK_QP, &task_a);
	memset(&rec, 0, sizeof(rec));
	rec.entry = &e;
	rec.dev = "irdma0";
	rec.port = 0;
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "lqpn", "%u", 9u), 0);
	TEST_CHECK(restrack_format(&rec, buf, sizeof(buf)) > 0);
	strip_newline(buf);
	snprintf(want, sizeof(want), "link irdma0/- lqpn 9 pid %d comm app_a", (int)task_a.pid);
	TEST_CHECK(strcmp(buf, want) == 0);
	if (strcmp(buf, want) != 0)
		diag("got", buf);
}

/* restrack_format on a record built by hand; truncation as snprintf. */
static void
test_format_record(void)
{
	struct restrack_entry cq, qp;
	struct restrack_dump_rec rec;
	char buf[256], small[10];
	int n, m;

	init_driver(&cq, RESTRACK_CQ, "irdma");
	memset(&rec, 0, sizeof(rec));
	rec.entry = &cq;
	rec.dev = "irdma1";
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "cqn", "%u", 2u), 0);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "cqe", "%u", 255u), 0);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "users", "%u", 4u), 0);
	TEST_CHECK_EQ(rec.nb_attrs, 3);
	n = restrack_format(&rec, buf, sizeof(buf));
	TEST_CHECK_EQ(n, strlen(buf));
	strip_newline(buf);
	TEST_CHECK(strcmp(buf, "dev irdma1 cqn 2 cqe 255 users 4 comm [irdma]") == 0);
	if (strcmp(buf, "dev irdma1 cqn 2 cqe 255 users 4 comm [irdma]") != 0)
		diag("got", buf);

	/* too small a buffer: truncated and terminated, the full length returned */
	memset(small, 'X', sizeof(small));
	m = restrack_format(&rec, small, sizeof(small));
	TEST_CHECK_EQ(m, n);
	TEST_CHECK_EQ(strlen(small), sizeof(small) - 1);
	TEST_CHECK(strncmp(small, buf, sizeof(small) - 1) == 0);
	TEST_CHECK_EQ(restrack_format(&rec, NULL, 0), n);

	/* a user QP on port 2 */
	init_user(&qp, RESTRACK_QP, &task_b);
	memset(&rec, 0, sizeof(rec));
	rec.entry = &qp;
	rec.dev = "irdma1";
	rec.port = 2;
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "lqpn", "%u", 17u), 0);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "type", "%s", "UD"), 0);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "state", "%s", "INIT"), 0);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "sq-psn", "%u", 77u), 0);
	n = restrack_format(&rec, buf, sizeof(buf));
	TEST_CHECK_EQ(n, strlen(buf));
	strip_newline(buf);
	TEST_CHECK(strcmp(buf, "link irdma1/2 lqpn 17 type UD state INIT sq-psn 77 pid 4321 "
			       "comm app_b") == 0);
	if (strcmp(buf, "link irdma1/2 lqpn 17 type UD state INIT sq-psn 77 pid 4321 "
			 "comm app_b") != 0)
		diag("got", buf);

	TEST_CHECK(restrack_format(NULL, buf, sizeof(buf)) < 0);
}

static void
test_dump_attr_limits(void)
{
	struct restrack_entry e;
	struct restrack_dump_rec rec;
	char longval[128];
	unsigned int i;
	/* called through a pointer without the format attribute, to pass a NULL format */
	int (*dump_attr_unchecked)(struct restrack_dump_rec *, const char *, const char *, ...) =
		restrack_dump_attr;

	init_driver(&e, RESTRACK_MR, "irdma");
	memset(&rec, 0, sizeof(rec));
	rec.entry = &e;
	rec.dev = "d";
	for (i = 0; i < RESTRACK_DUMP_MAX_ATTRS; i++)
		TEST_CHECK_EQ(restrack_dump_attr(&rec, "attr", "%u", i), 0);
	TEST_CHECK_EQ(rec.nb_attrs, RESTRACK_DUMP_MAX_ATTRS);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "attr", "%u", 99u), -ENOSPC);
	TEST_CHECK_EQ(rec.nb_attrs, RESTRACK_DUMP_MAX_ATTRS);
	TEST_CHECK(strcmp(rec.attrs[RESTRACK_DUMP_MAX_ATTRS - 1].value, "15") == 0);

	memset(&rec, 0, sizeof(rec));
	rec.entry = &e;
	rec.dev = "d";
	TEST_CHECK_EQ(restrack_dump_attr(NULL, "attr", "%u", 1u), -EINVAL);
	TEST_CHECK_EQ(restrack_dump_attr(&rec, NULL, "%u", 1u), -EINVAL);
	TEST_CHECK_EQ(dump_attr_unchecked(&rec, "attr", NULL), -EINVAL);
	TEST_CHECK_EQ(rec.nb_attrs, 0);

	/* printf-style values, and a value longer than the field stays terminated */
	TEST_CHECK_EQ(restrack_dump_attr(&rec, "rkey", "0x%x", 0xabcu), 0);
	TEST_CHECK(strcmp(rec.attrs[0].value, "0xabc") == 0);
	TEST_CHECK(rec.attrs[0].name != NULL && strcmp(rec.attrs[0].name, "rkey") == 0);
	memset(longval, 'v', sizeof(longval) - 1);
	longval[sizeof(longval) - 1] = '\0';
	if (restrack_dump_attr(&rec, "long", "%s", longval) == 0)
		TEST_CHECK(memchr(rec.attrs[1].value, '\0', sizeof(rec.attrs[1].value)) != NULL);
}

static void
test_dump_filter_and_order(void)
{
	struct filter_fixture f;
	struct restrack_filter flt;
	struct dump_out o;

	filter_fixture_setup(&f);
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 6);
	TEST_CHECK_EQ(o.bad, 0);
	TEST_CHECK(o.entries[0] == &f.d3 && o.entries[1] == &f.d1 && o.entries[2] == &f.u3 &&
		   o.entries[3] == &f.u2 && o.entries[4] == &f.u1 && o.entries[5] == &f.d2);

	memset(&flt, 0, sizeof(flt));
	flt.pid = task_b.pid;
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, &flt, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 1);
	TEST_CHECK(o.entries[0] == &f.u3);

	memset(&flt, 0, sizeof(flt));
	flt.name = "other";
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, &flt, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 1);
	TEST_CHECK(o.entries[0] == &f.d3);

	/* an empty type dumps nothing */
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_SRQ, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 0);

	/* claimed, deleting and untracked entries are not dumped */
	{
		struct restrack_entry claimed, nt;

		init_user(&claimed, RESTRACK_QP, &task_a);
		init_user(&nt, RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_claim(f.root, &claimed, 40), 0);
		TEST_CHECK_EQ(restrack_no_track(&nt), 0);
		TEST_CHECK_EQ(restrack_add(f.root, &nt), 0);
		TEST_CHECK_EQ(restrack_begin_del(&f.u1), 0);
		memset(&o, 0, sizeof(o));
		o.dev = "filt";
		TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), 0);
		TEST_CHECK_EQ(o.n, 5);
		TEST_CHECK(o.entries[0] == &f.d3 && o.entries[1] == &f.d1 &&
			   o.entries[2] == &f.u3 && o.entries[3] == &f.u2 && o.entries[4] == &f.d2);
		TEST_CHECK_EQ(restrack_abort_del(&f.u1), 0);
		TEST_CHECK_EQ(restrack_del(&claimed), 0);
		TEST_CHECK_EQ(restrack_del(&nt), 0);
	}
	filter_fixture_teardown(&f);
}

static void
test_dump_stop_values(void)
{
	struct filter_fixture f;
	struct fill_ctx ctx;
	struct dump_out o;

	filter_fixture_setup(&f);
	/* emit stops the dump */
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	o.stop_at = 3;
	o.stop_value = 7;
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), 7);
	TEST_CHECK_EQ(o.n, 3);

	/* the fill callback stops it too; its record is not emitted */
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = "filt";
	ctx.fail_on_call = 2;
	ctx.fail_value = -EIO;
	TEST_CHECK_EQ(restrack_set_fill(f.root, RESTRACK_QP, fill_qp, &ctx), 0);
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), -EIO);
	TEST_CHECK_EQ(ctx.calls, 2);
	TEST_CHECK_EQ(o.n, 1);

	/* clearing the fill callback restores the default attributes */
	TEST_CHECK_EQ(restrack_set_fill(f.root, RESTRACK_QP, NULL, NULL), 0);
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 6);
	TEST_CHECK_EQ(ctx.calls, 2);
	TEST_CHECK_EQ(o.recs[0].nb_attrs, 1);
	TEST_CHECK(o.recs[0].attrs[0].name != NULL &&
		   strcmp(o.recs[0].attrs[0].name, "lqpn") == 0);

	/* a fill on one type does not apply to another */
	memset(&ctx, 0, sizeof(ctx));
	ctx.dev = "filt";
	TEST_CHECK_EQ(restrack_set_fill(f.root, RESTRACK_QP, fill_qp, &ctx), 0);
	memset(&o, 0, sizeof(o));
	o.dev = "filt";
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_CQ, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 1);
	TEST_CHECK_EQ(ctx.calls, 0);
	TEST_CHECK(o.recs[0].attrs[0].name != NULL && strcmp(o.recs[0].attrs[0].name, "cqn") == 0);

	/* no reference left behind by the stopped dumps */
	TEST_CHECK_EQ(restrack_put(&f.d3), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&f.d1), -EINVAL);
	TEST_CHECK_EQ(restrack_put(&f.u3), -EINVAL);
	filter_fixture_teardown(&f);
}

static void
test_dump_bad_args(void)
{
	struct restrack_root *root = make_root("dumpbad", RESTRACK_QP, 16, 3);
	struct dump_out o;
	struct fill_ctx ctx;

	memset(&o, 0, sizeof(o));
	memset(&ctx, 0, sizeof(ctx));
	TEST_CHECK_EQ(restrack_dump(NULL, RESTRACK_QP, NULL, emit_collect, &o), -EINVAL);
	TEST_CHECK_EQ(restrack_dump(root, RESTRACK_MAX, NULL, emit_collect, &o), -EINVAL);
	TEST_CHECK_EQ(restrack_dump(root, (enum restrack_type)99, NULL, emit_collect, &o),
		      -EINVAL);
	TEST_CHECK_EQ(restrack_dump(root, RESTRACK_QP, NULL, NULL, &o), -EINVAL);
	TEST_CHECK_EQ(o.n, 0);
	TEST_CHECK_EQ(restrack_set_fill(NULL, RESTRACK_QP, fill_qp, &ctx), -EINVAL);
	TEST_CHECK_EQ(restrack_set_fill(root, RESTRACK_MAX, fill_qp, &ctx), -EINVAL);
	TEST_CHECK_EQ(restrack_set_fill(root, (enum restrack_type)99, fill_qp, &ctx), -EINVAL);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_summary_counts(void)
{
	struct restrack_root *root = make_root("rt_sum", RESTRACK_QP, 64, 3);
	struct restrack_entry pd[2], cq, qp[3], mr, claimed, deleting, nt;
	char buf[512], small[8];
	unsigned int i;
	int n;

	for (i = 0; i < 2; i++) {
		init_user(&pd[i], RESTRACK_PD, &task_a);
		TEST_CHECK_EQ(restrack_add(root, &pd[i]), 0);
	}
	init_driver(&cq, RESTRACK_CQ, "irdma");
	TEST_CHECK_EQ(restrack_add(root, &cq), 0);
	for (i = 0; i < 3; i++) {
		init_user(&qp[i], RESTRACK_QP, &task_b);
		TEST_CHECK_EQ(restrack_add(root, &qp[i]), 0);
	}
	init_user(&mr, RESTRACK_MR, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &mr), 0);
	/* not live or not tracked: not summarised */
	init_user(&claimed, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, RESTRACK_ID_ANY), 0);
	init_user(&deleting, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &deleting), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting), 0);
	init_user(&nt, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_no_track(&nt), 0);
	TEST_CHECK_EQ(restrack_add(root, &nt), 0);

	n = restrack_summary(root, buf, sizeof(buf));
	TEST_CHECK_EQ(n, strlen(buf));
	strip_newline(buf);
	TEST_CHECK(starts_with(buf, "rt_sum: pd 2 cq 1 qp 3"));
	TEST_CHECK(buf[strlen("rt_sum: pd 2 cq 1 qp 3")] == ' ' ||
		   buf[strlen("rt_sum: pd 2 cq 1 qp 3")] == '\0');
	TEST_CHECK(strstr(buf, " cm_id 0") != NULL);
	TEST_CHECK(strstr(buf, " mr 1") != NULL);
	TEST_CHECK(strstr(buf, " ctx 0") != NULL);
	TEST_CHECK(strstr(buf, " srq 0") != NULL);
	if (test_case_failures)
		diag("summary", buf);

	memset(small, 'X', sizeof(small));
	TEST_CHECK_EQ(restrack_summary(root, small, sizeof(small)), n);
	TEST_CHECK_EQ(strlen(small), sizeof(small) - 1);
	TEST_CHECK(restrack_summary(NULL, buf, sizeof(buf)) < 0);

	/* the counts follow changes */
	TEST_CHECK_EQ(restrack_commit_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_del(&qp[0]), 0);
	TEST_CHECK_EQ(restrack_add(root, &claimed), 0);
	restrack_summary(root, buf, sizeof(buf));
	TEST_CHECK(starts_with(buf, "rt_sum: pd 2 cq 1 qp 3"));
	TEST_CHECK_EQ(restrack_del(&pd[1]), 0);
	restrack_summary(root, buf, sizeof(buf));
	TEST_CHECK(starts_with(buf, "rt_sum: pd 1 cq 1 qp 3"));

	TEST_CHECK_EQ(restrack_del(&pd[0]), 0);
	TEST_CHECK_EQ(restrack_del(&cq), 0);
	TEST_CHECK_EQ(restrack_del(&qp[1]), 0);
	TEST_CHECK_EQ(restrack_del(&qp[2]), 0);
	TEST_CHECK_EQ(restrack_del(&mr), 0);
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_del(&nt), 0);
	restrack_summary(root, buf, sizeof(buf));
	TEST_CHECK(starts_with(buf, "rt_sum: pd 0 cq 0 qp 0"));
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* logging of errors                                                                        */
/* ---------------------------------------------------------------------------------------- */

static void
check_logged(const char *text, const char *const *words)
{
	TEST_CHECK(text[0] != '\0');
	TEST_CHECK(mentions_any(text, words));
	if (text[0] == '\0' || !mentions_any(text, words))
		diag("log", text);
}

/* Run one call that must fail with `want`, and check its log line names the problem. */
#define CHECK_CALL_LOGS(call, want, words)                                       \
	do {                                                                     \
		struct log_capture cap_;                                         \
		char *text_;                                                     \
                                                                                 \
		log_capture_start(&cap_);                                        \
		TEST_CHECK_EQ((call), (want));                                   \
		text_ = log_capture_stop(&cap_);                                 \
		check_logged(text_, (words));                                    \
		free(text_);                                                     \
	} while (0)

static void
test_log_busy_insert(void)
{
	static const char *const words[] = { "busy", "in use", "taken", "reserved", NULL };
	struct restrack_root *root = make_root("logbusy", RESTRACK_QP, 64, 3);
	struct restrack_entry a, b;
	struct log_capture cap;
	char *text;

	init_user(&a, RESTRACK_QP, &task_a);
	init_user(&b, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &a, 37), 0);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	log_capture_start(&cap);
	TEST_CHECK_EQ(restrack_claim(root, &b, 37), -EBUSY);
	text = log_capture_stop(&cap);
	check_logged(text, words);
	TEST_CHECK(strstr(text, "37") != NULL);		/* names the ID */
	TEST_CHECK(strstr(text, "QP") != NULL);		/* and the type */
	if (strstr(text, "37") == NULL || strstr(text, "QP") == NULL)
		diag("log", text);
	free(text);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_log_double_add(void)
{
	static const char *const words[] = { "add", "already", "twice", "double", "tracked",
					     "state", "live", NULL };
	struct restrack_root *root = make_root("logdbl", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_add(root, &a), -EINVAL, words);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_log_commit_without_begin(void)
{
	static const char *const words[] = { "commit", "begin", "state", "not being deleted",
					     "deleting", NULL };
	struct restrack_root *root = make_root("logcommit", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_commit_del(&a), -EINVAL, words);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_log_put_without_get(void)
{
	static const char *const words[] = { "put", "reference", "ref", "get", NULL };
	struct restrack_root *root = make_root("logput", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_put(&a), -EINVAL, words);
	TEST_CHECK_EQ(restrack_del(&a), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Every failing call logs something (one capture per call). */
static void
test_log_every_bad_call(void)
{
	struct restrack_root *root = make_root("logall", RESTRACK_QP, 8, 3);
	struct restrack_entry live, n;
	struct restrack_entry *out;
	struct log_capture cap;
	char *text;
	int rc;

	init_user(&live, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &live), 0);
	init_user(&n, RESTRACK_QP, &task_a);

#define EXPECT_LOGGED(call, expected)                                                     \
	do {                                                                              \
		log_capture_start(&cap);                                                  \
		rc = (call);                                                              \
		text = log_capture_stop(&cap);                                            \
		TEST_CHECK_EQ(rc, expected);                                              \
		TEST_CHECK(text[0] != '\0');                                              \
		if (text[0] == '\0')                                                      \
			printf("#   nothing logged by %s\n", #call);                      \
		free(text);                                                               \
	} while (0)

	EXPECT_LOGGED(restrack_new(NULL, RESTRACK_QP), -EINVAL);
	EXPECT_LOGGED(restrack_new(&n, RESTRACK_MAX), -EINVAL);
	EXPECT_LOGGED(restrack_claim(root, &n, 8), -ERANGE);
	EXPECT_LOGGED(restrack_del(&n), -EINVAL);
	EXPECT_LOGGED(restrack_begin_del(&n), -EINVAL);
	EXPECT_LOGGED(restrack_abort_del(&live), -EINVAL);
	EXPECT_LOGGED(restrack_sync(&n), -EINVAL);
	EXPECT_LOGGED(restrack_get_byid(root, RESTRACK_MAX, 3, &out), -EINVAL);
	EXPECT_LOGGED(restrack_get_byid(root, RESTRACK_QP, 8, &out), -ERANGE);
	EXPECT_LOGGED(restrack_count(NULL, RESTRACK_QP, NULL), -EINVAL);
	EXPECT_LOGGED(restrack_set_name(&live, "x"), -EBUSY);
	EXPECT_LOGGED(restrack_init(NULL, NULL, NULL), -EINVAL);
	EXPECT_LOGGED(restrack_clean(NULL), -EINVAL);
#undef EXPECT_LOGGED

	TEST_CHECK_EQ(restrack_del(&live), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

static void
test_get_byid_bulk(void)
{
	static const char *const range_words[] = { "range", NULL };
	static const char *const arg_words[] = { "bad argument", NULL };
	struct restrack_root *root = make_root("bulk", RESTRACK_QP, 64, 3);
	struct restrack_entry qp[4], claimed, deleting, cq;
	struct restrack_entry *out[RESTRACK_BULK_MAX + 1];
	uint32_t ids[RESTRACK_BULK_MAX + 1];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		init_user(&qp[i], RESTRACK_QP, &task_a);
		TEST_CHECK_EQ(restrack_claim(root, &qp[i], 20 + i), 0);
		TEST_CHECK_EQ(restrack_add(root, &qp[i]), 0);
	}
	init_user(&claimed, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &claimed, 30), 0);
	init_user(&deleting, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &deleting, 31), 0);
	TEST_CHECK_EQ(restrack_add(root, &deleting), 0);
	TEST_CHECK_EQ(restrack_begin_del(&deleting), 0);
	/* ID 22 in another type must not be found through the QP table */
	init_user(&cq, RESTRACK_CQ, &task_a);
	TEST_CHECK_EQ(restrack_claim(root, &cq, 40), 0);
	TEST_CHECK_EQ(restrack_add(root, &cq), 0);

	/* live, free, reserved, claimed, deleting, a repeat, the CQ's ID: in this order */
	ids[0] = 23;
	ids[1] = 5;
	ids[2] = 1;
	ids[3] = 30;
	ids[4] = 31;
	ids[5] = 20;
	ids[6] = 40;
	ids[7] = 20;
	for (i = 0; i < 8; i++)
		out[i] = (struct restrack_entry *)&out;	/* poison */
	TEST_CHECK_EQ(restrack_get_byid_bulk(root, RESTRACK_QP, ids, 8, out), 3);
	TEST_CHECK(out[0] == &qp[3]);
	TEST_CHECK(out[1] == NULL);
	TEST_CHECK(out[2] == NULL);
	TEST_CHECK(out[3] == NULL);
	TEST_CHECK(out[4] == NULL);
	TEST_CHECK(out[5] == &qp[0]);
	TEST_CHECK(out[6] == NULL);
	TEST_CHECK(out[7] == &qp[0]);
	/* each occurrence took one reference; the misses took none */
	TEST_CHECK_EQ(restrack_refcnt(&qp[3]), 2);
	TEST_CHECK_EQ(restrack_refcnt(&qp[0]), 3);
	TEST_CHECK_EQ(restrack_refcnt(&qp[1]), 1);
	TEST_CHECK_EQ(restrack_put(&qp[3]), 0);
	TEST_CHECK_EQ(restrack_put(&qp[0]), 0);
	TEST_CHECK_EQ(restrack_put(&qp[0]), 0);
	TEST_CHECK_EQ(restrack_refcnt(&qp[0]), 1);

	/* the CQ table finds the CQ */
	TEST_CHECK_EQ(restrack_get_byid_bulk(root, RESTRACK_CQ, &ids[6], 1, out), 1);
	TEST_CHECK(out[0] == &cq);
	TEST_CHECK_EQ(restrack_put(&cq), 0);

	/* the most IDs a call takes, all found */
	for (i = 0; i < RESTRACK_BULK_MAX; i++)
		ids[i] = 20 + (i & 3);
	TEST_CHECK_EQ(restrack_get_byid_bulk(root, RESTRACK_QP, ids, RESTRACK_BULK_MAX, out),
		      (int)RESTRACK_BULK_MAX);
	for (i = 0; i < RESTRACK_BULK_MAX; i++) {
		TEST_CHECK(out[i] == &qp[i & 3]);
		TEST_CHECK_EQ(restrack_put(out[i]), 0);
	}
	TEST_CHECK_EQ(restrack_get_byid_bulk(root, RESTRACK_QP, ids, 0, out), 0);

	/* bad input: nothing taken, logged */
	ids[0] = 20;
	ids[1] = 64;
	CHECK_CALL_LOGS(restrack_get_byid_bulk(root, RESTRACK_QP, ids, 2, out), -ERANGE,
			range_words);
	TEST_CHECK_EQ(restrack_refcnt(&qp[0]), 1);
	CHECK_CALL_LOGS(restrack_get_byid_bulk(root, RESTRACK_QP, ids, RESTRACK_BULK_MAX + 1,
					       out), -EINVAL, arg_words);
	CHECK_CALL_LOGS(restrack_get_byid_bulk(NULL, RESTRACK_QP, ids, 1, out), -EINVAL,
			arg_words);
	CHECK_CALL_LOGS(restrack_get_byid_bulk(root, RESTRACK_MAX, ids, 1, out), -EINVAL,
			arg_words);
	CHECK_CALL_LOGS(restrack_get_byid_bulk(root, RESTRACK_QP, NULL, 1, out), -EINVAL,
			arg_words);
	CHECK_CALL_LOGS(restrack_get_byid_bulk(root, RESTRACK_QP, ids, 1, NULL), -EINVAL,
			arg_words);

	for (i = 0; i < 4; i++)
		TEST_CHECK_EQ(restrack_del(&qp[i]), 0);
	TEST_CHECK_EQ(restrack_commit_del(&deleting), 0);
	TEST_CHECK_EQ(restrack_del(&claimed), 0);
	TEST_CHECK_EQ(restrack_del(&cq), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */
/* table consistency after every bad call                                                   */
/* ---------------------------------------------------------------------------------------- */

struct consist {
	struct restrack_root *root;
	struct restrack_entry a, b, c, d, x;	/* live 3, live 4, claimed 6, deleting 5, new */
	struct restrack_entry cq;		/* live CQ 3 */
	struct restrack_entry saved_a, saved_b, saved_x;
};

/* Number of ways the table differs from the fixture's expected state. */
static int
consist_diff(struct consist *s)
{
	int diff = 0;

	diff += restrack_count(s->root, RESTRACK_QP, NULL) != 2;
	diff += restrack_count(s->root, RESTRACK_CQ, NULL) != 1;
	diff += !lookup_is(s->root, RESTRACK_QP, 3, &s->a);
	diff += !lookup_is(s->root, RESTRACK_QP, 4, &s->b);
	diff += !lookup_is(s->root, RESTRACK_QP, 5, NULL);
	diff += !lookup_is(s->root, RESTRACK_QP, 6, NULL);
	diff += !lookup_is(s->root, RESTRACK_QP, 7, NULL);
	diff += !lookup_is(s->root, RESTRACK_CQ, 3, &s->cq);
	diff += !entry_same(&s->a, &s->saved_a);
	diff += !entry_same(&s->b, &s->saved_b);
	diff += !entry_same(&s->x, &s->saved_x);
	diff += s->c.state != RESTRACK_STATE_CLAIMED;
	diff += s->d.state != RESTRACK_STATE_DELETING;
	diff += restrack_put(&s->a) != -EINVAL;		/* no stray reference */
	diff += restrack_put(&s->b) != -EINVAL;
	return diff;
}

static void
test_bad_calls_keep_table_consistent(void)
{
	struct consist s;
	struct restrack_entry *out = NULL;
	struct restrack_filter flt;
	struct walk w;
	struct dump_out o;
	int rc;

	memset(&s, 0, sizeof(s));
	memset(&w, 0, sizeof(w));
	memset(&o, 0, sizeof(o));
	memset(&flt, 0, sizeof(flt));
	s.root = make_root("consist", RESTRACK_QP, 8, 3);
	init_user(&s.a, RESTRACK_QP, &task_a);
	init_driver(&s.b, RESTRACK_QP, "irdma");
	init_user(&s.c, RESTRACK_QP, &task_a);
	init_user(&s.d, RESTRACK_QP, &task_b);
	init_user(&s.x, RESTRACK_QP, &task_b);
	init_user(&s.cq, RESTRACK_CQ, &task_a);
	TEST_CHECK_EQ(restrack_add(s.root, &s.a), 0);		/* 3 */
	TEST_CHECK_EQ(restrack_add(s.root, &s.b), 0);		/* 4 */
	TEST_CHECK_EQ(restrack_claim(s.root, &s.d, 5), 0);
	TEST_CHECK_EQ(restrack_add(s.root, &s.d), 0);
	TEST_CHECK_EQ(restrack_begin_del(&s.d), 0);		/* 5 deleting */
	TEST_CHECK_EQ(restrack_claim(s.root, &s.c, 6), 0);	/* 6 claimed */
	TEST_CHECK_EQ(restrack_claim(s.root, &s.cq, 3), 0);
	TEST_CHECK_EQ(restrack_add(s.root, &s.cq), 0);
	s.saved_a = s.a;
	s.saved_b = s.b;
	s.saved_x = s.x;
	TEST_CHECK_EQ(consist_diff(&s), 0);

#define BAD(call, expected)                                                               \
	do {                                                                              \
		int d_;                                                                   \
		rc = (call);                                                              \
		TEST_CHECK_EQ(rc, expected);                                              \
		d_ = consist_diff(&s);                                                    \
		TEST_CHECK_EQ(d_, 0);                                                     \
		if (rc != (expected) || d_ != 0)                                          \
			printf("#   after %s\n", #call);                                  \
	} while (0)

	BAD(restrack_add(s.root, &s.a), -EINVAL);
	BAD(restrack_add(s.root, &s.d), -EINVAL);
	BAD(restrack_add(NULL, &s.x), -EINVAL);
	BAD(restrack_add(s.root, NULL), -EINVAL);
	BAD(restrack_claim(s.root, &s.x, 3), -EBUSY);
	BAD(restrack_claim(s.root, &s.x, 4), -EBUSY);
	BAD(restrack_claim(s.root, &s.x, 5), -EBUSY);
	BAD(restrack_claim(s.root, &s.x, 6), -EBUSY);
	BAD(restrack_claim(s.root, &s.x, 8), -ERANGE);
	BAD(restrack_claim(s.root, &s.x, RESTRACK_MAX_IDS), -ERANGE);
	BAD(restrack_claim(s.root, &s.a, 7), -EINVAL);
	BAD(restrack_claim(s.root, &s.c, 7), -EINVAL);
	BAD(restrack_claim(NULL, &s.x, 7), -EINVAL);
	BAD(restrack_claim(s.root, NULL, 7), -EINVAL);
	BAD(restrack_commit_del(&s.a), -EINVAL);
	BAD(restrack_commit_del(&s.c), -EINVAL);
	BAD(restrack_commit_del(&s.x), -EINVAL);
	BAD(restrack_abort_del(&s.b), -EINVAL);
	BAD(restrack_abort_del(&s.c), -EINVAL);
	BAD(restrack_begin_del(&s.c), -EINVAL);
	BAD(restrack_begin_del(&s.d), -EINVAL);
	BAD(restrack_begin_del(&s.x), -EINVAL);
	BAD(restrack_del(&s.x), -EINVAL);
	BAD(restrack_sync(&s.c), -EINVAL);
	BAD(restrack_sync(&s.d), -EINVAL);
	BAD(restrack_sync(&s.x), -EINVAL);
	BAD(restrack_put(&s.a), -EINVAL);
	BAD(restrack_put(&s.d), -EINVAL);
	BAD(restrack_put(&s.x), -EINVAL);
	BAD(restrack_put(NULL), -EINVAL);
	BAD(restrack_get(&s.c), -ENOENT);
	BAD(restrack_get(&s.d), -ENOENT);
	BAD(restrack_get(&s.x), -ENOENT);
	BAD(restrack_get(NULL), -EINVAL);
	BAD(restrack_get_byid(s.root, RESTRACK_MAX, 3, &out), -EINVAL);
	BAD(restrack_get_byid(s.root, (enum restrack_type)99, 3, &out), -EINVAL);
	BAD(restrack_get_byid(NULL, RESTRACK_QP, 3, &out), -EINVAL);
	BAD(restrack_get_byid(s.root, RESTRACK_QP, 3, NULL), -EINVAL);
	BAD(restrack_get_byid(s.root, RESTRACK_QP, 8, &out), -ERANGE);
	BAD(restrack_get_byid(s.root, RESTRACK_QP, 6, &out), -ENOENT);
	BAD(restrack_count(s.root, RESTRACK_MAX, NULL), -EINVAL);
	BAD(restrack_count(s.root, (enum restrack_type)99, &flt), -EINVAL);
	BAD(restrack_count(NULL, RESTRACK_QP, NULL), -EINVAL);
	BAD(restrack_foreach(s.root, RESTRACK_MAX, NULL, walk_cb, &w), -EINVAL);
	BAD(restrack_foreach(s.root, RESTRACK_QP, NULL, NULL, &w), -EINVAL);
	BAD(restrack_dump(s.root, (enum restrack_type)99, NULL, emit_collect, &o), -EINVAL);
	BAD(restrack_dump(s.root, RESTRACK_QP, NULL, NULL, &o), -EINVAL);
	BAD(restrack_set_fill(s.root, RESTRACK_MAX, fill_qp, NULL), -EINVAL);
	BAD(restrack_set_name(&s.a, "zzz"), -EBUSY);
	BAD(restrack_set_name(&s.b, NULL), -EBUSY);
	BAD(restrack_attach_task(&s.b, &task_b), -EBUSY);
	BAD(restrack_parent_name(&s.a, &s.b), -EBUSY);
	BAD(restrack_no_track(&s.a), -EBUSY);
	BAD(restrack_no_track(&s.c), -EBUSY);
	BAD(restrack_new(NULL, RESTRACK_QP), -EINVAL);
	BAD(restrack_new(&s.x, (enum restrack_type)99), -EINVAL);
	BAD(restrack_new(&s.x, RESTRACK_MAX), -EINVAL);
#undef BAD
	TEST_CHECK(out == NULL);
	TEST_CHECK_EQ(w.n, 0);
	TEST_CHECK_EQ(o.n, 0);

	/* and the table keeps working: the allocator skips 5 (deleting) and 6 (claimed) */
	TEST_CHECK_EQ(restrack_add(s.root, &s.x), 0);
	TEST_CHECK_EQ(restrack_id(&s.x), 7);
	TEST_CHECK_EQ(restrack_commit_del(&s.d), 0);
	TEST_CHECK_EQ(restrack_add(s.root, &s.c), 0);
	TEST_CHECK_EQ(restrack_count(s.root, RESTRACK_QP, NULL), 4);
	TEST_CHECK_EQ(restrack_del(&s.a), 0);
	TEST_CHECK_EQ(restrack_del(&s.b), 0);
	TEST_CHECK_EQ(restrack_del(&s.c), 0);
	TEST_CHECK_EQ(restrack_del(&s.x), 0);
	TEST_CHECK_EQ(restrack_del(&s.cq), 0);
	TEST_CHECK_EQ(restrack_clean(s.root), 0);
}

static void
test_bytes_per_entry(void)
{
	size_t n = restrack_bytes_per_entry();

	TEST_CHECK(n > 0);
	TEST_CHECK(n < 4096);
}

int
main(void)
{
	test_set_watchdog(WATCHDOG_SECONDS);

	RUN(test_type_name_all_types);
	RUN(test_type_name_out_of_range);

	RUN(test_init_null_args);
	RUN(test_init_space_too_large);
	RUN(test_init_reserving_whole_space);
	RUN(test_init_defaults);
	RUN(test_init_limits);
	RUN(test_root_name_copied);
	RUN(test_root_name_long);
	RUN(test_roots_are_independent);
	RUN(test_clean_null_and_empty);
	RUN(test_clean_after_everything_deleted);
	RUN(test_clean_counts_leaks);
	RUN(test_clean_reports_full_names);
	RUN(test_clean_ignores_untracked_entry);

	RUN(test_new_bad_args);
	RUN(test_new_entry_state);

	RUN(test_add_auto_ids_start_at_reserved);
	RUN(test_add_cyclic_one_at_a_time);
	RUN(test_add_cyclic_freed_id_late);
	RUN(test_add_enospc_leaves_entry_untouched);
	RUN(test_add_error_leaves_unowned_entry_untouched);
	RUN(test_alloc_skips_claimed_and_deleting);
	RUN(test_claim_exact_id);
	RUN(test_claim_reserved_id);
	RUN(test_claim_busy);
	RUN(test_claim_busy_closes_untracked_qp_window);
	RUN(test_claim_out_of_range);
	RUN(test_claim_bad_args);
	RUN(test_claim_then_del_releases_id);
	RUN(test_add_double);
	RUN(test_add_bad_args);
	RUN(test_add_after_del);

	RUN(test_get_put_balance);
	RUN(test_refcnt);
	RUN(test_get_fails_unless_live);
	RUN(test_put_without_reference);
	RUN(test_get_byid_finds_exact_entry);
	RUN(test_get_byid_not_found);
	RUN(test_get_byid_bad_args);
	RUN(test_get_byid_bulk);

	RUN(test_begin_del_hides_and_keeps_id);
	RUN(test_commit_del_frees_id);
	RUN(test_abort_del_restores);
	RUN(test_del_sequence_errors);
	RUN(test_begin_del_waits_for_readers);
	RUN(test_del_waits_for_reader);
	RUN(test_begin_del_hides_while_waiting);

	RUN(test_sync_live_entry_stays_visible);
	RUN(test_sync_waits_for_reader);
	RUN(test_sync_hides_while_waiting);
	RUN(test_sync_not_live);

	RUN(test_count_per_type);
	RUN(test_count_filters);
	RUN(test_count_only_live_tracked);
	RUN(test_count_bad_args);

	RUN(test_no_track_entry);
	RUN(test_no_track_bad_args);

	RUN(test_set_name_driver_owned);
	RUN(test_set_name_long);
	RUN(test_set_name_null_is_current_task);
	RUN(test_attach_task_explicit);
	RUN(test_attach_task_current);
	RUN(test_attach_task_other_thread);
	RUN(test_parent_name);
	RUN(test_owner_busy_after_add);
	RUN(test_owner_bad_args);

	RUN(test_foreach_id_order);
	RUN(test_foreach_filter);
	RUN(test_foreach_early_stop);
	RUN(test_foreach_bad_args);

	RUN(test_dump_fill_qp_lines);
	RUN(test_dump_default_attrs);
	RUN(test_format_qp_without_port);
	RUN(test_format_record);
	RUN(test_dump_attr_limits);
	RUN(test_dump_filter_and_order);
	RUN(test_dump_stop_values);
	RUN(test_dump_bad_args);
	RUN(test_summary_counts);

	RUN(test_log_busy_insert);
	RUN(test_log_double_add);
	RUN(test_log_commit_without_begin);
	RUN(test_log_put_without_get);
	RUN(test_log_every_bad_call);

	RUN(test_bad_calls_keep_table_consistent);
	RUN(test_bytes_per_entry);

	return test_done();
}
