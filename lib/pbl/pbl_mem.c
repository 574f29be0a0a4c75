/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Memory: queue buffers from EAL, registration of memory EAL did not allocate, and the
 * resolution of a VA range into IOVA-contiguous segments.
 *
 * IOVAs come from EAL's memseg tables. A memseg list covers a VA window with pages of one
 * size; page i of the window is element i of the list's fbarray. So a range is resolved by
 * finding its memseg list once, then stepping through the fbarray elements arithmetically,
 * one run of used elements at a time, re-finding the list only when the range leaves it.
 * /proc/self/pagemap is read only by pbl_mem_register() in IOVA-as-PA mode for memory whose
 * IOVAs the caller did not give: that is the one case EAL cannot answer.
 */

#include <errno.h>
#include <numaif.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_fbarray.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "pbl_private.h"

RTE_LOG_REGISTER(pbl_logtype, lib.pbl, NOTICE);

/* Memzone names are shared by all processes of an EAL instance: the pid keeps them apart. */
#define MEMZONE_NAME_FMT "pbl_buf_%d_%u"
#define LAYOUT_FIRST_SEGS 8

/* ---- queue buffers ---------------------------------------------------------------------- */

int
pbl_buf_alloc(size_t len, int socket_id, uint32_t flags, struct pbl_buf *buf)
{
	static uint32_t mz_seq;
	size_t size;

	if (buf == NULL) {
		PBL_LOG(ERR, "NULL buffer");
		return -EINVAL;
	}
	memset(buf, 0, sizeof(*buf));
	if (len == 0 || len > SIZE_MAX - PBL_QUEUE_PAGE_SIZE) {
		PBL_LOG(ERR, "bad buffer length %zu", len);
		return -EINVAL;
	}
	if ((flags & ~PBL_BUF_F_IOVA_CONTIG) != 0) {
		PBL_LOG(ERR, "unknown flags 0x%x", flags);
		return -EINVAL;
	}
	size = RTE_ALIGN_CEIL(len, PBL_QUEUE_PAGE_SIZE);
	if (flags & PBL_BUF_F_IOVA_CONTIG) {
		char name[RTE_MEMZONE_NAMESIZE];
		const struct rte_memzone *mz;

		/* Relaxed: the counter only has to hand out distinct numbers. */
		snprintf(name, sizeof(name), MEMZONE_NAME_FMT, (int)getpid(),
			 __atomic_fetch_add(&mz_seq, 1, __ATOMIC_RELAXED));
		mz = rte_memzone_reserve_aligned(name, size, socket_id, RTE_MEMZONE_IOVA_CONTIG,
						 PBL_QUEUE_PAGE_SIZE);
		if (mz == NULL) {
			PBL_LOG(ERR, "no IOVA-contiguous memzone of %zu bytes on socket %d: %s",
				size, socket_id, rte_strerror(rte_errno));
			return -ENOMEM;
		}
		memset(mz->addr, 0, size);
		buf->mz = mz;
		buf->va = mz->addr;
		buf->socket_id = mz->socket_id;
	} else {
		buf->va = rte_zmalloc_socket("pbl_buf", size, PBL_QUEUE_PAGE_SIZE, socket_id);
		if (buf->va == NULL) {
			PBL_LOG(ERR, "no %zu bytes of EAL memory on socket %d", size, socket_id);
			return -ENOMEM;
		}
		buf->socket_id = pbl_mem_socket(buf->va);
	}
	buf->len = size;
	buf->flags = flags;
	return 0;
}

void
pbl_buf_free(struct pbl_buf *buf)
{
	if (buf == NULL || buf->va == NULL)
		return;
	if (buf->mz != NULL)
		rte_memzone_free(buf->mz);
	else
		rte_free(buf->va);
	memset(buf, 0, sizeof(*buf));
}

int
pbl_mem_socket(const void *va)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(va);
	int node = -1;

	/* External lists carry a heap id as socket id, not a NUMA node. */
	if (msl != NULL && !msl->external && msl->socket_id >= 0 &&
	    msl->socket_id < RTE_MAX_NUMA_NODES)
		return msl->socket_id;
	if (get_mempolicy(&node, NULL, 0, (void *)(uintptr_t)va, MPOL_F_NODE | MPOL_F_ADDR) != 0) {
		int err = errno;

		PBL_LOG(ERR, "no NUMA node for %p: %s", va, strerror(err));
		return -err;
	}
	return node;
}

/* ---- resolution -------------------------------------------------------------------------- */

static int
layout_append(struct pbl_layout **lp, uint32_t *cap, uint64_t va, rte_iova_t iova, uint64_t len)
{
	struct pbl_layout *l = *lp;
	struct pbl_seg *last = l->nsegs > 0 ? &l->segs[l->nsegs - 1] : NULL;

	if (last != NULL && last->va + last->len == va && last->iova + last->len == iova) {
		last->len += len;
		return 0;
	}
	if (l->nsegs == *cap) {
		uint32_t ncap = *cap * 2;
		struct pbl_layout *n;

		if (ncap < *cap)
			return -ENOMEM;
		n = realloc(l, sizeof(*l) + (size_t)ncap * sizeof(l->segs[0]));
		if (n == NULL)
			return -ENOMEM;
		*lp = l = n;
		*cap = ncap;
	}
	l->segs[l->nsegs].va = va;
	l->segs[l->nsegs].iova = iova;
	l->segs[l->nsegs].len = len;
	l->nsegs++;
	return 0;
}

/* The walk itself; the caller holds EAL's memory read lock. */
static int
resolve_locked(uint64_t start, uint64_t end, struct pbl_layout **lp, uint32_t *cap)
{
	uint64_t cur = start;

	while (cur < end) {
		struct rte_memseg_list *msl = rte_mem_virt2memseg_list((void *)(uintptr_t)cur);
		const struct rte_memseg *ms;
		uint64_t base, pgsz;
		unsigned int idx;
		int used, i, rc;

		if (msl == NULL) {
			PBL_LOG(ERR, "0x%" PRIx64 " (offset %" PRIu64 " of the range) is not in EAL"
				" or registered memory", cur, cur - start);
			return -EINVAL;
		}
		base = msl->addr_64;
		pgsz = msl->page_sz;
		idx = (unsigned int)((cur - base) / pgsz);
		used = rte_fbarray_find_contig_used(&msl->memseg_arr, idx);
		if (used <= 0) {
			PBL_LOG(ERR, "page 0x%" PRIx64 " (offset %" PRIu64 " of the range) is not"
				" allocated", base + (uint64_t)idx * pgsz, cur - start);
			return -EINVAL;
		}
		(*lp)->min_page_sz = RTE_MIN((*lp)->min_page_sz, pgsz);
		ms = rte_fbarray_get(&msl->memseg_arr, idx);
		for (i = 0; i < used && cur < end; i++) {
			uint64_t page_va = base + (uint64_t)(idx + i) * pgsz;
			uint64_t off = cur - page_va;
			uint64_t take = RTE_MIN(pgsz - off, end - cur);

			if (ms->iova == RTE_BAD_IOVA) {
				PBL_LOG(ERR, "page 0x%" PRIx64 " has no IOVA (registered without"
					" one?)", page_va);
				return -EINVAL;
			}
			rc = layout_append(lp, cap, cur, ms->iova + off, take);
			if (rc != 0) {
				PBL_LOG(ERR, "no memory for %u segments", *cap * 2);
				return rc;
			}
			cur += take;
			ms = RTE_PTR_ADD(ms, msl->memseg_arr.elt_sz);
		}
	}
	return 0;
}

int
pbl_mem_resolve(const void *va, size_t len, struct pbl_layout **out)
{
	uint64_t start = (uintptr_t)va;
	uint32_t cap = LAYOUT_FIRST_SEGS;
	struct pbl_layout *l;
	int rc;

	if (out == NULL) {
		PBL_LOG(ERR, "NULL output");
		return -EINVAL;
	}
	*out = NULL;
	if (va == NULL || len == 0) {
		PBL_LOG(ERR, "empty range %p+%zu", va, len);
		return -EINVAL;
	}
	if (start + len < start) {
		PBL_LOG(ERR, "range %p+%zu wraps the address space", va, len);
		return -EINVAL;
	}
	l = malloc(sizeof(*l) + cap * sizeof(l->segs[0]));
	if (l == NULL) {
		PBL_LOG(ERR, "no memory for a layout");
		return -ENOMEM;
	}
	l->va = start;
	l->len = len;
	l->nsegs = 0;
	l->min_page_sz = UINT64_MAX;
	l->socket_id = SOCKET_ID_ANY;
	rte_mcfg_mem_read_lock();
	rc = resolve_locked(start, start + len, &l, &cap);
	if (rc == 0) {
		const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(va);

		l->socket_id = msl->socket_id;
	}
	rte_mcfg_mem_read_unlock();
	if (rc != 0) {
		free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void
pbl_layout_free(struct pbl_layout *layout)
{
	free(layout);
}

rte_iova_t
pbl_layout_iova(const struct pbl_layout *l, uint64_t offset)
{
	uint64_t va = l->va + offset;
	uint32_t lo = 0, hi = l->nsegs;

	if (offset >= l->len)
		return RTE_BAD_IOVA;
	/* Last segment starting at or before va. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (l->segs[mid].va <= va)
			lo = mid;
		else
			hi = mid;
	}
	return l->segs[lo].iova + (va - l->segs[lo].va);
}

uint64_t
pbl_best_pgsz(const struct pbl_layout *l, uint64_t pgsz_bitmap)
{
	uint64_t span, mask, va;
	uint32_t i;

	pgsz_bitmap &= ~(RTE_BIT64(PBL_MIN_PAGE_SHIFT) - 1);
	if (l == NULL || l->nsegs == 0 || pgsz_bitmap == 0)
		return 0;
	/*
	 * Page sizes at or above the highest bit in which the first and last byte differ would
	 * hold the whole range in one page: they stop the search, the smallest of them being
	 * as good as any larger one.
	 */
	span = (l->va + l->len - 1) ^ l->va;
	mask = rte_fls_u64(span) >= 64 ? 0 : pgsz_bitmap & (UINT64_MAX << rte_fls_u64(span));
	va = l->va;
	for (i = 0; i < l->nsegs; i++) {
		/* A page size is only possible if VA and IOVA agree below it... */
		mask |= l->segs[i].iova ^ l->segs[i].va;
		/* ...and if every break in the IOVA layout falls on one of its boundaries. */
		va = l->segs[i].va + l->segs[i].len;
		if (i + 1 < l->nsegs)
			mask |= va;
	}
	if (mask != 0)
		pgsz_bitmap &= (rte_bsf64(mask) >= 63) ? UINT64_MAX :
			       (RTE_BIT64(rte_bsf64(mask) + 1) - 1);
	return pgsz_bitmap == 0 ? 0 : RTE_BIT64(rte_fls_u64(pgsz_bitmap) - 1);
}

/* ---- registration of external memory ----------------------------------------------------- */

struct pbl_reg {
	TAILQ_ENTRY(pbl_reg) next;
	uint64_t va;
	uint64_t len;
	bool has_hook;
	struct pbl_dma_hook hook;
	struct pbl_layout *layout;	/* the pieces handed to the hook */
};

static TAILQ_HEAD(, pbl_reg) reg_list = TAILQ_HEAD_INITIALIZER(reg_list);
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

/* Unmap pieces [0, n) of a registration, last first; returns the first error. */
static int
reg_unmap(struct pbl_reg *r, uint32_t n)
{
	int rc = 0;

	if (!r->has_hook || r->hook.unmap == NULL)
		return 0;
	while (n-- > 0) {
		const struct pbl_seg *s = &r->layout->segs[n];
		int e = r->hook.unmap(r->hook.ctx, (void *)(uintptr_t)s->va, s->iova, s->len);

		if (e != 0) {
			PBL_LOG(ERR, "DMA unmap of 0x%" PRIx64 "+%" PRIu64 " failed: %d", s->va,
				s->len, e);
			if (rc == 0)
				rc = e < 0 ? e : -EIO;
		}
	}
	return rc;
}

/* Fill in the IOVA table EAL needs when the caller gave none. */
static int
reg_default_iovas(uint64_t va, unsigned int n_pages, size_t page_sz, rte_iova_t *iovas)
{
	bool va_mode = rte_eal_iova_mode() == RTE_IOVA_VA;
	unsigned int i;

	for (i = 0; i < n_pages; i++) {
		uint64_t page = va + (uint64_t)i * page_sz;

		if (va_mode) {
			iovas[i] = page;
			continue;
		}
		iovas[i] = rte_mem_virt2phy((const void *)(uintptr_t)page);
		if (iovas[i] == RTE_BAD_IOVA) {
			PBL_LOG(ERR, "no physical address for page 0x%" PRIx64 " (not mapped, not"
				" locked, or no permission to read pagemap)", page);
			return -EINVAL;
		}
	}
	return 0;
}

/* Map every piece of a registration; on a failure unmap the pieces done and fail. */
static int
reg_map(struct pbl_reg *r)
{
	uint32_t i;
	int rc;

	if (!r->has_hook)
		return 0;
	for (i = 0; i < r->layout->nsegs; i++) {
		const struct pbl_seg *s = &r->layout->segs[i];

		rc = r->hook.map(r->hook.ctx, (void *)(uintptr_t)s->va, s->iova, s->len);
		if (rc != 0) {
			PBL_LOG(ERR, "DMA map of 0x%" PRIx64 "+%" PRIu64 " at IOVA 0x%" PRIx64
				" failed: %d", s->va, s->len, s->iova, rc);
			reg_unmap(r, i);
			return rc < 0 ? rc : -EIO;
		}
	}
	return 0;
}

/* True when [va, va + len) overlaps a registration; the caller holds reg_lock. */
static bool
reg_overlaps_locked(uint64_t va, uint64_t len)
{
	const struct pbl_reg *o;

	TAILQ_FOREACH(o, &reg_list, next) {
		if (va < o->va + o->len && o->va < va + len) {
			PBL_LOG(ERR, "range 0x%" PRIx64 "+%" PRIu64 " overlaps registered 0x%" PRIx64
				"+%" PRIu64, va, len, o->va, o->len);
			return true;
		}
	}
	return false;
}

int
pbl_mem_register(void *va, size_t len, const rte_iova_t *iovas, unsigned int n_pages,
		 size_t page_sz, const struct pbl_dma_hook *hook)
{
	uint64_t start = (uintptr_t)va;
	rte_iova_t *table = NULL;
	struct pbl_reg *r;
	uint64_t pages;
	int rc;

	if (va == NULL || len == 0 || page_sz < PBL_QUEUE_PAGE_SIZE ||
	    (page_sz & (page_sz - 1)) != 0 || start % page_sz != 0 ||
	    len % page_sz != 0 || start + len < start) {
		PBL_LOG(ERR, "bad external range %p+%zu with %zu-byte pages", va, len, page_sz);
		return -EINVAL;
	}
	pages = len / page_sz;
	if (pages > UINT32_MAX || (iovas != NULL && n_pages != pages)) {
		PBL_LOG(ERR, "range %p+%zu has %" PRIu64 " pages; the IOVA table has %u", va,
			len, pages, n_pages);
		return -EINVAL;
	}
	if (hook != NULL && hook->map == NULL) {
		PBL_LOG(ERR, "DMA hook without a map function");
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	table = malloc(pages * sizeof(*table));
	if (r == NULL || table == NULL) {
		PBL_LOG(ERR, "no memory to register %p+%zu (%" PRIu64 " pages)", va, len, pages);
		rc = -ENOMEM;
		goto fail_free;
	}
	r->va = start;
	r->len = len;
	if (hook != NULL) {
		r->has_hook = true;
		r->hook = *hook;
	}
	pthread_mutex_lock(&reg_lock);
	if (reg_overlaps_locked(start, len)) {
		rc = -EEXIST;
		goto fail_unlock;
	}
	if (iovas != NULL)
		memcpy(table, iovas, pages * sizeof(*table));
	else if ((rc = reg_default_iovas(start, (unsigned int)pages, page_sz, table)) != 0)
		goto fail_unlock;
	if (rte_extmem_register(va, len, table, (unsigned int)pages, page_sz) != 0) {
		rc = -rte_errno;
		PBL_LOG(ERR, "rte_extmem_register(%p+%zu) failed: %s", va, len,
			rte_strerror(rte_errno));
		goto fail_unlock;
	}
	rc = pbl_mem_resolve(va, len, &r->layout);
	if (rc != 0)
		goto fail_extmem;
	rc = reg_map(r);
	if (rc != 0)
		goto fail_layout;
	TAILQ_INSERT_TAIL(&reg_list, r, next);
	pthread_mutex_unlock(&reg_lock);
	free(table);
	PBL_LOG(DEBUG, "registered %p+%zu: %" PRIu64 " pages of %zu, %u IOVA pieces", va, len,
		pages, page_sz, r->layout->nsegs);
	return 0;

fail_layout:
	pbl_layout_free(r->layout);
fail_extmem:
	rte_extmem_unregister(va, len);
fail_unlock:
	pthread_mutex_unlock(&reg_lock);
fail_free:
	free(table);
	free(r);
	return rc;
}

int
pbl_mem_unregister(void *va, size_t len)
{
	struct pbl_reg *r;
	int rc, e;

	pthread_mutex_lock(&reg_lock);
	TAILQ_FOREACH(r, &reg_list, next)
		if (r->va == (uintptr_t)va && r->len == len)
			break;
	if (r == NULL) {
		pthread_mutex_unlock(&reg_lock);
		PBL_LOG(ERR, "%p+%zu is not a registered range", va, len);
		return -ENOENT;
	}
	TAILQ_REMOVE(&reg_list, r, next);
	rc = reg_unmap(r, r->layout->nsegs);
	if (rte_extmem_unregister(va, len) != 0) {
		e = -rte_errno;
		PBL_LOG(ERR, "rte_extmem_unregister(%p+%zu) failed: %s", va, len,
			rte_strerror(rte_errno));
		if (rc == 0)
			rc = e;
	}
	pthread_mutex_unlock(&reg_lock);
	pbl_layout_free(r->layout);
	free(r);
	return rc;
}

bool
pbl_mem_is_mapped(const void *va, size_t len)
{
	uint64_t start = (uintptr_t)va;
	const struct pbl_reg *r;
	bool hit = false;

	pthread_mutex_lock(&reg_lock);
	TAILQ_FOREACH(r, &reg_list, next) {
		if (start >= r->va && start - r->va < r->len && len <= r->len - (start - r->va)) {
			hit = r->has_hook;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return hit;
}
