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
 * Each ID of a type's space has a 16-byte slot: the reference word (the LIVE bit and the
 * reference count) and the entry that owns the ID. The slots live as long as the root, so a
 * reader may increment any slot's word at any time: if LIVE is clear the ID is free, claimed or
 * being deleted, and the reader backs out; if LIVE is set, the entry is live and cannot be
 * deleted until the reader puts its reference. See restrack.c for the invariants.
 */

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Reference word: visible to lookups and get (bit 0). */
#define RESTRACK_REF_LIVE UINT64_C(1)
/** Reference word: one reference. The count is bits 63:1, so a refused put's transient
 *  underflow wraps at the top and never touches LIVE. */
#define RESTRACK_REF_ONE UINT64_C(2)
/** Most IDs one restrack_get_byid_bulk() call takes. */
#define RESTRACK_BULK_MAX 64u

/** Reference word: the reference count. */
#define RESTRACK_REF_COUNT(word) ((word) >> 1)

/** @internal One ID of a type's space. */
struct restrack_slot {
	_Atomic uint64_t word;				/**< LIVE | reference count */
	struct restrack_entry *_Atomic entry;		/**< owner of the ID, NULL when free */
};

/** @internal What the lookup path needs of a type's table. */
struct restrack_table_fast {
	struct restrack_slot *slots;	/**< nb_ids slots */
	uint32_t nb_ids;		/**< size of the ID space */
};

/** @internal The first member of every root. */
struct restrack_root_fast {
	struct restrack_table_fast table[RESTRACK_MAX];	/**< per type */
};

/** @internal Logs and returns the error of a restrack_get_byid() with bad arguments. */
int restrack_get_byid_error(const struct restrack_root *root, enum restrack_type type,
			    uint32_t id, struct restrack_entry **out);

/** @internal Logs and returns the error of a restrack_put() that has nothing to put. */
int restrack_put_error(const struct restrack_entry *entry);

/** @internal Logs and returns the error of a restrack_get() on NULL. */
int restrack_get_error(void);

/**
 * Find the live entry with @p id and take a reference on it. Wait-free: one atomic add on the
 * ID's slot, no lock, no other shared write. The caller releases the reference with
 * restrack_put().
 *
 * @return 0 with *out set, -ENOENT when no live entry has that ID (free, claimed or being
 *         deleted), -EINVAL for a bad type or NULL, -ERANGE for an ID outside the type's space.
 */
static inline int
restrack_get_byid(struct restrack_root *root, enum restrack_type type, uint32_t id,
		  struct restrack_entry **out)
{
	const struct restrack_root_fast *rf = (const struct restrack_root_fast *)root;
	struct restrack_slot *slot;

	if (unlikely(root == NULL || out == NULL || (unsigned int)type >= RESTRACK_MAX ||
		     id >= rf->table[type].nb_ids))
		return restrack_get_byid_error(root, type, id, out);
	slot = &rf->table[type].slots[id];
	/* acquire: pairs with the release that set LIVE; the entry and its fields are visible. */
	if (unlikely(!(atomic_fetch_add_explicit(&slot->word, RESTRACK_REF_ONE,
						 memory_order_acquire) & RESTRACK_REF_LIVE))) {
		/* release: every decrement is a release, for begin_del's drain. */
		atomic_fetch_sub_explicit(&slot->word, RESTRACK_REF_ONE, memory_order_release);
		return -ENOENT;
	}
	/* relaxed: written before LIVE was set, stable while our reference is held. */
	*out = atomic_load_explicit(&slot->entry, memory_order_relaxed);
	return 0;
}

/** @internal Logs and returns the error of a restrack_get_byid_bulk() with bad arguments. */
int restrack_get_byid_bulk_error(const struct restrack_root *root, enum restrack_type type,
				 const uint32_t *ids, unsigned int n,
				 struct restrack_entry **out);

/**
 * restrack_get_byid() for @p n IDs of one type at once, for a burst (the QPNs of a poll, the
 * keys of a batch of requests). All the slots are prefetched first, so their cache misses
 * overlap; then each is referenced as restrack_get_byid() does. Singly, each lookup's atomic
 * add waits for its own miss before the next lookup can start. Wait-free.
 *
 * @param ids  @p n IDs (repeats allowed: each occurrence takes its own reference).
 * @param out  out[i] = the entry of ids[i], referenced, or NULL when ids[i] has no live entry
 *             (free, claimed or being deleted).
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
	/* Pass 1: check every ID and start every slot's miss (for writing: we add to it). */
	for (i = 0; i < n; i++) {
		bad |= ids[i] >= t->nb_ids;
		if (likely(ids[i] < t->nb_ids))
			__builtin_prefetch(&t->slots[ids[i]], 1, 3);
	}
	if (unlikely(bad))
		return restrack_get_byid_bulk_error(root, type, ids, n, out);
	/* Pass 2: reference each, with restrack_get_byid()'s orders and back-out. */
	for (i = 0; i < n; i++) {
		struct restrack_slot *slot = &t->slots[ids[i]];

		if (unlikely(!(atomic_fetch_add_explicit(&slot->word, RESTRACK_REF_ONE,
							 memory_order_acquire) &
			       RESTRACK_REF_LIVE))) {
			atomic_fetch_sub_explicit(&slot->word, RESTRACK_REF_ONE,
						  memory_order_release);
			out[i] = NULL;
			continue;
		}
		out[i] = atomic_load_explicit(&slot->entry, memory_order_relaxed);
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
	_Atomic uint64_t *ref;

	if (unlikely(entry == NULL))
		return restrack_get_error();
	ref = entry->ref;
	if (unlikely(ref == NULL))
		return -ENOENT;
	/* acquire: as in restrack_get_byid(). */
	if (unlikely(!(atomic_fetch_add_explicit(ref, RESTRACK_REF_ONE, memory_order_acquire) &
		       RESTRACK_REF_LIVE))) {
		atomic_fetch_sub_explicit(ref, RESTRACK_REF_ONE, memory_order_release);
		return -ENOENT;
	}
	return 0;
}

/**
 * Drop a reference taken by restrack_get() or restrack_get_byid(). A live entry always keeps
 * its birth reference: a put that would drop it (a put without a get) is refused.
 *
 * @return 0, -EINVAL for NULL or an entry that holds no reference to drop.
 */
static inline int
restrack_put(struct restrack_entry *entry)
{
	_Atomic uint64_t *ref;
	uint64_t old;

	if (unlikely(entry == NULL || entry->ref == NULL))
		return restrack_put_error(entry);
	ref = entry->ref;
	/* release: the reader's use of the object happens before begin_del returns. */
	old = atomic_fetch_sub_explicit(ref, RESTRACK_REF_ONE, memory_order_release);
	if (unlikely(RESTRACK_REF_COUNT(old) <= (old & RESTRACK_REF_LIVE))) {
		/* Nothing was ours to drop: undo (a drain meanwhile saw a huge count, not 0). */
		atomic_fetch_add_explicit(ref, RESTRACK_REF_ONE, memory_order_relaxed);
		return restrack_put_error(entry);
	}
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* RESTRACK_CORE_H */
