/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Independent check of base/ against doc/hardware.md.
 *
 * Every field row below gives the position as plain numbers transcribed from
 * doc/hardware.md (or, where it is silent, from the kernel file
 * named in the comment): (qword, high bit, low bit). The expected bytes are computed here
 * bit by bit from those numbers, never from the headers' masks or shifts. For each field:
 * all-ones and a distinctive value land exactly on those bits (little endian); get(set(x))
 * round-trips; setting the field over all-ones or a random background leaves every other
 * bit alone; the header's qword / shift / width agree; irdma_fits() knows the width.
 */

#include <stdint.h>
#include <string.h>

#include "irdma_base.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------
 * Bit helpers of the test (independent of the headers).
 */

/* Write the low @width bits of @val at bit @lo of qword @qw of @buf, little endian. */
static void
put_bits(uint8_t *buf, unsigned int qw, unsigned int lo, unsigned int width, uint64_t val)
{
	for (unsigned int i = 0; i < width; i++) {
		unsigned int pos = qw * 64 + lo + i;
		uint8_t bit = (uint8_t)(1u << (pos % 8));

		if ((val >> i) & 1)
			buf[pos / 8] |= bit;
		else
			buf[pos / 8] &= (uint8_t)~bit;
	}
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void
fill_random(uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)rng_next();
}

static int fields_checked;

static void
check_bytes(const char *name, int line, const void *got, const uint8_t *exp, size_t n)
{
	if (memcmp(got, exp, n) != 0) {
		const uint8_t *g = got;

		test_case_failures++;
		printf("#   line %d: field %s: bytes differ from doc/hardware.md\n", line, name);
		for (size_t i = 0; i < n; i++)
			if (g[i] != exp[i])
				printf("#     byte %zu: got 0x%02x expected 0x%02x\n", i, g[i], exp[i]);
	}
}

#define PATTERN UINT64_C(0xa5c396e15a3c69d2)

/*
 * Check field F of layout T at (QW, HI, LO) as transcribed from doc/hardware.md.
 */
#define FCHK(T, F, QW, HI, LO) \
	do { \
		struct irdma_##T b_; \
		uint8_t exp_[sizeof(struct irdma_##T)]; \
		const unsigned int w_ = (HI) - (LO) + 1; \
		const uint64_t max_ = w_ == 64 ? UINT64_MAX : (UINT64_C(1) << w_) - 1; \
		const uint64_t vals_[5] = { max_, PATTERN & max_, 1, max_ >> 1, \
					    (~PATTERN) & max_ }; \
		uint64_t pm_ = 0; \
		for (unsigned int i_ = 0; i_ < 5; i_++) { \
			/* zeroed buffer: only the field's bits */ \
			memset(&b_, 0, sizeof(b_)); \
			irdma_set(&b_, F, vals_[i_]); \
			memset(exp_, 0, sizeof(exp_)); \
			put_bits(exp_, QW, LO, w_, vals_[i_]); \
			check_bytes(#F, __LINE__, &b_, exp_, sizeof(b_)); \
			TEST_CHECK(irdma_get(&b_, F) == vals_[i_]); \
			/* all-ones background: neighbours stay ones */ \
			memset(&b_, 0xff, sizeof(b_)); \
			irdma_set(&b_, F, vals_[i_]); \
			memset(exp_, 0xff, sizeof(exp_)); \
			put_bits(exp_, QW, LO, w_, vals_[i_]); \
			check_bytes(#F, __LINE__, &b_, exp_, sizeof(b_)); \
			TEST_CHECK(irdma_get(&b_, F) == vals_[i_]); \
			/* random background */ \
			fill_random(exp_, sizeof(exp_)); \
			memcpy(&b_, exp_, sizeof(b_)); \
			irdma_set(&b_, F, vals_[i_]); \
			put_bits(exp_, QW, LO, w_, vals_[i_]); \
			check_bytes(#F, __LINE__, &b_, exp_, sizeof(b_)); \
			TEST_CHECK(irdma_get(&b_, F) == vals_[i_]); \
		} \
		/* CPU-order helpers and metadata */ \
		put_bits((uint8_t *)&pm_, 0, LO, w_, max_); \
		pm_ = rte_le_to_cpu_64(pm_); \
		TEST_CHECK(IRDMA_PREP(F, max_) == pm_); \
		TEST_CHECK(IRDMA_FIELD_MASK(F) == pm_); \
		TEST_CHECK(IRDMA_GET(F, UINT64_MAX) == max_); \
		TEST_CHECK(IRDMA_FIELD_QW(F) == (QW)); \
		TEST_CHECK(IRDMA_FIELD_SHIFT(F) == (LO)); \
		TEST_CHECK(IRDMA_FIELD_BITS(F) == w_); \
		TEST_CHECK(IRDMA_FIELD_MAX(F) == max_); \
		TEST_CHECK(irdma_fits(F, max_)); \
		if (w_ < 64) \
			TEST_CHECK(!irdma_fits(F, max_ + 1)); \
		fields_checked++; \
	} while (0)

/* A one-bit field. */
#define BCHK(T, F, QW, BIT) FCHK(T, F, QW, BIT, BIT)

/* ---------------------------------------------------------------------------------------
 * SQ / RQ WQE (doc/hardware.md §1.2, §1.4, §1.5, §2).
 */
static void
test_sq_wqe_fields(void)
{
	/* header = qword 3 of quantum 0, §1.2 */
	FCHK(wqe, SQ_REMSTAG, 3, 31, 0);
	FCHK(wqe, SQ_INV_STAG, 3, 31, 0);
	FCHK(wqe, SQ_AHID, 3, 16, 0);		/* "16:0 (old defs)" */
	FCHK(wqe, SQ_AHID_GEN3, 3, 24, 0);	/* "24:0 (new)" */
	FCHK(wqe, SQ_FR_STAGKEY, 3, 7, 0);
	FCHK(wqe, SQ_FR_STAGINDEX, 3, 31, 8);
	FCHK(wqe, SQ_OPCODE, 3, 37, 32);
	FCHK(wqe, SQ_ADDFRAGCNT, 3, 41, 38);
	BCHK(wqe, SQ_FR_COPY_HOST_PBL, 3, 43);
	FCHK(wqe, SQ_UD_L4LEN, 3, 45, 42);
	FCHK(wqe, SQ_FR_LPBLSIZE, 3, 45, 44);
	BCHK(wqe, SQ_REPORTRTT, 3, 46);
	FCHK(wqe, SQ_FR_HPAGESIZE, 3, 47, 46);
	BCHK(wqe, SQ_IMMDATAFLAG, 3, 47);
	FCHK(wqe, SQ_STAGRIGHTS, 3, 52, 48);
	BCHK(wqe, SQ_VABASEDTO, 3, 53);
	BCHK(wqe, SQ_MEMWINDOWTYPE, 3, 54);
	BCHK(wqe, SQ_REMOTE_ATOMICS_EN, 3, 55);
	FCHK(wqe, SQ_INLINEDATALEN, 3, 55, 48);
	BCHK(wqe, SQ_PUSHWQE, 3, 56);
	BCHK(wqe, SQ_INLINEDATAFLAG, 3, 57);
	BCHK(wqe, SQ_STREAMMODE, 3, 58);
	BCHK(wqe, SQ_WAITFORRCVPDU, 3, 59);
	BCHK(wqe, SQ_READFENCE, 3, 60);
	BCHK(wqe, SQ_LOCALFENCE, 3, 61);
	BCHK(wqe, SQ_UDPHEADER, 3, 61);
	BCHK(wqe, SQ_SIGCOMPL, 3, 62);
	BCHK(wqe, SQ_VALID, 3, 63);
	/* per-op payload, §1.5 */
	FCHK(wqe, SQ_IMMDATA, 0, 31, 0);	/* "imm data (low 32 bits)" */
	FCHK(wqe, SQ_REMOTE_TO, 2, 63, 0);
	FCHK(wqe, SQ_UD_DESTQKEY, 2, 31, 0);
	FCHK(wqe, SQ_UD_DESTQPN, 2, 55, 32);
	FCHK(wqe, SQ_LINV_STAG, 1, 31, 0);
	FCHK(wqe, SQ_FR_VA_FBO, 0, 63, 0);
	FCHK(wqe, SQ_FR_PBL_PFN, 1, 63, 12);
	FCHK(wqe, SQ_FR_FIRST_PBLIDX_HI, 1, 11, 0);
	FCHK(wqe, SQ_FR_STAGLEN, 2, 40, 0);
	FCHK(wqe, SQ_FR_FIRST_PBLIDX_LO, 2, 63, 48);
	FCHK(wqe, SQ_BIND_VA, 0, 63, 0);
	FCHK(wqe, SQ_BIND_PARENT_STAG, 1, 63, 32);
	FCHK(wqe, SQ_BIND_MW_STAG, 1, 31, 0);
	FCHK(wqe, SQ_BIND_PARENT_STAG_GEN1, 1, 31, 0);
	FCHK(wqe, SQ_BIND_MW_STAG_GEN1, 1, 63, 32);
	FCHK(wqe, SQ_BIND_LEN, 2, 63, 0);
	FCHK(wqe, SQ_ATOM_LOCAL_TO, 0, 63, 0);
	FCHK(wqe, SQ_ATOM_LOCAL_STAG, 1, 31, 0);
	FCHK(wqe, SQ_ATOM_REMOTE_TO, 2, 63, 0);
	FCHK(wqe, SQ_ATOM_SWAP_ADD, 4, 63, 0);
	FCHK(wqe, SQ_ATOM_COMPARE, 5, 63, 0);
	BCHK(wqe, SQ_ATOM_Q1_VALID, 7, 63);
	/* RQ / SRQ, §2 */
	FCHK(wqe, RQ_ADDFRAGCNT, 3, 41, 38);
	BCHK(wqe, RQ_VALID, 3, 63);
	FCHK(wqe, SRQ_WRID, 2, 63, 0);
	/* every quantum's valid bit, §1.1 */
	BCHK(quantum, QUANTUM_VALID, 3, 63);
	/* fragments, §1.4 */
	FCHK(wqe_frag, FRAG_ADDR, 0, 63, 0);
	FCHK(wqe_frag, FRAG_STAG, 1, 31, 0);
	FCHK(wqe_frag, FRAG_LEN, 1, 62, 32);
	BCHK(wqe_frag, FRAG_VALID, 1, 63);
	FCHK(wqe_frag, FRAG_GEN1_LEN, 1, 31, 0);
	FCHK(wqe_frag, FRAG_GEN1_STAG, 1, 63, 32);
}

/* ---------------------------------------------------------------------------------------
 * CQE (doc/hardware.md §3, §5.5).
 */
static void
test_cqe_fields(void)
{
	FCHK(cqe, CQE_PAYLDLEN, 0, 31, 0);
	FCHK(cqe, CQE_TCPSEQNUMRTT, 0, 63, 32);
	FCHK(cqe, CQE_COMP_CTX, 1, 63, 0);
	FCHK(cqe, CQE_INVSTAG, 2, 31, 0);
	FCHK(cqe, CQE_UD_SRCQPN, 2, 31, 0);
	FCHK(cqe, CQE_QPID, 2, 55, 32);
	FCHK(cqe, CCQ_OPRETVAL, 2, 31, 0);
	FCHK(cqe, CCQ_DEFINFO, 2, 63, 32);
	FCHK(cqe, CQE_MINERR, 3, 15, 0);
	FCHK(cqe, CQE_MAJERR, 3, 31, 16);
	FCHK(cqe, CQE_WQEIDX, 3, 46, 32);
	BCHK(cqe, CQE_EXTCQE, 3, 50);
	BCHK(cqe, CQE_PSHDROP, 3, 51);
	BCHK(cqe, CQE_SRQ, 3, 52);
	BCHK(cqe, CQE_STAG, 3, 53);
	BCHK(cqe, CQE_IPV4, 3, 53);
	BCHK(cqe, CQE_SOEVENT, 3, 54);
	BCHK(cqe, CQE_ERROR, 3, 55);
	FCHK(cqe, CQE_OP, 3, 61, 56);
	BCHK(cqe, CQE_SQ, 3, 62);
	BCHK(cqe, CQE_VALID, 3, 63);
	/* extension: ext qw4 / qw6 / qw7 = slot-2 qwords 0 / 2 / 3 */
	FCHK(cqe_ext, CQE_EXT_IMMDATA, 0, 31, 0);
	FCHK(cqe_ext, CQE_EXT_IMMDATA_HI, 0, 63, 32);	/* kernel defs.h IMMDATAUP32 */
	FCHK(cqe_ext, CQE_EXT_UDSMAC, 2, 47, 0);
	FCHK(cqe_ext, CQE_EXT_UDVLAN, 2, 63, 48);
	BCHK(cqe_ext, CQE_EXT_UDVLANVALID, 3, 60);
	BCHK(cqe_ext, CQE_EXT_UDSMACVALID, 3, 61);
	BCHK(cqe_ext, CQE_EXT_IMMVALID, 3, 62);
	BCHK(cqe_ext, CQE_EXT_VALID, 3, 63);
	FCHK(cqe_ext, CQE_EXT_SRQ_QP_CTX, 1, 63, 0);	/* byte 40 (rdma-core uk.c) */
}

/* ---------------------------------------------------------------------------------------
 * CEQE / AEQE (doc/hardware.md §5.5).
 */
static void
test_eq_fields(void)
{
	FCHK(ceqe, CEQE_CQCTX, 0, 62, 0);
	BCHK(ceqe, CEQE_VALID, 0, 63);
	FCHK(aeqe, AEQE_COMPCTX, 0, 63, 0);
	FCHK(aeqe, AEQE_QPCQID_LOW, 1, 17, 0);
	FCHK(aeqe, AEQE_WQDESCIDX, 1, 32, 18);
	BCHK(aeqe, AEQE_OVERFLOW, 1, 33);
	FCHK(aeqe, AEQE_AECODE, 1, 45, 34);
	BCHK(aeqe, AEQE_QPCQID_HI, 1, 46);
	FCHK(aeqe, AEQE_AESRC, 1, 53, 50);
	FCHK(aeqe, AEQE_IWSTATE, 1, 56, 54);
	FCHK(aeqe, AEQE_TCPSTATE, 1, 60, 57);
	FCHK(aeqe, AEQE_Q2DATA, 1, 62, 61);
	BCHK(aeqe, AEQE_VALID, 1, 63);
}

/* ---------------------------------------------------------------------------------------
 * CQP host context and CQP WQEs (doc/hardware.md §5.1, §5.3).
 */
static void
test_cqp_ctx_fields(void)
{
	BCHK(cqp_ctx, CQPHC_DISABLE_PFPDUS, 0, 1);
	BCHK(cqp_ctx, CQPHC_ROCEV2_RTO_POLICY, 0, 2);
	FCHK(cqp_ctx, CQPHC_PROTOCOL_USED, 0, 4, 3);
	FCHK(cqp_ctx, CQPHC_SQSIZE, 0, 11, 8);
	FCHK(cqp_ctx, CQPHC_SVER, 0, 31, 24);
	FCHK(cqp_ctx, CQPHC_CEQPERVF, 0, 39, 32);
	FCHK(cqp_ctx, CQPHC_SQ_PA, 1, 63, 0);
	FCHK(cqp_ctx, CQPHC_HMC_PROFILE, 2, 2, 0);
	FCHK(cqp_ctx, CQPHC_ENABLED_VFS, 2, 37, 32);
	FCHK(cqp_ctx, CQPHC_COMPL_CTX, 3, 63, 0);
	FCHK(cqp_ctx, CQPHC_HW_MINVER, 4, 15, 0);
	FCHK(cqp_ctx, CQPHC_HW_MAJVER, 4, 31, 16);
	FCHK(cqp_ctx, CQPHC_MIN_RATE, 4, 51, 48);
	FCHK(cqp_ctx, CQPHC_MIN_DEC_FACTOR, 4, 59, 56);
	FCHK(cqp_ctx, CQPHC_DCQCN_T, 6, 15, 0);
	FCHK(cqp_ctx, CQPHC_HAI_FACTOR, 6, 47, 32);
	FCHK(cqp_ctx, CQPHC_RAI_FACTOR, 6, 63, 48);
	FCHK(cqp_ctx, CQPHC_DCQCN_B, 7, 24, 0);
	FCHK(cqp_ctx, CQPHC_DCQCN_F, 7, 27, 25);
	BCHK(cqp_ctx, CQPHC_CC_CFG_VALID, 7, 31);
	FCHK(cqp_ctx, CQPHC_RREDUCE_MPERIOD, 7, 63, 32);
}

static void
test_cqp_wqe_fields(void)
{
	/* common */
	FCHK(cqp_wqe, CQP_OPCODE, 3, 37, 32);
	BCHK(cqp_wqe, CQP_WQEVALID, 3, 63);
	FCHK(cqp_wqe, CQP_LPBLSIZE, 3, 45, 44);
	BCHK(cqp_wqe, CQP_TPHEN, 3, 60);
	FCHK(cqp_wqe, CQP_TPHVAL, 7, 7, 0);
	FCHK(cqp_wqe, CQP_VSIIDX, 7, 17, 8);
	FCHK(cqp_wqe, CQP_VSIIDX_GEN3, 7, 23, 8);
	/* QP */
	FCHK(cqp_wqe, CQP_QP_NEWMSS, 1, 45, 32);
	FCHK(cqp_wqe, CQP_QP_TERMLEN, 1, 51, 48);
	FCHK(cqp_wqe, CQP_QP_CTX_PA, 2, 63, 0);
	FCHK(cqp_wqe, CQP_QP_SHADOW_PA, 5, 63, 0);
	FCHK(cqp_wqe, CQP_QP_ID, 3, 23, 0);
	BCHK(cqp_wqe, CQP_QP_ORDVALID, 3, 42);
	BCHK(cqp_wqe, CQP_QP_TOECTXVALID, 3, 43);
	BCHK(cqp_wqe, CQP_QP_CACHEDVARVALID, 3, 44);
	BCHK(cqp_wqe, CQP_QP_VQ, 3, 45);
	BCHK(cqp_wqe, CQP_QP_FORCELOOPBACK, 3, 46);
	BCHK(cqp_wqe, CQP_QP_CQNUMVALID, 3, 47);
	FCHK(cqp_wqe, CQP_QP_TYPE, 3, 50, 48);
	BCHK(cqp_wqe, CQP_QP_MACVALID, 3, 51);
	BCHK(cqp_wqe, CQP_QP_MSSCHANGE, 3, 52);
	BCHK(cqp_wqe, CQP_QP_IGNOREMWBOUND, 3, 54);
	BCHK(cqp_wqe, CQP_QP_REMOVEHASHENTRY, 3, 55);
	FCHK(cqp_wqe, CQP_QP_TERMACT, 3, 57, 56);
	BCHK(cqp_wqe, CQP_QP_RESETCON, 3, 58);
	BCHK(cqp_wqe, CQP_QP_ARPTABIDXVALID, 3, 59);
	FCHK(cqp_wqe, CQP_QP_NEXTIWSTATE, 3, 62, 60);
	/* CQ */
	FCHK(cqp_wqe, CQP_CQ_SIZE, 0, 20, 0);
	FCHK(cqp_wqe, CQP_CQ_CTX, 1, 62, 0);		/* kernel defs.h CQPSQ_CQ_CQCTX */
	FCHK(cqp_wqe, CQP_CQ_SHADOW_READ_THRESHOLD, 2, 17, 0);
	FCHK(cqp_wqe, CQP_CQ_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_CQ_SHADOW_PA, 5, 63, 0);
	FCHK(cqp_wqe, CQP_CQ_FIRST_PBLIDX, 6, 27, 0);
	FCHK(cqp_wqe, CQP_CQ_ID, 3, 18, 0);
	FCHK(cqp_wqe, CQP_CQ_ID_GEN1, 3, 15, 0);
	FCHK(cqp_wqe, CQP_CQ_CEQID, 3, 31, 22);
	FCHK(cqp_wqe, CQP_CQ_CEQID_GEN1, 3, 30, 24);
	BCHK(cqp_wqe, CQP_CQ_RESIZE, 3, 43);
	BCHK(cqp_wqe, CQP_CQ_CHKOVERFLOW, 3, 46);
	BCHK(cqp_wqe, CQP_CQ_VIRTMAP, 3, 47);
	BCHK(cqp_wqe, CQP_CQ_ENCEQEMASK, 3, 48);
	BCHK(cqp_wqe, CQP_CQ_CEQIDVALID, 3, 49);
	FCHK(cqp_wqe, CQP_CQ_ID_HIGH_GEN3, 3, 52, 50);
	FCHK(cqp_wqe, CQP_CQ_CEQID_HIGH_GEN3, 3, 59, 54);
	BCHK(cqp_wqe, CQP_CQ_AVOIDMEMCNFLCT, 3, 61);
	/* SRQ commands (gen3; defs.h IRDMA_CQPSQ_SRQ_* bit ranges, qwords inferred) */
	FCHK(cqp_wqe, CQP_SRQ_RQSIZE, 0, 3, 0);
	FCHK(cqp_wqe, CQP_SRQ_RQ_WQE_SIZE, 0, 5, 4);
	FCHK(cqp_wqe, CQP_SRQ_LIMIT, 0, 43, 32);
	FCHK(cqp_wqe, CQP_SRQ_CTX, 1, 63, 0);
	FCHK(cqp_wqe, CQP_SRQ_PD_ID, 2, 39, 16);
	FCHK(cqp_wqe, CQP_SRQ_ID, 3, 15, 0);
	FCHK(cqp_wqe, CQP_SRQ_LEAF_PBL_SIZE, 3, 45, 44);
	BCHK(cqp_wqe, CQP_SRQ_VIRTMAP, 3, 47);
	BCHK(cqp_wqe, CQP_SRQ_TPH_EN, 3, 60);
	BCHK(cqp_wqe, CQP_SRQ_ARM_LIMIT_EVENT, 3, 61);
	FCHK(cqp_wqe, CQP_SRQ_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_SRQ_SHADOW_PA, 5, 63, 0);
	FCHK(cqp_wqe, CQP_SRQ_FIRST_PBLIDX, 6, 27, 0);
	FCHK(cqp_wqe, CQP_SRQ_TPH_VALUE, 7, 7, 0);
	/* STag */
	FCHK(cqp_wqe, CQP_STAG_VA_FBO, 0, 63, 0);
	FCHK(cqp_wqe, CQP_STAG_LEN, 1, 45, 0);
	FCHK(cqp_wqe, CQP_STAG_PDID, 1, 63, 46);
	FCHK(cqp_wqe, CQP_STAG_PDID_GEN1, 1, 62, 48);
	FCHK(cqp_wqe, CQP_STAG_KEY, 2, 7, 0);
	FCHK(cqp_wqe, CQP_STAG_IDX, 2, 31, 8);
	FCHK(cqp_wqe, CQP_STAG_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_STAG_HMCFNIDX, 5, 5, 0);	/* kernel defs.h STAG_HMCFNIDX */
	FCHK(cqp_wqe, CQP_STAG_FIRST_PBLIDX, 6, 27, 0);
	BCHK(cqp_wqe, CQP_STAG_MWTYPE, 3, 42);
	BCHK(cqp_wqe, CQP_STAG_MR, 3, 43);
	FCHK(cqp_wqe, CQP_STAG_HPAGESIZE, 3, 47, 46);
	FCHK(cqp_wqe, CQP_STAG_ARIGHTS, 3, 52, 48);
	BCHK(cqp_wqe, CQP_STAG_REMACCENABLED, 3, 53);
	BCHK(cqp_wqe, CQP_STAG_MW1_BIND_DONT_VLDT_KEY, 3, 58);
	BCHK(cqp_wqe, CQP_STAG_VABASEDTO, 3, 59);
	BCHK(cqp_wqe, CQP_STAG_USEHMCFNIDX, 3, 60);
	BCHK(cqp_wqe, CQP_STAG_USEPFRID, 3, 61);
	BCHK(cqp_wqe, CQP_STAG_REMOTE_ATOMIC_EN, 3, 61);
	/* MANAGE_ARP (index width and REACHMAX width: kernel defs.h CQPSQ_MAT_*) */
	FCHK(cqp_wqe, CQP_ARP_REACHMAX, 1, 31, 0);
	FCHK(cqp_wqe, CQP_ARP_MAC, 2, 47, 0);
	FCHK(cqp_wqe, CQP_ARP_INDEX, 3, 11, 0);
	BCHK(cqp_wqe, CQP_ARP_ENTRYVALID, 3, 42);
	BCHK(cqp_wqe, CQP_ARP_PERMANENT, 3, 43);
	BCHK(cqp_wqe, CQP_ARP_QUERY, 3, 44);
	/* address handle: doc/hardware.md silent; kernel uda_d.h + uda.c */
	FCHK(cqp_wqe, CQP_AH_MAC, 0, 63, 16);
	FCHK(cqp_wqe, CQP_AH_VLANTAG, 1, 15, 0);
	FCHK(cqp_wqe, CQP_AH_TC, 1, 39, 32);
	FCHK(cqp_wqe, CQP_AH_PDINDEXLO, 1, 63, 48);
	FCHK(cqp_wqe, CQP_AH_FLOWLABEL, 2, 19, 0);
	FCHK(cqp_wqe, CQP_AH_PDINDEXHI, 2, 21, 20);
	FCHK(cqp_wqe, CQP_AH_HOPLIMIT, 2, 39, 32);
	FCHK(cqp_wqe, CQP_AH_ARPINDEX, 2, 63, 48);
	FCHK(cqp_wqe, CQP_AH_DEST_ADDR3, 4, 31, 0);
	FCHK(cqp_wqe, CQP_AH_DEST_ADDR2, 4, 63, 32);
	FCHK(cqp_wqe, CQP_AH_DEST_ADDR1, 5, 31, 0);
	FCHK(cqp_wqe, CQP_AH_DEST_ADDR0, 5, 63, 32);
	FCHK(cqp_wqe, CQP_AH_SRC_ADDR3, 6, 31, 0);
	FCHK(cqp_wqe, CQP_AH_SRC_ADDR2, 6, 63, 32);
	FCHK(cqp_wqe, CQP_AH_SRC_ADDR1, 7, 31, 0);
	FCHK(cqp_wqe, CQP_AH_SRC_ADDR0, 7, 63, 32);
	FCHK(cqp_wqe, CQP_AH_IDX, 3, 16, 0);
	BCHK(cqp_wqe, CQP_AH_IPV4VALID, 3, 59);
	BCHK(cqp_wqe, CQP_AH_INSERTVLANTAG, 3, 60);
	BCHK(cqp_wqe, CQP_AH_DOLOOPBACK, 3, 62);

	/* MANAGE_STATS / GATHER_STATS: doc/hardware.md silent; kernel defs.h IRDMA_CQPSQ_STATS_* */
	FCHK(cqp_wqe, CQP_STATS_HMC_FCN_INDEX, 5, 5, 0);
	FCHK(cqp_wqe, CQP_STATS_BUF_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_STATS_INST_INDEX, 3, 6, 0);
	BCHK(cqp_wqe, CQP_STATS_USE_HMC_FCN_INDEX, 3, 60);
	BCHK(cqp_wqe, CQP_STATS_USE_INST, 3, 61);
	BCHK(cqp_wqe, CQP_STATS_ALLOC_INST, 3, 62);
	/* FLUSH_WQES */
	FCHK(cqp_wqe, CQP_FLUSH_AECODE, 1, 15, 0);
	FCHK(cqp_wqe, CQP_FLUSH_AESOURCE, 1, 19, 16);
	FCHK(cqp_wqe, CQP_FLUSH_RQ_MINOR, 2, 15, 0);
	FCHK(cqp_wqe, CQP_FLUSH_RQ_MAJOR, 2, 31, 16);
	FCHK(cqp_wqe, CQP_FLUSH_SQ_MINOR, 2, 47, 32);
	FCHK(cqp_wqe, CQP_FLUSH_SQ_MAJOR, 2, 63, 48);
	FCHK(cqp_wqe, CQP_FLUSH_QP_ID, 3, 23, 0);
	BCHK(cqp_wqe, CQP_FLUSH_GENERATE_AE, 3, 59);
	BCHK(cqp_wqe, CQP_FLUSH_USERFLCODE, 3, 60);
	BCHK(cqp_wqe, CQP_FLUSH_SQ, 3, 61);
	BCHK(cqp_wqe, CQP_FLUSH_RQ, 3, 62);
	/* CEQ / AEQ (sizes' widths: kernel defs.h CEQ_CEQSIZE, AEQ_AEQECNT) */
	FCHK(cqp_wqe, CQP_CEQ_SIZE, 2, 21, 0);
	FCHK(cqp_wqe, CQP_CEQ_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_CEQ_FIRST_PBLIDX, 6, 27, 0);
	FCHK(cqp_wqe, CQP_CEQ_ID, 3, 9, 0);
	BCHK(cqp_wqe, CQP_CEQ_ITRNOEXPIRE, 3, 46);
	BCHK(cqp_wqe, CQP_CEQ_VMAP, 3, 47);
	FCHK(cqp_wqe, CQP_AEQ_SIZE, 2, 18, 0);
	FCHK(cqp_wqe, CQP_AEQ_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_AEQ_FIRST_PBLIDX, 6, 27, 0);
	BCHK(cqp_wqe, CQP_AEQ_VMAP, 3, 47);
	/* FPM (HMCFNID width: kernel defs.h CQPSQ_CFPM_HMCFNID) */
	FCHK(cqp_wqe, CQP_FPM_HMCFNID, 2, 5, 0);
	FCHK(cqp_wqe, CQP_FPM_BUF_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_FPM_BUFSIZE, 3, 31, 0);
	/* UPDATE_PE_SDS */
	FCHK(cqp_wqe, CQP_UPESD_E0_CMD, 0, 31, 0);
	FCHK(cqp_wqe, CQP_UPESD_E0_DATA, 1, 63, 0);
	FCHK(cqp_wqe, CQP_UPESD_HMCFNID, 2, 5, 0);
	FCHK(cqp_wqe, CQP_UPESD_SDBUF_PA, 2, 63, 7);
	FCHK(cqp_wqe, CQP_UPESD_E1_CMD, 4, 31, 0);
	BCHK(cqp_wqe, CQP_UPESD_E1_VALID, 4, 63);
	FCHK(cqp_wqe, CQP_UPESD_E1_DATA, 5, 63, 0);
	FCHK(cqp_wqe, CQP_UPESD_E2_CMD, 6, 31, 0);
	BCHK(cqp_wqe, CQP_UPESD_E2_VALID, 6, 63);
	FCHK(cqp_wqe, CQP_UPESD_E2_DATA, 7, 63, 0);
	FCHK(cqp_wqe, CQP_UPESD_ENTRY_COUNT, 3, 3, 0);
	/* push pages, features */
	FCHK(cqp_wqe, CQP_MPP_QS_HANDLE, 2, 9, 0);
	FCHK(cqp_wqe, CQP_MPP_PPIDX, 3, 9, 0);
	FCHK(cqp_wqe, CQP_MPP_PPIDX_GEN3, 3, 31, 0);
	FCHK(cqp_wqe, CQP_MPP_PPTYPE, 3, 61, 60);
	BCHK(cqp_wqe, CQP_MPP_FREE_PAGE, 3, 62);
	FCHK(cqp_wqe, CQP_FEAT_BUF_PA, 4, 63, 0);
	FCHK(cqp_wqe, CQP_FEAT_BUF_LEN, 3, 31, 0);
	FCHK(feature, FEATURE_INFO, 0, 47, 0);
	FCHK(feature, FEATURE_TYPE, 0, 63, 48);
	FCHK(feature, FEATURE_CNT, 0, 47, 32);
	FCHK(feature, FEATURE_FW_MINOR, 0, 15, 0);	/* kernel defs.h FW_VER_* */
	FCHK(feature, FEATURE_FW_MAJOR, 0, 31, 16);
}

/* ---------------------------------------------------------------------------------------
 * RoCE QP host context (doc/hardware.md §5.4; byte offsets / 8 = qword).
 */
static void
test_qp_ctx_fields(void)
{
	BCHK(qp_ctx, QPC_IPV4, 0, 3);
	BCHK(qp_ctx, QPC_INSERTVLANTAG, 0, 5);
	BCHK(qp_ctx, QPC_ISQP1, 0, 6);
	FCHK(qp_ctx, QPC_RQWQESIZE, 0, 9, 8);
	BCHK(qp_ctx, QPC_ECN_EN, 0, 14);		/* kernel defs.h IRDMAQPC_ECN_EN */
	BCHK(qp_ctx, QPC_ERR_RQ_IDX_VALID, 0, 19);
	FCHK(qp_ctx, QPC_PDIDXHI, 0, 21, 20);
	BCHK(qp_ctx, QPC_DC_TCP_EN, 0, 25);
	BCHK(qp_ctx, QPC_RCVTPHEN, 0, 28);
	BCHK(qp_ctx, QPC_XMITTPHEN, 0, 29);
	BCHK(qp_ctx, QPC_RQTPHEN, 0, 30);
	BCHK(qp_ctx, QPC_SQTPHEN, 0, 31);
	FCHK(qp_ctx, QPC_PPIDX, 0, 41, 32);
	BCHK(qp_ctx, QPC_PMENA, 0, 47);
	FCHK(qp_ctx, QPC_ROCE_TVER, 0, 63, 60);
	FCHK(qp_ctx, QPC_SQ_ADDR, 1, 63, 0);		/* byte 8 */
	FCHK(qp_ctx, QPC_RQ_ADDR, 2, 63, 0);		/* byte 16 */
	FCHK(qp_ctx, QPC_SRQ_ID, 2, 15, 0);		/* gen3, defs.h IRDMAQPC_SRQ_ID */
	BCHK(qp_ctx, QPC_USE_SRQ, 0, 10);		/* gen3, defs.h IRDMAQPC_USE_SRQ */
	FCHK(qp_ctx, QPC_TTL, 3, 7, 0);			/* byte 24 */
	FCHK(qp_ctx, QPC_RQSIZE, 3, 11, 8);
	FCHK(qp_ctx, QPC_SQSIZE, 3, 15, 12);
	FCHK(qp_ctx, QPC_TOS, 3, 31, 24);
	FCHK(qp_ctx, QPC_SRCPORTNUM, 3, 47, 32);
	FCHK(qp_ctx, QPC_DESTPORTNUM, 3, 63, 48);
	FCHK(qp_ctx, QPC_DESTIPADDR3, 4, 31, 0);	/* byte 32 */
	FCHK(qp_ctx, QPC_DESTIPADDR2, 4, 63, 32);
	FCHK(qp_ctx, QPC_DESTIPADDR1, 5, 31, 0);	/* byte 40 */
	FCHK(qp_ctx, QPC_DESTIPADDR0, 5, 63, 32);
	FCHK(qp_ctx, QPC_SNDMSS, 6, 29, 16);		/* byte 48 */
	FCHK(qp_ctx, QPC_VLANTAG, 6, 47, 32);
	FCHK(qp_ctx, QPC_ARPIDX, 6, 63, 48);
	FCHK(qp_ctx, QPC_FLOWLABEL, 7, 19, 0);		/* byte 56 */
	FCHK(qp_ctx, QPC_ACKCREDITS, 7, 24, 20);
	FCHK(qp_ctx, QPC_PKEY, 7, 47, 32);
	FCHK(qp_ctx, QPC_PDIDX, 7, 63, 48);
	FCHK(qp_ctx, QPC_DESTQP, 8, 23, 0);		/* byte 64 */
	FCHK(qp_ctx, QPC_QKEY, 8, 63, 32);
	FCHK(qp_ctx, QPC_PSNNXT, 10, 23, 0);		/* byte 80 */
	FCHK(qp_ctx, QPC_LSN, 10, 55, 32);
	FCHK(qp_ctx, QPC_EPSN, 11, 23, 0);		/* byte 88 */
	FCHK(qp_ctx, QPC_PSNMAX, 12, 23, 0);		/* byte 96 */
	FCHK(qp_ctx, QPC_PSNUNA, 12, 55, 32);
	FCHK(qp_ctx, QPC_CWNDROCE, 14, 55, 32);		/* byte 112 */
	FCHK(qp_ctx, QPC_ERR_RQ_IDX, 16, 45, 32);	/* byte 128 */
	FCHK(qp_ctx, QPC_REXMIT_THRESH, 16, 53, 48);
	FCHK(qp_ctx, QPC_RNRNAK_THRESH, 16, 56, 54);
	FCHK(qp_ctx, QPC_RTOMIN, 16, 63, 57);
	FCHK(qp_ctx, QPC_TXCQNUM, 17, 18, 0);		/* byte 136 */
	FCHK(qp_ctx, QPC_RXCQNUM, 17, 50, 32);
	FCHK(qp_ctx, QPC_TXCQNUM_GEN3, 17, 24, 0);
	FCHK(qp_ctx, QPC_RXCQNUM_GEN3, 17, 56, 32);
	FCHK(qp_ctx, QPC_STAT_INDEX, 18, 6, 0);		/* byte 144 */
	FCHK(qp_ctx, QPC_MACADDRESS, 19, 63, 16);	/* byte 152: "local MAC << 16" */
	FCHK(qp_ctx, QPC_ORDSIZE, 20, 7, 0);		/* byte 160 */
	FCHK(qp_ctx, QPC_IRDSIZE, 20, 18, 16);
	FCHK(qp_ctx, QPC_ORDSIZE_GEN3, 20, 10, 0);
	FCHK(qp_ctx, QPC_IRDSIZE_GEN3, 20, 17, 14);
	BCHK(qp_ctx, QPC_REMOTE_ATOMIC_EN, 20, 18);
	BCHK(qp_ctx, QPC_UDPRIVCQENABLE, 20, 19);
	BCHK(qp_ctx, QPC_WRRDRSPOK, 20, 20);
	BCHK(qp_ctx, QPC_RDOK, 20, 21);
	BCHK(qp_ctx, QPC_DCQCNENABLE, 20, 22);
	BCHK(qp_ctx, QPC_BINDEN, 20, 23);
	BCHK(qp_ctx, QPC_FASTREGEN, 20, 24);
	BCHK(qp_ctx, QPC_PRIVEN, 20, 25);
	BCHK(qp_ctx, QPC_USESTATSINSTANCE, 20, 26);
	BCHK(qp_ctx, QPC_TIMELYENABLE, 20, 27);
	BCHK(qp_ctx, QPC_FW_CC_ENABLE, 20, 28);
	BCHK(qp_ctx, QPC_RCVNOICRC, 20, 31);
	FCHK(qp_ctx, QPC_COMPL_CTX, 21, 63, 0);		/* byte 168 */
	FCHK(qp_ctx, QPC_SQTPHVAL, 22, 7, 0);		/* byte 176 */
	FCHK(qp_ctx, QPC_RQTPHVAL, 22, 15, 8);
	FCHK(qp_ctx, QPC_QSHANDLE, 22, 25, 16);
	FCHK(qp_ctx, QPC_LOCAL_IPADDR3, 23, 31, 0);	/* byte 184 */
	FCHK(qp_ctx, QPC_LOCAL_IPADDR2, 23, 63, 32);
	FCHK(qp_ctx, QPC_LOCAL_IPADDR1, 24, 31, 0);	/* byte 192 */
	FCHK(qp_ctx, QPC_LOCAL_IPADDR0, 24, 63, 32);
	FCHK(qp_ctx, QPC_THIGH, 25, 63, 52);		/* byte 200 */
	FCHK(qp_ctx, QPC_TLOW, 25, 39, 32);
	FCHK(qp_ctx, QPC_REMENDPOINTIDX, 26, 16, 0);	/* byte 208 */
}

/* ---------------------------------------------------------------------------------------
 * Shadow areas (§4.2, §3), HMC buffers and descriptors (§7; query offsets: ctrl.c).
 */
static void
test_shadow_hmc_fields(void)
{
	FCHK(qp_shadow, QP_SHADOW_HW_SQ_TAIL, 0, 14, 0);
	FCHK(cq_shadow, CQ_SHADOW_CQEIDX, 0, 19, 0);
	FCHK(cq_shadow, CQ_ARM_SW_CQ_SELECT, 4, 13, 0);
	BCHK(cq_shadow, CQ_ARM_NEXT, 4, 14);
	BCHK(cq_shadow, CQ_ARM_NEXT_SE, 4, 15);
	FCHK(cq_shadow, CQ_ARM_SEQ_NUM, 4, 17, 16);
	FCHK(srq_shadow, SRQ_SHADOW_HEAD, 0, 63, 0);

	/* query buffer: qw0 SD info, then QP at byte 8, CQ at 16 (ctrl.c) */
	FCHK(fpm_query, FPMQ_FIRST_PE_SD_INDEX, 0, 13, 0);
	FCHK(fpm_query, FPMQ_MAX_PE_SDS, 0, 45, 32);
	FCHK(fpm_query, FPMQ_QP_MAX, 1, 18, 0);
	FCHK(fpm_query, FPMQ_QP_SIZE_LOG2, 1, 63, 32);
	FCHK(fpm_query, FPMQ_CQ_MAX, 2, 19, 0);
	FCHK(fpm_query, FPMQ_CQ_SIZE_LOG2, 2, 63, 32);
	FCHK(fpm_query, FPMQ_HTE_MAX, 4, 31, 0);
	FCHK(fpm_query, FPMQ_HTE_SIZE_LOG2, 4, 63, 32);
	FCHK(fpm_query, FPMQ_ARP_MAX, 5, 31, 0);
	FCHK(fpm_query, FPMQ_ARP_SIZE_LOG2, 5, 63, 32);
	FCHK(fpm_query, FPMQ_MR_MAX, 6, 31, 0);
	FCHK(fpm_query, FPMQ_MR_SIZE_LOG2, 6, 63, 32);
	FCHK(fpm_query, FPMQ_XF_MAX, 7, 31, 0);
	FCHK(fpm_query, FPMQ_XF_SIZE_LOG2, 7, 63, 32);
	FCHK(fpm_query, FPMQ_XFFL_MAX, 8, 31, 0);
	FCHK(fpm_query, FPMQ_XF_BLOCK_SIZE, 8, 63, 32);
	FCHK(fpm_query, FPMQ_Q1_MAX, 9, 31, 0);
	FCHK(fpm_query, FPMQ_Q1_SIZE_LOG2, 9, 63, 32);
	FCHK(fpm_query, FPMQ_Q1FL_MAX, 10, 31, 0);
	FCHK(fpm_query, FPMQ_Q1_BLOCK_SIZE, 10, 63, 32);
	FCHK(fpm_query, FPMQ_TIMER_MAX, 11, 31, 0);
	FCHK(fpm_query, FPMQ_TIMER_SIZE_LOG2, 11, 63, 32);
	FCHK(fpm_query, FPMQ_FSIMC_MAX, 12, 31, 0);
	FCHK(fpm_query, FPMQ_FSIMC_SIZE_LOG2, 12, 63, 32);
	FCHK(fpm_query, FPMQ_FSIAV_MAX, 13, 31, 0);
	FCHK(fpm_query, FPMQ_FSIAV_SIZE_LOG2, 13, 63, 32);
	FCHK(fpm_query, FPMQ_PBLE_MAX, 14, 31, 0);
	FCHK(fpm_query, FPMQ_MAX_CEQS, 15, 9, 0);
	FCHK(fpm_query, FPMQ_HTMULTIPLIER, 15, 19, 16);
	FCHK(fpm_query, FPMQ_TIMERBUCKET, 15, 47, 32);
	FCHK(fpm_query, FPMQ_RRF_MAX, 16, 31, 0);
	FCHK(fpm_query, FPMQ_RRF_SIZE_LOG2, 16, 63, 32);
	FCHK(fpm_query, FPMQ_RRFFL_MAX, 17, 31, 0);
	FCHK(fpm_query, FPMQ_RRF_BLOCK_SIZE, 17, 63, 32);
	FCHK(fpm_query, FPMQ_HDR_MAX, 18, 31, 0);
	FCHK(fpm_query, FPMQ_HDR_SIZE_LOG2, 18, 63, 32);
	FCHK(fpm_query, FPMQ_MD_MAX, 19, 31, 0);
	FCHK(fpm_query, FPMQ_MD_SIZE_LOG2, 19, 63, 32);
	FCHK(fpm_query, FPMQ_OOISC_MAX, 20, 31, 0);
	FCHK(fpm_query, FPMQ_OOISC_SIZE_LOG2, 20, 63, 32);
	FCHK(fpm_query, FPMQ_OOISCFFL_MAX, 21, 31, 0);
	FCHK(fpm_query, FPMQ_OOISCF_BLOCK_SIZE, 21, 63, 32);
	/* commit buffer */
	FCHK(fpm_commit, FPMC_QP_CNT, 0, 18, 0);
	FCHK(fpm_commit, FPMC_QP_BASE, 0, 63, 32);
	FCHK(fpm_commit, FPMC_CQ_CNT, 1, 19, 0);
	FCHK(fpm_commit, FPMC_CQ_CNT_GEN1, 1, 17, 0);
	FCHK(fpm_commit, FPMC_CQ_BASE, 1, 63, 32);
	/* SD entry (hmc.c + irdma.h PFHMC_SD*), PD entry (hmc.c: pa | 1) */
	FCHK(sd_entry, SD_CMD_INDEX, 0, 12, 0);
	BCHK(sd_entry, SD_CMD_PARTSEL, 0, 15);
	BCHK(sd_entry, SD_CMD_WRITE, 0, 31);
	BCHK(sd_entry, SD_DATA_VALID, 1, 0);
	BCHK(sd_entry, SD_DATA_TYPE, 1, 1);
	FCHK(sd_entry, SD_DATA_BPCOUNT, 1, 11, 2);
	FCHK(sd_entry, SD_DATA_PFN, 1, 63, 12);
	BCHK(pd_entry, PD_VALID, 0, 0);
	FCHK(pd_entry, PD_PFN, 0, 63, 12);
}

/* ---------------------------------------------------------------------------------------
 * 32-bit register fields (§4.3).
 */
#define RCHK(R, HI, LO) \
	do { \
		const unsigned int w_ = (HI) - (LO) + 1; \
		const uint32_t max_ = w_ == 32 ? UINT32_MAX : (UINT32_C(1) << w_) - 1; \
		uint32_t m_ = 0; \
		for (unsigned int i_ = (LO); i_ <= (HI); i_++) \
			m_ |= UINT32_C(1) << i_; \
		TEST_CHECK(IRDMA_REG_PREP(R, max_) == m_); \
		TEST_CHECK(IRDMA_REG_MASK(R) == m_); \
		TEST_CHECK(IRDMA_REG_GET(R, UINT32_MAX) == max_); \
		TEST_CHECK(IRDMA_REG_GET(R, ~m_) == 0); \
		TEST_CHECK(IRDMA_REG_GET(R, IRDMA_REG_PREP(R, (uint32_t)PATTERN & max_)) == \
			   ((uint32_t)PATTERN & max_)); \
		fields_checked++; \
	} while (0)

static void
test_register_fields(void)
{
	RCHK(CQPTAIL_WQTAIL, 10, 0);
	RCHK(CQPTAIL_CQP_OP_ERR, 31, 31);
	RCHK(CCQPSTATUS_DONE, 0, 0);
	RCHK(CCQPSTATUS_ERR, 31, 31);
	RCHK(CQPERRCODES_MINOR, 15, 0);
	RCHK(CQPERRCODES_MAJOR, 31, 16);
	RCHK(WQEALLOC_QPID, 19, 0);		/* inferred: below WQE_DESC_INDEX */
	RCHK(WQEALLOC_WQE_DESC_INDEX, 31, 20);
	RCHK(LBARCTRL_PE_DB_SIZE, 5, 4);
	RCHK(DYN_CTL_INTENA, 0, 0);
	RCHK(DYN_CTL_CLEARPBA, 1, 1);
	RCHK(DYN_CTL_ITR_INDX, 4, 3);
	RCHK(DYN_CTL_INTERVAL, 16, 5);
	RCHK(QCTL_MSIX_INDX, 10, 0);
	RCHK(QCTL_ITR_INDX, 12, 11);
	RCHK(QCTL_CAUSE_ENA, 30, 30);
	RCHK(RATE_INTERVAL, 5, 0);
	RCHK(RATE_INTRL_ENA, 6, 6);
	RCHK(PDINV_PMSDIDX, 11, 0);
	RCHK(PDINV_PMSDPARTSEL, 15, 15);
	RCHK(PDINV_PMPDIDX, 24, 16);
}

/*
 * The PF outside the engine (base/irdma_pf.h): AdminQ descriptor, capability element and link
 * status layouts at the byte offsets of Linux's ice_adminq_cmd.h (struct ice_aq_desc and the
 * command structs; desc byte N = qword N / 8, bit 8 * (N % 8)), register fields and offsets
 * of ice_hw_autogen.h.
 */
static void
test_pf_fields(void)
{
	FCHK(aq_desc, AQ_FLAGS, 0, 15, 0);		/* @0 le16 flags */
	FCHK(aq_desc, AQ_OPCODE, 0, 31, 16);		/* @2 le16 opcode */
	FCHK(aq_desc, AQ_DATALEN, 0, 47, 32);		/* @4 le16 datalen */
	FCHK(aq_desc, AQ_RETVAL, 0, 63, 48);		/* @6 le16 retval */
	FCHK(aq_desc, AQ_COOKIE_HIGH, 1, 31, 0);	/* @8 */
	FCHK(aq_desc, AQ_COOKIE_LOW, 1, 63, 32);	/* @12 */
	FCHK(aq_desc, AQ_PARAM0, 2, 31, 0);		/* @16 */
	FCHK(aq_desc, AQ_PARAM1, 2, 63, 32);		/* @20 */
	FCHK(aq_desc, AQ_ADDR_HIGH, 3, 31, 0);		/* @24 */
	FCHK(aq_desc, AQ_ADDR_LOW, 3, 63, 32);		/* @28 */
	FCHK(aq_desc, AQ_VER_ROM, 2, 31, 0);		/* ice_aqc_get_ver @16 rom_ver */
	FCHK(aq_desc, AQ_VER_FW_BUILD, 2, 63, 32);	/* @20 fw_build */
	FCHK(aq_desc, AQ_VER_FW_BRANCH, 3, 7, 0);	/* @24 */
	FCHK(aq_desc, AQ_VER_FW_MAJOR, 3, 15, 8);	/* @25 */
	FCHK(aq_desc, AQ_VER_FW_MINOR, 3, 23, 16);	/* @26 */
	FCHK(aq_desc, AQ_VER_FW_PATCH, 3, 31, 24);	/* @27 */
	FCHK(aq_desc, AQ_VER_API_BRANCH, 3, 39, 32);	/* @28 */
	FCHK(aq_desc, AQ_VER_API_MAJOR, 3, 47, 40);	/* @29 */
	FCHK(aq_desc, AQ_VER_API_MINOR, 3, 55, 48);	/* @30 */
	FCHK(aq_desc, AQ_VER_API_PATCH, 3, 63, 56);	/* @31 */
	BCHK(aq_desc, AQ_QSHUT_UNLOADING, 2, 0);	/* ice_aqc_q_shutdown @16 bit 0 */
	FCHK(aq_desc, AQ_CAPS_FLAGS, 2, 7, 0);		/* ice_aqc_list_caps @16 cmd_flags */
	FCHK(aq_desc, AQ_CAPS_PF_INDEX, 2, 15, 8);	/* @17 pf_index */
	FCHK(aq_desc, AQ_CAPS_COUNT, 2, 63, 32);	/* @20 count */
	FCHK(aq_desc, AQ_MAC_FLAGS, 2, 15, 0);		/* ice_aqc_manage_mac_read @16 flags */
	FCHK(aq_desc, AQ_MAC_NUM_ADDR, 2, 39, 32);	/* @20 num_addr */
	FCHK(aq_desc, AQ_LS_LPORT, 2, 7, 0);		/* ice_aqc_get_link_status @16 lport_num */
	FCHK(aq_desc, AQ_LS_LSE, 2, 17, 16);		/* @18 cmd_flags bits 1:0 */
	FCHK(aq_desc, AQ_EVM_LPORT, 2, 7, 0);		/* ice_aqc_set_event_mask @16 lport_num */
	FCHK(aq_desc, AQ_EVM_MASK, 3, 15, 0);		/* @24 event_mask */
	FCHK(aq_desc, AQ_PXE_RX_CNT, 2, 7, 0);		/* ice_aqc_clear_pxe @16 rx_cnt */
	FCHK(aq_cap_elem, AQ_CAP_ID, 0, 15, 0);		/* ice_aqc_list_caps_elem @0 cap */
	FCHK(aq_cap_elem, AQ_CAP_MAJOR, 0, 23, 16);	/* @2 major_ver */
	FCHK(aq_cap_elem, AQ_CAP_MINOR, 0, 31, 24);	/* @3 minor_ver */
	FCHK(aq_cap_elem, AQ_CAP_NUMBER, 0, 63, 32);	/* @4 number */
	FCHK(aq_cap_elem, AQ_CAP_LOGICAL_ID, 1, 31, 0);	/* @8 logical_id */
	FCHK(aq_cap_elem, AQ_CAP_PHYS_ID, 1, 63, 32);	/* @12 phys_id */
	FCHK(aq_link_status, AQ_LS_LINK_INFO, 0, 23, 16);	/* @2 link_info */
	BCHK(aq_link_status, AQ_LS_LINK_UP, 0, 16);	/* @2 bit 0 ICE_AQ_LINK_UP */
	FCHK(aq_link_status, AQ_LS_AN_INFO, 0, 31, 24);	/* @3 an_info */
	FCHK(aq_link_status, AQ_LS_MAX_FRAME, 0, 63, 48);	/* @6 max_frame_size */
	FCHK(aq_link_status, AQ_LS_SPEED, 1, 31, 16);	/* @10 link_speed */
	RCHK(AQLEN_LEN, 9, 0);
	RCHK(AQLEN_VFE, 28, 28);
	RCHK(AQLEN_OVFL, 29, 29);
	RCHK(AQLEN_CRIT, 30, 30);
	RCHK(AQLEN_ENABLE, 31, 31);
	RCHK(AQ_PTR, 9, 0);
	RCHK(PFGEN_CTRL_PFSWR, 0, 0);
	RCHK(PFGEN_STATE_PFPEEN, 0, 0);
	RCHK(PFGEN_STATE_PFLINKEN, 2, 2);
	RCHK(PF_FUNC_RID_FUNCTION, 2, 0);
	RCHK(PF_FUNC_RID_DEVICE, 7, 3);
	RCHK(PF_FUNC_RID_BUS, 15, 8);
	RCHK(GLGEN_RSTAT_DEVSTATE, 1, 0);
	RCHK(GLGEN_RSTAT_RESET_TYPE, 3, 2);
	RCHK(GLNVM_ULD_PE_DONE, 10, 10);
	RCHK(GL_MNG_FWSM_FW_MODES, 2, 0);
	RCHK(GL_MNG_FWSM_FW_LOADING, 30, 30);
	TEST_CHECK_EQ(IRDMA_PF_FW_ATQBAL, 0x00080000);
	TEST_CHECK_EQ(IRDMA_PF_FW_ATQBAH, 0x00080100);
	TEST_CHECK_EQ(IRDMA_PF_FW_ATQLEN, 0x00080200);
	TEST_CHECK_EQ(IRDMA_PF_FW_ATQH, 0x00080300);
	TEST_CHECK_EQ(IRDMA_PF_FW_ATQT, 0x00080400);
	TEST_CHECK_EQ(IRDMA_PF_FW_ARQBAL, 0x00080080);
	TEST_CHECK_EQ(IRDMA_PF_FW_ARQBAH, 0x00080180);
	TEST_CHECK_EQ(IRDMA_PF_FW_ARQLEN, 0x00080280);
	TEST_CHECK_EQ(IRDMA_PF_FW_ARQH, 0x00080380);
	TEST_CHECK_EQ(IRDMA_PF_FW_ARQT, 0x00080480);
	TEST_CHECK_EQ(IRDMA_PFGEN_STATE, 0x00088000);
	TEST_CHECK_EQ(IRDMA_PFGEN_CTRL, 0x00091000);
	TEST_CHECK_EQ(IRDMA_PF_FUNC_RID, 0x0009e880);
	TEST_CHECK_EQ(IRDMA_GLNVM_ULD, 0x000b6008);
	TEST_CHECK_EQ(IRDMA_GL_MNG_FWSM, 0x000b6134);
	TEST_CHECK_EQ(IRDMA_GLGEN_RSTAT, 0x000b8188);
	/* ICE_RESET_DONE_MASK: bits 0, 1, 3, 4, 5, 8, 9 */
	TEST_CHECK_EQ(IRDMA_GLNVM_ULD_RESET_DONE, 0x1u | 0x2u | 0x8u | 0x10u | 0x20u | 0x100u |
			  0x200u);
	TEST_CHECK_EQ(sizeof(struct irdma_aq_desc), 32);
	TEST_CHECK_EQ(sizeof(struct irdma_aq_cap_elem), 32);
	TEST_CHECK_EQ(sizeof(struct irdma_aq_link_status), IRDMA_AQ_LINK_STATUS_LEN);
}

static void
test_register_offsets(void)
{
	/* gen2 PF, doc/hardware.md §4.3 */
	TEST_CHECK_EQ(IRDMA_PFPE_CQPTAIL, 0x00500880);
	TEST_CHECK_EQ(IRDMA_PFPE_CQPDB, 0x00500800);
	TEST_CHECK_EQ(IRDMA_PFPE_CCQPSTATUS, 0x0050a000);
	TEST_CHECK_EQ(IRDMA_PFPE_CCQPHIGH, 0x0050a100);
	TEST_CHECK_EQ(IRDMA_PFPE_CCQPLOW, 0x0050a080);
	TEST_CHECK_EQ(IRDMA_PFPE_CQARM, 0x00502c00);
	TEST_CHECK_EQ(IRDMA_PFPE_CQACK, 0x00502c80);
	TEST_CHECK_EQ(IRDMA_PFPE_AEQALLOC, 0x00502d00);
	TEST_CHECK_EQ(IRDMA_PFPE_CQPERRCODES, 0x0050a200);
	TEST_CHECK_EQ(IRDMA_PFPE_WQEALLOC, 0x00504400);
	TEST_CHECK_EQ(IRDMA_GLINT_DYN_CTL(0), 0x00160000);
	TEST_CHECK_EQ(IRDMA_GLINT_DYN_CTL(5), 0x00160014);
	TEST_CHECK_EQ(IRDMA_GLINT_CEQCTL(0), 0x0015c000);
	TEST_CHECK_EQ(IRDMA_GLINT_CEQCTL(3), 0x0015c00c);
	TEST_CHECK_EQ(IRDMA_PFINT_AEQCTL, 0x0016cb00);
	TEST_CHECK_EQ(IRDMA_GLINT_RATE(0), 0x0015a000);
	TEST_CHECK_EQ(IRDMA_GLINT_RATE(2), 0x0015a008);
	TEST_CHECK_EQ(IRDMA_GLPCI_LBARCTRL, 0x0009de74);
	TEST_CHECK_EQ(IRDMA_GLPE_CPUSTATUS0, 0x0050ba5c);
	TEST_CHECK_EQ(IRDMA_GLPE_CPUSTATUS1, 0x0050ba60);
	TEST_CHECK_EQ(IRDMA_GLPE_CPUSTATUS2, 0x0050ba64);
	TEST_CHECK_EQ(IRDMA_VSIQF_PE_CTL1(0), 0x00414000);
	TEST_CHECK_EQ(IRDMA_VSIQF_PE_CTL1(7), 0x0041401c);
	TEST_CHECK_EQ(IRDMA_PFHMC_PDINV, 0x00520300);
	TEST_CHECK_EQ(IRDMA_GLHMC_VFPDINV(0), 0x00528300);
	TEST_CHECK_EQ(IRDMA_GLHMC_VFPDINV(1), 0x00528304);
	TEST_CHECK_EQ(IRDMA_GLPE_CRITERR, 0x00534000);
	TEST_CHECK_EQ(IRDMA_CPUSTATUS_READY, 0x80);
	TEST_CHECK_EQ(IRDMA_PE_DB_SIZE_4M, 1);
	TEST_CHECK_EQ(IRDMA_PE_DB_SIZE_8M, 2);
	/* doorbell page, §4.1, §10.9 */
	TEST_CHECK_EQ(IRDMA_DB_PAGE_OFFSET, 0x007f0000);
	TEST_CHECK_EQ(IRDMA_DB_PAGE_OFFSET, 8 * 1024 * 1024 - 64 * 1024);
	TEST_CHECK_EQ(IRDMA_VF_DB_PAGE_OFFSET, 64 * 1024);
	TEST_CHECK_EQ(IRDMA_GEN1_DB_PAGE_OFFSET, 4 * 1024 * 1024 - 64 * 1024);
	TEST_CHECK_EQ(IRDMA_DB_SQ_OFFSET, 0);
	TEST_CHECK_EQ(IRDMA_DB_CQ_OFFSET, 64);
	TEST_CHECK_EQ(IRDMA_PUSH_OFFSET, 8 * 1024 * 1024);
	TEST_CHECK_EQ(IRDMA_MAX_PUSH_PAGES, 1024);
	/* push page i: DB page + 4 KB + 60 KB + i * 4 KB; its DB page follows */
	TEST_CHECK_EQ(irdma_push_wqe_page_offset(0), 0x007f0000 + 4096 + 60 * 1024);
	TEST_CHECK_EQ(irdma_push_wqe_page_offset(0), 8 * 1024 * 1024); /* = IRDMA_PUSH_OFFSET */
	TEST_CHECK_EQ(irdma_push_wqe_page_offset(3), 0x007f0000 + 4096 + 60 * 1024 + 3 * 4096);
	TEST_CHECK_EQ(irdma_push_db_page_offset(3), 0x007f0000 + 4096 + 60 * 1024 + 4 * 4096);
	/* VF copies */
	TEST_CHECK_EQ(IRDMA_VFPE_CQPTAIL1, 0xa000);
	TEST_CHECK_EQ(IRDMA_VFPE_CQPDB1, 0xbc00);
	TEST_CHECK_EQ(IRDMA_VFPE_CCQPSTATUS1, 0xb800);
	TEST_CHECK_EQ(IRDMA_VFPE_CCQPHIGH1, 0x9800);
	TEST_CHECK_EQ(IRDMA_VFPE_CCQPLOW1, 0xac00);
	TEST_CHECK_EQ(IRDMA_VFPE_CQARM1, 0xb400);
	TEST_CHECK_EQ(IRDMA_VFPE_CQACK1, 0xb000);
	TEST_CHECK_EQ(IRDMA_VFPE_AEQALLOC1, 0xa400);
	TEST_CHECK_EQ(IRDMA_VFPE_CQPERRCODES1, 0x9c00);
	TEST_CHECK_EQ(IRDMA_VFPE_WQEALLOC1, 0xc000);
	TEST_CHECK_EQ(IRDMA_VFINT_DYN_CTLN(2), 0x3808);
	/* gen1 PF */
	TEST_CHECK_EQ(IRDMA_GEN1_CQPTAIL, 0x8080);
	TEST_CHECK_EQ(IRDMA_GEN1_CQPDB, 0x8000);
	TEST_CHECK_EQ(IRDMA_GEN1_CCQPSTATUS, 0x8100);
	TEST_CHECK_EQ(IRDMA_GEN1_CCQPHIGH, 0x8200);
	TEST_CHECK_EQ(IRDMA_GEN1_CCQPLOW, 0x8180);
	TEST_CHECK_EQ(IRDMA_GEN1_CQARM, 0x131080);
	TEST_CHECK_EQ(IRDMA_GEN1_CQACK, 0x131100);
	TEST_CHECK_EQ(IRDMA_GEN1_AEQALLOC, 0x131180);
	TEST_CHECK_EQ(IRDMA_GEN1_CQPERRCODES, 0x8880);
	TEST_CHECK_EQ(IRDMA_GEN1_WQEALLOC, 0x138c00);
	/* register-role order of enum irdma_registers */
	TEST_CHECK_EQ(IRDMA_REG_CQPTAIL, 0);
	TEST_CHECK_EQ(IRDMA_REG_WQEALLOC, 9);
	TEST_CHECK_EQ(IRDMA_REG_DB_ADDR_OFFSET, 11);
	TEST_CHECK_EQ(IRDMA_REG_PFHMC_ERRORDATA, 24);
	TEST_CHECK_EQ(IRDMA_REG_ROLE_MAX, 25);
}

/* ---------------------------------------------------------------------------------------
 * Structure sizes (§1.1, §3, §4.2, §5.1, §5.4, §5.5, §7).
 */
_Static_assert(sizeof(struct irdma_quantum) == 32, "quantum 32 B");
_Static_assert(sizeof(struct irdma_wqe) == 256, "largest WQE 256 B");
_Static_assert(sizeof(struct irdma_wqe_frag) == 16, "fragment 16 B");
_Static_assert(sizeof(struct irdma_cqe) == 32, "CQE 32 B");
_Static_assert(sizeof(struct irdma_cqe) + sizeof(struct irdma_cqe_ext) == 64, "ext CQE 64 B");
_Static_assert(sizeof(struct irdma_ceqe) == 8, "CEQE 8 B");
_Static_assert(sizeof(struct irdma_aeqe) == 16, "AEQE 16 B");
_Static_assert(sizeof(struct irdma_cqp_wqe) == 64, "CQP WQE 64 B");
_Static_assert(sizeof(struct irdma_cqp_ctx) == 64, "CQP host ctx 64 B");
_Static_assert(sizeof(struct irdma_qp_ctx) == 256, "QP ctx 256 B");
_Static_assert(sizeof(struct irdma_qp_shadow) == 64, "shadow 64 B");
_Static_assert(sizeof(struct irdma_cq_shadow) == 64, "shadow 64 B");
_Static_assert(sizeof(struct irdma_fpm_query) == 192, "FPM query buffer 192 B");
_Static_assert(sizeof(struct irdma_fpm_commit) == 192, "FPM commit buffer 192 B");
_Static_assert(sizeof(struct irdma_sd_entry) == 16, "SD entry 16 B");
_Static_assert(sizeof(struct irdma_pd_entry) == 8, "PD entry 8 B");

/* IRDMA_PREP of constants is a constant expression (usable in static initialisers). */
static const uint64_t const_hdr = IRDMA_PREP(SQ_OPCODE, 0x0c) | IRDMA_PREP(SQ_VALID, 1);
_Static_assert(IRDMA_PREP(SQ_OPCODE, 0x3f) == UINT64_C(0x0000003f00000000), "const PREP");

static void
test_sizes(void)
{
	TEST_CHECK_EQ(sizeof(struct irdma_quantum), 32);
	TEST_CHECK_EQ(IRDMA_QUANTUM_SIZE, 32);
	TEST_CHECK_EQ(IRDMA_WQE_MAX_QUANTA, 8);
	TEST_CHECK_EQ(IRDMA_WQE_MAX_SIZE, 256);
	TEST_CHECK_EQ(sizeof(struct irdma_cqe), 32);
	TEST_CHECK_EQ(IRDMA_CQE_SIZE, 32);
	TEST_CHECK_EQ(IRDMA_EXT_CQE_SIZE, 64);
	TEST_CHECK_EQ(IRDMA_CEQE_SIZE, 8);
	TEST_CHECK_EQ(IRDMA_AEQE_SIZE, 16);
	TEST_CHECK_EQ(sizeof(struct irdma_cqp_wqe), 64);
	TEST_CHECK_EQ(IRDMA_CQP_WQE_SIZE, 64);
	TEST_CHECK_EQ(IRDMA_CQP_CTX_SIZE, 64);
	TEST_CHECK_EQ(sizeof(struct irdma_qp_ctx), 256);
	TEST_CHECK_EQ(IRDMA_QP_CTX_SIZE, 256);
	TEST_CHECK_EQ(IRDMA_Q2_BUF_SIZE, 256);
	TEST_CHECK_EQ(IRDMA_SHADOW_AREA_SIZE, 64);
	TEST_CHECK_EQ(IRDMA_SHADOW_AREA_ALIGN, 128);
	TEST_CHECK_EQ(IRDMA_FPM_BUF_SIZE, 192);
	TEST_CHECK_EQ(sizeof(struct irdma_fpm_commit), 192);
	TEST_CHECK_EQ(IRDMA_CQP_SQ_ALIGN, 0x200);
	TEST_CHECK_EQ(IRDMA_UPESD_MAX_ENTRIES, 11);
	TEST_CHECK_EQ(IRDMA_UPESD_BUF_STRIDE, 128);
	TEST_CHECK_EQ(IRDMA_HMC_SD_SIZE, 0x200000);
	TEST_CHECK_EQ(IRDMA_HMC_PD_SIZE, 4096);
	TEST_CHECK_EQ(IRDMA_HMC_PD_PER_SD, 512);
	TEST_CHECK_EQ(IRDMA_HMC_MAX_SD, 8192);
	TEST_CHECK_EQ(IRDMA_PBLE_SIZE, 8);
	TEST_CHECK_EQ(IRDMA_PBLE_PER_SD, 262144);
	TEST_CHECK(const_hdr == UINT64_C(0x8000000c00000000));
}

/* ---------------------------------------------------------------------------------------
 * Misuse that must not compile (checked by meson at configure time, see meson.build).
 */
static void
test_misuse_rejected(void)
{
#if defined(IRDMA_MISUSE_TOTAL) && defined(IRDMA_MISUSE_REJECTED)
	printf("# misuse snippets rejected by the compiler: %d of %d\n", IRDMA_MISUSE_REJECTED,
	       IRDMA_MISUSE_TOTAL);
	TEST_CHECK(IRDMA_MISUSE_TOTAL > 0);
	TEST_CHECK_EQ(IRDMA_MISUSE_REJECTED, IRDMA_MISUSE_TOTAL);
#else
	TEST_CHECK(!"misuse results not passed by meson");
#endif
}

int
main(void)
{
	TEST_RUN(test_sq_wqe_fields);
	TEST_RUN(test_cqe_fields);
	TEST_RUN(test_eq_fields);
	TEST_RUN(test_cqp_ctx_fields);
	TEST_RUN(test_cqp_wqe_fields);
	TEST_RUN(test_qp_ctx_fields);
	TEST_RUN(test_shadow_hmc_fields);
	TEST_RUN(test_register_fields);
	TEST_RUN(test_register_offsets);
	TEST_RUN(test_pf_fields);
	TEST_RUN(test_sizes);
	TEST_RUN(test_misuse_rejected);
	printf("# %d fields checked against doc/hardware.md\n", fields_checked);
	return test_done();
}
