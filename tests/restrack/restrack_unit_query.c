/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of lib/restrack: count and filters, no_track / is_tracked, owners (set_name,
 * attach_task, parent_name, is_driver_res), foreach.
 */

#include "restrack_unit.h"

/* ---------------------------------------------------------------------------------------- */
/* count and filters                                                                        */
/* ---------------------------------------------------------------------------------------- */

void
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

void
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
void
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

void
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

void
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

void
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
	DEL_THEN_CLEAN(root, &claimed, &live);
}

/* ---------------------------------------------------------------------------------------- */
/* owners: set_name, attach_task, parent_name, is_driver_res                                */
/* ---------------------------------------------------------------------------------------- */

void
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
void
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

void
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

void
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

void
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
void
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

void
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
	DEL_THEN_CLEAN(root, &child, &dpd, &upd);
}

/* Owner fields are immutable while tracked. */
void
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
	DEL_THEN_CLEAN(root, &drv, &usr);
}

void
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

void
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

void
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

void
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

void
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
