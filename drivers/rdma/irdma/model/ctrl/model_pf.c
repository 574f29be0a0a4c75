/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PF outside the RDMA engine: the registers `ice` reads at probe (PF_FUNC_RID,
 * GLGEN_RSTAT, GLNVM_ULD, GL_MNG_FWSM, PFGEN_STATE), the PF software reset (PFGEN_CTRL.PFSWR)
 * with its state machine, the AdminQ ring registers (executed by model_adminq.c), and the
 * gate that keeps the RDMA engine closed while the PE is not ready. Called with dev->lock
 * held. doc/model.md, "The PF".
 *
 * State machine:
 *   created      firmware booted: reset-done bits set, PE_DONE when cfg.rdma, PE ready
 *   PFSWR = 1    reset running: the AdminQ registers cleared, link events off, PE_DONE
 *                cleared, PE not ready; PFSWR reads 1 for cfg.reset_reads reads
 *   reset done   PFSWR reads 0, PE_DONE (cfg.rdma) and the PE ready again
 * The RDMA engine (CQP create, CQP doorbell, CPUSTATUS ready) is refused while the PE is not
 * ready; the HMC function id of FPM / SD / statistics commands must be cfg.pf_id.
 */

#include <string.h>

#include "model_engine.h"

void
model_pf_init(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	memset(pf, 0, sizeof(*pf));
	pf->uld = IRDMA_GLNVM_ULD_RESET_DONE |
		  (d->cfg.rdma ? IRDMA_REG_MASK(GLNVM_ULD_PE_DONE) : 0);
	pf->pe_ready = d->cfg.rdma;
	pf->link_up = d->cfg.link_up;
	model_sched_reset(d);
}

bool
model_pf_pe_ready(struct model_dev *d)
{
	if (d->pf.pe_ready)
		return true;
	MODEL_INC(d, pe_refused);
	MODEL_LOG(DEBUG, d, "RDMA engine refused: PE not ready (%s)",
		  !d->cfg.rdma ? "RDMA disabled" : "PF reset running");
	return false;
}

/* What every reset takes from the function: AdminQ, link events, PE, scheduler state. */
static void
pf_function_clear(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	memset(&pf->atq, 0, sizeof(pf->atq));
	memset(&pf->arq, 0, sizeof(pf->arq));
	pf->aq_pending = false;
	pf->lse = false;
	pf->event_mask = 0;
	pf->pe_ready = false;
	pf->uld &= ~IRDMA_REG_MASK(GLNVM_ULD_PE_DONE);
	d->fw_ctl = 0;
	/* VSIs, scheduler nodes, qsets and work scheduler nodes go with the function. */
	model_sched_reset(d);
}

/* PFSWR written: the PF reset starts. */
static void
pf_reset_start(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	MODEL_INC(d, pf_resets);
	MODEL_LOG(DEBUG, d, "PF reset%s", d->cqp.created ? " with the CQP still created" : "");
	pf->in_reset = true;
	pf->reset_left = d->cfg.reset_reads;
	pf_function_clear(d);
}

/* GLGEN_RSTAT read: a device reset makes progress with each read. */
static uint32_t
pf_rstat_read(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	if (pf->grst_left == 0)
		return pf->rstat;
	if (pf->grst_left != IRDMA_MODEL_RESET_NEVER && --pf->grst_left == 0) {
		pf->uld |= IRDMA_GLNVM_ULD_RESET_DONE;
		if (d->cfg.rdma && !pf->in_reset) {
			pf->uld |= IRDMA_REG_MASK(GLNVM_ULD_PE_DONE);
			pf->pe_ready = true;
		}
		MODEL_LOG(DEBUG, d, "device reset done (GLGEN_RSTAT 0x%08x)", pf->rstat);
		return pf->rstat;
	}
	return pf->rstat | IRDMA_REG_PREP(GLGEN_RSTAT_DEVSTATE, 1);
}

/* PFGEN_CTRL read: the reset makes progress with each read. */
static uint32_t
pf_ctrl_read(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	if (!pf->in_reset)
		return 0;
	if (pf->grst_left != 0)
		return IRDMA_REG_PREP(PFGEN_CTRL_PFSWR, 1); /* held until the device reset ends */
	if (pf->reset_left == IRDMA_MODEL_RESET_NEVER)
		return IRDMA_REG_PREP(PFGEN_CTRL_PFSWR, 1);
	if (pf->reset_left > 0) {
		pf->reset_left--;
		return IRDMA_REG_PREP(PFGEN_CTRL_PFSWR, 1);
	}
	pf->in_reset = false;
	if (d->cfg.rdma && pf->grst_left == 0) {
		pf->uld |= IRDMA_REG_MASK(GLNVM_ULD_PE_DONE);
		pf->pe_ready = true;
	}
	MODEL_LOG(DEBUG, d, "PF reset done");
	return 0;
}

/* The register of ring @p q at @p off relative to its BAL, or NULL. */
static uint32_t *
pf_aq_reg(struct model_aq_regs *q, uint32_t rel)
{
	switch (rel) {
	case 0x000:
		return &q->bal;
	case 0x100:
		return &q->bah;
	case 0x200:
		return &q->len;
	case 0x300:
		return &q->head;
	case 0x400:
		return &q->tail;
	default:
		return NULL;
	}
}

/* The AdminQ register at @p off, or NULL (ATQ registers at 0x80000 + k * 0x100, ARQ + 0x80). */
static uint32_t *
pf_aq_reg_at(struct model_dev *d, uint32_t off, bool *atq)
{
	uint32_t rel;

	if (off < IRDMA_PF_FW_ATQBAL || off > IRDMA_PF_FW_ARQT)
		return NULL;
	rel = off - IRDMA_PF_FW_ATQBAL;
	*atq = (rel & 0xffu) == 0;
	if (!*atq && (rel & 0xffu) != 0x80u)
		return NULL;
	return pf_aq_reg(*atq ? &d->pf.atq : &d->pf.arq, rel & ~0xffu);
}

bool
model_pf_reg_read(struct model_dev *d, uint32_t off, uint32_t *val)
{
	uint32_t *r;
	bool atq;

	switch (off) {
	case IRDMA_PF_FUNC_RID:
		*val = IRDMA_REG_PREP(PF_FUNC_RID_FUNCTION, d->cfg.pf_id);
		return true;
	case IRDMA_PFGEN_CTRL:
		*val = pf_ctrl_read(d);
		return true;
	case IRDMA_GLGEN_RSTAT:
		*val = pf_rstat_read(d);
		return true;
	case IRDMA_GLNVM_ULD:
		*val = d->pf.uld;
		return true;
	case IRDMA_PFINT_OICR:
		*val = d->oicr;
		d->oicr = 0; /* clear on read */
		return true;
	case IRDMA_GL_MNG_FWSM:
		*val = 0; /* normal mode, loaded */
		return true;
	case IRDMA_PFGEN_STATE:
		*val = IRDMA_REG_PREP(PFGEN_STATE_PFPEEN, d->cfg.rdma ? 1 : 0) |
		       IRDMA_REG_PREP(PFGEN_STATE_PFLINKEN, 1);
		return true;
	default:
		break;
	}
	r = pf_aq_reg_at(d, off, &atq);
	if (r == NULL)
		return false;
	*val = *r;
	return true;
}

bool
model_pf_reg_write(struct model_dev *d, uint32_t off, uint32_t val)
{
	struct model_aq_regs *q;
	uint32_t *r;
	bool atq;

	switch (off) {
	case IRDMA_PFGEN_CTRL:
		if (IRDMA_REG_GET(PFGEN_CTRL_PFSWR, val))
			pf_reset_start(d);
		return true;
	case IRDMA_PF_FUNC_RID:
	case IRDMA_PFINT_OICR:
	case IRDMA_GLGEN_RSTAT:
	case IRDMA_GLNVM_ULD:
	case IRDMA_GL_MNG_FWSM:
	case IRDMA_PFGEN_STATE:
		return true; /* read-only */
	default:
		break;
	}
	r = pf_aq_reg_at(d, off, &atq);
	if (r == NULL)
		return false;
	if (d->pf.in_reset || d->pf.grst_left != 0) {
		MODEL_INC(d, aq_refused);
		return true; /* the AdminQ is held in reset */
	}
	q = atq ? &d->pf.atq : &d->pf.arq;
	if (r == &q->head) {
		/* The driver only clears the heads (ring set-up and shutdown). */
		if (val == 0)
			q->head = 0;
		return true;
	}
	if (r == &q->len) {
		/* OVFL and CRIT are firmware's; the driver may clear them. */
		q->len = (val & ~(IRDMA_REG_MASK(AQLEN_OVFL) | IRDMA_REG_MASK(AQLEN_CRIT))) |
			 (q->len & val & (IRDMA_REG_MASK(AQLEN_OVFL) | IRDMA_REG_MASK(AQLEN_CRIT)));
		if (!IRDMA_REG_GET(AQLEN_ENABLE, val))
			q->head = 0;
		return true;
	}
	*r = val;
	/* A tail at the head (ring set-up and shutdown write 0) gives firmware nothing. */
	if (atq && r == &q->tail && val != q->head) {
		d->pf.aq_pending = true;
		model_kick(d);
	}
	return true;
}

int
irdma_model_link_set(struct irdma_hw *hw, bool up)
{
	struct model_dev *d = model_dev_of(hw);
	uint8_t data[IRDMA_AQ_LINK_STATUS_LEN];

	if (d == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	if (d->pf.link_up != up) {
		d->pf.link_up = up;
		MODEL_LOG(DEBUG, d, "link %s", up ? "up" : "down");
		if (d->pf.lse && !(d->pf.event_mask & IRDMA_AQ_EVENT_LINK_UPDOWN)) {
			model_aq_link_data(d, data);
			(void)model_aq_event(d, IRDMA_AQC_GET_LINK_STATUS, data, sizeof(data));
		}
	}
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_inject_aq_fault(struct irdma_hw *hw, uint16_t opcode, enum irdma_model_aq_fault kind,
			    uint16_t retval)
{
	return irdma_model_inject_aq_fault_nth(hw, opcode, 0, kind, retval);
}

int
irdma_model_inject_aq_fault_nth(struct irdma_hw *hw, uint16_t opcode, uint32_t nth,
				enum irdma_model_aq_fault kind, uint16_t retval)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || (unsigned int)kind > IRDMA_MODEL_AQ_FAULT_RETVAL ||
	    (kind == IRDMA_MODEL_AQ_FAULT_RETVAL && retval == 0))
		return -EINVAL;
	model_lock(&d->lock);
	d->pf.fault.opcode = opcode;
	d->pf.fault.kind = (uint8_t)kind;
	d->pf.fault.retval = retval;
	d->pf.fault.skip = nth;
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_set_reset_reads(struct irdma_hw *hw, uint32_t reads)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	d->cfg.reset_reads = reads;
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_set_mac(struct irdma_hw *hw, const uint8_t mac[6])
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || mac == NULL || (mac[0] & 1u) != 0)
		return -EINVAL;
	model_lock(&d->lock);
	memcpy(d->cfg.mac, mac, sizeof(d->cfg.mac));
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_aq_capture(struct irdma_hw *hw, uint8_t (*out)[32], unsigned int n, bool reset)
{
	struct model_dev *d = model_dev_of(hw);
	uint64_t first, i;
	unsigned int k = 0;

	if (d == NULL || (out == NULL && n > 0))
		return -EINVAL;
	model_lock(&d->lock);
	first = d->pf.cap_n > IRDMA_MODEL_AQ_CAPTURE ? d->pf.cap_n - IRDMA_MODEL_AQ_CAPTURE : 0;
	for (i = first; i < d->pf.cap_n && k < n; i++, k++)
		memcpy(out[k], d->pf.cap[i % IRDMA_MODEL_AQ_CAPTURE], IRDMA_AQ_DESC_SIZE);
	if (reset)
		d->pf.cap_n = 0;
	model_unlock(&d->lock);
	return (int)k;
}

int
irdma_model_aq_capture_buf(struct irdma_hw *hw, unsigned int k,
			   uint8_t out[IRDMA_MODEL_AQ_CAPTURE_BUF])
{
	struct model_dev *d = model_dev_of(hw);
	uint64_t first;
	int ret = 0;

	if (d == NULL || out == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	first = d->pf.cap_n > IRDMA_MODEL_AQ_CAPTURE ? d->pf.cap_n - IRDMA_MODEL_AQ_CAPTURE : 0;
	if (first + k >= d->pf.cap_n)
		ret = -ENOENT;
	else
		memcpy(out, d->pf.cap_buf[(first + k) % IRDMA_MODEL_AQ_CAPTURE],
		       IRDMA_MODEL_AQ_CAPTURE_BUF);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_reset(struct irdma_hw *hw, enum irdma_model_reset_kind kind)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_pf *pf;
	uint32_t cnt_shift;

	if (d == NULL || kind < IRDMA_MODEL_RESET_CORER || kind > IRDMA_MODEL_RESET_EMPR)
		return -EINVAL;
	model_lock(&d->lock);
	pf = &d->pf;
	MODEL_INC(d, dev_resets);
	MODEL_LOG(DEBUG, d, "device reset, type %u", (unsigned int)kind);
	pf_function_clear(d);
	pf->uld &= ~IRDMA_GLNVM_ULD_RESET_DONE;
	/* The RDMA engine loses everything: the CQP, the HMC layout and every queue in it. */
	model_fpm_free(d);
	memset(d->ceq, 0, sizeof(*d->ceq) * d->cfg.max_ceqs);
	memset(&d->aeq, 0, sizeof(d->aeq));
	d->cqp.created = false;
	d->ccqpstatus = 0;
	d->ccqp_low = 0;
	d->ccqp_high = 0;
	d->cqp_ctl_pending = false;
	model_ctx_changed(d);
	/* RESET_TYPE, and the 2-bit counter of that kind (CORERCNT at bit 4, then GLOBR, EMPR). */
	cnt_shift = 4u + 2u * ((uint32_t)kind - 1u);
	pf->rstat = (pf->rstat & ~(IRDMA_REG_MASK(GLGEN_RSTAT_RESET_TYPE) | (3u << cnt_shift))) |
		    IRDMA_REG_PREP(GLGEN_RSTAT_RESET_TYPE, (uint32_t)kind) |
		    ((((pf->rstat >> cnt_shift) + 1u) & 3u) << cnt_shift);
	pf->grst_left = d->cfg.reset_reads != 0 ? d->cfg.reset_reads : 1;
	/* The reset warning (ice_misc_intr's GRST): latched in PFINT_OICR, its vector raised. */
	model_oicr_raise(d, IRDMA_REG_MASK(PFINT_OICR_GRST));
	model_unlock(&d->lock);
	return 0;
}
