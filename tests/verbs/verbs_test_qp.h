/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_VERBS_TEST_QP_H
#define IRDMA_VERBS_TEST_QP_H

/*
 * QP set-up shared by test_verbs and bench_verbs: both connect RC QPs on one device the way a
 * verbs application does (ibv_modify_qp through INIT, RTR and RTS), so the benchmark measures
 * QPs configured as the tests check them.
 */

#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>

/*
 * Fill @p ia for a QP of @p type on @p send_cq and @p recv_cq: @p send_wr send and @p recv_wr
 * receive WRs, @p sge SGEs each way, no SRQ.
 */
static inline void
vt_qp_init_attr(struct ibv_qp_init_attr *ia, enum ibv_qp_type type, struct ibv_cq *send_cq,
		struct ibv_cq *recv_cq, uint32_t send_wr, uint32_t recv_wr, uint32_t sge)
{
	memset(ia, 0, sizeof(*ia));
	ia->send_cq = send_cq;
	ia->recv_cq = recv_cq;
	ia->qp_type = type;
	ia->cap.max_send_wr = send_wr;
	ia->cap.max_recv_wr = recv_wr;
	ia->cap.max_send_sge = sge;
	ia->cap.max_recv_sge = sge;
}

/*
 * Move RC QP @p qp from RESET to RTS, connected to QP @p dest_qpn at @p gid on port 1 (MTU
 * 1024, one READ or atomic in flight each way), the remote side allowed @p access; its receive
 * PSN @p rq_psn, send PSN @p sq_psn. Returns 0, or -1 when a transition fails.
 */
static inline int
vt_rc_connect(struct ibv_qp *qp, unsigned int access, uint32_t dest_qpn, const union ibv_gid *gid,
	      uint32_t rq_psn, uint32_t sq_psn)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = access;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS) != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest_qpn;
	a.rq_psn = rq_psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) != 0)
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = sq_psn;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC) != 0)
		return -1;
	return 0;
}

#endif /* IRDMA_VERBS_TEST_QP_H */
