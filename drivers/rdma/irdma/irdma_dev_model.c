/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev driver `irdma_model`: the device model (model/) driven by the real control path.
 * Its devargs keys and probe; the ops and the devargs parsing are irdma_dev.c's.
 */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>

#include "irdma_dev_private.h"
#include "irdma_model.h"

static const char *const irdma_model_keys[] = {
	"gen", "mode", "qps", "cqs", "mrs", "ip", "mac", "mtu", "wire", "ring_pbl", "reset_poll_ms",
	"pcap", "wire_drop",
	"wire_dup", "wire_reorder", "wire_corrupt", "wire_seed",
	/* the model's PF (irdma_dev_parse_pf) */
	"pf_id", "rdma", "msix", "fw_api", "pf_init",
	NULL
};

/* The backend: a model built from the devargs (its be->close is irdma_model_destroy()). */
static int
irdma_dev_model_open(struct irdma_dev *d, const char *name, const struct irdma_model_config *cfg)
{
	int ret;

	d->model = true;
	ret = irdma_model_create(cfg, &d->hw);
	if (ret != 0)
		IRDMA_DEV_LOG(ERR, name, "model create failed: %s", strerror(-ret));
	return ret;
}

/* The port answers ARP for the GID table's addresses (Ethernet wire). */
static void
irdma_dev_model_opened(struct irdma_dev *d, const struct irdma_model_config *cfg)
{
	(void)irdma_model_port_addrs(&d->hw, (const uint8_t (*)[16])d->ctrl.gid,
				     RTE_MIN(d->ctrl.nb_gids, 16u));
	IRDMA_LOG(INFO, &d->hw, "gen %u, %s model, plan %u QPs %u CQs %u MRs", cfg->gen,
		  cfg->mode == IRDMA_MODEL_MODE_THREAD ? "thread" : "inline",
		  d->req.qps, d->req.cqs, d->req.mrs);
}

static const struct irdma_dev_backend irdma_dev_model = {
	.open = irdma_dev_model_open,
	.opened = irdma_dev_model_opened,
};

IRDMA_DEV_DRIVER(model, "irdma_model", irdma_model_keys, irdma_dev_model);
