/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_FAKE_SYSFS_H
#define TEST_FAKE_SYSFS_H

/*
 * A fake sysfs tree for the PCI probe and VFIO tests ($RDMADEV_SYSFS_ROOT): the directories
 * bus/pci/devices under a root in /tmp, and PCI functions in it with the files and links the
 * probe reads (vendor, device, driver, iommu_group). Every step is a test check.
 */

#include <stddef.h>

/*
 * Create /tmp/@p name-PID/bus/pci/devices and write the root's path into @p root (@p len
 * bytes).
 */
void test_sysfs_create(char *root, size_t len, const char *name);

/*
 * Add PCI function @p addr under @p root: its vendor and device files (e.g. "0x8086"), and
 * the links driver -> bus/pci/drivers/@p driver and iommu_group ->
 * kernel/iommu_groups/@p group unless they are NULL; the function is then also listed in
 * that group's devices folder, as the kernel lists every member of a group.
 */
void test_sysfs_add_func(const char *root, const char *addr, const char *vendor,
			 const char *device, const char *driver, const char *group);

/* Remove the tree under @p root. */
void test_sysfs_remove(const char *root);

#endif /* TEST_FAKE_SYSFS_H */
