/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * restrack: how the table works, and why it is safe without locks.
 *
 * Data
 * ----
 * A root has one table per type. A table has:
 *  - slots[]: one atomic word per ID, 0 when the ID is free, otherwise the address of the
 *    tracking record that owns the ID (mmap'd, committed by the OS as IDs are first used);
 *  - a pool of records, 64 bytes each (one cache line), carved from 4 KB chunks that are never
 *    freed while the root lives (type-stable memory), with a lock-free free list;
 *  - next_id, the cursor of the cyclic allocator.
 * A record holds the entry's reference count and its LIVE bit in one 64-bit word, the owning
 * entry's address and ID, and a copy of the owner for leak reports.
 *
 * Invariants
 * ----------
 * I1 slots[id] is written only by the owner of the ID: a claim CASes it 0 -> rec, commit_del
 *    (or the release of a claim) stores 0. Nobody else writes a slot, so an ID between
 *    begin_del and commit_del still points at its record and cannot be claimed: the kernel's
 *    untracked-QP window is closed by construction.
 * I2 rec->word = LIVE bit | reference count. LIVE is set (with the birth reference, in one
 *    atomic add) only by add/abort_del, and cleared (with the birth reference, in one atomic
 *    subtract) only by begin_del, by the owner. Readers only ever add 1 and subtract 1.
 * I3 rec->entry and rec->id are written by the owner before LIVE is set and are not changed
 *    until the count has drained to 0 after LIVE was cleared. A reader reads them only after
 *    its own increment observed LIVE, so while it holds that reference they are stable.
 * I4 A record is returned to the pool only after begin_del drained its count to 0; a reader
 *    that loaded the slot earlier may still add and subtract 1 on it afterwards (the memory is
 *    type-stable, so this is harmless); such a reader sees LIVE clear, or sees LIVE for a new
 *    incarnation with another ID, and backs out with -ENOENT. Every later write to the word
 *    is an atomic add/subtract, so such transient counts are never lost.
 * I5 Chunks and the slot array are freed only by restrack_clean(), when nothing else runs.
 *
 * Memory orders
 * -------------
 * - add/abort_del: fetch_add(LIVE + 1, release) publishes rec->entry/id and the entry's fields.
 * - get_byid/get: fetch_add(1, acquire) pairs with that release (release sequences carry it
 *   through the other readers' increments), so the entry's fields are visible.
 * - put: CAS(-1, release) so that a reader's accesses to the object happen before begin_del's
 *   drain loop, which loads the word with acquire, returns: after begin_del the owner may free.
 * - slots: claim CAS (acq_rel) / commit store (release) / lookup load (acquire). The record's
 *   word carries the real synchronisation; the slot orders only the record address.
 * - free list: tagged head (32-bit ABA tag, 32-bit index + 1); push CAS release, pop CAS
 *   acquire, so the previous owner's writes to a record happen before the next owner's.
 * - next_id: relaxed; it is a hint, the slot CAS decides who gets an ID.
 */

#include "restrack.h"

#include <errno.h>
#include <sched.h>
#include <stdalign.h>
#include <stdarg.h>
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

RTE_LOG_REGISTER(restrack_logtype, lib.restrack, NOTICE);

#define RT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, restrack_logtype, "restrack: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

#define REC_COUNT_MASK	UINT64_C(0xffffffff)	/* reference count, bits 31:0 */
#define REC_LIVE	(UINT64_C(1) << 32)	/* visible to lookups and get */
#define REC_BIRTH	(REC_LIVE + 1)		/* LIVE together with the birth reference */

#define CHUNK_SHIFT	6			/* 64 records (4 KB) per chunk */
#define CHUNK_RECS	(1u << CHUNK_SHIFT)
#define CHUNK_MASK	(CHUNK_RECS - 1)
#define CHUNK_SLACK	16			/* chunks beyond nb_ids for racing growers */

#define FREE_TAG_SHIFT	32
#define FREE_IDX_MASK	UINT64_C(0xffffffff)

#define DRAIN_SPINS	1024			/* rte_pause() rounds before yielding the CPU */


/* One cache line: readers write only `word`, and nothing else shares the line. */
struct restrack_rec {
	_Atomic uint64_t word;		/* REC_LIVE | reference count */
	struct restrack_entry *entry;	/* owner's entry (I3) */
	uint32_t id;			/* ID in the type's space (I3) */
	_Atomic uint32_t next_free;	/* free-list link: index + 1, 0 ends the list */
	uint32_t index;			/* position in the pool */
	pid_t pid;			/* owner copy for restrack_clean */
	uint8_t type;
	bool in_use;			/* claimed by an entry, for restrack_clean */
	bool driver_res;
	bool untracked;			/* no_track entry: counted, never in a slot */
	char owner[RESTRACK_NAME_LEN];
};

_Static_assert(sizeof(struct restrack_rec) == 64, "a record is one cache line");

struct rt_table {
	/* Read by every lookup. */
	_Atomic uintptr_t *slots;
	uint32_t nb_ids;
	uint32_t nb_reserved;
	_Atomic(struct restrack_rec *) *chunks;
	uint32_t max_chunks;
	size_t slots_bytes;
	restrack_fill_t fill;
	void *fill_arg;
	/* Written by adders. */
	alignas(64) _Atomic uint32_t next_id;
	alignas(64) _Atomic uint64_t free_head;
	_Atomic uint32_t nb_chunks;
};

struct restrack_root {
	char name[RESTRACK_NAME_LEN];
	struct rt_table table[RESTRACK_MAX];
};

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

static const char *
state_name(const struct restrack_entry *entry)
{
	if (entry->state >= RTE_DIM(state_names))
		return "corrupt";
	return state_names[entry->state];
}

/* An entry that restrack_new() produced: a known type and state. */
static bool
entry_ok(const struct restrack_entry *entry, const char *func)
{
	if (entry == NULL) {
		rte_log(RTE_LOG_ERR, restrack_logtype, "restrack: %s(): NULL entry\n", func);
		return false;
	}
	if (entry->type >= RESTRACK_MAX || entry->state >= RTE_DIM(state_names)) {
		rte_log(RTE_LOG_ERR, restrack_logtype,
			"restrack: %s(): entry %p was not initialised by restrack_new() "
			"(type %u, state %u)\n", func, (const void *)entry, entry->type,
			entry->state);
		return false;
	}
	return true;
}

/* ---- records and the pool -------------------------------------------------------------- */

static inline struct restrack_rec *
rec_at(struct rt_table *t, uint32_t index)
{
	/* acquire: pairs with the release store of the chunk pointer in rec_grow(). */
	struct restrack_rec *chunk =
		atomic_load_explicit(&t->chunks[index >> CHUNK_SHIFT], memory_order_acquire);

	return &chunk[index & CHUNK_MASK];
}

/* Push the chain first..last (linked through next_free) onto the free list. */
static void
free_push(struct rt_table *t, struct restrack_rec *first, struct restrack_rec *last)
{
	uint64_t head = atomic_load_explicit(&t->free_head, memory_order_relaxed);
	uint64_t next;

	do {
		/* relaxed: published by the release CAS below. */
		atomic_store_explicit(&last->next_free, (uint32_t)(head & FREE_IDX_MASK),
				      memory_order_relaxed);
		next = ((head >> FREE_TAG_SHIFT) + 1) << FREE_TAG_SHIFT |
		       (uint64_t)(first->index + 1);
		/* release: the previous owner's writes happen before the next pop. */
	} while (!atomic_compare_exchange_weak_explicit(&t->free_head, &head, next,
			memory_order_release, memory_order_relaxed));
}

static struct restrack_rec *
rec_grow(struct rt_table *t)
{
	uint32_t n = atomic_load_explicit(&t->nb_chunks, memory_order_relaxed);
	struct restrack_rec *chunk;
	uint32_t i;

	do {
		if (n >= t->max_chunks)
			return NULL;
		/* relaxed: the slot index is all we take; the chunk is published below. */
	} while (!atomic_compare_exchange_weak_explicit(&t->nb_chunks, &n, n + 1,
			memory_order_relaxed, memory_order_relaxed));

	chunk = aligned_alloc(sizeof(struct restrack_rec),
			      CHUNK_RECS * sizeof(struct restrack_rec));
	if (chunk == NULL)
		return NULL;	/* the dir slot stays NULL; scans skip it */
	memset(chunk, 0, CHUNK_RECS * sizeof(struct restrack_rec));
	for (i = 0; i < CHUNK_RECS; i++) {
		chunk[i].index = (n << CHUNK_SHIFT) + i;
		atomic_init(&chunk[i].next_free, i + 1 < CHUNK_RECS ? chunk[i].index + 2 : 0);
	}
	/* release: record indexes and links are visible to whoever finds the chunk. */
	atomic_store_explicit(&t->chunks[n], chunk, memory_order_release);
	/* Keep record 0, give the other 63 to the pool. */
	free_push(t, &chunk[1], &chunk[CHUNK_RECS - 1]);
	return &chunk[0];
}

static struct restrack_rec *
rec_alloc(struct rt_table *t)
{
	/* acquire: see the pushed records' links (pairs with free_push's release). */
	uint64_t head = atomic_load_explicit(&t->free_head, memory_order_acquire);
	struct restrack_rec *rec;
	uint64_t next;
	int tries;

	for (tries = 0; tries < 2; tries++) {
		while ((head & FREE_IDX_MASK) != 0) {
			rec = rec_at(t, (uint32_t)(head & FREE_IDX_MASK) - 1);
			/* relaxed: a stale link fails the tagged CAS below. */
			next = ((head >> FREE_TAG_SHIFT) + 1) << FREE_TAG_SHIFT |
			       atomic_load_explicit(&rec->next_free, memory_order_relaxed);
			if (atomic_compare_exchange_weak_explicit(&t->free_head, &head, next,
					memory_order_acquire, memory_order_acquire))
				return rec;
		}
		rec = rec_grow(t);
		if (rec != NULL)
			return rec;
		/* Out of chunks: racing growers may have pushed records meanwhile. */
		head = atomic_load_explicit(&t->free_head, memory_order_acquire);
	}
	return NULL;
}

static void
rec_free(struct rt_table *t, struct restrack_rec *rec)
{
	rec->in_use = false;
	rec->untracked = false;
	rec->entry = NULL;
	free_push(t, rec, rec);
}

/* Copy the owner into the record, so that a leak report never reads the owner's memory. */
static void
rec_set_owner(struct restrack_rec *rec, const struct restrack_entry *entry)
{
	_Static_assert(sizeof(rec->owner) >= sizeof(entry->name) &&
		       sizeof(rec->owner) >= sizeof(entry->task.comm), "owner copy fits");
	const char *owner = entry->driver_res ? entry->name : entry->task.comm;
	size_t n = strnlen(owner, sizeof(rec->owner) - 1);

	rec->type = entry->type;
	rec->driver_res = entry->driver_res;
	rec->pid = entry->driver_res ? 0 : entry->task.pid;
	memcpy(rec->owner, owner, n);
	rec->owner[n] = '\0';
}

/* ---- the ID space ------------------------------------------------------------------------ */

/* Claim exactly `id` for rec. */
static int
slot_claim_exact(struct restrack_root *root, struct rt_table *t, enum restrack_type type,
		 uint32_t id, struct restrack_rec *rec)
{
	uintptr_t expected = 0;
	struct restrack_rec *holder;

	/* acq_rel: the slot orders only the record address; see the header comment. */
	if (atomic_compare_exchange_strong_explicit(&t->slots[id], &expected, (uintptr_t)rec,
			memory_order_acq_rel, memory_order_acquire))
		return 0;
	holder = (struct restrack_rec *)expected;
	/* relaxed: only to word the message; the CAS already decided. */
	RT_LOG(ERR, "%s: %s %u is busy: %s", root->name, type_names[type], id,
	       (atomic_load_explicit(&holder->word, memory_order_relaxed) & REC_LIVE) ?
		       "held by a live object" :
		       "claimed, or still being destroyed (between begin_del and commit_del)");
	return -EBUSY;
}

/* Claim the next free ID after the cursor, cyclically over the non-reserved IDs. */
static int
slot_claim_any(struct restrack_root *root, struct rt_table *t, enum restrack_type type,
	       struct restrack_rec *rec, uint32_t *out)
{
	uint32_t span = t->nb_ids - t->nb_reserved;
	uint32_t id = atomic_load_explicit(&t->next_id, memory_order_relaxed);
	uint32_t i;

	for (i = 0; i < span; i++, id++) {
		uintptr_t expected = 0;

		if (id >= t->nb_ids)
			id = t->nb_reserved;
		/* relaxed peek, to skip taken IDs without a locked instruction. */
		if (atomic_load_explicit(&t->slots[id], memory_order_relaxed) != 0)
			continue;
		if (!atomic_compare_exchange_strong_explicit(&t->slots[id], &expected,
				(uintptr_t)rec, memory_order_acq_rel, memory_order_relaxed))
			continue;
		/* relaxed: a hint for the next allocation; the CAS above decided. */
		atomic_store_explicit(&t->next_id, id + 1 < t->nb_ids ? id + 1 : t->nb_reserved,
				      memory_order_relaxed);
		*out = id;
		return 0;
	}
	RT_LOG(ERR, "%s: no free %s ID among %u", root->name, type_names[type], span);
	return -ENOSPC;
}

/* ---- root ------------------------------------------------------------------------------- */

static void
table_free(struct rt_table *t)
{
	uint32_t i, n = atomic_load_explicit(&t->nb_chunks, memory_order_relaxed);

	if (t->chunks != NULL) {
		for (i = 0; i < n && i < t->max_chunks; i++)
			free(atomic_load_explicit(&t->chunks[i], memory_order_relaxed));
		free(t->chunks);
	}
	if (t->slots != NULL)
		munmap(t->slots, t->slots_bytes);
}

int
restrack_init(const char *name, const struct restrack_config *cfg, struct restrack_root **out)
{
	struct restrack_root *root;
	long page = sysconf(_SC_PAGESIZE);
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
	for (type = 0; type < RESTRACK_MAX; type++) {
		struct rt_table *t = &root->table[type];
		void *slots;

		t->nb_ids = cfg && cfg->type[type].nb_ids ? cfg->type[type].nb_ids :
							       RESTRACK_DEFAULT_IDS;
		t->nb_reserved = cfg ? cfg->type[type].nb_reserved : 0;
		t->slots_bytes = RTE_ALIGN_CEIL((size_t)t->nb_ids * sizeof(uintptr_t),
						(size_t)page);
		/* Zero-filled and committed page by page as IDs are first used. */
		slots = mmap(NULL, t->slots_bytes, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (slots == MAP_FAILED)
			goto nomem;
		t->slots = slots;
		t->max_chunks = (t->nb_ids + CHUNK_MASK) / CHUNK_RECS + CHUNK_SLACK;
		t->chunks = calloc(t->max_chunks, sizeof(*t->chunks));
		if (t->chunks == NULL)
			goto nomem;
		atomic_init(&t->next_id, t->nb_reserved);
		atomic_init(&t->free_head, 0);
		atomic_init(&t->nb_chunks, 0);
	}
	*out = root;
	return 0;

nomem:
	RT_LOG(ERR, "%s: out of memory", name);
	if (root != NULL) {
		for (type = 0; type < RESTRACK_MAX; type++)
			table_free(&root->table[type]);
		free(root);
	}
	return -ENOMEM;
}

const char *
restrack_root_name(const struct restrack_root *root)
{
	return root != NULL ? root->name : "(null)";
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
		struct rt_table *t = &root->table[type];
		uint32_t c, i, n = atomic_load_explicit(&t->nb_chunks, memory_order_acquire);

		for (c = 0; c < n; c++) {
			struct restrack_rec *chunk =
				atomic_load_explicit(&t->chunks[c], memory_order_acquire);

			for (i = 0; chunk != NULL && i < CHUNK_RECS; i++) {
				struct restrack_rec *rec = &chunk[i];

				if (!rec->in_use || rec->untracked)
					continue;	/* free, or never in the table */
				leaks++;
				if (rec->driver_res)
					RT_LOG(ERR, "%s: Driver %s object %u allocated by [%s] "
					       "is not freed", root->name, type_names[type],
					       rec->id, rec->owner);
				else
					RT_LOG(ERR, "%s: User %s object %u allocated by %s "
					       "(pid %d) is not freed", root->name,
					       type_names[type], rec->id, rec->owner,
					       (int)rec->pid);
			}
		}
		table_free(t);
	}
	if (leaks)
		RT_LOG(ERR, "%s: %d objects leaked", root->name, leaks);
	free(root);
	return leaks;
}

/* ---- owner ------------------------------------------------------------------------------ */

int
restrack_new(struct restrack_entry *entry, enum restrack_type type)
{
	if (entry == NULL) {
		RT_LOG(ERR, "NULL entry");
		return -EINVAL;
	}
	if ((unsigned int)type >= RESTRACK_MAX) {
		RT_LOG(ERR, "invalid type %d", (int)type);
		return -EINVAL;
	}
	memset(entry, 0, sizeof(*entry));
	entry->type = (uint8_t)type;
	entry->state = RESTRACK_STATE_NEW;
	entry->task.lcore = RESTRACK_LCORE_NONE;
	return 0;
}

/* Owner fields may change only while nobody else can read them. */
static int
owner_settable(const struct restrack_entry *entry, const char *func)
{
	if (!entry_ok(entry, func))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_LIVE || entry->state == RESTRACK_STATE_DELETING) {
		rte_log(RTE_LOG_ERR, restrack_logtype,
			"restrack: %s(): %s %u is %s: its owner cannot change\n", func,
			type_names[entry->type], entry->id, state_name(entry));
		return -EBUSY;
	}
	return 0;
}

static void
current_task(struct restrack_task *task)
{
	unsigned int lcore = rte_lcore_id();

	task->pid = getpid();
	task->tid = gettid();
	task->lcore = lcore == LCORE_ID_ANY ? RESTRACK_LCORE_NONE : lcore;
	snprintf(task->comm, sizeof(task->comm), "%s", program_invocation_short_name);
}

int
restrack_attach_task(struct restrack_entry *entry, const struct restrack_task *task)
{
	int ret = owner_settable(entry, __func__);

	if (ret != 0)
		return ret;
	if (task != NULL)
		entry->task = *task;
	else
		current_task(&entry->task);
	entry->task.comm[RESTRACK_COMM_LEN - 1] = '\0';
	entry->driver_res = false;
	entry->name[0] = '\0';
	return 0;
}

int
restrack_set_name(struct restrack_entry *entry, const char *name)
{
	int ret;

	if (name == NULL)
		return restrack_attach_task(entry, NULL);
	ret = owner_settable(entry, __func__);
	if (ret != 0)
		return ret;
	if (strnlen(name, RESTRACK_NAME_LEN) >= RESTRACK_NAME_LEN) {
		RT_LOG(ERR, "name '%.*s...' is longer than %d characters", RESTRACK_NAME_LEN - 1,
		       name, RESTRACK_NAME_LEN - 1);
		return -EINVAL;
	}
	snprintf(entry->name, sizeof(entry->name), "%s", name);
	memset(&entry->task, 0, sizeof(entry->task));
	entry->task.lcore = RESTRACK_LCORE_NONE;
	entry->driver_res = true;
	return 0;
}

int
restrack_parent_name(struct restrack_entry *entry, const struct restrack_entry *parent)
{
	if (parent == NULL) {
		RT_LOG(ERR, "NULL parent");
		return -EINVAL;
	}
	if (parent->driver_res)
		return restrack_set_name(entry, parent->name);
	return restrack_attach_task(entry, &parent->task);
}

int
restrack_no_track(struct restrack_entry *entry)
{
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_NEW && entry->state != RESTRACK_STATE_DELETED) {
		RT_LOG(ERR, "%s %u is %s: too late to stop tracking it",
		       type_names[entry->type], entry->id, state_name(entry));
		return -EBUSY;
	}
	entry->no_track = true;
	return 0;
}

bool
restrack_is_tracked(const struct restrack_entry *entry)
{
	return entry != NULL && !entry->no_track;
}

bool
restrack_is_driver_res(const struct restrack_entry *entry)
{
	return entry != NULL && entry->driver_res;
}

/* ---- add and claim ---------------------------------------------------------------------- */

int
restrack_claim(struct restrack_root *root, struct restrack_entry *entry, uint32_t id)
{
	struct restrack_rec *rec;
	struct rt_table *t;
	int ret;

	if (root == NULL) {
		RT_LOG(ERR, "NULL root");
		return -EINVAL;
	}
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->no_track) {
		RT_LOG(ERR, "%s: untracked %s entries have no ID", root->name,
		       type_names[entry->type]);
		return -EINVAL;
	}
	if (entry->state != RESTRACK_STATE_NEW && entry->state != RESTRACK_STATE_DELETED) {
		RT_LOG(ERR, "%s: %s %u is %s: double claim", root->name, type_names[entry->type],
		       entry->id, state_name(entry));
		return -EINVAL;
	}
	t = &root->table[entry->type];
	if (id != RESTRACK_ID_ANY && id >= t->nb_ids) {
		RT_LOG(ERR, "%s: %s ID %u out of range (0..%u)", root->name,
		       type_names[entry->type], id, t->nb_ids - 1);
		return -ERANGE;
	}
	rec = rec_alloc(t);
	if (rec == NULL) {
		RT_LOG(ERR, "%s: out of %s tracking records", root->name, type_names[entry->type]);
		return -ENOMEM;
	}
	if (id == RESTRACK_ID_ANY)
		ret = slot_claim_any(root, t, entry->type, rec, &id);
	else
		ret = slot_claim_exact(root, t, entry->type, id, rec);
	if (ret != 0) {
		free_push(t, rec, rec);
		return ret;
	}
	rec->entry = entry;
	rec->id = id;
	rec->in_use = true;
	rec_set_owner(rec, entry);
	entry->rec = rec;
	entry->root = root;
	entry->id = id;
	entry->state = RESTRACK_STATE_CLAIMED;
	return 0;
}

/* A no_track entry: a record from the pool (so restrack_clean frees it), no slot, no ID. */
static int
add_untracked(struct restrack_root *root, struct restrack_entry *entry)
{
	struct restrack_rec *rec = rec_alloc(&root->table[entry->type]);

	if (rec == NULL) {
		RT_LOG(ERR, "%s: out of %s tracking records", root->name, type_names[entry->type]);
		return -ENOMEM;
	}
	rec->untracked = true;
	rec->entry = entry;
	rec->id = 0;
	rec->in_use = true;
	rec_set_owner(rec, entry);
	/* release: as in restrack_add. */
	atomic_fetch_add_explicit(&rec->word, REC_BIRTH, memory_order_release);
	entry->rec = rec;
	entry->root = root;
	entry->id = 0;
	entry->state = RESTRACK_STATE_LIVE;
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
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_LIVE || entry->state == RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s: %s %u is %s: double add", root->name, type_names[entry->type],
		       entry->id, state_name(entry));
		return -EINVAL;
	}
	if (entry->state == RESTRACK_STATE_CLAIMED && entry->root != root) {
		RT_LOG(ERR, "%s: %s %u was claimed in another root (%s)", root->name,
		       type_names[entry->type], entry->id, entry->root->name);
		return -EINVAL;
	}
	if (!entry->no_track && entry->state != RESTRACK_STATE_CLAIMED) {
		ret = restrack_claim(root, entry, RESTRACK_ID_ANY);
		if (ret != 0)
			return ret;	/* the entry is untouched */
	}
	if (!entry->driver_res && entry->task.pid == 0)
		current_task(&entry->task);	/* no owner given: the calling task */
	if (entry->no_track)
		return add_untracked(root, entry);
	rec_set_owner(entry->rec, entry);
	entry->state = RESTRACK_STATE_LIVE;
	/* release: the entry, rec->entry and rec->id are visible to whoever sees LIVE (I3). */
	atomic_fetch_add_explicit(&entry->rec->word, REC_BIRTH, memory_order_release);
	return 0;
}

/* ---- references ------------------------------------------------------------------------- */

int
restrack_get(struct restrack_entry *entry)
{
	struct restrack_rec *rec;
	uint64_t old;

	if (entry == NULL) {
		RT_LOG(ERR, "NULL entry");
		return -EINVAL;
	}
	rec = entry->rec;
	if (rec == NULL)
		return -ENOENT;
	/* acquire: pairs with add's release; the entry's fields are visible. */
	old = atomic_fetch_add_explicit(&rec->word, 1, memory_order_acquire);
	if (unlikely(!(old & REC_LIVE))) {
		/* release: nothing was read, but keep every decrement a release (put's rule). */
		atomic_fetch_sub_explicit(&rec->word, 1, memory_order_release);
		return -ENOENT;
	}
	return 0;
}

int
restrack_put(struct restrack_entry *entry)
{
	struct restrack_rec *rec;
	uint64_t old;

	if (entry == NULL || entry->rec == NULL) {
		RT_LOG(ERR, "%s entry: no reference to put", entry == NULL ? "NULL" : "untracked");
		return -EINVAL;
	}
	rec = entry->rec;
	old = atomic_load_explicit(&rec->word, memory_order_relaxed);
	do {
		/* A live entry always keeps its birth reference; only the owner drops it. */
		if ((old & REC_COUNT_MASK) <= ((old & REC_LIVE) ? 1u : 0u)) {
			RT_LOG(ERR, "%s %u: put without a reference", type_names[entry->type],
			       entry->id);
			return -EINVAL;
		}
		/* release: the reader's use of the object happens before begin_del returns. */
	} while (!atomic_compare_exchange_weak_explicit(&rec->word, &old, old - 1,
			memory_order_release, memory_order_relaxed));
	return 0;
}

int
restrack_refcnt(const struct restrack_entry *entry)
{
	if (entry == NULL || entry->rec == NULL) {
		RT_LOG(ERR, "%s entry has no reference count", entry == NULL ? "NULL" : "untracked");
		return -EINVAL;
	}
	/* acquire: a count of 1 means every earlier put happened before our return. */
	return (int)(atomic_load_explicit(&entry->rec->word, memory_order_acquire) &
		     REC_COUNT_MASK);
}

int
restrack_get_byid(struct restrack_root *root, enum restrack_type type, uint32_t id,
		  struct restrack_entry **out)
{
	struct restrack_rec *rec;
	struct rt_table *t;
	uintptr_t slot;
	uint64_t old;

	if (unlikely(root == NULL || out == NULL || (unsigned int)type >= RESTRACK_MAX)) {
		RT_LOG(ERR, "bad argument: root %p, type %d, out %p", (void *)root, (int)type,
		       (void *)out);
		return -EINVAL;
	}
	t = &root->table[type];
	if (unlikely(id >= t->nb_ids)) {
		RT_LOG(ERR, "%s: %s ID %u out of range (0..%u)", root->name, type_names[type], id,
		       t->nb_ids - 1);
		return -ERANGE;
	}
	/* acquire: the record address; the record itself is type-stable (I4, I5). */
	slot = atomic_load_explicit(&t->slots[id], memory_order_acquire);
	if (slot == 0)
		return -ENOENT;
	rec = (struct restrack_rec *)slot;
	/* acquire: pairs with add's release (I3). */
	old = atomic_fetch_add_explicit(&rec->word, 1, memory_order_acquire);
	if (unlikely(!(old & REC_LIVE) || rec->id != id)) {
		/* Hidden, or recycled for another ID after we read the slot: not found. */
		atomic_fetch_sub_explicit(&rec->word, 1, memory_order_release);
		return -ENOENT;
	}
	*out = rec->entry;
	return 0;
}

/* ---- delete ----------------------------------------------------------------------------- */

/* Wait until the record's count is down to `target`. */
static void
drain(struct restrack_rec *rec, uint64_t target)
{
	unsigned int spins = 0;

	/* acquire: pairs with every put's release; their accesses happen before our return. */
	while ((atomic_load_explicit(&rec->word, memory_order_acquire) & REC_COUNT_MASK) !=
	       target) {
		if (++spins < DRAIN_SPINS)
			rte_pause();
		else
			sched_yield();
	}
}

int
restrack_begin_del(struct restrack_entry *entry)
{
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s, not live: cannot begin deleting it",
		       type_names[entry->type], entry->id, state_name(entry));
		return -EINVAL;
	}
	/* acq_rel: hide it and drop the birth reference in one step; the slot keeps the ID. */
	atomic_fetch_sub_explicit(&entry->rec->word, REC_BIRTH, memory_order_acq_rel);
	entry->state = RESTRACK_STATE_DELETING;
	drain(entry->rec, 0);
	return 0;
}

/* Give up the ID and the record of a claimed or drained entry. */
static void
release_id(struct restrack_entry *entry)
{
	struct restrack_rec *rec = entry->rec;

	struct rt_table *t = &entry->root->table[entry->type];

	if (!rec->untracked)
		/* release: our last accesses to the record come before a new claim of the ID. */
		atomic_store_explicit(&t->slots[entry->id], 0, memory_order_release);
	rec_free(t, rec);
	entry->rec = NULL;
	entry->state = RESTRACK_STATE_DELETED;
}

int
restrack_commit_del(struct restrack_entry *entry)
{
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s %u is %s: commit_del without begin_del",
		       type_names[entry->type], entry->id, state_name(entry));
		return -EINVAL;
	}
	release_id(entry);
	return 0;
}

int
restrack_abort_del(struct restrack_entry *entry)
{
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_DELETING) {
		RT_LOG(ERR, "%s %u is %s: abort_del without begin_del",
		       type_names[entry->type], entry->id, state_name(entry));
		return -EINVAL;
	}
	entry->state = RESTRACK_STATE_LIVE;
	/* release: visible again with a fresh birth reference (I2); the slot never changed. */
	atomic_fetch_add_explicit(&entry->rec->word, REC_BIRTH, memory_order_release);
	return 0;
}

int
restrack_del(struct restrack_entry *entry)
{
	int ret;

	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_CLAIMED) {
		release_id(entry);	/* the create failed after the claim */
		return 0;
	}
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s: nothing to delete", type_names[entry->type], entry->id,
		       state_name(entry));
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
	if (!entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_LIVE) {
		RT_LOG(ERR, "%s %u is %s, not live: nothing to sync", type_names[entry->type],
		       entry->id, state_name(entry));
		return -EINVAL;
	}
	/* acq_rel: hide it, keeping the birth reference; new readers now fail. */
	atomic_fetch_sub_explicit(&entry->rec->word, REC_LIVE, memory_order_acq_rel);
	drain(entry->rec, 1);
	/* release: visible again; readers from here on see the current fields. */
	atomic_fetch_add_explicit(&entry->rec->word, REC_LIVE, memory_order_release);
	return 0;
}

/* ---- walks ------------------------------------------------------------------------------ */

static bool
filter_match(const struct restrack_entry *entry, const struct restrack_filter *f)
{
	if (f == NULL)
		return true;
	if (f->driver_only && !entry->driver_res)
		return false;
	if (f->user_only && entry->driver_res)
		return false;
	if (f->pid != 0 && (entry->driver_res || entry->task.pid != f->pid))
		return false;
	if (f->name != NULL && (!entry->driver_res || strcmp(entry->name, f->name) != 0))
		return false;
	return true;
}

static int
root_type_ok(const struct restrack_root *root, enum restrack_type type, const char *func)
{
	if (root == NULL || (unsigned int)type >= RESTRACK_MAX) {
		rte_log(RTE_LOG_ERR, restrack_logtype, "restrack: %s(): %s\n", func,
			root == NULL ? "NULL root" : "invalid type");
		return -EINVAL;
	}
	return 0;
}

/*
 * Visit every live record of a table: take a reference, check the filter, call fn, put.
 * Runs concurrently with everything; records added or deleted meanwhile may be missed.
 */
static int
table_walk(struct rt_table *t, const struct restrack_filter *filter,
	   int (*fn)(struct restrack_rec *rec, void *arg), void *arg)
{
	uint32_t c, i, n = atomic_load_explicit(&t->nb_chunks, memory_order_acquire);
	int ret = 0;

	for (c = 0; c < n && ret == 0; c++) {
		struct restrack_rec *chunk =
			atomic_load_explicit(&t->chunks[c], memory_order_acquire);

		for (i = 0; chunk != NULL && i < CHUNK_RECS && ret == 0; i++) {
			struct restrack_rec *rec = &chunk[i];

			/* relaxed peek to skip free records without a locked instruction. */
			if (!(atomic_load_explicit(&rec->word, memory_order_relaxed) & REC_LIVE))
				continue;
			/* acquire: as in get_byid. */
			if (atomic_fetch_add_explicit(&rec->word, 1, memory_order_acquire) &
			    REC_LIVE) {
				if (!rec->untracked && filter_match(rec->entry, filter))
					ret = fn(rec, arg);
			}
			atomic_fetch_sub_explicit(&rec->word, 1, memory_order_release);
		}
	}
	return ret;
}

static int
count_one(struct restrack_rec *rec, void *arg)
{
	RTE_SET_USED(rec);
	(*(int *)arg)++;
	return 0;
}

int
restrack_count(struct restrack_root *root, enum restrack_type type,
	       const struct restrack_filter *filter)
{
	int n = 0;

	if (root_type_ok(root, type, __func__) != 0)
		return -EINVAL;
	table_walk(&root->table[type], filter, count_one, &n);
	return n;
}

struct id_list {
	uint32_t *ids;
	size_t n, cap;
	int err;
};

static int
collect_id(struct restrack_rec *rec, void *arg)
{
	struct id_list *l = arg;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		uint32_t *ids = realloc(l->ids, cap * sizeof(*ids));

		if (ids == NULL) {
			l->err = -ENOMEM;
			return -ENOMEM;
		}
		l->ids = ids;
		l->cap = cap;
	}
	l->ids[l->n++] = rec->id;
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int
restrack_foreach(struct restrack_root *root, enum restrack_type type,
		 const struct restrack_filter *filter,
		 int (*cb)(struct restrack_entry *entry, void *arg), void *arg)
{
	struct id_list l = { 0 };
	size_t i;
	int ret = 0;

	if (root_type_ok(root, type, __func__) != 0)
		return -EINVAL;
	if (cb == NULL) {
		RT_LOG(ERR, "NULL callback");
		return -EINVAL;
	}
	/* Snapshot the IDs, then visit them one reference at a time, in ID order, so that a
	 * callback may delete objects (including ones not visited yet) without deadlock. */
	table_walk(&root->table[type], filter, collect_id, &l);
	if (l.err != 0) {
		RT_LOG(ERR, "%s: out of memory listing %s objects", root->name, type_names[type]);
		free(l.ids);
		return l.err;
	}
	if (l.n > 1)
		qsort(l.ids, l.n, sizeof(*l.ids), cmp_u32);
	for (i = 0; i < l.n && ret == 0; i++) {
		struct restrack_entry *entry;

		if (restrack_get_byid(root, type, l.ids[i], &entry) != 0)
			continue;	/* deleted meanwhile */
		if (filter_match(entry, filter))
			ret = cb(entry, arg);
		restrack_put(entry);
	}
	free(l.ids);
	return ret;
}

/* ---- dumps ------------------------------------------------------------------------------ */

int
restrack_set_fill(struct restrack_root *root, enum restrack_type type, restrack_fill_t fill,
		  void *arg)
{
	if (root_type_ok(root, type, __func__) != 0)
		return -EINVAL;
	root->table[type].fill = fill;
	root->table[type].fill_arg = arg;
	return 0;
}

int
restrack_dump_attr(struct restrack_dump_rec *rec, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (rec == NULL || name == NULL || fmt == NULL) {
		RT_LOG(ERR, "NULL argument");
		return -EINVAL;
	}
	if (rec->nb_attrs >= RESTRACK_DUMP_MAX_ATTRS) {
		RT_LOG(ERR, "dump record full: no room for '%s'", name);
		return -ENOSPC;
	}
	rec->attrs[rec->nb_attrs].name = name;
	va_start(ap, fmt);
	vsnprintf(rec->attrs[rec->nb_attrs].value, sizeof(rec->attrs[0].value), fmt, ap);
	va_end(ap);
	rec->nb_attrs++;
	return 0;
}

struct dump_ctx {
	struct restrack_root *root;
	int (*emit)(const struct restrack_dump_rec *rec, void *arg);
	void *arg;
};

static int
dump_one(struct restrack_entry *entry, void *arg)
{
	struct dump_ctx *ctx = arg;
	struct rt_table *t = &ctx->root->table[entry->type];
	struct restrack_dump_rec rec = {
		.entry = entry,
		.dev = ctx->root->name,
	};
	int ret;

	if (t->fill != NULL)
		ret = t->fill(&rec, t->fill_arg);
	else
		ret = restrack_dump_attr(&rec, id_attr_names[entry->type], "%u", entry->id);
	if (ret != 0)
		return ret;
	return ctx->emit(&rec, ctx->arg);
}

int
restrack_dump(struct restrack_root *root, enum restrack_type type,
	      const struct restrack_filter *filter,
	      int (*emit)(const struct restrack_dump_rec *rec, void *arg), void *arg)
{
	struct dump_ctx ctx = { .root = root, .emit = emit, .arg = arg };

	if (emit == NULL) {
		RT_LOG(ERR, "NULL emit callback");
		return -EINVAL;
	}
	return restrack_foreach(root, type, filter, dump_one, &ctx);
}

/* snprintf at *off into buf, tracking the full length even when the buffer is short. */
static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(*off < len ? buf + *off : NULL, *off < len ? len - *off : 0, fmt, ap);
	va_end(ap);
	*off += (size_t)(n > 0 ? n : 0);
}

int
restrack_format(const struct restrack_dump_rec *rec, char *buf, size_t len)
{
	const struct restrack_entry *e;
	size_t off = 0;
	unsigned int i;

	if (rec == NULL || rec->entry == NULL || (buf == NULL && len != 0)) {
		RT_LOG(ERR, "NULL argument");
		return -EINVAL;
	}
	e = rec->entry;
	if (e->type != RESTRACK_QP)
		append(buf, len, &off, "dev %s", rec->dev);
	else if (rec->port != 0)
		append(buf, len, &off, "link %s/%u", rec->dev, rec->port);
	else
		append(buf, len, &off, "link %s/-", rec->dev);
	for (i = 0; i < rec->nb_attrs && i < RESTRACK_DUMP_MAX_ATTRS; i++)
		append(buf, len, &off, " %s %s", rec->attrs[i].name, rec->attrs[i].value);
	if (e->driver_res)
		append(buf, len, &off, " comm [%s]", e->name);
	else
		append(buf, len, &off, " pid %d comm %s", (int)e->task.pid, e->task.comm);
	return (int)off;
}

int
restrack_summary(struct restrack_root *root, char *buf, size_t len)
{
	size_t off = 0;
	int type;

	if (root == NULL || (buf == NULL && len != 0)) {
		RT_LOG(ERR, "NULL argument");
		return -EINVAL;
	}
	append(buf, len, &off, "%s:", root->name);
	for (type = 0; type < RESTRACK_MAX; type++)
		append(buf, len, &off, " %s %d", summary_names[type],
		       restrack_count(root, type, NULL));
	return (int)off;
}

size_t
restrack_bytes_per_entry(void)
{
	return sizeof(struct restrack_rec) + sizeof(uintptr_t);
}
