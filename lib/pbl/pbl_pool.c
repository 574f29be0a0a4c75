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

/* Mark granules [g, g + need) of a chunk as one run (used) or as free again. */
static void
run_mark_locked(struct pbl_chunk *c, uint64_t g, uint32_t need, bool used)
{
	bit_assign(c->used, g, need, used);
	bit_assign(c->start, g, 1, used);
	if (used) {
		c->free_granules -= need;
		c->runs++;
	} else {
		c->free_granules += need;
		c->runs--;
	}
}

/* First-fit over the chunks added so far; no growth, no counters. */
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
		run_mark_locked(c, g, need, true);
		run->index = c->first_index + (uint32_t)g * PBL_GRANULE_PBLES;
		run->count = count;
		run->va = (uint64_t *)(void *)(pool->base_va +
					       ((uint64_t)run->index << PBL_PBLE_SHIFT));
		return 0;
	}
	return -ENOMEM;
}

/*
 * Find the allocated run that [index, index + count) names exactly. Logs and returns -EINVAL
 * when it is not one (nothing is changed); else sets the chunk and first granule.
 */
static int
run_find_locked(struct pbl_pool *pool, uint32_t index, uint32_t count, struct pbl_chunk **cp,
		uint64_t *gp)
{
	struct pbl_chunk *c;
	uint32_t ci, need;
	uint64_t g, end;

	ci = index / PBL_CHUNK_PBLES;
	if (count == 0 || index % PBL_GRANULE_PBLES != 0 || ci >= pool->nchunks) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: not a run of this pool",
			pool->name, index, count);
		return -EINVAL;
	}
	c = &pool->chunks[ci];
	g = (index - c->first_index) / PBL_GRANULE_PBLES;
	need = granules_for(count);
	end = g + need;
	if (end > c->granules) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: runs past its chunk",
			pool->name, index, count);
		return -EINVAL;
	}
	if (!bit_test(c->start, g)) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: %s", pool->name, index, count,
			bit_test(c->used, g) ? "not the start of a run" :
					       "not allocated (double free?)");
		return -EINVAL;
	}
	if (bit_find(c->used, end, g, false) < end ||
	    bit_find(c->start, end, g + 1, true) < end) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: longer than the run at %u",
			pool->name, index, count, index);
		return -EINVAL;
	}
	if (end < c->granules && bit_test(c->used, end) && !bit_test(c->start, end)) {
		PBL_LOG(ERR, "%s: free of PBLEs %u+%u refused: shorter than the run at %u",
			pool->name, index, count, index);
		return -EINVAL;
	}
	*cp = c;
	*gp = g;
	return 0;
}

/* Exact free; logs and returns -EINVAL without touching anything when the run is not one. */
static int
run_free_locked(struct pbl_pool *pool, uint32_t index, uint32_t count)
{
	struct pbl_chunk *c;
	uint64_t g;

	if (run_find_locked(pool, index, count, &c, &g) != 0) {
		pool->failures++;
		return -EINVAL;
	}
	run_mark_locked(c, g, granules_for(count), false);
	pool->frees++;
	return 0;
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
	if (pool == NULL) {
		PBL_LOG(ERR, "no memory for a pool");
		return -ENOMEM;
	}
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
	if (rc == 0) {
		pool->allocs++;
	} else {
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
	uint32_t nchunks;

	if (pool == NULL)
		return NULL;
	/* Acquire: pairs with the release in pool_grow_locked, so the chunk's fields are seen. */
	nchunks = __atomic_load_n(&pool->nchunks, __ATOMIC_ACQUIRE);
	if (ci >= nchunks ||
	    (index - pool->chunks[ci].first_index) / PBL_GRANULE_PBLES >= pool->chunks[ci].granules)
		return NULL;
	return (uint64_t *)(void *)(pool->base_va + ((uint64_t)index << PBL_PBLE_SHIFT));
}

rte_iova_t
pbl_pool_pble_iova(const struct pbl_pool *pool, uint32_t index)
{
	if (pool == NULL || (uint64_t)index / PBL_GRANULE_PBLES >= pool->region_granules)
		return RTE_BAD_IOVA;
	return pool->base_iova + ((uint64_t)index << PBL_PBLE_SHIFT);
}

void
pbl_pool_stats_get(struct pbl_pool *pool, struct pbl_pool_stats *st)
{
	uint32_t i;

	if (st == NULL)
		return;
	memset(st, 0, sizeof(*st));
	if (pool == NULL)
		return;
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

	if (pool == NULL) {
		PBL_LOG(ERR, "NULL pool");
		return -EINVAL;
	}
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

/*
 * Mark leaves [0, leaves) of a tree free, reading their indices from the root: the undo of
 * tree_alloc_locked (leaves known good) and of a refused pbl_pool_free_tree (leaves just
 * checked). With used = true the same leaves are marked allocated again.
 */
static void
tree_leaves_mark_locked(struct pbl_pool *pool, const uint64_t *root, uint64_t npages,
			uint32_t leaves, bool used)
{
	uint32_t i;

	for (i = 0; i < leaves; i++) {
		uint32_t index = (uint32_t)pbl_le64_load(&root[i]);
		struct pbl_chunk *c = &pool->chunks[index / PBL_CHUNK_PBLES];

		run_mark_locked(c, (index - c->first_index) / PBL_GRANULE_PBLES,
				granules_for(pbl_leaf_pbles(npages, i)), used);
	}
}

static int
tree_alloc_locked(struct pbl_pool *pool, uint64_t npages, struct pbl_run *root)
{
	uint64_t nleaves = pbl_leaf_count(npages);
	uint32_t i;

	if (nleaves > PBL_CHUNK_PBLES || run_alloc_locked(pool, (uint32_t)nleaves, root) != 0)
		return -ENOMEM;
	for (i = 0; i < nleaves; i++) {
		struct pbl_run leaf;

		if (run_alloc_locked(pool, pbl_leaf_pbles(npages, i), &leaf) != 0) {
			struct pbl_chunk *c = &pool->chunks[root->index / PBL_CHUNK_PBLES];

			tree_leaves_mark_locked(pool, root->va, npages, i, false);
			run_mark_locked(c, (root->index - c->first_index) / PBL_GRANULE_PBLES,
					granules_for(root->count), false);
			return -ENOMEM;
		}
		/* A root PBLE holds the leaf's PBLE index, not its address. */
		pbl_le64_store(&root->va[i], leaf.index);
	}
	return 0;
}

int
pbl_pool_grant(struct pbl_pool *pool, uint64_t npages, uint32_t level_mask,
	       struct pbl_pool_grant *grant)
{
	uint32_t levels = pbl_levels_possible(npages, level_mask);
	bool l1 = (levels & PBL_LEVEL_MASK(PBL_LEVEL_1)) != 0;
	bool l2 = (levels & PBL_LEVEL_MASK(PBL_LEVEL_2)) != 0;
	int rc = -ENOMEM;

	if (levels == 0)
		return -ENOMEM;
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		if (l1 && run_alloc_locked(pool, (uint32_t)npages, &grant->run) == 0) {
			grant->level = PBL_LEVEL_1;
			pool->allocs++;
			rc = 0;
			break;
		}
		if (l2 && tree_alloc_locked(pool, npages, &grant->run) == 0) {
			grant->level = PBL_LEVEL_2;
			pool->allocs += grant->run.count + 1;
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
	struct pbl_chunk *rc_chunk, *c;
	const uint64_t *root;
	uint64_t rg, g;
	uint32_t i;

	pthread_mutex_lock(&pool->lock);
	/* The root first: leaf indices are only read from a root that is still allocated. */
	if (root_count == 0 || pbl_leaf_count(npages) != root_count ||
	    run_find_locked(pool, root_index, root_count, &rc_chunk, &rg) != 0) {
		PBL_LOG(ERR, "%s: level-2 root %u+%u for %" PRIu64 " pages is not a live tree",
			pool->name, root_index, root_count, npages);
		goto refuse;
	}
	root = pbl_pool_pble(pool, root_index);
	for (i = 0; i < root_count; i++) {
		uint64_t leaf = pbl_le64_load(&root[i]);

		if (leaf >= PBL_INVALID_INDEX ||
		    run_find_locked(pool, (uint32_t)leaf, pbl_leaf_pbles(npages, i), &c, &g) != 0) {
			PBL_LOG(ERR, "%s: level-2 root %u: entry %u (0x%" PRIx64 ") is not a leaf;"
				" nothing freed", pool->name, root_index, i, leaf);
			/* Leaves [0, i) were freed on the way: take them back. */
			tree_leaves_mark_locked(pool, root, npages, i, true);
			goto refuse;
		}
		run_mark_locked(c, g, granules_for(pbl_leaf_pbles(npages, i)), false);
	}
	/* A corrupted root may have named itself as a leaf. */
	if (run_find_locked(pool, root_index, root_count, &rc_chunk, &rg) != 0) {
		PBL_LOG(ERR, "%s: level-2 root %u names itself as a leaf; nothing freed",
			pool->name, root_index);
		tree_leaves_mark_locked(pool, root, npages, root_count, true);
		goto refuse;
	}
	run_mark_locked(rc_chunk, rg, granules_for(root_count), false);
	pool->frees += root_count + 1;
	pthread_mutex_unlock(&pool->lock);
	return 0;
refuse:
	pool->failures++;
	pthread_mutex_unlock(&pool->lock);
	return -EINVAL;
}
