/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_BASE_H
#define IRDMA_BASE_H

/**
 * @file
 * Umbrella header for the E810 (irdma gen2) hardware definitions: include this to get
 * every register, WQE, CQE, CQP, context, HMC, shadow-area and limit definition. The
 * driver and the device model both include base/ and nothing of each other.
 */

#include "irdma_field.h"
#include "irdma_regs.h"
#include "irdma_wqe.h"
#include "irdma_cqe.h"
#include "irdma_eq.h"
#include "irdma_cqp_fmt.h"
#include "irdma_ctx.h"
#include "irdma_hmc_fmt.h"
#include "irdma_shadow.h"
#include "irdma_limits.h"
#include "irdma_stats_fmt.h"
#include "irdma_pf_fmt.h"

#endif /* IRDMA_BASE_H */
