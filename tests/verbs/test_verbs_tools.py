#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""rdma-core's and perftest's own binaries, unmodified, on the PMD through devtools/with-verbs.sh.

    test_verbs_tools.py <with-verbs.sh> <test_verbs> <build dir> [case ...]

Cases: devices (ibv_devices), devinfo (ibv_devinfo -v: every field checked against what
rdmadev reports, as `test_verbs --print` prints it); rc_pingpong, ud_pingpong (rdma-core's
examples, server and client processes), rc_pingpong_events (-e); write_lat, read_lat, send_lat, send_lat_ud,
write_bw, read_bw, send_bw, send_bw_ud (perftest, -x 0: the IPv4-mapped GID). Prints TAP.
A binary that is not installed makes its case a skip.
"""
import ipaddress
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

WITH_VERBS, TEST_VERBS, BUILD = sys.argv[1:4]
CASES = sys.argv[4:] or ['devices', 'devinfo']
DEVARGS = 'irdma_model0,ip=10.9.8.7'
results = []


def env(devargs=DEVARGS, extra=None):
    """The environment a user sets: the devices, and --no-huge when told to."""
    e = dict(os.environ, BUILD=BUILD, IRDMA_PMD_DEVARGS=devargs)
    if os.environ.get('IRDMA_TEST_NO_HUGE') and 'IRDMA_PMD_EAL' not in os.environ:
        e['IRDMA_PMD_EAL'] = ('--no-huge -m 512 --no-shconf --no-pci --no-telemetry '
                              '--log-level=lib.eal:error')
    e.update(extra or {})
    return e


def run(cmd, devargs=DEVARGS, timeout=60):
    """Run @cmd through with-verbs.sh; (exit code, stdout, stderr)."""
    p = subprocess.run([WITH_VERBS] + cmd, env=env(devargs), capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(ok, name, detail=''):
    results.append((ok, name, detail))


def rdmadev_view():
    """key -> value (gid: index -> 16 bytes) as rdmadev reports them."""
    p = subprocess.run([TEST_VERBS, '--print'], env=env(), capture_output=True, text=True,
                       timeout=60)
    view, gids = {}, {}
    for line in p.stdout.splitlines():
        f = line.split()
        if f and f[0] == 'gid':
            gids[int(f[1])] = bytes.fromhex(f[2])
        elif len(f) >= 2:
            view[f[0]] = ' '.join(f[1:])
    view['gids'] = gids
    return view


def have(binary):
    if shutil.which(binary) is None:
        check(True, binary, '# SKIP %s is not installed' % binary)
        return False
    return True


def case_devices():
    if not have('ibv_devices'):
        return
    rc, out, err = run(['ibv_devices'], devargs=DEVARGS + ';irdma_model1,ip=10.9.8.8')
    check(rc == 0, 'ibv_devices exits 0', err)
    rows = re.findall(r'^\s+(irdma_model\d)\s+([0-9a-f]{16})$', out, re.M)
    names = [r[0] for r in rows]
    check(names == ['irdma_model0', 'irdma_model1'], 'ibv_devices lists both model devices',
          out)
    view = rdmadev_view()
    mac = bytes(int(x, 16) for x in view['mac'].split(':'))
    eui = bytes([mac[0] ^ 2, mac[1], mac[2], 0xff, 0xfe, mac[3], mac[4], mac[5]]).hex()
    check(rows[:1] == [('irdma_model0', eui)], 'node GUID is the EUI-64 of the MAC',
          '%s vs %s' % (rows[:1], eui))


def fake_sysfs(root):
    """A sysfs tree with two E810 functions (8086:1593): 0000:3b:00.0 bound to vfio-pci in
    IOMMU group 7, 0000:3b:00.1 bound to ice."""
    for fn, drv in (('0000:3b:00.0', 'vfio-pci'), ('0000:3b:00.1', 'ice')):
        d = os.path.join(root, 'bus/pci/devices', fn)
        os.makedirs(d)
        for name, value in (('vendor', '0x8086'), ('device', '0x1593')):
            with open(os.path.join(d, name), 'w') as f:
                f.write(value + '\n')
        os.makedirs(os.path.join(root, 'bus/pci/drivers', drv), exist_ok=True)
        os.symlink('../../../../bus/pci/drivers/' + drv, os.path.join(d, 'driver'))
        if drv == 'vfio-pci':
            os.makedirs(os.path.join(root, 'kernel/iommu_groups/7'))
            os.symlink('../../../../kernel/iommu_groups/7', os.path.join(d, 'iommu_group'))


def case_default_devices():
    """Without IRDMA_PMD_DEVARGS the layer opens every E810 bound to vfio-pci, then the
    model: here the one on vfio-pci is tried (and cannot open: no VFIO on this host), the
    one on ice is named as not used, and the model is listed."""
    if not have('ibv_devices'):
        return
    with tempfile.TemporaryDirectory() as root:
        fake_sysfs(root)
        e = env()
        del e['IRDMA_PMD_DEVARGS']
        e['RDMADEV_SYSFS_ROOT'] = root
        p = subprocess.run([WITH_VERBS, 'ibv_devices'], env=e, capture_output=True,
                           text=True, timeout=60)
    names = re.findall(r'^\s+(irdma\S*)\s+[0-9a-f]{16}$', p.stdout, re.M)
    check(p.returncode == 0 and names == ['irdma_model0'],
          'no IRDMA_PMD_DEVARGS: the model is listed (the E810s cannot open here)',
          p.stdout + p.stderr)
    check('E810 0000:3b:00.0 on vfio-pci: opening irdma:0000:3b:00.0' in p.stderr and
          'rdmadev_open("irdma:0000:3b:00.0")' in p.stderr,
          'no IRDMA_PMD_DEVARGS: the E810 on vfio-pci is opened (and its failure named)',
          p.stderr)
    check('E810 0000:3b:00.1 not used: bound to ice' in p.stderr,
          'no IRDMA_PMD_DEVARGS: the E810 bound to ice is named as not used', p.stderr)


def field(out, name):
    m = re.search(r'^\s*%s:\s+(.*?)\s*$' % re.escape(name), out, re.M)
    return m.group(1) if m else None


def case_devinfo():
    if not have('ibv_devinfo'):
        return
    rc, out, err = run(['ibv_devinfo', '-v'])
    check(rc == 0, 'ibv_devinfo -v exits 0', err)
    view = rdmadev_view()
    check(field(out, 'hca_id') == view['hca_id'], 'hca_id is the rdmadev name', out[:200])
    check(field(out, 'transport') == 'InfiniBand (0)', 'transport InfiniBand (RoCE)')
    check(field(out, 'fw_ver') == view['fw_ver'], 'fw_ver is the port firmware version',
          '%s vs %s' % (field(out, 'fw_ver'), view['fw_ver']))
    check(field(out, 'vendor_id') == '0x8086', 'vendor_id Intel')
    for key in ['max_qp', 'max_qp_wr', 'max_cq', 'max_cqe', 'max_mr', 'max_pd', 'max_sge',
                'max_qp_rd_atom', 'max_ah', 'phys_port_cnt']:
        check(field(out, key) == view[key], '%s is rdmadev\'s' % key,
              '%s vs %s' % (field(out, key), view[key]))
    for key in ['max_mr_size', 'page_size_cap']:
        got = field(out, key)
        check(got is not None and int(got, 16) == int(view[key], 16), '%s is rdmadev\'s' % key,
              '%s vs %s' % (got, view[key]))
    check(field(out, 'state') == 'PORT_ACTIVE (4)', 'port ACTIVE')
    check(field(out, 'link_layer') == 'Ethernet', 'link layer Ethernet')
    check(field(out, 'port_lid') == '0', 'LID 0')
    check((field(out, 'max_mtu') or '').startswith(view['max_mtu'] + ' '), 'max_mtu',
          '%s vs %s' % (field(out, 'max_mtu'), view['max_mtu']))
    check((field(out, 'active_mtu') or '').startswith(view['active_mtu'] + ' '), 'active_mtu',
          '%s vs %s' % (field(out, 'active_mtu'), view['active_mtu']))
    check(field(out, 'gid_tbl_len') == view['gid_tbl_len'], 'gid_tbl_len')
    gids = re.findall(r'GID\[\s*(\d+)\]:\s+(\S+), (RoCE v\d)', out)
    check(len(gids) == len(view['gids']) and len(gids) > 0, 'every GID listed', str(gids))
    for idx, text, kind in gids:
        want = view['gids'].get(int(idx))
        got = ipaddress.IPv6Address(text).packed
        check(want == got and kind == 'RoCE v2', 'GID[%s] %s is rdmadev\'s, RoCE v2' % (idx, text),
              '%s vs %s' % (got.hex(), want.hex() if want else None))
    check('::ffff:10.9.8.7' in out, 'the ip= address is GID 0 (IPv4-mapped)')


NET = '127.%d.%d' % (1 + os.getpid() % 250, os.getpid() // 250 % 250)
PORT = [20000 + os.getpid() % 20000]


def listening(port, proc, bound=240):
    """Wait until something listens on TCP @port (/proc/net/tcp and tcp6) or @proc ends;
    @bound seconds at the most (a liveness bound)."""
    want = ':%04X ' % port
    for _ in range(bound * 10):
        if proc.poll() is not None:
            return
        for f in ('/proc/net/tcp', '/proc/net/tcp6'):
            try:
                for line in open(f).read().splitlines()[1:]:
                    fields = line.split()
                    if (fields[1] + ' ').endswith(want) and fields[3] == '0A':
                        return
            except OSError:
                pass
        time.sleep(0.1)


def pair(name, args, thread, iters):
    """Server and client of @args, each on its own model device on the UDP wire
    (NET.1 and NET.2, ports and addresses from our pid so that two runs at once do not
    collide); (client rc, client out, server rc, server out)."""
    PORT[0] += 1
    mode = ',mode=thread' if thread else ''
    dev = 'irdma_model0%s,ip=%s.%%d,wire=udp:%s.%%d' % (mode, NET, NET)
    port = ['-p', str(PORT[0])]
    server = subprocess.Popen([WITH_VERBS] + args + port, env=env(dev % (1, 1)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The client connects once: start it when the server listens (EAL's start takes a
    # while on a loaded host).
    listening(PORT[0], server)
    try:
        client = subprocess.run([WITH_VERBS] + args + port + ['%s.1' % NET],
                                env=env(dev % (2, 2)), capture_output=True, text=True,
                                timeout=300)
        crc, cout = client.returncode, client.stdout + client.stderr
    except subprocess.TimeoutExpired:
        crc, cout = -1, 'client timed out'
    try:
        sout, _ = server.communicate(timeout=60)
        src = server.returncode
    except subprocess.TimeoutExpired:
        server.kill()
        sout, _ = server.communicate()
        src = -1
    check(crc == 0, '%s: client exits 0' % name, cout)
    check(src == 0, '%s: server exits 0' % name, sout)
    return cout, sout


def case_pingpong(binary, extra, thread=True):
    # mode=thread: the engine answers while a program is off its CPU or blocked (on the
    # TCP exchange), so a loaded host cannot exhaust the RC retries (inline mode would).
    if not have(binary):
        return
    iters = 50
    name = ' '.join([binary] + extra)
    cout, sout = pair(name, [binary, '-g', '0', '-n', str(iters)] + extra, thread, iters)
    for side, out in (('client', cout), ('server', sout)):
        check(re.search(r'^%d iters in [0-9.]+ seconds = [0-9.]+ usec/iter$' % iters, out,
                        re.M) is not None, '%s: %s reports %d iterations' % (name, side, iters),
              out)
        check(re.search(r'remote address: LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, '
                        r'GID ::ffff:%s\.%d' % (re.escape(NET), 2 if side == 'server' else 1),
                        out) is not None, '%s: %s sees the peer\'s IPv4-mapped GID' %
              (name, side), out)


def case_rc_pingpong():
    case_pingpong('ibv_rc_pingpong', [])


def case_rc_pingpong_events():
    # -e: completion channel, ibv_req_notify_cq, ibv_get_cq_event, ibv_ack_cq_events; the
    # model delivers events from its own thread.
    case_pingpong('ibv_rc_pingpong', ['-e'])


def case_rc_pingpong_new_send():
    # -N: ibv_create_qp_ex with send_ops_flags, its sends by ibv_wr_start / ibv_wr_send /
    # ibv_wr_set_sge / ibv_wr_complete (the inline builders of the header).
    case_pingpong('ibv_rc_pingpong', ['-N'])


def case_ud_pingpong():
    case_pingpong('ibv_ud_pingpong', ['-s', '1024'])


def perftest(binary, extra, lat):
    name = ' '.join([binary] + extra)
    if not have(binary):
        return
    iters = 100
    cout, sout = pair(name, [binary, '-x', '0', '-n', str(iters)] + extra, True, iters)
    if lat:
        row = r'^\s*(\d+)\s+%d\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+' % iters
    else:
        row = r'^\s*(\d+)\s+%d\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+$' % iters
    for side, out in (('client', cout), ('server', sout)):
        m = re.search(r'^\s*#bytes\s+#iterations', out, re.M)
        if binary == 'ib_read_lat' and side == 'server':
            # perftest's read latency server only serves (src/read_lat.c prints on the client).
            check(m is None, '%s: server prints no table' % name, out)
            continue
        check(m is not None and re.search(row, out[m.end():], re.M) is not None,
              '%s: %s prints its table with %d iterations' % (name, side, iters), out)
        check('GID: 00:00:00:00:00:00:00:00:00:00:255:255:127' in out,
              '%s: %s uses the IPv4-mapped GID -x 0' % (name, side), out)


# The perftest cases: the binary, its extra arguments, and whether it measures latency.
PERFTESTS = {
    'write_lat': ('ib_write_lat', [], True),
    'read_lat': ('ib_read_lat', [], True),
    'send_lat': ('ib_send_lat', [], True),
    'send_lat_ud': ('ib_send_lat', ['-c', 'UD'], True),
    'write_bw': ('ib_write_bw', [], False),
    'read_bw': ('ib_read_bw', [], False),
    'send_bw': ('ib_send_bw', [], False),
    'send_bw_ud': ('ib_send_bw', ['-c', 'UD'], False),
}


for c in CASES:
    if c in PERFTESTS:
        perftest(*PERFTESTS[c])
    else:
        globals()['case_' + c]()
print('1..%d' % len(results))
for i, (ok, name, detail) in enumerate(results, 1):
    skip = detail.startswith('# SKIP')
    print('%s %d - %s%s' % ('ok' if ok else 'not ok', i, name, ' ' + detail if skip else ''))
    if not ok and detail:
        for line in detail.splitlines()[:40]:
            print('#   ' + line)
sys.exit(0 if all(r[0] for r in results) else 1)
