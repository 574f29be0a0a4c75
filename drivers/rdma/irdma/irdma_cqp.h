/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_CQP_H
#define IRDMA_CQP_H

/**
 * @file
 * The driver's control QP (irdma_cqp.c): the CQP and its completion queue (the CCQ), submit
 * and wait (irdma_cqp_exec()), and the mapping of CQP error codes to errnos. The WQE and context
 * formats are base/irdma_cqp_fmt.h.
 *
 * Waits are bounded by time (IRDMA_CTRL_TIMEOUT_MS) and call irdma_hw_service() between
 * polls; a wait that expires returns -ETIMEDOUT and marks the CQP hung.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "irdma_base.h"
#include "irdma_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;

/** CQP SQ entries the driver creates (power of two, 4..2048). */
#define IRDMA_CTRL_CQP_SIZE		128u
/** CCQ entries: one more than the CQP (the kernel's IW_CCQ_SIZE rule). */
#define IRDMA_CTRL_CCQ_SIZE		(IRDMA_CTRL_CQP_SIZE + 1u)

/** A completion queue ring with its shadow area (the CCQ). */
struct irdma_ctrl_cq {
	struct irdma_dma_mem ring;	/**< CQEs */
	struct irdma_dma_mem shadow;	/**< shadow area */
	uint32_t size;			/**< entries */
	uint32_t head;			/**< next CQE SW reads */
	uint32_t polarity;		/**< valid bit expected on this pass */
	bool created;			/**< CREATE_CQ succeeded */
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

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_CQP_H */
