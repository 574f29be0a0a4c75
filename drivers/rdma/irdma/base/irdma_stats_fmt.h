/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_STATS_FMT_H
#define IRDMA_STATS_FMT_H

/**
 * @file
 * Hardware statistics of gen2 (E810): the statistics instances and the buffer GATHER_STATS
 * writes. doc/hardware.md does not cover statistics (it names the MANAGE_STATS 0x2d and
 * GATHER_STATS 0x2e opcodes only); the facts here come from the Linux kernel's irdma:
 * icrdma_hw.c icrdma_hw_stat_map (byte offset, bit offset and width of every counter in the
 * gather buffer), type.h IRDMA_GATHER_STATS_BUF_SIZE, defs.h IRDMA_FIRST_NON_PF_STAT, and
 * verbs.c irdma_hw_stat_names (the names `hw_counters` shows in sysfs on gen2 kernels up to
 * 6.16; later kernels drop the "iw" / "tcp" prefixes of some names).
 *
 * Counters are cumulative in the device and wrap at their width: a reader keeps the last
 * raw value and adds the difference modulo 2^width (the kernel's irdma_update_stats).
 * TCPRXSEGS is described by the kernel as 48 bits at bit 32 of its qword: only the 32 bits
 * that exist (63:32) are ever carried, and its width here is 32.
 */

#include <stdint.h>

/** Bytes of the GATHER_STATS buffer (IRDMA_GATHER_STATS_BUF_SIZE). */
#define IRDMA_GATHER_STATS_BUF_SIZE	1024u
/** Alignment the driver gives the gather buffer (a qword; the kernel uses a page). */
#define IRDMA_GATHER_STATS_BUF_ALIGN	8u
/** Instances 0 .. 3 are the PFs' default instances (instance = HMC function id). */
#define IRDMA_FIRST_NON_PF_STAT		4u

/** Gen2 counters, in gather-buffer order (the kernel's IRDMA_HW_STAT_INDEX_* names). */
enum irdma_hw_stat {
	IRDMA_HW_STAT_RXVLANERR,	/**< rxVlanErrors */
	IRDMA_HW_STAT_IP4RXOCTS,	/**< ip4InOctets */
	IRDMA_HW_STAT_IP4RXPKTS,	/**< ip4InPkts */
	IRDMA_HW_STAT_IP4RXDISCARD,	/**< ip4InDiscards */
	IRDMA_HW_STAT_IP4RXTRUNC,	/**< ip4InTruncatedPkts */
	IRDMA_HW_STAT_IP4RXFRAGS,	/**< ip4InReasmRqd */
	IRDMA_HW_STAT_IP4RXMCOCTS,	/**< ip4InMcastOctets */
	IRDMA_HW_STAT_IP4RXMCPKTS,	/**< ip4InMcastPkts */
	IRDMA_HW_STAT_IP6RXOCTS,	/**< ip6InOctets */
	IRDMA_HW_STAT_IP6RXPKTS,	/**< ip6InPkts */
	IRDMA_HW_STAT_IP6RXDISCARD,	/**< ip6InDiscards */
	IRDMA_HW_STAT_IP6RXTRUNC,	/**< ip6InTruncatedPkts */
	IRDMA_HW_STAT_IP6RXFRAGS,	/**< ip6InReasmRqd */
	IRDMA_HW_STAT_IP6RXMCOCTS,	/**< ip6InMcastOctets */
	IRDMA_HW_STAT_IP6RXMCPKTS,	/**< ip6InMcastPkts */
	IRDMA_HW_STAT_IP4TXOCTS,	/**< ip4OutOctets */
	IRDMA_HW_STAT_IP4TXPKTS,	/**< ip4OutPkts */
	IRDMA_HW_STAT_IP4TXFRAGS,	/**< ip4OutSegRqd */
	IRDMA_HW_STAT_IP4TXMCOCTS,	/**< ip4OutMcastOctets */
	IRDMA_HW_STAT_IP4TXMCPKTS,	/**< ip4OutMcastPkts */
	IRDMA_HW_STAT_IP6TXOCTS,	/**< ip6OutOctets */
	IRDMA_HW_STAT_IP6TXPKTS,	/**< ip6OutPkts */
	IRDMA_HW_STAT_IP6TXFRAGS,	/**< ip6OutSegRqd */
	IRDMA_HW_STAT_IP6TXMCOCTS,	/**< ip6OutMcastOctets */
	IRDMA_HW_STAT_IP6TXMCPKTS,	/**< ip6OutMcastPkts */
	IRDMA_HW_STAT_IP4TXNOROUTE,	/**< ip4OutNoRoutes */
	IRDMA_HW_STAT_IP6TXNOROUTE,	/**< ip6OutNoRoutes */
	IRDMA_HW_STAT_TCPRXSEGS,	/**< tcpInSegs */
	IRDMA_HW_STAT_TCPRXOPTERR,	/**< tcpInOptErrors */
	IRDMA_HW_STAT_TCPRXPROTOERR,	/**< tcpInProtoErrors */
	IRDMA_HW_STAT_TCPTXSEG,		/**< tcpOutSegs */
	IRDMA_HW_STAT_TCPRTXSEG,	/**< tcpRetransSegs */
	IRDMA_HW_STAT_UDPRXPKTS,	/**< RxUDP */
	IRDMA_HW_STAT_UDPTXPKTS,	/**< TxUDP */
	IRDMA_HW_STAT_RDMARXWRS,	/**< iwInRdmaWrites */
	IRDMA_HW_STAT_RDMARXRDS,	/**< iwInRdmaReads */
	IRDMA_HW_STAT_RDMARXSNDS,	/**< iwInRdmaSends */
	IRDMA_HW_STAT_RDMATXWRS,	/**< iwOutRdmaWrites */
	IRDMA_HW_STAT_RDMATXRDS,	/**< iwOutRdmaReads */
	IRDMA_HW_STAT_RDMATXSNDS,	/**< iwOutRdmaSends */
	IRDMA_HW_STAT_RDMAVBND,		/**< iwRdmaBnd */
	IRDMA_HW_STAT_RDMAVINV,		/**< iwRdmaInv */
	IRDMA_HW_STAT_RXNPECNMARKEDPKTS, /**< RxECNMrkd */
	IRDMA_HW_STAT_RXRPCNPIGNORED,	/**< cnpIgnored */
	IRDMA_HW_STAT_RXRPCNPHANDLED,	/**< cnpHandled */
	IRDMA_HW_STAT_TXNPCNPSENT,	/**< cnpSent */
	IRDMA_HW_STAT_GEN2_MAX,		/**< number of gen2 counters */
	/* Gen3 only (the kernel's IRDMA_HW_STAT_INDEX_* from RNR_SENT on). */
	IRDMA_HW_STAT_RNR_SENT = IRDMA_HW_STAT_GEN2_MAX, /**< RNR sent */
	IRDMA_HW_STAT_RNR_RCVD,		/**< RNR received */
	IRDMA_HW_STAT_RDMAORDLMTCNT,	/**< ord limit count */
	IRDMA_HW_STAT_RDMAIRDLMTCNT,	/**< ird limit count */
	IRDMA_HW_STAT_RDMARXATS,	/**< Rx atomics */
	IRDMA_HW_STAT_RDMATXATS,	/**< Tx atomics */
	IRDMA_HW_STAT_NAKSEQERR,	/**< Nak Sequence Error */
	IRDMA_HW_STAT_NAKSEQERR_IMPLIED, /**< Nak Sequence Error Implied */
	IRDMA_HW_STAT_RTO,		/**< RTO */
	IRDMA_HW_STAT_RXOOOPKTS,	/**< Rcvd Out of order packets */
	IRDMA_HW_STAT_ICRCERR,		/**< CRC errors */
	IRDMA_HW_STAT_GEN3_MAX		/**< number of gen3 counters */
};

/** Where one counter sits in the gather buffer, and its hw_counters name. */
struct irdma_hw_stat_desc {
	const char *name;	/**< hw_counters name */
	uint16_t byte;		/**< byte offset of its little-endian qword */
	uint8_t shift;		/**< low bit inside the qword */
	uint8_t bits;		/**< width; the counter wraps at 2^bits */
};

/** Descriptor of counter @p s (< IRDMA_HW_STAT_GEN2_MAX), NULL beyond. */
static inline const struct irdma_hw_stat_desc *
irdma_hw_stat_desc(unsigned int s)
{
	static const struct irdma_hw_stat_desc tab[IRDMA_HW_STAT_GEN2_MAX] = {
		[IRDMA_HW_STAT_RXVLANERR] = { "rxVlanErrors", 0, 32, 24 },
		[IRDMA_HW_STAT_IP4RXOCTS] = { "ip4InOctets", 8, 0, 48 },
		[IRDMA_HW_STAT_IP4RXPKTS] = { "ip4InPkts", 16, 0, 48 },
		[IRDMA_HW_STAT_IP4RXDISCARD] = { "ip4InDiscards", 24, 32, 32 },
		[IRDMA_HW_STAT_IP4RXTRUNC] = { "ip4InTruncatedPkts", 24, 0, 32 },
		[IRDMA_HW_STAT_IP4RXFRAGS] = { "ip4InReasmRqd", 32, 0, 48 },
		[IRDMA_HW_STAT_IP4RXMCOCTS] = { "ip4InMcastOctets", 40, 0, 48 },
		[IRDMA_HW_STAT_IP4RXMCPKTS] = { "ip4InMcastPkts", 48, 0, 48 },
		[IRDMA_HW_STAT_IP6RXOCTS] = { "ip6InOctets", 56, 0, 48 },
		[IRDMA_HW_STAT_IP6RXPKTS] = { "ip6InPkts", 64, 0, 48 },
		[IRDMA_HW_STAT_IP6RXDISCARD] = { "ip6InDiscards", 72, 32, 32 },
		[IRDMA_HW_STAT_IP6RXTRUNC] = { "ip6InTruncatedPkts", 72, 0, 32 },
		[IRDMA_HW_STAT_IP6RXFRAGS] = { "ip6InReasmRqd", 80, 0, 48 },
		[IRDMA_HW_STAT_IP6RXMCOCTS] = { "ip6InMcastOctets", 88, 0, 48 },
		[IRDMA_HW_STAT_IP6RXMCPKTS] = { "ip6InMcastPkts", 96, 0, 48 },
		[IRDMA_HW_STAT_IP4TXOCTS] = { "ip4OutOctets", 104, 0, 48 },
		[IRDMA_HW_STAT_IP4TXPKTS] = { "ip4OutPkts", 112, 0, 48 },
		[IRDMA_HW_STAT_IP4TXFRAGS] = { "ip4OutSegRqd", 120, 0, 48 },
		[IRDMA_HW_STAT_IP4TXMCOCTS] = { "ip4OutMcastOctets", 128, 0, 48 },
		[IRDMA_HW_STAT_IP4TXMCPKTS] = { "ip4OutMcastPkts", 136, 0, 48 },
		[IRDMA_HW_STAT_IP6TXOCTS] = { "ip6OutOctets", 144, 0, 48 },
		[IRDMA_HW_STAT_IP6TXPKTS] = { "ip6OutPkts", 152, 0, 48 },
		[IRDMA_HW_STAT_IP6TXFRAGS] = { "ip6OutSegRqd", 160, 0, 48 },
		[IRDMA_HW_STAT_IP6TXMCOCTS] = { "ip6OutMcastOctets", 168, 0, 48 },
		[IRDMA_HW_STAT_IP6TXMCPKTS] = { "ip6OutMcastPkts", 176, 0, 48 },
		[IRDMA_HW_STAT_IP4TXNOROUTE] = { "ip4OutNoRoutes", 184, 32, 24 },
		[IRDMA_HW_STAT_IP6TXNOROUTE] = { "ip6OutNoRoutes", 184, 0, 24 },
		[IRDMA_HW_STAT_TCPRXSEGS] = { "tcpInSegs", 192, 32, 32 },
		[IRDMA_HW_STAT_TCPRXOPTERR] = { "tcpInOptErrors", 200, 32, 24 },
		[IRDMA_HW_STAT_TCPRXPROTOERR] = { "tcpInProtoErrors", 200, 0, 24 },
		[IRDMA_HW_STAT_TCPTXSEG] = { "tcpOutSegs", 208, 0, 48 },
		[IRDMA_HW_STAT_TCPRTXSEG] = { "tcpRetransSegs", 216, 32, 32 },
		[IRDMA_HW_STAT_UDPRXPKTS] = { "RxUDP", 224, 0, 48 },
		[IRDMA_HW_STAT_UDPTXPKTS] = { "TxUDP", 232, 0, 48 },
		[IRDMA_HW_STAT_RDMARXWRS] = { "iwInRdmaWrites", 240, 0, 48 },
		[IRDMA_HW_STAT_RDMARXRDS] = { "iwInRdmaReads", 248, 0, 48 },
		[IRDMA_HW_STAT_RDMARXSNDS] = { "iwInRdmaSends", 256, 0, 48 },
		[IRDMA_HW_STAT_RDMATXWRS] = { "iwOutRdmaWrites", 264, 0, 48 },
		[IRDMA_HW_STAT_RDMATXRDS] = { "iwOutRdmaReads", 272, 0, 48 },
		[IRDMA_HW_STAT_RDMATXSNDS] = { "iwOutRdmaSends", 280, 0, 48 },
		[IRDMA_HW_STAT_RDMAVBND] = { "iwRdmaBnd", 288, 0, 48 },
		[IRDMA_HW_STAT_RDMAVINV] = { "iwRdmaInv", 296, 0, 48 },
		[IRDMA_HW_STAT_RXNPECNMARKEDPKTS] = { "RxECNMrkd", 304, 0, 56 },
		[IRDMA_HW_STAT_RXRPCNPIGNORED] = { "cnpIgnored", 312, 32, 24 },
		[IRDMA_HW_STAT_RXRPCNPHANDLED] = { "cnpHandled", 312, 0, 32 },
		[IRDMA_HW_STAT_TXNPCNPSENT] = { "cnpSent", 320, 0, 32 },
	};

	return s < IRDMA_HW_STAT_GEN2_MAX ? &tab[s] : (const struct irdma_hw_stat_desc *)0;
}

/**
 * Gen3's counter @p s (< IRDMA_HW_STAT_GEN3_MAX), NULL beyond: the kernel's
 * ig3rdma_hw_stat_map (every counter a whole little-endian qword) and the names of kernels
 * with gen3 support (irdma_hw_stat_names: the gen2 names without their "iw" / "tcp"
 * prefixes, then the gen3 counters).
 */
static inline const struct irdma_hw_stat_desc *
irdma_hw_stat_desc_gen3(unsigned int s)
{
	static const struct irdma_hw_stat_desc tab[IRDMA_HW_STAT_GEN3_MAX] = {
		[IRDMA_HW_STAT_RXVLANERR] = { "rxVlanErrors", 0, 0, 64 },
		[IRDMA_HW_STAT_IP4RXOCTS] = { "ip4InOctets", 8, 0, 64 },
		[IRDMA_HW_STAT_IP4RXPKTS] = { "ip4InPkts", 16, 0, 64 },
		[IRDMA_HW_STAT_IP4RXDISCARD] = { "ip4InDiscards", 24, 0, 64 },
		[IRDMA_HW_STAT_IP4RXTRUNC] = { "ip4InTruncatedPkts", 32, 0, 64 },
		[IRDMA_HW_STAT_IP4RXFRAGS] = { "ip4InReasmRqd", 40, 0, 64 },
		[IRDMA_HW_STAT_IP4RXMCOCTS] = { "ip4InMcastOctets", 48, 0, 64 },
		[IRDMA_HW_STAT_IP4RXMCPKTS] = { "ip4InMcastPkts", 56, 0, 64 },
		[IRDMA_HW_STAT_IP6RXOCTS] = { "ip6InOctets", 64, 0, 64 },
		[IRDMA_HW_STAT_IP6RXPKTS] = { "ip6InPkts", 72, 0, 64 },
		[IRDMA_HW_STAT_IP6RXDISCARD] = { "ip6InDiscards", 80, 0, 64 },
		[IRDMA_HW_STAT_IP6RXTRUNC] = { "ip6InTruncatedPkts", 88, 0, 64 },
		[IRDMA_HW_STAT_IP6RXFRAGS] = { "ip6InReasmRqd", 96, 0, 64 },
		[IRDMA_HW_STAT_IP6RXMCOCTS] = { "ip6InMcastOctets", 104, 0, 64 },
		[IRDMA_HW_STAT_IP6RXMCPKTS] = { "ip6InMcastPkts", 112, 0, 64 },
		[IRDMA_HW_STAT_IP4TXOCTS] = { "ip4OutOctets", 120, 0, 64 },
		[IRDMA_HW_STAT_IP4TXPKTS] = { "ip4OutPkts", 128, 0, 64 },
		[IRDMA_HW_STAT_IP4TXFRAGS] = { "ip4OutSegRqd", 136, 0, 64 },
		[IRDMA_HW_STAT_IP4TXMCOCTS] = { "ip4OutMcastOctets", 144, 0, 64 },
		[IRDMA_HW_STAT_IP4TXMCPKTS] = { "ip4OutMcastPkts", 152, 0, 64 },
		[IRDMA_HW_STAT_IP6TXOCTS] = { "ip6OutOctets", 160, 0, 64 },
		[IRDMA_HW_STAT_IP6TXPKTS] = { "ip6OutPkts", 168, 0, 64 },
		[IRDMA_HW_STAT_IP6TXFRAGS] = { "ip6OutSegRqd", 176, 0, 64 },
		[IRDMA_HW_STAT_IP6TXMCOCTS] = { "ip6OutMcastOctets", 184, 0, 64 },
		[IRDMA_HW_STAT_IP6TXMCPKTS] = { "ip6OutMcastPkts", 192, 0, 64 },
		[IRDMA_HW_STAT_IP4TXNOROUTE] = { "ip4OutNoRoutes", 200, 0, 64 },
		[IRDMA_HW_STAT_IP6TXNOROUTE] = { "ip6OutNoRoutes", 208, 0, 64 },
		[IRDMA_HW_STAT_TCPRTXSEG] = { "RetransSegs", 216, 0, 64 },
		[IRDMA_HW_STAT_TCPRXOPTERR] = { "InOptErrors", 224, 0, 64 },
		[IRDMA_HW_STAT_TCPRXPROTOERR] = { "InProtoErrors", 232, 0, 64 },
		[IRDMA_HW_STAT_TCPTXSEG] = { "OutSegs", 240, 0, 64 },
		[IRDMA_HW_STAT_TCPRXSEGS] = { "InSegs", 248, 0, 64 },
		[IRDMA_HW_STAT_UDPRXPKTS] = { "RxUDP", 256, 0, 64 },
		[IRDMA_HW_STAT_UDPTXPKTS] = { "TxUDP", 264, 0, 64 },
		[IRDMA_HW_STAT_RDMARXWRS] = { "InRdmaWrites", 272, 0, 64 },
		[IRDMA_HW_STAT_RDMARXRDS] = { "InRdmaReads", 280, 0, 64 },
		[IRDMA_HW_STAT_RDMARXSNDS] = { "InRdmaSends", 288, 0, 64 },
		[IRDMA_HW_STAT_RDMATXWRS] = { "OutRdmaWrites", 296, 0, 64 },
		[IRDMA_HW_STAT_RDMATXRDS] = { "OutRdmaReads", 304, 0, 64 },
		[IRDMA_HW_STAT_RDMATXSNDS] = { "OutRdmaSends", 312, 0, 64 },
		[IRDMA_HW_STAT_RDMAVBND] = { "RdmaBnd", 320, 0, 64 },
		[IRDMA_HW_STAT_RDMAVINV] = { "RdmaInv", 328, 0, 64 },
		[IRDMA_HW_STAT_RXNPECNMARKEDPKTS] = { "RxECNMrkd", 336, 0, 64 },
		[IRDMA_HW_STAT_RXRPCNPHANDLED] = { "cnpHandled", 344, 0, 64 },
		[IRDMA_HW_STAT_RXRPCNPIGNORED] = { "cnpIgnored", 352, 0, 64 },
		[IRDMA_HW_STAT_TXNPCNPSENT] = { "cnpSent", 360, 0, 64 },
		[IRDMA_HW_STAT_RNR_SENT] = { "RNR sent", 368, 0, 64 },
		[IRDMA_HW_STAT_RNR_RCVD] = { "RNR received", 376, 0, 64 },
		[IRDMA_HW_STAT_RDMAORDLMTCNT] = { "ord limit count", 384, 0, 64 },
		[IRDMA_HW_STAT_RDMAIRDLMTCNT] = { "ird limit count", 392, 0, 64 },
		[IRDMA_HW_STAT_RDMARXATS] = { "Rx atomics", 408, 0, 64 },
		[IRDMA_HW_STAT_RDMATXATS] = { "Tx atomics", 416, 0, 64 },
		[IRDMA_HW_STAT_NAKSEQERR] = { "Nak Sequence Error", 424, 0, 64 },
		[IRDMA_HW_STAT_NAKSEQERR_IMPLIED] = { "Nak Sequence Error Implied", 432, 0, 64 },
		[IRDMA_HW_STAT_RTO] = { "RTO", 440, 0, 64 },
		[IRDMA_HW_STAT_RXOOOPKTS] = { "Rcvd Out of order packets", 448, 0, 64 },
		[IRDMA_HW_STAT_ICRCERR] = { "CRC errors", 456, 0, 64 },
	};

	return s < IRDMA_HW_STAT_GEN3_MAX ? &tab[s] : (const struct irdma_hw_stat_desc *)0;
}

/** Number of counters of generation @p gen (2: 46; 3: 57). */
static inline unsigned int
irdma_hw_stat_count(unsigned int gen)
{
	return gen >= 3 ? IRDMA_HW_STAT_GEN3_MAX : IRDMA_HW_STAT_GEN2_MAX;
}

/** Counter @p s of generation @p gen (gen2's or gen3's layout and names), NULL beyond. */
static inline const struct irdma_hw_stat_desc *
irdma_hw_stat_desc_of(unsigned int gen, unsigned int s)
{
	return gen >= 3 ? irdma_hw_stat_desc_gen3(s) : irdma_hw_stat_desc(s);
}

/** Largest value a counter of @p bits bits holds (its wrap is this + 1). */
static inline uint64_t
irdma_hw_stat_max(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/** Raw value of counter @p d in the CPU-order qword @p qw of the gather buffer. */
static inline uint64_t
irdma_hw_stat_extract(const struct irdma_hw_stat_desc *d, uint64_t qw)
{
	return (qw >> d->shift) & irdma_hw_stat_max(d->bits);
}

/** @p qw with counter @p d's bits replaced by @p v (truncated to its width). */
static inline uint64_t
irdma_hw_stat_insert(const struct irdma_hw_stat_desc *d, uint64_t qw, uint64_t v)
{
	uint64_t m = irdma_hw_stat_max(d->bits) << d->shift;

	return (qw & ~m) | ((v << d->shift) & m);
}

/** Increase from raw value @p last to raw value @p now of a @p bits-wide counter. */
static inline uint64_t
irdma_hw_stat_delta(uint64_t now, uint64_t last, unsigned int bits)
{
	return (now - last) & irdma_hw_stat_max(bits);
}

#endif /* IRDMA_STATS_FMT_H */
