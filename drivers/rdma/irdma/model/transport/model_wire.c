/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The device model's wires (model_pkt.h): ports on an in-process switch ("loop",
 * "loop:<name>") or on a UDP socket ("udp:<ipv4>[:<port>]"), with fault injection on the
 * sending side (drop, duplicate, reorder, corrupt) driven by a per-port seeded PRNG, counters,
 * and an optional pcap file of every frame a port sends and receives.
 *
 * Locks: the switch registry (switches_lock) guards the list of named switches and their
 * port lists' membership; each switch has a lock for its ports' receive queues. A port's
 * own state (faults, held frame, counters, pcap) belongs to the thread of its device. Order:
 * switches_lock, then a switch's lock.
 *
 * Frame buffers on a switch: each loop port holds a set of WIRE_SET buffers of
 * MODEL_PKT_MAX bytes (and room for a struct model_pkt_desc after them): one per slot of
 * its two receive queues and one it builds its next frame in (model_port_tx_buf()). A
 * frame built there is handed over, not copied: under the switch's lock the sender's
 * build buffer and the free slot of the destination's queue trade places, so buffers
 * wander between the ports of one switch. The memory belongs to the switch (sw->mem); a
 * detached port leaves its set on sw->spare for the next port to attach, and the switch
 * frees them all with its last port.
 *
 * The UDP wire carries a frame from its BTH on. A plain UDP socket cannot choose the IP
 * header the kernel writes, so the sender first rewrites the frame into the packet that will
 * really travel (IPv4 source = the socket's address, UDP source port = the socket's port,
 * destination port 4791, ID 0, DF) and recomputes the ICRC over it; the receiver rebuilds
 * exactly that packet from the datagram and the socket's addresses (doc/model.md).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_log.h>

#include "model_pkt.h"
#include "model_wire_eth.h"

extern int irdma_model_logtype;

#define WIRE_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_model_logtype, "model wire: " fmt "\n", ##__VA_ARGS__)

/* Frames a loop port's receive queue holds; more are dropped (and counted). */
#define WIRE_QUEUE		4096u
/* Frames a loop port's queue of its own unsealed frames holds (frames to its own MAC). */
#define WIRE_OWN_QUEUE		256u
/* A loop port's frame buffers: its queues' slots and the one it builds in. */
#define WIRE_SET		(WIRE_QUEUE + WIRE_OWN_QUEUE + 1u)
#define WIRE_TX_BUF		(WIRE_SET - 1u)
#define WIRE_NAME_MAX		64u
#define PPM			1000000u
/* Kernel receive buffer asked for on a UDP port (capped by net.core.rmem_max). */
#define WIRE_UDP_RCVBUF		(4 << 20)
/* TTL the UDP receiver writes into rebuilt frames (the ICRC does not cover it). */
#define WIRE_UDP_TTL		64u

/* Offsets of the formats (as in model_pkt.c; the wire only touches Ethernet, IPv4, UDP). */
#define ETH_HLEN		14u
#define VLAN_HLEN		4u
#define IPV4_HLEN		20u
#define UDP_HLEN		8u
#define BTH_LEN			12u
#define ICRC_LEN		4u
#define ETHERTYPE_IPV4		0x0800u
#define ETHERTYPE_VLAN		0x8100u
#define UDP_IN_FRAME		(ETH_HLEN + IPV4_HLEN + UDP_HLEN)	/* rebuilt header bytes */
/* In a loop queue's length word: the frame's ICRC field was never written (the sender was
 * an in-process engine on a port no fault can corrupt and no capture sees). */
#define WIRE_UNSEALED		0x80000000u
/* ... and its struct model_pkt_desc follows the frame's buffer (at WIRE_DESC_OFF). */
#define WIRE_DESC		0x40000000u
/* ... and only its MACs and payload were written (model_port_send_bare()): the rest of the
 * header is written from the description (wire_fill()) before anyone reads the bytes. */
#define WIRE_BARE		0x20000000u
/* ... and it is a train (model_port_send_train()): counted as the frames it stands for. */
#define WIRE_TRAIN		0x10000000u
#define WIRE_LEN_MASK		0x0fffffffu
/* A frame buffer: MODEL_PKT_MAX bytes of frame, then the sender's description. */
#define WIRE_DESC_OFF		MODEL_PKT_MAX
#define WIRE_BUF_SIZE		(WIRE_DESC_OFF + ((sizeof(struct model_pkt_desc) + 63u) & ~63u))

enum wire_kind {
	WIRE_LOOP,
	WIRE_UDP,
	WIRE_ETH,
};

/* The frame buffers of a loop port (WIRE_SET pointers into the switch's memory). */
struct wire_set {
	struct wire_set *next;		/* in sw->spare */
	uint8_t *buf[WIRE_SET];
};

/* A block of WIRE_SET frame buffers a switch allocated (19 MB of address space, of which
 * the pages of the buffers ever used at once are touched). */
struct wire_mem {
	struct wire_mem *next;
	uint8_t *bytes;
};

/* An in-process switch: the ports attached under one name. */
struct wire_switch {
	char name[WIRE_NAME_MAX];
	pthread_mutex_t lock;		/* the receive queues of its ports */
	struct model_port *ports;	/* membership: switches_lock and lock */
	struct wire_set *spare;		/* sets of detached ports (switches_lock) */
	struct wire_mem *mem;		/* every buffer block (switches_lock) */
	struct wire_switch *next;
};

/* A port's receive queue: slots (buffers of the port's set) filled by senders. */
struct wire_queue {
	uint8_t **slots;
	uint32_t *lens;			/* length | WIRE_UNSEALED | WIRE_DESC */
	uint32_t head;			/* next slot to read (count, modulo WIRE_QUEUE) */
	uint32_t tail;			/* next slot to write (count, modulo WIRE_QUEUE); written
					 * under sw->lock, atomic: the owner peeks at it */
};

struct model_port {
	enum wire_kind kind;
	uint8_t mac[6];
	uint8_t gid[16];
	/* loop */
	struct wire_switch *sw;
	struct model_port *next;	/* in sw->ports */
	struct wire_set *set;		/* its frame buffers (loop) */
	struct wire_queue q;		/* under sw->lock */
	bool rx_held;			/* model_port_recv_ref() lent q's head slot */
	/*
	 * The unsealed frames the port sent to its own MAC (WIRE_OWN_QUEUE slots): only the
	 * port's device fills and drains it, so no lock. Taken in turn with q.
	 */
	struct wire_queue own;
	bool own_held;			/* model_port_recv_ref() lent own's head slot */
	bool own_first;			/* the next receive looks at own before q */
	const struct model_pkt_desc *rx_desc;	/* of the frame lent, or NULL */
	uint8_t *rx_bare;		/* the frame lent, when it came bare (WIRE_BARE) */
	uint32_t rx_bare_len;		/* and its length */
	/* udp */
	int fd;
	struct in_addr addr;		/* bound address */
	uint16_t port;			/* bound port (host order) */
	int tos;			/* IP_TOS currently set on the socket */
	/* eth */
	struct model_eth *eth;
	uint16_t ip_id;			/* last IPv4 ID handed out */
	/* faults */
	bool faulty;
	struct model_wire_faults faults;
	uint64_t rng;
	bool holding;			/* a reordered frame waits in held */
	uint32_t held_len;
	uint8_t *held;			/* MODEL_PKT_MAX bytes */
	uint8_t *work;			/* MODEL_PKT_MAX bytes: the frame being sent */
	FILE *pcap;
	struct model_port_stats st;
};

static pthread_mutex_t switches_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wire_switch *switches;

/* ---- small helpers ---- */

static inline uint32_t
get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Fill in the checksum of the 20-byte IPv4 header at @p ip. */
static void
ipv4_set_csum(uint8_t *ip)
{
	uint32_t s = 0;

	put16(ip + 10, 0);
	for (uint32_t i = 0; i < IPV4_HLEN; i += 2)
		s += get16(ip + i);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	put16(ip + 10, ~s & 0xffff);
}

/* xorshift64* (Vigna): the fault PRNG. */
static uint64_t
prng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* True with probability @p ppm / 10^6; always draws one number. */
static bool
chance(struct model_port *p, uint32_t ppm)
{
	return (uint32_t)((prng_next(&p->rng) >> 11) % PPM) < ppm;
}

/* ---- pcap ---- */

#define PCAP_MAGIC		0xa1b2c3d4u
#define PCAP_VERSION_MAJOR	2u
#define PCAP_VERSION_MINOR	4u
#define PCAP_SNAPLEN		65535u
#define PCAP_LINKTYPE_ETHERNET	1u

static void
pcap_record(struct model_port *p, const uint8_t *frame, uint32_t len)
{
	struct timeval tv;
	uint32_t rec[4];

	if (p->pcap == NULL)
		return;
	gettimeofday(&tv, NULL);
	rec[0] = (uint32_t)tv.tv_sec;
	rec[1] = (uint32_t)tv.tv_usec;
	rec[2] = len;
	rec[3] = len;
	if (fwrite(rec, sizeof(rec), 1, p->pcap) != 1 || fwrite(frame, len, 1, p->pcap) != 1) {
		WIRE_LOG(ERR, "pcap write failed (%s); capture stopped", strerror(errno));
		fclose(p->pcap);
		p->pcap = NULL;
	}
}

int
model_port_pcap_open(struct model_port *p, const char *path)
{
	/* the classic pcap file header, in host byte order (readers detect it by the magic) */
	struct {
		uint32_t magic;
		uint16_t major;
		uint16_t minor;
		int32_t thiszone;
		uint32_t sigfigs;
		uint32_t snaplen;
		uint32_t linktype;
	} hdr = {
		PCAP_MAGIC, PCAP_VERSION_MAJOR, PCAP_VERSION_MINOR, 0, 0, PCAP_SNAPLEN,
		PCAP_LINKTYPE_ETHERNET,
	};
	int r;

	if (p == NULL) {
		WIRE_LOG(ERR, "pcap_open: no port");
		return -EINVAL;
	}
	if (p->pcap != NULL) {
		fclose(p->pcap);
		p->pcap = NULL;
	}
	if (path == NULL)
		return 0;
	p->pcap = fopen(path, "wb");
	if (p->pcap == NULL) {
		r = -errno;
		WIRE_LOG(ERR, "pcap_open: %s: %s", path, strerror(errno));
		return r;
	}
	if (fwrite(&hdr, sizeof(hdr), 1, p->pcap) != 1) {
		WIRE_LOG(ERR, "pcap_open: %s: header write failed", path);
		fclose(p->pcap);
		p->pcap = NULL;
		return -EIO;
	}
	return 0;
}

/* ---- the in-process switch ---- */

static struct model_port *
switch_find(struct wire_switch *sw, const uint8_t *mac)
{
	for (struct model_port *q = sw->ports; q != NULL; q = q->next)
		if (memcmp(q->mac, mac, 6) == 0)
			return q;
	return NULL;
}

/* Give port @p p a set of frame buffers: a detached port's, or new ones (switches_lock). */
static int
switch_take_set(struct wire_switch *sw, struct model_port *p)
{
	struct wire_set *set = sw->spare;
	struct wire_mem *m;

	if (set != NULL) {
		sw->spare = set->next;
	} else {
		set = malloc(sizeof(*set));
		m = malloc(sizeof(*m));
		if (set == NULL || m == NULL ||
		    (m->bytes = malloc((size_t)WIRE_SET * WIRE_BUF_SIZE)) == NULL) {
			free(set);
			free(m);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < WIRE_SET; i++)
			set->buf[i] = m->bytes + (size_t)i * WIRE_BUF_SIZE;
		m->next = sw->mem;
		sw->mem = m;
	}
	p->set = set;
	p->q.slots = set->buf;
	p->own.slots = set->buf + WIRE_QUEUE;
	return 0;
}

/* Unlink (switches_lock held) and free a switch without ports, and its buffers. */
static void
switch_free(struct wire_switch *sw)
{
	struct wire_switch **sp;

	for (sp = &switches; *sp != NULL; sp = &(*sp)->next)
		if (*sp == sw) {
			*sp = sw->next;
			break;
		}
	while (sw->spare != NULL) {
		struct wire_set *n = sw->spare->next;

		free(sw->spare);
		sw->spare = n;
	}
	while (sw->mem != NULL) {
		struct wire_mem *n = sw->mem->next;

		free(sw->mem->bytes);
		free(sw->mem);
		sw->mem = n;
	}
	pthread_mutex_destroy(&sw->lock);
	free(sw);
}

static int
loop_attach(struct model_port *p, const char *name)
{
	struct wire_switch *sw;
	int r = 0;

	p->q.lens = malloc(WIRE_QUEUE * sizeof(uint32_t));
	p->own.lens = malloc(WIRE_OWN_QUEUE * sizeof(uint32_t));
	if (p->q.lens == NULL || p->own.lens == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&switches_lock);
	for (sw = switches; sw != NULL; sw = sw->next)
		if (strcmp(sw->name, name) == 0)
			break;
	if (sw == NULL) {
		sw = calloc(1, sizeof(*sw));
		if (sw == NULL) {
			r = -ENOMEM;
			goto out;
		}
		snprintf(sw->name, sizeof(sw->name), "%s", name);
		pthread_mutex_init(&sw->lock, NULL);
		sw->next = switches;
		switches = sw;
	}
	pthread_mutex_lock(&sw->lock);
	if (switch_find(sw, p->mac) != NULL) {
		WIRE_LOG(ERR, "attach: MAC %02x:%02x:%02x:%02x:%02x:%02x already on switch '%s'",
			 p->mac[0], p->mac[1], p->mac[2], p->mac[3], p->mac[4], p->mac[5], name);
		r = -EINVAL;
	} else if ((r = switch_take_set(sw, p)) == 0) {
		p->sw = sw;
		p->next = sw->ports;
		sw->ports = p;
	}
	pthread_mutex_unlock(&sw->lock);
	if (sw->ports == NULL)
		switch_free(sw);
out:
	pthread_mutex_unlock(&switches_lock);
	return r;
}

static void
loop_detach(struct model_port *p)
{
	struct wire_switch *sw = p->sw;
	struct model_port **pp;
	bool empty;

	pthread_mutex_lock(&switches_lock);
	pthread_mutex_lock(&sw->lock);
	for (pp = &sw->ports; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	empty = sw->ports == NULL;
	pthread_mutex_unlock(&sw->lock);
	/* its buffers (the frames queued for it dropped) wait for the next port */
	p->set->next = sw->spare;
	sw->spare = p->set;
	p->set = NULL;
	if (empty)
		switch_free(sw);
	pthread_mutex_unlock(&switches_lock);
}

/*
 * Put frame @p frame in slot @p i of queue @p q: handed over when it is the build buffer of
 * @p p (the two buffers trade places), else copied.
 */
static void
wq_put(struct model_port *p, struct wire_queue *q, uint32_t i, const uint8_t *frame,
       uint32_t len)
{
	uint8_t **tx = &p->set->buf[WIRE_TX_BUF], *b = q->slots[i];

	if (frame == *tx) {
		q->slots[i] = *tx;
		*tx = b;
	} else {
		memcpy(b, frame, len);
	}
}

/*
 * Write the header bytes of a frame that came bare (WIRE_BARE in its length word *lw) into
 * its slot @p f, from its description, and clear the flag: for a receive that reads bytes.
 */
static int
wire_fill(uint8_t *f, uint32_t *lw)
{
	int r;

	if (!(*lw & WIRE_BARE))
		return 0;
	*lw &= ~WIRE_BARE;
	r = model_pkt_desc_fill((const struct model_pkt_desc *)(f + WIRE_DESC_OFF), f,
				*lw & WIRE_LEN_MASK);
	if (r != 0)
		WIRE_LOG(ERR, "recv: the header of a bare frame cannot be written: %s",
			 strerror(-r));
	return r;
}

/* Put one frame on the switch: into the queue of the port owning its destination MAC. */
static int
loop_out(struct model_port *p, const uint8_t *frame, uint32_t len, uint32_t flags)
{
	struct wire_switch *sw = p->sw;
	struct model_port *d;
	int r = 0;

	pthread_mutex_lock(&sw->lock);
	d = switch_find(sw, frame);
	if (d == NULL) {
		p->st.rx_no_port++;
	} else if (d->q.tail - d->q.head >= WIRE_QUEUE) {
		p->st.tx_dropped++;
		r = -ENOBUFS;
	} else {
		uint32_t i = d->q.tail % WIRE_QUEUE;

		wq_put(p, &d->q, i, frame, len);
		d->q.lens[i] = len | flags;
		__atomic_store_n(&d->q.tail, d->q.tail + 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&sw->lock);
	return r;
}

/* Drop the head frame of queue @p q (a port's: under sw->lock; its own: the device's). */
static void
wq_pop(struct wire_queue *q)
{
	q->head++;
	/* empty: start again at slot 0, so only the high-water mark of slots is ever touched */
	if (q->head == q->tail) {
		q->head = 0;
		__atomic_store_n(&q->tail, 0, __ATOMIC_RELAXED);
	}
}

/* Give back the slot lent (*held), then false when queue @p q of @p n slots is empty, else
 * its head slot in *i. */
static bool
wq_front(struct wire_queue *q, bool *held, uint32_t n, uint32_t *i)
{
	if (*held) {
		wq_pop(q);
		*held = false;
	}
	if (q->tail == q->head)
		return false;
	*i = q->head % n;
	return true;
}

/* wq_front() of the port's queue (sw->lock held). */
static bool
loop_front(struct model_port *p, uint32_t *i)
{
	return wq_front(&p->q, &p->rx_held, WIRE_QUEUE, i);
}

/* wq_front() of the queue of the port's frames to itself. */
static bool
own_front(struct model_port *p, uint32_t *i)
{
	return wq_front(&p->own, &p->own_held, WIRE_OWN_QUEUE, i);
}

/*
 * Queue an unsealed frame to the port's own MAC (the device's lock held, no other writer);
 * @p flags: WIRE_UNSEALED, and WIRE_DESC when its description follows it.
 */
static int
own_out(struct model_port *p, const uint8_t *frame, uint32_t len, uint32_t flags)
{
	uint32_t i;

	if (p->own.tail - p->own.head >= WIRE_OWN_QUEUE) {
		p->st.tx_dropped++;
		return -ENOBUFS;
	}
	i = p->own.tail % WIRE_OWN_QUEUE;
	wq_put(p, &p->own, i, frame, len);
	p->own.lens[i] = len | flags;
	p->own.tail++;
	return 0;
}

/* Copy (and seal) the head frame of the own queue into @p buf; 0 when it is empty. */
static int
own_in(struct model_port *p, uint8_t *buf, uint32_t cap)
{
	uint32_t i, len;

	if (!own_front(p, &i))
		return 0;
	len = p->own.lens[i] & WIRE_LEN_MASK;
	if (len > cap) {
		wq_pop(&p->own);
		WIRE_LOG(DEBUG, "recv: frame of %u bytes, buffer of %u: dropped", len, cap);
		return -EMSGSIZE;
	}
	/* the slot stays intact until the next own_out(), which cannot run before this copy */
	wq_pop(&p->own);
	(void)wire_fill(p->own.slots[i], &p->own.lens[i]);	/* unfilled: a bad frame */
	memcpy(buf, p->own.slots[i], len);
	put_le32(buf + len - ICRC_LEN, model_pkt_icrc(buf, len));
	return (int)len;
}

static int
loop_in(struct model_port *p, uint8_t *buf, uint32_t cap)
{
	struct wire_switch *sw = p->sw;
	bool own = p->own_first;
	uint32_t i, len, w;
	int r;


	p->own_first = !own;
	if (own && (r = own_in(p, buf, cap)) != 0)
		return r;
	pthread_mutex_lock(&sw->lock);
	if (!loop_front(p, &i)) {
		pthread_mutex_unlock(&sw->lock);
		return own ? 0 : own_in(p, buf, cap);
	}
	w = p->q.lens[i];
	len = w & WIRE_LEN_MASK;
	if (len > cap) {
		r = -EMSGSIZE;
	} else {
		(void)wire_fill(p->q.slots[i], &p->q.lens[i]);	/* unfilled: a bad frame */
		memcpy(buf, p->q.slots[i], len);
		r = (int)len;
	}
	wq_pop(&p->q);
	pthread_mutex_unlock(&sw->lock);
	if (r < 0)
		WIRE_LOG(DEBUG, "recv: frame of %u bytes, buffer of %u: dropped", len, cap);
	else if (w & WIRE_UNSEALED)
		put_le32(buf + len - ICRC_LEN, model_pkt_icrc(buf, len));
	return r;
}

/*
 * Lend the head frame of @p p's queue in place (*frame, *sealed false when its ICRC field
 * was never written), first giving back the one lent before. The lent slot stays out of the
 * senders' reach until it is given back: the head does not move past it.
 */
static int
loop_ref(struct model_port *p, const uint8_t **frame, bool *sealed)
{
	struct wire_switch *sw = p->sw;
	uint32_t i, w;

	/*
	 * Nothing new (the owner alone moves head; a stale tail only delays a frame to the
	 * next call): no lock. The lent slot, if any, stays lent until a frame comes.
	 */
	if (__atomic_load_n(&p->q.tail, __ATOMIC_RELAXED) - p->q.head == (p->rx_held ? 1u : 0u))
		return 0;
	pthread_mutex_lock(&sw->lock);
	if (!loop_front(p, &i)) {
		pthread_mutex_unlock(&sw->lock);
		return 0;
	}
	w = p->q.lens[i];
	p->rx_held = true;
	pthread_mutex_unlock(&sw->lock);
	*frame = p->q.slots[i];
	*sealed = (w & WIRE_UNSEALED) == 0;
	p->rx_desc = (w & WIRE_DESC) ? (const void *)(*frame + WIRE_DESC_OFF) : NULL;
	if (w & WIRE_BARE) {
		p->rx_bare = p->q.slots[i];
		p->rx_bare_len = w & WIRE_LEN_MASK;
	}
	return (int)(w & WIRE_LEN_MASK);
}

/* Lend the head frame of the own queue (always unsealed); 0 when it is empty. */
static int
own_ref(struct model_port *p, const uint8_t **frame, bool *sealed)
{
	uint32_t i;

	if (!own_front(p, &i))
		return 0;
	p->own_held = true;
	*frame = p->own.slots[i];
	*sealed = false;
	p->rx_desc = (p->own.lens[i] & WIRE_DESC) ? (const void *)(*frame + WIRE_DESC_OFF) :
						     NULL;
	if (p->own.lens[i] & WIRE_BARE) {
		p->rx_bare = p->own.slots[i];
		p->rx_bare_len = p->own.lens[i] & WIRE_LEN_MASK;
	}
	if (unlikely(p->own.lens[i] & WIRE_TRAIN)) {
		/* the frames it stands for, less the one the receive counts */
		p->st.rx_frames += p->rx_desc->tr.count - 1u;
		p->st.rx_bytes += p->rx_desc->tr.bytes - (p->own.lens[i] & WIRE_LEN_MASK);
	}
	return (int)(p->own.lens[i] & WIRE_LEN_MASK);
}

/* loop_ref() and own_ref(), the two queues taken in turn so that neither starves. */
static int
loop_ref_turn(struct model_port *p, const uint8_t **frame, bool *sealed)
{
	bool own = p->own_first;
	int r;

	p->own_first = !own;
	if (own) {
		r = own_ref(p, frame, sealed);
		return r != 0 ? r : loop_ref(p, frame, sealed);
	}
	r = loop_ref(p, frame, sealed);
	return r != 0 ? r : own_ref(p, frame, sealed);
}

/* ---- the UDP wire ---- */

/* Parse "<ipv4>[:<port>]". */
static int
udp_parse_spec(const char *s, struct in_addr *addr, uint16_t *port)
{
	char ip[INET_ADDRSTRLEN];
	const char *colon = strchr(s, ':');
	size_t n = colon != NULL ? (size_t)(colon - s) : strlen(s);

	*port = MODEL_ROCE_UDP_PORT;
	if (n == 0 || n >= sizeof(ip))
		return -EINVAL;
	memcpy(ip, s, n);
	ip[n] = '\0';
	if (inet_pton(AF_INET, ip, addr) != 1 || addr->s_addr == htonl(INADDR_ANY))
		return -EINVAL;
	if (colon != NULL) {
		char *end;
		unsigned long v = strtoul(colon + 1, &end, 10);

		if (colon[1] == '\0' || *end != '\0' || v == 0 || v > 65535)
			return -EINVAL;
		*port = (uint16_t)v;
	}
	return 0;
}

static int
udp_attach(struct model_port *p, const char *spec)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int one = 1, pmtu = IP_PMTUDISC_DO, rcvbuf = WIRE_UDP_RCVBUF, r;

	if (udp_parse_spec(spec, &p->addr, &p->port) != 0) {
		WIRE_LOG(ERR, "attach: bad UDP wire 'udp:%s' (want udp:<ipv4 address>[:<port>])",
			 spec);
		return -EINVAL;
	}
	p->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->fd < 0) {
		r = -errno;
		WIRE_LOG(ERR, "attach: socket: %s", strerror(errno));
		return r;
	}
	/* PMTUDISC_DO: DF on every datagram and IP ID 0, which the receiver assumes */
	if (setsockopt(p->fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) != 0 ||
	    setsockopt(p->fd, IPPROTO_IP, IP_RECVTOS, &one, sizeof(one)) != 0) {
		r = -errno;
		WIRE_LOG(ERR, "attach: setsockopt: %s", strerror(errno));
		return r;
	}
	/* a larger receive buffer is a wish, not a need */
	(void)setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sa.sin_addr = p->addr;
	sa.sin_port = htons(p->port);
	if (bind(p->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		r = -errno;
		WIRE_LOG(ERR, "attach: bind udp:%s: %s", spec, strerror(errno));
		return r;
	}
	p->tos = 0;
	return 0;
}

/*
 * Rewrite the frame @p f (@p len bytes) into the packet the socket will really send: IPv4
 * source = the socket's address, ID 0, DF, UDP source port = the socket's, destination port
 * 4791, IPv4 checksum and ICRC recomputed. Returns 0 or -EINVAL (not a RoCEv2-over-IPv4
 * frame this wire can carry).
 */
static int
udp_rewrite(const struct model_port *p, uint8_t *f, uint32_t len)
{
	uint32_t l2 = ETH_HLEN;
	uint8_t *ip, *udp;

	if (len >= ETH_HLEN + VLAN_HLEN && get16(f + 12) == ETHERTYPE_VLAN)
		l2 += VLAN_HLEN;
	if (len < l2 + IPV4_HLEN + UDP_HLEN + BTH_LEN + ICRC_LEN ||
	    get16(f + l2 - 2) != ETHERTYPE_IPV4 || f[l2] != 0x45 || f[l2 + 9] != IPPROTO_UDP ||
	    get16(f + l2 + 2) != len - l2) {
		WIRE_LOG(ERR, "send: the UDP wire carries RoCEv2 over IPv4 only (%u bytes)", len);
		return -EINVAL;
	}
	ip = f + l2;
	udp = ip + IPV4_HLEN;
	memcpy(ip + 12, &p->addr, 4);
	put16(ip + 4, 0);
	put16(ip + 6, IP_DF);
	ipv4_set_csum(ip);
	put16(udp, p->port);
	put16(udp + 2, MODEL_ROCE_UDP_PORT);
	put_le32(f + len - ICRC_LEN, model_pkt_icrc(f, len));
	return 0;
}

/* Send the (already rewritten) frame's UDP payload to its destination IPv4 address. */
static int
udp_out(struct model_port *p, const uint8_t *f, uint32_t len)
{
	uint32_t l2 = get16(f + 12) == ETHERTYPE_VLAN ? ETH_HLEN + VLAN_HLEN : ETH_HLEN;
	const uint8_t *ip = f + l2, *dgram = ip + IPV4_HLEN + UDP_HLEN;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(p->port) };
	ssize_t n;

	memcpy(&to.sin_addr, ip + 16, 4);
	if (ip[1] != p->tos) {
		int tos = ip[1];

		if (setsockopt(p->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)) == 0)
			p->tos = tos;
	}
	n = sendto(p->fd, dgram, (size_t)(f + len - dgram), 0, (struct sockaddr *)&to,
		   sizeof(to));
	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) {
			char a[INET_ADDRSTRLEN];

			WIRE_LOG(ERR, "send: sendto %s:%u: %s",
				 inet_ntop(AF_INET, &to.sin_addr, a, sizeof(a)), p->port,
				 strerror(errno));
		}
		p->st.tx_dropped++;
		return -ENOBUFS;
	}
	return 0;
}

/*
 * Receive one datagram and rebuild its frame in @p buf: Ethernet (destination = this
 * port's MAC, source = 02:00 and the sender's IPv4 address, IPv4 EtherType, no VLAN), IPv4
 * (TOS as received, ID 0, DF, TTL 64, the datagram's source and this socket's address), UDP
 * (the datagram's source port, destination 4791, checksum 0), then the datagram.
 */
static int
udp_in(struct model_port *p, uint8_t *buf, uint32_t cap)
{
	struct sockaddr_in from;
	char cbuf[CMSG_SPACE(sizeof(int))];
	bool fits = cap >= UDP_IN_FRAME + BTH_LEN + ICRC_LEN;
	struct iovec iov = {
		.iov_base = fits ? buf + UDP_IN_FRAME : p->work,	/* too small: drained */
		.iov_len = fits ? cap - UDP_IN_FRAME : MODEL_PKT_MAX,
	};
	struct msghdr m = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	uint8_t tos = 0, *ip = buf + ETH_HLEN, *udp = ip + IPV4_HLEN;
	ssize_t n = recvmsg(p->fd, &m, MSG_DONTWAIT);
	uint32_t total;

	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			WIRE_LOG(ERR, "recv: %s", strerror(errno));
		return 0;
	}
	if (!fits || (m.msg_flags & MSG_TRUNC)) {
		WIRE_LOG(DEBUG, "recv: datagram larger than the %u-byte buffer: dropped", cap);
		return -EMSGSIZE;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS)
			tos = *(const uint8_t *)CMSG_DATA(c);
	total = UDP_IN_FRAME + (uint32_t)n;
	memcpy(buf, p->mac, 6);
	buf[6] = 0x02;
	buf[7] = 0x00;
	memcpy(buf + 8, &from.sin_addr, 4);
	put16(buf + 12, ETHERTYPE_IPV4);
	ip[0] = 0x45;
	ip[1] = tos;
	put16(ip + 2, total - ETH_HLEN);
	put16(ip + 4, 0);
	put16(ip + 6, IP_DF);
	ip[8] = WIRE_UDP_TTL;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, &from.sin_addr, 4);
	memcpy(ip + 16, &p->addr, 4);
	ipv4_set_csum(ip);
	memcpy(udp, &from.sin_port, 2);
	put16(udp + 2, MODEL_ROCE_UDP_PORT);
	put16(udp + 4, UDP_HLEN + (uint32_t)n);
	put16(udp + 6, 0);
	return (int)total;
}

/* ---- ports ---- */

int
model_port_attach(const char *spec, const uint8_t mac[6], const uint8_t gid[16],
		  struct model_port **out)
{
	struct model_port *p;
	int r;

	if (mac == NULL || gid == NULL || out == NULL) {
		WIRE_LOG(ERR, "attach: MAC, GID and result pointer are required");
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	p->fd = -1;
	memcpy(p->mac, mac, 6);
	memcpy(p->gid, gid, 16);
	p->held = malloc(MODEL_PKT_MAX);
	p->work = malloc(MODEL_PKT_MAX);
	if (p->held == NULL || p->work == NULL) {
		r = -ENOMEM;
		goto fail;
	}
	if (spec == NULL || strcmp(spec, "loop") == 0) {
		p->kind = WIRE_LOOP;
		r = loop_attach(p, "");
	} else if (strncmp(spec, "loop:", 5) == 0 && spec[5] != '\0' &&
		   strlen(spec + 5) < WIRE_NAME_MAX) {
		p->kind = WIRE_LOOP;
		r = loop_attach(p, spec + 5);
	} else if (strncmp(spec, "udp:", 4) == 0) {
		p->kind = WIRE_UDP;
		r = udp_attach(p, spec + 4);
	} else if (strncmp(spec, "eth:", 4) == 0) {
		p->kind = WIRE_ETH;
		r = model_eth_open(spec + 4, mac, gid, &p->st, &p->eth);
	} else {
		WIRE_LOG(ERR, "attach: unknown wire '%s' (loop, loop:<name of up to %u characters>, "
			 "udp:<ipv4>[:<port>], eth:<port>)", spec, WIRE_NAME_MAX - 1);
		r = -EINVAL;
	}
	if (r != 0)
		goto fail;
	*out = p;
	return 0;
fail:
	if (p->fd >= 0)
		close(p->fd);
	free(p->q.lens);
	free(p->own.lens);
	free(p->held);
	free(p->work);
	free(p);
	return r;
}

void
model_port_detach(struct model_port *p)
{
	if (p == NULL)
		return;
	if (p->kind == WIRE_LOOP)
		loop_detach(p);
	else if (p->kind == WIRE_ETH)
		model_eth_close(p->eth);
	else
		close(p->fd);
	if (p->pcap != NULL)
		fclose(p->pcap);
	free(p->q.lens);
	free(p->own.lens);
	free(p->held);
	free(p->work);
	free(p);
}

static int
wire_out(struct model_port *p, const uint8_t *frame, uint32_t len)
{
	switch (p->kind) {
	case WIRE_LOOP:
		return loop_out(p, frame, len, 0);
	case WIRE_ETH:
		return model_eth_out(p->eth, frame, len);
	default:
		return udp_out(p, frame, len);
	}
}

/* Deliver the reordered frame, if one is held. */
static int
release_held(struct model_port *p)
{
	if (!p->holding)
		return 0;
	p->holding = false;
	return wire_out(p, p->held, p->held_len);
}

/* Flip one byte after the headers (payload, pad or ICRC) so the receiver's ICRC check fails. */
static void
corrupt(struct model_port *p, uint8_t *f, uint32_t len)
{
	struct model_pkt_hdr h;
	const uint8_t *pay;
	uint32_t plen, from = len - 1;

	if (model_pkt_parse(f, len, &h, &pay, &plen) == 0)
		from = (uint32_t)(pay - f);
	f[from + (uint32_t)(prng_next(&p->rng) % (len - from))] ^=
		(uint8_t)(1 + prng_next(&p->rng) % 255);
}

int
model_port_send(struct model_port *p, const uint8_t *frame, uint32_t len)
{
	bool drop, dup, reorder, bad;
	int r, r2;

	if (p == NULL || frame == NULL || len < ETH_HLEN || len > MODEL_PKT_MAX) {
		WIRE_LOG(ERR, "send: bad frame (%u bytes; %u to %u)", len, ETH_HLEN, MODEL_PKT_MAX);
		return -EINVAL;
	}
	if (p->kind != WIRE_UDP && !p->faulty) {
		/* sent as it is: no copy to rewrite or to fault */
		pcap_record(p, frame, len);
		p->st.tx_frames++;
		p->st.tx_bytes += len;
		return wire_out(p, frame, len);
	}
	memcpy(p->work, frame, len);
	if (p->kind == WIRE_UDP && udp_rewrite(p, p->work, len) != 0)
		return -EINVAL;
	pcap_record(p, p->work, len);
	p->st.tx_frames++;
	p->st.tx_bytes += len;
	if (!p->faulty)
		return wire_out(p, p->work, len);

	/* four draws per frame whatever the outcome, so a seed gives one sequence */
	drop = chance(p, p->faults.drop_ppm);
	dup = chance(p, p->faults.dup_ppm);
	reorder = chance(p, p->faults.reorder_ppm);
	bad = chance(p, p->faults.corrupt_ppm);
	if (drop) {
		p->st.tx_dropped++;
		return 0;
	}
	if (bad) {
		corrupt(p, p->work, len);
		p->st.tx_corrupted++;
	}
	if (reorder && !p->holding) {
		memcpy(p->held, p->work, len);
		p->held_len = len;
		p->holding = true;
		p->st.tx_reordered++;
		return 0;
	}
	r = wire_out(p, p->work, len);
	if (dup) {
		p->st.tx_duplicated++;
		r2 = wire_out(p, p->work, len);
		r = r != 0 ? r : r2;
	}
	r2 = release_held(p);
	return r != 0 ? r : r2;
}

int
model_port_recv(struct model_port *p, uint8_t *buf, uint32_t cap)
{
	int r;

	if (p == NULL || buf == NULL) {
		WIRE_LOG(ERR, "recv: no port or buffer");
		return -EINVAL;
	}
	r = p->kind == WIRE_LOOP ? loop_in(p, buf, cap) :
	    p->kind == WIRE_ETH ? model_eth_in(p->eth, buf, cap) : udp_in(p, buf, cap);
	if (r > 0) {
		p->st.rx_frames++;
		p->st.rx_bytes += (uint64_t)r;
		pcap_record(p, buf, (uint32_t)r);
	}
	return r;
}

/* model_port_send_unsealed() with the loop queue's @p flags (WIRE_UNSEALED, WIRE_DESC). */
static int
send_unsealed(struct model_port *p, uint8_t *frame, uint32_t len, uint32_t flags)
{
	if (p == NULL || frame == NULL || len < ETH_HLEN + ICRC_LEN || len > MODEL_PKT_MAX) {
		WIRE_LOG(ERR, "send: bad frame (%u bytes; %u to %u)", len, ETH_HLEN + ICRC_LEN,
			 MODEL_PKT_MAX);
		return -EINVAL;
	}
	if (p->kind == WIRE_LOOP && !p->faulty && p->pcap == NULL) {
		/* in-process, no capture, nothing that could corrupt it: no ICRC to compute */
		p->st.tx_frames++;
		p->st.tx_bytes += len;
		if (memcmp(frame, p->mac, 6) == 0)
			return own_out(p, frame, len, flags);	/* back to itself: no switch lock */
		return loop_out(p, frame, len, flags);
	}
	put_le32(frame + len - ICRC_LEN, model_pkt_icrc(frame, len));
	return model_port_send(p, frame, len);
}

int
model_port_send_unsealed(struct model_port *p, uint8_t *frame, uint32_t len)
{
	return send_unsealed(p, frame, len, WIRE_UNSEALED);
}

int
model_port_send_desc(struct model_port *p, uint8_t *frame, uint32_t len,
		     const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen)
{
	uint32_t flags = WIRE_UNSEALED;

	/* handed over unsealed (send_unsealed(), wq_put()): the description can go along */
	if (p != NULL && h != NULL && p->kind == WIRE_LOOP && !p->faulty && p->pcap == NULL &&
	    frame == p->set->buf[WIRE_TX_BUF] && payload_off + plen <= len) {
		struct model_pkt_desc *dc = (struct model_pkt_desc *)(frame + WIRE_DESC_OFF);

		model_pkt_hdr_copy(&dc->h, h);
		dc->payload_off = payload_off;
		dc->len = plen;
		dc->tr.count = 0;
		flags |= WIRE_DESC;
	}
	return send_unsealed(p, frame, len, flags);
}

bool
model_port_bare(const struct model_port *p)
{
	return p != NULL && p->kind == WIRE_LOOP && !p->faulty && p->pcap == NULL;
}

int
model_port_send_bare(struct model_port *p, uint8_t *frame, uint32_t len,
		     const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen)
{
	uint8_t *pay;
	int n;

	if (model_port_bare(p) && h != NULL && frame == p->set->buf[WIRE_TX_BUF] &&
	    payload_off + plen <= len && len <= MODEL_PKT_MAX) {
		struct model_pkt_desc *dc = (struct model_pkt_desc *)(frame + WIRE_DESC_OFF);

		model_pkt_hdr_copy(&dc->h, h);
		dc->payload_off = payload_off;
		dc->len = plen;
		dc->tr.count = 0;
		return send_unsealed(p, frame, len, WIRE_UNSEALED | WIRE_DESC | WIRE_BARE);
	}
	/* Not to be carried so: the header bytes first, where the payload says they go. */
	if (p == NULL || frame == NULL || h == NULL) {
		WIRE_LOG(ERR, "send: no port, frame or header");
		return -EINVAL;
	}
	n = model_pkt_build_hdr(h, plen, frame, len, &pay);
	if (n < 0)
		return n;
	if ((uint32_t)n != len || pay != frame + payload_off) {
		WIRE_LOG(ERR, "send: a bare frame of %u bytes (payload at %u) is not the one its "
			 "header gives (%d bytes, payload at %u)", len, payload_off, n,
			 (uint32_t)(pay - frame));
		return -EINVAL;
	}
	return model_port_send_desc(p, frame, len, h, payload_off, plen);
}

bool
model_port_train(const struct model_port *p, const uint8_t dmac[6])
{
	return model_port_bare(p) && memcmp(dmac, p->mac, 6) == 0;
}

int
model_port_send_train(struct model_port *p, uint8_t *frame, uint32_t len,
		      const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen,
		      const struct model_pkt_train *tr)
{
	struct model_pkt_desc *dc;
	int r;

	if (h == NULL || tr == NULL || !model_port_train(p, h->dmac) ||
	    frame != p->set->buf[WIRE_TX_BUF] || payload_off + plen > len ||
	    len > MODEL_PKT_MAX || tr->count < 2 || tr->count > MODEL_TRAIN_MAX ||
	    (uint64_t)tr->stride * (tr->count - 1u) >= plen) {
		WIRE_LOG(ERR, "send: a train (%u packets, %u bytes) this port cannot carry",
			 tr != NULL ? tr->count : 0u, plen);
		return -EINVAL;
	}
	dc = (struct model_pkt_desc *)(frame + WIRE_DESC_OFF);
	model_pkt_hdr_copy(&dc->h, h);
	dc->payload_off = payload_off;
	dc->len = plen;
	dc->tr = *tr;
	/* the frames it stands for, as a wire would count them one by one */
	r = own_out(p, frame, len, WIRE_UNSEALED | WIRE_DESC | WIRE_BARE | WIRE_TRAIN);
	if (r == 0) {
		p->st.tx_frames += tr->count;
		p->st.tx_bytes += tr->bytes;
	}
	return r;
}

int
model_port_rx_fill(struct model_port *p)
{
	uint32_t lw;
	int r;

	if (p == NULL || p->rx_bare == NULL)
		return 0;
	lw = p->rx_bare_len | WIRE_BARE;
	r = wire_fill(p->rx_bare, &lw);
	p->rx_bare = NULL;
	return r;
}

const struct model_pkt_desc *
model_port_rx_desc(const struct model_port *p)
{
	return p != NULL ? p->rx_desc : NULL;
}

uint8_t *
model_port_tx_buf(struct model_port *p)
{
	return p != NULL && p->kind == WIRE_LOOP ? p->set->buf[WIRE_TX_BUF] : NULL;
}

int
model_port_recv_ref(struct model_port *p, uint8_t *buf, uint32_t cap, const uint8_t **frame,
		    bool *sealed)
{
	int r;

	if (p == NULL || buf == NULL || frame == NULL || sealed == NULL) {
		WIRE_LOG(ERR, "recv: no port, buffer or frame pointer");
		return -EINVAL;
	}
	p->rx_desc = NULL;
	p->rx_bare = NULL;
	/*
	 * Nothing new in either queue (the owner alone moves the heads; a stale tail only
	 * delays a frame to the next call): a slot lent stays lent until a frame comes.
	 */
	if (p->kind == WIRE_LOOP && p->own.tail - p->own.head == (p->own_held ? 1u : 0u) &&
	    __atomic_load_n(&p->q.tail, __ATOMIC_RELAXED) - p->q.head == (p->rx_held ? 1u : 0u))
		return 0;
	if (p->kind != WIRE_LOOP || p->pcap != NULL) {
		/* copied (and sealed, so that a capture shows the ICRC) */
		*frame = buf;
		*sealed = true;
		return model_port_recv(p, buf, cap);
	}
	r = loop_ref_turn(p, frame, sealed);
	if (r > 0) {
		p->st.rx_frames++;
		p->st.rx_bytes += (uint64_t)r;
	}
	return r;
}

int
model_port_neigh(struct model_port *p, const uint8_t src[16], const uint8_t dst[16],
		 uint8_t mac[6])
{
	if (p == NULL || src == NULL || dst == NULL || mac == NULL) {
		WIRE_LOG(ERR, "neigh: no port or address");
		return -EINVAL;
	}
	return p->kind == WIRE_ETH ? model_eth_neigh(p->eth, src, dst, mac) : -ENOTSUP;
}

int
model_port_set_faults(struct model_port *p, const struct model_wire_faults *f)
{
	uint64_t s;

	if (p == NULL) {
		WIRE_LOG(ERR, "set_faults: no port");
		return -EINVAL;
	}
	if (f == NULL) {
		p->faulty = false;
		(void)release_held(p);	/* a queue-full drop of it is counted */
		return 0;
	}
	if (f->drop_ppm > PPM || f->dup_ppm > PPM || f->reorder_ppm > PPM ||
	    f->corrupt_ppm > PPM) {
		WIRE_LOG(ERR, "set_faults: a rate above %u ppm", PPM);
		return -EINVAL;
	}
	p->faults = *f;
	/* splitmix64 of the seed: any seed (0 too) gives a non-zero xorshift state */
	s = f->seed + 0x9e3779b97f4a7c15ull;
	s = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ull;
	s = (s ^ (s >> 27)) * 0x94d049bb133111ebull;
	s ^= s >> 31;
	p->rng = s != 0 ? s : 1;
	p->faulty = true;
	return 0;
}

uint16_t
model_port_ip_id(struct model_port *p)
{
	if (p == NULL)
		return 1;
	if (++p->ip_id == 0)
		p->ip_id = 1;
	return p->ip_id;
}

int
model_port_set_addrs(struct model_port *p, const uint8_t (*gids)[16], uint32_t n)
{
	uint8_t all[MODEL_PORT_ADDRS + 1][16];

	if (p == NULL || (n > 0 && gids == NULL) || n > MODEL_PORT_ADDRS) {
		WIRE_LOG(ERR, "set_addrs: no port, or more than %u addresses", MODEL_PORT_ADDRS);
		return -EINVAL;
	}
	/* the attach address first: it stays one */
	memcpy(all[0], p->gid, 16);
	if (n > 0)
		memcpy(all[1], gids, (size_t)n * 16);
	if (p->kind == WIRE_ETH)
		model_eth_set_addrs(p->eth, (const uint8_t (*)[16])all, n + 1);
	return 0;
}

void
model_port_stats_get(const struct model_port *p, struct model_port_stats *st)
{
	if (p == NULL || st == NULL)
		return;
	*st = p->st;
}
