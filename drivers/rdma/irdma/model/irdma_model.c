/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model device: creation, the backend operations behind struct irdma_hw, the engine
 * thread (THREAD mode) or the stepping entry points (INLINE mode), counters, fault
 * injection and the diagnostic look-ups.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_lcore.h>
#include <rte_pause.h>

#include "model_engine.h"

RTE_LOG_REGISTER(irdma_model_logtype, pmd.rdma.irdma.model, NOTICE);

/* Idle polls of the engine thread before it yields the CPU once (two-core CI machines). */
#define MODEL_IDLE_SPINS	1024u

/* Idle polls between two data-path rounds of the engine thread (a power of two). */
#define MODEL_ENGINE_POLL	16u

/* Log a configuration problem (no device yet). */
#define CFG_LOG(fmt, ...) \
	rte_log(RTE_LOG_ERR, irdma_model_logtype, "irdma_model: " fmt "\n", ##__VA_ARGS__)

/* Instance counter for "irdma_model<N>". */
static uint32_t model_instances;

/*
 * HMC limits the model advertises by default: E810-like orders of magnitude, chosen so
 * that the kernel's sizing policy (doc/hardware.md §7) needs to shrink, as on silicon. The
 * exact silicon numbers are not public; see doc/model.md.
 */
static const struct irdma_model_obj_caps model_default_caps[IRDMA_HMC_OBJ_MAX] = {
	[IRDMA_HMC_OBJ_QP] = { .max_cnt = 262144, .size_log2 = 9 },
	[IRDMA_HMC_OBJ_CQ] = { .max_cnt = 524288, .size_log2 = 6 },
	/* Gen3 only: the SRQ object (the model's record size); gen2 reports none. */
	[IRDMA_HMC_OBJ_RESERVED] = { .max_cnt = 4096, .size_log2 = MODEL_SRQ_SIZE_LOG2 },
	[IRDMA_HMC_OBJ_HTE] = { .max_cnt = 4194304, .size_log2 = 5 },
	[IRDMA_HMC_OBJ_ARP] = { .max_cnt = 4096, .size_log2 = 5 },
	[IRDMA_HMC_OBJ_APBVT] = { .max_cnt = 1 },
	[IRDMA_HMC_OBJ_MR] = { .max_cnt = 2097152, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_XF] = { .max_cnt = 16777216, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_XFFL] = { .max_cnt = 262144, .block_size = 64 },
	[IRDMA_HMC_OBJ_Q1] = { .max_cnt = 16777216, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_Q1FL] = { .max_cnt = 262144, .block_size = 64 },
	[IRDMA_HMC_OBJ_TIMER] = { .max_cnt = 65536, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_FSIMC] = { .max_cnt = 4096, .size_log2 = 5 },
	[IRDMA_HMC_OBJ_FSIAV] = { .max_cnt = 131072, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_PBLE] = { .max_cnt = 33554432 },
	[IRDMA_HMC_OBJ_RRF] = { .max_cnt = 8388608, .size_log2 = 5 },
	[IRDMA_HMC_OBJ_RRFFL] = { .max_cnt = 131072, .block_size = 64 },
	[IRDMA_HMC_OBJ_HDR] = { .max_cnt = 262144, .size_log2 = 7 },
	[IRDMA_HMC_OBJ_MD] = { .max_cnt = 65536, .size_log2 = 6 },
	[IRDMA_HMC_OBJ_OOISC] = { .max_cnt = 8388608, .size_log2 = 5 },
	[IRDMA_HMC_OBJ_OOISCFFL] = { .max_cnt = 131072, .block_size = 64 },
};

void
irdma_model_config_default(struct irdma_model_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->gen = IRDMA_GEN_2;
	cfg->mode = IRDMA_MODEL_MODE_INLINE;
	cfg->hmc_fn_id = 0;
	cfg->first_pe_sd = 0;
	cfg->max_pe_sds = 4096;
	cfg->max_ceqs = 256;
	cfg->ht_multiplier = 1;
	cfg->timer_bucket = 64;
	cfg->fw_ready_reads = 0;
	memcpy(cfg->obj, model_default_caps, sizeof(cfg->obj));
	/* The PF: function 0, RDMA enabled, E810's AdminQ API, link up at 100 Gb/s. */
	cfg->pf_id = 0;
	cfg->rdma = true;
	cfg->msix = 64;
	cfg->fw_api_major = IRDMA_AQ_API_MAJOR;
	cfg->fw_api_minor = IRDMA_AQ_API_MINOR;
	cfg->reset_reads = 1;
	cfg->link_up = true;
	cfg->link_speed = IRDMA_AQ_LINK_SPEED_100GB;
}

static int
model_config_check(const struct irdma_model_config *c)
{
	unsigned int i;

	if (c->gen != IRDMA_GEN_2 && c->gen != IRDMA_GEN_3)
		return -EINVAL;
	if (c->mode != IRDMA_MODEL_MODE_INLINE && c->mode != IRDMA_MODEL_MODE_THREAD)
		return -EINVAL;
	if (c->max_pe_sds == 0 || !irdma_fits(FPMQ_MAX_PE_SDS, c->max_pe_sds) ||
	    !irdma_fits(FPMQ_FIRST_PE_SD_INDEX, c->first_pe_sd) ||
	    (uint32_t)c->first_pe_sd + c->max_pe_sds > IRDMA_HMC_MAX_SD)
		return -EINVAL;
	if (c->max_ceqs == 0 || !irdma_fits(FPMQ_MAX_CEQS, c->max_ceqs) ||
	    !irdma_fits(CQP_FPM_HMCFNID, c->hmc_fn_id))
		return -EINVAL;
	if (c->pf_id > IRDMA_REG_MAX(PF_FUNC_RID_FUNCTION) || c->msix > IRDMA_GLINT_VECTORS)
		return -EINVAL;
	if (!irdma_fits(FPMQ_QP_MAX, c->obj[IRDMA_HMC_OBJ_QP].max_cnt) ||
	    !irdma_fits(FPMQ_CQ_MAX, c->obj[IRDMA_HMC_OBJ_CQ].max_cnt) ||
	    c->obj[IRDMA_HMC_OBJ_CQ].max_cnt > IRDMA_MAX_CQ_ID + 1 ||
	    c->obj[IRDMA_HMC_OBJ_APBVT].max_cnt > 1)
		return -EINVAL;
	for (i = 0; i < IRDMA_HMC_OBJ_MAX; i++) {
		if (irdma_hmc_obj_is_fl(i) && c->obj[i].block_size == 0)
			return -EINVAL;
		if (c->obj[i].size_log2 >= IRDMA_HMC_PAGED_BP_SHIFT + IRDMA_PBLE_512_SHIFT)
			return -EINVAL; /* an object larger than an SD */
	}
	return 0;
}

struct model_dev *
model_dev_of(struct irdma_hw *hw)
{
	if (hw == NULL || hw->be == NULL || hw->be->close != irdma_model_destroy)
		return NULL;
	return hw->be_priv;
}

/* Run whatever the engine has to do (caller holds d->lock). */
void
model_step(struct model_dev *d)
{
	/* A doorbell inside a step (none today) must not recurse into the data path. */
	if (d->in_step)
		return;
	d->in_step = true;
	if (d->cqp_ctl_pending) {
		d->cqp_ctl_pending = false;
		model_cqp_ctl(d);
	}
	if (d->pf.aq_pending)
		model_aq_process(d);
	if (d->cqp.tail != d->cqp.db_head)	/* the CQP has submissions to look at */
		model_cqp_process(d);
	model_engine_step(d);
	d->in_step = false;
}

/*
 * THREAD mode: hand SQ doorbell @p qp_id to the engine thread without d->lock. false when
 * the queue is full (the caller takes the lock instead).
 */
static bool
model_db_push(struct model_dev *d, uint32_t qp_id)
{
	uint64_t pos = __atomic_load_n(&d->dbq.enq, __ATOMIC_RELAXED);
	struct model_db_cell *c;

	for (;;) {
		int64_t dif;

		c = &d->dbq.cell[pos & (MODEL_DBQ_SIZE - 1)];
		dif = (int64_t)(__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) - pos);
		if (dif == 0) {
			if (__atomic_compare_exchange_n(&d->dbq.enq, &pos, pos + 1, true,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				break;
		} else if (dif < 0) {
			return false;	/* full: the engine has not taken cell pos - SIZE yet */
		} else {
			pos = __atomic_load_n(&d->dbq.enq, __ATOMIC_RELAXED);
		}
	}
	c->qp_id = qp_id;
	/* The engine thread polls the cell at its position: no other line is written. */
	__atomic_store_n(&c->seq, pos + 1, __ATOMIC_RELEASE);
	return true;
}

/* THREAD mode: true when the doorbell queue's next cell has been filled (engine thread). */
static inline bool
model_db_ready(const struct model_dev *d)
{
	const struct model_db_cell *c = &d->dbq.cell[d->dbq.deq & (MODEL_DBQ_SIZE - 1)];

	return __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) == d->dbq.deq + 1;
}

/* The engine thread (d->lock held): mark the QPs of the doorbells handed over. */
static void
model_db_drain(struct model_dev *d)
{
	uint64_t pos = d->dbq.deq;

	for (;;) {
		struct model_db_cell *c = &d->dbq.cell[pos & (MODEL_DBQ_SIZE - 1)];

		if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) != pos + 1)
			break;
		model_engine_doorbell(d, c->qp_id);
		__atomic_store_n(&c->seq, pos + MODEL_DBQ_SIZE, __ATOMIC_RELEASE);
		pos++;
	}
	d->dbq.deq = pos;
}

/* A doorbell was rung (caller holds d->lock): run now (INLINE) or wake the thread. */
void
model_kick(struct model_dev *d)
{
	if (d->cfg.mode == IRDMA_MODEL_MODE_INLINE)
		model_step(d);
	else
		__atomic_store_n(&d->work, 1, __ATOMIC_RELEASE);
}

/*
 * Engine threads pinned to each CPU by model_thread_place(), over every device of the
 * process (atomic: the engine threads read them; changed under model_cpu_lock): a thread
 * spins without yielding only while it is alone on its CPU.
 */
static uint16_t model_cpu_threads[CPU_SETSIZE];
static pthread_mutex_t model_cpu_lock = PTHREAD_MUTEX_INITIALIZER;

/* True while the engine thread is pinned to a CPU no other engine thread shares. */
static inline bool
model_thread_alone(const struct model_dev *d)
{
	int cpu = __atomic_load_n(&d->thread_cpu, __ATOMIC_RELAXED);

	return cpu >= 0 && __atomic_load_n(&model_cpu_threads[cpu], __ATOMIC_RELAXED) == 1;
}

/*
 * The engine thread. Idle, it reads only lines nobody writes until there is work: the
 * doorbell queue's next cell and d->work (plain loads; the exchange only once it is set),
 * so a doorbell costs one cache-line transfer to this core. It spins (rte_pause) while it
 * has a core of its own (model_thread_alone(); another device's engine thread placed on
 * the same CPU ends that) and yields after MODEL_IDLE_SPINS idle polls otherwise.
 */
static void *
model_thread(void *arg)
{
	struct model_dev *d = arg;
	unsigned int idle = 0;

	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		bool kicked = __atomic_load_n(&d->work, __ATOMIC_ACQUIRE) != 0 &&
			      __atomic_exchange_n(&d->work, 0, __ATOMIC_ACQ_REL) != 0;

		if (kicked || model_db_ready(d)) {
			model_lock(&d->lock);
			model_db_drain(d);
			model_step(d);
			model_unlock(&d->lock);
			idle = 0;
		} else if ((idle & (MODEL_ENGINE_POLL - 1)) == 0) {
			/* The data path runs without doorbells too: wire, timers. */
			model_lock(&d->lock);
			model_engine_step(d);
			model_unlock(&d->lock);
			idle++;
		} else if (++idle >= MODEL_IDLE_SPINS &&
			   !model_thread_alone(d)) {
			sched_yield();
			idle = 0;
		} else {
			rte_pause();
		}
	}
	return NULL;
}

/* Pin the engine thread to @p cpu; true when it took. */
static bool
model_thread_pin(struct model_dev *d, unsigned int cpu)
{
	rte_cpuset_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(d->thread, sizeof(set), &set) == 0;
}

/* Record the engine thread on @p cpu (model_cpu_lock held). */
static void
model_thread_claim(struct model_dev *d, unsigned int cpu)
{
	__atomic_fetch_add(&model_cpu_threads[cpu], 1, __ATOMIC_RELAXED);
	__atomic_store_n(&d->thread_cpu, (int)cpu, __ATOMIC_RELAXED);
}

/*
 * Give the engine thread a core of its own (THREAD mode; doc/model.md "Modes"). EAL pinned
 * the application's threads to its lcores and a new pthread inherits its creator's core, so
 * the thread would time-share the application's core. In this order:
 *  1. of the CPUs in no EAL lcore's set that the process may run on, the one with the
 *     fewest engine threads of other devices;
 *  2. else the core of the highest-numbered worker lcore (the application keeps the main
 *     lcore: `-l 0-1` leaves lcore 1 to the model);
 *  3. else (one lcore, no spare CPU) the creator's core, said in a NOTICE.
 * The thread spins while idle only when no other engine thread shares its CPU (1 and 2).
 */
static void
model_thread_place(struct model_dev *d)
{
	unsigned int lc, cpu, best = CPU_SETSIZE, worker = RTE_MAX_LCORE;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	rte_cpuset_t used, allowed;

	CPU_ZERO(&used);
	RTE_LCORE_FOREACH(lc) {
		rte_cpuset_t s = rte_lcore_cpuset(lc);

		CPU_OR(&used, &used, &s);
		if (lc != rte_get_main_lcore())
			worker = lc;
	}
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		CPU_ZERO(&allowed);
	pthread_mutex_lock(&model_cpu_lock);
	for (cpu = 0; cpu < RTE_MIN(ncpu, (long)CPU_SETSIZE); cpu++) {
		if (CPU_ISSET(cpu, &used) || !CPU_ISSET(cpu, &allowed))
			continue;
		if (best == CPU_SETSIZE || model_cpu_threads[cpu] < model_cpu_threads[best])
			best = cpu;
	}
	if (best != CPU_SETSIZE && model_thread_pin(d, best)) {
		model_thread_claim(d, best);
		pthread_mutex_unlock(&model_cpu_lock);
		MODEL_LOG(INFO, d, "engine thread on CPU %u (no EAL lcore there), %s", best,
			  model_thread_alone(d) ? "spinning" : "yielding when idle");
		return;
	}
	if (worker != RTE_MAX_LCORE) {
		rte_cpuset_t s = rte_lcore_cpuset(worker);

		if (pthread_setaffinity_np(d->thread, sizeof(s), &s) == 0) {
			if (CPU_COUNT(&s) == 1) {
				for (cpu = 0; !CPU_ISSET(cpu, &s); cpu++)
					;
				model_thread_claim(d, cpu);
			}
			pthread_mutex_unlock(&model_cpu_lock);
			MODEL_LOG(INFO, d, "engine thread on the core of lcore %u, %s", worker,
				  model_thread_alone(d) ? "spinning" : "yielding when idle");
			return;
		}
	}
	pthread_mutex_unlock(&model_cpu_lock);
	MODEL_LOG(NOTICE, d, "no spare core: the engine thread shares the application's");
}

/* The engine thread has stopped: give its CPU back. */
static void
model_thread_release(struct model_dev *d)
{
	if (d->thread_cpu < 0)
		return;
	pthread_mutex_lock(&model_cpu_lock);
	__atomic_fetch_sub(&model_cpu_threads[d->thread_cpu], 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&model_cpu_lock);
	d->thread_cpu = -1;
}

int
irdma_model_thread_cpus(struct irdma_hw *hw, rte_cpuset_t *set)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || set == NULL)
		return -EINVAL;
	if (!d->thread_started)
		return -ENOENT;
	return -pthread_getaffinity_np(d->thread, sizeof(*set), set);
}

int
irdma_model_thread_spins(struct irdma_hw *hw)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL)
		return -EINVAL;
	if (!d->thread_started)
		return -ENOENT;
	return model_thread_alone(d) ? 1 : 0;
}

static uint32_t
be_reg_read(struct irdma_hw *hw, uint32_t off)
{
	struct model_dev *d = hw->be_priv;
	uint32_t v;

	model_lock(&d->lock);
	v = model_reg_read(d, off);
	model_unlock(&d->lock);
	return v;
}

static void
be_reg_write(struct irdma_hw *hw, uint32_t off, uint32_t val)
{
	struct model_dev *d = hw->be_priv;

	model_lock(&d->lock);
	model_reg_write(d, off, val);
	model_unlock(&d->lock);
}

/*
 * THREAD mode: SQ doorbells (PFPE_WQEALLOC, DB page + 0) go to the engine thread through
 * the doorbell queue, without d->lock; everything else as be_reg_write().
 */
static void
be_reg_write_thread(struct irdma_hw *hw, uint32_t off, uint32_t val)
{
	struct model_dev *d = hw->be_priv;

	if ((off == IRDMA_PFPE_WQEALLOC || off == IRDMA_DB_PAGE_OFFSET + IRDMA_DB_SQ_OFFSET) &&
	    model_db_push(d, (uint32_t)IRDMA_REG_GET(WQEALLOC_QPID, val))) {
		/* Counted on the application's line (st is the engine's). */
		__atomic_fetch_add(&d->dbq.pushed, 1, __ATOMIC_RELAXED);
		return;
	}
	be_reg_write(hw, off, val);
}

static int
be_dma_map(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	return model_dma_map(hw->be_priv, va, iova, len);
}

static int
be_dma_unmap(struct irdma_hw *hw, void *va, rte_iova_t iova, size_t len)
{
	return model_dma_unmap(hw->be_priv, va, iova, len);
}

static void
be_service(struct irdma_hw *hw)
{
	struct model_dev *d = hw->be_priv;

	model_lock(&d->lock);
	model_step(d);
	model_unlock(&d->lock);
}

/* INLINE mode: the driver's waits step the engine. */
static const struct irdma_hw_backend model_be_inline = {
	.name = "model",
	.reg_read = be_reg_read,
	.reg_write = be_reg_write,
	.dma_map = be_dma_map,
	.dma_unmap = be_dma_unmap,
	.irq_fd = model_irq_fd,
	.service = be_service,
	.close = irdma_model_destroy,
};

/* THREAD mode: the engine runs by itself, as silicon does. */
static const struct irdma_hw_backend model_be_thread = {
	.name = "model",
	.reg_read = be_reg_read,
	.reg_write = be_reg_write_thread,
	.dma_map = be_dma_map,
	.dma_unmap = be_dma_unmap,
	.irq_fd = model_irq_fd,
	.service = NULL,
	.close = irdma_model_destroy,
};

/* The configuration's faults, as the port takes them (NULL: none, the loop wire's unsealed
 * path back). */
static const struct model_wire_faults *
cfg_faults(const struct irdma_model_config *c, struct model_wire_faults *f)
{
	*f = (struct model_wire_faults){
		.drop_ppm = c->wire_drop_ppm,
		.dup_ppm = c->wire_dup_ppm,
		.reorder_ppm = c->wire_reorder_ppm,
		.corrupt_ppm = c->wire_corrupt_ppm,
		.seed = c->wire_seed,
	};
	return (f->drop_ppm | f->dup_ppm | f->reorder_ppm | f->corrupt_ppm) != 0 ? f : NULL;
}

/* The configuration's pcap file and faults on the port just attached. */
static int
model_wire_config(struct model_dev *d)
{
	const struct irdma_model_config *c = &d->cfg;
	const struct model_wire_faults *fp;
	struct model_wire_faults f;
	int ret;

	if (c->pcap[0] != '\0') {
		ret = model_port_pcap_open(d->port, c->pcap);
		if (ret != 0) {
			MODEL_LOG(ERR, d, "pcap=%s: %s", c->pcap, strerror(-ret));
			return ret;
		}
	}
	fp = cfg_faults(c, &f);
	return fp != NULL ? model_port_set_faults(d->port, fp) : 0;
}

/* A rate: a fraction "0.25" (0..1) or a percentage "25%", as parts per million. */
static int
wire_rate(const char *key, const char *v, uint32_t *ppm)
{
	double x;
	char *end;

	if (v == NULL || *v == '\0' || !((*v >= '0' && *v <= '9') || *v == '.'))
		goto bad;
	errno = 0;
	x = strtod(v, &end);
	if (errno != 0)
		goto bad;
	if (*end == '%') {
		x /= 100.0;
		end++;
	}
	if (*end != '\0' || !(x >= 0.0 && x <= 1.0))
		goto bad;
	*ppm = (uint32_t)(x * 1e6 + 0.5);
	return 0;
bad:
	CFG_LOG("devargs %s=%s: not a rate (a fraction 0..1, or 0%%..100%%)", key,
		  v != NULL ? v : "");
	return -EINVAL;
}

/* A string value of 1 to IRDMA_MODEL_WIRE_MAX - 1 bytes. */
static int
wire_string(const char *key, const char *v, char out[IRDMA_MODEL_WIRE_MAX])
{
	size_t n = v != NULL ? strlen(v) : 0;

	if (n == 0 || n >= IRDMA_MODEL_WIRE_MAX) {
		CFG_LOG("devargs %s=%s: empty or longer than %d characters", key,
			v != NULL ? v : "", IRDMA_MODEL_WIRE_MAX - 1);
		return -EINVAL;
	}
	memcpy(out, v, n);
	out[n] = '\0';
	return 0;
}

int
irdma_model_config_kv(struct irdma_model_config *cfg, const char *key, const char *value)
{
	unsigned long long x;
	char *end;

	if (cfg == NULL || key == NULL)
		return -EINVAL;
	if (strcmp(key, "wire") == 0)
		return wire_string(key, value, cfg->wire);
	if (strcmp(key, "pcap") == 0)
		return wire_string(key, value, cfg->pcap);
	if (strcmp(key, "wire_drop") == 0)
		return wire_rate(key, value, &cfg->wire_drop_ppm);
	if (strcmp(key, "wire_dup") == 0)
		return wire_rate(key, value, &cfg->wire_dup_ppm);
	if (strcmp(key, "wire_reorder") == 0)
		return wire_rate(key, value, &cfg->wire_reorder_ppm);
	if (strcmp(key, "wire_corrupt") == 0)
		return wire_rate(key, value, &cfg->wire_corrupt_ppm);
	if (strcmp(key, "wire_seed") != 0)
		return -ENOENT;
	if (value == NULL || *value < '0' || *value > '9')
		goto bad;
	errno = 0;
	x = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0')
		goto bad;
	cfg->wire_seed = x;
	return 0;
bad:
	CFG_LOG("devargs wire_seed=%s: not an unsigned number", value ? value : "");
	return -EINVAL;
}

int
irdma_model_param_set(struct irdma_hw *hw, const char *key, const char *value)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_wire_faults f;
	struct irdma_model_config c;
	bool close_pcap;
	int ret;

	if (d == NULL || key == NULL || value == NULL) {
		CFG_LOG("param_set: %s", d == NULL ? "not a model device" : "NULL key or value");
		return -EINVAL;
	}
	if (strcmp(key, "wire") == 0) {
		MODEL_LOG(ERR, d, "param %s: the wire is chosen at probe and cannot change", key);
		return -ENOTSUP;
	}
	close_pcap = strcmp(key, "pcap") == 0 && strcmp(value, "off") == 0;
	model_lock(&d->lock);
	c = d->cfg;
	ret = close_pcap ? 0 : irdma_model_config_kv(&c, key, value);
	if (ret == -ENOENT)
		MODEL_LOG(ERR, d, "param %s: unknown (pcap, wire_drop, wire_dup, wire_reorder, "
			  "wire_corrupt, wire_seed)", key);
	else if (ret == 0 && strcmp(key, "pcap") == 0) {
		ret = model_port_pcap_open(d->port, close_pcap ? NULL : c.pcap);
		if (ret != 0)
			MODEL_LOG(ERR, d, "param pcap=%s: %s", value, strerror(-ret));
		else if (close_pcap)
			c.pcap[0] = '\0';
	} else if (ret == 0)
		ret = model_port_set_faults(d->port, cfg_faults(&c, &f));
	if (ret == 0)
		d->cfg = c;
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_wire_stats_get(struct irdma_hw *hw, struct irdma_model_wire_stats *st)
{
	struct model_dev *d = model_dev_of(hw);
	struct model_port_stats p;

	if (d == NULL || st == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	model_port_stats_get(d->port, &p);
	model_unlock(&d->lock);
	*st = (struct irdma_model_wire_stats){
		.wire_tx_frames = p.tx_frames,
		.wire_tx_bytes = p.tx_bytes,
		.wire_rx_frames = p.rx_frames,
		.wire_rx_bytes = p.rx_bytes,
		.wire_dropped = p.tx_dropped,
		.wire_duplicated = p.tx_duplicated,
		.wire_reordered = p.tx_reordered,
		.wire_corrupted = p.tx_corrupted,
		.wire_rx_no_port = p.rx_no_port,
		.wire_rx_filtered = p.rx_filtered,
		.wire_rx_other = p.rx_other,
		.wire_tx_nombuf = p.tx_nombuf,
		.wire_arp_requests_rx = p.arp_requests_rx,
		.wire_arp_replies_tx = p.arp_replies_tx,
		.wire_arp_requests_tx = p.arp_requests_tx,
		.wire_arp_replies_rx = p.arp_replies_rx,
		.wire_arp_bad = p.arp_bad,
		.wire_arp_evicted = p.arp_evicted,
		.wire_arp_unresolved = p.arp_unresolved,
		.wire_arp_failed = p.arp_failed,
		.wire_nd_solicits_rx = p.nd_solicits_rx,
		.wire_nd_adverts_tx = p.nd_adverts_tx,
		.wire_nd_solicits_tx = p.nd_solicits_tx,
		.wire_nd_adverts_rx = p.nd_adverts_rx,
		.wire_nd_bad = p.nd_bad,
	};
	return 0;
}

int
irdma_model_port_addrs(struct irdma_hw *hw, const uint8_t (*gids)[16], uint32_t n)
{
	struct model_dev *d = model_dev_of(hw);
	int ret;

	if (d == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	ret = model_port_set_addrs(d->port, gids, n);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_create(const struct irdma_model_config *cfg, struct irdma_hw *hw)
{
	struct irdma_model_config def;
	const char *desc_check;
	struct model_dev *d;
	uint32_t n;
	int ret;

	if (hw == NULL)
		return -EINVAL;
	if (cfg == NULL) {
		irdma_model_config_default(&def);
		cfg = &def;
	}
	ret = model_config_check(cfg);
	if (ret != 0)
		return ret;
	/* aligned: the thread-mode hand-off fields are on cache lines of their own */
	d = aligned_alloc(RTE_CACHE_LINE_SIZE, sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	memset(d, 0, sizeof(*d));
	d->cfg = *cfg;
	d->ctx_gen = 1;	/* the caches' zeroed entries are never current */
	/* the test suite's check that a frame's description is what its parse gives */
	desc_check = getenv("IRDMA_MODEL_DESC_CHECK");
	d->desc_check = desc_check != NULL && desc_check[0] != '\0' &&
			strcmp(desc_check, "0") != 0;
	for (n = 0; n < MODEL_DBQ_SIZE; n++)
		d->dbq.cell[n].seq = n;
	model_irq_init(d);
	model_pf_init(d);
	d->sd = calloc(cfg->max_pe_sds, sizeof(*d->sd));
	d->ceq = calloc(cfg->max_ceqs, sizeof(*d->ceq));
	if (d->sd == NULL || d->ceq == NULL) {
		ret = -ENOMEM;
		goto err_mem;
	}
	ret = model_dma_init(&d->dma);
	if (ret != 0)
		goto err_mem;
	d->lock.held = 0;
	n = __atomic_fetch_add(&model_instances, 1, __ATOMIC_RELAXED);
	memset(hw, 0, sizeof(*hw));
	snprintf(hw->name, sizeof(hw->name), "irdma_model%u", n);
	snprintf(d->name, sizeof(d->name), "%s", hw->name);
	hw->bar0 = NULL;
	hw->be = cfg->mode == IRDMA_MODEL_MODE_THREAD ? &model_be_thread : &model_be_inline;
	hw->be_priv = d;
	hw->bar0_len = IRDMA_MODEL_BAR0_LEN;
	hw->vendor_id = IRDMA_MODEL_VENDOR_ID;
	hw->device_id = IRDMA_MODEL_DEVICE_ID;
	hw->gen = cfg->gen;
	/* The model's MSI-X table; LIST_FUNC_CAPS may give the function fewer (cfg.msix). */
	hw->nb_vectors = MODEL_IRQ_VECTORS;
	hw->numa_node = -1;
	static const uint8_t zero_mac[6];

	/* memcmp: the config's MAC has no alignment (rte_is_zero_ether_addr wants 2 bytes). */
	if (memcmp(cfg->mac, zero_mac, sizeof(zero_mac)) == 0) {
		static const uint8_t base[6] = { 0x02, 0, 0, 0, 0, 0 };

		memcpy(d->cfg.mac, base, sizeof(base));
		/* Unique on the in-process switch for 2^24 - 1 devices. */
		d->cfg.mac[3] = (uint8_t)((n + 1) >> 16);
		d->cfg.mac[4] = (uint8_t)((n + 1) >> 8);
		d->cfg.mac[5] = (uint8_t)(n + 1);
	}
	memcpy(hw->mac, d->cfg.mac, sizeof(hw->mac));
	d->hw = hw;
	if (cfg->map_eal) {
		ret = model_dma_eal_attach(d);
		if (ret != 0)
			goto err_eal;
	}
	ret = model_engine_attach(d);
	if (ret != 0)
		goto err_eal;
	ret = model_wire_config(d);
	if (ret != 0)
		goto err_port;
	if (cfg->mode == IRDMA_MODEL_MODE_THREAD) {
		d->thread_cpu = -1;	/* not placed yet: yields */
		ret = -pthread_create(&d->thread, NULL, model_thread, d);
		if (ret != 0)
			goto err_port;
		d->thread_started = true;
		model_thread_place(d);
	}
	MODEL_LOG(INFO, d, "created: gen %u, %s mode", cfg->gen,
		  cfg->mode == IRDMA_MODEL_MODE_THREAD ? "thread" : "inline");
	return 0;
err_port:
	model_engine_detach(d);
err_eal:
	model_stats_free(d);	/* the engine's attach allocates the statistics instances */
	model_dma_eal_detach(d);
	memset(hw, 0, sizeof(*hw));
	model_dma_fini(&d->dma);
err_mem:
	free(d->sd);
	free(d->ceq);
	free(d);
	return ret;
}

void
irdma_model_destroy(struct irdma_hw *hw)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL)
		return;
	if (d->thread_started) {
		__atomic_store_n(&d->stop, 1, __ATOMIC_RELEASE);
		pthread_join(d->thread, NULL);
		model_thread_release(d);
	}
	MODEL_LOG(INFO, d, "destroyed");
	model_stats_free(d);
	model_engine_detach(d);
	model_fpm_free(d);
	model_irq_fini(d);
	model_dma_eal_detach(d);
	free(d->sd);
	free(d->ceq);
	model_dma_fini(&d->dma);
	free(d);
	memset(hw, 0, sizeof(*hw));
}

int
irdma_model_inject_cqp_fault(struct irdma_hw *hw, uint8_t opcode, uint32_t count,
			     uint16_t major, uint16_t minor)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || opcode >= IRDMA_MODEL_CQP_OPCODES ||
	    (count > 0 && major == IRDMA_CQP_MAJ_NO_ERROR))
		return -EINVAL;
	model_lock(&d->lock);
	d->fault.opcode = opcode;
	d->fault.skip = 0;
	d->fault.count = count;
	d->fault.major = major;
	d->fault.minor = minor;
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_inject_cqp_fault_after(struct irdma_hw *hw, uint8_t opcode, uint32_t skip,
				   uint16_t major, uint16_t minor)
{
	struct model_dev *d = model_dev_of(hw);
	int ret = irdma_model_inject_cqp_fault(hw, opcode, 1, major, minor);

	if (ret != 0)
		return ret;
	model_lock(&d->lock);
	d->fault.skip = skip;
	model_unlock(&d->lock);
	return 0;
}

int
irdma_model_dma_mapped(struct irdma_hw *hw, rte_iova_t iova, size_t len)
{
	struct model_dev *d = model_dev_of(hw);

	if (d == NULL || len == 0 || iova + len < iova)
		return -EINVAL;
	return model_dma_mapped(d, iova, len) ? 1 : 0;
}

int
irdma_model_stats_get(struct irdma_hw *hw, struct irdma_model_stats *stats)
{
	struct model_dev *d = model_dev_of(hw);
	const uint64_t *src;
	uint64_t *dst;
	size_t i;

	if (d == NULL || stats == NULL)
		return -EINVAL;
	/* Counter by counter, each an atomic read: the struct is all uint64_t. */
	src = (const uint64_t *)&d->st;
	dst = (uint64_t *)stats;
	for (i = 0; i < sizeof(*stats) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
	stats->reg_writes += __atomic_load_n(&d->dbq.pushed, __ATOMIC_RELAXED);
	return 0;
}

int
irdma_model_hmc_lookup(struct irdma_hw *hw, enum irdma_hmc_obj obj, uint32_t index,
		       rte_iova_t *iova)
{
	struct model_dev *d = model_dev_of(hw);
	int ret;

	if (d == NULL || iova == NULL || (unsigned int)obj >= IRDMA_HMC_OBJ_MAX)
		return -EINVAL;
	model_lock(&d->lock);
	ret = model_hmc_iova(d, obj, index, iova);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_pble_lookup(struct irdma_hw *hw, unsigned int level, uint32_t first,
			uint32_t page, rte_iova_t *iova)
{
	struct model_dev *d = model_dev_of(hw);
	int ret;

	if (d == NULL || iova == NULL ||
	    (level != IRDMA_PBLE_LEVEL_1 && level != IRDMA_PBLE_LEVEL_2))
		return -EINVAL;
	model_lock(&d->lock);
	ret = model_pble_iova(d, level, first, page, iova);
	model_unlock(&d->lock);
	return ret;
}

int
irdma_model_cq_get(struct irdma_hw *hw, uint32_t cq_id, struct irdma_model_cq_info *info)
{
	struct model_dev *d = model_dev_of(hw);
	const struct model_cq *cq;
	int ret = 0;

	if (d == NULL || info == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	if (cq_id >= d->cq_tab || !d->cq[cq_id].valid) {
		ret = -ENOENT;
		goto out;
	}
	cq = &d->cq[cq_id];
	*info = (struct irdma_model_cq_info){
		.size = cq->ring.size,
		.head = cq->head,
		.polarity = cq->polarity,
		.pbl_level = cq->ring.level,
		.ceq_valid = cq->ceq_valid,
		.ceq_id = cq->ceq_id,
		.ctx = cq->ctx,
		.pa = cq->ring.pa,
		.first_pble = cq->ring.first_pble,
		.shadow_pa = cq->shadow_pa,
	};
out:
	model_unlock(&d->lock);
	return ret;
}
