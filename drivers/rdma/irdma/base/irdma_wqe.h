/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_WQE_H
#define IRDMA_WQE_H

/**
 * @file
 * SQ and RQ work-queue elements (doc/hardware.md §1, §2).
 *
 * A WQE is 1..8 quanta of 32 bytes. Qword 3 of every quantum carries a valid (polarity)
 * bit in bit 63; in quantum 0 that qword is the header, written last after a write
 * barrier. Fragments (SGEs) are 16 bytes: fragment 0 at byte 0, fragment k >= 1 at byte
 * 32 + 16 (k - 1), so odd-numbered extra fragments land on a quantum's qword 3 and carry
 * its valid bit.
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Sizes and ring constants (doc/hardware.md §1.1, §1.7, §2).
 */

/** Bytes in a WQE quantum (IRDMA_QP_WQE_MIN_SIZE). */
#define IRDMA_QUANTUM_SIZE		32u
/** Qwords in a quantum. */
#define IRDMA_QUANTUM_QWORDS		4u
/** Largest WQE in quanta (IRDMA_MAX_QUANTA_PER_WR). */
#define IRDMA_WQE_MAX_QUANTA		8u
/** Largest WQE in bytes (IRDMA_QP_WQE_MAX_SIZE). */
#define IRDMA_WQE_MAX_SIZE		256u
/** Qword of each quantum that carries the valid bit; in quantum 0 it is the header. */
#define IRDMA_WQE_HDR_QW		3u
/** Bytes in one fragment (SGE) descriptor. */
#define IRDMA_FRAG_SIZE			16u
/** Byte offset of fragment 1 (fragment 0 is at byte 0). */
#define IRDMA_FRAG1_OFFSET		32u
/** Most fragments an SQ WQE can describe (8 quanta); gen2 limits WRs to 13 SGEs (§8). */
#define IRDMA_WQE_MAX_FRAGS		15u
/** SQ quanta reserved when sizing the ring (IRDMA_SQ_RSVD). */
#define IRDMA_SQ_RSVD			258u
/** SQ quanta kept free by the free-space check (IRDMA_SQ_RING_FREE_QUANTA). */
#define IRDMA_SQ_FREE_RSVD		257u
/** RQ quanta reserved when sizing the ring (IRDMA_RQ_RSVD). */
#define IRDMA_RQ_RSVD			1u
/** A gen2 WQE must not cross a boundary of this many quanta (max_hw_sq_chunk). */
#define IRDMA_SQ_CHUNK_QUANTA		8u
/** Gen1 SQ chunk in quanta. */
#define IRDMA_GEN1_SQ_CHUNK_QUANTA	2u
/** SW pre-invalidates 128 quanta (4 KB) ahead every 128 quanta (irdma_clr_wqes). */
#define IRDMA_SQ_CLR_STRIDE		128u
/** Minimum ring size in WQEs, before the shift (min_hw_wq_size). */
#define IRDMA_MIN_WQ_WQES		8u
/** Maximum SQ / RQ ring size in quanta (max_hw_wq_quanta / max_hw_rq_quanta). */
#define IRDMA_MAX_WQ_QUANTA		32768u
/** Polarity a new RoCE SQ/RQ starts with; it flips to 1 when index 0 is first used. */
#define IRDMA_WQ_POLARITY_INIT		0u

/* ---------------------------------------------------------------------------------------
 * Layouts.
 */

/** One 32-byte quantum (ring slot). */
IRDMA_LAYOUT(quantum, 4);
/** A whole SQ or RQ WQE, up to 8 quanta; quantum-0 fields use qwords 0..3. */
IRDMA_LAYOUT(wqe, 32);
/** One 16-byte fragment (SGE) descriptor; see irdma_wqe_frag(). */
IRDMA_LAYOUT(wqe_frag, 2);

_Static_assert(sizeof(struct irdma_quantum) == IRDMA_QUANTUM_SIZE, "quantum is 32 B");
_Static_assert(sizeof(struct irdma_wqe) == IRDMA_WQE_MAX_SIZE, "largest WQE is 256 B");
_Static_assert(sizeof(struct irdma_wqe_frag) == IRDMA_FRAG_SIZE, "fragment is 16 B");

/** Valid (polarity) bit of every quantum, in its qword 3. */
IRDMA_BIT(quantum, QUANTUM_VALID, 3, 63);

/* ---------------------------------------------------------------------------------------
 * SQ header = qword 3 of quantum 0 (doc/hardware.md §1.2; defs.h IRDMAQPSQ_*).
 */

/** Remote STag (rkey) for RDMA WRITE / READ; stag to invalidate for SEND_INV. */
IRDMA_FIELD(wqe, SQ_REMSTAG, 3, 31, 0);
/** Stag to invalidate (SEND_INV variants); same bits as SQ_REMSTAG. */
IRDMA_FIELD(wqe, SQ_INV_STAG, 3, 31, 0);
/** Address-handle index for UD sends (gen2 / old defs: 16:0). */
IRDMA_FIELD(wqe, SQ_AHID, 3, 16, 0);
/** Address-handle index, gen3 width (new defs: 24:0). */
IRDMA_FIELD(wqe, SQ_AHID_GEN3, 3, 24, 0);
/** Fast-register: the 8-bit key of the new STag. */
IRDMA_FIELD(wqe, SQ_FR_STAGKEY, 3, 7, 0);
/** Fast-register: the STag index. */
IRDMA_FIELD(wqe, SQ_FR_STAGINDEX, 3, 31, 8);
/** Operation (enum irdma_sq_opcode). */
IRDMA_FIELD(wqe, SQ_OPCODE, 3, 37, 32);
/** Additional fragment count (frag_cnt - 1, plus the gen2 NULL pad). */
IRDMA_FIELD(wqe, SQ_ADDFRAGCNT, 3, 41, 38);
/** Fast-register: copy host PBL (not set by the kernel). */
IRDMA_BIT(wqe, SQ_FR_COPY_HOST_PBL, 3, 43);
/** UD send: L4 header length (kernel PUDA only). */
IRDMA_FIELD(wqe, SQ_UD_L4LEN, 3, 45, 42);
/** Fast-register: PBL level (enum irdma_pbl_chunk: 0 phys, 1 L1, 3 L2). */
IRDMA_FIELD(wqe, SQ_FR_LPBLSIZE, 3, 45, 44);
/** Report round-trip time (write / read / send). */
IRDMA_BIT(wqe, SQ_REPORTRTT, 3, 46);
/** Fast-register: host page size (enum irdma_hpage_size). */
IRDMA_FIELD(wqe, SQ_FR_HPAGESIZE, 3, 47, 46);
/** Immediate data present in qword 0 (write / send with immediate). */
IRDMA_BIT(wqe, SQ_IMMDATAFLAG, 3, 47);
/** Fast-register / bind: access rights (IRDMA_ACCESS_*). */
IRDMA_FIELD(wqe, SQ_STAGRIGHTS, 3, 52, 48);
/** Fast-register / bind: VA-based (1) or zero-based (0) addressing. */
IRDMA_BIT(wqe, SQ_VABASEDTO, 3, 53);
/** Bind: memory-window type (1 = type 1). */
IRDMA_BIT(wqe, SQ_MEMWINDOWTYPE, 3, 54);
/** Fast-register / bind: remote atomics enable (gen3 only). */
IRDMA_BIT(wqe, SQ_REMOTE_ATOMICS_EN, 3, 55);
/** Inline write / send: total inline bytes. */
IRDMA_FIELD(wqe, SQ_INLINEDATALEN, 3, 55, 48);
/** WQE was pushed through a push page (push mode only). */
IRDMA_BIT(wqe, SQ_PUSHWQE, 3, 56);
/** Data is inline in the WQE rather than described by fragments. */
IRDMA_BIT(wqe, SQ_INLINEDATAFLAG, 3, 57);
/** iWARP LSMM only: stream mode. */
IRDMA_BIT(wqe, SQ_STREAMMODE, 3, 58);
/** iWARP LSMM only: wait for the peer's PDU. */
IRDMA_BIT(wqe, SQ_WAITFORRCVPDU, 3, 59);
/** Read fence (IB_SEND_FENCE). */
IRDMA_BIT(wqe, SQ_READFENCE, 3, 60);
/** Local fence. */
IRDMA_BIT(wqe, SQ_LOCALFENCE, 3, 61);
/** UD send: UDP header present (same bit as SQ_LOCALFENCE). */
IRDMA_BIT(wqe, SQ_UDPHEADER, 3, 61);
/** Signalled completion: generate a CQE on success. */
IRDMA_BIT(wqe, SQ_SIGCOMPL, 3, 62);
/** Valid bit = current SQ polarity; written last. */
IRDMA_BIT(wqe, SQ_VALID, 3, 63);

/* ---------------------------------------------------------------------------------------
 * SQ quantum-0 payload qwords per operation (doc/hardware.md §1.5).
 */

/**
 * Immediate data, qword 0 (write / send with SQ_IMMDATAFLAG). The verbs immediate is 32
 * bits; defs.h names the whole qword (63:0) and SW leaves 63:32 zero.
 */
IRDMA_FIELD(wqe, SQ_IMMDATA, 0, 31, 0);
/** RDMA WRITE / READ: remote virtual address (tagged offset), qword 2. */
IRDMA_FIELD(wqe, SQ_REMOTE_TO, 2, 63, 0);
/** UD send: destination Q_Key, qword 2. */
IRDMA_FIELD(wqe, SQ_UD_DESTQKEY, 2, 31, 0);
/** UD send: destination QP number, qword 2. */
IRDMA_FIELD(wqe, SQ_UD_DESTQPN, 2, 55, 32);
/** LOCAL_INVALIDATE: STag to invalidate, qword 1 (its valid bit 63 stays 0). */
IRDMA_FIELD(wqe, SQ_LINV_STAG, 1, 31, 0);
/** FAST_REGISTER: VA (VA-based) or first-byte offset (zero-based), qword 0. */
IRDMA_FIELD(wqe, SQ_FR_VA_FBO, 0, 63, 0);
/** FAST_REGISTER: PBL physical address >> 12 (page aligned), qword 1. */
IRDMA_FIELD(wqe, SQ_FR_PBL_PFN, 1, 63, 12);
/** FAST_REGISTER: first PM PBL index >> 16, qword 1. */
IRDMA_FIELD(wqe, SQ_FR_FIRST_PBLIDX_HI, 1, 11, 0);
/** FAST_REGISTER: region length in bytes, qword 2. */
IRDMA_FIELD(wqe, SQ_FR_STAGLEN, 2, 40, 0);
/** FAST_REGISTER: first PM PBL index & 0xffff, qword 2. */
IRDMA_FIELD(wqe, SQ_FR_FIRST_PBLIDX_LO, 2, 63, 48);
/** BIND_MW: window VA (0 if zero-based), qword 0. */
IRDMA_FIELD(wqe, SQ_BIND_VA, 0, 63, 0);
/** BIND_MW (gen2): parent MR rkey, qword 1. */
IRDMA_FIELD(wqe, SQ_BIND_PARENT_STAG, 1, 63, 32);
/** BIND_MW (gen2): window rkey, qword 1. */
IRDMA_FIELD(wqe, SQ_BIND_MW_STAG, 1, 31, 0);
/** BIND_MW (gen1): parent MR rkey (swapped with the window's). */
IRDMA_FIELD(wqe, SQ_BIND_PARENT_STAG_GEN1, 1, 31, 0);
/** BIND_MW (gen1): window rkey. */
IRDMA_FIELD(wqe, SQ_BIND_MW_STAG_GEN1, 1, 63, 32);
/** BIND_MW: bind length, qword 2. */
IRDMA_FIELD(wqe, SQ_BIND_LEN, 2, 63, 0);
/** ATOMIC (gen3): local tagged offset, qword 0. */
IRDMA_FIELD(wqe, SQ_ATOM_LOCAL_TO, 0, 63, 0);
/** ATOMIC (gen3): local lkey, qword 1. */
IRDMA_FIELD(wqe, SQ_ATOM_LOCAL_STAG, 1, 31, 0);
/** ATOMIC (gen3): remote tagged offset, qword 2 (rkey in SQ_REMSTAG). */
IRDMA_FIELD(wqe, SQ_ATOM_REMOTE_TO, 2, 63, 0);
/** ATOMIC (gen3): add value (FETCH_ADD) or swap value (CMP_SWAP), qword 4. */
IRDMA_FIELD(wqe, SQ_ATOM_SWAP_ADD, 4, 63, 0);
/** ATOMIC (gen3): compare value (CMP_SWAP; 0 for FETCH_ADD), qword 5. */
IRDMA_FIELD(wqe, SQ_ATOM_COMPARE, 5, 63, 0);
/** ATOMIC (gen3): valid bit of quantum 1, qword 7. */
IRDMA_BIT(wqe, SQ_ATOM_Q1_VALID, 7, 63);

/* ---------------------------------------------------------------------------------------
 * RQ / SRQ WQE (doc/hardware.md §2): fragments as SQ, qword 2 = 0 (SRQ: wr_id), header qw3.
 */

/** RQ: additional fragment count (same rule and gen2 pad as the SQ). */
IRDMA_FIELD(wqe, RQ_ADDFRAGCNT, 3, 41, 38);
/** RQ: valid bit = current RQ polarity. */
IRDMA_BIT(wqe, RQ_VALID, 3, 63);
/** SRQ (gen3): the wr_id, returned in CQE qword 1. */
IRDMA_FIELD(wqe, SRQ_WRID, 2, 63, 0);

/* ---------------------------------------------------------------------------------------
 * Fragment (SGE) encoding (doc/hardware.md §1.4).
 */

/** Fragment address / tagged offset (gen1 and gen2). */
IRDMA_FIELD(wqe_frag, FRAG_ADDR, 0, 63, 0);
/** Gen2 fragment: STag (lkey). */
IRDMA_FIELD(wqe_frag, FRAG_STAG, 1, 31, 0);
/** Gen2 fragment: length in bytes. */
IRDMA_FIELD(wqe_frag, FRAG_LEN, 1, 62, 32);
/** Gen2 fragment: valid bit (= polarity); a NULL pad fragment carries only this. */
IRDMA_BIT(wqe_frag, FRAG_VALID, 1, 63);
/** Gen1 fragment: length in bytes (no valid bit; a NULL fragment is all zero). */
IRDMA_FIELD(wqe_frag, FRAG_GEN1_LEN, 1, 31, 0);
/** Gen1 fragment: STag. */
IRDMA_FIELD(wqe_frag, FRAG_GEN1_STAG, 1, 63, 32);

/* ---------------------------------------------------------------------------------------
 * Opcodes (doc/hardware.md §1.3; defs.h IRDMAQP_OP_*).
 */

/** SQ WQE opcodes (header SQ_OPCODE), also reported in SQ CQEs. */
enum irdma_sq_opcode {
	IRDMA_OP_RDMA_WRITE		= 0x00, /**< RDMA WRITE (+IMMDATAFLAG: with imm) */
	IRDMA_OP_RDMA_READ		= 0x01, /**< RDMA READ */
	IRDMA_OP_RDMA_SEND		= 0x03, /**< SEND (+IMMDATAFLAG: with imm) */
	IRDMA_OP_RDMA_SEND_INV		= 0x04, /**< SEND with invalidate */
	IRDMA_OP_RDMA_SEND_SOL_EVENT	= 0x05, /**< SEND, solicited event */
	IRDMA_OP_RDMA_SEND_SOL_EVENT_INV = 0x06, /**< SEND with invalidate, solicited */
	IRDMA_OP_BIND_MW		= 0x08, /**< bind a memory window */
	IRDMA_OP_FAST_REGISTER		= 0x09, /**< fast-register an MR (FAST_REG_NSMR) */
	IRDMA_OP_LOCAL_INVALIDATE	= 0x0a, /**< invalidate a local STag */
	IRDMA_OP_RDMA_READ_LOC_INV	= 0x0b, /**< READ, then invalidate the local STag */
	IRDMA_OP_NOP			= 0x0c, /**< no operation (also chunk filler) */
	IRDMA_OP_RDMA_WRITE_SOL		= 0x0d, /**< RDMA WRITE, solicited */
	IRDMA_OP_ATOMIC_FETCH_ADD	= 0x0f, /**< gen3 only */
	IRDMA_OP_ATOMIC_COMPARE_SWAP	= 0x11, /**< gen3 only */
	IRDMA_OP_GEN_RTS_AE		= 0x30, /**< iWARP connection set-up only */
	IRDMA_OP_REC			= 0x3e, /**< pseudo-op in SW / CQEs: receive */
	IRDMA_OP_REC_IMM		= 0x3f, /**< pseudo-op in SW / CQEs: receive with imm */
};

/**
 * STAGRIGHTS / ARIGHTS bits (user.h IRDMA_ACCESS_FLAGS_*; the 5-bit fields hold 4:0).
 * Verbs remote read maps to 0x05 and remote write to 0x0a (the local bit included);
 * bind MW uses (remote_read << 2) | (remote_write << 3) (doc/hardware.md §1.5).
 */
enum irdma_access_bits {
	IRDMA_ACCESS_LOCAL_READ		= 0x01, /**< local read */
	IRDMA_ACCESS_LOCAL_WRITE	= 0x02, /**< local write */
	IRDMA_ACCESS_REMOTE_READ	= 0x04, /**< remote read */
	IRDMA_ACCESS_REMOTE_WRITE	= 0x08, /**< remote write */
	IRDMA_ACCESS_WINDOW_BIND	= 0x10, /**< memory-window bind */
	IRDMA_ACCESS_ALL		= 0x1f, /**< every right the 5-bit fields hold */
};

/** PBL level encoding used by LPBLSIZE fields (chunk size). */
enum irdma_pbl_chunk {
	IRDMA_PBL_CHUNK_PHYS	= 0, /**< no PBL: a physical address */
	IRDMA_PBL_CHUNK_L1	= 1, /**< level-1 PBL run */
	IRDMA_PBL_CHUNK_L2	= 3, /**< level-2 root of leaf indices */
};

/** Host page size encoding (HPAGESIZE fields). */
enum irdma_hpage_size {
	IRDMA_HPAGE_4K	= 0, /**< 4 KB pages */
	IRDMA_HPAGE_2M	= 1, /**< 2 MB pages */
	IRDMA_HPAGE_1G	= 2, /**< 1 GB pages */
};

/* ---------------------------------------------------------------------------------------
 * Inline data (doc/hardware.md §1.6).
 */

/** Gen2: inline data starts at this byte of quantum 0 (qword 1). */
#define IRDMA_INLINE_Q0_OFFSET		8u
/** Gen2: inline bytes that fit in quantum 0. */
#define IRDMA_INLINE_Q0_BYTES		8u
/** Gen2: inline bytes per further quantum (bytes 0..30). */
#define IRDMA_INLINE_QN_BYTES		31u
/** Gen2: byte of each further quantum that holds the valid bit. */
#define IRDMA_INLINE_VALID_BYTE		31u
/** Gen2: bit of IRDMA_INLINE_VALID_BYTE that holds the polarity (= qword-3 bit 63). */
#define IRDMA_INLINE_VALID_SHIFT	7u
/** Gen2: most inline bytes (max_hw_inline). */
#define IRDMA_MAX_INLINE		101u
/** Gen1: inline bytes in quantum 0 (bytes 0..15). */
#define IRDMA_GEN1_INLINE_Q0_BYTES	16u
/** Gen1: most inline bytes. */
#define IRDMA_GEN1_MAX_INLINE		48u

/* ---------------------------------------------------------------------------------------
 * Helpers (pure functions of the formats).
 */

/** Byte offset of fragment @p k inside a WQE: 0, then 32 + 16 (k - 1). */
static inline uint32_t
irdma_frag_offset(uint32_t k)
{
	return k == 0 ? 0 : IRDMA_FRAG1_OFFSET + IRDMA_FRAG_SIZE * (k - 1);
}

/** Fragment @p k of the WQE at @p wqe. */
static inline struct irdma_wqe_frag *
irdma_wqe_frag(struct irdma_wqe *wqe, uint32_t k)
{
	return (struct irdma_wqe_frag *)(void *)((uint8_t *)wqe + irdma_frag_offset(k));
}

/** Const fragment @p k of the WQE at @p wqe. */
static inline const struct irdma_wqe_frag *
irdma_wqe_frag_c(const struct irdma_wqe *wqe, uint32_t k)
{
	return (const struct irdma_wqe_frag *)(const void *)((const uint8_t *)wqe +
							     irdma_frag_offset(k));
}

/**
 * SQ quanta for @p frag_cnt fragments (the immediate counts as one):
 * 0-1 -> 1, 2-3 -> 2, ..., 14-15 -> 8; 0 when too many (irdma_fragcnt_to_quanta_sq).
 */
static inline uint32_t
irdma_sq_frags_to_quanta(uint32_t frag_cnt)
{
	return frag_cnt > IRDMA_WQE_MAX_FRAGS ? 0 : frag_cnt / 2 + 1;
}

/** True when gen2 appends a NULL fragment: @p frag_cnt even and non-zero. */
static inline bool
irdma_frag_needs_pad(uint32_t frag_cnt)
{
	return frag_cnt != 0 && (frag_cnt & 1) == 0;
}

/**
 * ADDFRAGCNT for @p frag_cnt fragments (immediate counted): frag_cnt - 1 (0 if <= 1),
 * plus 1 for the NULL pad on gen2 (@p gen2_pad true); gen3 pads without counting it.
 */
static inline uint32_t
irdma_addfragcnt(uint32_t frag_cnt, bool gen2_pad)
{
	uint32_t n = frag_cnt > 1 ? frag_cnt - 1 : 0;

	if (gen2_pad && irdma_frag_needs_pad(frag_cnt))
		n++;
	return n;
}

/** RQ WQE size in bytes for @p frag_cnt fragments: 32/64/128/256; 0 if > 14. */
static inline uint32_t
irdma_rq_frags_to_wqe_size(uint32_t frag_cnt)
{
	if (frag_cnt <= 1)
		return 32;
	if (frag_cnt <= 3)
		return 64;
	if (frag_cnt <= 7)
		return 128;
	if (frag_cnt <= 14)
		return 256;
	return 0;
}

/**
 * Gen2 quanta for @p len inline bytes: <= 8 -> 1, then one more per 31 bytes, capped at 8
 * (<= 39 -> 2, <= 70 -> 3, <= 101 -> 4, ...).
 */
static inline uint32_t
irdma_inline_to_quanta(uint32_t len)
{
	uint32_t q;

	if (len <= IRDMA_INLINE_Q0_BYTES)
		return 1;
	q = 1 + (len - IRDMA_INLINE_Q0_BYTES + IRDMA_INLINE_QN_BYTES - 1) / IRDMA_INLINE_QN_BYTES;
	return q > IRDMA_WQE_MAX_QUANTA ? IRDMA_WQE_MAX_QUANTA : q;
}

/**
 * Byte offset inside the WQE of inline data byte @p i (gen2): bytes 0..7 at 8..15, then
 * 31 bytes per quantum starting at byte 32, skipping each quantum's byte 31.
 */
static inline uint32_t
irdma_inline_byte_offset(uint32_t i)
{
	if (i < IRDMA_INLINE_Q0_BYTES)
		return IRDMA_INLINE_Q0_OFFSET + i;
	i -= IRDMA_INLINE_Q0_BYTES;
	return IRDMA_QUANTUM_SIZE * (1 + i / IRDMA_INLINE_QN_BYTES) + i % IRDMA_INLINE_QN_BYTES;
}

/**
 * WQE size shift for a queue with @p sge fragments and @p inline_len inline bytes
 * (irdma_get_wqe_shift): 0 for <= 1 SGE and <= 8 B, 1 for < 4 and <= 39, 2 for < 8 and
 * <= 101, else 3. Gen2 SQs pass max_send_sge + 1 (room for the immediate).
 */
static inline uint32_t
irdma_wqe_shift(uint32_t sge, uint32_t inline_len)
{
	if (sge <= 1 && inline_len <= 8)
		return 0;
	if (sge < 4 && inline_len <= 39)
		return 1;
	if (sge < 8 && inline_len <= 101)
		return 2;
	return 3;
}

/**
 * Ring depth in quanta for @p wrs work requests with WQE shift @p shift and @p rsvd
 * reserved quanta (IRDMA_SQ_RSVD or IRDMA_RQ_RSVD): round_up_pow2((wrs << shift) + rsvd),
 * at least 8 << shift. The caller checks the result against IRDMA_MAX_WQ_QUANTA.
 */
static inline uint32_t
irdma_wq_depth(uint32_t wrs, uint32_t shift, uint32_t rsvd)
{
	uint32_t d = irdma_roundup_pow2_u32((wrs << shift) + rsvd);
	uint32_t min = IRDMA_MIN_WQ_WQES << shift;

	return d < min ? min : d;
}

/** Encoded QP SQ/RQ size for the QP context: log2(quanta) - 2 (8 -> 1 ... 32768 -> 13). */
static inline uint32_t
irdma_encode_wq_size(uint32_t quanta)
{
	uint32_t l = irdma_log2_u32(quanta);

	return l >= 2 ? l - 2 : 0;
}

#endif /* IRDMA_WQE_H */
