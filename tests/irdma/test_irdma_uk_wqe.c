/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data path's WQEs against doc/hardware.md (§1, §2, §4): irdma_uk_post_send /
 * irdma_uk_post_recv write into a QP built in test memory, and a decoder written here
 * (uk_fixture.h: plain shifts and masks at doc/hardware.md's positions, not base/) checks
 * every opcode, 0..13 SGEs, the gen2 NULL pad, the immediate in slot 0, inline lengths
 * across every quantum boundary, fences, solicited and signaled bits, UD and FAST_REG
 * fields, the chunk rule's NOPs, polarity over several ring wraps, pre-invalidation, the
 * doorbell (once per burst, the QP id) and every refusal (index returned, errno, ring bytes
 * unchanged). Those WQEs sit at index 0 of a fresh QP, where the general path writes them;
 * test_fast_equals_general ties the fast paths to them (same bytes for every fast-path
 * shape at another index) and test_single_vs_burst the single-WR path to the burst loop.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include <rdmadev_driver.h>

#include "irdma_mr.h"
#include "test.h"
#include "uk_fixture.h"

static struct irdma_hw hw;
static struct rdmadev_sge sges[16];

static void
sges_init(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(sges); i++) {
		sges[i].addr = 0x100000ull * (i + 1) + 0x10 * i + 0x1234567800000000ull;
		sges[i].length = 0x100 + 3 * i;
		sges[i].lkey = 0xabc00 + i;
	}
}

static const uint8_t *
wqe(const struct irdma_qp *qp, uint32_t idx)
{
	return qp->sq.base + (size_t)idx * 32;
}

static uint64_t
hdr(const struct irdma_qp *qp, uint32_t idx)
{
	return test_le64(wqe(qp, idx), 24);
}

/* Byte offset of fragment slot k (§1.4). */
static size_t
slot_off(uint32_t k)
{
	return k == 0 ? 0 : 32 + 16 * (size_t)(k - 1);
}

/* Fragment slot @p k of @p w is @p s (NULL: the gen2 NULL fragment) with valid @p pol. */
static void
check_frag(const uint8_t *w, uint32_t k, const struct rdmadev_sge *s, unsigned int pol)
{
	uint64_t q0 = test_le64(w, slot_off(k)), q1 = test_le64(w, slot_off(k) + 8);

	if (s == NULL) {
		TEST_CHECK_EQ(q0, 0);
		TEST_CHECK_EQ(q1, (uint64_t)pol << 63);
		return;
	}
	TEST_CHECK_EQ(q0, s->addr);
	TEST_CHECK_EQ(test_bits(q1, 31, 0), s->lkey);
	TEST_CHECK_EQ(test_bits(q1, 62, 32), s->length);
	TEST_CHECK_EQ(test_bits(q1, 63, 63), pol);
}

/* Every quantum of the WQE at @p idx carries valid bit @p pol in its qword 3. */
static void
check_quanta_valid(const struct irdma_qp *qp, uint32_t idx, uint32_t quanta, unsigned int pol)
{
	uint32_t q;

	for (q = 0; q < quanta; q++)
		TEST_CHECK_EQ(test_bits(test_le64(wqe(qp, idx + q), 24), 63, 63), pol);
}

/* doc/hardware.md quanta of a fragment count (immediate counted). */
static uint32_t
frag_quanta(uint32_t frags)
{
	return frags / 2 + 1;
}

/* doc/hardware.md ADDFRAGCNT on gen2 (the pad counted). */
static uint32_t
frag_addcnt(uint32_t frags)
{
	return (frags > 1 ? frags - 1 : 0) + (frags != 0 && frags % 2 == 0 ? 1 : 0);
}

static uint16_t
post(struct irdma_qp *qp, const struct rdmadev_send_wr *wr, uint16_t n, int *err)
{
	*err = 12345;
	return irdma_uk_post_send(qp, wr, n, err);
}

/* @p wr is refused with @p errno_exp at index 0 and nothing is written or rung. */
static void
check_refused(struct irdma_qp *qp, const struct rdmadev_send_wr *wr, int errno_exp)
{
	struct ukf_snap sn;
	int err;

	ukf_snap_take(qp, &sn);
	ukf_regs_clear();
	TEST_CHECK_EQ(post(qp, wr, 1, &err), 0);
	TEST_CHECK_EQ(err, errno_exp);
	TEST_CHECK_EQ(ukf_nb_writes, 0);
	ukf_snap_check(qp, &sn);
}

static uint64_t
sge_sum(uint32_t n)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		s += sges[i].length;
	return s;
}

/* RDMA WRITE with 0..13 SGEs; 14 refused. */
static void
test_write_sges(void)
{
	struct irdma_qp qp;
	uint32_t n, k;
	int err;

	for (n = 0; n <= 13; n++) {
		struct rdmadev_send_wr wr = {
			.wr_id = 0x1000 + n, .sg_list = sges, .num_sge = (uint16_t)n,
			.opcode = RDMADEV_WR_RDMA_WRITE, .flags = RDMADEV_SEND_SIGNALED,
			.rdma = { .remote_addr = 0xdead0000beefull, .rkey = 0x5566 },
		};
		uint32_t frags = n, quanta = frag_quanta(frags);
		uint64_t h;

		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		ukf_regs_clear();
		TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
		TEST_CHECK_EQ(err, 0);
		h = hdr(&qp, 0);
		TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x00);
		TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x5566);
		TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), frag_addcnt(frags));
		TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 0);
		TEST_CHECK_EQ(GETF(h, F_INLINEFLAG), 0);
		TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 1);
		TEST_CHECK_EQ(GETF(h, F_READFENCE), 0);
		TEST_CHECK_EQ(GETF(h, F_LOCALFENCE), 0);
		TEST_CHECK_EQ(GETF(h, F_VALID), 1);
		TEST_CHECK_EQ(test_le64(wqe(&qp, 0), 16), 0xdead0000beefull);
		check_frag(wqe(&qp, 0), 0, n ? &sges[0] : NULL, 1);
		for (k = 1; k < n; k++)
			check_frag(wqe(&qp, 0), k, &sges[k], 1);
		if (n != 0 && n % 2 == 0)
			check_frag(wqe(&qp, 0), n, NULL, 1);
		check_quanta_valid(&qp, 0, quanta, 1);
		TEST_CHECK_EQ(qp.sq.head, quanta);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_id, 0x1000 + n);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_len, sge_sum(n));
		TEST_CHECK_EQ(qp.sq_wrtrk[0].quanta, quanta);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].next, quanta);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].rsvd, 0);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].signaled, 1);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].nop, 0);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].opcode, RDMADEV_WC_RDMA_WRITE);
		TEST_CHECK_EQ(ukf_nb_writes, 1);
		TEST_CHECK_EQ(ukf_write_off[0], REG_WQEALLOC);
		TEST_CHECK_EQ(ukf_write_val[0], 0x123);
		ukf_qp_fini(&qp);
	}
	/* 14 SGEs: more than 13 (the gen2 limit and this QP's cap) */
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	{
		struct rdmadev_send_wr wr = {
			.sg_list = sges, .num_sge = 14, .opcode = RDMADEV_WR_RDMA_WRITE,
		};

		check_refused(&qp, &wr, -EINVAL);
		/* and more than a smaller cap */
		qp.max_send_sge = 2;
		wr.num_sge = 3;
		check_refused(&qp, &wr, -EINVAL);
		wr.opcode = RDMADEV_WR_RDMA_READ;
		check_refused(&qp, &wr, -EINVAL);
	}
	ukf_qp_fini(&qp);
}

/* WRITE / SEND with immediate: the immediate is fragment slot 0, the SGEs follow. */
static void
test_immediate(void)
{
	static const uint8_t ops[][2] = {
		{ RDMADEV_WR_RDMA_WRITE_IMM, 0x00 },
		{ RDMADEV_WR_SEND_IMM, 0x03 },
	};
	struct irdma_qp qp;
	uint32_t n, k, o;
	int err;

	for (o = 0; o < RTE_DIM(ops); o++) {
		for (n = 0; n <= 13; n++) {
			struct rdmadev_send_wr wr = {
				.wr_id = n, .sg_list = sges, .num_sge = (uint16_t)n,
				.opcode = ops[o][0], .imm_data = rte_cpu_to_be_32(0x11223344 + n),
				.rdma = { .remote_addr = 0x42, .rkey = 9 },
			};
			uint32_t frags = n + 1;
			uint64_t h;

			ukf_qp_init(&qp, &hw, &ukf_qp_default);
			TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
			h = hdr(&qp, 0);
			TEST_CHECK_EQ(GETF(h, F_OPCODE), ops[o][1]);
			TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 1);
			TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), frag_addcnt(frags));
			TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 0);
			/* host order of the network-order immediate, upper half zero */
			TEST_CHECK_EQ(test_le64(wqe(&qp, 0), 0), 0x11223344u + n);
			for (k = 0; k < n; k++)
				check_frag(wqe(&qp, 0), k + 1, &sges[k], 1);
			if (frags % 2 == 0)
				check_frag(wqe(&qp, 0), frags, NULL, 1);
			check_quanta_valid(&qp, 0, frag_quanta(frags), 1);
			TEST_CHECK_EQ(qp.sq.head, frag_quanta(frags));
			TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_len, sge_sum(n));
			TEST_CHECK_EQ(qp.sq_wrtrk[0].opcode, o == 0 ? RDMADEV_WC_RDMA_WRITE :
								  RDMADEV_WC_SEND);
			ukf_qp_fini(&qp);
		}
	}
}

/* Inline byte i's offset in the WQE (§1.6). */
static size_t
inline_off(uint32_t i)
{
	return i < 8 ? 8 + i : 32 * (1 + (size_t)(i - 8) / 31) + (i - 8) % 31;
}

static uint32_t
inline_quanta(uint32_t len)
{
	return len <= 8 ? 1 : len <= 39 ? 2 : len <= 70 ? 3 : 4;
}

static void
check_inline(const struct irdma_qp *qp, uint32_t idx, const uint8_t *data, uint32_t len,
	     unsigned int pol)
{
	uint32_t i, q, quanta = inline_quanta(len);
	uint64_t h = hdr(qp, idx);

	TEST_CHECK_EQ(GETF(h, F_INLINEFLAG), 1);
	TEST_CHECK_EQ(GETF(h, F_INLINELEN), len);
	TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), 0);
	TEST_CHECK_EQ(GETF(h, F_VALID), pol);
	for (i = 0; i < len; i++)
		if (wqe(qp, idx)[inline_off(i)] != data[i]) {
			TEST_CHECK_EQ(wqe(qp, idx)[inline_off(i)], data[i]);
			break;
		}
	for (q = 1; q < quanta; q++)
		TEST_CHECK_EQ(wqe(qp, idx + q)[31], pol << 7);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].quanta, quanta);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].wr_len, len);
}

/*
 * Inline WRITE and SEND of every length 0..101 (every tail of quantum 0 and of the later
 * quanta), at index 0 (the general path) and at index 1 behind a NOP (the single-WR fast
 * path); 102 and beyond the cap refused.
 */
static void
test_inline(void)
{
	const struct rdmadev_send_wr nop = { .wr_id = 0xabc, .opcode = RDMADEV_WR_NOP };
	struct irdma_qp qp;
	uint8_t data[128];
	uint32_t i, o, at;
	int err;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	for (o = 0; o < 2; o++)
	for (at = 0; at < 2; at++) {
		for (i = 0; i <= 101; i++) {	/* gen2's inline maximum (§1.6) */
			struct rdmadev_sge s = { .addr = (uintptr_t)data, .length = i };
			struct rdmadev_send_wr wr = {
				.wr_id = i, .sg_list = &s, .num_sge = 1,
				.opcode = o ? RDMADEV_WR_SEND : RDMADEV_WR_RDMA_WRITE,
				.flags = RDMADEV_SEND_INLINE,
				.rdma = { .remote_addr = 0x7000, .rkey = 0x99 },
			};

			ukf_qp_init(&qp, &hw, &ukf_qp_default);
			if (at != 0)
				TEST_CHECK_EQ(post(&qp, &nop, 1, &err), 1);
			TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
			TEST_CHECK_EQ(err, 0);
			check_inline(&qp, at, data, i, 1);
			TEST_CHECK_EQ(GETF(hdr(&qp, at), F_OPCODE), o ? 0x03 : 0x00);
			TEST_CHECK_EQ(test_le64(wqe(&qp, at), 0), 0);
			TEST_CHECK_EQ(test_le64(wqe(&qp, at), 16), o ? 0 : 0x7000);
			TEST_CHECK_EQ(qp.sq.head, at + inline_quanta(i));
			ukf_qp_fini(&qp);
		}
	}
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	{
		struct rdmadev_sge s3[3] = {
			{ .addr = (uintptr_t)data, .length = 10 },
			{ .addr = (uintptr_t)data + 10, .length = 20 },
			{ .addr = (uintptr_t)data + 30, .length = 15 },
		};
		struct rdmadev_send_wr wr = {
			.sg_list = s3, .num_sge = 3, .opcode = RDMADEV_WR_SEND_IMM,
			.flags = RDMADEV_SEND_INLINE, .imm_data = rte_cpu_to_be_32(0xcafe),
		};

		/* three SGEs concatenated, with an immediate in qw0 */
		TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
		check_inline(&qp, 0, data, 45, 1);
		TEST_CHECK_EQ(test_le64(wqe(&qp, 0), 0), 0xcafe);
		TEST_CHECK_EQ(GETF(hdr(&qp, 0), F_IMMFLAG), 1);
		/* 102 bytes: beyond gen2 */
		s3[0].length = 102;
		wr.num_sge = 1;
		check_refused(&qp, &wr, -EINVAL);
		/* within gen2, beyond the QP's cap */
		qp.max_inline = 64;
		s3[0].length = 65;
		check_refused(&qp, &wr, -EINVAL);
		s3[0].length = 64;
		TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	}
	ukf_qp_fini(&qp);
}

/* One opcode case: WR fields and the expected header / qwords. */
struct op_case {
	uint8_t opcode;
	uint8_t flags;
	uint8_t hw_op;
	uint8_t wc_op;
	uint8_t imm;
};

/* Opcodes, solicited variants, fences, signaled / unsignaled, sq_sig_all. */
static void
test_opcodes(void)
{
	static const struct op_case cases[] = {
		{ RDMADEV_WR_SEND, 0, 0x03, RDMADEV_WC_SEND, 0 },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_SOLICITED, 0x05, RDMADEV_WC_SEND, 0 },
		{ RDMADEV_WR_SEND_IMM, RDMADEV_SEND_SOLICITED, 0x05, RDMADEV_WC_SEND, 1 },
		{ RDMADEV_WR_SEND_INV, 0, 0x04, RDMADEV_WC_SEND, 0 },
		{ RDMADEV_WR_SEND_INV, RDMADEV_SEND_SOLICITED, 0x06, RDMADEV_WC_SEND, 0 },
		{ RDMADEV_WR_RDMA_WRITE, RDMADEV_SEND_SOLICITED, 0x0d, RDMADEV_WC_RDMA_WRITE, 0 },
		{ RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_SEND_SOLICITED, 0x0d, RDMADEV_WC_RDMA_WRITE,
		  1 },
		{ RDMADEV_WR_RDMA_READ, RDMADEV_SEND_FENCE, 0x01, RDMADEV_WC_RDMA_READ, 0 },
		{ RDMADEV_WR_RDMA_READ, RDMADEV_SEND_LOCAL_FENCE | RDMADEV_SEND_SIGNALED, 0x01,
		  RDMADEV_WC_RDMA_READ, 0 },
		{ RDMADEV_WR_LOCAL_INV, RDMADEV_SEND_FENCE | RDMADEV_SEND_SIGNALED, 0x0a,
		  RDMADEV_WC_LOCAL_INV, 0 },
		{ RDMADEV_WR_NOP, RDMADEV_SEND_SIGNALED, 0x0c, RDMADEV_WC_NOP, 0 },
		{ RDMADEV_WR_NOP, 0, 0x0c, RDMADEV_WC_NOP, 0 },
	};
	struct irdma_qp qp;
	unsigned int i, sig_all;
	int err;

	for (sig_all = 0; sig_all < 2; sig_all++) {
		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		qp.sq_sig_all = (uint8_t)sig_all;
		for (i = 0; i < RTE_DIM(cases); i++) {
			const struct op_case *c = &cases[i];
			struct rdmadev_send_wr wr = {
				.wr_id = 100 + i, .sg_list = sges, .num_sge = 2,
				.opcode = c->opcode, .flags = c->flags,
				.invalidate_rkey = 0x77665544,
				.rdma = { .remote_addr = 0xabcdef012345ull, .rkey = 0x31337 },
			};
			uint32_t idx = qp.sq.head, sig;
			const uint8_t *w;
			uint64_t h;

			if (c->imm)
				wr.imm_data = 0x44332211;
			if (c->opcode == RDMADEV_WR_NOP || c->opcode == RDMADEV_WR_LOCAL_INV)
				wr.num_sge = 0;
			TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
			TEST_CHECK_EQ(err, 0);
			/* two SGEs (+ imm) never cross a chunk here unless NOPs were added */
			while (qp.sq_wrtrk[idx].nop)
				idx++;
			w = wqe(&qp, idx);
			h = hdr(&qp, idx);
			sig = (c->flags & RDMADEV_SEND_SIGNALED) || sig_all;
			TEST_CHECK_EQ(GETF(h, F_OPCODE), c->hw_op);
			TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), sig);
			TEST_CHECK_EQ(GETF(h, F_VALID), 1);
			TEST_CHECK_EQ(qp.sq_wrtrk[idx].opcode, c->wc_op);
			TEST_CHECK_EQ(qp.sq_wrtrk[idx].signaled, sig);
			TEST_CHECK_EQ(qp.sq_wrtrk[idx].wr_id, 100 + i);
			if (c->opcode == RDMADEV_WR_NOP) {
				TEST_CHECK_EQ(h & ~(PUTF(0x3f, F_OPCODE) | PUTF(1, F_SIGCOMPL) |
						    PUTF(1, F_VALID)), 0);
				TEST_CHECK_EQ(test_le64(w, 0) | test_le64(w, 8) | test_le64(w, 16),
					      0);
				continue;
			}
			TEST_CHECK_EQ(GETF(h, F_READFENCE), !!(c->flags & RDMADEV_SEND_FENCE));
			TEST_CHECK_EQ(GETF(h, F_LOCALFENCE),
				      !!(c->flags & RDMADEV_SEND_LOCAL_FENCE));
			if (c->opcode == RDMADEV_WR_LOCAL_INV) {
				/* 1 quantum: qw1 = the stag, its valid bit 0 */
				TEST_CHECK_EQ(test_le64(w, 0), 0);
				TEST_CHECK_EQ(test_le64(w, 8), 0x77665544);
				TEST_CHECK_EQ(test_le64(w, 16), 0);
				TEST_CHECK_EQ(qp.sq_wrtrk[idx].quanta, 1);
				continue;
			}
			TEST_CHECK_EQ(GETF(h, F_IMMFLAG), c->imm);
			TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), frag_addcnt(2 + c->imm));
			if (c->opcode == RDMADEV_WR_SEND_INV)
				TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x77665544);
			else if (c->opcode == RDMADEV_WR_SEND || c->opcode == RDMADEV_WR_SEND_IMM)
				TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0);
			else
				TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x31337);
			if (c->opcode == RDMADEV_WR_RDMA_READ ||
			    c->opcode == RDMADEV_WR_RDMA_WRITE ||
			    c->opcode == RDMADEV_WR_RDMA_WRITE_IMM)
				TEST_CHECK_EQ(test_le64(w, 16), 0xabcdef012345ull);
			else
				TEST_CHECK_EQ(test_le64(w, 16), 0);
			if (c->imm) {
				TEST_CHECK_EQ(test_le64(w, 0), rte_be_to_cpu_32(0x44332211));
				check_frag(w, 1, &sges[0], 1);
				check_frag(w, 2, &sges[1], 1);
			} else {
				check_frag(w, 0, &sges[0], 1);
				check_frag(w, 1, &sges[1], 1);
				check_frag(w, 2, NULL, 1);
			}
		}
		ukf_qp_fini(&qp);
	}
}

/* UD: AH id, Q_Key and QPN; only SEND / SEND_IMM. */
static void
test_ud(void)
{
	struct ukf_qp_conf conf = ukf_qp_default;
	static const uint8_t payload[20] = "0123456789abcdefghi";
	struct rdmadev_sge small = { .addr = (uintptr_t)payload, .length = sizeof(payload) };
	struct rdmadev_ah ah = { .ah_id = 0x1abc };
	struct irdma_qp qp;
	uint64_t h;
	int err;
	struct rdmadev_send_wr wr = {
		.wr_id = 5, .sg_list = sges, .num_sge = 1, .opcode = RDMADEV_WR_SEND,
		.flags = RDMADEV_SEND_SIGNALED,
		.ud = { .ah = &ah, .remote_qpn = 0xabcdef, .remote_qkey = 0x11112222 },
	};

	conf.type = IRDMA_QP_TYPE_ROCE_UD;
	ukf_qp_init(&qp, &hw, &conf);
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	h = hdr(&qp, 0);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x03);
	TEST_CHECK_EQ(GETF(h, F_AHID), 0x1abc);
	TEST_CHECK_EQ(test_bits(h, 31, 17), 0);
	TEST_CHECK_EQ(test_le64(wqe(&qp, 0), 16), 0x11112222ull | 0xabcdefull << 32);
	check_frag(wqe(&qp, 0), 0, &sges[0], 1);
	wr.opcode = RDMADEV_WR_SEND_IMM;
	wr.imm_data = rte_cpu_to_be_32(0x5a5a);
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	h = hdr(&qp, 1);
	TEST_CHECK_EQ(GETF(h, F_AHID), 0x1abc);
	TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 1);
	TEST_CHECK_EQ(test_le64(wqe(&qp, 1), 0), 0x5a5a);
	TEST_CHECK_EQ(test_le64(wqe(&qp, 1), 16), 0x11112222ull | 0xabcdefull << 32);
	/* inline UD: the destination stays in qw2 */
	wr.opcode = RDMADEV_WR_SEND;
	wr.flags = RDMADEV_SEND_INLINE;
	wr.sg_list = &small;
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	check_inline(&qp, 3, payload, sizeof(payload), 1);
	wr.sg_list = sges;
	TEST_CHECK_EQ(GETF(hdr(&qp, 3), F_INLINEFLAG), 1);
	TEST_CHECK_EQ(test_le64(wqe(&qp, 3), 16), 0x11112222ull | 0xabcdefull << 32);
	wr.flags = 0;
	wr.opcode = RDMADEV_WR_RDMA_WRITE;
	check_refused(&qp, &wr, -EINVAL);
	wr.opcode = RDMADEV_WR_RDMA_READ;
	check_refused(&qp, &wr, -EINVAL);
	wr.opcode = RDMADEV_WR_SEND_INV;
	check_refused(&qp, &wr, -EINVAL);
	wr.opcode = RDMADEV_WR_LOCAL_INV;
	check_refused(&qp, &wr, -EINVAL);
	wr.opcode = RDMADEV_WR_SEND;
	wr.ud.ah = NULL;
	check_refused(&qp, &wr, -EINVAL);
	ukf_qp_fini(&qp);
}

/* FAST_REG: the page list in the MR's PBLE run, the WQE's PBL fields, the new key. */
static void
test_fast_reg(void)
{
	uint64_t pbles[16], pages[16];
	struct irdma_mr m = {
		.run = { .index = 0x12345, .count = 16, .va = pbles },
		.stag = 0x42u << 8 | 0x07, .fast_reg = true,
	};
	struct rdmadev_mr mr = { .kind = RDMADEV_MR_FAST_REG, .max_pages = 16 };
	struct rdmadev_send_wr wr = {
		.wr_id = 77, .opcode = RDMADEV_WR_FAST_REG,
		.flags = RDMADEV_SEND_SIGNALED | RDMADEV_SEND_LOCAL_FENCE,
		.fast_reg = {
			.mr = &mr, .page_list = pages, .iova = 0x7f0000001000ull,
			.length = 3 * 4096 - 100, .nb_pages = 3, .page_shift = 12,
			.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
				  RDMADEV_ACCESS_REMOTE_READ,
			.key = 0xe1,
		},
	};
	struct irdma_qp qp;
	const uint8_t *w;
	unsigned int i;
	uint64_t h;
	int err;

	mr.obj.fp.drv = &m;
	memset(pbles, 0, sizeof(pbles));
	for (i = 0; i < RTE_DIM(pages); i++)
		pages[i] = 0x40000000ull + 0x3000ull * i;
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	for (i = 0; i < 3; i++)
		TEST_CHECK_EQ(test_le64(pbles, 8 * i), pages[i]);
	TEST_CHECK_EQ(pbles[3], 0);
	w = wqe(&qp, 0);
	h = hdr(&qp, 0);
	TEST_CHECK_EQ(test_le64(w, 0), 0x7f0000001000ull);
	TEST_CHECK_EQ(test_bits(test_le64(w, 8), 63, 12), pages[0] >> 12);
	TEST_CHECK_EQ(test_bits(test_le64(w, 8), 11, 0), 0x12345 >> 16);
	TEST_CHECK_EQ(test_bits(test_le64(w, 16), 40, 0), 3 * 4096 - 100);
	TEST_CHECK_EQ(test_bits(test_le64(w, 16), 63, 48), 0x2345);
	TEST_CHECK_EQ(test_bits(test_le64(w, 16), 47, 41), 0);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x09);
	TEST_CHECK_EQ(GETF(h, F_STAGKEY), 0xe1);
	TEST_CHECK_EQ(GETF(h, F_STAGINDEX), 0x42);
	TEST_CHECK_EQ(GETF(h, F_LPBLSIZE), 1);
	TEST_CHECK_EQ(GETF(h, F_HPAGESIZE), 0);
	/* local read 1 | local write 2 | remote read 4 | remote write 8 */
	TEST_CHECK_EQ(GETF(h, F_STAGRIGHTS), 0x0f);
	TEST_CHECK_EQ(GETF(h, F_VABASEDTO), 1);
	TEST_CHECK_EQ(GETF(h, F_LOCALFENCE), 1);
	TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 1);
	TEST_CHECK_EQ(GETF(h, F_VALID), 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].opcode, RDMADEV_WC_REG_MR);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].quanta, 1);
	TEST_CHECK_EQ(mr.lkey, 0x42u << 8 | 0xe1);
	TEST_CHECK_EQ(mr.rkey, 0x42u << 8 | 0xe1);
	/* one 2 MB page: no PBL level (the page's address itself) */
	wr.fast_reg.nb_pages = 1;
	wr.fast_reg.page_shift = 21;
	wr.fast_reg.length = 1u << 21;
	wr.fast_reg.access = 0;
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	h = hdr(&qp, 1);
	TEST_CHECK_EQ(GETF(h, F_LPBLSIZE), 0);
	TEST_CHECK_EQ(GETF(h, F_HPAGESIZE), 1);
	TEST_CHECK_EQ(GETF(h, F_STAGRIGHTS), 0x01);
	TEST_CHECK_EQ(test_bits(test_le64(wqe(&qp, 1), 8), 63, 12), pages[0] >> 12);
	wr.fast_reg.page_shift = 30;
	wr.fast_reg.nb_pages = 2;
	TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(GETF(hdr(&qp, 2), F_HPAGESIZE), 2);
	/* refusals */
	wr.fast_reg.nb_pages = 17;
	check_refused(&qp, &wr, -EINVAL);
	wr.fast_reg.nb_pages = 0;
	check_refused(&qp, &wr, -EINVAL);
	wr.fast_reg.nb_pages = 2;
	wr.fast_reg.page_shift = 13;
	check_refused(&qp, &wr, -EINVAL);
	wr.fast_reg.page_shift = 12;
	wr.fast_reg.length = 2 * 4096 + 1;
	check_refused(&qp, &wr, -EINVAL);
	wr.fast_reg.length = 4096;
	wr.fast_reg.access = RDMADEV_ACCESS_REMOTE_ATOMIC;
	check_refused(&qp, &wr, -ENOTSUP);
	wr.fast_reg.access = 0;
	m.fast_reg = false;
	check_refused(&qp, &wr, -EINVAL);
	m.fast_reg = true;
	wr.fast_reg.mr = NULL;
	check_refused(&qp, &wr, -EINVAL);
	ukf_qp_fini(&qp);
}

/* Gen3 operations and unknown opcodes. */
static void
test_refused_opcodes(void)
{
	static const uint8_t gen3[] = {
		RDMADEV_WR_ATOMIC_FA, RDMADEV_WR_ATOMIC_CS, RDMADEV_WR_BIND_MW,
	};
	struct rdmadev_send_wr wr = { .sg_list = sges, .num_sge = 1 };
	struct irdma_qp qp;
	unsigned int i;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	for (i = 0; i < RTE_DIM(gen3); i++) {
		wr.opcode = gen3[i];
		check_refused(&qp, &wr, -ENOTSUP);
	}
	wr.opcode = RDMADEV_WR_OPCODE_MAX;
	check_refused(&qp, &wr, -EINVAL);
	wr.opcode = 0xff;
	check_refused(&qp, &wr, -EINVAL);
	ukf_qp_fini(&qp);
}

/* QP states: send in RTS / SQD only; receive from INIT to SQD. */
static void
test_states(void)
{
	const struct ukf_hw_state *st = ukf_hw_states;
	struct rdmadev_send_wr wr = {
		.sg_list = sges, .num_sge = 1, .opcode = RDMADEV_WR_SEND,
	};
	struct rdmadev_recv_wr rwr = { .wr_id = 1, .sg_list = sges, .num_sge = 1 };
	struct irdma_qp qp;
	struct ukf_snap sn;
	unsigned int i;
	int err;

	for (i = 0; i < RTE_DIM(ukf_hw_states); i++) {
		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		irdma_qp_hw_state_set(&qp, st[i].state);
		if (st[i].send_ok)
			TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
		else
			check_refused(&qp, &wr, -EINVAL);
		ukf_snap_take(&qp, &sn);
		err = 1;
		if (st[i].recv_ok) {
			TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 1);
			TEST_CHECK_EQ(err, 0);
			ukf_snap_free(&sn);
		} else {
			TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 0);
			TEST_CHECK_EQ(err, -EINVAL);
			ukf_snap_check(&qp, &sn);
		}
		ukf_qp_fini(&qp);
	}
}

/* Post a WRITE with @p nsge SGEs (+ immediate when @p imm). */
static void
post_write(struct irdma_qp *qp, uint32_t nsge, bool imm, uint64_t wr_id)
{
	struct rdmadev_send_wr wr = {
		.wr_id = wr_id, .sg_list = sges, .num_sge = (uint16_t)nsge,
		.opcode = imm ? RDMADEV_WR_RDMA_WRITE_IMM : RDMADEV_WR_RDMA_WRITE,
	};
	int err;

	TEST_CHECK_EQ(post(qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
}

static void
check_nop(const struct irdma_qp *qp, uint32_t idx, unsigned int pol)
{
	uint64_t h = hdr(qp, idx);

	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x0c);
	TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 0);
	TEST_CHECK_EQ(GETF(h, F_VALID), pol);
	TEST_CHECK_EQ(test_le64(wqe(qp, idx), 0) | test_le64(wqe(qp, idx), 8) |
		      test_le64(wqe(qp, idx), 16), 0);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].nop, 1);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].quanta, 1);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].next, (idx + 1) % qp->sq.quanta);
	TEST_CHECK_EQ(qp->sq_wrtrk[idx].signaled, 0);
}

/* A WQE never crosses an 8-quantum chunk: the rest is filled with 1-quantum NOPs. */
static void
test_chunk_nops(void)
{
	struct irdma_qp qp;
	uint32_t i;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	for (i = 0; i < 6; i++)
		post_write(&qp, 1, false, i);
	TEST_CHECK_EQ(qp.sq.head, 6);
	post_write(&qp, 4, false, 6);		/* 3 quanta: NOPs at 6 and 7 */
	check_nop(&qp, 6, 1);
	check_nop(&qp, 7, 1);
	TEST_CHECK_EQ(GETF(hdr(&qp, 8), F_OPCODE), 0x00);
	TEST_CHECK_EQ(qp.sq_wrtrk[8].wr_id, 6);
	TEST_CHECK_EQ(qp.sq.head, 11);
	post_write(&qp, 8, false, 7);		/* 5 quanta fit exactly: 11..15 */
	TEST_CHECK_EQ(qp.sq_wrtrk[11].nop, 0);
	TEST_CHECK_EQ(qp.sq_wrtrk[11].quanta, 5);
	TEST_CHECK_EQ(qp.sq.head, 16);
	post_write(&qp, 13, true, 8);		/* 14 fragments: 8 quanta at 16 */
	TEST_CHECK_EQ(qp.sq_wrtrk[16].quanta, 8);
	TEST_CHECK_EQ(qp.sq.head, 24);
	post_write(&qp, 1, false, 9);
	post_write(&qp, 13, false, 10);		/* 7 quanta at 25 fit exactly */
	TEST_CHECK_EQ(qp.sq_wrtrk[25].wr_id, 10);
	TEST_CHECK_EQ(qp.sq.head, 32);
	post_write(&qp, 1, false, 11);
	post_write(&qp, 13, true, 12);		/* 8 quanta at 33 would cross: 7 NOPs */
	for (i = 33; i < 40; i++)
		check_nop(&qp, i, 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[40].wr_id, 12);
	TEST_CHECK_EQ(qp.sq.head, 48);
	ukf_qp_fini(&qp);
}

/* Where doc/hardware.md's rules place WQEs: an absolute quantum counter (never wraps). */
struct placement {
	uint64_t abs;
};

/* Polarity of the pass that absolute quantum @p abs is on (ring of @p size): 1, 0, 1 ... */
static unsigned int
pass_pol(uint64_t abs, uint32_t size)
{
	return (unsigned int)((abs / size) & 1) ^ 1;
}

/* Valid bits over four wraps of the ring, the NOPs on the way, and pre-invalidation. */
static void
test_polarity_wraps(void)
{
	static const uint8_t sizes[] = { 0, 1, 2, 3, 5, 8, 13, 4, 1, 1, 7, 12 };
	struct placement pl = { 0 };
	struct irdma_qp qp;
	uint32_t size = ukf_qp_default.sq_quanta, i = 0, clr_checks = 0, nop_checks = 0;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	while (pl.abs < 4ull * size + 64) {
		uint32_t n = sizes[i % RTE_DIM(sizes)];
		bool imm = (i % 3) == 0;
		uint32_t quanta = frag_quanta(n + imm);
		uint32_t room = 8 - (uint32_t)(pl.abs % 8), start, k;
		uint64_t abs0 = pl.abs;

		if (quanta > room)
			pl.abs += room;
		start = (uint32_t)(pl.abs % size);
		post_write(&qp, n, imm, i);
		for (; abs0 < pl.abs; abs0++, nop_checks++)
			check_nop(&qp, (uint32_t)(abs0 % size), pass_pol(abs0, size));
		check_quanta_valid(&qp, start, quanta, pass_pol(pl.abs, size));
		TEST_CHECK_EQ(qp.sq_wrtrk[start].wr_id, i);
		TEST_CHECK_EQ(qp.sq_wrtrk[start].next, (start + quanta) % size);
		for (k = 1; k < n; k++)
			check_frag(wqe(&qp, start), k + imm, &sges[k], pass_pol(pl.abs, size));
		if (start % 128 == 0) {
			/* 128 quanta, 128 ahead, read "not valid" for the pass reaching them */
			uint64_t b = pl.abs + 128;
			uint8_t fill = pass_pol(b, size) ? 0x00 : 0xff;
			const uint8_t *blk = wqe(&qp, (uint32_t)(b % size));

			for (k = 0; k < 128 * 32; k++)
				if (blk[k] != fill)
					break;
			TEST_CHECK_EQ(k, 128 * 32);
			clr_checks++;
		}
		pl.abs += quanta;
		TEST_CHECK_EQ(qp.sq.head, pl.abs % size);
		qp.sq.tail = qp.sq.head;	/* everything completed */
		i++;
	}
	TEST_CHECK(clr_checks >= 12);
	TEST_CHECK(nop_checks > 0);
	ukf_qp_fini(&qp);
}

/* One doorbell per burst, with the QP id; none for a burst that posts nothing. */
static void
test_doorbell(void)
{
	struct rdmadev_send_wr wrs[16];
	struct irdma_qp qp;
	uint32_t i;
	int err;

	for (i = 0; i < RTE_DIM(wrs); i++)
		wrs[i] = (struct rdmadev_send_wr){
			.wr_id = i, .sg_list = sges, .num_sge = 1,
			.opcode = RDMADEV_WR_RDMA_WRITE,
		};
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_regs_clear();
	TEST_CHECK_EQ(post(&qp, wrs, 16, &err), 16);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK_EQ(ukf_nb_writes, 1);
	TEST_CHECK_EQ(ukf_write_off[0], REG_WQEALLOC);
	TEST_CHECK_EQ(ukf_write_val[0], 0x123);
	for (i = 0; i < 16; i++)
		TEST_CHECK_EQ(qp.sq_wrtrk[i].wr_id, i);
	/* refused at index 5: five posted, one doorbell, the sixth not written */
	wrs[5].num_sge = 14;
	ukf_regs_clear();
	TEST_CHECK_EQ(post(&qp, wrs, 16, &err), 5);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(ukf_nb_writes, 1);
	TEST_CHECK_EQ(qp.sq.head, 21);
	TEST_CHECK_EQ(hdr(&qp, 21), 0);
	/* refused at index 0, and an empty burst: no doorbell */
	ukf_regs_clear();
	TEST_CHECK_EQ(post(&qp, &wrs[5], 3, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(post(&qp, wrs, 0, &err), 0);
	TEST_CHECK_EQ(err, 0);
	/* an empty burst may come without WRs at all: nothing of them is read */
	TEST_CHECK_EQ(post(&qp, NULL, 0, &err), 0);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK_EQ(ukf_nb_writes, 0);
	ukf_qp_fini(&qp);
}

/* The free-space check keeps 257 quanta; chunk NOPs count. */
static void
test_sq_full(void)
{
	struct rdmadev_send_wr big = {
		.sg_list = sges, .num_sge = 13, .opcode = RDMADEV_WR_RDMA_WRITE_IMM,
	};
	struct rdmadev_send_wr one = {
		.sg_list = sges, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
	};
	struct irdma_qp qp;
	uint32_t n = 0;
	int err;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	while (n < 1000 && post(&qp, &one, 1, &err) == 1)
		n++;
	TEST_CHECK_EQ(n, 512 - 257);
	TEST_CHECK_EQ(err, -ENOMEM);
	check_refused(&qp, &one, -ENOMEM);
	/* completions free the ring again */
	qp.sq.tail = qp.sq.head;
	TEST_CHECK_EQ(post(&qp, &one, 1, &err), 1);
	ukf_qp_fini(&qp);

	/* 5 quanta free at head 250: 8 quanta + 6 NOPs refused (no NOP written), 3 fit */
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	for (n = 0; n < 250; n++)
		TEST_CHECK_EQ(post(&qp, &one, 1, &err), 1);
	check_refused(&qp, &big, -ENOMEM);
	big.num_sge = 4;
	big.opcode = RDMADEV_WR_RDMA_WRITE;
	TEST_CHECK_EQ(post(&qp, &big, 1, &err), 1);
	TEST_CHECK_EQ(qp.sq.head, 253);
	check_refused(&qp, &big, -ENOMEM);
	ukf_qp_fini(&qp);
}

/* Deterministic test values. */
static uint64_t
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

/* A random send WR of the kinds posts mix: the fast paths' (1-SGE or several, inline,
 * immediate, every flag) and the general path's (READ, LOCAL_INV, NOP). */
static void
random_wr(uint64_t *s, uint64_t i, struct rdmadev_send_wr *wr, struct rdmadev_sge *isge,
	  const uint8_t *inl)
{
	static const uint8_t ops[] = {
		RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_SEND, RDMADEV_WR_SEND,
		RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_WR_SEND_IMM, RDMADEV_WR_RDMA_READ,
		RDMADEV_WR_LOCAL_INV, RDMADEV_WR_NOP,
	};
	uint64_t r = rnd(s);

	memset(wr, 0, sizeof(*wr));
	wr->wr_id = 0x7700000000ull + i;
	wr->opcode = ops[r % RTE_DIM(ops)];
	wr->flags = (uint8_t)((r >> 8) & (RDMADEV_SEND_SIGNALED | RDMADEV_SEND_SOLICITED |
					  RDMADEV_SEND_FENCE | RDMADEV_SEND_LOCAL_FENCE));
	wr->sg_list = &sges[(r >> 16) % 4];
	/* one SGE most of the time: the single-WR path's case */
	wr->num_sge = (r >> 20) % 3 == 0 ? (uint16_t)((r >> 24) % 6) : 1;
	wr->imm_data = (uint32_t)(r >> 32);
	wr->rdma.remote_addr = 0x5500000000ull + i * 0x40;
	wr->rdma.rkey = (uint32_t)(r >> 40);
	if (wr->opcode == RDMADEV_WR_LOCAL_INV || wr->opcode == RDMADEV_WR_NOP) {
		wr->num_sge = 0;
		wr->invalidate_rkey = 0x1234500u + (uint32_t)(i & 0xff);
	}
	if ((wr->opcode == RDMADEV_WR_RDMA_WRITE || wr->opcode == RDMADEV_WR_SEND ||
	     wr->opcode == RDMADEV_WR_RDMA_WRITE_IMM) && (r >> 44) % 3 == 0) {
		/* inline: 0..101 bytes from one SGE */
		*isge = (struct rdmadev_sge){ (uintptr_t)inl, (uint32_t)((r >> 48) % 102), 0 };
		wr->flags |= RDMADEV_SEND_INLINE;
		wr->sg_list = isge;
		wr->num_sge = 1;
	}
}

/*
 * One WR a call (the single-WR path) and bursts (the burst loop) write the same bytes: twin
 * QPs take the same random WRs, one by one and in bursts of 1..24, over six ring wraps
 * (polarity flips, pre-invalidation, chunk NOPs, full rings), gen2 and gen3, RC; rings,
 * tracking entries, heads, polarities and doorbells are compared after every burst.
 */
static void
test_single_vs_burst(void)
{
	struct rdmadev_send_wr wrs[24];
	struct rdmadev_sge isges[24];
	uint8_t inl[101];
	unsigned int g, k;

	for (k = 0; k < sizeof(inl); k++)
		inl[k] = (uint8_t)(k * 37 + 1);
	for (g = 2; g <= 3; g++) {
		struct irdma_qp a, b;
		uint64_t s = g, i = 0, quanta = 0;
		bool same = true;
		int erra, errb;

		ukf_qp_init(&a, &hw, &ukf_qp_default);
		ukf_qp_init(&b, &hw, &ukf_qp_default);
		a.gen = b.gen = (uint8_t)g;
		irdma_uk_qp_select(&a);
		irdma_uk_qp_select(&b);
		while (same && quanta < 6ull * a.sq.quanta) {
			uint16_t n = (uint16_t)(1 + rnd(&s) % RTE_DIM(wrs)), posted = 0, got, j;
			uint32_t h = a.sq.head, dba = 0;

			for (j = 0; j < n; j++)
				random_wr(&s, i++, &wrs[j], &isges[j], inl);
			erra = 0;
			for (j = 0; j < n; j++) {
				ukf_regs_clear();
				if (post(&a, &wrs[j], 1, &erra) != 1)
					break;
				TEST_CHECK_EQ(erra, 0);
				dba += ukf_nb_writes;
				posted++;
			}
			ukf_regs_clear();
			got = post(&b, wrs, n, &errb);
			TEST_CHECK_EQ(got, posted);
			TEST_CHECK_EQ(errb, erra);
			TEST_CHECK_EQ(dba, posted);
			TEST_CHECK_EQ(ukf_nb_writes, posted != 0 ? 1u : 0u);
			same = ukf_sq_equal(&a, &b);
			quanta += (a.sq.head - h) & (a.sq.quanta - 1);
			/* completions at times, so that some bursts meet a full ring */
			if (rnd(&s) % 3 != 0 || posted < n)
				a.sq.tail = b.sq.tail = a.sq.head;
		}
		TEST_CHECK(quanta >= 6ull * a.sq.quanta);
		ukf_qp_fini(&a);
		ukf_qp_fini(&b);
	}
}

/*
 * Posted at index @p 0 of @p a (the general path: the ring's start work is due there) and
 * found at @p at in @p b, the same WQE and tracking entry (next relative to where each is).
 */
static bool
same_wqe(const struct irdma_qp *a, const struct irdma_qp *b, uint32_t at)
{
	const struct irdma_sq_wrtrk *ta = &a->sq_wrtrk[0], *tb = &b->sq_wrtrk[at];
	uint32_t q = a->sq.head;
	bool same = memcmp(a->sq.base, b->sq.base + (size_t)at * 32, (size_t)q * 32) == 0 &&
		    ta->wr_id == tb->wr_id && ta->nop == tb->nop && ta->opcode == tb->opcode &&
		    ta->rsvd == tb->rsvd && ta->wr_len == tb->wr_len && ta->imm == tb->imm &&
		    ta->qp_num == tb->qp_num && ta->quanta == tb->quanta &&
		    ta->signaled == tb->signaled && ta->next == q && tb->next == at + q;

	TEST_CHECK(same);
	return same;
}

/*
 * The fast paths write exactly what the general path writes. The tests above decode WQEs at
 * index 0 of a fresh QP, where the ring's start work is due, so the general path writes
 * them; here every fast-path shape (WRITE, SEND, with immediates, 0..13 SGEs, inline at the
 * quantum boundaries, every flag, sq_sig_all) is posted at index 0 of one QP and at index 1
 * of two others (after a NOP): alone (the single-WR path) and as the second WR of a burst
 * (the burst loop's fast path). Same bytes everywhere, so the decoder's checks of the
 * general path hold for both fast paths.
 */
static void
test_fast_equals_general(void)
{
	static const uint8_t ops[] = {
		RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_SEND, RDMADEV_WR_RDMA_WRITE_IMM,
		RDMADEV_WR_SEND_IMM,
	};
	static const uint8_t flags[] = {
		0, RDMADEV_SEND_SIGNALED, RDMADEV_SEND_SOLICITED | RDMADEV_SEND_FENCE,
		RDMADEV_SEND_LOCAL_FENCE | RDMADEV_SEND_SIGNALED,
		RDMADEV_SEND_FENCE | RDMADEV_SEND_LOCAL_FENCE | RDMADEV_SEND_SOLICITED,
	};
	static const uint32_t lens[] = { 0, 1, 8, 9, 39, 40, 70, 71, 101 };
	const struct rdmadev_send_wr nop = { .wr_id = 0xabc, .opcode = RDMADEV_WR_NOP };
	unsigned int o, f, k, sig_all, cases = 0;
	uint8_t data[101];
	bool same = true;

	for (k = 0; k < sizeof(data); k++)
		data[k] = (uint8_t)(k * 13 + 5);
	for (o = 0; o < RTE_DIM(ops); o++)
	for (f = 0; f < RTE_DIM(flags); f++)
	for (sig_all = 0; sig_all <= 1; sig_all++)
	for (k = 0; k < 14 + RTE_DIM(lens) && same; k++) {
		struct rdmadev_sge isge = { (uintptr_t)data, 0, 0 };
		struct rdmadev_send_wr wr = {
			.wr_id = 0x5150000 + k, .sg_list = sges, .num_sge = (uint16_t)k,
			.opcode = ops[o], .flags = flags[f],
			.imm_data = rte_cpu_to_be_32(0xa0b0c0d0u + k),
			.rdma = { .remote_addr = 0x1234000000ull + k, .rkey = 0x777 + k },
		};
		struct rdmadev_send_wr two[2] = { nop, wr };
		struct irdma_qp a, b, c;
		int err;

		if (k >= 14) {
			/* inline, from one SGE */
			isge.length = lens[k - 14];
			wr.sg_list = &isge;
			wr.num_sge = 1;
			wr.flags |= RDMADEV_SEND_INLINE;
			two[1] = wr;
		}
		ukf_qp_init(&a, &hw, &ukf_qp_default);
		ukf_qp_init(&b, &hw, &ukf_qp_default);
		ukf_qp_init(&c, &hw, &ukf_qp_default);
		a.sq_sig_all = b.sq_sig_all = c.sq_sig_all = (uint8_t)sig_all;
		TEST_CHECK_EQ(post(&a, &wr, 1, &err), 1);
		TEST_CHECK_EQ(post(&b, &nop, 1, &err), 1);
		TEST_CHECK_EQ(post(&b, &wr, 1, &err), 1);
		TEST_CHECK_EQ(post(&c, two, 2, &err), 2);
		/* after the NOP at 0, at 1, or at 8 behind the chunk rule's NOPs */
		same = same_wqe(&a, &b, b.sq.head - a.sq.head) &&
		       same_wqe(&a, &c, c.sq.head - a.sq.head);
		cases++;
		ukf_qp_fini(&a);
		ukf_qp_fini(&b);
		ukf_qp_fini(&c);
	}
	TEST_CHECK_EQ(cases, RTE_DIM(ops) * RTE_DIM(flags) * 2 * (14 + RTE_DIM(lens)));
}

/* RQ WQEs (§2): fragments, qword 2 zero, ADDFRAGCNT and VALID only, wr_id, polarity. */
static void
test_recv(void)
{
	struct rdmadev_recv_wr wr = { .sg_list = sges };
	struct irdma_qp qp;
	uint32_t n, k, wqes = ukf_qp_default.rq_quanta >> ukf_qp_default.rq_shift;
	uint64_t h;
	int err;

	for (n = 0; n <= 7; n++) {
		const uint8_t *w;

		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		ukf_regs_clear();
		wr.wr_id = 0x900 + n;
		wr.num_sge = (uint16_t)n;
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &wr, 1, &err), 1);
		TEST_CHECK_EQ(err, 0);
		w = qp.rq.base;
		h = test_le64(w, 24);
		TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), frag_addcnt(n));
		TEST_CHECK_EQ(GETF(h, F_VALID), 1);
		TEST_CHECK_EQ(h & ~(PUTF(0xf, F_ADDFRAGCNT) | PUTF(1, F_VALID)), 0);
		TEST_CHECK_EQ(test_le64(w, 16), 0);
		check_frag(w, 0, n ? &sges[0] : NULL, 1);
		for (k = 1; k < n; k++)
			check_frag(w, k, &sges[k], 1);
		if (n != 0 && n % 2 == 0)
			check_frag(w, n, NULL, 1);
		TEST_CHECK_EQ(qp.rq_wrid[0], 0x900 + n);
		TEST_CHECK_EQ(qp.rq.head, 1u << ukf_qp_default.rq_shift);
		TEST_CHECK_EQ(ukf_nb_writes, 0);	/* no RQ doorbell */
		ukf_qp_fini(&qp);
	}
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	/* more SGEs than the cap */
	wr.num_sge = 8;
	{
		struct ukf_snap sn;

		ukf_snap_take(&qp, &sn);
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		ukf_snap_check(&qp, &sn);
	}
	/* one WQE stays free */
	wr.num_sge = 1;
	for (n = 0; n < wqes - 1; n++) {
		wr.wr_id = n;
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &wr, 1, &err), 1);
	}
	{
		struct ukf_snap sn;

		ukf_snap_take(&qp, &sn);
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &wr, 1, &err), 0);
		TEST_CHECK_EQ(err, -ENOMEM);
		ukf_snap_check(&qp, &sn);
	}
	/* second pass: valid bit 0 from index 0 on */
	qp.rq.tail = qp.rq.head;
	for (n = 0; n < 3; n++) {
		wr.wr_id = 0x700 + n;
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &wr, 1, &err), 1);
	}
	h = test_le64(qp.rq.base, (size_t)(wqes - 1) * (32u << qp.rq.shift) + 24);
	TEST_CHECK_EQ(GETF(h, F_VALID), 1);
	for (n = 0; n < 2; n++) {
		const uint8_t *w = qp.rq.base + (size_t)n * (32u << qp.rq.shift);

		TEST_CHECK_EQ(GETF(test_le64(w, 24), F_VALID), 0);
		check_frag(w, 0, &sges[0], 0);
		TEST_CHECK_EQ(qp.rq_wrid[n], 0x701 + n);
	}
	ukf_qp_fini(&qp);
}

/*
 * A receive WQE @p wa posted at some ring position on its pass with polarity @p pol is the
 * WQE @p wz test_recv decodes (index 0 of a fresh QP, polarity 1) for the same WR of @p n
 * SGEs: the same bytes in what the WQE owns (quantum 0 and the fragments behind it; a
 * later pass leaves older bytes further on), valid bits where @p wz has them, set to @p pol.
 */
static bool
same_rq_wqe(const uint8_t *wa, const uint8_t *wz, uint32_t n, uint32_t pol)
{
	uint32_t frags = n == 0 ? 1 : n + (n % 2 == 0);
	size_t len = 32 + (size_t)(frags - 1) * 16, off;
	const uint64_t valid = UINT64_C(1) << 63;

	for (off = 0; off < len; off += 8) {
		uint64_t a = test_le64(wa, off), z = test_le64(wz, off);
		uint64_t want = (z & valid) ? (uint64_t)pol << 63 : 0;

		if ((a & ~valid) != (z & ~valid) || (a & valid) != want)
			return false;
	}
	return true;
}

/*
 * post_recv has one loop (no fast path: every WR takes the same code), but test_recv decodes
 * its WQEs at index 0 and only single 1-SGE WQEs elsewhere. Here random receives (0..7 SGEs)
 * are posted one a call on one QP and in bursts of 1..6 on a twin, over six ring wraps with
 * the ring full at times: the twins stay byte-identical (ring, wr_ids, head, polarity), and
 * each WQE is the one test_recv decodes at index 0, with its pass's polarity.
 */
static void
test_recv_positions(void)
{
	const uint32_t wqes = ukf_qp_default.rq_quanta >> ukf_qp_default.rq_shift;
	const size_t wqe_size = (size_t)32 << ukf_qp_default.rq_shift;
	struct rdmadev_recv_wr wrs[6];
	uint64_t s = 0x51, k = 0;
	struct irdma_qp a, b;
	bool same = true;
	int erra, errb;

	ukf_qp_init(&a, &hw, &ukf_qp_default);
	ukf_qp_init(&b, &hw, &ukf_qp_default);
	while (same && k < 6ull * wqes) {
		uint16_t n = (uint16_t)(1 + rnd(&s) % RTE_DIM(wrs)), posted = 0, j;

		for (j = 0; j < n; j++) {
			uint64_t r = rnd(&s);

			wrs[j] = (struct rdmadev_recv_wr){ .wr_id = 0x3300000000ull + k + j,
				.sg_list = &sges[r % 8], .num_sge = (uint16_t)((r >> 8) % 8) };
		}
		erra = 0;
		for (j = 0; j < n && same; j++) {
			uint32_t idx = a.rq.head, pol = (uint32_t)((k / wqes) % 2 == 0);
			struct irdma_qp z;

			if (irdma_uk_post_recv(&a, &wrs[j], 1, &erra) != 1)
				break;
			TEST_CHECK_EQ(idx, (uint32_t)(k % wqes) << a.rq.shift);
			ukf_qp_init(&z, &hw, &ukf_qp_default);
			TEST_CHECK_EQ(irdma_uk_post_recv(&z, &wrs[j], 1, &errb), 1);
			same = same_rq_wqe(a.rq.base + (size_t)idx * 32, z.rq.base,
					   wrs[j].num_sge, pol) &&
			       a.rq_wrid[idx >> a.rq.shift] == wrs[j].wr_id;
			TEST_CHECK(same);
			ukf_qp_fini(&z);
			posted++;
			k++;
		}
		TEST_CHECK_EQ(irdma_uk_post_recv(&b, wrs, n, &errb), posted);
		TEST_CHECK_EQ(errb, erra);
		TEST_CHECK_EQ(erra, posted < n ? -ENOMEM : 0);
		same = same && memcmp(a.rq.base, b.rq.base, wqes * wqe_size) == 0 &&
		       memcmp(a.rq_wrid, b.rq_wrid, sizeof(*a.rq_wrid) * wqes) == 0 &&
		       a.rq.head == b.rq.head && a.rq.polarity == b.rq.polarity;
		TEST_CHECK(same);
		/* the device takes them at times, so that some bursts meet a full ring */
		if (rnd(&s) % 3 != 0 || posted < n)
			a.rq.tail = b.rq.tail = a.rq.head;
	}
	TEST_CHECK(k >= 6ull * wqes);
	ukf_qp_fini(&a);
	ukf_qp_fini(&b);
}

/*
 * Lengths at the 31-bit fields' limit: a send WR whose SGEs add up to more than 2^31 - 1 bytes,
 * or a receive SGE longer than that, is refused with nothing written (the fields would cut
 * it); 2^31 - 1 itself is posted whole.
 */
static void
test_lengths_at_the_limit(void)
{
	static const uint32_t max = 0x7fffffffu;
	static const enum rdmadev_wr_opcode ops[] = {
		RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_SEND, RDMADEV_WR_RDMA_WRITE_IMM,
		RDMADEV_WR_RDMA_READ,
	};
	struct rdmadev_sge big[3] = {
		{ .addr = 0x10000000, .length = max, .lkey = 0x11 },
		{ .addr = 0x20000000, .length = 1, .lkey = 0x12 },
		{ .addr = 0x30000000, .length = 0x80000000u, .lkey = 0x13 },
	};
	struct rdmadev_recv_wr rwr = { .wr_id = 0x77, .sg_list = big, .num_sge = 1 };
	struct irdma_qp qp;
	unsigned int k;
	struct ukf_snap sn;
	int err;

	for (k = 0; k < RTE_DIM(ops); k++) {
		struct rdmadev_send_wr wr = {
			.wr_id = 0x55 + k, .sg_list = big, .num_sge = 1, .opcode = ops[k],
			.flags = RDMADEV_SEND_SIGNALED,
			.rdma = { .remote_addr = 0x4000, .rkey = 0x66 },
		};

		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		/* 2^31 - 1 in one SGE: posted, the fragment and the tracking entry hold it whole */
		TEST_CHECK_EQ(post(&qp, &wr, 1, &err), 1);
		TEST_CHECK_EQ(err, 0);
		check_frag(wqe(&qp, 0), ops[k] == RDMADEV_WR_RDMA_WRITE_IMM ? 1 : 0, &big[0],
			   1);
		TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_len, max);
		/* one byte more, over two SGEs */
		wr.num_sge = 2;
		check_refused(&qp, &wr, -EINVAL);
		/* one SGE of 2^31: would be posted as 0 bytes */
		wr.sg_list = &big[2];
		wr.num_sge = 1;
		check_refused(&qp, &wr, -EINVAL);
		ukf_qp_fini(&qp);
	}
	/* receives: each SGE must fit its fragment; their sum may exceed a message */
	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	rwr.sg_list = &big[2];
	ukf_snap_take(&qp, &sn);
	TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	ukf_snap_check(&qp, &sn);
	big[1].length = max;
	rwr.sg_list = big;
	rwr.num_sge = 2;
	TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	check_frag(qp.rq.base, 0, &big[0], 1);
	check_frag(qp.rq.base, 1, &big[1], 1);
	ukf_qp_fini(&qp);
}

int
main(void)
{
	ukf_hw_init(&hw);
	sges_init();
	TEST_RUN(test_write_sges);
	TEST_RUN(test_immediate);
	TEST_RUN(test_inline);
	TEST_RUN(test_opcodes);
	TEST_RUN(test_ud);
	TEST_RUN(test_fast_reg);
	TEST_RUN(test_refused_opcodes);
	TEST_RUN(test_states);
	TEST_RUN(test_chunk_nops);
	TEST_RUN(test_polarity_wraps);
	TEST_RUN(test_doorbell);
	TEST_RUN(test_sq_full);
	TEST_RUN(test_single_vs_burst);
	TEST_RUN(test_fast_equals_general);
	TEST_RUN(test_recv);
	TEST_RUN(test_recv_positions);
	TEST_RUN(test_lengths_at_the_limit);
	return test_done();
}
