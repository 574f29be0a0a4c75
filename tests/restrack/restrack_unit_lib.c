/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* Helpers of the restrack unit tests (restrack_unit.h). */

#include "restrack_unit.h"

/* Two user owners with distinct pids, used by the filter and dump tests. */
const struct restrack_task task_a = {
	.pid = 1234, .tid = 1235, .lcore = 0, .comm = "app_a",
};
const struct restrack_task task_b = {
	.pid = 4321, .tid = 4322, .lcore = 1, .comm = "app_b",
};

/* A root whose @p type has a small ID space; every other type gets the default space. */
struct restrack_root *
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
void
init_user(struct restrack_entry *e, enum restrack_type type, const struct restrack_task *task)
{
	TEST_CHECK_EQ(restrack_new(e, type), 0);
	TEST_CHECK_EQ(restrack_attach_task(e, task), 0);
}

/* New driver-owned entry. */
void
init_driver(struct restrack_entry *e, enum restrack_type type, const char *name)
{
	TEST_CHECK_EQ(restrack_new(e, type), 0);
	TEST_CHECK_EQ(restrack_set_name(e, name), 0);
}

/*
 * True when get_byid(type, id) finds exactly @p want (and the reference is dropped again),
 * or, with @p want NULL, when it reports -ENOENT.
 */
bool
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

void
del_then_clean(struct restrack_root *root, struct restrack_entry *const *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int rc = restrack_del(e[i]);

		if (rc != 0)
			printf("#   restrack_del() of entry %zu of %zu (ID %u): %d\n", i + 1, n,
			       restrack_id(e[i]), rc);
		TEST_CHECK_EQ(rc, 0);
	}
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* Field by field equality of two entries (no padding compared). */
bool
entry_same(const struct restrack_entry *a, const struct restrack_entry *b)
{
	return a->ref == b->ref && a->root == b->root && a->id == b->id && a->type == b->type &&
	       a->state == b->state && a->no_track == b->no_track &&
	       a->driver_res == b->driver_res && memcmp(a->name, b->name, sizeof(a->name)) == 0 &&
	       a->task.pid == b->task.pid && a->task.tid == b->task.tid &&
	       a->task.lcore == b->task.lcore &&
	       memcmp(a->task.comm, b->task.comm, sizeof(a->task.comm)) == 0;
}

void
strip_newline(char *s)
{
	size_t n = strlen(s);

	if (n > 0 && s[n - 1] == '\n')
		s[n - 1] = '\0';
}

bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Print text as TAP comments (one per line), for diagnostics of a failed check. */
void
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

void
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
char *
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
bool
mentions_any(const char *text, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strcasestr(text, *words) != NULL)
			return true;
	return false;
}

/* ---- foreach callback ---- */

int
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

void *
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
bool
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

/* Three user and three driver QPs out of ID order, and a user CQ (count, foreach, dump). */
void
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

void
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

void
dump_out_init(struct dump_out *o, const char *dev)
{
	memset(o, 0, sizeof(*o));
	o->dev = dev;
}

/* A dump emit callback: collects each record, its formatted line, and checks it. */
int
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

/* The irdma QP fill: iproute2's order lqpn, type, state, sq-psn, pdn; port 1. */
int
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
