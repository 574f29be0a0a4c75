/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_REGS_H
#define IRDMA_REGS_H

/**
 * @file
 * BAR0 registers of the E810 RDMA engine (gen2 PF), their fields, and the doorbell and
 * push pages. All registers are 32 bits wide.
 *
 * Source: doc/hardware.md §4.1, §4.3 (icrdma_hw.h, irdma.h); VF and gen1 offsets are kept for
 * reference only (doc/hardware.md §4.3).
 */

#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Gen2 PF register offsets (doc/hardware.md §4.3).
 */

/** CQP SQ tail (HW-written): WQTAIL and the CQP_OP_ERR flag. */
#define IRDMA_PFPE_CQPTAIL		UINT32_C(0x00500880)
/** CQP doorbell: SW writes the new CQP SQ head index. */
#define IRDMA_PFPE_CQPDB		UINT32_C(0x00500800)
/** CQP create/destroy status: CCQP_DONE, CCQP_ERR. */
#define IRDMA_PFPE_CCQPSTATUS		UINT32_C(0x0050a000)
/** CQP host-context physical address, high 32 bits. */
#define IRDMA_PFPE_CCQPHIGH		UINT32_C(0x0050a100)
/** CQP host-context physical address, low 32 bits (writing it starts CQP create). */
#define IRDMA_PFPE_CCQPLOW		UINT32_C(0x0050a080)
/** CQ arm doorbell (kernel-style): write the cq_id after updating shadow qw4. */
#define IRDMA_PFPE_CQARM		UINT32_C(0x00502c00)
/** CQ acknowledge after a CEQE: write the cq_id. */
#define IRDMA_PFPE_CQACK		UINT32_C(0x00502c80)
/** AEQ: write the number of consumed AEQEs. */
#define IRDMA_PFPE_AEQALLOC		UINT32_C(0x00502d00)
/** CQP error codes: MINOR and MAJOR. */
#define IRDMA_PFPE_CQPERRCODES		UINT32_C(0x0050a200)
/** SQ doorbell (kernel-style): write the qp_id (WQE_DESC_INDEX for push). */
#define IRDMA_PFPE_WQEALLOC		UINT32_C(0x00504400)
/** Interrupt dynamic control for vector @p i. */
#define IRDMA_GLINT_DYN_CTL(i)		(UINT32_C(0x00160000) + 4u * (uint32_t)(i))
/** CEQ interrupt control for CEQ @p i. */
#define IRDMA_GLINT_CEQCTL(i)		(UINT32_C(0x0015c000) + 4u * (uint32_t)(i))
/** AEQ interrupt control (same layout as CEQCTL). */
#define IRDMA_PFINT_AEQCTL		UINT32_C(0x0016cb00)
/** Interrupt rate limit for vector @p i. */
#define IRDMA_GLINT_RATE(i)		(UINT32_C(0x0015a000) + 4u * (uint32_t)(i))
/** PCI BAR control: PE_DB_SIZE. */
#define IRDMA_GLPCI_LBARCTRL		UINT32_C(0x0009de74)
/** Firmware status word 0; FW is ready when all three CPUSTATUS words read 0x80. */
#define IRDMA_GLPE_CPUSTATUS0		UINT32_C(0x0050ba5c)
/** Firmware status word 1. */
#define IRDMA_GLPE_CPUSTATUS1		UINT32_C(0x0050ba60)
/** Firmware status word 2. */
#define IRDMA_GLPE_CPUSTATUS2		UINT32_C(0x0050ba64)
/** Per-VSI PE control 1 for VSI @p v. */
#define IRDMA_VSIQF_PE_CTL1(v)		(UINT32_C(0x00414000) + 4u * (uint32_t)(v))
/** PF HMC page-descriptor invalidate. */
#define IRDMA_PFHMC_PDINV		UINT32_C(0x00520300)
/** VF HMC page-descriptor invalidate for VF @p i. */
#define IRDMA_GLHMC_VFPDINV(i)		(UINT32_C(0x00528300) + 4u * (uint32_t)(i))
/** Critical error register. */
#define IRDMA_GLPE_CRITERR		UINT32_C(0x00534000)

/** Value of each GLPE_CPUSTATUSn once firmware is ready. */
#define IRDMA_CPUSTATUS_READY		UINT32_C(0x80)

/** Number of interrupt vectors addressable by GLINT_DYN_CTL/CEQCTL/RATE (icrdma_hw.h). */
#define IRDMA_GLINT_VECTORS		2048

/* ---------------------------------------------------------------------------------------
 * Register fields (doc/hardware.md §4.3; irdma.h).
 */

/** CQPTAIL: current CQP SQ tail index. */
IRDMA_REG_FIELD(CQPTAIL_WQTAIL, 10, 0);
/** CQPTAIL: set when the CQP hit an error (then read CQPERRCODES). */
IRDMA_REG_FIELD(CQPTAIL_CQP_OP_ERR, 31, 31);
/** CCQPSTATUS: CQP created (cleared again after destroy). */
IRDMA_REG_FIELD(CCQPSTATUS_DONE, 0, 0);
/** CCQPSTATUS: CQP create failed. */
IRDMA_REG_FIELD(CCQPSTATUS_ERR, 31, 31);
/** CQPERRCODES: minor error code. */
IRDMA_REG_FIELD(CQPERRCODES_MINOR, 15, 0);
/** CQPERRCODES: major error code. */
IRDMA_REG_FIELD(CQPERRCODES_MAJOR, 31, 16);
/** WQEALLOC / doorbell value: the QP id (low bits; the push index sits above). */
IRDMA_REG_FIELD(WQEALLOC_QPID, 19, 0);
/** WQEALLOC / push doorbell: WQE index >> 3 (push mode only). */
IRDMA_REG_FIELD(WQEALLOC_WQE_DESC_INDEX, 31, 20);
/** GLPCI_LBARCTRL: PE doorbell BAR size (1 = 4 MB, 2 = 8 MB). */
IRDMA_REG_FIELD(LBARCTRL_PE_DB_SIZE, 5, 4);
/** GLINT_DYN_CTL: interrupt enable. */
IRDMA_REG_FIELD(DYN_CTL_INTENA, 0, 0);
/** GLINT_DYN_CTL: clear the pending bit. */
IRDMA_REG_FIELD(DYN_CTL_CLEARPBA, 1, 1);
/** GLINT_DYN_CTL: ITR index (3 = no ITR update). */
IRDMA_REG_FIELD(DYN_CTL_ITR_INDX, 4, 3);
/** GLINT_DYN_CTL: interval. */
IRDMA_REG_FIELD(DYN_CTL_INTERVAL, 16, 5);
/** GLINT_CEQCTL / PFINT_AEQCTL: MSI-X vector. */
IRDMA_REG_FIELD(QCTL_MSIX_INDX, 10, 0);
/** GLINT_CEQCTL / PFINT_AEQCTL: ITR index. */
IRDMA_REG_FIELD(QCTL_ITR_INDX, 12, 11);
/** GLINT_CEQCTL / PFINT_AEQCTL: cause enable. */
IRDMA_REG_FIELD(QCTL_CAUSE_ENA, 30, 30);
/** GLINT_RATE: interval. */
IRDMA_REG_FIELD(RATE_INTERVAL, 5, 0);
/** GLINT_RATE: rate limiting enable. */
IRDMA_REG_FIELD(RATE_INTRL_ENA, 6, 6);
/** PFHMC_PDINV: segment-descriptor index. */
IRDMA_REG_FIELD(PDINV_PMSDIDX, 11, 0);
/** PFHMC_PDINV: partition select (the driver always sets 1). */
IRDMA_REG_FIELD(PDINV_PMSDPARTSEL, 15, 15);
/** PFHMC_PDINV: page-descriptor index inside the SD. */
IRDMA_REG_FIELD(PDINV_PMPDIDX, 24, 16);

/** LBARCTRL.PE_DB_SIZE value for a 4 MB doorbell region. */
#define IRDMA_PE_DB_SIZE_4M		1
/** LBARCTRL.PE_DB_SIZE value for an 8 MB doorbell region. */
#define IRDMA_PE_DB_SIZE_8M		2

/** ITR index meaning "no ITR" (irdma_dyn_idx_t, irdma.h). */
#define IRDMA_ITR_IDX_NOITR		3

/* ---------------------------------------------------------------------------------------
 * Doorbell and push pages (doc/hardware.md §4.1, §10.9; defs.h IRDMA_PUSH_OFFSET etc.).
 */

/** BAR0 offset of the user doorbell page on the gen2 PF (8 MiB - 64 KiB). */
#define IRDMA_DB_PAGE_OFFSET		UINT32_C(0x007f0000)
/** Doorbell page offset on a gen2 VF. */
#define IRDMA_VF_DB_PAGE_OFFSET		UINT32_C(0x00010000)
/** Doorbell page offset on gen1 (4 MiB - 64 KiB). */
#define IRDMA_GEN1_DB_PAGE_OFFSET	UINT32_C(0x003f0000)
/** Size of the doorbell page (mapped non-cached). */
#define IRDMA_DB_PAGE_SIZE		4096u
/** Offset in the DB page of the SQ doorbell (write the 32-bit qp_id). */
#define IRDMA_DB_SQ_OFFSET		0u
/** Offset in the DB page of the CQ arm doorbell (write the 32-bit cq_id). */
#define IRDMA_DB_CQ_OFFSET		64u
/** BAR0 offset where push pages start (IRDMA_PUSH_OFFSET). */
#define IRDMA_PUSH_OFFSET		UINT32_C(0x00800000)
/** Reserved space after the DB page before the first push page (IRDMA_PF_BAR_RSVD). */
#define IRDMA_PF_BAR_RSVD		(60u * 1024u)
/** First push page index a PF may use (defs.h IRDMA_PF_FIRST_PUSH_PAGE_INDEX). */
#define IRDMA_PF_FIRST_PUSH_PAGE_INDEX	16u
/** Number of push pages (doc/hardware.md §8). */
#define IRDMA_MAX_PUSH_PAGES		1024u
/** Push WQE slot stride inside a push page: one quantum per (wqe_idx & 7). */
#define IRDMA_PUSH_WQE_SLOTS		8u

/**
 * BAR0 offset of the write-combining push-WQE page for push index @p idx:
 * DB page + 4 KB + 60 KB reserve + idx * 4 KB (doc/hardware.md §4.1). The push-doorbell page is
 * the 4 KB page right after it. Push mode is gen2-only and optional.
 */
static inline uint64_t
irdma_push_wqe_page_offset(uint32_t idx)
{
	return (uint64_t)IRDMA_DB_PAGE_OFFSET + IRDMA_DB_PAGE_SIZE + IRDMA_PF_BAR_RSVD +
	       (uint64_t)idx * IRDMA_DB_PAGE_SIZE;
}

/** BAR0 offset of the non-cached push-doorbell page for push index @p idx. */
static inline uint64_t
irdma_push_db_page_offset(uint32_t idx)
{
	return irdma_push_wqe_page_offset(idx) + IRDMA_DB_PAGE_SIZE;
}

/* ---------------------------------------------------------------------------------------
 * VF and gen1 copies (reference only; doc/hardware.md §4.3).
 */

/** @name Gen2 VF register offsets (the PF registers' VF copies)
 * @{
 */
#define IRDMA_VFPE_CQPTAIL1		UINT32_C(0x0000a000)
#define IRDMA_VFPE_CQPDB1		UINT32_C(0x0000bc00)
#define IRDMA_VFPE_CCQPSTATUS1		UINT32_C(0x0000b800)
#define IRDMA_VFPE_CCQPHIGH1		UINT32_C(0x00009800)
#define IRDMA_VFPE_CCQPLOW1		UINT32_C(0x0000ac00)
#define IRDMA_VFPE_CQARM1		UINT32_C(0x0000b400)
#define IRDMA_VFPE_CQACK1		UINT32_C(0x0000b000)
#define IRDMA_VFPE_AEQALLOC1		UINT32_C(0x0000a400)
#define IRDMA_VFPE_CQPERRCODES1		UINT32_C(0x00009c00)
#define IRDMA_VFPE_WQEALLOC1		UINT32_C(0x0000c000)
#define IRDMA_VFINT_DYN_CTLN(i)		(UINT32_C(0x00003800) + 4u * (uint32_t)(i))
/** @} */

/** @name Gen1 (X722 / i40iw) PF register offsets, same roles as the gen2 PF ones
 * @{
 */
#define IRDMA_GEN1_CQPTAIL		UINT32_C(0x00008080)
#define IRDMA_GEN1_CQPDB		UINT32_C(0x00008000)
#define IRDMA_GEN1_CCQPSTATUS		UINT32_C(0x00008100)
#define IRDMA_GEN1_CCQPHIGH		UINT32_C(0x00008200)
#define IRDMA_GEN1_CCQPLOW		UINT32_C(0x00008180)
#define IRDMA_GEN1_CQARM		UINT32_C(0x00131080)
#define IRDMA_GEN1_CQACK		UINT32_C(0x00131100)
#define IRDMA_GEN1_AEQALLOC		UINT32_C(0x00131180)
#define IRDMA_GEN1_CQPERRCODES		UINT32_C(0x00008880)
#define IRDMA_GEN1_WQEALLOC		UINT32_C(0x00138c00)
/** @} */

/**
 * Register roles, in the order of the kernel's register table (irdma.h enum
 * irdma_registers); a backend maps each role to an offset.
 */
enum irdma_reg_role {
	IRDMA_REG_CQPTAIL,
	IRDMA_REG_CQPDB,
	IRDMA_REG_CCQPSTATUS,
	IRDMA_REG_CCQPHIGH,
	IRDMA_REG_CCQPLOW,
	IRDMA_REG_CQARM,
	IRDMA_REG_CQACK,
	IRDMA_REG_AEQALLOC,
	IRDMA_REG_CQPERRCODES,
	IRDMA_REG_WQEALLOC,
	IRDMA_REG_GLINT_DYN_CTL,
	IRDMA_REG_DB_ADDR_OFFSET,
	IRDMA_REG_GLPCI_LBARCTRL,
	IRDMA_REG_GLPE_CPUSTATUS0,
	IRDMA_REG_GLPE_CPUSTATUS1,
	IRDMA_REG_GLPE_CPUSTATUS2,
	IRDMA_REG_PFINT_AEQCTL,
	IRDMA_REG_GLINT_CEQCTL,
	IRDMA_REG_VSIQF_PE_CTL1,
	IRDMA_REG_PFHMC_PDINV,
	IRDMA_REG_GLHMC_VFPDINV,
	IRDMA_REG_GLPE_CRITERR,
	IRDMA_REG_GLINT_RATE,
	IRDMA_REG_PFHMC_ERRORINFO,
	IRDMA_REG_PFHMC_ERRORDATA,
	IRDMA_REG_ROLE_MAX, /**< number of roles */
};

#endif /* IRDMA_REGS_H */
