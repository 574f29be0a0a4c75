/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_DEV_H
#define IRDMA_DEV_H

/**
 * @file
 * The irdma PMD as an rdmadev driver.
 *
 * `irdma_model<N>[,gen=2|3][,mode=inline|thread][,qps=N][,cqs=N][,mrs=N][,ring_pbl=0|1]
 *  [,ip=A[;B...]][,mac=M][,wire=W]`
 * (ring_pbl=1: QP and CQ rings always through level-1 PBLs, for tests) opens a device
 * model (drivers/rdma/irdma/model) and drives it with the real control path (irdma_ctrl.h):
 * rdmadev_start() brings the device up (CQP, HMC, CCQ, a CEQ per completion vector, AEQ),
 * rdmadev_stop() tears it down (refused with -EBUSY while objects exist). Objects: contexts
 * (bookkeeping only), PDs, CQs (CREATE / MODIFY (resize) / DESTROY_CQ on their vector's CEQ),
 * MRs (REG_MR / ALLOC_STAG over lib/pbl PBLs), RC/UD QPs (CREATE / MODIFY / DESTROY_QP,
 * query), AHs (CREATE / DESTROY_ADDR_HANDLE,
 * MANAGE_ARP), statistics counters and xstats (MANAGE / GATHER_STATS, irdma_stats.c),
 * completion counters (software) and DMA handles (recorded hints), gen3 SRQs (CREATE /
 * MODIFY / DESTROY_SRQ, irdma_srq.c; gen2 refuses them with -ENOTSUP); MW ops are NULL,
 * so rdmadev returns -ENOTSUP. AEQ entries become rdmadev events (irdma_event.c); the data
 * path is irdma_uk.h. The model device reaches all EAL memory, as VFIO's container does.
 * The port: MAC from irdma_hw.mac (`mac=`), GID table from `ip=<address>[;<address>...]` or
 * a default (irdma_port.c), `wire=` carried to the model.
 * `irdma:<PCI address>` opens an E810 function bound to vfio-pci
 * through the VFIO backend (vfio/irdma_vfio.h) and drives it with the same control path;
 * it has never run against a device, and refuses with a logged -errno where VFIO is absent.
 *
 * The HMC sizing is decided at open (from the devargs) because rdmadev caches the limits
 * and the ID spaces then; start commits exactly that plan or fails.
 */

#include <stdint.h>

#include <rdmadev_driver.h>

#include "irdma_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default QP count committed to the HMC (devargs `qps`). */
#define IRDMA_DEV_DEF_QPS		1024u
/** Default CQ count (devargs `cqs`). */
#define IRDMA_DEV_DEF_CQS		2048u
/** Default MR count (devargs `mrs`). */
#define IRDMA_DEV_DEF_MRS		4096u
/** Default devargs reset_poll_ms: the AdminQ / GLGEN_RSTAT look for an unannounced reset. */
#define IRDMA_DEV_DEF_RESET_POLL_MS	100u
/** SRQs a gen3 device commits to the HMC (object 2). */
#define IRDMA_DEV_DEF_SRQS		256u
/** Largest QP count: QPNs are below 2^18 (IRDMA_MAX_QP_ID + 1). */
#define IRDMA_DEV_MAX_QPS		(IRDMA_MAX_QP_ID + 1u)
/** Largest CQ count: CQ ids are below 2^19 (IRDMA_MAX_CQ_ID + 1). */
#define IRDMA_DEV_MAX_CQS		(IRDMA_MAX_CQ_ID + 1u)
/** Largest MR count: the STag index is 24 bits (CQP_STAG_IDX 31:8). */
#define IRDMA_DEV_MAX_MRS		(UINT32_C(1) << 24)
/** Application contexts the driver admits. */
#define IRDMA_DEV_MAX_CTX		256u
/** DMA handles the driver reports (recorded hints; nothing in the device). */
#define IRDMA_DEV_MAX_DMAH		1024u
/** Default Ethernet MTU of the port (devargs `mtu`; the kernel's IRDMA_DEFAULT_MTU). */
#define IRDMA_DEV_ETH_MTU		1500u
/**
 * Bytes of a RoCEv2 packet's Ethernet payload that are not the path MTU's payload, counted
 * as the kernel's iboe_get_mtu() counts them: GRH (IPv6) 40 + UDP 8 + BTH 12 + XRC ETH 4 +
 * AtomicETH 28 + ICRC 4.
 */
#define IRDMA_DEV_ROCE_HDRS		96u
/** Smallest Ethernet MTU of devargs `mtu`: a 256-byte path MTU and its headers. */
#define IRDMA_DEV_MIN_ETH_MTU		(256u + IRDMA_DEV_ROCE_HDRS)
/** Largest Ethernet MTU of devargs `mtu`: the E810's (the kernel's ICE_MAX_MTU, a 9728-byte
 * frame less Ethernet, FCS and two VLAN tags). */
#define IRDMA_DEV_MAX_ETH_MTU		9702u

/**
 * The irdma_hw of an open irdma device (for tests and diagnostics: fault injection and
 * counters of the model).
 * @return the hw, or NULL when @p dev is not an irdma device.
 */
struct irdma_hw *irdma_dev_hw(struct rdmadev *dev);

struct irdma_ctrl;

/**
 * The control path of an open irdma device (tests and diagnostics: raw CQP commands).
 * @return the control path, or NULL when @p dev is not an irdma device.
 */
struct irdma_ctrl *irdma_dev_ctrl(struct rdmadev *dev);

#ifdef __cplusplus
}
#endif

#endif /* IRDMA_DEV_H */
