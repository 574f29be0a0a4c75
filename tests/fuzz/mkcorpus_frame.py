#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Seed inputs for fuzz_model_frame: one frame each after the flag byte (fuzz_model_frame.c:
bit 0 fix lengths, checksums and ICRC; bit 1 aim at the RC QP and MR; bit 2 at the UD QP).
usage: mkcorpus_frame.py OUTDIR"""
import os
import struct
import sys

DEV_MAC = bytes.fromhex('020000000001')
PEER_MAC = bytes.fromhex('020000000009')
DEV_IP = bytes([10, 0, 0, 1])
PEER_IP = bytes([10, 0, 0, 9])


def roce(bth_op, psn, ext=b'', payload=b'', ack_req=True):
    bth = struct.pack('>BBHI I', bth_op, 0x40, 0xffff, 0,
                      (0x80000000 if ack_req else 0) | psn)
    body = bth + ext + payload
    udp = struct.pack('>HHHH', 0xc000, 4791, 8 + len(body) + 4, 0)
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0x02, 0, 0x1234, 0x4000, 64, 17, 0,
                     PEER_IP, DEV_IP)
    return DEV_MAC + PEER_MAC + b'\x08\x00' + ip + udp + body + b'\0' * 4


def icmp6_sum(src, dst, body):
    data = src + dst + struct.pack('>IxxxB', len(body), 58) + body
    s = sum(struct.unpack('>%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def nd_solicit(target, tag):
    """A Neighbour Solicitation from fe80::9 for target, 802.1Q tag tag in front."""
    src = bytes.fromhex('fe80' + '00' * 13 + '09')
    dst = bytes.fromhex('ff0200000000000000000001ff') + target[13:]
    body = bytearray(struct.pack('>BBHI16s', 135, 0, 0, 0, target) +
                     b'\x01\x01' + PEER_MAC)
    struct.pack_into('>H', body, 2, icmp6_sum(src, dst, bytes(body)))
    ip = struct.pack('>IHBB16s16s', 6 << 28, len(body), 58, 255, src, dst)
    return (bytes.fromhex('3333ff') + target[13:] + PEER_MAC + tag + b'\x86\xdd' + ip +
            bytes(body))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    reth = struct.pack('>QII', 0x100, 0, 64)
    seeds = {
        'rc-send-only': (3, roce(0x04, 0, payload=bytes(range(64)))),
        'rc-send-first-last': (3, roce(0x00, 0, payload=bytes(1024))),
        'rc-write-only': (3, roce(0x0a, 0, reth, bytes(range(64)))),
        'rc-write-imm': (3, roce(0x0b, 0, reth + b'\x01\x02\x03\x04', bytes(64))),
        'rc-read-request': (3, roce(0x0c, 0, reth)),
        'rc-ack': (3, roce(0x11, 0, struct.pack('>I', 0x1f000000), ack_req=False)),
        'rc-atomic-fa': (3, roce(0x14, 0, struct.pack('>QIQQ', 0x100, 0, 1, 0))),
        'rc-send-inv': (3, roce(0x17, 0, struct.pack('>I', 0x1234), bytes(32))),
        'ud-send-only': (5, roce(0x64, 0, struct.pack('>II', 0x11110001, 0x22),
                                 bytes(range(100)), ack_req=False)),
        'ud-send-imm': (5, roce(0x65, 0, struct.pack('>II', 0x11110001, 0x22) +
                                b'\0\0\0\1', bytes(16), ack_req=False)),
        'arp-request': (0, b'\xff' * 6 + PEER_MAC + b'\x08\x06' +
                        struct.pack('>HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, PEER_MAC,
                                    PEER_IP, bytes(6), DEV_IP) + bytes(18)),
        'arp-request-vlan': (0, b'\xff' * 6 + PEER_MAC + b'\x81\x00\xa0\x07\x08\x06' +
                             struct.pack('>HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, PEER_MAC,
                                         PEER_IP, bytes(6), DEV_IP) + bytes(18)),
        # the device's link-local GID (EUI-64 of its MAC), on VLAN 7
        'nd-solicit-vlan': (0, nd_solicit(bytes.fromhex('fe80' + '00' * 8 +
                                                        '00ff' + 'fe00' + '0001'),
                                          b'\x81\x00\x00\x07')),
        'not-roce-udp': (1, DEV_MAC + PEER_MAC + b'\x08\x00' +
                         struct.pack('>BBHHHBBH4s4s', 0x45, 0, 0, 1, 0, 64, 17, 0,
                                     PEER_IP, DEV_IP) +
                         struct.pack('>HHHH', 1, 53, 20, 0) + bytes(16)),
    }
    for name, (flags, frame) in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(bytes([flags]) + frame)


if __name__ == '__main__':
    main()
