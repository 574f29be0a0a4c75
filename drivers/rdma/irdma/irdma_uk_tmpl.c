/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Send templates: a 1-SGE SEND, SEND_IMM, RDMA WRITE, WRITE_IMM or RDMA READ checked and
 * encoded once (irdma_uk_send_tmpl_init, with post_send's own checks: irdma_uk_tmpl_plan),
 * then posted in bursts that give only wr_id, local address and length, remote address and
 * immediate per WR.
 *
 * The bytes are post_send's: the same header (valid bit last, after rte_io_wmb()), the same
 * fragments and qword 2, the same tracking entry, the same polarity flip at index 0 and
 * pre-invalidation at every 128th quantum, the same chunk NOPs. A WQE without an immediate
 * is one quantum, so the chunk rule never needs a NOP: the free-space check (257 quanta
 * kept free) runs once per burst, and the burst runs in stretches that end where start work
 * is due (a multiple of 128 quanta: index 0 included, so no stretch wraps). One with an
 * immediate is two quanta, posted one at a time as post_send's general path does
 * (irdma_uk_tmpl_post_imm). Per WR only the length is checked (it must fit FRAG_LEN). One
 * doorbell per burst. No lock, syscall, allocation or division.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>

#include <rdmadev_core.h>

#include "irdma_log.h"
#include "irdma_qp.h"
#include "irdma_uk.h"

_Static_assert(sizeof(struct irdma_uk_tmpl) <= sizeof(((struct rdmadev_send_tmpl *)0)->drv),
	       "the driver words fit the template");
_Static_assert(sizeof(struct rdmadev_send_tmpl) == 64, "a template is one cache line");
_Static_assert(sizeof(struct rdmadev_tmpl_wr) == 32, "a templated WR is 32 bytes");

/* Longest length a template WR may give: what FRAG_LEN holds. */
#define IRDMA_UK_TMPL_MAX_LEN	IRDMA_FIELD_MAX(FRAG_LEN)

/* The last QP generation handed out (0: none; a test QP in calloc'd memory has 0). */
static uint32_t irdma_uk_tmpl_gen;

uint32_t
irdma_uk_tmpl_gen_next(void)
{
	/* relaxed: only distinctness matters; the QP is published by its creation */
	return __atomic_add_fetch(&irdma_uk_tmpl_gen, 1, __ATOMIC_RELAXED);
}

int
irdma_uk_send_tmpl_init(struct irdma_qp *qp, const struct rdmadev_send_wr *proto,
			struct rdmadev_send_tmpl *t)
{
	struct irdma_uk_tmpl k;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = irdma_uk_tmpl_plan(qp, proto, &k);
	if (ret != 0)
		return ret;
	k.qp_gen = qp->tmpl_gen;
	memcpy(t->drv, &k, sizeof(k));
	t->qp_num = qp->qp_id;
	t->opcode = proto->opcode;
	t->flags = proto->flags;
	t->qp_drv = qp;
	return 0;
}

/* The driver words of template @p t. */
static __rte_always_inline const struct irdma_uk_tmpl *
irdma_uk_tmpl_of(const struct rdmadev_send_tmpl *t)
{
	return (const struct irdma_uk_tmpl *)(const void *)t->drv;
}

/* The refusal of a whole burst: template not of this QP, NULL, or QP state. */
static __rte_noinline __rte_cold uint16_t
irdma_uk_tmpl_refuse(const struct irdma_qp *qp, const struct rdmadev_send_tmpl *t,
		     const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs, int *err)
{
	if (t == NULL || wrs == NULL) {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send_tmpl with a NULL %s", qp->qp_id,
			  t == NULL ? "template" : "WR array");
		*err = -EINVAL;
	} else if (t->qp_drv != qp || irdma_uk_tmpl_of(t)->qp_gen != qp->tmpl_gen) {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send_tmpl with a template %s", qp->qp_id,
			  t->qp_drv == NULL ? "that was never made (or failed)" :
			  t->qp_drv != qp ? "of another QP" : "of an earlier QP at this address");
		*err = -EINVAL;
	} else if (nb_wrs != 0 && irdma_qp_hw_state(qp) == IRDMA_QP_HW_FATAL) {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send_tmpl refused: the device was reset",
			  qp->qp_id);
		*err = -EIO;
	} else if (nb_wrs != 0) {
		IRDMA_LOG(ERR, qp->hw, "QP %u: post_send_tmpl in HW state %u (RTS/SQD only)",
			  qp->qp_id, irdma_qp_hw_state(qp));
		*err = -EINVAL;
	} else {
		*err = 0;
	}
	return 0;
}

/* Log the refusal of a WR whose length does not fit FRAG_LEN; @return -EINVAL. */
static __rte_noinline __rte_cold int
irdma_uk_tmpl_bad_len(const struct irdma_qp *qp, const struct rdmadev_tmpl_wr *wr)
{
	IRDMA_LOG(ERR, qp->hw, "QP %u: template WR 0x%" PRIx64 " refused: length %u beyond %"
		  PRIu64, qp->qp_id, wr->wr_id, wr->length, (uint64_t)IRDMA_UK_TMPL_MAX_LEN);
	return -EINVAL;
}

/* The 32-bit tracking word at IRDMA_UK_TRK_W6 with next = @p next (its first 16 bits). */
static __rte_always_inline uint32_t
irdma_uk_tmpl_next(uint32_t w6, uint32_t next)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return w6 | next;
#else
	return w6 | next << 16;
#endif
}

/* Increment of the next field inside the tracking word at IRDMA_UK_TRK_W6. */
#define IRDMA_UK_TMPL_NEXT_ONE	irdma_uk_tmpl_next(0, 1)

/* What every WR of a stretch shares: the template's words with this pass's valid bits. */
struct irdma_uk_tmpl_pass {
	uint64_t hdr;	/* header, SQ_VALID set for the pass */
	uint64_t qw1;	/* fragment 0 qword 1 without FRAG_LEN, FRAG_VALID set for the pass */
	uint64_t qw2;	/* constant qword 2 (not @c remote) */
	uint64_t w2;	/* tracking word at IRDMA_UK_TRK_W2 */
};

/* A quantum, a tracking entry and a templated WR are 32 bytes: one offset walks all three. */
_Static_assert(sizeof(struct irdma_quantum) == 32 && sizeof(struct irdma_sq_wrtrk) == 32 &&
	       sizeof(struct rdmadev_tmpl_wr) == 32, "one stride for ring, tracking and WRs");
#define IRDMA_UK_TMPL_STRIDE	32u

/*
 * One template WR @p v (its length checked) at quantum @p q, tracking entry @p t, with the
 * tracking word IRDMA_UK_TRK_W6 @p w6 (next included).
 */
static __rte_always_inline void
irdma_uk_tmpl_one(struct irdma_quantum *q, uint8_t *t, const struct rdmadev_tmpl_wr *v,
		  const struct irdma_uk_tmpl_pass *p, uint32_t w6, bool remote)
{
	/* FRAG_LEN holds the checked length: a shift places it */
	uint64_t len = (uint64_t)v->length << IRDMA_FIELD_SHIFT(FRAG_LEN);
	uint64_t trk2;

	/* fragment 0 and qword 2 */
	q->qw[0] = rte_cpu_to_le_64(v->addr);
	q->qw[1] = rte_cpu_to_le_64(p->qw1 | len);
	q->qw[2] = rte_cpu_to_le_64(remote ? IRDMA_PREP(SQ_REMOTE_TO, v->remote_addr) : p->qw2);
	/* the tracking entry: wr_id, nop / opcode / rsvd and the byte count, next / quanta /
	 * signaled (imm and qp_num are the QP's, set when it was created) */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	trk2 = p->w2 | len;
#else
	trk2 = p->w2 << 32 | len >> IRDMA_FIELD_SHIFT(FRAG_LEN);
#endif
	memcpy(t, &v->wr_id, sizeof(uint64_t));
	memcpy(t + IRDMA_UK_TRK_W2, &trk2, sizeof(trk2));
	memcpy(t + IRDMA_UK_TRK_W6, &w6, sizeof(w6));
	/* the header last: the device may take the WQE from then on */
	rte_io_wmb();
	irdma_qw_store(q, QUANTUM_VALID, p->hdr);
}

/*
 * Write @p n template WRs from quantum @p head on, with polarity @p pol; no start work is
 * due among them and they do not wrap (the last may end at the ring's end). @p remote:
 * qword 2 is each WR's remote address.
 * @return how many were written: @p n, or the index of the first whose length is refused.
 */
static __rte_always_inline uint32_t
irdma_uk_tmpl_run(struct irdma_qp *qp, const struct irdma_uk_tmpl *k,
		  const struct rdmadev_tmpl_wr *v, uint32_t n, uint32_t head, uint32_t pol,
		  bool remote)
{
	const struct irdma_uk_tmpl_pass p = {
		.hdr = k->hdr | IRDMA_PREP(SQ_VALID, pol),
		.qw1 = k->frag_qw1 | IRDMA_PREP(FRAG_VALID, pol),
		.qw2 = k->qw2,
		.w2 = k->trk_w2,
	};
	uint8_t *qb = qp->sq.base + (size_t)head * IRDMA_UK_TMPL_STRIDE;
	uint8_t *tb = (uint8_t *)&qp->sq_wrtrk[head];
	const uint8_t *vb = (const uint8_t *)v;
	/* the WRs whose next is the quantum after them: all but one that ends the ring */
	uint32_t plain = n - (((head + n) & (qp->sq.quanta - 1)) == 0);
	uint32_t w6 = irdma_uk_tmpl_next(k->trk_w6, head + 1);
	size_t off, end = (size_t)plain * IRDMA_UK_TMPL_STRIDE;

	for (off = 0; off != end; off += IRDMA_UK_TMPL_STRIDE) {
		const struct rdmadev_tmpl_wr *w = (const void *)(vb + off);

		if (unlikely(w->length > IRDMA_UK_TMPL_MAX_LEN))
			return (uint32_t)(off / IRDMA_UK_TMPL_STRIDE);
		irdma_uk_tmpl_one((struct irdma_quantum *)(void *)(qb + off), tb + off, w, &p,
				  w6, remote);
		w6 += IRDMA_UK_TMPL_NEXT_ONE;
	}
	if (plain == n)
		return n;
	if (unlikely(v[plain].length > IRDMA_UK_TMPL_MAX_LEN))
		return plain;
	irdma_uk_tmpl_one((struct irdma_quantum *)(void *)(qb + end), tb + end, &v[plain], &p,
			  irdma_uk_tmpl_next(k->trk_w6, 0), remote);
	return n;
}

/*
 * The stretches of a burst of @p cnt WRs (room checked) that meets start work: up to each
 * multiple of 128 quanta, the start work there, and on. *@p head and *@p pol move on.
 * @return how many were written (fewer than @p cnt: wrs[returned] has a refused length).
 */
static __rte_noinline uint32_t
irdma_uk_tmpl_stretches(struct irdma_qp *qp, const struct irdma_uk_tmpl *k,
			const struct rdmadev_tmpl_wr *wrs, uint32_t cnt, uint32_t *head,
			uint32_t *pol)
{
	uint32_t h = *head, mask = qp->sq.quanta - 1, done = 0, seg, got;

	while (done < cnt) {
		if ((h & (IRDMA_SQ_CLR_STRIDE - 1)) == 0) {
			/* post_send checks a WR before its start work */
			if (unlikely(wrs[done].length > IRDMA_UK_TMPL_MAX_LEN))
				break;
			irdma_uk_sq_begin(qp, h, pol);
		}
		/* up to the next multiple of 128: never past the ring's end, since a ring that
		 * keeps 257 quanta free and has room is at least 512 quanta */
		seg = RTE_MIN(cnt - done, IRDMA_SQ_CLR_STRIDE - (h & (IRDMA_SQ_CLR_STRIDE - 1)));
		if (k->remote)
			got = irdma_uk_tmpl_run(qp, k, wrs + done, seg, h, *pol, true);
		else
			got = irdma_uk_tmpl_run(qp, k, wrs + done, seg, h, *pol, false);
		done += got;
		h = (h + got) & mask;
		if (unlikely(got != seg))
			break;
	}
	*head = h;
	return done;
}

/* Quanta of a template WQE with an immediate: slot 0 the immediate, the SGE, the NULL pad. */
#define IRDMA_UK_TMPL_IMM_QUANTA	2u

/*
 * Out of line, before a 2-quantum WQE at @p h with polarity @p pol: the chunk rule's NOP when
 * @p h is a chunk's last quantum, then the start work due where the WQE starts.
 * @return the WQE's quantum in bits 63:32, the polarity in bits 31:0.
 */
static __rte_noinline uint64_t
irdma_uk_tmpl_imm_prep(struct irdma_qp *qp, uint32_t h, uint32_t pol)
{
	if ((h & (IRDMA_SQ_CHUNK_QUANTA - 1)) == IRDMA_SQ_CHUNK_QUANTA - 1) {
		irdma_uk_sq_nop_at(qp, h, &pol);
		h = (h + 1) & (qp->sq.quanta - 1);
	}
	if ((h & (IRDMA_SQ_CLR_STRIDE - 1)) == 0)
		irdma_uk_sq_begin(qp, h, &pol);
	return (uint64_t)h << 32 | pol;
}

/*
 * Write @p n template WRs with an immediate from quantum @p head on (a stretch: no chunk NOP
 * and no start work due among them), with the pass words @p p (valid bits included) and
 * the fragment valid bit @p valid. @return @p n, or the index of a refused length.
 */
static __rte_always_inline uint32_t
irdma_uk_tmpl_run_imm(struct irdma_qp *qp, const struct irdma_uk_tmpl *k,
		      const struct rdmadev_tmpl_wr *v, uint32_t n, uint32_t head,
		      const struct irdma_uk_tmpl_pass *p, uint64_t valid, bool remote)
{
	uint32_t mask = qp->sq.quanta - 1, h = head, i, w6;
	uint8_t *base = qp->sq.base, *trk = (uint8_t *)qp->sq_wrtrk;
	uint64_t len, trk2;

	for (i = 0; i < n; i++, v++) {
		struct irdma_quantum *q;
		rte_le64_t *f;
		uint8_t *t;

		if (unlikely(v->length > IRDMA_UK_TMPL_MAX_LEN))
			break;
		len = (uint64_t)v->length << IRDMA_FIELD_SHIFT(FRAG_LEN);
		q = (struct irdma_quantum *)(void *)(base + (size_t)h * IRDMA_QUANTUM_SIZE);
		/* quantum 0: the immediate in slot 0, qword 2; the SGE and the NULL pad after */
		q->qw[0] = rte_cpu_to_le_64(IRDMA_PREP(SQ_IMMDATA, rte_be_to_cpu_32(v->imm_data)));
		q->qw[1] = 0;
		q->qw[2] = rte_cpu_to_le_64(remote ? IRDMA_PREP(SQ_REMOTE_TO, v->remote_addr) :
					    p->qw2);
		f = (rte_le64_t *)(void *)((uint8_t *)q + IRDMA_FRAG1_OFFSET);
		f[0] = rte_cpu_to_le_64(v->addr);
		f[1] = rte_cpu_to_le_64(p->qw1 | len);
		f[2] = 0;
		f[3] = rte_cpu_to_le_64(valid);
		/* the tracking entry, as in the 1-quantum path */
		t = trk + (size_t)h * sizeof(struct irdma_sq_wrtrk);
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
		trk2 = p->w2 | len;
#else
		trk2 = p->w2 << 32 | v->length;
#endif
		h = (h + IRDMA_UK_TMPL_IMM_QUANTA) & mask;
		w6 = irdma_uk_tmpl_next(k->trk_w6, h);
		memcpy(t, &v->wr_id, sizeof(uint64_t));
		memcpy(t + IRDMA_UK_TRK_W2, &trk2, sizeof(trk2));
		memcpy(t + IRDMA_UK_TRK_W6, &w6, sizeof(w6));
		rte_io_wmb();
		irdma_qw_store(q, QUANTUM_VALID, p->hdr);
	}
	return i;
}

/*
 * Template WRs with an immediate (2 quanta: the immediate in fragment slot 0, the SGE at
 * byte 32, the NULL pad at byte 48), placed as post_send's general path places them: the
 * chunk rule's NOP before a WQE that would start at a chunk's last quantum and the start
 * work due where a WQE starts (both out of line, after that WR's check), the free space
 * counted down with the NOPs included; in between, stretches of plain WQEs. *@p head and
 * *@p pol move on.
 * @return how many were written; wrs[returned] has a refused length or finds no room.
 */
static __rte_noinline uint32_t
irdma_uk_tmpl_post_imm(struct irdma_qp *qp, const struct irdma_uk_tmpl *k,
		       const struct rdmadev_tmpl_wr *wrs, uint32_t nb, uint32_t tail,
		       uint32_t *head, uint32_t *pol)
{
	uint32_t h = *head, pl = *pol, mask = qp->sq.quanta - 1, i = 0, nops, used, room;
	uint32_t lim, seg, got;
	struct irdma_uk_tmpl_pass p = {
		.hdr = k->hdr | IRDMA_PREP(SQ_VALID, pl),
		.qw1 = k->frag_qw1 | IRDMA_PREP(FRAG_VALID, pl),
		.qw2 = k->qw2,
		.w2 = k->trk_w2,
	};

	/* post_send's per-WR free-space check, as a count down of the quanta left */
	used = ((h - tail) & mask) + IRDMA_SQ_FREE_RSVD;
	room = used < qp->sq.quanta ? qp->sq.quanta - used : 0;
	while (i < nb) {
		if (unlikely(wrs[i].length > IRDMA_UK_TMPL_MAX_LEN))
			break;
		nops = (h & (IRDMA_SQ_CHUNK_QUANTA - 1)) == IRDMA_SQ_CHUNK_QUANTA - 1;
		if (room < nops + IRDMA_UK_TMPL_IMM_QUANTA)
			break;
		if (nops != 0 || (h & (IRDMA_SQ_CLR_STRIDE - 1)) == 0) {
			uint64_t r = irdma_uk_tmpl_imm_prep(qp, h, pl);

			h = (uint32_t)(r >> 32);
			pl = (uint32_t)r;
			room -= nops;
			p.hdr = k->hdr | IRDMA_PREP(SQ_VALID, pl);
			p.qw1 = k->frag_qw1 | IRDMA_PREP(FRAG_VALID, pl);
		}
		/* the stretch from h: up to the next chunk's last quantum (odd h: a NOP is due
		 * there) or the next multiple of 128 (even h: start work), and the room */
		lim = (h & 1) ? (IRDMA_SQ_CHUNK_QUANTA - (h & (IRDMA_SQ_CHUNK_QUANTA - 1))) / 2 :
				(IRDMA_SQ_CLR_STRIDE - (h & (IRDMA_SQ_CLR_STRIDE - 1))) / 2;
		seg = RTE_MIN(RTE_MIN(nb - i, lim), room / IRDMA_UK_TMPL_IMM_QUANTA);
		if (k->remote)
			got = irdma_uk_tmpl_run_imm(qp, k, wrs + i, seg, h, &p,
						    IRDMA_PREP(FRAG_VALID, pl), true);
		else
			got = irdma_uk_tmpl_run_imm(qp, k, wrs + i, seg, h, &p,
						    IRDMA_PREP(FRAG_VALID, pl), false);
		i += got;
		room -= got * IRDMA_UK_TMPL_IMM_QUANTA;
		h = (h + got * IRDMA_UK_TMPL_IMM_QUANTA) & mask;
		if (got != seg)
			break;
	}
	*head = h;
	*pol = pl;
	return i;
}

uint16_t
irdma_uk_post_send_tmpl(void *qp_priv, const struct rdmadev_send_tmpl *t,
			const struct rdmadev_tmpl_wr *wrs, uint16_t nb_wrs, int *err)
{
	struct irdma_qp *qp = qp_priv;
	const struct irdma_uk_tmpl *k;
	uint32_t head, tail, mask, used, cnt, done, pol, at;
	int ret = 0;

	if (unlikely(t == NULL || wrs == NULL || t->qp_drv != qp ||
		     irdma_uk_tmpl_of(t)->qp_gen != qp->tmpl_gen ||
		     !__atomic_load_n(&qp->sq_open, __ATOMIC_RELAXED)))
		return irdma_uk_tmpl_refuse(qp, t, wrs, nb_wrs, err);
	k = irdma_uk_tmpl_of(t);
	head = qp->sq.head;
	pol = qp->sq.polarity;
	mask = qp->sq.quanta - 1;
	/* acquire: the poller is done with the tracking entries behind its tail */
	tail = __atomic_load_n(&qp->sq.tail, __ATOMIC_ACQUIRE);
	/* the free-space check of post_send, for every WR of the burst at once */
	used = ((head - tail) & mask) + IRDMA_SQ_FREE_RSVD;
	cnt = used < qp->sq.quanta ? RTE_MIN((uint32_t)nb_wrs, qp->sq.quanta - used) : 0;
	at = head & (IRDMA_SQ_CLR_STRIDE - 1);
	if (unlikely(k->quanta != 1)) {
		done = irdma_uk_tmpl_post_imm(qp, k, wrs, nb_wrs, tail, &head, &pol);
	} else if (likely(at != 0 && at + cnt <= IRDMA_SQ_CLR_STRIDE)) {
		/* one stretch, no start work (the usual burst) */
		if (k->remote)
			done = irdma_uk_tmpl_run(qp, k, wrs, cnt, head, pol, true);
		else
			done = irdma_uk_tmpl_run(qp, k, wrs, cnt, head, pol, false);
		head = (head + done) & mask;
	} else {
		done = irdma_uk_tmpl_stretches(qp, k, wrs, cnt, &head, &pol);
	}
	if (unlikely(done != nb_wrs)) {
		if (wrs[done].length > IRDMA_UK_TMPL_MAX_LEN) {
			ret = irdma_uk_tmpl_bad_len(qp, &wrs[done]);
		} else {
			/* Back-pressure, not bad input: no error line per refused burst. */
			IRDMA_LOG(DEBUG, qp->hw, "QP %u: template WR 0x%" PRIx64 " waits: SQ full",
				  qp->qp_id, wrs[done].wr_id);
			ret = -ENOMEM;
		}
	}
	*err = ret;
	if (likely(done != 0)) {
		qp->sq.polarity = (uint8_t)pol;
		/* release: the tracking entries before the poller can see the new head */
		__atomic_store_n(&qp->sq.head, head, __ATOMIC_RELEASE);
		/* One doorbell for the burst; irdma_wr32 orders the WQE stores before it. */
		irdma_wr32_db(qp->hw, qp->db_off, qp->qp_id);
	}
	return (uint16_t)done;
}
