/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Asynchronous events end to end: the model posts an AEQE (irdma_model_inject_ae, as the
 * engine would), the PMD reads the AEQ, returns the entries (AEQALLOC credits), moves the QP
 * to ERR / SQE and hands rdmadev an event; the application gets it from rdmadev_event_poll(),
 * its eventfd, a callback, or the EAL interrupt thread (the model's AEQ interrupt eventfd).
 * Events of destroyed objects never arrive. Every error path of the API, and restrack counts
 * after each scenario.
 */

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_ctrl.h"
#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "pmd_fixture.h"
#include "test.h"
#include "test_fixture.h"

/* The device of every case (test_env_up() appends the variant's mode). */
#define DEVARGS "irdma_model0,qps=64,cqs=64,mrs=64"

/* doc/hardware.md §5.5: AE codes and sources, independent of base/. */
#define AE_UNALLOCATED_STAG	0x0102
#define AE_LCE_QP_CATASTROPHIC	0x0700
#define AE_TOO_MANY_RETRIES	0x050a
#define AE_CQ_OPERATION_ERROR	0x0203
#define AE_IB_INVALID_REQUEST	0x0208
#define AE_CONN_ESTABLISHED	0x050e
#define AE_UDA_DGRAM_TOO_LONG	0x0132
#define AE_FUNCTION_CATASTROPHIC 0x0701
#define SRC_RQ			1
#define SRC_CQ			2
#define SRC_SQ			5
/* HW QP states (doc/hardware.md §5.4). */
enum { HW_INVALID = 0, HW_IDLE = 1, HW_RTS = 2, HW_RTR = 4, HW_ERROR = 6 };

/* Bound of the waits for the interrupt thread (a liveness bound, not a timing check). */
#define WAIT_MS 10000u

static struct rdmadev_qp *
qp_new(const struct test_env *e, enum rdmadev_qp_type type)
{
	return pmd_qp_create(e->pd, e->cq, type, 16);
}

/* RESET -> INIT -> RTR -> RTS with the attributes each step requires. */
static void
qp_to_rts(struct rdmadev_qp *qp, enum rdmadev_qp_type type)
{
	struct rdmadev_qp_attr a;
	uint32_t m;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 0x1234;
	m = RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT;
	m |= type == RDMADEV_QPT_UD ? RDMADEV_QP_QKEY : RDMADEV_QP_ACCESS_FLAGS;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, m), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTR;
	m = RDMADEV_QP_STATE;
	if (type == RDMADEV_QPT_RC) {
		a.ah_attr.dgid[10] = 0xff;
		a.ah_attr.dgid[11] = 0xff;
		a.ah_attr.dgid[15] = 2;
		a.ah_attr.hop_limit = 64;
		a.ah_attr.vlan_id = 0xffff;
		a.ah_attr.port_num = 1;
		a.path_mtu = RDMADEV_MTU_1024;
		a.dest_qp_num = 0x99;
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 1;
		m |= RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN |
		     RDMADEV_QP_MAX_DEST_RD_ATOMIC | RDMADEV_QP_MIN_RNR_TIMER;
	}
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, m), 0);
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTS;
	m = RDMADEV_QP_STATE | RDMADEV_QP_SQ_PSN;
	if (type == RDMADEV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		m |= RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY |
		     RDMADEV_QP_MAX_QP_RD_ATOMIC;
	}
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, m), 0);
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RTS);
}

static uint8_t
model_qp_state(const struct test_env *e, const struct rdmadev_qp *qp)
{
	struct irdma_model_qp_info in;

	memset(&in, 0, sizeof(in));
	TEST_CHECK_EQ(irdma_model_qp_get(pmd_hw(e->id), rdmadev_qp_num(qp), &in), 0);
	return in.state;
}

/* True when @p fd is readable now. */
static bool
fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static enum rdmadev_qp_state
queried_state(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	TEST_CHECK_EQ(rdmadev_qp_query(qp, &a, NULL), 0);
	return a.qp_state;
}

/* @p qp's state: as rdmadev keeps it, as rdmadev_qp_query reads it, and the model's. */
static void
check_qp_state(const struct test_env *e, struct rdmadev_qp *qp, enum rdmadev_qp_state s,
	       uint8_t hw)
{
	TEST_CHECK_EQ(rdmadev_qp_get_state(qp), s);
	TEST_CHECK_EQ(queried_state(qp), s);
	TEST_CHECK_EQ(model_qp_state(e, qp), hw);
}

/* The device raises AE @p ae (source @p src) about @p qp. */
static void
qp_ae(const struct test_env *e, struct rdmadev_qp *qp, uint16_t ae, uint8_t src)
{
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e->id), ae, src, rdmadev_qp_num(qp)), 0);
}

/* The application moves @p qp to RESET. */
static void
qp_reset(struct rdmadev_qp *qp)
{
	struct rdmadev_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RESET;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
}

/* One AE for a QP in RTS: the event, the QP's verbs and HW states. */
static void
qp_error_case(const struct test_env *e, enum rdmadev_qp_type type, uint16_t ae, uint8_t src,
	      enum rdmadev_event_type want, enum rdmadev_qp_state vstate, uint8_t hwstate)
{
	struct rdmadev_event ev[4];
	struct rdmadev_qp *qp = qp_new(e, type);
	struct rdmadev_qp_attr a;

	if (qp == NULL)
		return;
	qp_to_rts(qp, type);
	qp_ae(e, qp, ae, src);
	memset(ev, 0, sizeof(ev));
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e->id, ev, RTE_DIM(ev)), 1);
	TEST_CHECK_EQ(ev[0].type, want);
	TEST_CHECK(ev[0].qp == qp);
	TEST_CHECK(ev[0].cq == NULL && ev[0].srq == NULL);
	TEST_CHECK_EQ(ev[0].obj_id, rdmadev_qp_num(qp));
	TEST_CHECK_EQ(ev[0].vendor_code, ae);
	check_qp_state(e, qp, vstate, hwstate);
	/* Nothing else pending. */
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e->id, ev, RTE_DIM(ev)), 0);
	/* The QP comes back through RESET -> INIT. */
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RESET;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	a.qkey = 1;
	TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
				       RDMADEV_QP_PORT | (type == RDMADEV_QPT_UD ?
				       RDMADEV_QP_QKEY : RDMADEV_QP_ACCESS_FLAGS)), 0);
	TEST_CHECK_EQ(model_qp_state(e, qp), HW_IDLE);
	TEST_CHECK_EQ(queried_state(qp), RDMADEV_QPS_INIT);
	TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
}

static void
test_qp_events(void)
{
	struct irdma_model_stats st0, st1;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	memset(&st0, 0, sizeof(st0));
	memset(&st1, 0, sizeof(st1));
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st0), 0);
	qp_error_case(&e, RDMADEV_QPT_RC, AE_LCE_QP_CATASTROPHIC, 0, RDMADEV_EVENT_QP_FATAL,
		      RDMADEV_QPS_ERR, HW_ERROR);
	qp_error_case(&e, RDMADEV_QPT_RC, AE_TOO_MANY_RETRIES, SRC_SQ, RDMADEV_EVENT_QP_FATAL,
		      RDMADEV_QPS_ERR, HW_ERROR);
	qp_error_case(&e, RDMADEV_QPT_RC, AE_UNALLOCATED_STAG, SRC_RQ,
		      RDMADEV_EVENT_QP_ACCESS_ERR, RDMADEV_QPS_ERR, HW_ERROR);
	qp_error_case(&e, RDMADEV_QPT_RC, AE_IB_INVALID_REQUEST, SRC_RQ,
		      RDMADEV_EVENT_QP_REQ_ERR, RDMADEV_QPS_ERR, HW_ERROR);
	/* A UD send error: SQE, the device keeps the QP running. */
	qp_error_case(&e, RDMADEV_QPT_UD, AE_UDA_DGRAM_TOO_LONG, SRC_SQ,
		      RDMADEV_EVENT_QP_FATAL, RDMADEV_QPS_SQE, HW_RTS);
	/* The same AE from the RQ of a UD QP: ERR. */
	qp_error_case(&e, RDMADEV_QPT_UD, AE_UDA_DGRAM_TOO_LONG, SRC_RQ,
		      RDMADEV_EVENT_QP_FATAL, RDMADEV_QPS_ERR, HW_ERROR);
	/* Every AEQE went back to the device: six AEs, no credit lost. */
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st1), 0);
	TEST_CHECK_EQ(st1.aeqes - st0.aeqes, 6);
	TEST_CHECK_EQ(st1.eq_dropped, st0.eq_dropped);
	test_env_down(&e);
}

/*
 * A fatal AE the device raised before the application reset the QP, processed after the
 * reset (the interrupt thread may run late): stale, no event, the QP stays in RESET.
 */
static void
test_stale_qp_ae(void)
{
	struct rdmadev_event ev[2];
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		qp_reset(qp);
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 0);
		TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RESET);
		TEST_CHECK_EQ(queried_state(qp), RDMADEV_QPS_RESET);
		/* The reset QP starts again. */
		memset(&a, 0, sizeof(a));
		a.qp_state = RDMADEV_QPS_INIT;
		a.port_num = 1;
		TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE | RDMADEV_QP_PKEY_INDEX |
					       RDMADEV_QP_PORT | RDMADEV_QP_ACCESS_FLAGS), 0);
		TEST_CHECK_EQ(model_qp_state(&e, qp), HW_IDLE);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	test_env_down(&e);
}

/*
 * A fatal AE the device raised while the QP was in RTS, read only after the application
 * reset the QP and brought it up again: it is about the earlier incarnation, so there is no
 * event and the QP stays in RTS. An AE raised after that is the new incarnation's and is
 * reported. The AEQ's interrupt cause is masked meanwhile, so that nothing but the test's
 * rdmadev_event_poll() reads the AEQ.
 */
static void
test_stale_qp_ae_reinit(void)
{
	struct rdmadev_event ev[2];
	struct rdmadev_qp *qp;
	uint32_t ctl;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	ctl = irdma_rd32(pmd_hw(e.id), IRDMA_PFINT_AEQCTL);
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		irdma_wr32(pmd_hw(e.id), IRDMA_PFINT_AEQCTL, ctl & ~(UINT32_C(1) << 30));
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		qp_reset(qp);
		qp_to_rts(qp, RDMADEV_QPT_RC);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 0);
		check_qp_state(&e, qp, RDMADEV_QPS_RTS, HW_RTS);
		/* the new incarnation's own AE is reported */
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		memset(ev, 0, sizeof(ev));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 1);
		TEST_CHECK(ev[0].qp == qp && ev[0].type == RDMADEV_EVENT_QP_FATAL);
		TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_ERR);
		irdma_wr32(pmd_hw(e.id), IRDMA_PFINT_AEQCTL, ctl);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	test_env_down(&e);
}

/* An informational AE: an event, no state change. */
static void
test_comm_est(void)
{
	struct rdmadev_event ev;
	struct rdmadev_qp *qp;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		qp_ae(&e, qp, AE_CONN_ESTABLISHED, SRC_RQ);
		memset(&ev, 0, sizeof(ev));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, &ev, 1), 1);
		TEST_CHECK_EQ(ev.type, RDMADEV_EVENT_COMM_EST);
		TEST_CHECK(ev.qp == qp);
		TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_RTS);
		TEST_CHECK_EQ(model_qp_state(&e, qp), HW_RTS);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	test_env_down(&e);
}

static void
test_cq_and_device_events(void)
{
	struct rdmadev_event ev[2];
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_CQ_OPERATION_ERROR, SRC_CQ,
					    rdmadev_cq_id(e.cq)), 0);
	memset(ev, 0, sizeof(ev));
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, 2), 1);
	TEST_CHECK_EQ(ev[0].type, RDMADEV_EVENT_CQ_ERR);
	TEST_CHECK(ev[0].cq == e.cq);
	TEST_CHECK(ev[0].qp == NULL);
	TEST_CHECK_EQ(ev[0].obj_id, rdmadev_cq_id(e.cq));
	TEST_CHECK_EQ(ev[0].vendor_code, AE_CQ_OPERATION_ERROR);
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_FUNCTION_CATASTROPHIC, 0, 0), 0);
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, 2), 1);
	TEST_CHECK_EQ(ev[0].type, RDMADEV_EVENT_DEVICE_FATAL);
	TEST_CHECK(ev[0].qp == NULL && ev[0].cq == NULL && ev[0].srq == NULL);
	/* AEs for ids without an object (a QP never created, a CQ id out of use) vanish. */
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_LCE_QP_CATASTROPHIC, SRC_SQ, 40), 0);
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_CQ_OPERATION_ERROR, SRC_CQ, 41), 0);
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, 2), 0);
	test_env_down(&e);
}

/* Events of objects destroyed before the application saw them never arrive. */
static void
test_destroyed_objects(void)
{
	struct rdmadev_event ev[4];
	struct rdmadev_qp *qp, *qp2;
	int efd;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	efd = rdmadev_event_fd((int16_t)e.id);
	TEST_CHECK(efd >= 0);
	TEST_CHECK(!fd_readable(efd));
	/* Still in the AEQ when the QP goes. */
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);	/* an AE for a QP in RESET is stale */
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 0);
	}
	/* Queued in rdmadev (processed, not yet returned) when the QP goes. */
	qp = qp_new(&e, RDMADEV_QPT_RC);
	qp2 = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL && qp2 != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		qp_to_rts(qp2, RDMADEV_QPT_RC);
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		qp_ae(&e, qp2, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 0), 0);
		TEST_CHECK(fd_readable(efd));
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
		TEST_CHECK(fd_readable(efd));	/* qp2's event is still there */
		memset(ev, 0, sizeof(ev));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 1);
		TEST_CHECK(ev[0].qp == qp2);
		TEST_CHECK(!fd_readable(efd));
		/* Only the destroyed QP's event queued: the fd goes quiet with the purge. */
		qp_ae(&e, qp2, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 0), 0);
		TEST_CHECK(fd_readable(efd));
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp2), 0);
		TEST_CHECK(!fd_readable(efd));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 0);
	} else {
		if (qp != NULL)
			rdmadev_qp_destroy(qp);
		if (qp2 != NULL)
			rdmadev_qp_destroy(qp2);
	}
	/* A CQ's queued event goes with the CQ. */
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_CQ_OPERATION_ERROR, SRC_CQ,
					    rdmadev_cq_id(e.cq)), 0);
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 0), 0);
	TEST_CHECK(fd_readable(efd));
	TEST_CHECK_EQ(rdmadev_cq_destroy(e.cq), 0);
	e.cq = NULL;
	TEST_CHECK(!fd_readable(efd));
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev)), 0);
	test_env_down(&e);
}

/* ---- callbacks and the interrupt thread ---- */

struct seen {
	uint32_t n;		/* atomic */
	int16_t dev_id;
	struct rdmadev_event last;
	int unregister_rc;
	bool try_unregister;
};

static void
record_cb(int16_t dev_id, const struct rdmadev_event *ev, void *arg)
{
	struct seen *s = arg;

	s->dev_id = dev_id;
	s->last = *ev;
	if (s->try_unregister)
		s->unregister_rc = rdmadev_event_callback_unregister(dev_id, record_cb, arg);
	__atomic_fetch_add(&s->n, 1, __ATOMIC_RELEASE);
}

static void
other_cb(int16_t dev_id, const struct rdmadev_event *ev, void *arg)
{
	RTE_SET_USED(dev_id);
	RTE_SET_USED(ev);
	__atomic_fetch_add((uint32_t *)arg, 1, __ATOMIC_RELEASE);
}

static void
test_callbacks(void)
{
	struct irdma_model_stats st;
	struct rdmadev_event ev;
	struct rdmadev_qp *qp;
	struct seen s;
	uint32_t other = 0;
	struct test_env e;
	int16_t id;
	int i;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	id = (int16_t)e.id;
	memset(&s, 0, sizeof(s));
	TEST_CHECK_EQ(rdmadev_event_callback_register(id, record_cb, &s), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_register(id, record_cb, &s), -EEXIST);
	TEST_CHECK_EQ(rdmadev_event_callback_register(id, other_cb, &other), 0);
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		/* Delivered by the EAL interrupt thread, nobody polls. */
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK(test_wait_count(&s.n, 1, WAIT_MS));
		TEST_CHECK(test_wait_count(&other, 1, WAIT_MS));
		TEST_CHECK_EQ(s.dev_id, id);
		TEST_CHECK_EQ(s.last.type, RDMADEV_EVENT_QP_FATAL);
		TEST_CHECK(s.last.qp == qp);
		TEST_CHECK_EQ(rdmadev_qp_get_state(qp), RDMADEV_QPS_ERR);
		memset(&st, 0, sizeof(st));
		TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st), 0);
		TEST_CHECK(st.interrupts >= 1);
		/* Events that went to callbacks are not queued. */
		TEST_CHECK_EQ(rdmadev_event_poll(id, &ev, 1), 0);
		TEST_CHECK(!fd_readable(rdmadev_event_fd(id)));
		/* The interrupt was re-armed: a second AE arrives the same way. */
		qp_ae(&e, qp, AE_CONN_ESTABLISHED, SRC_RQ);
		TEST_CHECK(test_wait_count(&s.n, 2, WAIT_MS));
		TEST_CHECK_EQ(s.last.type, RDMADEV_EVENT_COMM_EST);
		/* A callback cannot unregister itself (it would wait for itself). */
		s.try_unregister = true;
		qp_ae(&e, qp, AE_CONN_ESTABLISHED, SRC_RQ);
		TEST_CHECK_EQ(rdmadev_event_poll(id, NULL, 0), 0);
		TEST_CHECK(test_wait_count(&s.n, 3, WAIT_MS));
		TEST_CHECK_EQ(s.unregister_rc, -EDEADLK);
		s.try_unregister = false;
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, record_cb, &s), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, record_cb, &s), -ENOENT);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, record_cb, &other), -ENOENT);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, other_cb, &other), 0);
	/* Without callbacks the interrupt thread queues, and the fd wakes an epoll. */
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_CQ_OPERATION_ERROR, SRC_CQ,
					    rdmadev_cq_id(e.cq)), 0);
	{
		struct pollfd p = { .fd = rdmadev_event_fd(id), .events = POLLIN };

		TEST_CHECK_EQ(poll(&p, 1, (int)WAIT_MS), 1);
	}
	TEST_CHECK_EQ(rdmadev_event_poll(id, &ev, 1), 1);
	TEST_CHECK_EQ(ev.type, RDMADEV_EVENT_CQ_ERR);
	/* At most RDMADEV_EVENT_MAX_CALLBACKS. */
	for (i = 0; i < RDMADEV_EVENT_MAX_CALLBACKS; i++)
		TEST_CHECK_EQ(rdmadev_event_callback_register(id, other_cb, (char *)&other + i), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_register(id, record_cb, &s), -ENOSPC);
	for (i = 0; i < RDMADEV_EVENT_MAX_CALLBACKS; i++)
		TEST_CHECK_EQ(rdmadev_event_callback_unregister(id, other_cb,
								(char *)&other + i), 0);
	test_env_down(&e);
}

static void
test_api_errors(void)
{
	struct rdmadev_event ev;
	struct test_env e;

	TEST_CHECK_EQ(rdmadev_event_poll(-1, &ev, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_poll(RDMADEV_MAX_DEVS, &ev, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_fd(-1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_fd(3), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_register(-1, record_cb, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister(5, record_cb, NULL), -EINVAL);
	TEST_CHECK_EQ(irdma_model_inject_ae(NULL, 1, 0, 0), -EINVAL);
	TEST_CHECK(strcmp(rdmadev_event_type_name(RDMADEV_EVENT_CQ_ERR), "CQ_ERR") == 0);
	TEST_CHECK(strcmp(rdmadev_event_type_name(RDMADEV_EVENT_MAX), "UNKNOWN") == 0);
	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 1), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 0), 0);
	TEST_CHECK_EQ(rdmadev_event_callback_register((int16_t)e.id, NULL, NULL), -EINVAL);
	TEST_CHECK_EQ(rdmadev_event_callback_unregister((int16_t)e.id, NULL, NULL), -EINVAL);
	/* Fields beyond their widths (AE code 12 bits, source 4, id 19). */
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), 0x1000, 0, 3), -EINVAL);
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), 1, 0x10, 3), -EINVAL);
	TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), 1, 0, 1u << 19), -EINVAL);
	test_env_down(&e);
}

/* Query reports what the device owns: sq_draining in SQD while send WQEs are in flight. */
static void
test_query(void)
{
	struct rdmadev_qp_attr a;
	struct rdmadev_qp *qp;
	struct irdma_qp *q;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	qp = qp_new(&e, RDMADEV_QPT_UD);
	if (qp != NULL) {
		q = qp->obj.fp.drv;
		qp_to_rts(qp, RDMADEV_QPT_UD);
		memset(&a, 0, sizeof(a));
		a.qp_state = RDMADEV_QPS_SQD;
		TEST_CHECK_EQ(rdmadev_qp_modify(qp, &a, RDMADEV_QP_STATE), 0);
		memset(&a, 0, sizeof(a));
		TEST_CHECK_EQ(rdmadev_qp_query(qp, &a, NULL), 0);
		TEST_CHECK_EQ(a.qp_state, RDMADEV_QPS_SQD);
		TEST_CHECK_EQ(a.sq_draining, 0);
		TEST_CHECK_EQ(a.cap.max_send_wr, q->max_send_wr);
		TEST_CHECK_EQ(a.cap.max_recv_wr, q->max_recv_wr);
		/* Two WQEs in flight (what the data path's head / tail say). */
		q->sq.head = 2;
		TEST_CHECK_EQ(rdmadev_qp_query(qp, &a, NULL), 0);
		TEST_CHECK_EQ(a.sq_draining, 1);
		q->sq.tail = 2;
		TEST_CHECK_EQ(rdmadev_qp_query(qp, &a, NULL), 0);
		TEST_CHECK_EQ(a.sq_draining, 0);
		/* A fatal AE: the device's ERROR wins over the verbs SQD. */
		qp_ae(&e, qp, AE_LCE_QP_CATASTROPHIC, 0);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, NULL, 0), 0);
		TEST_CHECK_EQ(rdmadev_qp_query(qp, &a, NULL), 0);
		TEST_CHECK_EQ(a.qp_state, RDMADEV_QPS_ERR);
		TEST_CHECK_EQ(a.cur_qp_state, RDMADEV_QPS_ERR);
		TEST_CHECK_EQ(a.sq_draining, 0);
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	}
	test_env_down(&e);
}

/* An AE the control path can trigger: FLUSH_WQES with GENERATE_AE (the kernel's GEN_AE). */
static void
test_gen_ae(void)
{
	struct irdma_ctrl *c;
	struct irdma_cqp_wqe w;
	struct irdma_cqp_cmpl cmpl;
	struct rdmadev_event ev;
	struct rdmadev_qp *qp;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	c = irdma_dev_ctrl(rdmadev_get((int16_t)e.id));
	TEST_CHECK(c != NULL);
	TEST_CHECK(irdma_dev_ctrl(NULL) == NULL);
	qp = qp_new(&e, RDMADEV_QPT_RC);
	if (qp != NULL && c != NULL) {
		qp_to_rts(qp, RDMADEV_QPT_RC);
		/* AECODE wider than the AEQE's 12 bits: refused, nothing raised. */
		irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_GEN_AE);
		irdma_set(&w, CQP_FLUSH_QP_ID, rdmadev_qp_num(qp));
		irdma_set(&w, CQP_FLUSH_GENERATE_AE, 1);
		irdma_set(&w, CQP_FLUSH_AECODE, 0x1000);
		memset(&cmpl, 0, sizeof(cmpl));
		TEST_CHECK_EQ(irdma_cqp_exec(c, &w, &cmpl), -EIO);
		TEST_CHECK_EQ(cmpl.minor, IRDMA_MODEL_MIN_BAD_FIELD);
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, &ev, 1), 0);
		TEST_CHECK_EQ(model_qp_state(&e, qp), HW_RTS);
		/* Retries exceeded, from the SQ. */
		irdma_set(&w, CQP_FLUSH_AECODE, AE_TOO_MANY_RETRIES);
		irdma_set(&w, CQP_FLUSH_AESOURCE, SRC_SQ);
		TEST_CHECK_EQ(irdma_cqp_exec(c, &w, NULL), 0);
		memset(&ev, 0, sizeof(ev));
		TEST_CHECK_EQ(rdmadev_event_poll((int16_t)e.id, &ev, 1), 1);
		TEST_CHECK_EQ(ev.type, RDMADEV_EVENT_QP_FATAL);
		TEST_CHECK(ev.qp == qp);
		TEST_CHECK_EQ(ev.vendor_code, AE_TOO_MANY_RETRIES);
		TEST_CHECK_EQ(model_qp_state(&e, qp), HW_ERROR);
		TEST_CHECK_EQ(queried_state(qp), RDMADEV_QPS_ERR);
	}
	if (qp != NULL)
		TEST_CHECK_EQ(rdmadev_qp_destroy(qp), 0);
	test_env_down(&e);
}

/* The AEQ wraps (polarity flips) and its credits come back: more AEs than entries. */
static void
test_aeq_wrap(void)
{
	struct rdmadev_event ev[8];
	struct irdma_model_stats st;
	struct rdmadev *dev;
	uint32_t i, size, got = 0;
	int n;
	struct test_env e;

	if (!test_env_ready(&e, DEVARGS, 1))
		return;
	dev = rdmadev_get((int16_t)e.id);
	size = IRDMA_CTRL_AEQ_SIZE;
	for (i = 0; i < size + size / 2; i++) {
		TEST_CHECK_EQ(irdma_model_inject_ae(pmd_hw(e.id), AE_CQ_OPERATION_ERROR, SRC_CQ,
						    rdmadev_cq_id(e.cq)), 0);
		/* Poll every 64 AEs so the rdmadev queue never overflows. */
		if (i % 64 == 63)
			while ((n = rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev))) > 0)
				got += (uint32_t)n;
	}
	while ((n = rdmadev_event_poll((int16_t)e.id, ev, RTE_DIM(ev))) > 0)
		got += (uint32_t)n;
	TEST_CHECK_EQ(got, size + size / 2);
	memset(&st, 0, sizeof(st));
	TEST_CHECK_EQ(irdma_model_stats_get(pmd_hw(e.id), &st), 0);
	TEST_CHECK_EQ(st.eq_dropped, 0);
	TEST_CHECK(dev != NULL);
	test_env_down(&e);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_events") < 0)
		return test_eal_bail();
	TEST_RUN(test_api_errors);
	TEST_RUN(test_qp_events);
	TEST_RUN(test_stale_qp_ae);
	TEST_RUN(test_stale_qp_ae_reinit);
	TEST_RUN(test_comm_est);
	TEST_RUN(test_cq_and_device_events);
	TEST_RUN(test_destroyed_objects);
	TEST_RUN(test_callbacks);
	TEST_RUN(test_gen_ae);
	TEST_RUN(test_query);
	TEST_RUN(test_aeq_wrap);
	rte_eal_cleanup();
	return test_done();
}
