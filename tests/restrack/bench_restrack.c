/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * bench_restrack: restrack against the two designs it replaces, same workload, same run.
 *
 * Every implementation is "a per-device table of objects by ID with reference-counted
 * lookup" over one ID space of 2^18 IDs (the QPN space) with IDs 0-2 reserved:
 *
 *   restrack   the library: restrack_get_byid + restrack_put; restrack_new + restrack_add
 *              (cyclic ID); restrack_begin_del + restrack_commit_del.
 *   mutex      the kernel's xa_lock model: an array of entry pointers indexed by ID under one
 *              pthread mutex. get = lock, load, refcount++, unlock; put = atomic refcount--;
 *              add = lock, cyclic search for a free ID from next_id, store, unlock;
 *              del = lock, erase, unlock, drop the birth reference, spin until it reaches 0.
 *   hash g/p   DPDK rte_hash with lock-free readers (RW_CONCURRENCY_LF | MULTI_WRITER_ADD,
 *              CRC32 hash of the 4-byte ID, data = entry pointer) plus rte_rcu_qsbr.
 *              get = rte_hash_lookup_data + refcount++; put = refcount--. Readers report a
 *              quiescent state every QSBR_BATCH operations. del = rte_hash_del_key,
 *              rte_rcu_qsbr_synchronize (explicit, not the hash's DQ mode: the entry object
 *              must outlive the readers too, not just the key slot), then
 *              rte_hash_free_key_with_position, release the ID, drop the birth reference and
 *              wait for 0. IDs come from an atomic cyclic counter; since rte_hash_add_key_data
 *              overwrites an existing key instead of failing, "skip IDs present" is a
 *              one-byte-per-ID claim map taken with a CAS.
 *   hash lkp   the same table, rte_hash_lookup_data only: no reference is taken.
 *
 * All implementations track the same object type (struct bench_obj: our ID copy and the
 * baselines' reference count in the first cache line, the restrack entry right after), so
 * the objects' cache footprint is identical and only the table differs.
 *
 * Nothing here asserts speed. The program exits non-zero only on a functional error: an
 * operation failing unexpectedly, a lookup returning the wrong entry, counts or references
 * not balancing afterwards, restrack_clean reporting leaks.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_prefetch.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include "restrack.h"
#include "test.h"

#define ID_BITS		18
#define ID_SPACE	(1u << ID_BITS)		/* QPNs < 2^18 */
#define ID_MASK		(ID_SPACE - 1)
#define ID_RESERVED	3			/* irdma reserves QP 0-2 */
#define LIVE_BITS	16	/* default: 64 Ki live entries, one per 4 IDs */
#define LIVE_BITS_MIN	4
#define NB_LIVE		(1u << opt.live_bits)	/* live entries, spread over the space */
#define LIVE_MASK	(NB_LIVE - 1)
/*
 * Lookup keys per thread, drawn at random from the live IDs before the timed loop and then
 * looked up in order, round and round (DPDK's own hash benchmark also generates its keys
 * up front): the measured loop pays one sequential load per key, not a random number
 * generator and a random read of the live-ID array.
 */
#define SEQ_LEN		(1u << 16)
#define SEQ_MASK	(SEQ_LEN - 1)
#define MAX_THREADS	2
#define CHURN_DEPTH	16	/* entries in flight per thread in the 90/10 and churn loops */
#define MIX_PERIOD	10	/* every 10th op of the 90/10 loop is an add+del pair */
#define QSBR_BATCH	16	/* rte_hash readers report quiescent once per this many ops */
#define BULK		16	/* lookups per call in the bulk workload */
#define MAX_REPS	5
#define BENCH_TYPE	RESTRACK_QP

/*
 * Operation counts per thread: lookups are cheap; the 90/10 mix and churn pay for locks and,
 * in the rte_hash baseline, a blocking grace period per delete.
 */
#define FULL_LOOKUP_OPS	(4u << 20)
#define FULL_MIXED_OPS	(1u << 20)
#define FULL_CHURN_OPS	(128u << 10)
#define FULL_REPS	5	/* many short runs: the median shrugs off noisy neighbours */
#define QUICK_LOOKUP_OPS (128u << 10)
#define QUICK_MIXED_OPS	(64u << 10)
#define QUICK_CHURN_OPS	(16u << 10)
#define QUICK_REPS	1

/*
 * One tracked object. The hot fields of all three implementations share the first cache
 * line: id and refcnt for the baselines, the restrack entry's rec/root/id/state for restrack.
 */
struct bench_obj {
	uint32_t id;		/* the ID the table gave us, to check lookups against */
	uint32_t refcnt;	/* baselines' reference count, birth reference included */
	uint8_t live;		/* owner-only: the object is in its table */
	struct restrack_entry re;
} __rte_cache_aligned;

enum impl {
	IMPL_RESTRACK,
	IMPL_MUTEX,
	IMPL_HASH_GP,
	IMPL_HASH_LKP,
	IMPL_MAX
};

static const char *const impl_name[IMPL_MAX] = {
	[IMPL_RESTRACK] = "restrack",
	[IMPL_MUTEX] = "mutex",
	[IMPL_HASH_GP] = "hash g/p",
	[IMPL_HASH_LKP] = "hash lkp",
};

enum workload {
	WL_LOOKUP,
	WL_BULK,
	WL_MIXED,
	WL_CHURN,
	WL_MAX
};

static const char *const wl_name[WL_MAX] = {
	[WL_LOOKUP] = "get_byid+put",
	[WL_BULK] = "bulk16+put",
	[WL_MIXED] = "90/10",
	[WL_CHURN] = "churn",
};

/* The table behind each implementation; hash g/p and hash lkp share one. */
struct bench_tab {
	enum impl kind;			/* IMPL_RESTRACK, IMPL_MUTEX or IMPL_HASH_GP */
	struct bench_obj *live;		/* NB_LIVE objects added at setup, never deleted */
	uint32_t *live_ids;		/* live[i].id, the lookup keys */

	struct restrack_root *root;

	/* Mutex table. The lock and next_id change on every add: their own line. */
	struct {
		pthread_mutex_t lock;
		uint32_t next_id;
	} mtx __rte_cache_aligned;
	struct bench_obj **slots __rte_cache_aligned;

	/* rte_hash. next_id is written by every add: its own line. */
	struct rte_hash *hash;
	struct rte_rcu_qsbr *qsbr;
	uint8_t *claimed;		/* 1 while an ID is in the hash or being added/deleted */
	uint32_t hash_next_id __rte_cache_aligned;
} __rte_cache_aligned;

/* Per-thread state: written by its thread only, read by main after the join. */
struct bench_thr {
	struct bench_tab *tab;
	enum impl impl;
	enum workload wl;
	unsigned int idx;		/* thread index, CPU to pin to, QSBR thread id */
	uint64_t nb_ops;
	const uint32_t *seq;		/* SEQ_LEN IDs to look up, in order */
	uint64_t sum_want;		/* sum of the IDs looked up */
	uint64_t sum_got;		/* sum of the IDs of the entries returned */
	uint64_t errors;
	const char *err_what;		/* first error, reported by main */
	int err_rc;
	uint64_t tsc_start;
	uint64_t tsc_end;
	pthread_barrier_t *start;
	struct bench_obj *pool;		/* CHURN_DEPTH objects this thread recycles */
} __rte_cache_aligned;

static struct {
	uint64_t lookup_ops;
	uint64_t mixed_ops;
	uint64_t churn_ops;
	unsigned int reps;
	const char *csv;
	bool verbose;
	unsigned int wl_mask;		/* bit per enum workload to run */
	unsigned int thr_mask;		/* bit per thread count to run */
	unsigned int impl_mask;		/* bit per enum impl to run */
	unsigned int nb_cpus;
	unsigned int live_bits;		/* log2 of the lookup targets (--live-bits) */
} opt;

static uint64_t total_errors;

#define BENCH_FAIL(...)                                         \
	do {                                                    \
		total_errors++;                                 \
		printf("# FUNCTIONAL ERROR: " __VA_ARGS__);     \
		printf("\n");                                   \
	} while (0)

/* xorshift64: the random numbers of the setup and of the key sequences (drawn before any
 * measured loop). */
static __rte_always_inline uint64_t
xs64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static inline bool
is_hash(enum impl impl)
{
	return impl == IMPL_HASH_GP || impl == IMPL_HASH_LKP;
}

static __rte_always_inline void
thr_error(struct bench_thr *t, const char *what, int rc)
{
	if (t->errors++ == 0) {
		t->err_what = what;
		t->err_rc = rc;
	}
}

/* ---------------------------------------------------------------------------------------- */
/* The three tables' operations. Each is always_inline and switches on a constant impl, so  */
/* every measured loop below is specialised to one implementation with no indirect call.   */

/*
 * Look up @id and take a reference. Returns the object, or NULL with *rc set. @root and @hash
 * are tab->root and tab->hash: a measured loop passes copies it loaded once, so that the
 * harness does not reload them on every lookup (the loop's stores could alias them as far as
 * the compiler knows).
 */
static __rte_always_inline struct bench_obj *
op_get_in(const enum impl impl, struct bench_tab *tab, struct restrack_root *root,
	  struct rte_hash *hash, uint32_t id, int *rc)
{
	struct restrack_entry *re;
	struct bench_obj *o;
	void *data;

	switch (impl) {
	case IMPL_RESTRACK:
		*rc = restrack_get_byid(root, BENCH_TYPE, id, &re);
		if (unlikely(*rc != 0))
			return NULL;
		return container_of(re, struct bench_obj, re);
	case IMPL_MUTEX:
		pthread_mutex_lock(&tab->mtx.lock);
		o = tab->slots[id];
		/* Relaxed: the lock orders this against the erase in mutex_del. */
		if (likely(o != NULL))
			__atomic_fetch_add(&o->refcnt, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&tab->mtx.lock);
		*rc = o != NULL ? 0 : -ENOENT;
		return o;
	case IMPL_HASH_GP:
	case IMPL_HASH_LKP:
		*rc = rte_hash_lookup_data(hash, &id, &data);
		if (unlikely(*rc < 0))
			return NULL;
		*rc = 0;
		o = data;
		/*
		 * Relaxed: a deleter reads the count only after a grace period, and this
		 * thread's quiescent report (a release) comes after the increment.
		 */
		if (impl == IMPL_HASH_GP)
			__atomic_fetch_add(&o->refcnt, 1, __ATOMIC_RELAXED);
		return o;
	default:
		*rc = -EINVAL;
		return NULL;
	}
}

/* op_get_in() with the table's own handles. */
static __rte_always_inline struct bench_obj *
op_get(const enum impl impl, struct bench_tab *tab, uint32_t id, int *rc)
{
	return op_get_in(impl, tab, tab->root, tab->hash, id, rc);
}

/* Drop the reference op_get took. */
static __rte_always_inline int
op_put(const enum impl impl, struct bench_obj *o)
{
	switch (impl) {
	case IMPL_RESTRACK:
		return restrack_put(&o->re);
	case IMPL_MUTEX:
	case IMPL_HASH_GP:
		/* Release: our reads of the object happen before the deleter sees 0. */
		__atomic_fetch_sub(&o->refcnt, 1, __ATOMIC_RELEASE);
		return 0;
	default:
		return 0;
	}
}

/* Baselines' delete tail: drop the birth reference, wait for readers' references. */
static inline void
refcnt_drain(struct bench_obj *o)
{
	/* Acquire: every reader's use of the object happens before we reuse it. */
	if (__atomic_sub_fetch(&o->refcnt, 1, __ATOMIC_ACQ_REL) == 0)
		return;
	while (__atomic_load_n(&o->refcnt, __ATOMIC_ACQUIRE) != 0)
		rte_pause();
}

static inline int
mutex_add(struct bench_tab *tab, struct bench_obj *o, uint32_t want)
{
	uint32_t id, n;

	pthread_mutex_lock(&tab->mtx.lock);
	if (want != RESTRACK_ID_ANY) {
		if (tab->slots[want] != NULL) {
			pthread_mutex_unlock(&tab->mtx.lock);
			return -EBUSY;
		}
		id = want;
	} else {
		/* Cyclic from next_id, as xa_alloc_cyclic: a freed ID comes back late. */
		id = tab->mtx.next_id;
		for (n = 0; n < ID_SPACE; n++, id = (id + 1) & ID_MASK)
			if (id >= ID_RESERVED && tab->slots[id] == NULL)
				break;
		if (n == ID_SPACE) {
			pthread_mutex_unlock(&tab->mtx.lock);
			return -ENOSPC;
		}
		tab->mtx.next_id = (id + 1) & ID_MASK;
	}
	o->id = id;
	__atomic_store_n(&o->refcnt, 1, __ATOMIC_RELAXED);	/* published by the unlock */
	tab->slots[id] = o;
	pthread_mutex_unlock(&tab->mtx.lock);
	return 0;
}

static inline int
mutex_del(struct bench_tab *tab, struct bench_obj *o)
{
	pthread_mutex_lock(&tab->mtx.lock);
	if (tab->slots[o->id] != o) {
		pthread_mutex_unlock(&tab->mtx.lock);
		return -ENOENT;
	}
	tab->slots[o->id] = NULL;
	pthread_mutex_unlock(&tab->mtx.lock);
	refcnt_drain(o);
	return 0;
}

/* Take @id in the claim map; the CAS is what makes "skip IDs present" race-free. */
static inline bool
hash_claim(struct bench_tab *tab, uint32_t id)
{
	uint8_t zero = 0;

	if (__atomic_load_n(&tab->claimed[id], __ATOMIC_RELAXED) != 0)
		return false;
	return __atomic_compare_exchange_n(&tab->claimed[id], &zero, 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline int
hash_add(struct bench_tab *tab, struct bench_obj *o, uint32_t want)
{
	uint32_t id, n;
	int rc;

	if (want != RESTRACK_ID_ANY) {
		if (!hash_claim(tab, want))
			return -EBUSY;
		id = want;
	} else {
		for (n = 0; n < ID_SPACE; n++) {
			id = __atomic_fetch_add(&tab->hash_next_id, 1, __ATOMIC_RELAXED) & ID_MASK;
			if (id >= ID_RESERVED && hash_claim(tab, id))
				break;
		}
		if (n == ID_SPACE)
			return -ENOSPC;
	}
	o->id = id;
	__atomic_store_n(&o->refcnt, 1, __ATOMIC_RELAXED);	/* published by the hash add */
	rc = rte_hash_add_key_data(tab->hash, &id, o);
	if (rc < 0) {
		__atomic_store_n(&tab->claimed[id], 0, __ATOMIC_RELEASE);
		return rc;
	}
	return 0;
}

/* @tid: the caller's QSBR thread id, RTE_QSBR_THRID_INVALID for an unregistered thread. */
static inline int
hash_del(struct bench_tab *tab, struct bench_obj *o, unsigned int tid)
{
	int32_t pos;
	int rc;

	pos = rte_hash_del_key(tab->hash, &o->id);
	if (pos < 0)
		return pos;
	/* After the grace period no reader still holds o or reads its key slot. */
	rte_rcu_qsbr_synchronize(tab->qsbr, tid);
	rc = rte_hash_free_key_with_position(tab->hash, pos);
	__atomic_store_n(&tab->claimed[o->id], 0, __ATOMIC_RELEASE);
	refcnt_drain(o);
	return rc;
}

/* Add @o at the allocator's choice (RESTRACK_ID_ANY) or at @want. */
static __rte_always_inline int
op_add(const enum impl impl, struct bench_tab *tab, struct bench_obj *o, uint32_t want)
{
	int rc;

	switch (impl) {
	case IMPL_RESTRACK:
		/* A new object each time: the driver's create path starts with restrack_new. */
		rc = restrack_new(&o->re, BENCH_TYPE);
		if (unlikely(rc != 0))
			return rc;
		if (want != RESTRACK_ID_ANY) {
			rc = restrack_claim(tab->root, &o->re, want);
			if (rc != 0)
				return rc;
		}
		rc = restrack_add(tab->root, &o->re);
		if (unlikely(rc != 0))
			return rc;
		o->id = restrack_id(&o->re);
		if (unlikely(o->id < ID_RESERVED || o->id > ID_MASK ||
			     (want != RESTRACK_ID_ANY && o->id != want)))
			return -ERANGE;
		return 0;
	case IMPL_MUTEX:
		return mutex_add(tab, o, want);
	case IMPL_HASH_GP:
	case IMPL_HASH_LKP:
		return hash_add(tab, o, want);
	default:
		return -EINVAL;
	}
}

static __rte_always_inline int
op_del(const enum impl impl, struct bench_tab *tab, struct bench_obj *o, unsigned int tid)
{
	int rc;

	switch (impl) {
	case IMPL_RESTRACK:
		/* The driver's destroy path: hide and drain, (destroy), free the ID. */
		rc = restrack_begin_del(&o->re);
		if (unlikely(rc != 0))
			return rc;
		return restrack_commit_del(&o->re);
	case IMPL_MUTEX:
		return mutex_del(tab, o);
	case IMPL_HASH_GP:
	case IMPL_HASH_LKP:
		return hash_del(tab, o, tid);
	default:
		return -EINVAL;
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Measured loops. No division, printf or allocation inside; errors stop the loop.         */

/* One add+del pair on the thread's oldest in-flight object. */
static __rte_always_inline bool
churn_one(const enum impl impl, struct bench_thr *t, struct bench_obj *o)
{
	int rc;

	rc = op_del(impl, t->tab, o, t->idx);
	if (unlikely(rc != 0)) {
		thr_error(t, "del", rc);
		return false;
	}
	o->live = 0;
	rc = op_add(impl, t->tab, o, RESTRACK_ID_ANY);
	if (unlikely(rc != 0)) {
		thr_error(t, "add", rc);
		return false;
	}
	o->live = 1;
	return true;
}

/* What a lookup loop reads of its table and thread, loaded once (see op_get_in()). */
struct bench_view {
	struct bench_tab *tab;
	struct restrack_root *root;
	struct rte_hash *hash;
	const uint32_t *seq;		/* the thread's lookup keys */
};

static __rte_always_inline struct bench_view
view_of(const struct bench_thr *t)
{
	return (struct bench_view){ t->tab, t->tab->root, t->tab->hash, t->seq };
}

/* Lookup @i of the thread's key sequence, checked, with its reference dropped. */
static __rte_always_inline bool
lookup_one(const enum impl impl, struct bench_thr *t, const struct bench_view v, uint64_t i,
	   uint64_t *want, uint64_t *got)
{
	uint32_t id = v.seq[i & SEQ_MASK];
	struct bench_obj *o;
	int rc;

	o = op_get_in(impl, v.tab, v.root, v.hash, id, &rc);
	if (unlikely(rc != 0)) {
		thr_error(t, "get_byid", rc);
		return false;
	}
	*want += id;
	*got += o->id;	/* read before the put: after it the object may be gone */
	rc = op_put(impl, o);
	if (unlikely(rc != 0)) {
		thr_error(t, "put", rc);
		return false;
	}
	return true;
}

static __rte_always_inline void
loop_lookup(const enum impl impl, struct bench_thr *t)
{
	const struct bench_view v = view_of(t);
	const uint64_t n = t->nb_ops;
	uint64_t want = 0, got = 0;
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (unlikely(!lookup_one(impl, t, v, i, &want, &got)))
			break;
		if (is_hash(impl) && (i & (QSBR_BATCH - 1)) == QSBR_BATCH - 1)
			rte_rcu_qsbr_quiescent(t->tab->qsbr, t->idx);
	}
	t->sum_want += want;
	t->sum_got += got;
}

/*
 * BULK lookups of random live IDs at once, each checked and its reference dropped: restrack
 * with restrack_get_byid_bulk(), the mutex table under one lock hold, rte_hash with
 * rte_hash_lookup_bulk_data() (both prefetch their buckets / slots first).
 */
static __rte_always_inline bool
lookup_bulk(const enum impl impl, struct bench_thr *t, uint64_t first, uint64_t *want,
	    uint64_t *got)
{
	struct restrack_entry *re[BULK];
	const void *keys[BULK];
	struct bench_obj *o[BULK];
	uint32_t key[BULK];
	void *data[BULK];
	uint64_t hits = 0;
	unsigned int i;
	int rc = 0;

	for (i = 0; i < BULK; i++) {
		key[i] = t->seq[(first + i) & SEQ_MASK];
		keys[i] = &key[i];
		*want += key[i];
	}
	switch (impl) {
	case IMPL_RESTRACK:
		rc = restrack_get_byid_bulk(t->tab->root, BENCH_TYPE, key, BULK, re);
		if (unlikely(rc != BULK)) {
			thr_error(t, "get_byid_bulk", rc < 0 ? rc : -ENOENT);
			return false;
		}
		for (i = 0; i < BULK; i++)
			o[i] = container_of(re[i], struct bench_obj, re);
		break;
	case IMPL_MUTEX:
		pthread_mutex_lock(&t->tab->mtx.lock);
		for (i = 0; i < BULK; i++) {
			o[i] = t->tab->slots[key[i]];
			/* Relaxed: the lock orders this against the erase in mutex_del. */
			if (likely(o[i] != NULL))
				__atomic_fetch_add(&o[i]->refcnt, 1, __ATOMIC_RELAXED);
			else
				rc = -ENOENT;
		}
		pthread_mutex_unlock(&t->tab->mtx.lock);
		if (unlikely(rc != 0)) {
			thr_error(t, "get_byid", rc);
			return false;
		}
		break;
	case IMPL_HASH_GP:
	case IMPL_HASH_LKP:
		rc = rte_hash_lookup_bulk_data(t->tab->hash, keys, BULK, &hits, data);
		if (unlikely(rc != BULK)) {
			thr_error(t, "rte_hash_lookup_bulk_data", rc < 0 ? rc : -ENOENT);
			return false;
		}
		for (i = 0; i < BULK; i++) {
			o[i] = data[i];
			/* Relaxed: as in op_get(). */
			if (impl == IMPL_HASH_GP)
				__atomic_fetch_add(&o[i]->refcnt, 1, __ATOMIC_RELAXED);
		}
		break;
	default:
		return false;
	}
	/* Every implementation then touches the objects the same way: prefetched as a burst. */
	for (i = 0; i < BULK; i++)
		rte_prefetch0(o[i]);
	for (i = 0; i < BULK; i++) {
		*got += o[i]->id;	/* read before the put: after it the object may be gone */
		rc = op_put(impl, o[i]);
		if (unlikely(rc != 0)) {
			thr_error(t, "put", rc);
			return false;
		}
	}
	return true;
}

static __rte_always_inline void
loop_bulk(const enum impl impl, struct bench_thr *t)
{
	uint64_t want = 0, got = 0;
	uint64_t i;

	/* nb_ops counts lookups: BULK per iteration. */
	for (i = 0; i + BULK <= t->nb_ops; i += BULK) {
		if (unlikely(!lookup_bulk(impl, t, i, &want, &got)))
			break;
		/* Quiescent once per QSBR_BATCH lookups, as the single-lookup loop. */
		if (is_hash(impl) && (i & (QSBR_BATCH - 1)) == 0)
			rte_rcu_qsbr_quiescent(t->tab->qsbr, t->idx);
	}
	t->sum_want += want;
	t->sum_got += got;
}

static __rte_always_inline void
loop_mixed(const enum impl impl, struct bench_thr *t)
{
	const struct bench_view v = view_of(t);
	uint64_t want = 0, got = 0;
	unsigned int countdown = MIX_PERIOD, slot = 0;
	uint64_t i;
	bool ok;

	for (i = 0; i < t->nb_ops; i++) {
		if (--countdown == 0) {
			countdown = MIX_PERIOD;
			ok = churn_one(impl, t, &t->pool[slot]);
			slot = (slot + 1) & (CHURN_DEPTH - 1);
		} else {
			ok = lookup_one(impl, t, v, i, &want, &got);
		}
		if (unlikely(!ok))
			break;
		if (is_hash(impl) && (i & (QSBR_BATCH - 1)) == QSBR_BATCH - 1)
			rte_rcu_qsbr_quiescent(t->tab->qsbr, t->idx);
	}
	t->sum_want += want;
	t->sum_got += got;
}

static __rte_always_inline void
loop_churn(const enum impl impl, struct bench_thr *t)
{
	uint64_t i;

	for (i = 0; i < t->nb_ops; i++) {
		if (unlikely(!churn_one(impl, t, &t->pool[i & (CHURN_DEPTH - 1)])))
			break;
		if (is_hash(impl) && (i & (QSBR_BATCH - 1)) == QSBR_BATCH - 1)
			rte_rcu_qsbr_quiescent(t->tab->qsbr, t->idx);
	}
}

/*
 * One named, non-inlined function per loop and implementation, so a profiler (callgrind
 * --toggle-collect=loop_lookup_restrack) can count exactly the measured instructions.
 */
#define BENCH_LOOP(wl, impl, name)                                      \
	static __rte_noinline void                                      \
	loop_##wl##_##name(struct bench_thr *t)                         \
	{                                                               \
		loop_##wl(impl, t);                                     \
	}
#define BENCH_LOOPS(wl)                                                 \
	BENCH_LOOP(wl, IMPL_RESTRACK, restrack)                         \
	BENCH_LOOP(wl, IMPL_MUTEX, mutex)                               \
	BENCH_LOOP(wl, IMPL_HASH_GP, hash_gp)                           \
	BENCH_LOOP(wl, IMPL_HASH_LKP, hash_lkp)
BENCH_LOOPS(lookup)
BENCH_LOOPS(bulk)
BENCH_LOOPS(mixed)
BENCH_LOOPS(churn)

typedef void (*loop_fn)(struct bench_thr *t);

#define BENCH_ROW(wl)                                                   \
	{ loop_##wl##_restrack, loop_##wl##_mutex,                      \
	  loop_##wl##_hash_gp, loop_##wl##_hash_lkp }
static const loop_fn loops[WL_MAX][IMPL_MAX] = {
	[WL_LOOKUP] = BENCH_ROW(lookup),
	[WL_BULK] = BENCH_ROW(bulk),
	[WL_MIXED] = BENCH_ROW(mixed),
	[WL_CHURN] = BENCH_ROW(churn),
};

/* ---------------------------------------------------------------------------------------- */
/* Threads                                                                                  */

static void *
bench_thread(void *arg)
{
	struct bench_thr *t = arg;
	bool lcore = false, qsbr = false;
	unsigned int i;
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(t->idx % opt.nb_cpus, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	/* rte_hash's multi-writer free-slot caches are per lcore: give the thread an lcore id. */
	if (rte_thread_register() == 0)
		lcore = true;
	else
		thr_error(t, "rte_thread_register", -rte_errno);
	if (t->errors == 0 && is_hash(t->impl)) {
		rc = rte_rcu_qsbr_thread_register(t->tab->qsbr, t->idx);
		if (rc == 0) {
			rte_rcu_qsbr_thread_online(t->tab->qsbr, t->idx);
			qsbr = true;
		} else {
			thr_error(t, "rte_rcu_qsbr_thread_register", rc);
		}
	}
	/* Fill the in-flight pool, unmeasured. */
	for (i = 0; t->errors == 0 && t->wl != WL_LOOKUP && t->wl != WL_BULK && i < CHURN_DEPTH; i++) {
		rc = op_add(t->impl, t->tab, &t->pool[i], RESTRACK_ID_ANY);
		if (rc == 0)
			t->pool[i].live = 1;
		else
			thr_error(t, "add (pool fill)", rc);
	}

	/* Every thread reaches the barrier, even a failed one, or the others would hang. */
	pthread_barrier_wait(t->start);
	t->tsc_start = rte_rdtsc_precise();
	if (t->errors == 0)
		loops[t->wl][t->impl](t);
	t->tsc_end = rte_rdtsc_precise();

	/* Drain while still online: our own synchronize reports our quiescent state. */
	for (i = 0; i < CHURN_DEPTH; i++) {
		if (!t->pool[i].live)
			continue;
		rc = op_del(t->impl, t->tab, &t->pool[i], qsbr ? t->idx : RTE_QSBR_THRID_INVALID);
		if (rc == 0)
			t->pool[i].live = 0;
		else
			thr_error(t, "del (pool drain)", rc);
	}
	/* Offline before leaving, so the other thread's grace periods stop waiting for us. */
	if (qsbr) {
		rte_rcu_qsbr_thread_offline(t->tab->qsbr, t->idx);
		rte_rcu_qsbr_thread_unregister(t->tab->qsbr, t->idx);
	}
	if (lcore)
		rte_thread_unregister();
	return NULL;
}

/* Per-thread pools and key sequences, allocated once and reused by every run. */
static struct bench_obj *thread_pool[MAX_THREADS];
static uint32_t *thread_seq[MAX_THREADS];

/* Draw a thread's key sequence: SEQ_LEN random live IDs of @tab, from the thread's seed. */
static void
seq_fill(uint32_t *seq, const struct bench_tab *tab, uint64_t rng)
{
	unsigned int k;

	for (k = 0; k < SEQ_LEN; k++)
		seq[k] = tab->live_ids[(xs64(&rng) >> 40) & LIVE_MASK];
}

static double
bench_run(struct bench_tab *tab, enum impl impl, enum workload wl, unsigned int nb_threads)
{
	static struct bench_thr thr[MAX_THREADS];
	pthread_t tids[MAX_THREADS];
	pthread_barrier_t start;
	uint64_t first = UINT64_MAX, last = 0, ops = 0;
	unsigned int i, started = 0;
	double secs;

	pthread_barrier_init(&start, NULL, nb_threads);
	for (i = 0; i < nb_threads; i++) {
		memset(&thr[i], 0, sizeof(thr[i]));
		thr[i].tab = tab;
		thr[i].impl = impl;
		thr[i].wl = wl;
		thr[i].idx = i;
		thr[i].nb_ops = wl == WL_LOOKUP || wl == WL_BULK ? opt.lookup_ops :
				wl == WL_MIXED ? opt.mixed_ops : opt.churn_ops;
		thr[i].start = &start;
		seq_fill(thread_seq[i], tab, 0x9e3779b97f4a7c15ull * (i + 1) + 0x632be59bd9b4e019ull);
		thr[i].seq = thread_seq[i];
		thr[i].pool = thread_pool[i];
		memset(thr[i].pool, 0, sizeof(struct bench_obj) * CHURN_DEPTH);
	}
	for (i = 0; i < nb_threads; i++) {
		if (pthread_create(&tids[i], NULL, bench_thread, &thr[i]) != 0)
			break;
		started++;
	}
	if (started != nb_threads) {
		/* Only on resource exhaustion; the started threads would wait forever. */
		BENCH_FAIL("pthread_create failed");
		exit(EXIT_FAILURE);
	}
	for (i = 0; i < nb_threads; i++)
		pthread_join(tids[i], NULL);
	pthread_barrier_destroy(&start);

	for (i = 0; i < nb_threads; i++) {
		if (thr[i].errors != 0)
			BENCH_FAIL("%s %s thread %u: %" PRIu64 " errors, "
				   "first: %s returned %d (%s)",
				   impl_name[impl], wl_name[wl], i, thr[i].errors,
				   thr[i].err_what, thr[i].err_rc, strerror(-thr[i].err_rc));
		if (thr[i].sum_want != thr[i].sum_got)
			BENCH_FAIL("%s %s thread %u: lookups returned wrong entries "
				   "(ID checksum %" PRIu64 ", expected %" PRIu64 ")",
				   impl_name[impl], wl_name[wl], i, thr[i].sum_got,
				   thr[i].sum_want);
		first = RTE_MIN(first, thr[i].tsc_start);
		last = RTE_MAX(last, thr[i].tsc_end);
		ops += thr[i].nb_ops;
	}
	secs = (double)(last - first) / (double)rte_get_tsc_hz();
	return secs > 0 ? (double)ops / secs / 1e6 : 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Setup, verification, teardown                                                            */

/* rte_malloc heap bytes in use on every socket. */
static size_t
rte_heap_bytes(void)
{
	struct rte_malloc_socket_stats st;
	size_t total = 0;
	int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (rte_malloc_get_socket_stats(s, &st) == 0)
			total += st.heap_allocsz_bytes;
	return total;
}

/* Resident set size of the process, in bytes (restrack's slot array is mmap'd, not heap). */
static size_t
rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (size_t)sysconf(_SC_PAGESIZE);
}

static size_t restrack_rss_before;	/* RSS before restrack_init */
static size_t restrack_fill_bytes;	/* RSS growth of restrack_init and NB_LIVE adds */
static size_t hash_bytes;		/* rte_malloc growth of rte_hash_create */

static int
tab_create(struct bench_tab *tab, enum impl kind)
{
	struct restrack_config cfg;
	struct rte_hash_parameters hp;
	pthread_mutexattr_t ma;
	size_t before, sz;
	unsigned int t;

	memset(tab, 0, sizeof(*tab));
	tab->kind = kind;
	tab->live = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(struct bench_obj) * NB_LIVE);
	tab->live_ids = calloc(NB_LIVE, sizeof(uint32_t));
	if (tab->live == NULL || tab->live_ids == NULL)
		return -ENOMEM;
	memset(tab->live, 0, sizeof(struct bench_obj) * NB_LIVE);

	switch (kind) {
	case IMPL_RESTRACK:
		memset(&cfg, 0, sizeof(cfg));
		/* Small spaces for the types we do not use, so they do not weigh on memory. */
		for (t = 0; t < RESTRACK_MAX; t++)
			cfg.type[t].nb_ids = 64;
		cfg.type[BENCH_TYPE].nb_ids = ID_SPACE;
		cfg.type[BENCH_TYPE].nb_reserved = ID_RESERVED;
		restrack_rss_before = rss_bytes();
		if (restrack_init("bench0", &cfg, &tab->root) != 0)
			return -EINVAL;
		return 0;
	case IMPL_MUTEX:
		/*
		 * Adaptive: spins briefly before sleeping, closer to the kernel's spinning
		 * xa_lock than a plain futex mutex and kinder to this baseline.
		 */
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
		pthread_mutex_init(&tab->mtx.lock, &ma);
		pthread_mutexattr_destroy(&ma);
		tab->mtx.next_id = ID_RESERVED;
		tab->slots = calloc(ID_SPACE, sizeof(*tab->slots));
		return tab->slots != NULL ? 0 : -ENOMEM;
	case IMPL_HASH_GP:
		sz = rte_rcu_qsbr_get_memsize(MAX_THREADS);
		tab->qsbr = rte_zmalloc("bench_qsbr", sz, RTE_CACHE_LINE_SIZE);
		if (tab->qsbr == NULL || rte_rcu_qsbr_init(tab->qsbr, MAX_THREADS) != 0)
			return -ENOMEM;
		tab->claimed = calloc(ID_SPACE, 1);
		if (tab->claimed == NULL)
			return -ENOMEM;
		tab->hash_next_id = ID_RESERVED;
		memset(&hp, 0, sizeof(hp));
		hp.name = "bench_restrack";
		hp.entries = ID_SPACE;
		hp.key_len = sizeof(uint32_t);
		hp.hash_func = rte_hash_crc;
		hp.socket_id = (int)rte_socket_id();
		hp.extra_flag = RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF |
				RTE_HASH_EXTRA_FLAGS_MULTI_WRITER_ADD;
		before = rte_heap_bytes();
		tab->hash = rte_hash_create(&hp);
		if (tab->hash == NULL)
			return -rte_errno;
		sz = rte_heap_bytes();
		hash_bytes = sz > before ? sz - before : 0;
		return 0;
	default:
		return -EINVAL;
	}
}

/* Add the NB_LIVE lookup targets at explicit IDs, spread evenly over the space. */
static int
tab_fill(struct bench_tab *tab)
{
	uint64_t rng = 0x2545f4914f6cdd1dull;
	size_t after;
	uint32_t i, id;
	int rc;

	for (i = 0; i < NB_LIVE; i++) {
		/* one in each group of ID_SPACE / NB_LIVE IDs, at a random place in it */
		id = (i << (ID_BITS - opt.live_bits)) |
		     (uint32_t)(xs64(&rng) & ((1u << (ID_BITS - opt.live_bits)) - 1));
		if (id < ID_RESERVED)
			id = ID_RESERVED;
		if (tab->kind == IMPL_RESTRACK) {
			rc = restrack_new(&tab->live[i].re, BENCH_TYPE);
			if (rc == 0)
				rc = restrack_set_name(&tab->live[i].re, "bench");
			if (rc == 0)
				rc = restrack_claim(tab->root, &tab->live[i].re, id);
			if (rc == 0)
				rc = restrack_add(tab->root, &tab->live[i].re);
			if (rc == 0)
				tab->live[i].id = restrack_id(&tab->live[i].re);
		} else {
			rc = op_add(tab->kind, tab, &tab->live[i], id);
		}
		if (rc != 0 || tab->live[i].id != id) {
			BENCH_FAIL("%s: add at ID %u: %d (%s), got ID %u", impl_name[tab->kind],
				   id, rc, strerror(-rc), tab->live[i].id);
			return rc != 0 ? rc : -EIO;
		}
		tab->live[i].live = 1;
		tab->live_ids[i] = id;
	}
	after = rss_bytes();
	if (tab->kind == IMPL_RESTRACK)
		restrack_fill_bytes = after > restrack_rss_before ? after - restrack_rss_before : 0;
	return 0;
}

/*
 * After a run: every live entry is found, is the right object, and its references balance;
 * the table holds exactly the NB_LIVE entries (the pools were drained).
 */
static void
tab_verify(struct bench_tab *tab, const char *when)
{
	unsigned int i, bad = 0, badref = 0;
	struct bench_obj *o;
	int rc, n = -1;

	for (i = 0; i < NB_LIVE; i++) {
		o = op_get(tab->kind, tab, tab->live_ids[i], &rc);
		if (o != &tab->live[i]) {
			if (bad++ == 0)
				BENCH_FAIL("%s after %s: get_byid(%u) returned %p rc %d, "
					   "expected %p",
					   impl_name[tab->kind], when, tab->live_ids[i], (void *)o,
					   rc, (void *)&tab->live[i]);
			if (o == NULL)
				continue;
		}
		/* Exactly the birth reference and ours: every get of the run was put. */
		if (tab->kind == IMPL_RESTRACK ? restrack_refcnt(&o->re) != 2 :
		    __atomic_load_n(&o->refcnt, __ATOMIC_RELAXED) != 2)
			badref++;
		rc = op_put(tab->kind, o);
		if (rc != 0 && bad++ == 0)
			BENCH_FAIL("%s after %s: put: %d", impl_name[tab->kind], when, rc);
	}
	if (badref != 0)
		BENCH_FAIL("%s after %s: %u entries with unbalanced references",
			   impl_name[tab->kind], when, badref);

	switch (tab->kind) {
	case IMPL_RESTRACK:
		n = restrack_count(tab->root, BENCH_TYPE, NULL);
		break;
	case IMPL_MUTEX:
		n = 0;
		for (i = 0; i < ID_SPACE; i++)
			n += tab->slots[i] != NULL;
		break;
	case IMPL_HASH_GP:
		n = rte_hash_count(tab->hash);
		for (i = 0, rc = 0; i < ID_SPACE; i++)
			rc += tab->claimed[i];
		if (rc != (int)NB_LIVE)
			BENCH_FAIL("%s after %s: %d IDs claimed, expected %u",
				   impl_name[tab->kind], when, rc, NB_LIVE);
		break;
	default:
		break;
	}
	if (n != (int)NB_LIVE)
		BENCH_FAIL("%s after %s: table holds %d entries, expected %u",
			   impl_name[tab->kind], when, n, NB_LIVE);
}

static void
tab_destroy(struct bench_tab *tab)
{
	unsigned int i;
	int rc;

	for (i = 0; i < NB_LIVE; i++) {
		if (!tab->live[i].live)
			continue;
		rc = op_del(tab->kind, tab, &tab->live[i], RTE_QSBR_THRID_INVALID);
		if (rc != 0)
			BENCH_FAIL("%s: teardown del of ID %u: %d", impl_name[tab->kind],
				   tab->live_ids[i], rc);
		tab->live[i].live = 0;
	}
	switch (tab->kind) {
	case IMPL_RESTRACK:
		rc = restrack_clean(tab->root);
		if (rc != 0)
			BENCH_FAIL("restrack_clean reports %d leaked entries", rc);
		break;
	case IMPL_MUTEX:
		free(tab->slots);
		pthread_mutex_destroy(&tab->mtx.lock);
		break;
	case IMPL_HASH_GP:
		if (rte_hash_count(tab->hash) != 0)
			BENCH_FAIL("rte_hash holds %d entries after teardown",
				   rte_hash_count(tab->hash));
		rte_hash_free(tab->hash);
		rte_free(tab->qsbr);
		free(tab->claimed);
		break;
	default:
		break;
	}
	free(tab->live);
	free(tab->live_ids);
}

/*
 * Unmeasured functional check of the semantics the benchmark relies on, on an empty part of
 * the ID space (the table is freshly created): add, find, explicit insert at a taken ID, delete
 * and, for restrack, the closed window between begin_del and commit_del and abort_del.
 */
#define SANITY(cond, ...)                                                       \
	do {                                                                    \
		if (!(cond))                                                    \
			BENCH_FAIL("%s sanity: " __VA_ARGS__);                  \
	} while (0)

static void
tab_sanity(struct bench_tab *tab)
{
	static struct bench_obj a, b;
	const char *nm = impl_name[tab->kind];
	const enum impl k = tab->kind;
	struct bench_obj *o;
	uint32_t id;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rc = op_add(k, tab, &a, RESTRACK_ID_ANY);
	SANITY(rc == 0, "add: %d", nm, rc);
	if (rc != 0)
		return;
	id = a.id;
	o = op_get(k, tab, id, &rc);
	SANITY(o == &a, "get_byid(%u) after add: %p rc %d", nm, id, (void *)o, rc);
	if (o != NULL)
		op_put(k, o);
	rc = op_add(k, tab, &b, id);
	SANITY(rc == -EBUSY, "add at taken ID %u: %d, expected -EBUSY", nm, id, rc);

	if (k == IMPL_RESTRACK) {
		rc = restrack_begin_del(&a.re);
		SANITY(rc == 0, "begin_del: %d", nm, rc);
		o = op_get(k, tab, id, &rc);
		SANITY(o == NULL && rc == -ENOENT, "get_byid(%u) after begin_del: %p rc %d", nm,
		       id, (void *)o, rc);
		if (o != NULL)
			op_put(k, o);
		rc = op_add(k, tab, &b, id);
		SANITY(rc == -EBUSY, "add at ID %u between begin_del and commit_del: %d, "
		       "expected -EBUSY", nm, id, rc);
		rc = restrack_abort_del(&a.re);
		SANITY(rc == 0, "abort_del: %d", nm, rc);
		o = op_get(k, tab, id, &rc);
		SANITY(o == &a, "get_byid(%u) after abort_del: %p rc %d", nm, id, (void *)o, rc);
		if (o != NULL)
			op_put(k, o);
	}
	rc = op_del(k, tab, &a, RTE_QSBR_THRID_INVALID);
	SANITY(rc == 0, "del: %d", nm, rc);
	o = op_get(k, tab, id, &rc);
	SANITY(o == NULL && rc == -ENOENT, "get_byid(%u) after del: %p rc %d", nm, id, (void *)o,
	       rc);
	if (o != NULL)
		op_put(k, o);
	rc = op_add(k, tab, &b, id);
	SANITY(rc == 0 && b.id == id, "add at freed ID %u: %d", nm, id, rc);
	if (rc == 0) {
		rc = op_del(k, tab, &b, RTE_QSBR_THRID_INVALID);
		SANITY(rc == 0, "del: %d", nm, rc);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Report                                                                                   */

static double results[WL_MAX][MAX_THREADS][IMPL_MAX][MAX_REPS];

static bool
applies(enum workload wl, enum impl impl)
{
	/* Churn has no lookups: hash lkp would repeat hash g/p. */
	return !(wl == WL_CHURN && impl == IMPL_HASH_LKP);
}

static double
median(const double *v, unsigned int n)
{
	double s[MAX_REPS], x;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && s[j - 1] > x; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
	return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Median Mops/s of a cell, 0 when it was not measured. */
static double
cell(enum workload wl, unsigned int thr, enum impl impl)
{
	return median(results[wl][thr - 1][impl], opt.reps);
}

static void
print_header(void)
{
	printf("#\n"
	       "# restrack benchmark: one ID space of 2^%u IDs (IDs 0-%u reserved),\n"
	       "# %u live entries added at setup at explicit IDs, one in each group of %u IDs,\n"
	       "# never deleted. restrack's thread reference caches: %s.\n"
	       "#\n"
	       "# Workloads, each run with 1 and 2 threads (pthreads pinned to CPUs 0 and 1),\n"
	       "# started together behind a barrier:\n"
	       "#   get_byid+put  every op looks up the next ID of the thread's key sequence\n"
	       "#                 (%u random live IDs drawn before the run, as DPDK's hash\n"
	       "#                 benchmark does, looked up in order, round and round), takes\n"
	       "#                 a reference, reads the entry's ID, drops the reference.\n"
	       "#   90/10         9 of every 10 ops as above; every 10th deletes the entry this\n"
	       "#                 thread added %u pairs earlier and adds a new one (cyclic ID).\n"
	       "#   churn         every op deletes one of the thread's %u in-flight entries and\n"
	       "#                 adds a new one (one op = one add+del pair).\n"
	       "#\n"
	       "# Implementations:\n"
	       "#   restrack  restrack_get_byid+put; restrack_new+add (owner: the calling\n"
	       "#             task, restrack's default); restrack_begin_del+commit_del.\n"
	       "#   mutex     pointer array under one pthread mutex (adaptive), the kernel's\n"
	       "#             xa_lock model: get = lock, load, refcount++, unlock;\n"
	       "#             put = atomic refcount--.\n"
	       "#   hash g/p  rte_hash RW_CONCURRENCY_LF|MULTI_WRITER_ADD + rte_rcu_qsbr,\n"
	       "#             lookup_data + atomic refcount get/put; readers report quiescent\n"
	       "#             every %u ops;\n"
	       "#             del = del_key, rte_rcu_qsbr_synchronize, free_key_with_position,\n"
	       "#             then drop the birth reference and wait for 0.\n"
	       "#   hash lkp  the same table, rte_hash_lookup_data only (no reference).\n"
	       "#\n"
	       "# Mops/s = ops of all threads / wall time from the first thread's start to the\n"
	       "# last thread's end. Ops per thread: get_byid+put %" PRIu64 ", 90/10 %" PRIu64 ",\n"
	       "# churn %" PRIu64 " pairs; median of %u run(s).\n"
	       "# rt/X = restrack Mops/s / X Mops/s for the same workload and thread count\n"
	       "# (above 1: restrack is faster).\n"
	       "#\n",
	       ID_BITS, ID_RESERVED - 1, NB_LIVE, 1u << (ID_BITS - opt.live_bits),
	       restrack_thread_cache_on() ? "on" : "off (RESTRACK_THREAD_CACHE=0 or no membarrier)",
	       SEQ_LEN, CHURN_DEPTH, CHURN_DEPTH, QSBR_BATCH,
	       opt.lookup_ops, opt.mixed_ops, opt.churn_ops, opt.reps);
}

/* "  12.34" or "      -" for a cell that was not measured. */
static const char *
fmt_val(char *buf, size_t len, double v, const char *suffix)
{
	if (v > 0)
		snprintf(buf, len, "%.2f%s", v, suffix);
	else
		snprintf(buf, len, "-");
	return buf;
}

static double
ratio(double a, double b)
{
	return a > 0 && b > 0 ? a / b : 0;
}

static void
print_table(FILE *csv)
{
	char b[IMPL_MAX + 3][32];
	enum workload wl;
	unsigned int thr;
	enum impl impl;
	double v[IMPL_MAX];

	printf("| workload     | thr | restrack |    mutex | hash g/p | hash lkp "
	       "| rt/mutex | rt/hash g/p | rt/hash lkp |\n");
	printf("|--------------|-----|----------|----------|----------|----------"
	       "|----------|-------------|-------------|\n");
	if (csv != NULL)
		fprintf(csv, "workload,threads,restrack_mops,mutex_mops,hash_gp_mops,hash_lkp_mops,"
			"rt_over_mutex,rt_over_hash_gp,rt_over_hash_lkp\n");
	for (wl = 0; wl < WL_MAX; wl++) {
		for (thr = 1; thr <= MAX_THREADS; thr++) {
			if (!(opt.wl_mask & (1u << wl)) || !(opt.thr_mask & (1u << thr)))
				continue;
			for (impl = 0; impl < IMPL_MAX; impl++)
				v[impl] = applies(wl, impl) ? cell(wl, thr, impl) : 0;
			printf("| %-12s | %3u | %8s | %8s | %8s | %8s | %8s | %11s | %11s |\n",
			       wl_name[wl], thr,
			       fmt_val(b[0], sizeof(b[0]), v[IMPL_RESTRACK], ""),
			       fmt_val(b[1], sizeof(b[1]), v[IMPL_MUTEX], ""),
			       fmt_val(b[2], sizeof(b[2]), v[IMPL_HASH_GP], ""),
			       fmt_val(b[3], sizeof(b[3]), v[IMPL_HASH_LKP], ""),
			       fmt_val(b[4], sizeof(b[4]),
				       ratio(v[IMPL_RESTRACK], v[IMPL_MUTEX]), "x"),
			       fmt_val(b[5], sizeof(b[5]),
				       ratio(v[IMPL_RESTRACK], v[IMPL_HASH_GP]), "x"),
			       fmt_val(b[6], sizeof(b[6]),
				       ratio(v[IMPL_RESTRACK], v[IMPL_HASH_LKP]), "x"));
			if (csv != NULL)
				fprintf(csv, "%s,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
					wl_name[wl], thr, v[IMPL_RESTRACK], v[IMPL_MUTEX],
					v[IMPL_HASH_GP], v[IMPL_HASH_LKP],
					ratio(v[IMPL_RESTRACK], v[IMPL_MUTEX]),
					ratio(v[IMPL_RESTRACK], v[IMPL_HASH_GP]),
					ratio(v[IMPL_RESTRACK], v[IMPL_HASH_LKP]));
		}
	}
}

static void
print_target(const char *what, double r, double want)
{
	if (r > 0)
		printf("# target: %-50s %6.2fx (want >= %.0fx)  %s\n", what, r, want,
		       r >= want ? "MET" : "MISSED");
	else
		printf("# target: %-50s not measured in this run\n", what);
}

static void
print_targets(void)
{
	double rt = cell(WL_LOOKUP, 2, IMPL_RESTRACK);

	printf("#\n# Targets, with 2 threads:\n");
	print_target("get_byid+put >= 3x rte_hash lookup only (hash lkp)",
		     ratio(rt, cell(WL_LOOKUP, 2, IMPL_HASH_LKP)), 3);
	print_target("get_byid+put >= 3x rte_hash lookup+get/put",
		     ratio(rt, cell(WL_LOOKUP, 2, IMPL_HASH_GP)), 3);
	print_target("get_byid+put >= 5x mutex table",
		     ratio(rt, cell(WL_LOOKUP, 2, IMPL_MUTEX)), 5);
	print_target("churn >= 2x mutex table",
		     ratio(cell(WL_CHURN, 2, IMPL_RESTRACK), cell(WL_CHURN, 2, IMPL_MUTEX)), 2);
	printf("# Not a target, for comparison: bulk16+put against rte_hash bulk lookup\n"
	       "# %.2fx, against bulk lookup+get/put %.2fx (2 threads; 0 = not measured).\n",
	       ratio(cell(WL_BULK, 2, IMPL_RESTRACK), cell(WL_BULK, 2, IMPL_HASH_LKP)),
	       ratio(cell(WL_BULK, 2, IMPL_RESTRACK), cell(WL_BULK, 2, IMPL_HASH_GP)));
}

static void
print_memory(void)
{
	size_t rt = restrack_bytes_per_entry() + sizeof(struct restrack_entry);
	double hash_slot = (double)hash_bytes / ID_SPACE;

	printf("#\n# Memory per tracked entry (ID space 2^%u, %u entries tracked):\n", ID_BITS,
	       NB_LIVE);
	printf("#   restrack  %zu B = restrack_bytes_per_entry() %zu"
	       " + sizeof(struct restrack_entry) %zu\n", rt, restrack_bytes_per_entry(),
	       sizeof(struct restrack_entry));
	printf("#             measured: restrack_init + %u adds grew RSS by %.1f B per entry\n"
	       "#             (slot pages and record chunks; the embedded entry not included)\n",
	       NB_LIVE, (double)restrack_fill_bytes / NB_LIVE);
	printf("#             and %zu B per thread that looks anything up (its reference cache)\n",
	       sizeof(struct restrack_tref));
	printf("#   mutex     %zu B = pointer slot %zu (one per ID, allocated up front)"
	       " + refcount %zu\n",
	       sizeof(void *) + sizeof(uint32_t), sizeof(void *), sizeof(uint32_t));
	printf("#   rte_hash  %.1f B = table %.1f (rte_malloc growth of rte_hash_create\n"
	       "#             / capacity %u) + refcount %zu + ID claim byte 1\n",
	       hash_slot + sizeof(uint32_t) + 1, hash_slot, ID_SPACE, sizeof(uint32_t));
}

/* ---------------------------------------------------------------------------------------- */

static void
usage(const char *prog)
{
	printf("usage: %s [--quick] [--csv FILE] [--reps N] [--verbose]\n"
	       "          [--workload lookup|mixed|churn] [--threads 1|2]\n"
	       "          [--impl restrack|mutex|hash_gp|hash_lkp] [--live-bits B]\n"
	       "  --quick     small op counts, one run each (CI smoke, a few seconds)\n"
	       "  --csv FILE  also write the table as CSV\n"
	       "  --reps N    runs per cell, median reported (1..%u)\n"
	       "  --verbose   print every run as it completes\n"
	       "  --workload, --threads, --impl  run only these cells (repeatable; profiling)\n"
	       "  --live-bits B  2^B lookup targets (%u..%u, default %u: 64 Ki)\n",
	       prog, MAX_REPS, LIVE_BITS_MIN, LIVE_BITS, LIVE_BITS);
}

/* Bit of @name in @names, or 0. */
static unsigned int
name_bit(const char *name, const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return 1u << i;
	return 0;
}

/* Silence restrack's log while the sanity checks provoke the errors they expect. */
static void
restrack_log_quiet(bool quiet)
{
	static uint32_t saved = RTE_LOG_NOTICE;
	int type = rte_log_register("lib.restrack");

	if (type < 0)
		return;
	if (quiet) {
		saved = (uint32_t)rte_log_get_level((uint32_t)type);
		rte_log_set_level((uint32_t)type, RTE_LOG_CRIT);
	} else {
		rte_log_set_level((uint32_t)type, saved);
	}
}

/*
 * Every selected cell, opt.reps times. Implementations are interleaved inside each repetition
 * so that drift and noisy neighbours hit them alike. Returns -1 on a functional error.
 */
static int
run_all(struct bench_tab *tabs)
{
	/* hash g/p and hash lkp run on the same table. */
	static const enum impl tab_of[IMPL_MAX] = {
		[IMPL_RESTRACK] = IMPL_RESTRACK,
		[IMPL_MUTEX] = IMPL_MUTEX,
		[IMPL_HASH_GP] = IMPL_HASH_GP,
		[IMPL_HASH_LKP] = IMPL_HASH_GP,
	};
	unsigned int rep, thr, cells = 0, c;
	unsigned int todo[WL_MAX * MAX_THREADS * IMPL_MAX][3];
	enum workload wl;
	enum impl impl;
	double *r;

	for (wl = 0; wl < WL_MAX; wl++) {
		for (thr = 1; thr <= MAX_THREADS; thr++) {
			for (impl = 0; impl < IMPL_MAX; impl++) {
				if (!applies(wl, impl) || !(opt.wl_mask & (1u << wl)) ||
				    !(opt.thr_mask & (1u << thr)) ||
				    !(opt.impl_mask & (1u << impl)))
					continue;
				todo[cells][0] = wl;
				todo[cells][1] = thr;
				todo[cells][2] = impl;
				cells++;
			}
		}
	}
	printf("# TSC %.3f GHz; running %u runs ", (double)rte_get_tsc_hz() / 1e9,
	       cells * opt.reps);
	fflush(stdout);
	for (rep = 0; rep < opt.reps; rep++) {
		for (c = 0; c < cells; c++) {
			wl = todo[c][0];
			thr = todo[c][1];
			impl = todo[c][2];
			r = &results[wl][thr - 1][impl][rep];
			*r = bench_run(&tabs[tab_of[impl]], impl, wl, thr);
			if (opt.verbose)
				printf("\n# run %u: %-12s %u thread(s) %-8s %8.2f Mops/s", rep + 1,
				       wl_name[wl], thr, impl_name[impl], *r);
			else
				printf(".");
			fflush(stdout);
			tab_verify(&tabs[tab_of[impl]], wl_name[wl]);
			if (total_errors != 0) {
				printf("\n# stopping: functional errors in %s %s, %u thread(s)\n",
				       impl_name[impl], wl_name[wl], thr);
				return -1;
			}
		}
	}
	printf("\n#\n");
	return 0;
}

int
main(int argc, char **argv)
{
	static struct bench_tab tabs[IMPL_MAX];
	FILE *csv = NULL;
	enum impl impl;
	unsigned int i;
	long cpus;
	int a, rc;

	opt.lookup_ops = FULL_LOOKUP_OPS;
	opt.mixed_ops = FULL_MIXED_OPS;
	opt.churn_ops = FULL_CHURN_OPS;
	opt.reps = FULL_REPS;
	opt.live_bits = LIVE_BITS;
	for (a = 1; a < argc; a++) {
		static const char *const wl_opt[WL_MAX] = { "lookup", "bulk", "mixed", "churn" };
		static const char *const thr_opt[MAX_THREADS + 1] = { "0", "1", "2" };
		static const char *const impl_opt[IMPL_MAX] = {
			"restrack", "mutex", "hash_gp", "hash_lkp"
		};
		unsigned int bit;

		if (strcmp(argv[a], "--quick") == 0) {
			opt.lookup_ops = QUICK_LOOKUP_OPS;
			opt.mixed_ops = QUICK_MIXED_OPS;
			opt.churn_ops = QUICK_CHURN_OPS;
			opt.reps = QUICK_REPS;
		} else if (strcmp(argv[a], "--verbose") == 0) {
			opt.verbose = true;
		} else if (strcmp(argv[a], "--workload") == 0 && a + 1 < argc &&
			   (bit = name_bit(argv[a + 1], wl_opt, WL_MAX)) != 0) {
			opt.wl_mask |= bit;
			a++;
		} else if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc &&
			   (bit = name_bit(argv[a + 1], thr_opt, MAX_THREADS + 1)) > 1) {
			opt.thr_mask |= bit;
			a++;
		} else if (strcmp(argv[a], "--impl") == 0 && a + 1 < argc &&
			   (bit = name_bit(argv[a + 1], impl_opt, IMPL_MAX)) != 0) {
			opt.impl_mask |= bit;
			a++;
		} else if (strcmp(argv[a], "--live-bits") == 0 && a + 1 < argc) {
			opt.live_bits = (unsigned int)atoi(argv[++a]);
			if (opt.live_bits < LIVE_BITS_MIN || opt.live_bits > LIVE_BITS) {
				usage(argv[0]);
				return EXIT_FAILURE;
			}
		} else if (strcmp(argv[a], "--csv") == 0 && a + 1 < argc) {
			opt.csv = argv[++a];
		} else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc) {
			opt.reps = (unsigned int)atoi(argv[++a]);
			if (opt.reps < 1 || opt.reps > MAX_REPS) {
				usage(argv[0]);
				return EXIT_FAILURE;
			}
		} else {
			usage(argv[0]);
			return strcmp(argv[a], "--help") == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
		}
	}
	if (opt.wl_mask == 0)
		opt.wl_mask = (1u << WL_MAX) - 1;
	if (opt.thr_mask == 0)
		opt.thr_mask = ((1u << (MAX_THREADS + 1)) - 1) & ~1u;
	if (opt.impl_mask == 0)
		opt.impl_mask = (1u << IMPL_MAX) - 1;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	opt.nb_cpus = cpus > 0 ? (unsigned int)cpus : 1;

	if (test_eal_init("bench_restrack", NULL) < 0) {
		printf("# FUNCTIONAL ERROR: EAL init failed\n");
		return EXIT_FAILURE;
	}
	if (opt.csv != NULL) {
		csv = fopen(opt.csv, "w");
		if (csv == NULL) {
			printf("# cannot open %s: %s\n", opt.csv, strerror(errno));
			return EXIT_FAILURE;
		}
	}
	for (i = 0; i < MAX_THREADS; i++) {
		thread_pool[i] = aligned_alloc(RTE_CACHE_LINE_SIZE,
					       sizeof(struct bench_obj) * CHURN_DEPTH);
		thread_seq[i] = calloc(SEQ_LEN, sizeof(uint32_t));
		if (thread_pool[i] == NULL || thread_seq[i] == NULL)
			return EXIT_FAILURE;
	}

	for (impl = IMPL_RESTRACK; impl <= IMPL_HASH_GP; impl++) {
		rc = tab_create(&tabs[impl], impl);
		if (rc != 0) {
			BENCH_FAIL("%s: create: %d (%s)", impl_name[impl], rc, strerror(-rc));
			return EXIT_FAILURE;
		}
		restrack_log_quiet(true);
		tab_sanity(&tabs[impl]);
		restrack_log_quiet(false);
		if (tab_fill(&tabs[impl]) != 0)
			return EXIT_FAILURE;
		tab_verify(&tabs[impl], "setup");
	}
	if (total_errors != 0)
		return EXIT_FAILURE;

	print_header();
	if (run_all(tabs) != 0)
		return EXIT_FAILURE;
	print_table(csv);
	print_targets();
	print_memory();
	for (impl = IMPL_RESTRACK; impl <= IMPL_HASH_GP; impl++)
		tab_destroy(&tabs[impl]);
	for (i = 0; i < MAX_THREADS; i++) {
		free(thread_pool[i]);
		free(thread_seq[i]);
	}
	if (csv != NULL)
		fclose(csv);
	rte_eal_cleanup();
	if (total_errors != 0) {
		printf("# %" PRIu64 " functional error(s)\n", total_errors);
		return EXIT_FAILURE;
	}
	printf("# no functional errors\n");
	return EXIT_SUCCESS;
}
