/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_LOG_H
#define IRDMA_LOG_H

/**
 * @file
 * Logging and bounded waits of the irdma PMD: the `pmd.rdma.irdma` log type, IRDMA_LOG(), and
 * the deadline every wait on the device is bounded by (IRDMA_CTRL_TIMEOUT_MS).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "irdma_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Log type of the PMD (`pmd.rdma.irdma`). */
extern int irdma_logtype;

/** Log a message for device @p hw at @p level. */
#define IRDMA_LOG(level, hw, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_logtype, "irdma %s: " fmt "\n", (hw)->name, ##__VA_ARGS__)

/** Upper bound of every wait on the device, in milliseconds. */
#define IRDMA_CTRL_TIMEOUT_MS		2000u

/** Deadline IRDMA_CTRL_TIMEOUT_MS from now, in timer cycles. */
static inline uint64_t
irdma_ctrl_deadline(void)
{
	return rte_get_timer_cycles() + rte_get_timer_hz() * IRDMA_CTRL_TIMEOUT_MS / MS_PER_S;
}

/** True once @p deadline (from irdma_ctrl_deadline()) has passed. */
static inline bool
irdma_ctrl_expired(uint64_t deadline)
{
	return rte_get_timer_cycles() > deadline;
}

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_LOG_H */
