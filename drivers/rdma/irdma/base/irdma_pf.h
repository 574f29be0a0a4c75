/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_PF_H
#define IRDMA_PF_H

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
	IRDMA_AQC_CLEAR_PF_CFG = 0x02a4,	/**< direct: clear the PF's configuration */
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

#endif /* IRDMA_PF_H */
