/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The device model's bring-up path, driven by the test-side mini driver: firmware ready,
 * CQP create (and refused contexts), register-polled commands, QUERY / COMMIT_FPM,
 * UPDATE_PE_SDS (direct and paged), HMC and PBLE resolution, the CCQ with completions
 * across ring wraps, CEQ0 and the AEQ (a CCQ overflow raises an AEQE), ordinary CQs at
 * level 0 and through PBLEs, fault injection, and every error path with its exact code.
 * One program, run once per variant (tests/common/test_variant.h): the INLINE or the THREAD
 * model; the checks are the same.
 * The cases run in order and share one device.
 */

#include <errno.h>
#include <string.h>

#include <rte_eal.h>

#include "test.h"
#include "test_model_drv.h"
#include "test_variant.h"


/* A small CQP so that wraps come quickly. */
#define T_SQ		16u
/* The CCQ is one larger than the CQP (IW_CCQ_SIZE = CQP + 1). */
#define T_CCQ		(T_SQ + 1)
/* SD budget of the test device: small enough to exceed with legal counts. */
#define T_MAX_SDS	64u
/* CPUSTATUS0 reads before firmware is ready. */
#define T_FW_READS	5u
/* Ordinary CQs used below. */
#define T_CQ_L0		5u
#define T_CQ_L1		6u
#define T_CQ_L2		7u
#define T_CQ_PAGES	3u
#define T_CQ_SIZE	(T_CQ_PAGES * IRDMA_HW_PAGE_SIZE / IRDMA_CQE_SIZE)
/* A recognisable CQ context. */
#define T_CQ_CTX	UINT64_C(0x123456789abc)

static struct tmd t;
static struct tm_mem sd_paged_pd, sd_paged_mem, sd_direct_mem;
static struct tm_mem ceq_mem, aeq_mem, cq_mem, cq_shadow;
static struct tm_mem cq_pages[T_CQ_PAGES];
static bool up;
/* Set when a buffer could not be allocated: later cases stop instead of faulting. */
static bool no_mem;

static void
expect_err(const struct tm_res *r, uint16_t major, uint16_t minor)
{
	TEST_CHECK_EQ(r->rc, 0);
	TEST_CHECK_EQ(r->major, major);
	TEST_CHECK_EQ(r->minor, minor);
}

static void
expect_ok(const struct tm_res *r)
{
	expect_err(r, 0, 0);
}

static void
nop(struct tm_res *r)
{
	struct irdma_cqp_wqe w;

	tm_wqe_op(&w, IRDMA_CQP_OP_NOP);
	tm_exec(&t, &w, r);
}

/*
 * T_SQ - 1 NOPs (a full SQ) behind one doorbell, the last one successful (@p r); @p w is
 * left a NOP WQE.
 */
static void
nop_batch(struct irdma_cqp_wqe *w, struct tm_res *r)
{
	unsigned int i;

	tm_wqe_op(w, IRDMA_CQP_OP_NOP);
	for (i = 0; i < T_SQ - 1; i++)
		tm_post(&t, w);
	tm_ring(&t);
	tm_wait_regs(&t, r);
	expect_ok(r);
}

static void
test_fw_and_registers(void)
{
	struct irdma_model_config cfg;
	struct irdma_model_stats st;

	irdma_model_config_default(&cfg);
	cfg.mode = test_variant_model_mode();
	cfg.max_pe_sds = T_MAX_SDS;
	cfg.fw_ready_reads = T_FW_READS;
	TEST_CHECK_EQ(tm_init(&t, &cfg), 0);
	TEST_CHECK(t.hw.bar0 == NULL);
	TEST_CHECK_EQ(t.hw.vendor_id, 0x8086);
	TEST_CHECK_EQ(t.hw.device_id, 0x1592);
	TEST_CHECK_EQ(t.hw.gen, 2);
	TEST_CHECK(strncmp(t.hw.name, "irdma_model", strlen("irdma_model")) == 0);
	/* Not ready at first, then all three words read 0x80. */
	TEST_CHECK_EQ(tm_rd(&t, IRDMA_GLPE_CPUSTATUS1), 0);
	TEST_CHECK_EQ(tm_wait_fw(&t), (int)T_FW_READS - 1);
	TEST_CHECK_EQ(IRDMA_REG_GET(LBARCTRL_PE_DB_SIZE, tm_rd(&t, IRDMA_GLPCI_LBARCTRL)), 2);
	/* Latched configuration registers read back; unknown offsets read 0. */
	tm_wr(&t, IRDMA_GLINT_CEQCTL(3), 0x40000003);
	TEST_CHECK_EQ(tm_rd(&t, IRDMA_GLINT_CEQCTL(3)), 0x40000003);
	TEST_CHECK_EQ(tm_rd(&t, 0x1000), 0);
	tm_wr(&t, 0x1000, 1);
	/* Accesses at or past the end of BAR0, or misaligned, are refused and counted. */
	tm_wr(&t, (uint32_t)t.hw.bar0_len, 0xdead);
	tm_wr(&t, (uint32_t)t.hw.bar0_len + 0x100000, 0xdead);
	TEST_CHECK_EQ(tm_rd(&t, (uint32_t)t.hw.bar0_len), 0);
	tm_wr(&t, IRDMA_PFPE_CQPDB + 1, 1);
	TEST_CHECK_EQ(irdma_model_stats_get(&t.hw, &st), 0);
	TEST_CHECK_EQ(st.reg_refused, 4);
	TEST_CHECK_EQ(st.reg_unknown_reads, 1);
	TEST_CHECK_EQ(st.reg_unknown_writes, 1);
	/* The DMA map table refuses overlaps and unknown unmaps. */
	TEST_CHECK_EQ(irdma_hw_dma_map(&t.hw, t.ctx.va, t.ctx.iova + 8, 8), -EEXIST);
	TEST_CHECK_EQ(irdma_hw_dma_unmap(&t.hw, t.ctx.va, t.ctx.iova, 8), -ENOENT);
}

static void
test_cqp_bad_ctx(void)
{
	struct irdma_cqp_ctx c;
	struct tm_mem stray;
	uint32_t st;

	TEST_CHECK_EQ(tm_mem_alloc(&t, &t.sq, T_SQ * IRDMA_CQP_WQE_SIZE, IRDMA_CQP_SQ_ALIGN), 0);
	/* SQ size encoding out of range. */
	tm_cqp_ctx_fill(&t, &c, T_SQ);
	irdma_set(&c, CQPHC_SQSIZE, 0);
	st = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	TEST_CHECK(!IRDMA_REG_GET(CCQPSTATUS_DONE, st));
	TEST_CHECK_EQ(tm_rd(&t, IRDMA_PFPE_CQPERRCODES),
		      IRDMA_REG_PREP(CQPERRCODES_MAJOR, IRDMA_CQP_MAJ_ERROR) |
		      IRDMA_REG_PREP(CQPERRCODES_MINOR, IRDMA_MODEL_MIN_BAD_SIZE));
	/* SQ base not 512-byte aligned. */
	tm_cqp_ctx_fill(&t, &c, T_SQ);
	irdma_set(&c, CQPHC_SQ_PA, t.sq.iova + IRDMA_CQP_WQE_SIZE);
	st = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	TEST_CHECK_EQ(IRDMA_REG_GET(CQPERRCODES_MINOR, tm_rd(&t, IRDMA_PFPE_CQPERRCODES)),
		      IRDMA_MODEL_MIN_BAD_ALIGN);
	/* SQ in memory that was never mapped. */
	TEST_CHECK_EQ(tm_mem_alloc_unmapped(&stray, IRDMA_HW_PAGE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	tm_cqp_ctx_fill(&t, &c, T_SQ);
	irdma_set(&c, CQPHC_SQ_PA, stray.iova);
	st = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	TEST_CHECK_EQ(IRDMA_REG_GET(CQPERRCODES_MINOR, tm_rd(&t, IRDMA_PFPE_CQPERRCODES)),
		      IRDMA_MODEL_MIN_DMA_FAULT);
	tm_mem_free(NULL, &stray);
	/* iWARP is not this engine's protocol; a gen1 major version is refused. */
	tm_cqp_ctx_fill(&t, &c, T_SQ);
	irdma_set(&c, CQPHC_PROTOCOL_USED, IRDMA_PROTOCOL_IWARP);
	st = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK_EQ(IRDMA_REG_GET(CQPERRCODES_MINOR, tm_rd(&t, IRDMA_PFPE_CQPERRCODES)),
		      IRDMA_MODEL_MIN_BAD_FIELD);
	tm_cqp_ctx_fill(&t, &c, T_SQ);
	irdma_set(&c, CQPHC_HW_MAJVER, IRDMA_CQPHC_HW_MAJVER_GEN1);
	st = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	/* A doorbell without a CQP is refused, not executed. */
	tm_wr(&t, IRDMA_PFPE_CQPDB, 1);
}

static void
test_cqp_create_and_nops(void)
{
	struct irdma_model_stats st;
	struct irdma_cqp_wqe w;
	struct irdma_cqp_ctx c;
	struct tm_res r;
	uint32_t i, s;

	tm_cqp_ctx_fill(&t, &c, T_SQ);
	s = tm_cqp_create_ctx(&t, &c, T_SQ);
	TEST_CHECK_EQ(s, IRDMA_REG_PREP(CCQPSTATUS_DONE, 1));
	nop(&r);
	expect_ok(&r);
	/* Undefined opcode, then a defined one the model does not run: both refused. */
	tm_wqe_op(&w, 0x3f);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_OPCODE);
	tm_wqe_op(&w, IRDMA_CQP_OP_CREATE_SRQ);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_OPCODE);
	tm_wqe_op(&w, IRDMA_CQP_OP_MANAGE_APBVT);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_NOT_MODELED);
	/* The CQP keeps running: many NOPs one by one across several wraps ... */
	for (i = 0; i < 3 * T_SQ + 1; i++) {
		nop(&r);
		expect_ok(&r);
	}
	/* ... and a full batch behind one doorbell. */
	nop_batch(&w, &r);
	/* A doorbell past the SQ is refused. */
	tm_wr(&t, IRDMA_PFPE_CQPDB, T_SQ);
	TEST_CHECK_EQ(irdma_model_stats_get(&t.hw, &st), 0);
	TEST_CHECK_EQ(st.cqp_doorbell_refused, 2);
	TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_NOP], 1 + 3 * T_SQ + 1 + T_SQ - 1);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_MANAGE_APBVT], 1);
	TEST_CHECK_EQ(st.cqp_creates, 1);
	TEST_CHECK_EQ(st.cqp_create_errors, 5);
}

static void
test_query_fpm(void)
{
	const struct irdma_fpm_query *q = &t.query;
	struct tm_res r;

	TEST_CHECK_EQ(tm_query_fpm(&t, &r), 0);
	expect_ok(&r);
	/* Independent expectations (doc/hardware.md §7, §8; kernel parse_fpm_query_buf). */
	TEST_CHECK_EQ(t.first_sd, 0);
	TEST_CHECK_EQ(t.max_sds, T_MAX_SDS);
	TEST_CHECK(t.max_ceqs >= 1 && t.max_ceqs <= IRDMA_MAX_CEQ_ID);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_QP].max >= IRDMA_DEFAULT_FPM_QP_COUNT);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_QP].max <= IRDMA_MAX_QP_ID + 1);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_CQ].max <= IRDMA_MAX_CQ_ID + 1);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_CQ].max >= 2 * IRDMA_DEFAULT_FPM_QP_COUNT);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_ARP].max <= IRDMA_FIELD_MAX(CQP_ARP_INDEX) + 1);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_FSIAV].max <= IRDMA_FIELD_MAX(CQP_AH_IDX) + 1);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_MR].max > 0 && t.obj[IRDMA_HMC_OBJ_PBLE].max > 0);
	/* Plain objects have a power-of-two size no larger than an SD. */
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_QP].size >= 256 &&
		   t.obj[IRDMA_HMC_OBJ_QP].size <= IRDMA_HMC_PD_SIZE);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_CQ].size >= 32);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_XF].size > 0 && t.obj[IRDMA_HMC_OBJ_Q1].size > 0);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_RRF].size > 0 && t.obj[IRDMA_HMC_OBJ_HDR].size > 0);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_MD].size > 0 && t.obj[IRDMA_HMC_OBJ_OOISC].size > 0);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_TIMER].size > 0 && t.obj[IRDMA_HMC_OBJ_HTE].size > 0);
	/* Free lists: the kernel refuses a zero block size. */
	TEST_CHECK(irdma_get(q, FPMQ_XF_BLOCK_SIZE) > 0);
	TEST_CHECK(irdma_get(q, FPMQ_Q1_BLOCK_SIZE) > 0);
	TEST_CHECK(irdma_get(q, FPMQ_RRF_BLOCK_SIZE) > 0);
	TEST_CHECK(irdma_get(q, FPMQ_OOISCF_BLOCK_SIZE) > 0);
	TEST_CHECK(irdma_get(q, FPMQ_HTMULTIPLIER) > 0);
	TEST_CHECK(irdma_get(q, FPMQ_TIMERBUCKET) > 0);
	/* Qword 3 (the reserved object) is not written. */
	TEST_CHECK_EQ(irdma_qw_get(&q->qw[3]), 0);
}

/* A small sizing policy after the kernel's (doc/hardware.md §7). */
static void
policy(uint32_t cnt[IRDMA_HMC_OBJ_MAX])
{
	const struct irdma_fpm_query *q = &t.query;
	uint32_t qp = 1024;

	memset(cnt, 0, sizeof(uint32_t) * IRDMA_HMC_OBJ_MAX);
	cnt[IRDMA_HMC_OBJ_QP] = qp;
	cnt[IRDMA_HMC_OBJ_CQ] = 2 * qp;
	cnt[IRDMA_HMC_OBJ_HTE] = irdma_roundup_pow2_u32(RTE_ALIGN_CEIL(qp, 512)) *
				 irdma_get(q, FPMQ_HTMULTIPLIER);
	cnt[IRDMA_HMC_OBJ_ARP] = 512;
	cnt[IRDMA_HMC_OBJ_APBVT] = 1;
	cnt[IRDMA_HMC_OBJ_MR] = 2048;
	cnt[IRDMA_HMC_OBJ_XF] = qp;
	cnt[IRDMA_HMC_OBJ_XFFL] = qp / irdma_get(q, FPMQ_XF_BLOCK_SIZE);
	cnt[IRDMA_HMC_OBJ_Q1] = qp;
	cnt[IRDMA_HMC_OBJ_Q1FL] = qp / irdma_get(q, FPMQ_Q1_BLOCK_SIZE);
	cnt[IRDMA_HMC_OBJ_TIMER] = (RTE_ALIGN_CEIL(qp, 512) / 512 + 1) *
				   irdma_get(q, FPMQ_TIMERBUCKET);
	cnt[IRDMA_HMC_OBJ_FSIAV] = 1024;
	/* One and a half SDs of PBLEs: the layout spans three SDs. */
	cnt[IRDMA_HMC_OBJ_PBLE] = IRDMA_PBLE_PER_SD + IRDMA_PBLE_PER_SD / 2;
	cnt[IRDMA_HMC_OBJ_RRF] = qp;
	cnt[IRDMA_HMC_OBJ_RRFFL] = qp / irdma_get(q, FPMQ_RRF_BLOCK_SIZE);
	cnt[IRDMA_HMC_OBJ_HDR] = qp;
	cnt[IRDMA_HMC_OBJ_MD] = qp;
	cnt[IRDMA_HMC_OBJ_OOISC] = qp;
	cnt[IRDMA_HMC_OBJ_OOISCFFL] = qp / irdma_get(q, FPMQ_OOISCF_BLOCK_SIZE);
}

static void
test_commit_fpm(void)
{
	uint32_t cnt[IRDMA_HMC_OBJ_MAX];
	struct irdma_cqp_wqe w;
	struct tm_mem stray;
	struct tm_res r;
	uint64_t end = 0;
	unsigned int i;

	/* A count above its maximum. */
	policy(cnt);
	cnt[IRDMA_HMC_OBJ_ARP] = t.obj[IRDMA_HMC_OBJ_ARP].max + 1;
	TEST_CHECK(tm_commit_fpm(&t, cnt, &r) != 0);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_FPM_EXCEEDS);
	/* Legal counts whose total exceeds the SD budget. */
	policy(cnt);
	cnt[IRDMA_HMC_OBJ_XF] = t.obj[IRDMA_HMC_OBJ_XF].max;
	TEST_CHECK(tm_commit_fpm(&t, cnt, &r) != 0);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_FPM_EXCEEDS);
	/* Wrong buffer size; buffer not mapped. */
	tm_wqe_op(&w, IRDMA_CQP_OP_COMMIT_FPM_VAL);
	irdma_set(&w, CQP_FPM_BUF_PA, t.fpmc.iova);
	irdma_set(&w, CQP_FPM_BUFSIZE, IRDMA_FPM_BUF_SIZE - 16);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_FIELD);
	TEST_CHECK_EQ(tm_mem_alloc_unmapped(&stray, IRDMA_FPM_BUF_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	irdma_set(&w, CQP_FPM_BUF_PA, stray.iova);
	irdma_set(&w, CQP_FPM_BUFSIZE, IRDMA_FPM_BUF_SIZE);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
	tm_mem_free(NULL, &stray);
	/* The policy commits; bases come back 512-byte units, in order, not overlapping. */
	policy(cnt);
	TEST_CHECK_EQ(tm_commit_fpm(&t, cnt, &r), 0);
	expect_ok(&r);
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		if (i == IRDMA_HMC_OBJ_RESERVED)
			continue;
		TEST_CHECK_EQ(t.obj[i].base % IRDMA_FPM_BASE_UNIT, 0);
		TEST_CHECK(t.obj[i].base >= end);
		end = t.obj[i].base + t.obj[i].cnt * t.obj[i].size;
	}
	TEST_CHECK(end <= (uint64_t)t.max_sds * IRDMA_HMC_SD_SIZE);
	/* The layout used below: CQs in SD 0, PBLEs running from SD 0 into SD 1. */
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_CQ].base + t.obj[IRDMA_HMC_OBJ_CQ].cnt *
		   t.obj[IRDMA_HMC_OBJ_CQ].size <= IRDMA_HMC_SD_SIZE);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_PBLE].base < IRDMA_HMC_SD_SIZE);
	TEST_CHECK(t.obj[IRDMA_HMC_OBJ_RRF].base >= 2 * IRDMA_HMC_SD_SIZE);
}

/* IOVA the test expects for FPM address @p fpm (SD 0 paged, SD 1 direct). */
static rte_iova_t
fpm_iova(uint64_t fpm)
{
	const struct tm_mem *m = fpm < IRDMA_HMC_SD_SIZE ? &sd_paged_mem : &sd_direct_mem;

	return tm_mem_iova(m, fpm % IRDMA_HMC_SD_SIZE);
}

static uint64_t *
pble_va(uint32_t idx)
{
	uint64_t fpm = t.obj[IRDMA_HMC_OBJ_PBLE].base + (uint64_t)idx * IRDMA_PBLE_SIZE;
	const struct tm_mem *m = fpm < IRDMA_HMC_SD_SIZE ? &sd_paged_mem : &sd_direct_mem;

	return (uint64_t *)(void *)(m->va + fpm % IRDMA_HMC_SD_SIZE);
}

static void
sds_wqe(struct irdma_cqp_wqe *w, const uint64_t cmd[], const uint64_t data[], uint32_t n,
	uint32_t slot)
{
	struct irdma_sd_entry *buf = (void *)(t.sdbuf.va + slot * IRDMA_UPESD_BUF_STRIDE);
	uint32_t i;

	tm_wqe_op(w, IRDMA_CQP_OP_UPDATE_PE_SDS);
	irdma_set(w, CQP_UPESD_E0_CMD, cmd[0]);
	irdma_set(w, CQP_UPESD_E0_DATA, data[0]);
	if (n > 1) {
		irdma_set(w, CQP_UPESD_E1_CMD, cmd[1]);
		irdma_set(w, CQP_UPESD_E1_DATA, data[1]);
		irdma_set(w, CQP_UPESD_E1_VALID, 1);
	}
	if (n > 2) {
		irdma_set(w, CQP_UPESD_E2_CMD, cmd[2]);
		irdma_set(w, CQP_UPESD_E2_DATA, data[2]);
		irdma_set(w, CQP_UPESD_E2_VALID, 1);
	}
	for (i = IRDMA_UPESD_WQE_ENTRIES; i < n; i++) {
		buf[i - IRDMA_UPESD_WQE_ENTRIES].qw[0] = rte_cpu_to_le_64(cmd[i]);
		buf[i - IRDMA_UPESD_WQE_ENTRIES].qw[1] = rte_cpu_to_le_64(data[i]);
	}
	if (n > IRDMA_UPESD_WQE_ENTRIES) {
		irdma_set(w, CQP_UPESD_ENTRY_COUNT, n - IRDMA_UPESD_WQE_ENTRIES);
		irdma_set(w, CQP_UPESD_SDBUF_PA, (t.sdbuf.iova + slot * IRDMA_UPESD_BUF_STRIDE) >>
					       IRDMA_FIELD_SHIFT(CQP_UPESD_SDBUF_PA));
	}
}

static void
test_sds_and_hmc(void)
{
	uint64_t cmd[4], data[4];
	struct irdma_cqp_wqe w;
	struct tm_mem stray;
	struct tm_res r;
	rte_iova_t iova;
	uint32_t i, pble_sd1;

	/* Direct SD: 2 MB aligned, one hugepage, IOVA-contiguous whatever the IOVA mode.
	 * Paged SD: 512 scattered 4 KB pages, each mapped on its own. */
	no_mem = tm_mem_alloc(&t, &sd_direct_mem, IRDMA_HMC_SD_SIZE, IRDMA_HMC_SD_SIZE) != 0 ||
		 tm_pages_alloc(&t, &sd_paged_mem, IRDMA_HMC_SD_SIZE) != 0 ||
		 tm_mem_alloc(&t, &t.sdbuf, T_SQ * IRDMA_UPESD_BUF_STRIDE,
			      IRDMA_UPESD_BUF_ALIGN) != 0 ||
		 tm_mem_alloc(&t, &sd_paged_pd, IRDMA_HMC_PD_SIZE, IRDMA_HMC_PD_SIZE) != 0;
	TEST_CHECK(!no_mem);
	if (no_mem)
		return;
	/* Nothing backs the HMC yet: the CQ context cannot be reached. */
	TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_CQ, 0, &iova),
		      IRDMA_MODEL_MIN_HMC_UNBACKED);
	/* SD index past the committed layout (3 SDs); PD page not mapped. */
	tm_sd_entry(3, sd_direct_mem.iova, true, true, &cmd[0], &data[0]);
	sds_wqe(&w, cmd, data, 1, t.head);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ID);
	TEST_CHECK_EQ(tm_mem_alloc_unmapped(&stray, IRDMA_HMC_PD_SIZE, IRDMA_HMC_PD_SIZE), 0);
	tm_sd_entry(0, stray.iova, true, false, &cmd[0], &data[0]);
	sds_wqe(&w, cmd, data, 1, t.head);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
	tm_mem_free(NULL, &stray);
	/* SD 0 paged (512 PD entries), SD 1 direct, SD 2 cleared twice (one in the SD buffer). */
	for (i = 0; i < IRDMA_HMC_PD_PER_SD; i++) {
		struct irdma_pd_entry *pd = (void *)(sd_paged_pd.va + i * sizeof(*pd));

		irdma_set(pd, PD_PFN, tm_mem_iova(&sd_paged_mem, (size_t)i * IRDMA_HMC_PD_SIZE) >>
				      IRDMA_HMC_PAGED_BP_SHIFT);
		irdma_set(pd, PD_VALID, 1);
	}
	tm_sd_entry(0, sd_paged_pd.iova, true, false, &cmd[0], &data[0]);
	tm_sd_entry(1, sd_direct_mem.iova, true, true, &cmd[1], &data[1]);
	tm_sd_entry(2, 0, false, false, &cmd[2], &data[2]);
	tm_sd_entry(2, 0, false, false, &cmd[3], &data[3]);
	sds_wqe(&w, cmd, data, 4, t.head);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	/* Resolution: paged SD 0 through its PD page, direct SD 1, SD 2 unbacked. */
	TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_CQ, 37, &iova), 0);
	TEST_CHECK_EQ(iova, fpm_iova(t.obj[IRDMA_HMC_OBJ_CQ].base +
				      37 * t.obj[IRDMA_HMC_OBJ_CQ].size));
	pble_sd1 = (uint32_t)((IRDMA_HMC_SD_SIZE - t.obj[IRDMA_HMC_OBJ_PBLE].base) /
			      IRDMA_PBLE_SIZE) + 100;
	TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_PBLE, pble_sd1, &iova), 0);
	TEST_CHECK_EQ(iova, sd_direct_mem.iova + (t.obj[IRDMA_HMC_OBJ_PBLE].base +
						  (uint64_t)pble_sd1 * IRDMA_PBLE_SIZE) %
						 IRDMA_HMC_SD_SIZE);
	TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_RRF, 0, &iova),
		      IRDMA_MODEL_MIN_HMC_UNBACKED);
	TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_CQ,
					     t.obj[IRDMA_HMC_OBJ_CQ].cnt, &iova),
		      IRDMA_MODEL_MIN_BAD_ID);
	/* An invalid PD entry unbacks exactly its page; PDINV is accepted. */
	{
		uint64_t fpm = t.obj[IRDMA_HMC_OBJ_CQ].base + 37 * t.obj[IRDMA_HMC_OBJ_CQ].size;
		struct irdma_pd_entry *pd = (void *)(sd_paged_pd.va +
						     irdma_hmc_pd_index(fpm) * sizeof(*pd));

		irdma_set(pd, PD_VALID, 0);
		tm_wr(&t, IRDMA_PFHMC_PDINV, IRDMA_REG_PREP(PDINV_PMSDPARTSEL, 1) |
					     IRDMA_REG_PREP(PDINV_PMPDIDX,
							    irdma_hmc_pd_index(fpm) %
							    IRDMA_HMC_PD_PER_SD));
		TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_CQ, 37, &iova),
			      IRDMA_MODEL_MIN_HMC_UNBACKED);
		irdma_set(pd, PD_VALID, 1);
		TEST_CHECK_EQ(irdma_model_hmc_lookup(&t.hw, IRDMA_HMC_OBJ_CQ, 37, &iova), 0);
	}
}

/* CREATE_CQ WQE for a level-0 ring. */
static void
cq_wqe(struct irdma_cqp_wqe *w, uint32_t id, uint32_t size, rte_iova_t pa, rte_iova_t shadow,
       uint64_t ctx)
{
	tm_wqe_op(w, IRDMA_CQP_OP_CREATE_CQ);
	irdma_set(w, CQP_CQ_ID, id);
	irdma_set(w, CQP_CQ_SIZE, size);
	irdma_set(w, CQP_CQ_PA, pa);
	irdma_set(w, CQP_CQ_SHADOW_PA, shadow);
	irdma_set(w, CQP_CQ_CTX, ctx);
}

static void
test_ccq(void)
{
	struct irdma_cqp_wqe w;
	struct tm_res r;
	uint32_t i, idx;

	TEST_CHECK(!no_mem);
	if (no_mem)
		return;

	TEST_CHECK_EQ(tm_mem_alloc(&t, &t.ccq, T_CCQ * IRDMA_CQE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	TEST_CHECK_EQ(tm_mem_alloc(&t, &t.ccq_shadow, IRDMA_SHADOW_AREA_SIZE,
				   IRDMA_SHADOW_AREA_ALIGN), 0);
	t.ccq_size = T_CCQ;
	t.ccq_head = 0;
	t.ccq_pol = IRDMA_CQ_POLARITY_INIT;
	/* The CCQ: CQ 0, overflow-checked, bound to CEQ 0 for events. Its own creation is
	 * the first CQE it receives (irdma_sc_ccq_create_done polls the CCQ). */
	cq_wqe(&w, IRDMA_CCQ_ID, T_CCQ, t.ccq.iova, t.ccq_shadow.iova, T_CQ_CTX);
	irdma_set(&w, CQP_CQ_CHKOVERFLOW, 1);
	irdma_set(&w, CQP_CQ_ENCEQEMASK, 1);
	irdma_set(&w, CQP_CQ_CEQIDVALID, 1);
	irdma_set(&w, CQP_CQ_CEQID, 0);
	idx = tm_post(&t, &w);
	tm_ring(&t);
	t.ccq_on = true;
	tm_wait_ccq(&t, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(r.idx, idx);
	TEST_CHECK(r.ctx == t.compl_ctx);
	/* Completions across several CCQ and CQP wraps: WQEIDX follows the slots. */
	for (i = 0; i < 3 * T_CCQ; i++) {
		idx = t.head;
		nop(&r);
		expect_ok(&r);
		TEST_CHECK_EQ(r.idx, idx);
		TEST_CHECK(r.ctx == t.compl_ctx);
	}
	/* A refused command completes on the CCQ with ERROR, MAJERR and MINERR. */
	tm_wqe_op(&w, 0x3e);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_OPCODE);
	TEST_CHECK_EQ(IRDMA_REG_GET(CQPTAIL_CQP_OP_ERR, tm_rd(&t, IRDMA_PFPE_CQPTAIL)), 0);
}

static void
test_ceq_aeq(void)
{
	const uint64_t *ceqe = NULL;
	const struct irdma_aeqe *ae;
	struct irdma_model_stats st;
	struct irdma_cqp_wqe w;
	struct tm_res r;
	uint64_t v, dl;
	uint32_t i;

	TEST_CHECK(!no_mem);
	if (no_mem)
		return;

	TEST_CHECK_EQ(tm_mem_alloc(&t, &ceq_mem, 64 * IRDMA_CEQE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	TEST_CHECK_EQ(tm_mem_alloc(&t, &aeq_mem, 64 * IRDMA_AEQE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	tm_wqe_op(&w, IRDMA_CQP_OP_CREATE_CEQ);
	irdma_set(&w, CQP_CEQ_ID, t.max_ceqs);
	irdma_set(&w, CQP_CEQ_SIZE, 64);
	irdma_set(&w, CQP_CEQ_PA, ceq_mem.iova);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ID);
	irdma_set(&w, CQP_CEQ_ID, 0);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_OBJ_EXISTS);
	tm_wqe_op(&w, IRDMA_CQP_OP_CREATE_AEQ);
	irdma_set(&w, CQP_AEQ_SIZE, 64);
	irdma_set(&w, CQP_AEQ_PA, aeq_mem.iova + 64);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ALIGN);
	irdma_set(&w, CQP_AEQ_PA, aeq_mem.iova);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	/* Arm the CCQ: its next CQE raises one CEQE with its CQ context, polarity 1. */
	tm_wr(&t, IRDMA_PFPE_CQARM, IRDMA_CCQ_ID);
	nop(&r);
	expect_ok(&r);
	for (i = 0, dl = tm_deadline(); tm_polling(&t.hw, i, dl); i++) {
		v = rte_le_to_cpu_64(__atomic_load_n((uint64_t *)(void *)ceq_mem.va,
						     __ATOMIC_ACQUIRE));
		if (IRDMA_GET(CEQE_VALID, v) == IRDMA_EQ_POLARITY_INIT) {
			ceqe = (const uint64_t *)(const void *)ceq_mem.va;
			break;
		}
		irdma_hw_service(&t.hw);
	}
	TEST_CHECK(ceqe != NULL);
	TEST_CHECK(IRDMA_GET(CEQE_CQCTX, v) == T_CQ_CTX);
	/* Unarmed: the next completion raises no event. */
	nop(&r);
	expect_ok(&r);
	TEST_CHECK_EQ(__atomic_load_n((uint64_t *)(void *)(ceq_mem.va + IRDMA_CEQE_SIZE),
				      __ATOMIC_ACQUIRE), 0);
	/* Overflow the CCQ: leave every CQE unconsumed. The CCQ holds T_CCQ - 1 of them;
	 * the CQE after that is refused and becomes an AEQE on CQ 0. */
	nop_batch(&w, &r);
	tm_post(&t, &w);
	tm_post(&t, &w);
	tm_ring(&t);
	tm_wait_regs(&t, &r);
	ae = (const struct irdma_aeqe *)(const void *)aeq_mem.va;
	v = rte_le_to_cpu_64(__atomic_load_n(&ae->qw[IRDMA_FIELD_QW(AEQE_VALID)],
					     __ATOMIC_ACQUIRE));
	TEST_CHECK_EQ(IRDMA_GET(AEQE_VALID, v), IRDMA_EQ_POLARITY_INIT);
	TEST_CHECK_EQ(IRDMA_GET(AEQE_AECODE, v), IRDMA_AE_CQ_OPERATION_ERROR);
	TEST_CHECK_EQ(IRDMA_GET(AEQE_AESRC, v), IRDMA_AE_SOURCE_CQ);
	TEST_CHECK_EQ(irdma_aeqe_qpcq_id(v), IRDMA_CCQ_ID);
	TEST_CHECK(irdma_get(ae, AEQE_COMPCTX) == T_CQ_CTX);
	tm_wr(&t, IRDMA_PFPE_AEQALLOC, 1);
	/* SW drains the CCQ (T_CCQ - 1 CQEs); the CQP keeps running. */
	for (i = 0; i < T_CCQ - 1; i++) {
		tm_wait_ccq(&t, &r);
		expect_ok(&r);
	}
	nop(&r);
	expect_ok(&r);
	TEST_CHECK_EQ(irdma_model_stats_get(&t.hw, &st), 0);
	TEST_CHECK_EQ(st.aeqes, 1);
	TEST_CHECK_EQ(st.ceqes, 1);
	TEST_CHECK_EQ(st.cqe_write_errors, 1);
}

/* Point PBLE @p idx at @p iova (the driver writes PBLEs through its own mapping). */
static void
pble_set(uint32_t idx, uint64_t val)
{
	__atomic_store_n(pble_va(idx), rte_cpu_to_le_64(val), __ATOMIC_RELEASE);
}

static void
test_cqs(void)
{
	struct irdma_model_cq_info info;
	uint32_t l1_first, l2_root = 8, l2_leaf = 1024, p;
	struct irdma_cqp_wqe w;
	struct tm_mem stray;
	struct tm_res r;
	rte_iova_t iova;

	TEST_CHECK(!no_mem);
	if (no_mem)
		return;

	TEST_CHECK_EQ(tm_mem_alloc(&t, &cq_mem, T_CQ_SIZE * IRDMA_CQE_SIZE, IRDMA_HW_PAGE_SIZE),
		      0);
	TEST_CHECK_EQ(tm_mem_alloc(&t, &cq_shadow, IRDMA_HW_PAGE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	for (p = 0; p < T_CQ_PAGES; p++)
		TEST_CHECK_EQ(tm_mem_alloc(&t, &cq_pages[p], IRDMA_HW_PAGE_SIZE,
					   IRDMA_HW_PAGE_SIZE), 0);
	/* Level 0. */
	cq_wqe(&w, T_CQ_L0, T_CQ_SIZE, cq_mem.iova, cq_shadow.iova, T_CQ_CTX + 5);
	irdma_set(&w, CQP_CQ_CEQIDVALID, 1);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(irdma_model_cq_get(&t.hw, T_CQ_L0, &info), 0);
	TEST_CHECK_EQ(info.size, T_CQ_SIZE);
	TEST_CHECK_EQ(info.polarity, 1);
	TEST_CHECK_EQ(info.pbl_level, 0);
	TEST_CHECK(info.pa == cq_mem.iova && info.ctx == T_CQ_CTX + 5 && info.ceq_valid);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_OBJ_EXISTS);
	/* Out-of-range id, bad size, misaligned ring, unmapped shadow, CEQ out of range. */
	cq_wqe(&w, t.obj[IRDMA_HMC_OBJ_CQ].cnt, T_CQ_SIZE, cq_mem.iova, cq_shadow.iova, 1);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ID);
	cq_wqe(&w, 9, 0, cq_mem.iova, cq_shadow.iova, 1);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_SIZE);
	cq_wqe(&w, 9, 4, cq_mem.iova + IRDMA_CQE_SIZE, cq_shadow.iova, 1);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ALIGN);
	TEST_CHECK_EQ(tm_mem_alloc_unmapped(&stray, IRDMA_HW_PAGE_SIZE, IRDMA_HW_PAGE_SIZE), 0);
	cq_wqe(&w, 9, 4, cq_mem.iova, stray.iova, 1);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
	cq_wqe(&w, 9, T_CQ_SIZE, stray.iova, cq_shadow.iova, 1);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
	cq_wqe(&w, 9, 4, cq_mem.iova, cq_shadow.iova, 1);
	irdma_set(&w, CQP_CQ_CEQIDVALID, 1);
	irdma_set(&w, CQP_CQ_CEQID, t.max_ceqs);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_ID);
	/* Level 1 through PBLEs in the direct SD, pages not contiguous. */
	l1_first = (uint32_t)((IRDMA_HMC_SD_SIZE - t.obj[IRDMA_HMC_OBJ_PBLE].base) /
			      IRDMA_PBLE_SIZE) + 64;
	for (p = 0; p < T_CQ_PAGES; p++)
		pble_set(l1_first + p, cq_pages[T_CQ_PAGES - 1 - p].iova);
	cq_wqe(&w, T_CQ_L1, T_CQ_SIZE, 0, cq_shadow.iova + IRDMA_SHADOW_AREA_ALIGN, 2);
	irdma_set(&w, CQP_CQ_VIRTMAP, 1);
	irdma_set(&w, CQP_LPBLSIZE, 1);
	irdma_set(&w, CQP_CQ_FIRST_PBLIDX, l1_first);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(irdma_model_cq_get(&t.hw, T_CQ_L1, &info), 0);
	TEST_CHECK_EQ(info.pbl_level, 1);
	TEST_CHECK_EQ(info.first_pble, l1_first);
	TEST_CHECK_EQ(irdma_model_pble_lookup(&t.hw, 1, l1_first, 2, &iova), 0);
	TEST_CHECK(iova == cq_pages[0].iova);
	/* Level 2 in the paged SD: the root PBLE holds the leaf's PBLE index. */
	pble_set(l2_root, l2_leaf);
	for (p = 0; p < T_CQ_PAGES; p++)
		pble_set(l2_leaf + p, cq_pages[p].iova);
	cq_wqe(&w, T_CQ_L2, T_CQ_SIZE, 0, cq_shadow.iova + 2 * IRDMA_SHADOW_AREA_ALIGN, 3);
	irdma_set(&w, CQP_CQ_VIRTMAP, 1);
	irdma_set(&w, CQP_LPBLSIZE, 3);
	irdma_set(&w, CQP_CQ_FIRST_PBLIDX, l2_root);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(irdma_model_pble_lookup(&t.hw, 2, l2_root, 1, &iova), 0);
	TEST_CHECK(iova == cq_pages[1].iova);
	/* PBLE errors: a page not mapped, an index past the PBLE object, a bad level. */
	pble_set(l2_leaf + 1, stray.iova);
	irdma_set(&w, CQP_CQ_ID, 9);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_DMA_FAULT);
	pble_set(l2_root, t.obj[IRDMA_HMC_OBJ_PBLE].cnt);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_PBLE);
	irdma_set(&w, CQP_LPBLSIZE, 2);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_BAD_FIELD);
	tm_mem_free(NULL, &stray);
	/* Destroy, and destroy again. */
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_CQ);
	irdma_set(&w, CQP_CQ_ID, T_CQ_L1);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_NO_OBJ);
	TEST_CHECK_EQ(irdma_model_cq_get(&t.hw, T_CQ_L1, &info), -ENOENT);
}

static void
test_fault_injection(void)
{
	struct irdma_cqp_wqe w;
	struct tm_res r;

	TEST_CHECK(!no_mem);
	if (no_mem)
		return;

	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(&t.hw, IRDMA_CQP_OP_DESTROY_CQ, 2,
						   IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, 0x77), 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(&t.hw, 64, 1, 1, 1), -EINVAL);
	nop(&r);
	expect_ok(&r);
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_CQ);
	irdma_set(&w, CQP_CQ_ID, T_CQ_L2);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, 0x77);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, 0x77);
	/* The injected failures did not execute: the CQ is still there. */
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	up = true;
}

static void
test_teardown(void)
{
	struct irdma_model_stats st;
	struct irdma_cqp_wqe w;
	struct tm_res r;

	TEST_CHECK(up);
	if (!up)
		goto free;
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_CQ);
	irdma_set(&w, CQP_CQ_ID, T_CQ_L0);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_AEQ);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_CEQ);
	tm_exec(&t, &w, &r);
	expect_ok(&r);
	tm_exec(&t, &w, &r);
	expect_err(&r, IRDMA_CQP_MAJ_ERROR, IRDMA_MODEL_MIN_NO_OBJ);
	/* Destroying the CCQ completes through the registers (irdma_sc_ccq_destroy). */
	tm_wqe_op(&w, IRDMA_CQP_OP_DESTROY_CQ);
	irdma_set(&w, CQP_CQ_ID, IRDMA_CCQ_ID);
	tm_post(&t, &w);
	tm_ring(&t);
	t.ccq_on = false;
	tm_wait_regs(&t, &r);
	expect_ok(&r);
	nop(&r);
	expect_ok(&r);
	TEST_CHECK_EQ(tm_cqp_destroy(&t), 0);
	TEST_CHECK_EQ(irdma_model_stats_get(&t.hw, &st), 0);
	TEST_CHECK_EQ(st.cqp_destroys, 1);
	TEST_CHECK(st.dma_faults >= 6);
	TEST_CHECK_EQ(st.cqp_injected, 2);
	TEST_CHECK(st.ccq_cqes > 3 * T_CCQ);
free:
	tm_mem_free(&t, &sd_paged_pd);
	tm_mem_free(&t, &sd_paged_mem);
	tm_mem_free(&t, &sd_direct_mem);
	tm_mem_free(&t, &ceq_mem);
	tm_mem_free(&t, &aeq_mem);
	tm_mem_free(&t, &cq_mem);
	tm_mem_free(&t, &cq_shadow);
	for (unsigned int p = 0; p < T_CQ_PAGES; p++)
		tm_mem_free(&t, &cq_pages[p]);
	tm_fini(&t);
}

/* A model of the fixture's mode, configured by default; false after a failed check. */
static bool
model_create(struct irdma_hw *hw)
{
	struct irdma_model_config cfg;

	irdma_model_config_default(&cfg);
	cfg.mode = test_variant_model_mode();
	if (irdma_model_create(&cfg, hw) == 0)
		return true;
	TEST_CHECK(false);
	return false;
}

/*
 * The engine thread of a THREAD model runs on a core of its own: not the main lcore's (the
 * tests start EAL with -l 0-1, so it gets lcore 1's core or a CPU outside both).
 */
static void
test_thread_core(void)
{
	rte_cpuset_t set, main_set = rte_lcore_cpuset(rte_get_main_lcore());
	struct irdma_hw hw;
	unsigned int cpu, n = 0;

	if (!model_create(&hw))
		return;
	if (test_variant_model_mode() == IRDMA_MODEL_MODE_INLINE) {
		TEST_CHECK_EQ(irdma_model_thread_cpus(&hw, &set), -ENOENT);
	} else {
		TEST_CHECK_EQ(irdma_model_thread_cpus(&hw, &set), 0);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (!CPU_ISSET(cpu, &set))
				continue;
			n++;
			TEST_CHECK(!CPU_ISSET(cpu, &main_set));
		}
		TEST_CHECK(n > 0);
	}
	irdma_model_destroy(&hw);
}

/* The single CPU of @p s, or -1 when it holds none or several. */
static int
only_cpu(const rte_cpuset_t *s)
{
	unsigned int cpu;
	int one = -1;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, s))
			continue;
		if (one >= 0)
			return -1;
		one = (int)cpu;
	}
	return one;
}

/*
 * An engine thread busy-polls without yielding only while it is alone on its CPU: two
 * THREAD models pinned to the same CPU both yield (a spinning one would keep the other
 * off the CPU for whole time slices), and once both are gone a new one has the CPU to
 * itself again. INLINE models have no thread.
 */
static void
test_thread_spin_share(void)
{
	struct irdma_hw a, b, c;
	rte_cpuset_t sa, sb, sc;
	int ca, cb, cc;

	if (!model_create(&a))
		return;
	if (test_variant_model_mode() == IRDMA_MODEL_MODE_INLINE) {
		TEST_CHECK_EQ(irdma_model_thread_spins(&a), -ENOENT);
		irdma_model_destroy(&a);
		return;
	}
	if (!model_create(&b)) {
		irdma_model_destroy(&a);
		return;
	}
	TEST_CHECK_EQ(irdma_model_thread_cpus(&a, &sa), 0);
	TEST_CHECK_EQ(irdma_model_thread_cpus(&b, &sb), 0);
	ca = only_cpu(&sa);
	cb = only_cpu(&sb);
	/* the first stops spinning once the second shares its CPU */
	TEST_CHECK_EQ(irdma_model_thread_spins(&a), ca >= 0 && ca != cb);
	TEST_CHECK_EQ(irdma_model_thread_spins(&b), cb >= 0 && cb != ca);
	irdma_model_destroy(&a);
	irdma_model_destroy(&b);
	if (!model_create(&c))
		return;
	TEST_CHECK_EQ(irdma_model_thread_cpus(&c, &sc), 0);
	cc = only_cpu(&sc);
	TEST_CHECK_EQ(irdma_model_thread_spins(&c), cc >= 0);
	TEST_CHECK_EQ(irdma_model_thread_spins(NULL), -EINVAL);
	irdma_model_destroy(&c);
}

/*
 * An unmap takes effect at once: the engine reads the CQP SQ (its map is the one the model's
 * view found last), the SQ is unmapped, and the next WQE is not fetched (a DMA fault, the
 * CQP stalls) until it is mapped again.
 */
static void
test_unmap_under_cqp(void)
{
	struct irdma_model_config cfg;
	struct irdma_model_stats st;
	struct irdma_cqp_wqe w;
	struct irdma_cqp_ctx c;
	struct tm_res r;
	struct tmd u;
	uint64_t faults, dl;
	uint32_t i;

	irdma_model_config_default(&cfg);
	cfg.mode = test_variant_model_mode();
	if (tm_init(&u, &cfg) != 0 || tm_wait_fw(&u) != 0 ||
	    tm_mem_alloc(&u, &u.sq, T_SQ * IRDMA_CQP_WQE_SIZE, IRDMA_CQP_SQ_ALIGN) != 0) {
		TEST_CHECK(false);
		goto out;
	}
	tm_cqp_ctx_fill(&u, &c, T_SQ);
	TEST_CHECK_EQ(tm_cqp_create_ctx(&u, &c, T_SQ), IRDMA_REG_PREP(CCQPSTATUS_DONE, 1));
	tm_wqe_op(&w, IRDMA_CQP_OP_NOP);
	tm_exec(&u, &w, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(irdma_model_stats_get(&u.hw, &st), 0);
	faults = st.dma_faults;
	TEST_CHECK_EQ(irdma_hw_dma_unmap(&u.hw, u.sq.va, u.sq.iova, u.sq.len), 0);
	tm_post(&u, &w);
	tm_ring(&u);
	for (i = 0, dl = tm_deadline(); st.dma_faults == faults && tm_polling(&u.hw, i, dl);
	     i++) {
		irdma_hw_service(&u.hw);
		TEST_CHECK_EQ(irdma_model_stats_get(&u.hw, &st), 0);
	}
	TEST_CHECK(st.dma_faults > faults);
	TEST_CHECK(IRDMA_REG_GET(CQPTAIL_WQTAIL, tm_rd(&u, IRDMA_PFPE_CQPTAIL)) != u.head);
	/* Mapped again: the stalled WQE runs (at the next doorbell, for the threaded model). */
	TEST_CHECK_EQ(irdma_hw_dma_map(&u.hw, u.sq.va, u.sq.iova, u.sq.len), 0);
	tm_ring(&u);
	tm_wait_regs(&u, &r);
	expect_ok(&r);
	TEST_CHECK_EQ(tm_cqp_destroy(&u), 0);
out:
	tm_fini(&u);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_model") < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_fw_and_registers);
	TEST_RUN(test_cqp_bad_ctx);
	TEST_RUN(test_cqp_create_and_nops);
	TEST_RUN(test_query_fpm);
	TEST_RUN(test_commit_fpm);
	TEST_RUN(test_sds_and_hmc);
	TEST_RUN(test_ccq);
	TEST_RUN(test_ceq_aeq);
	TEST_RUN(test_cqs);
	TEST_RUN(test_fault_injection);
	TEST_RUN(test_teardown);
	TEST_RUN(test_unmap_under_cqp);
	TEST_RUN(test_thread_core);
	TEST_RUN(test_thread_spin_share);
	rte_eal_cleanup();
	return test_done();
}
