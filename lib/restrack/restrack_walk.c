/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * restrack: walking a type's table (count, foreach) and the `rdma resource show` dumps.
 * Walks run concurrently with everything else; each visited entry is held by a reference for
 * the duration of its callback, one at a time.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "restrack_private.h"

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
		RT_LOG_FN(ERR, func, "%s", root == NULL ? "NULL root" : "invalid type");
		return -EINVAL;
	}
	return 0;
}

int
rt_walk(struct restrack_root *root, enum restrack_type type,
	const struct restrack_filter *filter,
	int (*fn)(struct restrack_entry *entry, void *arg), void *arg)
{
	const struct restrack_table_fast *tf = &root->fast.table[type];
	struct rt_table *t = &root->table[type];
	uint32_t w;
	int ret = 0;

	for (w = 0; w < t->nb_block_words && ret == 0; w++) {
		/* relaxed: a block claimed after this load may be missed, as documented. */
		uint64_t bits = atomic_load_explicit(&t->used_blocks[w], memory_order_relaxed);

		while (bits != 0 && ret == 0) {
			uint32_t block = w * 64 + (uint32_t)__builtin_ctzll(bits);
			uint32_t id = block << RT_LEASE_SHIFT;
			uint32_t end = RTE_MIN(id + RT_LEASE_IDS, tf->nb_ids);

			bits &= bits - 1;
			for (; id < end && ret == 0; id++) {
				_Atomic uint64_t *word = &tf->words[id];
				struct restrack_entry *entry;

				/* relaxed peek: skip free IDs without a locked instruction. */
				if (!(atomic_load_explicit(word, memory_order_relaxed) &
				      RESTRACK_REF_LIVE))
					continue;
				/* acquire: as in restrack_get_byid()'s general way. */
				if (atomic_fetch_add_explicit(word, RESTRACK_REF_ONE,
							      memory_order_acquire) &
				    RESTRACK_REF_LIVE) {
					entry = restrack_slot_entry(atomic_load_explicit(
						&tf->slots[id], memory_order_relaxed));
					if (filter_match(entry, filter))
						ret = fn(entry, arg);
				}
				/* release: see restrack_put(). */
				atomic_fetch_sub_explicit(word, RESTRACK_REF_ONE,
							  memory_order_release);
			}
		}
	}
	return ret;
}

static int
count_one(struct restrack_entry *entry, void *arg)
{
	RTE_SET_USED(entry);
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
	rt_walk(root, type, filter, count_one, &n);
	return n;
}

int
restrack_foreach(struct restrack_root *root, enum restrack_type type,
		 const struct restrack_filter *filter,
		 int (*cb)(struct restrack_entry *entry, void *arg), void *arg)
{
	if (root_type_ok(root, type, __func__) != 0)
		return -EINVAL;
	if (cb == NULL) {
		RT_LOG(ERR, "NULL callback");
		return -EINVAL;
	}
	return rt_walk(root, type, filter, cb, arg);
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
		ret = restrack_dump_attr(&rec, rt_id_attr_name(entry->type), "%u", entry->id);
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
		append(buf, len, &off, " %s %d", rt_summary_name(type),
		       restrack_count(root, type, NULL));
	return (int)off;
}
