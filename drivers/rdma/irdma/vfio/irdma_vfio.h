/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_VFIO_H
#define IRDMA_VFIO_H

/**
 * @file
 * The VFIO backend of irdma_hw.h: an E810 function bound to vfio-pci.
 *
 * irdma_vfio_open() checks the function in sysfs (Intel, an E810 / E82x device id, bound to
 * vfio-pci, in an IOMMU group), hands it to EAL's VFIO layer (rte_vfio_setup_device), mmaps
 * BAR0 and enables bus mastering. DMA maps go to the default VFIO container; interrupts are
 * MSI-X vectors bound to eventfds on demand. Every step that cannot be done returns a
 * negative errno and logs what was missing: nothing pretends to work without the device.
 *
 * This backend has never run against a device (no host here has an IOMMU); only its
 * refusal paths are tested (tests/irdma/test_irdma_vfio.c).
 */

#include <stdbool.h>

#include <rte_eal.h>

#include "irdma_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Backend name, as in irdma_hw_backend.name. */
#define IRDMA_VFIO_BACKEND_NAME "vfio"

/**
 * Parse a PCI address of the form "DDDD:BB:DD.F" (hex; device <= 0x1f, function <= 7).
 *
 * @param s    The address string.
 * @param out  Receives the canonical lower-case form (at least 13 bytes), or NULL.
 * @param len  Size of @p out.
 * @return 0, or -EINVAL when @p s is not such an address.
 */
int irdma_vfio_parse_pci_addr(const char *s, char *out, size_t len);

/**
 * The smallest BAR0 this backend accepts: every register the gen2 driver touches and the
 * user doorbell page lie below the push pages (IRDMA_PUSH_OFFSET, 8 MiB); an E810 PF's
 * BAR0 is larger (128 MiB on the parts the model follows).
 */
#define IRDMA_VFIO_BAR0_MIN	UINT64_C(0x800000)

/**
 * Check a BAR0 size before the backend maps it.
 *
 * @param addr  The function's PCI address (for the log line).
 * @param len   BAR0's size in bytes (VFIO_DEVICE_GET_REGION_INFO).
 * @return 0 when @p len >= IRDMA_VFIO_BAR0_MIN, else -ENODEV with a log line naming both
 *         sizes.
 */
int irdma_vfio_check_bar0(const char *addr, uint64_t len);

/**
 * Check that EAL's memory can be given to the device: without hugepages (--no-huge) EAL's
 * memory has IOVAs only in IOVA-as-VA mode (VFIO then maps it like any other memory).
 *
 * @param addr       The function's PCI address (for the log line).
 * @param mode       rte_eal_iova_mode().
 * @param hugepages  rte_eal_has_hugepages().
 * @return 0, or -ENOTSUP with a log line naming the problem and both ways out.
 */
int irdma_vfio_check_mem(const char *addr, enum rte_iova_mode mode, bool hugepages);

/**
 * Open the E810 function at @p pci_addr through VFIO and make @p hw its backend.
 *
 * The sysfs root is "/sys", or $RDMADEV_SYSFS_ROOT when set (tests use a fake tree; the
 * EAL VFIO calls then see the same tree). On success hw->bar0 is the mapped BAR0, hw->be
 * the VFIO backend, hw->name the PCI address; release with hw->be->close(hw).
 *
 * @param pci_addr  "DDDD:BB:DD.F".
 * @param hw        Filled on success, left zeroed on failure.
 * @return 0; -EINVAL for a malformed address; -ENODEV when sysfs shows no usable function
 *         (absent, not Intel, not an E810 / E82x id, not bound to vfio-pci, no IOMMU group,
 *         BAR0 smaller than IRDMA_VFIO_BAR0_MIN) or EAL has no VFIO; -EBUSY when another
 *         device of the IOMMU group is bound to a host driver; -EIO when EAL's VFIO setup
 *         fails; -ENOTSUP when BAR0 cannot be mmap'd or EAL's memory has no IOVAs
 *         (irdma_vfio_check_mem()); -ENOMEM, or another -errno from the VFIO ioctls.
 */
int irdma_vfio_open(const char *pci_addr, struct irdma_hw *hw);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_VFIO_H */
