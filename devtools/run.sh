#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's first command: set up, build, run the main job: rdma-testpmd's default sweep
# on the device model (or an E810 on vfio-pci when there is one): write_lat, send_lat,
# read_lat and write_bw from 2 B to 4 KiB, in perftest's tables. Extra arguments go to every
# run (e.g. devtools/run.sh --json -). Exits non-zero at the first test that fails, and says
# which and why.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
devtools/setup.sh || exit 1
devtools/build.sh build || exit 1

eal=(--no-pci -l 0 --file-prefix "run$$" --log-level=lib.eal:error --no-telemetry)
free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo 2>/dev/null)
if [ -n "${IRDMA_TEST_NO_HUGE:-}" ] || [ "${free:-0}" -lt 128 ] ||
   ! grep -q ' hugetlbfs ' /proc/mounts; then
    eal+=(--no-huge -m 512)
else
    eal+=(-m 256)
fi

for t in write_lat send_lat read_lat write_bw; do
    iters=1000
    [ "$t" = write_bw ] && iters=5000
    build/app/rdma-testpmd "${eal[@]}" -- -e "$t" -a --size-max 4K -n "$iters" "$@" || {
        echo "devtools/run.sh: rdma-testpmd $t failed" >&2
        exit 1
    }
done
