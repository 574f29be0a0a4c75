#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Interop through rdma_cm with rdma-core's other librdmacm programs (rdmacm-utils), run
# unmodified in the rxe VM (tests/vm/vm.sh) against the examples on this host, whose device
# model is on the Ethernet wire through DPDK's net_af_packet on the VM's tap:
#  - udaddy (RDMA_PS_UDP: SIDR_REQ / SIDR_REP inside rdma_cm, then UD datagrams with
#    immediate data both ways) against examples/rcm_udaddy, the guest as server and as
#    client;
#  - rdma_server / rdma_client (RDMA_PS_TCP, port 7471, one 16-byte SEND each way, then the
#    disconnect) against examples/rcm_ping -E, both ways, over IPv4 and over IPv6 (the
#    guest's eth0 given fd00:99::1/64 by the test, the model fd00:99::2).
# Each case: both sides exit 0, each prints its own success line, and the capture (the
# model's pcap devarg) has every ICRC and IPv4 checksum right (tests/vm/roce_pcap.py) and
# frames from the guest's address.
# IRDMA_VM_FULL=1 repeats the udaddy cases with 100 datagrams of 1000 bytes.
#
# usage: interop_rdmacm_apps.sh <examples/rcm_udaddy> <examples/rcm_ping> [cache dir].
# Needs root; skips (TAP "1..0 # SKIP") as the other VM tests do. Environment:
# IRDMA_VM_FULL=1, IRDMA_VM_CACHE, IRDMA_VM_KEEP=1 (keep the work folder).
set -u
uda=$(realpath "$1")
ping=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
cache=${IRDMA_VM_CACHE:-${3:-$(dirname "$uda")/../vm-cache}}
full=${IRDMA_VM_FULL:-0}

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
hpid=
cm_cleanup() { [ -z "$hpid" ] || kill "$hpid" 2>/dev/null; }
VM_ON_EXIT=cm_cleanup
vm_test_start "$cache"

limit=120
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"

# run_case NAME GUEST-ROLE(server|client) GUEST-CMD HOST-BIN HOST-OPTS HOST-OK GUEST-OK [v6]
# (@HOST@ in GUEST-CMD: the model's address)
run_case() {
	local name=$1 role=$2 gcmd=$3 hbin=$4 hopts=$5 hok=$6 gok=$7 t hrc grc
	local out=$work/$name pcap=$work/$name.pcap
	local dev gip hip bind what
	vm_addrs "$pcap" "${8:-}"
	vm_neigh_flush "$name"
	t=$(date +%s.%N)
	if [ "$role" = server ]; then
		vm_cmd "$name" "exec timeout $limit $gcmd"
		sleep 2	# it binds and listens
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$hbin" $eal --file-prefix "va$$$name" -- $hopts \
			client "$dev" "$gip" > "$out.host" 2>&1
		hrc=$?
	else
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$hbin" $eal --file-prefix "va$$$name" -- $hopts \
			server "$dev" $bind > "$out.host" 2>&1 &
		hpid=$!
		vm_host_ready $hpid 300 grep -q "listening on port" "$out.host"
		vm_cmd "$name" "exec timeout $limit ${gcmd/@HOST@/$hip}"
		wait $hpid
		hrc=$?
		hpid=
	fi
	vm_guest_join "$name" "$limit" "$out.guest"
	vm_case_log "$name" "$t" "$out"
	if [ $hrc -eq 0 ] && [ "$grc" -eq 0 ] && grep -Eq "$hok" "$out.host" &&
		grep -Eq "$gok" "$out.guest"; then
		ok "$name: guest $role (${gcmd/@HOST@/$hip}) and the host's example"
	else
		notok "$name: guest $role exited $grc, host exited $hrc"
	fi
	vm_capture_check "$name" "$hip" "$gip" "$what"
}

ud_cases() {	# COUNT SIZE
	local c=$1 s=$2
	run_case "uds$c" server "udaddy -b $VM_GUEST_IP -C $c -S $s" "$uda" "-C $c -S $s" \
		"^rcm_udaddy: $c datagrams of $s bytes sent, $c replies received" \
		"data transfers complete"
	run_case "udc$c" client "udaddy -s @HOST@ -C $c -S $s" "$uda" "-C $c -S $s" \
		"^rcm_udaddy: $c datagrams of $s bytes received, $c replies sent" \
		"data transfers complete"
}
ud_cases 10 100
run_case rds server "rdma_server" "$ping" "-E" \
	"^rcm_ping: 16 bytes each way" "rdma_server: end 0"
run_case rdc client "rdma_client -s @HOST@" "$ping" "-E" \
	"^rcm_ping: 16 bytes each way" "rdma_client: end 0"
# rdma_server / rdma_client over IPv6: ULAs on both ends (tests/vm/vm.sh).
vm_ipv6 "$VM_V6_GUEST"
run_case rds6 server "rdma_server -s $VM_V6_GUEST" "$ping" "-E" \
	"^rcm_ping: 16 bytes each way" "rdma_server: end 0" v6
run_case rdc6 client "rdma_client -s @HOST@" "$ping" "-E" \
	"^rcm_ping: 16 bytes each way" "rdma_client: end 0" v6
[ "$full" = 1 ] && ud_cases 100 1000
echo "1..$n"
[ $failed -eq 0 ]
