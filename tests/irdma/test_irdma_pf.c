/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PF layer (drivers/rdma/irdma/pf/) against the model's PF (model_pf.c, model_adminq.c):
 *  - conformance: every AdminQ descriptor the driver writes during start and stop, decoded
 *    with an independent decoder at the byte offsets of Linux's struct ice_aq_desc and the
 *    command structs in ice_adminq_cmd.h (not base/irdma_pf.h);
 *  - faults, one per step: firmware never answers (timeout naming the step), answers with a
 *    return code (errno + a log line naming the command and the code), lacks RDMA, speaks an
 *    unknown API major, the PF reset never completes; each undoes what was done (DMA maps
 *    balanced, AdminQ registers cleared) and the next start works;
 *  - the model's AdminQ executor on hand-built descriptors (malformed ones answered with
 *    AdminQ codes) and its PE gate around a PF reset;
 *  - PF 3: HMC function id 3 in FPM / SD commands and QP contexts, the model refusing a
 *    function id that is not the PF's;
 *  - link down / up: port events and rdmadev_port_info; the dump line; the MAC and the
 *    default GID table from MANAGE_MAC_READ.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"


/* Devargs @p s with the common sizes and the variant's mode (tests/common/test_fixture.h). */
#define DEV(s) test_variant_devargs(s ",qps=64,cqs=64,mrs=64")

/* ---- an independent decoder (struct ice_aq_desc byte offsets) ---- */

static uint32_t
le16_at(const uint8_t *p, size_t off)
{
	return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8;
}

static uint32_t
le32_at(const uint8_t *p, size_t off)
{
	return le16_at(p, off) | le16_at(p, off + 2) << 16;
}

/* ice_aq_desc: flags @0, opcode @2, datalen @4, retval @6, params @16, addr_high @24, low @28 */
#define D_FLAGS(p)	le16_at(p, 0)
#define D_OPCODE(p)	le16_at(p, 2)
#define D_DATALEN(p)	le16_at(p, 4)
#define D_RETVAL(p)	le16_at(p, 6)
#define D_ADDR(p)	((uint64_t)le32_at(p, 24) << 32 | le32_at(p, 28))
/* ICE_AQ_FLAG_* */
#define F_DD	0x0001u
#define F_CMP	0x0002u
#define F_ERR	0x0004u
#define F_LB	0x0200u
#define F_RD	0x0400u
#define F_BUF	0x1000u
#define F_SI	0x2000u

/* ---- log capture ---- */

static char *log_buf;
static size_t log_len;
static FILE *log_f;

static void
log_start(void)
{
	log_f = open_memstream(&log_buf, &log_len);
	TEST_CHECK(log_f != NULL);
	rte_openlog_stream(log_f);
}

/* Stop capturing; true when the captured lines contain every one of @p a, @p b. */
static bool
log_has(const char *a, const char *b)
{
	bool ok;

	rte_openlog_stream(NULL);
	fclose(log_f);
	ok = log_buf != NULL && strstr(log_buf, a) != NULL && (b == NULL || strstr(log_buf, b));
	if (!ok)
		printf("# log was:\n%s", log_buf != NULL ? log_buf : "");
	free(log_buf);
	log_buf = NULL;
	return ok;
}

/* ---- helpers ---- */

static int
pf_open(const char *devargs)
{
	static const struct rdmadev_conf one = { .nb_comp_vectors = 1 };
	int id = rdmadev_open(devargs);

	TEST_CHECK(id >= 0);
	if (id >= 0)
		TEST_CHECK_EQ(rdmadev_configure((int16_t)id, &one), 0);
	return id;
}

/* After a refused start: every DMA map undone, the AdminQ registers cleared. */
static void
pf_check_undone(int id)
{
	struct irdma_hw *hw = pmd_hw(id);
	struct irdma_model_stats st;

	TEST_CHECK_EQ(irdma_model_stats_get(hw, &st), 0);
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(st.dma_faults, 0);
	/* VSIs, scheduler nodes, qsets and work scheduler nodes all given back */
	TEST_CHECK_EQ(st.vsi_adds, st.vsi_frees);
	TEST_CHECK_EQ(st.sched_adds, st.sched_dels);
	TEST_CHECK_EQ(st.qset_adds, st.qset_dels);
	TEST_CHECK_EQ(st.ws_adds, st.ws_dels);
	TEST_CHECK_EQ(irdma_rd32(hw, 0x80200), 0);	/* PF_FW_ATQLEN */
	TEST_CHECK_EQ(irdma_rd32(hw, 0x80280), 0);	/* PF_FW_ARQLEN */
	TEST_CHECK_EQ(irdma_rd32(hw, 0x80000), 0);	/* PF_FW_ATQBAL */
	TEST_CHECK_EQ(irdma_rd32(hw, 0x80080), 0);	/* PF_FW_ARQBAL */
}

/* Open the model device with the next AdminQ command @p opcode faulted (@p kind, @p code). */
static int
pf_open_aq_fault(uint16_t opcode, enum irdma_model_aq_fault kind, uint16_t code)
{
	int id = pf_open(DEV("irdma_model0"));

	if (id >= 0)
		TEST_CHECK_EQ(irdma_model_inject_aq_fault(pmd_hw(id), opcode, kind, code), 0);
	return id;
}

/*
 * Start @p id with a fault armed: the start fails with @p err (with any error when 0), the
 * log names @p a and @p b, and the bring-up is undone.
 */
static void
pf_start_refused(int id, int err, const char *a, const char *b)
{
	int rc;

	log_start();
	rc = rdmadev_start((int16_t)id);
	if (err != 0)
		TEST_CHECK_EQ(rc, err);
	else
		TEST_CHECK(rc < 0);
	TEST_CHECK(log_has(a, b));
	pf_check_undone(id);
}

/* Start @p id, stop it and close it, checking the teardown balanced. */
static void
pf_start_stop_close(int id)
{
	struct irdma_model_stats st;

	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	pf_check_undone(id);
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
	TEST_CHECK(st.pf_resets >= 1);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/* ---- conformance ---- */

/* What each descriptor of a start + stop must be, in order. */
struct want {
	uint16_t opcode;
	uint16_t datalen;	/* 0: direct */
	bool rd;		/* firmware reads the buffer */
	uint32_t param0;	/* desc+16 .. 19 */
	uint32_t param0_mask;
	uint32_t param1;	/* desc+20 .. 23 */
	uint32_t param1_mask;
	uint32_t addr_high_le16;	/* desc+24 le16 for SET_EVENT_MASK, else unchecked */
	const char *what;
};


/* The model's numbers: PF 0's first VSI, its TC 0 node, the first TEID and qs_handle. */
#define M_VSI		0x10u
#define M_SW_ID		0x20u	/* PF 0's switch (GET_SW_CFG) */
#define M_TC_TEID	0x101u
#define M_QGRP_TEID	0x205u	/* layer 7 of 9: the sixth node (layers 2 to 7) */
#define M_QS		8u

/* The scheduler nodes' TEIDs, as the model hands them out: 0x200 at layer 2 ... 0x205. */
static const uint32_t add_parent[] = { M_TC_TEID, 0x200, 0x201, 0x202, 0x203, 0x204 };
static const uint32_t del_teid[] = { 0x205, 0x204, 0x203, 0x202, 0x201, 0x200 };

/*
 * The RD buffers, at the byte offsets of struct ice_aqc_vsi_props,
 * ice_aqc_txsched_elem_data, ice_aqc_add_rdma_qset_data and ice_aqc_dis_txq_item.
 */
static void
check_rd_buf(uint16_t opcode, const uint8_t *b, bool pe_on, unsigned int nth)
{
	switch (opcode) {
	case 0x0210:	/* add VSI: ice_set_dflt_vsi_ctx for a PF VSI, one queue on TC 0 */
		TEST_CHECK_EQ(le16_at(b, 0), 0x0002);		/* valid: SECURITY only */
		TEST_CHECK_EQ(b[2], M_SW_ID);			/* sw_id from GET_SW_CFG */
		TEST_CHECK_EQ(b[3], 0x80);			/* sw_flags: SRC_PRUNE */
		TEST_CHECK_EQ(b[4], 0x10);			/* sw_flags2: LAN_ENA */
		TEST_CHECK_EQ(b[6], 0x01);			/* sec: ALLOW_DEST_OVRD */
		TEST_CHECK_EQ(b[12] & 3, 3);			/* inner VLAN Tx mode all */
		TEST_CHECK_EQ(le32_at(b, 16), 0x00fac688);	/* ingress UP 1:1 */
		TEST_CHECK_EQ(le32_at(b, 20), 0x00fac688);	/* egress UP 1:1 */
		TEST_CHECK_EQ(le16_at(b, 28), 0);		/* contiguous */
		TEST_CHECK_EQ(le16_at(b, 30), 0);		/* first queue */
		TEST_CHECK_EQ(le16_at(b, 32), 1);		/* one queue */
		TEST_CHECK_EQ(le16_at(b, 62), 0);		/* TC 0: offset 0, 1 queue */
		TEST_CHECK_EQ(b[78], 0x02);			/* RSS LUT PF, Toeplitz */
		TEST_CHECK_EQ(b[80], 0);			/* PE filter not yet */
		break;
	case 0x0211:	/* update VSI: the Q_OPT section with PE_FLTR_EN */
		TEST_CHECK(le16_at(b, 0) & 0x0080);
		TEST_CHECK_EQ(b[78], 0x02);
		TEST_CHECK_EQ(b[80] & 1, pe_on ? 1 : 0);
		break;
	case 0x0401:	/* add sched elems: one SE_GENERIC under the node of the layer above */
		TEST_CHECK(nth < RTE_DIM(add_parent));
		if (nth >= RTE_DIM(add_parent))
			break;
		TEST_CHECK_EQ(le32_at(b, 0), add_parent[nth]);	/* header parent */
		TEST_CHECK_EQ(le16_at(b, 4), 1);		/* elements */
		TEST_CHECK_EQ(le32_at(b, 8), add_parent[nth]);	/* element parent */
		TEST_CHECK_EQ(le32_at(b, 12), 0);		/* TEID: firmware's to write */
		TEST_CHECK_EQ(b[16], 3);			/* SE_GENERIC */
		TEST_CHECK_EQ(b[17], 0x07);			/* generic, CIR, EIR */
		TEST_CHECK_EQ(b[18], 0);
		TEST_CHECK_EQ(le16_at(b, 20), 0);		/* CIR profile */
		TEST_CHECK_EQ(le16_at(b, 22), 4);		/* CIR weight */
		TEST_CHECK_EQ(le16_at(b, 24), 0);		/* EIR profile */
		TEST_CHECK_EQ(le16_at(b, 26), 4);		/* EIR weight */
		break;
	case 0x0c33:	/* add RDMA qset: parent = the qgroup node, id = the leaf's qs_handle */
		TEST_CHECK_EQ(le32_at(b, 0), M_QGRP_TEID);
		TEST_CHECK_EQ(le16_at(b, 4), 1);
		TEST_CHECK_EQ(le16_at(b, 8), M_QS);
		TEST_CHECK_EQ(le32_at(b, 12), 0);		/* TEID: firmware's to write */
		TEST_CHECK_EQ(b[17], 0x07);
		TEST_CHECK_EQ(le16_at(b, 20), 0);
		TEST_CHECK_EQ(le16_at(b, 22), 4);
		TEST_CHECK_EQ(le16_at(b, 24), 0);
		TEST_CHECK_EQ(le16_at(b, 26), 4);
		break;
	case 0x0c31:	/* dis txqs: the qset item */
		TEST_CHECK_EQ(le32_at(b, 0), M_QGRP_TEID);
		TEST_CHECK_EQ(b[4], 1);
		TEST_CHECK_EQ(le16_at(b, 6), M_QS | 0x8000);	/* RDMA qset element type */
		break;
	case 0x040f:	/* delete sched elems: header + one TEID */
		TEST_CHECK(nth < RTE_DIM(del_teid));
		if (nth >= RTE_DIM(del_teid))
			break;
		/* the parent of the deepest node is the one added before it */
		TEST_CHECK_EQ(le32_at(b, 0), add_parent[RTE_DIM(add_parent) - 1 - nth]);
		TEST_CHECK_EQ(le16_at(b, 4), 1);
		TEST_CHECK_EQ(le32_at(b, 8), del_teid[nth]);
		break;
	default:
		TEST_CHECK(false);
		break;
	}
}

/* CQP WORK_SCHED_NODE WQEs (irdma_sc_manage_ws_node): header at byte 24, VSI / weight at 32. */
struct want_ws {
	unsigned int op;	/* 0 add, 1 modify, 2 delete */
	unsigned int id, parent, leaf, enable;
};

static void
check_ws_wqe(const uint8_t *w, const struct want_ws *x)
{
	uint64_t h = (uint64_t)le32_at(w, 28) << 32 | le32_at(w, 24);
	uint64_t q4 = (uint64_t)le32_at(w, 36) << 32 | le32_at(w, 32);

	printf("# WS op %u node %u parent %u leaf %u enable %u\n", (unsigned int)(h >> 52) & 3,
	       (unsigned int)h & 0x3ff, (unsigned int)(h >> 16) & 0x3ff,
	       (unsigned int)(h >> 61) & 1, (unsigned int)(h >> 62) & 1);
	TEST_CHECK_EQ((h >> 32) & 0x3f, 0x2c);		/* OP */
	TEST_CHECK_EQ(h & 0x3ff, x->id);		/* NODEID 9:0 */
	TEST_CHECK_EQ((h >> 16) & 0x3ff, x->parent);	/* PARENTID 25:16 */
	TEST_CHECK_EQ((h >> 42) & 0x3ff, 0);		/* VMVFNUM 51:42 */
	TEST_CHECK_EQ((h >> 52) & 3, x->op);		/* NODEOP 53:52 */
	TEST_CHECK_EQ((h >> 54) & 3, 0);		/* VMVFTYPE 55:54: PF */
	TEST_CHECK_EQ((h >> 56) & 7, 0);		/* TC 58:56 */
	TEST_CHECK_EQ((h >> 59) & 3, 1);		/* PRIOTYPE 60:59: WRR */
	TEST_CHECK_EQ((h >> 61) & 1, x->leaf);		/* NODETYPE */
	TEST_CHECK_EQ((h >> 62) & 1, x->enable);	/* ENABLENODE */
	TEST_CHECK_EQ((q4 >> 48) & 0x3ff, M_VSI);	/* VSI 57:48 */
	TEST_CHECK_EQ((q4 >> 32) & 0x7f, 1);		/* WEIGHT 38:32 */
}

static void
test_conformance(void)
{
	static const struct want want[] = {
		{ 0x0001, 0, false, 0, 0xffffffff, 0, 0, 0, "get_ver: no parameters" },
		{ 0x02a4, 0, false, 0, 0xffffffff, 0, 0, 0, "clear_pf_cfg: no parameters" },
		{ 0x0110, 0, false, 2, 0xffffffff, 0, 0, 0, "clear_pxe: rx_cnt 2 at desc+16" },
		{ 0x000a, 4096, false, 0, 0xffffffff, 0, 0, 0, "list_func_caps: 4096 bytes" },
		{ 0x0107, 16, false, 0, 0xffffffff, 0, 0, 0, "manage_mac_read: two entries" },
		/* set_event_mask: lport 0 @16, mask @24 = ~(UPDOWN bit1 | MEDIA_NA bit2) */
		{ 0x0613, 0, false, 0, 0xffffffff, 0, 0, 0xfff9, "set_event_mask" },
		/* get_link_status: lport 0 @16, cmd_flags @18 bits 1:0 LSE = 3 (enable) */
		{ 0x0607, 32, false, 3u << 16, 0xffffffff, 0, 0, 0, "get_link_status: LSE on" },
		/* get_sw_cfg: flags 0 @16, first element 0 @18, 2048 bytes (LB) */
		{ 0x0200, 2048, false, 0, 0xffffffff, 0, 0, 0, "get_sw_cfg: from element 0" },
		/* query_sched_res: no parameters, the 320-byte answer (32 + 9 layers of 32) */
		{ 0x0412, 320, false, 0, 0xffffffff, 0, 0, 0, "query_sched_res" },
		/* add_vsi: vsi_num 0 (from the pool) @16, vsi_flags @22 type 2 (PF) */
		{ 0x0210, 128, true, 0, 0xffffffff, 2u << 16, 0xffff0000, 0, "add_vsi: PF" },
		/* get_dflt_topo: port 0 @16 */
		{ 0x0400, 4096, false, 0, 0xff, 0, 0, 0, "get_dflt_topo: port 0" },
		/* add_sched_elems: num_elem_req 1 @16; support nodes of layers 2 to 5 (the VSI
		 * layer of 9), then the qgroup layers 6 and 7 under the VSI node */
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 2" },
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 3" },
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 4" },
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 5, VSI" },
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 6" },
		{ 0x0401, 32, true, 1, 0xffff, 0, 0, 0, "add_sched_elems: layer 7, qgroup" },
		/* add_rdma_qset: num_qset_grps 1 @16 */
		{ 0x0c33, 32, true, 1, 0xff, 0, 0, 0, "add_rdma_qset: one group" },
		/* update_vsi: vsi_num | IS_VALID @16 */
		{ 0x0211, 128, true, M_VSI | 0x8000, 0xffff, 0, 0, 0, "update_vsi: PE on" },
		/* stop */
		{ 0x0211, 128, true, M_VSI | 0x8000, 0xffff, 0, 0, 0, "update_vsi: PE off" },
		/* dis_txqs: cmd_type FLUSH_PIPE @16, num_entries 1 @17, timeout 5 << 10 @18 */
		{ 0x0c31, 8, true, 0x08u | 1u << 8 | (5u << 10) << 16, 0xffffffff, 0, 0, 0,
		  "dis_txqs: RDMA qset" },
		/* delete_sched_elems: one group of one TEID, the deepest node first */
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 7" },
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 6" },
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 5" },
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 4" },
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 3" },
		{ 0x040f, 12, true, 1, 0xffff, 0, 0, 0, "delete layer 2" },
		/* free_vsi: vsi_num | IS_VALID @16, cmd_flags 0 (no KEEP_ALLOC) @18 */
		{ 0x0213, 0, false, M_VSI | 0x8000, 0xffffffff, 0, 0, 0, "free_vsi" },
		/* LSE = 2 (disable), then q_shutdown with driver_unloading (bit 0 @16) */
		{ 0x0607, 32, false, 2u << 16, 0xffffffff, 0, 0, 0, "get_link_status: LSE off" },
		{ 0x0003, 0, false, 1, 0xffffffff, 0, 0, 0, "q_shutdown: driver unloading" },
	};
	/* newest first: what stop deleted, then what start added */
	static const struct want_ws ws[] = {
		{ 2, 1, 1, 0, 0 },	/* delete root */
		{ 2, 2, 1, 0, 0 },	/* delete VSI node */
		{ 2, 3, 2, 1, 0 },	/* delete leaf */
		{ 1, 3, 2, 1, 1 },	/* modify leaf: enable */
		{ 0, 3, 2, 1, 0 },	/* add leaf, disabled */
		{ 0, 2, 1, 0, 1 },	/* add VSI node under the root */
		{ 0, 1, 1, 0, 1 },	/* add root: its own parent */
	};
	uint8_t cap[IRDMA_MODEL_AQ_CAPTURE][32];
	uint8_t buf[IRDMA_MODEL_AQ_CAPTURE_BUF];
	uint8_t wqe[64];
	struct irdma_model_stats st;
	struct irdma_hw *hw;
	unsigned int i, k, nws = 0, nadd = 0, ndel = 0;
	int id, n, op;

	id = pf_open(DEV("irdma_model0"));
	if (id < 0)
		return;
	hw = pmd_hw(id);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(irdma_dev_ctrl(rdmadev_get((int16_t)id))->pf.qs_handle, M_QS);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	n = irdma_model_aq_capture(hw, cap, IRDMA_MODEL_AQ_CAPTURE, false);
	TEST_CHECK_EQ(n, (int)RTE_DIM(want));
	for (i = 0; i < RTE_DIM(want) && (int)i < n; i++) {
		const uint8_t *p = cap[i];
		uint32_t flags;

		TEST_CHECK_EQ(irdma_model_aq_capture_buf(hw, i, buf), 0);
		flags = D_FLAGS(p);
		printf("# %u: %s: opcode 0x%04x flags 0x%04x datalen %u\n", i, want[i].what,
		       D_OPCODE(p), flags, D_DATALEN(p));
		TEST_CHECK_EQ(D_OPCODE(p), want[i].opcode);
		/* firmware's flags clear, SI on every command (ice_fill_dflt_direct_cmd_desc) */
		TEST_CHECK_EQ(flags & (F_DD | F_CMP | F_ERR), 0);
		TEST_CHECK(flags & F_SI);
		TEST_CHECK_EQ(D_RETVAL(p), 0);
		TEST_CHECK_EQ(D_DATALEN(p), want[i].datalen);
		TEST_CHECK_EQ(!!(flags & F_RD), want[i].rd);
		if (want[i].datalen == 0) {
			TEST_CHECK_EQ(flags & (F_BUF | F_LB), 0);
		} else {
			TEST_CHECK(flags & F_BUF);
			TEST_CHECK_EQ(!!(flags & F_LB), want[i].datalen > 512);
			TEST_CHECK(D_ADDR(p) != 0);
			TEST_CHECK_EQ(D_ADDR(p) % 4096, 0);
		}
		if (want[i].rd && D_OPCODE(p) == want[i].opcode)
			check_rd_buf(want[i].opcode, buf, i == 18,
				     want[i].opcode == 0x0401 ? nadd++ :
				     want[i].opcode == 0x040f ? ndel++ : 0);
		TEST_CHECK_EQ(le32_at(p, 16) & want[i].param0_mask, want[i].param0);
		TEST_CHECK_EQ(le32_at(p, 20) & want[i].param1_mask, want[i].param1);
		if (want[i].addr_high_le16 != 0)
			TEST_CHECK_EQ(le16_at(p, 24), want[i].addr_high_le16);
		/* cookies unused */
		TEST_CHECK_EQ(le32_at(p, 8), 0);
		TEST_CHECK_EQ(le32_at(p, 12), 0);
	}
	TEST_CHECK_EQ(irdma_model_aq_capture(hw, NULL, 0, true), 0);
	/* the work scheduler WQEs, newest first, among the CQP's last commands */
	for (k = 0; k < 64 && nws < RTE_DIM(ws); k++) {
		op = irdma_model_cqp_capture(hw, k, wqe);
		if (op < 0)
			break;
		if (op == 0x2c)
			check_ws_wqe(wqe, &ws[nws++]);
	}
	TEST_CHECK_EQ(nws, RTE_DIM(ws));
	TEST_CHECK_EQ(irdma_model_stats_get(hw, &st), 0);
	TEST_CHECK_EQ(st.aq_errors, 0);
	TEST_CHECK_EQ(st.aq_refused, 0);
	TEST_CHECK_EQ(st.aq_cmds, RTE_DIM(want));
	TEST_CHECK_EQ(st.cqp_op_done[0x2c], RTE_DIM(ws));
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/* ---- faults ---- */

static void
test_fault_no_answer(void)
{
	static const struct {
		uint16_t opcode;
		const char *what;
	} steps[] = {
		{ 0x0001, "get version" },
		{ 0x0607, "get link status" },
	};
	unsigned int i;
	int id;

	for (i = 0; i < RTE_DIM(steps); i++) {
		id = pf_open_aq_fault(steps[i].opcode, IRDMA_MODEL_AQ_FAULT_NO_ANSWER, 0);
		if (id < 0)
			return;
		pf_start_refused(id, -ETIMEDOUT, steps[i].what, "no answer from firmware");
		/* firmware back: the next start runs the whole sequence again */
		TEST_CHECK_EQ(irdma_model_inject_aq_fault(pmd_hw(id), 0,
							  IRDMA_MODEL_AQ_FAULT_NONE, 0), 0);
		pf_start_stop_close(id);
	}
}

static void
test_fault_retval(void)
{
	static const struct {
		uint16_t opcode;
		uint16_t code;
		int err;
		const char *line;
	} steps[] = {
		{ 0x0001, 5, -EIO, "get version (0x0001) failed: firmware code 5 (EIO)" },
		{ 0x02a4, 1, -EPERM, "clear PF configuration (0x02a4) failed: firmware code 1 "
		  "(EPERM)" },
		{ 0x0110, 14, -EINVAL, "clear PXE mode (0x0110) failed: firmware code 14 (EINVAL)" },
		{ 0x000a, 10, -EACCES, "list function capabilities (0x000a) failed: firmware code "
		  "10 (EACCES)" },
		{ 0x0107, 12, -EBUSY, "read MAC address (0x0107) failed: firmware code 12 (EBUSY)" },
		{ 0x0613, 16, -ENOSPC, "set event mask (0x0613) failed: firmware code 16 (ENOSPC)" },
		{ 0x0607, 3, -EOPNOTSUPP, "get link status (0x0607) failed: firmware code 3 "
		  "(ESRCH)" },
	};
	unsigned int i;
	int id;

	for (i = 0; i < RTE_DIM(steps); i++) {
		id = pf_open_aq_fault(steps[i].opcode, IRDMA_MODEL_AQ_FAULT_RETVAL, steps[i].code);
		if (id < 0)
			return;
		pf_start_refused(id, steps[i].err, steps[i].line, "PF bring-up failed at step");
		/* the fault was one-shot: the next start succeeds */
		pf_start_stop_close(id);
	}
}

/* VSI, scheduler, qset and PE filter steps: a firmware code undoes what was done. */
static void
test_fault_qos_retval(void)
{
	static const struct {
		uint16_t opcode;
		uint16_t code;
		int err;
		const char *line;
		const char *step;
	} steps[] = {
		{ 0x0200, 5, -EIO, "get switch configuration (0x0200) failed: firmware code 5",
		  "PF bring-up failed at step \"VSI and scheduler\"" },
		{ 0x0412, 12, -EBUSY, "query scheduler resources (0x0412) failed: firmware code 12",
		  "PF bring-up failed at step \"VSI and scheduler\"" },
		{ 0x0210, 16, -ENOSPC, "add VSI (0x0210) failed: firmware code 16 (ENOSPC)",
		  "PF bring-up failed at step \"VSI and scheduler\"" },
		{ 0x0400, 5, -EIO, "get scheduler topology (0x0400) failed: firmware code 5",
		  "PF bring-up failed at step \"VSI and scheduler\"" },
		{ 0x0401, 16, -ENOSPC, "add scheduler node (0x0401) failed: firmware code 16",
		  "PF bring-up failed at step \"VSI and scheduler\"" },
		{ 0x0c33, 2, -ENOENT, "add RDMA qset (0x0c33) failed: firmware code 2 (ENOENT)",
		  "QoS bring-up failed at step \"RDMA qset\"" },
		{ 0x0211, 12, -EBUSY, "PE filter on (update VSI) (0x0211) failed: firmware code 12",
		  "QoS bring-up failed at step \"PE filter\"" },
	};
	struct irdma_model_stats st;
	unsigned int i;
	int id;

	for (i = 0; i < RTE_DIM(steps); i++) {
		id = pf_open_aq_fault(steps[i].opcode, IRDMA_MODEL_AQ_FAULT_RETVAL, steps[i].code);
		if (id < 0)
			return;
		pf_start_refused(id, steps[i].err, steps[i].line, steps[i].step);
		TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
		/* the qset and PE-filter failures come after the WS nodes: all three deleted */
		if (steps[i].opcode == 0x0c33 || steps[i].opcode == 0x0211)
			TEST_CHECK_EQ(st.ws_adds, 3);
		if (steps[i].opcode == 0x0211)
			TEST_CHECK_EQ(st.qset_adds, 1);
		pf_start_stop_close(id);
	}
	/* the 4th (the VSI node) and the 6th (the qgroup node) of the six scheduler nodes
	 * refused: the nodes above it are deleted, deepest first */
	for (i = 3; i <= 5; i += 2) {
		id = pf_open(DEV("irdma_model0"));
		if (id < 0)
			return;
		TEST_CHECK_EQ(irdma_model_inject_aq_fault_nth(pmd_hw(id), 0x0401, i,
							      IRDMA_MODEL_AQ_FAULT_RETVAL, 16), 0);
		pf_start_refused(id, -ENOSPC, "add scheduler node (0x0401) failed: firmware code 16",
				 "PF bring-up failed at step \"VSI and scheduler\"");
		TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
		TEST_CHECK_EQ(st.sched_adds, i);
		TEST_CHECK_EQ(st.sched_dels, i);
		TEST_CHECK_EQ(st.qset_adds, 0);
		pf_start_stop_close(id);
	}
}

/* The work scheduler CQP commands: the n-th fails; the nodes added before it are deleted. */
static void
test_fault_ws(void)
{
	static const struct {
		uint32_t skip;
		const char *line;
		const char *step;
		uint64_t adds;	/* WS nodes added before the fault */
	} steps[] = {
		{ 0, "work scheduler add of root node 1 failed", "\"work scheduler root\"", 0 },
		{ 1, "work scheduler add of VSI node 2 failed", "\"work scheduler VSI node\"", 1 },
		{ 2, "work scheduler add of leaf node 3 failed", "\"work scheduler leaf\"", 2 },
		{ 3, "work scheduler modify of leaf node 3 failed",
		  "\"work scheduler leaf enable\"", 3 },
	};
	struct irdma_model_stats st;
	unsigned int i;
	int id;

	for (i = 0; i < RTE_DIM(steps); i++) {
		id = pf_open(DEV("irdma_model0"));
		if (id < 0)
			return;
		TEST_CHECK_EQ(irdma_model_inject_cqp_fault_after(pmd_hw(id), 0x2c, steps[i].skip,
								 IRDMA_CQP_MAJ_ERROR, 0x102), 0);
		pf_start_refused(id, 0, steps[i].line, steps[i].step);
		TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
		TEST_CHECK_EQ(st.ws_adds, steps[i].adds);
		/* the qset was added (and removed) only when the leaf enable failed */
		TEST_CHECK_EQ(st.qset_adds, steps[i].skip == 3 ? 1u : 0u);
		pf_start_stop_close(id);
	}
}

/* One raw WORK_SCHED_NODE command, encoded here at irdma's bit positions. */
static int
ws_raw(struct irdma_ctrl *c, unsigned int op, unsigned int node, unsigned int parent,
       unsigned int leaf, unsigned int enable, unsigned int vsi)
{
	struct irdma_cqp_wqe w;
	uint64_t h;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_WORK_SCHED_NODE);
	h = rte_le_to_cpu_64(w.qw[3]);
	h |= (uint64_t)enable << 62 | (uint64_t)leaf << 61 | UINT64_C(1) << 59 |
	     (uint64_t)op << 52 | (uint64_t)parent << 16 | node;
	w.qw[3] = rte_cpu_to_le_64(h);
	w.qw[4] = rte_cpu_to_le_64((uint64_t)vsi << 48 | UINT64_C(1) << 32);
	return irdma_cqp_exec(c, &w, NULL);
}

/* The model refuses a QP whose qs_handle names no enabled qset, and bad WS commands. */
static void
test_model_refuses_qos(void)
{
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_cq_attr ca = { .cqe = 64 };
	struct rdmadev_qp_attr attr = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1,
					.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE };
	const int mask = RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
			 RDMADEV_QP_ACCESS_FLAGS;
	static const uint16_t bad_qs[] = { 0, 9, M_QS };
	struct rdmadev_qp_init_attr qa = {
		.qp_type = RDMADEV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct irdma_model_stats st;
	struct irdma_model_qp_info qi;
	struct irdma_ctrl *c;
	struct rdmadev_qp *qp;
	unsigned int i;
	int id;

	if (pmd_dev_up(DEV("irdma_model0"), &id, &ctx, &pd) != 0) {
		pmd_dev_down(id, ctx, pd, &st);
		return;
	}
	c = irdma_dev_ctrl(rdmadev_get((int16_t)id));
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &ca, &cq), 0);
	if (cq == NULL) {
		pmd_dev_down(id, ctx, pd, &st);
		return;
	}
	qa.pd = pd;
	qa.send_cq = cq;
	qa.recv_cq = cq;
	/* 0 and 9 name no leaf; M_QS names the leaf once it is disabled (WS MODIFY) */
	for (i = 0; i < RTE_DIM(bad_qs); i++) {
		if (bad_qs[i] == M_QS)
			TEST_CHECK_EQ(ws_raw(c, 1, 3, 2, 1, 0, M_VSI), 0);
		c->pf.qs_handle = bad_qs[i];
		/* the context of CREATE_QP names the qs_handle: the create is refused */
		qp = NULL;
		TEST_CHECK(rdmadev_qp_create(&qa, &qp) < 0);
		TEST_CHECK(qp == NULL);
		TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
		TEST_CHECK_EQ(st.qs_refused, i + 1);
	}
	TEST_CHECK_EQ(ws_raw(c, 1, 3, 2, 1, 1, M_VSI), 0);
	c->pf.qs_handle = M_QS;
	qp = pmd_qp_create(pd, cq, RDMADEV_QPT_RC, 8);
	TEST_CHECK(qp != NULL);
	if (qp != NULL) {
		TEST_CHECK_EQ(rdmadev_qp_modify(qp, &attr, mask), 0);
		TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(id), rdmadev_qp_num(qp), &qi), 0);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	/* work scheduler commands silicon refuses */
	TEST_CHECK(ws_raw(c, 1, 77, 2, 1, 1, M_VSI) < 0);	/* modify an unknown node */
	TEST_CHECK(ws_raw(c, 2, 77, 2, 1, 0, M_VSI) < 0);	/* delete an unknown node */
	TEST_CHECK(ws_raw(c, 2, 2, 1, 0, 0, M_VSI) < 0);	/* delete a parent with a leaf */
	TEST_CHECK(ws_raw(c, 0, 9, 3, 1, 0, M_VSI) < 0);	/* a leaf under a leaf */
	TEST_CHECK(ws_raw(c, 0, 9, 9, 0, 1, M_VSI) < 0);	/* a second root */
	TEST_CHECK(ws_raw(c, 0, 0, 2, 1, 0, M_VSI) < 0);	/* node id 0 (reserved) */
	TEST_CHECK(ws_raw(c, 0, 9, 2, 1, 0, 0x3ff) < 0);	/* a leaf of an unknown VSI */
	TEST_CHECK(ws_raw(c, 3, 3, 2, 1, 1, M_VSI) < 0);	/* node op 3 */
	TEST_CHECK(ws_raw(c, 0, 3, 2, 1, 0, M_VSI) < 0);	/* node 3 exists */
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_WORK_SCHED_NODE], 9);
	TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	pmd_dev_down(id, ctx, pd, &st);
	TEST_CHECK_EQ(st.ws_adds, st.ws_dels);
	TEST_CHECK_EQ(st.qset_adds, st.qset_dels);
}

/* Open @p devargs: start fails with @p err and a log line containing @p a and @p b. */
static void
pf_refused(const char *devargs, int err, const char *a, const char *b)
{
	int id = pf_open(devargs);

	if (id < 0)
		return;
	pf_start_refused(id, err, a, b);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

static void
test_fault_no_rdma(void)
{
	pf_refused(DEV("irdma_model0,rdma=0"), -ENOTSUP, "the RDMA capability is disabled on PF 0",
		   "step \"capabilities\"");
	pf_refused(DEV("irdma_model0,msix=0"), -ENOTSUP, "no MSI-X vector", NULL);
}

static void
test_fault_api(void)
{
	int id;

	pf_refused(DEV("irdma_model0,fw_api=2.0"), -ENOTSUP, "AdminQ API major 2 is unknown",
		   "step \"firmware version\"");
	/* a newer minor is a warning only (ice_aq_ver_check) */
	id = pf_open(DEV("irdma_model0,fw_api=1.9"));
	if (id < 0)
		return;
	log_start();
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK(log_has("AdminQ API 1.9 differs from 1.5", NULL));
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	/* malformed values */
	TEST_CHECK(rdmadev_open(DEV("irdma_model0,fw_api=1")) < 0);
	TEST_CHECK(rdmadev_open(DEV("irdma_model0,fw_api=1.2.3")) < 0);
	TEST_CHECK(rdmadev_open(DEV("irdma_model0,pf_id=8")) < 0);
	TEST_CHECK(rdmadev_open(DEV("irdma_model0,rdma=2")) < 0);
}

static void
test_fault_reset(void)
{
	int id = pf_open(DEV("irdma_model0"));

	if (id < 0)
		return;
	TEST_CHECK_EQ(irdma_model_set_reset_reads(pmd_hw(id), IRDMA_MODEL_RESET_NEVER), 0);
	pf_start_refused(id, -ETIMEDOUT, "PF reset (PFGEN_CTRL.PFSWR) did not finish",
			 "step \"PF reset\"");
	TEST_CHECK_EQ(irdma_model_set_reset_reads(pmd_hw(id), 3), 0);
	pf_start_stop_close(id);
}

/* ---- the model's executor on hand-built descriptors ---- */

struct raw_aq {
	struct irdma_hw hw;
	uint8_t *mem;		/* ring (8 x 32 bytes) at 0, buffer at 4096 */
	rte_iova_t iova;
	uint32_t slot;
};

/* Run one descriptor @p d (32 bytes, replaced by the response). */
static void
raw_send(struct raw_aq *a, uint8_t *d)
{
	memcpy(a->mem + a->slot * 32, d, 32);
	a->slot = (a->slot + 1) % 8;
	irdma_wr32(&a->hw, 0x80400, a->slot);		/* ATQT */
	TEST_CHECK_EQ(irdma_rd32(&a->hw, 0x80300), a->slot);	/* ATQH followed */
	memcpy(d, a->mem + ((a->slot + 7) % 8) * 32, 32);
}

static void
raw_desc(uint8_t *d, uint16_t opcode, uint16_t flags, uint16_t datalen, uint64_t addr)
{
	memset(d, 0, 32);
	d[0] = (uint8_t)flags;
	d[1] = (uint8_t)(flags >> 8);
	d[2] = (uint8_t)opcode;
	d[3] = (uint8_t)(opcode >> 8);
	d[4] = (uint8_t)datalen;
	d[5] = (uint8_t)(datalen >> 8);
	d[24] = (uint8_t)(addr >> 32);
	d[25] = (uint8_t)(addr >> 40);
	d[26] = (uint8_t)(addr >> 48);
	d[27] = (uint8_t)(addr >> 56);
	d[28] = (uint8_t)addr;
	d[29] = (uint8_t)(addr >> 8);
	d[30] = (uint8_t)(addr >> 16);
	d[31] = (uint8_t)(addr >> 24);
}

static void
test_model_executor(void)
{
	static const struct {
		uint16_t opcode, flags, datalen;
		int buf;		/* 0: none, 1: the mapped buffer, 2: unmapped */
		uint16_t retval;
		const char *what;
	} cases[] = {
		{ 0x0001, F_SI, 0, 0, 0, "get_ver" },
		{ 0x0001, F_SI | F_DD, 0, 0, 14, "DD set by the driver: EINVAL" },
		{ 0x0001, F_SI | F_CMP, 0, 0, 14, "CMP set by the driver: EINVAL" },
		{ 0x0fff, F_SI, 0, 0, 3, "unknown opcode: ESRCH" },
		{ 0x000a, F_SI, 0, 0, 14, "list caps without a buffer: EINVAL" },
		{ 0x000a, F_SI | F_BUF | F_LB, 5000, 1, 14, "datalen > 4096: EINVAL" },
		{ 0x000a, F_SI | F_BUF, 600, 1, 14, "datalen > 512 without LB: EINVAL" },
		{ 0x000a, F_SI | F_BUF | F_RD, 256, 1, 14, "RD on a response buffer: EINVAL" },
		{ 0x0001, F_SI | F_BUF, 16, 1, 14, "direct command with a buffer: EINVAL" },
		{ 0x000a, F_SI, 64, 1, 14, "datalen without BUF: EINVAL" },
		{ 0x000a, F_SI | F_BUF, 64, 1, 9, "caps buffer too small: ENOMEM" },
		{ 0x0107, F_SI | F_BUF, 16, 2, 20, "unmapped buffer: BAD_ADDR" },
		{ 0x0110, F_SI, 0, 0, 14, "clear_pxe with rx_cnt 0: EINVAL" },
		{ 0x000a, F_SI | F_BUF, 256, 1, 0, "list caps" },
		{ 0x0210, F_SI | F_BUF, 128, 1, 14, "add VSI without RD: EINVAL" },
		{ 0x0210, F_SI | F_BUF | F_RD, 64, 1, 14, "add VSI, 64-byte context: EINVAL" },
		{ 0x0210, F_SI | F_BUF | F_RD, 128, 1, 14, "add VSI of type VF (0): EINVAL" },
		{ 0x0211, F_SI | F_BUF | F_RD, 128, 1, 2, "update VSI 0, not valid: ENOENT" },
		{ 0x0213, F_SI, 0, 0, 2, "free an unknown VSI: ENOENT" },
		{ 0x0400, F_SI | F_BUF, 16, 1, 9, "topology buffer too small: ENOMEM" },
		{ 0x0200, F_SI | F_BUF, 4, 1, 9, "switch config buffer too small: ENOMEM" },
		{ 0x0200, F_SI | F_BUF | F_RD, 64, 1, 14, "RD on the switch config: EINVAL" },
		{ 0x0200, F_SI | F_BUF, 64, 1, 0, "get switch config" },
		{ 0x0401, F_SI | F_BUF | F_RD, 32, 1, 14, "add sched elems, 0 groups: EINVAL" },
		{ 0x0c33, F_SI | F_BUF | F_RD, 32, 1, 14, "add qset, 0 groups: EINVAL" },
		{ 0x0c31, F_SI | F_BUF | F_RD, 8, 1, 14, "dis txqs, 0 entries: EINVAL" },
	};
	struct irdma_model_config cfg;
	struct raw_aq a;
	struct irdma_model_stats st;
	uint8_t d[32];
	unsigned int i;

	memset(&a, 0, sizeof(a));
	irdma_model_config_default(&cfg);
	cfg.pf_id = 5;
	cfg.hmc_fn_id = 5;
	cfg.msix = 17;
	TEST_CHECK_EQ(irdma_model_create(&cfg, &a.hw), 0);
	a.mem = rte_zmalloc("raw_aq", 8192, 4096);
	TEST_CHECK(a.mem != NULL);
	if (a.mem == NULL)
		return;
	a.iova = rte_malloc_virt2iova(a.mem);
	TEST_CHECK_EQ(irdma_hw_dma_map(&a.hw, a.mem, a.iova, 8192), 0);
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x9e880) & 7, 5);	/* PF_FUNC_RID */
	irdma_wr32(&a.hw, 0x80300, 0);
	irdma_wr32(&a.hw, 0x80400, 0);
	irdma_wr32(&a.hw, 0x80200, 8u | 1u << 31);		/* ATQLEN: 8, ENABLE */
	irdma_wr32(&a.hw, 0x80000, (uint32_t)a.iova);
	irdma_wr32(&a.hw, 0x80100, (uint32_t)(a.iova >> 32));
	for (i = 0; i < RTE_DIM(cases); i++) {
		uint64_t addr = cases[i].buf == 1 ? a.iova + 4096 :
				cases[i].buf == 2 ? UINT64_C(0x7f0000000000) : 0;

		raw_desc(d, cases[i].opcode, cases[i].flags, cases[i].datalen, addr);
		raw_send(&a, d);
		printf("# %s: retval %u flags 0x%04x\n", cases[i].what, D_RETVAL(d), D_FLAGS(d));
		TEST_CHECK_EQ(D_RETVAL(d), cases[i].retval);
		TEST_CHECK_EQ(D_FLAGS(d) & (F_DD | F_CMP), F_DD | F_CMP);
		TEST_CHECK_EQ(!!(D_FLAGS(d) & F_ERR), cases[i].retval != 0);
		if (cases[i].opcode == 0x0001 && cases[i].retval == 0)
			TEST_CHECK_EQ(d[29], 1);	/* api_major @29 */
		if (cases[i].opcode == 0x0200 && cases[i].retval == 0) {
			const uint8_t *e = a.mem + 4096;

			/* one element, no page after it: PF 5's physical port 0 on switch 0x25 */
			TEST_CHECK_EQ(le16_at(d, 20), 1);		/* num_elems @20 */
			TEST_CHECK_EQ(le16_at(d, 18), 0);		/* element @18: done */
			TEST_CHECK_EQ(D_DATALEN(d), 6);
			TEST_CHECK_EQ(le16_at(e, 0) >> 14, 0);		/* type: physical port */
			TEST_CHECK_EQ(le16_at(e, 0) & 0x3ff, 0);	/* port number */
			TEST_CHECK_EQ(le16_at(e, 2), 0x25);		/* swid */
			TEST_CHECK_EQ(le16_at(e, 4), 5);		/* pf_vf_num: PF 5 */
		}
		if (cases[i].opcode == 0x000a && cases[i].retval == 9)
			TEST_CHECK_EQ(le32_at(d, 20), 3);	/* count: the elements needed */
		if (cases[i].opcode == 0x000a && cases[i].retval == 0) {
			const uint8_t *e = a.mem + 4096;

			TEST_CHECK_EQ(le32_at(d, 20), 3);
			TEST_CHECK_EQ(D_DATALEN(d), 96);
			/* elements: id @0, number @4, phys_id @12 */
			TEST_CHECK_EQ(le16_at(e, 0), 0x0005);
			TEST_CHECK_EQ(le32_at(e, 4), 1u << 5);
			TEST_CHECK_EQ(le16_at(e, 32), 0x0043);
			TEST_CHECK_EQ(le32_at(e, 36), 17);
			TEST_CHECK_EQ(le32_at(e, 44), 5 * 17);
			TEST_CHECK_EQ(le16_at(e, 64), 0x0051);
			TEST_CHECK_EQ(le32_at(e, 68), 1);
		}
	}
	/* Scheduler commands with contents (buffer at 4096, ice_aqc_* byte offsets). */
	{
		uint8_t *b = a.mem + 4096;
		static const struct {
			uint16_t opcode, datalen;
			uint32_t p0;			/* desc+16 */
			uint32_t w0, w1, w2;		/* buffer +0, +4, +8 */
			uint8_t b16;			/* buffer +16 */
			uint16_t retval;
			const char *what;
		} sc[] = {
			{ 0x0401, 32, 1, 0x999, 1, 0x999, 3, 2, "sched node under no node: ENOENT" },
			{ 0x0401, 32, 1, 0x100, 1, 0x100, 3, 14, "SE under the port: EINVAL" },
			{ 0x0401, 32, 1, 0x101, 1, 0x101, 5, 14, "a LEAF element: EINVAL" },
			{ 0x0401, 32, 1, 0x101, 1, 0x100, 3, 14, "element parent differs: EINVAL" },
			{ 0x0401, 32, 1, 0x101, 1, 0x101, 3, 0, "SE_GENERIC under TC 0" },
			{ 0x0c33, 32, 1, 0x101, 1, 8, 7, 2, "qset under the TC node: ENOENT" },
			{ 0x0c33, 32, 1, 0x200, 1, 8, 7, 14, "qset under a layer-2 node: EINVAL" },
			{ 0x0c31, 8, 1u << 8, 0x200, 1u | (0x8008u << 16), 0, 0, 2,
			  "dis an unknown qset: ENOENT" },
			{ 0x040f, 12, 1, 0x100, 1, 0x101, 0, 2, "delete the TC node: ENOENT" },
			{ 0x040f, 12, 1, 0x101, 1, 0x200, 0, 0, "delete the node added" },
		};

		for (i = 0; i < RTE_DIM(sc); i++) {
			memset(b, 0, 64);
			memcpy(b, &sc[i].w0, 4);
			memcpy(b + 4, &sc[i].w1, 4);
			memcpy(b + 8, &sc[i].w2, 4);
			b[16] = sc[i].b16;
			raw_desc(d, sc[i].opcode, F_SI | F_BUF | F_RD, sc[i].datalen, a.iova + 4096);
			memcpy(d + 16, &sc[i].p0, 4);
			raw_send(&a, d);
			printf("# %s: retval %u\n", sc[i].what, D_RETVAL(d));
			TEST_CHECK_EQ(D_RETVAL(d), sc[i].retval);
			if (sc[i].opcode == 0x0401 && sc[i].retval == 0) {
				TEST_CHECK_EQ(le16_at(d, 18), 1);		/* groups added */
				TEST_CHECK_EQ(le32_at(b, 12), 0x200);	/* the new TEID */
			}
		}
	}
	/* QUERY_SCHED_RES: 9 layers; nodes one layer below their parent, above the leaf layer 8;
	 * a qset only under a node of the qgroup layer 7 (N - 2). */
	{
		uint8_t *b = a.mem + 4096;
		uint32_t parent = 0x101, teid[8] = { 0 }, l;

		raw_desc(d, 0x0412, F_SI | F_BUF, 320, a.iova + 4096);
		raw_send(&a, d);
		TEST_CHECK_EQ(D_RETVAL(d), 0);
		TEST_CHECK_EQ(le16_at(b, 2), 9);			/* logical_levels @2 */
		TEST_CHECK_EQ(le16_at(b, 32 + 7 * 32 + 10), 8);	/* layer 7 max_sibl_grp_sz */
		raw_desc(d, 0x0412, F_SI | F_BUF, 64, a.iova + 4096);
		raw_send(&a, d);
		TEST_CHECK_EQ(D_RETVAL(d), 9);				/* too small: ENOMEM */
		for (l = 2; l <= 8; l++) {
			memset(b, 0, 64);
			memcpy(b, &parent, 4);
			b[4] = 1;
			memcpy(b + 8, &parent, 4);
			b[16] = 3;					/* SE_GENERIC */
			raw_desc(d, 0x0401, F_SI | F_BUF | F_RD, 32, a.iova + 4096);
			d[16] = 1;
			raw_send(&a, d);
			printf("# SE at layer %u under 0x%x: retval %u\n", l, parent, D_RETVAL(d));
			/* layer 8 is the leaf layer: no SE there */
			TEST_CHECK_EQ(D_RETVAL(d), l == 8 ? 14 : 0);
			if (l < 8)
				parent = teid[l] = le32_at(b, 12);
		}
		for (l = 6; l <= 7; l++) {
			memset(b, 0, 64);
			memcpy(b, &teid[l], 4);
			b[4] = 1;
			b[8] = 8;					/* tx_qset_id 8 */
			raw_desc(d, 0x0c33, F_SI | F_BUF | F_RD, 32, a.iova + 4096);
			d[16] = 1;
			raw_send(&a, d);
			printf("# qset under layer %u: retval %u\n", l, D_RETVAL(d));
			/* layer 6: wrong layer; layer 7: right layer, but no WS leaf 8 */
			TEST_CHECK_EQ(D_RETVAL(d), l == 6 ? 14 : 2);
		}
	}
	/* ADD_VSI of type PF must name the switch GET_SW_CFG reported (byte 2 of the context). */
	{
		static const struct {
			uint8_t sw_id;
			uint16_t retval;
		} vc[] = { { 0, 14 }, { 0x20, 14 }, { 0x25, 0 } };

		for (i = 0; i < RTE_DIM(vc); i++) {
			memset(a.mem + 4096, 0, 128);
			a.mem[4096 + 2] = vc[i].sw_id;
			raw_desc(d, 0x0210, F_SI | F_BUF | F_RD, 128, a.iova + 4096);
			d[22] = 2;					/* vsi_flags: PF */
			raw_send(&a, d);
			printf("# add VSI on switch 0x%x: retval %u\n", vc[i].sw_id, D_RETVAL(d));
			TEST_CHECK_EQ(D_RETVAL(d), vc[i].retval);
		}
	}
	/* The PE gate: a PF reset closes the engine until PFSWR reads 0 again. */
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x50ba5c), 0x80);		/* GLPE_CPUSTATUS0 */
	TEST_CHECK(irdma_rd32(&a.hw, 0xb6008) & (1u << 10));		/* GLNVM_ULD.PE_DONE */
	irdma_wr32(&a.hw, 0x91000, 1);					/* PFGEN_CTRL.PFSWR */
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x50ba5c), 0);
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0xb6008) & (1u << 10), 0);
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x80200), 0);			/* AdminQ reset */
	irdma_wr32(&a.hw, 0x50a100, 0);					/* CCQPHIGH */
	irdma_wr32(&a.hw, 0x50a080, (uint32_t)a.iova);			/* CCQPLOW: create */
	TEST_CHECK(irdma_rd32(&a.hw, 0x50a000) & (1u << 31));		/* CCQPSTATUS.ERR */
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x91000) & 1, 1);		/* still in reset */
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x91000) & 1, 0);		/* done */
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x50ba5c), 0x80);
	TEST_CHECK(irdma_rd32(&a.hw, 0xb6008) & (1u << 10));
	/* the reset disabled the ATQ: a tail write is not processed, the head stays */
	irdma_wr32(&a.hw, 0x80400, 1);
	TEST_CHECK_EQ(irdma_rd32(&a.hw, 0x80300), 0);
	TEST_CHECK_EQ(irdma_model_stats_get(&a.hw, &st), 0);
	TEST_CHECK_EQ(st.aq_refused, 1);
	TEST_CHECK_EQ(st.pe_refused, 1);	/* the CQP create */
	TEST_CHECK_EQ(st.pf_resets, 1);
	/* cases, sched, PF 5, layers, sw_id */
	TEST_CHECK_EQ(st.aq_errors, 14 + 10 + 7 + 4 + 2);
	TEST_CHECK_EQ(irdma_hw_dma_unmap(&a.hw, a.mem, a.iova, 8192), 0);
	irdma_model_destroy(&a.hw);
	rte_free(a.mem);
}

/* ---- PF 3 ---- */

static void
test_pf3(void)
{
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq = NULL;
	struct rdmadev_cq_attr ca = { .cqe = 64 };
	struct rdmadev_port_info pi;
	struct irdma_model_qp_info qi;
	struct irdma_model_stats st;
	struct rdmadev_qp *qp;
	int id;

	if (pmd_dev_up(DEV("irdma_model0,pf_id=3"), &id, &ctx, &pd) != 0) {
		pmd_dev_down(id, ctx, pd, &st);
		return;
	}
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK_EQ(pi.pf_id, 3);
	TEST_CHECK_EQ(irdma_dev_ctrl(rdmadev_get((int16_t)id))->hmc_fn_id, 3);
	TEST_CHECK_EQ(rdmadev_cq_create(ctx, &ca, &cq), 0);
	qp = cq != NULL ? pmd_qp_create(pd, cq, RDMADEV_QPT_RC, 8) : NULL;
	TEST_CHECK(qp != NULL);
	if (qp != NULL) {
		struct rdmadev_qp_attr attr = { .qp_state = RDMADEV_QPS_INIT, .port_num = 1,
						.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE };

		TEST_CHECK_EQ(rdmadev_qp_modify(qp, &attr, RDMADEV_QP_STATE |
						RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
						RDMADEV_QP_ACCESS_FLAGS), 0);
		/* the context names the function's default statistics instance: 3 */
		TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(id), rdmadev_qp_num(qp), &qi), 0);
		TEST_CHECK_EQ(qi.stats_use, 0);
		TEST_CHECK_EQ(qi.stats_idx, 3);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	if (cq != NULL)
		TEST_CHECK_EQ(rdmadev_cq_destroy(cq), 0);
	/* statistics: GATHER_STATS of the default instance 3, MANAGE_STATS with function 3 */
	{
		struct rdmadev_xstat xs[64];
		struct rdmadev_counter *cnt = NULL;

		TEST_CHECK(rdmadev_xstats_get((int16_t)id, xs, RTE_DIM(xs)) > 0);
		TEST_CHECK_EQ(rdmadev_counter_alloc(ctx, &cnt), 0);
		if (cnt != NULL) {
			TEST_CHECK(rdmadev_counter_read(cnt, xs, RTE_DIM(xs)) > 0);
			TEST_CHECK_EQ(rdmadev_counter_free(cnt), 0);
		}
	}
	pmd_dev_down(id, ctx, pd, &st);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_QUERY_FPM_VAL], 0);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_MANAGE_STATS], 0);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_GATHER_STATS], 0);
	TEST_CHECK_EQ(st.cqp_errors, 0);

	/* Without the PF layer the driver keeps function id 0: the model (PF 3) refuses it. */
	id = pf_open(DEV("irdma_model0,pf_id=3,pf_init=0"));
	if (id < 0)
		return;
	TEST_CHECK(rdmadev_start((int16_t)id) < 0);
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
	TEST_CHECK_EQ(st.cqp_op_refused[IRDMA_CQP_OP_QUERY_FPM_VAL], 1);
	TEST_CHECK_EQ(st.dma_maps, st.dma_unmaps);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

/* ---- link ---- */

/* True once @p fd is readable, waiting at most @p ms. */
static bool
fd_wait(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

static void
test_link(void)
{
	struct rdmadev_port_info pi;
	struct rdmadev_event ev[4];
	struct irdma_model_stats st;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	char *txt = NULL;
	size_t len = 0;
	uint64_t cnt;
	FILE *f;
	int id, i, fd;

	if (pmd_dev_up(DEV("irdma_model0,pf_id=2,mac=02:aa:bb:cc:dd:ee"), &id, &ctx, &pd) != 0) {
		pmd_dev_down(id, ctx, pd, &st);
		return;
	}
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK_EQ(pi.state, RDMADEV_PORT_ACTIVE);
	TEST_CHECK_EQ(pi.speed_mbps, 100000);
	TEST_CHECK_EQ(pi.pf_id, 2);
	TEST_CHECK(strcmp(pi.fw_ver, "4.40.0 api 1.5.0") == 0);
	TEST_CHECK_EQ(pi.mac[1], 0xaa);
	TEST_CHECK_EQ(pi.vsi, 24);
	TEST_CHECK_EQ(pi.nb_qsets, 1);
	TEST_CHECK_EQ(pi.qs_handle[0], 40);
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)id, ev, 4), 0);
	/* The AdminQ cause (PFINT_FW_CTL) shares the event vector: a link event wakes it. */
	fd = rdmadev_event_fd((int16_t)id);
	TEST_CHECK(fd >= 0);
	TEST_CHECK(fd < 0 || read(fd, &cnt, sizeof(cnt)) < 0);	/* nothing pending */
	for (i = 0; i < 2; i++) {
		bool up = i == 1;

		TEST_CHECK_EQ(irdma_model_link_set(pmd_hw(id), up), 0);
		/* thread mode: the interrupt thread writes the fd; 10 s is a liveness bound */
		TEST_CHECK(fd < 0 || (fd_wait(fd, 10000) &&
				      read(fd, &cnt, sizeof(cnt)) == (ssize_t)sizeof(cnt)));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)id, ev, 4), 1);
		TEST_CHECK_EQ(ev[0].type, up ? RDMADEV_EVENT_PORT_ACTIVE : RDMADEV_EVENT_PORT_ERR);
		TEST_CHECK_EQ(ev[0].obj_id, 1);
		TEST_CHECK(ev[0].qp == NULL && ev[0].cq == NULL && ev[0].srq == NULL);
		TEST_CHECK(strcmp(rdmadev_event_type_name(ev[0].type),
				  up ? "PORT_ACTIVE" : "PORT_ERR") == 0);
		TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
		TEST_CHECK_EQ(pi.state, up ? RDMADEV_PORT_ACTIVE : RDMADEV_PORT_DOWN);
		TEST_CHECK_EQ(pi.speed_mbps, up ? 100000u : 0u);
		/* no change, no event */
		TEST_CHECK_EQ(irdma_model_link_set(pmd_hw(id), up), 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)id, ev, 4), 0);
	}
	f = open_memstream(&txt, &len);
	TEST_CHECK(f != NULL);
	if (f != NULL) {
		TEST_CHECK_EQ(rdmadev_dump((int16_t)id, f), 0);
		fclose(f);
		/* PF 2: the model's VSI 0x10 + 4 * 2, qs_handle 8 + 16 * 2 */
		TEST_CHECK(txt != NULL && strstr(txt, "port ACTIVE mac 02:aa:bb:cc:dd:ee speed "
					      "100000 Mb/s pf 2 fw 4.40.0 api 1.5.0 vsi 24 "
					      "qsets 1 qs_handle 40\n") != NULL);
		/* every line of the dump as a TAP comment */
		for (char *l = txt, *e; l != NULL && *l != '\0'; l = e != NULL ? e + 1 : NULL) {
			e = strchr(l, '\n');
			printf("# %.*s\n", e != NULL ? (int)(e - l) : (int)strlen(l), l);
		}
		free(txt);
	}
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(id), &st), 0);
	TEST_CHECK_EQ(st.aq_events, 2);
	TEST_CHECK_EQ(st.aq_events_lost, 0);
	pmd_dev_down(id, ctx, pd, &st);
	/* stopped: link events off, the port is down; a link change posts nothing */
	TEST_CHECK_EQ(st.aq_events, 2);
}

/* The port's MAC is what MANAGE_MAC_READ answers, and the default GID table follows it. */
static void
test_mac_follows(void)
{
	static const uint8_t nvm[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	struct rdmadev_port_info pi;
	uint8_t g[16];
	int id = pf_open(DEV("irdma_model0,mac=02:aa:bb:cc:dd:ee"));

	if (id < 0)
		return;
	/* before start: the devargs MAC and its link-local GID fe80::aa:bbff:fecc:ddee */
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 1, g), 0);
	TEST_CHECK(memcmp(g, "\xfe\x80\0\0\0\0\0\0\x00\xaa\xbb\xff\xfe\xcc\xdd\xee", 16) == 0);
	/* the firmware says otherwise: after start the port and its GIDs follow the firmware */
	TEST_CHECK_EQ(irdma_model_set_mac(pmd_hw(id), nvm), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK(memcmp(pi.mac, nvm, 6) == 0);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 1, g), 0);
	TEST_CHECK(memcmp(g, "\xfe\x80\0\0\0\0\0\0\x00\x11\x22\xff\xfe\x33\x44\x55", 16) == 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
	/* devargs ip= fixes the table: the MAC changes, the GIDs do not */
	id = pf_open(DEV("irdma_model0,ip=10.9.9.9"));
	if (id < 0)
		return;
	TEST_CHECK_EQ(irdma_model_set_mac(pmd_hw(id), nvm), 0);
	TEST_CHECK_EQ(rdmadev_start((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_port_info_get((int16_t)id, &pi), 0);
	TEST_CHECK_EQ(pi.gid_tbl_len, 1);
	TEST_CHECK_EQ(rdmadev_gid_get((int16_t)id, 0, g), 0);
	TEST_CHECK(memcmp(g, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x09\x09\x09", 16) == 0);
	TEST_CHECK_EQ(rdmadev_stop((int16_t)id), 0);
	TEST_CHECK_EQ(rdmadev_close((int16_t)id), 0);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_pf") < 0)
		return test_eal_bail();
	TEST_RUN(test_conformance);
	TEST_RUN(test_fault_retval);
	TEST_RUN(test_fault_qos_retval);
	TEST_RUN(test_fault_ws);
	TEST_RUN(test_model_refuses_qos);
	TEST_RUN(test_fault_no_rdma);
	TEST_RUN(test_fault_api);
	TEST_RUN(test_model_executor);
	TEST_RUN(test_pf3);
	TEST_RUN(test_link);
	TEST_RUN(test_mac_follows);
	TEST_RUN(test_fault_no_answer);
	TEST_RUN(test_fault_reset);
	rte_eal_cleanup();
	return test_done();
}
