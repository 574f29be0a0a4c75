/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's opcode tables (model/transport/model_opcode.c) against lists written here from the
 * specifications, not from the model:
 *  - every BTH opcode of IBA vol. 1 table 38 ("OpCode field"): transport, place in the
 *    message, operation, the headers after the BTH. The model implements the RC and UD rows
 *    exactly; every other opcode (UC, RD, CNP, reserved) is unknown to it and its parser;
 *  - which QP type takes which BTH opcode: RC opcodes only at RC QPs, UD ones only at UD;
 *  - every irdma SQ WQE opcode (kernel irdma defs.h IRDMAQP_OP_*): the QP types and
 *    generations that may post it, what it carries, and the BTH opcode of each packet.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_common.h>

#include "irdma_cqp_fmt.h"
#include "irdma_limits.h"
#include "irdma_wqe.h"
#include "model_opcode.h"
#include "test.h"

/* Transports of the opcode's bits 7:5 (IBA 9.2.1). */
enum spec_tp { TP_RC, TP_UC, TP_RD, TP_UD, TP_CNP };

/* Place in a message. */
enum spec_pos { P_FIRST, P_MIDDLE, P_LAST, P_ONLY };

/* Operations. */
enum spec_kind { K_SEND, K_WRITE, K_READ_REQ, K_READ_RESP, K_ACK, K_ATOMIC_ACK, K_ATOMIC,
		 K_RESYNC, K_CNP };

/* One row of table 38 with its header list (IBA 9.2 and the per-opcode header tables). */
struct spec_op {
	uint8_t op;
	enum spec_tp tp;
	enum spec_kind kind;
	enum spec_pos pos;
	const char *hdrs;	/* extension headers after the BTH, in wire order */
	bool payload;		/* the packet may carry a payload */
	bool imm, inv;
};

#define S(o, t, k, p, h, pl, im, iv) { o, t, k, p, h, pl, im, iv }

static const struct spec_op spec[] = {
	/* Reliable Connection */
	S(0x00, TP_RC, K_SEND, P_FIRST, "", true, false, false),
	S(0x01, TP_RC, K_SEND, P_MIDDLE, "", true, false, false),
	S(0x02, TP_RC, K_SEND, P_LAST, "", true, false, false),
	S(0x03, TP_RC, K_SEND, P_LAST, "ImmDt", true, true, false),
	S(0x04, TP_RC, K_SEND, P_ONLY, "", true, false, false),
	S(0x05, TP_RC, K_SEND, P_ONLY, "ImmDt", true, true, false),
	S(0x06, TP_RC, K_WRITE, P_FIRST, "RETH", true, false, false),
	S(0x07, TP_RC, K_WRITE, P_MIDDLE, "", true, false, false),
	S(0x08, TP_RC, K_WRITE, P_LAST, "", true, false, false),
	S(0x09, TP_RC, K_WRITE, P_LAST, "ImmDt", true, true, false),
	S(0x0a, TP_RC, K_WRITE, P_ONLY, "RETH", true, false, false),
	S(0x0b, TP_RC, K_WRITE, P_ONLY, "RETH ImmDt", true, true, false),
	S(0x0c, TP_RC, K_READ_REQ, P_ONLY, "RETH", false, false, false),
	S(0x0d, TP_RC, K_READ_RESP, P_FIRST, "AETH", true, false, false),
	S(0x0e, TP_RC, K_READ_RESP, P_MIDDLE, "", true, false, false),
	S(0x0f, TP_RC, K_READ_RESP, P_LAST, "AETH", true, false, false),
	S(0x10, TP_RC, K_READ_RESP, P_ONLY, "AETH", true, false, false),
	S(0x11, TP_RC, K_ACK, P_ONLY, "AETH", false, false, false),
	S(0x12, TP_RC, K_ATOMIC_ACK, P_ONLY, "AETH AtomicAckETH", false, false, false),
	S(0x13, TP_RC, K_ATOMIC, P_ONLY, "AtomicETH", false, false, false),
	S(0x14, TP_RC, K_ATOMIC, P_ONLY, "AtomicETH", false, false, false),
	S(0x16, TP_RC, K_SEND, P_LAST, "IETH", true, false, true),
	S(0x17, TP_RC, K_SEND, P_ONLY, "IETH", true, false, true),
	/* Unreliable Connection */
	S(0x20, TP_UC, K_SEND, P_FIRST, "", true, false, false),
	S(0x21, TP_UC, K_SEND, P_MIDDLE, "", true, false, false),
	S(0x22, TP_UC, K_SEND, P_LAST, "", true, false, false),
	S(0x23, TP_UC, K_SEND, P_LAST, "ImmDt", true, true, false),
	S(0x24, TP_UC, K_SEND, P_ONLY, "", true, false, false),
	S(0x25, TP_UC, K_SEND, P_ONLY, "ImmDt", true, true, false),
	S(0x26, TP_UC, K_WRITE, P_FIRST, "RETH", true, false, false),
	S(0x27, TP_UC, K_WRITE, P_MIDDLE, "", true, false, false),
	S(0x28, TP_UC, K_WRITE, P_LAST, "", true, false, false),
	S(0x29, TP_UC, K_WRITE, P_LAST, "ImmDt", true, true, false),
	S(0x2a, TP_UC, K_WRITE, P_ONLY, "RETH", true, false, false),
	S(0x2b, TP_UC, K_WRITE, P_ONLY, "RETH ImmDt", true, true, false),
	/* Reliable Datagram (RDETH first, then DETH on requests) */
	S(0x40, TP_RD, K_SEND, P_FIRST, "RDETH DETH", true, false, false),
	S(0x41, TP_RD, K_SEND, P_MIDDLE, "RDETH DETH", true, false, false),
	S(0x42, TP_RD, K_SEND, P_LAST, "RDETH DETH", true, false, false),
	S(0x43, TP_RD, K_SEND, P_LAST, "RDETH DETH ImmDt", true, true, false),
	S(0x44, TP_RD, K_SEND, P_ONLY, "RDETH DETH", true, false, false),
	S(0x45, TP_RD, K_SEND, P_ONLY, "RDETH DETH ImmDt", true, true, false),
	S(0x46, TP_RD, K_WRITE, P_FIRST, "RDETH DETH RETH", true, false, false),
	S(0x47, TP_RD, K_WRITE, P_MIDDLE, "RDETH DETH", true, false, false),
	S(0x48, TP_RD, K_WRITE, P_LAST, "RDETH DETH", true, false, false),
	S(0x49, TP_RD, K_WRITE, P_LAST, "RDETH DETH ImmDt", true, true, false),
	S(0x4a, TP_RD, K_WRITE, P_ONLY, "RDETH DETH RETH", true, false, false),
	S(0x4b, TP_RD, K_WRITE, P_ONLY, "RDETH DETH RETH ImmDt", true, true, false),
	S(0x4c, TP_RD, K_READ_REQ, P_ONLY, "RDETH DETH RETH", false, false, false),
	S(0x4d, TP_RD, K_READ_RESP, P_FIRST, "RDETH AETH", true, false, false),
	S(0x4e, TP_RD, K_READ_RESP, P_MIDDLE, "RDETH", true, false, false),
	S(0x4f, TP_RD, K_READ_RESP, P_LAST, "RDETH AETH", true, false, false),
	S(0x50, TP_RD, K_READ_RESP, P_ONLY, "RDETH AETH", true, false, false),
	S(0x51, TP_RD, K_ACK, P_ONLY, "RDETH AETH", false, false, false),
	S(0x52, TP_RD, K_ATOMIC_ACK, P_ONLY, "RDETH AETH AtomicAckETH", false, false, false),
	S(0x53, TP_RD, K_ATOMIC, P_ONLY, "RDETH DETH AtomicETH", false, false, false),
	S(0x54, TP_RD, K_ATOMIC, P_ONLY, "RDETH DETH AtomicETH", false, false, false),
	S(0x55, TP_RD, K_RESYNC, P_ONLY, "RDETH DETH", false, false, false),
	/* Unreliable Datagram */
	S(0x64, TP_UD, K_SEND, P_ONLY, "DETH", true, false, false),
	S(0x65, TP_UD, K_SEND, P_ONLY, "DETH ImmDt", true, true, false),
	/* Congestion notification (RoCEv2 annex A17) */
	S(0x81, TP_CNP, K_CNP, P_ONLY, "", false, false, false),
};

static const struct spec_op *
spec_of(unsigned int op)
{
	for (size_t i = 0; i < RTE_DIM(spec); i++)
		if (spec[i].op == op)
			return &spec[i];
	return NULL;
}

/* Whether header @p name is in the space-separated list @p hdrs. */
static bool
has_hdr(const char *hdrs, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = hdrs; (p = strstr(p, name)) != NULL; p += n)
		if ((p == hdrs || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

/* The MODEL_HDR_* set the spec row's header list names. */
static uint32_t
spec_hdrs(const struct spec_op *s)
{
	return (has_hdr(s->hdrs, "RETH") ? MODEL_HDR_RETH : 0) |
	       (has_hdr(s->hdrs, "AETH") ? MODEL_HDR_AETH : 0) |
	       (has_hdr(s->hdrs, "ImmDt") ? MODEL_HDR_IMMDT : 0) |
	       (has_hdr(s->hdrs, "IETH") ? MODEL_HDR_IETH : 0) |
	       (has_hdr(s->hdrs, "DETH") ? MODEL_HDR_DETH : 0) |
	       (has_hdr(s->hdrs, "AtomicETH") ? MODEL_HDR_ATOMICETH : 0) |
	       (has_hdr(s->hdrs, "AtomicAckETH") ? MODEL_HDR_ATOMICACKETH : 0) |
	       (s->payload ? MODEL_HDR_PAYLOAD : 0);
}

/* The model implements RC and UD. */
static bool
spec_implemented(const struct spec_op *s)
{
	return s != NULL && (s->tp == TP_RC || s->tp == TP_UD);
}

/* Every BTH opcode row against table 38. */
static void
test_bth_rows(void)
{
	unsigned int known = 0;

	for (unsigned int op = 0; op < 256; op++) {
		const struct spec_op *s = spec_of(op);
		const struct model_bth_op *m = &model_bth_ops[op];
		uint16_t f = m->flags;
		bool req;

		if (!spec_implemented(s)) {
			TEST_CHECK_EQ(m->qp_types, 0);
			TEST_CHECK(m->name == NULL);
			TEST_CHECK_EQ(model_bth_hdrs((uint8_t)op), 0);
			continue;
		}
		known++;
		TEST_CHECK(m->name != NULL);
		TEST_CHECK_EQ(m->qp_types, s->tp == TP_RC ? MODEL_OPQ_RC : MODEL_OPQ_UD);
		TEST_CHECK_EQ(m->hdrs, spec_hdrs(s));
		TEST_CHECK_EQ(model_bth_hdrs((uint8_t)op), spec_hdrs(s) | MODEL_HDR_VALID);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_FIRST), s->pos == P_FIRST || s->pos == P_ONLY);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_LAST), s->pos == P_LAST || s->pos == P_ONLY);
		req = s->kind == K_SEND || s->kind == K_WRITE || s->kind == K_READ_REQ ||
		      s->kind == K_ATOMIC;
		TEST_CHECK_EQ(!!(f & MODEL_OPF_REQ), req);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_RESP), !req);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_SEND), s->kind == K_SEND);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_WRITE), s->kind == K_WRITE);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_READ),
			      s->kind == K_READ_REQ || s->kind == K_READ_RESP);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_ATOMIC),
			      s->kind == K_ATOMIC || s->kind == K_ATOMIC_ACK);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_ACK), s->kind == K_ACK);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_IMM), s->imm);
		TEST_CHECK_EQ(!!(f & MODEL_OPF_INV), s->inv);
		/* ImmDt and IETH headers go with the flags */
		TEST_CHECK_EQ(!!(m->hdrs & MODEL_HDR_IMMDT), s->imm);
		TEST_CHECK_EQ(!!(m->hdrs & MODEL_HDR_IETH), s->inv);
		/* the transport is the opcode's bits 7:5 */
		TEST_CHECK_EQ(op >> 5, s->tp == TP_RC ? 0u : 3u);
	}
	TEST_CHECK_EQ(known, 25u);
}

/* A QP takes only its own transport's opcodes. */
static void
test_bth_qp_types(void)
{
	static const uint8_t other_types[] = { 0, 1, 2, 5, 0xff };

	for (unsigned int op = 0; op < 256; op++) {
		const struct spec_op *s = spec_of(op);
		bool impl = spec_implemented(s);

		TEST_CHECK_EQ(model_bth_allowed(IRDMA_QP_TYPE_ROCE_RC, (uint8_t)op),
			      impl && s->tp == TP_RC);
		TEST_CHECK_EQ(model_bth_allowed(IRDMA_QP_TYPE_ROCE_UD, (uint8_t)op),
			      impl && s->tp == TP_UD);
		for (size_t i = 0; i < RTE_DIM(other_types); i++)
			TEST_CHECK(!model_bth_allowed(other_types[i], (uint8_t)op));
	}
	/* spot checks by number */
	TEST_CHECK(!model_bth_allowed(IRDMA_QP_TYPE_ROCE_UD, 0x04));
	TEST_CHECK(!model_bth_allowed(IRDMA_QP_TYPE_ROCE_RC, 0x64));
	TEST_CHECK(!model_bth_allowed(IRDMA_QP_TYPE_ROCE_RC, 0x24));
	TEST_CHECK(!model_bth_allowed(IRDMA_QP_TYPE_ROCE_RC, 0x15));
}

/* SQ WQE opcodes (kernel irdma defs.h IRDMAQP_OP_*) and what each posts. */
enum wk { W_NONE, W_SEND, W_SEND_INV, W_WRITE, W_READ, W_FADD, W_CSWAP, W_LOCAL };

struct spec_wqe {
	uint8_t op;
	enum wk kind;
	bool rc, ud;		/* QP types that may post it */
	uint8_t gen;		/* first generation */
	bool sol;
};

static const struct spec_wqe wspec[] = {
	{ 0x00, W_WRITE, true, false, 2, false },	/* RDMA_WRITE */
	{ 0x01, W_READ, true, false, 2, false },	/* RDMA_READ */
	{ 0x03, W_SEND, true, true, 2, false },		/* RDMA_SEND */
	{ 0x04, W_SEND_INV, true, false, 2, false },	/* RDMA_SEND_INV */
	{ 0x05, W_SEND, true, true, 2, true },		/* RDMA_SEND_SOL_EVENT */
	{ 0x06, W_SEND_INV, true, false, 2, true },	/* RDMA_SEND_SOL_EVENT_INV */
	{ 0x08, W_LOCAL, true, false, 3, false },	/* BIND_MW */
	{ 0x09, W_LOCAL, true, false, 2, false },	/* FAST_REGISTER */
	{ 0x0a, W_LOCAL, true, false, 2, false },	/* LOCAL_INVALIDATE */
	{ 0x0b, W_READ, true, false, 2, false },	/* RDMA_READ_LOC_INV */
	{ 0x0c, W_LOCAL, true, true, 2, false },	/* NOP */
	{ 0x0d, W_WRITE, true, false, 2, true },	/* RDMA_WRITE_SOL */
	{ 0x0f, W_FADD, true, false, 3, false },	/* ATOMIC_FETCH_ADD */
	{ 0x11, W_CSWAP, true, false, 3, false },	/* ATOMIC_COMPARE_SWAP */
};

static const struct spec_wqe *
wspec_of(unsigned int op)
{
	for (size_t i = 0; i < RTE_DIM(wspec); i++)
		if (wspec[i].op == op)
			return &wspec[i];
	return NULL;
}

/* The RC BTH opcode of a packet at @p pos of a message of kind @p k (table 38 numbers). */
static uint8_t
spec_rc_bth(enum wk k, bool imm, enum spec_pos pos)
{
	static const uint8_t send[4] = { 0x00, 0x01, 0x02, 0x04 };
	static const uint8_t send_imm[4] = { 0x00, 0x01, 0x03, 0x05 };
	static const uint8_t send_inv[4] = { 0x00, 0x01, 0x16, 0x17 };
	static const uint8_t write[4] = { 0x06, 0x07, 0x08, 0x0a };
	static const uint8_t write_imm[4] = { 0x06, 0x07, 0x09, 0x0b };

	switch (k) {
	case W_SEND:
		return imm ? send_imm[pos] : send[pos];
	case W_SEND_INV:
		return send_inv[pos];
	case W_WRITE:
		return imm ? write_imm[pos] : write[pos];
	case W_READ:
		return 0x0c;
	case W_FADD:
		return 0x14;
	case W_CSWAP:
		return 0x13;
	default:
		return 0xff;
	}
}

static void
test_wqe_rows(void)
{
	static const uint8_t gens[] = { IRDMA_GEN_2, IRDMA_GEN_3 };
	unsigned int known = 0;

	for (unsigned int op = 0; op < 64; op++) {
		const struct spec_wqe *s = wspec_of(op);
		const struct model_wqe_op *m = &model_wqe_ops[op];
		bool data, remote;

		for (size_t g = 0; g < RTE_DIM(gens); g++) {
			bool gen_ok = s != NULL && gens[g] >= s->gen;

			TEST_CHECK_EQ(model_wqe_allowed(gens[g], IRDMA_QP_TYPE_ROCE_RC, (uint8_t)op),
				      gen_ok && s->rc);
			TEST_CHECK_EQ(model_wqe_allowed(gens[g], IRDMA_QP_TYPE_ROCE_UD, (uint8_t)op),
				      gen_ok && s->ud);
			TEST_CHECK(!model_wqe_allowed(gens[g], 0, (uint8_t)op));
		}
		if (s == NULL) {
			TEST_CHECK_EQ(m->qp_types, 0);
			TEST_CHECK(m->name == NULL);
			continue;
		}
		known++;
		TEST_CHECK(m->name != NULL);
		data = s->kind == W_SEND || s->kind == W_SEND_INV || s->kind == W_WRITE ||
		       s->kind == W_READ;
		remote = s->kind == W_WRITE || s->kind == W_READ;
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_DATA), data);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_REMOTE), remote);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_INV), s->kind == W_SEND_INV);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_READ), s->kind == W_READ);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_WRITE), s->kind == W_WRITE);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_ATOMIC),
			      s->kind == W_FADD || s->kind == W_CSWAP);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_LOCAL), s->kind == W_LOCAL);
		TEST_CHECK_EQ(model_wqe_is((uint8_t)op, MODEL_WQF_SOLICITED), s->sol);
		if (s->kind == W_LOCAL)
			continue;
		for (unsigned int imm = 0; imm < 2; imm++) {
			for (unsigned int pos = P_FIRST; pos <= P_ONLY; pos++) {
				bool first = pos == P_FIRST || pos == P_ONLY;
				bool last = pos == P_LAST || pos == P_ONLY;
				bool multi = s->kind == W_SEND || s->kind == W_SEND_INV ||
					     s->kind == W_WRITE;
				uint8_t b = model_wqe_bth(IRDMA_QP_TYPE_ROCE_RC, (uint8_t)op,
							  imm != 0, first, last);

				if (!multi && pos != P_ONLY)
					continue; /* one packet per request */
				TEST_CHECK_EQ(b, spec_rc_bth(s->kind, imm != 0, (enum spec_pos)pos));
				/* what it produces is a request the RC QP takes, at its place */
				TEST_CHECK(model_bth_allowed(IRDMA_QP_TYPE_ROCE_RC, b));
				TEST_CHECK(model_bth_is(b, MODEL_OPF_REQ));
				TEST_CHECK_EQ(model_bth_is(b, MODEL_OPF_FIRST), first);
				TEST_CHECK_EQ(model_bth_is(b, MODEL_OPF_LAST), last);
			}
		}
		if (s->ud) {
			TEST_CHECK_EQ(model_wqe_bth(IRDMA_QP_TYPE_ROCE_UD, (uint8_t)op, false,
						    true, true), 0x64);
			TEST_CHECK_EQ(model_wqe_bth(IRDMA_QP_TYPE_ROCE_UD, (uint8_t)op, true,
						    true, true), 0x65);
		}
	}
	TEST_CHECK_EQ(known, 14u);
	/* iWARP-only and pseudo opcodes are refused everywhere */
	TEST_CHECK(!model_wqe_allowed(IRDMA_GEN_3, IRDMA_QP_TYPE_ROCE_RC, IRDMA_OP_GEN_RTS_AE));
	TEST_CHECK(!model_wqe_allowed(IRDMA_GEN_3, IRDMA_QP_TYPE_ROCE_RC, IRDMA_OP_REC));
	TEST_CHECK(!model_wqe_allowed(IRDMA_GEN_3, IRDMA_QP_TYPE_ROCE_UD, IRDMA_OP_RDMA_WRITE));
	TEST_CHECK(!model_wqe_allowed(IRDMA_GEN_2, IRDMA_QP_TYPE_ROCE_RC,
				      IRDMA_OP_ATOMIC_FETCH_ADD));
}

int
main(void)
{
	TEST_RUN(test_bth_rows);
	TEST_RUN(test_bth_qp_types);
	TEST_RUN(test_wqe_rows);
	return test_done();
}
