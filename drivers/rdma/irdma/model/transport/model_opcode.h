/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_OPCODE_H
#define IRDMA_MODEL_OPCODE_H

/*
 * The model's protocol knowledge in two tables (internal to model/), read by every check:
 *
 *  - model_bth_ops[256], one row per BTH opcode (IBA vol. 1 table 38 "OpCode field"): its
 *    place in a message (first / middle / last / only), request or response, the operation
 *    (SEND / WRITE / READ / atomic / ACK), immediate or invalidate, the extension headers
 *    after the BTH (MODEL_HDR_* of model_pkt.h, with PAYLOAD), the QP types it belongs to.
 *    A row with no MODEL_OPQ_* bit is an opcode the model does not implement (UC, RD, CNP,
 *    reserved): the packet parser refuses it.
 *  - model_wqe_ops[64], one row per irdma SQ WQE opcode (SQ_OPCODE): the BTH opcodes it
 *    produces on RC (by place in the message, plain and with immediate), whether it carries
 *    fragments, a remote address / R_Key, an invalidate STag, is a READ / atomic / local
 *    operation, the QP types that may post it and the first generation that has it.
 *
 * Adding an opcode is a row here and a handler in the requester or the responder.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_cqp_fmt.h"
#include "model_pkt.h"

/** QP types of an opcode row (model_bth_op.qp_types, model_wqe_op.qp_types): bit n, type n. */
#define MODEL_OPQ_RC		(1u << IRDMA_QP_TYPE_ROCE_RC)	/**< reliable connected */
#define MODEL_OPQ_UD		(1u << IRDMA_QP_TYPE_ROCE_UD)	/**< unreliable datagram */

/** Properties of a BTH opcode (model_bth_op.flags). */
#define MODEL_OPF_FIRST		(1u << 0)	/**< first packet of a message (ONLY: FIRST | LAST) */
#define MODEL_OPF_LAST		(1u << 1)	/**< last packet of a message */
#define MODEL_OPF_REQ		(1u << 2)	/**< sent by a requester */
#define MODEL_OPF_RESP		(1u << 3)	/**< sent by a responder */
#define MODEL_OPF_SEND		(1u << 4)	/**< a SEND */
#define MODEL_OPF_WRITE		(1u << 5)	/**< an RDMA WRITE */
#define MODEL_OPF_READ		(1u << 6)	/**< an RDMA READ request or response */
#define MODEL_OPF_ATOMIC	(1u << 7)	/**< an atomic request or its acknowledge */
#define MODEL_OPF_IMM		(1u << 8)	/**< with immediate data */
#define MODEL_OPF_INV		(1u << 9)	/**< with invalidate */
#define MODEL_OPF_ACK		(1u << 10)	/**< an ACK / NAK (AETH only) */

/** One BTH opcode. */
struct model_bth_op {
	const char *name;	/**< IBA name, NULL for an opcode the model does not know */
	uint16_t flags;		/**< MODEL_OPF_* */
	uint16_t hdrs;		/**< MODEL_HDR_* after the BTH (MODEL_HDR_VALID not included) */
	uint8_t qp_types;	/**< MODEL_OPQ_* (0: not implemented) */
};

/** The BTH opcode table, indexed by the BTH opcode. */
extern const struct model_bth_op model_bth_ops[256];

/** Whether BTH opcode @p op has all the MODEL_OPF_* bits @p f. */
static inline bool
model_bth_is(uint8_t op, uint16_t f)
{
	return (model_bth_ops[op].flags & f) == f;
}

/** Whether the MODEL_OPQ_* set @p types holds irdma QP type @p qp_type. */
static inline bool
model_opq_has(uint8_t types, uint8_t qp_type)
{
	return qp_type < 8 && ((types >> qp_type) & 1u) != 0;
}

/** Whether a QP of irdma type @p qp_type (IRDMA_QP_TYPE_ROCE_*) takes BTH opcode @p op. */
static inline bool
model_bth_allowed(uint8_t qp_type, uint8_t op)
{
	return model_opq_has(model_bth_ops[op].qp_types, qp_type);
}

/** Properties of an SQ WQE opcode (model_wqe_op.flags). */
#define MODEL_WQF_DATA		(1u << 0)	/**< carries fragments or inline data */
#define MODEL_WQF_REMOTE	(1u << 1)	/**< remote address and R_Key (SQ_REMOTE_TO / REMSTAG) */
#define MODEL_WQF_INV		(1u << 2)	/**< an STag to invalidate (SQ_INV_STAG) */
#define MODEL_WQF_READ		(1u << 3)	/**< an RDMA READ */
#define MODEL_WQF_ATOMIC	(1u << 4)	/**< an atomic */
#define MODEL_WQF_LOCAL		(1u << 5)	/**< executed locally, sends nothing */
#define MODEL_WQF_SOLICITED	(1u << 6)	/**< sets the solicited event bit */
#define MODEL_WQF_WRITE		(1u << 7)	/**< an RDMA WRITE */

/** Index into model_wqe_op.bth: the packet's place in its message. */
#define MODEL_WQE_BTH_IDX(first, last)	((first) ? ((last) ? 3 : 1) : ((last) ? 2 : 0))

/** One SQ WQE opcode. */
struct model_wqe_op {
	const char *name;	/**< irdma name, NULL for an opcode the model refuses */
	uint8_t flags;		/**< MODEL_WQF_* */
	uint8_t qp_types;	/**< MODEL_OPQ_* that may post it (0: refused everywhere) */
	uint8_t min_gen;	/**< first IRDMA_GEN_* that has it */
	/** RC BTH opcodes by MODEL_WQE_BTH_IDX() (middle, first, last, only): plain, with imm. */
	uint8_t bth[2][4];
};

/** The SQ WQE opcode table, indexed by SQ_OPCODE (6 bits). */
extern const struct model_wqe_op model_wqe_ops[64];

/** Whether SQ WQE opcode @p op has all the MODEL_WQF_* bits @p f. */
static inline bool
model_wqe_is(uint8_t op, uint8_t f)
{
	return (model_wqe_ops[op & 63].flags & f) == f;
}

/** Whether a QP of type @p qp_type on a generation @p gen device may post WQE opcode @p op. */
static inline bool
model_wqe_allowed(uint8_t gen, uint8_t qp_type, uint8_t op)
{
	const struct model_wqe_op *w = &model_wqe_ops[op & 63];

	return model_opq_has(w->qp_types, qp_type) && gen >= w->min_gen;
}

/**
 * The BTH opcode packet (@p first, @p last) of a message of WQE opcode @p op carries on a
 * QP of type @p qp_type, @p imm with immediate data. UD sends are ONLY packets: the SEND
 * ONLY row with the UD transport bits (IBA: opcode bits 7:5).
 */
static inline uint8_t
model_wqe_bth(uint8_t qp_type, uint8_t op, bool imm, bool first, bool last)
{
	const struct model_wqe_op *w = &model_wqe_ops[op & 63];

	if (qp_type == IRDMA_QP_TYPE_ROCE_UD)
		return (uint8_t)(MODEL_UD_SEND_ONLY - MODEL_RC_SEND_ONLY + w->bth[imm][3]);
	return w->bth[imm][MODEL_WQE_BTH_IDX(first, last)];
}

#endif /* IRDMA_MODEL_OPCODE_H */
