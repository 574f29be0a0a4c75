/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Send templates at the data-path level (irdma_uk_tmpl.c) on QPs built in test memory:
 *  - conformance: the same WRs posted through irdma_uk_post_send into one QP and through a
 *    template into an identical twin leave byte-identical rings, tracking entries, heads,
 *    polarities and doorbells, for every template opcode and flag mix, over several ring
 *    wraps, with stretches that start at and cross the pre-invalidation boundaries (every
 *    128th quantum), end at the ring's last quantum, and follow multi-quantum WQEs and
 *    chunk NOPs that post_send wrote;
 *  - a template WQE decoded at doc/hardware.md's positions (uk_fixture.h, not base/);
 *  - refusals: NULL, another QP's template, a failed template, bad prototypes, QP states,
 *    a length beyond FRAG_LEN (mid-burst and at a pre-invalidation boundary), a full SQ
 *    (count and -ENOMEM as post_send's), one doorbell per burst and none for nothing.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include <rdmadev_driver.h>

#include "test.h"
#include "uk_fixture.h"

static struct irdma_hw hw;

/* Deterministic test values. */
static uint64_t
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

/* The variable part of WR number @p i. */
static struct rdmadev_tmpl_wr
twr(uint64_t i)
{
	static const uint32_t lens[] = { 0, 1, 7, 4096, 65536, 0x7fffffffu, 300 };

	return (struct rdmadev_tmpl_wr){
		.wr_id = 0x1000000000ull + i * 7,
		.addr = 0x7f0000000000ull + i * 0x1040,
		.remote_addr = 0x5500000000000000ull ^ (i * 0x2011),
		.length = lens[i % RTE_DIM(lens)],
		.imm_data = (uint32_t)(i * 0x01010101u + 7),	/* ignored without IMM */
	};
}

/* The generic WR post_send takes for template prototype @p proto and variable part @p v. */
static void
generic_of(const struct rdmadev_send_wr *proto, const struct rdmadev_tmpl_wr *v,
	   struct rdmadev_send_wr *wr, struct rdmadev_sge *sge)
{
	*wr = *proto;
	*sge = proto->sg_list[0];
	sge->addr = v->addr;
	sge->length = v->length;
	wr->sg_list = sge;
	wr->wr_id = v->wr_id;
	if (proto->opcode == RDMADEV_WR_RDMA_WRITE || proto->opcode == RDMADEV_WR_RDMA_WRITE_IMM ||
	    proto->opcode == RDMADEV_WR_RDMA_READ)
		wr->rdma.remote_addr = v->remote_addr;
	if (proto->opcode == RDMADEV_WR_RDMA_WRITE_IMM || proto->opcode == RDMADEV_WR_SEND_IMM)
		wr->imm_data = v->imm_data;
}

/* Post @p n template WRs: @p a through post_send, @p b through template @p t; both post
 * @p expect with error @p err_exp and ring one doorbell when they post something. */
static void
post_twins(struct irdma_qp *a, struct irdma_qp *b, const struct rdmadev_send_wr *proto,
	   const struct rdmadev_send_tmpl *t, const struct rdmadev_tmpl_wr *v, uint16_t n,
	   uint16_t expect, int err_exp)
{
	struct rdmadev_send_wr wrs[256];
	struct rdmadev_sge sges[256];
	unsigned int i, dba, dbb;
	int err = 1;

	for (i = 0; i < n; i++)
		generic_of(proto, &v[i], &wrs[i], &sges[i]);
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_post_send(a, wrs, n, &err), expect);
	TEST_CHECK_EQ(err, err_exp);
	dba = ukf_nb_writes;
	ukf_regs_clear();
	err = 1;
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(b, t, v, n, &err), expect);
	TEST_CHECK_EQ(err, err_exp);
	dbb = ukf_nb_writes;
	TEST_CHECK_EQ(dba, expect != 0 ? 1 : 0);
	TEST_CHECK_EQ(dbb, dba);
	if (dbb == 1) {
		TEST_CHECK_EQ(ukf_write_off[0], REG_WQEALLOC);
		TEST_CHECK_EQ(ukf_write_val[0], b->qp_id);
	}
}

/* A 3-SGE WRITE with immediate (3 quanta; on UD a SEND with immediate through @p ah) posted
 * to both: post_send's own WQEs and chunk NOPs. */
static void
post_generic_both(struct irdma_qp *a, struct irdma_qp *b, uint64_t id, struct rdmadev_ah *ah)
{
	static const struct rdmadev_sge sg[3] = {
		{ 0x1000, 10, 0x100 }, { 0x2000, 20, 0x200 }, { 0x3000, 30, 0x300 },
	};
	struct rdmadev_send_wr wr = {
		.wr_id = id, .sg_list = sg, .num_sge = 3, .opcode = RDMADEV_WR_RDMA_WRITE_IMM,
		.flags = RDMADEV_SEND_SIGNALED, .imm_data = 0x12345678,
		.rdma = { .remote_addr = 0x4000, .rkey = 0x99 },
	};
	int err;

	if (ah != NULL) {
		wr.opcode = RDMADEV_WR_SEND_IMM;
		wr.ud.ah = ah;
		wr.ud.remote_qpn = 0x42;
		wr.ud.remote_qkey = 0x43;
	}
	TEST_CHECK_EQ(irdma_uk_post_send(a, &wr, 1, &err), 1);
	TEST_CHECK_EQ(irdma_uk_post_send(b, &wr, 1, &err), 1);
}

/* What a prototype case is. */
struct proto_case {
	uint8_t opcode;
	uint8_t flags;
	uint8_t ud;
	uint8_t sig_all;
	uint8_t gen3;
};

/* The template and post_send agree byte for byte over eight ring wraps (gen2 and gen3). */
static void
test_conformance(void)
{
	static const struct proto_case cases[] = {
		{ RDMADEV_WR_RDMA_WRITE, RDMADEV_SEND_SIGNALED, 0, 0, 0 },
		{ RDMADEV_WR_RDMA_WRITE, RDMADEV_SEND_SOLICITED | RDMADEV_SEND_FENCE, 0, 0, 0 },
		{ RDMADEV_WR_RDMA_WRITE, 0, 0, 1, 0 },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_SIGNALED, 0, 0, 0 },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_SOLICITED | RDMADEV_SEND_LOCAL_FENCE, 0, 0, 0 },
		{ RDMADEV_WR_RDMA_READ, RDMADEV_SEND_SIGNALED | RDMADEV_SEND_FENCE, 0, 0, 0 },
		{ RDMADEV_WR_RDMA_READ, 0, 0, 0, 0 },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_SIGNALED, 1, 0, 0 },
		{ RDMADEV_WR_SEND, 0, 1, 1, 0 },
		{ RDMADEV_WR_RDMA_WRITE, RDMADEV_SEND_SIGNALED, 0, 0, 1 },
		{ RDMADEV_WR_RDMA_READ, RDMADEV_SEND_FENCE, 0, 1, 1 },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_SIGNALED, 1, 0, 1 },
		{ RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_SEND_SIGNALED, 0, 0, 0 },
		{ RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_SEND_SOLICITED, 0, 1, 0 },
		{ RDMADEV_WR_SEND_IMM, RDMADEV_SEND_SIGNALED | RDMADEV_SEND_FENCE, 0, 0, 0 },
		{ RDMADEV_WR_SEND_IMM, RDMADEV_SEND_SIGNALED, 1, 0, 0 },
		{ RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_SEND_SIGNALED, 0, 0, 1 },
	};
	static const struct rdmadev_sge psge = { .addr = 0xdead, .length = 1, .lkey = 0xabcde };
	struct rdmadev_ah ah = { .ah_id = 0x1abc };
	struct rdmadev_tmpl_wr v[200];
	unsigned int c;

	for (c = 0; c < RTE_DIM(cases); c++) {
		struct ukf_qp_conf conf = ukf_qp_default;
		struct rdmadev_send_wr proto = {
			.wr_id = 99, .sg_list = &psge, .num_sge = 1, .opcode = cases[c].opcode,
			.flags = cases[c].flags,
			.rdma = { .remote_addr = 0x1111, .rkey = 0x31337 },
		};
		uint32_t at_clr = 0, over_clr = 0, at_end = 0, wraps = 0, generic = 0, nops = 0;
		bool imm = cases[c].opcode == RDMADEV_WR_RDMA_WRITE_IMM ||
			   cases[c].opcode == RDMADEV_WR_SEND_IMM;
		uint32_t q = imm ? 2 : 1, mask = conf.sq_quanta - 1;
		struct irdma_qp a, b;
		struct rdmadev_send_tmpl t;
		uint64_t s = c + 1, id = 0, abs = 0;
		bool same = true;

		if (cases[c].ud) {
			conf.type = IRDMA_QP_TYPE_ROCE_UD;
			proto.ud.ah = &ah;
			proto.ud.remote_qpn = 0xabcdef;
			proto.ud.remote_qkey = 0x11112222;
		}
		ukf_qp_init(&a, &hw, &conf);
		ukf_qp_init(&b, &hw, &conf);
		a.sq_sig_all = b.sq_sig_all = cases[c].sig_all;
		a.gen = b.gen = cases[c].gen3 ? 3 : 2;
		irdma_uk_qp_select(&a);
		irdma_uk_qp_select(&b);
		TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&b, &proto, &t), 0);
		TEST_CHECK(t.qp_drv == &b);
		TEST_CHECK_EQ(t.qp_num, b.qp_id);
		TEST_CHECK_EQ(t.opcode, proto.opcode);
		TEST_CHECK_EQ(t.flags, proto.flags);
		while (abs < 8ull * conf.sq_quanta + 200 && same) {
			uint16_t n = (uint16_t)(rnd(&s) % 40), i;
			uint32_t h = b.sq.head, room = 128 - (h & 127), adv, x, guard = 0;

			if (rnd(&s) % 6 == 0) {
				/* a multi-quantum WQE of post_send's, NOPs before it at times */
				post_generic_both(&a, &b, 0xeeee0000 + id,
						  cases[c].ud ? &ah : NULL);
				generic++;
				abs += (b.sq.head - h) & mask;
				a.sq.tail = a.sq.head;
				b.sq.tail = b.sq.head;
				continue;
			}
			/* at times up to the next boundary exactly, or across it; twice to the
			 * ring's end */
			switch (rnd(&s) % 4) {
			case 0:
				n = (uint16_t)(room / q);
				break;
			case 1:
				n = (uint16_t)(room / q + 1 + rnd(&s) % 24);
				break;
			}
			if (h >= conf.sq_quanta - 128 && at_end < 2)
				n = (uint16_t)(room / q);
			for (i = 0; i < n; i++)
				v[i] = twr(id++);
			post_twins(&a, &b, &proto, &t, v, n, n, 0);
			same = ukf_sq_equal(&a, &b);
			adv = (b.sq.head - h) & mask;
			if (n != 0 && (h & 127) == 0)
				at_clr++;
			if ((h & 127) + adv > 128)
				over_clr++;
			if (n != 0 && h + adv == conf.sq_quanta)
				at_end++;
			if (h + adv > conf.sq_quanta)
				wraps++;
			/* the chunk NOPs the burst needed */
			for (x = h; x != b.sq.head && guard++ < conf.sq_quanta;
			     x = b.sq_wrtrk[x].next)
				nops += b.sq_wrtrk[x].nop;
			TEST_CHECK_EQ(x, b.sq.head);
			abs += adv;
			/* everything completed */
			a.sq.tail = a.sq.head;
			b.sq.tail = b.sq.head;
		}
		TEST_CHECK(same);
		TEST_CHECK(at_clr >= 4);
		TEST_CHECK(over_clr >= 4);
		TEST_CHECK(at_end >= 1 || imm);
		TEST_CHECK(wraps >= 1);
		TEST_CHECK(generic >= 4);
		TEST_CHECK(nops >= 4 || !imm);
		if (!same)
			printf("# case %u: at_clr %u over_clr %u at_end %u wraps %u generic %u "
			       "nops %u\n", c, at_clr, over_clr, at_end, wraps, generic, nops);
		ukf_qp_fini(&a);
		ukf_qp_fini(&b);
	}
}

/* A template WRITE and READ decoded at doc/hardware.md's positions, tracking included. */
static void
test_decode(void)
{
	static const struct rdmadev_sge psge = { .addr = 0, .length = 0, .lkey = 0xabc01 };
	struct rdmadev_send_wr proto = {
		.sg_list = &psge, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
		.flags = RDMADEV_SEND_SIGNALED | RDMADEV_SEND_FENCE,
		.rdma = { .rkey = 0x7654321 },
	};
	struct rdmadev_tmpl_wr v[2] = {
		{ .wr_id = 0xfeed, .addr = 0x123456789abcull, .remote_addr = 0xfedcba9876ull,
		  .length = 0x1234 },
		{ .wr_id = 0xbeef, .addr = 0x42, .remote_addr = 0x84, .length = 0x7fffffff },
	};
	struct rdmadev_send_tmpl t;
	struct irdma_qp qp;
	const uint8_t *w;
	uint64_t h;
	int err;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 2, &err), 2);
	TEST_CHECK_EQ(err, 0);
	/* quantum 0: fragment 0, remote address, header (§1.2-§1.4) */
	w = qp.sq.base;
	TEST_CHECK_EQ(test_le64(w, 0), 0x123456789abcull);
	TEST_CHECK_EQ(test_bits(test_le64(w, 8), 31, 0), 0xabc01);
	TEST_CHECK_EQ(test_bits(test_le64(w, 8), 62, 32), 0x1234);
	TEST_CHECK_EQ(test_bits(test_le64(w, 8), 63, 63), 1);
	TEST_CHECK_EQ(test_le64(w, 16), 0xfedcba9876ull);
	h = test_le64(w, 24);
	TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x7654321);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x00);
	TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), 0);
	TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 0);
	TEST_CHECK_EQ(GETF(h, F_INLINEFLAG), 0);
	TEST_CHECK_EQ(GETF(h, F_READFENCE), 1);
	TEST_CHECK_EQ(GETF(h, F_LOCALFENCE), 0);
	TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 1);
	TEST_CHECK_EQ(GETF(h, F_VALID), 1);
	TEST_CHECK_EQ(test_bits(h, 59, 42), 0);
	/* quantum 1: the largest length FRAG_LEN holds */
	w = qp.sq.base + 32;
	TEST_CHECK_EQ(test_le64(w, 8), 0xabc01ull | 0x7fffffffull << 32 | 1ull << 63);
	/* tracking: wr_id, completion opcode, bytes, next, quanta, signaled, the QP number */
	TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_id, 0xfeed);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].nop, 0);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].opcode, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].rsvd, 0);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].wr_len, 0x1234);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].imm, 0);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].qp_num, qp.qp_id);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].next, 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].quanta, 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[0].signaled, 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[1].wr_len, 0x7fffffff);
	TEST_CHECK_EQ(qp.sq_wrtrk[1].next, 2);
	TEST_CHECK_EQ(qp.sq.head, 2);

	/* an unsignaled READ with a local fence */
	proto.opcode = RDMADEV_WR_RDMA_READ;
	proto.flags = RDMADEV_SEND_LOCAL_FENCE;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 1, &err), 1);
	w = qp.sq.base + 64;
	h = test_le64(w, 24);
	TEST_CHECK_EQ(test_le64(w, 16), 0xfedcba9876ull);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x01);
	TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x7654321);
	TEST_CHECK_EQ(GETF(h, F_READFENCE), 0);
	TEST_CHECK_EQ(GETF(h, F_LOCALFENCE), 1);
	TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 0);
	TEST_CHECK_EQ(GETF(h, F_VALID), 1);
	TEST_CHECK_EQ(qp.sq_wrtrk[2].opcode, RDMADEV_WC_RDMA_READ);
	TEST_CHECK_EQ(qp.sq_wrtrk[2].signaled, 0);

	/* a WRITE with immediate (§1.4): the immediate in slot 0 (host order), the SGE at byte
	 * 32, the NULL pad at 48, ADDFRAGCNT 2 (gen2), IMMFLAG; 2 quanta tracked */
	proto.opcode = RDMADEV_WR_RDMA_WRITE_IMM;
	proto.flags = RDMADEV_SEND_SIGNALED;
	v[0].imm_data = rte_cpu_to_be_32(0x5a5a1234);
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 1, &err), 1);
	w = qp.sq.base + 96;
	h = test_le64(w, 24);
	TEST_CHECK_EQ(test_le64(w, 0), 0x5a5a1234);
	TEST_CHECK_EQ(test_le64(w, 8), 0);
	TEST_CHECK_EQ(test_le64(w, 16), 0xfedcba9876ull);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x00);
	TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 1);
	TEST_CHECK_EQ(GETF(h, F_ADDFRAGCNT), 2);
	TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0x7654321);
	TEST_CHECK_EQ(GETF(h, F_SIGCOMPL), 1);
	TEST_CHECK_EQ(GETF(h, F_VALID), 1);
	TEST_CHECK_EQ(test_le64(w, 32), 0x123456789abcull);
	TEST_CHECK_EQ(test_le64(w, 40), 0xabc01ull | 0x1234ull << 32 | 1ull << 63);
	TEST_CHECK_EQ(test_le64(w, 48), 0);
	TEST_CHECK_EQ(test_le64(w, 56), 1ull << 63);
	TEST_CHECK_EQ(qp.sq_wrtrk[3].opcode, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK_EQ(qp.sq_wrtrk[3].quanta, 2);
	TEST_CHECK_EQ(qp.sq_wrtrk[3].next, 5);
	TEST_CHECK_EQ(qp.sq_wrtrk[3].wr_len, 0x1234);
	TEST_CHECK_EQ(qp.sq.head, 5);

	/* a solicited SEND: opcode 0x05, no remote address, no REMSTAG */
	proto.opcode = RDMADEV_WR_SEND;
	proto.flags = RDMADEV_SEND_SOLICITED | RDMADEV_SEND_SIGNALED;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 1, &err), 1);
	w = qp.sq.base + 5 * 32;
	h = test_le64(w, 24);
	TEST_CHECK_EQ(test_le64(w, 16), 0);
	TEST_CHECK_EQ(GETF(h, F_OPCODE), 0x05);
	TEST_CHECK_EQ(GETF(h, F_REMSTAG), 0);
	TEST_CHECK_EQ(GETF(h, F_IMMFLAG), 0);
	TEST_CHECK_EQ(qp.sq_wrtrk[5].opcode, RDMADEV_WC_SEND);
	ukf_qp_fini(&qp);
}

/* A burst of @p n from @p v with template @p t is refused at 0 with @p exp, nothing
 * written, no doorbell. */
static void
check_refused(struct irdma_qp *qp, const struct rdmadev_send_tmpl *t,
	      const struct rdmadev_tmpl_wr *v, uint16_t n, int exp)
{
	struct ukf_snap sn;
	int err = 1;

	ukf_snap_take(qp, &sn);
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(qp, t, v, n, &err), 0);
	TEST_CHECK_EQ(err, exp);
	TEST_CHECK_EQ(ukf_nb_writes, 0);
	ukf_snap_check(qp, &sn);
}

/* Bad templates and bad prototypes. */
static void
test_bad_templates(void)
{
	static const struct rdmadev_sge sg2[2] = { { 1, 2, 3 }, { 4, 5, 6 } };
	struct rdmadev_send_wr proto = {
		.sg_list = sg2, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
	};
	struct rdmadev_tmpl_wr v[4] = { twr(1), twr(2), twr(3), twr(4) };
	struct ukf_qp_conf conf = ukf_qp_default;
	struct rdmadev_send_tmpl t, other;
	struct irdma_qp qp, qp2, ud;
	unsigned int i;
	int err;
	static const struct {
		uint8_t opcode, flags;
		uint16_t nsge;
		int err;
	} bad[] = {
		{ RDMADEV_WR_RDMA_WRITE, 0, 2, -EINVAL },
		{ RDMADEV_WR_RDMA_WRITE, 0, 0, -EINVAL },
		{ RDMADEV_WR_SEND, RDMADEV_SEND_INLINE, 1, -EINVAL },
		{ RDMADEV_WR_RDMA_WRITE_IMM, RDMADEV_SEND_INLINE, 1, -EINVAL },
		{ RDMADEV_WR_SEND_IMM, 0, 2, -EINVAL },
		{ RDMADEV_WR_SEND_INV, 0, 1, -ENOTSUP },
		{ RDMADEV_WR_LOCAL_INV, 0, 1, -ENOTSUP },
		{ RDMADEV_WR_NOP, 0, 1, -ENOTSUP },
		{ RDMADEV_WR_ATOMIC_FA, 0, 1, -ENOTSUP },	/* gen2: post_send's answer */
		{ 200, 0, 1, -EINVAL },				/* unknown: post_send's answer */
	};

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	ukf_qp_init(&qp2, &hw, &ukf_qp_default);
	conf.type = IRDMA_QP_TYPE_ROCE_UD;
	ukf_qp_init(&ud, &hw, &conf);
	for (i = 0; i < RTE_DIM(bad); i++) {
		proto.opcode = bad[i].opcode;
		proto.flags = bad[i].flags;
		proto.num_sge = bad[i].nsge;
		memset(&t, 0x5a, sizeof(t));
		TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), bad[i].err);
		/* a failed template is zeroed, and refused */
		TEST_CHECK(t.qp_drv == NULL);
		check_refused(&qp, &t, v, 1, -EINVAL);
	}
	/* NULL SGE list */
	proto = (struct rdmadev_send_wr){ .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE };
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), -EINVAL);
	/* opcodes a UD QP does not allow, and a UD send without an AH: post_send's -EINVAL */
	proto.sg_list = sg2;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&ud, &proto, &t), -EINVAL);
	proto.opcode = RDMADEV_WR_RDMA_READ;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&ud, &proto, &t), -EINVAL);
	proto.opcode = RDMADEV_WR_SEND;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&ud, &proto, &t), -EINVAL);
	/* a QP without send SGEs */
	qp2.max_send_sge = 0;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp2, &proto, &t), -EINVAL);
	qp2.max_send_sge = ukf_qp_default.max_send_sge;

	/* NULL template, NULL WRs, another QP's template (also one of an earlier QP at the
	 * same address: another generation) */
	proto.opcode = RDMADEV_WR_RDMA_WRITE;
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp2, &proto, &other), 0);
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
	check_refused(&qp, NULL, v, 1, -EINVAL);
	check_refused(&qp, &t, NULL, 1, -EINVAL);
	check_refused(&qp, &other, v, 4, -EINVAL);
	check_refused(&qp, &other, v, 0, -EINVAL);
	qp.tmpl_gen++;
	check_refused(&qp, &t, v, 4, -EINVAL);
	qp.tmpl_gen--;
	/* and the right one works */
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 4, &err), 4);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK_EQ(ukf_nb_writes, 1);
	ukf_qp_fini(&qp);
	ukf_qp_fini(&qp2);
	ukf_qp_fini(&ud);
}

/* Posting in every HW state: RTS and SQD only, as post_send. */
static void
test_states(void)
{
	const struct ukf_hw_state *st = ukf_hw_states;
	static const struct rdmadev_sge sge = { 1, 2, 3 };
	struct rdmadev_send_wr proto = {
		.sg_list = &sge, .num_sge = 1, .opcode = RDMADEV_WR_SEND,
	};
	struct rdmadev_tmpl_wr v[3] = { twr(1), twr(2), twr(3) };
	struct rdmadev_send_tmpl t;
	struct irdma_qp qp;
	unsigned int i;
	int err;

	for (i = 0; i < RTE_DIM(ukf_hw_states); i++) {
		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		irdma_qp_hw_state_set(&qp, st[i].state);
		/* made in any state */
		TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
		if (st[i].send_ok) {
			TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 3, &err), 3);
			TEST_CHECK_EQ(err, 0);
		} else {
			check_refused(&qp, &t, v, 3, -EINVAL);
			/* nothing to refuse in an empty burst */
			check_refused(&qp, &t, v, 0, 0);
		}
		ukf_qp_fini(&qp);
	}
}

/* A length beyond FRAG_LEN: refused at its index, the WRs before it posted. */
static void
test_bad_length(void)
{
	static const struct rdmadev_sge sge = { 1, 2, 3 };
	static const uint8_t ops[] = { RDMADEV_WR_RDMA_WRITE, RDMADEV_WR_RDMA_WRITE_IMM };
	/*
	 * Heads the bad WR is refused at: a pre-invalidation boundary (neither the start work
	 * nor the WQE is done), index 0 of the next pass (no polarity flip either), and where a
	 * chunk NOP would be due for an immediate (no NOP either).
	 */
	static const uint32_t heads[] = { 128, 0, 7 };
	struct rdmadev_send_wr proto = { .sg_list = &sge, .num_sge = 1 };
	struct rdmadev_tmpl_wr v[8];
	struct rdmadev_send_tmpl t;
	struct irdma_qp qp;
	unsigned int i, o, q;
	int err;

	for (o = 0; o < RTE_DIM(ops); o++) {
		/* quanta a WQE takes: 1, or 2 with the immediate */
		q = o + 1;
		proto.opcode = ops[o];
		for (i = 0; i < RTE_DIM(v); i++)
			v[i] = twr(i);
		ukf_qp_init(&qp, &hw, &ukf_qp_default);
		TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&qp, &proto, &t), 0);
		v[5].length = 0x80000000u;
		ukf_regs_clear();
		TEST_CHECK_EQ(irdma_uk_post_send_tmpl(&qp, &t, v, 8, &err), 5);
		TEST_CHECK_EQ(err, -EINVAL);
		TEST_CHECK_EQ(ukf_nb_writes, 1);
		TEST_CHECK_EQ(qp.sq.head, 5 * q);
		TEST_CHECK_EQ(test_le64(qp.sq.base + 5 * q * 32, 24), 0);
		TEST_CHECK_EQ(qp.sq_wrtrk[5 * q].wr_id, 0);
		check_refused(&qp, &t, &v[5], 3, -EINVAL);
		for (i = 0; i < RTE_DIM(heads); i++) {
			qp.sq.head = qp.sq.tail = heads[i];
			check_refused(&qp, &t, &v[5], 1, -EINVAL);
		}
		v[5].length = 0xffffffffu;
		check_refused(&qp, &t, &v[5], 1, -EINVAL);
		ukf_qp_fini(&qp);
	}
}

/* A full SQ: the same count and -ENOMEM as post_send, the same bytes, for a burst that
 * fills it and for bursts into a full ring; completions free it again. */
static void
test_sq_full(void)
{
	static const struct rdmadev_sge sge = { 1, 2, 3 };
	struct rdmadev_send_wr proto = {
		.sg_list = &sge, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
		.flags = RDMADEV_SEND_SIGNALED, .rdma = { .rkey = 9 },
	};
	struct rdmadev_tmpl_wr v[200];
	struct rdmadev_send_tmpl t;
	struct irdma_qp a, b;
	unsigned int i;

	for (i = 0; i < RTE_DIM(v); i++)
		v[i] = twr(i);
	ukf_qp_init(&a, &hw, &ukf_qp_default);
	ukf_qp_init(&b, &hw, &ukf_qp_default);
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&b, &proto, &t), 0);
	/* 512 - 257 = 255 fit: 200, then 55 of 200 */
	post_twins(&a, &b, &proto, &t, v, 200, 200, 0);
	post_twins(&a, &b, &proto, &t, v, 200, 55, -ENOMEM);
	ukf_sq_equal(&a, &b);
	post_twins(&a, &b, &proto, &t, v, 1, 0, -ENOMEM);
	/* a bad length in a full ring: -EINVAL first, as post_send checks a WR first */
	v[0].length = 0x80000000u;
	check_refused(&b, &t, v, 1, -EINVAL);
	v[0] = twr(0);
	check_refused(&b, &t, v, 1, -ENOMEM);
	/* completions free the ring again */
	a.sq.tail = a.sq.head;
	b.sq.tail = b.sq.head;
	post_twins(&a, &b, &proto, &t, v, 16, 16, 0);
	ukf_sq_equal(&a, &b);
	/* partly full: 10 of 16 */
	a.sq.tail = (a.sq.head - 245) & 511;
	b.sq.tail = a.sq.tail;
	post_twins(&a, &b, &proto, &t, v, 16, 10, -ENOMEM);
	ukf_sq_equal(&a, &b);
	ukf_qp_fini(&a);
	ukf_qp_fini(&b);

	/* with an immediate (2 quanta, chunk NOPs counted): from head 1, WRs at 1, 3, 5, a NOP
	 * at 7, then every 2: WR k fits while 2k + 1 (the NOP) + 2 + 257 <= 512, so 127 fit,
	 * the ring is then full to head 256, and from there (start work at 256) 127 again */
	proto.opcode = RDMADEV_WR_RDMA_WRITE_IMM;
	ukf_qp_init(&a, &hw, &ukf_qp_default);
	ukf_qp_init(&b, &hw, &ukf_qp_default);
	TEST_CHECK_EQ(irdma_uk_send_tmpl_init(&b, &proto, &t), 0);
	a.sq.head = a.sq.tail = b.sq.head = b.sq.tail = 1;
	post_twins(&a, &b, &proto, &t, v, 200, 127, -ENOMEM);
	ukf_sq_equal(&a, &b);
	TEST_CHECK_EQ(b.sq.head, 256);
	TEST_CHECK_EQ(b.sq_wrtrk[7].nop, 1);
	post_twins(&a, &b, &proto, &t, v, 1, 0, -ENOMEM);
	a.sq.tail = a.sq.head;
	b.sq.tail = b.sq.head;
	post_twins(&a, &b, &proto, &t, v, 150, 127, -ENOMEM);
	ukf_sq_equal(&a, &b);
	ukf_qp_fini(&a);
	ukf_qp_fini(&b);
}

int
main(void)
{
	ukf_hw_init(&hw);
	TEST_RUN(test_conformance);
	TEST_RUN(test_decode);
	TEST_RUN(test_bad_templates);
	TEST_RUN(test_states);
	TEST_RUN(test_bad_length);
	TEST_RUN(test_sq_full);
	return test_done();
}
