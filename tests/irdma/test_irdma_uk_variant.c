/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The post_send and poll variants a QP and a CQ take (the diagrams at the top of
 * irdma_uk_post.c and irdma_uk_poll.c), on QPs and CQs in test memory: every generation, QP
 * type, hardware state and send CQ gives the variant the diagram names (and the template and
 * receive gates, sq_open and rq_open, their states); a state change chooses again, and the entry points (irdma_uk_post_send, irdma_uk_poll_cq) do what the
 * variant of the moment does. A CQ with a service hook, a completion counter or a resize's
 * old ring takes the general variant; once poll drains the old ring it is back on the fast
 * one.
 */

#include <errno.h>
#include <stdlib.h>

#include "test.h"
#include "irdma_srq.h"
#include "uk_fixture.h"

static struct irdma_hw hw;

/* The diagram of irdma_uk_post.c, written out independently of irdma_uk_qp_select(). */
static irdma_uk_post_send_fn
expected_post(unsigned int gen, uint8_t type, uint8_t state, bool scq)
{
	if (state == IRDMA_QP_HW_RTS || state == IRDMA_QP_HW_SQD)
		return gen == 2 && type == IRDMA_QP_TYPE_ROCE_RC ? irdma_uk_post_rc :
								    irdma_uk_post_any;
	if (state == IRDMA_QP_HW_ERROR && scq)
		return irdma_uk_post_flushed;
	return irdma_uk_post_refused;
}

/* A service hook (never run here: no poll while it is set). */
static void
hook(struct irdma_hw *h)
{
	RTE_SET_USED(h);
	abort();
}

static const char *
post_name(irdma_uk_post_send_fn f)
{
	return f == irdma_uk_post_rc ? "rc" : f == irdma_uk_post_any ? "any" :
	       f == irdma_uk_post_flushed ? "flushed" : f == irdma_uk_post_refused ? "refused" :
	       "unknown";
}

static void
test_qp_variants(void)
{
	static const uint8_t states[] = {
		IRDMA_QP_HW_INVALID, IRDMA_QP_HW_IDLE, IRDMA_QP_HW_RTS, IRDMA_QP_HW_SQD,
		IRDMA_QP_HW_RTR, IRDMA_QP_HW_TERMINATE, IRDMA_QP_HW_ERROR, IRDMA_QP_HW_FATAL,
	};
	static const uint8_t types[] = { IRDMA_QP_TYPE_ROCE_RC, IRDMA_QP_TYPE_ROCE_UD };
	unsigned int gen, t, s, with_cq, seen_rc = 0, seen_any = 0, seen_fl = 0, seen_ref = 0;
	struct irdma_cq cq;

	ukf_cq_init(&cq, &hw, 8);
	for (gen = 2; gen <= 3; gen++)
		for (t = 0; t < RTE_DIM(types); t++)
			for (with_cq = 0; with_cq < 2; with_cq++)
				for (s = 0; s < RTE_DIM(states); s++) {
					struct ukf_qp_conf conf = ukf_qp_default;
					irdma_uk_post_send_fn want, got;
					struct irdma_qp qp;

					conf.type = types[t];
					ukf_qp_init(&qp, &hw, &conf);
					qp.gen = (uint8_t)gen;
					qp.scq = with_cq ? &cq : NULL;
					irdma_qp_hw_state_set(&qp, states[s]);
					want = expected_post(gen, types[t], states[s], with_cq);
					got = qp.post_send;
					if (got != want)
						printf("# gen %u type %u scq %u state %u: %s, want %s\n",
						       gen, types[t], with_cq, states[s],
						       post_name(got), post_name(want));
					TEST_CHECK(got == want);
					/* templates: RTS / SQD; post_recv: INIT (IDLE) to SQD */
					TEST_CHECK_EQ(qp.sq_open,
						      states[s] == IRDMA_QP_HW_RTS ||
						      states[s] == IRDMA_QP_HW_SQD);
					TEST_CHECK_EQ(qp.rq_open,
						      states[s] == IRDMA_QP_HW_IDLE ||
						      states[s] == IRDMA_QP_HW_RTR ||
						      states[s] == IRDMA_QP_HW_RTS ||
						      states[s] == IRDMA_QP_HW_SQD);
					seen_rc += want == irdma_uk_post_rc;
					seen_any += want == irdma_uk_post_any;
					seen_fl += want == irdma_uk_post_flushed;
					seen_ref += want == irdma_uk_post_refused;
					ukf_qp_fini(&qp);
				}
	/* every variant of the diagram was met: 2 states x 2 scq; 3 kinds x 2 x 2; ... */
	TEST_CHECK_EQ(seen_rc, 4);
	TEST_CHECK_EQ(seen_any, 12);
	TEST_CHECK_EQ(seen_fl, 4);
	TEST_CHECK_EQ(seen_ref, 2 * 2 * 2 * 8 - 20);
	ukf_cq_fini(&cq);
}

/* A state change chooses again, and irdma_uk_post_send follows the variant of the moment. */
static void
test_qp_state_changes(void)
{
	struct rdmadev_sge sge = { .addr = 0x10000, .length = 64, .lkey = 0x100 };
	struct rdmadev_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = RDMADEV_WR_RDMA_WRITE,
		.flags = RDMADEV_SEND_SIGNALED, .rdma = { .remote_addr = 0x2000, .rkey = 0x55 },
	};
	struct irdma_qp qp;
	int err = 0;

	ukf_qp_init(&qp, &hw, &ukf_qp_default);
	TEST_CHECK(qp.post_send == irdma_uk_post_rc);
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK_EQ(ukf_nb_writes, 1);	/* the doorbell */
	TEST_CHECK_EQ(qp.sq.head, 1);

	irdma_qp_hw_state_set(&qp, IRDMA_QP_HW_IDLE);
	TEST_CHECK(qp.post_send == irdma_uk_post_refused);
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	TEST_CHECK_EQ(qp.sq.head, 1);

	irdma_qp_hw_state_set(&qp, IRDMA_QP_HW_FATAL);
	TEST_CHECK(qp.post_send == irdma_uk_post_refused);
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 1, &err), 0);
	TEST_CHECK_EQ(err, -EIO);
	/* an empty burst is refused without an error */
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 0, &err), 0);
	TEST_CHECK_EQ(err, 0);

	irdma_qp_hw_state_set(&qp, IRDMA_QP_HW_SQD);
	TEST_CHECK(qp.post_send == irdma_uk_post_rc);
	ukf_regs_clear();
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	TEST_CHECK_EQ(ukf_nb_writes, 1);
	TEST_CHECK_EQ(qp.sq.head, 2);

	/* a QP that receives from an SRQ takes no post_recv, whatever its state */
	{
		struct rdmadev_recv_wr rwr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
		struct irdma_srq srq = { .size = 16 };

		TEST_CHECK_EQ(qp.rq_open, 1);
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 1);
		TEST_CHECK_EQ(err, 0);
		qp.srq = &srq;
		irdma_uk_qp_select(&qp);
		TEST_CHECK_EQ(qp.rq_open, 0);
		TEST_CHECK_EQ(irdma_uk_post_recv(&qp, &rwr, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		qp.srq = NULL;
		irdma_uk_qp_select(&qp);
		TEST_CHECK_EQ(qp.rq_open, 1);
	}

	/* a generation or type change needs irdma_uk_qp_select(); so does the control path */
	qp.gen = 3;
	irdma_uk_qp_select(&qp);
	TEST_CHECK(qp.post_send == irdma_uk_post_any);
	TEST_CHECK_EQ(irdma_uk_post_send(&qp, &wr, 1, &err), 1);
	TEST_CHECK_EQ(qp.sq.head, 3);
	ukf_qp_fini(&qp);
}

static void
test_cq_variants(void)
{
	uint64_t cntr = 0;
	struct rdmadev_wc wc[4];
	struct irdma_cq cq;
	uint8_t *old;

	ukf_cq_init(&cq, &hw, 8);
	TEST_CHECK(cq.poll == irdma_uk_poll_fast);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);

	cq.comp_cntr = &cntr;
	irdma_uk_cq_select(&cq);
	TEST_CHECK(cq.poll == irdma_uk_poll_any);
	cq.comp_cntr = NULL;
	irdma_uk_cq_select(&cq);
	TEST_CHECK(cq.poll == irdma_uk_poll_fast);

	cq.service = hook;
	irdma_uk_cq_select(&cq);
	TEST_CHECK(cq.poll == irdma_uk_poll_any);
	cq.service = NULL;
	irdma_uk_cq_select(&cq);

	/*
	 * A resize's old ring (nothing valid left in it): the general variant until poll
	 * drains it, then the fast one again, chosen by poll itself.
	 */
	old = calloc(4, 32);
	TEST_CHECK(old != NULL);
	cq.old = (struct irdma_cq_ring){ .base = old, .size = 4, .head = 0, .polarity = 1 };
	irdma_uk_cq_select(&cq);
	TEST_CHECK(cq.poll == irdma_uk_poll_any);
	TEST_CHECK_EQ(irdma_uk_poll_cq(&cq, wc, 4), 0);
	TEST_CHECK(cq.old.base == NULL);
	TEST_CHECK(cq.poll == irdma_uk_poll_fast);
	free(old);
	ukf_cq_fini(&cq);
}

int
main(void)
{
	ukf_hw_init(&hw);
	TEST_RUN(test_qp_variants);
	TEST_RUN(test_qp_state_changes);
	TEST_RUN(test_cq_variants);
	return test_done();
}
