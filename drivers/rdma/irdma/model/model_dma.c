/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's IOMMU view. On silicon behind VFIO the engine can reach exactly the ranges
 * the driver mapped; a DMA to anything else is blocked by the IOMMU and the engine reports
 * an error. The model keeps the same table: (iova, len, va) entries sorted by IOVA, with
 * overlapping maps refused, and every access the engine makes to host memory is checked
 * byte for byte against it before any byte moves. An access may span adjacent maps (two
 * pages mapped separately but contiguous in IOVA), as on an IOMMU.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "model_priv.h"

/* Initial capacity of the map table. */
#define MODEL_DMA_MAPS_INIT	64u

int
model_dma_init(struct model_dma *m)
{
	memset(m, 0, sizeof(*m));
	return 0;
}

/* Forget the maps found (the table changed). */
static void
dma_hits_clear(struct model_dma *m)
{
	unsigned int i;

	for (i = 0; i < MODEL_DMA_HITS; i++)
		m->hit[i].len = 0;
}

void
model_dma_fini(struct model_dma *m)
{
	free(m->maps);
	m->maps = NULL;
	m->n = 0;
	m->cap = 0;
	dma_hits_clear(m);
}

/* Index of the first map whose IOVA is greater than @p iova (binary search). */
static uint32_t
dma_upper(const struct model_dma *m, rte_iova_t iova)
{
	uint32_t lo = 0, hi = m->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->maps[mid].iova <= iova)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The map holding byte @p iova, or NULL. */
static const struct model_map *
dma_find(const struct model_dma *m, rte_iova_t iova)
{
	uint32_t i = dma_upper(m, iova);
	const struct model_map *e;

	if (i == 0)
		return NULL;
	e = &m->maps[i - 1];
	return iova - e->iova < e->len ? e : NULL;
}

/* True when map @p e holds all of [iova, iova + len) (len 0 maps hold nothing). */
static inline bool
dma_holds(const struct model_map *e, rte_iova_t iova, size_t len)
{
	return iova - e->iova < e->len && e->len - (size_t)(iova - e->iova) >= len;
}

/*
 * dma_va() past the most recent map: the other maps found, then the binary search; the map
 * that holds the access moves to the front (least recently used last, dropped by a new
 * one).
 */
static __rte_noinline uint8_t *
dma_va_older(struct model_dma *m, rte_iova_t iova, size_t len)
{
	const struct model_map *e;
	struct model_map f;
	unsigned int i;

	for (i = 1; i < MODEL_DMA_HITS; i++)
		if (dma_holds(&m->hit[i], iova, len))
			break;
	if (i < MODEL_DMA_HITS) {
		f = m->hit[i];
	} else {
		e = dma_find(m, iova);
		if (e == NULL || !dma_holds(e, iova, len))
			return NULL;
		f = *e;
		i = MODEL_DMA_HITS - 1;
	}
	memmove(&m->hit[1], &m->hit[0], i * sizeof(m->hit[0]));
	m->hit[0] = f;
	return f.va + (iova - f.iova);
}

/*
 * The host address of [iova, iova + len) when one map holds all of it, else NULL: the map
 * the last access found first (with EAL's memory mirrored as one map, always that), then
 * the few before it (a round touches a few: the SQ ring, the CQ ring, the buffers), then
 * the binary search. Caller holds dev->lock.
 */
static inline uint8_t *
dma_va(struct model_dma *m, rte_iova_t iova, size_t len)
{
	const struct model_map *e = &m->hit[0];

	if (likely(dma_holds(e, iova, len)))
		return e->va + (iova - e->iova);
	return dma_va_older(m, iova, len);
}

/* True when every byte of [iova, iova + len) is mapped (caller holds the lock). */
static bool
dma_covered(const struct model_dma *m, rte_iova_t iova, size_t len)
{
	while (len > 0) {
		const struct model_map *e = dma_find(m, iova);
		size_t chunk;

		if (e == NULL)
			return false;
		chunk = e->len - (size_t)(iova - e->iova);
		if (chunk >= len)
			return true;
		len -= chunk;
		iova += chunk;
	}
	return true;
}

/* Insert a map; -EEXIST on any overlap, -ENOMEM (caller holds the write lock). */
static int
dma_insert_locked(struct model_dma *m, void *va, rte_iova_t iova, size_t len)
{
	uint32_t i = dma_upper(m, iova);

	/* Refuse any overlap with the neighbours on either side. */
	if ((i > 0 && m->maps[i - 1].iova + m->maps[i - 1].len > iova) ||
	    (i < m->n && iova + len > m->maps[i].iova))
		return -EEXIST;
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : MODEL_DMA_MAPS_INIT;
		struct model_map *n = realloc(m->maps, cap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		m->maps = n;
		m->cap = cap;
	}
	memmove(&m->maps[i + 1], &m->maps[i], (m->n - i) * sizeof(m->maps[0]));
	m->maps[i] = (struct model_map){ .iova = iova, .len = len, .va = (uint8_t *)va };
	m->n++;
	dma_hits_clear(m);
	return 0;
}

/*
 * True when [va, va + len) lies in one internal EAL memseg list (hugepage or --no-huge
 * memory, not external memory): with map_eal, the device reaches it as a VFIO device in
 * EAL's default container does, without the driver mapping it.
 */
static bool
dma_eal_owned(const struct model_dev *d, void *va, size_t len)
{
	const struct rte_memseg_list *first, *last;

	if (!d->cfg.map_eal)
		return false;
	first = rte_mem_virt2memseg_list(va);
	last = rte_mem_virt2memseg_list(RTE_PTR_ADD(va, len - 1));
	return first != NULL && first == last && !first->external;
}

int
model_dma_map(struct model_dev *d, void *va, rte_iova_t iova, size_t len)
{
	struct model_dma *m = &d->dma;
	int ret;

	if (va == NULL || len == 0 || iova == RTE_BAD_IOVA || iova + len < iova) {
		MODEL_INC(d, dma_map_refused);
		return -EINVAL;
	}
	if (dma_eal_owned(d, va, len)) {
		/* Already reachable (model_dma_eal_attach); nothing to record. */
		MODEL_INC(d, dma_maps);
		return 0;
	}
	model_lock(&d->lock);
	ret = dma_insert_locked(m, va, iova, len);
	model_unlock(&d->lock);
	if (ret == 0)
		MODEL_INC(d, dma_maps);
	else
		MODEL_INC(d, dma_map_refused);
	return ret;
}

int
model_dma_unmap(struct model_dev *d, void *va, rte_iova_t iova, size_t len)
{
	struct model_dma *m = &d->dma;
	uint32_t i;
	int ret = -ENOENT;

	if (va != NULL && len != 0 && dma_eal_owned(d, va, len)) {
		MODEL_INC(d, dma_unmaps);
		return 0;
	}
	/* Under dev->lock: no engine access is under way, none finds the map afterwards. */
	model_lock(&d->lock);
	i = dma_upper(m, iova);
	if (i > 0 && m->maps[i - 1].iova == iova && m->maps[i - 1].len == len &&
	    m->maps[i - 1].va == va) {
		memmove(&m->maps[i - 1], &m->maps[i], (m->n - i) * sizeof(m->maps[0]));
		m->n--;
		dma_hits_clear(m);
		model_ctx_changed(d);
		ret = 0;
	}
	model_unlock(&d->lock);
	if (ret == 0)
		MODEL_INC(d, dma_unmaps);
	else
		MODEL_INC(d, dma_map_refused);
	return ret;
}

bool
model_dma_mapped(struct model_dev *d, rte_iova_t iova, size_t len)
{
	bool ok;

	model_lock(&d->lock);
	ok = dma_covered(&d->dma, iova, len);
	model_unlock(&d->lock);
	return ok;
}

/* Copy between host memory at [iova, iova + len) and @p buf; all or nothing. */
int
model_dma_copy_any(struct model_dev *d, rte_iova_t iova, void *buf, size_t len, bool to_host)
{
	struct model_dma *m = &d->dma;
	uint8_t *p = buf, *va;
	int ret = 0;

	if (len == 0)
		return 0;
	va = dma_va(m, iova, len);
	if (va != NULL) {
		/* One map holds it all (the common case). */
		if (to_host)
			memcpy(va, p, len);
		else
			memcpy(p, va, len);
		return 0;
	}
	if (unlikely(d->ext.dma != NULL)) {
		/* The emulator's IOMMU decides; a write is all or nothing as here. */
		if (iova + len < iova ||
		    (to_host && d->ext.dma(d->ext.opaque, IRDMA_MODEL_EXT_DMA_PROBE, iova, NULL,
					   len) != 0))
			ret = -EFAULT;
		else
			ret = d->ext.dma(d->ext.opaque, to_host ? IRDMA_MODEL_EXT_DMA_WRITE :
					 IRDMA_MODEL_EXT_DMA_READ, iova, p, len) != 0 ? -EFAULT : 0;
		goto out;
	}
	if (iova + len < iova || !dma_covered(m, iova, len)) {
		ret = -EFAULT;
		goto out;
	}
	while (len > 0) {
		const struct model_map *e = dma_find(m, iova);
		size_t off = (size_t)(iova - e->iova);
		size_t chunk = RTE_MIN(len, e->len - off);

		if (to_host)
			memcpy(e->va + off, p, chunk);
		else
			memcpy(p, e->va + off, chunk);
		p += chunk;
		iova += chunk;
		len -= chunk;
	}
out:
	if (ret != 0) {
		MODEL_INC(d, dma_faults);
		MODEL_LOG(DEBUG, d, "DMA fault at IOVA 0x%" PRIx64 " (+%zu)", iova, len);
	}
	return ret;
}

uint8_t *
model_dma_va(struct model_dev *d, rte_iova_t iova, size_t len)
{
	return len != 0 && iova + len > iova ? dma_va(&d->dma, iova, len) : NULL;
}

int
model_dma_check(struct model_dev *d, rte_iova_t iova, size_t len)
{
	int ret = 0;

	if (len == 0 || iova + len < iova)
		ret = -EFAULT;
	else if (dma_va(&d->dma, iova, len) != NULL)
		ret = 0;
	else if (unlikely(d->ext.dma != NULL))
		ret = d->ext.dma(d->ext.opaque, IRDMA_MODEL_EXT_DMA_PROBE, iova, NULL, len) != 0 ?
			-EFAULT : 0;
	else if (!dma_covered(&d->dma, iova, len))
		ret = -EFAULT;
	if (ret != 0)
		MODEL_INC(d, dma_faults);
	return ret;
}

/*
 * The host address of an aligned qword at @p iova (caller holds dev->lock). Qwords the driver and the device exchange while both run (valid
 * words, shadow areas) are accessed as single atomic 64-bit loads and stores, which is
 * what the 8-byte aligned PCIe accesses of silicon guarantee.
 */
static uint64_t *
dma_qword_locked(struct model_dev *d, rte_iova_t iova)
{
	if ((iova & (IRDMA_QWORD_BYTES - 1)) != 0)
		return NULL;
	return (uint64_t *)(void *)dma_va(&d->dma, iova, IRDMA_QWORD_BYTES);
}

int
model_dma_load64_any(struct model_dev *d, rte_iova_t iova, uint64_t *v)
{
	uint64_t *p = dma_qword_locked(d, iova);
	uint64_t le;

	if (p != NULL)
		*v = rte_le_to_cpu_64(__atomic_load_n(p, __ATOMIC_ACQUIRE));
	else if (unlikely(d->ext.dma != NULL) && (iova & (IRDMA_QWORD_BYTES - 1)) == 0 &&
		 d->ext.dma(d->ext.opaque, IRDMA_MODEL_EXT_DMA_READ, iova, &le, sizeof(le)) == 0) {
		*v = rte_le_to_cpu_64(le);
		return 0;
	}
	if (p == NULL) {
		MODEL_INC(d, dma_faults);
		return -EFAULT;
	}
	return 0;
}

int
model_dma_store64_any(struct model_dev *d, rte_iova_t iova, uint64_t v)
{
	uint64_t *p = dma_qword_locked(d, iova);
	uint64_t le = rte_cpu_to_le_64(v);

	if (p != NULL)
		__atomic_store_n(p, le, __ATOMIC_RELEASE);
	else if (unlikely(d->ext.dma != NULL) && (iova & (IRDMA_QWORD_BYTES - 1)) == 0 &&
		 d->ext.dma(d->ext.opaque, IRDMA_MODEL_EXT_DMA_WRITE, iova, &le, sizeof(le)) == 0)
		return 0;
	if (p == NULL) {
		MODEL_INC(d, dma_faults);
		return -EFAULT;
	}
	return 0;
}

/* ---- EAL memory, mirrored as VFIO's default container holds it (cfg.map_eal) ---- */

/*
 * Remove [iova, iova + len) from the table, splitting the maps it cuts (the EAL memory of
 * one allocation event may have been merged with its neighbours). Caller holds the lock.
 */
static int
dma_remove_range_locked(struct model_dma *m, rte_iova_t iova, size_t len)
{
	rte_iova_t end = iova + len;
	uint32_t i = dma_upper(m, iova);

	if (i > 0 && m->maps[i - 1].iova + m->maps[i - 1].len > iova)
		i--;
	while (i < m->n && m->maps[i].iova < end) {
		struct model_map e = m->maps[i];
		rte_iova_t e_end = e.iova + e.len;

		memmove(&m->maps[i], &m->maps[i + 1], (m->n - i - 1) * sizeof(m->maps[0]));
		m->n--;
		if (e.iova < iova) {
			if (dma_insert_locked(m, e.va, e.iova, (size_t)(iova - e.iova)) != 0)
				return -ENOMEM;
			i++;
		}
		if (e_end > end) {
			if (dma_insert_locked(m, e.va + (end - e.iova), end,
					      (size_t)(e_end - end)) != 0)
				return -ENOMEM;
			break;
		}
	}
	return 0;
}

/* Map the memsegs of [va, va + len), one map per VA- and IOVA-contiguous run. */
static int
dma_eal_add(struct model_dev *d, const struct rte_memseg_list *msl, void *va, size_t len)
{
	uint8_t *p = va, *end = RTE_PTR_ADD(va, len), *run_va = NULL;
	rte_iova_t run_iova = RTE_BAD_IOVA;
	size_t run_len = 0;
	int ret = 0;

	model_lock(&d->lock);
	for (; p < end && ret == 0; p += msl->page_sz) {
		const struct rte_memseg *ms = rte_mem_virt2memseg(p, msl);

		if (ms == NULL || ms->iova == RTE_BAD_IOVA)
			continue;
		if (run_len != 0 && run_va + run_len == p && run_iova + run_len == ms->iova) {
			run_len += msl->page_sz;
			continue;
		}
		if (run_len != 0)
			ret = dma_insert_locked(&d->dma, run_va, run_iova, run_len);
		run_va = p;
		run_iova = ms->iova;
		run_len = msl->page_sz;
	}
	if (ret == 0 && run_len != 0)
		ret = dma_insert_locked(&d->dma, run_va, run_iova, run_len);
	model_unlock(&d->lock);
	return ret;
}

static int
dma_eal_walk(const struct rte_memseg_list *msl, const struct rte_memseg *ms, size_t len,
	     void *arg)
{
	if (msl->external)
		return 0;
	return dma_eal_add(arg, msl, ms->addr, len) == 0 ? 0 : -1;
}

static void
dma_eal_event(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	struct model_dev *d = arg;
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(addr);
	const struct rte_memseg *ms;
	int ret;

	if (msl == NULL || msl->external)
		return;
	if (type == RTE_MEM_EVENT_ALLOC) {
		ret = dma_eal_add(d, msl, (void *)(uintptr_t)addr, len);
	} else {
		/* Freed pages still have their memseg IOVAs while the callback runs. */
		const uint8_t *p = addr, *end = RTE_PTR_ADD(addr, len);

		ret = 0;
		model_lock(&d->lock);
		for (; p < end && ret == 0; p += msl->page_sz) {
			ms = rte_mem_virt2memseg(p, msl);
			if (ms != NULL && ms->iova != RTE_BAD_IOVA)
				ret = dma_remove_range_locked(&d->dma, ms->iova, msl->page_sz);
		}
		dma_hits_clear(&d->dma);
		model_ctx_changed(d);
		model_unlock(&d->lock);
	}
	if (ret != 0)
		MODEL_LOG(ERR, d, "EAL memory %s of %zu bytes at %p: the IOMMU view failed (%d)",
			  type == RTE_MEM_EVENT_ALLOC ? "allocation" : "free", len, addr, ret);
}

int
model_dma_eal_attach(struct model_dev *d)
{
	int ret;

	/* Every internal segment now, then each allocation and free as EAL makes it. */
	if (rte_memseg_contig_walk(dma_eal_walk, d) != 0) {
		MODEL_LOG(ERR, d, "mapping EAL memory failed");
		return -ENOMEM;
	}
	ret = rte_mem_event_callback_register(d->name, dma_eal_event, d);
	if (ret != 0 && rte_errno != ENOTSUP) {
		MODEL_LOG(ERR, d, "EAL memory events: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	d->eal_events = ret == 0;
	return 0;
}

void
model_dma_eal_detach(struct model_dev *d)
{
	if (d->eal_events)
		rte_mem_event_callback_unregister(d->name, d);
	d->eal_events = false;
}
