/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, the extended CQ: ibv_create_cq_ex and the ibv_start_poll / ibv_next_poll /
 * ibv_end_poll iteration with the ibv_wc_read_* getters, which Debian's <infiniband/verbs.h>
 * inlines into calls through struct ibv_cq_ex. Completions are polled IV_CQX_BATCH at a time
 * into the CQ's cache (through the same poll as ibv_poll_cq) and handed out one by one; one
 * start_poll ... end_poll iteration at a time per CQ, as verbs requires. The fields offered
 * are those of struct ibv_wc (IBV_WC_STANDARD_FLAGS); timestamps, CVLAN, flow tag and TM
 * info are refused with EOPNOTSUPP.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_priv.h"

static inline struct iv_cqx *
iv_cqx(struct ibv_cq_ex *x)
{
	return container_of(x, struct iv_cq, cqx)->cqx_poll;
}

static inline const struct ibv_wc *
iv_cqx_wc(struct ibv_cq_ex *x)
{
	struct iv_cqx *p = iv_cqx(x);

	return &p->wc[p->head];
}

/* Make the CQE at the cache's head current, polling when the cache is empty. */
static int
iv_cqx_load(struct ibv_cq_ex *x)
{
	struct iv_cqx *p = iv_cqx(x);
	int n;

	if (p->head == p->n) {
		n = ibv_poll_cq(ibv_cq_ex_to_cq(x), IV_CQX_BATCH, p->wc);
		p->head = 0;
		p->n = n > 0 ? (uint16_t)n : 0;
		if (unlikely(n < 0))
			return -n;
		if (n == 0)
			return ENOENT;
	}
	x->wr_id = p->wc[p->head].wr_id;
	x->status = p->wc[p->head].status;
	return 0;
}

static int
iv_start_poll(struct ibv_cq_ex *x, struct ibv_poll_cq_attr *attr)
{
	if (unlikely(attr != NULL && attr->comp_mask != 0)) {
		IV_LOG(ERR, "ibv_poll_cq_attr comp_mask 0x%x not supported", attr->comp_mask);
		return EINVAL;
	}
	return iv_cqx_load(x);
}

static int
iv_next_poll(struct ibv_cq_ex *x)
{
	iv_cqx(x)->head++;
	return iv_cqx_load(x);
}

static void
iv_end_poll(struct ibv_cq_ex *x)
{
	iv_cqx(x)->head++;
}

static enum ibv_wc_opcode
iv_read_opcode(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->opcode;
}

static uint32_t
iv_read_vendor_err(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->vendor_err;
}

static uint32_t
iv_read_byte_len(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->byte_len;
}

static __be32
iv_read_imm_data(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->imm_data;
}

static uint32_t
iv_read_qp_num(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->qp_num;
}

static uint32_t
iv_read_src_qp(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->src_qp;
}

static unsigned int
iv_read_wc_flags(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->wc_flags;
}

static uint32_t
iv_read_slid(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->slid;
}

static uint8_t
iv_read_sl(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->sl;
}

static uint8_t
iv_read_dlid_path_bits(struct ibv_cq_ex *x)
{
	return iv_cqx_wc(x)->dlid_path_bits;
}

/* The context's create_cq_ex op (the inline ibv_create_cq_ex calls it). */
struct ibv_cq_ex *
iv_create_cq_ex_op(struct ibv_context *c, struct ibv_cq_init_attr_ex *attr)
{
	const uint32_t known_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	const uint32_t known_flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
	struct ibv_cq_ex *x;
	struct ibv_cq *cq;
	struct iv_cq *q;

	if (attr == NULL) {
		IV_LOG(ERR, "NULL attributes");
		errno = EINVAL;
		return NULL;
	}
	if (attr->wc_flags & ~(uint64_t)IBV_WC_STANDARD_FLAGS) {
		IV_LOG(ERR, "wc_flags 0x%" PRIx64 " not supported (timestamps, CVLAN, flow tag, "
		       "TM info)", attr->wc_flags & ~(uint64_t)IBV_WC_STANDARD_FLAGS);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if ((attr->comp_mask & ~known_mask) ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) && (attr->flags & ~known_flags))) {
		IV_LOG(ERR, "comp_mask 0x%x / flags 0x%x not supported (parent domains, ...)",
		       attr->comp_mask, attr->flags);
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = ibv_create_cq(c, (int)attr->cqe, attr->cq_context, attr->channel,
			   (int)attr->comp_vector);
	if (cq == NULL)
		return NULL;
	q = container_of(cq, struct iv_cq, cq);
	q->cqx_poll = calloc(1, sizeof(*q->cqx_poll));
	if (q->cqx_poll == NULL) {
		(void)ibv_destroy_cq(cq);
		errno = ENOMEM;
		return NULL;
	}
	x = &q->cqx;
	x->start_poll = iv_start_poll;
	x->next_poll = iv_next_poll;
	x->end_poll = iv_end_poll;
	x->read_opcode = iv_read_opcode;
	x->read_vendor_err = iv_read_vendor_err;
	x->read_byte_len = iv_read_byte_len;
	x->read_imm_data = iv_read_imm_data;
	x->read_qp_num = iv_read_qp_num;
	x->read_src_qp = iv_read_src_qp;
	x->read_wc_flags = iv_read_wc_flags;
	x->read_slid = iv_read_slid;
	x->read_sl = iv_read_sl;
	x->read_dlid_path_bits = iv_read_dlid_path_bits;
	return x;
}
