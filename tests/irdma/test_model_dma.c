/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's IOMMU view (model_dma.c) and the maps it remembers having found: accesses
 * alternating over more maps than it remembers read the right bytes, an unmap takes effect
 * on the next access of every kind however recently the map was found, a map put back at
 * the same IOVA over other memory is read there, and an access spanning two adjacent maps
 * is served by both. An INLINE model without EAL; the maps are plain buffers.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"
#include "test.h"

#define BUFS		6u	/* more than MODEL_DMA_HITS */
#define BUF_LEN		4096u
#define IOVA(i)		(UINT64_C(0x40000000) + (uint64_t)(i) * 0x100000u)

static uint8_t bufs[BUFS][BUF_LEN] __attribute__((aligned(64)));
static uint8_t other[BUF_LEN] __attribute__((aligned(64)));

/* The byte the test puts at offset @p off of buffer @p i. */
static uint8_t
pat(unsigned int i, unsigned int off)
{
	return (uint8_t)(i * 37u + off * 11u + 5u);
}

static int
dev_open(struct irdma_hw *hw, struct model_dev **d)
{
	struct irdma_model_config cfg;
	unsigned int i, k;

	irdma_model_config_default(&cfg);
	if (irdma_model_create(&cfg, hw) != 0)
		return -1;
	*d = model_dev_of(hw);
	for (i = 0; i < BUFS; i++) {
		for (k = 0; k < BUF_LEN; k++)
			bufs[i][k] = pat(i, k);
		if (model_dma_map(*d, bufs[i], IOVA(i), BUF_LEN) != 0)
			return -1;
	}
	return 0;
}

/* Reads, qword loads and stores round-robin over all maps, several times over. */
static void
test_alternating(void)
{
	struct model_dev *d;
	struct irdma_hw hw;
	unsigned int pass, i, bad = 0;
	uint8_t b[16];
	uint64_t v, want;

	if (dev_open(&hw, &d) != 0) {
		TEST_CHECK(false);
		return;
	}
	for (pass = 0; pass < 4; pass++)
		for (i = 0; i < BUFS; i++) {
			unsigned int off = (pass * 104u + i * 8u) % (BUF_LEN - sizeof(b));

			if (model_dma_read(d, IOVA(i) + off, b, sizeof(b)) != 0 ||
			    b[0] != pat(i, off) || b[15] != pat(i, off + 15))
				bad++;
			if (model_dma_load64(d, IOVA(i) + off, &v) != 0)
				bad++;
			memcpy(&want, &bufs[i][off], sizeof(want));
			if (v != rte_le_to_cpu_64(want))
				bad++;
			if (model_dma_store64(d, IOVA(i) + 2048, 0x1122334455667700ull + i) != 0)
				bad++;
			memcpy(&v, &bufs[i][2048], sizeof(v));
			if (rte_le_to_cpu_64(v) != 0x1122334455667700ull + i)
				bad++;
		}
	TEST_CHECK_EQ(bad, 0);
	irdma_model_destroy(&hw);
}

/*
 * Every map found just before: unmapping one makes the next read, write, load, store and
 * check of it fault and leaves the others readable; mapped again at the same IOVA over
 * other memory it is read there, not from the old buffer.
 */
static void
test_unmap_forgets(void)
{
	struct irdma_model_stats st0, st1;
	struct model_dev *d;
	struct irdma_hw hw;
	unsigned int i, victim;
	uint8_t b[8];
	uint64_t v;

	if (dev_open(&hw, &d) != 0) {
		TEST_CHECK(false);
		return;
	}
	for (victim = 0; victim < BUFS; victim++) {
		/* the victim among the maps found last, at every age */
		for (i = 0; i < BUFS; i++)
			TEST_CHECK_EQ(model_dma_read(d, IOVA((victim + 1 + i) % BUFS), b, 1), 0);
		TEST_CHECK_EQ(model_dma_unmap(d, bufs[victim], IOVA(victim), BUF_LEN), 0);
		TEST_CHECK_EQ(irdma_model_stats_get(&hw, &st0), 0);
		TEST_CHECK_EQ(model_dma_read(d, IOVA(victim), b, sizeof(b)), -EFAULT);
		TEST_CHECK_EQ(model_dma_write(d, IOVA(victim) + 8, b, sizeof(b)), -EFAULT);
		TEST_CHECK_EQ(model_dma_load64(d, IOVA(victim), &v), -EFAULT);
		TEST_CHECK_EQ(model_dma_store64(d, IOVA(victim), 1), -EFAULT);
		TEST_CHECK_EQ(model_dma_check(d, IOVA(victim), 1), -EFAULT);
		TEST_CHECK_EQ(irdma_model_stats_get(&hw, &st1), 0);
		TEST_CHECK_EQ(st1.dma_faults - st0.dma_faults, 5);
		for (i = 0; i < BUFS; i++) {
			if (i == victim)
				continue;
			TEST_CHECK_EQ(model_dma_read(d, IOVA(i) + 100, b, 1), 0);
			TEST_CHECK_EQ(b[0], pat(i, 100));
		}
		/* back at the same IOVA, over other memory */
		memset(other, 0xa0 + victim, sizeof(other));
		TEST_CHECK_EQ(model_dma_map(d, other, IOVA(victim), BUF_LEN), 0);
		TEST_CHECK_EQ(model_dma_read(d, IOVA(victim) + 7, b, 1), 0);
		TEST_CHECK_EQ(b[0], 0xa0 + victim);
		TEST_CHECK_EQ(model_dma_unmap(d, other, IOVA(victim), BUF_LEN), 0);
		TEST_CHECK_EQ(model_dma_map(d, bufs[victim], IOVA(victim), BUF_LEN), 0);
		TEST_CHECK_EQ(model_dma_read(d, IOVA(victim) + 7, b, 1), 0);
		TEST_CHECK_EQ(b[0], pat(victim, 7));
	}
	irdma_model_destroy(&hw);
}

/* Two buffers mapped back to back in IOVA: one access across the seam reads both. */
static void
test_span(void)
{
	struct model_dev *d;
	struct irdma_hw hw;
	uint8_t b[32];
	unsigned int k;

	if (dev_open(&hw, &d) != 0) {
		TEST_CHECK(false);
		return;
	}
	memset(other, 0x5c, sizeof(other));
	TEST_CHECK_EQ(model_dma_map(d, other, IOVA(0) + BUF_LEN, BUF_LEN), 0);
	/* found first: the lower map, which does not hold the whole access */
	TEST_CHECK_EQ(model_dma_read(d, IOVA(0), b, 1), 0);
	TEST_CHECK_EQ(model_dma_read(d, IOVA(0) + BUF_LEN - 16, b, sizeof(b)), 0);
	for (k = 0; k < 16; k++)
		TEST_CHECK_EQ(b[k], pat(0, BUF_LEN - 16 + k));
	for (k = 16; k < sizeof(b); k++)
		TEST_CHECK_EQ(b[k], 0x5c);
	/* past the upper map: nothing is copied */
	memset(b, 0, sizeof(b));
	TEST_CHECK_EQ(model_dma_read(d, IOVA(0) + 2 * BUF_LEN - 16, b, sizeof(b)), -EFAULT);
	TEST_CHECK_EQ(b[0], 0);
	TEST_CHECK_EQ(model_dma_unmap(d, other, IOVA(0) + BUF_LEN, BUF_LEN), 0);
	TEST_CHECK_EQ(model_dma_read(d, IOVA(0) + BUF_LEN - 16, b, sizeof(b)), -EFAULT);
	irdma_model_destroy(&hw);
}

int
main(void)
{
	TEST_RUN(test_alternating);
	TEST_RUN(test_unmap_forgets);
	TEST_RUN(test_span);
	return test_done();
}
