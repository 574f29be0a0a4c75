/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_WR_H
#define RDMADEV_WR_H

/**
 * @file
 * rdmadev's work requests and work completions: scatter/gather elements, send and receive
 * WRs with their opcodes and flags, send templates and the WR of a send template, and work
 * completions with their status, opcode and flags. Applications include rdmadev.h, which
 * includes this header.
 *
 * The structs are laid out for the hot path: a send WR and a send template are one 64-byte
 * cache line each, a receive WR 24 bytes, a work completion 48 bytes and a templated WR's
 * variable part 32 bytes.
 */

#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdmadev_mr;
struct rdmadev_mw;
struct rdmadev_ah;

/** One scatter/gather element. */
struct rdmadev_sge {
	uint64_t addr;		/**< virtual address (as registered in the MR) */
	uint32_t length;	/**< bytes */
	uint32_t lkey;		/**< local key of the MR that covers the range */
};

/** Send work request opcodes. */
enum rdmadev_wr_opcode {
	RDMADEV_WR_SEND,		/**< send */
	RDMADEV_WR_SEND_IMM,		/**< send with immediate data */
	RDMADEV_WR_SEND_INV,		/**< send with invalidate (invalidate_rkey) */
	RDMADEV_WR_RDMA_WRITE,		/**< RDMA write */
	RDMADEV_WR_RDMA_WRITE_IMM,	/**< RDMA write with immediate data */
	RDMADEV_WR_RDMA_READ,		/**< RDMA read */
	RDMADEV_WR_LOCAL_INV,		/**< invalidate a local key (invalidate_rkey) */
	RDMADEV_WR_FAST_REG,		/**< fast-register an MR (fast_reg) */
	RDMADEV_WR_ATOMIC_FA,		/**< atomic fetch and add (gen3) */
	RDMADEV_WR_ATOMIC_CS,		/**< atomic compare and swap (gen3) */
	RDMADEV_WR_BIND_MW,		/**< bind a memory window (gen3) */
	RDMADEV_WR_NOP,			/**< no operation */
	RDMADEV_WR_OPCODE_MAX		/**< sentinel */
};

/** Send work request flags. */
#define RDMADEV_SEND_SIGNALED		RTE_BIT32(0)	/**< generate a completion */
#define RDMADEV_SEND_FENCE		RTE_BIT32(1)	/**< wait for prior reads (read fence) */
#define RDMADEV_SEND_SOLICITED		RTE_BIT32(2)	/**< solicited event at the responder */
#define RDMADEV_SEND_INLINE		RTE_BIT32(3)	/**< copy the data into the WQE */
#define RDMADEV_SEND_LOCAL_FENCE	RTE_BIT32(4)	/**< wait for all prior WRs */

/** Send work request: one cache line. */
struct rdmadev_send_wr {
	uint64_t wr_id;				/**< returned in the completion */
	const struct rdmadev_sge *sg_list;	/**< gather list (or inline data) */
	uint16_t num_sge;			/**< entries in sg_list */
	uint8_t opcode;				/**< enum rdmadev_wr_opcode */
	uint8_t flags;				/**< RDMADEV_SEND_* */
	union {
		uint32_t imm_data;		/**< immediate data, network order */
		uint32_t invalidate_rkey;	/**< SEND_INV / LOCAL_INV key */
	};
	/* RTE_STD_C11: structures declared in an anonymous union are an extension in C++. */
	RTE_STD_C11 union {
		/** RDMA_WRITE, RDMA_WRITE_IMM, RDMA_READ. */
		struct {
			uint64_t remote_addr;	/**< remote virtual address */
			uint32_t rkey;		/**< remote key */
		} rdma;
		/** ATOMIC_FA, ATOMIC_CS. */
		struct {
			uint64_t remote_addr;	/**< remote 8-byte aligned address */
			uint64_t compare_add;	/**< add value or compare value */
			uint64_t swap;		/**< swap value (CS) */
			uint32_t rkey;		/**< remote key */
		} atomic;
		/** UD sends. */
		struct {
			struct rdmadev_ah *ah;	/**< address handle */
			uint32_t remote_qpn;	/**< destination QP */
			uint32_t remote_qkey;	/**< destination Q_Key */
		} ud;
		/** FAST_REG. */
		struct {
			struct rdmadev_mr *mr;		/**< MR from rdmadev_mr_alloc_fast_reg() */
			const uint64_t *page_list;	/**< page addresses */
			uint64_t iova;			/**< first byte's address */
			uint32_t length;		/**< bytes */
			uint16_t nb_pages;		/**< entries in page_list */
			uint8_t page_shift;		/**< log2 of the page size */
			uint8_t access;			/**< RDMADEV_ACCESS_* */
			uint32_t key;			/**< new 8-bit key in bits 7:0 */
		} fast_reg;
		/** BIND_MW. */
		struct {
			struct rdmadev_mw *mw;	/**< window to bind */
			struct rdmadev_mr *mr;	/**< region it exposes */
			uint64_t addr;		/**< start */
			uint32_t length;	/**< bytes */
			uint32_t rkey;		/**< new rkey */
			uint32_t access;	/**< RDMADEV_ACCESS_* */
		} bind_mw;
	};
} __rte_aligned(64);

/** Receive work request. */
struct rdmadev_recv_wr {
	uint64_t wr_id;				/**< returned in the completion */
	const struct rdmadev_sge *sg_list;	/**< scatter list */
	uint16_t num_sge;			/**< entries in sg_list */
	uint16_t reserved[3];			/**< zero */
};

/** Completion status, the verbs statuses in their order. */
enum rdmadev_wc_status {
	RDMADEV_WC_SUCCESS,		/**< success */
	RDMADEV_WC_LOC_LEN_ERR,		/**< local length error */
	RDMADEV_WC_LOC_QP_OP_ERR,	/**< local QP operation error */
	RDMADEV_WC_LOC_EEC_OP_ERR,	/**< local EE context operation error */
	RDMADEV_WC_LOC_PROT_ERR,	/**< local protection error */
	RDMADEV_WC_WR_FLUSH_ERR,	/**< flushed: the QP is in error */
	RDMADEV_WC_MW_BIND_ERR,		/**< memory window bind error */
	RDMADEV_WC_BAD_RESP_ERR,	/**< bad response */
	RDMADEV_WC_LOC_ACCESS_ERR,	/**< local access error */
	RDMADEV_WC_REM_INV_REQ_ERR,	/**< remote invalid request */
	RDMADEV_WC_REM_ACCESS_ERR,	/**< remote access error */
	RDMADEV_WC_REM_OP_ERR,		/**< remote operation error */
	RDMADEV_WC_RETRY_EXC_ERR,	/**< transport retries exceeded */
	RDMADEV_WC_RNR_RETRY_EXC_ERR,	/**< RNR retries exceeded */
	RDMADEV_WC_LOC_RDD_VIOL_ERR,	/**< local RDD violation */
	RDMADEV_WC_REM_INV_RD_REQ_ERR,	/**< remote invalid RD request */
	RDMADEV_WC_REM_ABORT_ERR,	/**< remote aborted */
	RDMADEV_WC_INV_EECN_ERR,	/**< invalid EE context number */
	RDMADEV_WC_INV_EEC_STATE_ERR,	/**< invalid EE context state */
	RDMADEV_WC_FATAL_ERR,		/**< fatal error */
	RDMADEV_WC_RESP_TIMEOUT_ERR,	/**< response timeout */
	RDMADEV_WC_GENERAL_ERR,		/**< other error */
	RDMADEV_WC_STATUS_MAX		/**< sentinel */
};

/** Completion opcodes. */
enum rdmadev_wc_opcode {
	RDMADEV_WC_SEND,		/**< send completed */
	RDMADEV_WC_RDMA_WRITE,		/**< RDMA write completed */
	RDMADEV_WC_RDMA_READ,		/**< RDMA read completed */
	RDMADEV_WC_COMP_SWAP,		/**< compare and swap completed */
	RDMADEV_WC_FETCH_ADD,		/**< fetch and add completed */
	RDMADEV_WC_BIND_MW,		/**< window bound */
	RDMADEV_WC_LOCAL_INV,		/**< key invalidated */
	RDMADEV_WC_REG_MR,		/**< fast registration completed */
	RDMADEV_WC_NOP,			/**< NOP completed */
	RDMADEV_WC_RECV = 128,		/**< receive completed */
	RDMADEV_WC_RECV_RDMA_IMM,	/**< RDMA write with immediate received */
};

/** Completion flags. */
/**
 * UD: the receive buffer starts with the 40-byte GRH area (verbs' GRH: an IPv6 header, or
 * for RoCEv2 over IPv4 the IPv4 header in its last 20 bytes), the payload follows, and
 * byte_len counts the 40 bytes.
 */
#define RDMADEV_WC_GRH		RTE_BIT32(0)
#define RDMADEV_WC_WITH_IMM	RTE_BIT32(1)	/**< imm_data is valid */
#define RDMADEV_WC_WITH_INV	RTE_BIT32(2)	/**< invalidated_rkey is valid */
#define RDMADEV_WC_WITH_SMAC	RTE_BIT32(3)	/**< smac is valid */
#define RDMADEV_WC_WITH_VLAN	RTE_BIT32(4)	/**< vlan_id is valid */
#define RDMADEV_WC_IP_CSUM_OK	RTE_BIT32(5)	/**< IP checksum verified */

/** Work completion. */
struct rdmadev_wc {
	uint64_t wr_id;		/**< from the WR */
	uint8_t status;		/**< enum rdmadev_wc_status */
	uint8_t opcode;		/**< enum rdmadev_wc_opcode */
	uint16_t wc_flags;	/**< RDMADEV_WC_* flags */
	uint32_t byte_len;	/**< bytes transferred (receives) */
	union {
		uint32_t imm_data;		/**< immediate data, network order */
		uint32_t invalidated_rkey;	/**< key invalidated by SEND_INV */
	};
	uint32_t qp_num;	/**< local QP */
	uint32_t src_qp;	/**< UD: source QP */
	uint16_t vlan_id;	/**< UD: VLAN */
	uint16_t slid;		/**< UD: source LID (0 on RoCE) */
	uint8_t smac[6];	/**< UD: source MAC */
	uint8_t sl;		/**< UD: service level */
	uint8_t reserved0;	/**< zero */
	uint32_t vendor_err;	/**< hardware minor error code */
	uint32_t reserved1;	/**< zero */
};

/** 64-bit words of a send template that belong to the driver. */
#define RDMADEV_SEND_TMPL_DRV_WORDS	6

/**
 * A send WR validated and encoded once (rdmadev_send_tmpl_init()), posted many times with
 * rdmadev_post_send_tmpl(): one cache line, filled by the library and the driver, opaque to
 * the application. It belongs to the QP it was made for; posting it on another QP is refused.
 */
struct rdmadev_send_tmpl {
	void *qp_drv;		/**< the driver object of the QP it was made for (NULL: unusable) */
	uint32_t qp_num;	/**< that QP's number */
	uint8_t opcode;		/**< the prototype's opcode (enum rdmadev_wr_opcode) */
	uint8_t flags;		/**< the prototype's flags (RDMADEV_SEND_*) */
	uint16_t reserved;	/**< zero */
	/** The driver's pre-encoded WR (its WQE and tracking constants). */
	uint64_t drv[RDMADEV_SEND_TMPL_DRV_WORDS];
} __rte_aligned(64);

/**
 * What varies between the WRs of one send template (rdmadev_post_send_tmpl()): 32 bytes.
 * Everything else (opcode, flags, the lkey, the rkey, the QP) is the template's.
 */
struct rdmadev_tmpl_wr {
	uint64_t wr_id;		/**< returned in the completion */
	uint64_t addr;		/**< local buffer: the one SGE's address (lkey: the template's) */
	/** RDMA WRITE / READ: remote address (rkey: the template's); SEND: ignored. */
	uint64_t remote_addr;
	uint32_t length;	/**< bytes of the one SGE, at most 2^31 - 1 */
	/** RDMA_WRITE_IMM / SEND_IMM: immediate data, network order; otherwise ignored. */
	uint32_t imm_data;
};

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_WR_H */
