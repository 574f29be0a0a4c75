/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * irdma-e810: a QEMU PCI device around the irdma-pmd device model of the E810 RDMA engine
 * (drivers/rdma/irdma/model/, through irdma_model_ext.h), for testing the PMD's VFIO
 * backend inside a guest. Test harness code, built into a QEMU of our own by
 * tests/vm/qemu-build.sh; never shipped with the libraries.
 *
 *  - 8086:1593 (E810-C SFP), PCIe endpoint with FLR, BAR0 of the E810's size (128 MB):
 *    every 32-bit MMIO read and write goes to the model's register file, doorbells included.
 *  - The model's DMA goes through pci_dma_read() / pci_dma_write(): with intel-iommu in the
 *    machine, every access is translated by the guest's IOMMU and an unmapped IOVA faults
 *    (DMAR fault in the guest, -EFAULT to the model, which reports it as silicon does).
 *  - The model's interrupts are MSI-X vectors (table and PBA in BAR3, as on the E810).
 *  - The model's port is attached on the host side (devargs wire=udp:<ipv4>[:<port>]), so
 *    a model device in a host process is its peer.
 *  - The engine runs INLINE on QEMU's main loop: inside MMIO writes, and from a timer
 *    (poll-us) that lets it receive, retransmit and run its timers. All under the BQL.
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sysemu/dma.h"

#include "irdma_model_ext.h"

#define TYPE_IRDMA_E810 "irdma-e810"
OBJECT_DECLARE_SIMPLE_TYPE(IrdmaE810State, IRDMA_E810)

#define E810_VENDOR_ID		0x8086
#define E810_DEVICE_ID		0x1593
#define E810_MSIX_VECTORS	64
#define E810_MSIX_BAR		3
#define E810_PCIE_CAP		0xa0

struct IrdmaE810State {
	PCIDevice parent_obj;
	MemoryRegion bar0;
	QEMUTimer *poll;
	struct irdma_model_ext *model;
	char *devargs;
	uint32_t poll_us;
	uint64_t dma_faults;
};

static uint64_t e810_read(void *opaque, hwaddr addr, unsigned size)
{
	IrdmaE810State *s = opaque;

	return irdma_model_ext_read32(s->model, (uint32_t)addr);
}

static void e810_write(void *opaque, hwaddr addr, uint64_t val, unsigned size)
{
	IrdmaE810State *s = opaque;

	irdma_model_ext_write32(s->model, (uint32_t)addr, (uint32_t)val);
}

static const MemoryRegionOps e810_bar0_ops = {
	.read = e810_read,
	.write = e810_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = { .min_access_size = 4, .max_access_size = 4 },
	.impl = { .min_access_size = 4, .max_access_size = 4 },
};

static int e810_dma(void *opaque, enum irdma_model_ext_dma_op op, uint64_t iova, void *buf,
		    size_t len)
{
	IrdmaE810State *s = opaque;
	PCIDevice *pdev = PCI_DEVICE(s);
	MemTxResult r = MEMTX_ERROR;

	if (!(pdev->config[PCI_COMMAND] & PCI_COMMAND_MASTER)) {
		s->dma_faults++;
		return -EFAULT;
	}
	switch (op) {
	case IRDMA_MODEL_EXT_DMA_READ:
		r = pci_dma_read(pdev, iova, buf, len);
		break;
	case IRDMA_MODEL_EXT_DMA_WRITE:
		r = pci_dma_write(pdev, iova, buf, len);
		break;
	case IRDMA_MODEL_EXT_DMA_PROBE:
		r = dma_memory_valid(pci_get_address_space(pdev), iova, len,
				     DMA_DIRECTION_TO_DEVICE, MEMTXATTRS_UNSPECIFIED) ?
			MEMTX_OK : MEMTX_ERROR;
		break;
	}
	if (r != MEMTX_OK) {
		s->dma_faults++;
		qemu_log_mask(LOG_GUEST_ERROR, "irdma-e810: DMA %s at 0x%" PRIx64 " +%zu failed\n",
			      op == IRDMA_MODEL_EXT_DMA_WRITE ? "write" : "read", iova, len);
		return -EFAULT;
	}
	return 0;
}

static void e810_irq(void *opaque, unsigned int vector)
{
	PCIDevice *pdev = PCI_DEVICE(opaque);

	if (vector < E810_MSIX_VECTORS && msix_enabled(pdev))
		msix_notify(pdev, vector);
}

static void e810_poll(void *opaque)
{
	IrdmaE810State *s = opaque;

	irdma_model_ext_service(s->model);
	timer_mod(s->poll, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + (int64_t)s->poll_us * 1000);
}

static void e810_realize(PCIDevice *pdev, Error **errp)
{
	IrdmaE810State *s = IRDMA_E810(pdev);
	static bool runtime_ready;
	struct irdma_model_ext_ops ops = { .opaque = s, .dma = e810_dma, .irq = e810_irq };
	int i, ret;

	if (!runtime_ready) {
		ret = irdma_model_ext_runtime_init();
		if (ret != 0) {
			error_setg(errp, "irdma-e810: model runtime: %s", strerror(-ret));
			return;
		}
		runtime_ready = true;
	}
	ret = irdma_model_ext_create(s->devargs, &ops, &s->model);
	if (ret != 0) {
		error_setg(errp, "irdma-e810: model device (devargs '%s'): %s",
			   s->devargs ? s->devargs : "", strerror(-ret));
		return;
	}
	pdev->config[PCI_INTERRUPT_PIN] = 1;
	memory_region_init_io(&s->bar0, OBJECT(s), &e810_bar0_ops, s, "irdma-e810-bar0",
			      irdma_model_ext_bar0_len());
	pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64 | PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar0);
	if (pcie_endpoint_cap_init(pdev, E810_PCIE_CAP) < 0) {
		error_setg(errp, "irdma-e810: PCIe capability");
		goto fail;
	}
	pcie_cap_flr_init(pdev);
	if (msix_init_exclusive_bar(pdev, E810_MSIX_VECTORS, E810_MSIX_BAR, errp) != 0)
		goto fail;
	for (i = 0; i < E810_MSIX_VECTORS; i++)
		msix_vector_use(pdev, i);
	s->poll = timer_new_ns(QEMU_CLOCK_VIRTUAL, e810_poll, s);
	timer_mod(s->poll, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + (int64_t)s->poll_us * 1000);
	return;
fail:
	irdma_model_ext_destroy(s->model);
	s->model = NULL;
}

static void e810_exit(PCIDevice *pdev)
{
	IrdmaE810State *s = IRDMA_E810(pdev);

	if (s->poll != NULL) {
		timer_free(s->poll);
		s->poll = NULL;
	}
	msix_uninit_exclusive_bar(pdev);
	irdma_model_ext_destroy(s->model);
	s->model = NULL;
}

/* Function-level reset (PCIe FLR, vfio-pci's reset) and system reset. */
static void e810_reset(DeviceState *dev)
{
	IrdmaE810State *s = IRDMA_E810(dev);
	PCIDevice *pdev = PCI_DEVICE(dev);

	if (s->model != NULL && irdma_model_ext_reset(s->model) != 0)
		qemu_log_mask(LOG_GUEST_ERROR, "irdma-e810: model reset failed\n");
	msix_reset(pdev);
	pcie_cap_deverr_reset(pdev);
}

static void e810_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val, int len)
{
	pci_default_write_config(pdev, addr, val, len);
	pcie_cap_flr_write_config(pdev, addr, val, len);
}

static Property e810_props[] = {
	DEFINE_PROP_STRING("devargs", IrdmaE810State, devargs),
	DEFINE_PROP_UINT32("poll-us", IrdmaE810State, poll_us, 100),
	DEFINE_PROP_END_OF_LIST(),
};

static const VMStateDescription e810_vmstate = {
	.name = TYPE_IRDMA_E810,
	.unmigratable = 1,
};

static void e810_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

	pc->realize = e810_realize;
	pc->exit = e810_exit;
	pc->config_write = e810_write_config;
	pc->vendor_id = E810_VENDOR_ID;
	pc->device_id = E810_DEVICE_ID;
	pc->revision = 2;
	pc->class_id = PCI_CLASS_NETWORK_ETHERNET;
	dc->desc = "E810 RDMA engine (irdma-pmd device model)";
	dc->reset = e810_reset;
	dc->vmsd = &e810_vmstate;
	device_class_set_props(dc, e810_props);
	set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo e810_info = {
	.name = TYPE_IRDMA_E810,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(IrdmaE810State),
	.class_init = e810_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ }
	},
};

static void e810_register_types(void)
{
	type_register_static(&e810_info);
}

type_init(e810_register_types)
