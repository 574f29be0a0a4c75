/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef E2E_LIB_H
#define E2E_LIB_H

/*
 * Helpers of the end-to-end data-path tests (test_irdma_e2e.c, test_irdma_soak.c): devices,
 * CQs, QPs and MRs on the device model through the public rdmadev API, and a completion
 * collector that polls every CQ of every open test device (polling services an inline model,
 * so two devices on one switch both make progress while a test waits on one of them).
 * The WRs go through rdmadev_post_send / rdmadev_post_recv: the driver's own encoder.
 */

#include <stdbool.h>
#include <stdint.h>

#include <stddef.h>

#include <rdmadev.h>

#include "irdma_model.h"

/*
 * The model's mode is the fixture's variant (tests/common/test_fixture.h): e2e_dev_open()
 * appends it to the devargs it is given.
 */
#include "test_fixture.h"

#ifndef IRDMA_TEST_DEVARGS_EXTRA
/* Devargs every device of the program gets besides its own (irdma_e2e_pf3: ",pf_id=3"). */
#define IRDMA_TEST_DEVARGS_EXTRA ""
#endif

/* Device arguments of model @p n on wire @p wire (e2e_dev_open() adds the mode). */
#define E2E_DEVARGS(n, wire) "irdma_model" #n ",qps=64,cqs=64,mrs=256,wire=" wire \
	IRDMA_TEST_DEVARGS_EXTRA

/*
 * Local ACK timeout of the tests that drop frames: 14, 4.096 us << 14 = 67 ms. The wire's
 * losses are recovered by the timer, and the peer's engine thread may be starved for tens of
 * milliseconds on a busy machine (or a sanitized build): with 1 ms, 8 rounds without progress
 * (retry count 7) ended a QP in RETRY_EXC_ERR.
 */
#define E2E_LOSSY_TIMEOUT	14

/* Every right an MR or QP can have. */
#define E2E_ACC_ALL (RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE | \
		     RDMADEV_ACCESS_REMOTE_READ)
/* The same plus remote atomics (gen3 devices). */
#define E2E_ACC_ATOMIC (E2E_ACC_ALL | RDMADEV_ACCESS_REMOTE_ATOMIC)
/* Device arguments of model @p n of generation @p gen (2 or 3) on wire @p wire. */
#define E2E_DEVARGS_GEN(n, gen, wire) "irdma_model" #n ",gen=" #gen \
	",qps=64,cqs=64,mrs=256,wire=" wire

/* Canary bytes before and after every test MR (one page each, so MRs stay page aligned). */
#define E2E_CANARY	4096u
/* The canary's byte value. */
#define E2E_CANARY_BYTE	0xa5u
/* Completions a CQ record holds before the test consumes them. */
#define E2E_CQ_REC	2048u

/* Completions collected from one CQ, consumed in order. */
struct e2e_cqrec {
	struct rdmadev_cq *cq;
	struct rdmadev_wc wc[E2E_CQ_REC];
	unsigned int head;	/* next to consume */
	unsigned int tail;	/* next free */
	unsigned int overflow;	/* completions lost because the record was full */
};

/* A device with one context, two PDs, a send CQ and a receive CQ. */
struct e2e_dev {
	int16_t id;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_pd *pd2;
	struct e2e_cqrec scq;
	struct e2e_cqrec rcq;
	uint8_t gid[16];
	uint8_t mac[6];
	/*
	 * The test loses frames on purpose (injected faults, a peer that never answers) or
	 * waits for timeouts. Otherwise e2e_dev_close() asserts a clean transport: no
	 * retransmit timer expiry, no sequence NAK, no duplicate request, and no request sent
	 * twice unless an RNR NAK asked for it.
	 */
	bool lossy;
	/*
	 * Timer expiries, duplicates and resends a test caused on purpose (e2e_excuse_begin()
	 * to e2e_excuse_end(), e2e_wire_hold() to e2e_wire_release()): a held request may time
	 * out on a busy machine before the test moves its QP to ERR, a test of tiny timeouts
	 * resends. e2e_dev_close() excuses exactly these.
	 */
	uint64_t held_timeouts, held_retx, held_dup, hold_to0, hold_retx0, hold_dup0;
};

/* A QP. */
struct e2e_qp {
	struct e2e_dev *dev;
	struct rdmadev_qp *qp;
	uint32_t qpn;
};

/* A registered buffer inside a canary-guarded allocation. */
struct e2e_mr {
	uint8_t *mem;		/* allocation: canary, buffer, canary */
	uint8_t *buf;		/* the registered bytes */
	uint64_t len;
	struct rdmadev_mr *mr;
	uint32_t lkey;
	uint32_t rkey;
};

/* Connection parameters of an RC pair. */
struct e2e_conn {
	uint32_t mtu;		/* enum rdmadev_mtu */
	uint32_t access;	/* remote rights of the QPs */
	uint8_t retry;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t timeout;
};

int e2e_dev_open(struct e2e_dev *d, const char *devargs);
/** e2e_dev_open() with @p nb_vectors completion vectors configured (its CQs on vector 0). */
int e2e_dev_open_vectors(struct e2e_dev *d, const char *devargs, uint32_t nb_vectors);
/* Close @p d: every test object must be gone (rdmadev_close reports 0 leaks); without
 * d->lossy, the transport was clean (no retransmission but for RNR, no timeout). */
void e2e_dev_close(struct e2e_dev *d);
/* From now on, timer expiries and resends on @p d are expected (a test of tiny timeouts). */
void e2e_excuse_begin(struct e2e_dev *d);
/* Until now: what happened since e2e_excuse_begin() is excused at close. */
void e2e_excuse_end(struct e2e_dev *d);
/* Drop every frame @p d's wire carries from now on (fault injection at 100 %); excused. */
int e2e_wire_hold(struct e2e_dev *d);
/* Carry frames again; the timeouts and resends of the hold are excused at close. */
int e2e_wire_release(struct e2e_dev *d);

int e2e_mr_reg(struct e2e_dev *d, struct rdmadev_pd *pd, struct e2e_mr *m, uint64_t len,
	       uint32_t access);
void e2e_mr_dereg(struct e2e_mr *m);
/* True when both canaries of @p m are intact. */
bool e2e_canary_ok(const struct e2e_mr *m);

/* An RC or UD QP with deep queues, 13 SGEs and 101 inline bytes, on @p d's CQs and PD. */
int e2e_qp_create(struct e2e_dev *d, struct e2e_qp *p, enum rdmadev_qp_type type,
		  struct rdmadev_pd *pd);
/* A QP of @p type with capacities @p cap on @p d's CQs and @p pd (NULL: @p d's first PD),
 * receiving from @p srq (NULL: from an RQ of its own). */
int e2e_qp_create_cap(struct e2e_dev *d, struct e2e_qp *p, enum rdmadev_qp_type type,
		      struct rdmadev_pd *pd, const struct rdmadev_qp_cap *cap,
		      struct rdmadev_srq *srq);
void e2e_qp_destroy(struct e2e_qp *p);
void e2e_conn_default(struct e2e_conn *c);
/* Connect RC QPs @p a and @p b to each other (@p c NULL: e2e_conn_default()). */
int e2e_rc_connect(struct e2e_qp *a, struct e2e_qp *b, const struct e2e_conn *c);
/* A UD QP to RTS with Q_Key @p qkey. */
int e2e_ud_up(struct e2e_qp *p, uint32_t qkey);
int e2e_qp_to(struct e2e_qp *p, enum rdmadev_qp_state s);

/* Post one send WR; true when the driver took it. */
bool e2e_send(struct e2e_qp *p, const struct rdmadev_send_wr *wr);
/* Post one receive of @p n SGEs with @p wr_id. */
bool e2e_recv(struct e2e_qp *p, uint64_t wr_id, const struct rdmadev_sge *sge, uint16_t n);

/* Poll every CQ of every open test device once. */
void e2e_collect(void);
/* Collect until @p r holds @p n completions (bounded); false if they did not come. */
bool e2e_wait(struct e2e_cqrec *r, unsigned int n);
/* Take the oldest completion of @p r (false when none). */
bool e2e_take(struct e2e_cqrec *r, struct rdmadev_wc *wc);
/* Wait for one completion on @p r and take it. */
bool e2e_next(struct e2e_cqrec *r, struct rdmadev_wc *wc);
/* Collect @p n times and return how many completions @p r holds (nothing consumed). */
unsigned int e2e_idle(struct e2e_cqrec *r, unsigned int n);
/* Completions by status, as e2e_tally() counts them. */
struct e2e_tally {
	unsigned int ok;	/* SUCCESS, before any WR_FLUSH_ERR */
	unsigned int flushed;	/* WR_FLUSH_ERR */
	unsigned int other;	/* any other status, or a SUCCESS after a flush */
};
/*
 * Wait for @p n completions on @p r, take them and count them in @p t by status (printed);
 * they should carry the wr_ids @p first, @p first + 1, ...: returns how many do not.
 */
unsigned int e2e_tally(struct e2e_cqrec *r, unsigned int n, uint64_t first, struct e2e_tally *t);
/* Expect the next completion of @p r: @p wr_id, @p status, @p opcode (opcode ignored for
 * errors other than success). */
void e2e_expect(struct e2e_cqrec *r, uint64_t wr_id, enum rdmadev_wc_status status,
		int opcode);

/* Model statistic @p field of device @p d (e.g. ceqes). */
uint64_t e2e_stat(struct e2e_dev *d, size_t off);
#define E2E_STAT(d, field) e2e_stat((d), offsetof(struct irdma_model_stats, field))

/* The SGE of @p len bytes at offset @p off of @p m. */
static inline struct rdmadev_sge
e2e_sge(const struct e2e_mr *m, uint64_t off, uint32_t len)
{
	return (struct rdmadev_sge){ (uint64_t)(uintptr_t)(m->buf + off), len, m->lkey };
}

void e2e_fill(uint8_t *p, size_t n, uint64_t seed);
uint64_t e2e_rand(uint64_t *s);

/* ---- gen3 helpers (test_irdma_gen3_*.c) ---- */

/* Post one signaled RDMA op @p op (wr_id @p id) of @p len bytes at offset @p loff of @p m to
 * remote @p rva / @p rkey. */
void e2e_rdma_op(struct e2e_qp *a, uint8_t op, const struct e2e_mr *m, uint64_t loff,
		 uint32_t len, uint64_t rva, uint32_t rkey, uint64_t id);
/* A signaled send WR of opcode @p op with @p nsge SGEs at @p sge. */
void e2e_wr_init(struct rdmadev_send_wr *wr, uint64_t id, uint8_t op,
		 const struct rdmadev_sge *sge, uint16_t nsge);
/* An atomic WR: its result into @p res (8 bytes of @p local at @p loff), target @p raddr. */
void e2e_atomic_wr(struct rdmadev_send_wr *wr, struct rdmadev_sge *res, uint64_t id,
		   uint8_t op, const struct e2e_mr *local, uint64_t loff, uint64_t raddr,
		   uint32_t rkey, uint64_t compare_add, uint64_t swap);
/* A connected RC pair a (on @p da) -> b (on @p db), QP rights @p access; local ACK timeout
 * 8 (about 1 ms, drops recover fast) when either device is lossy, else the default. */
int e2e_pair(struct e2e_dev *da, struct e2e_dev *db, struct e2e_qp *a, struct e2e_qp *b,
	     uint32_t access);
/* Destroy both QPs of a pair. */
void e2e_unpair(struct e2e_qp *a, struct e2e_qp *b);
/* Drop every completion collected for @p d. */
void e2e_drain(struct e2e_dev *d);
/* 8 bytes at @p p in host order (unaligned). */
uint64_t e2e_rd64(const uint8_t *p);
/* Store @p v in host order at @p p (unaligned). */
void e2e_wr64(uint8_t *p, uint64_t v);
/* The decoder of doc/hardware.md's fields: test_bits() of tests/common. */
#include "test_bits.h"
/* Little-endian qword @p n of the dumped WQE @p b. */
uint64_t e2e_qw(const uint8_t *b, unsigned int n);

#endif /* E2E_LIB_H */
