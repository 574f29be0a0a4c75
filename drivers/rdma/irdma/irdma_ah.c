/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Address handles and the ARP table (doc/hardware.md §5.3 MANAGE_ARP, §7 ARP / FSIAV, §8 max AHs;
 * the AH layout of the kernel's uda_d.h / uda.c, the ARP cache of irdma_add_arp /
 * irdma_manage_arp_cache).
 *
 * ARP table: one entry per (destination IP, destination MAC), reference counted by the QPs and
 * AHs that use it. Indexes 1 .. committed ARP count - 1 come from a bitmap; index 0 is
 * reserved as the "no resolved neighbour" entry QPs without a destination MAC keep (the
 * model accepts it without an entry). The first reference adds the entry with MANAGE_ARP
 * (MAC, ENTRYVALID, reach_max), the last one deletes it (MANAGE_ARP with the index only).
 * A delete the device refuses leaves the entry cached with no reference: it is reused by
 * the next user of the same key, or deleted again at teardown.
 *
 * AHs: ids 0 .. committed FSIAV count - 1 from a bitmap; CREATE_ADDR_HANDLE with the fields
 * of base/irdma_cqp_fmt.h, the source address from the port's GID table entry av->sgid_index
 * (irdma_port.c; an index beyond the table or of the other family is refused), and
 * DESTROY_ADDR_HANDLE repeats them. One mutex covers both tables and the MANAGE_ARP
 * commands issued under it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include <rdmadev_driver.h>

#include "irdma_ah.h"
#include "irdma_cqp.h"
#include "irdma_ctrl.h"
#include "irdma_log.h"
#include "irdma_port.h"

/** First ARP index the driver hands out (0 is the reserved default). */
#define IRDMA_ARP_FIRST_IDX	1u
/** reach_max of an added entry (the kernel's irdma_manage_arp_cache leaves it 0). */
#define IRDMA_ARP_REACH_MAX	0u
/** Largest VLAN id. */
#define IRDMA_AH_VLAN_MAX	4095u
/** Shift of the priority (SL) inside the VLAN tag. */
#define IRDMA_AH_VLAN_PRIO_SHIFT	13u
/** Priority bits of the VLAN tag. */
#define IRDMA_AH_VLAN_PRIO_MASK	7u

/** One ARP entry of the driver's cache. */
struct irdma_arp_entry {
	uint8_t mac[6];		/**< destination MAC */
	uint8_t ip[16];		/**< destination GID (IPv4-mapped or IPv6) */
	uint32_t refs;		/**< users; 0 with in_hw: cached after a refused delete */
	bool in_hw;		/**< MANAGE_ARP add succeeded and no delete did */
};

/** The ARP and AH tables of one started device. */
struct irdma_ah_tab {
	pthread_mutex_t lock;		/**< tables and the MANAGE_ARP commands */
	uint32_t arp_cnt;		/**< committed ARP count */
	uint32_t ah_cnt;		/**< committed FSIAV count */
	uint64_t *arp_bm;		/**< used ARP indexes */
	uint64_t *ah_bm;		/**< used AH ids */
	struct irdma_arp_entry *arp;	/**< arp_cnt entries */
};

/** The driver's part of an AH. */
struct irdma_ah {
	uint32_t id;		/**< AH (FSIAV) index */
	uint32_t arp_idx;	/**< ARP entry it holds */
	uint32_t pd_id;		/**< PD id */
	uint8_t sgid[16];	/**< source GID (from the port's GID table) */
};

/* ---- bitmaps ---- */

static bool
bm_test(const uint64_t *bm, uint32_t i)
{
	return (bm[i / 64] >> (i % 64)) & 1;
}

static void
bm_assign(uint64_t *bm, uint32_t i, bool v)
{
	if (v)
		bm[i / 64] |= UINT64_C(1) << (i % 64);
	else
		bm[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

/* First clear bit in [first, n), or n. */
static uint32_t
bm_find_free(const uint64_t *bm, uint32_t first, uint32_t n)
{
	uint32_t i;

	for (i = first; i < n; i++) {
		if (bm[i / 64] == UINT64_MAX) {
			i |= 63;
			continue;
		}
		if (!bm_test(bm, i))
			return i;
	}
	return n;
}

/* ---- helpers ---- */

static uint32_t
irdma_gid_word(const uint8_t gid[16], unsigned int i)
{
	rte_be32_t be;

	memcpy(&be, &gid[4 * i], sizeof(be));
	return rte_be_to_cpu_32(be);
}

/* ---- tables ---- */

int
irdma_ah_tab_init(struct irdma_ctrl *c)
{
	struct irdma_ah_tab *t;
	int ret;

	t = calloc(1, sizeof(*t));
	if (t == NULL)
		goto nomem;
	t->arp_cnt = RTE_MIN(c->hmc.obj[IRDMA_HMC_OBJ_ARP].cnt,
			     (uint32_t)IRDMA_FIELD_MAX(CQP_ARP_INDEX) + 1);
	t->ah_cnt = RTE_MIN(c->hmc.obj[IRDMA_HMC_OBJ_FSIAV].cnt,
			    (uint32_t)IRDMA_FIELD_MAX(CQP_AH_IDX) + 1);
	t->arp_bm = calloc(t->arp_cnt / 64 + 1, sizeof(uint64_t));
	t->ah_bm = calloc(t->ah_cnt / 64 + 1, sizeof(uint64_t));
	t->arp = calloc(t->arp_cnt + 1, sizeof(*t->arp));
	if (t->arp_bm == NULL || t->ah_bm == NULL || t->arp == NULL)
		goto nomem;
	ret = pthread_mutex_init(&t->lock, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "AH tables: mutex init failed: %s", strerror(ret));
		free(t->arp);
		free(t->ah_bm);
		free(t->arp_bm);
		free(t);
		return -ret;
	}
	c->ah_tab = t;
	return 0;
nomem:
	IRDMA_LOG(ERR, c->hw, "AH tables: no memory");
	if (t != NULL) {
		free(t->arp);
		free(t->ah_bm);
		free(t->arp_bm);
		free(t);
	}
	return -ENOMEM;
}

/* MANAGE_ARP add (entry valid, MAC, reach_max) or delete (the index only). */
static int
irdma_arp_manage(struct irdma_ctrl *c, uint32_t idx, const uint8_t *mac)
{
	struct irdma_cqp_wqe w;
	int ret;

	irdma_cqp_wqe_init(&w, IRDMA_CQP_OP_MANAGE_ARP);
	irdma_set(&w, CQP_ARP_INDEX, idx);
	if (mac != NULL) {
		irdma_set(&w, CQP_ARP_REACHMAX, IRDMA_ARP_REACH_MAX);
		irdma_set(&w, CQP_ARP_MAC, irdma_mac_to_u64(mac));
		irdma_set(&w, CQP_ARP_ENTRYVALID, 1);
	}
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0)
		IRDMA_LOG(ERR, c->hw, "ARP %u: MANAGE_ARP %s failed: %s", idx,
			  mac != NULL ? "add" : "delete", strerror(-ret));
	return ret;
}

void
irdma_ah_tab_fini(struct irdma_ctrl *c)
{
	struct irdma_ah_tab *t = c->ah_tab;
	uint32_t i, leaked = 0;

	if (t == NULL)
		return;
	for (i = IRDMA_ARP_FIRST_IDX; i < t->arp_cnt; i++) {
		if (!bm_test(t->arp_bm, i))
			continue;
		if (t->arp[i].refs != 0)
			leaked++;
		/* Best effort: the HMC goes away with the teardown anyway. */
		if (t->arp[i].in_hw && !c->cqp.hung)
			(void)irdma_arp_manage(c, i, NULL);
	}
	for (i = 0; i < t->ah_cnt; i++)
		leaked += bm_test(t->ah_bm, i);
	if (leaked != 0)
		IRDMA_LOG(ERR, c->hw, "AH tables: %u ARP references / AHs leaked", leaked);
	pthread_mutex_destroy(&t->lock);
	free(t->arp);
	free(t->ah_bm);
	free(t->arp_bm);
	free(t);
	c->ah_tab = NULL;
}

int
irdma_arp_get(struct irdma_ctrl *c, const uint8_t mac[6], const uint8_t gid[16], uint32_t *idx)
{
	struct irdma_ah_tab *t = c->ah_tab;
	struct irdma_arp_entry *e;
	uint32_t i;
	int ret;

	if (t == NULL) {
		IRDMA_LOG(ERR, c->hw, "ARP: device not started");
		return -ENODEV;
	}
	pthread_mutex_lock(&t->lock);
	for (i = IRDMA_ARP_FIRST_IDX; i < t->arp_cnt; i++) {
		e = &t->arp[i];
		if (bm_test(t->arp_bm, i) && memcmp(e->mac, mac, sizeof(e->mac)) == 0 &&
		    memcmp(e->ip, gid, sizeof(e->ip)) == 0) {
			if (!e->in_hw) {
				ret = irdma_arp_manage(c, i, mac);
				if (ret != 0)
					goto out;
				e->in_hw = true;
			}
			e->refs++;
			*idx = i;
			ret = 0;
			goto out;
		}
	}
	i = bm_find_free(t->arp_bm, IRDMA_ARP_FIRST_IDX, t->arp_cnt);
	if (i >= t->arp_cnt) {
		IRDMA_LOG(ERR, c->hw, "ARP: all %u entries in use", t->arp_cnt);
		ret = -ENOSPC;
		goto out;
	}
	ret = irdma_arp_manage(c, i, mac);
	if (ret != 0)
		goto out;
	e = &t->arp[i];
	memcpy(e->mac, mac, sizeof(e->mac));
	memcpy(e->ip, gid, sizeof(e->ip));
	e->refs = 1;
	e->in_hw = true;
	bm_assign(t->arp_bm, i, true);
	*idx = i;
out:
	pthread_mutex_unlock(&t->lock);
	return ret;
}

void
irdma_arp_put(struct irdma_ctrl *c, uint32_t idx)
{
	struct irdma_ah_tab *t = c->ah_tab;
	struct irdma_arp_entry *e;

	if (t == NULL || idx < IRDMA_ARP_FIRST_IDX || idx >= t->arp_cnt)
		return;
	pthread_mutex_lock(&t->lock);
	e = &t->arp[idx];
	if (!bm_test(t->arp_bm, idx) || e->refs == 0) {
		IRDMA_LOG(ERR, c->hw, "ARP %u: put without a reference", idx);
	} else if (--e->refs == 0) {
		if (irdma_arp_manage(c, idx, NULL) == 0) {
			memset(e, 0, sizeof(*e));
			bm_assign(t->arp_bm, idx, false);
		}
		/* else: cached, still valid in the device; reused or deleted at teardown. */
	}
	pthread_mutex_unlock(&t->lock);
}

/* ---- AHs ---- */

/* The fields CREATE and DESTROY_ADDR_HANDLE share (uda.c irdma_sc_access_ah). */
static void
irdma_ah_wqe(struct irdma_cqp_wqe *w, enum irdma_cqp_opcode op, const struct irdma_ah *a,
	     const struct rdmadev_ah_attr *av)
{
	bool v4 = irdma_gid_is_v4mapped(av->dgid);

	irdma_cqp_wqe_init(w, op);
	irdma_set(w, CQP_AH_IDX, a->id);
	irdma_set(w, CQP_AH_MAC, irdma_mac_to_u64(av->dmac));
	if (av->vlan_id <= IRDMA_AH_VLAN_MAX) {
		irdma_set(w, CQP_AH_INSERTVLANTAG, 1);
		irdma_set(w, CQP_AH_VLANTAG,
			  av->vlan_id | ((uint32_t)(av->sl & IRDMA_AH_VLAN_PRIO_MASK) <<
					 IRDMA_AH_VLAN_PRIO_SHIFT));
	}
	irdma_set(w, CQP_AH_TC, av->traffic_class);
	irdma_set(w, CQP_AH_PDINDEXLO, a->pd_id & IRDMA_FIELD_MAX(CQP_AH_PDINDEXLO));
	irdma_set(w, CQP_AH_PDINDEXHI, a->pd_id >> IRDMA_FIELD_BITS(CQP_AH_PDINDEXLO));
	irdma_set(w, CQP_AH_FLOWLABEL, av->flow_label);
	irdma_set(w, CQP_AH_HOPLIMIT, av->hop_limit);
	irdma_set(w, CQP_AH_ARPINDEX, a->arp_idx);
	irdma_set(w, CQP_AH_IPV4VALID, v4 ? 1 : 0);
	irdma_set(w, CQP_AH_DEST_ADDR3, irdma_gid_word(av->dgid, 3));
	irdma_set(w, CQP_AH_SRC_ADDR3, irdma_gid_word(a->sgid, 3));
	if (!v4) {
		irdma_set(w, CQP_AH_DEST_ADDR2, irdma_gid_word(av->dgid, 2));
		irdma_set(w, CQP_AH_DEST_ADDR1, irdma_gid_word(av->dgid, 1));
		irdma_set(w, CQP_AH_DEST_ADDR0, irdma_gid_word(av->dgid, 0));
		irdma_set(w, CQP_AH_SRC_ADDR2, irdma_gid_word(a->sgid, 2));
		irdma_set(w, CQP_AH_SRC_ADDR1, irdma_gid_word(a->sgid, 1));
		irdma_set(w, CQP_AH_SRC_ADDR0, irdma_gid_word(a->sgid, 0));
	}
}

int
irdma_ah_create(struct irdma_ctrl *c, struct rdmadev_ah *ah, const struct rdmadev_ah_attr *av)
{
	struct irdma_ah_tab *t = c->ah_tab;
	struct irdma_cqp_wqe w;
	struct irdma_ah *a;
	uint32_t id;
	int ret;

	if (t == NULL) {
		IRDMA_LOG(ERR, c->hw, "AH create: device not started");
		return -ENODEV;
	}
	if (av->flow_label > IRDMA_FIELD_MAX(CQP_AH_FLOWLABEL)) {
		IRDMA_LOG(ERR, c->hw, "AH create: flow label 0x%x beyond 20 bits", av->flow_label);
		return -EINVAL;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		IRDMA_LOG(ERR, c->hw, "AH create: no memory");
		return -ENOMEM;
	}
	ret = irdma_port_sgid(c, av, a->sgid);
	if (ret != 0) {
		free(a);
		return ret;
	}
	a->pd_id = rdmadev_obj_id(&ah->pd->obj);
	pthread_mutex_lock(&t->lock);
	id = bm_find_free(t->ah_bm, 0, t->ah_cnt);
	if (id < t->ah_cnt)
		bm_assign(t->ah_bm, id, true);
	pthread_mutex_unlock(&t->lock);
	if (id >= t->ah_cnt) {
		IRDMA_LOG(ERR, c->hw, "AH create: all %u AHs in use", t->ah_cnt);
		free(a);
		return -ENOSPC;
	}
	a->id = id;
	ret = irdma_arp_get(c, av->dmac, av->dgid, &a->arp_idx);
	if (ret != 0)
		goto fail;
	irdma_ah_wqe(&w, IRDMA_CQP_OP_CREATE_ADDR_HANDLE, a, av);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "AH %u create failed: %s", id, strerror(-ret));
		irdma_arp_put(c, a->arp_idx);
		goto fail;
	}
	ah->ah_id = id;
	ah->obj.fp.drv = a;
	__atomic_fetch_add(&c->nb_ahs, 1, __ATOMIC_RELAXED);
	return 0;
fail:
	pthread_mutex_lock(&t->lock);
	bm_assign(t->ah_bm, id, false);
	pthread_mutex_unlock(&t->lock);
	free(a);
	return ret;
}

int
irdma_ah_destroy(struct irdma_ctrl *c, struct rdmadev_ah *ah)
{
	struct irdma_ah_tab *t = c->ah_tab;
	struct irdma_ah *a = ah->obj.fp.drv;
	struct irdma_cqp_wqe w;
	int ret;

	if (t == NULL || a == NULL)
		return -ENODEV;
	irdma_ah_wqe(&w, IRDMA_CQP_OP_DESTROY_ADDR_HANDLE, a, &ah->attr);
	ret = irdma_cqp_exec(c, &w, NULL);
	if (ret != 0) {
		IRDMA_LOG(ERR, c->hw, "AH %u destroy failed: %s", a->id, strerror(-ret));
		return ret;
	}
	irdma_arp_put(c, a->arp_idx);
	pthread_mutex_lock(&t->lock);
	bm_assign(t->ah_bm, a->id, false);
	pthread_mutex_unlock(&t->lock);
	free(a);
	ah->obj.fp.drv = NULL;
	__atomic_fetch_sub(&c->nb_ahs, 1, __ATOMIC_RELAXED);
	return 0;
}
