/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CTRL_H
#define IRDMA_CTRL_H

/**
 * @file
 * The irdma PMD's control path of one device (irdma_ctrl.c): struct irdma_ctrl, which holds
 * the CQP (irdma_cqp.h), the HMC (irdma_hmc.h), the event queues (irdma_event.h) and the PF
 * layer, and the device bring-up / teardown built from them. Everything reaches the device
 * through irdma_hw.h only, so the same code runs on silicon and on the device model.
 *
 * Every error path returns a negative errno and logs why on the `pmd.rdma.irdma` log type.
 * The objects have their own headers: irdma_qp.h, irdma_cq.h, irdma_srq.h, irdma_mr.h,
 * irdma_ah.h, irdma_port.h, irdma_stats.h, irdma_dump.h.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_spinlock.h>

#include <pbl.h>

#include "irdma_base.h"
#include "irdma_cqp.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_hmc.h"
#include "irdma_hw.h"
#include "irdma_log.h"
#include "irdma_pmd_pf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Entries of the port's GID table (the kernel's RoCE gid_tbl_len). */
#define IRDMA_GID_TBL_LEN		32u
/** LAST_WQE_REACHED events a device holds between two event_process calls. */
#define IRDMA_LAST_WQE_PENDING		64u

/** Driver control-path state of one device. */
struct irdma_ctrl {
	struct irdma_hw *hw;		/**< the device */
	struct irdma_pf pf;		/**< the PF layer (pf/irdma_pf.c) */
	/** HMC function id of every CQP command that carries one: the PF id (0 until known). */
	uint8_t hmc_fn_id;
	/**
	 * A device reset (core, global or EMP) was detected (irdma_pf_reset_check()): every
	 * object is fatal until the device is stopped. Atomic.
	 */
	bool fatal;
	/**
	 * A CQP command found the device reset (irdma_pf_reset_seen()) before the event path
	 * did: CQP commands take the fatal path; the next event pass does the rest. Atomic.
	 */
	bool reset_seen;
	uint64_t reset_poll_next;	/**< timer cycle of the next reset poll */
	uint16_t seq;			/**< per-device memzone name prefix */
	uint32_t mz_seq;		/**< memzone name counter */
	struct irdma_cqp cqp;		/**< control QP */
	struct irdma_ctrl_cq ccq;	/**< control CQ (CQ 0) */
	/** CEQ k, routed to MSI-X vector k (k < nb_ceqs); CEQ 0 also takes the CCQ. */
	struct irdma_ctrl_eq ceq[IRDMA_MAX_COMP_VECTORS];
	/** CEQs created at start: the configured completion vectors (at least 1). */
	uint32_t nb_ceqs;
	struct irdma_ctrl_eq aeq;	/**< the AEQ */
	struct irdma_dma_mem fpm_buf;	/**< QUERY / COMMIT_FPM_VAL buffer */
	struct irdma_dma_mem sd_buf;	/**< UPDATE_PE_SDS entries beyond the WQE's three */
	struct irdma_hmc hmc;		/**< HMC */
	struct irdma_hmc_request req;	/**< sizing request */
	struct pbl_pool *pble_pool;	/**< PBLE pool over the HMC PBLE object (while up) */
	struct pbl_umem *umem;		/**< application memory mapped for DMA (while up) */
	uint32_t nb_cqs;		/**< live CQs (atomic) */
	uint32_t nb_mrs;		/**< live MRs (atomic) */
	uint32_t mr_key;		/**< next STag key (atomic; low 8 bits used) */
	struct irdma_ah_tab *ah_tab;	/**< ARP and AH tables (irdma_ah.c; while started) */
	uint32_t nb_ahs;		/**< live AHs (atomic) */
	struct irdma_stats_tab *stats;	/**< statistics (irdma_stats.c; while started) */
	/** The port's GID table (source addresses; IPv6 or IPv4-mapped), set at probe. */
	uint8_t gid[IRDMA_GID_TBL_LEN][16];
	uint32_t nb_gids;		/**< valid entries of gid[] */
	int aeq_irq_fd;			/**< vector 0's eventfd (AEQ), -1 when polled only */
	/** Eventfd of vector k (irq_fd[0] == aeq_irq_fd), -1 when not routed. */
	int irq_fd[IRDMA_MAX_COMP_VECTORS];
	/** With more than one vector: an epoll fd over every irq_fd[] (else -1). */
	int intr_fd;
	/** The next event pass looks at vector 0's causes although it did not fire. */
	bool intr_look;
	/** Serialises CEQ with a CQ's destroy (irdma_ceq_process, irdma_cq.c). */
	pthread_mutex_t ceq_lock;
	/** Serialises AEQ reads with irdma_aeq_mark() (the ring's head and consumed count). */
	pthread_mutex_t aeq_lock;
	/** Build every QP and CQ ring with a level-1 PBL, even IOVA-contiguous ones (tests). */
	bool ring_pbl;
	/** QPNs whose LAST_WQE_REACHED event is due (irdma_srq.c; under last_wqe_lock). */
	uint32_t last_wqe[IRDMA_LAST_WQE_PENDING];
	uint32_t nb_last_wqe;		/**< entries of last_wqe[] */
	rte_spinlock_t last_wqe_lock;	/**< protects last_wqe[] (zero: unlocked) */
	/** Gen3 windows: the rdmadev device their objects live on (set by irdma_mw_alloc). */
	struct rdmadev *rdev;
	uint32_t nb_mws;		/**< live windows (atomic; 0: no data-path lookups) */
};

/**
 * Initialise @p c for device @p hw (no device access, no allocation).
 * @return 0, or -errno of pthread_mutex_init.
 */
int irdma_ctrl_init(struct irdma_ctrl *c, struct irdma_hw *hw,
		    const struct irdma_hmc_request *req);

/** Release what irdma_ctrl_init() set up (after irdma_ctrl_teardown()). */
void irdma_ctrl_fini(struct irdma_ctrl *c);

/**
 * Bring the device up: the PF layer (irdma_pf_bringup(): reset, AdminQ, version,
 * capabilities, MAC, link; unless req.no_pf), then firmware ready, CQP, QUERY_FPM_VAL, COMMIT_FPM_VAL, UPDATE_PE_SDS,
 * CCQ, one CEQ per completion vector (nb_ceqs, checked against the function's MSI-X count),
 * AEQ. On failure everything done so far is undone.
 * @return 0 or a negative errno.
 */
int irdma_ctrl_bringup(struct irdma_ctrl *c);

/** Undo irdma_ctrl_bringup() (or the part of it that succeeded), in reverse order. */
void irdma_ctrl_teardown(struct irdma_ctrl *c);

/** PBL levels QP and CQ rings may take: 0 or 1, or 1 only when c->ring_pbl. */
static inline uint32_t
irdma_ring_levels(const struct irdma_ctrl *c)
{
	return c->ring_pbl ? PBL_LEVEL_MASK(PBL_LEVEL_1) : PBL_LEVELS_QUEUE;
}

/**
 * Poll the firmware status registers until ready, bounded.
 * @return 0 or -ETIMEDOUT.
 */
int irdma_ctrl_wait_fw(struct irdma_ctrl *c);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_CTRL_H */
