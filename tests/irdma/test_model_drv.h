/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_MODEL_DRV_H
#define TEST_MODEL_DRV_H

/*
 * A test-side mini "driver" for the device model: EAL memory mapped through the model's
 * backend, the CQP brought up through the registers, commands posted by polarity and
 * completed through CQPTAIL (before the CCQ exists) or the CCQ. Written from
 * doc/hardware.md with base/ helpers only; it is not the PMD (that lives in drivers/).
 * Every wait is bounded in time (TM_WAIT_MS) and fails instead of hanging.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_cycles.h>
#include <rte_memzone.h>

#include "irdma_base.h"
#include "irdma_model.h"

/* How long a wait polls before it gives up: far past any model's answer, even on a loaded
 * machine where a threaded model's engine waits for a core. */
#define TM_WAIT_MS	10000u

/* The deadline of a wait starting now (for tm_polling()). */
static inline uint64_t
tm_deadline(void)
{
	return rte_get_timer_cycles() + rte_get_timer_hz() * TM_WAIT_MS / 1000u;
}

/*
 * A wait's loop condition, for (i = 0; tm_polling(hw, i, dl); i++): the first look at once,
 * each further one after irdma_hw_poll_relax() (a threaded model serves each register read
 * under its engine's mutex: a wait that read again at once would keep the engine from it),
 * none past @p deadline.
 */
static inline bool
tm_polling(struct irdma_hw *hw, uint32_t i, uint64_t deadline)
{
	if (i == 0)
		return true;
	irdma_hw_poll_relax(hw);
	return rte_get_timer_cycles() <= deadline;
}

/* One IOVA-contiguous, DMA-mapped buffer. */
struct tm_mem {
	const struct rte_memzone *mz;
	uint8_t *va;
	rte_iova_t iova;
	size_t len;
	bool paged;	/* mapped page by page (not IOVA-contiguous) */
};

/* What a command completed with. */
struct tm_res {
	int rc;			/* 0 completed, -ETIMEDOUT */
	uint16_t major;
	uint16_t minor;
	uint32_t idx;		/* CQP SQ slot (CCQ WQEIDX) */
	uint32_t retval;	/* CCQ OPRETVAL */
	uint64_t ctx;		/* CCQ completion context */
};

/* An HMC object as SW sees it after QUERY / COMMIT. */
struct tm_obj {
	uint64_t base;
	uint64_t size;
	uint32_t cnt;
	uint32_t max;
};

struct tmd {
	struct irdma_hw hw;
	struct tm_mem ctx, sq, fpmq, fpmc, sdbuf, ccq, ccq_shadow;
	uint32_t sq_size;
	uint32_t head;		/* next CQP slot SW writes */
	uint32_t pol;		/* SW CQP polarity */
	bool ccq_on;
	uint32_t ccq_size;
	uint32_t ccq_head;
	uint32_t ccq_pol;
	uint64_t compl_ctx;
	struct irdma_fpm_query query;
	struct tm_obj obj[IRDMA_HMC_OBJ_MAX];
	uint32_t first_sd;
	uint32_t max_sds;
	uint32_t max_ceqs;
};

int tm_init(struct tmd *t, const struct irdma_model_config *cfg);
void tm_fini(struct tmd *t);
int tm_mem_alloc(struct tmd *t, struct tm_mem *m, size_t len, size_t align);
int tm_mem_alloc_unmapped(struct tm_mem *m, size_t len, size_t align);
/* @p len bytes of 4 KB pages, each mapped at its own IOVA (a scattered buffer). */
int tm_pages_alloc(struct tmd *t, struct tm_mem *m, size_t len);
/* IOVA of byte @p off of @p m. */
rte_iova_t tm_mem_iova(const struct tm_mem *m, size_t off);
void tm_mem_free(struct tmd *t, struct tm_mem *m);
uint32_t tm_rd(struct tmd *t, uint32_t off);
void tm_wr(struct tmd *t, uint32_t off, uint32_t val);
int tm_wait_fw(struct tmd *t);
/* Fill a valid CQP host context for @p sq_size entries (tests then break it). */
void tm_cqp_ctx_fill(struct tmd *t, struct irdma_cqp_ctx *c, uint32_t sq_size);
/* Write @p c to the host context buffer, trigger CQP create, return CCQPSTATUS. */
uint32_t tm_cqp_create_ctx(struct tmd *t, const struct irdma_cqp_ctx *c, uint32_t sq_size);
int tm_cqp_destroy(struct tmd *t);
/* Post one WQE (not rung); returns its slot. */
uint32_t tm_post(struct tmd *t, const struct irdma_cqp_wqe *w);
void tm_ring(struct tmd *t);
/* Wait for the next CCQ CQE. */
void tm_wait_ccq(struct tmd *t, struct tm_res *r);
/* Wait until the CQP tail reaches SW's head (register mode). */
void tm_wait_regs(struct tmd *t, struct tm_res *r);
/* Post, ring, wait (registers or CCQ). */
void tm_exec(struct tmd *t, const struct irdma_cqp_wqe *w, struct tm_res *r);
void tm_wqe_op(struct irdma_cqp_wqe *w, uint32_t op);
int tm_query_fpm(struct tmd *t, struct tm_res *r);
int tm_commit_fpm(struct tmd *t, const uint32_t cnt[IRDMA_HMC_OBJ_MAX], struct tm_res *r);
/* SD entry qwords as the kernel's irdma_set_sd_entry builds them. */
void tm_sd_entry(uint32_t sd_idx, rte_iova_t pa, bool valid, bool direct, uint64_t *cmd,
		 uint64_t *data);

#endif /* TEST_MODEL_DRV_H */
