/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Concurrency stress for lib/restrack: several threads add, look up, get/put, delete in one
 * step, delete in two steps (commit or abort), sync, count and walk the same root at once.
 * After every phase the threads stop and the table is checked against the test's own record
 * of what it created:
 *  - no ID is held by two live entries (a shadow table CASed on every add);
 *  - the counts equal the live entries, per type;
 *  - every live entry is found by its ID, and only live entries are;
 *  - every reference taken was put back (each live entry holds exactly its birth reference);
 *  - at the end everything is deleted and restrack_clean reports no leak.
 * Lookups verify the object they get back: right ID, right type, alive (its owner poisons it
 * after begin_del, so a lookup that returns an object being destroyed is caught, and under
 * TSan so is any access not ordered by the reference count).
 */

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "restrack.h"
#include "stress.h"
#include "test.h"

#define ID_SPACE	2048u		/* per type; small, so IDs are reused all the time */
#define NB_RESERVED	3u
#define OBJS_PER_THREAD	128u		/* a power of two: picked with a mask */
#define PHASES		8u
#define MAX_THREADS	16u

#define OBJ_ALIVE	UINT64_C(0xa11fea11fea11fe5)
#define OBJ_DEAD	UINT64_C(0xdeadbeefdeadbeef)

static const enum restrack_type used_types[] = { RESTRACK_QP, RESTRACK_CQ, RESTRACK_MR };
#define NB_USED RTE_DIM(used_types)

struct obj {
	struct restrack_entry e;	/* first: an entry pointer is an object pointer */
	uint64_t magic;			/* OBJ_ALIVE from before add until begin_del returns */
	unsigned int thread;
	unsigned int type_idx;
	bool live;			/* the owner's view; read by others only between phases */
	_Atomic uint32_t pub_id;	/* last ID it was added at, a lookup target for others */
};

struct worker {
	alignas(64) unsigned int idx;
	uint64_t rng;
	uint64_t ops;
	struct obj objs[OBJS_PER_THREAD];
	/* what this thread did, for the report and the balance checks */
	uint64_t adds, dels, aborts, syncs, lookups, hits, counts, walks;
	uint64_t errors;
};

static struct restrack_root *root;
static _Atomic(struct obj *) shadow[NB_USED][ID_SPACE];
static struct worker workers[MAX_THREADS];
static unsigned int nb_threads;

/* Record a broken expectation seen by a worker; the first few are printed. */
static void __attribute__((format(printf, 2, 3)))
worker_fail(struct worker *w, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	w->errors++;
	if (w->errors > 10)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("#   thread %u: %s\n", w->idx, msg);
}
#define WORKER_FAIL worker_fail

static int
check_obj(struct worker *w, struct restrack_entry *e, unsigned int type_idx, uint32_t id)
{
	struct obj *o = (struct obj *)e;

	if (o->magic != OBJ_ALIVE) {
		WORKER_FAIL(w, "lookup of %s %u returned an object that is not alive (%#lx)",
			    restrack_type_name(used_types[type_idx]), id,
			    (unsigned long)o->magic);
		return -1;
	}
	if (restrack_id(e) != id || o->type_idx != type_idx) {
		WORKER_FAIL(w, "lookup of %s %u returned %s %u",
			    restrack_type_name(used_types[type_idx]), id,
			    restrack_type_name(used_types[o->type_idx]), restrack_id(e));
		return -1;
	}
	return 0;
}

static void
op_add(struct worker *w, struct obj *o, uint64_t r)
{
	enum restrack_type type = used_types[o->type_idx];
	struct obj *expected = NULL;
	int ret;

	restrack_new(&o->e, type);
	if (r & 1)
		restrack_set_name(&o->e, "irdma_stress");
	else
		restrack_attach_task(&o->e, NULL);
	o->magic = OBJ_ALIVE;
	if (r & 2) {
		ret = restrack_claim(root, &o->e, RESTRACK_ID_ANY);
		if (ret == 0)
			ret = restrack_add(root, &o->e);
	} else {
		ret = restrack_add(root, &o->e);
	}
	if (ret != 0) {
		WORKER_FAIL(w, "add of a %s failed: %d", restrack_type_name(type), ret);
		return;
	}
	if (restrack_id(&o->e) < NB_RESERVED || restrack_id(&o->e) >= ID_SPACE)
		WORKER_FAIL(w, "allocator returned %s %u, outside %u..%u",
			    restrack_type_name(type), restrack_id(&o->e), NB_RESERVED,
			    ID_SPACE - 1);
	else if (!atomic_compare_exchange_strong(&shadow[o->type_idx][restrack_id(&o->e)],
						 &expected, o))
		WORKER_FAIL(w, "%s %u handed to two live entries", restrack_type_name(type),
			    restrack_id(&o->e));
	o->live = true;
	atomic_store_explicit(&o->pub_id, restrack_id(&o->e), memory_order_relaxed);
	w->adds++;
}

static void
op_delete(struct worker *w, struct obj *o, uint64_t r)
{
	uint32_t id = restrack_id(&o->e);
	struct restrack_entry *found;
	bool abort_it = (r & 7) == 0;

	if (restrack_begin_del(&o->e) != 0) {
		WORKER_FAIL(w, "begin_del failed on a live entry");
		return;
	}
	/* Hidden from lookups now, and nobody else holds a reference. */
	if (restrack_get_byid(root, used_types[o->type_idx], id, &found) == 0) {
		WORKER_FAIL(w, "%u found after begin_del", id);
		restrack_put(found);
	}
	if (abort_it) {
		if (restrack_abort_del(&o->e) != 0)
			WORKER_FAIL(w, "abort_del failed");
		w->aborts++;
		return;
	}
	o->magic = OBJ_DEAD;	/* only the owner can reach it now */
	o->live = false;
	/* Before commit: once the ID is free another thread may take it. */
	atomic_store(&shadow[o->type_idx][id], NULL);
	if (restrack_commit_del(&o->e) != 0)
		WORKER_FAIL(w, "commit_del failed");
	w->dels++;
}

static void
op_lookup(struct worker *w, uint64_t r)
{
	unsigned int type_idx = (unsigned int)((r >> 8) % NB_USED);
	uint32_t id = (uint32_t)(r >> 32) & (ID_SPACE - 1);
	struct restrack_entry *e;
	int ret;

	if (r & 1) {
		/* Half the lookups aim at an ID some thread added recently: mostly hits. */
		struct obj *o = &workers[(r >> 16) % nb_threads].objs[id & (OBJS_PER_THREAD - 1)];

		type_idx = o->type_idx;
		id = atomic_load_explicit(&o->pub_id, memory_order_relaxed);
	}

	w->lookups++;
	ret = restrack_get_byid(root, used_types[type_idx], id, &e);
	if (ret == -ENOENT)
		return;
	if (ret != 0) {
		WORKER_FAIL(w, "get_byid(%u) returned %d", id, ret);
		return;
	}
	w->hits++;
	check_obj(w, e, type_idx, id);
	/* A nested reference on the same entry must also balance. It may be refused: the
	 * owner may have begun deleting (or syncing) it while we hold our reference. */
	ret = restrack_get(e);
	if (ret == 0 && restrack_put(e) != 0)
		WORKER_FAIL(w, "nested put failed");
	else if (ret != 0 && ret != -ENOENT)
		WORKER_FAIL(w, "nested get returned %d", ret);
	if (restrack_put(e) != 0)
		WORKER_FAIL(w, "put after get_byid failed");
}

struct walk_ctx {
	struct worker *w;
	unsigned int type_idx;
	int visited;
};

static int
walk_cb(struct restrack_entry *e, void *arg)
{
	struct walk_ctx *ctx = arg;

	check_obj(ctx->w, e, ctx->type_idx, restrack_id(e));
	ctx->visited++;
	return 0;
}

static void
op_walk(struct worker *w, uint64_t r)
{
	struct walk_ctx ctx = { .w = w, .type_idx = (unsigned int)(r % NB_USED) };
	int n, max = (int)(nb_threads * OBJS_PER_THREAD);

	n = restrack_count(root, used_types[ctx.type_idx], NULL);
	if (n < 0 || n > max)
		WORKER_FAIL(w, "count %d outside 0..%d", n, max);
	w->counts++;
	if ((r >> 20) & 1) {
		if (restrack_foreach(root, used_types[ctx.type_idx], NULL, walk_cb, &ctx) != 0 ||
		    ctx.visited > max)
			WORKER_FAIL(w, "walk visited %d", ctx.visited);
		w->walks++;
	}
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t i;

	for (i = 0; i < w->ops; i++) {
		uint64_t r = stress_rand(&w->rng);
		struct obj *o = &w->objs[(r >> 40) & (OBJS_PER_THREAD - 1)];
		unsigned int pick = (unsigned int)(r & 1023);

		if (pick < 600) {
			op_lookup(w, r);
		} else if (pick < 1010) {
			if (!o->live) {
				op_add(w, o, r >> 16);
			} else if (pick < 980) {
				op_delete(w, o, r >> 16);
			} else if (restrack_sync(&o->e) == 0) {
				w->syncs++;
			} else {
				WORKER_FAIL(w, "sync of a live entry failed");
			}
		} else {
			op_walk(w, r >> 12);
		}
	}
	return NULL;
}

/* The threads are stopped: compare the table with what they say they created. */
static void
check_phase(void)
{
	unsigned int t, i, k;
	int live[NB_USED] = { 0 };

	for (t = 0; t < nb_threads; t++) {
		TEST_CHECK_EQ(workers[t].errors, 0);
		for (i = 0; i < OBJS_PER_THREAD; i++) {
			struct obj *o = &workers[t].objs[i];
			struct restrack_entry *e;
			uint32_t id = restrack_id(&o->e);

			if (!o->live) {
				TEST_CHECK(restrack_get(&o->e) != 0);
				continue;
			}
			live[o->type_idx]++;
			TEST_CHECK_EQ(restrack_refcnt(&o->e), 1);
			TEST_CHECK(atomic_load(&shadow[o->type_idx][id]) == o);
			TEST_CHECK_EQ(restrack_get_byid(root, used_types[o->type_idx], id, &e), 0);
			TEST_CHECK(e == &o->e);
			TEST_CHECK_EQ(restrack_put(&o->e), 0);
		}
	}
	for (k = 0; k < NB_USED; k++) {
		int found = 0;
		uint32_t id;

		TEST_CHECK_EQ(restrack_count(root, used_types[k], NULL), live[k]);
		for (id = 0; id < ID_SPACE; id++) {
			struct restrack_entry *e;

			if (restrack_get_byid(root, used_types[k], id, &e) != 0) {
				TEST_CHECK(atomic_load(&shadow[k][id]) == NULL);
				continue;
			}
			found++;
			TEST_CHECK(e == (struct restrack_entry *)atomic_load(&shadow[k][id]));
			restrack_put(e);
		}
		TEST_CHECK_EQ(found, live[k]);
	}
}

static struct stress_args args = { .ops = 1000000, .threads = 4, .seed = 0x5eed };

static void
test_stress_phases(void)
{
	struct restrack_config cfg = { 0 };
	uint64_t total = 0, adds = 0, dels = 0, aborts = 0, hits = 0, lookups = 0, syncs = 0;
	uint64_t walks = 0;
	unsigned int p, t, k, i;

	for (k = 0; k < NB_USED; k++) {
		cfg.type[used_types[k]].nb_ids = ID_SPACE;
		cfg.type[used_types[k]].nb_reserved = NB_RESERVED;
	}
	TEST_CHECK_EQ(restrack_init("stress0", &cfg, &root), 0);
	for (t = 0; t < nb_threads; t++) {
		workers[t].idx = t;
		workers[t].rng = args.seed * (t + 1) | 1;
		workers[t].ops = args.ops / PHASES / nb_threads;
		for (i = 0; i < OBJS_PER_THREAD; i++) {
			workers[t].objs[i].thread = t;
			workers[t].objs[i].type_idx = (t + i) % NB_USED;
		}
	}
	for (p = 0; p < PHASES; p++) {
		TEST_CHECK_EQ(stress_run_threads(nb_threads, worker_main, workers,
						 sizeof(workers[0])), 0);
		check_phase();
	}
	for (t = 0; t < nb_threads; t++) {
		struct worker *w = &workers[t];

		total += w->ops * PHASES;
		adds += w->adds;
		dels += w->dels;
		aborts += w->aborts;
		lookups += w->lookups;
		hits += w->hits;
		syncs += w->syncs;
		walks += w->walks;
		for (i = 0; i < OBJS_PER_THREAD; i++) {
			if (!w->objs[i].live)
				continue;
			TEST_CHECK_EQ(restrack_del(&w->objs[i].e), 0);
			w->objs[i].live = false;
			dels++;
		}
	}
	printf("# %u threads, %lu ops: %lu adds, %lu deletes, %lu aborted deletes, %lu syncs, "
	       "%lu lookups (%lu hits), %lu walks\n", nb_threads, (unsigned long)total,
	       (unsigned long)adds, (unsigned long)dels, (unsigned long)aborts,
	       (unsigned long)syncs, (unsigned long)lookups, (unsigned long)hits,
	       (unsigned long)walks);
	TEST_CHECK(total >= args.ops - PHASES * nb_threads);
	TEST_CHECK_EQ(adds, dels);
	TEST_CHECK(hits > 0 && aborts > 0 && syncs > 0 && walks > 0);
	for (k = 0; k < NB_USED; k++)
		TEST_CHECK_EQ(restrack_count(root, used_types[k], NULL), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

int
main(int argc, char **argv)
{
	if (stress_parse(argc, argv, &args) != 0)
		return EXIT_FAILURE;
	nb_threads = RTE_MIN(args.threads, MAX_THREADS);
	printf("# seed %#lx\n", (unsigned long)args.seed);
	TEST_RUN(test_stress_phases);
	return test_done();
}
