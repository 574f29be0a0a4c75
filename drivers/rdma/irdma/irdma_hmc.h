/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_HMC_H
#define IRDMA_HMC_H

/**
 * @file
 * The driver's Host Memory Cache (irdma_hmc.c): the sizing request, QUERY_FPM_VAL /
 * COMMIT_FPM_VAL, the segment-descriptor backing, and the PBLE pool over the HMC PBLE object
 * (irdma_ctrl.c). The buffer and descriptor formats are base/irdma_hmc_fmt.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_base.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;

/** Sizing policy: ARP table entries committed. */
#define IRDMA_HMC_ARP_COUNT		512u
/** Sizing policy: address vectors (UD address handles) committed. */
#define IRDMA_HMC_AH_COUNT		1024u
/** Sizing policy: PBLEs committed (256 MB of 4 KB pages of queues and MRs). */
#define IRDMA_HMC_PBLE_COUNT		65536u

/** Segment-descriptor backing of one 2 MB SD. */
struct irdma_hmc_sd {
	enum irdma_sd_type type;	/**< INVALID, PAGED or DIRECT */
	struct irdma_dma_mem direct;	/**< DIRECT: the 2 MB buffer */
	struct irdma_dma_mem pd_page;	/**< PAGED: the page of 512 PD entries */
	struct irdma_dma_mem *pages;	/**< PAGED: IRDMA_HMC_PD_PER_SD backing pages */
};

/** An HMC object as the driver sees it after QUERY / COMMIT_FPM_VAL. */
struct irdma_hmc_obj_info {
	uint64_t base;		/**< FPM base (committed) */
	uint64_t size;		/**< bytes per object */
	uint32_t cnt;		/**< committed count */
	uint32_t max;		/**< maximum from the query */
};

/** Object counts the driver asks the HMC for (the sizing policy's inputs). */
struct irdma_hmc_request {
	uint32_t qps;	/**< QPs (power of two) */
	uint32_t cqs;	/**< CQs */
	uint32_t mrs;	/**< MRs (STag indexes) */
	/** Back every SD with 4 KB pages even when 2 MB IOVA-contiguous memory exists. */
	bool sd_paged_only;
	/** Give QP and CQ rings to the device through level-1 PBLs always (c->ring_pbl). */
	bool ring_pbl;
	/** Gen3: SRQs (HMC object 2); 0 on gen2, which has none. */
	uint32_t srqs;
	/**
	 * Skip the PF layer (irdma_pf_bringup()): the HMC function id stays 0 and the link
	 * unknown. Only for measuring what the PF steps cost (bench_irdma_start) and for a
	 * device model whose PF is already up.
	 */
	bool no_pf;
	/**
	 * Milliseconds between the looks at the AdminQ and GLGEN_RSTAT for a reset that
	 * PFINT_OICR did not announce (a function-level reset, lost interrupts); 0: never.
	 */
	uint32_t reset_poll_ms;
	/** The port's Ethernet MTU (devargs `mtu`): the active path MTU is what it carries. */
	uint32_t eth_mtu;
};

/** HMC state. */
struct irdma_hmc {
	struct irdma_hmc_obj_info obj[IRDMA_HMC_OBJ_MAX];	/**< per object */
	uint32_t first_sd;	/**< first SD index of the function (query) */
	uint32_t max_sds;	/**< SD budget (query) */
	uint32_t max_ceqs;	/**< CEQs the function may create (query) */
	uint32_t sd_first;	/**< first SD the committed layout spans */
	uint32_t sd_cnt;	/**< SDs the committed layout spans */
	struct irdma_hmc_sd *sds;	/**< sd_cnt backing descriptors */
	bool committed;		/**< COMMIT_FPM_VAL succeeded */
};

/**
 * QUERY_FPM_VAL: read the HMC maxima, object sizes, SD budget and CEQ count into c->hmc.
 * @return 0 or a negative errno.
 */
int irdma_hmc_query(struct irdma_ctrl *c);

/**
 * The sizing policy: object counts for COMMIT_FPM_VAL from c->req and the query's maxima,
 * checked against every maximum and the SD budget.
 * @param cnt filled with one count per object type.
 * @return 0, -ENOSPC (a request above a maximum or beyond the SD budget, logged), -EPROTO
 *         (the query returned a zero block size).
 */
int irdma_hmc_size(struct irdma_ctrl *c, uint32_t cnt[IRDMA_HMC_OBJ_MAX]);

/**
 * COMMIT_FPM_VAL with @p cnt, then read the placed bases back into c->hmc.
 * @return 0 or a negative errno.
 */
int irdma_hmc_commit(struct irdma_ctrl *c, const uint32_t cnt[IRDMA_HMC_OBJ_MAX]);

/**
 * Back every SD the committed layout spans with memory (direct 2 MB when IOVA-contiguous
 * memory is available, else paged 4 KB pages) and program the SDs with UPDATE_PE_SDS.
 * @return 0 or a negative errno; on failure nothing stays programmed or allocated.
 */
int irdma_hmc_back(struct irdma_ctrl *c);

/** Clear the programmed SDs (UPDATE_PE_SDS, valid 0) and free their memory. */
void irdma_hmc_unback(struct irdma_ctrl *c);

/**
 * Create c->pble_pool over the committed HMC PBLE object, which irdma_hmc_back() has
 * backed whole (no chunk_add hook is needed). The pool needs the object VA-contiguous: it
 * covers the longest VA-contiguous prefix of the object's backing (the whole object when it
 * lies in one direct SD, as with the default sizing) and logs when that is less.
 * @return 0, -EPROTO (no PBLE object committed or backed), or pbl_pool_create()'s -errno.
 */
int irdma_pble_pool_create(struct irdma_ctrl *c);

/** Destroy c->pble_pool (runs still allocated are logged as leaks). Safe when NULL. */
void irdma_pble_pool_destroy(struct irdma_ctrl *c);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_HMC_H */
