/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev port information and the GID table. */

#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "rdmadev_private.h"

const char *
rdmadev_port_state_name(enum rdmadev_port_state state)
{
	switch (state) {
	case RDMADEV_PORT_DOWN:
		return "DOWN";
	case RDMADEV_PORT_ACTIVE:
		return "ACTIVE";
	default:
		return "UNKNOWN";
	}
}

/* The port information of @p dev through its driver (NULL op: -ENOTSUP). */
static int
rdmadev_port_query(struct rdmadev *dev, struct rdmadev_port_info *info, const char *what)
{
	int rc;

	if (dev->ops->port_info_get == NULL) {
		RDMADEV_LOG(ERR, "%s: %s: not supported by driver %s", dev->name, what,
			    dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	memset(info, 0, sizeof(*info));
	info->pf_id = -1;
	info->vsi = -1;
	rc = dev->ops->port_info_get(dev, info);
	if (rc == 0 && info->gid_tbl_len > RDMADEV_GID_TBL_MAX) {
		RDMADEV_LOG(ERR, "%s: %s: driver reports %u GIDs (at most %u)", dev->name, what,
			    info->gid_tbl_len, RDMADEV_GID_TBL_MAX);
		rc = -EPROTO;
	}
	if (rc != 0)
		RDMADEV_LOG(ERR, "%s: %s: driver failed: %s", dev->name, what, strerror(-rc));
	return rdmadev_fail(dev, rc, true);
}

int
rdmadev_port_info_read(struct rdmadev *dev, struct rdmadev_port_info *info)
{
	return rdmadev_port_query(dev, info, "port_info_get");
}

int
rdmadev_port_info_get(int16_t dev_id, struct rdmadev_port_info *info)
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "port_info_get");
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (info == NULL) {
		RDMADEV_LOG(ERR, "%s: port_info_get: NULL info", dev->name);
		rc = rdmadev_fail(dev, -EINVAL, false);
	} else {
		rc = rdmadev_port_query(dev, info, "port_info_get");
	}
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_gid_read(struct rdmadev *dev, uint32_t index, uint8_t gid[16])
{
	struct rdmadev_port_info pi;
	int rc;

	if (gid == NULL) {
		RDMADEV_LOG(ERR, "%s: gid_get: NULL gid", dev->name);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rc = rdmadev_port_query(dev, &pi, "gid_get");
	if (rc != 0)
		return rc;
	if (index >= pi.gid_tbl_len) {
		RDMADEV_LOG(ERR, "%s: gid_get: index %u beyond the %u-entry GID table", dev->name,
			    index, pi.gid_tbl_len);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->gid_get == NULL) {
		RDMADEV_LOG(ERR, "%s: gid_get: not supported by driver %s", dev->name,
			    dev->drv->name);
		return rdmadev_fail(dev, -ENOTSUP, false);
	}
	rc = dev->ops->gid_get(dev, index, gid);
	if (rc != 0)
		RDMADEV_LOG(ERR, "%s: gid_get: driver failed: %s", dev->name, strerror(-rc));
	return rdmadev_fail(dev, rc, true);
}

int
rdmadev_neigh_resolve(int16_t dev_id, uint32_t sgid_index, const uint8_t dgid[16],
		      uint8_t mac[6])
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "neigh_resolve");
	uint8_t sgid[16];
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (dgid == NULL || mac == NULL) {
		RDMADEV_LOG(ERR, "%s: neigh_resolve: NULL address or MAC", dev->name);
		rc = rdmadev_fail(dev, -EINVAL, false);
	} else {
		rc = rdmadev_gid_read(dev, sgid_index, sgid);	/* checks the index */
		if (rc == 0)
			rc = dev->ops->neigh_resolve != NULL ?
			     dev->ops->neigh_resolve(dev, sgid_index, dgid, mac) : -ENOTSUP;
	}
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_gid_get(int16_t dev_id, uint32_t index, uint8_t gid[16])
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "gid_get");
	int rc;

	if (dev == NULL)
		return -EINVAL;
	rc = rdmadev_gid_read(dev, index, gid);
	rdmadev_ctl_leave(dev);
	return rc;
}
