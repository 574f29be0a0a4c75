/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CTRL_H
#define IRDMA_CTRL_H

/**
 * @file
 * The irdma PMD control path: DMA memory, the control QP (CQP) with its submit/wait API,
 * the HMC (FPM query/commit and segment-descriptor backing), the CCQ, the CEQs and the AEQ, and
 * the device bring-up / teardown built from them. Everything reaches the device through
 * irdma_hw.h only, so the same code runs on silicon and on the device model.
 *
 * Waits are bounded by time (IRDMA_CTRL_TIMEOUT_MS) and call irdma_hw_service() between
 * polls; a wait that expires returns -ETIMEDOUT. Every error path returns a negative errno
 * and logs why on the `pmd.rdma.irdma` log type.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_log.h>
#include <rte_memzone.h>
#include <rte_spinlock.h>

#include <pbl.h>

#include "irdma_base.h"
#include "irdma_hw.h"
#include "irdma_pmd_pf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Log type of the PMD (`pmd.rdma.irdma`). */
extern int irdma_logtype;

/** Log a message for device @p hw at @p level. */
#define IRDMA_LOG(level, hw, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_logtype, "irdma %s: " fmt "\n", (hw)->name, ##__VA_ARGS__)

/** Upper bound of every wait on the device, in milliseconds. */
#define IRDMA_CTRL_TIMEOUT_MS		2000u
/** CQP SQ entries the driver creates (power of two, 4..2048). */
#define IRDMA_CTRL_CQP_SIZE		128u
/** CCQ entries: one more than the CQP (the kernel's IW_CCQ_SIZE rule). */
#define IRDMA_CTRL_CCQ_SIZE		(IRDMA_CTRL_CQP_SIZE + 1u)
/** CEQ0 entries. */
#define IRDMA_CTRL_CEQ_SIZE		IRDMA_KERNEL_CEQ_SIZE
/** AEQ entries. */
#define IRDMA_CTRL_AEQ_SIZE		IRDMA_KERNEL_AEQ_SIZE
/** Alignment of CQ, CEQ and AEQ rings. */
#define IRDMA_CTRL_RING_ALIGN		256u
/** Sizing policy: ARP table entries committed. */
#define IRDMA_HMC_ARP_COUNT		512u
/** Sizing policy: address vectors (UD address handles) committed. */
#define IRDMA_HMC_AH_COUNT		1024u
/** Sizing policy: PBLEs committed (256 MB of 4 KB pages of queues and MRs). */
#define IRDMA_HMC_PBLE_COUNT		65536u
/** The CEQ the CCQ reports to. */
#define IRDMA_CTRL_CEQ0			0u
/**
 * Most completion vectors (CEQs) the PMD sets up: CEQ k is routed to MSI-X vector k, CEQ 0
 * sharing vector 0 with the AEQ and the AdminQ (the kernel's msix_shared layout).
 */
#define IRDMA_MAX_COMP_VECTORS		16u
/** Entries of the port's GID table (the kernel's RoCE gid_tbl_len). */
#define IRDMA_GID_TBL_LEN		32u
/** Interrupt vector of the AEQ (the kernel gives the AEQ the first vector). */
#define IRDMA_CTRL_AEQ_VECTOR		0u
/** LAST_WQE_REACHED events a device holds between two event_process calls. */
#define IRDMA_LAST_WQE_PENDING		64u

/** Deadline IRDMA_CTRL_TIMEOUT_MS from now, in timer cycles. */
static inline uint64_t
irdma_ctrl_deadline(void)
{
	return rte_get_timer_cycles() + rte_get_timer_hz() * IRDMA_CTRL_TIMEOUT_MS / MS_PER_S;
}

/** True once @p deadline (from irdma_ctrl_deadline()) has passed. */
static inline bool
irdma_ctrl_expired(uint64_t deadline)
{
	return rte_get_timer_cycles() > deadline;
}

/**
 * Queue memory (QP and CQ rings): whole 4 KB pages, VA-contiguous for the CPU, not
 * necessarily IOVA-contiguous; each IOVA-contiguous piece is DMA-mapped. What the device is
 * told about it (an IOVA or a level-1 PBL) is built with lib/pbl's queue builders.
 */
struct irdma_qmem {
	struct pbl_buf buf;		/**< the pages (buf.va NULL when not allocated) */
	struct pbl_layout *layout;	/**< their IOVA pieces, each DMA-mapped */
};

/** One DMA-mapped, IOVA-contiguous buffer. */
struct irdma_dma_mem {
	const struct rte_memzone *mz;	/**< backing memzone, or NULL when from rte_malloc */
	void *va;			/**< CPU address (NULL when not allocated) */
	rte_iova_t iova;		/**< device address */
	size_t len;			/**< bytes */
};

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

/** A completion queue ring with its shadow area (the CCQ). */
struct irdma_ctrl_cq {
	struct irdma_dma_mem ring;	/**< CQEs */
	struct irdma_dma_mem shadow;	/**< shadow area */
	uint32_t size;			/**< entries */
	uint32_t head;			/**< next CQE SW reads */
	uint32_t polarity;		/**< valid bit expected on this pass */
	bool created;			/**< CREATE_CQ succeeded */
};

/** An event queue ring (CEQ or AEQ). */
struct irdma_ctrl_eq {
	struct irdma_dma_mem ring;	/**< entries */
	uint32_t size;			/**< entries */
	bool created;			/**< CREATE_*EQ succeeded */
	uint32_t head;			/**< next entry SW reads */
	uint8_t polarity;		/**< valid bit expected on this pass (starts 1) */
	uint64_t consumed;		/**< AEQ: entries read since it was created */
};

/** What a CQP command completed with. */
struct irdma_cqp_cmpl {
	uint16_t major;		/**< major error code (0 = success) */
	uint16_t minor;		/**< minor error code */
	uint32_t op_ret;	/**< CCQ OPRETVAL (0 before the CCQ exists) */
};

/** The control QP. */
struct irdma_cqp {
	struct irdma_dma_mem ctx;	/**< host context */
	struct irdma_dma_mem sq;	/**< SQ of IRDMA_CTRL_CQP_SIZE WQEs */
	uint32_t size;			/**< SQ entries */
	uint32_t head;			/**< next slot SW writes */
	uint32_t polarity;		/**< SW polarity of the current pass */
	uint64_t compl_ctx;		/**< completion context in the host context */
	bool created;			/**< the device accepted the CQP */
	/** A command timed out: the SQ and CCQ positions are unknown, only destroy is left. */
	bool hung;
	pthread_mutex_t lock;		/**< serialises submit + wait */
};

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

/**
 * Allocate @p len bytes aligned to @p align, IOVA-contiguous, zeroed, and DMA-map them.
 * @return 0, -ENOMEM, or the map's -errno.
 */
int irdma_dma_alloc(struct irdma_ctrl *c, struct irdma_dma_mem *m, size_t len, size_t align);

/** Unmap and free @p m (no-op when not allocated). */
void irdma_dma_free(struct irdma_ctrl *c, struct irdma_dma_mem *m);

/**
 * Allocate @p len bytes of zeroed queue memory (rounded up to 4 KB pages, from EAL on the
 * device's NUMA node, IOVA-contiguous or not) and DMA-map every IOVA-contiguous piece.
 * @return 0, -ENOMEM, or the resolve's / map's -errno; nothing stays allocated on failure.
 */
int irdma_qmem_alloc(struct irdma_ctrl *c, struct irdma_qmem *m, size_t len);

/** Unmap and free @p m (no-op when not allocated). */
void irdma_qmem_free(struct irdma_ctrl *c, struct irdma_qmem *m);

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

/**
 * Allocate and map the CQP host context and SQ, then create the CQP through CCQPHIGH/LOW.
 * @return 0, -ENOMEM, -ETIMEDOUT, or -EIO when the device refuses it (logged with the
 *         CQPERRCODES major and minor codes).
 */
int irdma_cqp_create(struct irdma_ctrl *c);

/** Destroy the CQP (register handshake) and free its memory. Safe when not created. */
void irdma_cqp_destroy(struct irdma_ctrl *c);

/**
 * Start a CQP WQE for opcode @p op: zero it and set the opcode.
 */
void irdma_cqp_wqe_init(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op);

/**
 * Submit one WQE and wait for its completion: registers (CQPTAIL) before the CCQ exists,
 * the CCQ after. Serialised with other submitters.
 * @param cmpl filled with the completion codes when not NULL.
 * @return 0, -ETIMEDOUT (the CQP is then marked hung), -EIO (the CQP is hung), -ENODEV (no
 *         CQP), -EPROTO (completion for another WQE), or the errno mapped from a major error
 *         code by irdma_cqp_errno() (the failure is logged with opcode and codes).
 */
int irdma_cqp_exec(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w,
		   struct irdma_cqp_cmpl *cmpl);

/** How a CQP command completes. */
enum irdma_cqp_wait {
	IRDMA_CQP_WAIT_REGS,		/**< CQPTAIL (before the CCQ, and the CCQ's destroy) */
	IRDMA_CQP_WAIT_CCQ,		/**< a CCQ CQE */
	IRDMA_CQP_WAIT_CCQ_CREATE,	/**< a CCQ CQE, or CQP_OP_ERR when the CCQ is refused */
};

/**
 * irdma_cqp_exec() with an explicit completion mode (the CCQ's own create and destroy).
 * @return as irdma_cqp_exec().
 */
int irdma_cqp_exec_mode(struct irdma_ctrl *c, const struct irdma_cqp_wqe *w,
			enum irdma_cqp_wait mode, struct irdma_cqp_cmpl *cmpl);

/**
 * Create the CCQ (CQ 0, overflow-checked, reporting to CEQ0); its own CREATE_CQ completes
 * on it.
 * @return 0 or a negative errno; nothing stays allocated on failure.
 */
int irdma_ccq_create(struct irdma_ctrl *c);

/** Destroy the CCQ (completion through the registers) and free it. Safe when not created. */
void irdma_ccq_destroy(struct irdma_ctrl *c);

/**
 * Map a CQP major / minor error pair to a negative errno: 0 for success, -EFAULT for the
 * object / context cache errors (an HMC address the device could not use), -EBUSY for
 * IRDMA_CQP_MIN_BUSY (an object in use: DEALLOC_STAG of a region with a window bound), -EIO
 * otherwise.
 * Silicon's minor codes are not public beyond the one the kernel interprets (BUSY); the
 * others are only logged.
 */
int irdma_cqp_errno(uint16_t major, uint16_t minor);

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

/* ---- the AEQ and asynchronous events (irdma_event.c) ---- */

/** One AEQE, decoded (gen2 layout). */
struct irdma_aeqe_info {
	uint64_t compctx;	/**< completion context: the QP's, or the CQ pointer >> 1 */
	uint32_t id;		/**< QP or CQ id */
	uint16_t ae;		/**< AE code (enum irdma_ae_code) */
	uint8_t src;		/**< AE source (enum irdma_ae_source) */
	uint16_t wqe_idx;	/**< WQE index the AE concerns */
	uint64_t seq;		/**< AEQ entries consumed before this one (irdma_ctrl_eq.consumed) */
};

/**
 * Read up to @p n new AEQEs into @p out and return them to the device (AEQALLOC).
 * @return entries read (0 when none), or -ENODEV without an AEQ.
 */
int irdma_aeq_read(struct irdma_ctrl *c, struct irdma_aeqe_info *out, unsigned int n);

struct irdma_qp;

/**
 * Mark the AEs the device has written so far about QP @p q as stale: the QP starts a new
 * incarnation (RESET, or RESET -> INIT), and an AE read later that the device wrote before
 * now is about work that no longer exists (irdma_event.c drops it).
 */
void irdma_aeq_mark(struct irdma_ctrl *c, struct irdma_qp *q);

/**
 * Ask the backend for the eventfds of vectors 0 .. nb_ceqs - 1, make them non-blocking,
 * route the causes to them (PFINT_AEQCTL, PFINT_FW_CTL, PFINT_OICR_CTL and GLINT_CEQCTL(0)
 * to vector 0, GLINT_CEQCTL(k) to vector k; ITR index 3, CAUSE_ENA) and enable them
 * (GLINT_DYN_CTL).
 * @return the fd to wait on (vector 0's eventfd, or with several vectors an epoll fd over
 *         all of them), or -ENODEV (no AEQ) / the backend's -errno (-ENOTSUP: none).
 */
int irdma_aeq_intr_enable(struct irdma_ctrl *c);

/** irdma_intr_collect() when the device is polled only: every cause is looked at. */
#define IRDMA_INTR_ALL			UINT32_MAX

/**
 * Drain the vectors' eventfds (one read() each, no register access).
 * @return the vectors that fired since the last call (bit k: vector k; vector 0 also on the
 *         first call after irdma_aeq_intr_enable()), IRDMA_INTR_ALL when polled only.
 */
uint32_t irdma_intr_collect(struct irdma_ctrl *c);

/** Re-enable (GLINT_DYN_CTL.INTENA) the vectors of @p fired; no-op when polled only. */
void irdma_intr_rearm(struct irdma_ctrl *c, uint32_t fired);

/** Unroute and disable every vector irdma_aeq_intr_enable() set up (no-op when polled only). */
void irdma_aeq_intr_disable(struct irdma_ctrl *c);

struct rdmadev;

/**
 * Process every pending AEQE (at most one ring's worth) into rdmadev events for @p dev,
 * moving failed QPs to ERR / SQE first (the caller re-arms the vectors: irdma_intr_rearm()).
 * @return AEQEs consumed.
 */
int irdma_event_process(struct irdma_ctrl *c, struct rdmadev *dev);

/**
 * Read every CEQ: for each CEQE, acknowledge the CQ (CQACK) and report its completion event
 * (rdmadev_cq_comp_event). The CCQ's own CEQEs and cleaned entries are skipped.
 * @return CEQEs consumed.
 */
int irdma_ceq_process(struct irdma_ctrl *c);

struct irdma_cq;

/** Zero the CEQEs of CQ @p q not read yet (before its DESTROY_CQ: irdma_sc_cleanup_ceqes). */
void irdma_ceq_clean(struct irdma_ctrl *c, const struct irdma_cq *q);

/** rdmadev cq_events_check: events need a device that runs on its own and an interrupt. */
int irdma_cq_events_check(struct irdma_ctrl *c);

/* ---- QPs (irdma_qp.c) ---- */

struct rdmadev_qp;
struct rdmadev_qp_init_attr;
struct rdmadev_qp_attr;

/** One work queue ring of a QP (SQ or RQ), shaped for the data path. */
struct irdma_qp_ring {
	uint8_t *base;		/**< first quantum (CPU address) */
	uint32_t quanta;	/**< ring size in 32-byte quanta (power of two) */
	uint32_t head;		/**< next quantum SW writes */
	uint32_t tail;		/**< oldest quantum not completed */
	uint8_t polarity;	/**< valid bit of the current pass (starts 0, flips at 0) */
	uint8_t shift;		/**< WQE size shift: 32 << shift bytes */
};

struct irdma_sq_wrtrk;
struct irdma_srq;
struct irdma_qp;
struct irdma_cq;

/**
 * A queue (SQ or RQ) of a QP in ERROR whose WRs the driver completes with WR_FLUSH_ERR
 * itself: linked on its CQ's flush list (irdma_cq.flush_list) while queued.
 */
struct irdma_flush_link {
	struct irdma_flush_link *next;	/**< next queue on the CQ's list */
	struct irdma_qp *qp;		/**< the QP */
	uint8_t sq;			/**< 1: its SQ, 0: its RQ */
	uint8_t queued;			/**< on the list now */
};

/** A QP of the PMD: hot data-path fields first, then control-path state. */
struct irdma_qp {
	struct irdma_qp_ring sq;	/**< send queue */
	struct irdma_qp_ring rq;	/**< receive queue */
	/** SQ WR tracking, sq.quanta entries indexed by a WQE's first quantum (irdma_uk.h). */
	struct irdma_sq_wrtrk *sq_wrtrk;
	/** RQ wr_ids, one per RQ WQE (index = RQ quantum >> rq.shift). */
	uint64_t *rq_wrid;
	struct irdma_hw *hw;		/**< device: the doorbell goes through irdma_wr32() */
	uint32_t db_off;		/**< BAR0 offset of the SQ doorbell (WQEALLOC) */
	uint8_t gen;			/**< engine generation (2 or 3): fragment / inline layout */
	uint8_t sq_flushed;		/**< data path: the SQ saw a flush CQE (replay state) */
	uint8_t rq_flushed;		/**< data path: the RQ saw a flush CQE (replay state) */
	uint8_t rsvd0;			/**< zero */
	void *shadow;			/**< QP shadow area (struct irdma_qp_shadow) */
	uint32_t qp_id;			/**< QPN (restrack ID) */
	uint8_t qp_type;		/**< enum irdma_qp_type */
	uint8_t hw_state;		/**< enum irdma_qp_hw_state last accepted */
	uint8_t sq_sig_all;		/**< 1: every send WR is signaled (init attr sq_sig_all) */
	uint8_t pad;			/**< unused */
	uint8_t max_send_sge;		/**< SGEs a send WR may carry (init attr cap) */
	uint8_t max_recv_sge;		/**< SGEs a receive WR may carry (init attr cap) */
	uint8_t max_inline;		/**< inline bytes a send WR may carry (init attr cap) */
	uint8_t rsvd1;			/**< zero */
	uint32_t max_send_wr;		/**< SQ WRs reported */
	uint32_t max_recv_wr;		/**< RQ WRs reported */
	uint32_t send_cq_id;		/**< TX CQ id */
	uint32_t recv_cq_id;		/**< RX CQ id */
	uint32_t pd_id;			/**< PD id */
	struct irdma_qmem ring;		/**< SQ pages | RQ pages | shadow area */
	struct irdma_dma_mem hctx;	/**< Q2 (+0) | RoCE host context (+IRDMA_Q2_BUF_SIZE) */
	uint32_t arp_idx;		/**< ARP entry the context names (0: the reserved default) */
	uint8_t stats_use;		/**< bound to a statistics instance (USESTATSINSTANCE) */
	uint32_t stats_idx;		/**< that instance (QPC_STAT_INDEX) */
	/** What CREATE_QP is told about @c ring: IOVAs, or a level-1 run (VQ). */
	struct pbl_qp pbl;
	/** Gen3: the SRQ the QP receives from (no RQ of its own), or NULL. */
	struct irdma_srq *srq;
	/**
	 * Send templates: this QP's generation (irdma_uk_tmpl_gen_next(), set at create), which
	 * every template of it records; a template of an earlier QP at the same address and
	 * with the same number is refused.
	 */
	uint32_t tmpl_gen;
	/** The control path (window bookkeeping of BIND_MW, LOCAL_INV), NULL outside a device. */
	struct irdma_ctrl *ctrl;
	/** Send and receive CQ (driver flush completions, irdma_uk_flush_queue()), or NULL. */
	struct irdma_cq *scq, *rcq;
	struct irdma_flush_link sq_fl;	/**< the SQ on scq's flush list */
	struct irdma_flush_link rq_fl;	/**< the RQ on rcq's flush list */
	/**
	 * AEs with a sequence number (irdma_aeqe_info.seq) below this are about an earlier
	 * incarnation of the QP (before its last RESET or RESET -> INIT) and are dropped
	 * (atomic; irdma_aeq_mark()).
	 */
	uint64_t ae_mark;
};

/**
 * The hardware state of @p q (enum irdma_qp_hw_state). The control path changes it under the
 * QP's lock while the data path reads it without one: relaxed atomics, plain moves on x86.
 */
static inline uint8_t
irdma_qp_hw_state(const struct irdma_qp *q)
{
	return __atomic_load_n(&q->hw_state, __ATOMIC_RELAXED);
}

/** Set the hardware state of @p q (see irdma_qp_hw_state()). */
static inline void
irdma_qp_hw_state_set(struct irdma_qp *q, uint8_t s)
{
	__atomic_store_n(&q->hw_state, s, __ATOMIC_RELAXED);
}

/**
 * Create a RoCE RC or UD QP for rdmadev QP @p qp: size the SQ / RQ (gen2 rules), allocate
 * the ring pages (level 0 when IOVA-contiguous, else a level-1 PBL with VQ, the kernel's
 * irdma_handle_q_mem; level 1 always with c->ring_pbl) and the Q2 + host-context buffer,
 * build the context and issue CREATE_QP. Raises qp->init.cap to what the rings hold; sets
 * qp->obj.fp.drv.
 * @return 0, -EINVAL (sizes beyond the device), -ENOTSUP (SRQ), -ENOMEM, or the CQP's
 *         -errno; nothing stays allocated on failure.
 */
int irdma_qp_create(struct irdma_ctrl *c, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_init_attr *attr);

/**
 * Apply a modify rdmadev validated: update the context with the attributes in @p mask and
 * move the HW state (INIT -> IDLE, RTR, RTS, SQD; ERR and RESET through SQD (from RTS),
 * ERROR and FLUSH_WQES of SQ and RQ).
 * @return 0 or the CQP's -errno (the context is restored; the HW state is the last one the
 *         device accepted).
 */
int irdma_qp_modify(struct irdma_ctrl *c, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_attr *attr, uint32_t mask);

/**
 * Refresh what the device owns in @p attr (rdmadev filled it from its records): ERR once
 * the device moved the QP to ERROR (a fatal AE; not in RESET), sq_draining while in SQD
 * with WQEs in flight, and the SQ / RQ depths the rings hold. Called under the QP's lock.
 * @return 0.
 */
int irdma_qp_query(struct irdma_ctrl *c, struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr);

/**
 * DESTROY_QP, then free the QP's memory.
 * @return 0, or the CQP's -errno (the QP is left intact).
 */
int irdma_qp_destroy(struct irdma_ctrl *c, struct rdmadev_qp *qp);

/**
 * Bind (@p bind) a QP to statistics instance @p inst, or unbind it (back to the function's
 * default instance): QPC_USESTATSINSTANCE and QPC_STAT_INDEX in the context, kept across
 * RESET, applied with MODIFY_QP to the QP's current HW state (before the first INIT they
 * reach the device with the next modify). The caller holds the rdmadev QP lock.
 * @return 0, or the CQP's -errno (the context and the binding are restored).
 */
int irdma_qp_stats_bind(struct irdma_ctrl *c, struct rdmadev_qp *qp, bool bind, uint32_t inst);

/* ---- SRQs (gen3; irdma_srq.c, the post path irdma_uk_srq.c) ---- */

struct rdmadev_srq;
struct rdmadev_srq_attr;

/**
 * A shared receive queue of the PMD: data-path fields first, then control-path state.
 *
 * Ring of @c size WQEs of 32 << shift bytes (doc/hardware.md §2: an RQ WQE with qword 2 = wr_id);
 * after each burst the poster stores the index after its last WQE in shadow qword 0 (the
 * SRQ's doorbell in host memory). Room: @c posted counts WQEs posted, @c done those whose
 * completion was polled (any CQ of any QP using the SRQ); at most max_wr are outstanding.
 * One lcore posts; pollers on other lcores only add to @c done.
 */
struct irdma_srq {
	uint8_t *base;			/**< first quantum of the ring */
	void *shadow;			/**< shadow area (struct irdma_srq_shadow) */
	uint32_t size;			/**< ring size in WQEs (power of two) */
	uint32_t head;			/**< next WQE the poster writes */
	uint32_t posted;		/**< WQEs posted since create (poster) */
	uint32_t done;			/**< completions polled since create (atomic) */
	uint32_t max_wr;		/**< WQEs outstanding at most */
	uint8_t polarity;		/**< valid bit of the current pass (starts 0, flips at 0) */
	uint8_t shift;			/**< WQE size shift */
	uint8_t max_sge;		/**< SGEs a receive WR may carry */
	uint8_t gen;			/**< engine generation: the NULL-pad count rule */
	struct irdma_hw *hw;		/**< device (logs) */
	uint32_t srq_id;		/**< SRQ id (restrack ID, HMC object 2 index) */
	/* Control path. */
	uint32_t pd_id;			/**< PD id */
	uint32_t limit;			/**< armed limit, 0 when not armed (atomic) */
	struct irdma_qmem ring;		/**< ring pages */
	struct irdma_dma_mem shadow_mem;	/**< shadow area */
	struct pbl_cq pbl;		/**< what CREATE_SRQ is told about @c ring */
};

/**
 * Create rdmadev SRQ @p srq (gen3): ring of attr->max_wr WQEs (the RQ sizing rules, §2),
 * shadow area, CREATE_SRQ with the limit armed when attr->srq_limit is not 0. Raises
 * srq->attr.max_wr / max_sge to what the ring holds; sets srq->obj.fp.drv.
 * @return 0, -ENOTSUP (gen2), -EINVAL (beyond the SRQ limits), -ENOMEM, or the CQP's
 *         -errno; nothing stays allocated on failure.
 */
int irdma_srq_create(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr);

/**
 * MODIFY_SRQ: arm the limit at attr->srq_limit (0 disarms) with RDMADEV_SRQ_LIMIT.
 * @return 0, -ENOTSUP (RDMADEV_SRQ_MAX_WR: no resize), or the CQP's -errno.
 */
int irdma_srq_modify(struct irdma_ctrl *c, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr, uint32_t mask);

/** Fill what the driver owns of @p attr: the armed limit (0 once the event fired). */
void irdma_srq_query(struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr);

/**
 * DESTROY_SRQ, then free the SRQ's memory (rdmadev refuses while a QP uses it).
 * @return 0, or the CQP's -errno (the SRQ stays usable).
 */
int irdma_srq_destroy(struct irdma_ctrl *c, struct rdmadev_srq *srq);

/**
 * The SRQ AEs (IRDMA_AE_SRQ_LIMIT, IRDMA_AE_SRQ_CATASTROPHIC_ERROR): the SRQ of the AE's id
 * whose context matches gets RDMADEV_EVENT_SRQ_LIMIT (its limit disarmed) or
 * RDMADEV_EVENT_SRQ_ERR. @return true when @p a is an SRQ AE (handled or dropped).
 */
bool irdma_event_srq(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a);

/**
 * Note that QP @p qp_id, which uses an SRQ, went to ERR: its RDMADEV_EVENT_QP_LAST_WQE_REACHED
 * is reported by the next irdma_event_process() (not from inside the modify, which holds the
 * QP's lock while callbacks may take it).
 */
void irdma_srq_last_wqe_note(struct irdma_ctrl *c, uint32_t qp_id);

/** Report the LAST_WQE_REACHED events noted since the last call (irdma_event_process). */
void irdma_srq_last_wqe_report(struct irdma_ctrl *c, struct rdmadev *dev);

/* ---- CQs (irdma_cq.c; the poll path is irdma_uk.c) ---- */

struct rdmadev_cq;
struct rdmadev_cq_attr;

/** One CQE ring as the poll path walks it. */
struct irdma_cq_ring {
	uint8_t *base;		/**< first CQE (CPU address); NULL when the ring is not in use */
	uint32_t size;		/**< entries (ring slots) */
	uint32_t head;		/**< next CQE SW reads */
	uint8_t polarity;	/**< valid bit expected on this pass (IRDMA_CQ_POLARITY_INIT first) */
};

/**
 * A CQ of the PMD: hot poll-path fields first, then control-path state.
 *
 * Resize (irdma_cq_resize) swaps in a new ring with MODIFY_CQ: the device writes only the new
 * ring afterwards, and the CQEs it wrote to the old ring before the swap are still to be
 * polled. The old ring moves to @c old; poll drains @c old first and sets old.base to NULL
 * when it reads an entry whose valid bit does not match (the control path frees the old
 * memory at the next resize or at destroy). Resize and poll are never concurrent (a CQ is
 * used by one lcore at a time, as DPDK queues are).
 */
struct irdma_cq {
	struct irdma_cq_ring cur;	/**< the ring the device writes */
	struct irdma_cq_ring old;	/**< a ring left by a resize, still to drain (base NULL: none) */
	void *shadow;			/**< shadow area (struct irdma_cq_shadow): head, arm word */
	uint64_t *comp_cntr;		/**< completion counter value to add to, or NULL */
	struct irdma_hw *hw;		/**< device: CQ arm doorbell */
	/** Model in inline mode: let it run once per poll (hw->be->service), else NULL. */
	void (*service)(struct irdma_hw *hw);
	uint32_t id;			/**< CQ id (restrack ID) */
	uint32_t arm_seq;		/**< data path: arm sequence number last written */
	/** Non-zero while flush_list holds queues: poll completes them when the ring is empty. */
	uint32_t sw_flush;
	pthread_mutex_t flush_lock;	/**< guards flush_list (error path only) */
	struct irdma_flush_link *flush_list;	/**< queues to complete with WR_FLUSH_ERR */
	/* Control path. */
	struct irdma_qmem ring;		/**< memory of cur */
	struct irdma_qmem old_ring;	/**< memory of old (freed at the next resize / destroy) */
	struct irdma_dma_mem shadow_mem;	/**< memory of shadow */
	uint32_t ceq_id;		/**< its CEQ: the completion vector it was created on */
	struct rdmadev_cq *rcq;		/**< the rdmadev CQ (its completion events) */
	struct pbl_cq pbl;		/**< what the device is told about @c ring */
	struct pbl_cq old_pbl;		/**< ... and about @c old_ring */
};

/**
 * Create rdmadev CQ @p cq: a ring of attr->cqe + 1 entries (at least IRDMA_MIN_USER_CQ_RING;
 * level 0 when IOVA-contiguous, else a level-1 PBL with VIRTMAP; level 1 always with
 * c->ring_pbl), its shadow area and CREATE_CQ on the CEQ of attr->comp_vector. Sets cq->cqe
 * and cq->obj.fp.drv.
 * @return 0, -ENOMEM, or the CQP's -errno; nothing stays allocated on failure.
 */
int irdma_cq_create(struct irdma_ctrl *c, struct rdmadev_cq *cq,
		    const struct rdmadev_cq_attr *attr);

/**
 * Resize CQ @p cq to hold @p cqe entries (a ring of cqe + 1, at least
 * IRDMA_MIN_USER_CQ_RING) with MODIFY_CQ, following the struct irdma_cq contract: the new
 * ring becomes cur, the old one old (old.base NULL at once when nothing is left to poll in
 * it). Sets cq->cqe.
 * @return 0, -EINVAL (beyond IRDMA_MAX_CQ_SIZE, or fewer entries than CQEs not yet polled),
 *         -EBUSY (the ring of the last resize still holds unpolled CQEs), -ENOMEM, or the
 *         CQP's -errno (the CQ keeps its ring).
 */
int irdma_cq_resize(struct irdma_ctrl *c, struct rdmadev_cq *cq, uint32_t cqe);

/**
 * DESTROY_CQ, then free the CQ's memory.
 * @return 0, or the CQP's -errno (the CQ stays usable).
 */
int irdma_cq_destroy(struct irdma_ctrl *c, struct rdmadev_cq *cq);

/* ---- PBLE pool (irdma_ctrl.c) and MRs (irdma_mr.c) ---- */

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

/**
 * Create c->umem, the table of application memory this device may DMA (pbl_umem_create()
 * with irdma_hw_dma_map() / irdma_hw_dma_unmap() as the hook).
 * @return 0 or pbl_umem_create()'s -errno.
 */
int irdma_umem_create(struct irdma_ctrl *c);

/** Destroy c->umem, unmapping what is still mapped (logged). Safe when NULL. */
void irdma_umem_destroy(struct irdma_ctrl *c);

struct rdmadev_mr;
struct rdmadev_mr_attr;

/**
 * Register rdmadev MR @p mr at its claimed STag index. USER: resolve the range (EAL memory
 * from EAL's tables; any other process memory is DMA-mapped through c->umem,
 * pbl_umem_reg(), at IOVA = VA), build a level 0/1/2 PBL at
 * the best page size and issue REG_MR (VA-based). FAST_REG: a level-1 run of max_pages
 * PBLEs and ALLOC_STAG. Sets mr->lkey = mr->rkey = index << 8 | key and mr->obj.fp.drv.
 * @return 0, -ENOTSUP (DMA MRs, atomics on gen2), -EINVAL (range not resolvable, IOVA and address
 *         not congruent modulo 4 KB), -ENOMEM, or the CQP's -errno; nothing leaks.
 */
int irdma_mr_reg(struct irdma_ctrl *c, struct rdmadev_mr *mr,
		 const struct rdmadev_mr_attr *attr);

/**
 * DEALLOC_STAG, then free the MR's PBLEs and undo its DMA registration.
 * @return 0, or the CQP's -errno (the MR stays registered).
 */
int irdma_mr_dereg(struct irdma_ctrl *c, struct rdmadev_mr *mr);

struct rdmadev_mw;

/**
 * Allocate gen3 type-2 window @p mw at its claimed STag index: ALLOC_STAG with MR 0 and
 * MWTYPE 0 in its PD. Sets mw->rkey = index << 8 | key (BIND_MW work requests change it).
 * @return 0, -ENODEV (not up), -ENOTSUP (gen2), -EINVAL (index outside the committed MRs),
 *         or the CQP's -errno.
 */
int irdma_mw_alloc(struct irdma_ctrl *c, struct rdmadev_mw *mw);

/**
 * DEALLOC_STAG (MR 0) of window @p mw.
 * @return 0, or the CQP's -errno (the window stays allocated).
 */
int irdma_mw_free(struct irdma_ctrl *c, struct rdmadev_mw *mw);

/**
 * Window bookkeeping (rdmadev_mw_bound()) for an invalidated key: LOCAL_INV posted, or a
 * SEND with invalidate received (CQE INVSTAG). When @p rkey is the current key of a window
 * of the device, the window is bound to no region any more. Data path, rare: a restrack
 * lookup. Use irdma_mw_note_inv(), which skips devices without windows.
 * @return the STag index of the region the window was bound to, or 0 when this unbound
 *         nothing (index 0 is never a user region: IRDMA_FIRST_USER_MR_IDX).
 */
uint32_t irdma_mw_invalidated(struct irdma_ctrl *c, uint32_t rkey);

/**
 * Window bookkeeping for a LOCAL_INV of key @p rkey that completed in error or was flushed,
 * whose post counted the window as unbound from the region of STag index @p mr_idx
 * (irdma_mw_invalidated()'s return): the device did not invalidate, so the window is bound
 * to that region again, unless the window changed since (another key, or bound again).
 */
void irdma_mw_inv_failed(struct irdma_ctrl *c, uint32_t rkey, uint32_t mr_idx);

/**
 * Window bookkeeping for a BIND_MW that completed in error or was flushed: the window of
 * STag index @p idx is bound to no region (the bind did not happen).
 */
void irdma_mw_bind_failed(struct irdma_ctrl *c, uint32_t idx);

/** irdma_mw_invalidated() when @p c (may be NULL) has windows; 0 when it has none. */
static inline uint32_t
irdma_mw_note_inv(struct irdma_ctrl *c, uint32_t rkey)
{
	if (unlikely(c != NULL && __atomic_load_n(&c->nb_mws, __ATOMIC_RELAXED) != 0))
		return irdma_mw_invalidated(c, rkey);
	return 0;
}

/* ---- ARP table and AHs (irdma_ah.c) ---- */

struct irdma_ah_tab;
struct rdmadev_ah;
struct rdmadev_ah_attr;

/**
 * Create the ARP and AH tables from the committed HMC (ARP and FSIAV counts); after
 * irdma_ctrl_bringup().
 * @return 0, -ENOMEM, or pthread_mutex_init()'s -errno.
 */
int irdma_ah_tab_init(struct irdma_ctrl *c);

/**
 * Delete the ARP entries still in the device (best effort), log leaked references and AHs,
 * free the tables. Safe when not created; before irdma_ctrl_teardown().
 */
void irdma_ah_tab_fini(struct irdma_ctrl *c);

/**
 * Take a reference on the ARP entry of (@p mac, @p gid), adding it with MANAGE_ARP when it
 * is new. Indexes start at 1: 0 is the reserved default entry.
 * @return 0 with *idx set, -ENODEV (not started), -ENOSPC (table full), or the CQP's -errno.
 */
int irdma_arp_get(struct irdma_ctrl *c, const uint8_t mac[6], const uint8_t gid[16],
		  uint32_t *idx);

/**
 * Drop a reference from irdma_arp_get(); the last one deletes the entry with MANAGE_ARP
 * (a refused delete is logged and the entry stays cached). Index 0 is ignored.
 */
void irdma_arp_put(struct irdma_ctrl *c, uint32_t idx);

/**
 * Create rdmadev AH @p ah: an AH id below the committed FSIAV count, an ARP reference for
 * its destination and CREATE_ADDR_HANDLE. Sets ah->ah_id and ah->obj.fp.drv.
 * @return 0, -ENODEV, -EINVAL (flow label beyond 20 bits), -ENOMEM, -ENOSPC, or the CQP's
 *         -errno; nothing leaks.
 */
int irdma_ah_create(struct irdma_ctrl *c, struct rdmadev_ah *ah,
		    const struct rdmadev_ah_attr *av);

/**
 * DESTROY_ADDR_HANDLE, then release the ARP reference and the id.
 * @return 0, or the CQP's -errno (the AH stays usable).
 */
int irdma_ah_destroy(struct irdma_ctrl *c, struct rdmadev_ah *ah);

/* ---- port addresses (irdma_port.c) ---- */

/** A MAC address as the 48-bit number CQP WQEs and contexts hold (first byte highest). */
uint64_t irdma_mac_to_u64(const uint8_t mac[6]);

/** True when @p gid is an IPv4-mapped address (::ffff:a.b.c.d). */
bool irdma_gid_is_v4mapped(const uint8_t gid[16]);

/**
 * Parse the devargs `ip` value of device @p name: IPv4 or IPv6 addresses separated by ';',
 * at most IRDMA_GID_TBL_LEN, no duplicates. IPv4 addresses become IPv4-mapped GIDs.
 * @return 0 with gid[0 .. *n - 1] set, or -EINVAL (logged).
 */
int irdma_port_parse_gids(const char *name, const char *v, uint8_t gid[][16], uint32_t *n);

/**
 * The GID table of a device without `ip=`: a model device (@p model) irdma_model<N> gets
 * ::ffff:10.0.0.<N % 254 + 1> then fe80::<EUI-64 of @p mac>; a VFIO device the link-local
 * address only.
 */
void irdma_port_default_gids(const char *name, bool model, const uint8_t mac[6],
			     uint8_t gid[][16], uint32_t *n);

/**
 * The source GID of address vector @p av: entry av->sgid_index of the table, of the same
 * family (IPv4-mapped or IPv6) as av->dgid.
 * @return 0 with @p sgid set, or -EINVAL (index beyond the table, families differ; logged).
 */
int irdma_port_sgid(const struct irdma_ctrl *c, const struct rdmadev_ah_attr *av,
		    uint8_t sgid[16]);

/* ---- statistics (irdma_stats.c) ---- */

struct irdma_stats_tab;
struct rdmadev_counter;
struct rdmadev_xstat;

/**
 * Create the statistics state (gather buffer, instance bitmap); after irdma_ctrl_bringup().
 * @return 0, -ENOMEM, or the DMA map's -errno.
 */
int irdma_stats_init(struct irdma_ctrl *c);

/** Free the statistics state (instances still held are logged). Safe when not created. */
void irdma_stats_fini(struct irdma_ctrl *c);

/** Statistics instances the driver holds for counters (0 when not started). */
uint32_t irdma_stats_live(const struct irdma_ctrl *c);

/**
 * MANAGE_STATS allocate for rdmadev COUNTER @p cnt; sets cnt->obj.fp.drv.
 * @return 0, -ENODEV (not started), -ENOMEM, -EPROTO (the device returned an instance that
 *         is out of range or already held), or the CQP's -errno.
 */
int irdma_counter_alloc(struct irdma_ctrl *c, struct rdmadev_counter *cnt);

/**
 * MANAGE_STATS free of @p cnt's instance.
 * @return 0, -ENODEV, or the CQP's -errno (the counter stays allocated).
 */
int irdma_counter_free(struct irdma_ctrl *c, struct rdmadev_counter *cnt);

/**
 * Bind (@p bind) or unbind QP @p qp to / from @p cnt's instance (irdma_qp_stats_bind()).
 * @return 0, -ENODEV, or the CQP's -errno.
 */
int irdma_counter_bind(struct irdma_ctrl *c, struct rdmadev_counter *cnt, struct rdmadev_qp *qp,
		       bool bind);

/**
 * GATHER_STATS of @p cnt's instance; fills up to @p n values (hw_counters names).
 * @return the number of counters (irdma_hw_stat_count() of the device's generation),
 *         -ENODEV, or the CQP's -errno.
 */
int irdma_counter_read(struct irdma_ctrl *c, struct rdmadev_counter *cnt,
		       struct rdmadev_xstat *xs, unsigned int n);

/** Statistics instance of @p cnt (UINT32_MAX when it has none; diagnostics and tests). */
uint32_t irdma_counter_instance(const struct rdmadev_counter *cnt);

/**
 * Device counters: GATHER_STATS of the function's default instance, minus the baseline of
 * the last irdma_xstats_reset().
 * @return the number of counters, -ENODEV (not started, @p n > 0), or the CQP's -errno.
 */
int irdma_xstats_get(struct irdma_ctrl *c, struct rdmadev_xstat *xs, unsigned int n);

/**
 * Remember the current device counters as the baseline (0 when not started).
 * @return 0 or the CQP's -errno.
 */
int irdma_xstats_reset(struct irdma_ctrl *c);

/* ---- Ring dumps (irdma_dump.c) ---- */

struct rdmadev;
struct rdmadev_cq;

/**
 * rdmadev op qp_dump_wqe: copy the SQ WQE starting at quantum @p index (modulo sq.quanta),
 * 32 << sq.shift bytes, wrapping at the ring's end.
 * @return Bytes copied (at most @p len), -EINVAL (no SQ ring).
 */
int irdma_dump_wqe(struct rdmadev *dev, struct rdmadev_qp *qp, uint32_t index, uint8_t *buf,
		   uint32_t len);

/**
 * rdmadev op cq_dump_cqe: copy CQE @p index (modulo cur.size) of the ring the device writes.
 * @return Bytes copied (at most @p len), -EINVAL (no ring).
 */
int irdma_dump_cqe(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t index, uint8_t *buf,
		   uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_CTRL_H */
