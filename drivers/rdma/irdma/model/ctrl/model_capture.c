/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Raw capture of the CQP WQEs the engine fetched: a ring of the last MODEL_CQP_CAPTURE
 * 64-byte WQEs exactly as read from host memory, for conformance tests that decode them
 * independently of the driver.
 */

#include <errno.h>
#include <string.h>

#include "model_priv.h"

void
model_cqp_capture_reset(struct model_dev *d)
{
	memset(&d->cqp_cap, 0, sizeof(d->cqp_cap));
}

void
model_cqp_capture_record(struct model_dev *d, uint32_t slot, const struct irdma_cqp_wqe *w)
{
	uint64_t seq = d->cqp_cap.seq++;
	unsigned int i = (unsigned int)(seq % MODEL_CQP_CAPTURE);

	memcpy(d->cqp_cap.ring[i].wqe, w, sizeof(*w));
	d->cqp_cap.ring[i].opcode = (uint8_t)irdma_get(w, CQP_OPCODE);
	d->cqp_cap.ring[i].slot = slot;
	d->cqp_cap.ring[i].seq = seq;
}

/* Ring index of the entry @p idx_from_newest back, or -ENOENT when it is not held. */
static int
capture_find(struct model_dev *d, unsigned int idx_from_newest)
{
	uint64_t n = d->cqp_cap.seq;

	if (idx_from_newest >= MODEL_CQP_CAPTURE || idx_from_newest >= n)
		return -ENOENT;
	return (int)((n - 1 - idx_from_newest) % MODEL_CQP_CAPTURE);
}

int
irdma_model_cqp_capture(struct irdma_hw *hw, unsigned int idx_from_newest, uint8_t wqe[64])
{
	struct model_dev *d = model_dev_of(hw);
	int i;

	if (d == NULL || wqe == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	i = capture_find(d, idx_from_newest);
	if (i >= 0) {
		memcpy(wqe, d->cqp_cap.ring[i].wqe, IRDMA_CQP_WQE_SIZE);
		i = d->cqp_cap.ring[i].opcode;
	}
	model_unlock(&d->lock);
	return i;
}

int
irdma_model_cqp_capture_pos(struct irdma_hw *hw, unsigned int idx_from_newest,
			    uint32_t *slot, uint64_t *seq)
{
	struct model_dev *d = model_dev_of(hw);
	int i;

	if (d == NULL)
		return -EINVAL;
	model_lock(&d->lock);
	i = capture_find(d, idx_from_newest);
	if (i >= 0) {
		if (slot != NULL)
			*slot = d->cqp_cap.ring[i].slot;
		if (seq != NULL)
			*seq = d->cqp_cap.ring[i].seq;
		i = 0;
	}
	model_unlock(&d->lock);
	return i;
}
