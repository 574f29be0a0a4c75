/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RESTRACK_H
#define RESTRACK_H

/**
 * @file
 * restrack: the lock-free table that tracks every hardware object of an RDMA device.
 *
 * The model is the Linux kernel's rdma restrack, in userspace and without locks:
 *
 * - A device owns one *root* (restrack_init() / restrack_clean()). A root has one ID space per
 *   object type (PD, CQ, QP, ...); the IDs are the hardware IDs (QPN, CQ id, STag index, PD id).
 *   The driver configures each space: how many IDs it has and how many low IDs are reserved.
 * - Every tracked object embeds a struct restrack_entry and goes through
 *
 *       create:  restrack_new() -> [restrack_claim()] -> driver create -> restrack_add()
 *       destroy: restrack_begin_del() -> driver destroy -> restrack_commit_del()
 *                                                     or -> restrack_abort_del()
 *
 *   restrack_claim() reserves the ID first when the driver needs it for the hardware command
 *   (a QPN goes into CREATE_QP); restrack_add() claims one itself when it has not been claimed.
 * - restrack_get_byid() finds a live object by ID and returns it with a reference;
 *   restrack_put() drops it. restrack_begin_del() hides the object from lookups, keeps its ID
 *   reserved and waits until every reference taken by a reader has been dropped: after it
 *   returns, nobody else can reach the object, so the driver may destroy it.
 *
 * Differences from the kernel:
 * - The ID space belongs to restrack, for every type. Between restrack_begin_del() and
 *   restrack_commit_del() the ID stays reserved: no allocation returns it, and an insert at it
 *   (restrack_claim() with an explicit ID) fails with -EBUSY. The kernel's window, where a QPN
 *   freed by the driver is reused before commit_del and the new QP silently goes untracked,
 *   does not exist: an add either tracks the object or fails loudly.
 * - restrack_get() and restrack_get_byid() fail as soon as deletion has begun.
 * - Owner fields (name, task) are set before restrack_add() and are immutable while the entry
 *   is tracked, so readers never see them change.
 *
 * Threading: lookups (restrack_get_byid(), restrack_get(), restrack_put(), inline in
 * restrack_core.h) may run on any thread at any time; restrack_get_byid() is wait-free.
 * restrack_add(), restrack_claim() and the delete functions are lock-free and may run
 * concurrently on different entries; calls on one entry must not race with each other (the
 * owner of an object serialises its own create and destroy, as in the kernel).
 * Counting, iteration and dumps may run concurrently with everything else.
 *
 * Every function that can fail returns 0 or a negative errno and logs the reason on the
 * `lib.restrack` log type.
 */

#ifdef __cplusplus
#include <atomic>
#else
#include <stdatomic.h>
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @internal A 64-bit word restrack reads and writes atomically: `_Atomic uint64_t` in C,
 * `std::atomic<uint64_t>` in C++ (C++17 has no `_Atomic`). Both are a lock-free 8-byte word
 * aligned to 8 bytes holding the plain value, so every structure has one layout in both
 * languages (asserted below on both sides; tests/pkg/check_headers.py compares the sizes and
 * alignments of every public structure between the two).
 */
#ifdef __cplusplus
typedef std::atomic<uint64_t> restrack_atomic64_t;
static_assert(restrack_atomic64_t::is_always_lock_free, "restrack needs a lock-free 64-bit word");
static_assert(sizeof(restrack_atomic64_t) == 8 && alignof(restrack_atomic64_t) == 8,
	      "restrack_atomic64_t: 8 bytes aligned to 8, as in C");
#else
typedef _Atomic uint64_t restrack_atomic64_t;
_Static_assert(sizeof(restrack_atomic64_t) == 8 && _Alignof(restrack_atomic64_t) == 8,
	       "restrack_atomic64_t: 8 bytes aligned to 8, as in C++");
#endif

/** Object types, in the kernel's order. */
enum restrack_type {
	RESTRACK_PD,		/**< protection domain */
	RESTRACK_CQ,		/**< completion queue */
	RESTRACK_QP,		/**< queue pair */
	RESTRACK_CM_ID,		/**< connection manager endpoint */
	RESTRACK_MR,		/**< memory region */
	RESTRACK_CTX,		/**< application context */
	RESTRACK_COUNTER,	/**< statistics counter */
	RESTRACK_SRQ,		/**< shared receive queue */
	RESTRACK_DMAH,		/**< DMA handle */
	RESTRACK_COMP_CNTR,	/**< completion counter */
	RESTRACK_MAX		/**< sentinel: sizes arrays, never a valid type */
};

/** Pass to restrack_claim() to let restrack choose the ID (cyclic allocation). */
#define RESTRACK_ID_ANY UINT32_MAX

/** Largest ID space of one type (IDs 0 .. RESTRACK_MAX_IDS - 1). */
#define RESTRACK_MAX_IDS (1u << 24)

/** ID space size used when the configuration leaves it 0. */
#define RESTRACK_DEFAULT_IDS (1u << 20)

/** Length of a driver-owned object's name (and of a root's name), with its terminating NUL. */
#define RESTRACK_NAME_LEN 28

/** Length of a process name, with its NUL (the kernel's TASK_COMM_LEN). */
#define RESTRACK_COMM_LEN 16

/** lcore value of an owner that is not an EAL lcore. */
#define RESTRACK_LCORE_NONE UINT32_MAX

struct restrack_root;

/** The task that owns a user object: what `rdma resource show` prints as pid and comm. */
struct restrack_task {
	pid_t pid;			/**< owning process */
	pid_t tid;			/**< thread that created the object */
	uint32_t lcore;			/**< EAL lcore of that thread, or RESTRACK_LCORE_NONE */
	char comm[RESTRACK_COMM_LEN];	/**< process name */
};

/** Life of an entry, as its owner drives it. */
enum restrack_state {
	RESTRACK_STATE_NEW,		/**< restrack_new() done, not tracked */
	RESTRACK_STATE_CLAIMED,		/**< ID reserved, not yet visible */
	RESTRACK_STATE_LIVE,		/**< tracked and visible to lookups */
	RESTRACK_STATE_DELETING,	/**< between begin_del and commit_del/abort_del */
	RESTRACK_STATE_DELETED,		/**< deleted; may be added again */
};

/**
 * Embedded in every tracked object. Initialise with restrack_new(); every field is owned by
 * restrack, read it through the accessors.
 */
struct restrack_entry {
	restrack_atomic64_t *ref;	/**< reference word while added: the ID's, or own_ref */
	uint64_t tkey;			/**< thread cache key of its ID, 0 without one */
	struct restrack_root *root;	/**< root it was claimed or added in */
	uint32_t id;			/**< hardware ID, valid once claimed */
	uint8_t type;			/**< enum restrack_type */
	uint8_t state;			/**< enum restrack_state */
	bool no_track;			/**< counted by the owner only, not in the table */
	bool driver_res;		/**< owned by the driver (has a name) rather than a task */
	char name[RESTRACK_NAME_LEN];	/**< driver-owned objects: the creator's name */
	struct restrack_task task;	/**< user objects: the owner */
	restrack_atomic64_t own_ref;	/**< reference word of a no_track entry */
};

/** ID space of one type. */
struct restrack_type_config {
	/** Number of IDs: valid IDs are 0 .. nb_ids - 1. 0 selects RESTRACK_DEFAULT_IDS. */
	uint32_t nb_ids;
	/** IDs 0 .. nb_reserved - 1 are never chosen by the allocator; an explicit claim
	 *  (a driver resource such as a reserved QP) may still take them. */
	uint32_t nb_reserved;
};

/** Configuration of a root. A zeroed struct gives every type the default space. */
struct restrack_config {
	struct restrack_type_config type[RESTRACK_MAX];	/**< per-type ID spaces */
};

/**
 * Printable name of a type ("PD", "CQ", "QP", "CM_ID", "MR", "CTX", "COUNTER", "SRQ", "DMAH",
 * "COMP_CNTR"); "UNKNOWN" for anything else, including RESTRACK_MAX.
 */
const char *restrack_type_name(enum restrack_type type);

/**
 * Create a root.
 *
 * @param name  Device name, printed in dumps and leak reports (copied; at most
 *              RESTRACK_NAME_LEN - 1 characters).
 * @param cfg   Per-type ID spaces, or NULL for the defaults.
 * @param out   Receives the root.
 * @return 0, -EINVAL (NULL argument, a name too long, a space larger than RESTRACK_MAX_IDS or
 *         reserving all of itself), -ENOMEM.
 */
int restrack_init(const char *name, const struct restrack_config *cfg,
		  struct restrack_root **out);

/**
 * Destroy a root, reporting every object that is still tracked (claimed, live or being
 * deleted) with its type, ID, name and owner on the log, as the kernel's restrack_clean does.
 * The entries themselves belong to their owners and are not touched. No other call on the
 * root may run concurrently or follow.
 *
 * @return Number of leaked objects (0 when everything was deleted), or -EINVAL for NULL.
 */
int restrack_clean(struct restrack_root *root);

/** Name the root was created with. */
const char *restrack_root_name(const struct restrack_root *root);

/**
 * Initialise an entry for an object of @p type. The entry is not tracked yet. The owner is
 * left unset: name it with restrack_set_name(), restrack_parent_name() or
 * restrack_attach_task() before restrack_add().
 *
 * @return 0, or -EINVAL for NULL or an invalid type.
 */
int restrack_new(struct restrack_entry *entry, enum restrack_type type);

/**
 * Give a driver-owned object its name (the kernel's kern_name), or, with @p name NULL, make it
 * a user object owned by the calling task (restrack_attach_task(entry, NULL)). The owner may
 * be set while the entry is new, claimed or deleted, never while it is live or being deleted.
 *
 * @return 0, -EINVAL (also for a name of RESTRACK_NAME_LEN characters or more), or -EBUSY
 *         when the entry is live or being deleted.
 */
int restrack_set_name(struct restrack_entry *entry, const char *name);

/**
 * Inherit the owner of @p parent: a driver-owned parent passes on its name, a user parent its
 * task.
 *
 * @return 0, -EINVAL, or -EBUSY when @p entry is already tracked.
 */
int restrack_parent_name(struct restrack_entry *entry, const struct restrack_entry *parent);

/**
 * Make the entry a user object owned by @p task, or by the calling thread when @p task is NULL
 * (pid, thread id, EAL lcore and process name).
 *
 * @return 0, -EINVAL, or -EBUSY when the entry is already tracked.
 */
int restrack_attach_task(struct restrack_entry *entry, const struct restrack_task *task);

/**
 * Mark the entry as not tracked: restrack_add() makes it valid and reference counted but
 * does not put it in the table (no ID, invisible to lookups, counts and dumps).
 *
 * @return 0, -EINVAL, or -EBUSY when the entry is already claimed or tracked.
 */
int restrack_no_track(struct restrack_entry *entry);

/** True when the entry is (or will be, once added) in the table. */
bool restrack_is_tracked(const struct restrack_entry *entry);

/** True when the entry is driver-owned (the kernel's rdma_is_kernel_res). */
bool restrack_is_driver_res(const struct restrack_entry *entry);

/** The entry's ID; meaningful once claimed. */
static inline uint32_t
restrack_id(const struct restrack_entry *entry)
{
	return entry->id;
}

/**
 * Reserve an ID for the entry without making it visible, so the driver can use the ID in its
 * create command. @p id is RESTRACK_ID_ANY for the allocator's choice (cyclic over the
 * non-reserved IDs, so a freed ID comes back as late as possible) or an exact ID (the
 * kernel's QP and counter path).
 *
 * @return 0; -EBUSY when the exact ID is in use or still being deleted; -ENOSPC when no ID is
 *         free; -ERANGE for an ID outside the type's space; -EINVAL for a bad entry or state,
 *         or a no_track entry (it has no ID).
 */
int restrack_claim(struct restrack_root *root, struct restrack_entry *entry, uint32_t id);

/**
 * Track the entry and make it visible to lookups. Claims an ID first (RESTRACK_ID_ANY) when
 * restrack_claim() was not called. On return the entry holds its birth reference. An entry
 * whose owner was never set becomes a user object of the calling task. A no_track entry
 * gets a reference count but no ID and no place in the table.
 *
 * @return 0, or the errors of restrack_claim(); -EINVAL for a double add or a bad entry. On
 *         error the entry is untouched and nothing is tracked.
 */
int restrack_add(struct restrack_root *root, struct restrack_entry *entry);

/**
 * Current number of references on the entry, the birth reference included (1 for a live entry
 * that nobody else holds). A snapshot for tests, dumps and leak hunting.
 *
 * @return The count, or -EINVAL for NULL or an entry with no record (new or deleted).
 */
int restrack_refcnt(const struct restrack_entry *entry);

/**
 * Delete in one step: restrack_begin_del() then restrack_commit_del(). Also releases an entry
 * that was only claimed (a create that failed after restrack_claim()).
 *
 * @return 0, or -EINVAL for an entry that is not tracked.
 */
int restrack_del(struct restrack_entry *entry);

/**
 * First phase of destroy: hide the entry from lookups and restrack_get(), keep its ID
 * reserved, drop the birth reference and wait until every other reference has been dropped.
 * Afterwards only the caller can reach the object.
 *
 * @return 0, or -EINVAL when the entry is not live.
 */
int restrack_begin_del(struct restrack_entry *entry);

/**
 * Second phase, after the driver destroyed the object: free the ID and the tracking record.
 *
 * @return 0, or -EINVAL when restrack_begin_del() did not precede it.
 */
int restrack_commit_del(struct restrack_entry *entry);

/**
 * Second phase when the driver refused to destroy the object: make it visible again with a
 * fresh birth reference, at the same ID. Cannot fail for an entry in deletion and allocates
 * nothing.
 *
 * @return 0, or -EINVAL when restrack_begin_del() did not precede it.
 */
int restrack_abort_del(struct restrack_entry *entry);

/**
 * Wait until no reader can still see an older state of the entry: hide it, wait for every
 * reference but the birth one to be dropped, show it again. Call after changing fields that
 * readers use (the kernel's rereg_mr case). Must not run concurrently with a delete of the
 * same entry.
 *
 * @return 0, or -EINVAL when the entry is not live.
 */
int restrack_sync(struct restrack_entry *entry);

/** Selects entries for counting, iteration and dumps. Zero fields match everything. */
struct restrack_filter {
	pid_t pid;		/**< owner pid, 0 for any */
	const char *name;	/**< driver-owned objects with this name, NULL for any */
	bool driver_only;	/**< only driver-owned objects */
	bool user_only;		/**< only user objects */
};

/**
 * Number of live tracked objects of @p type that match @p filter (NULL: all).
 *
 * @return The count, or -EINVAL for a bad root or type.
 */
int restrack_count(struct restrack_root *root, enum restrack_type type,
		   const struct restrack_filter *filter);

/**
 * Call @p cb for every live tracked object of @p type matching @p filter, in ID order, each
 * held by a reference for the duration of the call. Objects added or deleted meanwhile may or
 * may not be visited. A non-zero return from @p cb stops the walk and is returned.
 *
 * @return 0, the callback's non-zero value, -EINVAL, or -ENOMEM.
 */
int restrack_foreach(struct restrack_root *root, enum restrack_type type,
		     const struct restrack_filter *filter,
		     int (*cb)(struct restrack_entry *entry, void *arg), void *arg);

/** Largest number of type-specific attributes in one dump record. */
#define RESTRACK_DUMP_MAX_ATTRS 16

/** One `name value` pair of a dump line. */
struct restrack_attr {
	const char *name;	/**< iproute2's attribute name: "lqpn", "state", "sq-psn", ... */
	char value[40];		/**< printed value */
};

/**
 * One object as `rdma resource show` describes it. restrack fills the generic part; the
 * driver's fill callback adds the type-specific attributes in iproute2's order.
 */
struct restrack_dump_rec {
	const struct restrack_entry *entry;	/**< the object (referenced during the call) */
	const char *dev;			/**< root name */
	uint32_t port;				/**< QP port, 0 when none */
	unsigned int nb_attrs;			/**< attributes filled */
	struct restrack_attr attrs[RESTRACK_DUMP_MAX_ATTRS];	/**< type-specific attributes */
};

/**
 * Driver callback that adds an object's type-specific attributes with restrack_dump_attr().
 * Without one, a dump shows the ID under its iproute2 name (lqpn, cqn, mrn, pdn, ...).
 */
typedef int (*restrack_fill_t)(struct restrack_dump_rec *rec, void *arg);

/**
 * Register the fill callback of @p type.
 *
 * @return 0, or -EINVAL.
 */
int restrack_set_fill(struct restrack_root *root, enum restrack_type type, restrack_fill_t fill,
		      void *arg);

/**
 * Append an attribute to a dump record (printf-style value).
 *
 * @return 0, -ENOSPC when the record is full, -EINVAL.
 */
int restrack_dump_attr(struct restrack_dump_rec *rec, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * Dump every live tracked object of @p type matching @p filter, in ID order: fill a record
 * (generic part, then the type's fill callback) and pass it to @p emit.
 *
 * @return 0, the first non-zero value of @p emit or the fill callback, -EINVAL, -ENOMEM.
 */
int restrack_dump(struct restrack_root *root, enum restrack_type type,
		  const struct restrack_filter *filter,
		  int (*emit)(const struct restrack_dump_rec *rec, void *arg), void *arg);

/**
 * Format a dump record as one line of `rdma resource show`: "dev NAME" (or "link NAME/PORT"
 * for QPs), the attributes, then "pid N" and "comm NAME" (driver objects show "[name]").
 *
 * @return What snprintf() returns: the length of the full line (also with @p buf NULL and
 *         @p len 0), or -EINVAL.
 */
int restrack_format(const struct restrack_dump_rec *rec, char *buf, size_t len);

/**
 * Print the summary line of `rdma resource show DEV`: "NAME: pd N cq N qp N ..." with the
 * live tracked count of every type.
 *
 * @return What snprintf() returns.
 */
int restrack_summary(struct restrack_root *root, char *buf, size_t len);

/**
 * Whether lookups count their references in per-thread caches (restrack.c, "Thread reference
 * caches"): the default where the kernel offers membarrier(); off with the environment
 * variable RESTRACK_THREAD_CACHE=0 (then every reference is an atomic add on the ID's
 * reference word).
 * Decided by the first restrack_init().
 */
bool restrack_thread_cache_on(void);

/** Bytes a root uses per ID of a type's space (its slot; committed by the OS as IDs are
 *  first used), for reports. A tracked object costs this plus its struct restrack_entry. */
size_t restrack_bytes_per_entry(void);

#ifdef __cplusplus
}
#endif

#include "restrack_core.h"

#endif /* RESTRACK_H */
