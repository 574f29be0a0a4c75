/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef EXAMPLE_QP_H
#define EXAMPLE_QP_H

/*
 * What every example shares (copy this file along with an example): a CHECK() that prints
 * the failing call and its errno; the start and the end every example makes (EAL, a device
 * opened, configured and started, a context and a PD on it); a QP and an MR made from the
 * few attributes an example chooses; and the verbs walk of an RC QP from RESET to RTS.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>

#include <rdmadev.h>

/* Run @call; on a negative errno, print it and jump to the caller's "out" label. */
#define CHECK(call) do {						\
	int rc_ = (call);						\
	if (rc_ < 0) {							\
		fprintf(stderr, "%s: %s: %s\n", EXAMPLE_NAME, #call,	\
			strerror(-rc_));				\
		goto out;						\
	}								\
} while (0)

/* rte_eal_init(), named on failure: the count of arguments EAL took (ours follow), or < 0. */
static inline int
example_eal_init(int argc, char **argv)
{
	int n = rte_eal_init(argc, argv);

	if (n < 0)
		fprintf(stderr, "%s: EAL init failed\n", EXAMPLE_NAME);
	return n;
}

/*
 * A device: open (probe from @p devargs: the model needs no hardware), configure (one
 * completion vector), start; then a context (the application's identity: pid, comm, the
 * owner of every object) and a PD on it. 0, or -1 with the failing call printed; what was
 * made is in *dev, *ctx, *pd either way, for example_dev_close().
 */
static inline int
example_dev_open(const char *devargs, int16_t *dev, struct rdmadev_ctx **ctx,
		 struct rdmadev_pd **pd)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };

	CHECK(*dev = (int16_t)rdmadev_open(devargs));
	CHECK(rdmadev_configure(*dev, &conf));
	CHECK(rdmadev_start(*dev));
	CHECK(rdmadev_ctx_alloc(*dev, ctx));
	CHECK(rdmadev_pd_alloc(*ctx, pd));
	return 0;
out:
	return -1;
}

/*
 * The end of example_dev_open(), the caller's other objects already destroyed: the PD and
 * the context freed, the device stopped and closed (rdmadev_close() fails when an object
 * is left behind). 0, or 1 when a step failed; NULL and -1 are skipped.
 */
static inline int
example_dev_close(int16_t dev, struct rdmadev_ctx *ctx, struct rdmadev_pd *pd)
{
	int ret = 0;

	if (pd != NULL && rdmadev_pd_free(pd) < 0)
		ret = 1;
	if (ctx != NULL && rdmadev_ctx_free(ctx) < 0)
		ret = 1;
	if (dev >= 0) {
		rdmadev_stop(dev);
		if (rdmadev_close(dev) < 0)
			ret = 1;
	}
	return ret;
}

/* A QP of @p type on @p pd, both queues completing on @p cq, @p depth WRs of one SGE each. */
static inline int
example_qp_create(struct rdmadev_pd *pd, struct rdmadev_cq *cq, enum rdmadev_qp_type type,
		  uint32_t depth, struct rdmadev_qp **qp)
{
	struct rdmadev_qp_init_attr qa = { .pd = pd, .send_cq = cq, .recv_cq = cq,
					   .qp_type = type };

	qa.cap.max_send_wr = depth;
	qa.cap.max_recv_wr = depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	return rdmadev_qp_create(&qa, qp);
}

/*
 * Register @p len bytes at @p buf, like ibv_reg_mr: EAL memory, which the device reaches at
 * IOVA = VA; @p access RDMADEV_ACCESS_* bits.
 */
static inline int
example_mr_reg(struct rdmadev_pd *pd, void *buf, uint64_t len, uint32_t access,
	       struct rdmadev_mr **mr)
{
	struct rdmadev_mr_attr ma = { .addr = buf, .length = len,
				      .iova = (uint64_t)(uintptr_t)buf, .access = access };

	return rdmadev_mr_reg(pd, &ma, mr);
}

/*
 * The role on our command line after the options: "server <devargs> ..." is 1, "client
 * <devargs> <peer> ..." is 0, anything else -1.
 */
static inline int
example_role(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[0], "server") == 0)
		return 1;
	if (argc >= 3 && strcmp(argv[0], "client") == 0)
		return 0;
	return -1;
}

/* CLOCK_MONOTONIC in ns: the "now" every rdma_cm call that drives a timer is given. */
static inline uint64_t
example_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* RESET -> INIT, remote reads and writes allowed: receives may be posted from here on. */
static inline int
example_qp_init(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1 };

	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_READ;
	return rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				 RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS);
}

/*
 * INIT -> RTR -> RTS towards remote QP @p dest at address @p av: the peer starts sending at
 * @p rq_psn, this QP at @p sq_psn, local ACK timeout 4.096 us << @p timeout (the other
 * attributes ibv_rc_pingpong uses).
 */
static inline int
example_qp_connect_timeout(struct rdmadev_qp *qp, uint32_t dest,
			   const struct rdmadev_ah_attr *av, enum rdmadev_mtu mtu,
			   uint32_t rq_psn, uint32_t sq_psn, uint8_t timeout)
{
	struct rdmadev_qp_attr a = { .qp_state = RDMADEV_QPS_RTR, .port_num = 1 };
	int rc;

	a.ah_attr = *av;
	a.path_mtu = mtu;
	a.dest_qp_num = dest;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	rc = rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
			       RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
			       RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER);
	if (rc < 0)
		return rc;
	a.qp_state = RDMADEV_QPS_RTS;
	a.sq_psn = sq_psn;
	a.timeout = timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;	/* 7: retry RNR forever */
	a.max_rd_atomic = 1;
	return rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN |
				 RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
				 RDMADEV_QP_RNR_RETRY | RDMADEV_QP_MAX_QP_RD_ATOMIC);
}

/* example_qp_connect_timeout() with ibv_rc_pingpong's timeout: 4.096 us << 14, about 67 ms. */
static inline int
example_qp_connect(struct rdmadev_qp *qp, uint32_t dest, const struct rdmadev_ah_attr *av,
		   enum rdmadev_mtu mtu, uint32_t rq_psn, uint32_t sq_psn)
{
	return example_qp_connect_timeout(qp, dest, av, mtu, rq_psn, sq_psn, 14);
}

#endif /* EXAMPLE_QP_H */
