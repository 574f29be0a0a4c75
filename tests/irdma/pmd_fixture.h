/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef PMD_FIXTURE_H
#define PMD_FIXTURE_H

/*
 * What the PMD tests on the device model share (test_irdma_qp.c, _cq.c, _events.c, _ah.c,
 * _cntr.c, _port.c, _mr.c, _dump.c, test_irdma_cqp_conformance.c): a device opened,
 * configured with one completion vector and started, with a context and a PD; its teardown,
 * which checks that the model saw every DMA mapping unmapped and no DMA fault; a small QP;
 * the tests' field decoder (tests/common/test_bits.h); the DMA hook of external memory (also
 * test_model_engine.c's); a bare control path on a model of its own, without rdmadev.
 * tests/common/test_fixture.h builds its struct test_env on these.
 * Header only: these programs link no helper library.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pbl.h>
#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "test.h"
#include "test_variant.h"

/* The device model behind rdmadev device @p id. */
static inline struct irdma_hw *
pmd_hw(int id)
{
	return irdma_dev_hw(rdmadev_get((int16_t)id));
}

/*
 * Open @p devargs into @p id (negative when refused), configure and start it, allocate a
 * context into @p ctx and a PD into @p pd (each NULL when it could not be had). 0 when all
 * are there.
 */
static inline int
pmd_dev_up(const char *devargs, int *id, struct rdmadev_ctx **ctx, struct rdmadev_pd **pd)
{
	static const struct rdmadev_conf one_vector = { .nb_comp_vectors = 1 };

	*ctx = NULL;
	*pd = NULL;
	*id = rdmadev_open(devargs);
	TEST_CHECK(*id >= 0);
	if (*id < 0)
		return -1;
	TEST_CHECK_EQ(rdmadev_configure((int16_t)*id, &one_vector), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)*id), 0);
	TEST_CHECK_EQ(rdmadev_ctx_alloc((int16_t)*id, ctx), 0);
	if (*ctx != NULL)
		TEST_CHECK_EQ(rdmadev_pd_alloc(*ctx, pd), 0);
	return *pd != NULL ? 0 : -1;
}

/*
 * Free @p pd and @p ctx (those not NULL), stop and close device @p id (nothing when @p id is
 * negative): the model's statistics before the close, into @p st, show every DMA mapping
 * unmapped and no DMA fault.
 */
static inline void
pmd_dev_down(int id, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd,
	     struct irdma_model_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (id < 0)
		return;
	if (pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	if (ctx != NULL)
		TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), st), 0);
	TEST_CHECK_EQ(st->dma_maps, st->dma_unmaps);
	TEST_CHECK_EQ(st->dma_faults, 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/*
 * An RC or UD QP of @p type on @p pd with @p cq for sends and receives, @p depth WRs of one
 * SGE each way (NULL when it could not be created).
 */
static inline struct rdmadev_qp *
pmd_qp_create(struct rdmadev_pd *pd, struct rdmadev_cq *cq, enum rdmadev_qp_type type,
	      uint32_t depth)
{
	struct rdmadev_qp_init_attr a = {
		.pd = pd, .send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct rdmadev_qp *qp = NULL;

	TEST_CHECK_EQ(rdmadev_qp_create(&a, &qp), 0);
	return qp;
}

/* The decoder of contexts and WQEs: test_le_bits() and the others of tests/common. */
#include "test_bits.h"

static inline int
pmd_hook_map(void *hw, void *va, rte_iova_t iova, size_t len)
{
	return irdma_hw_dma_map(hw, va, iova, len);
}

static inline int
pmd_hook_unmap(void *hw, void *va, rte_iova_t iova, size_t len)
{
	return irdma_hw_dma_unmap(hw, va, iova, len);
}

/* The DMA hook of a test's external memory: mapped in the model's IOMMU view of @p hw. */
static inline struct pbl_dma_hook
pmd_dma_hook(struct irdma_hw *hw)
{
	return (struct pbl_dma_hook){ .map = pmd_hook_map, .unmap = pmd_hook_unmap, .ctx = hw };
}

/*
 * A bare control path, no rdmadev: a model of the default configuration in the variant's mode
 * into @p hw, and @p c initialised for @p req on it and brought up.
 */
static inline void
pmd_raw_up(struct irdma_hw *hw, struct irdma_ctrl *c, const struct irdma_hmc_request *req)
{
	struct irdma_model_config cfg;

	memset(hw, 0, sizeof(*hw));
	irdma_model_config_default(&cfg);
	cfg.mode = test_variant_model_mode();
	TEST_CHECK_EQ(irdma_model_create(&cfg, hw), 0);
	TEST_CHECK_EQ(irdma_ctrl_init(c, hw, req), 0);
	TEST_CHECK_EQ(irdma_ctrl_bringup(c), 0);
}

/* Tear down what pmd_raw_up() made. */
static inline void
pmd_raw_down(struct irdma_hw *hw, struct irdma_ctrl *c)
{
	irdma_ctrl_teardown(c);
	irdma_ctrl_fini(c);
	irdma_model_destroy(hw);
}

#endif /* PMD_FIXTURE_H */
