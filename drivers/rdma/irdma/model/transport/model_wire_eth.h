/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_WIRE_ETH_H
#define IRDMA_MODEL_WIRE_ETH_H

/*
 * The Ethernet wire of the device model (internal to model/): whole frames through one RX
 * and one TX queue of a DPDK ethdev port, answering ARP and IPv6 neighbour solicitations
 * for the port's own addresses (untagged or on any 802.1Q VLAN, answered on the same one)
 * and resolving peers the same ways on the VLAN of the frame (a bounded table).
 * model_wire.c drives it; the faults, the pcap file and the counters common to all wires
 * stay there.
 *
 * Thread safety: as a model_port, used by its device only.
 */

#include <stdint.h>

#include "model_neigh.h"
#include "model_pkt.h"

struct model_eth;

/**
 * Open the Ethernet wire @p spec (after "eth:"):
 *  - "<n>": the existing ethdev port n;
 *  - "<name>": an existing port of that name, or else the vdev <name> created with no
 *    arguments (rte_vdev_init), e.g. "net_tap0";
 *  - "<name>,<args>": the vdev <name> created with DPDK's own devargs <args>, e.g.
 *    "net_tap0,iface=rtap0", "net_af_packet0,iface=veth0", "net_pcap0,rx_pcap=a,tx_pcap=b".
 * The port is configured with one RX and one TX queue on a mempool of its own and started;
 * a vdev created here is removed again by model_eth_close().
 * @param st the port's counters (the wire's own ones are added there).
 * @return 0 with *out set, -EINVAL (bad spec, no such port) or -errno of the ethdev calls.
 */
int model_eth_open(const char *spec, const uint8_t mac[6], const uint8_t gid[16],
		   struct model_port_stats *st, struct model_eth **out);

/** Stop the port (and remove a vdev model_eth_open() created); free. Safe on NULL. */
void model_eth_close(struct model_eth *e);

/**
 * Send the frame @p f of @p len bytes. A frame to the port's own MAC (or to 00:00:00:00:00:00)
 * whose IP destination is not an own address has its destination MAC filled from the
 * neighbour table; unresolved, an ARP request or neighbour solicitation goes out (at most
 * MODEL_ARP_TRIES, MODEL_ARP_RETRY_US apart) and the frame is dropped (counted; the
 * transport retransmits). A frame to an own address comes back to this port.
 * @return 0 (sent, or dropped unresolved) or -ENOBUFS (no mbuf, TX queue full; counted).
 */
int model_eth_out(struct model_eth *e, const uint8_t *f, uint32_t len);

/**
 * Receive one RoCEv2 frame (to this port's MAC, IPv4 or IPv6, UDP port 4791) into @p buf.
 * ARP and neighbour discovery frames are answered or learnt here, everything else is
 * dropped and counted.
 * @return the length, 0 when nothing is waiting, -EMSGSIZE (frame larger than @p cap).
 */
int model_eth_in(struct model_eth *e, uint8_t *buf, uint32_t cap);

/**
 * The MAC of @p dst (GID form, untagged), asked from @p src: 0 with @p mac set (this port's
 * own for an own address), -EAGAIN while an ARP / ND request is out or the address failed
 * (model_neigh_resolve: each call may send the next request).
 */
int model_eth_neigh(struct model_eth *e, const uint8_t src[16], const uint8_t dst[16],
		    uint8_t mac[6]);

/** Replace the port's own addresses (model_port_set_addrs()). */
void model_eth_set_addrs(struct model_eth *e, const uint8_t (*gids)[16], uint32_t n);

#endif /* IRDMA_MODEL_WIRE_ETH_H */
