#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's test command: set up, build, and run every test suite that can run here:
#   1. gcc release build: suites unit, stress, smoke (with hugepages when the machine has
#      them), then the unit suite again with --no-huge, and on 1 GB pages when there are some,
#      then the interop suite bounded (as root: ibv_rc_pingpong and perftest on rxe in a
#      QEMU VM) and the vfio suite (as root: the VFIO backend in a VM of our own QEMU);
#   2. clang build (-Wall -Wextra -Werror): unit suite, then the fuzz suite (libFuzzer on the
#      model's SQ, bounded: 60 s);
#   3. ASan + UBSan build: unit, stress and smoke suites;
#   4. TSan build (clang): the concurrency (stress) suite, without hugepages;
# and, first, devtools/check-git-log.sh on the commits since the base it records (one result
# in the totals).
# Exits non-zero on any failure; the last line is "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

passed=0
failed=0
# What each failed test printed last, shown again at the end, where a CI log's tail has it.
failures=$(mktemp)
trap 'rm -f "$failures"' EXIT

note() { printf '\n=== %s\n' "$*"; }

# Add the results of the last `meson test` in $1 to the totals.
count_results() {
    local counts
    counts=$(python3 - "$1/meson-logs/testlog.json" "$2" "$failures" <<'PY'
import json, sys
log, label, report = sys.argv[1:4]
ok = bad = 0
out = []
try:
    with open(log) as f:
        for line in f:
            t = json.loads(line)
            r = t.get("result", "")
            if r in ("OK", "EXPECTEDFAIL"):
                ok += 1
            elif r != "SKIP":
                bad += 1
                # the log lines (stderr) first, then the TAP results and diagnostics
                tail = ((t.get("stderr") or "").splitlines()[-20:] +
                        (t.get("stdout") or "").splitlines()[-40:])
                out.append("--- %s: %s %s (%.1f s)\n%s\n" % (label, t.get("name"), r,
                           t.get("duration", 0), "\n".join(tail)))
except OSError:
    bad += 1
    out.append("--- %s: no %s\n" % (label, log))
with open(report, "a") as f:
    f.write("".join(out))
print(ok, bad)
PY
)
    passed=$((passed + ${counts% *}))
    failed=$((failed + ${counts#* }))
}

# run_tests DIR LABEL SUITE... [-- ENV=VALUE...]   (a SUITE written !NAME leaves NAME out)
run_tests() {
    local dir=$1 label=$2
    shift 2
    local suites=() envs=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        case $1 in
            !*) suites+=(--no-suite "${1#!}") ;;     # !NAME: leave suite NAME out
            *) suites+=(--suite "$1") ;;
        esac
        shift
    done
    [ $# -gt 0 ] && shift
    envs=("$@")
    note "$label"
    rm -f "$dir/meson-logs/testlog.json"
    env "${envs[@]}" meson test -C "$dir" "${suites[@]}" --print-errorlogs \
        --num-processes "${RUN_TESTS_JOBS:-2}" \
        --timeout-multiplier "$((${TIMEOUT_MULTIPLIER:-1} * ${slow:-1}))" | grep -E '^ *[0-9]+/[0-9]+ |^(Ok|Fail|Skipped|Timeout):'
    count_results "$dir" "$label"
}

build() {
    local dir=$1 label=$2
    shift 2
    note "build: $label"
    if devtools/build.sh "$dir" "$@"; then
        echo "built $dir"
        return 0
    fi
    echo "BUILD FAILED: $label"
    echo "--- BUILD FAILED: $label (see $dir.ninja.log / $dir.setup.log)" >> "$failures"
    tail -40 "$dir.ninja.log" >> "$failures" 2>/dev/null
    failed=$((failed + 1))
    return 1
}

devtools/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

note "commit messages (devtools/check-git-log.sh)"
if gitlog=$(devtools/check-git-log.sh 2>&1); then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    printf -- '--- commit messages: devtools/check-git-log.sh\n%s\n' "$gitlog" >> "$failures"
fi
printf '%s\n' "$gitlog"

if build build "gcc, release"; then
    run_tests build "gcc: unit, stress, smoke" unit stress smoke
    run_tests build "gcc: unit with --no-huge" unit -- IRDMA_TEST_NO_HUGE=1
    if grep -q ' /dev/hugepages-1G hugetlbfs ' /proc/mounts &&
            [ "$(cat /sys/kernel/mm/hugepages/hugepages-1048576kB/free_hugepages)" -ge 1 ]; then
        # One test at a time, and the page files unlinked once mapped: the machine has only
        # a couple of 1 GB pages, each test process takes a whole one, and a process the
        # kill test ends would otherwise leave its page allocated to a file. Two tests
        # starting together found none free once ("Cannot get hugepage information").
        RUN_TESTS_JOBS=1 run_tests build "gcc: unit on 1 GB pages" unit -- \
            "IRDMA_TEST_EAL_ARGS=--huge-dir /dev/hugepages-1G --huge-unlink"
    else
        note "gcc: unit on 1 GB pages: skipped, no free 1 GB page"
    fi
    # Interop with Linux soft-RoCE in a QEMU VM (tests/vm), bounded: ibv_rc_pingpong with
    # 200 iterations a run, perftest's six tests once per role, rping both ways, perftest -R
    # (write_lat and send_bw, both roles) against rdma-testpmd -R (IRDMA_VM_FULL=1 would run
    # the whole matrix): 8-13 minutes, plus the VM cache build the first time.
    if [ "$(id -u)" -eq 0 ]; then
        run_tests build "gcc: interop, rxe in a VM (bounded)" interop -- IRDMA_VM_ITERS=200
        why=$(grep -o '1\.\.0 # SKIP[^"\\]*' build/meson-logs/testlog.json 2>/dev/null | head -n 1)
        [ -n "$why" ] && note "gcc: interop: skipped, the VM cannot be built: ${why#1..0 # SKIP }"
    else
        note "gcc: interop: skipped, not root"
    fi
    # The VFIO backend in a VM (tests/vm/vfio_e810.sh): a QEMU of our own with the
    # irdma-e810 device, built from Debian's source package into build/qemu-cache (reused
    # while its inputs are unchanged; doc/vfio-testing.md has the minutes), then four
    # rdma-testpmd tests over vfio-pci under intel-iommu against a host model.
    if [ "$(id -u)" -eq 0 ]; then
        run_tests build "gcc: vfio, irdma-e810 in a VM (bounded)" vfio -- IRDMA_VM_ITERS=200
        why=$(grep -o '1\.\.0 # SKIP[^"\\]*' build/meson-logs/testlog.json 2>/dev/null | head -n 1)
        [ -n "$why" ] && note "gcc: vfio: skipped: ${why#1..0 # SKIP }"
    else
        note "gcc: vfio: skipped, not root"
    fi
fi
if CC=clang build build-clang "clang, release"; then
    run_tests build-clang "clang: unit" unit
    if meson test -C build-clang --suite fuzz --list 2>/dev/null | grep -q fuzz_model_sq; then
        run_tests build-clang "clang: fuzz (bounded)" fuzz
    else
        note "clang: fuzz: skipped, clang without libFuzzer"
    fi
fi
if build build-asan "gcc, ASan + UBSan" -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false; then
    # Sanitized code runs several times slower: each test's timeout is doubled (tripled
    # under TSan), so a busy machine does not turn slowness into a failure.
    slow=2 run_tests build-asan "ASan + UBSan: unit, stress, smoke" unit stress smoke -- \
        ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
if CC=clang build build-tsan "clang, TSan" -Dbuildtype=debugoptimized \
        -Db_sanitize=thread -Db_lundef=false; then
    # Without hugepages (--no-huge): EAL returns a freed hugepage to the system after
    # clearing it, and under TSan's memset that takes 10-25 s for one 2 MB page on a loaded
    # machine, so a test that starts and stops a device a dozen times ran past its timeout.
    # The release and ASan blocks run the same tests on hugepages; this one is for races.
    slow=3 run_tests build-tsan "TSan: stress (--no-huge)" stress -- \
        TSAN_OPTIONS="halt_on_error=1 suppressions=$top/devtools/tsan.supp" \
        IRDMA_TEST_NO_HUGE=1
fi

note "summary"
if [ -s "$failures" ]; then
    echo "failed tests, with the end of what each printed:"
    cat "$failures"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
