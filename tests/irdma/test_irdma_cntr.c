/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Statistics counters, device counters, completion counters and DMA handles end to end:
 * rdmadev -> irdma PMD -> CQP -> device model.
 *
 * Counters: MANAGE_STATS allocate / free, a QP bound through its context (the context bytes
 * decoded here: STAT_INDEX at byte 144 bits 6:0, USESTATSINSTANCE at byte 160 bit 26;
 * doc/hardware.md §5.4), values injected into the model's instance and read back exactly through
 * GATHER_STATS (including a counter that wraps in the device), every refusal (bind twice,
 * a QP of another device, free while bound) and CQP faults driving the abort paths. The
 * model's own checks through raw CQP WQEs, and the gather buffer compared byte by byte with
 * one built here from the kernel's offsets. Completion counters (software, fed by the poll
 * path) and DMA handles (validated hints, shown in the resource dump). Restrack counts are
 * checked throughout.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_cq.h"
#include "irdma_ctrl.h"
#include "irdma_qp.h"
#include "irdma_stats.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"

/* The common sizes; DEV(s): devargs @p s with them and the variant's mode. */
#define SIZES ",qps=64,cqs=64,mrs=64"
#define DEV(s) test_variant_devargs(s SIZES)

/* Opcodes (doc/hardware.md §5.2), independent of base/. */
enum { OP_MODIFY_QP = 0x01, OP_MANAGE_STATS = 0x2d, OP_GATHER_STATS = 0x2e };
enum { HW_IDLE = 1, HW_RTR = 4 };
#define MAJ_ERROR 0xffff
/* Minor codes of the model (irdma_model.h). */
enum { MIN_BAD_FIELD = 0x102, MIN_DMA_FAULT = 0x103, MIN_BAD_ALIGN = 0x104,
       MIN_BAD_ID = 0x106, MIN_NO_OBJ = 0x108, MIN_BAD_STATE = 0x10c };

/*
 * The gen2 gather buffer as the kernel describes it (icrdma_hw.c icrdma_hw_stat_map, names
 * of verbs.c irdma_hw_stat_names), transcribed independently of base/irdma_stats.h:
 * name, byte offset, low bit, width (tcpInSegs: the 32 bits that exist above bit 32).
 */
static const struct {
	const char *name;
	unsigned int byte, lo, bits;
} kstat[] = {
	{ "rxVlanErrors", 0, 32, 24 }, { "ip4InOctets", 8, 0, 48 },
	{ "ip4InPkts", 16, 0, 48 }, { "ip4InDiscards", 24, 32, 32 },
	{ "ip4InTruncatedPkts", 24, 0, 32 }, { "ip4InReasmRqd", 32, 0, 48 },
	{ "ip4InMcastOctets", 40, 0, 48 }, { "ip4InMcastPkts", 48, 0, 48 },
	{ "ip6InOctets", 56, 0, 48 }, { "ip6InPkts", 64, 0, 48 },
	{ "ip6InDiscards", 72, 32, 32 }, { "ip6InTruncatedPkts", 72, 0, 32 },
	{ "ip6InReasmRqd", 80, 0, 48 }, { "ip6InMcastOctets", 88, 0, 48 },
	{ "ip6InMcastPkts", 96, 0, 48 }, { "ip4OutOctets", 104, 0, 48 },
	{ "ip4OutPkts", 112, 0, 48 }, { "ip4OutSegRqd", 120, 0, 48 },
	{ "ip4OutMcastOctets", 128, 0, 48 }, { "ip4OutMcastPkts", 136, 0, 48 },
	{ "ip6OutOctets", 144, 0, 48 }, { "ip6OutPkts", 152, 0, 48 },
	{ "ip6OutSegRqd", 160, 0, 48 }, { "ip6OutMcastOctets", 168, 0, 48 },
	{ "ip6OutMcastPkts", 176, 0, 48 }, { "ip4OutNoRoutes", 184, 32, 24 },
	{ "ip6OutNoRoutes", 184, 0, 24 }, { "tcpInSegs", 192, 32, 32 },
	{ "tcpInOptErrors", 200, 32, 24 }, { "tcpInProtoErrors", 200, 0, 24 },
	{ "tcpOutSegs", 208, 0, 48 }, { "tcpRetransSegs", 216, 32, 32 },
	{ "RxUDP", 224, 0, 48 }, { "TxUDP", 232, 0, 48 },
	{ "iwInRdmaWrites", 240, 0, 48 }, { "iwInRdmaReads", 248, 0, 48 },
	{ "iwInRdmaSends", 256, 0, 48 }, { "iwOutRdmaWrites", 264, 0, 48 },
	{ "iwOutRdmaReads", 272, 0, 48 }, { "iwOutRdmaSends", 280, 0, 48 },
	{ "iwRdmaBnd", 288, 0, 48 }, { "iwRdmaInv", 296, 0, 48 },
	{ "RxECNMrkd", 304, 0, 56 }, { "cnpIgnored", 312, 32, 24 },
	{ "cnpHandled", 312, 0, 32 }, { "cnpSent", 320, 0, 32 },
};
#define NSTAT ((unsigned int)RTE_DIM(kstat))
/* A model device's xstats: the hardware's, then its wire's (struct irdma_model_wire_stats). */
#define NWIRE ((unsigned int)(sizeof(struct irdma_model_wire_stats) / sizeof(uint64_t)))
#define NXSTAT (NSTAT + NWIRE)

/* Index in kstat[] (= the model's counter index, checked in test_stat_table) of @p name. */
static unsigned int
kidx(const char *name)
{
	unsigned int i;

	for (i = 0; i < NSTAT; i++)
		if (strcmp(kstat[i].name, name) == 0)
			return i;
	TEST_CHECK(!"unknown counter name");
	return 0;
}

/* Value of @p name in @p xs (n entries); UINT64_MAX when absent. */
static uint64_t
xval(const struct rdmadev_xstat *xs, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(xs[i].name, name) == 0)
			return xs[i].value;
	return UINT64_MAX;
}

static unsigned int
live(const struct test_env *e, enum restrack_type t)
{
	return restrack_count(rdmadev_get((int16_t)e->id)->res, t, NULL);
}

/* The fixture's teardown, after: no counter, completion counter or DMA handle left. */
static void
cntr_env_down(struct test_env *e)
{
	if (e->id >= 0) {
		TEST_CHECK_EQ(live(e, RESTRACK_COUNTER), 0);
		TEST_CHECK_EQ(live(e, RESTRACK_COMP_CNTR), 0);
		TEST_CHECK_EQ(live(e, RESTRACK_DMAH), 0);
	}
	test_env_down(e);
}

static struct rdmadev_qp *
qp_new(const struct test_env *e)
{
	return pmd_qp_create(e->pd, e->cq, RDMADEV_QPT_RC, 16);
}

static int
to_init(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE;
	return rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				 RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
}

static int
to_reset(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RESET;
	return rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE);
}

/* The host context the driver built for @p qp (Q2 at +0, context at +256). */
static const uint8_t *
ctx_of(const struct rdmadev_qp *qp)
{
	const struct irdma_qp *q = qp->obj.fp.drv;

	return (const uint8_t *)q->hctx.va + 256;
}

static void
model_qp(const struct test_env *e, const struct rdmadev_qp *qp, struct irdma_model_qp_info *in)
{
	memset(in, 0, sizeof(*in));
	TEST_CHECK_EQ(irdma_model_qp_get(e->hw, rdmadev_qp_num(qp), in), 0);
}

/* ---------------------------------------------------------------------------------------
 * The counter table of base/ against the kernel's.
 */
static void
test_stat_table(void)
{
	unsigned int i, j;

	TEST_CHECK_EQ(IRDMA_HW_STAT_GEN2_MAX, NSTAT);
	TEST_CHECK_EQ(IRDMA_GATHER_STATS_BUF_SIZE, 1024);
	TEST_CHECK_EQ(IRDMA_FIRST_NON_PF_STAT, 4);
	TEST_CHECK_EQ(IRDMA_MAX_STATS_INSTANCES, 128);
	for (i = 0; i < NSTAT; i++) {
		const struct irdma_hw_stat_desc *d = irdma_hw_stat_desc(i);

		TEST_CHECK(d != NULL && strcmp(d->name, kstat[i].name) == 0);
		TEST_CHECK_EQ(d->byte, kstat[i].byte);
		TEST_CHECK_EQ(d->shift, kstat[i].lo);
		TEST_CHECK_EQ(d->bits, kstat[i].bits);
		TEST_CHECK(kstat[i].lo + kstat[i].bits <= 64);
		TEST_CHECK(kstat[i].byte % 8 == 0 && kstat[i].byte < 1024);
		/* No two counters share a bit. */
		for (j = 0; j < i; j++) {
			if (kstat[j].byte != kstat[i].byte)
				continue;
			TEST_CHECK(kstat[j].lo >= kstat[i].lo + kstat[i].bits ||
				   kstat[i].lo >= kstat[j].lo + kstat[j].bits);
		}
	}
	TEST_CHECK(irdma_hw_stat_desc(NSTAT) == NULL);
	/* Delta over a wrap: 24-bit counter from 0xfffff0 to 0x10 is 0x20. */
	TEST_CHECK_EQ(irdma_hw_stat_delta(0x10, 0xfffff0, 24), 0x20);
}

/* ---------------------------------------------------------------------------------------
 * Counters through rdmadev.
 */

/*
 * The newest CQP WQE the model fetched, decoded here (kernel defs.h IRDMA_CQPSQ_STATS_*:
 * qword 3 INST_INDEX 6:0, OPCODE 37:32, USE_HMC_FCN_INDEX 60, USE_INST 61, ALLOC_INST 62;
 * qword 4 the buffer address; qword 5 HMC_FCN_INDEX 5:0). Returns qword 3.
 */
static uint64_t
last_stats_wqe(const struct test_env *e, unsigned int op, uint64_t *qw4, uint64_t *qw5)
{
	uint8_t w[64];

	memset(w, 0, sizeof(w));
	TEST_CHECK_EQ(irdma_model_cqp_capture(e->hw, 0, w), (int)op);
	TEST_CHECK_EQ(test_le_bits(w, 24, 37, 32), op);
	*qw4 = test_le_bits(w, 32, 63, 0);
	*qw5 = test_le_bits(w, 40, 63, 0);
	TEST_CHECK_EQ(test_le_bits(w, 0, 63, 0) | test_le_bits(w, 8, 63, 0) |
		      test_le_bits(w, 16, 63, 0) | test_le_bits(w, 48, 63, 0) |
		      test_le_bits(w, 56, 63, 0), 0);
	return test_le_bits(w, 24, 63, 0);
}

/* The bytes of MANAGE_STATS allocate / free and GATHER_STATS as the driver wrote them. */
static void
test_stats_wqes(void)
{
	struct rdmadev_counter *c = NULL;
	struct rdmadev_xstat xs[128];
	uint64_t h, q4, q5;
	uint32_t inst;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c), 0);
	if (c == NULL)
		goto out;
	inst = irdma_counter_instance(c);
	h = last_stats_wqe(&e, OP_MANAGE_STATS, &q4, &q5);
	TEST_CHECK_EQ((h >> 62) & 1, 1);		/* allocate */
	TEST_CHECK_EQ((h >> 60) & 3, 0);		/* no HMC fn index, no USE_INST */
	TEST_CHECK_EQ(h & 0x7f, 0);
	TEST_CHECK_EQ(q4, 0);
	TEST_CHECK_EQ(q5, 0);				/* function 0 */
	TEST_CHECK_EQ(rdmadev_counter_read(c, xs, RTE_DIM(xs)), (int)NSTAT);
	h = last_stats_wqe(&e, OP_GATHER_STATS, &q4, &q5);
	TEST_CHECK_EQ((h >> 61) & 1, 1);		/* USE_INST */
	TEST_CHECK_EQ((h >> 62) & 1, 0);
	TEST_CHECK_EQ(h & 0x7f, inst);
	TEST_CHECK(q4 != 0 && q4 % 8 == 0);		/* the buffer IOVA */
	TEST_CHECK_EQ(q5, 0);
	TEST_CHECK_EQ(rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs)), (int)NXSTAT);
	h = last_stats_wqe(&e, OP_GATHER_STATS, &q4, &q5);
	TEST_CHECK_EQ((h >> 61) & 1, 1);
	TEST_CHECK_EQ(h & 0x7f, 0);			/* the default instance */
	TEST_CHECK_EQ(rdmadev_counter_free(c), 0);
	h = last_stats_wqe(&e, OP_MANAGE_STATS, &q4, &q5);
	TEST_CHECK_EQ((h >> 62) & 1, 0);		/* free */
	TEST_CHECK_EQ(h & 0x7f, inst);
out:
	cntr_env_down(&e);
}
static void
test_counters(void)
{
	struct rdmadev_counter *c1 = NULL, *c2 = NULL, *cx = NULL;
	struct rdmadev_qp *qp = NULL, *qp2 = NULL, *qpx = NULL;
	struct rdmadev_xstat xs[128];
	struct irdma_model_qp_info in;
	struct test_env e, x;
	uint32_t inst1, inst2;
	const uint8_t *c;
	int n;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c1), 0);
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c2), 0);
	if (c1 == NULL || c2 == NULL)
		goto out;
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 2);
	inst1 = irdma_counter_instance(c1);
	inst2 = irdma_counter_instance(c2);
	TEST_CHECK(inst1 >= 4 && inst1 < 128 && inst2 >= 4 && inst2 < 128 && inst1 != inst2);
	qp = qp_new(&e);
	qp2 = qp_new(&e);
	if (qp == NULL || qp2 == NULL)
		goto out;
	c = ctx_of(qp);
	/* Bound in RESET: the context carries it, the device sees it at INIT. */
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c1, qp), 0);
	TEST_CHECK_EQ(test_le_bits(c, 160, 26, 26), 1);
	TEST_CHECK_EQ(test_le_bits(c, 144, 6, 0), inst1);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c1, qp), -EBUSY);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c2, qp), -EBUSY);
	TEST_CHECK_EQ(to_init(qp), 0);
	model_qp(&e, qp, &in);
	TEST_CHECK_EQ(in.state, HW_IDLE);
	TEST_CHECK_EQ(in.stats_use, 1);
	TEST_CHECK_EQ(in.stats_idx, inst1);
	/* Bound in INIT: MODIFY_QP to the same state carries it now. */
	TEST_CHECK_EQ(to_init(qp2), 0);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c1, qp2), 0);
	model_qp(&e, qp2, &in);
	TEST_CHECK_EQ(in.stats_use, 1);
	TEST_CHECK_EQ(in.stats_idx, inst1);
	TEST_CHECK_EQ(rdmadev_counter_free(c1), -EBUSY);
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 2);

	/* Values injected in the device come back exactly, names in the kernel's order. */
	TEST_CHECK_EQ(rdmadev_counter_read(c1, NULL, 0), (int)NSTAT);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, kidx("iwOutRdmaWrites"), 123456789), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, kidx("RxECNMrkd"),
					    UINT64_C(0xabcdef01234567)), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, kidx("rxVlanErrors"), 0xfffff0), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, kidx("cnpHandled"), 0xdeadbeef), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst2, kidx("RxUDP"), 77), 0);
	memset(xs, 0, sizeof(xs));
	n = rdmadev_counter_read(c1, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(n, (int)NSTAT);
	for (unsigned int i = 0; n == (int)NSTAT && i < NSTAT; i++)
		TEST_CHECK(strcmp(xs[i].name, kstat[i].name) == 0);
	TEST_CHECK_EQ(xval(xs, n, "iwOutRdmaWrites"), 123456789);
	TEST_CHECK_EQ(xval(xs, n, "RxECNMrkd"), UINT64_C(0xabcdef01234567));
	TEST_CHECK_EQ(xval(xs, n, "rxVlanErrors"), 0xfffff0);
	TEST_CHECK_EQ(xval(xs, n, "cnpHandled"), 0xdeadbeef);
	TEST_CHECK_EQ(xval(xs, n, "RxUDP"), 0);	/* instance 2's, not this one's */
	/* The 24-bit device counter wraps; the driver's total does not. */
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, kidx("rxVlanErrors"), 0x20), 0);
	n = rdmadev_counter_read(c1, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(xval(xs, n, "rxVlanErrors"), 0x1000010);
	/* A short array: filled as far as it goes, the count says how many there are. */
	memset(xs, 0, sizeof(xs));
	TEST_CHECK_EQ(rdmadev_counter_read(c2, xs, 2), (int)NSTAT);
	TEST_CHECK(strcmp(xs[1].name, "ip4InOctets") == 0);
	TEST_CHECK_EQ(xs[2].name[0], '\0');
	n = rdmadev_counter_read(c2, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(xval(xs, n, "RxUDP"), 77);


	/* Unbind: back to the default instance; unbinding again or elsewhere is refused. */
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c2, qp2), -EINVAL);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c1, qp2), 0);
	model_qp(&e, qp2, &in);
	TEST_CHECK_EQ(in.stats_use, 0);
	TEST_CHECK_EQ(in.stats_idx, 0);
	TEST_CHECK_EQ(test_le_bits(ctx_of(qp2), 160, 26, 26), 0);
	TEST_CHECK_EQ(test_le_bits(ctx_of(qp2), 144, 6, 0), 0);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c1, qp2), -EINVAL);
	/* A QP of another device. */
	if (test_env_up(&x, "irdma_model1" SIZES, 1) == 0) {
		qpx = qp_new(&x);
		TEST_CHECK_EQ(rdmadev_counter_bind_qp(c2, qpx), -EINVAL);
		TEST_CHECK_EQ(rdmadev_counter_alloc(x.ctx, &cx), 0);
		TEST_CHECK_EQ(rdmadev_counter_bind_qp(cx, qp2), -EINVAL);
		TEST_CHECK_EQ(rdmadev_counter_unbind_qp(cx, qp2), -EINVAL);
		TEST_CHECK_EQ(rdmadev_counter_free(cx), 0);
		if (qpx != NULL)
			TEST_CHECK_EQ(rdmadev_qp_destroy(qpx), 0);
	}
	cntr_env_down(&x);
	/* Rebind to the other counter. */
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c2, qp2), 0);
	model_qp(&e, qp2, &in);
	TEST_CHECK_EQ(in.stats_idx, inst2);

	/* The binding survives RESET and reaches the device again at INIT. */
	TEST_CHECK_EQ(to_reset(qp), 0);
	TEST_CHECK_EQ(test_le_bits(c, 160, 26, 26), 1);
	TEST_CHECK_EQ(test_le_bits(c, 144, 6, 0), inst1);
	TEST_CHECK_EQ(to_init(qp), 0);
	model_qp(&e, qp, &in);
	TEST_CHECK_EQ(in.stats_use, 1);
	TEST_CHECK_EQ(in.stats_idx, inst1);

	/* Destroying a bound QP releases the binding. */
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	qp = NULL;
	TEST_CHECK_EQ(rdmadev_counter_free(c1), 0);
	c1 = NULL;
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 1);
	/* A freed instance is gone from the device. */
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, inst1, 0, 1), -ENOENT);
	TEST_CHECK_EQ(rdmadev_counter_free(c2), -EBUSY);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c2, qp2), 0);
	TEST_CHECK_EQ(rdmadev_counter_free(c2), 0);
	c2 = NULL;
out:
	if (c1 != NULL)
		TEST_CHECK_EQ(rdmadev_counter_free(c1), 0);
	if (c2 != NULL)
		TEST_CHECK_EQ(rdmadev_counter_free(c2), 0);
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	if (qp2 != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp2), 0);
	cntr_env_down(&e);
	TEST_CHECK_EQ(rdmadev_count(), 0);
}

/* CQP faults on MANAGE_STATS, MODIFY_QP and GATHER_STATS: nothing changes, nothing leaks. */
static void
test_counter_faults(void)
{
	struct rdmadev_counter *c = NULL, *d = NULL;
	struct rdmadev_xstat xs[128];
	struct irdma_model_qp_info in;
	struct rdmadev_qp *qp = NULL;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MANAGE_STATS, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_counter_alloc(e.ctx, &c) < 0);
	TEST_CHECK(c == NULL);
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 0);
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c), 0);
	if (c == NULL)
		goto out;
	/* A refused free leaves the counter alive (abort_del) and usable. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MANAGE_STATS, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_counter_free(c) < 0);
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 1);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, irdma_counter_instance(c), 0, 5), 0);
	TEST_CHECK_EQ(rdmadev_counter_read(c, xs, RTE_DIM(xs)), (int)NSTAT);
	TEST_CHECK_EQ(xs[0].value, 5);
	/* A refused GATHER_STATS: an error, and the next read is right. */
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_GATHER_STATS, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_counter_read(c, xs, RTE_DIM(xs)) < 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_GATHER_STATS, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs)) < 0);
	TEST_CHECK_EQ(rdmadev_counter_read(c, xs, RTE_DIM(xs)), (int)NSTAT);
	TEST_CHECK_EQ(xs[0].value, 5);
	/* A refused MODIFY_QP: not bound, context restored, the device unchanged. */
	qp = qp_new(&e);
	if (qp == NULL)
		goto out;
	TEST_CHECK_EQ(to_init(qp), 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MODIFY_QP, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_counter_bind_qp(c, qp) < 0);
	TEST_CHECK(qp->counter == NULL);
	TEST_CHECK_EQ(test_le_bits(ctx_of(qp), 160, 26, 26), 0);
	model_qp(&e, qp, &in);
	TEST_CHECK_EQ(in.stats_use, 0);
	TEST_CHECK_EQ(rdmadev_counter_free(c), 0);	/* nothing bound after the failure */
	c = NULL;
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c), 0);
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c, qp), 0);
	TEST_CHECK_EQ(irdma_model_inject_cqp_fault(e.hw, OP_MODIFY_QP, 1, MAJ_ERROR, 0x77), 0);
	TEST_CHECK(rdmadev_counter_unbind_qp(c, qp) < 0);
	TEST_CHECK(qp->counter == c);
	TEST_CHECK_EQ(test_le_bits(ctx_of(qp), 160, 26, 26), 1);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c, qp), 0);
	/* Stop is refused while a counter holds an instance. */
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &d), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	qp = NULL;
	TEST_CHECK_EQ(rdmadev_counter_free(c), 0);
	c = NULL;
	TEST_CHECK_EQ(rdmadev_cq_destroy(e.cq), 0);
	e.cq = NULL;
	TEST_CHECK_EQ(rdmadev_pd_free(e.pd), 0);
	e.pd = NULL;
	TEST_CHECK_EQ(rdmadev_stop((int16_t)e.id), -EBUSY);
out:
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	if (c != NULL)
		TEST_CHECK_EQ(rdmadev_counter_free(c), 0);
	if (d != NULL)
		TEST_CHECK_EQ(rdmadev_counter_free(d), 0);
	cntr_env_down(&e);
}

/* Every instance beyond the PF defaults can be held, then the device says no. */
static void
test_counter_exhaust(void)
{
	static struct rdmadev_counter *c[130];
	struct rdmadev_info info;
	unsigned int i, n = 0;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_info_get((int16_t)e.id, &info), 0);
	TEST_CHECK_EQ(info.max_counters, 124);
	memset(c, 0, sizeof(c));
	for (i = 0; i < RTE_DIM(c); i++) {
		if (rdmadev_counter_alloc(e.ctx, &c[i]) != 0)
			break;
		n++;
	}
	TEST_CHECK_EQ(n, 124);
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 124);
	for (i = 0; i < n; i++)
		TEST_CHECK_EQ(rdmadev_counter_free(c[i]), 0);
	TEST_CHECK_EQ(live(&e, RESTRACK_COUNTER), 0);
	/* Freed instances come back. */
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c[0]), 0);
	TEST_CHECK_EQ(irdma_counter_instance(c[0]), 4);
	TEST_CHECK_EQ(rdmadev_counter_free(c[0]), 0);
out:
	cntr_env_down(&e);
}

/* Device counters: the default instance, and reset as a baseline. */
static void
test_xstats(void)
{
	struct rdmadev_xstat xs[128];
	struct test_env e;
	int n;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_xstats_get((int16_t)e.id, NULL, 0), (int)NXSTAT);
	n = rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(n, (int)NXSTAT);
	for (unsigned int i = 0; n == (int)NXSTAT && i < NXSTAT; i++)
		TEST_CHECK_EQ(strncmp(xs[i].name, "wire_", 5) == 0, i >= NSTAT);
	TEST_CHECK(n == (int)NXSTAT && strcmp(xs[NSTAT].name, "wire_tx_frames") == 0);
	/* Fewer entries than the hardware has: those only, the count still whole. */
	TEST_CHECK_EQ(rdmadev_xstats_get((int16_t)e.id, xs, NSTAT - 1), (int)NXSTAT);
	TEST_CHECK_EQ(xval(xs, n, "ip4InPkts"), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, 0, kidx("ip4InPkts"), 1000), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, 0, kidx("tcpInSegs"), 0xffffffff), 0);
	n = rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(xval(xs, n, "ip4InPkts"), 1000);
	TEST_CHECK_EQ(xval(xs, n, "tcpInSegs"), 0xffffffff);
	TEST_CHECK_EQ(rdmadev_stats_reset((int16_t)e.id), 0);
	n = rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(xval(xs, n, "ip4InPkts"), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, 0, kidx("ip4InPkts"), 7), 0);
	TEST_CHECK_EQ(irdma_model_stats_add(e.hw, 0, kidx("tcpInSegs"), 2), 0);
	n = rdmadev_xstats_get((int16_t)e.id, xs, RTE_DIM(xs));
	TEST_CHECK_EQ(xval(xs, n, "ip4InPkts"), 7);
	TEST_CHECK_EQ(xval(xs, n, "tcpInSegs"), 2);	/* across the 32-bit wrap */
out:
	cntr_env_down(&e);
	/* Not started: the count is known, values are not. */
	e.id = rdmadev_open(DEV("irdma_model0"));
	TEST_CHECK(e.id >= 0);
	TEST_CHECK_EQ(rdmadev_xstats_get((int16_t)e.id, NULL, 0), (int)NXSTAT);
	TEST_CHECK_EQ(rdmadev_xstats_get((int16_t)e.id, xs, 4), -ENODEV);
	TEST_CHECK_EQ(rdmadev_stats_reset((int16_t)e.id), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)e.id), 0);
}

/* ---------------------------------------------------------------------------------------
 * The model through raw CQP WQEs.
 */
static int
raw_exec(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w, uint16_t *minor, uint32_t *ret)
{
	struct irdma_cqp_cmpl cm;
	int rc;

	memset(&cm, 0, sizeof(cm));
	rc = irdma_cqp_exec(c, w, &cm);
	*minor = cm.minor;
	if (ret != NULL)
		*ret = cm.op_ret;
	return rc;
}

static void
raw_manage(struct irdma_cqp_wqe *w, bool alloc, uint32_t idx)
{
	irdma_cqp_wqe_init(w, IRDMA_CQP_OP_MANAGE_STATS);
	irdma_set(w, CQP_STATS_ALLOC_INST, alloc ? 1 : 0);
	irdma_set(w, CQP_STATS_INST_INDEX, idx);
}

static void
raw_gather(struct irdma_cqp_wqe *w, bool use, uint32_t idx, rte_iova_t pa)
{
	irdma_cqp_wqe_init(w, IRDMA_CQP_OP_GATHER_STATS);
	irdma_set(w, CQP_STATS_USE_INST, use ? 1 : 0);
	irdma_set(w, CQP_STATS_INST_INDEX, idx);
	irdma_set(w, CQP_STATS_BUF_PA, pa);
}

#define RAW_REFUSED(c, w, want) do {						\
	uint16_t m_ = 0;							\
	TEST_CHECK(raw_exec(c, w, &m_, NULL) < 0);				\
	TEST_CHECK_EQ(m_, want);						\
} while (0)

/* Write the low @p bits of @p v at bit @p lo of the qword at byte @p byte (little endian). */
static void
put_le(uint8_t *buf, unsigned int byte, unsigned int lo, unsigned int bits, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < bits; i++) {
		unsigned int pos = byte * 8 + lo + i;

		if ((v >> i) & 1)
			buf[pos / 8] |= (uint8_t)(1u << (pos % 8));
	}
}

static void
test_model_raw(void)
{
	const struct irdma_hmc_request req = { .qps = 64, .cqs = 64, .mrs = 64 };
	uint8_t expect[1024];
	struct irdma_dma_mem buf;
	struct irdma_cqp_wqe w;
	struct irdma_ctrl c;
	struct irdma_hw hw;
	uint32_t ret = 0, first = 0, i;
	uint16_t m = 0;

	memset(&hw, 0, sizeof(hw));
	memset(&buf, 0, sizeof(buf));
	pmd_raw_up(&hw, &c, &req);
	TEST_CHECK_EQ(irdma_dma_alloc(&c, &buf, 2048, 4096), 0);
	/* Injection arguments. */
	TEST_CHECK_EQ(irdma_model_stats_add(&hw, 128, 0, 1), -EINVAL);
	TEST_CHECK_EQ(irdma_model_stats_add(&hw, 0, NSTAT, 1), -EINVAL);
	TEST_CHECK_EQ(irdma_model_stats_add(&hw, 9, 0, 1), -ENOENT);
	TEST_CHECK_EQ(irdma_model_stats_add(NULL, 0, 0, 1), -EINVAL);
	/* MANAGE_STATS: the device picks from 4 up; defaults and unknown ones cannot go. */
	raw_manage(&w, true, 0);
	TEST_CHECK_EQ(raw_exec(&c, &w, &m, &first), 0);
	TEST_CHECK_EQ(first, 4);
	raw_manage(&w, false, 0);
	RAW_REFUSED(&c, &w, MIN_BAD_ID);
	raw_manage(&w, false, 3);
	RAW_REFUSED(&c, &w, MIN_BAD_ID);
	raw_manage(&w, false, 5);
	RAW_REFUSED(&c, &w, MIN_NO_OBJ);
	raw_manage(&w, true, 0);
	irdma_set(&w, CQP_STATS_USE_HMC_FCN_INDEX, 1);
	irdma_set(&w, CQP_STATS_HMC_FCN_INDEX, 5);
	RAW_REFUSED(&c, &w, MIN_BAD_FIELD);
	/* All instances: 124 beyond the PF defaults, then none left. */
	for (i = 5; i < 128; i++) {
		raw_manage(&w, true, 0);
		TEST_CHECK_EQ(raw_exec(&c, &w, &m, &ret), 0);
		TEST_CHECK_EQ(ret, i);
	}
	raw_manage(&w, true, 0);
	RAW_REFUSED(&c, &w, MIN_BAD_STATE);
	for (i = 6; i < 128; i++) {
		raw_manage(&w, false, i);
		TEST_CHECK_EQ(raw_exec(&c, &w, &m, NULL), 0);
	}
	/* GATHER_STATS: instance, alignment, mapping. */
	raw_gather(&w, true, 9, buf.iova);
	RAW_REFUSED(&c, &w, MIN_NO_OBJ);
	raw_gather(&w, true, 1, buf.iova);	/* another PF's default */
	RAW_REFUSED(&c, &w, MIN_NO_OBJ);
	raw_gather(&w, true, 4, buf.iova + 4);
	RAW_REFUSED(&c, &w, MIN_BAD_ALIGN);
	raw_gather(&w, true, 4, buf.iova + 1536);	/* 1024 bytes from there are not mapped */
	RAW_REFUSED(&c, &w, MIN_DMA_FAULT);
	/* The buffer byte by byte: every counter a distinct value, truncated to its width. */
	memset(expect, 0, sizeof(expect));
	for (i = 0; i < NSTAT; i++) {
		uint64_t v = UINT64_C(0x0123456789abcdef) * (i + 1) + i;

		TEST_CHECK_EQ(irdma_model_stats_add(&hw, 5, i, v), 0);
		put_le(expect, kstat[i].byte, kstat[i].lo, kstat[i].bits, v);
	}
	memset(buf.va, 0xa5, buf.len);
	raw_gather(&w, true, 5, buf.iova);
	TEST_CHECK_EQ(raw_exec(&c, &w, &m, NULL), 0);
	TEST_CHECK(memcmp(buf.va, expect, sizeof(expect)) == 0);
	TEST_CHECK_EQ(((uint8_t *)buf.va)[1024], 0xa5);	/* nothing beyond the buffer */
	/* USE_INST 0: the function's default instance. */
	TEST_CHECK_EQ(irdma_model_stats_add(&hw, 0, 1, 42), 0);
	raw_gather(&w, false, 5, buf.iova);
	TEST_CHECK_EQ(raw_exec(&c, &w, &m, NULL), 0);
	TEST_CHECK_EQ(test_le_bits(buf.va, 8, 47, 0), 42);
	TEST_CHECK_EQ(test_le_bits(buf.va, 16, 47, 0), 0);
	raw_manage(&w, false, 5);
	TEST_CHECK_EQ(raw_exec(&c, &w, &m, NULL), 0);
	raw_manage(&w, false, 4);
	TEST_CHECK_EQ(raw_exec(&c, &w, &m, NULL), 0);
	RAW_REFUSED(&c, &w, MIN_NO_OBJ);
	irdma_dma_free(&c, &buf);
	pmd_raw_down(&hw, &c);
}

/* The device refuses to free an instance a QP context names (driver bypassed). */
static void
test_model_free_in_use(void)
{
	struct rdmadev_counter *c = NULL;
	struct rdmadev_qp *qp = NULL;
	struct irdma_ctrl *ctrl;
	struct irdma_cqp_wqe w;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	ctrl = irdma_dev_ctrl(rdmadev_get((int16_t)e.id));
	TEST_CHECK(ctrl != NULL);
	qp = qp_new(&e);
	TEST_CHECK_EQ(rdmadev_counter_alloc(e.ctx, &c), 0);
	if (qp == NULL || c == NULL || ctrl == NULL)
		goto out;
	TEST_CHECK_EQ(rdmadev_counter_bind_qp(c, qp), 0);
	TEST_CHECK_EQ(to_init(qp), 0);
	raw_manage(&w, false, irdma_counter_instance(c));
	RAW_REFUSED(ctrl, &w, MIN_BAD_STATE);
	/* The counter is bound: rdmadev refuses first. */
	TEST_CHECK_EQ(rdmadev_counter_free(c), -EBUSY);
	TEST_CHECK_EQ(rdmadev_counter_unbind_qp(c, qp), 0);
out:
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	if (c != NULL)
		TEST_CHECK_EQ(rdmadev_counter_free(c), 0);
	cntr_env_down(&e);
}

/* ---------------------------------------------------------------------------------------
 * Completion counters and DMA handles.
 */

/* Completion counters are software: the poll path adds to rdmadev_comp_cntr::value. */
static void
test_comp_cntr(void)
{
	struct rdmadev_cq_attr cqa = { .cqe = 32, .comp_vector = 0 };
	struct rdmadev_comp_cntr *cc = NULL;
	struct rdmadev_cq *cq = NULL;
	uint64_t v = 1;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_comp_cntr_create(e.ctx, &cc), 0);
	if (cc == NULL)
		goto out;
	TEST_CHECK_EQ(live(&e, RESTRACK_COMP_CNTR), 1);
	TEST_CHECK_EQ(rdmadev_comp_cntr_read(cc, &v), 0);
	TEST_CHECK_EQ(v, 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_read(cc, NULL), -EINVAL);
	cqa.comp_cntr = cc;
	TEST_CHECK_EQ(rdmadev_cq_create(e.ctx, &cqa, &cq), 0);
	if (cq != NULL) {
		const struct irdma_cq *icq = cq->obj.fp.drv;

		/* The poll path's target is the class's value. */
		TEST_CHECK(icq != NULL && icq->comp_cntr == &cc->value);
		if (icq != NULL && icq->comp_cntr != NULL)
			__atomic_fetch_add(icq->comp_cntr, 5, __ATOMIC_RELAXED);
	}
	TEST_CHECK_EQ(rdmadev_comp_cntr_read(cc, &v), 0);
	TEST_CHECK_EQ(v, cq != NULL ? 5 : 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_destroy(cc), -EBUSY);
	TEST_CHECK_EQ(live(&e, RESTRACK_COMP_CNTR), 1);
	if (cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_destroy(cc), 0);
out:
	cntr_env_down(&e);
}

/* Does the resource dump of type @p t hold @p needle? */
static bool
dump_has(const struct test_env *e, enum restrack_type t, const char *needle)
{
	static char out[8192];
	FILE *f = fmemopen(out, sizeof(out), "w");

	if (f == NULL)
		return false;
	memset(out, 0, sizeof(out));
	TEST_CHECK_EQ(rdmadev_res_dump((int16_t)e->id, t, f), 0);
	fclose(f);
	return strstr(out, needle) != NULL;
}

/* A NUMA node below RTE_MAX_NUMA_NODES that EAL did not find, or -1. */
static int
absent_node(void)
{
	int n;
	unsigned int i;

	for (n = 0; n < RTE_MAX_NUMA_NODES; n++) {
		for (i = 0; i < rte_socket_count(); i++)
			if (rte_socket_id_by_idx(i) == n)
				break;
		if (i == rte_socket_count())
			return n;
	}
	return -1;
}

static void
test_dmah(void)
{
	struct rdmadev_dmah_attr da = { .cpu_id = 0, .numa_node = -1, .ph = 2 };
	struct rdmadev_dmah *d1 = NULL, *d2 = NULL, *bad = NULL;
	struct rdmadev_mr_attr ma;
	struct rdmadev_mr *mr = NULL;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char want[64];
	void *buf = NULL;
	struct test_env e;

	if (test_env_up(&e, "irdma_model0" SIZES, 1) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(e.ctx, &da, &d1), 0);
	da.cpu_id = -1;
	da.numa_node = rte_socket_id_by_idx(0);
	da.ph = 0;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(e.ctx, &da, &d2), 0);
	TEST_CHECK_EQ(live(&e, RESTRACK_DMAH), 2);
	/* A CPU or a node the machine does not have. */
	da.cpu_id = (int)ncpu;
	da.numa_node = -1;
	TEST_CHECK_EQ(rdmadev_dmah_alloc(e.ctx, &da, &bad), -EINVAL);
	da.cpu_id = -1;
	da.numa_node = absent_node();
	if (da.numa_node >= 0)
		TEST_CHECK_EQ(rdmadev_dmah_alloc(e.ctx, &da, &bad), -EINVAL);
	TEST_CHECK(bad == NULL);
	TEST_CHECK_EQ(live(&e, RESTRACK_DMAH), 2);
	if (d1 == NULL || d2 == NULL)
		goto out;
	/* The hint is in the dump; an MR registered with it names it. */
	TEST_CHECK(dump_has(&e, RESTRACK_DMAH, "cpu 0 numa -1 ph 2 tph off"));
	buf = rte_zmalloc("dmah_mr", 8192, 4096);
	TEST_CHECK(buf != NULL);
	if (buf == NULL)
		goto out;
	memset(&ma, 0, sizeof(ma));
	ma.addr = buf;
	ma.length = 8192;
	ma.iova = (uint64_t)(uintptr_t)buf;
	ma.access = RDMADEV_ACCESS_LOCAL_WRITE;
	ma.dmah = d1;
	TEST_CHECK_EQ(rdmadev_mr_reg(e.pd, &ma, &mr), 0);
	snprintf(want, sizeof(want), "dmah %u", rdmadev_obj_id(&d1->obj));
	TEST_CHECK(mr != NULL && dump_has(&e, RESTRACK_MR, want));
	TEST_CHECK_EQ(rdmadev_dmah_free(d1), mr != NULL ? -EBUSY : 0);
	if (mr != NULL) {
		TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
		TEST_CHECK_EQ(rdmadev_dmah_free(d1), 0);
	}
	d1 = NULL;
out:
	if (d1 != NULL)
		TEST_CHECK_EQ(rdmadev_dmah_free(d1), 0);
	if (d2 != NULL)
		TEST_CHECK_EQ(rdmadev_dmah_free(d2), 0);
	rte_free(buf);
	cntr_env_down(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_cntr") < 0)
		return test_eal_bail();
	TEST_RUN(test_stat_table);
	TEST_RUN(test_stats_wqes);
	TEST_RUN(test_counters);
	TEST_RUN(test_counter_faults);
	TEST_RUN(test_counter_exhaust);
	TEST_RUN(test_xstats);
	TEST_RUN(test_model_raw);
	TEST_RUN(test_model_free_in_use);
	TEST_RUN(test_comp_cntr);
	TEST_RUN(test_dmah);
	rte_eal_cleanup();
	return test_done();
}
