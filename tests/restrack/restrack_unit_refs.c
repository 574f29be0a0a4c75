/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of lib/restrack: references and deletion: get / put / get_byid, begin_del /
 * commit_del / abort_del / del, sync.
 */

#include "restrack_unit.h"

/* ---------------------------------------------------------------------------------------- */
/* get / put / get_byid                                                                     */
/* ---------------------------------------------------------------------------------------- */

void
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

void
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
	DEL_THEN_CLEAN(root, &c);
}

void
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

void
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
	DEL_THEN_CLEAN(root, &e, &other);
}

void
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
	DEL_THEN_CLEAN(root, &cq, &pd);
}

void
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
	DEL_THEN_CLEAN(root, &claimed);
}

void
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
	DEL_THEN_CLEAN(root, &e);
}

/* ---------------------------------------------------------------------------------------- */
/* begin_del / commit_del / abort_del / del                                                 */
/* ---------------------------------------------------------------------------------------- */

void
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
	DEL_THEN_CLEAN(root, &other);
}

void
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
	DEL_THEN_CLEAN(root, &x);
}

void
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

void
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
	DEL_THEN_CLEAN(root, &c);
}

/* begin_del waits until readers on other threads have dropped their references. */
void
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
void
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
void
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
	DEL_THEN_CLEAN(root, &x);
}

/* ---------------------------------------------------------------------------------------- */
/* sync                                                                                     */
/* ---------------------------------------------------------------------------------------- */

void
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
	DEL_THEN_CLEAN(root, &e);
}

void
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
	DEL_THEN_CLEAN(root, &e);
}

/* While sync waits for a reader the entry is hidden; afterwards it is visible again. */
void
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
	DEL_THEN_CLEAN(root, &e);
}

void
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
