/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Hardware statistics: MANAGE_STATS, GATHER_STATS, the counter block of every statistics
 * instance, and the counting hook of the engine (base/irdma_stats.h; kernel ctrl.c
 * irdma_sc_manage_stats_inst / irdma_sc_gather_stats). Called with dev->lock held.
 *
 * Behaviour relied on by the driver (silicon's exact rules are not public; these are the
 * model's, chosen to refuse everything a driver could get wrong):
 *  - IRDMA_MAX_STATS_INSTANCES instances. Instances 0 .. IRDMA_FIRST_NON_PF_STAT - 1 are the
 *    PFs' default instances; this function's (its HMC function id) exists from the start
 *    and can be neither allocated nor freed.
 *  - USE_HMC_FCN_INDEX with an HMC function index other than this PF's: BAD_FIELD.
 *  - MANAGE_STATS allocate: the device picks the lowest free instance at or above
 *    IRDMA_FIRST_NON_PF_STAT, zeroes its counters and returns its index in the CCQ OPRETVAL
 *    (what irdma_cqp_stats_inst_cmd reads); none free: BAD_STATE.
 *  - MANAGE_STATS free: INST_INDEX below IRDMA_FIRST_NON_PF_STAT is BAD_ID, an instance not
 *    allocated NO_OBJ, one a QP context still names BAD_STATE.
 *  - GATHER_STATS: USE_INST selects INST_INDEX (which must be allocated or this function's
 *    default: NO_OBJ otherwise), else the default instance. The buffer must be 8-byte
 *    aligned (BAD_ALIGN) and mapped for IRDMA_GATHER_STATS_BUF_SIZE bytes (DMA_FAULT); the
 *    device writes the whole buffer: zeroes, and every counter at its place, truncated to
 *    its width (the device counters wrap there), in its generation's layout (gen3: 57
 *    counters of a qword each, the transport counters from byte 368 on).
 *  - A QP context with USESTATSINSTANCE names STAT_INDEX, which must be allocated (NO_OBJ);
 *    without it the QP counts into the default instance.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

/* The instance table, created on first use (with this function's default instance). */
static struct model_stats_inst *
stats_tab(struct model_dev *d)
{
	if (d->stats_inst == NULL) {
		d->stats_inst = calloc(IRDMA_MAX_STATS_INSTANCES, sizeof(*d->stats_inst));
		if (d->stats_inst == NULL) {
			MODEL_LOG(ERR, d, "no memory for the statistics instances");
			return NULL;
		}
		d->stats_inst[d->cfg.hmc_fn_id].alloc = true;
	}
	return d->stats_inst;
}

void
model_stats_free(struct model_dev *d)
{
	free(d->stats_inst);
	d->stats_inst = NULL;
}

/* 0 when the HMC function fields name this PF, else a minor code. */
static uint16_t
stats_fcn_check(const struct model_dev *d, const struct irdma_cqp_wqe *w)
{
	if (irdma_get(w, CQP_STATS_USE_HMC_FCN_INDEX) &&
	    irdma_get(w, CQP_STATS_HMC_FCN_INDEX) != d->cfg.hmc_fn_id)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	return 0;
}

static bool
stats_qp_uses(const struct model_dev *d, uint32_t idx)
{
	uint32_t i;

	for (i = 0; d->qp != NULL && i < d->qp_tab; i++)
		if (d->qp[i].valid && d->qp[i].stats_use && d->qp[i].stats_idx == idx)
			return true;
	return false;
}

void
model_op_manage_stats(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	struct model_stats_inst *t = stats_tab(d);
	uint32_t idx = irdma_get(w, CQP_STATS_INST_INDEX);

	if (model_refuse(r, t == NULL ? IRDMA_MODEL_MIN_BAD_STATE : 0) ||
	    model_refuse(r, stats_fcn_check(d, w)))
		return;
	if (irdma_get(w, CQP_STATS_ALLOC_INST)) {
		for (idx = IRDMA_FIRST_NON_PF_STAT; idx < IRDMA_MAX_STATS_INSTANCES; idx++)
			if (!t[idx].alloc)
				break;
		if (model_refuse(r, idx < IRDMA_MAX_STATS_INSTANCES ?
				 0 : IRDMA_MODEL_MIN_BAD_STATE))
			return;
		memset(&t[idx], 0, sizeof(t[idx]));
		t[idx].alloc = true;
		r->retval = idx;
		return;
	}
	if (model_refuse(r, idx < IRDMA_FIRST_NON_PF_STAT ? IRDMA_MODEL_MIN_BAD_ID : 0) ||
	    model_refuse(r, !t[idx].alloc ? IRDMA_MODEL_MIN_NO_OBJ : 0) ||
	    model_refuse(r, stats_qp_uses(d, idx) ? IRDMA_MODEL_MIN_BAD_STATE : 0))
		return;
	t[idx].alloc = false;
}

void
model_op_gather_stats(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	struct model_stats_inst *t = stats_tab(d);
	rte_iova_t pa = irdma_get(w, CQP_STATS_BUF_PA);
	uint32_t idx = d->cfg.hmc_fn_id;
	uint64_t buf[IRDMA_GATHER_STATS_BUF_SIZE / sizeof(uint64_t)];
	unsigned int s;

	if (model_refuse(r, t == NULL ? IRDMA_MODEL_MIN_BAD_STATE : 0) ||
	    model_refuse(r, stats_fcn_check(d, w)))
		return;
	if (irdma_get(w, CQP_STATS_USE_INST))
		idx = irdma_get(w, CQP_STATS_INST_INDEX);
	if (model_refuse(r, !t[idx].alloc ? IRDMA_MODEL_MIN_NO_OBJ : 0) ||
	    model_refuse(r, (pa & (IRDMA_GATHER_STATS_BUF_ALIGN - 1)) != 0 ?
			 IRDMA_MODEL_MIN_BAD_ALIGN : 0))
		return;
	memset(buf, 0, sizeof(buf));
	for (s = 0; s < irdma_hw_stat_count(d->cfg.gen); s++) {
		const struct irdma_hw_stat_desc *sd = irdma_hw_stat_desc_of(d->cfg.gen, s);
		uint64_t *qw = &buf[sd->byte / sizeof(uint64_t)];

		*qw = rte_cpu_to_le_64(irdma_hw_stat_insert(sd, rte_le_to_cpu_64(*qw),
							    t[idx].val[s]));
	}
	if (model_refuse(r, model_dma_write(d, pa, buf, sizeof(buf)) != 0 ?
			 IRDMA_MODEL_MIN_DMA_FAULT : 0))
		return;
}

uint16_t
model_stats_qp_ctx(struct model_dev *d, const struct irdma_qp_ctx *ctx, uint8_t *use,
		   uint32_t *idx)
{
	struct model_stats_inst *t;

	*use = (uint8_t)irdma_get(ctx, QPC_USESTATSINSTANCE);
	*idx = *use ? (uint32_t)irdma_get(ctx, QPC_STAT_INDEX) : d->cfg.hmc_fn_id;
	if (!*use)
		return 0;
	t = stats_tab(d);
	if (t == NULL)
		return IRDMA_MODEL_MIN_BAD_STATE;
	return t[*idx].alloc ? 0 : IRDMA_MODEL_MIN_NO_OBJ;
}

void
model_stats_count(struct model_dev *d, uint32_t inst, enum irdma_hw_stat s, uint64_t delta)
{
	struct model_stats_inst *t = stats_tab(d);

	/* Counting into nothing is what the engine does for a freed instance: drop it. */
	if (t == NULL || inst >= IRDMA_MAX_STATS_INSTANCES || !t[inst].alloc ||
	    (unsigned int)s >= irdma_hw_stat_count(d->cfg.gen))
		return;
	t[inst].val[s] += delta;
}

uint64_t *
model_stats_vals(struct model_dev *d, uint32_t inst)
{
	struct model_stats_inst *t = stats_tab(d);

	if (t == NULL || inst >= IRDMA_MAX_STATS_INSTANCES)
		return d->stats_sink;
	return t[inst].val;
}

uint64_t *
model_stats_dflt(struct model_dev *d)
{
	return model_stats_vals(d, d->cfg.hmc_fn_id);
}

int
irdma_model_stats_add(struct irdma_hw *hw, uint32_t inst, unsigned int counter, uint64_t delta)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_stats_inst *t;
	int ret = 0;

	if (d == NULL || inst >= IRDMA_MAX_STATS_INSTANCES ||
	    counter >= irdma_hw_stat_count(d->cfg.gen))
		return -EINVAL;
	model_lock(&d->lock);
	t = stats_tab(d);
	if (t == NULL)
		ret = -ENOMEM;
	else if (!t[inst].alloc)
		ret = -ENOENT;
	else
		model_stats_count(d, inst, (enum irdma_hw_stat)counter, delta);
	model_unlock(&d->lock);
	return ret;
}
