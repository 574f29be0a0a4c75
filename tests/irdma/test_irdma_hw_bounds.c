/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The register accessors of irdma_hw.h on a mapped BAR0 (the VFIO backend's case): an
 * offset at or beyond hw->bar0_len, or a misaligned one, is refused. A read gives 0, a
 * write stores nothing, each refusal is counted in hw->reg_refused. The "BAR0" here is the
 * first page of a buffer whose second page is a guard that must never change.
 */

#include <stdint.h>
#include <string.h>

#include "irdma_hw.h"
#include "test.h"

#define BAR_LEN		4096u
#define GUARD		0xa5u

static uint8_t mem[2 * BAR_LEN] __attribute__((aligned(4096)));
static struct irdma_hw hw;

static uint32_t
no_read(struct irdma_hw *h, uint32_t off)
{
	(void)h;
	(void)off;
	test_case_failures++;	/* a mapped BAR0 never reaches the backend */
	return 0;
}

static void
no_write(struct irdma_hw *h, uint32_t off, uint32_t v)
{
	(void)h;
	(void)off;
	(void)v;
	test_case_failures++;
}

static const struct irdma_hw_backend be = {
	.name = "bounds", .reg_read = no_read, .reg_write = no_write,
};

static void
setup(void)
{
	memset(&hw, 0, sizeof(hw));
	memset(mem, 0, BAR_LEN);
	memset(mem + BAR_LEN, GUARD, BAR_LEN);
	hw.bar0 = mem;
	hw.bar0_len = BAR_LEN;
	hw.be = &be;
	strcpy(hw.name, "bounds");
}

static int
guard_intact(void)
{
	for (unsigned int i = 0; i < BAR_LEN; i++)
		if (mem[BAR_LEN + i] != GUARD)
			return 0;
	return 1;
}

/* The first and the last register of BAR0 are reachable. */
static void
test_inside(void)
{
	setup();
	irdma_wr32(&hw, 0, 0x11223344);
	irdma_wr32(&hw, BAR_LEN - 4, 0x55667788);
	TEST_CHECK_EQ(irdma_rd32(&hw, 0), 0x11223344);
	TEST_CHECK_EQ(irdma_rd32(&hw, BAR_LEN - 4), 0x55667788);
	TEST_CHECK_EQ(mem[BAR_LEN - 4], 0x88);
	TEST_CHECK_EQ(hw.reg_refused, 0);
	TEST_CHECK(guard_intact());
}

/* Offsets at and beyond the end: reads give 0 (not the guard), writes change nothing. */
static void
test_beyond(void)
{
	static const uint32_t offs[] = { BAR_LEN, BAR_LEN + 4, BAR_LEN + 0x100, 2 * BAR_LEN - 4 };

	setup();
	for (unsigned int i = 0; i < RTE_DIM(offs); i++) {
		TEST_CHECK_EQ(irdma_rd32(&hw, offs[i]), 0);
		irdma_wr32(&hw, offs[i], 0xdeadbeef);
	}
	TEST_CHECK_EQ(hw.reg_refused, 2 * RTE_DIM(offs));
	TEST_CHECK(guard_intact());
}

/* A register that straddles the end, and misaligned offsets inside, are refused too. */
static void
test_misaligned(void)
{
	setup();
	memset(mem, 0x5a, BAR_LEN);
	TEST_CHECK_EQ(irdma_rd32(&hw, BAR_LEN - 2), 0);
	irdma_wr32(&hw, BAR_LEN - 2, 0xdeadbeef);
	TEST_CHECK_EQ(irdma_rd32(&hw, 2), 0);
	irdma_wr32(&hw, 1, 0xdeadbeef);
	TEST_CHECK_EQ(hw.reg_refused, 4);
	TEST_CHECK_EQ(mem[1], 0x5a);
	TEST_CHECK_EQ(mem[BAR_LEN - 1], 0x5a);
	TEST_CHECK(guard_intact());
}

/* A zero-length BAR0 (never mapped properly) refuses everything. */
static void
test_empty(void)
{
	setup();
	hw.bar0_len = 0;
	TEST_CHECK_EQ(irdma_rd32(&hw, 0), 0);
	irdma_wr32(&hw, 0, 1);
	TEST_CHECK_EQ(hw.reg_refused, 2);
	TEST_CHECK_EQ(mem[0], 0);
}

int
main(void)
{
	TEST_RUN(test_inside);
	TEST_RUN(test_beyond);
	TEST_RUN(test_misaligned);
	TEST_RUN(test_empty);
	return test_done();
}
