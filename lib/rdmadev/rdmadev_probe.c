/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* PCI probe: find the E810 / E82x functions in sysfs and say which ones rdmadev can use. */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_string_fns.h>

#include "rdmadev_private.h"

#define PCI_VENDOR_INTEL 0x8086

/* Device ids of the ice driver's E810 and E82x functions (linux ice_devids.h). */
static const uint16_t rdmadev_pci_ids[] = {
	0x1591, 0x1592, 0x1593,			/* E810-C backplane, QSFP, SFP */
	0x1599, 0x159a, 0x159b,			/* E810-XXV backplane, QSFP, SFP */
	0x188a, 0x188b, 0x188c, 0x188d, 0x188e,	/* E823-C */
	0x1890, 0x1891, 0x1892, 0x1893, 0x1894,	/* E822-C */
	0x1897, 0x1898, 0x1899, 0x189a,		/* E822-L */
	0x124c, 0x124d, 0x124e, 0x124f, 0x151d,	/* E823-L */
};

bool
rdmadev_pci_id_supported(uint16_t device_id)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rdmadev_pci_ids); i++)
		if (rdmadev_pci_ids[i] == device_id)
			return true;
	return false;
}

/* Read a sysfs hex attribute ("0x8086\n"). */
static int
read_hex(const char *dir, const char *attr, unsigned long *val)
{
	char path[PATH_MAX], buf[32], *end;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, sizeof(buf), f) == NULL) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*val = strtoul(buf, &end, 16);
	return end == buf ? -EINVAL : 0;
}

/* Basename of a symlink's target, "" when there is no link. */
static void
read_link_name(const char *dir, const char *link, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, link);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	strlcpy(out, base != NULL ? base + 1 : target, len);
}

static void
classify(struct rdmadev_pci_func *fn)
{
	if (fn->driver[0] == '\0')
		snprintf(fn->reason, sizeof(fn->reason),
			 "not bound to a driver: bind it to vfio-pci");
	else if (strcmp(fn->driver, "vfio-pci") != 0)
		snprintf(fn->reason, sizeof(fn->reason),
			 "bound to %s: unbind it and bind it to vfio-pci", fn->driver);
	else if (fn->iommu_group < 0)
		snprintf(fn->reason, sizeof(fn->reason),
			 "bound to vfio-pci but has no IOMMU group: enable the IOMMU");
	else {
		fn->usable = true;
		snprintf(fn->reason, sizeof(fn->reason), "usable: vfio-pci, IOMMU group %d",
			 fn->iommu_group);
	}
}

int
rdmadev_probe_pci(const char *sysfs_root, struct rdmadev_pci_func *out, unsigned int max)
{
	char dirpath[PATH_MAX], devpath[PATH_MAX + 256], group[32];
	struct dirent **names;
	unsigned int n = 0;
	int nb, i;

	if (out == NULL && max != 0)
		return -EINVAL;
	if (sysfs_root == NULL)
		sysfs_root = getenv(RDMADEV_SYSFS_ENV);
	if (sysfs_root == NULL || sysfs_root[0] == '\0')
		sysfs_root = "/sys";
	snprintf(dirpath, sizeof(dirpath), "%s/bus/pci/devices", sysfs_root);
	nb = scandir(dirpath, &names, NULL, alphasort);
	if (nb < 0) {
		RDMADEV_LOG(ERR, "probe: cannot read %s: %s", dirpath, strerror(errno));
		return -ENOENT;
	}
	for (i = 0; i < nb; i++) {
		const struct dirent *de = names[i];
		struct rdmadev_pci_func fn;
		unsigned long vendor, device;

		if (de->d_name[0] == '.')
			continue;
		snprintf(devpath, sizeof(devpath), "%s/%s", dirpath, de->d_name);
		if (read_hex(devpath, "vendor", &vendor) != 0 ||
		    read_hex(devpath, "device", &device) != 0 || vendor != PCI_VENDOR_INTEL ||
		    !rdmadev_pci_id_supported((uint16_t)device))
			continue;
		memset(&fn, 0, sizeof(fn));
		strlcpy(fn.addr, de->d_name, sizeof(fn.addr));
		fn.device_id = (uint16_t)device;
		read_link_name(devpath, "driver", fn.driver, sizeof(fn.driver));
		read_link_name(devpath, "iommu_group", group, sizeof(group));
		fn.iommu_group = group[0] != '\0' ? atoi(group) : -1;
		snprintf(fn.devargs, sizeof(fn.devargs), "irdma:%s", fn.addr);
		classify(&fn);
		RDMADEV_LOG(INFO, "probe: %s [8086:%04x] %s", fn.addr, fn.device_id, fn.reason);
		if (n < max)
			out[n] = fn;
		n++;
	}
	for (i = 0; i < nb; i++)
		free(names[i]);
	free(names);
	return (int)n;
}
