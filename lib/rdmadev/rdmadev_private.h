/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_PRIVATE_H
#define RDMADEV_PRIVATE_H

/* Library-internal declarations (not installed). Tests include it for the telemetry seam. */

#include <rte_log.h>
#include <rte_telemetry.h>

#include "rdmadev_driver.h"

extern int rdmadev_logtype;

#define RDMADEV_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, rdmadev_logtype, "rdmadev: %s(): " fmt "\n", __func__, \
		##__VA_ARGS__)

/* Users value of an object whose destroy has begun: no new user may take it. */
#define RDMADEV_USERS_DYING INT32_MIN

struct rdmadev_ibcm;
/*
 * Hand @p len bytes (the 40-byte GRH area, then the MAD; at most 296 used, the rest zero)
 * to the CM agent as if QP 1 had received them from @p smac: the seam of the MAD parser's
 * fuzz target (tests/fuzz). Nothing is sent to the device but the agent's answers.
 */
void rdmadev_ibcm_rx_inject(struct rdmadev_ibcm *cm, const uint8_t *buf, uint32_t len,
			    const uint8_t smac[6]);

/* Count a failed call on @p dev (may be NULL) and return @p rc. */
int rdmadev_fail(struct rdmadev *dev, int rc, bool driver);

/* The open device of an id, or NULL with a log line naming @p what. */
struct rdmadev *rdmadev_get_checked(int16_t dev_id, const char *what);

/*
 * Control-path readers (see "Threads" in rdmadev.h): the open device of @p dev_id with its
 * control-path lock held shared, so that close, open, configure, start and stop in other
 * threads wait until rdmadev_ctl_leave(); or NULL (lock not held) when there is no open
 * device of that id, with a log line naming @p what unless @p what is NULL. A holder must
 * not call another function that takes the lock (the *_read variants below do not).
 */
struct rdmadev *rdmadev_ctl_enter(int16_t dev_id, const char *what);
void rdmadev_ctl_leave(struct rdmadev *dev);

/* The readers' bodies for a device held with rdmadev_ctl_enter(). */
void rdmadev_stats_read(struct rdmadev *dev, struct rdmadev_stats *stats);
int rdmadev_xstats_read(struct rdmadev *dev, struct rdmadev_xstat *xs, unsigned int n);
int rdmadev_port_info_read(struct rdmadev *dev, struct rdmadev_port_info *info);
int rdmadev_gid_read(struct rdmadev *dev, uint32_t index, uint8_t gid[16]);

/* Object create/destroy through restrack (rdmadev_obj.c). */
int rdmadev_obj_begin_create(struct rdmadev *dev, struct rdmadev_obj *obj,
			     enum rdmadev_obj_type type, struct rdmadev_ctx *ctx);
/* The same with an exact restrack ID (@p id; RESTRACK_ID_ANY: the allocator's choice). */
int rdmadev_obj_begin_create_id(struct rdmadev *dev, struct rdmadev_obj *obj,
				enum rdmadev_obj_type type, struct rdmadev_ctx *ctx, uint32_t id);
int rdmadev_obj_use(struct rdmadev_obj *obj, struct rdmadev_obj *used, const char *what);
int rdmadev_obj_end_create(struct rdmadev_obj *obj, int rc);
int rdmadev_obj_begin_destroy(struct rdmadev_obj *obj, const char *what);
int rdmadev_obj_end_destroy(struct rdmadev_obj *obj, int rc);
bool rdmadev_obj_check(const struct rdmadev_obj *obj, enum rdmadev_obj_type type,
		       const char *what);
int32_t rdmadev_obj_users(const struct rdmadev_obj *obj);
void rdmadev_obj_unuse(struct rdmadev_obj *used);
/* Drop the use @p obj holds on @p used (counter unbind). */
void rdmadev_obj_drop_use(struct rdmadev_obj *obj, struct rdmadev_obj *used);
/* Release every object still on the device's list (close): driver destroy + free. */
unsigned int rdmadev_obj_release_all(struct rdmadev *dev);

/* Second half of the create helpers (rdmadev_obj.c). */
#define RDMADEV_OBJ(p) ((struct rdmadev_obj *)(void *)(p))
int rdmadev_obj_abort_create(struct rdmadev_obj *obj, int rc);
int rdmadev_obj_destroy(struct rdmadev_obj *obj, enum rdmadev_obj_type type, bool has_op,
			const char *what);
void *rdmadev_obj_new(struct rdmadev_ctx *ctx, enum rdmadev_obj_type type, size_t size,
		      bool has_op, void *out, const char *what, int *rc);
/* rdmadev_obj_new() with an exact restrack ID (the GSI QP is QP 1). */
void *rdmadev_obj_new_id(struct rdmadev_ctx *ctx, enum rdmadev_obj_type type, size_t size,
			 bool has_op, void *out, const char *what, uint32_t id, int *rc);
int rdmadev_obj_use_opt(struct rdmadev_obj *obj, struct rdmadev_obj *used,
			enum rdmadev_obj_type type, const char *what);
int rdmadev_obj_dev_ready(struct rdmadev *dev, const char *what);
/* Close a CM_ID's sockets (rdmadev_cm.c). */
void rdmadev_cm_release(struct rdmadev_cm_id *cm);

/* The ops table of a live object's device, or NULL (for NULL or dead handles, whose destroy
 * then fails the object check first). */
static inline const struct rdmadev_ops *
rdmadev_ops_of(const void *o)
{
	const struct rdmadev_obj *obj = o;

	return obj != NULL && obj->live ? obj->dev->ops : NULL;
}

/* Whether the driver has @p op; true for NULL or dead handles, which the object check then
 * refuses with -EINVAL. */
#define RDMADEV_OP_OF(o, op) (rdmadev_ops_of(o) == NULL || rdmadev_ops_of(o)->op != NULL)


/* Asynchronous events (rdmadev_event.c): queue and eventfd from open to close, the event
 * interrupt from start to stop, and the purge of a destroyed object's queued events. */
int rdmadev_event_init(struct rdmadev *dev);
void rdmadev_event_fini(struct rdmadev *dev);
int rdmadev_event_start(struct rdmadev *dev);
void rdmadev_event_stop(struct rdmadev *dev);
void rdmadev_event_purge(struct rdmadev_obj *obj);

/**
 * Run the driver's event processing once, so that hardware events it has not read yet are
 * read now; a no-op on the thread that is processing events (a destroy from a callback).
 * Called while a destroyed object is hidden but still owns its ID: events for it are then
 * dropped, and none can reach a new object that reuses the ID.
 */
void rdmadev_event_drain(struct rdmadev *dev);

/* Completion channels (rdmadev_channel.c), for rdmadev_cq_create / rdmadev_cq_destroy. */
/** 0 when @p ch (may be NULL) belongs to @p dev, else -EINVAL (logged). */
int rdmadev_channel_check(struct rdmadev *dev, const struct rdmadev_comp_channel *ch);
/** Attach a created CQ to @p ch (may be NULL) with its event context. */
void rdmadev_channel_attach(struct rdmadev_cq *cq, struct rdmadev_comp_channel *ch,
			    void *cq_context);
/** Before destroy: -EBUSY with unacknowledged events, else drop its queued events. */
int rdmadev_channel_detach_begin(struct rdmadev_cq *cq);
/** After destroy (@p done: it succeeded, the CQ is gone) or its failure. */
void rdmadev_channel_detach_end(struct rdmadev_comp_channel *ch, struct rdmadev_cq *cq,
				bool done);

/* Restrack type of an object kind (RESTRACK_MAX for AH, which has none). */
enum restrack_type rdmadev_obj_restrack_type(enum rdmadev_obj_type type);

/* Dump fill callbacks (rdmadev_res.c). */
int rdmadev_res_register_fills(struct rdmadev *dev);

/* Telemetry (rdmadev_telemetry.c): register the commands, and the seam the tests call. */
void rdmadev_telemetry_register(void);
int rdmadev_telemetry_handle(const char *cmd, const char *params, struct rte_tel_data *d);

/* The dummy fast-path object of unconfigured slots. */
extern const struct rdmadev_fp_obj rdmadev_fp_dummy;

#endif /* RDMADEV_PRIVATE_H */
