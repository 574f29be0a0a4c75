/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Interrupts and injected asynchronous events. Called with dev->lock held unless noted.
 *
 * Behaviour relied on by the driver (doc/hardware.md §4.3):
 *  - An AEQE (a CEQE) raises the vector named by PFINT_AEQCTL.MSIX_INDX
 *    (GLINT_CEQCTL(ceq).MSIX_INDX) when that register has CAUSE_ENA. A vector whose
 *    GLINT_DYN_CTL has INTENA fires: its eventfd (irq_fd) is written and INTENA clears, so
 *    the vector stays quiet until SW re-enables it (the kernel re-enables after its DPC).
 *    A vector raised while disabled is pending and fires when INTENA is written back.
 *    CLEARPBA is ignored (a choice, doc/model.md): a pending raise is never lost.
 *  - Vectors 0 .. MODEL_IRQ_VECTORS - 1 have eventfds; raises of higher vectors are counted
 *    but signal nothing. A vector at or beyond the function's MSI-X count (cfg.msix, what
 *    LIST_FUNC_CAPS reports) raises nothing at all and is not counted (a choice: the sources
 *    do not say what silicon does with a cause routed outside the PF's vectors).
 *  - PFINT_OICR latches the other causes PFINT_OICR_ENA enables (a device reset sets GRST)
 *    and raises the vector PFINT_OICR_CTL names (also when PFINT_OICR_CTL is written with
 *    CAUSE_ENA while a cause is latched); reading PFINT_OICR clears it.
 *  - irdma_model_inject_ae(), and FLUSH_WQES with GENERATE_AE (the kernel's GEN_AE, model_qp.c),
 *    post an AEQE as the engine would for the QP or CQ it names:
 *    the completion context is the object's (0 when it does not exist), and a QP error AE
 *    moves the QP to ERROR (except on a UD QP's send queue, which keeps its state: the
 *    verbs SQE case). Informational AEs (connection established, suspend complete, reset
 *    not sent, doubt reachability, resource exhaustion) change nothing.
 */

#include <errno.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "model_priv.h"

void
model_irq_init(struct model_dev *d)
{
	unsigned int v;

	for (v = 0; v < MODEL_IRQ_VECTORS; v++)
		d->irq[v].fd = -1;
}

void
model_irq_fini(struct model_dev *d)
{
	unsigned int v;

	for (v = 0; v < MODEL_IRQ_VECTORS; v++) {
		if (d->irq[v].fd >= 0)
			close(d->irq[v].fd);
		d->irq[v].fd = -1;
	}
}

/* Called without dev->lock (backend op). */
int
model_irq_fd(struct irdma_hw *hw, unsigned int vector)
{
	struct model_dev *d = model_dev_of(hw);
	int fd;

	if (d == NULL || vector >= MODEL_IRQ_VECTORS)
		return -EINVAL;
	model_lock(&d->lock);
	if (d->irq[vector].fd < 0)
		d->irq[vector].fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fd = d->irq[vector].fd >= 0 ? d->irq[vector].fd : -errno;
	model_unlock(&d->lock);
	if (fd < 0)
		MODEL_LOG(ERR, d, "interrupt vector %u: no eventfd", vector);
	return fd;
}

static void
irq_fire(struct model_dev *d, uint32_t v)
{
	d->dyn_ctl[v] &= ~IRDMA_REG_PREP(DYN_CTL_INTENA, 1);
	d->irq[v].pending = false;
	d->irq[v].fired++;
	MODEL_INC(d, interrupts);
	if (d->ext.irq != NULL)
		d->ext.irq(d->ext.opaque, v);
	else if (d->irq[v].fd >= 0 && eventfd_write(d->irq[v].fd, 1) != 0)
		MODEL_LOG(ERR, d, "interrupt vector %u: eventfd write failed", v);
}

void
model_irq_raise(struct model_dev *d, uint32_t qctl)
{
	uint32_t v = IRDMA_REG_GET(QCTL_MSIX_INDX, qctl);

	if (!IRDMA_REG_GET(QCTL_CAUSE_ENA, qctl))
		return;
	/* A vector the function was not given (LIST_FUNC_CAPS MSI-X count) signals nothing. */
	if (v >= d->cfg.msix) {
		MODEL_LOG(DEBUG, d, "interrupt vector %u refused: the function has %u", v,
			  d->cfg.msix);
		return;
	}
	if (v >= MODEL_IRQ_VECTORS) {
		MODEL_INC(d, interrupts);
		return;
	}
	if (IRDMA_REG_GET(DYN_CTL_INTENA, d->dyn_ctl[v]))
		irq_fire(d, v);
	else
		d->irq[v].pending = true;
}

void
model_oicr_raise(struct model_dev *d, uint32_t cause)
{
	if ((d->oicr_ena & cause) == 0)
		return;
	d->oicr |= d->oicr_ena & cause;
	model_irq_raise(d, d->oicr_ctl);
}

int
irdma_model_irq_count(struct irdma_hw *hw, unsigned int vector, uint64_t *count)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || vector >= MODEL_IRQ_VECTORS || count == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	*count = d->irq[vector].fired;
	model_unlock(&d->lock);
	return 0;
}

void
model_irq_dyn_ctl(struct model_dev *d, uint32_t v)
{
	if (v < MODEL_IRQ_VECTORS && d->irq[v].pending &&
	    IRDMA_REG_GET(DYN_CTL_INTENA, d->dyn_ctl[v]))
		irq_fire(d, v);
}

/* ---- injected AEs ---- */

static bool
ae_informational(uint32_t ae)
{
	return ae == IRDMA_AE_LLP_CONNECTION_ESTABLISHED || ae == IRDMA_AE_QP_SUSPEND_COMPLETE ||
	       ae == IRDMA_AE_RESET_NOT_SENT || ae == IRDMA_AE_LLP_DOUBT_REACHABILITY ||
	       ae == IRDMA_AE_RESOURCE_EXHAUSTION;
}

static bool
ae_for_cq(uint32_t ae, uint32_t src)
{
	return src == IRDMA_AE_SOURCE_CQ || src == IRDMA_AE_SOURCE_CQ_0110 ||
	       src == IRDMA_AE_SOURCE_CQ_1010 || src == IRDMA_AE_SOURCE_CQ_1110 ||
	       ae == IRDMA_AE_CQ_OPERATION_ERROR || ae == IRDMA_AE_LCE_CQ_CATASTROPHIC;
}

static bool
ae_for_device(uint32_t ae)
{
	return ae == IRDMA_AE_LCE_FUNCTION_CATASTROPHIC || ae == IRDMA_AE_ADAPTER_CATASTROPHIC;
}

bool
model_ae_raise(struct model_dev *d, uint32_t ae, uint32_t src, uint32_t id)
{
	uint64_t compctx = 0, before = d->st.aeqes;
	struct model_qp *q;
	bool sq;

	if (ae_for_device(ae)) {
		id = 0;
	} else if (ae_for_cq(ae, src)) {
		if (id < d->cq_tab && d->cq[id].valid)
			compctx = d->cq[id].ctx;
	} else if (id < d->qp_tab && d->qp[id].valid) {
		q = &d->qp[id];
		compctx = q->compl_ctx;
		sq = src == IRDMA_AE_SOURCE_SQ || src == IRDMA_AE_SOURCE_SQ_0111;
		if (!ae_informational(ae) && !(q->type == IRDMA_QP_TYPE_ROCE_UD && sq))
			q->state = IRDMA_QP_HW_ERROR;
	}
	model_aeq_post(d, ae, src, id, compctx);
	return d->st.aeqes != before;
}

int
irdma_model_inject_ae(struct irdma_hw *hw, uint16_t ae_code, uint8_t source, uint32_t id)
{
	struct model_dev *d = model_dev_of(hw);
	int ret;

	if (d == NULL || ae_code > IRDMA_FIELD_MAX(AEQE_AECODE) ||
	    source > IRDMA_FIELD_MAX(AEQE_AESRC) ||
	    id >= (UINT32_C(1) << (IRDMA_FIELD_BITS(AEQE_QPCQID_LOW) + 1)))
		return -EINVAL;
	model_lock(&d->lock);
	ret = model_ae_raise(d, ae_code, source, id) ? 0 : -ENOSPC;
	model_unlock(&d->lock);
	return ret;
}
