/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The ARP table and address handles: MANAGE_ARP, CREATE_ADDR_HANDLE and
 * DESTROY_ADDR_HANDLE (doc/hardware.md §5.3, §7; the AH layout of the kernel's uda_d.h). Called
 * with dev->lock held.
 *
 * Like the STag table, both tables live in the host memory that backs the HMC: ARP entry i
 * is the committed HMC ARP object entry i (32 bytes), AH i the FSIAV entry i (64 bytes); the
 * layouts are the model's own (struct model_arp, struct model_ah) and a zeroed entry is
 * free. So the tables are sized by the committed ARP and FSIAV counts and need no
 * allocation.
 *
 * Checks (refusals are IRDMA_CQP_MAJ_ERROR with an enum irdma_model_minor code; an unbacked
 * entry is IRDMA_CQP_MAJ_CNTXTCACHE_ERROR):
 *  - MANAGE_ARP: index below the committed ARP count (BAD_ID); QUERY is not modelled
 *    (NOT_MODELED); add (ENTRYVALID) of a valid index is OBJ_EXISTS (no silent update);
 *    delete of a free index is NO_OBJ, of an index an AH still names BAD_STATE.
 *  - CREATE_ADDR_HANDLE: AH index below the committed FSIAV count (BAD_ID), not in use
 *    (OBJ_EXISTS); the ARP index it names below the ARP count (BAD_ID) and valid (NO_OBJ);
 *    PD id 3 .. IRDMA_MAX_PDS - 1 (BAD_ID); IPv4 with non-zero destination words 0..2
 *    (BAD_FIELD).
 *  - DESTROY_ADDR_HANDLE: index in range (BAD_ID) and in use (NO_OBJ).
 *  - MODIFY_QP to RTR / RTS (model_qp.c): QPC_ARPIDX below the ARP count, and valid unless
 *    0 (index 0 is the driver's reserved "no resolved neighbour" default).
 */

#include <errno.h>
#include <string.h>

#include "model_priv.h"

/* An ARP entry in the HMC ARP object. */
struct model_arp {
	uint64_t mac;		/* destination MAC, 48 bits */
	uint32_t reach_max;	/* CQP_ARP_REACHMAX */
	uint32_t ah_refs;	/* AHs naming this entry */
	uint8_t valid;
	uint8_t permanent;
	uint8_t rsvd[6];
};

_Static_assert(sizeof(struct model_arp) <= 32u, "an ARP entry must fit 32 bytes");

/* An AH in the HMC FSIAV object. */
struct model_ah {
	uint64_t mac;		/* destination MAC */
	uint32_t dest[4];	/* destination address words 0..3 (IPv4: word 3) */
	uint32_t src[4];	/* source address words 0..3 */
	uint32_t pd;
	uint32_t flow_label;
	uint32_t arp_idx;
	uint16_t vlan_tag;
	uint8_t tc;
	uint8_t hop_limit;
	uint8_t valid;
	uint8_t ipv4;
	uint8_t insert_vlan;
	uint8_t loopback;
};

_Static_assert(sizeof(struct model_ah) <= 64u, "an AH must fit 64 bytes");

/* Read (or write) an entry; a DMA fault fails @p r. true when refused. */
static bool
ah_io(struct model_dev *d, rte_iova_t iova, void *buf, size_t len, bool write,
      struct model_res *r)
{
	int ret = write ? model_dma_write(d, iova, buf, len) : model_dma_read(d, iova, buf, len);

	return model_refuse(r, ret != 0 ? IRDMA_MODEL_MIN_DMA_FAULT : 0);
}

/*
 * The ARP or FSIAV entry @p idx a CQP op names into @p buf: model_hmc_entry()'s checks, then
 * ah_io(). true when refused.
 */
static bool
op_entry_read(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t idx, void *buf, size_t len,
	      rte_iova_t *iova, struct model_res *r)
{
	return model_hmc_entry(d, obj, 0, idx, iova, r) || ah_io(d, *iova, buf, len, false, r);
}

void
model_op_manage_arp(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_ARP_INDEX);
	struct model_arp e;
	rte_iova_t iova;

	if (model_refuse(r, irdma_get(w, CQP_ARP_QUERY) ? IRDMA_MODEL_MIN_NOT_MODELED : 0) ||
	    op_entry_read(d, IRDMA_HMC_OBJ_ARP, idx, &e, sizeof(e), &iova, r))
		return;
	if (irdma_get(w, CQP_ARP_ENTRYVALID)) {
		if (model_refuse(r, e.valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0))
			return;
		memset(&e, 0, sizeof(e));
		e.valid = 1;
		e.mac = irdma_get(w, CQP_ARP_MAC);
		e.reach_max = irdma_get(w, CQP_ARP_REACHMAX);
		e.permanent = irdma_get(w, CQP_ARP_PERMANENT);
		MODEL_LOG(DEBUG, d, "ARP %u = %012" PRIx64, idx, e.mac);
	} else {
		if (model_refuse(r, !e.valid ? IRDMA_MODEL_MIN_NO_OBJ : 0) ||
		    model_refuse(r, e.ah_refs != 0 ? IRDMA_MODEL_MIN_BAD_STATE : 0))
			return;
		memset(&e, 0, sizeof(e));
		MODEL_LOG(DEBUG, d, "ARP %u deleted", idx);
	}
	(void)ah_io(d, iova, &e, sizeof(e), true, r);
}

/*
 * Read entry @p idx of the ARP or FSIAV object outside a CQP op (no refusal to record);
 * -ENOENT when out of range or unbacked.
 */
static int
entry_read(struct model_dev *d, enum irdma_hmc_obj obj, uint32_t idx, void *buf, size_t len,
	   rte_iova_t *iova)
{
	if (!d->fpm_committed || idx >= d->obj[obj].cnt ||
	    model_hmc_iova(d, obj, idx, iova) != 0 || model_dma_read(d, *iova, buf, len) != 0)
		return -ENOENT;
	return 0;
}

/* Read ARP entry @p idx; -ENOENT when out of range, unbacked or free. */
static int
arp_get(struct model_dev *d, uint32_t idx, struct model_arp *e, rte_iova_t *iova)
{
	if (entry_read(d, IRDMA_HMC_OBJ_ARP, idx, e, sizeof(*e), iova) != 0 || !e->valid)
		return -ENOENT;
	return 0;
}

/* Read AH @p idx; -ENOENT when out of range, unbacked or free. */
static int
ah_get(struct model_dev *d, uint32_t idx, struct model_ah *a, rte_iova_t *iova)
{
	if (entry_read(d, IRDMA_HMC_OBJ_FSIAV, idx, a, sizeof(*a), iova) != 0 || !a->valid)
		return -ENOENT;
	return 0;
}

/* One AH less names ARP entry @p arp (at @p arp_iova); best effort, as the AH is gone. */
static void
arp_unref(struct model_dev *d, struct model_arp *arp, rte_iova_t arp_iova)
{
	if (arp->ah_refs == 0)
		return;
	arp->ah_refs--;
	(void)model_dma_write(d, arp_iova, arp, sizeof(*arp));
}

uint16_t
model_arp_check(struct model_dev *d, uint32_t idx)
{
	struct model_arp e;
	rte_iova_t iova;

	if (!d->fpm_committed || idx >= d->obj[IRDMA_HMC_OBJ_ARP].cnt)
		return IRDMA_MODEL_MIN_BAD_ID;
	if (idx == 0)
		return 0;
	return arp_get(d, idx, &e, &iova) == 0 ? 0 : IRDMA_MODEL_MIN_NO_OBJ;
}

void
model_op_create_ah(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_AH_IDX);
	struct model_arp arp;
	rte_iova_t iova, arp_iova;
	struct model_ah a;

	if (op_entry_read(d, IRDMA_HMC_OBJ_FSIAV, idx, &a, sizeof(a), &iova, r) ||
	    model_refuse(r, a.valid ? IRDMA_MODEL_MIN_OBJ_EXISTS : 0))
		return;
	memset(&a, 0, sizeof(a));
	a.valid = 1;
	a.mac = irdma_get(w, CQP_AH_MAC);
	a.vlan_tag = irdma_get(w, CQP_AH_VLANTAG);
	a.insert_vlan = irdma_get(w, CQP_AH_INSERTVLANTAG);
	a.tc = irdma_get(w, CQP_AH_TC);
	a.pd = (uint32_t)(irdma_get(w, CQP_AH_PDINDEXHI) << IRDMA_FIELD_BITS(CQP_AH_PDINDEXLO)) |
	       (uint32_t)irdma_get(w, CQP_AH_PDINDEXLO);
	a.flow_label = irdma_get(w, CQP_AH_FLOWLABEL);
	a.hop_limit = irdma_get(w, CQP_AH_HOPLIMIT);
	a.arp_idx = irdma_get(w, CQP_AH_ARPINDEX);
	a.ipv4 = irdma_get(w, CQP_AH_IPV4VALID);
	a.loopback = irdma_get(w, CQP_AH_DOLOOPBACK);
	a.dest[0] = irdma_get(w, CQP_AH_DEST_ADDR0);
	a.dest[1] = irdma_get(w, CQP_AH_DEST_ADDR1);
	a.dest[2] = irdma_get(w, CQP_AH_DEST_ADDR2);
	a.dest[3] = irdma_get(w, CQP_AH_DEST_ADDR3);
	a.src[0] = irdma_get(w, CQP_AH_SRC_ADDR0);
	a.src[1] = irdma_get(w, CQP_AH_SRC_ADDR1);
	a.src[2] = irdma_get(w, CQP_AH_SRC_ADDR2);
	a.src[3] = irdma_get(w, CQP_AH_SRC_ADDR3);
	if (model_refuse(r, a.pd < IRDMA_FIRST_USER_PD_ID || a.pd >= IRDMA_MAX_PDS ?
		       IRDMA_MODEL_MIN_BAD_ID : 0) ||
	    model_refuse(r, a.ipv4 && (a.dest[0] | a.dest[1] | a.dest[2]) != 0 ?
		       IRDMA_MODEL_MIN_BAD_FIELD : 0) ||
	    model_refuse(r, a.arp_idx >= d->obj[IRDMA_HMC_OBJ_ARP].cnt ? IRDMA_MODEL_MIN_BAD_ID : 0) ||
	    model_refuse(r, arp_get(d, a.arp_idx, &arp, &arp_iova) != 0 ? IRDMA_MODEL_MIN_NO_OBJ : 0))
		return;
	arp.ah_refs++;
	if (ah_io(d, arp_iova, &arp, sizeof(arp), true, r))
		return;
	if (ah_io(d, iova, &a, sizeof(a), true, r)) {
		arp_unref(d, &arp, arp_iova);
		return;
	}
	MODEL_LOG(DEBUG, d, "AH %u created (ARP %u)", idx, a.arp_idx);
}

void
model_op_destroy_ah(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t idx = irdma_get(w, CQP_AH_IDX);
	struct model_arp arp;
	rte_iova_t iova, arp_iova;
	struct model_ah a;

	if (op_entry_read(d, IRDMA_HMC_OBJ_FSIAV, idx, &a, sizeof(a), &iova, r) ||
	    model_refuse(r, !a.valid ? IRDMA_MODEL_MIN_NO_OBJ : 0))
		return;
	if (arp_get(d, a.arp_idx, &arp, &arp_iova) == 0)
		arp_unref(d, &arp, arp_iova);
	memset(&a, 0, sizeof(a));
	(void)ah_io(d, iova, &a, sizeof(a), true, r);
	MODEL_LOG(DEBUG, d, "AH %u destroyed", idx);
}

/* ---- diagnostics ---- */

int
irdma_model_arp_get(struct irdma_hw *hw, uint32_t idx, struct irdma_model_arp_info *info)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_arp e;
	rte_iova_t iova;
	int ret;

	if (d == NULL || info == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = arp_get(d, idx, &e, &iova);
	model_unlock(&d->lock);
	if (ret != 0)
		return ret;
	*info = (struct irdma_model_arp_info){
		.mac = e.mac,
		.reach_max = e.reach_max,
		.ah_refs = e.ah_refs,
		.permanent = e.permanent,
	};
	return 0;
}

int
irdma_model_ah_get(struct irdma_hw *hw, uint32_t idx, struct irdma_model_ah_info *info)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_ah a;
	rte_iova_t iova;
	int ret;

	if (d == NULL || info == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = ah_get(d, idx, &a, &iova);
	model_unlock(&d->lock);
	if (ret != 0)
		return ret;
	*info = (struct irdma_model_ah_info){
		.mac = a.mac,
		.pd = a.pd,
		.arp_idx = a.arp_idx,
		.flow_label = a.flow_label,
		.vlan_tag = a.vlan_tag,
		.insert_vlan = a.insert_vlan,
		.tc = a.tc,
		.hop_limit = a.hop_limit,
		.ipv4 = a.ipv4,
		.loopback = a.loopback,
	};
	memcpy(info->dest, a.dest, sizeof(info->dest));
	memcpy(info->src, a.src, sizeof(info->src));
	return 0;
}

/* ---- data path ---- */

int
model_arp_mac(struct model_dev *d, uint32_t idx, uint64_t *mac)
{
	struct model_arp e;
	rte_iova_t iova;

	if (arp_get(d, idx, &e, &iova) != 0)
		return -ENOENT;
	*mac = e.mac;
	return 0;
}

int
model_ah_view(struct model_dev *d, uint32_t idx, struct model_ah_view *v)
{
	struct model_ah a;
	rte_iova_t iova;

	if (ah_get(d, idx, &a, &iova) != 0)
		return -ENOENT;
	v->mac = a.mac;
	memcpy(v->dest, a.dest, sizeof(v->dest));
	memcpy(v->src, a.src, sizeof(v->src));
	v->pd = a.pd;
	v->flow_label = a.flow_label;
	v->vlan_tag = a.vlan_tag;
	v->insert_vlan = a.insert_vlan;
	v->tc = a.tc;
	v->hop_limit = a.hop_limit;
	v->ipv4 = a.ipv4;
	return 0;
}
