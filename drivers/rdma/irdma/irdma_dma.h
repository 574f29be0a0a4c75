/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_DMA_H
#define IRDMA_DMA_H

/**
 * @file
 * DMA memory of the irdma PMD (irdma_ctrl.c): IOVA-contiguous buffers (struct irdma_dma_mem:
 * contexts, the CQP, event queues, shadow areas) and queue memory of 4 KB pages
 * (struct irdma_qmem: QP and CQ rings), each allocated from EAL and DMA-mapped through
 * irdma_hw.h.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_memory.h>
#include <rte_memzone.h>

#include <pbl.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;

/** Alignment of CQ, CEQ and AEQ rings. */
#define IRDMA_CTRL_RING_ALIGN		256u

/**
 * Queue memory (QP and CQ rings): whole 4 KB pages, VA-contiguous for the CPU, not
 * necessarily IOVA-contiguous; each IOVA-contiguous piece is DMA-mapped. What the device is
 * told about it (an IOVA or a level-1 PBL) is built with lib/pbl's queue builders.
 */
struct irdma_qmem {
	struct pbl_buf buf;		/**< the pages (buf.va NULL when not allocated) */
	struct pbl_layout *layout;	/**< their IOVA pieces, each DMA-mapped */
};

/** One DMA-mapped, IOVA-contiguous buffer. */
struct irdma_dma_mem {
	const struct rte_memzone *mz;	/**< backing memzone, or NULL when from rte_malloc */
	void *va;			/**< CPU address (NULL when not allocated) */
	rte_iova_t iova;		/**< device address */
	size_t len;			/**< bytes */
};

/**
 * Allocate @p len bytes aligned to @p align, IOVA-contiguous, zeroed, and DMA-map them.
 * @return 0, -ENOMEM, or the map's -errno.
 */
int irdma_dma_alloc(struct irdma_ctrl *c, struct irdma_dma_mem *m, size_t len, size_t align);

/** Unmap and free @p m (no-op when not allocated). */
void irdma_dma_free(struct irdma_ctrl *c, struct irdma_dma_mem *m);

/**
 * Allocate @p len bytes of zeroed queue memory (rounded up to 4 KB pages, from EAL on the
 * device's NUMA node, IOVA-contiguous or not) and DMA-map every IOVA-contiguous piece.
 * @return 0, -ENOMEM, or the resolve's / map's -errno; nothing stays allocated on failure.
 */
int irdma_qmem_alloc(struct irdma_ctrl *c, struct irdma_qmem *m, size_t len);

/** Unmap and free @p m (no-op when not allocated). */
void irdma_qmem_free(struct irdma_ctrl *c, struct irdma_qmem *m);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_DMA_H */
