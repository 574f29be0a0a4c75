/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Send templates end to end through the public API (rdmadev_send_tmpl_init,
 * rdmadev_post_send_tmpl) on the device model: bursts of template RDMA WRITEs, READs, SENDs
 * and WRITEs with immediate between two RC QPs on two devices, over several SQ wraps, data
 * checked byte for byte
 * and exactly one completion per WR with its wr_id, in order; and the API's refusals: NULL,
 * bad prototypes, a template of another QP or of a destroyed one, QP states, a device that
 * has no templates.
 */

#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_eal.h>

#include "test.h"
#include "e2e_lib.h"

#define MR_LEN		(256u * 1024u)
#define BURST		16u
#define BURSTS		96u	/* 1536 WRs: three wraps of a 512-quantum SQ */

static struct e2e_dev da, db;

/* Two MRs (on da and db) and an RC pair a (on da) -> b (on db), connected. */
struct pair_env {
	struct e2e_mr ma, mb;
	struct e2e_qp a, b;
};

/*
 * Set up @p e with MRs of @p len bytes and either small QPs (64 WRs of 1 SGE: an SQ of 512
 * quanta, so bursts wrap it often) or e2e_pair()'s deep ones; false (and a failed check) when
 * a part is missing. env_down() undoes it either way.
 */
static bool
env_up(struct pair_env *e, uint64_t len, bool small)
{
	static const struct rdmadev_qp_cap cap = {
		.max_send_wr = 64, .max_recv_wr = 64, .max_send_sge = 1, .max_recv_sge = 1,
	};
	int ret;

	memset(e, 0, sizeof(*e));
	e2e_mr_reg(&da, NULL, &e->ma, len, E2E_ACC_ALL);
	e2e_mr_reg(&db, NULL, &e->mb, len, E2E_ACC_ALL);
	if (e->ma.mr == NULL || e->mb.mr == NULL)
		ret = -1;
	else if (!small)
		ret = e2e_pair(&da, &db, &e->a, &e->b, E2E_ACC_ALL);
	else if (e2e_qp_create_cap(&da, &e->a, RDMADEV_QPT_RC, NULL, &cap, NULL) != 0 ||
		 e2e_qp_create_cap(&db, &e->b, RDMADEV_QPT_RC, NULL, &cap, NULL) != 0)
		ret = -1;
	else
		ret = e2e_rc_connect(&e->a, &e->b, NULL);
	TEST_CHECK(ret == 0);
	return ret == 0;
}

/* Destroy what env_up() made, dropping the completions left on both devices. */
static void
env_down(struct pair_env *e)
{
	e2e_unpair(&e->a, &e->b);
	e2e_drain(&da);
	e2e_drain(&db);
	e2e_mr_dereg(&e->mb);
	e2e_mr_dereg(&e->ma);
}

/* @p e's MRs with their canaries intact, no completion more on a's send CQ in @p polls polls. */
static void
env_clean(const struct pair_env *e, unsigned int polls)
{
	TEST_CHECK(e2e_canary_ok(&e->ma) && e2e_canary_ok(&e->mb));
	TEST_CHECK_EQ(e2e_idle(&da.scq, polls), 0);
}

/* A 1-SGE prototype of @p op from @p a's MR @p m to @p b's MR @p r. */
static struct rdmadev_send_wr
proto_of(uint8_t op, const struct rdmadev_sge *sge, const struct e2e_mr *r)
{
	return (struct rdmadev_send_wr){
		.wr_id = 1, .sg_list = sge, .num_sge = 1, .opcode = op,
		.flags = RDMADEV_SEND_SIGNALED,
		.rdma = { .remote_addr = (uint64_t)(uintptr_t)r->buf, .rkey = r->rkey },
	};
}

/* Template @p t of @p op with @p flags added on @p e's a: from ma (a 0-byte SGE) to mb. */
static void
tmpl_make(struct pair_env *e, uint8_t op, uint8_t flags, struct rdmadev_send_tmpl *t)
{
	struct rdmadev_sge psge = { 0, 0, e->ma.lkey };
	struct rdmadev_send_wr proto = proto_of(op, &psge, &e->mb);

	proto.flags |= flags;
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e->a.qp, &proto, t), 0);
}

/* Post all @p n WRs of @p v (retrying while the SQ is full). */
static bool
post_all(struct e2e_qp *p, const struct rdmadev_send_tmpl *t, const struct rdmadev_tmpl_wr *v,
	 uint16_t n)
{
	unsigned int tries = 0;
	uint16_t done = 0;
	int err;

	while (done < n && tries++ < 100000) {
		done += rdmadev_post_send_tmpl(p->qp, t, v + done, n - done, &err);
		if (done < n && err != -ENOMEM) {
			TEST_CHECK_EQ(err, -ENOMEM);
			return false;
		}
		if (done < n)
			e2e_collect();
	}
	return done == n;
}

/* The next @p n completions of @p r are @p first, @p first + 1 ... with @p opcode, successful;
 * they are copied to @p out (BURST of them at most) unless it is NULL. */
static void
expect_run(struct e2e_cqrec *r, uint64_t first, unsigned int n, int opcode,
	   struct rdmadev_wc *out)
{
	struct rdmadev_wc wc;
	unsigned int i;
	bool got;

	TEST_CHECK(e2e_wait(r, n));
	for (i = 0; i < n; i++) {
		got = e2e_take(r, &wc);
		TEST_CHECK(got);
		if (!got)
			return;
		TEST_CHECK_EQ(wc.wr_id, first + i);
		TEST_CHECK_EQ(wc.status, RDMADEV_WC_SUCCESS);
		TEST_CHECK_EQ(wc.opcode, opcode);
		if (out != NULL)
			out[i] = wc;
	}
}

/* Post the burst @p v (BURST WRs, the first of wr_id @p first) through @p t on @p p; its
 * completions, one a WR in order, are checked. True when all were posted. */
static bool
post_burst(struct e2e_qp *p, const struct rdmadev_send_tmpl *t, const struct rdmadev_tmpl_wr *v,
	   uint64_t first, int opcode)
{
	bool ok = post_all(p, t, v, BURST);

	TEST_CHECK(ok);
	expect_run(&p->dev->scq, first, BURST, opcode, NULL);
	return ok;
}

/* Template WRITE and READ bursts from a to b, data checked after every burst. */
static void
test_write_read(void)
{
	struct rdmadev_tmpl_wr v[BURST];
	struct rdmadev_send_tmpl tw, tr;
	struct rdmadev_send_wr proto;
	struct rdmadev_sge psge;
	uint64_t id = 1000, s = 7;
	struct pair_env e;
	unsigned int k, i;
	bool ok = true;

	if (!env_up(&e, MR_LEN, true))
		goto out;
	psge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)e.ma.buf, 0, e.ma.lkey };
	proto = proto_of(RDMADEV_WR_RDMA_WRITE, &psge, &e.mb);
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &tw), 0);
	proto = proto_of(RDMADEV_WR_RDMA_READ, &psge, &e.mb);
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &tr), 0);
	for (k = 0; k < BURSTS && ok; k++) {
		bool rd = (k % 3) == 2;
		/* 16 WRs into disjoint 8 KB slots, lengths 1 .. 8 KB */
		for (i = 0; i < BURST; i++) {
			uint32_t len = 1 + (uint32_t)(e2e_rand(&s) % 8192);
			uint64_t off = (uint64_t)i * 8192 + (k % 2) * (MR_LEN / 2);

			v[i] = (struct rdmadev_tmpl_wr){
				.wr_id = id + i, .addr = (uint64_t)(uintptr_t)e.ma.buf + off,
				.remote_addr = (uint64_t)(uintptr_t)e.mb.buf + off, .length = len,
			};
		}
		e2e_fill(rd ? e.mb.buf : e.ma.buf, MR_LEN, k + 1);
		memset(rd ? e.ma.buf : e.mb.buf, 0, MR_LEN);
		ok = post_burst(&e.a, rd ? &tr : &tw, v, id,
				rd ? RDMADEV_WC_RDMA_READ : RDMADEV_WC_RDMA_WRITE);
		for (i = 0; i < BURST; i++) {
			const uint8_t *src = (const uint8_t *)(uintptr_t)(rd ? v[i].remote_addr :
									   v[i].addr);
			const uint8_t *dst = (const uint8_t *)(uintptr_t)(rd ? v[i].addr :
									   v[i].remote_addr);

			if (memcmp(dst, src, v[i].length) != 0 || dst[v[i].length] != 0) {
				printf("# burst %u WR %u (%s, %u bytes): data differs\n", k, i,
				       rd ? "READ" : "WRITE", v[i].length);
				TEST_CHECK(false);
				ok = false;
			}
		}
		id += BURST;
	}
	TEST_CHECK_EQ(k, BURSTS);
	env_clean(&e, 50);	/* exactly one completion each */
	TEST_CHECK_EQ(e2e_idle(&db.rcq, 10), 0);
out:
	env_down(&e);
}

/* Template SENDs (solicited) into posted receives: data and both sides' completions. */
static void
test_send(void)
{
	struct rdmadev_tmpl_wr v[BURST];
	struct rdmadev_wc wc[BURST];
	struct rdmadev_send_tmpl t;
	struct rdmadev_sge r;
	struct pair_env e;
	unsigned int k, i;

	if (!env_up(&e, MR_LEN, true))
		goto out;
	tmpl_make(&e, RDMADEV_WR_SEND, RDMADEV_SEND_SOLICITED, &t);
	e2e_fill(e.ma.buf, MR_LEN, 3);
	for (k = 0; k < 4; k++) {
		memset(e.mb.buf, 0, MR_LEN);
		memset(wc, 0, sizeof(wc));
		for (i = 0; i < BURST; i++) {
			r = (struct rdmadev_sge){ (uint64_t)(uintptr_t)e.mb.buf + i * 4096, 4096,
						  e.mb.lkey };
			TEST_CHECK(e2e_recv(&e.b, 500 + i, &r, 1));
			v[i] = (struct rdmadev_tmpl_wr){
				.wr_id = 100 * k + i,
				.addr = (uint64_t)(uintptr_t)e.ma.buf + 1000 * i + k,
				.length = 100 + 200 * i + k,
				.remote_addr = 0xdead,	/* ignored for SEND */
			};
		}
		post_burst(&e.a, &t, v, 100 * k, RDMADEV_WC_SEND);
		expect_run(&db.rcq, 500, BURST, RDMADEV_WC_RECV, wc);
		for (i = 0; i < BURST; i++) {
			TEST_CHECK_EQ(wc[i].byte_len, v[i].length);
			TEST_CHECK(memcmp(e.mb.buf + i * 4096,
					  (const void *)(uintptr_t)v[i].addr, v[i].length) == 0);
		}
	}
	env_clean(&e, 20);
out:
	env_down(&e);
}

/* Template WRITEs with immediate (2 quanta each, chunk NOPs between): the data, the sender's
 * completions, and one RECV_RDMA_IMM a WR at b with that WR's immediate. */
static void
test_write_imm(void)
{
	struct rdmadev_tmpl_wr v[BURST];
	struct rdmadev_wc wc[BURST];
	struct rdmadev_send_tmpl t;
	struct rdmadev_sge r;
	struct pair_env e;
	unsigned int k, i;

	if (!env_up(&e, MR_LEN, true))
		goto out;
	tmpl_make(&e, RDMADEV_WR_RDMA_WRITE_IMM, 0, &t);
	r = (struct rdmadev_sge){ (uint64_t)(uintptr_t)e.mb.buf, 0, e.mb.lkey };
	for (k = 0; k < 40; k++) {	/* 640 WRs of 2 quanta: 2.5 wraps of the SQ */
		e2e_fill(e.ma.buf, BURST * 4096, k + 11);
		memset(e.mb.buf, 0, BURST * 4096);
		memset(wc, 0, sizeof(wc));
		for (i = 0; i < BURST; i++) {
			TEST_CHECK(e2e_recv(&e.b, 700 + i, &r, 1));
			v[i] = (struct rdmadev_tmpl_wr){
				.wr_id = 10000 + 100 * k + i,
				.addr = (uint64_t)(uintptr_t)e.ma.buf + 4096 * i,
				.remote_addr = (uint64_t)(uintptr_t)e.mb.buf + 4096 * i,
				.length = 1 + (37 * (i + k)) % 4000,
				.imm_data = rte_cpu_to_be_32(0xabc00000u + 16 * k + i),
			};
		}
		post_burst(&e.a, &t, v, 10000 + 100 * k, RDMADEV_WC_RDMA_WRITE);
		expect_run(&db.rcq, 700, BURST, RDMADEV_WC_RECV_RDMA_IMM, wc);
		for (i = 0; i < BURST; i++) {
			TEST_CHECK(wc[i].wc_flags & RDMADEV_WC_WITH_IMM);
			TEST_CHECK_EQ(wc[i].imm_data, v[i].imm_data);
			TEST_CHECK(memcmp(e.mb.buf + 4096 * i, e.ma.buf + 4096 * i,
					  v[i].length) == 0);
		}
	}
	env_clean(&e, 20);
out:
	env_down(&e);
}

/* The API's refusals. */
static void
test_refusals(void)
{
	struct rdmadev_tmpl_wr v = { .wr_id = 1, .length = 8 };
	struct rdmadev_send_tmpl t, tb;
	struct rdmadev_send_wr proto;
	struct e2e_qp c = { 0 };
	struct rdmadev_sge sg[2];
	struct pair_env e;
	int err;

	if (!env_up(&e, 4096, false))
		goto out;
	sg[0] = sg[1] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)e.ma.buf, 8, e.ma.lkey };
	e2e_fill(e.ma.buf, 8, 5);
	v.addr = sg[0].addr;
	v.remote_addr = (uint64_t)(uintptr_t)e.mb.buf;
	proto = proto_of(RDMADEV_WR_RDMA_WRITE, sg, &e.mb);
	/* NULL */
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(NULL, &proto, &t), -EINVAL);
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, NULL, &t), -EINVAL);
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, NULL), -EINVAL);
	/* bad prototypes; the template is zeroed and refused */
	proto.num_sge = 2;
	memset(&t, 0x77, sizeof(t));
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), -EINVAL);
	TEST_CHECK(t.qp_drv == NULL && t.drv[0] == 0);
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(e.a.qp, &t, &v, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	proto.num_sge = 1;
	proto.flags |= RDMADEV_SEND_INLINE;
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), -EINVAL);
	proto.flags = RDMADEV_SEND_SIGNALED;
	proto.opcode = RDMADEV_WR_SEND_INV;
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), -ENOTSUP);
	proto.opcode = RDMADEV_WR_LOCAL_INV;
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), -ENOTSUP);
	proto.opcode = 99;
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), -EINVAL);
	/* a UD QP: no WRITE (the driver's post_send check) */
	proto.opcode = RDMADEV_WR_RDMA_WRITE;
	TEST_CHECK_EQ(e2e_qp_create(&da, &c, RDMADEV_QPT_UD, NULL), 0);
	if (c.qp != NULL)
		TEST_CHECK_EQ(rdmadev_send_tmpl_init(c.qp, &proto, &t), -EINVAL);
	/* another QP's template */
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.a.qp, &proto, &t), 0);
	TEST_CHECK_EQ(rdmadev_send_tmpl_init(e.b.qp, &proto, &tb), 0);
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(e.a.qp, &tb, &v, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
	/* QP states: made in RESET (any state), refused there; posts in RTS */
	if (c.qp != NULL) {
		proto.opcode = RDMADEV_WR_SEND;
		TEST_CHECK_EQ(rdmadev_send_tmpl_init(c.qp, &proto, &tb), 0);
		TEST_CHECK_EQ(rdmadev_post_send_tmpl(c.qp, &tb, &v, 1, &err), 0);
		TEST_CHECK_EQ(err, -EINVAL);
		/* a template of a destroyed QP on the QP created next: refused */
		e2e_qp_destroy(&c);
		TEST_CHECK_EQ(e2e_qp_create(&da, &c, RDMADEV_QPT_UD, NULL), 0);
		if (c.qp != NULL && e2e_ud_up(&c, 0x1234) == 0) {
			TEST_CHECK_EQ(rdmadev_post_send_tmpl(c.qp, &tb, &v, 1, &err), 0);
			TEST_CHECK_EQ(err, -EINVAL);
		}
	}
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(e.a.qp, &t, &v, 1, &err), 1);
	TEST_CHECK_EQ(err, 0);
	e2e_expect(&da.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(e.mb.buf, e.ma.buf, 8) == 0);
	/* ERR: refused, as post_send */
	TEST_CHECK_EQ(e2e_qp_to(&e.a, RDMADEV_QPS_ERR), 0);
	TEST_CHECK_EQ(rdmadev_post_send_tmpl(e.a.qp, &t, &v, 1, &err), 0);
	TEST_CHECK_EQ(err, -EINVAL);
out:
	e2e_qp_destroy(&c);
	env_down(&e);
}

/* Two devices on one loop switch. */
static void
test_open(void)
{
	TEST_CHECK_EQ(e2e_dev_open(&da, E2E_DEVARGS(0, "loop:tmpl")), 0);
	TEST_CHECK_EQ(e2e_dev_open(&db, E2E_DEVARGS(1, "loop:tmpl")), 0);
}

/* Every test object is gone: the devices close without leaks. */
static void
test_close(void)
{
	e2e_dev_close(&db);
	e2e_dev_close(&da);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_variant_eal_init("test_irdma_tmpl_e2e") < 0)
		return test_eal_bail();
	TEST_RUN(test_open);
	TEST_RUN(test_write_read);
	TEST_RUN(test_send);
	TEST_RUN(test_write_imm);
	TEST_RUN(test_refusals);
	TEST_RUN(test_close);
	rte_eal_cleanup();
	return test_done();
}
