/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * Fuzz target: the input's bytes become SQ quanta of an RC QP on the inline device model
 * (objects through the real control path: rdmadev on irdma_model0). The bytes go straight
 * into the QP's SQ ring (struct irdma_qp), the valid bit of every quantum forced to the
 * pass's polarity, and the doorbell is rung with irdma_wr32(). The model must neither crash
 * nor touch memory outside the registered region: the canaries around the one MR are checked
 * after every input, and the QP pair is moved to RESET and back to RTS between inputs.
 *
 * Built with libFuzzer (clang, -fsanitize=fuzzer,address; the model compiled with coverage),
 * or, with -DFUZZ_STANDALONE, as a driver that replays the files named on its command line
 * (the seed corpus) and then N random inputs: fuzz_model_sq_replay [--random N] FILE...
 * `fuzz_model_sq_replay --write-corpus DIR` writes the seed corpus: WQEs of valid WRs as the
 * PMD encodes them (rdmadev_post_send), with their MR addresses made offsets.
 * With FUZZ_GEN3 set in the environment the device is a gen3 model (atomics and memory
 * windows decoded; the MR and the QPs allow remote atomics and binds).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_eal.h>

#include <rdmadev_driver.h>

#include "irdma_qp.h"
#include "irdma_dev.h"
#include "irdma_hw.h"
#include "test.h"
#include "e2e_lib.h"

#define FUZZ_MR_LEN	(4u * 4096u)
#define FUZZ_DEVARGS	"irdma_model0,qps=16,cqs=16,mrs=16,mode=inline,wire=loop:fuzz"
/* The same on a gen3 model (FUZZ_GEN3). */
#define FUZZ_DEVARGS_GEN3 "irdma_model0,gen=3,qps=16,cqs=16,mrs=16,mode=inline,wire=loop:fuzz"
/*
 * Qwords 0 and 2 of every quantum (fragment addresses, the remote address) below this value
 * are offsets into the MR: the MR's address is added, so inputs (and the seed corpus) can
 * name it although its address changes from run to run.
 */
#define FUZZ_RELOC	(2u * FUZZ_MR_LEN)

static struct e2e_dev fd;
static struct e2e_qp fa, fb;
static struct e2e_mr fm;
static uint64_t inputs;
/* Rights of the MR and the QPs: gen2 ones, plus remote atomics (and binds: MR) on gen3. */
static uint32_t fuzz_access = E2E_ACC_ALL;

static void
fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_model_sq: %s after %llu inputs\n", what,
		(unsigned long long)inputs);
	abort();
}

/* Poll both CQs @p n times: the inline model runs meanwhile, its events are delivered. */
static void
fuzz_settle(unsigned int n)
{
	struct rdmadev_event ev[16];
	struct rdmadev_wc wc[64];
	unsigned int k;

	for (k = 0; k < n; k++) {
		(void)rdmadev_poll_cq(fd.scq.cq, wc, RTE_DIM(wc));
		(void)rdmadev_poll_cq(fd.rcq.cq, wc, RTE_DIM(wc));
	}
	while (rdmadev_event_poll(fd.id, ev, RTE_DIM(ev)) > 0)
		;
}

/* @p p to RESET; again if an event of the input's WQEs moved it to ERR meanwhile. */
static void
fuzz_qp_reset(struct e2e_qp *p)
{
	unsigned int k;

	for (k = 0; k < 4; k++) {
		if (e2e_qp_to(p, RDMADEV_QPS_RESET) != 0)
			fuzz_fail("QP to RESET refused");
		fuzz_settle(4);
		if (rdmadev_qp_get_state(p->qp) == RDMADEV_QPS_RESET)
			return;
	}
	fuzz_fail("QP does not stay in RESET");
}

/* Both QPs to RESET and back to RTS, connected to each other. */
static void
fuzz_reset(void)
{
	struct e2e_conn c;

	e2e_conn_default(&c);
	c.access = fuzz_access;
	c.retry = 1;
	c.rnr_retry = 0;
	c.timeout = 1;
	fuzz_settle(64);
	fuzz_qp_reset(&fa);
	fuzz_qp_reset(&fb);
	if (e2e_rc_connect(&fa, &fb, &c) != 0)
		fuzz_fail("QP back to RTS refused");
}

static int
fuzz_setup(void)
{
	/* Every input makes the driver log its AEs and refused modifies: critical only (set
	 * FUZZ_VERBOSE to see them). */
	static const char *const quiet[] = { "--log-level=2", NULL };

	bool gen3 = getenv("FUZZ_GEN3") != NULL;
	struct e2e_conn c;

	if (test_eal_init("fuzz_model_sq", getenv("FUZZ_VERBOSE") != NULL ? NULL : quiet) < 0)
		return -1;
	if (gen3)
		fuzz_access |= RDMADEV_ACCESS_REMOTE_ATOMIC;
	e2e_conn_default(&c);
	c.access = fuzz_access;
	if (e2e_dev_open(&fd, gen3 ? FUZZ_DEVARGS_GEN3 : FUZZ_DEVARGS) != 0 ||
	    e2e_mr_reg(&fd, NULL, &fm, FUZZ_MR_LEN,
		       fuzz_access | (gen3 ? RDMADEV_ACCESS_MW_BIND : 0)) != 0 ||
	    e2e_qp_create(&fd, &fa, RDMADEV_QPT_RC, NULL) != 0 ||
	    e2e_qp_create(&fd, &fb, RDMADEV_QPT_RC, NULL) != 0 ||
	    e2e_rc_connect(&fa, &fb, &c) != 0 || test_case_failures != 0)
		return -1;
	printf("# fuzz_model_sq: MR [%p, +%u) lkey %#x; QPs %u -> %u\n", (void *)fm.buf,
	       FUZZ_MR_LEN, fm.lkey, fa.qpn, fb.qpn);
	return 0;
}

/* One input: quanta into a's SQ from index 0 (the rings restart at RESET), then run. */
static void
fuzz_one(const uint8_t *data, size_t size)
{
	struct irdma_qp *q = fa.qp->obj.fp.drv;
	uint32_t n = (uint32_t)(size / 32), i, k;
	uint64_t qw;

	inputs++;
	if (n == 0)
		return;
	if (n > q->sq.quanta - 1)
		n = q->sq.quanta - 1;
	/* a pass starts at index 0 with the polarity flipped: the first pass writes 1 */
	for (i = 0; i < n; i++) {
		uint8_t *dst = q->sq.base + (size_t)i * 32;

		memcpy(dst, data + (size_t)i * 32, 24);
		for (k = 0; k < 24; k += 16) {
			memcpy(&qw, dst + k, 8);
			if (qw < FUZZ_RELOC) {
				qw += (uint64_t)(uintptr_t)fm.buf;
				memcpy(dst + k, &qw, 8);
			}
		}
		memcpy(&qw, data + (size_t)i * 32 + 24, 8);
		qw |= UINT64_C(1) << 63;
		rte_atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n((uint64_t *)(void *)(dst + 24), qw, __ATOMIC_RELEASE);
	}
	irdma_wr32(q->hw, q->db_off, q->qp_id);
	fuzz_settle(64);
	if (!e2e_canary_ok(&fm))
		fuzz_fail("canary around the MR overwritten");
	fuzz_reset();
}

#ifndef FUZZ_STANDALONE

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** libFuzzer: set the device up once. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (fuzz_setup() != 0)
		fuzz_fail("setup failed");
	return 0;
}

/** libFuzzer: one input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_one(data, size);
	return 0;
}

#else

static int
replay_file(const char *path)
{
	static uint8_t buf[64 * 1024];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL) {
		printf("# cannot open %s\n", path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	fuzz_one(buf, n);
	return 0;
}

/* Post @p n WRs through the PMD on a fresh QP and save its SQ quanta to @p path. */
static int
corpus_one(const char *path, const struct rdmadev_send_wr *wrs, uint16_t n)
{
	struct irdma_qp *q = fa.qp->obj.fp.drv;
	uint64_t base = (uint64_t)(uintptr_t)fm.buf, qw;
	uint8_t *buf;
	size_t len, k;
	FILE *f;
	int err = 0;

	fuzz_reset();
	if (rdmadev_post_send(fa.qp, wrs, n, &err) != n)
		return -1;
	len = (size_t)q->sq.head * 32;
	buf = malloc(len);
	if (buf == NULL)
		return -1;
	memcpy(buf, q->sq.base, len);
	for (k = 0; k < len; k += 32) {
		size_t j;

		for (j = 0; j < 24; j += 16) {
			memcpy(&qw, buf + k + j, 8);
			if (qw >= base && qw - base < FUZZ_RELOC) {
				qw -= base;
				memcpy(buf + k + j, &qw, 8);
			}
		}
	}
	f = fopen(path, "wb");
	if (f != NULL) {
		if (fwrite(buf, 1, len, f) != len)
			err = -1;
		fclose(f);
	}
	free(buf);
	return f != NULL && err == 0 ? 0 : -1;
}

/* Gen3 seeds: a fetch-add and a compare-swap (2 quanta each), a BIND_MW of a window. */
static int
write_corpus_gen3(const char *dir)
{
	struct rdmadev_sge s = { (uint64_t)(uintptr_t)fm.buf + 64, 8, fm.lkey };
	struct rdmadev_mw *mw = NULL;
	struct rdmadev_send_wr w[2];
	char path[512];
	int ret;

	memset(w, 0, sizeof(w));
	w[0].opcode = RDMADEV_WR_ATOMIC_FA;
	w[0].flags = RDMADEV_SEND_SIGNALED;
	w[0].sg_list = &s;
	w[0].num_sge = 1;
	w[0].atomic.remote_addr = (uint64_t)(uintptr_t)fm.buf + 8192;
	w[0].atomic.rkey = fm.rkey;
	w[0].atomic.compare_add = 3;
	w[1] = w[0];
	w[1].wr_id = 1;
	w[1].opcode = RDMADEV_WR_ATOMIC_CS;
	w[1].atomic.swap = 9;
	snprintf(path, sizeof(path), "%s/atomic_fa_cs.bin", dir);
	ret = corpus_one(path, w, 2);
	printf("# %s: %s\n", path, ret == 0 ? "written" : "FAILED");
	if (ret != 0 || rdmadev_mw_alloc(fd.pd, &mw) != 0)
		return -1;
	memset(w, 0, sizeof(w));
	w[0].opcode = RDMADEV_WR_BIND_MW;
	w[0].flags = RDMADEV_SEND_SIGNALED;
	w[0].bind_mw.mw = mw;
	w[0].bind_mw.mr = fm.mr;
	w[0].bind_mw.addr = (uint64_t)(uintptr_t)fm.buf + 4096;
	w[0].bind_mw.length = 4096;
	w[0].bind_mw.rkey = mw->rkey;
	w[0].bind_mw.access = RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_ATOMIC;
	snprintf(path, sizeof(path), "%s/bind_mw.bin", dir);
	ret = corpus_one(path, w, 1);
	printf("# %s: %s\n", path, ret == 0 ? "written" : "FAILED");
	fuzz_reset();
	if (rdmadev_mw_free(mw) != 0)
		ret = -1;
	return ret;
}

static int
write_corpus(const char *dir)
{
	static const uint8_t inl[101] = "inline data of a seed WQE for the model's SQ fuzzer";
	struct rdmadev_send_wr w[4];
	struct rdmadev_sge s[3];
	char path[512];
	unsigned int i;
	int ret = 0;
	static const struct {
		const char *name;
		uint8_t op;
		uint8_t flags;
		uint16_t nsge;
		uint16_t nwr;
	} seeds[] = {
		{ "send", RDMADEV_WR_SEND, 0, 1, 1 },
		{ "send_imm_solicited", RDMADEV_WR_SEND_IMM, RDMADEV_SEND_SOLICITED, 1, 1 },
		{ "send_inv", RDMADEV_WR_SEND_INV, 0, 1, 1 },
		{ "send_inline", RDMADEV_WR_SEND, RDMADEV_SEND_INLINE, 1, 1 },
		{ "write_3sge", RDMADEV_WR_RDMA_WRITE, 0, 3, 1 },
		{ "write_imm", RDMADEV_WR_RDMA_WRITE_IMM, 0, 1, 1 },
		{ "write_inline", RDMADEV_WR_RDMA_WRITE, RDMADEV_SEND_INLINE, 1, 1 },
		{ "read_fenced", RDMADEV_WR_RDMA_READ, RDMADEV_SEND_FENCE, 1, 1 },
		{ "local_inv", RDMADEV_WR_LOCAL_INV, 0, 0, 1 },
		{ "nop", RDMADEV_WR_NOP, 0, 0, 1 },
		{ "write_x4", RDMADEV_WR_RDMA_WRITE, 0, 2, 4 },
	};

	for (i = 0; i < RTE_DIM(seeds) && ret == 0; i++) {
		unsigned int k;

		for (k = 0; k < 3; k++)
			s[k] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)fm.buf + 1000 * k,
						     100 + 50 * k, fm.lkey };
		if (seeds[i].flags & RDMADEV_SEND_INLINE)
			s[0] = (struct rdmadev_sge){ (uint64_t)(uintptr_t)inl, 71, 0 };
		for (k = 0; k < seeds[i].nwr; k++) {
			memset(&w[k], 0, sizeof(w[k]));
			w[k].wr_id = k;
			w[k].opcode = seeds[i].op;
			w[k].flags = (uint8_t)(seeds[i].flags | RDMADEV_SEND_SIGNALED);
			w[k].sg_list = seeds[i].nsge != 0 ? s : NULL;
			w[k].num_sge = seeds[i].nsge;
			if (seeds[i].op == RDMADEV_WR_SEND_INV ||
			    seeds[i].op == RDMADEV_WR_LOCAL_INV)
				w[k].invalidate_rkey = fm.rkey;
			else
				w[k].imm_data = 0x01020304;
			if (seeds[i].op == RDMADEV_WR_RDMA_WRITE ||
			    seeds[i].op == RDMADEV_WR_RDMA_WRITE_IMM ||
			    seeds[i].op == RDMADEV_WR_RDMA_READ) {
				w[k].rdma.remote_addr = (uint64_t)(uintptr_t)fm.buf + 8192 +
							1024 * k;
				w[k].rdma.rkey = fm.rkey;
			}
		}
		snprintf(path, sizeof(path), "%s/%s.bin", dir, seeds[i].name);
		ret = corpus_one(path, w, seeds[i].nwr);
		printf("# %s: %s\n", path, ret == 0 ? "written" : "FAILED");
	}
	if (ret == 0 && (fuzz_access & RDMADEV_ACCESS_REMOTE_ATOMIC))
		ret = write_corpus_gen3(dir);
	return ret;
}

static int replay_argc;
static char **replay_argv;

/* The corpus files named on the command line, then --random N random inputs. */
static void
test_replay(void)
{
	static uint8_t buf[4096];
	unsigned long nrand = 1000, r;
	uint64_t s = 0x1234567;
	unsigned int files = 0;
	int i;

	for (i = 1; i < replay_argc; i++) {
		if (strcmp(replay_argv[i], "--write-corpus") == 0 && i + 1 < replay_argc) {
			TEST_CHECK_EQ(write_corpus(replay_argv[++i]), 0);
			nrand = 0;
			continue;
		}
		if (strcmp(replay_argv[i], "--random") == 0 && i + 1 < replay_argc) {
			nrand = strtoul(replay_argv[++i], NULL, 0);
			continue;
		}
		TEST_CHECK_EQ(replay_file(replay_argv[i]), 0);
		files++;
	}
	for (r = 0; r < nrand; r++) {
		size_t len = (size_t)(e2e_rand(&s) % sizeof(buf));
		size_t k;

		for (k = 0; k < len; k++)
			buf[k] = (uint8_t)e2e_rand(&s);
		/* half of them with a gen2 opcode (0 .. 15) in every header */
		if (r % 2)
			for (k = 24 + 4; k < len; k += 32)
				buf[k] &= 0x0f;
		fuzz_one(buf, len);
	}
	printf("# %u corpus files and %lu random inputs: no crash, canaries intact\n", files,
	       nrand);
	printf("# model: %llu SQ WQEs fetched, %llu refused, %llu QP errors, %llu SQ CQEs\n",
	       (unsigned long long)E2E_STAT(&fd, sq_wqes),
	       (unsigned long long)E2E_STAT(&fd, sq_wqe_errors),
	       (unsigned long long)E2E_STAT(&fd, qp_errors),
	       (unsigned long long)E2E_STAT(&fd, sq_cqes));
	TEST_CHECK_EQ(inputs, files + nrand);
}

int
main(int argc, char **argv)
{
	replay_argc = argc;
	replay_argv = argv;
	if (fuzz_setup() != 0) {
		printf("Bail out! setup failed\n");
		return 1;
	}
	TEST_RUN(test_replay);
	e2e_qp_destroy(&fa);
	e2e_qp_destroy(&fb);
	e2e_mr_dereg(&fm);
	e2e_dev_close(&fd);
	rte_eal_cleanup();
	return test_done();
}

#endif
