#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# The VM suites whole, on demand (devtools/test.sh runs them bounded): the interop suite
# (Linux soft-RoCE in a QEMU VM: ibv_rc_pingpong, perftest against rdma-testpmd and through
# the verbs layer, perftest -R, rping) with IRDMA_VM_FULL=1, every test, both roles, every
# size; and the vfio suite (the VFIO backend in a VM of our own QEMU) with all six
# rdma-testpmd tests. Root only (network namespaces, taps). About 30-40 minutes on 2 cores
# once the caches exist.
#   devtools/vm-full.sh [BUILD_DIR]     (default build/; built first with ninja)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
if [ "$(id -u)" -ne 0 ]; then
	echo "vm-full: needs root (network namespaces, tap devices)" >&2
	exit 2
fi
ninja -C "$build"
IRDMA_VM_FULL=1 \
IRDMA_VM_ITERS=${IRDMA_VM_ITERS:-1000} \
IRDMA_VM_TESTS=${IRDMA_VM_TESTS:-"write_lat read_lat send_lat write_bw read_bw send_bw"} \
	meson test -C "$build" --no-rebuild --suite interop --suite vfio --num-processes 1 \
	--timeout-multiplier 4 --print-errorlogs
