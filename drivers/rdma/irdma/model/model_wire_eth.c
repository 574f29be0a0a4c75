/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The Ethernet wire (model_wire_eth.h): frames through a DPDK ethdev port, the ARP
 * responder and resolver (RFC 826, Ethernet / IPv4 only), and the loop back of frames to an
 * own address.
 *
 * The frames go out exactly as model_pkt_build() made them: the IPv4 ID the engine chose
 * (model_port_ip_id()), DF, the TTL and TOS of the QP, the ICRC over those headers. Frames
 * come in as the peer sent them, and model_pkt_parse() checks the ICRC over those real
 * headers, so a peer's own ID, TTL and TOS are fine.
 *
 * ARP table: MODEL_ARP_ENTRIES entries, looked up by IPv4 address (a linear scan, done only
 * for frames the engine addressed to the port's own MAC or to none: the QP or AH had no
 * neighbour MAC). An
 * entry is added when the port resolves an address or a peer asks for an own address; a full
 * table replaces its least recently used entry (counted), so a flood of requests or replies
 * cannot grow it; replies nobody asked for only refresh entries already present.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "model_wire_eth.h"

extern int irdma_model_logtype;

#define ETH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_model_logtype, "model wire eth: " fmt "\n", ##__VA_ARGS__)

#define ETH_HLEN		14u
#define VLAN_HLEN		4u
#define ETHERTYPE_IPV4		0x0800u
#define ETHERTYPE_ARP		0x0806u
#define ETHERTYPE_VLAN		0x8100u
#define ETHERTYPE_IPV6		0x86ddu
#define IPPROTO_UDP_NUM		17u
#define ARP_LEN			28u		/* Ethernet / IPv4 ARP body */
#define ARP_FRAME_LEN		60u		/* the shortest Ethernet frame (no FCS) */
#define ARP_OP_REQUEST		1u
#define ARP_OP_REPLY		2u
#define IPV6_HLEN		40u
#define IPPROTO_ICMPV6_NUM	58u
#define ND_SOLICIT		135u
#define ND_ADVERT		136u
#define ND_LEN			32u		/* NS / NA with one link-layer address option */
#define ND_FRAME_LEN		(ETH_HLEN + IPV6_HLEN + ND_LEN)

#define ETH_RX_BURST		32u
#define ETH_SELF_QUEUE		64u		/* frames looped back to an own address */
#define ETH_RING_SIZE		512u
#define ETH_POOL_SIZE		4095u		/* 2^n - 1: the ring mempool's best size */
#define ETH_NAME_MAX		128u
#define ETH_CACHE		64u		/* mbufs in a port's own cache */

enum arp_state {
	ARP_FREE,
	ARP_PENDING,		/* requests sent, no reply yet */
	ARP_RESOLVED,
	ARP_FAILED,		/* MODEL_ARP_TRIES requests unanswered */
};

struct arp_entry {
	uint8_t addr[16];	/* GID form: IPv4 as ::ffff:a.b.c.d */
	uint8_t mac[6];
	uint8_t state;		/* enum arp_state */
	uint8_t tries;
	uint64_t stamp;		/* last request sent (PENDING), failure (FAILED) */
	uint64_t used;		/* last use: the replacement order */
};

/*
 * The mbuf pool of all Ethernet ports, created by the first open and freed by the last
 * close: a frame one port sent may wait in another's RX queue (net_ring pairs), and a port
 * drains its RX queue at close, so once no port is open every mbuf is back.
 */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rte_mempool *pool;
static uint32_t pool_users;

struct model_eth {
	uint16_t port_id;
	bool created;			/* a vdev of ours: removed at close */
	bool started;
	bool pool_ref;
	char vdev[ETH_NAME_MAX];
	struct rte_mempool *mp;
	/* the port's own mbuf cache (its thread need not be an EAL lcore): last freed, first
	 * reused, so the buffers in use stay few and warm */
	struct rte_mempool_cache *cache;
	uint8_t mac[6];
	uint8_t addrs[MODEL_PORT_ADDRS][16];	/* own addresses, GID form */
	uint32_t n_addrs;
	struct model_port_stats *st;
	uint64_t retry_cycles;
	uint64_t fail_cycles;
	uint64_t tick;			/* ARP use counter */
	/* frames received and not yet handed out */
	struct rte_mbuf *rx[ETH_RX_BURST];
	uint16_t rx_n;
	uint16_t rx_i;
	/* frames to an own address */
	struct rte_mbuf *self[ETH_SELF_QUEUE];
	uint32_t self_head;
	uint32_t self_tail;
	struct arp_entry arp[MODEL_ARP_ENTRIES];
};

static inline uint32_t
get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static bool
is_v4(const uint8_t g[16])
{
	return memcmp(g, v4_prefix, sizeof(v4_prefix)) == 0;
}

static void
gid_of_v4(uint8_t g[16], const uint8_t ip[4])
{
	memcpy(g, v4_prefix, sizeof(v4_prefix));
	memcpy(g + 12, ip, 4);
}

static bool
own_addr(const struct model_eth *e, const uint8_t g[16])
{
	for (uint32_t i = 0; i < e->n_addrs; i++)
		if (memcmp(e->addrs[i], g, 16) == 0)
			return true;
	return false;
}

/* The first own address of @p g's family, or NULL. */
static const uint8_t *
own_first(const struct model_eth *e, const uint8_t g[16])
{
	for (uint32_t i = 0; i < e->n_addrs; i++)
		if (is_v4(e->addrs[i]) == is_v4(g))
			return e->addrs[i];
	return NULL;
}

void
model_eth_set_addrs(struct model_eth *e, const uint8_t (*gids)[16], uint32_t n)
{
	static const uint8_t zero[16];

	e->n_addrs = 0;
	for (uint32_t i = 0; i < n && e->n_addrs < MODEL_PORT_ADDRS; i++) {
		/* neither :: nor 0.0.0.0 */
		if (memcmp(gids[i], zero, 16) == 0 ||
		    (is_v4(gids[i]) && memcmp(gids[i] + 12, zero, 4) == 0) ||
		    own_addr(e, gids[i]))
			continue;
		memcpy(e->addrs[e->n_addrs++], gids[i], 16);
	}
}

/* ---- sending mbufs ---- */

/* Put @p len bytes at @p f into an mbuf; NULL (counted) when the pool is empty. */
static struct rte_mbuf *
eth_mbuf(struct model_eth *e, const uint8_t *f, uint32_t len)
{
	struct rte_mbuf *m;
	char *d;

	if (rte_mempool_generic_get(e->mp, (void **)&m, 1, e->cache) != 0) {
		e->st->tx_nombuf++;
		return NULL;
	}
	rte_pktmbuf_reset(m);
	d = rte_pktmbuf_append(m, (uint16_t)len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		e->st->tx_nombuf++;
		return NULL;
	}
	memcpy(d, f, len);
	return m;
}

/* Free a received or unsent mbuf: into the port's cache when it is one of the pool's. */
static void
eth_free(struct model_eth *e, struct rte_mbuf *m)
{
	if (m->pool != e->mp || m->next != NULL) {
		rte_pktmbuf_free(m);
		return;
	}
	m = rte_pktmbuf_prefree_seg(m);
	if (m != NULL)
		rte_mempool_generic_put(e->mp, (void **)&m, 1, e->cache);
}

static int
eth_xmit(struct model_eth *e, const uint8_t *f, uint32_t len)
{
	struct rte_mbuf *m = eth_mbuf(e, f, len);

	if (m == NULL)
		return -ENOBUFS;
	if (rte_eth_tx_burst(e->port_id, 0, &m, 1) != 1) {
		eth_free(e, m);
		e->st->tx_nombuf++;
		return -ENOBUFS;
	}
	return 0;
}

/* ---- ARP ---- */

/*
 * An Ethernet / IPv4 ARP frame of operation @p op from this port (@p spa) to @p tha / @p tpa,
 * the Ethernet destination @p dst; padded with zeros to 60 bytes.
 */
static void
arp_frame(uint8_t f[ARP_FRAME_LEN], const struct model_eth *e, const uint8_t dst[6],
	  uint32_t op, uint32_t spa, const uint8_t tha[6], uint32_t tpa)
{
	uint8_t *a = f + ETH_HLEN;

	memset(f, 0, ARP_FRAME_LEN);
	memcpy(f, dst, 6);
	memcpy(f + 6, e->mac, 6);
	put16(f + 12, ETHERTYPE_ARP);
	put16(a, 1);			/* hardware: Ethernet */
	put16(a + 2, ETHERTYPE_IPV4);	/* protocol: IPv4 */
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, op);
	memcpy(a + 8, e->mac, 6);
	put32(a + 14, spa);
	memcpy(a + 18, tha, 6);
	put32(a + 24, tpa);
}

static struct arp_entry *
arp_find(struct model_eth *e, const uint8_t g[16])
{
	for (uint32_t i = 0; i < MODEL_ARP_ENTRIES; i++)
		if (e->arp[i].state != ARP_FREE && memcmp(e->arp[i].addr, g, 16) == 0)
			return &e->arp[i];
	return NULL;
}

/* A slot for @p ip: a free one, else the least recently used (counted). */
static struct arp_entry *
arp_add(struct model_eth *e, const uint8_t g[16])
{
	struct arp_entry *v = &e->arp[0];

	for (uint32_t i = 0; i < MODEL_ARP_ENTRIES; i++) {
		if (e->arp[i].state == ARP_FREE) {
			v = &e->arp[i];
			break;
		}
		if (e->arp[i].used < v->used)
			v = &e->arp[i];
	}
	if (v->state != ARP_FREE)
		e->st->arp_evicted++;
	memset(v, 0, sizeof(*v));
	memcpy(v->addr, g, 16);
	v->used = ++e->tick;
	return v;
}

/* One's-complement sum of @p n bytes (n even), not folded. */
static uint32_t
sum16(uint32_t s, const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i += 2)
		s += get16(p + i);
	return s;
}

/* The ICMPv6 checksum of the IPv6 packet at @p ip (its payload @p plen bytes). */
static void
icmp6_csum(uint8_t *ip, uint32_t plen)
{
	uint8_t *icmp = ip + IPV6_HLEN;
	uint32_t s;

	put16(icmp + 2, 0);
	s = sum16(0, ip + 8, 32);		/* source, destination */
	s += plen + IPPROTO_ICMPV6_NUM;		/* upper-layer length, next header */
	s = sum16(s, icmp, plen);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	put16(icmp + 2, ~s & 0xffff);
}

/*
 * An ND frame (RFC 4861) from this port: a Neighbour Solicitation (@p adv false; option:
 * source link-layer address) or a solicited Neighbour Advertisement (option: target
 * link-layer address), @p src -> @p dst, Ethernet destination @p dmac, for @p target.
 */
static void
nd_frame(uint8_t f[ND_FRAME_LEN], const struct model_eth *e, const uint8_t dmac[6],
	 const uint8_t src[16], const uint8_t dst[16], const uint8_t target[16], bool adv)
{
	uint8_t *ip = f + ETH_HLEN, *icmp = ip + IPV6_HLEN;

	memset(f, 0, ND_FRAME_LEN);
	memcpy(f, dmac, 6);
	memcpy(f + 6, e->mac, 6);
	put16(f + 12, ETHERTYPE_IPV6);
	put32(ip, 6u << 28);
	put16(ip + 4, ND_LEN);
	ip[6] = IPPROTO_ICMPV6_NUM;
	ip[7] = 255;			/* hop limit: ND demands 255 */
	memcpy(ip + 8, src, 16);
	memcpy(ip + 24, dst, 16);
	icmp[0] = adv ? ND_ADVERT : ND_SOLICIT;
	if (adv)
		icmp[4] = 0x60;		/* Solicited, Override */
	memcpy(icmp + 8, target, 16);
	icmp[24] = adv ? 2 : 1;		/* target / source link-layer address option */
	icmp[25] = 1;
	memcpy(icmp + 26, e->mac, 6);
	icmp6_csum(ip, ND_LEN);
}

/* Ask for @p target's MAC from own address @p src: ARP request or Neighbour Solicitation. */
static void
neigh_request(struct model_eth *e, const uint8_t src[16], const uint8_t target[16])
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6];
	uint8_t f[ND_FRAME_LEN], mc[6] = { 0x33, 0x33, 0xff, target[13], target[14], target[15] };
	uint8_t sn[16] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff,
			   target[13], target[14], target[15] };

	if (is_v4(target)) {
		arp_frame(f, e, bcast, ARP_OP_REQUEST, get32(src + 12), zero, get32(target + 12));
		if (eth_xmit(e, f, ARP_FRAME_LEN) == 0)
			e->st->arp_requests_tx++;
		return;
	}
	/* to the target's solicited-node multicast address */
	nd_frame(f, e, mc, src, sn, target, false);
	if (eth_xmit(e, f, ND_FRAME_LEN) == 0)
		e->st->nd_solicits_tx++;
}

/*
 * The MAC for @p dst, asked from @p src (GID form): 0 with @p mac set, or -EAGAIN when it is
 * not known (yet): a request went out or waits for its retry time, or it failed.
 */
static int
arp_resolve(struct model_eth *e, const uint8_t src[16], const uint8_t dst[16], uint8_t mac[6])
{
	struct arp_entry *a = arp_find(e, dst);
	const uint8_t *from;
	uint64_t now;

	if (a != NULL && a->state == ARP_RESOLVED) {
		memcpy(mac, a->mac, 6);
		a->used = ++e->tick;
		return 0;
	}
	from = own_addr(e, src) ? src : own_first(e, dst);
	if (from == NULL)
		return -EAGAIN;		/* no own address of that family to ask from */
	now = rte_get_timer_cycles();
	if (a == NULL) {
		a = arp_add(e, dst);
		a->state = ARP_PENDING;
	} else if (a->state == ARP_FAILED) {
		if (now - a->stamp < e->fail_cycles)
			return -EAGAIN;
		a->state = ARP_PENDING;
		a->tries = 0;
	} else if (now - a->stamp < e->retry_cycles) {
		return -EAGAIN;
	}
	if (a->tries >= MODEL_ARP_TRIES) {
		a->state = ARP_FAILED;
		a->stamp = now;
		e->st->arp_failed++;
		ETH_LOG(DEBUG, "no reply for a neighbour after %u requests", MODEL_ARP_TRIES);
		return -EAGAIN;
	}
	a->tries++;
	a->stamp = now;
	neigh_request(e, from, dst);
	return -EAGAIN;
}

/* Refresh @p g's entry with @p mac when it has one; add one when @p add. */
static void
neigh_learn(struct model_eth *e, const uint8_t g[16], const uint8_t mac[6], bool add)
{
	struct arp_entry *x = arp_find(e, g);

	if (x == NULL && add)
		x = arp_add(e, g);
	if (x == NULL)
		return;
	memcpy(x->mac, mac, 6);
	x->state = ARP_RESOLVED;
	x->tries = 0;
	x->used = ++e->tick;
}

/* Handle one received ARP frame (@p n bytes from the Ethernet header on). */
static void
arp_input(struct model_eth *e, const uint8_t *f, uint32_t n)
{
	const uint8_t *a = f + ETH_HLEN;
	uint8_t r[ARP_FRAME_LEN], spa[16], tpa[16];
	uint32_t op;

	if (n < ETH_HLEN + ARP_LEN || get16(a) != 1 || get16(a + 2) != ETHERTYPE_IPV4 ||
	    a[4] != 6 || a[5] != 4) {
		e->st->arp_bad++;
		return;
	}
	op = get16(a + 6);
	gid_of_v4(spa, a + 14);
	gid_of_v4(tpa, a + 24);
	if ((op != ARP_OP_REQUEST && op != ARP_OP_REPLY) || (a[8] & 1) != 0) {
		e->st->arp_bad++;
		return;
	}
	if (op == ARP_OP_REQUEST)
		e->st->arp_requests_rx++;
	else
		e->st->arp_replies_rx++;
	/* RFC 826: refresh the sender when known; add it when the frame is for us */
	if (get32(a + 14) != 0)
		neigh_learn(e, spa, a + 8, own_addr(e, tpa));
	if (op == ARP_OP_REQUEST && own_addr(e, tpa)) {
		arp_frame(r, e, a + 8, ARP_OP_REPLY, get32(a + 24), a + 8, get32(a + 14));
		if (eth_xmit(e, r, ARP_FRAME_LEN) == 0)
			e->st->arp_replies_tx++;
	}
}

/*
 * Handle one received ICMPv6 frame (@p n bytes, untagged): a Neighbour Solicitation for an
 * own address is answered and its sender learnt; an Advertisement refreshes (or, for an
 * address being resolved, fills) its target's entry. Other ICMPv6 counts rx_other.
 */
static void
nd_input(struct model_eth *e, const uint8_t *f, uint32_t n)
{
	static const uint8_t unspec[16];
	const uint8_t *ip = f + ETH_HLEN, *icmp = ip + IPV6_HLEN, *opt, *ll = NULL;
	uint32_t plen = get16(ip + 4), type, s;
	uint8_t r[ND_FRAME_LEN];

	if (n < ETH_HLEN + IPV6_HLEN + 24 || plen < 24 || plen > n - ETH_HLEN - IPV6_HLEN ||
	    (icmp[0] != ND_SOLICIT && icmp[0] != ND_ADVERT)) {
		e->st->rx_other++;
		return;
	}
	type = icmp[0];
	s = sum16(0, ip + 8, 32) + plen + IPPROTO_ICMPV6_NUM;
	s = sum16(s, icmp, plen & ~1u) + (plen & 1 ? (uint32_t)icmp[plen - 1] << 8 : 0);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	if (ip[7] != 255 || icmp[1] != 0 || s != 0xffff) {
		e->st->nd_bad++;
		return;
	}
	/* the link-layer address option (source for NS, target for NA) */
	for (opt = icmp + 24; opt + 8 <= icmp + plen && opt[1] != 0; opt += opt[1] * 8u)
		if (opt[0] == (type == ND_SOLICIT ? 1 : 2) && opt[1] == 1)
			ll = opt + 2;
	if (type == ND_ADVERT) {
		e->st->nd_adverts_rx++;
		neigh_learn(e, icmp + 8, ll != NULL ? ll : f + 6, false);
		return;
	}
	e->st->nd_solicits_rx++;
	if (!own_addr(e, icmp + 8) || memcmp(ip + 8, unspec, 16) == 0)
		return;			/* not ours, or duplicate address detection */
	if (ll != NULL)
		neigh_learn(e, ip + 8, ll, true);
	nd_frame(r, e, ll != NULL ? ll : f + 6, icmp + 8, ip + 8, icmp + 8, true);
	if (eth_xmit(e, r, ND_FRAME_LEN) == 0)
		e->st->nd_adverts_tx++;
}

/* ---- frames ---- */

/* Offset of the IP header and the EtherType behind an optional 802.1Q tag; 0: too short. */
static uint32_t
l3_offset(const uint8_t *f, uint32_t len, uint32_t *et)
{
	uint32_t off = ETH_HLEN;

	if (len < ETH_HLEN)
		return 0;
	*et = get16(f + 12);
	if (*et == ETHERTYPE_VLAN) {
		if (len < ETH_HLEN + VLAN_HLEN)
			return 0;
		*et = get16(f + 16);
		off += VLAN_HLEN;
	}
	return off;
}

int
model_eth_out(struct model_eth *e, const uint8_t *f, uint32_t len)
{
	static const uint8_t zero[6];
	uint32_t et, l3 = l3_offset(f, len, &et);
	uint8_t src[16], dst[16];
	struct rte_mbuf *m;
	uint8_t *d;

	if ((memcmp(f, e->mac, 6) != 0 && memcmp(f, zero, 6) != 0) || l3 == 0)
		return eth_xmit(e, f, len);
	/* to this port's MAC or none (no neighbour MAC in the QP / AH): loop back or resolve */
	if (et == ETHERTYPE_IPV4 && len >= l3 + 20) {
		gid_of_v4(src, f + l3 + 12);
		gid_of_v4(dst, f + l3 + 16);
	} else if (et == ETHERTYPE_IPV6 && len >= l3 + IPV6_HLEN) {
		memcpy(src, f + l3 + 8, 16);
		memcpy(dst, f + l3 + 24, 16);
	} else {
		return eth_xmit(e, f, len);
	}
	if (own_addr(e, dst)) {
		if (e->self_tail - e->self_head >= ETH_SELF_QUEUE) {
			e->st->tx_nombuf++;
			return -ENOBUFS;
		}
		m = eth_mbuf(e, f, len);
		if (m == NULL)
			return -ENOBUFS;
		e->self[e->self_tail++ % ETH_SELF_QUEUE] = m;
		return 0;
	}
	m = eth_mbuf(e, f, len);
	if (m == NULL)
		return -ENOBUFS;
	d = rte_pktmbuf_mtod(m, uint8_t *);
	if (arp_resolve(e, src, dst, d) != 0) {
		eth_free(e, m);
		e->st->arp_unresolved++;
		return 0;
	}
	if (rte_eth_tx_burst(e->port_id, 0, &m, 1) != 1) {
		eth_free(e, m);
		e->st->tx_nombuf++;
		return -ENOBUFS;
	}
	return 0;
}

/* Whether the frame is RoCEv2 (IPv4 / IPv6, UDP destination port 4791). */
static bool
is_roce(const uint8_t *f, uint32_t len, uint32_t l3, uint32_t et)
{
	if (et == ETHERTYPE_IPV4)
		return len >= l3 + 28 && (f[l3] & 0xf0) == 0x40 &&
		       f[l3 + 9] == IPPROTO_UDP_NUM &&
		       get16(f + l3 + (f[l3] & 0x0fu) * 4u + 2) == MODEL_ROCE_UDP_PORT;
	if (et == ETHERTYPE_IPV6)
		return len >= l3 + 48 && f[l3 + 6] == IPPROTO_UDP_NUM &&
		       get16(f + l3 + 42) == MODEL_ROCE_UDP_PORT;
	return false;
}

/* The next received mbuf: looped-back frames first, then the port's RX queue. */
static struct rte_mbuf *
eth_next(struct model_eth *e)
{
	if (e->self_head != e->self_tail)
		return e->self[e->self_head++ % ETH_SELF_QUEUE];
	if (e->rx_i == e->rx_n) {
		e->rx_i = 0;
		e->rx_n = rte_eth_rx_burst(e->port_id, 0, e->rx, ETH_RX_BURST);
		if (e->rx_n == 0)
			return NULL;
	}
	return e->rx[e->rx_i++];
}

int
model_eth_in(struct model_eth *e, uint8_t *buf, uint32_t cap)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct rte_mbuf *m;

	while ((m = eth_next(e)) != NULL) {
		uint32_t len = rte_pktmbuf_pkt_len(m), et = 0, l3;
		uint8_t hdr[ETH_HLEN + VLAN_HLEN + 48];
		const uint8_t *f;

		f = rte_pktmbuf_read(m, 0, RTE_MIN(len, (uint32_t)sizeof(hdr)), hdr);
		l3 = f != NULL ? l3_offset(f, RTE_MIN(len, (uint32_t)sizeof(hdr)), &et) : 0;
		if (l3 == 0) {
			e->st->rx_other++;
		} else if (et == ETHERTYPE_ARP && l3 == ETH_HLEN &&
			   (memcmp(f, e->mac, 6) == 0 || memcmp(f, bcast, 6) == 0)) {
			uint8_t a[ETH_HLEN + ARP_LEN];
			const uint8_t *p = rte_pktmbuf_read(m, 0, RTE_MIN(len, (uint32_t)sizeof(a)),
							    a);

			arp_input(e, p, RTE_MIN(len, (uint32_t)sizeof(a)));
		} else if (et == ETHERTYPE_IPV6 && l3 == ETH_HLEN &&
			   len >= ETH_HLEN + IPV6_HLEN && f[ETH_HLEN + 6] == IPPROTO_ICMPV6_NUM &&
			   (memcmp(f, e->mac, 6) == 0 || (f[0] == 0x33 && f[1] == 0x33))) {
			uint8_t a[ND_FRAME_LEN + 64];
			uint32_t k = RTE_MIN(len, (uint32_t)sizeof(a));

			nd_input(e, rte_pktmbuf_read(m, 0, k, a), k);
		} else if (memcmp(f, e->mac, 6) != 0) {
			e->st->rx_filtered++;
		} else if (!is_roce(f, RTE_MIN(len, (uint32_t)sizeof(hdr)), l3, et)) {
			e->st->rx_other++;
		} else if (len > cap) {
			eth_free(e, m);
			ETH_LOG(DEBUG, "recv: frame of %u bytes, buffer of %u: dropped", len, cap);
			return -EMSGSIZE;
		} else {
			const void *p = rte_pktmbuf_read(m, 0, len, buf);

			if (p != buf)
				memcpy(buf, p, len);
			eth_free(e, m);
			return (int)len;
		}
		eth_free(e, m);
	}
	return 0;
}

/* ---- the port ---- */

/* Find or create the port of @p spec; sets e->port_id, e->created, e->vdev. */
static int
eth_port_find(struct model_eth *e, const char *spec)
{
	const char *comma = strchr(spec, ',');
	size_t n = comma != NULL ? (size_t)(comma - spec) : strlen(spec);
	char *end;
	unsigned long id;
	uint16_t pid;
	int r;

	if (n == 0 || n >= sizeof(e->vdev)) {
		ETH_LOG(ERR, "open: bad port 'eth:%s' (want eth:<port id>, eth:<port name> or "
			"eth:<vdev>[,<vdev args>])", spec);
		return -EINVAL;
	}
	memcpy(e->vdev, spec, n);
	e->vdev[n] = '\0';
	id = strtoul(e->vdev, &end, 10);
	if (e->vdev[0] >= '0' && e->vdev[0] <= '9' && *end == '\0') {
		if (comma != NULL || id >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port((uint16_t)id)) {
			ETH_LOG(ERR, "open: 'eth:%s': no ethdev port %s%s", spec, e->vdev,
				comma != NULL ? " (a port id takes no arguments)" : "");
			return -EINVAL;
		}
		e->port_id = (uint16_t)id;
		return 0;
	}
	if (comma == NULL && rte_eth_dev_get_port_by_name(e->vdev, &pid) == 0) {
		e->port_id = pid;
		return 0;
	}
	r = rte_vdev_init(e->vdev, comma != NULL ? comma + 1 : NULL);
	if (r != 0) {
		ETH_LOG(ERR, "open: 'eth:%s': cannot create vdev %s (%d: no such driver loaded, "
			"EAL -d <pmds dir>, or its devargs refused)", spec, e->vdev, r);
		return r < 0 && r != -1 ? r : -EINVAL;
	}
	e->created = true;
	if (rte_eth_dev_get_port_by_name(e->vdev, &pid) != 0) {
		ETH_LOG(ERR, "open: vdev %s is not an ethdev port", e->vdev);
		return -EINVAL;
	}
	e->port_id = pid;
	return 0;
}

static int
pool_get(struct model_eth *e, int socket)
{
	int r = 0;

	pthread_mutex_lock(&pool_lock);
	if (pool == NULL)
		/* no per-lcore cache: the model's thread is not an EAL lcore */
		pool = rte_pktmbuf_pool_create("irdma_model_eth", ETH_POOL_SIZE, 0, 0,
					       RTE_PKTMBUF_HEADROOM + MODEL_PKT_MAX, socket);
	if (pool == NULL) {
		ETH_LOG(ERR, "mbuf pool: %s", rte_strerror(rte_errno));
		r = -ENOMEM;
	} else {
		pool_users++;
		e->mp = pool;
		e->pool_ref = true;
	}
	pthread_mutex_unlock(&pool_lock);
	return r;
}

static void
pool_put(struct model_eth *e)
{
	if (!e->pool_ref)
		return;
	pthread_mutex_lock(&pool_lock);
	if (--pool_users == 0) {
		rte_mempool_free(pool);
		pool = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
	e->pool_ref = false;
}

static int
eth_port_start(struct model_eth *e)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	int socket = rte_eth_dev_socket_id(e->port_id), r;

	if (socket < 0)
		socket = (int)rte_socket_id();
	if (socket < 0)
		socket = 0;
	r = rte_eth_dev_info_get(e->port_id, &info);
	if (r != 0) {
		ETH_LOG(ERR, "port %u: info: %s", e->port_id, strerror(-r));
		return r;
	}
	if (info.max_rx_pktlen != 0 && info.max_rx_pktlen < MODEL_PKT_MAX)
		ETH_LOG(WARNING, "port %u: frames up to %u bytes, the model sends up to %u",
			e->port_id, info.max_rx_pktlen, MODEL_PKT_MAX);
	r = pool_get(e, socket);
	if (r != 0)
		return r;
	e->cache = rte_mempool_cache_create(ETH_CACHE, socket);
	if (e->cache == NULL) {
		ETH_LOG(ERR, "port %u: mbuf cache: %s", e->port_id, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	memset(&conf, 0, sizeof(conf));
	r = rte_eth_dev_configure(e->port_id, 1, 1, &conf);
	if (r == 0)
		r = rte_eth_rx_queue_setup(e->port_id, 0, ETH_RING_SIZE, (unsigned int)socket,
					   NULL, e->mp);
	if (r == 0)
		r = rte_eth_tx_queue_setup(e->port_id, 0, ETH_RING_SIZE, (unsigned int)socket,
					   NULL);
	if (r == 0)
		r = rte_eth_dev_start(e->port_id);
	if (r != 0) {
		ETH_LOG(ERR, "port %u: configure / queue setup / start: %s (a port given by id "
			"must be stopped and unused)", e->port_id, strerror(r < 0 ? -r : r));
		return r < 0 ? r : -EIO;
	}
	e->started = true;
	/* frames for the model's MAC, not the port's: a real NIC needs this */
	(void)rte_eth_promiscuous_enable(e->port_id);
	return 0;
}

int
model_eth_open(const char *spec, const uint8_t mac[6], const uint8_t gid[16],
	       struct model_port_stats *st, struct model_eth **out)
{
	struct model_eth *e = calloc(1, sizeof(*e));
	uint64_t hz = rte_get_timer_hz();
	int r;

	if (e == NULL)
		return -ENOMEM;
	memcpy(e->mac, mac, 6);
	model_eth_set_addrs(e, (const uint8_t (*)[16])gid, 1);
	e->st = st;
	e->retry_cycles = hz / 1000000 * MODEL_ARP_RETRY_US;
	e->fail_cycles = hz / 1000000 * MODEL_ARP_FAIL_US;
	r = eth_port_find(e, spec);
	if (r == 0)
		r = eth_port_start(e);
	if (r != 0) {
		model_eth_close(e);
		return r;
	}
	*out = e;
	return 0;
}

void
model_eth_close(struct model_eth *e)
{
	if (e == NULL)
		return;
	while (e->self_head != e->self_tail)
		eth_free(e, e->self[e->self_head++ % ETH_SELF_QUEUE]);
	while (e->rx_i < e->rx_n)
		eth_free(e, e->rx[e->rx_i++]);
	if (e->started) {
		struct rte_mbuf *m[ETH_RX_BURST];
		uint16_t n;
		uint32_t k = 0;

		/* drain: what waits here may belong to the pool (and be all it waits for) */
		while (k++ < ETH_RING_SIZE &&
		       (n = rte_eth_rx_burst(e->port_id, 0, m, ETH_RX_BURST)) > 0)
			rte_pktmbuf_free_bulk(m, n);
		(void)rte_eth_dev_stop(e->port_id);
	}
	if (e->created) {
		(void)rte_eth_dev_close(e->port_id);
		(void)rte_vdev_uninit(e->vdev);
	}
	if (e->cache != NULL) {
		rte_mempool_cache_flush(e->cache, e->mp);
		rte_mempool_cache_free(e->cache);
	}
	pool_put(e);
	free(e);
}
