/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_IBCM_H
#define RDMADEV_IBCM_H

/**
 * @file
 * The InfiniBand Communication Manager (IBA vol. 1 chapter 12) over a device's GSI QP
 * (QP 1, RoCEv2): REQ, MRA, REJ, REP, RTU, DREQ and DREP MADs with their transaction ids,
 * response timeouts, retries and timewait, and the RC QP moved through INIT / RTR / RTS with
 * the negotiated values; SIDR_REQ / SIDR_REP (a UD service's QPN and Q_Key). doc/cm.md
 * describes the protocol and what is not done.
 *
 * Single-threaded: one thread calls every function of one agent. Time is the caller's:
 * rdmadev_ibcm_process() takes the current time in nanoseconds (any monotonic origin), so
 * timers run on a real clock in an application and on a stepped one in tests.
 */

#include <stdbool.h>
#include <stdint.h>

#include "rdmadev.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of a MAD (common header 24 + CM data 232). */
#define RDMADEV_IBCM_MAD_LEN		256u
/** Management class of the CM. */
#define RDMADEV_IBCM_MGMT_CLASS		0x07u
/** The CM's class version. */
#define RDMADEV_IBCM_CLASS_VERSION	2u

/** CM attribute ids (IBA table 104). */
enum rdmadev_ibcm_attr {
	RDMADEV_IBCM_ATTR_REQ = 0x0010,		/**< connect request */
	RDMADEV_IBCM_ATTR_MRA = 0x0011,		/**< message receipt acknowledgement */
	RDMADEV_IBCM_ATTR_REJ = 0x0012,		/**< reject */
	RDMADEV_IBCM_ATTR_REP = 0x0013,		/**< reply to a REQ */
	RDMADEV_IBCM_ATTR_RTU = 0x0014,		/**< ready to use */
	RDMADEV_IBCM_ATTR_DREQ = 0x0015,	/**< disconnect request */
	RDMADEV_IBCM_ATTR_DREP = 0x0016,	/**< disconnect reply */
	RDMADEV_IBCM_ATTR_SIDR_REQ = 0x0017,	/**< service id resolution request (UD) */
	RDMADEV_IBCM_ATTR_SIDR_REP = 0x0018,	/**< service id resolution reply */
};

/** REJ reason codes used here (IBA table 109, ib_cm.h enum ib_cm_rej_reason). */
enum rdmadev_ibcm_rej_reason {
	RDMADEV_IBCM_REJ_NO_RESOURCES = 3,	/**< no resources */
	RDMADEV_IBCM_REJ_TIMEOUT = 4,		/**< the peer timed out */
	RDMADEV_IBCM_REJ_INVALID_COMM_ID = 6,	/**< invalid communication id */
	RDMADEV_IBCM_REJ_INVALID_SERVICE_ID = 8, /**< nobody listens on the service id */
	RDMADEV_IBCM_REJ_INVALID_TRANSPORT = 9,	/**< transport type not RC */
	RDMADEV_IBCM_REJ_STALE_CONN = 10,	/**< stale connection */
	RDMADEV_IBCM_REJ_INVALID_GID = 12,	/**< the REQ names another GID */
	RDMADEV_IBCM_REJ_INVALID_MTU = 26,	/**< path MTU not supported */
	RDMADEV_IBCM_REJ_CONSUMER = 28,		/**< consumer defined (the application) */
	RDMADEV_IBCM_REJ_INVALID_CLASS_VERSION = 31, /**< invalid class version */
};

/** Private data bytes of a REQ (IBA 12.6.5). */
#define RDMADEV_IBCM_REQ_PDATA		92u
/** Private data bytes of a REP. */
#define RDMADEV_IBCM_REP_PDATA		196u
/** Private data bytes of a REJ. */
#define RDMADEV_IBCM_REJ_PDATA		148u
/** Private data bytes of an RTU. */
#define RDMADEV_IBCM_RTU_PDATA		224u
/** Private data bytes of a DREQ. */
#define RDMADEV_IBCM_DREQ_PDATA		220u
/** Private data bytes of a DREP. */
#define RDMADEV_IBCM_DREP_PDATA		224u
/** Private data bytes of an MRA. */
#define RDMADEV_IBCM_MRA_PDATA		222u
/** Private data bytes of a SIDR_REQ. */
#define RDMADEV_IBCM_SIDR_REQ_PDATA	216u
/** Private data bytes of a SIDR_REP. */
#define RDMADEV_IBCM_SIDR_REP_PDATA	136u
/** SIDR_REP status: the QP is there (IBA table 119, Linux's IB_SIDR_SUCCESS). */
#define RDMADEV_IBCM_SIDR_SUCCESS	0u
/** SIDR_REP status: nobody serves the ServiceID (IB_SIDR_UNSUPPORTED). */
#define RDMADEV_IBCM_SIDR_UNSUPPORTED	1u
/** SIDR_REP status: the service refused (IB_SIDR_REJECT). */
#define RDMADEV_IBCM_SIDR_REJECT	2u

/** A CM agent: the GSI QP of one device and its connections. */
struct rdmadev_ibcm;
/** A listener or a connection of an agent. */
struct rdmadev_ibcm_id;

/** Agent configuration. */
struct rdmadev_ibcm_conf {
	struct rdmadev_ctx *ctx;	/**< device context (the agent allocates its PD, CQ, QP1) */
	uint64_t ca_guid;		/**< Local CA GUID in REQ/REP; 0: EUI-64 of the port MAC */
	uint8_t sgid_index;		/**< source GID (0: the port's IPv4-mapped address) */
	uint64_t seed;			/**< seed of comm ids and PSNs (0: a fixed default) */
	/** Service timeout sent in the MRA to a REQ (0: 24, rdma_cm's CMA_CM_MRA_SETTING). */
	uint8_t mra_service_timeout;
	bool no_mra;			/**< never MRA a REQ (the application answers quickly) */
};

/** Connection parameters: the active side's REQ, the passive side's REP. */
struct rdmadev_ibcm_conn_param {
	struct rdmadev_qp *qp;		/**< RC QP in RESET; the CM moves it to RTS */
	uint32_t qp_access;		/**< RDMADEV_ACCESS_* of the QP (INIT) */
	uint64_t service_id;		/**< REQ: the service (host order) */
	uint8_t dgid[16];		/**< REQ: the peer's GID */
	uint8_t dmac[6];		/**< REQ: the peer's MAC (neighbour resolution is the caller's) */
	uint8_t responder_resources;	/**< incoming RDMA READ / atomics this side serves */
	uint8_t initiator_depth;	/**< outstanding RDMA READ / atomics this side issues */
	uint8_t retry_count;		/**< REQ: transport retries (0..7) */
	uint8_t rnr_retry_count;	/**< RNR retries the peer may do toward us (0..7) */
	uint8_t path_mtu;		/**< enum rdmadev_mtu, at most the port's active MTU
					 *   (REQ: 0 the port's active MTU; REP: a cap on the
					 *   REQ's, 0 none) */
	uint8_t packet_life_time;	/**< REQ: path packet lifetime exponent (0: 16) */
	uint8_t local_cm_response_timeout;	/**< REQ: exponent (0: 20, rdma_cm's) */
	uint8_t remote_cm_response_timeout;	/**< REQ: exponent (0: 20) */
	uint8_t max_cm_retries;		/**< REQ: 0..15 (0: 15, rdma_cm's) */
	uint8_t ack_timeout;		/**< the QP's local ACK timeout exponent, 1..31, instead
					 *   of the path's (Linux's rdma_set_ack_timeout); 0: the
					 *   path's */
	const void *private_data;	/**< private data (at most the message's room) */
	uint8_t private_data_len;	/**< bytes of private_data */
};

/** Event types. */
enum rdmadev_ibcm_event_type {
	RDMADEV_IBCM_EV_REQ_RECEIVED,	/**< a REQ on a listener: a new id (accept or reject) */
	RDMADEV_IBCM_EV_REP_RECEIVED,	/**< active: REP taken, QP in RTS, RTU sent */
	RDMADEV_IBCM_EV_ESTABLISHED,	/**< passive: RTU taken, QP in RTS */
	RDMADEV_IBCM_EV_REJ_RECEIVED,	/**< the peer rejected (reason in rej_reason) */
	RDMADEV_IBCM_EV_MRA_RECEIVED,	/**< the peer needs longer (service_timeout) */
	RDMADEV_IBCM_EV_REQ_ERROR,	/**< active: no answer to the REQ after every retry */
	RDMADEV_IBCM_EV_REP_ERROR,	/**< passive: no RTU to the REP after every retry */
	RDMADEV_IBCM_EV_DREQ_RECEIVED,	/**< the peer disconnects; QP to ERR, DREP sent */
	RDMADEV_IBCM_EV_DREP_RECEIVED,	/**< our DREQ was answered */
	RDMADEV_IBCM_EV_DREQ_ERROR,	/**< our DREQ got no DREP after every retry */
	RDMADEV_IBCM_EV_TIMEWAIT_EXIT,	/**< timewait over: the id may be destroyed or reused */
	RDMADEV_IBCM_EV_SIDR_REP_RECEIVED,	/**< our SIDR_REQ answered (sidr_status, qpn, qkey) */
	RDMADEV_IBCM_EV_SIDR_REQ_ERROR,	/**< our SIDR_REQ got no SIDR_REP after every retry */
	RDMADEV_IBCM_EV_SIDR_REQ_RECEIVED,	/**< a SIDR_REQ on an events listener: a new id
						 *   (answer with rdmadev_ibcm_sidr_reply) */
};

/** What the peer's REQ asked for (REQ_RECEIVED) or its REP answered. */
struct rdmadev_ibcm_peer {
	uint64_t service_id;		/**< REQ ServiceID */
	uint64_t ca_guid;		/**< peer's Local CA GUID */
	uint32_t comm_id;		/**< peer's Local Communication ID */
	uint32_t qpn;			/**< peer's QPN */
	uint32_t starting_psn;		/**< peer's starting PSN */
	uint8_t gid[16];		/**< peer's GID */
	uint8_t mac[6];			/**< peer's MAC (source MAC of its MAD) */
	uint8_t responder_resources;	/**< as sent by the peer */
	uint8_t initiator_depth;	/**< as sent by the peer */
	uint8_t path_mtu;		/**< enum rdmadev_mtu (REQ) */
	uint8_t retry_count;		/**< REQ retry count */
	uint8_t rnr_retry_count;	/**< RNR retry count the peer sent */
	uint8_t local_ack_timeout;	/**< REQ Primary Local ACK Timeout */
	uint8_t hop_limit;		/**< IP TTL / hop limit of the MAD */
	uint8_t traffic_class;		/**< IP TOS / traffic class of the MAD */
};

/** One event; the private data is copied. */
struct rdmadev_ibcm_event {
	enum rdmadev_ibcm_event_type type;	/**< what happened */
	struct rdmadev_ibcm_id *id;		/**< the connection (REQ_RECEIVED: the new one) */
	struct rdmadev_ibcm_id *listen_id;	/**< REQ_RECEIVED: the listener */
	struct rdmadev_ibcm_peer peer;		/**< REQ_RECEIVED / REP_RECEIVED */
	uint16_t rej_reason;			/**< REJ_RECEIVED */
	uint8_t service_timeout;		/**< MRA_RECEIVED */
	uint8_t sidr_status;			/**< SIDR_REP_RECEIVED: RDMADEV_IBCM_SIDR_* */
	uint32_t sidr_qkey;			/**< SIDR_REP_RECEIVED: the UD QP's Q_Key (and
						 *   peer.qpn its QPN, peer.service_id the service) */
	uint8_t private_data_len;		/**< bytes in private_data */
	uint8_t private_data[RDMADEV_IBCM_RTU_PDATA];	/**< the message's private data */
};

/** Counters of an agent. */
struct rdmadev_ibcm_stats {
	uint64_t tx[9];		/**< MADs sent, by attribute id - 0x10 (REQ .. SIDR_REP) */
	uint64_t rx[9];		/**< MADs received, by attribute id - 0x10 */
	uint64_t retries;	/**< retransmissions after a response timeout */
	uint64_t duplicates;	/**< duplicate messages answered again or dropped */
	uint64_t rx_dropped;	/**< MADs not of the CM, malformed, or for no id */
	uint64_t backlog_drops;	/**< REQs dropped unanswered: the listener's backlog full */
};

/**
 * Open an agent: create the GSI QP (QP 1) on @p conf->ctx with its own PD and CQ, bring it
 * to RTS with Q_Key 0x80010000 and post its receives (256-byte MADs behind the 40-byte GRH
 * area). @return 0, -EINVAL, -ENOMEM, -EBUSY (the device's QP 1 exists), driver errors.
 */
int rdmadev_ibcm_open(const struct rdmadev_ibcm_conf *conf, struct rdmadev_ibcm **out);

/** Close an agent: every id, the GSI QP, its buffers. NULL is a no-op. */
void rdmadev_ibcm_close(struct rdmadev_ibcm *cm);

/**
 * Receive and handle MADs, reap send completions, run the response and timewait timers at
 * time @p now_ns. @return events now queued (rdmadev_ibcm_event_get), or a negative errno.
 */
int rdmadev_ibcm_process(struct rdmadev_ibcm *cm, uint64_t now_ns);

/** Take the oldest event. @return 0, or -EAGAIN when none is queued, -EINVAL. */
int rdmadev_ibcm_event_get(struct rdmadev_ibcm *cm, struct rdmadev_ibcm_event *ev);

/** Listen on @p service_id (host order). @return 0, -EINVAL, -EADDRINUSE, -ENOMEM. */
int rdmadev_ibcm_listen(struct rdmadev_ibcm *cm, uint64_t service_id,
			struct rdmadev_ibcm_id **out);

/**
 * Bound listener @p l's REQs held unanswered (REQ_RECEIVED, not accepted or rejected yet)
 * at @p backlog (0: no bound other than the event queue's 64). A REQ beyond it is dropped
 * without an MRA or a REJ and counted (backlog_drops); the peer's retransmission may find
 * room later, as Linux drops a request its listener has no room for.
 * @return 0, or -EINVAL (NULL, not a listener).
 */
int rdmadev_ibcm_set_backlog(struct rdmadev_ibcm_id *l, unsigned int backlog);

/**
 * Serve @p service_id (host order) for UD peers: a SIDR_REQ for it gets a SIDR_REP naming
 * @p qpn and @p qkey (status success) at once, without an event; a SIDR_REQ for a service
 * nobody serves gets status RDMADEV_IBCM_SIDR_UNSUPPORTED. Destroy the id to stop.
 * @return 0, -EINVAL (NULL, a QPN above 24 bits), -EADDRINUSE, -ENOMEM.
 */
int rdmadev_ibcm_sidr_listen(struct rdmadev_ibcm *cm, uint64_t service_id, uint32_t qpn,
			     uint32_t qkey, struct rdmadev_ibcm_id **out);

/**
 * Serve @p service_id (host order) for UD peers with the application answering: each
 * SIDR_REQ makes an id and a SIDR_REQ_RECEIVED event (its private data, the peer); answer
 * it with rdmadev_ibcm_sidr_reply(). A retransmitted SIDR_REQ is dropped while unanswered
 * and gets the same SIDR_REP after. rdmadev_ibcm_set_backlog() bounds the unanswered ones.
 * @return as rdmadev_ibcm_sidr_listen().
 */
int rdmadev_ibcm_sidr_listen_events(struct rdmadev_ibcm *cm, uint64_t service_id,
				    struct rdmadev_ibcm_id **out);

/**
 * Answer the SIDR_REQ of @p id (SIDR_REQ_RECEIVED): a SIDR_REP with @p status
 * (RDMADEV_IBCM_SIDR_*), for success the UD QP @p qpn and its @p qkey, and @p len bytes of
 * private data (at most 136). Destroy the id when done with it.
 * @return 0, -EINVAL, send errors.
 */
int rdmadev_ibcm_sidr_reply(struct rdmadev_ibcm_id *id, uint8_t status, uint32_t qpn,
			    uint32_t qkey, const void *pdata, uint8_t len);

/**
 * Resolve @p service_id at the peer @p dgid / @p dmac (its QP 1): a SIDR_REQ with @p len
 * bytes of private data, resent every 2^20 x 4.096 us up to 15 times (rdma_cm's CM response
 * timeout and retries). SIDR_REP_RECEIVED or SIDR_REQ_ERROR follows on the new id.
 * @return 0, -EINVAL, -ENOMEM, send errors.
 */
int rdmadev_ibcm_sidr_req(struct rdmadev_ibcm *cm, uint64_t service_id, const uint8_t dgid[16],
			  const uint8_t dmac[6], const void *pdata, uint8_t len, uint64_t now_ns,
			  struct rdmadev_ibcm_id **out);

/**
 * Connect: move @p p->qp to INIT and send a REQ (retried per its timeouts) at time
 * @p now_ns. REP_RECEIVED (QP in RTS, RTU sent), REJ_RECEIVED or REQ_ERROR follows.
 * @return 0, -EINVAL, -ENOMEM, QP modify errors.
 */
int rdmadev_ibcm_connect(struct rdmadev_ibcm *cm, const struct rdmadev_ibcm_conn_param *p,
			 uint64_t now_ns, struct rdmadev_ibcm_id **out);

/**
 * Accept the REQ of @p id (REQ_RECEIVED): move @p p->qp to RTR with the REQ's values and
 * send a REP; ESTABLISHED (QP in RTS) or REP_ERROR follows. @return 0, -EINVAL, QP errors.
 */
int rdmadev_ibcm_accept(struct rdmadev_ibcm_id *id, const struct rdmadev_ibcm_conn_param *p,
			uint64_t now_ns);

/** Reject the REQ of @p id with @p reason and private data. @return 0 or -EINVAL. */
int rdmadev_ibcm_reject(struct rdmadev_ibcm_id *id, uint16_t reason, const void *pdata,
			uint8_t len);

/**
 * Disconnect an established @p id: QP to ERR, DREQ sent (retried), DREP_RECEIVED or
 * DREQ_ERROR then TIMEWAIT_EXIT follow. @return 0, or -EINVAL when not established.
 */
int rdmadev_ibcm_disconnect(struct rdmadev_ibcm_id *id, const void *pdata, uint8_t len,
			    uint64_t now_ns);

/** Destroy an id (a connection still up is dropped silently). NULL is a no-op. */
void rdmadev_ibcm_id_destroy(struct rdmadev_ibcm_id *id);

/** Attach the caller's @p context to @p id (a layer above, e.g. rdmadev_rcm.c). */
void rdmadev_ibcm_id_set_context(struct rdmadev_ibcm_id *id, void *context);

/** The context attached to @p id (NULL when none or @p id is NULL). */
void *rdmadev_ibcm_id_context(const struct rdmadev_ibcm_id *id);

/** State name of @p id ("IDLE", "LISTEN", "REQ_SENT", ... "TIMEWAIT"). */
const char *rdmadev_ibcm_id_state(const struct rdmadev_ibcm_id *id);

/**
 * The source GID the agent uses toward @p dgid (copied to @p sgid): its configured one
 * (rdmadev_ibcm_conf::sgid_index) when of @p dgid's family, else the port's first
 * IPv4-mapped GID for an IPv4 peer, the first IPv6 GID of the peer's scope (link-local or
 * not) for an IPv6 one. A REQ, a SIDR_REQ and the connection's QP use it.
 * @return the GID table index, or -EINVAL.
 */
int rdmadev_ibcm_source_gid(const struct rdmadev_ibcm *cm, const uint8_t dgid[16],
			    uint8_t sgid[16]);

/**
 * The port's GID table entry holding @p gid (among the 16 the agent keeps).
 * @return the index, -ENOENT when no entry holds it, -EINVAL.
 */
int rdmadev_ibcm_gid_index(const struct rdmadev_ibcm *cm, const uint8_t gid[16]);

/** The agent's counters. */
void rdmadev_ibcm_stats_get(const struct rdmadev_ibcm *cm, struct rdmadev_ibcm_stats *st);

/**
 * Observe every MAD the agent sends (tests: an independent decoder checks them). @p fn
 * gets the 256 bytes; NULL removes it.
 */
void rdmadev_ibcm_set_tx_hook(struct rdmadev_ibcm *cm,
			      void (*fn)(void *arg, const uint8_t *mad), void *arg);

/** 4.096 us x 2^@p t in nanoseconds: an IBA time exponent (t 0..31). */
uint64_t rdmadev_ibcm_time_ns(uint8_t t);

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_IBCM_H */
