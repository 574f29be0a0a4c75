/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Thread reference caches: where restrack_get_byid() counts a reference without a locked
 * instruction (restrack.c, "Thread reference caches", has the protocol and its proof).
 *
 * Each thread that looks something up gets a record: RESTRACK_TREF_SLOTS words of key | count,
 * written only by that thread and read by deleters. Until then its cache is the shared
 * tref_none, whose slots are all ones: full, and no key matches them, so the first
 * take goes the slow way and attaches a record. Records are never freed: a thread that
 * exits leaves its record, counts and all, for the next new thread to adopt, so a reference a
 * thread took and never dropped (or that another thread will drop) stays counted, and a
 * deleter can always read every record without a lock.
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>

#include "restrack_private.h"

/*
 * Records are aligned to two cache lines: CPUs that prefetch lines in pairs would otherwise
 * pull one thread's last line along with its neighbour's first, and the two threads' stores
 * would bounce the pair between their caches.
 */
#define RT_TREF_ALIGN (2 * RTE_CACHE_LINE_SIZE)

/* A thread's cache, and what ties it to the list of every cache. */
struct rt_tref_rec {
	struct restrack_tref t;		/* first: restrack_tref_self points here */
	struct rt_tref_rec *next;	/* older records; set before publication, then constant */
	_Atomic int in_use;		/* a live thread owns it */
} __rte_aligned(RT_TREF_ALIGN);

/* Never written: all ones is a full slot that no key matches. */
static struct restrack_tref tref_none = {
	.slot = { [0 ... RESTRACK_TREF_SLOTS - 1] = UINT64_MAX },
};
__thread struct restrack_tref *restrack_tref_self = &tref_none;
static int tref_on;	/* the process can use caches: membarrier() works */

static struct rt_tref_rec *_Atomic rec_head;
static pthread_key_t rec_key;
static pthread_once_t enable_once = PTHREAD_ONCE_INIT;

/* Thread exit: the record, with whatever it still counts, waits for another thread. */
static void
rec_release(void *arg)
{
	struct rt_tref_rec *rec = arg;

	restrack_tref_self = &tref_none;
	/* release: our last count stores happen before an adopter's use of the slots. */
	atomic_store_explicit(&rec->in_use, 0, memory_order_release);
}

static void
enable(void)
{
	const char *env = getenv("RESTRACK_THREAD_CACHE");

	if (env != NULL && strcmp(env, "0") == 0) {
		RT_LOG(INFO, "thread reference caches off (RESTRACK_THREAD_CACHE=0): "
		       "references are counted on the IDs' words");
		return;
	}
	if (pthread_key_create(&rec_key, rec_release) != 0) {
		RT_LOG(WARNING, "no thread key: references are counted on the IDs' words");
		return;
	}
	/* The deleter's half of the protocol: membarrier() must work for this process. */
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) {
		RT_LOG(INFO, "membarrier() unavailable (%s): references are counted on the IDs' words",
		       strerror(errno));
		return;
	}
	tref_on = 1;
}

bool
restrack_thread_cache_on(void)
{
	return tref_on != 0;
}

void
rt_tref_enable(void)
{
	pthread_once(&enable_once, enable);
}

/* Give the calling thread a cache of its own; NULL if it cannot have one. */
static struct restrack_tref *
attach(void)
{
	struct rt_tref_rec *rec, *head;

	if (!tref_on)
		return NULL;
	/* acquire: a record's slots and next are initialised before it is on the list. */
	for (rec = atomic_load_explicit(&rec_head, memory_order_acquire); rec != NULL;
	     rec = rec->next) {
		int free_rec = 0;

		/* acquire: the previous owner's counts happen before our use. */
		if (atomic_load_explicit(&rec->in_use, memory_order_relaxed) == 0 &&
		    atomic_compare_exchange_strong_explicit(&rec->in_use, &free_rec, 1,
				memory_order_acquire, memory_order_relaxed))
			goto own;
	}
	if (posix_memalign((void **)&rec, RT_TREF_ALIGN, sizeof(*rec)) != 0) {
		RT_LOG(WARNING, "out of memory for a thread reference cache: this thread's "
		       "references are counted on the IDs' words");
		return NULL;
	}
	memset(rec, 0, sizeof(*rec));
	atomic_init(&rec->in_use, 1);
	head = atomic_load_explicit(&rec_head, memory_order_relaxed);
	do
		rec->next = head;
	/* release: publishes the zeroed slots and next. */
	while (!atomic_compare_exchange_weak_explicit(&rec_head, &head, rec,
			memory_order_release, memory_order_relaxed));
own:
	/* Without the key, the record is simply never handed on: still correct. */
	(void)pthread_setspecific(rec_key, rec);
	restrack_tref_self = &rec->t;
	return &rec->t;
}

_Atomic uint64_t *
rt_key_word(const struct restrack_root *root, uint64_t key)
{
	unsigned int type;

	for (type = 0; type < RESTRACK_MAX; type++) {
		const struct restrack_table_fast *tf = &root->fast.table[type];
		uint64_t lo = restrack_tref_key(tf->slots);

		if (key >= lo && key < restrack_tref_key(tf->slots + tf->nb_ids))
			/* Keys of consecutive IDs are 2 * 8 bytes apart. */
			return &tf->words[(key - lo) >> 4];
	}
	return NULL;
}

int
restrack_tref_take_slow(const struct restrack_root *root, uint64_t key, _Atomic uint64_t *word,
			const struct restrack_entry *seen)
{
	_Atomic uint64_t *ts, *other_word;
	uint64_t v, other;

	if (restrack_tref_self == &tref_none)
		return attach() != NULL ? restrack_tref_take(root, key, word, seen) : -1;
	ts = restrack_tref_slot_of(restrack_tref_self, seen);
	v = atomic_load_explicit(ts, memory_order_relaxed);
	other = v & ~(uint64_t)RESTRACK_TREF_MAX;
	/* Full of this ID's references, or held for another root (not ours to touch): word. */
	if (other == key || (other_word = rt_key_word(root, other)) == NULL)
		return -1;
	/*
	 * Another ID of this root holds the slot: usually references this thread took and
	 * another thread dropped (off the word), which would hold it for good. Move the count to
	 * that ID's word, then free the slot: word first, so that a deleter, which reads caches
	 * before words, never sees the count in neither place.
	 */
	atomic_fetch_add_explicit(other_word,
				  (v & RESTRACK_TREF_MAX) * RESTRACK_REF_ONE, memory_order_release);
	/* release: after the add, for the deleter's acquire read of the cache. */
	atomic_store_explicit(ts, 0, memory_order_release);
	return restrack_tref_take(root, key, word, seen);
}

void
rt_tref_forget(uintptr_t lo, uintptr_t hi)
{
	struct rt_tref_rec *rec;
	unsigned int i;

	for (rec = atomic_load_explicit(&rec_head, memory_order_acquire); rec != NULL;
	     rec = rec->next)
		for (i = 0; i < RESTRACK_TREF_SLOTS; i++) {
			_Atomic uint64_t *ts = &rec->t.slot[i];
			uint64_t v = atomic_load_explicit(ts, memory_order_relaxed);
			uint64_t k = v & ~(uint64_t)RESTRACK_TREF_MAX;

			/*
			 * The owner writes a slot holding a key of this (unused) root only by
			 * compare-and-swap; its plain stores need a count of 0 or its own key:
			 * our CAS from v cannot lose one of them.
			 */
			while (k >= lo && k < hi && (v & RESTRACK_TREF_MAX) != 0 &&
			       !atomic_compare_exchange_weak_explicit(ts, &v, 0,
					memory_order_relaxed, memory_order_relaxed))
				k = v & ~(uint64_t)RESTRACK_TREF_MAX;
		}
}

int
restrack_tref_mark(_Atomic uint64_t *word)
{
	/* acq_rel, a locked instruction: it also orders our count before our look at LIVE. */
	return (atomic_fetch_or_explicit(word, RESTRACK_REF_THREAD, memory_order_acq_rel) &
		RESTRACK_REF_LIVE) != 0;
}

int64_t
rt_tref_sum(uint64_t key)
{
	struct rt_tref_rec *rec;
	unsigned int i;
	int64_t n = 0;

	for (rec = atomic_load_explicit(&rec_head, memory_order_acquire); rec != NULL;
	     rec = rec->next)
		for (i = 0; i < RESTRACK_TREF_SLOTS; i++) {
			/* acquire: pairs with the owner's release of a count it dropped. */
			uint64_t v = atomic_load_explicit(&rec->t.slot[i], memory_order_acquire);

			if ((v & ~(uint64_t)RESTRACK_TREF_MAX) == key)
				n += (int64_t)(v & RESTRACK_TREF_MAX);
		}
	return n;
}

void
rt_tref_barrier(void)
{
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
		return;
	/* Registered, so this should not happen; the global form is slower but as strong. */
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return;
	RT_LOG(ERR, "membarrier() failed (%s): a reader may briefly miss a deletion",
	       strerror(errno));
	atomic_thread_fence(memory_order_seq_cst);
}
