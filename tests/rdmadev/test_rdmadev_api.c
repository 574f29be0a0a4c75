/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev API tests on the software test driver: registry, lifecycle, info, every object with
 * its error paths and restrack counts, fault injection, the fast path, leaks at close. */

/* the fast path's argument checks are compiled in for this program */
#define RDMADEV_DEBUG 1

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "test.h"
#include "test_driver.h"

static char test_buf[1 << 16];

static void
test_registry(void)
{
	char name[64];
	int ids[RDMADEV_MAX_DEVS];
	int id, i, n;
	int16_t it;

	TEST_CHECK_EQ(rdmadev_open(NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_open(""), -EINVAL);
	TEST_CHECK_EQ(rdmadev_open(",gen=2"), -EINVAL);
	TEST_CHECK_EQ(rdmadev_open("nodriver0"), -EINVAL);
	TEST_CHECK_EQ(rdmadev_open("rdma_testx0"), -EINVAL);	/* prefix not followed by digit */
	TEST_CHECK_EQ(rdmadev_open("rdma_test_a_name_that_is_far_too_long_0"), -EINVAL);
	td_log_start();
	TEST_CHECK_EQ(rdmadev_open("rdma_test0,bogus=1"), -EINVAL);
	{
		char *log = td_log_stop();

		TEST_CHECK(strstr(log, "bogus") != NULL);
		free(log);
	}
	TEST_CHECK_EQ(rdmadev_open("rdma_test0,gen=7"), -EINVAL);
	TEST_CHECK_EQ(rdmadev_open("rdma_test0,fail_probe=1"), -EIO);
	TEST_CHECK_EQ(rdmadev_count(), 0);

	id = rdmadev_open("rdma_test0,gen=2");
	TEST_CHECK(id >= 0);
	TEST_CHECK_EQ(rdmadev_open("rdma_test0"), -EEXIST);
	TEST_CHECK_EQ(rdmadev_count(), 1);
	TEST_CHECK_EQ(rdmadev_get_dev_id_by_name("rdma_test0"), id);
	TEST_CHECK_EQ(rdmadev_get_dev_id_by_name("rdma_test9"), -ENODEV);
	TEST_CHECK(strcmp(rdmadev_name((int16_t)id), "rdma_test0") == 0);
	TEST_CHECK(rdmadev_is_valid_dev((int16_t)id));
	TEST_CHECK(!rdmadev_is_valid_dev(-1));
	TEST_CHECK(!rdmadev_is_valid_dev(RDMADEV_MAX_DEVS));
	TEST_CHECK_EQ(rdmadev_get_state((int16_t)id), RDMADEV_STATE_OPENED);

	/* the longest prefix wins */
	i = rdmadev_open("rdma_testmin3");
	TEST_CHECK(i >= 0);
	{
		struct rdmadev_info info;

		TEST_CHECK_EQ(rdmadev_info_get((int16_t)i, &info), 0);
		TEST_CHECK(strcmp(info.driver_name, "rdma_testmin") == 0);
	}
	n = 0;
	RDMADEV_FOREACH_DEV(it)
		n++;
	TEST_CHECK_EQ(n, 2);
	TEST_CHECK_EQ(rdmadev_close((int16_t)i), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)i), -EINVAL);
	TEST_CHECK_EQ(rdmadev_close(-3), -EINVAL);

	/* fill every slot */
	for (i = 0; i < RDMADEV_MAX_DEVS - 1; i++) {
		snprintf(name, sizeof(name), "rdma_test%d", i + 1);
		ids[i] = rdmadev_open(name);
		TEST_CHECK(ids[i] >= 0);
	}
	TEST_CHECK_EQ(rdmadev_open("rdma_test99"), -ENOSPC);
	TEST_CHECK_EQ(rdmadev_count(), RDMADEV_MAX_DEVS);
	for (i = 0; i < RDMADEV_MAX_DEVS - 1; i++)
		TEST_CHECK_EQ(rdmadev_close((int16_t)ids[i]), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_count(), 0);
	TEST_CHECK_EQ(rdmadev_find_next(0), -1);
}

static void
test_lifecycle(void)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct rdmadev_ctx *ctx;
	int16_t id = (int16_t)rdmadev_open("rdma_test0");

	TEST_CHECK(id >= 0);
	TEST_CHECK_EQ(rdmadev_start(id), -EINVAL);	/* not configured */
	TEST_CHECK_EQ(rdmadev_stop(id), -EINVAL);	/* not started */
	TEST_CHECK_EQ(rdmadev_configure(id, NULL), -EINVAL);
	conf.capa = RDMADEV_CAPA_SRQ;
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EINVAL);	/* gen2 has no SRQ */
	conf.capa = RDMADEV_CAPA_CQ_RESIZE;
	conf.nb_comp_vectors = 0;
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EINVAL);
	conf.nb_comp_vectors = 5;
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EINVAL);
	conf.nb_comp_vectors = 2;
	td_fail_next(TD_CONFIGURE, 1);
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EIO);
	TEST_CHECK_EQ(rdmadev_get_state(id), RDMADEV_STATE_OPENED);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), -EINVAL);	/* not started */
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), 0);
	TEST_CHECK_EQ(rdmadev_get_state(id), RDMADEV_STATE_CONFIGURED);
	td_fail_next(TD_START, 1);
	TEST_CHECK_EQ(rdmadev_start(id), -EIO);
	TEST_CHECK_EQ(rdmadev_start(id), 0);
	TEST_CHECK_EQ(rdmadev_get_state(id), RDMADEV_STATE_STARTED);
	TEST_CHECK_EQ(rdmadev_start(id), -EBUSY);
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EBUSY);
	TEST_CHECK_EQ(rdmadev_close(id), -EBUSY);
	TEST_CHECK_EQ(rdmadev_stop(id), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), -EINVAL);
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), 0);	/* reconfigure when stopped */
	TEST_CHECK_EQ(rdmadev_start(id), 0);
	td_fail_next(TD_STOP, 1);
	TEST_CHECK_EQ(rdmadev_stop(id), -EIO);
	TEST_CHECK_EQ(rdmadev_get_state(id), RDMADEV_STATE_STARTED);
	TEST_CHECK_EQ(rdmadev_stop(id), 0);
	TEST_CHECK_EQ(rdmadev_close(id), 0);
	TEST_CHECK_EQ(rdmadev_get_state(id), RDMADEV_STATE_UNUSED);
	TEST_CHECK_EQ(rdmadev_configure(id, &conf), -EINVAL);
}

static void
test_info(void)
{
	struct rdmadev_info info;
	struct rdmadev_stats st;
	struct rdmadev_xstat xs[4];
	int16_t id = (int16_t)rdmadev_open("rdma_test0");
	int16_t id3 = (int16_t)rdmadev_open("rdma_test1,gen=3");
	FILE *f;

	TEST_CHECK_EQ(rdmadev_info_get(id, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_info_get(-1, &info), -EINVAL);
	TEST_CHECK_EQ(rdmadev_info_get(id, &info), 0);
	TEST_CHECK_EQ(info.hw_gen, 2);
	TEST_CHECK_EQ(info.max_qp_wr, 4063);
	TEST_CHECK_EQ(info.max_sge, 13);
	TEST_CHECK_EQ(info.max_sge_rd, 13);
	TEST_CHECK_EQ(info.max_inline, 101);
	TEST_CHECK_EQ(info.max_cqe, 1048574);
	TEST_CHECK_EQ(info.max_qp_rd_atom, 127);
	TEST_CHECK_EQ(info.max_qp_init_rd_atom, 255);
	TEST_CHECK(info.max_mr_size == UINT64_C(0x200000000000));
	TEST_CHECK_EQ(info.capa, RDMADEV_CAPA_RTS_AE | RDMADEV_CAPA_CQ_RESIZE);
	TEST_CHECK(strcmp(rdmadev_capa_name(RDMADEV_CAPA_RTS_AE), "RTS_AE") == 0);
	TEST_CHECK(strcmp(rdmadev_capa_name(RDMADEV_CAPA_SRQ), "SRQ") == 0);
	TEST_CHECK(rdmadev_capa_name(RTE_BIT64(40)) == NULL);
	TEST_CHECK(rdmadev_capa_name(3) == NULL);
	TEST_CHECK_EQ(rdmadev_info_get(id3, &info), 0);
	TEST_CHECK_EQ(info.hw_gen, 3);
	TEST_CHECK((info.capa & (RDMADEV_CAPA_SRQ | RDMADEV_CAPA_ATOMICS | RDMADEV_CAPA_MW |
				 RDMADEV_CAPA_CQE_64B | RDMADEV_CAPA_CQE_TIMESTAMP)) ==
		   (RDMADEV_CAPA_SRQ | RDMADEV_CAPA_ATOMICS | RDMADEV_CAPA_MW |
		    RDMADEV_CAPA_CQE_64B | RDMADEV_CAPA_CQE_TIMESTAMP));
	f = fmemopen(test_buf, sizeof(test_buf), "w");
	TEST_CHECK_EQ(rdmadev_dump(id3, f), 0);
	fclose(f);
	TEST_CHECK(strstr(test_buf, "RTS_AE CQ_RESIZE CQE_64B ATOMICS SRQ") != NULL);
	TEST_CHECK(strstr(test_buf, "max_qp_wr 4063") != NULL);
	TEST_CHECK_EQ(rdmadev_stats_get(id, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_stats_get(id, &st), 0);
	TEST_CHECK_EQ(rdmadev_xstats_get(id, NULL, 0), 2);
	TEST_CHECK_EQ(rdmadev_xstats_get(id, NULL, 2), -EINVAL);
	TEST_CHECK_EQ(rdmadev_xstats_get(id, xs, 4), 2);
	TEST_CHECK(strcmp(xs[0].name, "cqpCommands") == 0);
	TEST_CHECK_EQ(rdmadev_stats_reset(id), 0);
	/* Run-time parameters: this driver has none; bad arguments are refused first. */
	TEST_CHECK_EQ(rdmadev_param_set(id, "wire_drop", "0.1"), -ENOTSUP);
	TEST_CHECK_EQ(rdmadev_param_set(id, NULL, "0.1"), -EINVAL);
	TEST_CHECK_EQ(rdmadev_param_set(id, "wire_drop", NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_param_set(RDMADEV_MAX_DEVS, "wire_drop", "0.1"), -EINVAL);
	TEST_CHECK_EQ(rdmadev_close(id), 0);
	TEST_CHECK_EQ(rdmadev_close(id3), 0);
	TEST_CHECK(strcmp(rdmadev_wc_status_str(RDMADEV_WC_WR_FLUSH_ERR), "WR_FLUSH_ERR") == 0);
	TEST_CHECK(strcmp(rdmadev_wc_status_str(RDMADEV_WC_REM_ACCESS_ERR), "REM_ACCESS_ERR") == 0);
	TEST_CHECK(strcmp(rdmadev_wc_status_str(RDMADEV_WC_GENERAL_ERR), "GENERAL_ERR") == 0);
}

/* Counts of every restrack type, compared after each step. */
#define CHECK_COUNTS(id, pd, cq, qp, mr, ctx)				\
	do {								\
		TEST_CHECK_EQ(td_count(id, RESTRACK_PD), pd);		\
		TEST_CHECK_EQ(td_count(id, RESTRACK_CQ), cq);		\
		TEST_CHECK_EQ(td_count(id, RESTRACK_QP), qp);		\
		TEST_CHECK_EQ(td_count(id, RESTRACK_MR), mr);		\
		TEST_CHECK_EQ(td_count(id, RESTRACK_CTX), ctx);		\
	} while (0)

static struct rdmadev_qp_init_attr
qp_attr(struct rdmadev_pd *pd, struct rdmadev_cq *cq, enum rdmadev_qp_type type)
{
	struct rdmadev_qp_init_attr a = {
		.pd = pd, .send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = 4, .max_recv_wr = 16, .max_send_sge = 2,
			 .max_recv_sge = 2, .max_inline_data = 64 },
	};
	return a;
}

static void
test_objects(void)
{
	static char buf[8192];
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	int64_t live = td_live_objects();
	struct rdmadev_cq_attr cqa = { .cqe = 100 };
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf),
				       .iova = (uintptr_t)buf,
				       .access = RDMADEV_ACCESS_LOCAL_WRITE |
						 RDMADEV_ACCESS_REMOTE_READ |
						 RDMADEV_ACCESS_REMOTE_WRITE };
	struct rdmadev_ah_attr aha = { .port_num = 1, .vlan_id = 0xffff };
	struct rdmadev_dmah_attr dma = { .cpu_id = 0, .numa_node = -1 };
	struct rdmadev_qp_init_attr qpa;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq, *cq2;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr, *dmr, *fmr;
	struct rdmadev_ah *ah;
	struct rdmadev_counter *cnt;
	struct rdmadev_comp_cntr *cc;
	struct rdmadev_dmah *dmah;
	struct rdmadev_cm_id *cm;
	struct rdmadev_xstat xs[2];
	struct rdmadev_stats st;
	uint64_t v;

	TEST_CHECK(id >= 0);
	CHECK_COUNTS(id, 0, 0, 0, 0, 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK(rdmadev_ctx_doorbell(ctx) != NULL);
	CHECK_COUNTS(id, 0, 0, 0, 0, 1);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_id(pd), 3);	/* PD 0..2 reserved */
	CHECK_COUNTS(id, 1, 0, 0, 0, 1);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	TEST_CHECK_EQ(rdmadev_cq_id(cq), 3);	/* CQ 0..2 reserved */
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 201);	/* rounded by the driver */
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 500), 0);
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 500);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 0), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 1048575), -EINVAL);
	td_fail_next(TD_CQ_RESIZE, 1);
	TEST_CHECK_EQ(rdmadev_cq_resize(cq, 300), -EIO);
	TEST_CHECK_EQ(rdmadev_cq_size(cq), 500);
	CHECK_COUNTS(id, 1, 1, 0, 0, 1);

	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	TEST_CHECK_EQ(rdmadev_qp_num(qp), 3);	/* QP 0..2 reserved */
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RESET);
	CHECK_COUNTS(id, 1, 1, 1, 0, 1);
	{
		struct rdmadev_qp_init_attr got;

		TEST_CHECK_EQ(rdmadev_qp_query(qp, NULL, &got), 0);
		TEST_CHECK_EQ(got.cap.max_send_wr, 8);	/* raised by the driver */
		TEST_CHECK(got.pd == pd && got.send_cq == cq);
	}

	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), 0);
	TEST_CHECK_EQ(rdmadev_mr_lkey(mr), 1u << 8 | 1);	/* STag index 0 reserved */
	TEST_CHECK_EQ(rdmadev_mr_rkey(mr), rdmadev_mr_lkey(mr));
	TEST_CHECK_EQ(rdmadev_mr_reg_dma(pd, RDMADEV_ACCESS_LOCAL_WRITE, &dmr), 0);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(pd, 0, &fmr), -EINVAL);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(pd, 513, &fmr), -EINVAL);
	TEST_CHECK_EQ(rdmadev_mr_alloc_fast_reg(pd, 512, &fmr), 0);
	CHECK_COUNTS(id, 1, 1, 1, 3, 1);

	aha.port_num = 0;
	TEST_CHECK_EQ(rdmadev_ah_create(pd, &aha, &ah), -EINVAL);
	aha.port_num = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(pd, NULL, &ah), -EINVAL);
	TEST_CHECK_EQ(rdmadev_ah_create(pd, &aha, &ah), 0);

	TEST_CHECK_EQ(rdmadev_counter_alloc(ctx, &cnt), 0);
	TEST_CHECK_EQ(td_count(id, RESTRACK_COUNTER), 1);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(cnt, qp), 0);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(cnt, qp), -EBUSY);
	TEST_CHECK_EQ(rdmadev_counter_read(cnt, xs, 2), 1);
	TEST_CHECK_EQ(xs[0].value, 1);
	TEST_CHECK_EQ(rdmadev_counter_free(cnt), -EBUSY);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(cnt, qp), 0);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(cnt, qp), -EINVAL);
	td_fail_next(TD_COUNTER_BIND, 1);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(cnt, qp), -EIO);
	TEST_CHECK_EQ(rdmadev_counter_read(cnt, xs, 2), 1);
	TEST_CHECK_EQ(xs[0].value, 0);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(cnt, qp), 0);	/* destroyed with the QP */

	TEST_CHECK_EQ(rdmadev_comp_cntr_create(ctx, &cc), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_read(cc, &v), 0);
	TEST_CHECK_EQ(v, 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_read(cc, NULL), -EINVAL);
	cqa.comp_cntr = cc;
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq2), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_destroy(cc), -EBUSY);
	dma.cpu_id = -2;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(ctx, &dma, &dmah), -EINVAL);
	dma.cpu_id = 0;
	dma.ph = 4;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(ctx, &dma, &dmah), -EINVAL);
	dma.ph = 1;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(ctx, &dma, &dmah), 0);
	TEST_CHECK_EQ(td_count(id, RESTRACK_DMAH), 1);
	{
		struct rdmadev_mr *mr2;

		mra.dmah = dmah;
		TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr2), 0);
		mra.dmah = NULL;
		TEST_CHECK_EQ(rdmadev_dmah_free(dmah), -EBUSY);
		TEST_CHECK_EQ(rdmadev_mr_dereg(mr2), 0);
	}
	TEST_CHECK_EQ(rdmadev_cm_id_create(ctx, &cm), 0);
	TEST_CHECK_EQ(td_count(id, RESTRACK_CM_ID), 1);

	/* in use */
	TEST_CHECK_EQ(rdmadev_pd_free(pd), -EBUSY);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), -EBUSY);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), -EBUSY);
	CHECK_COUNTS(id, 1, 2, 1, 3, 1);
	TEST_CHECK_EQ(rdmadev_stats_get(id, &st), 0);
	TEST_CHECK_EQ(st.created[RDMADEV_OBJ_MR], 4);
	TEST_CHECK_EQ(st.destroyed[RDMADEV_OBJ_MR], 1);
	TEST_CHECK(st.errors >= 10);

	/* teardown, children first */
	TEST_CHECK_EQ(rdmadev_cm_id_destroy(cm), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	CHECK_COUNTS(id, 1, 2, 0, 3, 1);
	TEST_CHECK_EQ(rdmadev_counter_read(cnt, xs, 2), 1);
	TEST_CHECK_EQ(xs[0].value, 0);
	TEST_CHECK_EQ(rdmadev_counter_free(cnt), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq2), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_destroy(cc), 0);
	TEST_CHECK_EQ(rdmadev_dmah_free(dmah), 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(dmr), 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(fmr), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), -EBUSY);	/* the AH */
	TEST_CHECK_EQ(rdmadev_ah_destroy(ah), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	CHECK_COUNTS(id, 0, 0, 0, 0, 0);
	for (v = 0; v < RESTRACK_MAX; v++)
		TEST_CHECK_EQ(td_count(id, (enum restrack_type)v), 0);
	TEST_CHECK_EQ(td_live_objects(), live);
	TEST_CHECK_EQ(td_dev_down(id), 0);
}

static void
test_object_errors(void)
{
	static char buf[4096];
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	int16_t id2 = (int16_t)td_dev_up("rdma_test1");
	int16_t id3 = (int16_t)td_dev_up("rdma_test2,gen=3");
	int16_t idm = (int16_t)td_dev_up("rdma_testmin0");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf),
				       .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_srq_attr sra = { .max_wr = 64, .max_sge = 1 };
	struct rdmadev_ctx *ctx, *ctxb, *ctx2, *ctx3, *ctxm;
	struct rdmadev_pd *pd, *pdb, *pd2, *pd3;
	struct rdmadev_cq *cq, *cqb, *cq2, *cq3;
	struct rdmadev_qp_init_attr qpa;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	struct rdmadev_srq *srq;
	struct rdmadev_mw *mw;
	FILE *f;

	TEST_CHECK(id >= 0 && id2 >= 0 && id3 >= 0 && idm >= 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctxb), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id2, &ctx2), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id3, &ctx3), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(idm, &ctxm), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(NULL, &pd), -EINVAL);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctxb, &pdb), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx2, &pd2), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx3, &pd3), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, NULL, &cq), -EINVAL);
	cqa.cqe = 0;
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), -EINVAL);
	cqa.cqe = 1048575;
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), -EINVAL);
	cqa.cqe = 16;
	cqa.comp_vector = 1;	/* one configured */
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), -EINVAL);
	cqa.comp_vector = 0;
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctxb, &cqa, &cqb), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx2, &cqa, &cq2), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx3, &cqa, &cq3), 0);
	CHECK_COUNTS(id, 2, 2, 0, 0, 2);

	/* QP argument checks */
	TEST_CHECK_EQ(rdmadev_qp_create(NULL, &qp), -EINVAL);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, NULL), -EINVAL);
	qpa.qp_type = 3;	/* UC */
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	qpa.cap.max_send_wr = 0;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa.cap.max_send_wr = 4064;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	qpa.cap.max_recv_sge = 14;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_UD);
	qpa.cap.max_inline_data = 102;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	qpa.recv_cq = NULL;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cq2, RDMADEV_QPT_RC);	/* CQ of another device */
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pd, cqb, RDMADEV_QPT_RC);	/* CQ of another context */
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	qpa = qp_attr(pdb, cq, RDMADEV_QPT_UD);	/* PD of another context */
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EINVAL);
	CHECK_COUNTS(id, 2, 2, 0, 0, 2);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cqb), 0);	/* no use left behind */
	td_fail_next(TD_QP_CREATE, 1);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_UD);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), -EIO);
	CHECK_COUNTS(id, 2, 1, 0, 0, 2);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	/* failed creates released their QPNs; the cyclic allocator moved on past them */
	TEST_CHECK(rdmadev_qp_num(qp) > 3 && rdmadev_qp_num(qp) < 1024);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);

	/* MR rules */
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, NULL, &mr), -EINVAL);
	mra.length = 0;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	mra.length = UINT64_C(0x200000000001);
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	mra.length = sizeof(buf);
	mra.access = RDMADEV_ACCESS_REMOTE_WRITE;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	mra.access = RDMADEV_ACCESS_REMOTE_ATOMIC;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	mra.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_ATOMIC;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -ENOTSUP);	/* gen2: no atomics */
	TEST_CHECK_EQ(rdmadev_mr_reg(pd3, &mra, &mr), 0);	/* gen3 */
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	mra.access = RDMADEV_ACCESS_MW_BIND;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -ENOTSUP);
	mra.access = RTE_BIT32(10);
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	mra.addr = NULL;
	mra.access = 0;
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), -EINVAL);
	TEST_CHECK_EQ(rdmadev_mr_reg_dma(pd, RDMADEV_ACCESS_REMOTE_READ, &mr), -EINVAL);
	td_fail_next(TD_MR_REG, 1);
	TEST_CHECK_EQ(rdmadev_mr_reg_dma(pd, 0, &mr), -EIO);
	CHECK_COUNTS(id, 2, 1, 0, 0, 2);

	/* gen2: no SRQ, no MW; gen3: both */
	TEST_CHECK_EQ(rdmadev_srq_create(pd, &sra, &srq), -ENOTSUP);
	TEST_CHECK_EQ(rdmadev_mw_alloc(pd, &mw), -ENOTSUP);
	TEST_CHECK_EQ(rdmadev_srq_create(pd3, NULL, &srq), -EINVAL);
	sra.max_wr = 5000;
	TEST_CHECK_EQ(rdmadev_srq_create(pd3, &sra, &srq), -EINVAL);
	sra.max_wr = 64;
	TEST_CHECK_EQ(rdmadev_srq_create(pd3, &sra, &srq), 0);
	TEST_CHECK_EQ(td_count(id3, RESTRACK_SRQ), 1);
	qpa = qp_attr(pd3, cq3, RDMADEV_QPT_RC);
	qpa.srq = srq;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	TEST_CHECK_EQ(rdmadev_srq_destroy(srq), -EBUSY);
	TEST_CHECK_EQ(rdmadev_mw_alloc(pd3, &mw), 0);
	TEST_CHECK_EQ(td_count(id3, RESTRACK_MR), 1);	/* MWs share the STag space */
	f = fmemopen(test_buf, sizeof(test_buf), "w");
	TEST_CHECK_EQ(rdmadev_res_dump(id3, RESTRACK_MR, f), 0);
	fclose(f);
	TEST_CHECK(strstr(test_buf, "type mw") != NULL);
	TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_srq_destroy(srq), 0);
	TEST_CHECK_EQ(td_count(id3, RESTRACK_SRQ), 0);

	/* a driver without ops */
	{
		struct rdmadev_pd *pdm;

		TEST_CHECK_EQ(rdmadev_pd_alloc(ctxm, &pdm), -ENOTSUP);
		TEST_CHECK_EQ(rdmadev_cq_create(ctxm, &cqa, &cq3), -ENOTSUP);
		TEST_CHECK_EQ(rdmadev_counter_alloc(ctxm, NULL), -EINVAL);
		TEST_CHECK_EQ(td_count(idm, RESTRACK_PD), 0);
		TEST_CHECK_EQ(rdmadev_xstats_get(idm, NULL, 0), -ENOTSUP);
	}

	/* objects after the device stopped */
	TEST_CHECK_EQ(rdmadev_stop(id), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pdb), -EINVAL);
	TEST_CHECK_EQ(rdmadev_start(id), 0);

	TEST_CHECK_EQ(rdmadev_pd_free(NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_destroy(NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_destroy(NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq2), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq3), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pdb), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd2), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd3), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctxb), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx2), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx3), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctxm), 0);
	TEST_CHECK_EQ(td_dev_down(id), 0);
	TEST_CHECK_EQ(td_dev_down(id2), 0);
	TEST_CHECK_EQ(td_dev_down(id3), 0);
	TEST_CHECK_EQ(td_dev_down(idm), 0);
}

/* A destroy the driver refuses leaves the object tracked, visible and usable. */
static void
test_fault_injection(void)
{
	static char buf[4096];
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf) };
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1, .qkey = 7 };
	uint32_t mask = RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			RDMADEV_QP_QKEY;
	struct rdmadev_qp_init_attr qpa;
	struct restrack_entry *e;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	struct rdmadev_stats st;
	uint64_t calls;
	uint32_t pdn;

	td_fail_next(TD_CTX_ALLOC, 1);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_CTX), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	td_fail_next(TD_PD_ALLOC, 1);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_PD), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	pdn = rdmadev_pd_id(pd);

	td_fail_next(TD_PD_FREE, 1);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_PD), 1);
	TEST_CHECK_EQ(restrack_get_byid(rdmadev_get(id)->res, RESTRACK_PD, pdn, &e), 0);
	TEST_CHECK(e == &pd->obj.res);
	restrack_put(e);
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), 0);	/* still usable */
	td_fail_next(TD_MR_DEREG, 1);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), -EIO);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), -EBUSY);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);

	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_UD);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	td_fail_next(TD_QP_MODIFY, 1);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, mask), -EIO);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RESET);
	td_fail_next(TD_QP_DESTROY, 1);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_QP), 1);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, mask), 0);	/* still usable */
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_INIT);
	calls = td_calls(TD_CQ_DESTROY);
	td_fail_next(TD_CQ_DESTROY, 1);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), -EBUSY);	/* the QP first: no driver call */
	TEST_CHECK_EQ(td_calls(TD_CQ_DESTROY), calls);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_CQ), 1);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	td_fail_next(TD_CTX_FREE, 1);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), -EIO);
	TEST_CHECK_EQ(td_count(id, RESTRACK_CTX), 1);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(rdmadev_stats_get(id, &st), 0);
	TEST_CHECK_EQ(st.driver_errors, 8);
	TEST_CHECK_EQ(td_dev_down(id), 0);
	td_reset();
}

/* rdmadev_post_send_tmpl() with the log captured into @p log (@p cap bytes). */
static uint16_t
post_tmpl_logged(struct rdmadev_qp *qp, const struct rdmadev_send_tmpl *t,
		 const struct rdmadev_tmpl_wr *wr, int *err, char *log, size_t cap)
{
	FILE *f = fmemopen(log, cap, "w");
	uint16_t n;

	memset(log, 0, cap);
	if (f == NULL)
		return rdmadev_post_send_tmpl(qp, t, wr, 1, err);
	setvbuf(f, NULL, _IONBF, 0);
	rte_openlog_stream(f);
	n = rdmadev_post_send_tmpl(qp, t, wr, 1, err);
	rte_openlog_stream(NULL);
	fclose(f);
	log[cap - 1] = '\0';
	return n;
}

static void
test_fast_path(void)
{
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_send_wr swr[4];
	struct rdmadev_recv_wr rwr[3];
	struct rdmadev_wc wc[8];
	struct rdmadev_qp_init_attr qpa;
	struct rdmadev_sge tsge = { .addr = 0x1000, .length = 8 };
	struct rdmadev_tmpl_wr twr = { .wr_id = 1, .length = 8 };
	struct rdmadev_send_tmpl tmpl;
	struct rdmadev_ctx *ctx;
	char log[512];
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
	uint64_t sent = td_posted_send(), recvd = td_posted_recv();
	int err = 1;

	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_send_wr) != 64);
	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_recv_wr) != 24);
	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_wc) != 48);
	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_fp_obj) != RTE_CACHE_LINE_SIZE);
	TEST_CHECK(((uintptr_t)&rdmadev_fp_objs[1] % RTE_CACHE_LINE_SIZE) == 0);
	memset(swr, 0, sizeof(swr));
	memset(rwr, 0, sizeof(rwr));
	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	qpa = qp_attr(pd, cq, RDMADEV_QPT_RC);
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	swr[0].opcode = RDMADEV_WR_SEND;
	swr[1].opcode = RDMADEV_WR_RDMA_WRITE;
	swr[2].opcode = RDMADEV_WR_RDMA_READ;
	swr[3].opcode = RDMADEV_WR_NOP;
	TEST_CHECK_EQ(rdmadev_post_send(qp, swr, 4, &err), 4);
	TEST_CHECK_EQ(err, 0);
	swr[2].opcode = RDMADEV_WR_OPCODE_MAX;
	TEST_CHECK_EQ(rdmadev_post_send(qp, swr, 4, &err), 2);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(td_posted_send() - sent, 6);
	TEST_CHECK_EQ(rdmadev_post_recv(qp, rwr, 3, &err), 3);
	TEST_CHECK_EQ(td_posted_recv() - recvd, 3);
	td_cq_ready(5);
	TEST_CHECK_EQ(rdmadev_poll_cq(cq, wc, 8), 5);
	TEST_CHECK_EQ(wc[4].wr_id, 5);
	TEST_CHECK_EQ(wc[0].qp_num, rdmadev_cq_id(cq));
	TEST_CHECK_EQ(rdmadev_poll_cq(cq, wc, 8), 0);
	/* RDMADEV_DEBUG checks */
	TEST_CHECK_EQ(rdmadev_post_send(NULL, swr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(rdmadev_post_recv(qp, NULL, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(rdmadev_poll_cq(NULL, wc, 8), 0);
	TEST_CHECK_EQ(rdmadev_cq_arm(NULL, 0), -EINVAL);
	/* send templates: the test driver has none (-ENOTSUP, the template zeroed) */
	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_send_tmpl) != 64);
	RTE_BUILD_BUG_ON(sizeof(struct rdmadev_tmpl_wr) != 32);
	swr[0].sg_list = &tsge;
	swr[0].num_sge = 1;
	memset(&tmpl, 0x5a, sizeof(tmpl));
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(qp, &swr[0], &tmpl), -ENOTSUP);
	TEST_CHECK(tmpl.qp_drv == NULL);
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(NULL, &tmpl, &twr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* posted on the started device: refused, nothing posted, the line names the template */
	err = 0;
	TEST_CHECK_EQ(post_tmpl_logged(qp, &tmpl, &twr, &err, log, sizeof(log)), 0);
	TEST_CHECK_EQ(err, -ENOTSUP);
	TEST_CHECK(strstr(log, "post_send_tmpl: the device's driver has no send templates: the "
			   "template was never initialised") != NULL);
	TEST_CHECK(strstr(log, "not started") == NULL);
	TEST_CHECK_EQ(td_posted_send() - sent, 6);

	/* stopped: the slot holds the dummies */
	TEST_CHECK_EQ(rdmadev_stop(id), 0);
	TEST_CHECK(rdmadev_fp_objs[id].post_send != NULL);
	err = 0;
	TEST_CHECK_EQ(rdmadev_post_send(qp, swr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENODEV);
	err = 0;
	TEST_CHECK_EQ(rdmadev_post_recv(qp, rwr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENODEV);
	err = 0;
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(qp, &tmpl, &twr, 1, &err), 0);
	TEST_CHECK_EQ(err, -ENODEV);
	td_cq_ready(2);
	TEST_CHECK_EQ(rdmadev_poll_cq(cq, wc, 8), 0);
	td_cq_ready(0);
	TEST_CHECK_EQ(rdmadev_cq_arm(cq, 0), -ENODEV);
	TEST_CHECK_EQ(td_posted_send() - sent, 6);
	TEST_CHECK_EQ(rdmadev_start(id), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(td_dev_down(id), 0);
	/* a closed slot too */
	TEST_CHECK(rdmadev_fp_objs[id].poll_cq != NULL);
}

static void
test_leaks(void)
{
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	int64_t live = td_live_objects();
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_ah_attr aha = { .port_num = 1 };
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_ah *ah;
	struct rdmadev_cm_id *cm;
	char *log;

	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	TEST_CHECK_EQ(rdmadev_ah_create(pd, &aha, &ah), 0);
	TEST_CHECK_EQ(rdmadev_cm_id_create(ctx, &cm), 0);
	TEST_CHECK_EQ(rdmadev_cm_listen(cm, NULL, 0), 0);
	TEST_CHECK_EQ(rdmadev_stop(id), 0);
	td_log_start();
	TEST_CHECK_EQ(rdmadev_close(id), 5);	/* ctx, pd, cq, cm_id tracked; the AH not */
	log = td_log_stop();
	TEST_CHECK(strstr(log, "User PD object 3") != NULL);
	TEST_CHECK(strstr(log, "is not freed") != NULL);
	TEST_CHECK(strstr(log, "closed with 5 leaked objects (1 without an ID)") != NULL);
	free(log);
	TEST_CHECK_EQ(td_live_objects(), live);	/* released through the driver */
}

int
main(void)
{
	if (test_eal_init("test_rdmadev_api", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_registry);
	TEST_RUN(test_lifecycle);
	TEST_RUN(test_info);
	TEST_RUN(test_objects);
	TEST_RUN(test_object_errors);
	TEST_RUN(test_fault_injection);
	TEST_RUN(test_fast_path);
	TEST_RUN(test_leaks);
	rte_eal_cleanup();
	return test_done();
}
