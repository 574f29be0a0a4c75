/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CTX_H
#define IRDMA_CTX_H

/**
 * @file
 * The RoCE QP host context (doc/hardware.md §5.4): 256 bytes built by SW (RC and UD alike) and
 * handed to CREATE_QP / MODIFY_QP by physical address (CQP_QP_CTX_PA). Field positions
 * are doc/hardware.md §5.4 with bit ranges from kernel defs.h (IRDMAQPC_*) where that page
 * gives only the name. Qword n is at byte 8n.
 *
 * There is no CQ host context on gen2: everything about a CQ travels in the CREATE_CQ /
 * MODIFY_CQ WQE (irdma_cqp_fmt.h).
 */

#include <stdint.h>

#include "irdma_field.h"

/** Bytes in the QP host context (IRDMA_QP_CTX_SIZE). */
#define IRDMA_QP_CTX_SIZE		256u
/** Bytes in the Q2 buffer that precedes the context in the kernel's 512-byte buffer. */
#define IRDMA_Q2_BUF_SIZE		256u
/** Kernel default RoCEv2 UDP source port in the context. */
#define IRDMA_ROCE_DEFAULT_SRC_PORT	0xc000u
/** RoCEv2 UDP destination port (IANA 4791). */
#define IRDMA_ROCE_UDP_PORT		4791u

/** The RoCE QP host context. */
IRDMA_LAYOUT(qp_ctx, 32);
_Static_assert(sizeof(struct irdma_qp_ctx) == IRDMA_QP_CTX_SIZE, "QP context is 256 B");

/* Byte 0 -------------------------------------------------------------------------------- */
/** Destination is IPv4. */
IRDMA_BIT(qp_ctx, QPC_IPV4, 0, 3);
/** Insert a VLAN tag on transmit. */
IRDMA_BIT(qp_ctx, QPC_INSERTVLANTAG, 0, 5);
/** This is QP1 (GSI). */
IRDMA_BIT(qp_ctx, QPC_ISQP1, 0, 6);
/** RQ WQE size shift (= rqshift: 32 << n bytes). */
IRDMA_FIELD(qp_ctx, QPC_RQWQESIZE, 0, 9, 8);
/** ECN enable (defs.h). */
IRDMA_BIT(qp_ctx, QPC_ECN_EN, 0, 14);
/** QPC_ERR_RQ_IDX is valid. */
IRDMA_BIT(qp_ctx, QPC_ERR_RQ_IDX_VALID, 0, 19);
/** PD index bits 17:16 (with QPC_PDIDX: 18-bit PD ids). */
IRDMA_FIELD(qp_ctx, QPC_PDIDXHI, 0, 21, 20);
/** Data-center TCP enable. */
IRDMA_BIT(qp_ctx, QPC_DC_TCP_EN, 0, 25);
/** Receive TPH enable. */
IRDMA_BIT(qp_ctx, QPC_RCVTPHEN, 0, 28);
/** Transmit TPH enable. */
IRDMA_BIT(qp_ctx, QPC_XMITTPHEN, 0, 29);
/** RQ TPH enable. */
IRDMA_BIT(qp_ctx, QPC_RQTPHEN, 0, 30);
/** SQ TPH enable. */
IRDMA_BIT(qp_ctx, QPC_SQTPHEN, 0, 31);
/** Push page index. */
IRDMA_FIELD(qp_ctx, QPC_PPIDX, 0, 41, 32);
/** Push mode enable. */
IRDMA_BIT(qp_ctx, QPC_PMENA, 0, 47);
/** RoCE transport version. */
IRDMA_FIELD(qp_ctx, QPC_ROCE_TVER, 0, 63, 60);

/**
 * Gen3: the QP takes its receives from an SRQ (QPC_SRQ_ID) and has no RQ (defs.h
 * IRDMAQPC_USE_SRQ bit 10; qword 0 inferred: the other RQ-shape bits are there).
 */
IRDMA_BIT(qp_ctx, QPC_USE_SRQ, 0, 10);

/* Bytes 8, 16 ---------------------------------------------------------------------------- */
/** SQ address: physical, or the first PBLE index when CREATE_QP.VQ = 1. */
IRDMA_FIELD(qp_ctx, QPC_SQ_ADDR, 1, 63, 0);
/** RQ address: physical, or a PBLE index when CREATE_QP.VQ = 1. */
IRDMA_FIELD(qp_ctx, QPC_RQ_ADDR, 2, 63, 0);
/**
 * Gen3 with QPC_USE_SRQ: the SRQ id (defs.h IRDMAQPC_SRQ_ID 15:0), in the RQ address
 * qword an SRQ QP does not use (placement inferred).
 */
IRDMA_FIELD(qp_ctx, QPC_SRQ_ID, 2, 15, 0);

/* Byte 24 ------------------------------------------------------------------------------- */
/** IP TTL / hop limit. */
IRDMA_FIELD(qp_ctx, QPC_TTL, 3, 7, 0);
/** Encoded RQ size (irdma_encode_wq_size). */
IRDMA_FIELD(qp_ctx, QPC_RQSIZE, 3, 11, 8);
/** Encoded SQ size (irdma_encode_wq_size). */
IRDMA_FIELD(qp_ctx, QPC_SQSIZE, 3, 15, 12);
/** IP TOS / traffic class. */
IRDMA_FIELD(qp_ctx, QPC_TOS, 3, 31, 24);
/** UDP source port. */
IRDMA_FIELD(qp_ctx, QPC_SRCPORTNUM, 3, 47, 32);
/** UDP destination port (4791). */
IRDMA_FIELD(qp_ctx, QPC_DESTPORTNUM, 3, 63, 48);

/* Bytes 32, 40: destination IP; IPv4 uses ADDR3 only ------------------------------------- */
/** Destination IP word 3 (IPv4 address). */
IRDMA_FIELD(qp_ctx, QPC_DESTIPADDR3, 4, 31, 0);
/** Destination IP word 2. */
IRDMA_FIELD(qp_ctx, QPC_DESTIPADDR2, 4, 63, 32);
/** Destination IP word 1. */
IRDMA_FIELD(qp_ctx, QPC_DESTIPADDR1, 5, 31, 0);
/** Destination IP word 0 (most significant). */
IRDMA_FIELD(qp_ctx, QPC_DESTIPADDR0, 5, 63, 32);

/* Byte 48 ------------------------------------------------------------------------------- */
/** Send MSS. */
IRDMA_FIELD(qp_ctx, QPC_SNDMSS, 6, 29, 16);
/** VLAN tag. */
IRDMA_FIELD(qp_ctx, QPC_VLANTAG, 6, 47, 32);
/** ARP table index of the destination MAC. */
IRDMA_FIELD(qp_ctx, QPC_ARPIDX, 6, 63, 48);

/* Byte 56 ------------------------------------------------------------------------------- */
/** IPv6 flow label. */
IRDMA_FIELD(qp_ctx, QPC_FLOWLABEL, 7, 19, 0);
/** ACK credits. */
IRDMA_FIELD(qp_ctx, QPC_ACKCREDITS, 7, 24, 20);
/** P_Key. */
IRDMA_FIELD(qp_ctx, QPC_PKEY, 7, 47, 32);
/** PD index bits 15:0. */
IRDMA_FIELD(qp_ctx, QPC_PDIDX, 7, 63, 48);

/* Byte 64 ------------------------------------------------------------------------------- */
/** Destination QP number. */
IRDMA_FIELD(qp_ctx, QPC_DESTQP, 8, 23, 0);
/** Q_Key. */
IRDMA_FIELD(qp_ctx, QPC_QKEY, 8, 63, 32);

/* Bytes 80, 88, 96, 112 ------------------------------------------------------------------ */
/** Next PSN to send (sq_psn). */
IRDMA_FIELD(qp_ctx, QPC_PSNNXT, 10, 23, 0);
/** Limit sequence number. */
IRDMA_FIELD(qp_ctx, QPC_LSN, 10, 55, 32);
/** Expected PSN (rq_psn). */
IRDMA_FIELD(qp_ctx, QPC_EPSN, 11, 23, 0);
/** Highest PSN sent. */
IRDMA_FIELD(qp_ctx, QPC_PSNMAX, 12, 23, 0);
/** Oldest unacknowledged PSN. */
IRDMA_FIELD(qp_ctx, QPC_PSNUNA, 12, 55, 32);
/** RoCE congestion window. */
IRDMA_FIELD(qp_ctx, QPC_CWNDROCE, 14, 55, 32);

/* Byte 128 ------------------------------------------------------------------------------ */
/** RQ index of the WQE that caused an error (with QPC_ERR_RQ_IDX_VALID). */
IRDMA_FIELD(qp_ctx, QPC_ERR_RQ_IDX, 16, 45, 32);
/** Retransmit threshold (retry count). */
IRDMA_FIELD(qp_ctx, QPC_REXMIT_THRESH, 16, 53, 48);
/** RNR NAK threshold (RNR retry count). */
IRDMA_FIELD(qp_ctx, QPC_RNRNAK_THRESH, 16, 56, 54);
/** Minimum retransmit timeout. */
IRDMA_FIELD(qp_ctx, QPC_RTOMIN, 16, 63, 57);

/* Byte 136 ------------------------------------------------------------------------------ */
/** Send CQ number (gen2 18:0). */
IRDMA_FIELD(qp_ctx, QPC_TXCQNUM, 17, 18, 0);
/** Receive CQ number (gen2 50:32). */
IRDMA_FIELD(qp_ctx, QPC_RXCQNUM, 17, 50, 32);
/** Send CQ number, gen3 width (new defs 24:0). */
IRDMA_FIELD(qp_ctx, QPC_TXCQNUM_GEN3, 17, 24, 0);
/** Receive CQ number, gen3 width (new defs 56:32). */
IRDMA_FIELD(qp_ctx, QPC_RXCQNUM_GEN3, 17, 56, 32);

/* Bytes 144, 152 ------------------------------------------------------------------------ */
/** Statistics instance index (with QPC_USESTATSINSTANCE). */
IRDMA_FIELD(qp_ctx, QPC_STAT_INDEX, 18, 6, 0);
/** Local MAC address (stored << 16). */
IRDMA_FIELD(qp_ctx, QPC_MACADDRESS, 19, 63, 16);

/* Byte 160 ------------------------------------------------------------------------------ */
/** ORD size (outstanding RDMA reads as initiator). */
IRDMA_FIELD(qp_ctx, QPC_ORDSIZE, 20, 7, 0);
/** Encoded IRD size (irdma_encode_ird_size). */
IRDMA_FIELD(qp_ctx, QPC_IRDSIZE, 20, 18, 16);
/** UD privileged CQ enable. */
IRDMA_BIT(qp_ctx, QPC_UDPRIVCQENABLE, 20, 19);
/** Remote write allowed (write / read-response OK). */
IRDMA_BIT(qp_ctx, QPC_WRRDRSPOK, 20, 20);
/** Remote read allowed. */
IRDMA_BIT(qp_ctx, QPC_RDOK, 20, 21);
/** DCQCN congestion control enable. */
IRDMA_BIT(qp_ctx, QPC_DCQCNENABLE, 20, 22);
/** Memory-window bind allowed. */
IRDMA_BIT(qp_ctx, QPC_BINDEN, 20, 23);
/** Fast-register allowed. */
IRDMA_BIT(qp_ctx, QPC_FASTREGEN, 20, 24);
/** Privileged QP. */
IRDMA_BIT(qp_ctx, QPC_PRIVEN, 20, 25);
/** Use QPC_STAT_INDEX. */
IRDMA_BIT(qp_ctx, QPC_USESTATSINSTANCE, 20, 26);
/** TIMELY congestion control enable. */
IRDMA_BIT(qp_ctx, QPC_TIMELYENABLE, 20, 27);
/** Firmware congestion control enable. */
IRDMA_BIT(qp_ctx, QPC_FW_CC_ENABLE, 20, 28);
/** Do not check the ICRC on receive. */
IRDMA_BIT(qp_ctx, QPC_RCVNOICRC, 20, 31);
/** Gen3 (new defs.h, irdma_sc_qp_setctx_roce_gen_3): ORD size, 11 bits. */
IRDMA_FIELD(qp_ctx, QPC_ORDSIZE_GEN3, 20, 10, 0);
/** Gen3: encoded IRD size (irdma_encode_ird_size_gen3). */
IRDMA_FIELD(qp_ctx, QPC_IRDSIZE_GEN3, 20, 17, 14);
/** Gen3: remote atomics allowed on this QP (verbs REMOTE_ATOMIC access). */
IRDMA_BIT(qp_ctx, QPC_REMOTE_ATOMIC_EN, 20, 18);

/* Byte 168 ------------------------------------------------------------------------------ */
/** QP completion context: returned verbatim in CQE qword 1 and AEQE qword 0. */
IRDMA_FIELD(qp_ctx, QPC_COMPL_CTX, 21, 63, 0);

/* Byte 176 ------------------------------------------------------------------------------ */
/** SQ TPH value. */
IRDMA_FIELD(qp_ctx, QPC_SQTPHVAL, 22, 7, 0);
/** RQ TPH value. */
IRDMA_FIELD(qp_ctx, QPC_RQTPHVAL, 22, 15, 8);
/** QS handle (scheduler queue set). */
IRDMA_FIELD(qp_ctx, QPC_QSHANDLE, 22, 25, 16);

/* Bytes 184, 192: local IP; IPv4 uses ADDR3 only ------------------------------------------ */
/** Local IP word 3 (IPv4 address). */
IRDMA_FIELD(qp_ctx, QPC_LOCAL_IPADDR3, 23, 31, 0);
/** Local IP word 2. */
IRDMA_FIELD(qp_ctx, QPC_LOCAL_IPADDR2, 23, 63, 32);
/** Local IP word 1. */
IRDMA_FIELD(qp_ctx, QPC_LOCAL_IPADDR1, 24, 31, 0);
/** Local IP word 0 (most significant). */
IRDMA_FIELD(qp_ctx, QPC_LOCAL_IPADDR0, 24, 63, 32);

/* Bytes 200, 208 ------------------------------------------------------------------------ */
/** TIMELY high threshold. */
IRDMA_FIELD(qp_ctx, QPC_THIGH, 25, 63, 52);
/** TIMELY low threshold. */
IRDMA_FIELD(qp_ctx, QPC_TLOW, 25, 39, 32);
/** Remote endpoint index (= ARP index). */
IRDMA_FIELD(qp_ctx, QPC_REMENDPOINTIDX, 26, 16, 0);

/** QPC_IRDSIZE codes (defs.h IRDMA_IRD_HW_SIZE_*). */
enum irdma_ird_hw_size {
	IRDMA_IRD_HW_SIZE_4	= 0, /**< 4 entries */
	IRDMA_IRD_HW_SIZE_16	= 1, /**< 8 or 16 entries */
	IRDMA_IRD_HW_SIZE_64	= 2, /**< 32 or 64 entries */
	IRDMA_IRD_HW_SIZE_128	= 3, /**< 128 entries */
	IRDMA_IRD_HW_SIZE_256	= 4, /**< 256 entries */
};

/**
 * QPC_IRDSIZE code for an IRD of @p ird: of round_up_pow2(2 * ird), 4 -> 0, 8/16 -> 1,
 * 32/64 -> 2, 128 -> 3, 256 (or more) -> 4 (doc/hardware.md §5.4).
 */
static inline uint32_t
irdma_encode_ird_size(uint32_t ird)
{
	uint32_t n = irdma_roundup_pow2_u32(2 * ird);

	if (n <= 4)
		return IRDMA_IRD_HW_SIZE_4;
	if (n <= 16)
		return IRDMA_IRD_HW_SIZE_16;
	if (n <= 64)
		return IRDMA_IRD_HW_SIZE_64;
	if (n <= 128)
		return IRDMA_IRD_HW_SIZE_128;
	return IRDMA_IRD_HW_SIZE_256;
}

/** Largest gen3 IRD code (4096 entries; defs.h IRDMA_IRD_HW_SIZE_4096_GEN3). */
#define IRDMA_IRD_HW_SIZE_4096_GEN3	10u

/**
 * Gen3 QPC_IRDSIZE_GEN3 code for an IRD of @p ird: log2(round_up_pow2(2 * ird)) - 2, so
 * 4 -> 0, 8 -> 1, ... 4096 -> 10 (irdma_sc_get_encoded_ird_size_gen_3); 0 gives 0 (4).
 */
static inline uint32_t
irdma_encode_ird_size_gen3(uint32_t ird)
{
	uint32_t n, l;

	if (ird == 0)
		return 0;
	n = irdma_roundup_pow2_u32(2 * ird);
	l = irdma_log2_u32(n);
	if (l <= 2)
		return 0;
	return l - 2 > IRDMA_IRD_HW_SIZE_4096_GEN3 ? IRDMA_IRD_HW_SIZE_4096_GEN3 : l - 2;
}

#endif /* IRDMA_CTX_H */
