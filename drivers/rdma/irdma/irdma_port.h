/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_PORT_H
#define IRDMA_PORT_H

/**
 * @file
 * The port's addresses (irdma_port.c): MAC and GID helpers, the GID table from devargs or
 * defaults, and the source GID of an address vector.
 */

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irdma_ctrl;
struct rdmadev_ah_attr;

/** A MAC address as the 48-bit number CQP WQEs and contexts hold (first byte highest). */
uint64_t irdma_mac_to_u64(const uint8_t mac[6]);

/** True when @p gid is an IPv4-mapped address (::ffff:a.b.c.d). */
bool irdma_gid_is_v4mapped(const uint8_t gid[16]);

/**
 * Parse the devargs `ip` value of device @p name: IPv4 or IPv6 addresses separated by ';',
 * at most IRDMA_GID_TBL_LEN, no duplicates. IPv4 addresses become IPv4-mapped GIDs.
 * @return 0 with gid[0 .. *n - 1] set, or -EINVAL (logged).
 */
int irdma_port_parse_gids(const char *name, const char *v, uint8_t gid[][16], uint32_t *n);

/**
 * The GID table of a device without `ip=`: a model device (@p model) irdma_model<N> gets
 * ::ffff:10.0.0.<N % 254 + 1> then fe80::<EUI-64 of @p mac>; a VFIO device the link-local
 * address only.
 */
void irdma_port_default_gids(const char *name, bool model, const uint8_t mac[6],
			     uint8_t gid[][16], uint32_t *n);

/**
 * The source GID of address vector @p av: entry av->sgid_index of the table, of the same
 * family (IPv4-mapped or IPv6) as av->dgid.
 * @return 0 with @p sgid set, or -EINVAL (index beyond the table, families differ; logged).
 */
int irdma_port_sgid(const struct irdma_ctrl *c, const struct rdmadev_ah_attr *av,
		    uint8_t sgid[16]);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_PORT_H */
