/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs through the verbs API as an application compiled against rdma-core's
 * <infiniband/verbs.h> calls it (the inline ibv_post_send / ibv_poll_cq / ibv_query_port
 * included): what the queries report against rdmadev's own answers, RC and UD traffic on
 * rte_malloc'd buffers, asynchronous events, the ibv_wr_* builders and extended CQs, fork
 * safety, and the errno of bad input.
 *
 *   test_verbs            the TAP cases
 *   test_verbs --srq      the SRQ limit event only (on a device with SRQs: gen3)
 *   test_verbs --print    rdmadev's view of the first device as "key value" lines (the
 *                         reference test_verbs_tools.py compares ibv_devinfo's output with)
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_malloc.h>

#include <rdmadev.h>

#include "test.h"
#include "verbs_test_qp.h"

#define BUF 8192
#define POLL_BOUND 50000000u	/* polls before a completion counts as missing (no clock) */

/* @p call fails: it returns NULL and sets errno to @p err (two checks). */
#define CHECK_NULL_ERRNO(call, err) \
	do { \
		errno = 0; \
		TEST_CHECK((call) == NULL); \
		TEST_CHECK_EQ(errno, err); \
	} while (0)

static struct ibv_device **devs;
static struct ibv_context *ctx;
static int16_t dev_id;

static void
setup(void)
{
	int n = 0;

	if (getenv("IRDMA_TEST_NO_HUGE") != NULL && getenv("IRDMA_PMD_EAL") == NULL)
		setenv("IRDMA_PMD_EAL", "--no-shconf --no-telemetry --no-pci --no-huge -m 512 "
		       "--log-level=lib.eal:error", 1);
	devs = ibv_get_device_list(&n);
	if (devs == NULL || n < 1 || (ctx = ibv_open_device(devs[0])) == NULL) {
		printf("Bail out! no irdma-pmd verbs device (%s)\n", strerror(errno));
		exit(1);
	}
	dev_id = (int16_t)rdmadev_get_dev_id_by_name(ibv_get_device_name(devs[0]));
}

/* Poll @p cq until one completion arrives. */
static int
poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	uint32_t i;
	int n;

	for (i = 0; i < POLL_BOUND; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n != 0)
			return n;
	}
	return 0;
}

static void
case_devices(void)
{
	struct ibv_device **l;
	int n = -1;

	l = ibv_get_device_list(&n);
	TEST_CHECK(l != NULL);
	TEST_CHECK(n >= 1);
	if (l == NULL)
		return;
	TEST_CHECK(strcmp(ibv_get_device_name(l[0]), rdmadev_name(dev_id)) == 0);
	TEST_CHECK(l[n] == NULL);
	TEST_CHECK(ibv_get_device_guid(l[0]) != 0);
	TEST_CHECK_EQ(ibv_get_device_index(l[0]), dev_id);
	TEST_CHECK_EQ(l[0]->transport_type, IBV_TRANSPORT_IB);
	ibv_free_device_list(l);
}

static void
case_query_device(void)
{
	struct ibv_device_attr_ex ax;
	struct ibv_device_attr a;
	struct rdmadev_info info;

	TEST_CHECK_EQ(rdmadev_info_get(dev_id, &info), 0);
	TEST_CHECK_EQ(ibv_query_device(ctx, &a), 0);
	TEST_CHECK_EQ(a.max_qp, info.max_qp);
	TEST_CHECK_EQ(a.max_qp_wr, info.max_qp_wr);
	TEST_CHECK_EQ(a.max_cq, info.max_cq);
	TEST_CHECK_EQ(a.max_cqe, info.max_cqe);
	TEST_CHECK_EQ(a.max_mr, info.max_mr);
	TEST_CHECK_EQ(a.max_pd, info.max_pd);
	TEST_CHECK_EQ(a.max_sge, info.max_sge);
	TEST_CHECK_EQ(a.max_mr_size, info.max_mr_size);
	TEST_CHECK_EQ(a.page_size_cap, info.page_size_cap);
	TEST_CHECK_EQ(a.max_qp_rd_atom, info.max_qp_rd_atom);
	TEST_CHECK_EQ(a.phys_port_cnt, info.nb_ports);
	TEST_CHECK_EQ(a.vendor_id, 0x8086);
	/* The inline ibv_query_device_ex reaches the context's query_device_ex. */
	memset(&ax, 0xa5, sizeof(ax));
	TEST_CHECK_EQ(ibv_query_device_ex(ctx, NULL, &ax), 0);
	TEST_CHECK_EQ(ax.orig_attr.max_qp, info.max_qp);
	TEST_CHECK_EQ(ax.odp_caps.general_caps, 0);
	TEST_CHECK_EQ(ax.phys_port_cnt_ex, 1);
}

static void
case_query_port(void)
{
	struct rdmadev_port_info pi;
	struct ibv_port_attr a, b;

	TEST_CHECK_EQ(rdmadev_port_info_get(dev_id, &pi), 0);
	memset(&a, 0xa5, sizeof(a));
	TEST_CHECK_EQ(ibv_query_port(ctx, 1, &a), 0);	/* inline: verbs_context.query_port */
	TEST_CHECK_EQ(a.state, IBV_PORT_ACTIVE);
	TEST_CHECK_EQ(a.active_mtu, pi.active_mtu);
	TEST_CHECK_EQ(a.max_mtu, pi.max_mtu);
	TEST_CHECK_EQ(a.gid_tbl_len, pi.gid_tbl_len);
	TEST_CHECK_EQ(a.link_layer, IBV_LINK_LAYER_ETHERNET);
	TEST_CHECK_EQ(a.lid, 0);
	/* The exported one (old binaries) says the same. */
	memset(&b, 0x5a, sizeof(b));
	TEST_CHECK_EQ((ibv_query_port)(ctx, 1, (struct _compat_ibv_port_attr *)&b), 0);
	TEST_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	TEST_CHECK_EQ(ibv_query_port(ctx, 2, &a), EINVAL);
}

static void
case_gids(void)
{
	struct rdmadev_port_info pi;
	struct ibv_gid_entry e, table[RDMADEV_GID_TBL_MAX];
	union ibv_gid g;
	uint8_t ref[16];
	uint32_t i, type = 99;
	__be16 pkey = 0;

	TEST_CHECK_EQ(rdmadev_port_info_get(dev_id, &pi), 0);
	TEST_CHECK(pi.gid_tbl_len >= 1);
	for (i = 0; i < pi.gid_tbl_len; i++) {
		TEST_CHECK_EQ(rdmadev_gid_get(dev_id, i, ref), 0);
		TEST_CHECK_EQ(ibv_query_gid(ctx, 1, (int)i, &g), 0);
		TEST_CHECK(memcmp(g.raw, ref, 16) == 0);
		TEST_CHECK_EQ(ibv_query_gid_ex(ctx, 1, i, &e, 0), 0);
		TEST_CHECK(memcmp(e.gid.raw, ref, 16) == 0);
		TEST_CHECK_EQ(e.gid_type, IBV_GID_TYPE_ROCE_V2);
		TEST_CHECK_EQ(e.gid_index, i);
	}
	/* Past the valid entries: a zero GID (rc 0) and ENODATA, as rdma-core says. */
	memset(&g, 0xff, sizeof(g));
	TEST_CHECK_EQ(ibv_query_gid(ctx, 1, (int)pi.gid_tbl_len, &g), 0);
	TEST_CHECK_EQ(g.global.subnet_prefix | g.global.interface_id, 0);
	TEST_CHECK_EQ(ibv_query_gid_ex(ctx, 1, pi.gid_tbl_len, &e, 0), ENODATA);
	TEST_CHECK_EQ(ibv_query_gid_table(ctx, table, RTE_DIM(table), 0), (ssize_t)pi.gid_tbl_len);
	TEST_CHECK_EQ(ibv_query_gid(ctx, 2, 0, &g), -1);
	TEST_CHECK_EQ(ibv_query_pkey(ctx, 1, 0, &pkey), 0);
	TEST_CHECK_EQ(be16toh(pkey), 0xffff);
	TEST_CHECK_EQ(ibv_query_pkey(ctx, 1, 1, &pkey), -1);
	{
		extern int ibv_query_gid_type(struct ibv_context *, uint8_t, unsigned int,
					      uint32_t *);

		TEST_CHECK_EQ(ibv_query_gid_type(ctx, 1, 0, &type), 0);
		TEST_CHECK_EQ(type, 1);	/* RoCE v2 */
	}
}

/* Two QPs of @p type on one device, connected to each other; buffers from rte_malloc. */
struct pair {
	struct ibv_pd *pd;
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
	struct ibv_mr *mr[2];
	uint8_t *buf[2];
	union ibv_gid gid;
};

/* Non-zero: pair_make creates its QPs with ibv_create_qp_ex and these send_ops_flags. */
static uint64_t pair_send_ops;
/* Not NULL: the SRQ of pair_make's second QP. */
static struct ibv_srq *pair_srq;
/* True: pair_make creates its CQs with ibv_create_cq_ex. */
static bool pair_cq_ex;

/* Move UD QP @p qp from RESET to RTS (port 1, the Q_Key the cases send with): 0 or -1. */
static int
ud_activate(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x11111111 };

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_QKEY) != 0)
		return -1;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE) != 0)
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN) != 0)
		return -1;
	return 0;
}

static int
pair_make(struct pair *p, enum ibv_qp_type type)
{
	struct ibv_qp_init_attr ia;
	int i, j, rc;

	memset(p, 0, sizeof(*p));
	p->pd = pair_srq != NULL ? pair_srq->pd : ibv_alloc_pd(ctx);
	if (p->pd == NULL || ibv_query_gid(ctx, 1, 0, &p->gid) != 0)
		return -1;
	for (i = 0; i < 2; i++) {
		p->buf[i] = rte_zmalloc(NULL, BUF, 4096);
		if (pair_cq_ex) {
			struct ibv_cq_init_attr_ex ca = {
				.cqe = 64,
				.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM |
					    IBV_WC_EX_WITH_IMM,
			};
			struct ibv_cq_ex *cx = ibv_create_cq_ex(ctx, &ca);

			p->cq[i] = cx != NULL ? ibv_cq_ex_to_cq(cx) : NULL;
		} else {
			p->cq[i] = ibv_create_cq(ctx, 64, NULL, NULL, 0);
		}
		if (p->buf[i] == NULL || p->cq[i] == NULL)
			return -1;
		p->mr[i] = ibv_reg_mr(p->pd, p->buf[i], BUF, IBV_ACCESS_LOCAL_WRITE |
				      IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
		vt_qp_init_attr(&ia, type, p->cq[i], p->cq[i], 16, 16, 2);
		ia.srq = i == 1 ? pair_srq : NULL;
		if (pair_send_ops != 0) {
			struct ibv_qp_init_attr_ex ix;

			memset(&ix, 0, sizeof(ix));
			memcpy(&ix, &ia, sizeof(ia));
			ix.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
			ix.pd = p->pd;
			ix.send_ops_flags = pair_send_ops;
			ix.cap.max_inline_data = 64;
			p->qp[i] = ibv_create_qp_ex(ctx, &ix);
			ia.cap = ix.cap;
		} else {
			p->qp[i] = ibv_create_qp(p->pd, &ia);
		}
		if (p->mr[i] == NULL || p->qp[i] == NULL)
			return -1;
		if (ia.cap.max_send_wr < 16 || (ia.cap.max_recv_wr < 16 && ia.srq == NULL))
			return -1;
	}
	for (i = 0; i < 2; i++) {
		j = 1 - i;
		rc = type == IBV_QPT_UD ? ud_activate(p->qp[i]) :
		     vt_rc_connect(p->qp[i], IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
				   p->qp[j]->qp_num, &p->gid, 100 + (uint32_t)j, 100 + (uint32_t)i);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static void
pair_free(struct pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (p->qp[i] != NULL)
			TEST_CHECK_EQ(ibv_destroy_qp(p->qp[i]), 0);
		if (p->mr[i] != NULL)
			TEST_CHECK_EQ(ibv_dereg_mr(p->mr[i]), 0);
		if (p->cq[i] != NULL)
			TEST_CHECK_EQ(ibv_destroy_cq(p->cq[i]), 0);
		rte_free(p->buf[i]);
	}
	if (p->pd != NULL && (pair_srq == NULL || p->pd != pair_srq->pd))
		TEST_CHECK_EQ(ibv_dealloc_pd(p->pd), 0);
}

/* pair_make(), checked: true when the pair is there to use (pair_free() cleans up either way). */
static bool
pair_ready(struct pair *p, enum ibv_qp_type type)
{
	TEST_CHECK_EQ(pair_make(p, type), 0);
	return p->qp[1] != NULL;
}

/* @p sw: one signaled WR of @p op on the SGE @p ss, every other field zero. */
static void
wr_one(struct ibv_send_wr *sw, struct ibv_sge *ss, uint64_t wr_id, enum ibv_wr_opcode op)
{
	*sw = (struct ibv_send_wr){ .wr_id = wr_id, .sg_list = ss, .num_sge = 1, .opcode = op,
				    .send_flags = IBV_SEND_SIGNALED };
}

static void
case_rc_traffic(void)
{
	struct ibv_send_wr sw[3], *bad = NULL;
	struct ibv_recv_wr rw, *rbad = NULL;
	struct ibv_sge ss[3], rs;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qia;
	struct ibv_wc wc;
	struct pair p;
	int i;

	if (!pair_ready(&p, IBV_QPT_RC))
		goto out;
	TEST_CHECK_EQ(ibv_query_qp(p.qp[0], &qa, IBV_QP_STATE, &qia), 0);
	TEST_CHECK_EQ(qa.qp_state, IBV_QPS_RTS);
	TEST_CHECK_EQ(qa.dest_qp_num, p.qp[1]->qp_num);
	TEST_CHECK_EQ(p.qp[0]->state, IBV_QPS_RTS);
	for (i = 0; i < 256; i++)
		p.buf[0][i] = (uint8_t)(i * 7 + 3);
	/* SEND -> RECV. */
	rs = (struct ibv_sge){ (uintptr_t)p.buf[1], 256, p.mr[1]->lkey };
	rw = (struct ibv_recv_wr){ .wr_id = 77, .sg_list = &rs, .num_sge = 1 };
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);
	ss[0] = (struct ibv_sge){ (uintptr_t)p.buf[0], 256, p.mr[0]->lkey };
	memset(sw, 0, sizeof(sw));
	wr_one(&sw[0], &ss[0], 11, IBV_WR_SEND);
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw[0], &bad), 0);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_SEND);
	TEST_CHECK_EQ(wc.wr_id, 11);
	TEST_CHECK_EQ(wc.qp_num, p.qp[0]->qp_num);
	TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_RECV);
	TEST_CHECK_EQ(wc.wr_id, 77);
	TEST_CHECK_EQ(wc.byte_len, 256);
	TEST_CHECK_EQ(wc.wc_flags & IBV_WC_WITH_IMM, 0);
	TEST_CHECK(memcmp(p.buf[0], p.buf[1], 256) == 0);

	/* A list of three: WRITE, WRITE_WITH_IMM (consumes a receive), READ back. */
	rw.wr_id = 78;
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);
	for (i = 0; i < 3; i++) {
		sw[i].wr_id = 20 + (uint64_t)i;
		sw[i].sg_list = &ss[i];
		sw[i].num_sge = 1;
		sw[i].send_flags = IBV_SEND_SIGNALED;
		sw[i].next = i < 2 ? &sw[i + 1] : NULL;
		sw[i].wr.rdma.rkey = p.mr[1]->rkey;
	}
	ss[0] = (struct ibv_sge){ (uintptr_t)p.buf[0], 512, p.mr[0]->lkey };
	ss[1] = (struct ibv_sge){ (uintptr_t)p.buf[0], 16, p.mr[0]->lkey };
	ss[2] = (struct ibv_sge){ (uintptr_t)p.buf[0] + 4096, 512, p.mr[0]->lkey };
	sw[0].opcode = IBV_WR_RDMA_WRITE;
	sw[0].wr.rdma.remote_addr = (uintptr_t)p.buf[1] + 1024;
	sw[1].opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	sw[1].imm_data = htobe32(0x12345678);
	sw[1].wr.rdma.remote_addr = (uintptr_t)p.buf[1] + 2048;
	sw[2].opcode = IBV_WR_RDMA_READ;
	sw[2].wr.rdma.remote_addr = (uintptr_t)p.buf[1] + 1024;
	for (i = 0; i < 512; i++)
		p.buf[0][i] = (uint8_t)(i * 13 + 5);
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw[0], &bad), 0);
	for (i = 0; i < 3; i++) {
		TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
		TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		TEST_CHECK_EQ(wc.wr_id, 20 + (uint64_t)i);
		TEST_CHECK_EQ(wc.opcode, i < 2 ? IBV_WC_RDMA_WRITE : IBV_WC_RDMA_READ);
	}
	TEST_CHECK(memcmp(p.buf[1] + 1024, p.buf[0], 512) == 0);
	TEST_CHECK(memcmp(p.buf[0] + 4096, p.buf[0], 512) == 0);
	TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	TEST_CHECK_EQ(wc.wr_id, 78);
	TEST_CHECK(wc.wc_flags & IBV_WC_WITH_IMM);
	TEST_CHECK_EQ(be32toh(wc.imm_data), 0x12345678);
	TEST_CHECK_EQ(ibv_poll_cq(p.cq[0], 1, &wc), 0);

	/* A WR rdmadev has no opcode for: EINVAL, bad_wr names it, the WR before it went. */
	sw[0].next = &sw[1];
	sw[1].next = NULL;
	sw[0].opcode = IBV_WR_RDMA_WRITE;
	sw[1].opcode = IBV_WR_TSO;
	bad = NULL;
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw[0], &bad), EINVAL);
	TEST_CHECK(bad == &sw[1]);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.wr_id, 20);
	/* The PD is in use: EBUSY. */
	TEST_CHECK_EQ(ibv_dealloc_pd(p.pd), EBUSY);
out:
	pair_free(&p);
}

static void
case_ud_traffic(void)
{
	struct ibv_send_wr sw, *bad = NULL;
	struct ibv_recv_wr rw, *rbad = NULL;
	struct ibv_ah_attr aa;
	struct ibv_sge ss, rs;
	struct ibv_ah *ah, *ah2;
	struct ibv_wc wc;
	struct pair p;
	int i;

	if (!pair_ready(&p, IBV_QPT_UD))
		goto out;
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	aa.grh.dgid = p.gid;
	aa.grh.hop_limit = 64;
	aa.port_num = 1;
	ah = ibv_create_ah(p.pd, &aa);
	TEST_CHECK(ah != NULL);
	aa.is_global = 0;
	CHECK_NULL_ERRNO(ibv_create_ah(p.pd, &aa), EINVAL);	/* RoCE: a GRH is required */
	for (i = 0; i < 100; i++)
		p.buf[0][i] = (uint8_t)(i + 1);
	rs = (struct ibv_sge){ (uintptr_t)p.buf[1], 40 + 100, p.mr[1]->lkey };
	rw = (struct ibv_recv_wr){ .wr_id = 5, .sg_list = &rs, .num_sge = 1 };
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);
	ss = (struct ibv_sge){ (uintptr_t)p.buf[0], 100, p.mr[0]->lkey };
	wr_one(&sw, &ss, 6, IBV_WR_SEND);
	sw.wr.ud.ah = ah;
	sw.wr.ud.remote_qpn = p.qp[1]->qp_num;
	sw.wr.ud.remote_qkey = 0x11111111;
	if (ah != NULL)
		TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw, &bad), 0);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_RECV);
	TEST_CHECK_EQ(wc.byte_len, 140);
	TEST_CHECK(wc.wc_flags & IBV_WC_GRH);
	TEST_CHECK_EQ(wc.src_qp, p.qp[0]->qp_num);
	TEST_CHECK(memcmp(p.buf[1] + 40, p.buf[0], 100) == 0);
	/* The reply address from the completion is the sender's GID. */
	memset(&aa, 0, sizeof(aa));
	TEST_CHECK_EQ(ibv_init_ah_from_wc(ctx, 1, &wc, (struct ibv_grh *)(void *)p.buf[1], &aa),
		      0);
	TEST_CHECK(memcmp(aa.grh.dgid.raw, p.gid.raw, 16) == 0);
	ah2 = ibv_create_ah_from_wc(p.pd, &wc, (struct ibv_grh *)(void *)p.buf[1], 1);
	TEST_CHECK(ah2 != NULL);
	if (ah2 != NULL)
		TEST_CHECK_EQ(ibv_destroy_ah(ah2), 0);
	if (ah != NULL)
		TEST_CHECK_EQ(ibv_destroy_ah(ah), 0);
out:
	pair_free(&p);
}

static void
case_bad_input(void)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_init_attr_ex iax;
	struct ibv_xrcd_init_attr xa;
	struct ibv_srq_init_attr sa;
	struct ibv_context *ctx2;
	struct ibv_qp_attr a;
	struct ibv_cq *cq, *cq2;
	struct ibv_pd *pd;
	struct ibv_qp *qp;
	uint8_t *buf;

	CHECK_NULL_ERRNO(ibv_open_device(NULL), EINVAL);
	CHECK_NULL_ERRNO(ibv_alloc_pd(NULL), EINVAL);
	TEST_CHECK_EQ(ibv_dealloc_pd(NULL), EINVAL);
	TEST_CHECK_EQ(ibv_destroy_qp(NULL), EINVAL);
	TEST_CHECK_EQ(ibv_destroy_cq(NULL), EINVAL);
	TEST_CHECK_EQ(ibv_dereg_mr(NULL), EINVAL);
	TEST_CHECK_EQ(ibv_modify_qp(NULL, &a, IBV_QP_STATE), EINVAL);
	TEST_CHECK(ibv_create_cq(ctx, 0, NULL, NULL, 0) == NULL);
	TEST_CHECK(ibv_create_cq(ctx, 16, NULL, NULL, 5) == NULL);

	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	ctx2 = ibv_open_device(devs[0]);
	cq2 = ctx2 != NULL ? ibv_create_cq(ctx2, 16, NULL, NULL, 0) : NULL;
	TEST_CHECK(pd != NULL && cq != NULL && cq2 != NULL);
	if (pd == NULL || cq == NULL || cq2 == NULL)
		goto out;
	/* Unsupported transports. */
	vt_qp_init_attr(&ia, IBV_QPT_UC, cq, cq, 4, 4, 1);
	CHECK_NULL_ERRNO(ibv_create_qp(pd, &ia), EOPNOTSUPP);
	ia.qp_type = IBV_QPT_XRC_SEND;
	CHECK_NULL_ERRNO(ibv_create_qp(pd, &ia), EOPNOTSUPP);
	ia.qp_type = IBV_QPT_DRIVER;	/* DC */
	CHECK_NULL_ERRNO(ibv_create_qp(pd, &ia), EOPNOTSUPP);
	memset(&xa, 0, sizeof(xa));
	errno = 0;
	TEST_CHECK(ibv_open_xrcd(ctx, &xa) == NULL);
	TEST_CHECK(errno == EOPNOTSUPP || errno == ENOSYS);
	memset(&iax, 0, sizeof(iax));
	iax.qp_type = IBV_QPT_RC;
	iax.send_cq = cq;
	iax.recv_cq = cq;
	iax.pd = pd;
	iax.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS;
	CHECK_NULL_ERRNO(ibv_create_qp_ex(ctx, &iax), EOPNOTSUPP);
	/* A CQ of another context. */
	ia.qp_type = IBV_QPT_RC;
	ia.recv_cq = cq2;
	CHECK_NULL_ERRNO(ibv_create_qp(pd, &ia), EINVAL);
	ia.recv_cq = cq;
	/* ODP and zero-based MRs. */
	buf = rte_zmalloc(NULL, 4096, 4096);
	CHECK_NULL_ERRNO(ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND),
			 EOPNOTSUPP);
	/* The optional-range bits (perftest's RELAXED_ORDERING) are accepted and ignored. */
	{
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
					       IBV_ACCESS_RELAXED_ORDERING);

		TEST_CHECK(mr != NULL);
		if (mr != NULL) {
			TEST_CHECK(mr->addr == buf && mr->length == 4096 && mr->pd == pd);
			TEST_CHECK_EQ(ibv_dereg_mr(mr), 0);
		}
	}
	rte_free(buf);
	/* SRQs and completion channels where the device has none. */
	memset(&sa, 0, sizeof(sa));
	sa.attr.max_wr = 16;
	sa.attr.max_sge = 1;
	{
		struct rdmadev_info info;
		struct ibv_srq *srq;

		TEST_CHECK_EQ(rdmadev_info_get(dev_id, &info), 0);
		errno = 0;
		srq = ibv_create_srq(pd, &sa);
		if (info.capa & RDMADEV_CAPA_SRQ) {
			TEST_CHECK(srq != NULL);
			if (srq != NULL)
				TEST_CHECK_EQ(ibv_destroy_srq(srq), 0);
		} else {
			TEST_CHECK(srq == NULL);
			TEST_CHECK_EQ(errno, EOPNOTSUPP);
		}
	}
	qp = ibv_create_qp(pd, &ia);
	TEST_CHECK(qp != NULL);
	if (qp == NULL)
		goto out;
	CHECK_NULL_ERRNO(ibv_qp_to_qp_ex(qp), EOPNOTSUPP);
	/* Attribute masks: unknown bits, a missing required attribute, an illegal transition. */
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	TEST_CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_RATE_LIMIT), EOPNOTSUPP);
	TEST_CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE | (1 << 30)), EINVAL);
	TEST_CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), EINVAL);
	a.qp_state = IBV_QPS_RTS;
	TEST_CHECK_EQ(ibv_modify_qp(qp, &a, IBV_QP_STATE), EINVAL);
	TEST_CHECK_EQ(qp->state, IBV_QPS_RESET);
	TEST_CHECK_EQ(ibv_attach_mcast(qp, NULL, 0), EOPNOTSUPP);
	TEST_CHECK_EQ(ibv_destroy_qp(qp), 0);
out:
	if (cq2 != NULL)
		TEST_CHECK_EQ(ibv_destroy_cq(cq2), 0);
	if (ctx2 != NULL)
		TEST_CHECK_EQ(ibv_close_device(ctx2), 0);
	if (cq != NULL)
		TEST_CHECK_EQ(ibv_destroy_cq(cq), 0);
	if (pd != NULL)
		TEST_CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

/* ibv_close_device releases what the application left, as the kernel does (perftest's
 * ib_send_bw client leaves its receive CQ). */
static void
case_close_releases(void)
{
	struct ibv_qp_init_attr ia;
	struct ibv_context *c2;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_ah_attr aa;
	uint8_t *buf;

	c2 = ibv_open_device(devs[0]);
	TEST_CHECK(c2 != NULL);
	if (c2 == NULL)
		return;
	buf = rte_zmalloc(NULL, 4096, 4096);
	pd = ibv_alloc_pd(c2);
	cq = ibv_create_cq(c2, 16, NULL, NULL, 0);
	TEST_CHECK(pd != NULL && cq != NULL && buf != NULL);
	if (pd == NULL || cq == NULL || buf == NULL)
		goto out;
	vt_qp_init_attr(&ia, IBV_QPT_UD, cq, ibv_create_cq(c2, 16, NULL, NULL, 0), 4, 4, 1);
	TEST_CHECK(ibv_create_qp(pd, &ia) != NULL);
	TEST_CHECK(ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE) != NULL);
	memset(&aa, 0, sizeof(aa));
	aa.is_global = 1;
	TEST_CHECK_EQ(ibv_query_gid(c2, 1, 0, &aa.grh.dgid), 0);
	aa.port_num = 1;
	TEST_CHECK(ibv_create_ah(pd, &aa) != NULL);
out:
	TEST_CHECK_EQ(ibv_close_device(c2), 0);
	rte_free(buf);
}

/*
 * Make async_fd non-blocking and acknowledge whatever events earlier cases left: the file's
 * flags before, for the case to put back.
 */
static int
async_nonblock_drained(void)
{
	struct ibv_async_event e;
	int fl = fcntl(ctx->async_fd, F_GETFL);

	TEST_CHECK(fl >= 0);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK), 0);
	while (ibv_get_async_event(ctx, &e) == 0)
		ibv_ack_async_event(&e);
	return fl;
}

/*
 * Collect asynchronous events without blocking (async_fd is O_NONBLOCK) until one of @p type
 * naming @p qp; the others are acknowledged.
 */
static int
async_wait(enum ibv_event_type type, const struct ibv_qp *qp, struct ibv_async_event *out)
{
	struct ibv_async_event e;
	uint32_t i;

	for (i = 0; i < POLL_BOUND / 1000; i++) {
		if (ibv_get_async_event(ctx, &e) != 0) {
			if (errno != EAGAIN)
				return -1;
			continue;
		}
		printf("# async event %d (QP %u)\n", (int)e.event_type,
		       e.element.qp != NULL ? e.element.qp->qp_num : 0);
		fflush(stdout);
		if (e.event_type == type && e.element.qp == qp) {
			*out = e;
			return 0;
		}
		ibv_ack_async_event(&e);
	}
	return -1;
}

/* @p sw: a signaled 64-byte WRITE from @p p's first QP to its second with a wrong rkey. */
static void
wr_bad_rkey(const struct pair *p, struct ibv_send_wr *sw, struct ibv_sge *ss, uint64_t wr_id)
{
	*ss = (struct ibv_sge){ (uintptr_t)p->buf[0], 64, p->mr[0]->lkey };
	wr_one(sw, ss, wr_id, IBV_WR_RDMA_WRITE);
	sw->wr.rdma.rkey = p->mr[1]->rkey ^ 0x5a5a00;
	sw->wr.rdma.remote_addr = (uintptr_t)p->buf[1];
}

struct destroyer {
	struct ibv_qp *qp;
	volatile int done;
	int rc;
};

static void *
destroy_thread(void *arg)
{
	struct destroyer *d = arg;

	d->rc = ibv_destroy_qp(d->qp);
	d->done = 1;
	return NULL;
}

/*
 * A WRITE with a bad rkey: the requester completes with REM_ACCESS_ERR, and both QPs report
 * QP_ACCESS_ERR through ibv_get_async_event, each naming its verbs QP; a QP's destroy waits
 * for its event's acknowledgement. With async_fd O_NONBLOCK an empty queue is EAGAIN.
 */
static void
case_async_events(void)
{
	struct ibv_send_wr sw, *bad = NULL;
	struct ibv_async_event e;
	struct destroyer d;
	struct ibv_sge ss;
	struct ibv_wc wc;
	pthread_t th;
	struct pair p;
	int fl, i;

	fl = async_nonblock_drained();
	TEST_CHECK_EQ(errno, EAGAIN);
	if (!pair_ready(&p, IBV_QPT_RC))
		goto out;
	wr_bad_rkey(&p, &sw, &ss, 5);
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw, &bad), 0);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_REM_ACCESS_ERR);
	TEST_CHECK_EQ(async_wait(IBV_EVENT_QP_ACCESS_ERR, p.qp[1], &e), 0);
	TEST_CHECK(e.element.qp == p.qp[1]);
	if (e.element.qp != p.qp[1])
		goto out;
	/* The QP's destroy waits for the event's acknowledgement. */
	d = (struct destroyer){ .qp = p.qp[1] };
	TEST_CHECK_EQ(pthread_create(&th, NULL, destroy_thread, &d), 0);
	for (i = 0; i < 20 && !d.done; i++)
		usleep(10000);
	TEST_CHECK_EQ(d.done, 0);
	ibv_ack_async_event(&e);
	TEST_CHECK_EQ(pthread_join(th, NULL), 0);
	TEST_CHECK_EQ(d.done, 1);
	TEST_CHECK_EQ(d.rc, 0);
	p.qp[1] = NULL;
	/* The requester's QP went to ERR as well (the NAK); then nothing is left queued. */
	TEST_CHECK_EQ(async_wait(IBV_EVENT_QP_ACCESS_ERR, p.qp[0], &e), 0);
	ibv_ack_async_event(&e);
	TEST_CHECK_EQ(ibv_get_async_event(ctx, &e), -1);
	TEST_CHECK_EQ(errno, EAGAIN);
out:
	pair_free(&p);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl), 0);
}

struct late_writer {
	struct ibv_qp *qp;
	struct ibv_send_wr *wr;
	int rc;
};

/* Post @p arg's WRITE a little after the main thread went to wait (no timing is checked). */
static void *
late_write_thread(void *arg)
{
	struct late_writer *w = arg;
	struct ibv_send_wr *bad = NULL;

	test_sleep_ms(50);
	w->rc = ibv_post_send(w->qp, w->wr, &bad);
	return NULL;
}

/*
 * A blocking ibv_get_async_event (async_fd without O_NONBLOCK) returns the event a WRITE with
 * a bad rkey raises, posted by another thread after the wait began: QP_ACCESS_ERR naming one
 * of the pair's QPs. The case watchdog bounds the wait.
 */
static void
case_async_blocking(void)
{
	struct ibv_send_wr sw;
	struct ibv_async_event e, e2;
	struct late_writer w;
	struct ibv_sge ss;
	struct ibv_wc wc;
	pthread_t th;
	struct pair p;
	int fl, rc;

	fl = async_nonblock_drained();
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl & ~O_NONBLOCK), 0);
	if (!pair_ready(&p, IBV_QPT_RC))
		goto out;
	wr_bad_rkey(&p, &sw, &ss, 6);
	w = (struct late_writer){ .qp = p.qp[0], .wr = &sw, .rc = -1 };
	TEST_CHECK_EQ(pthread_create(&th, NULL, late_write_thread, &w), 0);
	rc = ibv_get_async_event(ctx, &e);
	TEST_CHECK_EQ(pthread_join(th, NULL), 0);
	TEST_CHECK_EQ(w.rc, 0);
	TEST_CHECK_EQ(rc, 0);
	if (rc != 0)
		goto out;
	TEST_CHECK_EQ(e.event_type, IBV_EVENT_QP_ACCESS_ERR);
	TEST_CHECK(e.element.qp == p.qp[0] || e.element.qp == p.qp[1]);
	/* The other QP's event follows (the requester's NAK or the responder's check). */
	rc = ibv_get_async_event(ctx, &e2);
	TEST_CHECK_EQ(rc, 0);
	if (rc == 0) {
		TEST_CHECK_EQ(e2.event_type, IBV_EVENT_QP_ACCESS_ERR);
		TEST_CHECK(e2.element.qp != e.element.qp);
		TEST_CHECK(e2.element.qp == p.qp[0] || e2.element.qp == p.qp[1]);
		ibv_ack_async_event(&e2);
	}
	ibv_ack_async_event(&e);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_REM_ACCESS_ERR);
	TEST_CHECK_EQ(wc.wr_id, 6);
out:
	pair_free(&p);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl), 0);
}

/*
 * NULL arguments of the event calls (rdma-core's would dereference them; this layer refuses
 * NULL objects): EINVAL from ibv_get_async_event, ibv_ack_async_event(NULL) returns; then
 * the (empty) queue still answers EAGAIN.
 */
static void
case_async_bad_input(void)
{
	struct ibv_async_event e;
	int fl;

	errno = 0;
	TEST_CHECK_EQ(ibv_get_async_event(NULL, &e), -1);
	TEST_CHECK_EQ(errno, EINVAL);
	errno = 0;
	TEST_CHECK_EQ(ibv_get_async_event(ctx, NULL), -1);
	TEST_CHECK_EQ(errno, EINVAL);
	ibv_ack_async_event(NULL);
	fl = fcntl(ctx->async_fd, F_GETFL);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl | O_NONBLOCK), 0);
	errno = 0;
	TEST_CHECK_EQ(ibv_get_async_event(ctx, &e), -1);
	TEST_CHECK_EQ(errno, EAGAIN);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl), 0);
}

/* Fork a child that writes 0xee over @p buf (@p len bytes): its wait status. */
static int
fork_writer(uint8_t *buf, size_t len)
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		memset(buf, 0xee, len);
		_exit(buf[len - 1] == 0xee ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

/*
 * ibv_fork_init: an MR's pages are not in a child (its write to them is a SIGSEGV), and the
 * parent's buffer keeps its data and takes a WRITE after the fork; once deregistered, a child
 * gets its own copy again. Last case: fork safety stays on for the process.
 */
static void
case_fork(void)
{
	struct ibv_send_wr sw, *bad = NULL;
	struct ibv_sge ss;
	struct ibv_wc wc;
	struct ibv_mr *mr, *mr2;
	struct pair p;
	size_t len = 2 * 4096;
	uint8_t *buf = NULL;
	int st, i;

	/* (DPDK's mlx5 drivers, which EAL loads, call ibv_fork_init when they load.) */
	TEST_CHECK_EQ(ibv_fork_init(), 0);
	TEST_CHECK_EQ(ibv_is_fork_initialized(), IBV_FORK_ENABLED);
	TEST_CHECK_EQ(pair_make(&p, IBV_QPT_RC), 0);
	TEST_CHECK_EQ(posix_memalign((void **)&buf, 4096, len), 0);
	if (p.qp[1] == NULL || buf == NULL)
		goto out;
	memset(buf, 0x11, len);
	mr = ibv_reg_mr(p.pd, buf, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	/* An MR over part of the same pages: they stay DONTFORK while either lives. */
	mr2 = ibv_reg_mr(p.pd, buf + 100, 64, IBV_ACCESS_LOCAL_WRITE);
	TEST_CHECK(mr != NULL && mr2 != NULL);
	if (mr == NULL || mr2 == NULL)
		goto out;
	st = fork_writer(buf, len);
	TEST_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	for (i = 0; i < (int)len; i++)
		if (buf[i] != 0x11)
			break;
	TEST_CHECK_EQ(i, (int)len);
	/* The device still writes the parent's pages. */
	for (i = 0; i < 256; i++)
		p.buf[0][i] = (uint8_t)(i + 9);
	ss = (struct ibv_sge){ (uintptr_t)p.buf[0], 256, p.mr[0]->lkey };
	wr_one(&sw, &ss, 0, IBV_WR_RDMA_WRITE);
	sw.wr.rdma.rkey = mr->rkey;
	sw.wr.rdma.remote_addr = (uintptr_t)buf + 4096;
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw, &bad), 0);
	TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
	TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
	TEST_CHECK(memcmp(buf + 4096, p.buf[0], 256) == 0);
	TEST_CHECK_EQ(ibv_dereg_mr(mr), 0);
	st = fork_writer(buf, len);	/* the first page is still mr2's */
	TEST_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	TEST_CHECK_EQ(ibv_dereg_mr(mr2), 0);
	st = fork_writer(buf, len);
	TEST_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	TEST_CHECK_EQ(buf[0], 0x11);
	TEST_CHECK(memcmp(buf + 4096, p.buf[0], 256) == 0);
out:
	free(buf);
	pair_free(&p);
}

/*
 * The ibv_wr_* builders (inline in <infiniband/verbs.h>, through struct ibv_qp_ex): a batch of
 * WRITE (set_sge), WRITE_WITH_IMM (inline data), READ back (set_sge_list) and SEND (inline
 * list) posts once at ibv_wr_complete; ibv_wr_abort posts nothing; a builder error fails the
 * batch with its errno; a QP without send_ops_flags has no ibv_qp_ex.
 */
static void
case_wr_api(void)
{
	struct ibv_recv_wr rw, *rbad = NULL;
	struct ibv_data_buf db[2];
	struct ibv_sge rs, sl[5];
	struct ibv_qp_ex *x;
	struct ibv_wc wc;
	struct pair p;
	uint8_t pat[48];
	int i, n;

	pair_send_ops = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_SEND;
	TEST_CHECK_EQ(pair_make(&p, IBV_QPT_RC), 0);
	pair_send_ops = 0;
	if (p.qp[1] == NULL)
		goto out;
	x = ibv_qp_to_qp_ex(p.qp[0]);
	TEST_CHECK(x != NULL);
	if (x == NULL)
		goto out;
	for (i = 0; i < 1024; i++)
		p.buf[0][i] = (uint8_t)(i * 11 + 1);
	for (i = 0; i < (int)sizeof(pat); i++)
		pat[i] = (uint8_t)(0xa0 + i);
	rs = (struct ibv_sge){ (uintptr_t)p.buf[1] + 6144, 256, p.mr[1]->lkey };
	rw = (struct ibv_recv_wr){ .wr_id = 90, .sg_list = &rs, .num_sge = 1 };
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);
	rw.wr_id = 91;
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);

	ibv_wr_start(x);
	x->wr_id = 1;
	x->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_write(x, p.mr[1]->rkey, (uintptr_t)p.buf[1]);
	ibv_wr_set_sge(x, p.mr[0]->lkey, (uintptr_t)p.buf[0], 1024);
	x->wr_id = 2;
	ibv_wr_rdma_write_imm(x, p.mr[1]->rkey, (uintptr_t)p.buf[1] + 2048, htobe32(0xabcd));
	ibv_wr_set_inline_data(x, pat, sizeof(pat));
	memset(pat, 0, sizeof(pat));	/* inline data is copied at the call */
	x->wr_id = 3;
	ibv_wr_rdma_read(x, p.mr[1]->rkey, (uintptr_t)p.buf[1]);
	sl[0] = (struct ibv_sge){ (uintptr_t)p.buf[0] + 4096, 512, p.mr[0]->lkey };
	sl[1] = (struct ibv_sge){ (uintptr_t)p.buf[0] + 4608, 512, p.mr[0]->lkey };
	ibv_wr_set_sge_list(x, 2, sl);
	x->wr_id = 4;
	ibv_wr_send(x);
	db[0] = (struct ibv_data_buf){ .addr = p.buf[0], .length = 16 };
	db[1] = (struct ibv_data_buf){ .addr = p.buf[0] + 100, .length = 8 };
	ibv_wr_set_inline_data_list(x, 2, db);
	TEST_CHECK_EQ(ibv_wr_complete(x), 0);
	for (n = 0; n < 4; n++) {
		TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
		TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		TEST_CHECK_EQ(wc.wr_id, (uint64_t)n + 1);
	}
	TEST_CHECK(memcmp(p.buf[1], p.buf[0], 1024) == 0);
	for (i = 0; i < 48; i++)
		if (p.buf[1][2048 + i] != (uint8_t)(0xa0 + i))
			break;
	TEST_CHECK_EQ(i, 48);
	TEST_CHECK(memcmp(p.buf[0] + 4096, p.buf[0], 1024) == 0);
	TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	TEST_CHECK_EQ(be32toh(wc.imm_data), 0xabcd);
	TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	TEST_CHECK_EQ(wc.opcode, IBV_WC_RECV);
	TEST_CHECK_EQ(wc.byte_len, 24);
	TEST_CHECK(memcmp(p.buf[1] + 6144, p.buf[0], 16) == 0);
	TEST_CHECK(memcmp(p.buf[1] + 6160, p.buf[0] + 100, 8) == 0);

	/* Abort: nothing posted. Too many SGEs: the batch fails, nothing posted. */
	ibv_wr_start(x);
	ibv_wr_rdma_write(x, p.mr[1]->rkey, (uintptr_t)p.buf[1]);
	ibv_wr_set_sge(x, p.mr[0]->lkey, (uintptr_t)p.buf[0], 8);
	ibv_wr_abort(x);
	for (i = 0; i < 5; i++)
		sl[i] = (struct ibv_sge){ (uintptr_t)p.buf[0], 8, p.mr[0]->lkey };
	ibv_wr_start(x);
	ibv_wr_rdma_write(x, p.mr[1]->rkey, (uintptr_t)p.buf[1]);
	ibv_wr_set_sge_list(x, 5, sl);
	TEST_CHECK_EQ(ibv_wr_complete(x), EINVAL);
	TEST_CHECK_EQ(ibv_poll_cq(p.cq[0], 1, &wc), 0);
	/* A NULL address handle: the batch fails, nothing posted, no crash. */
	ibv_wr_start(x);
	ibv_wr_send(x);
	ibv_wr_set_ud_addr(x, NULL, 5, 0x11111111);
	ibv_wr_set_sge(x, p.mr[0]->lkey, (uintptr_t)p.buf[0], 8);
	TEST_CHECK_EQ(ibv_wr_complete(x), EINVAL);
	TEST_CHECK_EQ(ibv_poll_cq(p.cq[0], 1, &wc), 0);
	/* No send_ops_flags: no ibv_qp_ex; unsupported ones: EOPNOTSUPP. */
	{
		struct ibv_qp_init_attr_ex ix;

		memset(&ix, 0, sizeof(ix));
		ix.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		ix.pd = p.pd;
		ix.send_cq = ix.recv_cq = p.cq[0];
		ix.qp_type = IBV_QPT_RC;
		ix.cap.max_send_wr = ix.cap.max_recv_wr = 4;
		ix.cap.max_send_sge = ix.cap.max_recv_sge = 1;
		ix.send_ops_flags = IBV_QP_EX_WITH_BIND_MW;
		CHECK_NULL_ERRNO(ibv_create_qp_ex(ctx, &ix), EOPNOTSUPP);
		ix.comp_mask |= IBV_QP_INIT_ATTR_XRCD;
		ix.send_ops_flags = IBV_QP_EX_WITH_SEND;
		CHECK_NULL_ERRNO(ibv_create_qp_ex(ctx, &ix), EOPNOTSUPP);
	}
out:
	pair_free(&p);
}

/*
 * ibv_create_cq_ex: three WRITEs and a WRITE_WITH_IMM come out of one ibv_start_poll ...
 * ibv_end_poll iteration with their wr_id, status and the getters' fields; an empty CQ is
 * ENOENT; unsupported wc_flags are EOPNOTSUPP.
 */
static void
case_cq_ex(void)
{
	struct ibv_recv_wr rw, *rbad = NULL;
	struct ibv_send_wr sw[4], *bad = NULL;
	struct ibv_poll_cq_attr pa = { 0 };
	struct ibv_cq_init_attr_ex ca;
	struct ibv_sge ss, rs;
	struct ibv_cq_ex *x;
	struct pair p;
	int i, rc, n = 0;

	pair_cq_ex = true;
	TEST_CHECK_EQ(pair_make(&p, IBV_QPT_RC), 0);
	pair_cq_ex = false;
	if (p.qp[1] == NULL)
		goto out;
	x = (struct ibv_cq_ex *)(void *)p.cq[0];	/* ibv_cq_ex_to_cq is a cast */
	TEST_CHECK_EQ(ibv_start_poll(x, &pa), ENOENT);
	rs = (struct ibv_sge){ (uintptr_t)p.buf[1] + 4096, 64, p.mr[1]->lkey };
	rw = (struct ibv_recv_wr){ .wr_id = 50, .sg_list = &rs, .num_sge = 1 };
	TEST_CHECK_EQ(ibv_post_recv(p.qp[1], &rw, &rbad), 0);
	ss = (struct ibv_sge){ (uintptr_t)p.buf[0], 100, p.mr[0]->lkey };
	memset(sw, 0, sizeof(sw));
	for (i = 0; i < 4; i++) {
		sw[i].wr_id = 40 + (uint64_t)i;
		sw[i].sg_list = &ss;
		sw[i].num_sge = 1;
		sw[i].opcode = i < 3 ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_WRITE_WITH_IMM;
		sw[i].imm_data = htobe32(77);
		sw[i].send_flags = IBV_SEND_SIGNALED;
		sw[i].wr.rdma.rkey = p.mr[1]->rkey;
		sw[i].wr.rdma.remote_addr = (uintptr_t)p.buf[1];
		sw[i].next = i < 3 ? &sw[i + 1] : NULL;
	}
	TEST_CHECK_EQ(ibv_post_send(p.qp[0], sw, &bad), 0);
	for (i = 0; i < (int)POLL_BOUND && n < 4; i++) {
		rc = ibv_start_poll(x, &pa);
		if (rc == ENOENT)
			continue;
		TEST_CHECK_EQ(rc, 0);
		if (rc != 0)
			break;
		do {
			TEST_CHECK_EQ(x->wr_id, 40 + (uint64_t)n);
			TEST_CHECK_EQ(x->status, IBV_WC_SUCCESS);
			TEST_CHECK_EQ(ibv_wc_read_opcode(x), IBV_WC_RDMA_WRITE);
			TEST_CHECK_EQ(ibv_wc_read_qp_num(x), p.qp[0]->qp_num);
			n++;
		} while (ibv_next_poll(x) == 0);
		ibv_end_poll(x);
	}
	TEST_CHECK_EQ(n, 4);
	/* The responder's CQ: the WRITE_WITH_IMM's receive, with its length and immediate. */
	x = (struct ibv_cq_ex *)(void *)p.cq[1];
	for (i = 0; i < (int)POLL_BOUND && (rc = ibv_start_poll(x, &pa)) == ENOENT; i++)
		;
	TEST_CHECK_EQ(rc, 0);
	if (rc == 0) {
		TEST_CHECK_EQ(x->wr_id, 50);
		TEST_CHECK_EQ(ibv_wc_read_opcode(x), IBV_WC_RECV_RDMA_WITH_IMM);
		TEST_CHECK_EQ(ibv_wc_read_byte_len(x), 100);
		TEST_CHECK_EQ(be32toh(ibv_wc_read_imm_data(x)), 77);
		TEST_CHECK(ibv_wc_read_wc_flags(x) & IBV_WC_WITH_IMM);
		ibv_end_poll(x);
	}
	memset(&ca, 0, sizeof(ca));
	ca.cqe = 16;
	ca.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	CHECK_NULL_ERRNO(ibv_create_cq_ex(ctx, &ca), EOPNOTSUPP);
out:
	pair_free(&p);
}

/* True (and a line saying so) when the device has no SRQs: case @p name is skipped. */
static bool
srq_skip(const char *name)
{
	struct ibv_device_attr da;

	TEST_CHECK_EQ(ibv_query_device(ctx, &da), 0);
	if (da.max_srq != 0)
		return false;
	printf("# %s has no SRQs: %s skipped\n", ibv_get_device_name(devs[0]), name);
	return true;
}

/*
 * The SRQ cases' set-up: a PD of their own (*@p pd), pair_srq on it (16 WRs) and an RC pair
 * whose second QP receives from it. True when all is there; srq_pair_free() cleans up
 * either way.
 */
static bool
srq_pair_ready(struct pair *p, struct ibv_pd **pd)
{
	struct ibv_srq_init_attr si = { .attr = { .max_wr = 16, .max_sge = 1 } };

	*pd = ibv_alloc_pd(ctx);
	pair_srq = *pd != NULL ? ibv_create_srq(*pd, &si) : NULL;
	TEST_CHECK(pair_srq != NULL);
	return pair_srq != NULL && pair_ready(p, IBV_QPT_RC);
}

static void
srq_pair_free(struct pair *p, struct ibv_pd *pd)
{
	if (pair_srq != NULL) {
		pair_free(p);
		TEST_CHECK_EQ(ibv_destroy_srq(pair_srq), 0);
		pair_srq = NULL;
	}
	if (pd != NULL)
		TEST_CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

/*
 * An SRQ armed by ibv_modify_srq(IBV_SRQ_LIMIT) reports SRQ_LIMIT_REACHED, naming the verbs
 * SRQ, once fewer WRs than the limit are posted; its destroy waits for the acknowledgement.
 * Needs a device with SRQs (test_verbs --srq, run on a gen3 model): skipped elsewhere.
 */
static void
case_srq_limit(void)
{
	struct ibv_send_wr sw, *bad = NULL;
	struct ibv_recv_wr rw, *rbad = NULL;
	struct ibv_srq_attr sa = { .srq_limit = 4 };
	struct ibv_async_event e;
	struct ibv_sge ss, rs;
	struct ibv_wc wc;
	struct ibv_pd *pd;
	struct pair p;
	int fl, i;

	if (srq_skip(__func__))
		return;
	fl = async_nonblock_drained();
	if (!srq_pair_ready(&p, &pd))
		goto out;
	rs = (struct ibv_sge){ (uintptr_t)p.buf[1], 64, p.mr[1]->lkey };
	rw = (struct ibv_recv_wr){ .sg_list = &rs, .num_sge = 1 };
	for (i = 0; i < 8; i++)
		TEST_CHECK_EQ(ibv_post_srq_recv(pair_srq, &rw, &rbad), 0);
	TEST_CHECK_EQ(ibv_modify_srq(pair_srq, &sa, IBV_SRQ_LIMIT), 0);
	ss = (struct ibv_sge){ (uintptr_t)p.buf[0], 64, p.mr[0]->lkey };
	wr_one(&sw, &ss, 0, IBV_WR_SEND);
	for (i = 0; i < 5; i++) {	/* 8 -> 3 posted: below the limit of 4 */
		TEST_CHECK_EQ(ibv_post_send(p.qp[0], &sw, &bad), 0);
		TEST_CHECK_EQ(poll_one(p.cq[0], &wc), 1);
		TEST_CHECK_EQ(wc.status, IBV_WC_SUCCESS);
		TEST_CHECK_EQ(poll_one(p.cq[1], &wc), 1);
	}
	for (i = 0; i < (int)POLL_BOUND / 1000; i++)
		if (ibv_get_async_event(ctx, &e) == 0)
			break;
	TEST_CHECK(i < (int)POLL_BOUND / 1000);
	if (i < (int)POLL_BOUND / 1000) {
		TEST_CHECK_EQ(e.event_type, IBV_EVENT_SRQ_LIMIT_REACHED);
		TEST_CHECK(e.element.srq == pair_srq);
		ibv_ack_async_event(&e);
	}
out:
	srq_pair_free(&p, pd);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl), 0);
}

/* A writable MR over read-only memory is EFAULT (as the kernel's pin refuses it); read-only works. */
static void
case_mr_readonly(void)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_mr *mr;
	void *ro;

	ro = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_CHECK(pd != NULL && ro != MAP_FAILED);
	if (pd == NULL || ro == MAP_FAILED)
		return;
	CHECK_NULL_ERRNO(ibv_reg_mr(pd, ro, 8192, IBV_ACCESS_LOCAL_WRITE), EFAULT);
	CHECK_NULL_ERRNO(ibv_reg_mr(pd, ro, 8192, IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE),
			 EFAULT);
	mr = ibv_reg_mr(pd, ro, 8192, IBV_ACCESS_REMOTE_READ);
	TEST_CHECK(mr != NULL);
	if (mr != NULL)
		TEST_CHECK_EQ(ibv_dereg_mr(mr), 0);
	TEST_CHECK_EQ(ibv_dealloc_pd(pd), 0);
	munmap(ro, 8192);
}

/*
 * A QP that receives from an SRQ, moved to ERR by the application: IBV_EVENT_QP_LAST_WQE_REACHED
 * naming it; a QP without an SRQ moved to ERR raises no event.
 */
static void
case_srq_last_wqe(void)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct ibv_async_event e;
	struct ibv_pd *pd;
	struct pair p;
	int fl;

	if (srq_skip(__func__))
		return;
	fl = async_nonblock_drained();
	if (!srq_pair_ready(&p, &pd))
		goto out;
	TEST_CHECK_EQ(ibv_modify_qp(p.qp[1], &a, IBV_QP_STATE), 0);
	TEST_CHECK_EQ(async_wait(IBV_EVENT_QP_LAST_WQE_REACHED, p.qp[1], &e), 0);
	if (e.element.qp == p.qp[1])
		ibv_ack_async_event(&e);
	/* The QP without the SRQ, moved to ERR too, reports nothing. */
	TEST_CHECK_EQ(ibv_modify_qp(p.qp[0], &a, IBV_QP_STATE), 0);
	TEST_CHECK_EQ(ibv_get_async_event(ctx, &e), -1);
	TEST_CHECK_EQ(errno, EAGAIN);
out:
	srq_pair_free(&p, pd);
	TEST_CHECK_EQ(fcntl(ctx->async_fd, F_SETFL, fl), 0);
}

/* rdmadev's view of the device, for the ibv_devinfo comparison. */
static int
print_rdmadev(void)
{
	struct rdmadev_port_info pi;
	struct rdmadev_info in;
	uint8_t g[16];
	uint32_t i;

	if (rdmadev_info_get(dev_id, &in) != 0 || rdmadev_port_info_get(dev_id, &pi) != 0)
		return 1;
	printf("hca_id %s\n", rdmadev_name(dev_id));
	printf("max_qp %u\nmax_qp_wr %u\nmax_cq %u\nmax_cqe %u\nmax_mr %u\nmax_pd %u\n",
	       in.max_qp, in.max_qp_wr, in.max_cq, in.max_cqe, in.max_mr, in.max_pd);
	printf("max_sge %u\nmax_qp_rd_atom %u\nmax_ah %u\nphys_port_cnt %u\n", in.max_sge,
	       in.max_qp_rd_atom, in.max_ah, in.nb_ports);
	printf("max_mr_size 0x%" PRIx64 "\npage_size_cap 0x%" PRIx64 "\n", in.max_mr_size,
	       in.page_size_cap);
	printf("fw_ver %s\ngid_tbl_len %u\nmax_mtu %u\nactive_mtu %u\n", pi.fw_ver,
	       pi.gid_tbl_len, 128u << pi.max_mtu, 128u << pi.active_mtu);
	printf("mac %02x:%02x:%02x:%02x:%02x:%02x\n", pi.mac[0], pi.mac[1], pi.mac[2],
	       pi.mac[3], pi.mac[4], pi.mac[5]);
	for (i = 0; i < pi.gid_tbl_len; i++) {
		if (rdmadev_gid_get(dev_id, i, g) != 0)
			return 1;
		printf("gid %u", i);
		for (int j = 0; j < 16; j++)
			printf("%s%02x", j == 0 ? " " : "", g[j]);
		printf("\n");
	}
	return 0;
}

int
main(int argc, char **argv)
{
	setup();
	if (argc > 1 && strcmp(argv[1], "--print") == 0)
		return print_rdmadev();
	test_set_watchdog(120);
	if (argc > 1 && strcmp(argv[1], "--srq") == 0) {
		TEST_RUN(case_srq_limit);
		TEST_RUN(case_srq_last_wqe);
		TEST_CHECK_EQ(ibv_close_device(ctx), 0);
		ibv_free_device_list(devs);
		return test_done();
	}
	TEST_RUN(case_devices);
	TEST_RUN(case_query_device);
	TEST_RUN(case_query_port);
	TEST_RUN(case_gids);
	TEST_RUN(case_rc_traffic);
	TEST_RUN(case_ud_traffic);
	TEST_RUN(case_bad_input);
	TEST_RUN(case_close_releases);
	TEST_RUN(case_async_events);
	TEST_RUN(case_async_blocking);
	TEST_RUN(case_async_bad_input);
	TEST_RUN(case_wr_api);
	TEST_RUN(case_cq_ex);
	TEST_RUN(case_srq_limit);
	TEST_RUN(case_srq_last_wqe);
	TEST_RUN(case_mr_readonly);
	TEST_RUN(case_fork);
	TEST_CHECK_EQ(ibv_close_device(ctx), 0);
	ibv_free_device_list(devs);
	return test_done();
}
