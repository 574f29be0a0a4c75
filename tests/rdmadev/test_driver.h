/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMADEV_TEST_DRIVER_H
#define RDMADEV_TEST_DRIVER_H

/*
 * The software test driver of the rdmadev tests: drivers "rdma_test" and "rdma_testx"
 * (devargs keys gen=2|3, fail_probe=0|1, max_qp=N), every op in memory, with fault
 * injection (the next N calls of an op fail, or one call in N of every op fails).
 */

#include <stdint.h>

#include <rdmadev_driver.h>

/* Ops that can be told to fail. */
enum td_op {
	TD_CONFIGURE, TD_START, TD_STOP,
	TD_CTX_ALLOC, TD_CTX_FREE, TD_PD_ALLOC, TD_PD_FREE,
	TD_CQ_CREATE, TD_CQ_RESIZE, TD_CQ_DESTROY,
	TD_QP_CREATE, TD_QP_MODIFY, TD_QP_DESTROY,
	TD_MR_REG, TD_MR_DEREG, TD_AH_CREATE, TD_AH_DESTROY, TD_MW_ALLOC, TD_MW_FREE,
	TD_SRQ_CREATE, TD_SRQ_DESTROY, TD_COUNTER_ALLOC, TD_COUNTER_FREE, TD_COUNTER_BIND,
	TD_COUNTER_UNBIND, TD_COMP_CNTR_CREATE, TD_COMP_CNTR_DESTROY, TD_DMAH_ALLOC,
	TD_DMAH_FREE,
	TD_OP_MAX
};

/* Make the next @p count calls of @p op fail with -EIO. */
void td_fail_next(enum td_op op, uint32_t count);

/* Make one call in @p one_in (0: none) of every create/modify/destroy op fail with -EIO. */
void td_fail_rate(uint32_t one_in);

/* Calls of @p op so far (successful or not). */
uint64_t td_calls(enum td_op op);

/* Driver-side objects alive now (created by the driver and not yet destroyed). */
int64_t td_live_objects(void);

/* Completions the next poll_cq calls of any CQ return (wr_id counts up from 1). */
void td_cq_ready(uint16_t n);

/* Send and receive WRs the driver's post functions accepted so far. */
uint64_t td_posted_send(void);
uint64_t td_posted_recv(void);

/* Raise a device event for the event_process op to report: @p obj_type RDMADEV_OBJ_MAX for
 * a device event, else the object with hardware ID @p id (skipped when it is gone). The
 * device's interrupt eventfd is written (the EAL interrupt thread then processes it). */
int td_event_raise(int16_t dev_id, enum rdmadev_event_type type, enum rdmadev_obj_type obj_type,
		   uint32_t id, uint32_t code);

/* td_event_raise() without the interrupt: the event waits in the "hardware" until something
 * runs the event_process op (rdmadev_event_poll, an object's destroy). */
int td_event_stage(int16_t dev_id, enum rdmadev_event_type type, enum rdmadev_obj_type obj_type,
		   uint32_t id, uint32_t code);

/* Events raised or staged that event_process has not read yet. */
int td_events_pending(int16_t dev_id);

/* Reset every counter and injection. */
void td_reset(void);

/* Open, configure (1 vector, no extra capabilities) and start a device; returns its id or a
 * negative errno. */
int td_dev_up(const char *devargs);

/* Stop (when started) and close; returns what rdmadev_close() returns. */
int td_dev_down(int16_t dev_id);

/* Live tracked objects of a restrack type on a device. */
int td_count(int16_t dev_id, enum restrack_type type);

/* Capture the rte_log output from now on into a buffer (td_log_stop() returns it; the
 * caller frees it). */
void td_log_start(void);
char *td_log_stop(void);

#endif /* RDMADEV_TEST_DRIVER_H */
