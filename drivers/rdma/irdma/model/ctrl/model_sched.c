/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * VSIs, the Tx scheduler, RDMA qsets (firmware's AdminQ side) and the PE's work scheduler
 * (CQP WORK_SCHED_NODE). Called with dev->lock held. doc/model.md, "The PF".
 *
 * Firmware (AdminQ, answered with enum irdma_aq_err):
 *   GET_SW_CFG      one page, one element: the PF's physical port (logical port 0) on the
 *                   switch MODEL_SW_ID(pf_id); ENOMEM when the buffer cannot hold it
 *   ADD_VSI         PF type only, 128-byte context naming the switch GET_SW_CFG reports
 *                   (EINVAL otherwise), pool allocation (no IS_VALID): the
 *                   hardware number 0x10 + 4 * pf_id + slot; ENOSPC when the table is full
 *   UPDATE_VSI      a VSI of this PF (ENOENT otherwise); the Q_OPT section sets PE_FLTR_EN
 *   FREE_VSI        a VSI of this PF; EBUSY while its PE filter is on
 *   QUERY_SCHED_RES MODEL_SCHED_LAYERS layers, MODEL_SCHED_SIBL siblings per parent
 *   GET_DFLT_TOPO   one branch: the port (ROOT_PORT, layer 0) and its TC 0 node (layer 1)
 *   ADD_SCHED_ELEMS one group of SE_GENERIC elements under an existing node that is neither
 *                   a leaf (ENOENT) nor the port (EINVAL: only TC nodes hang there), one
 *                   layer below it and above the leaf layer (EINVAL), MODEL_SCHED_SIBL
 *                   children per parent at most (ENOSPC)
 *   DEL_SCHED_ELEMS nodes this PF added, without children (EBUSY) and under the named parent
 *   ADD_RDMA_QSET   one group, one qset, under an SE_GENERIC node (ENOENT) of the qgroup
 *                   layer, the one above the leaf layer (EINVAL), whose qset id is the
 *                   qs_handle of a work scheduler leaf (ENOENT) not yet used (EEXIST)
 *   DIS_TXQS        an RDMA qset entry (q_id bit 15) naming one of those qsets and its parent
 * The PE (CQP, minor codes of enum irdma_model_minor):
 *   WORK_SCHED_NODE add: an unused node id (OBJ_EXISTS), the root names itself and exists
 *                   once, other nodes a parent (not a leaf) that exists (NO_OBJ), leaves a
 *                   VSI of this PF; a leaf's OPRETVAL is its qs_handle (8 + 16 * pf_id + n)
 *                   modify: an existing node of the same type; delete: one without children
 *                   (BAD_STATE)
 * A QP context's QSHANDLE must name an enabled leaf registered as an RDMA qset
 * (model_qs_check()).
 */

#include <string.h>

#include "model_engine.h"

#define MODEL_TEID_ROOT		UINT32_C(0x00000100)
#define MODEL_TEID_TC0		UINT32_C(0x00000101)
#define MODEL_TEID_FIRST	UINT32_C(0x00000200)
#define MODEL_QS_PER_PF		16u
#define MODEL_QS_BASE		8u
/* The switch id GET_SW_CFG reports: not 0, so a context that names none is refused. */
#define MODEL_SW_ID(pf)		(0x20u + (pf))
#define MODEL_LPORT		0u
/* The Tx scheduler's shape: 9 layers (port, TC, 3 aggregation, VSI, 2 qgroup, leaf). */
#define MODEL_SCHED_LAYERS	9u
#define MODEL_SCHED_SIBL	8u
#define MODEL_QGRP_LAYER	(MODEL_SCHED_LAYERS - 2)

static rte_iova_t
sched_buf_addr(const struct irdma_aq_desc *desc)
{
	return (uint64_t)irdma_get(desc, AQ_ADDR_HIGH) << 32 | irdma_get(desc, AQ_ADDR_LOW);
}

void
model_sched_reset(struct model_dev *d)
{
	struct model_pf *pf = &d->pf;

	memset(pf->vsi, 0, sizeof(pf->vsi));
	memset(pf->node, 0, sizeof(pf->node));
	memset(pf->qset, 0, sizeof(pf->qset));
	memset(pf->ws, 0, sizeof(pf->ws));
	pf->node[0] = (struct model_sched_node){ .used = true, .type = IRDMA_AQ_ELEM_TYPE_ROOT_PORT,
						 .teid = MODEL_TEID_ROOT, .parent = UINT32_MAX };
	pf->node[1] = (struct model_sched_node){ .used = true, .type = IRDMA_AQ_ELEM_TYPE_TC,
						 .layer = 1,
						 .teid = MODEL_TEID_TC0,
						 .parent = MODEL_TEID_ROOT };
	pf->next_teid = MODEL_TEID_FIRST;
}

static struct model_vsi *
sched_vsi(struct model_dev *d, uint32_t num_field)
{
	unsigned int i;

	if (!(num_field & IRDMA_AQ_VSI_IS_VALID))
		return NULL;
	for (i = 0; i < MODEL_PF_VSIS; i++)
		if (d->pf.vsi[i].used && d->pf.vsi[i].num == (num_field & IRDMA_AQ_VSI_NUM_MASK))
			return &d->pf.vsi[i];
	return NULL;
}

static bool
sched_vsi_num_ok(struct model_dev *d, uint32_t num)
{
	return sched_vsi(d, num | IRDMA_AQ_VSI_IS_VALID) != NULL;
}

static struct model_sched_node *
sched_node(struct model_dev *d, uint32_t teid)
{
	unsigned int i;

	for (i = 0; i < MODEL_SCHED_NODES; i++)
		if (d->pf.node[i].used && d->pf.node[i].teid == teid)
			return &d->pf.node[i];
	return NULL;
}

static unsigned int
sched_children(struct model_dev *d, uint32_t teid)
{
	unsigned int i, n = 0;

	for (i = 0; i < MODEL_SCHED_NODES; i++)
		if (d->pf.node[i].used && d->pf.node[i].parent == teid)
			n++;
	for (i = 0; i < MODEL_QSETS; i++)
		if (d->pf.qset[i].used && d->pf.qset[i].parent == teid)
			n++;
	return n;
}

static bool
sched_has_children(struct model_dev *d, uint32_t teid)
{
	unsigned int i;

	for (i = 0; i < MODEL_SCHED_NODES; i++)
		if (d->pf.node[i].used && d->pf.node[i].parent == teid)
			return true;
	for (i = 0; i < MODEL_QSETS; i++)
		if (d->pf.qset[i].used && d->pf.qset[i].parent == teid)
			return true;
	return false;
}

/* The RD buffer of @p desc into @p buf; datalen must be exactly @p len. */
static uint16_t
sched_read_buf(struct model_dev *d, const struct irdma_aq_desc *desc, void *buf, uint32_t len)
{
	if (irdma_get(desc, AQ_DATALEN) != len)
		return IRDMA_AQ_RC_EINVAL;
	if (model_dma_read(d, sched_buf_addr(desc), buf, len) != 0)
		return IRDMA_AQ_RC_BAD_ADDR;
	return 0;
}

static uint16_t
sched_sw_cfg(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t e[IRDMA_AQ_SWCFG_ELEM_LEN];
	uint16_t f[3] = {
		(uint16_t)(IRDMA_AQ_SWCFG_TYPE_PHYS_PORT << IRDMA_AQ_SWCFG_TYPE_SHIFT | MODEL_LPORT),
		(uint16_t)MODEL_SW_ID(d->cfg.pf_id), d->cfg.pf_id,
	};
	unsigned int i;

	if (irdma_get(desc, AQ_SWCFG_ELEMENT) != 0)
		return IRDMA_AQ_RC_EINVAL;	/* one page: no element to continue from */
	if (irdma_get(desc, AQ_DATALEN) < sizeof(e)) {
		irdma_set(desc, AQ_DATALEN, 0);
		return IRDMA_AQ_RC_ENOMEM;
	}
	for (i = 0; i < 3; i++) {
		e[2 * i] = (uint8_t)f[i];
		e[2 * i + 1] = (uint8_t)(f[i] >> 8);
	}
	(void)model_dma_write(d, sched_buf_addr(desc), e, sizeof(e));
	irdma_set(desc, AQ_DATALEN, sizeof(e));
	irdma_set(desc, AQ_SWCFG_NUM_ELEMS, 1);
	irdma_set(desc, AQ_SWCFG_ELEMENT, 0);
	return 0;
}

static uint16_t
sched_add_vsi(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t ctx[IRDMA_AQ_VSI_CTX_LEN];
	unsigned int i, used = 0;
	struct model_vsi *v = NULL;
	uint16_t rc;

	rc = sched_read_buf(d, desc, ctx, sizeof(ctx));
	if (rc != 0)
		return rc;
	if ((irdma_get(desc, AQ_VSI_FLAGS) & 3u) != IRDMA_AQ_VSI_TYPE_PF ||
	    (irdma_get(desc, AQ_VSI_NUM) & IRDMA_AQ_VSI_IS_VALID))
		return IRDMA_AQ_RC_EINVAL;
	if (irdma_get((const struct irdma_aq_vsi_ctx *)ctx, AQ_VSI_SW_ID) !=
	    MODEL_SW_ID(d->cfg.pf_id)) {
		MODEL_LOG(DEBUG, d, "ADD_VSI refused: sw_id %u names no switch of PF %u",
			  (unsigned int)irdma_get((const struct irdma_aq_vsi_ctx *)ctx,
						  AQ_VSI_SW_ID), d->cfg.pf_id);
		return IRDMA_AQ_RC_EINVAL;
	}
	for (i = 0; i < MODEL_PF_VSIS; i++) {
		if (d->pf.vsi[i].used)
			used++;
		else if (v == NULL)
			v = &d->pf.vsi[i];
	}
	if (v == NULL)
		return IRDMA_AQ_RC_ENOSPC;
	v->used = true;
	v->num = (uint16_t)(0x10u + MODEL_PF_VSIS * d->cfg.pf_id + (unsigned int)(v - d->pf.vsi));
	v->q_opt_flags = 0;
	MODEL_INC(d, vsi_adds);
	irdma_set(desc, AQ_VSI_NUM, v->num);
	irdma_set(desc, AQ_VSI_CMD_FLAGS, 0);
	irdma_set(desc, AQ_VSI_USED, used + 1);
	irdma_set(desc, AQ_VSI_FLAGS, MODEL_PF_VSIS - used - 1);
	return 0;
}

static uint16_t
sched_update_vsi(struct model_dev *d, struct irdma_aq_desc *desc)
{
	struct irdma_aq_vsi_ctx ctx;
	struct model_vsi *v;
	uint16_t rc;

	rc = sched_read_buf(d, desc, &ctx, sizeof(ctx));
	if (rc != 0)
		return rc;
	v = sched_vsi(d, (uint32_t)irdma_get(desc, AQ_VSI_NUM));
	if (v == NULL)
		return IRDMA_AQ_RC_ENOENT;
	/* Only the sections marked valid are applied (ice_vsi_init's comment). */
	if (irdma_get(&ctx, AQ_VSI_VALID_SECTIONS) & IRDMA_AQ_VSI_PROP_Q_OPT)
		v->q_opt_flags = (uint8_t)irdma_get(&ctx, AQ_VSI_Q_OPT_FLAGS);
	irdma_set(desc, AQ_VSI_NUM, v->num);
	return 0;
}

static uint16_t
sched_free_vsi(struct model_dev *d, struct irdma_aq_desc *desc)
{
	struct model_vsi *v = sched_vsi(d, (uint32_t)irdma_get(desc, AQ_VSI_NUM));

	if (v == NULL)
		return IRDMA_AQ_RC_ENOENT;
	if (v->q_opt_flags & IRDMA_AQ_VSI_Q_OPT_PE_FLTR_EN)
		return IRDMA_AQ_RC_EBUSY;
	v->used = false;
	MODEL_INC(d, vsi_frees);
	return 0;
}

static void
sched_elem_of(const struct model_sched_node *n, struct irdma_aq_sched_elem *e)
{
	memset(e, 0, sizeof(*e));
	irdma_set(e, AQ_ELEM_PARENT, n->parent);
	irdma_set(e, AQ_ELEM_TEID, n->teid);
	irdma_set(e, AQ_ELEM_TYPE, n->type);
	irdma_set(e, AQ_ELEM_VALID, IRDMA_AQ_ELEM_VALID_DFLT);
	irdma_set(e, AQ_ELEM_CIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
	irdma_set(e, AQ_ELEM_EIR_BW, IRDMA_AQ_SCHED_DFLT_BW);
}

static uint16_t
sched_res(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t buf[IRDMA_AQ_SCHED_RES_LEN];
	unsigned int i;

	if (irdma_get(desc, AQ_DATALEN) < sizeof(buf)) {
		irdma_set(desc, AQ_DATALEN, 0);
		return IRDMA_AQ_RC_ENOMEM;
	}
	memset(buf, 0, sizeof(buf));
	irdma_set((struct irdma_aq_sched_res *)buf, AQ_RES_PHYS_LEVELS, MODEL_SCHED_LAYERS);
	irdma_set((struct irdma_aq_sched_res *)buf, AQ_RES_LOGICAL_LEVELS, MODEL_SCHED_LAYERS);
	irdma_set((struct irdma_aq_sched_res *)buf, AQ_RES_RDMA_QSETS, MODEL_QSETS);
	for (i = 0; i < MODEL_SCHED_LAYERS; i++) {
		struct irdma_aq_sched_layer *l =
			(void *)&buf[IRDMA_AQ_SCHED_RES_LAYER0 + i * IRDMA_AQ_SCHED_LAYER_LEN];

		irdma_set(l, AQ_LAYER_NUM, i);
		irdma_set(l, AQ_LAYER_MAX_DEV_NODES, i == 0 ? 1 : MODEL_SCHED_NODES);
		irdma_set(l, AQ_LAYER_MAX_PF_NODES, i == 0 ? 1 : MODEL_SCHED_NODES);
		irdma_set(l, AQ_LAYER_MAX_SIBL, i == 0 ? 1 : MODEL_SCHED_SIBL);
	}
	(void)model_dma_write(d, sched_buf_addr(desc), buf, sizeof(buf));
	irdma_set(desc, AQ_DATALEN, sizeof(buf));
	return 0;
}

static uint16_t
sched_topo(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t buf[IRDMA_AQ_SCHED_HDR_LEN + 2 * IRDMA_AQ_SCHED_ELEM_LEN];
	struct irdma_aq_sched_hdr *h = (void *)buf;
	unsigned int i;

	if (irdma_get(desc, AQ_TOPO_PORT) != MODEL_LPORT)
		return IRDMA_AQ_RC_EINVAL;
	if (irdma_get(desc, AQ_DATALEN) < sizeof(buf)) {
		irdma_set(desc, AQ_DATALEN, 0);
		return IRDMA_AQ_RC_ENOMEM;
	}
	memset(buf, 0, sizeof(buf));
	irdma_set(h, AQ_SCHED_HDR_PARENT, UINT32_MAX);
	irdma_set(h, AQ_SCHED_HDR_NUM, 2);
	for (i = 0; i < 2; i++)
		sched_elem_of(&d->pf.node[i], (void *)&buf[IRDMA_AQ_SCHED_HDR_LEN +
							  i * IRDMA_AQ_SCHED_ELEM_LEN]);
	(void)model_dma_write(d, sched_buf_addr(desc), buf, sizeof(buf));
	irdma_set(desc, AQ_DATALEN, sizeof(buf));
	irdma_set(desc, AQ_TOPO_BRANCHES, 1);
	return 0;
}

/* The group header at the start of an RD buffer of @p len bytes. */
static uint16_t
sched_group(struct model_dev *d, const struct irdma_aq_desc *desc, uint8_t *buf,
	    uint32_t elem_len, uint32_t *parent, uint32_t *n)
{
	uint32_t len = (uint32_t)irdma_get(desc, AQ_DATALEN);
	const struct irdma_aq_sched_hdr *h = (const void *)buf;

	if (irdma_get(desc, AQ_SCHED_GRPS_REQ) != 1 || len < IRDMA_AQ_SCHED_HDR_LEN ||
	    len > IRDMA_AQ_MAX_BUF_LEN)
		return IRDMA_AQ_RC_EINVAL;
	if (model_dma_read(d, sched_buf_addr(desc), buf, len) != 0)
		return IRDMA_AQ_RC_BAD_ADDR;
	*parent = (uint32_t)irdma_get(h, AQ_SCHED_HDR_PARENT);
	*n = (uint32_t)irdma_get(h, AQ_SCHED_HDR_NUM);
	if (*n == 0 || len != IRDMA_AQ_SCHED_HDR_LEN + *n * elem_len)
		return IRDMA_AQ_RC_EINVAL;
	return 0;
}

static uint16_t
sched_add_elems(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t buf[IRDMA_AQ_MAX_BUF_LEN];
	struct model_sched_node *p, *slot[MODEL_SCHED_NODES];
	uint32_t parent, n, i, k, free_n = 0;
	uint16_t rc;

	rc = sched_group(d, desc, buf, IRDMA_AQ_SCHED_ELEM_LEN, &parent, &n);
	if (rc != 0)
		return rc;
	p = sched_node(d, parent);
	if (p == NULL || p->type == IRDMA_AQ_ELEM_TYPE_LEAF)
		return IRDMA_AQ_RC_ENOENT;
	/* under the port only TC nodes; leaves (queues, qsets) are not added here */
	if (p->type == IRDMA_AQ_ELEM_TYPE_ROOT_PORT || p->layer + 1u >= MODEL_SCHED_LAYERS - 1) {
		MODEL_LOG(DEBUG, d, "ADD_SCHED_ELEMS refused: a node at layer %u under 0x%x",
			  p->layer + 1u, parent);
		return IRDMA_AQ_RC_EINVAL;
	}
	if (sched_children(d, parent) + n > MODEL_SCHED_SIBL)
		return IRDMA_AQ_RC_ENOSPC;
	for (i = 0; i < n; i++) {
		const struct irdma_aq_sched_elem *e =
			(const void *)&buf[IRDMA_AQ_SCHED_HDR_LEN + i * IRDMA_AQ_SCHED_ELEM_LEN];

		if (irdma_get(e, AQ_ELEM_PARENT) != parent ||
		    irdma_get(e, AQ_ELEM_TYPE) != IRDMA_AQ_ELEM_TYPE_SE_GENERIC)
			return IRDMA_AQ_RC_EINVAL;
	}
	for (k = 0; k < MODEL_SCHED_NODES && free_n < n; k++)
		if (!d->pf.node[k].used)
			slot[free_n++] = &d->pf.node[k];
	if (free_n < n)
		return IRDMA_AQ_RC_ENOSPC;
	for (i = 0; i < n; i++) {
		struct irdma_aq_sched_elem *e =
			(void *)&buf[IRDMA_AQ_SCHED_HDR_LEN + i * IRDMA_AQ_SCHED_ELEM_LEN];

		*slot[i] = (struct model_sched_node){ .used = true,
						      .type = IRDMA_AQ_ELEM_TYPE_SE_GENERIC,
						      .layer = (uint8_t)(p->layer + 1),
						      .teid = d->pf.next_teid++, .parent = parent };
		irdma_set(e, AQ_ELEM_TEID, slot[i]->teid);
		MODEL_INC(d, sched_adds);
	}
	(void)model_dma_write(d, sched_buf_addr(desc), buf, (size_t)irdma_get(desc, AQ_DATALEN));
	irdma_set(desc, AQ_SCHED_GRPS_RESP, 1);
	return 0;
}

static uint16_t
sched_del_elems(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t buf[IRDMA_AQ_MAX_BUF_LEN];
	struct model_sched_node *v;
	uint32_t parent, n, i;
	uint16_t rc;

	rc = sched_group(d, desc, buf, sizeof(uint32_t), &parent, &n);
	if (rc != 0)
		return rc;
	/* Check all first: a refused command changes nothing. */
	for (i = 0; i < n; i++) {
		rte_le32_t t;

		memcpy(&t, &buf[IRDMA_AQ_SCHED_HDR_LEN + i * 4], sizeof(t));
		v = sched_node(d, rte_le_to_cpu_32(t));
		if (v == NULL || v->type != IRDMA_AQ_ELEM_TYPE_SE_GENERIC || v->parent != parent)
			return IRDMA_AQ_RC_ENOENT;
		if (sched_has_children(d, v->teid))
			return IRDMA_AQ_RC_EBUSY;
	}
	for (i = 0; i < n; i++) {
		rte_le32_t t;

		memcpy(&t, &buf[IRDMA_AQ_SCHED_HDR_LEN + i * 4], sizeof(t));
		v = sched_node(d, rte_le_to_cpu_32(t));
		if (v != NULL) {
			v->used = false;
			MODEL_INC(d, sched_dels);
		}
	}
	irdma_set(desc, AQ_SCHED_GRPS_RESP, 1);
	return 0;
}

/* The leaf whose qs_handle is @p qs, or NULL. */
static struct model_ws_node *
ws_leaf_of(struct model_dev *d, uint32_t qs)
{
	unsigned int i;

	for (i = 1; i <= IRDMA_WS_MAX_NODES; i++)
		if (d->pf.ws[i].used && d->pf.ws[i].leaf && d->pf.ws[i].qs_handle == qs)
			return &d->pf.ws[i];
	return NULL;
}

static struct model_qset *
qset_of(struct model_dev *d, uint32_t qs)
{
	unsigned int i;

	for (i = 0; i < MODEL_QSETS; i++)
		if (d->pf.qset[i].used && d->pf.qset[i].qs_id == qs)
			return &d->pf.qset[i];
	return NULL;
}

static uint16_t
sched_add_qset(struct model_dev *d, struct irdma_aq_desc *desc)
{
	struct irdma_aq_qset_grp g;
	struct model_sched_node *p;
	struct model_qset *q = NULL;
	unsigned int i;
	uint32_t qs;
	uint16_t rc;

	if (irdma_get(desc, AQ_QSET_GRPS) != 1)
		return IRDMA_AQ_RC_EINVAL;
	rc = sched_read_buf(d, desc, &g, sizeof(g));
	if (rc != 0)
		return rc;
	if (irdma_get(&g, AQ_QSET_NUM) != 1)
		return IRDMA_AQ_RC_EINVAL;
	p = sched_node(d, (uint32_t)irdma_get(&g, AQ_QSET_PARENT));
	if (p == NULL || p->type != IRDMA_AQ_ELEM_TYPE_SE_GENERIC)
		return IRDMA_AQ_RC_ENOENT;
	if (p->layer != MODEL_QGRP_LAYER) {
		MODEL_LOG(DEBUG, d, "ADD_RDMA_QSET refused: parent 0x%x at layer %u, not %u",
			  p->teid, p->layer, MODEL_QGRP_LAYER);
		return IRDMA_AQ_RC_EINVAL;
	}
	if (sched_children(d, p->teid) >= MODEL_SCHED_SIBL)
		return IRDMA_AQ_RC_ENOSPC;
	qs = (uint32_t)irdma_get(&g, AQ_QSET_ID);
	if (ws_leaf_of(d, qs) == NULL)
		return IRDMA_AQ_RC_ENOENT;
	if (qset_of(d, qs) != NULL)
		return IRDMA_AQ_RC_EEXIST;
	for (i = 0; i < MODEL_QSETS && q == NULL; i++)
		if (!d->pf.qset[i].used)
			q = &d->pf.qset[i];
	if (q == NULL)
		return IRDMA_AQ_RC_ENOSPC;
	*q = (struct model_qset){ .used = true, .qs_id = (uint16_t)qs,
				  .teid = d->pf.next_teid++, .parent = p->teid };
	irdma_set(&g, AQ_QSET_TEID, q->teid);
	(void)model_dma_write(d, sched_buf_addr(desc), &g, sizeof(g));
	MODEL_INC(d, qset_adds);
	return 0;
}

static uint16_t
sched_dis_txqs(struct model_dev *d, struct irdma_aq_desc *desc)
{
	struct irdma_aq_dis_entry e;
	struct model_qset *q;
	uint32_t qid;
	uint16_t rc;

	if (irdma_get(desc, AQ_DIS_ENTRIES) != 1)
		return IRDMA_AQ_RC_EINVAL;
	rc = sched_read_buf(d, desc, &e, sizeof(e));
	if (rc != 0)
		return rc;
	qid = (uint32_t)irdma_get(&e, AQ_DIS_QID);
	if (irdma_get(&e, AQ_DIS_NUM_QS) != 1 || !(qid & IRDMA_AQ_DIS_RDMA_QSET))
		return IRDMA_AQ_RC_EINVAL;
	q = qset_of(d, qid & ~IRDMA_AQ_DIS_RDMA_QSET);
	if (q == NULL || q->parent != irdma_get(&e, AQ_DIS_PARENT))
		return IRDMA_AQ_RC_ENOENT;
	q->used = false;
	MODEL_INC(d, qset_dels);
	return 0;
}

uint16_t
model_aq_sched(struct model_dev *d, struct irdma_aq_desc *desc)
{
	switch (irdma_get(desc, AQ_OPCODE)) {
	case IRDMA_AQC_ADD_VSI:
		return sched_add_vsi(d, desc);
	case IRDMA_AQC_UPDATE_VSI:
		return sched_update_vsi(d, desc);
	case IRDMA_AQC_FREE_VSI:
		return sched_free_vsi(d, desc);
	case IRDMA_AQC_GET_SW_CFG:
		return sched_sw_cfg(d, desc);
	case IRDMA_AQC_QUERY_SCHED_RES:
		return sched_res(d, desc);
	case IRDMA_AQC_GET_DFLT_TOPO:
		return sched_topo(d, desc);
	case IRDMA_AQC_ADD_SCHED_ELEMS:
		return sched_add_elems(d, desc);
	case IRDMA_AQC_DEL_SCHED_ELEMS:
		return sched_del_elems(d, desc);
	case IRDMA_AQC_ADD_RDMA_QSET:
		return sched_add_qset(d, desc);
	case IRDMA_AQC_DIS_TXQS:
		return sched_dis_txqs(d, desc);
	default:
		return IRDMA_AQ_RC_ESRCH;
	}
}

static bool
ws_has_children(struct model_dev *d, uint32_t id)
{
	unsigned int i;

	for (i = 1; i <= IRDMA_WS_MAX_NODES; i++)
		if (i != id && d->pf.ws[i].used && d->pf.ws[i].parent == id)
			return true;
	return false;
}

static bool
ws_root_exists(struct model_dev *d)
{
	unsigned int i;

	for (i = 1; i <= IRDMA_WS_MAX_NODES; i++)
		if (d->pf.ws[i].used && d->pf.ws[i].parent == i)
			return true;
	return false;
}

/* The smallest free qs_handle of this PF. */
static uint16_t
ws_qs_alloc(struct model_dev *d)
{
	uint32_t qs = MODEL_QS_BASE + MODEL_QS_PER_PF * d->cfg.pf_id, end = qs + MODEL_QS_PER_PF;

	for (; qs < end; qs++)
		if (ws_leaf_of(d, qs) == NULL)
			return (uint16_t)qs;
	return 0;
}

static uint16_t
ws_add(struct model_dev *d, const struct irdma_cqp_wqe *w, uint32_t id, struct model_res *r)
{
	struct model_ws_node *n = &d->pf.ws[id];
	uint32_t parent = irdma_get(w, CQP_WS_PARENTID);
	bool leaf = irdma_get(w, CQP_WS_NODETYPE) != 0;
	uint16_t qs = 0;

	if (n->used)
		return IRDMA_MODEL_MIN_OBJ_EXISTS;
	if (parent == id) {
		if (leaf || ws_root_exists(d))
			return IRDMA_MODEL_MIN_BAD_FIELD;
	} else if (parent == 0 || parent > IRDMA_WS_MAX_NODES || !d->pf.ws[parent].used ||
		   d->pf.ws[parent].leaf) {
		return IRDMA_MODEL_MIN_NO_OBJ;
	}
	if (leaf && !sched_vsi_num_ok(d, irdma_get(w, CQP_WS_VSI)))
		return IRDMA_MODEL_MIN_NO_OBJ;
	if (leaf) {
		qs = ws_qs_alloc(d);
		if (qs == 0)
			return IRDMA_MODEL_MIN_BAD_STATE;
	}
	*n = (struct model_ws_node){ .used = true, .leaf = leaf,
				     .enable = irdma_get(w, CQP_WS_ENABLENODE) != 0,
				     .tc = (uint8_t)irdma_get(w, CQP_WS_TC),
				     .parent = (uint16_t)parent,
				     .vsi = (uint16_t)irdma_get(w, CQP_WS_VSI), .qs_handle = qs };
	r->retval = qs;
	MODEL_INC(d, ws_adds);
	return 0;
}

void
model_op_ws_node(struct model_dev *d, const struct irdma_cqp_wqe *w, struct model_res *r)
{
	uint32_t id = irdma_get(w, CQP_WS_NODEID);
	struct model_ws_node *n;
	uint16_t minor = 0;

	if (id == 0 || id > IRDMA_WS_MAX_NODES || irdma_get(w, CQP_WS_VMVFTYPE) != 0 ||
	    irdma_get(w, CQP_WS_PRIOTYPE) > 2) {
		(void)model_refuse(r, IRDMA_MODEL_MIN_BAD_FIELD);
		return;
	}
	n = &d->pf.ws[id];
	switch (irdma_get(w, CQP_WS_NODEOP)) {
	case IRDMA_WS_NODE_OP_ADD:
		minor = ws_add(d, w, id, r);
		break;
	case IRDMA_WS_NODE_OP_MODIFY:
		if (!n->used)
			minor = IRDMA_MODEL_MIN_NO_OBJ;
		else if (n->leaf != (irdma_get(w, CQP_WS_NODETYPE) != 0))
			minor = IRDMA_MODEL_MIN_BAD_FIELD;
		else
			n->enable = irdma_get(w, CQP_WS_ENABLENODE) != 0;
		break;
	case IRDMA_WS_NODE_OP_DELETE:
		if (!n->used)
			minor = IRDMA_MODEL_MIN_NO_OBJ;
		else if (ws_has_children(d, id))
			minor = IRDMA_MODEL_MIN_BAD_STATE;
		if (minor == 0) {
			n->used = false;
			MODEL_INC(d, ws_dels);
		}
		break;
	default:
		minor = IRDMA_MODEL_MIN_BAD_FIELD;
		break;
	}
	if (minor != 0)
		MODEL_LOG(DEBUG, d, "WORK_SCHED_NODE op %u node %u refused: minor 0x%x",
			  (unsigned int)irdma_get(w, CQP_WS_NODEOP), id, minor);
	(void)model_refuse(r, minor);
}

uint16_t
model_qs_check(struct model_dev *d, uint32_t qs_handle)
{
	const struct model_ws_node *n = ws_leaf_of(d, qs_handle);

	if (n == NULL || !n->enable || qset_of(d, qs_handle) == NULL) {
		MODEL_INC(d, qs_refused);
		MODEL_LOG(DEBUG, d, "QP context refused: qs_handle %u names no enabled qset",
			  qs_handle);
		return IRDMA_MODEL_MIN_NO_OBJ;
	}
	return 0;
}
