/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* Unit tests of lib/restrack: dump, fill callbacks, dump_attr, format and summary. */

#include "restrack_unit.h"

/* ---------------------------------------------------------------------------------------- */
/* dump, fill, dump_attr, format, summary                                                   */
/* ---------------------------------------------------------------------------------------- */

void
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

	dump_out_init(&o, "irdma0");
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
	DEL_THEN_CLEAN(root, &uqp, &dqp);
}

/* Without a fill callback the ID shows under its iproute2 name. */
void
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
		dump_out_init(&o, "rt_def");
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
void
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
void
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

void
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

void
test_dump_filter_and_order(void)
{
	struct filter_fixture f;
	struct restrack_filter flt;
	struct dump_out o;

	filter_fixture_setup(&f);
	dump_out_init(&o, "filt");
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 6);
	TEST_CHECK_EQ(o.bad, 0);
	TEST_CHECK(o.entries[0] == &f.d3 && o.entries[1] == &f.d1 && o.entries[2] == &f.u3 &&
		   o.entries[3] == &f.u2 && o.entries[4] == &f.u1 && o.entries[5] == &f.d2);

	memset(&flt, 0, sizeof(flt));
	flt.pid = task_b.pid;
	dump_out_init(&o, "filt");
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, &flt, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 1);
	TEST_CHECK(o.entries[0] == &f.u3);

	memset(&flt, 0, sizeof(flt));
	flt.name = "other";
	dump_out_init(&o, "filt");
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, &flt, emit_collect, &o), 0);
	TEST_CHECK_EQ(o.n, 1);
	TEST_CHECK(o.entries[0] == &f.d3);

	/* an empty type dumps nothing */
	dump_out_init(&o, "filt");
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
		dump_out_init(&o, "filt");
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

void
test_dump_stop_values(void)
{
	struct filter_fixture f;
	struct fill_ctx ctx;
	struct dump_out o;

	filter_fixture_setup(&f);
	/* emit stops the dump */
	dump_out_init(&o, "filt");
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
	dump_out_init(&o, "filt");
	TEST_CHECK_EQ(restrack_dump(f.root, RESTRACK_QP, NULL, emit_collect, &o), -EIO);
	TEST_CHECK_EQ(ctx.calls, 2);
	TEST_CHECK_EQ(o.n, 1);

	/* clearing the fill callback restores the default attributes */
	TEST_CHECK_EQ(restrack_set_fill(f.root, RESTRACK_QP, NULL, NULL), 0);
	dump_out_init(&o, "filt");
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
	dump_out_init(&o, "filt");
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

void
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

void
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
