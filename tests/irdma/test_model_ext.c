/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model behind an emulator's bus (irdma_model_ext.h, what the QEMU device of
 * tests/vm/qemu/ uses): argument checks, every engine access to host memory going to the
 * emulator's DMA callback (a fake guest RAM here, faulting outside it) and the fault
 * reported as the model reports an unmapped IOVA, reset to the power-on state.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "irdma_base.h"
#include "irdma_model.h"
#include "irdma_model_ext.h"
#include "test.h"

#define RAM_IOVA	UINT64_C(0x100000)
#define RAM_LEN		65536u

static uint8_t ram[RAM_LEN] __attribute__((aligned(4096)));
static unsigned int dma_calls, dma_faults;
static uint64_t last_fault;

static int
fake_dma(void *opaque, enum irdma_model_ext_dma_op op, uint64_t iova, void *buf, size_t len)
{
	TEST_CHECK(opaque == ram);
	dma_calls++;
	if (iova < RAM_IOVA || len > RAM_LEN || iova - RAM_IOVA > RAM_LEN - len) {
		dma_faults++;
		last_fault = iova;
		return -EFAULT;
	}
	if (op == IRDMA_MODEL_EXT_DMA_READ)
		memcpy(buf, ram + (iova - RAM_IOVA), len);
	else if (op == IRDMA_MODEL_EXT_DMA_WRITE)
		memcpy(ram + (iova - RAM_IOVA), buf, len);
	return 0;
}

static void
fake_irq(void *opaque, unsigned int vector)
{
	RTE_SET_USED(opaque);
	RTE_SET_USED(vector);
}

static const struct irdma_model_ext_ops ops = { .opaque = ram, .dma = fake_dma, .irq = fake_irq };

/* Missing callbacks and bad devargs are refused. */
static void
test_args(void)
{
	struct irdma_model_ext_ops no_irq = ops;
	struct irdma_model_ext *m = NULL;

	no_irq.irq = NULL;
	TEST_CHECK_EQ(irdma_model_ext_create(NULL, NULL, &m), -EINVAL);
	TEST_CHECK_EQ(irdma_model_ext_create(NULL, &no_irq, &m), -EINVAL);
	TEST_CHECK_EQ(irdma_model_ext_create("wire", &ops, &m), -EINVAL);
	TEST_CHECK_EQ(irdma_model_ext_create("bogus=1", &ops, &m), -EINVAL);
	TEST_CHECK_EQ(irdma_model_ext_create("mac=02:00:zz:00:00:01", &ops, &m), -EINVAL);
	TEST_CHECK_EQ(irdma_model_ext_create("wire=nowhere:1", &ops, &m) < 0, 1);
	TEST_CHECK(m == NULL);
	TEST_CHECK_EQ(irdma_model_ext_bar0_len(), IRDMA_MODEL_BAR0_LEN);
}

/* Create a CQP with its context at @p iova; return CCQPSTATUS once the engine answered. */
static uint32_t
cqp_create(struct irdma_model_ext *m, uint64_t iova)
{
	uint32_t st = 0;

	irdma_model_ext_write32(m, IRDMA_PFPE_CQPTAIL, 0);
	irdma_model_ext_write32(m, IRDMA_PFPE_CQPDB, 0);
	irdma_model_ext_write32(m, IRDMA_PFPE_CCQPSTATUS, 0);
	irdma_model_ext_write32(m, IRDMA_PFPE_CCQPHIGH, (uint32_t)(iova >> 32));
	irdma_model_ext_write32(m, IRDMA_PFPE_CCQPLOW, (uint32_t)iova);
	for (unsigned int i = 0; i < 1000 && st == 0; i++) {
		irdma_model_ext_service(m);
		st = irdma_model_ext_read32(m, IRDMA_PFPE_CCQPSTATUS);
	}
	return st;
}

/* The engine reads the CQP context through the callback: outside the fake RAM it faults
 * (CQPERRCODES says DMA fault), inside it reads the zeroed context and refuses its fields
 * instead. A reset forgets the error. */
static void
test_dma_route(void)
{
	struct irdma_model_ext *m = NULL;
	uint32_t st, codes;

	TEST_CHECK_EQ(irdma_model_ext_create("wire=loop:ext,mac=02:00:00:00:0e:01", &ops, &m), 0);
	if (m == NULL)
		return;
	for (unsigned int i = 0; i < 8; i++)
		(void)irdma_model_ext_read32(m, IRDMA_GLPE_CPUSTATUS0);
	dma_calls = dma_faults = 0;
	st = cqp_create(m, UINT64_C(0x900000));
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	codes = irdma_model_ext_read32(m, IRDMA_PFPE_CQPERRCODES);
	TEST_CHECK_EQ(IRDMA_REG_GET(CQPERRCODES_MINOR, codes), IRDMA_MODEL_MIN_DMA_FAULT);
	TEST_CHECK(dma_faults >= 1);
	TEST_CHECK_EQ(last_fault, UINT64_C(0x900000));

	TEST_CHECK_EQ(irdma_model_ext_reset(m), 0);
	TEST_CHECK_EQ(irdma_model_ext_read32(m, IRDMA_PFPE_CCQPSTATUS), 0);
	for (unsigned int i = 0; i < 8; i++)
		(void)irdma_model_ext_read32(m, IRDMA_GLPE_CPUSTATUS0);
	dma_calls = dma_faults = 0;
	memset(ram, 0, sizeof(ram));
	st = cqp_create(m, RAM_IOVA);
	TEST_CHECK(dma_calls >= 1);
	TEST_CHECK_EQ(dma_faults, 0);
	TEST_CHECK(IRDMA_REG_GET(CCQPSTATUS_ERR, st));
	codes = irdma_model_ext_read32(m, IRDMA_PFPE_CQPERRCODES);
	TEST_CHECK(IRDMA_REG_GET(CQPERRCODES_MINOR, codes) != IRDMA_MODEL_MIN_DMA_FAULT);
	irdma_model_ext_destroy(m);
	irdma_model_ext_destroy(NULL);
}

int
main(void)
{
	if (irdma_model_ext_runtime_init() != 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	TEST_RUN(test_args);
	TEST_RUN(test_dma_route);
	return test_done();
}
