/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_EXT_H
#define IRDMA_MODEL_EXT_H

/**
 * @file
 * The device model behind an external bus: a device emulator (the QEMU PCI device of
 * tests/vm/qemu/) owns BAR0, DMA and interrupts, the model only decodes registers and runs
 * the engine. Every access the engine makes to host memory goes to the emulator's DMA
 * callback (which translates through its IOMMU and may fault); every interrupt the engine
 * raises goes to its interrupt callback (an MSI-X vector). The model runs INLINE: it makes
 * progress inside register writes and irdma_model_ext_service(), on the emulator's thread.
 *
 * This header names no DPDK type, so that an emulator includes it without DPDK's headers.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the engine asks of the emulator's DMA callback. */
enum irdma_model_ext_dma_op {
	IRDMA_MODEL_EXT_DMA_READ = 0,	/**< copy [iova, iova + len) into buf */
	IRDMA_MODEL_EXT_DMA_WRITE = 1,	/**< copy buf to [iova, iova + len) */
	IRDMA_MODEL_EXT_DMA_PROBE = 2,	/**< only say whether the range is reachable (buf NULL) */
};

/** The emulator's side. */
struct irdma_model_ext_ops {
	/** Passed back to every callback. */
	void *opaque;
	/** Access guest memory: 0, or -EFAULT when any byte is unreachable (nothing moved
	 *  for a read or probe; a write may have been partly done, as on a PCIe fault). */
	int (*dma)(void *opaque, enum irdma_model_ext_dma_op op, uint64_t iova, void *buf,
		   size_t len);
	/** Interrupt vector @p vector fired (the engine's GLINT_DYN_CTL rules applied). */
	void (*irq)(void *opaque, unsigned int vector);
};

/** A model device driven by an emulator. */
struct irdma_model_ext;

/**
 * Initialise the runtime the model needs (DPDK's EAL, without hugepages, PCI or
 * shared files, on the calling thread's current CPUs, which it leaves as they were).
 * Call once per process before irdma_model_ext_create().
 * @return 0 or -errno (with a log line).
 */
int irdma_model_ext_runtime_init(void);

/**
 * Create a model device.
 * @param devargs comma-separated key=value pairs of irdma_model_config_kv() (wire=udp:...,
 *                pcap=..., wire_drop=...), mac=xx:xx:xx:xx:xx:xx; NULL or "" for none.
 * @param ops     the emulator's callbacks (copied; both mandatory).
 * @param out     the device, on success.
 * @return 0 or -errno (-EINVAL names the bad argument in a log line).
 */
int irdma_model_ext_create(const char *devargs, const struct irdma_model_ext_ops *ops,
			   struct irdma_model_ext **out);

/** Destroy a device (NULL is ignored). No callback runs afterwards. */
void irdma_model_ext_destroy(struct irdma_model_ext *m);

/**
 * Reset the device to its power-on state, as a function-level reset does: every queue,
 * object, map and register is forgotten; the wire and the callbacks stay.
 * @return 0 or -errno.
 */
int irdma_model_ext_reset(struct irdma_model_ext *m);

/** Bytes of BAR0 the model decodes. */
uint64_t irdma_model_ext_bar0_len(void);

/** Read the 32-bit register at BAR0 + @p offset (an offset the model refuses, beyond BAR0
 *  or misaligned, reads 0). */
uint32_t irdma_model_ext_read32(struct irdma_model_ext *m, uint32_t offset);

/** Write the 32-bit register at BAR0 + @p offset (a doorbell runs the engine inline). */
void irdma_model_ext_write32(struct irdma_model_ext *m, uint32_t offset, uint32_t value);

/** Let the engine make progress once: receive from the wire, run timers, retransmit. */
void irdma_model_ext_service(struct irdma_model_ext *m);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_MODEL_EXT_H */
