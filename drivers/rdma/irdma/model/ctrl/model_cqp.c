/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The Control QP (doc/hardware.md §5): creation from the 64-byte host context, SQ fetch by
 * polarity, dispatch, and completion. Called with dev->lock held.
 *
 * Behaviour relied on by the driver:
 *  - SW starts with polarity 0 and flips it when it takes slot 0, so the first pass
 *    carries VALID = 1; the engine expects 1 on the first pass and flips on every wrap.
 *  - The engine fetches slots from its tail up to the head SW wrote to CQPDB and stops
 *    early at a slot whose VALID bit is not the expected polarity (not yet written).
 *  - Completion: CQPTAIL.WQTAIL advances past each executed WQE. Before the CCQ (CQ 0)
 *    exists, a failed WQE sets CQPTAIL.CQP_OP_ERR and CQPERRCODES (what
 *    irdma_cqp_poll_registers reads). Once the CCQ exists, each WQE gets a CCQ CQE:
 *    qw1 = the completion context from host-context qw3, WQEIDX = the slot, MAJERR /
 *    MINERR, ERROR when MAJERR is non-zero, OPRETVAL (irdma_sc_ccq_get_cqe_info).
 *    CQPERRCODES is updated on every failure (the kernel reads it for its log).
 */

#include "model_priv.h"

/* Opcodes defined on gen2 (doc/hardware.md §5.2); the SRQ ones are gen3 only. */
static const bool cqp_op_defined[IRDMA_MODEL_CQP_OPCODES] = {
	[IRDMA_CQP_OP_CREATE_QP] = true,
	[IRDMA_CQP_OP_MODIFY_QP] = true,
	[IRDMA_CQP_OP_DESTROY_QP] = true,
	[IRDMA_CQP_OP_CREATE_CQ] = true,
	[IRDMA_CQP_OP_MODIFY_CQ] = true,
	[IRDMA_CQP_OP_DESTROY_CQ] = true,
	[IRDMA_CQP_OP_ALLOC_STAG] = true,
	[IRDMA_CQP_OP_REG_MR] = true,
	[IRDMA_CQP_OP_QUERY_STAG] = true,
	[IRDMA_CQP_OP_REG_SMR] = true,
	[IRDMA_CQP_OP_DEALLOC_STAG] = true,
	[IRDMA_CQP_OP_MANAGE_LOC_MAC_TABLE] = true,
	[IRDMA_CQP_OP_MANAGE_ARP] = true,
	[IRDMA_CQP_OP_MANAGE_VF_PBLE_BP] = true,
	[IRDMA_CQP_OP_MANAGE_PUSH_PAGES] = true,
	[IRDMA_CQP_OP_QUERY_RDMA_FEATURES] = true,
	[IRDMA_CQP_OP_UPLOAD_CONTEXT] = true,
	[IRDMA_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY] = true,
	[IRDMA_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE] = true,
	[IRDMA_CQP_OP_CREATE_CEQ] = true,
	[IRDMA_CQP_OP_DESTROY_CEQ] = true,
	[IRDMA_CQP_OP_CREATE_AEQ] = true,
	[IRDMA_CQP_OP_DESTROY_AEQ] = true,
	[IRDMA_CQP_OP_CREATE_ADDR_HANDLE] = true,
	[IRDMA_CQP_OP_MODIFY_ADDR_HANDLE] = true,
	[IRDMA_CQP_OP_DESTROY_ADDR_HANDLE] = true,
	[IRDMA_CQP_OP_UPDATE_PE_SDS] = true,
	[IRDMA_CQP_OP_QUERY_FPM_VAL] = true,
	[IRDMA_CQP_OP_COMMIT_FPM_VAL] = true,
	[IRDMA_CQP_OP_FLUSH_WQES] = true,
	[IRDMA_CQP_OP_MANAGE_APBVT] = true,
	[IRDMA_CQP_OP_NOP] = true,
	[IRDMA_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY] = true,
	[IRDMA_CQP_OP_CREATE_MCAST_GRP] = true,
	[IRDMA_CQP_OP_MODIFY_MCAST_GRP] = true,
	[IRDMA_CQP_OP_DESTROY_MCAST_GRP] = true,
	[IRDMA_CQP_OP_SUSPEND_QP] = true,
	[IRDMA_CQP_OP_RESUME_QP] = true,
	[IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED] = true,
	[IRDMA_CQP_OP_WORK_SCHED_NODE] = true,
	[IRDMA_CQP_OP_MANAGE_STATS] = true,
	[IRDMA_CQP_OP_GATHER_STATS] = true,
	[IRDMA_CQP_OP_UP_MAP] = true,
};

void
model_res_fail(struct model_res *r, uint16_t major, uint16_t minor)
{
	/* The first error found is the one reported. */
	if (r->major != IRDMA_CQP_MAJ_NO_ERROR)
		return;
	r->major = major;
	r->minor = minor;
}

bool
model_refuse(struct model_res *r, uint16_t minor)
{
	if (minor == 0)
		return false;
	model_res_fail(r, IRDMA_CQP_MAJ_ERROR, minor);
	return true;
}

static uint32_t
cqp_errcodes(uint16_t major, uint16_t minor)
{
	return IRDMA_REG_PREP(CQPERRCODES_MAJOR, major) | IRDMA_REG_PREP(CQPERRCODES_MINOR, minor);
}

static void
cqp_create_fail(struct model_dev *d, uint16_t minor)
{
	d->ccqpstatus |= IRDMA_REG_PREP(CCQPSTATUS_ERR, 1);
	d->cqperrcodes = cqp_errcodes(IRDMA_CQP_MAJ_ERROR, minor);
	MODEL_INC(d, cqp_create_errors);
	MODEL_LOG(DEBUG, d, "CQP create refused: minor 0x%x", minor);
}

/* Validate the CQP host context at @p pa; 0 or a minor code. */
static uint16_t
cqp_ctx_check(struct model_dev *d, const struct irdma_cqp_ctx *ctx, uint32_t *size)
{
	uint32_t enc = irdma_get(ctx, CQPHC_SQSIZE);
	uint64_t sq = irdma_get(ctx, CQPHC_SQ_PA);
	uint32_t majver = d->cfg.gen == IRDMA_GEN_3 ? IRDMA_CQPHC_HW_MAJVER_GEN3 :
						     IRDMA_CQPHC_HW_MAJVER_GEN2;

	if (enc < irdma_cqp_encode_sq_size(IRDMA_CQP_SQ_MIN) ||
	    enc > irdma_cqp_encode_sq_size(IRDMA_CQP_SQ_MAX))
		return IRDMA_MODEL_MIN_BAD_SIZE;
	*size = UINT32_C(1) << (enc + 1);
	if ((sq & (IRDMA_CQP_SQ_ALIGN - 1)) != 0)
		return IRDMA_MODEL_MIN_BAD_ALIGN;
	if (model_dma_check(d, sq, (size_t)*size * IRDMA_CQP_WQE_SIZE) != 0)
		return IRDMA_MODEL_MIN_DMA_FAULT;
	/* The RDMA engine of this PF runs RoCEv2 only (the PMD never enables iWARP). */
	if (irdma_get(ctx, CQPHC_PROTOCOL_USED) != IRDMA_PROTOCOL_ROCE)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (irdma_get(ctx, CQPHC_HW_MAJVER) != majver)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	return 0;
}

/* CCQPLOW was written: create the CQP from the host context, or destroy it. */
void
model_cqp_ctl(struct model_dev *d)
{
	rte_iova_t pa = ((uint64_t)d->ccqp_high << 32) | d->ccqp_low;
	struct irdma_cqp_ctx ctx;
	uint32_t size = 0;
	uint16_t minor;

	if (pa == 0) {
		if (d->cqp.created)
			MODEL_INC(d, cqp_destroys);
		d->cqp.created = false;
		d->ccqpstatus = 0;
		return;
	}
	if (d->cqp.created) {
		cqp_create_fail(d, IRDMA_MODEL_MIN_BAD_STATE);
		return;
	}
	d->ccqpstatus = 0;
	/* No RDMA engine before the PE is ready (model_pf.c). */
	if (!model_pf_pe_ready(d)) {
		cqp_create_fail(d, IRDMA_MODEL_MIN_BAD_STATE);
		return;
	}
	if (model_dma_read(d, pa, &ctx, sizeof(ctx)) != 0) {
		cqp_create_fail(d, IRDMA_MODEL_MIN_DMA_FAULT);
		return;
	}
	minor = cqp_ctx_check(d, &ctx, &size);
	if (minor != 0) {
		cqp_create_fail(d, minor);
		return;
	}
	d->cqp.created = true;
	d->cqp.sq_pa = irdma_get(&ctx, CQPHC_SQ_PA);
	d->cqp.size = size;
	d->cqp.tail = 0;
	d->cqp.db_head = 0;
	d->cqp.polarity = !IRDMA_CQP_POLARITY_INIT;
	d->cqp.compl_ctx = irdma_get(&ctx, CQPHC_COMPL_CTX);
	model_cqp_capture_reset(d);
	d->cqp_op_err = false;
	d->cqperrcodes = 0;
	d->ccqpstatus = IRDMA_REG_PREP(CCQPSTATUS_DONE, 1);
	MODEL_INC(d, cqp_creates);
	MODEL_LOG(DEBUG, d, "CQP created: %u entries at 0x%" PRIx64, size, d->cqp.sq_pa);
}

/* Opcodes that exist but are not modelled (yet), and undefined ones. */
static void
cqp_op_unknown(struct model_dev *d, uint32_t op, struct model_res *r)
{
	bool defined = cqp_op_defined[op];

	if (op == IRDMA_CQP_OP_CREATE_SRQ || op == IRDMA_CQP_OP_MODIFY_SRQ ||
	    op == IRDMA_CQP_OP_DESTROY_SRQ)
		defined = d->cfg.gen >= IRDMA_GEN_3;
	model_res_fail(r, IRDMA_CQP_MAJ_ERROR,
		       defined ? IRDMA_MODEL_MIN_NOT_MODELED : IRDMA_MODEL_MIN_BAD_OPCODE);
}

/* The SRQ commands: gen3 only (BAD_OPCODE on gen2), model_srq.c. */
static void
cqp_op_srq(struct model_dev *d, uint32_t op, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	if (d->cfg.gen < IRDMA_GEN_3)
		cqp_op_unknown(d, op, r);
	else if (op == IRDMA_CQP_OP_CREATE_SRQ)
		model_op_create_srq(d, w, r);
	else if (op == IRDMA_CQP_OP_MODIFY_SRQ)
		model_op_modify_srq(d, w, r);
	else
		model_op_destroy_srq(d, w, r);
}

static void
cqp_execute(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t op = irdma_get(w, CQP_OPCODE);

	if (d->fault.count > 0 && d->fault.opcode == op && d->fault.skip > 0) {
		d->fault.skip--;
	} else if (d->fault.count > 0 && d->fault.opcode == op) {
		d->fault.count--;
		MODEL_INC(d, cqp_injected);
		model_res_fail(r, d->fault.major, d->fault.minor);
		return;
	}
	switch (op) {
	case IRDMA_CQP_OP_NOP:
		break;
	case IRDMA_CQP_OP_QUERY_FPM_VAL:
		model_op_query_fpm(d, w, r);
		break;
	case IRDMA_CQP_OP_COMMIT_FPM_VAL:
		model_op_commit_fpm(d, w, r);
		break;
	case IRDMA_CQP_OP_UPDATE_PE_SDS:
		model_op_update_sds(d, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_CQ:
		model_op_create_cq(d, w, r);
		break;
	case IRDMA_CQP_OP_DESTROY_CQ:
		model_op_destroy_cq(d, w, r);
		break;
	case IRDMA_CQP_OP_MODIFY_CQ:
		model_op_modify_cq(d, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_SRQ:
	case IRDMA_CQP_OP_MODIFY_SRQ:
	case IRDMA_CQP_OP_DESTROY_SRQ:
		cqp_op_srq(d, op, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_QP:
		model_op_create_qp(d, w, r);
		break;
	case IRDMA_CQP_OP_MODIFY_QP:
		model_op_modify_qp(d, w, r);
		break;
	case IRDMA_CQP_OP_DESTROY_QP:
		model_op_destroy_qp(d, w, r);
		break;
	case IRDMA_CQP_OP_FLUSH_WQES:
		model_op_flush_wqes(d, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_CEQ:
		model_op_create_ceq(d, w, r);
		break;
	case IRDMA_CQP_OP_DESTROY_CEQ:
		model_op_destroy_ceq(d, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_AEQ:
		model_op_create_aeq(d, w, r);
		break;
	case IRDMA_CQP_OP_DESTROY_AEQ:
		model_op_destroy_aeq(d, w, r);
		break;
	case IRDMA_CQP_OP_ALLOC_STAG:
		model_op_alloc_stag(d, w, r);
		break;
	case IRDMA_CQP_OP_REG_MR:
		model_op_reg_mr(d, w, r);
		break;
	case IRDMA_CQP_OP_DEALLOC_STAG:
		model_op_dealloc_stag(d, w, r);
		break;
	case IRDMA_CQP_OP_MANAGE_ARP:
		model_op_manage_arp(d, w, r);
		break;
	case IRDMA_CQP_OP_CREATE_ADDR_HANDLE:
		model_op_create_ah(d, w, r);
		break;
	case IRDMA_CQP_OP_DESTROY_ADDR_HANDLE:
		model_op_destroy_ah(d, w, r);
		break;
	case IRDMA_CQP_OP_MANAGE_STATS:
		model_op_manage_stats(d, w, r);
		break;
	case IRDMA_CQP_OP_GATHER_STATS:
		model_op_gather_stats(d, w, r);
		break;
	case IRDMA_CQP_OP_WORK_SCHED_NODE:
		model_op_ws_node(d, w, r);
		break;
	default:
		cqp_op_unknown(d, op, r);
		break;
	}
}

/* Report the outcome of the WQE in slot @p idx. */
static void
cqp_complete(struct model_dev *d, uint32_t idx, uint32_t op, const struct model_res *r)
{
	struct irdma_cqe cqe = { .qw = { 0 } };

	if (r->major != IRDMA_CQP_MAJ_NO_ERROR) {
		d->cqperrcodes = cqp_errcodes(r->major, r->minor);
		MODEL_INC(d, cqp_errors);
		MODEL_INC(d, cqp_op_refused[op]);
		MODEL_LOG(DEBUG, d, "CQP op 0x%x slot %u failed: major 0x%x minor 0x%x", op, idx,
			  r->major, r->minor);
	} else {
		MODEL_INC(d, cqp_op_done[op]);
	}
	if (!model_ccq_exists(d)) {
		if (r->major != IRDMA_CQP_MAJ_NO_ERROR)
			d->cqp_op_err = true;
		return;
	}
	irdma_set(&cqe, CQE_COMP_CTX, d->cqp.compl_ctx);
	irdma_set(&cqe, CCQ_OPRETVAL, r->retval);
	irdma_set(&cqe, CQE_MINERR, r->minor);
	irdma_set(&cqe, CQE_MAJERR, r->major);
	irdma_set(&cqe, CQE_ERROR, r->major != IRDMA_CQP_MAJ_NO_ERROR ? 1 : 0);
	irdma_set(&cqe, CQE_WQEIDX, idx);
	irdma_set(&cqe, CQE_SQ, 1);
	if (model_cq_post(d, IRDMA_CCQ_ID, &cqe) == 0)
		MODEL_INC(d, ccq_cqes);
}

void
model_cqp_process(struct model_dev *d)
{
	while (d->cqp.created && d->cqp.tail != d->cqp.db_head) {
		rte_iova_t slot = d->cqp.sq_pa + (uint64_t)d->cqp.tail * IRDMA_CQP_WQE_SIZE;
		struct model_res res = { 0 };
		struct irdma_cqp_wqe w;
		uint64_t hdr;
		uint32_t op;

		/* The header qword is SW's last store: check its polarity first. */
		if (model_dma_load64(d, slot + IRDMA_FIELD_BYTE(CQP_WQEVALID), &hdr) != 0 ||
		    model_dma_read(d, slot, &w, sizeof(w)) != 0) {
			/* SQ memory unmapped under the running CQP: the engine stalls. */
			MODEL_LOG(ERR, d, "CQP SQ slot %u not reachable; CQP stalled", d->cqp.tail);
			return;
		}
		if (IRDMA_GET(CQP_WQEVALID, hdr) != d->cqp.polarity) {
			MODEL_INC(d, cqp_wqe_not_valid);
			return;
		}
		w.qw[IRDMA_FIELD_QW(CQP_WQEVALID)] = rte_cpu_to_le_64(hdr);
		MODEL_INC(d, cqp_wqes);
		model_log_refresh(d);
		model_ctx_changed(d);
		model_cqp_capture_record(d, d->cqp.tail, &w);
		op = irdma_get(&w, CQP_OPCODE);
		cqp_execute(d, &w, &res);
		cqp_complete(d, d->cqp.tail, op, &res);
		if (++d->cqp.tail == d->cqp.size) {
			d->cqp.tail = 0;
			d->cqp.polarity ^= 1;
		}
	}
}
