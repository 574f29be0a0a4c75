/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * CQs of the irdma PMD: create and destroy through the CQP (fact sheet §5.3). The poll path
 * that reads the ring is irdma_uk.c; the CQ struct both share is in irdma_ctrl.h.
 *
 * Memory: the ring is one IOVA-contiguous DMA buffer (level 0), the shadow area a separate
 * 64-byte buffer aligned to 128 bytes (gen2 has the CQ-resize feature, so the kernel keeps the
 * shadow area apart from the ring).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_ctrl.h"

static void
irdma_cq_free(struct irdma_ctrl *c, struct irdma_cq *q)
{
	irdma_dma_free(c, &q->ring);
	irdma_dma_free(c, &q->old_ring);
	irdma_dma_free(c, &q->shadow_mem);
	free(q);
}

/*
 * The fields CREATE_CQ and DESTROY_CQ share (fact sheet §5.3: destroy repeats the CQ's size,
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
	irdma_set(w, CQP_CQ_CEQID, IRDMA_CTRL_CEQ0);
}

int
irdma_cq_create(struct irdma_ctrl *c, struct rdmadev_cq *cq, const struct rdmadev_cq_attr *attr)
{
	struct irdma_cqp_wqe w;
	struct irdma_cq *q;
	uint32_t size;
	int ret;

	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		IRDMA_LOG(ERR, c->hw, "CQ create: no memory");
		return -ENOMEM;
	}
	q->id = rdmadev_obj_id(&cq->obj);
	q->hw = c->hw;
	q->service = c->hw->be->service;
	/* One slot stays free for the overflow check (irdma_create_cq: entries + 1). */
	size = RTE_MAX(attr->cqe + 1, IRDMA_MIN_USER_CQ_RING);
	ret = irdma_dma_alloc(c, &q->ring, (size_t)size * IRDMA_CQE_SIZE, IRDMA_CTRL_RING_ALIGN);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &q->shadow_mem, IRDMA_SHADOW_AREA_SIZE,
				      IRDMA_SHADOW_AREA_ALIGN);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u: no DMA memory for %u entries", q->id, size);
		irdma_cq_free(c, q);
		return ret;
	}
	q->cur.base = q->ring.va;
	q->cur.size = size;
	q->cur.head = 0;
	q->cur.polarity = IRDMA_CQ_POLARITY_INIT;
	q->shadow = q->shadow_mem.va;
	irdma_cq_wqe(&w, IRDMA_CQP_OP_CREATE_CQ, q);
	irdma_set(&w, CQP_CQ_PA, q->ring.iova);
	irdma_set(&w, CQP_CQ_CHKOVERFLOW, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQ %u create failed: %s", q->id, strerror(-ret));
		irdma_cq_free(c, q);
		return ret;
	}
	cq->cqe = size - 1;
	if (cq->comp_cntr != NULL)
		q->comp_cntr = &cq->comp_cntr->value;
	cq->obj.fp.drv = q;
	__atomic_fetch_add(&c->nb_cqs, 1, __ATOMIC_RELAXED);
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
	irdma_cq_free(c, q);
	cq->obj.fp.drv = NULL;
	__atomic_fetch_sub(&c->nb_cqs, 1, __ATOMIC_RELAXED);
	return 0;
}
