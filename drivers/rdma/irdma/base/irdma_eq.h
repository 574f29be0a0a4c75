/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_EQ_H
#define IRDMA_EQ_H

/**
 * @file
 * Event queues (doc/hardware.md §5.5): the 8-byte completion-event entry (CEQE), the 16-byte
 * asynchronous-event entry (AEQE, gen1/gen2 layout), the asynchronous event codes and
 * their mapping to flush codes. Both queues start with polarity 1.
 */

#include <stdint.h>

#include "irdma_cqe.h"
#include "irdma_field.h"

/** Bytes in a CEQE (IRDMA_CEQE_SIZE = 1 qword). */
#define IRDMA_CEQE_SIZE			8u
/** Bytes in an AEQE (IRDMA_AEQE_SIZE = 2 qwords). */
#define IRDMA_AEQE_SIZE			16u
/** Polarity the device writes on the first pass of a CEQ / AEQ. */
#define IRDMA_EQ_POLARITY_INIT		1u

/** Completion event queue entry. */
IRDMA_LAYOUT(ceqe, 1);
/** Asynchronous event queue entry (gen1 / gen2 layout; gen3 differs). */
IRDMA_LAYOUT(aeqe, 2);

_Static_assert(sizeof(struct irdma_ceqe) == IRDMA_CEQE_SIZE, "CEQE is 8 B");
_Static_assert(sizeof(struct irdma_aeqe) == IRDMA_AEQE_SIZE, "AEQE is 16 B");

/* ---------------------------------------------------------------------------------------
 * CEQE (defs.h IRDMA_CEQE_*).
 */

/** CQ context: the CREATE_CQ qword-1 value (cq pointer >> 1); 0 = entry was cleaned. */
IRDMA_FIELD(ceqe, CEQE_CQCTX, 0, 62, 0);
/** Valid bit (= the CEQ's current polarity). */
IRDMA_BIT(ceqe, CEQE_VALID, 0, 63);

/* ---------------------------------------------------------------------------------------
 * AEQE (defs.h IRDMA_AEQE_*).
 */

/** Completion context: the QP context value (QP ctx byte 168) or the CQ context (>> 1). */
IRDMA_FIELD(aeqe, AEQE_COMPCTX, 0, 63, 0);
/** QP or CQ id, low 18 bits. */
IRDMA_FIELD(aeqe, AEQE_QPCQID_LOW, 1, 17, 0);
/** WQE descriptor index of the failing WQE. */
IRDMA_FIELD(aeqe, AEQE_WQDESCIDX, 1, 32, 18);
/** The AEQ overflowed. */
IRDMA_BIT(aeqe, AEQE_OVERFLOW, 1, 33);
/** Asynchronous event code (enum irdma_ae_code). */
IRDMA_FIELD(aeqe, AEQE_AECODE, 1, 45, 34);
/** QP or CQ id, bit 18 (id = low | hi << 18). */
IRDMA_BIT(aeqe, AEQE_QPCQID_HI, 1, 46);
/** Source of the event (enum irdma_ae_source). */
IRDMA_FIELD(aeqe, AEQE_AESRC, 1, 53, 50);
/** iWARP state of the QP. */
IRDMA_FIELD(aeqe, AEQE_IWSTATE, 1, 56, 54);
/** TCP state (iWARP). */
IRDMA_FIELD(aeqe, AEQE_TCPSTATE, 1, 60, 57);
/** Q2 data indication. */
IRDMA_FIELD(aeqe, AEQE_Q2DATA, 1, 62, 61);
/** Valid bit (= the AEQ's current polarity). */
IRDMA_BIT(aeqe, AEQE_VALID, 1, 63);

/** Bit position of AEQE_QPCQID_HI inside the reassembled id. */
#define IRDMA_AEQE_QPCQID_HI_SHIFT	18u

/** QP / CQ id of an AEQE from its CPU-order qword 1. */
static inline uint32_t
irdma_aeqe_qpcq_id(uint64_t qw1)
{
	return (uint32_t)(IRDMA_GET(AEQE_QPCQID_LOW, qw1) |
			  (IRDMA_GET(AEQE_QPCQID_HI, qw1) << IRDMA_AEQE_QPCQID_HI_SHIFT));
}

/** AEQE_AESRC values (defs.h IRDMA_AE_SOURCE_*). */
enum irdma_ae_source {
	IRDMA_AE_SOURCE_RSVD		= 0x0, /**< none / reserved */
	IRDMA_AE_SOURCE_RQ		= 0x1, /**< receive queue */
	IRDMA_AE_SOURCE_CQ		= 0x2, /**< completion queue */
	IRDMA_AE_SOURCE_RQ_0011		= 0x3, /**< receive queue (alternate encoding) */
	IRDMA_AE_SOURCE_SQ		= 0x5, /**< send queue */
	IRDMA_AE_SOURCE_CQ_0110		= 0x6, /**< completion queue (alternate) */
	IRDMA_AE_SOURCE_SQ_0111		= 0x7, /**< send queue (alternate) */
	IRDMA_AE_SOURCE_IN_RR_WR	= 0x9, /**< inbound RDMA read / write */
	IRDMA_AE_SOURCE_CQ_1010		= 0xa, /**< completion queue (alternate) */
	IRDMA_AE_SOURCE_IN_RR_WR_1011	= 0xb, /**< inbound read / write (alternate) */
	IRDMA_AE_SOURCE_OUT_RR		= 0xd, /**< outbound read response */
	IRDMA_AE_SOURCE_CQ_1110		= 0xe, /**< completion queue (alternate) */
	IRDMA_AE_SOURCE_OUT_RR_1111	= 0xf, /**< outbound read response (alternate) */
};

/**
 * Asynchronous event codes (AEQE_AECODE; defs.h / user.h IRDMA_AE_*). Groups: 0x01xx
 * memory protection (AMP) and UD, 0x02xx QP / WQE, 0x03xx DDP / RDMAP / RoCE, 0x04xx ARP /
 * AH, 0x05xx LLP (connection), 0x06xx reset / terminate, 0x07xx catastrophic, 0x09xx misc.
 */
enum irdma_ae_code {
	IRDMA_AE_AMP_UNALLOCATED_STAG			= 0x0102, /**< STag not allocated */
	IRDMA_AE_AMP_INVALID_STAG			= 0x0103, /**< STag invalid */
	IRDMA_AE_AMP_BAD_QP				= 0x0104, /**< STag bound to other QP */
	IRDMA_AE_AMP_BAD_PD				= 0x0105, /**< PD mismatch */
	IRDMA_AE_AMP_BAD_STAG_KEY			= 0x0106, /**< key mismatch */
	IRDMA_AE_AMP_BAD_STAG_INDEX			= 0x0107, /**< index out of range */
	IRDMA_AE_AMP_BOUNDS_VIOLATION			= 0x0108, /**< access out of bounds */
	IRDMA_AE_AMP_RIGHTS_VIOLATION			= 0x0109, /**< access rights */
	IRDMA_AE_AMP_TO_WRAP				= 0x010a, /**< tagged offset wraps */
	IRDMA_AE_AMP_FASTREG_VALID_STAG			= 0x010c, /**< fast-reg of a valid STag */
	IRDMA_AE_AMP_FASTREG_MW_STAG			= 0x010d, /**< fast-reg of an MW STag */
	IRDMA_AE_AMP_FASTREG_INVALID_RIGHTS		= 0x010e, /**< fast-reg rights */
	IRDMA_AE_AMP_FASTREG_INVALID_LENGTH		= 0x0110, /**< fast-reg length */
	IRDMA_AE_AMP_INVALIDATE_SHARED			= 0x0111, /**< invalidate shared MR */
	IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS	= 0x0112, /**< remote inv. rights */
	IRDMA_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS	= 0x0113, /**< MR has windows */
	IRDMA_AE_AMP_MWBIND_VALID_STAG			= 0x0114, /**< bind: STag valid */
	IRDMA_AE_AMP_MWBIND_OF_MR_STAG			= 0x0115, /**< bind: STag is an MR */
	IRDMA_AE_AMP_MWBIND_TO_ZERO_BASED_STAG		= 0x0116, /**< bind: zero-based parent */
	IRDMA_AE_AMP_MWBIND_TO_MW_STAG			= 0x0117, /**< bind: parent is an MW */
	IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS		= 0x0118, /**< bind: rights */
	IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS		= 0x0119, /**< bind: bounds */
	IRDMA_AE_AMP_MWBIND_TO_INVALID_PARENT		= 0x011a, /**< bind: parent invalid */
	IRDMA_AE_AMP_MWBIND_BIND_DISABLED		= 0x011b, /**< bind: disabled on MR */
	IRDMA_AE_PRIV_OPERATION_DENIED			= 0x011c, /**< privileged op denied */
	IRDMA_AE_AMP_INVALIDATE_TYPE1_MW		= 0x011d, /**< invalidate type-1 MW */
	IRDMA_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW		= 0x011e, /**< zero-based type-1 MW */
	IRDMA_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG	= 0x011f, /**< fast-reg PBL page size */
	IRDMA_AE_AMP_MWBIND_WRONG_TYPE			= 0x0120, /**< bind: wrong MW type */
	IRDMA_AE_AMP_FASTREG_PBLE_MISMATCH		= 0x0121, /**< fast-reg PBLE mismatch */
	IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG		= 0x0132, /**< UD datagram too long */
	IRDMA_AE_UDA_XMIT_BAD_PD			= 0x0133, /**< UD bad PD */
	IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT		= 0x0134, /**< UD datagram too short */
	IRDMA_AE_UDA_L4LEN_INVALID			= 0x0135, /**< UD L4 length */
	IRDMA_AE_BAD_CLOSE				= 0x0201, /**< bad close */
	IRDMA_AE_RDMAP_ROE_BAD_LLP_CLOSE		= 0x0202, /**< bad LLP close */
	IRDMA_AE_CQ_OPERATION_ERROR			= 0x0203, /**< CQ error (e.g. overflow) */
	IRDMA_AE_RDMA_READ_WHILE_ORD_ZERO		= 0x0205, /**< READ with ORD 0 */
	IRDMA_AE_STAG_ZERO_INVALID			= 0x0206, /**< STag 0 used */
	IRDMA_AE_IB_RREQ_AND_Q1_FULL			= 0x0207, /**< read request, IRD full */
	IRDMA_AE_IB_INVALID_REQUEST			= 0x0208, /**< invalid request */
	IRDMA_AE_SRQ_LIMIT				= 0x0209, /**< gen3: SRQ limit reached */
	IRDMA_AE_WQE_UNEXPECTED_OPCODE			= 0x020a, /**< bad WQE opcode */
	IRDMA_AE_WQE_INVALID_PARAMETER			= 0x020b, /**< bad WQE parameter */
	IRDMA_AE_WQE_INVALID_FRAG_DATA			= 0x020c, /**< bad fragment */
	IRDMA_AE_IB_REMOTE_ACCESS_ERROR			= 0x020d, /**< remote access NAK */
	IRDMA_AE_IB_REMOTE_OP_ERROR			= 0x020e, /**< remote operation NAK */
	IRDMA_AE_SRQ_CATASTROPHIC_ERROR			= 0x020f, /**< gen3: SRQ fatal */
	IRDMA_AE_WQE_LSMM_TOO_LONG			= 0x0220, /**< iWARP LSMM too long */
	IRDMA_AE_ATOMIC_ALIGNMENT			= 0x0221, /**< gen3: atomic alignment */
	IRDMA_AE_ATOMIC_MASK				= 0x0222, /**< gen3: atomic mask */
	IRDMA_AE_INVALID_REQUEST			= 0x0223, /**< invalid request */
	IRDMA_AE_PCIE_ATOMIC_DISABLE			= 0x0224, /**< gen3: PCIe atomics off */
	IRDMA_AE_DDP_INVALID_MSN_GAP_IN_MSN		= 0x0301, /**< DDP MSN gap */
	IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER = 0x0303, /**< too long */
	IRDMA_AE_DDP_UBE_INVALID_DDP_VERSION		= 0x0304, /**< DDP version */
	IRDMA_AE_DDP_UBE_INVALID_MO			= 0x0305, /**< DDP message offset */
	IRDMA_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE = 0x0306, /**< no RQ buffer */
	IRDMA_AE_DDP_UBE_INVALID_QN			= 0x0307, /**< DDP queue number */
	IRDMA_AE_DDP_NO_L_BIT				= 0x0308, /**< DDP last bit missing */
	IRDMA_AE_RDMAP_ROE_INVALID_RDMAP_VERSION	= 0x0311, /**< RDMAP version */
	IRDMA_AE_RDMAP_ROE_UNEXPECTED_OPCODE		= 0x0312, /**< RDMAP opcode */
	IRDMA_AE_ROE_INVALID_RDMA_READ_REQUEST		= 0x0313, /**< bad read request */
	IRDMA_AE_ROE_INVALID_RDMA_WRITE_OR_READ_RESP	= 0x0314, /**< bad write / read resp */
	IRDMA_AE_ROCE_RSP_LENGTH_ERROR			= 0x0316, /**< RoCE response length */
	IRDMA_AE_ROCE_EMPTY_MCG				= 0x0380, /**< empty multicast group */
	IRDMA_AE_ROCE_BAD_MC_IP_ADDR			= 0x0381, /**< bad multicast IP */
	IRDMA_AE_ROCE_BAD_MC_QPID			= 0x0382, /**< bad multicast QP id */
	IRDMA_AE_MCG_QP_PROTOCOL_MISMATCH		= 0x0383, /**< MCG protocol mismatch */
	IRDMA_AE_INVALID_ARP_ENTRY			= 0x0401, /**< ARP entry invalid */
	IRDMA_AE_INVALID_TCP_OPTION_RCVD		= 0x0402, /**< iWARP TCP option */
	IRDMA_AE_STALE_ARP_ENTRY			= 0x0403, /**< ARP entry stale */
	IRDMA_AE_INVALID_AH_ENTRY			= 0x0406, /**< AH entry invalid */
	IRDMA_AE_LLP_CLOSE_COMPLETE			= 0x0501, /**< close complete */
	IRDMA_AE_LLP_CONNECTION_RESET			= 0x0502, /**< connection reset */
	IRDMA_AE_LLP_FIN_RECEIVED			= 0x0503, /**< FIN received */
	IRDMA_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH = 0x0504, /**< MPA */
	IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR		= 0x0505, /**< MPA CRC */
	IRDMA_AE_LLP_SEGMENT_TOO_SMALL			= 0x0507, /**< segment too small */
	IRDMA_AE_LLP_SYN_RECEIVED			= 0x0508, /**< SYN received */
	IRDMA_AE_LLP_TERMINATE_RECEIVED			= 0x0509, /**< TERMINATE received */
	IRDMA_AE_LLP_TOO_MANY_RETRIES			= 0x050a, /**< transport retries exceeded */
	IRDMA_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES		= 0x050b, /**< keepalive retries */
	IRDMA_AE_LLP_DOUBT_REACHABILITY			= 0x050c, /**< peer reachability doubt */
	IRDMA_AE_LLP_CONNECTION_ESTABLISHED		= 0x050e, /**< connection established */
	IRDMA_AE_LLP_TOO_MANY_RNRS			= 0x050f, /**< RNR retries exceeded */
	IRDMA_AE_RESOURCE_EXHAUSTION			= 0x0520, /**< resource exhaustion */
	IRDMA_AE_RESET_SENT				= 0x0601, /**< reset sent */
	IRDMA_AE_TERMINATE_SENT				= 0x0602, /**< TERMINATE sent */
	IRDMA_AE_RESET_NOT_SENT				= 0x0603, /**< reset not sent */
	IRDMA_AE_LCE_QP_CATASTROPHIC			= 0x0700, /**< QP catastrophic */
	IRDMA_AE_LCE_FUNCTION_CATASTROPHIC		= 0x0701, /**< function catastrophic */
	IRDMA_AE_LCE_CQ_CATASTROPHIC			= 0x0702, /**< CQ catastrophic */
	IRDMA_AE_REMOTE_QP_CATASTROPHIC			= 0x0703, /**< remote QP catastrophic */
	IRDMA_AE_LOCAL_QP_CATASTROPHIC			= 0x0704, /**< local QP catastrophic */
	IRDMA_AE_RCE_QP_CATASTROPHIC			= 0x0705, /**< RCE QP catastrophic */
	IRDMA_AE_QP_SUSPEND_COMPLETE			= 0x0900, /**< SUSPEND_QP done */
	IRDMA_AE_CQP_DEFERRED_COMPLETE			= 0x0901, /**< gen3: deferred CQP op */
	IRDMA_AE_ADAPTER_CATASTROPHIC			= 0x0b0b, /**< adapter catastrophic */
};

/** Kind of QP event an AE raises (user.h enum irdma_qp_event_type). */
enum irdma_ae_event_kind {
	IRDMA_AE_EVENT_CATASTROPHIC	= 0, /**< QP fatal */
	IRDMA_AE_EVENT_ACCESS_ERR	= 1, /**< access error */
	IRDMA_AE_EVENT_REQ_ERR		= 2, /**< invalid request */
};

/**
 * Flush code the QP's outstanding WQEs complete with after AE @p ae
 * (user.h irdma_ae_to_qp_err_code); *kind receives the QP event kind when not NULL.
 */
static inline enum irdma_flush_code
irdma_ae_to_flush_code(uint32_t ae, enum irdma_ae_event_kind *kind)
{
	enum irdma_flush_code code = IRDMA_FLUSH_GENERAL_ERR;
	enum irdma_ae_event_kind k = IRDMA_AE_EVENT_CATASTROPHIC;

	switch (ae) {
	case IRDMA_AE_AMP_BOUNDS_VIOLATION:
	case IRDMA_AE_AMP_INVALID_STAG:
	case IRDMA_AE_AMP_RIGHTS_VIOLATION:
	case IRDMA_AE_AMP_UNALLOCATED_STAG:
	case IRDMA_AE_AMP_BAD_PD:
	case IRDMA_AE_AMP_BAD_QP:
	case IRDMA_AE_AMP_BAD_STAG_KEY:
	case IRDMA_AE_AMP_BAD_STAG_INDEX:
	case IRDMA_AE_AMP_TO_WRAP:
	case IRDMA_AE_PRIV_OPERATION_DENIED:
		code = IRDMA_FLUSH_PROT_ERR;
		k = IRDMA_AE_EVENT_ACCESS_ERR;
		break;
	case IRDMA_AE_UDA_XMIT_BAD_PD:
	case IRDMA_AE_WQE_UNEXPECTED_OPCODE:
		code = IRDMA_FLUSH_LOC_QP_OP_ERR;
		break;
	case IRDMA_AE_UDA_XMIT_DGRAM_TOO_SHORT:
	case IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG:
	case IRDMA_AE_UDA_L4LEN_INVALID:
	case IRDMA_AE_DDP_UBE_INVALID_MO:
	case IRDMA_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER:
		code = IRDMA_FLUSH_LOC_LEN_ERR;
		break;
	case IRDMA_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS:
	case IRDMA_AE_IB_REMOTE_ACCESS_ERROR:
		code = IRDMA_FLUSH_REM_ACCESS_ERR;
		k = IRDMA_AE_EVENT_ACCESS_ERR;
		break;
	case IRDMA_AE_AMP_MWBIND_INVALID_RIGHTS:
	case IRDMA_AE_AMP_MWBIND_BIND_DISABLED:
	case IRDMA_AE_AMP_MWBIND_INVALID_BOUNDS:
	case IRDMA_AE_AMP_MWBIND_VALID_STAG:
		code = IRDMA_FLUSH_MW_BIND_ERR;
		k = IRDMA_AE_EVENT_ACCESS_ERR;
		break;
	case IRDMA_AE_LLP_TOO_MANY_RETRIES:
		code = IRDMA_FLUSH_RETRY_EXC_ERR;
		break;
	case IRDMA_AE_IB_INVALID_REQUEST:
		code = IRDMA_FLUSH_REM_INV_REQ_ERR;
		k = IRDMA_AE_EVENT_REQ_ERR;
		break;
	case IRDMA_AE_LLP_SEGMENT_TOO_SMALL:
	case IRDMA_AE_LLP_RECEIVED_MPA_CRC_ERROR:
	case IRDMA_AE_ROCE_RSP_LENGTH_ERROR:
	case IRDMA_AE_IB_REMOTE_OP_ERROR:
		code = IRDMA_FLUSH_REM_OP_ERR;
		break;
	case IRDMA_AE_LLP_TOO_MANY_RNRS:
		code = IRDMA_FLUSH_RNR_RETRY_EXC_ERR;
		break;
	case IRDMA_AE_LCE_QP_CATASTROPHIC:
	case IRDMA_AE_REMOTE_QP_CATASTROPHIC:
	case IRDMA_AE_LOCAL_QP_CATASTROPHIC:
	case IRDMA_AE_RCE_QP_CATASTROPHIC:
		code = IRDMA_FLUSH_FATAL_ERR;
		break;
	default:
		break;
	}
	if (kind != NULL)
		*kind = k;
	return code;
}

#endif /* IRDMA_EQ_H */
