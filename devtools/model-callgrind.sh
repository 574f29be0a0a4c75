#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions per iteration of rdma-testpmd on the device model (inline mode: both sides,
# the PMD and the model in one thread), counted by callgrind inside the measured loop
# (tp_loop_run). Each workload runs with N and 2N iterations; the difference divided by N
# leaves out set-up, warm-up and teardown. doc/model.md "Performance" lists the results.
#   devtools/model-callgrind.sh          the default table
#   devtools/model-callgrind.sh N        with N iterations (default 2000)
# BUILD=dir selects the build directory (default build/).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${BUILD:-build}
n=${1:-2000}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null || exit 1
ninja -C "$build" app/rdma-testpmd >/dev/null || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Valgrind cannot reserve the VA space EAL wants for hugepage memseg lists: 4 KB pages.
eal=(--no-pci -l 0 --no-huge -m 512 --file-prefix "mcg$$" --log-level=lib.eal:error
     --no-telemetry)

# Instructions inside tp_loop_run for rdma-testpmd options "$@".
instr() {
    local f="$out/cg.$RANDOM"
    valgrind --tool=callgrind --callgrind-out-file="$f" --collect-atstart=no \
        --toggle-collect=tp_loop_run "$build/app/rdma-testpmd" "${eal[@]}" -- "$@" \
        >"$out/log" 2>&1 || { echo "callgrind run failed: $*" >&2; cat "$out/log" >&2; exit 1; }
    callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

# Per iteration: (instructions at 2N - instructions at N) / N.
per_iter() {
    local a b
    a=$(instr "$@" -n "$n") || exit 1
    b=$(instr "$@" -n $((2 * n))) || exit 1
    echo $(((b - a) / n))
}

printf '%-28s %12s\n' workload 'instr/iter'
while read -r name args; do
    # shellcheck disable=SC2086 # the options are words
    printf '%-28s %12s\n' "$name" "$(per_iter $args)"
done <<EOF
write_lat-2B -e write_lat -s 2
write_lat-2B-qps=8 -e write_lat -s 2 --dev irdma_model0,qps=8
send_lat-2B -e send_lat -s 2
read_lat-2B -e read_lat -s 2
write_bw-64B -e write_bw -s 64 -N
write_bw-64B-qps=8 -e write_bw -s 64 -N --dev irdma_model0,qps=8
EOF
