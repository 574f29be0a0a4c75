/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Address handles and the ARP table end to end: rdmadev -> irdma PMD -> CQP -> device model.
 * AH create / destroy, the model's AH and ARP tables checked against what the test asked
 * for (MAC as a 48-bit value, first byte most significant; IPv4 in word 3; VLAN tag =
 * id | SL << 13), ARP entries shared and released by reference count, an RC QP brought to
 * RTR with an AV naming a valid ARP entry, fault injection on MANAGE_ARP,
 * CREATE_ADDR_HANDLE and DESTROY_ADDR_HANDLE, the model's strict checks through raw CQP
 * WQEs, and stop / close with nothing leaked.
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

/* Opcodes (doc/hardware.md §5.2), independent of base/. */
enum { OP_MODIFY_QP = 0x01, OP_MANAGE_ARP = 0x0f, OP_CREATE_AH = 0x1c, OP_DESTROY_AH = 0x1e };
enum { HW_RTR = 4, HW_RTS = 2 };
#define MAJ_ERROR 0xffff

/* The fixture's teardown, then: every ARP entry added was deleted. */
static void
ah_env_down(struct test_env *e)
{
	test_env_down(e);
	if (e->id >= 0)
		TEST_CHECK_EQ(e->st.cqp_op_done[OP_CREATE_AH], e->st.cqp_op_done[OP_DESTROY_AH]);
}

static uint64_t
arp_ops(const struct test_env *e)
{
	struct irdma_model_stats st;

	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(e->hw, &st), 0);
	return st.cqp_op_done[OP_MANAGE_ARP];
}

/* An IPv4-mapped AV to 10.0.0.@p host with MAC 02:00:00:00:00:@p mac. */
static struct rdmadev_ah_attr
av4(uint8_t host, uint8_t mac)
{
	struct rdmadev_ah_attr a;

	memset(&a, 0, sizeof(a));
	a.dgid[10] = 0xff;
	a.dgid[11] = 0xff;
	a.dgid[12] = 10;
	a.dgid[15] = host;
	a.dmac[0] = 0x02;
	a.dmac[5] = mac;
	a.hop_limit = 64;
	a.traffic_class = 0x20;
	a.flow_label = 0x12345;
	a.sl = 3;
	a.vlan_id = 100;
	a.port_num = 1;
	return a;
}

static uint32_t
ah_arp(const struct test_env *e, const struct rdmadev_ah *ah)
{
	struct irdma_model_ah_info in;

	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_ah_get(e->hw, ah->ah_id, &in), 0);
	return in.arp_idx;
}

static void
test_ah(void)
{
	struct rdmadev_ah *a1 = NULL, *a2 = NULL, *a3 = NULL, *a6 = NULL;
	struct rdmadev_ah_attr at = av4(7, 0x11), at3 = av4(8, 0x22), at6;
	struct irdma_model_arp_info arp;
	struct irdma_model_ah_info in;
	struct rdmadev_info info;
	uint64_t ops0;
	uint32_t arp1, arp3;
	struct test_env e;

	if (test_env_up(&e, DEVARGS, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)e.id, &info), 0);
	ops0 = arp_ops(&e);
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &at, &a1), 0);
	if (a1 == NULL)
		goto out;
	TEST_CHECK(a1->ah_id < info.max_ah);
	TEST_CHECK_EQ(arp_ops(&e), ops0 + 1);
	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_ah_get(e.hw, a1->ah_id, &in), 0);
	TEST_CHECK_EQ(in.mac, UINT64_C(0x020000000011));
	TEST_CHECK_EQ(in.ipv4, 1);
	TEST_CHECK_EQ(in.dest[3], 0x0a000007u);
	TEST_CHECK_EQ(in.dest[0] | in.dest[1] | in.dest[2], 0);
	TEST_CHECK_EQ(in.insert_vlan, 1);
	TEST_CHECK_EQ(in.vlan_tag, 100 | 3 << 13);
	TEST_CHECK_EQ(in.tc, 0x20);
	TEST_CHECK_EQ(in.hop_limit, 64);
	TEST_CHECK_EQ(in.flow_label, 0x12345u);
	TEST_CHECK_EQ(in.pd, rdmadev_obj_id(&e.pd->obj));
	TEST_CHECK_EQ(in.loopback, 0);
	arp1 = in.arp_idx;
	TEST_CHECK(arp1 != 0);
	memset(&arp, 0, sizeof(arp));
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp1, &arp), 0);
	TEST_CHECK_EQ(arp.mac, UINT64_C(0x020000000011));
	TEST_CHECK_EQ(arp.ah_refs, 1);

	/* Same destination: a new AH id, the same ARP entry, no MANAGE_ARP. */
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &at, &a2), 0);
	if (a2 == NULL)
		goto out;
	TEST_CHECK(a2->ah_id != a1->ah_id);
	TEST_CHECK_EQ(ah_arp(&e, a2), arp1);
	TEST_CHECK_EQ(arp_ops(&e), ops0 + 1);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp1, &arp), 0);
	TEST_CHECK_EQ(arp.ah_refs, 2);

	/* Another destination: another entry. */
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &at3, &a3), 0);
	if (a3 == NULL)
		goto out;
	arp3 = ah_arp(&e, a3);
	TEST_CHECK(arp3 != arp1 && arp3 != 0);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp3, &arp), 0);
	TEST_CHECK_EQ(arp.mac, UINT64_C(0x020000000022));

	/* IPv6, no VLAN. */
	memset(&at6, 0, sizeof(at6));
	at6.dgid[0] = 0x20;
	at6.dgid[1] = 0x01;
	at6.dgid[2] = 0x0d;
	at6.dgid[3] = 0xb8;
	at6.dgid[15] = 1;
	at6.dmac[0] = 0x02;
	at6.dmac[5] = 0x66;
	at6.hop_limit = 5;
	at6.sgid_index = 1;	/* the default table: 0 is IPv4-mapped, 1 link-local */
	at6.vlan_id = 0xffff;
	at6.port_num = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &at6, &a6), 0);
	if (a6 == NULL)
		goto out;
	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_ah_get(e.hw, a6->ah_id, &in), 0);
	TEST_CHECK_EQ(in.ipv4, 0);
	TEST_CHECK_EQ(in.dest[0], 0x20010db8u);
	TEST_CHECK_EQ(in.dest[1], 0);
	TEST_CHECK_EQ(in.dest[3], 1);
	TEST_CHECK_EQ(in.insert_vlan, 0);
	TEST_CHECK_EQ(in.hop_limit, 5);

	/* Release by reference count. */
	TEST_CHECK_EQ(rdmadev_ah_destroy(a1), 0);
	a1 = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp1, &arp), 0);
	TEST_CHECK_EQ(arp.ah_refs, 1);
	TEST_CHECK_EQ(rdmadev_ah_destroy(a2), 0);
	a2 = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp1, &arp), -ENOENT);
	TEST_CHECK_EQ(rdmadev_ah_destroy(a3), 0);
	a3 = NULL;
	TEST_CHECK_EQ(rdmadev_ah_destroy(a6), 0);
	a6 = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, arp3, &arp), -ENOENT);
	TEST_CHECK_EQ(arp_ops(&e), ops0 + 6);	/* 3 adds, 3 deletes */
out:
	if (a1 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a1), 0);
	if (a2 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a2), 0);
	if (a3 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a3), 0);
	if (a6 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a6), 0);
	ah_env_down(&e);
}

static int
modify(struct rdmadev_qp *qp, struct rdmadev_qp_attr *a, enum rdmadev_qp_state s,
       uint32_t mask)
{
	a->qp_state = s;
	return rdmadev_qp_modify(qp, a, mask | RDMADEV_QP_STATE);
}

/* Bits hi:lo of the little-endian qword at byte @p off of the QP's host context. */
static uint64_t
ctx_bits(const struct rdmadev_qp *qp, unsigned int off, unsigned int hi, unsigned int lo)
{
	const struct irdma_qp *q = qp->obj.fp.drv;

	return test_le_bits((const uint8_t *)q->hctx.va + 256, off, hi, lo);
}

/* Overwrite ARPIDX (byte 48, bits 63:48) of the QP's host context. */
static void
ctx_set_arp(struct rdmadev_qp *qp, uint16_t idx)
{
	const struct irdma_qp *q = qp->obj.fp.drv;
	uint8_t *ctx = (uint8_t *)q->hctx.va + 256;

	ctx[54] = (uint8_t)idx;
	ctx[55] = (uint8_t)(idx >> 8);
}

static uint64_t
refused(const struct test_env *e, unsigned int op)
{
	struct irdma_model_stats st;

	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(e->hw, &st), 0);
	return st.cqp_op_refused[op];
}

static struct rdmadev_qp *
rc_to_init(struct test_env *e)
{
	struct rdmadev_qp *qp = pmd_qp_create(e->pd, e->cq, RDMADEV_QPT_RC, 8);
	struct rdmadev_qp_attr a;

	if (qp == NULL)
		return NULL;
	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE;
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			     RDMADEV_QP_ACCESS_FLAGS), 0);
	return qp;
}

static const uint32_t rtr_mask = RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN |
				 RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
				 RDMADEV_QP_MIN_RNR_TIMER;

static const uint32_t rts_mask = RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
				 RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
				 RDMADEV_QP_MAX_QP_RD_ATOMIC;

static void
rtr_attr(struct rdmadev_qp_attr *a, const struct rdmadev_ah_attr *av)
{
	memset(a, 0, sizeof(*a));
	a->ah_attr = *av;
	a->path_mtu = RDMADEV_MTU_1024;
	a->dest_qp_num = 0x99;
	a->max_dest_rd_atomic = 4;
	a->min_rnr_timer = 12;
}

static void
test_qp_arp(void)
{
	struct rdmadev_ah_attr av = av4(9, 0x33);
	struct irdma_model_arp_info arp;
	struct irdma_model_qp_info qi;
	struct rdmadev_qp *qp = NULL, *qp2 = NULL;
	struct rdmadev_ah *ah = NULL;
	struct rdmadev_qp_attr a;
	uint32_t idx;
	uint64_t ops0;
	struct test_env e;

	if (test_env_up(&e, DEVARGS, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &ah), 0);
	if (ah == NULL)
		goto out;
	idx = ah_arp(&e, ah);
	qp = rc_to_init(&e);
	if (qp == NULL)
		goto out;
	ops0 = arp_ops(&e);
	rtr_attr(&a, &av);
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTR, rtr_mask), 0);
	memset(&qi, 0, sizeof(qi));
	TEST_CHECK_EQ(irdma_model_qp_get(e.hw, rdmadev_qp_num(qp), &qi), 0);
	TEST_CHECK_EQ(qi.state, HW_RTR);
	/* The QP shares the AH's entry: no MANAGE_ARP, the index in ARPIDX and REMENDPOINTIDX. */
	TEST_CHECK_EQ(qi.arp_idx, idx);
	TEST_CHECK_EQ(arp_ops(&e), ops0);
	TEST_CHECK_EQ(ctx_bits(qp, 48, 63, 48), idx);		/* ARPIDX */
	TEST_CHECK_EQ(ctx_bits(qp, 208, 16, 0), idx);		/* REMENDPOINTIDX */
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), 0);
	TEST_CHECK_EQ(arp.mac, UINT64_C(0x020000000033));

	/* The model refuses RTS while the context names a free or out-of-range ARP index. */
	memset(&a, 0, sizeof(a));
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	ctx_set_arp(qp, idx + 100);
	TEST_CHECK(modify(qp, &a, RDMADEV_QPS_RTS, rts_mask) < 0);
	ctx_set_arp(qp, 0xfff);
	TEST_CHECK(modify(qp, &a, RDMADEV_QPS_RTS, rts_mask) < 0);
	TEST_CHECK_EQ(refused(&e, OP_MODIFY_QP), 2);
	ctx_set_arp(qp, idx);
	TEST_CHECK_EQ(modify(qp, &a, RDMADEV_QPS_RTS, rts_mask), 0);
	TEST_CHECK_EQ(irdma_model_qp_get(e.hw, rdmadev_qp_num(qp), &qi), 0);
	TEST_CHECK_EQ(qi.state, HW_RTS);

	/* The AH goes; the QP still holds the entry. */
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	ah = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), 0);
	TEST_CHECK_EQ(arp.ah_refs, 0);

	/* A second QP to a new destination gets its own entry; MODIFY_QP refused: released. */
	qp2 = rc_to_init(&e);
	if (qp2 == NULL)
		goto out;
	av = av4(10, 0x44);
	rtr_attr(&a, &av);
	ops0 = arp_ops(&e);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MODIFY_QP, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK(modify(qp2, &a, RDMADEV_QPS_RTR, rtr_mask) < 0);
	TEST_CHECK_EQ(arp_ops(&e), ops0 + 2);	/* added, then deleted */
	/* MANAGE_ARP refused: the modify fails cleanly before MODIFY_QP. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MANAGE_ARP, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK(modify(qp2, &a, RDMADEV_QPS_RTR, rtr_mask) < 0);
	memset(&qi, 0, sizeof(qi));
	TEST_CHECK_EQ(irdma_model_qp_get(e.hw, rdmadev_qp_num(qp2), &qi), 0);
	TEST_CHECK(qi.state != HW_RTR);
	TEST_CHECK_EQ(modify(qp2, &a, RDMADEV_QPS_RTR, rtr_mask), 0);
	TEST_CHECK_EQ(irdma_model_qp_get(e.hw, rdmadev_qp_num(qp2), &qi), 0);
	TEST_CHECK(qi.arp_idx != 0 && qi.arp_idx != idx);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, qi.arp_idx, &arp), 0);
	TEST_CHECK_EQ(arp.mac, UINT64_C(0x020000000044));

	/* Destroy releases the entries. */
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	qp = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), -ENOENT);
	idx = qi.arp_idx;
	/* RESET releases it too. */
	memset(&a, 0, sizeof(a));
	TEST_CHECK_EQ(modify(qp2, &a, RDMADEV_QPS_RESET, 0), 0);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), -ENOENT);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp2), 0);
	qp2 = NULL;
out:
	if (ah != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	if (qp2 != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp2), 0);
	ah_env_down(&e);
}

static void
test_faults(void)
{
	struct rdmadev_ah_attr av = av4(11, 0x55);
	struct irdma_model_arp_info arp;
	struct irdma_model_ah_info in;
	struct rdmadev_ah *ah = NULL, *ah2 = NULL;
	uint32_t idx;
	uint64_t ops0;
	struct test_env e;

	if (test_env_up(&e, DEVARGS, 1) != 0)
		goto out;
	/* MANAGE_ARP add refused: no AH, no id, no entry. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MANAGE_ARP, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK(rdmadev_ah_create(e.pd, &av, &ah) < 0);
	TEST_CHECK(ah == NULL);
	TEST_CHECK_EQ(irdma_model_ah_get(e.hw, 0, &in), -ENOENT);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, 1, &arp), -ENOENT);
	/* CREATE_ADDR_HANDLE refused: the ARP entry added for it is deleted again. */
	ops0 = arp_ops(&e);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_CREATE_AH, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK(rdmadev_ah_create(e.pd, &av, &ah) < 0);
	TEST_CHECK(ah == NULL);
	TEST_CHECK_EQ(arp_ops(&e), ops0 + 2);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, 1, &arp), -ENOENT);
	/* Now it works, at the first id again (nothing leaked). */
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &ah), 0);
	if (ah == NULL)
		goto out;
	TEST_CHECK_EQ(ah->ah_id, 0);
	idx = ah_arp(&e, ah);
	/* DESTROY_ADDR_HANDLE refused: the AH stays usable, and destroys later. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_DESTROY_AH, 1, MAJ_ERROR, 1), 0);
	TEST_CHECK(rdmadev_ah_destroy(ah) < 0);
	TEST_CHECK_EQ(irdma_model_ah_get(e.hw, ah->ah_id, &in), 0);
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), 0);
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &ah2), 0);	/* shares the entry */
	if (ah2 != NULL)
		TEST_CHECK_EQ(ah_arp(&e, ah2), idx);
	/* MANAGE_ARP delete refused at the last put: the entry stays cached, is reused. */
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	ah = NULL;
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MANAGE_ARP, 1, MAJ_ERROR, 1), 0);
	if (ah2 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah2), 0);
	ah2 = NULL;
	TEST_CHECK_EQ(irdma_model_arp_get(e.hw, idx, &arp), 0);
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &ah), 0);
	if (ah != NULL)
		TEST_CHECK_EQ(ah_arp(&e, ah), idx);
out:
	if (ah != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	if (ah2 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(ah2), 0);
	ah_env_down(&e);
}

/* ---- the model's checks, through raw CQP WQEs ---- */

static int
raw_exec(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w, uint16_t *minor)
{
	struct irdma_cqp_cmpl cm;
	int ret;

	memset(&cm, 0, sizeof(cm));
	ret = irdma_cqp_exec(c, w, &cm);
	*minor = cm.minor;
	return ret;
}

static void
raw_arp(struct irdma_cqp_wqe *w, uint32_t idx, uint64_t mac)
{
	irdma_cqp_wqe_init(w, IRDMA_CQP_OP_MANAGE_ARP);
	irdma_set(w, CQP_ARP_INDEX, idx);
	if (mac != 0) {
		irdma_set(w, CQP_ARP_MAC, mac);
		irdma_set(w, CQP_ARP_ENTRYVALID, 1);
	}
}

static void
raw_ah(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, uint32_t idx, uint32_t arp,
       uint32_t pd)
{
	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_AH_IDX, idx);
	irdma_set(w, CQP_AH_ARPINDEX, arp);
	irdma_set(w, CQP_AH_PDINDEXLO, pd);
	irdma_set(w, CQP_AH_IPV4VALID, 1);
	irdma_set(w, CQP_AH_DEST_ADDR3, 0x0a000001);
}

#define RAW_REFUSED(c, w, want) do {						\
	uint16_t m_ = 0;							\
	TEST_CHECK(raw_exec(c, w, &m_) < 0);					\
	TEST_CHECK_EQ(m_, want);						\
} while (0)

#define RAW_OK(c, w) do {							\
	uint16_t m_ = 0;							\
	TEST_CHECK_EQ(raw_exec(c, w, &m_), 0);					\
} while (0)

static void
test_model_raw(void)
{
	const struct irdma_hmc_request req = { .qps = 64, .cqs = 64, .mrs = 64 };
	struct irdma_model_arp_info arp;
	struct irdma_cqp_wqe w;
	struct irdma_ctrl c;
	struct irdma_hw hw;
	uint32_t narp;

	pmd_raw_up(&hw, &c, &req);
	narp = c.hmc.obj[IRDMA_HMC_OBJ_ARP].cnt;
	TEST_CHECK(narp > 8);
	/* MANAGE_ARP: range, double add, double delete. */
	raw_arp(&w, narp, 0x020000000001);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_arp(&w, 5, 0x020000000001);
	RAW_OK(&c, &w);
	TEST_CHECK_EQ(irdma_model_arp_get(&hw, 5, &arp), 0);
	TEST_CHECK_EQ(arp.mac, UINT64_C(0x020000000001));
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_OBJ_EXISTS);
	raw_arp(&w, 6, 0);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_NO_OBJ);
	/* CREATE_ADDR_HANDLE: AH range, ARP range and validity, PD. */
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, c.hmc.obj[IRDMA_HMC_OBJ_FSIAV].cnt, 5, 3);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, 2, narp, 3);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, 2, 6, 3);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_NO_OBJ);
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, 2, 5, 1);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, 2, 5, 3);
	irdma_set(&w, CQP_AH_DEST_ADDR0, 1);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_FIELD);
	raw_ah(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, 2, 5, 3);
	RAW_OK(&c, &w);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_OBJ_EXISTS);
	/* An ARP entry an AH names cannot be deleted. */
	raw_arp(&w, 5, 0);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_STATE);
	/* DESTROY_ADDR_HANDLE: range, unknown AH, then the real one; double destroy. */
	raw_ah(&w, IRDMA_CQP_OP_DESTROY_ADDR_HANDLE, c.hmc.obj[IRDMA_HMC_OBJ_FSIAV].cnt, 5, 3);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_BAD_ID);
	raw_ah(&w, IRDMA_CQP_OP_DESTROY_ADDR_HANDLE, 3, 5, 3);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_NO_OBJ);
	raw_ah(&w, IRDMA_CQP_OP_DESTROY_ADDR_HANDLE, 2, 5, 3);
	RAW_OK(&c, &w);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_NO_OBJ);
	raw_arp(&w, 5, 0);
	RAW_OK(&c, &w);
	RAW_REFUSED(&c, &w, IRDMA_MODEL_MIN_NO_OBJ);
	TEST_CHECK_EQ(irdma_model_arp_get(&hw, 5, &arp), -ENOENT);
	pmd_raw_down(&hw, &c);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_ah") < 0)
		return test_eal_bail();
	TEST_RUN(test_ah);
	TEST_RUN(test_qp_arp);
	TEST_RUN(test_faults);
	TEST_RUN(test_model_raw);
	rte_eal_cleanup();
	return test_done();
}
