/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_VERBS_PRIV_H
#define IRDMA_VERBS_PRIV_H

/*
 * libirdma-verbs: a libibverbs-compatible layer over rdmadev (doc/verbs.md). The objects it
 * returns have the layouts of the installed <infiniband/verbs.h> (rdma-core 44), since
 * unmodified programs call the inline verbs (ibv_post_send, ibv_poll_cq, ...) through them:
 * each wraps the verbs struct as its first member and the rdmadev handle behind it.
 *
 * An object is ours when its context's device is one of iv_devs[]; anything else goes to the
 * system's libibverbs (real kernel devices) when that library is present.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include <rte_common.h>
#include <rte_log.h>

#include <rdmadev.h>

extern int iv_logtype;

/** Log one line on the lib.verbs log type, naming the verbs call @p fn. */
#define IV_LOG_AT(level, fn, fmt, ...) \
	rte_log(RTE_LOG_##level, iv_logtype, "irdma-verbs: %s(): " fmt "\n", fn, ##__VA_ARGS__)

/** Log one line on the lib.verbs log type, naming the verbs call. */
#define IV_LOG(level, fmt, ...) IV_LOG_AT(level, __func__, fmt, ##__VA_ARGS__)

/** One rdmadev device presented as a verbs device. */
struct iv_dev {
	struct ibv_device ibdev;	/* what ibv_get_device_list hands out */
	int16_t dev_id;			/* rdmadev device */
	struct rdmadev_info info;
	struct rdmadev_port_info port;
	uint64_t guid;			/* node GUID, network order (EUI-64 of the MAC) */
};

/** Kinds of object a context keeps, in the order its close destroys what is left. */
enum iv_kind { IV_QP, IV_AH, IV_SRQ, IV_MR, IV_CQ, IV_PD, IV_KINDS };

/** Link of an object in its context's list of that kind (circular, head in the context). */
struct iv_link {
	struct iv_link *prev, *next;
};

/** A context: rdma-core's verbs_context, then ours. */
struct iv_ctx {
	struct verbs_context vctx;	/* vctx.context is what the application sees */
	struct iv_dev *dev;
	struct rdmadev_ctx *r;
	pthread_mutex_t lock;		/* the lists */
	struct iv_link objs[IV_KINDS];	/* live objects, for ibv_close_device */
	bool closing;			/* ibv_close_device: destroys do not wait for acks */
};

struct iv_pd {
	struct ibv_pd pd;
	struct rdmadev_pd *r;
	struct iv_link link;
};

struct iv_mr {
	struct ibv_mr mr;
	struct rdmadev_mr *r;
	struct iv_link link;
	bool dontfork;		/* its pages are MADV_DONTFORK (ibv_fork_init) */
};

struct iv_chan {
	struct ibv_comp_channel ch;
	struct rdmadev_comp_channel *r;
};

/**
 * Asynchronous events of one QP, CQ or SRQ: ibv_get_async_event() counts the ones it returns
 * (under the object's mutex), and the object's destroy waits until the application has
 * acknowledged as many (the object's events_completed). @c dying is set (under the
 * context's lock) when a destroy starts: later events of the object are dropped.
 */
struct iv_async {
	uint32_t returned;
	bool dying;
};

/**
 * Start destroying an object with asynchronous events: mark it dying, then wait until its
 * events are acknowledged (@p completed, under @p mutex / @p cond); not when the context
 * closes.
 */
void iv_async_drain(struct ibv_context *c, struct iv_async *a, pthread_mutex_t *mutex,
		    pthread_cond_t *cond, const uint32_t *completed);

/** A destroy that failed after iv_async_drain(): events are delivered again. */
void iv_async_revive(struct ibv_context *c, struct iv_async *a);

/* The poll cache of an extended CQ (verbs_cqx.c). */
#define IV_CQX_BATCH 16
struct iv_cqx {
	uint16_t head, n;	/* wc[head] is current; wc[head .. n) not yet handed out */
	struct ibv_wc wc[IV_CQX_BATCH];
};

struct iv_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cqx;	/* its head is laid out as ibv_cq (ibv_cq_ex_to_cq) */
	};
	struct rdmadev_cq *r;
	struct iv_link link;
	unsigned int events;	/* events ibv_get_cq_event() returned (under cq.mutex) */
	struct iv_async async;
	struct iv_cqx *cqx_poll;	/* NULL: not created by ibv_create_cq_ex */
};

/* The ibv_wr_* batch of an extended QP (verbs_wrx.c). */
#define IV_WRX_MAX	32	/* WRs between ibv_wr_start and ibv_wr_complete */
#define IV_WRX_SGE	4	/* SGEs per WR */
#define IV_WRX_INL	128	/* inline bytes per WR */
struct iv_wrx {
	uint16_t n;		/* WRs in the batch */
	uint16_t cur;		/* the WR the setters fill (IV_WRX_MAX: scratch) */
	int err;		/* first builder error (positive errno), for ibv_wr_complete */
	struct rdmadev_send_wr w[IV_WRX_MAX + 1];
	struct rdmadev_sge sge[IV_WRX_MAX + 1][IV_WRX_SGE];
	uint8_t inl[IV_WRX_MAX + 1][IV_WRX_INL];
};

struct iv_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qpx;	/* its head is the ibv_qp (ibv_qp_to_qp_ex) */
	};
	struct rdmadev_qp *r;
	struct iv_link link;
	uint32_t qkey;		/* UD: the Q_Key of the QP (for WRs with the high bit set) */
	/*
	 * Inline bytes the QP has. A QP created for more gets the device's maximum, and a WR
	 * flagged INLINE with more data is posted from its SGEs instead (their lkeys count).
	 */
	uint32_t max_inline;
	struct iv_async async;
	struct iv_wrx *wrx;	/* the ibv_wr_* batch; NULL: not created with send_ops_flags */
};

struct iv_ah {
	struct ibv_ah ah;
	struct rdmadev_ah *r;
	struct iv_link link;
};

struct iv_srq {
	struct ibv_srq srq;
	struct rdmadev_srq *r;
	struct iv_link link;
	struct iv_async async;
};

/** The devices (slot i: rdmadev device opened i-th). */
extern struct iv_dev iv_devs[RDMADEV_MAX_DEVS];
extern unsigned int iv_nb_devs;

/** True when @p d is one of iv_devs[] in use. */
static inline bool
iv_dev_ours(const struct ibv_device *d)
{
	uintptr_t p = (uintptr_t)d, base = (uintptr_t)iv_devs;

	return p >= base && p < base + iv_nb_devs * sizeof(iv_devs[0]) &&
	       (p - base) % sizeof(iv_devs[0]) == 0;
}

/** True when @p c is a context this layer opened. */
static inline bool
iv_ctx_ours(const struct ibv_context *c)
{
	return c != NULL && iv_dev_ours(c->device);
}

static inline struct iv_ctx *
iv_ctx_of(struct ibv_context *c)
{
	return container_of(c, struct iv_ctx, vctx.context);
}

/**
 * The system libibverbs' definition of @p name at version @p ver, NULL when that library
 * is not installed (then objects that are not ours are refused with EINVAL).
 */
void *iv_real_sym(const char *name, const char *ver);

/**
 * Forward a call on an object that is not ours to the system's libibverbs: declares
 * `real` as a pointer to that function of type @p type, or fails with @p fail and errno
 * EINVAL (and a log line) when there is none.
 */
#define IV_FORWARD(type, name, ver, fail) \
	static __typeof__(type) real; \
	if (real == NULL) \
		real = (type)iv_real_sym(name, ver); \
	if (real == NULL) { \
		IV_LOG(ERR, "not an irdma-pmd object, and no system libibverbs"); \
		errno = EINVAL; \
		return fail; \
	}

/** Add @p l to the list of kind @p k of context @p c (creates). */
void iv_track(struct ibv_context *c, enum iv_kind k, struct iv_link *l);

/** Take @p l off its context's list (destroys). */
void iv_untrack(struct ibv_context *c, struct iv_link *l);

/** ibv_fork_init() when RDMAV_FORK_SAFE or IBV_FORK_SAFE is set (verbs_fork.c). */
void iv_fork_env(void);

/**
 * After ibv_fork_init(): madvise(MADV_DONTFORK) the pages of an MR over [@p addr,
 * addr + @p len) (@p protected says whether it did). @return 0 or a positive errno.
 */
int iv_fork_protect(const void *addr, size_t len, bool *protected);

/** The MR of iv_fork_protect() goes: its pages no other MR covers get MADV_DOFORK. */
void iv_fork_unprotect(const void *addr, size_t len);

/** The context's create_qp_ex op: a QP with the ibv_wr_* builders (verbs_wrx.c). */
struct ibv_qp *iv_create_qp_ex_op(struct ibv_context *c, struct ibv_qp_init_attr_ex *attr);

/** The context's create_cq_ex op: a CQ with start_poll and the read getters (verbs_cqx.c). */
struct ibv_cq_ex *iv_create_cq_ex_op(struct ibv_context *c, struct ibv_cq_init_attr_ex *attr);

/** Set the fast-path ops of a new context (verbs_fp.c). */
void iv_ctx_set_fp_ops(struct ibv_context *c);

#endif /* IRDMA_VERBS_PRIV_H */
