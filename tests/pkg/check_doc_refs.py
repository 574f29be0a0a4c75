#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check that the repository stands on its own: no tracked file links or cites a path outside
it, every relative markdown link in README.md and doc/ resolves to a file, and every
"hardware.md §n" citation names a section doc/hardware.md has, as does every bare "§n" (one
with no file on its line, other specifications named first: IBA, RFC), in a file that names
doc/hardware.md.

usage: check_doc_refs.py <source root>
The files are the ones git tracks (or, without git, every file under the root but build
directories). Prints TAP."""
import os
import re
import subprocess
import sys

from tap_report import report

SELF = 'tests/pkg/check_doc_refs.py'
# Paths outside the repository, and the team's notes that are not part of it. The patterns
# are assembled so that this file does not match them itself.
OUTSIDE = [
    ('a path into ../shared', re.compile(re.escape('..' + '/shared'))),
    ('an absolute /work path', re.compile(re.escape('/' + 'work/'))),
    ('an absolute /home path', re.compile(re.escape('/' + 'home/'))),
    ('a file of shared/reference', re.compile(re.escape('shared' + '/reference'))),
    ('the fact sheet', re.compile('fact' + r'[ -]?' + 'sheet', re.I)),
]
SECTION_HEADING = re.compile(r'^#+\s+§(\d+(?:\.\d+)*)\b', re.M)
SECTION_REF = re.compile(r'§(\d+(?:\.\d+)*)')
OTHER_SPEC = re.compile(r'\b(IBA|RFC|vol\.)')
OLD_ITEM = re.compile(r'§\d+(?:\.\d+)*\s+item\s+\d')
MD_LINK = re.compile(r'(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')


def tracked(top):
    try:
        out = subprocess.run(['git', '-C', top, 'ls-files', '-z'], check=True,
                             capture_output=True, text=True).stdout
        files = [f for f in out.split('\0') if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(top):
        rel = os.path.relpath(d, top)
        dirs[:] = [x for x in dirs if not x.startswith('build') and x != '.git']
        for n in names:
            files.append(os.path.normpath(os.path.join(rel, n)))
    return files


def read_text(path):
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    if b'\0' in data:
        return None
    return data.decode('utf-8', errors='replace')


def main():
    top = sys.argv[1]
    files = sorted(f for f in tracked(top) if f != SELF)
    texts = {}
    for f in files:
        t = read_text(os.path.join(top, f))
        if t is not None:
            texts[f] = t

    results = []

    # 1. Nothing points outside the repository.
    bad = []
    for f, t in texts.items():
        for i, line in enumerate(t.split('\n'), 1):
            for what, rx in OUTSIDE:
                if rx.search(line):
                    bad.append('%s:%d: %s: %s' % (f, i, what, line.strip()[:100]))
    results.append(('no file links or cites a path outside the repository', bad))

    # 2. Relative markdown links of README.md and doc/ resolve to files.
    bad = []
    docs = [f for f in texts if f == 'README.md' or (f.startswith('doc/') and f.endswith('.md'))]
    for f in docs:
        for i, line in enumerate(texts[f].split('\n'), 1):
            for m in MD_LINK.finditer(line):
                target = m.group(1)
                if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I) or target.startswith('#'):
                    continue
                path = target.split('#', 1)[0]
                full = os.path.normpath(os.path.join(top, os.path.dirname(f), path))
                inside = os.path.commonpath([os.path.abspath(top), os.path.abspath(full)])
                if inside != os.path.abspath(top):
                    bad.append('%s:%d: link leaves the repository: %s' % (f, i, target))
                elif not os.path.exists(full):
                    bad.append('%s:%d: link to a missing file: %s' % (f, i, target))
    results.append(('every relative link in README.md and doc/ resolves to a file', bad))

    # 3. Every "hardware.md §n" names a section of doc/hardware.md.
    hw = texts.get('doc/hardware.md')
    bad = []
    if hw is None:
        bad.append('doc/hardware.md is missing')
        sections = set()
    else:
        sections = set(SECTION_HEADING.findall(hw))
        if not sections:
            bad.append('doc/hardware.md has no "§n" headings')
    for f, t in texts.items():
        for i, line in enumerate(t.split('\n'), 1):
            if f != 'doc/hardware.md' and 'hardware.md' not in line:
                continue
            for n in SECTION_REF.findall(line):
                if n not in sections:
                    bad.append('%s:%d: §%s is not a section of doc/hardware.md' % (f, i, n))
    results.append(('every doc/hardware.md §n citation names a section that exists', bad))

    # 4. A bare "§n" (no file named on its line) is a section of doc/hardware.md too: the
    #    file names doc/hardware.md, the section exists and is written as hardware.md numbers
    #    it (§10.7, not "§10 item 7"). A citation of another specification names it first
    #    on the line (IBA, RFC, "vol.").
    bad = []
    for f, t in texts.items():
        if f == 'doc/hardware.md':
            continue
        names_hw = 'hardware.md' in t
        for i, line in enumerate(t.split('\n'), 1):
            if 'hardware.md' in line or '§' not in line:
                continue
            for m in SECTION_REF.finditer(line):
                if OTHER_SPEC.search(line[:m.start()]):
                    continue
                where = '%s:%d: §%s' % (f, i, m.group(1))
                if not names_hw:
                    bad.append(where + ': the file never names doc/hardware.md')
                elif m.group(1) not in sections:
                    bad.append(where + ' is not a section of doc/hardware.md')
                elif OLD_ITEM.match(line, m.start()):
                    bad.append(where + ' item ...: write the subsection (§n.m)')
    results.append(('every bare §n citation is a doc/hardware.md section, written as its '
                    'heading', bad))

    return report(results)


if __name__ == '__main__':
    sys.exit(main())
