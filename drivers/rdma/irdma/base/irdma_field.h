/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_FIELD_H
#define IRDMA_FIELD_H

/**
 * @file
 * The field mechanism every base/ header is written in.
 *
 * A hardware structure (WQE, CQE, CQP WQE, context, ...) is a run of little-endian 64-bit
 * words. Each structure has a *layout type*, `struct irdma_<layout>`, holding only
 * `rte_le64_t qw[N]`; a pointer to it is the handle that the helpers take.
 *
 * A field is described exactly once:
 *
 *     IRDMA_FIELD(cqe, CQE_MAJERR, 3, 31, 16);
 *
 * i.e. layout `cqe`, qword 3, bits 31..16 (inclusive, hi first, as in doc/hardware.md). That
 * line produces three enum constants (IRDMA_F_CQE_MAJERR_QW/_HI/_LO), a typedef binding the
 * field to its layout, and compile-time checks that the bit range is sane and the qword lies
 * inside the layout. Everything else is derived:
 *
 *     IRDMA_PREP(CQE_MAJERR, v)     value placed in a CPU-order qword (masked, shifted)
 *     IRDMA_GET(CQE_MAJERR, word)   value extracted from a CPU-order qword
 *     irdma_set(cqe, CQE_MAJERR, v) read-modify-write of qword 3 of *cqe (little endian)
 *     irdma_get(cqe, CQE_MAJERR)    read of the field from *cqe
 *
 * Misuse that fails to compile:
 *   - a name that is not a field (unknown identifier IRDMA_F_<name>_HI);
 *   - a register field (IRDMA_REG_FIELD) used with the qword helpers, or the reverse;
 *   - irdma_set()/irdma_get() on a pointer of another layout (e.g. a CQE field on a CQP
 *     WQE), irdma_set() on a const pointer;
 *   - a compile-time constant value that does not fit the field (IRDMA_PREP, irdma_set);
 *   - a field whose bit range is reversed or beyond bit 63, or whose qword is outside
 *     the layout.
 * Values known only at run time are masked to the field width; callers validate their
 * inputs with irdma_fits() on the control path.
 *
 * Cost: every constant is an enum, the masks are constant expressions and the helpers are
 * static inline, so with optimisation a set is one load, and/or, store; a get is a load,
 * shift, and. IRDMA_PREP of constants is itself a constant expression (usable in static
 * initialisers).
 *
 * Aliasing: helpers access memory only through `rte_le64_t *` (a uint64_t), never through
 * a layout struct lvalue, so a layout pointer may be laid over any ring or DMA buffer of
 * 64-bit words.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>

/** Number of bits in a structure word. */
#define IRDMA_QWORD_BITS 64
/** Number of bytes in a structure word. */
#define IRDMA_QWORD_BYTES 8

/**
 * Declare a layout type: `struct irdma_<layout>` of @p nqw little-endian qwords, with a
 * compile-time size check. Use at file scope, followed by a semicolon.
 */
#define IRDMA_LAYOUT(layout, nqw) \
	struct irdma_##layout { \
		rte_le64_t qw[(nqw)]; \
	}; \
	_Static_assert(sizeof(struct irdma_##layout) == (nqw) * IRDMA_QWORD_BYTES, \
		       "irdma layout " #layout " is padded")

/**
 * Describe a field: in layout @p layout (declared with IRDMA_LAYOUT), qword @p qw,
 * bits @p hi down to @p lo inclusive. Use at file scope, followed by a semicolon.
 */
#define IRDMA_FIELD(layout, name, qw, hi, lo) \
	enum { \
		IRDMA_F_##name##_QW = (qw), \
		IRDMA_F_##name##_HI = (hi), \
		IRDMA_F_##name##_LO = (lo), \
	}; \
	typedef struct irdma_##layout irdma_fl_##name; \
	_Static_assert((lo) >= 0 && (hi) >= (lo) && (hi) < IRDMA_QWORD_BITS, \
		       "irdma field " #name ": bad bit range"); \
	_Static_assert((qw) >= 0 && \
		       (size_t)(qw) < sizeof(struct irdma_##layout) / IRDMA_QWORD_BYTES, \
		       "irdma field " #name ": qword outside layout " #layout)

/** Describe a one-bit field (a flag) at qword @p qw, bit @p bit. */
#define IRDMA_BIT(layout, name, qw, bit) IRDMA_FIELD(layout, name, qw, bit, bit)

/**
 * Describe a field of a 32-bit register value: bits @p hi down to @p lo. Register fields
 * use the IRDMA_REG_* helpers only. Use at file scope, followed by a semicolon.
 */
#define IRDMA_REG_FIELD(name, hi, lo) \
	enum { \
		IRDMA_R_##name##_HI = (hi), \
		IRDMA_R_##name##_LO = (lo), \
	}; \
	_Static_assert((lo) >= 0 && (hi) >= (lo) && (hi) < 32, \
		       "irdma register field " #name ": bad bit range")

/* ---------------------------------------------------------------------------------------
 * Compile-time checks usable inside expressions (each evaluates to a size_t zero).
 */

/** 0 when @p cond (an integer constant expression) holds; a compile error otherwise. */
#define IRDMA_CHECK_ZERO(cond, msg) \
	(0 * sizeof(struct { _Static_assert(cond, msg); char irdma_check_; }))

/** 1 if @p x is an integer constant expression, else 0 (itself a constant expression). */
#define IRDMA_IS_ICE(x) \
	_Generic((1 ? (void *)((long)(x) * 0l) : (int *)1), int *: 1, default: 0)

/** @p x if it is an integer constant expression, else 0 (a constant expression). */
#define IRDMA_ICE_OR_ZERO(x) __builtin_choose_expr(IRDMA_IS_ICE(x), (x), 0)

/* ---------------------------------------------------------------------------------------
 * Qword fields: constants.
 */

/** Mask with bits hi..lo set (64-bit). */
#define IRDMA_GENMASK64(hi, lo) \
	((UINT64_MAX >> (IRDMA_QWORD_BITS - 1 - (hi))) & (UINT64_MAX << (lo)))

/** Qword index of field @p F inside its layout. */
#define IRDMA_FIELD_QW(F) ((unsigned int)IRDMA_F_##F##_QW)
/** Shift (low bit) of field @p F. */
#define IRDMA_FIELD_SHIFT(F) ((unsigned int)IRDMA_F_##F##_LO)
/** Width in bits of field @p F. */
#define IRDMA_FIELD_BITS(F) ((unsigned int)(IRDMA_F_##F##_HI - IRDMA_F_##F##_LO + 1))
/** In-place mask of field @p F (bits hi..lo set). */
#define IRDMA_FIELD_MASK(F) IRDMA_GENMASK64(IRDMA_F_##F##_HI, IRDMA_F_##F##_LO)
/** Largest value field @p F can hold. */
#define IRDMA_FIELD_MAX(F) (UINT64_MAX >> (IRDMA_QWORD_BITS - IRDMA_FIELD_BITS(F)))
/** Byte offset of the qword holding field @p F from the start of its layout. */
#define IRDMA_FIELD_BYTE(F) (IRDMA_FIELD_QW(F) * IRDMA_QWORD_BYTES)

/** Compile error if @p v is a constant that does not fit field @p F; else 0. */
#define IRDMA_FIELD_CHECK_FITS(F, v) \
	IRDMA_CHECK_ZERO(((uint64_t)IRDMA_ICE_OR_ZERO(v) & ~IRDMA_FIELD_MAX(F)) == 0, \
			 "value does not fit irdma field " #F)

/** Compile error if pointer @p p is not a (const or not) pointer to @p F's layout; else 0. */
#define IRDMA_FIELD_CHECK_LAYOUT(p, F) \
	IRDMA_CHECK_ZERO(_Generic((p), irdma_fl_##F *: 1, const irdma_fl_##F *: 1, \
				  default: 0), \
			 "irdma field " #F " used on a structure of another layout")

/** As IRDMA_FIELD_CHECK_LAYOUT, but refuses const pointers (for writes). */
#define IRDMA_FIELD_CHECK_LAYOUT_RW(p, F) \
	IRDMA_CHECK_ZERO(_Generic((p), irdma_fl_##F *: 1, default: 0), \
			 "irdma field " #F " written through a const or foreign pointer")

/* ---------------------------------------------------------------------------------------
 * Qword fields: values in CPU byte order.
 */

/**
 * @p v placed into field @p F of a CPU-order qword: (v << lo) & mask. A constant @p v
 * that does not fit is a compile error; a run-time @p v is truncated to the field.
 * A constant expression when @p v is one.
 */
#define IRDMA_PREP(F, v) \
	((uint64_t)((((uint64_t)(v)) << IRDMA_FIELD_SHIFT(F)) & IRDMA_FIELD_MASK(F)) + \
	 IRDMA_FIELD_CHECK_FITS(F, v))

/** Field @p F extracted from the CPU-order qword @p word. */
#define IRDMA_GET(F, word) \
	((uint64_t)(((uint64_t)(word) & IRDMA_FIELD_MASK(F)) >> IRDMA_FIELD_SHIFT(F)))

/** True when the run-time value @p v fits field @p F. */
#define irdma_fits(F, v) ((((uint64_t)(v)) & ~IRDMA_FIELD_MAX(F)) == 0)

/* ---------------------------------------------------------------------------------------
 * Qword fields: access to little-endian structures through a layout pointer.
 */

/** Read-modify-write of one little-endian qword: clear @p mask, or in @p bits. */
static inline void
irdma_qw_rmw(rte_le64_t *word, uint64_t mask, uint64_t bits)
{
	uint64_t v = rte_le_to_cpu_64(*word);

	*word = rte_cpu_to_le_64((v & ~mask) | (bits & mask));
}

/** Read one little-endian qword in CPU order. */
static inline uint64_t
irdma_qw_get(const rte_le64_t *word)
{
	return rte_le_to_cpu_64(*word);
}

/**
 * Single 64-bit store of a CPU-order value as little endian, for the qword that carries a
 * valid bit: a release store, so every earlier store to the entry is visible to whoever
 * reads this qword with irdma_qw_load_v() (a plain MOV on x86; the model and ThreadSanitizer
 * see the ordering that the hardware rule "valid qword last" needs).
 */
static inline void
irdma_qw_store_v(rte_le64_t *word, uint64_t v)
{
	__atomic_store_n((volatile rte_le64_t *)word, rte_cpu_to_le_64(v), __ATOMIC_RELEASE);
}

/**
 * Single 64-bit load, returned in CPU order, of the qword that carries a valid bit: an acquire
 * load, so the rest of the entry read afterwards is what the writer stored before it.
 */
static inline uint64_t
irdma_qw_load_v(const rte_le64_t *word)
{
	return rte_le_to_cpu_64(__atomic_load_n((const volatile rte_le64_t *)word,
						__ATOMIC_ACQUIRE));
}

/** Address of the little-endian qword of @p p (layout pointer) that holds field @p F. */
#define IRDMA_QW_PTR(p, F) \
	((rte_le64_t *)(void *)(p) + IRDMA_FIELD_QW(F) + IRDMA_FIELD_CHECK_LAYOUT_RW(p, F))

/** Const address of the little-endian qword of @p p that holds field @p F. */
#define IRDMA_QW_CPTR(p, F) \
	((const rte_le64_t *)(const void *)(p) + IRDMA_FIELD_QW(F) + \
	 IRDMA_FIELD_CHECK_LAYOUT(p, F))

/** Set field @p F of the structure at @p p (layout pointer) to @p v; neighbours keep. */
#define irdma_set(p, F, v) \
	irdma_qw_rmw(IRDMA_QW_PTR(p, F), IRDMA_FIELD_MASK(F), IRDMA_PREP(F, v))

/** Value of field @p F of the structure at @p p (layout pointer). */
#define irdma_get(p, F) IRDMA_GET(F, irdma_qw_get(IRDMA_QW_CPTR(p, F)))

/**
 * Store the whole qword that holds field @p F (e.g. a header composed with IRDMA_PREP),
 * with a single volatile 64-bit write. Used for words the device polls: the WQE header
 * (after a write barrier), shadow-area words, valid bits.
 */
#define irdma_qw_store(p, F, v) irdma_qw_store_v(IRDMA_QW_PTR(p, F), (v))

/** Load the whole qword that holds field @p F with a single volatile 64-bit read. */
#define irdma_qw_load(p, F) irdma_qw_load_v(IRDMA_QW_CPTR(p, F))

/* ---------------------------------------------------------------------------------------
 * 32-bit register fields.
 */

/** 32-bit mask with bits hi..lo set. */
#define IRDMA_GENMASK32(hi, lo) ((UINT32_MAX >> (31 - (hi))) & (UINT32_MAX << (lo)))
/** In-place mask of register field @p R. */
#define IRDMA_REG_MASK(R) IRDMA_GENMASK32(IRDMA_R_##R##_HI, IRDMA_R_##R##_LO)
/** Shift of register field @p R. */
#define IRDMA_REG_SHIFT(R) ((unsigned int)IRDMA_R_##R##_LO)
/** Largest value register field @p R can hold. */
#define IRDMA_REG_MAX(R) (IRDMA_REG_MASK(R) >> IRDMA_REG_SHIFT(R))

/** @p v placed in register field @p R; constants that do not fit fail to compile. */
#define IRDMA_REG_PREP(R, v) \
	((uint32_t)((((uint32_t)(v)) << IRDMA_REG_SHIFT(R)) & IRDMA_REG_MASK(R)) + \
	 (uint32_t)IRDMA_CHECK_ZERO(((uint64_t)IRDMA_ICE_OR_ZERO(v) & \
				     ~(uint64_t)IRDMA_REG_MAX(R)) == 0, \
				    "value does not fit irdma register field " #R))

/** Register field @p R extracted from the 32-bit register value @p val. */
#define IRDMA_REG_GET(R, val) \
	((uint32_t)(((uint32_t)(val) & IRDMA_REG_MASK(R)) >> IRDMA_REG_SHIFT(R)))

/* ---------------------------------------------------------------------------------------
 * Small helpers shared by the format headers.
 */

/** log2 of a power of two (0 for 0). */
static inline unsigned int
irdma_log2_u32(uint32_t v)
{
	return v ? 31u - (unsigned int)__builtin_clz(v) : 0;
}

/** Smallest power of two >= @p v (1 for 0; 0 if it does not fit 32 bits). */
static inline uint32_t
irdma_roundup_pow2_u32(uint32_t v)
{
	if (v <= 1)
		return 1;
	if (v > (UINT32_C(1) << 31))
		return 0;
	return UINT32_C(1) << (32 - __builtin_clz(v - 1));
}

#endif /* IRDMA_FIELD_H */
