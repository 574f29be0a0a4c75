/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/* probe */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>

#include "test.h"
#include "e2e_lib.h"

#define G3_DEVARGS(n, wire) "irdma_model" #n ",gen=3,qps=64,cqs=64,mrs=256,mode=" \
	IRDMA_TEST_MODE ",wire=" wire

static void
test_probe(void)
{
	static struct e2e_dev d;
	struct e2e_qp a = { 0 }, b = { 0 };
	struct e2e_mr m;
	struct rdmadev_send_wr wr;
	struct rdmadev_sge sge;
	struct rdmadev_info in;

	if (e2e_dev_open(&d, G3_DEVARGS(0, "loop:g3p")) != 0)
		goto out;
	TEST_CHECK_EQ(rdmadev_info_get(d.id, &in), 0);
	printf("# gen %u capa 0x%" PRIx64 "\n", in.hw_gen, in.capa);
	e2e_mr_reg(&d, NULL, &m, 65536, E2E_ACC_ALL);
	e2e_qp_create(&d, &a, RDMADEV_QPT_RC, NULL);
	e2e_qp_create(&d, &b, RDMADEV_QPT_RC, NULL);
	if (e2e_rc_connect(&a, &b, NULL) != 0)
		goto out;
	memset(&wr, 0, sizeof(wr));
	sge = (struct rdmadev_sge){ (uint64_t)(uintptr_t)m.buf, 64, m.lkey };
	memset(m.buf, 7, 64);
	wr.wr_id = 1;
	wr.opcode = RDMADEV_WR_RDMA_WRITE;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.flags = RDMADEV_SEND_SIGNALED;
	wr.rdma.remote_addr = (uint64_t)(uintptr_t)m.buf + 4096;
	wr.rdma.rkey = m.rkey;
	TEST_CHECK(e2e_send(&a, &wr));
	e2e_expect(&d.scq, 1, RDMADEV_WC_SUCCESS, RDMADEV_WC_RDMA_WRITE);
	TEST_CHECK(memcmp(m.buf, m.buf + 4096, 64) == 0);
out:
	e2e_qp_destroy(&a);
	e2e_qp_destroy(&b);
	e2e_mr_dereg(&m);
	e2e_dev_close(&d);
}

int
main(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (test_eal_init("test_irdma_gen3_atomic", NULL) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_probe);
	rte_eal_cleanup();
	return test_done();
}
