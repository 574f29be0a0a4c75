/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libirdma-verbs, devices and contexts: EAL started on the first ibv_get_device_list(), the
 * rdmadev devices of IRDMA_PMD_DEVARGS listed beside the system's kernel devices, contexts,
 * and the queries (device, port, GID, P_Key) that rdma-core answers from the kernel.
 */

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "verbs_priv.h"

/* ibv_query_gid_type's values (rdma-core's driver.h enum ibv_gid_type_sysfs). */
#define IV_GID_TYPE_SYSFS_ROCE_V2 1

RTE_LOG_REGISTER(iv_logtype, lib.verbs, NOTICE);

struct iv_dev iv_devs[RDMADEV_MAX_DEVS];
unsigned int iv_nb_devs;

static pthread_once_t iv_once = PTHREAD_ONCE_INIT;
/* Set while this thread starts EAL: drivers EAL loads may call verbs (they get the system's). */
static __thread bool iv_in_init;
static void *iv_real_handle;
static bool iv_real_tried;
static pthread_mutex_t iv_real_lock = PTHREAD_MUTEX_INITIALIZER;

void *
iv_real_sym(const char *name, const char *ver)
{
	void *h;

	pthread_mutex_lock(&iv_real_lock);
	if (!iv_real_tried) {
		iv_real_tried = true;
		iv_real_handle = dlopen(IRDMA_VERBS_SYSTEM_LIB, RTLD_NOW | RTLD_GLOBAL);
		if (iv_real_handle == NULL)
			IV_LOG(INFO, "no system libibverbs (%s): kernel RDMA devices are not listed",
			       dlerror());
	}
	h = iv_real_handle;
	pthread_mutex_unlock(&iv_real_lock);
	return h != NULL ? dlvsym(h, name, ver) : NULL;
}

/* Split @p s on blanks into argv[*argc...], at most @p max entries in all. */
static void
iv_split_args(char *s, char **argv, int *argc, int max)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(s, " \t\n", &save); tok != NULL && *argc < max - 1;
	     tok = strtok_r(NULL, " \t\n", &save))
		argv[(*argc)++] = tok;
}

/* True when the system has free 2 MiB or 1 GiB hugepages. */
static bool
iv_hugepages_free(void)
{
	static const char *const files[] = {
		"/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages",
		"/sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(files); i++) {
		FILE *f = fopen(files[i], "r");
		unsigned long n = 0;

		if (f == NULL)
			continue;
		if (fscanf(f, "%lu", &n) != 1)
			n = 0;
		fclose(f);
		if (n > 0)
			return true;
	}
	return false;
}

/* "0@(a,b,...)": lcore 0 on every CPU the thread may run on, so EAL keeps its affinity. */
static void
iv_lcores_arg(char *buf, size_t len)
{
	cpu_set_t set;
	size_t off;
	int cpu, first = 1;

	off = (size_t)snprintf(buf, len, "0@(");
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && off + 8 < len; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%d", first ? "" : ",", cpu);
		first = 0;
	}
	snprintf(buf + off, len - off, ")");
}

/* True when the EAL arguments @p eal choose the lcores (-l, -c, --lcores). */
static bool
iv_names_lcores(const char *eal)
{
	const char *p;

	for (p = eal; *p != '\0'; p++) {
		if (p != eal && p[-1] != ' ' && p[-1] != '\t')
			continue;
		if (strncmp(p, "--lcores", 8) == 0 ||
		    (p[0] == '-' && (p[1] == 'l' || p[1] == 'c') &&
		     (p[2] == '\0' || p[2] == ' ' || p[2] == '\t' || (p[2] >= '0' && p[2] <= '9'))))
			return true;
	}
	return false;
}

/* True when @p s starts a device's devargs (a driver name), not an ip= list entry. */
static bool
iv_is_dev_start(const char *s)
{
	return strncmp(s, "irdma", 5) == 0 || strncmp(s, "rdma_test", 9) == 0;
}

/* Open, configure and start one rdmadev device for verbs. */
static void
iv_dev_add(const char *devargs)
{
	struct iv_dev *d = &iv_devs[iv_nb_devs];
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	const uint8_t *m;
	int id, rc;

	id = rdmadev_open(devargs);
	if (id < 0) {
		IV_LOG(ERR, "rdmadev_open(\"%s\"): %s", devargs, strerror(-id));
		return;
	}
	rc = rdmadev_info_get((int16_t)id, &d->info);
	if (rc == 0) {
		conf.capa = d->info.capa;
		rc = rdmadev_configure((int16_t)id, &conf);
	}
	if (rc == 0)
		rc = rdmadev_start((int16_t)id);
	if (rc == 0)
		rc = rdmadev_port_info_get((int16_t)id, &d->port);
	if (rc < 0) {
		IV_LOG(ERR, "device \"%s\": %s", devargs, strerror(-rc));
		(void)rdmadev_stop((int16_t)id);
		(void)rdmadev_close((int16_t)id);
		return;
	}
	d->dev_id = (int16_t)id;
	d->ibdev.node_type = IBV_NODE_CA;
	d->ibdev.transport_type = IBV_TRANSPORT_IB;
	snprintf(d->ibdev.name, sizeof(d->ibdev.name), "%s", rdmadev_name((int16_t)id));
	memcpy(d->ibdev.dev_name, d->ibdev.name, sizeof(d->ibdev.name));
	/* EUI-64 of the MAC: the node GUID irdma reports, in network order. */
	m = d->port.mac;
	{
		uint8_t g[8] = { m[0] ^ 2, m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5] };

		memcpy(&d->guid, g, sizeof(g));
	}
	iv_nb_devs++;
}

/*
 * The devices when IRDMA_PMD_DEVARGS is not set: every E810 / E82x function bound to
 * vfio-pci (rdmadev_probe_pci(), its sysfs root as rdmadev's), then the device model.
 */
static void
iv_default_devs(char *out, size_t len)
{
	struct rdmadev_pci_func f[8];
	size_t off = 0;
	int n, i;

	out[0] = '\0';
	n = rdmadev_probe_pci(NULL, f, RTE_DIM(f));
	for (i = 0; i < RTE_MIN(n, (int)RTE_DIM(f)); i++) {
		if (!f[i].usable) {
			IV_LOG(NOTICE, "E810 %s not used: %s", f[i].addr, f[i].reason);
			continue;
		}
		IV_LOG(NOTICE, "E810 %s on vfio-pci: opening %s", f[i].addr, f[i].devargs);
		off += (size_t)snprintf(out + off, len - off, "%s;", f[i].devargs);
		if (off >= len)
			return;
	}
	snprintf(out + off, len - off, "irdma_model0");
}

static void
iv_init(void)
{
	static char eal_copy[4096], devs_copy[4096], lcores[512];
	static char *argv[128];
	const char *eal = getenv("IRDMA_PMD_EAL");
	const char *devs = getenv("IRDMA_PMD_DEVARGS");
	char *p, *start;
	int argc = 0, rc;

	iv_fork_env();
	argv[argc++] = (char *)"irdma-verbs";
	if (eal == NULL || !iv_names_lcores(eal)) {
		/* EAL would pin the application's thread to one CPU: lcore 0 gets all of its. */
		iv_lcores_arg(lcores, sizeof(lcores));
		argv[argc++] = (char *)"--lcores";
		argv[argc++] = lcores;
	}
	if (eal != NULL) {
		snprintf(eal_copy, sizeof(eal_copy), "%s", eal);
		iv_split_args(eal_copy, argv, &argc, (int)RTE_DIM(argv));
	} else {
		argv[argc++] = (char *)"--no-telemetry";
		argv[argc++] = (char *)"--no-pci";
		argv[argc++] = (char *)"--log-level=lib.eal:error";
		/* No shared files, so that any number of verbs processes run at once. */
		if (iv_hugepages_free()) {
			argv[argc++] = (char *)"--in-memory";
		} else {
			argv[argc++] = (char *)"--no-huge";
			argv[argc++] = (char *)"-m";
			argv[argc++] = (char *)"512";
			argv[argc++] = (char *)"--no-shconf";
		}
	}
	argv[argc] = NULL;
	iv_in_init = true;
	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		IV_LOG(ERR, "rte_eal_init: %s (IRDMA_PMD_EAL=\"%s\")", rte_strerror(rte_errno),
		       eal != NULL ? eal : "");
		iv_in_init = false;
		return;
	}
	if (devs != NULL)
		snprintf(devs_copy, sizeof(devs_copy), "%s", devs);
	else
		iv_default_devs(devs_copy, sizeof(devs_copy));
	/* ';' separates devices; a ';' inside an ip= list stays in its device. */
	start = devs_copy;
	for (p = devs_copy; iv_nb_devs < RDMADEV_MAX_DEVS; p++) {
		if (*p != '\0' && !(*p == ';' && iv_is_dev_start(p + 1)))
			continue;
		{
			bool end = *p == '\0';

			*p = '\0';
			if (*start != '\0')
				iv_dev_add(start);
			if (end)
				break;
			start = p + 1;
		}
	}
	iv_in_init = false;
}

/* ---------------------------------------------------------------------------------------- */
/* Device list                                                                              */

#undef ibv_get_device_list

/* The list we hand out: our devices, then the system's; the system's list is kept behind. */
struct ibv_device **
ibv_get_device_list(int *num_devices)
{
	typedef struct ibv_device **(*fn_t)(int *);
	static fn_t real;
	struct ibv_device **sys = NULL, **list;
	int nsys = 0, n, i;

	if (real == NULL)
		real = (fn_t)iv_real_sym("ibv_get_device_list", "IBVERBS_1.1");
	if (iv_in_init)
		return real != NULL ? real(num_devices) : NULL;
	pthread_once(&iv_once, iv_init);
	if (real != NULL) {
		sys = real(&nsys);
		if (sys == NULL)
			nsys = 0;
	}
	n = (int)iv_nb_devs + nsys;
	list = calloc((size_t)n + 2, sizeof(*list));
	if (list == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	list[0] = (struct ibv_device *)sys;	/* the system's list, for free */
	for (i = 0; i < (int)iv_nb_devs; i++)
		list[1 + i] = &iv_devs[i].ibdev;
	for (i = 0; i < nsys; i++)
		list[1 + iv_nb_devs + i] = sys[i];
	if (num_devices != NULL)
		*num_devices = n;
	return list + 1;
}

void
ibv_free_device_list(struct ibv_device **list)
{
	typedef void (*fn_t)(struct ibv_device **);
	static fn_t real;
	struct ibv_device **sys;

	if (list == NULL)
		return;
	sys = (struct ibv_device **)list[-1];
	if (sys != NULL) {
		if (real == NULL)
			real = (fn_t)iv_real_sym("ibv_free_device_list", "IBVERBS_1.1");
		if (real != NULL)
			real(sys);
	}
	free(list - 1);
}

const char *
ibv_get_device_name(struct ibv_device *device)
{
	if (device == NULL) {
		IV_LOG(ERR, "NULL device");
		errno = EINVAL;
		return NULL;
	}
	if (iv_dev_ours(device))
		return device->name;
	{
		IV_FORWARD(const char *(*)(struct ibv_device *), "ibv_get_device_name",
			   "IBVERBS_1.1", NULL);
		return real(device);
	}
}

__be64
ibv_get_device_guid(struct ibv_device *device)
{
	if (device == NULL) {
		IV_LOG(ERR, "NULL device");
		errno = EINVAL;
		return 0;
	}
	if (iv_dev_ours(device))
		return container_of(device, struct iv_dev, ibdev)->guid;
	{
		IV_FORWARD(__be64 (*)(struct ibv_device *), "ibv_get_device_guid", "IBVERBS_1.1",
			   0);
		return real(device);
	}
}

int
ibv_get_device_index(struct ibv_device *device)
{
	if (device == NULL) {
		IV_LOG(ERR, "NULL device");
		return -1;
	}
	if (iv_dev_ours(device))
		return container_of(device, struct iv_dev, ibdev)->dev_id;
	{
		IV_FORWARD(int (*)(struct ibv_device *), "ibv_get_device_index", "IBVERBS_1.9",
			   -1);
		return real(device);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Contexts                                                                                 */

static int iv_query_port_op(struct ibv_context *c, uint8_t port, struct ibv_port_attr *a,
			    size_t len);
static int iv_query_device_ex_op(struct ibv_context *c,
				 const struct ibv_query_device_ex_input *input,
				 struct ibv_device_attr_ex *attr, size_t attr_size);

void
iv_track(struct ibv_context *c, enum iv_kind k, struct iv_link *l)
{
	struct iv_ctx *x = iv_ctx_of(c);

	pthread_mutex_lock(&x->lock);
	l->next = &x->objs[k];
	l->prev = x->objs[k].prev;
	l->prev->next = l;
	x->objs[k].prev = l;
	pthread_mutex_unlock(&x->lock);
}

void
iv_untrack(struct ibv_context *c, struct iv_link *l)
{
	struct iv_ctx *x = iv_ctx_of(c);

	pthread_mutex_lock(&x->lock);
	l->prev->next = l->next;
	l->next->prev = l->prev;
	l->prev = l->next = l;
	pthread_mutex_unlock(&x->lock);
}

/* Destroy one object the application left, through its verbs destroy. */
static int
iv_release(enum iv_kind k, struct iv_link *l)
{
	switch (k) {
	case IV_QP:
		return ibv_destroy_qp(&container_of(l, struct iv_qp, link)->qp);
	case IV_AH:
		return ibv_destroy_ah(&container_of(l, struct iv_ah, link)->ah);
	case IV_SRQ:
		return ibv_destroy_srq(&container_of(l, struct iv_srq, link)->srq);
	case IV_MR:
		return ibv_dereg_mr(&container_of(l, struct iv_mr, link)->mr);
	case IV_CQ:
		return ibv_destroy_cq(&container_of(l, struct iv_cq, link)->cq);
	default:
		return ibv_dealloc_pd(&container_of(l, struct iv_pd, link)->pd);
	}
}

/*
 * ibv_close_device releases what the application did not destroy, as closing the kernel's
 * device file does: QPs first, PDs last. An object whose destroy fails stays (and so does
 * the context, with EBUSY).
 */
static void
iv_release_all(struct iv_ctx *c)
{
	static const char *const names[IV_KINDS] = { "QP", "AH", "SRQ", "MR", "CQ", "PD" };
	unsigned int k, n;

	for (k = 0; k < IV_KINDS; k++) {
		struct iv_link *l, *next;

		n = 0;
		for (l = c->objs[k].next; l != &c->objs[k]; l = next) {
			next = l->next;
			if (iv_release((enum iv_kind)k, l) == 0)
				n++;
		}
		if (n > 0)
			IV_LOG(NOTICE, "%s: released %u %s%s the application left",
			       c->vctx.context.device->name, n, names[k], n > 1 ? "s" : "");
	}
}

struct ibv_context *
ibv_open_device(struct ibv_device *device)
{
	struct iv_dev *d;
	struct iv_ctx *c;
	int rc;

	if (device == NULL) {
		IV_LOG(ERR, "NULL device");
		errno = EINVAL;
		return NULL;
	}
	if (!iv_dev_ours(device)) {
		IV_FORWARD(struct ibv_context *(*)(struct ibv_device *), "ibv_open_device",
			   "IBVERBS_1.1", NULL);
		return real(device);
	}
	d = container_of(device, struct iv_dev, ibdev);
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	rc = rdmadev_ctx_alloc(d->dev_id, &c->r);
	if (rc < 0) {
		IV_LOG(ERR, "%s: rdmadev_ctx_alloc: %s", device->name, strerror(-rc));
		free(c);
		errno = -rc;
		return NULL;
	}
	c->dev = d;
	pthread_mutex_init(&c->lock, NULL);
	for (rc = 0; rc < IV_KINDS; rc++)
		c->objs[rc].prev = c->objs[rc].next = &c->objs[rc];
	c->vctx.sz = sizeof(c->vctx);
	c->vctx.query_port = iv_query_port_op;
	c->vctx.query_device_ex = iv_query_device_ex_op;
	c->vctx.create_qp_ex = iv_create_qp_ex_op;
	c->vctx.create_cq_ex = iv_create_cq_ex_op;
	c->vctx.context.device = device;
	c->vctx.context.cmd_fd = -1;
	c->vctx.context.async_fd = rdmadev_event_fd(d->dev_id);
	c->vctx.context.num_comp_vectors = 1;
	c->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	pthread_mutex_init(&c->vctx.context.mutex, NULL);
	iv_ctx_set_fp_ops(&c->vctx.context);
	return &c->vctx.context;
}

int
ibv_close_device(struct ibv_context *context)
{
	struct iv_ctx *c;
	int rc;

	if (context == NULL) {
		IV_LOG(ERR, "NULL context");
		return EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *), "ibv_close_device", "IBVERBS_1.1",
			   EINVAL);
		return real(context);
	}
	c = iv_ctx_of(context);
	c->closing = true;	/* as closing the kernel's file: unacknowledged events go */
	iv_release_all(c);
	rc = rdmadev_ctx_free(c->r);
	if (rc < 0) {
		IV_LOG(ERR, "%s: objects of the context are still alive: %s",
		       context->device->name, strerror(-rc));
		return -rc;
	}
	pthread_mutex_destroy(&context->mutex);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Queries                                                                                  */

static void
iv_fill_device_attr(const struct iv_dev *d, struct ibv_device_attr *a)
{
	const struct rdmadev_info *in = &d->info;

	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "%s",
		 d->port.fw_ver[0] != '\0' ? d->port.fw_ver : "0.0");
	a->node_guid = d->guid;
	a->sys_image_guid = d->guid;
	a->max_mr_size = in->max_mr_size;
	a->page_size_cap = in->page_size_cap;
	a->vendor_id = 0x8086;		/* Intel */
	a->vendor_part_id = 0x1592;	/* E810-C (irdma's device table) */
	a->hw_ver = in->hw_gen;
	a->max_qp = (int)in->max_qp;
	a->max_qp_wr = (int)in->max_qp_wr;
	a->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN | IBV_DEVICE_PORT_ACTIVE_EVENT |
			      IBV_DEVICE_CURR_QP_STATE_MOD | IBV_DEVICE_MEM_MGT_EXTENSIONS;
	if (in->capa & RDMADEV_CAPA_CQ_RESIZE)
		a->device_cap_flags |= IBV_DEVICE_RESIZE_MAX_WR;
	if (in->capa & RDMADEV_CAPA_MW)
		a->device_cap_flags |= IBV_DEVICE_MEM_WINDOW | IBV_DEVICE_MEM_WINDOW_TYPE_2B;
	a->max_sge = (int)in->max_sge;
	a->max_sge_rd = (int)in->max_sge_rd;
	a->max_cq = (int)in->max_cq;
	a->max_cqe = (int)in->max_cqe;
	a->max_mr = (int)in->max_mr;
	a->max_pd = (int)in->max_pd;
	a->max_qp_rd_atom = (int)in->max_qp_rd_atom;
	a->max_res_rd_atom = (int)(in->max_qp_rd_atom * in->max_qp);
	a->max_qp_init_rd_atom = (int)in->max_qp_init_rd_atom;
	a->atomic_cap = (in->capa & RDMADEV_CAPA_ATOMICS) ? IBV_ATOMIC_HCA : IBV_ATOMIC_NONE;
	a->max_mw = (int)in->max_mw;
	a->max_ah = (int)in->max_ah;
	a->max_fmr = 0;
	a->max_srq = (int)in->max_srq;
	a->max_srq_wr = (int)in->max_srq_wr;
	a->max_srq_sge = in->max_srq != 0 ? (int)in->max_sge : 0;
	a->max_pkeys = (uint16_t)in->max_pkeys;
	a->local_ca_ack_delay = 0;
	a->phys_port_cnt = in->nb_ports;
}

int
ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
{
	if (context == NULL || device_attr == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, struct ibv_device_attr *),
			   "ibv_query_device", "IBVERBS_1.1", EINVAL);
		return real(context, device_attr);
	}
	iv_fill_device_attr(iv_ctx_of(context)->dev, device_attr);
	return 0;
}

static int
iv_query_device_ex_op(struct ibv_context *c, const struct ibv_query_device_ex_input *input,
		      struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ibv_device_attr_ex a;
	const struct iv_dev *d = iv_ctx_of(c)->dev;

	if (input != NULL && input->comp_mask != 0) {
		IV_LOG(ERR, "unknown input comp_mask 0x%x", input->comp_mask);
		return EINVAL;
	}
	if (attr_size < sizeof(attr->orig_attr)) {
		IV_LOG(ERR, "attribute size %zu too small", attr_size);
		return EINVAL;
	}
	memset(&a, 0, sizeof(a));
	iv_fill_device_attr(d, &a.orig_attr);
	a.max_dm_size = 0;
	a.raw_packet_caps = 0;
	a.phys_port_cnt_ex = d->info.nb_ports;
	if (d->info.capa & RDMADEV_CAPA_CQE_TIMESTAMP)
		a.completion_timestamp_mask = UINT64_MAX;
	memset(attr, 0, attr_size);
	memcpy(attr, &a, RTE_MIN(attr_size, sizeof(a)));
	return 0;
}

/* Width and per-lane speed (verbs encodings) of a link of @p mbps. */
static void
iv_link_width_speed(uint32_t mbps, uint8_t *width, uint8_t *speed)
{
	*width = 1;	/* 1X */
	*speed = 1;	/* SDR */
	if (mbps >= 200000) {
		*width = 2;	/* 4X */
		*speed = 64;	/* HDR */
	} else if (mbps >= 100000) {
		*width = 2;	/* 4X */
		*speed = 32;	/* EDR */
	} else if (mbps >= 50000) {
		*width = 16;	/* 2X */
		*speed = 32;	/* EDR */
	} else if (mbps >= 25000) {
		*speed = 32;	/* EDR */
	} else if (mbps >= 10000) {
		*speed = 8;	/* FDR10 */
	}
}

static int
iv_query_port_op(struct ibv_context *c, uint8_t port, struct ibv_port_attr *attr,
		 size_t len)
{
	struct iv_dev *d = iv_ctx_of(c)->dev;
	struct ibv_port_attr a;
	int rc;

	if (attr == NULL || port != 1) {
		IV_LOG(ERR, "%s: %s", c->device->name,
		       attr == NULL ? "NULL attributes" : "no such port (the device has port 1)");
		return EINVAL;
	}
	rc = rdmadev_port_info_get(d->dev_id, &d->port);
	if (rc < 0)
		return -rc;
	memset(&a, 0, sizeof(a));
	a.state = d->port.state == RDMADEV_PORT_ACTIVE ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
	a.max_mtu = (enum ibv_mtu)d->port.max_mtu;
	a.active_mtu = (enum ibv_mtu)d->port.active_mtu;
	a.gid_tbl_len = (int)d->port.gid_tbl_len;
	a.port_cap_flags = IBV_PORT_CM_SUP | IBV_PORT_IP_BASED_GIDS;
	a.max_msg_sz = d->info.max_msg_size;
	a.pkey_tbl_len = (uint16_t)d->info.max_pkeys;
	a.lid = 0;
	a.max_vl_num = 1;
	iv_link_width_speed(d->port.speed_mbps, &a.active_width, &a.active_speed);
	a.phys_state = d->port.state == RDMADEV_PORT_ACTIVE ? 5 : 3;	/* LinkUp, Disabled */
	a.link_layer = IBV_LINK_LAYER_ETHERNET;
	memset(attr, 0, len);
	memcpy(attr, &a, RTE_MIN(len, sizeof(a)));
	return 0;
}

#undef ibv_query_port

int
ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)
{
	if (context == NULL || port_attr == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "attributes");
		return EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, struct _compat_ibv_port_attr *),
			   "ibv_query_port", "IBVERBS_1.1", EINVAL);
		return real(context, port_num, port_attr);
	}
	return iv_query_port_op(context, port_num, (struct ibv_port_attr *)port_attr,
				sizeof(struct ibv_port_attr));
}

/* Entry @p index of the GID table; 1 (no error, empty) for an index past the valid ones. */
static int
iv_gid(struct ibv_context *context, uint32_t port, int index, union ibv_gid *gid)
{
	struct iv_dev *d = iv_ctx_of(context)->dev;
	int rc;

	if (port != 1 || index < 0 || index >= (int)RDMADEV_GID_TBL_MAX) {
		IV_LOG(ERR, "%s: no GID %d on port %u", context->device->name, index, port);
		return -EINVAL;
	}
	memset(gid, 0, sizeof(*gid));
	if ((uint32_t)index >= d->port.gid_tbl_len)
		return 1;
	rc = rdmadev_gid_get(d->dev_id, (uint32_t)index, gid->raw);
	return rc < 0 ? rc : 0;
}

int
ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	int rc;

	if (context == NULL || gid == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "GID");
		return -1;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, int, union ibv_gid *),
			   "ibv_query_gid", "IBVERBS_1.1", -1);
		return real(context, port_num, index, gid);
	}
	rc = iv_gid(context, port_num, index, gid);
	return rc < 0 ? -1 : 0;
}

int
_ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
		  struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
	struct ibv_gid_entry e;
	int rc;

	if (context == NULL || entry == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "entry");
		return EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint32_t, uint32_t, struct ibv_gid_entry *,
				   uint32_t, size_t), "_ibv_query_gid_ex", "IBVERBS_1.11", EINVAL);
		return real(context, port_num, gid_index, entry, flags, entry_size);
	}
	if (flags != 0 || entry_size < sizeof(e)) {
		IV_LOG(ERR, "flags 0x%x or entry size %zu not supported", flags, entry_size);
		return EINVAL;
	}
	memset(&e, 0, sizeof(e));
	rc = iv_gid(context, port_num, (int)RTE_MIN(gid_index, (uint32_t)INT32_MAX), &e.gid);
	if (rc < 0)
		return -rc;
	if (rc > 0)
		return ENODATA;
	e.gid_index = gid_index;
	e.port_num = port_num;
	e.gid_type = IBV_GID_TYPE_ROCE_V2;
	memcpy(entry, &e, sizeof(e));
	return 0;
}

ssize_t
_ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
		     size_t max_entries, uint32_t flags, size_t entry_size)
{
	struct iv_dev *d;
	size_t n = 0;
	uint32_t i;

	if (context == NULL || (entries == NULL && max_entries > 0)) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "entries");
		return -EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(ssize_t (*)(struct ibv_context *, struct ibv_gid_entry *, size_t,
				       uint32_t, size_t), "_ibv_query_gid_table", "IBVERBS_1.11",
			   -EINVAL);
		return real(context, entries, max_entries, flags, entry_size);
	}
	if (flags != 0 || entry_size < sizeof(*entries)) {
		IV_LOG(ERR, "flags 0x%x or entry size %zu not supported", flags, entry_size);
		return -EINVAL;
	}
	d = iv_ctx_of(context)->dev;
	for (i = 0; i < d->port.gid_tbl_len; i++) {
		struct ibv_gid_entry *e = (struct ibv_gid_entry *)(void *)
			((uint8_t *)entries + n * entry_size);

		if (n == max_entries)
			return -EINVAL;
		if (_ibv_query_gid_ex(context, 1, i, e, 0, entry_size) == 0)
			n++;
	}
	return (ssize_t)n;
}

int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index,
		       uint32_t *type);

int
ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index,
		   uint32_t *type)
{
	union ibv_gid gid;

	if (context == NULL || type == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "type");
		return -1;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, unsigned int, uint32_t *),
			   "ibv_query_gid_type", "IBVERBS_PRIVATE_34", -1);
		return real(context, port_num, index, type);
	}
	if (iv_gid(context, port_num, (int)RTE_MIN(index, (unsigned int)INT32_MAX), &gid) < 0)
		return -1;
	*type = IV_GID_TYPE_SYSFS_ROCE_V2;
	return 0;
}

int
ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)
{
	if (context == NULL || pkey == NULL) {
		IV_LOG(ERR, "NULL %s", context == NULL ? "context" : "P_Key");
		return -1;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, int, __be16 *),
			   "ibv_query_pkey", "IBVERBS_1.1", -1);
		return real(context, port_num, index, pkey);
	}
	if (port_num != 1 || index < 0 ||
	    index >= (int)iv_ctx_of(context)->dev->info.max_pkeys) {
		IV_LOG(ERR, "%s: no P_Key %d on port %u", context->device->name, index, port_num);
		return -1;
	}
	*pkey = htobe16(0xffff);	/* RoCE: the default P_Key */
	return 0;
}

int
ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)
{
	if (context == NULL) {
		IV_LOG(ERR, "NULL context");
		return -EINVAL;
	}
	if (!iv_ctx_ours(context)) {
		IV_FORWARD(int (*)(struct ibv_context *, uint8_t, __be16), "ibv_get_pkey_index",
			   "IBVERBS_1.5", -EINVAL);
		return real(context, port_num, pkey);
	}
	if (port_num != 1 || (be16toh(pkey) & 0x7fff) != 0x7fff)
		return -ENOENT;
	return 0;
}
