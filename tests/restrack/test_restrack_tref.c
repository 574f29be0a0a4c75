/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Unit tests of restrack's thread reference caches (restrack.c, "Thread reference caches"):
 * a lookup counts its reference in the calling thread's cache, and everything that counts
 * references must still add up: restrack_refcnt(), a put from another thread, a thread that
 * exits holding references, more nested references than a cache slot holds, two entries that
 * share a cache slot, and deleters (begin_del, sync) that must wait for a reference cached by
 * another thread.
 *
 * With RESTRACK_THREAD_CACHE=0 (meson runs the file both ways) every reference is counted in
 * the slots; the same cases must then pass with the word's own count.
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>

#include "restrack.h"
#include "test.h"

/*
 * A case that has not ended by then hangs. Deleters wait (drain) until the reader threads
 * give their references back, so a case's time grows with the machine's load: at a load of
 * 25 (CPU hogs on both cores, a sanitizer build) one took over 30 s. meson's timeout of the
 * whole program is 120 s.
 */
#define WATCHDOG_SECONDS 100
#define HOLD_MS 150		/* how long a holder keeps its reference while a deleter waits */

#define RUN(fn) TEST_RUN(fn)
#define sleep_ms test_sleep_ms

/* Whether this run expects caches: on unless turned off, where membarrier() works. */
static bool
caches_expected(void)
{
	const char *env = getenv("RESTRACK_THREAD_CACHE");
	long q;

	if (env != NULL && strcmp(env, "0") == 0)
		return false;
	q = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	return q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

/* The reference count the ID's reference word holds itself (the rest is in thread caches). */
static int64_t
word_count(const struct restrack_entry *e)
{
	return RESTRACK_REF_COUNT(atomic_load(e->ref));
}

/* The slot of a QP ID, as lookups read it: entry | THREAD | LIVE. */
static uint64_t
qp_slot(struct restrack_root *root, uint32_t id)
{
	return atomic_load(&((struct restrack_root_fast *)root)->table[RESTRACK_QP].slots[id]);
}

static struct restrack_root *
make_root(const char *name)
{
	struct restrack_config cfg;
	struct restrack_root *root = NULL;

	memset(&cfg, 0, sizeof(cfg));
	cfg.type[RESTRACK_QP].nb_ids = 1024;
	cfg.type[RESTRACK_QP].nb_reserved = 3;
	TEST_CHECK_EQ(restrack_init(name, &cfg, &root), 0);
	TEST_CHECK(root != NULL);
	return root;
}

/* A live QP entry named "tref" at an ID restrack picks. */
static void
add_qp(struct restrack_root *root, struct restrack_entry *e)
{
	TEST_CHECK_EQ(restrack_new(e, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_set_name(e, "tref"), 0);
	TEST_CHECK_EQ(restrack_add(root, e), 0);
}

static void
del_and_clean(struct restrack_root *root, struct restrack_entry *e)
{
	TEST_CHECK_EQ(restrack_del(e), 0);
	TEST_CHECK_EQ(restrack_clean(root), 0);
}

/* ---------------------------------------------------------------------------------------- */

/* restrack_thread_cache_on() says what the machine allows, and lookups use the cache then. */
static void
test_cache_state(void)
{
	struct restrack_root *root = make_root("tref0");
	struct restrack_entry e, *got = NULL;

	add_qp(root, &e);
	TEST_CHECK_EQ(restrack_thread_cache_on(), caches_expected());
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, e.id, &got), 0);
	TEST_CHECK(got == &e);
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 3);
	/* Cached: the word keeps only the birth reference. Not cached: all three. */
	TEST_CHECK_EQ(word_count(&e), restrack_thread_cache_on() ? 1 : 3);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	TEST_CHECK_EQ(word_count(&e), 1);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);	/* put without a get */
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	del_and_clean(root, &e);
}

struct put_arg {
	struct restrack_entry *e;
	int n;		/* puts to do */
	int rc[4];	/* what each returned */
};

static void *
put_thread(void *arg)
{
	struct put_arg *p = arg;
	int i;

	for (i = 0; i < p->n; i++)
		p->rc[i] = restrack_put(p->e);
	return NULL;
}

/* Puts from another thread, on an explicit-ID entry */
static void
run_puts_elsewhere(struct restrack_entry *e, int n, const int *want)
{
	struct put_arg p = { .e = e, .n = n };
	pthread_t t;
	int i;

	TEST_CHECK_EQ(pthread_create(&t, NULL, put_thread, &p), 0);
	TEST_CHECK_EQ(pthread_join(t, NULL), 0);
	for (i = 0; i < n; i++)
		TEST_CHECK_EQ(p.rc[i], want[i]);
}

/*
 * A reference taken here and dropped by another thread: the word goes below its floor, the
 * sum stays right, and deletion and a new object at the same ID are not thrown off.
 */
static void
test_put_from_other_thread(void)
{
	static const int ok_then_bad[2] = { 0, -EINVAL };
	struct restrack_root *root = make_root("tref1");
	struct restrack_entry e, e2, *got = NULL;
	uint32_t id;

	add_qp(root, &e);
	id = e.id;
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 2);
	/* The other thread drops our reference, then tries once more: nothing left to drop. */
	run_puts_elsewhere(&e, 2, ok_then_bad);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	if (restrack_thread_cache_on())
		TEST_CHECK_EQ(word_count(&e), 0);	/* 1 birth - 1 put; +1 in our cache */
	TEST_CHECK_EQ(restrack_del(&e), 0);		/* returns: nothing is held */

	/* A new object at the same ID starts from one reference, and deletes cleanly. */
	TEST_CHECK_EQ(restrack_new(&e2, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_set_name(&e2, "tref"), 0);
	TEST_CHECK_EQ(restrack_claim(root, &e2, id), 0);
	TEST_CHECK_EQ(restrack_add(root, &e2), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e2), 1);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), 0);
	TEST_CHECK(got == &e2);
	TEST_CHECK_EQ(restrack_refcnt(&e2), 2);
	TEST_CHECK_EQ(restrack_put(&e2), 0);
	TEST_CHECK_EQ(restrack_put(&e2), -EINVAL);
	del_and_clean(root, &e2);
}

/* A holder thread: takes a reference, reports, holds it until told, drops it. */
struct holder {
	struct restrack_root *root;
	uint32_t id;
	_Atomic int taken;	/* 1 once the reference is held */
	_Atomic int release;	/* set by the test: drop it now */
	int get_rc, again_rc, put_rc;
};

static void *
holder_thread(void *arg)
{
	struct holder *h = arg;
	struct restrack_entry *got = NULL, *again = NULL;

	h->get_rc = restrack_get_byid(h->root, RESTRACK_QP, h->id, &got);
	atomic_store(&h->taken, 1);
	while (!atomic_load(&h->release))
		sleep_ms(1);
	/* The deleter has hidden the entry meanwhile: a new lookup must fail. */
	h->again_rc = restrack_get_byid(h->root, RESTRACK_QP, h->id, &again);
	if (h->again_rc == 0)
		restrack_put(again);
	h->put_rc = got != NULL ? restrack_put(got) : -EINVAL;
	return NULL;
}

struct deleter {
	struct restrack_entry *e;
	bool sync;		/* restrack_sync instead of begin_del */
	_Atomic int done;
	int rc;
};

static void *
deleter_thread(void *arg)
{
	struct deleter *d = arg;

	d->rc = d->sync ? restrack_sync(d->e) : restrack_begin_del(d->e);
	atomic_store(&d->done, 1);
	return NULL;
}

/* A deleter (begin_del or sync) waits for a reference another thread holds in its cache. */
static void
wait_for_holder(bool sync)
{
	struct restrack_root *root = make_root("tref2");
	struct holder h = { .root = root };
	struct deleter d = { .sync = sync };
	struct restrack_entry e;
	pthread_t th, td;

	add_qp(root, &e);
	h.id = e.id;
	d.e = &e;
	TEST_CHECK_EQ(pthread_create(&th, NULL, holder_thread, &h), 0);
	while (!atomic_load(&h.taken))
		sleep_ms(1);
	TEST_CHECK_EQ(h.get_rc, 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 2);
	TEST_CHECK_EQ(pthread_create(&td, NULL, deleter_thread, &d), 0);
	sleep_ms(HOLD_MS);
	/* Whatever the scheduling, the deleter cannot be done: the reference is still held. */
	TEST_CHECK_EQ(atomic_load(&d.done), 0);
	atomic_store(&h.release, 1);
	TEST_CHECK_EQ(pthread_join(th, NULL), 0);
	TEST_CHECK_EQ(pthread_join(td, NULL), 0);
	TEST_CHECK_EQ(atomic_load(&d.done), 1);
	TEST_CHECK_EQ(d.rc, 0);
	TEST_CHECK_EQ(h.again_rc, -ENOENT);
	TEST_CHECK_EQ(h.put_rc, 0);
	if (sync) {
		TEST_CHECK_EQ(restrack_refcnt(&e), 1);	/* live again, birth reference only */
		del_and_clean(root, &e);
	} else {
		TEST_CHECK_EQ(restrack_refcnt(&e), 0);
		TEST_CHECK_EQ(restrack_commit_del(&e), 0);
		TEST_CHECK_EQ(restrack_clean(root), 0);
	}
}

static void
test_begin_del_waits_for_cached_ref(void)
{
	wait_for_holder(false);
}

static void
test_sync_waits_for_cached_ref(void)
{
	wait_for_holder(true);
}

struct exiter {
	struct restrack_root *root;
	uint32_t id;
	int rc;
};

static void *
get_and_exit(void *arg)
{
	struct exiter *x = arg;
	struct restrack_entry *got = NULL;

	x->rc = restrack_get_byid(x->root, RESTRACK_QP, x->id, &got);
	return NULL;	/* exits holding the reference */
}

struct churner {
	struct restrack_root *root;
	struct restrack_entry *e;
	int n;
	int errors;
};

static void *
get_put_loop(void *arg)
{
	struct churner *c = arg;
	struct restrack_entry *got;
	int i, j;

	for (i = 0; i < 1000; i++)
		for (j = 0; j < c->n; j++) {
			got = NULL;
			if (restrack_get_byid(c->root, RESTRACK_QP, c->e[j].id, &got) != 0 ||
			    got != &c->e[j] || restrack_put(got) != 0)
				c->errors++;
		}
	return NULL;
}

/*
 * A thread that exits holding a reference leaves it counted (its cache outlives it): the
 * reference can still be dropped by another thread, and the next thread takes over the cache.
 */
static void
test_thread_exits_holding_ref(void)
{
	static const int ok[1] = { 0 };
	struct restrack_root *root = make_root("tref3");
	struct restrack_entry e[8];
	struct exiter x = { .root = root };
	struct churner c = { .root = root, .e = e, .n = 8 };
	pthread_t t;
	int i;

	for (i = 0; i < 8; i++)
		add_qp(root, &e[i]);
	x.id = e[0].id;
	TEST_CHECK_EQ(pthread_create(&t, NULL, get_and_exit, &x), 0);
	TEST_CHECK_EQ(pthread_join(t, NULL), 0);
	TEST_CHECK_EQ(x.rc, 0);
	TEST_CHECK_EQ(restrack_refcnt(&e[0]), 2);
	/* A new thread (likely on the dead thread's cache) churns every entry. */
	TEST_CHECK_EQ(pthread_create(&t, NULL, get_put_loop, &c), 0);
	TEST_CHECK_EQ(pthread_join(t, NULL), 0);
	TEST_CHECK_EQ(c.errors, 0);
	TEST_CHECK_EQ(restrack_refcnt(&e[0]), 2);
	for (i = 1; i < 8; i++)
		TEST_CHECK_EQ(restrack_refcnt(&e[i]), 1);
	run_puts_elsewhere(&e[0], 1, ok);	/* the dead thread's reference, dropped */
	TEST_CHECK_EQ(restrack_refcnt(&e[0]), 1);
	TEST_CHECK_EQ(restrack_put(&e[0]), -EINVAL);
	for (i = 7; i > 0; i--)
		TEST_CHECK_EQ(restrack_del(&e[i]), 0);
	del_and_clean(root, &e[0]);
}

/* More nested references from one thread than a cache slot counts: the rest on the word. */
static void
test_nested_beyond_slot(void)
{
	struct restrack_root *root = make_root("tref4");
	struct restrack_entry e, *got;
	int i;

	add_qp(root, &e);
	for (i = 0; i < 40; i++) {
		got = NULL;
		TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, e.id, &got), 0);
		TEST_CHECK(got == &e);
	}
	TEST_CHECK_EQ(restrack_refcnt(&e), 41);
	/* Cached: RESTRACK_TREF_MAX in the slot, the rest (and birth) on the word. */
	TEST_CHECK_EQ(word_count(&e), restrack_thread_cache_on() ? 41 - RESTRACK_TREF_MAX : 41);
	for (i = 0; i < 40; i++)
		TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);
	TEST_CHECK_EQ(word_count(&e), 1);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	del_and_clean(root, &e);
}

/*
 * Two entries whose addresses pick the same cache slot. The second one's get moves the first
 * one's cached count to its word and takes the slot: counts add up throughout, and a slot that
 * a handed-off reference held (taken here, dropped by another thread) is freed the same way.
 */
static void
test_entries_sharing_a_slot(void)
{
	static const int ok[1] = { 0 };
	/* Entries RESTRACK_TREF_SLOTS * 64 bytes apart share a cache slot. */
	static union {
		unsigned char bytes[2 * RESTRACK_TREF_SLOTS * 64];
		struct restrack_entry first;
	} mem __attribute__((aligned(64)));
	struct restrack_entry *a = &mem.first, *got;
	struct restrack_entry *b = (struct restrack_entry *)(void *)
				   &mem.bytes[RESTRACK_TREF_SLOTS * 64];
	struct restrack_root *root = make_root("tref5");
	bool on = restrack_thread_cache_on();

	add_qp(root, a);
	add_qp(root, b);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, a->id, &got), 0);
	TEST_CHECK(got == a);
	if (on)
		TEST_CHECK_EQ(word_count(a), 1);	/* a's reference is in the cache */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, b->id, &got), 0);
	TEST_CHECK(got == b);
	TEST_CHECK_EQ(restrack_refcnt(a), 2);
	TEST_CHECK_EQ(restrack_refcnt(b), 2);
	if (on) {
		TEST_CHECK_EQ(word_count(a), 2);	/* moved to a's word */
		TEST_CHECK_EQ(word_count(b), 1);	/* b holds the slot now */
	}
	TEST_CHECK_EQ(restrack_put(a), 0);		/* from the word */
	TEST_CHECK_EQ(restrack_put(b), 0);		/* from the cache */
	TEST_CHECK_EQ(restrack_refcnt(a), 1);
	TEST_CHECK_EQ(restrack_refcnt(b), 1);
	TEST_CHECK_EQ(word_count(a), 1);
	TEST_CHECK_EQ(word_count(b), 1);

	/* A handed-off reference: taken here (cached), dropped by another thread (word). */
	TEST_CHECK_EQ(restrack_get(a), 0);
	run_puts_elsewhere(a, 1, ok);
	TEST_CHECK_EQ(restrack_refcnt(a), 1);
	if (on)
		TEST_CHECK_EQ(word_count(a), 0);
	TEST_CHECK_EQ(restrack_get(b), 0);		/* frees the slot a's count held */
	TEST_CHECK_EQ(restrack_refcnt(a), 1);
	TEST_CHECK_EQ(word_count(a), 1);
	TEST_CHECK_EQ(restrack_refcnt(b), 2);
	if (on)
		TEST_CHECK_EQ(word_count(b), 1);
	TEST_CHECK_EQ(restrack_put(b), 0);
	TEST_CHECK_EQ(restrack_del(b), 0);
	del_and_clean(root, a);
}

/* restrack_clean() leaves no count behind in any thread's cache for the root it frees. */
static void
test_clean_forgets_cached_counts(void)
{
	static const int ok[1] = { 0 };
	struct restrack_root *root = make_root("tref8");
	struct restrack_entry e;
	_Atomic uint64_t *ts;
	uint64_t key;

	add_qp(root, &e);
	key = e.tkey;
	TEST_CHECK_EQ(restrack_get(&e), 0);
	run_puts_elsewhere(&e, 1, ok);			/* our cache keeps +1, the word -1 */
	TEST_CHECK_EQ(restrack_del(&e), 0);
	ts = restrack_tref_slot_of(restrack_tref_self, &e);
	if (!restrack_thread_cache_on()) {
		TEST_CHECK_EQ(restrack_clean(root), 0);
		return;
	}
	TEST_CHECK_EQ(atomic_load(ts), key + 1);
	TEST_CHECK_EQ(restrack_clean(root), 0);
	TEST_CHECK_EQ(atomic_load(ts), 0);
}

/* An untracked entry's reference word dies with it: never cached. */
static void
test_no_track_not_cached(void)
{
	struct restrack_root *root = make_root("tref6");
	struct restrack_entry e;

	TEST_CHECK_EQ(restrack_new(&e, RESTRACK_MR), 0);
	TEST_CHECK_EQ(restrack_set_name(&e, "tref"), 0);
	TEST_CHECK_EQ(restrack_no_track(&e), 0);
	TEST_CHECK_EQ(restrack_add(root, &e), 0);
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_get(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 3);
	TEST_CHECK_EQ(word_count(&e), 3);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_put(&e), -EINVAL);
	del_and_clean(root, &e);
}

/*
 * Many threads take and drop references on the same few entries while the test hides them
 * (begin_del) and shows them again (abort_del). hidden[k] is 1 from begin_del's return to just
 * before abort_del: a reader holding a reference must never see it 1, since begin_del waits
 * for every reference taken before it and every later get fails.
 */
static _Atomic int hidden[4];

struct mixer {
	struct restrack_root *root;
	uint32_t ids[4];
	_Atomic int *stop;
	_Atomic long found;	/* read by the main thread while the reader runs */
	long errors;
};

static void *
mix_thread(void *arg)
{
	struct mixer *m = arg;
	struct restrack_entry *got[3];
	unsigned int i = 0, k;

	while (!atomic_load_explicit(m->stop, memory_order_relaxed)) {
		/* hold up to three at once, nested, then drop them in another order */
		for (k = 0; k < 3; k++) {
			got[k] = NULL;
			if (restrack_get_byid(m->root, RESTRACK_QP, m->ids[(i + k) & 3],
					      &got[k]) == 0) {
				atomic_fetch_add_explicit(&m->found, 1, memory_order_relaxed);
				if (atomic_load(&hidden[(i + k) & 3]))
					m->errors++;
			}
		}
		for (k = 3; k-- > 0;)
			if (got[(k + i) % 3] != NULL && restrack_put(got[(k + i) % 3]) != 0)
				m->errors++;
		i++;
	}
	return NULL;
}

/*
 * What lookups read, state by state: the slot names the entry with LIVE while it is live,
 * without LIVE while it is hidden, and nothing once the ID is free; THREAD, set by the first
 * lookup that cached a reference (and only with caches), belongs to the ID and stays through
 * deletion and the next owner, whose first lookup then takes the fast way.
 */
static void
test_slot_states(void)
{
	const uint64_t live = RESTRACK_SLOT_LIVE, thr = RESTRACK_SLOT_THREAD;
	struct restrack_root *root = make_root("tref9");
	struct restrack_entry e, f, *got = NULL;
	uint64_t cached = restrack_thread_cache_on() ? thr : 0;
	_Atomic uint64_t *ts;
	uint32_t id;

	add_qp(root, &e);
	id = e.id;
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&e | live);
	/* The first lookup goes the general way and, with caches, marks the ID THREAD. */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), 0);
	TEST_CHECK(got == &e);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&e | live | cached);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	/* The next one reads only the slot: its count is in our cache under the ID's key. */
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), 0);
	TEST_CHECK(got == &e);
	ts = restrack_tref_slot_of(restrack_tref_self, &e);
	if (cached)
		TEST_CHECK_EQ(atomic_load(ts), e.tkey + 1);
	TEST_CHECK_EQ(restrack_refcnt(&e), 2);
	TEST_CHECK_EQ(restrack_put(&e), 0);
	TEST_CHECK_EQ(restrack_refcnt(&e), 1);

	TEST_CHECK_EQ(restrack_begin_del(&e), 0);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&e | cached);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), -ENOENT);
	TEST_CHECK_EQ(restrack_abort_del(&e), 0);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&e | live | cached);
	TEST_CHECK_EQ(restrack_sync(&e), 0);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&e | live | cached);
	TEST_CHECK_EQ(restrack_del(&e), 0);
	TEST_CHECK_EQ(qp_slot(root, id), cached);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), -ENOENT);

	/* The ID's next owner: claimed (not yet visible), then added. */
	TEST_CHECK_EQ(restrack_new(&f, RESTRACK_QP), 0);
	TEST_CHECK_EQ(restrack_set_name(&f, "tref"), 0);
	TEST_CHECK_EQ(restrack_claim(root, &f, id), 0);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&f | cached);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), -ENOENT);
	TEST_CHECK_EQ(restrack_add(root, &f), 0);
	TEST_CHECK_EQ(qp_slot(root, id), (uintptr_t)&f | live | cached);
	TEST_CHECK_EQ(restrack_get_byid(root, RESTRACK_QP, id, &got), 0);
	TEST_CHECK(got == &f);
	TEST_CHECK_EQ(restrack_refcnt(&f), 2);
	TEST_CHECK_EQ(restrack_put(&f), 0);
	del_and_clean(root, &f);
}

static void
test_delete_while_threads_look_up(void)
{
	struct restrack_root *root = make_root("tref7");
	struct restrack_entry e[4];
	struct mixer m[3];
	_Atomic int stop = 0;
	pthread_t t[3];
	int round, i;

	for (i = 0; i < 4; i++)
		add_qp(root, &e[i]);
	for (i = 0; i < 3; i++) {
		m[i] = (struct mixer){ .root = root, .stop = &stop };
		for (int k = 0; k < 4; k++)
			m[i].ids[k] = e[k].id;
		TEST_CHECK_EQ(pthread_create(&t[i], NULL, mix_thread, &m[i]), 0);
	}
	/* Hide and show each entry many times while the readers run; none may see it hidden. */
	for (round = 0; round < 400; round++) {
		struct restrack_entry *x = &e[round & 3];

		TEST_CHECK_EQ(restrack_begin_del(x), 0);
		atomic_store(&hidden[round & 3], 1);
		sleep_ms(round % 8 == 0);	/* sometimes let readers run into it */
		atomic_store(&hidden[round & 3], 0);
		TEST_CHECK_EQ(restrack_abort_del(x), 0);
		if (round % 50 == 0)
			TEST_CHECK_EQ(restrack_sync(x), 0);
	}
	/* On a busy machine a reader may not have run yet: every entry is shown now; wait. */
	for (i = 0; i < 3; i++)
		while (atomic_load(&m[i].found) == 0)
			sleep_ms(1);
	atomic_store(&stop, 1);
	for (i = 0; i < 3; i++) {
		TEST_CHECK_EQ(pthread_join(t[i], NULL), 0);
		TEST_CHECK_EQ(m[i].errors, 0);
		TEST_CHECK(m[i].found > 0);
	}
	for (i = 3; i > 0; i--) {
		TEST_CHECK_EQ(restrack_refcnt(&e[i]), 1);
		TEST_CHECK_EQ(restrack_del(&e[i]), 0);
	}
	TEST_CHECK_EQ(restrack_refcnt(&e[0]), 1);
	del_and_clean(root, &e[0]);
}

/* An object whose ID is deleted and added again, by itself or by another object. */
struct reused {
	struct restrack_entry re;
	_Atomic int live;	/* 1 from before add to after begin_del returned */
};

struct reuse_reader {
	struct restrack_root *root;
	uint32_t id;
	struct reused *objs;	/* two objects taking turns at the ID */
	_Atomic int *stop;
	_Atomic long found;	/* read by the main thread while the reader runs */
	long errors;
};

static void *
reuse_reader_thread(void *arg)
{
	struct reuse_reader *r = arg;
	struct restrack_entry *got;

	while (!atomic_load_explicit(r->stop, memory_order_relaxed)) {
		if (restrack_get_byid(r->root, RESTRACK_QP, r->id, &got) != 0)
			continue;
		atomic_fetch_add_explicit(&r->found, 1, memory_order_relaxed);
		/* One of the two, and live for as long as we hold it. */
		if ((got != &r->objs[0].re && got != &r->objs[1].re) ||
		    !atomic_load(&container_of(got, struct reused, re)->live))
			r->errors++;
		if (restrack_put(got) != 0)
			r->errors++;
	}
	return NULL;
}

/*
 * One ID deleted and added again 2000 times while three threads look it up: sometimes by the
 * same object (the same slot value comes back: the fast way's ABA case), sometimes by the
 * other one. A lookup must return the object that owns the ID, live until its put, and every
 * reference must balance.
 */
static void
test_id_reused_while_looked_up(void)
{
	struct restrack_root *root = make_root("tref10");
	static struct reused obj[2];
	struct reuse_reader r[3];
	pthread_t t[3];
	_Atomic int stop = 0;
	unsigned int round, i, cur = 0;
	uint32_t id;

	memset(obj, 0, sizeof(obj));
	atomic_store(&obj[0].live, 1);
	add_qp(root, &obj[0].re);
	id = obj[0].re.id;
	for (i = 0; i < 3; i++) {
		r[i] = (struct reuse_reader){ root, id, obj, &stop, 0, 0 };
		TEST_CHECK_EQ(pthread_create(&t[i], NULL, reuse_reader_thread, &r[i]), 0);
	}
	for (round = 0; round < 2000; round++) {
		unsigned int next = (round * 7 + round / 3) % 5 < 2 ? cur : cur ^ 1;

		TEST_CHECK_EQ(restrack_begin_del(&obj[cur].re), 0);
		atomic_store(&obj[cur].live, 0);	/* no reader holds it now */
		TEST_CHECK_EQ(restrack_commit_del(&obj[cur].re), 0);
		TEST_CHECK_EQ(restrack_new(&obj[next].re, RESTRACK_QP), 0);
		TEST_CHECK_EQ(restrack_set_name(&obj[next].re, "tref"), 0);
		TEST_CHECK_EQ(restrack_claim(root, &obj[next].re, id), 0);
		atomic_store(&obj[next].live, 1);
		TEST_CHECK_EQ(restrack_add(root, &obj[next].re), 0);
		cur = next;
		if (round % 100 == 0)
			sleep_ms(1);	/* let the readers find it live for a while */
	}
	/* On a busy machine a reader may not have run yet: the ID is live now; wait. */
	for (i = 0; i < 3; i++)
		while (atomic_load(&r[i].found) == 0)
			sleep_ms(1);
	atomic_store(&stop, 1);
	for (i = 0; i < 3; i++) {
		TEST_CHECK_EQ(pthread_join(t[i], NULL), 0);
		TEST_CHECK_EQ(r[i].errors, 0);
		TEST_CHECK(r[i].found > 0);
	}
	TEST_CHECK_EQ(restrack_refcnt(&obj[cur].re), 1);
	del_and_clean(root, &obj[cur].re);
}

int
main(void)
{
	test_set_watchdog(WATCHDOG_SECONDS);
	RUN(test_cache_state);
	RUN(test_put_from_other_thread);
	RUN(test_begin_del_waits_for_cached_ref);
	RUN(test_sync_waits_for_cached_ref);
	RUN(test_thread_exits_holding_ref);
	RUN(test_nested_beyond_slot);
	RUN(test_entries_sharing_a_slot);
	RUN(test_clean_forgets_cached_counts);
	RUN(test_no_track_not_cached);
	RUN(test_slot_states);
	RUN(test_delete_while_threads_look_up);
	RUN(test_id_reused_while_looked_up);
	return test_done();
}
