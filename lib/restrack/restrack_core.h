/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RESTRACK_CORE_H
#define RESTRACK_CORE_H

/**
 * @file
 * restrack's lookup path, inline: restrack_get_byid(), restrack_get(), restrack_put().
 *
 * Included by restrack.h; do not include it directly. The structures here are restrack's
 * internals, exposed only so that the lookup path compiles into the caller (as DPDK exposes
 * its fast-path objects); never touch them.
 *
 * Each ID of a type's space has two 8-byte words, in two arrays. Its slot, which lookups
 * read: the address of the entry that owns the ID (NULL when free) with the LIVE and THREAD
 * bits in bits 1:0. Its reference word, which lookups do not touch: the LIVE bit, the THREAD bit
 * and a reference count. Both arrays live as long as the root. A reader counts its reference
 * in its own thread's cache, then reads the slot again: if it still names the same entry with
 * LIVE and THREAD set, the reference is taken, and the entry cannot be deleted until the
 * reader puts it. Anything else (no cache, a busy cache slot, an ID not yet looked up through a
 * cache, an ID being added or deleted) goes the general way, out of line, on the reference
 * word. See restrack.c for the invariants.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

/* The types and functions this file builds on (restrack.h includes this file at its end). */
#include "restrack.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The atomic operations of the inline lookup path, on restrack_atomic64_t: C11's generic
 * functions in C, their std:: namesakes in C++. The same memory orders in both, named as C
 * names them (memory_order_acquire, ...).
 */
#ifdef __cplusplus
#define restrack_atomic_load(p, mo) std::atomic_load_explicit(p, std::mo)
#define restrack_atomic_store(p, v, mo) std::atomic_store_explicit(p, v, std::mo)
#define restrack_atomic_fetch_add(p, v, mo) std::atomic_fetch_add_explicit(p, v, std::mo)
#define restrack_atomic_fetch_sub(p, v, mo) std::atomic_fetch_sub_explicit(p, v, std::mo)
#define restrack_atomic_signal_fence(mo) std::atomic_signal_fence(std::mo)
#else
/** @internal atomic_load_explicit() (std:: in C++). */
#define restrack_atomic_load(p, mo) atomic_load_explicit(p, mo)
/** @internal atomic_store_explicit() (std:: in C++). */
#define restrack_atomic_store(p, v, mo) atomic_store_explicit(p, v, mo)
/** @internal atomic_fetch_add_explicit() (std:: in C++). */
#define restrack_atomic_fetch_add(p, v, mo) atomic_fetch_add_explicit(p, v, mo)
/** @internal atomic_fetch_sub_explicit() (std:: in C++). */
#define restrack_atomic_fetch_sub(p, v, mo) atomic_fetch_sub_explicit(p, v, mo)
/** @internal atomic_signal_fence() (std:: in C++). */
#define restrack_atomic_signal_fence(mo) atomic_signal_fence(mo)
#endif

/** Reference word: visible to lookups and get (bit 0). */
#define RESTRACK_REF_LIVE UINT64_C(1)
/** Reference word: some thread may count references to this ID in its own cache (bit 1;
 *  sticky for the life of the root). A deleter then has to look there too. */
#define RESTRACK_REF_THREAD UINT64_C(2)
/** Reference word: one reference. The count is bits 63:2, signed: a thread's cached reference
 *  dropped by another thread is taken off the word, which may then go below zero. */
#define RESTRACK_REF_ONE UINT64_C(4)
/** Most IDs one restrack_get_byid_bulk() call takes. */
#define RESTRACK_BULK_MAX 64u
/** Slots of a thread's reference cache (a power of two). */
#define RESTRACK_TREF_SLOTS 128u
/** References one cache slot counts (its low bits); more go to the word. */
#define RESTRACK_TREF_MAX 15u

/** Reference word: the reference count held in the word itself (signed). */
#define RESTRACK_REF_COUNT(word) ((int64_t)(word) >> 2)

/** Slot: the ID's entry is live (bit 0; a copy of the reference word's LIVE for lookups). */
#define RESTRACK_SLOT_LIVE RESTRACK_REF_LIVE
/** Slot: the reference word is THREAD (bit 1; set only after the word's, and as sticky). */
#define RESTRACK_SLOT_THREAD RESTRACK_REF_THREAD
/** Slot: both flag bits; the rest is the entry's address. */
#define RESTRACK_SLOT_FLAGS (RESTRACK_SLOT_LIVE | RESTRACK_SLOT_THREAD)

/** @internal The entry a slot value names (NULL: the ID is free). */
static inline struct restrack_entry *
restrack_slot_entry(uint64_t s)
{
	return (struct restrack_entry *)(uintptr_t)(s & ~RESTRACK_SLOT_FLAGS);
}

/** @internal Thread cache key of an ID: its slot's address shifted left once (slots are
 *  8-byte aligned, so the key's low 4 bits are free for the count). Never 0. */
static inline uint64_t
restrack_tref_key(const restrack_atomic64_t *slot)
{
	return (uint64_t)(uintptr_t)slot << 1;
}

/** @internal What the lookup path needs of a type's table. */
struct restrack_table_fast {
	restrack_atomic64_t *slots;	/**< nb_ids slots: entry | THREAD | LIVE */
	restrack_atomic64_t *words;	/**< nb_ids reference words: count | THREAD | LIVE */
	uint32_t nb_ids;		/**< size of the ID space */
};

/** @internal The first member of every root. */
struct restrack_root_fast {
	struct restrack_table_fast table[RESTRACK_MAX];	/**< per type */
};

/**
 * @internal A thread's reference cache: references the thread took, counted without a locked
 * instruction (see restrack.c, "Thread reference caches"). Each slot is one word, key | count:
 * the key of an ID (restrack_tref_key() of its slot, restrack_entry.tkey) and up to
 * RESTRACK_TREF_MAX references. Written by its thread; read by deleters; cleared by
 * restrack_clean() for the root it frees (compare-and-swap, so no write of the owner's is
 * lost).
 */
struct restrack_tref {
	restrack_atomic64_t slot[RESTRACK_TREF_SLOTS];	/**< indexed by entry address */
};

/** @internal The calling thread's cache: a shared all-full one until its first lookup. */
extern __thread struct restrack_tref *restrack_tref_self;

/** @internal A thread's take that its cache refused: attach a cache to the thread first if
 *  it has none, or free a slot another ID of @p root holds. 1 taken, 0 not live, -1 use the
 *  word. */
int restrack_tref_take_slow(const struct restrack_root *root, uint64_t key,
			    restrack_atomic64_t *word, const struct restrack_entry *seen);

/** @internal First cached reference on a slot: marks its word THREAD (once per slot). */
int restrack_tref_mark(restrack_atomic64_t *word);

/** @internal Logs and returns the error of a restrack_get_byid() with bad arguments. */
int restrack_get_byid_error(const struct restrack_root *root, enum restrack_type type,
			    uint32_t id, struct restrack_entry **out);

/** @internal restrack_put() of a reference the caller's cache does not hold: on the word. */
int restrack_put_word(struct restrack_entry *entry);

/** @internal Logs and returns the error of a restrack_put() that has nothing to put. */
int restrack_put_error(const struct restrack_entry *entry);

/** @internal Logs and returns the error of a restrack_get() on NULL. */
int restrack_get_error(void);

/** @internal Cache slot of an entry: its address picks it, so put needs no load to find it. */
static inline restrack_atomic64_t *
restrack_tref_slot_of(struct restrack_tref *t, const struct restrack_entry *entry)
{
	return &t->slot[((uintptr_t)entry >> 6) & (RESTRACK_TREF_SLOTS - 1)];
}

/**
 * @internal Count one reference under @p key in cache slot @p ts, which holds @p v: when the
 * slot is ours and not full (v - key is our count, 0..14) or free (count 0, any key).
 *
 * @return true counted, false the slot cannot take it.
 */
static inline bool
restrack_tref_count(restrack_atomic64_t *ts, uint64_t v, uint64_t key)
{
	/* relaxed: only this thread writes the slot; the caller orders what follows. */
	if (likely(v - key < RESTRACK_TREF_MAX))
		restrack_atomic_store(ts, v + 1, memory_order_relaxed);
	else if (likely((v & RESTRACK_TREF_MAX) == 0))
		restrack_atomic_store(ts, key + 1, memory_order_relaxed);
	else
		return false;
	return true;
}

/**
 * @internal Take a reference on an ID of @p root (its cache key @p key, its reference word
 * @p word) in the calling thread's cache, for the entry @p seen in its slot (a hint: only the
 * cache slot depends on it).
 *
 * @return 1 taken, 0 not live (nothing held), -1 the cache cannot take it (use the word).
 */
static inline int
restrack_tref_take(const struct restrack_root *root, uint64_t key, restrack_atomic64_t *word,
		   const struct restrack_entry *seen)
{
	restrack_atomic64_t *ts = restrack_tref_slot_of(restrack_tref_self, seen);
	/* relaxed: only this thread writes the slot. */
	uint64_t v = restrack_atomic_load(ts, memory_order_relaxed);
	uint64_t w;

	if (unlikely(!restrack_tref_count(ts, v, key)))
		return restrack_tref_take_slow(root, key, word, seen);
	/*
	 * Count first, then look at LIVE: a deleter clears LIVE, then runs membarrier(), which
	 * orders this store before this load on every CPU, then reads the counts. So either we
	 * see LIVE clear, or it sees our count. A compiler barrier is all this side needs.
	 */
	restrack_atomic_signal_fence(memory_order_seq_cst);
	/* acquire: pairs with the release that set LIVE; the entry and its fields are visible. */
	w = restrack_atomic_load(word, memory_order_acquire);
	/* LIVE and THREAD are bits 1:0: both set exactly when w + 1 has them clear. */
	if (likely(((w + 1) & (RESTRACK_REF_LIVE | RESTRACK_REF_THREAD)) == 0))
		return 1;
	if ((w & RESTRACK_REF_LIVE) && restrack_tref_mark(word))
		return 1;
	/* release: as a put; a drain waiting on it sees our back-out. */
	restrack_atomic_store(ts, v, memory_order_release);
	return 0;
}

/** @internal Take a reference on an ID's reference word itself (no cache). 1 taken, 0 not
 *  live. */
static inline int
restrack_word_take(restrack_atomic64_t *word)
{
	/* acquire: pairs with the release that set LIVE; the entry and its fields are visible. */
	if (likely(restrack_atomic_fetch_add(word, RESTRACK_REF_ONE, memory_order_acquire) &
		   RESTRACK_REF_LIVE))
		return 1;
	/* release: every decrement is a release, for begin_del's drain. */
	restrack_atomic_fetch_sub(word, RESTRACK_REF_ONE, memory_order_release);
	return 0;
}

/** @internal restrack_slot_get() when its fast way does not apply: the general protocol on the
 *  reference word. 0 with *out, or -ENOENT. */
int restrack_slot_get_slow(const struct restrack_root *root, enum restrack_type type,
			   uint32_t id, struct restrack_entry **out);

/**
 * @internal restrack_get_byid() on a checked ID: 0 with *out, or -ENOENT.
 *
 * The fast way reads nothing but the ID's slot and the thread's cache: it counts the reference
 * in the cache under the ID's key, then reads the slot again. The same value with LIVE and
 * THREAD set means taken: a deleter clears the slot's LIVE before its membarrier() and reads
 * the caches after it, so either it sees our count or we see LIVE clear (restrack.c, I6). The
 * same value again after the entry was deleted and re-added at the same ID and address is the
 * new incarnation, also live: the count under the ID's key is a reference on it.
 */
static inline int
restrack_slot_get(const struct restrack_root *root, enum restrack_type type, uint32_t id,
		  struct restrack_entry **out)
{
	restrack_atomic64_t *slot =
		&((const struct restrack_root_fast *)root)->table[type].slots[id];
	/* acquire: pairs with the release that set LIVE; the entry and its fields are visible. */
	uint64_t s = restrack_atomic_load(slot, memory_order_acquire);
	/* With both flags set (and only then) s - FLAGS has its low bits clear: the entry. */
	struct restrack_entry *e = (struct restrack_entry *)(uintptr_t)(s - RESTRACK_SLOT_FLAGS);
	uint64_t key = restrack_tref_key(slot);
	restrack_atomic64_t *ts = restrack_tref_slot_of(restrack_tref_self, e);
	/* relaxed: only this thread writes the cache slot. */
	uint64_t v = restrack_atomic_load(ts, memory_order_relaxed);

	if (unlikely(((uintptr_t)e & RESTRACK_SLOT_FLAGS) || !restrack_tref_count(ts, v, key)))
		return restrack_slot_get_slow(root, type, id, out);
	/* Count first, then look again: a compiler barrier is all this side needs (I6). */
	restrack_atomic_signal_fence(memory_order_seq_cst);
	/* acquire: a re-added incarnation's fields are visible too. */
	if (likely(restrack_atomic_load(slot, memory_order_acquire) == s)) {
		*out = e;
		return 0;
	}
	/* release: as a put; a drain waiting on it sees our back-out. */
	restrack_atomic_store(ts, v, memory_order_release);
	return restrack_slot_get_slow(root, type, id, out);
}

/**
 * Find the live entry with @p id and take a reference on it. Wait-free, no lock: the
 * reference is counted in the calling thread's own cache (no shared write at all), or, when
 * that cache is busy or off, by one atomic add on the ID's reference word. The caller
 * releases the reference with restrack_put(), from any thread.
 *
 * @return 0 with *out set, -ENOENT when no live entry has that ID (free, claimed or being
 *         deleted), -EINVAL for a bad type or NULL, -ERANGE for an ID outside the type's space.
 */
static inline int
restrack_get_byid(struct restrack_root *root, enum restrack_type type, uint32_t id,
		  struct restrack_entry **out)
{
	const struct restrack_root_fast *rf = (const struct restrack_root_fast *)root;

	if (unlikely(root == NULL || out == NULL || (unsigned int)type >= RESTRACK_MAX ||
		     id >= rf->table[type].nb_ids))
		return restrack_get_byid_error(root, type, id, out);
	return restrack_slot_get(root, type, id, out);
}

/** @internal Logs and returns the error of a restrack_get_byid_bulk() with bad arguments. */
int restrack_get_byid_bulk_error(const struct restrack_root *root, enum restrack_type type,
				 const uint32_t *ids, unsigned int n,
				 struct restrack_entry **out);

/**
 * restrack_get_byid() for @p n IDs of one type at once, for a burst (the QPNs of a poll, the
 * keys of a batch of requests). All the slots are prefetched first, so their cache misses
 * overlap; then each is referenced as restrack_get_byid() does. Wait-free.
 *
 * @param root  Root to look in.
 * @param type  Type of every ID.
 * @param ids   @p n IDs (repeats allowed: each occurrence takes its own reference).
 * @param n     Number of IDs, at most RESTRACK_BULK_MAX.
 * @param out   out[i] = the entry of ids[i], referenced, or NULL when ids[i] has no live entry
 *              (free, claimed or being deleted).
 * @return how many entries were found (the non-NULL out[i]; drop each with restrack_put()),
 *         -EINVAL for a bad root or type, NULL arrays or @p n above RESTRACK_BULK_MAX, -ERANGE
 *         when an ID is outside the type's space (then nothing is taken).
 */
static inline int
restrack_get_byid_bulk(struct restrack_root *root, enum restrack_type type, const uint32_t *ids,
		       unsigned int n, struct restrack_entry **out)
{
	const struct restrack_root_fast *rf = (const struct restrack_root_fast *)root;
	const struct restrack_table_fast *t;
	unsigned int i, bad = 0;
	int found = 0;

	if (unlikely(root == NULL || ids == NULL || out == NULL ||
		     (unsigned int)type >= RESTRACK_MAX || n > RESTRACK_BULK_MAX))
		return restrack_get_byid_bulk_error(root, type, ids, n, out);
	t = &rf->table[type];
	/* Pass 1: check every ID and start every slot's miss. */
	for (i = 0; i < n; i++) {
		bad |= ids[i] >= t->nb_ids;
		if (likely(ids[i] < t->nb_ids))
			__builtin_prefetch(&t->slots[ids[i]], 0, 3);
	}
	if (unlikely(bad))
		return restrack_get_byid_bulk_error(root, type, ids, n, out);
	/* Pass 2: reference each as restrack_get_byid() does. */
	for (i = 0; i < n; i++) {
		if (unlikely(restrack_slot_get(root, type, ids[i], &out[i]) != 0)) {
			out[i] = NULL;
			continue;
		}
		found++;
	}
	return found;
}

/**
 * Take a reference on a tracked entry. Fails once deletion has begun (and while a
 * restrack_sync() runs).
 *
 * @return 0, -ENOENT when the entry is not live, -EINVAL for NULL.
 */
static inline int
restrack_get(struct restrack_entry *entry)
{
	int got = -1;

	if (unlikely(entry == NULL))
		return restrack_get_error();
	if (unlikely(entry->ref == NULL))
		return -ENOENT;
	/* a no_track entry has no ID and no key: its word is its own, never cached */
	if (likely(entry->tkey != 0))
		got = restrack_tref_take(entry->root, entry->tkey, entry->ref, entry);
	if (unlikely(got < 0))
		got = restrack_word_take(entry->ref);
	return got ? 0 : -ENOENT;
}

/**
 * Drop a reference taken by restrack_get() or restrack_get_byid(), from any thread. A live
 * entry always keeps its birth reference: a put that would drop it (a put without a get) is
 * refused.
 *
 * @return 0, -EINVAL for NULL or an entry that holds no reference to drop.
 */
static inline int
restrack_put(struct restrack_entry *entry)
{
	restrack_atomic64_t *ts;
	uint64_t v;

	if (unlikely(entry == NULL))
		return restrack_put_word(entry);
	ts = restrack_tref_slot_of(restrack_tref_self, entry);
	/* relaxed: only this thread writes the slot. The value it would then hold: */
	v = restrack_atomic_load(ts, memory_order_relaxed) - 1;
	/* Ours when the key (of the entry's ID) matches with a count of 1 or more: v - key is
	 * then 0..14. An entry without an ID (key 0: not added, deleted or no_track) never
	 * matches: no cache slot counts references under key 0. */
	if (likely(v - entry->tkey < RESTRACK_TREF_MAX)) {
		/* release: our use of the object happens before a drain sees it. */
		restrack_atomic_store(ts, v, memory_order_release);
		return 0;
	}
	return restrack_put_word(entry);
}

#ifdef __cplusplus
}
#endif

#endif /* RESTRACK_CORE_H */
