/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, fast path: the context ops the inline ibv_post_send, ibv_post_recv,
 * ibv_post_srq_recv, ibv_poll_cq and ibv_req_notify_cq call. WR lists become rdmadev bursts
 * on the stack; completions are polled into the application's ibv_wc array (48 bytes, like
 * struct rdmadev_wc) and rewritten in place. No lock, no allocation, no system call.
 */

#include <errno.h>
#include <string.h>

#include "verbs_priv.h"

/* WRs converted per rdmadev burst. */
#define IV_BURST 16

/* ibv_sge and rdmadev_sge are the same 16 bytes: SGE lists pass through. */
_Static_assert(sizeof(struct ibv_sge) == sizeof(struct rdmadev_sge), "SGE layout");
_Static_assert(offsetof(struct ibv_sge, length) == offsetof(struct rdmadev_sge, length),
	       "SGE layout");
_Static_assert(offsetof(struct ibv_sge, lkey) == offsetof(struct rdmadev_sge, lkey),
	       "SGE layout");
_Static_assert(sizeof(struct ibv_wc) == sizeof(struct rdmadev_wc), "WC size");

/* ibv_wr_opcode -> rdmadev_wr_opcode; 0xff: not supported. */
static const uint8_t iv_wr_op[16] = {
	[IBV_WR_RDMA_WRITE] = RDMADEV_WR_RDMA_WRITE,
	[IBV_WR_RDMA_WRITE_WITH_IMM] = RDMADEV_WR_RDMA_WRITE_IMM,
	[IBV_WR_SEND] = RDMADEV_WR_SEND,
	[IBV_WR_SEND_WITH_IMM] = RDMADEV_WR_SEND_IMM,
	[IBV_WR_RDMA_READ] = RDMADEV_WR_RDMA_READ,
	[IBV_WR_ATOMIC_CMP_AND_SWP] = RDMADEV_WR_ATOMIC_CS,
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = RDMADEV_WR_ATOMIC_FA,
	[IBV_WR_LOCAL_INV] = RDMADEV_WR_LOCAL_INV,
	[IBV_WR_BIND_MW] = 0xff,
	[IBV_WR_SEND_WITH_INV] = RDMADEV_WR_SEND_INV,
	[IBV_WR_TSO] = 0xff,
	[IBV_WR_DRIVER1] = 0xff,
	[12] = 0xff,
	[13] = 0xff,
	[14] = 0xff,
	[IBV_WR_ATOMIC_WRITE] = 0xff,
};

/* rdmadev_wc_opcode -> ibv_wc_opcode (bit 7: receive). */
static const uint8_t iv_wc_op[256] = {
	[RDMADEV_WC_SEND] = IBV_WC_SEND,
	[RDMADEV_WC_RDMA_WRITE] = IBV_WC_RDMA_WRITE,
	[RDMADEV_WC_RDMA_READ] = IBV_WC_RDMA_READ,
	[RDMADEV_WC_COMP_SWAP] = IBV_WC_COMP_SWAP,
	[RDMADEV_WC_FETCH_ADD] = IBV_WC_FETCH_ADD,
	[RDMADEV_WC_BIND_MW] = IBV_WC_BIND_MW,
	[RDMADEV_WC_LOCAL_INV] = IBV_WC_LOCAL_INV,
	[RDMADEV_WC_REG_MR] = IBV_WC_SEND,
	[RDMADEV_WC_NOP] = IBV_WC_SEND,
	[RDMADEV_WC_RECV] = IBV_WC_RECV,
	[RDMADEV_WC_RECV_RDMA_IMM] = IBV_WC_RECV_RDMA_WITH_IMM,
};

/* Log a WR rdmadev has no opcode for (out of line: the fast path only branches). */
static __rte_noinline int
iv_bad_wr(const struct iv_qp *qp, const struct ibv_send_wr *in)
{
	IV_LOG(ERR, "QP %u: opcode %u or %d SGEs not supported", qp->qp.qp_num,
	       (unsigned int)in->opcode, in->num_sge);
	return -EINVAL;
}

/* Drop INLINE from a WR with more data than the QP has inline room for (see iv_qp). */
static __rte_noinline void
iv_inline_fixup(const struct iv_qp *qp, const struct ibv_send_wr *in,
		struct rdmadev_send_wr *w)
{
	uint32_t len = 0;
	int i;

	for (i = 0; i < in->num_sge; i++)
		len += in->sg_list[i].length;
	if (len > qp->max_inline)
		w->flags &= (uint8_t)~RDMADEV_SEND_INLINE;
}

/* Convert one send WR; -EINVAL (logged) for what rdmadev has no opcode for. */
static inline int
iv_send_wr(const struct iv_qp *qp, const struct ibv_send_wr *in, struct rdmadev_send_wr *w)
{
	unsigned int op = (unsigned int)in->opcode;
	unsigned int f = in->send_flags;
	uint8_t rop;

	if (unlikely(op >= RTE_DIM(iv_wr_op) || (unsigned int)in->num_sge > UINT16_MAX))
		return iv_bad_wr(qp, in);
	rop = iv_wr_op[op];
	if (unlikely(rop == 0xff))
		return iv_bad_wr(qp, in);
	w->wr_id = in->wr_id;
	w->sg_list = (const struct rdmadev_sge *)(const void *)in->sg_list;
	w->num_sge = (uint16_t)in->num_sge;
	w->opcode = rop;
	/* verbs: FENCE 1, SIGNALED 2, SOLICITED 4, INLINE 8; rdmadev: SIGNALED 1, FENCE 2. */
	w->flags = (uint8_t)(((f & IBV_SEND_SIGNALED) >> 1) | ((f & IBV_SEND_FENCE) << 1) |
			     (f & (IBV_SEND_SOLICITED | IBV_SEND_INLINE)));
	if (unlikely(f & IBV_SEND_INLINE))
		iv_inline_fixup(qp, in, w);
	/* imm_data and invalidate_rkey share their word in both structs. */
	w->imm_data = in->imm_data;
	if (unlikely(qp->qp.qp_type == IBV_QPT_UD)) {
		w->ud.ah = container_of(in->wr.ud.ah, struct iv_ah, ah)->r;
		w->ud.remote_qpn = in->wr.ud.remote_qpn;
		/* A Q_Key with the high bit set means the QP's own (IBA 10.2.5). */
		w->ud.remote_qkey = (in->wr.ud.remote_qkey & 0x80000000u) ? qp->qkey :
				    in->wr.ud.remote_qkey;
	} else if (unlikely(rop == RDMADEV_WR_ATOMIC_CS || rop == RDMADEV_WR_ATOMIC_FA)) {
		w->atomic.remote_addr = in->wr.atomic.remote_addr;
		w->atomic.compare_add = in->wr.atomic.compare_add;
		w->atomic.swap = in->wr.atomic.swap;
		w->atomic.rkey = in->wr.atomic.rkey;
	} else {
		w->rdma.remote_addr = in->wr.rdma.remote_addr;
		w->rdma.rkey = in->wr.rdma.rkey;
	}
	return 0;
}

/* A list of WRs: converted and posted IV_BURST at a time. */
static __rte_noinline int
iv_post_send_list(const struct iv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	struct rdmadev_send_wr w[IV_BURST];
	struct ibv_send_wr *head;
	uint16_t n, posted;
	int err = 0, cerr;

	while (wr != NULL) {
		head = wr;
		cerr = 0;
		for (n = 0; wr != NULL && n < IV_BURST; wr = wr->next, n++) {
			cerr = iv_send_wr(qp, wr, &w[n]);
			if (unlikely(cerr != 0))
				break;
		}
		posted = n > 0 ? rdmadev_post_send(qp->r, w, n, &err) : 0;
		if (unlikely(posted < n || cerr != 0)) {
			uint16_t i;

			for (i = 0; i < posted; i++)
				head = head->next;
			*bad_wr = head;
			return posted < n ? -err : -cerr;
		}
	}
	return 0;
}

static int
iv_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	const struct iv_qp *qp = container_of(ibqp, struct iv_qp, qp);
	struct rdmadev_send_wr w;
	int err;

	/* One WR (the common case): no list walk, one WR on the stack. */
	if (likely(wr != NULL && wr->next == NULL)) {
		err = iv_send_wr(qp, wr, &w);
		if (likely(err == 0) && likely(rdmadev_post_send(qp->r, &w, 1, &err) == 1))
			return 0;
		*bad_wr = wr;
		return -err;
	}
	return iv_post_send_list(qp, wr, bad_wr);
}

static int
iv_post_recv_list(struct rdmadev_qp *rqp, struct rdmadev_srq *srq, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	struct rdmadev_recv_wr w[IV_BURST];
	struct ibv_recv_wr *head;
	uint16_t n, posted;
	int err = 0;

	while (wr != NULL) {
		head = wr;
		for (n = 0; wr != NULL && n < IV_BURST; wr = wr->next, n++) {
			w[n].wr_id = wr->wr_id;
			w[n].sg_list = (const struct rdmadev_sge *)(const void *)wr->sg_list;
			w[n].num_sge = (uint16_t)wr->num_sge;
			w[n].reserved[0] = 0;
			w[n].reserved[1] = 0;
			w[n].reserved[2] = 0;
		}
		posted = rqp != NULL ? rdmadev_post_recv(rqp, w, n, &err) :
			 rdmadev_post_srq_recv(srq, w, n, &err);
		if (unlikely(posted < n)) {
			uint16_t i;

			for (i = 0; i < posted; i++)
				head = head->next;
			*bad_wr = head;
			return -err;
		}
	}
	return 0;
}

static int
iv_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return iv_post_recv_list(container_of(ibqp, struct iv_qp, qp)->r, NULL, wr, bad_wr);
}

static int
iv_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return iv_post_recv_list(NULL, container_of(ibsrq, struct iv_srq, srq)->r, wr, bad_wr);
}

static int
iv_poll_cq(struct ibv_cq *ibcq, int num_entries, struct ibv_wc *wc)
{
	struct rdmadev_cq *cq = container_of(ibcq, struct iv_cq, cq)->r;
	uint16_t n, i;

	if (unlikely(num_entries <= 0))
		return 0;
	/* Poll into the caller's array (same size), then rewrite each entry in place. */
	n = rdmadev_poll_cq(cq, (struct rdmadev_wc *)(void *)wc,
			    (uint16_t)RTE_MIN(num_entries, UINT16_MAX));
	for (i = 0; i < n; i++) {
		struct rdmadev_wc r;
		struct ibv_wc *o = &wc[i];
		unsigned int fl;

		memcpy(&r, o, sizeof(r));
		fl = r.wc_flags;
		o->status = (enum ibv_wc_status)r.status;
		o->opcode = (enum ibv_wc_opcode)iv_wc_op[r.opcode];
		o->vendor_err = r.vendor_err;
		o->byte_len = r.byte_len;
		o->imm_data = r.imm_data;
		o->qp_num = r.qp_num;
		o->src_qp = r.src_qp;
		/* rdmadev: GRH 1, IMM 2, INV 4, CSUM 32; verbs: GRH 1, IMM 2, CSUM 4, INV 8. */
		o->wc_flags = (fl & (RDMADEV_WC_GRH | RDMADEV_WC_WITH_IMM)) |
			      ((fl & RDMADEV_WC_WITH_INV) << 1) |
			      ((fl & RDMADEV_WC_IP_CSUM_OK) >> 3);
		o->pkey_index = 0;
		o->slid = r.slid;
		o->sl = r.sl;
		o->dlid_path_bits = 0;
	}
	return n;
}

static int
iv_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	int rc = rdmadev_cq_arm(container_of(ibcq, struct iv_cq, cq)->r, solicited_only);

	return rc < 0 ? -rc : 0;
}

void
iv_ctx_set_fp_ops(struct ibv_context *c)
{
	c->ops.post_send = iv_post_send;
	c->ops.post_recv = iv_post_recv;
	c->ops.post_srq_recv = iv_post_srq_recv;
	c->ops.poll_cq = iv_poll_cq;
	c->ops.req_notify_cq = iv_req_notify_cq;
}
