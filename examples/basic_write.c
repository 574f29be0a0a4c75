/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * basic_write: one RDMA WRITE between two RC QPs of one device, checked byte for byte.
 *
 *   basic_write [EAL options] [-- <devargs>]    (default devargs: irdma_model0, the model)
 *
 * The verbs sequence you know, with rdmadev names: open a device (not ibv_open_device: a
 * devargs string; the model needs no hardware), allocate a PD, a CQ, two QPs and two MRs,
 * connect the QPs to each other (RESET -> INIT -> RTR -> RTS, addressing the device's own
 * GID and MAC: the packets loop back through the port), post one signaled WRITE, busy-poll
 * its completion, compare the buffers, and tear everything down.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>

#define EXAMPLE_NAME "basic_write"
#include "example_qp.h"

#define LEN 4096u		/* bytes written */
#define TIMEOUT_S 5u		/* longest wait for the completion */

int
main(int argc, char **argv)
{
	const char *devargs = "irdma_model0";
	struct rdmadev_cq_attr cq_attr = { .cqe = 64 };
	struct rdmadev_port_info port;
	struct rdmadev_ah_attr av = { 0 };
	struct rdmadev_send_wr wr = { 0 };
	struct rdmadev_sge sge;
	struct rdmadev_wc wc;
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_qp *qp[2] = { NULL, NULL };
	struct rdmadev_mr *mr[2] = { NULL, NULL };
	uint8_t *buf[2] = { NULL, NULL };
	uint64_t deadline;
	int16_t dev = -1;
	int ret = 1, n, err = 0;
	unsigned int i;

	/* EAL first (hugepages, lcores, --no-huge ...), then our arguments after "--". */
	n = example_eal_init(argc, argv);
	if (n < 0)
		return 1;
	if (argc - n > 1)
		devargs = argv[n + 1];

	if (example_dev_open(devargs, &dev, &ctx, &pd) < 0)
		goto out;
	CHECK(rdmadev_cq_create(ctx, &cq_attr, &cq));

	/* Two RC QPs sharing the CQ; [0] writes into [1]'s memory. */
	for (i = 0; i < 2; i++)
		CHECK(example_qp_create(pd, cq, RDMADEV_QPT_RC, 16, &qp[i]));

	/* The buffers: EAL memory the device can reach; [1] accepts remote writes. */
	for (i = 0; i < 2; i++) {
		buf[i] = rte_zmalloc("basic_write", LEN, 4096);
		if (buf[i] == NULL) {
			fprintf(stderr, "basic_write: no memory\n");
			goto out;
		}
		CHECK(example_mr_reg(pd, buf[i], LEN, RDMADEV_ACCESS_LOCAL_WRITE |
				     (i == 1 ? RDMADEV_ACCESS_REMOTE_WRITE : 0), &mr[i]));
	}
	for (i = 0; i < LEN; i++)
		buf[0][i] = (uint8_t)(i * 7 + 1);

	/* Address: this device's own GID and MAC (both QPs live on it). */
	CHECK(rdmadev_port_info_get(dev, &port));
	CHECK(rdmadev_gid_get(dev, 0, av.dgid));
	memcpy(av.dmac, port.mac, sizeof(av.dmac));
	av.hop_limit = 64;
	av.vlan_id = 0xffff;
	av.port_num = 1;
	for (i = 0; i < 2; i++) {
		CHECK(example_qp_init(qp[i]));
		CHECK(example_qp_connect(qp[i], rdmadev_qp_num(qp[1 - i]), &av,
					 RDMADEV_MTU_1024, 0, 0));
	}

	/* One signaled RDMA WRITE of the whole buffer. */
	sge.addr = (uint64_t)(uintptr_t)buf[0];
	sge.length = LEN;
	sge.lkey = rdmadev_mr_lkey(mr[0]);
	wr.wr_id = 42;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = RDMADEV_WR_RDMA_WRITE;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)buf[1];
	wr.rdma.rkey = rdmadev_mr_rkey(mr[1]);
	if (rdmadev_post_send(qp[0], &wr, 1, &err) != 1) {
		fprintf(stderr, "basic_write: post_send: %s\n", strerror(-err));
		goto out;
	}

	/* Busy-poll the completion, bounded. */
	deadline = rte_get_timer_cycles() + TIMEOUT_S * rte_get_timer_hz();
	while (rdmadev_poll_cq(cq, &wc, 1) == 0) {
		if (rte_get_timer_cycles() > deadline) {
			fprintf(stderr, "basic_write: no completion in %u s\n", TIMEOUT_S);
			goto out;
		}
	}
	if (wc.status != RDMADEV_WC_SUCCESS || wc.wr_id != 42 ||
	    wc.opcode != RDMADEV_WC_RDMA_WRITE) {
		fprintf(stderr, "basic_write: completion wr_id %" PRIu64 " status %s\n", wc.wr_id,
			rdmadev_wc_status_str(wc.status));
		goto out;
	}
	if (memcmp(buf[0], buf[1], LEN) != 0) {
		fprintf(stderr, "basic_write: the target buffer differs\n");
		goto out;
	}
	printf("basic_write: %u bytes written from QP %u to QP %u and checked\n", LEN,
	       rdmadev_qp_num(qp[0]), rdmadev_qp_num(qp[1]));
	ret = 0;
out:
	/* Teardown in reverse; rdmadev_close() reports any object left behind. */
	for (i = 0; i < 2; i++) {
		if (qp[i] != NULL && rdmadev_qp_destroy(qp[i]) < 0)
			ret = 1;
		if (mr[i] != NULL && rdmadev_mr_dereg(mr[i]) < 0)
			ret = 1;
		rte_free(buf[i]);
	}
	if (cq != NULL && rdmadev_cq_destroy(cq) < 0)
		ret = 1;
	if (example_dev_close(dev, ctx, pd) != 0)
		ret = 1;
	rte_eal_cleanup();
	return ret;
}
