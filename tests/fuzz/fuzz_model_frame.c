/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * libFuzzer target: whole received frames into the device model's receive path, the
 * Ethernet wire's rx (drivers/rdma/irdma/model/transport/model_wire_eth.c: ARP, ND, RoCEv2 filter)
 * and the engine's parser and responder (model_pkt.c and on). One inline model device
 * (IPv4 10.0.0.1) on a net_ring port (rte_eth_from_rings): an input is one frame put on
 * the port's RX ring. Its first byte is a flag: bit 1 aims the BTH at the RC QP (its QPN;
 * a RETH's virtual address into the MR, modulo its size, and the MR's rkey), bit 2 at the
 * UD QP (its QPN and Q_Key in the DETH); bit 0 then makes the frame consistent (IPv4 total
 * length and checksum, UDP length, the ICRC over the frame as given), so that mutations
 * reach past the checks; with none set the frame goes as it is. The device has
 * an RC QP (QPN in the log, connected to 10.0.0.9 QPN 0x11, expecting PSN 0, an MR with
 * remote read and write, receives posted) and a UD QP (Q_Key 0x11110001); before each input
 * the RC QP is taken back to RTS from whatever state the last one left it in. What the
 * device sends is dropped. restrack must report nothing left at exit.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eth_ring.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "rdmadev.h"

#include "fuzz.h"

#define MAX_FRAME 4200u
#define MR_LEN 65536u
#define NB_RECV 8u

static struct {
	struct rte_ring *rx, *tx;
	struct rte_mempool *pool;
	int16_t dev;
	struct rdmadev_ctx *ctx;
	struct rdmadev_pd *pd;
	struct rdmadev_cq *cq;
	struct rdmadev_qp *rc, *ud;
	struct rdmadev_mr *mr;
	uint8_t *buf;
	unsigned long cqes;	/* completions seen (FUZZ_VERBOSE prints them at exit) */
	unsigned long rc_rebuilt;	/* RC QPs made anew (rc_up_failed) */
} f = { .dev = -1 };

static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x09 };

static uint32_t
crc32_le(uint32_t c, const uint8_t *p, size_t n)
{
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return c;
}

/* IPv4 / UDP lengths and checksum, then the ICRC (RoCEv2, IPv4, no VLAN). */
static void
fix_up(uint8_t *fr, uint32_t len)
{
	uint8_t m[8 + 20 + 8 + 12];
	uint32_t sum = 0, c, i;
	uint8_t *ip = fr + 14;

	if (len < 14 + 20 + 8 + 12 + 4 || fr[12] != 0x08 || fr[13] != 0x00)
		return;
	ip[0] = 0x45;
	ip[2] = (uint8_t)((len - 14) >> 8);
	ip[3] = (uint8_t)(len - 14);
	ip[10] = ip[11] = 0;
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
	ip[20 + 4] = (uint8_t)((len - 34) >> 8);
	ip[20 + 5] = (uint8_t)(len - 34);
	memset(m, 0xff, 8);
	memcpy(m + 8, ip, 40);
	m[8 + 1] = 0xff;
	m[8 + 8] = 0xff;
	m[8 + 10] = m[8 + 11] = 0xff;
	m[8 + 20 + 6] = m[8 + 20 + 7] = 0xff;
	m[8 + 28 + 4] = 0xff;
	c = crc32_le(0xffffffffu, m, sizeof(m));
	c = ~crc32_le(c, fr + 54, len - 54 - 4);
	fr[len - 4] = (uint8_t)c;
	fr[len - 3] = (uint8_t)(c >> 8);
	fr[len - 2] = (uint8_t)(c >> 16);
	fr[len - 1] = (uint8_t)(c >> 24);
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Flag bits 1 and 2: point an IPv4 RoCEv2 frame's headers at our QPs and MR. */
static void
aim(uint8_t *fr, uint32_t len, uint8_t flags)
{
	uint8_t *bth = fr + 42, op;
	uint64_t va = 0;
	uint32_t i;

	if (len < 42 + 12 + 16 + 4)
		return;
	op = bth[0];
	if (flags & 2) {
		put32(bth + 4, rdmadev_qp_num(f.rc));
		/* RC opcodes with a RETH: WRITE FIRST / ONLY / ONLY IMM, READ REQUEST */
		if (op == 0x06 || op == 0x0a || op == 0x0b || op == 0x0c) {
			for (i = 0; i < 8; i++)
				va = va << 8 | bth[12 + i];
			va = (uint64_t)(uintptr_t)f.buf + va % (MR_LEN - 4096);
			for (i = 0; i < 8; i++)
				bth[12 + i] = (uint8_t)(va >> (56 - 8 * i));
			put32(bth + 20, rdmadev_mr_rkey(f.mr));
		}
	} else if (flags & 4) {
		put32(bth + 4, rdmadev_qp_num(f.ud));
		put32(bth + 12, 0x11110001);
	}
}

static int
modify(struct rdmadev_qp *qp, enum rdmadev_qp_state s, uint32_t extra, struct rdmadev_qp_attr *a)
{
	a->qp_state = s;
	return rdmadev_qp_modify(qp, a, RDMADEV_QP_STATE | extra);
}

/* The attributes of a QP of @p type: the one PD and CQ, 16 WRs of one SGE each way. */
static void
qp_attr(struct rdmadev_qp_init_attr *qa, enum rdmadev_qp_type type)
{
	memset(qa, 0, sizeof(*qa));
	qa->pd = f.pd;
	qa->send_cq = f.cq;
	qa->recv_cq = f.cq;
	qa->qp_type = type;
	qa->cap.max_send_wr = 16;
	qa->cap.max_recv_wr = 16;
	qa->cap.max_send_sge = 1;
	qa->cap.max_recv_sge = 1;
}

/* The RC QP from any state to RTS toward the fake peer, receives posted. */
static int
rc_up(void)
{
	struct rdmadev_qp_attr a;
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)f.buf, 4096, rdmadev_mr_lkey(f.mr) };
	struct rdmadev_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	struct rdmadev_wc wc[16];
	uint32_t i;
	int err = 0;

	memset(&a, 0, sizeof(a));
	if (rdmadev_qp_get_state(f.rc) != RDMADEV_QPS_RESET &&
	    rdmadev_qp_get_state(f.rc) != RDMADEV_QPS_ERR &&
	    modify(f.rc, RDMADEV_QPS_ERR, 0, &a) != 0)
		return -101;
	if (rdmadev_qp_get_state(f.rc) != RDMADEV_QPS_RESET &&
	    modify(f.rc, RDMADEV_QPS_RESET, 0, &a) != 0)
		return -102;
	while (rdmadev_poll_cq(f.cq, wc, 16) > 0)
		;
	a.port_num = 1;
	a.qp_access_flags = RDMADEV_ACCESS_REMOTE_WRITE | RDMADEV_ACCESS_REMOTE_READ;
	if (modify(f.rc, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
		   RDMADEV_QP_ACCESS_FLAGS, &a) != 0)
		return -103;
	for (i = 0; i < NB_RECV; i++)
		if (rdmadev_post_recv(f.rc, &wr, 1, &err) != 1)
			return -104;
	memset(&a, 0, sizeof(a));
	a.ah_attr.dgid[10] = a.ah_attr.dgid[11] = 0xff;
	a.ah_attr.dgid[12] = 10;
	a.ah_attr.dgid[15] = 9;
	memcpy(a.ah_attr.dmac, peer_mac, 6);
	a.ah_attr.hop_limit = 64;
	a.ah_attr.vlan_id = 0xffff;
	a.ah_attr.port_num = 1;
	a.path_mtu = RDMADEV_MTU_1024;
	a.dest_qp_num = 0x11;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 4;
	a.min_rnr_timer = 12;
	if (modify(f.rc, RDMADEV_QPS_RTR, RDMADEV_QP_AV | RDMADEV_QP_PATH_MTU |
		   RDMADEV_QP_DEST_QPN | RDMADEV_QP_RQ_PSN | RDMADEV_QP_MAX_DEST_RD_ATOMIC |
		   RDMADEV_QP_MIN_RNR_TIMER, &a) != 0)
		return -105;
	a.sq_psn = 0;
	a.timeout = 20;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 4;
	return modify(f.rc, RDMADEV_QPS_RTS, RDMADEV_QP_SQ_PSN | RDMADEV_QP_TIMEOUT |
		      RDMADEV_QP_RETRY_CNT | RDMADEV_QP_RNR_RETRY | RDMADEV_QP_MAX_QP_RD_ATOMIC,
		      &a);
}

/*
 * The RC QP could not be brought back to RTS (an error completion or AE of the inputs
 * before can still move it to ERR between INIT and RTR, and the model refuses some
 * RTS -> ERR modifies: see the counts FUZZ_VERBOSE prints). Destroy it and make a new
 * one; that failing too is a finding.
 */
static void
rc_up_failed(int rc)
{
	struct rdmadev_qp_init_attr qa;

	f.rc_rebuilt++;
	if (getenv("FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "fuzz_model_frame: the RC QP back to RTS failed: %d (state %d)\n",
			rc, (int)rdmadev_qp_get_state(f.rc));
	if (rdmadev_qp_destroy(f.rc) != 0) {
		fprintf(stderr, "fuzz_model_frame: the RC QP cannot be destroyed\n");
		abort();
	}
	f.rc = NULL;
	qp_attr(&qa, RDMADEV_QPT_RC);
	if (rdmadev_qp_create(&qa, &f.rc) != 0 || rc_up() != 0) {
		fprintf(stderr, "fuzz_model_frame: no new RC QP in RTS\n");
		abort();
	}
}

static int
ud_up(void)
{
	struct rdmadev_qp_attr a;
	struct rdmadev_sge sge = { (uint64_t)(uintptr_t)(f.buf + 8192), 4096 + 40,
				   rdmadev_mr_lkey(f.mr) };
	struct rdmadev_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
	uint32_t i;
	int err = 0;

	memset(&a, 0, sizeof(a));
	a.port_num = 1;
	a.qkey = 0x11110001;
	if (modify(f.ud, RDMADEV_QPS_INIT, RDMADEV_QP_PKEY_INDEX | RDMADEV_QP_PORT |
		   RDMADEV_QP_QKEY, &a) != 0 || modify(f.ud, RDMADEV_QPS_RTR, 0, &a) != 0 ||
	    modify(f.ud, RDMADEV_QPS_RTS, RDMADEV_QP_SQ_PSN, &a) != 0)
		return -1;
	for (i = 0; i < NB_RECV; i++)
		if (rdmadev_post_recv(f.ud, &wr, 1, &err) != 1)
			return -1;
	return 0;
}

/* Set-up step @p step failed: say which, -1. */
static int
setup_fail(int step)
{
	fprintf(stderr, "fuzz_model_frame: set-up step %d failed\n", step);
	return -1;
}

int
fuzz_setup(void)
{
	struct rdmadev_conf conf = { .nb_comp_vectors = 1 };
	struct rdmadev_cq_attr cqa = { .cqe = 256 };
	struct rdmadev_qp_init_attr qa;
	struct rdmadev_mr_attr ma = { 0 };
	char devargs[96];
	int port;

	if (fuzz_eal_init("fuzz_model_frame") < 0)
		return setup_fail(1);
	f.rx = rte_ring_create("fzf_rx", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	f.tx = rte_ring_create("fzf_tx", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	f.pool = rte_pktmbuf_pool_create("fzf_pool", 1023, 0, 0,
					 RTE_PKTMBUF_HEADROOM + MAX_FRAME, SOCKET_ID_ANY);
	if (f.rx == NULL || f.tx == NULL || f.pool == NULL)
		return setup_fail(2);
	port = rte_eth_from_rings("fzf", &f.rx, 1, &f.tx, 1, SOCKET_ID_ANY);
	if (port < 0)
		return setup_fail(3);
	snprintf(devargs, sizeof(devargs), "irdma_model0,ip=10.0.0.1,wire=eth:%d", port);
	f.dev = (int16_t)rdmadev_open(devargs);
	if (f.dev < 0 || rdmadev_configure(f.dev, &conf) != 0 || rdmadev_start(f.dev) != 0 ||
	    rdmadev_ctx_alloc(f.dev, &f.ctx) != 0 || rdmadev_pd_alloc(f.ctx, &f.pd) != 0 ||
	    rdmadev_cq_create(f.ctx, &cqa, &f.cq) != 0)
		return setup_fail(4);
	f.buf = rte_zmalloc("fzf", MR_LEN, 4096);
	if (f.buf == NULL)
		return setup_fail(5);
	ma.addr = f.buf;
	ma.iova = (uint64_t)(uintptr_t)f.buf;
	ma.length = MR_LEN;
	ma.access = RDMADEV_ACCESS_LOCAL_WRITE | RDMADEV_ACCESS_REMOTE_WRITE |
		    RDMADEV_ACCESS_REMOTE_READ | RDMADEV_ACCESS_REMOTE_ATOMIC;
	if (rdmadev_mr_reg(f.pd, &ma, &f.mr) != 0)
		ma.access &= ~RDMADEV_ACCESS_REMOTE_ATOMIC;	/* no atomics on this model */
	if (f.mr == NULL && rdmadev_mr_reg(f.pd, &ma, &f.mr) != 0)
		return setup_fail(6);
	qp_attr(&qa, RDMADEV_QPT_RC);
	if (rdmadev_qp_create(&qa, &f.rc) != 0)
		return setup_fail(7);
	qp_attr(&qa, RDMADEV_QPT_UD);
	if (rdmadev_qp_create(&qa, &f.ud) != 0 || ud_up() != 0 || rc_up() != 0)
		return setup_fail(8);
	fprintf(stderr, "fuzz_model_frame: RC QPN %u, UD QPN %u, MR %p rkey 0x%x\n",
		rdmadev_qp_num(f.rc), rdmadev_qp_num(f.ud), (void *)f.buf, rdmadev_mr_rkey(f.mr));
	return 0;
}

void
fuzz_teardown(void)
{
	struct rte_mbuf *m;

	if (getenv("FUZZ_VERBOSE") != NULL)
		fprintf(stderr, "fuzz_model_frame: %lu completions, %lu RC QPs made anew\n",
			f.cqes, f.rc_rebuilt);
	if (f.rc != NULL)
		rdmadev_qp_destroy(f.rc);
	if (f.ud != NULL)
		rdmadev_qp_destroy(f.ud);
	if (f.mr != NULL)
		rdmadev_mr_dereg(f.mr);
	rte_free(f.buf);
	if (f.cq != NULL)
		rdmadev_cq_destroy(f.cq);
	if (f.pd != NULL)
		rdmadev_pd_free(f.pd);
	if (f.ctx != NULL)
		rdmadev_ctx_free(f.ctx);
	if (f.dev >= 0) {
		rdmadev_stop(f.dev);
		if (rdmadev_close(f.dev) != 0)
			fuzz_fail("fuzz_model_frame: rdmadev_close reports objects left");
	}
	while (f.tx != NULL && rte_ring_dequeue(f.tx, (void **)&m) == 0)
		rte_pktmbuf_free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t fr[MAX_FRAME];
	static unsigned long inputs;
	int rc;
	struct rdmadev_wc wc[16];
	struct rte_mbuf *m;
	uint32_t len, i;
	char *d;

	if (f.dev < 0 && fuzz_setup_once() != 0)
		abort();
	if (size < 1 + 14 || size - 1 > MAX_FRAME)
		return 0;
	len = (uint32_t)(size - 1);
	memcpy(fr, data + 1, len);
	if (data[0] & 6)
		aim(fr, len, data[0]);
	if (data[0] & 1)
		fix_up(fr, len);
	if (rdmadev_qp_get_state(f.rc) != RDMADEV_QPS_RTS && (rc = rc_up()) != 0)
		rc_up_failed(rc);
	m = rte_pktmbuf_alloc(f.pool);
	if (m == NULL)
		abort();
	d = rte_pktmbuf_append(m, (uint16_t)len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return 0;
	}
	memcpy(d, fr, len);
	if (rte_ring_enqueue(f.rx, m) != 0) {
		rte_pktmbuf_free(m);
		return 0;
	}
	/* the inline engine runs in polls: let it take the frame and answer */
	for (i = 0; i < 4 || (rte_ring_count(f.rx) != 0 && i < 1000); i++) {
		int n = rdmadev_poll_cq(f.cq, wc, 16);

		f.cqes += n > 0 ? (unsigned long)n : 0;
	}
	while (rte_ring_dequeue(f.tx, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	/* every 64 inputs the RC QP starts again: PSN 0, NB_RECV receives */
	if (++inputs % 64 == 0 && (rc = rc_up()) != 0)
		rc_up_failed(rc);
	return 0;
}
