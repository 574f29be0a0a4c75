#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check what `meson setup` told the person who ran it, from the build's meson-logs/meson-log.txt:
every compile check that came out NO is one named as an expected compile error (so no line
reads like a failure of the build), none of those compiled, the sanity check beside them
compiled, and the setup ended with the summary's Toolchain, Build and Parts sections.

usage: check_setup_log.py <build dir>. Prints TAP."""
import os
import re
import sys

from tap_report import report

EXPECTED = 'expected compile error'
CHECK = re.compile(r'^Checking if "(?P<name>[^"]*)".* compiles: (?P<res>YES|NO)\b', re.M)
SECTIONS = ('Toolchain', 'Build', 'Parts')


def main():
    log = os.path.join(sys.argv[1], 'meson-logs', 'meson-log.txt')
    try:
        text = open(log, encoding='utf-8', errors='replace').read()
    except OSError as e:
        print('1..1\nnot ok 1 - read %s: %s' % (log, e))
        return 1
    checks = [(m.group('name'), m.group('res')) for m in CHECK.finditer(text)]
    results = []
    bad = [n for n, r in checks if r == 'NO' and not n.startswith(EXPECTED)]
    results.append(('every compile check that says NO is named "%s ..."' % EXPECTED, bad))
    expected = [(n, r) for n, r in checks if n.startswith(EXPECTED)]
    bad = [n + ': compiled' for n, r in expected if r == 'YES']
    if not expected:
        bad.append('no expected-error check ran (the irdma base misuse checks)')
    results.append(('the %d expected compile errors were errors' % len(expected), bad))
    sanity = [r for n, r in checks if n.endswith('(must compile)')]
    results.append(('the checks marked "(must compile)" compiled',
                    ['none ran'] if not sanity else
                    ['%d of %d did not' % (sanity.count('NO'), len(sanity))]
                    if 'NO' in sanity else []))
    # The summary: "<project> <version>", then each section's title alone on its line.
    tail = text[text.rfind('\nirdma-pmd '):] if '\nirdma-pmd ' in text else ''
    bad = [s for s in SECTIONS if re.search(r'^\s+%s\s*$' % s, tail, re.M) is None]
    results.append(('setup ends with the summary (%s)' % ', '.join(SECTIONS),
                    ['no "irdma-pmd <version>" summary'] if not tail else
                    ['section %s missing' % s for s in bad]))
    return report(results)


if __name__ == '__main__':
    sys.exit(main())
