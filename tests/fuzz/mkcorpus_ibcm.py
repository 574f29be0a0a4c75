#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Seed inputs for fuzz_ibcm_mad from RoCEv2 captures (pcap, Ethernet): every MAD to QP 1
as one input (the 40-byte GRH area: 20 zero bytes and the IPv4 header; then the 256-byte
MAD), and per capture the MADs one sender sent, in order, as one input (a handshake).
usage: mkcorpus_ibcm.py OUTDIR SENDER-IP PCAP..."""
import hashlib
import os
import socket
import struct
import sys


def frames(path):
    with open(path, 'rb') as f:
        hdr = f.read(24)
        endian = '<' if hdr[:4] == b'\xd4\xc3\xb2\xa1' else '>'
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            _, _, incl, _ = struct.unpack(endian + 'IIII', rec)
            yield f.read(incl)


def mads(path):
    for fr in frames(path):
        if len(fr) < 14 + 20 + 8 + 12 + 8 + 256 or fr[12:14] != b'\x08\x00':
            continue
        ip = fr[14:34]
        if ip[9] != 17 or struct.unpack('>H', fr[36:38])[0] != 4791:
            continue
        bth = fr[42:54]
        if bth[0] != 0x64 or int.from_bytes(bth[5:8], 'big') != 1:
            continue
        yield socket.inet_ntoa(ip[12:16]), bytes(20) + ip + fr[62:62 + 256]


def main():
    out, sender = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for path in sys.argv[3:]:
        seq = b''
        for src, buf in mads(path):
            if src != sender:
                continue
            seq += buf
            name = hashlib.sha1(buf).hexdigest()[:16]
            with open(os.path.join(out, 'mad-' + name), 'wb') as f:
                f.write(buf)
        if seq:
            name = hashlib.sha1(seq).hexdigest()[:16]
            with open(os.path.join(out, 'seq-' + name), 'wb') as f:
                f.write(seq)


if __name__ == '__main__':
    main()
