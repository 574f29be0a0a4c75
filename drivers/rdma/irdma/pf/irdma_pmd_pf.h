/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_PMD_PF_H
#define IRDMA_PMD_PF_H

/**
 * @file
 * The PF layer: what the PMD does in place of Linux's `ice` before the RDMA engine can be
 * used (doc/e810.md). In order: PF id (PF_FUNC_RID), PF software reset and readiness, the
 * AdminQ (irdma_adminq.c), GET_VERSION with the API check, CLEAR_PF_CFG and CLEAR_PXE_MODE,
 * LIST_FUNC_CAPS (RDMA must be enabled; MSI-X count), MANAGE_MAC_READ, SET_EVENT_MASK and
 * GET_LINK_STATUS with link events enabled, then the PE_DONE wait. The PF id becomes the HMC
 * function id of every CQP command that carries one. Receive-queue events (link status
 * changes) become rdmadev port events.
 *
 * Every wait is bounded (IRDMA_CTRL_TIMEOUT_MS or the reset budget below); a step that never
 * finishes is refused with a log line naming it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "irdma_base.h"
#include "irdma_hw.h"
#include "irdma_pf_fmt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct rdmadev;

/** ATQ descriptors. */
#define IRDMA_AQ_ATQ_LEN		16u
/** ARQ descriptors (each with its own buffer). */
#define IRDMA_AQ_ARQ_LEN		16u
/** Bytes of each AdminQ buffer (ice's ICE_AQ_MAX_BUF_LEN). */
#define IRDMA_AQ_BUF_SIZE		IRDMA_AQ_MAX_BUF_LEN
/** PF reset budget in milliseconds (ice_pf_reset: ICE_GLOBAL_CFG_LOCK_TIMEOUT + 2000 ms). */
#define IRDMA_PF_RESET_TIMEOUT_MS	5000u
/** PFINT_OICR causes the PF enables (PFINT_OICR_ENA): resets and the PE's errors. */
#define IRDMA_PF_OICR_CAUSES		(IRDMA_REG_MASK(PFINT_OICR_GRST) | \
					 IRDMA_REG_MASK(PFINT_OICR_HMC_ERR) | \
					 IRDMA_REG_MASK(PFINT_OICR_PE_PUSH) | \
					 IRDMA_REG_MASK(PFINT_OICR_PE_CRITERR))

/** Log type of the AdminQ (`pmd.rdma.irdma.adminq`): every command and result at DEBUG. */
extern int irdma_adminq_logtype;

/** The AdminQ rings and buffers (irdma_adminq.c). */
struct irdma_aq_rings;

/** What the PF layer learnt and holds. */
struct irdma_pf {
	/* AdminQ */
	bool aq_up;			/**< rings programmed */
	bool aq_hung;			/**< a command timed out: only the shutdown is left */
	struct irdma_aq_rings *rings;	/**< rings and buffers (NULL when down) */
	uint32_t atq_ntu;		/**< next ATQ slot to use */
	uint32_t arq_ntc;		/**< next ARQ slot to clean */
	uint64_t aq_cmds;		/**< commands sent */
	uint64_t aq_events;		/**< ARQ events received */
	/* What the device said */
	bool up;			/**< the whole PF bring-up succeeded */
	uint8_t pf_id;			/**< PCI function (PF_FUNC_RID): the HMC function id */
	bool pf_id_valid;		/**< pf_id read */
	uint8_t fw_major;		/**< firmware major */
	uint8_t fw_minor;		/**< firmware minor */
	uint8_t fw_patch;		/**< firmware patch */
	uint32_t fw_build;		/**< firmware build */
	uint8_t api_major;		/**< AdminQ API major */
	uint8_t api_minor;		/**< AdminQ API minor */
	uint8_t api_patch;		/**< AdminQ API patch */
	bool rdma;			/**< RDMA capability present and enabled */
	uint32_t msix;			/**< MSI-X vectors of the function */
	uint32_t msix_first;		/**< first MSI-X vector id */
	uint8_t mac[6];			/**< the port's LAN MAC (MANAGE_MAC_READ) */
	bool mac_valid;			/**< mac read */
	bool link_up;			/**< link status: up */
	uint32_t speed_mbps;		/**< link speed in Mb/s (0: down or unknown) */
	bool lse;			/**< link status events enabled */
	/* VSI and Tx scheduler (irdma_sched.c); one traffic class, TC 0 */
	uint16_t sw_id;			/**< switch id of the physical port (GET_SW_CFG) */
	uint8_t lport;			/**< logical port number (GET_SW_CFG) */
	bool vsi_valid;			/**< ADD_VSI done: vsi_num is ours */
	uint16_t vsi_num;		/**< the PF VSI's hardware number (irdma's vsi_num) */
	bool pe_filter;			/**< UPDATE_VSI set PE_FLTR_EN */
	uint8_t sched_layers;		/**< layers of the Tx scheduler (QUERY_SCHED_RES) */
	uint8_t tc_layer;		/**< layer of the TC 0 node in branch 0 */
	uint8_t entry_layer;		/**< first layer the PF adds nodes to */
	uint8_t vsi_layer;		/**< layer of the VSI node (ice_sched_get_vsi_layer) */
	uint8_t qgrp_layer;		/**< layer of the qgroup node (ice_sched_get_qgrp_layer) */
	uint32_t tc_teid;		/**< TEID of the TC 0 node of the default topology */
	uint32_t branch_parent;		/**< TEID the first added node hangs under */
	/** TEIDs of the nodes added, by layer (0: none): support nodes down to the VSI
	 *  layer, then the qgroup layers under the VSI node. */
	uint32_t sched_teid[IRDMA_AQ_SCHED_MAX_LAYERS];
	uint32_t vsi_teid;		/**< the VSI node's TEID */
	bool qgrp_valid;		/**< the whole branch down to the qgroup node was added */
	uint32_t qgrp_teid;		/**< the qgroup node's TEID: the parent of the RDMA qset */
	uint16_t ws_root;		/**< work scheduler root node id (0: none) */
	uint16_t ws_vsi;		/**< work scheduler VSI node id (0: none) */
	uint16_t ws_leaf;		/**< work scheduler TC 0 leaf id (0: none) */
	bool ws_leaf_on;		/**< the leaf was enabled (WS MODIFY) */
	bool qset_valid;		/**< ADD_RDMA_QSET done */
	uint16_t qs_handle;		/**< the leaf's qs_handle: every QP context's QSHANDLE */
	uint32_t qset_teid;		/**< the qset's TEID (irdma's l2_sched_node_id) */
	/** The VSI context as last sent (8-byte aligned: irdma_set() works in 64-bit words). */
	uint8_t vsi_ctx[IRDMA_AQ_VSI_CTX_LEN] __rte_aligned(8);
};

/**
 * PF bring-up: PF id, reset, AdminQ, version, PF clear, capabilities, MAC, link, PE_DONE.
 * On failure everything done so far is undone. Sets c->hmc_fn_id and the PF's MAC in c->hw.
 * @return 0, -ETIMEDOUT (a step never finished, logged with its name), -ENOTSUP (an AdminQ
 *         API major the PMD does not know, or RDMA not enabled), -EPROTO (a malformed
 *         answer), or the errno mapped from a firmware return code.
 */
int irdma_pf_bringup(struct irdma_ctrl *c);

/** Undo irdma_pf_bringup(): link events off, AdminQ shutdown. Safe when not up. */
void irdma_pf_teardown(struct irdma_ctrl *c);

/**
 * Drain the ARQ; a link status event updates the port state and reports
 * RDMADEV_EVENT_PORT_ACTIVE or RDMADEV_EVENT_PORT_ERR on @p dev when it changed.
 * @return events consumed (0 when none or no AdminQ).
 */
int irdma_pf_events(struct irdma_ctrl *c, struct rdmadev *dev);

/**
 * Detect a device reset the PF did not ask for: with @p oicr_due (the OICR's vector fired,
 * or every event pass when polled) a core, global or EMP reset through PFINT_OICR.GRST (one
 * read; PFINT_OICR clears on read, and its PE error causes are logged); with @p poll_due
 * (irdma_pf_reset_poll_due()) any reset, a function-level one included, through the
 * AdminQ's enable bit and GLGEN_RSTAT.DEVSTATE (two reads). Once: c->fatal set, every QP of @p dev to
 * ERROR with its outstanding WRs flushed (WR_FLUSH_ERR at poll) and new posts refused with
 * -EIO, CQP commands that create refused with -EIO, and one RDMADEV_EVENT_DEVICE_FATAL.
 * Stop and start (or close and open) the device to recover.
 * @return 1 when the reset was detected by this call, else 0.
 */
int irdma_pf_reset_check(struct irdma_ctrl *c, struct rdmadev *dev, bool oicr_due, bool poll_due);

/**
 * Whether the event pass should look for an unannounced reset now: every
 * c->req.reset_poll_ms (devargs reset_poll_ms; 0 never), and at once after
 * irdma_pf_reset_seen() found one. A timer read, no register access.
 */
bool irdma_pf_reset_poll_due(struct irdma_ctrl *c);

/**
 * For a CQP command that got no completion: true when the device was reset (c->fatal, or
 * the AdminQ disabled or GLGEN_RSTAT.DEVSTATE set, which sets c->reset_seen with a log
 * line). The caller then treats the command as after a reset (irdma_cqp.c), and the next
 * event pass reports it (irdma_pf_reset_check()).
 */
bool irdma_pf_reset_seen(struct irdma_ctrl *c);

/**
 * The switch configuration (GET_SW_CFG: sw_id, logical port), the scheduler's layers
 * (QUERY_SCHED_RES), the PF VSI (ADD_VSI, type PF) and its branch of the Tx scheduler under
 * TC 0 of the default topology (GET_DFLT_TOPO, ADD_SCHED_ELEMS: one node per layer from the
 * entry point down to the VSI layer, then down to the qgroup layer under the VSI node).
 * Part of irdma_pf_bringup().
 * @return 0 or the step's -errno (logged with the step).
 */
int irdma_pf_vsi_sched_init(struct irdma_ctrl *c);

/** Undo irdma_pf_vsi_sched_init(): DELETE_SCHED_ELEMS deepest node first, FREE_VSI.
 *  Safe when not (or partly) done. */
void irdma_pf_vsi_sched_fini(struct irdma_ctrl *c);

/**
 * The RDMA qset of TC 0, as irdma_ws_add() and ice_add_rdma_qset() do it: CQP work scheduler
 * root, VSI node and leaf (its qs_handle), ADD_RDMA_QSET under the qgroup node, the leaf
 * enabled (WS MODIFY), then UPDATE_VSI with PE_FLTR_EN. Needs the CQP and the CCQ.
 * On failure the steps done are undone.
 * @return 0 or the step's -errno (logged with the step).
 */
int irdma_pf_qos_init(struct irdma_ctrl *c);

/** Undo irdma_pf_qos_init() in reverse: PE filter off, leaf, qset, VSI node, root. */
void irdma_pf_qos_fini(struct irdma_ctrl *c);

/**
 * Set up the AdminQ rings (ATQ, then ARQ with every buffer given to firmware).
 * @return 0, -ENOMEM / the DMA map's -errno, -EIO (a base register did not read back).
 */
int irdma_aq_init(struct irdma_ctrl *c);

/** Send QUEUE_SHUTDOWN when the queue is alive, then clear the rings' registers and free. */
void irdma_aq_shutdown(struct irdma_ctrl *c);

/**
 * Send one AdminQ command and wait for its completion (ATQH reaching the tail, then DD and
 * CMP in the written-back descriptor).
 * @param desc  the command (flags other than RD are set here); the response on return.
 * @param buf   indirect buffer (NULL for a direct command): sent when RD is set in @p desc,
 *              filled with the response otherwise.
 * @param len   bytes of @p buf (at most IRDMA_AQ_BUF_SIZE).
 * @param what  the step, for logs.
 * @return 0, -ENODEV (no AdminQ), -EIO (the queue hung earlier, or firmware critical),
 *         -ETIMEDOUT, -EPROTO (no DD / CMP, or a response longer than @p len), or the
 *         errno of the firmware return code (irdma_aq_errno(); logged with the command).
 */
int irdma_aq_send(struct irdma_ctrl *c, struct irdma_aq_desc *desc, void *buf, uint16_t len,
		  const char *what);

/**
 * Start AdminQ command @p opcode in @p desc (ice_fill_dflt_direct_cmd_desc): the descriptor
 * zeroed, then the opcode and @p flags (IRDMA_AQ_FLAG_RD when firmware reads the buffer,
 * else 0); the command's own fields follow.
 */
static inline void
irdma_aq_desc_init(struct irdma_aq_desc *desc, uint16_t opcode, uint16_t flags)
{
	memset(desc, 0, sizeof(*desc));
	irdma_set(desc, AQ_OPCODE, opcode);
	irdma_set(desc, AQ_FLAGS, flags);
}

/**
 * Take the next ARQ event, if any (ice_clean_rq_elem): its descriptor into @p desc and up to
 * @p len bytes of its buffer into @p buf (*@p dlen of them); the slot is re-armed and given
 * back to firmware (ARQT).
 * @return 1 when an event was taken, 0 when none is pending (or no AdminQ).
 */
int irdma_aq_event_next(struct irdma_ctrl *c, struct irdma_aq_desc *desc, void *buf,
			uint16_t len, uint16_t *dlen);

/** Map a firmware return code (enum irdma_aq_err) to a negative errno (0 for OK). */
int irdma_aq_errno(uint16_t rc);

/** Name of a firmware return code ("EINVAL", ...; "unknown" out of range). */
const char *irdma_aq_rc_name(uint16_t rc);

/** Mb/s of a link speed bit (enum irdma_aq_link_speed), 0 when none or unknown. */
uint32_t irdma_aq_speed_mbps(uint16_t speed);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_PMD_PF_H */
