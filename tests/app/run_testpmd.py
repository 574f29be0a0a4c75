#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Run rdma-testpmd on the device model and check what it prints (TAP).

usage: run_testpmd.py MODE BINARY SRCDIR

Modes: cmdline_static, bad_input, first_run (suite unit); engines, cmdline_traffic,
two_process, two_process_kill, two_process_eth, two_process_cm, perftest_exchange (suite app:
they need the data path). two_process_cm connects the two processes through rdma_cm (-R).
perftest_exchange runs rdma-testpmd against perftest_peer.py, a perftest-side peer written
from perftest's source.

Two-process runs give each process its own model device on the model's UDP wire; the
devargs are IRDMA_TESTPMD_SERVER_DEV / IRDMA_TESTPMD_CLIENT_DEV (defaults below).
"""
import json
import os
import re
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perftest_peer as pp  # noqa: E402

# Each process binds its model's UDP wire to its own address (port 4791) and owns that
# address as its GID; frames go to the destination GID's address. The pair of loopback
# addresses comes from our pid, so that two runs at once (two checkouts tested on one machine)
# do not both bind 127.0.0.1:4791.
_NET = '127.%d.%d.' % (1 + os.getpid() % 250, (os.getpid() // 250) % 250)
SERVER_DEV = os.environ.get('IRDMA_TESTPMD_SERVER_DEV',
                            'irdma_model0,ip=%s1,wire=udp:%s1' % (_NET, _NET))
CLIENT_DEV = os.environ.get('IRDMA_TESTPMD_CLIENT_DEV',
                            'irdma_model0,ip=%s2,wire=udp:%s2' % (_NET, _NET))
LAT_HDR = ' #bytes #iterations    t_min[usec]'
BW_HDR = ' #bytes     #iterations    BW peak[MB/sec]'
DEVICE_LINE = re.compile(r'^rdma-testpmd: (no E810 bound to vfio-pci .*using the device '
                         r'model|E810 .* on vfio-pci: using|device )')
WAIT_S = 120


class Tap:
    """Minimal TAP producer."""

    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, desc):
        self.n += 1
        if not cond:
            self.failed += 1
        print(('ok' if cond else 'not ok') + ' %d - %s' % (self.n, desc))
        return cond

    def note(self, text):
        for line in text.splitlines():
            print('# ' + line)

    def done(self):
        print('1..%d' % self.n)
        return 1 if self.failed else 0


def eal(tag, lcores='0', small_mem=False):
    """EAL arguments of one test process. small_mem: --no-huge with 512 MB, whatever the
    machine has, for the checks that need an allocation to fail: with hugepages EAL grows
    its heap into every free page, and the run would go ahead instead."""
    args = ['--no-pci', '--file-prefix', 'tp%s%d' % (tag, os.getpid()), '-l', lcores,
            '--log-level=lib.eal:error', '--log-level=pmd.rdma.irdma:warning',
            '--no-telemetry']
    if small_mem:
        return args + ['--no-huge', '-m', '512']
    if os.environ.get('IRDMA_TEST_NO_HUGE', '') not in ('', '0') or not huge_ok():
        args += ['--no-huge', '-m', '512']
    else:
        # --huge-unlink: the page files go when the process does, however it ends (the kill
        # test's SIGKILL, a run that failed): kept files would hold their pages, and the
        # tests after this one would find none free.
        args += ['-m', '256', '--huge-unlink']
    args += os.environ.get('IRDMA_TEST_EAL_ARGS', '').split()
    return args


def huge_ok():
    try:
        with open('/proc/meminfo') as f:
            free = [int(l.split()[1]) for l in f if l.startswith('HugePages_Free')]
        return bool(free) and free[0] >= 128
    except OSError:
        return False


def run(binary, tag, app_args, lcores='0', timeout=WAIT_S, small_mem=False):
    """Run to the end; returns (rc, stdout, stderr); rc None on a hang."""
    cmd = [binary] + eal(tag, lcores, small_mem) + ['--'] + app_args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or '', e.stderr or ''


def table(out, hdr):
    """Rows of the first table with header hdr: lists of floats."""
    rows, inside = [], False
    for line in out.splitlines():
        if line.startswith(hdr):
            inside = True
            continue
        if inside:
            if line.startswith('---'):
                break
            if line.startswith('   '):   # histogram lines
                continue
            if line.startswith('rdma-testpmd: '):   # -v: the teardown's CM events
                continue
            try:
                rows.append([float(x) for x in line.split()])
            except ValueError:   # a server's summary row: "<bytes> <iters> (server: ...)"
                rows.append(line.split())
    return rows


def check_lat_rows(t, rows, name, iters, nsizes):
    t.ok(len(rows) == nsizes, '%s: %d rows (want %d)' % (name, len(rows), nsizes))
    for r in rows:
        ok = len(r) == 9 and r[1] == iters and all(x > 0 for x in r[2:8])
        t.ok(ok, '%s %d B: 9 columns, %d iterations, positive numbers' % (name, r[0], iters))
        if len(r) == 9:
            tmin, tmax, typ, avg, _, p99, p999 = r[2:9]
            t.ok(tmin <= typ <= p99 <= p999 <= tmax and tmin <= avg <= tmax,
                 '%s %d B: t_min <= t_typical <= p99 <= p99.9 <= t_max' % (name, r[0]))


def check_bw_rows(t, rows, name, msgs, nsizes):
    t.ok(len(rows) == nsizes, '%s: %d rows (want %d)' % (name, len(rows), nsizes))
    for r in rows:
        ok = len(r) == 5 and r[1] == msgs and r[3] > 0 and r[4] > 0
        t.ok(ok, '%s %d B: 5 columns, %d messages, positive BW and rate' % (name, r[0], msgs))
        if len(r) == 5:
            t.ok(r[2] >= r[3] * 0.999, '%s %d B: peak >= average' % (name, r[0]))
            # BW average [MB/s] = rate [Mpps] * 1e6 * bytes / 2^20
            want = r[4] * 1e6 * r[0] / 1048576
            t.ok(abs(r[3] - want) <= max(0.02, want * 0.01),
                 '%s %d B: average BW matches the message rate' % (name, r[0]))


def header_values(out):
    """TX depth, post list and CQ moderation from a table's header."""
    vals = []
    for key in ('TX depth        : ', 'Post List       : ', 'CQ Moderation  : '):
        m = re.search(re.escape(key) + r'(\d+)', out)
        vals.append(int(m.group(1)) if m else None)
    return vals


def first_line_is_device(t, out):
    first = out.splitlines()[0] if out else ''
    t.ok(DEVICE_LINE.match(first) is not None, 'first line names the device: ' + first)


def mode_cmdline_static(t, binary, src):
    rc, out, err = run(binary, 'cs', ['--cmdline-file', os.path.join(src, 'cmdline_static.txt'),
                                      '-v'])
    t.ok(rc == 0, 'cmdline_static exits 0 (rc %s)' % rc)
    first_line_is_device(t, out)
    expect = [
        r'rdma-testpmd> show device\ndevice 0: irdma_model0',
        r'rdmadev 0: irdma_model0 \(driver irdma_model',
        r'link irdma_model0/1 lqpn 3 rqpn 4 type RC state RTS',
        r'link irdma_model0/1 lqpn 4 rqpn 3 type RC state RTS',
        r'dev irdma_model0 cqn 3 cqe \d+',
        r'dev irdma_model0 mrn \d+ rkey 0x[0-9a-f]+ lkey',
        r'dev irdma_model0 pdn \d+ users 2',
        r'dev irdma_model0 ctxn \d+ users \d+',
        r'qp\s+created 2\s+destroyed 0',
        r'hw_counters',
        r'qp 3: type RC state RTS\n  dest_qpn 4 ',
        r'qp 4: type RC state RTS\n  dest_qpn 3 ',
        r'iters = 50',
        r'  iters\s+50 ',
        r'  histogram\s+on ',
        r'rdma-testpmd> set device wire_seed 5\nirdma_model0: wire_seed = 5\n',
        r'qp 3 sq wqe at quantum 0, \d+ bytes:\n  0000:( [0-9a-f]{2}){32}\n',
        r'cq 3 cqe 0, 32 bytes:\n  0000:( [0-9a-f]{2}){32}\n',
        r'cq 4 cqe 1, 32 bytes:',
        r'rdma-testpmd> stop\nno test is running',
        r'teardown: every object destroyed, 0 leaked objects',
    ]
    for e in expect:
        t.ok(re.search(e, out) is not None, 'output has /%s/' % e.replace('\n', '\\n'))
    t.ok('rdma-testpmd> show device\n' not in out.split('rdma-testpmd> quit')[-1],
         'nothing runs after quit')
    t.ok('error:' not in out, 'no command failed')
    # WQE dumps: as many 32-byte lines as the size says.
    m = re.search(r'sq wqe at quantum 0, (\d+) bytes:\n((?:  [0-9a-f]{4}:.*\n)+)', out)
    t.ok(m is not None and int(m.group(1)) == 32 * len(m.group(2).splitlines()),
         'dump wqe: one 32-byte quantum per line')
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('show device\nfrobnicate\nshow nonsense\nshow qp 999\ndump wqe 999 0\n'
                'set qps 99\nshow res bogus\nquit\n')
        bad = f.name
    rc, out, err = run(binary, 'cb', ['--cmdline-file', bad])
    os.unlink(bad)
    t.ok(rc not in (0, None), 'a script with bad commands exits non-zero (rc %s)' % rc)
    t.ok('6 command(s) failed' in err, 'it counts the 6 failed commands')
    for e in ['no such command', "'show nonsense': bad arguments", 'show qp: no QP 999', 'dump wqe: no QP 999',
              "qps: bad value '99'", "show res: unknown type 'bogus'"]:
        t.ok(e in out, 'bad script: says "%s"' % e)
    t.note(out[-3000:])


def mode_bad_input(t, binary, src):
    cases = [
        (['--bogus'], "unknown option '--bogus'"),
        (['-s', '0'], "size: bad value '0'"),
        (['-s', '16M'], "size: bad value '16M'"),
        (['-e', 'write_lat', '-q', '2'], 'latency tests use one QP'),
        (['--dev', 'nosuch0'], "cannot open device 'nosuch0'"),
        (['--cmdline-file', '/nonexistent/file'], 'cannot read --cmdline-file'),
        (['-e', 'write_bw', '--json', '/nonexistent/dir/x.json'], 'cannot write the --json'),
        (['-e', 'write_lat', '-I', '1024'], "inline 1024 exceeds the device's"),
        # Size suffixes that wrap (to 1024 B and 1 MiB) are out of range, not small.
        (['-s', '18014398509481985K'], "size: bad value '18014398509481985K': out of range"),
        (['-s', '17592186044417M'], "size: bad value '17592186044417M': out of range"),
        (['-n', ' -18446744073709551612'], "iters: bad value"),
        # Failures that used to print nothing: every one says why.
        (['-n', '100000000'], 'no memory for 100000000 timestamps'),
        (['-e', 'write_bw', '-q', '4', '-D', '8', '-n', '10000000'],
         'no memory for 40000000 timestamps'),
        # A CQ beyond the device's limit is refused naming it, not by a failing CQP command.
        (['-e', 'send_bw', '-q', '16', '-r', '32768'],
         "the receive CQ would need 524289 entries (32768 x 16 QPs + 1), more than the "
         "device's max_cqe 524286"),
        (['-e', 'write_bw', '-t', '8192'], "max_qp_wr 4063"),
        # A post list that would stall the window is refused naming the limit.
        (['-e', 'write_bw', '-l', '64', '-Q', '100'],
         'post_list 64 with cq_mod 100 needs tx_depth >= 160'),
        # Output that cannot be written fails the run.
        (['-n', '20', '--json', '/dev/full'], 'writing --json /dev/full: No space left'),
        (['-n', '20', '--csv', '/dev/full'], 'writing --csv /dev/full: No space left'),
        (['--cmdline-file', '.'], 'cannot read --cmdline-file .: it is a directory'),
        (['--server', '--client', '127.0.0.1'], '--server and --client exclude each other'),
        (['--client', '127.0.0.1', '--server'], '--server and --client exclude each other'),
        (['--lcores', '0,1'], "unknown option '--lcores'"),
    ]
    for args, msg in cases:
        rc, out, err = run(binary, 'bi', args, timeout=60,
                           small_mem='no memory for' in msg)
        t.ok(rc not in (0, None) and msg in err,
             '%s: exit %s, says "%s"' % (' '.join(args), rc, msg))
        if msg not in err:
            t.note(err[-800:])
    # EAL arguments after "--" are the application's: refused by name.
    rc, out, err = run(binary, 'be', ['--no-huge'], timeout=60)
    t.ok(rc not in (0, None) and "unknown option '--no-huge'" in err,
         'an EAL option after -- is refused')
    # ... and the application's before "--" are EAL's: --tp-cores is no EAL option.
    cmd = [binary] + eal('bt') + ['--tp-cores', '0,1', '--', '-n', '10']
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    t.ok(p.returncode != 0 and 'EAL initialisation failed' in p.stderr,
         '--tp-cores before -- is refused (exit %s)' % p.returncode)
    check_long_lines(t, binary)
    check_prompt_failure(t, binary)
    # A client with no server and a server with no client: errors within the timeout.
    port = free_port()
    start = time.time()
    rc, out, err = run(binary, 'bc', ['--client', '127.0.0.1:%d' % port, '--timeout', '200',
                                      '-n', '10'], timeout=60)
    t.ok(rc not in (0, None) and 'cannot connect to 127.0.0.1:%d' % port in err,
         'client without a server: exit %s after %.1f s' % (rc, time.time() - start))
    start = time.time()
    rc, out, err = run(binary, 'bs', ['--server', '-p', str(port), '--timeout', '200',
                                      '-n', '10'], timeout=60)
    t.ok(rc not in (0, None) and 'no client connected to port %d' % port in err,
         'server without a client: exit %s after %.1f s' % (rc, time.time() - start))
    check_sigint(t, binary)


def check_long_lines(t, binary):
    """--cmdline-file lines past librte_cmdline's 512-byte buffer: one error each."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('show config' + ' ' * (510 - 11) + '\n')     # 510: the longest allowed
        f.write('show config' + ' ' * (511 - 11) + '\n')     # 511: overflowed the stack
        f.write('# ' + 'x' * 2000 + '\n')                    # a comment of any length
        f.write('set size ' + '1' * 5000 + '\n')
        f.write('show qp 3\n')
        long_file = f.name
    rc, out, err = run(binary, 'bl', ['--cmdline-file', long_file], timeout=60)
    os.unlink(long_file)
    errors = [l for l in out.splitlines() if l.startswith('error:')]
    t.ok(rc not in (0, None) and '2 command(s) failed' in err,
         'long lines: exit %s, 2 failed commands' % rc)
    t.ok(len(errors) == 2 and ('%s:2: a line of 511 characters' % long_file) in errors[0] and
         ('%s:4: a line of 5009 characters' % long_file) in errors[1],
         'long lines: one error each, naming the file and the line')
    t.ok('qp 3: type RC' in out and out.count('  iters ') == 1,
         'long lines: the lines around them run')
    if len(errors) != 2:
        t.note('\n'.join(errors[:5]) + err[-500:])


def check_prompt_failure(t, binary):
    """At the prompt a background start that fails says so at once, before any wait."""
    p = subprocess.Popen([binary] + eal('pf', small_mem=True) + ['--', '-i'],
                         stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()

    def reader():
        for line in p.stdout:
            lines.put(line)
        lines.put(None)

    th = threading.Thread(target=reader, daemon=True)
    th.start()
    p.stdin.write('set iters 100000000\nstart\n')
    p.stdin.flush()
    seen, end = [], time.time() + 60
    while time.time() < end:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        if line is None:
            break
        seen.append(line)
        if 'error: the test failed' in line:
            break
    t.ok(any('error: the test failed: Cannot allocate memory' in l for l in seen),
         'prompt: a failed background start is reported before the next command')
    p.stdin.write('wait\nquit\n')
    p.stdin.close()
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()        # never leave a test's process behind
        p.wait()
        t.ok(False, 'prompt: quit after the failed start ends the process')
    th.join(timeout=10)
    rest = []
    while not lines.empty():
        line = lines.get()
        if line is not None:
            rest.append(line)
    err = p.stderr.read()
    t.ok(sum('the test failed' in l for l in seen + rest) == 1 and
         'no memory for 100000000 timestamps' in err,
         'prompt: said once (not again at wait), with the reason')
    if not seen or 'the test failed' not in seen[-1]:
        t.note(''.join(seen[-10:]) + err[-500:])


def check_sigint(t, binary):
    """Ctrl-C in the middle of a run: it stops, says so, tears down and exits 1."""
    p = start(binary, 'si', ['-e', 'write_lat', '-n', '4000000', '--timeout', '60000', '-v'])
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    rc, out, err = finish(p, timeout=30)
    t.ok(rc not in (0, None), 'SIGINT mid-run: exits %s' % rc)
    t.ok('failed: stopped' in err, 'SIGINT mid-run: says it was stopped')
    t.ok('0 leaked objects' in out, 'SIGINT mid-run: tears down cleanly')


def mode_first_run(t, binary, src):
    """What devtools/run.sh does first: works with the data path, refuses clearly without."""
    rc, out, err = run(binary, 'fr', ['-e', 'write_lat', '-n', '20', '-v', '--timeout', '1000'])
    first_line_is_device(t, out)
    t.ok(rc is not None, 'no hang')
    t.ok('0 leaked objects' in out, 'teardown leaves nothing behind, whatever happened')
    if rc == 0:
        check_lat_rows(t, table(out, LAT_HDR), 'write_lat', 20, 1)
    else:
        t.ok('data path is not available' in err or 'data path is not running' in err,
             'without a working data path it says so and exits %s' % rc)
    t.note(out + err)


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def mode_engines(t, binary, src):
    sizes = 6   # 2 .. 64
    lat = [('write_lat', []), ('read_lat', []), ('send_lat', []),
           ('write_lat', ['-I', '64']), ('send_lat', ['-c', 'UD'])]
    for name, extra in lat:
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, 'r.json')
            rc, out, err = run(binary, 'en', ['-e', name, '-a', '--size-max', '64', '-n', '200',
                                              '--json', js, '-H'] + extra)
            t.ok(rc == 0, '%s %s exits 0 (rc %s)' % (name, ' '.join(extra), rc))
            rows = table(out, LAT_HDR)
            check_lat_rows(t, rows, name, 200, sizes)
            t.ok('histogram of 197 samples' in out, '%s: histogram drawn' % name)
            try:
                doc = json.load(open(js))
                t.ok([doc['tx_depth'], doc['post_list'], doc['cq_mod']] ==
                     header_values(out), '%s: the JSON says the table\'s TX depth, post '
                     'list and CQ moderation (%s)' % (name, header_values(out)))
                res = doc['results']
                t.ok(len(res) == sizes and all(abs(r['t_typical'] - row[4]) < 0.01
                                               for r, row in zip(res, rows)) and
                     all(sum(r['histogram']['counts']) == 197 for r in res),
                     '%s: the JSON has the same rows and histograms' % name)
            except (OSError, ValueError, KeyError) as e:
                t.ok(False, '%s: JSON parses (%s)' % (name, e))
            if rc != 0:
                t.note(err[-1500:])
    bw = [('write_bw', []), ('read_bw', []), ('send_bw', []),
          ('write_bw', ['-q', '2', '-l', '4', '-Q', '8', '-t', '64']),
          ('send_bw', ['-q', '2']), ('send_bw', ['-c', 'UD'])]
    for name, extra in bw:
        qps = int(extra[extra.index('-q') + 1]) if '-q' in extra else 1
        with tempfile.TemporaryDirectory() as d:
            csv = os.path.join(d, 'r.csv')
            rc, out, err = run(binary, 'eb', ['-e', name, '-a', '--size-max', '64', '-n', '1000',
                                              '--csv', csv] + extra)
            t.ok(rc == 0, '%s %s exits 0 (rc %s)' % (name, ' '.join(extra), rc))
            ud = '-c' in extra
            if not ud:
                check_bw_rows(t, table(out, BW_HDR), name, 1000 * qps, sizes)
            try:
                lines = open(csv).read().splitlines()
                t.ok(len(lines) == sizes + 1 and lines[0].startswith('test,bytes,'),
                     '%s: CSV has a header and %d rows' % (name, sizes))
            except OSError as e:
                t.ok(False, '%s: CSV written (%s)' % (name, e))
            if rc != 0:
                t.note(err[-1500:])
    # Post lists: perftest's CQ moderation (the list's length) keeps the window moving.
    for name, extra in [('write_bw', ['-l', '64']), ('write_bw', ['-l', '33']),
                        ('send_bw', ['-l', '33']), ('read_bw', ['-l', '33']),
                        ('read_bw', ['-l', '64']), ('write_bw', ['-l', '64', '-Q', '64']),
                        ('write_bw', ['-l', '33', '-Q', '100', '-t', '132'])]:
        rc, out, err = run(binary, 'ep', ['-e', name, '-n', '1000', '-s', '64',
                                          '--timeout', '20000'] + extra)
        rows = table(out, BW_HDR)
        t.ok(rc == 0 and len(rows) == 1 and rows[0][1] == 1000,
             '%s %s: exits 0 with a row (rc %s)' % (name, ' '.join(extra), rc))
        if '-Q' not in extra:
            t.ok(header_values(out)[1:] == [int(extra[1])] * 2,
                 '%s %s: CQ moderation is the post list' % (name, ' '.join(extra)))
        if rc != 0:
            t.note(err[-800:])
    # Atomics (a gen3 model; E810 has none): 8 bytes whatever the sweep, and the app checks
    # that each QP's fetch-adds returned 0, 1, 2 ... (it fails otherwise).
    bw_extra = ['-q', '2', '-l', '4', '-Q', '8', '-t', '64']
    for name, hdr, extra, msgs in [
            ('atomic_lat', LAT_HDR, [], 200),
            ('atomic_lat', LAT_HDR, ['-A', 'CMP_AND_SWAP'], 200),
            ('atomic_bw', BW_HDR, bw_extra, 2000),
            ('atomic_bw', BW_HDR, bw_extra + ['-A', 'CMP_AND_SWAP'], 2000)]:
        qps = 2 if '-q' in extra else 1
        rc, out, err = run(binary, 'ea', ['-e', name, '-a', '-n', str(msgs // qps),
                                          '--dev', 'irdma_model0,gen=3'] + extra)
        name = '%s %s' % (name, ' '.join(extra[-2:]) if '-A' in extra else 'FETCH_AND_ADD')
        t.ok(rc == 0, '%s on a gen3 model exits 0 (rc %s)' % (name, rc))
        rows = table(out, hdr)
        if hdr == LAT_HDR:
            check_lat_rows(t, rows, name, msgs, 1)
        else:
            check_bw_rows(t, rows, name, msgs, 1)
        t.ok(len(rows) == 1 and rows[0][0] == 8, '%s: one row, 8 bytes' % name)
        if rc != 0:
            t.note(err[-1500:])
    rc, out, err = run(binary, 'ea', ['-e', 'atomic_lat', '-n', '10'])
    t.ok(rc not in (0, None) and 'needs a device with remote atomics' in err,
         'atomic_lat on gen2 is refused with a reason (rc %s)' % rc)
    # Two model devices on the in-process switch, one per side.
    for name, hdr, n in [('send_lat', LAT_HDR, 200), ('write_bw', BW_HDR, 1000)]:
        rc, out, err = run(binary, 'e2', ['-e', name, '-n', str(n), '-s', '64', '--dev',
                                          'irdma_model0', '--dev', 'irdma_model1'])
        t.ok(rc == 0 and len(table(out, hdr)) == 1, '%s across two model devices' % name)
    # Duration mode and two lcores.
    rc, out, err = run(binary, 'ed', ['-e', 'write_bw', '-s', '64', '-D', '1', '-n', '100000'])
    rows = table(out, BW_HDR)
    t.ok(rc == 0 and len(rows) == 1 and rows[0][1] > 0, 'write_bw --duration 1 reports')
    rc, out, err = run(binary, 'el', ['-e', 'send_lat', '-n', '200', '--tp-cores', '0,1',
                                      '--model-mode', 'thread'], lcores='0-1')
    check_lat_rows(t, table(out, LAT_HDR), 'send_lat on 2 lcores', 200, 1)


def mode_cmdline_traffic(t, binary, src):
    rc, out, err = run(binary, 'ct', ['--cmdline-file', os.path.join(src, 'cmdline_traffic.txt'),
                                      '-v'])
    t.ok(rc == 0, 'cmdline_traffic exits 0 (rc %s)' % rc)
    rows = table(out, BW_HDR)
    check_bw_rows(t, rows, 'write_bw from the script', 64, 1)
    check_lat_rows(t, table(out, LAT_HDR), 'send_lat from the script', 20, 1)
    m = re.search(r'qp 3 sq wqe at quantum 0, \d+ bytes:\n  0000:((?: [0-9a-f]{2}){32})', out)
    t.ok(m is not None and set(m.group(1).split()) != {'00'}, 'dump wqe shows a written WQE')
    m = re.search(r'cq 3 cqe 0, 32 bytes:\n  0000:((?: [0-9a-f]{2}){32})', out)
    t.ok(m is not None and set(m.group(1).split()) != {'00'}, 'dump cqe shows a written CQE')
    t.ok(re.search(r'hw_counters:\n\s+\w+\s+\d+', out) is not None, 'show stats: hw_counters')
    check_traffic_counters(t, out)
    t.ok('0 leaked objects' in out, 'teardown: 0 leaked objects')
    t.note(out[-3000:] + err[-1000:])
    check_dump_after_write_lat(t, binary)
    check_wire_params(t, binary)


def check_traffic_counters(t, out):
    """show stats after the script's write_bw (64 WRITEs of 64 B, both QPs on the one device
    of the loop wire): the hardware counters are that traffic. Every frame is a WRITE only
    (IPv4 20 + UDP 8 + BTH 12 + RETH 16 + 64 + ICRC 4 = 124 octets) or an ACK (20 + 8 + 12 +
    AETH 4 + ICRC 4 = 48); how many ACKs depends on coalescing, the octets follow from it."""
    stats = out.split('rdma-testpmd> show stats', 1)[-1].split('rdma-testpmd>', 1)[0]
    hw = {k: int(v) for k, v in re.findall(r'^\s+(\w+)\s+(\d+)$', stats, re.M)}
    names = ['ip4OutPkts', 'ip4InPkts', 'ip4OutOctets', 'ip4InOctets', 'TxUDP', 'RxUDP',
             'iwOutRdmaWrites', 'iwInRdmaWrites', 'iwOutRdmaSends', 'iwOutRdmaReads']
    if not all(n in hw for n in names):
        t.ok(False, 'show stats: counters %s' % ', '.join(n for n in names if n not in hw))
        return
    writes, pkts = hw['iwOutRdmaWrites'], hw['ip4OutPkts']
    t.ok(writes == 64 and hw['iwInRdmaWrites'] == 64 and hw['iwOutRdmaSends'] == 0 and
         hw['iwOutRdmaReads'] == 0,
         'show stats: 64 WRITE packets out and in, no SEND or READ (%d, %d)' %
         (writes, hw['iwInRdmaWrites']))
    t.ok(writes < pkts <= 2 * writes and hw['ip4InPkts'] == pkts and
         hw['TxUDP'] == pkts and hw['RxUDP'] == pkts,
         'show stats: packets are the WRITEs and their ACKs, out = in (%d, %d)' %
         (pkts, hw['ip4InPkts']))
    want = 124 * writes + 48 * (pkts - writes)
    t.ok(hw['ip4OutOctets'] == want and hw['ip4InOctets'] == want,
         'show stats: octets %d out, %d in (want %d)' %
         (hw['ip4OutOctets'], hw['ip4InOctets'], want))


def wire_stats(out, k):
    """The wire_* xstats printed by the k-th 'show stats' (0 first)."""
    part = out.split('rdma-testpmd> show stats')[k + 1].split('rdma-testpmd>', 1)[0]
    return {k: int(v) for k, v in re.findall(r'^\s+(wire_\w+)\s+(\d+)$', part, re.M)}


def pcap_records(path):
    """Records of a classic pcap file (24-byte header, 16-byte record headers)."""
    with open(path, 'rb') as f:
        data = f.read()
    n, off = 0, 24
    while off + 16 <= len(data):
        off += 16 + int.from_bytes(data[off + 8:off + 12], 'little')
        n += 1
    return n if off == len(data) else -1


def check_wire_params(t, binary):
    """'set device KEY VALUE' at the prompt: the model's wire faults and capture change on the
    running device, and the xstats count what was injected. One device (the loop wire):
    every frame sent arrives unless dropped, a duplicated one twice (doc/model.md
    "Faults"): rx = tx - dropped + duplicated. The capture holds every frame sent and every
    frame received while it was open."""
    cap = tempfile.NamedTemporaryFile(suffix='.pcap', delete=False).name
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('set test write_bw\nset iters 400\nset size 64\n'
                'set device wire_drop 0.05\nset device wire_seed 11\nstart\nshow stats\n'
                'set device wire_drop 0\nset device wire_dup 10%%\nset device pcap %s\n'
                'start\nset device pcap off\nshow stats\n'
                'set device bogus 1\nset device wire_drop 2\nset device wire loop\nquit\n'
                % cap)
        script = f.name
    rc, out, err = run(binary, 'cf', ['--cmdline-file', script])
    os.unlink(script)
    a, b = wire_stats(out, 0), wire_stats(out, 1)
    rows = re.findall(r'^ 64\s+400\s+[0-9.]+\s', out, re.M)
    t.ok(len(rows) == 2, 'set device: both write_bw runs end with a row (%d)' % len(rows))
    t.ok(a.get('wire_dropped', 0) > 0 and a.get('wire_duplicated', -1) == 0 and
         a['wire_rx_frames'] == a['wire_tx_frames'] - a['wire_dropped'],
         'set device wire_drop 0.05: frames dropped and counted, rx = tx - dropped (%s)' %
         {k: a.get(k) for k in ('wire_tx_frames', 'wire_rx_frames', 'wire_dropped')})
    t.ok(b.get('wire_dropped', -1) == a.get('wire_dropped') and
         b.get('wire_duplicated', 0) > 0 and
         b['wire_rx_frames'] == b['wire_tx_frames'] - b['wire_dropped'] + b['wire_duplicated'],
         'set device wire_drop 0, wire_dup 10%%: no new drops, duplicates counted, '
         'rx = tx - dropped + duplicated (%s)' %
         {k: b.get(k) for k in ('wire_tx_frames', 'wire_rx_frames', 'wire_dropped',
                                'wire_duplicated')})
    want = (b.get('wire_tx_frames', 0) - a.get('wire_tx_frames', 0) +
            b.get('wire_rx_frames', 0) - a.get('wire_rx_frames', 0))
    got = pcap_records(cap) if os.path.exists(cap) else -2
    os.unlink(cap)
    t.ok(want > 0 and got == want,
         'set device pcap FILE ... pcap off: %d records, the frames sent and received meanwhile '
         '(%d)' % (got, want))
    errs = re.findall(r'^error: set device .*$', out + err, re.M)
    t.ok(rc == 1 and '3 command(s) failed' in out + err and len(errs) == 3 and
         'no such parameter' in errs[0] and 'Invalid argument' in errs[1] and
         'not supported' in errs[2] and 'param bogus: unknown' in err and
         'wire_drop=2: not a rate' in err and 'chosen at probe' in err,
         'set device: an unknown key, a bad rate and the wire each fail with a reason %s' % errs)


def check_dump_after_write_lat(t, binary):
    """doc/testpmd.md's reading of an SQ dump after the default write_lat (1000 one-quantum
    WRITEs on QP 3's 1024-quantum SQ): quanta 0-127 pre-invalidated for the second pass (all
    ff), 128 a WRITE of the first pass (valid bit 0x80 in byte 31), 1000 never written."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('start\ndump wqe 3 0\ndump wqe 3 128\ndump wqe 3 1000\nquit\n')
        script = f.name
    rc, out, err = run(binary, 'cw', ['-e', 'write_lat', '-s', '2', '--cmdline-file', script])
    os.unlink(script)
    q = {}
    for m in re.finditer(r'qp 3 sq wqe at quantum (\d+), 64 bytes:\n  0000:((?: [0-9a-f]{2}){32})',
                         out):
        q[int(m.group(1))] = m.group(2).split()
    t.ok(rc == 0 and sorted(q) == [0, 128, 1000], 'dump after write_lat: three dumps (rc %s)' % rc)
    t.ok(set(q.get(0, [])) == {'ff'}, 'dump after write_lat: quantum 0 pre-invalidated, all ff')
    w = q.get(128, ['00'] * 32)
    t.ok(w[31] == 'c0' and w[15] == '80',
         'dump after write_lat: quantum 128 a first-pass WRITE (valid bits 0x80, header c0)')
    t.ok(set(q.get(1000, [])) == {'00'}, 'dump after write_lat: quantum 1000 never written')
    if rc != 0 or len(q) != 3:
        t.note(out[-1500:] + err[-800:])


def start(binary, tag, app_args, extra_eal=()):
    cmd = [binary] + eal(tag) + list(extra_eal) + ['--'] + app_args
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(p, timeout=WAIT_S):
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, err


def mode_two_process(t, binary, src):
    """rdma-testpmd on both sides, through perftest's exchange, with traffic on the model.

    What each server prints is what perftest's does: its own rows in the ping-pong and send
    tests, the client's last row in write_bw / read_bw, nothing in read_lat.
    """
    for name, n, server_rows, conn in [('send_lat', 100, 4, 'RC'), ('write_lat', 100, 4, 'RC'),
                                       ('read_lat', 100, 0, 'RC'), ('write_bw', 1000, 1, 'RC'),
                                       ('read_bw', 1000, 1, 'RC'), ('send_bw', 1000, 4, 'RC'),
                                       ('send_lat', 100, 4, 'UD'), ('send_bw', 1000, 4, 'UD')]:
        port = free_port()
        common = ['-e', name, '-n', str(n), '-p', str(port), '-a', '--size-max', '16',
                  '--timeout', '2000', '-v', '-c', conn]
        name = '%s %s' % (name, conn)
        srv = start(binary, 'ps', common + ['--server', '--dev', SERVER_DEV])
        time.sleep(0.5)
        cli = start(binary, 'pc', common + ['--client', '127.0.0.1', '--dev', CLIENT_DEV])
        crc, cout, cerr = finish(cli)
        src_rc, sout, serr = finish(srv)
        t.ok(crc == 0 and src_rc == 0, '%s: client exit %s, server exit %s' % (name, crc, src_rc))
        hdr = LAT_HDR if 'lat' in name else BW_HDR
        rows = table(cout, hdr)
        t.ok(len(rows) == 4, '%s: the client reports 4 sizes' % name)
        srows = table(sout, hdr)
        t.ok(len(srows) == server_rows, '%s: the server reports %d rows (%d)' %
             (name, server_rows, len(srows)))
        if name.split()[0] in ('write_bw', 'read_bw') and srows and rows:
            t.ok(srows[0] == rows[-1], '%s: the server prints the client\'s last row' % name)
        t.ok('0 leaked objects' in cout and '0 leaked objects' in sout,
             '%s: both tear down cleanly' % name)
        if crc != 0 or src_rc != 0:
            t.note(cerr[-1000:] + serr[-1000:])
    check_patient_server(t, binary)
    check_mismatch(t, binary)


def cm_pair(t, binary, tag, common, label):
    """A server and a client with @common, the client's exit and output then the server's;
    both exit codes checked."""
    srv = start(binary, tag + 's', common + ['--server', '--dev', SERVER_DEV])
    time.sleep(0.5)
    cli = start(binary, tag + 'c', common + ['--client', _NET + '1', '--dev', CLIENT_DEV])
    crc, cout, cerr = finish(cli)
    src_rc, sout, serr = finish(srv)
    t.ok(crc == 0 and src_rc == 0, '%s: client exit %s, server exit %s' %
         (label, crc, src_rc))
    return crc, cout, cerr, src_rc, sout, serr


def mode_two_process_cm(t, binary, src):
    """-R on both sides: the exchange over an rdma_cm control connection, the test QPs
    connected by the CM (one ESTABLISHED event each on both sides), traffic on the model."""
    for name, n, server_rows, qps in [('write_lat', 100, 4, 1), ('send_lat', 100, 4, 1),
                                      ('read_lat', 100, 0, 1), ('send_bw', 1000, 4, 1),
                                      ('write_bw', 1000, 1, 2), ('read_bw', 1000, 1, 1)]:
        port = free_port()
        common = ['-e', name, '-n', str(n), '-p', str(port), '-a', '--size-max', '16',
                  '--timeout', '3000', '-v', '-R', '-q', str(qps)]
        # read_lat with --qp-timeout: the CM gives the QPs that ACK timeout, not the path's.
        timeout = '20' if name == 'read_lat' else '17'
        if name == 'read_lat':
            common += ['-u', '20']
        label = '%s -R, %d QP(s)' % (name, qps)
        crc, cout, cerr, src_rc, sout, serr = cm_pair(t, binary, 'r', common, label)
        hdr = LAT_HDR if 'lat' in name else BW_HDR
        t.ok(len(table(cout, hdr)) == 4, '%s: the client reports 4 sizes' % label)
        t.ok(len(table(sout, hdr)) == server_rows, '%s: the server reports %d rows' %
             (label, server_rows))
        # The control connection and one per test QP, on both sides.
        for side, out in (('client', cout), ('server', sout)):
            est = len(re.findall(r'rdma_cm event ESTABLISHED', out))
            t.ok(est == 1 + qps, '%s: the %s saw %d ESTABLISHED (control + %d)' %
                 (label, side, est, qps))
        t.ok('waiting for a client on port %d (rdma_cm)' % port in sout,
             '%s: the server listens through rdma_cm' % label)
        # The CM moved the QPs: the negotiated values, queried (reads only on read tests).
        reads = 16 if name.startswith('read') else 0
        for side, out in (('client', cout), ('server', sout)):
            qp = re.findall(r'-R: QP \d+: QPN \d+ to peer QPN \d+, MTU 1024, ACK timeout '
                            r'(\d+), reads out (\d+) / in (\d+), retry 7, RNR retry 7', out)
            want = [(timeout, str(reads), str(reads))] * qps
            t.ok(qp == want, '%s: the %s\'s QPs: ACK timeout %s, %d reads each way (%s)' %
                 (label, side, timeout, reads, qp))
        t.ok('0 leaked objects' in cout and '0 leaked objects' in sout,
             '%s: both tear down cleanly (CM ids included)' % label)
        if crc != 0 or src_rc != 0:
            t.note(cout[-1500:] + cerr[-1000:] + sout[-1000:] + serr[-1000:])
    # UD through rdma_cm's UDP port space: SIDR resolves the peer's UD QP (no ESTABLISHED on
    # the passive side), both QPs in RTS with RDMA_UDP_QKEY, datagrams both ways. send_bw
    # streams 1000 datagrams at a server keeping 512 receives posted: a datagram that finds
    # none is dropped (IBA; a loaded machine delays the server), and, as perftest's, the
    # server counts what came and ends on the client's next message, not on the count.
    for name, n in [('send_lat', 100), ('send_bw', 1000)]:
        port = free_port()
        common = ['-e', name, '-c', 'UD', '-n', str(n), '-p', str(port), '-s', '64',
                  '--timeout', '3000', '-v', '-R']
        label = '%s -c UD -R' % name
        crc, cout, cerr, src_rc, sout, serr = cm_pair(t, binary, 'u', common, label)
        hdr = LAT_HDR if 'lat' in name else BW_HDR
        t.ok(len(table(cout, hdr)) == 1, '%s: the client reports a row' % label)
        if name == 'send_bw':
            got = re.findall(r'^ 64 +%d +\(server: (\d+) received, 0 sent\)' % n, sout, re.M)
            rows = table(cout, hdr)
            t.ok(len(got) == 1 and 0 < int(got[0]) <= n and rows and
                 int(rows[0][1]) == n,
                 '%s: the client sent %d, the server received %s (UD: at most that)' %
                 (label, n, got))
        t.ok(len(re.findall(r'rdma_cm event ESTABLISHED', cout)) == 2 and
             len(re.findall(r'rdma_cm event ESTABLISHED', sout)) == 1,
             '%s: ESTABLISHED: the client control + UD, the server control only' % label)
        for side, out in (('client', cout), ('server', sout)):
            t.ok(re.search(r'-R: QP 0: UD QPN \d+ in RTS, Q_Key 0x1234567', out) is not None,
                 '%s: the %s\'s UD QP in RTS with rdma_cm\'s Q_Key' % (label, side))
        # perftest's send_qp_num_for_ah: a latency test's client SENDs its QPN to the
        # server's UD QP once SIDR resolved it; the server posts a receive for it before it
        # accepts and takes it (the client's own QPN), a bandwidth test sends none.
        cqpn = re.findall(r'-R: QP 0: UD QPN (\d+) in RTS', cout)
        hello = re.findall(r'-R: QP 0: the client\'s QPN datagram: QPN (\d+)', sout)
        want = cqpn[:1] if name == 'send_lat' else []
        t.ok(hello == want and (name != 'send_lat' or len(cqpn) == 1),
             '%s: the server took the client\'s QPN datagram: %s (client QPN %s)' %
             (label, hello or 'none', cqpn))
        t.ok('0 leaked objects' in cout and '0 leaked objects' in sout,
             '%s: both tear down cleanly (CM ids included)' % label)
        if crc != 0 or src_rc != 0:
            t.note(cout[-1500:] + cerr[-1000:] + sout[-1000:] + serr[-1000:])
    rc, out, err = run(binary, 'rl', ['-e', 'write_lat', '-R'])
    t.ok(rc != 0 and 'add --server or --client' in err, '-R in one process is refused')


def check_patient_server(t, binary):
    """A write_bw server waits out a client run longer than its --timeout (its device's
    counters are its only sign of the client's work, and the model's do not move)."""
    port = free_port()
    common = ['-e', 'write_bw', '-n', '5000', '-s', '4096', '-p', str(port)]
    srv = start(binary, 'ls', common + ['--timeout', '300', '--server', '--dev', SERVER_DEV])
    time.sleep(0.5)
    began = time.time()
    cli = start(binary, 'lc', common + ['--timeout', '5000', '--client', '127.0.0.1',
                                        '--dev', CLIENT_DEV])
    crc, cout, cerr = finish(cli)
    took = time.time() - began
    src_rc, sout, serr = finish(srv)
    t.ok(crc == 0 and src_rc == 0 and len(table(sout, BW_HDR)) == 1,
         'write_bw server with --timeout 300 waits for a %.1f s client run (exit %s, %s)' %
         (took, src_rc, crc))
    if crc != 0 or src_rc != 0:
        t.note(cerr[-600:] + serr[-600:])


def check_mismatch(t, binary):
    """Different options on the two sides: both name the option and both values at once."""
    port = free_port()
    common = ['-e', 'write_bw', '-n', '1000', '-p', str(port), '--timeout', '2000']
    began = time.time()
    srv = start(binary, 'ms', common + ['-q', '1', '--server', '--dev', SERVER_DEV])
    time.sleep(0.5)
    cli = start(binary, 'mc', common + ['-q', '2', '-s', '64', '--client', '127.0.0.1',
                                        '--dev', CLIENT_DEV])
    crc, cout, cerr = finish(cli)
    src_rc, sout, serr = finish(srv)
    took = time.time() - began
    t.ok(crc not in (0, None) and src_rc not in (0, None),
         'mismatch: both sides fail (client %s, server %s, %.1f s)' % (crc, src_rc, took))
    t.ok('option mismatch: -q (qps): this side 2, the peer 1' in cerr and
         'option mismatch: -s (size): this side 64, the peer 2' in cerr,
         'mismatch: the client names -q and -s with both values')
    t.ok('option mismatch: -q (qps): this side 1, the peer 2' in serr and
         'option mismatch: -s (size): this side 2, the peer 64' in serr,
         'mismatch: the server names -q and -s with both values')
    t.ok('no progress' not in cerr + serr and 'closed the connection' not in cerr + serr,
         'mismatch: no timeout or lost-peer message')
    if crc == 0 or src_rc == 0 or 'option mismatch' not in cerr:
        t.note(cerr[-800:] + serr[-800:])


def mode_two_process_kill(t, binary, src):
    for victim in ('client', 'server'):
        port = free_port()
        # Long enough to be killed mid-run (4 M round trips), small enough to allocate.
        common = ['-e', 'send_lat', '-n', '4000000', '-s', '2', '-p', str(port),
                  '--timeout', '1000']
        srv = start(binary, 'ks', common + ['--server', '--dev', SERVER_DEV])
        time.sleep(0.5)
        cli = start(binary, 'kc', common + ['--client', '127.0.0.1', '--dev', CLIENT_DEV])
        time.sleep(2)
        dead, other = (cli, srv) if victim == 'client' else (srv, cli)
        dead.send_signal(signal.SIGKILL)
        dead.wait()
        began = time.time()
        rc, out, err = finish(other, timeout=60)
        t.ok(rc is not None, 'kill the %s: the other side does not hang (%.1f s)' %
             (victim, time.time() - began))
        t.ok(rc not in (0, None), 'kill the %s: the other side exits with an error (%s)' %
             (victim, rc))
        t.ok('failed' in err or 'closed the connection' in err,
             'kill the %s: it says why' % victim)
        t.note(err[-600:])


def mode_two_process_eth(t, binary, src):
    """Two processes on the model's Ethernet wire, a veth pair through net_af_packet (root;
    skipped otherwise): each side knows the other only by the GID perftest's exchange
    carries, so the destination MAC must come from ARP (the model's neighbour table), as it
    does against a real peer. RC write_lat and read_bw: the first request goes while the
    client's model still resolves the server (dropped, resent on the retransmit timer; a
    UD datagram would be lost), the server's model learnt the client's MAC from its ARP
    request."""
    tag = '%d' % (os.getpid() % 100000)
    va, vb = 'tpe%sa' % tag, 'tpe%sb' % tag
    # DPDK's net_af_packet joins a packet fanout group whose id is its pid XOR the
    # interface's index (low 16 bits), and the kernel refuses (EINVAL) a socket joining a
    # group of another interface. Two processes on the two ends of a veth pair collide
    # when their pids differ as the two indexes do; indexes 0x8000 apart make that need pids
    # about 32 Ki apart. Automatic indexes when these are taken.
    ia = 0x4000 + os.getpid() % 0x3000
    links = 'ip link set %s up && ip link set %s up' % (va, vb)
    if os.geteuid() != 0 or (subprocess.run(
            'ip link add %s index %d type veth peer name %s index %d && %s' %
            (va, ia, vb, ia ^ 0x8000, links), shell=True, capture_output=True).returncode != 0
            and subprocess.run('ip link add %s type veth peer name %s && %s' % (va, vb, links),
                               shell=True, capture_output=True).returncode != 0):
        t.ok(True, '# SKIP no veth pair (not root, or no ip / veth)')
        return
    net = '10.%d.%d.' % (1 + os.getpid() % 250, (os.getpid() // 250) % 250)
    try:
        for name, conn, hdr in [('write_lat', 'RC', LAT_HDR), ('read_bw', 'RC', BW_HDR)]:
            port = free_port()
            common = ['-e', name, '-n', '100', '-p', str(port), '-s', '64', '--timeout',
                      '2000', '-c', conn]
            srv = start(binary, 'es', common + ['--server', '--dev',
                        'irdma_model0,ip=%s1,wire=eth:net_af_packet0' % net],
                        ['--vdev', 'net_af_packet0,iface=%s' % va])
            time.sleep(0.5)
            cli = start(binary, 'ec', common + ['--client', '127.0.0.1', '--dev',
                        'irdma_model0,ip=%s2,wire=eth:net_af_packet0' % net],
                        ['--vdev', 'net_af_packet0,iface=%s' % vb])
            crc, cout, cerr = finish(cli)
            src_rc, sout, serr = finish(srv)
            desc = '%s %s on the Ethernet wire (ARP)' % (name, conn)
            t.ok(crc == 0 and src_rc == 0, '%s: client exit %s, server exit %s' %
                 (desc, crc, src_rc))
            t.ok(len(table(cout, hdr)) == 1, '%s: the client reports its row' % desc)
            if crc != 0 or src_rc != 0:
                t.note(cerr[-1000:] + serr[-1000:])
    finally:
        subprocess.run(['ip', 'link', 'del', va], capture_output=True)


VERBOSE_QP = re.compile(r'QP (\d+): local QPN 0x([0-9a-f]{6}) PSN 0x([0-9a-f]{6}) rkey '
                        r'0x([0-9a-f]{8}) addr 0x([0-9a-f]{16}) GID (\S+); remote QPN '
                        r'0x([0-9a-f]{6}) PSN 0x([0-9a-f]{6}) rkey 0x([0-9a-f]{8}) addr '
                        r'0x([0-9a-f]{16}) GID (\S+) out_reads (\d+)')
SETUP_QPN = re.compile(r'side: device \S+, (\d+) QP\(s\) from QPN (\d+)')


def dev_ip(dev):
    return re.search(r'ip=([0-9.]+)', dev).group(1)


def fake_records(qps, ip='10.99.0.7'):
    """The peer's QPs, as perftest would describe them (values rdma-testpmd must parse)."""
    return [pp.record(0, 16, 0x0abc00 + i, 0x123456 + i, 0xdeadbe00 + i,
                      0x7f00deadb000 + 0x1000 * i, pp.ipv4_gid(ip)) for i in range(qps)]


def check_records(t, name, peer, out, dev, qps, sent=None):
    """Every record rdma-testpmd sent against its QPs as it prints them (-v)."""
    qp = {int(m.group(1)): m for m in VERBOSE_QP.finditer(out)}
    setup = SETUP_QPN.search(out)
    ok = len(qp) == qps and len(peer.their_records) == qps and setup is not None
    for i in range(qps if ok else 0):
        m, r = qp[i], peer.their_records[i]
        ok = ok and (r['qpn'], r['psn'], r['rkey'], r['addr']) == (
            int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16), int(m.group(5), 16))
        ok = ok and r['gid'] == socket.inet_pton(socket.AF_INET6, m.group(6))
        ok = ok and r['gid'] == pp.ipv4_gid(dev_ip(dev))
        ok = ok and r['lid'] == 0 and r['srqn'] == 0 and r['out_reads'] == 16
        ok = ok and r['qpn'] == int(setup.group(2)) + i and r['psn'] < (1 << 24)
        if sent is not None:
            f = pp.parse_record(sent[i])
            ok = ok and (f['qpn'], f['psn'], f['rkey'], f['addr'], f['out_reads']) == (
                int(m.group(7), 16), int(m.group(8), 16), int(m.group(9), 16),
                int(m.group(10), 16), int(m.group(12)))
            ok = ok and f['gid'] == socket.inet_pton(socket.AF_INET6, m.group(11))
    t.ok(ok, '%s: each of the %d records is its QP\'s QPN, PSN, rkey, address and GID%s' %
         (name, qps, ', and ours were parsed right' if sent else ''))
    if not ok:
        t.note(out[-2000:])
        t.note(repr(peer.their_records))


def run_peer(fn):
    """Run fn() in a thread; returns a function giving (result, error)."""
    box = {}

    def body():
        try:
            box['r'] = fn()
        except (pp.PeerError, OSError) as e:
            box['e'] = e
    th = threading.Thread(target=body, daemon=True)
    th.start()

    def join(timeout=WAIT_S):
        th.join(timeout)
        return box.get('r'), box.get('e', None if not th.is_alive() else 'peer hung')
    return join


def against_server(binary, test, peer_fn, args=(), timeout_ms=2000):
    """rdma-testpmd --server and a perftest client peer_fn(sock)."""
    port = free_port()
    srv = start(binary, 'xs', ['-e', test, '-p', str(port), '--timeout', str(timeout_ms),
                               '-v', '-m', '1024', '--server', '--dev', SERVER_DEV] + list(args))
    began = time.time()
    join = run_peer(lambda: peer_fn(pp.connect(port)))
    rc, out, err = finish(srv)
    took = time.time() - began
    res, perr = join()
    return rc, out, err, res, perr, took


def against_client(binary, test, peer_fn, args=(), timeout_ms=2000):
    """A perftest server peer_fn(sock) and rdma-testpmd --client."""
    lsock = pp.listen()
    port = lsock.getsockname()[1]

    def serve():
        lsock.settimeout(WAIT_S)
        sock, _ = lsock.accept()
        lsock.close()
        return peer_fn(sock)
    join = run_peer(serve)
    began = time.time()
    cli = start(binary, 'xc', ['-e', test, '--timeout', str(timeout_ms), '-v', '-m', '1024',
                               '--client', '127.0.0.1:%d' % port, '--dev', CLIENT_DEV] +
                list(args))
    rc, out, err = finish(cli)
    took = time.time() - began
    res, perr = join()
    return rc, out, err, res, perr, took


def mode_perftest_exchange(t, binary, src):
    # rdma-testpmd --server against a perftest client: the passive tests run to the end with
    # no traffic, so every message of the sequence is checked, the BW report too.
    report = (4096, 5000, 1234.5, 1000.25, 0.256)
    for test, qps in (('write_bw', 2), ('read_bw', 1), ('read_lat', 1)):
        recs = fake_records(qps)
        peers = []

        def client(sock, test=test, qps=qps, recs=recs):
            p = pp.PerftestPeer(sock, 'client', test, qps=qps, records=recs,
                                bw_report=report)
            peers.append(p)
            p.run()
            return p
        rc, out, err, peer, perr, took = against_server(binary, test, client, ['-q', str(qps)])
        t.ok(rc == 0 and perr is None, '%s server / perftest client: exit %s, peer %s' %
             (test, rc, perr))
        if peers:
            p = peers[0]
            t.ok(p.version is not None and p.version.startswith(b'6.06\0'),
                 '%s: version field %r' % (test, p.version))
            t.ok(getattr(p, 'sysdata', None) == (os.sysconf('SC_PAGESIZE'), 64) and
                 getattr(p, 'their_mtu', None) == 3,
                 '%s: page size, cache line size and MTU (1024: "3")' % test)
            check_records(t, test, p, out, SERVER_DEV, qps, sent=recs)
        if test != 'read_lat':
            rows = table(out, BW_HDR)
            t.ok(len(rows) == 1 and rows[0][:2] == [4096, 5000] and
                 abs(rows[0][2] - 1234.5) < 0.01 and abs(rows[0][3] - 1000.25) < 0.01 and
                 abs(rows[0][4] - 0.256) < 0.001,
                 '%s: the server prints the client\'s report: %r' % (test, rows))
            t.ok(peers and peers[0].their_bw == (0, 0, 0.0, 0.0, 0.0),
                 '%s: the server\'s own report is zeros' % test)
        if rc != 0 or perr is not None:
            t.note(err[-1500:])

    # rdma-testpmd --client against a perftest server that hands each QP's record back: the
    # QPs are connected to themselves, so the client's traffic runs on its own model. Not
    # write_lat: its client only answers the server's writes (perftest's order).
    for test, sizes, conn in (('write_bw', 4, 'RC'), ('read_bw', 4, 'RC'),
                              ('read_lat', 4, 'RC'), ('send_lat', 4, 'RC'),
                              ('send_lat', 4, 'UD')):
        peers = []

        def server(sock, test=test, sizes=sizes):
            p = pp.PerftestPeer(sock, 'server', test, qps=1, sizes=sizes, records=None)
            peers.append(p)
            p.run()
            return p
        rc, out, err, peer, perr, took = against_client(
            binary, test, server, ['-a', '--size-max', '16', '-n', '200', '-c', conn])
        t.ok(rc == 0 and perr is None, '%s %s client / perftest server (echo): exit %s, peer %s'
             % (test, conn, rc, perr))
        hdr = BW_HDR if test.endswith('bw') else LAT_HDR
        rows = table(out, hdr)
        t.ok(len(rows) == sizes, '%s: the client reports %d sizes' % (test, sizes))
        if peers:
            check_records(t, test, peers[0], out, CLIENT_DEV, 1)
            if test.endswith('bw') and rows:
                bw = peers[0].their_bw
                t.ok(bw is not None and bw[:2] == (16, 200) and
                     all(abs(a - b) < 0.006 for a, b in zip(bw[2:], rows[-1][2:])),
                     '%s: the BW report is the client\'s last row: %r vs %r' %
                     (test, bw, rows[-1]))
        if rc != 0 or perr is not None:
            t.note(err[-1500:])

    # Failures: each a clear error, within the timeout, never a hang.
    def opening(sock, version=pp.VERSION + bytes(12)):
        p = pp.Peer(sock, 'client')
        p.xchg(version, 16, 'version')
        p.xchg(b'\0\0\x10\0', 4, 'page')
        p.xchg(b'\0\0\0\x40', 4, 'line')
        p.xchg(b'3\0', 2, 'MTU')
        return p

    def truncated(sock):
        opening(sock)
        sock.sendall(fake_records(1)[0][:60])
        time.sleep(8)

    def bad_byte(sock):
        opening(sock)
        rec = bytearray(fake_records(1)[0])
        rec[7] = ord('g')
        sock.sendall(bytes(rec))
        time.sleep(3)

    def bad_version(sock):
        sock.sendall(b'GET / HTTP/1.1\r\n')
        time.sleep(3)

    def old_version(sock):
        sock.sendall(b'5.60' + bytes(12))
        time.sleep(3)

    def early_close(sock):
        opening(sock)
        sock.close()

    cases = [
        ('truncated record', truncated, 'sent 60 of the 108 bytes of the QP 0 record'),
        ('a bad hex digit', bad_byte, 'record has 0x67 at byte 7, in its outstanding reads'),
        ('bad version string', bad_version, 'is not a perftest version string'),
        ('version too old', old_version, 'version string "5.60" is too old'),
        ('the peer closes early', early_close,
         'closed the connection instead of sending the QP 0 record'),
    ]
    for what, fn, msg in cases:
        rc, out, err, _, _, took = against_server(binary, 'write_bw', fn, timeout_ms=1000)
        t.ok(rc not in (0, None) and msg in err,
             'server, %s: exit %s after %.1f s, says so' % (what, rc, took))
        if rc in (0, None) or msg not in err:
            t.note(err[-800:])

    def server_closes(sock):
        p = pp.Peer(sock, 'server')
        p.xchg(pp.VERSION + bytes(12), 16, 'version')
        sock.close()
    rc, out, err, _, _, took = against_client(binary, 'send_lat', server_closes,
                                              timeout_ms=1000)
    # The close may reach the client before or after it sent the page size: a FIN (the read
    # sees the end), or an RST when the peer closed with our data unread (the send, or the
    # read after it, fails with EPIPE / ECONNRESET). Each is a named error.
    said = ('closed the connection instead of sending the page size' in err or
            'sending the page size to 127.0.0.1' in err or
            'receiving the page size from 127.0.0.1' in err)
    t.ok(rc not in (0, None) and said,
         'client, the server closes after the version: exit %s after %.1f s' % (rc, took))
    if rc in (0, None) or not said:
        t.note(err[-800:])


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    mode, binary, src = sys.argv[1:]
    t = Tap()
    globals()['mode_' + mode](t, binary, src)
    return t.done()


if __name__ == '__main__':
    sys.exit(main())
