/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of lib/restrack: the log line of every bad call, and the table consistency after
 * each one.
 */

#include "restrack_unit.h"

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

void
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
	DEL_THEN_CLEAN(root, &a);
}

void
test_log_double_add(void)
{
	static const char *const words[] = { "add", "already", "twice", "double", "tracked",
					     "state", "live", NULL };
	struct restrack_root *root = make_root("logdbl", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_add(root, &a), -EINVAL, words);
	DEL_THEN_CLEAN(root, &a);
}

void
test_log_commit_without_begin(void)
{
	static const char *const words[] = { "commit", "begin", "state", "not being deleted",
					     "deleting", NULL };
	struct restrack_root *root = make_root("logcommit", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_commit_del(&a), -EINVAL, words);
	DEL_THEN_CLEAN(root, &a);
}

void
test_log_put_without_get(void)
{
	static const char *const words[] = { "put", "reference", "ref", "get", NULL };
	struct restrack_root *root = make_root("logput", RESTRACK_QP, 64, 3);
	struct restrack_entry a;

	init_user(&a, RESTRACK_QP, &task_a);
	TEST_CHECK_EQ(restrack_add(root, &a), 0);
	CHECK_CALL_LOGS(restrack_put(&a), -EINVAL, words);
	DEL_THEN_CLEAN(root, &a);
}

/* Every failing call logs something (one capture per call). */
void
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

	DEL_THEN_CLEAN(root, &live);
}

void
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
	DEL_THEN_CLEAN(root, &claimed, &cq);
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

void
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
	DEL_THEN_CLEAN(s.root, &s.a, &s.b, &s.c, &s.x, &s.cq);
}

void
test_bytes_per_entry(void)
{
	size_t n = restrack_bytes_per_entry();

	TEST_CHECK(n > 0);
	TEST_CHECK(n < 4096);
}
