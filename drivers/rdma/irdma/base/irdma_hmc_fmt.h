/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_HMC_FMT_H
#define IRDMA_HMC_FMT_H

/**
 * @file
 * Host Memory Cache (doc/hardware.md §7) and PBLEs (§6.1): the HMC object types, the 192-byte
 * QUERY_FPM_VAL and COMMIT_FPM_VAL buffers, segment-descriptor (SD) and page-descriptor
 * (PD) entry formats, and the PBLE constants.
 *
 * Note: the query and the commit buffers do NOT share offsets for the first objects. In
 * the query buffer qword 0 holds the SD information and QP / CQ / HTE / ARP sit at bytes
 * 8 / 16 / 32 / 40; in the commit buffer they sit at 0 / 8 / 24 / 32 (APBVT at 40). From
 * MR (byte 48) on both agree. Source: kernel ctrl.c irdma_sc_parse_fpm_query_buf and
 * irdma_sc_parse_fpm_commit_buf; doc/hardware.md §7 gives both layouts.
 */

#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Object types and constants (doc/hardware.md §7; hmc.h).
 */

/** HMC object types (enum irdma_hmc_rsrc_type). */
enum irdma_hmc_obj {
	IRDMA_HMC_OBJ_QP	= 0,  /**< QP context (HW size from FPM) */
	IRDMA_HMC_OBJ_CQ	= 1,  /**< CQ context */
	IRDMA_HMC_OBJ_RESERVED	= 2,  /**< reserved (gen3: SRQ) */
	IRDMA_HMC_OBJ_HTE	= 3,  /**< hash table entries */
	IRDMA_HMC_OBJ_ARP	= 4,  /**< ARP / remote endpoint table */
	IRDMA_HMC_OBJ_APBVT	= 5,  /**< iWARP TCP port table (count 1, size 8192) */
	IRDMA_HMC_OBJ_MR	= 6,  /**< STag table */
	IRDMA_HMC_OBJ_XF	= 7,  /**< transmit */
	IRDMA_HMC_OBJ_XFFL	= 8,  /**< XF free list (size 4) */
	IRDMA_HMC_OBJ_Q1	= 9,  /**< inbound read queue */
	IRDMA_HMC_OBJ_Q1FL	= 10, /**< Q1 free list (size 4) */
	IRDMA_HMC_OBJ_TIMER	= 11, /**< timers */
	IRDMA_HMC_OBJ_FSIMC	= 12, /**< multicast groups */
	IRDMA_HMC_OBJ_FSIAV	= 13, /**< address vectors (UD AHs) */
	IRDMA_HMC_OBJ_PBLE	= 14, /**< PBLEs (8 bytes each) */
	IRDMA_HMC_OBJ_RRF	= 15, /**< read-response FIFO (gen2+) */
	IRDMA_HMC_OBJ_RRFFL	= 16, /**< RRF free list (size 4) */
	IRDMA_HMC_OBJ_HDR	= 17, /**< headers */
	IRDMA_HMC_OBJ_MD	= 18, /**< MD */
	IRDMA_HMC_OBJ_OOISC	= 19, /**< out-of-order */
	IRDMA_HMC_OBJ_OOISCFFL	= 20, /**< OOISC free list (size 4) */
	IRDMA_HMC_OBJ_MAX	= 21, /**< number of object types */
};

/** Bytes covered by one segment descriptor (IRDMA_HMC_DIRECT_BP_SIZE, 2 MB). */
#define IRDMA_HMC_SD_SIZE		0x200000u
/** Bytes covered by one page descriptor (IRDMA_HMC_PAGED_BP_SIZE). */
#define IRDMA_HMC_PD_SIZE		4096u
/** Page descriptors in one paged SD (IRDMA_HMC_PD_CNT_IN_SD / MAX_BP_COUNT). */
#define IRDMA_HMC_PD_PER_SD		512u
/** Most SDs (IRDMA_HMC_MAX_SD_COUNT). */
#define IRDMA_HMC_MAX_SD		8192u
/** First FPM function id of a VF (IRDMA_FIRST_VF_FPM_ID). */
#define IRDMA_FIRST_VF_FPM_ID		8u
/** Count granularity used by the sizing policy (FPM_MULTIPLIER). */
#define IRDMA_FPM_MULTIPLIER		1024u
/** Bytes in a QUERY_FPM_VAL / COMMIT_FPM_VAL buffer. */
#define IRDMA_FPM_BUF_SIZE		192u
/** Commit buffer: object base = (qword >> 32) * this. */
#define IRDMA_FPM_BASE_UNIT		512u
/** Size of the APBVT object (the query buffer has no entry for it). */
#define IRDMA_HMC_APBVT_SIZE		8192u
/** Size of every free-list (FL) object. */
#define IRDMA_HMC_FL_OBJ_SIZE		4u
/** Size of a PBLE object. */
#define IRDMA_HMC_PBLE_OBJ_SIZE		8u

/* ---------------------------------------------------------------------------------------
 * QUERY_FPM_VAL buffer (device-written; ctrl.c irdma_sc_parse_fpm_query_buf, defs.h
 * IRDMA_QUERY_FPM_*). Plain objects: max count in 31:0, log2(object size) in 63:32.
 * Free-list objects: max count in 31:0, block size in 63:32.
 */

/** The 192-byte FPM query buffer. */
IRDMA_LAYOUT(fpm_query, 24);

/** First SD index of this function. */
IRDMA_FIELD(fpm_query, FPMQ_FIRST_PE_SD_INDEX, 0, 13, 0);
/** Number of SDs this function may use. */
IRDMA_FIELD(fpm_query, FPMQ_MAX_PE_SDS, 0, 45, 32);
/** QP: maximum count (19 bits). */
IRDMA_FIELD(fpm_query, FPMQ_QP_MAX, 1, 18, 0);
/** QP: log2 of the context size. */
IRDMA_FIELD(fpm_query, FPMQ_QP_SIZE_LOG2, 1, 63, 32);
/** CQ: maximum count (20 bits). */
IRDMA_FIELD(fpm_query, FPMQ_CQ_MAX, 2, 19, 0);
/** CQ: log2 of the context size. */
IRDMA_FIELD(fpm_query, FPMQ_CQ_SIZE_LOG2, 2, 63, 32);
/** HTE: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_HTE_MAX, 4, 31, 0);
/** HTE: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_HTE_SIZE_LOG2, 4, 63, 32);
/** ARP: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_ARP_MAX, 5, 31, 0);
/** ARP: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_ARP_SIZE_LOG2, 5, 63, 32);
/** MR: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_MR_MAX, 6, 31, 0);
/** MR: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_MR_SIZE_LOG2, 6, 63, 32);
/** XF: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_XF_MAX, 7, 31, 0);
/** XF: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_XF_SIZE_LOG2, 7, 63, 32);
/** XFFL: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_XFFL_MAX, 8, 31, 0);
/** XF block size (XFFL count = XF count / this; must be non-zero). */
IRDMA_FIELD(fpm_query, FPMQ_XF_BLOCK_SIZE, 8, 63, 32);
/** Q1: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_Q1_MAX, 9, 31, 0);
/** Q1: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_Q1_SIZE_LOG2, 9, 63, 32);
/** Q1FL: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_Q1FL_MAX, 10, 31, 0);
/** Q1 block size (must be non-zero). */
IRDMA_FIELD(fpm_query, FPMQ_Q1_BLOCK_SIZE, 10, 63, 32);
/** TIMER: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_TIMER_MAX, 11, 31, 0);
/** TIMER: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_TIMER_SIZE_LOG2, 11, 63, 32);
/** FSIMC: maximum count (gen2+). */
IRDMA_FIELD(fpm_query, FPMQ_FSIMC_MAX, 12, 31, 0);
/** FSIMC: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_FSIMC_SIZE_LOG2, 12, 63, 32);
/** FSIAV: maximum count (gen2+). */
IRDMA_FIELD(fpm_query, FPMQ_FSIAV_MAX, 13, 31, 0);
/** FSIAV: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_FSIAV_SIZE_LOG2, 13, 63, 32);
/** PBLE: maximum count (size is always 8). */
IRDMA_FIELD(fpm_query, FPMQ_PBLE_MAX, 14, 31, 0);
/** Maximum CEQs. */
IRDMA_FIELD(fpm_query, FPMQ_MAX_CEQS, 15, 9, 0);
/** Hash-table multiplier for the HTE count. */
IRDMA_FIELD(fpm_query, FPMQ_HTMULTIPLIER, 15, 19, 16);
/** Timer bucket. */
IRDMA_FIELD(fpm_query, FPMQ_TIMERBUCKET, 15, 47, 32);
/** RRF: maximum count (gen2+). */
IRDMA_FIELD(fpm_query, FPMQ_RRF_MAX, 16, 31, 0);
/** RRF: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_RRF_SIZE_LOG2, 16, 63, 32);
/** RRFFL: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_RRFFL_MAX, 17, 31, 0);
/** RRF block size (non-zero when RRFFL max is). */
IRDMA_FIELD(fpm_query, FPMQ_RRF_BLOCK_SIZE, 17, 63, 32);
/** HDR: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_HDR_MAX, 18, 31, 0);
/** HDR: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_HDR_SIZE_LOG2, 18, 63, 32);
/** MD: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_MD_MAX, 19, 31, 0);
/** MD: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_MD_SIZE_LOG2, 19, 63, 32);
/** OOISC: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_OOISC_MAX, 20, 31, 0);
/** OOISC: log2 size. */
IRDMA_FIELD(fpm_query, FPMQ_OOISC_SIZE_LOG2, 20, 63, 32);
/** OOISCFFL: maximum count. */
IRDMA_FIELD(fpm_query, FPMQ_OOISCFFL_MAX, 21, 31, 0);
/** OOISC free-list block size (non-zero when OOISCFFL max is). */
IRDMA_FIELD(fpm_query, FPMQ_OOISCF_BLOCK_SIZE, 21, 63, 32);

/* ---------------------------------------------------------------------------------------
 * COMMIT_FPM_VAL buffer (SW writes counts; the device returns each object's base in
 * 63:32, in units of IRDMA_FPM_BASE_UNIT). ctrl.c irdma_sc_parse_fpm_commit_buf.
 */

/** The 192-byte FPM commit buffer. */
IRDMA_LAYOUT(fpm_commit, 24);

/** QP count (19 bits). */
IRDMA_FIELD(fpm_commit, FPMC_QP_CNT, 0, 18, 0);
/** QP base. */
IRDMA_FIELD(fpm_commit, FPMC_QP_BASE, 0, 63, 32);
/** CQ count (gen2 mask 19:0). */
IRDMA_FIELD(fpm_commit, FPMC_CQ_CNT, 1, 19, 0);
/** CQ count, gen1 mask. */
IRDMA_FIELD(fpm_commit, FPMC_CQ_CNT_GEN1, 1, 17, 0);
/** CQ base. */
IRDMA_FIELD(fpm_commit, FPMC_CQ_BASE, 1, 63, 32);

/**
 * Byte offset of object @p obj's qword in the COMMIT buffer, or -1 for an object with
 * none (ctrl.c irdma_sc_parse_fpm_commit_buf; the reserved object 2 sits at 16).
 */
static inline int
irdma_fpm_commit_offset(enum irdma_hmc_obj obj)
{
	static const int16_t off[IRDMA_HMC_OBJ_MAX] = {
		[IRDMA_HMC_OBJ_QP] = 0,		[IRDMA_HMC_OBJ_CQ] = 8,
		[IRDMA_HMC_OBJ_RESERVED] = 16,	[IRDMA_HMC_OBJ_HTE] = 24,
		[IRDMA_HMC_OBJ_ARP] = 32,	[IRDMA_HMC_OBJ_APBVT] = 40,
		[IRDMA_HMC_OBJ_MR] = 48,	[IRDMA_HMC_OBJ_XF] = 56,
		[IRDMA_HMC_OBJ_XFFL] = 64,	[IRDMA_HMC_OBJ_Q1] = 72,
		[IRDMA_HMC_OBJ_Q1FL] = 80,	[IRDMA_HMC_OBJ_TIMER] = 88,
		[IRDMA_HMC_OBJ_FSIMC] = 96,	[IRDMA_HMC_OBJ_FSIAV] = 104,
		[IRDMA_HMC_OBJ_PBLE] = 112,	[IRDMA_HMC_OBJ_RRF] = 128,
		[IRDMA_HMC_OBJ_RRFFL] = 136,	[IRDMA_HMC_OBJ_HDR] = 144,
		[IRDMA_HMC_OBJ_MD] = 152,	[IRDMA_HMC_OBJ_OOISC] = 160,
		[IRDMA_HMC_OBJ_OOISCFFL] = 168,
	};

	return (unsigned int)obj < IRDMA_HMC_OBJ_MAX ? off[obj] : -1;
}

/**
 * Byte offset of object @p obj's qword in the QUERY buffer, or -1 when the query buffer
 * has none (APBVT, and the reserved object). Byte 120 is the misc qword (MAX_CEQS ...).
 */
static inline int
irdma_fpm_query_offset(enum irdma_hmc_obj obj)
{
	static const int16_t off[IRDMA_HMC_OBJ_MAX] = {
		[IRDMA_HMC_OBJ_QP] = 8,		[IRDMA_HMC_OBJ_CQ] = 16,
		[IRDMA_HMC_OBJ_RESERVED] = -1,	[IRDMA_HMC_OBJ_HTE] = 32,
		[IRDMA_HMC_OBJ_ARP] = 40,	[IRDMA_HMC_OBJ_APBVT] = -1,
		[IRDMA_HMC_OBJ_MR] = 48,	[IRDMA_HMC_OBJ_XF] = 56,
		[IRDMA_HMC_OBJ_XFFL] = 64,	[IRDMA_HMC_OBJ_Q1] = 72,
		[IRDMA_HMC_OBJ_Q1FL] = 80,	[IRDMA_HMC_OBJ_TIMER] = 88,
		[IRDMA_HMC_OBJ_FSIMC] = 96,	[IRDMA_HMC_OBJ_FSIAV] = 104,
		[IRDMA_HMC_OBJ_PBLE] = 112,	[IRDMA_HMC_OBJ_RRF] = 128,
		[IRDMA_HMC_OBJ_RRFFL] = 136,	[IRDMA_HMC_OBJ_HDR] = 144,
		[IRDMA_HMC_OBJ_MD] = 152,	[IRDMA_HMC_OBJ_OOISC] = 160,
		[IRDMA_HMC_OBJ_OOISCFFL] = 168,
	};

	return (unsigned int)obj < IRDMA_HMC_OBJ_MAX ? off[obj] : -1;
}

/** Commit buffer: FPM base address of an object from its CPU-order qword (63:32 x 512). */
static inline uint64_t
irdma_fpm_commit_base(uint64_t qw)
{
	return (qw >> 32) * IRDMA_FPM_BASE_UNIT;
}

/** Commit buffer: FPM base of an object, encoded for its qword's 63:32. */
static inline uint64_t
irdma_fpm_commit_encode_base(uint64_t base)
{
	return (base / IRDMA_FPM_BASE_UNIT) << 32;
}

/** Query buffer: object size in bytes from a plain object's CPU-order qword (1 << 63:32). */
static inline uint64_t
irdma_fpm_query_obj_size(uint64_t qw)
{
	uint32_t l = (uint32_t)(qw >> 32);

	return l < 64 ? UINT64_C(1) << l : 0;
}

/** Query / commit buffer: object count in 31:0 of a CPU-order qword (plain objects). */
static inline uint32_t
irdma_fpm_obj_count(uint64_t qw)
{
	return (uint32_t)qw;
}

/** True for the free-list objects, whose size is 4 and whose query qword holds a block. */
static inline int
irdma_hmc_obj_is_fl(enum irdma_hmc_obj obj)
{
	return obj == IRDMA_HMC_OBJ_XFFL || obj == IRDMA_HMC_OBJ_Q1FL ||
	       obj == IRDMA_HMC_OBJ_RRFFL || obj == IRDMA_HMC_OBJ_OOISCFFL;
}

/**
 * Gen3: byte offset in the QUERY buffer of the SRQ object's qword (max count 31:0, log2 of
 * the size 63:32, as plain objects). Inferred: the qword between CQ (16) and HTE (32) that
 * gen2 leaves unused; the commit buffer's SRQ qword is the reserved object's, byte 16.
 */
#define IRDMA_FPMQ_SRQ_OFFSET_GEN3	24u

/** Byte offset in the query buffer of the misc qword (MAX_CEQS, HTMULTIPLIER, ...). */
#define IRDMA_FPMQ_MISC_OFFSET		120u

/* ---------------------------------------------------------------------------------------
 * Segment descriptors and page descriptors (hmc.c irdma_set_sd_entry, irdma.h
 * IRDMA_PFHMC_SD*; doc/hardware.md §7).
 */

/** One 16-byte SD entry as UPDATE_PE_SDS consumes it: qword 0 command, qword 1 data. */
IRDMA_LAYOUT(sd_entry, 2);

/**
 * SD index. The kernel ORs the raw index (up to IRDMA_HMC_MAX_SD - 1, 13 bits) into the
 * command; irdma.h names no index field, so 12:0 is inferred from the 8192-SD limit.
 */
IRDMA_FIELD(sd_entry, SD_CMD_INDEX, 0, 12, 0);
/** Partition select; the kernel always sets it (BIT(15)). */
IRDMA_BIT(sd_entry, SD_CMD_PARTSEL, 0, 15);
/** Write the SD (PMSDWR); set for both program and clear. */
IRDMA_BIT(sd_entry, SD_CMD_WRITE, 0, 31);
/** SD valid (0 = clear the SD). */
IRDMA_BIT(sd_entry, SD_DATA_VALID, 1, 0);
/** SD type: IRDMA_SD_HW_TYPE_PAGED (0) or IRDMA_SD_HW_TYPE_DIRECT (1). */
IRDMA_BIT(sd_entry, SD_DATA_TYPE, 1, 1);
/** Backing-page count (the kernel always writes 512). */
IRDMA_FIELD(sd_entry, SD_DATA_BPCOUNT, 1, 11, 2);
/**
 * Physical address >> 12 of the PD page (paged) or of the 2 MB buffer (direct). The
 * kernel ORs the 4 KB-aligned address itself, i.e. bits 63:12.
 */
IRDMA_FIELD(sd_entry, SD_DATA_PFN, 1, 63, 12);

/** SD_DATA_TYPE: a 4 KB page of 512 PD entries. */
#define IRDMA_SD_HW_TYPE_PAGED		0u
/** SD_DATA_TYPE: one 2 MB physically contiguous buffer. */
#define IRDMA_SD_HW_TYPE_DIRECT		1u

/** SW bookkeeping type of an SD (enum irdma_sd_entry_type; not a HW encoding). */
enum irdma_sd_type {
	IRDMA_SD_TYPE_INVALID	= 0, /**< not backed */
	IRDMA_SD_TYPE_PAGED	= 1, /**< paged */
	IRDMA_SD_TYPE_DIRECT	= 2, /**< direct */
};

/** One 8-byte page-descriptor entry inside a paged SD's PD page. */
IRDMA_LAYOUT(pd_entry, 1);
/** PD entry valid. */
IRDMA_BIT(pd_entry, PD_VALID, 0, 0);
/** Physical address >> 12 of the 4 KB backing page. */
IRDMA_FIELD(pd_entry, PD_PFN, 0, 63, 12);

/** SD index holding FPM address @p fpm. */
static inline uint32_t
irdma_hmc_sd_index(uint64_t fpm)
{
	return (uint32_t)(fpm / IRDMA_HMC_SD_SIZE);
}

/** Global PD index holding FPM address @p fpm (SD = pd / 512, slot = pd % 512). */
static inline uint32_t
irdma_hmc_pd_index(uint64_t fpm)
{
	return (uint32_t)(fpm / IRDMA_HMC_PD_SIZE);
}

/* ---------------------------------------------------------------------------------------
 * PBLEs (doc/hardware.md §6.1; pble.h).
 */

/** Bytes in a PBLE. */
#define IRDMA_PBLE_SIZE			8u
/** PBLEs in a 4 KB page (PBLE_PER_PAGE); also the leaf size of a level-2 PBL. */
#define IRDMA_PBLE_PER_PAGE		512u
/** log2(PBLEs per 64 bytes): the allocator's bitmap granule (PBLE_SHIFT). */
#define IRDMA_PBLE_SHIFT		6u
/** log2(IRDMA_PBLE_PER_PAGE) (PBLE_512_SHIFT). */
#define IRDMA_PBLE_512_SHIFT		9u
/** log2 of the 4 KB HMC paged backing page (HMC_PAGED_BP_SHIFT). */
#define IRDMA_HMC_PAGED_BP_SHIFT	12u
/** Invalid PBLE index (PBLE_INVALID_IDX). */
#define IRDMA_PBLE_INVALID_IDX		0xffffffffu
/** PBLEs in one 2 MB SD chunk of the pool. */
#define IRDMA_PBLE_PER_SD		(IRDMA_HMC_SD_SIZE / IRDMA_PBLE_SIZE)

/** PBL levels (enum irdma_pble_level). */
enum irdma_pble_level {
	IRDMA_PBLE_LEVEL_0 = 0, /**< no PBL: one physical address */
	IRDMA_PBLE_LEVEL_1 = 1, /**< a run of PBLEs, one per page */
	IRDMA_PBLE_LEVEL_2 = 2, /**< root PBLEs holding leaf PBLE indices */
};

/** PBLE index of FPM address @p fpm in a PBLE object based at @p base. */
static inline uint32_t
irdma_pble_index(uint64_t fpm, uint64_t base)
{
	return (uint32_t)((fpm - base) / IRDMA_PBLE_SIZE);
}

#endif /* IRDMA_HMC_FMT_H */
