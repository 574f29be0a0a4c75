/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, the extended QP: ibv_create_qp_ex with send_ops_flags, and the ibv_wr_*
 * builders that Debian's <infiniband/verbs.h> inlines into calls through struct ibv_qp_ex.
 * ibv_wr_start opens a batch; each opcode call adds an rdmadev WR to it (its SGEs and inline
 * bytes are copied into the QP's batch, so the caller's may go right away); ibv_wr_complete
 * posts the batch as one rdmadev burst. An error in a builder (a full batch, too many SGEs,
 * too much inline data) is logged and kept for ibv_wr_complete, which then posts nothing.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_priv.h"

/* The send opcodes the builders offer. */
#define IV_WRX_OPS (IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | \
		    IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
		    IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | \
		    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_SEND_WITH_INV)

static inline struct iv_qp *
iv_qpx(struct ibv_qp_ex *x)
{
	return container_of(x, struct iv_qp, qpx);
}

static void
iv_wr_start(struct ibv_qp_ex *x)
{
	struct iv_wrx *b = iv_qpx(x)->wrx;

	b->n = 0;
	b->err = 0;
}

/* A new WR of the batch (the scratch slot past the end once the batch is full). */
static inline struct rdmadev_send_wr *
iv_wr_new(struct ibv_qp_ex *x, uint8_t op)
{
	struct iv_wrx *b = iv_qpx(x)->wrx;
	struct rdmadev_send_wr *w;
	unsigned int f = x->wr_flags;

	if (unlikely(b->n == IV_WRX_MAX)) {
		if (b->err == 0)
			IV_LOG(ERR, "QP %u: more than %u WRs between ibv_wr_start and "
			       "ibv_wr_complete", x->qp_base.qp_num, IV_WRX_MAX);
		b->err = ENOMEM;
		b->cur = IV_WRX_MAX;
	} else {
		b->cur = b->n++;
	}
	w = &b->w[b->cur];
	w->wr_id = x->wr_id;
	w->sg_list = b->sge[b->cur];
	w->num_sge = 0;
	w->opcode = op;
	w->flags = (uint8_t)(((f & IBV_SEND_SIGNALED) >> 1) | ((f & IBV_SEND_FENCE) << 1) |
			     (f & IBV_SEND_SOLICITED));
	w->imm_data = 0;
	return w;
}

static inline struct rdmadev_send_wr *
iv_wr_cur(struct ibv_qp_ex *x)
{
	struct iv_wrx *b = iv_qpx(x)->wrx;

	return &b->w[b->cur];
}

/* A new WRITE, WRITE_WITH_IMM or READ of the batch. */
static inline struct rdmadev_send_wr *
iv_wr_rdma(struct ibv_qp_ex *x, uint8_t op, uint32_t rkey, uint64_t addr)
{
	struct rdmadev_send_wr *w = iv_wr_new(x, op);

	w->rdma.remote_addr = addr;
	w->rdma.rkey = rkey;
	return w;
}

static void
iv_wr_rdma_write(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	(void)iv_wr_rdma(x, RDMADEV_WR_RDMA_WRITE, rkey, addr);
}

static void
iv_wr_rdma_write_imm(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, __be32 imm)
{
	iv_wr_rdma(x, RDMADEV_WR_RDMA_WRITE_IMM, rkey, addr)->imm_data = imm;
}

static void
iv_wr_rdma_read(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr)
{
	(void)iv_wr_rdma(x, RDMADEV_WR_RDMA_READ, rkey, addr);
}

static void
iv_wr_send(struct ibv_qp_ex *x)
{
	(void)iv_wr_new(x, RDMADEV_WR_SEND);
}

static void
iv_wr_send_imm(struct ibv_qp_ex *x, __be32 imm)
{
	iv_wr_new(x, RDMADEV_WR_SEND_IMM)->imm_data = imm;
}

static void
iv_wr_send_inv(struct ibv_qp_ex *x, uint32_t invalidate_rkey)
{
	/* imm_data and invalidate_rkey share their word (as in ibv_send_wr). */
	iv_wr_new(x, RDMADEV_WR_SEND_INV)->imm_data = invalidate_rkey;
}

static void
iv_wr_atomic(struct ibv_qp_ex *x, uint8_t op, uint32_t rkey, uint64_t addr, uint64_t cmp_add,
	     uint64_t swap)
{
	struct rdmadev_send_wr *w = iv_wr_new(x, op);

	w->atomic.remote_addr = addr;
	w->atomic.rkey = rkey;
	w->atomic.compare_add = cmp_add;
	w->atomic.swap = swap;
}

static void
iv_wr_atomic_cmp_swp(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, uint64_t compare,
		     uint64_t swap)
{
	iv_wr_atomic(x, RDMADEV_WR_ATOMIC_CS, rkey, addr, compare, swap);
}

static void
iv_wr_atomic_fetch_add(struct ibv_qp_ex *x, uint32_t rkey, uint64_t addr, uint64_t add)
{
	iv_wr_atomic(x, RDMADEV_WR_ATOMIC_FA, rkey, addr, add, 0);
}

static void
iv_wr_set_sge(struct ibv_qp_ex *x, uint32_t lkey, uint64_t addr, uint32_t length)
{
	struct iv_wrx *b = iv_qpx(x)->wrx;

	b->sge[b->cur][0].addr = addr;
	b->sge[b->cur][0].length = length;
	b->sge[b->cur][0].lkey = lkey;
	b->w[b->cur].num_sge = 1;
}

static void
iv_wr_set_sge_list(struct ibv_qp_ex *x, size_t num_sge, const struct ibv_sge *sg_list)
{
	struct iv_wrx *b = iv_qpx(x)->wrx;

	if (unlikely(num_sge > IV_WRX_SGE)) {
		IV_LOG(ERR, "QP %u: %zu SGEs (the builders take %u)", x->qp_base.qp_num, num_sge,
		       IV_WRX_SGE);
		b->err = EINVAL;
		return;
	}
	memcpy(b->sge[b->cur], sg_list, num_sge * sizeof(*sg_list));
	b->w[b->cur].num_sge = (uint16_t)num_sge;
}

static void
iv_wr_set_inline_data_list(struct ibv_qp_ex *x, size_t num_buf, const struct ibv_data_buf *l)
{
	struct iv_qp *q = iv_qpx(x);
	struct iv_wrx *b = q->wrx;
	size_t i, len = 0;

	for (i = 0; i < num_buf; i++)
		len += l[i].length;
	if (unlikely(len > q->max_inline)) {
		IV_LOG(ERR, "QP %u: %zu inline bytes (the QP has %u)", x->qp_base.qp_num, len,
		       q->max_inline);
		b->err = EINVAL;
		return;
	}
	for (len = 0, i = 0; i < num_buf; len += l[i].length, i++)
		memcpy(b->inl[b->cur] + len, l[i].addr, l[i].length);
	b->sge[b->cur][0].addr = (uintptr_t)b->inl[b->cur];
	b->sge[b->cur][0].length = (uint32_t)len;
	b->sge[b->cur][0].lkey = 0;
	b->w[b->cur].num_sge = 1;
	b->w[b->cur].flags |= RDMADEV_SEND_INLINE;
}

static void
iv_wr_set_inline_data(struct ibv_qp_ex *x, void *addr, size_t length)
{
	struct ibv_data_buf d = { .addr = addr, .length = length };

	iv_wr_set_inline_data_list(x, 1, &d);
}

static void
iv_wr_set_ud_addr(struct ibv_qp_ex *x, struct ibv_ah *ah, uint32_t remote_qpn,
		  uint32_t remote_qkey)
{
	struct rdmadev_send_wr *w = iv_wr_cur(x);
	struct iv_qp *q = iv_qpx(x);

	if (unlikely(ah == NULL)) {
		IV_LOG(ERR, "QP %u: ibv_wr_set_ud_addr with a NULL address handle",
		       x->qp_base.qp_num);
		q->wrx->err = EINVAL;
		return;
	}
	w->ud.ah = container_of(ah, struct iv_ah, ah)->r;
	w->ud.remote_qpn = remote_qpn;
	w->ud.remote_qkey = (remote_qkey & 0x80000000u) ? q->qkey : remote_qkey;
}

static int
iv_wr_complete(struct ibv_qp_ex *x)
{
	struct iv_qp *q = iv_qpx(x);
	struct iv_wrx *b = q->wrx;
	uint16_t n = b->n;
	int err = b->err;

	b->n = 0;
	if (unlikely(err != 0))
		return err;
	if (likely(n == 0 || rdmadev_post_send(q->r, b->w, n, &err) == n))
		return 0;
	/* What rdmadev refused and what came after it are not posted (the WRs before are). */
	return -err;
}

static void
iv_wr_abort(struct ibv_qp_ex *x)
{
	iv_qpx(x)->wrx->n = 0;
}

/* The create_qp_ex op of the context (the inline ibv_create_qp_ex calls it). */
struct ibv_qp *
iv_create_qp_ex_op(struct ibv_context *c, struct ibv_qp_init_attr_ex *attr)
{
	const uint32_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	struct ibv_qp_ex *x;
	struct ibv_qp *qp;
	struct iv_qp *q;

	if (attr == NULL || (attr->comp_mask & IBV_QP_INIT_ATTR_PD) == 0 || attr->pd == NULL ||
	    attr->pd->context != c) {
		IV_LOG(ERR, "%s", attr == NULL ? "NULL attributes" :
		       "no PD of this context (IBV_QP_INIT_ATTR_PD)");
		errno = EINVAL;
		return NULL;
	}
	if (attr->comp_mask & ~known) {
		IV_LOG(ERR, "comp_mask bits 0x%x not supported (XRC, RSS, TSO, ... are not)",
		       attr->comp_mask & ~known);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    (attr->send_ops_flags & ~(uint64_t)IV_WRX_OPS)) {
		IV_LOG(ERR, "send_ops_flags 0x%" PRIx64 " not supported (MW bind, local "
		       "invalidate, TSO, atomic write)", attr->send_ops_flags & ~(uint64_t)IV_WRX_OPS);
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* ibv_qp_init_attr is the head of ibv_qp_init_attr_ex. */
	qp = ibv_create_qp(attr->pd, (struct ibv_qp_init_attr *)attr);
	if (qp == NULL || (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) == 0)
		return qp;
	q = container_of(qp, struct iv_qp, qp);
	q->wrx = calloc(1, sizeof(*q->wrx));
	if (q->wrx == NULL) {
		(void)ibv_destroy_qp(qp);
		errno = ENOMEM;
		return NULL;
	}
	if (q->max_inline > IV_WRX_INL)
		q->max_inline = IV_WRX_INL;
	x = &q->qpx;
	x->wr_start = iv_wr_start;
	x->wr_complete = iv_wr_complete;
	x->wr_abort = iv_wr_abort;
	x->wr_rdma_write = iv_wr_rdma_write;
	x->wr_rdma_write_imm = iv_wr_rdma_write_imm;
	x->wr_rdma_read = iv_wr_rdma_read;
	x->wr_send = iv_wr_send;
	x->wr_send_imm = iv_wr_send_imm;
	x->wr_send_inv = iv_wr_send_inv;
	x->wr_atomic_cmp_swp = iv_wr_atomic_cmp_swp;
	x->wr_atomic_fetch_add = iv_wr_atomic_fetch_add;
	x->wr_set_sge = iv_wr_set_sge;
	x->wr_set_sge_list = iv_wr_set_sge_list;
	x->wr_set_inline_data = iv_wr_set_inline_data;
	x->wr_set_inline_data_list = iv_wr_set_inline_data_list;
	x->wr_set_ud_addr = iv_wr_set_ud_addr;
	return qp;
}
