/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_DRIVER_H
#define RDMADEV_DRIVER_H

/**
 * @file
 * rdmadev driver interface: the device and object structs as drivers see them, the control
 * ops table, and driver registration.
 *
 * A driver registers a struct rdmadev_driver with RDMADEV_REGISTER_DRIVER(). rdmadev_open()
 * picks the driver whose name is the longest prefix of the devargs name (followed by nothing,
 * ':' or a digit), checks the keys against the driver's list and calls its probe(), which
 * sets dev_private, fp_ops (the burst functions) and res_cfg (the hardware ID spaces: QPNs,
 * CQ ids, PD ids, STag indexes ... and their reserved low IDs).
 *
 * The library validates every argument, state and limit before it calls an op, and a NULL op
 * makes the call fail with -ENOTSUP. Create ops run after restrack reserved the object's ID:
 * read it with rdmadev_obj_id() and use it in the hardware command. A create op sets
 * obj.fp.drv to the driver's object when it has one (QPs and CQs: the fast path passes it
 * first). A destroy op that fails leaves the object alive and tracked (restrack_abort_del).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <pthread.h>

#include <restrack.h>

#include "rdmadev.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rdmadev;

/** Common head of every object. */
struct rdmadev_obj {
	struct rdmadev_fp_head fp;	/**< fast-path head: must stay first */
	uint8_t type;			/**< enum rdmadev_obj_type */
	uint8_t live;			/**< 1 while created and not destroyed */
	int32_t users;			/**< objects that use this one (atomic) */
	struct rdmadev *dev;		/**< owning device */
	struct rdmadev_ctx *ctx;	/**< owning context (NULL for a CTX) */
	struct rdmadev_obj *uses[6];	/**< objects whose users count this one holds */
	struct rdmadev_obj *prev;	/**< device object list (newest first) */
	struct rdmadev_obj *next;	/**< device object list */
	struct restrack_entry res;	/**< tracking entry; its ID is the hardware ID */
};

/** Application context. */
struct rdmadev_ctx {
	struct rdmadev_obj obj;	/**< head */
	void *doorbell;		/**< doorbell page the driver mapped, or NULL */
};

/** Protection domain. */
struct rdmadev_pd {
	struct rdmadev_obj obj;	/**< head */
};

/** Completion queue. */
struct rdmadev_cq {
	struct rdmadev_obj obj;		/**< head */
	uint32_t cqe;			/**< usable entries; a create/resize op may round it up */
	uint32_t comp_vector;		/**< completion vector */
	struct rdmadev_comp_cntr *comp_cntr;	/**< completion counter, or NULL */
	/** Completion channel the CQ's events go to, or NULL (rdmadev_channel.c). */
	struct rdmadev_comp_channel *channel;
	void *cq_context;		/**< returned with each event (rdmadev_cq_get_event()) */
	uint32_t events_got;		/**< events rdmadev_cq_get_event() returned (channel lock) */
	uint32_t events_acked;		/**< events acknowledged (atomic) */
	uint8_t dying;			/**< being destroyed: events dropped (channel lock) */
};

/** Queue pair. */
struct rdmadev_qp {
	struct rdmadev_obj obj;			/**< head */
	/** Creation attributes (qp_create may raise the caps). */
	struct rdmadev_qp_init_attr init;
	struct rdmadev_qp_attr attr;		/**< attributes set so far */
	uint32_t attr_set;			/**< mask of the attributes ever set */
	uint32_t state;				/**< enum rdmadev_qp_state (atomic) */
	struct rdmadev_counter *counter;	/**< bound counter, or NULL */
	pthread_mutex_t lock;			/**< serialises modify/query/bind */
};

/** Kinds of memory region. */
enum rdmadev_mr_kind {
	RDMADEV_MR_USER,	/**< a registered VA range */
	RDMADEV_MR_DMA,		/**< all memory */
	RDMADEV_MR_FAST_REG,	/**< page list given later by FAST_REG */
};

/** Memory region. */
struct rdmadev_mr {
	struct rdmadev_obj obj;	/**< head; the ID is the STag index */
	struct rdmadev_pd *pd;	/**< protection domain */
	uint8_t kind;		/**< enum rdmadev_mr_kind */
	uint32_t access;	/**< RDMADEV_ACCESS_* */
	void *addr;		/**< USER: start */
	uint64_t length;	/**< USER: bytes */
	uint64_t iova;		/**< USER: device address */
	uint32_t max_pages;	/**< FAST_REG: page list capacity */
	uint32_t lkey;		/**< set by the driver */
	uint32_t rkey;		/**< set by the driver */
	struct rdmadev_dmah *dmah;	/**< DMA handle, or NULL */
	/** Windows bound to the region (atomic; rdmadev_mw_bound() keeps it): dereg -EBUSY. */
	uint32_t mw_bound;
};

/** Memory window (tracked in the MR ID space: windows and regions share STag indexes). */
struct rdmadev_mw {
	struct rdmadev_obj obj;	/**< head */
	struct rdmadev_pd *pd;	/**< protection domain */
	uint32_t rkey;		/**< set by the driver */
	/** Region the window is bound to, or NULL (atomic; set with rdmadev_mw_bound()). */
	struct rdmadev_mr *bound_mr;
};

/** Address handle (no restrack type: tracked untracked-by-ID, the driver numbers it). */
struct rdmadev_ah {
	struct rdmadev_obj obj;		/**< head */
	struct rdmadev_pd *pd;		/**< protection domain */
	struct rdmadev_ah_attr attr;	/**< address vector */
	uint32_t ah_id;			/**< set by the driver */
};

/** Shared receive queue. */
struct rdmadev_srq {
	struct rdmadev_obj obj;		/**< head (fast-path head first) */
	struct rdmadev_pd *pd;		/**< protection domain */
	struct rdmadev_srq_attr attr;	/**< attributes; srq_create may raise them */
	pthread_mutex_t lock;		/**< serialises modify / query */
};

/** Statistics counter. */
struct rdmadev_counter {
	struct rdmadev_obj obj;	/**< head; users = bound QPs */
};

/** Completion counter. */
struct rdmadev_comp_cntr {
	struct rdmadev_obj obj;	/**< head */
	uint64_t value;		/**< software value, for drivers that keep it here */
};

/** DMA handle. */
struct rdmadev_dmah {
	struct rdmadev_obj obj;		/**< head */
	struct rdmadev_dmah_attr attr;	/**< hints */
};

/** Connection endpoint (no driver op: the exchange is the library's). */
struct rdmadev_cm_id {
	struct rdmadev_obj obj;	/**< head */
	int listen_fd;		/**< listening socket, -1 when none */
	uint16_t port;		/**< local port */
	uint16_t peer_port;	/**< peer port of the last exchange */
	uint8_t state;		/**< 0 idle, 1 listening, 2 exchanged */
	char peer[16];		/**< peer address of the last exchange */
	/** An rdma_cm id over the IB CM (rdmadev_rcm.c); the fields below are its dump's. */
	bool rcm;
	char rcm_state[16];	/**< state name, e.g. "LISTEN", "CONNECT", "ESTABLISHED" */
	char rcm_ps[4];		/**< port space, "TCP" or "UDP" ("" is TCP) */
	char src_addr[56];	/**< "a.b.c.d:port" or "IPv6-address:port" */
	char dst_addr[56];	/**< the same, or empty */
	uint32_t qpn;		/**< the QP, 0 when none */
};

/** Read an object's hardware ID (valid inside create ops and afterwards). */
static inline uint32_t
rdmadev_obj_id(const struct rdmadev_obj *obj)
{
	return restrack_id(&obj->res);
}

/** Control-path ops. Every op returns 0 or a negative errno; NULL means not supported. */
struct rdmadev_ops {
	/** Fill the limits and capabilities. Required. */
	int (*dev_info_get)(struct rdmadev *dev, struct rdmadev_info *info);
	/** Apply a validated configuration. */
	int (*dev_configure)(struct rdmadev *dev, const struct rdmadev_conf *conf);
	/** Bring the device up. */
	int (*dev_start)(struct rdmadev *dev);
	/** Bring the device down. */
	int (*dev_stop)(struct rdmadev *dev);
	/** Release everything probe allocated (dev_private). */
	int (*dev_close)(struct rdmadev *dev);
	/** Driver counters; returns how many it has (fills at most n). */
	int (*xstats_get)(struct rdmadev *dev, struct rdmadev_xstat *xs, unsigned int n);
	/** Reset the driver counters. */
	int (*xstats_reset)(struct rdmadev *dev);
	/** Optional: change a parameter at run time (rdmadev_param_set(); logs its errors). */
	int (*param_set)(struct rdmadev *dev, const char *key, const char *value);

	int (*ctx_alloc)(struct rdmadev *dev, struct rdmadev_ctx *ctx);	/**< sets doorbell */
	int (*ctx_free)(struct rdmadev *dev, struct rdmadev_ctx *ctx);		/**< free */
	int (*pd_alloc)(struct rdmadev *dev, struct rdmadev_pd *pd);		/**< alloc PD */
	int (*pd_free)(struct rdmadev *dev, struct rdmadev_pd *pd);		/**< free PD */
	/** Create a CQ; may round cq->cqe up. */
	int (*cq_create)(struct rdmadev *dev, struct rdmadev_cq *cq,
			 const struct rdmadev_cq_attr *attr);
	/** Resize; updates cq->cqe on success. */
	int (*cq_resize)(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t cqe);
	int (*cq_destroy)(struct rdmadev *dev, struct rdmadev_cq *cq);		/**< destroy CQ */
	/** Create a QP in RESET; may raise qp->init.cap. */
	int (*qp_create)(struct rdmadev *dev, struct rdmadev_qp *qp,
			 const struct rdmadev_qp_init_attr *attr);
	/** Apply a validated modify (qp->state is still the old state). */
	int (*qp_modify)(struct rdmadev *dev, struct rdmadev_qp *qp,
			 const struct rdmadev_qp_attr *attr, uint32_t mask);
	/** Optional: refresh the attributes the hardware owns (state, sq_draining). */
	int (*qp_query)(struct rdmadev *dev, struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr);
	/** Destroy a QP in any state; a bound counter is released with it (no counter_unbind). */
	int (*qp_destroy)(struct rdmadev *dev, struct rdmadev_qp *qp);
	/** Register any kind of MR (mr->kind); sets lkey and rkey. attr is NULL unless USER. */
	int (*mr_reg)(struct rdmadev *dev, struct rdmadev_mr *mr,
		      const struct rdmadev_mr_attr *attr);
	int (*mr_dereg)(struct rdmadev *dev, struct rdmadev_mr *mr);		/**< dereg */
	/** Create an AH; sets ah->ah_id. */
	int (*ah_create)(struct rdmadev *dev, struct rdmadev_ah *ah,
			 const struct rdmadev_ah_attr *attr);
	int (*ah_destroy)(struct rdmadev *dev, struct rdmadev_ah *ah);		/**< destroy AH */
	int (*mw_alloc)(struct rdmadev *dev, struct rdmadev_mw *mw);		/**< sets rkey */
	int (*mw_free)(struct rdmadev *dev, struct rdmadev_mw *mw);		/**< free MW */
	/** Create an SRQ. */
	int (*srq_create)(struct rdmadev *dev, struct rdmadev_srq *srq,
			  const struct rdmadev_srq_attr *attr);
	int (*srq_destroy)(struct rdmadev *dev, struct rdmadev_srq *srq);	/**< destroy */
	int (*counter_alloc)(struct rdmadev *dev, struct rdmadev_counter *c);	/**< alloc */
	int (*counter_free)(struct rdmadev *dev, struct rdmadev_counter *c);	/**< free */
	/** Bind a QP to a counter. */
	int (*counter_bind)(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_qp *qp);
	/** Unbind a QP from a counter. */
	int (*counter_unbind)(struct rdmadev *dev, struct rdmadev_counter *c,
			      struct rdmadev_qp *qp);
	/** Read a counter (xstats style; returns how many values it has). */
	int (*counter_read)(struct rdmadev *dev, struct rdmadev_counter *c,
			    struct rdmadev_xstat *xs, unsigned int n);
	/** Create a completion counter. */
	int (*comp_cntr_create)(struct rdmadev *dev, struct rdmadev_comp_cntr *cc);
	/** Read a completion counter. */
	int (*comp_cntr_read)(struct rdmadev *dev, struct rdmadev_comp_cntr *cc, uint64_t *value);
	/** Destroy a completion counter. */
	int (*comp_cntr_destroy)(struct rdmadev *dev, struct rdmadev_comp_cntr *cc);
	/** Allocate a DMA handle. */
	int (*dmah_alloc)(struct rdmadev *dev, struct rdmadev_dmah *dmah,
			  const struct rdmadev_dmah_attr *attr);
	int (*dmah_free)(struct rdmadev *dev, struct rdmadev_dmah *dmah);	/**< free */
	/** Optional: append driver attributes to an object's dump record. */
	int (*res_fill)(struct rdmadev *dev, const struct rdmadev_obj *obj,
			struct restrack_dump_rec *rec);
	/** Fill the port information (zeroed by the library). */
	int (*port_info_get)(struct rdmadev *dev, struct rdmadev_port_info *info);
	/** Copy GID table entry @p index (< gid_tbl_len, checked by the library). */
	int (*gid_get)(struct rdmadev *dev, uint32_t index, uint8_t gid[16]);
	/**
	 * Optional: the neighbour MAC of @p dgid from GID @p sgid_index (< gid_tbl_len):
	 * 0, -EAGAIN (asked, not answered yet: call again), -ENOTSUP (not the driver's).
	 */
	int (*neigh_resolve)(struct rdmadev *dev, uint32_t sgid_index, const uint8_t dgid[16],
			     uint8_t mac[6]);
	/**
	 * Optional: process the device's pending asynchronous events (started devices only),
	 * reporting each with rdmadev_event_report(). Never called concurrently with itself.
	 * Returns how many device events it consumed, or a negative errno.
	 */
	int (*event_process)(struct rdmadev *dev);
	/**
	 * Optional: an eventfd the device signals when events are pending (its event-queue
	 * interrupt), or a negative errno when it has none. Asked for at start; rdmadev then
	 * calls event_process from the EAL interrupt thread when it fires. event_process must
	 * clear the eventfd and re-enable the interrupt.
	 */
	int (*event_intr_fd)(struct rdmadev *dev);
	/**
	 * Optional: how often, in milliseconds, event_process must run even when no interrupt
	 * fires (0: only on interrupts and rdmadev_event_poll()). Asked for at start, after
	 * event_intr_fd succeeded; rdmadev then also calls event_process from a thread of its
	 * own at that period (serialised as always), so that a device state no vector announces (a function-level
	 * reset disables MSI-X) still reaches an application that only waits on
	 * rdmadev_event_fd().
	 */
	uint32_t (*event_period_ms)(struct rdmadev *dev);
	/**
	 * Optional: 0 when the device delivers CQ events (rdmadev_cq_comp_event()) on its own,
	 * with no thread of the application polling it; else a negative errno (logged). NULL
	 * means no completion channels.
	 */
	int (*cq_events_check)(struct rdmadev *dev);
	/**
	 * Optional: copy the SQ WQE that starts at quantum @p index (modulo the ring) into
	 * @p buf; returns the bytes copied (at most @p len) or a negative errno.
	 */
	int (*qp_dump_wqe)(struct rdmadev *dev, struct rdmadev_qp *qp, uint32_t index,
			   uint8_t *buf, uint32_t len);
	/**
	 * Optional: copy CQE @p index (modulo the ring) into @p buf; returns the bytes copied
	 * (at most @p len) or a negative errno.
	 */
	int (*cq_dump_cqe)(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t index,
			   uint8_t *buf, uint32_t len);
	/** Optional: apply a validated SRQ modify (mask RDMADEV_SRQ_*); updates srq->attr. */
	int (*srq_modify)(struct rdmadev *dev, struct rdmadev_srq *srq,
			  const struct rdmadev_srq_attr *attr, uint32_t mask);
	/** Optional: refresh what the device owns of @p attr (the limit once it fired). */
	int (*srq_query)(struct rdmadev *dev, struct rdmadev_srq *srq,
			 struct rdmadev_srq_attr *attr);
	/**
	 * Optional: check the prototype WR @p proto against @p qp as post_send would and fill
	 * @p t (zeroed by the library, which checked one SGE, no INLINE and the opcode: SEND,
	 * SEND_IMM, RDMA_WRITE, RDMA_WRITE_IMM or RDMA_READ): qp_drv, qp_num, opcode, flags and
	 * the driver words that the driver's post_send_tmpl fast-path function reads.
	 */
	int (*send_tmpl_init)(struct rdmadev *dev, struct rdmadev_qp *qp,
			      const struct rdmadev_send_wr *proto, struct rdmadev_send_tmpl *t);
};

struct rdmadev_events;

/** Device, as drivers see it. */
struct rdmadev {
	char name[RDMADEV_NAME_LEN];		/**< devargs name */
	int16_t dev_id;				/**< index */
	uint32_t state;				/**< enum rdmadev_state */
	const struct rdmadev_driver *drv;	/**< driver */
	const struct rdmadev_ops *ops;		/**< driver->ops */
	void *dev_private;			/**< set by probe */
	struct rdmadev_fp_obj fp_ops;		/**< set by probe: burst functions */
	struct restrack_config res_cfg;		/**< set by probe: ID spaces */
	struct restrack_root *res;		/**< tracking root, named after the device */
	struct rdmadev_info info;		/**< cached at open */
	struct rdmadev_conf conf;		/**< last configuration */
	pthread_mutex_t obj_lock;		/**< protects the object list */
	struct rdmadev_obj *objs;		/**< live objects, newest first */
	uint64_t created[RDMADEV_OBJ_MAX];	/**< statistics (atomic) */
	uint64_t destroyed[RDMADEV_OBJ_MAX];	/**< statistics (atomic) */
	uint64_t errors;			/**< statistics (atomic) */
	uint64_t driver_errors;			/**< statistics (atomic) */
	struct rdmadev_events *events;		/**< asynchronous events (rdmadev_event.c) */
};

/** A driver. */
struct rdmadev_driver {
	const char *name;		/**< devargs prefix: "irdma", "irdma_model", ... */
	const char *const *keys;	/**< accepted devargs keys, NULL-terminated, or NULL */
	const struct rdmadev_ops *ops;	/**< control ops */
	/** Probe the device called @p name with its parsed devargs. */
	int (*probe)(struct rdmadev *dev, const char *name, const struct rte_kvargs *kvargs);
	struct rdmadev_driver *next;	/**< registry link (library use) */
};

/** Add a driver to the registry (use RDMADEV_REGISTER_DRIVER). */
void rdmadev_driver_register(struct rdmadev_driver *drv);

/** Register @p drv (a struct rdmadev_driver) from a constructor. */
#define RDMADEV_REGISTER_DRIVER(nm, drv)		\
	RTE_INIT(rdmadev_driver_init_##nm)		\
	{						\
		rdmadev_driver_register(&(drv));	\
	}

/** The device behind an id, or NULL when it is not open (driver and test use). */
struct rdmadev *rdmadev_get(int16_t dev_id);

/**
 * Report a state the hardware moved a QP to on its own (SQE after a UD send error, ERR after
 * a fatal event): the next modify starts from it.
 *
 * @return 0, -EINVAL for a state the hardware cannot enter (only SQE and ERR), -ESTALE when
 *         the QP is in RESET (the error concerns work the reset discarded: nothing changes).
 */
int rdmadev_qp_async_state(struct rdmadev_qp *qp, enum rdmadev_qp_state state);

/**
 * rdmadev_qp_async_state() for a caller that holds qp->lock already (a driver that decides
 * under it whether the event is stale and must not let a modify run in between).
 *
 * @return as rdmadev_qp_async_state().
 */
int rdmadev_qp_async_state_locked(struct rdmadev_qp *qp, enum rdmadev_qp_state state);

/**
 * Find the live object of @p type with hardware ID @p id on @p dev and take a reference on
 * it (restrack_get_byid()): until rdmadev_obj_put(), its destroy waits. For event
 * processing: an ID whose object is gone, or being destroyed, yields NULL.
 *
 * @return The object, or NULL (no such live object, or a type without hardware IDs).
 */
struct rdmadev_obj *rdmadev_obj_get_byid(struct rdmadev *dev, enum rdmadev_obj_type type,
					 uint32_t id);

/** Drop the reference of rdmadev_obj_get_byid(). */
void rdmadev_obj_put(struct rdmadev_obj *obj);

/**
 * Record that window @p mw is bound to region @p mr from now on, or to none (@p mr NULL: an
 * invalidation, a failed bind, the window's free). Drivers call it from their data path
 * (lock-free, any thread): the region's mw_bound counts its windows, and rdmadev_mr_dereg()
 * refuses a region with windows bound (-EBUSY, naming them). Rebinding a bound window moves
 * it. The new region is counted before the old one is released, so a count never reads low.
 */
void rdmadev_mw_bound(struct rdmadev_mw *mw, struct rdmadev_mr *mr);

/**
 * Report a completion event of @p cq (the CQ was armed and a completion arrived): queued on
 * the CQ's completion channel, whose eventfd is signalled; nothing when the CQ has none or
 * is being destroyed. Call from the driver's event processing; never concurrently with the
 * driver's cq_destroy of the same CQ.
 */
void rdmadev_cq_comp_event(struct rdmadev_cq *cq);

/**
 * Deliver an event from a driver's event_process op: to the registered callbacks, or into
 * the device's queue (waking rdmadev_event_fd()). An object event's object must be held
 * with rdmadev_obj_get_byid() across the call; ev->qp / cq / srq name it.
 *
 * @return 0, -EINVAL (bad event), -ENOSPC (queue full: the event is dropped and logged).
 */
int rdmadev_event_report(struct rdmadev *dev, const struct rdmadev_event *ev);

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_DRIVER_H */
