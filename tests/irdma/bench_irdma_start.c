/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Device start time on the inline model: rdmadev_open -> rdmadev_configure -> rdmadev_start
 * with the PF layer (PF reset, AdminQ, version, capabilities, MAC, link: pf/) and without it
 * (pf_init=0, the RDMA bring-up alone), alternating in the same run; prints the median of
 * each and their ratio. Then, on a device started with the PF layer, an RC QP's create,
 * RESET -> INIT -> RTR -> RTS and destroy (its context names the TC 0 qset's qs_handle),
 * against a QP create + destroy alone in the same run (the model refuses QPs without a
 * qset, so there is no run without the PF layer to compare with). `--quick`: a few rounds.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev.h>

#include "test.h"

#define QP_ROUNDS 2000u

#define DEVARGS "irdma_model0,qps=64,cqs=64,mrs=64,mode=inline"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Cycles from open to started (stop and close untimed); 0 on failure. */
static uint64_t
one_start(const char *devargs)
{
	static const struct rdmadev_conf one = { .nb_comp_vectors = 1 };
	uint64_t t0, t1;
	int id;

	t0 = rte_rdtsc_precise();
	id = rdmadev_open(devargs);
	if (id < 0 || rdmadev_configure((int16_t)id, &one) != 0 ||
	    rdmadev_start((int16_t)id) != 0) {
		fprintf(stderr, "start of %s failed\n", devargs);
		if (id >= 0)
			rdmadev_close((int16_t)id);
		return 0;
	}
	t1 = rte_rdtsc_precise();
	if (rdmadev_stop((int16_t)id) != 0 || rdmadev_close((int16_t)id) != 0)
		return 0;
	return t1 - t0;
}

/* Median cycles of @p n QP lifecycles on @p pd / @p cq, to RTS when @p rts. */
static uint64_t
qp_cycles(struct rdmadev_pd *pd, struct rdmadev_cq *cq, bool rts, unsigned int n,
	  uint64_t *t)
{
	struct rdmadev_qp_init_attr ia = {
		.pd = pd, .send_cq = cq, .recv_cq = cq, .qp_type = RDMADEV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp;
	unsigned int i;
	uint64_t t0;
	int bad = 0;

	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE;
	a.ah_attr.dgid[10] = 0xff;
	a.ah_attr.dgid[11] = 0xff;
	a.ah_attr.dgid[12] = 10;
	a.ah_attr.dgid[15] = 2;
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 5;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	for (i = 0; i < n; i++) {
		qp = NULL;
		t0 = rte_rdtsc_precise();
		bad |= rdmadev_qp_create(&ia, &qp);
		if (rts && qp != NULL) {
			a.qp_state = RDMADEV_QPS_INIT;
			bad |= rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
						 RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
			a.qp_state = RDMADEV_QPS_RTR;
			bad |= rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV |
						 RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN |
						 RDMADEV_QP_RQ_PSN |
						 RDMADEV_QP_MAX_DEST_RD_ATOMIC |
						 RDMADEV_QP_MIN_RNR_TIMER);
			a.qp_state = RDMADEV_QPS_RTS;
			bad |= rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_TIMEOUT |
						 RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY |
						 RDMADEV_QP_SQ_PSN | RDMADEV_QP_MAX_QP_RD_ATOMIC);
		}
		if (qp != NULL)
			bad |= rdmadev_qp_destroy(qp);
		t[i] = rte_rdtsc_precise() - t0;
		if (bad != 0 || qp == NULL) {
			fprintf(stderr, "QP cycle %u failed\n", i);
			return 0;
		}
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	return t[n / 2];
}

/* QP create + RTS + destroy against QP create + destroy; 0 or 1 on failure. */
static int
qp_bench(unsigned int n)
{
	static const struct rdmadev_conf one = { .nb_comp_vectors = 1 };
	struct rdmadev_cq_attr ca = { .cqe = 64 };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	uint64_t *t, full = 0, bare = 0;
	double hz = (double)rte_get_tsc_hz();
	int id, ret = 1;

	t = calloc(n, sizeof(*t));
	id = rdmadev_open(DEVARGS);
	if (t == NULL || id < 0 || rdmadev_configure((int16_t)id, &one) != 0 ||
	    rdmadev_start((int16_t)id) != 0 || rdmadev_ctx_alloc((int16_t)id, &ctx) != 0 ||
	    rdmadev_pd_alloc(ctx, &pd) != 0 || rdmadev_cq_create(ctx, &ca, &cq) != 0)
		goto out;
	full = qp_cycles(pd, cq, true, n, t);
	bare = qp_cycles(pd, cq, false, n, t);
	if (full == 0 || bare == 0)
		goto out;
	printf("QP cycles %u (median, inline model, PF layer: qs_handle from the TC 0 qset)\n", n);
	printf("%-22s %10.2f us\n", "create+RTS+destroy", (double)full * 1e6 / hz);
	printf("%-22s %10.2f us\n", "create+destroy", (double)bare * 1e6 / hz);
	printf("%-22s %10.2f\n", "ratio", (double)full / (double)bare);
	ret = 0;
out:
	if (cq != NULL)
		(void)rdmadev_cq_destroy(cq);
	if (pd != NULL)
		(void)rdmadev_pd_free(pd);
	if (ctx != NULL)
		(void)rdmadev_ctx_free(ctx);
	if (id >= 0) {
		(void)rdmadev_stop((int16_t)id);
		(void)rdmadev_close((int16_t)id);
	}
	free(t);
	return ret;
}

int
main(int argc, char **argv)
{
	unsigned int rounds = 30, i;
	uint64_t *pf, *nopf;
	double hz, m_pf, m_nopf;

	if (argc > 1 && strcmp(argv[1], "--quick") == 0)
		rounds = 3;
	else if (argc > 1) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	if (test_eal_init("bench_irdma_start", NULL) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	pf = calloc(rounds, sizeof(*pf));
	nopf = calloc(rounds, sizeof(*nopf));
	if (pf == NULL || nopf == NULL)
		return 1;
	/* one warm-up of each (first memzone reservations, page faults) */
	if (one_start(DEVARGS) == 0 || one_start(DEVARGS ",pf_init=0") == 0)
		return 1;
	for (i = 0; i < rounds; i++) {
		pf[i] = one_start(DEVARGS);
		nopf[i] = one_start(DEVARGS ",pf_init=0");
		if (pf[i] == 0 || nopf[i] == 0)
			return 1;
	}
	qsort(pf, rounds, sizeof(*pf), cmp_u64);
	qsort(nopf, rounds, sizeof(*nopf), cmp_u64);
	hz = (double)rte_get_tsc_hz();
	m_pf = (double)pf[rounds / 2] * 1e6 / hz;
	m_nopf = (double)nopf[rounds / 2] * 1e6 / hz;
	printf("rounds %u (median, open -> started, inline model)\n", rounds);
	printf("%-22s %10.1f us\n", "with PF layer", m_pf);
	printf("%-22s %10.1f us\n", "without (pf_init=0)", m_nopf);
	printf("%-22s %10.2f\n", "ratio", m_pf / m_nopf);
	free(pf);
	free(nopf);
	if (qp_bench(rounds == 3 ? 20 : QP_ROUNDS) != 0)
		return 1;
	rte_eal_cleanup();
	return 0;
}
