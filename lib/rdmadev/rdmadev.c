/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev registry, device lifecycle, statistics and the fast-path dummies. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_string_fns.h>

#include "rdmadev_private.h"

RTE_LOG_REGISTER(rdmadev_logtype, lib.rdmadev, NOTICE);

struct rdmadev_fp_obj rdmadev_fp_objs[RDMADEV_MAX_DEVS];

/* Registry: drivers and device slots. The mutex serialises open and close; lookups read the
 * state word atomically. */
static pthread_mutex_t rdmadev_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rdmadev_driver *rdmadev_drivers;
static struct rdmadev rdmadev_devices[RDMADEV_MAX_DEVS];

/*
 * Control-path lock of each device slot, outside struct rdmadev so that open's memset leaves
 * it alone; never destroyed. Readers (telemetry, dumps, info, counters, port) hold it shared
 * for the whole call; open, configure, start, the driver half of stop, and close hold it
 * exclusive while they change what readers look at (the fields, the restrack root, the
 * driver's state), so a reader sees a device either whole or gone. Neither the fast path
 * nor object create/destroy take it. Writers are preferred, so that readers looping on
 * other threads (telemetry clients) cannot hold a close off; a reader therefore never takes
 * the lock again while it holds it.
 */
static pthread_rwlock_t rdmadev_ctl_locks[RDMADEV_MAX_DEVS];

static const char *const rdmadev_state_names[] = {
	[RDMADEV_STATE_UNUSED] = "unused",
	[RDMADEV_STATE_OPENED] = "opened",
	[RDMADEV_STATE_CONFIGURED] = "configured",
	[RDMADEV_STATE_STARTED] = "started",
};

static const char *const rdmadev_obj_names[RDMADEV_OBJ_MAX] = {
	[RDMADEV_OBJ_CTX] = "ctx",
	[RDMADEV_OBJ_PD] = "pd",
	[RDMADEV_OBJ_CQ] = "cq",
	[RDMADEV_OBJ_QP] = "qp",
	[RDMADEV_OBJ_MR] = "mr",
	[RDMADEV_OBJ_MW] = "mw",
	[RDMADEV_OBJ_AH] = "ah",
	[RDMADEV_OBJ_SRQ] = "srq",
	[RDMADEV_OBJ_COUNTER] = "counter",
	[RDMADEV_OBJ_COMP_CNTR] = "comp_cntr",
	[RDMADEV_OBJ_DMAH] = "dmah",
	[RDMADEV_OBJ_CM_ID] = "cm_id",
};

/* The one capability name table (dump and telemetry). */
static const struct {
	uint64_t bit;
	const char *name;
} rdmadev_capa_names[] = {
	{ RDMADEV_CAPA_RTS_AE, "RTS_AE" },
	{ RDMADEV_CAPA_CQ_RESIZE, "CQ_RESIZE" },
	{ RDMADEV_CAPA_CQE_64B, "CQE_64B" },
	{ RDMADEV_CAPA_ATOMICS, "ATOMICS" },
	{ RDMADEV_CAPA_SRQ, "SRQ" },
	{ RDMADEV_CAPA_CQE_TIMESTAMP, "CQE_TIMESTAMP" },
	{ RDMADEV_CAPA_MW, "MW" },
};

static const char *const rdmadev_wc_status_names[RDMADEV_WC_STATUS_MAX] = {
	"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR", "LOC_PROT_ERR",
	"WR_FLUSH_ERR", "MW_BIND_ERR", "BAD_RESP_ERR", "LOC_ACCESS_ERR", "REM_INV_REQ_ERR",
	"REM_ACCESS_ERR", "REM_OP_ERR", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR",
	"LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR", "INV_EECN_ERR",
	"INV_EEC_STATE_ERR", "FATAL_ERR", "RESP_TIMEOUT_ERR", "GENERAL_ERR",
};

const char *
rdmadev_capa_name(uint64_t capa)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rdmadev_capa_names); i++)
		if (rdmadev_capa_names[i].bit == capa)
			return rdmadev_capa_names[i].name;
	return NULL;
}

const char *
rdmadev_state_name(enum rdmadev_state state)
{
	if ((unsigned int)state >= RTE_DIM(rdmadev_state_names))
		return "unknown";
	return rdmadev_state_names[state];
}

const char *
rdmadev_obj_type_name(enum rdmadev_obj_type type)
{
	if ((unsigned int)type >= RDMADEV_OBJ_MAX)
		return "unknown";
	return rdmadev_obj_names[type];
}

const char *
rdmadev_wc_status_str(enum rdmadev_wc_status status)
{
	if ((unsigned int)status >= RDMADEV_WC_STATUS_MAX)
		return "UNKNOWN";
	return rdmadev_wc_status_names[status];
}

/* ---- fast-path dummies ---- */

static uint32_t rdmadev_dummy_logged;

static void
rdmadev_dummy_log(const char *fn)
{
	/* relaxed: only limits the log to one line; nothing is published through it */
	if (__atomic_exchange_n(&rdmadev_dummy_logged, 1, __ATOMIC_RELAXED) == 0)
		RDMADEV_LOG(ERR, "%s on a device that is not started", fn);
}

static uint16_t
rdmadev_dummy_post_send(void *qp, const struct rdmadev_send_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(qp);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	rdmadev_dummy_log("post_send");
	*err = -ENODEV;
	return 0;
}

static uint16_t
rdmadev_dummy_post_recv(void *qp, const struct rdmadev_recv_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(qp);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	rdmadev_dummy_log("post_recv");
	*err = -ENODEV;
	return 0;
}

static uint16_t
rdmadev_dummy_poll_cq(void *cq, struct rdmadev_wc *wcs, uint16_t n)
{
	RTE_SET_USED(cq);
	RTE_SET_USED(wcs);
	RTE_SET_USED(n);
	rdmadev_dummy_log("poll_cq");
	return 0;
}

static uint16_t
rdmadev_dummy_post_srq_recv(void *srq, const struct rdmadev_recv_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(srq);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	rdmadev_dummy_log("post_srq_recv");
	*err = -ENODEV;
	return 0;
}

static uint16_t
rdmadev_dummy_post_send_tmpl(void *qp, const struct rdmadev_send_tmpl *t,
			     const struct rdmadev_tmpl_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(qp);
	RTE_SET_USED(t);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	rdmadev_dummy_log("post_send_tmpl");
	*err = -ENODEV;
	return 0;
}

static int
rdmadev_dummy_cq_arm(void *cq, int solicited_only)
{
	RTE_SET_USED(cq);
	RTE_SET_USED(solicited_only);
	rdmadev_dummy_log("cq_arm");
	return -ENODEV;
}

static uint32_t rdmadev_notmpl_logged;

/*
 * post_send_tmpl of a started device whose driver has no send templates: its templates are
 * zeroed (rdmadev_send_tmpl_init() refused them with -ENOTSUP), so the template is the
 * problem, not the device's state. Logs once, as the dummies do (it may sit in a loop).
 */
static uint16_t
rdmadev_notmpl_post_send_tmpl(void *qp, const struct rdmadev_send_tmpl *t,
			      const struct rdmadev_tmpl_wr *wrs, uint16_t n, int *err)
{
	RTE_SET_USED(qp);
	RTE_SET_USED(wrs);
	RTE_SET_USED(n);
	/* relaxed: only limits the log to one line */
	if (__atomic_exchange_n(&rdmadev_notmpl_logged, 1, __ATOMIC_RELAXED) == 0)
		RDMADEV_LOG(ERR, "post_send_tmpl: the device's driver has no send templates: "
			    "the template %s", t != NULL && t->qp_drv != NULL ?
			    "was not made for this device" : "was never initialised "
			    "(rdmadev_send_tmpl_init() refuses with -ENOTSUP on this device)");
	*err = -ENOTSUP;
	return 0;
}

const struct rdmadev_fp_obj rdmadev_fp_dummy = {
	.post_send = rdmadev_dummy_post_send,
	.post_recv = rdmadev_dummy_post_recv,
	.poll_cq = rdmadev_dummy_poll_cq,
	.cq_arm = rdmadev_dummy_cq_arm,
	.post_srq_recv = rdmadev_dummy_post_srq_recv,
	.post_send_tmpl = rdmadev_dummy_post_send_tmpl,
};

/* Install the driver's burst functions (start) or the dummies (stop, close). Any NULL
 * driver function keeps its dummy. */
static void
rdmadev_fp_install(struct rdmadev *dev, bool driver)
{
	struct rdmadev_fp_obj fp = rdmadev_fp_dummy;

	if (driver) {
		if (dev->fp_ops.post_send != NULL)
			fp.post_send = dev->fp_ops.post_send;
		if (dev->fp_ops.post_recv != NULL)
			fp.post_recv = dev->fp_ops.post_recv;
		if (dev->fp_ops.poll_cq != NULL)
			fp.poll_cq = dev->fp_ops.poll_cq;
		if (dev->fp_ops.cq_arm != NULL)
			fp.cq_arm = dev->fp_ops.cq_arm;
		if (dev->fp_ops.post_srq_recv != NULL)
			fp.post_srq_recv = dev->fp_ops.post_srq_recv;
		if (dev->fp_ops.post_send_tmpl != NULL)
			fp.post_send_tmpl = dev->fp_ops.post_send_tmpl;
		else
			fp.post_send_tmpl = rdmadev_notmpl_post_send_tmpl;
	}
	rdmadev_fp_objs[dev->dev_id] = fp;
}

RTE_INIT(rdmadev_init)
{
	pthread_rwlockattr_t attr;
	unsigned int i;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	for (i = 0; i < RDMADEV_MAX_DEVS; i++) {
		rdmadev_fp_objs[i] = rdmadev_fp_dummy;
		rdmadev_devices[i].dev_id = (int16_t)i;
		pthread_rwlock_init(&rdmadev_ctl_locks[i], &attr);
	}
	pthread_rwlockattr_destroy(&attr);
	rdmadev_telemetry_register();
}

/* ---- registry ---- */

void
rdmadev_driver_register(struct rdmadev_driver *drv)
{
	if (drv == NULL || drv->name == NULL || drv->ops == NULL || drv->probe == NULL) {
		RDMADEV_LOG(ERR, "incomplete driver");
		return;
	}
	pthread_mutex_lock(&rdmadev_registry_lock);
	drv->next = rdmadev_drivers;
	rdmadev_drivers = drv;
	pthread_mutex_unlock(&rdmadev_registry_lock);
}

int
rdmadev_fail(struct rdmadev *dev, int rc, bool driver)
{
	if (dev != NULL && rc < 0) {
		/* relaxed: statistics only */
		__atomic_fetch_add(&dev->errors, 1, __ATOMIC_RELAXED);
		if (driver)
			__atomic_fetch_add(&dev->driver_errors, 1, __ATOMIC_RELAXED);
	}
	return rc;
}

static uint32_t
rdmadev_state_of(const struct rdmadev *dev)
{
	/* acquire: pairs with the release store of open, so a reader that sees the device
	 * open also sees its fields */
	return __atomic_load_n(&dev->state, __ATOMIC_ACQUIRE);
}

struct rdmadev *
rdmadev_get(int16_t dev_id)
{
	if (dev_id < 0 || dev_id >= RDMADEV_MAX_DEVS)
		return NULL;
	if (rdmadev_state_of(&rdmadev_devices[dev_id]) == RDMADEV_STATE_UNUSED)
		return NULL;
	return &rdmadev_devices[dev_id];
}

struct rdmadev *
rdmadev_get_checked(int16_t dev_id, const char *what)
{
	struct rdmadev *dev = rdmadev_get(dev_id);

	if (dev == NULL)
		RDMADEV_LOG(ERR, "%s: no device with id %d", what, dev_id);
	return dev;
}

struct rdmadev *
rdmadev_ctl_enter(int16_t dev_id, const char *what)
{
	struct rdmadev *dev;

	if (dev_id < 0 || dev_id >= RDMADEV_MAX_DEVS) {
		if (what != NULL)
			RDMADEV_LOG(ERR, "%s: no device with id %d", what, dev_id);
		return NULL;
	}
	pthread_rwlock_rdlock(&rdmadev_ctl_locks[dev_id]);
	dev = rdmadev_get(dev_id);
	if (dev == NULL) {
		pthread_rwlock_unlock(&rdmadev_ctl_locks[dev_id]);
		if (what != NULL)
			RDMADEV_LOG(ERR, "%s: no device with id %d", what, dev_id);
	}
	return dev;
}

void
rdmadev_ctl_leave(struct rdmadev *dev)
{
	pthread_rwlock_unlock(&rdmadev_ctl_locks[dev->dev_id]);
}

/* Exclusive hold of a slot's control-path lock (the writers named above). */
static void
rdmadev_ctl_lock_excl(int16_t dev_id)
{
	pthread_rwlock_wrlock(&rdmadev_ctl_locks[dev_id]);
}

static void
rdmadev_ctl_unlock_excl(int16_t dev_id)
{
	pthread_rwlock_unlock(&rdmadev_ctl_locks[dev_id]);
}

bool
rdmadev_is_valid_dev(int16_t dev_id)
{
	return rdmadev_get(dev_id) != NULL;
}

uint16_t
rdmadev_count(void)
{
	uint16_t n = 0;
	int16_t i;

	for (i = 0; i < RDMADEV_MAX_DEVS; i++)
		if (rdmadev_get(i) != NULL)
			n++;
	return n;
}

int16_t
rdmadev_find_next(int16_t start)
{
	int16_t i;

	for (i = start < 0 ? 0 : start; i < RDMADEV_MAX_DEVS; i++)
		if (rdmadev_get(i) != NULL)
			return i;
	return -1;
}

int
rdmadev_get_dev_id_by_name(const char *name)
{
	int16_t i;

	if (name == NULL)
		return -ENODEV;
	for (i = 0; i < RDMADEV_MAX_DEVS; i++) {
		struct rdmadev *dev = rdmadev_ctl_enter(i, NULL);
		bool match;

		if (dev == NULL)
			continue;
		match = strcmp(dev->name, name) == 0;
		rdmadev_ctl_leave(dev);
		if (match)
			return i;
	}
	return -ENODEV;
}

const char *
rdmadev_name(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_get(dev_id);

	return dev != NULL ? dev->name : NULL;
}

enum rdmadev_state
rdmadev_get_state(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_get(dev_id);

	return dev != NULL ? (enum rdmadev_state)rdmadev_state_of(dev) : RDMADEV_STATE_UNUSED;
}

/* The driver whose name is the longest prefix of @p name followed by nothing, ':' or a
 * digit ("irdma" takes "irdma:0000:3b:00.0", "irdma_model" takes "irdma_model0"). */
static const struct rdmadev_driver *
rdmadev_find_driver(const char *name)
{
	const struct rdmadev_driver *drv, *best = NULL;
	size_t best_len = 0;

	for (drv = rdmadev_drivers; drv != NULL; drv = drv->next) {
		size_t len = strlen(drv->name);
		char next;

		if (strncmp(name, drv->name, len) != 0)
			continue;
		next = name[len];
		if (next != '\0' && next != ':' && !isdigit((unsigned char)next))
			continue;
		if (len > best_len) {
			best = drv;
			best_len = len;
		}
	}
	return best;
}

static bool
rdmadev_key_known(const struct rdmadev_driver *drv, const char *key)
{
	const char *const *k;

	for (k = drv->keys; k != NULL && *k != NULL; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

/* Parse the key=value part of the devargs and check every key against the driver's list. */
static int
rdmadev_parse_args(const struct rdmadev_driver *drv, const char *name, const char *args,
		   struct rte_kvargs **out)
{
	struct rte_kvargs *kv;
	unsigned int i;

	*out = NULL;
	if (args == NULL || *args == '\0')
		return 0;
	kv = rte_kvargs_parse(args, NULL);
	if (kv == NULL) {
		RDMADEV_LOG(ERR, "%s: malformed devargs \"%s\"", name, args);
		return -EINVAL;
	}
	for (i = 0; i < kv->count; i++) {
		if (!rdmadev_key_known(drv, kv->pairs[i].key)) {
			RDMADEV_LOG(ERR, "%s: driver %s has no devargs key \"%s\"", name,
				    drv->name, kv->pairs[i].key);
			rte_kvargs_free(kv);
			return -EINVAL;
		}
	}
	*out = kv;
	return 0;
}

/* Fill slot @p dev for @p name and probe; its control-path lock is held exclusive. */
static int
rdmadev_open_slot(struct rdmadev *dev, const struct rdmadev_driver *drv, const char *name,
		  const struct rte_kvargs *kv)
{
	int16_t i = dev->dev_id;
	int rc;

	memset(dev, 0, sizeof(*dev));
	dev->dev_id = i;
	strlcpy(dev->name, name, sizeof(dev->name));
	dev->drv = drv;
	dev->ops = drv->ops;
	pthread_mutex_init(&dev->obj_lock, NULL);
	rc = drv->probe(dev, name, kv);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: driver %s probe failed: %s", name, drv->name, strerror(-rc));
		return rc;
	}
	if (dev->ops->dev_info_get == NULL) {
		RDMADEV_LOG(ERR, "%s: driver %s has no dev_info_get", name, drv->name);
		rc = -ENOTSUP;
		goto fail_close;
	}
	rc = dev->ops->dev_info_get(dev, &dev->info);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: dev_info_get failed: %s", name, strerror(-rc));
		goto fail_close;
	}
	dev->info.driver_name = drv->name;
	rc = restrack_init(name, &dev->res_cfg, &dev->res);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: restrack_init failed: %s", name, strerror(-rc));
		goto fail_close;
	}
	rc = rdmadev_res_register_fills(dev);
	if (rc == 0)
		rc = rdmadev_event_init(dev);
	if (rc != 0) {
		restrack_clean(dev->res);
		goto fail_close;
	}
	rdmadev_fp_install(dev, false);
	/* release: publishes every field above to readers that acquire the state */
	__atomic_store_n(&dev->state, RDMADEV_STATE_OPENED, __ATOMIC_RELEASE);
	return 0;

fail_close:
	if (dev->ops->dev_close != NULL)
		dev->ops->dev_close(dev);
	return rc;
}

static int
rdmadev_open_locked(const char *devargs, const char *name, const char *args)
{
	const struct rdmadev_driver *drv;
	struct rte_kvargs *kv = NULL;
	struct rdmadev *dev = NULL;
	int16_t i;
	int rc;

	drv = rdmadev_find_driver(name);
	if (drv == NULL) {
		RDMADEV_LOG(ERR, "no driver for \"%s\" (devargs \"%s\")", name, devargs);
		return -EINVAL;
	}
	if (rdmadev_get_dev_id_by_name(name) >= 0) {
		RDMADEV_LOG(ERR, "device %s is already open", name);
		return -EEXIST;
	}
	for (i = 0; i < RDMADEV_MAX_DEVS && dev == NULL; i++)
		if (rdmadev_state_of(&rdmadev_devices[i]) == RDMADEV_STATE_UNUSED)
			dev = &rdmadev_devices[i];
	if (dev == NULL) {
		RDMADEV_LOG(ERR, "%s: all %d device slots are in use", name, RDMADEV_MAX_DEVS);
		return -ENOSPC;
	}
	rc = rdmadev_parse_args(drv, name, args, &kv);
	if (rc != 0)
		return rc;

	i = dev->dev_id;
	rdmadev_ctl_lock_excl(i);
	rc = rdmadev_open_slot(dev, drv, name, kv);
	rdmadev_ctl_unlock_excl(i);
	rte_kvargs_free(kv);
	if (rc == 0)
		RDMADEV_LOG(INFO, "%s: opened as device %d by driver %s", name, i, drv->name);
	return rc == 0 ? i : rc;
}

int
rdmadev_open(const char *devargs)
{
	char name[RDMADEV_NAME_LEN];
	const char *comma;
	size_t len;
	int rc;

	if (devargs == NULL || *devargs == '\0') {
		RDMADEV_LOG(ERR, "empty devargs");
		return -EINVAL;
	}
	comma = strchr(devargs, ',');
	len = comma != NULL ? (size_t)(comma - devargs) : strlen(devargs);
	if (len == 0 || len >= sizeof(name)) {
		RDMADEV_LOG(ERR, "device name in \"%s\" is empty or longer than %d", devargs,
			    RDMADEV_NAME_LEN - 1);
		return -EINVAL;
	}
	memcpy(name, devargs, len);
	name[len] = '\0';
	pthread_mutex_lock(&rdmadev_registry_lock);
	rc = rdmadev_open_locked(devargs, name, comma != NULL ? comma + 1 : NULL);
	pthread_mutex_unlock(&rdmadev_registry_lock);
	return rc;
}

int
rdmadev_close(int16_t dev_id)
{
	struct rdmadev *dev;
	unsigned int untracked;
	int leaks, rc;

	pthread_mutex_lock(&rdmadev_registry_lock);
	dev = rdmadev_get_checked(dev_id, "close");
	if (dev == NULL) {
		pthread_mutex_unlock(&rdmadev_registry_lock);
		return -EINVAL;
	}
	if (rdmadev_state_of(dev) == RDMADEV_STATE_STARTED) {
		RDMADEV_LOG(ERR, "%s: close refused: the device is started; stop it first",
			    dev->name);
		pthread_mutex_unlock(&rdmadev_registry_lock);
		return rdmadev_fail(dev, -EBUSY, false);
	}
	/* exclusive: readers in other threads (telemetry, dumps) are out, and wait until the
	 * slot is unused, which they then report */
	rdmadev_ctl_lock_excl(dev_id);
	rdmadev_fp_install(dev, false);
	leaks = restrack_clean(dev->res);
	dev->res = NULL;
	untracked = rdmadev_obj_release_all(dev);
	if (leaks < 0)
		leaks = 0;
	leaks += (int)untracked;
	if (leaks > 0)
		RDMADEV_LOG(WARNING, "%s: closed with %d leaked objects (%u without an ID)",
			    dev->name, leaks, untracked);
	rdmadev_event_fini(dev);
	if (dev->ops->dev_close != NULL) {
		rc = dev->ops->dev_close(dev);
		if (rc != 0)
			RDMADEV_LOG(ERR, "%s: driver close failed: %s", dev->name, strerror(-rc));
	}
	RDMADEV_LOG(INFO, "%s: closed", dev->name);
	/* release: the slot is reused only after every store above */
	__atomic_store_n(&dev->state, RDMADEV_STATE_UNUSED, __ATOMIC_RELEASE);
	rdmadev_ctl_unlock_excl(dev_id);
	pthread_mutex_unlock(&rdmadev_registry_lock);
	return leaks;
}

/* ---- lifecycle ---- */

int
rdmadev_info_get(int16_t dev_id, struct rdmadev_info *info)
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "info_get");
	int rc = 0;

	if (dev == NULL)
		return -EINVAL;
	if (info == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL info", dev->name);
		rc = rdmadev_fail(dev, -EINVAL, false);
	} else {
		*info = dev->info;
	}
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_configure(int16_t dev_id, const struct rdmadev_conf *conf)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, "configure");
	uint64_t unknown;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	if (conf == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL configuration", dev->name);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (rdmadev_state_of(dev) == RDMADEV_STATE_STARTED) {
		RDMADEV_LOG(ERR, "%s: configure refused: the device is started", dev->name);
		return rdmadev_fail(dev, -EBUSY, false);
	}
	unknown = conf->capa & ~dev->info.capa;
	if (unknown != 0) {
		RDMADEV_LOG(ERR, "%s: configure: capabilities 0x%" PRIx64 " not supported",
			    dev->name, unknown);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (conf->nb_comp_vectors == 0 || conf->nb_comp_vectors > dev->info.max_comp_vectors) {
		RDMADEV_LOG(ERR, "%s: configure: %u completion vectors, device has 1..%u",
			    dev->name, conf->nb_comp_vectors, dev->info.max_comp_vectors);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rdmadev_ctl_lock_excl(dev_id);
	rc = dev->ops->dev_configure != NULL ? dev->ops->dev_configure(dev, conf) : 0;
	if (rc == 0) {
		dev->conf = *conf;
		__atomic_store_n(&dev->state, RDMADEV_STATE_CONFIGURED, __ATOMIC_RELEASE);
	}
	rdmadev_ctl_unlock_excl(dev_id);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: driver configure failed: %s", dev->name, strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}

int
rdmadev_start(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, "start");
	uint32_t state;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	state = rdmadev_state_of(dev);
	if (state == RDMADEV_STATE_STARTED) {
		RDMADEV_LOG(ERR, "%s: start refused: already started", dev->name);
		return rdmadev_fail(dev, -EBUSY, false);
	}
	if (state != RDMADEV_STATE_CONFIGURED) {
		RDMADEV_LOG(ERR, "%s: start refused: the device is %s, not configured", dev->name,
			    rdmadev_state_name(state));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	rdmadev_ctl_lock_excl(dev_id);
	rc = dev->ops->dev_start != NULL ? dev->ops->dev_start(dev) : 0;
	if (rc == 0) {
		rdmadev_fp_install(dev, true);
		__atomic_store_n(&dev->state, RDMADEV_STATE_STARTED, __ATOMIC_RELEASE);
	}
	rdmadev_ctl_unlock_excl(dev_id);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: driver start failed: %s", dev->name, strerror(-rc));
		return rdmadev_fail(dev, rc, true);
	}
	/* After the state: the interrupt may process events at once. A device without an
	 * interrupt still works (polled), so a failure here is logged only. */
	(void)rdmadev_event_start(dev);
	return 0;
}

int
rdmadev_stop(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_get_checked(dev_id, "stop");
	uint32_t state;
	int rc;

	if (dev == NULL)
		return -EINVAL;
	state = rdmadev_state_of(dev);
	if (state != RDMADEV_STATE_STARTED) {
		RDMADEV_LOG(ERR, "%s: stop refused: the device is %s, not started", dev->name,
			    rdmadev_state_name(state));
		return rdmadev_fail(dev, -EINVAL, false);
	}
	/* The interrupt goes first: the driver's stop tears its event queue down. Not under
	 * the control-path lock: unregistering waits for a running event callback, which may
	 * be a reader. */
	rdmadev_event_stop(dev);
	rdmadev_ctl_lock_excl(dev_id);
	rc = dev->ops->dev_stop != NULL ? dev->ops->dev_stop(dev) : 0;
	if (rc == 0) {
		rdmadev_fp_install(dev, false);
		__atomic_store_n(&dev->state, RDMADEV_STATE_CONFIGURED, __ATOMIC_RELEASE);
	}
	rdmadev_ctl_unlock_excl(dev_id);
	if (rc != 0) {
		RDMADEV_LOG(ERR, "%s: driver stop failed: %s", dev->name, strerror(-rc));
		(void)rdmadev_event_start(dev);
		return rdmadev_fail(dev, rc, true);
	}
	return 0;
}

/* ---- statistics ---- */

void
rdmadev_stats_read(struct rdmadev *dev, struct rdmadev_stats *stats)
{
	unsigned int i;

	/* relaxed: counters are independent statistics */
	for (i = 0; i < RDMADEV_OBJ_MAX; i++) {
		stats->created[i] = __atomic_load_n(&dev->created[i], __ATOMIC_RELAXED);
		stats->destroyed[i] = __atomic_load_n(&dev->destroyed[i], __ATOMIC_RELAXED);
	}
	stats->errors = __atomic_load_n(&dev->errors, __ATOMIC_RELAXED);
	stats->driver_errors = __atomic_load_n(&dev->driver_errors, __ATOMIC_RELAXED);
}

int
rdmadev_stats_get(int16_t dev_id, struct rdmadev_stats *stats)
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "stats_get");
	int rc = 0;

	if (dev == NULL)
		return -EINVAL;
	if (stats == NULL) {
		RDMADEV_LOG(ERR, "%s: NULL stats", dev->name);
		rc = rdmadev_fail(dev, -EINVAL, false);
	} else {
		rdmadev_stats_read(dev, stats);
	}
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_stats_reset(int16_t dev_id)
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "stats_reset");
	unsigned int i;
	int rc = 0;

	if (dev == NULL)
		return -EINVAL;
	for (i = 0; i < RDMADEV_OBJ_MAX; i++) {
		__atomic_store_n(&dev->created[i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&dev->destroyed[i], 0, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&dev->errors, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&dev->driver_errors, 0, __ATOMIC_RELAXED);
	if (dev->ops->xstats_reset != NULL)
		rc = dev->ops->xstats_reset(dev);
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_xstats_read(struct rdmadev *dev, struct rdmadev_xstat *xs, unsigned int n)
{
	if (xs == NULL && n != 0) {
		RDMADEV_LOG(ERR, "%s: NULL array of %u", dev->name, n);
		return rdmadev_fail(dev, -EINVAL, false);
	}
	if (dev->ops->xstats_get == NULL) {
		RDMADEV_LOG(DEBUG, "%s: driver %s has no counters", dev->name, dev->drv->name);
		return -ENOTSUP;
	}
	return dev->ops->xstats_get(dev, xs, n);
}

int
rdmadev_xstats_get(int16_t dev_id, struct rdmadev_xstat *xs, unsigned int n)
{
	struct rdmadev *dev = rdmadev_ctl_enter(dev_id, "xstats_get");
	int rc;

	if (dev == NULL)
		return -EINVAL;
	rc = rdmadev_xstats_read(dev, xs, n);
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_param_set(int16_t dev_id, const char *key, const char *value)
{
	struct rdmadev *dev;
	int rc;

	if (key == NULL || value == NULL) {
		RDMADEV_LOG(ERR, "param_set: NULL %s", key == NULL ? "key" : "value");
		return -EINVAL;
	}
	dev = rdmadev_ctl_enter(dev_id, "param_set");
	if (dev == NULL)
		return -EINVAL;
	if (dev->ops->param_set == NULL) {
		RDMADEV_LOG(ERR, "%s: param %s: driver %s changes no parameter at run time",
			    dev->name, key, dev->drv->name);
		rc = -ENOTSUP;
	} else {
		rc = dev->ops->param_set(dev, key, value);
	}
	rdmadev_ctl_leave(dev);
	return rc;
}

int
rdmadev_dump(int16_t dev_id, FILE *f)
{
	struct rdmadev_port_info pi;
	const struct rdmadev_info *in;
	struct rdmadev *dev;
	char line[256];
	unsigned int i;

	if (f == NULL) {
		RDMADEV_LOG(ERR, "dump: NULL FILE");
		return -EINVAL;
	}
	dev = rdmadev_ctl_enter(dev_id, "dump");
	if (dev == NULL)
		return -EINVAL;
	in = &dev->info;
	fprintf(f, "rdmadev %d: %s (driver %s, gen %u, %s)\n", dev->dev_id, dev->name,
		in->driver_name, in->hw_gen, rdmadev_state_name(rdmadev_state_of(dev)));
	fprintf(f, "  capa:");
	for (i = 0; i < 64; i++)
		if ((in->capa & RTE_BIT64(i)) && rdmadev_capa_name(RTE_BIT64(i)) != NULL)
			fprintf(f, " %s", rdmadev_capa_name(RTE_BIT64(i)));
	fprintf(f, "\n  max_qp %u max_qp_wr %u max_sge %u max_sge_rd %u max_inline %u\n",
		in->max_qp, in->max_qp_wr, in->max_sge, in->max_sge_rd, in->max_inline);
	fprintf(f, "  max_cq %u max_cqe %u max_mr %u max_pd %u max_ah %u max_mr_size 0x%" PRIx64
		"\n", in->max_cq, in->max_cqe, in->max_mr, in->max_pd, in->max_ah,
		in->max_mr_size);
	/* IRD: reads this device answers as the responder (max_qp_rd_atom); ORD: reads it
	 * issues as the initiator (max_qp_init_rd_atom) */
	fprintf(f, "  ird %u ord %u fast_reg_pages %u\n", in->max_qp_rd_atom,
		in->max_qp_init_rd_atom, in->max_fast_reg_pages);
	if (dev->res != NULL && restrack_summary(dev->res, line, sizeof(line)) >= 0)
		fprintf(f, "  %s\n", line);
	if (dev->ops->port_info_get != NULL && rdmadev_port_info_read(dev, &pi) == 0)
	{
		fprintf(f, "  port %s mac %02x:%02x:%02x:%02x:%02x:%02x speed %u Mb/s pf %d fw %s "
			"vsi %d qsets %u", rdmadev_port_state_name(pi.state), pi.mac[0],
			pi.mac[1], pi.mac[2], pi.mac[3], pi.mac[4], pi.mac[5], pi.speed_mbps,
			pi.pf_id, pi.fw_ver[0] != '\0' ? pi.fw_ver : "-", pi.vsi, pi.nb_qsets);
		for (i = 0; i < pi.nb_qsets && i < RDMADEV_PORT_QSETS_MAX; i++)
			fprintf(f, "%s%u", i == 0 ? " qs_handle " : ",", pi.qs_handle[i]);
		fprintf(f, "\n");
	}
	rdmadev_ctl_leave(dev);
	return 0;
}
