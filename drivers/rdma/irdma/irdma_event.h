/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_EVENT_H
#define IRDMA_EVENT_H

/**
 * @file
 * The driver's event queues and interrupts (irdma_event.c): the CEQs (completion events),
 * the AEQ (asynchronous events, decoded into struct irdma_aeqe_info), the MSI-X vectors they
 * are routed to, and the processing of both into rdmadev events. The entry formats are
 * base/irdma_eq.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_base.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;

/** CEQ0 entries. */
#define IRDMA_CTRL_CEQ_SIZE		IRDMA_KERNEL_CEQ_SIZE
/** AEQ entries. */
#define IRDMA_CTRL_AEQ_SIZE		IRDMA_KERNEL_AEQ_SIZE

/** The CEQ the CCQ reports to. */
#define IRDMA_CTRL_CEQ0			0u
/**
 * Most completion vectors (CEQs) the PMD sets up: CEQ k is routed to MSI-X vector k, CEQ 0
 * sharing vector 0 with the AEQ and the AdminQ (the kernel's msix_shared layout).
 */
#define IRDMA_MAX_COMP_VECTORS		16u

/** Interrupt vector of the AEQ (the kernel gives the AEQ the first vector). */
#define IRDMA_CTRL_AEQ_VECTOR		0u

/** An event queue ring (CEQ or AEQ). */
struct irdma_ctrl_eq {
	struct irdma_dma_mem ring;	/**< entries */
	uint32_t size;			/**< entries */
	bool created;			/**< CREATE_*EQ succeeded */
	uint32_t head;			/**< next entry SW reads */
	uint8_t polarity;		/**< valid bit expected on this pass (starts 1) */
	uint64_t consumed;		/**< AEQ: entries read since it was created */
};

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

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_EVENT_H */
