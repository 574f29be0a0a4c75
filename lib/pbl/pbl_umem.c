/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Application memory mapped for one device's DMA (see pbl.h, "User memory").
 *
 * The table is a VA-sorted array of disjoint *pieces*, each a page-aligned range that was
 * handed to the DMA hook in one map call, with the number of registrations that overlap it.
 * A registration takes a reference on every piece its pages overlap and maps the gaps
 * between them as new pieces, one per PBL_UMEM_CHUNK-aligned chunk of a gap; deregistering
 * drops those references and unmaps the pieces that reach zero. Pieces are never split or
 * merged, so every unmap names exactly one earlier
 * map: the VFIO type1 IOMMU refuses to unmap part of a mapping, and the model's IOMMU view
 * matches unmaps exactly. While a registration lives, no new piece can overlap its pages
 * (they were all covered when it was made), so its deregistration finds exactly the pieces it
 * counted.
 *
 * IOVAs: memory EAL does not know gets IOVA = VA, a whole range in one step and one map call
 * per chunk (no page walk, no /proc/self/pagemap); memory in an external memseg list
 * (rte_extmem_register()) gets the IOVAs given there, read from EAL's tables in one pass.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal_memconfig.h>
#include <rte_memory.h>

#include "pbl_private.h"

/* Pages whose residency one mincore() call checks (the vector is that many bytes). */
#define UMEM_MINCORE_PAGES 4096u
/* First capacity of the piece array. */
#define UMEM_FIRST_CAP 16u

struct umem_piece {
	uint64_t va;		/* page-aligned */
	uint64_t len;		/* whole pages */
	rte_iova_t iova;	/* IOVA of va */
	uint32_t refs;		/* registrations overlapping the piece */
};

struct pbl_umem {
	pthread_mutex_t lock;
	struct pbl_dma_hook hook;
	struct umem_piece *p;	/* sorted by va, disjoint */
	uint32_t n;
	uint32_t cap;
	struct pbl_umem_stats st;
	char name[32];
};

#define UMEM_LOG(level, u, fmt, ...) PBL_LOG(level, "%s: " fmt, (u)->name, ##__VA_ARGS__)

int
pbl_umem_create(const struct pbl_dma_hook *hook, const char *name, struct pbl_umem **out)
{
	struct pbl_umem *u;

	if (out == NULL || hook == NULL || hook->map == NULL || hook->unmap == NULL) {
		PBL_LOG(ERR, "user memory table needs an output and a DMA hook with map and"
			" unmap");
		return -EINVAL;
	}
	*out = NULL;
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		PBL_LOG(ERR, "no memory for a user memory table");
		return -ENOMEM;
	}
	pthread_mutex_init(&u->lock, NULL);
	u->hook = *hook;
	snprintf(u->name, sizeof(u->name), "%s", name != NULL ? name : "umem");
	*out = u;
	return 0;
}

int
pbl_umem_destroy(struct pbl_umem *u)
{
	int rc = 0;
	uint32_t i;

	if (u == NULL)
		return 0;
	if (u->st.regs != 0) {
		UMEM_LOG(ERR, u, "%u registrations still live: their %u pieces are unmapped",
			 u->st.regs, u->n);
		rc = -EBUSY;
	}
	for (i = 0; i < u->n; i++)
		u->hook.unmap(u->hook.ctx, (void *)(uintptr_t)u->p[i].va, u->p[i].iova,
			      u->p[i].len);
	pthread_mutex_destroy(&u->lock);
	free(u->p);
	free(u);
	return rc;
}

void
pbl_umem_stats_get(struct pbl_umem *u, struct pbl_umem_stats *st)
{
	if (st == NULL)
		return;
	memset(st, 0, sizeof(*st));
	if (u == NULL)
		return;
	pthread_mutex_lock(&u->lock);
	*st = u->st;
	st->pieces = u->n;
	pthread_mutex_unlock(&u->lock);
}

/* Index of the first piece ending above va. */
static uint32_t
umem_first(const struct pbl_umem *u, uint64_t va)
{
	uint32_t lo = 0, hi = u->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (u->p[mid].va + u->p[mid].len <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Every page of [lo, hi) is mapped in this process: mincore(), a vector page at a time. */
static int
umem_check_mapped(uint64_t lo, uint64_t hi)
{
	unsigned char vec[UMEM_MINCORE_PAGES];
	uint64_t cur = lo;

	while (cur < hi) {
		uint64_t n = RTE_MIN((hi - cur) / PBL_QUEUE_PAGE_SIZE, (uint64_t)UMEM_MINCORE_PAGES);

		if (mincore((void *)(uintptr_t)cur, n * PBL_QUEUE_PAGE_SIZE, vec) != 0) {
			int err = errno;

			if (err == ENOMEM) {
				/* Find the first hole for the log line (one call per page, cold). */
				uint64_t p;

				for (p = cur; p < cur + n * PBL_QUEUE_PAGE_SIZE;
				     p += PBL_QUEUE_PAGE_SIZE)
					if (mincore((void *)(uintptr_t)p, PBL_QUEUE_PAGE_SIZE,
						    vec) != 0)
						break;
				PBL_LOG(ERR, "page 0x%" PRIx64 " (offset %" PRIu64 " of the pages)"
					" is not mapped in this process", p, p - lo);
				return -EFAULT;
			}
			PBL_LOG(ERR, "mincore(0x%" PRIx64 ") failed: %s", cur, strerror(err));
			return -err;
		}
		cur += n * PBL_QUEUE_PAGE_SIZE;
	}
	return 0;
}

int
pbl_umem_check_writable(const void *va, size_t len)
{
	uint64_t cur = (uintptr_t)va, end = (uintptr_t)va + len;
	char line[512], perm[8];
	unsigned long lo, hi;
	FILE *f;
	int err;

	if (va == NULL || len == 0) {
		PBL_LOG(ERR, "writable check: NULL address or zero length");
		return -EINVAL;
	}
	if (rte_mem_virt2memseg_list(va) != NULL)
		return 0;
	f = fopen("/proc/self/maps", "re");
	if (f == NULL) {
		err = errno;
		PBL_LOG(ERR, "writable check of %p+%zu: cannot read /proc/self/maps: %s", va, len,
			strerror(err));
		return -err;
	}
	/* The mappings come in address order: walk them while they cover cur and allow writes. */
	while (cur < end && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) != 3 || hi <= cur)
			continue;
		if (lo > cur || perm[1] != 'w')
			break;
		cur = hi;
	}
	fclose(f);
	if (cur >= end)
		return 0;
	PBL_LOG(ERR, "%p+%zu: page 0x%" PRIx64 " (offset %" PRIu64 ") is %s, and the device "
		"would write it", va, len, RTE_ALIGN_FLOOR(cur, PBL_QUEUE_PAGE_SIZE),
		RTE_ALIGN_FLOOR(cur, PBL_QUEUE_PAGE_SIZE) - RTE_ALIGN_FLOOR((uintptr_t)va,
									  PBL_QUEUE_PAGE_SIZE),
		(lo <= cur && cur < hi) ? "read-only" : "not mapped");
	return -EFAULT;
}

struct umem_msl_probe {
	uint64_t lo, hi;
	const struct rte_memseg_list *hit;
	int overlaps;
};

static int
umem_msl_cb(const struct rte_memseg_list *msl, void *arg)
{
	struct umem_msl_probe *pr = arg;
	uint64_t base = msl->addr_64, end = base + msl->len;

	if (msl->len == 0 || pr->hi <= base || end <= pr->lo)
		return 0;
	pr->overlaps++;
	if (pr->lo >= base && pr->hi <= end)
		pr->hit = msl;
	return 0;
}

/*
 * Where [lo, hi) lies: in no memseg list (*ext = false, 0), inside one external list
 * (*ext = true, 0), or anywhere else (internal EAL memory, several lists): -EINVAL.
 */
static int
umem_classify(uint64_t lo, uint64_t hi, bool *ext)
{
	struct umem_msl_probe pr = { .lo = lo, .hi = hi };

	rte_memseg_list_walk(umem_msl_cb, &pr);
	*ext = false;
	if (pr.overlaps == 0)
		return 0;
	if (pr.overlaps == 1 && pr.hit != NULL && pr.hit->external) {
		*ext = true;
		return 0;
	}
	PBL_LOG(ERR, "pages 0x%" PRIx64 "+%" PRIu64 " overlap EAL's own memory (or several"
		" memseg lists): EAL memory needs no registration", lo, hi - lo);
	return -EINVAL;
}

/* IOVA of va by the range's layout (VA when there is none). */
static rte_iova_t
umem_iova(const struct pbl_layout *l, uint64_t va)
{
	return l == NULL ? (rte_iova_t)va : pbl_layout_iova(l, va - l->va);
}

/* Room for extra pieces. */
static int
umem_reserve(struct pbl_umem *u, uint32_t extra)
{
	uint32_t cap = u->cap ? u->cap : UMEM_FIRST_CAP;
	struct umem_piece *n;

	if (u->n + extra <= u->cap)
		return 0;
	while (cap < u->n + extra) {
		if (cap > UINT32_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	n = realloc(u->p, (size_t)cap * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	u->p = n;
	u->cap = cap;
	return 0;
}

/*
 * Map the gap [lo, hi) as new pieces (one per IOVA-contiguous run of the layout) inserted
 * at index at; on failure everything this call mapped is undone. Returns the pieces added
 * or a negative errno.
 */
static int
umem_map_gap(struct pbl_umem *u, uint32_t at, uint64_t lo, uint64_t hi,
	     const struct pbl_layout *l)
{
	uint32_t added = 0, k;
	uint64_t cur = lo;
	int rc;

	while (cur < hi) {
		uint64_t end;
		struct umem_piece pc;

		/* A piece never crosses a PBL_UMEM_CHUNK boundary (see pbl.h). */
		end = RTE_MIN(hi, RTE_ALIGN_FLOOR(cur, PBL_UMEM_CHUNK) + PBL_UMEM_CHUNK);
		if (l != NULL) {
			/* End of the layout segment holding cur, page-aligned (EAL pages are). */
			uint32_t s;

			for (s = 0; s < l->nsegs; s++)
				if (cur < l->segs[s].va + l->segs[s].len)
					break;
			end = RTE_MIN(end, RTE_ALIGN_CEIL(l->segs[s].va + l->segs[s].len,
							   PBL_QUEUE_PAGE_SIZE));
		}
		rc = umem_reserve(u, 1);
		if (rc != 0) {
			UMEM_LOG(ERR, u, "no memory for %u pieces", u->n + 1);
			goto undo;
		}
		pc = (struct umem_piece){ .va = cur, .len = end - cur, .iova = umem_iova(l, cur),
					  .refs = 0 };
		rc = u->hook.map(u->hook.ctx, (void *)(uintptr_t)pc.va, pc.iova, pc.len);
		if (rc != 0) {
			UMEM_LOG(ERR, u, "DMA map of 0x%" PRIx64 "+%" PRIu64 " at IOVA 0x%" PRIx64
				 " failed: %s", pc.va, pc.len, pc.iova, strerror(rc < 0 ? -rc : EIO));
			rc = rc < 0 ? rc : -EIO;
			goto undo;
		}
		memmove(&u->p[at + added + 1], &u->p[at + added],
			(u->n - at - added) * sizeof(u->p[0]));
		u->p[at + added] = pc;
		u->n++;
		added++;
		u->st.maps++;
		u->st.mapped_bytes += pc.len;
		cur = end;
	}
	return (int)added;
undo:
	for (k = at + added; k-- > at;) {
		u->hook.unmap(u->hook.ctx, (void *)(uintptr_t)u->p[k].va, u->p[k].iova,
			      u->p[k].len);
		u->st.mapped_bytes -= u->p[k].len;
		u->st.unmaps++;
	}
	memmove(&u->p[at], &u->p[at + added], (u->n - at - added) * sizeof(u->p[0]));
	u->n -= added;
	return rc;
}

/* Drop one reference on each piece overlapping [lo, hi); unmap those that reach 0. */
static void
umem_put_locked(struct pbl_umem *u, uint64_t lo, uint64_t hi)
{
	uint32_t i = umem_first(u, lo);

	while (i < u->n && u->p[i].va < hi) {
		struct umem_piece *pc = &u->p[i];
		int e;

		if (--pc->refs > 0) {
			i++;
			continue;
		}
		e = u->hook.unmap(u->hook.ctx, (void *)(uintptr_t)pc->va, pc->iova, pc->len);
		if (e != 0)
			UMEM_LOG(ERR, u, "DMA unmap of 0x%" PRIx64 "+%" PRIu64 " failed: %s",
				 pc->va, pc->len, strerror(e < 0 ? -e : EIO));
		u->st.unmaps++;
		u->st.mapped_bytes -= pc->len;
		memmove(pc, pc + 1, (u->n - i - 1) * sizeof(*pc));
		u->n--;
	}
}

/* The page span of [va, va + len), checked: 0 or -EINVAL with a log line. */
static int
umem_span(const void *va, size_t len, uint64_t *lo, uint64_t *hi)
{
	uint64_t start = (uintptr_t)va;

	if (va == NULL || len == 0) {
		PBL_LOG(ERR, "empty range %p+%zu", va, len);
		return -EINVAL;
	}
	if (start + len < start || start + len > UINT64_MAX - PBL_QUEUE_PAGE_SIZE) {
		PBL_LOG(ERR, "range %p+%zu wraps the address space", va, len);
		return -EINVAL;
	}
	*lo = RTE_ALIGN_FLOOR(start, PBL_QUEUE_PAGE_SIZE);
	*hi = RTE_ALIGN_CEIL(start + len, PBL_QUEUE_PAGE_SIZE);
	return 0;
}

int
pbl_umem_reg(struct pbl_umem *u, const void *va, size_t len, struct pbl_layout **out)
{
	struct pbl_layout *l = NULL, *eal = NULL;
	uint64_t lo, hi, cur;
	uint32_t i, first;
	bool ext;
	int rc;

	if (u == NULL || out == NULL) {
		PBL_LOG(ERR, "NULL table or output");
		return -EINVAL;
	}
	*out = NULL;
	rc = umem_span(va, len, &lo, &hi);
	if (rc != 0)
		return rc;
	rc = umem_classify(lo, hi, &ext);
	if (rc != 0)
		return rc;
	if (ext) {
		/* IOVAs given at rte_extmem_register(): one pass over EAL's tables. */
		rc = pbl_mem_resolve((void *)(uintptr_t)lo, hi - lo, &eal);
		if (rc != 0)
			return rc;
	} else {
		rc = umem_check_mapped(lo, hi);
		if (rc != 0)
			return rc;
	}
	/* The layout of exactly [va, va + len): one segment at IOVA = VA, or EAL's. */
	l = malloc(sizeof(*l) + (eal != NULL ? eal->nsegs : 1) * sizeof(l->segs[0]));
	if (l == NULL) {
		PBL_LOG(ERR, "no memory for a layout");
		rc = -ENOMEM;
		goto out;
	}
	l->va = (uintptr_t)va;
	l->len = len;
	l->min_page_sz = PBL_QUEUE_PAGE_SIZE;
	l->socket_id = SOCKET_ID_ANY;
	if (eal == NULL) {
		l->nsegs = 1;
		l->segs[0] = (struct pbl_seg){ .va = l->va, .iova = l->va, .len = len };
	} else {
		l->nsegs = 0;
		l->min_page_sz = eal->min_page_sz;
		l->socket_id = eal->socket_id;
		for (i = 0; i < eal->nsegs; i++) {
			struct pbl_seg s = eal->segs[i];
			uint64_t end = s.va + s.len;

			if (end <= l->va || s.va >= l->va + len)
				continue;
			if (s.va < l->va) {
				s.iova += l->va - s.va;
				s.va = l->va;
			}
			s.len = RTE_MIN(end, l->va + len) - s.va;
			l->segs[l->nsegs++] = s;
		}
	}

	pthread_mutex_lock(&u->lock);
	/* Map the gaps first (nothing changes on failure), then take the references. */
	first = umem_first(u, lo);
	i = first;
	cur = lo;
	while (cur < hi) {
		uint64_t gap_end = (i < u->n && u->p[i].va < hi) ? u->p[i].va : hi;

		if (i < u->n && u->p[i].va <= cur) {
			cur = u->p[i].va + u->p[i].len;
			i++;
			continue;
		}
		rc = umem_map_gap(u, i, cur, gap_end, eal);
		if (rc < 0)
			break;
		i += (uint32_t)rc;
		cur = gap_end;
		rc = 0;
	}
	if (rc != 0) {
		/* Undo the gaps mapped by this call: the pieces with no reference yet. */
		for (i = umem_first(u, lo); i < u->n && u->p[i].va < hi;) {
			if (u->p[i].refs == 0) {
				u->p[i].refs = 1;
				umem_put_locked(u, u->p[i].va, u->p[i].va + u->p[i].len);
			} else {
				i++;
			}
		}
		pthread_mutex_unlock(&u->lock);
		goto out;
	}
	for (i = first; i < u->n && u->p[i].va < hi; i++)
		u->p[i].refs++;
	u->st.regs++;
	u->st.reg_calls++;
	pthread_mutex_unlock(&u->lock);
	*out = l;
	l = NULL;
out:
	free(l);
	pbl_layout_free(eal);
	return rc;
}

int
pbl_umem_dereg(struct pbl_umem *u, const void *va, size_t len)
{
	uint64_t lo, hi, cur;
	uint32_t i;
	int rc;

	if (u == NULL) {
		PBL_LOG(ERR, "NULL table");
		return -EINVAL;
	}
	rc = umem_span(va, len, &lo, &hi);
	if (rc != 0)
		return rc;
	pthread_mutex_lock(&u->lock);
	/* Every page must be covered by live pieces: a range never registered is refused. */
	i = umem_first(u, lo);
	cur = lo;
	while (cur < hi) {
		if (i >= u->n || u->p[i].va > cur) {
			pthread_mutex_unlock(&u->lock);
			UMEM_LOG(ERR, u, "%p+%zu is not registered (page 0x%" PRIx64 ")", va, len,
				 cur);
			return -ENOENT;
		}
		cur = u->p[i].va + u->p[i].len;
		i++;
	}
	umem_put_locked(u, lo, hi);
	u->st.regs--;
	pthread_mutex_unlock(&u->lock);
	return 0;
}
