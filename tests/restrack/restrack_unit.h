/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_RESTRACK_UNIT_H
#define TEST_RESTRACK_UNIT_H

/*
 * The unit tests of lib/restrack (test_restrack_unit.c runs them all, in one binary): the
 * helpers they share (restrack_unit_lib.c) and the cases of each file, one file per group of
 * sections of the contract in restrack.h.
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

#define RUN(fn) TEST_RUN(fn)
#define sleep_ms test_sleep_ms

/* Two user owners with distinct pids, used by the filter and dump tests. */
extern const struct restrack_task task_a;
extern const struct restrack_task task_b;

struct log_capture {
	FILE *f;
	char *buf;
	size_t len;
};

struct walk {
	int n;
	uint32_t ids[32];
	struct restrack_entry *entries[32];
	int stop_at;		/* stop after this many visits (0: never) */
	int stop_value;
	int bad;		/* visits of a non-live entry or failing get/put inside */
};

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

/* The filter tests' table: see filter_fixture_setup() in restrack_unit_lib.c. */
struct filter_fixture {
	struct restrack_root *root;
	struct restrack_entry u1, u2, u3, d1, d2, d3;	/* QPs: 3 user, 3 driver */
	struct restrack_entry cq;			/* one user CQ */
};

#define DUMP_MAX 16

/* What emit_collect() collected of a dump. */
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

/* fill_qp()'s state: calls, bad records, and a failure to return on one call. */
struct fill_ctx {
	int calls;
	int bad;
	const char *dev;
	int fail_on_call;	/* return fail_value on this call (1-based), 0: never */
	int fail_value;
};

struct restrack_root *make_root(const char *name, enum restrack_type type, uint32_t nb_ids,
			       uint32_t nb_reserved);
void init_user(struct restrack_entry *e, enum restrack_type type, const struct restrack_task *task);
void init_driver(struct restrack_entry *e, enum restrack_type type, const char *name);
bool lookup_is(struct restrack_root *root, enum restrack_type type, uint32_t id,
	       const struct restrack_entry *want);
bool entry_same(const struct restrack_entry *a, const struct restrack_entry *b);
void strip_newline(char *s);
bool ends_with(const char *s, const char *suffix);
bool starts_with(const char *s, const char *prefix);
void diag(const char *what, const char *text);
void log_capture_start(struct log_capture *c);
char *log_capture_stop(struct log_capture *c);
bool mentions_any(const char *text, const char *const *words);
int walk_cb(struct restrack_entry *entry, void *arg);
void *reader_main(void *arg);
bool reader_start(struct reader *r, struct restrack_root *root, enum restrack_type type,
		  uint32_t id, struct restrack_entry *e, unsigned int hold_ms);
/*
 * restrack_del() each of the @p n entries @p e (each must succeed), then restrack_clean()
 * @p root (nothing may be left): the end of most cases. DEL_THEN_CLEAN(root, &a, &b, ...).
 */
void del_then_clean(struct restrack_root *root, struct restrack_entry *const *e, size_t n);
#define DEL_THEN_CLEAN(root, ...)							\
	del_then_clean((root), (struct restrack_entry *const[]){ __VA_ARGS__ },		\
		       sizeof((struct restrack_entry *const[]){ __VA_ARGS__ }) /	\
		       sizeof(struct restrack_entry *))
void filter_fixture_setup(struct filter_fixture *f);
void filter_fixture_teardown(struct filter_fixture *f);
/* Reset @p o to collect the records of a dump of device @p dev (emit_collect()). */
void dump_out_init(struct dump_out *o, const char *dev);
int emit_collect(const struct restrack_dump_rec *rec, void *arg);
int fill_qp(struct restrack_dump_rec *rec, void *arg);

/* test_restrack_unit.c */
void test_type_name_all_types(void);
void test_type_name_out_of_range(void);
void test_init_null_args(void);
void test_init_space_too_large(void);
void test_init_reserving_whole_space(void);
void test_init_defaults(void);
void test_init_limits(void);
void test_root_name_copied(void);
void test_root_name_long(void);
void test_roots_are_independent(void);
void test_clean_null_and_empty(void);
void test_clean_after_everything_deleted(void);
void test_clean_counts_leaks(void);
void test_clean_reports_full_names(void);
void test_clean_ignores_untracked_entry(void);

/* restrack_unit_ids.c */
void test_new_bad_args(void);
void test_new_entry_state(void);
void test_add_auto_ids_start_at_reserved(void);
void test_add_cyclic_one_at_a_time(void);
void test_add_cyclic_freed_id_late(void);
void test_add_enospc_leaves_entry_untouched(void);
void test_add_error_leaves_unowned_entry_untouched(void);
void test_alloc_skips_claimed_and_deleting(void);
void test_claim_exact_id(void);
void test_claim_reserved_id(void);
void test_claim_busy(void);
void test_claim_busy_closes_untracked_qp_window(void);
void test_claim_out_of_range(void);
void test_claim_bad_args(void);
void test_claim_then_del_releases_id(void);
void test_add_double(void);
void test_add_bad_args(void);
void test_add_after_del(void);

/* restrack_unit_refs.c */
void test_get_put_balance(void);
void test_refcnt(void);
void test_get_fails_unless_live(void);
void test_put_without_reference(void);
void test_get_byid_finds_exact_entry(void);
void test_get_byid_not_found(void);
void test_get_byid_bad_args(void);
void test_begin_del_hides_and_keeps_id(void);
void test_commit_del_frees_id(void);
void test_abort_del_restores(void);
void test_del_sequence_errors(void);
void test_begin_del_waits_for_readers(void);
void test_del_waits_for_reader(void);
void test_begin_del_hides_while_waiting(void);
void test_sync_live_entry_stays_visible(void);
void test_sync_waits_for_reader(void);
void test_sync_hides_while_waiting(void);
void test_sync_not_live(void);

/* restrack_unit_query.c */
void test_count_per_type(void);
void test_count_filters(void);
void test_count_only_live_tracked(void);
void test_count_bad_args(void);
void test_no_track_entry(void);
void test_no_track_bad_args(void);
void test_set_name_driver_owned(void);
void test_set_name_long(void);
void test_set_name_null_is_current_task(void);
void test_attach_task_explicit(void);
void test_attach_task_current(void);
void test_attach_task_other_thread(void);
void test_parent_name(void);
void test_owner_busy_after_add(void);
void test_owner_bad_args(void);
void test_foreach_id_order(void);
void test_foreach_filter(void);
void test_foreach_early_stop(void);
void test_foreach_bad_args(void);

/* restrack_unit_dump.c */
void test_dump_fill_qp_lines(void);
void test_dump_default_attrs(void);
void test_format_qp_without_port(void);
void test_format_record(void);
void test_dump_attr_limits(void);
void test_dump_filter_and_order(void);
void test_dump_stop_values(void);
void test_dump_bad_args(void);
void test_summary_counts(void);

/* restrack_unit_bad.c */
void test_log_busy_insert(void);
void test_log_double_add(void);
void test_log_commit_without_begin(void);
void test_log_put_without_get(void);
void test_log_every_bad_call(void);
void test_get_byid_bulk(void);
void test_bad_calls_keep_table_consistent(void);
void test_bytes_per_entry(void);

#endif /* TEST_RESTRACK_UNIT_H */
