#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The device model against its floors, in one run (meson benchmark 'model_floors'):
#  - write_lat 2 B one-way in THREAD mode (-l 0-1: the model thread on its own core) beside
#    the cross-core cache-line ping-pong one-way time (bench_model_floor);
#  - write_lat 2 B one-way in INLINE mode;
#  - write_bw 64 B message rate, INLINE (one core for both sides and the model) and THREAD
#    (the model on a core of its own);
#  - write_bw 64 KiB bandwidth (INLINE) beside memcpy's 64 KiB bandwidth, at rdma-testpmd's
#    default path MTU (1024, perftest's) and at RoCE's largest (4096).
# Latencies are rdma-testpmd's t_typical (one-way, as perftest reports write_lat), rates its
# average. Prints the numbers and their ratios, and where the THREAD rows' engine thread ran
# (the model's own log line: the CPU, and whether it had it to itself and spun); never fails
# on timing.
#   bench_model.sh RDMA_TESTPMD BENCH_MODEL_FLOOR [--quick]
set -u
tp=$1
floor=$2
quick=${3:-}
lat_n=20000 bw_n=200000 big_n=5000
if [ "$quick" = --quick ]; then
    lat_n=200 bw_n=2000 big_n=50
fi
eal=(--no-pci --no-huge -m 512 --log-level=lib.eal:error --no-telemetry)

# The row after rdma-testpmd's report header: the numbers of "$@". The model's placement
# of its engine thread (INFO) goes to the file $place.
place=$(mktemp)
trap 'rm -f "$place"' EXIT
row() {
    local lcores=$1
    shift
    "$tp" "${eal[@]}" --log-level=pmd.rdma.irdma.model:info -l "$lcores" \
        --file-prefix "bm$$" -- "$@" 2>&1 |
        awk -v place="$place" '/engine thread|no spare core/ { print > place }
            /#bytes/ { getline; print; exit }'
}

f=$("$floor" $quick) || { echo "bench_model_floor failed" >&2; exit 1; }
pp=$(awk '$1 == "pingpong_oneway_ns" { print $2 }' <<<"$f")
mc=$(awk '$1 == "memcpy_64k_GBps" { print $2 }' <<<"$f")
# write_lat columns: bytes iterations t_min t_max t_typical ...
lt=$(row 0-1 -e write_lat -s 2 -n $lat_n --model-mode thread | awk '{ print $5 }')
where=$(sed 's/^[^:]*: //' "$place")
li=$(row 0 -e write_lat -s 2 -n $lat_n | awk '{ print $5 }')
# write_bw columns: bytes iterations peak[MB/s] average[MB/s] rate[Mpps]
ri=$(row 0 -e write_bw -s 64 -n $bw_n | awk '{ print $5 }')
rt=$(row 0-1 -e write_bw -s 64 -n $bw_n --model-mode thread | awk '{ print $5 }')
bw=$(row 0 -e write_bw -s 65536 -n $big_n | awk '{ print $4 }')
bw4=$(row 0 -e write_bw -s 65536 -n $big_n -m 4096 | awk '{ print $4 }')
for v in "$pp" "$mc" "$lt" "$li" "$ri" "$rt" "$bw" "$bw4"; do
    [ -n "$v" ] || { echo "a run printed no result" >&2; exit 1; }
done
echo "# THREAD rows (-l 0-1): ${where:-the model logged no placement}; ping-pong on CPUs 0 and 1"
awk -v pp="$pp" -v mc="$mc" -v lt="$lt" -v li="$li" -v ri="$ri" -v rt="$rt" -v bw="$bw" \
    -v bw4="$bw4" '
BEGIN {
    printf "%-44s %10s %10s %8s %s\n", "measure", "model", "floor", "ratio", "target"
    printf "%-44s %10.3f %10.3f %8.2f %s\n", "write_lat 2 B one-way, THREAD (us; ping-pong)",
        lt, pp / 1000, lt * 1000 / pp, "<= 3"
    printf "%-44s %10.3f %10s %8s %s\n", "write_lat 2 B one-way, INLINE (us)", li, "", "",
        "< 0.5 us"
    printf "%-44s %10.3f %10s %8s %s\n", "write_bw 64 B, INLINE, one core (Mpps)", ri, "", "",
        ">= 5"
    printf "%-44s %10.3f %10s %8s %s\n", "write_bw 64 B, THREAD, model core (Mpps)", rt, "",
        "", ">= 5"
    printf "%-44s %10.3f %10.3f %8.3f %s\n", "write_bw 64 KiB, INLINE (GB/s; memcpy 64 KiB)",
        bw / 1000, mc, bw / 1000 / mc, ">= 0.2"
    printf "%-44s %10.3f %10.3f %8.3f %s\n", "write_bw 64 KiB, INLINE, MTU 4096 (GB/s)",
        bw4 / 1000, mc, bw4 / 1000 / mc, ">= 0.2"
}'
