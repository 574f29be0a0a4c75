/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The VSI, the Tx scheduler and the work scheduler: what `ice` and `irdma` do so that a QP
 * has a qs_handle that names a transmit qset (doc/e810.md). One traffic class (TC 0).
 *
 * In the PF bring-up (AdminQ only), as ice's probe does before irdma runs:
 *   0. GET_SW_CFG (ice_get_initial_sw_cfg): the physical port element of this PF gives the
 *      logical port and the switch id the VSI context names;
 *   1. QUERY_SCHED_RES (ice_sched_query_res_alloc): the layer count, hence the VSI and
 *      qgroup layers (ice_sched_get_vsi_layer, ice_sched_get_qgrp_layer);
 *   2. ADD_VSI, type PF (ice_aq_add_vsi with ice_set_dflt_vsi_ctx's sections): vsi_num;
 *   3. GET_DFLT_TOPO (ice_aq_get_dflt_topo): the TC 0 node of branch 0 and the entry point;
 *   4. ADD_SCHED_ELEMS (ice_sched_add_elems), one SE_GENERIC node per layer: the support
 *      nodes from the entry point down to the VSI layer (ice_sched_add_vsi_support_nodes),
 *      then under the VSI node one per layer down to the qgroup layer
 *      (ice_sched_add_vsi_child_nodes with owner RDMA); the last is the qset's parent.
 * Once the CQP and the CCQ exist, as irdma_ws_add() on the first QP (done once here):
 *   5. CQP WORK_SCHED_NODE add: the root (its own parent), the VSI node, the TC 0 leaf,
 *      disabled; the leaf's CCQ OPRETVAL is its qs_handle;
 *   6. ADD_RDMA_QSET (ice_ena_vsi_rdma_qset) with tx_qset_id = qs_handle: the qset's TEID;
 *   7. WORK_SCHED_NODE modify: the leaf enabled;
 *   8. UPDATE_VSI with PE_FLTR_EN (ice_cfg_rdma_fltr, irdma's last probe step).
 * Teardown is the reverse (irdma's icrdma_remove, irdma_ws_reset, ice_dis_vsi_rdma_qset,
 * ice_free_vsi): PE filter off, WS delete leaf, DIS_TXQS of the qset, WS delete VSI node and
 * root, DELETE_SCHED_ELEMS of each added node from the qgroup up, FREE_VSI.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_log.h"

/* Work scheduler node ids: irdma takes them from a bitmap whose bit 0 is reserved. */
#define WS_ID_ROOT	1u
#define WS_ID_VSI	2u
#define WS_ID_LEAF	3u

/* One response element of GET_SW_CFG: true when it is this PF's physical port. */
static bool
pf_sw_cfg_elem(struct irdma_ctrl *c, const uint8_t *e)
{
	uint16_t f[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		f[i] = (uint16_t)(e[2 * i] | e[2 * i + 1] << 8);
	IRDMA_LOG(DEBUG, c->hw, "switch element: type %u number %u sw_id %u function %u%s",
		  f[0] >> IRDMA_AQ_SWCFG_TYPE_SHIFT, f[0] & IRDMA_AQ_SWCFG_NUM_MASK, f[1],
		  f[2] & IRDMA_AQ_SWCFG_FUNC_MASK, (f[2] & IRDMA_AQ_SWCFG_IS_VF) ? " (VF)" : "");
	if (f[0] >> IRDMA_AQ_SWCFG_TYPE_SHIFT != IRDMA_AQ_SWCFG_TYPE_PHYS_PORT ||
	    (f[2] & IRDMA_AQ_SWCFG_IS_VF) || (f[2] & IRDMA_AQ_SWCFG_FUNC_MASK) != c->pf.pf_id)
		return false;
	c->pf.lport = (uint8_t)(f[0] & IRDMA_AQ_SWCFG_NUM_MASK);
	c->pf.sw_id = f[1];
	return true;
}

/* Step 0: GET_SW_CFG, every page of it, for the PF's physical port (ice_get_initial_sw_cfg). */
static int
pf_sw_cfg(struct irdma_ctrl *c, uint8_t *buf)
{
	uint32_t next = 0, n, i, pages = 0;
	bool found = false;
	struct irdma_aq_desc d;
	int ret;

	do {
		irdma_aq_desc_init(&d, IRDMA_AQC_GET_SW_CFG, 0);
		irdma_set(&d, AQ_SWCFG_ELEMENT, next);
		ret = irdma_aq_send(c, &d, buf, IRDMA_AQ_SWCFG_BUF_LEN, "get switch configuration");
		if (ret != 0)
			return ret;
		n = (uint32_t)irdma_get(&d, AQ_SWCFG_NUM_ELEMS);
		if (n * IRDMA_AQ_SWCFG_ELEM_LEN > irdma_get(&d, AQ_DATALEN)) {
			IRDMA_LOG(ERR, c->hw, "switch configuration: %u elements in %u bytes", n,
				  (unsigned int)irdma_get(&d, AQ_DATALEN));
			return -EPROTO;
		}
		for (i = 0; i < n && !found; i++)
			found = pf_sw_cfg_elem(c, &buf[i * IRDMA_AQ_SWCFG_ELEM_LEN]);
		next = (uint32_t)irdma_get(&d, AQ_SWCFG_ELEMENT);
	} while (!found && next != 0 && ++pages < 64);
	if (!found) {
		IRDMA_LOG(ERR, c->hw, "switch configuration: no physical port of PF %u",
			  c->pf.pf_id);
		return -EPROTO;
	}
	if (c->pf.sw_id > IRDMA_FIELD_MAX(AQ_VSI_SW_ID)) {
		IRDMA_LOG(ERR, c->hw, "switch configuration: sw_id %u does not fit a VSI context",
			  c->pf.sw_id);
		return -EPROTO;
	}
	IRDMA_LOG(INFO, c->hw, "switch: logical port %u, sw_id %u", c->pf.lport, c->pf.sw_id);
	return 0;
}

/* Step 1: the PF VSI. */
static int
pf_vsi_add(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_vsi_ctx *ctx = (void *)pf->vsi_ctx;
	struct irdma_aq_desc d;
	int ret;

	/* ice_set_dflt_vsi_ctx + ice_vsi_setup_q_map for a PF VSI with one queue on TC 0;
	 * on add only the security section is marked valid (ice_vsi_init). */
	memset(pf->vsi_ctx, 0, sizeof(pf->vsi_ctx));
	irdma_set(ctx, AQ_VSI_VALID_SECTIONS, IRDMA_AQ_VSI_PROP_SECURITY);
	irdma_set(ctx, AQ_VSI_SW_ID, pf->sw_id);
	irdma_set(ctx, AQ_VSI_SW_FLAGS, IRDMA_AQ_VSI_SW_FLAG_SRC_PRUNE);
	irdma_set(ctx, AQ_VSI_SW_FLAGS2, IRDMA_AQ_VSI_SW_FLAG_LAN_ENA);
	irdma_set(ctx, AQ_VSI_SEC_FLAGS, IRDMA_AQ_VSI_SEC_ALLOW_DEST_OVRD);
	irdma_set(ctx, AQ_VSI_INNER_VLAN_FLAGS, IRDMA_AQ_VSI_INNER_VLAN_TX_ALL);
	irdma_set(ctx, AQ_VSI_INGRESS_TABLE, IRDMA_AQ_VSI_UP_TABLE_1TO1);
	irdma_set(ctx, AQ_VSI_EGRESS_TABLE, IRDMA_AQ_VSI_UP_TABLE_1TO1);
	irdma_set(ctx, AQ_VSI_Q_MAP0, 0);
	irdma_set(ctx, AQ_VSI_Q_MAP1, 1);
	irdma_set(ctx, AQ_VSI_TC_MAP0, 0);
	irdma_set(ctx, AQ_VSI_Q_OPT_RSS, IRDMA_AQ_VSI_Q_OPT_RSS_PF);
	irdma_aq_desc_init(&d, IRDMA_AQC_ADD_VSI, IRDMA_AQ_FLAG_RD);
	irdma_set(&d, AQ_VSI_FLAGS, IRDMA_AQ_VSI_TYPE_PF);
	ret = irdma_aq_send(c, &d, pf->vsi_ctx, sizeof(pf->vsi_ctx), "add VSI");
	if (ret != 0)
		return ret;
	pf->vsi_num = (uint16_t)(irdma_get(&d, AQ_VSI_NUM) & IRDMA_AQ_VSI_NUM_MASK);
	pf->vsi_valid = true;
	IRDMA_LOG(INFO, c->hw, "VSI %u added (%u used, %u free)", pf->vsi_num,
		  (unsigned int)irdma_get(&d, AQ_VSI_USED),
		  (unsigned int)irdma_get(&d, AQ_VSI_FLAGS));
	return 0;
}

/* UPDATE_VSI with the queue-options section: PE_FLTR_EN @p on (ice_cfg_rdma_fltr). */
static int
pf_vsi_pe_filter(struct irdma_ctrl *c, bool on)
{
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_vsi_ctx *ctx = (void *)pf->vsi_ctx;
	struct irdma_aq_desc d;
	int ret;

	irdma_set(ctx, AQ_VSI_VALID_SECTIONS, IRDMA_AQ_VSI_PROP_Q_OPT);
	irdma_set(ctx, AQ_VSI_Q_OPT_RSS, IRDMA_AQ_VSI_Q_OPT_RSS_PF);
	irdma_set(ctx, AQ_VSI_Q_OPT_FLAGS, on ? IRDMA_AQ_VSI_Q_OPT_PE_FLTR_EN : 0);
	irdma_aq_desc_init(&d, IRDMA_AQC_UPDATE_VSI, IRDMA_AQ_FLAG_RD);
	irdma_set(&d, AQ_VSI_NUM, pf->vsi_num | IRDMA_AQ_VSI_IS_VALID);
	ret = irdma_aq_send(c, &d, pf->vsi_ctx, sizeof(pf->vsi_ctx),
			    on ? "PE filter on (update VSI)" : "PE filter off (update VSI)");
	if (ret == 0) {
		pf->pe_filter = on;
		IRDMA_LOG(INFO, c->hw, "VSI %u: PE filter %s", pf->vsi_num, on ? "on" : "off");
	}
	return ret;
}

static void
pf_vsi_free(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_desc d;

	if (!pf->vsi_valid)
		return;
	irdma_aq_desc_init(&d, IRDMA_AQC_FREE_VSI, 0);
	irdma_set(&d, AQ_VSI_NUM, pf->vsi_num | IRDMA_AQ_VSI_IS_VALID);
	if (pf->aq_up && !pf->aq_hung)
		(void)irdma_aq_send(c, &d, NULL, 0, "free VSI");
	pf->vsi_valid = false;
}

/* Step 1: the layer count and the layers the PF's nodes go to. */
static int
pf_sched_res(struct irdma_ctrl *c, uint8_t *buf)
{
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_desc d;
	uint32_t n, i;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_QUERY_SCHED_RES, 0);
	ret = irdma_aq_send(c, &d, buf, IRDMA_AQ_SCHED_RES_LEN, "query scheduler resources");
	if (ret != 0)
		return ret;
	n = (uint32_t)irdma_get((const struct irdma_aq_sched_res *)buf, AQ_RES_LOGICAL_LEVELS);
	/* a TC, a VSI, a qgroup and a leaf layer below the port at least */
	if (n < 5 || n > IRDMA_AQ_SCHED_MAX_LAYERS) {
		IRDMA_LOG(ERR, c->hw, "scheduler: %u layers (5 to %u expected)", n,
			  IRDMA_AQ_SCHED_MAX_LAYERS);
		return -EPROTO;
	}
	for (i = 1; i < n; i++) {
		const struct irdma_aq_sched_layer *l = (const void *)&buf[IRDMA_AQ_SCHED_RES_LAYER0 +
								    i * IRDMA_AQ_SCHED_LAYER_LEN];

		if (irdma_get(l, AQ_LAYER_MAX_SIBL) == 0) {
			IRDMA_LOG(ERR, c->hw, "scheduler: layer %u takes no node", i);
			return -EPROTO;
		}
	}
	pf->sched_layers = (uint8_t)n;
	pf->qgrp_layer = (uint8_t)(n - 2);
	IRDMA_LOG(INFO, c->hw, "scheduler: %u layers, qgroup layer %u, %u RDMA qsets", n,
		  pf->qgrp_layer,
		  (unsigned int)irdma_get((const struct irdma_aq_sched_res *)buf,
					  AQ_RES_RDMA_QSETS));
	return 0;
}

/* Step 3: the TC 0 node and the entry point of branch 0 (element i is at layer i). */
static int
pf_topo_parse(struct irdma_ctrl *c, const uint8_t *buf, uint16_t dlen, uint32_t branches)
{
	const struct irdma_aq_sched_hdr *h = (const void *)buf;
	struct irdma_pf *pf = &c->pf;
	uint32_t teid[IRDMA_AQ_TOPO_ELEMS];
	uint32_t n, i, tc = UINT32_MAX, entry = 0;

	if (branches == 0 || dlen < IRDMA_AQ_SCHED_HDR_LEN) {
		IRDMA_LOG(ERR, c->hw, "scheduler: default topology with %u branches in %u bytes",
			  branches, dlen);
		return -EPROTO;
	}
	n = (uint32_t)irdma_get(h, AQ_SCHED_HDR_NUM);
	if (n == 0 || n > IRDMA_AQ_TOPO_ELEMS ||
	    IRDMA_AQ_SCHED_HDR_LEN + n * IRDMA_AQ_SCHED_ELEM_LEN > dlen) {
		IRDMA_LOG(ERR, c->hw, "scheduler: branch 0 of %u elements in %u bytes", n, dlen);
		return -EPROTO;
	}
	for (i = 0; i < n; i++) {
		const struct irdma_aq_sched_elem *e =
			(const void *)&buf[IRDMA_AQ_SCHED_HDR_LEN + i * IRDMA_AQ_SCHED_ELEM_LEN];
		uint64_t type = irdma_get(e, AQ_ELEM_TYPE);

		teid[i] = (uint32_t)irdma_get(e, AQ_ELEM_TEID);
		if (type == IRDMA_AQ_ELEM_TYPE_TC && tc == UINT32_MAX)
			tc = i;
		if (type == IRDMA_AQ_ELEM_TYPE_ENTRY_POINT && entry == 0)
			entry = i;
	}
	if (tc == UINT32_MAX) {
		IRDMA_LOG(ERR, c->hw, "scheduler: no TC node among the %u elements of branch 0",
			  n);
		return -EPROTO;
	}
	/* no entry point element: the PF's nodes start right under the TC node */
	if (entry == 0)
		entry = tc + 1;
	pf->tc_layer = (uint8_t)tc;
	pf->tc_teid = teid[tc];
	pf->entry_layer = (uint8_t)entry;
	/* ice_sched_get_vsi_layer: N - 4 of 9 layers, N - 2 of 5, else the entry point */
	pf->vsi_layer = pf->sched_layers == 9 ? 5 : pf->sched_layers == 5 ? 3 : (uint8_t)entry;
	if (entry <= tc || entry > pf->vsi_layer || pf->vsi_layer > pf->qgrp_layer) {
		IRDMA_LOG(ERR, c->hw, "scheduler: TC layer %u, entry point layer %u, VSI layer %u "
			  "and qgroup layer %u do not nest", tc, entry, pf->vsi_layer,
			  pf->qgrp_layer);
		return -EPROTO;
	}
	/* the node above the entry point: the TC node, or a default node of branch 0 */
	pf->branch_parent = entry - 1 < n ? teid[entry - 1] : 0;
	if (pf->branch_parent == 0) {
		IRDMA_LOG(ERR, c->hw, "scheduler: branch 0 has no node at layer %u", entry - 1);
		return -EPROTO;
	}
	IRDMA_LOG(INFO, c->hw, "scheduler: %u branches, TC 0 node TEID 0x%x at layer %u, entry "
		  "point layer %u, VSI layer %u", branches, pf->tc_teid, tc, entry,
		  pf->vsi_layer);
	return 0;
}

static int
pf_topo(struct irdma_ctrl *c, uint8_t *buf)
{
	struct irdma_aq_desc d;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_GET_DFLT_TOPO, 0);
	irdma_set(&d, AQ_TOPO_PORT, c->pf.lport);
	ret = irdma_aq_send(c, &d, buf, IRDMA_AQ_BUF_SIZE, "get scheduler topology");
	if (ret != 0)
		return ret;
	return pf_topo_parse(c, buf, (uint16_t)irdma_get(&d, AQ_DATALEN),
			     (uint32_t)irdma_get(&d, AQ_TOPO_BRANCHES));
}

/* Step 4: one SE_GENERIC node under @p parent; its TEID into *@p teid. */
static int
pf_sched_node_add(struct irdma_ctrl *c, uint32_t parent, unsigned int layer, uint32_t *teid)
{
	uint8_t buf[IRDMA_AQ_SCHED_HDR_LEN + IRDMA_AQ_SCHED_ELEM_LEN];
	struct irdma_aq_sched_hdr *h = (void *)buf;
	struct irdma_aq_sched_elem *e = (void *)&buf[IRDMA_AQ_SCHED_HDR_LEN];
	struct irdma_aq_desc d;
	int ret;

	memset(buf, 0, sizeof(buf));
	irdma_set(h, AQ_SCHED_HDR_PARENT, parent);
	irdma_set(h, AQ_SCHED_HDR_NUM, 1);
	irdma_set(e, AQ_ELEM_PARENT, parent);
	irdma_set(e, AQ_ELEM_TYPE, IRDMA_AQ_ELEM_TYPE_SE_GENERIC);
	irdma_set(e, AQ_ELEM_VALID, IRDMA_AQ_ELEM_VALID_DFLT);
	irdma_set(e, AQ_ELEM_CIR_PROF, IRDMA_AQ_SCHED_DFLT_PROF);
	irdma_set(e, AQ_ELEM_CIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
	irdma_set(e, AQ_ELEM_EIR_PROF, IRDMA_AQ_SCHED_DFLT_PROF);
	irdma_set(e, AQ_ELEM_EIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
	irdma_aq_desc_init(&d, IRDMA_AQC_ADD_SCHED_ELEMS, IRDMA_AQ_FLAG_RD);
	irdma_set(&d, AQ_SCHED_GRPS_REQ, 1);
	ret = irdma_aq_send(c, &d, buf, sizeof(buf), "add scheduler node");
	if (ret != 0)
		return ret;
	*teid = (uint32_t)irdma_get(e, AQ_ELEM_TEID);
	if (irdma_get(&d, AQ_SCHED_GRPS_RESP) != 1 || *teid == 0) {
		IRDMA_LOG(ERR, c->hw, "scheduler: %u groups added of 1, TEID 0x%x at layer %u",
			  (unsigned int)irdma_get(&d, AQ_SCHED_GRPS_RESP), *teid, layer);
		return -EPROTO;
	}
	IRDMA_LOG(DEBUG, c->hw, "scheduler: node TEID 0x%x at layer %u under 0x%x", *teid,
		  layer, parent);
	return 0;
}

/* Step 4: the branch of the PF's VSI, one node per layer from the entry point down. */
static int
pf_branch_add(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	uint32_t parent = pf->branch_parent;
	unsigned int l;
	int ret;

	for (l = pf->entry_layer; l <= pf->qgrp_layer; l++) {
		ret = pf_sched_node_add(c, parent, l, &pf->sched_teid[l]);
		if (ret != 0) {
			pf->sched_teid[l] = 0;
			return ret;
		}
		parent = pf->sched_teid[l];
	}
	pf->vsi_teid = pf->sched_teid[pf->vsi_layer];
	pf->qgrp_teid = pf->sched_teid[pf->qgrp_layer];
	pf->qgrp_valid = true;
	IRDMA_LOG(INFO, c->hw, "scheduler: VSI node TEID 0x%x at layer %u, RDMA qgroup node "
		  "TEID 0x%x at layer %u", pf->vsi_teid, pf->vsi_layer, pf->qgrp_teid,
		  pf->qgrp_layer);
	return 0;
}

/* Undo pf_branch_add(), deepest node first (a node with children cannot go). */
static void
pf_branch_del(struct irdma_ctrl *c)
{
	uint8_t buf[IRDMA_AQ_SCHED_HDR_LEN + sizeof(uint32_t)];
	struct irdma_aq_sched_hdr *h = (void *)buf;
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_desc d;
	unsigned int l;

	for (l = IRDMA_AQ_SCHED_MAX_LAYERS; l-- > 0;) {
		rte_le32_t teid = rte_cpu_to_le_32(pf->sched_teid[l]);

		if (pf->sched_teid[l] == 0)
			continue;
		memset(buf, 0, sizeof(buf));
		irdma_set(h, AQ_SCHED_HDR_PARENT,
			  l > pf->entry_layer ? pf->sched_teid[l - 1] : pf->branch_parent);
		irdma_set(h, AQ_SCHED_HDR_NUM, 1);
		memcpy(&buf[IRDMA_AQ_SCHED_HDR_LEN], &teid, sizeof(teid));
		irdma_aq_desc_init(&d, IRDMA_AQC_DEL_SCHED_ELEMS, IRDMA_AQ_FLAG_RD);
		irdma_set(&d, AQ_SCHED_GRPS_REQ, 1);
		if (pf->aq_up && !pf->aq_hung)
			(void)irdma_aq_send(c, &d, buf, sizeof(buf), "delete scheduler node");
		pf->sched_teid[l] = 0;
	}
	pf->vsi_teid = 0;
	pf->qgrp_teid = 0;
	pf->qgrp_valid = false;
}

int
irdma_pf_vsi_sched_init(struct irdma_ctrl *c)
{
	uint8_t *buf;
	int ret;

	buf = calloc(1, IRDMA_AQ_BUF_SIZE);
	if (buf == NULL)
		return -ENOMEM;
	ret = pf_sw_cfg(c, buf);
	if (ret == 0)
		ret = pf_sched_res(c, buf);
	if (ret == 0)
		ret = pf_vsi_add(c);
	if (ret == 0)
		ret = pf_topo(c, buf);
	free(buf);
	if (ret == 0)
		ret = pf_branch_add(c);
	if (ret != 0)
		irdma_pf_vsi_sched_fini(c);
	return ret;
}

void
irdma_pf_vsi_sched_fini(struct irdma_ctrl *c)
{
	pf_branch_del(c);
	pf_vsi_free(c);
}

/* One CQP WORK_SCHED_NODE command; *@p ret_val gets the CCQ OPRETVAL. */
static int
pf_ws_cmd(struct irdma_ctrl *c, enum irdma_ws_node_op op, uint16_t id, uint16_t parent,
	  bool leaf, bool enable, uint32_t *ret_val)
{
	static const char *const opname[] = { "add", "modify", "delete" };
	struct irdma_cqp_cmpl cmpl = { 0 };
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_WORK_SCHED_NODE);
	irdma_set(&w, CQP_WS_VSI, c->pf.vsi_num);
	irdma_set(&w, CQP_WS_WEIGHT, 1);
	irdma_set(&w, CQP_WS_NODEID, id);
	irdma_set(&w, CQP_WS_PARENTID, parent);
	irdma_set(&w, CQP_WS_NODEOP, op);
	irdma_set(&w, CQP_WS_TC, 0);
	irdma_set(&w, CQP_WS_PRIOTYPE, IRDMA_WS_PRIO_WRR);
	irdma_set(&w, CQP_WS_NODETYPE, leaf ? 1 : 0);
	irdma_set(&w, CQP_WS_ENABLENODE, enable ? 1 : 0);
	ret = irdma_cqp_exec(c, &w, &cmpl);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "work scheduler %s of %s node %u failed: %s", opname[op],
			  leaf ? "leaf" : id == WS_ID_ROOT ? "root" : "VSI", id, strerror(-ret));
		return ret;
	}
	if (ret_val != NULL)
		*ret_val = cmpl.op_ret;
	return 0;
}

/* Step 5: ADD_RDMA_QSET for the leaf's qs_handle. */
static int
pf_qset_add(struct irdma_ctrl *c)
{
	uint8_t buf[IRDMA_AQ_QSET_GRP_LEN];
	struct irdma_aq_qset_grp *g = (void *)buf;
	struct irdma_aq_desc d;
	int ret;

	memset(buf, 0, sizeof(buf));
	irdma_set(g, AQ_QSET_PARENT, c->pf.qgrp_teid);
	irdma_set(g, AQ_QSET_NUM, 1);
	irdma_set(g, AQ_QSET_ID, c->pf.qs_handle);
	irdma_set(g, AQ_QSET_VALID, IRDMA_AQ_ELEM_VALID_DFLT);
	irdma_set(g, AQ_QSET_CIR_PROF, IRDMA_AQ_SCHED_DFLT_PROF);
	irdma_set(g, AQ_QSET_CIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
	irdma_set(g, AQ_QSET_EIR_PROF, IRDMA_AQ_SCHED_DFLT_PROF);
	irdma_set(g, AQ_QSET_EIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
	irdma_aq_desc_init(&d, IRDMA_AQC_ADD_RDMA_QSET, IRDMA_AQ_FLAG_RD);
	irdma_set(&d, AQ_QSET_GRPS, 1);
	ret = irdma_aq_send(c, &d, buf, sizeof(buf), "add RDMA qset");
	if (ret != 0)
		return ret;
	c->pf.qset_teid = (uint32_t)irdma_get(g, AQ_QSET_TEID);
	c->pf.qset_valid = true;
	IRDMA_LOG(INFO, c->hw, "RDMA qset of TC 0: qs_handle %u, TEID 0x%x", c->pf.qs_handle,
		  c->pf.qset_teid);
	return 0;
}

/* DIS_TXQS of the qset (ice_dis_vsi_rdma_qset). */
static void
pf_qset_del(struct irdma_ctrl *c)
{
	uint8_t buf[IRDMA_AQ_DIS_ENTRY_LEN];
	struct irdma_aq_dis_entry *e = (void *)buf;
	struct irdma_aq_desc d;

	if (!c->pf.qset_valid)
		return;
	memset(buf, 0, sizeof(buf));
	irdma_set(e, AQ_DIS_PARENT, c->pf.qgrp_teid);
	irdma_set(e, AQ_DIS_NUM_QS, 1);
	irdma_set(e, AQ_DIS_QID, c->pf.qs_handle | IRDMA_AQ_DIS_RDMA_QSET);
	irdma_aq_desc_init(&d, IRDMA_AQC_DIS_TXQS, IRDMA_AQ_FLAG_RD);
	irdma_set(&d, AQ_DIS_CMD_TYPE, IRDMA_AQ_DIS_FLUSH_PIPE);
	irdma_set(&d, AQ_DIS_ENTRIES, 1);
	irdma_set(&d, AQ_DIS_VMVF_TIMEOUT, IRDMA_AQ_DIS_TIMEOUT);
	if (c->pf.aq_up && !c->pf.aq_hung)
		(void)irdma_aq_send(c, &d, buf, sizeof(buf), "remove RDMA qset");
	c->pf.qset_valid = false;
}

int
irdma_pf_qos_init(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	const char *step = "work scheduler root";
	uint32_t qs = 0;
	int ret;

	ret = pf_ws_cmd(c, IRDMA_WS_NODE_OP_ADD, WS_ID_ROOT, WS_ID_ROOT, false, true, NULL);
	if (ret == 0) {
		pf->ws_root = WS_ID_ROOT;
		step = "work scheduler VSI node";
		ret = pf_ws_cmd(c, IRDMA_WS_NODE_OP_ADD, WS_ID_VSI, WS_ID_ROOT, false, true, NULL);
	}
	if (ret == 0) {
		pf->ws_vsi = WS_ID_VSI;
		step = "work scheduler leaf";
		ret = pf_ws_cmd(c, IRDMA_WS_NODE_OP_ADD, WS_ID_LEAF, WS_ID_VSI, true, false, &qs);
	}
	if (ret == 0) {
		pf->ws_leaf = WS_ID_LEAF;
		if (qs > IRDMA_FIELD_MAX(QPC_QSHANDLE)) {
			IRDMA_LOG(ERR, c->hw, "work scheduler leaf: qs_handle %u does not fit the QP "
				  "context", qs);
			ret = -EPROTO;
		}
		pf->qs_handle = (uint16_t)qs;
	}
	if (ret == 0) {
		step = "RDMA qset";
		ret = pf_qset_add(c);
	}
	if (ret == 0) {
		step = "work scheduler leaf enable";
		ret = pf_ws_cmd(c, IRDMA_WS_NODE_OP_MODIFY, WS_ID_LEAF, WS_ID_VSI, true, true,
				NULL);
		pf->ws_leaf_on = ret == 0;
	}
	if (ret == 0) {
		step = "PE filter";
		ret = pf_vsi_pe_filter(c, true);
	}
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "QoS bring-up failed at step \"%s\": %s", step,
			  strerror(-ret));
		irdma_pf_qos_fini(c);
		return ret;
	}
	return 0;
}

void
irdma_pf_qos_fini(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;

	if (pf->pe_filter && pf->aq_up && !pf->aq_hung)
		(void)pf_vsi_pe_filter(c, false);
	pf->pe_filter = false;
	if (pf->ws_leaf != 0)
		(void)pf_ws_cmd(c, IRDMA_WS_NODE_OP_DELETE, pf->ws_leaf, WS_ID_VSI, true, false,
				NULL);
	pf->ws_leaf = 0;
	pf->ws_leaf_on = false;
	pf_qset_del(c);
	if (pf->ws_vsi != 0)
		(void)pf_ws_cmd(c, IRDMA_WS_NODE_OP_DELETE, pf->ws_vsi, WS_ID_ROOT, false, false,
				NULL);
	pf->ws_vsi = 0;
	if (pf->ws_root != 0)
		(void)pf_ws_cmd(c, IRDMA_WS_NODE_OP_DELETE, pf->ws_root, WS_ID_ROOT, false, false,
				NULL);
	pf->ws_root = 0;
	pf->qs_handle = 0;
}
