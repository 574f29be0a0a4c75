/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* rdmadev telemetry: /rdmadev/list, /rdmadev/info, /rdmadev/stats, /rdmadev/res. */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
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

/* Parse "<id>[,<rest>]"; *rest points after the comma or is NULL. */
static struct rdmadev *
tel_parse_dev(const char *params, const char **rest)
{
	char *end;
	long id;

	*rest = NULL;
	if (params == NULL || !isdigit((unsigned char)params[0]))
		return NULL;
	id = strtol(params, &end, 10);
	if (*end == ',')
		*rest = end + 1;
	else if (*end != '\0')
		return NULL;
	if (id < 0 || id >= RDMADEV_MAX_DEVS)
		return NULL;
	return rdmadev_get((int16_t)id);
}

static int
tel_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	int16_t i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	RDMADEV_FOREACH_DEV(i)
		rte_tel_data_add_array_int(d, i);
	return 0;
}

#define ADD_U64(d, in, f) rte_tel_data_add_dict_u64(d, #f, (in)->f)

/* The port of /rdmadev/info: state, MAC, MTUs and the GID table (nothing without ports). */
static int
tel_port(struct rdmadev *dev, struct rte_tel_data *d)
{
	struct rdmadev_port_info pi;
	struct rte_tel_data *gids;
	char txt[INET6_ADDRSTRLEN];
	uint8_t gid[16];
	uint32_t i;

	if (dev->ops->port_info_get == NULL || rdmadev_port_info_get(dev->dev_id, &pi) != 0)
		return 0;
	rte_tel_data_add_dict_string(d, "port_state", rdmadev_port_state_name(pi.state));
	snprintf(txt, sizeof(txt), "%02x:%02x:%02x:%02x:%02x:%02x", pi.mac[0], pi.mac[1],
		 pi.mac[2], pi.mac[3], pi.mac[4], pi.mac[5]);
	rte_tel_data_add_dict_string(d, "mac", txt);
	rte_tel_data_add_dict_u64(d, "mtu", pi.mtu);
	rte_tel_data_add_dict_u64(d, "max_mtu", 128u << pi.max_mtu);
	rte_tel_data_add_dict_u64(d, "active_mtu", 128u << pi.active_mtu);
	rte_tel_data_add_dict_u64(d, "gid_tbl_len", pi.gid_tbl_len);
	gids = rte_tel_data_alloc();
	if (gids == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(gids, RTE_TEL_STRING_VAL);
	for (i = 0; i < pi.gid_tbl_len; i++) {
		if (rdmadev_gid_get(dev->dev_id, i, gid) != 0 ||
		    inet_ntop(AF_INET6, gid, txt, sizeof(txt)) == NULL)
			snprintf(txt, sizeof(txt), "?");
		rte_tel_data_add_array_string(gids, txt);
	}
	rte_tel_data_add_dict_container(d, "gids", gids, 0);
	return 0;
}

static int
tel_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *capa;
	const struct rdmadev_info *in;
	struct rdmadev *dev;
	const char *rest;
	unsigned int i;

	RTE_SET_USED(cmd);
	dev = tel_parse_dev(params, &rest);
	if (dev == NULL || rest != NULL)
		return -EINVAL;
	in = &dev->info;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", dev->name);
	rte_tel_data_add_dict_string(d, "driver", in->driver_name);
	rte_tel_data_add_dict_string(d, "state",
				     rdmadev_state_name(__atomic_load_n(&dev->state,
									__ATOMIC_ACQUIRE)));
	rte_tel_data_add_dict_int(d, "dev_id", dev->dev_id);
	rte_tel_data_add_dict_int(d, "numa_node", in->numa_node);
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
			rte_tel_data_add_dict_int(capa, name, !!(in->capa & RTE_BIT64(i)));
	}
	rte_tel_data_add_dict_container(d, "capa", capa, 0);
	return tel_port(dev, d);
}

static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rdmadev_xstat *xs;
	struct rdmadev_stats st;
	struct rdmadev *dev;
	const char *rest;
	char name[64];
	unsigned int i;
	int n;

	RTE_SET_USED(cmd);
	dev = tel_parse_dev(params, &rest);
	if (dev == NULL || rest != NULL || rdmadev_stats_get(dev->dev_id, &st) != 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	for (i = 0; i < RDMADEV_OBJ_MAX; i++) {
		snprintf(name, sizeof(name), "%s_created", rdmadev_obj_type_name(i));
		rte_tel_data_add_dict_u64(d, name, st.created[i]);
		snprintf(name, sizeof(name), "%s_destroyed", rdmadev_obj_type_name(i));
		rte_tel_data_add_dict_u64(d, name, st.destroyed[i]);
	}
	rte_tel_data_add_dict_u64(d, "errors", st.errors);
	rte_tel_data_add_dict_u64(d, "driver_errors", st.driver_errors);
	xs = calloc(TEL_MAX_XSTATS, sizeof(*xs));
	if (xs == NULL)
		return -ENOMEM;
	n = rdmadev_xstats_get(dev->dev_id, xs, TEL_MAX_XSTATS);
	for (i = 0; n > 0 && i < (unsigned int)RTE_MIN(n, TEL_MAX_XSTATS); i++)
		rte_tel_data_add_dict_u64(d, xs[i].name, xs[i].value);
	free(xs);
	return 0;
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
		rte_tel_data_add_dict_int(o, "port", (int)rec->port);
	for (i = 0; i < rec->nb_attrs && i < RESTRACK_DUMP_MAX_ATTRS; i++)
		rte_tel_data_add_dict_string(o, rec->attrs[i].name, rec->attrs[i].value);
	if (e->driver_res) {
		char comm[RESTRACK_NAME_LEN + 2];

		snprintf(comm, sizeof(comm), "[%s]", e->name);
		rte_tel_data_add_dict_string(o, "comm", comm);
	} else {
		rte_tel_data_add_dict_int(o, "pid", (int)e->task.pid);
		rte_tel_data_add_dict_string(o, "comm", e->task.comm);
	}
	snprintf(key, sizeof(key), "%u", restrack_id(e));
	if (rte_tel_data_add_dict_container(d, key, o, 0) != 0) {
		rte_tel_data_free(o);
		return 1;	/* dict full: stop, what is there is returned */
	}
	return 0;
}

static int
tel_res(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rdmadev *dev;
	const char *rest;
	char lower[16];
	int t, rc;

	RTE_SET_USED(cmd);
	dev = tel_parse_dev(params, &rest);
	if (dev == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (rest == NULL) {
		for (t = 0; t < RESTRACK_MAX; t++) {
			size_t j;

			strlcpy(lower, restrack_type_name(t), sizeof(lower));
			for (j = 0; lower[j] != '\0'; j++)
				lower[j] = (char)tolower((unsigned char)lower[j]);
			rte_tel_data_add_dict_int(d, lower, restrack_count(dev->res, t, NULL));
		}
		return 0;
	}
	for (t = 0; t < RESTRACK_MAX; t++)
		if (strcasecmp(rest, restrack_type_name(t)) == 0)
			break;
	if (t == RESTRACK_MAX)
		return -EINVAL;
	rc = restrack_dump(dev->res, t, NULL, tel_res_emit, d);
	return rc < 0 ? rc : 0;
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
		rte_telemetry_register_cmd(tel_cmds[i].cmd, tel_cmds[i].fn, tel_cmds[i].help);
}
