/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev resource dumps, telemetry (handlers and the real socket), the sysfs probe on a fake
 * tree, and the CM_ID exchange over loopback TCP. */


#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <rdmadev_private.h>

#include "fake_sysfs.h"
#include "test.h"
#include "test_driver.h"

static char out[1 << 16];
static char comm[32];
static int16_t dev;
static struct rdmadev_ctx *ctx;

static void
read_comm(void)
{
	FILE *f = fopen("/proc/self/comm", "r");

	if (f == NULL || fgets(comm, sizeof(comm), f) == NULL)
		strcpy(comm, "?");
	comm[strcspn(comm, "\n")] = '\0';
	if (f != NULL)
		fclose(f);
}

static void
dump(int type)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	TEST_CHECK_EQ(rdmadev_res_dump(dev, type, f), 0);
	fclose(f);
}

/* Does the dump hold @p line, followed by " pid N comm C"? */
static int
has_line(const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "%s pid %d comm %s\n", line, (int)getpid(), comm);
	if (strstr(out, want) != NULL)
		return 1;
	printf("#   want: %s#   dump: %s", want, out);
	return 0;
}

/* RESET -> INIT (port 1) -> RTR with destination QP 77 and RQ PSN 100. */
static void
qp_to_rtr(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1 };

	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
					RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS), 0);
	a.qp_state = RDMADEV_QPS_RTR;
	a.path_mtu = RDMADEV_MTU_4096;
	a.dest_qp_num = 77;
	a.rq_psn = 100;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV |
					RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN |
					RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
					RDMADEV_QP_MIN_RNR_TIMER), 0);
}

static void
test_dump(void)
{
	static char buf[4096];
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf), .iova = 0x10000,
				       .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_qp_init_attr qpa = { .qp_type = RDMADEV_QPT_RC,
					     .cap = { .max_send_wr = 8, .max_recv_wr = 8 } };
	struct rdmadev_pd *pd;
	struct rdmadev_qp *qp;
	struct rdmadev_mr *mr;
	char line[256];

	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &qpa.send_cq), 0);
	qpa.recv_cq = qpa.send_cq;
	qpa.pd = pd;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), 0);

	dump(RESTRACK_QP);
	TEST_CHECK(has_line("link rdma_test0/- lqpn 3 type RC state RESET sq-psn 0 "
			    "path-mig-state MIGRATED pdn 3 drv-sq-depth 8"));
	qp_to_rtr(qp);
	dump(RESTRACK_QP);
	TEST_CHECK(has_line("link rdma_test0/1 lqpn 3 rqpn 77 type RC state RTR rq-psn 100 "
			    "sq-psn 0 path-mig-state MIGRATED pdn 3 drv-sq-depth 8"));
	dump(RESTRACK_CQ);
	TEST_CHECK(has_line("dev rdma_test0 cqn 3 cqe 33 users 2 poll-ctx DIRECT ctxn 0"));
	dump(RESTRACK_MR);
	TEST_CHECK(has_line("dev rdma_test0 mrn 1 rkey 0x101 lkey 0x101 iova 0x10000 "
			    "mrlen 4096 pdn 3"));
	dump(RESTRACK_PD);
	TEST_CHECK(has_line("dev rdma_test0 pdn 3 users 2 ctxn 0"));
	dump(RESTRACK_CTX);
	TEST_CHECK(has_line("dev rdma_test0 ctxn 0 users 4"));
	dump(RESTRACK_MAX);
	snprintf(line, sizeof(line), "%d: rdma_test0: pd 1 cq 1 qp 1 cm_id 0 mr 1 ctx 1", dev);
	TEST_CHECK(strstr(out, line) != NULL);
	TEST_CHECK_EQ(rdmadev_res_dump(dev, 42, stdout), -EINVAL);

	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(qpa.send_cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
}

/* One command over EAL's telemetry socket; the reply in out. */
static int
tel_query(const char *cmd)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		printf("#   telemetry socket %s: %s\n", sun.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	n = read(fd, out, sizeof(out) - 1);	/* the greeting */
	if (n > 0 && write(fd, cmd, strlen(cmd)) > 0)
		n = read(fd, out, sizeof(out) - 1);
	else
		n = -1;
	close(fd);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

static void
test_telemetry(void)
{
	struct rte_tel_data *d = rte_tel_data_alloc();
	struct rdmadev_pd *pd;
	char cmd[64];

	TEST_CHECK(d != NULL);
	/* handlers that add containers (info; res of a type with objects) leave them to the
	 * telemetry socket to free: those go through the socket below */
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/list", NULL, d), 0);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/info", "31", d), 0);	/* error reply */
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/info", "32", d), -EINVAL);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/info", "0,qp", d), -EINVAL);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/info", "x", d), -EINVAL);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/info", NULL, d), -EINVAL);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/stats", "0", d), 0);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/res", "0", d), 0);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/res", "0,qp", d), 0);	/* no QP */
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/res", "0,bogus", d), -EINVAL);
	TEST_CHECK_EQ(rdmadev_telemetry_handle("/rdmadev/nothing", "0", d), -EINVAL);
	rte_tel_data_free(d);

	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pd), 0);
	TEST_CHECK_EQ(tel_query("/rdmadev/list"), 0);
	snprintf(cmd, sizeof(cmd), "{\"/rdmadev/list\":[%d]}", dev);
	TEST_CHECK(strcmp(out, cmd) == 0);
	snprintf(cmd, sizeof(cmd), "/rdmadev/info,%d", dev);
	TEST_CHECK_EQ(tel_query(cmd), 0);
	TEST_CHECK(strstr(out, "\"name\":\"rdma_test0\"") != NULL);
	TEST_CHECK(strstr(out, "\"max_qp_wr\":4063") != NULL);
	TEST_CHECK(strstr(out, "\"max_inline\":101") != NULL);
	TEST_CHECK(strstr(out, "\"capa\":{\"RTS_AE\":1,\"CQ_RESIZE\":1,\"CQE_64B\":0") != NULL);
	TEST_CHECK(strstr(out, "\"port_state\":\"ACTIVE\",\"mac\":\"02:00:00:00:00:01\","
			  "\"mtu\":1500,\"max_mtu\":4096,\"active_mtu\":1024,"
			  "\"gid_tbl_len\":2,\"gids\":[\"::ffff:10.0.0.1\",\"fe80::1\"],"
			  "\"speed_mbps\":0,\"pf_id\":-1,\"fw_ver\":\"\"") != NULL);
	snprintf(cmd, sizeof(cmd), "/rdmadev/stats,%d", dev);
	TEST_CHECK_EQ(tel_query(cmd), 0);
	TEST_CHECK(strstr(out, "\"pd_created\":") != NULL);
	TEST_CHECK(strstr(out, "\"cqpCommands\":") != NULL);
	snprintf(cmd, sizeof(cmd), "/rdmadev/res,%d", dev);
	TEST_CHECK_EQ(tel_query(cmd), 0);
	TEST_CHECK(strstr(out, "\"pd\":1,\"cq\":0,\"qp\":0") != NULL);
	snprintf(cmd, sizeof(cmd), "/rdmadev/res,%d,pd", dev);
	TEST_CHECK_EQ(tel_query(cmd), 0);
	TEST_CHECK(strstr(out, "{\"/rdmadev/res\":{\"") != NULL);
	snprintf(cmd, sizeof(cmd), "{\"pdn\":%u,", rdmadev_obj_id(&pd->obj));
	TEST_CHECK(strstr(out, cmd) != NULL);
	TEST_CHECK(strstr(out, "\"users\":0,\"ctxn\":0,\"pid\":") != NULL);
	/* a device that is not open: an error, not null */
	TEST_CHECK_EQ(tel_query("/rdmadev/res,31,qp"), 0);
	TEST_CHECK(strcmp(out, "{\"/rdmadev/res\":{\"error\":\"no open device with id 31\"}}")
		   == 0);
	TEST_CHECK_EQ(tel_query("/rdmadev/info,31"), 0);
	TEST_CHECK(strcmp(out, "{\"/rdmadev/info\":{\"error\":\"no open device with id 31\"}}")
		   == 0);
	if (test_case_failures)
		printf("#   last reply: %s\n", out);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
}

/*
 * More objects than a telemetry dict holds (RTE_TEL_MAX_DICT_ENTRIES, 256): the reply stops
 * at the first refused object, and the refusal is logged with the field's name.
 */
static void
test_telemetry_full(void)
{
	enum { NB = 300 };
	static struct rdmadev_pd *pds[NB];
	unsigned int i, n = 0;
	const char *p;
	char cmd[64], *log;

	for (i = 0; i < NB; i++)
		TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &pds[i]), 0);
	snprintf(cmd, sizeof(cmd), "/rdmadev/res,%d,pd", dev);
	td_log_start();
	TEST_CHECK_EQ(tel_query(cmd), 0);
	log = td_log_stop();
	for (p = out; (p = strstr(p, "\":{\"pdn\":")) != NULL; p++)
		n++;
	printf("#   %u of %u PDs in a reply of %zu bytes\n", n, NB, strlen(out));
	TEST_CHECK(strncmp(out, "{\"/rdmadev/res\":{\"", 18) == 0);
	/* at most the dict's 256; telemetry's 16 KB reply buffer may hold fewer */
	TEST_CHECK(n > 0 && n <= 256);
	TEST_CHECK(log != NULL && strstr(log, "telemetry: field \"") != NULL &&
		   strstr(log, "\" refused: ") != NULL);
	if (test_case_failures)
		printf("#   log: %s\n", log != NULL ? log : "(none)");
	free(log);
	for (i = 0; i < NB; i++)
		if (pds[i] != NULL)
			TEST_CHECK_EQ(rdmadev_pd_free(pds[i]), 0);
}

/* rdmadev_dump's limits line: IRD is max_qp_rd_atom (127 on the test driver), ORD
 * max_qp_init_rd_atom (255). */
static void
test_dump_ird_ord(void)
{
	struct rdmadev_info info;
	FILE *f = fmemopen(out, sizeof(out), "w");

	TEST_CHECK_EQ(rdmadev_info_get(dev, &info), 0);
	TEST_CHECK_EQ(info.max_qp_rd_atom, 127);
	TEST_CHECK_EQ(info.max_qp_init_rd_atom, 255);
	TEST_CHECK_EQ(rdmadev_dump(dev, f), 0);
	fclose(f);
	TEST_CHECK(strstr(out, "\n  ird 127 ord 255 fast_reg_pages ") != NULL);
	if (test_case_failures)
		printf("#   dump: %s", out);
	TEST_CHECK_EQ(rdmadev_dump(dev, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_dump(31, stdout), -EINVAL);
}

/* Is @p v what telemetry sends as a number (decimal, no leading zero)? */
static bool
is_decimal(const char *v)
{
	size_t i = v[0] == '-' ? 1 : 0;

	if (!isdigit((unsigned char)v[i]) || (v[i] == '0' && v[i + 1] != '\0'))
		return false;
	for (; v[i] != '\0'; i++)
		if (!isdigit((unsigned char)v[i]))
			return false;
	return true;
}

/* Is `,"name":value,` in @p obj (",<the object's fields>,")? A string value is quoted. */
static bool
has_field(const char *obj, const char *name, const char *value, bool number)
{
	char want[160];
	size_t i;

	snprintf(want, sizeof(want), number ? ",\"%s\":%s," : ",\"%s\":\"%s\",", name, value);
	for (i = 2; want[i] != '"'; i++)	/* iproute2's '-' is '_' in telemetry */
		if (want[i] == '-')
			want[i] = '_';
	if (strstr(obj, want) != NULL)
		return true;
	printf("#   missing %s in {%s}\n", want, obj + 1);
	return false;
}

/*
 * Every line of the dump of @p type against the reply of /rdmadev/res,<id>,<type>: the
 * object under its ID holds each attribute the line prints, decimal ones as numbers and the
 * rest as strings, plus "port" (QPs), "pid" and "comm", and nothing else. Returns the
 * number of objects checked.
 */
static unsigned int
check_res_json(int16_t id, enum restrack_type type, char *reply, size_t len)
{
	static char lines[1 << 14];
	char cmd[64], obj[1024], *line, *save = NULL;
	unsigned int n = 0;
	FILE *f = fmemopen(lines, sizeof(lines), "w");

	TEST_CHECK_EQ(rdmadev_res_dump(id, (int)type, f), 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "/rdmadev/res,%d,%s", id, restrack_type_name(type));
	TEST_CHECK_EQ(tel_query(cmd), 0);
	strlcpy(reply, out, len);
	for (line = strtok_r(lines, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[2 * RESTRACK_DUMP_MAX_ATTRS + 8], *p, *s2 = NULL, key[48];
		const char *start, *end;
		unsigned int nt = 0, i, fields = 1;
		bool ok;

		for (p = strtok_r(line, " ", &s2); p != NULL && nt < RTE_DIM(tok);
		     p = strtok_r(NULL, " ", &s2))
			tok[nt++] = p;
		/* dev NAME | link NAME/PORT, the pairs, pid N, comm C */
		ok = nt >= 8 && nt % 2 == 0 && strcmp(tok[nt - 4], "pid") == 0;
		TEST_CHECK(ok);
		if (!ok)
			continue;
		snprintf(key, sizeof(key), "\"%s\":{", tok[3]);
		start = strstr(reply, key);
		end = start != NULL ? strchr(start + strlen(key), '}') : NULL;
		ok = end != NULL && (size_t)(end - start) + 3 < sizeof(obj);
		TEST_CHECK(ok);
		if (!ok) {
			printf("#   no object %s in %s\n", key, reply);
			continue;
		}
		start += strlen(key);
		snprintf(obj, sizeof(obj), ",%.*s,", (int)(end - start), start);
		for (p = obj + 1; *p != '\0'; p++)
			fields += *p == ',' && p[1] != '\0';
		for (i = 2; i + 1 < nt; i += 2)
			TEST_CHECK(has_field(obj, tok[i], tok[i + 1], is_decimal(tok[i + 1])));
		if (type == RESTRACK_QP) {
			const char *slash = strchr(tok[1], '/');

			TEST_CHECK(has_field(obj, "port", slash != NULL && slash[1] != '-' ?
					     slash + 1 : "0", true));
		}
		TEST_CHECK_EQ(fields, (nt - 2) / 2 + (type == RESTRACK_QP));
		n++;
	}
	return n;
}

/*
 * /rdmadev/res of every type with one object each (a gen3 device, for SRQ and MW): the
 * fields rdmadev_res_dump prints, typed, and a few values by hand.
 */
static void
test_telemetry_res_types(void)
{
	static char buf[4096], reply[1 << 14];
	int16_t d3 = (int16_t)td_dev_up("rdma_test3,gen=3");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_mr_attr mra = { .addr = buf, .length = sizeof(buf), .iova = 0x10000,
				       .access = RDMADEV_ACCESS_LOCAL_WRITE };
	struct rdmadev_qp_init_attr qpa = { .qp_type = RDMADEV_QPT_RC,
					     .cap = { .max_send_wr = 8, .max_recv_wr = 8 } };
	const struct rdmadev_srq_attr sa = { .max_wr = 16, .max_sge = 1 };
	const struct rdmadev_dmah_attr da = { .cpu_id = -1, .numa_node = 0 };
	struct rdmadev_comp_cntr *cc = NULL;
	struct rdmadev_counter *cnt = NULL;
	struct rdmadev_cm_id *cm = NULL;
	struct rdmadev_dmah *dmah = NULL;
	struct rdmadev_ctx *c3 = NULL;
	struct rdmadev_srq *srq = NULL;
	struct rdmadev_pd *pd = NULL;
	struct rdmadev_qp *qp = NULL;
	struct rdmadev_mr *mr = NULL;
	struct rdmadev_mw *mw = NULL;
	char want[64];
	int t;

	TEST_CHECK(d3 >= 0);
	if (d3 >= 0)
		TEST_CHECK_EQ(rdmadev_ctx_alloc(d3, &c3), 0);
	if (c3 == NULL)
		return;
	TEST_CHECK_EQ(rdmadev_pd_alloc(c3, &pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(c3, &cqa, &qpa.send_cq), 0);
	qpa.recv_cq = qpa.send_cq;
	qpa.pd = pd;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	qp_to_rtr(qp);
	TEST_CHECK_EQ(rdmadev_mr_reg(pd, &mra, &mr), 0);
	TEST_CHECK_EQ(rdmadev_mw_alloc(pd, &mw), 0);
	TEST_CHECK_EQ(rdmadev_srq_create(pd, &sa, &srq), 0);
	TEST_CHECK_EQ(rdmadev_counter_alloc(c3, &cnt), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_create(c3, &cc), 0);
	TEST_CHECK_EQ(rdmadev_dmah_alloc(c3, &da, &dmah), 0);
	TEST_CHECK_EQ(rdmadev_cm_id_create(c3, &cm), 0);
	TEST_CHECK_EQ(rdmadev_cm_listen(cm, NULL, 0), 0);

	for (t = 0; t < RESTRACK_MAX; t++) {
		unsigned int want_objs = t == RESTRACK_MR ? 2 : 1;	/* the MR and the MW */
		int before = test_case_failures;

		TEST_CHECK_EQ(check_res_json(d3, t, reply, sizeof(reply)), want_objs);
		/* by hand: what the review found dropped or quoted */
		if (t == RESTRACK_QP) {
			snprintf(want, sizeof(want), "{\"port\":1,\"lqpn\":%u,", rdmadev_qp_num(qp));
			TEST_CHECK(strstr(reply, want) != NULL);
			TEST_CHECK(strstr(reply, "\"rqpn\":77,\"type\":\"RC\",\"state\":\"RTR\","
					  "\"rq_psn\":100,\"sq_psn\":0,"
					  "\"path_mig_state\":\"MIGRATED\",") != NULL);
			TEST_CHECK(strstr(reply, "\"drv_sq_depth\":8,") != NULL);
		} else if (t == RESTRACK_CQ) {
			TEST_CHECK(strstr(reply, "\"cqe\":33,\"users\":2,\"poll_ctx\":\"DIRECT\",")
				   != NULL);
		} else if (t == RESTRACK_MR) {
			TEST_CHECK(strstr(reply, "\"iova\":\"0x10000\",\"mrlen\":4096,") != NULL);
		} else if (t == RESTRACK_DMAH) {
			TEST_CHECK(strstr(reply, "\"cpu\":-1,\"numa\":0,") != NULL);
		} else if (t == RESTRACK_CM_ID) {
			snprintf(want, sizeof(want), "\"state\":\"LISTEN\",\"src_port\":%u,",
				 rdmadev_cm_port(cm));
			TEST_CHECK(strstr(reply, want) != NULL);
		}
		if (test_case_failures != before)
			printf("#   %s reply: %s\n", restrack_type_name(t), reply);
	}
	TEST_CHECK_EQ(rdmadev_cm_id_destroy(cm), 0);
	TEST_CHECK_EQ(rdmadev_dmah_free(dmah), 0);
	TEST_CHECK_EQ(rdmadev_comp_cntr_destroy(cc), 0);
	TEST_CHECK_EQ(rdmadev_counter_free(cnt), 0);
	TEST_CHECK_EQ(rdmadev_srq_destroy(srq), 0);
	TEST_CHECK_EQ(rdmadev_mw_free(mw), 0);
	TEST_CHECK_EQ(rdmadev_mr_dereg(mr), 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(qpa.send_cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(c3), 0);
	TEST_CHECK_EQ(td_dev_down(d3), 0);
}

/* ---- probe ---- */

static char sysroot[128];

/* The port API over the test driver: bounds checked by the library, -ENOTSUP without ops. */
static void
test_port(void)
{
	struct rdmadev_port_info pi;
	uint8_t gid[16];
	int min;

	TEST_CHECK_EQ(rdmadev_port_info_get(dev, &pi), 0);
	TEST_CHECK_EQ(pi.gid_tbl_len, 2);
	TEST_CHECK_EQ(rdmadev_gid_get(dev, 1, gid), 0);
	TEST_CHECK(gid[0] == 0xfe && gid[1] == 0x80 && gid[15] == 1);
	TEST_CHECK_EQ(rdmadev_gid_get(dev, 2, gid), -EINVAL);
	TEST_CHECK_EQ(rdmadev_gid_get(dev, 0, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_port_info_get(dev, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_port_info_get(-1, &pi), -EINVAL);
	min = rdmadev_open("rdma_testmin0");
	TEST_CHECK(min >= 0);
	if (min >= 0) {
		TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)min, &pi), -ENOTSUP);
		TEST_CHECK_EQ(rdmadev_gid_get((int16_t)min, 0, gid), -ENOTSUP);
		TEST_CHECK_EQ(rdmadev_close((int16_t)min), 0);
	}
}

static void
test_probe(void)
{
	struct rdmadev_pci_func fn[8];
	int n;

	test_sysfs_create(sysroot, sizeof(sysroot), "rdmadev-sysfs");
	test_sysfs_add_func(sysroot, "0000:3b:00.0", "0x8086", "0x1592", "vfio-pci", "12");
	test_sysfs_add_func(sysroot, "0000:3b:00.1", "0x8086", "0x159b", "ice", "13");
	test_sysfs_add_func(sysroot, "0000:3b:00.2", "0x8086", "0x188a", "vfio-pci", NULL);
	test_sysfs_add_func(sysroot, "0000:3b:00.3", "0x8086", "0x1593", NULL, "14");
	/* not Intel */
	test_sysfs_add_func(sysroot, "0000:5e:00.0", "0x15b3", "0x1017", "mlx5_core", "20");
	/* ixgbe */
	test_sysfs_add_func(sysroot, "0000:5e:00.1", "0x8086", "0x10fb", "vfio-pci", "21");

	n = rdmadev_probe_pci(sysroot, fn, RTE_DIM(fn));
	TEST_CHECK_EQ(n, 4);
	if (n == 4) {
		TEST_CHECK(strcmp(fn[0].addr, "0000:3b:00.0") == 0);
		TEST_CHECK(fn[0].usable);
		TEST_CHECK_EQ(fn[0].iommu_group, 12);
		TEST_CHECK_EQ(fn[0].device_id, 0x1592);
		TEST_CHECK(strcmp(fn[0].devargs, "irdma:0000:3b:00.0") == 0);
		TEST_CHECK(!fn[1].usable);
		TEST_CHECK(strcmp(fn[1].driver, "ice") == 0);
		TEST_CHECK(strstr(fn[1].reason, "bound to ice") != NULL);
		TEST_CHECK(!fn[2].usable);
		TEST_CHECK(strstr(fn[2].reason, "no IOMMU group") != NULL);
		TEST_CHECK(!fn[3].usable);
		TEST_CHECK(strstr(fn[3].reason, "not bound") != NULL);
	}
	TEST_CHECK_EQ(rdmadev_probe_pci(sysroot, fn, 1), 4);	/* counts beyond max */
	TEST_CHECK_EQ(rdmadev_probe_pci(sysroot, NULL, 0), 4);
	TEST_CHECK_EQ(rdmadev_probe_pci(sysroot, NULL, 3), -EINVAL);
	setenv(RDMADEV_SYSFS_ENV, sysroot, 1);
	TEST_CHECK_EQ(rdmadev_probe_pci(NULL, fn, RTE_DIM(fn)), 4);
	unsetenv(RDMADEV_SYSFS_ENV);
	TEST_CHECK_EQ(rdmadev_probe_pci("/nonexistent-sysfs", fn, RTE_DIM(fn)), -ENOENT);
	TEST_CHECK(rdmadev_pci_id_supported(0x1591));
	TEST_CHECK(rdmadev_pci_id_supported(0x189a));
	TEST_CHECK(!rdmadev_pci_id_supported(0x10fb));
	test_sysfs_remove(sysroot);
}

/* ---- CM_ID ---- */

struct server {
	struct rdmadev_cm_id *cm;
	struct rdmadev_cm_param local, remote;
	int timeout_ms;
	int rc;
};

static void *
server_run(void *arg)
{
	struct server *s = arg;

	s->rc = rdmadev_cm_accept(s->cm, &s->local, &s->remote, s->timeout_ms);
	return NULL;
}

/* A peer that connects at once but sends only 300 ms later (a busy machine), on port *arg. */
static void *
slow_peer_run(void *arg)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(*(uint16_t *)arg) };
	uint8_t m[48] = { 'R', 'D', 'M', 'C', 1, RDMADEV_MTU_2048, 0, 0,
			  0x00, 0x00, 0x42, 0x43,	/* QPN 0x4243, big endian */
			  0x00, 0x00, 0x00, 0x05 };	/* PSN 5 */
	uint8_t in[48];
	size_t got = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		return NULL;
	usleep(300 * 1000);
	if (write(fd, m, sizeof(m)) == (ssize_t)sizeof(m))
		while (got < sizeof(in) && (n = read(fd, in + got, sizeof(in) - got)) > 0)
			got += (size_t)n;
	close(fd);
	return NULL;
}

static void
test_cm(void)
{
	struct rdmadev_cm_param cli = { .qpn = 0x1234, .psn = 0xabcde, .mtu = RDMADEV_MTU_4096,
					.has_rdma = 1, .rkey = 0x101, .addr = 0x7f0012345000 };
	struct rdmadev_cm_param got;
	struct server srv = { .local = { .qpn = 7, .psn = 99, .mtu = RDMADEV_MTU_1024 },
			      .timeout_ms = 3000 };
	struct rdmadev_cm_id *ccm, *lone;
	pthread_t th;
	uint16_t port;
	int fd;

	memset(cli.gid, 0xab, sizeof(cli.gid));
	TEST_CHECK_EQ(rdmadev_cm_id_create(ctx, &srv.cm), 0);
	TEST_CHECK_EQ(rdmadev_cm_id_create(ctx, &ccm), 0);
	TEST_CHECK_EQ(td_count(dev, RESTRACK_CM_ID), 2);
	TEST_CHECK_EQ(rdmadev_cm_accept(srv.cm, &srv.local, &got, 100), -EINVAL);	/* idle */
	TEST_CHECK_EQ(rdmadev_cm_listen(srv.cm, "not-an-ip", 0), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cm_listen(srv.cm, "127.0.0.1", 0), 0);
	TEST_CHECK_EQ(rdmadev_cm_listen(srv.cm, "127.0.0.1", 0), -EINVAL);
	port = rdmadev_cm_port(srv.cm);
	TEST_CHECK(port != 0);
	dump(RESTRACK_CM_ID);
	{
		char line[128];

		snprintf(line, sizeof(line), "cm-idn %u state LISTEN src-port %u",
			 rdmadev_obj_id(&srv.cm->obj), port);
		TEST_CHECK(strstr(out, line) != NULL);
	}

	/* the exchange */
	TEST_CHECK_EQ(pthread_create(&th, NULL, server_run, &srv), 0);
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", port, &cli, &got, 3000), 0);
	pthread_join(th, NULL);
	TEST_CHECK_EQ(srv.rc, 0);
	TEST_CHECK_EQ(got.qpn, 7);
	TEST_CHECK_EQ(got.psn, 99);
	TEST_CHECK_EQ(got.mtu, RDMADEV_MTU_1024);
	TEST_CHECK_EQ(got.has_rdma, 0);
	TEST_CHECK_EQ(srv.remote.qpn, 0x1234);
	TEST_CHECK_EQ(srv.remote.psn, 0xabcde);
	TEST_CHECK_EQ(srv.remote.mtu, RDMADEV_MTU_4096);
	TEST_CHECK_EQ(srv.remote.rkey, 0x101);
	TEST_CHECK(srv.remote.addr == UINT64_C(0x7f0012345000));
	TEST_CHECK(srv.remote.gid[15] == 0xab);

	/*
	 * A peer that connected gets its exchange finished even when it sends after the
	 * accept's own bound (rdma-testpmd waits in 20 ms slices): cutting it short would
	 * leave the peer done and this side not.
	 */
	TEST_CHECK_EQ(pthread_create(&th, NULL, slow_peer_run, &port), 0);
	usleep(50 * 1000);	/* connected by now: the accept does not wait for that */
	TEST_CHECK_EQ(rdmadev_cm_accept(srv.cm, &srv.local, &got, 20), 0);
	pthread_join(th, NULL);
	TEST_CHECK_EQ(got.qpn, 0x4243);
	TEST_CHECK_EQ(got.psn, 5);
	TEST_CHECK_EQ(got.mtu, RDMADEV_MTU_2048);

	/* nobody connects: the accept times out */
	TEST_CHECK_EQ(rdmadev_cm_accept(srv.cm, &srv.local, &got, 100), -ETIMEDOUT);
	/* a connection that never sends: the connect side times out in the exchange */
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", port, &cli, &got, 200), -ETIMEDOUT);
	/* garbage from the peer */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	{
		struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
		char junk[48];

		memset(junk, 0x5a, sizeof(junk));
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		TEST_CHECK_EQ(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
		TEST_CHECK_EQ(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	}
	/* the listener still holds the timed-out connect's socket first: drain it */
	rdmadev_cm_accept(srv.cm, &srv.local, &got, 200);
	TEST_CHECK_EQ(rdmadev_cm_accept(srv.cm, &srv.local, &got, 1000), -EPROTO);
	close(fd);

	/* refused: a port nobody listens on */
	TEST_CHECK_EQ(rdmadev_cm_id_create(ctx, &lone), 0);
	TEST_CHECK_EQ(rdmadev_cm_listen(lone, NULL, 0), 0);
	port = rdmadev_cm_port(lone);
	TEST_CHECK_EQ(rdmadev_cm_id_destroy(lone), 0);
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", port, &cli, &got, 1000),
		      -ECONNREFUSED);
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", 0, &cli, &got, 1000), -EINVAL);
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", 1, &cli, &got, 0), -EINVAL);
	cli.qpn = 1u << 24;
	TEST_CHECK_EQ(rdmadev_cm_connect(ccm, "127.0.0.1", 1, &cli, &got, 100), -EINVAL);

	TEST_CHECK_EQ(rdmadev_cm_id_destroy(srv.cm), 0);
	TEST_CHECK_EQ(rdmadev_cm_id_destroy(ccm), 0);
	TEST_CHECK_EQ(td_count(dev, RESTRACK_CM_ID), 0);
}

int
main(void)
{
	if (test_eal_init("test_rdmadev_misc", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	read_comm();
	dev = (int16_t)td_dev_up("rdma_test0");
	if (dev < 0 || rdmadev_ctx_alloc(dev, &ctx) != 0) {
		printf("Bail out! cannot bring up rdma_test0\n");
		return 1;
	}
	TEST_RUN(test_dump);
	TEST_RUN(test_telemetry);
	TEST_RUN(test_telemetry_res_types);
	TEST_RUN(test_telemetry_full);
	TEST_RUN(test_dump_ird_ord);
	TEST_RUN(test_port);
	TEST_RUN(test_probe);
	TEST_RUN(test_cm);
	rdmadev_ctx_free(ctx);
	if (td_dev_down(dev) != 0)
		printf("# leaks at close\n");
	rte_eal_cleanup();
	return test_done();
}
