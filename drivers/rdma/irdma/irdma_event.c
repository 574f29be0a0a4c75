/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The AEQ: reading asynchronous-event entries, returning them to the device, the AEQ
 * interrupt, and turning AE codes into rdmadev events (doc/hardware.md §5.5; the kernel's
 * irdma_sc_get_next_aeqe and irdma_process_aeq give the object each AE concerns).
 *
 * Decoding (gen2 AEQE layout, base/irdma_eq.h):
 *  - function / adapter catastrophic AEs are device events;
 *  - a CQ source (2, 6, 0xa, 0xe), CQ_OPERATION_ERROR and LCE_CQ_CATASTROPHIC concern the CQ
 *    of QPCQID, whose completion context is the CQ pointer >> 1: RDMADEV_EVENT_CQ_ERR;
 *  - everything else concerns the QP of QPCQID (completion context = the struct irdma_qp
 *    pointer). LLP_CONNECTION_ESTABLISHED is COMM_EST and QP_SUSPEND_COMPLETE SQ_DRAINED;
 *    RESET_NOT_SENT, LLP_DOUBT_REACHABILITY and RESOURCE_EXHAUSTION are only logged (the
 *    kernel ignores them too); every other code is an error whose kind comes from
 *    irdma_ae_to_flush_code(): QP_FATAL, QP_ACCESS_ERR or QP_REQ_ERR. The hardware has moved
 *    the QP to ERROR (hw_state follows) and the verbs state becomes ERR, or SQE for a UD QP
 *    whose send queue raised it (the hardware QP keeps its state then).
 * The gen3 SRQ AEs (SRQ_LIMIT, SRQ_CATASTROPHIC_ERROR) concern the SRQ of QPCQID
 * (irdma_srq.c); a QP that uses an SRQ and fails also gets QP_LAST_WQE_REACHED.
 * An AE whose object is gone, being destroyed, or whose completion context does not match
 * the object with that id (an AE from an earlier object of the same id) is dropped.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_atomic.h>
#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_cq.h"
#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_event.h"
#include "irdma_log.h"
#include "irdma_qp.h"
#include "irdma_srq.h"
#include "irdma_uk.h"

/** AEQEs handled between two AEQALLOC writes. */
#define IRDMA_AEQ_BATCH		64u
/** ITR index that leaves the interrupt throttling rate alone (the kernel's choice). */
#define IRDMA_ITR_NONE		3u

/* ---- the ring ---- */

int
irdma_aeq_read(struct irdma_ctrl *c, struct irdma_aeqe_info *out, unsigned int n)
{
	struct irdma_ctrl_eq *eq = &c->aeq;
	const struct irdma_aeqe *e;
	unsigned int i;
	uint64_t qw1;

	if (!eq->created)
		return -ENODEV;
	pthread_mutex_lock(&c->aeq_lock);
	for (i = 0; i < n; i++) {
		e = (const struct irdma_aeqe *)((const uint8_t *)eq->ring.va +
						(size_t)eq->head * IRDMA_AEQE_SIZE);
		/* The device writes the valid qword last: check it, then read the rest. */
		qw1 = irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(AEQE_VALID)]);
		if (IRDMA_GET(AEQE_VALID, qw1) != eq->polarity)
			break;
		rte_io_rmb();
		out[i].compctx = irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(AEQE_COMPCTX)]);
		out[i].id = irdma_aeqe_qpcq_id(qw1);
		out[i].ae = (uint16_t)IRDMA_GET(AEQE_AECODE, qw1);
		out[i].src = (uint8_t)IRDMA_GET(AEQE_AESRC, qw1);
		out[i].wqe_idx = (uint16_t)IRDMA_GET(AEQE_WQDESCIDX, qw1);
		out[i].seq = eq->consumed++;
		if (++eq->head == eq->size) {
			eq->head = 0;
			eq->polarity ^= 1;
		}
	}
	if (i > 0)
		irdma_wr32(c->hw, IRDMA_PFPE_AEQALLOC, i);
	pthread_mutex_unlock(&c->aeq_lock);
	return (int)i;
}

void
irdma_aeq_mark(struct irdma_ctrl *c, struct irdma_qp *q)
{
	struct irdma_ctrl_eq *eq = &c->aeq;
	const struct irdma_aeqe *e;
	uint32_t head, n = 0;
	uint8_t pol;
	uint64_t qw1;

	if (!eq->created)
		return;
	pthread_mutex_lock(&c->aeq_lock);
	head = eq->head;
	pol = eq->polarity;
	/* Entries written and not read yet: the device wrote them before now. */
	while (n < eq->size) {
		e = (const struct irdma_aeqe *)((const uint8_t *)eq->ring.va +
						(size_t)head * IRDMA_AEQE_SIZE);
		qw1 = irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(AEQE_VALID)]);
		if (IRDMA_GET(AEQE_VALID, qw1) != pol)
			break;
		n++;
		if (++head == eq->size) {
			head = 0;
			pol ^= 1;
		}
	}
	__atomic_store_n(&q->ae_mark, eq->consumed + n, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&c->aeq_lock);
}

/* Route an interrupt cause register to MSI-X vector @p v, ITR index 3 (icrdma_cfg_ceq). */
static void
irdma_intr_route(struct irdma_ctrl *c, uint32_t reg, uint32_t v)
{
	irdma_wr32(c->hw, reg, IRDMA_REG_PREP(QCTL_MSIX_INDX, v) |
		   IRDMA_REG_PREP(QCTL_ITR_INDX, IRDMA_ITR_NONE) |
		   IRDMA_REG_PREP(QCTL_CAUSE_ENA, 1));
}

/* Forget the vectors' eventfds (the backend owns them) and close the epoll fd. */
static void
irdma_intr_fds_drop(struct irdma_ctrl *c)
{
	uint32_t v;

	for (v = 0; v < IRDMA_MAX_COMP_VECTORS; v++)
		c->irq_fd[v] = -1;
	if (c->intr_fd >= 0)
		close(c->intr_fd);
	c->intr_fd = -1;
	c->aeq_irq_fd = -1;
}

/* The eventfd of vector @p v, non-blocking (the event pass drains it). */
static int
irdma_intr_vector_fd(struct irdma_ctrl *c, uint32_t v)
{
	int fd, flags;

	fd = irdma_hw_irq_fd(c->hw, v);
	if (fd < 0)
		return fd;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
		IRDMA_LOG(ERR, c->hw, "interrupt vector %u fd %d: %s", v, fd, strerror(errno));
		return -errno;
	}
	return fd;
}

/* With several vectors, one epoll fd stands for all of them (the rdmadev event fd). */
static int
irdma_intr_epoll(struct irdma_ctrl *c)
{
	struct epoll_event e = { .events = EPOLLIN };
	uint32_t v;
	int ep;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0) {
		IRDMA_LOG(ERR, c->hw, "interrupt vectors: epoll_create1: %s", strerror(errno));
		return -errno;
	}
	for (v = 0; v < c->nb_ceqs; v++) {
		e.data.u32 = v;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, c->irq_fd[v], &e) != 0) {
			IRDMA_LOG(ERR, c->hw, "interrupt vector %u: epoll_ctl: %s", v,
				  strerror(errno));
			close(ep);
			return -errno;
		}
	}
	return ep;
}

int
irdma_aeq_intr_enable(struct irdma_ctrl *c)
{
	uint32_t v;
	int fd;

	if (!c->aeq.created)
		return -ENODEV;
	if (c->aeq_irq_fd >= 0)
		return c->intr_fd >= 0 ? c->intr_fd : c->aeq_irq_fd;
	for (v = 0; v < c->nb_ceqs; v++) {
		fd = irdma_intr_vector_fd(c, v);
		if (fd < 0) {
			irdma_intr_fds_drop(c);
			return fd;
		}
		c->irq_fd[v] = fd;
	}
	if (c->nb_ceqs > 1) {
		fd = irdma_intr_epoll(c);
		if (fd < 0) {
			irdma_intr_fds_drop(c);
			return fd;
		}
		c->intr_fd = fd;
	}
	/*
	 * The kernel's msix_shared layout: the AEQ and CEQ 0 on vector 0, CEQ k on vector k.
	 * The AdminQ and the other causes (OICR: resets) go to vector 0 too, ice's misc vector
	 * (ice_ena_ctrlq_interrupts), so link changes and resets wake the application.
	 */
	irdma_intr_route(c, IRDMA_PFINT_AEQCTL, IRDMA_CTRL_AEQ_VECTOR);
	for (v = 0; v < c->nb_ceqs; v++)
		irdma_intr_route(c, IRDMA_GLINT_CEQCTL(v), v);
	if (c->pf.aq_up)
		irdma_intr_route(c, IRDMA_PFINT_FW_CTL, IRDMA_CTRL_AEQ_VECTOR);
	if (c->pf.up)
		irdma_intr_route(c, IRDMA_PFINT_OICR_CTL, IRDMA_CTRL_AEQ_VECTOR);
	c->aeq_irq_fd = c->irq_fd[0];
	/* What vector 0's causes latched before they were routed raised nothing: look once. */
	c->intr_look = true;
	IRDMA_LOG(DEBUG, c->hw, "interrupts: AEQ, AdminQ, OICR and CEQ 0 on vector 0, CEQ 1..%u "
		  "on vectors 1..%u", c->nb_ceqs - 1, c->nb_ceqs - 1);
	irdma_intr_rearm(c, IRDMA_INTR_ALL);
	return c->intr_fd >= 0 ? c->intr_fd : c->aeq_irq_fd;
}

uint32_t
irdma_intr_collect(struct irdma_ctrl *c)
{
	uint32_t v, fired = 0;
	uint64_t n;

	if (c->aeq_irq_fd < 0)
		return IRDMA_INTR_ALL;
	if (c->intr_look) {
		c->intr_look = false;
		fired = UINT32_C(1) << IRDMA_CTRL_AEQ_VECTOR;
	}
	for (v = 0; v < c->nb_ceqs; v++) {
		if (read(c->irq_fd[v], &n, sizeof(n)) == (ssize_t)sizeof(n))
			fired |= UINT32_C(1) << v;
		else if (errno != EAGAIN)
			IRDMA_LOG(ERR, c->hw, "interrupt vector %u fd: %s", v, strerror(errno));
	}
	return fired;
}

void
irdma_intr_rearm(struct irdma_ctrl *c, uint32_t fired)
{
	uint32_t v;

	if (c->aeq_irq_fd < 0)
		return;
	/* A vector that did not fire still has INTENA set: only the fired ones need it. */
	for (v = 0; v < c->nb_ceqs; v++)
		if (fired & (UINT32_C(1) << v))
			irdma_wr32(c->hw, IRDMA_GLINT_DYN_CTL(v),
				   IRDMA_REG_PREP(DYN_CTL_INTENA, 1) |
				   IRDMA_REG_PREP(DYN_CTL_CLEARPBA, 1) |
				   IRDMA_REG_PREP(DYN_CTL_ITR_INDX, IRDMA_ITR_NONE));
}

void
irdma_aeq_intr_disable(struct irdma_ctrl *c)
{
	uint32_t v;

	if (c->aeq_irq_fd < 0)
		return;
	irdma_wr32(c->hw, IRDMA_PFINT_AEQCTL, 0);
	for (v = 0; v < c->nb_ceqs; v++)
		irdma_wr32(c->hw, IRDMA_GLINT_CEQCTL(v), 0);
	if (c->pf.aq_up)
		irdma_wr32(c->hw, IRDMA_PFINT_FW_CTL, 0);
	if (c->pf.up)
		irdma_wr32(c->hw, IRDMA_PFINT_OICR_CTL, 0);
	for (v = 0; v < c->nb_ceqs; v++)
		irdma_wr32(c->hw, IRDMA_GLINT_DYN_CTL(v), 0);
	irdma_intr_fds_drop(c);
}

/* ---- CEQs: completion events ---- */

/* One CEQ's new entries; called with ceq_lock held. */
static uint32_t
irdma_ceq_drain(struct irdma_ctrl *c, struct irdma_ctrl_eq *eq)
{
	uint64_t v, ctx, ccq = (uint64_t)(uintptr_t)&c->ccq >> 1;
	struct irdma_ceqe *e;
	struct irdma_cq *q;
	uint32_t n;

	for (n = 0; n < eq->size; n++) {
		e = (struct irdma_ceqe *)((uint8_t *)eq->ring.va + (size_t)eq->head *
					   IRDMA_CEQE_SIZE);
		v = irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(CEQE_VALID)]);
		if (IRDMA_GET(CEQE_VALID, v) != eq->polarity)
			break;
		rte_io_rmb();
		if (++eq->head == eq->size) {
			eq->head = 0;
			eq->polarity ^= 1;
		}
		ctx = IRDMA_GET(CEQE_CQCTX, v);
		/* 0: cleaned (its CQ was destroyed); the CCQ is polled, never armed for events */
		if (ctx == 0 || ctx == ccq)
			continue;
		q = (struct irdma_cq *)(uintptr_t)(ctx << 1);
		irdma_wr32(c->hw, IRDMA_PFPE_CQACK, q->id);
		rdmadev_cq_comp_event(q->rcq);
	}
	return n;
}

int
irdma_ceq_process(struct irdma_ctrl *c)
{
	uint32_t k, n = 0;

	if (!c->ceq[0].created)
		return 0;
	pthread_mutex_lock(&c->ceq_lock);
	/* Every CEQ: reading a valid bit is a memory load, cheaper than knowing which fired. */
	for (k = 0; k < c->nb_ceqs; k++)
		if (c->ceq[k].created)
			n += irdma_ceq_drain(c, &c->ceq[k]);
	pthread_mutex_unlock(&c->ceq_lock);
	return (int)n;
}

void
irdma_ceq_clean(struct irdma_ctrl *c, const struct irdma_cq *q)
{
	struct irdma_ctrl_eq *eq = &c->ceq[q->ceq_id];
	uint64_t v, ctx = (uint64_t)(uintptr_t)q >> 1;
	uint32_t i, idx, pol;
	struct irdma_ceqe *e;

	if (!eq->created)
		return;
	pthread_mutex_lock(&c->ceq_lock);
	idx = eq->head;
	pol = eq->polarity;
	for (i = 0; i < eq->size; i++) {
		e = (struct irdma_ceqe *)((uint8_t *)eq->ring.va + (size_t)idx * IRDMA_CEQE_SIZE);
		v = irdma_qw_load_v(&e->qw[IRDMA_FIELD_QW(CEQE_VALID)]);
		if (IRDMA_GET(CEQE_VALID, v) != pol)
			break;
		if (IRDMA_GET(CEQE_CQCTX, v) == ctx)
			e->qw[IRDMA_FIELD_QW(CEQE_VALID)] = IRDMA_PREP(CEQE_VALID, pol);
		if (++idx == eq->size) {
			idx = 0;
			pol ^= 1;
		}
	}
	pthread_mutex_unlock(&c->ceq_lock);
}

int
irdma_cq_events_check(struct irdma_ctrl *c)
{
	/* The model in inline mode runs only inside the application's calls. */
	if (c->hw->be->service != NULL) {
		IRDMA_LOG(ERR, c->hw, "completion events need a device that runs on its own "
			  "(model devargs mode=thread, or VFIO): this one runs only while polled");
		return -ENOTSUP;
	}
	/* CEQ 0 is read from the event pass the vector's interrupt runs (model or VFIO MSI-X). */
	if (c->hw->be->irq_fd == NULL) {
		IRDMA_LOG(ERR, c->hw, "completion events need interrupts: the backend has none");
		return -ENOTSUP;
	}
	return 0;
}

/* ---- AE -> rdmadev event ---- */

static bool
irdma_ae_src_is_cq(uint8_t src)
{
	return src == IRDMA_AE_SOURCE_CQ || src == IRDMA_AE_SOURCE_CQ_0110 ||
	       src == IRDMA_AE_SOURCE_CQ_1010 || src == IRDMA_AE_SOURCE_CQ_1110;
}

static bool
irdma_ae_src_is_sq(uint8_t src)
{
	return src == IRDMA_AE_SOURCE_SQ || src == IRDMA_AE_SOURCE_SQ_0111;
}

/* The event of a QP AE; false for AEs that raise none. *err: the QP failed. */
static bool
irdma_ae_qp_event(uint16_t ae, enum rdmadev_event_type *type, bool *err)
{
	enum irdma_ae_event_kind kind;

	*err = false;
	switch (ae) {
	case IRDMA_AE_LLP_CONNECTION_ESTABLISHED:
		*type = RDMADEV_EVENT_COMM_EST;
		return true;
	case IRDMA_AE_QP_SUSPEND_COMPLETE:
		*type = RDMADEV_EVENT_SQ_DRAINED;
		return true;
	case IRDMA_AE_RESET_NOT_SENT:
	case IRDMA_AE_LLP_DOUBT_REACHABILITY:
	case IRDMA_AE_RESOURCE_EXHAUSTION:
		return false;
	default:
		break;
	}
	(void)irdma_ae_to_flush_code(ae, &kind);
	*type = kind == IRDMA_AE_EVENT_ACCESS_ERR ? RDMADEV_EVENT_QP_ACCESS_ERR :
		kind == IRDMA_AE_EVENT_REQ_ERR ? RDMADEV_EVENT_QP_REQ_ERR : RDMADEV_EVENT_QP_FATAL;
	*err = true;
	return true;
}

/*
 * FLUSH_WQES for a QP the device failed, as the kernel's AE handler does: once it completed,
 * the device's own flush CQEs are in the CQs (the AEQE can be read before them).
 */
static void
irdma_event_qp_flush(struct irdma_ctrl *c, const struct irdma_qp *q)
{
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_FLUSH_WQES);
	irdma_set(&w, CQP_FLUSH_QP_ID, q->qp_id);
	irdma_set(&w, CQP_FLUSH_SQ, 1);
	irdma_set(&w, CQP_FLUSH_RQ, q->srq == NULL);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0)
		IRDMA_LOG(WARNING, c->hw, "QP %u: FLUSH_WQES after the AE failed: %s", q->qp_id,
			  strerror(-ret));
}

static void
irdma_event_qp(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a)
{
	struct rdmadev_event ev = { .obj_id = a->id, .vendor_code = a->ae };
	enum rdmadev_qp_state vstate = RDMADEV_QPS_ERR;
	struct rdmadev_obj *obj;
	struct rdmadev_qp *qp;
	struct irdma_qp *q;
	bool err, sqe = false, stale;

	if (!irdma_ae_qp_event(a->ae, &ev.type, &err)) {
		IRDMA_LOG(INFO, c->hw, "AE 0x%x for QP %u: no event", a->ae, a->id);
		return;
	}
	obj = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_QP, a->id);
	if (obj == NULL) {
		IRDMA_LOG(DEBUG, c->hw, "AE 0x%x for QP %u dropped: no such QP", a->ae, a->id);
		return;
	}
	qp = container_of(obj, struct rdmadev_qp, obj);
	q = obj->fp.drv;
	if (q == NULL || a->compctx != (uint64_t)(uintptr_t)q) {
		IRDMA_LOG(WARNING, c->hw, "AE 0x%x for QP %u dropped: context 0x%" PRIx64
			  " is not this QP's", a->ae, a->id, a->compctx);
		rdmadev_obj_put(obj);
		return;
	}
	if (err) {
		sqe = qp->init.qp_type != RDMADEV_QPT_RC && irdma_ae_src_is_sq(a->src);
		vstate = sqe ? RDMADEV_QPS_SQE : RDMADEV_QPS_ERR;
	}
	/*
	 * Under the QP's lock, from the staleness checks to the state change: a modify (to
	 * RESET, then INIT) runs wholly before or wholly after this.
	 */
	pthread_mutex_lock(&qp->lock);
	/* Raised before the QP's last RESET (or RESET -> INIT): about an earlier incarnation. */
	stale = a->seq < __atomic_load_n(&q->ae_mark, __ATOMIC_RELAXED);
	/* A QP the application moved to RESET after the device failed it. */
	if (!stale && err)
		stale = __atomic_load_n(&qp->state, __ATOMIC_ACQUIRE) == RDMADEV_QPS_RESET;
	if (!stale && err) {
		IRDMA_LOG(ERR, c->hw, "QP %u: AE 0x%x (source 0x%x, WQE %u): %s, QP to %s",
			  a->id, a->ae, a->src, a->wqe_idx, rdmadev_event_type_name(ev.type),
			  rdmadev_qp_state_name(vstate));
		if (!sqe) {
			irdma_qp_hw_state_set(q, IRDMA_QP_HW_ERROR);
			irdma_event_qp_flush(c, q);
			/*
			 * WRs posted between the device's flush and now were rung to a QP that
			 * takes no more WQEs: the driver completes them (irdma_uk_flush_queue).
			 */
			irdma_uk_flush_queue(q, true);
			if (q->srq == NULL)
				irdma_uk_flush_queue(q, false);
		}
		stale = rdmadev_qp_async_state_locked(qp, vstate) == -ESTALE;
	}
	pthread_mutex_unlock(&qp->lock);
	if (stale) {
		IRDMA_LOG(INFO, c->hw, "QP %u: AE 0x%x dropped: raised before the QP was reset",
			  a->id, a->ae);
		rdmadev_obj_put(obj);
		return;
	}
	ev.qp = qp;
	(void)rdmadev_event_report(dev, &ev);
	/* An SRQ QP in error takes no more SRQ WQEs (irdma_srq.c). */
	if (err && !sqe && q->srq != NULL) {
		ev.type = RDMADEV_EVENT_QP_LAST_WQE_REACHED;
		(void)rdmadev_event_report(dev, &ev);
	}
	rdmadev_obj_put(obj);
}

static void
irdma_event_cq(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a)
{
	struct rdmadev_event ev = {
		.type = RDMADEV_EVENT_CQ_ERR, .obj_id = a->id, .vendor_code = a->ae,
	};
	struct rdmadev_obj *obj = rdmadev_obj_get_byid(dev, RDMADEV_OBJ_CQ, a->id);

	if (obj == NULL) {
		IRDMA_LOG(DEBUG, c->hw, "AE 0x%x for CQ %u dropped: no such CQ", a->ae, a->id);
		return;
	}
	if (obj->fp.drv == NULL || a->compctx != (uint64_t)(uintptr_t)obj->fp.drv >> 1) {
		IRDMA_LOG(WARNING, c->hw, "AE 0x%x for CQ %u dropped: context 0x%" PRIx64
			  " is not this CQ's", a->ae, a->id, a->compctx);
		rdmadev_obj_put(obj);
		return;
	}
	IRDMA_LOG(ERR, c->hw, "CQ %u: AE 0x%x: CQ error", a->id, a->ae);
	ev.cq = container_of(obj, struct rdmadev_cq, obj);
	(void)rdmadev_event_report(dev, &ev);
	rdmadev_obj_put(obj);
}

static void
irdma_event_one(struct irdma_ctrl *c, struct rdmadev *dev, const struct irdma_aeqe_info *a)
{
	struct rdmadev_event ev = { .type = RDMADEV_EVENT_DEVICE_FATAL, .vendor_code = a->ae };

	if (a->ae == IRDMA_AE_LCE_FUNCTION_CATASTROPHIC ||
	    a->ae == IRDMA_AE_ADAPTER_CATASTROPHIC) {
		IRDMA_LOG(CRIT, c->hw, "AE 0x%x: the device failed", a->ae);
		(void)rdmadev_event_report(dev, &ev);
	} else if (irdma_event_srq(c, dev, a)) {
		return;
	} else if (irdma_ae_src_is_cq(a->src) || a->ae == IRDMA_AE_CQ_OPERATION_ERROR ||
		   a->ae == IRDMA_AE_LCE_CQ_CATASTROPHIC) {
		irdma_event_cq(c, dev, a);
	} else {
		irdma_event_qp(c, dev, a);
	}
}

int
irdma_event_process(struct irdma_ctrl *c, struct rdmadev *dev)
{
	struct irdma_aeqe_info a[IRDMA_AEQ_BATCH];
	int n, i, total = 0;

	if (!c->aeq.created)
		return 0;
	irdma_hw_service(c->hw);
	(void)irdma_ceq_process(c);
	/* Bounded: at most one ring's worth per call, so a flood cannot hold the caller. */
	while ((uint32_t)total < c->aeq.size) {
		n = irdma_aeq_read(c, a, RTE_MIN(IRDMA_AEQ_BATCH, c->aeq.size - (uint32_t)total));
		if (n <= 0)
			break;
		for (i = 0; i < n; i++)
			irdma_event_one(c, dev, &a[i]);
		total += n;
	}
	irdma_srq_last_wqe_report(c, dev);
	return total;
}
