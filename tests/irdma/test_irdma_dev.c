/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The irdma PMD through rdmadev on the device model: open, info, configure, start (the
 * driver's bring-up: CQP, HMC, CCQ, CEQ0, AEQ), stop, close; bad devargs; fault injection
 * in the bring-up; the honest refusal of the VFIO driver. Built once per model mode.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"


/* Devargs suffix selecting the model mode under test. */

static const struct rdmadev_conf conf = { .nb_comp_vectors = 1 };

static void
stats_of(int id, struct irdma_model_stats *st)
{
	memset(st, 0, sizeof(*st));
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), st), 0);
}

/* Everything the driver mapped is unmapped and the CQP is gone. */
static void
check_balanced(int id)
{
	struct irdma_model_stats st;

	stats_of(id, &st);
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(st.dma_map_refused, 0);
	TEST_CHECK_EQ(st.cqp_creates, st.cqp_destroys);
	TEST_CHECK_EQ(st.dma_faults, 0);
	TEST_CHECK_EQ(st.reg_refused, 0);
	TEST_CHECK_EQ(st.cqp_doorbell_refused, 0);
}

static void
test_vfio_refused(void)
{
	TEST_CHECK_EQ(rdmadev_open("irdma:0000:3b:00.0"), -ENODEV);	/* no such function here */
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

static void
test_bad_devargs(void)
{
	static const char *const bad[] = {
		"irdma_model0,foo=1",
		"irdma_model0,gen=4",
		"irdma_model0,gen=1",
		"irdma_model0,qps=262145",
		"irdma_model0,qps=3",
		"irdma_model0,qps=12x",
		"irdma_model0,cqs=524289",
		"irdma_model0,mrs=0",
		"irdma_model0,mode=fast",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		int rc = rdmadev_open(bad[i]);

		if (rc != -EINVAL)
			printf("#   %s -> %d\n", bad[i], rc);
		TEST_CHECK_EQ(rc, -EINVAL);
	}
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

/* A CQ through rdmadev: CREATE_CQ on CEQ0, seen in the model; stop refused while it lives. */
static void
cq_cycle(int id)
{
	const struct rdmadev_cq_attr attr = { .cqe = 100, .comp_vector = 0 };
	struct irdma_model_cq_info info;
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_pd *pd = NULL;
	uint32_t cq_id;

	TEST_CHECK_EQ(rdmadev_ctx_alloc((int16_t)id, &ctx), 0);
	if (ctx == NULL)
		return;
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	if (pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &attr, &cq), 0);
	if (cq != NULL) {
		cq_id = rdmadev_obj_id(&cq->obj);
		TEST_CHECK(cq_id >= IRDMA_FIRST_USER_CQ_ID);
		TEST_CHECK(cq->cqe >= attr.cqe);
		TEST_CHECK_EQ(irdma_model_cq_get(pmd_hw(id), cq_id, &info), 0);
		TEST_CHECK_EQ(info.size, 2 * (cq->cqe + 1));
		TEST_CHECK_EQ(info.ceq_valid, 1);
		TEST_CHECK_EQ(info.ceq_id, 0);
		TEST_CHECK_EQ(info.pbl_level, 0);
		TEST_CHECK(info.shadow_pa != 0);
		TEST_CHECK_EQ(rdmadev_stop((int16_t)id), -EBUSY);
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
		TEST_CHECK_EQ(irdma_model_cq_get(pmd_hw(id), cq_id, &info), -ENOENT);
	}
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
}

static void
test_lifecycle(void)
{
	struct irdma_model_cq_info cq;
	struct irdma_model_stats st;
	struct rdmadev_info info;
	struct rdmadev *dev;
	rte_iova_t iova;
	int id, round;

	id = rdmadev_open(test_variant_devargs("irdma_model0,qps=1000,cqs=3000,mrs=5000"));
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	dev = rdmadev_get((int16_t)id);
	TEST_CHECK(pmd_hw(id) != NULL);
	/* Limits: the plan start commits (QPs rounded up to a power of two). */
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)id, &info), 0);
	TEST_CHECK_EQ(info.hw_gen, 2);
	TEST_CHECK_EQ(info.max_qp, 1024);
	TEST_CHECK_EQ(info.max_cq, 3000);
	TEST_CHECK_EQ(info.max_mr, 5000);
	TEST_CHECK_EQ(info.max_pd, IRDMA_MAX_PDS);
	TEST_CHECK_EQ(info.max_qp_wr, IRDMA_MAX_QP_WR);
	/* two 32-byte slots per completion on gen2 (extended CQEs): half of the ring limit */
	TEST_CHECK_EQ(info.max_cqe, 524286);	/* (524286 + 1) x 2 <= IRDMA_MAX_CQ_SIZE */
	TEST_CHECK_EQ(info.max_sge, IRDMA_MAX_SGE);
	TEST_CHECK_EQ(info.max_inline, IRDMA_MAX_INLINE_DATA);
	TEST_CHECK_EQ(info.max_comp_vectors, 16);	/* IRDMA_MAX_COMP_VECTORS, the model's 16 vectors */
	TEST_CHECK(info.capa == IRDMA_GEN2_FEATURES);
	/* ID spaces follow irdma. */
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_QP].nb_ids, 1024);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_QP].nb_reserved, 3);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_CQ].nb_ids, 3000);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_CQ].nb_reserved, 3);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_PD].nb_reserved, 3);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_MR].nb_ids, 5000);
	TEST_CHECK_EQ(dev->res_cfg.type[RESTRACK_MR].nb_reserved, 1);
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
	for (round = 1; round <= 2; round++) {
		TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
		stats_of(id, &st);
		TEST_CHECK_EQ(st.cqp_creates, round);
		TEST_CHECK_EQ(st.cqp_errors, 0);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_QUERY_FPM_VAL], round);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_COMMIT_FPM_VAL], round);
		TEST_CHECK(st.cqp_op_done[IRDMA_CQP_OP_UPDATE_PE_SDS] >= (uint64_t)round);
		/* Round 1 also created (and destroyed) one ordinary CQ. */
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_CREATE_CQ], round + (round > 1));
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_CREATE_CEQ], round);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_CREATE_AEQ], round);
		/* The CCQ completed its own create, CEQ0 and AEQ create. */
		TEST_CHECK(st.ccq_cqes >= 3u * (uint64_t)round);
		TEST_CHECK_EQ(st.eq_dropped, 0);
		/* CQ 0 is the CCQ; the committed HMC is backed to its last QP and MR. */
		TEST_CHECK_EQ(irdma_model_cq_get(pmd_hw(id), IRDMA_CCQ_ID, &cq), 0);
		TEST_CHECK_EQ(cq.size, IRDMA_CTRL_CCQ_SIZE);
		TEST_CHECK_EQ(irdma_model_hmc_lookup(pmd_hw(id), IRDMA_HMC_OBJ_QP, 1023, &iova), 0);
		TEST_CHECK_EQ(irdma_model_hmc_lookup(pmd_hw(id), IRDMA_HMC_OBJ_MR, 4999, &iova), 0);
		TEST_CHECK_EQ(irdma_model_hmc_lookup(pmd_hw(id), IRDMA_HMC_OBJ_CQ, 2999, &iova), 0);
		if (round == 1)
			cq_cycle(id);
		TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
		stats_of(id, &st);
		TEST_CHECK_EQ(st.cqp_destroys, round);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_DESTROY_CQ], round + 1);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_DESTROY_CEQ], round);
		TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_DESTROY_AEQ], round);
		TEST_CHECK_EQ(st.cqp_errors, 0);
		TEST_CHECK_EQ(irdma_model_cq_get(pmd_hw(id), IRDMA_CCQ_ID, &cq), -ENOENT);
		TEST_CHECK(irdma_model_hmc_lookup(pmd_hw(id), IRDMA_HMC_OBJ_QP, 0, &iova) > 0);
		check_balanced(id);
	}
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

/* A CQP command of the bring-up fails: start fails cleanly, a retry succeeds. */
static void
fault_at(uint8_t opcode)
{
	struct irdma_model_stats st;
	int id, rc;

	id = rdmadev_open(test_variant_devargs("irdma_model0"));
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(pmd_hw(id), opcode, 1, IRDMA_CQP_MAJ_ERROR,
						   0x77), 0);
	rc = rdmadev_start((int16_t)id);
	TEST_CHECK(rc < 0);
	TEST_CHECK_EQ(rdmadev_get_state((int16_t)id), RDMADEV_STATE_CONFIGURED);
	stats_of(id, &st);
	TEST_CHECK_EQ(st.cqp_injected, 1);
	TEST_CHECK_EQ(st.cqp_op_refused[opcode], 1);
	check_balanced(id);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	check_balanced(id);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

static void
test_fault_commit(void)
{
	fault_at(IRDMA_CQP_OP_COMMIT_FPM_VAL);
}

static void
test_fault_query(void)
{
	fault_at(IRDMA_CQP_OP_QUERY_FPM_VAL);
}

static void
test_fault_sds(void)
{
	fault_at(IRDMA_CQP_OP_UPDATE_PE_SDS);
}

static void
test_fault_ccq(void)
{
	fault_at(IRDMA_CQP_OP_CREATE_CQ);
}

static void
test_fault_aeq(void)
{
	fault_at(IRDMA_CQP_OP_CREATE_AEQ);
}

/* A plan the device cannot hold: start fails with -ENOSPC before COMMIT. */
static void
test_plan_too_big(void)
{
	struct irdma_model_stats st;
	int id;

	id = rdmadev_open(test_variant_devargs("irdma_model0,qps=262144,mrs=16777216"));
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), -ENOSPC);
	stats_of(id, &st);
	TEST_CHECK_EQ(st.cqp_op_done[IRDMA_CQP_OP_COMMIT_FPM_VAL], 0);
	check_balanced(id);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/* Two devices up at once; gen 3 on the second. */
static void
test_two_devices(void)
{
	struct rdmadev_info info;
	int a, b;

	a = rdmadev_open(test_variant_devargs("irdma_model0"));
	b = rdmadev_open(test_variant_devargs("irdma_model1,gen=3,qps=64,cqs=64,mrs=64"));
	TEST_CHECK(a >= 0 && b >= 0 && a != b);
	if (a < 0 || b < 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)b, &info), 0);
	TEST_CHECK_EQ(info.hw_gen, 3);
	TEST_CHECK_EQ(info.max_qp, 64);
	TEST_CHECK_EQ(rdmadev_configure((int16_t)a, &conf), 0);
	TEST_CHECK_EQ(rdmadev_configure((int16_t)b, &conf), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)a), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)b), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)b), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)a), 0);
	check_balanced(a);
	check_balanced(b);
out:
	if (a >= 0)
		TEST_CHECK_EQ(rdmadev_close((int16_t)a), 0);
	if (b >= 0)
		TEST_CHECK_EQ(rdmadev_close((int16_t)b), 0);
}

/* Close without configure / start, and object ops refused while there are none. */
static void
test_open_close(void)
{
	int id = rdmadev_open(test_variant_devargs("irdma_model0"));

	TEST_CHECK(id >= 0);
	if (id >= 0)
		TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

/* Every log line of a device's life (bring-up, start, stop, close, a refused call) names the
 * device once: the driver's log macro already prefixes "irdma <name>: ". */
static void
test_log_names_once(void)
{
	uint32_t global = rte_log_get_global_level();
	char *buf = NULL, *line, *save = NULL;
	unsigned int lines = 0, named = 0;
	bool bringup = false;
	size_t len = 0;
	FILE *f;
	int id;

	f = open_memstream(&buf, &len);
	TEST_CHECK(f != NULL);
	if (f == NULL)
		return;
	rte_openlog_stream(f);
	rte_log_set_global_level(RTE_LOG_DEBUG);
	/* the PMD, its model, rdmadev and restrack (all registered at NOTICE) */
	rte_log_set_level_pattern("pmd.rdma.irdma*", RTE_LOG_DEBUG);
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_DEBUG);
	rte_log_set_level_pattern("lib.restrack", RTE_LOG_DEBUG);
	id = rdmadev_open(test_variant_devargs("irdma_model0"));
	TEST_CHECK(id >= 0);
	if (id >= 0) {
		TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &conf), 0);
		TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
		TEST_CHECK_EQ(rdmadev_start((int16_t)id), -EBUSY);
		TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
		TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	}
	rte_log_set_level_pattern("lib.restrack", RTE_LOG_NOTICE);
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_NOTICE);
	rte_log_set_level_pattern("pmd.rdma.irdma*", RTE_LOG_NOTICE);
	rte_log_set_global_level(global);
	rte_openlog_stream(NULL);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *first = strstr(line, "irdma_model0");

		lines++;
		if (strstr(line, "gen ") != NULL && strstr(line, "model, plan") != NULL)
			bringup = true;
		if (first == NULL)
			continue;
		named++;
		if (strstr(first + 1, "irdma_model0") != NULL) {
			printf("#   names the device twice: %s\n", line);
			TEST_CHECK(false);
		}
	}
	printf("#   %u log lines, %u name the device\n", lines, named);
	TEST_CHECK(bringup);
	TEST_CHECK(named >= 3);
	free(buf);
}

/* The control path alone on a model: bring-up and teardown with @p req, checked. */
static void
ctrl_cycle(const struct irdma_hmc_request *req, enum irdma_sd_type want, uint32_t min_sds,
	   uint8_t fault_op)
{
	struct irdma_model_config cfg;
	struct irdma_model_stats st;
	struct irdma_ctrl c;
	struct irdma_hw hw;
	rte_iova_t iova;
	uint32_t i;
	int rc;

	irdma_model_config_default(&cfg);
	cfg.mode = test_variant_model_mode();
	TEST_CHECK_EQ(irdma_model_create(&cfg, &hw), 0);
	TEST_CHECK_EQ(irdma_ctrl_init(&c, &hw, req), 0);
	if (fault_op != 0)
		TEST_CHECK_EQ(irdma_model_inject_cqp_fault(&hw, fault_op, 1,
							   IRDMA_CQP_MAJ_CNTXTCACHE_ERROR, 1), 0);
	rc = irdma_ctrl_bringup(&c);
	if (fault_op != 0) {
		TEST_CHECK_EQ(rc, -EFAULT);
	} else {
		TEST_CHECK_EQ(rc, 0);
		TEST_CHECK(c.hmc.sd_cnt >= min_sds);
		for (i = 0; rc == 0 && i < c.hmc.sd_cnt; i++)
			TEST_CHECK_EQ(c.hmc.sds[i].type, want);
		/* The last object of the layout resolves through the SDs. */
		TEST_CHECK_EQ(irdma_model_hmc_lookup(&hw, IRDMA_HMC_OBJ_OOISCFFL,
			c.hmc.obj[IRDMA_HMC_OBJ_OOISCFFL].cnt - 1, &iova), 0);
		TEST_CHECK_EQ(irdma_model_hmc_lookup(&hw, IRDMA_HMC_OBJ_QP, req->qps - 1, &iova),
			      0);
		irdma_ctrl_teardown(&c);
	}
	TEST_CHECK_EQ(irdma_model_stats_get(&hw, &st), 0);
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(st.cqp_creates, 1);
	TEST_CHECK_EQ(st.cqp_destroys, 1);
	TEST_CHECK_EQ(st.dma_faults, 0);
	TEST_CHECK_EQ(st.cqp_errors, fault_op != 0 ? 1 : 0);
	irdma_ctrl_fini(&c);
	irdma_model_destroy(&hw);
}

/* Paged SDs (PD pages of 4 KB pages), more SDs than one WQE carries. */
static void
test_ctrl_paged(void)
{
	const struct irdma_hmc_request req = {
		.qps = 8192, .cqs = 4096, .mrs = 4096, .sd_paged_only = true,
	};

	ctrl_cycle(&req, IRDMA_SD_TYPE_PAGED, IRDMA_UPESD_WQE_ENTRIES + 1, 0);
	ctrl_cycle(&req, IRDMA_SD_TYPE_PAGED, 0, IRDMA_CQP_OP_UPDATE_PE_SDS);
}

/* Direct SDs, more than one UPDATE_PE_SDS can program (hugepages only: 2 MB pieces). */
static void
test_ctrl_direct_many(void)
{
	const struct irdma_hmc_request req = { .qps = 32768, .cqs = 4096, .mrs = 4096 };

	if (!test_eal_uses_hugepages()) {
		printf("# no hugepages: direct SDs may not be IOVA-contiguous, skipped\n");
		return;
	}
	ctrl_cycle(&req, IRDMA_SD_TYPE_DIRECT, IRDMA_UPESD_MAX_ENTRIES + 1, 0);
}

/* A CQP that stops making progress: bounded wait, -ETIMEDOUT, then -EIO; teardown still
 * unmaps and frees everything. */
static void
test_ctrl_timeout(void)
{
	const struct irdma_hmc_request req = { .qps = 64, .cqs = 64, .mrs = 64 };
	struct irdma_model_stats st;
	struct irdma_cqp_wqe w;
	struct irdma_ctrl c;
	struct irdma_hw hw;
	struct irdma_dma_mem *sq = &c.cqp.sq;

	pmd_raw_up(&hw, &c, &req);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_NOP);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), 0);
	/* The SQ becomes unreachable: the engine stalls on it. */
	TEST_CHECK_EQ(irdma_hw_dma_unmap(&hw, sq->va, sq->iova, sq->len), 0);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), -ETIMEDOUT);
	TEST_CHECK_EQ(irdma_cqp_exec(&c, &w, NULL), -EIO);
	TEST_CHECK_EQ(irdma_hw_dma_map(&hw, sq->va, sq->iova, sq->len), 0);
	irdma_ctrl_teardown(&c);
	TEST_CHECK_EQ(irdma_model_stats_get(&hw, &st), 0);
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(st.cqp_destroys, 1);
	irdma_ctrl_fini(&c);
	irdma_model_destroy(&hw);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_dev") < 0)
		return test_eal_bail();
	TEST_RUN(test_vfio_refused);
	TEST_RUN(test_bad_devargs);
	TEST_RUN(test_open_close);
	TEST_RUN(test_log_names_once);
	TEST_RUN(test_lifecycle);
	TEST_RUN(test_fault_query);
	TEST_RUN(test_fault_commit);
	TEST_RUN(test_fault_sds);
	TEST_RUN(test_fault_ccq);
	TEST_RUN(test_fault_aeq);
	TEST_RUN(test_plan_too_big);
	TEST_RUN(test_two_devices);
	TEST_RUN(test_ctrl_paged);
	TEST_RUN(test_ctrl_direct_many);
	TEST_RUN(test_ctrl_timeout);
	rte_eal_cleanup();
	return test_done();
}
