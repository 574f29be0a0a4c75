/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd's engines and run loop against a software loopback data path: the model
 * device's control path is real (objects, QP connection), its fast-path slot is replaced by
 * a mock that executes each WR at once (WRITE and READ copy between the two sides' buffers,
 * SEND consumes the peer's posted receive or refuses with -ENOSPC when there is none, as RNR
 * back-pressure would) and queues the completions. Every engine runs a short sweep; the
 * tables must parse, the numbers be positive and ordered, the counts balance, and the mock's
 * own counts agree with the report. This tests the app, not the PMD: the PMD's data path is
 * tested where it lives, and tests/app/run_testpmd.py runs the app on it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "test.h"
#include "testpmd.h"

#define MOCK_IDS	256u
#define MOCK_RING	16384u

struct mock_wc_ring { struct rdmadev_wc wc[MOCK_RING]; uint32_t head, tail; };
struct mock_rq { struct rdmadev_recv_wr wr[MOCK_RING]; struct rdmadev_sge sge[MOCK_RING];
	uint32_t head, tail; };

static struct tp_ctx ctx;
static struct mock_wc_ring *mock_cq;	/* by CQ id */
static struct mock_rq *mock_rq;		/* by QPN */
static uint64_t mock_sends, mock_writes, mock_reads, mock_recvs;
static int mock_first_role = -1;	/* role of the side that posted first in a run */

static const struct tp_side *
mock_qp(void *drv, uint32_t *qi)
{
	unsigned int s;
	uint32_t i;

	for (s = 0; s < ctx.nb_sides; s++)
		for (i = 0; i < ctx.side[s].nb_qps; i++)
			if (((struct rdmadev_fp_head *)(void *)ctx.side[s].qp[i])->drv == drv) {
				*qi = i;
				return &ctx.side[s];
			}
	return NULL;
}

static uint32_t
mock_cq_id(void *drv)
{
	unsigned int s;

	for (s = 0; s < ctx.nb_sides; s++) {
		if (((struct rdmadev_fp_head *)(void *)ctx.side[s].scq)->drv == drv)
			return rdmadev_cq_id(ctx.side[s].scq);
		if (((struct rdmadev_fp_head *)(void *)ctx.side[s].rcq)->drv == drv)
			return rdmadev_cq_id(ctx.side[s].rcq);
	}
	return MOCK_IDS;
}

static void
mock_push(uint32_t cq, uint64_t wr_id, uint8_t opcode, uint32_t len, uint32_t qpn)
{
	struct mock_wc_ring *r = &mock_cq[cq % MOCK_IDS];
	struct rdmadev_wc *wc = &r->wc[r->tail % MOCK_RING];

	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->opcode = opcode;
	wc->byte_len = len;
	wc->qp_num = qpn;
	/* Each ring has one producer and one consumer (the sides may run on two lcores). */
	__atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_RELEASE);
}

/* Deliver a SEND into the peer's next posted receive; false when it has none. */
static bool
mock_deliver(const struct tp_side *peer, uint32_t qi, const struct rdmadev_send_wr *wr)
{
	uint32_t qpn = rdmadev_qp_num(peer->qp[qi]);
	struct mock_rq *rq = &mock_rq[qpn % MOCK_IDS];
	const struct rdmadev_sge *dst;
	uint64_t wr_id;

	if (rq->head == __atomic_load_n(&rq->tail, __ATOMIC_ACQUIRE))
		return false;
	dst = &rq->sge[rq->head % MOCK_RING];
	wr_id = rq->wr[rq->head % MOCK_RING].wr_id;
	__atomic_store_n(&rq->head, rq->head + 1, __ATOMIC_RELEASE);
	memcpy((void *)(uintptr_t)dst->addr, (const void *)(uintptr_t)wr->sg_list[0].addr,
	       wr->sg_list[0].length);
	mock_push(rdmadev_cq_id(peer->rcq), wr_id, RDMADEV_WC_RECV, wr->sg_list[0].length, qpn);
	mock_recvs++;
	return true;
}

static uint16_t
mock_post_send(void *drv, const struct rdmadev_send_wr *wrs, uint16_t n, int *err)
{
	const struct tp_side *s;
	uint32_t qi;
	uint16_t k;

	*err = 0;
	s = mock_qp(drv, &qi);
	if (s == NULL) {
		*err = -EINVAL;
		return 0;
	}
	if (mock_first_role < 0 && n > 0)
		mock_first_role = (int)s->role;
	for (k = 0; k < n; k++) {
		const struct rdmadev_send_wr *w = &wrs[k];
		void *local = (void *)(uintptr_t)w->sg_list[0].addr;
		void *remote = (void *)(uintptr_t)w->rdma.remote_addr;

		if (w->opcode == RDMADEV_WR_RDMA_WRITE) {
			memcpy(remote, local, w->sg_list[0].length);
			mock_writes++;
		} else if (w->opcode == RDMADEV_WR_RDMA_READ) {
			memcpy(local, remote, w->sg_list[0].length);
			mock_reads++;
		} else if (!mock_deliver(s->peer, qi, w)) {
			*err = -ENOSPC;
			break;
		} else {
			mock_sends++;
		}
		if (w->flags & RDMADEV_SEND_SIGNALED)
			mock_push(rdmadev_cq_id(s->scq), w->wr_id, w->opcode == RDMADEV_WR_RDMA_READ ?
				  RDMADEV_WC_RDMA_READ : RDMADEV_WC_SEND, 0, rdmadev_qp_num(s->qp[qi]));
	}
	return k;
}

static uint16_t
mock_post_recv(void *drv, const struct rdmadev_recv_wr *wrs, uint16_t n, int *err)
{
	const struct tp_side *s;
	struct mock_rq *rq;
	uint32_t qi;
	uint16_t k;

	*err = 0;
	s = mock_qp(drv, &qi);
	if (s == NULL) {
		*err = -EINVAL;
		return 0;
	}
	rq = &mock_rq[rdmadev_qp_num(s->qp[qi]) % MOCK_IDS];
	for (k = 0; k < n && rq->tail - __atomic_load_n(&rq->head, __ATOMIC_ACQUIRE) < MOCK_RING;
	     k++) {
		rq->wr[rq->tail % MOCK_RING] = wrs[k];
		rq->sge[rq->tail % MOCK_RING] = wrs[k].sg_list[0];
		__atomic_store_n(&rq->tail, rq->tail + 1, __ATOMIC_RELEASE);
	}
	return k;
}

static uint16_t
mock_poll_cq(void *drv, struct rdmadev_wc *wcs, uint16_t n)
{
	struct mock_wc_ring *r = &mock_cq[mock_cq_id(drv) % MOCK_IDS];
	uint16_t k;

	for (k = 0; k < n && r->head != __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE); k++)
		wcs[k] = r->wc[r->head++ % MOCK_RING];
	return k;
}

/* Rows of the table that follows @p hdr in @p out: fields per row in @p nf. */
static int
rows_of(const char *out, const char *hdr, double v[][9], int max, int *nf)
{
	const char *p = strstr(out, hdr);
	int n = 0;

	if (p == NULL)
		return 0;
	p = strchr(p, '\n');
	while (p != NULL && p[1] != '\0' && strncmp(p + 1, "---", 3) != 0 && n < max) {
		p++;
		if (strncmp(p, "   ", 3) != 0) {
			*nf = sscanf(p, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[n][0], &v[n][1],
				     &v[n][2], &v[n][3], &v[n][4], &v[n][5], &v[n][6], &v[n][7],
				     &v[n][8]);
			n++;
		}
		p = strchr(p, '\n');
	}
	return n;
}

/* Run the configured test with the mock; returns the run's result and its stdout. */
static int
run_mock(char **out)
{
	size_t len = 0;
	int rc;

	ctx.out = open_memstream(out, &len);
	rc = tp_setup(&ctx);
	TEST_CHECK_EQ(rc, 0);
	rdmadev_fp_objs[ctx.dev[0]].post_send = mock_post_send;
	rdmadev_fp_objs[ctx.dev[0]].post_recv = mock_post_recv;
	rdmadev_fp_objs[ctx.dev[0]].poll_cq = mock_poll_cq;
	memset(mock_cq, 0, sizeof(*mock_cq) * MOCK_IDS);
	memset(mock_rq, 0, sizeof(*mock_rq) * MOCK_IDS);
	mock_sends = mock_writes = mock_reads = mock_recvs = 0;
	mock_first_role = -1;
	rc = tp_run_test(&ctx);
	fclose(ctx.out);
	return rc;
}

static void
config(const char *test, uint32_t iters, uint32_t size_max)
{
	tp_config_defaults(&ctx.cfg);
	snprintf(ctx.cfg.test, sizeof(ctx.cfg.test), "%s", test);
	ctx.cfg.iters = iters;
	ctx.cfg.sweep = true;
	ctx.cfg.size_max = size_max;
	ctx.cfg.timeout_ms = 3000;
}

static void
check_lat(const char *test, const char *extra_knob, const char *extra_val, uint64_t *ops)
{
	double v[16][9];
	char *out = NULL;
	int n, nf = 0, i;

	config(test, 100, 64);
	ctx.cfg.histogram = true;
	if (extra_knob != NULL)
		TEST_CHECK_EQ(tp_knob_set(&ctx.cfg, extra_knob, extra_val, stderr), 0);
	TEST_CHECK_EQ(run_mock(&out), 0);
	n = rows_of(out, " #bytes #iterations    t_min", v, 16, &nf);
	TEST_CHECK_EQ(n, 6);		/* 2 .. 64 */
	TEST_CHECK_EQ(nf, 9);
	for (i = 0; i < n; i++) {
		TEST_CHECK_EQ(v[i][0], 2 << i);
		TEST_CHECK_EQ(v[i][1], 100);
		TEST_CHECK(v[i][2] > 0);
		TEST_CHECK(v[i][2] <= v[i][4] && v[i][4] <= v[i][7] && v[i][7] <= v[i][8] &&
			   v[i][8] <= v[i][3]);
		TEST_CHECK(v[i][2] <= v[i][5] && v[i][5] <= v[i][3]);
	}
	TEST_CHECK(strstr(out, "histogram of 97 samples") != NULL);
	TEST_CHECK_EQ(*ops, 6 * 100 * (strcmp(test, "read_lat") == 0 ? 1 : 2));
	if (test_case_failures)
		printf("%s", out);
	free(out);
}

static void
check_lat_split(const char *test)
{
	double v[16][9];
	char *out = NULL;
	int n, nf = 0;

	config(test, 200, 8);
	TEST_CHECK_EQ(tp_knob_set(&ctx.cfg, "tp_cores", "0,1", stderr), 0);
	TEST_CHECK_EQ(run_mock(&out), 0);
	n = rows_of(out, " #bytes #iterations    t_min", v, 16, &nf);
	TEST_CHECK_EQ(n, 3);
	TEST_CHECK(n > 0 && v[0][1] == 200 && v[0][2] <= v[0][4] && v[0][4] <= v[0][3]);
	free(out);
	/* A client lcore that is not the main one is refused. */
	config(test, 200, 8);
	TEST_CHECK_EQ(tp_knob_set(&ctx.cfg, "tp_cores", "1,0", stderr), 0);
	TEST_CHECK_EQ(tp_run_test(&ctx), -EINVAL);
}

static void
test_write_lat(void)
{
	check_lat("write_lat", NULL, NULL, &mock_writes);
}

/*
 * Who sends first, as perftest's loops: the server in write_lat (run_iter_lat_write() skips
 * the server's first poll), the client in send_lat (run_iter_lat_send() the client's). A
 * write_lat client that wrote first deadlocked against perftest's server. And each QP's area
 * holds a peer's cycle buffer.
 */
static void
test_lat_first_sender(void)
{
	char *out = NULL;

	config("write_lat", 100, 2);
	TEST_CHECK_EQ(run_mock(&out), 0);
	TEST_CHECK_EQ(mock_first_role, (int)TP_SERVER);
	/* perftest's BW writers walk a page of the peer's area: 2 B messages need 4 KiB */
	TEST_CHECK(ctx.side[0].area >= 4096 && ctx.side[1].area >= 4096);
	free(out);
	out = NULL;
	config("send_lat", 100, 2);
	TEST_CHECK_EQ(run_mock(&out), 0);
	TEST_CHECK_EQ(mock_first_role, (int)TP_CLIENT);
	free(out);
}

static void
test_write_lat_inline(void)
{
	check_lat("write_lat", "inline", "64", &mock_writes);
}

static void
test_read_lat(void)
{
	check_lat("read_lat", NULL, NULL, &mock_reads);
}

static void
test_send_lat(void)
{
	check_lat("send_lat", NULL, NULL, &mock_sends);
	TEST_CHECK_EQ(mock_recvs, 6 * 100 * 2);
}

static void
test_send_lat_ud(void)
{
	check_lat("send_lat", "conn", "UD", &mock_sends);
}

static void
check_bw(const char *test, uint32_t qps, uint32_t post_list, uint32_t cq_mod, uint64_t *ops)
{
	double v[16][9];
	char *out = NULL;
	int n, nf = 0, i;

	config(test, 1000, 64);
	ctx.cfg.qps = qps;
	ctx.cfg.post_list = post_list;
	ctx.cfg.cq_mod = cq_mod;
	ctx.cfg.cq_mod_set = true;
	ctx.cfg.json_path[0] = '\0';
	TEST_CHECK_EQ(run_mock(&out), 0);
	n = rows_of(out, " #bytes     #iterations    BW peak", v, 16, &nf);
	TEST_CHECK_EQ(n, 6);
	TEST_CHECK_EQ(nf, 5);
	for (i = 0; i < n; i++) {
		TEST_CHECK_EQ(v[i][0], 2 << i);
		TEST_CHECK_EQ(v[i][1], 1000 * qps);
		TEST_CHECK(v[i][3] > 0 && v[i][4] > 0);
		TEST_CHECK(v[i][2] >= v[i][3] * 0.999);
	}
	TEST_CHECK_EQ(*ops, (uint64_t)6 * 1000 * qps);
	if (test_case_failures)
		printf("%s", out);
	free(out);
}

static void
test_write_bw(void)
{
	check_bw("write_bw", 1, 1, 100, &mock_writes);
}

static void
test_write_bw_lists(void)
{
	check_bw("write_bw", 3, 4, 8, &mock_writes);	/* 1000 not a multiple of 8 */
}

static void
test_read_bw(void)
{
	check_bw("read_bw", 2, 1, 7, &mock_reads);
}

static void
test_send_bw(void)
{
	check_bw("send_bw", 2, 2, 16, &mock_sends);
	TEST_CHECK_EQ(mock_recvs, 6 * 1000 * 2);
}

/* --tp-cores 0,1: the server side steps on lcore 1 while the client runs on the main lcore. */
static void
test_two_lcores(void)
{
	if (rte_lcore_count() < 2) {
		printf("# skipped: one lcore\n");
		return;
	}
	ctx.cfg.lcore_client = -1;
	check_lat_split("send_lat");
	check_lat_split("write_lat");
}

/* --duration: the run stops on time, every posted WR completes, the counts still balance. */
static void
test_duration(void)
{
	double v[4][9];
	char *out = NULL;
	int nf = 0;

	config("write_bw", 1000000, 64);
	ctx.cfg.sweep = false;
	ctx.cfg.size = 64;
	ctx.cfg.duration = 1;
	TEST_CHECK_EQ(run_mock(&out), 0);
	TEST_CHECK_EQ(rows_of(out, " #bytes     #iterations    BW peak", v, 4, &nf), 1);
	TEST_CHECK(v[0][1] > 0 && v[0][1] <= 1000000);
	TEST_CHECK_EQ((uint64_t)v[0][1] % 100, 0);	/* stopped on the signaled grid */
	TEST_CHECK_EQ(mock_writes, (uint64_t)v[0][1]);
	free(out);
}

/* A failing data path: the run fails with the reason, and the objects still tear down. */
static uint16_t
mock_refuse(void *drv, const struct rdmadev_send_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	*err = -ENOTSUP;
	return 0;
}

static void
test_refused(void)
{
	char *out = NULL;
	size_t len = 0;

	config("send_lat", 100, 4);
	ctx.out = open_memstream(&out, &len);
	rdmadev_fp_objs[ctx.dev[0]].post_send = mock_refuse;
	TEST_CHECK_EQ(tp_run_test(&ctx), -ENOTSUP);
	TEST_CHECK(ctx.side[0].error == -ENOTSUP);
	TEST_CHECK(strstr(ctx.side[0].errmsg, "rdmadev_post_send") != NULL);
	fclose(ctx.out);
	free(out);
}

/* A peer that never answers: the watchdog ends the run. */
static uint16_t
mock_silent(void *drv, const struct rdmadev_send_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(drv);
	RTE_SET_USED(wrs);
	*err = 0;
	return n;
}

static void
test_watchdog(void)
{
	char *out = NULL;
	size_t len = 0;

	config("write_lat", 100, 2);
	ctx.cfg.timeout_ms = 300;
	ctx.out = open_memstream(&out, &len);
	TEST_CHECK_EQ(tp_setup(&ctx), 0);
	rdmadev_fp_objs[ctx.dev[0]].post_send = mock_silent;
	rdmadev_fp_objs[ctx.dev[0]].poll_cq = mock_poll_cq;
	TEST_CHECK_EQ(tp_run_test(&ctx), -ETIMEDOUT);
	TEST_CHECK(strstr(ctx.side[0].errmsg, "no progress for 300 ms") != NULL);
	fclose(ctx.out);
	free(out);
}

int
main(void)
{
	int leaks;

	if (test_eal_init("test_tp_engines", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	mock_cq = calloc(MOCK_IDS, sizeof(*mock_cq));
	mock_rq = calloc(MOCK_IDS, sizeof(*mock_rq));
	tp_config_defaults(&ctx.cfg);
	ctx.out = stdout;
	printf("# ");
	if (mock_cq == NULL || mock_rq == NULL || tp_devices_open(&ctx) < 0) {
		printf("Bail out! no model device\n");
		return 1;
	}
	TEST_RUN(test_write_lat);
	TEST_RUN(test_write_lat_inline);
	TEST_RUN(test_lat_first_sender);
	TEST_RUN(test_read_lat);
	TEST_RUN(test_send_lat);
	TEST_RUN(test_send_lat_ud);
	TEST_RUN(test_write_bw);
	TEST_RUN(test_write_bw_lists);
	TEST_RUN(test_read_bw);
	TEST_RUN(test_send_bw);
	TEST_RUN(test_two_lcores);
	TEST_RUN(test_duration);
	TEST_RUN(test_refused);
	TEST_RUN(test_watchdog);
	TEST_CHECK_EQ(tp_teardown(&ctx), 0);
	leaks = tp_devices_close(&ctx);
	TEST_CHECK_EQ(leaks, 0);
	free(mock_cq);
	free(mock_rq);
	rte_eal_cleanup();
	return test_done();
}
