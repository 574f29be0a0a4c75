/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCE RC and UD QPs end to end: rdmadev -> irdma PMD -> CQP -> device model. Create, the
 * verbs modify chain RESET -> INIT -> RTR -> RTS -> ERR (and RESET -> INIT again), destroy;
 * the model's QP table and the host context bytes are checked against expectations
 * computed here (sizes from the gen2 rules, context fields decoded at their doc/hardware.md
 * byte / bit positions, not through base/). Fault injection on CREATE_QP, MODIFY_QP,
 * FLUSH_WQES and DESTROY_QP; a CQ a QP uses refuses destroy; nothing leaks.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_ctrl.h"
#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"

/* The device of every case (test_env_up() appends the variant's mode). */
#define DEVARGS "irdma_model0,qps=64,cqs=64,mrs=64"

/* HW QP states and types (doc/hardware.md §5.3 / §5.4), independent of base/. */
enum { HW_INVALID = 0, HW_IDLE = 1, HW_RTS = 2, HW_SQD = 3, HW_RTR = 4, HW_ERROR = 6 };
enum { TYPE_RC = 3, TYPE_UD = 4 };
enum { OP_CREATE_QP = 0x00, OP_MODIFY_QP = 0x01, OP_DESTROY_QP = 0x02, OP_FLUSH = 0x22 };
#define MAJ_ERROR 0xffff

/* The host context the driver built for @p qp (Q2 at +0, context at +256). */
static const uint8_t *
ctx_of(const struct rdmadev_qp *qp)
{
	const struct irdma_qp *q = qp->obj.fp.drv;

	return (const uint8_t *)q->hctx.va + 256;
}

static uint32_t
pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static struct rdmadev_qp_init_attr
init_attr(const struct test_env *e, enum rdmadev_qp_type type)
{
	struct rdmadev_qp_init_attr a;

	memset(&a, 0, sizeof(a));
	a.pd = e->pd;
	a.send_cq = e->scq;
	a.recv_cq = e->rcq;
	a.qp_type = type;
	a.cap.max_send_wr = 32;
	a.cap.max_recv_wr = 16;
	a.cap.max_send_sge = 2;
	a.cap.max_recv_sge = 2;
	a.cap.max_inline_data = 32;
	return a;
}

/* Checks after create, common to RC and UD. */
static void
check_created(const struct test_env *e, struct rdmadev_qp *qp, uint32_t type)
{
	/* SQ: 2 SGEs + 1 (immediate) < 4 and 32 B inline <= 39 -> shift 1; 32 WRs. */
	const uint32_t sq_quanta = pow2((32u << 1) + 258), rq_quanta = pow2((16u << 1) + 1);
	const uint32_t sq_bytes = RTE_ALIGN_CEIL(sq_quanta * 32, 4096);
	const uint32_t rq_bytes = RTE_ALIGN_CEIL(rq_quanta * 32, 4096);
	uint32_t qpn = rdmadev_qp_num(qp);
	struct irdma_model_qp_info in;
	const uint8_t *c = ctx_of(qp);
	uint32_t pd = rdmadev_obj_id(&e->pd->obj);

	TEST_CHECK(qpn >= 3 && qpn < 64);
	TEST_CHECK_EQ(qp->init.cap.max_send_wr, (sq_quanta - 258) >> 1);
	TEST_CHECK_EQ(qp->init.cap.max_recv_wr, (rq_quanta - 1) >> 1);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e->id), qpn, &in), 0);
	TEST_CHECK_EQ(in.type, type);
	TEST_CHECK_EQ(in.state, HW_INVALID);
	TEST_CHECK_EQ(in.pbl_level, 0);
	TEST_CHECK_EQ(in.sq_quanta, sq_quanta);
	TEST_CHECK_EQ(in.rq_quanta, rq_quanta);
	TEST_CHECK_EQ(in.rq_shift, 1);
	TEST_CHECK_EQ(in.rq_pa, in.sq_pa + sq_bytes);
	TEST_CHECK_EQ(in.shadow_pa, in.sq_pa + sq_bytes + rq_bytes);
	TEST_CHECK_EQ(in.tx_cq, rdmadev_obj_id(&e->scq->obj));
	TEST_CHECK_EQ(in.rx_cq, rdmadev_obj_id(&e->rcq->obj));
	TEST_CHECK_EQ(in.pd, pd);
	TEST_CHECK_EQ(in.compl_ctx, (uint64_t)(uintptr_t)qp->obj.fp.drv);
	TEST_CHECK_EQ(in.arp_idx, 0);
	/* The context bytes, decoded at the doc/hardware.md positions. */
	TEST_CHECK_EQ(test_le_bits(c, 0, 9, 8), 1);			/* RQWQESIZE */
	TEST_CHECK_EQ(test_le_bits(c, 8, 63, 0), in.sq_pa);		/* SQ address */
	TEST_CHECK_EQ(test_le_bits(c, 16, 63, 0), in.rq_pa);	/* RQ address */
	TEST_CHECK_EQ(test_le_bits(c, 24, 15, 12), 9 - 2);		/* SQSIZE: 512 quanta */
	TEST_CHECK_EQ(test_le_bits(c, 24, 11, 8), 6 - 2);		/* RQSIZE: 64 quanta */
	TEST_CHECK_EQ(test_le_bits(c, 24, 47, 32), 0xc000);		/* source port */
	TEST_CHECK_EQ(test_le_bits(c, 24, 63, 48), 4791);		/* RoCEv2 port */
	TEST_CHECK_EQ(test_le_bits(c, 56, 63, 48), pd & 0xffff);	/* PDIDX */
	TEST_CHECK_EQ(test_le_bits(c, 0, 21, 20), pd >> 16);	/* PDIDXHI */
	TEST_CHECK_EQ(test_le_bits(c, 136, 18, 0), in.tx_cq);	/* TXCQNUM */
	TEST_CHECK_EQ(test_le_bits(c, 136, 50, 32), in.rx_cq);	/* RXCQNUM */
	TEST_CHECK_EQ(test_le_bits(c, 168, 63, 0), in.compl_ctx);	/* completion context */
}

static int
modify(struct rdmadev_qp *qp, struct rdmadev_qp_attr *a, enum rdmadev_qp_state s,
       uint32_t mask)
{
	a->qp_state = s;
	return rdmadev_qp_modify(qp, a, mask | RDMADEV_QP_STATE);
}

static void
qp_info(const struct test_env *e, const struct rdmadev_qp *qp, struct irdma_model_qp_info *in)
{
	memset(in, 0, sizeof(*in));
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e->id), rdmadev_qp_num(qp), in), 0);
}

/* The test's device and a QP of @p type on it (@p ia its attributes); NULL, the device
 * closed again, on failure. */
static struct rdmadev_qp *
env_qp_up(struct test_env *e, enum rdmadev_qp_type type, struct rdmadev_qp_init_attr *ia)
{
	struct rdmadev_qp *qp = NULL;

	if (test_env_up(e, DEVARGS, 2) == 0) {
		*ia = init_attr(e, type);
		TEST_CHECK_EQ(rdmadev_qp_create(ia, &qp), 0);
	}
	if (qp == NULL)
		test_env_down(e);
	return qp;
}

static void
test_rc(void)
{
	struct rdmadev_qp_init_attr ia;
	struct irdma_model_qp_info in;
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp = NULL;
	const uint8_t *c;
	struct test_env e;
	uint32_t qpn;

	qp = env_qp_up(&e, RDMADEV_QPT_RC, &ia);
	if (qp == NULL)
		return;
	qpn = rdmadev_qp_num(qp);
	check_created(&e, qp, TYPE_RC);
	c = ctx_of(qp);
	/* A CQ a QP uses cannot go. */
	TEST_CHECK_EQ(rdmadev_cq_destroy(e.scq), -EBUSY);
	TEST_CHECK_EQ(rdmadev_cq_destroy(e.rcq), -EBUSY);

	memset(&a, 0, sizeof(a));
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
			    RDMADEV_ACCESS_REMOTE_READ;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_ACCESS_FLAGS), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_IDLE);
	TEST_CHECK_EQ(in.rdok, 1);
	TEST_CHECK_EQ(in.wrrdrspok, 1);
	TEST_CHECK_EQ(test_le_bits(c, 160, 21, 21), 1);	/* RDOK */
	TEST_CHECK_EQ(test_le_bits(c, 160, 20, 20), 1);	/* WRRDRSPOK */

	memset(&a, 0, sizeof(a));
	a.ah_attr.dgid[10] = 0xff;
	a.ah_attr.dgid[11] = 0xff;
	a.ah_attr.dgid[12] = 192;
	a.ah_attr.dgid[13] = 168;
	a.ah_attr.dgid[14] = 1;
	a.ah_attr.dgid[15] = 2;
	a.ah_attr.hop_limit = 64;
	a.ah_attr.traffic_class = 0x10;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 0x1234;
	a.rq_psn = 0x111;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTR, RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
			     RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
			     RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_RTR);
	TEST_CHECK_EQ(in.dest_qpn, 0x1234);
	TEST_CHECK_EQ(in.rq_psn, 0x111);
	TEST_CHECK_EQ(in.mss, 1024);
	TEST_CHECK_EQ(in.ird_enc, 2);			/* round_up_pow2(2 * 16) = 32 -> 2 */
	TEST_CHECK_EQ(in.arp_idx, 0);
	TEST_CHECK_EQ(test_le_bits(c, 0, 3, 3), 1);		/* IPV4 */
	TEST_CHECK_EQ(test_le_bits(c, 32, 31, 0), 0xc0a80102);	/* DESTIPADDR3 */
	TEST_CHECK_EQ(test_le_bits(c, 24, 7, 0), 64);	/* TTL */
	TEST_CHECK_EQ(test_le_bits(c, 24, 31, 24), 0x10);	/* TOS */
	TEST_CHECK_EQ(test_le_bits(c, 0, 5, 5), 0);		/* no VLAN */
	TEST_CHECK_EQ(test_le_bits(c, 64, 23, 0), 0x1234);	/* DESTQP */
	TEST_CHECK_EQ(test_le_bits(c, 88, 23, 0), 0x111);	/* EPSN */
	TEST_CHECK_EQ(test_le_bits(c, 48, 29, 16), 1024);	/* SNDMSS */

	memset(&a, 0, sizeof(a));
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 6;
	a.sq_psn = 0x222;
	a.max_rd_atomic = 8;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTS, RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
			     RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
			     RDMADEV_QP_MAX_QP_RD_ATOMIC), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_RTS);
	TEST_CHECK_EQ(in.sq_psn, 0x222);
	TEST_CHECK_EQ(in.ord, 8);
	TEST_CHECK_EQ(in.retry, 7);
	TEST_CHECK_EQ(in.rnr_retry, 6);
	TEST_CHECK_EQ(in.dest_qpn, 0x1234);		/* kept from RTR */
	TEST_CHECK_EQ(test_le_bits(c, 80, 23, 0), 0x222);	/* PSNNXT */
	TEST_CHECK_EQ(test_le_bits(c, 96, 55, 32), 0x222);	/* PSNUNA */
	TEST_CHECK_EQ(test_le_bits(c, 128, 53, 48), 7);	/* REXMIT_THRESH */
	TEST_CHECK_EQ(test_le_bits(c, 128, 56, 54), 6);	/* RNRNAK_THRESH */
	TEST_CHECK_EQ(test_le_bits(c, 160, 7, 0), 8);	/* ORDSIZE */
	TEST_CHECK_EQ(in.modifies, 3);

	/* ERR: SQD, ERROR, then FLUSH_WQES of SQ and RQ. */
	memset(&a, 0, sizeof(a));
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_ERR, 0), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_ERROR);
	TEST_CHECK_EQ(in.modifies, 5);
	TEST_CHECK_EQ(in.sq_flushes, 1);
	TEST_CHECK_EQ(in.rq_flushes, 1);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_ERR);

	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), qpn, &in), -ENOENT);
	test_env_down(&e);
}

static void
test_ud(void)
{
	struct rdmadev_qp_init_attr ia;
	struct irdma_model_qp_info in;
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp = NULL;
	const uint8_t *c;
	struct test_env e;

	qp = env_qp_up(&e, RDMADEV_QPT_UD, &ia);
	if (qp == NULL)
		return;
	check_created(&e, qp, TYPE_UD);
	c = ctx_of(qp);
	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qkey = 0x11111111;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_QKEY), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_IDLE);
	TEST_CHECK_EQ(in.qkey, 0x11111111);
	TEST_CHECK_EQ(test_le_bits(c, 64, 63, 32), 0x11111111);	/* QKEY */
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTR, 0), 0);
	a.sq_psn = 0x42;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTS, RDMADEV_QP_SQ_PSN), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_RTS);
	TEST_CHECK_EQ(in.sq_psn, 0x42);
	TEST_CHECK_EQ(in.qkey, 0x11111111);
	/* RTS -> RTS with a new Q_Key. */
	a.qkey = 0x22222222;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTS, RDMADEV_QP_QKEY), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_RTS);
	TEST_CHECK_EQ(in.qkey, 0x22222222);
	/* RESET from RTS: SQD, ERROR, flush; then INIT again from the device's ERROR. */
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RESET, 0), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_ERROR);
	TEST_CHECK_EQ(in.sq_flushes, 1);
	TEST_CHECK_EQ(test_le_bits(c, 64, 63, 32), 0);	/* the attributes start again */
	a.qkey = 0x33;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_QKEY), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_IDLE);
	TEST_CHECK_EQ(in.qkey, 0x33);
	/* Destroy in INIT. */
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	test_env_down(&e);
}

static void
test_faults(void)
{
	struct rdmadev_qp_init_attr ia;
	struct irdma_model_qp_info in;
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev *dev;
	struct test_env e;
	uint32_t qpn;

	if (!test_env_ready(&e, DEVARGS, 2))
		return;
	dev = rdmadev_get((int16_t)e.id);
	ia = init_attr(&e, RDMADEV_QPT_RC);
	/* CREATE_QP refused: error, nothing tracked, the CQs are free again. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(e.id), OP_CREATE_QP, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK_EQ(rdmadev_qp_create(&ia, &qp), -EIO);
	TEST_CHECK(qp == NULL);
	TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(e.scq->obj.users, 0);
	TEST_CHECK_EQ(e.pd->obj.users, 0);

	TEST_CHECK_EQ(rdmadev_qp_create(&ia, &qp), 0);
	if (qp == NULL) {
		test_env_down(&e);
		return;
	}
	qpn = rdmadev_qp_num(qp);
	TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_QP, NULL), 1);
	/* MODIFY_QP refused: error, the QP stays in RESET, the device in INVALID. */
	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_READ;
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(e.id), OP_MODIFY_QP, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_ACCESS_FLAGS), -EIO);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RESET);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_INVALID);
	TEST_CHECK_EQ(test_le_bits(ctx_of(qp), 160, 21, 21), 0);	/* context restored */
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_ACCESS_FLAGS), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_IDLE);
	TEST_CHECK_EQ(in.rdok, 1);
	/* FLUSH_WQES refused: ERR fails, the device is in ERROR; the retry flushes. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(e.id), OP_FLUSH, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_ERR, 0), -EIO);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_INIT);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_ERROR);
	TEST_CHECK_EQ(in.sq_flushes, 0);
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_ERR, 0), 0);
	qp_info(&e, qp, &in);
	TEST_CHECK_EQ(in.sq_flushes, 1);
	TEST_CHECK_EQ(in.rq_flushes, 1);
	/* DESTROY_QP refused: the QP stays alive and tracked (abort_del), then goes. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(e.id), OP_DESTROY_QP, 1, MAJ_ERROR, 1),
		      0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), -EIO);
	TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_QP, NULL), 1);
	TEST_CHECK_EQ(rdmadev_qp_num(qp), qpn);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_ERR);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), qpn, &in), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(e.scq), -EBUSY);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), qpn, &in), -ENOENT);
	test_env_down(&e);
}

/* The model refuses what the driver never sends: an illegal HW step, reserved QP ids. */
static void
test_model_refusals(void)
{
	struct rdmadev_qp_init_attr ia;
	struct irdma_model_qp_info in;
	struct irdma_model_stats st0, st1;
	struct rdmadev_qp *qp = NULL;
	struct test_env e;

	qp = env_qp_up(&e, RDMADEV_QPT_RC, &ia);
	if (qp == NULL)
		return;
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), 0, &in), -ENOENT);
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e.id), 64, &in), -ENOENT);
	TEST_CHECK_EQ(irdma_model_qp_get(NULL, 3, &in), -EINVAL);
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st0), 0);
	/* The largest SQ: 13 SGEs -> shift 3, (4063 << 3) + 258 -> 32768 quanta, no CQP error. */
	ia.cap.max_send_wr = 4063;
	ia.cap.max_send_sge = 13;
	{
		struct rdmadev_qp *big = NULL;

		TEST_CHECK_EQ(rdmadev_qp_create(&ia, &big), 0);
		if (big != NULL) {
			TEST_CHECK_EQ(big->init.cap.max_send_wr, (32768u - 258) >> 3);
			TEST_CHECK_EQ(rdmadev_qp_destroy(big), 0);
		}
	}
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st1), 0);
	TEST_CHECK_EQ(st1.cqp_errors, st0.cqp_errors);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	test_env_down(&e);
}

/* ---- the model alone, driven through the control path with hand-built WQEs ---- */

struct raw {
	struct irdma_hw hw;
	struct irdma_ctrl c;
	struct irdma_dma_mem ring;	/* SQ 8 quanta (4 KB) | RQ 8 quanta (4 KB) | shadow */
	struct irdma_dma_mem ctx;	/* 256-B context */
	struct irdma_dma_mem cq;	/* CQ ring + shadow */
};

#define RAW_CQ 5u
#define RAW_QP 7u

static int
raw_exec(struct raw *r, const struct irdma_cqp_wqe *w, uint16_t *minor)
{
	struct irdma_cqp_cmpl cm;
	int rc;

	memset(&cm, 0, sizeof(cm));
	rc = irdma_cqp_exec(&r->c, w, &cm);
	*minor = cm.minor;
	return rc;
}

/* A context with 8-quantum SQ / RQ at ring, PD 3, CQs RAW_CQ. */
static void
raw_ctx(struct raw *r, uint32_t cq)
{
	struct irdma_qp_ctx *x = r->ctx.va;

	memset(x, 0, sizeof(*x));
	irdma_set(x, QPC_SQ_ADDR, r->ring.iova);
	irdma_set(x, QPC_RQ_ADDR, r->ring.iova + 4096);
	irdma_set(x, QPC_SQSIZE, irdma_encode_wq_size(8));
	irdma_set(x, QPC_RQSIZE, irdma_encode_wq_size(8));
	irdma_set(x, QPC_PDIDX, IRDMA_FIRST_USER_PD_ID);
	irdma_set(x, QPC_TXCQNUM, cq);
	irdma_set(x, QPC_RXCQNUM, cq);
	/* the work scheduler leaf the PF bring-up made (the model refuses others) */
	irdma_set(x, QPC_QSHANDLE, r->c.pf.qs_handle);
}

static void
raw_qp_wqe(struct raw *r, struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, uint32_t id,
	   uint32_t type, uint32_t next)
{
	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_QP_ID, id);
	irdma_set(w, CQP_QP_TYPE, type);
	irdma_set(w, CQP_QP_CTX_PA, r->ctx.iova);
	irdma_set(w, CQP_QP_SHADOW_PA, r->ring.iova + 8192);
	irdma_set(w, CQP_QP_CQNUMVALID, 1);
	irdma_set(w, CQP_QP_NEXTIWSTATE, next);
}

/* Expect the command to fail with model minor code @p want. */
static void
raw_refused(struct raw *r, const struct irdma_cqp_wqe *w, uint16_t want)
{
	uint16_t minor = 0;

	TEST_CHECK_EQ(raw_exec(r, w, &minor), -EIO);
	TEST_CHECK_EQ(minor, want);
}

static void
raw_ok(struct raw *r, const struct irdma_cqp_wqe *w)
{
	uint16_t minor = 0;

	TEST_CHECK_EQ(raw_exec(r, w, &minor), 0);
}

static void
test_model_raw(void)
{
	const struct irdma_hmc_request req = { .qps = 64, .cqs = 64, .mrs = 64 };
	struct irdma_model_qp_info in;
	struct irdma_cqp_wqe w;
	struct raw r;

	memset(&r, 0, sizeof(r));
	pmd_raw_up(&r.hw, &r.c, &req);
	TEST_CHECK_EQ(irdma_dma_alloc(&r.c, &r.ring, 8192 + 64, 4096), 0);
	TEST_CHECK_EQ(irdma_dma_alloc(&r.c, &r.ctx, 256, 256), 0);
	TEST_CHECK_EQ(irdma_dma_alloc(&r.c, &r.cq, 4096 + 128, 4096), 0);
	if (r.ring.va == NULL || r.ctx.va == NULL || r.cq.va == NULL)
		goto out;
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_CREATE_CQ);
	irdma_set(&w, CQP_CQ_ID, RAW_CQ);
	irdma_set(&w, CQP_CQ_SIZE, 64);
	irdma_set(&w, CQP_CQ_PA, r.cq.iova);
	irdma_set(&w, CQP_CQ_SHADOW_PA, r.cq.iova + 4096);
	raw_ok(&r, &w);

	raw_ctx(&r, RAW_CQ);
	/* Reserved and out-of-range ids, bad type, a non-INVALID first state; QP 1 (the
	 * GSI) is UD only. */
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, 0, TYPE_RC, HW_INVALID);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, 2, TYPE_RC, HW_INVALID);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, 1, TYPE_RC, HW_INVALID);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_FIELD);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, 64, TYPE_RC, HW_INVALID);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, 1, HW_INVALID);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_FIELD);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, TYPE_RC, HW_RTS);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_STATE);
	/* Context: misaligned shadow, unmapped context, sizes, CQ and PD ids. */
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, TYPE_RC, HW_INVALID);
	irdma_set(&w, CQP_QP_SHADOW_PA, r.ring.iova + 8192 + 64);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ALIGN);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, TYPE_RC, HW_INVALID);
	irdma_set(&w, CQP_QP_CTX_PA, r.ctx.iova + 0x10000000);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_DMA_FAULT);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, TYPE_RC, HW_INVALID);
	irdma_set((struct irdma_qp_ctx *)r.ctx.va, QPC_RQ_ADDR, r.ring.iova + 0x10000000);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_DMA_FAULT);	/* RQ not mapped */
	raw_ctx(&r, RAW_CQ);
	irdma_set((struct irdma_qp_ctx *)r.ctx.va, QPC_SQ_ADDR, r.ring.iova + 16);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ALIGN);	/* SQ not quantum-aligned */
	irdma_set((struct irdma_qp_ctx *)r.ctx.va, QPC_SQSIZE, 0);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_SIZE);
	raw_ctx(&r, RAW_CQ + 1);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);	/* CQ does not exist */
	raw_ctx(&r, 0);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);	/* the CCQ */
	raw_ctx(&r, RAW_CQ);
	irdma_set((struct irdma_qp_ctx *)r.ctx.va, QPC_PDIDX, 2);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_ID);	/* reserved PD */
	raw_ctx(&r, RAW_CQ);
	irdma_set(&w, CQP_QP_CQNUMVALID, 0);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_FIELD);
	TEST_CHECK_EQ(irdma_model_qp_get(&r.hw, RAW_QP, &in), -ENOENT);
	/* Created; a second create is refused. */
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_CREATE_QP, RAW_QP, TYPE_RC, HW_INVALID);
	raw_ok(&r, &w);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_OBJ_EXISTS);
	/* The HW state machine: INVALID -> RTS refused, flush outside ERROR refused. */
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, HW_RTS);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_STATE);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_UD, HW_IDLE);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_FIELD);	/* type changed */
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_FLUSH_WQES);
	irdma_set(&w, CQP_FLUSH_QP_ID, RAW_QP);
	irdma_set(&w, CQP_FLUSH_SQ, 1);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_STATE);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, HW_IDLE);
	raw_ok(&r, &w);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, HW_SQD);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_STATE);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, 5);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_STATE);	/* TERMINATE: iWARP only */
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, HW_ERROR);
	raw_ok(&r, &w);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_FLUSH_WQES);
	irdma_set(&w, CQP_FLUSH_QP_ID, RAW_QP);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_BAD_FIELD);	/* nothing to flush */
	irdma_set(&w, CQP_FLUSH_RQ, 1);
	raw_ok(&r, &w);
	TEST_CHECK_EQ(irdma_model_qp_get(&r.hw, RAW_QP, &in), 0);
	TEST_CHECK_EQ(in.state, HW_ERROR);
	TEST_CHECK_EQ(in.rq_flushes, 1);
	TEST_CHECK_EQ(in.sq_flushes, 0);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_DESTROY_QP, RAW_QP, TYPE_RC, 0);
	raw_ok(&r, &w);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_NO_OBJ);
	raw_qp_wqe(&r, &w, IRDMA_CQP_OP_MODIFY_QP, RAW_QP, TYPE_RC, HW_IDLE);
	raw_refused(&r, &w, IRDMA_MODEL_MIN_NO_OBJ);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DESTROY_CQ);
	irdma_set(&w, CQP_CQ_ID, RAW_CQ);
	raw_ok(&r, &w);
out:
	irdma_dma_free(&r.c, &r.ring);
	irdma_dma_free(&r.c, &r.ctx);
	irdma_dma_free(&r.c, &r.cq);
	pmd_raw_down(&r.hw, &r.c);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_qp") < 0)
		return test_eal_bail();
	TEST_RUN(test_rc);
	TEST_RUN(test_ud);
	TEST_RUN(test_faults);
	TEST_RUN(test_model_refusals);
	TEST_RUN(test_model_raw);
	rte_eal_cleanup();
	return test_done();
}
