/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * The model's RoCEv2 codec (model/model_pkt.c) against independent expectations:
 *  - CRC32 against the standard check values;
 *  - a RoCEv2 CNP captured on a ConnectX-4 Lx (published in scapy's test/contrib/roce.uts),
 *    whose ICRC the hardware computed;
 *  - frames built by tests/irdma/gen_model_pkt_vectors.py (struct.pack and zlib.crc32, not
 *    this code): model_pkt_build must produce them byte for byte, model_pkt_parse decode them;
 *  - the IBA opcode table (which headers each opcode carries) written out here again;
 *  - round trips of random headers, build refusals, and parse against truncated, random and
 *    single-byte-corrupted frames (every corruption is refused except in the bytes neither
 *    the ICRC nor the parser covers, which are listed in covered_byte()).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_pkt.h"
#include "test.h"
#include "test_model_gid.h"

#include "model_pkt_vectors.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* The fields every generator vector shares (BASE in the script). */
static void
base_hdr(struct model_pkt_hdr *h)
{
	static const uint8_t dmac[6] = { 2, 0, 0, 0, 0, 2 }, smac[6] = { 2, 0, 0, 0, 0, 1 };

	memset(h, 0, sizeof(*h));
	memcpy(h->dmac, dmac, 6);
	memcpy(h->smac, smac, 6);
	h->ipv4 = true;
	h->ttl = 64;
	h->sport = 0xc000;
	h->migreq = true;
	h->pkey = 0xffff;
	h->dqpn = 0x11;
}

static uint32_t
be32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

/* ---- CRC32 ---- */

static void
test_crc32_check_values(void)
{
	static const uint8_t zeros[32];
	uint8_t ones[32];
	uint8_t big[1000];

	/* The catalogue check value of CRC-32 (ISO-HDLC, as zlib). */
	TEST_CHECK_EQ(model_crc32(0, "123456789", 9), 0xcbf43926u);
	TEST_CHECK_EQ(model_crc32(0, "", 0), 0);
	TEST_CHECK_EQ(model_crc32(0, "a", 1), 0xe8b7be43u);
	TEST_CHECK_EQ(model_crc32(0, "The quick brown fox jumps over the lazy dog", 43),
		      0x414fa339u);
	/* 32 zero bytes and 32 0xff bytes (values from python3's zlib.crc32). */
	TEST_CHECK_EQ(model_crc32(0, zeros, 32), 0x190a55adu);
	memset(ones, 0xff, sizeof(ones));
	TEST_CHECK_EQ(model_crc32(0, ones, 32), 0xff6cab0bu);
	/* Chaining at every split point gives the one-shot value (slice-by-8 vs tail). */
	for (unsigned int i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + 3);
	{
		uint32_t whole = model_crc32(0, big, sizeof(big));

		for (unsigned int k = 0; k <= 17; k++)
			TEST_CHECK_EQ(model_crc32(model_crc32(0, big, k), big + k,
						  sizeof(big) - k), whole);
		TEST_CHECK_EQ(whole, 0x17bc2a46u);	/* zlib.crc32(bytes((i*7+3)&255 ...)) */
	}
}

/* CRC32 one bit at a time, straight from the definition (reflected, all-ones init and xor). */
static uint32_t
crc32_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n-- > 0) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
	}
	return ~c;
}

/* Every length to 600 at four alignments, and chained in two pieces, against the reference
 * (covers the folding path from 64 bytes and the tables below; run with
 * MODEL_CRC32_NO_CLMUL=1 for the tables alone). */
static void
test_crc32_lengths(void)
{
	static uint8_t buf[700];
	unsigned int bad = 0;

	for (unsigned int i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rnd();
	for (unsigned int off = 0; off < 4; off++)
		for (unsigned int n = 0; n <= 600; n++) {
			uint32_t ref = crc32_bitwise(buf + off, n);
			unsigned int cut = n / 3;

			bad += model_crc32(0, buf + off, n) != ref;
			bad += model_crc32(model_crc32(0, buf + off, cut), buf + off + cut,
					   n - cut) != ref;
		}
	TEST_CHECK_EQ(bad, 0);
	printf("#   MODEL_CRC32_NO_CLMUL %s\n", getenv("MODEL_CRC32_NO_CLMUL") ? "set" : "unset");
}

/*
 * A RoCEv2 CNP (opcode 0x81) captured on a ConnectX-4 Lx, as published in scapy's
 * test/contrib/roce.uts; its last four bytes are the ICRC the NIC computed. The model does
 * not know the CNP opcode, so parsing it is refused; the ICRC must still agree.
 */
static const uint8_t cnp_cx4[74] = {
	0xe4, 0x1d, 0x2d, 0xab, 0x2b, 0xc2, 0x7c, 0xfe, 0x90, 0x64, 0x3b, 0x32, 0x08, 0x00,
	0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x91, 0x61, 0x0a, 0x00,
	0x11, 0x01, 0x0a, 0x00, 0x12, 0x01, 0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,
	0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x82, 0xfd, 0x00, 0x2a,
};

static void
test_icrc_hardware_capture(void)
{
	struct model_pkt_hdr h;
	uint8_t f[sizeof(cnp_cx4)];

	/* The ICRC field is the CRC stored least significant byte first. */
	TEST_CHECK_EQ(model_pkt_icrc(cnp_cx4, sizeof(cnp_cx4)), 0x2a00fd82u);
	/* The masked fields: TOS, TTL, IP checksum, UDP checksum, BTH byte 4 do not count. */
	memcpy(f, cnp_cx4, sizeof(f));
	f[15] = 0;		/* TOS */
	f[22] = 1;		/* TTL */
	f[24] = f[25] = 0;	/* IP checksum */
	f[40] = f[41] = 0x55;	/* UDP checksum */
	f[46] = 0x00;		/* BTH byte 4 (BECN) */
	TEST_CHECK_EQ(model_pkt_icrc(f, sizeof(f)), 0x2a00fd82u);
	/* The IP identification is covered. */
	f[19] ^= 1;
	TEST_CHECK(model_pkt_icrc(f, sizeof(f)) != 0x2a00fd82u);
	TEST_CHECK_EQ(model_pkt_parse(cnp_cx4, sizeof(cnp_cx4), &h, NULL, NULL), -EBADMSG);
}

/* ---- the opcode table ---- */

static void
test_opcode_table(void)
{
	/* IBA vol. 1 §9.2 / table 38, written out again: opcode -> headers after the BTH. */
	static const struct {
		uint8_t op;
		uint32_t hdrs;
		uint32_t ext_bytes;
	} t[] = {
		{ 0x00, MODEL_HDR_PAYLOAD, 0 },
		{ 0x01, MODEL_HDR_PAYLOAD, 0 },
		{ 0x02, MODEL_HDR_PAYLOAD, 0 },
		{ 0x03, MODEL_HDR_IMMDT | MODEL_HDR_PAYLOAD, 4 },
		{ 0x04, MODEL_HDR_PAYLOAD, 0 },
		{ 0x05, MODEL_HDR_IMMDT | MODEL_HDR_PAYLOAD, 4 },
		{ 0x06, MODEL_HDR_RETH | MODEL_HDR_PAYLOAD, 16 },
		{ 0x07, MODEL_HDR_PAYLOAD, 0 },
		{ 0x08, MODEL_HDR_PAYLOAD, 0 },
		{ 0x09, MODEL_HDR_IMMDT | MODEL_HDR_PAYLOAD, 4 },
		{ 0x0a, MODEL_HDR_RETH | MODEL_HDR_PAYLOAD, 16 },
		{ 0x0b, MODEL_HDR_RETH | MODEL_HDR_IMMDT | MODEL_HDR_PAYLOAD, 20 },
		{ 0x0c, MODEL_HDR_RETH, 16 },
		{ 0x0d, MODEL_HDR_AETH | MODEL_HDR_PAYLOAD, 4 },
		{ 0x0e, MODEL_HDR_PAYLOAD, 0 },
		{ 0x0f, MODEL_HDR_AETH | MODEL_HDR_PAYLOAD, 4 },
		{ 0x10, MODEL_HDR_AETH | MODEL_HDR_PAYLOAD, 4 },
		{ 0x11, MODEL_HDR_AETH, 4 },
		{ 0x12, MODEL_HDR_AETH | MODEL_HDR_ATOMICACKETH, 12 },
		{ 0x13, MODEL_HDR_ATOMICETH, 28 },
		{ 0x14, MODEL_HDR_ATOMICETH, 28 },
		{ 0x16, MODEL_HDR_IETH | MODEL_HDR_PAYLOAD, 4 },
		{ 0x17, MODEL_HDR_IETH | MODEL_HDR_PAYLOAD, 4 },
		{ 0x64, MODEL_HDR_DETH | MODEL_HDR_PAYLOAD, 8 },
		{ 0x65, MODEL_HDR_DETH | MODEL_HDR_IMMDT | MODEL_HDR_PAYLOAD, 12 },
	};
	unsigned int known = 0;
	struct model_pkt_hdr h;

	for (unsigned int op = 0; op < 256; op++)
		if (model_bth_hdrs((uint8_t)op) != 0)
			known++;
	TEST_CHECK_EQ(known, sizeof(t) / sizeof(t[0]));
	base_hdr(&h);
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		TEST_CHECK_EQ(model_bth_hdrs(t[i].op), t[i].hdrs | MODEL_HDR_VALID);
		h.opcode = t[i].op;
		h.ipv4 = true;
		h.has_vlan = false;
		TEST_CHECK_EQ(model_pkt_hdr_len(&h), 14 + 20 + 8 + 12 + t[i].ext_bytes);
		h.ipv4 = false;
		h.has_vlan = true;
		TEST_CHECK_EQ(model_pkt_hdr_len(&h), 18 + 40 + 8 + 12 + t[i].ext_bytes);
	}
	/* UC, RD, CNP and the reserved RC codes are unknown. */
	TEST_CHECK_EQ(model_bth_hdrs(0x15), 0);
	TEST_CHECK_EQ(model_bth_hdrs(0x20), 0);
	TEST_CHECK_EQ(model_bth_hdrs(0x24), 0);
	TEST_CHECK_EQ(model_bth_hdrs(0x81), 0);
	TEST_CHECK_EQ(model_bth_hdrs(0xff), 0);
}

/* ---- the generator's vectors ---- */

struct vec {
	const char *name;
	const uint8_t *bytes;
	uint32_t len;
	uint32_t icrc;
	uint32_t payload;
	struct model_pkt_hdr h;
};

static struct vec vecs[10];
static unsigned int nvecs;
static uint8_t pay_big[4095];

/* The headers of the generator's VECTORS, written again from the script's dictionaries. */
static void
vecs_init(void)
{
	struct model_pkt_hdr *h;
	unsigned int i = 0;

	memset(pay_big, 0x80, sizeof(pay_big));
#define VEC_ICRC(n, up) do { \
		vecs[i].name = #n; \
		vecs[i].bytes = vec_##n; \
		vecs[i].len = sizeof(vec_##n); \
		vecs[i].icrc = VEC_##up##_ICRC; \
		vecs[i].payload = VEC_##up##_PAYLOAD; \
		h = &vecs[i].h; \
		base_hdr(h); \
	} while (0)

	VEC_ICRC(send_only_v4, SEND_ONLY_V4);
	h->opcode = MODEL_RC_SEND_ONLY;
	gid_v4(h->sgid, 10, 0, 0, 1);
	gid_v4(h->dgid, 10, 0, 0, 2);
	h->ackreq = true;
	h->psn = 0x123456;
	i++;

	VEC_ICRC(send_only_imm_v4_vlan, SEND_ONLY_IMM_V4_VLAN);
	h->opcode = MODEL_RC_SEND_ONLY_IMM;
	h->has_vlan = true;
	h->vlan_tci = 0x6064;
	gid_v4(h->sgid, 192, 168, 1, 10);
	gid_v4(h->dgid, 192, 168, 1, 20);
	h->tos = 0x02;
	h->se = true;
	h->dqpn = 0xabcdef;
	h->psn = 0xffffff;
	h->imm_be = be32(0xdeadbeef);
	i++;

	VEC_ICRC(write_only_imm_v6, WRITE_ONLY_IMM_V6);
	h->opcode = MODEL_RC_WRITE_ONLY_IMM;
	h->ipv4 = false;
	h->sgid[0] = h->dgid[0] = 0xfe;
	h->sgid[1] = h->dgid[1] = 0x80;
	h->sgid[15] = 1;
	h->dgid[15] = 2;
	h->tos = 0x68;
	h->flow_label = 0x12345;
	h->ttl = 1;
	h->reth_va = 0x1122334455667788ull;
	h->reth_rkey = 0x99aabbcc;
	h->reth_len = 6;
	h->imm_be = be32(0x01020304);
	h->sport = 0xffff;
	i++;

	VEC_ICRC(read_req_v4, READ_REQ_V4);
	h->opcode = MODEL_RC_READ_REQ;
	gid_v4(h->sgid, 10, 1, 2, 3);
	gid_v4(h->dgid, 10, 3, 2, 1);
	h->reth_va = 0x7f0000001000ull;
	h->reth_rkey = 0x1234;
	h->reth_len = 0x10000;
	h->psn = 7;
	i++;

	VEC_ICRC(read_resp_only_v6_vlan, READ_RESP_ONLY_V6_VLAN);
	h->opcode = MODEL_RC_READ_RESP_ONLY;
	h->has_vlan = true;
	h->vlan_tci = 0xe001;
	h->ipv4 = false;
	h->sgid[0] = h->dgid[0] = 0x20;
	h->sgid[1] = h->dgid[1] = 0x01;
	h->sgid[2] = h->dgid[2] = 0x0d;
	h->sgid[3] = h->dgid[3] = 0xb8;
	h->sgid[15] = 0x10;
	h->dgid[15] = 0x20;
	h->aeth_syndrome = 0x1f;
	h->aeth_msn = 0x102;
	i++;

	VEC_ICRC(ack_v4, ACK_V4);
	h->opcode = MODEL_RC_ACK;
	gid_v4(h->sgid, 10, 0, 0, 2);
	gid_v4(h->dgid, 10, 0, 0, 1);
	h->aeth_syndrome = MODEL_AETH_NAK_PSN_SEQ;
	h->aeth_msn = 0xfffffe;
	h->migreq = false;
	i++;

	VEC_ICRC(atomic_ack_v6, ATOMIC_ACK_V6);
	h->opcode = MODEL_RC_ATOMIC_ACK;
	h->ipv4 = false;
	gid_v4(h->sgid, 1, 2, 3, 4);		/* an IPv4-mapped address carried in IPv6 */
	h->dgid[0] = 0x20;
	h->dgid[1] = 0x01;
	h->dgid[2] = 0x0d;
	h->dgid[3] = 0xb8;
	h->dgid[15] = 1;
	h->aeth_syndrome = MODEL_AETH_ACK;
	h->aeth_msn = 1;
	h->atomic_orig = 0x0102030405060708ull;
	i++;

	VEC_ICRC(cmp_swap_v4, CMP_SWAP_V4);
	h->opcode = MODEL_RC_CMP_SWAP;
	gid_v4(h->sgid, 10, 0, 0, 1);
	gid_v4(h->dgid, 10, 0, 0, 2);
	h->atomic_va = 0x1000;
	h->atomic_rkey = 0x42;
	h->atomic_swap_add = ~0ull;
	h->atomic_cmp = 0x8000000000000001ull;
	h->ackreq = true;
	i++;

	VEC_ICRC(send_only_inv_v4, SEND_ONLY_INV_V4);
	h->opcode = MODEL_RC_SEND_ONLY_INV;
	gid_v4(h->sgid, 10, 0, 0, 1);
	gid_v4(h->dgid, 10, 0, 0, 2);
	h->ieth_rkey = 0xcafef00d;
	i++;

	VEC_ICRC(ud_send_imm_v4, UD_SEND_IMM_V4);
	h->opcode = MODEL_UD_SEND_ONLY_IMM;
	gid_v4(h->sgid, 172, 16, 0, 1);
	gid_v4(h->dgid, 172, 16, 0, 2);
	h->pkey = 0x8001;
	h->dqpn = 1;
	h->deth_qkey = 0x80010000;
	h->deth_sqpn = 0xfed;
	h->imm_be = be32(0x0a0b0c0d);
	h->tos = 0xfc;
	h->ttl = 255;
	i++;
#undef VEC_ICRC
	nvecs = i;
}

/* The payload the script put in vector @p i. */
static const uint8_t *
vec_payload(unsigned int i)
{
	static uint8_t seq[64];

	for (unsigned int k = 0; k < sizeof(seq); k++)
		seq[k] = (uint8_t)k;
	if (strcmp(vecs[i].name, "send_only_v4") == 0)
		return (const uint8_t *)"hello";
	if (strcmp(vecs[i].name, "send_only_imm_v4_vlan") == 0)
		return seq;
	if (strcmp(vecs[i].name, "write_only_imm_v6") == 0)
		return (const uint8_t *)"abcdef";
	if (strcmp(vecs[i].name, "read_resp_only_v6_vlan") == 0)
		return pay_big;
	if (strcmp(vecs[i].name, "send_only_inv_v4") == 0)
		return (const uint8_t *)"xy";
	if (strcmp(vecs[i].name, "ud_send_imm_v4") == 0)
		return seq;	/* 00 01 02 */
	return NULL;
}

static void
check_bytes(const char *what, const uint8_t *got, const uint8_t *exp, uint32_t n)
{
	unsigned int shown = 0;

	if (memcmp(got, exp, n) == 0)
		return;
	test_case_failures++;
	printf("#   %s: bytes differ from the generator's frame\n", what);
	for (uint32_t i = 0; i < n && shown < 8; i++)
		if (got[i] != exp[i]) {
			printf("#     byte %u: got 0x%02x expected 0x%02x\n", i, got[i], exp[i]);
			shown++;
		}
}

/* Every field of @p a the opcode carries equals that of @p b. */
static void
check_hdr_eq(const char *what, const struct model_pkt_hdr *a, const struct model_pkt_hdr *b)
{
	uint32_t f = model_bth_hdrs(b->opcode);
	int before = test_case_failures;

	TEST_CHECK(memcmp(a->dmac, b->dmac, 6) == 0);
	TEST_CHECK(memcmp(a->smac, b->smac, 6) == 0);
	TEST_CHECK_EQ(a->has_vlan, b->has_vlan);
	if (b->has_vlan)
		TEST_CHECK_EQ(a->vlan_tci, b->vlan_tci);
	TEST_CHECK_EQ(a->ipv4, b->ipv4);
	TEST_CHECK(memcmp(a->sgid, b->sgid, 16) == 0);
	TEST_CHECK(memcmp(a->dgid, b->dgid, 16) == 0);
	TEST_CHECK_EQ(a->tos, b->tos);
	TEST_CHECK_EQ(a->ttl, b->ttl);
	if (!b->ipv4)
		TEST_CHECK_EQ(a->flow_label, b->flow_label);
	TEST_CHECK_EQ(a->sport, b->sport);
	TEST_CHECK_EQ(a->opcode, b->opcode);
	TEST_CHECK_EQ(a->se, b->se);
	TEST_CHECK_EQ(a->migreq, b->migreq);
	TEST_CHECK_EQ(a->tver, b->tver);
	TEST_CHECK_EQ(a->pkey, b->pkey);
	TEST_CHECK_EQ(a->dqpn, b->dqpn);
	TEST_CHECK_EQ(a->ackreq, b->ackreq);
	TEST_CHECK_EQ(a->psn, b->psn);
	if (f & MODEL_HDR_RETH) {
		TEST_CHECK_EQ(a->reth_va, b->reth_va);
		TEST_CHECK_EQ(a->reth_rkey, b->reth_rkey);
		TEST_CHECK_EQ(a->reth_len, b->reth_len);
	}
	if (f & MODEL_HDR_AETH) {
		TEST_CHECK_EQ(a->aeth_syndrome, b->aeth_syndrome);
		TEST_CHECK_EQ(a->aeth_msn, b->aeth_msn);
	}
	if (f & MODEL_HDR_IMMDT)
		TEST_CHECK_EQ(a->imm_be, b->imm_be);
	if (f & MODEL_HDR_IETH)
		TEST_CHECK_EQ(a->ieth_rkey, b->ieth_rkey);
	if (f & MODEL_HDR_DETH) {
		TEST_CHECK_EQ(a->deth_qkey, b->deth_qkey);
		TEST_CHECK_EQ(a->deth_sqpn, b->deth_sqpn);
	}
	if (f & MODEL_HDR_ATOMICETH) {
		TEST_CHECK_EQ(a->atomic_va, b->atomic_va);
		TEST_CHECK_EQ(a->atomic_rkey, b->atomic_rkey);
		TEST_CHECK_EQ(a->atomic_swap_add, b->atomic_swap_add);
		TEST_CHECK_EQ(a->atomic_cmp, b->atomic_cmp);
	}
	if (f & MODEL_HDR_ATOMICACKETH)
		TEST_CHECK_EQ(a->atomic_orig, b->atomic_orig);
	if (test_case_failures != before)
		printf("#   (%s)\n", what);
}

static void
test_vectors_build(void)
{
	static uint8_t f[MODEL_PKT_MAX];

	for (unsigned int i = 0; i < nvecs; i++) {
		const struct vec *v = &vecs[i];
		int n = model_pkt_build(&v->h, vec_payload(i), v->payload, f, sizeof(f));

		TEST_CHECK_EQ(n, v->len);
		if (n == (int)v->len)
			check_bytes(v->name, f, v->bytes, v->len);
		TEST_CHECK_EQ(model_pkt_icrc(v->bytes, v->len), v->icrc);
		/* the field holds the CRC least significant byte first */
		TEST_CHECK_EQ(v->bytes[v->len - 4], v->icrc & 0xff);
		TEST_CHECK_EQ(v->bytes[v->len - 1], v->icrc >> 24);
	}
}

static void
test_vectors_parse(void)
{
	for (unsigned int i = 0; i < nvecs; i++) {
		const struct vec *v = &vecs[i];
		struct model_pkt_hdr h;
		const uint8_t *pay = NULL;
		uint32_t len = ~0u;
		/* an exact-size copy, so a read past the end is a sanitizer error */
		uint8_t *f = malloc(v->len);

		memcpy(f, v->bytes, v->len);
		TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, &pay, &len), 0);
		check_hdr_eq(v->name, &h, &v->h);
		TEST_CHECK_EQ(len, v->payload);
		TEST_CHECK_EQ(pay - f, model_pkt_hdr_len(&v->h));
		if (len == v->payload && v->payload > 0)
			TEST_CHECK(memcmp(pay, vec_payload(i), len) == 0);
		free(f);
	}
}

/* ---- round trips ---- */

static const uint8_t known_ops[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
	0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x64, 0x65,
};

static void
random_hdr(struct model_pkt_hdr *h)
{
	uint64_t r = rnd();

	memset(h, 0, sizeof(*h));
	for (int k = 0; k < 6; k++) {
		h->dmac[k] = (uint8_t)rnd();
		h->smac[k] = (uint8_t)rnd();
	}
	h->has_vlan = r & 1;
	h->vlan_tci = (uint16_t)rnd();
	h->ipv4 = (r >> 1) & 1;
	for (int k = 0; k < 16; k++) {
		h->sgid[k] = (uint8_t)rnd();
		h->dgid[k] = (uint8_t)rnd();
	}
	if (h->ipv4) {
		gid_v4(h->sgid, h->sgid[0], h->sgid[1], h->sgid[2], h->sgid[3]);
		gid_v4(h->dgid, h->dgid[0], h->dgid[1], h->dgid[2], h->dgid[3]);
	} else {
		h->flow_label = (uint32_t)rnd() & 0xfffff;
	}
	h->tos = (uint8_t)rnd();
	h->ttl = (uint8_t)rnd();
	h->sport = (uint16_t)rnd();
	h->opcode = known_ops[rnd() % sizeof(known_ops)];
	h->se = (r >> 2) & 1;
	h->migreq = (r >> 3) & 1;
	h->pkey = (uint16_t)rnd();
	h->dqpn = (uint32_t)rnd() & 0xffffff;
	h->ackreq = (r >> 4) & 1;
	h->psn = (uint32_t)rnd() & 0xffffff;
	h->reth_va = rnd();
	h->reth_rkey = (uint32_t)rnd();
	h->reth_len = (uint32_t)rnd();
	h->aeth_syndrome = (uint8_t)rnd();
	h->aeth_msn = (uint32_t)rnd() & 0xffffff;
	h->imm_be = (uint32_t)rnd();
	h->ieth_rkey = (uint32_t)rnd();
	h->deth_qkey = (uint32_t)rnd();
	h->deth_sqpn = (uint32_t)rnd() & 0xffffff;
	h->atomic_va = rnd();
	h->atomic_rkey = (uint32_t)rnd();
	h->atomic_swap_add = rnd();
	h->atomic_cmp = rnd();
	h->atomic_orig = rnd();
}

static void
test_round_trip(void)
{
	static uint8_t f[MODEL_PKT_MAX], pay[4096];

	for (unsigned int k = 0; k < sizeof(pay); k++)
		pay[k] = (uint8_t)rnd();
	for (int it = 0; it < 2000; it++) {
		struct model_pkt_hdr h, d;
		const uint8_t *p = NULL;
		uint32_t len = 0, plen = 0;
		int n;

		random_hdr(&h);
		if (model_bth_hdrs(h.opcode) & MODEL_HDR_PAYLOAD)
			plen = (uint32_t)(it % 3 == 0 ? rnd() % 4097 : rnd() % 70);
		n = model_pkt_build(&h, pay, plen, f, sizeof(f));
		TEST_CHECK(n > 0);
		if (n <= 0)
			continue;
		TEST_CHECK_EQ(n, model_pkt_hdr_len(&h) + plen + (4 - plen % 4) % 4 + 4);
		TEST_CHECK_EQ(n % 2, (h.has_vlan ? 18 : 14) % 2);	/* payload+pad is 4-aligned */
		TEST_CHECK_EQ(model_pkt_parse(f, (uint32_t)n, &d, &p, &len), 0);
		check_hdr_eq("round trip", &d, &h);
		TEST_CHECK_EQ(len, plen);
		TEST_CHECK(plen == 0 || memcmp(p, pay, plen) == 0);
		TEST_CHECK_EQ(model_pkt_icrc(f, (uint32_t)n),
			      (uint32_t)f[n - 4] | (uint32_t)f[n - 3] << 8 |
			      (uint32_t)f[n - 2] << 16 | (uint32_t)f[n - 1] << 24);
	}
}

/* ---- refusals ---- */

static void
test_build_refusals(void)
{
	static uint8_t f[MODEL_PKT_MAX];
	struct model_pkt_hdr h;
	int n;

	base_hdr(&h);
	gid_v4(h.sgid, 10, 0, 0, 1);
	gid_v4(h.dgid, 10, 0, 0, 2);
	h.opcode = MODEL_RC_SEND_ONLY;
	n = model_pkt_build(&h, "abc", 3, f, sizeof(f));
	TEST_CHECK_EQ(n, 14 + 20 + 8 + 12 + 4 + 4);
	/* exactly the room needed, and one byte less */
	TEST_CHECK_EQ(model_pkt_build(&h, "abc", 3, f, (uint32_t)n), n);
	TEST_CHECK_EQ(model_pkt_build(&h, "abc", 3, f, (uint32_t)n - 1), -ENOSPC);
	TEST_CHECK_EQ(model_pkt_build(&h, pay_big, sizeof(pay_big), f, 100), -ENOSPC);

	h.opcode = 0x15;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.opcode = 0x81;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.opcode = MODEL_RC_ACK;
	TEST_CHECK_EQ(model_pkt_build(&h, "abc", 3, f, sizeof(f)), -EINVAL);
	TEST_CHECK(model_pkt_build(&h, NULL, 0, f, sizeof(f)) > 0);
	h.opcode = MODEL_RC_READ_REQ;
	TEST_CHECK_EQ(model_pkt_build(&h, "a", 1, f, sizeof(f)), -EINVAL);
	h.opcode = MODEL_RC_SEND_ONLY;

	h.dqpn = 0x1000000;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.dqpn = 1;
	h.psn = 0x1000000;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.psn = 0;
	h.tver = 1;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.tver = 0;
	h.opcode = MODEL_RC_ACK;
	h.aeth_msn = 0x1000000;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.aeth_msn = 0;
	h.opcode = MODEL_UD_SEND_ONLY;
	h.deth_sqpn = 0x1000000;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.deth_sqpn = 0;
	TEST_CHECK(model_pkt_build(&h, NULL, 0, f, sizeof(f)) > 0);
	/* IPv4 needs IPv4-mapped GIDs; IPv6 a 20-bit flow label */
	h.sgid[10] = 0;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	h.ipv4 = false;
	TEST_CHECK(model_pkt_build(&h, NULL, 0, f, sizeof(f)) > 0);
	h.flow_label = 0x100000;
	TEST_CHECK_EQ(model_pkt_build(&h, NULL, 0, f, sizeof(f)), -EINVAL);
	/* an IP length beyond 16 bits */
	h.flow_label = 0;
	{
		size_t big = 70000;
		uint8_t *buf = malloc(big + 200), *src = calloc(1, big);

		TEST_CHECK_EQ(model_pkt_build(&h, src, (uint32_t)big, buf, (uint32_t)big + 200),
			      -EINVAL);
		free(buf);
		free(src);
	}
}

/* Parse @p n bytes copied into an exact-size buffer (sanitizers see any overread). */
static int
parse_copy(const uint8_t *src, uint32_t n)
{
	struct model_pkt_hdr h;
	const uint8_t *p;
	uint32_t len;
	uint8_t *f = malloc(n ? n : 1);
	int r;

	memcpy(f, src, n);
	r = model_pkt_parse(f, n, &h, &p, &len);
	if (r == 0 && (p < f || p + len > f + n)) {
		test_case_failures++;
		printf("#   payload outside the frame\n");
	}
	free(f);
	return r;
}

static void
test_parse_truncated(void)
{
	for (unsigned int i = 0; i < nvecs; i++)
		for (uint32_t n = 0; n < vecs[i].len; n++) {
			int r = parse_copy(vecs[i].bytes, n);

			if (r != -EBADMSG) {
				TEST_CHECK_EQ(r, -EBADMSG);
				printf("#   %s truncated to %u\n", vecs[i].name, n);
				break;
			}
		}
}

static void
put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/*
 * Truncated frames whose IP and UDP lengths (and IPv4 checksum) are rewritten to agree with
 * the new size, so the parser gets past IP and UDP and must bound the BTH, the extension
 * headers, PadCnt and the ICRC by itself.
 */
static void
test_parse_consistent_short(void)
{
	for (unsigned int i = 0; i < nvecs; i++) {
		const struct vec *v = &vecs[i];
		uint32_t l2 = v->h.has_vlan ? 18 : 14, ip = v->h.ipv4 ? 20 : 40;
		uint8_t *f = malloc(v->len);

		for (uint32_t n = l2 + ip + 8; n < v->len; n++) {
			int r;

			memcpy(f, v->bytes, n);
			if (v->h.ipv4) {
				uint32_t s = 0;

				put16(f + l2 + 2, n - l2);
				put16(f + l2 + 10, 0);
				for (int k = 0; k < 20; k += 2)
					s += (uint32_t)f[l2 + k] << 8 | f[l2 + k + 1];
				while (s >> 16)
					s = (s & 0xffff) + (s >> 16);
				put16(f + l2 + 10, ~s & 0xffff);
			} else {
				put16(f + l2 + 4, n - l2 - 40);
			}
			put16(f + l2 + ip + 4, n - l2 - ip);
			r = parse_copy(f, n);
			if (r != -EBADMSG && r != -EILSEQ) {
				TEST_CHECK(r == -EBADMSG || r == -EILSEQ);
				printf("#   %s cut to %u: %d\n", v->name, n, r);
				break;
			}
		}
		free(f);
	}
}

static void
test_parse_random(void)
{
	static uint8_t f[MODEL_PKT_MAX];
	unsigned int accepted = 0;

	for (int it = 0; it < 20000; it++) {
		uint32_t n = (uint32_t)(rnd() % 200);

		for (uint32_t k = 0; k < n; k++)
			f[k] = (uint8_t)rnd();
		/* half of them with a plausible Ethernet / IP start */
		if ((it & 1) && n > 24) {
			f[12] = 0x08;
			f[13] = 0x00;
			f[14] = 0x45;
			f[23] = 17;
		}
		if (parse_copy(f, n) == 0)
			accepted++;
	}
	TEST_CHECK_EQ(accepted, 0);
}

/*
 * Whether a change of byte @p pos of vector @p v by xor @p x must be noticed. Not covered by
 * the ICRC and not checked by the parser: the MACs, the 802.1Q TCI, the IPv6 traffic class,
 * flow label and hop limit, the UDP checksum, and BTH byte 4 (FECN / BECN / reserved). The
 * IPv4 TOS, TTL and checksum are not in the ICRC but the header checksum covers them.
 */
static bool
covered_byte(const struct vec *v, uint32_t pos, uint8_t x)
{
	uint32_t l2 = v->h.has_vlan ? 18 : 14, ip = v->h.ipv4 ? 20 : 40;

	if (pos < 12 || (v->h.has_vlan && (pos == 14 || pos == 15)))
		return false;
	if (!v->h.ipv4) {
		if (pos == l2 && !(x & 0xf0))
			return false;
		if (pos >= l2 + 1 && pos <= l2 + 3)
			return false;
		if (pos == l2 + 7)
			return false;
	}
	if (pos == l2 + ip + 6 || pos == l2 + ip + 7)
		return false;
	if (pos == l2 + ip + 8 + 4)
		return false;
	return true;
}

static void
test_parse_single_byte_corruption(void)
{
	static const uint8_t xors[] = { 0x01, 0x02, 0x10, 0x80, 0xff, 0x0f, 0xf0, 0x55 };
	unsigned int refused = 0, ignored = 0;

	for (unsigned int i = 0; i < nvecs; i++) {
		const struct vec *v = &vecs[i];
		uint8_t *f = malloc(v->len);
		struct model_pkt_hdr h;
		/* every byte of the small frames; a sample of the 4 KB one */
		uint32_t step = v->len > 1000 ? 97 : 1;

		memcpy(f, v->bytes, v->len);
		for (uint32_t pos = 0; pos < v->len; pos = pos + (pos < 100 ? 1 : step)) {
			for (unsigned int k = 0; k < sizeof(xors); k++) {
				int r;

				f[pos] ^= xors[k];
				r = model_pkt_parse(f, v->len, &h, NULL, NULL);
				f[pos] ^= xors[k];
				if (covered_byte(v, pos, xors[k])) {
					refused++;
					if (r != -EILSEQ && r != -EBADMSG) {
						TEST_CHECK(r == -EILSEQ || r == -EBADMSG);
						printf("#   %s byte %u ^ 0x%02x: %d\n", v->name,
						       pos, xors[k], r);
					}
				} else {
					ignored++;
					TEST_CHECK_EQ(r, 0);
				}
			}
		}
		/* the last byte of the ICRC, the last of the payload region */
		f[v->len - 1] ^= 1;
		TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), -EILSEQ);
		f[v->len - 1] ^= 1;
		f[v->len - 5] ^= 1;
		TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), -EILSEQ);
		free(f);
	}
	TEST_CHECK(refused > 1000);
	TEST_CHECK(ignored > 100);
}

/* Specific malformations, each refused with -EBADMSG. */
static void
test_parse_malformed(void)
{
	const struct vec *v = &vecs[0];	/* send_only_v4, no VLAN: IP at 14, UDP 34, BTH 42 */
	uint8_t f[128];
	struct model_pkt_hdr h;

	TEST_CHECK(v->len <= sizeof(f));
	memcpy(f, v->bytes, v->len);
	TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), 0);
	/* one byte more than the IP length */
	f[v->len] = 0;
	TEST_CHECK_EQ(model_pkt_parse(f, v->len + 1, &h, NULL, NULL), -EBADMSG);
	/* an ARP EtherType */
	f[13] = 0x06;
	TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), -EBADMSG);
	f[13] = 0x00;
	/* IHL 6 */
	f[14] = 0x46;
	TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), -EBADMSG);
	f[14] = 0x45;
	/* UDP to port 4792 */
	f[34 + 3] ^= 0x01;
	TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), -EBADMSG);
	f[34 + 3] ^= 0x01;
	TEST_CHECK_EQ(model_pkt_parse(f, v->len, &h, NULL, NULL), 0);
	TEST_CHECK_EQ(model_pkt_parse(f, 0, &h, NULL, NULL), -EBADMSG);
}

/* ---- templates ---- */

/*
 * model_pkt_build_hdr_tmpl() against model_pkt_build_hdr(): the same return value and the
 * same bytes (both buffers prefilled alike, so a byte one writes and the other not shows)
 * for random headers, the per-packet fields varied under one template, key fields changed
 * now and then (the template rebuilt), and every refusal (too-wide fields, TVer, IPv4 with
 * GIDs not IPv4-mapped, a payload on an opcode without one, unknown opcodes, too small a
 * buffer, lengths beyond the IP length field).
 */
static void
test_build_template(void)
{
	static uint8_t a[MODEL_PKT_MAX + 64], b[MODEL_PKT_MAX + 64];
	struct model_pkt_tmpl t;
	unsigned int built = 0, refused = 0;

	memset(&t, 0, sizeof(t));
	for (int it = 0; it < 20000; it++) {
		struct model_pkt_hdr h;
		uint8_t *pa = NULL, *pb = NULL;
		uint32_t len, cap = MODEL_PKT_MAX;
		uint64_t r = rnd();
		int na, nb;

		if (it % 16 == 0 || (r & 0xff) == 0) {
			random_hdr(&h);
		} else {
			/* the same key, new per-packet fields */
			struct model_pkt_hdr k;

			memcpy(&k, t.key, MODEL_PKT_TMPL_KEY);
			random_hdr(&h);
			memcpy(&h, &k, MODEL_PKT_TMPL_KEY);
		}
		h.ip_id = (uint16_t)rnd();
		len = model_bth_hdrs(h.opcode) & MODEL_HDR_PAYLOAD ? (uint32_t)(rnd() % 4097) : 0;
		switch ((r >> 8) % 24) {
		case 0: h.psn |= 1u << 24; break;
		case 1: h.dqpn |= 1u << (24 + rnd() % 8); break;
		case 2: h.tver = (uint8_t)(1 + rnd() % 15); break;
		case 3: h.aeth_msn |= 1u << 24; break;
		case 4: h.deth_sqpn |= 1u << 24; break;
		case 5: h.sgid[rnd() % 12] ^= 0x10; break;
		case 6: h.flow_label |= 1u << 20; break;
		case 7: len = 1 + (uint32_t)(rnd() % 64); break;	/* payload on any opcode */
		case 8: h.opcode = (uint8_t)rnd(); break;		/* known or not */
		case 9: cap = (uint32_t)(rnd() % 200); break;		/* too small, or not */
		case 10: len = 0x10000u + (uint32_t)(rnd() % 16); break;
		default: break;
		}
		memset(a, 0x5a, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		na = model_pkt_build_hdr_tmpl(&t, &h, len, a, cap, &pa);
		nb = model_pkt_build_hdr(&h, len, b, cap, &pb);
		TEST_CHECK_EQ(na, nb);
		if (na != nb) {
			printf("#   iteration %d: opcode 0x%02x len %u cap %u\n", it, h.opcode, len, cap);
			return;
		}
		if (nb < 0) {
			refused++;
			continue;
		}
		built++;
		TEST_CHECK_EQ(pa - a, pb - b);
		check_bytes("template frame", a, b, sizeof(a));
		if (test_case_failures > 0) {
			printf("#   iteration %d: opcode 0x%02x len %u\n", it, h.opcode, len);
			return;
		}
	}
	/* both kinds were exercised */
	TEST_CHECK(built > 10000);
	TEST_CHECK(refused > 2000);
}

int
main(void)
{
	vecs_init();
	TEST_RUN(test_crc32_check_values);
	TEST_RUN(test_crc32_lengths);
	TEST_RUN(test_icrc_hardware_capture);
	TEST_RUN(test_opcode_table);
	TEST_RUN(test_vectors_build);
	TEST_RUN(test_vectors_parse);
	TEST_RUN(test_round_trip);
	TEST_RUN(test_build_template);
	TEST_RUN(test_build_refusals);
	TEST_RUN(test_parse_truncated);
	TEST_RUN(test_parse_consistent_short);
	TEST_RUN(test_parse_random);
	TEST_RUN(test_parse_single_byte_corruption);
	TEST_RUN(test_parse_malformed);
	return test_done();
}
