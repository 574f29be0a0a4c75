/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Ring dumps (rdmadev_qp_dump_wqe, rdmadev_cq_dump_cqe -> irdma_dump.c) on the device model:
 * a pattern written straight into a QP's SQ ring and a CQ's ring comes back byte for byte,
 * one WQE (32 << sq.shift bytes, wrapping at the ring's end) or one 32-byte CQE, the index
 * taken modulo the ring; bad arguments are refused with -EINVAL and a driver without the op
 * with -ENOTSUP is covered by the argument checks of the library.
 */

#include <errno.h>
#include <string.h>

#include <rte_eal.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_cq.h"
#include "irdma_qp.h"
#include "pmd_fixture.h"
#include "test.h"

/* Byte @p i of the pattern written into quantum @p q: no two quanta alike. */
static uint8_t
pat(uint32_t q, uint32_t i)
{
	return (uint8_t)(q * 37 + i * 5 + 1);
}

static void
test_dump(void)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 64 };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp = NULL;
	const struct irdma_qp *q;
	const struct irdma_cq *c;
	struct irdma_model_stats st;
	uint8_t buf[512];
	uint32_t i, k, wqe, last;
	int id, n;

	if (pmd_dev_up("irdma_model0,mode=inline", &id, &ctx, &pd) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	if (cq == NULL)
		goto out;
	qp = pmd_qp_create(pd, cq, RDMADEV_QPT_RC, 16);
	if (qp == NULL)
		goto out;

	q = qp->obj.fp.drv;
	c = cq->obj.fp.drv;
	for (k = 0; k < q->sq.quanta; k++)
		for (i = 0; i < 32; i++)
			q->sq.base[k * 32 + i] = pat(k, i);
	for (k = 0; k < c->cur.size; k++)
		for (i = 0; i < 32; i++)
			c->cur.base[k * 32 + i] = pat(k, i);

	/* A WQE from quantum 2: 32 << shift bytes of quanta 2, 3, ... */
	wqe = 32u << q->sq.shift;
	n = rdmadev_qp_dump_wqe(qp, 2, buf, sizeof(buf));
	TEST_CHECK_EQ(n, wqe);
	for (i = 0; n > 0 && i < wqe; i++)
		if (buf[i] != pat(2 + i / 32, i % 32))
			break;
	TEST_CHECK_EQ(i, wqe);
	/* From the last quantum: wraps to quantum 0. */
	last = q->sq.quanta - 1;
	n = rdmadev_qp_dump_wqe(qp, last, buf, sizeof(buf));
	TEST_CHECK_EQ(buf[0], pat(last, 0));
	if (wqe > 32)
		TEST_CHECK_EQ(buf[32], pat(0, 0));
	/* The index is taken modulo the ring; a short buffer gets what fits. */
	n = rdmadev_qp_dump_wqe(qp, q->sq.quanta + 1, buf, 8);
	TEST_CHECK_EQ(n, 8);
	TEST_CHECK_EQ(buf[7], pat(1, 7));
	/* CQE 5, and CQE size + 5 = the same entry. */
	n = rdmadev_cq_dump_cqe(cq, 5, buf, sizeof(buf));
	TEST_CHECK_EQ(n, 32);
	TEST_CHECK_EQ(buf[0], pat(5, 0));
	TEST_CHECK_EQ(buf[31], pat(5, 31));
	n = rdmadev_cq_dump_cqe(cq, c->cur.size + 5, buf, sizeof(buf));
	TEST_CHECK_EQ(buf[31], pat(5, 31));
	/* Bad arguments. */
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(NULL, 0, buf, sizeof(buf)), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(qp, 0, NULL, sizeof(buf)), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe(qp, 0, buf, 0), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_dump_cqe(NULL, 0, buf, sizeof(buf)), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cq_dump_cqe(cq, 0, NULL, 1), -EINVAL);
	/* A CQ handle is not a QP. */
	TEST_CHECK_EQ(rdmadev_qp_dump_wqe((struct rdmadev_qp *)(void *)cq, 0, buf, 1), -EINVAL);
	memset(q->sq.base, 0, (size_t)q->sq.quanta * 32);
	memset(c->cur.base, 0, (size_t)c->cur.size * 32);
out:
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	if (cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	pmd_dev_down(id, ctx, pd, &st);
}

int
main(void)
{
	if (test_eal_init("test_irdma_dump", NULL) < 0)
		return test_eal_bail();
	TEST_RUN(test_dump);
	rte_eal_cleanup();
	return test_done();
}
