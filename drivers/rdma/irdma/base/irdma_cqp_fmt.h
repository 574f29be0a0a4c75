/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CQP_FMT_H
#define IRDMA_CQP_FMT_H

/**
 * @file
 * The Control QP (doc/hardware.md §5): the 64-byte CQP host context, the CQP opcodes, and the
 * 64-byte CQP WQE layout of every command the driver issues. Qword 3 is the header
 * (OPCODE 37:32, WQEVALID 63 = CQP polarity); SW zeroes the WQE, fills it, issues a write
 * barrier, writes qword 3, then writes the new SQ head to CQPDB.
 *
 * Field names are CQP_<command>_<field>; fields shared by several commands (TPH, VSI,
 * LPBLSIZE, ...) are CQP_<field>. Per-generation differences carry _GEN1 / _GEN3.
 * Sources: doc/hardware.md §5.1-§5.3 unless marked; kernel defs.h for bit positions that
 * doc/hardware.md leaves out; kernel uda_d.h / uda.c for the address-handle command.
 */

#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Sizes, alignments, polling.
 */

/** Bytes in a CQP WQE (IRDMA_CQP_WQE_SIZE = 8 qwords). */
#define IRDMA_CQP_WQE_SIZE		64u
/** Bytes in the CQP host context (IRDMA_CQP_CTX_SIZE = 8 qwords). */
#define IRDMA_CQP_CTX_SIZE		64u
/** Smallest CQP SQ (entries, power of two). */
#define IRDMA_CQP_SQ_MIN		4u
/** Largest CQP SQ (entries, power of two); the kernel uses this size. */
#define IRDMA_CQP_SQ_MAX		2048u
/** Alignment of the CQP SQ base (IRDMA_CQP_ALIGNMENT; CQPHC_SQBASE is bits 63:9). */
#define IRDMA_CQP_SQ_ALIGN		512u
/** Polarity a new CQP SQ starts with; it flips to 1 when slot 0 is first used. */
#define IRDMA_CQP_POLARITY_INIT		0u
/** Register polls while waiting for CQP create / a register-polled op. */
#define IRDMA_CQP_DONE_COUNT		1000u
/** Microseconds between those polls. */
#define IRDMA_CQP_SLEEP_US		10u
/** CQ id of the CCQ (the CQP's completion queue). */
#define IRDMA_CCQ_ID			0u

/** Alignment masks for queue memory (defs.h enum; value = alignment - 1). */
#define IRDMA_Q_ALIGN_MASK		(128u - 1)
/** AEQ memory alignment mask. */
#define IRDMA_AEQ_ALIGN_MASK		(256u - 1)
/** Q2 buffer alignment mask. */
#define IRDMA_Q2_ALIGN_MASK		(256u - 1)
/** CEQ memory alignment mask. */
#define IRDMA_CEQ_ALIGN_MASK		(256u - 1)
/** CQ0 (CCQ) memory alignment mask. */
#define IRDMA_CQ0_ALIGN_MASK		(256u - 1)
/** Host context (QP ctx) alignment mask. */
#define IRDMA_HOST_CTX_ALIGN_MASK	(4u - 1)
/** FPM query / commit buffer alignment mask. */
#define IRDMA_FPM_BUF_ALIGN_MASK	(4u - 1)

/** The CQP host context (written by SW; PA goes to CCQPHIGH / CCQPLOW). */
IRDMA_LAYOUT(cqp_ctx, 8);
/** A CQP SQ WQE. */
IRDMA_LAYOUT(cqp_wqe, 8);

_Static_assert(sizeof(struct irdma_cqp_ctx) == IRDMA_CQP_CTX_SIZE, "CQP ctx is 64 B");
_Static_assert(sizeof(struct irdma_cqp_wqe) == IRDMA_CQP_WQE_SIZE, "CQP WQE is 64 B");

/* ---------------------------------------------------------------------------------------
 * CQP host context (doc/hardware.md §5.1; defs.h IRDMA_CQPHC_*).
 */

/** Disable packed PDUs (iWARP). */
IRDMA_BIT(cqp_ctx, CQPHC_DISABLE_PFPDUS, 0, 1);
/** RoCEv2 retransmit-timeout policy (gen2+). */
IRDMA_BIT(cqp_ctx, CQPHC_ROCEV2_RTO_POLICY, 0, 2);
/** Protocol used (enum irdma_protocol_used; gen2+). */
IRDMA_FIELD(cqp_ctx, CQPHC_PROTOCOL_USED, 0, 4, 3);
/** Encoded CQP SQ size: log2(entries) - 1 (irdma_cqp_encode_sq_size). */
IRDMA_FIELD(cqp_ctx, CQPHC_SQSIZE, 0, 11, 8);
/** Structure version. */
IRDMA_FIELD(cqp_ctx, CQPHC_SVER, 0, 31, 24);
/** CEQs per VF. */
IRDMA_FIELD(cqp_ctx, CQPHC_CEQPERVF, 0, 39, 32);
/** CQP SQ physical address (512-byte aligned: bits 8:0 zero; CQPHC_SQBASE 63:9). */
IRDMA_FIELD(cqp_ctx, CQPHC_SQ_PA, 1, 63, 0);
/** HMC profile (enum irdma_hmc_profile). */
IRDMA_FIELD(cqp_ctx, CQPHC_HMC_PROFILE, 2, 2, 0);
/** Number of enabled VFs. */
IRDMA_FIELD(cqp_ctx, CQPHC_ENABLED_VFS, 2, 37, 32);
/** CQP completion context: echoed in qword 1 of every CCQ CQE. */
IRDMA_FIELD(cqp_ctx, CQPHC_COMPL_CTX, 3, 63, 0);
/** HW minor version. */
IRDMA_FIELD(cqp_ctx, CQPHC_HW_MINVER, 4, 15, 0);
/** HW major version (IRDMA_CQPHC_HW_MAJVER_GEN*). */
IRDMA_FIELD(cqp_ctx, CQPHC_HW_MAJVER, 4, 31, 16);
/** DCQCN minimum rate (gen2+). */
IRDMA_FIELD(cqp_ctx, CQPHC_MIN_RATE, 4, 51, 48);
/** DCQCN minimum decrease factor (gen2+). */
IRDMA_FIELD(cqp_ctx, CQPHC_MIN_DEC_FACTOR, 4, 59, 56);
/** DCQCN T (gen2+). */
IRDMA_FIELD(cqp_ctx, CQPHC_DCQCN_T, 6, 15, 0);
/** DCQCN hyper-active-increase factor. */
IRDMA_FIELD(cqp_ctx, CQPHC_HAI_FACTOR, 6, 47, 32);
/** DCQCN rate-additive-increase factor. */
IRDMA_FIELD(cqp_ctx, CQPHC_RAI_FACTOR, 6, 63, 48);
/** DCQCN B. */
IRDMA_FIELD(cqp_ctx, CQPHC_DCQCN_B, 7, 24, 0);
/** DCQCN F. */
IRDMA_FIELD(cqp_ctx, CQPHC_DCQCN_F, 7, 27, 25);
/** Congestion-control parameters valid. */
IRDMA_BIT(cqp_ctx, CQPHC_CC_CFG_VALID, 7, 31);
/** Rate-reduce monitor period. */
IRDMA_FIELD(cqp_ctx, CQPHC_RREDUCE_MPERIOD, 7, 63, 32);

/** CQPHC_HW_MAJVER of gen1. */
#define IRDMA_CQPHC_HW_MAJVER_GEN1	0u
/** CQPHC_HW_MAJVER of gen2 (E810). */
#define IRDMA_CQPHC_HW_MAJVER_GEN2	1u
/** CQPHC_HW_MAJVER of gen3. */
#define IRDMA_CQPHC_HW_MAJVER_GEN3	2u

/** CQPHC_PROTOCOL_USED values. */
enum irdma_protocol_used {
	IRDMA_PROTOCOL_ANY	= 0, /**< iWARP and RoCE */
	IRDMA_PROTOCOL_IWARP	= 1, /**< iWARP only */
	IRDMA_PROTOCOL_ROCE	= 2, /**< RoCE only */
};

/** CQPHC_HMC_PROFILE values. */
enum irdma_hmc_profile {
	IRDMA_HMC_PROFILE_DEFAULT	= 1, /**< PF gets most resources */
	IRDMA_HMC_PROFILE_FAVOR_VF	= 2, /**< favour VFs */
	IRDMA_HMC_PROFILE_EQUAL		= 3, /**< equal split */
};

/** Encoded CQP SQ size for CQPHC_SQSIZE: log2(@p entries) - 1 (4 -> 1 ... 2048 -> 10). */
static inline uint32_t
irdma_cqp_encode_sq_size(uint32_t entries)
{
	uint32_t l = irdma_log2_u32(entries);

	return l >= 1 ? l - 1 : 0;
}

/* ---------------------------------------------------------------------------------------
 * Opcodes (doc/hardware.md §5.2; IRDMA_CQP_OP_*).
 */

/** CQP WQE opcodes (header CQP_OPCODE). */
enum irdma_cqp_opcode {
	IRDMA_CQP_OP_CREATE_QP			= 0x00, /**< create QP */
	IRDMA_CQP_OP_MODIFY_QP			= 0x01, /**< modify QP */
	IRDMA_CQP_OP_DESTROY_QP			= 0x02, /**< destroy QP */
	IRDMA_CQP_OP_CREATE_CQ			= 0x03, /**< create CQ (also the CCQ) */
	IRDMA_CQP_OP_MODIFY_CQ			= 0x04, /**< modify / resize CQ */
	IRDMA_CQP_OP_DESTROY_CQ			= 0x05, /**< destroy CQ */
	IRDMA_CQP_OP_CREATE_SRQ			= 0x06, /**< gen3 only */
	IRDMA_CQP_OP_MODIFY_SRQ			= 0x07, /**< gen3 only */
	IRDMA_CQP_OP_DESTROY_SRQ		= 0x08, /**< gen3 only */
	IRDMA_CQP_OP_ALLOC_STAG			= 0x09, /**< allocate STag (MR or MW) */
	IRDMA_CQP_OP_REG_MR			= 0x0a, /**< register MR */
	IRDMA_CQP_OP_QUERY_STAG			= 0x0b, /**< query STag */
	IRDMA_CQP_OP_REG_SMR			= 0x0c, /**< register shared MR */
	IRDMA_CQP_OP_DEALLOC_STAG		= 0x0d, /**< deallocate STag */
	IRDMA_CQP_OP_MANAGE_LOC_MAC_TABLE	= 0x0e, /**< local MAC table */
	IRDMA_CQP_OP_MANAGE_ARP			= 0x0f, /**< ARP (remote MAC) table */
	IRDMA_CQP_OP_MANAGE_VF_PBLE_BP		= 0x10, /**< VF PBLE backing pages */
	IRDMA_CQP_OP_MANAGE_PUSH_PAGES		= 0x11, /**< allocate / free push page */
	IRDMA_CQP_OP_QUERY_RDMA_FEATURES	= 0x12, /**< feature / FW version query */
	IRDMA_CQP_OP_UPLOAD_CONTEXT		= 0x13, /**< read back a QP context */
	IRDMA_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY = 0x14, /**< local MAC entry */
	IRDMA_CQP_OP_MANAGE_HMC_PM_FUNC_TABLE	= 0x15, /**< HMC function table */
	IRDMA_CQP_OP_CREATE_CEQ			= 0x16, /**< create CEQ */
	IRDMA_CQP_OP_DESTROY_CEQ		= 0x18, /**< destroy CEQ */
	IRDMA_CQP_OP_CREATE_AEQ			= 0x19, /**< create AEQ */
	IRDMA_CQP_OP_DESTROY_AEQ		= 0x1b, /**< destroy AEQ */
	IRDMA_CQP_OP_CREATE_ADDR_HANDLE		= 0x1c, /**< create AH */
	IRDMA_CQP_OP_MODIFY_ADDR_HANDLE		= 0x1d, /**< modify AH */
	IRDMA_CQP_OP_DESTROY_ADDR_HANDLE	= 0x1e, /**< destroy AH */
	IRDMA_CQP_OP_UPDATE_PE_SDS		= 0x1f, /**< program HMC segment descriptors */
	IRDMA_CQP_OP_QUERY_FPM_VAL		= 0x20, /**< read HMC object limits */
	IRDMA_CQP_OP_COMMIT_FPM_VAL		= 0x21, /**< commit HMC object counts */
	IRDMA_CQP_OP_FLUSH_WQES			= 0x22, /**< flush SQ / RQ (also GEN_AE) */
	IRDMA_CQP_OP_MANAGE_APBVT		= 0x23, /**< iWARP port table */
	IRDMA_CQP_OP_NOP			= 0x24, /**< no operation */
	IRDMA_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY = 0x25, /**< quad hash entry */
	IRDMA_CQP_OP_CREATE_MCAST_GRP		= 0x26, /**< create multicast group */
	IRDMA_CQP_OP_MODIFY_MCAST_GRP		= 0x27, /**< modify multicast group */
	IRDMA_CQP_OP_DESTROY_MCAST_GRP		= 0x28, /**< destroy multicast group */
	IRDMA_CQP_OP_SUSPEND_QP			= 0x29, /**< suspend QP */
	IRDMA_CQP_OP_RESUME_QP			= 0x2a, /**< resume QP */
	IRDMA_CQP_OP_SHMC_PAGES_ALLOCATED	= 0x2b, /**< HMC pages allocated */
	IRDMA_CQP_OP_WORK_SCHED_NODE		= 0x2c, /**< work scheduler node */
	IRDMA_CQP_OP_MANAGE_STATS		= 0x2d, /**< statistics instance */
	IRDMA_CQP_OP_GATHER_STATS		= 0x2e, /**< gather statistics */
	IRDMA_CQP_OP_UP_MAP			= 0x2f, /**< user-priority map */
};

/** GEN_AE shares the FLUSH_WQES opcode (GENERATE_AE set, no flush bits). */
#define IRDMA_CQP_OP_GEN_AE		IRDMA_CQP_OP_FLUSH_WQES

/** CQP major error codes (CCQ CQE_MAJERR, CQPERRCODES.MAJOR). */
enum irdma_cqp_major {
	IRDMA_CQP_MAJ_NO_ERROR		= 0x0000, /**< success */
	IRDMA_CQP_MAJ_OBJCACHE_ERROR	= 0xf000, /**< object cache error */
	IRDMA_CQP_MAJ_CNTXTCACHE_ERROR	= 0xf001, /**< context cache error */
	IRDMA_CQP_MAJ_ERROR		= 0xffff, /**< generic error */
};

/** CQP minor error codes the driver interprets. */
enum irdma_cqp_minor {
	IRDMA_CQP_MIN_STAG_INVALID	= 0x0001, /**< STag invalid */
	IRDMA_CQP_MIN_SUSPEND_PND	= 0x0005, /**< suspend pending */
	/**
	 * The object is in use (with major IRDMA_CQP_MAJ_ERROR): DEALLOC_STAG of a region a
	 * memory window is still bound to. The kernel's irdma_wait_event turns it into -EBUSY
	 * (commit "RDMA/irdma: Return error on MR deregister CQP failure", 2022: "The MR
	 * deregister CQP can fail if an MW is bound to it").
	 */
	IRDMA_CQP_MIN_BUSY		= 0x8002,
};

/* ---------------------------------------------------------------------------------------
 * Common header fields and shared fields.
 */

/** Operation (enum irdma_cqp_opcode). */
IRDMA_FIELD(cqp_wqe, CQP_OPCODE, 3, 37, 32);
/** Valid bit = CQP SQ polarity; qword 3 is written last. */
IRDMA_BIT(cqp_wqe, CQP_WQEVALID, 3, 63);
/** PBL level of the queue / MR (enum irdma_pbl_chunk); CQ, CEQ, AEQ, STag commands. */
IRDMA_FIELD(cqp_wqe, CQP_LPBLSIZE, 3, 45, 44);
/** TPH enable (CQ, CEQ). */
IRDMA_BIT(cqp_wqe, CQP_TPHEN, 3, 60);
/** TPH value (CQ, CEQ), qword 7. */
IRDMA_FIELD(cqp_wqe, CQP_TPHVAL, 7, 7, 0);
/** VSI index (CQ, CEQ), qword 7 (old defs 17:8). */
IRDMA_FIELD(cqp_wqe, CQP_VSIIDX, 7, 17, 8);
/** VSI index, gen3 width (new defs 23:8). */
IRDMA_FIELD(cqp_wqe, CQP_VSIIDX_GEN3, 7, 23, 8);

/* ---------------------------------------------------------------------------------------
 * CREATE_QP / MODIFY_QP / DESTROY_QP (doc/hardware.md §5.3; defs.h IRDMA_CQPSQ_QP_*).
 */

/** MODIFY_QP: new MSS. */
IRDMA_FIELD(cqp_wqe, CQP_QP_NEWMSS, 1, 45, 32);
/** MODIFY_QP: terminate message length. */
IRDMA_FIELD(cqp_wqe, CQP_QP_TERMLEN, 1, 51, 48);
/** Physical address of the 256-byte QP host context. */
IRDMA_FIELD(cqp_wqe, CQP_QP_CTX_PA, 2, 63, 0);
/** Physical address of the QP shadow area. */
IRDMA_FIELD(cqp_wqe, CQP_QP_SHADOW_PA, 5, 63, 0);
/** QP id. */
IRDMA_FIELD(cqp_wqe, CQP_QP_ID, 3, 23, 0);
/** ORD / IRD sizes in the context are valid. */
IRDMA_BIT(cqp_wqe, CQP_QP_ORDVALID, 3, 42);
/** TOE context valid (iWARP). */
IRDMA_BIT(cqp_wqe, CQP_QP_TOECTXVALID, 3, 43);
/** MODIFY_QP: cached variables valid. */
IRDMA_BIT(cqp_wqe, CQP_QP_CACHEDVARVALID, 3, 44);
/** SQ / RQ addresses in the context are PBLE indices (level 1). */
IRDMA_BIT(cqp_wqe, CQP_QP_VQ, 3, 45);
/** Force loopback. */
IRDMA_BIT(cqp_wqe, CQP_QP_FORCELOOPBACK, 3, 46);
/** TX / RX CQ numbers in the context are valid. */
IRDMA_BIT(cqp_wqe, CQP_QP_CQNUMVALID, 3, 47);
/** QP type (enum irdma_qp_type). */
IRDMA_FIELD(cqp_wqe, CQP_QP_TYPE, 3, 50, 48);
/** MAC valid. */
IRDMA_BIT(cqp_wqe, CQP_QP_MACVALID, 3, 51);
/** MODIFY_QP: MSS change. */
IRDMA_BIT(cqp_wqe, CQP_QP_MSSCHANGE, 3, 52);
/** DESTROY_QP: ignore bound memory windows. */
IRDMA_BIT(cqp_wqe, CQP_QP_IGNOREMWBOUND, 3, 54);
/** MODIFY / DESTROY_QP: remove the hash entry. */
IRDMA_BIT(cqp_wqe, CQP_QP_REMOVEHASHENTRY, 3, 55);
/** MODIFY_QP: terminate action. */
IRDMA_FIELD(cqp_wqe, CQP_QP_TERMACT, 3, 57, 56);
/** MODIFY_QP: reset connection. */
IRDMA_BIT(cqp_wqe, CQP_QP_RESETCON, 3, 58);
/** ARP table index in the context is valid. */
IRDMA_BIT(cqp_wqe, CQP_QP_ARPTABIDXVALID, 3, 59);
/** Next HW QP state (enum irdma_qp_hw_state). */
IRDMA_FIELD(cqp_wqe, CQP_QP_NEXTIWSTATE, 3, 62, 60);

/** CQP_QP_TYPE values (defs.h IRDMA_QP_TYPE_*). */
enum irdma_qp_type {
	IRDMA_QP_TYPE_IWARP	= 1, /**< iWARP */
	IRDMA_QP_TYPE_UDA	= 2, /**< UD for the kernel's PUDA */
	IRDMA_QP_TYPE_ROCE_RC	= 3, /**< RoCE reliable connected */
	IRDMA_QP_TYPE_ROCE_UD	= 4, /**< RoCE unreliable datagram */
};

/** HW QP states for CQP_QP_NEXTIWSTATE (defs.h IRDMA_QP_STATE_*; doc/hardware.md §5.4). */
enum irdma_qp_hw_state {
	IRDMA_QP_HW_INVALID	= 0, /**< reset / not created */
	IRDMA_QP_HW_IDLE	= 1, /**< verbs INIT */
	IRDMA_QP_HW_RTS		= 2, /**< ready to send */
	IRDMA_QP_HW_SQD		= 3, /**< SQ drained (iWARP: CLOSING) */
	IRDMA_QP_HW_RTR		= 4, /**< ready to receive */
	IRDMA_QP_HW_TERMINATE	= 5, /**< terminate */
	IRDMA_QP_HW_ERROR	= 6, /**< error */
	/** Driver only, never sent: the device was reset under the QP (irdma_pf.c). */
	IRDMA_QP_HW_FATAL	= 7,
};

/* ---------------------------------------------------------------------------------------
 * CREATE_CQ / MODIFY_CQ / DESTROY_CQ (doc/hardware.md §5.3; defs.h IRDMA_CQPSQ_CQ_*;
 * per-device masks in icrdma_hw.h).
 */

/** Number of 32-byte CQ entries. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_SIZE, 0, 20, 0);
/** CQ context (cq pointer >> 1): returned in CEQEs and CQ AEQEs. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_CTX, 1, 62, 0);
/** Shadow-area read threshold. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_SHADOW_READ_THRESHOLD, 2, 17, 0);
/** CQ ring physical address (0 when VIRTMAP). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_PA, 4, 63, 0);
/** CQ shadow-area physical address. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_SHADOW_PA, 5, 63, 0);
/** First PBLE index (when VIRTMAP). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_FIRST_PBLIDX, 6, 27, 0);
/** CQ id (gen2 mask 18:0). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_ID, 3, 18, 0);
/** CQ id, gen1 mask. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_ID_GEN1, 3, 15, 0);
/** CEQ id (gen2 mask 31:22). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_CEQID, 3, 31, 22);
/** CEQ id, gen1 mask. */
IRDMA_FIELD(cqp_wqe, CQP_CQ_CEQID_GEN1, 3, 30, 24);
/** MODIFY_CQ: resize. */
IRDMA_BIT(cqp_wqe, CQP_CQ_RESIZE, 3, 43);
/** Check for overflow against the shadow-area head. */
IRDMA_BIT(cqp_wqe, CQP_CQ_CHKOVERFLOW, 3, 46);
/** CQ memory is described by PBLEs. */
IRDMA_BIT(cqp_wqe, CQP_CQ_VIRTMAP, 3, 47);
/** Enable CEQEs for this CQ. */
IRDMA_BIT(cqp_wqe, CQP_CQ_ENCEQEMASK, 3, 48);
/** CQP_CQ_CEQID is valid. */
IRDMA_BIT(cqp_wqe, CQP_CQ_CEQIDVALID, 3, 49);
/** Gen3: CQ id high bits (new defs). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_ID_HIGH_GEN3, 3, 52, 50);
/** Gen3: CEQ id high bits (new defs). */
IRDMA_FIELD(cqp_wqe, CQP_CQ_CEQID_HIGH_GEN3, 3, 59, 54);
/** 64-byte CQ entries (avoid memory conflicts). */
IRDMA_BIT(cqp_wqe, CQP_CQ_AVOIDMEMCNFLCT, 3, 61);

/** Largest shadow-read threshold (IRDMA_MAX_CQ_READ_THRESH). */
#define IRDMA_MAX_CQ_READ_THRESH	0x3ffffu

/* ---------------------------------------------------------------------------------------
 * ALLOC_STAG / REG_MR / DEALLOC_STAG, MW alloc (doc/hardware.md §5.3; defs.h CQPSQ_STAG_*).
 */

/** REG_MR: VA (VA-based) or first-byte offset va & (page_size - 1). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_VA_FBO, 0, 63, 0);
/** Region length in bytes. */
IRDMA_FIELD(cqp_wqe, CQP_STAG_LEN, 1, 45, 0);
/** PD id (gen2 mask 63:46, 18 bits). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_PDID, 1, 63, 46);
/** PD id, gen1 mask. */
IRDMA_FIELD(cqp_wqe, CQP_STAG_PDID_GEN1, 1, 62, 48);
/** STag key (low 8 bits of the STag). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_KEY, 2, 7, 0);
/** STag index (STag >> 8). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_IDX, 2, 31, 8);
/** REG_MR: physical address when the PBL level is 0, else 0. */
IRDMA_FIELD(cqp_wqe, CQP_STAG_PA, 4, 63, 0);
/** HMC function index. */
IRDMA_FIELD(cqp_wqe, CQP_STAG_HMCFNIDX, 5, 5, 0);
/** First PBLE index (PBL level 1 or 2). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_FIRST_PBLIDX, 6, 27, 0);
/** MW alloc: window type (1 = type 1). */
IRDMA_BIT(cqp_wqe, CQP_STAG_MWTYPE, 3, 42);
/** 1 = memory region, 0 = memory window. */
IRDMA_BIT(cqp_wqe, CQP_STAG_MR, 3, 43);
/** Host page size (enum irdma_hpage_size; 4K / 2M / 1G only). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_HPAGESIZE, 3, 47, 46);
/** Access rights (enum irdma_access_bits). */
IRDMA_FIELD(cqp_wqe, CQP_STAG_ARIGHTS, 3, 52, 48);
/** Remote access enabled (rights include remote read or write). */
IRDMA_BIT(cqp_wqe, CQP_STAG_REMACCENABLED, 3, 53);
/** MW alloc: type-1 bind does not validate the key. */
IRDMA_BIT(cqp_wqe, CQP_STAG_MW1_BIND_DONT_VLDT_KEY, 3, 58);
/** REG_MR: VA-based addressing. */
IRDMA_BIT(cqp_wqe, CQP_STAG_VABASEDTO, 3, 59);
/** Use CQP_STAG_HMCFNIDX. */
IRDMA_BIT(cqp_wqe, CQP_STAG_USEHMCFNIDX, 3, 60);
/** Use the PF RID. */
IRDMA_BIT(cqp_wqe, CQP_STAG_USEPFRID, 3, 61);
/** Gen3 (new defs.h): the region / window allows remote atomics (same bit as USEPFRID). */
IRDMA_BIT(cqp_wqe, CQP_STAG_REMOTE_ATOMIC_EN, 3, 61);

/** Bits of the STag below the index (STag = index << 8 | key). */
#define IRDMA_STAG_KEY_BITS		8u

/* ---------------------------------------------------------------------------------------
 * MANAGE_ARP (doc/hardware.md §5.3; defs.h CQPSQ_MAT_*).
 */

/** Reach-max value (add). */
IRDMA_FIELD(cqp_wqe, CQP_ARP_REACHMAX, 1, 31, 0);
/** Remote MAC address, 48 bits (add). */
IRDMA_FIELD(cqp_wqe, CQP_ARP_MAC, 2, 47, 0);
/** ARP table index. */
IRDMA_FIELD(cqp_wqe, CQP_ARP_INDEX, 3, 11, 0);
/** 1 = add / update the entry, 0 = delete it. */
IRDMA_BIT(cqp_wqe, CQP_ARP_ENTRYVALID, 3, 42);
/** Permanent entry. */
IRDMA_BIT(cqp_wqe, CQP_ARP_PERMANENT, 3, 43);
/** Query the entry. */
IRDMA_BIT(cqp_wqe, CQP_ARP_QUERY, 3, 44);

/* ---------------------------------------------------------------------------------------
 * CREATE / MODIFY / DESTROY_ADDR_HANDLE (doc/hardware.md silent: kernel uda_d.h, uda.c).
 * IPv6 addresses: ADDR0 is the most significant 32 bits; IPv4 uses ADDR3 only.
 */

/** Destination MAC address << 16 (qword 0 bits 63:16). */
IRDMA_FIELD(cqp_wqe, CQP_AH_MAC, 0, 63, 16);
/** VLAN tag. */
IRDMA_FIELD(cqp_wqe, CQP_AH_VLANTAG, 1, 15, 0);
/** Traffic class / TOS. */
IRDMA_FIELD(cqp_wqe, CQP_AH_TC, 1, 39, 32);
/** PD index, low 16 bits. */
IRDMA_FIELD(cqp_wqe, CQP_AH_PDINDEXLO, 1, 63, 48);
/** Flow label. */
IRDMA_FIELD(cqp_wqe, CQP_AH_FLOWLABEL, 2, 19, 0);
/** PD index, bits 17:16. */
IRDMA_FIELD(cqp_wqe, CQP_AH_PDINDEXHI, 2, 21, 20);
/** Hop limit / TTL. */
IRDMA_FIELD(cqp_wqe, CQP_AH_HOPLIMIT, 2, 39, 32);
/** Destination ARP index. */
IRDMA_FIELD(cqp_wqe, CQP_AH_ARPINDEX, 2, 63, 48);
/** Destination IP word 3 (IPv4 address). */
IRDMA_FIELD(cqp_wqe, CQP_AH_DEST_ADDR3, 4, 31, 0);
/** Destination IP word 2. */
IRDMA_FIELD(cqp_wqe, CQP_AH_DEST_ADDR2, 4, 63, 32);
/** Destination IP word 1. */
IRDMA_FIELD(cqp_wqe, CQP_AH_DEST_ADDR1, 5, 31, 0);
/** Destination IP word 0. */
IRDMA_FIELD(cqp_wqe, CQP_AH_DEST_ADDR0, 5, 63, 32);
/** Source IP word 3 (IPv4 address). */
IRDMA_FIELD(cqp_wqe, CQP_AH_SRC_ADDR3, 6, 31, 0);
/** Source IP word 2. */
IRDMA_FIELD(cqp_wqe, CQP_AH_SRC_ADDR2, 6, 63, 32);
/** Source IP word 1. */
IRDMA_FIELD(cqp_wqe, CQP_AH_SRC_ADDR1, 7, 31, 0);
/** Source IP word 0. */
IRDMA_FIELD(cqp_wqe, CQP_AH_SRC_ADDR0, 7, 63, 32);
/** AH index (FSIAV object index). */
IRDMA_FIELD(cqp_wqe, CQP_AH_IDX, 3, 16, 0);
/** IPv4 addresses. */
IRDMA_BIT(cqp_wqe, CQP_AH_IPV4VALID, 3, 59);
/** Insert the VLAN tag. */
IRDMA_BIT(cqp_wqe, CQP_AH_INSERTVLANTAG, 3, 60);
/** Loopback. */
IRDMA_BIT(cqp_wqe, CQP_AH_DOLOOPBACK, 3, 62);

/* ---------------------------------------------------------------------------------------
 * FLUSH_WQES / GEN_AE (doc/hardware.md §5.3; defs.h CQPSQ_FWQE_*).
 */

/** AE code to generate (with CQP_FLUSH_GENERATE_AE). */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_AECODE, 1, 15, 0);
/** AE source to generate. */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_AESOURCE, 1, 19, 16);
/** RQ flush minor code (with CQP_FLUSH_USERFLCODE). */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_RQ_MINOR, 2, 15, 0);
/** RQ flush major code. */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_RQ_MAJOR, 2, 31, 16);
/** SQ flush minor code. */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_SQ_MINOR, 2, 47, 32);
/** SQ flush major code. */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_SQ_MAJOR, 2, 63, 48);
/** QP id. */
IRDMA_FIELD(cqp_wqe, CQP_FLUSH_QP_ID, 3, 23, 0);
/** Generate an AE with CQP_FLUSH_AECODE / AESOURCE. */
IRDMA_BIT(cqp_wqe, CQP_FLUSH_GENERATE_AE, 3, 59);
/** Use the SW-supplied flush codes of qword 2. */
IRDMA_BIT(cqp_wqe, CQP_FLUSH_USERFLCODE, 3, 60);
/** Flush the SQ. */
IRDMA_BIT(cqp_wqe, CQP_FLUSH_SQ, 3, 61);
/** Flush the RQ. */
IRDMA_BIT(cqp_wqe, CQP_FLUSH_RQ, 3, 62);

/* ---------------------------------------------------------------------------------------
 * CREATE_CEQ / DESTROY_CEQ, CREATE_AEQ / DESTROY_AEQ (doc/hardware.md §5.3; defs.h).
 * TPH / VSI use CQP_TPHEN, CQP_TPHVAL, CQP_VSIIDX; the PBL level uses CQP_LPBLSIZE.
 */

/** CEQ size in entries. */
IRDMA_FIELD(cqp_wqe, CQP_CEQ_SIZE, 2, 21, 0);
/** CEQ ring physical address (0 when VMAP). */
IRDMA_FIELD(cqp_wqe, CQP_CEQ_PA, 4, 63, 0);
/** CEQ first PBLE index (when VMAP). */
IRDMA_FIELD(cqp_wqe, CQP_CEQ_FIRST_PBLIDX, 6, 27, 0);
/** CEQ id. */
IRDMA_FIELD(cqp_wqe, CQP_CEQ_ID, 3, 9, 0);
/** CEQ: interrupt throttling does not expire. */
IRDMA_BIT(cqp_wqe, CQP_CEQ_ITRNOEXPIRE, 3, 46);
/** CEQ memory is described by PBLEs. */
IRDMA_BIT(cqp_wqe, CQP_CEQ_VMAP, 3, 47);
/** AEQ size in entries. */
IRDMA_FIELD(cqp_wqe, CQP_AEQ_SIZE, 2, 18, 0);
/** AEQ ring physical address (0 when VMAP). */
IRDMA_FIELD(cqp_wqe, CQP_AEQ_PA, 4, 63, 0);
/** AEQ first PBLE index (when VMAP). */
IRDMA_FIELD(cqp_wqe, CQP_AEQ_FIRST_PBLIDX, 6, 27, 0);
/** AEQ memory is described by PBLEs. */
IRDMA_BIT(cqp_wqe, CQP_AEQ_VMAP, 3, 47);

/* ---------------------------------------------------------------------------------------
 * QUERY_FPM_VAL / COMMIT_FPM_VAL (doc/hardware.md §5.3, §7; buffer layouts in irdma_hmc_fmt.h).
 */

/** HMC function id. */
IRDMA_FIELD(cqp_wqe, CQP_FPM_HMCFNID, 2, 5, 0);
/** Physical address of the 192-byte FPM buffer. */
IRDMA_FIELD(cqp_wqe, CQP_FPM_BUF_PA, 4, 63, 0);
/** COMMIT_FPM_VAL: buffer size (IRDMA_FPM_BUF_SIZE). */
IRDMA_FIELD(cqp_wqe, CQP_FPM_BUFSIZE, 3, 31, 0);

/* ---------------------------------------------------------------------------------------
 * UPDATE_PE_SDS (doc/hardware.md §5.3; ctrl.c cqp_sds_wqe_fill). Up to 3 SD entries sit in the
 * WQE; the rest (at most IRDMA_UPESD_MAX_ENTRIES - 3) are 16-byte entries (struct
 * irdma_sd_entry, irdma_hmc_fmt.h) in an SD buffer at sdbuf + wqe_idx * 128. Command and data
 * values use the SD_CMD_* / SD_DATA_* fields of irdma_hmc_fmt.h.
 */

/** Entry 0 command (SD_CMD_* value). */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E0_CMD, 0, 31, 0);
/** Entry 0 data (SD_DATA_* value). */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E0_DATA, 1, 63, 0);
/** HMC function id. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_HMCFNID, 2, 5, 0);
/** SD buffer physical address >> 7 (128-byte aligned), when entries are in the buffer. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_SDBUF_PA, 2, 63, 7);
/** Entry 1 command. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E1_CMD, 4, 31, 0);
/** Entry 1 present. */
IRDMA_BIT(cqp_wqe, CQP_UPESD_E1_VALID, 4, 63);
/** Entry 1 data. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E1_DATA, 5, 63, 0);
/** Entry 2 command. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E2_CMD, 6, 31, 0);
/** Entry 2 present. */
IRDMA_BIT(cqp_wqe, CQP_UPESD_E2_VALID, 6, 63);
/** Entry 2 data. */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_E2_DATA, 7, 63, 0);
/** Number of extra entries in the SD buffer (total - 3, or 0). */
IRDMA_FIELD(cqp_wqe, CQP_UPESD_ENTRY_COUNT, 3, 3, 0);

/** Most SD entries in one UPDATE_PE_SDS (IRDMA_MAX_SD_ENTRIES). */
#define IRDMA_UPESD_MAX_ENTRIES		11u
/** SD entries carried inside the WQE. */
#define IRDMA_UPESD_WQE_ENTRIES		3u
/** Bytes of SD buffer per CQP SQ slot (IRDMA_UPDATE_SD_BUFF_SIZE). */
#define IRDMA_UPESD_BUF_STRIDE		128u
/** SD buffer alignment (IRDMA_SD_BUF_ALIGNMENT). */
#define IRDMA_UPESD_BUF_ALIGN		128u

/* ---------------------------------------------------------------------------------------
 * MANAGE_STATS / GATHER_STATS (doc/hardware.md: opcodes only, §5.2; field positions from the
 * kernel's defs.h IRDMA_CQPSQ_STATS_* and ctrl.c irdma_sc_manage_stats_inst /
 * irdma_sc_gather_stats). The gather buffer layout is in irdma_stats.h.
 */

/** HMC function index (qword 5; gen2 defs.h width 5:0, widened to 15:0 for gen3). */
IRDMA_FIELD(cqp_wqe, CQP_STATS_HMC_FCN_INDEX, 5, 5, 0);
/** GATHER_STATS: physical address of the IRDMA_GATHER_STATS_BUF_SIZE-byte buffer. */
IRDMA_FIELD(cqp_wqe, CQP_STATS_BUF_PA, 4, 63, 0);
/** Statistics instance index. */
IRDMA_FIELD(cqp_wqe, CQP_STATS_INST_INDEX, 3, 6, 0);
/** Use CQP_STATS_HMC_FCN_INDEX (else the CQP's own function). */
IRDMA_BIT(cqp_wqe, CQP_STATS_USE_HMC_FCN_INDEX, 3, 60);
/** GATHER_STATS: gather CQP_STATS_INST_INDEX (else the function's default instance). */
IRDMA_BIT(cqp_wqe, CQP_STATS_USE_INST, 3, 61);
/** MANAGE_STATS: 1 = allocate an instance (the CCQ OPRETVAL returns its index), 0 = free. */
IRDMA_BIT(cqp_wqe, CQP_STATS_ALLOC_INST, 3, 62);

/* ---------------------------------------------------------------------------------------
 * MANAGE_PUSH_PAGES, QUERY_RDMA_FEATURES (doc/hardware.md §5.3; defs.h).
 */

/** Push: QS handle. */
IRDMA_FIELD(cqp_wqe, CQP_MPP_QS_HANDLE, 2, 9, 0);
/** Push: page index (gen2 9:0; the CCQ OPRETVAL returns the allocated index). */
IRDMA_FIELD(cqp_wqe, CQP_MPP_PPIDX, 3, 9, 0);
/** Push: page index, gen3 width (new defs 31:0). */
IRDMA_FIELD(cqp_wqe, CQP_MPP_PPIDX_GEN3, 3, 31, 0);
/** Push: page type. */
IRDMA_FIELD(cqp_wqe, CQP_MPP_PPTYPE, 3, 61, 60);
/** Push: free the page (else allocate). */
IRDMA_BIT(cqp_wqe, CQP_MPP_FREE_PAGE, 3, 62);
/** Features: buffer physical address. */
IRDMA_FIELD(cqp_wqe, CQP_FEAT_BUF_PA, 4, 63, 0);
/** Features: buffer length in bytes. */
IRDMA_FIELD(cqp_wqe, CQP_FEAT_BUF_LEN, 3, 31, 0);

/** One 8-byte entry of the QUERY_RDMA_FEATURES result buffer. */
IRDMA_LAYOUT(feature, 1);
/** Feature information. */
IRDMA_FIELD(feature, FEATURE_INFO, 0, 47, 0);
/** Feature type. */
IRDMA_FIELD(feature, FEATURE_TYPE, 0, 63, 48);
/** Entry 0 only: number of feature entries (at least 2). */
IRDMA_FIELD(feature, FEATURE_CNT, 0, 47, 32);
/** Firmware-version entry: minor version. */
IRDMA_FIELD(feature, FEATURE_FW_MINOR, 0, 15, 0);
/** Firmware-version entry: major version. */
IRDMA_FIELD(feature, FEATURE_FW_MAJOR, 0, 31, 16);

/* ---------------------------------------------------------------------------------------
 * CREATE_SRQ / MODIFY_SRQ / DESTROY_SRQ (gen3; defs.h IRDMA_CQPSQ_SRQ_*, kernel commit
 * 563e1feb5f6e). The bit ranges are defs.h's. Which qword each field sits in is not given
 * by defs.h (ctrl.c irdma_sc_srq_create was not read): the placement below is inferred
 * from the bit ranges (fields that overlap the header's opcode cannot be in qword 3) and
 * from the CQ layout the SRQ fields mirror (ring address qword 4, shadow qword 5, first
 * PBLE index qword 6, TPH qword 7). Driver and model agree on it.
 */

/** SRQ size, encoded: log2(quanta) - 3 (8 .. 262144 quanta -> 0 .. 15; inferred). */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_RQSIZE, 0, 3, 0);
/** SRQ WQE size shift (32 << shift bytes, as QPC_RQWQESIZE). */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_RQ_WQE_SIZE, 0, 5, 4);
/** SRQ limit: posted WQEs below which the armed SRQ raises IRDMA_AE_SRQ_LIMIT. */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_LIMIT, 0, 43, 32);
/** SRQ context (SW's cookie, returned in the SRQ's AEQEs); 64-byte aligned value. */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_CTX, 1, 63, 0);
/** PD id of the SRQ. */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_PD_ID, 2, 39, 16);
/** SRQ id (index into HMC object 2). */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_ID, 3, 15, 0);
/** Level-1 PBL (chunk size, as CQP_LPBLSIZE) when CQP_SRQ_VIRTMAP. */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_LEAF_PBL_SIZE, 3, 45, 44);
/** The ring is given as a first PBLE index (CQP_SRQ_FIRST_PBLIDX). */
IRDMA_BIT(cqp_wqe, CQP_SRQ_VIRTMAP, 3, 47);
/** TPH enable. */
IRDMA_BIT(cqp_wqe, CQP_SRQ_TPH_EN, 3, 60);
/** Arm the limit event (CREATE / MODIFY with a non-zero CQP_SRQ_LIMIT). */
IRDMA_BIT(cqp_wqe, CQP_SRQ_ARM_LIMIT_EVENT, 3, 61);
/**
 * SRQ ring physical address (defs.h 63:8 holds pa >> 8 shifted back: the same bits as the
 * address itself, 256-byte aligned).
 */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_PA, 4, 63, 0);
/** SRQ shadow-area (doorbell) address (defs.h 63:6: 64-byte aligned address). */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_SHADOW_PA, 5, 63, 0);
/** First PBLE index of the ring (when CQP_SRQ_VIRTMAP). */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_FIRST_PBLIDX, 6, 27, 0);
/** TPH value. */
IRDMA_FIELD(cqp_wqe, CQP_SRQ_TPH_VALUE, 7, 7, 0);

/** Alignment of the SRQ ring address (CQP_SRQ_PA: defs.h field starts at bit 8). */
#define IRDMA_SRQ_RING_ALIGN		256u
/** Alignment of the SRQ shadow area (CQP_SRQ_SHADOW_PA: defs.h field starts at bit 6). */
#define IRDMA_SRQ_SHADOW_ALIGN		64u
/** Encoded SRQ size of @p quanta (a power of two, 8 .. 262144). */
static inline uint32_t
irdma_encode_srq_size(uint32_t quanta)
{
	uint32_t l = irdma_log2_u32(quanta);

	return l < 3 ? 0 : l - 3;
}

/* ---------------------------------------------------------------------------------------
 * WORK_SCHED_NODE (irdma ctrl.c irdma_sc_manage_ws_node; defs.h IRDMA_CQPSQ_WS_*).
 */

/** WS: VSI number of the node (byte 32 bits 57:48). */
IRDMA_FIELD(cqp_wqe, CQP_WS_VSI, 4, 57, 48);
/** WS: weight (byte 32 bits 38:32). */
IRDMA_FIELD(cqp_wqe, CQP_WS_WEIGHT, 4, 38, 32);
/** WS: node id. */
IRDMA_FIELD(cqp_wqe, CQP_WS_NODEID, 3, 9, 0);
/** WS: parent node id (the root names itself). */
IRDMA_FIELD(cqp_wqe, CQP_WS_PARENTID, 3, 25, 16);
/** WS: VM / VF number. */
IRDMA_FIELD(cqp_wqe, CQP_WS_VMVFNUM, 3, 51, 42);
/** WS: node operation (enum irdma_ws_node_op). */
IRDMA_FIELD(cqp_wqe, CQP_WS_NODEOP, 3, 53, 52);
/** WS: VM / VF type (0: PF). */
IRDMA_FIELD(cqp_wqe, CQP_WS_VMVFTYPE, 3, 55, 54);
/** WS: traffic class (leaf). */
IRDMA_FIELD(cqp_wqe, CQP_WS_TC, 3, 58, 56);
/** WS: priority type (IRDMA_WS_PRIO_WRR). */
IRDMA_FIELD(cqp_wqe, CQP_WS_PRIOTYPE, 3, 60, 59);
/** WS: node type (1 leaf, 0 parent). */
IRDMA_BIT(cqp_wqe, CQP_WS_NODETYPE, 3, 61);
/** WS: node enabled. */
IRDMA_BIT(cqp_wqe, CQP_WS_ENABLENODE, 3, 62);

/** Work scheduler node operations (irdma enum irdma_ws_node_op). */
enum irdma_ws_node_op {
	IRDMA_WS_NODE_OP_ADD = 0,	/**< add a node (leaf: OPRETVAL = its qs_handle) */
	IRDMA_WS_NODE_OP_MODIFY = 1,	/**< change enable / weight */
	IRDMA_WS_NODE_OP_DELETE = 2,	/**< delete a node without children */
};
/** Work scheduler priority type: weighted round robin (irdma IRDMA_PRIO_WEIGHTED_RR). */
#define IRDMA_WS_PRIO_WRR		1u
/** Work scheduler node ids (irdma IRDMA_MAX_WS_NODES; 0 is reserved). */
#define IRDMA_WS_MAX_NODES		0x3ffu

#endif /* IRDMA_CQP_FMT_H */
