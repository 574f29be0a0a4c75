/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Whole structures built with the base/ helpers, byte by byte, compared with byte arrays
 * assembled by hand from doc/hardware.md (§1.4-§1.6 WQEs, §5.3 CQP WQEs, §3 CQE, §5.5
 * AEQE, §7 SD entries); plus the format helpers (quanta, shifts, depths, encodings)
 * against doc/hardware.md's tables.
 */

#include <stdint.h>
#include <string.h>

#include "irdma_base.h"
#include "test.h"

static void
check_bytes(const char *what, const void *got, const uint8_t *exp, size_t n)
{
	const uint8_t *g = got;

	if (memcmp(got, exp, n) == 0)
		return;
	test_case_failures++;
	printf("#   %s: bytes differ from the hand-assembled image\n", what);
	for (size_t i = 0; i < n; i++)
		if (g[i] != exp[i])
			printf("#     byte %zu: got 0x%02x expected 0x%02x\n", i, g[i], exp[i]);
}

struct sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;
};

static const struct sge three_sges[3] = {
	{ 0x1000200030004000ull, 0x100, 0xaabbcc01 },
	{ 0x5000, 0x2000, 0xaabbcc02 },
	{ 0x60000000, 0x40, 0xaabbcc03 },
};

/* A gen2 fragment, written the way a driver would. */
static void
put_frag(struct irdma_wqe *w, uint32_t k, const struct sge *s, uint32_t polarity)
{
	struct irdma_wqe_frag *f = irdma_wqe_frag(w, k);

	if (s == NULL) { /* gen2 NULL pad: valid bit only */
		irdma_set(f, FRAG_ADDR, 0);
		irdma_set(f, FRAG_VALID, polarity);
		return;
	}
	irdma_set(f, FRAG_ADDR, s->addr);
	irdma_set(f, FRAG_STAG, s->lkey);
	irdma_set(f, FRAG_LEN, s->len);
	irdma_set(f, FRAG_VALID, polarity);
}

/*
 * RDMA WRITE (optionally with immediate) of @n SGEs, gen2, signalled, as §1.5: frag0 in
 * qw0/qw1 unless there is an immediate (then qw0 = imm and frag0 moves to byte 32); the
 * gen2 NULL pad when the fragment count (imm counted) is even; header last.
 */
static uint32_t
build_write(struct irdma_wqe *w, const struct sge *sg, uint32_t n, int with_imm, uint32_t imm,
	    uint32_t rkey, uint64_t rva, uint32_t polarity)
{
	uint32_t frag_cnt = n + (with_imm ? 1 : 0);
	uint32_t k = 0, i = 0;
	uint64_t hdr;

	if (with_imm) {
		irdma_set(w, SQ_IMMDATA, imm);
		k = 1;
	}
	for (; i < n; i++, k++)
		put_frag(w, k, &sg[i], polarity);
	if (irdma_frag_needs_pad(frag_cnt))
		put_frag(w, k, NULL, polarity);
	irdma_set(w, SQ_REMOTE_TO, rva);
	hdr = IRDMA_PREP(SQ_REMSTAG, rkey) |
	      IRDMA_PREP(SQ_OPCODE, IRDMA_OP_RDMA_WRITE) |
	      IRDMA_PREP(SQ_IMMDATAFLAG, with_imm ? 1 : 0) |
	      IRDMA_PREP(SQ_ADDFRAGCNT, irdma_addfragcnt(frag_cnt, true)) |
	      IRDMA_PREP(SQ_SIGCOMPL, 1) |
	      IRDMA_PREP(SQ_VALID, polarity);
	/* a real driver issues a write barrier here */
	irdma_qw_store(w, SQ_VALID, hdr);
	return irdma_sq_frags_to_quanta(frag_cnt);
}

static void
test_example_rdma_write_3sge(void)
{
	/*
	 * RDMA WRITE, 3 SGEs, no immediate, polarity 1, signalled, rkey 0x11223344,
	 * remote VA 0x00007f00deadb000. Fragment count 3 (odd): no pad, ADDFRAGCNT 2,
	 * 2 quanta. Header = 0x11223344 | 0 << 32 | 2 << 38 | 1 << 62 | 1 << 63.
	 */
	static const uint8_t exp[64] = {
		/* q0 qw0: frag0 address 0x1000200030004000 */
		0x00, 0x40, 0x00, 0x30, 0x00, 0x20, 0x00, 0x10,
		/* q0 qw1: lkey 0xaabbcc01, len 0x100 << 32, valid << 63 */
		0x01, 0xcc, 0xbb, 0xaa, 0x00, 0x01, 0x00, 0x80,
		/* q0 qw2: remote VA */
		0x00, 0xb0, 0xad, 0xde, 0x00, 0x7f, 0x00, 0x00,
		/* q0 qw3: header 0xc000008011223344 */
		0x44, 0x33, 0x22, 0x11, 0x80, 0x00, 0x00, 0xc0,
		/* q1 qw0/qw1: frag1 (byte 32) */
		0x00, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x02, 0xcc, 0xbb, 0xaa, 0x00, 0x20, 0x00, 0x80,
		/* q1 qw2/qw3: frag2 (byte 48); its qword lands on q1 qw3 = valid */
		0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00,
		0x03, 0xcc, 0xbb, 0xaa, 0x40, 0x00, 0x00, 0x80,
	};
	struct irdma_wqe w;
	uint32_t quanta;

	memset(&w, 0, sizeof(w));
	quanta = build_write(&w, three_sges, 3, 0, 0, 0x11223344, 0x00007f00deadb000ull, 1);
	TEST_CHECK_EQ(quanta, 2);
	check_bytes("RDMA WRITE 3 SGE", &w, exp, sizeof(exp));
	/* nothing beyond the 2 quanta */
	for (size_t i = sizeof(exp); i < sizeof(w); i++)
		TEST_CHECK_EQ(((uint8_t *)&w)[i], 0);
	/* decode back */
	TEST_CHECK_EQ(irdma_get(&w, SQ_OPCODE), IRDMA_OP_RDMA_WRITE);
	TEST_CHECK_EQ(irdma_get(&w, SQ_ADDFRAGCNT), 2);
	TEST_CHECK_EQ(irdma_get(irdma_wqe_frag_c(&w, 2), FRAG_LEN), 0x40);
}

static void
test_example_rdma_write_imm_pad(void)
{
	/*
	 * RDMA WRITE with immediate 0xdeadbeef and 3 SGEs: fragment count 4 (imm counted) is
	 * even, so gen2 writes a NULL pad fragment and counts it: ADDFRAGCNT = 3 + 1 = 4;
	 * 3 quanta. qw1 stays 0; SGE0 moves to byte 32, SGE1 48, SGE2 64, pad 80.
	 * Header = rkey | 1 << 47 | 4 << 38 | 1 << 62 | 1 << 63 = 0xc000810011223344.
	 */
	static const uint8_t exp[96] = {
		0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x00, 0x00, /* imm */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* qw1 unused */
		0x00, 0xb0, 0xad, 0xde, 0x00, 0x7f, 0x00, 0x00, /* remote VA */
		0x44, 0x33, 0x22, 0x11, 0x00, 0x81, 0x00, 0xc0, /* header */
		0x00, 0x40, 0x00, 0x30, 0x00, 0x20, 0x00, 0x10, /* SGE0 @32 */
		0x01, 0xcc, 0xbb, 0xaa, 0x00, 0x01, 0x00, 0x80,
		0x00, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* SGE1 @48 */
		0x02, 0xcc, 0xbb, 0xaa, 0x00, 0x20, 0x00, 0x80,
		0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00, /* SGE2 @64 */
		0x03, 0xcc, 0xbb, 0xaa, 0x40, 0x00, 0x00, 0x80,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* NULL pad @80 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* valid only */
	};
	struct irdma_wqe w;
	uint32_t quanta;

	memset(&w, 0, sizeof(w));
	quanta = build_write(&w, three_sges, 3, 1, 0xdeadbeef, 0x11223344,
			     0x00007f00deadb000ull, 1);
	TEST_CHECK_EQ(quanta, 3);
	check_bytes("RDMA WRITE_IMM 3 SGE + pad", &w, exp, sizeof(exp));

	/* gen3 pads the same way but does not count the pad */
	TEST_CHECK_EQ(irdma_addfragcnt(4, false), 3);
}

static void
test_example_ud_send_pad(void)
{
	/*
	 * UD SEND, 2 SGEs, polarity 1: AHID 0x1abcd, Q_Key 0x0001abcd, dest QPN 0xc0ffee.
	 * Fragment count 2: pad at byte 48, ADDFRAGCNT 1 + 1 = 2.
	 * Header = 0x1abcd | 3 << 32 | 2 << 38 | 1 << 62 | 1 << 63 = 0xc00000830001abcd.
	 */
	static const uint8_t exp[64] = {
		0x00, 0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x01, 0x00, 0x00, 0x10, 0x00, 0x00, 0x80,
		0xcd, 0xab, 0x01, 0x00, 0xee, 0xff, 0xc0, 0x00, /* qkey | qpn << 32 */
		0xcd, 0xab, 0x01, 0x00, 0x83, 0x00, 0x00, 0xc0,
		0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* SGE1 @32 */
		0x02, 0x02, 0x00, 0x00, 0x20, 0x00, 0x00, 0x80,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* pad @48 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
	};
	static const struct sge sg[2] = { { 0x7000, 0x10, 0x0101 }, { 0x8000, 0x20, 0x0202 } };
	struct irdma_wqe w;

	memset(&w, 0, sizeof(w));
	put_frag(&w, 0, &sg[0], 1);
	put_frag(&w, 1, &sg[1], 1);
	put_frag(&w, 2, NULL, 1);
	irdma_set(&w, SQ_UD_DESTQKEY, 0x0001abcd);
	irdma_set(&w, SQ_UD_DESTQPN, 0xc0ffee);
	irdma_qw_store(&w, SQ_VALID,
		       IRDMA_PREP(SQ_AHID, 0x1abcd) | IRDMA_PREP(SQ_OPCODE, IRDMA_OP_RDMA_SEND) |
		       IRDMA_PREP(SQ_ADDFRAGCNT, irdma_addfragcnt(2, true)) |
		       IRDMA_PREP(SQ_SIGCOMPL, 1) | IRDMA_PREP(SQ_VALID, 1));
	TEST_CHECK_EQ(irdma_sq_frags_to_quanta(2), 2);
	check_bytes("UD SEND 2 SGE + pad", &w, exp, sizeof(exp));
}

static void
test_example_inline_send(void)
{
	/*
	 * Inline SEND of 20 bytes 0x01..0x14, polarity 1 (§1.6): bytes 0..7 at 8..15, bytes
	 * 8..19 at 32..43, byte 63 = 0x80 (quantum 1 valid). 2 quanta.
	 * Header = 3 << 32 | 20 << 48 | 1 << 57 | 1 << 62 | 1 << 63 = 0xc214000300000000.
	 */
	static const uint8_t exp[64] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x14, 0xc2,
		0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
		0x11, 0x12, 0x13, 0x14, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
	};
	struct irdma_wqe w;
	uint8_t *b = (uint8_t *)&w;
	uint32_t len = 20, quanta = irdma_inline_to_quanta(len);

	memset(&w, 0, sizeof(w));
	for (uint32_t i = 0; i < len; i++)
		b[irdma_inline_byte_offset(i)] = (uint8_t)(i + 1);
	for (uint32_t q = 1; q < quanta; q++)
		b[q * IRDMA_QUANTUM_SIZE + IRDMA_INLINE_VALID_BYTE] =
			(uint8_t)(1u << IRDMA_INLINE_VALID_SHIFT);
	irdma_qw_store(&w, SQ_VALID,
		       IRDMA_PREP(SQ_OPCODE, IRDMA_OP_RDMA_SEND) |
		       IRDMA_PREP(SQ_INLINEDATALEN, len) | IRDMA_PREP(SQ_INLINEDATAFLAG, 1) |
		       IRDMA_PREP(SQ_SIGCOMPL, 1) | IRDMA_PREP(SQ_VALID, 1));
	TEST_CHECK_EQ(quanta, 2);
	check_bytes("inline SEND 20 B", &w, exp, sizeof(exp));
	/* byte 31 of quantum 1 carries the valid bit = qword 3 bit 63 of that quantum */
	TEST_CHECK_EQ(irdma_get((struct irdma_quantum *)(void *)(b + 32), QUANTUM_VALID), 1);
}

static void
test_example_cqp_create_qp(void)
{
	/*
	 * CREATE_QP (§5.3): ctx PA 0x1234567800 in qw2, shadow PA 0xabcdef080 in qw5;
	 * header qp_id 0x123 | VQ 45 | CQNUMVALID 47 | QPTYPE 3 << 48 | valid 63.
	 */
	static const uint8_t exp[64] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00,
		0x23, 0x01, 0x00, 0x00, 0x00, 0xa0, 0x03, 0x80,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0xf0, 0xde, 0xbc, 0x0a, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct irdma_cqp_wqe w;

	memset(&w, 0, sizeof(w));
	irdma_set(&w, CQP_QP_CTX_PA, 0x0000001234567800ull);
	irdma_set(&w, CQP_QP_SHADOW_PA, 0x0000000abcdef080ull);
	irdma_qw_store(&w, CQP_WQEVALID,
		       IRDMA_PREP(CQP_QP_ID, 0x123) |
		       IRDMA_PREP(CQP_OPCODE, IRDMA_CQP_OP_CREATE_QP) |
		       IRDMA_PREP(CQP_QP_VQ, 1) | IRDMA_PREP(CQP_QP_CQNUMVALID, 1) |
		       IRDMA_PREP(CQP_QP_TYPE, IRDMA_QP_TYPE_ROCE_RC) |
		       IRDMA_PREP(CQP_WQEVALID, 1));
	check_bytes("CQP CREATE_QP", &w, exp, sizeof(exp));
}

static void
test_example_cqp_create_cq(void)
{
	/*
	 * CREATE_CQ (§5.3): size 0x200, ctx 0x3fff891a2b3c, threshold 0x40, PA 0x40000000,
	 * shadow 0x40001000; header cq_id 0x1234 | CEQID 5 << 22 | op 3 | CHKOVERFLOW 46 |
	 * ENCEQEMASK 48 | CEQIDVALID 49 | valid 63 = 0x8003400301401234.
	 */
	static const uint8_t exp[64] = {
		0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x3c, 0x2b, 0x1a, 0x89, 0xff, 0x3f, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x34, 0x12, 0x40, 0x01, 0x03, 0x40, 0x03, 0x80,
		0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct irdma_cqp_wqe w;

	memset(&w, 0, sizeof(w));
	irdma_set(&w, CQP_CQ_SIZE, 0x200);
	irdma_set(&w, CQP_CQ_CTX, 0x3fff891a2b3cull);
	irdma_set(&w, CQP_CQ_SHADOW_READ_THRESHOLD, 0x40);
	irdma_set(&w, CQP_CQ_PA, 0x40000000);
	irdma_set(&w, CQP_CQ_SHADOW_PA, 0x40001000);
	irdma_qw_store(&w, CQP_WQEVALID,
		       IRDMA_PREP(CQP_CQ_ID, 0x1234) | IRDMA_PREP(CQP_CQ_CEQID, 5) |
		       IRDMA_PREP(CQP_OPCODE, IRDMA_CQP_OP_CREATE_CQ) |
		       IRDMA_PREP(CQP_CQ_CHKOVERFLOW, 1) | IRDMA_PREP(CQP_CQ_ENCEQEMASK, 1) |
		       IRDMA_PREP(CQP_CQ_CEQIDVALID, 1) | IRDMA_PREP(CQP_WQEVALID, 1));
	check_bytes("CQP CREATE_CQ", &w, exp, sizeof(exp));
}

static void
test_example_cqe_decode(void)
{
	/*
	 * An SQ flush CQE as the device would write it (§3): qw1 = 0x1122334455667788,
	 * QPID 0x123 (qw2 55:32), minor 2 (PROT) / major 1 (flush), WQEIDX 0x10, ERROR,
	 * OP 0x01 (READ), SQ, VALID: qw3 = 0x2 | 1 << 16 | 0x10 << 32 | 1 << 55 |
	 * 1 << 56 | 1 << 62 | 1 << 63 = 0xc180001000010002.
	 */
	static const uint8_t raw[32] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0x00, 0x00, 0x00, 0x00, 0x23, 0x01, 0x00, 0x00,
		0x02, 0x00, 0x01, 0x00, 0x10, 0x00, 0x80, 0xc1,
	};
	struct irdma_cqe c;

	memcpy(&c, raw, sizeof(c));
	TEST_CHECK_EQ(irdma_get(&c, CQE_VALID), 1);
	TEST_CHECK_EQ(irdma_get(&c, CQE_SQ), IRDMA_CQE_QTYPE_SQ);
	TEST_CHECK_EQ(irdma_get(&c, CQE_OP), IRDMA_OP_RDMA_READ);
	TEST_CHECK_EQ(irdma_get(&c, CQE_ERROR), 1);
	TEST_CHECK_EQ(irdma_get(&c, CQE_MAJERR), IRDMA_CQE_MAJOR_FLUSH);
	TEST_CHECK_EQ(irdma_get(&c, CQE_MINERR), IRDMA_FLUSH_PROT_ERR);
	TEST_CHECK_EQ(irdma_get(&c, CQE_WQEIDX), 0x10);
	TEST_CHECK_EQ(irdma_get(&c, CQE_QPID), 0x123);
	TEST_CHECK(irdma_get(&c, CQE_COMP_CTX) == 0x1122334455667788ull);
	TEST_CHECK_EQ(irdma_get(&c, CQE_EXTCQE), 0);
	TEST_CHECK_EQ(irdma_cqe_slots(irdma_qw_load(&c, CQE_VALID)), 1);
	TEST_CHECK_EQ(irdma_cqe_vendor_err(1, 2), 0x00010002);
	TEST_CHECK(strcmp(irdma_flush_code_name(IRDMA_FLUSH_PROT_ERR), "local protection") == 0);
}

static void
test_example_aeqe_decode(void)
{
	/*
	 * AEQE (§5.5): qw0 = ctx 0xfeed, qw1 = id 0x4_0005 (low 0x5, hi bit 46), WQDESCIDX 7,
	 * AECODE 0x0102, AESRC 5 (SQ), VALID: qw1 = 0x5 | 7 << 18 | 0x102 << 34 | 1 << 46 |
	 * 5 << 50 | 1 << 63 = 0x80144408001c0005.
	 */
	static const uint8_t raw[16] = {
		0xed, 0xfe, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x05, 0x00, 0x1c, 0x00, 0x08, 0x44, 0x14, 0x80,
	};
	struct irdma_aeqe a;
	enum irdma_ae_event_kind kind;

	memcpy(&a, raw, sizeof(a));
	TEST_CHECK_EQ(irdma_get(&a, AEQE_VALID), 1);
	TEST_CHECK_EQ(irdma_get(&a, AEQE_COMPCTX), 0xfeed);
	TEST_CHECK_EQ(irdma_get(&a, AEQE_AECODE), IRDMA_AE_AMP_UNALLOCATED_STAG);
	TEST_CHECK_EQ(irdma_get(&a, AEQE_AESRC), IRDMA_AE_SOURCE_SQ);
	TEST_CHECK_EQ(irdma_get(&a, AEQE_WQDESCIDX), 7);
	TEST_CHECK_EQ(irdma_aeqe_qpcq_id(irdma_qw_load(&a, AEQE_VALID)), 0x40005);
	TEST_CHECK_EQ(irdma_ae_to_flush_code(IRDMA_AE_AMP_UNALLOCATED_STAG, &kind),
		      IRDMA_FLUSH_PROT_ERR);
	TEST_CHECK_EQ(kind, IRDMA_AE_EVENT_ACCESS_ERR);
	TEST_CHECK_EQ(irdma_ae_to_flush_code(IRDMA_AE_LLP_TOO_MANY_RETRIES, NULL),
		      IRDMA_FLUSH_RETRY_EXC_ERR);
	TEST_CHECK_EQ(irdma_ae_to_flush_code(IRDMA_AE_IB_INVALID_REQUEST, &kind),
		      IRDMA_FLUSH_REM_INV_REQ_ERR);
	TEST_CHECK_EQ(kind, IRDMA_AE_EVENT_REQ_ERR);
	TEST_CHECK_EQ(irdma_ae_to_flush_code(IRDMA_AE_LCE_QP_CATASTROPHIC, NULL),
		      IRDMA_FLUSH_FATAL_ERR);
	TEST_CHECK_EQ(irdma_ae_to_flush_code(0x0fff, &kind), IRDMA_FLUSH_GENERAL_ERR);
	TEST_CHECK_EQ(kind, IRDMA_AE_EVENT_CATASTROPHIC);
}

static void
test_example_sd_entry(void)
{
	/*
	 * Program SD 5 as PAGED with its PD page at 0x12345000 (hmc.c irdma_set_sd_entry):
	 * data = pa | 512 << 2 | 0 << 1 | 1 = 0x12345801; cmd = 5 | 1 << 15 | 1 << 31.
	 * Then a DIRECT SD 6 at 0x40000000: data = pa | 512 << 2 | 1 << 1 | 1 = 0x40000803.
	 * PD entry for page 0xabcde000: pa | 1.
	 */
	uint64_t data = IRDMA_PREP(SD_DATA_PFN, 0x12345000ull >> 12) |
			IRDMA_PREP(SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD) |
			IRDMA_PREP(SD_DATA_TYPE, IRDMA_SD_HW_TYPE_PAGED) |
			IRDMA_PREP(SD_DATA_VALID, 1);
	uint64_t cmd = IRDMA_PREP(SD_CMD_INDEX, 5) | IRDMA_PREP(SD_CMD_PARTSEL, 1) |
		       IRDMA_PREP(SD_CMD_WRITE, 1);
	uint64_t data2 = IRDMA_PREP(SD_DATA_PFN, 0x40000000ull >> 12) |
			 IRDMA_PREP(SD_DATA_BPCOUNT, IRDMA_HMC_PD_PER_SD) |
			 IRDMA_PREP(SD_DATA_TYPE, IRDMA_SD_HW_TYPE_DIRECT) |
			 IRDMA_PREP(SD_DATA_VALID, 1);
	struct irdma_cqp_wqe w;
	static const uint8_t exp_qw0_qw1[16] = {
		0x05, 0x80, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x58, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00,
	};

	TEST_CHECK(data == 0x12345801ull);
	TEST_CHECK(cmd == 0x80008005ull);
	TEST_CHECK(data2 == 0x40000803ull);
	TEST_CHECK((IRDMA_PREP(PD_PFN, 0xabcde000ull >> 12) | IRDMA_PREP(PD_VALID, 1)) ==
		   0xabcde001ull);
	memset(&w, 0, sizeof(w));
	irdma_set(&w, CQP_UPESD_E0_CMD, cmd);
	irdma_set(&w, CQP_UPESD_E0_DATA, data);
	check_bytes("UPDATE_PE_SDS entry 0", &w, exp_qw0_qw1, sizeof(exp_qw0_qw1));
	TEST_CHECK_EQ(irdma_hmc_sd_index(0x200000ull * 3 + 5), 3);
	TEST_CHECK_EQ(irdma_hmc_pd_index(0x200000ull * 3 + 4096 * 7), 3 * 512 + 7);
}

/* ---------------------------------------------------------------------------------------
 * Helpers against doc/hardware.md's tables.
 */
static void
test_helpers_wqe(void)
{
	/* §1.4 irdma_fragcnt_to_quanta_sq */
	static const uint32_t q[16] = { 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8 };

	for (uint32_t n = 0; n < 16; n++)
		TEST_CHECK_EQ(irdma_sq_frags_to_quanta(n), q[n]);
	TEST_CHECK_EQ(irdma_sq_frags_to_quanta(16), 0);
	/* fragment k at 0, then 32 + 16 (k - 1) */
	TEST_CHECK_EQ(irdma_frag_offset(0), 0);
	TEST_CHECK_EQ(irdma_frag_offset(1), 32);
	TEST_CHECK_EQ(irdma_frag_offset(2), 48);
	TEST_CHECK_EQ(irdma_frag_offset(3), 64);
	TEST_CHECK_EQ(irdma_frag_offset(14), 240);
	/* ADDFRAGCNT with the gen2 pad */
	TEST_CHECK_EQ(irdma_addfragcnt(0, true), 0);
	TEST_CHECK_EQ(irdma_addfragcnt(1, true), 0);
	TEST_CHECK_EQ(irdma_addfragcnt(2, true), 2);
	TEST_CHECK_EQ(irdma_addfragcnt(3, true), 2);
	TEST_CHECK_EQ(irdma_addfragcnt(13, true), 12);
	TEST_CHECK_EQ(irdma_addfragcnt(14, true), 14);
	/* §2 RQ WQE sizes */
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(1), 32);
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(3), 64);
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(4), 128);
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(8), 256);
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(14), 256);
	TEST_CHECK_EQ(irdma_rq_frags_to_wqe_size(15), 0);
	/* §1.6 inline quanta: <=8 1, <=39 2, <=70 3, <=101 4, <=132 5, <=163 6, <=194 7, 8 */
	TEST_CHECK_EQ(irdma_inline_to_quanta(0), 1);
	TEST_CHECK_EQ(irdma_inline_to_quanta(8), 1);
	TEST_CHECK_EQ(irdma_inline_to_quanta(9), 2);
	TEST_CHECK_EQ(irdma_inline_to_quanta(39), 2);
	TEST_CHECK_EQ(irdma_inline_to_quanta(40), 3);
	TEST_CHECK_EQ(irdma_inline_to_quanta(70), 3);
	TEST_CHECK_EQ(irdma_inline_to_quanta(101), 4);
	TEST_CHECK_EQ(irdma_inline_to_quanta(132), 5);
	TEST_CHECK_EQ(irdma_inline_to_quanta(163), 6);
	TEST_CHECK_EQ(irdma_inline_to_quanta(194), 7);
	TEST_CHECK_EQ(irdma_inline_to_quanta(195), 8);
	TEST_CHECK_EQ(irdma_inline_to_quanta(255), 8);
	TEST_CHECK_EQ(irdma_inline_byte_offset(0), 8);
	TEST_CHECK_EQ(irdma_inline_byte_offset(7), 15);
	TEST_CHECK_EQ(irdma_inline_byte_offset(8), 32);
	TEST_CHECK_EQ(irdma_inline_byte_offset(38), 62);
	TEST_CHECK_EQ(irdma_inline_byte_offset(39), 64);
	TEST_CHECK_EQ(irdma_inline_byte_offset(100), 64 + 32 + 30);
	/* §1.7 shifts */
	TEST_CHECK_EQ(irdma_wqe_shift(1, 8), 0);
	TEST_CHECK_EQ(irdma_wqe_shift(2, 0), 1);
	TEST_CHECK_EQ(irdma_wqe_shift(1, 9), 1);
	TEST_CHECK_EQ(irdma_wqe_shift(3, 39), 1);
	TEST_CHECK_EQ(irdma_wqe_shift(4, 0), 2);
	TEST_CHECK_EQ(irdma_wqe_shift(7, 101), 2);
	TEST_CHECK_EQ(irdma_wqe_shift(8, 0), 3);
	TEST_CHECK_EQ(irdma_wqe_shift(14, 0), 3);
	TEST_CHECK_EQ(irdma_wqe_shift(1, 102), 3);
	/* §1.7 / §8 depths: 4063 WRs of 8 quanta fill the 32768-quantum ring */
	TEST_CHECK_EQ(irdma_wq_depth(4063, 3, IRDMA_SQ_RSVD), 32768);
	TEST_CHECK_EQ((32768 - IRDMA_SQ_RSVD) >> 3, 4063);
	TEST_CHECK_EQ(irdma_wq_depth(1, 0, IRDMA_SQ_RSVD), 512);
	TEST_CHECK_EQ(irdma_wq_depth(1, 0, IRDMA_RQ_RSVD), 8);
	TEST_CHECK_EQ(irdma_wq_depth(1, 2, IRDMA_RQ_RSVD), 32);
	TEST_CHECK_EQ(irdma_wq_depth(100, 1, IRDMA_RQ_RSVD), 256);
	/* §5.1 encoded QP WQ sizes: log2(quanta) - 2 */
	TEST_CHECK_EQ(irdma_encode_wq_size(8), 1);
	TEST_CHECK_EQ(irdma_encode_wq_size(256), 6);
	TEST_CHECK_EQ(irdma_encode_wq_size(32768), 13);
	/* SRQ sizes 8 .. 262144 quanta in 4 bits (irdma_encode_srq_size, an inference) */
	TEST_CHECK_EQ(irdma_encode_srq_size(8), 0);
	TEST_CHECK_EQ(irdma_encode_srq_size(64), 3);
	TEST_CHECK_EQ(irdma_encode_srq_size(262144), 15);
	/* §5.1 CQP SQSIZE = log2(size) - 1 */
	TEST_CHECK_EQ(irdma_cqp_encode_sq_size(4), 1);
	TEST_CHECK_EQ(irdma_cqp_encode_sq_size(2048), 10);
	/* §5.4 IRD: of round_up_pow2(2 ird): 4 -> 0, 8/16 -> 1, 32/64 -> 2, 128 -> 3, 256 -> 4 */
	TEST_CHECK_EQ(irdma_encode_ird_size(1), 0);
	TEST_CHECK_EQ(irdma_encode_ird_size(2), 0);
	TEST_CHECK_EQ(irdma_encode_ird_size(4), 1);
	TEST_CHECK_EQ(irdma_encode_ird_size(8), 1);
	TEST_CHECK_EQ(irdma_encode_ird_size(16), 2);
	TEST_CHECK_EQ(irdma_encode_ird_size(32), 2);
	TEST_CHECK_EQ(irdma_encode_ird_size(64), 3);
	TEST_CHECK_EQ(irdma_encode_ird_size(127), 4);
	/* gen3 (kernel irdma_sc_get_encoded_ird_size_gen_3): 4 -> 0, 8 -> 1, ... 4096 -> 10 */
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(0), 0);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(2), 0);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(3), 1);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(4), 1);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(16), 3);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(2048), 10);
	TEST_CHECK_EQ(irdma_encode_ird_size_gen3(60000), 10);
}

static void
test_helpers_cq_arm(void)
{
	/*
	 * §3: read qw4, seq++, keep SW_CQ_SELECT, ARM_NEXT_SE always 1, ARM_NEXT for "any".
	 * From select 5, seq 3: seq wraps to 0 -> 0x5 | 1 << 14 | 1 << 15 = 0xc005.
	 */
	struct irdma_cq_shadow sh;
	uint64_t w;

	memset(&sh, 0, sizeof(sh));
	irdma_set(&sh, CQ_ARM_SW_CQ_SELECT, 5);
	irdma_set(&sh, CQ_ARM_SEQ_NUM, 3);
	w = irdma_cq_arm_word(irdma_qw_load(&sh, CQ_ARM_NEXT), true);
	TEST_CHECK(w == 0xc005ull);
	w = irdma_cq_arm_word(w, false);
	TEST_CHECK(w == (0x5ull | 1ull << 15 | 1ull << 16));
	irdma_qw_store(&sh, CQ_ARM_NEXT, w);
	TEST_CHECK_EQ(((const uint8_t *)&sh)[32], 0x05);
	TEST_CHECK_EQ(((const uint8_t *)&sh)[33], 0x80);
	TEST_CHECK_EQ(((const uint8_t *)&sh)[34], 0x01);
}

static void
test_limits(void)
{
	struct irdma_uk_limits l;

	/* §8 */
	TEST_CHECK_EQ(irdma_uk_limits_init(&l, IRDMA_GEN_2), 0);
	TEST_CHECK_EQ(l.hw_rev, 2);
	TEST_CHECK_EQ(l.feature_flags, 0x3);
	TEST_CHECK_EQ(l.max_hw_wq_frags, 13);
	TEST_CHECK_EQ(l.max_hw_read_sges, 13);
	TEST_CHECK_EQ(l.max_hw_inline, 101);
	TEST_CHECK_EQ(l.max_hw_rq_quanta, 32768);
	TEST_CHECK_EQ(l.max_hw_wq_quanta, 32768);
	TEST_CHECK_EQ(l.max_hw_cq_size, 1048575);
	TEST_CHECK_EQ(l.max_hw_sq_chunk, 8);
	TEST_CHECK_EQ(l.min_hw_wq_size, 8);
	TEST_CHECK_EQ(l.max_hw_srq_quanta, 0);
	TEST_CHECK_EQ(irdma_uk_limits_init(&l, IRDMA_GEN_3), 0);
	TEST_CHECK_EQ(l.feature_flags & (1u << 7), 1u << 7);	/* SRQ */
	TEST_CHECK_EQ(l.feature_flags & (1u << 6), 1u << 6);	/* atomics */
	TEST_CHECK_EQ(l.feature_flags & (1u << 5), 1u << 5);	/* 64-byte CQE */
	TEST_CHECK_EQ(l.max_hw_srq_quanta, 262144);
	TEST_CHECK_EQ(irdma_uk_limits_init(&l, IRDMA_GEN_1), 0);
	TEST_CHECK_EQ(l.max_hw_wq_frags, 3);
	TEST_CHECK_EQ(l.max_hw_read_sges, 1);
	TEST_CHECK_EQ(l.max_hw_inline, 48);
	TEST_CHECK_EQ(irdma_uk_limits_init(&l, 9), -1);
	TEST_CHECK_EQ(IRDMA_MAX_QP_ID, 262143);
	TEST_CHECK_EQ(IRDMA_FIRST_USER_QP_ID, 3);
	TEST_CHECK_EQ(IRDMA_MAX_CQ_ID, 524287);
	TEST_CHECK_EQ(IRDMA_MAX_PDS, 262144);
	TEST_CHECK_EQ(IRDMA_MAX_CQ_SIZE, 1048575);
	TEST_CHECK_EQ(IRDMA_MAX_CQE_REPORTED, 1048574);
	TEST_CHECK_EQ(IRDMA_MAX_QP_WR, 4063);
	TEST_CHECK_EQ(IRDMA_MAX_IRD, 127);
	TEST_CHECK_EQ(IRDMA_MAX_ORD, 255);
	TEST_CHECK_EQ(IRDMA_MAX_CEQ_ID, 1023);
	TEST_CHECK_EQ(IRDMA_MAX_AEQ_ENTRIES, 524287);
	TEST_CHECK_EQ(IRDMA_MAX_CEQ_ENTRIES, 262143);
	TEST_CHECK_EQ(IRDMA_MAX_MSG_SIZE, 2147483647u);
	TEST_CHECK_EQ(IRDMA_MAX_SQ_PAYLOAD, 2145386496u);
	TEST_CHECK(IRDMA_MAX_MR_SIZE == 0x200000000000ull);
	TEST_CHECK_EQ(IRDMA_CQP_SQ_MIN, 4);
	TEST_CHECK_EQ(IRDMA_CQP_SQ_MAX, 2048);
	TEST_CHECK_EQ(IRDMA_MAX_STATS_INSTANCES, 128);
}

int
main(void)
{
	TEST_RUN(test_example_rdma_write_3sge);
	TEST_RUN(test_example_rdma_write_imm_pad);
	TEST_RUN(test_example_ud_send_pad);
	TEST_RUN(test_example_inline_send);
	TEST_RUN(test_example_cqp_create_qp);
	TEST_RUN(test_example_cqp_create_cq);
	TEST_RUN(test_example_cqe_decode);
	TEST_RUN(test_example_aeqe_decode);
	TEST_RUN(test_example_sd_entry);
	TEST_RUN(test_helpers_wqe);
	TEST_RUN(test_helpers_cq_arm);
	TEST_RUN(test_limits);
	return test_done();
}
