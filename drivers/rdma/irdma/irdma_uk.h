/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_UK_H
#define IRDMA_UK_H

/**
 * @file
 * The irdma PMD's data path ("uk", as the kernel and rdma-core call it): post_send, post_recv
 * and poll_cq over the QP and CQ structs of irdma_ctrl.h, writing E810 WQEs (fact sheet §1,
 * §2) and reading CQEs (§3). These are the functions rdmadev's inline fast path calls through
 * the device's rdmadev_fp_obj. No locks, syscalls, allocation or division; a QP or a CQ is
 * used by one lcore at a time.
 */

#include <stdint.h>

#include <rdmadev_core.h>

#include "irdma_ctrl.h"

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
	uint32_t pad;		/**< 32 bytes an entry: the index scales by a shift */
};

/**
 * Prepare the SQ tracking entries of @p qp (sq_wrtrk, sq.quanta and qp_id set): every entry
 * carries the QP number its completions report. Called once, when the QP is created.
 */
void irdma_uk_sq_track_init(struct irdma_qp *qp);

/** rdmadev_post_send_t of the irdma PMD (qp_priv is a struct irdma_qp). */
uint16_t irdma_uk_post_send(void *qp_priv, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
			    int *err);

/** rdmadev_post_recv_t of the irdma PMD (qp_priv is a struct irdma_qp). */
uint16_t irdma_uk_post_recv(void *qp_priv, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs,
			    int *err);

/** rdmadev_poll_cq_t of the irdma PMD (cq_priv is a struct irdma_cq). */
uint16_t irdma_uk_poll_cq(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs);

/**
 * rdmadev_cq_arm_t of the irdma PMD (cq_priv is a struct irdma_cq): the next arm word in the
 * CQ shadow area (qword 4), then the CQ id to the CQARM doorbell (fact sheet §3 "CQ arm").
 * @return 0.
 */
int irdma_uk_cq_arm(void *cq_priv, int solicited_only);

/**
 * rdmadev_post_srq_recv_t of the irdma PMD (srq_priv is a struct irdma_srq, gen3): SRQ WQEs
 * (fact sheet §2: RQ layout, qword 2 = wr_id), then the new head in shadow qword 0.
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

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_UK_H */
