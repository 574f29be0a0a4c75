/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_FIXTURE_H
#define IRDMA_TEST_FIXTURE_H

/*
 * The fixture of the tests that run the PMD on the device model, and its variant.
 *
 * Variant: the model's mode, "inline" (nothing runs on its own: deterministic) or "thread"
 * (the model's own thread). One binary runs either; meson runs it once per variant with
 * IRDMA_TEST_VARIANT=inline or =thread in its environment (test names <name>_inline and
 * <name>_thread). Without the variable the variant is "inline"; any other value stops the
 * program with a TAP "Bail out!".
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

/** The variant this run was asked for: "inline" or "thread" (IRDMA_TEST_VARIANT). */
static inline const char *
test_variant(void)
{
	const char *v = getenv("IRDMA_TEST_VARIANT");

	if (v == NULL || v[0] == '\0' || strcmp(v, "inline") == 0)
		return "inline";
	if (strcmp(v, "thread") == 0)
		return "thread";
	printf("Bail out! IRDMA_TEST_VARIANT=%s: not inline or thread\n", v);
	exit(1);
}

/** Whether the variant is the model's thread mode. */
static inline bool
test_variant_thread(void)
{
	return strcmp(test_variant(), "thread") == 0;
}

/** The model mode of the variant, for tests that create a model directly. */
static inline enum irdma_model_mode
test_variant_model_mode(void)
{
	return test_variant_thread() ? IRDMA_MODEL_MODE_THREAD : IRDMA_MODEL_MODE_INLINE;
}

/**
 * @p devargs with ",mode=<variant>" appended, in one of four static buffers used in turn
 * (so that two results may be live at once); @p devargs itself when it names a mode already
 * (a case that needs one model mode whatever the variant). Longer devargs stop the program.
 */
static inline const char *
test_variant_devargs(const char *devargs)
{
	static char bufs[4][256];
	static unsigned int next;
	char *b = bufs[next++ % 4];

	if (strstr(devargs, ",mode=") != NULL)
		return devargs;
	if ((size_t)snprintf(b, sizeof(bufs[0]), "%s,mode=%s", devargs, test_variant()) >=
	    sizeof(bufs[0])) {
		printf("Bail out! devargs too long: %s\n", devargs);
		exit(1);
	}
	return b;
}

/**
 * test_eal_init() under @p prog with the variant appended ("<prog>_<variant>": one EAL
 * file prefix per variant), and the variant printed as a TAP comment.
 */
static inline int
test_variant_eal_init(const char *prog)
{
	char name[128];

	snprintf(name, sizeof(name), "%s_%s", prog, test_variant());
	printf("# model mode: %s\n", test_variant());
	return test_eal_init(name, NULL);
}

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

#endif /* IRDMA_TEST_FIXTURE_H */
