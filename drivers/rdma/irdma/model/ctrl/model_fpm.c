/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * QUERY_FPM_VAL, COMMIT_FPM_VAL and UPDATE_PE_SDS (doc/hardware.md §5.3, §7). Called with
 * dev->lock held.
 *
 * Behaviour relied on by the driver (kernel ctrl.c irdma_sc_parse_fpm_query_buf /
 * _commit_buf, hmc.c irdma_set_sd_entry):
 *  - QUERY writes the 192-byte query buffer: qw0 = first SD index and SD budget; per
 *    object its max count and log2(size), free lists their parent's block size, the
 *    misc qword MAX_CEQS / HTMULTIPLIER / TIMERBUCKET. The query and the commit buffers
 *    do not share offsets for the first objects (irdma_hmc.h).
 *  - COMMIT reads the counts SW chose and returns each object's FPM base in 63:32 of its
 *    commit qword (units of 512 bytes). The engine, not SW, places the objects: the model
 *    lays them out in object-id order, each base aligned to 4 KB (a PD page, so that no
 *    object smaller than a page straddles two PD pages), starting at SD first_pe_sd.
 *  - UPDATE_PE_SDS programs up to 11 SD entries: 1..3 in the WQE, the rest in the SD
 *    buffer whose address (128-byte aligned) the WQE carries.
 */

#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

/* Fill a plain object's query qword: max count and log2(size). */
#define FPMQ_PLAIN(q, caps, OBJ) \
	do { \
		irdma_set(q, FPMQ_##OBJ##_MAX, (caps)[IRDMA_HMC_OBJ_##OBJ].max_cnt); \
		irdma_set(q, FPMQ_##OBJ##_SIZE_LOG2, (caps)[IRDMA_HMC_OBJ_##OBJ].size_log2); \
	} while (0)

/* Fill a free-list object's query qword: max count and the parent's block size. */
#define FPMQ_FL(q, caps, OBJ, BLOCK) \
	do { \
		irdma_set(q, FPMQ_##OBJ##_MAX, (caps)[IRDMA_HMC_OBJ_##OBJ].max_cnt); \
		irdma_set(q, BLOCK, (caps)[IRDMA_HMC_OBJ_##OBJ].block_size); \
	} while (0)

/* Common checks of the FPM commands' WQE: function id and buffer alignment. */
static bool
fpm_wqe_ok(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	if (irdma_get(w, CQP_FPM_HMCFNID) != d->cfg.hmc_fn_id) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_FIELD);
		return false;
	}
	if ((irdma_get(w, CQP_FPM_BUF_PA) & IRDMA_FPM_BUF_ALIGN_MASK) != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ALIGN);
		return false;
	}
	return true;
}

void
model_op_query_fpm(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	const struct irdma_model_obj_caps *caps = d->cfg.obj;
	struct irdma_fpm_query q = { .qw = { 0 } };
	struct irdma_fpm_query *qp = &q;

	if (!fpm_wqe_ok(d, w, r))
		return;
	irdma_set(qp, FPMQ_FIRST_PE_SD_INDEX, d->cfg.first_pe_sd);
	irdma_set(qp, FPMQ_MAX_PE_SDS, d->cfg.max_pe_sds);
	FPMQ_PLAIN(qp, caps, QP);
	FPMQ_PLAIN(qp, caps, CQ);
	if (d->cfg.gen >= IRDMA_GEN_3)
		q.qw[IRDMA_FPMQ_SRQ_OFFSET_GEN3 / IRDMA_QWORD_BYTES] = rte_cpu_to_le_64(
			(uint64_t)caps[IRDMA_HMC_OBJ_RESERVED].max_cnt |
			(uint64_t)caps[IRDMA_HMC_OBJ_RESERVED].size_log2 << 32);
	FPMQ_PLAIN(qp, caps, HTE);
	FPMQ_PLAIN(qp, caps, ARP);
	FPMQ_PLAIN(qp, caps, MR);
	FPMQ_PLAIN(qp, caps, XF);
	FPMQ_FL(qp, caps, XFFL, FPMQ_XF_BLOCK_SIZE);
	FPMQ_PLAIN(qp, caps, Q1);
	FPMQ_FL(qp, caps, Q1FL, FPMQ_Q1_BLOCK_SIZE);
	FPMQ_PLAIN(qp, caps, TIMER);
	FPMQ_PLAIN(qp, caps, FSIMC);
	FPMQ_PLAIN(qp, caps, FSIAV);
	irdma_set(qp, FPMQ_PBLE_MAX, caps[IRDMA_HMC_OBJ_PBLE].max_cnt);
	irdma_set(qp, FPMQ_MAX_CEQS, d->cfg.max_ceqs);
	irdma_set(qp, FPMQ_HTMULTIPLIER, d->cfg.ht_multiplier);
	irdma_set(qp, FPMQ_TIMERBUCKET, d->cfg.timer_bucket);
	FPMQ_PLAIN(qp, caps, RRF);
	FPMQ_FL(qp, caps, RRFFL, FPMQ_RRF_BLOCK_SIZE);
	FPMQ_PLAIN(qp, caps, HDR);
	FPMQ_PLAIN(qp, caps, MD);
	FPMQ_PLAIN(qp, caps, OOISC);
	FPMQ_FL(qp, caps, OOISCFFL, FPMQ_OOISCF_BLOCK_SIZE);
	if (model_dma_write(d, irdma_get(w, CQP_FPM_BUF_PA), &q, sizeof(q)) != 0)
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
}

/* Bytes of one object of type @p obj. */
static uint64_t
fpm_obj_size(const struct model_dev *d, unsigned int obj)
{
	switch (obj) {
	case IRDMA_HMC_OBJ_RESERVED:
		/* Gen3: the SRQ object. */
		return d->cfg.gen >= IRDMA_GEN_3 ?
		       UINT64_C(1) << d->cfg.obj[obj].size_log2 : 0;
	case IRDMA_HMC_OBJ_APBVT:
		return IRDMA_HMC_APBVT_SIZE;
	case IRDMA_HMC_OBJ_PBLE:
		return IRDMA_HMC_PBLE_OBJ_SIZE;
	default:
		if (irdma_hmc_obj_is_fl(obj))
			return IRDMA_HMC_FL_OBJ_SIZE;
		return UINT64_C(1) << d->cfg.obj[obj].size_log2;
	}
}

/* Count SW committed for @p obj, from its commit qword. */
static uint32_t
fpm_commit_count(const struct model_dev *d, unsigned int obj, uint64_t qw)
{
	switch (obj) {
	case IRDMA_HMC_OBJ_QP:
		return (uint32_t)IRDMA_GET(FPMC_QP_CNT, qw);
	case IRDMA_HMC_OBJ_CQ:
		return (uint32_t)IRDMA_GET(FPMC_CQ_CNT, qw);
	case IRDMA_HMC_OBJ_RESERVED:
		return d->cfg.gen >= IRDMA_GEN_3 ? irdma_fpm_obj_count(qw) : 0;
	default:
		return irdma_fpm_obj_count(qw);
	}
}

static bool
model_queues_exist(const struct model_dev *d)
{
	uint32_t i;

	if (d->aeq.valid || d->qp_live != 0)
		return true;
	for (i = 0; i < d->cq_tab; i++)
		if (d->cq[i].valid)
			return true;
	for (i = 0; i < d->cfg.max_ceqs; i++)
		if (d->ceq[i].valid)
			return true;
	return false;
}

void
model_op_commit_fpm(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	struct model_hmc_obj obj[IRDMA_HMC_OBJ_MAX];
	struct irdma_fpm_commit c;
	rte_iova_t pa = irdma_get(w, CQP_FPM_BUF_PA);
	uint64_t start = (uint64_t)d->cfg.first_pe_sd * IRDMA_HMC_SD_SIZE;
	uint64_t next = start, sds;
	struct model_cq *cq_tab;
	unsigned int i;

	if (!fpm_wqe_ok(d, w, r))
		return;
	if (irdma_get(w, CQP_FPM_BUFSIZE) != IRDMA_FPM_BUF_SIZE) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_FIELD);
		return;
	}
	/* Re-laying out the HMC under live queues would move their contexts. */
	if (model_queues_exist(d)) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_STATE);
		return;
	}
	if (model_dma_read(d, pa, &c, sizeof(c)) != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
		return;
	}
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		rte_le64_t *word = &c.qw[irdma_fpm_commit_offset(i) / IRDMA_QWORD_BYTES];
		uint64_t qw = irdma_qw_get(word);

		obj[i].cnt = fpm_commit_count(d, i, qw);
		obj[i].max = d->cfg.obj[i].max_cnt;
		obj[i].size = fpm_obj_size(d, i);
		if (obj[i].cnt > obj[i].max) {
			MODEL_LOG(DEBUG, d, "COMMIT_FPM: object %u count %u > max %u", i,
				  obj[i].cnt, obj[i].max);
			model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_FPM_EXCEEDS);
			return;
		}
		next = RTE_ALIGN_CEIL(next, (uint64_t)IRDMA_HMC_PD_SIZE);
		obj[i].base = next;
		next += (uint64_t)obj[i].cnt * obj[i].size;
		if (i != IRDMA_HMC_OBJ_RESERVED || d->cfg.gen >= IRDMA_GEN_3)
			*word = rte_cpu_to_le_64((uint64_t)irdma_fpm_obj_count(qw) |
						 irdma_fpm_commit_encode_base(obj[i].base));
	}
	sds = (next - start + IRDMA_HMC_SD_SIZE - 1) / IRDMA_HMC_SD_SIZE;
	if (sds > d->cfg.max_pe_sds) {
		MODEL_LOG(DEBUG, d, "COMMIT_FPM: %" PRIu64 " SDs > budget %u", sds,
			  d->cfg.max_pe_sds);
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_FPM_EXCEEDS);
		return;
	}
	cq_tab = calloc(RTE_MAX(obj[IRDMA_HMC_OBJ_CQ].cnt, 1u), sizeof(*cq_tab));
	if (cq_tab == NULL) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_FPM_EXCEEDS);
		return;
	}
	if (model_dma_write(d, pa, &c, sizeof(c)) != 0) {
		free(cq_tab);
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
		return;
	}
	free(d->cq);
	d->cq = cq_tab;
	d->cq_tab = obj[IRDMA_HMC_OBJ_CQ].cnt;
	memcpy(d->obj, obj, sizeof(obj));
	d->sd_committed = (uint32_t)sds;
	d->fpm_committed = true;
	MODEL_LOG(DEBUG, d, "COMMIT_FPM: %" PRIu64 " bytes in %u SDs", next - start,
		  d->sd_committed);
}

/* Validate one SD entry; 0 or a minor code. */
static uint16_t
sds_check(struct model_dev *d, const struct irdma_sd_entry *e)
{
	uint32_t idx = irdma_get(e, SD_CMD_INDEX);
	rte_iova_t addr = irdma_get(e, SD_DATA_PFN) << IRDMA_HMC_PAGED_BP_SHIFT;
	bool direct = irdma_get(e, SD_DATA_TYPE) == IRDMA_SD_HW_TYPE_DIRECT;

	if (!irdma_get(e, SD_CMD_WRITE))
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (idx < d->cfg.first_pe_sd || idx - d->cfg.first_pe_sd >= d->sd_committed)
		return IRDMA_MODEL_MIN_BAD_ID;
	if (!irdma_get(e, SD_DATA_VALID))
		return 0;
	if (irdma_get(e, SD_DATA_BPCOUNT) > IRDMA_HMC_PD_PER_SD)
		return IRDMA_MODEL_MIN_BAD_FIELD;
	if (model_dma_check(d, addr, direct ? IRDMA_HMC_SD_SIZE : IRDMA_HMC_PD_SIZE) != 0)
		return IRDMA_MODEL_MIN_DMA_FAULT;
	return 0;
}

static void
sds_apply(struct model_dev *d, const struct irdma_sd_entry *e)
{
	struct model_sd *sd = &d->sd[irdma_get(e, SD_CMD_INDEX) - d->cfg.first_pe_sd];

	if (!irdma_get(e, SD_DATA_VALID)) {
		sd->type = IRDMA_SD_TYPE_INVALID;
		sd->addr = 0;
		return;
	}
	sd->type = irdma_get(e, SD_DATA_TYPE) == IRDMA_SD_HW_TYPE_DIRECT ?
		   IRDMA_SD_TYPE_DIRECT : IRDMA_SD_TYPE_PAGED;
	sd->addr = irdma_get(e, SD_DATA_PFN) << IRDMA_HMC_PAGED_BP_SHIFT;
}

/* Entry @p n of the WQE: command and data qwords. */
static void
sds_entry(struct irdma_sd_entry *e, uint64_t cmd, uint64_t data)
{
	e->qw[IRDMA_FIELD_QW(SD_CMD_WRITE)] = rte_cpu_to_le_64(cmd);
	e->qw[IRDMA_FIELD_QW(SD_DATA_VALID)] = rte_cpu_to_le_64(data);
}

void
model_op_update_sds(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	struct irdma_sd_entry e[IRDMA_UPESD_MAX_ENTRIES];
	uint32_t n = 0, extra = irdma_get(w, CQP_UPESD_ENTRY_COUNT), i;
	uint16_t minor = 0;

	if (irdma_get(w, CQP_UPESD_HMCFNID) != d->cfg.hmc_fn_id ||
	    extra > IRDMA_UPESD_MAX_ENTRIES - IRDMA_UPESD_WQE_ENTRIES) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_FIELD);
		return;
	}
	if (!d->fpm_committed) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_NO_FPM);
		return;
	}
	sds_entry(&e[n++], irdma_get(w, CQP_UPESD_E0_CMD), irdma_get(w, CQP_UPESD_E0_DATA));
	if (irdma_get(w, CQP_UPESD_E1_VALID))
		sds_entry(&e[n++], irdma_get(w, CQP_UPESD_E1_CMD),
			  irdma_get(w, CQP_UPESD_E1_DATA));
	if (irdma_get(w, CQP_UPESD_E2_VALID))
		sds_entry(&e[n++], irdma_get(w, CQP_UPESD_E2_CMD),
			  irdma_get(w, CQP_UPESD_E2_DATA));
	if (extra > 0) {
		rte_iova_t buf = irdma_get(w, CQP_UPESD_SDBUF_PA) <<
				 IRDMA_FIELD_SHIFT(CQP_UPESD_SDBUF_PA);

		if (model_dma_read(d, buf, &e[n], extra * sizeof(e[0])) != 0) {
			model_res_fail(r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
			return;
		}
		n += extra;
	}
	/* All or nothing: validate every entry before programming any. */
	for (i = 0; i < n && minor == 0; i++)
		minor = sds_check(d, &e[i]);
	if (minor != 0) {
		model_res_fail(r, IRDMA_CQP_MAJ_ERROR, minor);
		return;
	}
	for (i = 0; i < n; i++)
		sds_apply(d, &e[i]);
}

void
model_fpm_free(struct model_dev *d)
{
	model_qp_free(d);
	free(d->cq);
	d->cq = NULL;
	d->cq_tab = 0;
	d->fpm_committed = false;
}
