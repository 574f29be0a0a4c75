#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check that libirdma-pmd.so exports exactly its version map, and that the map is exactly
the public API: the global symbols of the static library that the public headers name.

usage: check_exports.py <libirdma-pmd.so> <libirdma-pmd.a> <map> <public header>...
Prints TAP."""
import re
import subprocess
import sys


def nm(args):
    out = subprocess.run(['nm'] + args, check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBRV':
            syms.add(parts[2].split('@')[0])
    return syms


def main():
    so, archive, vmap, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    text = open(vmap).read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    mapped = set(re.findall(r'^\s*([A-Za-z_][A-Za-z0-9_]*);', text, flags=re.M))
    mapped -= {'local'}
    exported = nm(['-D', '--defined-only', so])
    globals_a = nm(['-g', '--defined-only', archive])
    public_text = ''.join(open(h).read() for h in headers)
    public = {s for s in globals_a if re.search(r'\b' + re.escape(s) + r'\b', public_text)}

    checks = [
        ('the shared library exports every mapped symbol', mapped - exported),
        ('the shared library exports nothing beyond the map', exported - mapped),
        ('every public function and variable is in the map', public - mapped),
        ('the map names only public symbols', mapped - public),
    ]
    print('1..%d' % len(checks))
    failed = 0
    for i, (name, bad) in enumerate(checks, 1):
        if bad:
            failed += 1
            print('not ok %d - %s: %s' % (i, name, ' '.join(sorted(bad))))
        else:
            print('ok %d - %s' % (i, name))
    print('# %d exported symbols' % len(exported))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
