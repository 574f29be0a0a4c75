/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev driver `irdma`: an E810 function bound to vfio-pci (vfio/irdma_vfio.c) driven by
 * the same control path as the model; it has never run against a device. Its devargs keys
 * and probe; the ops and the devargs parsing are irdma_dev.c's.
 */

#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>

#include "irdma_dev_private.h"
#include "irdma_vfio.h"

/* Keys of irdma:<PCI address>: the resource plan and the port (no model, no wire). */
static const char *const irdma_vfio_keys[] = {
	"qps", "cqs", "mrs", "ring_pbl", "reset_poll_ms", "ip", "mac", "mtu",
	NULL
};

/* The backend: the function at the PCI address after "irdma:". */
static int
irdma_dev_vfio_open(struct irdma_dev *d, const char *name, const struct irdma_model_config *cfg)
{
	const char *addr = strchr(name, ':');
	int ret;

	/* "irdma:<PCI address>"; irdma_vfio_open() refuses anything else with a log line. */
	ret = irdma_vfio_open(addr != NULL ? addr + 1 : "", &d->hw);
	if (ret != 0)
		return ret;
	/* The port's MAC from devargs (or the model's default) until the NVM is read. */
	memcpy(d->hw.mac, cfg->mac, sizeof(d->hw.mac));
	return 0;
}

static void
irdma_dev_vfio_opened(struct irdma_dev *d, const struct irdma_model_config *cfg)
{
	RTE_SET_USED(cfg);
	IRDMA_LOG(INFO, &d->hw, "VFIO, plan %u QPs %u CQs %u MRs", d->req.qps, d->req.cqs,
		  d->req.mrs);
}

static const struct irdma_dev_backend irdma_dev_vfio = {
	.open = irdma_dev_vfio_open,
	.opened = irdma_dev_vfio_opened,
};

IRDMA_DEV_DRIVER(vfio, "irdma", irdma_vfio_keys, irdma_dev_vfio);
