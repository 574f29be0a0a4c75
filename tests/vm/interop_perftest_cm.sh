#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Interop through the connection manager with unmodified perftest -R: ib_<test> -R on Linux
# soft-RoCE (rdma_rxe, the kernel's rdma_cm and ib_cm, librdmacm) in a QEMU (TCG) VM against
# rdma-testpmd -R on this host, whose device model is on the Ethernet wire through DPDK's
# net_af_packet on the VM's tap (tests/vm/vm.sh). With -R nothing goes over TCP: perftest's
# exchange runs over an rdma_cm control connection and each test QP is connected by the CM
# (doc/testpmd.md, "Connecting through rdma_cm"). Per run:
#  - both sides exit 0 and print a result row for the same size and iteration count, with as
#    many columns as each other (as interop_perftest.sh checks);
#  - rdma-testpmd saw ESTABLISHED for the control connection and for the test QP (-v);
#  - the capture (the model's pcap devarg) has every ICRC and IPv4 checksum right both ways,
#    the CM's MADs included (tests/vm/roce_pcap.py).
#
# The bounded run (the meson interop suite, devtools/test.sh): write_lat at 2 B and send_bw
# at 4 KiB, and send_lat -c UD (rdma_cm's UDP port space, SIDR) at 2 B, each with
# rdma-testpmd as the server and as the client. IRDMA_VM_FULL=1: the six RC tests, both
# roles, at 2 B and 4 KiB, and send_bw -c UD at 1 KiB both roles.
#
# usage: interop_perftest_cm.sh <rdma-testpmd> [cache dir]. Needs root; skips (TAP "1..0 #
# SKIP") as interop_perftest.sh does. Environment: IRDMA_VM_FULL=1, IRDMA_VM_PT_ITERS
# (iterations of a latency run, default 200; BW runs 5x that), IRDMA_VM_CACHE,
# IRDMA_VM_KEEP=1 (keep the work folder).
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cache=${IRDMA_VM_CACHE:-${2:-$(dirname "$bin")/../vm-cache}}
iters=${IRDMA_VM_PT_ITERS:-200}
full=${IRDMA_VM_FULL:-0}

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
hpid=
# hpid is in_ns's subshell; rdma-testpmd is the child of its timeout(1): kill the tree.
cm_cleanup() { [ -z "$hpid" ] || vm_kill_tree "$hpid"; }
VM_ON_EXIT=cm_cleanup
vm_test_start "$cache"

tmo=20000
limit=300
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"
port=18515

run_case() {	# NAME TEST(write_lat...) HOST-ROLE(server|client) SIZE ITERS [CONN(RC|UD)]
	local name=$1 test=$2 role=$3 size=$4 it=$5 conn=${6:-RC} t hrow grow what est
	local dev="irdma_model0,ip=$VM_NET.2,wire=eth:net_af_packet0,pcap=$work/$name.pcap"
	local gopts="-R -d rxe0 -F -m 1024 -s $size -n $it -p $port -c $conn"
	local hopts="-R -v -e $test -s $size -n $it -m 1024 -p $port --timeout $tmo -c $conn"
	# UD: the test QP is resolved through SIDR; only the active side sees its ESTABLISHED
	local want_est=2
	[ "$conn" = UD ] && [ "$role" = server ] && want_est=1
	local gout=$VM_DIR/share/cmd/$name.out
	t=$(date +%s.%N)
	vm_neigh_flush "$name"
	if [ "$role" = server ]; then
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "pc$$$name" -- $hopts \
			--server --dev "$dev" > "$work/$name.host" 2>&1 &
		hpid=$!
		vm_host_ready "$hpid" 600 \
			grep -q "waiting for a client on port $port (rdma_cm)" "$work/$name.host"
		# The model's address: with -R the exchange goes to it too, not to the host's.
		vm_cmd "$name" "exec timeout $limit ib_$test $gopts $VM_NET.2"
	else
		vm_cmd "$name" "exec timeout $limit ib_$test $gopts"
		# Until perftest listens, the guest's CM rejects the REQ (reason 8) and
		# rdma-testpmd tries again every 100 ms: a head start only saves retries.
		sleep 3
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "pc$$$name" -- $hopts \
			--client "$VM_GUEST_IP" --dev "$dev" > "$work/$name.host" 2>&1 &
		hpid=$!
	fi
	vm_host_join "$name" "$hpid"
	hpid=
	vm_guest_join "$name" "$limit" "$work/$name.guest"
	what="$test -c $conn -R $size B, rdma-testpmd $role"
	echo "# time: $name $(since "$t") s"
	sed 's/^/# host: /' "$work/$name.host"
	sed 's/^# guest [^:]*: /# guest: /' "$work/$name.guest"
	hrow=$(perftest_row "$work/$name.host")
	grow=$(perftest_row "$gout")
	est=$(grep -c "rdma_cm event ESTABLISHED" "$work/$name.host")
	if [ $hrc -ne 0 ] || [ $grc -ne 0 ]; then
		notok "$what: rdma-testpmd exited $hrc, perftest $grc"
	elif [ "$est" -ne "$want_est" ]; then
		notok "$what: rdma-testpmd saw $est ESTABLISHED, not $want_est (control + test QP)"
	elif [ "$conn $test $role" = "UD send_lat server" ] &&
		! printf '%d' "$(sed -n "s/.*remote QPN \(0x[0-9a-f]*\) .*/\1/p" \
			"$work/$name.host" | tail -n 1)" 2>/dev/null |
		grep -qx "$(sed -n "s/.*the client's QPN datagram: QPN //p" "$work/$name.host")"
	then
		notok "$what: no QPN datagram from perftest (send_qp_num_for_ah), or not its record's"
	elif [ -z "$hrow" ] && [ "$test $role" != "read_lat server" ]; then
		notok "$what: rdma-testpmd printed no result row"
	elif [ -z "$grow" ] && [ "$test $role" != "read_lat client" ]; then
		notok "$what: perftest printed no result row"
	elif [ -n "$hrow" ] && [ -n "$grow" ] &&
		{ [ "$(echo "$hrow" | awk '{ print $1, $2 }')" != \
		    "$(echo "$grow" | awk '{ print $1, $2 }')" ] ||
		  [ "$(perftest_cols "$work/$name.host")" != "$(perftest_cols "$gout")" ]; }; then
		notok "$what: the rows do not line up: [$hrow] [$grow]"
	else
		ok "$what: connected through rdma_cm, both ends report [${hrow:-$grow}]"
	fi
	if "$here/roce_pcap.py" "$work/$name.pcap" "$VM_NET.2" > "$work/$name.check" 2>&1; then
		ok "$what: capture: ICRCs and checksums right both ways"
	else
		notok "$what: capture check failed"
	fi
	sed "s/^/# capture: /" "$work/$name.check"
}

if [ "$full" = 1 ]; then
	for test in write_lat read_lat send_lat write_bw read_bw send_bw; do
		for role in server client; do
			for size in 2 4096; do
				it=$iters
				[ "${test#*_}" = bw ] && it=$((iters * 5))
				run_case "$test-$role-$size" "$test" "$role" "$size" "$it"
			done
		done
	done
else
	for role in server client; do
		run_case "write_lat-$role-2" write_lat "$role" 2 "$iters"
		run_case "send_bw-$role-4096" send_bw "$role" 4096 $((iters * 5))
	done
fi
# UD through rdma_cm's UDP port space (SIDR), both roles.
for role in server client; do
	run_case "send_lat-ud-$role-2" send_lat "$role" 2 "$iters" UD
	[ "$full" = 1 ] && run_case "send_bw-ud-$role-1024" send_bw "$role" 1024 $((iters * 5)) UD
done

echo "1..$n"
[ $failed -eq 0 ]
