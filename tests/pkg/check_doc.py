#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Run doxygen on the public headers with the build's doc/Doxyfile, warnings as errors: an
undocumented function, macro, type or structure, a parameter left out of a function's
@param list, a @param naming no parameter or a broken reference fails.

usage: check_doc.py <doxygen> <Doxyfile>, or no arguments (skip: no doxygen). Prints TAP."""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 3:
        print('1..0 # SKIP doxygen not installed (devtools/setup.sh installs it)')
        return 0
    doxygen, doxyfile = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix='check_doc.')
    try:
        log = os.path.join(tmp, 'warnings.log')
        # Later assignments win: the build's file, then the overrides of this test.
        config = open(doxyfile).read() + '\n'.join([
            '',
            'OUTPUT_DIRECTORY = ' + tmp,
            'WARN_AS_ERROR = FAIL_ON_WARNINGS',
            'WARN_IF_UNDOCUMENTED = YES',
            'WARN_IF_DOC_ERROR = YES',
            'WARN_IF_INCOMPLETE_DOC = YES',
            'WARN_LOGFILE = ' + log,
            'QUIET = YES',
            '',
        ])
        r = subprocess.run([doxygen, '-'], input=config, capture_output=True, text=True)
        warnings = open(log).read() if os.path.exists(log) else ''
        index = os.path.join(tmp, 'html', 'index.html')
        print('1..2')
        good = r.returncode == 0 and os.path.exists(index)
        print('%s 1 - doxygen writes the API reference' % ('ok' if good else 'not ok'))
        if not good:
            for line in (r.stdout + r.stderr).splitlines()[:40]:
                print('# ' + line)
        clean = r.returncode == 0 and not warnings.strip()
        print('%s 2 - no doxygen warning on the public headers' % ('ok' if clean else 'not ok'))
        for line in warnings.splitlines()[:80]:
            print('# ' + line)
        return 0 if good and clean else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
