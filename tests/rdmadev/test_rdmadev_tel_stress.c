/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Control-path readers against device teardown: telemetry clients on EAL's socket (the
 * telemetry thread runs the handlers) and an in-process reader (dumps, info, counters, port)
 * loop over the device while the main thread opens it, creates objects, and closes it again,
 * half of the time with the objects still alive (close releases them). Every reply must be
 * the device's data or the "no open device" error, never null; every call 0 or -EINVAL.
 * --ops: open/close cycles; --threads: telemetry clients.
 */

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_log.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "stress.h"
#include "test.h"
#include "test_driver.h"

/* Objects of each kind a cycle creates. */
#define NB_QP 8

/* Device id the readers ask for (the slot open hands out; reused by every cycle). */
static int16_t cur_id;
static bool stop_readers;

struct reader {
	unsigned int index;
	uint64_t replies;	/* replies read (published for the main thread) */
	uint64_t data;		/* replies with the device's data */
	uint64_t absent;	/* "no open device" replies */
	uint64_t bad;		/* anything else */
	char last_bad[256];
} __rte_cache_aligned;

static const char *const cmds[] = {
	"/rdmadev/res,%d,qp", "/rdmadev/res,%d,cq", "/rdmadev/res,%d,pd", "/rdmadev/res,%d,mr",
	"/rdmadev/res,%d,ctx", "/rdmadev/res,%d", "/rdmadev/info,%d", "/rdmadev/stats,%d",
};

static int
tel_connect(char *buf, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 || read(fd, buf, len) <= 0) {
		printf("#   telemetry socket %s: %s\n", sun.sun_path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Classify one reply to @p cmd (the command without its parameters). */
static void
tel_classify(struct reader *r, const char *cmd, const char *reply)
{
	char head[64];

	snprintf(head, sizeof(head), "{\"%s\":{", cmd);
	if (strncmp(reply, head, strlen(head)) != 0) {
		__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELEASE);
		snprintf(r->last_bad, sizeof(r->last_bad), "%.200s", reply);
	} else if (strstr(reply, "{\"error\":\"no open device with id ") != NULL) {
		r->absent++;
	} else {
		r->data++;
	}
}

static void *
tel_reader(void *arg)
{
	static __thread char buf[1 << 16];
	struct reader *r = arg;
	unsigned int i = r->index;
	int fd = tel_connect(buf, sizeof(buf));

	if (fd < 0) {
		__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	while (!__atomic_load_n(&stop_readers, __ATOMIC_ACQUIRE)) {
		const char *fmt = cmds[i++ % RTE_DIM(cmds)];
		char cmd[64], name[32];
		ssize_t n;

		snprintf(cmd, sizeof(cmd), fmt, __atomic_load_n(&cur_id, __ATOMIC_RELAXED));
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(cmd, ","), cmd);
		if (write(fd, cmd, strlen(cmd)) <= 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0) {
			__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELEASE);
			snprintf(r->last_bad, sizeof(r->last_bad), "%s: socket: %s", cmd,
				 strerror(errno));
			break;
		}
		buf[n] = '\0';
		tel_classify(r, name, buf);
		__atomic_fetch_add(&r->replies, 1, __ATOMIC_RELEASE);
	}
	close(fd);
	return NULL;
}

/* The in-process readers: each returns 0 (or a count) for an open device, -EINVAL else. */
static void *
api_reader(void *arg)
{
	struct reader *r = arg;
	FILE *null = fopen("/dev/null", "w");
	struct rdmadev_xstat xs[64];
	struct rdmadev_port_info pi;
	struct rdmadev_info info;
	struct rdmadev_stats st;
	uint8_t gid[16];

	while (!__atomic_load_n(&stop_readers, __ATOMIC_ACQUIRE)) {
		int16_t id = __atomic_load_n(&cur_id, __ATOMIC_RELAXED);
		int rc[8], i;

		rc[0] = rdmadev_res_dump(id, RESTRACK_MAX, null);
		rc[1] = rdmadev_dump(id, null);
		rc[2] = rdmadev_xstats_get(id, xs, RTE_DIM(xs));
		rc[3] = rdmadev_stats_get(id, &st);
		rc[4] = rdmadev_info_get(id, &info);
		rc[5] = rdmadev_port_info_get(id, &pi);
		rc[6] = rdmadev_gid_get(id, 0, gid);
		rc[7] = rdmadev_get_dev_id_by_name("rdma_test0");
		for (i = 0; i < 8; i++) {
			bool ok = i == 7 ? rc[i] == id || rc[i] == -ENODEV :
				  i == 2 ? rc[i] >= 0 || rc[i] == -EINVAL :
				  rc[i] == 0 || rc[i] == -EINVAL;

			if (ok)
				continue;
			__atomic_fetch_add(&r->bad, 1, __ATOMIC_RELEASE);
			snprintf(r->last_bad, sizeof(r->last_bad), "call %d returned %d", i, rc[i]);
		}
		if (rc[4] == 0)
			r->data++;
		else
			r->absent++;
		__atomic_fetch_add(&r->replies, 1, __ATOMIC_RELEASE);
	}
	fclose(null);
	return NULL;
}

/* Wait until every reader has answered twice more (no deadline: a hung reader is the test
 * harness's timeout). */
static void
wait_readers(struct reader *rd, unsigned int n)
{
	uint64_t mark[16];
	unsigned int i;

	for (i = 0; i < n; i++)
		mark[i] = __atomic_load_n(&rd[i].replies, __ATOMIC_ACQUIRE);
	for (i = 0; i < n; i++)
		while (__atomic_load_n(&rd[i].replies, __ATOMIC_ACQUIRE) < mark[i] + 2 &&
		       __atomic_load_n(&rd[i].bad, __ATOMIC_ACQUIRE) == 0)
			sched_yield();
}

/* One device life: open, objects, readers answer, close (with the objects alive when
 * @p leak). Returns false when a step failed. */
static bool
cycle(struct reader *rd, unsigned int nrd, bool leak)
{
	struct rdmadev_qp_init_attr qpa = { .qp_type = RDMADEV_QPT_RC,
					     .cap = { .max_send_wr = 8, .max_recv_wr = 8 } };
	const struct rdmadev_cq_attr cqa = { .cqe = 16 };
	static char buf[4096];
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf),
				       .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_qp *qp[NB_QP] = { NULL };
	struct rdmadev_ctx *ctx = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_mr *mr = NULL;
	int id = td_dev_up("rdma_test0");
	int fails = test_case_failures;
	unsigned int i;
	int rc;

	TEST_CHECK(id >= 0);
	if (id < 0)
		return false;
	__atomic_store_n(&cur_id, (int16_t)id, __ATOMIC_RELAXED);
	TEST_CHECK_EQ(rdmadev_ctx_alloc((int16_t)id, &ctx), 0);
	if (ctx != NULL)
		TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	if (pd != NULL)
		TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &cq), 0);
	qpa.pd = pd;
	qpa.send_cq = cq;
	qpa.recv_cq = cq;
	for (i = 0; cq != NULL && i < NB_QP; i++)
		TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp[i]), 0);
	if (pd != NULL)
		TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), 0);
	wait_readers(rd, nrd);
	if (!leak) {
		if (mr != NULL)
			TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
		for (i = 0; i < NB_QP; i++)
			if (qp[i] != NULL)
				TEST_CHECK_EQ(rdmadev_qp_destroy(qp[i]), 0);
		if (cq != NULL)
			TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
		if (pd != NULL)
			TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
		if (ctx != NULL)
			TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	}
	rc = td_dev_down((int16_t)id);
	/* ctx, pd, cq, the QPs and the MR */
	TEST_CHECK_EQ(rc, leak ? NB_QP + 4 : 0);
	return test_case_failures == fails;
}

static struct stress_args args = { .ops = 200, .threads = 2, .seed = 1 };

static void
test_close_under_readers(void)
{
	struct reader rd[9];
	pthread_t th[9];
	unsigned int i, nrd = args.threads + 1;
	uint64_t c, data = 0, absent = 0;
	char *log = NULL;
	size_t loglen = 0;
	FILE *logf = open_memstream(&log, &loglen);

	memset(rd, 0, sizeof(rd));
	/* the leak reports of close and the "no device" lines of the readers go to a buffer,
	 * searched at the end for telemetry refusals */
	rte_openlog_stream(logf);
	for (i = 0; i < nrd; i++) {
		rd[i].index = i;
		TEST_CHECK_EQ(pthread_create(&th[i], NULL, i == 0 ? api_reader : tel_reader,
					     &rd[i]), 0);
	}
	for (c = 0; c < args.ops; c++)
		if (!cycle(rd, nrd, c % 2 == 0)) {
			printf("#   cycle %" PRIu64 " failed\n", c);
			break;
		}
	__atomic_store_n(&stop_readers, true, __ATOMIC_RELEASE);
	for (i = 0; i < nrd; i++) {
		pthread_join(th[i], NULL);
		if (rd[i].bad != 0)
			printf("#   reader %u: %" PRIu64 " bad, last: %s\n", i, rd[i].bad,
			       rd[i].last_bad);
		TEST_CHECK_EQ(rd[i].bad, 0);
		data += rd[i].data;
		absent += rd[i].absent;
	}
	rte_openlog_stream(NULL);
	fclose(logf);
	printf("#   %" PRIu64 " cycles, %" PRIu64 " replies with data, %" PRIu64
	       " for a closed device, %zu log bytes\n", c, data, absent, loglen);
	TEST_CHECK_EQ(c, args.ops);
	TEST_CHECK(data >= 2 * args.ops);
	TEST_CHECK(log != NULL && strstr(log, "telemetry:") == NULL);
	if (log != NULL && strstr(log, "telemetry:") != NULL)
		printf("#   %.200s\n", strstr(log, "telemetry:"));
	free(log);
}

int
main(int argc, char **argv)
{
	if (stress_parse(argc, argv, &args) != 0 || args.threads > 8) {
		printf("Bail out! usage: %s [--ops cycles] [--threads clients (1..8)]\n", argv[0]);
		return 1;
	}
	if (test_eal_init("test_rdmadev_tel_stress", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	printf("# %" PRIu64 " open/close cycles, %u telemetry clients and an API reader\n",
	       args.ops, args.threads);
	TEST_RUN(test_close_under_readers);
	rte_eal_cleanup();
	return test_done();
}
