#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""Check every header the build installs, as an application sees it: installed into a
temporary root and found through the installed libirdma-pmd.pc only.

- each header compiles alone, as the first and only include of its translation unit, as
  C11 (gcc, clang) and as C++17 (g++, clang++), with -Wall -Wextra -Werror -pedantic;
- all of them compile together, in both languages;
- each one that declares anything has extern "C" guards;
- every structure they define has the same size and alignment in C and in C++.

The list is the build's own install list (`meson introspect --installed`), so a header added
to any install_headers() is checked without touching this file. A compiler that is not
installed is skipped (reported as such), never silently passed.

usage: check_headers.py <build dir>. Prints TAP."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADER_EXT = ('.h', '.hh', '.hpp')
WARN = ['-Wall', '-Wextra', '-Werror', '-pedantic']
COMPILERS = [
    # (name, language, standard flag, source suffix)
    ('gcc', 'c', '-std=c11', '.c'),
    ('clang', 'c', '-std=c11', '.c'),
    ('g++', 'c++', '-std=c++17', '.cc'),
    ('clang++', 'c++', '-std=c++17', '.cc'),
]
# C and C++ pairs whose structure layouts must agree.
LAYOUT_PAIRS = [('gcc', 'g++'), ('clang', 'clang++')]


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, good, name, detail=''):
        self.n += 1
        print('%s %d - %s' % ('ok' if good else 'not ok', self.n, name))
        if not good:
            self.failed += 1
            for line in detail.rstrip().splitlines()[:40]:
                print('# ' + line)

    def skip(self, name, why):
        self.n += 1
        print('ok %d - %s # SKIP %s' % (self.n, name, why))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def installed_headers(build):
    """(source, installed destination) of every header in the build's install list."""
    out = run(['meson', 'introspect', '--installed', build])
    if out.returncode != 0:
        sys.exit('Bail out! meson introspect --installed failed: ' + out.stderr.strip())
    files = json.loads(out.stdout)
    return sorted((src, dst) for src, dst in files.items() if dst.endswith(HEADER_EXT))


def struct_names(paths):
    names = []
    for p in paths:
        for m in re.finditer(r'^(?:typedef\s+)?struct\s+(\w+)\s*\{', open(p).read(), re.M):
            if m.group(1) not in names:
                names.append(m.group(1))
    return names


def layout_program(includes, structs, lang):
    align = '_Alignof' if lang == 'c' else 'alignof'
    lines = ['#include <%s>' % i for i in includes]
    lines += ['#include <stdio.h>', 'int main(void)', '{']
    for s in structs:
        lines.append('\tprintf("struct %s %%zu %%zu\\n", sizeof(struct %s), %s(struct %s));'
                     % (s, s, align, s))
    lines += ['\treturn 0;', '}', '']
    return '\n'.join(lines)


def main():
    build = sys.argv[1]
    headers = installed_headers(build)
    tmp = tempfile.mkdtemp(prefix='check_headers.')
    try:
        return check(build, headers, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check(build, headers, tmp):
    tap = Tap()
    root = os.path.join(tmp, 'root')
    inst = run(['meson', 'install', '-C', build, '--destdir', root, '--no-rebuild', '--quiet',
                '--tags', 'devel'])
    pcs = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f == 'libirdma-pmd.pc']
    if inst.returncode != 0 or not pcs:
        print('1..1')
        tap.ok(False, 'meson install of the devel files', inst.stdout + inst.stderr)
        return 1
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]))
    cflags = run(['pkg-config', '--cflags', 'libirdma-pmd'], env=env)
    if cflags.returncode != 0:
        print('1..1')
        tap.ok(False, 'pkg-config --cflags libirdma-pmd', cflags.stderr)
        return 1
    cflags = cflags.stdout.split()
    incdirs = [os.path.normpath(f[2:]) for f in cflags if f.startswith("-I")]

    # Each header by the name an application writes: relative to a -I directory of the .pc.
    names = []
    paths = []
    for src, dst in headers:
        path = root + dst
        paths.append(path)
        name = None
        for d in incdirs:
            if path.startswith(d.rstrip('/') + '/'):
                name = os.path.relpath(path, d)
                break
        names.append(name or path)
    have = {c[0]: shutil.which(c[0]) is not None for c in COMPILERS}
    structs = struct_names(paths)
    plan = (1 + len(headers) * (len(COMPILERS) + 1) + len(COMPILERS) + len(LAYOUT_PAIRS))
    print('1..%d' % plan)
    tap.ok(len(headers) > 0, 'the build installs headers: ' + ' '.join(names))

    def compile_tu(comp, text, tag, link=False):
        cname, lang, std, suffix = comp
        src = os.path.join(tmp, '%s.%s%s' % (tag, cname.replace('+', 'x'), suffix))
        with open(src, 'w') as f:
            f.write(text)
        if link:
            out = src + '.exe'
            cmd = [cname, std] + WARN + cflags + ['-o', out, src]
        else:
            out = None
            cmd = [cname, std] + WARN + cflags + ['-fsyntax-only', src]
        r = run(cmd)
        return r.returncode == 0, ' '.join(cmd) + '\n' + r.stdout + r.stderr, out

    for name, path in zip(names, paths):
        for comp in COMPILERS:
            label = '%s compiles alone as %s (%s)' % (name, comp[1].upper(), comp[0])
            if not have[comp[0]]:
                tap.skip(label, comp[0] + ' not installed')
                continue
            good, log, _ = compile_tu(comp, '#include <%s>\n' % name,
                                      'alone_' + re.sub(r'\W', '_', name))
            tap.ok(good, label, log)
        text = open(path).read()
        declares = re.search(r'^\s*(?:extern|struct|enum|union|typedef|static|int|void)\b',
                             text, re.M)
        guarded = re.search(r'#ifdef __cplusplus\s*\nextern "C" \{', text) and \
            re.search(r'#ifdef __cplusplus\s*\n\}', text)
        tap.ok(not declares or guarded, '%s has extern "C" guards' % name)

    together = ''.join('#include <%s>\n' % n for n in names)
    for comp in COMPILERS:
        label = 'all installed headers together as %s (%s)' % (comp[1].upper(), comp[0])
        if not have[comp[0]]:
            tap.skip(label, comp[0] + ' not installed')
            continue
        good, log, _ = compile_tu(comp, together, 'together')
        tap.ok(good, label, log)

    # One layout in both languages: what an application compiled as C++ passes to the
    # library compiled as C.
    comps = {c[0]: c for c in COMPILERS}
    for c_name, cxx_name in LAYOUT_PAIRS:
        label = 'C (%s) and C++ (%s) agree on the size and alignment of %d structures' % (
            c_name, cxx_name, len(structs))
        if not (have[c_name] and have[cxx_name]):
            tap.skip(label, 'needs both compilers')
            continue
        outputs = []
        logs = ''
        for cname in (c_name, cxx_name):
            comp = comps[cname]
            good, log, exe = compile_tu(comp, layout_program(names, structs, comp[1]),
                                        'layout', link=True)
            r = run([exe]) if good else None
            if not good or r.returncode != 0:
                logs += log + (r.stderr if r else '')
                outputs.append(None)
            else:
                outputs.append(r.stdout)
        same = outputs[0] is not None and outputs[0] == outputs[1]
        if not same and outputs[0] is not None and outputs[1] is not None:
            a = outputs[0].splitlines()
            b = outputs[1].splitlines()
            logs += '\n'.join('C: %s / C++: %s' % (x, y) for x, y in zip(a, b) if x != y)
        tap.ok(same, label, logs)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
