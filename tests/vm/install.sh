#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# The Debian packages the VM tests need on the host: QEMU (TCG), busybox for the guest's
# userland, the rdma-core tools and libraries copied into the guest (ibv_rc_pingpong,
# perftest, rping and rdma_server / rdma_client from rdmacm-utils, the rxe provider, `rdma`
# from iproute2), kmod (depmod / modprobe for the guest's module tree), cpio, tcpdump
# (captures on failure). Quiet when everything is there.
# Exits 0 when all are installed, 1 when apt-get failed (no mirror, no root).
set -u
pkgs="qemu-system-x86 busybox-static rdma-core ibverbs-utils perftest rdmacm-utils kmod cpio iproute2 tcpdump"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "vm: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
	timeout 120 apt-get update -qq >/dev/null 2>&1 || exit 1
	# shellcheck disable=SC2086
	timeout 600 apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 || exit 1
fi
exit 0
