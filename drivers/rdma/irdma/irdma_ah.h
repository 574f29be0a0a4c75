/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_AH_H
#define IRDMA_AH_H

/**
 * @file
 * The ARP table and the address handles of the irdma PMD (irdma_ah.c).
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct irdma_ah_tab;
struct rdmadev_ah;
struct rdmadev_ah_attr;

/**
 * Create the ARP and AH tables from the committed HMC (ARP and FSIAV counts); after
 * irdma_ctrl_bringup().
 * @return 0, -ENOMEM, or pthread_mutex_init()'s -errno.
 */
int irdma_ah_tab_init(struct irdma_ctrl *c);

/**
 * Delete the ARP entries still in the device (best effort), log leaked references and AHs,
 * free the tables. Safe when not created; before irdma_ctrl_teardown().
 */
void irdma_ah_tab_fini(struct irdma_ctrl *c);

/**
 * Take a reference on the ARP entry of (@p mac, @p gid), adding it with MANAGE_ARP when it
 * is new. Indexes start at 1: 0 is the reserved default entry.
 * @return 0 with *idx set, -ENODEV (not started), -ENOSPC (table full), or the CQP's -errno.
 */
int irdma_arp_get(struct irdma_ctrl *c, const uint8_t mac[6], const uint8_t gid[16],
		  uint32_t *idx);

/**
 * Drop a reference from irdma_arp_get(); the last one deletes the entry with MANAGE_ARP
 * (a refused delete is logged and the entry stays cached). Index 0 is ignored.
 */
void irdma_arp_put(struct irdma_ctrl *c, uint32_t idx);

/**
 * Create rdmadev AH @p ah: an AH id below the committed FSIAV count, an ARP reference for
 * its destination and CREATE_ADDR_HANDLE. Sets ah->ah_id and ah->obj.fp.drv.
 * @return 0, -ENODEV, -EINVAL (flow label beyond 20 bits), -ENOMEM, -ENOSPC, or the CQP's
 *         -errno; nothing leaks.
 */
int irdma_ah_create(struct irdma_ctrl *c, struct rdmadev_ah *ah,
		    const struct rdmadev_ah_attr *av);

/**
 * DESTROY_ADDR_HANDLE, then release the ARP reference and the id.
 * @return 0, or the CQP's -errno (the AH stays usable).
 */
int irdma_ah_destroy(struct irdma_ctrl *c, struct rdmadev_ah *ah);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_AH_H */
