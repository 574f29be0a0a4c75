/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The AdminQ client: the firmware's control queue, as Linux's ice_controlq.c drives it
 * (ice_cfg_cq_regs, ice_init_sq / ice_init_rq, ice_sq_send_cmd_nolock, ice_clean_rq_elem,
 * ice_shutdown_sq / ice_shutdown_rq). Two rings of 32-byte descriptors in DMA memory: the
 * send queue (ATQ; one command in flight, its indirect buffer shared) and the receive queue
 * (ARQ; every slot owns a buffer that firmware fills with an event). A command is complete
 * when ATQH reaches the tail written for it; the descriptor then carries DD and CMP and the
 * return code. Everything reaches the device through irdma_hw.h.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_log.h"

RTE_LOG_REGISTER(irdma_adminq_logtype, pmd.rdma.irdma.adminq, NOTICE);

/* Log on the AdminQ's own type. */
#define AQ_LOG(level, hw, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_adminq_logtype, "irdma %s: adminq: " fmt "\n", \
		(hw)->name, ##__VA_ARGS__)

struct irdma_aq_rings {
	struct irdma_dma_mem atq;		/* IRDMA_AQ_ATQ_LEN descriptors */
	struct irdma_dma_mem arq;		/* IRDMA_AQ_ARQ_LEN descriptors */
	struct irdma_dma_mem atq_buf;		/* the indirect buffer of the command in flight */
	struct irdma_dma_mem arq_buf[IRDMA_AQ_ARQ_LEN];
};

static const char *const aq_rc_names[] = {
	"OK", "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "EAGAIN", "ENOMEM",
	"EACCES", "EFAULT", "EBUSY", "EEXIST", "EINVAL", "ENOTTY", "ENOSPC", "ENOSYS", "ERANGE",
	"EFLUSHED", "BAD_ADDR", "EMODE", "EFBIG",
};

const char *
irdma_aq_rc_name(uint16_t rc)
{
	return rc < RTE_DIM(aq_rc_names) ? aq_rc_names[rc] : "unknown";
}

int
irdma_aq_errno(uint16_t rc)
{
	/* enum ice_aq_err names its codes after the errno they mean. */
	static const int map[] = {
		[IRDMA_AQ_RC_OK] = 0, [IRDMA_AQ_RC_EPERM] = EPERM,
		[IRDMA_AQ_RC_ENOENT] = ENOENT, [IRDMA_AQ_RC_ESRCH] = EOPNOTSUPP,
		[IRDMA_AQ_RC_EINTR] = EINTR, [IRDMA_AQ_RC_EIO] = EIO,
		[IRDMA_AQ_RC_ENXIO] = ENXIO, [IRDMA_AQ_RC_E2BIG] = E2BIG,
		[IRDMA_AQ_RC_EAGAIN] = EAGAIN, [IRDMA_AQ_RC_ENOMEM] = ENOMEM,
		[IRDMA_AQ_RC_EACCES] = EACCES, [IRDMA_AQ_RC_EFAULT] = EFAULT,
		[IRDMA_AQ_RC_EBUSY] = EBUSY, [IRDMA_AQ_RC_EEXIST] = EEXIST,
		[IRDMA_AQ_RC_EINVAL] = EINVAL, [IRDMA_AQ_RC_ENOTTY] = ENOTTY,
		[IRDMA_AQ_RC_ENOSPC] = ENOSPC, [IRDMA_AQ_RC_ENOSYS] = ENOSYS,
		[IRDMA_AQ_RC_ERANGE] = ERANGE, [IRDMA_AQ_RC_EFLUSHED] = ECANCELED,
		[IRDMA_AQ_RC_BAD_ADDR] = EFAULT, [IRDMA_AQ_RC_EMODE] = EPERM,
		[IRDMA_AQ_RC_EFBIG] = EFBIG,
	};

	return rc < RTE_DIM(map) ? -map[rc] : -EIO;
}

uint32_t
irdma_aq_speed_mbps(uint16_t speed)
{
	static const uint32_t mbps[] = {
		10, 100, 1000, 2500, 5000, 10000, 20000, 25000, 40000, 50000, 100000, 200000,
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(mbps); i++)
		if (speed == (1u << i))
			return mbps[i];
	return 0;
}

/* Arm ARQ slot @p i: BUF (+ LB), the buffer's size and address (ice_alloc_rq_bufs). */
static void
aq_arq_arm(struct irdma_aq_rings *r, uint32_t i)
{
	struct irdma_aq_desc *d = (struct irdma_aq_desc *)r->arq.va + i;
	uint16_t flags = IRDMA_AQ_FLAG_BUF;

	if (IRDMA_AQ_BUF_SIZE > IRDMA_AQ_LG_BUF)
		flags |= IRDMA_AQ_FLAG_LB;
	memset(d, 0, sizeof(*d));
	irdma_set(d, AQ_FLAGS, flags);
	irdma_set(d, AQ_DATALEN, IRDMA_AQ_BUF_SIZE);
	irdma_set(d, AQ_ADDR_HIGH, r->arq_buf[i].iova >> 32);
	irdma_set(d, AQ_ADDR_LOW, r->arq_buf[i].iova & UINT32_MAX);
}

/* Free what aq_alloc() allocated. */
static void
aq_free(struct irdma_ctrl *c)
{
	struct irdma_aq_rings *r = c->pf.rings;
	unsigned int i;

	if (r == NULL)
		return;
	for (i = 0; i < IRDMA_AQ_ARQ_LEN; i++)
		irdma_dma_free(c, &r->arq_buf[i]);
	irdma_dma_free(c, &r->atq_buf);
	irdma_dma_free(c, &r->arq);
	irdma_dma_free(c, &r->atq);
	free(r);
	c->pf.rings = NULL;
}

static int
aq_alloc(struct irdma_ctrl *c)
{
	struct irdma_aq_rings *r = calloc(1, sizeof(*r));
	unsigned int i;
	int ret;

	if (r == NULL)
		return -ENOMEM;
	c->pf.rings = r;
	/* Rings 64-byte aligned (ATQBAL bits 5:0 are zero); buffers on their own pages. */
	ret = irdma_dma_alloc(c, &r->atq, IRDMA_AQ_ATQ_LEN * IRDMA_AQ_DESC_SIZE, 64);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &r->arq, IRDMA_AQ_ARQ_LEN * IRDMA_AQ_DESC_SIZE, 64);
	if (ret == 0)
		ret = irdma_dma_alloc(c, &r->atq_buf, IRDMA_AQ_BUF_SIZE, IRDMA_HW_PAGE_SIZE);
	for (i = 0; ret == 0 && i < IRDMA_AQ_ARQ_LEN; i++)
		ret = irdma_dma_alloc(c, &r->arq_buf[i], IRDMA_AQ_BUF_SIZE, IRDMA_HW_PAGE_SIZE);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "AdminQ memory: %s", strerror(-ret));
		aq_free(c);
	}
	return ret;
}

/* Program one ring (ice_cfg_cq_regs): head, tail, length | ENABLE, base; check the base. */
static int
aq_cfg_ring(struct irdma_ctrl *c, const struct irdma_dma_mem *m, uint32_t len, uint32_t bal,
	    uint32_t bah, uint32_t lenreg, uint32_t h, uint32_t t, const char *name)
{
	uint32_t v;

	irdma_wr32(c->hw, h, 0);
	irdma_wr32(c->hw, t, 0);
	irdma_wr32(c->hw, lenreg, IRDMA_REG_PREP(AQLEN_LEN, len) | IRDMA_REG_PREP(AQLEN_ENABLE, 1));
	irdma_wr32(c->hw, bal, (uint32_t)(m->iova & UINT32_MAX));
	irdma_wr32(c->hw, bah, (uint32_t)(m->iova >> 32));
	v = irdma_rd32(c->hw, bal);
	if (v != (uint32_t)(m->iova & UINT32_MAX)) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s base reads back 0x%08x, wrote 0x%08x", name, v,
			  (uint32_t)(m->iova & UINT32_MAX));
		return -EIO;
	}
	return 0;
}

/* Clear one ring's registers (ice_shutdown_sq / ice_shutdown_rq). */
static void
aq_clear_ring(struct irdma_ctrl *c, uint32_t bal, uint32_t bah, uint32_t lenreg, uint32_t h,
	      uint32_t t)
{
	irdma_wr32(c->hw, h, 0);
	irdma_wr32(c->hw, t, 0);
	irdma_wr32(c->hw, lenreg, 0);
	irdma_wr32(c->hw, bal, 0);
	irdma_wr32(c->hw, bah, 0);
}

int
irdma_aq_init(struct irdma_ctrl *c)
{
	struct irdma_aq_rings *r;
	unsigned int i;
	int ret;

	ret = aq_alloc(c);
	if (ret != 0)
		return ret;
	r = c->pf.rings;
	for (i = 0; i < IRDMA_AQ_ARQ_LEN; i++)
		aq_arq_arm(r, i);
	c->pf.atq_ntu = 0;
	c->pf.arq_ntc = 0;
	c->pf.aq_hung = false;
	/* ATQ first, then ARQ (ice_init_ctrlq). */
	ret = aq_cfg_ring(c, &r->atq, IRDMA_AQ_ATQ_LEN, IRDMA_PF_FW_ATQBAL, IRDMA_PF_FW_ATQBAH,
			  IRDMA_PF_FW_ATQLEN, IRDMA_PF_FW_ATQH, IRDMA_PF_FW_ATQT, "ATQ");
	if (ret == 0)
		ret = aq_cfg_ring(c, &r->arq, IRDMA_AQ_ARQ_LEN, IRDMA_PF_FW_ARQBAL,
				  IRDMA_PF_FW_ARQBAH, IRDMA_PF_FW_ARQLEN, IRDMA_PF_FW_ARQH,
				  IRDMA_PF_FW_ARQT, "ARQ");
	if (ret != 0) {
		aq_clear_ring(c, IRDMA_PF_FW_ARQBAL, IRDMA_PF_FW_ARQBAH, IRDMA_PF_FW_ARQLEN,
			      IRDMA_PF_FW_ARQH, IRDMA_PF_FW_ARQT);
		aq_clear_ring(c, IRDMA_PF_FW_ATQBAL, IRDMA_PF_FW_ATQBAH, IRDMA_PF_FW_ATQLEN,
			      IRDMA_PF_FW_ATQH, IRDMA_PF_FW_ATQT);
		aq_free(c);
		return ret;
	}
	/* Every ARQ buffer to firmware: the tail names the last slot given. */
	irdma_wr32(c->hw, IRDMA_PF_FW_ARQT, IRDMA_AQ_ARQ_LEN - 1);
	c->pf.aq_up = true;
	IRDMA_LOG(INFO, c->hw, "AdminQ up: ATQ %u, ARQ %u descriptors", IRDMA_AQ_ATQ_LEN,
		  IRDMA_AQ_ARQ_LEN);
	return 0;
}

void
irdma_aq_shutdown(struct irdma_ctrl *c)
{
	struct irdma_aq_desc d;
	uint32_t len;

	if (!c->pf.aq_up) {
		aq_free(c);
		return;
	}
	/* ice_shutdown_ctrlq: QUEUE_SHUTDOWN first when the queue is alive. */
	len = irdma_rd32(c->hw, IRDMA_PF_FW_ATQLEN);
	if (!c->pf.aq_hung && IRDMA_REG_GET(AQLEN_ENABLE, len) &&
	    IRDMA_REG_GET(AQLEN_LEN, len) == IRDMA_AQ_ATQ_LEN) {
		irdma_aq_desc_init(&d, IRDMA_AQC_Q_SHUTDOWN, 0);
		irdma_set(&d, AQ_QSHUT_UNLOADING, 1);
		(void)irdma_aq_send(c, &d, NULL, 0, "queue shutdown");
	}
	aq_clear_ring(c, IRDMA_PF_FW_ATQBAL, IRDMA_PF_FW_ATQBAH, IRDMA_PF_FW_ATQLEN,
		      IRDMA_PF_FW_ATQH, IRDMA_PF_FW_ATQT);
	aq_clear_ring(c, IRDMA_PF_FW_ARQBAL, IRDMA_PF_FW_ARQBAH, IRDMA_PF_FW_ARQLEN,
		      IRDMA_PF_FW_ARQH, IRDMA_PF_FW_ARQT);
	c->pf.aq_up = false;
	aq_free(c);
	IRDMA_LOG(INFO, c->hw, "AdminQ down after %" PRIu64 " commands, %" PRIu64 " events",
		  c->pf.aq_cmds, c->pf.aq_events);
}

int
irdma_aq_send(struct irdma_ctrl *c, struct irdma_aq_desc *desc, void *buf, uint16_t len,
	      const char *what)
{
	struct irdma_aq_rings *r = c->pf.rings;
	uint16_t opc = (uint16_t)irdma_get(desc, AQ_OPCODE);
	struct irdma_aq_desc *slot;
	uint16_t flags, rc, dlen;
	uint64_t deadline;
	uint32_t ntu, lenreg;

	if (!c->pf.aq_up || r == NULL) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): no AdminQ", what, opc);
		return -ENODEV;
	}
	if (c->pf.aq_hung) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): the queue hung earlier", what, opc);
		return -EIO;
	}
	if (len > IRDMA_AQ_BUF_SIZE || (buf == NULL) != (len == 0)) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): buffer of %u bytes refused", what, opc,
			  len);
		return -EINVAL;
	}
	/* ice_fill_dflt_direct_cmd_desc sets SI on every command; BUF (+ LB) with a buffer. */
	flags = (uint16_t)(irdma_get(desc, AQ_FLAGS) & IRDMA_AQ_FLAG_RD) | IRDMA_AQ_FLAG_SI;
	if (buf != NULL) {
		flags |= IRDMA_AQ_FLAG_BUF;
		if (len > IRDMA_AQ_LG_BUF)
			flags |= IRDMA_AQ_FLAG_LB;
		if (flags & IRDMA_AQ_FLAG_RD)
			memcpy(r->atq_buf.va, buf, len);
		else
			memset(r->atq_buf.va, 0, len);
		irdma_set(desc, AQ_DATALEN, len);
		irdma_set(desc, AQ_ADDR_HIGH, r->atq_buf.iova >> 32);
		irdma_set(desc, AQ_ADDR_LOW, r->atq_buf.iova & UINT32_MAX);
	} else {
		flags &= (uint16_t)~IRDMA_AQ_FLAG_RD;
		irdma_set(desc, AQ_DATALEN, 0);
	}
	irdma_set(desc, AQ_FLAGS, flags);
	irdma_set(desc, AQ_RETVAL, 0);
	ntu = c->pf.atq_ntu;
	slot = (struct irdma_aq_desc *)r->atq.va + ntu;
	*slot = *desc;
	ntu = (ntu + 1) % IRDMA_AQ_ATQ_LEN;
	c->pf.atq_ntu = ntu;
	c->pf.aq_cmds++;
	AQ_LOG(DEBUG, c->hw, "%s: opcode 0x%04x flags 0x%04x datalen %u params %08x %08x %08x %08x",
	       what, opc, flags, len, (uint32_t)irdma_get(desc, AQ_PARAM0),
	       (uint32_t)irdma_get(desc, AQ_PARAM1), (uint32_t)irdma_get(desc, AQ_ADDR_HIGH),
	       (uint32_t)irdma_get(desc, AQ_ADDR_LOW));
	/* The write to ATQT orders the descriptor and buffer stores before it (irdma_hw.h). */
	irdma_wr32(c->hw, IRDMA_PF_FW_ATQT, ntu);
	deadline = irdma_ctrl_deadline();
	while (IRDMA_REG_GET(AQ_PTR, irdma_rd32(c->hw, IRDMA_PF_FW_ATQH)) != ntu) {
		if (irdma_ctrl_expired(deadline)) {
			c->pf.aq_hung = true;
			lenreg = irdma_rd32(c->hw, IRDMA_PF_FW_ATQLEN);
			if (IRDMA_REG_GET(AQLEN_CRIT, lenreg) ||
			    IRDMA_REG_GET(AQLEN_CRIT, irdma_rd32(c->hw, IRDMA_PF_FW_ARQLEN))) {
				IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): firmware critical error",
					  what, opc);
				return -EIO;
			}
			IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): no answer from firmware after "
				  "%u ms", what, opc, IRDMA_CTRL_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		irdma_hw_service(c->hw);
		irdma_hw_poll_relax(c->hw);
	}
	rte_io_rmb();
	*desc = *slot;
	flags = (uint16_t)irdma_get(desc, AQ_FLAGS);
	rc = (uint16_t)(irdma_get(desc, AQ_RETVAL) & 0xffu);
	dlen = (uint16_t)irdma_get(desc, AQ_DATALEN);
	AQ_LOG(DEBUG, c->hw, "%s: opcode 0x%04x done: flags 0x%04x retval %u (%s) datalen %u",
	       what, opc, flags, rc, irdma_aq_rc_name(rc), dlen);
	if ((flags & (IRDMA_AQ_FLAG_DD | IRDMA_AQ_FLAG_CMP)) !=
	    (IRDMA_AQ_FLAG_DD | IRDMA_AQ_FLAG_CMP)) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): head moved without DD/CMP (flags "
			  "0x%04x)", what, opc, flags);
		return -EPROTO;
	}
	if (rc != IRDMA_AQ_RC_OK) {
		IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x) failed: firmware code %u (%s)", what,
			  opc, rc, irdma_aq_rc_name(rc));
		return irdma_aq_errno(rc);
	}
	/* RD buffers come back too: firmware writes into them (ADD_SCHED_ELEMS, ADD_RDMA_QSET
	 * TEIDs; ice_sched_add_elems reads them from the buffer it sent). */
	if (buf != NULL && (irdma_get(desc, AQ_FLAGS) & IRDMA_AQ_FLAG_RD)) {
		memcpy(buf, r->atq_buf.va, len);
	} else if (buf != NULL) {
		if (dlen > len) {
			IRDMA_LOG(ERR, c->hw, "AdminQ %s (0x%04x): %u response bytes for a "
				  "%u-byte buffer", what, opc, dlen, len);
			return -EPROTO;
		}
		memcpy(buf, r->atq_buf.va, dlen);
	}
	return 0;
}

int
irdma_aq_event_next(struct irdma_ctrl *c, struct irdma_aq_desc *desc, void *buf, uint16_t len,
		    uint16_t *dlen)
{
	struct irdma_aq_rings *r = c->pf.rings;
	uint32_t ntc = c->pf.arq_ntc, lenreg;
	uint16_t n;

	if (!c->pf.aq_up || r == NULL ||
	    IRDMA_REG_GET(AQ_PTR, irdma_rd32(c->hw, IRDMA_PF_FW_ARQH)) == ntc)
		return 0;
	rte_io_rmb();
	*desc = ((struct irdma_aq_desc *)r->arq.va)[ntc];
	n = (uint16_t)irdma_get(desc, AQ_DATALEN);
	n = RTE_MIN(n, len);
	n = RTE_MIN(n, (uint16_t)IRDMA_AQ_BUF_SIZE);
	memcpy(buf, r->arq_buf[ntc].va, n);
	*dlen = n;
	c->pf.aq_events++;
	AQ_LOG(DEBUG, c->hw, "event: opcode 0x%04x flags 0x%04x retval %u datalen %u",
	       (unsigned int)irdma_get(desc, AQ_OPCODE), (unsigned int)irdma_get(desc, AQ_FLAGS),
	       (unsigned int)irdma_get(desc, AQ_RETVAL), n);
	aq_arq_arm(r, ntc);
	irdma_wr32(c->hw, IRDMA_PF_FW_ARQT, ntc);
	c->pf.arq_ntc = (ntc + 1) % IRDMA_AQ_ARQ_LEN;
	lenreg = irdma_rd32(c->hw, IRDMA_PF_FW_ARQLEN);
	if (IRDMA_REG_GET(AQLEN_OVFL, lenreg)) {
		IRDMA_LOG(WARNING, c->hw, "AdminQ ARQ overflow: events were lost");
		irdma_wr32(c->hw, IRDMA_PF_FW_ARQLEN, lenreg & ~IRDMA_REG_MASK(AQLEN_OVFL));
	}
	return 1;
}
