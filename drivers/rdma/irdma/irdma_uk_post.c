/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The posting half of the data path: SQ WQEs (doc/hardware.md §1) and RQ WQEs (§2) built from
 * rdmadev work requests, one doorbell per burst (§4).
 *
 * Which WR takes which path. The variant is chosen when the QP is made and at every change
 * of its hardware state (irdma_uk_qp_select(), from irdma_qp_hw_state_set()) and stored in
 * qp->post_send; irdma_uk_post_send() only calls it:
 *
 *   QP                                qp->post_send
 *   gen2 RC, RTS or SQD           ->  irdma_uk_post_rc
 *   gen3 RC or UD, RTS or SQD     ->  irdma_uk_post_any
 *   ERROR, with a send CQ         ->  irdma_uk_post_flushed   written, not rung; the driver
 *                                                             completes them (WR_FLUSH_ERR)
 *   any other state               ->  irdma_uk_post_refused   -EINVAL, or -EIO when FATAL
 *
 *   irdma_uk_post_rc, per call:
 *     1 WR, SEND / WRITE, 1 SGE, no imm, not inline  ->  irdma_uk_post_frags (nsge 1, no imm)
 *     1 WR, SEND* / WRITE*, inline                   ->  irdma_uk_post_one_inline
 *     anything else, or what those do not place      ->  irdma_uk_post_burst, per WR:
 *         SEND* / WRITE*, fragments or inline, no start work due, room in the ring
 *                                                    ->  irdma_uk_post_frags / _fast_inline
 *         every other WR (READ, LOCAL_INV, FAST_REG, NOP, SEND_INV, a chunk NOP or start
 *         work due, a WR to refuse, a full ring)    ->  irdma_uk_post_general
 *   irdma_uk_post_any and irdma_uk_post_flushed, per WR  ->  irdma_uk_post_general
 *
 * Every path builds a SEND / WRITE header with irdma_uk_sw_hdr() (send templates too: their
 * plan is irdma_uk_sq_check()'s).
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
#ifdef RTE_ARCH_X86
#include <rte_cpuflags.h>
#include <rte_vect.h>
#endif

#include <rdmadev_driver.h>

#include "irdma_log.h"
#include "irdma_mr.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

/** Byte value that reads as "not valid" for polarity @p pol (every bit the inverse). */
#define IRDMA_UK_INVALID_FILL(pol)	((pol) ? 0x00 : 0xff)

/* sq_sig_all is 1 or 0: OR-ing it into the flags must mean "signaled". */
_Static_assert(RDMADEV_SEND_SIGNALED == 1, "sq_sig_all doubles as RDMADEV_SEND_SIGNALED");

/*
 * Header bit @p F (one bit) set when flag @p flag (one bit) is set in @p v: one left shift
 * (every RDMADEV_SEND_* flag sits below the header bit it maps to).
 */
#define IRDMA_UK_FLAG_BIT(v, flag, F) \
	((uint64_t)((v) & (flag)) << (IRDMA_FIELD_SHIFT(F) - (unsigned int)__builtin_ctz(flag)))
_Static_assert(RDMADEV_SEND_FENCE < RTE_BIT64(IRDMA_F_SQ_READFENCE_LO) &&
	       RDMADEV_SEND_LOCAL_FENCE < RTE_BIT64(IRDMA_F_SQ_LOCALFENCE_LO) &&
	       RDMADEV_SEND_SIGNALED < RTE_BIT64(IRDMA_F_SQ_SIGCOMPL_LO),
	       "flags map to header bits by left shifts");

/* What the check of a send WR found: everything the writer needs besides the WR. */
struct irdma_uk_sq_plan {
	uint64_t hdr;		/* header without VALID */
	uint64_t qw2;		/* FRAGS / INLINE: qword 2 (remote VA or UD destination) */
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
	IRDMA_UK_ATOMIC,	/* gen3: 2 quanta, local SGE, remote TO, operands in quantum 1 */
	IRDMA_UK_BIND_MW,	/* gen3: window VA, parent / window keys, length */
};

static inline struct irdma_quantum *
irdma_uk_sq_quantum(const struct irdma_qp *qp, uint32_t idx)
{
	return (struct irdma_quantum *)(void *)(qp->sq.base + (size_t)idx * IRDMA_QUANTUM_SIZE);
}

uint64_t
irdma_uk_sge_total(const struct rdmadev_sge *sg, uint32_t n)
{
	uint64_t len = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		len += sg[i].length;
	return len;
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
static inline uint32_t
irdma_uk_frags(uint8_t *w, const struct rdmadev_sge *sg, uint32_t nsge, bool imm_slot,
	       uint64_t valid)
{
	uint32_t frag_cnt = nsge + (imm_slot ? 1 : 0);
	uint32_t i = 0, len = 0;
	uint8_t *at;

	if (imm_slot) {
		((rte_le64_t *)(void *)w)[1] = 0;
	} else if (nsge != 0) {
		len = sg[0].length;
		irdma_uk_frag(w, &sg[i++], valid);
	} else {
		irdma_uk_frag_null(w, valid);
	}
	for (at = w + IRDMA_FRAG1_OFFSET; i < nsge; i++, at += IRDMA_FRAG_SIZE) {
		len += sg[i].length;
		irdma_uk_frag(at, &sg[i], valid);
	}
	if (irdma_frag_needs_pad(frag_cnt))
		irdma_uk_frag_null(at, valid);
	return len;
}

/*
 * Copy @p n (< 32) bytes with fixed-size, possibly overlapping moves (no call to a
 * variable-length memcpy on the hot path). Only bytes [0, n) of @p dst are written.
 */
static __rte_always_inline void
irdma_uk_copy_small(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	if (n >= 16) {
		memcpy(dst, src, 16);
		memcpy(dst + n - 16, src + n - 16, 16);
	} else if (n >= 8) {
		memcpy(dst, src, 8);
		memcpy(dst + n - 8, src + n - 8, 8);
	} else if (n >= 4) {
		memcpy(dst, src, 4);
		memcpy(dst + n - 4, src + n - 4, 4);
	} else if (n != 0) {
		/*
		 * 1..3 bytes: the first, then the last two (overlapping for 2). A byte loop
		 * here became a variable-length rep movsb in the general path.
		 */
		dst[0] = src[0];
		if (n > 1)
			memcpy(dst + n - 2, src + n - 2, 2);
	}
}

/* Copy @p len bytes from @p src to the gen2 inline layout of the WQE at @p w (§1.6). */
static inline void
irdma_uk_inline_place(uint8_t *w, const uint8_t *src, uint32_t len, uint8_t valid_byte)
{
	uint8_t *dst = w + IRDMA_QUANTUM_SIZE;

	if (len < IRDMA_INLINE_Q0_BYTES) {
		irdma_uk_copy_small(w + IRDMA_INLINE_Q0_OFFSET, src, len);
		return;
	}
	memcpy(w + IRDMA_INLINE_Q0_OFFSET, src, IRDMA_INLINE_Q0_BYTES);
	src += IRDMA_INLINE_Q0_BYTES;
	len -= IRDMA_INLINE_Q0_BYTES;
	while (len >= IRDMA_INLINE_QN_BYTES) {
		memcpy(dst, src, IRDMA_INLINE_QN_BYTES);
		dst[IRDMA_INLINE_VALID_BYTE] = valid_byte;
		dst += IRDMA_QUANTUM_SIZE;
		src += IRDMA_INLINE_QN_BYTES;
		len -= IRDMA_INLINE_QN_BYTES;
	}
	if (len != 0) {
		irdma_uk_copy_small(dst, src, len);
		dst[IRDMA_INLINE_VALID_BYTE] = valid_byte;
	}
}

/* Gen2 quanta of @p len (<= IRDMA_MAX_INLINE) inline bytes: <= 8, 39, 70, 101 (§1.6). */
static __rte_always_inline uint32_t
irdma_uk_inline_quanta(uint32_t len)
{
	return 1 + (len > IRDMA_INLINE_Q0_BYTES) +
	       (len > IRDMA_INLINE_Q0_BYTES + IRDMA_INLINE_QN_BYTES) +
	       (len > IRDMA_INLINE_Q0_BYTES + 2 * IRDMA_INLINE_QN_BYTES);
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

/* The SEND / WRITE opcodes: SEND, SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM (every path's header). */
struct irdma_uk_fast_op {
	uint64_t hdr[2];	/* OPCODE (plain, solicited) | IMMDATAFLAG */
	int32_t remote;		/* -1: REMSTAG = rkey, qword 2 = remote VA (a WRITE); 0 */
	uint8_t wc_opcode;	/* enum rdmadev_wc_opcode */
	uint8_t imm;		/* immediate in fragment slot 0 */
	uint8_t ok;		/* 1: one of the four (the fast writers take it) */
};

#define IRDMA_UK_FAST_OP(op, sol_op, imm_, remote_, wc) { \
	.hdr = { IRDMA_PREP(SQ_OPCODE, op) | IRDMA_PREP(SQ_IMMDATAFLAG, imm_), \
		 IRDMA_PREP(SQ_OPCODE, sol_op) | IRDMA_PREP(SQ_IMMDATAFLAG, imm_) }, \
	.wc_opcode = (wc), .imm = (imm_), .remote = (remote_) ? -1 : 0, .ok = 1 }

static const struct irdma_uk_fast_op irdma_uk_fast_ops[RDMADEV_WR_OPCODE_MAX] = {
	[RDMADEV_WR_SEND] = IRDMA_UK_FAST_OP(IRDMA_OP_RDMA_SEND, IRDMA_OP_RDMA_SEND_SOL_EVENT, 0,
					     0, RDMADEV_WC_SEND),
	[RDMADEV_WR_SEND_IMM] = IRDMA_UK_FAST_OP(IRDMA_OP_RDMA_SEND, IRDMA_OP_RDMA_SEND_SOL_EVENT,
						 1, 0, RDMADEV_WC_SEND),
	[RDMADEV_WR_RDMA_WRITE] = IRDMA_UK_FAST_OP(IRDMA_OP_RDMA_WRITE, IRDMA_OP_RDMA_WRITE_SOL, 0,
						   1, RDMADEV_WC_RDMA_WRITE),
	[RDMADEV_WR_RDMA_WRITE_IMM] = IRDMA_UK_FAST_OP(IRDMA_OP_RDMA_WRITE,
						       IRDMA_OP_RDMA_WRITE_SOL, 1, 1,
						       RDMADEV_WC_RDMA_WRITE),
};

/* Header bits of the WR flags: read fence, local fence, signaled (index: flags & 31). */
#define IRDMA_UK_FLAG_MASK	31u
static const uint64_t irdma_uk_flag_hdr[IRDMA_UK_FLAG_MASK + 1] = {
#define IRDMA_UK_FH(f) [f] = IRDMA_UK_FLAG_BIT(f, RDMADEV_SEND_FENCE, SQ_READFENCE) | \
			    IRDMA_UK_FLAG_BIT(f, RDMADEV_SEND_LOCAL_FENCE, SQ_LOCALFENCE) | \
			    IRDMA_UK_FLAG_BIT(f, RDMADEV_SEND_SIGNALED, SQ_SIGCOMPL)
	IRDMA_UK_FH(0), IRDMA_UK_FH(1), IRDMA_UK_FH(2), IRDMA_UK_FH(3), IRDMA_UK_FH(4),
	IRDMA_UK_FH(5), IRDMA_UK_FH(6), IRDMA_UK_FH(7), IRDMA_UK_FH(8), IRDMA_UK_FH(9),
	IRDMA_UK_FH(10), IRDMA_UK_FH(11), IRDMA_UK_FH(12), IRDMA_UK_FH(13), IRDMA_UK_FH(14),
	IRDMA_UK_FH(15), IRDMA_UK_FH(16), IRDMA_UK_FH(17), IRDMA_UK_FH(18), IRDMA_UK_FH(19),
	IRDMA_UK_FH(20), IRDMA_UK_FH(21), IRDMA_UK_FH(22), IRDMA_UK_FH(23), IRDMA_UK_FH(24),
	IRDMA_UK_FH(25), IRDMA_UK_FH(26), IRDMA_UK_FH(27), IRDMA_UK_FH(28), IRDMA_UK_FH(29),
	IRDMA_UK_FH(30), IRDMA_UK_FH(31),
#undef IRDMA_UK_FH
};

/* ADDFRAGCNT of 0..15 fragments on gen2 (the NULL pad counted). */
static const uint64_t irdma_uk_addfrag[IRDMA_WQE_MAX_FRAGS + 1] = {
#define IRDMA_UK_AF(n) [n] = IRDMA_PREP(SQ_ADDFRAGCNT, ((n) > 1 ? (n) - 1 : 0) + \
					((n) != 0 && ((n) & 1) == 0))
	IRDMA_UK_AF(0), IRDMA_UK_AF(1), IRDMA_UK_AF(2), IRDMA_UK_AF(3), IRDMA_UK_AF(4),
	IRDMA_UK_AF(5), IRDMA_UK_AF(6), IRDMA_UK_AF(7), IRDMA_UK_AF(8), IRDMA_UK_AF(9),
	IRDMA_UK_AF(10), IRDMA_UK_AF(11), IRDMA_UK_AF(12), IRDMA_UK_AF(13), IRDMA_UK_AF(14),
	IRDMA_UK_AF(15),
#undef IRDMA_UK_AF
};

/*
 * The header of a SEND, SEND_IMM, RDMA_WRITE or RDMA_WRITE_IMM, for every path (general,
 * fast, templates): OPCODE (plain or solicited) and IMMDATAFLAG from @p f, the fences and
 * SIGCOMPL from @p flags, REMSTAG @p rkey for a WRITE. Without VALID and the data part
 * (ADDFRAGCNT, or INLINEDATAFLAG and INLINEDATALEN) and, for UD, AHID.
 */
static __rte_always_inline uint64_t
irdma_uk_sw_hdr(const struct irdma_uk_fast_op *f, uint32_t flags, uint32_t rkey)
{
	return f->hdr[(flags / RDMADEV_SEND_SOLICITED) & 1] |
	       irdma_uk_flag_hdr[flags & IRDMA_UK_FLAG_MASK] |
	       IRDMA_PREP(SQ_REMSTAG, rkey & (uint32_t)f->remote);
}

/* ---- checking a send WR ---- */

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

/* Log why @p wr is refused (the error path only) and return @p err. */
static __rte_noinline __rte_cold int
irdma_uk_refuse(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr, int err,
		const char *why)
{
	IRDMA_LOG(ERR, qp->hw, "QP %u: send WR 0x%" PRIx64 " (opcode %u) refused: %s", qp->qp_id,
		  wr->wr_id, wr->opcode, why);
	return err;
}

/* SEND* / WRITE*: the data part, fragments or inline. */
static __rte_always_inline int
irdma_uk_check_data(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		    struct irdma_uk_sq_plan *p)
{
	uint64_t len;
	uint32_t i;

	if (unlikely(wr->num_sge > qp->max_send_sge))
		return irdma_uk_refuse(qp, wr, -EINVAL, "more SGEs than the QP's max_send_sge");
	len = irdma_uk_sge_total(wr->sg_list, wr->num_sge);
	if (unlikely(len > IRDMA_MAX_MSG_SIZE))
		return irdma_uk_refuse(qp, wr, -EINVAL,
				       "SGEs longer in all than a message can be (2^31 - 1 bytes)");
	p->len = (uint32_t)len;
	if (wr->flags & RDMADEV_SEND_INLINE) {
		if (unlikely(len > qp->max_inline || len > IRDMA_MAX_INLINE))
			return irdma_uk_refuse(qp, wr, -EINVAL,
					       "inline data longer than the QP's max_inline_data");
		p->kind = IRDMA_UK_INLINE;
		p->quanta = irdma_uk_inline_quanta((uint32_t)len);
		p->hdr |= IRDMA_PREP(SQ_INLINEDATAFLAG, 1) | IRDMA_PREP(SQ_INLINEDATALEN, len);
		return 0;
	}
	p->kind = IRDMA_UK_FRAGS;
	i = wr->num_sge + p->imm;
	p->quanta = irdma_sq_frags_to_quanta(i);
	p->hdr |= IRDMA_PREP(SQ_ADDFRAGCNT, irdma_addfragcnt(i, qp->gen == 2));
	return 0;
}

static __rte_always_inline int
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
	if ((wr->fast_reg.access & RDMADEV_ACCESS_REMOTE_ATOMIC) && qp->gen < IRDMA_GEN_3)
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
		  IRDMA_PREP(SQ_REMOTE_ATOMICS_EN,
			     (wr->fast_reg.access & RDMADEV_ACCESS_REMOTE_ATOMIC) ? 1 : 0) |
		  IRDMA_PREP(SQ_VABASEDTO, 1);
	return 0;
}

/*
 * ATOMIC_FA / ATOMIC_CS (gen3, doc/hardware.md §1.5): one 8-byte local SGE for the original value,
 * an 8-byte aligned remote address; 2 quanta, ADDFRAGCNT 1, the rkey in REMSTAG.
 */
static __rte_noinline int
irdma_uk_check_atomic(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		      struct irdma_uk_sq_plan *p)
{
	bool fa = wr->opcode == RDMADEV_WR_ATOMIC_FA;

	if (qp->gen < IRDMA_GEN_3)
		return irdma_uk_refuse(qp, wr, -ENOTSUP, "atomics are gen3 only");
	if (wr->num_sge != 1 || wr->sg_list == NULL || wr->sg_list[0].length != sizeof(uint64_t))
		return irdma_uk_refuse(qp, wr, -EINVAL, "an atomic takes one SGE of 8 bytes");
	if (wr->atomic.remote_addr & (sizeof(uint64_t) - 1))
		return irdma_uk_refuse(qp, wr, -EINVAL, "atomic remote address not 8-byte aligned");
	/* SOLICITED means nothing to an atomic (verbs ignores it); INLINE cannot apply. */
	if (wr->flags & RDMADEV_SEND_INLINE)
		return irdma_uk_refuse(qp, wr, -EINVAL, "an atomic cannot be inline");
	p->kind = IRDMA_UK_ATOMIC;
	p->quanta = 2;
	p->len = sizeof(uint64_t);
	p->wc_opcode = fa ? RDMADEV_WC_FETCH_ADD : RDMADEV_WC_COMP_SWAP;
	p->hdr |= IRDMA_PREP(SQ_OPCODE, fa ? IRDMA_OP_ATOMIC_FETCH_ADD :
					      IRDMA_OP_ATOMIC_COMPARE_SWAP) |
		  IRDMA_PREP(SQ_REMSTAG, wr->atomic.rkey) |
		  IRDMA_PREP(SQ_ADDFRAGCNT, 1);
	return 0;
}

/* Window rights a bind may grant (verbs: remote rights only). */
#define IRDMA_UK_MW_ACCESS (RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_WRITE | \
			    RDMADEV_ACCESS_REMOTE_ATOMIC)

/*
 * BIND_MW (gen3 type-2 window, doc/hardware.md §1.5): the window's new rkey keeps its index; the
 * device checks the region (bind right, bounds, PD) and completes with MW_BIND_ERR.
 */
static __rte_noinline int
irdma_uk_check_bind_mw(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		       struct irdma_uk_sq_plan *p)
{
	const struct rdmadev_mw *mw = wr->bind_mw.mw;
	uint32_t acc = wr->bind_mw.access;

	if (qp->gen < IRDMA_GEN_3)
		return irdma_uk_refuse(qp, wr, -ENOTSUP, "memory windows are gen3 only");
	if (mw == NULL || wr->bind_mw.mr == NULL)
		return irdma_uk_refuse(qp, wr, -EINVAL, "BIND_MW without a window or a region");
	if ((wr->bind_mw.rkey >> IRDMA_STAG_KEY_BITS) != (mw->rkey >> IRDMA_STAG_KEY_BITS))
		return irdma_uk_refuse(qp, wr, -EINVAL, "BIND_MW rkey is not the window's index");
	if (wr->bind_mw.length == 0 || (acc & ~(uint32_t)IRDMA_UK_MW_ACCESS) != 0)
		return irdma_uk_refuse(qp, wr, -EINVAL,
				       "BIND_MW of length 0 or with rights other than remote");
	p->kind = IRDMA_UK_BIND_MW;
	p->quanta = 1;
	p->wc_opcode = RDMADEV_WC_BIND_MW;
	p->hdr |= IRDMA_PREP(SQ_OPCODE, IRDMA_OP_BIND_MW) |
		  IRDMA_PREP(SQ_STAGRIGHTS,
			     ((acc & RDMADEV_ACCESS_REMOTE_READ) ? IRDMA_ACCESS_REMOTE_READ : 0) |
			     ((acc & RDMADEV_ACCESS_REMOTE_WRITE) ? IRDMA_ACCESS_REMOTE_WRITE : 0)) |
		  IRDMA_PREP(SQ_REMOTE_ATOMICS_EN, (acc & RDMADEV_ACCESS_REMOTE_ATOMIC) ? 1 : 0) |
		  IRDMA_PREP(SQ_VABASEDTO, 1) |
		  IRDMA_PREP(SQ_MEMWINDOWTYPE, 0);
	return 0;
}

/*
 * Check @p wr against the QP and plan its WQE (header bits, quanta, tracking). Nothing is
 * written. @return 0, -EINVAL or -ENOTSUP (logged).
 */
static __rte_always_inline int
irdma_uk_sq_check(const struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		  struct irdma_uk_sq_plan *p)
{
	bool sol = (wr->flags & RDMADEV_SEND_SOLICITED) != 0;

	p->signaled = (uint8_t)((wr->flags | qp->sq_sig_all) & RDMADEV_SEND_SIGNALED);
	p->hdr = IRDMA_UK_FLAG_BIT(wr->flags, RDMADEV_SEND_FENCE, SQ_READFENCE) |
		 IRDMA_UK_FLAG_BIT(wr->flags, RDMADEV_SEND_LOCAL_FENCE, SQ_LOCALFENCE) |
		 IRDMA_UK_FLAG_BIT(p->signaled, RDMADEV_SEND_SIGNALED, SQ_SIGCOMPL);
	p->imm = 0;
	p->len = 0;
	p->qw2 = irdma_uk_qw2(qp, wr);
	p->quanta = 1;
	p->kind = IRDMA_UK_FRAGS;
	p->wc_opcode = RDMADEV_WC_SEND;
	if (unlikely(qp->qp_type == IRDMA_QP_TYPE_ROCE_UD && wr->opcode != RDMADEV_WR_SEND &&
		     wr->opcode != RDMADEV_WR_SEND_IMM))
		return irdma_uk_refuse(qp, wr, -EINVAL, "a UD QP only sends");
	switch (wr->opcode) {
	case RDMADEV_WR_RDMA_WRITE_IMM:
	case RDMADEV_WR_RDMA_WRITE:
	case RDMADEV_WR_SEND_IMM:
	case RDMADEV_WR_SEND: {
		const struct irdma_uk_fast_op *f = &irdma_uk_fast_ops[wr->opcode];

		p->imm = f->imm;
		p->wc_opcode = f->wc_opcode;
		p->hdr = irdma_uk_sw_hdr(f, wr->flags | qp->sq_sig_all, wr->rdma.rkey);
		if (!f->remote && qp->qp_type == IRDMA_QP_TYPE_ROCE_UD) {
			if (unlikely(wr->ud.ah == NULL))
				return irdma_uk_refuse(qp, wr, -EINVAL, "UD send without an AH");
			p->hdr |= IRDMA_PREP(SQ_AHID, wr->ud.ah->ah_id);
		}
		return irdma_uk_check_data(qp, wr, p);
	}
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
		if (unlikely(irdma_uk_sge_total(wr->sg_list, wr->num_sge) > IRDMA_MAX_MSG_SIZE))
			return irdma_uk_refuse(qp, wr, -EINVAL, "READ into SGEs longer in all "
					       "than a message can be (2^31 - 1 bytes)");
		p->wc_opcode = RDMADEV_WC_RDMA_READ;
		p->kind = IRDMA_UK_FRAGS;
		p->len = (uint32_t)irdma_uk_sge_total(wr->sg_list, wr->num_sge);
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
		/* doc/hardware.md's NOP carries OPCODE, SIGCOMPL and VALID only. */
		p->hdr = IRDMA_PREP(SQ_OPCODE, IRDMA_OP_NOP) | IRDMA_PREP(SQ_SIGCOMPL, p->signaled);
		return 0;
	case RDMADEV_WR_ATOMIC_FA:
	case RDMADEV_WR_ATOMIC_CS:
		return irdma_uk_check_atomic(qp, wr, p);
	case RDMADEV_WR_BIND_MW:
		return irdma_uk_check_bind_mw(qp, wr, p);
	default:
		return irdma_uk_refuse(qp, wr, -EINVAL, "unknown opcode");
	}
}

/* ---- writing ---- */

/* Two qwords, stored as one 16-byte vector store where the CPU has them. */
typedef uint64_t irdma_uk_v2 __attribute__((vector_size(16), aligned(16)));

#ifdef RTE_ARCH_X86
/* Four qwords, one 32-byte store (AVX2). */
typedef uint64_t irdma_uk_v4 __attribute__((vector_size(32), aligned(32)));

/* The CPU has AVX2 (set once, at start-up). */
static bool irdma_uk_cpu_avx2;

RTE_INIT(irdma_uk_fill_init)
{
	irdma_uk_cpu_avx2 = rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0;
}

/* irdma_uk_fill with 32-byte stores: half the stores, which is what the fill costs. */
static __attribute__((target("avx2"))) void
irdma_uk_fill_avx2(struct irdma_quantum *q, uint8_t fill)
{
	irdma_uk_v4 v = { fill ? UINT64_MAX : 0, fill ? UINT64_MAX : 0,
			  fill ? UINT64_MAX : 0, fill ? UINT64_MAX : 0 };
	irdma_uk_v4 *p = (irdma_uk_v4 *)(void *)q;
	uint32_t i;

	/* two cache lines an iteration */
	for (i = 0; i < IRDMA_SQ_CLR_STRIDE * IRDMA_QUANTUM_SIZE / sizeof(v); i += 4) {
		p[i] = v;
		p[i + 1] = v;
		p[i + 2] = v;
		p[i + 3] = v;
	}
}
#endif

/*
 * Fill IRDMA_SQ_CLR_STRIDE quanta at @p q with byte @p fill, 16 bytes a store, or 32 where
 * the CPU has AVX2 and EAL allows 256-bit vectors (memset would do the same; this keeps the
 * stores wide whatever the libc, and lets callgrind count the real work rather than a
 * rep-prefixed byte loop).
 */
static void
irdma_uk_fill(struct irdma_quantum *q, uint8_t fill)
{
	irdma_uk_v2 v = { fill ? UINT64_MAX : 0, fill ? UINT64_MAX : 0 };
	irdma_uk_v2 *p = (irdma_uk_v2 *)(void *)q;
	uint32_t i;

#ifdef RTE_ARCH_X86
	if (irdma_uk_cpu_avx2) {
		/* 0: EAL not initialised (test programs), no limit set */
		uint16_t simd = rte_vect_get_max_simd_bitwidth();

		if (simd == 0 || simd >= RTE_VECT_SIMD_256) {
			irdma_uk_fill_avx2(q, fill);
			return;
		}
	}
#endif

	/* two cache lines an iteration */
	for (i = 0; i < IRDMA_SQ_CLR_STRIDE * IRDMA_QUANTUM_SIZE / sizeof(v); i += 8) {
		p[i] = v;
		p[i + 1] = v;
		p[i + 2] = v;
		p[i + 3] = v;
		p[i + 4] = v;
		p[i + 5] = v;
		p[i + 6] = v;
		p[i + 7] = v;
	}
}

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
	irdma_uk_fill(irdma_uk_sq_quantum(qp, ahead),
		      ahead != 0 ? IRDMA_UK_INVALID_FILL(*pol) : IRDMA_UK_INVALID_FILL(!*pol));
}

void
irdma_uk_sq_track_init(struct irdma_qp *qp)
{
	uint32_t i;

	for (i = 0; i < qp->sq.quanta; i++)
		qp->sq_wrtrk[i].qp_num = qp->qp_id;
}

/* Fill a tracking entry (field by field, never imm and qp_num: no temporary). */
static inline void
irdma_uk_track(struct irdma_sq_wrtrk *t, uint64_t wr_id, uint32_t len, uint32_t quanta,
	       uint32_t next, uint8_t opcode, uint8_t signaled, uint8_t nop)
{
	t->wr_id = wr_id;
	t->nop = nop;
	t->opcode = opcode;
	t->rsvd = 0;
	t->wr_len = len;
	t->next = (uint16_t)next;
	t->quanta = (uint8_t)quanta;
	t->signaled = signaled;
}

/* Write the header qword after the body: the device may consume the WQE from then on. */
static inline void
irdma_uk_hdr_store(struct irdma_quantum *q, uint64_t hdr)
{
	rte_io_wmb();
	irdma_qw_store(q, QUANTUM_VALID, hdr);
}

/*
 * The chunk filler (irdma_nop_1): a 1-quantum unsignaled NOP at @p idx with polarity @p pol,
 * tracked as nop. The caller did the WQE's start work (irdma_uk_sq_start) if it is due.
 */
static __rte_always_inline void
irdma_uk_nop_write(struct irdma_qp *qp, uint32_t idx, uint32_t pol)
{
	struct irdma_quantum *q = irdma_uk_sq_quantum(qp, idx);

	q->qw[0] = 0;
	q->qw[1] = 0;
	q->qw[2] = 0;
	irdma_uk_track(&qp->sq_wrtrk[idx], 0, 0, 1, (idx + 1) & (qp->sq.quanta - 1),
		       RDMADEV_WC_NOP, 0, 1);
	irdma_uk_hdr_store(q, IRDMA_PREP(SQ_OPCODE, IRDMA_OP_NOP) | IRDMA_PREP(SQ_VALID, pol));
}

/* The chunk filler with the start work of its index (polarity flip, pre-invalidation). */
static void
irdma_uk_sq_nop_fill(struct irdma_qp *qp, uint32_t idx, uint32_t *pol)
{
	irdma_uk_sq_start(qp, idx, pol);
	irdma_uk_nop_write(qp, idx, *pol);
}

/*
 * Where the fast paths put a WQE of @p quanta that would start at @p at (the chunk rule): at
 * @p at, or at the next 8-quantum boundary after 1-quantum NOPs, which this writes (polarity
 * from @p hdr_burst). @return that index, or UINT32_MAX, with nothing written, when the fast
 * path cannot place the WQE: @p at or that boundary is an index with start work (a multiple
 * of IRDMA_SQ_CLR_STRIDE, 0 included), or the ring has no room for the NOPs and the WQE.
 */
static __rte_always_inline uint32_t
irdma_uk_fast_place(struct irdma_qp *qp, uint32_t at, uint32_t quanta, uint32_t tail,
		    uint64_t hdr_burst)
{
	uint32_t mask = qp->sq.quanta - 1, nops = 0;

	if (unlikely((at & (IRDMA_SQ_CHUNK_QUANTA - 1)) + quanta > IRDMA_SQ_CHUNK_QUANTA)) {
		nops = IRDMA_SQ_CHUNK_QUANTA - (at & (IRDMA_SQ_CHUNK_QUANTA - 1));
		if ((((at + nops) & mask) & (IRDMA_SQ_CLR_STRIDE - 1)) == 0)
			return UINT32_MAX;
	}
	if (unlikely((at & (IRDMA_SQ_CLR_STRIDE - 1)) == 0 ||
		     ((at - tail) & mask) + nops + quanta + IRDMA_SQ_FREE_RSVD > mask + 1))
		return UINT32_MAX;
	if (unlikely(nops != 0))
		for (; nops != 0; nops--, at++)
			irdma_uk_nop_write(qp, at, (uint32_t)IRDMA_GET(SQ_VALID, hdr_burst));
	return at;
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

/*
 * Body of an ATOMIC (2 quanta): local SGE and remote TO in quantum 0, the operands in
 * quantum 1 (qw4: add or swap, qw5: 0 or compare), whose qw7 carries only the valid bit.
 */
static __rte_noinline void
irdma_uk_atomic(struct irdma_quantum *q, const struct rdmadev_send_wr *wr, uint32_t pol)
{
	struct irdma_wqe *w = (struct irdma_wqe *)(void *)q;
	bool fa = wr->opcode == RDMADEV_WR_ATOMIC_FA;

	q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_LOCAL_TO, wr->sg_list[0].addr));
	q->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_LOCAL_STAG, wr->sg_list[0].lkey));
	q->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_REMOTE_TO, wr->atomic.remote_addr));
	w->qw[4] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_SWAP_ADD,
					       fa ? wr->atomic.compare_add : wr->atomic.swap));
	w->qw[5] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_COMPARE,
					       fa ? 0 : wr->atomic.compare_add));
	w->qw[6] = 0;
	w->qw[7] = rte_cpu_to_le_64(IRDMA_PREP(SQ_ATOM_Q1_VALID, pol));
}

/*
 * Body of a BIND_MW; the window's handle takes the new rkey from this WR on, and counts as
 * bound to the region (before the header: the device may bind as soon as it sees it) unless
 * it is bound already; a failed or flushed bind undoes that at poll (@p t's pad).
 */
static __rte_noinline void
irdma_uk_bind_mw(struct irdma_quantum *q, const struct rdmadev_send_wr *wr,
		 struct irdma_sq_wrtrk *t)
{
	q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_BIND_VA, wr->bind_mw.addr));
	q->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(SQ_BIND_PARENT_STAG, wr->bind_mw.mr->rkey) |
				    IRDMA_PREP(SQ_BIND_MW_STAG, wr->bind_mw.rkey));
	q->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(SQ_BIND_LEN, wr->bind_mw.length));
	/* relaxed atomic: the control path and other pollers read it (windows' bookkeeping) */
	__atomic_store_n(&wr->bind_mw.mw->rkey, wr->bind_mw.rkey, __ATOMIC_RELAXED);
	/* A bound type-2 window cannot bind again (the device refuses): it stays where it is. */
	t->pad = 0;
	if (__atomic_load_n(&wr->bind_mw.mw->bound_mr, __ATOMIC_ACQUIRE) == NULL) {
		rdmadev_mw_bound(wr->bind_mw.mw, wr->bind_mw.mr);
		t->pad = IRDMA_UK_TRK_MW_BOUND | (wr->bind_mw.rkey >> IRDMA_STAG_KEY_BITS);
	}
}

/*
 * Body of a LOCAL_INV. A window's key: the window counts as bound to nothing from now on (the
 * device may run it at any time), and @p t's pad names the region it was bound to, so that
 * poll binds it again if the LOCAL_INV fails or is flushed. Out of line and cold: rare.
 */
static __rte_noinline __rte_cold void
irdma_uk_local_inv(struct irdma_qp *qp, struct irdma_quantum *q,
		   const struct rdmadev_send_wr *wr, struct irdma_sq_wrtrk *t)
{
	uint32_t mr_idx;

	q->qw[0] = 0;
	q->qw[1] = rte_cpu_to_le_64(IRDMA_PREP(SQ_LINV_STAG, wr->invalidate_rkey));
	q->qw[2] = 0;
	mr_idx = irdma_mw_note_inv(qp->ctrl, wr->invalidate_rkey);
	t->pad = mr_idx != 0 ? IRDMA_UK_TRK_MW_UNBOUND | mr_idx : 0;
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
		q->qw[2] = rte_cpu_to_le_64(p->qw2);
		break;
	case IRDMA_UK_INLINE:
		q->qw[0] = p->imm ? rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA,
							       rte_be_to_cpu_32(wr->imm_data))) : 0;
		q->qw[1] = 0;
		irdma_uk_inline(w, wr, p->len, pol);
		q->qw[2] = rte_cpu_to_le_64(p->qw2);
		break;
	case IRDMA_UK_LOCAL_INV:
		irdma_uk_local_inv(qp, q, wr, &qp->sq_wrtrk[idx]);
		break;
	case IRDMA_UK_FAST_REG:
		irdma_uk_fast_reg(q, wr);
		break;
	case IRDMA_UK_ATOMIC:
		irdma_uk_atomic(q, wr, pol);
		break;
	case IRDMA_UK_BIND_MW:
		irdma_uk_bind_mw(q, wr, &qp->sq_wrtrk[idx]);
		break;
	default:
		q->qw[0] = 0;
		q->qw[1] = 0;
		q->qw[2] = 0;
		break;
	}
	irdma_uk_track(&qp->sq_wrtrk[idx], wr->wr_id, p->len, p->quanta,
		       (idx + p->quanta) & (qp->sq.quanta - 1), p->wc_opcode, p->signaled, 0);
	irdma_uk_hdr_store(q, p->hdr | IRDMA_PREP(SQ_VALID, pol));
}

/*
 * The general path of one send WR: check and plan it, the chunk rule's NOPs, the free-space
 * check, polarity (qp->sq.polarity, updated here) and pre-invalidation, the WQE.
 * @return the new head, or the refusal's negative errno with nothing written.
 */
static __rte_noinline int64_t
irdma_uk_post_general(struct irdma_qp *qp, const struct rdmadev_send_wr *wr, uint32_t head,
		      uint32_t tail)
{
	uint32_t mask = qp->sq.quanta - 1, pol = qp->sq.polarity, room, nops;
	struct irdma_uk_sq_plan p;
	int ret;

	ret = irdma_uk_sq_check(qp, wr, &p);
	if (unlikely(ret != 0))
		return ret;
	/* The chunk rule: a WQE never crosses an 8-quantum boundary. */
	room = IRDMA_SQ_CHUNK_QUANTA - (head & (IRDMA_SQ_CHUNK_QUANTA - 1));
	nops = p.quanta > room ? room : 0;
	if (unlikely(((head - tail) & mask) + nops + p.quanta + IRDMA_SQ_FREE_RSVD >
		     qp->sq.quanta)) {
		/* Back-pressure, not bad input: no error line per refused burst. */
		IRDMA_LOG(DEBUG, qp->hw, "QP %u: send WR 0x%" PRIx64 " waits: SQ full",
			  qp->qp_id, wr->wr_id);
		return -ENOMEM;
	}
	for (; nops != 0; nops--) {
		irdma_uk_sq_nop_fill(qp, head, &pol);
		head = (head + 1) & mask;
	}
	irdma_uk_sq_start(qp, head, &pol);
	irdma_uk_sq_write(qp, wr, &p, head, pol);
	qp->sq.polarity = (uint8_t)pol;
	return (head + p.quanta) & mask;
}

/*
 * The fast path of a one-SGE inline SEND / WRITE (immediate or not): as irdma_uk_post_fast.
 * @return true when it posted @p wr, false to take the general path.
 */
static __rte_always_inline bool
irdma_uk_post_fast_inline(struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
			  const struct irdma_uk_fast_op *f, uint32_t *head, uint64_t hdr_burst,
			  uint32_t tail)
{
	uint32_t flags = wr->flags, h = *head, mask = qp->sq.quanta - 1, quanta, len;
	struct irdma_quantum *q;
	uint64_t hdr;

	if (unlikely(!f->ok || wr->num_sge != 1 || qp->max_send_sge < 1))
		return false;
	len = wr->sg_list[0].length;
	quanta = irdma_uk_inline_quanta(len);
	if (unlikely(len > qp->max_inline))
		return false;
	h = irdma_uk_fast_place(qp, h, quanta, tail, hdr_burst);
	if (unlikely(h == UINT32_MAX))
		return false;
	q = irdma_uk_sq_quantum(qp, h);
	q->qw[0] = f->imm ? rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA,
						      rte_be_to_cpu_32(wr->imm_data))) : 0;
	q->qw[1] = 0;
	irdma_uk_inline_place((uint8_t *)q, (const uint8_t *)(uintptr_t)wr->sg_list[0].addr, len,
			      (uint8_t)(hdr_burst >> (63 - IRDMA_INLINE_VALID_SHIFT)) &
			      (1u << IRDMA_INLINE_VALID_SHIFT));
	q->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(SQ_REMOTE_TO, wr->rdma.remote_addr &
							       (uint64_t)(int64_t)f->remote));
	hdr = hdr_burst | irdma_uk_sw_hdr(f, flags, wr->rdma.rkey) |
	      IRDMA_PREP(SQ_INLINEDATAFLAG, 1) | IRDMA_PREP(SQ_INLINEDATALEN, len);
	*head = (h + quanta) & mask;
	irdma_uk_track(&qp->sq_wrtrk[h], wr->wr_id, len, quanta, *head, f->wc_opcode,
		       (uint8_t)IRDMA_GET(SQ_SIGCOMPL, hdr), 0);
	irdma_uk_hdr_store(q, hdr);
	return true;
}

/*
 * The fast path of a fragment-list SEND / WRITE with @p nsge SGEs, the immediate in fragment
 * slot 0 when @p imm: as irdma_uk_post_fast (the caller checked the opcode and flags; a
 * caller that knows @p nsge and @p imm passes constants, and the compiler drops the rest).
 */
static __rte_always_inline bool
irdma_uk_post_frags(struct irdma_qp *qp, const struct rdmadev_send_wr *wr,
		    const struct irdma_uk_fast_op *f, uint32_t nsge, bool imm, uint32_t *head,
		    uint64_t hdr_burst, uint32_t tail)
{
	uint32_t flags = wr->flags, h = *head, mask = qp->sq.quanta - 1;
	uint32_t frags = nsge + imm, quanta = frags / 2 + 1, len;
	struct irdma_quantum *q;
	uint64_t hdr;

	if (unlikely(!f->ok || nsge > qp->max_send_sge || !irdma_uk_sges_fit(wr->sg_list, nsge)))
		return false;
	h = irdma_uk_fast_place(qp, h, quanta, tail, hdr_burst);
	if (unlikely(h == UINT32_MAX))
		return false;
	q = irdma_uk_sq_quantum(qp, h);
	if (imm)
		q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA, rte_be_to_cpu_32(wr->imm_data)));
	len = irdma_uk_frags((uint8_t *)q, wr->sg_list, nsge, imm,
			     hdr_burst & IRDMA_FIELD_MASK(SQ_VALID));
	q->qw[2] = rte_cpu_to_le_64(IRDMA_PREP(SQ_REMOTE_TO, wr->rdma.remote_addr &
							       (uint64_t)(int64_t)f->remote));
	hdr = hdr_burst | irdma_uk_sw_hdr(f, flags, wr->rdma.rkey) | irdma_uk_addfrag[frags];
	*head = (h + quanta) & mask;
	irdma_uk_track(&qp->sq_wrtrk[h], wr->wr_id, len, quanta, *head, f->wc_opcode,
		       (uint8_t)IRDMA_GET(SQ_SIGCOMPL, hdr), 0);
	irdma_uk_hdr_store(q, hdr);
	return true;
}

/*
 * The fast writers' dispatch: a fragment-list or inline SEND / WRITE (immediate or not) on a
 * gen2 RC QP, placed where no chunk NOP, polarity flip or pre-invalidation is due and with
 * room in the ring. Same bytes as the general path, with table lookups instead of branches.
 * @return true when it posted @p wr (*head moved on), false to take the general path.
 */
static __rte_always_inline bool
irdma_uk_post_fast(struct irdma_qp *qp, const struct rdmadev_send_wr *wr, uint32_t *head,
		   uint64_t hdr_burst, uint32_t tail)
{
	uint32_t op = wr->opcode;
	const struct irdma_uk_fast_op *f;

	if (unlikely(op >= RDMADEV_WR_OPCODE_MAX))
		return false;
	f = &irdma_uk_fast_ops[op];
	if (wr->flags & RDMADEV_SEND_INLINE)
		return irdma_uk_post_fast_inline(qp, wr, f, head, hdr_burst, tail);
	return irdma_uk_post_frags(qp, wr, f, wr->num_sge, f->imm, head, hdr_burst, tail);
}

/* The header bits every WQE of a burst starts from: the pass's polarity, sq_sig_all. */
static inline uint64_t
irdma_uk_hdr_burst(const struct irdma_qp *qp)
{
	return IRDMA_PREP(SQ_VALID, qp->sq.polarity) | IRDMA_PREP(SQ_SIGCOMPL, qp->sq_sig_all);
}

/* Make the SQ's new @p head visible to the poller and ring the doorbell once. */
static __rte_always_inline void
irdma_uk_sq_publish(struct irdma_qp *qp, uint32_t head)
{
	/* release: the tracking entries before the poller can see the new head */
	__atomic_store_n(&qp->sq.head, head, __ATOMIC_RELEASE);
	/* irdma_wr32 orders the WQE stores before the doorbell. */
	irdma_wr32_db(qp->hw, qp->db_off, qp->qp_id);
}

/*
 * The variant irdma_uk_post_flushed: send WRs to a QP in ERROR are written and tracked as
 * usual but not rung (the device takes no WQE of a QP in ERROR); the driver completes them
 * with WR_FLUSH_ERR (irdma_uk_flush_queue), as the kernel does after its flush
 * (irdma_post_send with flush_issued).
 */
uint16_t
irdma_uk_post_flushed(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		      int *err)
{
	uint32_t head = qp->sq.head;
	uint32_t tail = __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);
	uint16_t i;
	int64_t r;
	int ret = 0;

	for (i = 0; i < nb_wrs; i++) {
		r = irdma_uk_post_general(qp, &wrs[i], head, tail);
		if (r < 0) {
			ret = (int)r;
			break;
		}
		head = (uint32_t)r;
	}
	*err = ret;
	if (i != 0) {
		/* release: the tracking entries before the poller can see the new head */
		__atomic_store_n(&qp->sq.head, head, __ATOMIC_RELEASE);
		irdma_uk_flush_queue(qp, true);
	}
	return i;
}

/* The variant irdma_uk_post_refused: a state that takes no send WR (logged, nothing written). */
uint16_t
irdma_uk_post_refused(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		      int *err)
{
	uint8_t s = irdma_qp_hw_state(qp);

	RTE_SET_USED(wrs);
	*err = 0;
	if (nb_wrs == 0)
		return 0;
	if (s == IRDMA_QP_HW_FATAL) {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send refused: the device was reset", qp->qp_id);
		*err = -EIO;
	} else {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send in HW state %u (RTS/SQD only)", qp->qp_id,
			  s);
		*err = -EINVAL;
	}
	return 0;
}

/*
 * A burst in RTS / SQD: per WR, the fast writers when @p fast (gen2 RC) and they place it,
 * else the general path. One doorbell.
 */
static __rte_always_inline uint16_t
irdma_uk_post_loop(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		   int *err, bool fast)
{
	const struct rdmadev_send_wr *wr = wrs, *end = wrs + nb_wrs;
	uint32_t head = qp->sq.head;
	uint64_t hdr_burst = irdma_uk_hdr_burst(qp);
	/* acquire: the poller is done with the tracking entries behind its tail */
	uint32_t tail = __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);
	int64_t r;
	int ret = 0;

	while (wr != end) {
		/* the fast loop has no call in it: its state stays in registers */
		while (fast && wr != end && irdma_uk_post_fast(qp, wr, &head, hdr_burst, tail))
			wr++;
		if (wr == end)
			break;
		r = irdma_uk_post_general(qp, wr, head, tail);
		if (unlikely(r < 0)) {
			ret = (int)r;
			break;
		}
		head = (uint32_t)r;
		hdr_burst = irdma_uk_hdr_burst(qp);
		wr++;
	}
	*err = ret;
	if (likely(wr != wrs))
		irdma_uk_sq_publish(qp, head);
	return (uint16_t)(wr - wrs);
}

/* A burst of a gen2 RC QP in RTS / SQD, or a WR its single-WR paths do not take. */
static __rte_noinline uint16_t
irdma_uk_post_burst(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		    int *err)
{
	return irdma_uk_post_loop(qp, wrs, nb_wrs, err, true);
}

/* The variant irdma_uk_post_any: gen3 RC and UD QPs in RTS / SQD, every WR the general way. */
uint16_t
irdma_uk_post_any(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		  int *err)
{
	return irdma_uk_post_loop(qp, wrs, nb_wrs, err, false);
}

/*
 * The single-WR path (below) of an inline WR: its own function, so that neither kind's
 * registers cost the other.
 */
static __rte_noinline uint16_t
irdma_uk_post_one_inline(struct irdma_qp *qp, const struct rdmadev_send_wr *wr, int *err)
{
	uint32_t head = qp->sq.head;

	/* acquire: the poller is done with the tracking entries behind its tail */
	if (unlikely(!irdma_uk_post_fast_inline(qp, wr, &irdma_uk_fast_ops[wr->opcode], &head,
						irdma_uk_hdr_burst(qp),
						__atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE))))
		return irdma_uk_post_burst(qp, wr, 1, err);
	*err = 0;
	irdma_uk_sq_publish(qp, head);
	return 1;
}

/*
 * The variant irdma_uk_post_rc: a gen2 RC QP in RTS / SQD. A single SEND / WRITE of the fast
 * writers' kinds (the latency case: one WR a call) is posted by the fast writers specialised
 * to it, with none of the burst loop's state: 1-SGE without immediate here, inline by
 * irdma_uk_post_one_inline(). Everything else goes to irdma_uk_post_burst().
 */
uint16_t
irdma_uk_post_rc(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		 int *err)
{
	const struct irdma_uk_fast_op *f;
	uint32_t head;

	if (nb_wrs != 1 || wrs->opcode >= RDMADEV_WR_OPCODE_MAX)
		return irdma_uk_post_burst(qp, wrs, nb_wrs, err);
	if (wrs->flags & RDMADEV_SEND_INLINE)
		return irdma_uk_post_one_inline(qp, wrs, err);
	f = &irdma_uk_fast_ops[wrs->opcode];
	head = qp->sq.head;
	/* acquire: the poller is done with the tracking entries behind its tail */
	if (unlikely(f->imm || wrs->num_sge != 1 ||
		     !irdma_uk_post_frags(qp, wrs, f, 1, false, &head, irdma_uk_hdr_burst(qp),
					  __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE))))
		return irdma_uk_post_burst(qp, wrs, 1, err);
	*err = 0;
	irdma_uk_sq_publish(qp, head);
	return 1;
}

void
irdma_uk_qp_select(struct irdma_qp *qp)
{
	uint8_t s = irdma_qp_hw_state(qp);
	irdma_uk_post_send_fn fn;

	if (s == IRDMA_QP_HW_RTS || s == IRDMA_QP_HW_SQD)
		fn = qp->qp_type == IRDMA_QP_TYPE_ROCE_RC && qp->gen == 2 ? irdma_uk_post_rc :
									  irdma_uk_post_any;
	else if (s == IRDMA_QP_HW_ERROR && qp->scq != NULL)
		fn = irdma_uk_post_flushed;
	else
		fn = irdma_uk_post_refused;
	/* relaxed: the poster reads them as it read the state, once a call */
	__atomic_store_n(&qp->post_send, fn, __ATOMIC_RELAXED);
	__atomic_store_n(&qp->sq_open, s == IRDMA_QP_HW_RTS || s == IRDMA_QP_HW_SQD,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&qp->rq_open, qp->srq == NULL && (s == IRDMA_QP_HW_IDLE ||
			 s == IRDMA_QP_HW_RTR || s == IRDMA_QP_HW_RTS || s == IRDMA_QP_HW_SQD),
			 __ATOMIC_RELAXED);
}

/* The rdmadev entry: the QP's variant, chosen when its state last changed. */
uint16_t
irdma_uk_post_send(void *qp_priv, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs, int *err)
{
	struct irdma_qp *qp = qp_priv;

	return __atomic_load_n(&qp->post_send, __ATOMIC_RELAXED)(qp, wrs, nb_wrs, err);
}

/* ---- receive ---- */

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
	bool flushed = false;
	int ret = 0;

	/* rq_open: INIT..SQD without an SRQ, set when the state changed */
	if (unlikely(!__atomic_load_n(&qp->rq_open, __ATOMIC_RELAXED))) {
		/* In ERROR: written, then completed by the driver (see irdma_uk_post_flushed). */
		if (irdma_qp_hw_state(qp) == IRDMA_QP_HW_ERROR && qp->srq == NULL && qp->rcq != NULL) {
			flushed = true;
		} else if (nb_wrs != 0 && irdma_qp_hw_state(qp) == IRDMA_QP_HW_FATAL) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: post_recv refused: the device was reset",
				  qp->qp_id);
			ret = -EIO;
		} else if (nb_wrs != 0) {
			if (qp->srq != NULL)
				IRDMA_LOG(ERR, qp->hw, "QP %u: post_recv on a QP that takes its "
					  "receives from an SRQ (post them to the SRQ)", qp->qp_id);
			else
				IRDMA_LOG(ERR, qp->hw, "QP %u: post_recv in HW state %u "
					  "(INIT..SQD only)", qp->qp_id, irdma_qp_hw_state(qp));
			ret = -EINVAL;
		}
		if (!flushed) {
			*err = ret;
			return 0;
		}
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
		if (unlikely(irdma_uk_sge_too_long(wr->sg_list, wr->num_sge))) {
			IRDMA_LOG(ERR, qp->hw, "QP %u: recv WR 0x%" PRIx64 " refused: an SGE longer "
				  "than 2^31 - 1 bytes", qp->qp_id, wr->wr_id);
			ret = -EINVAL;
			break;
		}
		/* One WQE stays free: a full ring must not look empty. */
		if (unlikely(((head - tail) & mask) + 2 * step > qp->rq.quanta)) {
			/* Back-pressure, not bad input: no error line per refused burst. */
			IRDMA_LOG(DEBUG, qp->hw, "QP %u: recv WR 0x%" PRIx64 " waits: RQ full",
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
	if (unlikely(flushed) && i != 0)
		irdma_uk_flush_queue(qp, false);
	return i;
}

/* ---- send templates (irdma_uk_tmpl.c posts them) ---- */

void
irdma_uk_sq_begin(struct irdma_qp *qp, uint32_t idx, uint32_t *pol)
{
	irdma_uk_sq_start(qp, idx, pol);
}

void
irdma_uk_sq_nop_at(struct irdma_qp *qp, uint32_t idx, uint32_t *pol)
{
	irdma_uk_sq_nop_fill(qp, idx, pol);
}

int
irdma_uk_tmpl_plan(const struct irdma_qp *qp, const struct rdmadev_send_wr *proto,
		   struct irdma_uk_tmpl *k)
{
	struct irdma_sq_wrtrk trk;
	struct irdma_uk_sq_plan p;
	int ret;

	if (proto->num_sge != 1 || proto->sg_list == NULL || (proto->flags & RDMADEV_SEND_INLINE))
		return irdma_uk_refuse(qp, proto, -EINVAL,
				       "a template carries exactly one SGE, not inline");
	ret = irdma_uk_sq_check(qp, proto, &p);
	if (ret != 0)
		return ret;
	if (p.kind != IRDMA_UK_FRAGS || p.quanta != 1u + p.imm ||
	    (proto->opcode != RDMADEV_WR_SEND && proto->opcode != RDMADEV_WR_SEND_IMM &&
	     proto->opcode != RDMADEV_WR_RDMA_WRITE &&
	     proto->opcode != RDMADEV_WR_RDMA_WRITE_IMM && proto->opcode != RDMADEV_WR_RDMA_READ))
		return irdma_uk_refuse(qp, proto, -ENOTSUP, "a template is a SEND, SEND_IMM, "
				       "RDMA_WRITE, RDMA_WRITE_IMM or RDMA_READ");
	memset(k, 0, sizeof(*k));
	k->hdr = p.hdr;
	k->frag_qw1 = IRDMA_PREP(FRAG_STAG, proto->sg_list[0].lkey);
	k->quanta = (uint8_t)p.quanta;
	k->remote = proto->opcode == RDMADEV_WR_RDMA_WRITE ||
		    proto->opcode == RDMADEV_WR_RDMA_WRITE_IMM ||
		    proto->opcode == RDMADEV_WR_RDMA_READ;
	k->qw2 = k->remote ? 0 : p.qw2;
	/* the tracking constants as post_send writes them (next 0: ORed in per WR) */
	memset(&trk, 0, sizeof(trk));
	irdma_uk_track(&trk, 0, 0, p.quanta, 0, p.wc_opcode, p.signaled, 0);
	memcpy(&k->trk_w2, (const uint8_t *)&trk + IRDMA_UK_TRK_W2, sizeof(k->trk_w2));
	memcpy(&k->trk_w6, (const uint8_t *)&trk + IRDMA_UK_TRK_W6, sizeof(k->trk_w6));
	return 0;
}
