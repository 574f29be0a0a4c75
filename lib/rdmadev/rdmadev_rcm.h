/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_RCM_H
#define RDMADEV_RCM_H

/**
 * @file
 * rdma_cm semantics over the IB CM (rdmadev_ibcm.h): IPv4 and IPv6 addresses and ports in the TCP
 * port space (ServiceID 0x0000000001060000 | port), the CMA private-data header of the REQ,
 * listen / connect / accept / reject / disconnect, and an event channel with a file
 * descriptor, as librdmacm's rdma_create_event_channel() / rdma_get_cm_event() have.
 * Every id is a CM_ID object of the device (restrack; `rdmadev_res_dump` shows iproute2's
 * columns cm-idn, state, ps, src-addr, dst-addr, qpn, pid, comm). doc/cm.md maps each call
 * to librdmacm's. Single-threaded per channel; time is the caller's (nanoseconds).
 */

#include <netinet/in.h>
#include <stdint.h>

#include "rdmadev.h"

struct rdmadev_ibcm;

#ifdef __cplusplus
extern "C" {
#endif

/** rdma_cm port spaces (rdma_cma.h): TCP (RC connections through REQ / REP). */
#define RDMADEV_RCM_PS_TCP	0x0106u
/** UDP: UD QPs resolved through SIDR_REQ / SIDR_REP. */
#define RDMADEV_RCM_PS_UDP	0x0111u

/** ServiceID of @p port in port space @p ps (cma.c rdma_get_service_id). */
#define RDMADEV_RCM_PS_SERVICE_ID(ps, port) (((uint64_t)(ps) << 16) | (uint16_t)(port))
/** ServiceID of @p port in the TCP port space. */
#define RDMADEV_RCM_SERVICE_ID(port) RDMADEV_RCM_PS_SERVICE_ID(RDMADEV_RCM_PS_TCP, port)
/** The Q_Key of the UDP port space's QPs (rdma_cma.h RDMA_UDP_QKEY). */
#define RDMADEV_RCM_UDP_QKEY	0x01234567u
/** User private data a UDP connect can carry (SIDR_REQ: 216 - 36). */
#define RDMADEV_RCM_UDP_CONNECT_PDATA	180u

/** Bytes of the CMA header at the start of a REQ's private data (cma.c struct cma_hdr). */
#define RDMADEV_RCM_HDR_LEN	36u
/** User private data a connect can carry (92 - 36). */
#define RDMADEV_RCM_CONNECT_PDATA	56u

/** Event types (librdmacm's RDMA_CM_EVENT_* of the same names). */
enum rdmadev_rcm_event_type {
	RDMADEV_RCM_EVENT_ADDR_RESOLVED,	/**< resolve_addr done */
	RDMADEV_RCM_EVENT_ROUTE_RESOLVED,	/**< resolve_route done */
	RDMADEV_RCM_EVENT_CONNECT_REQUEST,	/**< a REQ on a listener: a new id */
	RDMADEV_RCM_EVENT_ESTABLISHED,		/**< connected, QP in RTS */
	RDMADEV_RCM_EVENT_REJECTED,		/**< REJ (status: the reason code) */
	RDMADEV_RCM_EVENT_UNREACHABLE,		/**< no answer after every CM retry */
	RDMADEV_RCM_EVENT_DISCONNECTED,		/**< DREQ received, or our DREQ answered / timed out */
	RDMADEV_RCM_EVENT_TIMEWAIT_EXIT,	/**< timewait over */
	RDMADEV_RCM_EVENT_ADDR_ERROR,		/**< resolve_addr failed (status: -ETIMEDOUT
						 *   when the neighbour never answered) */
};

/** An address of an id: IPv4 or IPv6 (sa.sa_family tells; port in network order). */
union rdmadev_rcm_addr {
	struct sockaddr sa;		/**< the family */
	struct sockaddr_in sin;		/**< AF_INET */
	struct sockaddr_in6 sin6;	/**< AF_INET6 */
};

/** A channel: the device's GSI agent, its ids and their events. */
struct rdmadev_rcm_channel;
/** An rdma_cm id. */
struct rdmadev_rcm_id;

/** Connection parameters (librdmacm's struct rdma_conn_param, the fields that matter). */
struct rdmadev_rcm_conn_param {
	const void *private_data;	/**< user private data */
	uint8_t private_data_len;	/**< bytes (connect: <= 56, accept: <= 196, reject 148) */
	uint8_t responder_resources;	/**< incoming RDMA READs served */
	uint8_t initiator_depth;	/**< outstanding RDMA READs issued */
	uint8_t retry_count;		/**< 0..7 */
	uint8_t rnr_retry_count;	/**< 0..7 */
};

/** One event. */
struct rdmadev_rcm_event {
	enum rdmadev_rcm_event_type event;	/**< what happened */
	struct rdmadev_rcm_id *id;		/**< the id (CONNECT_REQUEST: the new one) */
	struct rdmadev_rcm_id *listen_id;	/**< CONNECT_REQUEST: the listener */
	int status;				/**< REJECTED: reason; UNREACHABLE: -ETIMEDOUT */
	union rdmadev_rcm_addr src;		/**< the id's local address */
	union rdmadev_rcm_addr dst;		/**< the id's peer address */
	uint8_t private_data_len;		/**< bytes in private_data */
	uint8_t private_data[196];		/**< the message's user private data */
	/** ESTABLISHED of a UDP id (librdmacm's param.ud): the peer's UD QP and Q_Key, and
	 *  the address to reach it (create an AH from it). */
	uint32_t ud_qpn;
	uint32_t ud_qkey;			/**< the peer's Q_Key (RDMADEV_RCM_UDP_QKEY) */
	struct rdmadev_ah_attr ah_attr;		/**< toward the peer */
};

/**
 * Create a channel on @p ctx: opens the GSI agent (rdmadev_ibcm_open) and an eventfd.
 * @return 0, -EINVAL, -ENOMEM, -EBUSY (QP 1 taken), errors of the agent.
 */
int rdmadev_rcm_channel_create(struct rdmadev_ctx *ctx, struct rdmadev_rcm_channel **out);

/** Destroy a channel and every id of it. NULL is a no-op. */
void rdmadev_rcm_channel_destroy(struct rdmadev_rcm_channel *ch);

/** The channel's file descriptor: readable (an eventfd count) while events are queued. */
int rdmadev_rcm_channel_fd(const struct rdmadev_rcm_channel *ch);

/** Drive the CM at time @p now_ns. @return events queued, or a negative errno. */
int rdmadev_rcm_process(struct rdmadev_rcm_channel *ch, uint64_t now_ns);

/** Take the oldest event (rdma_get_cm_event). @return 0, -EAGAIN, -EINVAL. */
int rdmadev_rcm_get_event(struct rdmadev_rcm_channel *ch, struct rdmadev_rcm_event *ev);

/**
 * Create an id in port space @p ps: RDMADEV_RCM_PS_TCP (RC, REQ / REP / RTU) or
 * RDMADEV_RCM_PS_UDP (UD, SIDR: connect sends a SIDR_REQ with the CMA header; the
 * listener's CONNECT_REQUEST is answered by accept with a SIDR_REP naming its UD QP and
 * RDMADEV_RCM_UDP_QKEY, or by reject with status 2; the active side's ESTABLISHED carries
 * the peer's QPN, Q_Key and address, a refusal is UNREACHABLE with the SIDR status). A UD QP
 * given to connect / accept in RESET is brought to RTS with RDMADEV_RCM_UDP_QKEY.
 * @return 0, -EINVAL, -ENOMEM.
 */
int rdmadev_rcm_create_id(struct rdmadev_rcm_channel *ch, uint16_t ps,
			  struct rdmadev_rcm_id **out);

/** Destroy an id (its connection is dropped; a listener stops). @return 0 or -EINVAL. */
int rdmadev_rcm_destroy_id(struct rdmadev_rcm_id *id);

/**
 * Bind to @p addr: a struct sockaddr_in or sockaddr_in6, the any address or one of the
 * device's GIDs (an IPv4 address is the IPv4-mapped GID); port 0 picks one from 32768. An
 * AF_INET6 any listener also takes IPv4 requests (dual stack); an AF_INET one IPv4 only.
 * @return 0, -EINVAL, -EADDRNOTAVAIL (not an address of the device).
 */
int rdmadev_rcm_bind_addr(struct rdmadev_rcm_id *id, const struct sockaddr *addr);

/** The bound of a listener's backlog (rdmadev_rcm_listen()), half the event queue. */
#define RDMADEV_RCM_BACKLOG_MAX	32

/**
 * Listen on the bound port, as rdma_listen(): at most @p backlog connect requests held
 * unanswered (CONNECT_REQUEST given, not accepted, rejected or destroyed yet); 0 or less, or
 * more than RDMADEV_RCM_BACKLOG_MAX, is RDMADEV_RCM_BACKLOG_MAX. A REQ beyond the backlog
 * is dropped unanswered (no id, no event; the peer's CM retransmits it), as Linux does.
 * @return 0, -EINVAL (no port), -EADDRINUSE.
 */
int rdmadev_rcm_listen(struct rdmadev_rcm_id *id, int backlog);

/** rdmadev_rcm_resolve_addr()'s timeout when given 0 (what rping and perftest pass). */
#define RDMADEV_RCM_RESOLVE_TIMEOUT_MS	2000u

/**
 * Resolve @p dst (struct sockaddr_in or sockaddr_in6, a port and an address), as
 * rdma_resolve_addr() does: the local address is the bound one, else the GID the CM sends
 * from toward the peer (rdmadev_ibcm_source_gid(): of its family, and for IPv6 of its
 * scope, link-local or not; the GIDs of IPv6 addresses are the addresses); the peer's MAC is @p dmac if given (not NULL,
 * not all zero), else the device's neighbour table's (rdmadev_neigh_resolve(): ARP, or
 * IPv6 neighbour discovery), asked
 * now and again at every rdmadev_rcm_process() until it answers (ADDR_RESOLVED) or
 * @p timeout_ms pass (0: RDMADEV_RCM_RESOLVE_TIMEOUT_MS) from the first process after this
 * call (ADDR_ERROR, status -ETIMEDOUT). A driver without a neighbour table gives
 * ADDR_RESOLVED at once and leaves the MAC to its wire.
 * @return 0, -EINVAL (bad arguments, an id already resolving or connected), -EADDRNOTAVAIL
 *         (no address of the peer's family), driver errors.
 */
int rdmadev_rcm_resolve_addr(struct rdmadev_rcm_id *id, const struct sockaddr *dst,
			     const uint8_t dmac[6], uint32_t timeout_ms);

/**
 * Build the RoCE path (no SA: GIDs from the addresses, the port's active MTU, packet
 * lifetime 16). ROUTE_RESOLVED follows.
 */
int rdmadev_rcm_resolve_route(struct rdmadev_rcm_id *id);

/**
 * Connect @p qp (RC, RESET) to the resolved peer: REQ with the CMA header. ESTABLISHED
 * (QP in RTS), REJECTED or UNREACHABLE follows. @return 0, -EINVAL, errors of the CM.
 */
int rdmadev_rcm_connect(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp,
			const struct rdmadev_rcm_conn_param *p, uint64_t now_ns);

/**
 * The local ACK timeout (4.096 us x 2^@p timeout) the CM gives the QP at connect or accept,
 * instead of the path's (packet lifetime + 1), as librdmacm's rdma_set_option(...,
 * RDMA_OPTION_ID_ACK_TIMEOUT) does; 0 restores the path's. Call it before connect / accept.
 * @return 0, or -EINVAL (NULL id, @p timeout above 31).
 */
int rdmadev_rcm_set_ack_timeout(struct rdmadev_rcm_id *id, uint8_t timeout);

/**
 * Cap the path MTU of @p id's connection at @p mtu (enum rdmadev_mtu; 0: no cap). Without
 * it the path MTU is the port's active MTU (what its Ethernet MTU carries, as rdma_cm's
 * route on RoCE takes min(port MTU, netdev MTU)) on the active side, and min(the REQ's,
 * the port's active MTU) on the passive side. Call it before connect / accept.
 * @return 0, or -EINVAL (NULL id, @p mtu not 0 or 1 .. 5).
 */
int rdmadev_rcm_set_path_mtu(struct rdmadev_rcm_id *id, uint8_t mtu);

/** Accept a CONNECT_REQUEST's id with @p qp (RC, RESET). ESTABLISHED follows on RTU. */
int rdmadev_rcm_accept(struct rdmadev_rcm_id *id, struct rdmadev_qp *qp,
		       const struct rdmadev_rcm_conn_param *p, uint64_t now_ns);

/** Reject a CONNECT_REQUEST's id (REJ 28, consumer defined) with private data. */
int rdmadev_rcm_reject(struct rdmadev_rcm_id *id, const void *pdata, uint8_t len);

/** Disconnect: DREQ; DISCONNECTED then TIMEWAIT_EXIT follow. @return 0 or -EINVAL. */
int rdmadev_rcm_disconnect(struct rdmadev_rcm_id *id, uint64_t now_ns);

/**
 * The name of event type @p e without its prefix ("ESTABLISHED"), as librdmacm's
 * rdma_event_str(); "UNKNOWN" for a value out of range.
 */
const char *rdmadev_rcm_event_str(enum rdmadev_rcm_event_type e);

/**
 * The channel's IB CM agent (rdmadev_ibcm.h): its counters (rdmadev_ibcm_stats_get) and
 * its MAD hook; the channel owns it. NULL for a NULL channel.
 */
struct rdmadev_ibcm *rdmadev_rcm_channel_ibcm(const struct rdmadev_rcm_channel *ch);

/** The CM_ID object number of @p id (restrack cm-idn). */
uint32_t rdmadev_rcm_id_num(const struct rdmadev_rcm_id *id);

#ifdef __cplusplus
}
#endif

#endif /* RDMADEV_RCM_H */
