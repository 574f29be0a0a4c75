/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The BTH and SQ WQE opcode tables of the device model (model_opcode.h).
 */

#include "model_opcode.h"

#include "irdma_cqp.h"
#include "irdma_limits.h"
#include "irdma_wqe.h"

/* Row shorthands: place in the message, then the operation. */
#define FIRST	MODEL_OPF_FIRST
#define LAST	MODEL_OPF_LAST
#define ONLY	(MODEL_OPF_FIRST | MODEL_OPF_LAST)
#define REQ	MODEL_OPF_REQ
#define RESP	MODEL_OPF_RESP
#define PAYLOAD	MODEL_HDR_PAYLOAD
#define RC	MODEL_OPQ_RC
#define UD	MODEL_OPQ_UD

#define OP(n, f, h, t)	{ .name = (n), .flags = (uint16_t)(f), .hdrs = (uint16_t)(h), .qp_types = (t) }
#define SEND(n, f, h)	OP(n, REQ | MODEL_OPF_SEND | (f), (h) | PAYLOAD, RC)
#define WRITE(n, f, h)	OP(n, REQ | MODEL_OPF_WRITE | (f), (h) | PAYLOAD, RC)

const struct model_bth_op model_bth_ops[256] = {
	[MODEL_RC_SEND_FIRST]	   = SEND("RC_SEND_FIRST", FIRST, 0),
	[MODEL_RC_SEND_MIDDLE]	   = SEND("RC_SEND_MIDDLE", 0, 0),
	[MODEL_RC_SEND_LAST]	   = SEND("RC_SEND_LAST", LAST, 0),
	[MODEL_RC_SEND_LAST_IMM]   = SEND("RC_SEND_LAST_IMM", LAST | MODEL_OPF_IMM,
					  MODEL_HDR_IMMDT),
	[MODEL_RC_SEND_ONLY]	   = SEND("RC_SEND_ONLY", ONLY, 0),
	[MODEL_RC_SEND_ONLY_IMM]   = SEND("RC_SEND_ONLY_IMM", ONLY | MODEL_OPF_IMM,
					  MODEL_HDR_IMMDT),
	[MODEL_RC_WRITE_FIRST]	   = WRITE("RC_WRITE_FIRST", FIRST, MODEL_HDR_RETH),
	[MODEL_RC_WRITE_MIDDLE]	   = WRITE("RC_WRITE_MIDDLE", 0, 0),
	[MODEL_RC_WRITE_LAST]	   = WRITE("RC_WRITE_LAST", LAST, 0),
	[MODEL_RC_WRITE_LAST_IMM]  = WRITE("RC_WRITE_LAST_IMM", LAST | MODEL_OPF_IMM,
					   MODEL_HDR_IMMDT),
	[MODEL_RC_WRITE_ONLY]	   = WRITE("RC_WRITE_ONLY", ONLY, MODEL_HDR_RETH),
	[MODEL_RC_WRITE_ONLY_IMM]  = WRITE("RC_WRITE_ONLY_IMM", ONLY | MODEL_OPF_IMM,
					   MODEL_HDR_RETH | MODEL_HDR_IMMDT),
	[MODEL_RC_READ_REQ]	   = OP("RC_READ_REQ", ONLY | REQ | MODEL_OPF_READ,
					MODEL_HDR_RETH, RC),
	[MODEL_RC_READ_RESP_FIRST] = OP("RC_READ_RESP_FIRST", FIRST | RESP | MODEL_OPF_READ,
					MODEL_HDR_AETH | PAYLOAD, RC),
	[MODEL_RC_READ_RESP_MIDDLE] = OP("RC_READ_RESP_MIDDLE", RESP | MODEL_OPF_READ,
					 PAYLOAD, RC),
	[MODEL_RC_READ_RESP_LAST]  = OP("RC_READ_RESP_LAST", LAST | RESP | MODEL_OPF_READ,
					MODEL_HDR_AETH | PAYLOAD, RC),
	[MODEL_RC_READ_RESP_ONLY]  = OP("RC_READ_RESP_ONLY", ONLY | RESP | MODEL_OPF_READ,
					MODEL_HDR_AETH | PAYLOAD, RC),
	[MODEL_RC_ACK]		   = OP("RC_ACK", ONLY | RESP | MODEL_OPF_ACK, MODEL_HDR_AETH, RC),
	[MODEL_RC_ATOMIC_ACK]	   = OP("RC_ATOMIC_ACK", ONLY | RESP | MODEL_OPF_ATOMIC,
					MODEL_HDR_AETH | MODEL_HDR_ATOMICACKETH, RC),
	[MODEL_RC_CMP_SWAP]	   = OP("RC_CMP_SWAP", ONLY | REQ | MODEL_OPF_ATOMIC,
					MODEL_HDR_ATOMICETH, RC),
	[MODEL_RC_FETCH_ADD]	   = OP("RC_FETCH_ADD", ONLY | REQ | MODEL_OPF_ATOMIC,
					MODEL_HDR_ATOMICETH, RC),
	[MODEL_RC_SEND_LAST_INV]   = SEND("RC_SEND_LAST_INV", LAST | MODEL_OPF_INV,
					  MODEL_HDR_IETH),
	[MODEL_RC_SEND_ONLY_INV]   = SEND("RC_SEND_ONLY_INV", ONLY | MODEL_OPF_INV,
					  MODEL_HDR_IETH),
	[MODEL_UD_SEND_ONLY]	   = OP("UD_SEND_ONLY", ONLY | REQ | MODEL_OPF_SEND,
					MODEL_HDR_DETH | PAYLOAD, UD),
	[MODEL_UD_SEND_ONLY_IMM]   = OP("UD_SEND_ONLY_IMM",
					ONLY | REQ | MODEL_OPF_SEND | MODEL_OPF_IMM,
					MODEL_HDR_DETH | MODEL_HDR_IMMDT | PAYLOAD, UD),
};

#undef SEND
#undef WRITE
#undef OP

bool
model_bth_allowed(uint8_t qp_type, uint8_t op)
{
	uint8_t t = qp_type == IRDMA_QP_TYPE_ROCE_RC ? RC :
		    qp_type == IRDMA_QP_TYPE_ROCE_UD ? UD : 0;

	return (model_bth_ops[op].qp_types & t) != 0;
}

/* WQE rows: the four RC BTH opcodes of a message (middle, first, last, only). */
#define BTH4(m, f, l, o)	{ MODEL_RC_##m, MODEL_RC_##f, MODEL_RC_##l, MODEL_RC_##o }
#define SEND_BTH	{ BTH4(SEND_MIDDLE, SEND_FIRST, SEND_LAST, SEND_ONLY), \
			  BTH4(SEND_MIDDLE, SEND_FIRST, SEND_LAST_IMM, SEND_ONLY_IMM) }
/* With invalidate: an immediate is not sent (the IETH takes its place). */
#define SEND_INV_BTH	{ BTH4(SEND_MIDDLE, SEND_FIRST, SEND_LAST_INV, SEND_ONLY_INV), \
			  BTH4(SEND_MIDDLE, SEND_FIRST, SEND_LAST_INV, SEND_ONLY_INV) }
#define WRITE_BTH	{ BTH4(WRITE_MIDDLE, WRITE_FIRST, WRITE_LAST, WRITE_ONLY), \
			  BTH4(WRITE_MIDDLE, WRITE_FIRST, WRITE_LAST_IMM, WRITE_ONLY_IMM) }
#define ONE_BTH(o)	{ BTH4(o, o, o, o), BTH4(o, o, o, o) }
#define W_DATA		MODEL_WQF_DATA
#define W_SOL		MODEL_WQF_SOLICITED

#define WOP(n, f, t, g, b) { .name = (n), .flags = (uint8_t)(f), .qp_types = (t), \
			     .min_gen = (g), .bth = b }
/* A local operation: no BTH opcode. */
#define LOP(n, t, g)	{ .name = (n), .flags = MODEL_WQF_LOCAL, .qp_types = (t), .min_gen = (g) }

const struct model_wqe_op model_wqe_ops[64] = {
	[IRDMA_OP_RDMA_WRITE]		= WOP("RDMA_WRITE", W_DATA | MODEL_WQF_REMOTE |
					      MODEL_WQF_WRITE, RC, IRDMA_GEN_2, WRITE_BTH),
	[IRDMA_OP_RDMA_WRITE_SOL]	= WOP("RDMA_WRITE_SOL", W_DATA | MODEL_WQF_REMOTE |
					      MODEL_WQF_WRITE | W_SOL, RC, IRDMA_GEN_2,
					      WRITE_BTH),
	[IRDMA_OP_RDMA_READ]		= WOP("RDMA_READ", W_DATA | MODEL_WQF_REMOTE |
					      MODEL_WQF_READ, RC, IRDMA_GEN_2,
					      ONE_BTH(READ_REQ)),
	[IRDMA_OP_RDMA_READ_LOC_INV]	= WOP("RDMA_READ_LOC_INV", W_DATA | MODEL_WQF_REMOTE |
					      MODEL_WQF_READ, RC, IRDMA_GEN_2,
					      ONE_BTH(READ_REQ)),
	[IRDMA_OP_RDMA_SEND]		= WOP("RDMA_SEND", W_DATA, RC | UD, IRDMA_GEN_2,
					      SEND_BTH),
	[IRDMA_OP_RDMA_SEND_SOL_EVENT]	= WOP("RDMA_SEND_SOL_EVENT", W_DATA | W_SOL, RC | UD,
					      IRDMA_GEN_2, SEND_BTH),
	[IRDMA_OP_RDMA_SEND_INV]	= WOP("RDMA_SEND_INV", W_DATA | MODEL_WQF_INV, RC,
					      IRDMA_GEN_2, SEND_INV_BTH),
	[IRDMA_OP_RDMA_SEND_SOL_EVENT_INV] = WOP("RDMA_SEND_SOL_EVENT_INV", W_DATA | W_SOL |
						 MODEL_WQF_INV, RC, IRDMA_GEN_2, SEND_INV_BTH),
	[IRDMA_OP_ATOMIC_FETCH_ADD]	= WOP("ATOMIC_FETCH_ADD", MODEL_WQF_ATOMIC, RC,
					      IRDMA_GEN_3, ONE_BTH(FETCH_ADD)),
	[IRDMA_OP_ATOMIC_COMPARE_SWAP]	= WOP("ATOMIC_COMPARE_SWAP", MODEL_WQF_ATOMIC, RC,
					      IRDMA_GEN_3, ONE_BTH(CMP_SWAP)),
	[IRDMA_OP_NOP]			= LOP("NOP", RC | UD, IRDMA_GEN_2),
	[IRDMA_OP_LOCAL_INVALIDATE]	= LOP("LOCAL_INVALIDATE", RC, IRDMA_GEN_2),
	[IRDMA_OP_FAST_REGISTER]	= LOP("FAST_REGISTER", RC, IRDMA_GEN_2),
	[IRDMA_OP_BIND_MW]		= LOP("BIND_MW", RC, IRDMA_GEN_3),
};

bool
model_wqe_allowed(uint8_t gen, uint8_t qp_type, uint8_t op)
{
	const struct model_wqe_op *w = &model_wqe_ops[op & 63];
	uint8_t t = qp_type == IRDMA_QP_TYPE_ROCE_RC ? RC :
		    qp_type == IRDMA_QP_TYPE_ROCE_UD ? UD : 0;

	return (w->qp_types & t) != 0 && gen >= w->min_gen;
}

uint8_t
model_wqe_bth(uint8_t qp_type, uint8_t op, bool imm, bool first, bool last)
{
	const struct model_wqe_op *w = &model_wqe_ops[op & 63];

	/* UD: the SEND ONLY row with the UD transport prefix (IBA: opcode bits 7:5). */
	if (qp_type == IRDMA_QP_TYPE_ROCE_UD)
		return (uint8_t)(MODEL_UD_SEND_ONLY - MODEL_RC_SEND_ONLY + w->bth[imm][3]);
	return w->bth[imm][MODEL_WQE_BTH_IDX(first, last)];
}
