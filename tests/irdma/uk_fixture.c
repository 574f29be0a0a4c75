/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* The data-path tests' fixture (uk_fixture.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
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
	irdma_uk_qp_select(qp);
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
	irdma_uk_cq_select(cq);
}

void
ukf_cq_fini(struct irdma_cq *cq)
{
	free(cq->cur.base);
	free(cq->old.base);
	free(cq->shadow);
	memset(cq, 0, sizeof(*cq));
}

const struct ukf_hw_state ukf_hw_states[7] = {
	{ IRDMA_QP_HW_INVALID, 0, 0 }, { IRDMA_QP_HW_IDLE, 0, 1 },
	{ IRDMA_QP_HW_RTR, 0, 1 }, { IRDMA_QP_HW_RTS, 1, 1 },
	{ IRDMA_QP_HW_SQD, 1, 1 }, { IRDMA_QP_HW_TERMINATE, 0, 0 },
	{ IRDMA_QP_HW_ERROR, 0, 0 },
};

static void *
ukf_dup(const void *src, size_t len)
{
	void *p = malloc(len != 0 ? len : 1);

	if (p == NULL)
		abort();
	memcpy(p, src, len);
	return p;
}

void
ukf_snap_take(const struct irdma_qp *qp, struct ukf_snap *sn)
{
	size_t nrq = qp->rq.quanta >> qp->rq.shift;

	sn->sq = ukf_dup(qp->sq.base, (size_t)qp->sq.quanta * 32);
	sn->rq = ukf_dup(qp->rq.base, (size_t)qp->rq.quanta * 32);
	sn->trk = ukf_dup(qp->sq_wrtrk, sizeof(*qp->sq_wrtrk) * qp->sq.quanta);
	sn->rqw = ukf_dup(qp->rq_wrid, sizeof(*qp->rq_wrid) * nrq);
	sn->s = qp->sq;
	sn->r = qp->rq;
}

void
ukf_snap_free(struct ukf_snap *sn)
{
	free(sn->sq);
	free(sn->rq);
	free(sn->trk);
	free(sn->rqw);
	memset(sn, 0, sizeof(*sn));
}

void
ukf_snap_check(const struct irdma_qp *qp, struct ukf_snap *sn)
{
	size_t nrq = qp->rq.quanta >> qp->rq.shift;

	TEST_CHECK(memcmp(sn->sq, qp->sq.base, (size_t)qp->sq.quanta * 32) == 0);
	TEST_CHECK(memcmp(sn->rq, qp->rq.base, (size_t)qp->rq.quanta * 32) == 0);
	TEST_CHECK(memcmp(sn->trk, qp->sq_wrtrk, sizeof(*qp->sq_wrtrk) * qp->sq.quanta) == 0);
	TEST_CHECK(memcmp(sn->rqw, qp->rq_wrid, sizeof(*qp->rq_wrid) * nrq) == 0);
	TEST_CHECK_EQ(sn->s.head, qp->sq.head);
	TEST_CHECK_EQ(sn->s.polarity, qp->sq.polarity);
	TEST_CHECK_EQ(sn->r.head, qp->rq.head);
	TEST_CHECK_EQ(sn->r.polarity, qp->rq.polarity);
	ukf_snap_free(sn);
}

bool
ukf_sq_equal(const struct irdma_qp *a, const struct irdma_qp *b)
{
	bool ring = memcmp(a->sq.base, b->sq.base, (size_t)a->sq.quanta * 32) == 0;
	bool trk = memcmp(a->sq_wrtrk, b->sq_wrtrk, sizeof(*a->sq_wrtrk) * a->sq.quanta) == 0;

	TEST_CHECK(ring);
	TEST_CHECK(trk);
	TEST_CHECK_EQ(a->sq.head, b->sq.head);
	TEST_CHECK_EQ(a->sq.polarity, b->sq.polarity);
	return ring && trk && a->sq.head == b->sq.head && a->sq.polarity == b->sq.polarity;
}
