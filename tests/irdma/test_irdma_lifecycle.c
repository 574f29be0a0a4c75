/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Lifecycle stress over the real irdma PMD on the device model (mode=thread: the engine on
 * its own thread, as silicon): several application threads run random create / modify /
 * destroy sequences over PDs, CQs, RC and UD QPs (a random walk of legal modifies through
 * INIT / RTR / RTS / ERR / RESET) and MRs (registered over rte_malloc memory, or
 * fast-register MRs), while the model's fault injection is armed now and then for the next
 * CREATE_QP, MODIFY_QP, DESTROY_QP, REG_MR, DEALLOC_STAG or DESTROY_CQ. Every call must
 * return one of the errors its situation allows; a refused destroy must leave the object
 * tracked (found by restrack_get_byid() at its ID) and usable, and a later retry destroys it.
 *
 * While the threads run, a shadow map per ID space records which IDs the test holds: a
 * create that returns an ID already held is an ID reused while reserved. Between phases
 * (threads stopped): restrack's count per type equals the test's live objects, each live
 * object is found at its ID, and the model's QP / CQ / STag tables hold exactly the live
 * objects (plus what the driver itself owns, recorded before the first phase). At the end
 * everything is destroyed, close reports zero leaks and the model's DMA maps and unmaps
 * balance.
 *
 * Concurrency: the driver serialises CQP submit + wait with a mutex (irdma_cqp.c,
 * c->cqp.lock) and lib/rdmadev documents control-path calls on different objects as
 * concurrent, so the threads call rdmadev without any test-side lock. EXCEPT under
 * ThreadSanitizer: there the threads' rdmadev calls are serialised through a test mutex
 * (big_lock), because the driver's queue memory comes from rte_malloc and DPDK's heap lock
 * (an rte_spinlock in the uninstrumented librte_eal) is invisible to TSan, so memory one
 * thread rte_free()s (which memsets it) and another gets back from rte_malloc() is reported
 * as a race (irdma_qp_destroy -> rte_free vs irdma_dma_alloc / irdma_qp_create). That is a
 * false positive of the toolchain, not a driver race, and with halt_on_error=1 it would fail
 * the suite. Under TSan the test therefore checks the application thread against the model's
 * engine thread, one application thread at a time; the concurrent run is what the gcc / clang
 * / ASan builds execute. IRDMA_LIFE_SERIALIZE=0 or 1 in the environment overrides the choice.
 *
 * Size: --ops N (total over all threads), --threads N, --seed N, or IRDMA_LIFE_OPS in the
 * environment; the default is smaller under ThreadSanitizer.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>
#include <restrack.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_model.h"
#include "stress.h"
#include "test.h"

#if defined(__SANITIZE_THREAD__)
#define LIFE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LIFE_TSAN 1
#endif
#endif
#ifndef LIFE_TSAN
#define LIFE_TSAN 0
#endif

#define NB_QP_IDS	128u
#define NB_CQ_IDS	128u
#define NB_MR_IDS	256u
#define NB_PD_IDS	4096u	/* upper bound of the PD IDs the shadow map covers */
#define PHASES		4u
#define MAX_THREADS	16u

#define PD_SLOTS	3
#define CQ_SLOTS	4
#define QP_SLOTS	6
#define MR_SLOTS	6
#define BUF_LEN		(256u * 1024u)

/* HW QP states (doc/hardware.md §5.4), independent of base/. */
enum { HW_IDLE = 1, HW_RTS = 2, HW_RTR = 4, HW_ERROR = 6 };
#define MAJ_ERROR 0xffff

enum kind { K_PD, K_CQ, K_QP, K_MR, K_NB };

static const uint8_t fault_ops[] = {
	IRDMA_CQP_OP_CREATE_QP, IRDMA_CQP_OP_MODIFY_QP, IRDMA_CQP_OP_DESTROY_QP,
	IRDMA_CQP_OP_REG_MR, IRDMA_CQP_OP_DEALLOC_STAG, IRDMA_CQP_OP_DESTROY_CQ,
};

struct qp_slot {
	struct rdmadev_qp *qp;
	int clean;	/* the last modify succeeded: the model's state must match */
};

struct worker {
	uint64_t seed;
	uint64_t ops;
	uint64_t bad;		/* unexpected results */
	uint64_t creates, destroys, modifies, faults, eio, busy, retried;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd[PD_SLOTS];
	struct rdmadev_cq *cq[CQ_SLOTS];
	struct qp_slot qp[QP_SLOTS];
	struct rdmadev_mr *mr[MR_SLOTS];
	int dead[K_NB][8];	/* a destroy of this slot was refused with -EIO */
	uint8_t *buf;		/* rte_malloc'd memory the MRs cover */
} __rte_cache_aligned;

static int16_t dev;
static struct rdmadev *rdev;
static struct irdma_hw *hw;
static int serialize;
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;

/* Shadow maps: 1 while the test holds the ID. */
static uint8_t held_qp[NB_QP_IDS], held_cq[NB_CQ_IDS], held_mr[NB_MR_IDS], held_pd[NB_PD_IDS];
/* What the model holds before the test creates anything (the driver's own objects). */
static uint8_t base_qp[NB_QP_IDS], base_cq[NB_CQ_IDS], base_mr[NB_MR_IDS];
static int base_count[RESTRACK_MAX];

#define BAD(w, ...)								\
	do {									\
		(w)->bad++;							\
		printf("#   line %d: ", __LINE__);				\
		printf(__VA_ARGS__);						\
		printf("\n");							\
	} while (0)

static uint32_t
rnd(struct worker *w, uint32_t n)
{
	return (uint32_t)(stress_rand(&w->seed) % n);
}

static void
lock(void)
{
	if (serialize)
		pthread_mutex_lock(&big_lock);
}

static void
unlock(void)
{
	if (serialize)
		pthread_mutex_unlock(&big_lock);
}

static uint8_t *
held_map(enum kind k, uint32_t *n)
{
	switch (k) {
	case K_PD: *n = NB_PD_IDS; return held_pd;
	case K_CQ: *n = NB_CQ_IDS; return held_cq;
	case K_QP: *n = NB_QP_IDS; return held_qp;
	case K_MR: *n = NB_MR_IDS; return held_mr;
	case K_NB: break;
	}
	*n = 0;
	return NULL;
}

static enum restrack_type
rt_of(enum kind k)
{
	static const enum restrack_type t[K_NB] = { RESTRACK_PD, RESTRACK_CQ, RESTRACK_QP,
						    RESTRACK_MR };
	return t[k];
}

/* Take ID @p id in the shadow map: it must not be held already. */
static void
hold(struct worker *w, enum kind k, uint32_t id)
{
	uint32_t n;
	uint8_t *m = held_map(k, &n);

	if (id >= n) {
		BAD(w, "kind %d: ID %u beyond the shadow map", k, id);
		return;
	}
	if (__atomic_exchange_n(&m[id], 1, __ATOMIC_ACQ_REL) != 0)
		BAD(w, "kind %d: ID %u handed out while held", k, id);
}

/* Release ID @p id before its destroy (after it, another thread may get it at once). */
static void
unhold(enum kind k, uint32_t id)
{
	uint32_t n;
	uint8_t *m = held_map(k, &n);

	if (id < n)
		__atomic_store_n(&m[id], 0, __ATOMIC_RELEASE);
}

/* After a refused destroy: the object must still be tracked at its ID. */
static void
check_tracked(struct worker *w, enum kind k, struct rdmadev_obj *o)
{
	struct restrack_entry *e = NULL;
	uint32_t id = rdmadev_obj_id(o);

	if (restrack_get_byid(rdev->res, rt_of(k), id, &e) != 0) {
		BAD(w, "kind %d ID %u: untracked after a refused destroy", k, id);
		return;
	}
	if (e != &o->res)
		BAD(w, "kind %d ID %u: another entry at the ID", k, id);
	restrack_put(e);
}

static void
arm_fault(struct worker *w)
{
	uint8_t op = fault_ops[rnd(w, RTE_DIM(fault_ops))];

	if (irdma_model_inject_cqp_fault(hw, op, 1, MAJ_ERROR, 1) != 0)
		BAD(w, "inject op 0x%x refused", op);
	w->faults++;
}

/* ---- objects ---- */

static void
pd_op(struct worker *w, unsigned int s)
{
	struct rdmadev_pd *pd = w->pd[s];
	uint32_t id;
	int rc;

	lock();
	if (pd == NULL) {
		rc = rdmadev_pd_alloc(w->ctx, &pd);
		if (rc == 0) {
			hold(w, K_PD, rdmadev_obj_id(&pd->obj));
			w->pd[s] = pd;
			w->creates++;
		} else {
			BAD(w, "pd_alloc %d", rc);
		}
		unlock();
		return;
	}
	id = rdmadev_obj_id(&pd->obj);
	unhold(K_PD, id);
	rc = rdmadev_pd_free(pd);
	if (rc == 0) {
		w->pd[s] = NULL;
		w->destroys++;
	} else {
		hold(w, K_PD, id);
		if (rc == -EBUSY) {
			w->busy++;
			check_tracked(w, K_PD, &pd->obj);
		} else {
			BAD(w, "pd_free %d", rc);
		}
	}
	unlock();
}

static void
cq_op(struct worker *w, unsigned int s)
{
	struct rdmadev_cq_attr a = { .cqe = 1 + rnd(w, 256), .comp_vector = 0 };
	struct rdmadev_cq *cq = w->cq[s];
	uint32_t id;
	int rc;

	lock();
	if (cq == NULL) {
		rc = rdmadev_cq_create(w->ctx, &a, &cq);
		if (rc == 0) {
			hold(w, K_CQ, rdmadev_obj_id(&cq->obj));
			w->cq[s] = cq;
			w->creates++;
		} else {
			BAD(w, "cq_create %d", rc);
		}
		unlock();
		return;
	}
	id = rdmadev_obj_id(&cq->obj);
	unhold(K_CQ, id);
	rc = rdmadev_cq_destroy(cq);
	if (rc == 0) {
		w->cq[s] = NULL;
		w->destroys++;
		if (w->dead[K_CQ][s]) {
			w->retried++;
			w->dead[K_CQ][s] = 0;
		}
	} else {
		hold(w, K_CQ, id);
		check_tracked(w, K_CQ, &cq->obj);
		if (rc == -EBUSY) {
			w->busy++;
		} else if (rc == -EIO) {
			w->eio++;
			w->dead[K_CQ][s] = 1;
		} else {
			BAD(w, "cq_destroy %d", rc);
		}
	}
	unlock();
}

static int
qp_create(struct worker *w, unsigned int s)
{
	struct rdmadev_qp_init_attr a;
	struct rdmadev_qp *qp = NULL;
	int rc;

	memset(&a, 0, sizeof(a));
	a.pd = w->pd[rnd(w, PD_SLOTS)];
	a.send_cq = w->cq[rnd(w, CQ_SLOTS)];
	a.recv_cq = w->cq[rnd(w, CQ_SLOTS)];
	if (a.pd == NULL || a.send_cq == NULL || a.recv_cq == NULL)
		return 0;	/* no parents in those slots: nothing to do */
	a.qp_type = rnd(w, 2) == 0 ? RDMADEV_QPT_RC : RDMADEV_QPT_UD;
	a.cap.max_send_wr = 1 + rnd(w, 64);
	a.cap.max_recv_wr = 1 + rnd(w, 32);
	a.cap.max_send_sge = 1 + rnd(w, 2);
	a.cap.max_recv_sge = 1 + rnd(w, 2);
	a.cap.max_inline_data = rnd(w, 64);
	rc = rdmadev_qp_create(&a, &qp);
	if (rc == 0) {
		hold(w, K_QP, rdmadev_qp_num(qp));
		if (rdmadev_qp_num(qp) != rdmadev_obj_id(&qp->obj))
			BAD(w, "QPN %u != ID %u", rdmadev_qp_num(qp), rdmadev_obj_id(&qp->obj));
		w->qp[s].qp = qp;
		w->qp[s].clean = 1;
		w->creates++;
	} else if (rc == -EIO) {
		w->eio++;
		if (qp != NULL)
			BAD(w, "qp_create -EIO returned a QP");
	} else {
		BAD(w, "qp_create %d", rc);
	}
	return rc;
}

static const uint32_t rc_init = RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
				RDMADEV_QP_ACCESS_FLAGS;
static const uint32_t ud_init = RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT | RDMADEV_QP_QKEY;
static const uint32_t rc_rtr = RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN |
			       RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
			       RDMADEV_QP_MIN_RNR_TIMER;
static const uint32_t rc_rts = RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
			       RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
			       RDMADEV_QP_MAX_QP_RD_ATOMIC;

/* One legal step of the verbs state machine from the QP's current state. */
static void
qp_modify(struct worker *w, struct qp_slot *q)
{
	enum rdmadev_qp_state cur = rdmadev_qp_get_state(q->qp), next;
	struct rdmadev_qp_init_attr init;
	struct rdmadev_qp_attr a;
	uint32_t mask = 0, r = rnd(w, 10);
	int rc_type, rc;

	rdmadev_qp_query(q->qp, NULL, &init);
	rc_type = init.qp_type == RDMADEV_QPT_RC;
	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
			    RDMADEV_ACCESS_REMOTE_READ;
	a.qkey = 0x1000 + rnd(w, 0x1000);
	a.ah_attr.dgid[10] = 0xff;
	a.ah_attr.dgid[11] = 0xff;
	a.ah_attr.dgid[12] = 192;
	a.ah_attr.dgid[13] = 168;
	a.ah_attr.dgid[14] = 1;
	a.ah_attr.dgid[15] = (uint8_t)(2 + rnd(w, 200));
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 3 + rnd(w, 1000);
	a.rq_psn = rnd(w, 1u << 24);
	a.sq_psn = rnd(w, 1u << 24);
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 6;
	a.max_rd_atomic = 8;

	if (r == 0) {
		next = RDMADEV_QPS_ERR;
	} else if (r == 1) {
		next = RDMADEV_QPS_RESET;
	} else {
		switch (cur) {
		case RDMADEV_QPS_RESET:
			next = RDMADEV_QPS_INIT;
			mask = rc_type ? rc_init : ud_init;
			break;
		case RDMADEV_QPS_INIT:
			next = RDMADEV_QPS_RTR;
			mask = rc_type ? rc_rtr : 0;
			break;
		case RDMADEV_QPS_RTR:
			next = RDMADEV_QPS_RTS;
			mask = rc_type ? rc_rts : RDMADEV_QP_SQ_PSN;
			break;
		case RDMADEV_QPS_RTS:
			next = r < 5 ? RDMADEV_QPS_RTS : RDMADEV_QPS_ERR;
			break;
		default:
			next = RDMADEV_QPS_RESET;
			break;
		}
	}
	a.qp_state = next;
	rc = rdmadev_qp_modify(q->qp, &a, mask | RDMADEV_QP_STATE);
	if (rc == 0) {
		w->modifies++;
		q->clean = 1;
		if (rdmadev_qp_get_state(q->qp) != next)
			BAD(w, "QP %u: state %d after modify to %d", rdmadev_qp_num(q->qp),
			    rdmadev_qp_get_state(q->qp), next);
	} else if (rc == -EIO) {
		w->eio++;
		q->clean = 0;
		if (rdmadev_qp_get_state(q->qp) != cur)
			BAD(w, "QP %u: state %d after a refused modify from %d",
			    rdmadev_qp_num(q->qp), rdmadev_qp_get_state(q->qp), cur);
	} else {
		BAD(w, "QP %u: modify %d -> %d: %d", rdmadev_qp_num(q->qp), cur, next, rc);
	}
}

static void
qp_op(struct worker *w, unsigned int s)
{
	struct qp_slot *q = &w->qp[s];
	uint32_t id;
	int rc;

	lock();
	if (q->qp == NULL) {
		qp_create(w, s);
	} else if (rnd(w, 4) != 0) {
		qp_modify(w, q);
	} else {
		id = rdmadev_qp_num(q->qp);
		unhold(K_QP, id);
		rc = rdmadev_qp_destroy(q->qp);
		if (rc == 0) {
			q->qp = NULL;
			w->destroys++;
			if (w->dead[K_QP][s]) {
				w->retried++;
				w->dead[K_QP][s] = 0;
			}
		} else {
			hold(w, K_QP, id);
			check_tracked(w, K_QP, &q->qp->obj);
			if (rc == -EIO) {
				w->eio++;
				w->dead[K_QP][s] = 1;
			} else {
				BAD(w, "qp_destroy %d", rc);
			}
		}
	}
	unlock();
}

static void
mr_op(struct worker *w, unsigned int s)
{
	struct rdmadev_mr *mr = w->mr[s];
	struct rdmadev_pd *pd;
	uint32_t id;
	int rc;

	lock();
	if (mr == NULL) {
		pd = w->pd[rnd(w, PD_SLOTS)];
		if (pd == NULL) {
			unlock();
			return;
		}
		if (rnd(w, 5) == 0) {
			rc = rdmadev_mr_alloc_fast_reg(pd, 1 + rnd(w, 64), &mr);
		} else {
			uint32_t off = rnd(w, BUF_LEN / 2);
			struct rdmadev_mr_attr a = {
				.addr = w->buf + off,
				.length = 1 + rnd(w, BUF_LEN / 2),
				.iova = (uint64_t)(uintptr_t)(w->buf + off),
				.access = RDMADEV_ACCESS_LOCAL_WRITE |
					  (rnd(w, 2) ? RDMADEV_ACCESS_REMOTE_READ : 0),
			};

			rc = rdmadev_mr_reg(pd, &a, &mr);
		}
		if (rc == 0) {
			hold(w, K_MR, rdmadev_obj_id(&mr->obj));
			if (rdmadev_mr_lkey(mr) >> 8 != rdmadev_obj_id(&mr->obj))
				BAD(w, "lkey 0x%x, ID %u", rdmadev_mr_lkey(mr),
				    rdmadev_obj_id(&mr->obj));
			w->mr[s] = mr;
			w->creates++;
		} else if (rc == -EIO) {
			w->eio++;
		} else {
			BAD(w, "mr_reg %d", rc);
		}
		unlock();
		return;
	}
	id = rdmadev_obj_id(&mr->obj);
	unhold(K_MR, id);
	rc = rdmadev_mr_dereg(mr);
	if (rc == 0) {
		w->mr[s] = NULL;
		w->destroys++;
		if (w->dead[K_MR][s]) {
			w->retried++;
			w->dead[K_MR][s] = 0;
		}
	} else {
		hold(w, K_MR, id);
		check_tracked(w, K_MR, &mr->obj);
		if (rc == -EIO) {
			w->eio++;
			w->dead[K_MR][s] = 1;
		} else {
			BAD(w, "mr_dereg %d", rc);
		}
	}
	unlock();
}

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	uint64_t n;

	for (n = 0; n < w->ops; n++) {
		uint32_t k = rnd(w, 16);

		if (rnd(w, 12) == 0)
			arm_fault(w);
		if (k < 2)
			pd_op(w, rnd(w, PD_SLOTS));
		else if (k < 5)
			cq_op(w, rnd(w, CQ_SLOTS));
		else if (k < 12)
			qp_op(w, rnd(w, QP_SLOTS));
		else
			mr_op(w, rnd(w, MR_SLOTS));
	}
	return NULL;
}

/* ---- checks between phases ---- */

static void
cancel_faults(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(fault_ops); i++)
		TEST_CHECK_EQ(irdma_model_inject_cqp_fault(hw, fault_ops[i], 0, 0, 0), 0);
}

static void
expect_byid(enum kind k, struct rdmadev_obj *o)
{
	struct restrack_entry *e = NULL;
	uint32_t id = rdmadev_obj_id(o);

	TEST_CHECK_EQ(restrack_get_byid(rdev->res, rt_of(k), id, &e), 0);
	if (e != NULL) {
		TEST_CHECK(e == &o->res);
		TEST_CHECK_EQ(restrack_put(e), 0);
	}
}

/* Mark @p id in @p seen; it must not be there yet (no ID held twice). */
static void
seen_once(uint8_t *seen, uint32_t n, uint32_t id)
{
	TEST_CHECK(id < n);
	if (id < n) {
		TEST_CHECK_EQ(seen[id], 0);
		seen[id] = 1;
	}
}

static uint8_t
hw_state(enum rdmadev_qp_state s)
{
	switch (s) {
	case RDMADEV_QPS_INIT: return HW_IDLE;
	case RDMADEV_QPS_RTR: return HW_RTR;
	case RDMADEV_QPS_RTS: return HW_RTS;
	case RDMADEV_QPS_ERR: return HW_ERROR;
	default: return 0xff;	/* RESET: INVALID or ERROR, depending on the path */
	}
}

static void
check_phase(struct worker *w, unsigned int nt)
{
	static uint8_t s_qp[NB_QP_IDS], s_cq[NB_CQ_IDS], s_mr[NB_MR_IDS], s_pd[NB_PD_IDS];
	int live[K_NB] = { 0 };
	struct irdma_model_qp_info qi;
	struct irdma_model_cq_info ci;
	struct irdma_model_mr_info mi;
	unsigned int t, s;
	uint32_t id;

	memset(s_qp, 0, sizeof(s_qp));
	memset(s_cq, 0, sizeof(s_cq));
	memset(s_mr, 0, sizeof(s_mr));
	memset(s_pd, 0, sizeof(s_pd));
	for (t = 0; t < nt; t++) {
		for (s = 0; s < PD_SLOTS; s++) {
			if (w[t].pd[s] == NULL)
				continue;
			live[K_PD]++;
			expect_byid(K_PD, &w[t].pd[s]->obj);
			seen_once(s_pd, NB_PD_IDS, rdmadev_obj_id(&w[t].pd[s]->obj));
		}
		for (s = 0; s < CQ_SLOTS; s++) {
			if (w[t].cq[s] == NULL)
				continue;
			live[K_CQ]++;
			expect_byid(K_CQ, &w[t].cq[s]->obj);
			seen_once(s_cq, NB_CQ_IDS, rdmadev_obj_id(&w[t].cq[s]->obj));
		}
		for (s = 0; s < QP_SLOTS; s++) {
			struct rdmadev_qp *qp = w[t].qp[s].qp;

			if (qp == NULL)
				continue;
			live[K_QP]++;
			expect_byid(K_QP, &qp->obj);
			seen_once(s_qp, NB_QP_IDS, rdmadev_qp_num(qp));
			if (w[t].qp[s].clean &&
			    hw_state(rdmadev_qp_get_state(qp)) != 0xff &&
			    irdma_model_qp_get(hw, rdmadev_qp_num(qp), &qi) == 0)
				TEST_CHECK_EQ(qi.state, hw_state(rdmadev_qp_get_state(qp)));
		}
		for (s = 0; s < MR_SLOTS; s++) {
			if (w[t].mr[s] == NULL)
				continue;
			live[K_MR]++;
			expect_byid(K_MR, &w[t].mr[s]->obj);
			seen_once(s_mr, NB_MR_IDS, rdmadev_obj_id(&w[t].mr[s]->obj));
		}
	}
	/* restrack: the test's live objects plus what existed before the first phase. */
	TEST_CHECK_EQ(restrack_count(rdev->res, RESTRACK_PD, NULL),
		      base_count[RESTRACK_PD] + live[K_PD]);
	TEST_CHECK_EQ(restrack_count(rdev->res, RESTRACK_CQ, NULL),
		      base_count[RESTRACK_CQ] + live[K_CQ]);
	TEST_CHECK_EQ(restrack_count(rdev->res, RESTRACK_QP, NULL),
		      base_count[RESTRACK_QP] + live[K_QP]);
	TEST_CHECK_EQ(restrack_count(rdev->res, RESTRACK_MR, NULL),
		      base_count[RESTRACK_MR] + live[K_MR]);
	TEST_CHECK_EQ(restrack_count(rdev->res, RESTRACK_CTX, NULL),
		      base_count[RESTRACK_CTX] + (int)nt);
	/* the shadow map the threads kept agrees with the objects */
	TEST_CHECK(memcmp(s_qp, held_qp, sizeof(s_qp)) == 0);
	TEST_CHECK(memcmp(s_cq, held_cq, sizeof(s_cq)) == 0);
	TEST_CHECK(memcmp(s_mr, held_mr, sizeof(s_mr)) == 0);
	TEST_CHECK(memcmp(s_pd, held_pd, sizeof(s_pd)) == 0);
	/* the model's tables: exactly the live objects plus the driver's own */
	for (id = 0; id < NB_QP_IDS; id++) {
		int in = irdma_model_qp_get(hw, id, &qi) == 0;

		if (in != (s_qp[id] | base_qp[id])) {
			test_case_failures++;
			printf("#   model QP %u: %s, test: %s\n", id, in ? "present" : "absent",
			       s_qp[id] ? "live" : "free");
		}
	}
	for (id = 0; id < NB_CQ_IDS; id++) {
		int in = irdma_model_cq_get(hw, id, &ci) == 0;

		if (in != (s_cq[id] | base_cq[id])) {
			test_case_failures++;
			printf("#   model CQ %u: %s, test: %s\n", id, in ? "present" : "absent",
			       s_cq[id] ? "live" : "free");
		}
	}
	for (id = 0; id < NB_MR_IDS; id++) {
		int in = irdma_model_mr_get(hw, id, &mi) == 0;

		if (in != (s_mr[id] | base_mr[id])) {
			test_case_failures++;
			printf("#   model STag %u: %s, test: %s\n", id, in ? "present" : "absent",
			       s_mr[id] ? "live" : "free");
		}
	}
}

/* Destroy everything a worker holds, children first; nothing is refused any more. */
static void
cleanup(struct worker *w)
{
	unsigned int s;

	for (s = 0; s < QP_SLOTS; s++) {
		if (w->qp[s].qp != NULL) {
			unhold(K_QP, rdmadev_qp_num(w->qp[s].qp));
			TEST_CHECK_EQ(rdmadev_qp_destroy(w->qp[s].qp), 0);
			w->qp[s].qp = NULL;
		}
	}
	for (s = 0; s < MR_SLOTS; s++) {
		if (w->mr[s] != NULL) {
			unhold(K_MR, rdmadev_obj_id(&w->mr[s]->obj));
			TEST_CHECK_EQ(rdmadev_mr_dereg(w->mr[s]), 0);
			w->mr[s] = NULL;
		}
	}
	for (s = 0; s < CQ_SLOTS; s++) {
		if (w->cq[s] != NULL) {
			unhold(K_CQ, rdmadev_obj_id(&w->cq[s]->obj));
			TEST_CHECK_EQ(rdmadev_cq_destroy(w->cq[s]), 0);
			w->cq[s] = NULL;
		}
	}
	for (s = 0; s < PD_SLOTS; s++) {
		if (w->pd[s] != NULL) {
			unhold(K_PD, rdmadev_obj_id(&w->pd[s]->obj));
			TEST_CHECK_EQ(rdmadev_pd_free(w->pd[s]), 0);
			w->pd[s] = NULL;
		}
	}
	TEST_CHECK_EQ(rdmadev_ctx_free(w->ctx), 0);
	w->ctx = NULL;
	rte_free(w->buf);
	w->buf = NULL;
}

static void
record_base(void)
{
	struct irdma_model_qp_info qi;
	struct irdma_model_cq_info ci;
	struct irdma_model_mr_info mi;
	uint32_t id;
	int t;

	for (t = 0; t < RESTRACK_MAX; t++)
		base_count[t] = restrack_count(rdev->res, (enum restrack_type)t, NULL);
	for (id = 0; id < NB_QP_IDS; id++)
		base_qp[id] = irdma_model_qp_get(hw, id, &qi) == 0;
	for (id = 0; id < NB_CQ_IDS; id++)
		base_cq[id] = irdma_model_cq_get(hw, id, &ci) == 0;
	for (id = 0; id < NB_MR_IDS; id++)
		base_mr[id] = irdma_model_mr_get(hw, id, &mi) == 0;
}

static int n_test, n_fail_total;

static void
tap(const char *what)
{
	n_test++;
	printf("%s %d - %s\n", test_case_failures ? "not ok" : "ok", n_test, what);
	if (test_case_failures)
		n_fail_total++;
	test_case_failures = 0;
}

int
main(int argc, char **argv)
{
	static const struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct stress_args args = { .ops = 4000, .threads = 4, .seed = 42 };
	struct irdma_model_stats ms0, ms;
	struct rdmadev_stats st;
	uint64_t sum[8] = { 0 };
	const char *env;
	struct worker *w;
	unsigned int p, t;
	char name[32];
	int id;

	env = getenv("IRDMA_LIFE_OPS");
	if (env != NULL && strtoull(env, NULL, 0) > 0)
		args.ops = strtoull(env, NULL, 0);
	env = getenv("IRDMA_LIFE_SERIALIZE");
	serialize = env != NULL ? atoi(env) != 0 : LIFE_TSAN;
	if (stress_parse(argc, argv, &args) != 0)
		return 1;
	if (args.threads > MAX_THREADS)
		args.threads = MAX_THREADS;
	if (test_eal_init("test_irdma_lifecycle", NULL) < 0)
		return test_eal_bail();
	/* the expected refusals would flood the log */
	rte_log_set_level_pattern("lib.rdmadev", RTE_LOG_EMERG);
	rte_log_set_level_pattern("lib.restrack", RTE_LOG_EMERG);
	rte_log_set_level_pattern("pmd.rdma.irdma*", RTE_LOG_EMERG);
	printf("# %u threads, %" PRIu64 " ops in %u phases, seed %" PRIu64 ", %s\n",
	       args.threads, args.ops, PHASES, args.seed,
	       serialize ? "serialised by a test mutex" : "concurrent rdmadev calls");

	id = rdmadev_open("irdma_model0,qps=128,cqs=128,mrs=256,mode=thread");
	if (id < 0 || rdmadev_configure((int16_t)id, &conf) != 0 ||
	    rdmadev_start((int16_t)id) != 0) {
		printf("Bail out! device up failed (%d)\n", id);
		return 1;
	}
	dev = (int16_t)id;
	rdev = rdmadev_get(dev);
	hw = irdma_dev_hw(rdev);
	memset(&ms0, 0, sizeof(ms0));
	if (hw == NULL || irdma_model_stats_get(hw, &ms0) != 0) {
		printf("Bail out! not a model device\n");
		return 1;
	}
	record_base();
	w = rte_zmalloc("life_workers", sizeof(*w) * args.threads, RTE_CACHE_LINE_SIZE);
	if (w == NULL) {
		printf("Bail out! no memory\n");
		return 1;
	}
	for (t = 0; t < args.threads; t++) {
		snprintf(name, sizeof(name), "life_buf%u", t);
		w[t].seed = args.seed * 7919 + t + 1;
		w[t].ops = args.ops / args.threads / PHASES;
		w[t].buf = rte_malloc(name, BUF_LEN, 4096);
		TEST_CHECK(w[t].buf != NULL);
		TEST_CHECK_EQ(rdmadev_ctx_alloc(dev, &w[t].ctx), 0);
		if (w[t].buf == NULL || w[t].ctx == NULL) {
			printf("Bail out! setup failed\n");
			return 1;
		}
		memset(w[t].buf, 0, BUF_LEN);
	}
	tap("setup");

	for (p = 0; p < PHASES; p++) {
		TEST_CHECK_EQ(stress_run_threads(args.threads, worker_run, w, sizeof(*w)), 0);
		cancel_faults();
		for (t = 0; t < args.threads; t++) {
			if (w[t].bad != 0)
				test_case_failures++;
			w[t].bad = 0;
		}
		check_phase(w, args.threads);
		snprintf(name, sizeof(name), "phase %u invariants", p + 1);
		tap(name);
	}

	for (t = 0; t < args.threads; t++) {
		sum[0] += w[t].creates;
		sum[1] += w[t].destroys;
		sum[2] += w[t].modifies;
		sum[3] += w[t].faults;
		sum[4] += w[t].eio;
		sum[5] += w[t].busy;
		sum[6] += w[t].retried;
	}
	printf("# %" PRIu64 " creates, %" PRIu64 " destroys, %" PRIu64 " modifies, %" PRIu64
	       " faults armed, %" PRIu64 " -EIO, %" PRIu64 " -EBUSY, %" PRIu64
	       " destroys retried after -EIO\n", sum[0], sum[1], sum[2], sum[3], sum[4], sum[5],
	       sum[6]);
	TEST_CHECK(sum[0] > args.ops / 20 && sum[1] > args.ops / 40 && sum[2] > args.ops / 20);
	TEST_CHECK(sum[4] > 0);
	tap("operations and injected faults happened");

	/* Everything goes; the driver and the model hold only what they held before. */
	for (t = 0; t < args.threads; t++)
		cleanup(&w[t]);
	for (t = 0; t < RESTRACK_MAX; t++)
		TEST_CHECK_EQ(restrack_count(rdev->res, (enum restrack_type)t, NULL),
			      base_count[t]);
	check_phase(w, 0);
	TEST_CHECK_EQ(rdmadev_stats_get(dev, &st), 0);
	for (t = 0; t < RDMADEV_OBJ_MAX; t++)
		TEST_CHECK_EQ(st.created[t], st.destroyed[t]);
	memset(&ms, 0, sizeof(ms));
	TEST_CHECK_EQ(irdma_model_stats_get(hw, &ms), 0);
	TEST_CHECK(ms.cqp_injected > 0);
	TEST_CHECK_EQ(ms.dma_faults, 0);
	TEST_CHECK_EQ(ms.dma_map_refused, 0);
	TEST_CHECK_EQ(ms.dma_maps - ms0.dma_maps, ms.dma_unmaps - ms0.dma_unmaps);
	TEST_CHECK_EQ(rdmadev_stop(dev), 0);
	memset(&ms, 0, sizeof(ms));
	TEST_CHECK_EQ(irdma_model_stats_get(hw, &ms), 0);
	TEST_CHECK_EQ(ms.dma_maps, ms.dma_unmaps);
	TEST_CHECK_EQ(rdmadev_close(dev), 0);	/* restrack_clean: zero leaks */
	TEST_CHECK_EQ(rdmadev_count(), 0);
	tap("teardown: zero leaks, DMA maps balance");
	rte_free(w);
	printf("1..%d\n", n_test);
	rte_eal_cleanup();
	return n_fail_total ? 1 : 0;
}
