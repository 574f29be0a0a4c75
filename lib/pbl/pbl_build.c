/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PBL builders (generic, MR, QP, CQ) and the walker that reads a PBL back the way the
 * engine does.
 *
 * Pages: a PBL at page size P describes the pages of size P that the range touches, page 0
 * being the one holding the range's first byte (which may sit first_offset bytes into it).
 * A layout allows P when every segment keeps VA and IOVA equal modulo P and every segment
 * but the last ends on a P boundary: then each page lies inside one segment and its IOVA is
 * the segment's IOVA plus the page's distance from the segment start.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pbl_private.h"

static const char *const level_names[] = {
	[PBL_LEVEL_0] = "level 0",
	[PBL_LEVEL_1] = "level 1",
	[PBL_LEVEL_2] = "level 2",
};

static bool
layout_allows(const struct pbl_layout *l, uint64_t pgsz)
{
	uint32_t i;

	for (i = 0; i < l->nsegs; i++) {
		const struct pbl_seg *s = &l->segs[i];

		if (((s->iova ^ s->va) & (pgsz - 1)) != 0)
			return false;
		if (i + 1 < l->nsegs && ((s->va + s->len) & (pgsz - 1)) != 0)
			return false;
	}
	return true;
}

/*
 * Hands the IOVA of each page to a sink, in order. The sink gets the page number and its
 * IOVA.
 */
struct page_sink {
	uint64_t *dst;		/* level 1: the run */
	struct pbl_pool *pool;	/* level 2: leaves found through the root */
	const uint64_t *root;
	uint64_t *leaf;
	uint64_t leaf_no;
};

static inline void
sink_put(struct page_sink *k, uint64_t page, rte_iova_t iova)
{
	if (k->dst != NULL) {
		pbl_le64_store(&k->dst[page], iova);
		return;
	}
	if (k->leaf == NULL || (page >> PBL_LEAF_SHIFT) != k->leaf_no) {
		k->leaf_no = page >> PBL_LEAF_SHIFT;
		k->leaf = pbl_pool_pble(k->pool, (uint32_t)pbl_le64_load(&k->root[k->leaf_no]));
	}
	pbl_le64_store(&k->leaf[page & (PBL_LEAF_PBLES - 1)], iova);
}

static uint64_t
emit_pages(const struct pbl_layout *l, uint64_t pgsz, struct page_sink *k)
{
	uint64_t page = 0;
	uint32_t i;

	for (i = 0; i < l->nsegs; i++) {
		const struct pbl_seg *s = &l->segs[i];
		uint64_t pva = RTE_ALIGN_FLOOR(s->va, pgsz);

		for (; pva < s->va + s->len; pva += pgsz)
			sink_put(k, page++, s->iova - (s->va - pva));
	}
	return page;
}

static void
level_mask_str(uint32_t mask, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int lv;

	buf[0] = '\0';
	for (lv = PBL_LEVEL_0; lv <= PBL_LEVEL_2; lv++)
		if (mask & PBL_LEVEL_MASK(lv))
			n += snprintf(buf + n, size - RTE_MIN(n, size), "%s%s", n ? "|" : "",
				      level_names[lv]);
	if (n == 0)
		snprintf(buf, size, "none");
}

/*
 * Levels 1 and 2: take the PBLEs from the pool (level 1 first, as the kernel does) and write
 * every page's IOVA. pbl has its geometry set; on failure the caller clears it.
 */
static int
build_pbles(struct pbl_pool *pool, const struct pbl_layout *l, uint64_t page_sz,
	    uint32_t level_mask, struct pbl *pbl)
{
	struct pbl_pool_grant grant;
	struct page_sink sink;
	char levels[48];
	int rc;

	level_mask_str(level_mask, levels, sizeof(levels));
	if (pbl_levels_possible(pbl->npages, level_mask) == 0) {
		PBL_LOG(ERR, "%s range of %" PRIu64 " pages of %" PRIu64 " bytes cannot be"
			" described at %s", l->nsegs == 1 ? "an IOVA-contiguous" : "a fragmented",
			pbl->npages, page_sz, levels);
		return -EINVAL;
	}
	if (pool == NULL) {
		PBL_LOG(ERR, "range needs PBLEs but no pool was given");
		return -EINVAL;
	}
	rc = pbl_pool_grant(pool, pbl->npages, level_mask, &grant);
	if (rc != 0) {
		PBL_LOG(ERR, "PBLE pool exhausted: no PBLEs for %" PRIu64 " pages at %s",
			pbl->npages, levels);
		return rc;
	}
	pbl->pool = pool;
	pbl->level = grant.level;
	pbl->index = grant.run.index;
	memset(&sink, 0, sizeof(sink));
	if (grant.level == PBL_LEVEL_1) {
		sink.dst = grant.run.va;
	} else {
		pbl->root_count = grant.run.count;
		sink.pool = pool;
		sink.root = grant.run.va;
	}
	emit_pages(l, page_sz, &sink);
	return 0;
}

int
pbl_build(struct pbl_pool *pool, const struct pbl_layout *l, uint64_t page_sz,
	  uint32_t level_mask, struct pbl *pbl)
{
	uint64_t fbo;
	int rc;

	if (pbl == NULL || l == NULL || l->nsegs == 0 || l->len == 0) {
		PBL_LOG(ERR, "NULL or empty argument");
		return -EINVAL;
	}
	memset(pbl, 0, sizeof(*pbl));
	if (page_sz < RTE_BIT64(PBL_MIN_PAGE_SHIFT) || page_sz > RTE_BIT64(PBL_MAX_PAGE_SHIFT) ||
	    (page_sz & (page_sz - 1)) != 0) {
		PBL_LOG(ERR, "page size 0x%" PRIx64 " is not a power of two from 4 KB to 1 GB",
			page_sz);
		return -EINVAL;
	}
	if (level_mask == 0 || (level_mask & ~PBL_LEVELS_ALL) != 0) {
		PBL_LOG(ERR, "bad level mask 0x%x", level_mask);
		return -EINVAL;
	}
	fbo = l->va & (page_sz - 1);
	if (l->len > UINT64_MAX - fbo - page_sz) {
		PBL_LOG(ERR, "range 0x%" PRIx64 "+%" PRIu64 " is too long", l->va, l->len);
		return -EINVAL;
	}
	if (!layout_allows(l, page_sz)) {
		PBL_LOG(ERR, "range 0x%" PRIx64 "+%" PRIu64 " cannot be described with %" PRIu64
			"-byte pages: its IOVA layout breaks inside a page", l->va, l->len, page_sz);
		return -EINVAL;
	}
	pbl->va = l->va;
	pbl->len = l->len;
	pbl->page_shift = (uint8_t)rte_bsf64(page_sz);
	pbl->first_offset = (uint32_t)fbo;
	pbl->npages = (fbo + l->len + page_sz - 1) >> pbl->page_shift;
	/* One segment: IOVA-contiguous, whatever the page size. */
	if (l->nsegs == 1 && (level_mask & PBL_LEVEL_MASK(PBL_LEVEL_0))) {
		pbl->level = PBL_LEVEL_0;
		pbl->addr = l->segs[0].iova - fbo;
		return 0;
	}
	rc = build_pbles(pool, l, page_sz, level_mask, pbl);
	if (rc != 0)
		memset(pbl, 0, sizeof(*pbl));
	return rc;
}

int
pbl_build_mr(struct pbl_pool *pool, const void *va, size_t len, uint64_t pgsz_bitmap,
	     uint32_t level_mask, struct pbl *pbl)
{
	struct pbl_layout *l;
	uint64_t pgsz;
	int rc;

	if (pbl == NULL) {
		PBL_LOG(ERR, "NULL PBL");
		return -EINVAL;
	}
	memset(pbl, 0, sizeof(*pbl));
	rc = pbl_mem_resolve(va, len, &l);
	if (rc != 0)
		return rc;
	pgsz = pbl_best_pgsz(l, pgsz_bitmap);
	if (pgsz == 0) {
		PBL_LOG(ERR, "no page size in 0x%" PRIx64 " fits the IOVA layout of MR %p+%zu",
			pgsz_bitmap, va, len);
		rc = -EINVAL;
	} else {
		rc = pbl_build(pool, l, pgsz, level_mask, pbl);
	}
	pbl_layout_free(l);
	return rc;
}

int
pbl_free(struct pbl *pbl)
{
	int rc = 0;

	if (pbl == NULL)
		return 0;
	if (pbl->level == PBL_LEVEL_1)
		rc = pbl_pool_free(pbl->pool, pbl->index, (uint32_t)pbl->npages);
	else if (pbl->level == PBL_LEVEL_2)
		rc = pbl_pool_free_tree(pbl->pool, pbl->index, pbl->root_count, pbl->npages);
	memset(pbl, 0, sizeof(*pbl));
	return rc;
}

/* The engine's lookup of page 'page': level 1 or 2 only. */
static int
pble_lookup(const struct pbl *pbl, uint64_t page, rte_iova_t *iova)
{
	uint64_t idx = pbl->index + page;
	const uint64_t *e;

	if (pbl->level == PBL_LEVEL_2) {
		e = pbl_pool_pble(pbl->pool, (uint32_t)(pbl->index + (page >> PBL_LEAF_SHIFT)));
		if (e == NULL)
			return -EINVAL;
		idx = pbl_le64_load(e) + (page & (PBL_LEAF_PBLES - 1));
	}
	if (idx >= PBL_INVALID_INDEX)
		return -EINVAL;
	e = pbl_pool_pble(pbl->pool, (uint32_t)idx);
	if (e == NULL)
		return -EINVAL;
	*iova = pbl_le64_load(e);
	return 0;
}

int
pbl_translate(const struct pbl *pbl, uint64_t offset, rte_iova_t *iova)
{
	uint64_t pos, mask;
	int rc;

	if (pbl == NULL || iova == NULL || offset >= pbl->len) {
		PBL_LOG(ERR, "offset %" PRIu64 " outside the PBL", offset);
		return -EINVAL;
	}
	pos = pbl->first_offset + offset;
	if (pbl->level == PBL_LEVEL_0) {
		*iova = pbl->addr + pos;
		return 0;
	}
	mask = RTE_BIT64(pbl->page_shift) - 1;
	rc = pble_lookup(pbl, pos >> pbl->page_shift, iova);
	if (rc != 0) {
		PBL_LOG(ERR, "PBLE for offset %" PRIu64 " lies outside the pool", offset);
		return rc;
	}
	*iova += pos & mask;
	return 0;
}

int
pbl_walk(const struct pbl *pbl, uint64_t first_page, uint64_t n, rte_iova_t *iovas)
{
	uint64_t i;

	if (pbl == NULL || iovas == NULL || first_page > pbl->npages ||
	    n > pbl->npages - first_page) {
		PBL_LOG(ERR, "pages %" PRIu64 "+%" PRIu64 " outside the PBL", first_page, n);
		return -EINVAL;
	}
	if (pbl->level == PBL_LEVEL_0) {
		for (i = 0; i < n; i++)
			iovas[i] = pbl->addr + ((first_page + i) << pbl->page_shift);
		return 0;
	}
	if (pbl->level == PBL_LEVEL_1) {
		const uint64_t *e = pbl_pool_pble(pbl->pool, pbl->index);

		if (e == NULL || pbl->index + pbl->npages > PBL_INVALID_INDEX ||
		    pbl_pool_pble(pbl->pool, (uint32_t)(pbl->index + pbl->npages - 1)) == NULL) {
			PBL_LOG(ERR, "level-1 run %u+%" PRIu64 " lies outside the pool", pbl->index,
				pbl->npages);
			return -EINVAL;
		}
		for (i = 0; i < n; i++)
			iovas[i] = pbl_le64_load(&e[first_page + i]);
		return 0;
	}
	/* Level 2: one root read per leaf, then the leaf's entries in a row. */
	for (i = 0; i < n;) {
		uint64_t page = first_page + i;
		uint64_t in_leaf = page & (PBL_LEAF_PBLES - 1);
		uint64_t take = RTE_MIN(n - i, PBL_LEAF_PBLES - in_leaf);
		const uint64_t *root, *leaf;
		uint64_t leaf_idx, k;

		root = pbl_pool_pble(pbl->pool, (uint32_t)(pbl->index + (page >> PBL_LEAF_SHIFT)));
		if (root == NULL) {
			PBL_LOG(ERR, "level-2 root %u lies outside the pool", pbl->index);
			return -EINVAL;
		}
		leaf_idx = pbl_le64_load(root);
		leaf = leaf_idx + PBL_LEAF_PBLES <= PBL_INVALID_INDEX ?
			       pbl_pool_pble(pbl->pool, (uint32_t)leaf_idx) : NULL;
		if (leaf == NULL || pbl_pool_pble(pbl->pool, (uint32_t)(leaf_idx + in_leaf +
									  take - 1)) == NULL) {
			PBL_LOG(ERR, "leaf %" PRIu64 " lies outside the pool", leaf_idx);
			return -EINVAL;
		}
		for (k = 0; k < take; k++)
			iovas[i + k] = pbl_le64_load(&leaf[in_leaf + k]);
		i += take;
	}
	return 0;
}

/* ---- QP and CQ ------------------------------------------------------------------------------ */

/* True when bytes [off, off + len) of the layout are IOVA-contiguous. */
static bool
layout_contig(const struct pbl_layout *l, uint64_t off, uint64_t len)
{
	rte_iova_t first = pbl_layout_iova(l, off);
	uint32_t i;

	for (i = 0; i < l->nsegs; i++) {
		const struct pbl_seg *s = &l->segs[i];

		if (l->va + off >= s->va && l->va + off < s->va + s->len)
			return l->va + off + len <= s->va + s->len && first != RTE_BAD_IOVA;
	}
	return false;
}

/* A copy of the first len bytes of a layout. */
static struct pbl_layout *
layout_head(const struct pbl_layout *l, uint64_t len)
{
	struct pbl_layout *h;
	uint32_t n = 0;

	while (n < l->nsegs && l->segs[n].va < l->va + len)
		n++;
	h = malloc(sizeof(*h) + n * sizeof(h->segs[0]));
	if (h == NULL)
		return NULL;
	memcpy(h, l, sizeof(*h));
	memcpy(h->segs, l->segs, n * sizeof(h->segs[0]));
	h->len = len;
	h->nsegs = n;
	h->segs[n - 1].len = l->va + len - h->segs[n - 1].va;
	return h;
}

/* Checks shared by the QP and CQ rings; returns the ring's page count or 0. */
static uint64_t
queue_pages(const void *va, size_t len, const char *what)
{
	if (va == NULL || ((uintptr_t)va & (PBL_QUEUE_PAGE_SIZE - 1)) != 0) {
		PBL_LOG(ERR, "%s buffer %p is not %" PRIu64 "-byte aligned", what, va,
			PBL_QUEUE_PAGE_SIZE);
		return 0;
	}
	if (len == 0 || len > UINTPTR_MAX - (uintptr_t)va) {
		PBL_LOG(ERR, "%s buffer %p has bad length %zu", what, va, len);
		return 0;
	}
	return ((uint64_t)len >> PBL_QUEUE_PAGE_SHIFT) + ((len & (PBL_QUEUE_PAGE_SIZE - 1)) != 0);
}

int
pbl_build_qp(struct pbl_pool *pool, const void *va, size_t len, uint32_t sq_pages,
	     uint32_t rq_pages, struct pbl_qp *qp)
{
	return pbl_build_qp_levels(pool, va, len, sq_pages, rq_pages, PBL_LEVELS_QUEUE, qp);
}

int
pbl_build_qp_levels(struct pbl_pool *pool, const void *va, size_t len, uint32_t sq_pages,
		    uint32_t rq_pages, uint32_t level_mask, struct pbl_qp *qp)
{
	struct pbl_layout *l, *rings;
	uint64_t ring_pages, sq_len, ring_len;
	bool sq_contig, rq_contig;
	int rc;

	if (qp == NULL) {
		PBL_LOG(ERR, "NULL QP");
		return -EINVAL;
	}
	memset(qp, 0, sizeof(*qp));
	if (queue_pages(va, len, "QP") == 0)
		return -EINVAL;
	if ((level_mask & PBL_LEVEL_MASK(PBL_LEVEL_1)) == 0 ||
	    (level_mask & ~PBL_LEVELS_QUEUE) != 0) {
		PBL_LOG(ERR, "QP level mask 0x%x: queues take level 1, and level 0 only",
			level_mask);
		return -EINVAL;
	}
	if (sq_pages == 0) {
		PBL_LOG(ERR, "QP without SQ pages");
		return -EINVAL;
	}
	/*
	 * 64-bit sums: two 32-bit page counts cannot overflow them. The shadow area must lie
	 * whole in the buffer; that implies the kernel's sq_pages + rq_pages + 1 <= pages.
	 */
	ring_pages = (uint64_t)sq_pages + rq_pages;
	sq_len = (uint64_t)sq_pages << PBL_QUEUE_PAGE_SHIFT;
	ring_len = ring_pages << PBL_QUEUE_PAGE_SHIFT;
	if (len < ring_len + PBL_SHADOW_AREA_SIZE) {
		PBL_LOG(ERR, "QP buffer of %zu bytes cannot hold %u SQ + %u RQ pages and the"
			" %u-byte shadow area on the page after them", len, sq_pages, rq_pages,
			PBL_SHADOW_AREA_SIZE);
		return -EINVAL;
	}
	rc = pbl_mem_resolve(va, len, &l);
	if (rc != 0)
		return rc;
	qp->sq_pages = sq_pages;
	qp->rq_pages = rq_pages;
	/* The shadow area is offset 0 of the page after the RQ: always an address. */
	qp->shadow_pa = pbl_layout_iova(l, ring_len);
	sq_contig = layout_contig(l, 0, sq_len);
	rq_contig = rq_pages == 0 || layout_contig(l, sq_len, ring_len - sq_len);
	if (sq_contig && rq_contig && (level_mask & PBL_LEVEL_MASK(PBL_LEVEL_0)) != 0) {
		qp->sq_addr = pbl_layout_iova(l, 0);
		qp->rq_addr = rq_pages != 0 ? pbl_layout_iova(l, sq_len) : 0;
		pbl_layout_free(l);
		return 0;
	}
	rings = layout_head(l, ring_len);
	pbl_layout_free(l);
	if (rings == NULL) {
		PBL_LOG(ERR, "QP %p: no memory for a layout", va);
		memset(qp, 0, sizeof(*qp));
		return -ENOMEM;
	}
	/* Level 1 only, as the kernel's irdma_handle_q_mem asks for QPs. */
	rc = pbl_build(pool, rings, PBL_QUEUE_PAGE_SIZE, PBL_LEVEL_MASK(PBL_LEVEL_1), &qp->pbl);
	pbl_layout_free(rings);
	if (rc != 0) {
		PBL_LOG(ERR, "QP %p: no level-1 run for %" PRIu64 " ring pages", va, ring_pages);
		memset(qp, 0, sizeof(*qp));
		return rc;
	}
	qp->virtual_map = true;
	qp->sq_addr = qp->pbl.index;
	qp->rq_addr = rq_pages != 0 ? (uint64_t)qp->pbl.index + sq_pages : 0;
	return 0;
}

int
pbl_qp_free(struct pbl_qp *qp)
{
	int rc;

	if (qp == NULL)
		return 0;
	rc = pbl_free(&qp->pbl);
	memset(qp, 0, sizeof(*qp));
	return rc;
}

/* What the engine does with a queue address and its "virtual" bit. */
static int
queue_translate(struct pbl_pool *pool, bool virtual_map, uint64_t addr, uint64_t ring_pages,
		uint64_t offset, rte_iova_t *iova)
{
	const uint64_t *e;
	uint64_t idx;

	if (iova == NULL || offset >= ring_pages << PBL_QUEUE_PAGE_SHIFT) {
		PBL_LOG(ERR, "offset %" PRIu64 " outside a ring of %" PRIu64 " pages", offset,
			ring_pages);
		return -EINVAL;
	}
	if (!virtual_map) {
		*iova = addr + offset;
		return 0;
	}
	idx = addr + (offset >> PBL_QUEUE_PAGE_SHIFT);
	e = idx < PBL_INVALID_INDEX ? pbl_pool_pble(pool, (uint32_t)idx) : NULL;
	if (e == NULL) {
		PBL_LOG(ERR, "PBLE %" PRIu64 " lies outside the pool", idx);
		return -EINVAL;
	}
	*iova = pbl_le64_load(e) + (offset & (PBL_QUEUE_PAGE_SIZE - 1));
	return 0;
}

int
pbl_qp_translate(const struct pbl_qp *qp, enum pbl_qp_ring ring, uint64_t offset,
		 rte_iova_t *iova)
{
	if (qp == NULL || (ring != PBL_QP_SQ && ring != PBL_QP_RQ)) {
		PBL_LOG(ERR, "bad QP or ring");
		return -EINVAL;
	}
	return queue_translate(qp->pbl.pool, qp->virtual_map,
			       ring == PBL_QP_SQ ? qp->sq_addr : qp->rq_addr,
			       ring == PBL_QP_SQ ? qp->sq_pages : qp->rq_pages, offset, iova);
}

int
pbl_build_cq(struct pbl_pool *pool, const void *ring_va, size_t ring_len,
	     const void *shadow_va, struct pbl_cq *cq)
{
	return pbl_build_cq_levels(pool, ring_va, ring_len, shadow_va, PBL_LEVELS_QUEUE, cq);
}

int
pbl_build_cq_levels(struct pbl_pool *pool, const void *ring_va, size_t ring_len,
		    const void *shadow_va, uint32_t level_mask, struct pbl_cq *cq)
{
	struct pbl_layout *l;
	uint64_t pages;
	int rc;

	if (cq == NULL) {
		PBL_LOG(ERR, "NULL CQ");
		return -EINVAL;
	}
	memset(cq, 0, sizeof(*cq));
	pages = queue_pages(ring_va, ring_len, "CQ");
	if (pages == 0)
		return -EINVAL;
	if ((level_mask & PBL_LEVEL_MASK(PBL_LEVEL_1)) == 0 ||
	    (level_mask & ~PBL_LEVELS_QUEUE) != 0) {
		PBL_LOG(ERR, "CQ level mask 0x%x: queues take level 1, and level 0 only",
			level_mask);
		return -EINVAL;
	}
	if (pages > UINT32_MAX) {
		PBL_LOG(ERR, "CQ ring of %" PRIu64 " pages is too long", pages);
		return -EINVAL;
	}
	if (shadow_va == NULL || ((uintptr_t)shadow_va & (PBL_SHADOW_AREA_ALIGN - 1)) != 0) {
		PBL_LOG(ERR, "CQ shadow area %p is not %u-byte aligned", shadow_va,
			PBL_SHADOW_AREA_ALIGN);
		return -EINVAL;
	}
	rc = pbl_mem_resolve(shadow_va, PBL_SHADOW_AREA_SIZE, &l);
	if (rc != 0)
		return rc;
	if (l->nsegs != 1) {
		PBL_LOG(ERR, "CQ shadow area %p is not IOVA-contiguous", shadow_va);
		pbl_layout_free(l);
		return -EINVAL;
	}
	cq->shadow_pa = l->segs[0].iova;
	pbl_layout_free(l);
	rc = pbl_mem_resolve(ring_va, ring_len, &l);
	if (rc == 0) {
		rc = pbl_build(pool, l, PBL_QUEUE_PAGE_SIZE, level_mask, &cq->pbl);
		pbl_layout_free(l);
	}
	if (rc != 0) {
		memset(cq, 0, sizeof(*cq));
		return rc;
	}
	cq->pages = (uint32_t)pages;
	cq->virtual_map = cq->pbl.level == PBL_LEVEL_1;
	cq->ring_addr = cq->virtual_map ? cq->pbl.index : cq->pbl.addr;
	return 0;
}

int
pbl_cq_free(struct pbl_cq *cq)
{
	int rc;

	if (cq == NULL)
		return 0;
	rc = pbl_free(&cq->pbl);
	memset(cq, 0, sizeof(*cq));
	return rc;
}

int
pbl_cq_translate(const struct pbl_cq *cq, uint64_t offset, rte_iova_t *iova)
{
	if (cq == NULL) {
		PBL_LOG(ERR, "NULL CQ");
		return -EINVAL;
	}
	return queue_translate(cq->pbl.pool, cq->virtual_map, cq->ring_addr, cq->pages, offset,
			       iova);
}
