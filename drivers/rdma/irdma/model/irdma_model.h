/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_H
#define IRDMA_MODEL_H

/**
 * @file
 * The device model of the E810 RDMA engine (irdma gen2): a software backend for
 * struct irdma_hw. The driver talks to it exactly as to silicon: 32-bit register
 * accesses (trapped because hw->bar0 is NULL), DMA maps, and the memory it maps. The model
 * reads and writes host memory only through those maps; anything it cannot reach, or any
 * field it does not accept, becomes the error silicon would report (CCQPSTATUS.ERR +
 * CQPERRCODES, CQPTAIL.CQP_OP_ERR, a CCQ CQE with MAJERR / MINERR, or an AEQE).
 *
 * Two execution modes give the same results:
 *  - IRDMA_MODEL_MODE_THREAD: the model runs on its own pthread, busy-polling its work
 *    like the engine's firmware;
 *  - IRDMA_MODEL_MODE_INLINE: nothing runs on its own; the model makes progress inside
 *    the register write that rings a doorbell and inside irdma_hw_service(). Deterministic,
 *    for tests.
 *
 * See doc/model.md for what is modelled, the error codes and the choices made where the
 * public sources are silent.
 */

#include <stdint.h>

#include <rte_lcore.h>

#include "irdma_hw.h"
#include "irdma_hmc_fmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** PCI device id the model reports (E810-C for QSFP). */
#define IRDMA_MODEL_DEVICE_ID		0x1592
/** PCI vendor id the model reports (Intel). */
#define IRDMA_MODEL_VENDOR_ID		0x8086
/** Size of BAR0 the model decodes (E810 PF BAR0: 128 MB). */
#define IRDMA_MODEL_BAR0_LEN		UINT64_C(0x8000000)
/** Number of CQP opcodes (the 6-bit CQP_OPCODE field). */
#define IRDMA_MODEL_CQP_OPCODES		64u

/** How the model executes. */
enum irdma_model_mode {
	IRDMA_MODEL_MODE_INLINE = 0, /**< stepped from doorbells and irdma_hw_service() */
	IRDMA_MODEL_MODE_THREAD = 1, /**< its own busy-polling pthread */
};

/**
 * CQP minor error codes of the model (CQPERRCODES.MINOR, CCQ CQE MINERR). Silicon's minor
 * codes are not public beyond STAG_INVALID (1) and SUSPEND_PND (5); the model uses its own
 * range, above those, so that every refusal says why. The major code is
 * IRDMA_CQP_MAJ_ERROR, or IRDMA_CQP_MAJ_CNTXTCACHE_ERROR when an HMC context address is not
 * backed by the segment / page descriptors.
 */
enum irdma_model_minor {
	IRDMA_MODEL_MIN_BAD_OPCODE	= 0x0100, /**< opcode undefined on this generation */
	IRDMA_MODEL_MIN_NOT_MODELED	= 0x0101, /**< defined opcode the model does not run yet */
	IRDMA_MODEL_MIN_BAD_FIELD	= 0x0102, /**< a field holds a value out of range */
	IRDMA_MODEL_MIN_DMA_FAULT	= 0x0103, /**< an address is not (entirely) DMA-mapped */
	IRDMA_MODEL_MIN_BAD_ALIGN	= 0x0104, /**< an address is misaligned */
	IRDMA_MODEL_MIN_BAD_SIZE	= 0x0105, /**< a queue size is out of range */
	IRDMA_MODEL_MIN_BAD_ID		= 0x0106, /**< an object id / SD index out of range */
	IRDMA_MODEL_MIN_OBJ_EXISTS	= 0x0107, /**< the object already exists */
	IRDMA_MODEL_MIN_NO_OBJ		= 0x0108, /**< the object does not exist */
	IRDMA_MODEL_MIN_NO_FPM		= 0x0109, /**< the HMC layout is not committed */
	IRDMA_MODEL_MIN_FPM_EXCEEDS	= 0x010a, /**< commit above a maximum or the SD budget */
	IRDMA_MODEL_MIN_HMC_UNBACKED	= 0x010b, /**< FPM address with no valid SD / PD */
	IRDMA_MODEL_MIN_BAD_STATE	= 0x010c, /**< not allowed in the current state */
	IRDMA_MODEL_MIN_BAD_PBLE	= 0x010d, /**< PBLE index out of the committed PBLE object */
};

/** What the model advertises for one HMC object type in QUERY_FPM_VAL. */
struct irdma_model_obj_caps {
	uint32_t max_cnt;	/**< maximum count */
	uint32_t size_log2;	/**< log2 of the object size (plain objects) */
	uint32_t block_size;	/**< free-list objects: the parent's block size */
};

/** Configuration of a model device. irdma_model_config_default() fills every field. */
/** Bytes of irdma_model_config's wire and pcap strings (the terminating NUL included). */
#define IRDMA_MODEL_WIRE_MAX	256

struct irdma_model_config {
	uint8_t gen;			/**< 2 (E810, default) or 3 (feature set only) */
	enum irdma_model_mode mode;	/**< THREAD or INLINE */
	uint8_t hmc_fn_id;		/**< HMC function id of this PF (FPM / SDS commands) */
	uint16_t first_pe_sd;		/**< first SD index of the function */
	uint16_t max_pe_sds;		/**< SDs the function may back (2 MB each) */
	uint16_t max_ceqs;		/**< CEQs the function may create */
	uint8_t ht_multiplier;		/**< QUERY_FPM HTMULTIPLIER */
	uint16_t timer_bucket;		/**< QUERY_FPM TIMERBUCKET */
	uint32_t fw_ready_reads;	/**< CPUSTATUS0 reads before firmware reports ready */
	/** Per-object limits, indexed by enum irdma_hmc_obj. */
	struct irdma_model_obj_caps obj[IRDMA_HMC_OBJ_MAX];
	/**
	 * Make all internal EAL memory reachable by the device, as a VFIO device in EAL's
	 * default container is: every segment at create and each one EAL allocates later;
	 * driver maps of EAL memory are then accepted without a table entry. Off: the device
	 * reaches only what irdma_hw_dma_map() mapped (the strict setting the model's own
	 * tests use). The rdmadev driver irdma_model turns it on.
	 */
	bool map_eal;
	/** Port MAC address; all zero: 02:00:00 then the device number + 1 on 24 bits. */
	uint8_t mac[6];
	/**
	 * The wire the port attaches to (model_pkt.h model_port_attach(): "loop",
	 * "loop:<name>", "udp:<ipv4>[:<port>]", "eth:<port>"); empty: "loop".
	 */
	char wire[IRDMA_MODEL_WIRE_MAX];
	/** A pcap file of every frame the port sends and receives; empty: none. */
	char pcap[IRDMA_MODEL_WIRE_MAX];
	/** Faults on the port's sends from the start (parts per million, PRNG seed). */
	uint32_t wire_drop_ppm;
	uint32_t wire_dup_ppm;		/**< frames delivered twice */
	uint32_t wire_reorder_ppm;	/**< frames delivered after the next one */
	uint32_t wire_corrupt_ppm;	/**< frames with one byte flipped */
	uint64_t wire_seed;		/**< the fault PRNG's seed */
	/* ---- the PF outside the RDMA engine (model_pf.c, model_adminq.c) ---- */
	/** PCI function number (PF_FUNC_RID); the HMC function id must equal it (0..7). */
	uint8_t pf_id;
	/** RDMA capability enabled (LIST_FUNC_CAPS cap 0x0051 = 1, GLNVM_ULD.PE_DONE). */
	bool rdma;
	/** MSI-X vectors LIST_FUNC_CAPS reports. */
	uint16_t msix;
	/** AdminQ API version GET_VERSION reports (major, minor). */
	uint8_t fw_api_major;
	/** AdminQ API minor. */
	uint8_t fw_api_minor;
	/**
	 * Reads of PFGEN_CTRL that still show PFSWR after a PF reset was triggered;
	 * IRDMA_MODEL_RESET_NEVER: the reset never completes.
	 */
	uint32_t reset_reads;
	/** Link state at creation (irdma_model_link_set() changes it). */
	bool link_up;
	/** Link speed GET_LINK_STATUS reports while up (one enum irdma_aq_link_speed bit). */
	uint16_t link_speed;
};

/** irdma_model_config::reset_reads: the PF reset never completes. */
#define IRDMA_MODEL_RESET_NEVER		UINT32_MAX

/**
 * Set one wire key of @p cfg from devargs @p key = @p value: wire=<spec>, pcap=<file>,
 * wire_drop / wire_dup / wire_reorder / wire_corrupt=<rate> (a fraction 0..1, "0.1", or
 * a percentage, "10%"), wire_seed=<unsigned>.
 * @return 0; -ENOENT when @p key is none of these; -EINVAL with a log line naming the key
 *         for a bad value.
 */
int irdma_model_config_kv(struct irdma_model_config *cfg, const char *key, const char *value);

/** Hardware-counter style statistics (monotonic). */
struct irdma_model_stats {
	uint64_t reg_reads;		/**< register reads */
	uint64_t reg_writes;		/**< register writes */
	uint64_t reg_unknown_reads;	/**< reads of offsets the model does not decode */
	uint64_t reg_unknown_writes;	/**< writes to offsets the model does not decode */
	uint64_t reg_refused;		/**< accesses at or beyond BAR0 or misaligned */
	uint64_t dma_maps;		/**< DMA maps accepted */
	uint64_t dma_unmaps;		/**< DMA unmaps accepted */
	uint64_t dma_map_refused;	/**< DMA map / unmap requests refused */
	uint64_t dma_faults;		/**< model accesses to unmapped IOVAs (refused) */
	uint64_t cqp_creates;		/**< CQP created */
	uint64_t cqp_create_errors;	/**< CQP create refused */
	uint64_t cqp_destroys;		/**< CQP destroyed */
	uint64_t cqp_doorbells;		/**< CQPDB writes accepted */
	uint64_t cqp_doorbell_refused;	/**< CQPDB writes refused (no CQP, head out of range) */
	uint64_t cqp_wqes;		/**< CQP WQEs fetched */
	uint64_t cqp_wqe_not_valid;	/**< fetch stopped on a WQE with the wrong polarity */
	uint64_t cqp_errors;		/**< CQP WQEs that completed with an error */
	uint64_t cqp_injected;		/**< of which injected by irdma_model_inject_cqp_fault() */
	uint64_t cqp_op_done[IRDMA_MODEL_CQP_OPCODES];	  /**< successful, per opcode */
	uint64_t cqp_op_refused[IRDMA_MODEL_CQP_OPCODES]; /**< failed, per opcode */
	uint64_t ccq_cqes;		/**< CQEs written to the CCQ */
	uint64_t cqe_write_errors;	/**< CQEs that could not be written (AE raised) */
	uint64_t ceqes;			/**< CEQEs written */
	uint64_t aeqes;			/**< AEQEs written */
	uint64_t eq_dropped;		/**< events lost: no queue, or no AEQ credit */
	uint64_t cq_arms;		/**< CQ arm doorbells */
	uint64_t cq_acks;		/**< CQACK writes */
	uint64_t pd_invalidates;	/**< PFHMC_PDINV writes */
	uint64_t interrupts;		/**< interrupts fired (eventfd written or not) */
	uint64_t cq_resizes;		/**< MODIFY_CQ resizes accepted */
	/* Data path. Names follow the kernel irdma hw_stats where one exists (in brackets). */
	uint64_t sq_doorbells;		/**< SQ doorbells (WQEALLOC / DB page + 0) */
	uint64_t sq_doorbell_refused;	/**< SQ doorbells naming no active QP */
	uint64_t sq_wqes;		/**< SQ WQEs fetched (valid bit seen) */
	uint64_t sq_wqe_errors;		/**< SQ WQEs refused (AE raised, QP to error) */
	uint64_t sq_cqes;		/**< SQ completions written */
	uint64_t rq_cqes;		/**< RQ completions written */
	uint64_t flush_cqes;		/**< flush CQEs written */
	uint64_t cq_overflows;		/**< CQEs refused for a full CQ (AE CQ_OPERATION_ERROR) */
	uint64_t qp_errors;		/**< QPs the engine moved to error */
	uint64_t ip4_in_pkts;		/**< IPv4 frames received ["ip4InPkts"] */
	uint64_t ip4_in_octets;		/**< their bytes ["ip4InOctets"] */
	uint64_t ip4_out_pkts;		/**< IPv4 frames sent ["ip4OutPkts"] */
	uint64_t ip4_out_octets;	/**< their bytes ["ip4OutOctets"] */
	uint64_t ip6_in_pkts;		/**< IPv6 frames received ["ip6InPkts"] */
	uint64_t ip6_in_octets;		/**< their bytes ["ip6InOctets"] */
	uint64_t ip6_out_pkts;		/**< IPv6 frames sent ["ip6OutPkts"] */
	uint64_t ip6_out_octets;	/**< their bytes ["ip6OutOctets"] */
	uint64_t udp_in_datagrams;	/**< RoCEv2 datagrams received ["udpInDatagrams"] */
	uint64_t udp_out_datagrams;	/**< RoCEv2 datagrams sent ["udpOutDatagrams"] */
	uint64_t rx_roce_pkts;		/**< RoCE packets that parsed */
	uint64_t rx_bad_frames;		/**< frames the codec refused (malformed, ICRC) */
	uint64_t rx_no_qp;		/**< packets for no QP / a QP not receiving / wrong type */
	uint64_t rx_bad_pkey;		/**< packets with another P_Key (dropped) */
	uint64_t rx_qkey_drops;		/**< UD datagrams with a wrong Q_Key (dropped) */
	uint64_t rx_no_rqe_drops;	/**< UD datagrams with no RQ WQE posted (dropped) */
	uint64_t rx_len_drops;		/**< UD datagrams larger than the RQ WQE (dropped) */
	uint64_t tx_build_errors;	/**< frames the codec could not build */
	uint64_t tx_busy;		/**< sends the wire refused (queue full; RC retries them) */
	uint64_t tx_trains;		/**< frames sent as trains (consecutive packets in one) */
	uint64_t in_rdma_reads;		/**< READ requests executed ["InRdmaReads"] */
	uint64_t in_rdma_writes;	/**< WRITE messages received ["InRdmaWrites"] */
	uint64_t in_rdma_sends;		/**< SEND messages received ["InRdmaSends"] */
	uint64_t out_rdma_reads;	/**< READ requests sent ["OutRdmaReads"] */
	uint64_t out_rdma_writes;	/**< WRITE messages sent ["OutRdmaWrites"] */
	uint64_t out_rdma_sends;	/**< SEND messages sent ["OutRdmaSends"] */
	uint64_t rdma_inv;		/**< STags invalidated (local / remote) ["RdmaInv"] */
	uint64_t acks_sent;		/**< ACK packets sent */
	uint64_t acks_rcvd;		/**< ACK / NAK packets received */
	uint64_t naks_sent;		/**< NAKs sent (PSN sequence, access, request, op) */
	uint64_t naks_rcvd;		/**< NAKs received (RNR NAKs not included) */
	uint64_t seq_naks_rcvd;		/**< PSN sequence error NAKs received */
	uint64_t rnr_naks_sent;		/**< RNR NAKs sent */
	uint64_t rnr_naks_rcvd;		/**< RNR NAKs received */
	uint64_t rnr_events;		/**< requests that found no RQ WQE */
	uint64_t seq_errors;		/**< requests ahead of the expected PSN (out of sequence) */
	uint64_t dup_requests;		/**< duplicate requests (re-ACKed / READ re-executed) */
	uint64_t dup_responses;		/**< duplicate or stale read responses (dropped) */
	uint64_t rc_retransmits;	/**< go-back-N restarts (NAK, timer, lost response) */
	uint64_t rc_timeouts;		/**< retransmit timer expiries */
	uint64_t rc_retx_pkts;		/**< request packets sent again (PSN sent before) */
	uint64_t rc_retry_exceeded;	/**< QPs to error: retry count exhausted (timer) */
	uint64_t rc_rnr_exceeded;	/**< QPs to error: RNR retry count exhausted */
	uint64_t acks_coalesced;	/**< ACKs forced by the coalescing bound (no AckReq) */
	uint64_t in_atomics;		/**< atomic requests executed (gen3) */
	uint64_t out_atomics;		/**< atomic requests sent, retries included (gen3) */
	uint64_t dup_atomics;		/**< duplicate atomics answered from the saved results */
	uint64_t mw_binds;		/**< windows bound by BIND_MW (gen3) */
	/* Scheduling (doc/model.md "Scheduling"). */
	uint64_t engine_rounds;		/**< data-path rounds the engine ran */
	uint64_t qp_visits;		/**< QPs a round worked on (only QPs with work or due timers) */
	uint64_t timer_wakes;		/**< QPs a due timer put back to work */
	/* The PF (model_pf.c, model_adminq.c). */
	uint64_t pf_resets;		/**< PF software resets triggered (PFGEN_CTRL.PFSWR) */
	uint64_t dev_resets;		/**< device resets raised (irdma_model_reset()) */
	uint64_t pe_refused;		/**< RDMA engine use refused: PE not ready */
	uint64_t aq_cmds;		/**< AdminQ commands completed */
	uint64_t aq_errors;		/**< of which answered with a non-zero return code */
	uint64_t aq_refused;		/**< ATQ tail writes not processed (queue not set up) */
	uint64_t aq_events;		/**< ARQ events written */
	uint64_t aq_events_lost;	/**< ARQ events lost (no free slot, bad slot: OVFL) */
	uint64_t vsi_adds;		/**< VSIs added (ADD_VSI) */
	uint64_t vsi_frees;		/**< VSIs freed (FREE_VSI) */
	uint64_t sched_adds;		/**< Tx scheduler nodes added (ADD_SCHED_ELEMS) */
	uint64_t sched_dels;		/**< Tx scheduler nodes deleted (DELETE_SCHED_ELEMS) */
	uint64_t qset_adds;		/**< RDMA qsets added (ADD_RDMA_QSET) */
	uint64_t qset_dels;		/**< RDMA qsets removed (DIS_TXQS) */
	uint64_t ws_adds;		/**< work scheduler nodes added (CQP WORK_SCHED_NODE) */
	uint64_t ws_dels;		/**< work scheduler nodes deleted */
	uint64_t qs_refused;		/**< QP contexts refused: qs_handle names no enabled qset */
};

/** What irdma_model_inject_aq_fault() makes firmware do. */
enum irdma_model_aq_fault {
	IRDMA_MODEL_AQ_FAULT_NONE = 0,		/**< cancel */
	IRDMA_MODEL_AQ_FAULT_NO_ANSWER = 1,	/**< never complete the command (head stays) */
	IRDMA_MODEL_AQ_FAULT_RETVAL = 2,	/**< complete it with a return code */
};

/**
 * Make the next AdminQ command with opcode @p opcode fail (@p kind) instead of running;
 * a RETVAL fault answers @p retval (enum irdma_aq_err, not 0).
 * @return 0, or -EINVAL (not a model device, bad kind, RETVAL with 0).
 */
int irdma_model_inject_aq_fault(struct irdma_hw *hw, uint16_t opcode,
				enum irdma_model_aq_fault kind, uint16_t retval);

/**
 * As irdma_model_inject_aq_fault(), but the first @p nth commands with @p opcode run
 * normally and the one after them fails (a fault in the middle of a sequence).
 * @return 0, or -EINVAL (not a model device, bad kind, RETVAL with 0).
 */
int irdma_model_inject_aq_fault_nth(struct irdma_hw *hw, uint16_t opcode, uint32_t nth,
				    enum irdma_model_aq_fault kind, uint16_t retval);

/**
 * Change the link state (test hook: a cable pulled and plugged back). With link status
 * events enabled and not masked, firmware posts a GET_LINK_STATUS event on the ARQ.
 * @return 0, or -EINVAL (not a model device).
 */
int irdma_model_link_set(struct irdma_hw *hw, bool up);

/** Device reset kinds (GLGEN_RSTAT.RESET_TYPE values). */
enum irdma_model_reset_kind {
	IRDMA_MODEL_RESET_CORER = 1,	/**< core reset */
	IRDMA_MODEL_RESET_GLOBR = 2,	/**< global reset */
	IRDMA_MODEL_RESET_EMPR = 3,	/**< EMP (management firmware) reset */
};

/**
 * Reset the device under the driver, as firmware or another PF would (test hook): the
 * AdminQ registers cleared (their enable bits too), the RDMA engine's objects (CQP, HMC
 * layout, QPs, CQs, CEQs, AEQ) and the PF's VSIs, qsets and work scheduler nodes gone,
 * GLNVM_ULD's done bits cleared and the PE refused. GLGEN_RSTAT reads DEVSTATE 1 for
 * irdma_model_config::reset_reads reads, then 0 with RESET_TYPE @p kind and its counter
 * incremented; the done bits and the PE come back then.
 * @return 0, or -EINVAL (not a model device, bad kind).
 */
int irdma_model_reset(struct irdma_hw *hw, enum irdma_model_reset_kind kind);

/**
 * How often interrupt vector @p vector fired (its eventfd written).
 * @return 0, or -EINVAL (not a model device, vector beyond the model's, @p count NULL).
 */
int irdma_model_irq_count(struct irdma_hw *hw, unsigned int vector, uint64_t *count);

/**
 * Set how many PFGEN_CTRL reads the next PF resets take (irdma_model_config::reset_reads;
 * IRDMA_MODEL_RESET_NEVER: they never complete).
 * @return 0, or -EINVAL (not a model device).
 */
int irdma_model_set_reset_reads(struct irdma_hw *hw, uint32_t reads);

/**
 * Change the LAN MAC the firmware reports in MANAGE_MAC_READ from now on (test hook: an
 * NVM that says something else than the devargs); hw->mac is not touched.
 * @return 0, or -EINVAL (not a model device, not a unicast address).
 */
int irdma_model_set_mac(struct irdma_hw *hw, const uint8_t mac[6]);

/** AdminQ descriptors irdma_model_aq_capture() keeps. */
#define IRDMA_MODEL_AQ_CAPTURE		64u
/** Bytes of each captured RD buffer (irdma_model_aq_capture_buf()). */
#define IRDMA_MODEL_AQ_CAPTURE_BUF	128u

/**
 * Copy the AdminQ descriptors the model fetched from the ATQ, as the driver wrote them,
 * oldest first (at most the last IRDMA_MODEL_AQ_CAPTURE), and with @p reset forget them.
 * @param out  @p n entries of 32 bytes.
 * @return the number copied, or -EINVAL (not a model device).
 */
int irdma_model_aq_capture(struct irdma_hw *hw, uint8_t (*out)[32], unsigned int n, bool reset);

/**
 * The first IRDMA_MODEL_AQ_CAPTURE_BUF bytes of the RD buffer of captured descriptor @p k
 * (oldest first, as irdma_model_aq_capture() orders them; zeros for a descriptor without
 * RD). Call it before irdma_model_aq_capture() with reset.
 * @return 0, -ENOENT (no such descriptor) or -EINVAL.
 */
int irdma_model_aq_capture_buf(struct irdma_hw *hw, unsigned int k,
			       uint8_t out[IRDMA_MODEL_AQ_CAPTURE_BUF]);

/** A CQ as the model keeps it (for tests and diagnostics). */
struct irdma_model_cq_info {
	uint32_t size;		/**< entries */
	uint32_t head;		/**< next entry the device writes */
	uint8_t polarity;	/**< valid bit it writes on this pass */
	uint8_t pbl_level;	/**< 0, 1 or 2 */
	uint8_t ceq_valid;	/**< CEQ binding valid */
	uint16_t ceq_id;	/**< bound CEQ */
	uint64_t ctx;		/**< CQ context (CREATE_CQ qword 1) */
	rte_iova_t pa;		/**< ring IOVA (level 0) */
	uint32_t first_pble;	/**< first PBLE index (levels 1, 2) */
	rte_iova_t shadow_pa;	/**< shadow area IOVA */
};

/**
 * Fill @p cfg with the defaults: gen 2, INLINE mode, the E810-like HMC limits the model
 * advertises (see doc/model.md), firmware ready at the first read.
 */
void irdma_model_config_default(struct irdma_model_config *cfg);

/**
 * Create a model device and fill @p hw for it: bar0 = NULL, be = the model backend,
 * name "irdma_model<N>", vendor 0x8086, device IRDMA_MODEL_DEVICE_ID, gen, BAR0 length.
 * In THREAD mode the model's pthread is running when this returns.
 * @param cfg configuration, or NULL for the defaults.
 * @param hw  filled on success.
 * @return 0, -EINVAL for a bad configuration, -ENOMEM, or -errno of pthread_create.
 */
int irdma_model_create(const struct irdma_model_config *cfg, struct irdma_hw *hw);

/**
 * Destroy a model device created by irdma_model_create() (also reachable as
 * hw->be->close). Stops the thread, frees the model's state; host memory is not touched.
 * Safe on a zeroed or already destroyed @p hw.
 */
void irdma_model_destroy(struct irdma_hw *hw);

/**
 * Make the next @p count CQP commands with opcode @p opcode fail with @p major / @p minor
 * without executing them (fault injection). count 0 cancels.
 * @return 0, or -EINVAL (not a model device, opcode out of range, major 0 with count > 0).
 */
int irdma_model_inject_cqp_fault(struct irdma_hw *hw, uint8_t opcode, uint32_t count,
				 uint16_t major, uint16_t minor);

/**
 * As irdma_model_inject_cqp_fault() with count 1, but the first @p skip commands of
 * @p opcode run normally: the one after them fails (a fault on the n-th work scheduler op).
 * @return 0 or -EINVAL.
 */
int irdma_model_inject_cqp_fault_after(struct irdma_hw *hw, uint8_t opcode, uint32_t skip,
				       uint16_t major, uint16_t minor);

/**
 * Post an AEQE as the engine would for an asynchronous error (test hook: the data path that
 * raises most AEs is not modelled yet). The completion context is the named object's; a QP
 * error AE moves the QP to ERROR (not for a UD QP's send queue); see model_irq.c.
 * @param ae_code AE code (enum irdma_ae_code, 12 bits).
 * @param source  AE source (enum irdma_ae_source, 4 bits).
 * @param id      QP or CQ id (19 bits; ignored for function / adapter catastrophic AEs).
 * @return 0, -EINVAL (not a model device, a value too wide), -ENOSPC (no AEQ, or no AEQ
 *         credit: the event was dropped and counted in eq_dropped).
 */
int irdma_model_inject_ae(struct irdma_hw *hw, uint16_t ae_code, uint8_t source, uint32_t id);

/** Copy the model's counters. @return 0, or -EINVAL if @p hw is not a model device. */
int irdma_model_stats_get(struct irdma_hw *hw, struct irdma_model_stats *stats);

/**
 * Whether the model's IOMMU view holds [iova, iova + len): what the engine could reach
 * there now (maps the driver made; EAL memory reached through map_eal without a map is not
 * in the view and answers 0). For tests.
 * @return 1 (every byte mapped), 0 (some byte is not), or -EINVAL (not a model device,
 *         len 0, a range that wraps).
 */
int irdma_model_dma_mapped(struct irdma_hw *hw, rte_iova_t iova, size_t len);

/**
 * Resolve an HMC object the way the engine does: FPM address from the committed layout,
 * then SD, then (paged) the PD entry read through DMA.
 * @param obj   object type.
 * @param index object index (< committed count).
 * @param iova  IOVA of the object's first byte.
 * @return 0, or a positive enum irdma_model_minor code, or -EINVAL for a bad @p hw.
 */
int irdma_model_hmc_lookup(struct irdma_hw *hw, enum irdma_hmc_obj obj, uint32_t index,
			   rte_iova_t *iova);

/**
 * Resolve page @p page of a queue or region described by PBLEs: level 1 (a run starting at
 * @p first) or level 2 (@p first is the root run; roots hold leaf PBLE indices).
 * @return 0 with *iova set, a positive enum irdma_model_minor code, or -EINVAL.
 */
int irdma_model_pble_lookup(struct irdma_hw *hw, unsigned int level, uint32_t first,
			    uint32_t page, rte_iova_t *iova);

/**
 * Describe CQ @p cq_id as the model keeps it.
 * @return 0, -ENOENT if it does not exist, -EINVAL for a bad @p hw.
 */
int irdma_model_cq_get(struct irdma_hw *hw, uint32_t cq_id, struct irdma_model_cq_info *info);

/** A RoCE QP as the model keeps it (for tests and diagnostics). */
struct irdma_model_qp_info {
	uint8_t type;		/**< enum irdma_qp_type (3 RoCE RC, 4 RoCE UD) */
	uint8_t state;		/**< enum irdma_qp_hw_state */
	uint8_t pbl_level;	/**< 0 (IOVAs), 1 or 2 (PBLE indices, CQP_QP_VQ) */
	uint8_t rq_shift;	/**< RQ WQE size shift (32 << n bytes) */
	rte_iova_t sq_pa;	/**< SQ IOVA (level 0) */
	uint32_t sq_quanta;	/**< SQ size in 32-byte quanta (decoded QPC_SQSIZE) */
	rte_iova_t rq_pa;	/**< RQ IOVA (level 0) */
	uint32_t rq_quanta;	/**< RQ size in 32-byte quanta (decoded QPC_RQSIZE) */
	uint32_t tx_cq;		/**< send CQ id */
	uint32_t rx_cq;		/**< receive CQ id */
	uint32_t pd;		/**< PD id (QPC_PDIDXHI:QPC_PDIDX) */
	uint32_t dest_qpn;	/**< destination QPN */
	uint32_t sq_psn;	/**< next PSN to send (QPC_PSNNXT) */
	uint32_t rq_psn;	/**< expected PSN (QPC_EPSN) */
	uint32_t qkey;		/**< Q_Key */
	uint32_t mss;		/**< send MSS */
	uint32_t arp_idx;	/**< ARP table index */
	uint32_t ord;		/**< ORD size */
	uint32_t ird_enc;	/**< encoded IRD size */
	uint8_t rdok;		/**< remote read allowed */
	uint8_t wrrdrspok;	/**< remote write allowed */
	uint8_t retry;		/**< retransmit threshold */
	uint8_t rnr_retry;	/**< RNR NAK threshold */
	uint64_t compl_ctx;	/**< QP completion context */
	rte_iova_t ctx_pa;	/**< host context IOVA of the last CREATE / MODIFY_QP */
	rte_iova_t shadow_pa;	/**< shadow area IOVA */
	uint32_t modifies;	/**< MODIFY_QP commands accepted */
	uint32_t sq_flushes;	/**< FLUSH_WQES with FLUSHSQ accepted */
	uint32_t rq_flushes;	/**< FLUSH_WQES with FLUSHRQ accepted */
	uint8_t stats_use;	/**< QPC_USESTATSINSTANCE of the last accepted context */
	uint32_t stats_idx;	/**< statistics instance it counts into (default: HMC fn id) */
	uint32_t sq_first_pble;	/**< level 1: first PBLE of the SQ (QPC_SQ_ADDR) */
	uint32_t rq_first_pble;	/**< level 1: first PBLE of the RQ (QPC_RQ_ADDR) */
};

/**
 * Describe QP @p qp_id as the model keeps it (state and the decoded host context).
 * @return 0, -ENOENT if it does not exist, -EINVAL for a bad @p hw or @p info.
 */
int irdma_model_qp_get(struct irdma_hw *hw, uint32_t qp_id, struct irdma_model_qp_info *info);

/** State of an STag in the model's STag table. */
enum irdma_model_stag_state {
	IRDMA_MODEL_STAG_FREE = 0,	/**< not allocated */
	IRDMA_MODEL_STAG_VALID = 1,	/**< registered by REG_MR */
	IRDMA_MODEL_STAG_ALLOCATED = 2,	/**< allocated by ALLOC_STAG, awaiting a fast-register */
};

/** An STag as the model keeps it (for tests and diagnostics). */
struct irdma_model_mr_info {
	uint8_t state;		/**< enum irdma_model_stag_state (never FREE here) */
	uint8_t key;		/**< REG_MR: the 8-bit key (0 after ALLOC_STAG) */
	uint8_t access;		/**< rights (enum irdma_access_bits; 0x20: remote atomics, gen3) */
	uint8_t level;		/**< PBL level (enum irdma_pble_level) */
	uint8_t va_based;	/**< VA-based tagged offsets */
	uint32_t pd;		/**< PD id */
	uint64_t va;		/**< REG_MR: VA (VA-based) or first-byte offset */
	uint64_t len;		/**< bytes */
	rte_iova_t pa;		/**< level 0: IOVA of the first page */
	uint32_t first_pble;	/**< levels 1, 2: first PBLE index (level 2: the root) */
	uint64_t page_size;	/**< bytes (4 KB, 2 MB or 1 GB) */
	uint32_t max_pages;	/**< ALLOC_STAG: page capacity of the PBLE run */
	uint8_t mw;		/**< 1: a gen3 type-2 window (va, len: its range when bound) */
};

/**
 * Describe STag index @p stag_idx as the model keeps it (ALLOC_STAG / REG_MR state; a gen3
 * window: its state, PD, key, rights and range in the parent region).
 * @return 0, -ENOENT when the index is free or out of range, -EINVAL for a bad @p hw.
 */
int irdma_model_mr_get(struct irdma_hw *hw, uint32_t stag_idx,
		       struct irdma_model_mr_info *info);

/**
 * Translate address @p va of the MR named by @p stag (index << 8 | key) to an IOVA the way
 * the engine does on the data path: offset from the registered VA (or, when not VA-based,
 * @p va is the offset), then level 0: PA + offset; level 1: PBLE[first + page]; level 2:
 * PBLE[PBLE[root + page / 512] + page % 512]; plus the offset in the page.
 * @return 0 with *iova set, -ENOENT (no registered MR with that index and key; a gen3
 *         memory window is not an MR here), -ERANGE
 *         (@p va outside the MR), a positive enum irdma_model_minor code (a PBLE the walk
 *         could not read), or -EINVAL for a bad @p hw.
 */
int irdma_model_mr_translate(struct irdma_hw *hw, uint32_t stag, uint64_t va,
			     rte_iova_t *iova);

/**
 * Copy a CQP WQE the engine fetched, exactly as it read the 64 bytes from host memory
 * (the header qword as loaded first), from a ring of the last 64 fetched since the CQP
 * was created (diagnostics for conformance tests; also refused or failed WQEs).
 * @param idx_from_newest 0 for the newest WQE, 1 for the one before, ...
 * @param wqe             filled with the raw (little-endian) WQE bytes.
 * @return the WQE's opcode (header bits 37:32, >= 0), -ENOENT when the ring does not hold
 *         that many WQEs, or -EINVAL for a bad @p hw or @p wqe.
 */
int irdma_model_cqp_capture(struct irdma_hw *hw, unsigned int idx_from_newest,
			    uint8_t wqe[64]);

/**
 * Where the captured WQE @p idx_from_newest (as for irdma_model_cqp_capture()) came from.
 * @param slot filled with its CQP SQ slot (or NULL).
 * @param seq  filled with its fetch number since the CQP was created, from 0 (or NULL).
 * @return 0, -ENOENT, or -EINVAL.
 */
int irdma_model_cqp_capture_pos(struct irdma_hw *hw, unsigned int idx_from_newest,
				uint32_t *slot, uint64_t *seq);

/** An ARP entry as the model keeps it (MANAGE_ARP; for tests and diagnostics). */
struct irdma_model_arp_info {
	uint64_t mac;		/**< destination MAC, 48 bits (first byte most significant) */
	uint32_t reach_max;	/**< reach_max of the add */
	uint32_t ah_refs;	/**< AHs naming this entry (a delete is refused while > 0) */
	uint8_t permanent;	/**< PERMANENT bit of the add */
};

/**
 * Describe ARP entry @p idx as the model keeps it (in the committed HMC ARP object).
 * @return 0, -ENOENT when the index is beyond the committed ARP count or not added,
 *         -EINVAL for a bad @p hw or @p info.
 */
int irdma_model_arp_get(struct irdma_hw *hw, uint32_t idx, struct irdma_model_arp_info *info);

/** An address handle as the model keeps it (CREATE_ADDR_HANDLE; for tests and diagnostics). */
struct irdma_model_ah_info {
	uint64_t mac;		/**< destination MAC, 48 bits */
	uint32_t dest[4];	/**< destination address words 0..3 (IPv4: word 3 only) */
	uint32_t src[4];	/**< source address words 0..3 */
	uint32_t pd;		/**< PD id (PDINDEXHI:PDINDEXLO) */
	uint32_t arp_idx;	/**< ARP index (valid when the AH was created) */
	uint32_t flow_label;	/**< flow label */
	uint16_t vlan_tag;	/**< VLAN tag (priority and id) */
	uint8_t insert_vlan;	/**< INSERTVLANTAG */
	uint8_t tc;		/**< traffic class */
	uint8_t hop_limit;	/**< hop limit / TTL */
	uint8_t ipv4;		/**< IPV4VALID */
	uint8_t loopback;	/**< DOLOOPBACK */
};

/**
 * Describe AH @p idx (FSIAV index) as the model keeps it.
 * @return 0, -ENOENT when the index is beyond the committed FSIAV count or not in use,
 *         -EINVAL for a bad @p hw or @p info.
 */
int irdma_model_ah_get(struct irdma_hw *hw, uint32_t idx, struct irdma_model_ah_info *info);

/**
 * Add @p delta to counter @p counter (enum irdma_hw_stat, base/irdma_stats.h) of statistics
 * instance @p inst, as the engine does when it counts traffic (test injection: values then
 * travel to the driver through GATHER_STATS). The device counter wraps at the counter's width.
 * @return 0, -ENOENT when the instance is not allocated, -EINVAL (bad @p hw, instance or
 *         counter), -ENOMEM.
 */
int irdma_model_stats_add(struct irdma_hw *hw, uint32_t inst, unsigned int counter,
			  uint64_t delta);

/** Faults injected on the frames a model device's port sends (parts per million). */
struct irdma_model_wire_faults {
	uint32_t drop_ppm;	/**< frames dropped */
	uint32_t dup_ppm;	/**< frames delivered twice */
	uint32_t reorder_ppm;	/**< frames held back and delivered after the next one */
	uint32_t corrupt_ppm;	/**< frames with one byte flipped */
	uint64_t seed;		/**< PRNG seed (runs repeat) */
};

/** Counters of a model device's wire (the port's; names as the xstats would show them). */
struct irdma_model_wire_stats {
	uint64_t wire_tx_frames;		/**< frames sent (faults applied after) */
	uint64_t wire_tx_bytes;			/**< bytes sent */
	uint64_t wire_rx_frames;		/**< frames received */
	uint64_t wire_rx_bytes;			/**< bytes received */
	uint64_t wire_dropped;			/**< frames dropped: injected or queue full */
	uint64_t wire_duplicated;		/**< frames duplicated by injection */
	uint64_t wire_reordered;		/**< frames reordered by injection */
	uint64_t wire_corrupted;		/**< frames corrupted by injection */
	uint64_t wire_rx_no_port;		/**< frames for a MAC no port on the switch owns */
	uint64_t wire_rx_filtered;		/**< eth: frames for another MAC */
	uint64_t wire_rx_other;			/**< eth: frames neither RoCEv2 nor ARP */
	uint64_t wire_tx_nombuf;		/**< eth: no mbuf or TX queue full */
	uint64_t wire_arp_requests_rx;		/**< eth: ARP requests received */
	uint64_t wire_arp_replies_tx;		/**< eth: ARP replies sent */
	uint64_t wire_arp_requests_tx;		/**< eth: ARP requests sent */
	uint64_t wire_arp_replies_rx;		/**< eth: ARP replies received */
	uint64_t wire_arp_bad;			/**< eth: malformed ARP frames */
	uint64_t wire_arp_evicted;		/**< eth: ARP entries replaced (table full) */
	uint64_t wire_arp_unresolved;		/**< eth: frames dropped, peer MAC unknown */
	uint64_t wire_arp_failed;		/**< eth: resolutions (ARP or ND) given up */
	uint64_t wire_nd_solicits_rx;		/**< eth: Neighbour Solicitations received */
	uint64_t wire_nd_adverts_tx;		/**< eth: Neighbour Advertisements sent */
	uint64_t wire_nd_solicits_tx;		/**< eth: Neighbour Solicitations sent */
	uint64_t wire_nd_adverts_rx;		/**< eth: Neighbour Advertisements received */
	uint64_t wire_nd_bad;			/**< eth: malformed ND frames */
};

/** Copy the counters of the device's wire. @return 0 or -EINVAL. */
int irdma_model_wire_stats_get(struct irdma_hw *hw, struct irdma_model_wire_stats *st);

/**
 * Tell the device's port its own addresses besides its attach address (the GID table): the
 * Ethernet wire answers ARP (IPv4) and Neighbour Solicitations (IPv6) for them. @return 0 or -EINVAL (bad @p hw, more than 16).
 */
int irdma_model_port_addrs(struct irdma_hw *hw, const uint8_t (*gids)[16], uint32_t n);

/**
 * Set (or with NULL clear) the send faults of the device's port (model_port_set_faults).
 * @return 0, or -EINVAL for a bad @p hw or values.
 */
int irdma_model_wire_faults(struct irdma_hw *hw, const struct irdma_model_wire_faults *f);

/**
 * Change one of the wire's devargs on a running device (rdmadev_param_set() reaches it):
 * pcap=<file> (start a capture, replacing one open) or pcap=off (close it), and
 * wire_drop / wire_dup / wire_reorder / wire_corrupt=<rate> or wire_seed=<unsigned>, values
 * as irdma_model_config_kv() takes them. A fault key sets the port's faults from the device's
 * configuration with that one value changed, so the PRNG starts again from wire_seed; all
 * rates 0 clears the faults (the loop wire's unsealed path comes back).
 * @return 0; -EINVAL (not a model device, NULL, a bad value: a log line names the key);
 *         -ENOENT an unknown key; -ENOTSUP for wire (fixed at probe); -errno of the capture
 *         file's fopen.
 */
int irdma_model_param_set(struct irdma_hw *hw, const char *key, const char *value);

/**
 * The neighbour MAC of @p dst (a GID) asked from @p src on the device's Ethernet wire (ARP,
 * or IPv6 neighbour discovery; model_port_neigh). @return 0 with @p mac set, -EAGAIN while
 * a request is out (each call may send the next one) or the address failed, -ENOTSUP on a
 * wire without neighbours (loop, udp), -EINVAL.
 */
int irdma_model_neigh(struct irdma_hw *hw, const uint8_t src[16], const uint8_t dst[16],
		      uint8_t mac[6]);

/**
 * The device's port address as a 16-byte GID (IPv4-mapped): the "udp:<ipv4>" wire's
 * address, else 10.<mac[3]>.<mac[4]>.<mac[5]>.
 * @return 0, or -EINVAL for a bad @p hw.
 */
int irdma_model_port_gid(struct irdma_hw *hw, uint8_t gid[16]);

/**
 * The CPUs the engine thread of a THREAD-mode model may run on (doc/model.md "Modes": a
 * core the application's EAL lcores do not use, else the highest worker lcore's).
 * @return 0, -ENOENT for an INLINE model, -EINVAL for a bad @p hw, or the pthread error.
 */
int irdma_model_thread_cpus(struct irdma_hw *hw, rte_cpuset_t *set);

/**
 * Whether the engine thread of a THREAD-mode model busy-polls without ever yielding the CPU
 * (doc/model.md "Modes"): it does while it is pinned to a single CPU no EAL lcore and no
 * other model's engine thread of the process uses.
 * @return 1 (spins), 0 (yields after a run of idle polls), -ENOENT for an INLINE model or
 * -EINVAL for a bad @p hw.
 */
int irdma_model_thread_spins(struct irdma_hw *hw);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_MODEL_H */
