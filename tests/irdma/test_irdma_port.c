/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The port's addresses end to end: rdmadev_port_info_get() / rdmadev_gid_get() on the
 * model, the GID table from devargs `ip=` and the default one, the devargs `mac=` / `wire=`,
 * every parse error, and the source addresses the driver writes: the QP host context
 * (decoded here from its bytes, doc/hardware.md §5.4: LOCAL_IPADDR3 byte 184 bits 31:0, ADDR2 184
 * 63:32, ADDR1 192 31:0, ADDR0 192 63:32, IPV4 byte 0 bit 3, local MAC byte 152 bits 63:16)
 * and CREATE_ADDR_HANDLE (the kernel's uda_d.h: source address words in qwords 6 and 7).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"

/* The port's answers do not depend on the model's mode: the inline model only. */
#define TAIL ",qps=64,cqs=64,mrs=64,mode=inline"

/* Opcode of CREATE_ADDR_HANDLE (doc/hardware.md §5.2). */
#define OP_CREATE_AH 0x1c

/* An IPv4-mapped GID of a.b.c.d. */
static void
gid4(uint8_t g[16], uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(g, 0, 16);
	g[10] = 0xff;
	g[11] = 0xff;
	g[12] = a;
	g[13] = b;
	g[14] = c;
	g[15] = d;
}

/* 2001:db8::@p last. */
static void
gid6(uint8_t g[16], uint8_t last)
{
	memset(g, 0, 16);
	g[0] = 0x20;
	g[1] = 0x01;
	g[2] = 0x0d;
	g[3] = 0xb8;
	g[15] = last;
}

static void
test_port_default(void)
{
	struct rdmadev_port_info pi;
	uint8_t g[16], want[16];
	struct irdma_hw *hw;
	int id;

	id = rdmadev_open("irdma_model3" TAIL);
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	hw = irdma_dev_hw(rdmadev_get((int16_t)id));
	TEST_CHECK(hw != NULL);
	memset(&pi, 0xff, sizeof(pi));
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK(hw != NULL && memcmp(pi.mac, hw->mac, 6) == 0);
	TEST_CHECK_EQ(pi.mac[0], 0x02);		/* the model's locally administered default */
	/* The link is the PF layer's to learn: DOWN until the device is started. */
	TEST_CHECK_EQ(pi.state, RDMADEV_PORT_DOWN);
	TEST_CHECK(strcmp(rdmadev_port_state_name(pi.state), "DOWN") == 0);
	TEST_CHECK(strcmp(rdmadev_port_state_name(RDMADEV_PORT_ACTIVE), "ACTIVE") == 0);
	TEST_CHECK(strcmp(rdmadev_port_state_name((enum rdmadev_port_state)9), "UNKNOWN") == 0);
	TEST_CHECK_EQ(pi.mtu, 1500);
	TEST_CHECK_EQ(pi.max_mtu, RDMADEV_MTU_4096);
	TEST_CHECK_EQ(pi.active_mtu, RDMADEV_MTU_1024);
	TEST_CHECK_EQ(pi.gid_tbl_len, 2);
	/* irdma_model3: ::ffff:10.0.0.4, then fe80:: + the EUI-64 of the MAC. */
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 0, g), 0);
	gid4(want, 10, 0, 0, 4);
	TEST_CHECK(memcmp(g, want, 16) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 1, g), 0);
	memset(want, 0, sizeof(want));
	want[0] = 0xfe;
	want[1] = 0x80;
	want[8] = pi.mac[0] ^ 0x02;
	want[9] = pi.mac[1];
	want[10] = pi.mac[2];
	want[11] = 0xff;
	want[12] = 0xfe;
	want[13] = pi.mac[3];
	want[14] = pi.mac[4];
	want[15] = pi.mac[5];
	TEST_CHECK(memcmp(g, want, 16) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 2, g), -EINVAL);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 0, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_port_info_get(99, &pi), -EINVAL);
	TEST_CHECK_EQ(rdmadev_gid_get(99, 0, g), -EINVAL);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

static void
test_port_devargs(void)
{
	static const uint8_t mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct rdmadev_port_info pi;
	uint8_t g[16], want[16];
	int id;

	id = rdmadev_open("irdma_model0,ip=192.168.7.9;2001:db8::5;10.1.2.3,"
			  "mac=02:11:22:33:44:55,wire=loop" TAIL);
	TEST_CHECK(id >= 0);
	if (id < 0)
		return;
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK(memcmp(pi.mac, mac, 6) == 0);
	TEST_CHECK_EQ(pi.gid_tbl_len, 3);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 0, g), 0);
	gid4(want, 192, 168, 7, 9);
	TEST_CHECK(memcmp(g, want, 16) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 1, g), 0);
	gid6(want, 5);
	TEST_CHECK(memcmp(g, want, 16) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 2, g), 0);
	gid4(want, 10, 1, 2, 3);
	TEST_CHECK(memcmp(g, want, 16) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 3, g), -EINVAL);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/*
 * devargs mtu: the port's Ethernet MTU, and the active path MTU the largest whose packet
 * (payload + 96 bytes of RoCEv2 headers at most, as the kernel's iboe_get_mtu()) fits.
 */
static void
test_port_mtu(void)
{
	static const struct {
		const char *arg;
		uint32_t mtu;
		uint8_t active;
	} ok[] = {
		{ ",mtu=352", 352, RDMADEV_MTU_256 },
		{ ",mtu=607", 607, RDMADEV_MTU_256 },	/* 512 + 96 = 608 does not fit */
		{ ",mtu=608", 608, RDMADEV_MTU_512 },
		{ ",mtu=1500", 1500, RDMADEV_MTU_1024 },
		{ ",mtu=2144", 2144, RDMADEV_MTU_2048 },
		{ ",mtu=4191", 4191, RDMADEV_MTU_2048 },
		{ ",mtu=4192", 4192, RDMADEV_MTU_4096 },
		{ ",mtu=9000", 9000, RDMADEV_MTU_4096 },
		{ ",mtu=9702", 9702, RDMADEV_MTU_4096 },
	};
	static const char *const bad[] = { "351", "9703", "0", "-1", "1500x", "", "0x600" };
	char args[128], *buf = NULL;
	struct rdmadev_port_info pi;
	size_t len = 0;
	unsigned int i;
	FILE *f;
	int id;

	for (i = 0; i < RTE_DIM(ok); i++) {
		snprintf(args, sizeof(args), "irdma_model0%s" TAIL, ok[i].arg);
		id = rdmadev_open(args);
		TEST_CHECK(id >= 0);
		if (id < 0)
			continue;
		TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
		TEST_CHECK_EQ(pi.mtu, ok[i].mtu);
		TEST_CHECK_EQ(pi.active_mtu, ok[i].active);
		TEST_CHECK_EQ(pi.max_mtu, RDMADEV_MTU_4096);
		TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	}
	f = open_memstream(&buf, &len);
	TEST_CHECK(f != NULL);
	if (f == NULL)
		return;
	rte_openlog_stream(f);
	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(args, sizeof(args), "irdma_model0,mtu=%s" TAIL, bad[i]);
		TEST_CHECK_EQ(rdmadev_open(args), -EINVAL);
		TEST_CHECK_EQ(rdmadev_count(), 0);
	}
	rte_openlog_stream(NULL);
	fclose(f);
	TEST_CHECK(buf != NULL && strstr(buf, "devargs mtu=9703: must be 352..9702") != NULL);
	TEST_CHECK(buf != NULL && strstr(buf, "devargs mtu=-1: not a number") != NULL);
	free(buf);
}

static void
test_devargs_errors(void)
{
	static const char *const bad[] = {
		"irdma_model0,ip=" TAIL,
		"irdma_model0,ip=1.2.3" TAIL,
		"irdma_model0,ip=1.1.1.1;" TAIL,
		"irdma_model0,ip=;1.1.1.1" TAIL,
		"irdma_model0,ip=1.1.1.1;;2.2.2.2" TAIL,
		"irdma_model0,ip=1.1.1.1;1.1.1.1" TAIL,
		"irdma_model0,ip=::1::2" TAIL,
		"irdma_model0,ip=300.1.1.1" TAIL,
		"irdma_model0,ip=fe80::1%eth0" TAIL,
		"irdma_model0,mac=01:00:00:00:00:01" TAIL,
		"irdma_model0,mac=00:00:00:00:00:00" TAIL,
		"irdma_model0,mac=02:00:00:00:00" TAIL,
		"irdma_model0,mac=zz:00:00:00:00:01" TAIL,
		"irdma_model0,mac=02:00:00:00:00:01:02" TAIL,
		"irdma_model0,wire=" TAIL,
		"irdma_model0,wire=udp:127.0.0.1:4791/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxxxx" TAIL,
	};
	char many[40 * 33] = "irdma_model0,ip=";
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		int id = rdmadev_open(bad[i]);

		if (id != -EINVAL)
			printf("# accepted or wrong error (%d): %s\n", id, bad[i]);
		TEST_CHECK_EQ(id, -EINVAL);
		TEST_CHECK_EQ(rdmadev_count(), 0);
	}
	/* 33 addresses: one more than the table. */
	for (i = 0; i < 33; i++) {
		char a[24];

		snprintf(a, sizeof(a), "%s10.0.0.%u", i == 0 ? "" : ";", i + 1);
		strcat(many, a);
	}
	TEST_CHECK_EQ(rdmadev_open(many), -EINVAL);
	/* 32 are fine. */
	*strrchr(many, ';') = '\0';
	i = (unsigned int)rdmadev_open(many);
	TEST_CHECK((int)i >= 0);
	if ((int)i >= 0) {
		struct rdmadev_port_info pi;

		TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)i, &pi), 0);
		TEST_CHECK_EQ(pi.gid_tbl_len, 32);
		TEST_CHECK_EQ(rdmadev_close((int16_t)i), 0);
	}
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

struct env {
	int id;
	struct irdma_hw *hw;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *qp;
};

static int
env_up(struct env *e)
{
	const struct rdmadev_cq_attr cqa = { .cqe = 32, .comp_vector = 0 };

	memset(e, 0, sizeof(*e));
	if (pmd_dev_up("irdma_model0,ip=192.168.7.9;2001:db8::5,mac=02:11:22:33:44:55" TAIL,
		       &e->id, &e->ctx, &e->pd) != 0)
		return -1;
	e->hw = irdma_dev_hw(rdmadev_get((int16_t)e->id));
	TEST_CHECK_EQ(rdmadev_cq_create(e->ctx, &cqa, &e->cq), 0);
	if (e->cq == NULL)
		return -1;
	e->qp = pmd_qp_create(e->pd, e->cq, RDMADEV_QPT_RC, 8);
	return e->qp != NULL ? 0 : -1;
}

static void
env_down(struct env *e)
{
	struct rdmadev *dev = rdmadev_get((int16_t)e->id);
	struct irdma_model_stats st;

	if (e->id < 0)
		return;
	if (e->qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(e->qp), 0);
	if (e->cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(e->cq), 0);
	if (e->pd != NULL)
		TEST_CHECK_EQ(rdmadev_pd_free(e->pd), 0);
	TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_QP, NULL), 0);
	TEST_CHECK_EQ(restrack_count(dev->res, RESTRACK_PD, NULL), 0);
	pmd_dev_down(e->id, e->ctx, NULL, &st);
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

static int
modify(struct rdmadev_qp *qp, enum rdmadev_qp_state to, struct rdmadev_qp_attr *a,
       uint32_t mask)
{
	a->qp_state = to;
	return rdmadev_qp_modify(qp, a, mask | RDMADEV_QP_STATE);
}

static int
to_init(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	return modify(qp, RDMADEV_QPS_INIT, &a, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
		      RDMADEV_QP_ACCESS_FLAGS);
}

/* To RTR with an AV to @p dgid from source GID @p sgid (no destination MAC). */
static int
to_rtr(struct rdmadev_qp *qp, const uint8_t dgid[16], uint8_t sgid)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(a.ah_attr.dgid, dgid, 16);
	a.ah_attr.sgid_index = sgid;
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 0x42;
	a.max_dest_rd_atomic = 1;
	return modify(qp, RDMADEV_QPS_RTR, &a, RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
		      RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
		      RDMADEV_QP_MIN_RNR_TIMER);
}

static void
test_qp_source(void)
{
	struct rdmadev_qp_attr a;
	const uint8_t *c;
	uint8_t dg[16];
	struct env e;

	if (env_up(&e) != 0)
		goto out;
	c = (const uint8_t *)((const struct irdma_qp *)e.qp->obj.fp.drv)->hctx.va + 256;
	/* The local MAC is in the context from creation on. */
	TEST_CHECK_EQ(test_le_bits(c, 152, 63, 16), UINT64_C(0x021122334455));
	TEST_CHECK_EQ(to_init(e.qp), 0);
	/* Refusals: index beyond the table, families that differ; the QP stays in INIT. */
	gid4(dg, 192, 168, 7, 1);
	TEST_CHECK_EQ(to_rtr(e.qp, dg, 2), -EINVAL);
	TEST_CHECK_EQ(to_rtr(e.qp, dg, 1), -EINVAL);
	gid6(dg, 9);
	TEST_CHECK_EQ(to_rtr(e.qp, dg, 0), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_get_state(e.qp), RDMADEV_QPS_INIT);
	/* IPv4: LOCAL_IPADDR3 only, IPV4 set. */
	gid4(dg, 192, 168, 7, 1);
	TEST_CHECK_EQ(to_rtr(e.qp, dg, 0), 0);
	TEST_CHECK_EQ(test_le_bits(c, 0, 3, 3), 1);
	TEST_CHECK_EQ(test_le_bits(c, 184, 31, 0), 0xc0a80709);
	TEST_CHECK_EQ(test_le_bits(c, 184, 63, 32), 0);
	TEST_CHECK_EQ(test_le_bits(c, 192, 63, 0), 0);
	TEST_CHECK_EQ(test_le_bits(c, 32, 31, 0), 0xc0a80701);	/* destination, for contrast */
	TEST_CHECK_EQ(test_le_bits(c, 152, 63, 16), UINT64_C(0x021122334455));
	/* IPv6 after RESET: all four words, IPV4 clear. */
	memset(&a, 0, sizeof(a));
	TEST_CHECK_EQ(modify(e.qp, RDMADEV_QPS_RESET, &a, 0), 0);
	TEST_CHECK_EQ(to_init(e.qp), 0);
	gid6(dg, 9);
	TEST_CHECK_EQ(to_rtr(e.qp, dg, 1), 0);
	TEST_CHECK_EQ(test_le_bits(c, 0, 3, 3), 0);
	TEST_CHECK_EQ(test_le_bits(c, 192, 63, 32), 0x20010db8);
	TEST_CHECK_EQ(test_le_bits(c, 192, 31, 0), 0);
	TEST_CHECK_EQ(test_le_bits(c, 184, 63, 32), 0);
	TEST_CHECK_EQ(test_le_bits(c, 184, 31, 0), 5);
	TEST_CHECK_EQ(test_le_bits(c, 152, 63, 16), UINT64_C(0x021122334455));
out:
	env_down(&e);
}

static void
test_ah_source(void)
{
	struct rdmadev_ah *a4 = NULL, *a6 = NULL, *bad = NULL;
	struct irdma_model_ah_info in;
	struct rdmadev_ah_attr av;
	uint8_t wqe[64];
	struct env e;

	if (env_up(&e) != 0)
		goto out;
	memset(&av, 0, sizeof(av));
	gid4(av.dgid, 192, 168, 7, 1);
	av.dmac[0] = 0x02;
	av.dmac[5] = 0x01;
	av.vlan_id = 0xffff;
	av.port_num = 1;
	av.sgid_index = 5;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &bad), -EINVAL);
	av.sgid_index = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &bad), -EINVAL);
	TEST_CHECK(bad == NULL);
	av.sgid_index = 0;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &a4), 0);
	if (a4 != NULL) {
		TEST_CHECK_EQ(irdma_model_ah_get(e.hw, a4->ah_id, &in), 0);
		TEST_CHECK_EQ(in.src[3], 0xc0a80709);
		TEST_CHECK_EQ(in.src[0] | in.src[1] | in.src[2], 0);
		/* The WQE bytes: source word 3 at qword 6 bits 31:0. */
		TEST_CHECK_EQ(irdma_model_cqp_capture(e.hw, 0, wqe), OP_CREATE_AH);
		TEST_CHECK_EQ(test_le_bits(wqe, 48, 31, 0), 0xc0a80709);
		TEST_CHECK_EQ(test_le_bits(wqe, 56, 63, 0), 0);
	}
	gid6(av.dgid, 9);
	av.sgid_index = 1;
	TEST_CHECK_EQ(rdmadev_ah_create(e.pd, &av, &a6), 0);
	if (a6 != NULL) {
		TEST_CHECK_EQ(irdma_model_ah_get(e.hw, a6->ah_id, &in), 0);
		TEST_CHECK_EQ(in.src[0], 0x20010db8);
		TEST_CHECK_EQ(in.src[1], 0);
		TEST_CHECK_EQ(in.src[2], 0);
		TEST_CHECK_EQ(in.src[3], 5);
		TEST_CHECK_EQ(irdma_model_cqp_capture(e.hw, 0, wqe), OP_CREATE_AH);
		TEST_CHECK_EQ(test_le_bits(wqe, 56, 63, 32), 0x20010db8);	/* word 0 */
		TEST_CHECK_EQ(test_le_bits(wqe, 48, 31, 0), 5);		/* word 3 */
	}
out:
	if (a4 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a4), 0);
	if (a6 != NULL)
		TEST_CHECK_EQ(rdmadev_ah_destroy(a6), 0);
	env_down(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_irdma_port", NULL) < 0)
		return test_eal_bail();
	TEST_RUN(test_port_default);
	TEST_RUN(test_port_devargs);
	TEST_RUN(test_port_mtu);
	TEST_RUN(test_devargs_errors);
	TEST_RUN(test_qp_source);
	TEST_RUN(test_ah_source);
	rte_eal_cleanup();
	return test_done();
}
