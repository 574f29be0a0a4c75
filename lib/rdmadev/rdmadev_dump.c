/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Ring dumps: rdmadev_qp_dump_wqe() and rdmadev_cq_dump_cqe() check their arguments and hand
 * over to the driver's optional qp_dump_wqe / cq_dump_cqe ops.
 */

#include <errno.h>
#include <string.h>

#include "rdmadev_private.h"

int
rdmadev_qp_dump_wqe(struct rdmadev_qp *qp, uint32_t index, uint8_t *buf, uint32_t len)
{
	struct rdmadev *dev;

	if (!rdmadev_obj_check(RDMADEV_OBJ(qp), RDMADEV_OBJ_QP, "qp_dump_wqe"))
		return -EINVAL;
	dev = qp->obj.dev;
	if (buf == NULL || len == 0) {
		RDMADEV_LOG(ERR, "qp_dump_wqe: QP %u: no buffer", rdmadev_qp_num(qp));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->qp_dump_wqe == NULL) {
		RDMADEV_LOG(ERR, "qp_dump_wqe: driver %s cannot dump WQEs", dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	return dev->ops->qp_dump_wqe(dev, qp, index, buf, len);
}

int
rdmadev_cq_dump_cqe(struct rdmadev_cq *cq, uint32_t index, uint8_t *buf, uint32_t len)
{
	struct rdmadev *dev;

	if (!rdmadev_obj_check(RDMADEV_OBJ(cq), RDMADEV_OBJ_CQ, "cq_dump_cqe"))
		return -EINVAL;
	dev = cq->obj.dev;
	if (buf == NULL || len == 0) {
		RDMADEV_LOG(ERR, "cq_dump_cqe: CQ %u: no buffer", rdmadev_cq_id(cq));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->cq_dump_cqe == NULL) {
		RDMADEV_LOG(ERR, "cq_dump_cqe: driver %s cannot dump CQEs", dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	return dev->ops->cq_dump_cqe(dev, cq, index, buf, len);
}
