/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef UK_FIXTURE_H
#define UK_FIXTURE_H

/*
 * Test fixture of the data-path tests: a struct irdma_hw whose backend records register
 * writes (no model, no EAL device), QPs and CQs built in calloc'd memory, and the
 * bit positions of doc/hardware.md as plain numbers (the tests decode and build WQEs and CQEs with
 * these, never with base/).
 */

#include <stdbool.h>
#include <stdint.h>

#include "irdma_cq.h"
#include "irdma_hw.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

/* ---- doc/hardware.md positions (§1.2-§1.6, §2, §3, §4) ---- */

/* SQ header (quantum 0 qword 3). */
#define F_REMSTAG	31, 0
#define F_AHID		16, 0
#define F_STAGKEY	7, 0
#define F_STAGINDEX	31, 8
#define F_OPCODE	37, 32
#define F_ADDFRAGCNT	41, 38
#define F_LPBLSIZE	45, 44
#define F_HPAGESIZE	47, 46
#define F_IMMFLAG	47, 47
#define F_STAGRIGHTS	52, 48
#define F_VABASEDTO	53, 53
#define F_INLINELEN	55, 48
#define F_INLINEFLAG	57, 57
#define F_READFENCE	60, 60
#define F_LOCALFENCE	61, 61
#define F_SIGCOMPL	62, 62
#define F_VALID		63, 63

/* CQE qword 3 and the others. */
#define C_MINERR	15, 0
#define C_MAJERR	31, 16
#define C_WQEIDX	46, 32
#define C_EXT		50, 50
#define C_STAG		53, 53
#define C_ERROR		55, 55
#define C_OP		61, 56
#define C_SQ		62, 62
#define C_VALID		63, 63

/* Registers. */
#define REG_WQEALLOC	0x00504400u
#define REG_CQARM	0x00502c00u

/* The decoder: test_bits(), test_bits_put(), test_le64(), test_le64_put() (tests/common). */
#include "test_bits.h"

/** Field F (a "hi, lo" macro) of @p v. */
#define GETF(v, F) test_bits((v), F)
/** @p x placed in field F. */
#define PUTF(x, F) test_bits_put((x), F)

/* ---- recorded register writes ---- */

/** Register writes the fake backend saw since ukf_regs_clear(). */
extern unsigned int ukf_nb_writes;
/** Their offsets. */
extern uint32_t ukf_write_off[256];
/** Their values. */
extern uint32_t ukf_write_val[256];

/** Forget the recorded writes. */
void ukf_regs_clear(void);

/** A device whose register writes are recorded (bar0 NULL: every write traps). */
void ukf_hw_init(struct irdma_hw *hw);

/** What a test QP looks like. */
struct ukf_qp_conf {
	uint32_t sq_quanta;	/**< power of two */
	uint32_t rq_quanta;	/**< power of two */
	uint8_t rq_shift;	/**< RQ WQE size shift */
	uint8_t type;		/**< IRDMA_QP_TYPE_ROCE_RC / _UD */
	uint8_t max_send_sge;	/**< cap */
	uint8_t max_recv_sge;	/**< cap */
	uint8_t max_inline;	/**< cap */
};

/** The default: 512-quantum SQ, 64-quantum RQ of 128-byte WQEs, RC, full caps, RTS. */
extern const struct ukf_qp_conf ukf_qp_default;

/** Build @p qp in calloc'd memory on @p hw (id 0x123, HW state RTS). */
void ukf_qp_init(struct irdma_qp *qp, struct irdma_hw *hw, const struct ukf_qp_conf *conf);

/** Free what ukf_qp_init() allocated. */
void ukf_qp_fini(struct irdma_qp *qp);

/** Build @p cq with @p size entries (id 7) on @p hw; shadow area zeroed. */
void ukf_cq_init(struct irdma_cq *cq, struct irdma_hw *hw, uint32_t size);

/** Free what ukf_cq_init() allocated (and an old ring set with ukf_cq_old()). */
void ukf_cq_fini(struct irdma_cq *cq);

/* ---- what a post leaves (unchanged, or equal to a twin's) ---- */

/** A copy of a QP's queues: both rings, the SQ tracking entries, the RQ wr_ids, the heads. */
struct ukf_snap {
	uint8_t *sq;			/**< SQ ring bytes */
	uint8_t *rq;			/**< RQ ring bytes */
	uint8_t *trk;			/**< SQ tracking entries */
	uint8_t *rqw;			/**< RQ wr_ids */
	struct irdma_qp_ring s;		/**< the SQ's state (head, polarity) */
	struct irdma_qp_ring r;		/**< the RQ's state */
};

/** Copy @p qp's queues into @p sn (malloc'd: ukf_snap_check() or ukf_snap_free() frees). */
void ukf_snap_take(const struct irdma_qp *qp, struct ukf_snap *sn);

/** Check that nothing of @p qp's queues changed since ukf_snap_take(); free @p sn. */
void ukf_snap_check(const struct irdma_qp *qp, struct ukf_snap *sn);

/** Free @p sn unchecked. */
void ukf_snap_free(struct ukf_snap *sn);

/** Check that @p a and @p b have byte-identical SQs (ring, tracking, head, polarity). */
bool ukf_sq_equal(const struct irdma_qp *a, const struct irdma_qp *b);

/** A QP HW state and whether irdma_uk_post_send / irdma_uk_post_recv post in it. */
struct ukf_hw_state {
	uint8_t state;		/**< IRDMA_QP_HW_* */
	uint8_t send_ok;	/**< post_send (and send templates) post */
	uint8_t recv_ok;	/**< post_recv posts */
};

/** Every QP HW state. */
extern const struct ukf_hw_state ukf_hw_states[7];

#endif /* UK_FIXTURE_H */
