/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef EXAMPLE_QP_H
#define EXAMPLE_QP_H

/*
 * What every example shares: a CHECK() that prints the failing call and its errno, and the
 * verbs walk of an RC QP from RESET to RTS (copy this file along with an example).
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
