/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_UK_H
#define IRDMA_UK_H

/**
 * @file
 * The irdma PMD's data path ("uk", as the kernel and rdma-core call it): post_send, post_recv
 * and poll_cq over the QP and CQ structs of irdma_qp.h and irdma_cq.h, writing E810 WQEs
 * (doc/hardware.md §1, §2) and reading CQEs (§3). These are the functions rdmadev's inline
 * fast path calls through the device's rdmadev_fp_obj. No locks, syscalls, allocation or
 * division; a QP or a CQ is used by one lcore at a time.
 */

#include <stddef.h>
#include <stdint.h>

#include <rdmadev_core.h>

#include "irdma_qp.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * SQ WR tracking entry, indexed by the first quantum of the WQE it describes (§1.7). Written
 * by post_send before the WQE's header; read by poll_cq (the SQ tail owner).
 *
 * Its first 24 bytes are those of the struct rdmadev_wc of a successful completion (wr_id,
 * status, opcode, wc_flags, byte_len, imm_data, qp_num): poll_cq copies them whole. nop sits
 * at status and is 0 (RDMADEV_WC_SUCCESS) for every entry that completes; rsvd sits at
 * wc_flags and imm at imm_data, both 0; qp_num is set once, by irdma_uk_sq_track_init().
 */
struct irdma_sq_wrtrk {
	uint64_t wr_id;		/**< the WR's wr_id */
	uint8_t nop;		/**< 1 for a chunk-filler NOP the driver inserted (no completion) */
	uint8_t opcode;		/**< enum rdmadev_wc_opcode its completion reports */
	uint16_t rsvd;		/**< zero (the completion's wc_flags) */
	uint32_t wr_len;	/**< sum of the SGE lengths (or inline bytes) */
	uint32_t imm;		/**< zero (the completion's imm_data) */
	uint32_t qp_num;	/**< the QP's number (the completion's qp_num) */
	uint16_t next;		/**< first quantum after the WQE: the SQ tail once it completes */
	uint8_t quanta;		/**< quanta the WQE occupies */
	uint8_t signaled;	/**< 1 when the WR asked for a completion */
	/**
	 * 32 bytes an entry (the index scales by a shift). BIND_MW: IRDMA_UK_TRK_MW_BOUND | the
	 * window's STag index when this bind counted the window as bound (poll undoes that if
	 * the bind fails), else 0. LOCAL_INV: IRDMA_UK_TRK_MW_UNBOUND | the STag index of the
	 * region its window was bound to when this post counted the window as unbound (poll
	 * binds it again if the LOCAL_INV fails or is flushed), else 0. Unused by other WQEs.
	 */
	uint32_t pad;
};

/** irdma_sq_wrtrk.pad of a BIND_MW that counted its window as bound (index in 23:0). */
#define IRDMA_UK_TRK_MW_BOUND	(UINT32_C(1) << 31)
/** irdma_sq_wrtrk.pad of a LOCAL_INV that counted its window as unbound (region in 23:0). */
#define IRDMA_UK_TRK_MW_UNBOUND	(UINT32_C(1) << 30)
/** The STag index of irdma_sq_wrtrk.pad. */
#define IRDMA_UK_TRK_MW_IDX	((UINT32_C(1) << (32 - IRDMA_STAG_KEY_BITS)) - 1)

/**
 * Prepare the SQ tracking entries of @p qp (sq_wrtrk, sq.quanta and qp_id set): every entry
 * carries the QP number its completions report. Called once, when the QP is created.
 */
void irdma_uk_sq_track_init(struct irdma_qp *qp);

/**
 * rdmadev_post_send_t of the irdma PMD (qp_priv is a struct irdma_qp): the QP's post_send
 * variant (irdma_uk_qp_select()).
 */
uint16_t irdma_uk_post_send(void *qp_priv, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
			    int *err);

/**
 * post_send variant (irdma_qp.post_send, irdma_uk_qp_select()) of a gen2 RC QP in RTS or SQD:
 * the fast writers (a single WR, then a burst's WRs where they place them), else the general
 * path. @return as rdmadev_post_send().
 */
uint16_t irdma_uk_post_rc(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs,
			  uint16_t nb_wrs, int *err);

/** post_send variant of a gen3 RC or a UD QP in RTS or SQD: every WR the general way. */
uint16_t irdma_uk_post_any(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs,
			   uint16_t nb_wrs, int *err);

/**
 * post_send variant of a QP in ERROR with a send CQ: the WRs are written and tracked, not
 * rung, and completed by the driver with WR_FLUSH_ERR (irdma_uk_flush_queue()).
 */
uint16_t irdma_uk_post_flushed(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs,
			       uint16_t nb_wrs, int *err);

/**
 * post_send variant of every other state: nothing posted, *err -EIO (FATAL: the device was
 * reset) or -EINVAL (logged); 0 for an empty burst.
 */
uint16_t irdma_uk_post_refused(struct irdma_qp *qp, const struct rdmadev_send_wr *wrs,
			       uint16_t nb_wrs, int *err);

/**
 * poll variant (irdma_cq.poll, irdma_uk_cq_select()) of a CQ without service hook, old ring
 * or completion counter: the hot leaf over successful plain SQ CQEs; anything else of the
 * burst goes on in irdma_uk_poll_general(). @return as rdmadev_poll_cq().
 */
uint16_t irdma_uk_poll_fast(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs);

/**
 * poll variant of every other CQ: the service hook, the old ring of a resize first, any kind
 * of CQE, driver flushes, the completion counter.
 */
uint16_t irdma_uk_poll_any(struct irdma_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs);

/** rdmadev_post_recv_t of the irdma PMD (qp_priv is a struct irdma_qp). */
uint16_t irdma_uk_post_recv(void *qp_priv, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs,
			    int *err);

/**
 * rdmadev_poll_cq_t of the irdma PMD (cq_priv is a struct irdma_cq): the CQ's poll variant
 * (irdma_uk_cq_select()).
 */
uint16_t irdma_uk_poll_cq(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs);

/**
 * Have the driver complete, with WR_FLUSH_ERR, every WR of @p qp's SQ (@p sq) or RQ that the
 * device will not complete (the QP is in ERROR: after its flush, the device takes no more
 * WQEs). Queues the ring on its CQ's flush list; poll completes it, tail to head, once the
 * CQE ring is empty (so the device's own flush CQEs come first). Error path only (a mutex).
 */
void irdma_uk_flush_queue(struct irdma_qp *qp, bool sq);

/** Take @p qp's queues off their CQs' flush lists (QP reset or destroy). */
void irdma_uk_flush_forget(struct irdma_qp *qp);

/**
 * rdmadev_cq_arm_t of the irdma PMD (cq_priv is a struct irdma_cq): the next arm word in the
 * CQ shadow area (qword 4), then the CQ id to the CQARM doorbell (doc/hardware.md §3 "CQ arm").
 * @return 0.
 */
int irdma_uk_cq_arm(void *cq_priv, int solicited_only);

/**
 * rdmadev_post_srq_recv_t of the irdma PMD (srq_priv is a struct irdma_srq, gen3): SRQ WQEs
 * (doc/hardware.md §2: RQ layout, qword 2 = wr_id), then the new head in shadow qword 0.
 * @return WRs posted; *err -EINVAL (too many SGEs) or -ENOMEM (full) for the first refused.
 */
uint16_t irdma_uk_post_srq_recv(void *srq_priv, const struct rdmadev_recv_wr *wrs,
				uint16_t nb_wrs, int *err);

/**
 * The SRQ part of a CQE with CQE_SRQ set (gen3): the QP from the extension's
 * CQE_EXT_SRQ_QP_CTX, the wr_id from CQE_COMP_CTX, and one more completion of the QP's SRQ.
 * @return The QP, or NULL for a CQE to consume silently (no extension, a destroyed QP's).
 */
struct irdma_qp *irdma_uk_srq_cqe(const struct irdma_cqe *cqe, const struct irdma_cqe_ext *ext,
				  uint64_t *wr_id);

/** Byte offset of the tracking entry's 32-bit word nop, opcode, rsvd. */
#define IRDMA_UK_TRK_W2	8u
/** Byte offset of the tracking entry's 32-bit word next, quanta, signaled. */
#define IRDMA_UK_TRK_W6	24u
_Static_assert(offsetof(struct irdma_sq_wrtrk, nop) == IRDMA_UK_TRK_W2 &&
	       offsetof(struct irdma_sq_wrtrk, wr_len) == IRDMA_UK_TRK_W2 + 4 &&
	       offsetof(struct irdma_sq_wrtrk, next) == IRDMA_UK_TRK_W6 &&
	       offsetof(struct irdma_sq_wrtrk, pad) == IRDMA_UK_TRK_W6 + 4,
	       "the template writes the tracking entry in 32-bit words");

/**
 * The irdma PMD's words of a struct rdmadev_send_tmpl (its drv[]): a WQE with one fragment
 * (1 quantum; 2 with an immediate, which takes fragment slot 0), everything pre-encoded but
 * the fragment's address and length, the remote address, the immediate, the valid bits,
 * and the tracking entry's wr_id, byte count and next index.
 */
struct irdma_uk_tmpl {
	uint64_t hdr;		/**< header qword without SQ_VALID */
	uint64_t frag_qw1;	/**< fragment 0, qword 1 without FRAG_LEN and FRAG_VALID */
	uint64_t qw2;		/**< qword 2 when it is constant: 0 (RC SEND), UD destination */
	uint32_t trk_w2;	/**< tracking bytes 8..11 (nop, opcode, rsvd) */
	uint32_t trk_w6;	/**< tracking bytes 24..27 with next 0 (quanta, signaled) */
	uint32_t qp_gen;	/**< the QP's tmpl_gen when the template was made */
	uint8_t remote;		/**< 1: qword 2 is the WR's remote address (RDMA WRITE / READ) */
	uint8_t quanta;		/**< 1, or 2 with an immediate */
	uint8_t rsvd[2];	/**< zero */
};

/**
 * Check @p proto against @p qp exactly as irdma_uk_post_send() checks a WR (same refusals,
 * same log lines) and encode it into @p k. A template has one SGE and no INLINE (-EINVAL)
 * and is a SEND, SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM or RDMA_READ (-ENOTSUP): a WQE of one
 * fragment and maybe an immediate. The tracking constants come from the same writer
 * post_send uses.
 * @return 0, -EINVAL (not one SGE, INLINE, what post_send refuses), -ENOTSUP.
 */
int irdma_uk_tmpl_plan(const struct irdma_qp *qp, const struct rdmadev_send_wr *proto,
		       struct irdma_uk_tmpl *k);

/**
 * The start work of a WQE at SQ quantum @p idx, as irdma_uk_post_send() does it: flip
 * *@p pol at index 0, pre-invalidate the 128 quanta 128 ahead at every 128th quantum.
 */
void irdma_uk_sq_begin(struct irdma_qp *qp, uint32_t idx, uint32_t *pol);

/**
 * The chunk rule's filler as irdma_uk_post_send() writes it: a 1-quantum unsignaled NOP at
 * SQ quantum @p idx, tracked as nop, after the start work due there (*@p pol may flip).
 */
void irdma_uk_sq_nop_at(struct irdma_qp *qp, uint32_t idx, uint32_t *pol);

/** A new QP generation for irdma_qp.tmpl_gen (thread-safe; control path). */
uint32_t irdma_uk_tmpl_gen_next(void);

/**
 * Make send template @p t of @p qp from @p proto (irdma_uk_tmpl_plan()) and bind it to the
 * QP (qp_drv, qp_num, the QP's generation). @p t is zeroed first, and stays zeroed on failure.
 * @return 0, -EINVAL, -ENOTSUP (logged).
 */
int irdma_uk_send_tmpl_init(struct irdma_qp *qp, const struct rdmadev_send_wr *proto,
			    struct rdmadev_send_tmpl *t);

/**
 * rdmadev_post_send_tmpl_t of the irdma PMD (qp_priv is a struct irdma_qp): the WQEs and
 * tracking entries irdma_uk_post_send() writes for the equivalent WRs, one doorbell.
 * @return WRs posted; *err as post_send's (-EINVAL: template of another QP or of another
 *         generation of this one, NULL, state, length; -ENOMEM: the SQ is full).
 */
uint16_t irdma_uk_post_send_tmpl(void *qp_priv, const struct rdmadev_send_tmpl *t,
				 const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs, int *err);

/** Total length of @p n SGEs, summed in 64 bits so that no sum wraps. */
uint64_t irdma_uk_sge_total(const struct rdmadev_sge *sg, uint32_t n);

/**
 * Whether a send WR's @p n SGEs fit in one message (IRDMA_MAX_MSG_SIZE, what the 31-bit
 * length fields hold): a longer WR is refused, never posted with its lengths cut. One compare
 * for the usual single SGE.
 */
static __rte_always_inline bool
irdma_uk_sges_fit(const struct rdmadev_sge *sg, uint32_t n)
{
	if (likely(n == 1))
		return sg[0].length <= IRDMA_MAX_MSG_SIZE;
	return n == 0 || irdma_uk_sge_total(sg, n) <= IRDMA_MAX_MSG_SIZE;
}

/**
 * Whether one of @p n receive SGEs is longer than a fragment's 31-bit length field holds
 * (IRDMA_MAX_MSG_SIZE): such a buffer would be posted with its length cut.
 */
static __rte_always_inline bool
irdma_uk_sge_too_long(const struct rdmadev_sge *sg, uint32_t n)
{
	uint32_t any, i;

	if (likely(n <= 1))
		return n == 1 && sg[0].length > IRDMA_MAX_MSG_SIZE;
	for (any = 0, i = 0; i < n; i++)
		any |= sg[i].length;
	return any > IRDMA_MAX_MSG_SIZE;
}

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_UK_H */
