/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_ENGINE_LIB_H
#define TEST_ENGINE_LIB_H

/*
 * Helpers of the data-path engine tests: devices, CQs, PDs, QPs and MRs through rdmadev on
 * the model (the real control path), and a test-side "user space" that writes SQ / RQ WQEs
 * with its own encoder, rings the doorbells and decodes CQEs, all at doc/hardware.md's bit
 * positions (§1 - §4), independent of base/.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rdmadev.h>
#include <rdmadev_driver.h>

#include "irdma_cq.h"
#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_model.h"

/* SQ opcodes (doc/hardware.md §1.3). */
enum {
	T_OP_WRITE = 0x00,
	T_OP_READ = 0x01,
	T_OP_SEND = 0x03,
	T_OP_SEND_INV = 0x04,
	T_OP_SEND_SE = 0x05,
	T_OP_SEND_SE_INV = 0x06,
	T_OP_FAST_REG = 0x09,
	T_OP_LOCAL_INV = 0x0a,
	T_OP_READ_LOC_INV = 0x0b,
	T_OP_NOP = 0x0c,
	T_OP_WRITE_SOL = 0x0d,
};

/* Flush minor codes (§3). */
enum {
	T_FLUSH_GENERAL = 1,
	T_FLUSH_PROT = 2,
	T_FLUSH_REM_ACCESS = 3,
	T_FLUSH_LOC_QP_OP = 4,
	T_FLUSH_REM_OP = 5,
	T_FLUSH_LOC_LEN = 6,
	T_FLUSH_RETRY_EXC = 8,
	T_FLUSH_REM_INV_REQ = 10,
	T_FLUSH_RNR_RETRY_EXC = 11,
};

/* A decoded CQE. */
struct tcqe {
	uint32_t len;
	uint64_t ctx;
	uint32_t qw2lo;		/* invalidated STag or UD source QPN */
	uint32_t qpid;
	uint16_t minor;
	uint16_t major;
	uint32_t wqe_idx;
	bool ext;
	bool stag_or_ipv4;
	bool se;
	bool error;
	uint8_t op;
	bool sq;
	/* extension */
	uint32_t imm;
	bool imm_valid;
	uint64_t smac;
	bool smac_valid;
	uint16_t vlan;
	bool vlan_valid;
};

/* A CQ as the test's poller sees it. */
struct tcq {
	struct rdmadev_cq *cq;
	struct irdma_cq *drv;
	uint32_t head;
	uint8_t pol;
};

/* A device with one context, two PDs and a send and a receive CQ. */
struct tdev {
	int id;
	struct irdma_hw *hw;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_pd *pd2;
	struct tcq scq;
	struct tcq rcq;
	uint8_t gid[16];
};

/* A QP and the test's producer state of its rings. */
struct tqp {
	struct tdev *dev;
	struct rdmadev_qp *qp;
	struct irdma_qp *q;
	uint32_t qpn;
	uint32_t sq_head;
	uint8_t sq_pol;
	uint32_t rq_head;
	uint8_t rq_pol;
	bool use_db_page;	/* ring the user DB page instead of WQEALLOC */
};

/* A registered buffer. */
struct tmr {
	struct irdma_hw *hw;
	uint8_t *buf;
	uint64_t len;
	struct rdmadev_mr *mr;
	uint32_t lkey;
	uint32_t rkey;
};

/* One SGE. */
struct tsge {
	uint64_t addr;
	uint32_t lkey;
	uint32_t len;
};

/* What to post on an SQ. */
struct twr {
	uint8_t op;
	const struct tsge *sge;
	unsigned int nsge;
	bool signaled;
	bool has_imm;
	uint32_t imm;
	uint64_t rva;
	uint32_t rkey;		/* WRITE / READ rkey; SEND_INV / LOCAL_INV STag */
	const uint8_t *inl;	/* inline payload (NULL: SGEs) */
	uint32_t inl_len;
	/* UD */
	uint32_t ah_id;
	uint32_t dqpn;
	uint32_t qkey;
	/* FAST_REG */
	uint64_t fr_va;
	uint64_t fr_len;
	uint32_t fr_stag;
	uint32_t fr_first_pble;
	uint8_t fr_chunk;	/* 0 phys, 1 L1, 3 L2 */
	uint8_t fr_rights;
};

/* Connection parameters of an RC pair. */
struct tconn {
	uint32_t mtu;		/* enum rdmadev_mtu */
	uint32_t access;	/* RDMADEV_ACCESS_* of the QPs */
	uint8_t retry;
	uint8_t rnr_retry;
	uint8_t timeout;
	bool ipv6;		/* address the peer by a link-local IPv6 GID */
	uint16_t vlan;		/* 802.1Q VID of both paths (PCP = SL 0); 0: untagged */
	bool no_dmac;		/* paths without the peer's MAC: the wire resolves it */
	uint32_t psn_a;		/* first PSN a sends */
	uint32_t psn_b;
};

#define T_POLL_MAX	16000000u

/*
 * Local ACK timeout of the tests that drop frames: 14, 67 ms. A peer's engine thread starved
 * for tens of milliseconds (busy machine, sanitized build) must not make 8 rounds in a row
 * without progress, which ends the QP in RETRY_EXC_ERR.
 */
#define T_LOSSY_TIMEOUT	14

/*
 * Open a model from @p devargs with a context, two PDs and two CQs. @return 0; -EADDRINUSE
 * (not a failed check) when its UDP wire's address is taken; -1 after a failed check.
 */
int tdev_open(struct tdev *t, const char *devargs);
void tdev_close(struct tdev *t);
/* tdev_open(); when it fails, tdev_close() what it opened. True when the device is up. */
bool tdev_up(struct tdev *t, const char *devargs);
void tdev_service(struct tdev *a, struct tdev *b);
/* The end of a test on one device: destroy @p a and @p b, deregister @p m, close @p t. */
void tdev_down(struct tdev *t, struct tqp *a, struct tqp *b, struct tmr *m);

int tmr_reg(struct tdev *t, struct rdmadev_pd *pd, struct tmr *m, uint64_t len, uint32_t access);
void tmr_dereg(struct tmr *m);

int tqp_create(struct tdev *t, struct tqp *p, enum rdmadev_qp_type type);
/* The same with send CQ @p scq. */
int tqp_create_cq(struct tdev *t, struct tqp *p, enum rdmadev_qp_type type,
		  struct rdmadev_cq *scq);
void tqp_destroy(struct tqp *p);
int tqp_connect(struct tqp *a, struct tqp *b, const struct tconn *c);
int tqp_to_err(struct tqp *p);
void tconn_default(struct tconn *c);

/* Reset @p wr to a signaled @p op over the @p nsge SGEs at @p sge (NULL, 0: none), rest 0. */
void twr_init(struct twr *wr, uint8_t op, const struct tsge *sge, unsigned int nsge);
uint32_t tpost_send(struct tqp *p, const struct twr *wr);
void tpost_recv(struct tqp *p, const struct tsge *sge, unsigned int nsge);
void tring(struct tqp *p);
/* Raw quanta straight into the SQ at its head (fuzzing); returns the index. */
uint32_t tpost_raw(struct tqp *p, const uint64_t *qw, unsigned int quanta);
/* The valid bit the next SQ WQE of @p p carries (before padding NOPs, if any). */
bool p_sq_pol_next(const struct tqp *p);

bool tpoll(struct tcq *c, struct tcqe *e);
/* Poll @p c, servicing @p a and @p b between tries; false after T_POLL_MAX tries. */
bool twait(struct tcq *c, struct tcqe *e, struct tdev *a, struct tdev *b);
/* Service both devices @p n times and return how many CQEs @p c got meanwhile (kept). */
unsigned int tidle(struct tcq *c, struct tdev *a, struct tdev *b, unsigned int n);

uint64_t tstat(struct tdev *t, size_t off);
/* The wire counters of @p t's port (irdma_model_wire_stats_get(), checked). */
struct irdma_model_wire_stats twstats(struct tdev *t);
#define TSTAT(t, field) tstat((t), offsetof(struct irdma_model_stats, field))

void tfill(uint8_t *p, size_t n, uint32_t seed);
/* xorshift64: reproducible numbers for the tests. */
uint64_t xrand(uint64_t *s);

/* Check a successful SQ completion of @p p for the WQE at @p idx with opcode @p op. */
void check_sq_cqe(const struct tcqe *e, const struct tqp *p, uint32_t idx, uint8_t op);
/* Wait for the SQ CQE of @p p and check it; false when none came. */
bool sq_done(struct tqp *p, struct tdev *other, uint32_t idx, uint8_t op);
/* Post @p wr on @p p, ring, and sq_done() for it with opcode @p op. */
bool tsend_done(struct tqp *p, struct tdev *other, const struct twr *wr, uint8_t op);
/* Wait for the RQ CQE of @p p and check it is a success of @p p. */
bool rq_done(struct tqp *p, struct tdev *other, struct tcqe *e);
/* A pair of connected RC QPs on one device (@p c NULL: tconn_default()). */
int pair_up(struct tdev *t, struct tqp *a, struct tqp *b, const struct tconn *c);
/* Expect one error CQE on @p c with flush minor @p minor at WQE @p idx. */
void expect_err(struct tcq *c, struct tdev *t, uint16_t minor, uint32_t idx);

/*
 * The model's mode is the fixture's variant (tests/common/test_fixture.h): tdev_up() appends
 * it to the devargs it is given.
 */
#include "test_fixture.h"

/* Device arguments of model @p n on wire @p wire (tdev_up() adds the mode). */
#define DEVARGS(n, wire) "irdma_model" #n ",qps=64,cqs=64,mrs=256,wire=" wire
/* Every right an MR or QP can have. */
#define ACC_ALL (RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE | \
		 RDMADEV_ACCESS_REMOTE_READ)

#endif /* TEST_ENGINE_LIB_H */
