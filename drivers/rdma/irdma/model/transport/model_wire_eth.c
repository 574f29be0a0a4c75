/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The Ethernet wire (model_wire_eth.h): frames through a DPDK ethdev port, the loop back of
 * frames to an own address, and the way in and out for the neighbour table (model_neigh.c:
 * ARP and IPv6 neighbour discovery).
 *
 * The frames go out exactly as model_pkt_build() made them: the IPv4 ID the engine chose
 * (model_port_ip_id()), DF, the TTL and TOS of the QP, the ICRC over those headers. Frames
 * come in as the peer sent them, and model_pkt_parse() checks the ICRC over those real
 * headers, so a peer's own ID, TTL and TOS are fine.
 *
 * VLANs: a frame the engine tagged is resolved on its VID (the request goes out with that
 * VID, PCP 0); ARP and ND frames that arrive tagged are handed to the table with the tag
 * taken out and its VID, and answered with that VID, PCP 0.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "model_neigh.h"
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
#define IPV6_HLEN		40u
#define IPPROTO_ICMPV6_NUM	58u

#define ETH_RX_BURST		32u
#define ETH_SELF_QUEUE		64u		/* frames looped back to an own address */
#define ETH_RING_SIZE		512u
#define ETH_POOL_SIZE		4095u		/* 2^n - 1: the ring mempool's best size */
#define ETH_NAME_MAX		128u
#define ETH_CACHE		64u		/* mbufs in a port's own cache */
/*
 * Frames held while their neighbour resolves, as Linux queues them on the neighbour entry
 * (arp_queue): the first frame toward an unknown peer, often a CM REQ that would otherwise
 * wait for its retransmission (seconds), leaves with the reply. Held longer than
 * MODEL_ARP_FAIL_US, or past this count, a frame is dropped (arp_unresolved).
 */
#define ETH_HOLD		8u

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
	struct model_port_stats *st;
	/* frames received and not yet handed out */
	struct rte_mbuf *rx[ETH_RX_BURST];
	uint16_t rx_n;
	uint16_t rx_i;
	/* frames to an own address */
	struct rte_mbuf *self[ETH_SELF_QUEUE];
	uint32_t self_head;
	uint32_t self_tail;
	struct model_neigh nb;		/* ARP / ND */
	/* frames waiting for their neighbour (ETH_HOLD) */
	struct {
		struct rte_mbuf *m;
		uint64_t since;		/* timer cycles */
		uint8_t src[16];
		uint8_t dst[16];
		uint32_t vlan;		/* the table's VLAN of the frame */
	} hold[ETH_HOLD];
	uint32_t n_hold;
	uint64_t hold_cycles;		/* MODEL_ARP_FAIL_US in timer cycles */
};

static inline uint32_t
get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

/*
 * ThreadSanitizer cannot see the ordering of an mbuf handed from one model thread to another
 * through the port (net_ring's ring) or back through the mempool: both live in DPDK libraries
 * built without it. Under TSan the mbuf's address is the synchronisation object: released
 * before it leaves a thread (transmit, free), acquired when one takes it (receive, alloc).
 * Nothing in other builds.
 */
#if defined(__SANITIZE_THREAD__)
#define ETH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ETH_TSAN 1
#endif
#endif
#ifdef ETH_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define eth_tsan_acquire(m) __tsan_acquire(m)
#define eth_tsan_release(m) __tsan_release(m)
#else
#define eth_tsan_acquire(m) RTE_SET_USED(m)
#define eth_tsan_release(m) RTE_SET_USED(m)
#endif

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
	eth_tsan_acquire(m);
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
	eth_tsan_release(m);
	if (m->pool != e->mp || m->next != NULL) {
		rte_pktmbuf_free(m);
		return;
	}
	m = rte_pktmbuf_prefree_seg(m);
	if (m != NULL)
		rte_mempool_generic_put(e->mp, (void **)&m, 1, e->cache);
}

/* Hand @p m to the port's queue 0; a full queue drops it (counted in tx_nombuf). */
static int
eth_tx_one(struct model_eth *e, struct rte_mbuf *m)
{
	eth_tsan_release(m);
	if (rte_eth_tx_burst(e->port_id, 0, &m, 1) != 1) {
		eth_free(e, m);
		e->st->tx_nombuf++;
		return -ENOBUFS;
	}
	return 0;
}

static int
eth_xmit(struct model_eth *e, const uint8_t *f, uint32_t len)
{
	struct rte_mbuf *m = eth_mbuf(e, f, len);

	if (m == NULL)
		return -ENOBUFS;
	return eth_tx_one(e, m);
}

/* The neighbour table's way out: the frame as it is, or with an 802.1Q tag (VID @p vlan). */
static int
neigh_xmit(void *ctx, uint32_t vlan, const uint8_t *f, uint32_t len)
{
	uint8_t t[MODEL_ND_FRAME_LEN + VLAN_HLEN];

	if (vlan == MODEL_NEIGH_UNTAGGED)
		return eth_xmit(ctx, f, len);
	if (len < 12 || len > MODEL_ND_FRAME_LEN)
		return -EINVAL;
	memcpy(t, f, 12);
	t[12] = (uint8_t)(ETHERTYPE_VLAN >> 8);
	t[13] = (uint8_t)ETHERTYPE_VLAN;
	t[14] = (uint8_t)(vlan >> 8 & 0x0fu);	/* PCP 0, DEI 0 */
	t[15] = (uint8_t)vlan;
	memcpy(t + 16, f + 12, len - 12);
	return eth_xmit(ctx, t, len + VLAN_HLEN);
}

/*
 * An ARP / ND frame of @p m (@p len bytes, its L3 header at @p l3) read into @p buf (at most
 * @p cap bytes) with its 802.1Q tag taken out; *vlan its table VLAN. Returns the length.
 */
static uint32_t
neigh_frame(struct rte_mbuf *m, uint32_t len, uint32_t l3, uint8_t *buf, uint32_t cap,
	    uint32_t *vlan)
{
	uint32_t k = RTE_MIN(len, cap);
	const uint8_t *p = rte_pktmbuf_read(m, 0, k, buf);

	if (p != buf)
		memcpy(buf, p, k);
	*vlan = MODEL_NEIGH_UNTAGGED;
	if (l3 == ETH_HLEN)
		return k;
	*vlan = model_neigh_vlan(get16(buf + 14));
	memmove(buf + 12, buf + 16, k - 16);
	return k - VLAN_HLEN;
}

void
model_eth_set_addrs(struct model_eth *e, const uint8_t (*gids)[16], uint32_t n)
{
	model_neigh_set_addrs(&e->nb, gids, n);
}

/* ---- frames ---- */

/*
 * Offset of the IP header and the EtherType behind an optional 802.1Q tag, *vlan the table's
 * VLAN of the frame; 0: too short.
 */
static uint32_t
l3_offset(const uint8_t *f, uint32_t len, uint32_t *et, uint32_t *vlan)
{
	uint32_t off = ETH_HLEN;

	if (len < ETH_HLEN)
		return 0;
	*et = get16(f + 12);
	*vlan = MODEL_NEIGH_UNTAGGED;
	if (*et == ETHERTYPE_VLAN) {
		if (len < ETH_HLEN + VLAN_HLEN)
			return 0;
		*vlan = model_neigh_vlan(get16(f + 14));
		*et = get16(f + 16);
		off += VLAN_HLEN;
	}
	return off;
}

/*
 * Send each held frame whose neighbour is now known (model_neigh_resolve also asks again
 * at its retry interval); drop those held too long. Keeps the order of the rest.
 */
static void
eth_release_held(struct model_eth *e)
{
	uint64_t now = rte_get_timer_cycles();
	uint32_t i, k = 0;

	for (i = 0; i < e->n_hold; i++) {
		struct rte_mbuf *m = e->hold[i].m;

		if (now - e->hold[i].since > e->hold_cycles) {
			eth_free(e, m);
			e->st->arp_unresolved++;
			continue;
		}
		if (model_neigh_resolve(&e->nb, e->hold[i].vlan, e->hold[i].src, e->hold[i].dst,
					rte_pktmbuf_mtod(m, uint8_t *)) == 0) {
			(void)eth_tx_one(e, m);
			continue;
		}
		e->hold[k++] = e->hold[i];
	}
	e->n_hold = k;
}

int
model_eth_neigh(struct model_eth *e, const uint8_t src[16], const uint8_t dst[16],
		uint8_t mac[6])
{
	if (model_neigh_own(&e->nb, dst)) {
		memcpy(mac, e->mac, 6);
		return 0;
	}
	return model_neigh_resolve(&e->nb, MODEL_NEIGH_UNTAGGED, src, dst, mac);
}

int
model_eth_out(struct model_eth *e, const uint8_t *f, uint32_t len)
{
	static const uint8_t zero[6];
	uint32_t et, vlan, l3 = l3_offset(f, len, &et, &vlan);
	uint8_t src[16], dst[16];
	struct rte_mbuf *m;
	uint8_t *d;

	if ((memcmp(f, e->mac, 6) != 0 && memcmp(f, zero, 6) != 0) || l3 == 0)
		return eth_xmit(e, f, len);
	/* to this port's MAC or none (no neighbour MAC in the QP / AH): loop back or resolve */
	if (et == ETHERTYPE_IPV4 && len >= l3 + 20) {
		model_gid_of_v4(src, f + l3 + 12);
		model_gid_of_v4(dst, f + l3 + 16);
	} else if (et == ETHERTYPE_IPV6 && len >= l3 + IPV6_HLEN) {
		memcpy(src, f + l3 + 8, 16);
		memcpy(dst, f + l3 + 24, 16);
	} else {
		return eth_xmit(e, f, len);
	}
	if (model_neigh_own(&e->nb, dst)) {
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
	if (e->n_hold != 0)
		eth_release_held(e);	/* in order: the held ones first */
	d = rte_pktmbuf_mtod(m, uint8_t *);
	if (model_neigh_resolve(&e->nb, vlan, src, dst, d) != 0) {
		if (e->n_hold == ETH_HOLD) {
			eth_free(e, m);
			e->st->arp_unresolved++;
			return 0;
		}
		e->hold[e->n_hold].m = m;
		e->hold[e->n_hold].since = rte_get_timer_cycles();
		memcpy(e->hold[e->n_hold].src, src, 16);
		memcpy(e->hold[e->n_hold].dst, dst, 16);
		e->hold[e->n_hold].vlan = vlan;
		e->n_hold++;
		return 0;
	}
	return eth_tx_one(e, m);
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
	struct rte_mbuf *m;

	if (e->self_head != e->self_tail)
		return e->self[e->self_head++ % ETH_SELF_QUEUE];
	if (e->rx_i == e->rx_n) {
		e->rx_i = 0;
		e->rx_n = rte_eth_rx_burst(e->port_id, 0, e->rx, ETH_RX_BURST);
		if (e->rx_n == 0)
			return NULL;
	}
	m = e->rx[e->rx_i++];
	eth_tsan_acquire(m);
	return m;
}

int
model_eth_in(struct model_eth *e, uint8_t *buf, uint32_t cap)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct rte_mbuf *m;

	if (unlikely(e->n_hold != 0))
		eth_release_held(e);
	while ((m = eth_next(e)) != NULL) {
		uint32_t len = rte_pktmbuf_pkt_len(m), et = 0, vlan, l3;
		uint8_t hdr[ETH_HLEN + VLAN_HLEN + 48];
		const uint8_t *f;

		f = rte_pktmbuf_read(m, 0, RTE_MIN(len, (uint32_t)sizeof(hdr)), hdr);
		l3 = f != NULL ? l3_offset(f, RTE_MIN(len, (uint32_t)sizeof(hdr)), &et, &vlan) : 0;
		if (l3 == 0) {
			e->st->rx_other++;
		} else if (et == ETHERTYPE_ARP &&
			   (memcmp(f, e->mac, 6) == 0 || memcmp(f, bcast, 6) == 0)) {
			uint8_t a[ETH_HLEN + VLAN_HLEN + MODEL_ARP_LEN];
			uint32_t k = neigh_frame(m, len, l3, a, sizeof(a), &vlan);

			model_neigh_arp_input(&e->nb, vlan, a, k);
			if (e->n_hold != 0)
				eth_release_held(e);	/* a reply: what waited for it */
		} else if (et == ETHERTYPE_IPV6 &&
			   len >= l3 + IPV6_HLEN && f[l3 + 6] == IPPROTO_ICMPV6_NUM &&
			   (memcmp(f, e->mac, 6) == 0 || (f[0] == 0x33 && f[1] == 0x33))) {
			uint8_t a[MODEL_ND_FRAME_LEN + VLAN_HLEN + 64];
			uint32_t k = neigh_frame(m, len, l3, a, sizeof(a), &vlan);

			model_neigh_nd_input(&e->nb, vlan, a, k);
			if (e->n_hold != 0)
				eth_release_held(e);
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
	int r;

	if (e == NULL)
		return -ENOMEM;
	memcpy(e->mac, mac, 6);
	e->st = st;
	model_neigh_init(&e->nb, mac, st, neigh_xmit, e);
	e->hold_cycles = rte_get_timer_hz() / 1000000u * MODEL_ARP_FAIL_US;
	model_neigh_set_addrs(&e->nb, (const uint8_t (*)[16])gid, 1);
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
	while (e->n_hold != 0)
		eth_free(e, e->hold[--e->n_hold].m);
	while (e->rx_i < e->rx_n)
		eth_free(e, e->rx[e->rx_i++]);
	if (e->started) {
		struct rte_mbuf *m[ETH_RX_BURST];
		uint16_t n, i;
		uint32_t k = 0;

		/* drain: what waits here may belong to the pool (and be all it waits for) */
		while (k++ < ETH_RING_SIZE &&
		       (n = rte_eth_rx_burst(e->port_id, 0, m, ETH_RX_BURST)) > 0) {
			for (i = 0; i < n; i++) {
				eth_tsan_acquire(m[i]);
				eth_tsan_release(m[i]);
			}
			rte_pktmbuf_free_bulk(m, n);
		}
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
