/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_DUMP_H
#define IRDMA_DUMP_H

/**
 * @file
 * Ring dumps of the irdma PMD (irdma_dump.c): the rdmadev ops that copy one SQ WQE or one
 * CQE for diagnostics.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdmadev_qp;
struct rdmadev;
struct rdmadev_cq;

/**
 * rdmadev op qp_dump_wqe: copy the SQ WQE starting at quantum @p index (modulo sq.quanta),
 * 32 << sq.shift bytes, wrapping at the ring's end.
 * @return Bytes copied (at most @p len), -EINVAL (no SQ ring).
 */
int irdma_dump_wqe(struct rdmadev *dev, struct rdmadev_qp *qp, uint32_t index, uint8_t *buf,
		   uint32_t len);

/**
 * rdmadev op cq_dump_cqe: copy CQE @p index (modulo cur.size) of the ring the device writes.
 * @return Bytes copied (at most @p len), -EINVAL (no ring).
 */
int irdma_dump_cqe(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t index, uint8_t *buf,
		   uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_DUMP_H */
