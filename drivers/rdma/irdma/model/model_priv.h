/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_PRIV_H
#define IRDMA_MODEL_PRIV_H

/*
 * Internal state of the device model. One lock (dev->lock, struct model_lock) serialises
 * everything the engine does (register side effects, CQP execution, event writers) and the
 * DMA map table, which the driver changes while the model thread runs.
 */

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_pause.h>
#include <rte_byteorder.h>
#include <rte_log.h>

#include "irdma_base.h"
#include "irdma_model.h"
#include "irdma_model_ext.h"
#include "model_pkt.h"

extern int irdma_model_logtype;

#define MODEL_LOG(level, dev, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_model_logtype, "%s: " fmt "\n", \
		(dev)->name, ##__VA_ARGS__)

/*
 * A DEBUG line on the data path (per WQE, per packet): decided by dev->log_debug, taken
 * from the log level (model_log_refresh) at attach, with every CQP WQE and every
 * MODEL_LOG_ROUNDS engine rounds, so no log call is made per WQE while DEBUG is filtered
 * out. A level set with rte_log_set_level() reaches the data path that way.
 */
#define MODEL_LOG_ROUNDS 4096u
#define MODEL_DBG(dev, fmt, ...) do { \
	if (unlikely((dev)->log_debug)) \
		MODEL_LOG(DEBUG, dev, fmt, ##__VA_ARGS__); \
} while (0)

/* Cells of the THREAD mode doorbell queue (a power of two). */
#define MODEL_DBQ_SIZE		1024u

/* Count an event (hardware-counter style; readable from any thread). */
#define MODEL_INC(dev, field) __atomic_fetch_add(&(dev)->st.field, 1, __ATOMIC_RELAXED)

/*
 * Count an event of the engine (data path, dev->lock held: one writer). A relaxed load and
 * store, no locked read-modify-write; irdma_model_stats_get() reads each counter atomically.
 */
#define MODEL_CNT(dev, field, n) \
	__atomic_store_n(&(dev)->st.field, \
			 __atomic_load_n(&(dev)->st.field, __ATOMIC_RELAXED) + (n), \
			 __ATOMIC_RELAXED)

/*
 * Count into a statistics instance (enum irdma_hw_stat without its prefix): @p st is the
 * counter block of the QP's instance (model_qp.hw_st) or the function's default
 * (model_stats_dflt()). Plain adds: the engine is the only writer and GATHER_STATS reads the
 * block under the same dev->lock.
 */
#define MODEL_HW(st, s, n) ((st)[IRDMA_HW_STAT_##s] += (n))

/*
 * CQP_LPBLSIZE values (the kernel's enum irdma_pbl_chunk, not in base/): level 1 is a
 * chunk size of 1, level 2 a chunk size of 3 (doc/hardware.md §6.1).
 */
#define MODEL_LPBLSIZE_L0	0u
#define MODEL_LPBLSIZE_L1	1u
#define MODEL_LPBLSIZE_L2	3u

/* CQP WQEs the model keeps for irdma_model_cqp_capture() (newest last). */
#define MODEL_CQP_CAPTURE	64u

/* Latched interrupt-configuration registers the model keeps (per vector / queue). */
#define MODEL_VSI_REGS		1024u

/* Interrupt vectors that have an eventfd (model_irq.c). */
#define MODEL_IRQ_VECTORS	16u

/* One DMA map: [iova, iova + len) is host memory at va. */
struct model_map {
	rte_iova_t iova;
	size_t len;
	uint8_t *va;
};

/*
 * The IOMMU view: maps sorted by IOVA, never overlapping. The engine reads it under
 * dev->lock, which it holds for every access anyway; maps, unmaps and EAL memory events
 * change it under dev->lock too (model_dma.c).
 */
/* Maps the IOMMU view remembers having found (a power of two). */
#define MODEL_DMA_HITS		4u

struct model_dma {
	struct model_map *maps;
	uint32_t n;
	uint32_t cap;
	/* The maps the last accesses found, most recent first (len 0: none); cleared
	 * whenever the table changes (model_dma.c dma_hits_clear()). */
	struct model_map hit[MODEL_DMA_HITS];
};

/* A committed HMC object: FPM base, entry size, committed and maximum counts. */
struct model_hmc_obj {
	uint64_t base;
	uint64_t size;
	uint32_t cnt;
	uint32_t max;
};

/* A segment descriptor as programmed by UPDATE_PE_SDS. */
struct model_sd {
	uint8_t type;		/* enum irdma_sd_type */
	rte_iova_t addr;	/* PD page (paged) or 2 MB buffer (direct) */
};

/* Where a queue's entries live: one IOVA (level 0) or PBLEs (levels 1, 2). */
struct model_ring {
	rte_iova_t pa;
	uint32_t first_pble;
	uint8_t level;
	uint32_t size;		/* entries */
	uint32_t esize;		/* bytes per entry */
};

/* A CQ (the CCQ is CQ 0). */
struct model_cq {
	bool valid;
	bool ceq_valid;
	bool ceqe_en;
	bool chk_overflow;
	bool armed;
	bool arm_se_only;	/* armed for solicited (and error) completions only */
	uint16_t ceq_id;
	uint64_t ctx;
	rte_iova_t shadow_pa;
	struct model_ring ring;
	uint32_t head;
	uint8_t polarity;
};

/* A CEQ or the AEQ. */
struct model_eq {
	bool valid;
	struct model_ring ring;
	uint32_t head;
	uint8_t polarity;
	uint32_t credits;	/* AEQ: entries the driver has not returned yet may not exceed size */
};

/* Frame header templates the data path keeps (a power of 2; model_engine.c). */
#define MODEL_TX_TMPLS	8u

/* STag contexts the data path keeps (direct-mapped by STag index; model_mr.c). */
#define MODEL_MR_CACHE	8u

/* The model's MR context, stored in the HMC MR object entry of its index. */
struct model_stag {
	uint64_t va;		/* REG_MR: VA (VA-based) or first-byte offset */
	uint64_t len;		/* bytes */
	uint64_t addr;		/* level 0: PA of the first page; else first PBLE index */
	uint32_t pd;		/* PD id */
	uint32_t max_pages;	/* ALLOC_STAG: pages the PBLE run holds */
	uint8_t state;		/* enum irdma_model_stag_state */
	uint8_t key;		/* REG_MR: the key */
	uint8_t access;		/* enum irdma_access_bits */
	uint8_t level;		/* enum irdma_pble_level */
	uint8_t page_shift;	/* log2 of the page size */
	uint8_t va_based;	/* VABASEDTO */
	uint8_t mw;		/* 1: a type-2 window (va, len: the window in the parent) */
	uint8_t rsvd;
	uint32_t parent;	/* window: the parent region's STag at the bind */
	uint32_t windows;	/* region: windows bound to it (DEALLOC_STAG refused while > 0) */
};

/*
 * One of them: read at generation gen (model_dev.ctx_gen) from HMC entry e. host: for a
 * valid level-0 region one DMA map holds entirely, the host address of its first byte
 * (model_mr_copy() copies through it without translating); else NULL.
 */
struct model_mr_cached {
	uint64_t gen;
	uint32_t idx;
	rte_iova_t e;
	uint8_t *host;
	struct model_stag ctx;
};

/* Which scheduling list of the engine holds a QP (model_engine.c). */
enum model_sched {
	MODEL_SCHED_NONE = 0,	/* idle: no round visits it until a doorbell, packet or modify */
	MODEL_SCHED_RUN,	/* dev->run: every round works on it */
	MODEL_SCHED_TIMER,	/* dev->tmr: visited again when its timer is due */
};

/* A RoCE QP (model_qp.c): identity, HW state and the decoded host context. */
struct model_qp {
	bool valid;
	uint8_t type;		/* enum irdma_qp_type */
	uint8_t state;		/* enum irdma_qp_hw_state */
	uint8_t rq_shift;
	struct model_ring sq;	/* quanta */
	struct model_ring rq;	/* quanta */
	uint32_t tx_cq;
	uint32_t rx_cq;
	uint32_t pd;
	uint32_t dest_qpn;
	uint32_t sq_psn;
	uint32_t rq_psn;
	uint32_t qkey;
	uint32_t mss;
	uint32_t arp_idx;
	uint32_t ord;
	uint32_t ird_enc;
	uint8_t rdok;
	uint8_t wrrdrspok;
	uint8_t atomic_en;	/* gen3 QPC_REMOTE_ATOMIC_EN */
	uint8_t retry;
	uint8_t rnr_retry;
	uint64_t compl_ctx;
	rte_iova_t ctx_pa;
	rte_iova_t shadow_pa;
	uint32_t modifies;
	uint32_t sq_flushes;
	uint32_t rq_flushes;
	uint8_t stats_use;	/* QPC_USESTATSINSTANCE */
	uint32_t stats_idx;	/* the statistics instance it counts into (model_stats.c) */
	uint64_t *hw_st;	/* that instance's counters (never NULL once the context is in) */
	uint64_t rto_cycles;	/* retransmit timeout in timer cycles (0: infinite) */
	/* Addressing for the data path (model_engine.c). */
	uint8_t ipv4;
	uint8_t insert_vlan;
	uint16_t vlan_tag;
	uint8_t ttl;
	uint8_t tos;
	uint16_t src_port;
	uint16_t pkey;
	uint32_t flow_label;
	uint32_t rtomin;
	uint64_t mac;		/* QPC_MACADDRESS (0: the port's) */
	uint32_t dest_ip[4];	/* QPC_DESTIPADDR0..3 */
	uint32_t local_ip[4];	/* QPC_LOCAL_IPADDR0..3 (all 0: the port's) */
	bool db;		/* SQ doorbell rung, not processed yet */
	uint8_t sched;		/* enum model_sched: which engine list holds the QP */
	uint32_t tmr_pos;	/* its index in dev->tmr (MODEL_SCHED_TIMER) */
	uint64_t tmr_at;	/* its earliest timer deadline (MODEL_SCHED_TIMER) */
	struct model_qpe *eng;	/* data-path state (model_engine.h), NULL until used */
	/* Gen3: QPC_USE_SRQ, the receives come from SRQ srq_id (model_srq.c). */
	bool use_srq;
	uint32_t srq_id;
};

/* One statistics instance (model_stats.c): allocated or not, and its counters. */
struct model_stats_inst {
	bool alloc;
	uint64_t val[IRDMA_HW_STAT_GEN3_MAX];	/* indexed by enum irdma_hw_stat */
};

/* The outcome of one CQP command. */
struct model_res {
	uint16_t major;
	uint16_t minor;
	uint32_t retval;
};

/* One AdminQ ring's registers (model_adminq.c). */
struct model_aq_regs {
	uint32_t bal;
	uint32_t bah;
	uint32_t len;		/* LEN | VFE | OVFL | CRIT | ENABLE */
	uint32_t head;
	uint32_t tail;
};

/* The PF outside the RDMA engine (model_pf.c, model_adminq.c). */
/*
 * The device lock: test-and-test-and-set on one word. It is held for one engine step or one
 * register access, so a waiter spins (rte_pause); after MODEL_LOCK_SPINS looks it yields the
 * CPU between looks, for a holder preempted on the waiter's own CPU. Uncontended it costs a
 * quarter of a pthread mutex's instructions, and the inline model's data path takes it on
 * every doorbell and every poll.
 */
#define MODEL_LOCK_SPINS 256u

struct model_lock {
	uint32_t held;	/* 1 while a thread holds the lock */
};

/* Take @p l. */
static inline void
model_lock(struct model_lock *l)
{
	unsigned int looks = 0;

	while (__atomic_exchange_n(&l->held, 1u, __ATOMIC_ACQUIRE) != 0) {
		while (__atomic_load_n(&l->held, __ATOMIC_RELAXED) != 0) {
			if (++looks < MODEL_LOCK_SPINS)
				rte_pause();
			else
				sched_yield();
		}
	}
}

/* Give @p l back. */
static inline void
model_unlock(struct model_lock *l)
{
	__atomic_store_n(&l->held, 0u, __ATOMIC_RELEASE);
}

/* VSIs, scheduler nodes and RDMA qsets of the model's PF (model_sched.c). */
#define MODEL_PF_VSIS		4u
#define MODEL_SCHED_NODES	16u
#define MODEL_QSETS		8u

struct model_pf {
	bool in_reset;		/* PFSWR set, reset running */
	uint32_t grst_left;	/* device reset running: GLGEN_RSTAT reads until done */
	uint32_t rstat;		/* GLGEN_RSTAT once no device reset runs */
	uint32_t reset_left;	/* PFGEN_CTRL reads until it completes */
	uint32_t uld;		/* GLNVM_ULD */
	bool pe_ready;		/* PE usable: RDMA enabled, no reset running */
	struct model_aq_regs atq;
	struct model_aq_regs arq;
	bool aq_pending;	/* ATQT written: commands to run */
	bool lse;		/* link status events enabled */
	uint16_t event_mask;	/* SET_EVENT_MASK (set bit: masked) */
	bool link_up;
	struct {
		uint16_t opcode;
		uint8_t kind;	/* enum irdma_model_aq_fault */
		uint16_t retval;
		uint32_t skip;	/* commands of the opcode to run before the fault */
	} fault;
	uint8_t cap[IRDMA_MODEL_AQ_CAPTURE][IRDMA_AQ_DESC_SIZE];
	/* the first bytes of each captured RD buffer (zeros for others) */
	uint8_t cap_buf[IRDMA_MODEL_AQ_CAPTURE][IRDMA_MODEL_AQ_CAPTURE_BUF];
	uint64_t cap_n;		/* descriptors captured since the last reset */
	/* VSIs (ADD_VSI), Tx scheduler nodes, RDMA qsets (model_sched.c) */
	struct model_vsi {
		bool used;
		uint16_t num;		/* hardware VSI number */
		uint8_t q_opt_flags;	/* PE_FLTR_EN */
	} vsi[MODEL_PF_VSIS];
	struct model_sched_node {
		bool used;
		uint8_t type;		/* enum irdma_aq_elem_type */
		uint8_t layer;		/* 0: the port */
		uint32_t teid;
		uint32_t parent;
	} node[MODEL_SCHED_NODES];
	struct model_qset {
		bool used;
		uint16_t qs_id;		/* the work scheduler leaf's qs_handle */
		uint32_t teid;
		uint32_t parent;
	} qset[MODEL_QSETS];
	uint32_t next_teid;
	/* Work scheduler nodes of the PE (CQP WORK_SCHED_NODE), indexed by node id. */
	struct model_ws_node {
		bool used;
		bool leaf;
		bool enable;
		uint8_t tc;
		uint16_t parent;
		uint16_t vsi;
		uint16_t qs_handle;	/* leaves */
	} ws[IRDMA_WS_MAX_NODES + 1];
};

struct model_dev {
	char name[32];
	struct irdma_hw *hw;
	struct irdma_model_config cfg;
	struct model_lock lock;
	struct model_dma dma;
	/* An emulator's bus (irdma_model_ext.h): when ext.dma is set, every access the
	 * map table does not hold goes to it (the table stays empty), interrupts to ext.irq. */
	struct irdma_model_ext_ops ext;
	bool eal_events;	/* an EAL memory event callback is registered (map_eal) */
	struct irdma_model_stats st;

	/* Register file. */
	uint32_t cpustatus_reads;
	uint32_t ccqp_high;
	uint32_t ccqp_low;
	uint32_t ccqpstatus;
	uint32_t cqperrcodes;
	bool cqp_op_err;
	bool cqp_ctl_pending;	/* CCQPLOW written: create / destroy to run */
	uint32_t dyn_ctl[IRDMA_GLINT_VECTORS];
	uint32_t ceqctl[IRDMA_GLINT_VECTORS];
	uint32_t rate[IRDMA_GLINT_VECTORS];
	uint32_t vsi_ctl1[MODEL_VSI_REGS];
	uint32_t aeqctl;
	uint32_t fw_ctl;	/* PFINT_FW_CTL: the AdminQ (ARQ event) cause */
	uint32_t oicr;		/* PFINT_OICR: latched other causes (clear on read) */
	uint32_t oicr_ena;	/* PFINT_OICR_ENA: the causes that latch */
	uint32_t oicr_ctl;	/* PFINT_OICR_CTL: their vector */
	struct {
		int fd;		/* eventfd, -1 until irq_fd asked for it */
		bool pending;	/* raised while INTENA was clear */
		uint64_t fired;	/* times it fired */
	} irq[MODEL_IRQ_VECTORS];

	/* Control QP. */
	struct {
		bool created;
		rte_iova_t sq_pa;
		uint32_t size;
		uint32_t tail;
		uint32_t db_head;
		uint8_t polarity;
		uint64_t compl_ctx;
	} cqp;

	/* Raw capture of the CQP WQEs fetched (model_capture.c; diagnostics only). */
	struct {
		uint64_t seq;		/* WQEs fetched since the CQP was created */
		struct {
			uint8_t wqe[IRDMA_CQP_WQE_SIZE];
			uint8_t opcode;
			uint32_t slot;
			uint64_t seq;
		} ring[MODEL_CQP_CAPTURE];
	} cqp_cap;

	/* Fault injection. */
	struct {
		uint8_t opcode;
		uint32_t skip;	/* commands of that opcode run first */
		uint32_t count;
		uint16_t major;
		uint16_t minor;
	} fault;

	/* HMC. */
	bool fpm_committed;
	struct model_hmc_obj obj[IRDMA_HMC_OBJ_MAX];
	uint32_t sd_committed;	/* SDs the committed layout spans */
	struct model_sd *sd;	/* max_pe_sds entries */

	/* Queues. */
	struct model_cq *cq;	/* committed CQ count entries */
	uint32_t cq_tab;
	struct model_eq *ceq;	/* max_ceqs entries */
	struct model_eq aeq;
	struct model_qp *qp;	/* qp_tab entries; allocated with the first QP */
	uint32_t qp_tab;
	uint32_t qp_live;

	/* Statistics instances: IRDMA_MAX_STATS_INSTANCES entries, created on first use. */
	struct model_stats_inst *stats_inst;
	/* Counted into when the instance table could not be allocated (never gathered). */
	uint64_t stats_sink[IRDMA_HW_STAT_GEN3_MAX];

	/* Execution. */
	pthread_t thread;
	bool thread_started;
	int thread_cpu;		/* atomic: the CPU model_thread_place() counted it on, or -1 */
	uint32_t stop;		/* atomic */
	/* atomic: set when a register write needs the engine; a line of its own */
	uint32_t work __rte_cache_aligned;
	/*
	 * THREAD mode: SQ doorbells handed to the engine thread without d->lock, a bounded
	 * multi-producer queue of QP ids (a sequence number per cell, after D. Vyukov's
	 * bounded MPMC queue); the engine drains it under d->lock (model_db_drain()).
	 */
	struct {
		uint64_t enq __rte_cache_aligned;	/* atomic: producers' next position */
		uint64_t pushed;		/* atomic: doorbells queued (reg_writes) */
		uint8_t pad0[48];		/* enq and deq on lines of their own */
		uint64_t deq;			/* the engine's next position (d->lock) */
		uint8_t pad1[56];
		struct model_db_cell {
			uint64_t seq;		/* atomic */
			uint32_t qp_id;
		} cell[MODEL_DBQ_SIZE];
	} dbq;

	/* Data path (model_engine.c). */
	struct model_port *port;	/* attached at create, detached at destroy */
	uint8_t gid[16];		/* the port's address (IPv4-mapped) */
	uint8_t *frame;			/* MODEL_PKT_MAX scratch for one frame */
	uint8_t *frame_buf;		/* where model_tx_prep() built the frame (tx_frame()) */
	uint32_t frame_len;		/* of the frame model_tx_prep() built */
	uint32_t frame_poff;		/* its payload's offset */
	uint32_t frame_plen;		/* its payload's length */
	bool frame_bare;		/* built bare (model_pkt_build_bare()) */
	bool desc_check;		/* parse described frames too, and compare (tests) */
	/* model_tx_prep()'s header templates, direct-mapped by destination QP */
	struct model_pkt_tmpl tx_tmpl[MODEL_TX_TMPLS];
	uint8_t *buf;			/* MODEL_PKT_MAX scratch for one payload */
	uint8_t *rx;			/* MODEL_PKT_MAX: a received frame copied */
	const uint8_t *rx_frame;	/* the frame being handled (in rx or the wire's queue) */
	bool in_step;			/* model_step is running (no re-entry) */
	bool log_debug;			/* DEBUG lines of the data path (MODEL_DBG) */
	uint32_t log_rounds;		/* engine rounds, for MODEL_LOG_ROUNDS */
	uint32_t round;			/* model_engine_step() calls (ACK coalescing) */
	uint32_t eng_qps;		/* QPs with engine state (0: no QP scan) */
	uint64_t ack_coalesce_cycles;	/* MODEL_ACK_COALESCE_US in timer cycles */
	uint64_t rnr_cycles[32];	/* model_rnr_cycles() of every RNR NAK timer code */
	/*
	 * Scheduling (model_engine.c): the QPs with work (run, in QP id order when a round
	 * starts) and the QPs waiting for a timer only (tmr, unordered; tmr_next the earliest
	 * deadline among them), allocated with the first engine state.
	 */
	/*
	 * Context caching (model_mr.c): ctx_gen changes with every CQP WQE, every STag
	 * context the engine writes and every DMA unmap; a cached context is good while its
	 * generation is the current one.
	 */
	uint64_t ctx_gen;
	struct model_mr_cached mr_cache[MODEL_MR_CACHE];
	uint32_t *run;
	uint32_t run_cnt;
	uint32_t *tmr;
	uint32_t tmr_cnt;
	uint64_t tmr_next;

	/* The PF (model_pf.c, model_adminq.c). */
	struct model_pf pf;
};

/* Forget every cached context (model_dev.ctx_gen). */
static inline void
model_ctx_changed(struct model_dev *d)
{
	d->ctx_gen++;
}

/* irdma_model.c */
struct model_dev *model_dev_of(struct irdma_hw *hw);
/* Take the log level for MODEL_DBG. */
static inline void
model_log_refresh(struct model_dev *d)
{
	d->log_debug = rte_log_can_log(irdma_model_logtype, RTE_LOG_DEBUG);
}
void model_kick(struct model_dev *d);
void model_step(struct model_dev *d);

/* model_dma.c */
int model_dma_init(struct model_dma *m);
void model_dma_fini(struct model_dma *m);
int model_dma_map(struct model_dev *d, void *va, rte_iova_t iova, size_t len);
int model_dma_unmap(struct model_dev *d, void *va, rte_iova_t iova, size_t len);
/* True when the map table covers every byte of [iova, iova + len) (takes dev->lock). */
bool model_dma_mapped(struct model_dev *d, rte_iova_t iova, size_t len);
int model_dma_check(struct model_dev *d, rte_iova_t iova, size_t len);
/*
 * The host address of [iova, iova + len) when one map holds all of it, else NULL (an
 * emulator's bus, a gap, several maps). Valid until the table changes, which changes
 * model_dev.ctx_gen. Caller holds dev->lock.
 */
uint8_t *model_dma_va(struct model_dev *d, rte_iova_t iova, size_t len);
/*
 * The accesses below in full: any map, the emulator's IOMMU, faults counted. The inline
 * model_dma_read() / _write() / _load64() / _store64() call them when the map the last
 * access found (model_dma.hit[0]) does not hold the whole access.
 */
int model_dma_copy_any(struct model_dev *d, rte_iova_t iova, void *buf, size_t len,
		       bool to_host);
int model_dma_load64_any(struct model_dev *d, rte_iova_t iova, uint64_t *v);
int model_dma_store64_any(struct model_dev *d, rte_iova_t iova, uint64_t v);

/*
 * The host address of [iova, iova + len) when the map the last access found holds all of
 * it, else NULL (caller holds dev->lock).
 */
static inline uint8_t *
model_dma_hit(struct model_dev *d, rte_iova_t iova, size_t len)
{
	const struct model_map *e = &d->dma.hit[0];

	if (likely(iova - e->iova < e->len && e->len - (size_t)(iova - e->iova) >= len))
		return e->va + (iova - e->iova);
	return NULL;
}

/* Copy @p len bytes at @p iova into @p buf: 0, or -EFAULT with nothing copied. */
static inline int
model_dma_read(struct model_dev *d, rte_iova_t iova, void *buf, size_t len)
{
	uint8_t *va = model_dma_hit(d, iova, len);

	if (likely(va != NULL && len != 0)) {
		memcpy(buf, va, len);
		return 0;
	}
	return model_dma_copy_any(d, iova, buf, len, false);
}

/* Copy @p len bytes of @p buf to @p iova: 0, or -EFAULT with nothing written. */
static inline int
model_dma_write(struct model_dev *d, rte_iova_t iova, const void *buf, size_t len)
{
	uint8_t *va = model_dma_hit(d, iova, len);

	if (likely(va != NULL && len != 0)) {
		memcpy(va, buf, len);
		return 0;
	}
	return model_dma_copy_any(d, iova, (void *)(uintptr_t)buf, len, true);
}

/*
 * The aligned little-endian qword at @p iova, one atomic 64-bit load (acquire) as silicon's
 * aligned PCIe reads: 0, or -EFAULT.
 */
static inline int
model_dma_load64(struct model_dev *d, rte_iova_t iova, uint64_t *v)
{
	uint8_t *va;

	if (likely((iova & (IRDMA_QWORD_BYTES - 1)) == 0) &&
	    (va = model_dma_hit(d, iova, IRDMA_QWORD_BYTES)) != NULL) {
		*v = rte_le_to_cpu_64(__atomic_load_n((uint64_t *)(void *)va, __ATOMIC_ACQUIRE));
		return 0;
	}
	return model_dma_load64_any(d, iova, v);
}

/* Store @p v as the aligned little-endian qword at @p iova (release): 0, or -EFAULT. */
static inline int
model_dma_store64(struct model_dev *d, rte_iova_t iova, uint64_t v)
{
	uint8_t *va;

	if (likely((iova & (IRDMA_QWORD_BYTES - 1)) == 0) &&
	    (va = model_dma_hit(d, iova, IRDMA_QWORD_BYTES)) != NULL) {
		__atomic_store_n((uint64_t *)(void *)va, rte_cpu_to_le_64(v), __ATOMIC_RELEASE);
		return 0;
	}
	return model_dma_store64_any(d, iova, v);
}
/*
 * cfg.map_eal: map every internal EAL memory segment now and follow EAL's allocations and
 * frees (memory event callback), as VFIO's default container does. 0 or -errno.
 */
int model_dma_eal_attach(struct model_dev *d);
/* Stop following EAL's memory events. */
void model_dma_eal_detach(struct model_dev *d);

/* model_pf.c */
void model_pf_init(struct model_dev *d);
/* Register reads / writes of the PF and AdminQ registers: true when @p off is one. */
bool model_pf_reg_read(struct model_dev *d, uint32_t off, uint32_t *val);
bool model_pf_reg_write(struct model_dev *d, uint32_t off, uint32_t val);
/* The PE may be used (RDMA enabled, no reset running); counts a refusal when not. */
bool model_pf_pe_ready(struct model_dev *d);

/* model_adminq.c */
/* Run the ATQ commands between head and tail (caller holds dev->lock). */
void model_aq_process(struct model_dev *d);
/* Post an event (@p opcode, @p len bytes of @p data) on the ARQ; false when lost. */
bool model_aq_event(struct model_dev *d, uint16_t opcode, const void *data, uint16_t len);
/* The link status data of GET_LINK_STATUS (IRDMA_AQ_LINK_STATUS_LEN bytes). */
void model_aq_link_data(struct model_dev *d, uint8_t *data);

/* model_regs.c */
uint32_t model_reg_read(struct model_dev *d, uint32_t off);
void model_reg_write(struct model_dev *d, uint32_t off, uint32_t val);

/* model_cqp.c */
void model_cqp_ctl(struct model_dev *d);
void model_cqp_process(struct model_dev *d);
void model_res_fail(struct model_res *r, uint16_t major, uint16_t minor);
/* Fail @p r with major ERROR and @p minor when @p minor is not 0; true when it did. */
bool model_refuse(struct model_res *r, uint16_t minor);
/*
 * IOVA of entry @p idx of the committed HMC object @p obj. Refuses (fails @p r, returns true)
 * without a committed FPM (NO_FPM), outside first .. count - 1 (BAD_ID), or when the entry's
 * memory is not backed (major CNTXTCACHE_ERROR).
 */
bool model_hmc_entry(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t first, uint32_t idx,
		     rte_iova_t *iova, struct model_res *r);

/* model_capture.c */
void model_cqp_capture_reset(struct model_dev *d);
void model_cqp_capture_record(struct model_dev *d, uint32_t slot,
			      const struct irdma_cqp_wqe *w);

/* model_fpm.c */
void model_op_query_fpm(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_commit_fpm(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_update_sds(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_fpm_free(struct model_dev *d);

/* model_hmc.c */
uint16_t model_hmc_iova(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t index,
			rte_iova_t *iova);
uint16_t model_pble_iova(struct model_dev *d, unsigned int level, uint32_t first,
			 uint32_t page, rte_iova_t *iova);
uint16_t model_ring_check(struct model_dev *d, const struct model_ring *ring,
			  uint32_t align_mask);
/* model_ring_entry() of a ring through PBLEs (levels 1 and 2). */
uint16_t model_ring_entry_pbl(struct model_dev *d, const struct model_ring *ring, uint32_t idx,
			      rte_iova_t *iova);
/* The IOVA of entry @p idx of @p ring: 0, or the minor code of a PBLE that fails. */
static inline uint16_t
model_ring_entry(struct model_dev *d, const struct model_ring *ring, uint32_t idx,
		 rte_iova_t *iova)
{
	if (likely(ring->level == IRDMA_PBLE_LEVEL_0)) {
		*iova = ring->pa + (uint64_t)idx * ring->esize;
		return 0;
	}
	return model_ring_entry_pbl(d, ring, idx, iova);
}
uint16_t model_ring_from_wqe(struct model_dev *d, struct model_ring *ring, bool vmap,
			     uint32_t lpbl, rte_iova_t pa, uint32_t first);

/* model_queues.c */
void model_op_create_cq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_destroy_cq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_modify_cq(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_create_ceq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_destroy_ceq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			  struct model_res *r);
void model_op_create_aeq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_destroy_aeq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			  struct model_res *r);
bool model_ccq_exists(const struct model_dev *d);
int model_cq_post(struct model_dev *d, uint32_t cq_id, struct irdma_cqe *cqe);
void model_cq_arm(struct model_dev *d, uint32_t cq_id);
void model_aeq_post(struct model_dev *d, uint32_t ae, uint32_t src, uint32_t id,
		    uint64_t compctx);
void model_aeq_alloc(struct model_dev *d, uint32_t count);
/*
 * Post an extended CQE: @p cqe with EXTCQE set and @p ext the second half (64-byte ring
 * entries: one entry; 32-byte entries: two consecutive slots, the first one's valid qword
 * written last). -ENOSPC on overflow (AE raised), -EFAULT when unwritable.
 */
int model_cq_post_ext(struct model_dev *d, uint32_t cq_id, struct irdma_cqe *cqe,
		      struct irdma_cqe_ext *ext);

/* model_irq.c */
void model_irq_init(struct model_dev *d);
void model_irq_fini(struct model_dev *d);
int model_irq_fd(struct irdma_hw *hw, unsigned int vector);
/* Latch other cause @p cause (PFINT_OICR bits) when enabled, and raise its vector. */
void model_oicr_raise(struct model_dev *d, uint32_t cause);
/* An event for the queue whose interrupt control register (AEQCTL / CEQCTL) is @p qctl. */
void model_irq_raise(struct model_dev *d, uint32_t qctl);
/* GLINT_DYN_CTL(@p v) was written: fire a pending raise if now enabled. */
void model_irq_dyn_ctl(struct model_dev *d, uint32_t v);
/* Raise AE @p ae from source @p src for QP / CQ @p id as the engine does (completion context,
 * QP to ERROR for error AEs); false when the AEQ dropped it. */
bool model_ae_raise(struct model_dev *d, uint32_t ae, uint32_t src, uint32_t id);

/* model_qp.c */
void model_op_create_qp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_modify_qp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_destroy_qp(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_flush_wqes(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_qp_free(struct model_dev *d);

/* model_srq.c (gen3) */
/* log2 of an SRQ's HMC object-2 entry (the model's SRQ record). */
#define MODEL_SRQ_SIZE_LOG2	6u
void model_op_create_srq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_modify_srq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_destroy_srq(struct model_dev *d, const struct irdma_cqp_wqe *w,
			  struct model_res *r);
/*
 * A QP context names SRQ @p id with PD @p pd: 0 when it is live (gen3) and of that PD, else a
 * minor code. @p delta (+1 create, -1 destroy, 0 check only) moves its QP count.
 */
uint16_t model_srq_attach(struct model_dev *d, uint32_t id, uint32_t pd, int delta);

/* model_mr.c */
void model_op_alloc_stag(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_reg_mr(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_dealloc_stag(struct model_dev *d, const struct irdma_cqp_wqe *w,
			   struct model_res *r);

/*
 * Data-path access to the MR named by @p stag (index << 8 | key): check state, key, PD
 * @p pd, rights @p access (IRDMA_ACCESS_*) and bounds of [va, va + len), then copy @p len
 * bytes between @p buf and the region (@p to_mem: buf -> region). Returns 0 or the AE code
 * silicon raises (IRDMA_AE_AMP_*); nothing is copied on a refusal.
 */
uint32_t model_mr_copy(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len,
		       uint8_t access, uint32_t pd, bool to_mem, void *buf);
/*
 * Remote-atomic right of an STag context, kept beside the 5 IRDMA_ACCESS_* bits (gen3: the
 * CQP STag WQE's REMOTE_ATOMIC_EN, the FAST_REG / BIND_MW header's REMOTE_ATOMICS_EN).
 */
#define MODEL_ACCESS_REMOTE_ATOMIC	0x20u
/*
 * Execute a remote atomic on the 8 bytes at @p va of the region or window @p stag for PD
 * @p pd: fetch-add (@p cmp_swap false: add @p swap_add) or compare-swap (swap in @p swap_add
 * when the value equals @p cmp), host byte order; *orig receives the value before.
 * 0 or an AE code (rights, bounds, key); memory is untouched on a refusal.
 */
uint32_t model_mr_atomic(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t pd,
			 bool cmp_swap, uint64_t swap_add, uint64_t cmp, uint64_t *orig);
/*
 * Bind type-2 window @p mw_stag (its new key in bits 7:0) of PD @p pd to [va, va + len) of
 * the region @p mr_stag with rights @p rights (IRDMA_ACCESS_* | MODEL_ACCESS_REMOTE_ATOMIC):
 * 0 or an AE code (IRDMA_AE_AMP_MWBIND_*).
 */
uint32_t model_mw_bind(struct model_dev *d, uint32_t mw_stag, uint32_t mr_stag, uint32_t pd,
		       uint64_t va, uint64_t len, uint8_t rights, bool va_based);
/* Check without copying (same codes as model_mr_copy). */
uint32_t model_mr_check(struct model_dev *d, uint32_t stag, uint64_t va, uint32_t len,
			uint8_t access, uint32_t pd);
/* Invalidate @p stag for PD @p pd (LOCAL_INV, SEND with invalidate): 0 or an AE code. */
uint32_t model_mr_invalidate(struct model_dev *d, uint32_t stag, uint32_t pd, bool remote);
/* Fast-register @p stag of PD @p pd (FAST_REG WQE fields): 0 or an AE code. */
uint32_t model_mr_fastreg(struct model_dev *d, uint32_t stag, uint32_t pd, uint64_t va,
			  uint64_t len, uint64_t pbl, uint8_t level, uint8_t page_shift,
			  uint8_t rights, bool va_based);

/* model_ah.c */
/* The destination MAC of ARP entry @p idx (48 bits); -ENOENT when not valid. */
int model_arp_mac(struct model_dev *d, uint32_t idx, uint64_t *mac);
/* What the data path needs of an AH. */
struct model_ah_view {
	uint64_t mac;
	uint32_t dest[4];
	uint32_t src[4];
	uint32_t pd;
	uint32_t flow_label;
	uint16_t vlan_tag;
	uint8_t insert_vlan;
	uint8_t tc;
	uint8_t hop_limit;
	uint8_t ipv4;
};
/* AH @p idx as the data path sees it; -ENOENT when not in use. */
int model_ah_view(struct model_dev *d, uint32_t idx, struct model_ah_view *v);
void model_op_manage_arp(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
void model_op_create_ah(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
void model_op_destroy_ah(struct model_dev *d, const struct irdma_cqp_wqe *w,
			 struct model_res *r);
/* 0 when a QP may name ARP index @p idx (valid, or the reserved 0), else a minor code. */
uint16_t model_arp_check(struct model_dev *d, uint32_t idx);

/* model_sched.c */
/* The default scheduler tree, empty VSI / qset / work scheduler tables (init, PF reset). */
void model_sched_reset(struct model_dev *d);
/* AdminQ VSI / scheduler / qset commands: 0 or an AdminQ return code. */
uint16_t model_aq_sched(struct model_dev *d, struct irdma_aq_desc *desc);
/* CQP WORK_SCHED_NODE. */
void model_op_ws_node(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r);
/* 0 when a QP context may name @p qs_handle (an enabled leaf with a qset), else a minor. */
uint16_t model_qs_check(struct model_dev *d, uint32_t qs_handle);

/* model_stats.c */
void model_op_manage_stats(struct model_dev *d, const struct irdma_cqp_wqe *w,
			   struct model_res *r);
void model_op_gather_stats(struct model_dev *d, const struct irdma_cqp_wqe *w,
			   struct model_res *r);
/*
 * Decode the statistics binding of a QP context: *use = QPC_USESTATSINSTANCE, *idx = the
 * instance the QP counts into (QPC_STAT_INDEX, or this function's default). 0 or a minor code
 * (NO_OBJ: the named instance is not allocated).
 */
uint16_t model_stats_qp_ctx(struct model_dev *d, const struct irdma_qp_ctx *ctx, uint8_t *use,
			    uint32_t *idx);
/*
 * The engine's counting hook: add @p delta to counter @p s of statistics instance @p inst
 * (a QP's stats_idx, or the function's default instance cfg.hmc_fn_id). Dropped when the
 * instance is not allocated. Caller holds dev->lock.
 */
void model_stats_count(struct model_dev *d, uint32_t inst, enum irdma_hw_stat s,
		       uint64_t delta);
/*
 * The counter block of statistics instance @p inst for the engine to count into (the QP's
 * hw_st, cached when its context is accepted: an instance a QP names cannot be freed). A
 * sink when the table cannot be allocated. Caller holds dev->lock.
 */
uint64_t *model_stats_vals(struct model_dev *d, uint32_t inst);
/* The counter block of the function's default instance (traffic of no QP). */
uint64_t *model_stats_dflt(struct model_dev *d);
void model_stats_free(struct model_dev *d);

#endif /* IRDMA_MODEL_PRIV_H */
