/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_BITS_H
#define IRDMA_TEST_BITS_H

/*
 * The tests' one field decoder: bit ranges hi..lo (inclusive, 0 = least significant) of a
 * 64-bit value, and little-endian qwords of raw WQEs, CQEs and contexts. A test writes the
 * positions it checks as plain numbers (those of doc/hardware.md), never through the
 * driver's field helpers (base/irdma_field.h), so a wrong position in the driver fails the
 * test instead of being read back the same wrong way.
 */

#include <stddef.h>
#include <stdint.h>

/** The mask of bits @p hi .. @p lo, in place. */
static inline uint64_t
test_bits_mask(unsigned int hi, unsigned int lo)
{
	return (hi - lo >= 63 ? UINT64_MAX : (UINT64_C(1) << (hi - lo + 1)) - 1) << lo;
}

/** Bits @p hi .. @p lo of @p v. */
static inline uint64_t
test_bits(uint64_t v, unsigned int hi, unsigned int lo)
{
	return (v & test_bits_mask(hi, lo)) >> lo;
}

/** @p v placed at bits @p hi .. @p lo (its higher bits dropped). */
static inline uint64_t
test_bits_put(uint64_t v, unsigned int hi, unsigned int lo)
{
	return (v << lo) & test_bits_mask(hi, lo);
}

/** The little-endian qword at byte @p off of @p base. */
static inline uint64_t
test_le64(const void *base, size_t off)
{
	const uint8_t *b = (const uint8_t *)base + off;
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/** Store @p v little endian at byte @p off of @p base. */
static inline void
test_le64_put(void *base, size_t off, uint64_t v)
{
	uint8_t *b = (uint8_t *)base + off;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/** Bits @p hi .. @p lo of the little-endian qword at byte @p off of @p p. */
static inline uint64_t
test_le_bits(const void *p, size_t off, unsigned int hi, unsigned int lo)
{
	return test_bits(test_le64(p, off), hi, lo);
}

#endif /* IRDMA_TEST_BITS_H */
