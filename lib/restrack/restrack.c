/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * restrack: how the table works, and why it is safe without locks.
 *
 * Data
 * ----
 * A root has one table per type. A table has two 8-byte words per ID, in two arrays
 * (restrack_core.h). The slot, which lookups read: the address of the entry that owns the ID
 * (NULL when the ID is free) | THREAD | LIVE. The reference word, which lookups' fast way never
 * touches: LIVE | THREAD | signed reference count. The slot's LIVE and THREAD are copies of the
 * word's, kept in the order the invariants below give, so that a lookup reads one cache line
 * (a slot line holds 8 IDs) before the entry. Both arrays are mmap'd when the root is created
 * (the OS commits them page by page as IDs are first used; a slot array of 2 MB or more is
 * aligned for transparent huge pages) and unmapped only by restrack_clean(): they are
 * type-stable, so anyone may touch any ID's slot and word at any time. Beside them: a bitmap of
 * the 64-ID blocks in which some ID was ever claimed (so walks skip the rest) and the cursor of
 * the cyclic allocator; each thread keeps its current lease of IDs in thread-local storage.
 *
 * Thread reference caches
 * -----------------------
 * A lookup that took its reference with an atomic add on the ID's word (a locked instruction,
 * and a shared cache line that every thread looking the ID up writes) would cost two of them
 * per get + put. Instead each thread counts its references in a cache of its own
 * (restrack_tref.c): RESTRACK_TREF_SLOTS words of key | count, picked by the entry's address,
 * key = restrack_tref_key() of the ID's slot (restrack_entry.tkey). The fast way of a lookup
 * reads the slot, stores count + 1 in its cache (a plain store), then reads the slot again:
 * the same value with LIVE and THREAD set means taken. A put stores count - 1. Neither writes
 * anything shared. Everything else goes the general way, out of line
 * (restrack_slot_get_slow(), restrack_get()): count in the cache, then read the word (LIVE
 * and THREAD set: taken; LIVE only: set the word's THREAD first), or, what a cache cannot take
 * (slot held by another ID of another root, more than RESTRACK_TREF_MAX references, no cache),
 * an atomic add on the word. A put that its own cache does not hold goes to the word too: so
 * a reference one thread took and another dropped is +1 in the first one's cache and -1 on
 * the word. The references on an ID are the word's count plus every cache's count under its
 * key; every rule below is about that sum.
 *
 * Invariants
 * ----------
 * I1 The slot's entry is written only by the owner of the ID: a claim CASes NULL -> entry,
 *    commit_del (or the release of a claim) clears it. While an ID is claimed, live or
 *    between begin_del and commit_del, its slot names its entry, so no allocation can return
 *    it and an exact claim fails with -EBUSY: the kernel's untracked-QP window is closed by
 *    construction.
 * I2 The word's LIVE is set (with the birth reference, in one atomic add) only by add and
 *    abort_del, and cleared (with the birth reference, in one atomic subtract) only by
 *    begin_del, by the owner (sync clears and sets it alone). The slot's LIVE is set just
 *    after the word's and cleared just before it, by the same owner. Readers only ever add and
 *    subtract counts, and set THREAD.
 * I3 The slot's entry and the entry's fields are written before LIVE is set and do not change
 *    until the sum has drained to 0 after LIVE was cleared. A reader reads them only after its
 *    own count was taken and it then saw LIVE, so while it holds that reference they are stable.
 * I4 A reader may add to the word, or to its cache under the key, of an ID that is free or
 *    reclaimed by someone else; it sees LIVE clear (or another slot value) and backs out.
 *    Counts are only ever added and taken off (a cache slot's owner rewrites its own word;
 *    restrack_clean() and a slot's move use compare-and-swap or an atomic add), so no count is
 *    lost, and a drain merely waits for such transient ones.
 * I5 A cache keeps a count only after seeing the word's THREAD and LIVE, or after its own
 *    fetch_or set the word's THREAD while LIVE was set (a locked instruction, which also orders
 *    its count before that look), or after seeing the slot's THREAD and LIVE. The word's
 *    THREAD then stays set as long as the root lives. The slot's THREAD is set only by a
 *    reader holding a reference, by a read-modify-write after the word's THREAD was seen, and
 *    kept through deletion and the next claims (it is the ID's; the owner's plain stores in
 *    add and commit_del keep what they read, and may lose a reader's set, which only costs
 *    the next lookup the general way). The deleter clears the slot's LIVE by a
 *    read-modify-write before its own on the word. So a reader that saw the slot's THREAD
 *    with LIVE implies a deleter that finds the word's THREAD set. When a deleter's clear of
 *    LIVE finds THREAD
 *    clear, every cached count under the key is a transient one that will back out; when it
 *    finds THREAD set, it must read the caches.
 * I6 Between a deleter's clear of LIVE (slot, then word) and its read of the caches,
 *    membarrier() runs: every CPU executes a full barrier, so a get whose count store came
 *    before that point is visible to the read, and a get after it sees LIVE clear (its
 *    store-then-load needs no fence of its own). A deleter reads the caches before the word: a
 *    handed-off reference (+1 cached, -1 on the word) or a count moved from a cache to the word
 *    is then seen on both sides or on the cache side only, never on the word side only, so the
 *    sum it computes is never below the truth. Counts only fall by puts, so a sum that reaches
 *    0 stays there. A fast-way reader that sees the same slot value twice after the ID was
 *    deleted and re-added at the same address (ABA) holds a reference on the new owner, which
 *    is live: its count is under the ID's key, and the new owner's deleter will see it.
 * I7 A cache record outlives its thread (a new thread adopts it, counts and all): references a
 *    thread exits with stay counted. restrack_clean() clears every cache's counts for the
 *    keys it frees, so a later root at the same addresses starts from nothing.
 *
 * Memory orders
 * -------------
 * - add/abort_del: fetch_add(LIVE + 1, release) on the word, then a release store of the
 *   slot with LIVE, publish the slot's entry and the entry.
 * - begin_del/sync: fetch_and(~LIVE, acq_rel) on the slot, then fetch_sub(acq_rel) on the word.
 * - get, fast way: slot load (acquire), cache store (relaxed), compiler barrier, slot load
 *   (acquire). General way: cache store (relaxed), compiler barrier, word load (acquire); or
 *   fetch_add(1, acquire) on the word (release sequences carry it through other readers' adds).
 * - put: cache store (release) or word fetch_sub (release), so a reader's use of the object
 *   happens before the drain (acquire loads of caches and word) sees its count gone: after
 *   begin_del the owner may free the object.
 * - the slot's entry: claim CAS acq_rel / commit's release store / reads after an acquire of
 *   LIVE (I3).
 * - cursor: relaxed; it only says where to look, the entry CAS decides.
 *
 * Cyclic allocation with leases: the cursor moves through the non-reserved IDs in blocks of
 * RT_LEASE_IDS; a thread takes the next block and hands its free IDs out in order. An ID comes
 * back only after the cursor has gone once round the space (or up to RT_LEASE_IDS - 1 IDs
 * earlier, when it lies in a lease a thread still holds), as with the kernel's
 * xa_alloc_cyclic; and threads adding at once work in different blocks, so they do not write
 * the same cache lines.
 */

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>

#include "restrack_private.h"

RTE_LOG_REGISTER(restrack_logtype, lib.restrack, NOTICE);

#define REC_BIRTH	(RESTRACK_REF_LIVE + RESTRACK_REF_ONE)	/* LIVE and the birth reference */
#define DRAIN_SPINS	1024			/* rte_pause() rounds before yielding the CPU */
#define LEASE_END_SHIFT	32			/* lease word: end 63:32, next 31:0 */

static const char *const type_names[RESTRACK_MAX] = {
	[RESTRACK_PD] = "PD",
	[RESTRACK_CQ] = "CQ",
	[RESTRACK_QP] = "QP",
	[RESTRACK_CM_ID] = "CM_ID",
	[RESTRACK_MR] = "MR",
	[RESTRACK_CTX] = "CTX",
	[RESTRACK_COUNTER] = "COUNTER",
	[RESTRACK_SRQ] = "SRQ",
	[RESTRACK_DMAH] = "DMAH",
	[RESTRACK_COMP_CNTR] = "COMP_CNTR",
};

/* iproute2's names: the summary key and the ID attribute of each type. */
static const char *const summary_names[RESTRACK_MAX] = {
	[RESTRACK_PD] = "pd",
	[RESTRACK_CQ] = "cq",
	[RESTRACK_QP] = "qp",
	[RESTRACK_CM_ID] = "cm_id",
	[RESTRACK_MR] = "mr",
	[RESTRACK_CTX] = "ctx",
	[RESTRACK_COUNTER] = "counter",
	[RESTRACK_SRQ] = "srq",
	[RESTRACK_DMAH] = "dmah",
	[RESTRACK_COMP_CNTR] = "comp_cntr",
};

static const char *const id_attr_names[RESTRACK_MAX] = {
	[RESTRACK_PD] = "pdn",
	[RESTRACK_CQ] = "cqn",
	[RESTRACK_QP] = "lqpn",
	[RESTRACK_CM_ID] = "cm-idn",
	[RESTRACK_MR] = "mrn",
	[RESTRACK_CTX] = "ctxn",
	[RESTRACK_COUNTER] = "cntn",
	[RESTRACK_SRQ] = "srqn",
	[RESTRACK_DMAH] = "dmahn",
	[RESTRACK_COMP_CNTR] = "comp-cntrn",
};

static const char *const state_names[] = {
	[RESTRACK_STATE_NEW] = "new",
	[RESTRACK_STATE_CLAIMED] = "claimed",
	[RESTRACK_STATE_LIVE] = "live",
	[RESTRACK_STATE_DELETING] = "being deleted",
	[RESTRACK_STATE_DELETED] = "deleted",
};

const char *
restrack_type_name(enum restrack_type type)
{
	if ((unsigned int)type >= RESTRACK_MAX)
		return "UNKNOWN";
	return type_names[type];
}

const char *
rt_id_attr_name(enum restrack_type type)
{
	return id_attr_names[type];
}

const char *
rt_summary_name(enum restrack_type type)
{
	return summary_names[type];
}

const char *
rt_state_name(const struct restrack_entry *entry)
{
	if (entry->state >= RTE_DIM(state_names))
		return "corrupt";
	return state_names[entry->state];
}

bool
rt_entry_bad(const struct restrack_entry *entry, const char *func)
{
	if (entry == NULL)
		RT_LOG_FN(ERR, func, "NULL entry");
	else
		RT_LOG_FN(ERR, func, "entry %p was not initialised by restrack_new() "
			  "(type %u, state %u)", (const void *)entry, entry->type, entry->state);
	return false;
}

/* ---- the ID space ------------------------------------------------------------------------ */

/* The slot of an ID: entry | THREAD | LIVE. */
static inline _Atomic uint64_t *
slot_of(const struct restrack_root *root, enum restrack_type type, uint32_t id)
{
	return &root->fast.table[type].slots[id];
}

/* The reference word of an ID: count | THREAD | LIVE. */
static inline _Atomic uint64_t *
word_of(const struct restrack_root *root, enum restrack_type type, uint32_t id)
{
	return &root->fast.table[type].words[id];
}

/* The slot of a tracked (not no_track) entry that has an ID. */
static inline _Atomic uint64_t *
slot_of_entry(const struct restrack_entry *entry)
{
	return slot_of(entry->root, entry->type, entry->id);
}

/* Remember that some ID of id's block was claimed, for walks (a read, mostly). */
static inline void
mark_block_used(struct rt_table *t, uint32_t id)
{
	uint32_t block = id >> RT_LEASE_SHIFT;
	uint64_t bit = UINT64_C(1) << (block & 63);
	_Atomic uint64_t *word = &t->used_blocks[block >> 6];

	/* relaxed: walks tolerate missing a block claimed while they run. */
	if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
		atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
}

/* Try to make `entry` the owner of `id`. */
static inline bool
slot_try_claim(struct restrack_root *root, enum restrack_type type, uint32_t id,
	       struct restrack_entry *entry)
{
	_Atomic uint64_t *slot = slot_of(root, type, id);
	/* relaxed: the CAS below decides. */
	uint64_t cur = atomic_load_explicit(slot, memory_order_relaxed);

	do {
		/* Free means no entry (and so no LIVE); THREAD is the ID's, kept. */
		if (cur & ~(uint64_t)RESTRACK_SLOT_THREAD)
			return false;
		/* acq_rel: the previous owner's release of the ID happens before our use. */
	} while (!atomic_compare_exchange_weak_explicit(slot, &cur, (uintptr_t)entry | cur,
			memory_order_acq_rel, memory_order_relaxed));
	mark_block_used(&root->table[type], id);
	return true;
}

/* Claim exactly `id`. */
static int
slot_claim_exact(struct restrack_root *root, enum restrack_type type, uint32_t id,
		 struct restrack_entry *entry)
{
	if (slot_try_claim(root, type, id, entry))
		return 0;
	/* relaxed: only to word the message; the CAS already decided. */
	RT_LOG(ERR, "%s: %s %u is busy: %s", root->name, type_names[type], id,
	       (atomic_load_explicit(word_of(root, type, id), memory_order_relaxed) &
		RESTRACK_REF_LIVE) ? "held by a live object" :
		"claimed, or still being destroyed (between begin_del and commit_del)");
	return -EBUSY;
}

/* Take the next block of IDs from the cursor: [start, end), never past the end of the space. */
static uint64_t
lease_take(struct rt_table *t, uint32_t nb_ids)
{
	uint32_t start = atomic_load_explicit(&t->cursor, memory_order_relaxed);
	uint32_t end, next;

	do {
		end = nb_ids - start > RT_LEASE_IDS ? start + RT_LEASE_IDS : nb_ids;
		next = end < nb_ids ? end : t->nb_reserved;
		/* relaxed: the cursor only says where to look next. */
	} while (!atomic_compare_exchange_weak_explicit(&t->cursor, &start, next,
			memory_order_relaxed, memory_order_relaxed));
	return (uint64_t)end << LEASE_END_SHIFT | start;
}

/*
 * The calling thread's current lease per type, valid for one root at a time (the root's
 * serial tells a new root at a reused address apart). Thread-private: no atomics.
 */
static __thread struct {
	uint64_t serial;	/* root it belongs to; 0 = none */
	uint32_t next, end;	/* IDs next .. end - 1 are still to be tried */
} thread_lease[RESTRACK_MAX];

static _Atomic uint64_t root_serials;

/*
 * Claim the next free ID of the calling thread's lease, taking new leases from the cursor as
 * they run out, until every non-reserved ID has been looked at once.
 */
static int
slot_claim_any(struct restrack_root *root, enum restrack_type type,
	       struct restrack_entry *entry, uint32_t *out)
{
	struct rt_table *t = &root->table[type];
	uint32_t nb_ids = root->fast.table[type].nb_ids;
	uint32_t span = nb_ids - t->nb_reserved;
	uint32_t looked = 0;

	if (thread_lease[type].serial != root->serial) {
		thread_lease[type].serial = root->serial;
		thread_lease[type].next = thread_lease[type].end = 0;
	}
	while (looked < span + RT_LEASE_IDS) {
		uint32_t id = thread_lease[type].next;

		if (id >= thread_lease[type].end) {
			uint64_t fresh = lease_take(t, nb_ids);

			thread_lease[type].next = (uint32_t)fresh;
			thread_lease[type].end = (uint32_t)(fresh >> LEASE_END_SHIFT);
			continue;
		}
		thread_lease[type].next = id + 1;
		looked++;
		/* relaxed peek, to skip taken IDs without a locked instruction. */
		if (restrack_slot_entry(atomic_load_explicit(slot_of(root, type, id),
							     memory_order_relaxed)) != NULL)
			continue;
		if (slot_try_claim(root, type, id, entry)) {
			*out = id;
			return 0;
		}
	}
	RT_LOG(ERR, "%s: no free %s ID among %u", root->name, type_names[type], span);
	return -ENOSPC;
}

/* ---- root ------------------------------------------------------------------------------- */

static void
table_free(struct restrack_root *root, enum restrack_type type)
{
	struct rt_table *t = &root->table[type];
	struct restrack_table_fast *tf = &root->fast.table[type];

	if (tf->slots != NULL)
		munmap(tf->slots, t->array_bytes);
	if (tf->words != NULL)
		munmap(tf->words, t->array_bytes);
	free(t->used_blocks);
}

/*
 * Map `bytes` of zeroes, committed by the OS page by page as they are first touched. With
 * `huge`, aligned to a transparent huge page and advised to use them: a slot table looked up
 * at random IDs (the QP space: 2^18 IDs, 2 MB of slots) would otherwise miss the TLB on nearly
 * every lookup. Advice only: where THP is off, nothing changes.
 */
static void *
map_zeroes(size_t bytes, bool huge)
{
	size_t extra = huge ? RT_THP_BYTES : 0;
	uint8_t *p = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint8_t *start;
	size_t head;

	if (p == MAP_FAILED)
		return NULL;
	if (!huge)
		return p;
	start = RTE_PTR_ALIGN_CEIL(p, RT_THP_BYTES);
	head = (size_t)(start - p);
	if (head != 0)
		munmap(p, head);
	if (extra - head != 0)
		munmap(start + bytes, extra - head);
	(void)madvise(start, bytes, MADV_HUGEPAGE);
	return start;
}

static int
table_init(struct restrack_root *root, enum restrack_type type,
	   const struct restrack_type_config *tc)
{
	struct rt_table *t = &root->table[type];
	struct restrack_table_fast *tf = &root->fast.table[type];
	long page = sysconf(_SC_PAGESIZE);
	uint32_t blocks;

	tf->nb_ids = tc != NULL && tc->nb_ids ? tc->nb_ids : RESTRACK_DEFAULT_IDS;
	t->nb_reserved = tc != NULL ? tc->nb_reserved : 0;
	t->array_bytes = RTE_ALIGN_CEIL((size_t)tf->nb_ids * sizeof(uint64_t), (size_t)page);
	/* Zero-filled: every ID free. Huge pages only for slot tables of at least one (a page
	 * is then 2 MB committed at a time); lookups do not read the reference words. */
	tf->slots = map_zeroes(t->array_bytes, t->array_bytes >= RT_THP_BYTES);
	tf->words = map_zeroes(t->array_bytes, false);
	if (tf->slots == NULL || tf->words == NULL)
		return -ENOMEM;
	blocks = (tf->nb_ids + RT_LEASE_IDS - 1) >> RT_LEASE_SHIFT;
	t->nb_block_words = (blocks + 63) / 64;
	t->used_blocks = calloc(t->nb_block_words, sizeof(*t->used_blocks));
	if (t->used_blocks == NULL)
		return -ENOMEM;
	atomic_init(&t->cursor, t->nb_reserved);
	return 0;
}

int
restrack_init(const char *name, const struct restrack_config *cfg, struct restrack_root **out)
{
	struct restrack_root *root;
	int type;

	if (name == NULL || out == NULL) {
		RT_LOG(ERR, "NULL %s", name == NULL ? "name" : "output pointer");
		return -EINVAL;
	}
	if (strnlen(name, RESTRACK_NAME_LEN) >= RESTRACK_NAME_LEN) {
		RT_LOG(ERR, "device name '%.*s...' is longer than %d characters",
		       RESTRACK_NAME_LEN - 1, name, RESTRACK_NAME_LEN - 1);
		return -EINVAL;
	}
	for (type = 0; cfg != NULL && type < RESTRACK_MAX; type++) {
		const struct restrack_type_config *tc = &cfg->type[type];
		uint32_t nb = tc->nb_ids ? tc->nb_ids : RESTRACK_DEFAULT_IDS;

		if (nb > RESTRACK_MAX_IDS || tc->nb_reserved >= nb) {
			RT_LOG(ERR, "%s: %s space of %u IDs with %u reserved is invalid "
			       "(at most %u IDs, and at least one not reserved)", name,
			       type_names[type], nb, tc->nb_reserved, RESTRACK_MAX_IDS);
			return -EINVAL;
		}
	}
	root = calloc(1, sizeof(*root));
	if (root == NULL)
		goto nomem;
	snprintf(root->name, sizeof(root->name), "%s", name);
	/* relaxed: only uniqueness matters. */
	root->serial = atomic_fetch_add_explicit(&root_serials, 1, memory_order_relaxed) + 1;
	rt_tref_enable();
	for (type = 0; type < RESTRACK_MAX; type++)
		if (table_init(root, type, cfg != NULL ? &cfg->type[type] : NULL) != 0)
			goto nomem;
	*out = root;
	return 0;

nomem:
	RT_LOG(ERR, "%s: out of memory", name);
	if (root != NULL) {
		for (type = 0; type < RESTRACK_MAX; type++)
			table_free(root, type);
		free(root);
	}
	return -ENOMEM;
}

const char *
restrack_root_name(const struct restrack_root *root)
{
	return root != NULL ? root->name : "(null)";
}

/* Log one object that is still tracked at clean, as the kernel's restrack_clean does. */
static void
report_leak(const struct restrack_root *root, const struct restrack_entry *e)
{
	if (e->driver_res)
		RT_LOG(ERR, "%s: Driver %s object %u (%s) allocated by [%s] is not freed",
		       root->name, type_names[e->type], e->id, rt_state_name(e), e->name);
	else
		RT_LOG(ERR, "%s: User %s object %u (%s) allocated by %s (pid %d) is not freed",
		       root->name, type_names[e->type], e->id, rt_state_name(e), e->task.comm,
		       (int)e->task.pid);
}

int
restrack_clean(struct restrack_root *root)
{
	int type, leaks = 0;

	if (root == NULL) {
		RT_LOG(ERR, "NULL root");
		return -EINVAL;
	}
	for (type = 0; type < RESTRACK_MAX; type++) {
		const struct restrack_table_fast *tf = &root->fast.table[type];
		struct rt_table *t = &root->table[type];
		uint32_t w;

		for (w = 0; w < t->nb_block_words; w++) {
			uint64_t bits = atomic_load_explicit(&t->used_blocks[w],
							     memory_order_relaxed);

			while (bits != 0) {
				uint32_t id = (w * 64 + (uint32_t)__builtin_ctzll(bits))
					      << RT_LEASE_SHIFT;
				uint32_t end = RTE_MIN(id + RT_LEASE_IDS, tf->nb_ids);

				bits &= bits - 1;
				for (; id < end; id++) {
					/* relaxed: nothing else runs during clean. */
					struct restrack_entry *e = restrack_slot_entry(
						atomic_load_explicit(&tf->slots[id],
								     memory_order_relaxed));

					if (e != NULL) {
						leaks++;
						report_leak(root, e);
					}
				}
			}
		}
		/* A later root may get the same addresses: leave no count behind for them. */
		rt_tref_forget(restrack_tref_key(tf->slots),
			       restrack_tref_key(tf->slots + tf->nb_ids));
		table_free(root, type);
	}
	if (leaks)
		RT_LOG(ERR, "%s: %d objects leaked", root->name, leaks);
	free(root);
	return leaks;
}

/* ---- add and claim ---------------------------------------------------------------------- */

/*
 * Make a tracked entry visible to lookups' fast way: set its slot's LIVE, after the word's
 * (I2). A plain store, not a locked instruction: only a reader's THREAD can change the slot
 * meanwhile, and losing that costs the next lookup the general way, nothing more (a THREAD
 * we store was read from the slot, so the word has it: I5).
 */
static void
slot_show(const struct restrack_entry *entry)
{
	_Atomic uint64_t *slot;

	if (entry->no_track)
		return;
	slot = slot_of_entry(entry);
	/* relaxed: the owner's own value but for a reader's THREAD; release: the entry's
	 * fields are visible to whoever sees LIVE (I3). */
	atomic_store_explicit(slot, atomic_load_explicit(slot, memory_order_relaxed) |
			      RESTRACK_SLOT_LIVE, memory_order_release);
}

/*
 * Hide a tracked entry from lookups' fast way: clear its slot's LIVE, before the word's (I2).
 * acq_rel, a locked read-modify-write: a reader's THREAD set on the slot before it is then
 * ordered before our word update (I5).
 */
static void
slot_hide(const struct restrack_entry *entry)
{
	if (!entry->no_track)
		atomic_fetch_and_explicit(slot_of_entry(entry), ~(uint64_t)RESTRACK_SLOT_LIVE,
					  memory_order_acq_rel);
}

int
restrack_claim(struct restrack_root *root, struct restrack_entry *entry, uint32_t id)
{
	uint32_t nb_ids;
	int ret;

	if (root == NULL) {
		RT_LOG(ERR, "NULL root");
		return -EINVAL;
	}
	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->no_track) {
		RT_LOG(ERR, "%s: untracked %s entries have no ID", root->name,
		       type_names[entry->type]);
		return -EINVAL;
	}
	if (entry->state != RESTRACK_STATE_NEW && entry->state != RESTRACK_STATE_DELETED) {
		RT_LOG(ERR, "%s: %s %u is %s: double claim", root->name, type_names[entry->type],
		       entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	nb_ids = root->fast.table[entry->type].nb_ids;
	if (id != RESTRACK_ID_ANY && id >= nb_ids) {
		RT_LOG(ERR, "%s: %s ID %u out of range (0..%u)", root->name,
		       type_names[entry->type], id, nb_ids - 1);
		return -ERANGE;
	}
	if (id == RESTRACK_ID_ANY)
		ret = slot_claim_any(root, entry->type, entry, &id);
	else
		ret = slot_claim_exact(root, entry->type, id, entry);
	if (ret != 0)
		return ret;
	entry->ref = word_of(root, entry->type, id);
	entry->tkey = restrack_tref_key(slot_of(root, entry->type, id));
	entry->root = root;
	entry->id = id;
	entry->state = RESTRACK_STATE_CLAIMED;
	return 0;
}

int
restrack_add(struct restrack_root *root, struct restrack_entry *entry)
{
	int ret;

	if (root == NULL) {
		RT_LOG(ERR, "NULL root");
		return -EINVAL;
	}
	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_LIVE || entry->state == RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s: %s %u is %s: double add", root->name, type_names[entry->type],
		       entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	if (entry->state == RESTRACK_STATE_CLAIMED && entry->root != root) {
		RT_LOG(ERR, "%s: %s %u was claimed in another root (%s)", root->name,
		       type_names[entry->type], entry->id, entry->root->name);
		return -EINVAL;
	}
	if (entry->no_track) {
		/* Reference counted, valid, but in no slot: no ID, invisible to walks. */
		atomic_store_explicit(&entry->own_ref, 0, memory_order_relaxed);
		entry->ref = &entry->own_ref;	/* dies with the entry: never cached */
		entry->tkey = 0;
		entry->root = root;
		entry->id = 0;
	} else if (entry->state != RESTRACK_STATE_CLAIMED) {
		ret = restrack_claim(root, entry, RESTRACK_ID_ANY);
		if (ret != 0)
			return ret;	/* the entry is untouched */
	}
	if (!entry->driver_res && entry->task.pid == 0)
		rt_current_task(&entry->task);	/* no owner given: the calling task */
	entry->state = RESTRACK_STATE_LIVE;
	/* release: the entry and its slot are visible to whoever sees LIVE (I3). */
	atomic_fetch_add_explicit(entry->ref, REC_BIRTH, memory_order_release);
	slot_show(entry);
	return 0;
}

/* ---- references ------------------------------------------------------------------------- */

int
restrack_get_byid_error(const struct restrack_root *root, enum restrack_type type, uint32_t id,
			struct restrack_entry **out)
{
	if (root == NULL || out == NULL || (unsigned int)type >= RESTRACK_MAX) {
		RT_LOG_FN(ERR, "restrack_get_byid", "bad argument: root %p, type %d, out %p",
			  (const void *)root, (int)type, (void *)out);
		return -EINVAL;
	}
	RT_LOG_FN(ERR, "restrack_get_byid", "%s: %s ID %u out of range (0..%u)", root->name,
		  type_names[type], id, root->fast.table[type].nb_ids - 1);
	return -ERANGE;
}

int
restrack_get_byid_bulk_error(const struct restrack_root *root, enum restrack_type type,
			     const uint32_t *ids, unsigned int n, struct restrack_entry **out)
{
	unsigned int i;

	if (root == NULL || ids == NULL || out == NULL || (unsigned int)type >= RESTRACK_MAX ||
	    n > RESTRACK_BULK_MAX) {
		RT_LOG_FN(ERR, "restrack_get_byid_bulk",
			  "bad argument: root %p, type %d, ids %p, n %u (max %u), out %p",
			  (const void *)root, (int)type, (const void *)ids, n, RESTRACK_BULK_MAX,
			  (void *)out);
		return -EINVAL;
	}
	for (i = 0; i < n && ids[i] < root->fast.table[type].nb_ids; i++)
		;
	RT_LOG_FN(ERR, "restrack_get_byid_bulk", "%s: %s ID %u (index %u) out of range (0..%u)",
		  root->name, type_names[type], i < n ? ids[i] : 0, i,
		  root->fast.table[type].nb_ids - 1);
	return -ERANGE;
}

int
restrack_put_error(const struct restrack_entry *entry)
{
	if (entry == NULL || entry->ref == NULL)
		RT_LOG_FN(ERR, "restrack_put", "%s entry: no reference to put",
			  entry == NULL ? "NULL" : "untracked");
	else
		RT_LOG_FN(ERR, "restrack_put", "%s %u: put without a reference",
			  restrack_type_name(entry->type), entry->id);
	return -EINVAL;
}

int
restrack_get_error(void)
{
	RT_LOG_FN(ERR, "restrack_get", "NULL entry");
	return -EINVAL;
}

int
restrack_slot_get_slow(const struct restrack_root *root, enum restrack_type type, uint32_t id,
		       struct restrack_entry **out)
{
	_Atomic uint64_t *slot = slot_of(root, type, id);
	_Atomic uint64_t *word = word_of(root, type, id);
	/* relaxed: a hint for the cache slot; read again once a reference is held. */
	uint64_t s = atomic_load_explicit(slot, memory_order_relaxed);
	int got = restrack_tref_take(root, restrack_tref_key(slot), word, restrack_slot_entry(s));

	if (unlikely(got < 0))
		got = restrack_word_take(word);
	if (got == 0)
		return -ENOENT;
	/*
	 * Held, on the word's LIVE: the ID's entry cannot change until our put, and its claim
	 * happened before the LIVE we saw, so the slot names it. Once the word is THREAD, let
	 * the next lookups of the ID take the fast way: the slot's THREAD is set only after the
	 * word's was seen (acquire), by a read-modify-write (I5).
	 */
	if (!(s & RESTRACK_SLOT_THREAD) &&
	    (atomic_load_explicit(word, memory_order_acquire) & RESTRACK_REF_THREAD))
		s = atomic_fetch_or_explicit(slot, RESTRACK_SLOT_THREAD, memory_order_acq_rel);
	else
		/* relaxed: ordered after the word's acquire in the take. */
		s = atomic_load_explicit(slot, memory_order_relaxed);
	*out = restrack_slot_entry(s);
	return 0;
}

/*
 * References on an entry: its word's count plus, once the word is THREAD, what the threads'
 * caches count under its key. The caches are read before the word: a cached reference that
 * another thread dropped (off the word) is then seen on both sides or on the cache side only,
 * never on the word side only, so the sum is never below the truth.
 */
static int64_t
refs_held(const struct restrack_entry *entry)
{
	/* acquire: a count of 1 means every earlier put happened before our return. */
	uint64_t w = atomic_load_explicit(entry->ref, memory_order_acquire);
	int64_t cached;

	if (!(w & RESTRACK_REF_THREAD) || !rt_entry_cacheable(entry))
		return RESTRACK_REF_COUNT(w);
	cached = rt_tref_sum(entry->tkey);
	return cached + RESTRACK_REF_COUNT(atomic_load_explicit(entry->ref, memory_order_acquire));
}

int
restrack_refcnt(const struct restrack_entry *entry)
{
	if (entry == NULL || entry->ref == NULL || entry->state == RESTRACK_STATE_DELETED) {
		RT_LOG(ERR, "%s entry has no reference count", entry == NULL ? "NULL" : "untracked");
		return -EINVAL;
	}
	return (int)refs_held(entry);
}

int
restrack_put_word(struct restrack_entry *entry)
{
	_Atomic uint64_t *ref;
	uint64_t old, tkey;

	if (entry == NULL || entry->ref == NULL)
		return restrack_put_error(entry);
	/*
	 * Everything read of the entry is read before the reference goes: once it has, a
	 * drain may return and the owner clear or free the entry (commit_del clears tkey).
	 */
	ref = entry->ref;
	tkey = entry->tkey;
	/* release: the reader's use of the object happens before begin_del returns. */
	old = atomic_fetch_sub_explicit(ref, RESTRACK_REF_ONE, memory_order_release);
	if (likely(RESTRACK_REF_COUNT(old) > (int64_t)(old & RESTRACK_REF_LIVE)))
		return 0;
	/*
	 * The word held no reader reference of its own. A reference counted in some thread's
	 * cache may be dropped here by another thread: then the word goes below its floor and
	 * the sum stays right. Without one, this put has no get: undo it.
	 */
	if ((old & RESTRACK_REF_THREAD) && tkey != 0 &&
	    RESTRACK_REF_COUNT(old) + rt_tref_sum(tkey) > (int64_t)(old & RESTRACK_REF_LIVE))
		return 0;
	/* relaxed: a drain meanwhile saw one reference too few only if it is already at 0. */
	atomic_fetch_add_explicit(ref, RESTRACK_REF_ONE, memory_order_relaxed);
	return restrack_put_error(entry);
}

/* ---- delete ----------------------------------------------------------------------------- */

/*
 * Wait until the references are down to `target`, after LIVE was cleared (the old word is
 * `hidden`). If threads may cache references to the entry, first make every cached count taken
 * before the clear visible (rt_tref_barrier), so the sum cannot miss one.
 */
static void
drain(const struct restrack_entry *entry, uint64_t hidden, int64_t target)
{
	unsigned int spins = 0;

	if ((hidden & RESTRACK_REF_THREAD) && rt_entry_cacheable(entry))
		rt_tref_barrier();
	/* refs_held's acquires pair with every put's release: their accesses happen before. */
	while (refs_held(entry) > target) {
		if (++spins < DRAIN_SPINS)
			rte_pause();
		else
			sched_yield();
	}
}

int
restrack_begin_del(struct restrack_entry *entry)
{
	uint64_t old;

	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s, not live: cannot begin deleting it",
		       type_names[entry->type], entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	slot_hide(entry);
	/* acq_rel: hide it and drop the birth reference in one step; the slot keeps the ID. */
	old = atomic_fetch_sub_explicit(entry->ref, REC_BIRTH, memory_order_acq_rel);
	entry->state = RESTRACK_STATE_DELETING;
	drain(entry, old, 0);
	return 0;
}

/* Give up the ID of a claimed or drained entry. */
static void
release_id(struct restrack_entry *entry)
{
	if (!entry->no_track) {
		_Atomic uint64_t *slot = slot_of_entry(entry);

		/* The ID's THREAD stays (I5). No reader changes the slot now: none can take a
		 * reference (the word is not LIVE), so none sets THREAD. relaxed: the owner's own
		 * value; release: our last accesses to the ID come before a new claim of it. */
		atomic_store_explicit(slot, atomic_load_explicit(slot, memory_order_relaxed) &
				      RESTRACK_SLOT_THREAD, memory_order_release);
	}
	entry->ref = NULL;
	entry->tkey = 0;
	entry->state = RESTRACK_STATE_DELETED;
}

int
restrack_commit_del(struct restrack_entry *entry)
{
	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s %u is %s: commit_del without begin_del",
		       type_names[entry->type], entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	release_id(entry);
	return 0;
}

int
restrack_abort_del(struct restrack_entry *entry)
{
	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s %u is %s: abort_del without begin_del",
		       type_names[entry->type], entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	entry->state = RESTRACK_STATE_LIVE;
	/* release: visible again with a fresh birth reference (I2); the slot's entry never
	 * changed. */
	atomic_fetch_add_explicit(entry->ref, REC_BIRTH, memory_order_release);
	slot_show(entry);
	return 0;
}

int
restrack_del(struct restrack_entry *entry)
{
	int ret;

	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_CLAIMED) {
		release_id(entry);	/* the create failed after the claim */
		return 0;
	}
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s: nothing to delete", type_names[entry->type], entry->id,
		       rt_state_name(entry));
		return -EINVAL;
	}
	ret = restrack_begin_del(entry);
	if (ret == 0)
		ret = restrack_commit_del(entry);
	return ret;
}

int
restrack_sync(struct restrack_entry *entry)
{
	uint64_t old;

	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s, not live: nothing to sync", type_names[entry->type],
		       entry->id, rt_state_name(entry));
		return -EINVAL;
	}
	slot_hide(entry);
	/* acq_rel: hide it, keeping the birth reference; new readers now fail. */
	old = atomic_fetch_sub_explicit(entry->ref, RESTRACK_REF_LIVE, memory_order_acq_rel);
	drain(entry, old, 1);
	/* release: visible again; readers from here on see the current fields. */
	atomic_fetch_add_explicit(entry->ref, RESTRACK_REF_LIVE, memory_order_release);
	slot_show(entry);
	return 0;
}

size_t
restrack_bytes_per_entry(void)
{
	return 2 * sizeof(uint64_t);	/* the slot and the reference word */
}
