#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions per operation on the measured paths, counted by callgrind: repeatable whatever
# else the machine does, unlike wall-clock numbers. Builds the benchmark in build/ if needed.
#   devtools/callgrind.sh            every restrack workload, every implementation
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bench=build/tests/restrack/bench_restrack
[ -f build/build.ninja ] || meson setup build >/dev/null || exit 1
ninja -C build "${bench#build/}" >/dev/null || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The benchmark's --quick op counts per thread (see bench_restrack.c).
ops_of() {
    case $1 in
        lookup|bulk) echo 131072 ;;
        mixed) echo 65536 ;;
        churn) echo 16384 ;;
    esac
}

printf '%-8s %-10s %12s\n' workload impl 'instr/op'
for w in lookup bulk mixed churn; do
    for impl in restrack mutex hash_gp hash_lkp; do
        [ "$w" = churn ] && [ "$impl" = hash_lkp ] && continue
        f="$out/$w.$impl"
        valgrind --tool=callgrind --callgrind-out-file="$f" \
            --toggle-collect="loop_${w}_${impl}" \
            "$bench" --quick --workload "$w" --threads 1 --impl "$impl" >/dev/null 2>&1 || {
            echo "callgrind run failed: $w $impl" >&2
            exit 1
        }
        total=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
        printf '%-8s %-10s %12d\n' "$w" "$impl" $((total / $(ops_of "$w")))
    done
done
