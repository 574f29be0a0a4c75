/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef PBL_H
#define PBL_H

/**
 * @file
 * Queue and memory-region memory, and the physical buffer lists (PBLs) that describe it to an
 * RDMA engine of the irdma family.
 *
 * The model, bottom up:
 *
 * - **Memory.** Queue rings come from EAL (pbl_buf_alloc(): rte_zmalloc or an IOVA-contiguous
 *   memzone on a NUMA socket). Memory that EAL did not allocate (malloc'd, mmap'd, an
 *   application's own hugepage mapping) is made known with pbl_mem_register(), which adds it
 *   to EAL's memseg tables (rte_extmem_register) and calls the backend's DMA-map hook for each
 *   IOVA-contiguous piece. The IOVAs of a VA range in EAL memory are read from EAL's memseg
 *   tables in one pass (pbl_mem_resolve()), giving a *layout*: the list of IOVA-contiguous
 *   segments that make up the range. MRs over any other process memory go through a
 *   device's user memory table instead (pbl_umem_reg(), below): mapped for DMA at IOVA = VA,
 *   shared pages counted across overlapping registrations, a one-segment layout back. pbl_best_pgsz() picks the largest page size that layout
 *   allows, as the kernel's ib_umem_find_best_pgsz() does.
 *
 * - **PBLE pool.** The driver owns a region of 8-byte PBLEs (the HMC PBLE object) and hands
 *   its VA, IOVA and size to pbl_pool_create(). A PBLE index is its byte offset in that
 *   region divided by 8. The pool grows through the region in chunks of up to 2 MB
 *   (262144 PBLEs); each chunk has a bitmap with one bit per 64 bytes (8 PBLEs) and runs are
 *   allocated first-fit inside one chunk. Frees must name a run exactly as it was allocated.
 *   All pool calls are serialised by a mutex: they belong to the control path.
 *
 * - **PBLs.** pbl_build() describes a resolved range at one page size, choosing a level the
 *   caller allows (PBL_LEVEL_MASK()):
 *   - level 0: the range is IOVA-contiguous; the engine gets one address, no PBLE is used;
 *   - level 1: one run of PBLEs, one per page, each holding the page's IOVA;
 *   - level 2: a root run whose PBLEs hold the PBLE *indices* of leaf runs; each leaf holds up
 *     to 512 page IOVAs.
 *   The choice follows the kernel: contiguous -> 0; else 1 if allowed and a run can be had;
 *   else 2 if allowed and there are more than 512 pages; else an error.
 *   pbl_build_mr(), pbl_build_qp() and pbl_build_cq() wrap it with the MR, QP and CQ rules of
 *   irdma (see doc/pbl.md for the layouts). pbl_translate() and pbl_walk() follow an emitted
 *   PBL the way the engine does, reading the PBLE memory.
 *
 * Thread safety: the pool is safe for concurrent callers. Memory registration keeps a
 * process-wide list under a mutex. A struct pbl / pbl_qp / pbl_cq / pbl_layout belongs to
 * one caller at a time. Every control-path function returns 0 or a negative errno and logs
 * the reason through the rte_log type "lib.pbl".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of one PBLE in bytes. */
#define PBL_PBLE_SIZE 8
/** log2 of PBL_PBLE_SIZE: PBLE index = byte offset >> PBL_PBLE_SHIFT. */
#define PBL_PBLE_SHIFT 3
/** Largest number of PBLEs in one level-2 leaf. */
#define PBL_LEAF_PBLES 512
/** log2 of PBL_LEAF_PBLES. */
#define PBL_LEAF_SHIFT 9
/** The pool grows by chunks of at most this many bytes (one HMC segment descriptor). */
#define PBL_CHUNK_SIZE (UINT64_C(2) << 20)
/** PBLEs in a full chunk: also the longest run one allocation can return. */
#define PBL_CHUNK_PBLES (PBL_CHUNK_SIZE / PBL_PBLE_SIZE)
/** Allocation granule in bytes: one bitmap bit. */
#define PBL_GRANULE_SIZE 64
/** PBLEs per allocation granule. */
#define PBL_GRANULE_PBLES (PBL_GRANULE_SIZE / PBL_PBLE_SIZE)
/** An index that names no PBLE. */
#define PBL_INVALID_INDEX UINT32_MAX

/** Page size of QP and CQ rings. */
#define PBL_QUEUE_PAGE_SIZE UINT64_C(4096)
/** log2 of PBL_QUEUE_PAGE_SIZE. */
#define PBL_QUEUE_PAGE_SHIFT 12
/** Size of a QP or CQ shadow area. */
#define PBL_SHADOW_AREA_SIZE 64
/**
 * Required alignment of a separately supplied (CQ) shadow area: irdma aligns shadow areas
 * to 128 bytes (IRDMA_SHADOWAREA_M). A QP's shadow area is page-aligned by construction.
 */
#define PBL_SHADOW_AREA_ALIGN 128

/** Page size bit for pbl_best_pgsz() and pbl_build_mr(): 4 KB pages. */
#define PBL_PGSZ_4K (UINT64_C(1) << 12)
/** Page size bit: 2 MB pages. */
#define PBL_PGSZ_2M (UINT64_C(1) << 21)
/** Page size bit: 1 GB pages. */
#define PBL_PGSZ_1G (UINT64_C(1) << 30)
/** The page sizes irdma supports for MRs (its page_size_cap). */
#define PBL_PGSZ_CAP (PBL_PGSZ_4K | PBL_PGSZ_2M | PBL_PGSZ_1G)

/** PBL levels. */
enum pbl_level {
	PBL_LEVEL_0 = 0, /**< one IOVA, no PBLEs */
	PBL_LEVEL_1 = 1, /**< one run of PBLEs, one per page */
	PBL_LEVEL_2 = 2, /**< a root run of leaf indices, leaves of up to 512 PBLEs */
};

/** Bit for one level in a level mask. */
#define PBL_LEVEL_MASK(level) (UINT32_C(1) << (level))
/** Levels a QP or CQ ring may use. */
#define PBL_LEVELS_QUEUE (PBL_LEVEL_MASK(PBL_LEVEL_0) | PBL_LEVEL_MASK(PBL_LEVEL_1))
/** Levels an MR may use. */
#define PBL_LEVELS_ALL (PBL_LEVELS_QUEUE | PBL_LEVEL_MASK(PBL_LEVEL_2))

/* ----------------------------------------------------------------------------------------- */
/* Memory                                                                                    */
/* ----------------------------------------------------------------------------------------- */

/** pbl_buf_alloc() flag: the buffer must be IOVA-contiguous (an RTE_MEMZONE_IOVA_CONTIG zone). */
#define PBL_BUF_F_IOVA_CONTIG RTE_BIT32(0)

/** A queue buffer allocated from EAL memory. */
struct pbl_buf {
	void *va;                      /**< start, aligned to PBL_QUEUE_PAGE_SIZE */
	size_t len;                    /**< length asked for, rounded up to whole queue pages */
	int socket_id;                 /**< NUMA socket the memory came from */
	uint32_t flags;                /**< PBL_BUF_F_* given at allocation */
	const struct rte_memzone *mz;  /**< memzone when IOVA-contiguous, else NULL */
};

/**
 * Allocate zeroed queue memory from EAL on a NUMA socket.
 *
 * @param len
 *   Bytes wanted; rounded up to a multiple of PBL_QUEUE_PAGE_SIZE. Must not be 0.
 * @param socket_id
 *   EAL socket id, or SOCKET_ID_ANY for the caller's socket.
 * @param flags
 *   0 or PBL_BUF_F_IOVA_CONTIG.
 * @param[out] buf
 *   Filled on success; cleared on failure.
 * @return
 *   0, -EINVAL (bad argument) or -ENOMEM (EAL has no such memory).
 */
int pbl_buf_alloc(size_t len, int socket_id, uint32_t flags, struct pbl_buf *buf);

/**
 * Free a buffer from pbl_buf_alloc(). A cleared buffer (va == NULL) is ignored.
 *
 * @param buf
 *   The buffer; cleared on return.
 */
void pbl_buf_free(struct pbl_buf *buf);

/**
 * NUMA node of the memory at a VA: EAL's socket id for EAL memory, libnuma's answer for
 * memory outside EAL (and for external memory, whose EAL socket id is a heap id).
 *
 * @param va
 *   Any mapped address.
 * @return
 *   The node (>= 0), or a negative errno when neither EAL nor libnuma knows.
 */
int pbl_mem_socket(const void *va);

/**
 * DMA-map hook supplied by a backend. The VFIO backend maps the range into its container;
 * the device model records it in its IOMMU view.
 */
struct pbl_dma_hook {
	/** Map [va, va + len) at iova; returns 0 or a negative errno. */
	int (*map)(void *ctx, void *va, rte_iova_t iova, size_t len);
	/** Undo one map call with the same arguments; returns 0 or a negative errno. */
	int (*unmap)(void *ctx, void *va, rte_iova_t iova, size_t len);
	/** Passed to map and unmap. */
	void *ctx;
};

/**
 * Register memory that EAL did not allocate, so that its IOVAs can be resolved and it can
 * be DMA-mapped. Calls rte_extmem_register() and then hook->map once per IOVA-contiguous
 * piece. On any failure everything done so far is undone.
 *
 * @param va
 *   Start, aligned to page_sz.
 * @param len
 *   Length, a non-zero multiple of page_sz.
 * @param iovas
 *   IOVA of each page, or NULL: then IOVA = VA in IOVA-as-VA mode, and in IOVA-as-PA mode
 *   each page's physical address is read once from /proc/self/pagemap (EAL cannot know it).
 * @param n_pages
 *   Entries in iovas; must equal len / page_sz when iovas is given.
 * @param page_sz
 *   Page size of the mapping (4 KB, 2 MB or 1 GB typically); a power of two >= 4 KB.
 * @param hook
 *   DMA-map hook, or NULL when nothing needs mapping. Copied; kept until unregister.
 * @return
 *   0, -EINVAL, -EEXIST (overlaps registered memory), -ENOMEM, -ENOSPC (EAL is out of
 *   memseg lists) or the hook's error.
 */
int pbl_mem_register(void *va, size_t len, const rte_iova_t *iovas, unsigned int n_pages,
		     size_t page_sz, const struct pbl_dma_hook *hook);

/**
 * Undo pbl_mem_register(): hook->unmap for every piece, then rte_extmem_unregister().
 *
 * @param va
 *   Exactly the va given to pbl_mem_register().
 * @param len
 *   Exactly the len given to pbl_mem_register().
 * @return
 *   0, -ENOENT (no such registration) or the first error met (the rest is still undone).
 */
int pbl_mem_unregister(void *va, size_t len);

/* ----------------------------------------------------------------------------------------- */
/* User memory                                                                               */
/* ----------------------------------------------------------------------------------------- */

/**
 * A table of application memory mapped for one device's DMA: memory EAL did not allocate
 * (malloc, anonymous or file-backed mmap, stack, static data, hugepages mapped by the
 * application) and external memory (rte_extmem_register()) whose registrant did not
 * DMA-map it.
 *
 * Registrations are page-granular and may repeat and overlap: each page range handed to the
 * DMA hook (a *piece*) counts the registrations that overlap it and is unmapped when the
 * last of them goes. A piece is never split: each unmap undoes exactly one map, as the VFIO
 * type1 IOMMU requires. A piece never crosses a PBL_UMEM_CHUNK boundary, so a page stays
 * mapped after its own registrations are gone only while another live registration touches
 * the same chunk. Memory EAL does not know is mapped at IOVA = VA, a whole range in one map
 * call per chunk (no page walk, no /proc/self/pagemap), so its MR needs no PBLEs; external
 * memory keeps the IOVAs given to rte_extmem_register(). Pinning is the hook's business
 * (VFIO_IOMMU_MAP_DMA pins and charges RLIMIT_MEMLOCK). All calls serialise on one mutex
 * per table: they belong to the control path.
 */
struct pbl_umem;
struct pbl_layout;

/** Pieces of the user memory table never cross a multiple of this (2 MB). */
#define PBL_UMEM_CHUNK (UINT64_C(2) << 20)

/** Counters of a user memory table. */
struct pbl_umem_stats {
	uint32_t regs;          /**< live registrations */
	uint32_t pieces;        /**< live pieces (DMA maps) */
	uint64_t mapped_bytes;  /**< bytes the live pieces cover */
	uint64_t reg_calls;     /**< successful pbl_umem_reg() calls since creation */
	uint64_t maps;          /**< hook map calls that succeeded */
	uint64_t unmaps;        /**< hook unmap calls */
};

/**
 * Create a user memory table for one device.
 *
 * @param hook
 *   The device's DMA map hook; map and unmap are both required. Copied.
 * @param name
 *   Name used in log lines (copied, truncated to 31 bytes; may be NULL).
 * @param[out] out
 *   The table.
 * @return
 *   0, -EINVAL or -ENOMEM.
 */
int pbl_umem_create(const struct pbl_dma_hook *hook, const char *name, struct pbl_umem **out);

/**
 * Destroy a table, unmapping every piece still mapped.
 *
 * @param u
 *   The table, or NULL.
 * @return
 *   0, or -EBUSY (with a log line) when registrations were still live; the table is
 *   destroyed anyway.
 */
int pbl_umem_destroy(struct pbl_umem *u);

/**
 * Register [va, va + len) for DMA: every page it touches must be mapped in this process
 * (checked with mincore(), so an unmapped address fails before anything is mapped) and lie
 * outside EAL's own memory. Pages not yet mapped for the device are mapped now; pages
 * already mapped by an earlier registration are shared.
 *
 * @param u
 *   The table.
 * @param va
 *   Start, any alignment.
 * @param len
 *   Length, > 0; the range must not wrap.
 * @param[out] layout
 *   The IOVA layout of exactly [va, va + len) (pbl_best_pgsz(), pbl_build()); free it with
 *   pbl_layout_free().
 * @return
 *   0; -EINVAL (NULL, zero length, wrap-around, EAL's own memory); -EFAULT (a page is not
 *   mapped); -ENOMEM; or the hook's error (e.g. -ENOMEM when pinning hits RLIMIT_MEMLOCK).
 *   Every failure is logged and leaves the table as it was.
 */
int pbl_umem_reg(struct pbl_umem *u, const void *va, size_t len, struct pbl_layout **layout);

/**
 * Check that the device may write [va, va + len): every page lies in a writable mapping of
 * this process (one pass over /proc/self/maps), as a pin for device writes requires (VFIO's
 * type1 IOMMU pins with write access and fails with EFAULT otherwise). For application
 * memory an MR with write rights is registered over; EAL's memory passes without the read.
 *
 * @param va
 *   Start, any alignment.
 * @param len
 *   Length, > 0.
 * @return
 *   0; -EFAULT (a page is read-only or not mapped; the log line names the first); -EINVAL
 *   (NULL, zero length); -errno when /proc/self/maps cannot be read.
 */
int pbl_umem_check_writable(const void *va, size_t len);

/**
 * Undo one pbl_umem_reg() of the same range: pieces no other registration overlaps are
 * unmapped.
 *
 * @param u
 *   The table.
 * @param va
 *   The va given to pbl_umem_reg().
 * @param len
 *   The len given to pbl_umem_reg().
 * @return
 *   0, -EINVAL, or -ENOENT (some page of the range is not registered; nothing changes).
 */
int pbl_umem_dereg(struct pbl_umem *u, const void *va, size_t len);

/**
 * Read a table's counters.
 *
 * @param u
 *   The table; NULL gives zeroed counters.
 * @param[out] st
 *   The counters (ignored when NULL).
 */
void pbl_umem_stats_get(struct pbl_umem *u, struct pbl_umem_stats *st);

/**
 * True when [va, va + len) lies inside one pbl_mem_register() registration made with a DMA
 * hook (its registrant mapped it for DMA already).
 *
 * @param va
 *   Start of the range.
 * @param len
 *   Length of the range.
 * @return
 *   true or false.
 */
bool pbl_mem_is_mapped(const void *va, size_t len);

/** One IOVA-contiguous piece of a resolved range. */
struct pbl_seg {
	uint64_t va;      /**< first byte */
	rte_iova_t iova;  /**< IOVA of that byte */
	uint64_t len;     /**< bytes */
};

#ifdef __cplusplus
/* C++ has no flexible array member; g++ and clang++ accept it as an extension, laid out as
 * in C. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
/** The IOVA layout of a VA range: its IOVA-contiguous segments, in VA order. */
struct pbl_layout {
	uint64_t va;            /**< start of the range */
	uint64_t len;           /**< length of the range */
	uint64_t min_page_sz;   /**< smallest memseg page size met */
	int socket_id;          /**< EAL socket id of the first memseg list (may be a heap id) */
	uint32_t nsegs;         /**< entries in segs */
	struct pbl_seg segs[];  /**< the segments */
};
#ifdef __cplusplus
#pragma GCC diagnostic pop
#endif

/**
 * Resolve the IOVAs of [va, va + len) in one pass over EAL's memseg tables, holding EAL's
 * memory read lock. Every byte must lie in EAL memory or registered external memory that
 * has IOVAs.
 *
 * @param va
 *   Start of the range (any alignment).
 * @param len
 *   Length, > 0, va + len must not wrap.
 * @param[out] out
 *   The layout, to be freed with pbl_layout_free().
 * @return
 *   0, -EINVAL (zero length, overflow, a byte outside registered memory, a page without
 *   IOVA) or -ENOMEM.
 */
int pbl_mem_resolve(const void *va, size_t len, struct pbl_layout **out);

/**
 * Free a layout from pbl_mem_resolve(). NULL is ignored.
 *
 * @param layout
 *   The layout.
 */
void pbl_layout_free(struct pbl_layout *layout);

/**
 * IOVA of one byte of a resolved range.
 *
 * @param layout
 *   The layout.
 * @param offset
 *   Byte offset from layout->va, < layout->len.
 * @return
 *   The IOVA, or RTE_BAD_IOVA when offset is out of range.
 */
rte_iova_t pbl_layout_iova(const struct pbl_layout *layout, uint64_t offset);

/**
 * Largest page size in pgsz_bitmap that the layout allows, as ib_umem_find_best_pgsz()
 * picks it: every segment must keep VA and IOVA equal modulo the page size, every segment
 * but the last must end on a page boundary, and no page size larger than needed to hold the
 * whole range in one page is returned.
 *
 * @param layout
 *   The layout.
 * @param pgsz_bitmap
 *   Allowed page sizes (powers of two >= 4 KB OR'ed together), e.g. PBL_PGSZ_CAP.
 * @return
 *   The page size, or 0 when none of the allowed sizes fits.
 */
uint64_t pbl_best_pgsz(const struct pbl_layout *layout, uint64_t pgsz_bitmap);

/* ----------------------------------------------------------------------------------------- */
/* PBLE pool                                                                                 */
/* ----------------------------------------------------------------------------------------- */

struct pbl_pool;

/** Where the PBLE region is and how it is backed. */
struct pbl_pool_conf {
	/** VA of PBLE index 0; aligned to PBL_GRANULE_SIZE. */
	void *base_va;
	/** IOVA of PBLE index 0 (reported back; the engine addresses PBLEs by index). */
	rte_iova_t base_iova;
	/** Region size in bytes; rounded down to whole granules; at least one granule. */
	uint64_t size;
	/**
	 * Optional: called (under the pool lock) before the chunk [offset, offset + len) of the
	 * region is first used, e.g. to back it and program its segment descriptor. A non-zero
	 * return leaves the chunk unused and fails the allocation that needed it.
	 */
	int (*chunk_add)(void *ctx, uint64_t offset, uint64_t len);
	/** Passed to chunk_add. */
	void *ctx;
	/** Name used in log lines (copied; may be NULL). */
	const char *name;
};

/** A run of PBLEs. */
struct pbl_run {
	uint32_t index;  /**< first PBLE index */
	uint32_t count;  /**< PBLEs asked for */
	uint64_t *va;    /**< VA of the first PBLE */
};

/** Pool counters. */
struct pbl_pool_stats {
	uint64_t region_pbles;  /**< PBLEs in the whole region */
	uint64_t added_pbles;   /**< PBLEs in chunks added so far */
	uint64_t used_pbles;    /**< PBLEs in allocated runs, rounded up to granules */
	uint32_t chunks;        /**< chunks added */
	uint32_t runs;          /**< runs currently allocated */
	uint64_t allocs;        /**< successful allocations since creation */
	uint64_t frees;         /**< successful frees since creation */
	uint64_t failures;      /**< refused allocations and frees */
};

/**
 * Create a pool over a driver-supplied PBLE region. The first chunk is added at once.
 *
 * @param conf
 *   The region; copied.
 * @param[out] pool
 *   The pool.
 * @return
 *   0, -EINVAL or -ENOMEM, or the chunk_add hook's error.
 */
int pbl_pool_create(const struct pbl_pool_conf *conf, struct pbl_pool **pool);

/**
 * Destroy a pool. Runs still allocated are logged as leaks (the memory is the driver's).
 *
 * @param pool
 *   The pool, or NULL.
 * @return
 *   0, or -EBUSY when runs were still allocated (the pool is destroyed anyway).
 */
int pbl_pool_destroy(struct pbl_pool *pool);

/**
 * Allocate one run of count PBLEs, first-fit, growing the pool by chunks when needed.
 *
 * @param pool
 *   The pool.
 * @param count
 *   PBLEs wanted, 1 .. PBL_CHUNK_PBLES.
 * @param[out] run
 *   The run.
 * @return
 *   0, -EINVAL or -ENOMEM (no run that long fits anywhere in the region).
 */
int pbl_pool_alloc(struct pbl_pool *pool, uint32_t count, struct pbl_run *run);

/**
 * Free a run. It must be an allocated run, named by its first index and its count (counts
 * that round to the same number of granules are the same run).
 *
 * @param pool
 *   The pool.
 * @param index
 *   First PBLE index of the run.
 * @param count
 *   Its PBLE count.
 * @return
 *   0, or -EINVAL with a log line for a double free, a foreign run, a part of a run or
 *   several runs; the pool is unchanged then.
 */
int pbl_pool_free(struct pbl_pool *pool, uint32_t index, uint32_t count);

/**
 * VA of a PBLE, as the engine would find it: the index must lie in an added chunk.
 *
 * @param pool
 *   The pool.
 * @param index
 *   PBLE index.
 * @return
 *   The VA, or NULL when the index is outside the chunks added so far (or pool is NULL).
 *   Lock-free: safe against concurrent pool calls.
 */
uint64_t *pbl_pool_pble(const struct pbl_pool *pool, uint32_t index);

/**
 * IOVA of a PBLE (base_iova + index * 8).
 *
 * @param pool
 *   The pool.
 * @param index
 *   PBLE index.
 * @return
 *   The IOVA, or RTE_BAD_IOVA when the index is outside the region (or pool is NULL).
 */
rte_iova_t pbl_pool_pble_iova(const struct pbl_pool *pool, uint32_t index);

/**
 * Read the pool counters.
 *
 * @param pool
 *   The pool; NULL gives zeroed counters.
 * @param[out] stats
 *   The counters (ignored when NULL).
 */
void pbl_pool_stats_get(struct pbl_pool *pool, struct pbl_pool_stats *stats);

/**
 * Check the pool's invariants (bitmaps agree with the counters, run marks lie inside
 * allocated granules). Meant for tests and debugging.
 *
 * @param pool
 *   The pool.
 * @return
 *   0, -EINVAL (NULL pool), or -EFAULT with a log line naming the first broken invariant.
 */
int pbl_pool_check(struct pbl_pool *pool);

/* ----------------------------------------------------------------------------------------- */
/* PBLs                                                                                      */
/* ----------------------------------------------------------------------------------------- */

/** A built PBL: what the engine is told about a range, and what it takes to free it. */
struct pbl {
	struct pbl_pool *pool;  /**< pool of the PBLEs (NULL at level 0) */
	uint64_t va;            /**< first byte described */
	uint64_t len;           /**< bytes described */
	uint64_t npages;        /**< pages of 1 << page_shift covered */
	rte_iova_t addr;        /**< level 0: IOVA of the start of the first page */
	uint32_t index;         /**< level 1: first PBLE; level 2: first root PBLE */
	uint32_t root_count;    /**< level 2: root PBLEs (= leaves) */
	uint32_t first_offset;  /**< offset of va in its first page */
	uint8_t level;          /**< enum pbl_level */
	uint8_t page_shift;     /**< log2 of the page size */
};

/**
 * Build a PBL for a resolved range at one page size.
 *
 * @param pool
 *   PBLE pool (may be NULL when only level 0 is possible or allowed).
 * @param layout
 *   The range (pbl_mem_resolve()).
 * @param page_sz
 *   Page size: a power of two from 4 KB to 1 GB that the layout allows.
 * @param level_mask
 *   Allowed levels (PBL_LEVEL_MASK() bits). Level 0 is used whenever the range is
 *   IOVA-contiguous and it is allowed.
 * @param[out] pbl
 *   The PBL; free with pbl_free().
 * @return
 *   0; -EINVAL when the arguments are bad or the level mask cannot be met by this layout;
 *   -ENOMEM when the pool cannot supply the PBLEs.
 */
int pbl_build(struct pbl_pool *pool, const struct pbl_layout *layout, uint64_t page_sz,
	      uint32_t level_mask, struct pbl *pbl);

/**
 * Build an MR's PBL: resolve [va, va + len), pick the best page size in pgsz_bitmap and
 * build at level 0, 1 or 2 as level_mask allows.
 *
 * @param pool
 *   PBLE pool.
 * @param va
 *   Start of the MR.
 * @param len
 *   Length, > 0.
 * @param pgsz_bitmap
 *   Allowed page sizes, e.g. PBL_PGSZ_CAP.
 * @param level_mask
 *   Allowed levels, e.g. PBL_LEVELS_ALL.
 * @param[out] pbl
 *   The PBL.
 * @return
 *   As pbl_mem_resolve() and pbl_build().
 */
int pbl_build_mr(struct pbl_pool *pool, const void *va, size_t len, uint64_t pgsz_bitmap,
		 uint32_t level_mask, struct pbl *pbl);

/**
 * Free the PBLEs of a PBL (nothing at level 0) and clear it. A cleared PBL is ignored.
 *
 * @param pbl
 *   The PBL.
 * @return
 *   0, or -EINVAL when the pool refused a run (the PBL was corrupted or freed twice). A
 *   level-2 PBL is freed all or nothing: a root that is not allocated, or a root entry that
 *   does not name an allocated leaf of the right size, leaves the pool unchanged.
 */
int pbl_free(struct pbl *pbl);

/**
 * Translate a byte offset of the described range to its IOVA the way the engine does:
 * level 0 adds to the base address; level 1 reads the page's PBLE; level 2 reads the root
 * PBLE for the leaf index, then the leaf's PBLE. PBLEs are read from the pool memory.
 *
 * @param pbl
 *   The PBL.
 * @param offset
 *   Byte offset from pbl->va, < pbl->len.
 * @param[out] iova
 *   The IOVA.
 * @return
 *   0, or -EINVAL (offset out of range, or a PBLE index outside the pool's chunks).
 */
int pbl_translate(const struct pbl *pbl, uint64_t offset, rte_iova_t *iova);

/**
 * Walk the PBL: the IOVA of the start of each page first_page .. first_page + n - 1, as
 * the engine would read them (page 0 is the page holding pbl->va).
 *
 * @param pbl
 *   The PBL.
 * @param first_page
 *   First page wanted.
 * @param n
 *   Pages wanted; first_page + n <= pbl->npages.
 * @param[out] iovas
 *   n IOVAs.
 * @return
 *   0 or -EINVAL.
 */
int pbl_walk(const struct pbl *pbl, uint64_t first_page, uint64_t n, rte_iova_t *iovas);

/** QP rings of a QP buffer. */
enum pbl_qp_ring {
	PBL_QP_SQ = 0, /**< send queue */
	PBL_QP_RQ = 1, /**< receive queue */
};

/**
 * QP memory as CREATE_QP takes it. The buffer is sq_pages SQ pages, then rq_pages RQ pages,
 * then the 64-byte shadow area at offset 0 of the next page (all pages 4 KB).
 */
struct pbl_qp {
	struct pbl pbl;        /**< level 1 over SQ + RQ pages when virtual_map, else cleared */
	uint64_t sq_addr;      /**< SQ: IOVA, or first PBLE index when virtual_map */
	uint64_t rq_addr;      /**< RQ: IOVA, or PBLE index (SQ's + sq_pages) when virtual_map;
				    0 when rq_pages is 0 */
	rte_iova_t shadow_pa;  /**< shadow area IOVA (always an address) */
	uint32_t sq_pages;     /**< SQ pages */
	uint32_t rq_pages;     /**< RQ pages */
	bool virtual_map;      /**< CREATE_QP VQ bit: sq_addr / rq_addr are PBLE indices */
};

/**
 * Build QP memory (the kernel's irdma_handle_q_mem for a QP). SQ and RQ are passed as
 * physical addresses when each is IOVA-contiguous on its own; otherwise one level-1 run
 * covers SQ then RQ pages and the RQ starts at index + sq_pages.
 *
 * @param pool
 *   PBLE pool.
 * @param va
 *   QP buffer, aligned to PBL_QUEUE_PAGE_SIZE.
 * @param len
 *   Buffer length: sq_pages + rq_pages + 1 pages at least (the kernel's check), and the
 *   whole 64-byte shadow area, i.e. at least (sq_pages + rq_pages) * 4 KB + 64 bytes.
 * @param sq_pages
 *   SQ pages, >= 1.
 * @param rq_pages
 *   RQ pages (0 for a QP without RQ).
 * @param[out] qp
 *   The result; free with pbl_qp_free().
 * @return
 *   0, -EINVAL or -ENOMEM.
 */
int pbl_build_qp(struct pbl_pool *pool, const void *va, size_t len, uint32_t sq_pages,
		 uint32_t rq_pages, struct pbl_qp *qp);

/**
 * pbl_build_qp() with a choice of levels: @p level_mask PBL_LEVELS_QUEUE is
 * pbl_build_qp(); PBL_LEVEL_MASK(PBL_LEVEL_1) alone describes even IOVA-contiguous rings with
 * a level-1 run (to exercise the PBLE path).
 *
 * @return
 *   As pbl_build_qp(); -EINVAL also for a mask without level 1 or with level 2.
 */
int pbl_build_qp_levels(struct pbl_pool *pool, const void *va, size_t len, uint32_t sq_pages,
			uint32_t rq_pages, uint32_t level_mask, struct pbl_qp *qp);

/**
 * Free a QP's PBLEs, if any, and clear it.
 *
 * @param qp
 *   The QP memory.
 * @return
 *   As pbl_free().
 */
int pbl_qp_free(struct pbl_qp *qp);

/**
 * IOVA of a byte of a QP ring, as the engine computes it from sq_addr / rq_addr and the
 * VQ bit.
 *
 * @param qp
 *   The QP memory.
 * @param ring
 *   PBL_QP_SQ or PBL_QP_RQ.
 * @param offset
 *   Byte offset in that ring, below its size.
 * @param[out] iova
 *   The IOVA.
 * @return
 *   0 or -EINVAL.
 */
int pbl_qp_translate(const struct pbl_qp *qp, enum pbl_qp_ring ring, uint64_t offset,
		     rte_iova_t *iova);

/** CQ memory as CREATE_CQ takes it. */
struct pbl_cq {
	struct pbl pbl;        /**< ring at level 0 or level 1 */
	uint64_t ring_addr;    /**< ring IOVA, or first PBLE index when virtual_map */
	rte_iova_t shadow_pa;  /**< shadow area IOVA */
	uint32_t pages;        /**< ring pages */
	bool virtual_map;      /**< CREATE_CQ VIRTMAP bit (with LPBLSIZE = 1) */
};

/**
 * Build CQ memory: the ring at level 0 when IOVA-contiguous, else level 1; and a separate
 * 64-byte shadow area that must be aligned to PBL_SHADOW_AREA_ALIGN (128) and
 * IOVA-contiguous.
 *
 * @param pool
 *   PBLE pool.
 * @param ring_va
 *   Ring, aligned to PBL_QUEUE_PAGE_SIZE.
 * @param ring_len
 *   Ring length, > 0.
 * @param shadow_va
 *   Shadow area.
 * @param[out] cq
 *   The result; free with pbl_cq_free().
 * @return
 *   0, -EINVAL or -ENOMEM.
 */
int pbl_build_cq(struct pbl_pool *pool, const void *ring_va, size_t ring_len,
		 const void *shadow_va, struct pbl_cq *cq);

/**
 * pbl_build_cq() with a choice of levels, as pbl_build_qp_levels().
 *
 * @return
 *   As pbl_build_cq(); -EINVAL also for a mask without level 1 or with level 2.
 */
int pbl_build_cq_levels(struct pbl_pool *pool, const void *ring_va, size_t ring_len,
			const void *shadow_va, uint32_t level_mask, struct pbl_cq *cq);

/**
 * Free a CQ's PBLEs, if any, and clear it.
 *
 * @param cq
 *   The CQ memory.
 * @return
 *   As pbl_free().
 */
int pbl_cq_free(struct pbl_cq *cq);

/**
 * IOVA of a byte of a CQ ring, as the engine computes it from ring_addr and VIRTMAP.
 *
 * @param cq
 *   The CQ memory.
 * @param offset
 *   Byte offset in the ring, below pages * 4 KB.
 * @param[out] iova
 *   The IOVA.
 * @return
 *   0 or -EINVAL.
 */
int pbl_cq_translate(const struct pbl_cq *cq, uint64_t offset, rte_iova_t *iova);

/** Log type "lib.pbl". */
extern int pbl_logtype;

#ifdef __cplusplus
}
#endif

#endif /* PBL_H */
