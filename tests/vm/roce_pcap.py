#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check a RoCEv2 capture (classic pcap, Ethernet) of one RC conversation, independently of
the model's code: every RoCEv2 frame's ICRC (CRC32 over the frame with the fields RoCEv2
masks: 8 bytes of 0xff, IPv4 TOS / TTL / checksum or IPv6 traffic class / flow label / hop
limit, UDP checksum, BTH byte 4), the IPv4 header checksum, and per sender the request PSNs: a PSN sent twice is a retransmission, and
one "already acked" when the other side's ACK covering that PSN came before it (the other
side did its part: the retransmission is the sender's own timer).

usage: roce_pcap.py FILE SENDER-IP [-v]
Prints one line per sender ("sender A: N frames, N requests, N acks, N retransmitted, N bad
icrc, N bad ip csum, N ip id 0, N retransmitted already acked"); exits 1 when any frame's ICRC or IPv4 checksum is wrong,
SENDER-IP sent none or one with IP ID 0, or the file is not a capture.
"""
import ipaddress
import struct
import sys
import zlib


def frames(path):
    with open(path, "rb") as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            raise ValueError("short pcap header")
        magic = struct.unpack("<I", hdr[:4])[0]
        if magic in (0xA1B2C3D4, 0xA1B23C4D):
            end = "<"
        elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
            end = ">"
        else:
            raise ValueError("not a classic pcap file")
        if struct.unpack(end + "I", hdr[20:24])[0] != 1:
            raise ValueError("not LINKTYPE_ETHERNET")
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            ts, tsf, incl, _orig = struct.unpack(end + "IIII", rec)
            data = f.read(incl)
            if len(data) < incl:
                return
            yield ts + tsf / 1e6, data


def ip_csum_ok(ip):
    s = 0
    for i in range(0, len(ip), 2):
        s += (ip[i] << 8) | ip[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s == 0xFFFF


def p_aeth_is_ack(frame):
    """The AETH syndrome of an ACKNOWLEDGE frame says ACK (not a NAK / RNR NAK)."""
    tagged = struct.unpack(">H", frame[12:14])[0] == 0x8100
    off = 18 if tagged else 14
    etype = struct.unpack(">H", frame[off - 2:off])[0]
    ihl = 40 if etype == 0x86DD else (frame[off] & 0x0F) * 4
    aeth = off + ihl + 8 + 12
    return len(frame) > aeth and (frame[aeth] >> 5) == 0


def parse(frame):
    """(src ip, dst ip, ip id, ip csum ok, icrc ok, opcode, dest qp, psn) or None."""
    off = 14
    etype = struct.unpack(">H", frame[12:14])[0]
    if etype == 0x8100:
        etype = struct.unpack(">H", frame[16:18])[0]
        off = 18
    if etype == 0x86DD:
        return parse6(frame, off)
    if etype != 0x0800 or len(frame) < off + 20:
        return None
    ihl = (frame[off] & 0x0F) * 4
    ip = frame[off:off + ihl]
    tot = struct.unpack(">H", ip[2:4])[0]
    if ip[9] != 17 or len(frame) < off + tot:
        return None
    udp = frame[off + ihl:off + ihl + 8]
    if struct.unpack(">H", udp[2:4])[0] != 4791:
        return None
    pkt = frame[off:off + tot]
    body = pkt[ihl + 8:]
    if len(body) < 12 + 4:
        return None
    m = bytearray(b"\xff" * 8) + bytearray(pkt[:-4])
    m[8 + 1] = 0xFF                      # TOS
    m[8 + 8] = 0xFF                      # TTL
    m[8 + 10:8 + 12] = b"\xff\xff"       # IP checksum
    m[8 + ihl + 6:8 + ihl + 8] = b"\xff\xff"   # UDP checksum
    m[8 + ihl + 8 + 4] = 0xFF            # BTH reserved byte
    icrc = struct.unpack("<I", pkt[-4:])[0]
    src = ".".join(str(b) for b in ip[12:16])
    dst = ".".join(str(b) for b in ip[16:20])
    ipid = struct.unpack(">H", ip[4:6])[0]
    opcode = body[0]
    dqp = struct.unpack(">I", body[4:8])[0] & 0xFFFFFF
    psn = struct.unpack(">I", body[8:12])[0] & 0xFFFFFF
    return (src, dst, ipid, ip_csum_ok(ip), (zlib.crc32(bytes(m)) & 0xFFFFFFFF) == icrc,
            opcode, dqp, psn)


def parse6(frame, off):
    """parse() of a RoCEv2 / IPv6 frame whose IPv6 header starts at @off (no IP ID and no
    header checksum: reported as ID 1 and a good checksum)."""
    if len(frame) < off + 40 + 8 + 16:
        return None
    ip = frame[off:off + 40]
    tot = 40 + struct.unpack(">H", ip[4:6])[0]
    if ip[6] != 17 or len(frame) < off + tot:
        return None
    if struct.unpack(">H", frame[off + 42:off + 44])[0] != 4791:
        return None
    pkt = frame[off:off + tot]
    body = pkt[48:]
    m = bytearray(b"\xff" * 8) + bytearray(pkt[:-4])
    m[8] |= 0x0F                         # traffic class, high nibble
    m[8 + 1:8 + 4] = b"\xff\xff\xff"     # traffic class low nibble, flow label
    m[8 + 7] = 0xFF                      # hop limit
    m[8 + 46:8 + 48] = b"\xff\xff"       # UDP checksum
    m[8 + 48 + 4] = 0xFF                 # BTH reserved byte
    icrc = struct.unpack("<I", pkt[-4:])[0]
    src = ipaddress.IPv6Address(bytes(ip[8:24])).compressed
    dst = ipaddress.IPv6Address(bytes(ip[24:40])).compressed
    return (src, dst, 1, True, (zlib.crc32(bytes(m)) & 0xFFFFFFFF) == icrc, body[0],
            struct.unpack(">I", body[4:8])[0] & 0xFFFFFF,
            struct.unpack(">I", body[8:12])[0] & 0xFFFFFF)


def psn_ge(a, b):
    """a >= b in 24-bit PSN order."""
    return ((a - b) & 0xFFFFFF) < 0x800000


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-5], file=sys.stderr)
        return 2
    path, want = sys.argv[1], sys.argv[2]
    verbose = "-v" in sys.argv[3:]
    st = {}
    try:
        for ts, fr in frames(path):
            p = parse(fr)
            if p is None:
                continue
            src, dst, ipid, csum_ok, icrc_ok, op, dqp, psn = p
            s = st.setdefault(src, {"frames": 0, "req": 0, "ack": 0, "rexmit": 0,
                                    "icrc": 0, "csum": 0, "id0": 0, "seen": set(),
                                    "acked_rexmit": 0, "acked_by_peer": None})
            s["frames"] += 1
            s["icrc"] += not icrc_ok
            s["csum"] += not csum_ok
            s["id0"] += ipid == 0
            # RC requests: SEND / WRITE / READ request opcodes 0x00..0x0c, 0x13..0x17.
            if op <= 0x0C or 0x13 <= op <= 0x17:
                s["req"] += 1
                key = (dqp, psn)
                if key in s["seen"]:
                    s["rexmit"] += 1
                    a = s["acked_by_peer"]
                    s["acked_rexmit"] += a is not None and psn_ge(a, psn)
                    if verbose:
                        print("%.6f %s -> %s retransmits qp %#x psn %#x op %#x" %
                              (ts, src, dst, dqp, psn, op))
                s["seen"].add(key)
            elif op == 0x11:
                s["ack"] += 1
                # The ACK covers the receiver's requests up to psn (syndrome ACK: AETH
                # bits 31:29 = 0).
                peer = st.setdefault(dst, {"frames": 0, "req": 0, "ack": 0, "rexmit": 0,
                                           "icrc": 0, "csum": 0, "id0": 0, "seen": set(),
                                           "acked_rexmit": 0, "acked_by_peer": None})
                if len(fr) >= 14 and p_aeth_is_ack(fr):
                    a = peer["acked_by_peer"]
                    if a is None or psn_ge(psn, a):
                        peer["acked_by_peer"] = psn
            if verbose:
                print("%.6f %s -> %s op %#04x qp %#x psn %#x id %d%s" %
                      (ts, src, dst, op, dqp, psn, ipid, "" if icrc_ok else " BAD ICRC"))
    except (OSError, ValueError) as e:
        print("roce_pcap: %s: %s" % (path, e), file=sys.stderr)
        return 1
    bad = want not in st or st[want]["frames"] == 0
    if bad:
        print("roce_pcap: %s: no RoCEv2 frame from %s" % (path, want))
    for src, s in sorted(st.items()):
        if s["frames"] == 0:
            continue
        print("sender %s: %d frames, %d requests, %d acks, %d retransmitted, %d bad icrc, "
              "%d bad ip csum, %d ip id 0, %d retransmitted already acked" %
              (src, s["frames"], s["req"], s["ack"], s["rexmit"], s["icrc"], s["csum"],
               s["id0"], s["acked_rexmit"]))
        bad = bad or s["icrc"] > 0 or s["csum"] > 0 or (src == want and s["id0"] > 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
