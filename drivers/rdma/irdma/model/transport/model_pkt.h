/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_MODEL_PKT_H
#define IRDMA_MODEL_PKT_H

/*
 * RoCEv2 packets and wires of the device model (internal to model/).
 *
 * Packets: model_pkt_build() turns a decoded header (struct model_pkt_hdr) and a payload into
 * a complete Ethernet frame (Ethernet [+ 802.1Q], IPv4 or IPv6, UDP to port 4791, BTH, the
 * extension headers the BTH opcode calls for, payload, pad, ICRC); model_pkt_parse() checks
 * and decodes one. The engine (model_engine*.c) only ever handles frames through these two.
 *
 * Wires: a device attaches a port to a wire; frames sent on a port arrive at the port that
 * owns the destination MAC (in-process switch), at the destination IP (UDP wire), or go out
 * whole through a DPDK ethdev port (Ethernet wire, model_wire_eth.h). Sending
 * never blocks, receiving never blocks; faults (drop, duplicate, reorder, corrupt) are
 * injected on the sending side with a seeded PRNG so runs are repeatable.
 *
 * Thread safety: a port is used by its device only (under the device's lock); the switch
 * behind the in-process wire has its own lock, so two devices on two threads may share it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** UDP destination port of RoCEv2. */
#define MODEL_ROCE_UDP_PORT	4791u
/** Largest frame: a 4096-byte payload plus every header, pad and ICRC. */
#define MODEL_PKT_MAX		4352u

/** BTH opcodes (IBA opcode table: transport in 7:5, operation in 4:0). */
enum model_bth_opcode {
	MODEL_RC_SEND_FIRST		= 0x00,
	MODEL_RC_SEND_MIDDLE		= 0x01,
	MODEL_RC_SEND_LAST		= 0x02,
	MODEL_RC_SEND_LAST_IMM		= 0x03,
	MODEL_RC_SEND_ONLY		= 0x04,
	MODEL_RC_SEND_ONLY_IMM		= 0x05,
	MODEL_RC_WRITE_FIRST		= 0x06,
	MODEL_RC_WRITE_MIDDLE		= 0x07,
	MODEL_RC_WRITE_LAST		= 0x08,
	MODEL_RC_WRITE_LAST_IMM		= 0x09,
	MODEL_RC_WRITE_ONLY		= 0x0a,
	MODEL_RC_WRITE_ONLY_IMM		= 0x0b,
	MODEL_RC_READ_REQ		= 0x0c,
	MODEL_RC_READ_RESP_FIRST	= 0x0d,
	MODEL_RC_READ_RESP_MIDDLE	= 0x0e,
	MODEL_RC_READ_RESP_LAST		= 0x0f,
	MODEL_RC_READ_RESP_ONLY		= 0x10,
	MODEL_RC_ACK			= 0x11,
	MODEL_RC_ATOMIC_ACK		= 0x12,
	MODEL_RC_CMP_SWAP		= 0x13,
	MODEL_RC_FETCH_ADD		= 0x14,
	MODEL_RC_SEND_LAST_INV		= 0x16,
	MODEL_RC_SEND_ONLY_INV		= 0x17,
	MODEL_UD_SEND_ONLY		= 0x64,
	MODEL_UD_SEND_ONLY_IMM		= 0x65,
};

/** Headers a BTH opcode carries (model_bth_hdrs()). */
#define MODEL_HDR_VALID		(1u << 0)	/**< the opcode is one the model knows */
#define MODEL_HDR_RETH		(1u << 1)	/**< RDMA extended transport header (16 B) */
#define MODEL_HDR_AETH		(1u << 2)	/**< ACK extended transport header (4 B) */
#define MODEL_HDR_IMMDT		(1u << 3)	/**< immediate data (4 B) */
#define MODEL_HDR_IETH		(1u << 4)	/**< invalidate extended transport header (4 B) */
#define MODEL_HDR_DETH		(1u << 5)	/**< datagram extended transport header (8 B) */
#define MODEL_HDR_ATOMICETH	(1u << 6)	/**< atomic extended transport header (28 B) */
#define MODEL_HDR_ATOMICACKETH	(1u << 7)	/**< atomic ACK extended transport header (8 B) */
#define MODEL_HDR_PAYLOAD	(1u << 8)	/**< the packet may carry a payload */

/** AETH syndromes (bits 7:5 the kind, 4:0 the credit count / RNR timer / NAK code). */
#define MODEL_AETH_ACK			0x00u	/**< ACK (| credit count) */
#define MODEL_AETH_RNR_NAK		0x20u	/**< RNR NAK (| RNR timer) */
#define MODEL_AETH_NAK_PSN_SEQ		0x60u	/**< NAK: PSN sequence error */
#define MODEL_AETH_NAK_INV_REQ		0x61u	/**< NAK: invalid request */
#define MODEL_AETH_NAK_REM_ACCESS	0x62u	/**< NAK: remote access error */
#define MODEL_AETH_NAK_REM_OP		0x63u	/**< NAK: remote operational error */
#define MODEL_AETH_NAK_INV_RD_REQ	0x64u	/**< NAK: invalid RD request */

/**
 * A decoded RoCEv2 frame. Fields of headers the opcode does not carry are ignored. The fields
 * up to ip_id are the ones that stay the same for every packet of a QP (a template's key,
 * model_pkt_build_hdr_tmpl()); they are laid out without padding.
 */
struct model_pkt_hdr {
	/* Ethernet */
	uint8_t dmac[6];		/**< destination MAC */
	uint8_t smac[6];		/**< source MAC */
	/* IP: addresses as 16-byte GIDs; IPv4 ones IPv4-mapped (::ffff:a.b.c.d) */
	uint8_t sgid[16];		/**< source address */
	uint8_t dgid[16];		/**< destination address */
	uint16_t vlan_tci;		/**< PCP 15:13, DEI 12, VID 11:0 */
	/* UDP (the destination port is always MODEL_ROCE_UDP_PORT) */
	uint16_t sport;			/**< source port (flow entropy) */
	uint16_t pkey;			/**< BTH partition key */
	bool has_vlan;			/**< an 802.1Q tag follows the MACs */
	bool ipv4;			/**< IPv4 (else IPv6) */
	uint8_t tos;			/**< IPv4 TOS / IPv6 traffic class */
	uint8_t ttl;			/**< IPv4 TTL / IPv6 hop limit */
	bool migreq;			/**< BTH migration state (1 on RoCE) */
	uint8_t tver;			/**< BTH transport header version (0) */
	uint32_t flow_label;		/**< IPv6 flow label (20 bits) */
	uint32_t dqpn;			/**< BTH destination QP (24 bits) */
	/* per packet */
	uint16_t ip_id;			/**< IPv4 identification (the sender's counter) */
	/* BTH */
	uint8_t opcode;			/**< enum model_bth_opcode */
	bool se;			/**< solicited event */
	bool ackreq;			/**< acknowledge request */
	uint32_t psn;			/**< packet sequence number (24 bits) */
	/* RETH */
	uint64_t reth_va;		/**< virtual address */
	uint32_t reth_rkey;		/**< remote key */
	uint32_t reth_len;		/**< DMA length of the whole message */
	/* AETH */
	uint8_t aeth_syndrome;		/**< MODEL_AETH_* */
	uint32_t aeth_msn;		/**< message sequence number (24 bits) */
	/* ImmDt: the 32 bits as they sit on the wire (big endian), kept as read */
	uint32_t imm_be;		/**< immediate data, network order */
	/* IETH */
	uint32_t ieth_rkey;		/**< key to invalidate */
	/* DETH */
	uint32_t deth_qkey;		/**< Q_Key */
	uint32_t deth_sqpn;		/**< source QP (24 bits) */
	/* AtomicETH */
	uint64_t atomic_va;		/**< remote address */
	uint32_t atomic_rkey;		/**< remote key */
	uint64_t atomic_swap_add;	/**< swap (CMP_SWAP) or add (FETCH_ADD) value */
	uint64_t atomic_cmp;		/**< compare value */
	/* AtomicAckETH */
	uint64_t atomic_orig;		/**< original remote data */
};

/** The MODEL_HDR_* set of BTH opcode @p opcode (0 when the model does not know it). */
uint32_t model_bth_hdrs(uint8_t opcode);

/**
 * Copy header @p h into @p dst as model_pkt_parse() would return it from the frame built of
 * it: the fields of extension headers its opcode does not carry (a sender may have filled
 * them for nothing) are 0 in @p dst.
 */
void model_pkt_hdr_copy(struct model_pkt_hdr *dst, const struct model_pkt_hdr *h);

/** Bytes of the headers (Ethernet to the last extension header) of @p h. */
uint32_t model_pkt_hdr_len(const struct model_pkt_hdr *h);

/**
 * Build a frame from @p h and @p len payload bytes into @p frame (@p cap bytes): pad to a
 * multiple of 4 (BTH PadCnt), IPv4 header checksum, UDP length (UDP checksum 0), IPv4 ID 0
 * with DF, and the ICRC.
 * @return the frame length, -EINVAL (unknown opcode, payload on an opcode without one,
 *         fields beyond their widths, TVer not 0, IPv4 with GIDs not IPv4-mapped) or
 *         -ENOSPC (larger than @p cap).
 */
int model_pkt_build(const struct model_pkt_hdr *h, const void *payload, uint32_t len,
		    uint8_t *frame, uint32_t cap);

/**
 * Build the headers of a frame from @p h for @p len payload bytes, as model_pkt_build() does,
 * and zero its pad; the payload bytes (at *@p payload) and the ICRC field are left for the
 * caller (model_port_send_unsealed() writes the ICRC).
 * @return the frame length or the errors of model_pkt_build().
 */
int model_pkt_build_hdr(const struct model_pkt_hdr *h, uint32_t len, uint8_t *frame,
			uint32_t cap, uint8_t **payload);

/**
 * The frame model_pkt_build_hdr() would build, without its headers: only the MACs are
 * written (what a loop switch forwards by) and *payload is where the payload goes. For a
 * frame that travels described and unsealed (model_port_send_bare()), whose receiver takes
 * the description; model_pkt_desc_fill() writes the rest when bytes are wanted. Every field
 * is checked as model_pkt_build_hdr() checks it; a header it refuses is left to it (it says
 * why, and the frame is then built in full or not at all).
 * @return the frame length or the errors of model_pkt_build_hdr().
 */
int model_pkt_build_bare(const struct model_pkt_hdr *h, uint32_t len, uint8_t *frame,
			 uint32_t cap, uint8_t **payload);

/** Bytes of struct model_pkt_hdr a template is built from (its key: dmac to dqpn). */
#define MODEL_PKT_TMPL_KEY	offsetof(struct model_pkt_hdr, ip_id)
/** Bytes of the largest template: Ethernet, 802.1Q, IPv6, UDP, BTH. */
#define MODEL_PKT_TMPL_MAX	(14u + 4u + 40u + 8u + 12u)

/**
 * The headers of a frame up to the BTH as they come out of the key fields of a struct
 * model_pkt_hdr (MODEL_PKT_TMPL_KEY bytes): a per-QP template that
 * model_pkt_build_hdr_tmpl() copies and patches with the per-packet fields.
 */
struct model_pkt_tmpl {
	uint8_t key[MODEL_PKT_TMPL_KEY];	/**< the header fields it was built from */
	bool valid;				/**< built (else key means nothing) */
	uint8_t l2;				/**< Ethernet header bytes (with 802.1Q) */
	uint8_t len;				/**< bytes of bytes[]: to the end of the BTH */
	uint32_t ip_sum;	/**< IPv4: header sum with total length, ID and checksum 0 */
	uint8_t bytes[MODEL_PKT_TMPL_MAX];	/**< the headers; BTH opcode, flags, PSN 0 */
};

/**
 * model_pkt_build_hdr() through the template @p t: when the key fields of @p h differ from
 * the ones @p t was built from (or @p t is new, zeroed), @p t is built again from @p h first.
 * The frame is byte for byte the one model_pkt_build_hdr() builds, and every error is its
 * (the fields a template cannot take are left to it).
 */
int model_pkt_build_hdr_tmpl(struct model_pkt_tmpl *t, const struct model_pkt_hdr *h,
			     uint32_t len, uint8_t *frame, uint32_t cap, uint8_t **payload);

/**
 * Check and decode the frame @p frame of @p flen bytes: EtherType (IPv4 / IPv6, with or
 * without one 802.1Q tag), IP version, IPv4 header checksum and lengths, UDP destination port
 * and length, a known BTH opcode with the headers it calls for, PadCnt, and the ICRC.
 * @param payload set to the first payload byte inside @p frame.
 * @param len     set to the payload length (pad and ICRC excluded).
 * @return 0, -EBADMSG (malformed or not RoCEv2) or -EILSEQ (ICRC mismatch).
 */
int model_pkt_parse(const uint8_t *frame, uint32_t flen, struct model_pkt_hdr *h,
		    const uint8_t **payload, uint32_t *len);

/**
 * model_pkt_parse(), with the ICRC checked only when @p sealed (false: a frame the loop wire
 * carried without one, model_port_recv_ref()); every other check is the same.
 */
int model_pkt_parse_ex(const uint8_t *frame, uint32_t flen, bool sealed, struct model_pkt_hdr *h,
		       const uint8_t **payload, uint32_t *len);

/**
 * The ICRC of the frame @p frame of @p flen bytes whose last 4 bytes are the ICRC field
 * (doc/hardware.md §11 has its exact coverage), as the value stored on
 * the wire (little-endian CRC32).
 */
uint32_t model_pkt_icrc(const uint8_t *frame, uint32_t flen);

/**
 * CRC32 as zlib's crc32() computes it (reflected polynomial 0xEDB88320): continue @p crc
 * (0 to start) over @p n bytes at @p buf. The ICRC is built on it.
 */
uint32_t model_crc32(uint32_t crc, const void *buf, size_t n);

/* ---- Wires ---- */

struct model_port;

/** Fault injection on a port's sends, in parts per million of frames. */
struct model_wire_faults {
	uint32_t drop_ppm;	/**< frames dropped */
	uint32_t dup_ppm;	/**< frames delivered twice */
	uint32_t reorder_ppm;	/**< frames held back and delivered after the next one */
	uint32_t corrupt_ppm;	/**< frames with one byte flipped (the ICRC catches it) */
	uint64_t seed;		/**< PRNG seed */
};

/** Per-port counters. */
struct model_port_stats {
	uint64_t tx_frames;	/**< frames sent */
	uint64_t tx_bytes;	/**< bytes sent */
	uint64_t rx_frames;	/**< frames received */
	uint64_t rx_bytes;	/**< bytes received */
	uint64_t tx_dropped;	/**< frames dropped by injection or a full queue */
	uint64_t tx_duplicated;	/**< frames duplicated by injection */
	uint64_t tx_reordered;	/**< frames reordered by injection */
	uint64_t tx_corrupted;	/**< frames corrupted by injection */
	uint64_t rx_no_port;	/**< frames for a MAC / IP no port owns (switch: dropped) */
	/* the Ethernet wire (model_wire_eth.c); 0 on the others */
	uint64_t rx_filtered;	/**< frames for another MAC (dropped) */
	uint64_t rx_other;	/**< frames neither RoCEv2 nor ARP (dropped) */
	uint64_t tx_nombuf;	/**< sends refused: no mbuf or the TX queue full */
	uint64_t arp_requests_rx;	/**< ARP requests received */
	uint64_t arp_replies_tx;	/**< ARP replies sent (requests for an own address) */
	uint64_t arp_requests_tx;	/**< ARP requests sent (resolving a peer) */
	uint64_t arp_replies_rx;	/**< ARP replies received */
	uint64_t arp_bad;		/**< ARP frames malformed or not Ethernet / IPv4 */
	uint64_t arp_evicted;	/**< ARP entries replaced because the table was full */
	uint64_t arp_unresolved;	/**< frames dropped while their peer's MAC was unknown */
	uint64_t arp_failed;	/**< resolutions (ARP or ND) given up after the last retry */
	uint64_t nd_solicits_rx;	/**< IPv6 Neighbour Solicitations received */
	uint64_t nd_adverts_tx;	/**< Neighbour Advertisements sent (for an own address) */
	uint64_t nd_solicits_tx;	/**< Neighbour Solicitations sent (resolving a peer) */
	uint64_t nd_adverts_rx;	/**< Neighbour Advertisements received */
	uint64_t nd_bad;		/**< ND frames with a bad checksum, hop limit or code */
};

/**
 * Attach a port with MAC @p mac and address @p gid (16 bytes, IPv4-mapped for IPv4) to the
 * wire named by @p spec:
 *  - "loop" or NULL: the process-wide in-process switch (frames go to the port that owns the
 *    destination MAC; a frame to the sender's own MAC comes back to it);
 *  - "loop:<name>": a separate named in-process switch;
 *  - "udp:<ipv4>[:<port>]": a UDP socket bound to that local address and port (default
 *    4791); a frame goes, from the BTH on, to the frame's destination IPv4 address and the
 *    same port, and received datagrams are rebuilt into frames for this port (IPv4 ID 0, DF,
 *    the socket's addresses and ports), so the sender's ICRC checks;
 *  - "eth:<port>": a DPDK ethdev port (model_wire_eth.h): an existing port by id or name, or
 *    a vdev created from "<driver><n>[,<its devargs>]"; whole frames, real IP headers, ARP.
 * @return 0 with *out set, -EINVAL (bad spec, MAC already on that switch), or -errno of the
 *         socket / ethdev calls.
 */
int model_port_attach(const char *spec, const uint8_t mac[6], const uint8_t gid[16],
		      struct model_port **out);

/** Detach and free a port (frames queued for it are dropped). Safe on NULL. */
void model_port_detach(struct model_port *p);

/**
 * Send one frame. Never blocks.
 * @return 0, or -ENOBUFS when the frame was dropped (queue full; counted), or -EINVAL (no
 *         port, fewer than 14 or more than MODEL_PKT_MAX bytes, not IPv4 on the UDP wire).
 */
int model_port_send(struct model_port *p, const uint8_t *frame, uint32_t len);

/**
 * Receive one frame into @p buf (@p cap bytes). Never blocks.
 * @return the frame length, 0 when nothing is waiting, -EMSGSIZE (frame dropped), or
 *         -EINVAL (no port or buffer).
 */
int model_port_recv(struct model_port *p, uint8_t *buf, uint32_t cap);

/**
 * Send one frame whose last 4 bytes (the ICRC field) are not written yet. The port writes
 * the ICRC into @p frame unless the frame stays in the process untouched: a loop port with
 * no capture and no fault injection carries it unsealed (the receiver learns so from
 * model_port_recv_ref()). model_port_recv() always returns sealed frames.
 * @return as model_port_send().
 */
int model_port_send_unsealed(struct model_port *p, uint8_t *frame, uint32_t len);

/**
 * The buffer (MODEL_PKT_MAX bytes) to build the port's next frame in, on a loop port: a
 * frame built there and sent (model_port_send_unsealed(), model_port_send()) while no fault
 * injection or capture needs a copy is handed over to the destination's queue, not copied;
 * after such a send the port has a new buffer (call again). NULL on other wires (build
 * anywhere) and for a NULL port.
 */
uint8_t *model_port_tx_buf(struct model_port *p);

/** The most packets a train stands for (model_pkt_train.ack_mask has a bit for each). */
#define MODEL_TRAIN_MAX		16u

/**
 * Consecutive packets of one RC message that a loop port carries to itself as one frame
 * (model_port_send_train()): the description's header is the first packet's, each next
 * packet follows it by one PSN and @c stride payload bytes (model_pkt_train_pkt()).
 */
struct model_pkt_train {
	uint16_t count;			/**< packets the frame stands for (0 or 1: itself) */
	uint16_t ack_mask;		/**< bit i: packet i asks for an ACK */
	uint32_t stride;		/**< payload bytes of each packet but the last */
	uint8_t mid_op;			/**< the opcode of the packets between (a MIDDLE) */
	uint8_t last_op;		/**< the last packet's opcode (a MIDDLE or a LAST) */
	bool last_se;			/**< the last packet's solicited event bit */
	uint32_t last_imm_be;		/**< the last packet's ImmDt (if its opcode has one) */
	uint32_t last_ieth_rkey;	/**< the last packet's IETH (if its opcode has one) */
	uint32_t bytes;			/**< the bytes of the frames it stands for */
};

/**
 * What the engine that built a frame knows of it: the header it built the frame from
 * (model_pkt_build_hdr_tmpl()) and where the payload starts. A loop port carries it beside
 * a frame it hands over unsealed (model_port_send_desc()): no wire, fault or capture
 * stood between the two engines, so the receiver takes it instead of parsing bytes that
 * parse to it (model_port_rx_desc()).
 */
struct model_pkt_desc {
	struct model_pkt_hdr h;		/**< the header, as model_pkt_parse() returns it */
	uint32_t payload_off;		/**< offset of the payload in the frame */
	uint32_t len;			/**< payload bytes, the pad not counted */
	struct model_pkt_train tr;	/**< a train's packets (tr.count > 1), else count 0 */
};

/**
 * Packet @p i of the train described by @p dc (i < dc->tr.count): its header into @p h (as
 * model_pkt_parse() would return it from the frame sent alone), the offset of its payload
 * from the frame's payload into *off, its payload bytes into *len. @return the bytes of
 * the frame it stands for.
 */
uint32_t model_pkt_train_pkt(const struct model_pkt_desc *dc, uint32_t i,
			     struct model_pkt_hdr *h, uint32_t *off, uint32_t *len);

/**
 * Bytes of the frame model_pkt_build_hdr() builds from @p h with opcode @p opcode instead of
 * its own for @p len payload bytes.
 */
uint32_t model_pkt_frame_len(const struct model_pkt_hdr *h, uint8_t opcode, uint32_t len);

/**
 * Write the headers of description @p dc into the frame of @p flen bytes at @p frame, around
 * the payload already at dc->payload_off (and its pad): the bytes model_pkt_build_hdr()
 * builds, so that the frame parses back to dc->h.
 * @return 0; -EINVAL (logged) when the description does not give a frame of @p flen bytes
 *         with its payload there, or the errors of model_pkt_build_hdr().
 */
int model_pkt_desc_fill(const struct model_pkt_desc *dc, uint8_t *frame, uint32_t flen);

/**
 * model_port_send_unsealed(), and when the loop port hands the frame over unsealed, header
 * @p h and the payload at @p payload_off (@p plen bytes) go with it (struct
 * model_pkt_desc). @p frame must be the port's model_port_tx_buf() for that.
 * @return as model_port_send().
 */
int model_port_send_desc(struct model_port *p, uint8_t *frame, uint32_t len,
			 const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen);

/**
 * Whether a frame built now in @p p's model_port_tx_buf() would travel described and
 * unsealed (a loop port with no fault injection and no capture): then it may be sent bare.
 */
bool model_port_bare(const struct model_port *p);

/**
 * Whether @p p carries a train (model_port_send_train()) to destination MAC @p dmac: a
 * bare frame (model_port_bare()) that the port sends to itself, so that its own receive,
 * which takes descriptions, is the one that reads it.
 */
bool model_port_train(const struct model_port *p, const uint8_t dmac[6]);

/**
 * Send a train: @p tr->count packets of one message built as one bare frame of @p len
 * bytes (model_pkt_build_bare() of the first packet's header @p h with all @p plen payload
 * bytes, at @p payload_off), described (struct model_pkt_desc with @p tr) to the port's own
 * queue. Counted as the frames it stands for (@p tr->bytes). Only where model_port_train();
 * a receive that would read its bytes refuses it (model_pkt_desc_fill()).
 * @return 0, -ENOBUFS (the queue is full: nothing sent), -EINVAL (logged).
 */
int model_port_send_train(struct model_port *p, uint8_t *frame, uint32_t len,
			  const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen,
			  const struct model_pkt_train *tr);

/**
 * model_port_send_desc() of a bare frame (model_pkt_build_bare(): MACs and payload written,
 * the other header bytes not). Carried described and unsealed (model_port_bare()), it stays
 * so: a receive that reads its bytes (model_port_recv(), a capture, model_port_rx_fill())
 * writes them from the description first. Else the header bytes are written here first.
 * @return as model_port_send(); -EINVAL when @p h does not give a frame of @p len bytes
 *         with the payload at @p payload_off.
 */
int model_port_send_bare(struct model_port *p, uint8_t *frame, uint32_t len,
			 const struct model_pkt_hdr *h, uint32_t payload_off, uint32_t plen);

/**
 * Write the header bytes of the frame model_port_recv_ref() lent last when it came bare
 * (model_port_send_bare()), so that it parses (to its description); nothing otherwise.
 * @return 0, or the errors of model_pkt_desc_fill() (the frame's bytes are then not valid).
 */
int model_port_rx_fill(struct model_port *p);

/**
 * The description the sender gave the frame model_port_recv_ref() lent last
 * (model_port_send_desc()), or NULL: none was given, it was copied or sealed, or nothing
 * is lent. Valid as long as the frame.
 */
const struct model_pkt_desc *model_port_rx_desc(const struct model_port *p);

/**
 * Receive one frame without copying it when the wire allows: on a loop port without a
 * capture, *frame points into the port's queue and stays valid until the next
 * model_port_recv_ref() or model_port_recv() on @p p; elsewhere the frame is copied into
 * @p buf (@p cap bytes) and *frame is @p buf. *sealed is false when the frame's ICRC field
 * was never written (an in-process sender, nothing in between that could corrupt it).
 * @return as model_port_recv().
 */
int model_port_recv_ref(struct model_port *p, uint8_t *buf, uint32_t cap, const uint8_t **frame,
			bool *sealed);

/**
 * The neighbour MAC of @p dst (GID form) from @p src on an Ethernet wire (model_eth_neigh):
 * 0, -EAGAIN (being resolved, or failed), -ENOTSUP (a wire without neighbours), -EINVAL.
 */
int model_port_neigh(struct model_port *p, const uint8_t src[16], const uint8_t dst[16],
		     uint8_t mac[6]);

/** Set (or with NULL clear) the port's send faults. @return 0 or -EINVAL. */
int model_port_set_faults(struct model_port *p, const struct model_wire_faults *f);

/**
 * The IPv4 identification for the next frame the port sends: a per-port counter, never 0
 * (the UDP wire rewrites it to 0, which its receiver assumes).
 */
uint16_t model_port_ip_id(struct model_port *p);

/**
 * The port's own addresses (16-byte GIDs; the IPv4-mapped ones count): the Ethernet wire
 * answers ARP for them and loops frames to them back. The attach address is always one.
 * @return 0, -EINVAL (no port, @p n above MODEL_PORT_ADDRS or addresses missing).
 */
int model_port_set_addrs(struct model_port *p, const uint8_t (*gids)[16], uint32_t n);
/** Most addresses model_port_set_addrs() takes. */
#define MODEL_PORT_ADDRS	16u

/** Copy the port's counters. */
void model_port_stats_get(const struct model_port *p, struct model_port_stats *st);

/**
 * Append every frame the port sends (as it goes on the wire, before faults; on the UDP wire
 * after the rewrite of its IPv4 / UDP source) and receives to the classic pcap file
 * @p path (LINKTYPE_ETHERNET), replacing a capture already open; NULL closes the capture.
 * The file is complete once closed (here or by model_port_detach()).
 * @return 0, -EINVAL (no port) or -errno of fopen / -EIO.
 */
int model_port_pcap_open(struct model_port *p, const char *path);

#endif /* IRDMA_MODEL_PKT_H */
