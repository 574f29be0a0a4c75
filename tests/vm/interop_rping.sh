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

skip() { echo "1..0 # SKIP $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "not root (network namespace, tap)"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
"$here/install.sh" || skip "cannot install the VM packages (tests/vm/install.sh)"
"$here/mkcache.sh" "$cache"
rc=$?
[ $rc -eq 77 ] && skip "cannot fetch the guest kernel (package mirror)"
if [ $rc -ne 0 ]; then
	echo "1..1"
	echo "not ok 1 - VM cache ($cache) could not be built"
	exit 1
fi
since() { awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $1 }"; }

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
work=$(mktemp -d /tmp/irdma-vm.XXXXXX)
failed=0
finish() {
	vm_down
	if [ "${IRDMA_VM_KEEP:-0}" = 1 ] || [ "$failed" -ne 0 ]; then
		echo "# work folder kept: $work"
	else
		rm -rf "$work"
	fi
}
trap finish EXIT
trap 'exit 1' INT TERM

echo "1..8"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

if ! vm_up "$cache" "$work"; then
	notok "the VM boots with rxe0 up"
	echo "Bail out! no VM"
	exit 1
fi
echo "# VM up in $VM_BOOT_S s"

eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"
run_case() {	# run_case NAME guest-role(server|client) [v6]
	local name=$1 role=$2 t hrc grc out=$work/$1 pcap=$work/$1.pcap
	local opts="-S $size -w 60" limit=$((90 + pings * 2)) dev gip hip bind what
	vm_addrs "$pcap" "${3:-}"
	vm_cmd "neigh$name" "ip neigh flush dev eth0"
	vm_wait "neigh$name" 60 > /dev/null
	t=$(date +%s.%N)
	if [ "$role" = server ]; then
		vm_cmd "$name" "exec timeout $limit rping -s -a $gip -S $size -C $pings -v"
		sleep 2	# rping binds and listens
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vr$$$name" -- $opts -C "$pings" \
			client "$dev" "$gip" > "$out.host" 2>&1
		hrc=$?
		[ $hrc -eq 0 ] || vm_stop "$name"
		vm_wait "$name" "$limit" > "$out.guest"
		grc=$?
	else
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vr$$$name" -- $opts -C "$pings" \
			server "$dev" $bind > "$out.host" 2>&1 &
		local hpid=$! i=0
		while ! grep -q "listening on port" "$out.host" && [ $i -lt 300 ] &&
			kill -0 $hpid 2>/dev/null; do
			sleep 0.2
			i=$((i + 1))
		done
		vm_cmd "$name" "exec timeout $limit rping -c -a $hip -S $size -C $pings -V -v"
		while [ ! -e "$VM_DIR/share/cmd/$name.rc" ] && kill -0 $hpid 2>/dev/null; do
			sleep 0.2
		done
		wait $hpid
		hrc=$?
		[ $hrc -eq 0 ] || vm_stop "$name"
		vm_wait "$name" "$limit" > "$out.guest"
		grc=$?
	fi
	echo "# time: $name $(since "$t") s"
	sed 's/^/# host: /' "$out.host"
	cat "$out.guest"
	if [ $hrc -eq 0 ] && [ $grc -eq 0 ] &&
		grep -Eq "^rcm_ping: $pings pings of $size bytes" "$out.host" &&
		grep -q "^rcm_ping: disconnected" "$out.host" &&
		[ "$(grep -c "ping data: rdma-ping-" "$out.guest")" -eq "$pings" ] &&
		! grep -qi "error\|fail\|mismatch" "$out.guest"; then
		ok "$name: rping -a $([ "$role" = server ] && echo "$gip" || echo "$hip") (guest $role)" \
			"and examples/rcm_ping, $pings x $size B, data checked"
	else
		notok "$name: guest $role exited $grc, host exited $hrc"
	fi
	if "$here/roce_pcap.py" "$pcap" "$hip" > "$out.check" 2>&1 &&
		grep -q "^sender $gip: [1-9]" "$out.check"; then
		ok "$name: capture: ICRCs and $what right both ways"
	else
		notok "$name: capture check failed"
	fi
	sed "s/^/# capture: /" "$out.check"
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
