/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The firmware's AdminQ executor: it fetches the descriptors the driver put between ATQH and
 * ATQT (the ring at ATQBAH:ATQBAL, DMA-mapped), checks them as firmware would, runs the
 * commands the PMD uses, writes the response over the descriptor (DD | CMP, ERR with a
 * non-zero return code) and moves ATQH. Events go to the ARQ. Called with dev->lock held.
 *
 * Descriptor checks (answered with enum irdma_aq_err, ice_adminq_cmd.h):
 *   DD, CMP or ERR set by the driver                         EINVAL  (bad flags)
 *   an opcode the model does not know                        ESRCH   (bad opcode)
 *   datalen > 4096, > 512 without LB, BUF with datalen 0,
 *   datalen without BUF                                      EINVAL  (bad length)
 *   a buffer command without BUF, a direct one with BUF      EINVAL
 *   RD on a command whose buffer is a response only          EINVAL
 *   no RD on a command whose buffer firmware reads           EINVAL
 *   a buffer that is not DMA-mapped                          BAD_ADDR
 *   a buffer too small for the response                      ENOMEM (list caps: count = needed)
 * A ring that is not enabled, a tail beyond the ring or a ring base that is not mapped is not
 * processed at all (counted in aq_refused): the driver's wait times out, as on a dead device.
 */

#include <string.h>

#include "model_engine.h"

/* Firmware version the model reports (its own numbering; API from the configuration). */
#define MODEL_FW_MAJOR		4u
#define MODEL_FW_MINOR		40u
#define MODEL_FW_PATCH		0u
#define MODEL_FW_BUILD		UINT32_C(0x4d4f444c)	/* "MODL" */
#define MODEL_ROM_VER		UINT32_C(0x00000001)
/* Largest frame reported in the link status (ICE_AQ_SET_MAC_FRAME_SIZE_MAX). */
#define MODEL_MAX_FRAME		9728u

/* What an opcode takes: a direct command, or one whose buffer is read (RD) or written. */
enum aq_kind {
	AQ_UNKNOWN = 0,
	AQ_DIRECT,
	AQ_BUF_OUT,	/* firmware writes the buffer (a response) */
	AQ_BUF_IN,	/* firmware reads the buffer (RD; it may write results into it) */
};

static enum aq_kind
aq_kind_of(uint16_t opc)
{
	switch (opc) {
	case IRDMA_AQC_GET_VER:
	case IRDMA_AQC_Q_SHUTDOWN:
	case IRDMA_AQC_CLEAR_PXE_MODE:
	case IRDMA_AQC_CLEAR_PF_CFG:
	case IRDMA_AQC_SET_EVENT_MASK:
	case IRDMA_AQC_FREE_VSI:
		return AQ_DIRECT;
	case IRDMA_AQC_ADD_VSI:
	case IRDMA_AQC_UPDATE_VSI:
	case IRDMA_AQC_ADD_SCHED_ELEMS:
	case IRDMA_AQC_DEL_SCHED_ELEMS:
	case IRDMA_AQC_ADD_RDMA_QSET:
	case IRDMA_AQC_DIS_TXQS:
		return AQ_BUF_IN;
	case IRDMA_AQC_GET_SW_CFG:
	case IRDMA_AQC_QUERY_SCHED_RES:
	case IRDMA_AQC_GET_DFLT_TOPO:
	case IRDMA_AQC_LIST_FUNC_CAPS:
	case IRDMA_AQC_LIST_DEV_CAPS:
	case IRDMA_AQC_MANAGE_MAC_READ:
	case IRDMA_AQC_GET_LINK_STATUS:
		return AQ_BUF_OUT;
	default:
		return AQ_UNKNOWN;
	}
}

static rte_iova_t
aq_ring_base(const struct model_aq_regs *q)
{
	return (uint64_t)q->bah << 32 | q->bal;
}

static rte_iova_t
aq_buf_addr(const struct irdma_aq_desc *desc)
{
	return (uint64_t)irdma_get(desc, AQ_ADDR_HIGH) << 32 | irdma_get(desc, AQ_ADDR_LOW);
}

void
model_aq_link_data(struct model_dev *d, uint8_t *data)
{
	struct irdma_aq_link_status *ls = (void *)data;

	memset(data, 0, IRDMA_AQ_LINK_STATUS_LEN);
	irdma_set(ls, AQ_LS_LINK_UP, d->pf.link_up ? 1 : 0);
	irdma_set(ls, AQ_LS_MAX_FRAME, MODEL_MAX_FRAME);
	irdma_set(ls, AQ_LS_SPEED, d->pf.link_up ? d->cfg.link_speed :
				   IRDMA_AQ_LINK_SPEED_UNKNOWN);
}

/* The checks common to every descriptor: 0 or the return code. */
static uint16_t
aq_check(struct model_dev *d, const struct irdma_aq_desc *desc, enum aq_kind kind)
{
	uint16_t flags = (uint16_t)irdma_get(desc, AQ_FLAGS);
	uint32_t len = (uint32_t)irdma_get(desc, AQ_DATALEN);
	bool buf = (flags & IRDMA_AQ_FLAG_BUF) != 0;

	if (flags & (IRDMA_AQ_FLAG_DD | IRDMA_AQ_FLAG_CMP | IRDMA_AQ_FLAG_ERR))
		return IRDMA_AQ_RC_EINVAL;
	if (kind == AQ_UNKNOWN)
		return IRDMA_AQ_RC_ESRCH;
	if (len > IRDMA_AQ_MAX_BUF_LEN || (buf && len == 0) || (!buf && len != 0) ||
	    (len > IRDMA_AQ_LG_BUF && !(flags & IRDMA_AQ_FLAG_LB)))
		return IRDMA_AQ_RC_EINVAL;
	if ((kind == AQ_DIRECT) == buf)
		return IRDMA_AQ_RC_EINVAL;
	if (kind == AQ_BUF_OUT && (flags & IRDMA_AQ_FLAG_RD))
		return IRDMA_AQ_RC_EINVAL;
	if (kind == AQ_BUF_IN && !(flags & IRDMA_AQ_FLAG_RD))
		return IRDMA_AQ_RC_EINVAL;
	if (buf && model_dma_check(d, aq_buf_addr(desc), len) != 0) {
		MODEL_INC(d, dma_faults);
		return IRDMA_AQ_RC_BAD_ADDR;
	}
	return 0;
}

/* Write @p n bytes of a response into the command's buffer and set datalen. */
static void
aq_respond(struct model_dev *d, struct irdma_aq_desc *desc, const void *data, uint16_t n)
{
	(void)model_dma_write(d, aq_buf_addr(desc), data, n);
	irdma_set(desc, AQ_DATALEN, n);
}

/* One capability element. */
static void
aq_cap(uint8_t *buf, uint32_t i, uint16_t id, uint32_t number, uint32_t phys)
{
	struct irdma_aq_cap_elem *e = (void *)&buf[i * IRDMA_AQ_CAP_ELEM_SIZE];

	irdma_set(e, AQ_CAP_ID, id);
	irdma_set(e, AQ_CAP_MAJOR, 1);
	irdma_set(e, AQ_CAP_NUMBER, number);
	irdma_set(e, AQ_CAP_PHYS_ID, phys);
}

static uint16_t
aq_list_caps(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t buf[3 * IRDMA_AQ_CAP_ELEM_SIZE];
	uint32_t n = 3;

	memset(buf, 0, sizeof(buf));
	aq_cap(buf, 0, IRDMA_AQ_CAP_VALID_FUNCTIONS, UINT32_C(1) << d->cfg.pf_id, 0);
	aq_cap(buf, 1, IRDMA_AQ_CAP_MSIX, d->cfg.msix, (uint32_t)d->cfg.pf_id * d->cfg.msix);
	aq_cap(buf, 2, IRDMA_AQ_CAP_RDMA, d->cfg.rdma ? 1 : 0, 0);
	irdma_set(desc, AQ_CAPS_COUNT, n);
	if (irdma_get(desc, AQ_DATALEN) < sizeof(buf)) {
		irdma_set(desc, AQ_DATALEN, 0);
		return IRDMA_AQ_RC_ENOMEM;
	}
	aq_respond(d, desc, buf, sizeof(buf));
	return 0;
}

static uint16_t
aq_mac_read(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t e[IRDMA_AQ_MAC_ENTRY_SIZE];

	if (irdma_get(desc, AQ_DATALEN) < sizeof(e)) {
		irdma_set(desc, AQ_DATALEN, 0);
		return IRDMA_AQ_RC_ENOMEM;
	}
	e[0] = 0; /* logical port */
	e[1] = IRDMA_AQ_MAC_TYPE_LAN;
	memcpy(&e[2], d->cfg.mac, 6);
	aq_respond(d, desc, e, sizeof(e));
	irdma_set(desc, AQ_MAC_FLAGS, IRDMA_AQ_MAC_LAN_ADDR_VALID);
	irdma_set(desc, AQ_MAC_NUM_ADDR, 1);
	return 0;
}

static uint16_t
aq_link_status(struct model_dev *d, struct irdma_aq_desc *desc)
{
	uint8_t data[IRDMA_AQ_LINK_STATUS_LEN];
	uint32_t lse = (uint32_t)irdma_get(desc, AQ_LS_LSE);

	if (irdma_get(desc, AQ_DATALEN) < sizeof(data) || lse == 1)
		return IRDMA_AQ_RC_EINVAL;
	if (lse == IRDMA_AQ_LSE_ENA)
		d->pf.lse = true;
	else if (lse == IRDMA_AQ_LSE_DIS)
		d->pf.lse = false;
	model_aq_link_data(d, data);
	aq_respond(d, desc, data, sizeof(data));
	irdma_set(desc, AQ_LS_LSE, d->pf.lse ? 1 : 0);
	return 0;
}

/* Run one checked command; the response goes into @p desc. 0 or a return code. */
static uint16_t
aq_exec(struct model_dev *d, struct irdma_aq_desc *desc)
{
	switch (irdma_get(desc, AQ_OPCODE)) {
	case IRDMA_AQC_GET_VER:
		irdma_set(desc, AQ_VER_ROM, MODEL_ROM_VER);
		irdma_set(desc, AQ_VER_FW_BUILD, MODEL_FW_BUILD);
		irdma_set(desc, AQ_VER_FW_BRANCH, 0);
		irdma_set(desc, AQ_VER_FW_MAJOR, MODEL_FW_MAJOR);
		irdma_set(desc, AQ_VER_FW_MINOR, MODEL_FW_MINOR);
		irdma_set(desc, AQ_VER_FW_PATCH, MODEL_FW_PATCH);
		irdma_set(desc, AQ_VER_API_BRANCH, 0);
		irdma_set(desc, AQ_VER_API_MAJOR, d->cfg.fw_api_major);
		irdma_set(desc, AQ_VER_API_MINOR, d->cfg.fw_api_minor);
		irdma_set(desc, AQ_VER_API_PATCH, 0);
		return 0;
	case IRDMA_AQC_Q_SHUTDOWN:
		d->pf.lse = false;
		return 0;
	case IRDMA_AQC_CLEAR_PF_CFG:
		/* What the PF configured goes: link events and their mask. */
		d->pf.lse = false;
		d->pf.event_mask = 0;
		return 0;
	case IRDMA_AQC_CLEAR_PXE_MODE:
		return irdma_get(desc, AQ_PXE_RX_CNT) == IRDMA_AQ_CLEAR_PXE_RX_CNT ? 0 :
		       IRDMA_AQ_RC_EINVAL;
	case IRDMA_AQC_SET_EVENT_MASK:
		d->pf.event_mask = (uint16_t)irdma_get(desc, AQ_EVM_MASK);
		return 0;
	case IRDMA_AQC_LIST_FUNC_CAPS:
	case IRDMA_AQC_LIST_DEV_CAPS:
		return aq_list_caps(d, desc);
	case IRDMA_AQC_MANAGE_MAC_READ:
		return aq_mac_read(d, desc);
	case IRDMA_AQC_GET_LINK_STATUS:
		return aq_link_status(d, desc);
	default:
		/* The VSI, scheduler and qset commands; ESRCH for any other opcode. */
		return model_aq_sched(d, desc);
	}
}

/* True when ring @p q is set up well enough to be processed. */
static bool
aq_ring_ok(struct model_dev *d, const struct model_aq_regs *q)
{
	uint32_t n = IRDMA_REG_GET(AQLEN_LEN, q->len);

	if (!IRDMA_REG_GET(AQLEN_ENABLE, q->len) || n == 0 || (q->bal & 0x3fu) != 0 ||
	    IRDMA_REG_GET(AQ_PTR, q->tail) >= n || q->head >= n ||
	    model_dma_check(d, aq_ring_base(q), (size_t)n * IRDMA_AQ_DESC_SIZE) != 0)
		return false;
	return true;
}

/* The first bytes of an RD buffer, for conformance tests (zeros when there is none). */
static void
aq_capture_buf(struct model_dev *d, const struct irdma_aq_desc *desc, uint8_t *out)
{
	uint32_t len = RTE_MIN((uint32_t)irdma_get(desc, AQ_DATALEN), IRDMA_MODEL_AQ_CAPTURE_BUF);

	memset(out, 0, IRDMA_MODEL_AQ_CAPTURE_BUF);
	if ((irdma_get(desc, AQ_FLAGS) & (IRDMA_AQ_FLAG_RD | IRDMA_AQ_FLAG_BUF)) ==
	    (IRDMA_AQ_FLAG_RD | IRDMA_AQ_FLAG_BUF) &&
	    model_dma_check(d, aq_buf_addr(desc), len) == 0)
		(void)model_dma_read(d, aq_buf_addr(desc), out, len);
}

void
model_aq_process(struct model_dev *d)
{
	struct model_aq_regs *q = &d->pf.atq;
	struct irdma_aq_desc desc;
	rte_iova_t slot;
	uint16_t rc, flags;
	bool fault;
	uint32_t n;

	if (!d->pf.aq_pending)
		return;
	d->pf.aq_pending = false;
	if (!aq_ring_ok(d, q)) {
		MODEL_INC(d, aq_refused);
		MODEL_LOG(DEBUG, d, "ATQ not processed: len 0x%08x base 0x%08x%08x head %u tail %u",
			  q->len, q->bah, q->bal, q->head, q->tail);
		return;
	}
	n = IRDMA_REG_GET(AQLEN_LEN, q->len);
	while (q->head != IRDMA_REG_GET(AQ_PTR, q->tail)) {
		slot = aq_ring_base(q) + (rte_iova_t)q->head * IRDMA_AQ_DESC_SIZE;
		if (model_dma_read(d, slot, &desc, sizeof(desc)) != 0)
			return;
		memcpy(d->pf.cap[d->pf.cap_n % IRDMA_MODEL_AQ_CAPTURE], &desc, sizeof(desc));
		aq_capture_buf(d, &desc, d->pf.cap_buf[d->pf.cap_n % IRDMA_MODEL_AQ_CAPTURE]);
		d->pf.cap_n++;
		fault = d->pf.fault.kind != IRDMA_MODEL_AQ_FAULT_NONE &&
			d->pf.fault.opcode == irdma_get(&desc, AQ_OPCODE);
		if (fault && d->pf.fault.skip > 0) {
			d->pf.fault.skip--;	/* an earlier command of the opcode runs */
			fault = false;
		}
		if (fault) {
			if (d->pf.fault.kind == IRDMA_MODEL_AQ_FAULT_NO_ANSWER) {
				/* Firmware went silent: this command and the queue stay. */
				MODEL_LOG(DEBUG, d, "AdminQ 0x%04x: no answer (injected)",
					  (unsigned int)irdma_get(&desc, AQ_OPCODE));
				return;
			}
			rc = d->pf.fault.retval;
			d->pf.fault.kind = IRDMA_MODEL_AQ_FAULT_NONE;
		} else {
			rc = aq_check(d, &desc, aq_kind_of((uint16_t)irdma_get(&desc, AQ_OPCODE)));
			if (rc == 0)
				rc = aq_exec(d, &desc);
		}
		flags = (uint16_t)irdma_get(&desc, AQ_FLAGS) | IRDMA_AQ_FLAG_DD | IRDMA_AQ_FLAG_CMP;
		if (rc != 0) {
			flags |= IRDMA_AQ_FLAG_ERR;
			MODEL_INC(d, aq_errors);
			MODEL_LOG(DEBUG, d, "AdminQ 0x%04x answered with code %u",
				  (unsigned int)irdma_get(&desc, AQ_OPCODE), rc);
		}
		irdma_set(&desc, AQ_FLAGS, flags);
		irdma_set(&desc, AQ_RETVAL, rc);
		(void)model_dma_write(d, slot, &desc, sizeof(desc));
		MODEL_INC(d, aq_cmds);
		q->head = (q->head + 1) % n;
	}
}

bool
model_aq_event(struct model_dev *d, uint16_t opcode, const void *data, uint16_t len)
{
	struct model_aq_regs *q = &d->pf.arq;
	struct irdma_aq_desc desc;
	rte_iova_t slot;
	uint32_t n = IRDMA_REG_GET(AQLEN_LEN, q->len);

	/* Firmware writes slot head while it is not the tail (the last slot given back). */
	if (!aq_ring_ok(d, q) || q->head == IRDMA_REG_GET(AQ_PTR, q->tail))
		goto lost;
	slot = aq_ring_base(q) + (rte_iova_t)q->head * IRDMA_AQ_DESC_SIZE;
	if (model_dma_read(d, slot, &desc, sizeof(desc)) != 0 ||
	    !(irdma_get(&desc, AQ_FLAGS) & IRDMA_AQ_FLAG_BUF) ||
	    irdma_get(&desc, AQ_DATALEN) < len ||
	    model_dma_write(d, aq_buf_addr(&desc), data, len) != 0)
		goto lost;
	irdma_set(&desc, AQ_FLAGS, (irdma_get(&desc, AQ_FLAGS) & IRDMA_AQ_FLAG_LB) |
				   IRDMA_AQ_FLAG_BUF | IRDMA_AQ_FLAG_DD | IRDMA_AQ_FLAG_CMP);
	irdma_set(&desc, AQ_OPCODE, opcode);
	irdma_set(&desc, AQ_DATALEN, len);
	irdma_set(&desc, AQ_RETVAL, 0);
	irdma_set(&desc, AQ_COOKIE_HIGH, 0);
	irdma_set(&desc, AQ_COOKIE_LOW, 0);
	irdma_set(&desc, AQ_PARAM0, 0);
	irdma_set(&desc, AQ_PARAM1, 0);
	if (model_dma_write(d, slot, &desc, sizeof(desc)) != 0)
		goto lost;
	q->head = (q->head + 1) % n;
	MODEL_INC(d, aq_events);
	/* The AdminQ cause raises the vector PFINT_FW_CTL names, when enabled. */
	model_irq_raise(d, d->fw_ctl);
	return true;
lost:
	q->len |= IRDMA_REG_MASK(AQLEN_OVFL);
	MODEL_INC(d, aq_events_lost);
	MODEL_LOG(DEBUG, d, "ARQ event 0x%04x lost", opcode);
	return false;
}
