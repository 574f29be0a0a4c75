/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Shared receive queues (gen3) of the irdma PMD: CREATE / MODIFY / DESTROY_SRQ through the
 * CQP (base/irdma_cqp_fmt.h CQP_SRQ_*), the SRQ asynchronous events and the LAST_WQE_REACHED
 * events of the QPs that use an SRQ. The post path is irdma_uk_srq.c.
 *
 * Memory: the ring is VA-contiguous 4 KB pages, given as an IOVA when IOVA-contiguous, else
 * as a level-1 PBLE run with VIRTMAP (as a CQ ring; level 1 always with ring_pbl=1); the
 * 64-byte shadow area (SW head in qword 0) is a separate buffer.
 *
 * Sizing follows the kernel's RQ rules (doc/hardware.md §2): shift from max_sge, depth
 * round_up_pow2((max_wr << shift) + IRDMA_RQ_RSVD) quanta, at least 8 WQEs, at most
 * IRDMA_GEN3_MAX_SRQ_QUANTA; the ring holds depth >> shift WQEs and max_wr becomes
 * (depth - IRDMA_RQ_RSVD) >> shift.
 *
 * The limit: armed at create (srq_limit != 0) or by modify; the device raises
 * IRDMA_AE_SRQ_LIMIT once when fewer WQEs than the limit are posted and disarms; the AE
 * becomes RDMADEV_EVENT_SRQ_LIMIT and the driver's copy of the limit goes to 0.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_log.h"
#include "irdma_srq.h"

/* Alignment of struct irdma_srq: the CQP_SRQ_CTX value keeps its low 6 bits zero. */
#define IRDMA_SRQ_STRUCT_ALIGN	64u

static void
irdma_srq_free(struct irdma_ctrl *c, struct irdma_srq *s)
{
	if (pbl_cq_free(&s->pbl) != 0)
		IRDMA_LOG(ERR, c->hw, "SRQ %u: PBLEs not returned", s->srq_id);
	irdma_qmem_free(c, &s->ring);
	irdma_dma_free(c, &s->shadow_mem);
	free(s);
}

/* The fields every SRQ command carries: id, PD, sizes, ring, shadow area, context. */
static void
irdma_srq_wqe(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, const struct irdma_srq *s)
{
	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_SRQ_ID, s->srq_id);
	irdma_set(w, CQP_SRQ_PD_ID, s->pd_id);
	irdma_set(w, CQP_SRQ_RQSIZE, irdma_encode_srq_size(s->size << s->shift));
	irdma_set(w, CQP_SRQ_RQ_WQE_SIZE, s->shift);
	irdma_set(w, CQP_SRQ_CTX, (uint64_t)(uintptr_t)s);
	irdma_set(w, CQP_SRQ_SHADOW_PA, s->shadow_mem.iova);
	if (s->pbl.virtual_map) {
		irdma_set(w, CQP_SRQ_VIRTMAP, 1);
		irdma_set(w, CQP_SRQ_LEAF_PBL_SIZE, IRDMA_PBL_CHUNK_L1);
		irdma_set(w, CQP_SRQ_FIRST_PBLIDX, s->pbl.ring_addr);
	} else {
		irdma_set(w, CQP_SRQ_PA, s->pbl.ring_addr);
	}
}

/* The limit fields of CREATE / MODIFY_SRQ. */
static void
irdma_srq_wqe_limit(struct irdma_cqp_wqe *w, uint32_t limit)
{
	irdma_set(w, CQP_SRQ_LIMIT, limit);
	irdma_set(w, CQP_SRQ_ARM_LIMIT_EVENT, limit != 0 ? 1 : 0);
}

/* Ring size and shift for @p attr; -EINVAL beyond the device. */
static int
irdma_srq_size(struct irdma_ctrl *c, const struct rdmadev_srq_attr *attr, uint32_t *quanta,
	       uint32_t *shift)
{
	if (attr->max_sge > IRDMA_MAX_SGE || attr->max_wr > IRDMA_GEN3_MAX_SRQ_WR ||
	    attr->srq_limit > IRDMA_FIELD_MAX(CQP_SRQ_LIMIT)) {
		IRDMA_LOG(ERR, c->hw, "SRQ create: %u WRs / %u SGEs / limit %u beyond %u / %u / %"
			  PRIu64, attr->max_wr, attr->max_sge, attr->srq_limit,
			  IRDMA_GEN3_MAX_SRQ_WR, IRDMA_MAX_SGE, IRDMA_FIELD_MAX(CQP_SRQ_LIMIT));
		return -EINVAL;
	}
	*shift = irdma_wqe_shift(attr->max_sge, 0);
	*quanta = irdma_wq_depth(attr->max_wr, *shift, IRDMA_RQ_RSVD);
	if (*quanta > IRDMA_GEN3_MAX_SRQ_QUANTA) {
		IRDMA_LOG(ERR, c->hw, "SRQ create: %u quanta beyond %u", *quanta,
			  IRDMA_GEN3_MAX_SRQ_QUANTA);
		return -EINVAL;
	}
	return 0;
}

int
irdma_srq_create(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		 const struct rdmadev_srq_attr *attr)
{
	struct irdma_cqp_wqe w;
	struct irdma_srq *s;
	uint32_t quanta, shift;
	size_t len;
	int ret;

	if (c->hw->gen < IRDMA_GEN_3 || c->req.srqs == 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ create: gen %u has no SRQ", c->hw->gen);
		return -ENOTSUP;
	}
	ret = irdma_srq_size(c, attr, &quanta, &shift);
	if (ret != 0)
		return ret;
	if (posix_memalign((void **)&s, IRDMA_SRQ_STRUCT_ALIGN, sizeof(*s)) != 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ create: no memory");
		return -ENOMEM;
	}
	memset(s, 0, sizeof(*s));
	s->srq_id = rdmadev_obj_id(&srq->obj);
	s->pd_id = rdmadev_obj_id(&srq->pd->obj);
	s->hw = c->hw;
	s->gen = c->hw->gen;
	s->shift = (uint8_t)shift;
	s->size = quanta >> shift;
	s->max_wr = (quanta - IRDMA_RQ_RSVD) >> shift;
	s->max_sge = (uint8_t)attr->max_sge;
	s->polarity = IRDMA_WQ_POLARITY_INIT;
	len = (size_t)quanta * IRDMA_QUANTUM_SIZE;
	ret = irdma_dma_alloc(c, &s->shadow_mem, IRDMA_SHADOW_AREA_SIZE, IRDMA_SHADOW_AREA_ALIGN);
	if (ret == 0)
		ret = irdma_qmem_alloc(c, &s->ring, len);
	if (ret == 0)
		ret = pbl_build_cq_levels(c->pble_pool, s->ring.buf.va, len, s->shadow_mem.va,
					  irdma_ring_levels(c), &s->pbl);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ %u: no ring memory or PBLEs (%zu bytes): %s",
			  s->srq_id, len, strerror(-ret));
		irdma_srq_free(c, s);
		return ret;
	}
	s->base = s->ring.buf.va;
	s->shadow = s->shadow_mem.va;
	irdma_srq_wqe(&w, IRDMA_CQP_OP_CREATE_SRQ, s);
	irdma_srq_wqe_limit(&w, attr->srq_limit);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ %u create failed: %s", s->srq_id, strerror(-ret));
		irdma_srq_free(c, s);
		return ret;
	}
	s->limit = attr->srq_limit;
	srq->attr.max_wr = s->max_wr;
	srq->obj.fp.drv = s;
	IRDMA_LOG(DEBUG, c->hw, "SRQ %u: %u WQEs of %u bytes, limit %u", s->srq_id, s->size,
		  IRDMA_QUANTUM_SIZE << shift, s->limit);
	return 0;
}

int
irdma_srq_modify(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		 const struct rdmadev_srq_attr *attr, uint32_t mask)
{
	struct irdma_srq *s = srq->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	if (mask & RDMADEV_SRQ_MAX_WR) {
		IRDMA_LOG(ERR, c->hw, "SRQ %u: resize is not supported", s->srq_id);
		return -ENOTSUP;
	}
	irdma_srq_wqe(&w, IRDMA_CQP_OP_MODIFY_SRQ, s);
	irdma_srq_wqe_limit(&w, attr->srq_limit);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ %u: MODIFY_SRQ (limit %u) failed: %s", s->srq_id,
			  attr->srq_limit, strerror(-ret));
		return ret;
	}
	/* relaxed: the event thread only clears it; query reads a snapshot */
	__atomic_store_n(&s->limit, attr->srq_limit, __ATOMIC_RELAXED);
	srq->attr.srq_limit = attr->srq_limit;
	return 0;
}

void
irdma_srq_query(struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr)
{
	const struct irdma_srq *s = srq->obj.fp.drv;

	attr->max_wr = s->max_wr;
	attr->srq_limit = __atomic_load_n(&s->limit, __ATOMIC_RELAXED);
}

int
irdma_srq_destroy(struct irdma_ctrl *c, struct rdmadev_srq *srq)
{
	struct irdma_srq *s = srq->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	irdma_srq_wqe(&w, IRDMA_CQP_OP_DESTROY_SRQ, s);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "SRQ %u destroy failed: %s", s->srq_id, strerror(-ret));
		return ret;
	}
	irdma_srq_free(c, s);
	srq->obj.fp.drv = NULL;
	return 0;
}

/* ---- events ---- */

bool
irdma_event_srq(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a)
{
	struct rdmadev_event ev = { .obj_id = a->id, .vendor_code = a->ae };
	struct rdmadev_obj *obj;
	struct irdma_srq *s;

	if (a->ae == IRDMA_AE_SRQ_LIMIT)
		ev.type = RDMADEV_EVENT_SRQ_LIMIT;
	else if (a->ae == IRDMA_AE_SRQ_CATASTROPHIC_ERROR)
		ev.type = RDMADEV_EVENT_SRQ_ERR;
	else
		return false;
	obj = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_SRQ, a->id);
	if (obj == NULL) {
		IRDMA_LOG(DEBUG, c->hw, "AE 0x%x for SRQ %u dropped: no such SRQ", a->ae, a->id);
		return true;
	}
	s = obj->fp.drv;
	if (s == NULL || a->compctx != (uint64_t)(uintptr_t)s) {
		IRDMA_LOG(WARNING, c->hw, "AE 0x%x for SRQ %u dropped: context 0x%" PRIx64
			  " is not this SRQ's", a->ae, a->id, a->compctx);
		rdmadev_obj_put(obj);
		return true;
	}
	if (ev.type == RDMADEV_EVENT_SRQ_LIMIT) {
		/* The device disarmed the limit when it raised the event. */
		__atomic_store_n(&s->limit, 0, __ATOMIC_RELAXED);
		IRDMA_LOG(INFO, c->hw, "SRQ %u: below its limit", a->id);
	} else {
		IRDMA_LOG(ERR, c->hw, "SRQ %u: catastrophic error (AE 0x%x)", a->id, a->ae);
	}
	ev.srq = container_of(obj, struct rdmadev_srq, obj);
	(void)rdmadev_event_report(dev, &ev);
	rdmadev_obj_put(obj);
	return true;
}

void
irdma_srq_last_wqe_note(struct irdma_ctrl *c, uint32_t qp_id)
{
	bool full;

	rte_spinlock_lock(&c->last_wqe_lock);
	full = c->nb_last_wqe == IRDMA_LAST_WQE_PENDING;
	if (!full)
		c->last_wqe[c->nb_last_wqe++] = qp_id;
	rte_spinlock_unlock(&c->last_wqe_lock);
	if (full)
		IRDMA_LOG(WARNING, c->hw, "QP %u: LAST_WQE_REACHED dropped: %u events pending",
			  qp_id, IRDMA_LAST_WQE_PENDING);
}

void
irdma_srq_last_wqe_report(struct irdma_ctrl *c, struct rdmadev *dev)
{
	uint32_t ids[IRDMA_LAST_WQE_PENDING];
	uint32_t n, i;

	rte_spinlock_lock(&c->last_wqe_lock);
	n = c->nb_last_wqe;
	memcpy(ids, c->last_wqe, n * sizeof(ids[0]));
	c->nb_last_wqe = 0;
	rte_spinlock_unlock(&c->last_wqe_lock);
	for (i = 0; i < n; i++) {
		struct rdmadev_event ev = {
			.type = RDMADEV_EVENT_QP_LAST_WQE_REACHED, .obj_id = ids[i],
		};
		struct rdmadev_obj *obj = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP, ids[i]);

		/* A QP destroyed since has nothing left to report. */
		if (obj == NULL)
			continue;
		ev.qp = container_of(obj, struct rdmadev_qp, obj);
		(void)rdmadev_event_report(dev, &ev);
		rdmadev_obj_put(obj);
	}
}
