#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instructions per operation on the measured paths, counted by callgrind: repeatable whatever
# else the machine does, unlike wall-clock numbers. Builds the benchmark in build/ if needed.
#   devtools/callgrind.sh            every restrack workload, every implementation
#   devtools/callgrind.sh --uk       the irdma data path (post_send, post_send_tmpl, poll_cq)
#                                    beside its floor and rdma-core's counts (doc/baselines.md)
#   devtools/callgrind.sh --verbs    what libirdma-verbs adds per ibv_post_send WR, per
#                                    ibv_wr_* WRITE (wrx1) and per ibv_poll_cq completion
#                                    (doc/verbs.md)
# BUILD=dir selects the build directory (default build/).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# Valgrind cannot reserve the VA space EAL wants for hugepage memseg lists: count on
# --no-huge (4 KB pages); the instructions on the measured paths do not depend on it.
export IRDMA_TEST_NO_HUGE=1
build=${BUILD:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Instructions callgrind counted inside function $2 (and what it calls) in a run of "$@" after $2.
instr_in() {
    local f="$out/cg.$RANDOM" fn=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$f" --toggle-collect="$fn" "$@" \
        >/dev/null 2>&1 || { echo "callgrind run failed: $fn" >&2; exit 1; }
    callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

if [ "${1:-}" = --verbs ]; then
    # libirdma-verbs (lib/verbs): instructions of the inline ibv_post_send / ibv_poll_cq
    # through the layer (vb_post / vb_poll of tests/verbs/bench_verbs.c) minus those of the
    # driver functions they reach, per WR and per completion: what the layer adds to
    # rdmadev's own cost (the --uk numbers). The model runs inside the driver's doorbell
    # and poll, so it is in both counts and cancels out.
    bench=$build/tests/verbs/bench_verbs
    ninja -C "$build" "${bench#"$build"/}" >/dev/null || exit 1
    printf '%-8s %12s %12s %12s %12s\n' workload 'post/WR' 'layer/WR' 'poll/CQE' 'layer/CQE'
    for w in write1 burst16 wrx1; do
        n=$("$bench" --workload "$w" --ops 500 | awk '/^wrs/ {print $2}')
        fn=vb_post
        [ "$w" = wrx1 ] && fn=vb_post_wrx    # ibv_wr_start + rdma_write + set_sge + complete
        post=$(instr_in "$fn" "$bench" --workload "$w" --ops 500)
        dpost=$(instr_in irdma_uk_post_send "$bench" --workload "$w" --ops 500)
        poll=$(instr_in vb_poll "$bench" --workload "$w" --ops 500)
        dpoll=$(instr_in irdma_uk_poll_cq "$bench" --workload "$w" --ops 500)
        printf '%-8s %12d %12d %12d %12d\n' "$w" $((post / n)) $(((post - dpost) / n)) \
            $((poll / n)) $(((poll - dpoll) / n))
    done
    exit 0
fi

if [ "${1:-}" = --uk ]; then
    bench=$build/tests/irdma/bench_irdma_uk
    ninja -C "$build" "${bench#"$build"/}" >/dev/null || exit 1
    ops=$("$bench" --quick --callgrind --workload write1 | awk '/^ops/ {print $2}')
    printf '%-10s %10s %10s %10s\n' workload 'instr/op' floor rdma-core
    for w in write1 inline64 burst16 burst16t burst16ti poll; do
        case $w in
            write1) anchor=241 ;;
            inline64) anchor=385 ;;
            poll) anchor=154 ;;
            *) anchor=- ;;
        esac
        run=$(instr_in "loop_$w" "$bench" --quick --callgrind --workload "$w")
        flo=$(instr_in "loop_${w}_floor" "$bench" --quick --callgrind --workload "$w")
        printf '%-10s %10d %10d %10s\n' "$w" $((run / ops)) $((flo / ops)) "$anchor"
    done
    exit 0
fi

bench=$build/tests/restrack/bench_restrack
ninja -C "$build" "${bench#"$build"/}" >/dev/null || exit 1

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
