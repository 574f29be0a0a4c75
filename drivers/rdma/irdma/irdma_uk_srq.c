/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The SRQ half of the data path (gen3, doc/hardware.md §2, §3): post_srq_recv writes SRQ WQEs,
 * and the SRQ completion bookkeeping poll_cq calls for a CQE with CQE_SRQ set.
 *
 * An SRQ WQE is an RQ WQE (fragments, the gen2 NULL-pad rule, header qword 3 with
 * ADDFRAGCNT and the valid bit = the SRQ's polarity, written last after a write barrier)
 * whose qword 2 holds the wr_id: the device returns it in CQE qword 1, so no wr_id array is
 * kept. After the burst the index after the last WQE goes to shadow qword 0, the SRQ's
 * doorbell in host memory.
 *
 * Room: posted - done WQEs are outstanding, at most max_wr; done grows as pollers (of any
 * CQ) retire SRQ completions, with release order, and the poster reads it with acquire, so
 * a slot is written again only after the device has taken its WQE.
 */

#include <inttypes.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_io.h>

#include "irdma_log.h"
#include "irdma_qp.h"
#include "irdma_srq.h"
#include "irdma_uk.h"

/* Write the fragments of @p wr into the WQE at @p w: slot k of §1.4, NULL pad included. */
static inline void
irdma_uk_srq_frags(struct irdma_wqe *w, const struct rdmadev_recv_wr *wr, uint64_t valid)
{
	uint32_t slots = wr->num_sge == 0 ? 1 : wr->num_sge;
	uint32_t k;

	if (irdma_frag_needs_pad(wr->num_sge))
		slots++;
	for (k = 0; k < slots; k++) {
		struct irdma_wqe_frag *f = irdma_wqe_frag(w, k);
		const struct rdmadev_sge *sg = k < wr->num_sge ? &wr->sg_list[k] : NULL;

		f->qw[0] = rte_cpu_to_le_64(sg != NULL ? sg->addr : 0);
		f->qw[1] = rte_cpu_to_le_64(sg == NULL ? valid :
					    IRDMA_PREP(FRAG_STAG, sg->lkey) |
					    IRDMA_PREP(FRAG_LEN, sg->length) | valid);
	}
}

uint16_t
irdma_uk_post_srq_recv(void *srq_priv, const struct rdmadev_recv_wr *wrs, uint16_t nb_wrs,
		       int *err)
{
	struct irdma_srq *s = srq_priv;
	uint32_t mask = s->size - 1;
	uint32_t head = s->head;
	uint32_t pol = s->polarity;
	uint32_t posted = s->posted;
	/* acquire: the device took the WQEs of the completions counted in done */
	uint32_t done = __atomic_load_n(&s->done, __ATOMIC_ACQUIRE);
	uint16_t i;
	int ret = 0;

	for (i = 0; i < nb_wrs; i++) {
		const struct rdmadev_recv_wr *wr = &wrs[i];
		struct irdma_wqe *w;

		if (unlikely(wr->num_sge > s->max_sge)) {
			IRDMA_LOG(ERR, s->hw, "SRQ %u: recv WR 0x%" PRIx64 " refused: %u SGEs, "
				  "max_sge %u", s->srq_id, wr->wr_id, wr->num_sge, s->max_sge);
			ret = -EINVAL;
			break;
		}
		if (unlikely(irdma_uk_sge_too_long(wr->sg_list, wr->num_sge))) {
			IRDMA_LOG(ERR, s->hw, "SRQ %u: recv WR 0x%" PRIx64 " refused: an SGE "
				  "longer than 2^31 - 1 bytes", s->srq_id, wr->wr_id);
			ret = -EINVAL;
			break;
		}
		if (unlikely(posted - done >= s->max_wr)) {
			/* Back-pressure, not bad input: no error line per refused burst. */
			IRDMA_LOG(DEBUG, s->hw, "SRQ %u: recv WR 0x%" PRIx64 " waits: SRQ full",
				  s->srq_id, wr->wr_id);
			ret = -ENOMEM;
			break;
		}
		if (head == 0)
			pol ^= 1;
		w = (struct irdma_wqe *)(void *)(s->base +
						 ((size_t)head << s->shift) * IRDMA_QUANTUM_SIZE);
		irdma_uk_srq_frags(w, wr, IRDMA_PREP(FRAG_VALID, pol));
		irdma_set(w, SRQ_WRID, wr->wr_id);
		/* The header, with its valid bit, only after the rest of the WQE. */
		rte_io_wmb();
		irdma_qw_store(w, RQ_VALID,
			       IRDMA_PREP(RQ_ADDFRAGCNT, irdma_addfragcnt(wr->num_sge, s->gen == 2)) |
			       IRDMA_PREP(RQ_VALID, pol));
		head = (head + 1) & mask;
		posted++;
	}
	*err = ret;
	if (i == 0)
		return 0;
	s->head = head;
	s->polarity = (uint8_t)pol;
	s->posted = posted;
	/* The WQEs before their doorbell: the device reads the head, then the WQEs. */
	rte_io_wmb();
	irdma_qw_store((struct irdma_srq_shadow *)s->shadow, SRQ_SHADOW_HEAD, head);
	return i;
}

struct irdma_qp *
irdma_uk_srq_cqe(const struct irdma_cqe *cqe, const struct irdma_cqe_ext *ext,
		 uint64_t *wr_id)
{
	struct irdma_qp *qp;

	if (unlikely(ext == NULL))
		return NULL;	/* not a CQE this driver's device writes: consumed */
	qp = (struct irdma_qp *)(uintptr_t)irdma_get(ext, CQE_EXT_SRQ_QP_CTX);
	if (unlikely(qp == NULL || qp->srq == NULL))
		return NULL;	/* a destroyed QP's CQE (cleaned, and counted then) */
	*wr_id = irdma_get(cqe, CQE_COMP_CTX);
	/* release: this WQE's slot may be written again once the poster sees it */
	__atomic_fetch_add(&qp->srq->done, 1, __ATOMIC_RELEASE);
	return qp;
}
