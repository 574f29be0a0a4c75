/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The PF bring-up the PMD does in place of Linux's `ice` (doc/e810.md), in ice's order
 * (ice_common.c ice_init_hw, then ice_main.c ice_init_link_events):
 *   1. PF id: PF_FUNC_RID function number (read first, as ice_init_hw does);
 *   2. PF reset (ice_pf_reset: PFGEN_CTRL.PFSWR, or wait for a global reset already running)
 *      and reset done (ice_check_reset: GLGEN_RSTAT.DEVSTATE 0, GLNVM_ULD done bits);
 *   3. AdminQ (irdma_adminq.c);
 *   4. GET_VERSION and the API check (ice_aq_ver_check);
 *   5. CLEAR_PF_CFG, CLEAR_PXE_MODE (ice_clear_pf_cfg, ice_aq_clear_pxe_mode);
 *   6. LIST_FUNC_CAPS: RDMA (cap 0x0051 number 1, ice_parse_common_caps) and MSI-X;
 *   7. MANAGE_MAC_READ (ice_aq_manage_mac_read): the LAN MAC;
 *   8. SET_EVENT_MASK + GET_LINK_STATUS with events enabled (ice_init_link_events);
 *   9. the PF VSI and the RDMA qgroup node of the Tx scheduler (irdma_sched.c);
 *  10. GLNVM_ULD.PE_DONE (what ice_check_reset waits for once RDMA is known).
 * Once the CQP runs, irdma_ctrl.c adds the work scheduler nodes and the RDMA qset
 * (irdma_pf_qos_init()).
 * The RDMA bring-up (GLPE_CPUSTATUS, CQP, HMC with hmc_fn_id = pf_id) follows in
 * irdma_ctrl.c, as irdma's irdma_initialize_dev takes rf->pf_id for hmc_fn_id.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_log.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

/* Poll register @p off until (value & mask) == want, for at most @p ms. */
static int
pf_poll(struct irdma_ctrl *c, uint32_t off, uint32_t mask, uint32_t want, uint32_t ms,
	const char *step)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * ms / MS_PER_S;
	uint32_t v;

	for (;;) {
		v = irdma_rd32(c->hw, off);
		if ((v & mask) == want)
			return 0;
		if (rte_get_timer_cycles() > deadline)
			break;
		irdma_hw_service(c->hw);
		irdma_hw_poll_relax(c->hw);
	}
	IRDMA_LOG(ERR, c->hw, "PF bring-up: %s did not finish in %u ms (register 0x%05x = "
		  "0x%08x, waiting for 0x%08x under mask 0x%08x)", step, ms, off, v, want, mask);
	return -ETIMEDOUT;
}

/* Steps 1 and 2: PF id, PF reset, reset done. */
static int
pf_reset(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	uint32_t rid, rstat, uld, fwsm;
	int ret;

	rid = irdma_rd32(c->hw, IRDMA_PF_FUNC_RID);
	rstat = irdma_rd32(c->hw, IRDMA_GLGEN_RSTAT);
	uld = irdma_rd32(c->hw, IRDMA_GLNVM_ULD);
	fwsm = irdma_rd32(c->hw, IRDMA_GL_MNG_FWSM);
	pf->pf_id = (uint8_t)IRDMA_REG_GET(PF_FUNC_RID_FUNCTION, rid);
	pf->pf_id_valid = true;
	IRDMA_LOG(INFO, c->hw, "PF %u (bus %u device %u): GLGEN_RSTAT 0x%08x GLNVM_ULD 0x%08x "
		  "GL_MNG_FWSM 0x%08x PFGEN_STATE 0x%08x", pf->pf_id,
		  IRDMA_REG_GET(PF_FUNC_RID_BUS, rid), IRDMA_REG_GET(PF_FUNC_RID_DEVICE, rid),
		  rstat, uld, fwsm, irdma_rd32(c->hw, IRDMA_PFGEN_STATE));
	if (IRDMA_REG_GET(GL_MNG_FWSM_FW_MODES, fwsm) & IRDMA_FW_MODE_RECOVERY) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: firmware is in recovery mode (GL_MNG_FWSM "
			  "0x%08x): update the NVM", fwsm);
		return -ENOTSUP;
	}
	/* ice_pf_reset: a global reset in progress is waited for, not interrupted by a PFR. */
	if (IRDMA_REG_GET(GLGEN_RSTAT_DEVSTATE, rstat) != 0 ||
	    (uld & IRDMA_GLNVM_ULD_RESET_DONE) != IRDMA_GLNVM_ULD_RESET_DONE) {
		IRDMA_LOG(NOTICE, c->hw, "a global reset is in progress: waiting for it");
	} else {
		irdma_wr32(c->hw, IRDMA_PFGEN_CTRL, irdma_rd32(c->hw, IRDMA_PFGEN_CTRL) |
			   IRDMA_REG_PREP(PFGEN_CTRL_PFSWR, 1));
		ret = pf_poll(c, IRDMA_PFGEN_CTRL, IRDMA_REG_MASK(PFGEN_CTRL_PFSWR), 0,
			      IRDMA_PF_RESET_TIMEOUT_MS, "PF reset (PFGEN_CTRL.PFSWR)");
		if (ret != 0)
			return ret;
	}
	ret = pf_poll(c, IRDMA_GLGEN_RSTAT, IRDMA_REG_MASK(GLGEN_RSTAT_DEVSTATE), 0,
		      IRDMA_PF_RESET_TIMEOUT_MS, "device reset (GLGEN_RSTAT.DEVSTATE)");
	if (ret == 0)
		ret = pf_poll(c, IRDMA_GLNVM_ULD, IRDMA_GLNVM_ULD_RESET_DONE,
			      IRDMA_GLNVM_ULD_RESET_DONE, IRDMA_PF_RESET_TIMEOUT_MS,
			      "reset done (GLNVM_ULD)");
	if (ret == 0)
		IRDMA_LOG(INFO, c->hw, "PF reset done");
	return ret;
}

/* Step 4: GET_VERSION and the API check. */
static int
pf_version(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_desc d;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_GET_VER, 0);
	ret = irdma_aq_send(c, &d, NULL, 0, "get version");
	if (ret != 0)
		return ret;
	pf->fw_major = (uint8_t)irdma_get(&d, AQ_VER_FW_MAJOR);
	pf->fw_minor = (uint8_t)irdma_get(&d, AQ_VER_FW_MINOR);
	pf->fw_patch = (uint8_t)irdma_get(&d, AQ_VER_FW_PATCH);
	pf->fw_build = (uint32_t)irdma_get(&d, AQ_VER_FW_BUILD);
	pf->api_major = (uint8_t)irdma_get(&d, AQ_VER_API_MAJOR);
	pf->api_minor = (uint8_t)irdma_get(&d, AQ_VER_API_MINOR);
	pf->api_patch = (uint8_t)irdma_get(&d, AQ_VER_API_PATCH);
	IRDMA_LOG(INFO, c->hw, "firmware %u.%u.%u build 0x%08x, AdminQ API %u.%u.%u",
		  pf->fw_major, pf->fw_minor, pf->fw_patch, pf->fw_build, pf->api_major,
		  pf->api_minor, pf->api_patch);
	if (pf->api_major != IRDMA_AQ_API_MAJOR) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: AdminQ API major %u is unknown to the PMD "
			  "(it speaks %u.%u)", pf->api_major, IRDMA_AQ_API_MAJOR,
			  IRDMA_AQ_API_MINOR);
		return -ENOTSUP;
	}
	/* ice_aq_ver_check: a minor two away from the expected one is only a warning. */
	if (pf->api_minor > IRDMA_AQ_API_MINOR + 2 || pf->api_minor + 2u < IRDMA_AQ_API_MINOR)
		IRDMA_LOG(WARNING, c->hw, "AdminQ API %u.%u differs from %u.%u the PMD was "
			  "written against", pf->api_major, pf->api_minor, IRDMA_AQ_API_MAJOR,
			  IRDMA_AQ_API_MINOR);
	return 0;
}

/* Step 5: clear what an earlier owner configured. */
static int
pf_clear(struct irdma_ctrl *c)
{
	struct irdma_aq_desc d;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_CLEAR_PF_CFG, 0);
	ret = irdma_aq_send(c, &d, NULL, 0, "clear PF configuration");
	if (ret != 0)
		return ret;
	irdma_aq_desc_init(&d, IRDMA_AQC_CLEAR_PXE_MODE, 0);
	irdma_set(&d, AQ_PXE_RX_CNT, IRDMA_AQ_CLEAR_PXE_RX_CNT);
	return irdma_aq_send(c, &d, NULL, 0, "clear PXE mode");
}

static int pf_caps_parse(struct irdma_ctrl *c, uint8_t *buf);

/* Step 6: function capabilities. */
static int
pf_caps(struct irdma_ctrl *c)
{
	int ret;

	uint8_t *buf = calloc(1, IRDMA_AQ_BUF_SIZE);

	if (buf == NULL)
		return -ENOMEM;
	ret = pf_caps_parse(c, buf);
	free(buf);
	return ret;
}

/* pf_caps() with its buffer. */
static int
pf_caps_parse(struct irdma_ctrl *c, uint8_t *buf)
{
	struct irdma_pf *pf = &c->pf;
	const struct irdma_aq_cap_elem *e;
	bool rdma_seen = false, msix_seen = false;
	struct irdma_aq_desc d;
	uint32_t n, i;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_LIST_FUNC_CAPS, 0);
	ret = irdma_aq_send(c, &d, buf, IRDMA_AQ_BUF_SIZE, "list function capabilities");
	if (ret != 0)
		return ret;
	n = (uint32_t)irdma_get(&d, AQ_CAPS_COUNT);
	if (n > IRDMA_AQ_BUF_SIZE / IRDMA_AQ_CAP_ELEM_SIZE ||
	    n * IRDMA_AQ_CAP_ELEM_SIZE > irdma_get(&d, AQ_DATALEN)) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: %u capability elements in %u bytes", n,
			  (unsigned int)irdma_get(&d, AQ_DATALEN));
		return -EPROTO;
	}
	pf->rdma = false;
	pf->msix = 0;
	for (i = 0; i < n; i++) {
		e = (const void *)&buf[i * IRDMA_AQ_CAP_ELEM_SIZE];
		switch (irdma_get(e, AQ_CAP_ID)) {
		case IRDMA_AQ_CAP_RDMA:
			rdma_seen = true;
			pf->rdma = irdma_get(e, AQ_CAP_NUMBER) == 1;
			break;
		case IRDMA_AQ_CAP_MSIX:
			msix_seen = true;
			pf->msix = (uint32_t)irdma_get(e, AQ_CAP_NUMBER);
			pf->msix_first = (uint32_t)irdma_get(e, AQ_CAP_PHYS_ID);
			break;
		default:
			break;
		}
	}
	IRDMA_LOG(INFO, c->hw, "capabilities: %u elements, RDMA %s, %u MSI-X vectors from %u", n,
		  !rdma_seen ? "absent" : pf->rdma ? "enabled" : "disabled", pf->msix,
		  pf->msix_first);
	if (!pf->rdma) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: the RDMA capability is %s on PF %u (enable "
			  "RDMA in the NVM)", rdma_seen ? "disabled" : "absent", pf->pf_id);
		return -ENOTSUP;
	}
	if (!msix_seen || pf->msix == 0) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: the function has no MSI-X vector");
		return -ENOTSUP;
	}
	return 0;
}

/* Step 7: the port's LAN MAC. */
static int
pf_mac(struct irdma_ctrl *c)
{
	uint8_t buf[2 * IRDMA_AQ_MAC_ENTRY_SIZE];
	struct irdma_pf *pf = &c->pf;
	struct irdma_aq_desc d;
	uint32_t n, i;
	int ret;

	memset(buf, 0, sizeof(buf));
	irdma_aq_desc_init(&d, IRDMA_AQC_MANAGE_MAC_READ, 0);
	ret = irdma_aq_send(c, &d, buf, sizeof(buf), "read MAC address");
	if (ret != 0)
		return ret;
	if (!(irdma_get(&d, AQ_MAC_FLAGS) & IRDMA_AQ_MAC_LAN_ADDR_VALID)) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up: firmware reports no valid LAN MAC");
		return -EPROTO;
	}
	n = RTE_MIN((uint32_t)irdma_get(&d, AQ_MAC_NUM_ADDR), 2u);
	for (i = 0; i < n; i++) {
		const uint8_t *e = &buf[i * IRDMA_AQ_MAC_ENTRY_SIZE];

		if (e[1] != IRDMA_AQ_MAC_TYPE_LAN)
			continue;
		memcpy(pf->mac, &e[2], sizeof(pf->mac));
		pf->mac_valid = true;
		IRDMA_LOG(INFO, c->hw, "MAC %02x:%02x:%02x:%02x:%02x:%02x", pf->mac[0], pf->mac[1],
			  pf->mac[2], pf->mac[3], pf->mac[4], pf->mac[5]);
		return 0;
	}
	IRDMA_LOG(ERR, c->hw, "PF bring-up: no LAN entry among %u MAC addresses", n);
	return -EPROTO;
}

/* Decode link status data into the PF state; true when the state changed. */
static bool
pf_link_decode(struct irdma_ctrl *c, const uint8_t *data, uint16_t len)
{
	const struct irdma_aq_link_status *ls = (const void *)data;
	struct irdma_pf *pf = &c->pf;
	bool up, changed;

	if (len < 16) {
		IRDMA_LOG(ERR, c->hw, "link status of %u bytes ignored", len);
		return false;
	}
	up = irdma_get(ls, AQ_LS_LINK_UP) != 0;
	changed = up != pf->link_up;
	/* Read by port_info_get on other threads: relaxed stores, each field on its own. */
	__atomic_store_n(&pf->link_up, up, __ATOMIC_RELAXED);
	__atomic_store_n(&pf->speed_mbps,
			 up ? irdma_aq_speed_mbps((uint16_t)irdma_get(ls, AQ_LS_SPEED)) : 0,
			 __ATOMIC_RELAXED);
	IRDMA_LOG(INFO, c->hw, "link %s, %u Mb/s", up ? "up" : "down",
		  __atomic_load_n(&pf->speed_mbps, __ATOMIC_RELAXED));
	return changed;
}

/* GET_LINK_STATUS with link status events set to @p lse. */
static int
pf_link_status(struct irdma_ctrl *c, uint8_t lse)
{
	uint8_t data[IRDMA_AQ_LINK_STATUS_LEN];
	struct irdma_aq_desc d;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_GET_LINK_STATUS, 0);
	irdma_set(&d, AQ_LS_LSE, lse);
	ret = irdma_aq_send(c, &d, data, sizeof(data), "get link status");
	if (ret != 0)
		return ret;
	c->pf.lse = lse == IRDMA_AQ_LSE_ENA && (irdma_get(&d, AQ_LS_LSE) & 1u);
	if (lse == IRDMA_AQ_LSE_ENA)
		(void)pf_link_decode(c, data, (uint16_t)irdma_get(&d, AQ_DATALEN));
	return 0;
}

/* Step 8: link events on (ice_init_link_events), then the link state. */
static int
pf_link(struct irdma_ctrl *c)
{
	struct irdma_aq_desc d;
	int ret;

	irdma_aq_desc_init(&d, IRDMA_AQC_SET_EVENT_MASK, 0);
	/* A set bit masks that event: report link up / down and media changes only. */
	irdma_set(&d, AQ_EVM_MASK, (uint16_t)~(IRDMA_AQ_EVENT_LINK_UPDOWN |
					       IRDMA_AQ_EVENT_MEDIA_NA));
	ret = irdma_aq_send(c, &d, NULL, 0, "set event mask");
	if (ret == 0)
		ret = pf_link_status(c, IRDMA_AQ_LSE_ENA);
	if (ret == 0 && !c->pf.lse)
		IRDMA_LOG(WARNING, c->hw, "firmware did not enable link status events");
	return ret;
}

/* Step 10: the PE is ready for the CQP. */
static int
pf_pe_ready(struct irdma_ctrl *c)
{
	return pf_poll(c, IRDMA_GLNVM_ULD, IRDMA_REG_MASK(GLNVM_ULD_PE_DONE),
		       IRDMA_REG_MASK(GLNVM_ULD_PE_DONE), IRDMA_PF_RESET_TIMEOUT_MS,
		       "PE done (GLNVM_ULD.PE_DONE)");
}

/* The bring-up steps in the order of the comment at the top; the name is for the log. */
static const struct {
	const char *name;
	int (*run)(struct irdma_ctrl *c);
} pf_bringup_steps[] = {
	{ "PF reset", pf_reset },
	{ "AdminQ", irdma_aq_init },
	{ "firmware version", pf_version },
	{ "PF clear", pf_clear },
	{ "capabilities", pf_caps },
	{ "MAC address", pf_mac },
	{ "link", pf_link },
	{ "VSI and scheduler", irdma_pf_vsi_sched_init },
	{ "PE ready", pf_pe_ready },
};

int
irdma_pf_bringup(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;
	unsigned int i;
	int ret = 0;

	pf->up = false;
	pf->link_up = false;
	pf->speed_mbps = 0;
	pf->lse = false;
	pf->mac_valid = false;
	for (i = 0; i < RTE_DIM(pf_bringup_steps) && ret == 0; i++)
		ret = pf_bringup_steps[i].run(c);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "PF bring-up failed at step \"%s\": %s",
			  pf_bringup_steps[i - 1].name, strerror(-ret));
		irdma_pf_teardown(c);
		return ret;
	}
	c->hmc_fn_id = pf->pf_id;
	memcpy(c->hw->mac, pf->mac, sizeof(pf->mac));
	/*
	 * The other causes the PMD reacts to (ice_ena_misc_vector): enable them, then read
	 * PFINT_OICR once to drop what was latched before (it clears on read).
	 */
	irdma_wr32(c->hw, IRDMA_PFINT_OICR_ENA, 0);
	(void)irdma_rd32(c->hw, IRDMA_PFINT_OICR);
	irdma_wr32(c->hw, IRDMA_PFINT_OICR_ENA, IRDMA_PF_OICR_CAUSES);
	pf->up = true;
	IRDMA_LOG(INFO, c->hw, "PF up: HMC function %u, link %s", c->hmc_fn_id,
		  pf->link_up ? "up" : "down");
	return 0;
}

void
irdma_pf_teardown(struct irdma_ctrl *c)
{
	struct irdma_pf *pf = &c->pf;

	if (pf->up)
		irdma_wr32(c->hw, IRDMA_PFINT_OICR_ENA, 0);
	irdma_pf_vsi_sched_fini(c);
	if (pf->aq_up && !pf->aq_hung && pf->lse)
		(void)pf_link_status(c, IRDMA_AQ_LSE_DIS);
	pf->lse = false;
	irdma_aq_shutdown(c);
	pf->up = false;
	pf->link_up = false;
	pf->speed_mbps = 0;
}

int
irdma_pf_events(struct irdma_ctrl *c, struct rdmadev *dev)
{
	uint8_t buf[IRDMA_AQ_LINK_STATUS_LEN];
	struct rdmadev_event ev;
	struct irdma_aq_desc d;
	uint16_t dlen;
	int n = 0;

	/* One pass over the ring at most: events arriving meanwhile wait for the next call. */
	while (n < (int)IRDMA_AQ_ARQ_LEN && irdma_aq_event_next(c, &d, buf, sizeof(buf), &dlen)) {
		n++;
		if (irdma_get(&d, AQ_OPCODE) != IRDMA_AQC_GET_LINK_STATUS) {
			IRDMA_LOG(DEBUG, c->hw, "AdminQ event 0x%04x ignored",
				  (unsigned int)irdma_get(&d, AQ_OPCODE));
			continue;
		}
		if (!pf_link_decode(c, buf, dlen) || dev == NULL)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.type = c->pf.link_up ? RDMADEV_EVENT_PORT_ACTIVE : RDMADEV_EVENT_PORT_ERR;
		ev.obj_id = 1;
		ev.vendor_code = IRDMA_AQC_GET_LINK_STATUS;
		(void)rdmadev_event_report(dev, &ev);
	}
	return n;
}

/* Reset kinds by GLGEN_RSTAT.RESET_TYPE (ice_main.c ice_misc_intr). */
static const char *
pf_reset_kind(uint32_t type)
{
	static const char *const names[] = { "unknown", "core (CORER)", "global (GLOBR)",
					     "EMP (EMPR)" };

	return names[type & 3u];
}

/* Every QP to the fatal state; its outstanding WRs complete with a flush error at poll. */
static unsigned int
pf_reset_flush_qps(struct irdma_ctrl *c, struct rdmadev *dev)
{
	uint32_t id, n = c->hmc.obj[IRDMA_HMC_OBJ_QP].cnt;
	struct rdmadev_obj *obj;
	struct rdmadev_qp *qp;
	struct irdma_qp *q;
	unsigned int cnt = 0;

	for (id = 0; id < n; id++) {
		obj = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP, id);
		if (obj == NULL)
			continue;
		qp = container_of(obj, struct rdmadev_qp, obj);
		pthread_mutex_lock(&qp->lock);
		q = obj->fp.drv;
		if (q != NULL) {
			/* Not RTS, not ERROR: the QP's post_send variant refuses (-EIO). */
			irdma_qp_hw_state_set(q, IRDMA_QP_HW_FATAL);
			irdma_uk_flush_queue(q, true);
			if (q->srq == NULL)
				irdma_uk_flush_queue(q, false);
			(void)rdmadev_qp_async_state_locked(qp, RDMADEV_QPS_ERR);
			cnt++;
		}
		pthread_mutex_unlock(&qp->lock);
		rdmadev_obj_put(obj);
	}
	return cnt;
}

/*
 * A reset the OICR may not have announced: the AdminQ's enable bit cleared (every reset, a
 * function-level one included, leaves the AdminQ disabled; ice_ctrlq_pending and irdma's
 * reset path read it so) or GLGEN_RSTAT.DEVSTATE set (a core, global or EMP reset in
 * progress, ice_check_reset). Two register reads.
 */
static bool
pf_reset_regs(struct irdma_ctrl *c, uint32_t *rstat)
{
	uint32_t atqlen = irdma_rd32(c->hw, IRDMA_PF_FW_ATQLEN);

	*rstat = irdma_rd32(c->hw, IRDMA_GLGEN_RSTAT);
	return !IRDMA_REG_GET(AQLEN_ENABLE, atqlen) ||
	       IRDMA_REG_GET(GLGEN_RSTAT_DEVSTATE, *rstat) != 0;
}

bool
irdma_pf_reset_seen(struct irdma_ctrl *c)
{
	uint32_t rstat;

	if (__atomic_load_n(&c->fatal, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&c->reset_seen, __ATOMIC_ACQUIRE))
		return true;
	if (!c->pf.up || !pf_reset_regs(c, &rstat))
		return false;
	IRDMA_LOG(CRIT, c->hw, "device reset found by the control path (GLGEN_RSTAT 0x%08x, "
		  "AdminQ disabled): the commands left succeed without the device", rstat);
	__atomic_store_n(&c->reset_seen, true, __ATOMIC_RELEASE);
	return true;
}

bool
irdma_pf_reset_poll_due(struct irdma_ctrl *c)
{
	uint64_t now;

	if (__atomic_load_n(&c->reset_seen, __ATOMIC_ACQUIRE))
		return true;
	if (c->req.reset_poll_ms == 0)
		return false;
	now = rte_get_timer_cycles();
	if (now < c->reset_poll_next)
		return false;
	c->reset_poll_next = now + rte_get_timer_hz() * c->req.reset_poll_ms / MS_PER_S;
	return true;
}

int
irdma_pf_reset_check(struct irdma_ctrl *c, struct rdmadev *dev, bool oicr_due, bool poll_due)
{
	struct rdmadev_event ev = { .type = RDMADEV_EVENT_DEVICE_FATAL };
	uint32_t oicr = 0, rstat = 0;
	unsigned int nqp;
	bool reset = false;

	if (!c->pf.up || __atomic_load_n(&c->fatal, __ATOMIC_ACQUIRE))
		return 0;
	/*
	 * ice_misc_intr: PFINT_OICR (clear on read) with GRST set announces a core, global or
	 * EMP reset; GLGEN_RSTAT then says which. One register read when nothing happened.
	 */
	if (oicr_due) {
		oicr = irdma_rd32(c->hw, IRDMA_PFINT_OICR);
		if (unlikely(oicr & (IRDMA_REG_MASK(PFINT_OICR_HMC_ERR) |
				     IRDMA_REG_MASK(PFINT_OICR_PE_PUSH) |
				     IRDMA_REG_MASK(PFINT_OICR_PE_CRITERR))))
			IRDMA_LOG(ERR, c->hw, "PFINT_OICR 0x%08x: %s%s%s (GLPE_CRITERR 0x%08x)",
				  oicr, IRDMA_REG_GET(PFINT_OICR_HMC_ERR, oicr) ? "HMC error " : "",
				  IRDMA_REG_GET(PFINT_OICR_PE_PUSH, oicr) ? "PE push error " : "",
				  IRDMA_REG_GET(PFINT_OICR_PE_CRITERR, oicr) ?
				  "PE critical error " : "", irdma_rd32(c->hw, IRDMA_GLPE_CRITERR));
		if (unlikely(IRDMA_REG_GET(PFINT_OICR_GRST, oicr))) {
			reset = true;
			rstat = irdma_rd32(c->hw, IRDMA_GLGEN_RSTAT);
		}
	}
	/*
	 * ice's service task looks for a reset on a timer too: a function-level reset raises no
	 * OICR cause, and it disables MSI-X, so no vector fires. Every reset_poll_ms, and at
	 * once after a CQP command found the device reset.
	 */
	if (!reset && poll_due) {
		if (__atomic_load_n(&c->reset_seen, __ATOMIC_ACQUIRE)) {
			rstat = irdma_rd32(c->hw, IRDMA_GLGEN_RSTAT);
			reset = true;
		} else {
			reset = pf_reset_regs(c, &rstat);
		}
	}
	if (likely(!reset))
		return 0;
	/* Exactly once, whichever thread (application or interrupt thread) sees it first. */
	if (__atomic_exchange_n(&c->fatal, true, __ATOMIC_ACQ_REL))
		return 0;
	/* Only the shutdown is left for the AdminQ: no command would be answered. */
	c->pf.aq_hung = true;
	__atomic_store_n(&c->pf.link_up, false, __ATOMIC_RELAXED);
	nqp = dev != NULL ? pf_reset_flush_qps(c, dev) : 0;
	IRDMA_LOG(CRIT, c->hw, "device reset detected: %s reset (PFINT_OICR 0x%08x, GLGEN_RSTAT "
		  "0x%08x): %u QPs flushed, every object is fatal; stop and start the device",
		  IRDMA_REG_GET(PFINT_OICR_GRST, oicr) ?
		  pf_reset_kind(IRDMA_REG_GET(GLGEN_RSTAT_RESET_TYPE, rstat)) :
		  IRDMA_REG_GET(GLGEN_RSTAT_DEVSTATE, rstat) != 0 ?
		  pf_reset_kind(IRDMA_REG_GET(GLGEN_RSTAT_RESET_TYPE, rstat)) :
		  "an unannounced (function-level?)", oicr, rstat, nqp);
	ev.vendor_code = rstat;
	if (dev != NULL)
		(void)rdmadev_event_report(dev, &ev);
	return 1;
}
