/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PBLE pool: an allocator over a PBLE region the driver owns.
 *
 * The region is cut at every PBL_CHUNK_SIZE boundary of its byte offset into chunks, which
 * are added one after the other as allocations need them (irdma adds one HMC segment
 * descriptor at a time the same way). Each chunk keeps two bitmaps with one bit per
 * PBL_GRANULE_SIZE bytes:
 *   used  - the granule belongs to an allocated run;
 *   start - the granule is the first of an allocated run.
 * A run is therefore the granules from a start bit up to (not including) the next granule
 * that is free or carries its own start bit. That is what lets a free be checked exactly:
 * the named run must begin at a start bit and end where the run ends.
 *
 * Runs never cross chunks. Everything is serialised by the pool mutex.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "pbl_private.h"

#define BITS_PER_WORD 64
#define POOL_NAME_LEN 32

struct pbl_chunk {
	uint64_t *used;		/* one bit per granule: allocated */
	uint64_t *start;	/* one bit per granule: first granule of a run */
	uint32_t first_index;	/* PBLE index of the chunk's first entry */
	uint32_t granules;	/* granules in the chunk */
	uint32_t free_granules;
	uint32_t runs;
};

struct pbl_pool {
	pthread_mutex_t lock;
	uint8_t *base_va;
	rte_iova_t base_iova;
	uint64_t region_granules;	/* whole region */
	uint64_t added_granules;	/* in chunks added so far */
	uint32_t max_chunks;
	uint32_t nchunks;
	struct pbl_chunk *chunks;	/* max_chunks entries, nchunks in use */
	int (*chunk_add)(void *ctx, uint64_t offset, uint64_t len);
	void *ctx;
	uint64_t allocs;
	uint64_t frees;
	uint64_t failures;
	char name[POOL_NAME_LEN];
};

/* ---- bitmap helpers ---------------------------------------------------------------------- */

static inline uint64_t
words_for(uint64_t bits)
{
	return (bits + BITS_PER_WORD - 1) / BITS_PER_WORD;
}

static inline bool
bit_test(const uint64_t *map, uint64_t bit)
{
	return (map[bit / BITS_PER_WORD] >> (bit % BITS_PER_WORD)) & 1;
}

/* First bit >= from (and < nbits) whose value is 'set'; nbits when there is none. */
static uint64_t
bit_find(const uint64_t *map, uint64_t nbits, uint64_t from, bool set)
{
	while (from < nbits) {
		uint64_t w = map[from / BITS_PER_WORD];

		if (!set)
			w = ~w;
		w &= UINT64_MAX << (from % BITS_PER_WORD);
		if (w != 0) {
			uint64_t bit = RTE_ALIGN_FLOOR(from, BITS_PER_WORD) + rte_bsf64(w);

			return RTE_MIN(bit, nbits);
		}
		from = RTE_ALIGN_FLOOR(from, BITS_PER_WORD) + BITS_PER_WORD;
	}
	return nbits;
}

/* Set or clear bits [from, from + n). */
static void
bit_assign(uint64_t *map, uint64_t from, uint64_t n, bool set)
{
	while (n > 0) {
		uint64_t off = from % BITS_PER_WORD;
		uint64_t take = RTE_MIN(n, BITS_PER_WORD - off);
		uint64_t mask = (take == BITS_PER_WORD ? UINT64_MAX : ((UINT64_C(1) << take) - 1))
				<< off;

		if (set)
			map[from / BITS_PER_WORD] |= mask;
		else
			map[from / BITS_PER_WORD] &= ~mask;
		from += take;
		n -= take;
	}
}

/* First-fit: first bit of n clear bits in a row, or UINT64_MAX. */
static uint64_t
bit_find_clear_area(const uint64_t *map, uint64_t nbits, uint64_t n)
{
	uint64_t from = 0;

	for (;;) {
		uint64_t start = bit_find(map, nbits, from, false);
		uint64_t busy;

		if (start + n > nbits)
			return UINT64_MAX;
		busy = bit_find(map, start + n, start, true);
		if (busy >= start + n)
			return start;
		from = busy + 1;
	}
}

static uint64_t
bit_count(const uint64_t *map, uint64_t nbits)
{
	uint64_t n = 0, i;

	for (i = 0; i < words_for(nbits); i++)
		n += (uint64_t)__builtin_popcountll(map[i]);
	return n;
}

/* ---- chunks -------------------------------------------------------------------------------- */

static inline uint32_t
granules_for(uint64_t pbles)
{
	return (uint32_t)((pbles + PBL_GRANULE_PBLES - 1) / PBL_GRANULE_PBLES);
}

/* Add the next chunk of the region. Returns 0, or -ENOSPC when the region is used up. */
static int
pool_grow_locked(struct pbl_pool *pool)
{
	struct pbl_chunk *c;
	uint64_t offset, len;
	uint64_t words;
	int rc;

	if (pool->nchunks == pool->max_chunks)
		return -ENOSPC;
	offset = (uint64_t)pool->nchunks * PBL_CHUNK_SIZE;
	len = RTE_MIN(PBL_CHUNK_SIZE, pool->region_granules * PBL_GRANULE_SIZE - offset);
	c = &pool->chunks[pool->nchunks];
	c->granules = (uint32_t)(len / PBL_GRANULE_SIZE);
	words = words_for(c->granules);
	c->used = calloc(2 * words, sizeof(uint64_t));
	if (c->used == NULL) {
		PBL_LOG(ERR, "%s: no memory for the bitmaps of chunk %u", pool->name,
			pool->nchunks);
		return -ENOMEM;
	}
	c->start = c->used + words;
	if (pool->chunk_add != NULL) {
		rc = pool->chunk_add(pool->ctx, offset, len);
		if (rc != 0) {
			PBL_LOG(ERR, "%s: backing chunk %u (offset %" PRIu64 ", %" PRIu64
				" bytes) failed: %d", pool->name, pool->nchunks, offset, len, rc);
			free(c->used);
			c->used = NULL;
			return rc < 0 ? rc : -ENOMEM;
		}
	}
	c->first_index = (uint32_t)(offset >> PBL_PBLE_SHIFT);
	c->free_granules = c->granules;
	c->runs = 0;
	pool->added_granules += c->granules;
	/* Publish the chunk after its fields: pbl_pool_pble() reads nchunks without the lock. */
	__atomic_store_n(&pool->nchunks, pool->nchunks + 1, __ATOMIC_RELEASE);
	PBL_LOG(DEBUG, "%s: chunk %u added: PBLEs %u..%" PRIu64, pool->name, pool->nchunks - 1,
		c->first_index, c->first_index + len / PBL_PBLE_SIZE - 1);
	return 0;
}

/* First-fit over the chunks added so far; no growth. */
static int
run_alloc_locked(struct pbl_pool *pool, uint32_t count, struct pbl_run *run)
{
	uint32_t need = granules_for(count);
	uint32_t i;

	for (i = 0; i < pool->nchunks; i++) {
		struct pbl_chunk *c = &pool->chunks[i];
		uint64_t g;

		if (c->free_granules < need)
			continue;
		g = bit_find_clear_area(c->used, c->granules, need);
		if (g == UINT64_MAX)
			continue;
		bit_assign(c->used, g, need, true);
		bit_assign(c->start, g, 1, true);
		c->free_granules -= need;
		c->runs++;
		run->index = c->first_index + (uint32_t)g * PBL_GRANULE_PBLES;
		run->count = count;
		run->va = (uint64_t *)(void *)(pool->base_va +
					       ((uint64_t)run->index << PBL_PBLE_SHIFT));
		pool->allocs++;
		return 0;
	}
	return -ENOMEM;
}

/* Exact free; logs and returns -EINVAL without touching anything when the run is not one. */
static int
run_free_locked(struct pbl_pool *pool, uint32_t index, uint32_t count)
{
	struct pbl_chunk *c;
	uint32_t ci, need;
	uint64_t g, end;

	ci = index / PBL_CHUNK_PBLES;
	if (count == 0 || index % PBL_GRANULE_PBLES != 0 || ci >= pool->nchunks) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: not a run of this pool",
			pool->name, index, count);
		goto refuse;
	}
	c = &pool->chunks[ci];
	g = (index - c->first_index) / PBL_GRANULE_PBLES;
	need = granules_for(count);
	end = g + need;
	if (end > c->granules) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: runs past its chunk",
			pool->name, index, count);
		goto refuse;
	}
	if (!bit_test(c->start, g)) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: %s", pool->name, index, count,
			bit_test(c->used, g) ? "not the start of a run" :
					       "not allocated (double free?)");
		goto refuse;
	}
	if (bit_find(c->used, end, g, false) < end ||
	    bit_find(c->start, end, g + 1, true) < end) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: longer than the run at %u",
			pool->name, index, count, index);
		goto refuse;
	}
	if (end < c->granules && bit_test(c->used, end) && !bit_test(c->start, end)) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: shorter than the run at %u",
			pool->name, index, count, index);
		goto refuse;
	}
	bit_assign(c->used, g, need, false);
	bit_assign(c->start, g, 1, false);
	c->free_granules += need;
	c->runs--;
	pool->frees++;
	return 0;
refuse:
	pool->failures++;
	return -EINVAL;
}

/* ---- public pool API --------------------------------------------------------------------- */

int
pbl_pool_create(const struct pbl_pool_conf *conf, struct pbl_pool **pool_out)
{
	struct pbl_pool *pool;
	uint64_t granules;
	int rc;

	if (pool_out == NULL || conf == NULL) {
		PBL_LOG(ERR, "NULL argument");
		return -EINVAL;
	}
	*pool_out = NULL;
	if (conf->base_va == NULL || ((uintptr_t)conf->base_va % PBL_GRANULE_SIZE) != 0) {
		PBL_LOG(ERR, "PBLE region base %p is not %u-byte aligned", conf->base_va,
			PBL_GRANULE_SIZE);
		return -EINVAL;
	}
	granules = conf->size / PBL_GRANULE_SIZE;
	if (granules == 0) {
		PBL_LOG(ERR, "PBLE region of %" PRIu64 " bytes holds no %u-byte granule",
			conf->size, PBL_GRANULE_SIZE);
		return -EINVAL;
	}
	/* Every index must fit in 32 bits and stay below PBL_INVALID_INDEX. */
	if (granules * PBL_GRANULE_PBLES >= PBL_INVALID_INDEX) {
		PBL_LOG(ERR, "PBLE region of %" PRIu64 " bytes exceeds 32-bit PBLE indices",
			conf->size);
		return -EINVAL;
	}
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL)
		return -ENOMEM;
	pool->max_chunks = (uint32_t)((granules * PBL_GRANULE_SIZE + PBL_CHUNK_SIZE - 1) /
				      PBL_CHUNK_SIZE);
	pool->chunks = calloc(pool->max_chunks, sizeof(*pool->chunks));
	if (pool->chunks == NULL) {
		PBL_LOG(ERR, "no memory for %u chunk descriptors", pool->max_chunks);
		free(pool);
		return -ENOMEM;
	}
	pthread_mutex_init(&pool->lock, NULL);
	pool->base_va = conf->base_va;
	pool->base_iova = conf->base_iova;
	pool->region_granules = granules;
	pool->chunk_add = conf->chunk_add;
	pool->ctx = conf->ctx;
	snprintf(pool->name, sizeof(pool->name), "%s",
		 conf->name != NULL ? conf->name : "pble-pool");
	rc = pool_grow_locked(pool);
	if (rc != 0) {
		pbl_pool_destroy(pool);
		return rc;
	}
	*pool_out = pool;
	return 0;
}

int
pbl_pool_destroy(struct pbl_pool *pool)
{
	uint32_t i, runs = 0;

	if (pool == NULL)
		return 0;
	for (i = 0; i < pool->nchunks; i++) {
		runs += pool->chunks[i].runs;
		free(pool->chunks[i].used);
	}
	if (runs != 0)
		PBL_LOG(WARNING, "%s: destroyed with %u runs still allocated", pool->name, runs);
	pthread_mutex_destroy(&pool->lock);
	free(pool->chunks);
	free(pool);
	return runs != 0 ? -EBUSY : 0;
}

int
pbl_pool_alloc(struct pbl_pool *pool, uint32_t count, struct pbl_run *run)
{
	int rc;

	if (pool == NULL || run == NULL) {
		PBL_LOG(ERR, "NULL argument");
		return -EINVAL;
	}
	if (count == 0 || count > PBL_CHUNK_PBLES) {
		PBL_LOG(ERR, "%s: run of %u PBLEs: must be 1..%" PRIu64, pool->name, count,
			PBL_CHUNK_PBLES);
		return -EINVAL;
	}
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		rc = run_alloc_locked(pool, count, run);
		if (rc == 0 || pool_grow_locked(pool) != 0)
			break;
	}
	if (rc != 0) {
		pool->failures++;
		PBL_LOG(ERR, "%s: no run of %u PBLEs left (%u chunks of %u added)", pool->name,
			count, pool->nchunks, pool->max_chunks);
	}
	pthread_mutex_unlock(&pool->lock);
	return rc;
}

int
pbl_pool_free(struct pbl_pool *pool, uint32_t index, uint32_t count)
{
	int rc;

	if (pool == NULL) {
		PBL_LOG(ERR, "NULL pool");
		return -EINVAL;
	}
	pthread_mutex_lock(&pool->lock);
	rc = run_free_locked(pool, index, count);
	pthread_mutex_unlock(&pool->lock);
	return rc;
}

uint64_t *
pbl_pool_pble(const struct pbl_pool *pool, uint32_t index)
{
	/* nchunks only grows; a racing reader sees an older, smaller bound, which is safe. */
	uint32_t ci = index / PBL_CHUNK_PBLES;
	uint32_t nchunks = __atomic_load_n(&pool->nchunks, __ATOMIC_ACQUIRE);

	if (ci >= nchunks ||
	    (index - pool->chunks[ci].first_index) / PBL_GRANULE_PBLES >= pool->chunks[ci].granules)
		return NULL;
	return (uint64_t *)(void *)(pool->base_va + ((uint64_t)index << PBL_PBLE_SHIFT));
}

rte_iova_t
pbl_pool_pble_iova(const struct pbl_pool *pool, uint32_t index)
{
	if ((uint64_t)index / PBL_GRANULE_PBLES >= pool->region_granules)
		return RTE_BAD_IOVA;
	return pool->base_iova + ((uint64_t)index << PBL_PBLE_SHIFT);
}

void
pbl_pool_stats_get(struct pbl_pool *pool, struct pbl_pool_stats *st)
{
	uint32_t i;

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&pool->lock);
	st->region_pbles = pool->region_granules * PBL_GRANULE_PBLES;
	st->added_pbles = pool->added_granules * PBL_GRANULE_PBLES;
	st->chunks = pool->nchunks;
	for (i = 0; i < pool->nchunks; i++) {
		const struct pbl_chunk *c = &pool->chunks[i];

		st->used_pbles += (uint64_t)(c->granules - c->free_granules) * PBL_GRANULE_PBLES;
		st->runs += c->runs;
	}
	st->allocs = pool->allocs;
	st->frees = pool->frees;
	st->failures = pool->failures;
	pthread_mutex_unlock(&pool->lock);
}

int
pbl_pool_check(struct pbl_pool *pool)
{
	uint64_t added = 0;
	uint32_t i, w;
	int rc = 0;

	pthread_mutex_lock(&pool->lock);
	for (i = 0; i < pool->nchunks && rc == 0; i++) {
		const struct pbl_chunk *c = &pool->chunks[i];
		uint64_t words = words_for(c->granules);
		uint64_t tail = c->granules % BITS_PER_WORD;

		added += c->granules;
		if (c->first_index != i * PBL_CHUNK_PBLES) {
			PBL_LOG(ERR, "%s: chunk %u starts at PBLE %u", pool->name, i,
				c->first_index);
			rc = -EFAULT;
		} else if (bit_count(c->used, c->granules) != c->granules - c->free_granules) {
			PBL_LOG(ERR, "%s: chunk %u: used bits disagree with the free count",
				pool->name, i);
			rc = -EFAULT;
		} else if (bit_count(c->start, c->granules) != c->runs) {
			PBL_LOG(ERR, "%s: chunk %u: start bits disagree with the run count",
				pool->name, i);
			rc = -EFAULT;
		} else if (tail != 0 && ((c->used[words - 1] | c->start[words - 1]) >> tail) != 0) {
			PBL_LOG(ERR, "%s: chunk %u: bits set past its end", pool->name, i);
			rc = -EFAULT;
		}
		for (w = 0; w < words && rc == 0; w++) {
			if ((c->start[w] & ~c->used[w]) != 0) {
				PBL_LOG(ERR, "%s: chunk %u: a run starts on a free granule",
					pool->name, i);
				rc = -EFAULT;
			}
		}
		/* A used granule must belong to a run: the first used one after a free one
		 * (or at the chunk start) carries a start mark.
		 */
		for (w = 0; w < words && rc == 0; w++) {
			uint64_t prev = w == 0 ? 0 : c->used[w - 1] >> (BITS_PER_WORD - 1);
			uint64_t run_heads = c->used[w] & ~((c->used[w] << 1) | prev);

			if ((run_heads & ~c->start[w]) != 0) {
				PBL_LOG(ERR, "%s: chunk %u: used granules without a run start",
					pool->name, i);
				rc = -EFAULT;
			}
		}
	}
	if (rc == 0 && added != pool->added_granules) {
		PBL_LOG(ERR, "%s: chunk sizes disagree with the added count", pool->name);
		rc = -EFAULT;
	}
	pthread_mutex_unlock(&pool->lock);
	return rc;
}

/* ---- grants for the builders ------------------------------------------------------------ */

/* Free what a partly built level-2 tree holds: leaves [0, leaves) and the root. */
static void
tree_undo_locked(struct pbl_pool *pool, const struct pbl_run *root, uint32_t leaves,
		 uint64_t npages)
{
	uint32_t i;

	for (i = 0; i < leaves; i++) {
		uint64_t left = npages - (uint64_t)i * PBL_LEAF_PBLES;

		run_free_locked(pool, (uint32_t)pbl_le64_load(&root->va[i]),
				(uint32_t)RTE_MIN(left, (uint64_t)PBL_LEAF_PBLES));
	}
	run_free_locked(pool, root->index, root->count);
	/* The undone allocations are not frees the caller asked for. */
	pool->frees -= leaves + 1;
	pool->allocs -= leaves + 1;
}

static int
tree_alloc_locked(struct pbl_pool *pool, uint64_t npages, struct pbl_run *root)
{
	uint64_t nleaves = (npages + PBL_LEAF_PBLES - 1) >> PBL_LEAF_SHIFT;
	uint32_t i;

	if (nleaves > PBL_CHUNK_PBLES || run_alloc_locked(pool, (uint32_t)nleaves, root) != 0)
		return -ENOMEM;
	for (i = 0; i < nleaves; i++) {
		uint64_t left = npages - (uint64_t)i * PBL_LEAF_PBLES;
		struct pbl_run leaf;

		if (run_alloc_locked(pool, (uint32_t)RTE_MIN(left, (uint64_t)PBL_LEAF_PBLES),
				     &leaf) != 0) {
			tree_undo_locked(pool, root, i, npages);
			return -ENOMEM;
		}
		pbl_le64_store(&root->va[i], leaf.index);
	}
	return 0;
}

int
pbl_pool_grant(struct pbl_pool *pool, uint64_t npages, uint32_t level_mask,
	       struct pbl_pool_grant *grant)
{
	bool l1 = (level_mask & PBL_LEVEL_MASK(PBL_LEVEL_1)) != 0 && npages <= PBL_CHUNK_PBLES;
	bool l2 = (level_mask & PBL_LEVEL_MASK(PBL_LEVEL_2)) != 0 && npages > PBL_LEAF_PBLES;
	int rc = -ENOMEM;

	if (!l1 && !l2)
		return -ENOMEM;
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		if (l1 && run_alloc_locked(pool, (uint32_t)npages, &grant->run) == 0) {
			grant->level = PBL_LEVEL_1;
			rc = 0;
			break;
		}
		if (l2 && tree_alloc_locked(pool, npages, &grant->run) == 0) {
			grant->level = PBL_LEVEL_2;
			rc = 0;
			break;
		}
		if (pool_grow_locked(pool) != 0)
			break;
	}
	if (rc != 0)
		pool->failures++;
	pthread_mutex_unlock(&pool->lock);
	return rc;
}

int
pbl_pool_free_tree(struct pbl_pool *pool, uint32_t root_index, uint32_t root_count,
		   uint64_t npages)
{
	const uint64_t *root;
	uint32_t i;
	int rc = 0, r;

	pthread_mutex_lock(&pool->lock);
	root = pbl_pool_pble(pool, root_index);
	if (root == NULL || pbl_pool_pble(pool, root_index + root_count - 1) == NULL) {
		PBL_LOG(ERR, "%s: level-2 root %u+%u is outside the pool", pool->name,
			root_index, root_count);
		pool->failures++;
		pthread_mutex_unlock(&pool->lock);
		return -EINVAL;
	}
	for (i = 0; i < root_count; i++) {
		uint64_t left = npages - (uint64_t)i * PBL_LEAF_PBLES;
		uint64_t leaf = pbl_le64_load(&root[i]);

		r = leaf >= PBL_INVALID_INDEX ? -EINVAL :
			run_free_locked(pool, (uint32_t)leaf,
					(uint32_t)RTE_MIN(left, (uint64_t)PBL_LEAF_PBLES));
		if (r != 0 && rc == 0)
			rc = r;
	}
	r = run_free_locked(pool, root_index, root_count);
	if (r != 0 && rc == 0)
		rc = r;
	pthread_mutex_unlock(&pool->lock);
	return rc;
}
