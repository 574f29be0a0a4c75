/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * What the rdmadev drivers `irdma_model` (irdma_dev_model.c) and `irdma` (irdma_dev_vfio.c)
 * share: the devargs parsing, the rdmadev ops over the control path and the probe both run
 * around their backend's open (irdma_dev_new(), irdma_dev_private.h).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include <unistd.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_kvargs.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "irdma_ah.h"
#include "irdma_cq.h"
#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_dev_private.h"
#include "irdma_dump.h"
#include "irdma_event.h"
#include "irdma_hmc.h"
#include "irdma_log.h"
#include "irdma_model.h"
#include "irdma_mr.h"
#include "irdma_port.h"
#include "irdma_qp.h"
#include "irdma_srq.h"
#include "irdma_stats.h"
#include "irdma_uk.h"

/* ---- devargs ---- */

/* Parse a decimal value in [lo, hi]. */
static int
irdma_dev_parse_u32(const char *name, const char *key, const char *v, uint32_t lo, uint32_t hi,
		    uint32_t *out)
{
	unsigned long long x;
	char *end;

	if (v == NULL || *v < '0' || *v > '9') {
		IRDMA_DEV_LOG(ERR, name, "devargs %s=%s: not a number", key, v ? v : "");
		return -EINVAL;
	}
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0' || x < lo || x > hi) {
		IRDMA_DEV_LOG(ERR, name, "devargs %s=%s: must be %u..%u", key, v, lo, hi);
		return -EINVAL;
	}
	*out = (uint32_t)x;
	return 0;
}

/* mac=xx:xx:xx:xx:xx:xx (a unicast address). */
static int
irdma_dev_parse_port(const char *name, const char *k, const char *v,
		     struct irdma_model_config *cfg)
{
	struct rte_ether_addr ea;

	RTE_SET_USED(k);
	if (v == NULL || rte_ether_unformat_addr(v, &ea) != 0 || strlen(v) != 17 ||
	    !rte_is_unicast_ether_addr(&ea) || rte_is_zero_ether_addr(&ea)) {
		IRDMA_DEV_LOG(ERR, name, "devargs mac=%s: not a unicast xx:xx:xx:xx:xx:xx address",
			      v ? v : "");
		return -EINVAL;
	}
	memcpy(cfg->mac, ea.addr_bytes, sizeof(cfg->mac));
	return 0;
}

/*
 * The model's PF (model_pf.c): pf_id=0..7 (PF_FUNC_RID, and the HMC function id it must be
 * given), rdma=0|1 (the RDMA capability), msix=N (MSI-X vectors reported), fw_api=MAJ.MIN
 * (GET_VERSION's API version), pf_init=0|1 (0: the driver skips the PF layer; benchmarks).
 * 1 when @p k is one of these (the result in *ret), 0 otherwise.
 */
static int
irdma_dev_parse_pf(const char *name, const char *k, const char *v,
		   struct irdma_model_config *cfg, struct irdma_hmc_request *req, int *ret)
{
	unsigned int maj, min;
	uint32_t x = 0;
	char tail;

	if (strcmp(k, "pf_id") == 0) {
		*ret = irdma_dev_parse_u32(name, k, v, 0, IRDMA_REG_MAX(PF_FUNC_RID_FUNCTION), &x);
		cfg->pf_id = (uint8_t)x;
		cfg->hmc_fn_id = (uint8_t)x;
	} else if (strcmp(k, "rdma") == 0) {
		*ret = irdma_dev_parse_u32(name, k, v, 0, 1, &x);
		cfg->rdma = x != 0;
	} else if (strcmp(k, "msix") == 0) {
		*ret = irdma_dev_parse_u32(name, k, v, 0, IRDMA_GLINT_VECTORS, &x);
		cfg->msix = (uint16_t)x;
	} else if (strcmp(k, "pf_init") == 0) {
		*ret = irdma_dev_parse_u32(name, k, v, 0, 1, &x);
		req->no_pf = x == 0;
	} else if (strcmp(k, "fw_api") == 0) {
		if (v == NULL || sscanf(v, "%u.%u%c", &maj, &min, &tail) != 2 || maj > 255 ||
		    min > 255) {
			IRDMA_DEV_LOG(ERR, name, "devargs fw_api=%s: must be MAJOR.MINOR (0..255)",
				      v ? v : "");
			*ret = -EINVAL;
		} else {
			cfg->fw_api_major = (uint8_t)maj;
			cfg->fw_api_minor = (uint8_t)min;
			*ret = 0;
		}
	} else {
		return 0;
	}
	return 1;
}

static int
irdma_dev_parse_kv(const char *name, const char *k, const char *v,
		   struct irdma_model_config *cfg, struct irdma_hmc_request *req)
{
	uint32_t x = 0;
	int ret;

	if (irdma_dev_parse_pf(name, k, v, cfg, req, &ret))
		return ret;
	if (strcmp(k, "gen") == 0) {
		ret = irdma_dev_parse_u32(name, k, v, 2, 3, &x);
		cfg->gen = (uint8_t)x;
		return ret;
	}
	if (strcmp(k, "mode") == 0) {
		if (v != NULL && strcmp(v, "inline") == 0)
			cfg->mode = IRDMA_MODEL_MODE_INLINE;
		else if (v != NULL && strcmp(v, "thread") == 0)
			cfg->mode = IRDMA_MODEL_MODE_THREAD;
		else {
			IRDMA_DEV_LOG(ERR, name, "devargs mode=%s: must be inline or thread",
				      v ? v : "");
			return -EINVAL;
		}
		return 0;
	}
	if (strcmp(k, "qps") == 0) {
		ret = irdma_dev_parse_u32(name, k, v, IRDMA_FIRST_USER_QP_ID + 1,
					  IRDMA_DEV_MAX_QPS, &x);
		/* The HMC QP count is a power of two (irdma_cfg_fpm_val). */
		req->qps = irdma_roundup_pow2_u32(x);
		return ret;
	}
	if (strcmp(k, "cqs") == 0)
		return irdma_dev_parse_u32(name, k, v, IRDMA_FIRST_USER_CQ_ID + 1,
					   IRDMA_DEV_MAX_CQS, &req->cqs);
	if (strcmp(k, "ring_pbl") == 0) {
		ret = irdma_dev_parse_u32(name, k, v, 0, 1, &x);
		req->ring_pbl = x != 0;
		return ret;
	}
	if (strcmp(k, "mrs") == 0)
		return irdma_dev_parse_u32(name, k, v, IRDMA_FIRST_USER_MR_IDX + 1,
					   IRDMA_DEV_MAX_MRS, &req->mrs);
	if (strcmp(k, "reset_poll_ms") == 0)
		return irdma_dev_parse_u32(name, k, v, 0, 60000, &req->reset_poll_ms);
	if (strcmp(k, "mtu") == 0)
		return irdma_dev_parse_u32(name, k, v, IRDMA_DEV_MIN_ETH_MTU,
					   IRDMA_DEV_MAX_ETH_MTU, &req->eth_mtu);
	if (strcmp(k, "ip") == 0)
		return 0; /* the GID table: irdma_dev_gids() */
	if (strcmp(k, "mac") == 0)
		return irdma_dev_parse_port(name, k, v, cfg);
	/* wire, pcap, wire_drop ... wire_seed: the model's wire (irdma_model.h) */
	ret = irdma_model_config_kv(cfg, k, v);
	if (ret != -ENOENT)
		return ret;
	IRDMA_DEV_LOG(ERR, name, "unknown devargs key \"%s\"", k);
	return -EINVAL;
}

static int
irdma_dev_parse(const char *name, const struct rte_kvargs *kv, struct irdma_model_config *cfg,
		struct irdma_hmc_request *req)
{
	unsigned int i;
	int ret;

	irdma_model_config_default(cfg);
	/* As a VFIO device in EAL's container: all EAL memory is reachable (MRs on it too). */
	cfg->map_eal = true;
	req->qps = IRDMA_DEV_DEF_QPS;
	req->cqs = IRDMA_DEV_DEF_CQS;
	req->mrs = IRDMA_DEV_DEF_MRS;
	req->reset_poll_ms = IRDMA_DEV_DEF_RESET_POLL_MS;
	req->eth_mtu = IRDMA_DEV_ETH_MTU;
	for (i = 0; kv != NULL && i < kv->count; i++) {
		ret = irdma_dev_parse_kv(name, kv->pairs[i].key, kv->pairs[i].value, cfg, req);
		if (ret != 0)
			return ret;
	}
	/* Gen3 has SRQs (HMC object 2); gen2 commits none. */
	req->srqs = cfg->gen >= IRDMA_GEN_3 ? IRDMA_DEV_DEF_SRQS : 0;
	return 0;
}

/*
 * The GID table from devargs `ip` (checked before anything is created: @p check) or the
 * default for the device (after the MAC is known: irdma_port.c).
 */
static int
irdma_dev_gids(const char *name, const struct rte_kvargs *kv, struct irdma_dev *d, bool check)
{
	uint8_t gid[IRDMA_GID_TBL_LEN][16];
	uint32_t i, n = 0;
	int ret;

	for (i = 0; kv != NULL && i < kv->count; i++) {
		if (strcmp(kv->pairs[i].key, "ip") != 0)
			continue;
		ret = irdma_port_parse_gids(name, kv->pairs[i].value, gid, &n);
		if (ret != 0)
			return ret;
	}
	if (check)
		return 0;
	d->gids_fixed = n != 0;
	if (n == 0)
		irdma_port_default_gids(name, d->model, d->hw.mac, gid, &n);
	memcpy(d->ctrl.gid, gid, sizeof(gid[0]) * n);
	d->ctrl.nb_gids = n;
	return 0;
}

/* ---- ops ---- */

static int
irdma_dev_info_get(struct rdmadev *dev, struct rdmadev_info *in)
{
	const struct irdma_dev *d = dev->dev_private;

	memset(in, 0, sizeof(*in));
	in->hw_gen = d->hw.gen;
	in->numa_node = d->hw.numa_node;
	in->capa = IRDMA_GEN2_FEATURES;
	/* Gen3: atomics and type-2 windows (windows share the MR STag indexes). */
	if (d->hw.gen >= IRDMA_GEN_3) {
		in->capa |= RDMADEV_CAPA_ATOMICS | RDMADEV_CAPA_MW;
		in->max_mw = d->req.mrs;
	}
	if (d->req.srqs != 0) {
		in->capa |= RDMADEV_CAPA_SRQ;
		in->max_srq = d->req.srqs;
		in->max_srq_wr = IRDMA_GEN3_MAX_SRQ_WR;
	}
	in->page_size_cap = IRDMA_PAGE_SIZE_CAP;
	in->max_mr_size = IRDMA_MAX_MR_SIZE;
	in->max_msg_size = IRDMA_MAX_MSG_SIZE;
	in->max_ctx = IRDMA_DEV_MAX_CTX;
	in->max_qp = d->req.qps;
	in->max_qp_wr = IRDMA_MAX_QP_WR;
	in->max_sge = IRDMA_MAX_SGE;
	in->max_sge_rd = IRDMA_MAX_SGE_RD;
	in->max_inline = IRDMA_MAX_INLINE_DATA;
	in->max_cq = d->req.cqs;
	in->min_cqe = IRDMA_MIN_CQ_SIZE;
	/*
	 * Gen2 rings take two slots per completion (extended CQEs) and one spare completion
	 * (irdma_cq.c): (cqe + 1) x 2 <= IRDMA_MAX_CQ_SIZE.
	 */
	in->max_cqe = d->hw.gen >= 2 ? IRDMA_MAX_CQ_SIZE / 2 - 1 : IRDMA_MAX_CQE_REPORTED;
	in->max_mr = d->req.mrs;
	in->max_pd = IRDMA_MAX_PDS;
	in->max_ah = IRDMA_HMC_AH_COUNT;
	in->max_fast_reg_pages = IRDMA_MAX_PAGES_PER_FMR;
	in->max_qp_rd_atom = IRDMA_MAX_IRD;
	in->max_qp_init_rd_atom = IRDMA_MAX_ORD;
	/* Instances 0..3 are the PFs' defaults: the rest can be allocated. */
	in->max_counters = IRDMA_MAX_STATS_INSTANCES - IRDMA_FIRST_NON_PF_STAT;
	/* Software objects: one completion counter per CQ, DMA handles per context's needs. */
	in->max_comp_cntr = d->req.cqs;
	in->max_dmah = IRDMA_DEV_MAX_DMAH;
	/*
	 * One CEQ per completion vector, CEQ k on MSI-X vector k: as many as the PMD sets up and
	 * the backend can signal. The function's own MSI-X count (LIST_FUNC_CAPS) is known only
	 * once started: start refuses more vectors than it gives (irdma_ctrl.c).
	 */
	in->max_comp_vectors = IRDMA_MAX_COMP_VECTORS;
	if (d->hw.nb_vectors != 0 && d->hw.nb_vectors < in->max_comp_vectors)
		in->max_comp_vectors = d->hw.nb_vectors;
	in->max_pkeys = 1;
	in->nb_ports = 1;
	return 0;
}

static int
irdma_dev_configure(struct rdmadev *dev, const struct rdmadev_conf *conf)
{
	struct irdma_dev *d = dev->dev_private;

	/* rdmadev checked 1 .. max_comp_vectors; the CEQs are made at start. */
	d->ctrl.nb_ceqs = conf->nb_comp_vectors;
	IRDMA_LOG(DEBUG, &d->hw, "configured: %u completion vectors", conf->nb_comp_vectors);
	return 0;
}

/* Check that what FPM committed is what open promised to rdmadev. */
static int
irdma_dev_check_commit(struct irdma_dev *d)
{
	const struct irdma_hmc *hmc = &d->ctrl.hmc;

	if (hmc->obj[IRDMA_HMC_OBJ_QP].cnt != d->req.qps ||
	    hmc->obj[IRDMA_HMC_OBJ_CQ].cnt != d->req.cqs ||
	    hmc->obj[IRDMA_HMC_OBJ_MR].cnt != d->req.mrs) {
		IRDMA_LOG(ERR, &d->hw, "committed HMC differs from the plan");
		return -EPROTO;
	}
	return 0;
}

static int
irdma_dev_start(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;
	int ret;

	ret = irdma_ctrl_bringup(&d->ctrl);
	if (ret != 0)
		return ret;
	/* The default GID table follows the MAC the PF layer read (the link-local address). */
	if (!d->gids_fixed)
		irdma_port_default_gids(d->hw.name, d->model, d->hw.mac, d->ctrl.gid,
					&d->ctrl.nb_gids);
	ret = irdma_dev_check_commit(d);
	if (ret == 0)
		ret = irdma_ah_tab_init(&d->ctrl);
	if (ret == 0) {
		ret = irdma_stats_init(&d->ctrl);
		if (ret != 0)
			irdma_ah_tab_fini(&d->ctrl);
	}
	if (ret != 0) {
		irdma_ctrl_teardown(&d->ctrl);
		return ret;
	}
	d->up = true;
	return 0;
}

static int
irdma_dev_stop(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;
	uint32_t live = __atomic_load_n(&d->ctrl.nb_cqs, __ATOMIC_RELAXED);

	if (live != 0) {
		IRDMA_LOG(ERR, &d->hw, "stop refused: %u CQs still exist", live);
		return -EBUSY;
	}
	live = __atomic_load_n(&d->ctrl.nb_mrs, __ATOMIC_RELAXED);
	if (live != 0) {
		IRDMA_LOG(ERR, &d->hw, "stop refused: %u MRs still exist", live);
		return -EBUSY;
	}
	live = __atomic_load_n(&d->ctrl.nb_ahs, __ATOMIC_RELAXED);
	if (live != 0) {
		IRDMA_LOG(ERR, &d->hw, "stop refused: %u AHs still exist", live);
		return -EBUSY;
	}
	live = irdma_stats_live(&d->ctrl);
	if (live != 0) {
		IRDMA_LOG(ERR, &d->hw, "stop refused: %u statistics counters still exist", live);
		return -EBUSY;
	}
	if (d->up) {
		irdma_stats_fini(&d->ctrl);
		irdma_ah_tab_fini(&d->ctrl);
		irdma_ctrl_teardown(&d->ctrl);
		d->up = false;
	}
	return 0;
}

static void
irdma_dev_free(struct irdma_dev *d)
{
	irdma_stats_fini(&d->ctrl);
	irdma_ah_tab_fini(&d->ctrl);
	if (d->up)
		irdma_ctrl_teardown(&d->ctrl);
	irdma_ctrl_fini(&d->ctrl);
	d->hw.be->close(&d->hw);
	free(d);
}

static int
irdma_dev_close(struct rdmadev *dev)
{
	irdma_dev_free(dev->dev_private);
	dev->dev_private = NULL;
	return 0;
}

/* The data-path functions rdmadev's inline fast path calls (irdma_uk_post.c, irdma_uk_poll.c). */
static void
irdma_dev_fp_set(struct rdmadev *dev)
{
	dev->fp_ops.post_send = irdma_uk_post_send;
	dev->fp_ops.post_recv = irdma_uk_post_recv;
	dev->fp_ops.poll_cq = irdma_uk_poll_cq;
	dev->fp_ops.cq_arm = irdma_uk_cq_arm;
	dev->fp_ops.post_srq_recv = irdma_uk_post_srq_recv;
	dev->fp_ops.post_send_tmpl = irdma_uk_post_send_tmpl;
}

/* rdmadev op send_tmpl_init: the data path's template of the QP (irdma_uk_tmpl.c). */
static int
irdma_dev_send_tmpl_init(struct rdmadev *dev, struct rdmadev_qp *qp,
			 const struct rdmadev_send_wr *proto, struct rdmadev_send_tmpl *t)
{
	RTE_SET_USED(dev);
	return irdma_uk_send_tmpl_init(qp->obj.fp.drv, proto, t);
}

/* ---- contexts and CQs ---- */

/* A context is bookkeeping only: the model has no doorbell page to map. */
static int
irdma_dev_ctx_alloc(struct rdmadev *dev, struct rdmadev_ctx *ctx)
{
	RTE_SET_USED(dev);
	ctx->doorbell = NULL;
	return 0;
}

static int
irdma_dev_ctx_free(struct rdmadev *dev, struct rdmadev_ctx *ctx)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(ctx);
	return 0;
}

static int
irdma_dev_cq_create(struct rdmadev *dev, struct rdmadev_cq *cq,
		    const struct rdmadev_cq_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_cq_create(&d->ctrl, cq, attr);
}

static int
irdma_dev_cq_resize(struct rdmadev *dev, struct rdmadev_cq *cq, uint32_t cqe)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_cq_resize(&d->ctrl, cq, cqe);
}

static int
irdma_dev_cq_destroy(struct rdmadev *dev, struct rdmadev_cq *cq)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_cq_destroy(&d->ctrl, cq);
}

/* ---- QPs (irdma_qp.c) ---- */

static int
irdma_dev_qp_create(struct rdmadev *dev, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_init_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_qp_create(&d->ctrl, qp, attr);
}

static int
irdma_dev_qp_modify(struct rdmadev *dev, struct rdmadev_qp *qp,
		    const struct rdmadev_qp_attr *attr, uint32_t mask)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_qp_modify(&d->ctrl, qp, attr, mask);
}

static int
irdma_dev_qp_query(struct rdmadev *dev, struct rdmadev_qp *qp, struct rdmadev_qp_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_qp_query(&d->ctrl, qp, attr);
}

static int
irdma_dev_qp_destroy(struct rdmadev *dev, struct rdmadev_qp *qp)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_qp_destroy(&d->ctrl, qp);
}

/* ---- PDs and MRs (irdma_mr.c) ---- */

/* A PD is an ID only: irdma has no PD command; the ID goes into STag and QP commands. */
static int
irdma_dev_pd_alloc(struct rdmadev *dev, struct rdmadev_pd *pd)
{
	struct irdma_dev *d = dev->dev_private;
	uint32_t id = rdmadev_obj_id(&pd->obj);

	if (id >= IRDMA_MAX_PDS) {
		IRDMA_LOG(ERR, &d->hw, "PD %u: beyond the %u PD ids", id, IRDMA_MAX_PDS);
		return -EINVAL;
	}
	return 0;
}

static int
irdma_dev_pd_free(struct rdmadev *dev, struct rdmadev_pd *pd)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(pd);
	return 0;
}

static int
irdma_dev_mr_reg(struct rdmadev *dev, struct rdmadev_mr *mr,
		 const struct rdmadev_mr_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_mr_reg(&d->ctrl, mr, attr);
}

static int
irdma_dev_mr_dereg(struct rdmadev *dev, struct rdmadev_mr *mr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_mr_dereg(&d->ctrl, mr);
}

/* ---- AHs and the ARP table (irdma_ah.c) ---- */

static int
irdma_dev_mw_alloc(struct rdmadev *dev, struct rdmadev_mw *mw)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_mw_alloc(&d->ctrl, mw);
}

static int
irdma_dev_mw_free(struct rdmadev *dev, struct rdmadev_mw *mw)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_mw_free(&d->ctrl, mw);
}

static int
irdma_dev_ah_create(struct rdmadev *dev, struct rdmadev_ah *ah,
		    const struct rdmadev_ah_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_ah_create(&d->ctrl, ah, attr);
}

static int
irdma_dev_ah_destroy(struct rdmadev *dev, struct rdmadev_ah *ah)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_ah_destroy(&d->ctrl, ah);
}

/* ---- SRQs (gen3; irdma_srq.c) ---- */

static int
irdma_dev_srq_create(struct rdmadev *dev, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_srq_create(&d->ctrl, srq, attr);
}

static int
irdma_dev_srq_modify(struct rdmadev *dev, struct rdmadev_srq *srq,
		     const struct rdmadev_srq_attr *attr, uint32_t mask)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_srq_modify(&d->ctrl, srq, attr, mask);
}

static int
irdma_dev_srq_query(struct rdmadev *dev, struct rdmadev_srq *srq, struct rdmadev_srq_attr *attr)
{
	RTE_SET_USED(dev);
	irdma_srq_query(srq, attr);
	return 0;
}

static int
irdma_dev_srq_destroy(struct rdmadev *dev, struct rdmadev_srq *srq)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_srq_destroy(&d->ctrl, srq);
}

/* ---- statistics (irdma_stats.c), completion counters, DMA handles, port ---- */

/* A model device's xstats are the hardware counters, then its wire's (irdma_model.h). */
#define WIRE_XSTAT(f) { #f, offsetof(struct irdma_model_wire_stats, f) }
static const struct {
	const char *name;
	size_t off;
} irdma_wire_xstats[] = {
	WIRE_XSTAT(wire_tx_frames),
	WIRE_XSTAT(wire_tx_bytes),
	WIRE_XSTAT(wire_rx_frames),
	WIRE_XSTAT(wire_rx_bytes),
	WIRE_XSTAT(wire_dropped),
	WIRE_XSTAT(wire_duplicated),
	WIRE_XSTAT(wire_reordered),
	WIRE_XSTAT(wire_corrupted),
	WIRE_XSTAT(wire_rx_no_port),
	WIRE_XSTAT(wire_rx_filtered),
	WIRE_XSTAT(wire_rx_other),
	WIRE_XSTAT(wire_tx_nombuf),
	WIRE_XSTAT(wire_arp_requests_rx),
	WIRE_XSTAT(wire_arp_replies_tx),
	WIRE_XSTAT(wire_arp_requests_tx),
	WIRE_XSTAT(wire_arp_replies_rx),
	WIRE_XSTAT(wire_arp_bad),
	WIRE_XSTAT(wire_arp_evicted),
	WIRE_XSTAT(wire_arp_unresolved),
	WIRE_XSTAT(wire_arp_failed),
	WIRE_XSTAT(wire_nd_solicits_rx),
	WIRE_XSTAT(wire_nd_adverts_tx),
	WIRE_XSTAT(wire_nd_solicits_tx),
	WIRE_XSTAT(wire_nd_adverts_rx),
	WIRE_XSTAT(wire_nd_bad),
};

static uint64_t
irdma_wire_stat(const struct irdma_model_wire_stats *st, unsigned int i)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)st + irdma_wire_xstats[i].off, sizeof(v));
	return v;
}

static int
irdma_dev_xstats_get(struct rdmadev *dev, struct rdmadev_xstat *xs, unsigned int n)
{
	struct irdma_dev *d = dev->dev_private;
	struct irdma_model_wire_stats st;
	unsigned int i, k;
	int hw, ret;

	hw = irdma_xstats_get(&d->ctrl, xs, n);
	if (hw < 0 || !d->model)
		return hw;
	if (n > (unsigned int)hw) {
		ret = irdma_model_wire_stats_get(&d->hw, &st);
		if (ret != 0)
			return ret;
		for (i = 0, k = (unsigned int)hw; i < RTE_DIM(irdma_wire_xstats) && k < n; i++, k++) {
			snprintf(xs[k].name, sizeof(xs[k].name), "%s", irdma_wire_xstats[i].name);
			xs[k].value = irdma_wire_stat(&st, i) - irdma_wire_stat(&d->wire_base, i);
		}
	}
	return hw + (int)RTE_DIM(irdma_wire_xstats);
}

static int
irdma_dev_xstats_reset(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;
	int ret;

	ret = irdma_xstats_reset(&d->ctrl);
	if (ret == 0 && d->model)
		ret = irdma_model_wire_stats_get(&d->hw, &d->wire_base);
	return ret;
}

static int
irdma_dev_param_set(struct rdmadev *dev, const char *key, const char *value)
{
	struct irdma_dev *d = dev->dev_private;

	if (!d->model) {
		IRDMA_LOG(ERR, &d->hw, "param %s: this backend changes no parameter at run time",
			  key);
		return -ENOTSUP;
	}
	return irdma_model_param_set(&d->hw, key, value);
}

static int
irdma_dev_counter_alloc(struct rdmadev *dev, struct rdmadev_counter *c)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_counter_alloc(&d->ctrl, c);
}

static int
irdma_dev_counter_free(struct rdmadev *dev, struct rdmadev_counter *c)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_counter_free(&d->ctrl, c);
}

static int
irdma_dev_counter_bind(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_counter_bind(&d->ctrl, c, qp, true);
}

static int
irdma_dev_counter_unbind(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_qp *qp)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_counter_bind(&d->ctrl, c, qp, false);
}

static int
irdma_dev_counter_read(struct rdmadev *dev, struct rdmadev_counter *c, struct rdmadev_xstat *xs,
		       unsigned int n)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_counter_read(&d->ctrl, c, xs, n);
}

/*
 * Completion counters: gen2 has none in hardware. The value lives in
 * rdmadev_comp_cntr::value; the poll path adds the completions of the CQs created with the
 * counter (irdma_cq::comp_cntr), and a read is a relaxed load of it.
 */
static int
irdma_dev_comp_cntr_create(struct rdmadev *dev, struct rdmadev_comp_cntr *cc)
{
	RTE_SET_USED(dev);
	__atomic_store_n(&cc->value, 0, __ATOMIC_RELAXED);
	return 0;
}

static int
irdma_dev_comp_cntr_read(struct rdmadev *dev, struct rdmadev_comp_cntr *cc, uint64_t *value)
{
	RTE_SET_USED(dev);
	/* relaxed: a count, ordered with nothing else */
	*value = __atomic_load_n(&cc->value, __ATOMIC_RELAXED);
	return 0;
}

static int
irdma_dev_comp_cntr_destroy(struct rdmadev *dev, struct rdmadev_comp_cntr *cc)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(cc);
	return 0;
}

/* True when NUMA node @p node is one EAL detected. */
static bool
irdma_dev_numa_exists(int node)
{
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == node)
			return true;
	return false;
}

/*
 * A DMA handle is a recorded hint: the PMD has no TPH steering on gen2 yet, so nothing in
 * the device changes. The hint must name a CPU and a NUMA node the machine has.
 */
static int
irdma_dev_dmah_alloc(struct rdmadev *dev, struct rdmadev_dmah *dmah,
		     const struct rdmadev_dmah_attr *attr)
{
	struct irdma_dev *d = dev->dev_private;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	RTE_SET_USED(dmah);
	if (attr->cpu_id != -1 && (ncpu <= 0 || attr->cpu_id >= ncpu)) {
		IRDMA_LOG(ERR, &d->hw, "DMA handle: CPU %d does not exist (%ld CPUs)",
			  attr->cpu_id, ncpu);
		return -EINVAL;
	}
	if (attr->numa_node != -1 && !irdma_dev_numa_exists(attr->numa_node)) {
		IRDMA_LOG(ERR, &d->hw, "DMA handle: NUMA node %d does not exist",
			  attr->numa_node);
		return -EINVAL;
	}
	return 0;
}

static int
irdma_dev_dmah_free(struct rdmadev *dev, struct rdmadev_dmah *dmah)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(dmah);
	return 0;
}

/* Driver attributes of the resource dump: counter instances, DMA handle hints. */
static int
irdma_dev_res_fill(struct rdmadev *dev, const struct rdmadev_obj *obj,
		   struct restrack_dump_rec *rec)
{
	const struct rdmadev_dmah *dh;
	const struct rdmadev_mr *mr;

	RTE_SET_USED(dev);
	switch (obj->type) {
	case RDMADEV_OBJ_COUNTER:
		return restrack_dump_attr(rec, "stats-instance", "%u",
					  irdma_counter_instance((const void *)obj));
	case RDMADEV_OBJ_DMAH:
		dh = (const void *)obj;
		restrack_dump_attr(rec, "cpu", "%d", dh->attr.cpu_id);
		restrack_dump_attr(rec, "numa", "%d", dh->attr.numa_node);
		restrack_dump_attr(rec, "ph", "%u", dh->attr.ph);
		return restrack_dump_attr(rec, "tph", "%s", "off");
	case RDMADEV_OBJ_MR:
		mr = (const void *)obj;
		if (mr->dmah == NULL)
			return 0;
		return restrack_dump_attr(rec, "dmah", "%u", rdmadev_obj_id(&mr->dmah->obj));
	default:
		return 0;
	}
}

/*
 * Largest path MTU (enum rdmadev_mtu) an Ethernet MTU of @p mtu bytes carries: its payload
 * and the largest RoCEv2 headers (IRDMA_DEV_ROCE_HDRS) fit.
 */
static uint8_t
irdma_dev_path_mtu(uint32_t mtu)
{
	uint8_t m = RDMADEV_MTU_4096;

	while (m > RDMADEV_MTU_256 && (128u << m) + IRDMA_DEV_ROCE_HDRS > mtu)
		m--;
	return m;
}

static int
irdma_dev_port_info_get(struct rdmadev *dev, struct rdmadev_port_info *pi)
{
	const struct irdma_dev *d = dev->dev_private;

	const struct irdma_pf *pf = &d->ctrl.pf;

	memcpy(pi->mac, d->hw.mac, sizeof(pi->mac));
	/* The link as the PF layer knows it (GET_LINK_STATUS, then ARQ events); without the
	 * PF layer (pf_init=0 on the model, whose port is up) the model's port is ACTIVE. */
	if (d->req.no_pf)
		pi->state = d->model ? RDMADEV_PORT_ACTIVE : RDMADEV_PORT_DOWN;
	else
		pi->state = pf->up && __atomic_load_n(&pf->link_up, __ATOMIC_RELAXED) ?
			    RDMADEV_PORT_ACTIVE : RDMADEV_PORT_DOWN;
	pi->speed_mbps = pf->up ? __atomic_load_n(&pf->speed_mbps, __ATOMIC_RELAXED) : 0;
	pi->pf_id = pf->pf_id_valid ? pf->pf_id : -1;
	if (pf->fw_major != 0 || pf->api_major != 0)
		snprintf(pi->fw_ver, sizeof(pi->fw_ver), "%u.%u.%u api %u.%u.%u", pf->fw_major,
			 pf->fw_minor, pf->fw_patch, pf->api_major, pf->api_minor, pf->api_patch);
	pi->vsi = pf->vsi_valid ? (int16_t)pf->vsi_num : -1;
	if (pf->qset_valid) {
		pi->nb_qsets = 1;
		pi->qs_handle[0] = pf->qs_handle;
	}
	pi->mtu = d->req.eth_mtu != 0 ? d->req.eth_mtu : IRDMA_DEV_ETH_MTU;
	pi->max_mtu = RDMADEV_MTU_4096;
	pi->active_mtu = irdma_dev_path_mtu(pi->mtu);
	pi->gid_tbl_len = d->ctrl.nb_gids;
	return 0;
}

static int
irdma_dev_gid_get(struct rdmadev *dev, uint32_t index, uint8_t gid[16])
{
	const struct irdma_dev *d = dev->dev_private;

	if (index >= d->ctrl.nb_gids)
		return -EINVAL;
	memcpy(gid, d->ctrl.gid[index], 16);
	return 0;
}

static int
irdma_dev_neigh_resolve(struct rdmadev *dev, uint32_t sgid_index, const uint8_t dgid[16],
			uint8_t mac[6])
{
	const struct irdma_dev *d = dev->dev_private;

	if (!d->model)
		return -ENOTSUP;	/* the host's stack owns the neighbours of a real port */
	if (sgid_index >= d->ctrl.nb_gids)
		return -EINVAL;
	return irdma_model_neigh((struct irdma_hw *)&d->hw, d->ctrl.gid[sgid_index], dgid, mac);
}

/* ---- asynchronous events (irdma_event.c) ---- */

static int
irdma_dev_event_process(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;
	bool vec0, poll;
	uint32_t fired;
	int n = 0, ret;

	if (!d->up)
		return 0;
	/*
	 * Which vectors fired (eventfd reads, no register access). The causes of vector 0 other
	 * than the AEQ and CEQ 0 (a device reset in PFINT_OICR, AdminQ events) cost a register
	 * read each, so they are looked at only when it fired, or on every pass when polled.
	 */
	fired = irdma_intr_collect(&d->ctrl);
	vec0 = (fired & (UINT32_C(1) << IRDMA_CTRL_AEQ_VECTOR)) != 0;
	poll = irdma_pf_reset_poll_due(&d->ctrl);
	/* A device reset first (it ends all else), AdminQ events (link changes). */
	if ((vec0 || poll) && irdma_pf_reset_check(&d->ctrl, dev, vec0, poll) != 0) {
		irdma_intr_rearm(&d->ctrl, fired);
		return 1;
	}
	if (vec0)
		n = irdma_pf_events(&d->ctrl, dev);
	ret = irdma_event_process(&d->ctrl, dev);
	irdma_intr_rearm(&d->ctrl, fired);
	return ret < 0 ? ret : n + ret;
}

static int
irdma_dev_event_intr_fd(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;

	return d->up ? irdma_aeq_intr_enable(&d->ctrl) : -ENODEV;
}

/*
 * A reset no vector announces (after a function-level reset MSI-X is off) is found by the
 * event pass's reset poll: have rdmadev run a pass every reset_poll_ms even when nothing fires.
 */
static uint32_t
irdma_dev_event_period_ms(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;

	return d->up ? d->ctrl.req.reset_poll_ms : 0;
}

static int
irdma_dev_cq_events_check(struct rdmadev *dev)
{
	struct irdma_dev *d = dev->dev_private;

	return irdma_cq_events_check(&d->ctrl);
}

const struct rdmadev_ops irdma_dev_ops = {
	.dev_info_get = irdma_dev_info_get,
	.dev_configure = irdma_dev_configure,
	.dev_start = irdma_dev_start,
	.dev_stop = irdma_dev_stop,
	.dev_close = irdma_dev_close,
	.ctx_alloc = irdma_dev_ctx_alloc,
	.ctx_free = irdma_dev_ctx_free,
	.cq_create = irdma_dev_cq_create,
	.cq_resize = irdma_dev_cq_resize,
	.cq_destroy = irdma_dev_cq_destroy,
	.qp_create = irdma_dev_qp_create,
	.qp_modify = irdma_dev_qp_modify,
	.qp_query = irdma_dev_qp_query,
	.qp_destroy = irdma_dev_qp_destroy,
	.pd_alloc = irdma_dev_pd_alloc,
	.pd_free = irdma_dev_pd_free,
	.mr_reg = irdma_dev_mr_reg,
	.mr_dereg = irdma_dev_mr_dereg,
	.ah_create = irdma_dev_ah_create,
	.ah_destroy = irdma_dev_ah_destroy,
	.mw_alloc = irdma_dev_mw_alloc,
	.mw_free = irdma_dev_mw_free,
	.xstats_get = irdma_dev_xstats_get,
	.xstats_reset = irdma_dev_xstats_reset,
	.param_set = irdma_dev_param_set,
	.counter_alloc = irdma_dev_counter_alloc,
	.counter_free = irdma_dev_counter_free,
	.counter_bind = irdma_dev_counter_bind,
	.counter_unbind = irdma_dev_counter_unbind,
	.counter_read = irdma_dev_counter_read,
	.comp_cntr_create = irdma_dev_comp_cntr_create,
	.comp_cntr_read = irdma_dev_comp_cntr_read,
	.comp_cntr_destroy = irdma_dev_comp_cntr_destroy,
	.dmah_alloc = irdma_dev_dmah_alloc,
	.dmah_free = irdma_dev_dmah_free,
	.res_fill = irdma_dev_res_fill,
	.port_info_get = irdma_dev_port_info_get,
	.gid_get = irdma_dev_gid_get,
	.neigh_resolve = irdma_dev_neigh_resolve,
	.event_process = irdma_dev_event_process,
	.event_intr_fd = irdma_dev_event_intr_fd,
	.event_period_ms = irdma_dev_event_period_ms,
	.cq_events_check = irdma_dev_cq_events_check,
	.qp_dump_wqe = irdma_dump_wqe,
	.cq_dump_cqe = irdma_dump_cqe,
	.srq_create = irdma_dev_srq_create,
	.srq_modify = irdma_dev_srq_modify,
	.srq_query = irdma_dev_srq_query,
	.send_tmpl_init = irdma_dev_send_tmpl_init,
	.srq_destroy = irdma_dev_srq_destroy,
};

/* The ID spaces of irdma (doc/hardware.md §8): reserved QP 0-2, CQ 0-2, PD 0-2, MR index 0. */
static void
irdma_dev_res_cfg(struct rdmadev *dev, const struct irdma_hmc_request *req)
{
	struct restrack_config *rc = &dev->res_cfg;

	rc->type[RESTRACK_QP].nb_ids = req->qps;
	rc->type[RESTRACK_QP].nb_reserved = IRDMA_FIRST_USER_QP_ID;
	rc->type[RESTRACK_CQ].nb_ids = req->cqs;
	rc->type[RESTRACK_CQ].nb_reserved = IRDMA_FIRST_USER_CQ_ID;
	rc->type[RESTRACK_PD].nb_ids = IRDMA_MAX_PDS;
	rc->type[RESTRACK_PD].nb_reserved = IRDMA_FIRST_USER_PD_ID;
	rc->type[RESTRACK_MR].nb_ids = req->mrs;
	rc->type[RESTRACK_MR].nb_reserved = IRDMA_FIRST_USER_MR_IDX;
	/* Gen3 SRQ ids index HMC object 2; 0 is reserved as for MRs (an assumption). */
	rc->type[RESTRACK_SRQ].nb_ids = req->srqs;
	rc->type[RESTRACK_SRQ].nb_reserved = req->srqs != 0 ? 1 : 0;
}

int
irdma_dev_new(struct rdmadev *dev, const char *name, const struct rte_kvargs *kv,
	      const struct irdma_dev_backend *be)
{
	struct irdma_model_config cfg;
	struct irdma_dev *d;
	int ret;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		IRDMA_DEV_LOG(ERR, name, "no memory for the device state");
		return -ENOMEM;
	}
	ret = irdma_dev_parse(name, kv, &cfg, &d->req);
	if (ret == 0)
		ret = irdma_dev_gids(name, kv, d, true);
	if (ret == 0)
		ret = be->open(d, name, &cfg);
	if (ret != 0)
		goto fail;
	/* Logs name the device as the application opened it. */
	snprintf(d->hw.name, sizeof(d->hw.name), "%s", name);
	ret = irdma_ctrl_init(&d->ctrl, &d->hw, &d->req);
	if (ret != 0) {
		d->hw.be->close(&d->hw);
		goto fail;
	}
	(void)irdma_dev_gids(name, kv, d, false); /* checked above */
	dev->dev_private = d;
	irdma_dev_res_cfg(dev, &d->req);
	irdma_dev_fp_set(dev);
	be->opened(d, &cfg);
	return 0;
fail:
	free(d);
	return ret;
}

struct irdma_hw *
irdma_dev_hw(struct rdmadev *dev)
{
	struct irdma_dev *d;

	if (dev == NULL || dev->dev_private == NULL ||
	    (dev->drv != &irdma_model_driver && dev->drv != &irdma_vfio_driver))
		return NULL;
	d = dev->dev_private;
	return &d->hw;
}

/**
 * Link anchor: a static link pulls this object out of libirdma-pmd.a with
 * `-Wl,-u,irdma_pmd_drivers` (libirdma-pmd-static.pc does), and through irdma_dev_hw()'s
 * references to both drivers the objects holding their constructors (irdma_dev_model.c,
 * irdma_dev_vfio.c).
 */
const int irdma_pmd_drivers = 1;

struct irdma_ctrl *
irdma_dev_ctrl(struct rdmadev *dev)
{
	struct irdma_dev *d;

	if (irdma_dev_hw(dev) == NULL)
		return NULL;
	d = dev->dev_private;
	return &d->ctrl;
}
