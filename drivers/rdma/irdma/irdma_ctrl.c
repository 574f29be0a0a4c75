/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The control path: DMA memory, firmware readiness, CEQ0, the AEQ and
 * the bring-up / teardown sequence (doc/hardware.md §4, §5; the kernel's irdma_sc_ceq_create,
 * irdma_sc_aeq_create, irdma_ctrl_init_hw). The CQP and the CCQ live in irdma_cqp.c, the HMC
 * steps in irdma_hmc.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include <pbl.h>

#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_dma.h"
#include "irdma_event.h"
#include "irdma_hmc.h"
#include "irdma_log.h"
#include "irdma_mr.h"

RTE_LOG_REGISTER(irdma_logtype, pmd.rdma.irdma, NOTICE);

/* Memzone names are process-wide: every ctrl gets its own prefix number. */
static uint16_t irdma_ctrl_seq;

/* ---- DMA memory ---- */

int
irdma_dma_alloc(struct irdma_ctrl *c, struct irdma_dma_mem *m, size_t len, size_t align)
{
	char name[RTE_MEMZONE_NAMESIZE];
	int ret;

	memset(m, 0, sizeof(*m));
	snprintf(name, sizeof(name), "irdma%u_%u", c->seq,
		 __atomic_fetch_add(&c->mz_seq, 1, __ATOMIC_RELAXED));
	m->mz = rte_memzone_reserve_aligned(name, len, c->hw->numa_node < 0 ? SOCKET_ID_ANY :
					    c->hw->numa_node, RTE_MEMZONE_IOVA_CONTIG, align);
	if (m->mz == NULL) {
		IRDMA_LOG(DEBUG, c->hw, "no IOVA-contiguous memzone of %zu bytes: %s", len,
			  rte_strerror(rte_errno));
		return -ENOMEM;
	}
	m->va = m->mz->addr;
	m->iova = rte_mem_virt2iova(m->va);
	m->len = len;
	memset(m->va, 0, len);
	ret = irdma_hw_dma_map(c->hw, m->va, m->iova, len);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "DMA map of %zu bytes failed: %s", len, strerror(-ret));
		rte_memzone_free(m->mz);
		memset(m, 0, sizeof(*m));
	}
	return ret;
}

void
irdma_dma_free(struct irdma_ctrl *c, struct irdma_dma_mem *m)
{
	int ret;

	if (m->va == NULL)
		return;
	ret = irdma_hw_dma_unmap(c->hw, m->va, m->iova, m->len);
	if (ret != 0)
		IRDMA_LOG(ERR, c->hw, "DMA unmap of %zu bytes failed: %s", m->len,
			  strerror(-ret));
	if (m->mz != NULL)
		rte_memzone_free(m->mz);
	else
		rte_free(m->va);
	memset(m, 0, sizeof(*m));
}

/* ---- queue memory ---- */

/* Unmap the first @p n pieces of @p m's layout. */
static void
irdma_qmem_unmap(struct irdma_ctrl *c, struct irdma_qmem *m, uint32_t n)
{
	const struct pbl_seg *s;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		s = &m->layout->segs[i];
		ret = irdma_hw_dma_unmap(c->hw, (void *)(uintptr_t)s->va, s->iova, s->len);
		if (ret != 0)
			IRDMA_LOG(ERR, c->hw, "queue memory unmap of %" PRIu64 " bytes failed: %s",
				  s->len, strerror(-ret));
	}
}

int
irdma_qmem_alloc(struct irdma_ctrl *c, struct irdma_qmem *m, size_t len)
{
	const struct pbl_seg *s;
	uint32_t i;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = pbl_buf_alloc(len, c->hw->numa_node < 0 ? SOCKET_ID_ANY : c->hw->numa_node, 0,
			    &m->buf);
	if (ret == 0)
		ret = pbl_mem_resolve(m->buf.va, RTE_ALIGN_CEIL(len, IRDMA_HW_PAGE_SIZE),
				      &m->layout);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "no queue memory of %zu bytes: %s", len, strerror(-ret));
		pbl_buf_free(&m->buf);
		memset(m, 0, sizeof(*m));
		return ret;
	}
	for (i = 0; i < m->layout->nsegs; i++) {
		s = &m->layout->segs[i];
		ret = irdma_hw_dma_map(c->hw, (void *)(uintptr_t)s->va, s->iova, s->len);
		if (ret != 0) {
			IRDMA_LOG(ERR, c->hw, "queue memory map of %" PRIu64 " bytes failed: %s",
				  s->len, strerror(-ret));
			irdma_qmem_unmap(c, m, i);
			pbl_layout_free(m->layout);
			pbl_buf_free(&m->buf);
			memset(m, 0, sizeof(*m));
			return ret;
		}
	}
	return 0;
}

void
irdma_qmem_free(struct irdma_ctrl *c, struct irdma_qmem *m)
{
	if (m->buf.va == NULL)
		return;
	irdma_qmem_unmap(c, m, m->layout->nsegs);
	pbl_layout_free(m->layout);
	pbl_buf_free(&m->buf);
	memset(m, 0, sizeof(*m));
}

/* ---- firmware ---- */

int
irdma_ctrl_wait_fw(struct irdma_ctrl *c)
{
	uint64_t deadline = irdma_ctrl_deadline();

	do {
		if (irdma_rd32(c->hw, IRDMA_GLPE_CPUSTATUS0) == IRDMA_CPUSTATUS_READY &&
		    irdma_rd32(c->hw, IRDMA_GLPE_CPUSTATUS1) == IRDMA_CPUSTATUS_READY &&
		    irdma_rd32(c->hw, IRDMA_GLPE_CPUSTATUS2) == IRDMA_CPUSTATUS_READY)
			return 0;
		irdma_hw_service(c->hw);
		irdma_hw_poll_relax(c->hw);
	} while (!irdma_ctrl_expired(deadline));
	IRDMA_LOG(ERR, c->hw, "firmware not ready after %u ms", IRDMA_CTRL_TIMEOUT_MS);
	return -ETIMEDOUT;
}

/* ---- the CEQs and the AEQ ---- */

static int
irdma_ceq_create(struct irdma_ctrl *c, uint32_t id)
{
	struct irdma_ctrl_eq *eq = &c->ceq[id];
	struct irdma_cqp_wqe w;
	int ret;

	eq->size = IRDMA_CTRL_CEQ_SIZE;
	ret = irdma_dma_alloc(c, &eq->ring, (size_t)eq->size * IRDMA_CEQE_SIZE,
			      IRDMA_HW_PAGE_SIZE);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CEQ %u memory: %s", id, strerror(-ret));
		return ret;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_CREATE_CEQ);
	irdma_set(&w, CQP_CEQ_ID, id);
	irdma_set(&w, CQP_CEQ_SIZE, eq->size);
	irdma_set(&w, CQP_CEQ_PA, eq->ring.iova);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "CEQ %u create failed: %s", id, strerror(-ret));
		irdma_dma_free(c, &eq->ring);
		return ret;
	}
	eq->head = 0;
	eq->polarity = IRDMA_EQ_POLARITY_INIT;
	eq->created = true;
	return 0;
}

static void
irdma_ceqs_destroy(struct irdma_ctrl *c)
{
	struct irdma_cqp_wqe w;
	uint32_t k;

	/* In reverse: CEQ 0 (the CCQ's) last. */
	for (k = IRDMA_MAX_COMP_VECTORS; k-- > 0;) {
		if (c->ceq[k].created) {
			irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DESTROY_CEQ);
			irdma_set(&w, CQP_CEQ_ID, k);
			if (irdma_cqp_exec(c, &w, NULL) != 0)
				IRDMA_LOG(ERR, c->hw, "CEQ %u destroy failed", k);
			c->ceq[k].created = false;
		}
		irdma_dma_free(c, &c->ceq[k].ring);
	}
}

/* One CEQ per configured completion vector, CEQ k on MSI-X vector k. */
static int
irdma_ceqs_create(struct irdma_ctrl *c)
{
	uint32_t k;
	int ret = 0;

	if (c->nb_ceqs > c->hmc.max_ceqs) {
		IRDMA_LOG(ERR, c->hw, "%u completion vectors configured: the function may create "
			  "%u CEQs (QUERY_FPM_VAL)", c->nb_ceqs, c->hmc.max_ceqs);
		return -EINVAL;
	}
	for (k = 0; k < c->nb_ceqs && ret == 0; k++)
		ret = irdma_ceq_create(c, k);
	return ret;
}

/*
 * The completion vectors asked for against what the function has: its MSI-X vectors
 * (LIST_FUNC_CAPS) and the vectors the backend can signal (VFIO: what the device offers).
 */
static int
irdma_ctrl_vectors_check(struct irdma_ctrl *c)
{
	if (c->nb_ceqs == 0)
		c->nb_ceqs = 1;
	if (c->nb_ceqs > IRDMA_MAX_COMP_VECTORS) {
		IRDMA_LOG(ERR, c->hw, "%u completion vectors configured: the PMD sets up at most %u",
			  c->nb_ceqs, IRDMA_MAX_COMP_VECTORS);
		return -EINVAL;
	}
	if (!c->req.no_pf && c->nb_ceqs > c->pf.msix) {
		IRDMA_LOG(ERR, c->hw, "%u completion vectors configured: the function has %u "
			  "MSI-X vectors (LIST_FUNC_CAPS)", c->nb_ceqs, c->pf.msix);
		return -EINVAL;
	}
	if (c->hw->nb_vectors != 0 && c->nb_ceqs > c->hw->nb_vectors) {
		IRDMA_LOG(ERR, c->hw, "%u completion vectors configured: the device offers %u "
			  "interrupt vectors", c->nb_ceqs, c->hw->nb_vectors);
		return -EINVAL;
	}
	return 0;
}

static int
irdma_aeq_create(struct irdma_ctrl *c)
{
	struct irdma_ctrl_eq *eq = &c->aeq;
	struct irdma_cqp_wqe w;
	int ret;

	eq->size = IRDMA_CTRL_AEQ_SIZE;
	ret = irdma_dma_alloc(c, &eq->ring, (size_t)eq->size * IRDMA_AEQE_SIZE,
			      IRDMA_HW_PAGE_SIZE);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "AEQ memory: %s", strerror(-ret));
		return ret;
	}
	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_CREATE_AEQ);
	irdma_set(&w, CQP_AEQ_SIZE, eq->size);
	irdma_set(&w, CQP_AEQ_PA, eq->ring.iova);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		irdma_dma_free(c, &eq->ring);
		return ret;
	}
	eq->head = 0;
	eq->polarity = IRDMA_EQ_POLARITY_INIT;
	eq->created = true;
	return 0;
}

static void
irdma_aeq_destroy(struct irdma_ctrl *c)
{
	struct irdma_cqp_wqe w;

	irdma_aeq_intr_disable(c);
	if (c->aeq.created) {
		irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_DESTROY_AEQ);
		if (irdma_cqp_exec(c, &w, NULL) != 0)
			IRDMA_LOG(ERR, c->hw, "AEQ destroy failed");
		c->aeq.created = false;
	}
	irdma_dma_free(c, &c->aeq.ring);
}

/* ---- PBLE pool ---- */

/* CPU address and IOVA of FPM byte @p fpm through the SD backing; false when unbacked. */
static bool
irdma_hmc_fpm_mem(const struct irdma_hmc *hmc, uint64_t fpm, uint8_t **va, rte_iova_t *iova)
{
	uint32_t sd_idx = irdma_hmc_sd_index(fpm);
	const struct irdma_hmc_sd *sd;
	const struct irdma_dma_mem *m;
	uint64_t off;

	if (hmc->sds == NULL || sd_idx < hmc->sd_first || sd_idx - hmc->sd_first >= hmc->sd_cnt)
		return false;
	sd = &hmc->sds[sd_idx - hmc->sd_first];
	if (sd->type == IRDMA_SD_TYPE_DIRECT) {
		m = &sd->direct;
		off = fpm % IRDMA_HMC_SD_SIZE;
	} else if (sd->type == IRDMA_SD_TYPE_PAGED && sd->pages != NULL) {
		m = &sd->pages[irdma_hmc_pd_index(fpm) % IRDMA_HMC_PD_PER_SD];
		off = fpm % IRDMA_HMC_PD_SIZE;
	} else {
		return false;
	}
	if (m->va == NULL)
		return false;
	*va = (uint8_t *)m->va + off;
	*iova = m->iova + off;
	return true;
}

int
irdma_pble_pool_create(struct irdma_ctrl *c)
{
	const struct irdma_hmc_obj_info *o = &c->hmc.obj[IRDMA_HMC_OBJ_PBLE];
	uint64_t size = (uint64_t)o->cnt * IRDMA_HMC_PBLE_OBJ_SIZE;
	struct pbl_pool_conf conf;
	uint8_t *va0, *va;
	rte_iova_t iova0, iova;
	uint64_t len;
	int ret;

	if (o->cnt == 0 || !irdma_hmc_fpm_mem(&c->hmc, o->base, &va0, &iova0)) {
		IRDMA_LOG(ERR, c->hw, "PBLE pool: no backed PBLE object");
		return -EPROTO;
	}
	/* The longest VA-contiguous prefix, page by page (the base is 4 KB aligned). */
	for (len = IRDMA_HMC_PD_SIZE - o->base % IRDMA_HMC_PD_SIZE; len < size;
	     len += IRDMA_HMC_PD_SIZE)
		if (!irdma_hmc_fpm_mem(&c->hmc, o->base + len, &va, &iova) || va != va0 + len)
			break;
	len = RTE_MIN(len, size);
	if (len < size)
		IRDMA_LOG(WARNING, c->hw,
			  "PBLE pool: backing VA-contiguous for %" PRIu64 " of %u PBLEs only",
			  len / IRDMA_HMC_PBLE_OBJ_SIZE, o->cnt);
	memset(&conf, 0, sizeof(conf));
	conf.base_va = va0;
	conf.base_iova = iova0;
	conf.size = len;
	conf.name = c->hw->name;
	ret = pbl_pool_create(&conf, &c->pble_pool);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "PBLE pool: %s", strerror(-ret));
		c->pble_pool = NULL;
	}
	return ret;
}

void
irdma_pble_pool_destroy(struct irdma_ctrl *c)
{
	if (c->pble_pool == NULL)
		return;
	if (pbl_pool_destroy(c->pble_pool) != 0)
		IRDMA_LOG(ERR, c->hw, "PBLE pool destroyed with runs still allocated");
	c->pble_pool = NULL;
}

/* ---- bring-up ---- */

int
irdma_ctrl_init(struct irdma_ctrl *c, struct irdma_hw *hw, const struct irdma_hmc_request *req)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->hw = hw;
	c->req = *req;
	c->seq = __atomic_fetch_add(&irdma_ctrl_seq, 1, __ATOMIC_RELAXED);
	c->aeq_irq_fd = -1;
	c->intr_fd = -1;
	memset(c->irq_fd, 0xff, sizeof(c->irq_fd));	/* all -1 */
	c->ring_pbl = req->ring_pbl;
	ret = pthread_mutex_init(&c->cqp.lock, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, hw, "CQP lock: %s", strerror(ret));
		return -ret;
	}
	ret = pthread_mutex_init(&c->ceq_lock, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, hw, "CEQ lock: %s", strerror(ret));
		pthread_mutex_destroy(&c->cqp.lock);
		return -ret;
	}
	ret = pthread_mutex_init(&c->aeq_lock, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, hw, "AEQ lock: %s", strerror(ret));
		pthread_mutex_destroy(&c->ceq_lock);
		pthread_mutex_destroy(&c->cqp.lock);
		return -ret;
	}
	return 0;
}

void
irdma_ctrl_fini(struct irdma_ctrl *c)
{
	pthread_mutex_destroy(&c->aeq_lock);
	pthread_mutex_destroy(&c->ceq_lock);
	pthread_mutex_destroy(&c->cqp.lock);
}

/* HMC: query, size, commit, back. The FPM buffer lives only for the two FPM commands. */
static int
irdma_ctrl_hmc_setup(struct irdma_ctrl *c)
{
	uint32_t cnt[IRDMA_HMC_OBJ_MAX];
	int ret;

	ret = irdma_dma_alloc(c, &c->fpm_buf, IRDMA_FPM_BUF_SIZE, IRDMA_CQP_SQ_ALIGN);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "FPM buffer: %s", strerror(-ret));
		return ret;
	}
	ret = irdma_hmc_query(c);
	if (ret == 0)
		ret = irdma_hmc_size(c, cnt);
	if (ret == 0)
		ret = irdma_hmc_commit(c, cnt);
	irdma_dma_free(c, &c->fpm_buf);
	if (ret == 0)
		ret = irdma_hmc_back(c);
	return ret;
}

int
irdma_ctrl_bringup(struct irdma_ctrl *c)
{
	int ret = 0;

	if (!c->req.no_pf)
		ret = irdma_pf_bringup(c);
	if (ret != 0)
		return ret;
	ret = irdma_ctrl_vectors_check(c);
	if (ret == 0)
		ret = irdma_ctrl_wait_fw(c);
	if (ret == 0)
		ret = irdma_cqp_create(c);
	if (ret == 0)
		ret = irdma_ctrl_hmc_setup(c);
	if (ret == 0)
		ret = irdma_pble_pool_create(c);
	if (ret == 0)
		ret = irdma_umem_create(c);
	if (ret == 0)
		ret = irdma_ccq_create(c);
	if (ret == 0)
		ret = irdma_ceqs_create(c);
	if (ret == 0)
		ret = irdma_aeq_create(c);
	if (ret == 0 && !c->req.no_pf)
		ret = irdma_pf_qos_init(c);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "bring-up failed: %s", strerror(-ret));
		irdma_ctrl_teardown(c);
		return ret;
	}
	IRDMA_LOG(INFO, c->hw, "up: %u QPs, %u CQs, %u MRs committed, %u SDs backed, %u CEQs",
		  c->hmc.obj[IRDMA_HMC_OBJ_QP].cnt, c->hmc.obj[IRDMA_HMC_OBJ_CQ].cnt,
		  c->hmc.obj[IRDMA_HMC_OBJ_MR].cnt, c->hmc.sd_cnt, c->nb_ceqs);
	return 0;
}

void
irdma_ctrl_teardown(struct irdma_ctrl *c)
{
	irdma_pf_qos_fini(c);
	irdma_aeq_destroy(c);
	irdma_ceqs_destroy(c);
	irdma_ccq_destroy(c);
	irdma_umem_destroy(c);
	irdma_pble_pool_destroy(c);
	irdma_hmc_unback(c);
	irdma_dma_free(c, &c->fpm_buf);
	irdma_cqp_destroy(c);
	c->hmc.committed = false;
	irdma_pf_teardown(c);
	__atomic_store_n(&c->fatal, false, __ATOMIC_RELEASE);
	__atomic_store_n(&c->reset_seen, false, __ATOMIC_RELEASE);
}
