/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_SHADOW_H
#define IRDMA_SHADOW_H

/**
 * @file
 * Shadow areas (doc/hardware.md §4.2, §3 "CQ arm"): 64-byte host-memory blocks shared by SW and
 * the device. Their physical addresses go in CREATE_QP / CREATE_CQ qword 5.
 *
 * Who writes what: QP shadow qword 0 (HW SQ tail) is written by the device; CQ shadow
 * qword 0 (consumer head) and qword 4 (arm word) are written by SW; SRQ shadow qword 0
 * (gen3) is written by SW. Use irdma_qw_store() / irdma_qw_load() for these words.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_field.h"

/** Bytes in a shadow area (IRDMA_SHADOW_AREA_SIZE = 8 qwords). */
#define IRDMA_SHADOW_AREA_SIZE		64u
/** Required alignment of a shadow area (IRDMA_SHADOWAREA_M = 128 - 1). */
#define IRDMA_SHADOW_AREA_ALIGN		128u

/** QP shadow area. */
IRDMA_LAYOUT(qp_shadow, 8);
/** CQ shadow area. */
IRDMA_LAYOUT(cq_shadow, 8);
/** SRQ shadow area (gen3). */
IRDMA_LAYOUT(srq_shadow, 8);

_Static_assert(sizeof(struct irdma_qp_shadow) == IRDMA_SHADOW_AREA_SIZE, "shadow is 64 B");
_Static_assert(sizeof(struct irdma_cq_shadow) == IRDMA_SHADOW_AREA_SIZE, "shadow is 64 B");
_Static_assert(sizeof(struct irdma_srq_shadow) == IRDMA_SHADOW_AREA_SIZE, "shadow is 64 B");

/** QP: the device's SQ tail, in quanta (HW-written; IRDMA_QP_DBSA_HW_SQ_TAIL). */
IRDMA_FIELD(qp_shadow, QP_SHADOW_HW_SQ_TAIL, 0, 14, 0);

/** CQ: SW consumer head index, written after each poll (IRDMA_CQ_DBSA_CQEIDX). */
IRDMA_FIELD(cq_shadow, CQ_SHADOW_CQEIDX, 0, 19, 0);
/** CQ arm word: SW CQ select (incremented per retired resize buffer). */
IRDMA_FIELD(cq_shadow, CQ_ARM_SW_CQ_SELECT, 4, 13, 0);
/** CQ arm word: arm for the next completion of any kind (0 = solicited only). */
IRDMA_BIT(cq_shadow, CQ_ARM_NEXT, 4, 14);
/** CQ arm word: arm for the next solicited completion (always set by SW). */
IRDMA_BIT(cq_shadow, CQ_ARM_NEXT_SE, 4, 15);
/** CQ arm word: arm sequence number, incremented on every arm. */
IRDMA_FIELD(cq_shadow, CQ_ARM_SEQ_NUM, 4, 17, 16);

/** SRQ (gen3): SW head = (last posted WQE index + 1) % srq_size. */
IRDMA_FIELD(srq_shadow, SRQ_SHADOW_HEAD, 0, 63, 0);

/**
 * Next CQ arm word from the current one @p prev (CPU order): sequence number + 1 (2 bits,
 * wrapping), SW CQ select kept, ARM_NEXT_SE set, ARM_NEXT = @p any (uk.c
 * irdma_uk_cq_request_notification). SW stores it at qword 4, issues a write barrier,
 * then writes the cq_id to the CQ-arm doorbell.
 */
static inline uint64_t
irdma_cq_arm_word(uint64_t prev, bool any)
{
	uint64_t seq = (IRDMA_GET(CQ_ARM_SEQ_NUM, prev) + 1) & IRDMA_FIELD_MAX(CQ_ARM_SEQ_NUM);

	return IRDMA_PREP(CQ_ARM_SEQ_NUM, seq) |
	       IRDMA_PREP(CQ_ARM_SW_CQ_SELECT, IRDMA_GET(CQ_ARM_SW_CQ_SELECT, prev)) |
	       IRDMA_PREP(CQ_ARM_NEXT_SE, 1) | IRDMA_PREP(CQ_ARM_NEXT, any ? 1 : 0);
}

#endif /* IRDMA_SHADOW_H */
