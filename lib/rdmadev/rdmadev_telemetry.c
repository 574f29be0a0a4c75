/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev telemetry: /rdmadev/list, /rdmadev/info, /rdmadev/stats, /rdmadev/res. */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>
#include <rte_string_fns.h>
#include <rte_telemetry.h>

#include "rdmadev_private.h"

/* Largest number of driver counters shown by /rdmadev/stats. */
#define TEL_MAX_XSTATS 128

/*
 * Adding to a reply: every add is checked and a refusal logged with the field's name
 * (rte_telemetry refuses names outside [A-Za-z0-9_/], a full dict or array, and truncates
 * strings beyond RTE_TEL_MAX_STRING_LEN, which it reports with E2BIG).
 */
static int
tel_added(int rc, const char *name)
{
	if (rc != 0)
		RDMADEV_LOG(ERR, "telemetry: field \"%s\" refused: %s", name,
			    rc == E2BIG ? "value too long" : strerror(rc < 0 ? -rc : rc));
	return rc;
}

static int
tel_u64(struct rte_tel_data *d, const char *name, uint64_t v)
{
	return tel_added(rte_tel_data_add_dict_u64(d, name, v), name);
}

static int
tel_int(struct rte_tel_data *d, const char *name, int v)
{
	return tel_added(rte_tel_data_add_dict_int(d, name, v), name);
}

static int
tel_str(struct rte_tel_data *d, const char *name, const char *v)
{
	return tel_added(rte_tel_data_add_dict_string(d, name, v), name);
}

/* Add container @p c under @p name; on failure @p c is freed. */
static int
tel_container(struct rte_tel_data *d, const char *name, struct rte_tel_data *c)
{
	int rc = tel_added(rte_tel_data_add_dict_container(d, name, c, 0), name);

	if (rc != 0)
		rte_tel_data_free(c);
	return rc;
}

/* Parse "<id>[,<rest>]": the id, or -1 for malformed parameters; *rest points after the
 * comma or is NULL. */
static int
tel_parse_id(const char *params, const char **rest)
{
	char *end;
	long id;

	*rest = NULL;
	if (params == NULL || !isdigit((unsigned char)params[0]))
		return -1;
	errno = 0;
	id = strtol(params, &end, 10);
	if (errno != 0)
		return -1;
	if (*end == ',')
		*rest = end + 1;
	else if (*end != '\0')
		return -1;
	if (id < 0 || id >= RDMADEV_MAX_DEVS)
		return -1;
	return (int)id;
}

/*
 * Run @p body for the device a command names ("<id>[,<rest>]"), with the device held
 * (rdmadev_ctl_enter(): a close in another thread waits until the body returned).
 * Malformed parameters: -EINVAL (the reply is null). No open device of that id: the reply is
 * {"error": "no open device with id N"}.
 */
static int
tel_with_dev(const char *params, struct rte_tel_data *d,
	     int (*body)(struct rdmadev *dev, const char *rest, struct rte_tel_data *d))
{
	struct rdmadev *dev;
	const char *rest;
	char msg[64];
	int id, rc;

	id = tel_parse_id(params, &rest);
	if (id < 0)
		return -EINVAL;
	dev = rdmadev_ctl_enter((int16_t)id, NULL);
	if (dev == NULL) {
		rte_tel_data_start_dict(d);
		snprintf(msg, sizeof(msg), "no open device with id %d", id);
		tel_str(d, "error", msg);
		return 0;
	}
	rc = body(dev, rest, d);
	rdmadev_ctl_leave(dev);
	return rc;
}

static int
tel_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int16_t i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	RDMADEV_FOREACH_DEV(i)
		if (tel_added(rte_tel_data_add_array_int(d, i), "dev_id") != 0)
			break;
	return 0;
}

#define ADD_U64(d, in, f) tel_u64(d, #f, (in)->f)

/* The port of /rdmadev/info: state, MAC, MTUs and the GID table (nothing without ports). */
static int
tel_port(struct rdmadev *dev, struct rte_tel_data *d)
{
	struct rdmadev_port_info pi;
	struct rte_tel_data *gids, *qs;
	char txt[INET6_ADDRSTRLEN];
	uint8_t gid[16];
	uint32_t i;

	if (dev->ops->port_info_get == NULL || rdmadev_port_info_read(dev, &pi) != 0)
		return 0;
	tel_str(d, "port_state", rdmadev_port_state_name(pi.state));
	snprintf(txt, sizeof(txt), "%02x:%02x:%02x:%02x:%02x:%02x", pi.mac[0], pi.mac[1],
		 pi.mac[2], pi.mac[3], pi.mac[4], pi.mac[5]);
	tel_str(d, "mac", txt);
	tel_u64(d, "mtu", pi.mtu);
	tel_u64(d, "max_mtu", 128u << pi.max_mtu);
	tel_u64(d, "active_mtu", 128u << pi.active_mtu);
	tel_u64(d, "gid_tbl_len", pi.gid_tbl_len);
	gids = rte_tel_data_alloc();
	if (gids == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(gids, RTE_TEL_STRING_VAL);
	for (i = 0; i < pi.gid_tbl_len; i++) {
		if (rdmadev_gid_read(dev, i, gid) != 0 ||
		    inet_ntop(AF_INET6, gid, txt, sizeof(txt)) == NULL)
			snprintf(txt, sizeof(txt), "?");
		if (tel_added(rte_tel_data_add_array_string(gids, txt), "gids") != 0)
			break;
	}
	tel_container(d, "gids", gids);
	tel_u64(d, "speed_mbps", pi.speed_mbps);
	tel_int(d, "pf_id", pi.pf_id);
	tel_str(d, "fw_ver", pi.fw_ver);
	tel_int(d, "vsi", pi.vsi);
	qs = rte_tel_data_alloc();
	if (qs == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(qs, RTE_TEL_INT_VAL);
	for (i = 0; i < pi.nb_qsets && i < RDMADEV_PORT_QSETS_MAX; i++)
		if (tel_added(rte_tel_data_add_array_int(qs, pi.qs_handle[i]), "qsets") != 0)
			break;
	tel_container(d, "qsets", qs);
	return 0;
}

static int
tel_info_locked(struct rdmadev *dev, const char *rest, struct rte_tel_data *d)
{
	const struct rdmadev_info *in = &dev->info;
	struct rte_tel_data *capa;
	unsigned int i;

	if (rest != NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	tel_str(d, "name", dev->name);
	tel_str(d, "driver", in->driver_name);
	tel_str(d, "state", rdmadev_state_name(__atomic_load_n(&dev->state, __ATOMIC_ACQUIRE)));
	tel_int(d, "dev_id", dev->dev_id);
	tel_int(d, "numa_node", in->numa_node);
	ADD_U64(d, in, hw_gen);
	ADD_U64(d, in, max_qp);
	ADD_U64(d, in, max_qp_wr);
	ADD_U64(d, in, max_sge);
	ADD_U64(d, in, max_sge_rd);
	ADD_U64(d, in, max_inline);
	ADD_U64(d, in, max_cq);
	ADD_U64(d, in, max_cqe);
	ADD_U64(d, in, max_mr);
	ADD_U64(d, in, max_mr_size);
	ADD_U64(d, in, max_pd);
	ADD_U64(d, in, max_ah);
	ADD_U64(d, in, max_srq);
	ADD_U64(d, in, max_mw);
	ADD_U64(d, in, max_fast_reg_pages);
	ADD_U64(d, in, max_qp_rd_atom);
	ADD_U64(d, in, max_qp_init_rd_atom);
	ADD_U64(d, in, page_size_cap);
	capa = rte_tel_data_alloc();
	if (capa == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(capa);
	for (i = 0; i < 64; i++) {
		const char *name = rdmadev_capa_name(RTE_BIT64(i));

		if (name != NULL)
			tel_int(capa, name, !!(in->capa & RTE_BIT64(i)));
	}
	tel_container(d, "capa", capa);
	return tel_port(dev, d);
}

static int
tel_stats_locked(struct rdmadev *dev, const char *rest, struct rte_tel_data *d)
{
	struct rdmadev_xstat *xs;
	struct rdmadev_stats st;
	char name[64];
	unsigned int i;
	int n;

	if (rest != NULL)
		return -EINVAL;
	rdmadev_stats_read(dev, &st);
	rte_tel_data_start_dict(d);
	for (i = 0; i < RDMADEV_OBJ_MAX; i++) {
		snprintf(name, sizeof(name), "%s_created", rdmadev_obj_type_name(i));
		tel_u64(d, name, st.created[i]);
		snprintf(name, sizeof(name), "%s_destroyed", rdmadev_obj_type_name(i));
		tel_u64(d, name, st.destroyed[i]);
	}
	tel_u64(d, "errors", st.errors);
	tel_u64(d, "driver_errors", st.driver_errors);
	xs = calloc(TEL_MAX_XSTATS, sizeof(*xs));
	if (xs == NULL)
		return -ENOMEM;
	n = rdmadev_xstats_read(dev, xs, TEL_MAX_XSTATS);
	for (i = 0; n > 0 && i < (unsigned int)RTE_MIN(n, TEL_MAX_XSTATS); i++)
		tel_u64(d, xs[i].name, xs[i].value);
	free(xs);
	return 0;
}

/*
 * One dump attribute: the name with '-' as '_' (rq-psn -> rq_psn: telemetry names are
 * [A-Za-z0-9_/]), a decimal value as a number (u64, or int when negative), anything else
 * (hex keys and addresses, states, names) as a string.
 */
static int
tel_res_attr(struct rte_tel_data *o, const struct restrack_attr *a)
{
	const char *v = a->value;
	char name[64];
	char *end;
	size_t i;

	for (i = 0; a->name[i] != '\0' && i < sizeof(name) - 1; i++)
		name[i] = isalnum((unsigned char)a->name[i]) || a->name[i] == '/' ? a->name[i] :
			  '_';
	name[i] = '\0';
	if (isdigit((unsigned char)v[0])) {
		unsigned long long u;

		errno = 0;
		u = strtoull(v, &end, 10);
		if (*end == '\0' && errno == 0 && (v[0] != '0' || v[1] == '\0'))
			return tel_u64(o, name, u);
	} else if (v[0] == '-' && isdigit((unsigned char)v[1])) {
		long long x;

		errno = 0;
		x = strtoll(v, &end, 10);
		if (*end == '\0' && errno == 0 && x >= INT_MIN)
			return tel_int(o, name, (int)x);
	}
	return tel_str(o, name, v);
}

/* One object of /rdmadev/res: "<id>": { attributes..., "pid", "comm" }. */
static int
tel_res_emit(const struct restrack_dump_rec *rec, void *arg)
{
	struct rte_tel_data *d = arg, *o;
	const struct restrack_entry *e = rec->entry;
	char key[16];
	unsigned int i;

	o = rte_tel_data_alloc();
	if (o == NULL)
		return -ENOMEM;
	rte_tel_data_start_dict(o);
	if (e->type == RESTRACK_QP)
		tel_int(o, "port", (int)rec->port);
	for (i = 0; i < rec->nb_attrs && i < RESTRACK_DUMP_MAX_ATTRS; i++)
		tel_res_attr(o, &rec->attrs[i]);
	if (e->driver_res) {
		char comm[RESTRACK_NAME_LEN + 2];

		snprintf(comm, sizeof(comm), "[%s]", e->name);
		tel_str(o, "comm", comm);
	} else {
		tel_int(o, "pid", (int)e->task.pid);
		tel_str(o, "comm", e->task.comm);
	}
	snprintf(key, sizeof(key), "%u", restrack_id(e));
	if (tel_container(d, key, o) != 0)
		return 1;	/* dict full: stop, what is there is returned */
	return 0;
}

static int
tel_res_locked(struct rdmadev *dev, const char *rest, struct rte_tel_data *d)
{
	char lower[16];
	int t, rc;

	if (rest == NULL) {
		rte_tel_data_start_dict(d);
		for (t = 0; t < RESTRACK_MAX; t++) {
			size_t j;

			strlcpy(lower, restrack_type_name(t), sizeof(lower));
			for (j = 0; lower[j] != '\0'; j++)
				lower[j] = (char)tolower((unsigned char)lower[j]);
			tel_int(d, lower, restrack_count(dev->res, t, NULL));
		}
		return 0;
	}
	for (t = 0; t < RESTRACK_MAX; t++)
		if (strcasecmp(rest, restrack_type_name(t)) == 0)
			break;
	if (t == RESTRACK_MAX)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rc = restrack_dump(dev->res, t, NULL, tel_res_emit, d);
	return rc < 0 ? rc : 0;
}

static int
tel_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_with_dev(params, d, tel_info_locked);
}

static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_with_dev(params, d, tel_stats_locked);
}

static int
tel_res(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	return tel_with_dev(params, d, tel_res_locked);
}

static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} tel_cmds[] = {
	{ "/rdmadev/list", tel_list, "Returns the list of rdmadev ids. Takes no parameters" },
	{ "/rdmadev/info", tel_info, "Returns device information. Parameters: int dev_id" },
	{ "/rdmadev/stats", tel_stats,
	  "Returns device counters. Parameters: int dev_id" },
	{ "/rdmadev/res", tel_res,
	  "Returns restrack counts, or the objects of a type as rdma resource show. "
	  "Parameters: int dev_id[,type]" },
};

int
rdmadev_telemetry_handle(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(tel_cmds); i++)
		if (strcmp(cmd, tel_cmds[i].cmd) == 0)
			return tel_cmds[i].fn(cmd, params, d);
	return -EINVAL;
}

void
rdmadev_telemetry_register(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(tel_cmds); i++)
		if (rte_telemetry_register_cmd(tel_cmds[i].cmd, tel_cmds[i].fn,
					       tel_cmds[i].help) != 0)
			RDMADEV_LOG(ERR, "telemetry: cannot register %s", tel_cmds[i].cmd);
}
