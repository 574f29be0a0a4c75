#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Write tests/irdma/model_pkt_vectors.h: RoCEv2 frames built here, independently of
drivers/rdma/irdma/model/model_pkt.c (struct.pack and zlib.crc32), with their ICRCs.

Run: python3 tests/irdma/gen_model_pkt_vectors.py > tests/irdma/model_pkt_vectors.h
"""
import ipaddress
import struct
import zlib

# opcode -> extension headers in wire order, and whether a payload may follow
OPS = {
    0x04: ([], True), 0x05: (['imm'], True), 0x0b: (['reth', 'imm'], True),
    0x0c: (['reth'], False), 0x10: (['aeth'], True), 0x11: (['aeth'], False),
    0x12: (['aeth', 'atomicack'], False), 0x13: (['atomic'], False),
    0x17: (['ieth'], True), 0x65: (['deth', 'imm'], True),
}


def csum(b):
    s = sum(struct.unpack('!10H', b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(v):
    exts, _ = OPS[v['op']]
    ext = b''
    for e in exts:
        if e == 'reth':
            ext += struct.pack('!QII', v['va'], v['rkey'], v['dlen'])
        elif e == 'imm':
            ext += struct.pack('!I', v['imm'])
        elif e == 'aeth':
            ext += struct.pack('!I', v['syn'] << 24 | v['msn'])
        elif e == 'atomicack':
            ext += struct.pack('!Q', v['orig'])
        elif e == 'atomic':
            ext += struct.pack('!QIQQ', v['va'], v['rkey'], v['swap'], v['cmp'])
        elif e == 'ieth':
            ext += struct.pack('!I', v['inv'])
        elif e == 'deth':
            ext += struct.pack('!II', v['qkey'], v['sqpn'])
    pay = v['payload']
    pad = (4 - len(pay) % 4) % 4
    bth = struct.pack('!BBHII', v['op'], (v['se'] << 7) | (v['m'] << 6) | (pad << 4),
                      v['pkey'], v['dqpn'], (v['ack'] << 31) | v['psn'])
    l4 = bth + ext + pay + b'\0' * pad
    udp = struct.pack('!HHHH', v['sport'], 4791, 8 + len(l4) + 4, 0)
    src = ipaddress.ip_address(v['src']).packed
    dst = ipaddress.ip_address(v['dst']).packed
    if len(src) == 4:
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, v['tos'], 20 + len(udp) + len(l4) + 4, 0,
                         0x4000, v['ttl'], 17, 0, src, dst)
        ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
        masked = bytearray(ip)
        masked[1] = masked[8] = masked[10] = masked[11] = 0xff
        et = 0x0800
    else:
        ip = struct.pack('!IHBB16s16s', 6 << 28 | v['tos'] << 20 | v['flow'],
                         len(udp) + len(l4) + 4, 17, v['ttl'], src, dst)
        masked = bytearray(ip)
        masked[0] |= 0x0f
        masked[1] = masked[2] = masked[3] = masked[7] = 0xff
        et = 0x86dd
    mudp = bytearray(udp)
    mudp[6] = mudp[7] = 0xff
    mbth = bytearray(l4)
    mbth[4] = 0xff
    icrc = zlib.crc32(b'\xff' * 8 + bytes(masked) + bytes(mudp) + bytes(mbth))
    eth = bytes.fromhex(v['dmac']) + bytes.fromhex(v['smac'])
    if 'vlan' in v:
        eth += struct.pack('!HH', 0x8100, v['vlan'])
    eth += struct.pack('!H', et)
    return eth + ip + udp + l4 + struct.pack('<I', icrc), icrc


BASE = dict(dmac='020000000002', smac='020000000001', tos=0, ttl=64, flow=0, sport=0xc000,
            se=0, m=1, pkey=0xffff, dqpn=0x000011, ack=0, psn=0, payload=b'')
VECTORS = [
    ('send_only_v4', dict(op=0x04, src='10.0.0.1', dst='10.0.0.2', ack=1, psn=0x123456,
                          payload=b'hello')),
    ('send_only_imm_v4_vlan', dict(op=0x05, vlan=0x6064, src='192.168.1.10',
                                   dst='192.168.1.20', tos=0x02, se=1, dqpn=0xabcdef,
                                   psn=0xffffff, imm=0xdeadbeef, payload=bytes(range(64)))),
    ('write_only_imm_v6', dict(op=0x0b, src='fe80::1', dst='fe80::2', tos=0x68,
                               flow=0x12345, ttl=1, va=0x1122334455667788, rkey=0x99aabbcc,
                               dlen=6, imm=0x01020304, payload=b'abcdef', sport=0xffff)),
    ('read_req_v4', dict(op=0x0c, src='10.1.2.3', dst='10.3.2.1', va=0x7f0000001000,
                         rkey=0x1234, dlen=0x10000, psn=7)),
    ('read_resp_only_v6_vlan', dict(op=0x10, vlan=0xe001, src='2001:db8::10',
                                    dst='2001:db8::20', syn=0x1f, msn=0x000102,
                                    payload=b'\x80' * 4095)),
    ('ack_v4', dict(op=0x11, src='10.0.0.2', dst='10.0.0.1', syn=0x60, msn=0xfffffe, m=0)),
    ('atomic_ack_v6', dict(op=0x12, src='::ffff:1.2.3.4', dst='2001:db8::1', syn=0,
                           msn=1, orig=0x0102030405060708)),
    ('cmp_swap_v4', dict(op=0x13, src='10.0.0.1', dst='10.0.0.2', va=0x1000, rkey=0x42,
                         swap=0xffffffffffffffff, cmp=0x8000000000000001, ack=1)),
    ('send_only_inv_v4', dict(op=0x17, src='10.0.0.1', dst='10.0.0.2', inv=0xcafef00d,
                              payload=b'xy')),
    ('ud_send_imm_v4', dict(op=0x65, src='172.16.0.1', dst='172.16.0.2', pkey=0x8001,
                            dqpn=1, qkey=0x80010000, sqpn=0x000fed, imm=0x0a0b0c0d,
                            payload=b'\x00\x01\x02', tos=0xfc, ttl=255)),
]


def c_bytes(b):
    out = []
    for i in range(0, len(b), 12):
        out.append('\t' + ' '.join('0x%02x,' % x for x in b[i:i + 12]))
    return '\n'.join(out)


def main():
    print('/* SPDX-License-Identifier: BSD-3-Clause')
    print(' * Copyright (c) 2026 the irdma-pmd authors')
    print(' */')
    print('/* Generated by tests/irdma/gen_model_pkt_vectors.py (struct.pack + zlib.crc32);')
    print(' * do not edit. Each frame is followed by its ICRC as zlib.crc32 returns it. */')
    for name, d in VECTORS:
        v = dict(BASE)
        v.update(d)
        b, icrc = frame(v)
        print('static const uint8_t vec_%s[%d] = {' % (name, len(b)))
        print(c_bytes(b))
        print('};')
        print('#define VEC_%s_ICRC 0x%08xu' % (name.upper(), icrc))
        print('#define VEC_%s_PAYLOAD %d' % (name.upper(), len(v['payload'])))


main()
