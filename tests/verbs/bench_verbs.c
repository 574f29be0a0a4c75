/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * What libirdma-verbs adds on the fast path: an RC QP pair on one device model, RDMA
 * WRITEs posted with the inline ibv_post_send and completions taken with the inline
 * ibv_poll_cq, as a verbs application does.
 *   write1    one 64-byte WRITE per ibv_post_send, its completion by ibv_poll_cq(1)
 *   burst16   a list of 16 WRITEs per ibv_post_send, completions by ibv_poll_cq(16)
 * vb_post() and vb_poll() make the calls; devtools/callgrind.sh --verbs counts their
 * instructions and those of the driver functions they reach (irdma_uk_post_send,
 * irdma_uk_poll_cq): the difference is the layer's (and the inline verbs' call).
 *
 *   bench_verbs [--workload write1|burst16] [--ops N]
 * prints "ops N", "wrs N", "cqes N" and "polls N".
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_malloc.h>

#include "verbs_test_qp.h"

#define BUF 65536
#define BURST 16

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qp[2];
static struct ibv_mr *mr;
static uint8_t *buf;

__attribute__((noinline)) int vb_post(struct ibv_qp *q, struct ibv_send_wr *wr);
__attribute__((noinline)) int vb_poll(struct ibv_cq *c, int n, struct ibv_wc *wc);
__attribute__((noinline)) int vb_post_wrx(struct ibv_qp_ex *x, const struct ibv_send_wr *wr);

/* One WRITE through the ibv_wr_* builders: start, write, set_sge, complete. */
__attribute__((noinline)) int
vb_post_wrx(struct ibv_qp_ex *x, const struct ibv_send_wr *wr)
{
	ibv_wr_start(x);
	x->wr_id = wr->wr_id;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(x, wr->wr.rdma.rkey, wr->wr.rdma.remote_addr);
	ibv_wr_set_sge(x, wr->sg_list->lkey, wr->sg_list->addr, wr->sg_list->length);
	return ibv_wr_complete(x);
}

__attribute__((noinline)) int
vb_post(struct ibv_qp *q, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(q, wr, &bad);
}

__attribute__((noinline)) int
vb_poll(struct ibv_cq *c, int n, struct ibv_wc *wc)
{
	return ibv_poll_cq(c, n, wc);
}

static int use_wrx;	/* workload wrx1: QPs of ibv_create_qp_ex, posts by the builders */

static int
setup(void)
{
	struct ibv_device **devs;
	struct ibv_qp_init_attr ia;
	union ibv_gid gid;
	int i;

	if (getenv("IRDMA_PMD_EAL") == NULL)
		setenv("IRDMA_PMD_EAL", "--no-shconf --no-telemetry --no-pci --no-huge -m 512 "
		       "--log-level=lib.eal:error", 1);
	devs = ibv_get_device_list(NULL);
	if (devs == NULL || devs[0] == NULL || (ctx = ibv_open_device(devs[0])) == NULL)
		return -1;
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 1024, NULL, NULL, 0);
	buf = rte_zmalloc(NULL, BUF, 4096);
	if (pd == NULL || cq == NULL || buf == NULL || ibv_query_gid(ctx, 1, 0, &gid) != 0)
		return -1;
	mr = ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	for (i = 0; i < 2; i++) {
		vt_qp_init_attr(&ia, IBV_QPT_RC, cq, cq, 256, 16, 1);
		if (use_wrx) {
			struct ibv_qp_init_attr_ex ix;

			memset(&ix, 0, sizeof(ix));
			memcpy(&ix, &ia, sizeof(ia));
			ix.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
			ix.pd = pd;
			ix.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE;
			qp[i] = ibv_create_qp_ex(ctx, &ix);
		} else {
			qp[i] = ibv_create_qp(pd, &ia);
		}
		if (mr == NULL || qp[i] == NULL)
			return -1;
	}
	for (i = 0; i < 2; i++) {
		if (vt_rc_connect(qp[i], IBV_ACCESS_REMOTE_WRITE, qp[1 - i]->qp_num, &gid, 0,
				  0) != 0)
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct ibv_send_wr wr[BURST];
	struct ibv_sge sge[BURST];
	struct ibv_wc wc[BURST];
	unsigned long ops = 2000, o, wrs = 0, cqes = 0, polls = 0;
	int burst = 1, i, n;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--workload") == 0 && i + 1 < argc) {
			burst = strcmp(argv[++i], "burst16") == 0 ? BURST : 1;
			use_wrx = strcmp(argv[i], "wrx1") == 0;
		}
		else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc)
			ops = strtoul(argv[++i], NULL, 0);
	}
	if (setup() != 0) {
		fprintf(stderr, "bench_verbs: setup failed: %s\n", strerror(errno));
		return 1;
	}
	memset(wr, 0, sizeof(wr));
	for (i = 0; i < BURST; i++) {
		sge[i] = (struct ibv_sge){ (uintptr_t)buf + (uint64_t)i * 64, 64, mr->lkey };
		wr[i].wr_id = (uint64_t)i;
		wr[i].sg_list = &sge[i];
		wr[i].num_sge = 1;
		wr[i].opcode = IBV_WR_RDMA_WRITE;
		wr[i].send_flags = IBV_SEND_SIGNALED;
		wr[i].wr.rdma.remote_addr = (uintptr_t)buf + 32768 + (uint64_t)i * 64;
		wr[i].wr.rdma.rkey = mr->rkey;
		wr[i].next = i + 1 < burst ? &wr[i + 1] : NULL;
	}
	for (o = 0; o < ops; o++) {
		if ((use_wrx ? vb_post_wrx(ibv_qp_to_qp_ex(qp[0]), wr) : vb_post(qp[0], wr)) != 0) {
			fprintf(stderr, "bench_verbs: post failed\n");
			return 1;
		}
		wrs += (unsigned long)burst;
		for (n = 0; n < burst; ) {
			int got = vb_poll(cq, burst - n, wc);

			polls++;
			if (got < 0 || (got > 0 && wc[0].status != IBV_WC_SUCCESS)) {
				fprintf(stderr, "bench_verbs: completion failed\n");
				return 1;
			}
			n += got;
		}
		cqes += (unsigned long)n;
	}
	printf("ops %lu\nwrs %lu\ncqes %lu\npolls %lu\n", ops, wrs, cqes, polls);
	return 0;
}
