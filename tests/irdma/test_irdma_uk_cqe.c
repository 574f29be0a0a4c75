/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data path's CQE parsing against doc/hardware.md (§3, §4): CQEs built here at the
 * bit positions of doc/hardware.md (uk_fixture.h, not base/) in a CQ in test memory, for WRs posted
 * through the driver on a QP in test memory. SQ and RQ success for every opcode, immediate
 * data in the two-slot extended CQE, invalidated keys, UD source QPN / MAC / VLAN, every
 * error code, flush replay (one flushed CQE completes every outstanding WR once, NOPs
 * skipped), polarity over several wraps of a ring whose size is not a power of two, the
 * shadow consumer index, partial polls, the old ring of a resize, the completion counter,
 * the service hook and the CQ arm; and the poll paths against each other (the hot loop, the
 * general loop, irdma_uk_cqe_slow: the same CQEs give the same completions).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "test.h"
#include "uk_fixture.h"

static struct irdma_hw hw;
static struct rdmadev_sge sges[4];

/* What the "device" writes into one CQE. */
struct cqe_spec {
	const struct irdma_qp *qp;	/* completion context (NULL: a cleaned CQE) */
	uint32_t sq;			/* 1: SQ completion */
	uint32_t wqe_idx;		/* WQE index (quanta) */
	uint32_t op;			/* opcode field */
	uint32_t error, major, minor;	/* error bit and codes */
	uint32_t payload;		/* qw0 31:0 */
	uint32_t qw2_lo;		/* invalidated stag / UD source QPN */
	uint32_t stag;			/* qw3 bit 53 */
	uint32_t ext;			/* two-slot extended CQE */
	uint32_t imm, imm_valid;	/* extension qw0 / qw3 bit 62 */
	uint64_t smac;			/* extension qw2 47:0 */
	uint32_t smac_valid;		/* extension qw3 bit 61 */
	uint32_t vlan, vlan_valid;	/* extension qw2 63:48 / qw3 bit 60 */
};

/* The device side of a CQ ring: where it writes next and with which valid bit. */
struct producer {
	uint8_t *base;
	uint32_t size, head, pol;
};

static void
prod_init(struct producer *p, const struct irdma_cq_ring *r)
{
	p->base = r->base;
	p->size = r->size;
	p->head = 0;
	p->pol = 1;
}

static void
prod_step(struct producer *p)
{
	if (++p->head == p->size) {
		p->head = 0;
		p->pol ^= 1;
	}
}

/* Write one CQE (two slots when extended), qword 3 of each slot last. */
static void
produce(struct producer *p, const struct cqe_spec *s)
{
	uint8_t *c = p->base + (size_t)p->head * 32;
	uint64_t qw3;

	test_le64_put(c, 0, s->payload);
	test_le64_put(c, 8, (uint64_t)(uintptr_t)s->qp);
	test_le64_put(c, 16, (uint64_t)s->qw2_lo | (uint64_t)(s->qp ? s->qp->qp_id : 0) << 32);
	qw3 = PUTF(s->minor, C_MINERR) | PUTF(s->major, C_MAJERR) |
	      PUTF(s->wqe_idx, C_WQEIDX) | PUTF(s->ext, C_EXT) | PUTF(s->stag, C_STAG) |
	      PUTF(s->error, C_ERROR) | PUTF(s->op, C_OP) | PUTF(s->sq, C_SQ) |
	      PUTF(p->pol, C_VALID);
	if (s->ext) {
		struct producer e = *p;
		uint8_t *x;

		prod_step(&e);
		x = p->base + (size_t)e.head * 32;
		test_le64_put(x, 0, s->imm);
		test_le64_put(x, 8, 0);
		test_le64_put(x, 16, (s->smac & 0xffffffffffffull) | (uint64_t)s->vlan << 48);
		test_le64_put(x, 24, (uint64_t)e.pol << 63 | (uint64_t)s->imm_valid << 62 |
				(uint64_t)s->smac_valid << 61 | (uint64_t)s->vlan_valid << 60);
		prod_step(p);
	}
	test_le64_put(c, 24, qw3);
	prod_step(p);
}

static uint64_t
shadow_head(const struct irdma_cq *cq)
{
	return test_le64(cq->shadow, 0);
}

/* Post one send WR; @return its first quantum (after any chunk NOPs). */
static uint32_t
post_send1(struct irdma_qp *qp, uint8_t opcode, uint16_t nsge, uint8_t flags, uint64_t wr_id)
{
	struct rdmadev_send_wr wr = {
		.wr_id = wr_id, .sg_list = sges, .num_sge = nsge, .opcode = opcode,
		.flags = flags, .rdma = { .remote_addr = 0x1000, .rkey = 1 },
	};
	uint32_t idx = qp->sq.head;
	int err;

	TEST_CHECK_EQ(irdma_uk_post_send(qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	while (qp->sq_wrtrk[idx].nop)
		idx = (idx + 1) & (qp->sq.quanta - 1);
	return idx;
}

/* Post one receive WR; @return its first quantum. */
static uint32_t
post_recv1(struct irdma_qp *qp, uint64_t wr_id)
{
	struct rdmadev_recv_wr wr = { .wr_id = wr_id, .sg_list = sges, .num_sge = 1 };
	uint32_t idx = qp->rq.head;
	int err;

	TEST_CHECK_EQ(irdma_uk_post_recv(qp, &wr, 1, &err), 1);
	return idx;
}

/* A successful SQ completion for every opcode; byte counts from the WRs. */
static void
test_sq_success(void)
{
	static const struct {
		uint8_t wr_op, hw_op, wc_op;
		uint16_t nsge;
	} ops[] = {
		{ RDMADEV_WR_SEND, 0x03, RDMADEV_WC_SEND, 2 },
		{ RDMADEV_WR_SEND_IMM, 0x03, RDMADEV_WC_SEND, 1 },
		{ RDMADEV_WR_SEND_INV, 0x04, RDMADEV_WC_SEND, 1 },
		{ RDMADEV_WR_RDMA_WRITE, 0x00, RDMADEV_WC_RDMA_WRITE, 3 },
		{ RDMADEV_WR_RDMA_WRITE_IMM, 0x00, RDMADEV_WC_RDMA_WRITE, 1 },
		{ RDMADEV_WR_RDMA_READ, 0x01, RDMADEV_WC_RDMA_READ, 4 },
		{ RDMADEV_WR_LOCAL_INV, 0x0a, RDMADEV_WC_LOCAL_INV, 0 },
		{ RDMADEV_WR_NOP, 0x0c, RDMADEV_WC_NOP, 0 },
	};
	struct rdmadev_wc wc[4];
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	unsigned int i;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 16);
	prod_init(&p, &cq.cur);
	for (i = 0; i < RTE_DIM(ops); i++) {
		uint32_t idx = post_send1(&qp, ops[i].wr_op, ops[i].nsge, RDMADEV_SEND_SIGNALED,
					  0x5000 + i);
		uint32_t len = 0, k;

		for (k = 0; k < ops[i].nsge; k++)
			len += sges[k].length;
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = idx,
						.op = ops[i].hw_op });
		memset(wc, 0xa5, sizeof(wc));
		TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
		TEST_CHECK_EQ(wc[0].wr_id, 0x5000 + i);
		TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_SUCCESS);
		TEST_CHECK_EQ(wc[0].opcode, ops[i].wc_op);
		TEST_CHECK_EQ(wc[0].byte_len, len);
		TEST_CHECK_EQ(wc[0].qp_num, 0x123);
		TEST_CHECK_EQ(wc[0].wc_flags, 0);
		TEST_CHECK_EQ(wc[0].vendor_err, 0);
		TEST_CHECK_EQ(wc[0].src_qp, 0);
		TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);
		TEST_CHECK_EQ(shadow_head(&cq), i + 1);
	}
	/* unsignaled WRs and chunk NOPs before a signaled one complete silently */
	for (i = 0; i < 7; i++)
		post_send1(&qp, RDMADEV_WR_RDMA_WRITE, 1, 0, 0x6000 + i);
	i = post_send1(&qp, RDMADEV_WR_RDMA_WRITE, 4, RDMADEV_SEND_SIGNALED, 0x6100);
	TEST_CHECK(qp.sq_wrtrk[i - 1].nop);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = i });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 0x6100);
	TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);
	/* a CQE of a destroyed QP (context cleaned to 0) is consumed without a completion */
	produce(&p, &(struct cqe_spec){ .qp = NULL, .sq = 1 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);
	TEST_CHECK_EQ(cq.cur.head, p.head);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* RQ: byte counts, RECV vs RECV_RDMA_IMM, immediate (extended CQE), invalidated key. */
static void
test_rq_success(void)
{
	struct rdmadev_wc wc[4];
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t idx;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 16);
	prod_init(&p, &cq.cur);

	idx = post_recv1(&qp, 0x71);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x04, .payload = 100 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 0x71);
	TEST_CHECK_EQ(wc[0].opcode, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(wc[0].byte_len, 100);
	TEST_CHECK_EQ(wc[0].wc_flags, 0);
	TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(qp.rq.tail, qp.rq.head);

	idx = post_recv1(&qp, 0x72);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x0b, .payload = 0,
					.ext = 1, .imm = 0xdeadbeef, .imm_valid = 1 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 0x72);
	TEST_CHECK_EQ(wc[0].opcode, RDMADEV_WC_RECV_RDMA_IMM);
	TEST_CHECK_EQ(wc[0].wc_flags, RDMADEV_WC_WITH_IMM);
	TEST_CHECK_EQ(wc[0].imm_data, rte_cpu_to_be_32(0xdeadbeef));
	TEST_CHECK_EQ(cq.cur.head, 3);		/* the extension took a slot */
	TEST_CHECK_EQ(shadow_head(&cq), 3);

	idx = post_recv1(&qp, 0x73);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x09, .payload = 7,
					.ext = 1, .imm = 0x01020304, .imm_valid = 1 });
	idx = post_recv1(&qp, 0x74);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x05, .payload = 8,
					.ext = 1, .imm = 0x0a0b0c0d, .imm_valid = 1 });
	idx = post_recv1(&qp, 0x75);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x17, .payload = 9,
					.stag = 1, .qw2_lo = 0x44556677 });
	idx = post_recv1(&qp, 0x76);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x04, .payload = 10,
					.ext = 1, .imm_valid = 0 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 4);
	TEST_CHECK_EQ(wc[0].opcode, RDMADEV_WC_RECV_RDMA_IMM);
	TEST_CHECK_EQ(wc[0].imm_data, rte_cpu_to_be_32(0x01020304));
	TEST_CHECK_EQ(wc[0].byte_len, 7);
	TEST_CHECK_EQ(wc[1].opcode, RDMADEV_WC_RECV);
	TEST_CHECK_EQ(wc[1].wc_flags, RDMADEV_WC_WITH_IMM);
	TEST_CHECK_EQ(wc[1].imm_data, rte_cpu_to_be_32(0x0a0b0c0d));
	TEST_CHECK_EQ(wc[2].wr_id, 0x75);
	TEST_CHECK_EQ(wc[2].wc_flags, RDMADEV_WC_WITH_INV);
	TEST_CHECK_EQ(wc[2].invalidated_rkey, 0x44556677);
	TEST_CHECK_EQ(wc[3].wr_id, 0x76);
	TEST_CHECK_EQ(wc[3].wc_flags, 0);
	TEST_CHECK_EQ(wc[3].byte_len, 10);
	TEST_CHECK_EQ(cq.cur.head, p.head);
	TEST_CHECK_EQ(qp.rq.tail, qp.rq.head);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* UD receive: source QPN, MAC (byte 0 of the field = smac[5]), VLAN and SL, GRH. */
static void
test_ud_recv(void)
{
	static const uint8_t mac[6] = { 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6 };
	struct ukf_qp_conf conf = ukf_qp_default;
	struct rdmadev_wc wc[2];
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t idx;

	conf.type = IRDMA_QP_TYPE_ROCE_UD;
	ukf_qp_init(&qp, &hw, &conf);
	ukf_cq_init(&cq, &hw, 8);
	prod_init(&p, &cq.cur);
	idx = post_recv1(&qp, 0x81);
	/* the STAG bit is IPV4 on UD: not an invalidation */
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x04, .payload = 40 + 64,
					.qw2_lo = 0x3456, .stag = 1, .ext = 1,
					.smac = 0xa1b2c3d4e5f6ull, .smac_valid = 1,
					.vlan = 5u << 13 | 100, .vlan_valid = 1 });
	idx = post_recv1(&qp, 0x82);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .wqe_idx = idx, .op = 0x04, .payload = 50,
					.qw2_lo = 0x777 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 2), 2);
	TEST_CHECK_EQ(wc[0].wr_id, 0x81);
	TEST_CHECK_EQ(wc[0].src_qp, 0x3456);
	TEST_CHECK_EQ(wc[0].byte_len, 104);
	TEST_CHECK(memcmp(wc[0].smac, mac, 6) == 0);
	TEST_CHECK_EQ(wc[0].vlan_id, 100);
	TEST_CHECK_EQ(wc[0].sl, 5);
	TEST_CHECK_EQ(wc[0].wc_flags, RDMADEV_WC_GRH | RDMADEV_WC_WITH_SMAC | RDMADEV_WC_WITH_VLAN);
	TEST_CHECK_EQ(wc[1].src_qp, 0x777);
	TEST_CHECK_EQ(wc[1].wc_flags, RDMADEV_WC_GRH);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* Every flush minor code, a non-flush major, on the SQ and the RQ. */
static void
test_errors(void)
{
	static const uint8_t status[] = {
		RDMADEV_WC_GENERAL_ERR, RDMADEV_WC_WR_FLUSH_ERR, RDMADEV_WC_LOC_PROT_ERR,
		RDMADEV_WC_REM_ACCESS_ERR, RDMADEV_WC_LOC_QP_OP_ERR, RDMADEV_WC_REM_OP_ERR,
		RDMADEV_WC_LOC_LEN_ERR, RDMADEV_WC_FATAL_ERR, RDMADEV_WC_RETRY_EXC_ERR,
		RDMADEV_WC_MW_BIND_ERR, RDMADEV_WC_REM_INV_REQ_ERR, RDMADEV_WC_RNR_RETRY_EXC_ERR,
		RDMADEV_WC_GENERAL_ERR, RDMADEV_WC_GENERAL_ERR,
	};
	struct rdmadev_wc wc[4];
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t minor, idx, sq;

	for (sq = 0; sq < 2; sq++) {
		for (minor = 0; minor < RTE_DIM(status); minor++) {
			ukf_qp_init(&qp, &hw, &ukf_qp_default);
			ukf_cq_init(&cq, &hw, 8);
			prod_init(&p, &cq.cur);
			idx = sq ? post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED, 9) :
				   post_recv1(&qp, 9);
			produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = sq, .wqe_idx = idx,
							.error = 1, .major = 1, .minor = minor });
			TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 1);
			TEST_CHECK_EQ(wc[0].wr_id, 9);
			TEST_CHECK_EQ(wc[0].status, status[minor]);
			TEST_CHECK_EQ(wc[0].vendor_err, 1u << 16 | minor);
			TEST_CHECK_EQ(wc[0].opcode, sq ? RDMADEV_WC_SEND : RDMADEV_WC_RECV);
			/* the queue is empty: the flushed CQE is consumed */
			TEST_CHECK_EQ(cq.cur.head, 1);
			TEST_CHECK_EQ(shadow_head(&cq), 1);
			ukf_cq_fini(&cq);
			ukf_qp_fini(&qp);
		}
		/* another major: GENERAL_ERR for that WR only, then the next completes */
		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		ukf_cq_init(&cq, &hw, 8);
		prod_init(&p, &cq.cur);
		idx = sq ? post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED, 10) :
			   post_recv1(&qp, 10);
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = sq, .wqe_idx = idx, .error = 1,
						.major = 0x8003, .minor = 0x42 });
		idx = sq ? post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED, 11) :
			   post_recv1(&qp, 11);
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = sq, .wqe_idx = idx });
		TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 2);
		TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_GENERAL_ERR);
		TEST_CHECK_EQ(wc[0].vendor_err, 0x80030042u);
		TEST_CHECK_EQ(wc[1].wr_id, 11);
		TEST_CHECK_EQ(wc[1].status, RDMADEV_WC_SUCCESS);
		ukf_cq_fini(&cq);
		ukf_qp_fini(&qp);
	}
}

/* One flushed CQE completes every outstanding WR once, signaled or not, NOPs skipped. */
static void
test_flush_replay(void)
{
	struct rdmadev_wc wc[8];
	uint64_t expect[16] = { 0 };
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t i, n = 0, got = 0, first, idx;
	uint16_t r;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 8);
	prod_init(&p, &cq.cur);
	first = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED, 0x100);
	post_send1(&qp, RDMADEV_WR_RDMA_WRITE, 1, 0, 0x101);
	expect[n++] = 0x101;
	post_send1(&qp, RDMADEV_WR_NOP, 0, 0, 0x102);
	expect[n++] = 0x102;
	for (i = 0; i < 3; i++) {
		post_send1(&qp, RDMADEV_WR_SEND, 1, 0, 0x103 + i);
		expect[n++] = 0x103 + i;
	}
	idx = post_send1(&qp, RDMADEV_WR_RDMA_WRITE, 4, RDMADEV_SEND_SIGNALED, 0x106);
	expect[n++] = 0x106;
	TEST_CHECK(qp.sq_wrtrk[idx - 1].nop);	/* chunk NOPs in between */
	post_send1(&qp, RDMADEV_WR_RDMA_READ, 1, 0, 0x107);
	expect[n++] = 0x107;
	/* the first completes; then the QP fails with a retry error */
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = first });
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = first + 1, .error = 1,
					.major = 1, .minor = 8 });
	r = irdma_uk_poll_cq(&cq, wc, 3);
	TEST_CHECK_EQ(r, 3);
	TEST_CHECK_EQ(wc[0].wr_id, 0x100);
	TEST_CHECK_EQ(wc[0].status, RDMADEV_WC_SUCCESS);
	TEST_CHECK_EQ(wc[1].wr_id, expect[0]);
	TEST_CHECK_EQ(wc[1].status, RDMADEV_WC_RETRY_EXC_ERR);
	TEST_CHECK_EQ(wc[1].vendor_err, 1u << 16 | 8);
	TEST_CHECK_EQ(wc[2].wr_id, expect[1]);
	TEST_CHECK_EQ(wc[2].opcode, RDMADEV_WC_NOP);
	TEST_CHECK_EQ(wc[2].status, RDMADEV_WC_WR_FLUSH_ERR);
	TEST_CHECK_EQ(wc[2].vendor_err, 1u << 16 | 1);
	got = 2;
	/* the flushed CQE stays while WRs are outstanding: the shadow index says 1 */
	TEST_CHECK_EQ(cq.cur.head, 1);
	TEST_CHECK_EQ(shadow_head(&cq), 1);
	r = irdma_uk_poll_cq(&cq, wc, 2);
	TEST_CHECK_EQ(r, 2);
	for (i = 0; i < r; i++, got++) {
		TEST_CHECK_EQ(wc[i].wr_id, expect[got]);
		TEST_CHECK_EQ(wc[i].status, RDMADEV_WC_WR_FLUSH_ERR);
	}
	r = irdma_uk_poll_cq(&cq, wc, 8);
	TEST_CHECK_EQ(r, n - got);
	for (i = 0; i < r; i++, got++) {
		TEST_CHECK_EQ(wc[i].wr_id, expect[got]);
		TEST_CHECK_EQ(wc[i].status, RDMADEV_WC_WR_FLUSH_ERR);
		TEST_CHECK_EQ(wc[i].qp_num, 0x123);
	}
	TEST_CHECK_EQ(wc[r - 1].opcode, RDMADEV_WC_RDMA_READ);
	TEST_CHECK_EQ(wc[r - 1].byte_len, sges[0].length);
	TEST_CHECK_EQ(cq.cur.head, 2);
	TEST_CHECK_EQ(shadow_head(&cq), 2);
	TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);
	TEST_CHECK_EQ(qp.sq_flushed, 1);
	/* a device writing one flush CQE per WQE: the rest find nothing, stale errors too */
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = idx, .error = 1,
					.major = 1, .minor = 1 });
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .wqe_idx = idx, .error = 1,
					.major = 0x8001, .minor = 7 });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 8), 0);
	TEST_CHECK_EQ(cq.cur.head, 4);
	TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);

	/* the RQ: three receives, one flushed CQE */
	for (i = 0; i < 3; i++)
		post_recv1(&qp, 0x200 + i);
	produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 0, .wqe_idx = 0, .error = 1, .major = 1,
					.minor = 1 });
	r = irdma_uk_poll_cq(&cq, wc, 8);
	TEST_CHECK_EQ(r, 3);
	for (i = 0; i < r; i++) {
		TEST_CHECK_EQ(wc[i].wr_id, 0x200 + i);
		TEST_CHECK_EQ(wc[i].status, RDMADEV_WC_WR_FLUSH_ERR);
		TEST_CHECK_EQ(wc[i].opcode, RDMADEV_WC_RECV);
	}
	TEST_CHECK_EQ(qp.rq.tail, qp.rq.head);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 8), 0);
	TEST_CHECK_EQ(cq.cur.head, 5);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* Seven rounds over a 10-slot ring (four wraps), extended CQEs straddling the wrap. */
static void
test_polarity_wraps(void)
{
	struct rdmadev_wc wc[16];
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t round, k;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 10);
	prod_init(&p, &cq.cur);
	for (round = 0; round < 7; round++) {
		uint64_t id = round * 16;

		/* SQ, RQ extended, SQ, RQ, SQ: 6 slots a round */
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .op = 3,
			.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED,
					      id) });
		produce(&p, &(struct cqe_spec){ .qp = &qp, .op = 0x05, .ext = 1,
			.imm = (uint32_t)id + 1, .imm_valid = 1,
			.wqe_idx = post_recv1(&qp, id + 1) });
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .op = 3,
			.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED,
					      id + 2) });
		produce(&p, &(struct cqe_spec){ .qp = &qp, .op = 0x04,
			.wqe_idx = post_recv1(&qp, id + 3) });
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .op = 3,
			.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED,
					      id + 4) });
		TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 16), 5);
		for (k = 0; k < 5; k++)
			TEST_CHECK_EQ(wc[k].wr_id, id + k);
		TEST_CHECK_EQ(wc[1].imm_data, rte_cpu_to_be_32((uint32_t)id + 1));
		TEST_CHECK_EQ(cq.cur.head, p.head);
		TEST_CHECK_EQ(cq.cur.polarity, p.pol);
		TEST_CHECK_EQ(shadow_head(&cq), p.head);
		TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 16), 0);
	}
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/*
 * The hot loop (no service hook, no counter): runs of successful SQ CQEs polled in bursts of
 * every size from 1 to past the ring's size, so runs end at the burst's end, at the ring's
 * last slot and on an empty ring; cleaned CQEs in between. Every completion is checked whole
 * (48 bytes) against one built field by field; the shadow index follows the head.
 */
static void
test_fast_runs(void)
{
	const uint32_t ring = 13;
	struct rdmadev_wc wc[20], want;
	uint64_t next_id = 100, expect_id = 100;
	uint32_t burst, i, got, queued = 0;
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, ring);
	prod_init(&p, &cq.cur);
	for (burst = 1; burst <= 19; burst++) {
		/* fill the ring but one slot; a cleaned CQE every 5th (no completion) */
		while (queued < ring - 1) {
			if (next_id % 5 == 0)
				produce(&p, &(struct cqe_spec){ .qp = NULL, .sq = 1 });
			else
				produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1, .op = 3,
					.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1,
							      RDMADEV_SEND_SIGNALED, next_id) });
			next_id++;
			queued++;
		}
		memset(wc, 0xa5, sizeof(wc));
		got = irdma_uk_poll_cq(&cq, wc, (uint16_t)burst);
		TEST_CHECK(got <= burst);
		for (i = 0; i < got; i++) {
			while (expect_id % 5 == 0)
				expect_id++;
			memset(&want, 0, sizeof(want));
			want.wr_id = expect_id++;
			want.status = RDMADEV_WC_SUCCESS;
			want.opcode = RDMADEV_WC_SEND;
			want.byte_len = sges[0].length;
			want.qp_num = qp.qp_id;
			TEST_CHECK(memcmp(&wc[i], &want, sizeof(want)) == 0);
		}
		TEST_CHECK(memcmp(&wc[got], (uint8_t[sizeof(wc[0])]){ 0 }, 1) != 0);
		/* the CQEs consumed, cleaned ones included, up to the next completion */
		while (expect_id % 5 == 0 && expect_id < next_id &&
		       got < burst)
			expect_id++;
		queued = (uint32_t)(next_id - expect_id);
		TEST_CHECK_EQ(cq.cur.head, (p.head + ring - queued) % ring);
		TEST_CHECK_EQ(shadow_head(&cq), cq.cur.head);
	}
	/* drain: everything posted completes exactly once, then the ring is empty */
	while ((got = irdma_uk_poll_cq(&cq, wc, 20)) != 0)
		for (i = 0; i < got; i++) {
			while (expect_id % 5 == 0)
				expect_id++;
			TEST_CHECK_EQ(wc[i].wr_id, expect_id++);
		}
	while (expect_id % 5 == 0 && expect_id < next_id)
		expect_id++;
	TEST_CHECK_EQ(expect_id, next_id);
	TEST_CHECK_EQ(cq.cur.head, p.head);
	TEST_CHECK_EQ(cq.cur.polarity, p.pol);
	TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

static unsigned int service_calls;

static void
count_service(struct irdma_hw *h)
{
	(void)h;
	service_calls++;
}

/* Partial polls; the shadow index once per burst and not on an empty poll; the counter. */
static void
test_partial_shadow_cntr(void)
{
	struct rdmadev_wc wc[8];
	uint64_t cntr = 40;
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t i;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 8);
	cq.comp_cntr = &cntr;
	cq.service = count_service;
	irdma_uk_cq_select(&cq);
	service_calls = 0;
	prod_init(&p, &cq.cur);
	for (i = 0; i < 5; i++)
		produce(&p, &(struct cqe_spec){ .qp = &qp, .sq = 1,
			.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED, i) });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 2), 2);
	TEST_CHECK_EQ(shadow_head(&cq), 2);
	TEST_CHECK_EQ(cntr, 42);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 2), 2);
	TEST_CHECK_EQ(wc[0].wr_id, 2);
	TEST_CHECK_EQ(shadow_head(&cq), 4);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 8), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 4);
	TEST_CHECK_EQ(shadow_head(&cq), 5);
	TEST_CHECK_EQ(cntr, 45);
	test_le64_put(cq.shadow, 0, 0xabcdef);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 8), 0);
	TEST_CHECK_EQ(shadow_head(&cq), 0xabcdef);
	TEST_CHECK_EQ(cntr, 45);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 0), 0);
	TEST_CHECK_EQ(service_calls, 5);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* After a resize the old ring drains first; old.base goes NULL once it is empty. */
static void
test_old_ring(void)
{
	static const uint64_t ids[] = { 2, 3, 100, 4, 5 };
	struct rdmadev_wc wc[8];
	struct producer po, pc;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint8_t *old;
	uint32_t i;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 8);
	/* an old ring of 4 left at head 2 on its first pass; slot 1 still holds a pass-1 CQE */
	old = calloc(4, 32);
	test_le64_put(old, 32 + 24, 1ull << 63);
	cq.old = (struct irdma_cq_ring){ .base = old, .size = 4, .head = 2, .polarity = 1 };
	irdma_uk_cq_select(&cq);
	test_le64_put(cq.shadow, 32, 1ull << 16 | 1ull << 15 | 0x29);
	po = (struct producer){ .base = old, .size = 4, .head = 2, .pol = 1 };
	prod_init(&pc, &cq.cur);
	for (i = 0; i < RTE_DIM(ids); i++)
		produce(i < 3 ? &po : &pc, &(struct cqe_spec){ .qp = &qp, .sq = 1,
			.wqe_idx = post_send1(&qp, RDMADEV_WR_SEND, 1, RDMADEV_SEND_SIGNALED,
					      ids[i]) });
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 1), 1);
	TEST_CHECK_EQ(wc[0].wr_id, 2);
	TEST_CHECK(cq.old.base != NULL);
	TEST_CHECK_EQ(shadow_head(&cq), 0);	/* nothing of cur consumed yet */
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 8), 4);
	for (i = 1; i < RTE_DIM(ids); i++)
		TEST_CHECK_EQ(wc[i - 1].wr_id, ids[i]);
	TEST_CHECK(cq.old.base == NULL);
	TEST_CHECK_EQ(shadow_head(&cq), 2);
	TEST_CHECK_EQ(qp.sq.tail, qp.sq.head);
	/* the retired buffer counts in the arm word's SW CQ select (13:0); the rest is kept */
	TEST_CHECK_EQ(test_le64(cq.shadow, 32), 1ull << 16 | 1ull << 15 | 0x2a);
	free(old);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/* CQ arm: the shadow arm word (qword 4) and the CQARM doorbell with the CQ id. */
static void
test_cq_arm(void)
{
	struct irdma_cq cq;
	uint64_t w;

	ukf_cq_init(&cq, &hw, 8);
	test_le64_put(cq.shadow, 0, 0x1234);
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_cq_arm(&cq, 0), 0);
	w = test_le64(cq.shadow, 32);
	TEST_CHECK_EQ(test_bits(w, 17, 16), 1);
	TEST_CHECK_EQ(test_bits(w, 15, 15), 1);
	TEST_CHECK_EQ(test_bits(w, 14, 14), 1);
	TEST_CHECK_EQ(test_bits(w, 13, 0), 0);
	TEST_CHECK_EQ(ukf_nb_writes, 1);
	TEST_CHECK_EQ(ukf_write_off[0], REG_CQARM);
	TEST_CHECK_EQ(ukf_write_val[0], 7);
	TEST_CHECK_EQ(test_le64(cq.shadow, 0), 0x1234);
	TEST_CHECK_EQ(irdma_uk_cq_arm(&cq, 1), 0);
	w = test_le64(cq.shadow, 32);
	TEST_CHECK_EQ(test_bits(w, 17, 16), 2);
	TEST_CHECK_EQ(test_bits(w, 15, 15), 1);
	TEST_CHECK_EQ(test_bits(w, 14, 14), 0);
	/* the SW CQ select is kept; the 2-bit sequence wraps */
	test_le64_put(cq.shadow, 32, 3u << 16 | 0x155);
	TEST_CHECK_EQ(irdma_uk_cq_arm(&cq, 0), 0);
	w = test_le64(cq.shadow, 32);
	TEST_CHECK_EQ(test_bits(w, 17, 16), 0);
	TEST_CHECK_EQ(test_bits(w, 13, 0), 0x155);
	TEST_CHECK_EQ(test_bits(w, 14, 14), 1);
	TEST_CHECK_EQ(ukf_nb_writes, 3);
	ukf_cq_fini(&cq);
}

/* ---- the poll paths against each other ---- */

/* How test_poll_paths polls the same CQEs. */
enum poll_mode {
	POLL_HOT,	/* no hook: the hot loop, handing off to the general loop */
	POLL_RING,	/* a service hook: every CQE through the general loop */
	POLL_SLOW,	/* a hook and every SQ CQE extended: through irdma_uk_cqe_slow */
	POLL_MODES,
};

#define PP_ROUNDS	60u	/* rounds of 1..12 events, then polls until empty */
#define PP_WCS		1024u	/* completions recorded a mode (at most 12 a round) */
#define PP_POLLS	1024u	/* poll calls recorded a mode */

/* What one mode saw: every completion and every poll call's count, in order. */
struct poll_trace {
	struct rdmadev_wc wc[PP_WCS];
	uint16_t got[PP_POLLS];
	uint32_t nb_wc, nb_polls, expected;
};

static void
no_service(struct irdma_hw *h)
{
	(void)h;
}

/* Deterministic values (xorshift64). */
static uint32_t
pp_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

/* One send WR and, when signaled, its CQE (extended in POLL_SLOW). @return 1 if signaled. */
static uint32_t
pp_send(struct irdma_qp *qp, struct producer *p, enum poll_mode mode, uint32_t r, uint64_t id)
{
	static const uint8_t ops[] = {
		RDMADEV_WR_SEND, RDMADEV_WR_SEND_IMM, RDMADEV_WR_SEND_INV, RDMADEV_WR_RDMA_WRITE,
		RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_WR_RDMA_READ, RDMADEV_WR_LOCAL_INV,
		RDMADEV_WR_NOP,
	};
	uint8_t op = ops[r % RTE_DIM(ops)];
	uint16_t nsge = op == RDMADEV_WR_LOCAL_INV || op == RDMADEV_WR_NOP ? 0 :
			(uint16_t)(1 + (r >> 4) % RTE_DIM(sges));
	uint8_t sig = (r >> 8) % 4 != 0 ? RDMADEV_SEND_SIGNALED : 0;
	uint32_t idx = post_send1(qp, op, nsge, sig, id);

	if (sig)
		produce(p, &(struct cqe_spec){ .qp = qp, .sq = 1, .wqe_idx = idx,
					       .ext = mode == POLL_SLOW });
	return sig != 0;
}

/* One receive and its CQE: plain, immediate (extended), or invalidated key. */
static void
pp_recv(struct irdma_qp *qp, struct producer *p, uint32_t r, uint64_t id)
{
	struct cqe_spec c = { .qp = qp, .wqe_idx = post_recv1(qp, id), .op = 0x04,
			      .payload = (r >> 8) & 0xffff };

	if (r % 3 == 1) {
		c.op = r % 2 ? 0x05 : 0x0b;
		c.ext = 1;
		c.imm = r * 7;
		c.imm_valid = 1;
	} else if (r % 3 == 2) {
		c.op = 0x17;
		c.stag = 1;
		c.qw2_lo = r | 1;
	}
	produce(p, &c);
}

/*
 * One mode of test_poll_paths: the same random rounds of sends (every opcode, 0..4 SGEs,
 * unsignaled ones completing silently behind the next signaled one), receives (plain,
 * extended, with an invalidated key) and cleaned CQEs over a 37-slot ring (the hot loop's
 * runs end at burst ends, at RQ or cleaned CQEs and at the ring's last slot), each round
 * polled in random bursts of 1..16 until empty. Ring head, polarity and shadow index are
 * checked against the producer after every round.
 */
static void
pp_run(enum poll_mode mode, struct poll_trace *t)
{
	uint64_t s = 0x9e3779b97f4a7c15ull, id = 0x4200;
	struct producer p;
	struct irdma_qp qp;
	struct irdma_cq cq;
	uint32_t round, e, n;
	uint16_t got;

	memset(t, 0, sizeof(*t));
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_cq_init(&cq, &hw, 37);
	if (mode != POLL_HOT)
		cq.service = no_service;
	irdma_uk_cq_select(&cq);
	prod_init(&p, &cq.cur);
	for (round = 0; round < PP_ROUNDS; round++) {
		n = 1 + pp_rand(&s) % 12;
		for (e = 0; e < n; e++) {
			uint32_t r = pp_rand(&s);

			if (r % 8 < 5) {
				t->expected += pp_send(&qp, &p, mode, r >> 3, id++);
			} else if (r % 8 < 7) {
				pp_recv(&qp, &p, r >> 3, id++);
				t->expected++;
			} else {
				produce(&p, &(struct cqe_spec){ .qp = NULL, .sq = 1 });
			}
		}
		do {
			uint16_t burst = (uint16_t)(1 + pp_rand(&s) % 16);

			if (t->nb_wc + burst > PP_WCS || t->nb_polls == PP_POLLS)
				break;
			/* garbage that differs between modes: a field no path writes shows */
			memset(&t->wc[t->nb_wc], 0xa5 + mode, sizeof(t->wc[0]) * burst);
			got = irdma_uk_poll_cq(&cq, &t->wc[t->nb_wc], burst);
			t->got[t->nb_polls++] = got;
			t->nb_wc += got;
		} while (got != 0);
		TEST_CHECK_EQ(cq.cur.head, p.head);
		TEST_CHECK_EQ(cq.cur.polarity, p.pol);
		TEST_CHECK_EQ(shadow_head(&cq), p.head);
		TEST_CHECK_EQ(qp.rq.tail, qp.rq.head);
	}
	TEST_CHECK_EQ(t->nb_wc, t->expected);
	ukf_cq_fini(&cq);
	ukf_qp_fini(&qp);
}

/*
 * The poll paths give the same completions. The hot loop (no hook, no old ring, no counter)
 * takes runs of successful plain SQ CQEs and hands the rest to the general loop, which has
 * its own inline SQ branch and irdma_uk_cqe_slow for everything else (where an extended SQ
 * CQE goes). The same CQEs polled the three ways (pp_run) give byte-identical completions
 * and identical counts per poll call, so the field-by-field checks of the tests above (which
 * each reach only some of the paths) hold for all of them.
 */
static void
test_poll_paths(void)
{
	static struct poll_trace t[POLL_MODES];
	unsigned int m;

	for (m = 0; m < POLL_MODES; m++)
		pp_run((enum poll_mode)m, &t[m]);
	TEST_CHECK(t[POLL_HOT].nb_wc > PP_ROUNDS * 3);
	for (m = 1; m < POLL_MODES; m++) {
		TEST_CHECK_EQ(t[m].nb_polls, t[POLL_HOT].nb_polls);
		TEST_CHECK_EQ(t[m].nb_wc, t[POLL_HOT].nb_wc);
		TEST_CHECK(memcmp(t[m].got, t[POLL_HOT].got, sizeof(t[m].got)) == 0);
		TEST_CHECK(memcmp(t[m].wc, t[POLL_HOT].wc,
				  sizeof(t[m].wc[0]) * t[m].nb_wc) == 0);
	}
}

int
main(void)
{
	unsigned int i;

	ukf_hw_init(&hw);
	for (i = 0; i < RTE_DIM(sges); i++)
		sges[i] = (struct rdmadev_sge){ .addr = 0x10000 * (i + 1), .length = 64 + i,
						.lkey = 0x100 + i };
	TEST_RUN(test_sq_success);
	TEST_RUN(test_rq_success);
	TEST_RUN(test_ud_recv);
	TEST_RUN(test_errors);
	TEST_RUN(test_flush_replay);
	TEST_RUN(test_polarity_wraps);
	TEST_RUN(test_fast_runs);
	TEST_RUN(test_partial_shadow_cntr);
	TEST_RUN(test_old_ring);
	TEST_RUN(test_cq_arm);
	TEST_RUN(test_poll_paths);
	return test_done();
}

