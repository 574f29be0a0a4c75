#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Interop through the connection manager: rdma-core's unmodified rping (librdmacm, the
# kernel's rdma_cm and ib_cm on soft-RoCE, rdma_rxe) in a QEMU (TCG) VM against
# examples/rcm_ping on this host (the IB CM and rdma_cm of lib/rdmadev over QP 1 of the
# device model, on the Ethernet wire through DPDK's net_af_packet on the VM's tap;
# tests/vm/vm.sh). Two runs: `rping -s` in the guest with our client, and `rping -c -V`
# against our server; in each, rping's exchange (SEND of the buffer info, RDMA READ, RDMA
# WRITE back) for the given number of pings, data checked on our side byte for byte and by
# rping -V on its side, then the disconnect (DREQ / DREP) and both ends exiting 0. Each
# run's capture (the model's pcap devarg) is checked by tests/vm/roce_pcap.py (ICRCs and
# IPv4 checksums both ways). Then the same two runs over IPv6: the test gives the guest's
# eth0 fd00:99::1/64 (rxe adds its RoCEv2 GID) and the model fd00:99::2 (its second
# address), rping -a names the IPv6 address, the neighbour is found by ND, the CMA header
# carries IPv6 addresses and the capture's ICRCs are checked over the IPv6 header.
#
# usage: interop_rping.sh <examples/rcm_ping> [cache dir]. Needs root; skips as
# interop_pingpong.sh does. Environment: IRDMA_VM_PINGS (pings per run, 10),
# IRDMA_VM_FULL=1 (the IPv6 runs with 100 pings of 4000 bytes), IRDMA_VM_CACHE,
# IRDMA_VM_KEEP=1 (keep the work folder).
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cache=${IRDMA_VM_CACHE:-${2:-$(dirname "$bin")/../vm-cache}}
pings=${IRDMA_VM_PINGS:-10}
size=100
full=${IRDMA_VM_FULL:-0}

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
vm_test_start "$cache"
echo "1..8"

eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"
run_case() {	# run_case NAME guest-role(server|client) [v6]
	local name=$1 role=$2 t hrc grc out=$work/$1 pcap=$work/$1.pcap
	local opts="-S $size -w 60" limit=$((90 + pings * 2)) dev gip hip bind what
	vm_addrs "$pcap" "${3:-}"
	vm_neigh_flush "$name"
	t=$(date +%s.%N)
	if [ "$role" = server ]; then
		vm_cmd "$name" "exec timeout $limit rping -s -a $gip -S $size -C $pings -v"
		sleep 2	# rping binds and listens
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vr$$$name" -- $opts -C "$pings" \
			client "$dev" "$gip" > "$out.host" 2>&1
		hrc=$?
	else
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vr$$$name" -- $opts -C "$pings" \
			server "$dev" $bind > "$out.host" 2>&1 &
		local hpid=$!
		vm_host_ready $hpid 300 grep -q "listening on port" "$out.host"
		vm_cmd "$name" "exec timeout $limit rping -c -a $hip -S $size -C $pings -V -v"
		vm_host_join "$name" $hpid
	fi
	vm_guest_join "$name" "$limit" "$out.guest"
	vm_case_log "$name" "$t" "$out"
	if [ $hrc -eq 0 ] && [ "$grc" -eq 0 ] &&
		grep -Eq "^rcm_ping: $pings pings of $size bytes" "$out.host" &&
		grep -q "^rcm_ping: disconnected" "$out.host" &&
		[ "$(grep -c "ping data: rdma-ping-" "$out.guest")" -eq "$pings" ] &&
		! grep -qi "error\|fail\|mismatch" "$out.guest"; then
		ok "$name: rping -a $([ "$role" = server ] && echo "$gip" || echo "$hip") (guest $role)" \
			"and examples/rcm_ping, $pings x $size B, data checked"
	else
		notok "$name: guest $role exited $grc, host exited $hrc"
	fi
	vm_capture_check "$name" "$hip" "$gip" "$what"
}
run_case srv server
run_case cli client
# IPv6: a ULA on the guest's eth0 (tests/vm/vm.sh).
vm_ipv6 "$VM_V6_GUEST"
if [ "$full" = 1 ]; then
	pings=100
	size=4000
fi
run_case srv6 server v6
run_case cli6 client v6
[ $failed -eq 0 ]
