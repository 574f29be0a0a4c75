/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PBLE pool against a reference model: chunk growth, first-fit placement, exhaustion,
 * exact frees and the refusal of bad ones. No EAL memory is needed: the "PBLE region" is
 * ordinary heap memory, as the pool only ever touches it through the VA it was given.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pbl.h>
#include <rte_common.h>
#include <rte_log.h>

#include "test.h"
#include "test_pbl_common.h"

#define MB (UINT64_C(1) << 20)
#define FAKE_IOVA UINT64_C(0x7700000000)
#define RANDOM_OPS 30000
#define RANDOM_SEED 0x5eed1234u
#define SMALL_RUN_MAX 3000
#define BIG_RUN_MAX 120000
#define BIG_RUN_ONE_IN 16
#define MAX_LIVE 4096
#define CHECK_EVERY 500

/* Log lines of lib.pbl land here, so the cases can check that refusals are explained. */
static char *log_buf;
static size_t log_size;
static FILE *log_stream;

static bool
log_has(const char *needle)
{
	fflush(log_stream);
	return log_buf != NULL && strstr(log_buf, needle) != NULL;
}

static uint64_t *
region_alloc(uint64_t size)
{
	void *p = aligned_alloc(PBL_GRANULE_SIZE, RTE_ALIGN_CEIL(size, PBL_GRANULE_SIZE));

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static int
pool_make(uint64_t *region, uint64_t size, struct pbl_pool **pool)
{
	struct pbl_pool_conf conf = {
		.base_va = region,
		.base_iova = FAKE_IOVA,
		.size = size,
		.name = "test-pool",
	};

	return pbl_pool_create(&conf, pool);
}

/* ---- fixed cases ------------------------------------------------------------------------- */

static void
test_create_bad_conf(void)
{
	uint64_t *region = region_alloc(MB);
	struct pbl_pool_conf conf = { .base_va = region, .size = MB };
	struct pbl_pool *pool = (void *)1;

	TEST_CHECK_EQ(pbl_pool_create(NULL, &pool), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_create(&conf, NULL), -EINVAL);
	conf.base_va = NULL;
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), -EINVAL);
	TEST_CHECK(pool == NULL);
	conf.base_va = (uint8_t *)region + PBL_PBLE_SIZE;
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), -EINVAL);
	conf.base_va = region;
	conf.size = PBL_GRANULE_SIZE - 1;
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), -EINVAL);
	/* More PBLEs than 32-bit indices can name. */
	conf.size = (uint64_t)PBL_INVALID_INDEX * PBL_PBLE_SIZE + PBL_GRANULE_SIZE;
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_destroy(NULL), 0);
	free(region);
}

static void
test_alloc_basics(void)
{
	uint64_t *region = region_alloc(MB);
	struct pbl_run a, b, c, d;
	struct pbl_pool_stats st;
	struct pbl_pool *pool;

	TEST_CHECK_EQ(pool_make(region, MB, &pool), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 0, &a), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES + 1, &a), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 1, &a), 0);
	TEST_CHECK_EQ(a.index, 0);
	TEST_CHECK(a.va == region);
	/* One PBLE still takes a 64-byte granule: the next run starts 8 PBLEs later. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 9, &b), 0);
	TEST_CHECK_EQ(b.index, PBL_GRANULE_PBLES);
	TEST_CHECK(b.va == region + b.index);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 8, &c), 0);
	TEST_CHECK_EQ(c.index, 3 * PBL_GRANULE_PBLES);
	TEST_CHECK_EQ(pbl_pool_pble_iova(pool, c.index), FAKE_IOVA + c.index * PBL_PBLE_SIZE);
	TEST_CHECK(pbl_pool_pble(pool, c.index) == c.va);
	TEST_CHECK(pbl_pool_pble(pool, MB / PBL_PBLE_SIZE) == NULL);
	TEST_CHECK_EQ(pbl_pool_pble_iova(pool, MB / PBL_PBLE_SIZE), RTE_BAD_IOVA);
	/* First fit: a freed hole is reused by a run that fits in it. */
	TEST_CHECK_EQ(pbl_pool_free(pool, b.index, b.count), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 16, &d), 0);
	TEST_CHECK_EQ(d.index, b.index);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.runs, 3);
	TEST_CHECK_EQ(st.used_pbles, 4 * PBL_GRANULE_PBLES);
	TEST_CHECK_EQ(st.region_pbles, MB / PBL_PBLE_SIZE);
	TEST_CHECK_EQ(st.chunks, 1);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	/* Destroying with live runs reports them. */
	TEST_CHECK_EQ(pbl_pool_destroy(pool), -EBUSY);
	free(region);
}

struct hook_log {
	unsigned int calls;
	uint64_t offsets[8];
	uint64_t lens[8];
	int fail_next;
};

static int
chunk_hook(void *ctx, uint64_t offset, uint64_t len)
{
	struct hook_log *h = ctx;

	if (h->fail_next) {
		h->fail_next = 0;
		return -ENOSPC;
	}
	if (h->calls < RTE_DIM(h->offsets)) {
		h->offsets[h->calls] = offset;
		h->lens[h->calls] = len;
	}
	h->calls++;
	return 0;
}

static void
test_growth_and_exhaustion(void)
{
	/* 2.5 chunks: two full ones and a half one. */
	const uint64_t size = 2 * PBL_CHUNK_SIZE + PBL_CHUNK_SIZE / 2;
	uint64_t *region = region_alloc(size);
	struct hook_log hook = { 0 };
	struct pbl_pool_conf conf = {
		.base_va = region, .size = size, .chunk_add = chunk_hook, .ctx = &hook,
	};
	struct pbl_run full1, full2, half, small, extra;
	struct pbl_pool_stats st;
	struct pbl_pool *pool;

	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), 0);
	TEST_CHECK_EQ(hook.calls, 1);
	TEST_CHECK_EQ(hook.offsets[0], 0);
	TEST_CHECK_EQ(hook.lens[0], PBL_CHUNK_SIZE);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 16, &small), 0);
	/* A full-chunk run does not fit next to it: a second chunk is added. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES, &full1), 0);
	TEST_CHECK_EQ(full1.index, PBL_CHUNK_PBLES);
	TEST_CHECK_EQ(hook.calls, 2);
	TEST_CHECK_EQ(hook.offsets[1], PBL_CHUNK_SIZE);
	/* The last chunk is a half one: a full-chunk run can never fit there. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES, &full2), -ENOMEM);
	TEST_CHECK_EQ(hook.calls, 3);
	TEST_CHECK_EQ(hook.offsets[2], 2 * PBL_CHUNK_SIZE);
	TEST_CHECK_EQ(hook.lens[2], PBL_CHUNK_SIZE / 2);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, 3);
	TEST_CHECK_EQ(st.added_pbles, size / PBL_PBLE_SIZE);
	/* All but 16 PBLEs are free in chunk 0 (first fit goes there), half a chunk in 2. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES - 16, &full2), 0);
	TEST_CHECK_EQ(full2.index, 16);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES / 2, &half), 0);
	TEST_CHECK_EQ(half.index, 2 * PBL_CHUNK_PBLES);
	/* Exhausted: nothing left at all. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 1, &extra), -ENOMEM);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), size / PBL_PBLE_SIZE);
	TEST_CHECK_EQ(pbl_pool_free(pool, half.index, half.count), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 1, &extra), 0);
	TEST_CHECK_EQ(extra.index, 2 * PBL_CHUNK_PBLES);
	TEST_CHECK_EQ(pbl_pool_free(pool, extra.index, extra.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, full2.index, full2.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, full1.index, full1.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, small.index, small.count), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

static void
test_chunk_hook_failure(void)
{
	const uint64_t size = 2 * PBL_CHUNK_SIZE;
	uint64_t *region = region_alloc(size);
	struct hook_log hook = { .fail_next = 1 };
	struct pbl_pool_conf conf = {
		.base_va = region, .size = size, .chunk_add = chunk_hook, .ctx = &hook,
	};
	struct pbl_run a, b;
	struct pbl_pool_stats st;
	struct pbl_pool *pool = NULL;

	/* The first chunk cannot be backed: no pool. */
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), -ENOSPC);
	TEST_CHECK(pool == NULL);
	TEST_CHECK_EQ(pbl_pool_create(&conf, &pool), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES, &a), 0);
	hook.fail_next = 1;
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 8, &b), -ENOMEM);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, 1);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	/* The hook works again: the chunk is added now. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 8, &b), 0);
	TEST_CHECK_EQ(b.index, PBL_CHUNK_PBLES);
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, a.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, b.index, b.count), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

static void
test_bad_frees(void)
{
	uint64_t *region = region_alloc(2 * PBL_CHUNK_SIZE);
	struct pbl_run a, b, c;
	struct pbl_pool_stats before, after;
	struct pbl_pool *pool;

	TEST_CHECK_EQ(pool_make(region, 2 * PBL_CHUNK_SIZE, &pool), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 24, &a), 0);	/* granules 0-2 */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 8, &b), 0);		/* granule 3 */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 40, &c), 0);	/* granules 4-8 */
	TEST_CHECK_EQ(pbl_pool_free(pool, c.index, c.count), 0);
	pbl_pool_stats_get(pool, &before);

	TEST_CHECK_EQ(pbl_pool_free(NULL, a.index, a.count), -EINVAL);
	/* Double free, with a log line saying so. */
	TEST_CHECK_EQ(pbl_pool_free(pool, c.index, c.count), -EINVAL);
	TEST_CHECK(log_has("double free"));
	/* Never allocated (foreign). */
	TEST_CHECK_EQ(pbl_pool_free(pool, 1024, 8), -EINVAL);
	/* Not granule aligned. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index + 1, 8), -EINVAL);
	/* The middle of a run. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index + PBL_GRANULE_PBLES, 8), -EINVAL);
	/* A prefix of a run. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, 8), -EINVAL);
	TEST_CHECK(log_has("shorter than the run"));
	/* Two runs at once. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, 32), -EINVAL);
	/* A run plus free space after it. */
	TEST_CHECK_EQ(pbl_pool_free(pool, b.index, 16), -EINVAL);
	/* Zero count; an index in a chunk not yet added; an index past the region. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, 0), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_free(pool, PBL_CHUNK_PBLES, 8), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_free(pool, UINT32_MAX - 7, 8), -EINVAL);
	/* Runs past the chunk end. */
	TEST_CHECK_EQ(pbl_pool_free(pool, PBL_CHUNK_PBLES - 8, 16), -EINVAL);

	pbl_pool_stats_get(pool, &after);
	TEST_CHECK_EQ(after.used_pbles, before.used_pbles);
	TEST_CHECK_EQ(after.runs, before.runs);
	TEST_CHECK_EQ(after.frees, before.frees);
	TEST_CHECK_EQ(after.failures, before.failures + 11);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	/* Counts that round to the same granules name the same run. */
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, 17), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, b.index, 1), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

/*
 * First fit across a bitmap word boundary: with granules 0-62 free and 63 busy, a run of 64
 * granules must start at granule 64, the first free one after the busy one.
 */
static void
test_first_fit_word_boundary(void)
{
	uint64_t *region = region_alloc(PBL_CHUNK_SIZE);
	struct pbl_run a, b, c, d;
	struct pbl_pool *pool;

	TEST_CHECK_EQ(pool_make(region, PBL_CHUNK_SIZE, &pool), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 63 * PBL_GRANULE_PBLES, &a), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 1, &b), 0);
	TEST_CHECK_EQ(b.index, 63 * PBL_GRANULE_PBLES);
	TEST_CHECK_EQ(pbl_pool_free(pool, a.index, a.count), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 64 * PBL_GRANULE_PBLES, &c), 0);
	TEST_CHECK_EQ(c.index, 64 * PBL_GRANULE_PBLES);
	/* The hole before it still takes a run that fits exactly. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 63 * PBL_GRANULE_PBLES, &d), 0);
	TEST_CHECK_EQ(d.index, 0);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, b.index, b.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, c.index, c.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, d.index, d.count), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

/* A run that ends exactly at the end of its chunk (and of a short last chunk). */
static void
test_run_at_chunk_end(void)
{
	const uint64_t size = PBL_CHUNK_SIZE + 100 * PBL_GRANULE_SIZE;
	uint64_t *region = region_alloc(size);
	struct pbl_run head, tail, last;
	struct pbl_pool_stats before, after;
	struct pbl_pool *pool;

	TEST_CHECK_EQ(pool_make(region, size, &pool), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, PBL_CHUNK_PBLES - 16, &head), 0);
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 16, &tail), 0);
	TEST_CHECK_EQ(tail.index, PBL_CHUNK_PBLES - 16);
	/* The short last chunk (100 granules), filled by one run. */
	TEST_CHECK_EQ(pbl_pool_alloc(pool, 100 * PBL_GRANULE_PBLES, &last), 0);
	TEST_CHECK_EQ(last.index, PBL_CHUNK_PBLES);
	pbl_pool_stats_get(pool, &before);
	/* A prefix of a run that ends on the chunk end is not the run. */
	TEST_CHECK_EQ(pbl_pool_free(pool, tail.index, 8), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_free(pool, last.index, 99 * PBL_GRANULE_PBLES), -EINVAL);
	TEST_CHECK_EQ(pbl_pool_free(pool, last.index, 101 * PBL_GRANULE_PBLES), -EINVAL);
	pbl_pool_stats_get(pool, &after);
	TEST_CHECK_EQ(after.used_pbles, before.used_pbles);
	TEST_CHECK_EQ(after.runs, before.runs);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, tail.index, tail.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, last.index, last.count), 0);
	TEST_CHECK_EQ(pbl_pool_free(pool, head.index, head.count), 0);
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(region);
}

/* ---- randomized against a reference model ------------------------------------------------ */

struct model {
	uint64_t region_granules;
	uint32_t nchunks;	/* chunks added */
	uint32_t max_chunks;
	uint32_t *run_len;	/* granules of the run starting here, 0 otherwise */
	uint8_t *used;
};

static uint32_t
model_chunk_granules(const struct model *m, uint32_t c)
{
	uint64_t chunk_granules = PBL_CHUNK_SIZE / PBL_GRANULE_SIZE;

	return (uint32_t)RTE_MIN(chunk_granules, m->region_granules - c * chunk_granules);
}

/* First fit over added chunks; the granule number (region-wide) or UINT64_MAX. */
static uint64_t
model_find(const struct model *m, uint32_t need)
{
	uint64_t chunk_granules = PBL_CHUNK_SIZE / PBL_GRANULE_SIZE;
	uint32_t c;

	for (c = 0; c < m->nchunks; c++) {
		uint64_t base = c * chunk_granules, n = model_chunk_granules(m, c), g = 0;

		while (g + need <= n) {
			uint64_t h;

			if (m->used[base + g]) {
				g += m->run_len[base + g];
				continue;
			}
			for (h = g; h < n && !m->used[base + h] && h - g < need; h++)
				;
			if (h - g == need)
				return base + g;
			g = h;
		}
	}
	return UINT64_MAX;
}

static int64_t
model_alloc(struct model *m, uint32_t count)
{
	uint32_t need = (count + PBL_GRANULE_PBLES - 1) / PBL_GRANULE_PBLES;

	for (;;) {
		uint64_t g = model_find(m, need);

		if (g != UINT64_MAX) {
			memset(&m->used[g], 1, need);
			m->run_len[g] = need;
			return (int64_t)(g * PBL_GRANULE_PBLES);
		}
		if (m->nchunks == m->max_chunks)
			return -ENOMEM;
		m->nchunks++;
	}
}

static void
model_free(struct model *m, uint32_t index)
{
	uint64_t g = index / PBL_GRANULE_PBLES;

	memset(&m->used[g], 0, m->run_len[g]);
	m->run_len[g] = 0;
}

struct live {
	uint32_t index;
	uint32_t count;
	uint64_t tag;
};

static void
test_random_vs_model(void)
{
	const uint64_t size = 3 * PBL_CHUNK_SIZE + 5 * PBL_GRANULE_SIZE * 1000;
	uint64_t *region = region_alloc(size);
	struct live *live = calloc(MAX_LIVE, sizeof(*live));
	uint64_t state = RANDOM_SEED, tag = 1;
	struct model m = { 0 };
	struct pbl_pool_stats st;
	struct pbl_pool *pool;
	unsigned int nlive = 0, op, mismatches = 0, enomem = 0;

	m.region_granules = size / PBL_GRANULE_SIZE;
	m.max_chunks = (uint32_t)((size + PBL_CHUNK_SIZE - 1) / PBL_CHUNK_SIZE);
	m.nchunks = 1;
	m.used = calloc(m.region_granules, 1);
	m.run_len = calloc(m.region_granules, sizeof(*m.run_len));
	TEST_CHECK_EQ(pool_make(region, size, &pool), 0);

	for (op = 0; op < RANDOM_OPS && mismatches == 0; op++) {
		bool do_alloc = nlive == 0 || (nlive < MAX_LIVE && tpbl_rand(&state) % 100 < 55);

		if (do_alloc) {
			uint32_t count = tpbl_rand(&state) % BIG_RUN_ONE_IN == 0 ?
						 1 + tpbl_rand(&state) % BIG_RUN_MAX :
						 1 + tpbl_rand(&state) % SMALL_RUN_MAX;
			int64_t want = model_alloc(&m, count);
			struct pbl_run run;
			int rc = pbl_pool_alloc(pool, count, &run);
			uint32_t i;

			if (want < 0) {
				enomem++;
				if (rc != -ENOMEM)
					mismatches++;
				continue;
			}
			if (rc != 0 || run.index != want) {
				printf("#   op %u: alloc %u: got %d/%u, model %" PRId64 "\n", op,
				       count, rc, run.index, want);
				mismatches++;
				continue;
			}
			/* Tag every PBLE of the run; an overlap would clobber another's tag. */
			for (i = 0; i < count; i++)
				run.va[i] = tag;
			live[nlive].index = run.index;
			live[nlive].count = count;
			live[nlive].tag = tag++;
			nlive++;
		} else {
			unsigned int k = tpbl_rand(&state) % nlive;
			uint64_t *va = pbl_pool_pble(pool, live[k].index);
			uint32_t i;

			for (i = 0; va != NULL && i < live[k].count; i++)
				if (va[i] != live[k].tag)
					break;
			TEST_CHECK(va != NULL && i == live[k].count);
			TEST_CHECK_EQ(pbl_pool_free(pool, live[k].index, live[k].count), 0);
			model_free(&m, live[k].index);
			live[k] = live[--nlive];
		}
		if (op % CHECK_EVERY == 0)
			TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	}
	TEST_CHECK_EQ(mismatches, 0);
	printf("#   %u ops, %u refused for lack of space, %u runs live at the end\n", op, enomem,
	       nlive);
	TEST_CHECK(enomem > 0);
	pbl_pool_stats_get(pool, &st);
	TEST_CHECK_EQ(st.chunks, m.nchunks);
	TEST_CHECK_EQ(st.runs, nlive);
	while (nlive > 0) {
		nlive--;
		TEST_CHECK_EQ(pbl_pool_free(pool, live[nlive].index, live[nlive].count), 0);
	}
	TEST_CHECK_EQ(tpbl_pool_used(pool), 0);
	TEST_CHECK_EQ(pbl_pool_check(pool), 0);
	TEST_CHECK_EQ(pbl_pool_destroy(pool), 0);
	free(m.used);
	free(m.run_len);
	free(live);
	free(region);
}

int
main(void)
{
	int rc;

	/* Errors the cases provoke on purpose are logged; keep them out of the TAP output. */
	log_stream = open_memstream(&log_buf, &log_size);
	if (log_stream == NULL || rte_openlog_stream(log_stream) != 0)
		return EXIT_FAILURE;
	TEST_RUN(test_create_bad_conf);
	TEST_RUN(test_alloc_basics);
	TEST_RUN(test_growth_and_exhaustion);
	TEST_RUN(test_chunk_hook_failure);
	TEST_RUN(test_bad_frees);
	TEST_RUN(test_first_fit_word_boundary);
	TEST_RUN(test_run_at_chunk_end);
	TEST_RUN(test_random_vs_model);
	rc = test_done();
	rte_openlog_stream(NULL);
	fclose(log_stream);
	free(log_buf);
	return rc;
}
