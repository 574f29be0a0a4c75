/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_DEV_PRIVATE_H
#define IRDMA_DEV_PRIVATE_H

/*
 * What the common rdmadev driver file (irdma_dev.c) shares with its two backends'
 * probes: irdma_dev_model.c (driver `irdma_model`, the device model) and irdma_dev_vfio.c
 * (driver `irdma`, an E810 function through vfio/). Internal to these three files.
 */

#include <stdbool.h>

#include <rte_kvargs.h>
#include <rte_log.h>

#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_hmc.h"
#include "irdma_log.h"
#include "irdma_model.h"

/** Device state of the PMD. */
struct irdma_dev {
	struct irdma_hw hw;		/**< the device (model or VFIO backend) */
	struct irdma_ctrl ctrl;		/**< control path */
	struct irdma_hmc_request req;	/**< HMC sizing plan */
	bool up;			/**< bring-up done */
	bool model;			/**< the model backend */
	bool gids_fixed;		/**< the GID table came from devargs ip= */
	struct irdma_model_wire_stats wire_base;	/**< model: xstats_reset baseline */
};

/* Log through the PMD's log type before a hw exists. */
#define IRDMA_DEV_LOG(level, name, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_logtype, "irdma %s: " fmt "\n", name, ##__VA_ARGS__)

/** What a backend adds to the opening both drivers share (irdma_dev_new()). */
struct irdma_dev_backend {
	/**
	 * Open the device named @p name from the parsed devargs @p cfg: fill @p d->hw (its
	 * be and registers); log and return a negative errno on failure, with nothing open.
	 */
	int (*open)(struct irdma_dev *d, const char *name, const struct irdma_model_config *cfg);
	/** After the opening succeeded: what the backend still sets up, and its log line. */
	void (*opened)(struct irdma_dev *d, const struct irdma_model_config *cfg);
};

/**
 * The probe of both drivers: allocate the device state, parse the devargs @p kv and check
 * the GID table, open the device through @p be, name the hw @p name, initialise the
 * control path, fill the GID table, set @p dev's dev_private, res_cfg and fp_ops, then
 * call @p be's opened().
 * @return 0, or a negative errno (logged) with nothing allocated or open.
 */
int irdma_dev_new(struct rdmadev *dev, const char *name, const struct rte_kvargs *kv,
		  const struct irdma_dev_backend *be);

/**
 * Define the rdmadev driver irdma_<nm>_driver named @p drv_name with the devargs keys
 * @p key_list, probing through backend @p be, and register it from a constructor.
 */
#define IRDMA_DEV_DRIVER(nm, drv_name, key_list, be)					\
	static int									\
	irdma_##nm##_probe(struct rdmadev *dev, const char *name,			\
			   const struct rte_kvargs *kv)					\
	{										\
		return irdma_dev_new(dev, name, kv, &(be));				\
	}										\
	struct rdmadev_driver irdma_##nm##_driver = {					\
		.name = (drv_name),							\
		.keys = (key_list),							\
		.ops = &irdma_dev_ops,							\
		.probe = irdma_##nm##_probe,						\
	};										\
	RDMADEV_REGISTER_DRIVER(irdma_##nm, irdma_##nm##_driver)

/** The rdmadev ops of both drivers. */
extern const struct rdmadev_ops irdma_dev_ops;
/** Driver `irdma_model` (irdma_dev_model.c). */
extern struct rdmadev_driver irdma_model_driver;
/** Driver `irdma` (irdma_dev_vfio.c). */
extern struct rdmadev_driver irdma_vfio_driver;

#endif /* IRDMA_DEV_PRIVATE_H */
