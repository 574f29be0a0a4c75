/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * res_dump: open an RDMA device, create one object of each common kind, and print what the
 * device tracks, in the columns of `rdma resource show`.
 *
 *   res_dump [EAL options] [-- <devargs>]      (default devargs: irdma_model0, the model)
 *
 * If you know verbs: rdmadev_* is the verbs API of this project (a device instead of an
 * ibv_context, explicit configure/start like a DPDK device); every object it creates is
 * tracked in restrack under its hardware ID (QPN, CQ id, STag index, PD id), the same table
 * the kernel keeps for `rdma resource show`.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>

#define EXAMPLE_NAME "res_dump"
#include "example_qp.h"
#include <restrack.h>

int
main(int argc, char **argv)
{
	const char *devargs = "irdma_model0";
	struct rdmadev_cq_attr cq_attr = { .cqe = 64 };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev_mr *mr = NULL;
	int16_t dev = -1;
	void *buf = NULL;
	int ret = 1, n;

	/* EAL first (hugepages, lcores, --no-huge ...), then our arguments after "--". */
	n = example_eal_init(argc, argv);
	if (n < 0)
		return 1;
	if (argc - n > 1)
		devargs = argv[n + 1];

	/* A device (open, configure, start), its context (objects hang off it) and a PD. */
	if (example_dev_open(devargs, &dev, &ctx, &pd) < 0)
		goto out;
	CHECK(rdmadev_cq_create(ctx, &cq_attr, &cq));
	CHECK(example_qp_create(pd, cq, RDMADEV_QPT_RC, 16, &qp));

	/* Memory the device may touch: EAL memory, registered like ibv_reg_mr. */
	buf = rte_zmalloc("res_dump", 4096, 4096);
	if (buf == NULL) {
		fprintf(stderr, "res_dump: no memory\n");
		goto out;
	}
	CHECK(example_mr_reg(pd, buf, 4096, RDMADEV_ACCESS_LOCAL_WRITE |
			     RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_READ, &mr));

	/* What the device tracks: one line per object, every type. */
	CHECK(rdmadev_res_dump(dev, RESTRACK_MAX, stdout));
	ret = 0;
out:
	/* Teardown in reverse; each destroy releases the object's ID. */
	if (mr != NULL && rdmadev_mr_dereg(mr) < 0)
		ret = 1;
	if (qp != NULL && rdmadev_qp_destroy(qp) < 0)
		ret = 1;
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		ret = 1;
	if (example_dev_close(dev, ctx, pd) != 0)
		ret = 1;
	rte_free(buf);
	rte_eal_cleanup();
	return ret;
}
