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
 *
 * The cases are in test_restrack_unit.c (type names; init, clean, root name) and the
 * restrack_unit_*.c files, one per group of sections; this file runs them all in order.
 */

#include "restrack_unit.h"

/* ---------------------------------------------------------------------------------------- */
/* Type names                                                                               */
/* ---------------------------------------------------------------------------------------- */

void
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

void
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

void
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

void
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

void
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

void
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

void
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
	DEL_THEN_CLEAN(root, &a, &b);

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
	DEL_THEN_CLEAN(root, &b, &c);
}

void
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
void
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

void
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
	DEL_THEN_CLEAN(r1, &b);
	TEST_CHECK_EQ(restrack_clean(r2), 0);
}

void
test_clean_null_and_empty(void)
{
	struct restrack_root *root = NULL;

	TEST_CHECK_EQ(restrack_clean(NULL), -EINVAL);
	TEST_CHECK_EQ(restrack_init("empty", NULL, &root), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

void
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
	DEL_THEN_CLEAN(root, &e[0]);
}

/* Claimed, live and deleting entries are leaks; deleted and untracked ones are not. */
void
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
void
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
void
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
