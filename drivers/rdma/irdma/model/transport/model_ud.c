/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCEv2 unreliable datagram: a SEND WQE names an address handle (AHID), the destination
 * QP and Q_Key; it goes out as one SEND_ONLY (+ImmDt) packet with a DETH carrying the Q_Key
 * and this QP's number, and completes at once. A received datagram is accepted when its
 * DETH Q_Key equals the QP's (else it is dropped and counted), takes the next RQ WQE (none:
 * dropped and counted) and completes with an extended CQE carrying the source QPN, MAC,
 * VLAN, IPv4 flag and immediate; its OP is the IBA operation of the opcode (0x04 SEND_ONLY,
 * 0x05 SEND_ONLY_IMM: the 6-bit field cannot hold the UD transport bits). As verbs and the
 * E810 do (the kernel reports the CQE's IPv4 bit as the network header type of the GRH
 * area), the receive buffer starts with a 40-byte GRH area holding the datagram's IP header
 * as received: an IPv6 header whole, an IPv4 header in its last 20 bytes (the first 20
 * zero); the payload follows it, and the completion's length counts the 40 bytes.
 * QP 1 is the GSI (the CM's MADs): a datagram to it must carry the GSI Q_Key 0x80010000
 * whatever its context holds (IBA 13.4.6.1; rxe's check_keys does the same), and a send
 * of it names source QP 1 as any UD send names its QP.
 * A send error puts the QP's send queue in error (verbs SQE; see ud_sq_error()).
 * Called with dev->lock held.
 */

#include <string.h>

#include <rte_byteorder.h>

#include "model_engine.h"
#include "model_opcode.h"

/* Ethernet header, 802.1Q tag, IPv4 (no options) and IPv6 header bytes. */
#define UD_ETH_HLEN	14u
#define UD_VLAN_HLEN	4u
#define UD_IPV4_HLEN	20u
#define UD_IPV6_HLEN	40u

/* Destination addressing of a UD send from its AH. */
static void
ud_hdr(struct model_dev *d, const struct model_qp *q, const struct model_ah_view *ah,
       const struct model_wqe *w, struct model_pkt_hdr *h)
{
	unsigned int i;
	uint64_t mac = ah->mac;

	model_hdr_init(d, q, h, model_wqe_bth(q->type, w->op, (w->flags & MODEL_WQE_IMM) != 0,
					      true, true), q->eng->npsn);
	for (i = 6; i-- > 0;) {
		h->dmac[i] = (uint8_t)mac;
		mac >>= 8;
	}
	h->ipv4 = ah->ipv4;
	memset(h->dgid, 0, sizeof(h->dgid));
	if (ah->ipv4) {
		h->dgid[10] = 0xff;
		h->dgid[11] = 0xff;
	}
	for (i = ah->ipv4 ? 3 : 0; i < 4; i++) {
		h->dgid[4 * i] = (uint8_t)(ah->dest[i] >> 24);
		h->dgid[4 * i + 1] = (uint8_t)(ah->dest[i] >> 16);
		h->dgid[4 * i + 2] = (uint8_t)(ah->dest[i] >> 8);
		h->dgid[4 * i + 3] = (uint8_t)ah->dest[i];
	}
	if (ah->src[0] | ah->src[1] | ah->src[2] | ah->src[3]) {
		/* The AH's source address (CREATE_ADDR_HANDLE), in the destination's family. */
		memset(h->sgid, 0, sizeof(h->sgid));
		if (ah->ipv4) {
			h->sgid[10] = 0xff;
			h->sgid[11] = 0xff;
		}
		for (i = ah->ipv4 ? 3 : 0; i < 4; i++) {
			h->sgid[4 * i] = (uint8_t)(ah->src[i] >> 24);
			h->sgid[4 * i + 1] = (uint8_t)(ah->src[i] >> 16);
			h->sgid[4 * i + 2] = (uint8_t)(ah->src[i] >> 8);
			h->sgid[4 * i + 3] = (uint8_t)ah->src[i];
		}
	} else if (ah->ipv4 != q->ipv4) {
		/* The source must be of the same family: the port's (IPv4) address. */
		memcpy(h->sgid, d->gid, sizeof(h->sgid));
	}
	h->has_vlan = ah->insert_vlan;
	h->vlan_tci = ah->vlan_tag;
	h->tos = ah->tc;
	h->ttl = ah->hop_limit != 0 ? ah->hop_limit : 64;
	h->flow_label = ah->flow_label;
	h->dqpn = w->dest_qpn;
	h->deth_qkey = w->dest_qkey;
	h->deth_sqpn = 0;
	h->se = (w->flags & MODEL_WQE_SOLICITED) != 0;
	h->imm_be = rte_cpu_to_be_32(w->imm);
}

/* Send one UD WQE; 0 or an AE code. */
static uint32_t
ud_send(struct model_dev *d, uint32_t qp_id, struct model_qp *q, const struct model_wqe *w)
{
	struct model_ah_view ah;
	struct model_pkt_hdr h;
	uint8_t *pay;
	int ret;

	if (w->op == IRDMA_OP_NOP)
		return 0;
	if (model_ah_view(d, w->ah_id, &ah) != 0)
		return IRDMA_AE_INVALID_AH_ENTRY;
	if (ah.pd != q->pd)
		return IRDMA_AE_UDA_XMIT_BAD_PD;
	/* UD QPs get no path MTU from the driver: the port's 4096 then. */
	if (w->len > (q->mss != 0 ? RTE_MIN(q->mss, 4096u) : 4096u))
		return IRDMA_AE_UDA_XMIT_DGRAM_TOO_LONG;
	ud_hdr(d, q, &ah, w, &h);
	h.deth_sqpn = qp_id;
	/* gathered straight into the frame (one that cannot be built is lost, as sent) */
	pay = model_tx_prep(d, &h, w->len);
	if (pay != NULL) {
		ret = model_gather(d, q, w, 0, pay, w->len);
		if (ret != 0)
			return (uint32_t)ret;
		(void)model_tx_commit(d, q, &h);
	}
	MODEL_INC(d, out_rdma_sends);
	q->eng->npsn = model_psn_add(q->eng->npsn, 1);
	return 0;
}

/*
 * Retire SQ WQE @p w (taken: @p ret > 0) with a flush CQE of minor @p code. A WQE the fetch
 * refused cannot be stepped over: the send queue stops at it until the next doorbell.
 */
static void
ud_sq_flush(struct model_dev *d, uint32_t qp_id, struct model_qp *q, const struct model_wqe *w,
	    int ret, uint16_t code)
{
	model_sq_flush_cqe(d, q, qp_id, w->idx, ret > 0 ? w->op : IRDMA_OP_NOP, code);
	if (ret > 0)
		model_sq_tail_update(d, q, w->idx + w->quanta);
	else
		q->db = false;
}

/*
 * A UD send error: verbs' SQE, as silicon keeps a UD QP running. The AE names the SQ; the
 * failing WQE completes with the AE's flush code and every WQE posted after it is flushed
 * (the driver replays the flush from its SQ tail); the receive side keeps working. MODIFY_QP
 * to RTS resumes the send queue (model_ud_sq_resume).
 */
static void
ud_sq_error(struct model_dev *d, uint32_t qp_id, struct model_qp *q, const struct model_wqe *w,
	    int ret, uint32_t ae)
{
	MODEL_INC(d, sq_wqe_errors);
	MODEL_LOG(DEBUG, d, "UD QP %u: send error AE 0x%x at SQ WQE %u: SQE", qp_id, ae, w->idx);
	q->eng->ud_sqe = true;
	model_aeq_post(d, ae, IRDMA_AE_SOURCE_SQ, qp_id, q->compl_ctx);
	ud_sq_flush(d, qp_id, q, w, ret, (uint16_t)irdma_ae_to_flush_code(ae, NULL));
}

void
model_ud_tx(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	struct model_wqe *w = &q->eng->w[0];
	unsigned int n;
	uint32_t ae;
	int ret;

	if (q->state != IRDMA_QP_HW_RTS)
		return;
	for (n = 0; q->db && n < MODEL_TX_BURST; n++) {
		ret = model_sq_fetch(d, qp_id, q, w, &ae);
		if (ret == 0) {
			q->db = false;
			return;
		}
		if (q->eng->ud_sqe) {
			/* In SQE every WQE is flushed, not sent. */
			ud_sq_flush(d, qp_id, q, w, ret, IRDMA_FLUSH_GENERAL_ERR);
			continue;
		}
		if (ret > 0)
			ae = ud_send(d, qp_id, q, w);
		if (ae != 0) {
			ud_sq_error(d, qp_id, q, w, ret, ae);
			continue;
		}
		model_sq_cqe(d, qp_id, w);
	}
}

void
model_ud_sq_resume(struct model_dev *d, uint32_t qp_id, struct model_qp *q)
{
	struct model_wqe *w;
	uint32_t ae;
	int ret;

	if (q->eng == NULL || !q->eng->ud_sqe)
		return;
	w = &q->eng->w[0];
	/* WRs posted while in SQE are flushed, as verbs says. */
	do {
		ret = model_sq_fetch(d, qp_id, q, w, &ae);
		if (ret > 0)
			ud_sq_flush(d, qp_id, q, w, ret, IRDMA_FLUSH_GENERAL_ERR);
	} while (ret > 0);
	q->eng->ud_sqe = false;
	q->eng->sq_flush_done = false;
	MODEL_LOG(DEBUG, d, "UD QP %u: SQE -> RTS", qp_id);
}

/*
 * The GRH area of a datagram received at d->rx_frame (the frame the engine is handling):
 * its IP header, IPv4 right-aligned in the 40 bytes.
 */
static void
ud_grh(const struct model_dev *d, const struct model_pkt_hdr *h, uint8_t grh[MODEL_UD_GRH_LEN])
{
	uint32_t off = UD_ETH_HLEN + (h->has_vlan ? UD_VLAN_HLEN : 0);

	memset(grh, 0, MODEL_UD_GRH_LEN);
	if (h->ipv4)
		memcpy(grh + MODEL_UD_GRH_LEN - UD_IPV4_HLEN, d->rx_frame + off, UD_IPV4_HLEN);
	else
		memcpy(grh, d->rx_frame + off, UD_IPV6_HLEN);
}

void
model_ud_rx(struct model_dev *d, uint32_t qp_id, struct model_qp *q,
	    const struct model_pkt_hdr *h, const uint8_t *payload, uint32_t len)
{
	struct model_frag frag[MODEL_MAX_FRAGS];
	uint8_t grh[MODEL_UD_GRH_LEN];
	struct model_rq_cqe c;
	uint32_t idx, ae;
	uint8_t nfrags;
	int ret;

	/* Only UD QPs come here: the row's UD bit is the QP-type check. */
	if (!(model_bth_ops[h->opcode].qp_types & MODEL_OPQ_UD)) {
		MODEL_INC(d, rx_no_qp); /* an RC packet at a UD QP */
		return;
	}
	if (h->deth_qkey != (qp_id == IRDMA_GSI_QP_ID ? IRDMA_GSI_QKEY : q->qkey)) {
		MODEL_INC(d, rx_qkey_drops);
		return;
	}
	ret = model_rq_peek(d, qp_id, q, frag, &nfrags, &idx, &ae);
	if (ret == 0) {
		MODEL_INC(d, rx_no_rqe_drops);
		return;
	}
	if (ret < 0) {
		model_qp_fail(d, qp_id, ae, IRDMA_AE_SOURCE_RQ);
		return;
	}
	if ((uint64_t)len + MODEL_UD_GRH_LEN > model_frags_len(frag, nfrags)) {
		/* The GRH area and the datagram do not fit: dropped, the RQ WQE stays. */
		MODEL_INC(d, rx_len_drops);
		return;
	}
	ud_grh(d, h, grh);
	ae = model_scatter(d, q, frag, nfrags, 0, grh, MODEL_UD_GRH_LEN);
	if (ae == 0)
		ae = model_scatter(d, q, frag, nfrags, MODEL_UD_GRH_LEN, payload, len);
	if (ae != 0) {
		model_qp_fail(d, qp_id, ae, IRDMA_AE_SOURCE_RQ);
		return;
	}
	model_rq_consume(q);
	MODEL_INC(d, in_rdma_sends);
	memset(&c, 0, sizeof(c));
	c.idx = idx;
	c.len = len + MODEL_UD_GRH_LEN;
	/* The CQE's 6-bit OP holds the IBA operation (SEND_ONLY / _IMM), not the UD prefix. */
	c.op = h->opcode & 0x1fu;
	c.solicited = h->se;
	c.ud = true;
	c.src_qpn = h->deth_sqpn;
	memcpy(c.smac, h->smac, sizeof(c.smac));
	c.ipv4 = h->ipv4;
	c.vlan_valid = h->has_vlan;
	c.vlan = h->vlan_tci;
	if (model_bth_is(h->opcode, MODEL_OPF_IMM)) {
		c.imm_valid = true;
		c.imm = rte_be_to_cpu_32(h->imm_be);
	}
	model_rq_cqe(d, qp_id, &c);
}
