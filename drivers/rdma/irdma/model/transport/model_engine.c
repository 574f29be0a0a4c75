/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data-path scheduler: the device's port, one engine round (receive, then per QP the
 * requester, the responder's output and the timers), QP state hooks, errors and flushes,
 * SQ completions and the HW SQ tail in the QP shadow area. Called with dev->lock held.
 *
 * Addressing: frames leave with the QP context's MAC (QPC_MACADDRESS) and source address
 * (QPC_LOCAL_IPADDR*), or the port's when those are 0 (the driver does not fill them yet);
 * the destination MAC comes from the ARP entry QPC_ARPIDX names. ARP index 0 (the driver's
 * reserved "no neighbour" default) means the port's own MAC: the frame loops back to this
 * device, which makes QP-to-QP traffic on one device work without an ARP entry.
 *
 * The port's address: "udp:<ipv4>" wires use that IPv4 address; other wires use
 * 10.<mac[3]>.<mac[4]>.<mac[5]>; IPv6 QPs without a local address use fe80::<MAC>.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>

#include "model_engine.h"

uint64_t
model_now(void)
{
	return rte_get_timer_cycles();
}

/*
 * Local ACK timeout (IBA 9.7.6.1.3): 4.096 us << QPC_RTOMIN (the verbs timeout, 5 bits; 0
 * is infinite: no timer), in timer cycles. Computed once per accepted QP context.
 */
uint64_t
model_rto_of(uint32_t timeout)
{
	long double ns;

	if (timeout == 0)
		return 0;
	ns = 4096.0L * (long double)(UINT64_C(1) << RTE_MIN(timeout, 31u));
	return (uint64_t)(ns * (long double)rte_get_timer_hz() / 1e9L) + 1;
}

uint64_t
model_rto_cycles(const struct model_qp *q)
{
	return q->rto_cycles;
}

uint64_t
model_rc_deadline(const struct model_qp *q, uint64_t now)
{
	return q->rto_cycles != 0 ? now + q->rto_cycles : 0;
}

/* IBA table 45, the RNR NAK timer field: 0 = 655.36 ms, 1 = 0.01 ms ... 31 = 491.52 ms. */
uint64_t
model_rnr_cycles(uint32_t code)
{
	static const uint32_t ten_us[32] = {
		65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
		256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384,
		24576, 32768, 49152,
	};

	return rte_get_timer_hz() * ten_us[code & 31u] / 100000u + 1;
}

static void
gid_v4(uint8_t gid[16], uint32_t ip)
{
	memset(gid, 0, 16);
	gid[10] = 0xff;
	gid[11] = 0xff;
	gid[12] = (uint8_t)(ip >> 24);
	gid[13] = (uint8_t)(ip >> 16);
	gid[14] = (uint8_t)(ip >> 8);
	gid[15] = (uint8_t)ip;
}

int
model_engine_attach(struct model_dev *d)
{
	const char *spec = d->cfg.wire[0] != '\0' ? d->cfg.wire : "loop";
	struct in_addr a;
	char ip[32];
	unsigned int i;
	int ret;

	if (strncmp(spec, "udp:", 4) == 0) {
		const char *colon = strchr(spec + 4, ':');
		size_t n = colon != NULL ? (size_t)(colon - spec - 4) : strlen(spec + 4);

		if (n >= sizeof(ip)) {
			MODEL_LOG(ERR, d, "wire \"%s\": bad address", spec);
			return -EINVAL;
		}
		memcpy(ip, spec + 4, n);
		ip[n] = '\0';
		if (inet_pton(AF_INET, ip, &a) != 1) {
			MODEL_LOG(ERR, d, "wire \"%s\": bad IPv4 address", spec);
			return -EINVAL;
		}
		gid_v4(d->gid, rte_be_to_cpu_32(a.s_addr));
	} else {
		gid_v4(d->gid, (UINT32_C(10) << 24) | ((uint32_t)d->cfg.mac[3] << 16) |
			       ((uint32_t)d->cfg.mac[4] << 8) | d->cfg.mac[5]);
	}
	/* The engine's timer constants, in timer cycles (no division on the data path). */
	d->ack_coalesce_cycles = rte_get_timer_hz() * MODEL_ACK_COALESCE_US / 1000000u;
	model_log_refresh(d);
	for (i = 0; i < RTE_DIM(d->rnr_cycles); i++)
		d->rnr_cycles[i] = model_rnr_cycles(i);
	/* The statistics instances now, not on the first frame the engine counts. */
	(void)model_stats_dflt(d);
	d->frame = malloc(MODEL_PKT_MAX);
	d->buf = malloc(MODEL_PKT_MAX);
	d->rx = malloc(MODEL_PKT_MAX);
	if (d->frame == NULL || d->buf == NULL || d->rx == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	ret = model_port_attach(spec, d->cfg.mac, d->gid, &d->port);
	if (ret != 0) {
		MODEL_LOG(ERR, d, "cannot attach to wire \"%s\": %s", spec, strerror(-ret));
		goto err;
	}
	return 0;
err:
	free(d->frame);
	free(d->buf);
	free(d->rx);
	d->frame = NULL;
	d->buf = NULL;
	d->rx = NULL;
	return ret;
}

void
model_engine_detach(struct model_dev *d)
{
	model_port_detach(d->port);
	d->port = NULL;
	free(d->frame);
	free(d->buf);
	free(d->rx);
	d->frame = NULL;
	d->buf = NULL;
	d->rx = NULL;
}

/* ---- scheduling: the run list and the timer list ---- */

/* Take QP @p id off the timer list (swap with the last entry). */
static void
tmr_remove(struct model_dev *d, uint32_t id)
{
	uint32_t pos = d->qp[id].tmr_pos, last = d->tmr[--d->tmr_cnt];

	d->tmr[pos] = last;
	d->qp[last].tmr_pos = pos;
	d->qp[id].sched = MODEL_SCHED_NONE;
}

void
model_engine_wake(struct model_dev *d, uint32_t qp_id)
{
	struct model_qp *q = &d->qp[qp_id];

	if (q->sched == MODEL_SCHED_RUN || d->run == NULL)
		return;
	if (q->sched == MODEL_SCHED_TIMER)
		tmr_remove(d, qp_id);
	q->sched = MODEL_SCHED_RUN;
	d->run[d->run_cnt++] = qp_id;
}

/* Put QP @p id, just taken off the run list, on the timer list until @p at. */
static void
tmr_add(struct model_dev *d, uint32_t id, uint64_t at)
{
	struct model_qp *q = &d->qp[id];

	q->sched = MODEL_SCHED_TIMER;
	q->tmr_at = at;
	q->tmr_pos = d->tmr_cnt;
	d->tmr[d->tmr_cnt++] = id;
	if (d->tmr_cnt == 1 || at < d->tmr_next)
		d->tmr_next = at;
}

/* The timer list's QPs whose deadline passed at @p now back to the run list. */
static void
tmr_expire(struct model_dev *d, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	uint32_t i = 0;

	while (i < d->tmr_cnt) {
		uint32_t id = d->tmr[i];

		if (d->qp[id].tmr_at <= now) {
			MODEL_CNT(d, timer_wakes, 1);
			model_engine_wake(d, id);	/* swaps the last entry into i */
			continue;
		}
		next = RTE_MIN(next, d->qp[id].tmr_at);
		i++;
	}
	d->tmr_next = next;
}

/*
 * After a round worked on @p q: whether it still has work for the next round (output the
 * burst or the wire's queue held back, a doorbell the window has room for); if not, the
 * earliest of its timers in *at (retransmit, RNR back-off, the ACK coalescing bound), or
 * 0 for none (it sleeps until a doorbell, a packet or a modify wakes it).
 */
static bool
qp_has_work(const struct model_dev *d, const struct model_qp *q, uint64_t *at)
{
	const struct model_qpe *e = q->eng;
	uint64_t t = UINT64_MAX;

	*at = 0;
	if (q->state != IRDMA_QP_HW_RTS && q->state != IRDMA_QP_HW_SQD &&
	    q->state != IRDMA_QP_HW_RTR)
		return false;
	if (q->type == IRDMA_QP_TYPE_ROCE_UD)
		return q->db && q->state == IRDMA_QP_HW_RTS;
	if (e->rr_cnt > 0 || e->ack_pending)
		return true;
	if (q->state != IRDMA_QP_HW_RTR) {
		if (q->db && q->state == IRDMA_QP_HW_RTS && e->w_cnt < MODEL_SQ_WINDOW)
			return true;
		if (e->rnr_until == 0 && e->tx_i < e->w_cnt &&
		    model_psn_diff(e->npsn, e->una_psn) < (int32_t)MODEL_RC_PKT_WINDOW)
			return true;
	}
	if (e->deadline != 0)
		t = e->deadline;
	if (e->rnr_until != 0)
		t = RTE_MIN(t, e->rnr_until);
	if (e->unacked > 0)
		t = RTE_MIN(t, e->unacked_since + d->ack_coalesce_cycles);
	*at = t != UINT64_MAX ? t : 0;
	return false;
}

/* Insertion sort of the run list by QP id (new entries are appended; mostly sorted). */
static void
run_sort(struct model_dev *d)
{
	uint32_t i, j;

	for (i = 1; i < d->run_cnt; i++) {
		uint32_t id = d->run[i];

		for (j = i; j > 0 && d->run[j - 1] > id; j--)
			d->run[j] = d->run[j - 1];
		d->run[j] = id;
	}
}

void
model_engine_doorbell(struct model_dev *d, uint32_t qp_id)
{
	struct model_qp *q = model_engine_qp(d, qp_id);

	MODEL_INC(d, sq_doorbells);
	if (q == NULL) {
		MODEL_INC(d, sq_doorbell_refused);
		MODEL_LOG(DEBUG, d, "SQ doorbell for QP %u: no such QP", qp_id);
		return;
	}
	q->db = true;
	model_engine_wake(d, qp_id);
}

/* ---- headers and sending ---- */

static void
mac_bytes(uint64_t mac, uint8_t out[6])
{
	int i;

	for (i = 5; i >= 0; i--) {
		out[i] = (uint8_t)mac;
		mac >>= 8;
	}
}

/* Address words 0..3 (word 3 the IPv4 address) as a GID. */
static void
ip_words_gid(const uint32_t w[4], bool ipv4, uint8_t gid[16])
{
	unsigned int i;

	if (ipv4) {
		gid_v4(gid, w[3]);
		return;
	}
	for (i = 0; i < 4; i++) {
		gid[4 * i] = (uint8_t)(w[i] >> 24);
		gid[4 * i + 1] = (uint8_t)(w[i] >> 16);
		gid[4 * i + 2] = (uint8_t)(w[i] >> 8);
		gid[4 * i + 3] = (uint8_t)w[i];
	}
}

/* The headers of QP @p q that do not change from packet to packet (model_hdr_init()). */
static void
hdr_build(struct model_dev *d, const struct model_qp *q, struct model_pkt_hdr *h)
{
	uint64_t dmac;

	memset(h, 0, sizeof(*h));
	if (q->arp_idx == 0 || model_arp_mac(d, q->arp_idx, &dmac) != 0)
		memcpy(h->dmac, d->cfg.mac, 6);
	else
		mac_bytes(dmac, h->dmac);
	if (q->mac != 0)
		mac_bytes(q->mac, h->smac);
	else
		memcpy(h->smac, d->cfg.mac, 6);
	h->has_vlan = q->insert_vlan;
	h->vlan_tci = q->vlan_tag;
	h->ipv4 = q->ipv4;
	if ((q->local_ip[0] | q->local_ip[1] | q->local_ip[2] | q->local_ip[3]) != 0) {
		ip_words_gid(q->local_ip, q->ipv4, h->sgid);
	} else if (q->ipv4) {
		memcpy(h->sgid, d->gid, 16);
	} else {
		/* IPv6 without a local address: the port's link-local fe80::<MAC>. */
		memset(h->sgid, 0, 16);
		h->sgid[0] = 0xfe;
		h->sgid[1] = 0x80;
		memcpy(&h->sgid[10], h->smac, 6);
	}
	ip_words_gid(q->dest_ip, q->ipv4, h->dgid);
	h->tos = q->tos;
	h->ttl = q->ttl != 0 ? q->ttl : 64;
	h->flow_label = q->flow_label;
	h->sport = q->src_port;
	h->migreq = true;
	h->pkey = q->pkey != 0 ? q->pkey : MODEL_DEFAULT_PKEY;
	h->dqpn = q->dest_qpn;
}

const struct model_pkt_hdr *
model_hdr_tmpl(struct model_dev *d, const struct model_qp *q)
{
	struct model_qpe *e = q->eng;

	if (e->hdr_gen != d->ctx_gen) {
		hdr_build(d, q, &e->hdr);
		e->hdr_gen = d->ctx_gen;
	}
	return &e->hdr;
}

void
model_hdr_init(struct model_dev *d, const struct model_qp *q, struct model_pkt_hdr *h,
	       uint8_t opcode, uint32_t psn)
{
	if (q->eng == NULL)
		hdr_build(d, q, h);
	else
		memcpy(h, model_hdr_tmpl(d, q), sizeof(*h)); /* the padding too: a template's key */
	h->ip_id = model_port_ip_id(d->port);
	h->opcode = opcode;
	h->psn = psn & 0xffffffu;
}

/*
 * The counter a RoCE opcode counts in when sent / when taken by a QP (IRDMA_HW_STAT_* + 1;
 * 0: none): SEND and WRITE packets of every position, READ requests, atomic requests (gen3's
 * counters). Read responses, ACKs and atomic acknowledges have no counter of their own.
 */
#define OP_CLASS(tx, rx) { IRDMA_HW_STAT_##tx + 1, IRDMA_HW_STAT_##rx + 1 }
static const uint8_t op_stat[256][2] = {
	[MODEL_RC_SEND_FIRST] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_MIDDLE] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_LAST] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_LAST_IMM] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_ONLY] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_ONLY_IMM] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_LAST_INV] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_SEND_ONLY_INV] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_UD_SEND_ONLY] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_UD_SEND_ONLY_IMM] = OP_CLASS(RDMATXSNDS, RDMARXSNDS),
	[MODEL_RC_WRITE_FIRST] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_WRITE_MIDDLE] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_WRITE_LAST] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_WRITE_LAST_IMM] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_WRITE_ONLY] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_WRITE_ONLY_IMM] = OP_CLASS(RDMATXWRS, RDMARXWRS),
	[MODEL_RC_READ_REQ] = OP_CLASS(RDMATXRDS, RDMARXRDS),
	[MODEL_RC_CMP_SWAP] = OP_CLASS(RDMATXATS, RDMARXATS),
	[MODEL_RC_FETCH_ADD] = OP_CLASS(RDMATXATS, RDMARXATS),
};

/* Bytes of the Ethernet header in front of the IP header (with the 802.1Q tag). */
static inline uint32_t
eth_hlen(const struct model_pkt_hdr *h)
{
	return 14u + (h->has_vlan ? 4u : 0u);
}

/* Add @p n to a model counter only the engine writes (as MODEL_CNT does). */
static inline void
cnt_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

_Static_assert(IRDMA_HW_STAT_IP4RXOCTS + 1 == IRDMA_HW_STAT_IP4RXPKTS &&
	       IRDMA_HW_STAT_IP6RXOCTS + 1 == IRDMA_HW_STAT_IP6RXPKTS &&
	       IRDMA_HW_STAT_IP4TXOCTS + 1 == IRDMA_HW_STAT_IP4TXPKTS &&
	       IRDMA_HW_STAT_IP6TXOCTS + 1 == IRDMA_HW_STAT_IP6TXPKTS,
	       "every IP Octets counter precedes its Pkts counter");

/*
 * Count one RoCEv2 frame of @p flen bytes the port sent (@p rx false) or received: in the
 * model's counters (whole frames) and in statistics instance @p st (IP datagrams: the frame
 * less its Ethernet header, as the IP-MIB counts octets; UDP datagrams).
 */
static inline void
count_frame(struct model_dev *d, uint64_t *st, const struct model_pkt_hdr *h, uint32_t flen,
	    bool rx)
{
	struct irdma_model_stats *m = &d->st;
	unsigned int pkts;	/* the Octets counter is the one before each Pkts counter */

	if (rx) {
		pkts = h->ipv4 ? IRDMA_HW_STAT_IP4RXPKTS : IRDMA_HW_STAT_IP6RXPKTS;
		cnt_add(h->ipv4 ? &m->ip4_in_pkts : &m->ip6_in_pkts, 1);
		cnt_add(h->ipv4 ? &m->ip4_in_octets : &m->ip6_in_octets, flen);
		cnt_add(&m->udp_in_datagrams, 1);
		cnt_add(&m->rx_roce_pkts, 1);
		MODEL_HW(st, UDPRXPKTS, 1);
	} else {
		pkts = h->ipv4 ? IRDMA_HW_STAT_IP4TXPKTS : IRDMA_HW_STAT_IP6TXPKTS;
		cnt_add(h->ipv4 ? &m->ip4_out_pkts : &m->ip6_out_pkts, 1);
		cnt_add(h->ipv4 ? &m->ip4_out_octets : &m->ip6_out_octets, flen);
		cnt_add(&m->udp_out_datagrams, 1);
		MODEL_HW(st, UDPTXPKTS, 1);
	}
	st[pkts]++;
	st[pkts - 1] += flen - eth_hlen(h);
}

/* Count the opcode class of a frame sent (@p rx false) or taken by a QP in @p st. */
static inline void
count_class(uint64_t *st, uint8_t opcode, bool rx)
{
	uint8_t cls = op_stat[opcode][rx ? 1 : 0];

	if (cls != 0)
		st[cls - 1u]++;
}

/*
 * Where the next frame is built: the loop wire's buffer, which a send hands over to the
 * receiver's queue without a copy (model_port_tx_buf()), or d->frame on other wires.
 */
static inline uint8_t *
tx_frame(struct model_dev *d)
{
	uint8_t *f = model_port_tx_buf(d->port);

	return f != NULL ? f : d->frame;
}

/* BTH opcodes of the RC transport (IBA 9.2: opcode bits 7:5 000). */
#define BTH_RC_OPCODE(op)	(((op) & 0xe0u) == 0)

uint8_t *
model_tx_prep(struct model_dev *d, const struct model_pkt_hdr *h, uint32_t len)
{
	uint8_t *payload, *f = tx_frame(d);
	int n;

	/*
	 * An RC frame no wire, fault or capture will see goes with its description: its
	 * header bytes are written only if a receive reads them (model_port_send_bare()). A
	 * UD receive copies the IP header into the GRH: built in full.
	 */
	d->frame_bare = BTH_RC_OPCODE(h->opcode) && model_port_bare(d->port);
	if (d->frame_bare)
		n = model_pkt_build_bare(h, len, f, MODEL_PKT_MAX, &payload);
	else
		n = model_pkt_build_hdr_tmpl(&d->tx_tmpl[h->dqpn & (MODEL_TX_TMPLS - 1)], h, len,
					     f, MODEL_PKT_MAX, &payload);
	if (n < 0) {
		MODEL_INC(d, tx_build_errors);
		MODEL_LOG(ERR, d, "cannot build a frame (opcode 0x%x, %u bytes): %s", h->opcode,
			  len, strerror(-n));
		return NULL;
	}
	d->frame_buf = f;
	d->frame_len = (uint32_t)n;
	d->frame_poff = (uint32_t)(payload - f);
	d->frame_plen = len;
	return payload;
}

int
model_tx_commit(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h)
{
	uint32_t n = d->frame_len;
	int ret;

	/*
	 * The ICRC: the port writes it unless the frame never leaves the process untouched; so
	 * handed over, the header goes with it (the receiver need not parse it).
	 */
	ret = d->frame_bare ?
	      model_port_send_bare(d->port, d->frame_buf, n, h, d->frame_poff, d->frame_plen) :
	      model_port_send_desc(d->port, d->frame_buf, n, h, d->frame_poff, d->frame_plen);
	if (ret == -ENOBUFS) {
		/* The wire's queue is full: the caller keeps the packet for the next round. */
		MODEL_INC(d, tx_busy);
		return ret;
	}
	count_frame(d, q->hw_st, h, n, false);
	count_class(q->hw_st, h->opcode, false);
	return ret;
}

int
model_tx_commit_train(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h,
		      const struct model_pkt_train *t)
{
	struct model_pkt_train tr = *t;
	uint32_t k = tr.count, f0, fm, fl;
	int ret;

	/* the frames it stands for, each as it would be built alone */
	f0 = model_pkt_frame_len(h, h->opcode, tr.stride);
	fm = model_pkt_frame_len(h, tr.mid_op, tr.stride);
	fl = model_pkt_frame_len(h, tr.last_op, d->frame_plen - tr.stride * (k - 1));
	tr.bytes = f0 + fm * (k - 2) + fl;
	ret = model_port_send_train(d->port, d->frame_buf, d->frame_len, h, d->frame_poff,
				    d->frame_plen, &tr);
	if (ret == -ENOBUFS) {
		MODEL_INC(d, tx_busy);
		return ret;
	}
	MODEL_INC(d, tx_trains);
	count_frame(d, q->hw_st, h, f0, false);
	count_class(q->hw_st, h->opcode, false);
	for (uint32_t i = 1; i + 1 < k; i++) {
		count_frame(d, q->hw_st, h, fm, false);
		count_class(q->hw_st, tr.mid_op, false);
	}
	count_frame(d, q->hw_st, h, fl, false);
	count_class(q->hw_st, tr.last_op, false);
	return ret;
}

int
model_tx(struct model_dev *d, struct model_qp *q, const struct model_pkt_hdr *h,
	 const void *payload, uint32_t len)
{
	uint8_t *p = model_tx_prep(d, h, len);

	if (p == NULL)
		return -EINVAL;
	if (len > 0)
		memcpy(p, payload, len);
	return model_tx_commit(d, q, h);
}

/* ---- completions ---- */

void
model_sq_tail_update(struct model_dev *d, const struct model_qp *q, uint32_t tail)
{
	/* A WQE's index plus its quanta: below twice the ring (no division). */
	if (tail >= q->sq.size)
		tail = unlikely(tail >= 2 * q->sq.size) ? tail % q->sq.size : tail - q->sq.size;
	(void)model_dma_store64(d, q->shadow_pa + IRDMA_FIELD_BYTE(QP_SHADOW_HW_SQ_TAIL),
				IRDMA_PREP(QP_SHADOW_HW_SQ_TAIL, tail));
}

static void
sq_cqe_fill(struct irdma_cqe *cqe, const struct model_qp *q, uint32_t qp_id, uint32_t idx,
	    uint8_t op)
{
	memset(cqe, 0, sizeof(*cqe));
	irdma_set(cqe, CQE_COMP_CTX, q->compl_ctx);
	irdma_set(cqe, CQE_QPID, qp_id);
	irdma_set(cqe, CQE_WQEIDX, idx);
	irdma_set(cqe, CQE_OP, op);
	irdma_set(cqe, CQE_SQ, IRDMA_CQE_QTYPE_SQ);
}

void
model_sq_cqe(struct model_dev *d, uint32_t qp_id, const struct model_wqe *w)
{
	struct model_qp *q = model_engine_qp(d, qp_id);
	struct irdma_cqe cqe;

	if (q == NULL)
		return;
	model_sq_tail_update(d, q, w->idx + w->quanta);
	if (!(w->flags & MODEL_WQE_SIGNALED))
		return;
	sq_cqe_fill(&cqe, q, qp_id, w->idx, w->op);
	MODEL_INC(d, sq_cqes);
	(void)model_cq_post(d, q->tx_cq, &cqe);
}

/* Whether the RQ holds a posted WQE the engine has not taken. */
static bool
rq_has_wqe(struct model_dev *d, const struct model_qp *q)
{
	rte_iova_t iova;
	uint64_t hdr;

	return model_ring_entry(d, &q->rq, q->eng->rq_next, &iova) == 0 &&
	       model_dma_load64(d, iova + IRDMA_FIELD_BYTE(RQ_VALID), &hdr) == 0 &&
	       IRDMA_GET(RQ_VALID, hdr) == q->eng->rq_pol;
}

static bool
sq_has_wqe(struct model_dev *d, const struct model_qp *q)
{
	rte_iova_t iova;
	uint64_t hdr;

	return model_ring_entry(d, &q->sq, q->eng->sq_next, &iova) == 0 &&
	       model_dma_load64(d, iova + IRDMA_FIELD_BYTE(SQ_VALID), &hdr) == 0 &&
	       IRDMA_GET(SQ_VALID, hdr) == q->eng->sq_pol;
}

/* One flush CQE: major FLUSH, minor @p code (the driver replays it for every WQE left). */
static void
flush_cqe(struct model_dev *d, struct model_qp *q, uint32_t qp_id, bool sq, uint32_t idx,
	  uint8_t op, uint16_t code)
{
	struct irdma_cqe cqe;

	sq_cqe_fill(&cqe, q, qp_id, idx, op);
	irdma_set(&cqe, CQE_SQ, sq ? IRDMA_CQE_QTYPE_SQ : IRDMA_CQE_QTYPE_RQ);
	irdma_set(&cqe, CQE_ERROR, 1);
	irdma_set(&cqe, CQE_MAJERR, IRDMA_CQE_MAJOR_FLUSH);
	irdma_set(&cqe, CQE_MINERR, code);
	MODEL_INC(d, flush_cqes);
	(void)model_cq_post(d, sq ? q->tx_cq : q->rx_cq, &cqe);
}

void
model_sq_flush_cqe(struct model_dev *d, struct model_qp *q, uint32_t qp_id, uint32_t idx,
		   uint8_t op, uint16_t code)
{
	flush_cqe(d, q, qp_id, true, idx, op, code);
}

void
model_engine_flush(struct model_dev *d, uint32_t qp_id, bool sq, bool rq, uint16_t sq_code,
		   uint16_t rq_code)
{
	struct model_qp *q = model_engine_qp(d, qp_id);
	struct model_qpe *e;

	if (q == NULL)
		return;
	e = q->eng;
	if (sq && !e->sq_flush_done) {
		if (e->w_cnt > 0) {
			const struct model_wqe *w = &e->w[e->w_head];

			flush_cqe(d, q, qp_id, true, w->idx, w->op, sq_code);
			e->sq_flush_done = true;
		} else if (sq_has_wqe(d, q)) {
			flush_cqe(d, q, qp_id, true, e->sq_next, IRDMA_OP_NOP, sq_code);
			e->sq_flush_done = true;
		}
	}
	if (rq && !e->rq_flush_done) {
		if (e->rx_active && q->use_srq) {
			/* Only the SRQ WQE this QP took: the rest stay for the others. */
			model_srq_flush_cqe(d, qp_id, q, e->rx_idx, rq_code);
			e->rq_flush_done = true;
		} else if (e->rx_active) {
			flush_cqe(d, q, qp_id, false, e->rx_idx, IRDMA_OP_REC, rq_code);
			e->rq_flush_done = true;
		} else if (!q->use_srq && rq_has_wqe(d, q)) {
			flush_cqe(d, q, qp_id, false, e->rq_next, IRDMA_OP_REC, rq_code);
			e->rq_flush_done = true;
		}
	}
}

void
model_qp_fail(struct model_dev *d, uint32_t qp_id, uint32_t ae, uint32_t src)
{
	struct model_qp *q = model_engine_qp(d, qp_id);
	uint16_t code;

	if (q == NULL || q->state == IRDMA_QP_HW_ERROR)
		return;
	code = (uint16_t)irdma_ae_to_flush_code(ae, NULL);
	MODEL_LOG(DEBUG, d, "QP %u to error: AE 0x%x (flush code %u)", qp_id, ae, code);
	MODEL_INC(d, qp_errors);
	q->state = IRDMA_QP_HW_ERROR;
	model_aeq_post(d, ae, src, qp_id, q->compl_ctx);
	/*
	 * The failing WQE (the oldest outstanding of the queue the AE names) carries the code;
	 * the rest replay from it; the other queue is flushed with GENERAL.
	 */
	if (src == IRDMA_AE_SOURCE_SQ)
		model_engine_flush(d, qp_id, true, true, code, IRDMA_FLUSH_GENERAL_ERR);
	else if (src == IRDMA_AE_SOURCE_RQ || q->eng->rx_active)
		model_engine_flush(d, qp_id, true, true, IRDMA_FLUSH_GENERAL_ERR, code);
	else /* a responder error with no receive involved (WRITE, READ) */
		model_engine_flush(d, qp_id, true, true, IRDMA_FLUSH_GENERAL_ERR,
				   IRDMA_FLUSH_GENERAL_ERR);
	q->eng->deadline = 0;
	q->db = false;
}

/* ---- state hooks ---- */

static int
qpe_reset(struct model_dev *d, struct model_qp *q)
{
	if (d->run == NULL) {
		/* Twice the table: a round's stale slots plus the QPs woken during it. */
		d->run = calloc(2 * (size_t)d->qp_tab, sizeof(*d->run));
		d->tmr = calloc(d->qp_tab, sizeof(*d->tmr));
		if (d->run == NULL || d->tmr == NULL) {
			free(d->run);
			free(d->tmr);
			d->run = NULL;
			d->tmr = NULL;
			return -ENOMEM;
		}
		d->run_cnt = 0;
		d->tmr_cnt = 0;
	}
	if (q->eng == NULL) {
		q->eng = malloc(sizeof(*q->eng));
		if (q->eng == NULL)
			return -ENOMEM;
		d->eng_qps++;
	}
	memset(q->eng, 0, sizeof(*q->eng));
	/* SW flips its polarity from 0 before writing index 0: the first pass is 1. */
	q->eng->sq_pol = IRDMA_WQ_POLARITY_INIT ^ 1;
	q->eng->rq_pol = IRDMA_WQ_POLARITY_INIT ^ 1;
	return 0;
}

void
model_engine_qp_state(struct model_dev *d, uint32_t qp_id, uint8_t old, uint8_t next)
{
	struct model_qp *q = &d->qp[qp_id];
	bool was_up = old == IRDMA_QP_HW_RTR || old == IRDMA_QP_HW_RTS || old == IRDMA_QP_HW_SQD;
	bool is_up = next == IRDMA_QP_HW_RTR || next == IRDMA_QP_HW_RTS || next == IRDMA_QP_HW_SQD;

	if (was_up && !is_up && q->eng != NULL)
		model_rc_resp_ack_flush(d, q);
	if (next == IRDMA_QP_HW_IDLE && old != IRDMA_QP_HW_IDLE) {
		if (qpe_reset(d, q) != 0) {
			MODEL_LOG(ERR, d, "QP %u: no memory for the engine state", qp_id);
			q->state = IRDMA_QP_HW_ERROR;
		}
		return;
	}
	if (q->eng == NULL)
		return;
	if (next == IRDMA_QP_HW_RTR && old != IRDMA_QP_HW_RTR) {
		q->eng->epsn = q->rq_psn & 0xffffffu;
		q->eng->msn = 0;
	}
	if (next == IRDMA_QP_HW_RTS && old == IRDMA_QP_HW_RTR) {
		q->eng->npsn = q->sq_psn & 0xffffffu;
		q->eng->una_psn = q->eng->npsn;
		q->eng->hi_psn = q->eng->npsn;
	}
	if (next == IRDMA_QP_HW_ERROR) {
		q->eng->deadline = 0;
		q->db = false;
	}
	/* A new state may let held work run (a doorbell rung before RTS): look at it. */
	model_engine_wake(d, qp_id);
}

void
model_engine_qp_destroy(struct model_dev *d, struct model_qp *q)
{
	uint32_t id = (uint32_t)(q - d->qp), i;

	if (q->eng != NULL && (q->state == IRDMA_QP_HW_RTR || q->state == IRDMA_QP_HW_RTS ||
			       q->state == IRDMA_QP_HW_SQD))
		model_rc_resp_ack_flush(d, q);
	if (q->sched == MODEL_SCHED_TIMER) {
		tmr_remove(d, id);
	} else if (q->sched == MODEL_SCHED_RUN) {
		for (i = 0; d->run[i] != id; i++)
			;
		memmove(&d->run[i], &d->run[i + 1], (d->run_cnt - i - 1) * sizeof(d->run[0]));
		d->run_cnt--;
		q->sched = MODEL_SCHED_NONE;
	}
	if (q->eng != NULL)
		d->eng_qps--;
	free(q->eng);
	q->eng = NULL;
}

void
model_engine_free(struct model_dev *d)
{
	free(d->run);
	free(d->tmr);
	d->run = NULL;
	d->tmr = NULL;
	d->run_cnt = 0;
	d->tmr_cnt = 0;
}

/* ---- one round ---- */

/*
 * desc_check: a described frame parsed as well; its description must be what the parse
 * gives, or the model stops (a test run's check that the two paths agree).
 */
static void
desc_verify(struct model_dev *d, const struct model_pkt_desc *dc, const uint8_t *frame,
	    const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len)
{
	if (memcmp(&dc->h, h, sizeof(*h)) == 0 && frame + dc->payload_off == payload &&
	    dc->len == len)
		return;
	for (size_t i = 0; i < sizeof(*h); i++)
		if (((const uint8_t *)&dc->h)[i] != ((const uint8_t *)h)[i])
			MODEL_LOG(ERR, d, "described frame: header byte %zu is 0x%02x, parsed 0x%02x",
				  i, ((const uint8_t *)&dc->h)[i], ((const uint8_t *)h)[i]);
	MODEL_LOG(ERR, d, "described frame (opcode 0x%02x): payload at %u (%u bytes), parsed at "
		  "%u (%u bytes)", h->opcode, dc->payload_off, dc->len,
		  (uint32_t)(payload - frame), len);
	abort();
}

/* A packet of @p flen bytes (its frame's) with header @p hp: counted, to its QP. */
static inline void
rx_take(struct model_dev *d, const struct model_pkt_hdr *hp, const uint8_t *payload,
	uint32_t len, uint32_t flen)
{
	struct model_qp *q = model_engine_qp(d, hp->dqpn);
	uint64_t *st;

	if (q == NULL || q->state == IRDMA_QP_HW_ERROR || q->state == IRDMA_QP_HW_IDLE ||
	    q->state == IRDMA_QP_HW_INVALID) {
		/* Delivered to the device, taken by no QP: a discard. */
		st = q != NULL ? q->hw_st : model_stats_dflt(d);
		count_frame(d, st, hp, flen, true);
		MODEL_INC(d, rx_no_qp);
		if (hp->ipv4)
			MODEL_HW(st, IP4RXDISCARD, 1);
		else
			MODEL_HW(st, IP6RXDISCARD, 1);
		return;
	}
	count_frame(d, q->hw_st, hp, flen, true);
	count_class(q->hw_st, hp->opcode, true);
	model_engine_wake(d, hp->dqpn);
	if (q->type == IRDMA_QP_TYPE_ROCE_UD)
		model_ud_rx(d, hp->dqpn, q, hp, payload, len);
	else
		model_rc_rx(d, hp->dqpn, q, hp, payload, len);
}

/* The packets of a train (model_port_send_train()), each as if it had come alone. */
static void
rx_train(struct model_dev *d, const struct model_pkt_desc *dc, const uint8_t *frame)
{
	for (uint32_t i = 0; i < dc->tr.count; i++) {
		struct model_pkt_hdr h;
		uint32_t off, len, flen;

		flen = model_pkt_train_pkt(dc, i, &h, &off, &len);
		rx_take(d, &h, frame + dc->payload_off + off, len, flen);
	}
}

static void
engine_rx(struct model_dev *d)
{
	unsigned int n;

	for (n = 0; n < MODEL_RX_BURST; n++) {
		const struct model_pkt_desc *dc;
		const struct model_pkt_hdr *hp;
		struct model_pkt_hdr h;
		const uint8_t *payload, *frame;
		uint32_t len;
		bool sealed;
		int flen, ret;

		/*
		 * In place in the wire's queue, or copied into an own buffer: handling a packet
		 * may send (tx_frame()) before using its payload.
		 */
		flen = model_port_recv_ref(d->port, d->rx, MODEL_PKT_MAX, &frame, &sealed);
		if (flen <= 0)
			return;
		d->rx_frame = frame;
		/* Built by an engine and handed over untouched: its header came along. */
		dc = sealed ? NULL : model_port_rx_desc(d->port);
		if (dc != NULL && !d->desc_check) {
			if (unlikely(dc->tr.count > 1)) {
				rx_train(d, dc, frame);
				continue;
			}
			hp = &dc->h;
			payload = frame + dc->payload_off;
			len = dc->len;
		} else {
			/* a bare frame gets its header bytes from the description first */
			ret = dc != NULL ? model_port_rx_fill(d->port) : 0;
			if (ret == 0)
				ret = model_pkt_parse_ex(frame, (uint32_t)flen, sealed, &h, &payload,
							 &len);
			if (ret != 0) {
				MODEL_INC(d, rx_bad_frames);
				if (ret == -EILSEQ)
					MODEL_HW(model_stats_dflt(d), ICRCERR, 1);
				continue;
			}
			if (dc != NULL)
				desc_verify(d, dc, frame, &h, payload, len);
			hp = &h;
		}
		rx_take(d, hp, payload, len, (uint32_t)flen);
	}
}

/* Work on QP @p i for one round (the per-QP part of a round). */
static void
qp_visit(struct model_dev *d, uint32_t i, struct model_qp *q, uint64_t now)
{
	if (!q->valid || q->eng == NULL || q->state == IRDMA_QP_HW_ERROR ||
	    q->state == IRDMA_QP_HW_IDLE || q->state == IRDMA_QP_HW_INVALID)
		return;
	if (q->type == IRDMA_QP_TYPE_ROCE_UD) {
		model_ud_tx(d, i, q);
		return;
	}
	/* model_rc_timer() does nothing unless the RNR back-off or the retransmit timer is due. */
	if ((q->eng->rnr_until != 0 && now >= q->eng->rnr_until) ||
	    (q->eng->deadline != 0 && now >= q->eng->deadline))
		model_rc_timer(d, i, q, now);
	if (q->state != IRDMA_QP_HW_ERROR)
		model_rc_tx(d, i, q);
}

void
model_engine_step(struct model_dev *d)
{
	uint32_t i, k, n;
	uint64_t now, at;

	if (d->port == NULL)
		return;
	d->round++;
	engine_rx(d);
	if (d->qp == NULL || d->eng_qps == 0 || (d->run_cnt == 0 && d->tmr_cnt == 0))
		return;
	MODEL_CNT(d, engine_rounds, 1);
	if ((++d->log_rounds & (MODEL_LOG_ROUNDS - 1)) == 0)
		model_log_refresh(d);
	now = model_now();
	if (d->tmr_cnt > 0 && now >= d->tmr_next)
		tmr_expire(d, now);
	/* The QPs with work, in QP id order (the order of a scan of the whole table). */
	run_sort(d);
	n = d->run_cnt;
	for (i = 0, k = 0; i < n; i++) {
		uint32_t id = d->run[i];
		struct model_qp *q = &d->qp[id];

		MODEL_CNT(d, qp_visits, 1);
		qp_visit(d, id, q, now);
		if (qp_has_work(d, q, &at)) {
			d->run[k++] = id;
		} else if (at != 0) {
			tmr_add(d, id, at);
		} else {
			q->sched = MODEL_SCHED_NONE;
		}
	}
	/* QPs woken while the round ran: the next round. */
	for (; i < d->run_cnt; i++)
		d->run[k++] = d->run[i];
	d->run_cnt = k;
}

/* ---- diagnostics ---- */

int
irdma_model_wire_faults(struct irdma_hw *hw, const struct irdma_model_wire_faults *f)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_wire_faults wf;
	int ret;

	if (d == NULL)
		return -EINVAL;
	if (f != NULL)
		wf = (struct model_wire_faults){
			.drop_ppm = f->drop_ppm,
			.dup_ppm = f->dup_ppm,
			.reorder_ppm = f->reorder_ppm,
			.corrupt_ppm = f->corrupt_ppm,
			.seed = f->seed,
		};
	model_lock(&d->lock);
	ret = model_port_set_faults(d->port, f != NULL ? &wf : NULL);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_neigh(struct irdma_hw *hw, const uint8_t src[16], const uint8_t dst[16],
		  uint8_t mac[6])
{
	struct model_dev *d = model_dev_of(hw);
	int ret;

	if (d == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = model_port_neigh(d->port, src, dst, mac);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_port_gid(struct irdma_hw *hw, uint8_t gid[16])
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || gid == NULL)
		return -EINVAL;
	memcpy(gid, d->gid, 16);
	return 0;
}
