/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The HMC (doc/hardware.md §7; the kernel's irdma_sc_query_fpm_val, irdma_cfg_fpm_val,
 * irdma_sc_commit_fpm_val, irdma_set_sd_entry, irdma_sc_update_pe_sds): QUERY_FPM_VAL,
 * the sizing policy, COMMIT_FPM_VAL, and backing the committed layout with memory.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_hmc.h"
#include "irdma_log.h"

/** HTE and TIMER counts are computed in blocks of this many QPs. */
#define IRDMA_HMC_QP_BLOCK		512u

/* Printable object names for the logs. */
static const char *const irdma_hmc_obj_name[IRDMA_HMC_OBJ_MAX] = {
	[IRDMA_HMC_OBJ_QP] = "QP", [IRDMA_HMC_OBJ_CQ] = "CQ",
	[IRDMA_HMC_OBJ_RESERVED] = "RSVD", [IRDMA_HMC_OBJ_HTE] = "HTE",
	[IRDMA_HMC_OBJ_ARP] = "ARP", [IRDMA_HMC_OBJ_APBVT] = "APBVT",
	[IRDMA_HMC_OBJ_MR] = "MR", [IRDMA_HMC_OBJ_XF] = "XF", [IRDMA_HMC_OBJ_XFFL] = "XFFL",
	[IRDMA_HMC_OBJ_Q1] = "Q1", [IRDMA_HMC_OBJ_Q1FL] = "Q1FL",
	[IRDMA_HMC_OBJ_TIMER] = "TIMER", [IRDMA_HMC_OBJ_FSIMC] = "FSIMC",
	[IRDMA_HMC_OBJ_FSIAV] = "FSIAV", [IRDMA_HMC_OBJ_PBLE] = "PBLE",
	[IRDMA_HMC_OBJ_RRF] = "RRF", [IRDMA_HMC_OBJ_RRFFL] = "RRFFL",
	[IRDMA_HMC_OBJ_HDR] = "HDR", [IRDMA_HMC_OBJ_MD] = "MD",
	[IRDMA_HMC_OBJ_OOISC] = "OOISC", [IRDMA_HMC_OBJ_OOISCFFL] = "OOISCFFL",
};

/* ---- QUERY_FPM_VAL ---- */

/* Maximum count and object size of @p obj from the query buffer. */
static void
irdma_hmc_query_obj(const struct irdma_fpm_query *q, enum irdma_hmc_obj obj,
		    struct irdma_hmc_obj_info *info)
{
	int off = irdma_fpm_query_offset(obj);
	uint64_t qw = off < 0 ? 0 : irdma_qw_get(&q->qw[off / IRDMA_QWORD_BYTES]);

	info->max = irdma_fpm_obj_count(qw);
	info->size = irdma_hmc_obj_is_fl(obj) ? IRDMA_HMC_FL_OBJ_SIZE :
		     irdma_fpm_query_obj_size(qw);
	switch (obj) {
	case IRDMA_HMC_OBJ_QP:
		info->max = (uint32_t)irdma_get(q, FPMQ_QP_MAX);
		break;
	case IRDMA_HMC_OBJ_CQ:
		info->max = (uint32_t)irdma_get(q, FPMQ_CQ_MAX);
		break;
	case IRDMA_HMC_OBJ_APBVT:
		info->max = 1;
		info->size = IRDMA_HMC_APBVT_SIZE;
		break;
	case IRDMA_HMC_OBJ_PBLE:
		info->size = IRDMA_HMC_PBLE_OBJ_SIZE;
		break;
	case IRDMA_HMC_OBJ_RESERVED:
		info->max = 0;
		info->size = 0;
		break;
	default:
		break;
	}
}

int
irdma_hmc_query(struct irdma_ctrl *c)
{
	const struct irdma_fpm_query *q = c->fpm_buf.va;
	struct irdma_hmc *hmc = &c->hmc;
	struct irdma_cqp_wqe w;
	unsigned int i;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_QUERY_FPM_VAL);
	irdma_set(&w, CQP_FPM_HMCFNID, c->hmc_fn_id);
	irdma_set(&w, CQP_FPM_BUF_PA, c->fpm_buf.iova);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0)
		return ret;
	hmc->first_sd = (uint32_t)irdma_get(q, FPMQ_FIRST_PE_SD_INDEX);
	hmc->max_sds = (uint32_t)irdma_get(q, FPMQ_MAX_PE_SDS);
	hmc->max_ceqs = (uint32_t)irdma_get(q, FPMQ_MAX_CEQS);
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++)
		irdma_hmc_query_obj(q, (enum irdma_hmc_obj)i, &hmc->obj[i]);
	if (c->hw->gen >= IRDMA_GEN_3) {
		/* Gen3: object 2 is the SRQ, a plain object in the query's qword at 24. */
		uint64_t qw = irdma_qw_get(&q->qw[IRDMA_FPMQ_SRQ_OFFSET_GEN3 / IRDMA_QWORD_BYTES]);

		hmc->obj[IRDMA_HMC_OBJ_RESERVED].max = irdma_fpm_obj_count(qw);
		hmc->obj[IRDMA_HMC_OBJ_RESERVED].size = irdma_fpm_query_obj_size(qw);
	}
	if (hmc->max_ceqs == 0) {
		IRDMA_LOG(ERR, c->hw, "QUERY_FPM_VAL: the function has no CEQ");
		return -EPROTO;
	}
	return 0;
}

/* ---- sizing policy ---- */

/* Free-list count for @p cnt parents in blocks of @p block (0 block: -EPROTO). */
static int
irdma_hmc_fl_count(struct irdma_ctrl *c, const char *what, uint32_t cnt, uint64_t block,
		   uint32_t *out)
{
	if (block == 0) {
		IRDMA_LOG(ERR, c->hw, "QUERY_FPM_VAL: %s block size is 0", what);
		return -EPROTO;
	}
	*out = (uint32_t)((cnt + block - 1) / block);
	return 0;
}

/* Every count within its maximum, and the layout within the SD budget. */
static int
irdma_hmc_check(struct irdma_ctrl *c, const uint32_t cnt[IRDMA_HMC_OBJ_MAX])
{
	const struct irdma_hmc *hmc = &c->hmc;
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		if (cnt[i] > hmc->obj[i].max) {
			IRDMA_LOG(ERR, c->hw, "HMC sizing: %u %s objects, the device has %u",
				  cnt[i], irdma_hmc_obj_name[i], hmc->obj[i].max);
			return -ENOSPC;
		}
		total += RTE_ALIGN_CEIL((uint64_t)cnt[i] * hmc->obj[i].size,
					(uint64_t)IRDMA_HW_PAGE_SIZE);
	}
	if (total > (uint64_t)hmc->max_sds * IRDMA_HMC_SD_SIZE) {
		IRDMA_LOG(ERR, c->hw, "HMC sizing: %" PRIu64 " bytes exceed %u SDs", total,
			  hmc->max_sds);
		return -ENOSPC;
	}
	return 0;
}

int
irdma_hmc_size(struct irdma_ctrl *c, uint32_t cnt[IRDMA_HMC_OBJ_MAX])
{
	const struct irdma_fpm_query *q = c->fpm_buf.va;
	uint32_t qp = c->req.qps;
	uint32_t qp_blocks = RTE_ALIGN_CEIL(qp, IRDMA_HMC_QP_BLOCK);
	int ret;

	memset(cnt, 0, sizeof(uint32_t) * IRDMA_HMC_OBJ_MAX);
	cnt[IRDMA_HMC_OBJ_QP] = qp;
	cnt[IRDMA_HMC_OBJ_CQ] = c->req.cqs;
	cnt[IRDMA_HMC_OBJ_MR] = c->req.mrs;
	cnt[IRDMA_HMC_OBJ_RESERVED] = c->req.srqs;
	cnt[IRDMA_HMC_OBJ_HTE] = irdma_roundup_pow2_u32(qp_blocks) *
				 (uint32_t)irdma_get(q, FPMQ_HTMULTIPLIER);
	cnt[IRDMA_HMC_OBJ_ARP] = IRDMA_HMC_ARP_COUNT;
	cnt[IRDMA_HMC_OBJ_APBVT] = 1;
	cnt[IRDMA_HMC_OBJ_XF] = qp;
	cnt[IRDMA_HMC_OBJ_Q1] = qp;
	cnt[IRDMA_HMC_OBJ_TIMER] = (qp_blocks / IRDMA_HMC_QP_BLOCK + 1) *
				   (uint32_t)irdma_get(q, FPMQ_TIMERBUCKET);
	cnt[IRDMA_HMC_OBJ_FSIAV] = IRDMA_HMC_AH_COUNT;
	cnt[IRDMA_HMC_OBJ_PBLE] = IRDMA_HMC_PBLE_COUNT;
	cnt[IRDMA_HMC_OBJ_RRF] = qp;
	cnt[IRDMA_HMC_OBJ_HDR] = qp;
	cnt[IRDMA_HMC_OBJ_MD] = qp;
	cnt[IRDMA_HMC_OBJ_OOISC] = qp;
	ret = irdma_hmc_fl_count(c, "XF", qp, irdma_get(q, FPMQ_XF_BLOCK_SIZE),
				 &cnt[IRDMA_HMC_OBJ_XFFL]);
	if (ret == 0)
		ret = irdma_hmc_fl_count(c, "Q1", qp, irdma_get(q, FPMQ_Q1_BLOCK_SIZE),
					 &cnt[IRDMA_HMC_OBJ_Q1FL]);
	if (ret == 0)
		ret = irdma_hmc_fl_count(c, "RRF", qp, irdma_get(q, FPMQ_RRF_BLOCK_SIZE),
					 &cnt[IRDMA_HMC_OBJ_RRFFL]);
	if (ret == 0)
		ret = irdma_hmc_fl_count(c, "OOISC", qp, irdma_get(q, FPMQ_OOISCF_BLOCK_SIZE),
					 &cnt[IRDMA_HMC_OBJ_OOISCFFL]);
	if (ret == 0)
		ret = irdma_hmc_check(c, cnt);
	return ret;
}

/* ---- COMMIT_FPM_VAL ---- */

/* SDs spanned by the committed layout. */
static void
irdma_hmc_span(struct irdma_hmc *hmc)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned int i;

	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		const struct irdma_hmc_obj_info *o = &hmc->obj[i];

		if (o->cnt == 0)
			continue;
		lo = RTE_MIN(lo, o->base);
		hi = RTE_MAX(hi, o->base + (uint64_t)o->cnt * o->size);
	}
	if (hi == 0) {
		hmc->sd_first = 0;
		hmc->sd_cnt = 0;
		return;
	}
	hmc->sd_first = irdma_hmc_sd_index(lo);
	hmc->sd_cnt = irdma_hmc_sd_index(hi - 1) - hmc->sd_first + 1;
}

int
irdma_hmc_commit(struct irdma_ctrl *c, const uint32_t cnt[IRDMA_HMC_OBJ_MAX])
{
	struct irdma_fpm_commit *b = c->fpm_buf.va;
	struct irdma_hmc *hmc = &c->hmc;
	struct irdma_cqp_wqe w;
	unsigned int i;
	int ret;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++)
		if (i != IRDMA_HMC_OBJ_RESERVED || c->hw->gen >= IRDMA_GEN_3)
			b->qw[irdma_fpm_commit_offset(i) / IRDMA_QWORD_BYTES] =
				rte_cpu_to_le_64(cnt[i]);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_COMMIT_FPM_VAL);
	irdma_set(&w, CQP_FPM_HMCFNID, c->hmc_fn_id);
	irdma_set(&w, CQP_FPM_BUF_PA, c->fpm_buf.iova);
	irdma_set(&w, CQP_FPM_BUFSIZE, IRDMA_FPM_BUF_SIZE);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0)
		return ret;
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		if (i == IRDMA_HMC_OBJ_RESERVED && c->hw->gen < IRDMA_GEN_3) {
			hmc->obj[i].cnt = 0;
			hmc->obj[i].base = 0;
			continue;
		}
		hmc->obj[i].cnt = cnt[i];
		hmc->obj[i].base = irdma_fpm_commit_base(
			irdma_qw_get(&b->qw[irdma_fpm_commit_offset(i) / IRDMA_QWORD_BYTES]));
	}
	irdma_hmc_span(hmc);
	hmc->committed = true;
	return 0;
}

/* ---- SD backing ---- */

static void
irdma_hmc_sd_free(struct irdma_ctrl *c, struct irdma_hmc_sd *sd)
{
	unsigned int i;

	irdma_dma_free(c, &sd->direct);
	irdma_dma_free(c, &sd->pd_page);
	if (sd->pages != NULL) {
		for (i = 0; i < IRDMA_HMC_PD_PER_SD; i++)
			irdma_dma_free(c, &sd->pages[i]);
		free(sd->pages);
		sd->pages = NULL;
	}
	sd->type = IRDMA_SD_TYPE_INVALID;
}

/* One 4 KB backing page from rte_malloc, mapped at its own IOVA. */
static int
irdma_hmc_page_alloc(struct irdma_ctrl *c, struct irdma_dma_mem *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->va = rte_zmalloc_socket("irdma_hmc_page", IRDMA_HMC_PD_SIZE, IRDMA_HMC_PD_SIZE,
				   c->hw->numa_node < 0 ? SOCKET_ID_ANY : c->hw->numa_node);
	if (m->va == NULL)
		return -ENOMEM;
	m->iova = rte_malloc_virt2iova(m->va);
	m->len = IRDMA_HMC_PD_SIZE;
	ret = irdma_hw_dma_map(c->hw, m->va, m->iova, m->len);
	if (ret != 0) {
		rte_free(m->va);
		memset(m, 0, sizeof(*m));
	}
	return ret;
}

/* Paged SD: a PD page whose 512 entries point at 4 KB pages. */
static int
irdma_hmc_sd_paged(struct irdma_ctrl *c, struct irdma_hmc_sd *sd)
{
	struct irdma_pd_entry *pd;
	unsigned int i;
	int ret;

	sd->type = IRDMA_SD_TYPE_PAGED;
	sd->pages = calloc(IRDMA_HMC_PD_PER_SD, sizeof(*sd->pages));
	if (sd->pages == NULL)
		return -ENOMEM;
	ret = irdma_dma_alloc(c, &sd->pd_page, IRDMA_HMC_PD_SIZE, IRDMA_HMC_PD_SIZE);
	if (ret != 0)
		return ret;
	pd = sd->pd_page.va;
	for (i = 0; i < IRDMA_HMC_PD_PER_SD; i++) {
		ret = irdma_hmc_page_alloc(c, &sd->pages[i]);
		if (ret != 0)
			return ret;
		irdma_set(&pd[i], PD_PFN, sd->pages[i].iova >> IRDMA_HMC_PAGED_BP_SHIFT);
		irdma_set(&pd[i], PD_VALID, 1);
	}
	return 0;
}

/* Back one SD: direct when a 2 MB IOVA-contiguous buffer is available, else paged. */
static int
irdma_hmc_sd_alloc(struct irdma_ctrl *c, struct irdma_hmc_sd *sd)
{
	int ret;

	if (!c->req.sd_paged_only &&
	    irdma_dma_alloc(c, &sd->direct, IRDMA_HMC_SD_SIZE, IRDMA_HMC_SD_SIZE) == 0) {
		sd->type = IRDMA_SD_TYPE_DIRECT;
		return 0;
	}
	ret = irdma_hmc_sd_paged(c, sd);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "paged SD memory: %s", strerror(-ret));
		irdma_hmc_sd_free(c, sd);
	}
	return ret;
}

/* SD entry qwords as irdma_set_sd_entry / irdma_clr_sd_entry build them. */
static void
irdma_hmc_sd_entry(const struct irdma_hmc_sd *sd, uint32_t sd_idx, bool valid,
		   struct irdma_sd_entry *e)
{
	bool direct = sd->type == IRDMA_SD_TYPE_DIRECT;
	rte_iova_t pa = direct ? sd->direct.iova : sd->pd_page.iova;

	memset(e, 0, sizeof(*e));
	irdma_set(e, SD_CMD_INDEX, sd_idx);
	irdma_set(e, SD_CMD_PARTSEL, 1);
	irdma_set(e, SD_CMD_WRITE, 1);
	irdma_set(e, SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD);
	irdma_set(e, SD_DATA_TYPE, direct ? IRDMA_SD_HW_TYPE_DIRECT : IRDMA_SD_HW_TYPE_PAGED);
	if (valid) {
		irdma_set(e, SD_DATA_VALID, 1);
		irdma_set(e, SD_DATA_PFN, pa >> IRDMA_HMC_PAGED_BP_SHIFT);
	}
}

/* One UPDATE_PE_SDS for SDs [first, first + n), n <= IRDMA_UPESD_MAX_ENTRIES. */
static int
irdma_hmc_sds_update(struct irdma_ctrl *c, uint32_t first, uint32_t n, bool valid)
{
	struct irdma_sd_entry *buf = c->sd_buf.va;
	struct irdma_sd_entry e[IRDMA_UPESD_MAX_ENTRIES];
	struct irdma_cqp_wqe w;
	uint32_t i;

	for (i = 0; i < n; i++)
		irdma_hmc_sd_entry(&c->hmc.sds[first + i], c->hmc.sd_first + first + i, valid,
				   &e[i]);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_UPDATE_PE_SDS);
	irdma_set(&w, CQP_UPESD_HMCFNID, c->hmc_fn_id);
	irdma_set(&w, CQP_UPESD_E0_CMD, irdma_qw_get(&e[0].qw[0]));
	irdma_set(&w, CQP_UPESD_E0_DATA, irdma_qw_get(&e[0].qw[1]));
	if (n > 1) {
		irdma_set(&w, CQP_UPESD_E1_CMD, irdma_qw_get(&e[1].qw[0]));
		irdma_set(&w, CQP_UPESD_E1_DATA, irdma_qw_get(&e[1].qw[1]));
		irdma_set(&w, CQP_UPESD_E1_VALID, 1);
	}
	if (n > 2) {
		irdma_set(&w, CQP_UPESD_E2_CMD, irdma_qw_get(&e[2].qw[0]));
		irdma_set(&w, CQP_UPESD_E2_DATA, irdma_qw_get(&e[2].qw[1]));
		irdma_set(&w, CQP_UPESD_E2_VALID, 1);
	}
	if (n > IRDMA_UPESD_WQE_ENTRIES) {
		for (i = IRDMA_UPESD_WQE_ENTRIES; i < n; i++)
			buf[i - IRDMA_UPESD_WQE_ENTRIES] = e[i];
		irdma_set(&w, CQP_UPESD_ENTRY_COUNT, n - IRDMA_UPESD_WQE_ENTRIES);
		irdma_set(&w, CQP_UPESD_SDBUF_PA,
			  c->sd_buf.iova >> IRDMA_FIELD_SHIFT(CQP_UPESD_SDBUF_PA));
	}
	return irdma_cqp_exec(c, &w, NULL);
}

/* Program (or clear) every SD of the layout, IRDMA_UPESD_MAX_ENTRIES at a time. */
static int
irdma_hmc_sds_program(struct irdma_ctrl *c, bool valid)
{
	uint32_t i, n;
	int ret, first_err = 0;

	for (i = 0; i < c->hmc.sd_cnt; i += n) {
		n = RTE_MIN(c->hmc.sd_cnt - i, IRDMA_UPESD_MAX_ENTRIES);
		ret = irdma_hmc_sds_update(c, i, n, valid);
		if (ret != 0 && first_err == 0)
			first_err = ret;
		if (ret != 0 && valid)
			break;
	}
	return first_err;
}

int
irdma_hmc_back(struct irdma_ctrl *c)
{
	struct irdma_hmc *hmc = &c->hmc;
	uint32_t i;
	int ret;

	if (!hmc->committed || hmc->sd_cnt == 0) {
		IRDMA_LOG(ERR, c->hw, "HMC backing: no committed layout");
		return -EINVAL;
	}
	hmc->sds = calloc(hmc->sd_cnt, sizeof(*hmc->sds));
	if (hmc->sds == NULL) {
		IRDMA_LOG(ERR, c->hw, "HMC backing: no memory for %u SDs", hmc->sd_cnt);
		return -ENOMEM;
	}
	ret = irdma_dma_alloc(c, &c->sd_buf, IRDMA_UPESD_BUF_STRIDE, IRDMA_UPESD_BUF_ALIGN);
	for (i = 0; ret == 0 && i < hmc->sd_cnt; i++)
		ret = irdma_hmc_sd_alloc(c, &hmc->sds[i]);
	if (ret == 0)
		ret = irdma_hmc_sds_program(c, true);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "HMC backing of %u SDs failed: %s", hmc->sd_cnt,
			  strerror(-ret));
		irdma_hmc_unback(c);
	}
	return ret;
}

void
irdma_hmc_unback(struct irdma_ctrl *c)
{
	struct irdma_hmc *hmc = &c->hmc;
	uint32_t i;

	if (hmc->sds == NULL)
		return;
	if (c->sd_buf.va != NULL && c->cqp.created &&
	    irdma_hmc_sds_program(c, false) != 0)
		IRDMA_LOG(ERR, c->hw, "clearing the SDs failed");
	for (i = 0; i < hmc->sd_cnt; i++)
		irdma_hmc_sd_free(c, &hmc->sds[i]);
	free(hmc->sds);
	hmc->sds = NULL;
	irdma_dma_free(c, &c->sd_buf);
}
