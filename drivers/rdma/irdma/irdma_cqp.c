/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The control QP and the control CQ (doc/hardware.md §5; the kernel's irdma_sc_cqp_init,
 * irdma_sc_cqp_create, irdma_sc_cqp_post_sq, irdma_sc_poll_for_cqp_op_done,
 * irdma_sc_ccq_create, irdma_sc_ccq_destroy): create and destroy through the registers,
 * submit one WQE at a time (header qword last, behind a write barrier), wait for it on
 * CQPTAIL before the CCQ exists and on the CCQ after.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_log.h"

/* ---- CQP ---- */

int
irdma_cqp_errno(uint16_t major, uint16_t minor)
{
	switch (major) {
	case IRDMA_CQP_MAJ_NO_ERROR:
		return 0;
	case IRDMA_CQP_MAJ_OBJCACHE_ERROR:
	case IRDMA_CQP_MAJ_CNTXTCACHE_ERROR:
		return -EFAULT;
	case IRDMA_CQP_MAJ_ERROR:
		/* the kernel's irdma_wait_event: in use (a window bound to a region) */
		return minor == IRDMA_CQP_MIN_BUSY ? -EBUSY : -EIO;
	default:
		return -EIO;
	}
}

static void
irdma_cqp_ctx_fill(struct irdma_ctrl *c, struct irdma_cqp_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	irdma_set(ctx, CQPHC_SQSIZE, irdma_cqp_encode_sq_size(c->cqp.size));
	irdma_set(ctx, CQPHC_PROTOCOL_USED, IRDMA_PROTOCOL_ROCE);
	irdma_set(ctx, CQPHC_SQ_PA, c->cqp.sq.iova);
	irdma_set(ctx, CQPHC_HMC_PROFILE, IRDMA_HMC_PROFILE_DEFAULT);
	irdma_set(ctx, CQPHC_COMPL_CTX, c->cqp.compl_ctx);
	irdma_set(ctx, CQPHC_HW_MAJVER, c->hw->gen >= 3 ? IRDMA_CQPHC_HW_MAJVER_GEN3 :
							  IRDMA_CQPHC_HW_MAJVER_GEN2);
}

/* Trigger CQP create (irdma_sc_cqp_init + irdma_sc_cqp_create) and wait for the status. */
static int
irdma_cqp_create_hw(struct irdma_ctrl *c)
{
	uint64_t deadline = irdma_ctrl_deadline();
	uint32_t st, err;

	irdma_wr32(c->hw, IRDMA_PFPE_CQPTAIL, 0);
	irdma_wr32(c->hw, IRDMA_PFPE_CQPDB, 0);
	irdma_wr32(c->hw, IRDMA_PFPE_CCQPSTATUS, 0);
	irdma_wr32(c->hw, IRDMA_PFPE_CCQPHIGH, (uint32_t)(c->cqp.ctx.iova >> 32));
	irdma_wr32(c->hw, IRDMA_PFPE_CCQPLOW, (uint32_t)c->cqp.ctx.iova);
	for (;;) {
		st = irdma_rd32(c->hw, IRDMA_PFPE_CCQPSTATUS);
		if (IRDMA_REG_GET(CCQPSTATUS_ERR, st)) {
			err = irdma_rd32(c->hw, IRDMA_PFPE_CQPERRCODES);
			IRDMA_LOG(ERR, c->hw, "CQP create refused: major 0x%x minor 0x%x",
				  IRDMA_REG_GET(CQPERRCODES_MAJOR, err),
				  IRDMA_REG_GET(CQPERRCODES_MINOR, err));
			return -EIO;
		}
		if (IRDMA_REG_GET(CCQPSTATUS_DONE, st))
			return 0;
		if (irdma_ctrl_expired(deadline))
			break;
		irdma_hw_service(c->hw);
		irdma_hw_poll_relax(c->hw);
	}
	IRDMA_LOG(ERR, c->hw, "CQP create: no status after %u ms", IRDMA_CTRL_TIMEOUT_MS);
	return -ETIMEDOUT;
}

int
irdma_cqp_create(struct irdma_ctrl *c)
{
	struct irdma_cqp *cqp = &c->cqp;
	int ret;

	cqp->size = IRDMA_CTRL_CQP_SIZE;
	cqp->head = 0;
	cqp->polarity = IRDMA_CQP_POLARITY_INIT;
	cqp->compl_ctx = (uint64_t)(uintptr_t)cqp;
	cqp->hung = false;
	ret = irdma_dma_alloc(c, &cqp->ctx, IRDMA_CQP_CTX_SIZE, IRDMA_CQP_SQ_ALIGN);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &cqp->sq, (size_t)cqp->size * IRDMA_CQP_WQE_SIZE,
				      IRDMA_HW_PAGE_SIZE);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CQP memory: %s", strerror(-ret));
		goto fail;
	}
	irdma_cqp_ctx_fill(c, cqp->ctx.va);
	ret = irdma_cqp_create_hw(c);
	if (ret != 0)
		goto fail;
	cqp->created = true;
	return 0;
fail:
	irdma_dma_free(c, &cqp->sq);
	irdma_dma_free(c, &cqp->ctx);
	return ret;
}

void
irdma_cqp_destroy(struct irdma_ctrl *c)
{
	uint64_t deadline = irdma_ctrl_deadline();
	bool done = false;

	if (c->cqp.created) {
		irdma_wr32(c->hw, IRDMA_PFPE_CCQPHIGH, 0);
		irdma_wr32(c->hw, IRDMA_PFPE_CCQPLOW, 0);
		for (;;) {
			irdma_hw_service(c->hw);
			done = !IRDMA_REG_GET(CCQPSTATUS_DONE,
					      irdma_rd32(c->hw, IRDMA_PFPE_CCQPSTATUS));
			if (done || irdma_ctrl_expired(deadline))
				break;
			irdma_hw_poll_relax(c->hw);
		}
		if (!done)
			IRDMA_LOG(ERR, c->hw, "CQP destroy: status still DONE after %u ms",
				  IRDMA_CTRL_TIMEOUT_MS);
		c->cqp.created = false;
	}
	irdma_dma_free(c, &c->cqp.sq);
	irdma_dma_free(c, &c->cqp.ctx);
}

void
irdma_cqp_wqe_init(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op)
{
	memset(w, 0, sizeof(*w));
	irdma_set(w, CQP_OPCODE, op);
}

/* Copy @p w into the next SQ slot, header qword last behind a write barrier. */
static uint32_t
irdma_cqp_post(struct irdma_cqp *cqp, const struct irdma_cqp_wqe *w)
{
	const unsigned int hq = IRDMA_FIELD_QW(CQP_WQEVALID);
	struct irdma_cqp_wqe *slot = (struct irdma_cqp_wqe *)(void *)
		((uint8_t *)cqp->sq.va + (size_t)cqp->head * IRDMA_CQP_WQE_SIZE);
	uint64_t hdr = irdma_qw_get(&w->qw[hq]);
	uint32_t idx = cqp->head;
	unsigned int q;

	/* SW polarity flips whenever slot 0 is taken (irdma_sc_cqp_get_next_send_wqe_idx). */
	if (idx == 0)
		cqp->polarity ^= 1;
	for (q = 0; q < RTE_DIM(w->qw); q++)
		if (q != hq)
			slot->qw[q] = w->qw[q];
	hdr = (hdr & ~IRDMA_FIELD_MASK(CQP_WQEVALID)) | IRDMA_PREP(CQP_WQEVALID, cqp->polarity);
	/* One 64-bit release store: the write barrier before the header (dma_wmb). */
	__atomic_store_n(&slot->qw[hq], rte_cpu_to_le_64(hdr), __ATOMIC_RELEASE);
	cqp->head = (cqp->head + 1) % cqp->size;
	return idx;
}

/* The engine's tail reached SW's head; *err set when the last command failed. */
static bool
irdma_cqp_tail_done(struct irdma_ctrl *c, bool *err)
{
	uint32_t v = irdma_rd32(c->hw, IRDMA_PFPE_CQPTAIL);

	*err = IRDMA_REG_GET(CQPTAIL_CQP_OP_ERR, v) != 0;
	return IRDMA_REG_GET(CQPTAIL_WQTAIL, v) == c->cqp.head;
}

/* Read CQPERRCODES into @p r. */
static void
irdma_cqp_read_err(struct irdma_ctrl *c, struct irdma_cqp_cmpl *r)
{
	uint32_t e = irdma_rd32(c->hw, IRDMA_PFPE_CQPERRCODES);

	r->major = (uint16_t)IRDMA_REG_GET(CQPERRCODES_MAJOR, e);
	r->minor = (uint16_t)IRDMA_REG_GET(CQPERRCODES_MINOR, e);
}

/* Wait until the engine's tail reaches SW's head; pick up CQP_OP_ERR codes. */
static int
irdma_cqp_wait_regs(struct irdma_ctrl *c, struct irdma_cqp_cmpl *r)
{
	uint64_t deadline = irdma_ctrl_deadline();
	bool err;

	for (;;) {
		irdma_hw_service(c->hw);
		if (irdma_cqp_tail_done(c, &err))
			break;
		if (irdma_ctrl_expired(deadline))
			return -ETIMEDOUT;
		irdma_hw_poll_relax(c->hw);
	}
	if (err)
		irdma_cqp_read_err(c, r);
	return 0;
}

/* The CCQ CQE at SW's head is valid: return its header. */
static bool
irdma_ccq_peek(struct irdma_ctrl_cq *cq, uint64_t *hdr)
{
	const struct irdma_cqe *cqe = (const struct irdma_cqe *)(const void *)
		((const uint8_t *)cq->ring.va + (size_t)cq->head * IRDMA_CQE_SIZE);

	/* One 64-bit acquire load: the CQE body is read after its valid bit. */
	*hdr = rte_le_to_cpu_64(__atomic_load_n(&cqe->qw[IRDMA_FIELD_QW(CQE_VALID)],
						__ATOMIC_ACQUIRE));
	return IRDMA_GET(CQE_VALID, *hdr) == cq->polarity;
}

/* Consume the valid CQE at SW's head and publish the new head in the shadow area. */
static int
irdma_ccq_consume(struct irdma_ctrl *c, uint64_t hdr, uint32_t idx, struct irdma_cqp_cmpl *r)
{
	struct irdma_ctrl_cq *cq = &c->ccq;
	const struct irdma_cqe *cqe = (const struct irdma_cqe *)(const void *)
		((const uint8_t *)cq->ring.va + (size_t)cq->head * IRDMA_CQE_SIZE);
	struct irdma_cq_shadow *sh = cq->shadow.va;
	uint64_t ctx;

	if (IRDMA_GET(CQE_ERROR, hdr)) {
		r->major = (uint16_t)IRDMA_GET(CQE_MAJERR, hdr);
		r->minor = (uint16_t)IRDMA_GET(CQE_MINERR, hdr);
	}
	r->op_ret = (uint32_t)irdma_get(cqe, CCQ_OPRETVAL);
	ctx = irdma_get(cqe, CQE_COMP_CTX);
	if (++cq->head == cq->size) {
		cq->head = 0;
		cq->polarity ^= 1;
	}
	__atomic_store_n(&sh->qw[IRDMA_FIELD_QW(CQ_SHADOW_CQEIDX)],
			 rte_cpu_to_le_64(IRDMA_PREP(CQ_SHADOW_CQEIDX, cq->head)), __ATOMIC_RELEASE);
	if (IRDMA_GET(CQE_WQEIDX, hdr) != idx || ctx != c->cqp.compl_ctx) {
		IRDMA_LOG(ERR, c->hw, "CCQ CQE for WQE %u, expected %u",
			  (unsigned int)IRDMA_GET(CQE_WQEIDX, hdr), idx);
		return -EPROTO;
	}
	return 0;
}

/*
 * Wait for the CCQ CQE of WQE @p idx. With @p or_regs (the CCQ's own CREATE_CQ), a refused
 * create has no CCQ to complete on: it shows as CQPTAIL reaching the head with CQP_OP_ERR.
 */
static int
irdma_cqp_wait_ccq(struct irdma_ctrl *c, uint32_t idx, bool or_regs, struct irdma_cqp_cmpl *r)
{
	uint64_t deadline = irdma_ctrl_deadline();
	uint64_t hdr;
	bool err;

	for (;;) {
		irdma_hw_service(c->hw);
		if (irdma_ccq_peek(&c->ccq, &hdr))
			return irdma_ccq_consume(c, hdr, idx, r);
		if (or_regs && irdma_cqp_tail_done(c, &err) && err) {
			irdma_cqp_read_err(c, r);
			return 0;
		}
		if (irdma_ctrl_expired(deadline))
			return -ETIMEDOUT;
		irdma_hw_poll_relax(c->hw);
	}
}

/*
 * A CQP command after a device reset (c->fatal): the device lost every object, so the ones
 * that create or change something fail with -EIO and the rest (destroys, flushes, teardown)
 * succeed without touching the device, so that stop and close free everything. The kernel's
 * irdma_handle_cqp_op does the same while rf->reset is set.
 */
static int
irdma_cqp_fatal(struct irdma_ctrl *c, uint32_t op)
{
	switch (op) {
	case IRDMA_CQP_OP_CREATE_QP:
	case IRDMA_CQP_OP_MODIFY_QP:
	case IRDMA_CQP_OP_CREATE_CQ:
	case IRDMA_CQP_OP_MODIFY_CQ:
	case IRDMA_CQP_OP_CREATE_SRQ:
	case IRDMA_CQP_OP_MODIFY_SRQ:
	case IRDMA_CQP_OP_ALLOC_STAG:
	case IRDMA_CQP_OP_REG_MR:
	case IRDMA_CQP_OP_CREATE_ADDR_HANDLE:
	case IRDMA_CQP_OP_CREATE_MCAST_GRP:
		IRDMA_LOG(ERR, c->hw, "CQP op 0x%x refused: the device was reset (stop and "
			  "start it)", op);
		return -EIO;
	default:
		IRDMA_LOG(DEBUG, c->hw, "CQP op 0x%x skipped: the device was reset", op);
		return 0;
	}
}

int
irdma_cqp_exec_mode(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w,
		    enum irdma_cqp_wait mode, struct irdma_cqp_cmpl *cmpl)
{
	struct irdma_cqp_cmpl r = { 0 };
	uint32_t op = (uint32_t)irdma_get(w, CQP_OPCODE);
	uint32_t idx;
	int ret;

	if (!c->cqp.created) {
		IRDMA_LOG(ERR, c->hw, "CQP op 0x%x: no CQP", op);
		return -ENODEV;
	}
	if (__atomic_load_n(&c->fatal, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&c->reset_seen, __ATOMIC_ACQUIRE))
		return irdma_cqp_fatal(c, op);
	if (__atomic_load_n(&c->cqp.hung, __ATOMIC_ACQUIRE)) {
		IRDMA_LOG(ERR, c->hw, "CQP op 0x%x refused: an earlier command timed out", op);
		return -EIO;
	}
	pthread_mutex_lock(&c->cqp.lock);
	idx = irdma_cqp_post(&c->cqp, w);
	irdma_wr32(c->hw, IRDMA_PFPE_CQPDB, c->cqp.head);
	if (mode == IRDMA_CQP_WAIT_REGS)
		ret = irdma_cqp_wait_regs(c, &r);
	else
		ret = irdma_cqp_wait_ccq(c, idx, mode == IRDMA_CQP_WAIT_CCQ_CREATE, &r);
	/* No completion because the device was reset (a function-level reset during a destroy,
	 * before any event pass saw it): the command is one after a reset, not a hung CQP. */
	if (ret == -ETIMEDOUT && irdma_pf_reset_seen(c)) {
		pthread_mutex_unlock(&c->cqp.lock);
		return irdma_cqp_fatal(c, op);
	}
	if (ret == -ETIMEDOUT)
		__atomic_store_n(&c->cqp.hung, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&c->cqp.lock);
	if (ret == -ETIMEDOUT)
		IRDMA_LOG(ERR, c->hw, "CQP op 0x%x (WQE %u): no completion after %u ms", op, idx,
			  IRDMA_CTRL_TIMEOUT_MS);
	if (ret == 0 && r.major != IRDMA_CQP_MAJ_NO_ERROR) {
		ret = irdma_cqp_errno(r.major, r.minor);
		IRDMA_LOG(ERR, c->hw, "CQP op 0x%x (WQE %u) failed: major 0x%x minor 0x%x (%s)",
			  op, idx, r.major, r.minor, strerror(-ret));
	}
	if (cmpl != NULL)
		*cmpl = r;
	return ret;
}

int
irdma_cqp_exec(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w,
	       struct irdma_cqp_cmpl *cmpl)
{
	return irdma_cqp_exec_mode(c, w, c->ccq.created ? IRDMA_CQP_WAIT_CCQ :
							  IRDMA_CQP_WAIT_REGS, cmpl);
}

/* ---- CCQ ---- */

static void
irdma_ccq_free(struct irdma_ctrl *c)
{
	irdma_dma_free(c, &c->ccq.ring);
	irdma_dma_free(c, &c->ccq.shadow);
}

/* The CCQ is CQ 0, overflow-checked, reporting to CEQ0; its own CREATE_CQ completes on it. */
int
irdma_ccq_create(struct irdma_ctrl *c)
{
	struct irdma_ctrl_cq *cq = &c->ccq;
	struct irdma_cqp_wqe w;
	int ret;

	cq->size = IRDMA_CTRL_CCQ_SIZE;
	cq->head = 0;
	cq->polarity = IRDMA_CQ_POLARITY_INIT;
	ret = irdma_dma_alloc(c, &cq->ring, (size_t)cq->size * IRDMA_CQE_SIZE,
			      IRDMA_HW_PAGE_SIZE);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &cq->shadow, IRDMA_SHADOW_AREA_SIZE,
				      IRDMA_SHADOW_AREA_ALIGN);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CCQ memory: %s", strerror(-ret));
		irdma_ccq_free(c);
		return ret;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_CREATE_CQ);
	irdma_set(&w, CQP_CQ_ID, IRDMA_CCQ_ID);
	irdma_set(&w, CQP_CQ_SIZE, cq->size);
	irdma_set(&w, CQP_CQ_PA, cq->ring.iova);
	irdma_set(&w, CQP_CQ_SHADOW_PA, cq->shadow.iova);
	irdma_set(&w, CQP_CQ_CTX, (uint64_t)(uintptr_t)cq >> 1);
	irdma_set(&w, CQP_CQ_CHKOVERFLOW, 1);
	irdma_set(&w, CQP_CQ_ENCEQEMASK, 1);
	irdma_set(&w, CQP_CQ_CEQIDVALID, 1);
	irdma_set(&w, CQP_CQ_CEQID, IRDMA_CTRL_CEQ0);
	ret = irdma_cqp_exec_mode(c, &w, IRDMA_CQP_WAIT_CCQ_CREATE, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CCQ create failed: %s", strerror(-ret));
		irdma_ccq_free(c);
		return ret;
	}
	cq->created = true;
	return 0;
}

/* The CCQ's DESTROY_CQ completes through the registers (irdma_sc_ccq_destroy). */
void
irdma_ccq_destroy(struct irdma_ctrl *c)
{
	struct irdma_cqp_wqe w;

	if (c->ccq.created) {
		irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DESTROY_CQ);
		irdma_set(&w, CQP_CQ_ID, IRDMA_CCQ_ID);
		c->ccq.created = false;
		if (irdma_cqp_exec_mode(c, &w, IRDMA_CQP_WAIT_REGS, NULL) != 0)
			IRDMA_LOG(ERR, c->hw, "CCQ destroy failed");
	}
	irdma_ccq_free(c);
}
