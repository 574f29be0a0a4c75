/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* The fake sysfs tree of the probe tests (fake_sysfs.h). */

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_sysfs.h"
#include "test.h"

void
test_sysfs_create(char *root, size_t len, const char *name)
{
	static const char *const dirs[] = { "", "/bus", "/bus/pci", "/bus/pci/devices" };
	char path[256];
	unsigned int i;

	snprintf(root, len, "/tmp/%s-%d", name, (int)getpid());
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		TEST_CHECK_EQ(mkdir(path, 0755), 0);
	}
}

/* Write @p text and a newline to @p root/bus/pci/devices/@p addr/@p file. */
static void
put_file(const char *root, const char *addr, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", root, addr, file);
	f = fopen(path, "w");
	TEST_CHECK(f != NULL);
	if (f != NULL) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

/* Link @p root/bus/pci/devices/@p addr/@p link to @p dir/@p name (relative to the root). */
static void
put_link(const char *root, const char *addr, const char *link, const char *dir,
	 const char *name)
{
	char path[512], target[256];

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", root, addr, link);
	snprintf(target, sizeof(target), "../../../../%s/%s", dir, name);
	TEST_CHECK_EQ(symlink(target, path), 0);
}

void
test_sysfs_add_func(const char *root, const char *addr, const char *vendor,
		    const char *device, const char *driver, const char *group)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", root, addr);
	TEST_CHECK_EQ(mkdir(path, 0755), 0);
	put_file(root, addr, "vendor", vendor);
	put_file(root, addr, "device", device);
	if (driver != NULL)
		put_link(root, addr, "driver", "bus/pci/drivers", driver);
	if (group != NULL) {
		char target[256];

		put_link(root, addr, "iommu_group", "kernel/iommu_groups", group);
		/* The group's member list: kernel/iommu_groups/G/devices/ADDR -> the function. */
		snprintf(path, sizeof(path), "%s/kernel", root);
		(void)mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/kernel/iommu_groups", root);
		(void)mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/kernel/iommu_groups/%s", root, group);
		(void)mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/kernel/iommu_groups/%s/devices", root, group);
		(void)mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/kernel/iommu_groups/%s/devices/%s", root, group,
			 addr);
		snprintf(target, sizeof(target), "../../../../bus/pci/devices/%s", addr);
		TEST_CHECK_EQ(symlink(target, path), 0);
	}
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void
test_sysfs_remove(const char *root)
{
	TEST_CHECK_EQ(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}
