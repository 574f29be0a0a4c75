#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""A perftest-side peer of rdma-testpmd's two-process exchange, without an RDMA engine.

Written from linux-rdma/perftest 4.5-0.17 (src/perftest_communication.c: ctx_hand_shake,
ctx_xchg_data_ethernet, ethernet_write_keys / ethernet_read_keys, exchange_versions,
check_sys_data, check_mtu, xchg_bw_reports, ctx_close_connection; src/<test>.c main()), not
from rdma-testpmd: it speaks the exchange as ib_<test> does, in either role, and checks every
message the other side sends byte for byte. Each message is a lockstep exchange: perftest's
client (the side given a server name) writes and then reads, the server reads and then writes.

    version      16 bytes: VERSION ("6.06"), NUL padded; a peer below 5.70 is refused
    system data  4 bytes page size, 4 bytes cache line size (network order)
    MTU          2 bytes: the MTU enum in decimal and a NUL ("3\\0" for 1024)
    QP record    108 bytes: "%04x:%04x:%06x:%06x:%08x:%016llx:" LID, out_reads, QPN, PSN,
                 rkey, address, then 16 "%02x:" GID bytes, "%08x:" SRQN, a NUL
    BW report    5 x 8 bytes: size, iterations, peak, average, message rate (big-endian)
    done         "done\\0" after the final handshake, then close
"""
import re
import socket
import struct
import time

VERSION = b'6.06'
RECORD_LEN = 108
RECORD_RE = re.compile(rb'^([0-9a-f]{4}):([0-9a-f]{4}):([0-9a-f]{6}):([0-9a-f]{6}):'
                       rb'([0-9a-f]{8}):([0-9a-f]{16}):((?:[0-9a-f]{2}:){16})([0-9a-f]{8}):\0$')
MTU_ENUM = {256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}


class PeerError(Exception):
    """The other side sent something perftest would not."""


def record(lid, out_reads, qpn, psn, rkey, addr, gid, srqn=0):
    """perftest's KEY_PRINT_FMT_GID, and the NUL sprintf ends it with (108 bytes)."""
    text = '%04x:%04x:%06x:%06x:%08x:%016x:' % (lid, out_reads, qpn, psn, rkey, addr)
    text += ''.join('%02x:' % b for b in gid) + '%08x:' % srqn
    msg = text.encode() + b'\0'
    assert len(msg) == RECORD_LEN
    return msg


def parse_record(msg):
    """The fields of a record, or PeerError naming what is wrong."""
    if len(msg) != RECORD_LEN:
        raise PeerError('record of %d bytes, not %d' % (len(msg), RECORD_LEN))
    m = RECORD_RE.match(msg)
    if m is None:
        raise PeerError('record does not match perftest\'s format: %r' % msg)
    gid = bytes(int(x, 16) for x in m.group(7).decode().rstrip(':').split(':'))
    return {'lid': int(m.group(1), 16), 'out_reads': int(m.group(2), 16),
            'qpn': int(m.group(3), 16), 'psn': int(m.group(4), 16),
            'rkey': int(m.group(5), 16), 'addr': int(m.group(6), 16), 'gid': gid,
            'srqn': int(m.group(8), 16)}


def ipv4_gid(ip):
    """RoCEv2's IPv4-mapped GID ::ffff:a.b.c.d."""
    return bytes(10) + b'\xff\xff' + socket.inet_aton(ip)


class Peer:
    """One side of perftest's exchange.

    role: 'client' (writes first, like ib_<test> HOST) or 'server'.
    my_records: list of 108-byte records to send per QP, or None to echo the other side's
    (only a server can: it reads first). The log keeps every message received.
    """

    def __init__(self, sock, role, timeout=30.0):
        self.sock = sock
        self.role = role
        self.sock.settimeout(timeout)
        self.received = []          # (what, bytes)

    def _read(self, n, what):
        buf = b''
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise PeerError('the other side closed the connection after %d of the %d '
                                'bytes of the %s' % (len(buf), n, what))
            buf += chunk
        self.received.append((what, buf))
        return buf

    def xchg(self, mine, n, what):
        """ctx_xchg_data_ethernet: the client writes then reads, the server the reverse."""
        if self.role == 'client':
            self.sock.sendall(mine)
            return self._read(n, what)
        theirs = self._read(n, what)
        self.sock.sendall(mine(theirs) if callable(mine) else mine)
        return theirs

    def check_done(self):
        """ctx_close_connection: after the last handshake each side writes "done\\0"."""
        self.sock.sendall(b'done\0')
        got = self._read(5, 'done')
        if got != b'done\0':
            raise PeerError('final message %r, not "done\\0"' % got)


class PerftestPeer(Peer):
    """The whole sequence of one perftest test (test, role, QPs, sizes), checked."""

    def __init__(self, sock, role, test, qps=1, sizes=1, mtu=1024, records=None,
                 bw_report=None, timeout=30.0):
        super().__init__(sock, role, timeout)
        self.test = test
        self.qps = qps
        self.sizes = sizes
        self.mtu = mtu
        self.records = records      # per QP, or None: echo the other side's
        self.bw_report = bw_report or (0, 0, 0.0, 0.0, 0.0)
        self.their_records = {}     # QP -> parsed record (first one)
        self.their_bw = None
        self.version = None

    def hand_shake(self, i):
        if self.records is not None:
            mine = self.records[i]
        else:
            mine = lambda theirs: theirs   # noqa: E731 (echo: a self-connected QP)
        got = self.xchg(mine, RECORD_LEN, 'QP %d record' % i)
        rec = parse_record(got)
        first = self.their_records.setdefault(i, rec)
        if rec != first:
            raise PeerError('QP %d record changed: %r then %r' % (i, first, rec))
        return rec

    def opening(self):
        got = self.xchg(VERSION + bytes(16 - len(VERSION)), 16, 'version')
        text = got.split(b'\0', 1)[0]
        if b'\0' not in got or not re.match(rb'^\d+\.\d+$', text) or float(text) < 5.70:
            raise PeerError('version field %r: perftest would refuse it' % got)
        self.version = got
        page = self.xchg(struct.pack('>i', 4096), 4, 'page size')
        line = self.xchg(struct.pack('>i', 64), 4, 'cache line size')
        (p,), (c,) = struct.unpack('>i', page), struct.unpack('>i', line)
        if p <= 0 or p & (p - 1) or c <= 0 or c & (c - 1):
            raise PeerError('system data %d / %d: not a page and a cache line size' % (p, c))
        self.sysdata = (p, c)
        got = self.xchg(b'%d\0' % MTU_ENUM[self.mtu], 2, 'MTU')
        if not re.match(rb'^[1-5]\0$', got):
            raise PeerError('MTU message %r, not an ibv_mtu value and a NUL' % got)
        self.their_mtu = int(got[:1])

    def bw_reports(self):
        size, iters, peak, avg, rate = self.bw_report
        mine = [struct.pack('>Q', size), struct.pack('>Q', iters), struct.pack('>d', peak),
                struct.pack('>d', avg), struct.pack('>d', rate)]
        names = ['size', 'iterations', 'peak', 'average', 'message rate']
        got = [self.xchg(m, 8, 'BW report ' + n) for m, n in zip(mine, names)]
        self.their_bw = (struct.unpack('>Q', got[0])[0], struct.unpack('>Q', got[1])[0],
                         struct.unpack('>d', got[2])[0], struct.unpack('>d', got[3])[0],
                         struct.unpack('>d', got[4])[0])

    def close_connection(self):
        self.hand_shake(0)
        self.check_done()

    def run(self, run_size=None):
        """The test's main() from the first exchange to the close; run_size(i) in between."""
        send = self.test.startswith('send')
        lat = self.test.endswith('lat')
        run_size = run_size or (lambda i: None)
        self.opening()
        if lat and not send:
            self.hand_shake(0)
        for i in range(self.qps):
            self.hand_shake(i)
        # ctx_connect: the QPs go to RTR and RTS here.
        if send:
            self.hand_shake(0)
        for i in range(self.qps):
            self.hand_shake(i)
        if not send:
            self.hand_shake(0)      # "an additional handshake is required after RTR"
        if self.test == 'write_lat':
            for i in range(self.sizes):
                run_size(i)
            return                  # ib_write_lat ends without a word
        if self.test == 'read_lat':
            if self.role == 'client':
                for i in range(self.sizes):
                    run_size(i)
            self.close_connection()
            return
        if self.test in ('write_bw', 'read_bw'):
            if self.role == 'client':
                for i in range(self.sizes):
                    run_size(i)
            self.hand_shake(0)
            self.bw_reports()
            self.close_connection()
            return
        for i in range(self.sizes):  # send_lat, send_bw
            self.hand_shake(0)
            run_size(i)
            if self.test == 'send_bw' and self.sizes > 1:
                self.hand_shake(0)  # only in the -a loop (RUN_ALL); one size: none
        self.close_connection()


def connect(port, host='127.0.0.1', timeout=30.0):
    """perftest's client: connect (retrying while the other side starts up)."""
    end = time.time() + timeout
    while True:
        try:
            return socket.create_connection((host, port), timeout=5)
        except OSError:
            if time.time() > end:
                raise
            time.sleep(0.05)


def listen(port=0):
    """perftest's server: a listening socket (accept one client on it)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(('0.0.0.0', port))
    s.listen(1)
    return s
