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
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct rdmadev_cq_attr cq_attr = { .cqe = 64 };
	struct rdmadev_qp_init_attr qp_attr = { 0 };
	struct rdmadev_mr_attr mr_attr = { 0 };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev_mr *mr = NULL;
	int16_t dev = -1;
	void *buf = NULL;
	int ret = 1, n;

	/* EAL first (hugepages, lcores, --no-huge ...), then our arguments after "--". */
	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "res_dump: EAL init failed\n");
		return 1;
	}
	if (argc - n > 1)
		devargs = argv[n + 1];

	/* A device: open (probe from devargs), configure, start. */
	CHECK(dev = (int16_t)rdmadev_open(devargs));
	CHECK(rdmadev_configure(dev, &conf));
	CHECK(rdmadev_start(dev));

	/* Objects hang off a context (the application's identity: pid, comm). */
	CHECK(rdmadev_ctx_alloc(dev, &ctx));
	CHECK(rdmadev_pd_alloc(ctx, &pd));
	CHECK(rdmadev_cq_create(ctx, &cq_attr, &cq));

	qp_attr.pd = pd;
	qp_attr.send_cq = cq;
	qp_attr.recv_cq = cq;
	qp_attr.qp_type = RDMADEV_QPT_RC;
	qp_attr.cap.max_send_wr = 16;
	qp_attr.cap.max_recv_wr = 16;
	qp_attr.cap.max_send_sge = 1;
	qp_attr.cap.max_recv_sge = 1;
	CHECK(rdmadev_qp_create(&qp_attr, &qp));

	/* Memory the device may touch: EAL memory, registered like ibv_reg_mr. */
	buf = rte_zmalloc("res_dump", 4096, 4096);
	if (buf == NULL) {
		fprintf(stderr, "res_dump: no memory\n");
		goto out;
	}
	mr_attr.addr = buf;
	mr_attr.length = 4096;
	mr_attr.iova = (uint64_t)(uintptr_t)buf;
	mr_attr.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
			 RDMADEV_ACCESS_REMOTE_READ;
	CHECK(rdmadev_mr_reg(pd, &mr_attr, &mr));

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
	if (pd != NULL && rdmadev_pd_free(pd) < 0)
		ret = 1;
	if (ctx != NULL && rdmadev_ctx_free(ctx) < 0)
		ret = 1;
	if (dev >= 0) {
		rdmadev_stop(dev);
		if (rdmadev_close(dev) < 0)
			ret = 1;
	}
	rte_free(buf);
	rte_eal_cleanup();
	return ret;
}
