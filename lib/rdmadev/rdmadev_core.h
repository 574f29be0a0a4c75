/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_CORE_H
#define RDMADEV_CORE_H

/**
 * @file
 * rdmadev fast-path types: work requests, work completions and the per-device fast-path
 * object, and the inline burst functions. Applications include rdmadev.h, which includes this
 * header.
 *
 * The burst functions rdmadev_post_send(), rdmadev_post_send_tmpl(), rdmadev_post_recv(),
 * rdmadev_post_srq_recv() and rdmadev_poll_cq() are at the bottom: one load of the device's
 * fast-path object and one indirect call, no lock, no division. Build with RDMADEV_DEBUG
 * defined for argument checks.
 *
 * The structs are laid out for the hot path: a send WR is one 64-byte cache line, a receive
 * WR 24 bytes, a work completion 48 bytes, a send template one cache line and a templated
 * WR's variable part 32 bytes.
 */

#include <errno.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of devices (device ids 0 .. RDMADEV_MAX_DEVS - 1). */
#define RDMADEV_MAX_DEVS 32

struct rdmadev_qp;
struct rdmadev_cq;
struct rdmadev_mr;
struct rdmadev_mw;
struct rdmadev_ah;
struct rdmadev_srq;

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

/** Driver fast-path function: post send WRs on the driver's QP. See rdmadev_post_send(). */
typedef uint16_t (*rdmadev_post_send_t)(void *qp_priv, const struct rdmadev_send_wr *wrs,
					uint16_t nb_wrs, int *err);
/** Driver fast-path function: post receive WRs. See rdmadev_post_recv(). */
typedef uint16_t (*rdmadev_post_recv_t)(void *qp_priv, const struct rdmadev_recv_wr *wrs,
					uint16_t nb_wrs, int *err);
/** Driver fast-path function: poll completions. See rdmadev_poll_cq(). */
typedef uint16_t (*rdmadev_poll_cq_t)(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs);
/** Driver fast-path function: arm a CQ for its next event. See rdmadev_cq_arm(). */
typedef int (*rdmadev_cq_arm_t)(void *cq_priv, int solicited_only);
/** Driver fast-path function: post receive WRs to an SRQ. See rdmadev_post_srq_recv(). */
typedef uint16_t (*rdmadev_post_srq_recv_t)(void *srq_priv, const struct rdmadev_recv_wr *wrs,
					    uint16_t nb_wrs, int *err);

/**
 * Driver fast-path function: post WRs of a send template. See rdmadev_post_send_tmpl().
 */
typedef uint16_t (*rdmadev_post_send_tmpl_t)(void *qp_priv, const struct rdmadev_send_tmpl *t,
					     const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs,
					     int *err);

/**
 * Per-device fast-path functions, one cache line per device in rdmadev_fp_objs[]. Slots of
 * devices that are not started hold dummy functions that log once and return 0; a started
 * device whose driver has no send templates holds one for post_send_tmpl (-ENOTSUP).
 */
struct rdmadev_fp_obj {
	rdmadev_post_send_t post_send;	/**< post send WRs */
	rdmadev_post_recv_t post_recv;	/**< post receive WRs */
	rdmadev_poll_cq_t poll_cq;	/**< poll a CQ */
	rdmadev_cq_arm_t cq_arm;	/**< arm a CQ */
	rdmadev_post_srq_recv_t post_srq_recv;	/**< post receive WRs to an SRQ */
	rdmadev_post_send_tmpl_t post_send_tmpl;	/**< post WRs of a send template */
	void *reserved[2];		/**< for later functions */
} __rte_cache_aligned;

/** The fast-path objects, indexed by device id. */
extern struct rdmadev_fp_obj rdmadev_fp_objs[RDMADEV_MAX_DEVS];

/**
 * First member of every QP, CQ and SRQ handle: what the inline fast path reads. Everything
 * behind it is control-path state.
 */
struct rdmadev_fp_head {
	void *drv;		/**< driver's private object, passed to the fast-path function */
	uint16_t dev_id;	/**< device id, index into rdmadev_fp_objs[] */
};

/**
 * Post send work requests.
 *
 * @param qp      QP in RTS (or SQD/ERR as the verbs allow).
 * @param wrs     Array of @p nb_wrs requests.
 * @param nb_wrs  Number of requests.
 * @param err     Receives 0 when all were posted, else the reason (negative errno) why
 *                wrs[returned] was refused.
 * @return Number of requests posted (the first ones); the doorbell rang once for them.
 */
static inline uint16_t
rdmadev_post_send(struct rdmadev_qp *qp, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs,
		  int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_send == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_send(h->drv, wrs, nb_wrs, err);
}

/**
 * Post send work requests of a template (rdmadev_send_tmpl_init()): each element of @p wrs
 * gives only what varies (wr_id, local address and length, remote address, immediate); the
 * opcode, flags, keys and every check that does not depend on those were done once, when
 * the template was made. The WQEs are those rdmadev_post_send() writes for the same WRs.
 *
 * @param qp      The QP the template was made for, in RTS or SQD (checked once per call).
 * @param t       The template.
 * @param wrs     Array of @p nb_wrs variable parts.
 * @param nb_wrs  Number of WRs.
 * @param err     Receives 0 when all were posted, else the reason (negative errno) why
 *                wrs[returned] was refused: -EINVAL (NULL or unusable template, a template of
 *                another QP, QP state, a length beyond 2^31 - 1), -ENOMEM (the SQ is full),
 *                -ENOTSUP (the device's driver has no send templates: its templates are
 *                zeroed), -ENODEV (the device is not started).
 * @return Number of WRs posted (the first ones); the doorbell rang once for them.
 */
static inline uint16_t
rdmadev_post_send_tmpl(struct rdmadev_qp *qp, const struct rdmadev_send_tmpl *t,
		       const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs, int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || t == NULL || wrs == NULL || err == NULL ||
	    h->dev_id >= RDMADEV_MAX_DEVS || rdmadev_fp_objs[h->dev_id].post_send_tmpl == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_send_tmpl(h->drv, t, wrs, nb_wrs, err);
}

/**
 * Post receive work requests.
 *
 * @return Number posted; *err as for rdmadev_post_send().
 */
static inline uint16_t
rdmadev_post_recv(struct rdmadev_qp *qp, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs,
		  int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)qp;

#ifdef RDMADEV_DEBUG
	if (qp == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_recv == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_recv(h->drv, wrs, nb_wrs, err);
}

/**
 * Post receive work requests to a shared receive queue (RDMADEV_CAPA_SRQ): every QP created
 * with the SRQ takes its receives from it, in the order they were posted.
 *
 * @return Number posted; *err as for rdmadev_post_send() (-ENOMEM: the SRQ is full).
 */
static inline uint16_t
rdmadev_post_srq_recv(struct rdmadev_srq *srq, const struct rdmadev_recv_wr *wrs,
		      uint16_t nb_wrs, int *err)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)srq;

#ifdef RDMADEV_DEBUG
	if (srq == NULL || wrs == NULL || err == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].post_srq_recv == NULL) {
		if (err != NULL)
			*err = -EINVAL;
		return 0;
	}
#endif
	return rdmadev_fp_objs[h->dev_id].post_srq_recv(h->drv, wrs, nb_wrs, err);
}

/**
 * Poll up to @p nb_wcs completions.
 *
 * @return Number of completions written to @p wcs.
 */
static inline uint16_t
rdmadev_poll_cq(struct rdmadev_cq *cq, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)cq;

#ifdef RDMADEV_DEBUG
	if (cq == NULL || wcs == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].poll_cq == NULL)
		return 0;
#endif
	return rdmadev_fp_objs[h->dev_id].poll_cq(h->drv, wcs, nb_wcs);
}

/**
 * Arm a CQ: the device signals the CQ's completion vector once, for the next completion
 * (@p solicited_only 0) or the next solicited one (@p solicited_only 1) written after this
 * call. Poll the CQ empty after the event and before arming again, as with verbs.
 *
 * @return 0, or a negative errno (-ENODEV when the device is not started).
 */
static inline int
rdmadev_cq_arm(struct rdmadev_cq *cq, int solicited_only)
{
	const struct rdmadev_fp_head *h = (const struct rdmadev_fp_head *)(const void *)cq;

#ifdef RDMADEV_DEBUG
	if (cq == NULL || h->dev_id >= RDMADEV_MAX_DEVS ||
	    rdmadev_fp_objs[h->dev_id].cq_arm == NULL)
		return -EINVAL;
#endif
	return rdmadev_fp_objs[h->dev_id].cq_arm(h->drv, solicited_only);
}

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_CORE_H */
