/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Multi-threaded lifecycle stress: worker threads run random create / modify / destroy
 * sequences over every object type with driver failures injected, against private and shared
 * parents, while a reader thread dumps resources and telemetry. Every call must return one of
 * the errors its situation allows; at the end every object is destroyed, the restrack counts,
 * the driver's live objects and the create/destroy statistics balance, and close reports no
 * leak.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_telemetry.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <rdmadev_private.h>

#include "stress.h"
#include "test.h"
#include "test_driver.h"

#define SLOTS 8

enum kind { K_CTX, K_PD, K_CQ, K_QP, K_MR, K_AH, K_CNT, K_CC, K_DMAH, K_CM, K_NB };

struct worker {
	uint64_t seed;
	uint64_t ops;
	uint64_t bad;		/* unexpected return codes */
	uint64_t done[3];	/* successful creates, destroys, modifies */
	void *obj[K_NB][SLOTS];
	struct rdmadev_ctx *octx[K_NB][SLOTS];	/* context each object was created in */
} __rte_cache_aligned;

static int16_t dev;
static struct rdmadev_ctx *sh_ctx;
static struct rdmadev_pd *sh_pd;
static struct rdmadev_cq *sh_cq;
static struct rdmadev_mr *sh_mr;	/* keeps sh_pd busy: destroying it must fail */
static volatile int stop_reader;
static char mrbuf[4096];

#define EXPECT(w, rc, ...)							\
	do {									\
		const int ok_[] = { __VA_ARGS__ };				\
		const int rc_ = (rc);						\
		unsigned int i_;						\
		for (i_ = 0; i_ < RTE_DIM(ok_) && ok_[i_] != rc_; i_++)	\
			;							\
		if (i_ == RTE_DIM(ok_)) {					\
			(w)->bad++;						\
			printf("#   line %d: unexpected %d\n", __LINE__, rc_);	\
		}								\
	} while (0)

static uint32_t
rnd(struct worker *w, uint32_t n)
{
	return (uint32_t)(stress_rand(&w->seed) % n);
}

/* A random live object of a kind in this worker, or NULL. */
static void *
pick(struct worker *w, enum kind k, struct rdmadev_ctx **ctx)
{
	unsigned int s = rnd(w, SLOTS);

	*ctx = w->octx[k][s];
	return w->obj[k][s];
}

/* Parents for a PD child: the shared PD (in the shared context) or one of ours. */
static struct rdmadev_pd *
pick_pd(struct worker *w)
{
	struct rdmadev_ctx *c;
	struct rdmadev_pd *pd = rnd(w, 3) == 0 ? sh_pd : pick(w, K_PD, &c);

	return pd != NULL ? pd : sh_pd;
}

static struct rdmadev_ctx *
pick_ctx(struct worker *w)
{
	struct rdmadev_ctx *c, *ctx = rnd(w, 2) == 0 ? sh_ctx : pick(w, K_CTX, &c);

	return ctx != NULL ? ctx : sh_ctx;
}

static struct rdmadev_ctx *
ctx_of(void *obj)
{
	return ((struct rdmadev_obj *)obj)->ctx;
}

static int
create(struct worker *w, enum kind k, void **out)
{
	struct rdmadev_cq_attr cqa = { .cqe = 1 + rnd(w, 1000) };
	struct rdmadev_mr_attr mra = { .addr = mrbuf, .length = sizeof(mrbuf),
				       .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_ah_attr aha = { .port_num = 1 };
	struct rdmadev_dmah_attr dma = { .cpu_id = -1, .numa_node = -1 };
	struct rdmadev_qp_init_attr qpa = { .cap = { .max_send_wr = 16, .max_recv_wr = 16 } };
	struct rdmadev_ctx *c;

	switch (k) {
	case K_CTX:
		return rdmadev_ctx_alloc(dev, (struct rdmadev_ctx **)out);
	case K_PD:
		return rdmadev_pd_alloc(pick_ctx(w), (struct rdmadev_pd **)out);
	case K_CQ:
		return rdmadev_cq_create(pick_ctx(w), &cqa, (struct rdmadev_cq **)out);
	case K_QP:
		qpa.pd = pick_pd(w);
		qpa.send_cq = pick(w, K_CQ, &c);
		if (qpa.send_cq == NULL || rnd(w, 2) == 0)
			qpa.send_cq = sh_cq;
		qpa.recv_cq = rnd(w, 2) == 0 ? sh_cq : qpa.send_cq;
		qpa.qp_type = rnd(w, 2) == 0 ? RDMADEV_QPT_RC : RDMADEV_QPT_UD;
		return rdmadev_qp_create(&qpa, (struct rdmadev_qp **)out);
	case K_MR:
		if (rnd(w, 4) == 0)
			return rdmadev_mr_reg_dma(pick_pd(w), 0, (struct rdmadev_mr **)out);
		if (rnd(w, 4) == 0)
			return rdmadev_mr_alloc_fast_reg(pick_pd(w), 1 + rnd(w, 512),
							 (struct rdmadev_mr **)out);
		mra.dmah = pick(w, K_DMAH, &c);
		return rdmadev_mr_reg(pick_pd(w), &mra, (struct rdmadev_mr **)out);
	case K_AH:
		return rdmadev_ah_create(pick_pd(w), &aha, (struct rdmadev_ah **)out);
	case K_CNT:
		return rdmadev_counter_alloc(pick_ctx(w), (struct rdmadev_counter **)out);
	case K_CC:
		return rdmadev_comp_cntr_create(pick_ctx(w), (struct rdmadev_comp_cntr **)out);
	case K_DMAH:
		return rdmadev_dmah_alloc(pick_ctx(w), &dma, (struct rdmadev_dmah **)out);
	case K_CM:
		return rdmadev_cm_id_create(pick_ctx(w), (struct rdmadev_cm_id **)out);
	case K_NB:
		break;
	}
	return -EINVAL;
}

static int
destroy(enum kind k, void *o)
{
	switch (k) {
	case K_CTX: return rdmadev_ctx_free(o);
	case K_PD: return rdmadev_pd_free(o);
	case K_CQ: return rdmadev_cq_destroy(o);
	case K_QP: return rdmadev_qp_destroy(o);
	case K_MR: return rdmadev_mr_dereg(o);
	case K_AH: return rdmadev_ah_destroy(o);
	case K_CNT: return rdmadev_counter_free(o);
	case K_CC: return rdmadev_comp_cntr_destroy(o);
	case K_DMAH: return rdmadev_dmah_free(o);
	case K_CM: return rdmadev_cm_id_destroy(o);
	case K_NB: break;
	}
	return -EINVAL;
}

/* Required masks of the forward transitions (RC, UD). */
static const uint32_t fwd_req[4][2] = {
	{ RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS,
	  RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT | RDMADEV_QP_QKEY },		/* -> INIT */
	{ RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
	  RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER, 0 },	/* -> RTR */
	{ RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
	  RDMADEV_QP_MAX_QP_RD_ATOMIC, RDMADEV_QP_SQ_PSN },			/* -> RTS */
	{ 0, 0 },								/* -> SQD */
};

static void
modify(struct worker *w, struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a = { .port_num = 1, .path_mtu = RDMADEV_MTU_1024,
				     .ah_attr = { .port_num = 1 } };
	struct rdmadev_qp_init_attr init;
	enum rdmadev_qp_state cur = rdmadev_qp_get_state(qp);
	int t, rc;

	rdmadev_qp_query(qp, NULL, &init);
	t = init.qp_type == RDMADEV_QPT_RC ? 0 : 1;
	a.qp_state = (enum rdmadev_qp_state)rnd(w, RDMADEV_QPS_MAX);
	if (a.qp_state == RDMADEV_QPS_SQE)
		a.qp_state = RDMADEV_QPS_ERR;
	if (a.qp_state >= RDMADEV_QPS_INIT && a.qp_state <= RDMADEV_QPS_SQD)
		rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | fwd_req[a.qp_state - 1][t]);
	else
		rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE);
	EXPECT(w, rc, 0, -EINVAL, -EIO);
	if (rc == 0) {
		w->done[2]++;
		if (rdmadev_qp_get_state(qp) != a.qp_state)
			w->bad++;
	} else if (rdmadev_qp_get_state(qp) != cur) {
		w->bad++;
	}
}

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	uint64_t n;

	for (n = 0; n < w->ops; n++) {
		enum kind k = (enum kind)rnd(w, K_NB);
		unsigned int s = rnd(w, SLOTS);
		uint32_t op = rnd(w, 10);
		void *o = w->obj[k][s];
		int rc;

		if (op == 0) {
			/* the shared PD has a permanent user */
			EXPECT(w, rdmadev_pd_free(sh_pd), -EBUSY);
		} else if (o == NULL) {
			rc = create(w, k, &o);
			EXPECT(w, rc, 0, -EIO, -EINVAL);
			if (rc == 0) {
				w->obj[k][s] = o;
				w->octx[k][s] = k == K_CTX ? NULL : ctx_of(o);
				w->done[0]++;
			}
		} else if (k == K_QP && op < 5) {
			modify(w, o);
		} else if (k == K_CQ && op == 5) {
			EXPECT(w, rdmadev_cq_resize(o, 1 + rnd(w, 5000)), 0, -EIO);
		} else if (k == K_CNT && op == 6) {
			struct rdmadev_ctx *c;
			struct rdmadev_qp *qp = pick(w, K_QP, &c);

			if (qp != NULL) {
				rc = rnd(w, 2) ? rdmadev_counter_bind_qp(o, qp) :
						 rdmadev_counter_unbind_qp(o, qp);
				EXPECT(w, rc, 0, -EIO, -EBUSY, -EINVAL);
			}
		} else {
			rc = destroy(k, o);
			EXPECT(w, rc, 0, -EIO, -EBUSY);
			if (rc == 0) {
				w->obj[k][s] = NULL;
				w->done[1]++;
			}
		}
	}
	return NULL;
}

static void *
reader_run(void *arg)
{
	static const enum restrack_type types[] = { RESTRACK_QP, RESTRACK_PD, RESTRACK_MR,
						    RESTRACK_CTX };
	FILE *null = fopen("/dev/null", "w");
	uint64_t *rounds = arg;
	struct rdmadev_stats st;
	unsigned int i;

	while (!__atomic_load_n(&stop_reader, __ATOMIC_ACQUIRE)) {
		struct rte_tel_data *d = rte_tel_data_alloc();

		for (i = 0; i < RTE_DIM(types); i++)
			rdmadev_res_dump(dev, types[i], null);
		rdmadev_stats_get(dev, &st);
		if (d != NULL) {
			rdmadev_telemetry_handle("/rdmadev/res", "0", d);
			rdmadev_telemetry_handle("/rdmadev/stats", "0", d);
			rte_tel_data_free(d);
		}
		(*rounds)++;
	}
	fclose(null);
	return NULL;
}

/* Destroy everything a worker left, children before parents. */
static void
cleanup(struct worker *w)
{
	static const enum kind order[] = { K_CM, K_QP, K_MR, K_AH, K_CNT, K_CQ, K_CC, K_DMAH,
					   K_PD, K_CTX };
	unsigned int i, s;

	for (i = 0; i < RTE_DIM(order); i++) {
		for (s = 0; s < SLOTS; s++) {
			void *o = w->obj[order[i]][s];

			if (o == NULL)
				continue;
			TEST_CHECK_EQ(destroy(order[i], o), 0);
			w->obj[order[i]][s] = NULL;
		}
	}
}

int
main(int argc, char **argv)
{
	struct stress_args args = { .ops = 40000, .threads = 4, .seed = 42 };
	struct rdmadev_mr_attr mra = { .addr = mrbuf, .length = sizeof(mrbuf) };
	struct rdmadev_cq_attr cqa = { .cqe = 64 };
	struct rdmadev_stats st;
	struct worker *w;
	pthread_t reader;
	uint64_t rounds = 0, sum[3] = { 0, 0, 0 }, bad = 0;
	int64_t live;
	unsigned int i, t;

	if (stress_parse(argc, argv, &args) != 0)
		return 1;
	if (test_eal_init("test_rdmadev_stress", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	/* the expected errors would flood the log */
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_EMERG);
	rte_log_set_level_pattern("lib.restrack", RTE_LOG_EMERG);
	printf("# %u threads, %" PRIu64 " ops, seed %" PRIu64 "\n", args.threads, args.ops,
	       args.seed);
	dev = (int16_t)td_dev_up("rdma_test0,max_qp=4096");
	live = td_live_objects();
	if (dev < 0 || rdmadev_ctx_alloc(dev, &sh_ctx) != 0 ||
	    rdmadev_pd_alloc(sh_ctx, &sh_pd) != 0 || rdmadev_cq_create(sh_ctx, &cqa, &sh_cq) ||
	    rdmadev_mr_reg(sh_pd, &mra, &sh_mr) != 0) {
		printf("Bail out! setup failed\n");
		return 1;
	}
	w = calloc(args.threads, sizeof(*w));
	for (i = 0; i < args.threads; i++) {
		w[i].seed = args.seed * 7919 + i + 1;
		w[i].ops = args.ops / args.threads;
	}
	td_fail_rate(13);
	pthread_create(&reader, NULL, reader_run, &rounds);
	stress_run_threads(args.threads, worker_run, w, sizeof(*w));
	__atomic_store_n(&stop_reader, 1, __ATOMIC_RELEASE);
	pthread_join(reader, NULL);
	td_fail_rate(0);

	for (i = 0; i < args.threads; i++) {
		for (t = 0; t < 3; t++)
			sum[t] += w[i].done[t];
		bad += w[i].bad;
	}
	printf("# %" PRIu64 " creates, %" PRIu64 " destroys, %" PRIu64 " modifies, %" PRIu64
	       " reader rounds\n", sum[0], sum[1], sum[2], rounds);
	test_case_failures = 0;
	TEST_CHECK_EQ(bad, 0);
	TEST_CHECK(sum[0] > args.ops / 10 && sum[1] > args.ops / 20 && sum[2] > 0);
	for (i = 0; i < args.threads; i++)
		cleanup(&w[i]);
	TEST_CHECK_EQ(rdmadev_mr_dereg(sh_mr), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(sh_cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(sh_pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(sh_ctx), 0);
	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(td_count(dev, (enum restrack_type)t), 0);
	TEST_CHECK_EQ(td_live_objects(), live);
	TEST_CHECK_EQ(rdmadev_stats_get(dev, &st), 0);
	for (t = 0; t < RDMADEV_OBJ_MAX; t++)
		TEST_CHECK_EQ(st.created[t], st.destroyed[t]);
	TEST_CHECK(st.driver_errors > 0);
	TEST_CHECK_EQ(td_dev_down(dev), 0);	/* restrack_clean: zero leaks */
	printf("%s 1 - lifecycle stress\n", test_case_failures ? "not ok" : "ok");
	printf("1..1\n");
	free(w);
	rte_eal_cleanup();
	return test_case_failures ? 1 : 0;
}
