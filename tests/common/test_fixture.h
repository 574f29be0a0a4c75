/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_FIXTURE_H
#define IRDMA_TEST_FIXTURE_H

/*
 * The fixture of the tests that run the PMD on the device model, and its variant.
 *
 * Variant: the model's mode, inline or thread (test_variant.h).
 *
 * Fixture: struct test_env, a device of the model opened from the test's devargs with the
 * variant's mode appended, configured with one completion vector and started, with a
 * context, a PD and 0, 1 (cq) or 2 (scq, rcq) CQs of 64 entries. test_env_down() destroys
 * the CQs, checks that the test left no QP, CQ or MR behind, that the model saw every DMA
 * mapping unmapped, no DMA fault and no refused mapping, and that the devices open are those
 * that were open before test_env_up().
 *
 * Header only, for the programs of tests/irdma (pmd_fixture.h gives the device bring-up).
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_variant.h"

/** A device of the model with a context, a PD and the CQs the test asked for. */
struct test_env {
	int id;				/**< rdmadev device id (negative: none) */
	struct irdma_hw *hw;		/**< the model behind it */
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;		/**< nb_cqs 1 */
	struct rdmadev_cq *scq;		/**< nb_cqs 2: send CQ */
	struct rdmadev_cq *rcq;		/**< nb_cqs 2: receive CQ */
	struct irdma_model_stats st;	/**< the model's statistics at test_env_down() */
	int devs_before;		/**< devices open before test_env_up() */
};

/*
 * Bring up @p e: open test_variant_devargs(@p devargs), configure, start, a context, a PD
 * and @p nb_cqs CQs (0, 1 or 2). 0 when everything is there, else -1 (what was had is in
 * @p e, for test_env_down()).
 */
static inline int
test_env_up(struct test_env *e, const char *devargs, unsigned int nb_cqs)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 64, .comp_vector = 0 };

	memset(e, 0, sizeof(*e));
	e->devs_before = (int)rdmadev_count();
	if (pmd_dev_up(test_variant_devargs(devargs), &e->id, &e->ctx, &e->pd) != 0)
		return -1;
	e->hw = pmd_hw(e->id);
	TEST_CHECK(e->hw != NULL);
	if (nb_cqs == 1)
		TEST_CHECK_EQ(rdmadev_cq_create(e->ctx, &cqa, &e->cq), 0);
	if (nb_cqs == 2) {
		TEST_CHECK_EQ(rdmadev_cq_create(e->ctx, &cqa, &e->scq), 0);
		TEST_CHECK_EQ(rdmadev_cq_create(e->ctx, &cqa, &e->rcq), 0);
	}
	if (e->hw == NULL || (nb_cqs == 1 && e->cq == NULL) ||
	    (nb_cqs == 2 && (e->scq == NULL || e->rcq == NULL)))
		return -1;
	return 0;
}

/* Tear @p e down with the checks above (nothing when no device was opened). */
static inline void
test_env_down(struct test_env *e)
{
	struct rdmadev *dev;
	int own_cqs;

	if (e->id < 0)
		return;
	dev = rdmadev_get((int16_t)e->id);
	own_cqs = (e->cq != NULL) + (e->scq != NULL) + (e->rcq != NULL);
	if (dev != NULL) {
		TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_QP, NULL), 0);
		TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_CQ, NULL), own_cqs);
		TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_MR, NULL), 0);
	}
	if (e->rcq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(e->rcq), 0);
	if (e->scq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(e->scq), 0);
	if (e->cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(e->cq), 0);
	pmd_dev_down(e->id, e->ctx, e->pd, &e->st);
	TEST_CHECK_EQ(e->st.dma_map_refused, 0);
	TEST_CHECK_EQ(rdmadev_count(), e->devs_before);
}

/* test_env_up(), and test_env_down() at once when it fails: true when @p e is up. */
static inline bool
test_env_ready(struct test_env *e, const char *devargs, unsigned int nb_cqs)
{
	if (test_env_up(e, devargs, nb_cqs) == 0)
		return true;
	test_env_down(e);
	return false;
}

#endif /* IRDMA_TEST_FIXTURE_H */
