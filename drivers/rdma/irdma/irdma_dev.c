/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdmadev drivers `irdma_model` (the device model through the real control path) and
 * `irdma` (VFIO, refused until its backend exists).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_kvargs.h>
#include <rte_log.h>

#include "irdma_ctrl.h"
#include "irdma_dev.h"
#include "irdma_uk.h"
#include "irdma_model.h"
#include "irdma_vfio.h"

/** Device state of the PMD. */
struct irdma_dev {
	struct irdma_hw hw;		/**< the device (model backend) */
	struct irdma_ctrl ctrl;		/**< control path */
	struct irdma_hmc_request req;	/**< HMC sizing plan */
	bool up;			/**< bring-up done */
};

static const char *const irdma_model_keys[] = { "gen", "mode", "qps", "cqs", "mrs", "wire",
						 NULL };

/* Log through the PMD's log type before a hw exists. */
#define IRDMA_DEV_LOG(level, name, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_logtype, "irdma %s: " fmt "\n", name, ##__VA_ARGS__)

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

static int
irdma_dev_parse_kv(const char *name, const char *k, const char *v,
		   struct irdma_model_config *cfg, struct irdma_hmc_request *req)
{
	uint32_t x = 0;
	int ret;

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
	if (strcmp(k, "wire") == 0) {
		/* The model's wire (model_pkt.h model_port_attach); checked at attach. */
		if (v == NULL || strlen(v) >= sizeof(cfg->wire)) {
			IRDMA_DEV_LOG(ERR, name, "devargs wire=%s: empty or too long", v ? v : "");
			return -EINVAL;
		}
		snprintf(cfg->wire, sizeof(cfg->wire), "%s", v);
		return 0;
	}
	if (strcmp(k, "cqs") == 0)
		return irdma_dev_parse_u32(name, k, v, IRDMA_FIRST_USER_CQ_ID + 1,
					   IRDMA_DEV_MAX_CQS, &req->cqs);
	if (strcmp(k, "mrs") == 0)
		return irdma_dev_parse_u32(name, k, v, IRDMA_FIRST_USER_MR_IDX + 1,
					   IRDMA_DEV_MAX_MRS, &req->mrs);
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
	req->qps = IRDMA_DEV_DEF_QPS;
	req->cqs = IRDMA_DEV_DEF_CQS;
	req->mrs = IRDMA_DEV_DEF_MRS;
	for (i = 0; kv != NULL && i < kv->count; i++) {
		ret = irdma_dev_parse_kv(name, kv->pairs[i].key, kv->pairs[i].value, cfg, req);
		if (ret != 0)
			return ret;
	}
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
	in->max_cqe = IRDMA_MAX_CQE_REPORTED;
	in->max_mr = d->req.mrs;
	in->max_pd = IRDMA_MAX_PDS;
	in->max_ah = IRDMA_HMC_AH_COUNT;
	in->max_fast_reg_pages = IRDMA_MAX_PAGES_PER_FMR;
	in->max_qp_rd_atom = IRDMA_MAX_IRD;
	in->max_qp_init_rd_atom = IRDMA_MAX_ORD;
	in->max_counters = IRDMA_MAX_STATS_INSTANCES;
	/* Only CEQ0 is created: one completion vector. */
	in->max_comp_vectors = 1;
	in->max_pkeys = 1;
	in->nb_ports = 1;
	return 0;
}

static int
irdma_dev_configure(struct rdmadev *dev, const struct rdmadev_conf *conf)
{
	struct irdma_dev *d = dev->dev_private;

	RTE_SET_USED(conf);
	IRDMA_LOG(DEBUG, &d->hw, "configured");
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
	ret = irdma_dev_check_commit(d);
	if (ret == 0)
		ret = irdma_ah_tab_init(&d->ctrl);
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
	if (d->up) {
		irdma_ah_tab_fini(&d->ctrl);
		irdma_ctrl_teardown(&d->ctrl);
		d->up = false;
	}
	return 0;
}

static void
irdma_dev_free(struct irdma_dev *d)
{
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

/* The data-path functions rdmadev's inline fast path calls (irdma_uk.c). */
static void
irdma_dev_fp_set(struct rdmadev *dev)
{
	dev->fp_ops.post_send = irdma_uk_post_send;
	dev->fp_ops.post_recv = irdma_uk_post_recv;
	dev->fp_ops.poll_cq = irdma_uk_poll_cq;
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

static const struct rdmadev_ops irdma_model_ops = {
	.dev_info_get = irdma_dev_info_get,
	.dev_configure = irdma_dev_configure,
	.dev_start = irdma_dev_start,
	.dev_stop = irdma_dev_stop,
	.dev_close = irdma_dev_close,
	.ctx_alloc = irdma_dev_ctx_alloc,
	.ctx_free = irdma_dev_ctx_free,
	.cq_create = irdma_dev_cq_create,
	.cq_destroy = irdma_dev_cq_destroy,
	.qp_create = irdma_dev_qp_create,
	.qp_modify = irdma_dev_qp_modify,
	.qp_destroy = irdma_dev_qp_destroy,
	.pd_alloc = irdma_dev_pd_alloc,
	.pd_free = irdma_dev_pd_free,
	.mr_reg = irdma_dev_mr_reg,
	.mr_dereg = irdma_dev_mr_dereg,
	.ah_create = irdma_dev_ah_create,
	.ah_destroy = irdma_dev_ah_destroy,
};

/* The ID spaces of irdma (fact sheet §8): reserved QP 0-2, CQ 0-2, PD 0-2, MR index 0. */
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
}

static int
irdma_model_probe(struct rdmadev *dev, const char *name, const struct rte_kvargs *kv)
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
	if (ret != 0)
		goto fail;
	ret = irdma_model_create(&cfg, &d->hw);
	if (ret != 0) {
		IRDMA_DEV_LOG(ERR, name, "model create failed: %s", strerror(-ret));
		goto fail;
	}
	/* Logs name the device as the application opened it. */
	snprintf(d->hw.name, sizeof(d->hw.name), "%s", name);
	ret = irdma_ctrl_init(&d->ctrl, &d->hw, &d->req);
	if (ret != 0) {
		irdma_model_destroy(&d->hw);
		goto fail;
	}
	dev->dev_private = d;
	irdma_dev_res_cfg(dev, &d->req);
	irdma_dev_fp_set(dev);
	IRDMA_LOG(INFO, &d->hw, "%s: gen %u, %s model, plan %u QPs %u CQs %u MRs", name,
		  cfg.gen, cfg.mode == IRDMA_MODEL_MODE_THREAD ? "thread" : "inline",
		  d->req.qps, d->req.cqs, d->req.mrs);
	return 0;
fail:
	free(d);
	return ret;
}

static struct rdmadev_driver irdma_model_driver = {
	.name = "irdma_model",
	.keys = irdma_model_keys,
	.ops = &irdma_model_ops,
	.probe = irdma_model_probe,
};

RDMADEV_REGISTER_DRIVER(irdma_model, irdma_model_driver);

/* ---- irdma (VFIO): an E810 function bound to vfio-pci, same control path ---- */

static int
irdma_vfio_probe(struct rdmadev *dev, const char *name, const struct rte_kvargs *kv)
{
	const char *addr = strchr(name, ':');
	struct irdma_model_config cfg;
	struct irdma_dev *d;
	int ret;

	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		IRDMA_DEV_LOG(ERR, name, "no memory for the device state");
		return -ENOMEM;
	}
	ret = irdma_dev_parse(name, kv, &cfg, &d->req);
	if (ret != 0)
		goto fail;
	/* "irdma:<PCI address>"; irdma_vfio_open() refuses anything else with a log line. */
	ret = irdma_vfio_open(addr != NULL ? addr + 1 : "", &d->hw);
	if (ret != 0)
		goto fail;
	snprintf(d->hw.name, sizeof(d->hw.name), "%s", name);
	ret = irdma_ctrl_init(&d->ctrl, &d->hw, &d->req);
	if (ret != 0) {
		d->hw.be->close(&d->hw);
		goto fail;
	}
	dev->dev_private = d;
	irdma_dev_res_cfg(dev, &d->req);
	irdma_dev_fp_set(dev);
	IRDMA_LOG(INFO, &d->hw, "VFIO, plan %u QPs %u CQs %u MRs", d->req.qps, d->req.cqs,
		  d->req.mrs);
	return 0;
fail:
	free(d);
	return ret;
}

static struct rdmadev_driver irdma_vfio_driver = {
	.name = "irdma",
	.keys = NULL,
	.ops = &irdma_model_ops,
	.probe = irdma_vfio_probe,
};

RDMADEV_REGISTER_DRIVER(irdma, irdma_vfio_driver);

struct irdma_hw *
irdma_dev_hw(struct rdmadev *dev)
{
	struct irdma_dev *d;

	if (dev == NULL || dev->drv != &irdma_model_driver || dev->dev_private == NULL)
		return NULL;
	d = dev->dev_private;
	return &d->hw;
}
