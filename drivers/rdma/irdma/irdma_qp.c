/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * RoCE RC / UD QPs of the irdma PMD: create (sizing, memory, host context, CREATE_QP),
 * modify (context update and the verbs -> HW state mapping of the kernel's
 * irdma_modify_qp_roce, doc/hardware.md §5.4) and destroy.
 *
 * Memory: one VA-contiguous buffer of 4 KB pages holds SQ pages | RQ pages | the 64-byte
 * shadow area on the next page (doc/hardware.md §6.4); the context gets the SQ and RQ IOVAs when
 * each is IOVA-contiguous, else one level-1 PBLE run covers SQ then RQ pages and the context
 * holds PBLE indices with CREATE_QP.VQ set (the kernel's irdma_handle_q_mem, §6.3; level 1
 * always when the device was opened with ring_pbl=1). A 512-byte buffer holds Q2 (+0) and
 * the 256-byte host context (+256).
 *
 * Addressing: a modify whose AV carries a destination MAC takes a reference on the ARP entry
 * of (MAC, destination GID) (irdma_ah.c, MANAGE_ARP) and names it in QPC_ARPIDX /
 * QPC_REMENDPOINTIDX; the previous entry is released when the modify succeeds, the new one
 * when it fails, the last one at RESET and destroy. An AV without a MAC keeps the reserved
 * default index IRDMA_QP_ARP_IDX (0).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_ah.h"
#include "irdma_cq.h"
#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_log.h"
#include "irdma_mr.h"
#include "irdma_port.h"
#include "irdma_qp.h"
#include "irdma_srq.h"
#include "irdma_uk.h"

/** The reserved default ARP index (an AV without a destination MAC). */
#define IRDMA_QP_ARP_IDX	0u
/** The only P_Key (max_pkeys 1): the default full-membership key. */
#define IRDMA_QP_DEFAULT_PKEY	0xffffu
/** Limit sequence number the kernel starts an RC QP with (udp_info->lsn). */
#define IRDMA_QP_INIT_LSN	0xffffu
/** Shift of the priority (SL) inside the VLAN tag. */
#define IRDMA_QP_VLAN_PRIO_SHIFT	13u
/** Priority bits of the VLAN tag. */
#define IRDMA_QP_VLAN_PRIO_MASK		7u
/** Largest VLAN id. */
#define IRDMA_QP_VLAN_MAX	4095u
/** Alignment of the QP ring buffer (queue pages). */
#define IRDMA_QP_RING_ALIGN	IRDMA_HW_PAGE_SIZE
/** Bytes of the Q2 + host-context buffer. */
#define IRDMA_QP_HCTX_LEN	(IRDMA_Q2_BUF_SIZE + IRDMA_QP_CTX_SIZE)

/* Bytes of a ring of @p quanta, rounded to whole queue pages. */
static size_t
irdma_qp_ring_bytes(uint32_t quanta)
{
	return RTE_ALIGN_CEIL((size_t)quanta * IRDMA_QUANTUM_SIZE, IRDMA_QP_RING_ALIGN);
}

static struct irdma_qp_ctx *
irdma_qp_hctx(const struct irdma_qp *q)
{
	return (struct irdma_qp_ctx *)((uint8_t *)q->hctx.va + IRDMA_Q2_BUF_SIZE);
}

static rte_iova_t
irdma_qp_hctx_pa(const struct irdma_qp *q)
{
	return q->hctx.iova + IRDMA_Q2_BUF_SIZE;
}

static rte_iova_t
irdma_qp_shadow_pa(const struct irdma_qp *q)
{
	return q->pbl.shadow_pa;
}

static void
irdma_qp_free(struct irdma_ctrl *c, struct irdma_qp *q)
{
	if (pbl_qp_free(&q->pbl) != 0)
		IRDMA_LOG(ERR, c->hw, "QP %u: PBLEs not returned", q->qp_id);
	irdma_qmem_free(c, &q->ring);
	irdma_dma_free(c, &q->hctx);
	free(q->sq_wrtrk);
	free(q->rq_wrid);
	free(q);
}

/* Point the data-path rings at the buffer and start them empty. */
static void
irdma_qp_rings_reset(struct irdma_qp *q)
{
	size_t sq_bytes = irdma_qp_ring_bytes(q->sq.quanta);
	size_t rq_bytes = irdma_qp_ring_bytes(q->rq.quanta);
	uint8_t *va = q->ring.buf.va;

	memset(va, 0, sq_bytes + rq_bytes + IRDMA_SHADOW_AREA_SIZE);
	q->sq.base = va;
	q->sq.head = 0;
	q->sq.tail = 0;
	q->sq.polarity = IRDMA_WQ_POLARITY_INIT;
	q->rq.base = va + sq_bytes;
	q->rq.head = 0;
	q->rq.tail = 0;
	q->rq.polarity = IRDMA_WQ_POLARITY_INIT;
	q->sq_flushed = 0;
	q->rq_flushed = 0;
	/* WRs the driver was to flush went with the rings */
	irdma_uk_flush_forget(q);
	q->shadow = va + sq_bytes + rq_bytes;
}

/* The context a QP has in RESET: rings, sizes, PD, CQs, ports, completion context. */
static void
irdma_qp_ctx_base(const struct irdma_qp *q)
{
	struct irdma_qp_ctx *ctx = irdma_qp_hctx(q);

	memset(ctx, 0, sizeof(*ctx));
	irdma_set(ctx, QPC_RQWQESIZE, q->rq.shift);
	irdma_set(ctx, QPC_PDIDX, q->pd_id & IRDMA_FIELD_MAX(QPC_PDIDX));
	irdma_set(ctx, QPC_PDIDXHI, q->pd_id >> IRDMA_FIELD_BITS(QPC_PDIDX));
	irdma_set(ctx, QPC_SQ_ADDR, q->pbl.sq_addr);
	irdma_set(ctx, QPC_RQ_ADDR, q->pbl.rq_addr);
	irdma_set(ctx, QPC_SQSIZE, irdma_encode_wq_size(q->sq.quanta));
	irdma_set(ctx, QPC_RQSIZE, irdma_encode_wq_size(q->rq.quanta));
	irdma_set(ctx, QPC_SRCPORTNUM, IRDMA_ROCE_DEFAULT_SRC_PORT);
	irdma_set(ctx, QPC_DESTPORTNUM, IRDMA_ROCE_UDP_PORT);
	irdma_set(ctx, QPC_PKEY, IRDMA_QP_DEFAULT_PKEY);
	irdma_set(ctx, QPC_ARPIDX, IRDMA_QP_ARP_IDX);
	irdma_set(ctx, QPC_REMENDPOINTIDX, IRDMA_QP_ARP_IDX);
	irdma_set(ctx, QPC_TXCQNUM, q->send_cq_id);
	irdma_set(ctx, QPC_RXCQNUM, q->recv_cq_id);
	irdma_set(ctx, QPC_COMPL_CTX, (uint64_t)(uintptr_t)q);
	irdma_set(ctx, QPC_USESTATSINSTANCE, q->stats_use);
	irdma_set(ctx, QPC_STAT_INDEX, q->stats_idx);
	irdma_set(ctx, QPC_MACADDRESS, irdma_mac_to_u64(q->hw->mac));
	/* The TC 0 work scheduler leaf (irdma_qp_add_qos; pf/irdma_sched.c). */
	irdma_set(ctx, QPC_QSHANDLE, q->ctrl->pf.qs_handle);
	if (q->srq != NULL) {
		/* Gen3: receives come from the SRQ, whose id takes the RQ address's place. */
		irdma_set(ctx, QPC_RQ_ADDR, 0);
		irdma_set(ctx, QPC_RQSIZE, 0);
		irdma_set(ctx, QPC_SRQ_ID, q->srq->srq_id);
		irdma_set(ctx, QPC_USE_SRQ, 1);
	}
}

/* The address vector: destination IP (IPv4-mapped GIDs as IPv4), TTL, TOS, flow, VLAN. */
static void
irdma_qp_ctx_av(struct irdma_qp_ctx *ctx, const struct rdmadev_ah_attr *av, uint32_t arp_idx)
{
	static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	bool v4 = memcmp(av->dgid, v4_prefix, sizeof(v4_prefix)) == 0;
	uint32_t ip[4];
	unsigned int i;

	for (i = 0; i < RTE_DIM(ip); i++) {
		rte_be32_t be;

		memcpy(&be, &av->dgid[4 * i], sizeof(be));
		ip[i] = rte_be_to_cpu_32(be);
	}
	irdma_set(ctx, QPC_IPV4, v4 ? 1 : 0);
	irdma_set(ctx, QPC_DESTIPADDR0, v4 ? 0 : ip[0]);
	irdma_set(ctx, QPC_DESTIPADDR1, v4 ? 0 : ip[1]);
	irdma_set(ctx, QPC_DESTIPADDR2, v4 ? 0 : ip[2]);
	irdma_set(ctx, QPC_DESTIPADDR3, ip[3]);
	irdma_set(ctx, QPC_TTL, av->hop_limit);
	irdma_set(ctx, QPC_TOS, av->traffic_class);
	irdma_set(ctx, QPC_FLOWLABEL, av->flow_label);
	if (av->vlan_id <= IRDMA_QP_VLAN_MAX) {
		irdma_set(ctx, QPC_INSERTVLANTAG, 1);
		irdma_set(ctx, QPC_VLANTAG,
			  av->vlan_id | ((uint32_t)(av->sl & IRDMA_QP_VLAN_PRIO_MASK) <<
					 IRDMA_QP_VLAN_PRIO_SHIFT));
	} else {
		irdma_set(ctx, QPC_INSERTVLANTAG, 0);
		irdma_set(ctx, QPC_VLANTAG, 0);
	}
	irdma_set(ctx, QPC_ARPIDX, arp_idx);
	irdma_set(ctx, QPC_REMENDPOINTIDX, arp_idx);
}

/* The source address of the AV (IPv4-mapped GIDs as IPv4: LOCAL_IPADDR3 only). */
static void
irdma_qp_ctx_src(struct irdma_qp_ctx *ctx, const uint8_t sgid[16])
{
	bool v4 = irdma_gid_is_v4mapped(sgid);
	uint32_t ip[4];
	unsigned int i;

	for (i = 0; i < RTE_DIM(ip); i++) {
		rte_be32_t be;

		memcpy(&be, &sgid[4 * i], sizeof(be));
		ip[i] = rte_be_to_cpu_32(be);
	}
	irdma_set(ctx, QPC_LOCAL_IPADDR0, v4 ? 0 : ip[0]);
	irdma_set(ctx, QPC_LOCAL_IPADDR1, v4 ? 0 : ip[1]);
	irdma_set(ctx, QPC_LOCAL_IPADDR2, v4 ? 0 : ip[2]);
	irdma_set(ctx, QPC_LOCAL_IPADDR3, ip[3]);
}

/* Write the attributes of @p mask into the host context. */
static void
irdma_qp_ctx_apply(struct irdma_qp_ctx *ctx, const struct rdmadev_qp_attr *a, uint32_t mask,
		   uint32_t arp_idx, uint8_t gen)
{
	if (mask & RDMADEV_QP_ACCESS_FLAGS) {
		irdma_set(ctx, QPC_RDOK, (a->qp_access_flags & RDMADEV_ACCESS_REMOTE_READ) ? 1 : 0);
		irdma_set(ctx, QPC_WRRDRSPOK,
			  (a->qp_access_flags & RDMADEV_ACCESS_REMOTE_WRITE) ? 1 : 0);
		/* rdmadev refuses REMOTE_ATOMIC without RDMADEV_CAPA_ATOMICS (gen3 only). */
		if (gen >= IRDMA_GEN_3)
			irdma_set(ctx, QPC_REMOTE_ATOMIC_EN,
				  (a->qp_access_flags & RDMADEV_ACCESS_REMOTE_ATOMIC) ? 1 : 0);
	}
	if (mask & RDMADEV_QP_QKEY)
		irdma_set(ctx, QPC_QKEY, a->qkey);
	if (mask & RDMADEV_QP_AV)
		irdma_qp_ctx_av(ctx, &a->ah_attr, arp_idx);
	if (mask & RDMADEV_QP_PATH_MTU)
		irdma_set(ctx, QPC_SNDMSS, 128u << a->path_mtu);
	if (mask & RDMADEV_QP_TIMEOUT)
		irdma_set(ctx, QPC_RTOMIN, a->timeout);
	if (mask & RDMADEV_QP_RETRY_CNT)
		irdma_set(ctx, QPC_REXMIT_THRESH, a->retry_cnt);
	if (mask & RDMADEV_QP_RNR_RETRY)
		irdma_set(ctx, QPC_RNRNAK_THRESH, a->rnr_retry);
	if (mask & RDMADEV_QP_RQ_PSN)
		irdma_set(ctx, QPC_EPSN, a->rq_psn);
	if (mask & RDMADEV_QP_SQ_PSN) {
		irdma_set(ctx, QPC_PSNNXT, a->sq_psn);
		irdma_set(ctx, QPC_PSNUNA, a->sq_psn);
		irdma_set(ctx, QPC_PSNMAX, a->sq_psn);
		irdma_set(ctx, QPC_LSN, IRDMA_QP_INIT_LSN);
	}
	/* Gen3 moved ORD / IRD in byte 160 (QPC_ORDSIZE_GEN3, QPC_IRDSIZE_GEN3). */
	if ((mask & RDMADEV_QP_MAX_QP_RD_ATOMIC) && gen >= IRDMA_GEN_3)
		irdma_set(ctx, QPC_ORDSIZE_GEN3, a->max_rd_atomic);
	else if (mask & RDMADEV_QP_MAX_QP_RD_ATOMIC)
		irdma_set(ctx, QPC_ORDSIZE, a->max_rd_atomic);
	if ((mask & RDMADEV_QP_MAX_DEST_RD_ATOMIC) && gen >= IRDMA_GEN_3)
		irdma_set(ctx, QPC_IRDSIZE_GEN3, irdma_encode_ird_size_gen3(a->max_dest_rd_atomic));
	else if (mask & RDMADEV_QP_MAX_DEST_RD_ATOMIC)
		irdma_set(ctx, QPC_IRDSIZE, irdma_encode_ird_size(a->max_dest_rd_atomic));
	if (mask & RDMADEV_QP_DEST_QPN)
		irdma_set(ctx, QPC_DESTQP, a->dest_qp_num);
}

/* The fields CREATE / MODIFY / DESTROY_QP share. */
static void
irdma_qp_wqe(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, const struct irdma_qp *q)
{
	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_QP_ID, q->qp_id);
	irdma_set(w, CQP_QP_TYPE, q->qp_type);
	irdma_set(w, CQP_QP_CTX_PA, irdma_qp_hctx_pa(q));
	irdma_set(w, CQP_QP_SHADOW_PA, irdma_qp_shadow_pa(q));
	irdma_set(w, CQP_QP_VQ, q->pbl.virtual_map ? 1 : 0);
}

static const char *
irdma_qp_hw_state_name(uint32_t s)
{
	static const char *const names[] = {
		"INVALID", "IDLE", "RTS", "SQD", "RTR", "TERMINATE", "ERROR",
	};

	return s < RTE_DIM(names) ? names[s] : "UNKNOWN";
}

/* MODIFY_QP to HW state @p next with the current context. */
static int
irdma_qp_step(struct irdma_ctrl *c, struct irdma_qp *q, enum irdma_qp_hw_state next)
{
	struct irdma_cqp_wqe w;
	int ret;

	irdma_qp_wqe(&w, IRDMA_CQP_OP_MODIFY_QP, q);
	irdma_set(&w, CQP_QP_NEXTIWSTATE, next);
	if (next == IRDMA_QP_HW_RTR) {
		irdma_set(&w, CQP_QP_ARPTABIDXVALID, 1);
		irdma_set(&w, CQP_QP_CQNUMVALID, 1);
	}
	if (next == IRDMA_QP_HW_RTS)
		irdma_set(&w, CQP_QP_ORDVALID, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "QP %u: MODIFY_QP %s -> %s failed: %s", q->qp_id,
			  irdma_qp_hw_state_name(irdma_qp_hw_state(q)), irdma_qp_hw_state_name(next),
			  strerror(-ret));
		return ret;
	}
	irdma_qp_hw_state_set(q, (uint8_t)next);
	return 0;
}

/*
 * To ERROR the kernel's way: SQD first from RTS, then ERROR, then flush SQ and RQ. A QP
 * already in ERROR is moved there and flushed again (a flush that failed before is retried).
 */
static int
irdma_qp_to_error(struct irdma_ctrl *c, struct irdma_qp *q)
{
	struct irdma_cqp_wqe w;
	int ret;

	/*
	 * SQD may be refused: the device can have moved the QP to ERROR on its own (a fatal AE
	 * not processed yet). ERROR is reachable from every state: go there all the same, and
	 * also when an AE said ERROR already (it can be stale: of the QP's life before a reset).
	 */
	if (irdma_qp_hw_state(q) == IRDMA_QP_HW_RTS && irdma_qp_step(c, q, IRDMA_QP_HW_SQD) != 0)
		IRDMA_LOG(WARNING, c->hw, "QP %u: SQD refused, to ERROR directly", q->qp_id);
	ret = irdma_qp_step(c, q, IRDMA_QP_HW_ERROR);
	if (ret != 0)
		return ret;
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_FLUSH_WQES);
	irdma_set(&w, CQP_FLUSH_QP_ID, q->qp_id);
	irdma_set(&w, CQP_FLUSH_SQ, 1);
	irdma_set(&w, CQP_FLUSH_RQ, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0)
		IRDMA_LOG(ERR, c->hw, "QP %u: FLUSH_WQES failed: %s", q->qp_id, strerror(-ret));
	return ret;
}

int
irdma_qp_create(struct irdma_ctrl *c, struct rdmadev_qp *qp,
		const struct rdmadev_qp_init_attr *attr)
{
	const struct rdmadev_qp_cap *cap = &attr->cap;
	uint32_t sq_shift, rq_shift, sq_quanta, rq_quanta;
	struct irdma_cqp_wqe w;
	struct irdma_qp *q;
	size_t len;
	int ret;

	if (attr->srq != NULL && (c->hw->gen < IRDMA_GEN_3 || attr->srq->obj.fp.drv == NULL)) {
		IRDMA_LOG(ERR, c->hw, "QP create: gen %u has no SRQ", c->hw->gen);
		return -ENOTSUP;
	}
	/* The doorbell is written unchecked on the data path (irdma_wr32_db): check it once. */
	if (c->hw->bar0 != NULL && !irdma_hw_offset_ok(c->hw, IRDMA_PFPE_WQEALLOC)) {
		IRDMA_LOG(ERR, c->hw, "QP create: the doorbell register (BAR0 + 0x%x) is beyond "
			  "BAR0 (0x%" PRIx64 " bytes)", IRDMA_PFPE_WQEALLOC, c->hw->bar0_len);
		return -ENODEV;
	}
	/* Gen2 SQ: one more SGE than asked for, room for the immediate (doc/hardware.md §1.7). */
	sq_shift = irdma_wqe_shift(cap->max_send_sge + 1, cap->max_inline_data);
	sq_quanta = irdma_wq_depth(cap->max_send_wr, sq_shift, IRDMA_SQ_RSVD);
	rq_shift = irdma_wqe_shift(cap->max_recv_sge, 0);
	rq_quanta = irdma_wq_depth(cap->max_recv_wr, rq_shift, IRDMA_RQ_RSVD);
	if (attr->srq != NULL) {
		/* No RQ: the SRQ's WQEs are the receives (post_recv finds no room). */
		rq_shift = 0;
		rq_quanta = 0;
	}
	if (sq_quanta > IRDMA_MAX_WQ_QUANTA || rq_quanta > IRDMA_MAX_WQ_QUANTA) {
		IRDMA_LOG(ERR, c->hw, "QP create: SQ %u / RQ %u quanta beyond %u", sq_quanta,
			  rq_quanta, IRDMA_MAX_WQ_QUANTA);
		return -EINVAL;
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		IRDMA_LOG(ERR, c->hw, "QP create: no memory");
		return -ENOMEM;
	}
	q->qp_id = rdmadev_obj_id(&qp->obj);
	/* Unbound QPs count into the function's default instance (the kernel's
	 * vsi->stats_idx = hmc_fn_id), named in the context. */
	q->stats_idx = c->hmc_fn_id;
	q->tmpl_gen = irdma_uk_tmpl_gen_next();
	q->qp_type = attr->qp_type == RDMADEV_QPT_RC ? IRDMA_QP_TYPE_ROCE_RC :
						       IRDMA_QP_TYPE_ROCE_UD;
	irdma_qp_hw_state_set(q, IRDMA_QP_HW_INVALID);
	q->pd_id = rdmadev_obj_id(&attr->pd->obj);
	q->send_cq_id = rdmadev_obj_id(&attr->send_cq->obj);
	q->recv_cq_id = rdmadev_obj_id(&attr->recv_cq->obj);
	q->scq = attr->send_cq->obj.fp.drv;
	q->rcq = attr->recv_cq->obj.fp.drv;
	q->sq.quanta = sq_quanta;
	q->sq.shift = (uint8_t)sq_shift;
	q->rq.quanta = rq_quanta;
	q->rq.shift = (uint8_t)rq_shift;
	q->max_send_wr = (sq_quanta - IRDMA_SQ_RSVD) >> sq_shift;
	q->max_recv_wr = rq_quanta == 0 ? 0 : (rq_quanta - IRDMA_RQ_RSVD) >> rq_shift;
	q->srq = attr->srq != NULL ? attr->srq->obj.fp.drv : NULL;
	q->hw = c->hw;
	q->ctrl = c;
	q->db_off = IRDMA_PFPE_WQEALLOC;
	q->gen = c->hw->gen;
	q->sq_sig_all = attr->sq_sig_all ? 1 : 0;
	q->max_send_sge = (uint8_t)cap->max_send_sge;
	q->max_recv_sge = (uint8_t)cap->max_recv_sge;
	q->max_inline = (uint8_t)cap->max_inline_data;
	q->sq_wrtrk = calloc(sq_quanta, sizeof(*q->sq_wrtrk));
	q->rq_wrid = calloc(RTE_MAX(rq_quanta >> rq_shift, 1u), sizeof(*q->rq_wrid));
	if (q->sq_wrtrk == NULL || q->rq_wrid == NULL) {
		IRDMA_LOG(ERR, c->hw, "QP %u: no memory for WR tracking", q->qp_id);
		irdma_qp_free(c, q);
		return -ENOMEM;
	}
	irdma_uk_sq_track_init(q);
	len = irdma_qp_ring_bytes(sq_quanta) + irdma_qp_ring_bytes(rq_quanta) +
	      IRDMA_SHADOW_AREA_SIZE;
	ret = irdma_qmem_alloc(c, &q->ring, len);
	if (ret == 0)
		ret = pbl_build_qp_levels(c->pble_pool, q->ring.buf.va, len,
					  irdma_qp_ring_bytes(sq_quanta) / IRDMA_QP_RING_ALIGN,
					  irdma_qp_ring_bytes(rq_quanta) / IRDMA_QP_RING_ALIGN,
					  irdma_ring_levels(c), &q->pbl);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &q->hctx, IRDMA_QP_HCTX_LEN, IRDMA_Q2_ALIGN_MASK + 1);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "QP %u: no ring memory or PBLEs (%zu ring bytes): %s",
			  q->qp_id, len, strerror(-ret));
		irdma_qp_free(c, q);
		return ret;
	}
	irdma_qp_rings_reset(q);
	irdma_qp_ctx_base(q);
	irdma_qp_wqe(&w, IRDMA_CQP_OP_CREATE_QP, q);
	irdma_set(&w, CQP_QP_CQNUMVALID, 1);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "QP %u create failed: %s", q->qp_id, strerror(-ret));
		irdma_qp_free(c, q);
		return ret;
	}
	qp->init.cap.max_send_wr = q->max_send_wr;
	qp->init.cap.max_recv_wr = q->max_recv_wr;
	if (q->srq != NULL)
		qp->init.cap.max_recv_sge = 0;
	qp->obj.fp.drv = q;
	return 0;
}

/* The HW work of a verbs transition @p cur -> @p next (the context is already updated). */
static void irdma_qp_clean_kcq(struct irdma_cq *k, const struct irdma_qp *q);

static int
irdma_qp_transition(struct irdma_ctrl *c, struct irdma_qp *q, enum rdmadev_qp_state cur,
		    enum rdmadev_qp_state next)
{
	int ret;

	switch (next) {
	case RDMADEV_QPS_RESET:
		if (irdma_qp_hw_state(q) != IRDMA_QP_HW_INVALID) {
			ret = irdma_qp_to_error(c, q);
			if (ret != 0)
				return ret;
		}
		/*
		 * The WRs go without completions, and so do the completions not yet polled
		 * (verbs' RESET; rdma-core's irdma_clean_cqes): a flush CQE left in the CQ
		 * would otherwise complete the next incarnation's WRs.
		 */
		irdma_qp_clean_kcq(q->scq, q);
		if (q->rcq != q->scq)
			irdma_qp_clean_kcq(q->rcq, q);
		/* The attributes start again; the device keeps the QP in ERROR until INIT. */
		irdma_qp_rings_reset(q);
		irdma_qp_ctx_base(q);
		/* What the device reported of the QP so far is about work that is gone. */
		irdma_aeq_mark(c, q);
		return 0;
	case RDMADEV_QPS_INIT:
		ret = irdma_qp_step(c, q, IRDMA_QP_HW_IDLE);
		/* The new incarnation: an AE the device raised while in RESET is stale too. */
		if (ret == 0 && cur == RDMADEV_QPS_RESET)
			irdma_aeq_mark(c, q);
		return ret;
	case RDMADEV_QPS_RTR:
		return irdma_qp_step(c, q, IRDMA_QP_HW_RTR);
	case RDMADEV_QPS_RTS:
		return irdma_qp_step(c, q, IRDMA_QP_HW_RTS);
	case RDMADEV_QPS_SQD:
		return irdma_qp_step(c, q, IRDMA_QP_HW_SQD);
	case RDMADEV_QPS_ERR:
		return irdma_qp_to_error(c, q);
	default:
		IRDMA_LOG(ERR, c->hw, "QP %u: no HW transition %s -> %s", q->qp_id,
			  rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next));
		return -EINVAL;
	}
}

int
irdma_qp_modify(struct irdma_ctrl *c, struct rdmadev_qp *qp, const struct rdmadev_qp_attr *attr,
		uint32_t mask)
{
	struct irdma_qp *q = qp->obj.fp.drv;
	struct irdma_qp_ctx *ctx = irdma_qp_hctx(q);
	static const uint8_t no_mac[6];
	uint32_t arp_idx = q->arp_idx;
	enum rdmadev_qp_state cur, next;
	bool took = false;
	struct irdma_qp_ctx saved;
	uint8_t sgid[16];
	int ret;

	cur = (enum rdmadev_qp_state)__atomic_load_n(&qp->state, __ATOMIC_ACQUIRE);
	next = (mask & RDMADEV_QP_STATE) ? attr->qp_state : cur;
	/*
	 * SQE -> RTS: the flush CQE of the send error completes every WR outstanding when it
	 * is polled, so it must be polled before new WRs are posted (they would be flushed).
	 */
	if (cur == RDMADEV_QPS_SQE && next == RDMADEV_QPS_RTS &&
	    __atomic_load_n(&q->sq.tail, __ATOMIC_ACQUIRE) != q->sq.head) {
		IRDMA_LOG(ERR, c->hw, "QP %u: SQE -> RTS with send WRs not completed: poll the "
			  "flushed completions first", q->qp_id);
		return -EBUSY;
	}
	if (mask & RDMADEV_QP_AV) {
		ret = irdma_port_sgid(c, &attr->ah_attr, sgid);
		if (ret != 0)
			return ret;
		arp_idx = IRDMA_QP_ARP_IDX;
		if (memcmp(attr->ah_attr.dmac, no_mac, sizeof(no_mac)) != 0) {
			ret = irdma_arp_get(c, attr->ah_attr.dmac, attr->ah_attr.dgid, &arp_idx);
			if (ret != 0)
				return ret;
			took = true;
		}
	}
	saved = *ctx;
	irdma_qp_ctx_apply(ctx, attr, mask, arp_idx, q->gen);
	if (mask & RDMADEV_QP_AV)
		irdma_qp_ctx_src(ctx, sgid);
	ret = irdma_qp_transition(c, q, cur, next);
	if (ret != 0) {
		/* The device keeps what it last accepted; so does the host copy. */
		*ctx = saved;
		if (took)
			irdma_arp_put(c, arp_idx);
		IRDMA_LOG(ERR, c->hw, "QP %u modify %s -> %s failed: %s", q->qp_id,
			  rdmadev_qp_state_name(cur), rdmadev_qp_state_name(next),
			  strerror(-ret));
		return ret;
	}
	if (next == RDMADEV_QPS_RESET) {
		/* The context starts again: no ARP entry is named any more. */
		if (took)
			irdma_arp_put(c, arp_idx);
		took = false;
		arp_idx = IRDMA_QP_ARP_IDX;
	}
	if (took || arp_idx != q->arp_idx) {
		irdma_arp_put(c, q->arp_idx);
		q->arp_idx = arp_idx;
	}
	/* An SRQ QP in error takes no more SRQ WQEs: verbs' LAST_WQE_REACHED. */
	if (q->srq != NULL && next == RDMADEV_QPS_ERR && cur != RDMADEV_QPS_ERR)
		irdma_srq_last_wqe_note(c, q->qp_id);
	return 0;
}

int
irdma_qp_query(struct irdma_ctrl *c, struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr)
{
	struct irdma_qp *q = qp->obj.fp.drv;

	RTE_SET_USED(c);
	/* The device moved the QP to ERROR on its own (a fatal AE): that is its state now. */
	if ((irdma_qp_hw_state(q) == IRDMA_QP_HW_ERROR || irdma_qp_hw_state(q) == IRDMA_QP_HW_FATAL) &&
	    attr->qp_state != RDMADEV_QPS_RESET)
		attr->qp_state = RDMADEV_QPS_ERR;
	attr->cur_qp_state = attr->qp_state;
	/* SQD is reached once the SQ has no WQE in flight. */
	attr->sq_draining = irdma_qp_hw_state(q) == IRDMA_QP_HW_SQD && q->sq.head != q->sq.tail;
	attr->cap.max_send_wr = q->max_send_wr;
	attr->cap.max_recv_wr = q->max_recv_wr;
	return 0;
}

/*
 * An unpolled SRQ CQE of destroyed QP @p q at slot @p i of @p r: its QP context (in the
 * extension, the next slot) is zeroed and its SRQ WQE counted completed here, as poll would.
 */
static void
irdma_qp_clean_srq_cqe(struct irdma_cq_ring *r, uint32_t i, uint64_t qw3,
		       const struct irdma_qp *q)
{
	const struct irdma_cqe *cqe = (const struct irdma_cqe *)(const void *)
				      (r->base + (size_t)i * IRDMA_CQE_SIZE);
	uint32_t next = i + 1 == r->size ? 0 : i + 1;
	struct irdma_cqe_ext *ext = (struct irdma_cqe_ext *)(void *)(r->base +
								      (size_t)next * IRDMA_CQE_SIZE);

	if (q->srq == NULL || irdma_get(ext, CQE_EXT_SRQ_QP_CTX) != (uint64_t)(uintptr_t)q)
		return;
	irdma_set(ext, CQE_EXT_SRQ_QP_CTX, 0);
	__atomic_fetch_add(&q->srq->done, 1, __ATOMIC_RELEASE);
	if (!IRDMA_GET(CQE_ERROR, qw3) && q->qp_type == IRDMA_QP_TYPE_ROCE_RC &&
	    IRDMA_GET(CQE_STAG, qw3))
		irdma_mw_note_inv(q->ctrl, (uint32_t)irdma_get(cqe, CQE_INVSTAG));
}

/*
 * An unpolled CQE of destroyed QP @p q: its completion context zeroed; a receive that
 * invalidated a window (RC, CQE_STAG) still unbinds it, as poll would have.
 */
static void
irdma_qp_clean_cqe(struct irdma_cqe *cqe, uint64_t qw3, const struct irdma_qp *q)
{
	if (IRDMA_GET(CQE_SQ, qw3) == IRDMA_CQE_QTYPE_RQ && !IRDMA_GET(CQE_ERROR, qw3) &&
	    q->qp_type == IRDMA_QP_TYPE_ROCE_RC && IRDMA_GET(CQE_STAG, qw3))
		irdma_mw_note_inv(q->ctrl, (uint32_t)irdma_get(cqe, CQE_INVSTAG));
	irdma_set(cqe, CQE_COMP_CTX, 0);
}

/*
 * Zero the completion context of @p q's CQEs still unpolled in ring @p r, so that poll
 * consumes them silently instead of reading the freed QP (the kernel's irdma_clean_cqes).
 */
static void
irdma_qp_clean_ring(struct irdma_cq_ring *r, const struct irdma_qp *q)
{
	uint32_t i = r->head, pol = r->polarity, n = 0, k;

	if (r->base == NULL)
		return;
	while (n < r->size) {
		struct irdma_cqe *cqe = (struct irdma_cqe *)(void *)(r->base +
								    (size_t)i * IRDMA_CQE_SIZE);
		uint64_t qw3 = irdma_qw_load(cqe, CQE_VALID);

		if (IRDMA_GET(CQE_VALID, qw3) != pol)
			break;
		rte_io_rmb();
		if (IRDMA_GET(CQE_SRQ, qw3))
			irdma_qp_clean_srq_cqe(r, i, qw3, q);
		else if (irdma_get(cqe, CQE_COMP_CTX) == (uint64_t)(uintptr_t)q)
			irdma_qp_clean_cqe(cqe, qw3, q);
		for (k = irdma_cqe_slots(qw3); k > 0; k--, n++) {
			if (++i == r->size) {
				i = 0;
				pol ^= 1;
			}
		}
	}
}

/* Clean @p q's CQEs out of driver CQ @p k (both rings of a resize), or nothing for NULL. */
static void
irdma_qp_clean_kcq(struct irdma_cq *k, const struct irdma_qp *q)
{
	if (k == NULL)
		return;
	irdma_qp_clean_ring(&k->old, q);
	irdma_qp_clean_ring(&k->cur, q);
}

/* Clean @p q's CQEs out of CQ @p cq. */
static void
irdma_qp_clean_cq(struct rdmadev_cq *cq, const struct irdma_qp *q)
{
	irdma_qp_clean_kcq(cq != NULL ? cq->obj.fp.drv : NULL, q);
}

int
irdma_qp_destroy(struct irdma_ctrl *c, struct rdmadev_qp *qp)
{
	struct irdma_qp *q = qp->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	/*
	 * An SRQ QP goes to ERROR first, as the kernel's irdma_destroy_qp takes every QP past
	 * RESET there: the SRQ WQE it took for a message in progress is flushed (one SRQ CQE),
	 * and the CQ clean below counts it done, so the SRQ gets its slot back.
	 */
	if (q->srq != NULL && irdma_qp_hw_state(q) != IRDMA_QP_HW_INVALID &&
	    irdma_qp_hw_state(q) != IRDMA_QP_HW_ERROR && irdma_qp_to_error(c, q) != 0)
		IRDMA_LOG(WARNING, c->hw, "QP %u: to ERROR before destroy failed", q->qp_id);
	irdma_qp_wqe(&w, IRDMA_CQP_OP_DESTROY_QP, q);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "QP %u destroy failed: %s", q->qp_id, strerror(-ret));
		return ret;
	}
	irdma_arp_put(c, q->arp_idx);
	irdma_uk_flush_forget(q);
	irdma_qp_clean_cq(qp->init.send_cq, q);
	if (qp->init.recv_cq != qp->init.send_cq)
		irdma_qp_clean_cq(qp->init.recv_cq, q);
	irdma_qp_free(c, q);
	qp->obj.fp.drv = NULL;
	return 0;
}

int
irdma_qp_stats_bind(struct irdma_ctrl *c, struct rdmadev_qp *qp, bool bind, uint32_t inst)
{
	struct irdma_qp *q = qp->obj.fp.drv;
	struct irdma_qp_ctx *ctx = irdma_qp_hctx(q);
	uint8_t old_use = q->stats_use;
	uint32_t old_idx = q->stats_idx;
	struct irdma_qp_ctx saved = *ctx;
	int ret;

	q->stats_use = bind ? 1 : 0;
	q->stats_idx = bind ? inst : c->hmc_fn_id;
	irdma_set(ctx, QPC_USESTATSINSTANCE, q->stats_use);
	irdma_set(ctx, QPC_STAT_INDEX, q->stats_idx);
	/* Not in the device yet (before the first INIT): the next modify carries it. */
	if (irdma_qp_hw_state(q) == IRDMA_QP_HW_INVALID)
		return 0;
	ret = irdma_qp_step(c, q, (enum irdma_qp_hw_state)irdma_qp_hw_state(q));
	if (ret != 0) {
		*ctx = saved;
		q->stats_use = old_use;
		q->stats_idx = old_idx;
		IRDMA_LOG(ERR, c->hw, "QP %u: statistics %s instance %u failed: %s", q->qp_id,
			  bind ? "bind to" : "unbind from", inst, strerror(-ret));
	}
	return ret;
}
