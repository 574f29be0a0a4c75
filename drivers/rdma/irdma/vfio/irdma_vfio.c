/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The VFIO backend of irdma_hw.h (see irdma_vfio.h). It has never run against a device:
 * every path that needs one is written to the VFIO uAPI (linux/vfio.h) and DPDK 22.11's
 * rte_vfio.h, and fails with a logged, negative errno wherever the host cannot provide it.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_memory.h>
#include <rte_string_fns.h>
#include <rte_vfio.h>

#ifndef VFIO_PRESENT
#error "the irdma VFIO backend needs a DPDK built with VFIO support (RTE_EAL_VFIO)"
#endif

#include <rdmadev.h>

#include "irdma_log.h"
#include "irdma_vfio.h"

#define PCI_VENDOR_INTEL	0x8086
/* PCI command register (config space offset) and its bus-master bit. */
#define PCI_CMD_OFFSET		0x04
#define PCI_CMD_BUS_MASTER	0x0004u
/* irdma gen2: the E810 and E82x functions (rdmadev_pci_id_supported()). */
#define IRDMA_VFIO_GEN		2

/* Log for the function @p addr (before and after hw->name is set). */
#define VFIO_LOG(level, addr, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_logtype, "irdma vfio %s: " fmt "\n", addr, ##__VA_ARGS__)

/** Backend state. */
struct irdma_vfio {
	char addr[16];			/**< canonical PCI address */
	char devices_dir[PATH_MAX];	/**< <sysfs root>/bus/pci/devices */
	int dev_fd;			/**< VFIO device fd, -1 when none */
	void *bar0;			/**< mmap of BAR0, NULL when none */
	size_t bar0_len;		/**< its length */
	uint64_t cfg_offset;		/**< config space region offset in dev_fd */
	bool bus_master_set;		/**< we set the bus-master bit */
	uint32_t nb_vectors;		/**< MSI-X vectors the device offers */
	bool msix_enabled;		/**< MSI-X enabled through VFIO_DEVICE_SET_IRQS */
	int *irq_fds;			/**< eventfd per vector, -1 until asked for */
};

int
irdma_vfio_parse_pci_addr(const char *s, char *out, size_t len)
{
	/* Position of each hex digit and of each separator in "DDDD:BB:DD.F". */
	static const char sep[] = "xxxx:xx:xx.x";
	unsigned int dom, bus, dev, fn;
	size_t i;

	if (s == NULL || strlen(s) != sizeof(sep) - 1)
		return -EINVAL;
	for (i = 0; i < sizeof(sep) - 1; i++) {
		if (sep[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != sep[i])
			return -EINVAL;
	}
	if (sscanf(s, "%4x:%2x:%2x.%1x", &dom, &bus, &dev, &fn) != 4 || dev > 0x1f || fn > 7)
		return -EINVAL;
	if (out != NULL && (size_t)snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn) >= len)
		return -EINVAL;
	return 0;
}

/* Read a sysfs hex attribute ("0x8086\n"): 0, or -errno. */
static int
sysfs_hex(const char *dir, const char *attr, unsigned long *val)
{
	char path[PATH_MAX + 32], buf[32], *end;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, attr) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, sizeof(buf), f) == NULL) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	errno = 0;
	*val = strtoul(buf, &end, 0);
	return (end == buf || errno != 0) ? -EINVAL : 0;
}

/* Basename of the symlink @p dir/@p link into @p out; "" when there is no link. */
static void
sysfs_link(const char *dir, const char *link, char *out, size_t len)
{
	char path[PATH_MAX + 32], target[PATH_MAX];
	const char *base;
	ssize_t n;

	out[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, link) >= sizeof(path))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	strlcpy(out, base != NULL ? base + 1 : target, len);
}

/*
 * Every other member of the IOMMU group of the function in @p devdir must be free for VFIO:
 * the kernel makes a group usable only when each device in it is bound to vfio-pci (or
 * pci-stub, or to no driver; bridges on pcieport are exempt: vfio's group viability
 * check). 0, or -EBUSY naming the first device that is not. A group folder that cannot
 * be listed is left to the VFIO step.
 */
static int
vfio_check_group(const struct irdma_vfio *v, const char *devdir, const char *group)
{
	char dir[PATH_MAX + 64], member[PATH_MAX + 64 + 256], drv[64];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s/iommu_group/devices", devdir);
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, v->addr) == 0)
			continue;
		snprintf(member, sizeof(member), "%s/%s", dir, e->d_name);
		sysfs_link(member, "driver", drv, sizeof(drv));
		if (drv[0] == '\0' || strcmp(drv, "vfio-pci") == 0 || strcmp(drv, "pci-stub") == 0 ||
		    strcmp(drv, "pcieport") == 0)
			continue;
		VFIO_LOG(ERR, v->addr, "IOMMU group %s also holds %s (driver: %s): VFIO needs "
			 "every device of the group bound to vfio-pci or unbound", group,
			 e->d_name, drv);
		ret = -EBUSY;
		break;
	}
	closedir(d);
	return ret;
}

/* The sysfs checks, all before EAL's VFIO layer is asked anything. */
static int
vfio_check_sysfs(const struct irdma_vfio *v, uint16_t *device_id, int *numa_node)
{
	char devdir[PATH_MAX + 32], name[64];
	unsigned long vendor, device, node;
	struct stat st;
	int ret;

	snprintf(devdir, sizeof(devdir), "%s/%s", v->devices_dir, v->addr);
	if (stat(devdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		VFIO_LOG(ERR, v->addr, "no %s", devdir);
		return -ENODEV;
	}
	ret = sysfs_hex(devdir, "vendor", &vendor);
	if (ret == 0)
		ret = sysfs_hex(devdir, "device", &device);
	if (ret != 0) {
		VFIO_LOG(ERR, v->addr, "cannot read the vendor / device id in %s: %s", devdir,
			 strerror(-ret));
		return -ENODEV;
	}
	if (vendor != PCI_VENDOR_INTEL) {
		VFIO_LOG(ERR, v->addr, "vendor 0x%04lx is not Intel (0x8086)", vendor);
		return -ENODEV;
	}
	if (device > UINT16_MAX || !rdmadev_pci_id_supported((uint16_t)device)) {
		VFIO_LOG(ERR, v->addr, "device 8086:%04lx is not an E810 / E82x function", device);
		return -ENODEV;
	}
	sysfs_link(devdir, "driver", name, sizeof(name));
	if (name[0] == '\0') {
		VFIO_LOG(ERR, v->addr, "not bound to vfio-pci (no driver bound)");
		return -ENODEV;
	}
	if (strcmp(name, "vfio-pci") != 0) {
		VFIO_LOG(ERR, v->addr, "not bound to vfio-pci (driver: %s)", name);
		return -ENODEV;
	}
	sysfs_link(devdir, "iommu_group", name, sizeof(name));
	if (name[0] == '\0') {
		VFIO_LOG(ERR, v->addr, "no IOMMU group (is the IOMMU enabled, e.g. intel_iommu=on?)");
		return -ENODEV;
	}
	ret = vfio_check_group(v, devdir, name);
	if (ret != 0)
		return ret;
	*device_id = (uint16_t)device;
	/* numa_node reads "-1" on single-node machines; strtoul turns that into ULONG_MAX. */
	*numa_node = (sysfs_hex(devdir, "numa_node", &node) == 0 && node < INT_MAX) ?
		(int)node : -1;
	return 0;
}

/* Read or write the 16-bit PCI command register through the VFIO config region. */
static int
vfio_cfg_cmd(struct irdma_vfio *v, uint16_t *cmd, bool write)
{
	ssize_t n;

	if (write)
		n = pwrite(v->dev_fd, cmd, sizeof(*cmd), (off_t)(v->cfg_offset + PCI_CMD_OFFSET));
	else
		n = pread(v->dev_fd, cmd, sizeof(*cmd), (off_t)(v->cfg_offset + PCI_CMD_OFFSET));
	if (n != (ssize_t)sizeof(*cmd))
		return n < 0 ? -errno : -EIO;
	return 0;
}

static int
vfio_bus_master(struct irdma_vfio *v, bool on)
{
	uint16_t cmd;
	int ret;

	ret = vfio_cfg_cmd(v, &cmd, false);
	if (ret != 0)
		return ret;
	cmd = on ? (cmd | PCI_CMD_BUS_MASTER) : (cmd & ~PCI_CMD_BUS_MASTER);
	return vfio_cfg_cmd(v, &cmd, true);
}

/* Region info of @p index: 0, or -errno. */
static int
vfio_region(struct irdma_vfio *v, uint32_t index, struct vfio_region_info *ri)
{
	memset(ri, 0, sizeof(*ri));
	ri->argsz = sizeof(*ri);
	ri->index = index;
	return ioctl(v->dev_fd, VFIO_DEVICE_GET_REGION_INFO, ri) == 0 ? 0 : -errno;
}

int
irdma_vfio_check_bar0(const char *addr, uint64_t len)
{
	if (len >= IRDMA_VFIO_BAR0_MIN)
		return 0;
	VFIO_LOG(ERR, addr != NULL ? addr : "", "BAR0 is %" PRIu64 " bytes, smaller than the %"
		 PRIu64 " an E810 PF's register file and doorbell page need (a VF, or not an "
		 "E810 PF?)", len, (uint64_t)IRDMA_VFIO_BAR0_MIN);
	return -ENODEV;
}

int
irdma_vfio_check_mem(const char *addr, enum rte_iova_mode mode, bool hugepages)
{
	if (hugepages || mode != RTE_IOVA_PA)
		return 0;
	VFIO_LOG(ERR, addr != NULL ? addr : "", "EAL runs without hugepages (--no-huge) and with "
		 "IOVA as PA: its memory has no IOVA the device could use (reserve hugepages, or "
		 "run with --iova-mode=va)");
	return -ENOTSUP;
}

/* ---- backend operations ---- */

static uint32_t
vfio_reg_read(struct irdma_hw *hw, uint32_t offset)
{
	/* Never called: hw->bar0 is mapped for the whole life of a VFIO hw. */
	VFIO_LOG(ERR, hw->name, "register read at 0x%x without BAR0", offset);
	return UINT32_MAX;
}

static void
vfio_reg_write(struct irdma_hw *hw, uint32_t offset, uint32_t value)
{
	VFIO_LOG(ERR, hw->name, "register write 0x%x at 0x%x without BAR0", value, offset);
}

/*
 * EAL memory (hugepage memsegs, and the memzones on them) is already in the default
 * container: in VFIO mode EAL maps every internal segment at init and from its memory event
 * callback, so mapping it again is skipped here, and unmapping it is left to EAL. For other
 * memory (external or plain heap memory registered through pbl's DMA hook) the map is ours;
 * a range the container already holds (EEXIST, e.g. after rte_dev_dma_map by the
 * application) is tolerated, whether EAL's type1 code swallows the EEXIST itself or
 * reports it. Unverified: unmapping such a shared range may also drop the other owner's
 * IOMMU mapping (rte_vfio keeps no reference count); to check in the VM test.
 */
static bool
vfio_eal_owned(void *va, size_t len)
{
	const struct rte_memseg_list *first = rte_mem_virt2memseg_list(va);
	const struct rte_memseg_list *last = rte_mem_virt2memseg_list(RTE_PTR_ADD(va, len - 1));

	return first != NULL && first == last && !first->external;
}

/*
 * VFIO_IOMMU_MAP_DMA pins the pages and charges them to RLIMIT_MEMLOCK (the kernel's
 * vfio_pin_pages_remote, unless the process has CAP_IPC_LOCK): ENOMEM means that limit (or
 * memory) ran out, EFAULT that the range is not mapped (or not writable) in this process.
 * EAL's type1 code logs the ioctl's errno without setting rte_errno, hence errno too.
 */
static int
vfio_map_error(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len, int err)
{
	struct rlimit rl;

	if (err == ENOMEM && getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		char lim[32];

		if (rl.rlim_cur == RLIM_INFINITY)
			snprintf(lim, sizeof(lim), "unlimited");
		else
			snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)rl.rlim_cur >> 10);
		VFIO_LOG(ERR, hw->name, "DMA map of %zu bytes at %p: pinning failed: locked memory"
			 " exhausted (RLIMIT_MEMLOCK %s; raise ulimit -l or grant CAP_IPC_LOCK)",
			 len, va, lim);
	} else if (err == EFAULT) {
		VFIO_LOG(ERR, hw->name, "DMA map of %zu bytes at %p: pinning failed: the range is"
			 " not mapped (or not writable) in this process", len, va);
	} else {
		VFIO_LOG(ERR, hw->name, "DMA map of %zu bytes at iova 0x%" PRIx64 " failed: %s",
			 len, (uint64_t)iova, strerror(err));
	}
	return -err;
}

static int
vfio_dma_map(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	int err;

	if (len == 0)
		return -EINVAL;
	if (vfio_eal_owned(va, len))
		return 0;
	rte_errno = 0;
	errno = 0;
	if (rte_vfio_container_dma_map(RTE_VFIO_DEFAULT_CONTAINER_FD, (uint64_t)(uintptr_t)va,
				       iova, len) == 0)
		return 0;
	err = rte_errno != 0 ? rte_errno : errno != 0 ? errno : EIO;
	if (err == EEXIST)
		return 0;
	return vfio_map_error(hw, va, iova, len, err);
}

static int
vfio_dma_unmap(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	RTE_SET_USED(hw);
	if (len == 0)
		return -EINVAL;
	if (vfio_eal_owned(va, len))
		return 0;
	if (rte_vfio_container_dma_unmap(RTE_VFIO_DEFAULT_CONTAINER_FD,
					 (uint64_t)(uintptr_t)va, iova, len) == 0)
		return 0;
	VFIO_LOG(ERR, hw->name, "DMA unmap of %zu bytes at iova 0x%" PRIx64 " failed: %s", len,
		 (uint64_t)iova, rte_strerror(rte_errno));
	return rte_errno > 0 ? -rte_errno : -EIO;
}

/* VFIO_DEVICE_SET_IRQS on MSI-X vectors [start, start + count) with @p fds (-1: none). */
static int
vfio_set_msix(struct irdma_vfio *v, uint32_t start, uint32_t count, const int *fds)
{
	size_t sz = sizeof(struct vfio_irq_set) + sizeof(int) * count;
	struct vfio_irq_set *set = calloc(1, sz);
	int ret = 0;

	if (set == NULL)
		return -ENOMEM;
	set->argsz = (uint32_t)sz;
	set->index = VFIO_PCI_MSIX_IRQ_INDEX;
	set->start = start;
	set->count = count;
	set->flags = (count != 0 ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE) |
		VFIO_IRQ_SET_ACTION_TRIGGER;
	if (count != 0)
		memcpy(set->data, fds, sizeof(int) * count);
	if (ioctl(v->dev_fd, VFIO_DEVICE_SET_IRQS, set) != 0)
		ret = -errno;
	free(set);
	return ret;
}

/*
 * The eventfd of MSI-X vector @p vector, created on first use and kept until close. The first
 * call enables MSI-X with every vector the device offers (vectors without an eventfd yet get
 * -1, i.e. no trigger); later calls attach one eventfd to an already enabled vector.
 */
static int
vfio_irq_fd(struct irdma_hw *hw, unsigned int vector)
{
	struct irdma_vfio *v = hw->be_priv;
	int fd, ret;

	if (v->nb_vectors == 0) {
		VFIO_LOG(ERR, hw->name, "the device offers no MSI-X vectors");
		return -ENOTSUP;
	}
	if (vector >= v->nb_vectors) {
		VFIO_LOG(ERR, hw->name, "MSI-X vector %u: the device has %u", vector,
			 v->nb_vectors);
		return -EINVAL;
	}
	if (v->irq_fds[vector] >= 0)
		return v->irq_fds[vector];
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		VFIO_LOG(ERR, hw->name, "eventfd for MSI-X vector %u: %s", vector, strerror(-ret));
		return ret;
	}
	v->irq_fds[vector] = fd;
	if (!v->msix_enabled)
		ret = vfio_set_msix(v, 0, v->nb_vectors, v->irq_fds);
	else
		ret = vfio_set_msix(v, vector, 1, &fd);
	if (ret != 0) {
		VFIO_LOG(ERR, hw->name, "VFIO_DEVICE_SET_IRQS (MSI-X vector %u) failed: %s",
			 vector, strerror(-ret));
		v->irq_fds[vector] = -1;
		close(fd);
		return ret;
	}
	v->msix_enabled = true;
	return fd;
}

/* Release everything irdma_vfio_open() acquired, in reverse order; safe on partial state. */
static void
vfio_release(struct irdma_vfio *v)
{
	uint32_t i;

	if (v->msix_enabled && vfio_set_msix(v, 0, 0, NULL) != 0)
		VFIO_LOG(WARNING, v->addr, "disabling MSI-X failed");
	for (i = 0; v->irq_fds != NULL && i < v->nb_vectors; i++)
		if (v->irq_fds[i] >= 0)
			close(v->irq_fds[i]);
	free(v->irq_fds);
	if (v->bus_master_set && vfio_bus_master(v, false) != 0)
		VFIO_LOG(WARNING, v->addr, "clearing bus mastering failed");
	if (v->bar0 != NULL)
		munmap(v->bar0, v->bar0_len);
	if (v->dev_fd >= 0 && rte_vfio_release_device(v->devices_dir, v->addr, v->dev_fd) != 0)
		VFIO_LOG(WARNING, v->addr, "rte_vfio_release_device failed");
	free(v);
}

static void
vfio_close(struct irdma_hw *hw)
{
	if (hw == NULL || hw->be_priv == NULL)
		return;
	vfio_release(hw->be_priv);
	memset(hw, 0, sizeof(*hw));
}

static const struct irdma_hw_backend irdma_vfio_backend = {
	.name = IRDMA_VFIO_BACKEND_NAME,
	.reg_read = vfio_reg_read,
	.reg_write = vfio_reg_write,
	.dma_map = vfio_dma_map,
	.dma_unmap = vfio_dma_unmap,
	.irq_fd = vfio_irq_fd,
	.service = NULL,
	.close = vfio_close,
};

/* ---- open ---- */

/* rte_vfio_setup_device, then BAR0, config space and MSI-X information. */
static int
vfio_setup(struct irdma_vfio *v)
{
	struct vfio_device_info info = { .argsz = sizeof(info) };
	struct vfio_irq_info irq = { .argsz = sizeof(irq), .index = VFIO_PCI_MSIX_IRQ_INDEX };
	struct vfio_region_info ri;
	void *p;
	int ret;

	ret = rte_vfio_setup_device(v->devices_dir, v->addr, &v->dev_fd, &info);
	if (ret != 0) {
		v->dev_fd = -1;
		VFIO_LOG(ERR, v->addr, "rte_vfio_setup_device failed: %s (see the EAL log)",
			 ret > 0 ? "not manageable through VFIO" : "error");
		return ret > 0 ? -ENODEV : -EIO;
	}
	if (!(info.flags & VFIO_DEVICE_FLAGS_PCI) || info.num_regions <= VFIO_PCI_CONFIG_REGION_INDEX) {
		VFIO_LOG(ERR, v->addr, "VFIO device is not a PCI device with config space");
		return -ENODEV;
	}
	ret = vfio_region(v, VFIO_PCI_BAR0_REGION_INDEX, &ri);
	if (ret != 0) {
		VFIO_LOG(ERR, v->addr, "VFIO_DEVICE_GET_REGION_INFO (BAR0) failed: %s",
			 strerror(-ret));
		return ret;
	}
	ret = irdma_vfio_check_bar0(v->addr, ri.size);
	if (ret != 0)
		return ret;
	if (!(ri.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
		VFIO_LOG(ERR, v->addr, "BAR0 (%" PRIu64 " bytes) cannot be mmap'd", (uint64_t)ri.size);
		return -ENOTSUP;
	}
	p = mmap(NULL, ri.size, PROT_READ | PROT_WRITE, MAP_SHARED, v->dev_fd, (off_t)ri.offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		VFIO_LOG(ERR, v->addr, "mmap of BAR0 (%" PRIu64 " bytes) failed: %s",
			 (uint64_t)ri.size, strerror(-ret));
		return ret;
	}
	v->bar0 = p;
	v->bar0_len = ri.size;
	ret = vfio_region(v, VFIO_PCI_CONFIG_REGION_INDEX, &ri);
	if (ret != 0) {
		VFIO_LOG(ERR, v->addr, "VFIO_DEVICE_GET_REGION_INFO (config) failed: %s",
			 strerror(-ret));
		return ret;
	}
	v->cfg_offset = ri.offset;
	ret = vfio_bus_master(v, true);
	if (ret != 0) {
		VFIO_LOG(ERR, v->addr, "enabling bus mastering failed: %s", strerror(-ret));
		return ret;
	}
	v->bus_master_set = true;
	/* No MSI-X is not fatal here: irq_fd() then answers -ENOTSUP. */
	if (ioctl(v->dev_fd, VFIO_DEVICE_GET_IRQ_INFO, &irq) == 0 &&
	    (irq.flags & VFIO_IRQ_INFO_EVENTFD))
		v->nb_vectors = irq.count;
	if (v->nb_vectors != 0) {
		v->irq_fds = malloc(sizeof(int) * v->nb_vectors);
		if (v->irq_fds == NULL) {
			v->nb_vectors = 0;
			VFIO_LOG(ERR, v->addr, "no memory for %u MSI-X eventfds", irq.count);
			return -ENOMEM;
		}
		memset(v->irq_fds, 0xff, sizeof(int) * v->nb_vectors);	/* all -1 */
	}
	return 0;
}

int
irdma_vfio_open(const char *pci_addr, struct irdma_hw *hw)
{
	const char *root;
	struct irdma_vfio *v;
	uint16_t device_id = 0;
	int numa_node = -1;
	int ret;

	if (hw == NULL) {
		VFIO_LOG(ERR, pci_addr != NULL ? pci_addr : "", "no hw to fill");
		return -EINVAL;
	}
	memset(hw, 0, sizeof(*hw));
	v = calloc(1, sizeof(*v));
	if (v == NULL) {
		VFIO_LOG(ERR, pci_addr != NULL ? pci_addr : "", "no memory for the backend state");
		return -ENOMEM;
	}
	v->dev_fd = -1;
	if (irdma_vfio_parse_pci_addr(pci_addr, v->addr, sizeof(v->addr)) != 0) {
		VFIO_LOG(ERR, pci_addr != NULL ? pci_addr : "(null)",
			 "malformed PCI address \"%s\": expected DDDD:BB:DD.F",
			 pci_addr != NULL ? pci_addr : "(null)");
		free(v);
		return -EINVAL;
	}
	root = getenv(RDMADEV_SYSFS_ENV);
	if (root == NULL || root[0] == '\0')
		root = "/sys";
	if ((size_t)snprintf(v->devices_dir, sizeof(v->devices_dir), "%s/bus/pci/devices", root)
	    >= sizeof(v->devices_dir)) {
		VFIO_LOG(ERR, v->addr, "sysfs root \"%s\" is too long", root);
		free(v);
		return -ENAMETOOLONG;
	}
	ret = vfio_check_sysfs(v, &device_id, &numa_node);
	if (ret != 0) {
		free(v);
		return ret;
	}
	if (!rte_vfio_is_enabled("vfio")) {
		VFIO_LOG(ERR, v->addr, "VFIO is not enabled in EAL (vfio module not loaded, or no "
			 "/dev/vfio/vfio when rte_eal_init ran)");
		free(v);
		return -ENODEV;
	}
	ret = irdma_vfio_check_mem(v->addr, rte_eal_iova_mode(), rte_eal_has_hugepages() != 0);
	if (ret != 0) {
		free(v);
		return ret;
	}
	ret = vfio_setup(v);
	if (ret != 0) {
		vfio_release(v);
		return ret;
	}
	hw->bar0 = v->bar0;
	hw->bar0_len = v->bar0_len;
	hw->be = &irdma_vfio_backend;
	hw->be_priv = v;
	hw->vendor_id = PCI_VENDOR_INTEL;
	hw->device_id = device_id;
	hw->gen = IRDMA_VFIO_GEN;
	hw->nb_vectors = v->nb_vectors;
	hw->numa_node = numa_node;
	snprintf(hw->name, sizeof(hw->name), "%s", v->addr);
	VFIO_LOG(INFO, v->addr, "8086:%04x, BAR0 %zu bytes, %u MSI-X vectors, NUMA node %d",
		 device_id, v->bar0_len, v->nb_vectors, numa_node);
	return 0;
}
