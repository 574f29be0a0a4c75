/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include "test_model_drv.h"

/* Memzone names must be unique in the process. */
static unsigned int tm_mz_seq;

int
tm_mem_alloc_unmapped(struct tm_mem *m, size_t len, size_t align)
{
	char name[RTE_MEMZONE_NAMESIZE];

	memset(m, 0, sizeof(*m));
	snprintf(name, sizeof(name), "tm%u", tm_mz_seq++);
	m->mz = rte_memzone_reserve_aligned(name, len, SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG,
					    align);
	if (m->mz == NULL) {
		printf("# memzone of %zu bytes (align %zu) failed: %s\n", len, align,
		       rte_strerror(rte_errno));
		return -ENOMEM;
	}
	m->va = m->mz->addr;
	m->iova = m->mz->iova;
	m->len = len;
	memset(m->va, 0, len);
	return 0;
}

int
tm_mem_alloc(struct tmd *t, struct tm_mem *m, size_t len, size_t align)
{
	int ret = tm_mem_alloc_unmapped(m, len, align);

	if (ret != 0)
		return ret;
	ret = irdma_hw_dma_map(&t->hw, m->va, m->iova, m->len);
	if (ret != 0) {
		rte_memzone_free(m->mz);
		memset(m, 0, sizeof(*m));
	}
	return ret;
}

int
tm_pages_alloc(struct tmd *t, struct tm_mem *m, size_t len)
{
	char name[RTE_MEMZONE_NAMESIZE];
	size_t off;

	memset(m, 0, sizeof(*m));
	snprintf(name, sizeof(name), "tm%u", tm_mz_seq++);
	m->mz = rte_memzone_reserve_aligned(name, len, SOCKET_ID_ANY, 0, IRDMA_HW_PAGE_SIZE);
	if (m->mz == NULL)
		return -ENOMEM;
	m->va = m->mz->addr;
	m->len = len;
	m->paged = true;
	memset(m->va, 0, len);
	for (off = 0; off < len; off += IRDMA_HW_PAGE_SIZE)
		if (irdma_hw_dma_map(&t->hw, m->va + off, tm_mem_iova(m, off),
				     IRDMA_HW_PAGE_SIZE) != 0)
			return -EIO;
	return 0;
}

rte_iova_t
tm_mem_iova(const struct tm_mem *m, size_t off)
{
	return m->paged ? rte_mem_virt2iova(m->va + off) : m->iova + off;
}

void
tm_mem_free(struct tmd *t, struct tm_mem *m)
{
	size_t off;

	if (m->mz == NULL)
		return;
	if (t != NULL && m->paged)
		for (off = 0; off < m->len; off += IRDMA_HW_PAGE_SIZE)
			irdma_hw_dma_unmap(&t->hw, m->va + off, tm_mem_iova(m, off),
					   IRDMA_HW_PAGE_SIZE);
	else if (t != NULL)
		irdma_hw_dma_unmap(&t->hw, m->va, m->iova, m->len);
	rte_memzone_free(m->mz);
	memset(m, 0, sizeof(*m));
}

uint32_t
tm_rd(struct tmd *t, uint32_t off)
{
	return irdma_rd32(&t->hw, off);
}

void
tm_wr(struct tmd *t, uint32_t off, uint32_t val)
{
	irdma_wr32(&t->hw, off, val);
}

int
tm_init(struct tmd *t, const struct irdma_model_config *cfg)
{
	int ret;

	memset(t, 0, sizeof(*t));
	ret = irdma_model_create(cfg, &t->hw);
	if (ret != 0)
		return ret;
	if (tm_mem_alloc(t, &t->ctx, IRDMA_CQP_CTX_SIZE, IRDMA_CQP_SQ_ALIGN) ||
	    tm_mem_alloc(t, &t->fpmq, IRDMA_FPM_BUF_SIZE, IRDMA_CQP_SQ_ALIGN) ||
	    tm_mem_alloc(t, &t->fpmc, IRDMA_FPM_BUF_SIZE, IRDMA_CQP_SQ_ALIGN))
		return -ENOMEM;
	t->compl_ctx = UINT64_C(0xfeedc0de12345678);
	return 0;
}

void
tm_fini(struct tmd *t)
{
	tm_mem_free(t, &t->ctx);
	tm_mem_free(t, &t->sq);
	tm_mem_free(t, &t->fpmq);
	tm_mem_free(t, &t->fpmc);
	tm_mem_free(t, &t->sdbuf);
	tm_mem_free(t, &t->ccq);
	tm_mem_free(t, &t->ccq_shadow);
	irdma_model_destroy(&t->hw);
}

int
tm_wait_fw(struct tmd *t)
{
	uint64_t dl;
	uint32_t i;

	for (i = 0, dl = tm_deadline(); tm_polling(&t->hw, i, dl); i++) {
		if (tm_rd(t, IRDMA_GLPE_CPUSTATUS0) == IRDMA_CPUSTATUS_READY &&
		    tm_rd(t, IRDMA_GLPE_CPUSTATUS1) == IRDMA_CPUSTATUS_READY &&
		    tm_rd(t, IRDMA_GLPE_CPUSTATUS2) == IRDMA_CPUSTATUS_READY)
			return (int)i;
		irdma_hw_service(&t->hw);
	}
	return -ETIMEDOUT;
}

void
tm_cqp_ctx_fill(struct tmd *t, struct irdma_cqp_ctx *c, uint32_t sq_size)
{
	memset(c, 0, sizeof(*c));
	irdma_set(c, CQPHC_SQSIZE, irdma_cqp_encode_sq_size(sq_size));
	irdma_set(c, CQPHC_PROTOCOL_USED, IRDMA_PROTOCOL_ROCE);
	irdma_set(c, CQPHC_SQ_PA, t->sq.iova);
	irdma_set(c, CQPHC_HMC_PROFILE, IRDMA_HMC_PROFILE_DEFAULT);
	irdma_set(c, CQPHC_COMPL_CTX, t->compl_ctx);
	irdma_set(c, CQPHC_HW_MAJVER, IRDMA_CQPHC_HW_MAJVER_GEN2);
}

uint32_t
tm_cqp_create_ctx(struct tmd *t, const struct irdma_cqp_ctx *c, uint32_t sq_size)
{
	uint64_t dl;
	uint32_t i, st = 0;

	memcpy(t->ctx.va, c, sizeof(*c));
	/* irdma_sc_cqp_init: reset tail, doorbell and status; then high, then low. */
	tm_wr(t, IRDMA_PFPE_CQPTAIL, 0);
	tm_wr(t, IRDMA_PFPE_CQPDB, 0);
	tm_wr(t, IRDMA_PFPE_CCQPSTATUS, 0);
	tm_wr(t, IRDMA_PFPE_CCQPHIGH, (uint32_t)(t->ctx.iova >> 32));
	tm_wr(t, IRDMA_PFPE_CCQPLOW, (uint32_t)t->ctx.iova);
	for (i = 0, dl = tm_deadline(); st == 0 && tm_polling(&t->hw, i, dl); i++) {
		irdma_hw_service(&t->hw);
		st = tm_rd(t, IRDMA_PFPE_CCQPSTATUS);
	}
	t->sq_size = sq_size;
	t->head = 0;
	t->pol = IRDMA_CQP_POLARITY_INIT;
	t->ccq_on = false;
	return st;
}

int
tm_cqp_destroy(struct tmd *t)
{
	uint64_t dl;
	uint32_t i;

	tm_wr(t, IRDMA_PFPE_CCQPHIGH, 0);
	tm_wr(t, IRDMA_PFPE_CCQPLOW, 0);
	for (i = 0, dl = tm_deadline(); tm_polling(&t->hw, i, dl); i++) {
		irdma_hw_service(&t->hw);
		if (!IRDMA_REG_GET(CCQPSTATUS_DONE, tm_rd(t, IRDMA_PFPE_CCQPSTATUS)))
			return 0;
	}
	return -ETIMEDOUT;
}

void
tm_wqe_op(struct irdma_cqp_wqe *w, uint32_t op)
{
	memset(w, 0, sizeof(*w));
	irdma_set(w, CQP_OPCODE, op);
}

uint32_t
tm_post(struct tmd *t, const struct irdma_cqp_wqe *w)
{
	uint32_t idx = t->head;
	struct irdma_cqp_wqe *slot = (struct irdma_cqp_wqe *)(void *)
				     (t->sq.va + (size_t)idx * IRDMA_CQP_WQE_SIZE);
	uint64_t hdr = irdma_qw_get(&w->qw[IRDMA_FIELD_QW(CQP_WQEVALID)]);
	unsigned int q;

	/* SW polarity flips when slot 0 is taken (irdma_sc_cqp_get_next_send_wqe_idx). */
	if (idx == 0)
		t->pol ^= 1;
	for (q = 0; q < RTE_DIM(w->qw); q++)
		if (q != IRDMA_FIELD_QW(CQP_WQEVALID))
			slot->qw[q] = w->qw[q];
	hdr = (hdr & ~IRDMA_FIELD_MASK(CQP_WQEVALID)) | IRDMA_PREP(CQP_WQEVALID, t->pol);
	/* Header last, as one release store (dma_wmb + set_64bit_val). */
	__atomic_store_n(&slot->qw[IRDMA_FIELD_QW(CQP_WQEVALID)], rte_cpu_to_le_64(hdr),
			 __ATOMIC_RELEASE);
	t->head = (t->head + 1) % t->sq_size;
	return idx;
}

void
tm_ring(struct tmd *t)
{
	tm_wr(t, IRDMA_PFPE_CQPDB, t->head);
}

void
tm_wait_regs(struct tmd *t, struct tm_res *r)
{
	uint64_t dl;
	uint32_t i, v = 0;

	memset(r, 0, sizeof(*r));
	r->rc = -ETIMEDOUT;
	for (i = 0, dl = tm_deadline(); tm_polling(&t->hw, i, dl); i++) {
		irdma_hw_service(&t->hw);
		v = tm_rd(t, IRDMA_PFPE_CQPTAIL);
		if (IRDMA_REG_GET(CQPTAIL_WQTAIL, v) == t->head) {
			r->rc = 0;
			break;
		}
	}
	if (r->rc == 0 && IRDMA_REG_GET(CQPTAIL_CQP_OP_ERR, v)) {
		uint32_t e = tm_rd(t, IRDMA_PFPE_CQPERRCODES);

		r->major = (uint16_t)IRDMA_REG_GET(CQPERRCODES_MAJOR, e);
		r->minor = (uint16_t)IRDMA_REG_GET(CQPERRCODES_MINOR, e);
	}
}

void
tm_wait_ccq(struct tmd *t, struct tm_res *r)
{
	struct irdma_cqe *cqe = (struct irdma_cqe *)(void *)
				(t->ccq.va + (size_t)t->ccq_head * IRDMA_CQE_SIZE);
	rte_le64_t *hdrp = &cqe->qw[IRDMA_FIELD_QW(CQE_VALID)];
	struct irdma_cq_shadow *sh = (struct irdma_cq_shadow *)(void *)t->ccq_shadow.va;
	uint64_t hdr = 0;
	uint64_t dl;
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->rc = -ETIMEDOUT;
	for (i = 0, dl = tm_deadline(); tm_polling(&t->hw, i, dl); i++) {
		irdma_hw_service(&t->hw);
		hdr = rte_le_to_cpu_64(__atomic_load_n(hdrp, __ATOMIC_ACQUIRE));
		if (IRDMA_GET(CQE_VALID, hdr) == t->ccq_pol) {
			r->rc = 0;
			break;
		}
	}
	if (r->rc != 0)
		return;
	r->major = IRDMA_GET(CQE_ERROR, hdr) ? (uint16_t)IRDMA_GET(CQE_MAJERR, hdr) : 0;
	r->minor = (uint16_t)IRDMA_GET(CQE_MINERR, hdr);
	r->idx = (uint32_t)IRDMA_GET(CQE_WQEIDX, hdr);
	r->retval = (uint32_t)irdma_get(cqe, CCQ_OPRETVAL);
	r->ctx = irdma_get(cqe, CQE_COMP_CTX);
	if (++t->ccq_head == t->ccq_size) {
		t->ccq_head = 0;
		t->ccq_pol ^= 1;
	}
	__atomic_store_n(&sh->qw[IRDMA_FIELD_QW(CQ_SHADOW_CQEIDX)],
			 rte_cpu_to_le_64(IRDMA_PREP(CQ_SHADOW_CQEIDX, t->ccq_head)),
			 __ATOMIC_RELEASE);
}

void
tm_exec(struct tmd *t, const struct irdma_cqp_wqe *w, struct tm_res *r)
{
	uint32_t idx = tm_post(t, w);

	tm_ring(t);
	if (t->ccq_on) {
		tm_wait_ccq(t, r);
		if (r->rc == 0 && r->idx != idx)
			r->rc = -EPROTO;
	} else {
		tm_wait_regs(t, r);
		r->idx = idx;
	}
}

int
tm_query_fpm(struct tmd *t, struct tm_res *r)
{
	struct irdma_cqp_wqe w;
	const struct irdma_fpm_query *q = (const void *)t->fpmq.va;
	unsigned int i;

	tm_wqe_op(&w, IRDMA_CQP_OP_QUERY_FPM_VAL);
	irdma_set(&w, CQP_FPM_HMCFNID, 0);
	irdma_set(&w, CQP_FPM_BUF_PA, t->fpmq.iova);
	tm_exec(t, &w, r);
	if (r->rc != 0 || r->major != 0)
		return -EIO;
	memcpy(&t->query, q, sizeof(t->query));
	t->first_sd = irdma_get(q, FPMQ_FIRST_PE_SD_INDEX);
	t->max_sds = irdma_get(q, FPMQ_MAX_PE_SDS);
	t->max_ceqs = irdma_get(q, FPMQ_MAX_CEQS);
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		int off = irdma_fpm_query_offset(i);
		uint64_t qw = off < 0 ? 0 : irdma_qw_get(&q->qw[off / IRDMA_QWORD_BYTES]);

		t->obj[i].max = irdma_fpm_obj_count(qw);
		t->obj[i].size = irdma_hmc_obj_is_fl(i) ? IRDMA_HMC_FL_OBJ_SIZE :
				 irdma_fpm_query_obj_size(qw);
	}
	t->obj[IRDMA_HMC_OBJ_QP].max = irdma_get(q, FPMQ_QP_MAX);
	t->obj[IRDMA_HMC_OBJ_CQ].max = irdma_get(q, FPMQ_CQ_MAX);
	t->obj[IRDMA_HMC_OBJ_APBVT].max = 1;
	t->obj[IRDMA_HMC_OBJ_APBVT].size = IRDMA_HMC_APBVT_SIZE;
	t->obj[IRDMA_HMC_OBJ_PBLE].size = IRDMA_HMC_PBLE_OBJ_SIZE;
	t->obj[IRDMA_HMC_OBJ_RESERVED].max = 0;
	t->obj[IRDMA_HMC_OBJ_RESERVED].size = 0;
	return 0;
}

int
tm_commit_fpm(struct tmd *t, const uint32_t cnt[IRDMA_HMC_OBJ_MAX], struct tm_res *r)
{
	struct irdma_fpm_commit *c = (void *)t->fpmc.va;
	struct irdma_cqp_wqe w;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++)
		if (i != IRDMA_HMC_OBJ_RESERVED)
			c->qw[irdma_fpm_commit_offset(i) / IRDMA_QWORD_BYTES] =
				rte_cpu_to_le_64(cnt[i]);
	tm_wqe_op(&w, IRDMA_CQP_OP_COMMIT_FPM_VAL);
	irdma_set(&w, CQP_FPM_HMCFNID, 0);
	irdma_set(&w, CQP_FPM_BUF_PA, t->fpmc.iova);
	irdma_set(&w, CQP_FPM_BUFSIZE, IRDMA_FPM_BUF_SIZE);
	tm_exec(t, &w, r);
	if (r->rc != 0 || r->major != 0)
		return -EIO;
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		uint64_t qw = irdma_qw_get(&c->qw[irdma_fpm_commit_offset(i) /
						   IRDMA_QWORD_BYTES]);

		t->obj[i].cnt = i == IRDMA_HMC_OBJ_RESERVED ? 0 : cnt[i];
		t->obj[i].base = i == IRDMA_HMC_OBJ_RESERVED ? 0 : irdma_fpm_commit_base(qw);
	}
	return 0;
}

void
tm_sd_entry(uint32_t sd_idx, rte_iova_t pa, bool valid, bool direct, uint64_t *cmd,
	    uint64_t *data)
{
	*cmd = IRDMA_PREP(SD_CMD_INDEX, sd_idx) | IRDMA_PREP(SD_CMD_PARTSEL, 1) |
	       IRDMA_PREP(SD_CMD_WRITE, 1);
	*data = IRDMA_PREP(SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD) |
		IRDMA_PREP(SD_DATA_TYPE, direct ? IRDMA_SD_HW_TYPE_DIRECT :
						  IRDMA_SD_HW_TYPE_PAGED);
	if (valid)
		*data |= IRDMA_PREP(SD_DATA_VALID, 1) |
			 IRDMA_PREP(SD_DATA_PFN, pa >> IRDMA_HMC_PAGED_BP_SHIFT);
}
