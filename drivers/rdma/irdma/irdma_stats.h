/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_STATS_H
#define IRDMA_STATS_H

/**
 * @file
 * Statistics of the irdma PMD (irdma_stats.c): counters (statistics instances) and the
 * device's extended statistics. The gather-buffer format is base/irdma_stats_fmt.h.
 */

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct rdmadev_qp;
struct irdma_stats_tab;
struct rdmadev_counter;
struct rdmadev_xstat;

/**
 * Create the statistics state (gather buffer, instance bitmap); after irdma_ctrl_bringup().
 * @return 0, -ENOMEM, or the DMA map's -errno.
 */
int irdma_stats_init(struct irdma_ctrl *c);

/** Free the statistics state (instances still held are logged). Safe when not created. */
void irdma_stats_fini(struct irdma_ctrl *c);

/** Statistics instances the driver holds for counters (0 when not started). */
uint32_t irdma_stats_live(const struct irdma_ctrl *c);

/**
 * MANAGE_STATS allocate for rdmadev COUNTER @p cnt; sets cnt->obj.fp.drv.
 * @return 0, -ENODEV (not started), -ENOMEM, -EPROTO (the device returned an instance that
 *         is out of range or already held), or the CQP's -errno.
 */
int irdma_counter_alloc(struct irdma_ctrl *c, struct rdmadev_counter *cnt);

/**
 * MANAGE_STATS free of @p cnt's instance.
 * @return 0, -ENODEV, or the CQP's -errno (the counter stays allocated).
 */
int irdma_counter_free(struct irdma_ctrl *c, struct rdmadev_counter *cnt);

/**
 * Bind (@p bind) or unbind QP @p qp to / from @p cnt's instance (irdma_qp_stats_bind()).
 * @return 0, -ENODEV, or the CQP's -errno.
 */
int irdma_counter_bind(struct irdma_ctrl *c, struct rdmadev_counter *cnt, struct rdmadev_qp *qp,
		       bool bind);

/**
 * GATHER_STATS of @p cnt's instance; fills up to @p n values (hw_counters names).
 * @return the number of counters (irdma_hw_stat_count() of the device's generation),
 *         -ENODEV, or the CQP's -errno.
 */
int irdma_counter_read(struct irdma_ctrl *c, struct rdmadev_counter *cnt,
		       struct rdmadev_xstat *xs, unsigned int n);

/** Statistics instance of @p cnt (UINT32_MAX when it has none; diagnostics and tests). */
uint32_t irdma_counter_instance(const struct rdmadev_counter *cnt);

/**
 * Device counters: GATHER_STATS of the function's default instance, minus the baseline of
 * the last irdma_xstats_reset().
 * @return the number of counters, -ENODEV (not started, @p n > 0), or the CQP's -errno.
 */
int irdma_xstats_get(struct irdma_ctrl *c, struct rdmadev_xstat *xs, unsigned int n);

/**
 * Remember the current device counters as the baseline (0 when not started).
 * @return 0 or the CQP's -errno.
 */
int irdma_xstats_reset(struct irdma_ctrl *c);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_STATS_H */
