/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CQE_H
#define IRDMA_CQE_H

/**
 * @file
 * Completion-queue entries (doc/hardware.md §3, §5.5): the 32-byte CQE, its 32-byte extension
 * (the next ring slot on gen2, or bytes 32..63 of a 64-byte entry when the CQ avoids
 * memory conflicts), CCQ completions, and the major / minor error codes.
 *
 * The device writes qword 3 (with the valid bit) last; SW checks the valid bit against its
 * expected polarity (which starts at 1) before a read barrier and reading the rest.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Sizes.
 */

/** Bytes in a CQE (IRDMA_CQE_SIZE = 4 qwords). */
#define IRDMA_CQE_SIZE			32u
/** Bytes in an extended CQE (IRDMA_EXTENDED_CQE_SIZE = 8 qwords). */
#define IRDMA_EXT_CQE_SIZE		64u
/** Polarity HW writes on the first pass of a new (or resized) CQ; SW expects it first. */
#define IRDMA_CQ_POLARITY_INIT		1u

/** The 32-byte completion entry. */
IRDMA_LAYOUT(cqe, 4);
/** The 32-byte extension of an extended CQE (the next slot, or bytes 32..63). */
IRDMA_LAYOUT(cqe_ext, 4);

_Static_assert(sizeof(struct irdma_cqe) == IRDMA_CQE_SIZE, "CQE is 32 B");
_Static_assert(sizeof(struct irdma_cqe) + sizeof(struct irdma_cqe_ext) == IRDMA_EXT_CQE_SIZE,
	       "extended CQE is 64 B");

/* ---------------------------------------------------------------------------------------
 * CQE fields (doc/hardware.md §3; defs.h IRDMA_CQ_*, IRDMACQ_*).
 */

/** Bytes received (RQ completions). */
IRDMA_FIELD(cqe, CQE_PAYLDLEN, 0, 31, 0);
/** TCP sequence number / RTT (iWARP, report-RTT). */
IRDMA_FIELD(cqe, CQE_TCPSEQNUMRTT, 0, 63, 32);
/**
 * Completion context: the QP's context value (QP context byte 168) echoed verbatim; for
 * the CCQ the CQP context value (CQP host context qword 3); for gen3 SRQ CQEs the wr_id.
 */
IRDMA_FIELD(cqe, CQE_COMP_CTX, 1, 63, 0);
/** RC: the STag invalidated by a SEND_INV (valid when CQE_STAG is set). */
IRDMA_FIELD(cqe, CQE_INVSTAG, 2, 31, 0);
/** UD: source QP number (same bits as CQE_INVSTAG). */
IRDMA_FIELD(cqe, CQE_UD_SRCQPN, 2, 31, 0);
/** QP id of the completing QP. */
IRDMA_FIELD(cqe, CQE_QPID, 2, 55, 32);
/** CCQ: value returned by the CQP operation (e.g. a push-page index). */
IRDMA_FIELD(cqe, CCQ_OPRETVAL, 2, 31, 0);
/** CCQ (gen3, new defs): deferred-completion information. */
IRDMA_FIELD(cqe, CCQ_DEFINFO, 2, 63, 32);
/** Minor error code (for flushes: enum irdma_flush_code). */
IRDMA_FIELD(cqe, CQE_MINERR, 3, 15, 0);
/** Major error code (IRDMA_CQE_MAJOR_FLUSH = flushed; CCQ: enum irdma_cqp_major). */
IRDMA_FIELD(cqe, CQE_MAJERR, 3, 31, 16);
/** WQE index: SQ starting quantum; RQ quantum index; CCQ CQP SQ slot. */
IRDMA_FIELD(cqe, CQE_WQEIDX, 3, 46, 32);
/** Extended CQE: the next 32-byte slot holds struct irdma_cqe_ext. */
IRDMA_BIT(cqe, CQE_EXTCQE, 3, 50);
/** Push WQE was dropped: SW falls back to the normal doorbell. */
IRDMA_BIT(cqe, CQE_PSHDROP, 3, 51);
/** Gen3: completion of an SRQ WQE (wr_id in CQE_COMP_CTX). */
IRDMA_BIT(cqe, CQE_SRQ, 3, 52);
/** RC: CQE_INVSTAG is valid. */
IRDMA_BIT(cqe, CQE_STAG, 3, 53);
/** UD: packet received over IPv4 (same bit as CQE_STAG). */
IRDMA_BIT(cqe, CQE_IPV4, 3, 53);
/** Solicited event (also named OOO_CMPL in defs.h). */
IRDMA_BIT(cqe, CQE_SOEVENT, 3, 54);
/** Completion with error (see MAJERR / MINERR). */
IRDMA_BIT(cqe, CQE_ERROR, 3, 55);
/** SQ: WQE opcode (enum irdma_sq_opcode); RQ on RoCE: received IBA opcode. */
IRDMA_FIELD(cqe, CQE_OP, 3, 61, 56);
/** Queue type: 1 = SQ completion, 0 = RQ (IRDMA_CQE_QTYPE_*). */
IRDMA_BIT(cqe, CQE_SQ, 3, 62);
/** Valid bit (= the CQ's current polarity). */
IRDMA_BIT(cqe, CQE_VALID, 3, 63);

/* ---------------------------------------------------------------------------------------
 * Extension fields (doc/hardware.md §3: ext qw4/qw6/qw7 = qwords 0/2/3 of the second slot).
 */

/** Immediate data, low 32 bits (host order; verbs applies htonl). */
IRDMA_FIELD(cqe_ext, CQE_EXT_IMMDATA, 0, 31, 0);
/** Immediate data, high 32 bits (defs.h IMMDATAUP32; zero for verbs immediates). */
IRDMA_FIELD(cqe_ext, CQE_EXT_IMMDATA_HI, 0, 63, 32);
/** UD source MAC: byte 0 = smac[5] ... byte 5 = smac[0]. */
IRDMA_FIELD(cqe_ext, CQE_EXT_UDSMAC, 2, 47, 0);
/** UD VLAN tag (sl = vlan >> 13). */
IRDMA_FIELD(cqe_ext, CQE_EXT_UDVLAN, 2, 63, 48);
/** UD VLAN tag valid. */
IRDMA_BIT(cqe_ext, CQE_EXT_UDVLANVALID, 3, 60);
/** UD source MAC valid. */
IRDMA_BIT(cqe_ext, CQE_EXT_UDSMACVALID, 3, 61);
/** Immediate data valid. */
IRDMA_BIT(cqe_ext, CQE_EXT_IMMVALID, 3, 62);
/**
 * Gen3 SRQ CQE: the completing QP's completion context (QP context byte 168), in the
 * extension's qword 1 (byte 40 of the entry; rdma-core uk.c reads it there when CQE_SRQ is
 * set, CQE_COMP_CTX then being the wr_id).
 */
IRDMA_FIELD(cqe_ext, CQE_EXT_SRQ_QP_CTX, 1, 63, 0);
/** Valid bit of the second slot (checked against the slot's own expected polarity). */
IRDMA_BIT(cqe_ext, CQE_EXT_VALID, 3, 63);

/* ---------------------------------------------------------------------------------------
 * Codes.
 */

/** CQE_SQ value of an RQ completion. */
#define IRDMA_CQE_QTYPE_RQ		0u
/** CQE_SQ value of an SQ completion. */
#define IRDMA_CQE_QTYPE_SQ		1u

/** Major code of a flushed completion (IRDMA_FLUSH_MAJOR_ERR); MINERR is the flush code. */
#define IRDMA_CQE_MAJOR_FLUSH		0x0001u
/** Gen3: major code reserved for SRQ flushes (IRDMA_SRQFLUSH_RSVD_MAJOR_ERR, user.h). */
#define IRDMA_CQE_MAJOR_SRQ_FLUSH_RSVD	0xfffeu
/** Major code SW uses for driver-generated errors (defs.h CQE_MAJOR_DRV). */
#define IRDMA_CQE_MAJOR_DRV		0x8000u

/**
 * Flush (minor) codes carried in CQE_MINERR when CQE_MAJERR == IRDMA_CQE_MAJOR_FLUSH
 * (user.h enum irdma_flush_opcode) and the verbs status each maps to (doc/hardware.md §3).
 */
enum irdma_flush_code {
	IRDMA_FLUSH_INVALID		= 0,  /**< not a flush code */
	IRDMA_FLUSH_GENERAL_ERR		= 1,  /**< WR_FLUSH_ERR */
	IRDMA_FLUSH_PROT_ERR		= 2,  /**< LOC_PROT_ERR */
	IRDMA_FLUSH_REM_ACCESS_ERR	= 3,  /**< REM_ACCESS_ERR */
	IRDMA_FLUSH_LOC_QP_OP_ERR	= 4,  /**< LOC_QP_OP_ERR */
	IRDMA_FLUSH_REM_OP_ERR		= 5,  /**< REM_OP_ERR */
	IRDMA_FLUSH_LOC_LEN_ERR		= 6,  /**< LOC_LEN_ERR */
	IRDMA_FLUSH_FATAL_ERR		= 7,  /**< FATAL_ERR */
	IRDMA_FLUSH_RETRY_EXC_ERR	= 8,  /**< RETRY_EXC_ERR */
	IRDMA_FLUSH_MW_BIND_ERR		= 9,  /**< MW_BIND_ERR (flushed BIND + PROT_ERR too) */
	IRDMA_FLUSH_REM_INV_REQ_ERR	= 10, /**< REM_INV_REQ_ERR */
	IRDMA_FLUSH_RNR_RETRY_EXC_ERR	= 11, /**< RNR_RETRY_EXC_ERR (newer kernels) */
};

/** Short name of a flush code, for logs ("?" when unknown). */
static inline const char *
irdma_flush_code_name(uint32_t code)
{
	switch (code) {
	case IRDMA_FLUSH_INVALID:
		return "invalid";
	case IRDMA_FLUSH_GENERAL_ERR:
		return "general";
	case IRDMA_FLUSH_PROT_ERR:
		return "local protection";
	case IRDMA_FLUSH_REM_ACCESS_ERR:
		return "remote access";
	case IRDMA_FLUSH_LOC_QP_OP_ERR:
		return "local QP operation";
	case IRDMA_FLUSH_REM_OP_ERR:
		return "remote operation";
	case IRDMA_FLUSH_LOC_LEN_ERR:
		return "local length";
	case IRDMA_FLUSH_FATAL_ERR:
		return "fatal";
	case IRDMA_FLUSH_RETRY_EXC_ERR:
		return "retry exceeded";
	case IRDMA_FLUSH_MW_BIND_ERR:
		return "MW bind";
	case IRDMA_FLUSH_REM_INV_REQ_ERR:
		return "remote invalid request";
	case IRDMA_FLUSH_RNR_RETRY_EXC_ERR:
		return "RNR retry exceeded";
	default:
		return "?";
	}
}

/**
 * Vendor error value reported with a completion error: major << 16 | minor
 * (doc/hardware.md §3, poll step 5).
 */
static inline uint32_t
irdma_cqe_vendor_err(uint32_t major, uint32_t minor)
{
	return (major << 16) | (minor & 0xffffu);
}

/**
 * IBA opcodes that appear in CQE_OP of RoCE RQ completions (doc/hardware.md §3: the received
 * IBA opcode; values from the IBA opcode table, RC transport, low 5 bits).
 */
enum irdma_cqe_rq_opcode {
	IRDMA_IBA_SEND_LAST		= 0x02, /**< SEND last */
	IRDMA_IBA_SEND_LAST_IMM		= 0x03, /**< SEND last with immediate */
	IRDMA_IBA_SEND_ONLY		= 0x04, /**< SEND only */
	IRDMA_IBA_SEND_ONLY_IMM		= 0x05, /**< SEND only with immediate */
	IRDMA_IBA_WRITE_LAST_IMM	= 0x09, /**< RDMA WRITE last with imm -> RECV_RDMA_WITH_IMM */
	IRDMA_IBA_WRITE_ONLY_IMM	= 0x0b, /**< RDMA WRITE only with imm -> RECV_RDMA_WITH_IMM */
	IRDMA_IBA_SEND_LAST_INV		= 0x16, /**< SEND last with invalidate */
	IRDMA_IBA_SEND_ONLY_INV		= 0x17, /**< SEND only with invalidate */
};

/**
 * Ring slots an entry takes: 2 for a gen2 extended CQE (CQE_EXTCQE set, 32-byte ring),
 * else 1. On a 64-byte-entry (avoid_mem_cflct) CQ every entry is one 64-byte slot.
 */
static inline uint32_t
irdma_cqe_slots(uint64_t qw3)
{
	return IRDMA_GET(CQE_EXTCQE, qw3) ? 2u : 1u;
}

#endif /* IRDMA_CQE_H */
