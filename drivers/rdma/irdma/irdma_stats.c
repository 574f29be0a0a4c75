/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Hardware statistics of the irdma PMD: statistics counters (rdmadev COUNTER objects, one
 * device statistics instance each) and the device counters (xstats, the function's default
 * instance), both read with GATHER_STATS (base/irdma_stats.h; the kernel's
 * irdma_cqp_stats_inst_cmd, irdma_cqp_gather_stats_cmd and irdma_update_stats), in the
 * gather layout and with the names of the device's generation (gen2: 46 counters, gen3: 57).
 *
 * An instance is allocated with MANAGE_STATS (the device returns its index in the CCQ
 * OPRETVAL) and freed with MANAGE_STATS; the driver keeps a bitmap of the instances it holds
 * and refuses an index the device returns twice or out of range. A QP is bound to an
 * instance through its context (QPC_USESTATSINSTANCE + QPC_STAT_INDEX, irdma_qp.c).
 *
 * The device counters wrap at their width; every reader keeps the last raw value of each
 * counter and a 64-bit total it advances by the difference modulo the width, so the values
 * returned are monotonic 64-bit counts as long as a counter is read before it wraps twice.
 * One DMA buffer (allocated at start) receives every gather, under the table's lock.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_log.h"
#include "irdma_qp.h"
#include "irdma_stats.h"

/** Running totals of one instance as a reader sees it. */
struct irdma_stats_acc {
	uint64_t last[IRDMA_HW_STAT_GEN3_MAX];	/**< last raw values gathered */
	uint64_t total[IRDMA_HW_STAT_GEN3_MAX];	/**< 64-bit totals */
};

/** The statistics state of one started device. */
struct irdma_stats_tab {
	pthread_mutex_t lock;			/**< buffer, bitmap, accumulators */
	struct irdma_dma_mem buf;		/**< gather buffer */
	uint64_t owned[IRDMA_MAX_STATS_INSTANCES / 64];	/**< instances the driver holds */
	struct irdma_stats_acc dev;		/**< the default instance */
	uint64_t base[IRDMA_HW_STAT_GEN3_MAX];	/**< xstats_reset baseline */
};

/** The driver's part of a COUNTER. */
struct irdma_counter {
	uint32_t inst;			/**< statistics instance */
	struct irdma_stats_acc acc;	/**< its totals */
};

static bool
owned_test(const struct irdma_stats_tab *t, uint32_t i)
{
	return (t->owned[i / 64] >> (i % 64)) & 1;
}

static void
owned_assign(struct irdma_stats_tab *t, uint32_t i, bool v)
{
	if (v)
		t->owned[i / 64] |= UINT64_C(1) << (i % 64);
	else
		t->owned[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

int
irdma_stats_init(struct irdma_ctrl *c)
{
	struct irdma_stats_tab *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		IRDMA_LOG(ERR, c->hw, "statistics: no memory");
		return -ENOMEM;
	}
	ret = -pthread_mutex_init(&t->lock, NULL);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &t->buf, IRDMA_GATHER_STATS_BUF_SIZE,
				      IRDMA_GATHER_STATS_BUF_ALIGN);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "statistics: no gather buffer: %s", strerror(-ret));
		free(t);
		return ret;
	}
	/* The default instance belongs to the function: never allocated nor freed. */
	owned_assign(t, c->hmc_fn_id, true);
	c->stats = t;
	return 0;
}

void
irdma_stats_fini(struct irdma_ctrl *c)
{
	struct irdma_stats_tab *t = c->stats;
	uint32_t i, leaked = 0;

	if (t == NULL)
		return;
	for (i = IRDMA_FIRST_NON_PF_STAT; i < IRDMA_MAX_STATS_INSTANCES; i++)
		leaked += owned_test(t, i);
	if (leaked != 0)
		IRDMA_LOG(ERR, c->hw, "statistics: %u instances still allocated", leaked);
	irdma_dma_free(c, &t->buf);
	pthread_mutex_destroy(&t->lock);
	free(t);
	c->stats = NULL;
}

uint32_t
irdma_stats_live(const struct irdma_ctrl *c)
{
	const struct irdma_stats_tab *t = c->stats;
	uint32_t i, n = 0;

	for (i = IRDMA_FIRST_NON_PF_STAT; t != NULL && i < IRDMA_MAX_STATS_INSTANCES; i++)
		n += owned_test(t, i);
	return n;
}

/* MANAGE_STATS: allocate (@p alloc, the index comes back in *inst) or free *inst. */
static int
irdma_stats_manage(struct irdma_ctrl *c, bool alloc, uint32_t *inst)
{
	struct irdma_cqp_cmpl cmpl = { 0 };
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_MANAGE_STATS);
	irdma_set(&w, CQP_STATS_HMC_FCN_INDEX, c->hmc_fn_id);
	irdma_set(&w, CQP_STATS_ALLOC_INST, alloc ? 1 : 0);
	if (!alloc)
		irdma_set(&w, CQP_STATS_INST_INDEX, *inst);
	ret = irdma_cqp_exec(c, &w, &cmpl);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "MANAGE_STATS %s failed: %s",
			  alloc ? "allocate" : "free", strerror(-ret));
		return ret;
	}
	if (alloc)
		*inst = cmpl.op_ret;
	return 0;
}

/* GATHER_STATS of @p inst into the buffer, then advance @p acc (table lock held). */
static int
irdma_stats_gather(struct irdma_ctrl *c, uint32_t inst, struct irdma_stats_acc *acc)
{
	struct irdma_stats_tab *t = c->stats;
	const rte_le64_t *qw = t->buf.va;
	struct irdma_cqp_wqe w;
	unsigned int s;
	int ret;

	memset(t->buf.va, 0, t->buf.len);
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_GATHER_STATS);
	irdma_set(&w, CQP_STATS_HMC_FCN_INDEX, c->hmc_fn_id);
	irdma_set(&w, CQP_STATS_BUF_PA, t->buf.iova);
	irdma_set(&w, CQP_STATS_USE_INST, 1);
	irdma_set(&w, CQP_STATS_INST_INDEX, inst);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "GATHER_STATS of instance %u failed: %s", inst,
			  strerror(-ret));
		return ret;
	}
	for (s = 0; s < irdma_hw_stat_count(c->hw->gen); s++) {
		const struct irdma_hw_stat_desc *d = irdma_hw_stat_desc_of(c->hw->gen, s);
		uint64_t raw = irdma_hw_stat_extract(d, irdma_qw_get(&qw[d->byte / 8]));

		acc->total[s] += irdma_hw_stat_delta(raw, acc->last[s], d->bits);
		acc->last[s] = raw;
	}
	return 0;
}

/* Fill up to @p n entries with @p gen's names and @p total - @p base; the count. */
static int
irdma_stats_fill(unsigned int gen, struct rdmadev_xstat *xs, unsigned int n,
		 const uint64_t *total, const uint64_t *base)
{
	unsigned int s;

	for (s = 0; s < irdma_hw_stat_count(gen) && s < n; s++) {
		snprintf(xs[s].name, sizeof(xs[s].name), "%s", irdma_hw_stat_desc_of(gen, s)->name);
		xs[s].value = total[s] - (base != NULL ? base[s] : 0);
	}
	return (int)irdma_hw_stat_count(gen);
}

int
irdma_counter_alloc(struct irdma_ctrl *c, struct rdmadev_counter *cnt)
{
	struct irdma_stats_tab *t = c->stats;
	struct irdma_counter *k;
	uint32_t inst = 0;
	int ret;

	if (t == NULL) {
		IRDMA_LOG(ERR, c->hw, "counter alloc: device not started");
		return -ENODEV;
	}
	k = calloc(1, sizeof(*k));
	if (k == NULL) {
		IRDMA_LOG(ERR, c->hw, "counter alloc: no memory");
		return -ENOMEM;
	}
	pthread_mutex_lock(&t->lock);
	ret = irdma_stats_manage(c, true, &inst);
	if (ret == 0 && (inst < IRDMA_FIRST_NON_PF_STAT || inst >= IRDMA_MAX_STATS_INSTANCES ||
			 owned_test(t, inst))) {
		/* Nothing to give back: the index is not one this function may free. */
		IRDMA_LOG(ERR, c->hw, "MANAGE_STATS returned instance %u, which is %s", inst,
			  inst < IRDMA_MAX_STATS_INSTANCES && inst >= IRDMA_FIRST_NON_PF_STAT ?
			  "already held" : "out of range");
		ret = -EPROTO;
	}
	if (ret == 0)
		owned_assign(t, inst, true);
	pthread_mutex_unlock(&t->lock);
	if (ret != 0) {
		free(k);
		return ret;
	}
	k->inst = inst;
	cnt->obj.fp.drv = k;
	return 0;
}

int
irdma_counter_free(struct irdma_ctrl *c, struct rdmadev_counter *cnt)
{
	struct irdma_stats_tab *t = c->stats;
	struct irdma_counter *k = cnt->obj.fp.drv;
	int ret;

	if (t == NULL || k == NULL)
		return -ENODEV;
	pthread_mutex_lock(&t->lock);
	ret = irdma_stats_manage(c, false, &k->inst);
	if (ret == 0)
		owned_assign(t, k->inst, false);
	pthread_mutex_unlock(&t->lock);
	if (ret != 0)
		return ret;
	free(k);
	cnt->obj.fp.drv = NULL;
	return 0;
}

int
irdma_counter_bind(struct irdma_ctrl *c, struct rdmadev_counter *cnt, struct rdmadev_qp *qp,
		   bool bind)
{
	const struct irdma_counter *k = cnt->obj.fp.drv;

	if (k == NULL || qp->obj.fp.drv == NULL)
		return -ENODEV;
	return irdma_qp_stats_bind(c, qp, bind, k->inst);
}

int
irdma_counter_read(struct irdma_ctrl *c, struct rdmadev_counter *cnt, struct rdmadev_xstat *xs,
		   unsigned int n)
{
	struct irdma_stats_tab *t = c->stats;
	struct irdma_counter *k = cnt->obj.fp.drv;
	int ret;

	if (t == NULL || k == NULL)
		return -ENODEV;
	if (n == 0)
		return (int)irdma_hw_stat_count(c->hw->gen);
	pthread_mutex_lock(&t->lock);
	ret = irdma_stats_gather(c, k->inst, &k->acc);
	if (ret == 0)
		ret = irdma_stats_fill(c->hw->gen, xs, n, k->acc.total, NULL);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
irdma_xstats_get(struct irdma_ctrl *c, struct rdmadev_xstat *xs, unsigned int n)
{
	struct irdma_stats_tab *t = c->stats;
	int ret;

	if (n == 0)
		return (int)irdma_hw_stat_count(c->hw->gen);
	if (t == NULL) {
		IRDMA_LOG(ERR, c->hw, "xstats: device not started");
		return -ENODEV;
	}
	pthread_mutex_lock(&t->lock);
	ret = irdma_stats_gather(c, c->hmc_fn_id, &t->dev);
	if (ret == 0)
		ret = irdma_stats_fill(c->hw->gen, xs, n, t->dev.total, t->base);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
irdma_xstats_reset(struct irdma_ctrl *c)
{
	struct irdma_stats_tab *t = c->stats;
	int ret;

	/* Not started: nothing counted since the last start, nothing to reset. */
	if (t == NULL)
		return 0;
	pthread_mutex_lock(&t->lock);
	ret = irdma_stats_gather(c, c->hmc_fn_id, &t->dev);
	if (ret == 0)
		memcpy(t->base, t->dev.total, sizeof(t->base));
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t
irdma_counter_instance(const struct rdmadev_counter *cnt)
{
	const struct irdma_counter *k = cnt->obj.fp.drv;

	return k != NULL ? k->inst : UINT32_MAX;
}
