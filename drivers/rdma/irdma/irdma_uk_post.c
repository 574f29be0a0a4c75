/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The posting half of the data path: SQ WQEs (fact sheet §1) and RQ WQEs (§2) built from
 * rdmadev work requests, one doorbell per burst (§4).
 *
 * A WR is checked whole before a byte of it is written, so a refused WR leaves the ring as
 * it was. Then, per WR: the chunk rule's 1-quantum NOPs, the polarity flip at index 0, the
 * pre-invalidation of the ring 128 quanta ahead, the WQE body (every quantum's valid bit
 * included), the tracking entry, a write barrier, and the header qword last.
 *
 * Barriers: the WQE memory is coherent DMA memory, so the device must see the body before
 * the header that makes it valid: rte_io_wmb() (the kernel's dma_wmb; a compiler barrier on
 * x86, whose stores are ordered; dmb on Arm) sits between them. rte_wmb() would only be
 * needed for write-combining memory (push pages, unused here). The doorbell is
 * irdma_wr32(), which orders every earlier store before the register write.
 *
 * Threading: one lcore posts on a QP at a time (it owns sq.head / rq.head); the lcore that
 * polls the QP's CQs owns sq.tail / rq.tail. Each side publishes its index with a release
 * store and reads the other's with an acquire load, so a tracking entry is reused only after
 * the poller is done with it.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>

#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_mr.h"
#include "irdma_uk.h"

/** Byte value that reads as "not valid" for polarity @p pol (every bit the inverse). */
#define IRDMA_UK_INVALID_FILL(pol)	((pol) ? 0x00 : 0xff)

/* What the check of a send WR found: everything the writer needs besides the WR. */
struct irdma_uk_sq_plan {
	uint64_t hdr;		/* header without VALID */
	uint32_t quanta;	/* quanta of the WQE */
	uint32_t len;		/* tracked byte count */
	uint8_t wc_opcode;	/* enum rdmadev_wc_opcode */
	uint8_t kind;		/* enum irdma_uk_kind */
	uint8_t imm;		/* 1: immediate in fragment slot 0 */
	uint8_t signaled;	/* SIGCOMPL */
};

/* How the body of a WQE is written. */
enum irdma_uk_kind {
	IRDMA_UK_FRAGS,		/* qw2 from the plan, fragments */
	IRDMA_UK_INLINE,	/* qw2 from the plan, inline data */
	IRDMA_UK_LOCAL_INV,	/* qw1 = stag, valid bit 0 */
	IRDMA_UK_FAST_REG,	/* page list into the PBLEs, qw0..2 */
	IRDMA_UK_NOP,		/* qw0..2 zero */
};

static inline struct irdma_quantum *
irdma_uk_sq_quantum(const struct irdma_qp *qp, uint32_t idx)
{
	return (struct irdma_quantum *)(void *)(qp->sq.base + (size_t)idx * IRDMA_QUANTUM_SIZE);
}

/* A gen2 fragment: address, then lkey / length / valid. */
static inline void
irdma_uk_frag(uint8_t *at, const struct rdmadev_sge *sge, uint64_t valid)
{
	struct irdma_wqe_frag *f = (struct irdma_wqe_frag *)(void *)at;

	f->qw[0] = rte_cpu_to_le_64(sge->addr);
	f->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(FRAG_STAG, sge->lkey) |
				    IRDMA_PREP(FRAG_LEN, sge->length) | valid);
}

/* The gen2 NULL fragment: valid bit only. */
static inline void
irdma_uk_frag_null(uint8_t *at, uint64_t valid)
{
	struct irdma_wqe_frag *f = (struct irdma_wqe_frag *)(void *)at;

	f->qw[0] = 0;
	f->qw[1] = rte_cpu_to_le_64(valid);
}

/*
 * Fragment slots 0..n of a WQE or RQ WQE at @p w (§1.4): slot 0 is the immediate (qw0,
 * @p imm_slot set, qw1 zero), SGE 0, or a NULL fragment when there is neither; the rest
 * follow from byte 32, and an even non-zero fragment count gets a NULL pad.
 */
static inline void
irdma_uk_frags(uint8_t *w, const struct rdmadev_sge *sg, uint32_t nsge, bool imm_slot,
	       uint64_t valid)
{
	uint32_t frag_cnt = nsge + (imm_slot ? 1 : 0);
	uint32_t i = 0;
	uint8_t *at;

	if (imm_slot)
		((rte_le64_t *)(void *)w)[1] = 0;
	else if (nsge != 0)
		irdma_uk_frag(w, &sg[i++], valid);
	else
		irdma_uk_frag_null(w, valid);
	for (at = w + IRDMA_FRAG1_OFFSET; i < nsge; i++, at += IRDMA_FRAG_SIZE)
		irdma_uk_frag(at, &sg[i], valid);
	if (irdma_frag_needs_pad(frag_cnt))
		irdma_uk_frag_null(at, valid);
}

/* Copy @p len bytes from @p src to the gen2 inline layout of the WQE at @p w (§1.6). */
static inline void
irdma_uk_inline_place(uint8_t *w, const uint8_t *src, uint32_t len, uint8_t valid_byte)
{
	uint32_t n = RTE_MIN(len, IRDMA_INLINE_Q0_BYTES);
	uint8_t *dst = w + IRDMA_QUANTUM_SIZE;

	memcpy(w + IRDMA_INLINE_Q0_OFFSET, src, n);
	src += n;
	len -= n;
	while (len >= IRDMA_INLINE_QN_BYTES) {
		memcpy(dst, src, IRDMA_INLINE_QN_BYTES);
		dst[IRDMA_INLINE_VALID_BYTE] = valid_byte;
		dst += IRDMA_QUANTUM_SIZE;
		src += IRDMA_INLINE_QN_BYTES;
		len -= IRDMA_INLINE_QN_BYTES;
	}
	if (len != 0) {
		memcpy(dst, src, len);
		dst[IRDMA_INLINE_VALID_BYTE] = valid_byte;
	}
}

/* Inline data of @p wr (its SGEs, concatenated) into the WQE at @p w. */
static inline void
irdma_uk_inline(uint8_t *w, const struct rdmadev_send_wr *wr, uint32_t len, uint32_t pol)
{
	uint8_t valid_byte = (uint8_t)(pol << IRDMA_INLINE_VALID_SHIFT);
	uint8_t buf[IRDMA_MAX_INLINE];
	uint32_t i, off = 0;

	if (likely(wr->num_sge == 1)) {
		irdma_uk_inline_place(w, (const uint8_t *)(uintptr_t)wr->sg_list[0].addr, len,
				      valid_byte);
		return;
	}
	for (i = 0; i < wr->num_sge; i++) {
		memcpy(buf + off, (const void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		off += wr->sg_list[i].length;
	}
	irdma_uk_inline_place(w, buf, len, valid_byte);
}

/* ---- checking a send WR ---- */

static int
irdma_uk_refuse(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr, int err,
		const char *why)
{
	IRDMA_LOG(ERR, qp->hw, "QP %u: send WR 0x%" PRIx64 " (opcode %u) refused: %s", qp->qp_id,
		  wr->wr_id, wr->opcode, why);
	return err;
}

/* SEND* / WRITE*: the data part, fragments or inline. */
static inline int
irdma_uk_check_data(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		    struct irdma_uk_sq_plan *p)
{
	uint64_t len = 0;
	uint32_t i;

	if (unlikely(wr->num_sge > qp->max_send_sge))
		return irdma_uk_refuse(qp, wr, -EINVAL, "more SGEs than the QP's max_send_sge");
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	p->len = (uint32_t)len;
	if (wr->flags & RDMADEV_SEND_INLINE) {
		if (unlikely(len > qp->max_inline || len > IRDMA_MAX_INLINE))
			return irdma_uk_refuse(qp, wr, -EINVAL,
					       "inline data longer than the QP's max_inline_data");
		p->kind = IRDMA_UK_INLINE;
		p->quanta = irdma_inline_to_quanta(len);
		p->hdr |= IRDMA_PREP(SQ_INLINEDATAFLAG, 1) | IRDMA_PREP(SQ_INLINEDATALEN, len);
		return 0;
	}
	p->kind = IRDMA_UK_FRAGS;
	i = wr->num_sge + p->imm;
	p->quanta = irdma_sq_frags_to_quanta(i);
	p->hdr |= IRDMA_PREP(SQ_ADDFRAGCNT, irdma_addfragcnt(i, qp->gen == 2));
	return 0;
}

static inline int
irdma_uk_check_fast_reg(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
			struct irdma_uk_sq_plan *p)
{
	const struct rdmadev_mr *mr = wr->fast_reg.mr;
	const struct irdma_mr *m = mr != NULL ? mr->obj.fp.drv : NULL;
	uint32_t hpage;

	if (m == NULL || !m->fast_reg)
		return irdma_uk_refuse(qp, wr, -EINVAL, "FAST_REG without a fast-reg MR");
	if (wr->fast_reg.nb_pages == 0 || wr->fast_reg.nb_pages > m->run.count ||
	    wr->fast_reg.page_list == NULL)
		return irdma_uk_refuse(qp, wr, -EINVAL, "FAST_REG page list empty or too long");
	switch (wr->fast_reg.page_shift) {
	case 12:
		hpage = IRDMA_HPAGE_4K;
		break;
	case 21:
		hpage = IRDMA_HPAGE_2M;
		break;
	case 30:
		hpage = IRDMA_HPAGE_1G;
		break;
	default:
		return irdma_uk_refuse(qp, wr, -EINVAL, "FAST_REG page size not 4K, 2M or 1G");
	}
	if ((uint64_t)wr->fast_reg.length >
	    ((uint64_t)wr->fast_reg.nb_pages << wr->fast_reg.page_shift))
		return irdma_uk_refuse(qp, wr, -EINVAL, "FAST_REG length beyond its pages");
	if (wr->fast_reg.access & RDMADEV_ACCESS_REMOTE_ATOMIC)
		return irdma_uk_refuse(qp, wr, -ENOTSUP, "remote atomics are not on gen2");
	p->kind = IRDMA_UK_FAST_REG;
	p->quanta = 1;
	p->hdr |= IRDMA_PREP(SQ_OPCODE, IRDMA_OP_FAST_REGISTER) |
		  IRDMA_PREP(SQ_FR_STAGKEY, wr->fast_reg.key) |
		  IRDMA_PREP(SQ_FR_STAGINDEX, m->stag >> IRDMA_STAG_KEY_BITS) |
		  IRDMA_PREP(SQ_FR_LPBLSIZE, wr->fast_reg.nb_pages > 1 ? IRDMA_PBL_CHUNK_L1 :
								   IRDMA_PBL_CHUNK_PHYS) |
		  IRDMA_PREP(SQ_FR_HPAGESIZE, hpage) |
		  IRDMA_PREP(SQ_STAGRIGHTS, irdma_mr_access_bits(wr->fast_reg.access)) |
		  IRDMA_PREP(SQ_VABASEDTO, 1);
	return 0;
}

/*
 * Check @p wr against the QP and plan its WQE (header bits, quanta, tracking). Nothing is
 * written. @return 0, -EINVAL or -ENOTSUP (logged).
 */
static inline int
irdma_uk_sq_check(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		  struct irdma_uk_sq_plan *p)
{
	bool sol = (wr->flags & RDMADEV_SEND_SOLICITED) != 0;
	uint32_t op;

	p->signaled = (wr->flags & RDMADEV_SEND_SIGNALED) || qp->sq_sig_all;
	p->hdr = IRDMA_PREP(SQ_READFENCE, (wr->flags & RDMADEV_SEND_FENCE) ? 1 : 0) |
		 IRDMA_PREP(SQ_LOCALFENCE, (wr->flags & RDMADEV_SEND_LOCAL_FENCE) ? 1 : 0) |
		 IRDMA_PREP(SQ_SIGCOMPL, p->signaled);
	p->imm = 0;
	p->len = 0;
	p->quanta = 1;
	p->kind = IRDMA_UK_FRAGS;
	p->wc_opcode = RDMADEV_WC_SEND;
	if (unlikely(qp->qp_type == IRDMA_QP_TYPE_ROCE_UD && wr->opcode != RDMADEV_WR_SEND &&
		     wr->opcode != RDMADEV_WR_SEND_IMM))
		return irdma_uk_refuse(qp, wr, -EINVAL, "a UD QP only sends");
	switch (wr->opcode) {
	case RDMADEV_WR_RDMA_WRITE_IMM:
		p->imm = 1;
		p->hdr |= IRDMA_PREP(SQ_IMMDATAFLAG, 1);
		/* fall through */
	case RDMADEV_WR_RDMA_WRITE:
		p->wc_opcode = RDMADEV_WC_RDMA_WRITE;
		p->hdr |= IRDMA_PREP(SQ_OPCODE, sol ? IRDMA_OP_RDMA_WRITE_SOL : IRDMA_OP_RDMA_WRITE) |
			  IRDMA_PREP(SQ_REMSTAG, wr->rdma.rkey);
		return irdma_uk_check_data(qp, wr, p);
	case RDMADEV_WR_SEND_IMM:
		p->imm = 1;
		p->hdr |= IRDMA_PREP(SQ_IMMDATAFLAG, 1);
		/* fall through */
	case RDMADEV_WR_SEND:
		p->wc_opcode = RDMADEV_WC_SEND;
		p->hdr |= IRDMA_PREP(SQ_OPCODE, sol ? IRDMA_OP_RDMA_SEND_SOL_EVENT :
						      IRDMA_OP_RDMA_SEND);
		if (qp->qp_type == IRDMA_QP_TYPE_ROCE_UD) {
			if (unlikely(wr->ud.ah == NULL))
				return irdma_uk_refuse(qp, wr, -EINVAL, "UD send without an AH");
			p->hdr |= IRDMA_PREP(SQ_AHID, wr->ud.ah->ah_id);
		}
		return irdma_uk_check_data(qp, wr, p);
	case RDMADEV_WR_SEND_INV:
		p->wc_opcode = RDMADEV_WC_SEND;
		p->hdr |= IRDMA_PREP(SQ_OPCODE, sol ? IRDMA_OP_RDMA_SEND_SOL_EVENT_INV :
						      IRDMA_OP_RDMA_SEND_INV) |
			  IRDMA_PREP(SQ_INV_STAG, wr->invalidate_rkey);
		return irdma_uk_check_data(qp, wr, p);
	case RDMADEV_WR_RDMA_READ:
		if (unlikely(wr->num_sge > qp->max_send_sge))
			return irdma_uk_refuse(qp, wr, -EINVAL,
					       "more SGEs than the QP's max_send_sge");
		p->wc_opcode = RDMADEV_WC_RDMA_READ;
		p->kind = IRDMA_UK_FRAGS;
		for (op = 0; op < wr->num_sge; op++)
			p->len += wr->sg_list[op].length;
		p->quanta = irdma_sq_frags_to_quanta(wr->num_sge);
		p->hdr |= IRDMA_PREP(SQ_OPCODE, IRDMA_OP_RDMA_READ) |
			  IRDMA_PREP(SQ_REMSTAG, wr->rdma.rkey) |
			  IRDMA_PREP(SQ_ADDFRAGCNT, irdma_addfragcnt(wr->num_sge, qp->gen == 2));
		return 0;
	case RDMADEV_WR_LOCAL_INV:
		p->wc_opcode = RDMADEV_WC_LOCAL_INV;
		p->kind = IRDMA_UK_LOCAL_INV;
		p->quanta = 1;
		p->hdr |= IRDMA_PREP(SQ_OPCODE, IRDMA_OP_LOCAL_INVALIDATE);
		return 0;
	case RDMADEV_WR_FAST_REG:
		p->wc_opcode = RDMADEV_WC_REG_MR;
		return irdma_uk_check_fast_reg(qp, wr, p);
	case RDMADEV_WR_NOP:
		p->wc_opcode = RDMADEV_WC_NOP;
		p->kind = IRDMA_UK_NOP;
		p->quanta = 1;
		/* The fact sheet's NOP carries OPCODE, SIGCOMPL and VALID only. */
		p->hdr = IRDMA_PREP(SQ_OPCODE, IRDMA_OP_NOP) | IRDMA_PREP(SQ_SIGCOMPL, p->signaled);
		return 0;
	case RDMADEV_WR_ATOMIC_FA:
	case RDMADEV_WR_ATOMIC_CS:
	case RDMADEV_WR_BIND_MW:
		/* Gen3 operations; this PMD writes the gen2 layouts only. */
		return irdma_uk_refuse(qp, wr, -ENOTSUP, "atomics and BIND_MW are gen3 only");
	default:
		return irdma_uk_refuse(qp, wr, -EINVAL, "unknown opcode");
	}
}

/* ---- writing ---- */

/*
 * Start a WQE at quantum @p idx: flip the polarity at index 0 (before anything of the pass
 * is written) and, at every 128th quantum, pre-invalidate the 128 quanta that start 128
 * ahead (irdma_clr_wqes): fill them so their valid bits read "not valid" for the pass that
 * will reach them (this pass, or the next one when the block starts at index 0).
 */
static inline void
irdma_uk_sq_start(struct irdma_qp *qp, uint32_t idx, uint32_t *pol)
{
	uint32_t ahead;

	if (idx == 0)
		*pol ^= 1;
	if (likely((idx & (IRDMA_SQ_CLR_STRIDE - 1)) != 0 ||
		   qp->sq.quanta < 2 * IRDMA_SQ_CLR_STRIDE))
		return;
	ahead = (idx + IRDMA_SQ_CLR_STRIDE) & (qp->sq.quanta - 1);
	memset(irdma_uk_sq_quantum(qp, ahead),
	       ahead != 0 ? IRDMA_UK_INVALID_FILL(*pol) : IRDMA_UK_INVALID_FILL(!*pol),
	       (size_t)IRDMA_SQ_CLR_STRIDE * IRDMA_QUANTUM_SIZE);
}

/* Write the header qword after the body: the device may consume the WQE from then on. */
static inline void
irdma_uk_hdr_store(struct irdma_quantum *q, uint64_t hdr)
{
	rte_io_wmb();
	irdma_qw_store(q, QUANTUM_VALID, hdr);
}

/* The chunk filler (irdma_nop_1): a 1-quantum unsignaled NOP, tracked as nop. */
static void
irdma_uk_sq_nop_fill(struct irdma_qp *qp, uint32_t idx, uint32_t *pol)
{
	struct irdma_quantum *q;

	irdma_uk_sq_start(qp, idx, pol);
	q = irdma_uk_sq_quantum(qp, idx);
	q->qw[0] = 0;
	q->qw[1] = 0;
	q->qw[2] = 0;
	qp->sq_wrtrk[idx] = (struct irdma_sq_wrtrk){ .quanta = 1, .nop = 1 };
	irdma_uk_hdr_store(q, IRDMA_PREP(SQ_OPCODE, IRDMA_OP_NOP) | IRDMA_PREP(SQ_VALID, *pol));
}

/* Body of a FAST_REG: the page list into the MR's PBLE run, then qw0..2 (§1.5). */
static void
irdma_uk_fast_reg(struct irdma_quantum *q, const struct rdmadev_send_wr *wr)
{
	struct rdmadev_mr *mr = wr->fast_reg.mr;
	struct irdma_mr *m = mr->obj.fp.drv;
	uint32_t i, n = wr->fast_reg.nb_pages;
	uint32_t first = m->run.index;

	for (i = 0; i < n; i++)
		m->run.va[i] = rte_cpu_to_le_64(wr->fast_reg.page_list[i]);
	q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_FR_VA_FBO, wr->fast_reg.iova));
	q->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(SQ_FR_PBL_PFN, wr->fast_reg.page_list[0] >>
						IRDMA_HW_PAGE_SHIFT) |
				    IRDMA_PREP(SQ_FR_FIRST_PBLIDX_HI, first >> 16));
	q->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(SQ_FR_STAGLEN, wr->fast_reg.length) |
				    IRDMA_PREP(SQ_FR_FIRST_PBLIDX_LO, first & 0xffffu));
	/* The MR's keys take the new 8-bit key from this WR on. */
	m->stag = (m->stag & ~((1u << IRDMA_STAG_KEY_BITS) - 1)) |
		  (wr->fast_reg.key & ((1u << IRDMA_STAG_KEY_BITS) - 1));
	mr->lkey = m->stag;
	mr->rkey = m->stag;
}

/* qw2 of a SEND / WRITE / READ: remote VA, or the UD destination. */
static inline uint64_t
irdma_uk_qw2(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr)
{
	if (wr->opcode == RDMADEV_WR_RDMA_WRITE || wr->opcode == RDMADEV_WR_RDMA_WRITE_IMM ||
	    wr->opcode == RDMADEV_WR_RDMA_READ)
		return IRDMA_PREP(SQ_REMOTE_TO, wr->rdma.remote_addr);
	if (qp->qp_type == IRDMA_QP_TYPE_ROCE_UD)
		return IRDMA_PREP(SQ_UD_DESTQKEY, wr->ud.remote_qkey) |
		       IRDMA_PREP(SQ_UD_DESTQPN, wr->ud.remote_qpn);
	return 0;
}

/* Write the planned WQE of @p wr at quantum @p idx with polarity @p pol. */
static inline void
irdma_uk_sq_write(struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		  const struct irdma_uk_sq_plan *p, uint32_t idx, uint32_t pol)
{
	struct irdma_quantum *q = irdma_uk_sq_quantum(qp, idx);
	uint8_t *w = (uint8_t *)q;

	switch (p->kind) {
	case IRDMA_UK_FRAGS:
		if (p->imm)
			q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA,
							       rte_be_to_cpu_32(wr->imm_data)));
		irdma_uk_frags(w, wr->sg_list, wr->num_sge, p->imm, IRDMA_PREP(FRAG_VALID, pol));
		q->qw[2] = rte_cpu_to_le_64(irdma_uk_qw2(qp, wr));
		break;
	case IRDMA_UK_INLINE:
		q->qw[0] = p->imm ? rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA,
							       rte_be_to_cpu_32(wr->imm_data))) : 0;
		q->qw[1] = 0;
		irdma_uk_inline(w, wr, p->len, pol);
		q->qw[2] = rte_cpu_to_le_64(irdma_uk_qw2(qp, wr));
		break;
	case IRDMA_UK_LOCAL_INV:
		q->qw[0] = 0;
		q->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(SQ_LINV_STAG, wr->invalidate_rkey));
		q->qw[2] = 0;
		break;
	case IRDMA_UK_FAST_REG:
		irdma_uk_fast_reg(q, wr);
		break;
	default:
		q->qw[0] = 0;
		q->qw[1] = 0;
		q->qw[2] = 0;
		break;
	}
	qp->sq_wrtrk[idx] = (struct irdma_sq_wrtrk){
		.wr_id = wr->wr_id,
		.wr_len = p->len,
		.quanta = (uint8_t)p->quanta,
		.opcode = p->wc_opcode,
		.signaled = p->signaled,
	};
	irdma_uk_hdr_store(q, p->hdr | IRDMA_PREP(SQ_VALID, pol));
}

/* Posting is allowed in RTS and SQD (the device holds SQD work until RTS). */
static inline bool
irdma_uk_sq_state_ok(const struct irdma_qp *qp)
{
	return qp->hw_state == IRDMA_QP_HW_RTS || qp->hw_state == IRDMA_QP_HW_SQD;
}

uint16_t
irdma_uk_post_send(void *qp_priv, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs, int *err)
{
	struct irdma_qp *qp = qp_priv;
	uint32_t mask = qp->sq.quanta - 1;
	uint32_t head = qp->sq.head;
	uint32_t pol = qp->sq.polarity;
	struct irdma_uk_sq_plan p;
	uint32_t tail, used, room;
	uint16_t i;
	int ret = 0;

	if (unlikely(!irdma_uk_sq_state_ok(qp))) {
		if (nb_wrs != 0) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: post_send in HW state %u (RTS/SQD only)",
				  qp->qp_id, qp->hw_state);
			ret = -EINVAL;
		}
		*err = ret;
		return 0;
	}
	/* acquire: the poller is done with the tracking entries behind its tail */
	tail = __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);
	for (i = 0; i < nb_wrs; i++) {
		const struct rdmadev_send_wr *wr = &wrs[i];
		uint32_t nops;

		ret = irdma_uk_sq_check(qp, wr, &p);
		if (unlikely(ret != 0))
			break;
		/* The chunk rule: a WQE never crosses an 8-quantum boundary. */
		room = IRDMA_SQ_CHUNK_QUANTA - (head & (IRDMA_SQ_CHUNK_QUANTA - 1));
		nops = p.quanta > room ? room : 0;
		used = (head - tail) & mask;
		if (unlikely(used + nops + p.quanta + IRDMA_SQ_FREE_RSVD > qp->sq.quanta)) {
			ret = irdma_uk_refuse(qp, wr, -ENOMEM, "SQ full");
			break;
		}
		for (; nops != 0; nops--) {
			irdma_uk_sq_nop_fill(qp, head, &pol);
			head = (head + 1) & mask;
		}
		irdma_uk_sq_start(qp, head, &pol);
		irdma_uk_sq_write(qp, wr, &p, head, pol);
		head = (head + p.quanta) & mask;
	}
	*err = ret;
	if (likely(head != qp->sq.head)) {
		qp->sq.polarity = (uint8_t)pol;
		/* release: the tracking entries before the poller can see the new head */
		__atomic_store_n(&qp->sq.head, head, __ATOMIC_RELEASE);
		/* One doorbell for the burst; irdma_wr32 orders the WQE stores before it. */
		irdma_wr32(qp->hw, qp->db_off, qp->qp_id);
	}
	return i;
}

/* ---- receive ---- */

/* Receive posting is allowed from INIT on, up to and including SQD. */
static inline bool
irdma_uk_rq_state_ok(const struct irdma_qp *qp)
{
	return qp->hw_state == IRDMA_QP_HW_IDLE || qp->hw_state == IRDMA_QP_HW_RTR ||
	       qp->hw_state == IRDMA_QP_HW_RTS || qp->hw_state == IRDMA_QP_HW_SQD;
}

uint16_t
irdma_uk_post_recv(void *qp_priv, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs, int *err)
{
	struct irdma_qp *qp = qp_priv;
	uint32_t mask = qp->rq.quanta - 1;
	uint32_t step = 1u << qp->rq.shift;
	uint32_t head = qp->rq.head;
	uint32_t pol = qp->rq.polarity;
	uint32_t tail;
	uint16_t i;
	int ret = 0;

	if (unlikely(!irdma_uk_rq_state_ok(qp))) {
		if (nb_wrs != 0) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: post_recv in HW state %u (INIT..SQD only)",
				  qp->qp_id, qp->hw_state);
			ret = -EINVAL;
		}
		*err = ret;
		return 0;
	}
	tail = __atomic_load_n(&qp->rq.tail, __ATOMIC_ACQUIRE);
	for (i = 0; i < nb_wrs; i++) {
		const struct rdmadev_recv_wr *wr = &wrs[i];
		struct irdma_quantum *q;

		if (unlikely(wr->num_sge > qp->max_recv_sge)) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: recv WR 0x%" PRIx64 " refused: %u SGEs, "
				  "max_recv_sge %u", qp->qp_id, wr->wr_id, wr->num_sge,
				  qp->max_recv_sge);
			ret = -EINVAL;
			break;
		}
		/* One WQE stays free: a full ring must not look empty. */
		if (unlikely(((head - tail) & mask) + 2 * step > qp->rq.quanta)) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: recv WR 0x%" PRIx64 " refused: RQ full",
				  qp->qp_id, wr->wr_id);
			ret = -ENOMEM;
			break;
		}
		if (head == 0)
			pol ^= 1;
		q = (struct irdma_quantum *)(void *)(qp->rq.base + (size_t)head *
						     IRDMA_QUANTUM_SIZE);
		irdma_uk_frags((uint8_t *)q, wr->sg_list, wr->num_sge, false,
			       IRDMA_PREP(FRAG_VALID, pol));
		q->qw[2] = 0;
		qp->rq_wrid[head >> qp->rq.shift] = wr->wr_id;
		irdma_uk_hdr_store(q, IRDMA_PREP(RQ_ADDFRAGCNT,
						 irdma_addfragcnt(wr->num_sge, qp->gen == 2)) |
				      IRDMA_PREP(RQ_VALID, pol));
		head = (head + step) & mask;
	}
	*err = ret;
	/* No RQ doorbell: the device finds the WQEs by their valid bits (§2). */
	qp->rq.polarity = (uint8_t)pol;
	__atomic_store_n(&qp->rq.head, head, __ATOMIC_RELEASE);
	return i;
}
