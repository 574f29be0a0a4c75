/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of lib/restrack: new entries; add and claim: ID allocation (cyclic,
 * reserved IDs, exact claims).
 */

#include "restrack_unit.h"

/* ---------------------------------------------------------------------------------------- */
/* new                                                                                      */
/* ---------------------------------------------------------------------------------------- */

void
test_new_bad_args(void)
{
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_new(NULL, RESTRACK_QP), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_MAX), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, (enum restrack_type)99), -EINVAL);
	TEST_CHECK_EQ(restrack_new(&e, (enum restrack_type)-1), -EINVAL);
}

/* A new entry is tracked-to-be but not in any table: every operation needing one fails. */
void
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

void
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
void
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

void
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
	DEL_THEN_CLEAN(root, &d, &e, &f, &g, &h);
}

/* A failed add leaves the entry untouched and nothing tracked; it can be retried. */
void
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
void
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
	DEL_THEN_CLEAN(root, &a);
}

/* The allocator skips IDs that are claimed or being deleted. */
void
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
	DEL_THEN_CLEAN(root, &a, &c, &d, &e, &f);
}

void
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
	DEL_THEN_CLEAN(root, &e);
}

/* Explicit claims may take reserved IDs (irdma's QP 0-2, CQ 0-2, PD 0-2, MR index 0). */
void
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
	DEL_THEN_CLEAN(root, &auto_qp);
}

/* -EBUSY for an ID that is live, claimed or between begin_del and commit_del. */
void
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
	DEL_THEN_CLEAN(root, &live, &claimed, &x);
}

/*
 * The kernel's untracked-QP window, replayed: QPN N is being destroyed (begin_del), the
 * driver reuses N for a new QP before commit_del. Here the insert fails loudly instead of
 * leaving the new QP silently untracked, and succeeds after commit_del.
 */
void
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
	DEL_THEN_CLEAN(root, &old_qp, &other);
}

void
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
	DEL_THEN_CLEAN(root, &x);
}

void
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

	DEL_THEN_CLEAN(root, &e, &live);
	TEST_CHECK_EQ(restrack_clean(other), 0);
}

/* A create that fails after restrack_claim(): restrack_del releases the ID. */
void
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
	DEL_THEN_CLEAN(root, &a, &b);
}

void
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

void
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
	DEL_THEN_CLEAN(root, &e);
}

void
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
	DEL_THEN_CLEAN(root, &e);
}
