/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The data path: not built yet. Every call refuses with -ENOTSUP and posts or returns
 * nothing.
 */

#include <errno.h>

#include <rte_common.h>

#include "irdma_uk.h"

uint16_t
irdma_uk_post_send(void *qp_priv, const struct rdmadev_send_wr *wrs, uint16_t nb_wrs, int *err)
{
	RTE_SET_USED(qp_priv);
	RTE_SET_USED(wrs);
	RTE_SET_USED(nb_wrs);
	*err = -ENOTSUP;
	return 0;
}

uint16_t
irdma_uk_post_recv(void *qp_priv, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs, int *err)
{
	RTE_SET_USED(qp_priv);
	RTE_SET_USED(wrs);
	RTE_SET_USED(nb_wrs);
	*err = -ENOTSUP;
	return 0;
}

uint16_t
irdma_uk_poll_cq(void *cq_priv, struct rdmadev_wc *wcs, uint16_t nb_wcs)
{
	RTE_SET_USED(cq_priv);
	RTE_SET_USED(wcs);
	RTE_SET_USED(nb_wcs);
	return 0;
}
