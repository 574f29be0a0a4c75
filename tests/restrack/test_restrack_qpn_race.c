/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The kernel's untracked-QP window, replayed with racing threads.
 *
 * In the kernel, QP destroy does rdma_restrack_begin_del (the QPN slot is reserved), then the
 * driver destroys the hardware QP and frees its QPN, then rdma_restrack_commit_del. A QP
 * created in between can get the same QPN from the driver; its rdma_restrack_add inserts at
 * that QPN, fails, and the QP lives on untracked. Here each thread runs that exact sequence:
 *
 *   destroy: begin_del(qpn) -> driver frees qpn (its own bitmap) -> yield -> commit_del
 *   create:  driver allocates the LOWEST free qpn (immediate reuse, the worst case)
 *            -> restrack_claim(qpn) -> on -EBUSY the driver skips that qpn and tries the next
 *            -> restrack_add
 * and, for half the creates, restrack chooses the QPN itself (RESTRACK_ID_ANY).
 *
 * Checked: an exact claim of a QPN in the window is always refused with -EBUSY (never
 * succeeds); the allocator never returns a QPN in the window; every QP the test considers
 * created is found by get_byid at its QPN and counted (no QP ever lives untracked); the window
 * was really hit (refusals were seen); at the end nothing leaks.
 */

#include <errno.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_log.h>

#include "restrack.h"
#include "stress.h"
#include "test.h"

#define QPN_SPACE	512u		/* small: the driver reuses QPNs immediately */
#define QPN_RESERVED	3u		/* irdma reserves QPs 0-2 */
#define QPS_PER_THREAD	32u		/* a power of two */
#define MAX_THREADS	16u

enum qpn_phase {
	QPN_FREE,
	QPN_CLAIMED,	/* claimed or live */
	QPN_WINDOW,	/* between begin_del and commit_del */
};

struct qp {
	struct restrack_entry e;
	bool live;
	bool driver_qpn;	/* its QPN came from the driver's bitmap */
};

struct racer {
	alignas(64) unsigned int idx;
	uint64_t rng;
	uint64_t ops;
	struct qp qps[QPS_PER_THREAD];
	uint64_t creates, destroys, busy, window_busy, auto_ids, errors;
};

static struct restrack_root *root;
/* The driver's own QPN bitmap (what irdma_alloc_rsrc keeps), one flag per QPN. */
static _Atomic bool driver_qpn_used[QPN_SPACE];
/* The test's view of each QPN, to catch the allocator handing out a QPN in the window. */
static _Atomic int qpn_phase[QPN_SPACE];
static struct racer racers[MAX_THREADS];
static unsigned int nb_threads;
static struct stress_args args = { .ops = 1000000, .threads = 4, .seed = 0xbadc0de };

static void
racer_fail(struct racer *r, const char *what, uint32_t qpn, int ret)
{
	if (r->errors++ < 10)
		printf("#   thread %u: %s (qpn %u, ret %d)\n", r->idx, what, qpn, ret);
}

/* The driver's allocator: lowest free QPN at or above `from`, like a bitmap search. */
static int
driver_alloc_qpn(uint32_t from)
{
	uint32_t q;

	for (q = RTE_MAX(from, QPN_RESERVED); q < QPN_SPACE; q++) {
		bool expected = false;

		if (!atomic_load_explicit(&driver_qpn_used[q], memory_order_relaxed) &&
		    atomic_compare_exchange_strong(&driver_qpn_used[q], &expected, true))
			return (int)q;
	}
	return -ENOSPC;
}

static void
driver_free_qpn(uint32_t qpn)
{
	atomic_store(&driver_qpn_used[qpn], false);
}

/* Mark a QPN as ours after restrack gave it to us; it must have been free. */
static void
take_phase(struct racer *r, uint32_t qpn, const char *how)
{
	int expected = QPN_FREE;

	if (!atomic_compare_exchange_strong(&qpn_phase[qpn], &expected, QPN_CLAIMED))
		racer_fail(r, expected == QPN_WINDOW ? how : "QPN handed out twice", qpn,
			   expected);
}

static void
create_qp(struct racer *r, struct qp *qp, bool driver_chooses)
{
	uint32_t from = QPN_RESERVED;
	int ret, qpn;

	restrack_new(&qp->e, RESTRACK_QP);
	restrack_attach_task(&qp->e, NULL);
	if (!driver_chooses) {
		/* restrack owns the QPN space: it must never return a QPN in the window. */
		ret = restrack_claim(root, &qp->e, RESTRACK_ID_ANY);
		if (ret != 0) {
			racer_fail(r, "auto claim failed", 0, ret);
			return;
		}
		qpn = (int)restrack_id(&qp->e);
		take_phase(r, (uint32_t)qpn, "allocator returned a QPN in the window");
		r->auto_ids++;
	} else {
		for (;;) {
			qpn = driver_alloc_qpn(from);
			if (qpn < 0) {
				racer_fail(r, "driver out of QPNs", 0, qpn);
				return;
			}
			ret = restrack_claim(root, &qp->e, (uint32_t)qpn);
			if (ret == 0)
				break;
			if (ret != -EBUSY) {
				racer_fail(r, "exact claim failed", (uint32_t)qpn, ret);
				driver_free_qpn((uint32_t)qpn);
				return;
			}
			/* Refused: restrack holds this QPN, live under restrack's own choice or
			 * in the kernel's window (the driver freed it but commit_del has not run).
			 * The driver gives the number back and searches on. */
			r->busy++;
			if (atomic_load(&qpn_phase[qpn]) == QPN_WINDOW)
				r->window_busy++;
			driver_free_qpn((uint32_t)qpn);
			from = (uint32_t)qpn + 1;
		}
		take_phase(r, (uint32_t)qpn, "exact claim succeeded on a QPN in the window");
	}
	ret = restrack_add(root, &qp->e);
	if (ret != 0) {
		racer_fail(r, "add after claim failed", (uint32_t)qpn, ret);
		return;
	}
	qp->live = true;
	qp->driver_qpn = driver_chooses;
	r->creates++;
}

static void
destroy_qp(struct racer *r, struct qp *qp)
{
	uint32_t qpn = restrack_id(&qp->e);
	int ret = restrack_begin_del(&qp->e);

	if (ret != 0) {
		racer_fail(r, "begin_del failed", qpn, ret);
		return;
	}
	atomic_store(&qpn_phase[qpn], QPN_WINDOW);
	if (qp->driver_qpn)
		driver_free_qpn(qpn);	/* the hardware QP is gone; the driver reuses its number */
	sched_yield();			/* widen the window: let the other threads create QPs */
	atomic_store(&qpn_phase[qpn], QPN_FREE);
	ret = restrack_commit_del(&qp->e);
	if (ret != 0)
		racer_fail(r, "commit_del failed", qpn, ret);
	qp->live = false;
	r->destroys++;
}

static void *
racer_main(void *arg)
{
	struct racer *r = arg;
	uint64_t i;

	for (i = 0; i < r->ops; i++) {
		uint64_t x = stress_rand(&r->rng);
		struct qp *qp = &r->qps[(x >> 8) & (QPS_PER_THREAD - 1)];

		if (qp->live)
			destroy_qp(r, qp);
		else
			create_qp(r, qp, x & 1);
	}
	return NULL;
}

/* Every QP the test thinks exists is tracked, at its QPN, and nothing else is. */
static void
check_all_tracked(void)
{
	unsigned int t, i;
	int live = 0;

	for (t = 0; t < nb_threads; t++) {
		TEST_CHECK_EQ(racers[t].errors, 0);
		for (i = 0; i < QPS_PER_THREAD; i++) {
			struct qp *qp = &racers[t].qps[i];
			struct restrack_entry *e = NULL;

			if (!qp->live)
				continue;
			live++;
			TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, restrack_id(&qp->e), &e),
				      0);
			TEST_CHECK(e == &qp->e);
			if (e != NULL)
				restrack_put(e);
		}
	}
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), live);
}

static void
test_qpn_reuse_never_untracked(void)
{
	struct restrack_config cfg = { 0 };
	uint64_t creates = 0, destroys = 0, busy = 0, window_busy = 0, auto_ids = 0;
	unsigned int round, t, i;

	cfg.type[RESTRACK_QP].nb_ids = QPN_SPACE;
	cfg.type[RESTRACK_QP].nb_reserved = QPN_RESERVED;
	TEST_CHECK_EQ(restrack_init("qpnrace0", &cfg, &root), 0);
	for (t = 0; t < nb_threads; t++) {
		racers[t].idx = t;
		racers[t].rng = args.seed * (t + 1) | 1;
		racers[t].ops = args.ops / 4 / nb_threads;
	}
	for (round = 0; round < 4; round++) {
		TEST_CHECK_EQ(stress_run_threads(nb_threads, racer_main, racers,
						 sizeof(racers[0])), 0);
		check_all_tracked();
	}
	for (t = 0; t < nb_threads; t++) {
		creates += racers[t].creates;
		destroys += racers[t].destroys;
		busy += racers[t].busy;
		window_busy += racers[t].window_busy;
		auto_ids += racers[t].auto_ids;
		for (i = 0; i < QPS_PER_THREAD; i++) {
			if (racers[t].qps[i].live) {
				if (racers[t].qps[i].driver_qpn)
					driver_free_qpn(restrack_id(&racers[t].qps[i].e));
				TEST_CHECK_EQ(restrack_del(&racers[t].qps[i].e), 0);
				destroys++;
			}
		}
	}
	printf("# %u threads: %lu QPs created (%lu with restrack's QPN), %lu destroyed, "
	       "%lu driver QPNs refused with -EBUSY, %lu of them inside the window\n",
	       nb_threads, (unsigned long)creates, (unsigned long)auto_ids,
	       (unsigned long)destroys, (unsigned long)busy, (unsigned long)window_busy);
	TEST_CHECK_EQ(creates, destroys);
	/* The window must have been exercised, or this test proved nothing. */
	TEST_CHECK(window_busy > 0);
	TEST_CHECK(auto_ids > 0);
	TEST_CHECK_EQ(restrack_count(root, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

int
main(int argc, char **argv)
{
	if (stress_parse(argc, argv, &args) != 0)
		return EXIT_FAILURE;
	nb_threads = RTE_MIN(args.threads, MAX_THREADS);
	/* Refused claims are the point of this test: keep their log lines out of the output. */
	rte_log_set_level_pattern("lib.restrack", RTE_LOG_CRIT);
	printf("# seed %#lx\n", (unsigned long)args.seed);
	TEST_RUN(test_qpn_reuse_never_untracked);
	return test_done();
}
