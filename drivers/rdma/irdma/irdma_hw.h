/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_HW_H
#define IRDMA_HW_H

/**
 * @file
 * The one seam between the irdma PMD and "hardware".
 *
 * The driver reaches the E810 RDMA engine only through what this header gives it:
 *  - 32-bit reads and writes at BAR0 offsets (irdma_rd32() / irdma_wr32());
 *  - DMA memory that it allocated and made visible to the device (irdma_hw_dma_map()); every
 *    address the driver writes into a WQE, a context or a register is an IOVA of such memory;
 *  - interrupts, as eventfds (irdma_hw_irq_fd()).
 * Two backends implement it, as DPDK's virtio PMD drives both virtio_pci and virtio_user:
 *  - vfio/: real silicon. BAR0 is mmap'd (hw->bar0 != NULL, accesses are plain MMIO), DMA maps
 *    go to the IOMMU through rte_vfio, interrupts are MSI-X vectors bound to eventfds.
 *  - model/: the device model. hw->bar0 is NULL, so every register access traps into the
 *    model (one predictable branch on the access path); the model keeps its own IOMMU view
 *    built from the DMA maps, and reads or writes host memory only through it.
 * The driver cannot tell the backends apart except through these calls. The model includes
 * only base/ and this header, never driver code.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_pause.h>
#include <rte_io.h>
#include <rte_log.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_hw;

/** What a backend implements. Every function pointer is mandatory unless marked optional. */
struct irdma_hw_backend {
	/** Backend name for logs ("vfio", "model"). */
	const char *name;
	/** Read a 32-bit register (called only when hw->bar0 is NULL). */
	uint32_t (*reg_read)(struct irdma_hw *hw, uint32_t offset);
	/** Write a 32-bit register (called only when hw->bar0 is NULL). */
	void (*reg_write)(struct irdma_hw *hw, uint32_t offset, uint32_t value);
	/** Make [va, va + len) reachable by the device at [iova, iova + len). 0 or -errno. */
	int (*dma_map)(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len);
	/** Undo a dma_map of exactly that range. 0 or -errno. */
	int (*dma_unmap)(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len);
	/** Optional: eventfd signalled when interrupt @p vector fires; -ENOTSUP without. */
	int (*irq_fd)(struct irdma_hw *hw, unsigned int vector);
	/** Optional: let the device make progress once (the model's inline mode); NULL on
	 *  silicon and on a model running its own thread. */
	void (*service)(struct irdma_hw *hw);
	/** Release the backend's resources. */
	void (*close)(struct irdma_hw *hw);
};

/** A device as the driver sees it. */
struct irdma_hw {
	/** Mapped BAR0, or NULL when the backend traps every register access. */
	uint8_t *bar0;
	/** Backend operations. */
	const struct irdma_hw_backend *be;
	/** Backend private state. */
	void *be_priv;
	/** Size of BAR0 in bytes: register offsets at or beyond it are refused. */
	uint64_t bar0_len;
	/** PCI vendor and device id (the model reports an E810's). */
	uint16_t vendor_id;
	/** PCI device id. */
	uint16_t device_id;
	/** Engine generation: 2 (E810) or 3. */
	uint8_t gen;
	/** NUMA node of the device, or -1 when unknown. */
	int numa_node;
	/** Device name for logs: the PCI address, or "irdma_model<N>". */
	char name[32];
	/** Port MAC address (the model's configured one; VFIO: from devargs until the NVM is read). */
	uint8_t mac[6];
	/** Interrupt vectors the backend can signal (VFIO: the MSI-X vectors the device
	 *  offers; the model: its eventfd vectors); 0 without interrupts. */
	uint32_t nb_vectors;
	/** Register accesses a mapped BAR0 refused (at or beyond bar0_len, or misaligned). */
	uint64_t reg_refused;
};

/**
 * Count and log a register access to a mapped BAR0 that irdma_rd32() / irdma_wr32()
 * refused: @p offset is at or beyond hw->bar0_len, or not 4-byte aligned. Cold: the
 * accessors' fast path is one compare.
 */
static inline __rte_cold void
irdma_hw_refused(struct irdma_hw *hw, uint32_t offset, int write)
{
	hw->reg_refused++;
	rte_log(RTE_LOG_ERR, RTE_LOGTYPE_PMD,
		"%s: register %s at BAR0 + 0x%x refused (BAR0 is 0x%" PRIx64 " bytes, "
		"accesses are 4-byte aligned)\n", hw->name, write ? "write" : "read", offset,
		hw->bar0_len);
}

/** True when a 32-bit access at BAR0 + @p offset lies inside the mapped BAR0 and is aligned. */
static inline int
irdma_hw_offset_ok(const struct irdma_hw *hw, uint32_t offset)
{
	return likely((uint64_t)offset + sizeof(uint32_t) <= hw->bar0_len &&
		      (offset & (sizeof(uint32_t) - 1)) == 0);
}

/** Read the 32-bit register at BAR0 + @p offset. An offset at or beyond BAR0 (or
 *  misaligned) is refused: it reads 0 and is counted in hw->reg_refused with a log line (the
 *  model refuses it the same way, in its reg_refused statistic). */
static inline uint32_t
irdma_rd32(struct irdma_hw *hw, uint32_t offset)
{
	if (likely(hw->bar0 != NULL)) {
		if (unlikely(!irdma_hw_offset_ok(hw, offset))) {
			irdma_hw_refused(hw, offset, 0);
			return 0;
		}
		return rte_read32(hw->bar0 + offset);
	}
	return hw->be->reg_read(hw, offset);
}

/** Write the 32-bit register at BAR0 + @p offset. Orders earlier stores to DMA memory first
 *  (rte_write32 carries the I/O write barrier the doorbell rule needs). An offset at or
 *  beyond BAR0 (or misaligned) is refused as for irdma_rd32(): nothing is written. */
static inline void
irdma_wr32(struct irdma_hw *hw, uint32_t offset, uint32_t value)
{
	if (likely(hw->bar0 != NULL)) {
		if (unlikely(!irdma_hw_offset_ok(hw, offset))) {
			irdma_hw_refused(hw, offset, 1);
			return;
		}
		rte_write32(value, hw->bar0 + offset);
		return;
	}
	rte_io_wmb();
	hw->be->reg_write(hw, offset, value);
}

/**
 * Write a doorbell register at BAR0 + @p offset that the caller checked once with
 * irdma_hw_offset_ok() (QP create): irdma_wr32() without the per-access bounds check, for
 * the data path. Orders earlier stores to DMA memory first, as irdma_wr32() does.
 */
static inline void
irdma_wr32_db(struct irdma_hw *hw, uint32_t offset, uint32_t value)
{
	if (likely(hw->bar0 != NULL)) {
		rte_write32(value, hw->bar0 + offset);
		return;
	}
	rte_io_wmb();
	hw->be->reg_write(hw, offset, value);
}

/** Make host memory reachable by the device. @return 0 or -errno. */
static inline int
irdma_hw_dma_map(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	return hw->be->dma_map(hw, va, iova, len);
}

/** Undo irdma_hw_dma_map(). @return 0 or -errno. */
static inline int
irdma_hw_dma_unmap(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	return hw->be->dma_unmap(hw, va, iova, len);
}

/** eventfd of interrupt vector @p vector. @return the fd, or -ENOTSUP / -errno. */
static inline int
irdma_hw_irq_fd(struct irdma_hw *hw, unsigned int vector)
{
	return hw->be->irq_fd != NULL ? hw->be->irq_fd(hw, vector) : -ENOTSUP;
}

/** Give an inline-mode device the chance to make progress (no-op elsewhere). Called by the
 *  driver while it waits on the device: polling a register, a CQ, an event queue. */
static inline void
irdma_hw_service(struct irdma_hw *hw)
{
	if (hw->be->service != NULL)
		hw->be->service(hw);
}

/** Microseconds a control wait leaves a self-running device alone between two looks. */
#define IRDMA_HW_POLL_US	1u

/**
 * Between two looks at a register or a ring in a bounded control wait, after
 * irdma_hw_service(): a pause where the wait itself steps the device (an inline-mode model);
 * IRDMA_HW_POLL_US of not touching it where the device runs by itself (silicon, a threaded
 * model), as ice_sq_send_cmd waits 10 us between looks at ATQH. A threaded model serves each
 * register read under the lock its engine thread runs under: a wait that read again at once
 * would hold that lock most of the time, and on a loaded machine the engine thread could
 * wait seconds for it. Control path only.
 */
static inline void
irdma_hw_poll_relax(struct irdma_hw *hw)
{
	if (hw->be->service != NULL)
		rte_pause();
	else
		rte_delay_us_block(IRDMA_HW_POLL_US);
}

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_HW_H */
