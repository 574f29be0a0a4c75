/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The Ethernet wire's neighbours (model_neigh.h): ARP (RFC 826, Ethernet / IPv4) and IPv6
 * neighbour discovery (RFC 4861), untagged or in one 802.1Q VLAN, over one bounded table.
 *
 * Table: MODEL_ARP_ENTRIES entries, looked up by VLAN and address in GID form (IPv4 as
 * ::ffff:a.b.c.d; a linear scan, done only for frames the engine addressed to the port's own
 * MAC or to none: the QP or AH had no neighbour MAC). An entry is added when the port
 * resolves an address or a peer asks for an own address; a full table replaces its least
 * recently used entry (counted), so a flood of requests or replies cannot grow it; replies
 * nobody asked for only refresh entries already present.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "model_neigh.h"

extern int irdma_model_logtype;

#define NEIGH_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_model_logtype, "model wire eth: " fmt "\n", ##__VA_ARGS__)

#define ETH_HLEN		14u
#define ETHERTYPE_IPV4		0x0800u
#define ETHERTYPE_ARP		0x0806u
#define ETHERTYPE_IPV6		0x86ddu
#define ARP_OP_REQUEST		1u
#define ARP_OP_REPLY		2u
#define IPV6_HLEN		40u
#define ND_SOLICIT		135u
#define ND_ADVERT		136u
#define ND_LEN			32u		/* NS / NA with one link-layer address option */
#define IPPROTO_ICMPV6_NUM	58u

enum arp_state {
	ARP_FREE,
	ARP_PENDING,		/* requests sent, no reply yet */
	ARP_RESOLVED,
	ARP_FAILED,		/* MODEL_ARP_TRIES requests unanswered */
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

void
model_neigh_init(struct model_neigh *e, const uint8_t mac[6], struct model_port_stats *st,
		 model_neigh_xmit_t xmit, void *ctx)
{
	uint64_t hz = rte_get_timer_hz();

	memset(e, 0, sizeof(*e));
	memcpy(e->mac, mac, 6);
	e->st = st;
	e->xmit = xmit;
	e->ctx = ctx;
	e->retry_cycles = hz / 1000000 * MODEL_ARP_RETRY_US;
	e->fail_cycles = hz / 1000000 * MODEL_ARP_FAIL_US;
}

static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static bool
is_v4(const uint8_t g[16])
{
	return memcmp(g, v4_prefix, sizeof(v4_prefix)) == 0;
}

void
model_gid_of_v4(uint8_t g[16], const uint8_t ip[4])
{
	memcpy(g, v4_prefix, sizeof(v4_prefix));
	memcpy(g + 12, ip, 4);
}

bool
model_neigh_own(const struct model_neigh *e, const uint8_t g[16])
{
	for (uint32_t i = 0; i < e->n_addrs; i++)
		if (memcmp(e->addrs[i], g, 16) == 0)
			return true;
	return false;
}

/* The first own address of @p g's family, or NULL. */
static const uint8_t *
own_first(const struct model_neigh *e, const uint8_t g[16])
{
	for (uint32_t i = 0; i < e->n_addrs; i++)
		if (is_v4(e->addrs[i]) == is_v4(g))
			return e->addrs[i];
	return NULL;
}

void
model_neigh_set_addrs(struct model_neigh *e, const uint8_t (*gids)[16], uint32_t n)
{
	static const uint8_t zero[16];

	e->n_addrs = 0;
	for (uint32_t i = 0; i < n && e->n_addrs < MODEL_PORT_ADDRS; i++) {
		/* neither :: nor 0.0.0.0 */
		if (memcmp(gids[i], zero, 16) == 0 ||
		    (is_v4(gids[i]) && memcmp(gids[i] + 12, zero, 4) == 0) ||
		    model_neigh_own(e, gids[i]))
			continue;
		memcpy(e->addrs[e->n_addrs++], gids[i], 16);
	}
}

/* ---- ARP and neighbour discovery frames ---- */

/*
 * An Ethernet / IPv4 ARP frame of operation @p op from this port (@p spa) to @p tha / @p tpa,
 * the Ethernet destination @p dst; padded with zeros to 60 bytes.
 */
static void
arp_frame(uint8_t f[MODEL_ARP_FRAME_LEN], const struct model_neigh *e, const uint8_t dst[6],
	  uint32_t op, uint32_t spa, const uint8_t tha[6], uint32_t tpa)
{
	uint8_t *a = f + ETH_HLEN;

	memset(f, 0, MODEL_ARP_FRAME_LEN);
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

static struct model_neigh_entry *
arp_find(struct model_neigh *e, uint32_t vlan, const uint8_t g[16])
{
	for (uint32_t i = 0; i < MODEL_ARP_ENTRIES; i++)
		if (e->tab[i].state != ARP_FREE && e->tab[i].vlan == vlan &&
		    memcmp(e->tab[i].addr, g, 16) == 0)
			return &e->tab[i];
	return NULL;
}

/* A slot for @p g on @p vlan: a free one, else the least recently used (counted). */
static struct model_neigh_entry *
arp_add(struct model_neigh *e, uint32_t vlan, const uint8_t g[16])
{
	struct model_neigh_entry *v = &e->tab[0];

	for (uint32_t i = 0; i < MODEL_ARP_ENTRIES; i++) {
		if (e->tab[i].state == ARP_FREE) {
			v = &e->tab[i];
			break;
		}
		if (e->tab[i].used < v->used)
			v = &e->tab[i];
	}
	if (v->state != ARP_FREE)
		e->st->arp_evicted++;
	memset(v, 0, sizeof(*v));
	memcpy(v->addr, g, 16);
	v->vlan = (uint16_t)vlan;
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
nd_frame(uint8_t f[MODEL_ND_FRAME_LEN], const struct model_neigh *e, const uint8_t dmac[6],
	 const uint8_t src[16], const uint8_t dst[16], const uint8_t target[16], bool adv)
{
	uint8_t *ip = f + ETH_HLEN, *icmp = ip + IPV6_HLEN;

	memset(f, 0, MODEL_ND_FRAME_LEN);
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

/*
 * Ask for @p target's MAC on @p vlan from own address @p src: ARP request or Neighbour
 * Solicitation.
 */
static void
neigh_request(struct model_neigh *e, uint32_t vlan, const uint8_t src[16],
	      const uint8_t target[16])
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t zero[6];
	uint8_t f[MODEL_ND_FRAME_LEN], mc[6] = { 0x33, 0x33, 0xff, target[13], target[14], target[15] };
	uint8_t sn[16] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xff,
			   target[13], target[14], target[15] };

	if (is_v4(target)) {
		arp_frame(f, e, bcast, ARP_OP_REQUEST, get32(src + 12), zero, get32(target + 12));
		if (e->xmit(e->ctx, vlan, f, MODEL_ARP_FRAME_LEN) == 0)
			e->st->arp_requests_tx++;
		return;
	}
	/* to the target's solicited-node multicast address */
	nd_frame(f, e, mc, src, sn, target, false);
	if (e->xmit(e->ctx, vlan, f, MODEL_ND_FRAME_LEN) == 0)
		e->st->nd_solicits_tx++;
}

/*
 * The MAC for @p dst on @p vlan, asked from @p src (GID form): 0 with @p mac set, or -EAGAIN
 * when it is not known (yet): a request went out or waits for its retry time, or it failed.
 */
int
model_neigh_resolve(struct model_neigh *e, uint32_t vlan, const uint8_t src[16],
		    const uint8_t dst[16], uint8_t mac[6])
{
	struct model_neigh_entry *a = arp_find(e, vlan, dst);
	const uint8_t *from;
	uint64_t now;

	if (a != NULL && a->state == ARP_RESOLVED) {
		memcpy(mac, a->mac, 6);
		a->used = ++e->tick;
		return 0;
	}
	from = model_neigh_own(e, src) ? src : own_first(e, dst);
	if (from == NULL)
		return -EAGAIN;		/* no own address of that family to ask from */
	now = rte_get_timer_cycles();
	if (a == NULL) {
		a = arp_add(e, vlan, dst);
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
		NEIGH_LOG(DEBUG, "no reply for a neighbour after %u requests", MODEL_ARP_TRIES);
		return -EAGAIN;
	}
	a->tries++;
	a->stamp = now;
	neigh_request(e, vlan, from, dst);
	return -EAGAIN;
}

/* Refresh @p g's entry on @p vlan with @p mac when it has one; add one when @p add. */
static void
neigh_learn(struct model_neigh *e, uint32_t vlan, const uint8_t g[16], const uint8_t mac[6],
	    bool add)
{
	struct model_neigh_entry *x = arp_find(e, vlan, g);

	if (x == NULL && add)
		x = arp_add(e, vlan, g);
	if (x == NULL)
		return;
	memcpy(x->mac, mac, 6);
	x->state = ARP_RESOLVED;
	x->tries = 0;
	x->used = ++e->tick;
}

/* Handle one ARP frame received on @p vlan (@p n bytes from the Ethernet header on, untagged). */
void
model_neigh_arp_input(struct model_neigh *e, uint32_t vlan, const uint8_t *f, uint32_t n)
{
	const uint8_t *a = f + ETH_HLEN;
	uint8_t r[MODEL_ARP_FRAME_LEN], spa[16], tpa[16];
	uint32_t op;

	if (n < ETH_HLEN + MODEL_ARP_LEN || get16(a) != 1 || get16(a + 2) != ETHERTYPE_IPV4 ||
	    a[4] != 6 || a[5] != 4) {
		e->st->arp_bad++;
		return;
	}
	op = get16(a + 6);
	model_gid_of_v4(spa, a + 14);
	model_gid_of_v4(tpa, a + 24);
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
		neigh_learn(e, vlan, spa, a + 8, model_neigh_own(e, tpa));
	if (op == ARP_OP_REQUEST && model_neigh_own(e, tpa)) {
		arp_frame(r, e, a + 8, ARP_OP_REPLY, get32(a + 24), a + 8, get32(a + 14));
		if (e->xmit(e->ctx, vlan, r, MODEL_ARP_FRAME_LEN) == 0)
			e->st->arp_replies_tx++;
	}
}

/*
 * Handle one ICMPv6 frame received on @p vlan (@p n bytes, its tag taken out): a Neighbour
 * Solicitation for an own address is answered on that VLAN and its sender learnt; an Advertisement refreshes (or, for an
 * address being resolved, fills) its target's entry. Other ICMPv6 counts rx_other.
 */
void
model_neigh_nd_input(struct model_neigh *e, uint32_t vlan, const uint8_t *f, uint32_t n)
{
	static const uint8_t unspec[16];
	const uint8_t *ip = f + ETH_HLEN, *icmp = ip + IPV6_HLEN, *opt, *ll = NULL;
	uint32_t plen = get16(ip + 4), type, s;
	uint8_t r[MODEL_ND_FRAME_LEN];

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
		neigh_learn(e, vlan, icmp + 8, ll != NULL ? ll : f + 6, false);
		return;
	}
	e->st->nd_solicits_rx++;
	if (!model_neigh_own(e, icmp + 8) || memcmp(ip + 8, unspec, 16) == 0)
		return;			/* not ours, or duplicate address detection */
	if (ll != NULL)
		neigh_learn(e, vlan, ip + 8, ll, true);
	nd_frame(r, e, ll != NULL ? ll : f + 6, icmp + 8, ip + 8, icmp + 8, true);
	if (e->xmit(e->ctx, vlan, r, MODEL_ND_FRAME_LEN) == 0)
		e->st->nd_adverts_tx++;
}
