/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * restrack: entries and their owners. A driver-owned object carries a name (the kernel's
 * kern_name); a user object carries its task. Owner fields change only while nobody else can
 * read them: before add, or after delete.
 */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_lcore.h>

#include "restrack_private.h"

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
	if (!rt_entry_ok(entry, func))
		return -EINVAL;
	if (entry->state == RESTRACK_STATE_LIVE || entry->state == RESTRACK_STATE_DELETING) {
		rte_log(RTE_LOG_ERR, restrack_logtype,
			"restrack: %s(): %s %u is %s: its owner cannot change\n", func,
			restrack_type_name(entry->type), entry->id, rt_state_name(entry));
		return -EBUSY;
	}
	return 0;
}

/*
 * The calling task, without a system call once known: the pid per process (forgotten in a
 * fork child), the thread id per thread, the process name once.
 */
static _Atomic pid_t cached_pid;
static __thread pid_t cached_tid;
static char cached_comm[RESTRACK_COMM_LEN];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void
forget_ids_after_fork(void)
{
	/* The child's only thread is the one that forked: its cached tid is the parent's. */
	atomic_store_explicit(&cached_pid, 0, memory_order_relaxed);
	cached_tid = 0;
}

static void
cache_init(void)
{
	snprintf(cached_comm, sizeof(cached_comm), "%s", program_invocation_short_name);
	pthread_atfork(NULL, NULL, forget_ids_after_fork);
}

void
rt_current_task(struct restrack_task *task)
{
	unsigned int lcore = rte_lcore_id();
	/* relaxed: every thread that misses computes the same value. */
	pid_t pid = atomic_load_explicit(&cached_pid, memory_order_relaxed);

	pthread_once(&cache_once, cache_init);
	if (unlikely(pid == 0)) {
		pid = getpid();
		atomic_store_explicit(&cached_pid, pid, memory_order_relaxed);
	}
	if (unlikely(cached_tid == 0))
		cached_tid = gettid();
	task->pid = pid;
	task->tid = cached_tid;
	task->lcore = lcore == LCORE_ID_ANY ? RESTRACK_LCORE_NONE : lcore;
	memcpy(task->comm, cached_comm, sizeof(task->comm));
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
		rt_current_task(&entry->task);
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
	if (!rt_entry_ok(entry, __func__))
		return -EINVAL;
	if (entry->state != RESTRACK_STATE_NEW && entry->state != RESTRACK_STATE_DELETED) {
		RT_LOG(ERR, "%s %u is %s: too late to stop tracking it",
		       restrack_type_name(entry->type), entry->id, rt_state_name(entry));
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
