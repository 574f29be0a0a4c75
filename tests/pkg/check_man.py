#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check doc/rdma-testpmd.1 against the program: every option `rdma-testpmd -- --help` prints
is in the man page's OPTIONS section with the same short and long names, and the man page
has no option the program does not print; and the page renders without a warning through
man -l, groff -ww and, when installed, mandoc -T lint.

usage: check_man.py <rdma-testpmd> <rdma-testpmd.1>. Prints TAP."""
import os
import re
import shutil
import subprocess
import sys

# An option at the start of a --help line or of a man page tag line: "-e, --test NAME",
# "--server", "-a, --all".
OPT_RE = re.compile(r'^\s*(?:(-[A-Za-z0-9]),\s+)?(--[a-z0-9][a-z0-9-]*)\b')


def options(lines):
    """(short or '', long) of every line that starts with an option."""
    found = set()
    for line in lines:
        m = OPT_RE.match(line)
        if m:
            found.add((m.group(1) or '', m.group(2)))
    return found


def help_options(prog):
    cmd = [prog, '--no-huge', '-m', '512', '--no-pci', '--file-prefix', 'man%d' % os.getpid(),
           '--log-level=lib.eal:error', '--', '--help']
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, options(r.stdout.splitlines())


def man_sections(text):
    """Section name -> its lines, from man's plain text output."""
    sections = {}
    name = None
    for line in text.splitlines():
        if re.match(r'^[A-Z][A-Z ]+$', line):
            name = line.strip()
            sections[name] = []
        elif name:
            sections[name].append(line)
    return sections


def man_options(section):
    """The option tags of an OPTIONS section: the lines at the tag indent (7 columns)."""
    tags = [line for line in section if re.match(r'^ {7}-', line)]
    return options(tags)


def main():
    prog, page = sys.argv[1], sys.argv[2]
    print('1..6')
    n = 0
    failed = 0

    def ok(good, name, detail=''):
        nonlocal n, failed
        n += 1
        print('%s %d - %s' % ('ok' if good else 'not ok', n, name))
        if not good:
            failed += 1
            for line in detail.rstrip().splitlines()[:60]:
                print('# ' + line)

    rc, usage, helped = help_options(prog)
    ok(rc == 0 and len(helped) > 10, 'rdma-testpmd --help exits 0 and lists %d options'
       % len(helped), usage)

    env = dict(os.environ, LC_ALL='C', MANWIDTH='200', MAN_KEEP_FORMATTING='')
    r = subprocess.run(['man', '--warnings', '-l', page], capture_output=True, text=True,
                       env=env)
    text = re.sub(r'.\x08', '', r.stdout)
    ok(r.returncode == 0 and r.stderr == '' and 'OPTIONS' in text,
       'man --warnings -l renders the page without a warning', r.stderr)
    documented = man_options(man_sections(text).get('OPTIONS', []))

    missing = sorted(helped - documented)
    ok(not missing, 'every option of --help is in the man page',
       'not in the man page (or with other short/long names): ' +
       ' '.join('%s %s' % o for o in missing))
    extra = sorted(documented - helped)
    ok(not extra, 'every option of the man page is in --help',
       'not printed by --help: ' + ' '.join('%s %s' % o for o in extra))

    r = subprocess.run(['groff', '-man', '-Tascii', '-ww', '-z', page], capture_output=True,
                       text=True)
    ok(r.returncode == 0 and r.stderr == '', 'groff -man -ww: no warning', r.stderr)

    if shutil.which('mandoc'):
        r = subprocess.run(['mandoc', '-T', 'lint', '-W', 'warning', page],
                           capture_output=True, text=True)
        ok(r.returncode == 0 and not (r.stdout + r.stderr).strip(),
           'mandoc -T lint -W warning: clean', r.stdout + r.stderr)
    else:
        n += 1
        print('ok %d - mandoc -T lint # SKIP mandoc not installed' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
