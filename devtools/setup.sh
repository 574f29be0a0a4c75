#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Install what the build and the tests need, and reserve hugepages when we can.
# Idempotent, and quiet when there is nothing to do. Debian 12 (bookworm).
set -u

packages=(
    meson ninja-build pkg-config gcc clang libclang-rt-14-dev
    libdpdk-dev dpdk-dev libnuma-dev libpci-dev
    libsystemd-dev  # Debian's static libdpdk.pc (pkg-config --static) links -lsystemd
    python3 valgrind tshark
    g++ doxygen man-db groff-base mandoc
    # lib/verbs: rdma-core's headers (the ABI reference) and the unmodified verbs binaries
    # its tests run (tests/verbs)
    libibverbs-dev ibverbs-utils perftest
    # tests/vm/qemu-build.sh: a minimal QEMU 7.2 with the irdma-e810 test device
    libglib2.0-dev libpixman-1-dev libattr1-dev libcap-ng-dev
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo)
    fi
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! "${sudo_cmd[@]}" apt-get update -qq >/dev/null; then
        echo "setup: apt-get update failed" >&2
        exit 1
    fi
    if ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        echo "setup: apt-get install ${missing[*]} failed" >&2
        exit 1
    fi
fi

# Hugepages: 1024 x 2 MB (2 GB of the machine's 24), and hugetlbfs on /dev/hugepages: enough
# for two EAL test processes at once with room for IOVA-contiguous 2 MB zones. Without them the
# tests run with --no-huge, so a failure here is not fatal.
want_pages=1024
if [ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/nr_hugepages ]; then
    have=$(cat /proc/sys/vm/nr_hugepages)
    if [ "$have" -lt "$want_pages" ]; then
        echo "$want_pages" > /proc/sys/vm/nr_hugepages 2>/dev/null || true
        have=$(cat /proc/sys/vm/nr_hugepages)
        [ "$have" -ge "$want_pages" ] || echo "setup: only $have hugepages reserved; tests fall back to --no-huge where needed"
    fi
    if ! grep -q ' /dev/hugepages hugetlbfs ' /proc/mounts; then
        mkdir -p /dev/hugepages
        mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null ||
            echo "setup: cannot mount hugetlbfs; tests run with --no-huge"
    fi
    # Two 1 GB pages on their own mount, for the test pass on 1 GB pages. The kernel may not
    # find 1 GB of contiguous memory on a long-running machine: then that pass is skipped.
    gb=/sys/kernel/mm/hugepages/hugepages-1048576kB
    if [ -w "$gb/nr_hugepages" ] && [ "$(cat "$gb/nr_hugepages")" -lt 2 ]; then
        echo 2 > "$gb/nr_hugepages" 2>/dev/null || true
    fi
    if [ -d "$gb" ] && [ "$(cat "$gb/nr_hugepages")" -ge 1 ] &&
            ! grep -q ' /dev/hugepages-1G hugetlbfs ' /proc/mounts; then
        mkdir -p /dev/hugepages-1G
        mount -t hugetlbfs -o pagesize=1G nodev /dev/hugepages-1G 2>/dev/null || true
    fi
fi
exit 0
