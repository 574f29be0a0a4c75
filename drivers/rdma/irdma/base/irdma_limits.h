/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_LIMITS_H
#define IRDMA_LIMITS_H

/**
 * @file
 * Device limits and feature flags (doc/hardware.md §8; user.h enum irdma_device_caps_const,
 * icrdma_hw.h, defs.h). Counts that come from the HMC (QPs, CQs, MRs, AHs) are only
 * bounded here; the real numbers are the committed FPM counts.
 *
 * Gen3 differences known from doc/hardware.md: SRQ, atomics, type-2 MW, native 64-byte
 * CQEs and CQE timestamps (feature bits below); SRQ quanta 8..262144; AEQ at most 262144
 * entries (user.h); no ADDFRAGCNT increment for the NULL pad; wider AHID / CQ id / CEQ id
 * fields; a different AEQE layout (not described in base/).
 */

#include <stdint.h>

/** Hardware generation numbers (enum irdma_vers; the CQP HW_MAJVER is gen - 1). */
enum irdma_hw_gen {
	IRDMA_GEN_1 = 1, /**< X722 (i40iw) */
	IRDMA_GEN_2 = 2, /**< E810 (icrdma) */
	IRDMA_GEN_3 = 3, /**< ig3rdma */
};

/* ---------------------------------------------------------------------------------------
 * Feature flags (uk_attrs.feature_flags bits).
 */

/** iWARP RTS AE (gen2). */
#define IRDMA_FEATURE_RTS_AE		(UINT64_C(1) << 0)
/** CQ resize supported (gen2): the CQ shadow area is a separate buffer. */
#define IRDMA_FEATURE_CQ_RESIZE		(UINT64_C(1) << 1)
/** Native 64-byte CQEs (gen3). */
#define IRDMA_FEATURE_64_BYTE_CQE	(UINT64_C(1) << 5)
/** Atomic operations (gen3). */
#define IRDMA_FEATURE_ATOMIC_OPS	(UINT64_C(1) << 6)
/** Shared receive queues (gen3). */
#define IRDMA_FEATURE_SRQ		(UINT64_C(1) << 7)
/** CQE timestamps (gen3). */
#define IRDMA_FEATURE_CQE_TIMESTAMPING	(UINT64_C(1) << 8)

/** Feature flags of a gen2 device. */
#define IRDMA_GEN2_FEATURES		(IRDMA_FEATURE_RTS_AE | IRDMA_FEATURE_CQ_RESIZE)

/* ---------------------------------------------------------------------------------------
 * Identifier ranges and reserved ids.
 */

/** Largest QP id (IRDMA_MAX_IW_QP_ID). */
#define IRDMA_MAX_QP_ID			262143u
/** The GSI QP (QP1): a RoCE UD QP whose datagrams carry Q_Key 0x80010000. */
#define IRDMA_GSI_QP_ID			1u
/** The GSI's well-known Q_Key (IBA 13.4.6.1). */
#define IRDMA_GSI_QKEY			0x80010000u
/** First QP id for users; 0, 1 (GSI / ILQ) and 2 (IEQ) are reserved. */
#define IRDMA_FIRST_USER_QP_ID		3u
/** Default QP count the kernel requests from the HMC (IW_CFG_FPM_QP_COUNT). */
#define IRDMA_DEFAULT_FPM_QP_COUNT	32768u
/** Largest CQ id (IRDMA_MAX_CQID); 0 (CCQ), 1 (ILQ), 2 (IEQ) are reserved. */
#define IRDMA_MAX_CQ_ID			524287u
/** First CQ id for users. */
#define IRDMA_FIRST_USER_CQ_ID		3u
/** Number of PD ids (IRDMA_MAX_PDS); 0..2 are reserved. */
#define IRDMA_MAX_PDS			262144u
/** First PD id for users. */
#define IRDMA_FIRST_USER_PD_ID		3u
/** First MR (STag) index for users; index 0 is reserved. */
#define IRDMA_FIRST_USER_MR_IDX		1u
/** Largest CEQ id (IRDMA_MAX_CEQID). */
#define IRDMA_MAX_CEQ_ID		1023u
/** QPs per multicast group context (IRDMA_MAX_MGS_PER_CTX). */
#define IRDMA_MAX_QPS_PER_MCG		8u

/* ---------------------------------------------------------------------------------------
 * Queue sizes.
 */

/** Smallest CQ (IRDMA_MIN_CQ_SIZE). */
#define IRDMA_MIN_CQ_SIZE		1u
/** Largest CQ in entries (IRDMA_MAX_CQ_SIZE). */
#define IRDMA_MAX_CQ_SIZE		1048575u
/** Largest max_cqe reported to applications. */
#define IRDMA_MAX_CQE_REPORTED		1048574u
/** Smallest user CQ ring in 32-byte entries. */
#define IRDMA_MIN_USER_CQ_RING		4u
/** Smallest AEQ (IRDMA_MIN_AEQ_ENTRIES). */
#define IRDMA_MIN_AEQ_ENTRIES		1u
/** Largest AEQ, gen2 (IRDMA_MAX_AEQ_ENTRIES). */
#define IRDMA_MAX_AEQ_ENTRIES		524287u
/** Largest AEQ, gen3 (IRDMA_MAX_AEQ_ENTRIES_GEN_3). */
#define IRDMA_GEN3_MAX_AEQ_ENTRIES	262144u
/** Smallest CEQ. */
#define IRDMA_MIN_CEQ_ENTRIES		1u
/** Largest CEQ (IRDMA_MAX_CEQ_ENTRIES). */
#define IRDMA_MAX_CEQ_ENTRIES		262143u
/** Kernel CQP SQ size. */
#define IRDMA_KERNEL_CQP_SIZE		2048u
/** Kernel CCQ size (IW_CCQ_SIZE). */
#define IRDMA_KERNEL_CCQ_SIZE		2049u
/** Kernel CEQ size (IW_CEQ_SIZE). */
#define IRDMA_KERNEL_CEQ_SIZE		2048u
/** Kernel AEQ size (IW_AEQ_SIZE). */
#define IRDMA_KERNEL_AEQ_SIZE		2048u
/** Largest SQ / RQ ring in quanta (IRDMA_MAX_WQ_ENTRIES / max_hw_wq_quanta). */
#define IRDMA_MAX_WQ_ENTRIES		32768u
/** Smallest SQ / RQ in WRs (ICRDMA_MIN_WQ_SIZE). */
#define IRDMA_MIN_WQ_SIZE		8u
/** Largest max_qp_wr: (32768 - 258) / 8. */
#define IRDMA_MAX_QP_WR			4063u
/** Gen3: SRQ size range in quanta. */
#define IRDMA_GEN3_MIN_SRQ_QUANTA	8u
/** Gen3: largest SRQ in quanta. */
#define IRDMA_GEN3_MAX_SRQ_QUANTA	262144u
/** Gen3: largest SRQ in WRs ((262144 - IRDMA_RQ_RSVD) / 8, defs.h IRDMA_MAX_SRQ_WRS). */
#define IRDMA_GEN3_MAX_SRQ_WR		32767u

/* ---------------------------------------------------------------------------------------
 * Work-request limits.
 */

/** SGEs per send / recv WR (IRDMA_MAX_WQ_FRAGMENT_COUNT). */
#define IRDMA_MAX_SGE			13u
/** SGEs per RDMA READ (IRDMA_MAX_SGE_RD). */
#define IRDMA_MAX_SGE_RD		13u
/** Gen1 SGEs per WR. */
#define IRDMA_GEN1_MAX_SGE		3u
/** Gen1 SGEs per RDMA READ. */
#define IRDMA_GEN1_MAX_SGE_RD		1u
/** Inline bytes per WR (IRDMA_MAX_INLINE_DATA_SIZE). */
#define IRDMA_MAX_INLINE_DATA		101u
/** Largest message in either direction. */
#define IRDMA_MAX_MSG_SIZE		2147483647u
/** Largest SQ payload (IRDMA_MAX_SQ_PAYLOAD_SIZE). */
#define IRDMA_MAX_SQ_PAYLOAD		2145386496u
/** Largest MR (IRDMA_MAX_MR_SIZE, 32 TiB). */
#define IRDMA_MAX_MR_SIZE		UINT64_C(0x200000000000)
/** MR page sizes: 4K | 2M | 1G. */
#define IRDMA_PAGE_SIZE_CAP		(UINT64_C(0x1000) | UINT64_C(0x200000) | \
					 UINT64_C(0x40000000))
/** Pages per fast-register page list (IRDMA_MAX_PAGES_PER_FMR, older kernels). */
#define IRDMA_MAX_PAGES_PER_FMR		512u
/** Fast-register uses a level-1 PBL only above this many pages. */
#define IRDMA_MIN_PAGES_PER_FMR		1u
/** Largest IRD (ICRDMA_MAX_IRD_SIZE). */
#define IRDMA_MAX_IRD			127u
/** Largest ORD (ICRDMA_MAX_ORD_SIZE). */
#define IRDMA_MAX_ORD			255u
/** Statistics instances (ICRDMA_MAX_STATS_COUNT). */
#define IRDMA_MAX_STATS_INSTANCES	128u
/** HW page size for queues, CEQ / AEQ and the HMC. */
#define IRDMA_HW_PAGE_SIZE		4096u
/** log2(IRDMA_HW_PAGE_SIZE). */
#define IRDMA_HW_PAGE_SHIFT		12u

/**
 * Limits the user-kernel data path works with (mirror of struct irdma_uk_attrs).
 */
struct irdma_uk_limits {
	uint64_t feature_flags;		/**< IRDMA_FEATURE_* */
	uint32_t max_hw_wq_frags;	/**< SGEs per send / recv WR */
	uint32_t max_hw_read_sges;	/**< SGEs per RDMA READ */
	uint32_t max_hw_inline;		/**< inline bytes */
	uint32_t max_hw_rq_quanta;	/**< RQ ring quanta */
	uint32_t max_hw_wq_quanta;	/**< SQ ring quanta */
	uint32_t min_hw_cq_size;	/**< smallest CQ */
	uint32_t max_hw_cq_size;	/**< largest CQ */
	uint32_t max_hw_srq_quanta;	/**< SRQ quanta (0 without SRQ) */
	uint16_t max_hw_sq_chunk;	/**< quanta a WQE may not cross */
	uint16_t min_hw_wq_size;	/**< smallest ring in WRs */
	uint8_t hw_rev;			/**< enum irdma_hw_gen */
};

/**
 * Fill @p l with the limits of generation @p gen; returns 0, or -1 for an unknown gen.
 * Gen3 values doc/hardware.md does not give are taken as gen2's (an assumption).
 */
static inline int
irdma_uk_limits_init(struct irdma_uk_limits *l, unsigned int gen)
{
	*l = (struct irdma_uk_limits){
		.feature_flags = IRDMA_GEN2_FEATURES,
		.max_hw_wq_frags = IRDMA_MAX_SGE,
		.max_hw_read_sges = IRDMA_MAX_SGE_RD,
		.max_hw_inline = IRDMA_MAX_INLINE_DATA,
		.max_hw_rq_quanta = IRDMA_MAX_WQ_ENTRIES,
		.max_hw_wq_quanta = IRDMA_MAX_WQ_ENTRIES,
		.min_hw_cq_size = IRDMA_MIN_CQ_SIZE,
		.max_hw_cq_size = IRDMA_MAX_CQ_SIZE,
		.max_hw_srq_quanta = 0,
		.max_hw_sq_chunk = 8,
		.min_hw_wq_size = IRDMA_MIN_WQ_SIZE,
		.hw_rev = IRDMA_GEN_2,
	};
	switch (gen) {
	case IRDMA_GEN_1:
		l->feature_flags = 0;
		l->max_hw_wq_frags = IRDMA_GEN1_MAX_SGE;
		l->max_hw_read_sges = IRDMA_GEN1_MAX_SGE_RD;
		l->max_hw_inline = 48;
		l->max_hw_sq_chunk = 2;
		l->hw_rev = IRDMA_GEN_1;
		return 0;
	case IRDMA_GEN_2:
		return 0;
	case IRDMA_GEN_3:
		l->feature_flags |= IRDMA_FEATURE_64_BYTE_CQE | IRDMA_FEATURE_ATOMIC_OPS |
				    IRDMA_FEATURE_SRQ | IRDMA_FEATURE_CQE_TIMESTAMPING;
		l->max_hw_srq_quanta = IRDMA_GEN3_MAX_SRQ_QUANTA;
		l->hw_rev = IRDMA_GEN_3;
		return 0;
	default:
		return -1;
	}
}

#endif /* IRDMA_LIMITS_H */
