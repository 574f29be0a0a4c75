/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_H
#define RDMADEV_H

/**
 * @file
 * rdmadev: the RDMA device class.
 *
 * Model
 * -----
 * A *device* is one RDMA engine (an E810 function through VFIO, or the device model), opened
 * from a devargs string by the driver that claims its prefix, and known by a small integer id
 * and a name. Its objects form a tree:
 *
 *     device
 *       CTX (application context: owner, doorbell page)
 *         PD ── MR, MW, AH, SRQ, QP
 *         CQ ── used by QPs (send and receive CQ)
 *         COUNTER ── bound QPs        COMP_CNTR        DMAH ── used by MRs
 *         CM_ID (out-of-band exchange of QP parameters over TCP)
 *
 * Every object is tracked in the device's restrack root (restrack.h) under its hardware ID
 * (QPN, CQ id, PD id, STag index, ...): restrack hands the ID out before the driver's create
 * command and keeps it reserved until the driver's destroy succeeded. An object that others
 * still use (a PD with QPs or MRs, a CQ with QPs, a CTX with children) refuses to be destroyed
 * with -EBUSY; its "users" count is what the resource dump prints.
 *
 * Call order
 * ----------
 *     rdmadev_open() -> rdmadev_info_get() -> rdmadev_configure() -> rdmadev_start()
 *     -> objects: ctx, pd, cq, qp (modify RESET -> INIT -> RTR -> RTS), mr, ...
 *     -> fast path: rdmadev_post_send(), rdmadev_post_recv(), rdmadev_poll_cq()
 *     -> destroy the objects -> rdmadev_stop() -> rdmadev_close()
 *
 * Objects are created, modified and destroyed only while the device is started. Closing a
 * device with live objects reports them as leaks (and releases them).
 *
 * Threads
 * -------
 * Control-path functions on different objects may run concurrently from any thread. Calls
 * on one object are serialised by its owner (create, modify and destroy of a QP do not race),
 * as with verbs. Device lifecycle calls (open, configure, start, stop, close) must not run
 * concurrently with each other or with object calls (create, modify, destroy) on that device.
 *
 * The readers rdmadev_dump(), rdmadev_res_dump(), rdmadev_info_get(), rdmadev_stats_get(),
 * rdmadev_stats_reset(), rdmadev_xstats_get(), rdmadev_param_set(), rdmadev_port_info_get(),
 * rdmadev_gid_get(),
 * rdmadev_get_dev_id_by_name() and the telemetry commands (EAL's telemetry thread) may run at
 * any time from any thread, also during a lifecycle call or at exit: each holds the device's
 * control-path lock shared for the call, and open, configure, start, the driver half of stop
 * and close hold it exclusive while they change the device. A reader sees the device whole
 * or not at all: close waits until running readers are done, later readers return -EINVAL
 * (telemetry replies {"error": "no open device with id N"}). rdmadev_name() points into the
 * device and is valid until close.
 *
 * A QP or CQ is used on the fast path by one lcore at a time; the fast path takes no lock
 * and makes no system call.
 *
 * Errors
 * ------
 * Control-path functions return 0 (or a non-negative value where documented) or a negative
 * errno, and log the reason on the `lib.rdmadev` log type. Burst functions return counts.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>

#include "rdmadev_wr.h"
#include "rdmadev_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Length of a device name, with its NUL. */
#define RDMADEV_NAME_LEN 28

/** Device capability flags (rdmadev_info::capa). Bits 0-8 follow irdma's feature flags. */
#define RDMADEV_CAPA_RTS_AE		RTE_BIT64(0)	/**< async events in RTS (gen2) */
#define RDMADEV_CAPA_CQ_RESIZE		RTE_BIT64(1)	/**< CQs can be resized (gen2) */
#define RDMADEV_CAPA_CQE_64B		RTE_BIT64(5)	/**< 64-byte CQEs (gen3) */
#define RDMADEV_CAPA_ATOMICS		RTE_BIT64(6)	/**< fetch-add, compare-swap (gen3) */
#define RDMADEV_CAPA_SRQ		RTE_BIT64(7)	/**< shared receive queues (gen3) */
#define RDMADEV_CAPA_CQE_TIMESTAMP	RTE_BIT64(8)	/**< completion timestamps (gen3) */
#define RDMADEV_CAPA_MW			RTE_BIT64(16)	/**< type-2 memory windows (gen3) */

/**
 * Name of one capability bit ("RTS_AE", "CQ_RESIZE", ...), the one table used by dumps and
 * telemetry.
 *
 * @return The name, or NULL for a bit that has none (or a value with more than one bit set).
 */
const char *rdmadev_capa_name(uint64_t capa);

/** Page sizes (rdmadev_info::page_size_cap). */
#define RDMADEV_PAGE_4K		RTE_BIT64(12)	/**< 4 KiB */
#define RDMADEV_PAGE_2M		RTE_BIT64(21)	/**< 2 MiB */
#define RDMADEV_PAGE_1G		RTE_BIT64(30)	/**< 1 GiB */

/** Device information and limits. */
struct rdmadev_info {
	const char *driver_name;	/**< driver that owns the device */
	uint8_t hw_gen;			/**< hardware generation (2 for E810) */
	int numa_node;			/**< NUMA node, SOCKET_ID_ANY when unknown */
	uint64_t capa;			/**< RDMADEV_CAPA_* */
	uint64_t page_size_cap;		/**< RDMADEV_PAGE_* supported by MRs */
	uint64_t max_mr_size;		/**< largest MR in bytes */
	uint32_t max_msg_size;		/**< largest message */
	uint32_t max_ctx;		/**< application contexts */
	uint32_t max_qp;		/**< QPs */
	uint32_t max_qp_wr;		/**< WRs per SQ and per RQ */
	uint32_t max_sge;		/**< SGEs per send and receive WR */
	uint32_t max_sge_rd;		/**< SGEs per RDMA read */
	uint32_t max_inline;		/**< inline bytes per send WR */
	uint32_t max_cq;		/**< CQs */
	uint32_t min_cqe;		/**< smallest CQ */
	uint32_t max_cqe;		/**< largest CQ */
	uint32_t max_mr;		/**< MRs (STag indexes, shared with MWs) */
	uint32_t max_pd;		/**< PDs */
	uint32_t max_ah;		/**< address handles */
	uint32_t max_mw;		/**< memory windows (0 without RDMADEV_CAPA_MW) */
	uint32_t max_srq;		/**< SRQs (0 without RDMADEV_CAPA_SRQ) */
	uint32_t max_srq_wr;		/**< WRs per SRQ */
	uint32_t max_fast_reg_pages;	/**< page list length of a fast-registration MR */
	uint32_t max_qp_rd_atom;	/**< IRD: outstanding reads and atomics as responder */
	uint32_t max_qp_init_rd_atom;	/**< ORD: outstanding reads and atomics as requester */
	uint32_t max_counters;		/**< statistics counters */
	uint32_t max_comp_cntr;		/**< completion counters */
	uint32_t max_dmah;		/**< DMA handles */
	uint32_t max_comp_vectors;	/**< completion vectors (CEQs) */
	uint32_t max_pkeys;		/**< P_Key table length (1 on RoCE) */
	uint8_t nb_ports;		/**< ports (1) */
};

/** Device configuration. */
struct rdmadev_conf {
	uint32_t nb_comp_vectors;	/**< completion vectors to set up, 1 .. max_comp_vectors */
	uint64_t capa;			/**< capabilities to enable, a subset of info.capa */
};

/** Device lifecycle states. */
enum rdmadev_state {
	RDMADEV_STATE_UNUSED,		/**< free slot */
	RDMADEV_STATE_OPENED,		/**< probed, not configured */
	RDMADEV_STATE_CONFIGURED,	/**< configured (or stopped) */
	RDMADEV_STATE_STARTED,		/**< running: objects and fast path available */
};

/** Name of a device state ("opened", ...). */
const char *rdmadev_state_name(enum rdmadev_state state);

/** Object kinds, for statistics and names. */
enum rdmadev_obj_type {
	RDMADEV_OBJ_CTX,	/**< application context */
	RDMADEV_OBJ_PD,		/**< protection domain */
	RDMADEV_OBJ_CQ,		/**< completion queue */
	RDMADEV_OBJ_QP,		/**< queue pair */
	RDMADEV_OBJ_MR,		/**< memory region */
	RDMADEV_OBJ_MW,		/**< memory window */
	RDMADEV_OBJ_AH,		/**< address handle */
	RDMADEV_OBJ_SRQ,	/**< shared receive queue */
	RDMADEV_OBJ_COUNTER,	/**< statistics counter */
	RDMADEV_OBJ_COMP_CNTR,	/**< completion counter */
	RDMADEV_OBJ_DMAH,	/**< DMA handle */
	RDMADEV_OBJ_CM_ID,	/**< connection endpoint */
	RDMADEV_OBJ_MAX		/**< sentinel */
};

/** Lower-case name of an object kind ("qp"), "unknown" out of range. */
const char *rdmadev_obj_type_name(enum rdmadev_obj_type type);

/** Per-device counters kept by the library. */
struct rdmadev_stats {
	uint64_t created[RDMADEV_OBJ_MAX];	/**< objects created, per kind */
	uint64_t destroyed[RDMADEV_OBJ_MAX];	/**< objects destroyed, per kind */
	uint64_t errors;			/**< control-path calls that failed */
	uint64_t driver_errors;			/**< ... of which the driver refused */
};

/** One extended statistic (driver counters use irdma's hw_counters names). */
struct rdmadev_xstat {
	char name[64];		/**< counter name */
	uint64_t value;		/**< value */
};

/* ---------------------------------------------------------------------------------------- */
/* Registry and lifecycle                                                                   */

/**
 * Open a device: the driver whose prefix the devargs name starts with probes it.
 *
 * @param devargs  "<name>[,key=value...]", e.g. "irdma:0000:3b:00.0",
 *                 "irdma_model0,gen=2" or "rdma_test0".
 * @return The device id (>= 0), or -EINVAL (no driver for the name, unknown or malformed
 *         key), -EEXIST (a device of that name is open), -ENOSPC (no free slot), -ENOMEM,
 *         or the driver's probe error.
 */
int rdmadev_open(const char *devargs);

/**
 * Close a device that is not started. Live objects are reported on the log (restrack_clean)
 * and released through the driver. Readers running in other threads (see Threads above)
 * finish first; later ones find no device.
 *
 * @return Number of leaked objects (0 when everything was destroyed), -EINVAL for a bad id,
 *         -EBUSY when the device is started.
 */
int rdmadev_close(int16_t dev_id);

/** Number of open devices. */
uint16_t rdmadev_count(void);

/**
 * Find an open device by name.
 *
 * @return The id, or -ENODEV.
 */
int rdmadev_get_dev_id_by_name(const char *name);

/** True when @p dev_id is an open device. */
bool rdmadev_is_valid_dev(int16_t dev_id);

/**
 * Next open device id at or after @p start.
 *
 * @return The id, or -1 when there is none.
 */
int16_t rdmadev_find_next(int16_t start);

/** Iterate over open device ids. */
#define RDMADEV_FOREACH_DEV(i) \
	for (i = rdmadev_find_next(0); i >= 0; i = rdmadev_find_next((int16_t)(i + 1)))

/** Name of an open device, NULL for a bad id. */
const char *rdmadev_name(int16_t dev_id);

/** State of a device (RDMADEV_STATE_UNUSED for a bad id). */
enum rdmadev_state rdmadev_get_state(int16_t dev_id);

/**
 * Device information.
 *
 * @return 0, -EINVAL.
 */
int rdmadev_info_get(int16_t dev_id, struct rdmadev_info *info);

/**
 * Configure a device that is opened or stopped.
 *
 * @return 0; -EINVAL for a bad id or configuration (unknown capabilities, vector count);
 *         -EBUSY when started; or the driver's error.
 */
int rdmadev_configure(int16_t dev_id, const struct rdmadev_conf *conf);

/**
 * Start a configured device: objects may be created and the fast path is live.
 *
 * @return 0, -EINVAL (bad id, not configured), -EBUSY (already started), driver error.
 */
int rdmadev_start(int16_t dev_id);

/**
 * Stop a started device; the fast-path slot goes back to the dummies.
 *
 * @return 0, -EINVAL (bad id, not started), driver error.
 */
int rdmadev_stop(int16_t dev_id);

/**
 * Library counters of a device.
 *
 * @return 0, -EINVAL.
 */
int rdmadev_stats_get(int16_t dev_id, struct rdmadev_stats *stats);

/**
 * Reset the library counters (and the driver's, when it supports it).
 *
 * @return 0, -EINVAL.
 */
int rdmadev_stats_reset(int16_t dev_id);

/**
 * Driver counters, xstats style.
 *
 * @param dev_id  Device.
 * @param xs      Array of @p n entries, or NULL with @p n 0 to ask for the count.
 * @param n       Entries of @p xs.
 * @return Number of counters the driver has (may exceed @p n: only @p n are filled),
 *         -EINVAL, -ENOTSUP.
 */
int rdmadev_xstats_get(int16_t dev_id, struct rdmadev_xstat *xs, unsigned int n);

/**
 * Change a driver parameter of an open device at run time. Which keys a driver takes, and
 * in which states, is the driver's: they are a subset of its devargs (irdma's device model:
 * its wire's capture and fault keys, doc/model.md "Faults"). Any thread, like the readers.
 *
 * @param dev_id  Device.
 * @param key     Parameter name.
 * @param value   Its new value, as the devargs would spell it.
 * @return 0; -EINVAL (no such device, NULL @p key or @p value, a bad value); -ENOENT (the
 *         driver has no such parameter); -ENOTSUP (the driver changes no parameter at run
 *         time, or not this one). Each error has a log line naming the key.
 */
int rdmadev_param_set(int16_t dev_id, const char *key, const char *value);

/* ---------------------------------------------------------------------------------------- */
/* Port and addresses                                                                       */

/** Port states (verbs values). */
enum rdmadev_port_state {
	RDMADEV_PORT_DOWN = 1,		/**< no link */
	RDMADEV_PORT_ACTIVE = 4,	/**< link up, usable */
};

/** Name of a port state ("DOWN", "ACTIVE", "UNKNOWN"). */
const char *rdmadev_port_state_name(enum rdmadev_port_state state);

/** Largest GID table rdmadev_port_info::gid_tbl_len may report. */
#define RDMADEV_GID_TBL_MAX	256u

/** Traffic classes (and so transmit qsets) rdmadev_port_info reports at most. */
#define RDMADEV_PORT_QSETS_MAX	8

/** The device's port (every rdmadev device has one, port 1). */
struct rdmadev_port_info {
	uint8_t mac[6];				/**< Ethernet address */
	enum rdmadev_port_state state;		/**< link state */
	uint32_t mtu;				/**< Ethernet MTU in bytes */
	uint8_t max_mtu;			/**< largest path MTU (enum rdmadev_mtu) */
	uint8_t active_mtu;			/**< path MTU the Ethernet MTU carries (same) */
	uint32_t gid_tbl_len;			/**< valid GID entries, 0 .. RDMADEV_GID_TBL_MAX */
	uint32_t speed_mbps;			/**< link speed in Mb/s, 0 when down or unknown */
	int16_t pf_id;				/**< PCI function of the port, -1 when unknown */
	char fw_ver[32];			/**< firmware and API versions, "" when unknown */
	int16_t vsi;				/**< the port's VSI number, -1 when none */
	uint8_t nb_qsets;			/**< transmit qsets, one per traffic class in use */
	uint16_t qs_handle[RDMADEV_PORT_QSETS_MAX]; /**< qs_handle of qset i (traffic class i) */
};

/**
 * Port information: MAC address, link state, MTUs, GID table length.
 *
 * @return 0; -EINVAL (bad id, NULL @p info); -ENOTSUP (driver without ports); driver error.
 */
int rdmadev_port_info_get(int16_t dev_id, struct rdmadev_port_info *info);

/**
 * Read entry @p index of the port's GID table: a RoCEv2 GID, an IPv6 address or an
 * IPv4-mapped one (0:0:0:0:0:ffff:a.b.c.d), in network byte order. The entry index is what
 * rdmadev_ah_attr::sgid_index names.
 *
 * @return 0; -EINVAL (bad id, NULL @p gid, @p index >= gid_tbl_len); -ENOTSUP; driver error.
 */
int rdmadev_gid_get(int16_t dev_id, uint32_t index, uint8_t gid[16]);

/**
 * The Ethernet address of the neighbour @p dgid (a GID: IPv4-mapped or IPv6) as the port
 * sees it from GID @p sgid_index: ARP or IPv6 neighbour discovery on the driver's wire. A
 * call that does not know it yet asks (an ARP request or neighbour solicitation, repeated
 * by later calls as the driver's retry timer allows) and returns -EAGAIN; call again until
 * 0 or the caller's timeout (rdma_cm's address resolution, rdmadev_rcm.h, does).
 *
 * @return 0 with @p mac set; -EAGAIN (not answered yet, or given up by the driver for a
 *         while); -ENOTSUP (the driver has no neighbour table: the host's stack resolves);
 *         -EINVAL (bad id, NULL, @p sgid_index beyond the GID table).
 */
int rdmadev_neigh_resolve(int16_t dev_id, uint32_t sgid_index, const uint8_t dgid[16],
			  uint8_t mac[6]);

/**
 * Print the device, its information and its resource summary. Safe against a close in
 * another thread (see Threads above).
 *
 * @return 0, -EINVAL (NULL @p f, no open device).
 */
int rdmadev_dump(int16_t dev_id, FILE *f);

/**
 * Print `rdma resource show <type>` lines for the device's objects of a restrack type
 * (enum restrack_type, RESTRACK_MAX for all types). Safe against a close in another thread
 * (see Threads above).
 *
 * @return 0, -EINVAL (NULL @p f, bad type, no open device).
 */
int rdmadev_res_dump(int16_t dev_id, int restrack_type, FILE *f);

/* ---------------------------------------------------------------------------------------- */
/* Objects                                                                                  */

struct rdmadev_ctx;
struct rdmadev_pd;
struct rdmadev_srq;
struct rdmadev_counter;
struct rdmadev_comp_cntr;
struct rdmadev_dmah;
struct rdmadev_cm_id;

/**
 * Allocate an application context owned by the calling thread's process.
 *
 * @return 0 with *out set, or -EINVAL, -ENOMEM, -ENOSPC (no ID), driver error.
 */
int rdmadev_ctx_alloc(int16_t dev_id, struct rdmadev_ctx **out);

/**
 * Free a context without children.
 *
 * @return 0, -EINVAL, -EBUSY (children), driver error (the context stays usable).
 */
int rdmadev_ctx_free(struct rdmadev_ctx *ctx);

/** Doorbell page the driver mapped for the context (NULL when it has none). */
void *rdmadev_ctx_doorbell(const struct rdmadev_ctx *ctx);

/** Context ID (restrack ctxn). */
uint32_t rdmadev_ctx_id(const struct rdmadev_ctx *ctx);

/**
 * Allocate a protection domain.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_pd_alloc(struct rdmadev_ctx *ctx, struct rdmadev_pd **out);

/**
 * Free a PD no MR, MW, AH, SRQ or QP uses.
 *
 * @return 0, -EINVAL, -EBUSY, driver error.
 */
int rdmadev_pd_free(struct rdmadev_pd *pd);

/** PD number (restrack pdn). */
uint32_t rdmadev_pd_id(const struct rdmadev_pd *pd);

struct rdmadev_comp_channel;

/** CQ creation attributes. */
struct rdmadev_cq_attr {
	uint32_t cqe;			/**< minimum number of entries, 1 .. max_cqe */
	uint32_t comp_vector;		/**< completion vector, < configured vectors */
	struct rdmadev_comp_cntr *comp_cntr;	/**< optional completion counter */
	/** Optional completion channel the CQ's events go to (rdmadev_cq_arm()). */
	struct rdmadev_comp_channel *channel;
	void *cq_context;		/**< returned with each of the CQ's events */
};

/**
 * Create a completion channel of device @p dev_id: the events of the CQs created with it
 * (rdmadev_cq_attr::channel), one per rdmadev_cq_arm() followed by a completion, are read
 * with rdmadev_cq_get_event(). rdmadev_comp_channel_fd() is an eventfd for epoll.
 * The device delivers events from its interrupt, with no thread of the application
 * polling: a device that needs polling to make progress (the model in mode=inline) has no
 * channels.
 *
 * @return 0 with *out set, -EINVAL (bad id, NULL @p out), -ENOTSUP (the device cannot
 *         deliver events on its own), -ENOMEM, or -errno of eventfd().
 */
int rdmadev_comp_channel_create(int16_t dev_id, struct rdmadev_comp_channel **out);

/**
 * Destroy a completion channel no CQ uses (as ibv_destroy_comp_channel).
 *
 * @return 0, -EINVAL (NULL), -EBUSY (CQs still use it).
 */
int rdmadev_comp_channel_destroy(struct rdmadev_comp_channel *ch);

/**
 * The channel's file descriptor: an eventfd (semaphore mode) readable while events are
 * waiting. For poll/epoll; read it only through rdmadev_cq_get_event(). Set O_NONBLOCK on it
 * (fcntl) to make rdmadev_cq_get_event() return -EAGAIN instead of sleeping. It can be
 * readable with no event left (an event of a CQ destroyed since): get then says -EAGAIN or
 * sleeps again.
 *
 * @return The fd, or -EINVAL.
 */
int rdmadev_comp_channel_fd(const struct rdmadev_comp_channel *ch);

/**
 * Take the oldest event of @p ch, as ibv_get_cq_event: sleeps until one arrives unless the
 * fd is non-blocking. The CQ is not armed afterwards: arm it again, then poll it empty.
 * Every event returned must be acknowledged (rdmadev_cq_ack_events()) before the CQ can be
 * destroyed.
 *
 * @param ch          The channel.
 * @param cq          Set to the CQ of the event.
 * @param cq_context  If not NULL, set to that CQ's rdmadev_cq_attr::cq_context.
 * @return 0, -EINVAL (NULL @p ch or @p cq), -EAGAIN (non-blocking fd, no event), -EINTR
 *         is retried, other -errno of read().
 */
int rdmadev_cq_get_event(struct rdmadev_comp_channel *ch, struct rdmadev_cq **cq,
			 void **cq_context);

/**
 * Acknowledge @p n events of @p cq returned by rdmadev_cq_get_event() (as ibv_ack_cq_events;
 * acknowledging several at once is cheaper).
 *
 * @return 0, or -EINVAL (bad CQ, more acknowledged than returned).
 */
int rdmadev_cq_ack_events(struct rdmadev_cq *cq, unsigned int n);

/**
 * Create a completion queue. The driver may round the size up; rdmadev_cq_size() tells.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_cq_create(struct rdmadev_ctx *ctx, const struct rdmadev_cq_attr *attr,
		      struct rdmadev_cq **out);

/**
 * Resize a CQ (RDMADEV_CAPA_CQ_RESIZE).
 *
 * @return 0, -EINVAL (size out of range), -ENOTSUP, driver error.
 */
int rdmadev_cq_resize(struct rdmadev_cq *cq, uint32_t cqe);

/**
 * Destroy a CQ no QP uses. A CQ of a completion channel is refused while events
 * rdmadev_cq_get_event() returned are not acknowledged (ibv_destroy_cq waits instead);
 * its events not yet taken are dropped.
 *
 * @return 0, -EINVAL, -EBUSY (QPs use it, or unacknowledged events), driver error.
 */
int rdmadev_cq_destroy(struct rdmadev_cq *cq);

/** Usable CQ entries (after the driver's rounding). */
uint32_t rdmadev_cq_size(const struct rdmadev_cq *cq);

/** CQ number (restrack cqn). */
uint32_t rdmadev_cq_id(const struct rdmadev_cq *cq);

/** QP transport types. */
enum rdmadev_qp_type {
	RDMADEV_QPT_GSI = 1,	/**< QP 1, the GSI: a UD QP of Q_Key 0x80010000 (kernel value) */
	RDMADEV_QPT_RC = 2,	/**< reliable connected (verbs value) */
	RDMADEV_QPT_UD = 4,	/**< unreliable datagram (verbs value) */
};

/** QP states, in verbs order. */
enum rdmadev_qp_state {
	RDMADEV_QPS_RESET,	/**< reset */
	RDMADEV_QPS_INIT,	/**< initialised */
	RDMADEV_QPS_RTR,	/**< ready to receive */
	RDMADEV_QPS_RTS,	/**< ready to send */
	RDMADEV_QPS_SQD,	/**< send queue drained */
	RDMADEV_QPS_SQE,	/**< send queue error (UD, entered by the device) */
	RDMADEV_QPS_ERR,	/**< error */
	RDMADEV_QPS_MAX		/**< sentinel */
};

/** Name of a QP state ("RESET", ...). */
const char *rdmadev_qp_state_name(enum rdmadev_qp_state state);

/** The GSI QP's number. */
#define RDMADEV_GSI_QPN		1u
/** The GSI's well-known Q_Key (IBA 13.4.6.1, the kernel's IB_QP1_QKEY). */
#define RDMADEV_GSI_QKEY	0x80010000u

/** Name of a QP type ("RC", "UD", "GSI", "UNKNOWN"). */
const char *rdmadev_qp_type_name(enum rdmadev_qp_type type);

/** Access flags of MRs, MWs and QPs (verbs values). */
#define RDMADEV_ACCESS_LOCAL_WRITE	RTE_BIT32(0)	/**< local write */
#define RDMADEV_ACCESS_REMOTE_WRITE	RTE_BIT32(1)	/**< remote write */
#define RDMADEV_ACCESS_REMOTE_READ	RTE_BIT32(2)	/**< remote read */
#define RDMADEV_ACCESS_REMOTE_ATOMIC	RTE_BIT32(3)	/**< remote atomics */
#define RDMADEV_ACCESS_MW_BIND		RTE_BIT32(4)	/**< windows may bind the MR */

/** QP capacities. */
struct rdmadev_qp_cap {
	uint32_t max_send_wr;		/**< SQ depth, 1 .. max_qp_wr */
	uint32_t max_recv_wr;		/**< RQ depth, 0 .. max_qp_wr (0 with an SRQ) */
	uint32_t max_send_sge;		/**< SGEs per send WR, 0 .. max_sge */
	uint32_t max_recv_sge;		/**< SGEs per receive WR, 0 .. max_sge */
	uint32_t max_inline_data;	/**< inline bytes, 0 .. max_inline */
};

/** QP creation attributes. */
struct rdmadev_qp_init_attr {
	struct rdmadev_pd *pd;		/**< protection domain */
	struct rdmadev_cq *send_cq;	/**< CQ of send completions */
	struct rdmadev_cq *recv_cq;	/**< CQ of receive completions */
	struct rdmadev_srq *srq;	/**< optional SRQ */
	enum rdmadev_qp_type qp_type;	/**< RC, UD or GSI (QP 1, one per device) */
	struct rdmadev_qp_cap cap;	/**< requested capacities; the driver may round up */
	bool sq_sig_all;		/**< every send WR is signaled */
};

/** Address vector (RoCEv2). */
struct rdmadev_ah_attr {
	uint8_t dgid[16];		/**< destination GID (IPv6 or IPv4-mapped) */
	uint32_t flow_label;		/**< flow label */
	uint8_t sgid_index;		/**< source GID table index */
	uint8_t hop_limit;		/**< hop limit / TTL */
	uint8_t traffic_class;		/**< traffic class / DSCP */
	uint8_t sl;			/**< service level / priority */
	uint8_t dmac[6];		/**< destination MAC */
	uint16_t vlan_id;		/**< VLAN, 0xffff for none */
	uint8_t port_num;		/**< port, 1 */
};

/** Path MTU values (verbs enum). */
enum rdmadev_mtu {
	RDMADEV_MTU_256 = 1,	/**< 256 bytes */
	RDMADEV_MTU_512,	/**< 512 bytes */
	RDMADEV_MTU_1024,	/**< 1024 bytes */
	RDMADEV_MTU_2048,	/**< 2048 bytes */
	RDMADEV_MTU_4096,	/**< 4096 bytes */
};

/** QP attribute mask bits (verbs values). */
enum rdmadev_qp_attr_mask {
	RDMADEV_QP_STATE		= RTE_BIT32(0),	 /**< qp_state */
	RDMADEV_QP_CUR_STATE		= RTE_BIT32(1),	 /**< cur_qp_state */
	RDMADEV_QP_EN_SQD_ASYNC_NOTIFY	= RTE_BIT32(2),	 /**< en_sqd_async_notify */
	RDMADEV_QP_ACCESS_FLAGS		= RTE_BIT32(3),	 /**< qp_access_flags */
	RDMADEV_QP_PKEY_INDEX		= RTE_BIT32(4),	 /**< pkey_index */
	RDMADEV_QP_PORT			= RTE_BIT32(5),	 /**< port_num */
	RDMADEV_QP_QKEY			= RTE_BIT32(6),	 /**< qkey */
	RDMADEV_QP_AV			= RTE_BIT32(7),	 /**< ah_attr */
	RDMADEV_QP_PATH_MTU		= RTE_BIT32(8),	 /**< path_mtu */
	RDMADEV_QP_TIMEOUT		= RTE_BIT32(9),	 /**< timeout */
	RDMADEV_QP_RETRY_CNT		= RTE_BIT32(10), /**< retry_cnt */
	RDMADEV_QP_RNR_RETRY		= RTE_BIT32(11), /**< rnr_retry */
	RDMADEV_QP_RQ_PSN		= RTE_BIT32(12), /**< rq_psn */
	RDMADEV_QP_MAX_QP_RD_ATOMIC	= RTE_BIT32(13), /**< max_rd_atomic */
	RDMADEV_QP_ALT_PATH		= RTE_BIT32(14), /**< alternate path (unsupported) */
	RDMADEV_QP_MIN_RNR_TIMER	= RTE_BIT32(15), /**< min_rnr_timer */
	RDMADEV_QP_SQ_PSN		= RTE_BIT32(16), /**< sq_psn */
	RDMADEV_QP_MAX_DEST_RD_ATOMIC	= RTE_BIT32(17), /**< max_dest_rd_atomic */
	RDMADEV_QP_PATH_MIG_STATE	= RTE_BIT32(18), /**< path_mig_state */
	RDMADEV_QP_CAP			= RTE_BIT32(19), /**< cap (never modifiable here) */
	RDMADEV_QP_DEST_QPN		= RTE_BIT32(20), /**< dest_qp_num */
	RDMADEV_QP_ATTR_MASK_ALL	= RTE_BIT32(21) - 1, /**< every bit above */
};

/** Name of one attribute mask bit ("RDMADEV_QP_AV" -> "AV"), "UNKNOWN" otherwise. */
const char *rdmadev_qp_attr_name(uint32_t bit);

/** QP attributes for modify and query. */
struct rdmadev_qp_attr {
	enum rdmadev_qp_state qp_state;		/**< next state (modify) / state (query) */
	enum rdmadev_qp_state cur_qp_state;	/**< asserted current state */
	enum rdmadev_mtu path_mtu;		/**< path MTU */
	uint32_t path_mig_state;		/**< 0 migrated, 1 rearm, 2 armed */
	uint32_t qkey;				/**< UD Q_Key */
	uint32_t rq_psn;			/**< receive PSN, 24 bits */
	uint32_t sq_psn;			/**< send PSN, 24 bits */
	uint32_t dest_qp_num;			/**< remote QPN, 24 bits */
	uint32_t qp_access_flags;		/**< RDMADEV_ACCESS_* remote rights */
	struct rdmadev_qp_cap cap;		/**< capacities (query) */
	struct rdmadev_ah_attr ah_attr;		/**< primary path */
	uint16_t pkey_index;			/**< P_Key index, < max_pkeys */
	uint8_t en_sqd_async_notify;		/**< event when SQD drained */
	uint8_t sq_draining;			/**< query: SQ is draining */
	uint8_t max_rd_atomic;			/**< ORD, <= info.max_qp_init_rd_atom */
	uint8_t max_dest_rd_atomic;		/**< IRD, <= info.max_qp_rd_atom */
	uint8_t min_rnr_timer;			/**< 0 .. 31 */
	uint8_t port_num;			/**< 1 .. nb_ports */
	uint8_t timeout;			/**< 0 .. 31 */
	uint8_t retry_cnt;			/**< 0 .. 7 */
	uint8_t rnr_retry;			/**< 0 .. 7 */
};

/**
 * Create a QP in RESET. The PD and the CQs must belong to one device and one context.
 *
 * @return 0 with *out set; -EINVAL (NULL, other device or context, caps beyond the limits,
 *         bad type), -ENOTSUP (SRQ without RDMADEV_CAPA_SRQ), driver error.
 */
int rdmadev_qp_create(const struct rdmadev_qp_init_attr *attr, struct rdmadev_qp **out);

/**
 * Modify a QP: the transition from its state to attr->qp_state (RDMADEV_QP_STATE set) or an
 * attribute change in place, checked against the verbs transition table: the transition must
 * be legal for the QP type, every required attribute present and no other than the optional
 * ones; values are checked against the device limits.
 *
 * A move to RESET removes the QP's outstanding WRs without completions and the QP's
 * completions not yet polled from its CQs (as verbs providers do); asynchronous events the
 * device raised before it are dropped. Completions of the QP polled by another thread while
 * it is reset may or may not be returned.
 *
 * @return 0, -EINVAL (with a log naming the transition and the attribute), driver error.
 */
int rdmadev_qp_modify(struct rdmadev_qp *qp, const struct rdmadev_qp_attr *attr,
		      uint32_t attr_mask);

/**
 * Query a QP: its state and every attribute set so far, and the creation attributes.
 *
 * @return 0, -EINVAL.
 */
int rdmadev_qp_query(struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr,
		     struct rdmadev_qp_init_attr *init_attr);

/**
 * Destroy a QP (any state); its counter binding is dropped.
 *
 * @return 0, -EINVAL, driver error (the QP stays usable).
 */
int rdmadev_qp_destroy(struct rdmadev_qp *qp);

/**
 * Make a send template of @p qp from the prototype WR @p proto (control path): the WR is
 * checked once against the QP as rdmadev_post_send() would check it, and the driver encodes
 * everything of it that rdmadev_post_send_tmpl() does not take per WR (opcode, flags, lkey,
 * rkey; for a UD SEND the AH, remote QPN and Q_Key). proto's wr_id, SGE address and length
 * and remote address are not used. The QP may be in any state; posting checks the state.
 *
 * A template is what the prototype was: SEND or SEND_IMM (SOLICITED allowed; UD too),
 * RDMA_WRITE, RDMA_WRITE_IMM or RDMA_READ (RC), exactly one SGE, no INLINE; the immediate
 * comes with each WR (struct rdmadev_tmpl_wr imm_data). It stays valid as long as its QP
 * exists (the QP's type and caps do not change); posting it on another QP is refused.
 *
 * @return 0 with @p t filled; -EINVAL (NULL, a dead QP, not one SGE, INLINE, an unknown
 *         opcode, a WR rdmadev_post_send() refuses, such as an opcode the QP type does not
 *         allow: the driver's log names it), -ENOTSUP (another opcode, or the driver has no
 *         templates). On failure @p t is zeroed: posting it is refused.
 */
int rdmadev_send_tmpl_init(struct rdmadev_qp *qp, const struct rdmadev_send_wr *proto,
			   struct rdmadev_send_tmpl *t);

/** QP number (restrack lqpn). */
uint32_t rdmadev_qp_num(const struct rdmadev_qp *qp);

/** Current QP state. */
enum rdmadev_qp_state rdmadev_qp_get_state(const struct rdmadev_qp *qp);

/** MR registration attributes. */
struct rdmadev_mr_attr {
	void *addr;			/**< start of the range */
	uint64_t length;		/**< bytes, 1 .. max_mr_size */
	uint64_t iova;			/**< address the device uses (usually addr) */
	uint32_t access;		/**< RDMADEV_ACCESS_* */
	struct rdmadev_dmah *dmah;	/**< optional DMA handle */
};

/**
 * Register a memory region. REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE; REMOTE_ATOMIC
 * needs RDMADEV_CAPA_ATOMICS; MW_BIND needs RDMADEV_CAPA_MW.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_mr_reg(struct rdmadev_pd *pd, const struct rdmadev_mr_attr *attr,
		   struct rdmadev_mr **out);

/**
 * Register a DMA MR covering all memory (local access only).
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_mr_reg_dma(struct rdmadev_pd *pd, uint32_t access, struct rdmadev_mr **out);

/**
 * Allocate an MR for fast registration (FAST_REG work requests) of up to @p max_pages pages.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_mr_alloc_fast_reg(struct rdmadev_pd *pd, uint32_t max_pages,
			      struct rdmadev_mr **out);

/**
 * Deregister an MR.
 *
 * @return 0, -EINVAL, -EBUSY (a window is bound), driver error.
 */
int rdmadev_mr_dereg(struct rdmadev_mr *mr);

/** Local key. */
uint32_t rdmadev_mr_lkey(const struct rdmadev_mr *mr);

/** Remote key. */
uint32_t rdmadev_mr_rkey(const struct rdmadev_mr *mr);

/**
 * Create an address handle for UD sends.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_ah_create(struct rdmadev_pd *pd, const struct rdmadev_ah_attr *attr,
		      struct rdmadev_ah **out);

/**
 * Destroy an address handle.
 *
 * @return 0, -EINVAL, driver error.
 */
int rdmadev_ah_destroy(struct rdmadev_ah *ah);

/**
 * Allocate a type-2 memory window (RDMADEV_CAPA_MW).
 *
 * @return 0 with *out set, -ENOTSUP without the capability, or a negative errno.
 */
int rdmadev_mw_alloc(struct rdmadev_pd *pd, struct rdmadev_mw **out);

/**
 * Free a memory window.
 *
 * @return 0, -EINVAL, driver error.
 */
int rdmadev_mw_free(struct rdmadev_mw *mw);

/** SRQ attributes. */
struct rdmadev_srq_attr {
	uint32_t max_wr;	/**< depth, 1 .. max_srq_wr */
	uint32_t max_sge;	/**< SGEs per WR, 1 .. max_sge */
	uint32_t srq_limit;	/**< limit event threshold */
};

/**
 * Create a shared receive queue (RDMADEV_CAPA_SRQ).
 *
 * @return 0 with *out set, -ENOTSUP without the capability, or a negative errno.
 */
int rdmadev_srq_create(struct rdmadev_pd *pd, const struct rdmadev_srq_attr *attr,
		       struct rdmadev_srq **out);

/**
 * Destroy an SRQ no QP uses.
 *
 * @return 0, -EINVAL, -EBUSY, driver error.
 */
int rdmadev_srq_destroy(struct rdmadev_srq *srq);

/** rdmadev_srq_modify() mask: change srq_limit (arm the limit event; 0 disarms). */
#define RDMADEV_SRQ_LIMIT	RTE_BIT32(1)
/** rdmadev_srq_modify() mask: resize to max_wr (not supported by irdma: -ENOTSUP). */
#define RDMADEV_SRQ_MAX_WR	RTE_BIT32(0)

/**
 * Modify an SRQ: with RDMADEV_SRQ_LIMIT, arm the limit event at attr->srq_limit
 * (<= max_wr): once fewer than srq_limit WRs are posted, one RDMADEV_EVENT_SRQ_LIMIT is
 * raised and the limit disarms (query then reports srq_limit 0), as with verbs.
 *
 * @return 0, -EINVAL (NULL, unknown mask bits, limit beyond max_wr), -ENOTSUP (a mask the
 *         driver cannot apply), driver error.
 */
int rdmadev_srq_modify(struct rdmadev_srq *srq, const struct rdmadev_srq_attr *attr,
		       uint32_t mask);

/**
 * Query an SRQ: max_wr and max_sge as created (raised by the driver), srq_limit while armed
 * (0 once the limit event fired or when never armed).
 *
 * @return 0, -EINVAL, driver error.
 */
int rdmadev_srq_query(struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr);

/**
 * Allocate a statistics counter (QPs are bound to it).
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_counter_alloc(struct rdmadev_ctx *ctx, struct rdmadev_counter **out);

/**
 * Bind a QP of the same context to a counter (a QP has at most one counter).
 *
 * @return 0, -EINVAL, -EBUSY (already bound), driver error.
 */
int rdmadev_counter_bind_qp(struct rdmadev_counter *counter, struct rdmadev_qp *qp);

/**
 * Unbind a QP from its counter.
 *
 * @return 0, -EINVAL (not bound to this counter), driver error.
 */
int rdmadev_counter_unbind_qp(struct rdmadev_counter *counter, struct rdmadev_qp *qp);

/**
 * Read a counter's values (driver names, xstats style).
 *
 * @return Number of values the counter has, or a negative errno.
 */
int rdmadev_counter_read(struct rdmadev_counter *counter, struct rdmadev_xstat *xs,
			 unsigned int n);

/**
 * Free a counter no QP is bound to.
 *
 * @return 0, -EINVAL, -EBUSY, driver error.
 */
int rdmadev_counter_free(struct rdmadev_counter *counter);

/**
 * Create a completion counter (CQs may count into it).
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_comp_cntr_create(struct rdmadev_ctx *ctx, struct rdmadev_comp_cntr **out);

/**
 * Read a completion counter.
 *
 * @return 0 with *value set, or a negative errno.
 */
int rdmadev_comp_cntr_read(struct rdmadev_comp_cntr *cc, uint64_t *value);

/**
 * Destroy a completion counter no CQ uses.
 *
 * @return 0, -EINVAL, -EBUSY, driver error.
 */
int rdmadev_comp_cntr_destroy(struct rdmadev_comp_cntr *cc);

/** DMA handle attributes: where the device's memory traffic for an MR should go. */
struct rdmadev_dmah_attr {
	int cpu_id;		/**< CPU hint, -1 for none */
	int numa_node;		/**< NUMA hint, -1 for none */
	uint8_t ph;		/**< TPH processing hint, 0 .. 3 */
};

/**
 * Allocate a DMA handle.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_dmah_alloc(struct rdmadev_ctx *ctx, const struct rdmadev_dmah_attr *attr,
		       struct rdmadev_dmah **out);

/**
 * Free a DMA handle no MR uses.
 *
 * @return 0, -EINVAL, -EBUSY, driver error.
 */
int rdmadev_dmah_free(struct rdmadev_dmah *dmah);

/* ---------------------------------------------------------------------------------------- */
/* Connection endpoints (out-of-band exchange of QP parameters over TCP)                   */

/** What two endpoints exchange to connect their QPs. */
struct rdmadev_cm_param {
	uint32_t qpn;		/**< QP number, 24 bits */
	uint32_t psn;		/**< initial PSN, 24 bits */
	uint8_t gid[16];	/**< GID */
	uint8_t mtu;		/**< enum rdmadev_mtu */
	uint8_t has_rdma;	/**< rkey and addr are meaningful */
	uint32_t rkey;		/**< remote key of a buffer the peer may access */
	uint64_t addr;		/**< its address */
};

/**
 * Create a connection endpoint.
 *
 * @return 0 with *out set, or a negative errno.
 */
int rdmadev_cm_id_create(struct rdmadev_ctx *ctx, struct rdmadev_cm_id **out);

/**
 * Listen on @p addr (dotted IPv4, NULL for 127.0.0.1) and @p port (0: the system chooses;
 * rdmadev_cm_port() tells).
 *
 * @return 0, -EINVAL, or the socket error.
 */
int rdmadev_cm_listen(struct rdmadev_cm_id *cm, const char *addr, uint16_t port);

/** Local port of a listening or connected endpoint (0 when none). */
uint16_t rdmadev_cm_port(const struct rdmadev_cm_id *cm);

/**
 * Accept one connection on a listening endpoint within @p timeout_ms, send @p local, receive
 * the peer's parameters into @p remote, and close the connection.
 *
 * @p timeout_ms bounds the wait for a peer to connect. Once one has, the exchange on that
 * connection has at least RDMADEV_CM_EXCHANGE_MS to finish, whatever is left of
 * @p timeout_ms: an exchange cut short after this side has sent would leave the peer done and
 * this side not, and the two would no longer agree on what the next exchange is. So a caller
 * may wait for connections in short slices.
 *
 * @return 0, -ETIMEDOUT, -EPROTO (malformed peer message), -EINVAL, socket errors.
 */
int rdmadev_cm_accept(struct rdmadev_cm_id *cm, const struct rdmadev_cm_param *local,
		      struct rdmadev_cm_param *remote, int timeout_ms);

/** The least time rdmadev_cm_accept() gives an exchange with a peer that connected (ms). */
#define RDMADEV_CM_EXCHANGE_MS 5000

/**
 * Connect to @p addr:@p port within @p timeout_ms, send @p local and receive the peer's
 * parameters into @p remote.
 *
 * @return 0, -ETIMEDOUT, -ECONNREFUSED, -EPROTO, -EINVAL, socket errors.
 */
int rdmadev_cm_connect(struct rdmadev_cm_id *cm, const char *addr, uint16_t port,
		       const struct rdmadev_cm_param *local, struct rdmadev_cm_param *remote,
		       int timeout_ms);

/**
 * Destroy an endpoint (closes its sockets).
 *
 * @return 0, -EINVAL, driver error.
 */
int rdmadev_cm_id_destroy(struct rdmadev_cm_id *cm);

/* ---------------------------------------------------------------------------------------- */
/* Asynchronous events                                                                      */

/** Kinds of asynchronous event (the verbs ones that an RDMA engine raises). */
enum rdmadev_event_type {
	RDMADEV_EVENT_QP_FATAL,		/**< QP catastrophic error: the QP is now in ERR */
	RDMADEV_EVENT_QP_REQ_ERR,	/**< invalid request seen by the QP: now in ERR */
	RDMADEV_EVENT_QP_ACCESS_ERR,	/**< local or remote access error: now in ERR */
	RDMADEV_EVENT_QP_LAST_WQE_REACHED,	/**< last WQE of an SRQ-attached QP reached */
	RDMADEV_EVENT_SQ_DRAINED,	/**< SQD reached with en_sqd_async_notify */
	RDMADEV_EVENT_COMM_EST,		/**< first packet received in RTR */
	RDMADEV_EVENT_PATH_MIG,		/**< path migrated (no alternate paths on RoCE) */
	RDMADEV_EVENT_PATH_MIG_ERR,	/**< path migration failed */
	RDMADEV_EVENT_CQ_ERR,		/**< CQ error (overflow, or a CQE the device could not
					     write); the CQ is unusable */
	RDMADEV_EVENT_SRQ_ERR,		/**< SRQ catastrophic error */
	RDMADEV_EVENT_SRQ_LIMIT,	/**< SRQ below its limit */
	RDMADEV_EVENT_DEVICE_FATAL,	/**< the device failed: every object is unusable */
	RDMADEV_EVENT_PORT_ACTIVE,	/**< the port's link came up (obj_id: port number 1) */
	RDMADEV_EVENT_PORT_ERR,		/**< the port's link went down (obj_id: port number 1) */
	RDMADEV_EVENT_MAX		/**< sentinel */
};

/** Name of an event type ("QP_FATAL", ...), "UNKNOWN" out of range. */
const char *rdmadev_event_type_name(enum rdmadev_event_type type);

/**
 * One asynchronous event. Exactly one of @c qp, @c cq, @c srq is set for an object event;
 * none for RDMADEV_EVENT_DEVICE_FATAL and the port events. The pointer is valid until the application destroys
 * the object; events still queued for an object are dropped when it is destroyed, so a
 * queued event never names a destroyed object.
 */
struct rdmadev_event {
	enum rdmadev_event_type type;	/**< what happened */
	uint32_t obj_id;		/**< QPN, CQ id or SRQ id (0 for device events) */
	uint32_t vendor_code;		/**< driver's code for the cause (irdma: the AE code) */
	struct rdmadev_qp *qp;		/**< the QP of a QP event, else NULL */
	struct rdmadev_cq *cq;		/**< the CQ of RDMADEV_EVENT_CQ_ERR, else NULL */
	struct rdmadev_srq *srq;	/**< the SRQ of an SRQ event, else NULL */
};

/** Depth of a device's event queue: further events are dropped (and logged) until polled. */
#define RDMADEV_EVENT_QUEUE_SIZE	256
/** Callbacks a device accepts. */
#define RDMADEV_EVENT_MAX_CALLBACKS	8

/**
 * Handle the device's asynchronous events, then return the ones queued.
 *
 * Lets the driver process its event queue (irdma: the AEQ), which moves QPs that failed to
 * ERR (or SQE) before their event is delivered. With no callback registered the events are
 * queued, in order, for this function; with callbacks they go to the callbacks instead.
 * When the driver has an interrupt for its event queue, the EAL interrupt thread does the
 * processing as well (see rdmadev_event_callback_register()), so an application can also
 * wait on rdmadev_event_fd() and call this function when it becomes readable.
 *
 * @param dev_id  Device.
 * @param ev      Array of @p n events (may be NULL when @p n is 0: process only).
 * @param n       Most events to return.
 * @return Number of events returned (0 .. n), -EINVAL (bad id, NULL @p ev with n > 0), or
 *         the driver's error.
 */
int rdmadev_event_poll(int16_t dev_id, struct rdmadev_event *ev, unsigned int n);

/**
 * An eventfd that is readable while events are queued for rdmadev_event_poll() (level
 * triggered: rdmadev_event_poll() clears it when it empties the queue). For epoll; do not
 * read or close it. Valid until the device is closed.
 *
 * @return The file descriptor, or -EINVAL for a bad id.
 */
int rdmadev_event_fd(int16_t dev_id);

/** An event callback: @p ev is valid during the call only. */
typedef void (*rdmadev_event_cb_t)(int16_t dev_id, const struct rdmadev_event *ev, void *arg);

/**
 * Register a callback for the device's events. Callbacks run on the thread that processes
 * the events: the caller of rdmadev_event_poll(), or the EAL interrupt thread when the
 * driver has an interrupt for its event queue. While a callback runs, the object it is told
 * about cannot be destroyed (its destroy waits), so a callback must not destroy it; it may
 * modify it (to RESET, for instance). Events delivered to callbacks are not queued.
 *
 * @return 0, -EINVAL (bad id, NULL @p cb), -EEXIST (this @p cb and @p arg are registered
 *         already), -ENOSPC (RDMADEV_EVENT_MAX_CALLBACKS registered).
 */
int rdmadev_event_callback_register(int16_t dev_id, rdmadev_event_cb_t cb, void *arg);

/**
 * Unregister a callback. When this returns, the callback is not running and will not be
 * called again.
 *
 * @return 0, -EINVAL (bad id, NULL @p cb), -ENOENT (not registered), -EDEADLK (called from
 *         an event callback of this device).
 */
int rdmadev_event_callback_unregister(int16_t dev_id, rdmadev_event_cb_t cb, void *arg);

/* ---------------------------------------------------------------------------------------- */
/* PCI probe                                                                                */

/** One E810-family PCI function found by rdmadev_probe_pci(). */
struct rdmadev_pci_func {
	char addr[16];		/**< PCI address, "0000:3b:00.0" */
	uint16_t device_id;	/**< PCI device id */
	char driver[32];	/**< bound kernel driver, "" when none */
	int iommu_group;	/**< IOMMU group number, -1 when none */
	bool usable;		/**< bound to vfio-pci with an IOMMU group */
	char reason[96];	/**< why it is (not) usable */
	char devargs[40];	/**< "irdma:<addr>" */
};

/** Name of the environment variable that overrides the sysfs root ("/sys"). */
#define RDMADEV_SYSFS_ENV "RDMADEV_SYSFS_ROOT"

/** True when @p device_id is an Intel E810 or E82x function irdma drives. */
bool rdmadev_pci_id_supported(uint16_t device_id);

/**
 * List Intel E810 / E82x functions under `<root>/bus/pci/devices` and say for each whether
 * rdmadev can use it (vfio-pci with an IOMMU group) or why not.
 *
 * @param sysfs_root  sysfs root; NULL for $RDMADEV_SYSFS_ROOT or "/sys".
 * @param out         Array of @p max entries (may be NULL with @p max 0).
 * @param max         Entries of @p out.
 * @return Number of functions found (may exceed @p max), or -ENOENT when the PCI directory
 *         cannot be read, -EINVAL.
 */
int rdmadev_probe_pci(const char *sysfs_root, struct rdmadev_pci_func *out, unsigned int max);

/* ---------------------------------------------------------------------------------------- */
/* Fast path (the burst functions are inline in rdmadev_core.h)                           */

/** Name of a completion status ("WR_FLUSH_ERR", ...). */
const char *rdmadev_wc_status_str(enum rdmadev_wc_status status);

/* ---------------------------------------------------------------------------------------- */
/* Ring dumps (debugging: the raw bytes the device reads and writes)                        */

/**
 * Copy the raw bytes of the send-queue WQE that starts at quantum @p index of @p qp's SQ
 * (taken modulo the ring size) into @p buf: the whole WQE as the driver lays it out, in
 * 32-byte quanta.
 *
 * @return Bytes copied (at most @p len), -EINVAL (NULL, zero @p len), -ENOTSUP (the driver
 *         cannot), or the driver's error.
 */
int rdmadev_qp_dump_wqe(struct rdmadev_qp *qp, uint32_t index, uint8_t *buf, uint32_t len);

/**
 * Copy the raw bytes of entry @p index (modulo the ring size) of @p cq's completion ring into
 * @p buf.
 *
 * @return Bytes copied (at most @p len), -EINVAL, -ENOTSUP, or the driver's error.
 */
int rdmadev_cq_dump_cqe(struct rdmadev_cq *cq, uint32_t index, uint8_t *buf, uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_H */
