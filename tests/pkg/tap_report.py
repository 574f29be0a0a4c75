# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
"""TAP output of the tests/pkg checks that gather (name, problems) pairs: "ok" when a check
found no problem, else "not ok" with each problem as a comment line."""


def report(results):
    """Print @results, a list of (name, [problem, ...]), as TAP; return the exit code."""
    print('1..%d' % len(results))
    failed = 0
    for k, (name, problems) in enumerate(results, 1):
        if problems:
            failed += 1
            print('not ok %d - %s' % (k, name))
            for p in problems:
                print('#   ' + p)
        else:
            print('ok %d - %s' % (k, name))
    return 1 if failed else 0
