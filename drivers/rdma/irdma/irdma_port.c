/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The port's addresses: the GID table (devargs `ip=<address>[;<address>...]`, or a default)
 * and the source address a QP context or an AH takes from it.
 *
 * RoCEv2 GIDs are IP addresses: an IPv6 address, or an IPv4 address as the IPv4-mapped GID
 * ::ffff:a.b.c.d. Without `ip=`, a model device irdma_model<N> gets ::ffff:10.0.0.<N % 254
 * + 1> at index 0 and the link-local fe80::<EUI-64 of its MAC> at index 1; a VFIO device
 * only the link-local address (its IPv4 network is not known to the PMD).
 */

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadev_driver.h>

#include "irdma_ctrl.h"
#include "irdma_log.h"
#include "irdma_port.h"

/** Separator of the addresses in the `ip` devargs value (',' separates devargs keys). */
#define IRDMA_PORT_IP_SEP	';'
/** Longest address text accepted (INET6_ADDRSTRLEN with its NUL). */
#define IRDMA_PORT_IP_LEN	46u

uint64_t
irdma_mac_to_u64(const uint8_t mac[6])
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < 6; i++)
		v = v << 8 | mac[i];
	return v;
}

bool
irdma_gid_is_v4mapped(const uint8_t gid[16])
{
	static const uint8_t v4_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(gid, v4_prefix, sizeof(v4_prefix)) == 0;
}

/* One address of the list: IPv4 (stored IPv4-mapped) or IPv6. */
static int
irdma_port_parse_one(const char *name, const char *txt, uint8_t gid[16])
{
	struct in_addr a4;

	memset(gid, 0, 16);
	if (inet_pton(AF_INET, txt, &a4) == 1) {
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(&gid[12], &a4, sizeof(a4));
		return 0;
	}
	if (inet_pton(AF_INET6, txt, gid) == 1)
		return 0;
	rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: devargs ip: \"%s\" is not an IPv4 or "
		"IPv6 address\n", name, txt);
	return -EINVAL;
}

int
irdma_port_parse_gids(const char *name, const char *v, uint8_t gid[][16], uint32_t *n)
{
	const char *p = v;
	uint32_t i = 0;

	if (v == NULL || *v == '\0') {
		rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: devargs ip: empty list\n", name);
		return -EINVAL;
	}
	while (*p != '\0') {
		const char *end = strchr(p, IRDMA_PORT_IP_SEP);
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		char txt[IRDMA_PORT_IP_LEN];
		uint32_t j;
		int ret;

		if (len == 0 || len >= sizeof(txt) || i >= IRDMA_GID_TBL_LEN) {
			rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: devargs ip=%s: %s\n", name,
				v, i >= IRDMA_GID_TBL_LEN ? "more than 32 addresses" :
				len == 0 ? "empty address" : "address too long");
			return -EINVAL;
		}
		memcpy(txt, p, len);
		txt[len] = '\0';
		ret = irdma_port_parse_one(name, txt, gid[i]);
		if (ret != 0)
			return ret;
		for (j = 0; j < i; j++) {
			if (memcmp(gid[j], gid[i], 16) == 0) {
				rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: devargs ip: %s "
					"given twice\n", name, txt);
				return -EINVAL;
			}
		}
		i++;
		p += len;
		if (*p == IRDMA_PORT_IP_SEP && *++p == '\0') {
			rte_log(RTE_LOG_ERR, irdma_logtype, "irdma %s: devargs ip=%s: trailing "
				"separator\n", name, v);
			return -EINVAL;
		}
	}
	*n = i;
	return 0;
}

/* fe80::<EUI-64 of @p mac> (the MAC with the U/L bit flipped and ff:fe in the middle). */
static void
irdma_port_link_local(const uint8_t mac[6], uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[8] = mac[0] ^ 0x02;
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}

void
irdma_port_default_gids(const char *name, bool model, const uint8_t mac[6], uint8_t gid[][16],
			uint32_t *n)
{
	const char *d = name + strlen(name);
	unsigned long num = 0;

	*n = 0;
	if (model) {
		while (d > name && isdigit((unsigned char)d[-1]))
			d--;
		if (*d != '\0')
			num = strtoul(d, NULL, 10);
		memset(gid[0], 0, 16);
		gid[0][10] = 0xff;
		gid[0][11] = 0xff;
		gid[0][12] = 10;
		gid[0][15] = (uint8_t)(num % 254 + 1);
		*n = 1;
	}
	irdma_port_link_local(mac, gid[*n]);
	(*n)++;
}

int
irdma_port_sgid(const struct irdma_ctrl *c, const struct rdmadev_ah_attr *av, uint8_t sgid[16])
{
	bool dv4 = irdma_gid_is_v4mapped(av->dgid);

	if (av->sgid_index >= c->nb_gids) {
		IRDMA_LOG(ERR, c->hw, "source GID index %u beyond the %u-entry GID table",
			  av->sgid_index, c->nb_gids);
		return -EINVAL;
	}
	if (irdma_gid_is_v4mapped(c->gid[av->sgid_index]) != dv4) {
		IRDMA_LOG(ERR, c->hw, "source GID %u is %s but the destination is %s",
			  av->sgid_index, dv4 ? "IPv6" : "IPv4", dv4 ? "IPv4" : "IPv6");
		return -EINVAL;
	}
	memcpy(sgid, c->gid[av->sgid_index], 16);
	return 0;
}
