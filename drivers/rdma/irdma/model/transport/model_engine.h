/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_ENGINE_H
#define IRDMA_MODEL_ENGINE_H

/*
 * The data-path engine of the model (internal): SQ / RQ WQE decoding (model_sq.c,
 * model_rq.c), the RC requester, responder and completer (model_rc.c), UD (model_ud.c) and
 * the scheduler, port, timers, flushes and CQEs (model_engine.c). Everything runs under
 * dev->lock. doc/model.md "Data-path engine" describes the behaviour.
 *
 * Per-QP engine state (struct model_qpe) is allocated when a QP first leaves INVALID and
 * freed with the QP; the decoded context stays in struct model_qp.
 */

#include "model_priv.h"
#include "model_pkt.h"

/* SQ WQEs a requester keeps between fetch and completion (its window of messages). */
#define MODEL_SQ_WINDOW		64u
/* Packets an RC requester sends beyond the oldest unacknowledged one. */
#define MODEL_RC_PKT_WINDOW	128u
/* Packets sent per QP per step (requests or read responses). */
#define MODEL_TX_BURST		32u
/* Frames received per step (above what one QP sends per step: the wire drains). */
#define MODEL_RX_BURST		256u
/* The requester asks for an ACK at least every this many packets of one message. */
#define MODEL_ACK_EVERY		16u
/*
 * ACK coalescing bounds of the responder: an AckReq is answered at the end of the receive
 * burst it arrived in; besides, an ACK goes out as soon as this many new request packets are
 * not acknowledged (at once, unless read responses must precede it) ...
 */
#define MODEL_ACK_COALESCE_PKTS	32u
/* ... and when the oldest packet not acknowledged arrived this many microseconds ago. */
#define MODEL_ACK_COALESCE_US	64u
/* Read requests a responder holds (the IRD the model honours at most). */
#define MODEL_IRD_MAX		128u
/* Fragments an SQ or RQ WQE can describe. */
#define MODEL_MAX_FRAGS		IRDMA_WQE_MAX_FRAGS
/* RNR timer code the responder puts in its RNR NAKs (IBA table: 0.01 ms .. 655 ms). */
#define MODEL_RNR_TIMER_CODE	1u
/* Atomic results a responder keeps for duplicates (gen3; the newest ones). */
#define MODEL_ATOMIC_SAVED	16u
/* Bytes of the GRH area in front of a UD receive's payload (verbs' 40-byte GRH). */
#define MODEL_UD_GRH_LEN	40u
/* Partition key the model accepts (the default P_Key). */
#define MODEL_DEFAULT_PKEY	0xffffu

/** One fragment (SGE). */
struct model_frag {
	uint64_t addr;
	uint32_t stag;
	uint32_t len;
};

/* struct model_wqe flags */
#define MODEL_WQE_SIGNALED	(1u << 0)
#define MODEL_WQE_IMM		(1u << 1)
#define MODEL_WQE_INLINE	(1u << 2)
#define MODEL_WQE_SOLICITED	(1u << 3)
#define MODEL_WQE_DONE		(1u << 4)	/* completed, waiting for in-order CQE */
#define MODEL_WQE_EXECUTED	(1u << 5)	/* local operation carried out */

/** A decoded SQ WQE and the requester's progress on it. */
struct model_wqe {
	uint32_t idx;		/* first SQ quantum */
	uint8_t quanta;
	uint8_t op;		/* enum irdma_sq_opcode */
	uint8_t nfrags;
	uint8_t flags;		/* MODEL_WQE_* */
	uint32_t len;		/* payload bytes */
	uint64_t rva;		/* WRITE / READ: remote VA; FAST_REG: VA or FBO */
	uint32_t rkey;		/* WRITE / READ: rkey; SEND_INV / LOCAL_INV: STag */
	uint32_t imm;		/* immediate, as the WQE holds it */
	/* UD */
	uint32_t ah_id;
	uint32_t dest_qpn;
	uint32_t dest_qkey;
	/* FAST_REG */
	uint64_t fr_len;
	uint64_t fr_pbl;	/* level 0: PA; levels 1, 2: first PBLE index */
	uint32_t fr_stag;
	uint8_t fr_rights;
	uint8_t fr_level;	/* enum irdma_pble_level */
	uint8_t fr_shift;
	uint8_t fr_va_based;
	/* ATOMIC (gen3): operands; the local SGE is frag[0] (8 bytes) */
	uint64_t at_swap_add;
	uint64_t at_cmp;
	/* BIND_MW (gen3): parent region (rkey: the window, rva / fr_len / fr_rights: the bind) */
	uint32_t bind_mr;
	/* requester progress */
	uint32_t psn;		/* first PSN */
	uint32_t npkts;		/* PSNs the message takes (0: local op) */
	uint32_t rd_done;	/* READ: bytes placed */
	struct model_frag frag[MODEL_MAX_FRAGS];
	uint8_t inl[IRDMA_MAX_INLINE];
};

/** A read request (or an atomic's acknowledge) a responder is answering. */
struct model_rdreq {
	uint32_t psn;		/* PSN of the first response */
	uint64_t va;
	uint32_t rkey;
	uint32_t len;
	uint32_t off;		/* bytes sent */
	bool atomic;		/* an ATOMIC_ACKNOWLEDGE carrying orig */
	uint32_t msn;		/* the AETH MSN its responses carry */
	uint64_t orig;		/* atomic: the original value */
};

/** An executed atomic's result, answered again to a duplicate of its request. */
struct model_atomic_saved {
	uint32_t psn;
	bool valid;
	uint64_t orig;
};

/** Engine state of one QP. */
struct model_qpe {
	/* SQ fetch: next quantum and the valid bit expected there. */
	uint32_t sq_next;
	uint8_t sq_pol;
	bool sq_stop;		/* a WQE is waiting for room in the window */
	/* RQ fetch: next WQE (in quanta) and its expected valid bit. */
	uint32_t rq_next;
	uint8_t rq_pol;

	/* requester: window of messages, oldest first */
	struct model_wqe w[MODEL_SQ_WINDOW];
	uint32_t w_head;
	uint32_t w_cnt;
	uint32_t tx_i;		/* message being sent, as an offset from w_head */
	uint32_t tx_off;	/* bytes of it sent */
	uint32_t npsn;		/* next PSN to send */
	uint32_t una_psn;	/* oldest unacknowledged PSN */
	uint32_t reads_out;	/* READ requests sent, not complete */
	uint32_t retries;
	uint32_t rnr_retries;
	uint64_t deadline;	/* retransmit timer (0: stopped) */
	uint64_t rnr_until;	/* RNR back-off (0: none) */
	uint32_t retx_psn;	/* last PSN a NAK / out-of-order response restarted from */
	uint32_t hi_psn;	/* first PSN never sent (a packet below it is a retransmit) */

	/* responder */
	uint32_t epsn;
	uint32_t msn;
	bool nak_sent;		/* a PSN sequence NAK is outstanding for epsn */
	uint32_t unacked;	/* new request packets accepted since the last ACK sent */
	uint64_t unacked_since;	/* when the oldest of them arrived (timer cycles) */
	bool ack_pending;
	uint32_t req_round;	/* model_dev.round of the last request packet accepted */
	bool ack_wait;		/* the pending ACK may wait for the stream's next requests */
	bool rr_draining;	/* an error sends the queued read responses before its NAK */
	uint8_t ack_syn;	/* AETH syndrome of the pending ACK / NAK */
	uint32_t ack_psn;
	bool rx_active;		/* a multi-packet SEND is being received */
	uint32_t rx_idx;	/* its RQ WQE (quanta) */
	uint32_t rx_off;
	uint8_t rx_nfrags;
	struct model_frag rx_frag[MODEL_MAX_FRAGS];
	bool wr_active;		/* a multi-packet WRITE is being received */
	uint64_t wr_va;
	uint32_t wr_rkey;
	uint32_t wr_left;
	struct model_rdreq rr[MODEL_IRD_MAX];
	uint32_t rr_head;
	uint32_t rr_cnt;
	struct model_atomic_saved at_saved[MODEL_ATOMIC_SAVED];
	uint32_t at_next;	/* slot the next executed atomic's result takes */
	bool sq_flush_done;	/* one SQ flush CQE written for this error */
	bool rq_flush_done;
	/* SRQ (gen3, model_srq.c): the device of the last peek, its WQE's wr_id, and the
	 * wr_id of the WQE taken last (its receive completion's) */
	struct model_dev *srq_dev;
	uint64_t srq_peek_wrid;
	uint64_t srq_wrid;
	/* UD: the send queue is in error (verbs SQE, model_ud.c): WQEs are flushed, not sent */
	bool ud_sqe;
	/*
	 * model_hdr_init()'s headers of this QP (opcode, PSN and IPv4 ID 0) as of context
	 * generation hdr_gen (model_dev.ctx_gen: the QP context and the ARP entry they come
	 * from change only with a CQP WQE); 0: never built.
	 */
	uint64_t hdr_gen;
	struct model_pkt_hdr hdr;
};

/* model_engine.c */
/** Attach the device's port (cfg.wire) and allocate the frame scratch. 0 or -errno. */
int model_engine_attach(struct model_dev *d);
/** Detach the port and free the scratch (safe when not attached). */
void model_engine_detach(struct model_dev *d);
/** One data-path round: receive, then timers, responder output and requester per QP. */
void model_engine_step(struct model_dev *d);
/** Put @p qp_id (with engine state) on the run list: the next round works on it. */
void model_engine_wake(struct model_dev *d, uint32_t qp_id);
/** Free the scheduling lists (the QP table goes away). */
void model_engine_free(struct model_dev *d);
/** An SQ doorbell for @p qp_id: mark the QP (counted; refused for no active QP). */
void model_engine_doorbell(struct model_dev *d, uint32_t qp_id);
/** MODIFY_QP moved @p qp_id from @p old to @p next: (re)start or stop its engine state. */
void model_engine_qp_state(struct model_dev *d, uint32_t qp_id, uint8_t old, uint8_t next);
/** Free the engine state of @p q (QP destroyed). */
void model_engine_qp_destroy(struct model_dev *d, struct model_qp *q);
/**
 * Write one flush CQE for the SQ (@p sq) and / or the RQ (@p rq) of @p qp_id when the queue
 * still holds work and was not flushed yet, with minor codes @p sq_code / @p rq_code.
 */
void model_engine_flush(struct model_dev *d, uint32_t qp_id, bool sq, bool rq,
			uint16_t sq_code, uint16_t rq_code);
/** QP @p qp_id when it exists and has engine state, else NULL. */
static inline struct model_qp *
model_engine_qp(struct model_dev *d, uint32_t qp_id)
{
	if (d->qp == NULL || qp_id >= d->qp_tab || !d->qp[qp_id].valid ||
	    d->qp[qp_id].eng == NULL)
		return NULL;
	return &d->qp[qp_id];
}
/** Move @p qp_id to error: AE @p ae from source @p src, then the flush CQEs. */
void model_qp_fail(struct model_dev *d, uint32_t qp_id, uint32_t ae, uint32_t src);
/** The timer (rte_get_timer_cycles). */
uint64_t model_now(void);
/** Local ACK timeout 4.096 us << @p timeout in timer cycles; 0 (infinite) for 0. */
uint64_t model_rto_of(uint32_t timeout);
/** The retransmit timeout of @p q in timer cycles (QPC_RTOMIN; 0: infinite). */
uint64_t model_rto_cycles(const struct model_qp *q);
/** The retransmit deadline of @p q for a timer started at @p now (0: none, infinite). */
uint64_t model_rc_deadline(const struct model_qp *q, uint64_t now);
/** The RNR NAK timer of AETH timer field @p code (IBA table 45) in timer cycles. */
uint64_t model_rnr_cycles(uint32_t code);
/**
 * Fill @p h for a packet of @p q: addresses, ports, P_Key, destination QP, @p psn, the next
 * IPv4 ID. What comes from the QP context and the ARP table is decoded once per context
 * generation (model_qpe.hdr) and copied from there.
 */
void model_hdr_init(struct model_dev *d, const struct model_qp *q, struct model_pkt_hdr *h,
		    uint8_t opcode, uint32_t psn);
/**
 * The headers of packets of @p q that come from its context (model_hdr_init() copies them;
 * decoded again when the context generation moved). @p q must have its engine state.
 */
const struct model_pkt_hdr *model_hdr_tmpl(struct model_dev *d, const struct model_qp *q);
/**
 * Build and send one frame of @p q (counted, also into its statistics instance). 0, or the
 * codec's / port's -errno; -ENOBUFS means the wire's queue is full and the frame was not
 * sent (nor counted): RC callers keep it for the next round.
 */
int model_tx(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h,
	     const void *payload, uint32_t len);
/**
 * Build the headers of a frame of @p len payload bytes from @p h into the device's frame
 * buffer: the payload goes at the address returned, then model_tx_commit() sends it. NULL
 * when the frame cannot be built (counted and logged, as model_tx()).
 */
uint8_t *model_tx_prep(struct model_dev *d, const struct model_pkt_hdr *h, uint32_t len);
/** Send the frame model_tx_prep() built, as model_tx() does (the same returns). */
int model_tx_commit(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h);
/**
 * model_tx_commit() of a frame model_tx_prep() built from the first packet's header @p h
 * with the payload of all @p tr->count packets of train @p tr (tr->bytes is filled in
 * here): sent with model_port_send_train(), counted as the frames it stands for.
 */
int model_tx_commit_train(struct model_dev *d, struct model_qp *q,
			  const struct model_pkt_hdr *h, const struct model_pkt_train *tr);
/** Retire SQ WQE @p w: the HW SQ tail, and a CQE when it is signaled. */
void model_sq_cqe(struct model_dev *d, uint32_t qp_id, const struct model_wqe *w);
/** One flush CQE for SQ WQE @p idx (op @p op, minor @p code); the driver replays from it. */
void model_sq_flush_cqe(struct model_dev *d, struct model_qp *q, uint32_t qp_id, uint32_t idx,
			uint8_t op, uint16_t code);
/** Write the HW SQ tail @p tail into the QP shadow area (qword 0, 14:0). */
void model_sq_tail_update(struct model_dev *d, const struct model_qp *q, uint32_t tail);

/* PSN arithmetic (24 bits): a - b as a signed distance. */
static inline int32_t
model_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static inline uint32_t
model_psn_add(uint32_t a, uint32_t n)
{
	return (a + n) & 0xffffffu;
}

/* model_sq.c */
/**
 * Fetch, decode and validate the SQ WQE at the QP's fetch index into @p w.
 * @return 1 (taken), 0 (not valid yet: no work, @p w untouched), -1 (refused: *ae set, not
 * taken).
 */
int model_sq_fetch(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		   struct model_wqe *w, uint32_t *ae);
/** Gather @p len payload bytes of @p w from offset @p off into @p buf: 0 or an AE code. */
int model_gather(struct model_dev *d, const struct model_qp *q, const struct model_wqe *w,
		 uint32_t off, void *buf, uint32_t len);
/** Execute local operation @p w (NOP, LOCAL_INV, FAST_REG): 0 or an AE code. */
uint32_t model_local_op(struct model_dev *d, const struct model_qp *q,
			const struct model_wqe *w);

/* model_rq.c */
/**
 * Decode and check the RQ WQE at the fetch index without taking it: fragments into @p frag,
 * its index (quanta) into @p idx. @return 1, 0 (none posted) or -1 (refused: *ae set).
 */
int model_rq_peek(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		  struct model_frag *frag, uint8_t *nfrags, uint32_t *idx, uint32_t *ae);
/** Take the RQ WQE model_rq_peek() returned (advance, flip the polarity at the wrap). */
void model_rq_consume(struct model_qp *q);
/** Scatter @p len bytes at offset @p off of the fragments: 0 or an AE code. */
uint32_t model_scatter(struct model_dev *d, const struct model_qp *q,
		       const struct model_frag *frag, uint8_t nfrags, uint32_t off,
		       const void *buf, uint32_t len);
/** Total bytes of @p nfrags fragments (saturated). */
uint32_t model_frags_len(const struct model_frag *frag, uint8_t nfrags);
/** What a receive completion reports. */
struct model_rq_cqe {
	uint32_t idx;		/* RQ WQE index in quanta */
	uint32_t len;
	uint8_t op;		/* IBA opcode received */
	bool imm_valid;
	uint32_t imm;		/* host order */
	bool inv_valid;
	uint32_t inv_stag;
	bool solicited;
	/* UD */
	bool ud;
	uint32_t src_qpn;
	uint8_t smac[6];
	bool ipv4;
	bool vlan_valid;
	uint16_t vlan;
};
/** Write the receive completion @p c (extended when it carries an immediate or is UD). */
void model_rq_cqe(struct model_dev *d, uint32_t qp_id, const struct model_rq_cqe *c);

/* model_srq.c */
/** model_rq_peek() for a QP that uses an SRQ: the SRQ's next posted WQE. */
int model_srq_peek(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		   struct model_frag *frag, uint8_t *nfrags, uint32_t *idx, uint32_t *ae);
/** model_rq_consume() for an SRQ QP: take the peeked WQE; the limit AE when it fires. */
void model_srq_consume(struct model_qp *q);
/** The SRQ parts of a receive completion of @p q: wr_id, CQE_SRQ, the QP in the extension. */
void model_srq_cqe_fill(const struct model_qp *q, struct irdma_cqe *cqe,
			struct irdma_cqe_ext *ext);
/** The flush CQE of the SRQ WQE @p q had taken (index @p idx), minor code @p code. */
void model_srq_flush_cqe(struct model_dev *d, uint32_t qp_id, struct model_qp *q, uint32_t idx,
			 uint16_t code);

/* Path MTU of a QP: QPC_SNDMSS rounded down to 256 .. 4096 (a power of two). */
static inline uint32_t
model_rc_mtu(const struct model_qp *q)
{
	if (q->mss >= 4096)
		return 4096;
	if (q->mss < 512)
		return 256;
	return 1u << (31 - __builtin_clz(q->mss));	/* the largest power of 2 <= mss */
}

/* PSNs a message of @p len bytes takes at MTU @p mtu (at least one). */
static inline uint32_t
model_pkts_of(uint32_t len, uint32_t mtu)
{
	return len == 0 ? 1 : (len + mtu - 1) / mtu;
}

/* model_rc_resp.c */
/** A request packet (SEND / WRITE / READ / other) at the responder of @p q. */
void model_rc_request(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		      const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len);
/** Responder output of @p q: read responses, then the coalesced ACK / NAK. */
void model_rc_resp_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q);
/*
 * The plain ACK a WRITE stream's coalescing still holds back, sent now: when the QP leaves
 * RTR / RTS / SQD or is destroyed, so that the requester completes what the responder
 * executed (silicon would have sent it long before). Nothing while read responses wait.
 */
void model_rc_resp_ack_flush(struct model_dev *d, struct model_qp *q);

/* model_rc.c */
/** RC output of @p q: responder output, SQ fetch, requester packets. */
void model_rc_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q);
/** An RC packet for @p q: to the completer (ACK, read response) or the responder. */
void model_rc_rx(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		 const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len);
/** The retransmit and RNR timers of @p q at time @p now. */
void model_rc_timer(struct model_dev *d, uint32_t qp_id, struct model_qp *q, uint64_t now);

/* model_ud.c */
/** UD output of @p q: every WQE its SQ holds, one packet each. */
void model_ud_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q);
/**
 * MODIFY_QP to RTS of UD QP @p q: from SQE (a send error) the WQEs still posted are flushed
 * and the send queue runs again (verbs SQE -> RTS).
 */
void model_ud_sq_resume(struct model_dev *d, uint32_t qp_id, struct model_qp *q);
/** A UD packet for @p q: Q_Key, RQ WQE, scatter, completion. */
void model_ud_rx(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
		 const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len);

#endif /* IRDMA_MODEL_ENGINE_H */
