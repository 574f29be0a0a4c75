/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The QP state machine: every (from, to) pair for RC and UD. Legal transitions are accepted
 * with exactly their required attributes and with all their optional ones; illegal ones are
 * refused; each missing required attribute and a disallowed extra one are refused; values
 * beyond the limits are refused; query reflects what was set. The expected table is written
 * here independently of the library's (the verbs facts, as the kernel's qp_state_table).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "test.h"
#include "test_driver.h"

#define A(x) RDMADEV_QP_##x
#define NS RDMADEV_QPS_MAX

enum { RC, UD };

struct expect {
	int legal;
	uint32_t req[2];
	uint32_t opt[2];
};

static struct expect tbl[NS][NS];

static void
expect_init(void)
{
	enum rdmadev_qp_state s;
	const uint32_t rc_rts_opt = A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) |
				    A(MIN_RNR_TIMER) | A(PATH_MIG_STATE);
	const uint32_t ud_rts_opt = A(CUR_STATE) | A(QKEY);

	memset(tbl, 0, sizeof(tbl));
	/* every state may go to RESET and to ERR */
	for (s = RDMADEV_QPS_RESET; s < NS; s++) {
		tbl[s][RDMADEV_QPS_RESET].legal = 1;
		tbl[s][RDMADEV_QPS_ERR].legal = 1;
	}
	tbl[RDMADEV_QPS_RESET][RDMADEV_QPS_INIT] = (struct expect){ 1,
		{ A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), A(PKEY_INDEX) | A(PORT) | A(QKEY) },
		{ 0, 0 } };
	tbl[RDMADEV_QPS_INIT][RDMADEV_QPS_INIT] = (struct expect){ 1, { 0, 0 },
		{ A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS), A(PKEY_INDEX) | A(PORT) | A(QKEY) } };
	tbl[RDMADEV_QPS_INIT][RDMADEV_QPS_RTR] = (struct expect){ 1,
		{ A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) |
		  A(MIN_RNR_TIMER), 0 },
		{ A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX), A(PKEY_INDEX) | A(QKEY) } };
	tbl[RDMADEV_QPS_RTR][RDMADEV_QPS_RTS] = (struct expect){ 1,
		{ A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC),
		  A(SQ_PSN) },
		{ rc_rts_opt, ud_rts_opt } };
	tbl[RDMADEV_QPS_RTS][RDMADEV_QPS_RTS] = (struct expect){ 1, { 0, 0 },
		{ rc_rts_opt, ud_rts_opt } };
	tbl[RDMADEV_QPS_RTS][RDMADEV_QPS_SQD] = (struct expect){ 1, { 0, 0 },
		{ A(EN_SQD_ASYNC_NOTIFY), A(EN_SQD_ASYNC_NOTIFY) } };
	tbl[RDMADEV_QPS_SQD][RDMADEV_QPS_RTS] = (struct expect){ 1, { 0, 0 },
		{ rc_rts_opt, ud_rts_opt } };
	tbl[RDMADEV_QPS_SQD][RDMADEV_QPS_SQD] = (struct expect){ 1, { 0, 0 },
		{ A(PORT) | A(AV) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) |
		  A(MAX_QP_RD_ATOMIC) | A(MAX_DEST_RD_ATOMIC) | A(ALT_PATH) | A(ACCESS_FLAGS) |
		  A(PKEY_INDEX) | A(MIN_RNR_TIMER) | A(PATH_MIG_STATE),
		  A(PKEY_INDEX) | A(QKEY) } };
	tbl[RDMADEV_QPS_SQE][RDMADEV_QPS_RTS] = (struct expect){ 1, { 0, 0 },
		{ 0, A(CUR_STATE) | A(QKEY) } };
}

/* Attribute values every check accepts. */
static struct rdmadev_qp_attr
good_attr(enum rdmadev_qp_state next, enum rdmadev_qp_state cur)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = next;
	a.cur_qp_state = cur;
	a.port_num = 1;
	a.pkey_index = 0;
	a.qkey = 0x11111111;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_READ;
	a.ah_attr.port_num = 1;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.hop_limit = 64;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 77;
	a.rq_psn = 100;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 200;
	a.max_rd_atomic = 16;
	a.en_sqd_async_notify = 1;
	return a;
}

static int
modify(struct rdmadev_qp *qp, enum rdmadev_qp_state next, uint32_t mask)
{
	struct rdmadev_qp_attr a = good_attr(next, rdmadev_qp_get_state(qp));

	return rdmadev_qp_modify(qp, &a, mask);
}

/* Bring a QP from anywhere to @p target along legal transitions. */
static int
walk_to(struct rdmadev_qp *qp, int t, enum rdmadev_qp_state target)
{
	static const enum rdmadev_qp_state path[] = {
		RDMADEV_QPS_INIT, RDMADEV_QPS_RTR, RDMADEV_QPS_RTS, RDMADEV_QPS_SQD,
	};
	enum rdmadev_qp_state cur = RDMADEV_QPS_RESET;
	unsigned int i;
	int rc;

	rc = modify(qp, RDMADEV_QPS_RESET, A(STATE));
	if (rc != 0 || target == RDMADEV_QPS_RESET)
		return rc;
	if (target == RDMADEV_QPS_ERR)
		return modify(qp, RDMADEV_QPS_ERR, A(STATE));
	for (i = 0; i < RTE_DIM(path); i++) {
		enum rdmadev_qp_state next = path[i];

		if (target == RDMADEV_QPS_SQE && next == RDMADEV_QPS_SQD)
			return rdmadev_qp_async_state(qp, RDMADEV_QPS_SQE);
		rc = modify(qp, next, A(STATE) | tbl[cur][next].req[t]);
		if (rc != 0 || next == target)
			return rc;
		cur = next;
	}
	return -1;
}

static void
run_table(int t)
{
	static const uint32_t all_bits[] = {
		A(CUR_STATE), A(EN_SQD_ASYNC_NOTIFY), A(ACCESS_FLAGS), A(PKEY_INDEX), A(PORT),
		A(QKEY), A(AV), A(PATH_MTU), A(TIMEOUT), A(RETRY_CNT), A(RNR_RETRY), A(RQ_PSN),
		A(MAX_QP_RD_ATOMIC), A(ALT_PATH), A(MIN_RNR_TIMER), A(SQ_PSN),
		A(MAX_DEST_RD_ATOMIC), A(PATH_MIG_STATE), A(CAP), A(DEST_QPN),
	};
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_qp_init_attr qpa = { .qp_type = t == RC ? RDMADEV_QPT_RC : RDMADEV_QPT_UD,
					     .cap = { .max_send_wr = 8, .max_recv_wr = 8 } };
	enum rdmadev_qp_state from, to;
	struct rdmadev_ctx *ctx;
	struct rdmadev_qp *qp;
	unsigned int b, legal = 0, checked = 0;

	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &qpa.pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &qpa.send_cq), 0);
	qpa.recv_cq = qpa.send_cq;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);

	for (from = RDMADEV_QPS_RESET; from < NS; from++) {
		if (t == RC && from == RDMADEV_QPS_SQE) {
			/* an RC QP never enters SQE */
			TEST_CHECK_EQ(rdmadev_qp_async_state(qp, RDMADEV_QPS_SQE), -EINVAL);
			continue;
		}
		for (to = RDMADEV_QPS_RESET; to < NS; to++) {
			const struct expect *e = &tbl[from][to];
			uint32_t req = e->req[t], opt = e->opt[t];

			TEST_CHECK_EQ(walk_to(qp, t, from), 0);
			TEST_CHECK_EQ(rdmadev_qp_get_state(qp), from);
			if (!e->legal) {
				TEST_CHECK_EQ(modify(qp, to, A(STATE) | req), -EINVAL);
				TEST_CHECK_EQ(rdmadev_qp_get_state(qp), from);
				checked++;
				continue;
			}
			legal++;
			/* each required attribute missing */
			for (b = 0; b < RTE_DIM(all_bits); b++) {
				if (!(req & all_bits[b]))
					continue;
				TEST_CHECK_EQ(modify(qp, to, A(STATE) | (req & ~all_bits[b])),
					      -EINVAL);
				TEST_CHECK_EQ(rdmadev_qp_get_state(qp), from);
				checked++;
			}
			/* each disallowed attribute added */
			for (b = 0; b < RTE_DIM(all_bits); b++) {
				if ((req | opt) & all_bits[b])
					continue;
				TEST_CHECK_EQ(modify(qp, to, A(STATE) | req | all_bits[b]),
					      -EINVAL);
				TEST_CHECK_EQ(rdmadev_qp_get_state(qp), from);
				checked++;
			}
			/* every optional attribute (alternate paths are not supported) */
			if ((opt & ~A(ALT_PATH)) != 0) {
				TEST_CHECK_EQ(modify(qp, to, A(STATE) | req |
						     (opt & ~A(ALT_PATH))), 0);
				TEST_CHECK_EQ(rdmadev_qp_get_state(qp), to);
				TEST_CHECK_EQ(walk_to(qp, t, from), 0);
			}
			if (opt & A(ALT_PATH)) {
				TEST_CHECK_EQ(modify(qp, to, A(STATE) | req | A(ALT_PATH)),
					      -EINVAL);
			}
			/* exactly the required mask */
			TEST_CHECK_EQ(modify(qp, to, A(STATE) | req), 0);
			TEST_CHECK_EQ(rdmadev_qp_get_state(qp), to);
			checked++;
		}
	}
	printf("# %s: %u legal transitions, %u checks\n", t == RC ? "RC" : "UD", legal,
	       checked);
	TEST_CHECK_EQ(legal, t == RC ? 20 : 23);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(qpa.send_cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(qpa.pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(td_dev_down(id), 0);
}

static void
test_rc_table(void)
{
	run_table(RC);
}

static void
test_ud_table(void)
{
	run_table(UD);
}

/* Values beyond the limits, CUR_STATE, logs, query, asynchronous states. */
static void
test_values_and_query(void)
{
	int16_t id = (int16_t)td_dev_up("rdma_test0");
	struct rdmadev_cq_attr cqa = { .cqe = 16 };
	struct rdmadev_qp_init_attr qpa = { .qp_type = RDMADEV_QPT_RC,
					     .cap = { .max_send_wr = 32, .max_recv_wr = 64,
						      .max_send_sge = 3, .max_inline_data = 101 } };
	const uint32_t init = A(STATE) | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS);
	const uint32_t rtr = A(STATE) | A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) |
			     A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER);
	const uint32_t rts = A(STATE) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) |
			     A(MAX_QP_RD_ATOMIC);
	struct rdmadev_qp_init_attr got_init;
	struct rdmadev_qp_attr a, got;
	struct rdmadev_ctx *ctx;
	struct rdmadev_qp *qp;
	char *log;

	TEST_CHECK_EQ(rdmadev_ctx_alloc(id, &ctx), 0);
	TEST_CHECK_EQ(rdmadev_pd_alloc(ctx, &qpa.pd), 0);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &cqa, &qpa.send_cq), 0);
	qpa.recv_cq = qpa.send_cq;
	TEST_CHECK_EQ(rdmadev_qp_create(&qpa, &qp), 0);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, NULL, A(STATE)), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_modify(NULL, &a, A(STATE)), -EINVAL);
	a = good_attr(RDMADEV_QPS_INIT, RDMADEV_QPS_RESET);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init | RTE_BIT32(25)), -EINVAL);
	a.qp_state = 9;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), -EINVAL);

	td_log_start();
	a = good_attr(RDMADEV_QPS_RTS, RDMADEV_QPS_RESET);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, rts), -EINVAL);
	a = good_attr(RDMADEV_QPS_INIT, RDMADEV_QPS_RESET);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init & ~A(PORT)), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init | A(QKEY)), -EINVAL);
	log = td_log_stop();
	TEST_CHECK(strstr(log, "RC QP 3: illegal transition RESET -> RTS") != NULL);
	TEST_CHECK(strstr(log, "RC QP 3 RESET -> INIT: required attribute PORT missing") != NULL);
	TEST_CHECK(strstr(log, "RC QP 3 RESET -> INIT: attribute QKEY is not allowed") != NULL);
	free(log);

	/* values */
	a.port_num = 2;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), -EINVAL);
	a.port_num = 1;
	a.pkey_index = 1;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), -EINVAL);
	a.pkey_index = 0;
	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_ATOMIC;	/* gen2 */
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), -EINVAL);
	a.qp_access_flags = RDMADEV_ACCESS_MW_BIND;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), -EINVAL);
	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_WRITE;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, init), 0);

	/* The good attributes of the move @p cur -> @p next but @p field = @p bad: refused. */
#define MODIFY_REFUSED(next, cur, mask, field, bad)					\
	do {										\
		a = good_attr(RDMADEV_QPS_##next, RDMADEV_QPS_##cur);			\
		a.field = bad;								\
		TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, mask), -EINVAL);		\
	} while (0)
	MODIFY_REFUSED(RTR, INIT, rtr, path_mtu, 6);
	MODIFY_REFUSED(RTR, INIT, rtr, rq_psn, 1u << 24);
	MODIFY_REFUSED(RTR, INIT, rtr, dest_qp_num, 1u << 24);
	MODIFY_REFUSED(RTR, INIT, rtr, max_dest_rd_atomic, 128);	/* IRD 127 */
	MODIFY_REFUSED(RTR, INIT, rtr, min_rnr_timer, 32);
	MODIFY_REFUSED(RTR, INIT, rtr, ah_attr.vlan_id, 4096);
	a = good_attr(RDMADEV_QPS_RTR, RDMADEV_QPS_INIT);
	a.dest_qp_num = 0x123456;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, rtr), 0);

	MODIFY_REFUSED(RTS, RTR, rts, timeout, 32);
	MODIFY_REFUSED(RTS, RTR, rts, retry_cnt, 8);
	MODIFY_REFUSED(RTS, RTR, rts, rnr_retry, 8);
	MODIFY_REFUSED(RTS, RTR, rts, sq_psn, 1u << 24);
#undef MODIFY_REFUSED
	a = good_attr(RDMADEV_QPS_RTS, RDMADEV_QPS_INIT);	/* wrong CUR_STATE */
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, rts | A(CUR_STATE)), -EINVAL);
	a = good_attr(RDMADEV_QPS_RTS, RDMADEV_QPS_RTR);
	a.sq_psn = 0xabcdef;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, rts | A(CUR_STATE)), 0);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RTS);

	/* attribute change in place (no STATE bit) */
	a = good_attr(RDMADEV_QPS_RTS, RDMADEV_QPS_RTS);
	a.min_rnr_timer = 3;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, A(MIN_RNR_TIMER)), 0);
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, A(SQ_PSN)), -EINVAL);

	TEST_CHECK_EQ(rdmadev_qp_query(qp, NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_query(qp, &got, &got_init), 0);
	TEST_CHECK_EQ(got.qp_state, RDMADEV_QPS_RTS);
	TEST_CHECK_EQ(got.dest_qp_num, 0x123456);
	TEST_CHECK_EQ(got.sq_psn, 0xabcdef);
	TEST_CHECK_EQ(got.rq_psn, 100);
	TEST_CHECK_EQ(got.path_mtu, RDMADEV_MTU_1024);
	TEST_CHECK_EQ(got.qp_access_flags, RDMADEV_ACCESS_REMOTE_WRITE);
	TEST_CHECK_EQ(got.min_rnr_timer, 3);
	TEST_CHECK_EQ(got.port_num, 1);
	TEST_CHECK_EQ(got.cap.max_send_wr, 32);
	TEST_CHECK_EQ(got.cap.max_inline_data, 101);
	TEST_CHECK_EQ(got_init.qp_type, RDMADEV_QPT_RC);
	TEST_CHECK(got_init.send_cq == qpa.send_cq);

	/* the device moves the QP to ERR: only RESET and ERR are legal now */
	TEST_CHECK_EQ(rdmadev_qp_async_state(qp, RDMADEV_QPS_RTR), -EINVAL);
	TEST_CHECK_EQ(rdmadev_qp_async_state(qp, RDMADEV_QPS_ERR), 0);
	TEST_CHECK_EQ(modify(qp, RDMADEV_QPS_RTS, A(STATE)), -EINVAL);
	TEST_CHECK_EQ(modify(qp, RDMADEV_QPS_RESET, A(STATE)), 0);
	TEST_CHECK_EQ(rdmadev_qp_query(qp, &got, NULL), 0);
	TEST_CHECK_EQ(got.qp_state, RDMADEV_QPS_RESET);
	TEST_CHECK_EQ(got.dest_qp_num, 0);	/* RESET forgets */

	TEST_CHECK(strcmp(rdmadev_qp_state_name(RDMADEV_QPS_SQE), "SQE") == 0);
	TEST_CHECK(strcmp(rdmadev_qp_attr_name(A(MAX_DEST_RD_ATOMIC)), "MAX_DEST_RD_ATOMIC") == 0);
	TEST_CHECK(strcmp(rdmadev_qp_attr_name(3), "UNKNOWN") == 0);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	TEST_CHECK_EQ(rdmadev_cq_destroy(qpa.send_cq), 0);
	TEST_CHECK_EQ(rdmadev_pd_free(qpa.pd), 0);
	TEST_CHECK_EQ(rdmadev_ctx_free(ctx), 0);
	TEST_CHECK_EQ(td_dev_down(id), 0);
}

int
main(void)
{
	if (test_eal_init("test_rdmadev_qp", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_CRIT);
	expect_init();
	TEST_RUN(test_rc_table);
	TEST_RUN(test_ud_table);
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_NOTICE);
	TEST_RUN(test_values_and_query);
	rte_eal_cleanup();
	return test_done();
}
