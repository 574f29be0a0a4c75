/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_PF_FMT_H
#define IRDMA_PF_FMT_H

/**
 * @file
 * The E810 PF outside the RDMA engine, as far as the PMD needs it in place of Linux's `ice`:
 * the PF reset and readiness registers, the AdminQ (firmware control queue) registers, the
 * 32-byte AdminQ descriptor, the command opcodes and return codes, and the layouts of the
 * command parameters and buffers the PMD uses.
 *
 * Sources (public): Linux drivers/net/ethernet/intel/ice/ice_hw_autogen.h (register offsets
 * and fields: PF_FW_ATQ*, PF_FW_ARQ*, PFGEN_CTRL, GLGEN_RSTAT, GLNVM_ULD, GL_MNG_FWSM,
 * PF_FUNC_RID, PFGEN_STATE), ice_adminq_cmd.h (struct ice_aq_desc, ICE_AQ_FLAG_*,
 * enum ice_aq_err, enum ice_adminq_opc, struct ice_aqc_get_ver, ice_aqc_list_caps(_elem),
 * ice_aqc_manage_mac_read(_resp), ice_aqc_get_link_status(_data), ice_aqc_set_event_mask,
 * ice_aqc_clear_pxe, ice_aqc_q_shutdown), ice_common.c (ice_pf_reset, ice_check_reset,
 * ICE_RESET_DONE_MASK), ice_controlq.c (ice_cfg_cq_regs, ice_sq_send_cmd). The same files
 * live in DPDK's drivers/net/ice/base/. doc/e810.md describes how the PMD uses them.
 *
 * The descriptor is a layout of four little-endian qwords (irdma_field.h): byte offsets of
 * struct ice_aq_desc become qword / bit positions (desc byte N = qword N / 8, bit 8 * (N % 8)).
 */

#include <stdint.h>

#include "irdma_field.h"

/* ---------------------------------------------------------------------------------------
 * Registers (ice_hw_autogen.h).
 */

/** AdminQ send queue (ATQ) ring base, low 32 bits (64-byte aligned). */
#define IRDMA_PF_FW_ATQBAL		UINT32_C(0x00080000)
/** ATQ ring base, high 32 bits. */
#define IRDMA_PF_FW_ATQBAH		UINT32_C(0x00080100)
/** ATQ length and enable. */
#define IRDMA_PF_FW_ATQLEN		UINT32_C(0x00080200)
/** ATQ head (firmware-owned: next descriptor it will take). */
#define IRDMA_PF_FW_ATQH		UINT32_C(0x00080300)
/** ATQ tail (driver-written: one past the last descriptor given to firmware). */
#define IRDMA_PF_FW_ATQT		UINT32_C(0x00080400)
/** AdminQ receive queue (ARQ) ring base, low 32 bits. */
#define IRDMA_PF_FW_ARQBAL		UINT32_C(0x00080080)
/** ARQ ring base, high 32 bits. */
#define IRDMA_PF_FW_ARQBAH		UINT32_C(0x00080180)
/** ARQ length and enable. */
#define IRDMA_PF_FW_ARQLEN		UINT32_C(0x00080280)
/** ARQ head (firmware-owned: next slot it will write). */
#define IRDMA_PF_FW_ARQH		UINT32_C(0x00080380)
/** ARQ tail (driver-written: last slot given back). */
#define IRDMA_PF_FW_ARQT		UINT32_C(0x00080480)
/** PF state (PFPEEN: PE enabled for the PF). Diagnostic only. */
#define IRDMA_PFGEN_STATE		UINT32_C(0x00088000)
/** AdminQ interrupt cause: MSIX_INDX, ITR_INDX, CAUSE_ENA as the QCTL_* fields. */
#define IRDMA_PFINT_FW_CTL		UINT32_C(0x0016c800)
/** Other interrupt causes the PF takes (a bit per cause, IRDMA_PFINT_OICR_*). */
#define IRDMA_PFINT_OICR_ENA		UINT32_C(0x0016c900)
/** Other interrupt cause, latched for the causes PFINT_OICR_ENA enables; clears on read. */
#define IRDMA_PFINT_OICR		UINT32_C(0x0016ca00)
/** Other interrupt cause to vector: MSIX_INDX, ITR_INDX, CAUSE_ENA as the QCTL_* fields. */
#define IRDMA_PFINT_OICR_CTL		UINT32_C(0x0016ca80)
/** PF control: PFSWR, the PF software reset. */
#define IRDMA_PFGEN_CTRL		UINT32_C(0x00091000)
/** PCI requester id of the function: its function number is the PF id. */
#define IRDMA_PF_FUNC_RID		UINT32_C(0x0009e880)
/** NVM "reset done" bits (ice's ICE_RESET_DONE_MASK, PE_DONE). */
#define IRDMA_GLNVM_ULD			UINT32_C(0x000b6008)
/** Firmware mode (normal, debug, recovery, rollback). */
#define IRDMA_GL_MNG_FWSM		UINT32_C(0x000b6134)
/** Global reset status (DEVSTATE 0 = device active). */
#define IRDMA_GLGEN_RSTAT		UINT32_C(0x000b8188)

/** ATQLEN / ARQLEN: ring length in descriptors. */
IRDMA_REG_FIELD(AQLEN_LEN, 9, 0);
/** ATQLEN / ARQLEN: VF error. */
IRDMA_REG_FIELD(AQLEN_VFE, 28, 28);
/** ATQLEN / ARQLEN: overflow (ARQ: events were lost). */
IRDMA_REG_FIELD(AQLEN_OVFL, 29, 29);
/** ATQLEN / ARQLEN: firmware critical error. */
IRDMA_REG_FIELD(AQLEN_CRIT, 30, 30);
/** ATQLEN / ARQLEN: queue enabled. */
IRDMA_REG_FIELD(AQLEN_ENABLE, 31, 31);
/** ATQH / ATQT / ARQH / ARQT: ring index. */
IRDMA_REG_FIELD(AQ_PTR, 9, 0);
/** PFGEN_CTRL: PF software reset (write 1; hardware clears it when the reset is done). */
IRDMA_REG_FIELD(PFGEN_CTRL_PFSWR, 0, 0);
/** PFGEN_STATE: PE enabled for this PF. */
IRDMA_REG_FIELD(PFGEN_STATE_PFPEEN, 0, 0);
/** PFGEN_STATE: link enabled. */
IRDMA_REG_FIELD(PFGEN_STATE_PFLINKEN, 2, 2);
/** PF_FUNC_RID: PCI function number (the PF id, ice's hw->pf_id). */
IRDMA_REG_FIELD(PF_FUNC_RID_FUNCTION, 2, 0);
/** PF_FUNC_RID: PCI device number. */
IRDMA_REG_FIELD(PF_FUNC_RID_DEVICE, 7, 3);
/** PF_FUNC_RID: PCI bus number. */
IRDMA_REG_FIELD(PF_FUNC_RID_BUS, 15, 8);
/** GLGEN_RSTAT: device state, 0 when active (no global reset in progress). */
IRDMA_REG_FIELD(GLGEN_RSTAT_DEVSTATE, 1, 0);
/** GLGEN_RSTAT: type of the last reset (1 CORER, 2 GLOBR, 3 EMPR). */
IRDMA_REG_FIELD(GLGEN_RSTAT_RESET_TYPE, 3, 2);
/** PFINT_OICR / _ENA: a global (core, global or EMP) reset is coming or running. */
IRDMA_REG_FIELD(PFINT_OICR_GRST, 20, 20);
/** PFINT_OICR / _ENA: an HMC error (details in PFHMC_ERRORINFO). */
IRDMA_REG_FIELD(PFINT_OICR_HMC_ERR, 26, 26);
/** PFINT_OICR / _ENA: a PE push error. */
IRDMA_REG_FIELD(PFINT_OICR_PE_PUSH, 27, 27);
/** PFINT_OICR / _ENA: a PE critical error (details in GLPE_CRITERR). */
IRDMA_REG_FIELD(PFINT_OICR_PE_CRITERR, 28, 28);
/** GLNVM_ULD: PE (RDMA engine) done after a reset. */
IRDMA_REG_FIELD(GLNVM_ULD_PE_DONE, 10, 10);
/** GL_MNG_FWSM: firmware mode bits (bit 0 debug, bit 1 recovery, bit 2 rollback). */
IRDMA_REG_FIELD(GL_MNG_FWSM_FW_MODES, 2, 0);
/** GL_MNG_FWSM: firmware still loading. */
IRDMA_REG_FIELD(GL_MNG_FWSM_FW_LOADING, 30, 30);

/**
 * GLNVM_ULD bits that must all be set after a reset before the function is used
 * (ice_common.c ICE_RESET_DONE_MASK: PCIER_DONE, PCIER_DONE_1, CORER_DONE, GLOBR_DONE,
 * POR_DONE, POR_DONE_1, PCIER_DONE_2).
 */
#define IRDMA_GLNVM_ULD_RESET_DONE	UINT32_C(0x0000033b)
/** GL_MNG_FWSM FW_MODES: recovery mode. */
#define IRDMA_FW_MODE_RECOVERY		2u

/* ---------------------------------------------------------------------------------------
 * The AdminQ descriptor (struct ice_aq_desc, 32 bytes).
 */

/** Bytes of one AdminQ descriptor. */
#define IRDMA_AQ_DESC_SIZE		32u
/** Largest indirect buffer (ICE_AQ_MAX_BUF_LEN). */
#define IRDMA_AQ_MAX_BUF_LEN		4096u
/** Buffers larger than this need the LB flag (ICE_AQ_LG_BUF). */
#define IRDMA_AQ_LG_BUF			512u

IRDMA_LAYOUT(aq_desc, 4);

/** desc+0: flags (IRDMA_AQ_FLAG_*). */
IRDMA_FIELD(aq_desc, AQ_FLAGS, 0, 15, 0);
/** desc+2: opcode (enum irdma_aq_opc). */
IRDMA_FIELD(aq_desc, AQ_OPCODE, 0, 31, 16);
/** desc+4: indirect buffer length (response: bytes firmware wrote). */
IRDMA_FIELD(aq_desc, AQ_DATALEN, 0, 47, 32);
/** desc+6: firmware return code (enum irdma_aq_err in the low byte). */
IRDMA_FIELD(aq_desc, AQ_RETVAL, 0, 63, 48);
/** desc+8: cookie high (echoed back). */
IRDMA_FIELD(aq_desc, AQ_COOKIE_HIGH, 1, 31, 0);
/** desc+12: cookie low (echoed back). */
IRDMA_FIELD(aq_desc, AQ_COOKIE_LOW, 1, 63, 32);
/** desc+16: generic parameter 0. */
IRDMA_FIELD(aq_desc, AQ_PARAM0, 2, 31, 0);
/** desc+20: generic parameter 1. */
IRDMA_FIELD(aq_desc, AQ_PARAM1, 2, 63, 32);
/** desc+24: indirect buffer address, high 32 bits. */
IRDMA_FIELD(aq_desc, AQ_ADDR_HIGH, 3, 31, 0);
/** desc+28: indirect buffer address, low 32 bits. */
IRDMA_FIELD(aq_desc, AQ_ADDR_LOW, 3, 63, 32);

/** Descriptor flags (ICE_AQ_FLAG_*). */
enum irdma_aq_flag {
	IRDMA_AQ_FLAG_DD = 0x0001,	/**< descriptor done (firmware) */
	IRDMA_AQ_FLAG_CMP = 0x0002,	/**< completed (firmware) */
	IRDMA_AQ_FLAG_ERR = 0x0004,	/**< error */
	IRDMA_AQ_FLAG_VFE = 0x0008,	/**< VF error */
	IRDMA_AQ_FLAG_LB = 0x0200,	/**< buffer larger than 512 bytes */
	IRDMA_AQ_FLAG_RD = 0x0400,	/**< firmware reads the buffer */
	IRDMA_AQ_FLAG_VFC = 0x0800,	/**< VF command */
	IRDMA_AQ_FLAG_BUF = 0x1000,	/**< a buffer is attached */
	IRDMA_AQ_FLAG_SI = 0x2000,	/**< no completion interrupt */
	IRDMA_AQ_FLAG_EI = 0x4000,	/**< error interrupt */
	IRDMA_AQ_FLAG_FE = 0x8000,	/**< flush on error */
};

/** Firmware return codes (enum ice_aq_err, retval & 0xff). */
enum irdma_aq_err {
	IRDMA_AQ_RC_OK = 0,		/**< success */
	IRDMA_AQ_RC_EPERM = 1,		/**< operation not permitted */
	IRDMA_AQ_RC_ENOENT = 2,		/**< no such element */
	IRDMA_AQ_RC_ESRCH = 3,		/**< bad opcode */
	IRDMA_AQ_RC_EINTR = 4,		/**< interrupted */
	IRDMA_AQ_RC_EIO = 5,		/**< I/O error */
	IRDMA_AQ_RC_ENXIO = 6,		/**< no such resource */
	IRDMA_AQ_RC_E2BIG = 7,		/**< argument too long */
	IRDMA_AQ_RC_EAGAIN = 8,		/**< try again */
	IRDMA_AQ_RC_ENOMEM = 9,		/**< out of memory (list caps: buffer too small) */
	IRDMA_AQ_RC_EACCES = 10,	/**< permission denied */
	IRDMA_AQ_RC_EFAULT = 11,	/**< bad address */
	IRDMA_AQ_RC_EBUSY = 12,		/**< busy */
	IRDMA_AQ_RC_EEXIST = 13,	/**< exists */
	IRDMA_AQ_RC_EINVAL = 14,	/**< invalid argument */
	IRDMA_AQ_RC_ENOTTY = 15,	/**< not a typewriter */
	IRDMA_AQ_RC_ENOSPC = 16,	/**< no space */
	IRDMA_AQ_RC_ENOSYS = 17,	/**< not implemented */
	IRDMA_AQ_RC_ERANGE = 18,	/**< out of range */
	IRDMA_AQ_RC_EFLUSHED = 19,	/**< flushed because of an earlier error */
	IRDMA_AQ_RC_BAD_ADDR = 20,	/**< invalid buffer address */
	IRDMA_AQ_RC_EMODE = 21,		/**< not allowed in this mode */
	IRDMA_AQ_RC_EFBIG = 22,		/**< file too big */
};

/** AdminQ opcodes the PMD uses (enum ice_adminq_opc). */
enum irdma_aq_opc {
	IRDMA_AQC_GET_VER = 0x0001,		/**< direct: firmware / API versions */
	IRDMA_AQC_Q_SHUTDOWN = 0x0003,		/**< direct: the driver stops using the queue */
	IRDMA_AQC_LIST_FUNC_CAPS = 0x000a,	/**< indirect: function capabilities */
	IRDMA_AQC_LIST_DEV_CAPS = 0x000b,	/**< indirect: device capabilities */
	IRDMA_AQC_MANAGE_MAC_READ = 0x0107,	/**< indirect: the port's MAC addresses */
	IRDMA_AQC_CLEAR_PXE_MODE = 0x0110,	/**< direct: leave PXE mode */
	IRDMA_AQC_GET_SW_CFG = 0x0200,		/**< indirect: switch configuration (sw_id, port) */
	IRDMA_AQC_ADD_VSI = 0x0210,		/**< indirect (RD): add a VSI */
	IRDMA_AQC_UPDATE_VSI = 0x0211,		/**< indirect (RD): update a VSI's context */
	IRDMA_AQC_FREE_VSI = 0x0213,		/**< direct: free a VSI */
	IRDMA_AQC_CLEAR_PF_CFG = 0x02a4,	/**< direct: clear the PF's configuration */
	IRDMA_AQC_GET_DFLT_TOPO = 0x0400,	/**< indirect: default Tx scheduler topology */
	IRDMA_AQC_ADD_SCHED_ELEMS = 0x0401,	/**< indirect (RD): add scheduler nodes */
	IRDMA_AQC_DEL_SCHED_ELEMS = 0x040f,	/**< indirect (RD): delete scheduler nodes */
	IRDMA_AQC_QUERY_SCHED_RES = 0x0412,	/**< indirect: scheduler layers and limits */
	IRDMA_AQC_DIS_TXQS = 0x0c31,		/**< indirect (RD): disable Tx queues / qsets */
	IRDMA_AQC_ADD_RDMA_QSET = 0x0c33,	/**< indirect (RD): add RDMA qsets */
	IRDMA_AQC_GET_LINK_STATUS = 0x0607,	/**< indirect: link status (also the ARQ event) */
	IRDMA_AQC_SET_EVENT_MASK = 0x0613,	/**< direct: which link events to report */
};

/* GET_VERSION (0x0001) response (struct ice_aqc_get_ver). */
/** desc+16: ROM version. */
IRDMA_FIELD(aq_desc, AQ_VER_ROM, 2, 31, 0);
/** desc+20: firmware build. */
IRDMA_FIELD(aq_desc, AQ_VER_FW_BUILD, 2, 63, 32);
/** desc+24: firmware branch. */
IRDMA_FIELD(aq_desc, AQ_VER_FW_BRANCH, 3, 7, 0);
/** desc+25: firmware major. */
IRDMA_FIELD(aq_desc, AQ_VER_FW_MAJOR, 3, 15, 8);
/** desc+26: firmware minor. */
IRDMA_FIELD(aq_desc, AQ_VER_FW_MINOR, 3, 23, 16);
/** desc+27: firmware patch. */
IRDMA_FIELD(aq_desc, AQ_VER_FW_PATCH, 3, 31, 24);
/** desc+28: API branch. */
IRDMA_FIELD(aq_desc, AQ_VER_API_BRANCH, 3, 39, 32);
/** desc+29: API major. */
IRDMA_FIELD(aq_desc, AQ_VER_API_MAJOR, 3, 47, 40);
/** desc+30: API minor. */
IRDMA_FIELD(aq_desc, AQ_VER_API_MINOR, 3, 55, 48);
/** desc+31: API patch. */
IRDMA_FIELD(aq_desc, AQ_VER_API_PATCH, 3, 63, 56);

/** API major version the PMD knows (E810: EXP_FW_API_VER_MAJOR_E810 = 1). */
#define IRDMA_AQ_API_MAJOR		1u
/** API minor version the PMD was written against (EXP_FW_API_VER_MINOR_E810 = 5). */
#define IRDMA_AQ_API_MINOR		5u

/* Q_SHUTDOWN (0x0003, struct ice_aqc_q_shutdown). */
/** desc+16 bit 0: the driver is unloading. */
IRDMA_FIELD(aq_desc, AQ_QSHUT_UNLOADING, 2, 0, 0);

/* LIST_FUNC_CAPS / LIST_DEV_CAPS (struct ice_aqc_list_caps). */
/** desc+16: command flags. */
IRDMA_FIELD(aq_desc, AQ_CAPS_FLAGS, 2, 7, 0);
/** desc+17: PF index. */
IRDMA_FIELD(aq_desc, AQ_CAPS_PF_INDEX, 2, 15, 8);
/** desc+20: elements written (on ENOMEM: elements needed). */
IRDMA_FIELD(aq_desc, AQ_CAPS_COUNT, 2, 63, 32);

/** Bytes of one capability element (struct ice_aqc_list_caps_elem). */
#define IRDMA_AQ_CAP_ELEM_SIZE		32u
IRDMA_LAYOUT(aq_cap_elem, 4);
/** Element +0: capability id (enum irdma_aq_cap). */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_ID, 0, 15, 0);
/** Element +2: major version. */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_MAJOR, 0, 23, 16);
/** Element +3: minor version. */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_MINOR, 0, 31, 24);
/** Element +4: number (the capability's value). */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_NUMBER, 0, 63, 32);
/** Element +8: logical id. */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_LOGICAL_ID, 1, 31, 0);
/** Element +12: physical id (MSI-X: the first vector). */
IRDMA_FIELD(aq_cap_elem, AQ_CAP_PHYS_ID, 1, 63, 32);

/** Capability ids the PMD reads (ICE_AQC_CAPS_*). */
enum irdma_aq_cap {
	IRDMA_AQ_CAP_VALID_FUNCTIONS = 0x0005,	/**< bitmap of the enabled PFs */
	IRDMA_AQ_CAP_MSIX = 0x0043,		/**< MSI-X vectors: count, first */
	IRDMA_AQ_CAP_RDMA = 0x0051,		/**< RDMA: number 1 = enabled */
};

/* MANAGE_MAC_READ (0x0107, struct ice_aqc_manage_mac_read(_resp)). */
/** desc+16: flags (response: IRDMA_AQ_MAC_LAN_ADDR_VALID, ...). */
IRDMA_FIELD(aq_desc, AQ_MAC_FLAGS, 2, 15, 0);
/** desc+20: address entries written. */
IRDMA_FIELD(aq_desc, AQ_MAC_NUM_ADDR, 2, 39, 32);
/** MANAGE_MAC_READ flag: the LAN address is valid. */
#define IRDMA_AQ_MAC_LAN_ADDR_VALID	0x0010u
/** Bytes of one address entry: lport, type, 6-byte MAC. */
#define IRDMA_AQ_MAC_ENTRY_SIZE		8u
/** Address entry type: LAN. */
#define IRDMA_AQ_MAC_TYPE_LAN		0u

/* GET_LINK_STATUS (0x0607, struct ice_aqc_get_link_status). */
/** desc+16: logical port. */
IRDMA_FIELD(aq_desc, AQ_LS_LPORT, 2, 7, 0);
/** desc+18 bits 1:0: link status event enable (LSE). */
IRDMA_FIELD(aq_desc, AQ_LS_LSE, 2, 17, 16);
/** LSE: no change. */
#define IRDMA_AQ_LSE_NOP		0u
/** LSE: disable link status events. */
#define IRDMA_AQ_LSE_DIS		2u
/** LSE: enable link status events (response bit 0: enabled). */
#define IRDMA_AQ_LSE_ENA		3u
/** Bytes of the E810 link status data (ICE_GET_LINK_STATUS_DATALEN_V1). */
#define IRDMA_AQ_LINK_STATUS_LEN	32u

IRDMA_LAYOUT(aq_link_status, 4);
/** Data +2: link_info (bit 0 link up). */
IRDMA_FIELD(aq_link_status, AQ_LS_LINK_INFO, 0, 23, 16);
/** Data +2 bit 0: link up. */
IRDMA_BIT(aq_link_status, AQ_LS_LINK_UP, 0, 16);
/** Data +3: autonegotiation info. */
IRDMA_FIELD(aq_link_status, AQ_LS_AN_INFO, 0, 31, 24);
/** Data +6: maximum frame size. */
IRDMA_FIELD(aq_link_status, AQ_LS_MAX_FRAME, 0, 63, 48);
/** Data +10: link speed (one IRDMA_AQ_LINK_SPEED_* bit). */
IRDMA_FIELD(aq_link_status, AQ_LS_SPEED, 1, 31, 16);

/** Link speed bits (ICE_AQ_LINK_SPEED_*), indexed by bit number. */
enum irdma_aq_link_speed {
	IRDMA_AQ_LINK_SPEED_10MB = 0x0001,	/**< 10 Mb/s */
	IRDMA_AQ_LINK_SPEED_100MB = 0x0002,	/**< 100 Mb/s */
	IRDMA_AQ_LINK_SPEED_1000MB = 0x0004,	/**< 1 Gb/s */
	IRDMA_AQ_LINK_SPEED_2500MB = 0x0008,	/**< 2.5 Gb/s */
	IRDMA_AQ_LINK_SPEED_5GB = 0x0010,	/**< 5 Gb/s */
	IRDMA_AQ_LINK_SPEED_10GB = 0x0020,	/**< 10 Gb/s */
	IRDMA_AQ_LINK_SPEED_20GB = 0x0040,	/**< 20 Gb/s */
	IRDMA_AQ_LINK_SPEED_25GB = 0x0080,	/**< 25 Gb/s */
	IRDMA_AQ_LINK_SPEED_40GB = 0x0100,	/**< 40 Gb/s */
	IRDMA_AQ_LINK_SPEED_50GB = 0x0200,	/**< 50 Gb/s */
	IRDMA_AQ_LINK_SPEED_100GB = 0x0400,	/**< 100 Gb/s */
	IRDMA_AQ_LINK_SPEED_200GB = 0x0800,	/**< 200 Gb/s */
	IRDMA_AQ_LINK_SPEED_UNKNOWN = 0x8000,	/**< unknown */
};

/* SET_EVENT_MASK (0x0613, struct ice_aqc_set_event_mask). */
/** desc+16: logical port. */
IRDMA_FIELD(aq_desc, AQ_EVM_LPORT, 2, 7, 0);
/** desc+24: event mask (a set bit suppresses that event). */
IRDMA_FIELD(aq_desc, AQ_EVM_MASK, 3, 15, 0);
/** Event mask bit: link up / down. */
#define IRDMA_AQ_EVENT_LINK_UPDOWN	0x0002u
/** Event mask bit: media not available. */
#define IRDMA_AQ_EVENT_MEDIA_NA		0x0004u

/* CLEAR_PXE_MODE (0x0110, struct ice_aqc_clear_pxe). */
/** desc+16: rx_cnt (ICE_AQC_CLEAR_PXE_RX_CNT = 2). */
IRDMA_FIELD(aq_desc, AQ_PXE_RX_CNT, 2, 7, 0);
/** The rx_cnt value ice sends. */
#define IRDMA_AQ_CLEAR_PXE_RX_CNT	2u

/* GET_SW_CFG (0x0200, struct ice_aqc_get_sw_cfg, ice_aqc_get_sw_cfg_resp_elem). */
/** desc+18: first element to report; response: non-zero when more elements follow. */
IRDMA_FIELD(aq_desc, AQ_SWCFG_ELEMENT, 2, 31, 16);
/** desc+20 (response): elements written. */
IRDMA_FIELD(aq_desc, AQ_SWCFG_NUM_ELEMS, 2, 47, 32);
/** Bytes of one response element: vsi_port_num, swid, pf_vf_num (three le16). */
#define IRDMA_AQ_SWCFG_ELEM_LEN		6u
/** Buffer ice passes (ICE_SW_CFG_MAX_BUF_LEN). */
#define IRDMA_AQ_SWCFG_BUF_LEN		2048u
/** vsi_port_num bits 9:0: the port or VSI number. */
#define IRDMA_AQ_SWCFG_NUM_MASK		0x03ffu
/** vsi_port_num bits 15:14: the element type. */
#define IRDMA_AQ_SWCFG_TYPE_SHIFT	14u
/** Element type: a physical port (its number is the logical port, ice's lport). */
#define IRDMA_AQ_SWCFG_TYPE_PHYS_PORT	0u
/** Element type: a virtual port. */
#define IRDMA_AQ_SWCFG_TYPE_VIRT_PORT	1u
/** Element type: a VSI. */
#define IRDMA_AQ_SWCFG_TYPE_VSI		2u
/** pf_vf_num bits 14:0: the function the element belongs to. */
#define IRDMA_AQ_SWCFG_FUNC_MASK	0x7fffu
/** pf_vf_num bit 15: the function is a VF. */
#define IRDMA_AQ_SWCFG_IS_VF		0x8000u

/* ---------------------------------------------------------------------------------------
 * VSI (ice_adminq_cmd.h struct ice_aqc_add_get_update_free_vsi, ice_aqc_vsi_props)
 * --------------------------------------------------------------------------------------- */

/** desc+16: VSI number (bits 9:0) and IS_VALID (bit 15); response: the hardware number. */
IRDMA_FIELD(aq_desc, AQ_VSI_NUM, 2, 15, 0);
/** desc+18: command flags (FREE: bit 0 KEEP_ALLOC). */
IRDMA_FIELD(aq_desc, AQ_VSI_CMD_FLAGS, 2, 31, 16);
/** desc+20 (response): VSIs used by the function. */
IRDMA_FIELD(aq_desc, AQ_VSI_USED, 2, 47, 32);
/** desc+22 (command): VSI flags, type in bits 1:0; (response) VSIs still free. */
IRDMA_FIELD(aq_desc, AQ_VSI_FLAGS, 2, 63, 48);
/** AQ_VSI_NUM: the number is valid. */
#define IRDMA_AQ_VSI_IS_VALID		0x8000u
/** AQ_VSI_NUM: mask of the number. */
#define IRDMA_AQ_VSI_NUM_MASK		0x03ffu
/** VSI type: PF (ICE_AQ_VSI_TYPE_PF). */
#define IRDMA_AQ_VSI_TYPE_PF		2u
/** Bytes of the VSI context (struct ice_aqc_vsi_props). */
#define IRDMA_AQ_VSI_CTX_LEN		128u

IRDMA_LAYOUT(aq_vsi_ctx, 16);
/** Byte 0: valid sections (IRDMA_AQ_VSI_PROP_*). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_VALID_SECTIONS, 0, 15, 0);
/** Byte 2: switch id. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_SW_ID, 0, 23, 16);
/** Byte 3: switch flags (bit 7 SRC_PRUNE). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_SW_FLAGS, 0, 31, 24);
/** Byte 4: switch flags 2 (bit 4 LAN_ENA). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_SW_FLAGS2, 0, 39, 32);
/** Byte 6: security flags (bit 0 ALLOW_DEST_OVRD). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_SEC_FLAGS, 0, 55, 48);
/** Byte 12: inner VLAN flags (bits 1:0 Tx mode). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_INNER_VLAN_FLAGS, 1, 39, 32);
/** Byte 16: ingress user-priority table. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_INGRESS_TABLE, 2, 31, 0);
/** Byte 20: egress user-priority table. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_EGRESS_TABLE, 2, 63, 32);
/** Byte 28: queue mapping flags (0: contiguous). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_MAPPING_FLAGS, 3, 47, 32);
/** Byte 30: q_mapping[0], the first Rx queue. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_Q_MAP0, 3, 63, 48);
/** Byte 32: q_mapping[1], the number of Rx queues. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_Q_MAP1, 4, 15, 0);
/** Byte 62: tc_mapping[0] (bits 10:0 offset, 14:11 log2 of the queue count). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_TC_MAP0, 7, 63, 48);
/** Byte 78: RSS options (bits 1:0 LUT type, 7:6 hash). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_Q_OPT_RSS, 9, 55, 48);
/** Byte 79: TC options. */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_Q_OPT_TC, 9, 63, 56);
/** Byte 80: queue option flags (bit 0 PE_FLTR_EN). */
IRDMA_FIELD(aq_vsi_ctx, AQ_VSI_Q_OPT_FLAGS, 10, 7, 0);

/** Valid section: security. */
#define IRDMA_AQ_VSI_PROP_SECURITY	0x0002u
/** Valid section: queue options (RSS, TC, flags such as PE_FLTR_EN). */
#define IRDMA_AQ_VSI_PROP_Q_OPT		0x0080u
/** sw_flags: source pruning. */
#define IRDMA_AQ_VSI_SW_FLAG_SRC_PRUNE	0x80u
/** sw_flags2: LAN enabled. */
#define IRDMA_AQ_VSI_SW_FLAG_LAN_ENA	0x10u
/** sec_flags: allow destination override. */
#define IRDMA_AQ_VSI_SEC_ALLOW_DEST_OVRD 0x01u
/** inner_vlan_flags Tx mode: all. */
#define IRDMA_AQ_VSI_INNER_VLAN_TX_ALL	3u
/** The 1:1 user-priority table (UP n to n in 3-bit slots). */
#define IRDMA_AQ_VSI_UP_TABLE_1TO1	UINT32_C(0x00fac688)
/** q_opt_rss: LUT type PF (bits 1:0 = 2), Toeplitz hash. */
#define IRDMA_AQ_VSI_Q_OPT_RSS_PF	0x02u
/** q_opt_flags: the PE (RDMA) filter (ICE_AQ_VSI_Q_OPT_PE_FLTR_EN). */
#define IRDMA_AQ_VSI_Q_OPT_PE_FLTR_EN	0x01u

/* ---------------------------------------------------------------------------------------
 * Tx scheduler (ice_adminq_cmd.h struct ice_aqc_get_topo, ice_aqc_sched_elem_cmd,
 * ice_aqc_txsched_elem_data, ice_aqc_add_rdma_qset, ice_aqc_dis_txqs)
 * --------------------------------------------------------------------------------------- */

/** GET_DFLT_TOPO desc+16: logical port. */
IRDMA_FIELD(aq_desc, AQ_TOPO_PORT, 2, 7, 0);
/** GET_DFLT_TOPO desc+17 (response): branches (1..8). */
IRDMA_FIELD(aq_desc, AQ_TOPO_BRANCHES, 2, 15, 8);
/** ADD / DELETE_SCHED_ELEMS desc+16: groups in the buffer. */
IRDMA_FIELD(aq_desc, AQ_SCHED_GRPS_REQ, 2, 15, 0);
/** ADD / DELETE_SCHED_ELEMS desc+18 (response): groups done. */
IRDMA_FIELD(aq_desc, AQ_SCHED_GRPS_RESP, 2, 31, 16);
/** ADD_RDMA_QSET desc+16: qset groups in the buffer. */
IRDMA_FIELD(aq_desc, AQ_QSET_GRPS, 2, 7, 0);
/** DIS_TXQS desc+16: command type (bit 3 FLUSH_PIPE). */
IRDMA_FIELD(aq_desc, AQ_DIS_CMD_TYPE, 2, 7, 0);
/** DIS_TXQS desc+17: entries in the buffer. */
IRDMA_FIELD(aq_desc, AQ_DIS_ENTRIES, 2, 15, 8);
/** DIS_TXQS desc+18: VM/VF number and timeout (bits 15:10). */
IRDMA_FIELD(aq_desc, AQ_DIS_VMVF_TIMEOUT, 2, 31, 16);
/** DIS_TXQS command type: flush the pipe. */
#define IRDMA_AQ_DIS_FLUSH_PIPE		0x08u
/** DIS_TXQS timeout ice uses (5, in bits 15:10 of vmvf_and_timeout). */
#define IRDMA_AQ_DIS_TIMEOUT		(5u << 10)
/** DIS_TXQS q_id bit 15: the entry is an RDMA qset. */
#define IRDMA_AQ_DIS_RDMA_QSET		0x8000u

/** Layers of a Tx scheduler tree at most (ICE_AQC_TOPO_MAX_LEVEL_NUM). */
#define IRDMA_AQ_SCHED_MAX_LAYERS	9u
/** Bytes of the QUERY_SCHED_RES answer (struct ice_aqc_query_txsched_res_resp). */
#define IRDMA_AQ_SCHED_RES_LEN		(32u + IRDMA_AQ_SCHED_MAX_LAYERS * 32u)
/** Offset of the first layer entry in the QUERY_SCHED_RES answer. */
#define IRDMA_AQ_SCHED_RES_LAYER0	32u
/** Bytes of one layer entry (struct ice_aqc_layer_props). */
#define IRDMA_AQ_SCHED_LAYER_LEN	32u

IRDMA_LAYOUT(aq_sched_res, 4);
/** +0: physical levels. */
IRDMA_FIELD(aq_sched_res, AQ_RES_PHYS_LEVELS, 0, 15, 0);
/** +2: logical levels: the layers of the tree (ice's num_tx_sched_layers). */
IRDMA_FIELD(aq_sched_res, AQ_RES_LOGICAL_LEVELS, 0, 31, 16);
/** +8: RDMA qsets of the device. */
IRDMA_FIELD(aq_sched_res, AQ_RES_RDMA_QSETS, 1, 15, 0);

IRDMA_LAYOUT(aq_sched_layer, 4);
/** Layer +0: the logical layer number. */
IRDMA_FIELD(aq_sched_layer, AQ_LAYER_NUM, 0, 7, 0);
/** Layer +2: nodes of the device on this layer. */
IRDMA_FIELD(aq_sched_layer, AQ_LAYER_MAX_DEV_NODES, 0, 31, 16);
/** Layer +4: nodes of the PF on this layer. */
IRDMA_FIELD(aq_sched_layer, AQ_LAYER_MAX_PF_NODES, 0, 47, 32);
/** Layer +10: siblings of one parent on this layer (ice's max_children of the layer above). */
IRDMA_FIELD(aq_sched_layer, AQ_LAYER_MAX_SIBL, 1, 31, 16);

/** Bytes of a scheduler group header (parent TEID, element count). */
#define IRDMA_AQ_SCHED_HDR_LEN		8u
/** Bytes of one scheduler element (struct ice_aqc_txsched_elem_data). */
#define IRDMA_AQ_SCHED_ELEM_LEN		24u
/** Elements of one default-topology branch at most. */
#define IRDMA_AQ_TOPO_ELEMS		9u
/** Bytes of one default-topology branch. */
#define IRDMA_AQ_TOPO_BRANCH_LEN	(IRDMA_AQ_SCHED_HDR_LEN + \
					 IRDMA_AQ_TOPO_ELEMS * IRDMA_AQ_SCHED_ELEM_LEN)

IRDMA_LAYOUT(aq_sched_hdr, 1);
/** Header +0: parent TEID. */
IRDMA_FIELD(aq_sched_hdr, AQ_SCHED_HDR_PARENT, 0, 31, 0);
/** Header +4: elements that follow. */
IRDMA_FIELD(aq_sched_hdr, AQ_SCHED_HDR_NUM, 0, 47, 32);

IRDMA_LAYOUT(aq_sched_elem, 3);
/** +0: parent TEID. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_PARENT, 0, 31, 0);
/** +4: the node's TEID (written by firmware on add). */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_TEID, 0, 63, 32);
/** +8: element type (IRDMA_AQ_ELEM_TYPE_*). */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_TYPE, 1, 7, 0);
/** +9: valid sections (bit 0 generic, 1 CIR, 2 EIR, 3 shared). */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_VALID, 1, 15, 8);
/** +10: generic (mode, priority, SP, adjust). */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_GENERIC, 1, 23, 16);
/** +11: flags (bit 0 suspended). */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_FLAGS, 1, 31, 24);
/** +12: CIR bandwidth profile. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_CIR_PROF, 1, 47, 32);
/** +14: CIR bandwidth weight. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_CIR_BW, 1, 63, 48);
/** +16: EIR bandwidth profile. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_EIR_PROF, 2, 15, 0);
/** +18: EIR bandwidth weight. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_EIR_BW, 2, 31, 16);
/** +20: shared rate limit id. */
IRDMA_FIELD(aq_sched_elem, AQ_ELEM_SRL_ID, 2, 47, 32);

/** Element types (ICE_AQC_ELEM_TYPE_*). */
enum irdma_aq_elem_type {
	IRDMA_AQ_ELEM_TYPE_ROOT_PORT = 1,	/**< the port (layer 0) */
	IRDMA_AQ_ELEM_TYPE_TC = 2,		/**< a traffic class */
	IRDMA_AQ_ELEM_TYPE_SE_GENERIC = 3,	/**< a generic scheduling element */
	IRDMA_AQ_ELEM_TYPE_ENTRY_POINT = 4,	/**< the software entry point */
	IRDMA_AQ_ELEM_TYPE_LEAF = 5,		/**< a queue or RDMA qset */
};
/** Valid sections of a node ice adds: generic, CIR, EIR. */
#define IRDMA_AQ_ELEM_VALID_DFLT	0x07u
/** Bandwidth profile ice uses by default (ICE_SCHED_DFLT_RL_PROF_ID). */
#define IRDMA_AQ_SCHED_DFLT_PROF	0u
/** Bandwidth weight ice uses by default (ICE_SCHED_DFLT_BW_WT). */
#define IRDMA_AQ_SCHED_DFLT_BW		4u

/** Bytes of one ADD_RDMA_QSET group with one qset. */
#define IRDMA_AQ_QSET_GRP_LEN		32u
IRDMA_LAYOUT(aq_qset_grp, 4);
/** +0: parent TEID (an RDMA qgroup node of the VSI). */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_PARENT, 0, 31, 0);
/** +4: qsets in the group. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_NUM, 0, 47, 32);
/** +8: the qset id: the work scheduler leaf's qs_handle. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_ID, 1, 15, 0);
/** +12 (written by firmware): the qset's TEID. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_TEID, 1, 63, 32);
/** +16: element info, valid sections. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_VALID, 2, 15, 8);
/** +18: element info, generic. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_GENERIC, 2, 23, 16);
/** +20: element info, CIR profile. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_CIR_PROF, 2, 47, 32);
/** +22: element info, CIR weight. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_CIR_BW, 2, 63, 48);
/** +24: element info, EIR profile. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_EIR_PROF, 3, 15, 0);
/** +26: element info, EIR weight. */
IRDMA_FIELD(aq_qset_grp, AQ_QSET_EIR_BW, 3, 31, 16);

/** Bytes of one DIS_TXQS entry with one qset. */
#define IRDMA_AQ_DIS_ENTRY_LEN		8u
IRDMA_LAYOUT(aq_dis_entry, 1);
/** +0: parent TEID of the qset. */
IRDMA_FIELD(aq_dis_entry, AQ_DIS_PARENT, 0, 31, 0);
/** +4: queues in the entry. */
IRDMA_FIELD(aq_dis_entry, AQ_DIS_NUM_QS, 0, 39, 32);
/** +6: q_id: the qs_handle | IRDMA_AQ_DIS_RDMA_QSET. */
IRDMA_FIELD(aq_dis_entry, AQ_DIS_QID, 0, 63, 48);

#endif /* IRDMA_PF_FMT_H */
