/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The device model's RoCEv2 packet codec: build and parse whole Ethernet frames (Ethernet
 * [+ one 802.1Q tag], IPv4 or IPv6, UDP to port 4791, BTH, the extension headers of the
 * opcode, payload, pad, ICRC) and compute the ICRC (CRC32 as zlib computes it, slice-by-8,
 * over the invariant fields: doc/model.md "Packets and wires").
 *
 * Every multi-byte field is big endian except the ICRC, which is the CRC32 value stored
 * least significant byte first. Fields are read and written a byte at a time, so frames
 * need no alignment.
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_log.h>

#include "model_opcode.h"
#include "model_pkt.h"

extern int irdma_model_logtype;

#define PKT_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, irdma_model_logtype, "model pkt: " fmt "\n", ##__VA_ARGS__)

/* Header sizes and constants of the formats (IEEE 802.3/802.1Q, RFC 791, RFC 8200, RFC 768,
 * IBA vol. 1 ch. 9 and annex A17). */
#define ETH_HLEN		14u
#define VLAN_HLEN		4u
#define ETHERTYPE_IPV4		0x0800u
#define ETHERTYPE_IPV6		0x86ddu
#define ETHERTYPE_VLAN		0x8100u
#define IPV4_HLEN		20u
#define IPV6_HLEN		40u
#define IPV4_VER_IHL		0x45u		/* version 4, 5 words */
#define IPV4_FLAG_DF		0x4000u
#define IPV4_FRAG_MASK		0x3fffu		/* MF and the fragment offset */
#define IP_PROTO_UDP		17u
#define UDP_HLEN		8u
#define BTH_LEN			12u
#define RETH_LEN		16u
#define AETH_LEN		4u
#define IMMDT_LEN		4u
#define IETH_LEN		4u
#define DETH_LEN		8u
#define ATOMICETH_LEN		28u
#define ATOMICACKETH_LEN	8u
#define ICRC_LEN		4u
#define MASK24			0xffffffu

/* BTH byte 1: SE 7, M 6, PadCnt 5:4, TVer 3:0; byte 8: AckReq 7. */
#define BTH_SE			0x80u
#define BTH_MIGREQ		0x40u
#define BTH_PAD_SHIFT		4
#define BTH_PAD_MASK		0x3u
#define BTH_TVER_MASK		0xfu
#define BTH_ACKREQ		0x80u

/* Offsets inside the IPv4 / IPv6 / UDP / BTH headers. */
#define IPV4_OFF_TOS		1
#define IPV4_OFF_TOTLEN		2
#define IPV4_OFF_FRAG		6
#define IPV4_OFF_TTL		8
#define IPV4_OFF_PROTO		9
#define IPV4_OFF_CSUM		10
#define IPV4_OFF_SRC		12
#define IPV4_OFF_DST		16
#define IPV6_OFF_PLEN		4
#define IPV6_OFF_NXT		6
#define IPV6_OFF_HOPS		7
#define IPV6_OFF_SRC		8
#define IPV6_OFF_DST		24
#define UDP_OFF_DPORT		2
#define UDP_OFF_LEN		4
#define UDP_OFF_CSUM		6
#define BTH_OFF_RESV		4

/* ---- byte helpers (big endian, but for the ICRC; unaligned loads and stores) ---- */

static inline void
put16(uint8_t *p, uint32_t v)
{
	uint16_t b = rte_cpu_to_be_16((uint16_t)v);

	memcpy(p, &b, 2);
}

static inline void
put24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	put16(p + 1, v);
}

static inline void
put32(uint8_t *p, uint32_t v)
{
	uint32_t b = rte_cpu_to_be_32(v);

	memcpy(p, &b, 4);
}

static inline void
put64(uint8_t *p, uint64_t v)
{
	uint64_t b = rte_cpu_to_be_64(v);

	memcpy(p, &b, 8);
}

/* The ICRC field: the CRC value least significant byte first. */
static inline void
put_le32(uint8_t *p, uint32_t v)
{
	uint32_t b = rte_cpu_to_le_32(v);

	memcpy(p, &b, 4);
}

static inline uint32_t
get_le32(const uint8_t *p)
{
	uint32_t b;

	memcpy(&b, p, 4);
	return rte_le_to_cpu_32(b);
}

static inline uint32_t
get16(const uint8_t *p)
{
	uint16_t b;

	memcpy(&b, p, 2);
	return rte_be_to_cpu_16(b);
}

static inline uint32_t
get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | get16(p + 1);
}

static inline uint32_t
get32(const uint8_t *p)
{
	uint32_t b;

	memcpy(&b, p, 4);
	return rte_be_to_cpu_32(b);
}

static inline uint64_t
get64(const uint8_t *p)
{
	uint64_t b;

	memcpy(&b, p, 8);
	return rte_be_to_cpu_64(b);
}

/* ---- CRC32 (reflected polynomial 0xEDB88320, as zlib) ---- */

/*
 * Two implementations of one function: slice-by-8 tables (any CPU), and on x86 CPUs with
 * PCLMULQDQ carry-less multiplication folding (Intel, "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction", 2009): 64-byte blocks are folded four lanes at a
 * time, the lanes into one 128-bit remainder, and that remainder's 16 bytes go through the
 * tables. The test checks both against a bitwise reference at every length up to 600.
 */

#define CRC32_POLY_REFLECTED	0xedb88320u

static uint32_t crc_tab[8][256];
static bool crc_use_clmul;

/* Continue the CRC register @p c (not inverted) over @p n bytes at @p p, with the tables. */
static uint32_t
crc32_tables(uint32_t c, const uint8_t *p, size_t n)
{
	while (n >= 8) {
		/* Little-endian assembly of the next 8 bytes, independent of host order. */
		uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				   (uint32_t)p[3] << 24);

		c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		    crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		    crc_tab[3][p[4]] ^ crc_tab[2][p[5]] ^ crc_tab[1][p[6]] ^ crc_tab[0][p[7]];
		p += 8;
		n -= 8;
	}
	while (n-- > 0)
		c = (c >> 8) ^ crc_tab[0][(c ^ *p++) & 0xff];
	return c;
}

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * Folding constants of the reflected CRC32 polynomial (bit-reflected x^k mod P, k as named):
 * across 512 bits (four lanes): x^(512+32) and x^(512-32); across 128 bits: x^(128+32) and
 * x^(128-32).
 */
#define CLMUL_K_512_LO	0x154442bd4ull
#define CLMUL_K_512_HI	0x1c6e41596ull
#define CLMUL_K_128_LO	0x1751997d0ull
#define CLMUL_K_128_HI	0x0ccaa009eull

/* One fold: @p x moved forward by the distance of @p k, plus the data @p d found there. */
__attribute__((target("pclmul,sse2")))
static inline __m128i
clmul_fold(__m128i x, __m128i k, __m128i d)
{
	return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
					   _mm_clmulepi64_si128(x, k, 0x11)), d);
}

/* The register after @p n bytes at @p p (n >= 64, a multiple of 16) from register @p c. */
__attribute__((target("pclmul,sse2")))
static uint32_t
crc32_clmul(uint32_t c, const uint8_t *p, size_t n)
{
	const __m128i k512 = _mm_set_epi64x((long long)CLMUL_K_512_HI, (long long)CLMUL_K_512_LO);
	const __m128i k128 = _mm_set_epi64x((long long)CLMUL_K_128_HI, (long long)CLMUL_K_128_LO);
	__m128i x0 = _mm_loadu_si128((const __m128i *)p);
	__m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	uint8_t rem[16];

	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)c));
	p += 64;
	n -= 64;
	while (n >= 64) {
		x0 = clmul_fold(x0, k512, _mm_loadu_si128((const __m128i *)p));
		x1 = clmul_fold(x1, k512, _mm_loadu_si128((const __m128i *)(p + 16)));
		x2 = clmul_fold(x2, k512, _mm_loadu_si128((const __m128i *)(p + 32)));
		x3 = clmul_fold(x3, k512, _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		n -= 64;
	}
	x0 = clmul_fold(x0, k128, x1);
	x0 = clmul_fold(x0, k128, x2);
	x0 = clmul_fold(x0, k128, x3);
	while (n >= 16) {
		x0 = clmul_fold(x0, k128, _mm_loadu_si128((const __m128i *)p));
		p += 16;
		n -= 16;
	}
	/* the remainder, as 16 message bytes, from a zero register */
	_mm_storeu_si128((__m128i *)rem, x0);
	return crc32_tables(0, rem, sizeof(rem));
}
#endif

RTE_INIT(model_crc32_tables)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32_POLY_REFLECTED : c >> 1;
		crc_tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_tab[t][i] = (crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
#if defined(__x86_64__)
	crc_use_clmul = __builtin_cpu_supports("pclmul") && getenv("MODEL_CRC32_NO_CLMUL") == NULL;
#endif
}

/* Continue the CRC register @p c (not inverted) over @p n bytes at @p p. */
static uint32_t
crc32_update(uint32_t c, const uint8_t *p, size_t n)
{
#if defined(__x86_64__)
	if (crc_use_clmul && n >= 64) {
		size_t m = n & ~(size_t)15;

		c = crc32_clmul(c, p, m);
		p += m;
		n -= m;
	}
#endif
	return crc32_tables(c, p, n);
}

uint32_t
model_crc32(uint32_t crc, const void *buf, size_t n)
{
	return ~crc32_update(~crc, buf, n);
}

/* ---- the headers an opcode calls for (model_bth_ops[], model_opcode.c) ---- */

uint32_t
model_bth_hdrs(uint8_t opcode)
{
	const struct model_bth_op *o = &model_bth_ops[opcode];

	return o->qp_types != 0 ? o->hdrs | MODEL_HDR_VALID : 0;
}

/* Bytes of the extension headers of the MODEL_HDR_* set @p f. */
static uint32_t
ext_len(uint32_t f)
{
	return (f & MODEL_HDR_DETH ? DETH_LEN : 0) + (f & MODEL_HDR_RETH ? RETH_LEN : 0) +
	       (f & MODEL_HDR_ATOMICETH ? ATOMICETH_LEN : 0) + (f & MODEL_HDR_AETH ? AETH_LEN : 0) +
	       (f & MODEL_HDR_ATOMICACKETH ? ATOMICACKETH_LEN : 0) +
	       (f & MODEL_HDR_IMMDT ? IMMDT_LEN : 0) + (f & MODEL_HDR_IETH ? IETH_LEN : 0);
}

static uint32_t
l2_len(bool vlan)
{
	return ETH_HLEN + (vlan ? VLAN_HLEN : 0);
}

/* ext_len() of every opcode's headers (0 for the ones the model does not know). */
static uint8_t op_ext_len[256];

RTE_INIT(model_pkt_op_tables)
{
	for (uint32_t op = 0; op < 256; op++)
		op_ext_len[op] = (uint8_t)ext_len(model_bth_hdrs((uint8_t)op));
}

/* Bytes of the headers of @p h with BTH opcode @p opcode. */
static inline uint32_t
hdr_len_op(const struct model_pkt_hdr *h, uint8_t opcode)
{
	return l2_len(h->has_vlan) + (h->ipv4 ? IPV4_HLEN : IPV6_HLEN) + UDP_HLEN + BTH_LEN +
	       op_ext_len[opcode];
}

uint32_t
model_pkt_hdr_len(const struct model_pkt_hdr *h)
{
	return hdr_len_op(h, h->opcode);
}

/* ---- ICRC ---- */

/*
 * The ICRC of a frame whose IP header starts at @p ip (IPv4 when @p v4), given the byte
 * count from the IP header to the ICRC field (@p n, at least the IP, UDP and BTH headers).
 * The variant fields are replaced by ones in a copy of the headers; the rest is read in place.
 */
static uint32_t
icrc_compute(const uint8_t *ip, bool v4, uint32_t n)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t hdr[IPV6_HLEN + UDP_HLEN + BTH_LEN];
	uint32_t iplen = v4 ? IPV4_HLEN : IPV6_HLEN, hl = iplen + UDP_HLEN + BTH_LEN;
	uint32_t c;

	memcpy(hdr, ip, hl);
	if (v4) {
		hdr[IPV4_OFF_TOS] = 0xff;
		hdr[IPV4_OFF_TTL] = 0xff;
		hdr[IPV4_OFF_CSUM] = 0xff;
		hdr[IPV4_OFF_CSUM + 1] = 0xff;
	} else {
		/* traffic class and flow label: everything after the version nibble */
		hdr[0] |= 0x0f;
		hdr[1] = hdr[2] = hdr[3] = 0xff;
		hdr[IPV6_OFF_HOPS] = 0xff;
	}
	hdr[iplen + UDP_OFF_CSUM] = 0xff;
	hdr[iplen + UDP_OFF_CSUM + 1] = 0xff;
	hdr[iplen + UDP_HLEN + BTH_OFF_RESV] = 0xff;
	c = crc32_update(0xffffffffu, ones, sizeof(ones));
	c = crc32_update(c, hdr, hl);
	c = crc32_update(c, ip + hl, n - hl);
	return ~c;
}

/* Where the IP header starts and its version, or 0 when the frame is too short for them. */
static uint32_t
ip_offset(const uint8_t *frame, uint32_t flen, bool *v4)
{
	uint32_t off = ETH_HLEN, et;

	if (flen < ETH_HLEN)
		return 0;
	et = get16(frame + 12);
	if (et == ETHERTYPE_VLAN) {
		if (flen < ETH_HLEN + VLAN_HLEN)
			return 0;
		et = get16(frame + 16);
		off += VLAN_HLEN;
	}
	if (et != ETHERTYPE_IPV4 && et != ETHERTYPE_IPV6)
		return 0;
	*v4 = et == ETHERTYPE_IPV4;
	return off;
}

uint32_t
model_pkt_icrc(const uint8_t *frame, uint32_t flen)
{
	bool v4 = false;
	uint32_t ip = ip_offset(frame, flen, &v4);

	if (ip == 0 || flen < ip + (v4 ? IPV4_HLEN : IPV6_HLEN) + UDP_HLEN + BTH_LEN + ICRC_LEN)
		return 0;
	return icrc_compute(frame + ip, v4, flen - ip - ICRC_LEN);
}

/* One's-complement sum of the 20-byte IPv4 header at @p p (folded, not inverted): the
 * big-endian 32-bit words summed, then folded to 16 bits (RFC 1071). */
static uint32_t
ipv4_sum(const uint8_t *p)
{
	uint64_t s = (uint64_t)get32(p) + get32(p + 4) + get32(p + 8) + get32(p + 12) +
		     get32(p + 16);

	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint32_t)s;
}

/* ---- build ---- */

static bool
gid_is_v4_mapped(const uint8_t *g)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(g, prefix, sizeof(prefix)) == 0;
}

/* The fields that must fit their widths (TVer: be 0, as the parser demands); NULL when all
 * do, else the name of the first. */
static const char *
hdr_field_too_wide(const struct model_pkt_hdr *h, uint32_t f)
{
	if (h->dqpn > MASK24)
		return "dqpn";
	if (h->psn > MASK24)
		return "psn";
	if (h->tver != 0)
		return "tver (IBA defines version 0 only)";
	if ((f & MODEL_HDR_AETH) && h->aeth_msn > MASK24)
		return "aeth_msn";
	if ((f & MODEL_HDR_DETH) && h->deth_sqpn > MASK24)
		return "deth_sqpn";
	if (!h->ipv4 && h->flow_label > 0xfffffu)
		return "flow_label";
	if (h->ipv4 && (!gid_is_v4_mapped(h->sgid) || !gid_is_v4_mapped(h->dgid)))
		return "sgid/dgid (IPv4 needs IPv4-mapped GIDs)";
	return NULL;
}

/* Write the extension headers of @p f at @p p in their wire order; returns the end. */
static uint8_t *
put_ext(uint8_t *p, const struct model_pkt_hdr *h, uint32_t f)
{
	if (f & MODEL_HDR_DETH) {
		put32(p, h->deth_qkey);
		p[4] = 0;
		put24(p + 5, h->deth_sqpn);
		p += DETH_LEN;
	}
	if (f & MODEL_HDR_RETH) {
		put64(p, h->reth_va);
		put32(p + 8, h->reth_rkey);
		put32(p + 12, h->reth_len);
		p += RETH_LEN;
	}
	if (f & MODEL_HDR_ATOMICETH) {
		put64(p, h->atomic_va);
		put32(p + 8, h->atomic_rkey);
		put64(p + 12, h->atomic_swap_add);
		put64(p + 20, h->atomic_cmp);
		p += ATOMICETH_LEN;
	}
	if (f & MODEL_HDR_AETH) {
		p[0] = h->aeth_syndrome;
		put24(p + 1, h->aeth_msn);
		p += AETH_LEN;
	}
	if (f & MODEL_HDR_ATOMICACKETH) {
		put64(p, h->atomic_orig);
		p += ATOMICACKETH_LEN;
	}
	if (f & MODEL_HDR_IMMDT) {
		memcpy(p, &h->imm_be, IMMDT_LEN);
		p += IMMDT_LEN;
	}
	if (f & MODEL_HDR_IETH) {
		put32(p, h->ieth_rkey);
		p += IETH_LEN;
	}
	return p;
}

/* Write the IP header (@p ip_total bytes from it to the end of the frame) at @p p. */
static uint8_t *
put_ip(uint8_t *p, const struct model_pkt_hdr *h, uint32_t ip_total)
{
	if (h->ipv4) {
		p[0] = IPV4_VER_IHL;
		p[IPV4_OFF_TOS] = h->tos;
		put16(p + IPV4_OFF_TOTLEN, ip_total);
		put16(p + 4, h->ip_id);			/* identification */
		put16(p + IPV4_OFF_FRAG, IPV4_FLAG_DF);
		p[IPV4_OFF_TTL] = h->ttl;
		p[IPV4_OFF_PROTO] = IP_PROTO_UDP;
		put16(p + IPV4_OFF_CSUM, 0);
		memcpy(p + IPV4_OFF_SRC, h->sgid + 12, 4);
		memcpy(p + IPV4_OFF_DST, h->dgid + 12, 4);
		put16(p + IPV4_OFF_CSUM, ~ipv4_sum(p) & 0xffff);
		return p + IPV4_HLEN;
	}
	put32(p, 6u << 28 | (uint32_t)h->tos << 20 | h->flow_label);
	put16(p + IPV6_OFF_PLEN, ip_total - IPV6_HLEN);
	p[IPV6_OFF_NXT] = IP_PROTO_UDP;
	p[IPV6_OFF_HOPS] = h->ttl;
	memcpy(p + IPV6_OFF_SRC, h->sgid, 16);
	memcpy(p + IPV6_OFF_DST, h->dgid, 16);
	return p + IPV6_HLEN;
}

int
model_pkt_build_hdr(const struct model_pkt_hdr *h, uint32_t len, uint8_t *frame, uint32_t cap,
		    uint8_t **payload)
{
	uint32_t f = model_bth_hdrs(h->opcode), pad = (4 - len % 4) % 4, l2, ip_total;
	uint64_t total;
	const char *bad;
	uint8_t *p;

	if (!(f & MODEL_HDR_VALID)) {
		PKT_LOG(ERR, "build: unknown BTH opcode 0x%02x", h->opcode);
		return -EINVAL;
	}
	if (len > 0 && !(f & MODEL_HDR_PAYLOAD)) {
		PKT_LOG(ERR, "build: opcode 0x%02x carries no payload (%u bytes given)",
			h->opcode, len);
		return -EINVAL;
	}
	bad = hdr_field_too_wide(h, f);
	if (bad != NULL) {
		PKT_LOG(ERR, "build: field %s out of range", bad);
		return -EINVAL;
	}
	l2 = l2_len(h->has_vlan);
	total = (uint64_t)model_pkt_hdr_len(h) + len + pad + ICRC_LEN;
	if (total - l2 - (h->ipv4 ? 0 : IPV6_HLEN) > 0xffff) {
		PKT_LOG(ERR, "build: %u payload bytes exceed the IP length field", len);
		return -EINVAL;
	}
	if (total > cap) {
		PKT_LOG(ERR, "build: frame of %" PRIu64 " bytes, buffer of %u", total, cap);
		return -ENOSPC;
	}
	ip_total = (uint32_t)total - l2;

	/* Ethernet */
	memcpy(frame, h->dmac, 6);
	memcpy(frame + 6, h->smac, 6);
	p = frame + 12;
	if (h->has_vlan) {
		put16(p, ETHERTYPE_VLAN);
		put16(p + 2, h->vlan_tci);
		p += VLAN_HLEN;
	}
	put16(p, h->ipv4 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
	p = put_ip(p + 2, h, ip_total);

	/* UDP */
	put16(p, h->sport);
	put16(p + UDP_OFF_DPORT, MODEL_ROCE_UDP_PORT);
	put16(p + UDP_OFF_LEN, ip_total - (h->ipv4 ? IPV4_HLEN : IPV6_HLEN));
	put16(p + UDP_OFF_CSUM, 0);
	p += UDP_HLEN;

	/* BTH */
	p[0] = h->opcode;
	p[1] = (uint8_t)((h->se ? BTH_SE : 0) | (h->migreq ? BTH_MIGREQ : 0) |
			 pad << BTH_PAD_SHIFT);
	put16(p + 2, h->pkey);
	p[BTH_OFF_RESV] = 0;
	put24(p + 5, h->dqpn);
	p[8] = h->ackreq ? BTH_ACKREQ : 0;
	put24(p + 9, h->psn);
	p = put_ext(p + BTH_LEN, h, f);

	*payload = p;
	memset(p + len, 0, pad);
	return (int)total;
}

_Static_assert(MODEL_PKT_TMPL_KEY == 64 && offsetof(struct model_pkt_hdr, dqpn) == 60,
	       "the key fields of struct model_pkt_hdr have no padding");

/* Build @p t from the key fields of @p h. -EINVAL when one of them is out of range (the
 * caller leaves the frame to model_pkt_build_hdr(), which says which). */
static int
tmpl_init(struct model_pkt_tmpl *t, const struct model_pkt_hdr *h)
{
	uint8_t *p = t->bytes;

	t->valid = false;
	if (h->dqpn > MASK24 || h->tver != 0 || (!h->ipv4 && h->flow_label > 0xfffffu) ||
	    (h->ipv4 && (!gid_is_v4_mapped(h->sgid) || !gid_is_v4_mapped(h->dgid))))
		return -EINVAL;
	memcpy(t->key, h, MODEL_PKT_TMPL_KEY);
	t->l2 = (uint8_t)l2_len(h->has_vlan);
	memcpy(p, h->dmac, 6);
	memcpy(p + 6, h->smac, 6);
	p += 12;
	if (h->has_vlan) {
		put16(p, ETHERTYPE_VLAN);
		put16(p + 2, h->vlan_tci);
		p += VLAN_HLEN;
	}
	put16(p, h->ipv4 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
	p += 2;
	if (h->ipv4) {
		struct model_pkt_hdr z = *h;

		z.ip_id = 0;
		p = put_ip(p, &z, 0);
		put16(p - IPV4_HLEN + IPV4_OFF_CSUM, 0);
		t->ip_sum = ipv4_sum(p - IPV4_HLEN);
	} else {
		p = put_ip(p, h, IPV6_HLEN);
		t->ip_sum = 0;
	}
	put16(p, h->sport);
	put16(p + UDP_OFF_DPORT, MODEL_ROCE_UDP_PORT);
	put16(p + UDP_OFF_LEN, 0);
	put16(p + UDP_OFF_CSUM, 0);
	p += UDP_HLEN;
	memset(p, 0, BTH_LEN);
	put16(p + 2, h->pkey);
	put24(p + 5, h->dqpn);
	p += BTH_LEN;
	t->len = (uint8_t)(p - t->bytes);
	t->valid = true;
	return 0;
}

int
model_pkt_build_hdr_tmpl(struct model_pkt_tmpl *t, const struct model_pkt_hdr *h, uint32_t len,
			 uint8_t *frame, uint32_t cap, uint8_t **payload)
{
	uint32_t f = model_bth_hdrs(h->opcode), pad = (4 - len % 4) % 4, ip_total, total, s;
	uint8_t *ip, *p;

	if ((!t->valid || memcmp(t->key, h, MODEL_PKT_TMPL_KEY) != 0) && tmpl_init(t, h) != 0)
		return model_pkt_build_hdr(h, len, frame, cap, payload);
	/* what model_pkt_build_hdr() refuses, left to it to say so */
	if (!(f & MODEL_HDR_VALID) || (len > 0 && !(f & MODEL_HDR_PAYLOAD)) || h->psn > MASK24 ||
	    ((f & MODEL_HDR_AETH) && h->aeth_msn > MASK24) ||
	    ((f & MODEL_HDR_DETH) && h->deth_sqpn > MASK24) || len > MODEL_PKT_MAX)
		return model_pkt_build_hdr(h, len, frame, cap, payload);
	total = t->len + op_ext_len[h->opcode] + len + pad + ICRC_LEN;
	if (total > cap)
		return model_pkt_build_hdr(h, len, frame, cap, payload);
	ip_total = total - t->l2;

	memcpy(frame, t->bytes, t->len);
	ip = frame + t->l2;
	if (h->ipv4) {
		put16(ip + IPV4_OFF_TOTLEN, ip_total);
		put16(ip + 4, h->ip_id);
		s = t->ip_sum + ip_total + h->ip_id;
		s = (s & 0xffff) + (s >> 16);
		s = (s & 0xffff) + (s >> 16);
		put16(ip + IPV4_OFF_CSUM, ~s & 0xffff);
		p = ip + IPV4_HLEN;
		put16(p + UDP_OFF_LEN, ip_total - IPV4_HLEN);
	} else {
		put16(ip + IPV6_OFF_PLEN, ip_total - IPV6_HLEN);
		p = ip + IPV6_HLEN;
		put16(p + UDP_OFF_LEN, ip_total - IPV6_HLEN);
	}
	p += UDP_HLEN;
	p[0] = h->opcode;
	p[1] = (uint8_t)((h->se ? BTH_SE : 0) | (h->migreq ? BTH_MIGREQ : 0) |
			 pad << BTH_PAD_SHIFT);
	p[8] = h->ackreq ? BTH_ACKREQ : 0;
	put24(p + 9, h->psn);
	p = put_ext(p + BTH_LEN, h, f);

	*payload = p;
	memset(p + len, 0, pad);
	return (int)total;
}

int
model_pkt_build_bare(const struct model_pkt_hdr *h, uint32_t len, uint8_t *frame, uint32_t cap,
		     uint8_t **payload)
{
	uint32_t f = model_bth_hdrs(h->opcode), hl = model_pkt_hdr_len(h);
	uint32_t total = hl + len + (4 - len % 4) % 4 + ICRC_LEN;

	/* what model_pkt_build_hdr() refuses, left to it to say so (and then built in full) */
	if (!(f & MODEL_HDR_VALID) || (len > 0 && !(f & MODEL_HDR_PAYLOAD)) ||
	    len > MODEL_PKT_MAX || total > cap || hdr_field_too_wide(h, f) != NULL)
		return model_pkt_build_hdr(h, len, frame, cap, payload);
	/* the MACs: what a switch forwards by */
	memcpy(frame, h->dmac, 6);
	memcpy(frame + 6, h->smac, 6);
	*payload = frame + hl;
	return (int)total;
}

int
model_pkt_desc_fill(const struct model_pkt_desc *dc, uint8_t *frame, uint32_t flen)
{
	uint8_t *p;
	int n;

	if (dc->tr.count > 1) {
		PKT_LOG(ERR, "fill: a train of %u packets is not one frame", dc->tr.count);
		return -EMSGSIZE;
	}
	n = model_pkt_build_hdr(&dc->h, dc->len, frame, flen, &p);
	if (n < 0)
		return n;
	if ((uint32_t)n != flen || p != frame + dc->payload_off) {
		PKT_LOG(ERR, "fill: the description gives a frame of %d bytes, payload at %u; the "
			"frame has %u bytes, payload at %u", n, (uint32_t)(p - frame), flen,
			dc->payload_off);
		return -EINVAL;
	}
	return 0;
}

uint32_t
model_pkt_frame_len(const struct model_pkt_hdr *h, uint8_t opcode, uint32_t len)
{
	return hdr_len_op(h, opcode) + len + (4 - len % 4) % 4 + ICRC_LEN;
}

uint32_t
model_pkt_train_pkt(const struct model_pkt_desc *dc, uint32_t i, struct model_pkt_hdr *h,
		    uint32_t *off, uint32_t *len)
{
	const struct model_pkt_train *tr = &dc->tr;

	/* the first packet's header as its frame's parse gives it; the next ones differ in
	 * what follows from the opcode, the PSN, the IPv4 ID and the BTH flags */
	memcpy(h, &dc->h, sizeof(*h));
	*off = i * tr->stride;
	*len = i + 1 < tr->count ? tr->stride : dc->len - *off;
	if (i > 0) {
		uint32_t id = dc->h.ip_id + i;	/* the port's IPv4 IDs skip 0 */

		if (h->ipv4)
			h->ip_id = (uint16_t)(id > 0xffffu ? id - 0xffffu : id);
		h->psn = (dc->h.psn + i) & MASK24;
		h->opcode = i + 1 < tr->count ? tr->mid_op : tr->last_op;
		h->reth_va = 0;		/* only a FIRST has a RETH */
		h->reth_rkey = 0;
		h->reth_len = 0;
	}
	if (i + 1 == tr->count) {
		uint32_t f = model_bth_ops[h->opcode].hdrs;

		h->se = tr->last_se;
		h->imm_be = (f & MODEL_HDR_IMMDT) ? tr->last_imm_be : 0;
		h->ieth_rkey = (f & MODEL_HDR_IETH) ? tr->last_ieth_rkey : 0;
	}
	h->ackreq = (tr->ack_mask >> i) & 1u;
	return model_pkt_frame_len(h, h->opcode, *len);
}

int
model_pkt_build(const struct model_pkt_hdr *h, const void *payload, uint32_t len,
		uint8_t *frame, uint32_t cap)
{
	uint32_t l2 = l2_len(h->has_vlan);
	uint8_t *p;
	int n;

	n = model_pkt_build_hdr(h, len, frame, cap, &p);
	if (n < 0)
		return n;
	if (len > 0)
		memcpy(p, payload, len);
	put_le32(frame + n - ICRC_LEN,
		 icrc_compute(frame + l2, h->ipv4, (uint32_t)n - l2 - ICRC_LEN));
	return n;
}

/* ---- parse ---- */

static int
bad(const char *why, uint32_t v)
{
	PKT_LOG(DEBUG, "parse: %s (%u)", why, v);
	return -EBADMSG;
}

/* Check and decode the IP header at @p p (@p n bytes to the end of the frame); returns the
 * header length or a negative errno. */
static int
parse_ip(const uint8_t *p, uint32_t n, bool v4, struct model_pkt_hdr *h)
{
	if (v4) {
		if (n < IPV4_HLEN)
			return bad("frame ends inside the IPv4 header", n);
		if (p[0] != IPV4_VER_IHL)
			return bad("IPv4 version / header length byte", p[0]);
		if (get16(p + IPV4_OFF_TOTLEN) != n)
			return bad("IPv4 total length differs from the frame", get16(p + 2));
		if (get16(p + IPV4_OFF_FRAG) & IPV4_FRAG_MASK)
			return bad("IPv4 fragment", get16(p + IPV4_OFF_FRAG));
		if (p[IPV4_OFF_PROTO] != IP_PROTO_UDP)
			return bad("IPv4 protocol is not UDP", p[IPV4_OFF_PROTO]);
		if (ipv4_sum(p) != 0xffff)
			return bad("IPv4 header checksum", get16(p + IPV4_OFF_CSUM));
		h->tos = p[IPV4_OFF_TOS];
		h->ttl = p[IPV4_OFF_TTL];
		h->ip_id = (uint16_t)get16(p + 4);
		memset(h->sgid, 0, 10);
		memset(h->dgid, 0, 10);
		h->sgid[10] = h->sgid[11] = h->dgid[10] = h->dgid[11] = 0xff;
		memcpy(h->sgid + 12, p + IPV4_OFF_SRC, 4);
		memcpy(h->dgid + 12, p + IPV4_OFF_DST, 4);
		return IPV4_HLEN;
	}
	if (n < IPV6_HLEN)
		return bad("frame ends inside the IPv6 header", n);
	if (p[0] >> 4 != 6)
		return bad("IPv6 version", p[0] >> 4);
	if (get16(p + IPV6_OFF_PLEN) != n - IPV6_HLEN)
		return bad("IPv6 payload length differs from the frame", get16(p + IPV6_OFF_PLEN));
	if (p[IPV6_OFF_NXT] != IP_PROTO_UDP)
		return bad("IPv6 next header is not UDP", p[IPV6_OFF_NXT]);
	h->tos = (uint8_t)(get16(p) >> 4);
	h->flow_label = get24(p + 1) & 0xfffffu;
	h->ttl = p[IPV6_OFF_HOPS];
	memcpy(h->sgid, p + IPV6_OFF_SRC, 16);
	memcpy(h->dgid, p + IPV6_OFF_DST, 16);
	return IPV6_HLEN;
}

/* Decode the extension headers of @p f at @p p (their presence already checked). */
static const uint8_t *
get_ext(const uint8_t *p, struct model_pkt_hdr *h, uint32_t f)
{
	if (f & MODEL_HDR_DETH) {
		h->deth_qkey = get32(p);
		h->deth_sqpn = get24(p + 5);
		p += DETH_LEN;
	}
	if (f & MODEL_HDR_RETH) {
		h->reth_va = get64(p);
		h->reth_rkey = get32(p + 8);
		h->reth_len = get32(p + 12);
		p += RETH_LEN;
	}
	if (f & MODEL_HDR_ATOMICETH) {
		h->atomic_va = get64(p);
		h->atomic_rkey = get32(p + 8);
		h->atomic_swap_add = get64(p + 12);
		h->atomic_cmp = get64(p + 20);
		p += ATOMICETH_LEN;
	}
	if (f & MODEL_HDR_AETH) {
		h->aeth_syndrome = p[0];
		h->aeth_msn = get24(p + 1);
		p += AETH_LEN;
	}
	if (f & MODEL_HDR_ATOMICACKETH) {
		h->atomic_orig = get64(p);
		p += ATOMICACKETH_LEN;
	}
	if (f & MODEL_HDR_IMMDT) {
		memcpy(&h->imm_be, p, IMMDT_LEN);
		p += IMMDT_LEN;
	}
	if (f & MODEL_HDR_IETH) {
		h->ieth_rkey = get32(p);
		p += IETH_LEN;
	}
	return p;
}

void
model_pkt_hdr_copy(struct model_pkt_hdr *dst, const struct model_pkt_hdr *h)
{
	const size_t ext = offsetof(struct model_pkt_hdr, reth_va);
	uint32_t f = model_bth_ops[h->opcode].hdrs;

	/* up to the BTH (the padding too), then the extension headers the opcode carries */
	memcpy(dst, h, ext);
	memset((uint8_t *)dst + ext, 0, sizeof(*dst) - ext);
	/* what the frame does not carry: a TCI without its tag, the other IP version's field */
	if (!h->has_vlan)
		dst->vlan_tci = 0;
	if (h->ipv4)
		dst->flow_label = 0;
	else
		dst->ip_id = 0;
	if (f & MODEL_HDR_DETH) {
		dst->deth_qkey = h->deth_qkey;
		dst->deth_sqpn = h->deth_sqpn;
	}
	if (f & MODEL_HDR_RETH) {
		dst->reth_va = h->reth_va;
		dst->reth_rkey = h->reth_rkey;
		dst->reth_len = h->reth_len;
	}
	if (f & MODEL_HDR_ATOMICETH) {
		dst->atomic_va = h->atomic_va;
		dst->atomic_rkey = h->atomic_rkey;
		dst->atomic_swap_add = h->atomic_swap_add;
		dst->atomic_cmp = h->atomic_cmp;
	}
	if (f & MODEL_HDR_AETH) {
		dst->aeth_syndrome = h->aeth_syndrome;
		dst->aeth_msn = h->aeth_msn;
	}
	if (f & MODEL_HDR_ATOMICACKETH)
		dst->atomic_orig = h->atomic_orig;
	if (f & MODEL_HDR_IMMDT)
		dst->imm_be = h->imm_be;
	if (f & MODEL_HDR_IETH)
		dst->ieth_rkey = h->ieth_rkey;
}

int
model_pkt_parse(const uint8_t *frame, uint32_t flen, struct model_pkt_hdr *h,
		const uint8_t **payload, uint32_t *len)
{
	return model_pkt_parse_ex(frame, flen, true, h, payload, len);
}

int
model_pkt_parse_ex(const uint8_t *frame, uint32_t flen, bool sealed, struct model_pkt_hdr *h,
		   const uint8_t **payload, uint32_t *len)
{
	const uint8_t *p, *bth, *end = frame + flen;
	uint32_t l2, f, pad, rest;
	bool v4 = false;
	int r;

	memset(h, 0, sizeof(*h));
	l2 = ip_offset(frame, flen, &v4);
	if (l2 == 0)
		return bad("not an IPv4 / IPv6 Ethernet frame", flen);
	memcpy(h->dmac, frame, 6);
	memcpy(h->smac, frame + 6, 6);
	h->has_vlan = l2 != ETH_HLEN;
	if (h->has_vlan)
		h->vlan_tci = (uint16_t)get16(frame + 14);
	h->ipv4 = v4;
	p = frame + l2;
	r = parse_ip(p, flen - l2, v4, h);
	if (r < 0)
		return r;
	p += r;

	/* UDP */
	if ((size_t)(end - p) < UDP_HLEN)
		return bad("frame ends inside the UDP header", (uint32_t)(end - p));
	if (get16(p + UDP_OFF_DPORT) != MODEL_ROCE_UDP_PORT)
		return bad("UDP destination port is not RoCEv2", get16(p + UDP_OFF_DPORT));
	if (get16(p + UDP_OFF_LEN) != (uint32_t)(end - p))
		return bad("UDP length differs from the frame", get16(p + UDP_OFF_LEN));
	h->sport = (uint16_t)get16(p);
	p += UDP_HLEN;

	/* BTH */
	if ((size_t)(end - p) < BTH_LEN + ICRC_LEN)
		return bad("frame ends inside the BTH", (uint32_t)(end - p));
	bth = p;
	f = model_bth_hdrs(bth[0]);
	if (!(f & MODEL_HDR_VALID))
		return bad("unknown BTH opcode", bth[0]);
	if ((bth[1] & BTH_TVER_MASK) != 0)
		return bad("BTH transport version", bth[1] & BTH_TVER_MASK);
	pad = (bth[1] >> BTH_PAD_SHIFT) & BTH_PAD_MASK;
	p += BTH_LEN;
	if ((size_t)(end - p) < op_ext_len[bth[0]] + ICRC_LEN)
		return bad("frame ends inside the extension headers", (uint32_t)(end - p));
	p = get_ext(p, h, f);
	rest = (uint32_t)(end - p) - ICRC_LEN;
	if (!(f & MODEL_HDR_PAYLOAD) && (rest != 0 || pad != 0))
		return bad("payload or pad on an opcode without payload", rest);
	if (rest < pad || rest % 4 != 0)
		return bad("payload plus pad is not a multiple of 4 or shorter than PadCnt", rest);

	if (sealed &&
	    icrc_compute(frame + l2, v4, flen - l2 - ICRC_LEN) != get_le32(end - ICRC_LEN)) {
		PKT_LOG(DEBUG, "parse: ICRC mismatch (opcode 0x%02x psn %u)", bth[0],
			get24(bth + 9));
		return -EILSEQ;
	}

	h->opcode = bth[0];
	h->se = (bth[1] & BTH_SE) != 0;
	h->migreq = (bth[1] & BTH_MIGREQ) != 0;
	h->pkey = (uint16_t)get16(bth + 2);
	h->dqpn = get24(bth + 5);
	h->ackreq = (bth[8] & BTH_ACKREQ) != 0;
	h->psn = get24(bth + 9);
	if (payload != NULL)
		*payload = p;
	if (len != NULL)
		*len = rest - pad;
	return 0;
}
