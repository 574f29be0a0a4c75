/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Ring dumps: the raw bytes of one SQ WQE or one CQE, as the device reads or wrote them, for
 * rdma-testpmd's `dump wqe` / `dump cqe`. Read-only; the data path is not disturbed (a dump
 * racing with the device may show a half-written entry, which is what a debugger shows too).
 */

#include <errno.h>
#include <string.h>

#include <rdmadev_driver.h>

#include "irdma_cq.h"
#include "irdma_dump.h"
#include "irdma_log.h"
#include "irdma_qp.h"

/* Log for a device by name (the object may have no hw behind it). */
#define DUMP_LOG(dev, fmt, ...) \
	rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: " fmt "\n", (dev)->name, ##__VA_ARGS__)

int
irdma_dump_wqe(struct rdmadev *dev, struct rdmadev_qp *qp, uint32_t index, uint8_t *buf,
	       uint32_t len)
{
	const struct irdma_qp *q = qp->obj.fp.drv;
	uint32_t n, wqe_bytes, i, quantum;

	if (q == NULL || q->sq.base == NULL || q->sq.quanta == 0) {
		DUMP_LOG(dev, "dump wqe: QP %u has no SQ ring", rdmadev_qp_num(qp));
		return -EINVAL;
	}
	wqe_bytes = IRDMA_QUANTUM_SIZE << q->sq.shift;
	n = RTE_MIN(len, wqe_bytes);
	/* Quantum by quantum: a WQE that starts near the end wraps to the ring's start. */
	for (i = 0; i < n; i += IRDMA_QUANTUM_SIZE) {
		quantum = (index + i / IRDMA_QUANTUM_SIZE) & (q->sq.quanta - 1);
		memcpy(buf + i, q->sq.base + (size_t)quantum * IRDMA_QUANTUM_SIZE,
		       RTE_MIN(IRDMA_QUANTUM_SIZE, n - i));
	}
	return (int)n;
}

int
irdma_dump_cqe(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t index, uint8_t *buf,
	       uint32_t len)
{
	const struct irdma_cq *q = cq->obj.fp.drv;
	uint32_t n;

	if (q == NULL || q->cur.base == NULL || q->cur.size == 0) {
		DUMP_LOG(dev, "dump cqe: CQ %u has no ring", rdmadev_cq_id(cq));
		return -EINVAL;
	}
	n = RTE_MIN(len, IRDMA_CQE_SIZE);
	memcpy(buf, q->cur.base + (size_t)(index % q->cur.size) * IRDMA_CQE_SIZE, n);
	return (int)n;
}
