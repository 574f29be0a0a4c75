/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RESTRACK_PRIVATE_H
#define RESTRACK_PRIVATE_H

/* Shared by restrack's own files: the root's layout, logging, small checks. */

#include <stdalign.h>

#include <rte_log.h>

#include "restrack.h"

extern int restrack_logtype;

#define RT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, restrack_logtype, "restrack: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* Same, naming the public function that detected the problem. */
#define RT_LOG_FN(level, func, fmt, ...) \
	rte_log(RTE_LOG_##level, restrack_logtype, "restrack: %s(): " fmt "\n", func, \
		##__VA_ARGS__)

#define RT_LEASE_IDS	64	/* IDs per lease, and per bit of the used-block map */
#define RT_LEASE_SHIFT	6	/* log2(RT_LEASE_IDS) */
#define RT_THP_BYTES	(2u << 20)	/* a transparent huge page: slot tables this large use them */

/* Per type, beyond the lookup part in root->fast.table[type]. */
struct rt_table {
	uint32_t nb_reserved;		/* IDs below it are never chosen by the allocator */
	size_t array_bytes;		/* size of the slot mapping, and of the word mapping */
	_Atomic uint64_t *used_blocks;	/* bit per RT_LEASE_IDS IDs: some ID there was claimed */
	uint32_t nb_block_words;	/* 64-bit words in used_blocks */
	restrack_fill_t fill;		/* dump attributes, or NULL */
	void *fill_arg;
	/* Written when a thread's lease runs out. */
	alignas(64) _Atomic uint32_t cursor;
};

struct restrack_root {
	struct restrack_root_fast fast;	/* first: restrack_core.h reads it through the root */
	char name[RESTRACK_NAME_LEN];
	uint64_t serial;		/* unique per root ever created: keys threads' leases */
	struct rt_table table[RESTRACK_MAX];
};

/* Printable state of an entry. */
const char *rt_state_name(const struct restrack_entry *entry);

/* Logs why an entry is unusable; returns false. */
bool rt_entry_bad(const struct restrack_entry *entry, const char *func);

/* An entry that restrack_new() produced: a known type and state. Logs as func otherwise. */
static inline bool
rt_entry_ok(const struct restrack_entry *entry, const char *func)
{
	if (unlikely(entry == NULL || entry->type >= RESTRACK_MAX ||
		     entry->state > RESTRACK_STATE_DELETED))
		return rt_entry_bad(entry, func);
	return true;
}

/* The calling task: pid, tid, lcore, process name (cached; no system call once known). */
void rt_current_task(struct restrack_task *task);

/* iproute2's name of a type's ID attribute ("lqpn", "cqn", ...) and its summary key. */
const char *rt_id_attr_name(enum restrack_type type);
const char *rt_summary_name(enum restrack_type type);

/*
 * Visit every slot of a type whose ID was ever claimed, in ID order, that holds a live entry
 * matching filter: take a reference, call fn, put it. Stops at fn's first non-zero return.
 */
int rt_walk(struct restrack_root *root, enum restrack_type type,
	    const struct restrack_filter *filter,
	    int (*fn)(struct restrack_entry *entry, void *arg), void *arg);

/* Thread reference caches (restrack_tref.c). */

/* Turn the caches on if this process can use them (once; restrack_init() calls it). */
void rt_tref_enable(void);

/* An added entry whose references threads may cache: it has an ID, and so a cache key (a
 * no_track entry has its own word and no key). */
static inline bool
rt_entry_cacheable(const struct restrack_entry *entry)
{
	return entry->tkey != 0;
}

/* The reference word of the ID whose cache key is key, if it is one of root's; else NULL. */
_Atomic uint64_t *rt_key_word(const struct restrack_root *root, uint64_t key);

/* References every thread's cache counts under key, a restrack_tref_key() (a racy sum: exact
 * once they settle). */
int64_t rt_tref_sum(uint64_t key);

/* Forget every count threads' caches hold for keys in [lo, hi): the keys of a root's slots,
 * when the root is freed (nothing uses it any more). */
void rt_tref_forget(uintptr_t lo, uintptr_t hi);

/* After a deleter cleared LIVE: every thread's count store before its look at LIVE is
 * visible, and every later look sees LIVE clear (membarrier()). */
void rt_tref_barrier(void);

#endif /* RESTRACK_PRIVATE_H */
