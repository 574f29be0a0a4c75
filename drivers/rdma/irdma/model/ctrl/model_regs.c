/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The gen2 PF register file (doc/hardware.md §4.3). Called with dev->lock held.
 *
 * Behaviour relied on by the driver:
 *  - GLPE_CPUSTATUS0/1/2 read IRDMA_CPUSTATUS_READY once firmware is up
 *    (cfg.fw_ready_reads reads of CPUSTATUS0 after creation; 0 = at once).
 *  - GLPCI_LBARCTRL.PE_DB_SIZE reports the 8 MB doorbell region.
 *  - The kernel writes CCQPHIGH then CCQPLOW (irdma_sc_cqp_create / _destroy): the write to
 *    CCQPLOW is the trigger. A non-zero address creates the CQP, zero destroys it.
 *  - CQPDB takes the new CQP SQ head; CQPTAIL reports the engine's tail and CQP_OP_ERR.
 *  - The PF and AdminQ registers are model_pf.c's; while the PE is not ready (RDMA
 *    disabled, a PF reset running) CPUSTATUS does not read ready and CQPDB is refused.
 *  - Reads of offsets the model does not decode return 0; writes to them are ignored;
 *    both are counted. Accesses at or beyond BAR0, or misaligned, are refused and counted.
 */

#include "model_engine.h"

/* True when @p off is register @p base + 4 * i for some i < @p n; sets *i. */
static bool
reg_in_array(uint32_t off, uint32_t base, uint32_t n, uint32_t *i)
{
	if (off < base || off >= base + 4u * n)
		return false;
	*i = (off - base) / 4u;
	return true;
}

/* The latched interrupt / VSI configuration register at @p off, or NULL. */
static uint32_t *
reg_latched(struct model_dev *d, uint32_t off)
{
	uint32_t i;

	if (off == IRDMA_PFINT_AEQCTL)
		return &d->aeqctl;
	if (off == IRDMA_PFINT_FW_CTL)
		return &d->fw_ctl;
	if (off == IRDMA_PFINT_OICR_ENA)
		return &d->oicr_ena;
	if (off == IRDMA_PFINT_OICR_CTL)
		return &d->oicr_ctl;
	if (reg_in_array(off, IRDMA_GLINT_DYN_CTL(0), IRDMA_GLINT_VECTORS, &i))
		return &d->dyn_ctl[i];
	if (reg_in_array(off, IRDMA_GLINT_CEQCTL(0), IRDMA_GLINT_VECTORS, &i))
		return &d->ceqctl[i];
	if (reg_in_array(off, IRDMA_GLINT_RATE(0), IRDMA_GLINT_VECTORS, &i))
		return &d->rate[i];
	if (reg_in_array(off, IRDMA_VSIQF_PE_CTL1(0), MODEL_VSI_REGS, &i))
		return &d->vsi_ctl1[i];
	return NULL;
}

static bool
reg_access_ok(struct model_dev *d, uint32_t off)
{
	if ((uint64_t)off + sizeof(uint32_t) > d->hw->bar0_len || (off & 3u) != 0) {
		MODEL_INC(d, reg_refused);
		MODEL_LOG(DEBUG, d, "register access at 0x%x refused", off);
		return false;
	}
	return true;
}

static uint32_t
reg_cpustatus(struct model_dev *d, uint32_t off)
{
	if (off == IRDMA_GLPE_CPUSTATUS0 && d->cpustatus_reads < d->cfg.fw_ready_reads)
		d->cpustatus_reads++;
	/* The PE's CPUs report ready only while the PE is (RDMA enabled, no PF reset). */
	if (!d->pf.pe_ready)
		return 0;
	return d->cpustatus_reads >= d->cfg.fw_ready_reads ? IRDMA_CPUSTATUS_READY : 0;
}

uint32_t
model_reg_read(struct model_dev *d, uint32_t off)
{
	uint32_t *latched, v;

	MODEL_INC(d, reg_reads);
	if (!reg_access_ok(d, off))
		return 0;
	if (model_pf_reg_read(d, off, &v))
		return v;
	switch (off) {
	case IRDMA_GLPE_CPUSTATUS0:
	case IRDMA_GLPE_CPUSTATUS1:
	case IRDMA_GLPE_CPUSTATUS2:
		return reg_cpustatus(d, off);
	case IRDMA_GLPCI_LBARCTRL:
		return IRDMA_REG_PREP(LBARCTRL_PE_DB_SIZE, IRDMA_PE_DB_SIZE_8M);
	case IRDMA_PFPE_CQPTAIL:
		return IRDMA_REG_PREP(CQPTAIL_WQTAIL, d->cqp.tail) |
		       IRDMA_REG_PREP(CQPTAIL_CQP_OP_ERR, d->cqp_op_err ? 1 : 0);
	case IRDMA_PFPE_CCQPSTATUS:
		return d->ccqpstatus;
	case IRDMA_PFPE_CQPERRCODES:
		return d->cqperrcodes;
	case IRDMA_PFPE_CCQPHIGH:
		return d->ccqp_high;
	case IRDMA_PFPE_CCQPLOW:
		return d->ccqp_low;
	case IRDMA_PFPE_CQPDB:
		return d->cqp.db_head;
	case IRDMA_GLPE_CRITERR:
		return 0; /* no critical error */
	default:
		break;
	}
	latched = reg_latched(d, off);
	if (latched != NULL)
		return *latched;
	MODEL_INC(d, reg_unknown_reads);
	return 0;
}

/* CQPDB: the driver publishes its new CQP SQ head. */
static void
reg_cqp_doorbell(struct model_dev *d, uint32_t val)
{
	if (!d->cqp.created) {
		/* irdma_sc_cqp_init writes 0 before the CQP exists: harmless. */
		if (val != 0)
			MODEL_INC(d, cqp_doorbell_refused);
		return;
	}
	if (!model_pf_pe_ready(d)) {
		MODEL_INC(d, cqp_doorbell_refused);
		return;
	}
	if (val >= d->cqp.size) {
		MODEL_INC(d, cqp_doorbell_refused);
		MODEL_LOG(DEBUG, d, "CQPDB head %u beyond SQ size %u", val, d->cqp.size);
		return;
	}
	MODEL_INC(d, cqp_doorbells);
	/* A new submission clears the error flag of the previous one (doc/model.md). */
	d->cqp_op_err = false;
	d->cqp.db_head = val;
	model_kick(d);
}

static bool
reg_write_db_page(struct model_dev *d, uint32_t off, uint32_t val)
{
	if (off < IRDMA_DB_PAGE_OFFSET || off >= IRDMA_DB_PAGE_OFFSET + IRDMA_DB_PAGE_SIZE)
		return false;
	if (off - IRDMA_DB_PAGE_OFFSET == IRDMA_DB_CQ_OFFSET)
		model_cq_arm(d, val);
	if (off - IRDMA_DB_PAGE_OFFSET == IRDMA_DB_SQ_OFFSET) {
		model_engine_doorbell(d, (uint32_t)IRDMA_REG_GET(WQEALLOC_QPID, val));
		model_kick(d);
	}
	return true;
}

void
model_reg_write(struct model_dev *d, uint32_t off, uint32_t val)
{
	uint32_t *latched;

	MODEL_INC(d, reg_writes);
	if (!reg_access_ok(d, off))
		return;
	if (model_pf_reg_write(d, off, val))
		return;
	switch (off) {
	case IRDMA_PFPE_CCQPHIGH:
		d->ccqp_high = val;
		return;
	case IRDMA_PFPE_CCQPLOW:
		d->ccqp_low = val;
		d->cqp_ctl_pending = true;
		model_kick(d);
		return;
	case IRDMA_PFPE_CCQPSTATUS:
		/* irdma_sc_cqp_init clears it before creating; ignored while a CQP runs. */
		if (!d->cqp.created)
			d->ccqpstatus = 0;
		return;
	case IRDMA_PFPE_CQPTAIL:
		/* SW resets the tail before creating the CQP; read-only afterwards. */
		if (!d->cqp.created) {
			d->cqp.tail = 0;
			d->cqp_op_err = false;
		}
		return;
	case IRDMA_PFPE_CQPDB:
		reg_cqp_doorbell(d, val);
		return;
	case IRDMA_PFPE_CQARM:
		model_cq_arm(d, val);
		return;
	case IRDMA_PFPE_CQACK:
		MODEL_INC(d, cq_acks);
		return;
	case IRDMA_PFPE_AEQALLOC:
		model_aeq_alloc(d, val);
		return;
	case IRDMA_PFHMC_PDINV:
		/* The model caches no PD entries: every resolution re-reads them. */
		MODEL_INC(d, pd_invalidates);
		return;
	case IRDMA_PFPE_WQEALLOC:
		/* SQ doorbell: the QP id (the push WQE index above it is ignored). */
		model_engine_doorbell(d, (uint32_t)IRDMA_REG_GET(WQEALLOC_QPID, val));
		model_kick(d);
		return;
	default:
		break;
	}
	if (reg_write_db_page(d, off, val))
		return;
	latched = reg_latched(d, off);
	if (latched != NULL) {
		*latched = val;
		if (latched >= &d->dyn_ctl[0] && latched < &d->dyn_ctl[IRDMA_GLINT_VECTORS])
			model_irq_dyn_ctl(d, (uint32_t)(latched - &d->dyn_ctl[0]));
		/* A cause latched in PFINT_OICR raises its vector once it is routed. */
		else if (latched == &d->oicr_ctl && d->oicr != 0)
			model_irq_raise(d, d->oicr_ctl);
		return;
	}
	MODEL_INC(d, reg_unknown_writes);
}
