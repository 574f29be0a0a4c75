/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * CQs of the irdma PMD: create, resize and destroy through the CQP (doc/hardware.md §5.3). The poll
 * path that reads the ring is irdma_uk_poll.c; the CQ struct both share is in irdma_cq.h.
 *
 * Resize (MODIFY_CQ) follows the struct irdma_cq contract of irdma_cq.h: a new ring, the old
 * one kept until it is drained (poll path) and freed at the next resize or at destroy.
 *
 * Memory: the ring is VA-contiguous 4 KB pages, given to the device as an IOVA when they are
 * IOVA-contiguous, else as a level-1 PBLE run with VIRTMAP and LPBLSIZE 1 (doc/hardware.md §6.3,
 * §10.7; level 1 always when the device was opened with ring_pbl=1). The shadow area
 * is a separate 64-byte buffer aligned to 128 bytes (gen2 has the CQ-resize feature, so the
 * kernel keeps the shadow area apart from the ring).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_cq.h"
#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_log.h"

/* Free one ring: its PBLEs, then its pages. */
static void
irdma_cq_ring_free(struct irdma_ctrl *c, const struct irdma_cq *q, struct irdma_qmem *m,
		   struct pbl_cq *p)
{
	if (pbl_cq_free(p) != 0)
		IRDMA_LOG(ERR, c->hw, "CQ %u: PBLEs not returned", q->id);
	irdma_qmem_free(c, m);
}

/* Pages and their description for a ring of @p size CQEs (shadow area allocated first). */
static int
irdma_cq_ring_alloc(struct irdma_ctrl *c, const struct irdma_cq *q, uint32_t size,
		    struct irdma_qmem *m, struct pbl_cq *p)
{
	size_t len = (size_t)size * IRDMA_CQE_SIZE;
	int ret;

	ret = irdma_qmem_alloc(c, m, len);
	if (ret == 0)
		ret = pbl_build_cq_levels(c->pble_pool, m->buf.va, len, q->shadow_mem.va,
					  irdma_ring_levels(c), p);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u: no ring of %u entries: %s", q->id, size,
			  strerror(-ret));
		irdma_qmem_free(c, m);
	}
	return ret;
}

static void
irdma_cq_free(struct irdma_ctrl *c, struct irdma_cq *q)
{
	irdma_cq_ring_free(c, q, &q->ring, &q->pbl);
	irdma_cq_ring_free(c, q, &q->old_ring, &q->old_pbl);
	irdma_dma_free(c, &q->shadow_mem);
	pthread_mutex_destroy(&q->flush_lock);
	free(q);
}

/* Where the ring is (CREATE / MODIFY_CQ: an IOVA or a level-1 run; DESTROY_CQ: the run). */
static void
irdma_cq_wqe_ring(struct irdma_cqp_wqe *w, const struct pbl_cq *p, bool with_pa)
{
	if (p->virtual_map) {
		irdma_set(w, CQP_CQ_VIRTMAP, 1);
		irdma_set(w, CQP_LPBLSIZE, IRDMA_PBL_CHUNK_L1);
		irdma_set(w, CQP_CQ_FIRST_PBLIDX, p->ring_addr);
	} else if (with_pa) {
		irdma_set(w, CQP_CQ_PA, p->ring_addr);
	}
}

/*
 * The fields CREATE_CQ and DESTROY_CQ share (doc/hardware.md §5.3: destroy repeats the CQ's size,
 * context, shadow area and CEQ binding, as the kernel's irdma_sc_cq_destroy does).
 */
static void
irdma_cq_wqe(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode opcode, const struct irdma_cq *q)
{
	irdma_cqp_wqe_init(w, opcode);
	irdma_set(w, CQP_CQ_ID, q->id);
	irdma_set(w, CQP_CQ_SIZE, q->cur.size);
	irdma_set(w, CQP_CQ_SHADOW_PA, q->shadow_mem.iova);
	irdma_set(w, CQP_CQ_CTX, (uint64_t)(uintptr_t)q >> 1);
	irdma_set(w, CQP_CQ_ENCEQEMASK, 1);
	irdma_set(w, CQP_CQ_CEQIDVALID, 1);
	irdma_set(w, CQP_CQ_CEQID, q->ceq_id);
	irdma_cq_wqe_ring(w, &q->pbl, opcode == IRDMA_CQP_OP_CREATE_CQ);
}

/*
 * Ring slots for @p cqe usable completions: one more for the overflow check (the kernel's
 * irdma_create_cq: entries + 1), doubled on gen2 and gen3 (this PMD uses 32-byte entries on
 * both), where a completion with immediate data, UD source details or an SRQ WQE is an
 * extended CQE that takes two 32-byte slots.
 */
static uint32_t
irdma_cq_ring_entries(const struct irdma_ctrl *c, uint32_t cqe)
{
	uint32_t size = cqe + 1;

	if (c->hw->gen >= 2)
		size *= 2;
	return RTE_MAX(size, IRDMA_MIN_USER_CQ_RING);
}

/* Completions a ring of @p size slots is guaranteed to hold (the inverse of the above). */
static uint32_t
irdma_cq_ring_cqe(const struct irdma_ctrl *c, uint32_t size)
{
	return (c->hw->gen >= 2 ? size / 2 : size) - 1;
}

int
irdma_cq_create(struct irdma_ctrl *c, struct rdmadev_cq *cq, const struct rdmadev_cq_attr *attr)
{
	uint32_t size, most = irdma_cq_ring_cqe(c, IRDMA_MAX_CQ_SIZE);
	struct irdma_cqp_wqe w;
	struct irdma_cq *q;
	int ret;

	/* A ring beyond IRDMA_MAX_CQ_SIZE slots: CREATE_CQ would fail (EIO); say why first. */
	if (attr->cqe > most) {
		IRDMA_LOG(ERR, c->hw, "CQ create: %u entries, at most %u (a ring of %u slots)",
			  attr->cqe, most, IRDMA_MAX_CQ_SIZE);
		return -EINVAL;
	}
	if (attr->comp_vector >= c->nb_ceqs) {
		IRDMA_LOG(ERR, c->hw, "CQ create: completion vector %u, the device has %u CEQs",
			  attr->comp_vector, c->nb_ceqs);
		return -EINVAL;
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		IRDMA_LOG(ERR, c->hw, "CQ create: no memory");
		return -ENOMEM;
	}
	q->ceq_id = attr->comp_vector;
	pthread_mutex_init(&q->flush_lock, NULL);
	q->id = rdmadev_obj_id(&cq->obj);
	q->hw = c->hw;
	q->service = c->hw->be->service;
	size = irdma_cq_ring_entries(c, attr->cqe);
	ret = irdma_dma_alloc(c, &q->shadow_mem, IRDMA_SHADOW_AREA_SIZE, IRDMA_SHADOW_AREA_ALIGN);
	if (ret == 0)
		ret = irdma_cq_ring_alloc(c, q, size, &q->ring, &q->pbl);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u: no memory for %u entries", q->id, size);
		irdma_cq_free(c, q);
		return ret;
	}
	q->cur.base = q->ring.buf.va;
	q->cur.size = size;
	q->cur.head = 0;
	q->cur.polarity = IRDMA_CQ_POLARITY_INIT;
	q->shadow = q->shadow_mem.va;
	irdma_cq_wqe(&w, IRDMA_CQP_OP_CREATE_CQ, q);
	irdma_set(&w, CQP_CQ_CHKOVERFLOW, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u create failed: %s", q->id, strerror(-ret));
		irdma_cq_free(c, q);
		return ret;
	}
	cq->cqe = irdma_cq_ring_cqe(c, size);
	if (cq->comp_cntr != NULL)
		q->comp_cntr = &cq->comp_cntr->value;
	q->rcq = cq;
	irdma_uk_cq_select(q);
	cq->obj.fp.drv = q;
	__atomic_fetch_add(&c->nb_cqs, 1, __ATOMIC_RELAXED);
	return 0;
}

/* CQEs the device wrote to @p r that SW has not read: valid entries from the head on. */
static uint32_t
irdma_cq_ring_pending(const struct irdma_cq_ring *r)
{
	uint32_t n, idx = r->head;
	uint8_t pol = r->polarity;
	const struct irdma_cqe *e;

	if (r->base == NULL)
		return 0;
	for (n = 0; n < r->size; n++) {
		e = (const struct irdma_cqe *)(r->base + (size_t)idx * IRDMA_CQE_SIZE);
		if (IRDMA_GET(CQE_VALID, irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(CQE_VALID)])) !=
		    pol)
			break;
		if (++idx == r->size) {
			idx = 0;
			pol ^= 1;
		}
	}
	return n;
}

int
irdma_cq_resize(struct irdma_ctrl *c, struct rdmadev_cq *cq, uint32_t cqe)
{
	struct irdma_cq *q = cq->obj.fp.drv;
	struct irdma_qmem mem;
	struct irdma_cqp_wqe w;
	struct pbl_cq p;
	uint32_t size, pending;
	int ret;

	size = irdma_cq_ring_entries(c, cqe);
	if (cqe > irdma_cq_ring_cqe(c, IRDMA_MAX_CQ_SIZE)) {
		IRDMA_LOG(ERR, c->hw, "CQ %u resize: %u entries, at most %u", q->id, cqe,
			  irdma_cq_ring_cqe(c, IRDMA_MAX_CQ_SIZE));
		return -EINVAL;
	}
	if (q->old.base != NULL) {
		IRDMA_LOG(ERR, c->hw, "CQ %u resize: the ring of the last resize is not drained",
			  q->id);
		return -EBUSY;
	}
	pending = irdma_cq_ring_pending(&q->cur);
	if (cqe < pending) {
		IRDMA_LOG(ERR, c->hw, "CQ %u resize: %u entries cannot hold the %u not yet polled",
			  q->id, cqe, pending);
		return -EINVAL;
	}
	/* The old ring of the last resize is drained: its memory can go now. */
	irdma_cq_ring_free(c, q, &q->old_ring, &q->old_pbl);
	ret = irdma_cq_ring_alloc(c, q, size, &mem, &p);
	if (ret != 0)
		return ret;
	/* doc/hardware.md §5.3 / the kernel's irdma_sc_cq_resize: no CEQ fields in MODIFY_CQ. */
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_MODIFY_CQ);
	irdma_set(&w, CQP_CQ_ID, q->id);
	irdma_set(&w, CQP_CQ_SIZE, size);
	irdma_set(&w, CQP_CQ_CTX, (uint64_t)(uintptr_t)q >> 1);
	irdma_cq_wqe_ring(&w, &p, true);
	irdma_set(&w, CQP_CQ_SHADOW_PA, q->shadow_mem.iova);
	irdma_set(&w, CQP_CQ_RESIZE, 1);
	irdma_set(&w, CQP_CQ_CHKOVERFLOW, 1);
	irdma_set(&w, CQP_CQ_ENCEQEMASK, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u resize to %u failed: %s", q->id, size,
			  strerror(-ret));
		irdma_cq_ring_free(c, q, &mem, &p);
		return ret;
	}
	/* The device writes only the new ring now; the old one keeps what is still unread. */
	q->old = q->cur;
	/* Counted again: the device may have written more before it switched rings. */
	if (irdma_cq_ring_pending(&q->old) == 0)
		q->old.base = NULL;
	irdma_uk_cq_select(q);
	q->old_ring = q->ring;
	q->old_pbl = q->pbl;
	q->ring = mem;
	q->pbl = p;
	q->cur.base = mem.buf.va;
	q->cur.size = size;
	q->cur.head = 0;
	q->cur.polarity = IRDMA_CQ_POLARITY_INIT;
	/* The consumer index the device checks overflow against restarts with the ring. */
	irdma_set((struct irdma_cq_shadow *)q->shadow, CQ_SHADOW_CQEIDX, 0);
	cq->cqe = irdma_cq_ring_cqe(c, size);
	return 0;
}

int
irdma_cq_destroy(struct irdma_ctrl *c, struct rdmadev_cq *cq)
{
	struct irdma_cq *q = cq->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cq_wqe(&w, IRDMA_CQP_OP_DESTROY_CQ, q);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u destroy failed: %s", q->id, strerror(-ret));
		return ret;
	}
	/* no CEQE read later may name the freed CQ */
	irdma_ceq_clean(c, q);
	irdma_cq_free(c, q);
	cq->obj.fp.drv = NULL;
	__atomic_fetch_sub(&c->nb_cqs, 1, __ATOMIC_RELAXED);
	return 0;
}
