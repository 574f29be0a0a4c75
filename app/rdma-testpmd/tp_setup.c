/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd setup and teardown: pick the devices (an E810 on vfio-pci, else the device
 * model), create each side's objects (context, PD, send and receive CQ, QPs, one MR over the
 * buffers), connect the QPs (in one process directly; in two processes through perftest's
 * TCP exchange of QPN, PSN, GID, rkey and address, tp_xchg.c), and destroy everything in
 * reverse. The devices stay open between runs; the objects are rebuilt when a knob that
 * shapes them changes.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_malloc.h>

#include "testpmd.h"

/* Overhead in a UD receive buffer: the GRH the device writes first. */
#define TP_UD_GRH	40u
/* The smallest QP area: perftest's cycle buffer, a page (tp_area_size()). */
#define TP_PEER_CYCLE	4096u

static int
tp_model_devargs(struct tp_ctx *t, char *out, size_t len)
{
	struct rdmadev_pci_func funcs[8];
	int n, i;

	n = rdmadev_probe_pci(NULL, funcs, RTE_DIM(funcs));
	for (i = 0; i < RTE_MIN(n, (int)RTE_DIM(funcs)); i++) {
		if (!funcs[i].usable)
			continue;
		fprintf(t->out, "rdma-testpmd: E810 %s on vfio-pci: using %s\n", funcs[i].addr,
			funcs[i].devargs);
		fflush(t->out);
		snprintf(out, len, "%s", funcs[i].devargs);
		return 0;
	}
	t->model = true;
	fprintf(t->out, "rdma-testpmd: no E810 bound to vfio-pci (%d found): using the device "
		"model irdma_model0 (mode=%s)\n", n < 0 ? 0 : n, t->cfg.model_mode);
	fflush(t->out);
	snprintf(out, len, "irdma_model0,mode=%s", t->cfg.model_mode);
	return 0;
}

static int
tp_dev_up(struct tp_ctx *t, const char *devargs)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	int id, rc;

	id = rdmadev_open(devargs);
	if (id < 0) {
		fprintf(stderr, "rdma-testpmd: cannot open device '%s': %s\n", devargs,
			strerror(-id));
		return id;
	}
	snprintf(t->dev_args[t->nb_dev], sizeof(t->dev_args[0]), "%s", devargs);
	t->dev[t->nb_dev++] = (int16_t)id;
	rc = rdmadev_configure((int16_t)id, &conf);
	if (rc == 0)
		rc = rdmadev_start((int16_t)id);
	if (rc < 0)
		fprintf(stderr, "rdma-testpmd: cannot start device '%s': %s\n", devargs,
			strerror(-rc));
	return rc;
}

/*
 * Without -m the path MTU is the port's active MTU (the smallest of the devices'), as
 * perftest's ctx_set_mtu() takes it.
 */
static void
tp_port_mtu(struct tp_ctx *t)
{
	struct rdmadev_port_info pi;
	unsigned int i;
	uint8_t m = RDMADEV_MTU_4096;

	if (t->cfg.mtu_set)
		return;
	for (i = 0; i < t->nb_dev; i++)
		if (rdmadev_port_info_get(t->dev[i], &pi) == 0 && pi.active_mtu >= RDMADEV_MTU_256 &&
		    pi.active_mtu < m)
			m = pi.active_mtu;
	if (t->nb_dev > 0)
		t->cfg.mtu = (enum rdmadev_mtu)m;
}

int
tp_devices_open(struct tp_ctx *t)
{
	char devargs[TP_DEVARGS_LEN];
	unsigned int i;
	int rc;

	t->dev[0] = t->dev[1] = -1;
	if (t->cfg.nb_devargs == 0) {
		tp_model_devargs(t, devargs, sizeof(devargs));
		rc = tp_dev_up(t, devargs);
		if (rc == 0)
			tp_port_mtu(t);
		return rc;
	}
	for (i = 0; i < t->cfg.nb_devargs; i++) {
		if (strncmp(t->cfg.devargs[i], "irdma_model", 11) == 0)
			t->model = true;
		fprintf(t->out, "rdma-testpmd: device %s%s\n", t->cfg.devargs[i],
			t->model ? " (device model)" : "");
		fflush(t->out);
		rc = tp_dev_up(t, t->cfg.devargs[i]);
		if (rc < 0)
			return rc;
	}
	if (t->cfg.mode != TP_MODE_LOCAL && t->nb_dev > 1) {
		fprintf(stderr, "rdma-testpmd: two-process mode uses one device per process\n");
		return -EINVAL;
	}
	tp_port_mtu(t);
	return 0;
}

int
tp_devices_close(struct tp_ctx *t)
{
	int leaks = 0, rc;
	unsigned int i;

	for (i = 0; i < t->nb_dev; i++) {
		if (rdmadev_get_state(t->dev[i]) == RDMADEV_STATE_STARTED)
			rdmadev_stop(t->dev[i]);
		rc = rdmadev_close(t->dev[i]);
		if (rc < 0)
			return rc;
		leaks += rc;
	}
	t->nb_dev = 0;
	return leaks;
}

/*
 * The side's GID: entry 0 of the device's GID table (rdmadev_gid_get; on the model the ip=
 * devargs or ::ffff:10.0.0.<N + 1>). A driver without a GID table gets RoCEv2's IPv4-mapped
 * form of the devargs ip= address, else ::ffff:192.168.0.<dev id + 1>.
 */
static void
tp_local_gid(const struct tp_side *s, uint8_t gid[16])
{
	const char *ip = strstr(s->devargs, ",ip=");
	unsigned int a, b, c, d;

	if (rdmadev_gid_get(s->dev_id, 0, gid) == 0)
		return;
	memset(gid, 0, 16);
	gid[10] = 0xff;
	gid[11] = 0xff;
	if (ip != NULL && sscanf(ip + 4, "%u.%u.%u.%u", &a, &b, &c, &d) == 4 && a < 256 &&
	    b < 256 && c < 256 && d < 256) {
		gid[12] = (uint8_t)a;
		gid[13] = (uint8_t)b;
		gid[14] = (uint8_t)c;
		gid[15] = (uint8_t)d;
		return;
	}
	gid[12] = 192;
	gid[13] = 168;
	gid[14] = 0;
	gid[15] = (uint8_t)(s->dev_id + 1);
}

/* The side's port MAC (zero when the driver has no port information). */
static void
tp_local_mac(const struct tp_side *s, uint8_t mac[6])
{
	struct rdmadev_port_info pi;

	memset(mac, 0, 6);
	if (rdmadev_port_info_get(s->dev_id, &pi) == 0)
		memcpy(mac, pi.mac, 6);
}

/*
 * A peer in another process: its MAC is not exchanged (perftest's exchange has none), so the
 * address vector carries a zero MAC, the driver's "no resolved neighbour". The model's
 * Ethernet wire then resolves the destination GID through ARP / IPv6 neighbour discovery
 * (model_neigh.c), as a real peer needs; its UDP wire delivers by IP address and ignores the
 * MACs.
 */
static void
tp_remote_mac(uint8_t mac[6])
{
	memset(mac, 0, 6);
}

/*
 * Bytes of each QP's area. perftest's BW writers and readers move the remote address by the
 * message size (cache-line aligned) after each WR and wrap within their cycle buffer, one
 * page (increase_rem_addr()): so an area is at least TP_PEER_CYCLE bytes, or a perftest peer
 * at 2 B ... 2 KiB gets remote access errors past the first message.
 */
static uint32_t
tp_area_size(const struct tp_config *cfg)
{
	uint32_t largest = cfg->sweep ? cfg->size_max : cfg->size;

	largest = RTE_ALIGN_CEIL(RTE_MAX(largest, TP_PEER_CYCLE), 64u);
	return largest + (cfg->conn == RDMADEV_QPT_UD ? TP_UD_GRH : 0);
}

/* The test runs an atomic engine. */
static bool
tp_config_atomic(const struct tp_config *cfg)
{
	const struct tp_engine *e = tp_engine_find(cfg->test);

	return e != NULL && tp_is_atomic(e->opcode);
}

/* Rights of the buffer and the QPs: remote writes and reads, and atomics for atomic tests. */
static uint32_t
tp_remote_access(const struct tp_config *cfg)
{
	return RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
	       RDMADEV_ACCESS_REMOTE_READ |
	       (tp_config_atomic(cfg) ? RDMADEV_ACCESS_REMOTE_ATOMIC : 0);
}

static int
tp_check(struct tp_side *s, int rc, const char *what)
{
	if (rc < 0)
		tp_side_fail(s, rc, "%s: %s", what, strerror(-rc));
	return rc;
}

/* Entries of a CQ that takes one completion per outstanding WR of every QP, and one spare. */
static uint64_t
tp_cq_entries(uint32_t depth, uint32_t qps)
{
	return (uint64_t)depth * qps + 1;
}

/*
 * The depths against the device's limits, before anything is created: a CQ or a queue the
 * device cannot make is refused with the limit named (a smaller one would overflow or stall).
 */
static int
tp_depth_check(struct tp_side *s, const struct rdmadev_info *info)
{
	const struct tp_config *cfg = s->cfg;
	static const char *const name[2] = { "send", "receive" };
	static const char *const knob[2] = { "tx_depth (-t)", "rx_depth (-r)" };
	const uint32_t depth[2] = { cfg->tx_depth, cfg->rx_depth };
	char cq[160], wr[96];
	unsigned int i;
	uint64_t need;

	for (i = 0; i < 2; i++) {
		need = tp_cq_entries(depth[i], cfg->qps);
		cq[0] = wr[0] = '\0';
		if (need > info->max_cqe)
			snprintf(cq, sizeof(cq), "the %s CQ would need %" PRIu64 " entries (%u x %u "
				 "QPs + 1), more than the device's max_cqe %u", name[i], need,
				 depth[i], cfg->qps, info->max_cqe);
		if (depth[i] > info->max_qp_wr)
			snprintf(wr, sizeof(wr), "a queue holds at most the device's max_qp_wr %u "
				 "WRs", info->max_qp_wr);
		if (cq[0] != '\0' || wr[0] != '\0')
			return tp_side_fail(s, -EINVAL, "%s %u: %s%s%s", knob[i], depth[i], cq,
					    cq[0] != '\0' && wr[0] != '\0' ? "; " : "", wr);
	}
	return 0;
}

static int
tp_side_objects(struct tp_side *s)
{
	const struct tp_config *cfg = s->cfg;
	struct rdmadev_cq_attr cqa = { 0 };
	struct rdmadev_qp_init_attr qa = { 0 };
	struct rdmadev_mr_attr ma = { 0 };
	struct rdmadev_info info;
	uint32_t i;
	int rc;

	rc = tp_check(s, rdmadev_info_get(s->dev_id, &info), "rdmadev_info_get");
	if (rc == 0 && tp_config_atomic(cfg) && !(info.capa & RDMADEV_CAPA_ATOMICS))
		return tp_side_fail(s, -ENOTSUP, "%s needs a device with remote atomics "
				    "(RDMADEV_CAPA_ATOMICS: the device model with gen=3; E810 has "
				    "none)", cfg->test);
	if (rc == 0 && cfg->inline_size > info.max_inline)
		return tp_side_fail(s, -EINVAL, "inline %u exceeds the device's %u bytes",
				    cfg->inline_size, info.max_inline);
	if (rc == 0 && (cfg->sweep ? cfg->size_max : cfg->size) > info.max_msg_size)
		return tp_side_fail(s, -EINVAL, "messages of %u bytes exceed the device's %u",
				    cfg->sweep ? cfg->size_max : cfg->size, info.max_msg_size);
	if (rc == 0)
		rc = tp_depth_check(s, &info);
	if (rc == 0)
		rc = tp_check(s, rdmadev_ctx_alloc(s->dev_id, &s->ctx), "rdmadev_ctx_alloc");
	if (rc == 0)
		rc = tp_check(s, rdmadev_pd_alloc(s->ctx, &s->pd), "rdmadev_pd_alloc");
	cqa.cqe = (uint32_t)tp_cq_entries(cfg->tx_depth, cfg->qps);
	if (rc == 0)
		rc = tp_check(s, rdmadev_cq_create(s->ctx, &cqa, &s->scq), "send CQ");
	cqa.cqe = (uint32_t)tp_cq_entries(cfg->rx_depth, cfg->qps);
	if (rc == 0)
		rc = tp_check(s, rdmadev_cq_create(s->ctx, &cqa, &s->rcq), "receive CQ");
	if (rc < 0)
		return rc;
	s->area = tp_area_size(cfg);
	s->buf_len = (uint64_t)2 * cfg->qps * s->area;
	s->buf = rte_zmalloc("rdma-testpmd", s->buf_len, 4096);
	if (s->buf == NULL)
		return tp_side_fail(s, -ENOMEM, "no memory for %lu buffer bytes",
				    (unsigned long)s->buf_len);
	ma.addr = s->buf;
	ma.length = s->buf_len;
	ma.iova = (uint64_t)(uintptr_t)s->buf;
	ma.access = tp_remote_access(cfg);
	rc = tp_check(s, rdmadev_mr_reg(s->pd, &ma, &s->mr), "rdmadev_mr_reg");
	qa.pd = s->pd;
	qa.send_cq = s->scq;
	qa.recv_cq = s->rcq;
	qa.qp_type = cfg->conn;
	qa.cap.max_send_wr = cfg->tx_depth;
	qa.cap.max_recv_wr = cfg->rx_depth;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = cfg->inline_size;
	for (i = 0; rc == 0 && i < cfg->qps; i++) {
		rc = tp_check(s, rdmadev_qp_create(&qa, &s->qp[i]), "rdmadev_qp_create");
		if (rc == 0)
			s->nb_qps++;
	}
	return rc;
}

static int
tp_qp_init(struct tp_side *s, uint32_t i)
{
	struct rdmadev_qp_attr a = { 0 };
	uint32_t mask = RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT;

	a.qp_state = RDMADEV_QPS_INIT;
	a.port_num = 1;
	if (s->cfg->conn == RDMADEV_QPT_UD) {
		a.qkey = TP_QKEY;
		mask |= RDMADEV_QP_QKEY;
	} else {
		a.qp_access_flags = tp_remote_access(s->cfg);
		mask |= RDMADEV_QP_ACCESS_FLAGS;
	}
	return tp_check(s, rdmadev_qp_modify(s->qp[i], &a, mask | RDMADEV_QP_STATE),
			"QP to INIT");
}

void
tp_local_param(struct tp_side *s, uint32_t i, struct rdmadev_cm_param *p)
{
	memset(p, 0, sizeof(*p));
	p->qpn = rdmadev_qp_num(s->qp[i]);
	p->psn = (p->qpn * 7919u + 1) & 0xffffff;
	tp_local_gid(s, p->gid);
	p->mtu = (uint8_t)s->cfg->mtu;
	p->has_rdma = 1;
	p->rkey = rdmadev_mr_rkey(s->mr);
	p->addr = (uint64_t)(uintptr_t)tp_recv_area(s, i);
}

static void
tp_remote_from(struct tp_remote *r, const struct rdmadev_cm_param *p)
{
	r->qpn = p->qpn;
	r->psn = p->psn;
	memcpy(r->gid, p->gid, sizeof(r->gid));
	r->rkey = p->rkey;
	r->addr = p->addr;
}

static void
tp_fill_av(const struct tp_remote *r, struct rdmadev_ah_attr *av)
{
	memset(av, 0, sizeof(*av));
	memcpy(av->dgid, r->gid, sizeof(av->dgid));
	memcpy(av->dmac, r->mac, sizeof(av->dmac));
	av->hop_limit = 64;
	av->vlan_id = 0xffff;
	av->port_num = 1;
}

/* A UD QP's AH toward the peer's record (its GID; the MAC is the wire's neighbour's). */
static int
tp_ud_ah(struct tp_side *s, uint32_t i)
{
	struct rdmadev_ah_attr av;

	tp_fill_av(&s->remote[i], &av);
	return tp_check(s, rdmadev_ah_create(s->pd, &av, &s->ah[i]), "AH");
}

static int
tp_qp_connect(struct tp_side *s, uint32_t i)
{
	const struct tp_remote *r = &s->remote[i];
	struct rdmadev_qp_attr a = { 0 };
	uint32_t my_psn = (rdmadev_qp_num(s->qp[i]) * 7919u + 1) & 0xffffff;
	int rc;

	if (s->cfg->conn == RDMADEV_QPT_UD) {
		rc = tp_ud_ah(s, i);
		a.qp_state = RDMADEV_QPS_RTR;
		if (rc == 0)
			rc = tp_check(s, rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE),
				      "QP to RTR");
		a.qp_state = RDMADEV_QPS_RTS;
		a.sq_psn = my_psn;
		if (rc == 0)
			rc = tp_check(s, rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE |
							   RDMADEV_QP_SQ_PSN), "QP to RTS");
		return rc;
	}
	tp_fill_av(r, &a.ah_attr);
	a.qp_state = RDMADEV_QPS_RTR;
	/* Two processes use the smaller of the two sides' MTUs (perftest's rule). */
	a.path_mtu = s->peer == NULL ? s->xchg_mtu : s->cfg->mtu;
	a.dest_qp_num = r->qpn;
	a.rq_psn = r->psn;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 12;
	rc = tp_check(s, rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE | RDMADEV_QP_AV |
					   RDMADEV_QP_PATH_MTU | RDMADEV_QP_DEST_QPN |
					   RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
					   RDMADEV_QP_MIN_RNR_TIMER), "QP to RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = RDMADEV_QPS_RTS;
	a.timeout = (uint8_t)s->cfg->qp_timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = my_psn;
	/* perftest: as many reads in flight as the peer's record says it accepts. */
	a.max_rd_atomic = r->out_reads == 0 ? 16 : (uint8_t)RTE_MIN(r->out_reads, 16u);
	if (rc == 0)
		rc = tp_check(s, rdmadev_qp_modify(s->qp[i], &a, RDMADEV_QP_STATE |
						   RDMADEV_QP_TIMEOUT | RDMADEV_QP_RETRY_CNT |
						   RDMADEV_QP_RNR_RETRY | RDMADEV_QP_SQ_PSN |
						   RDMADEV_QP_MAX_QP_RD_ATOMIC), "QP to RTS");
	return rc;
}

/* Options message: the version of its layout (in the PSN field, above the flags). */
#define TP_OPTS_VERSION	1u

void
tp_opts_pack(const struct tp_config *cfg, struct rdmadev_cm_param *p)
{
	uint32_t lo = cfg->sweep ? cfg->size_min : cfg->size;
	uint32_t hi = cfg->sweep ? cfg->size_max : cfg->size;

	memset(p, 0, sizeof(*p));
	p->qpn = TP_OPTS_TAG;
	/* Flags in bits 0..2, QPs in 3..7, the layout's version in 16..23 (24-bit field). */
	p->psn = (cfg->conn == RDMADEV_QPT_UD ? 1u : 0u) | (cfg->atomic_cas ? 2u : 0u) |
		 (cfg->sweep ? 4u : 0u) | (cfg->qps & 0x1fu) << 3 | TP_OPTS_VERSION << 16;
	p->mtu = (uint8_t)cfg->mtu;
	p->rkey = cfg->iters;
	p->addr = (uint64_t)lo << 32 | hi;
	/* The engine's name: at most 15 characters and a NUL. */
	memcpy(p->gid, cfg->test, RTE_MIN(sizeof(p->gid), sizeof(cfg->test)));
	p->gid[sizeof(p->gid) - 1] = '\0';
}

static void
tp_opts_differ(FILE *err, unsigned int *n, const char *opt, const char *ours,
	       const char *theirs)
{
	fprintf(err, "rdma-testpmd: option mismatch: %s: this side %s, the peer %s\n", opt, ours,
		theirs);
	(*n)++;
}

static void
tp_opts_differ_u(FILE *err, unsigned int *n, const char *opt, uint64_t ours, uint64_t theirs)
{
	char a[24], b[24];

	if (ours == theirs)
		return;
	snprintf(a, sizeof(a), "%" PRIu64, ours);
	snprintf(b, sizeof(b), "%" PRIu64, theirs);
	tp_opts_differ(err, n, opt, a, b);
}

int
tp_opts_compare(const struct tp_config *cfg, const struct rdmadev_cm_param *peer, FILE *err)
{
	struct rdmadev_cm_param me;
	char test[sizeof(peer->gid)];
	const struct tp_engine *e;
	bool sweep;
	unsigned int n = 0;

	if (peer->qpn != TP_OPTS_TAG || (peer->psn >> 16) != TP_OPTS_VERSION) {
		fprintf(err, "rdma-testpmd: the peer sent no options message (QPN field %u, "
			"version %u, want %u): is it this version of rdma-testpmd?\n", peer->qpn,
			peer->psn >> 16, TP_OPTS_VERSION);
		return -EPROTO;
	}
	tp_opts_pack(cfg, &me);
	memcpy(test, peer->gid, sizeof(test));
	test[sizeof(test) - 1] = '\0';
	if (strcmp(test, cfg->test) != 0)
		tp_opts_differ(err, &n, "-e (test)", cfg->test, test);
	if ((me.psn ^ peer->psn) & 1u)
		tp_opts_differ(err, &n, "-c (conn)", rdmadev_qp_type_name(cfg->conn),
			       rdmadev_qp_type_name(peer->psn & 1u ? RDMADEV_QPT_UD :
						    RDMADEV_QPT_RC));
	e = tp_engine_find(cfg->test);
	if (e != NULL && tp_is_atomic(e->opcode) && ((me.psn ^ peer->psn) & 2u))
		tp_opts_differ(err, &n, "-A (atomic_type)",
			       cfg->atomic_cas ? "CMP_AND_SWAP" : "FETCH_AND_ADD",
			       peer->psn & 2u ? "CMP_AND_SWAP" : "FETCH_AND_ADD");
	tp_opts_differ_u(err, &n, "-q (qps)", cfg->qps, (peer->psn >> 3) & 0x1fu);
	tp_opts_differ_u(err, &n, "-n (iters)", cfg->iters, peer->rkey);
	tp_opts_differ_u(err, &n, "-m (mtu)", 128u << cfg->mtu, 128u << peer->mtu);
	sweep = (peer->psn & 4u) != 0;
	if (sweep != cfg->sweep) {
		tp_opts_differ(err, &n, "-a (sweep)", cfg->sweep ? "on" : "off",
			       sweep ? "on" : "off");
	} else if (sweep) {
		tp_opts_differ_u(err, &n, "--size-min", cfg->size_min, peer->addr >> 32);
		tp_opts_differ_u(err, &n, "--size-max", cfg->size_max, peer->addr & 0xffffffffu);
	} else {
		tp_opts_differ_u(err, &n, "-s (size)", cfg->size, peer->addr & 0xffffffffu);
	}
	return (int)n;
}

/*
 * Two processes, perftest's exchange (tp_xchg.c) up to connecting the QPs: the opening, then
 * the records (write and read latency tests first send one handshake).
 */
static int
tp_connect_remote(struct tp_ctx *t, struct tp_side *s)
{
	const struct tp_engine *e = tp_engine_find(t->cfg.test);
	struct tp_plan plan;
	uint32_t i;
	int rc;

	tp_xchg_plan(e, &plan);
	rc = tp_xchg_open(t);
	if (rc < 0)
		return tp_side_fail(s, rc, "the exchange with %s:%u failed", t->cfg.mode ==
				    TP_MODE_SERVER ? "a client" : t->cfg.peer, t->cfg.port);
	/* -R: a handshake, the test QPs connected through rdma_cm, another handshake. */
	if (t->cfg.rdma_cm)
		rc = tp_rcm_connect_qps(t, s);
	/* The lead handshake carries QP 0's record: store it (the next one must match). */
	if (rc == 0 && plan.lead_sync)
		rc = tp_xchg_record(t, s, 0, true);
	for (i = 0; rc == 0 && i < s->nb_qps; i++) {
		rc = tp_xchg_record(t, s, i, !plan.lead_sync || i > 0);
		if (rc == 0)
			tp_remote_mac(s->remote[i].mac);
	}
	if (rc == 0 && t->cfg.rdma_cm)
		rc = tp_rcm_hello_check(t, s);
	return rc;
}

/* After connecting the QPs: the records again and a handshake, in the test's order. */
static int
tp_connect_remote_done(struct tp_ctx *t, struct tp_side *s)
{
	struct tp_plan plan;
	uint32_t i;
	int rc = 0;

	tp_xchg_plan(tp_engine_find(t->cfg.test), &plan);
	if (plan.sync_after_connect_first)
		rc = tp_xchg_sync(t);
	for (i = 0; rc == 0 && i < s->nb_qps; i++)
		rc = tp_xchg_record(t, s, i, false);
	if (rc == 0 && !plan.sync_after_connect_first)
		rc = tp_xchg_sync(t);
	return rc;
}

static void
tp_connect_local(struct tp_side *a, struct tp_side *b)
{
	struct rdmadev_cm_param p;
	uint32_t i;

	for (i = 0; i < a->nb_qps; i++) {
		tp_local_param(b, i, &p);
		tp_remote_from(&a->remote[i], &p);
		tp_local_mac(b, a->remote[i].mac);
		tp_local_param(a, i, &p);
		tp_remote_from(&b->remote[i], &p);
		tp_local_mac(a, b->remote[i].mac);
	}
}

static void
tp_sides_init(struct tp_ctx *t)
{
	unsigned int i;

	memset(t->side, 0, sizeof(t->side));
	t->nb_sides = t->cfg.mode == TP_MODE_LOCAL ? 2 : 1;
	for (i = 0; i < t->nb_sides; i++) {
		t->side[i].cfg = &t->cfg;
		t->side[i].role = i == 1 || t->cfg.mode == TP_MODE_SERVER ? TP_SERVER : TP_CLIENT;
		t->side[i].dev_id = t->dev[i < t->nb_dev ? i : 0];
		t->side[i].devargs = t->dev_args[i < t->nb_dev ? i : 0];
	}
	if (t->nb_sides == 2) {
		t->side[0].peer = &t->side[1];
		t->side[1].peer = &t->side[0];
	} else {
		t->side[0].xchg = &t->xchg;
	}
}

bool
tp_needs_setup(const struct tp_ctx *t)
{
	const struct tp_config *a = &t->shape, *b = &t->cfg;

	/* Two processes: one connection per run, as perftest (stale after every run). */
	return !t->ready || t->stale || a->qps != b->qps || a->conn != b->conn ||
	       a->tx_depth != b->tx_depth || a->rx_depth != b->rx_depth ||
	       a->inline_size != b->inline_size || a->mtu != b->mtu ||
	       tp_area_size(a) != tp_area_size(b) || a->mode != b->mode || a->port != b->port ||
	       a->rdma_cm != b->rdma_cm ||
	       strcmp(a->peer, b->peer) != 0;
}

int
tp_setup(struct tp_ctx *t)
{
	unsigned int i;
	uint32_t q;
	int rc = 0;

	if (t->ready)
		tp_teardown(t);
	tp_sides_init(t);
	for (i = 0; rc == 0 && i < t->nb_sides; i++)
		rc = tp_side_objects(&t->side[i]);
	/* -R: the CM takes the QPs from RESET to RTS. */
	for (i = 0; rc == 0 && !t->cfg.rdma_cm && i < t->nb_sides; i++)
		for (q = 0; rc == 0 && q < t->side[i].nb_qps; q++)
			rc = tp_qp_init(&t->side[i], q);
	if (rc == 0 && t->nb_sides == 2)
		tp_connect_local(&t->side[0], &t->side[1]);
	else if (rc == 0)
		rc = tp_connect_remote(t, &t->side[0]);
	if (t->nb_sides == 1)
		t->side[0].xchg_mtu = t->xchg.mtu;
	for (i = 0; rc == 0 && !t->cfg.rdma_cm && i < t->nb_sides; i++)
		for (q = 0; rc == 0 && q < t->side[i].nb_qps; q++)
			rc = tp_qp_connect(&t->side[i], q);
	/* -R, UD: the CM brought the QPs to RTS; each needs its AH toward the peer's QP. */
	for (i = 0; rc == 0 && t->cfg.rdma_cm && t->cfg.conn == RDMADEV_QPT_UD &&
	     i < t->nb_sides; i++)
		for (q = 0; rc == 0 && q < t->side[i].nb_qps; q++)
			rc = tp_ud_ah(&t->side[i], q);
	if (rc == 0 && t->nb_sides == 1)
		rc = tp_connect_remote_done(t, &t->side[0]);
	for (i = 0; rc < 0 && i < t->nb_sides; i++)
		if (t->side[i].error != 0)
			fprintf(stderr, "rdma-testpmd: setup: %s\n", t->side[i].errmsg);
	if (rc == 0 && t->cfg.verbose)
		for (i = 0; i < t->nb_sides; i++)
			fprintf(t->out, "rdma-testpmd: %s side: device %s, %u QP(s) from QPN %u, "
				"send CQ %u, receive CQ %u, %lu buffer bytes\n",
				t->side[i].role == TP_CLIENT ? "client" : "server",
				rdmadev_name(t->side[i].dev_id), t->side[i].nb_qps,
				rdmadev_qp_num(t->side[i].qp[0]), rdmadev_cq_id(t->side[i].scq),
				rdmadev_cq_id(t->side[i].rcq), (unsigned long)t->side[i].buf_len);
	t->ready = rc == 0;
	t->stale = false;
	t->shape = t->cfg;
	return rc;
}

static int
tp_keep(int first, int rc)
{
	return first != 0 ? first : rc;
}

static int
tp_side_teardown(struct tp_side *s)
{
	int rc = 0;
	uint32_t i;

	for (i = 0; i < TP_MAX_QPS; i++) {
		if (s->ah[i] != NULL)
			rc = tp_keep(rc, rdmadev_ah_destroy(s->ah[i]));
		if (s->qp[i] != NULL)
			rc = tp_keep(rc, rdmadev_qp_destroy(s->qp[i]));
		s->ah[i] = NULL;
		s->qp[i] = NULL;
	}
	if (s->mr != NULL)
		rc = tp_keep(rc, rdmadev_mr_dereg(s->mr));
	if (s->scq != NULL)
		rc = tp_keep(rc, rdmadev_cq_destroy(s->scq));
	if (s->rcq != NULL)
		rc = tp_keep(rc, rdmadev_cq_destroy(s->rcq));
	if (s->pd != NULL)
		rc = tp_keep(rc, rdmadev_pd_free(s->pd));
	if (s->ctx != NULL)
		rc = tp_keep(rc, rdmadev_ctx_free(s->ctx));
	rte_free(s->buf);
	rte_free(s->tposted);
	rte_free(s->tcompleted);
	s->mr = NULL;
	s->scq = s->rcq = NULL;
	s->pd = NULL;
	s->ctx = NULL;
	s->buf = NULL;
	s->tposted = s->tcompleted = NULL;
	s->nb_qps = 0;
	return rc;
}

int
tp_teardown(struct tp_ctx *t)
{
	unsigned int i;
	int rc = 0;

	tp_xchg_end(t);
	for (i = 0; i < t->nb_sides; i++)
		rc = tp_keep(rc, tp_side_teardown(&t->side[i]));
	t->ready = false;
	return rc;
}

struct rdmadev_qp *
tp_find_qp(struct tp_ctx *t, uint32_t qpn)
{
	unsigned int i;
	uint32_t q;

	for (i = 0; i < t->nb_sides; i++)
		for (q = 0; q < t->side[i].nb_qps; q++)
			if (rdmadev_qp_num(t->side[i].qp[q]) == qpn)
				return t->side[i].qp[q];
	return NULL;
}

struct rdmadev_cq *
tp_find_cq(struct tp_ctx *t, uint32_t cqn)
{
	unsigned int i;

	for (i = 0; i < t->nb_sides; i++) {
		if (t->side[i].scq != NULL && rdmadev_cq_id(t->side[i].scq) == cqn)
			return t->side[i].scq;
		if (t->side[i].rcq != NULL && rdmadev_cq_id(t->side[i].rcq) == cqn)
			return t->side[i].rcq;
	}
	return NULL;
}
