/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_NEIGH_H
#define IRDMA_MODEL_NEIGH_H

/*
 * Neighbours of the model's Ethernet wire (internal to model/, model_neigh.c): the port's
 * own addresses, ARP and IPv6 neighbour discovery answered for them, peers resolved the same
 * ways into a bounded table. Addresses are 16-byte GIDs (IPv4 as ::ffff:a.b.c.d); every
 * frame and table entry belongs to one VLAN (a VID, or MODEL_NEIGH_UNTAGGED), so the same
 * address on two VLANs is two neighbours.
 *
 * Thread safety: as the port it belongs to, used by its device only.
 */

#include <stdbool.h>
#include <stdint.h>

#include "model_pkt.h"

/** Entries of the neighbour table; a full table replaces its least recently used entry. */
#define MODEL_ARP_ENTRIES	64u
/** Requests (ARP or neighbour solicitations) sent for one address before it fails. */
#define MODEL_ARP_TRIES		3u
/** Microseconds between two requests for one address. */
#define MODEL_ARP_RETRY_US	1000u
/** Microseconds a failed resolution stays failed (frames to it dropped) before a new try. */
#define MODEL_ARP_FAIL_US	1000000u
/** Bytes of an ARP frame (the shortest Ethernet frame, no FCS). */
#define MODEL_ARP_FRAME_LEN	60u
/** Bytes of the ARP body. */
#define MODEL_ARP_LEN		28u
/** Bytes of a neighbour solicitation / advertisement frame (one link-layer option). */
#define MODEL_ND_FRAME_LEN	86u

/** The VLAN of untagged frames (and of priority-tagged ones, VID 0). */
#define MODEL_NEIGH_UNTAGGED	0xffffu

/**
 * Sends one untagged frame @p f for the table (ARP / ND), tagged on the way out with VID
 * @p vlan (PCP 0) unless @p vlan is MODEL_NEIGH_UNTAGGED; returns 0 when it went out.
 */
typedef int (*model_neigh_xmit_t)(void *ctx, uint32_t vlan, const uint8_t *f, uint32_t len);

/** One table entry. */
struct model_neigh_entry {
	uint8_t addr[16];	/**< GID form */
	uint8_t mac[6];		/**< valid when resolved */
	uint8_t state;		/**< free, pending, resolved, failed */
	uint8_t tries;		/**< requests sent in this round */
	uint16_t vlan;		/**< VID 1-4095, or MODEL_NEIGH_UNTAGGED */
	uint64_t stamp;		/**< last request sent (pending), failure (failed) */
	uint64_t used;		/**< last use: the replacement order */
};

/** A port's neighbour state. */
struct model_neigh {
	uint8_t mac[6];				/**< the port's MAC */
	uint8_t addrs[MODEL_PORT_ADDRS][16];	/**< own addresses */
	uint32_t n_addrs;			/**< valid entries of addrs */
	struct model_port_stats *st;		/**< arp_* / nd_* counters */
	model_neigh_xmit_t xmit;		/**< sends a request or reply */
	void *ctx;				/**< xmit's first argument */
	uint64_t retry_cycles;			/**< MODEL_ARP_RETRY_US in timer cycles */
	uint64_t fail_cycles;			/**< MODEL_ARP_FAIL_US in timer cycles */
	uint64_t tick;				/**< use counter */
	struct model_neigh_entry tab[MODEL_ARP_ENTRIES];	/**< the table */
};

/** Start @p n empty for the port with MAC @p mac, counting into @p st, sending by @p xmit. */
void model_neigh_init(struct model_neigh *n, const uint8_t mac[6], struct model_port_stats *st,
		      model_neigh_xmit_t xmit, void *ctx);

/** Replace the own addresses (:: and 0.0.0.0 skipped, duplicates once, at most 16). */
void model_neigh_set_addrs(struct model_neigh *n, const uint8_t (*gids)[16], uint32_t cnt);

/** Whether @p g is an own address. */
bool model_neigh_own(const struct model_neigh *n, const uint8_t g[16]);

/** The table's VLAN of a frame's 802.1Q TCI @p tci (VID 0, priority tagged: untagged). */
static inline uint32_t
model_neigh_vlan(uint32_t tci)
{
	return (tci & 0xfffu) != 0 ? tci & 0xfffu : MODEL_NEIGH_UNTAGGED;
}

/**
 * The MAC of @p dst on VLAN @p vlan (a VID or MODEL_NEIGH_UNTAGGED), asked from @p src (an
 * own address, else the first own one of the family): 0 with @p mac set; -EAGAIN while
 * unknown (a request went out on that VLAN, or waits for its retry time, or the address
 * failed).
 */
int model_neigh_resolve(struct model_neigh *n, uint32_t vlan, const uint8_t src[16],
			const uint8_t dst[16], uint8_t mac[6]);

/**
 * Handle one ARP frame received on VLAN @p vlan: @p len bytes from its Ethernet header on,
 * the 802.1Q tag (if any) already taken out. A reply goes out on the same VLAN.
 */
void model_neigh_arp_input(struct model_neigh *n, uint32_t vlan, const uint8_t *f, uint32_t len);

/**
 * Handle one ICMPv6 frame received on VLAN @p vlan, its tag taken out as for ARP
 * (solicitations, advertisements; else rx_other).
 */
void model_neigh_nd_input(struct model_neigh *n, uint32_t vlan, const uint8_t *f, uint32_t len);

/** The GID form ::ffff:a.b.c.d of the IPv4 address at @p ip (network order). */
void model_gid_of_v4(uint8_t g[16], const uint8_t ip[4]);

#endif /* IRDMA_MODEL_NEIGH_H */
