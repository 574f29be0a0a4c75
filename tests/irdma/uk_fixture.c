/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* The data-path tests' fixture (uk_fixture.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uk_fixture.h"

unsigned int ukf_nb_writes;
uint32_t ukf_write_off[256];
uint32_t ukf_write_val[256];

void
ukf_regs_clear(void)
{
	ukf_nb_writes = 0;
}

static uint32_t
ukf_reg_read(struct irdma_hw *hw, uint32_t offset)
{
	(void)hw;
	(void)offset;
	return 0;
}

static void
ukf_reg_write(struct irdma_hw *hw, uint32_t offset, uint32_t value)
{
	(void)hw;
	if (ukf_nb_writes < 256) {
		ukf_write_off[ukf_nb_writes] = offset;
		ukf_write_val[ukf_nb_writes] = value;
	}
	ukf_nb_writes++;
}

static int
ukf_dma(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	(void)hw;
	(void)va;
	(void)iova;
	(void)len;
	return 0;
}

static void
ukf_close(struct irdma_hw *hw)
{
	(void)hw;
}

static const struct irdma_hw_backend ukf_be = {
	.name = "test",
	.reg_read = ukf_reg_read,
	.reg_write = ukf_reg_write,
	.dma_map = ukf_dma,
	.dma_unmap = ukf_dma,
	.close = ukf_close,
};

void
ukf_hw_init(struct irdma_hw *hw)
{
	memset(hw, 0, sizeof(*hw));
	hw->be = &ukf_be;
	hw->gen = 2;
	hw->bar0_len = 8u << 20;
	snprintf(hw->name, sizeof(hw->name), "uk_test");
}

const struct ukf_qp_conf ukf_qp_default = {
	.sq_quanta = 512,
	.rq_quanta = 64,
	.rq_shift = 2,
	.type = IRDMA_QP_TYPE_ROCE_RC,
	.max_send_sge = 13,
	.max_recv_sge = 7,
	.max_inline = 101,
};

static void *
ukf_zalloc(size_t len)
{
	void *p = aligned_alloc(64, (len + 63) & ~(size_t)63);

	if (p == NULL)
		abort();
	memset(p, 0, len);
	return p;
}

void
ukf_qp_init(struct irdma_qp *qp, struct irdma_hw *hw, const struct ukf_qp_conf *conf)
{
	memset(qp, 0, sizeof(*qp));
	qp->sq.base = ukf_zalloc((size_t)conf->sq_quanta * 32);
	qp->sq.quanta = conf->sq_quanta;
	qp->rq.base = ukf_zalloc((size_t)conf->rq_quanta * 32);
	qp->rq.quanta = conf->rq_quanta;
	qp->rq.shift = conf->rq_shift;
	qp->sq_wrtrk = ukf_zalloc(sizeof(*qp->sq_wrtrk) * conf->sq_quanta);
	qp->rq_wrid = ukf_zalloc(sizeof(*qp->rq_wrid) * (conf->rq_quanta >> conf->rq_shift));
	qp->shadow = ukf_zalloc(64);
	qp->hw = hw;
	qp->db_off = REG_WQEALLOC;
	qp->gen = 2;
	qp->qp_id = 0x123;
	qp->qp_type = conf->type;
	qp->hw_state = IRDMA_QP_HW_RTS;
	qp->max_send_sge = conf->max_send_sge;
	qp->max_recv_sge = conf->max_recv_sge;
	qp->max_inline = conf->max_inline;
	irdma_uk_sq_track_init(qp);
}

void
ukf_qp_fini(struct irdma_qp *qp)
{
	free(qp->sq.base);
	free(qp->rq.base);
	free(qp->sq_wrtrk);
	free(qp->rq_wrid);
	free(qp->shadow);
	memset(qp, 0, sizeof(*qp));
}

void
ukf_cq_init(struct irdma_cq *cq, struct irdma_hw *hw, uint32_t size)
{
	memset(cq, 0, sizeof(*cq));
	cq->cur.base = ukf_zalloc((size_t)size * 32);
	cq->cur.size = size;
	cq->cur.polarity = 1;
	cq->shadow = ukf_zalloc(64);
	cq->hw = hw;
	cq->id = 7;
}

void
ukf_cq_fini(struct irdma_cq *cq)
{
	free(cq->cur.base);
	free(cq->old.base);
	free(cq->shadow);
	memset(cq, 0, sizeof(*cq));
}
