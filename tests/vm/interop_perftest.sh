#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Interop with unmodified perftest: ib_write_lat, ib_read_lat, ib_send_lat, ib_write_bw,
# ib_read_bw and ib_send_bw on Linux soft-RoCE (rdma_rxe) in a QEMU (TCG) VM, against
# rdma-testpmd on this host, whose device model is on the Ethernet wire through DPDK's
# net_af_packet on the VM's tap (a private network namespace; tests/vm/vm.sh). One boot
# serves every run. rdma-testpmd knows the guest only by the GID perftest's exchange
# carries: its model resolves the MAC by ARP. Per run:
#  - both sides exit 0 and print a result row for the same size and iteration count, under
#    the same header, with as many columns as perftest's (rdma-testpmd prints perftest's
#    tables; its send_bw server prints its counts instead of a receiver-side BW row); a
#    write_bw / read_bw server prints the client's row as perftest does, so the two rows
#    are the same numbers;
#  - the capture (the model's pcap devarg) holds every frame both ways: every ICRC and IPv4
#    checksum right, real IP IDs (tests/vm/roce_pcap.py), and no request the model sent
#    twice: the wire loses nothing, so a retransmission would be a bug.
# Then a peer killed mid-run, each side in turn (the guest's ib_write_lat, then
# rdma-testpmd as an ib_write_bw server's client): the other side ends with an error that
# names the cause, within rdma-testpmd's --timeout (ours) or at once (the guest's, on the
# exchange's TCP close). One capture is
# decoded by tshark's InfiniBand dissector, every frame. At the end rxe's counters
# (/sys/class/infiniband/rxe0/ports/1/hw_counters) show no sequence, retry-exceeded, RNR or
# ICRC-related error and no duplicate request since the clean runs' start.
#
# perftest checks no data in these tests (its buffers carry no pattern), nor does
# rdma-testpmd; the data path is checked by interop_pingpong.sh (ibv_rc_pingpong -c).
#
# Then Debian's own perftest binaries on this host, unmodified, on the PMD through the verbs
# layer (devtools/with-verbs.sh, doc/verbs.md; the device model on the same Ethernet wire)
# against the guest's: ib_write_lat with the guest as server and as client, and UD
# ib_send_lat (IRDMA_VM_FULL=1: ib_write_lat, ib_read_lat and ib_send_lat, both roles, 2 B and
# 4 KiB, and UD both roles). The same checks: both rows, the capture, no resent request.
#
# The bounded run (the meson interop suite, devtools/test.sh): each test once per role at
# one size (2 B, 4 KiB and 64 KiB in turn), UD send_lat in both roles. IRDMA_VM_FULL=1 (or
# devtools/vm-full.sh): every test, both roles, at 2 B, 4 KiB and 64 KiB.
#
# usage: interop_perftest.sh <rdma-testpmd> [cache dir]. Needs root; skips (TAP "1..0 #
# SKIP") when not root, without /dev/net/tun, or when the packages or the guest kernel cannot
# be fetched. Environment: IRDMA_VM_FULL=1 (the whole matrix), IRDMA_VM_PT_ITERS (iterations
# of a latency run, default 200; BW runs do 5x that at 2 B and 4 KiB, 1x at 64 KiB),
# IRDMA_VM_CACHE, IRDMA_VM_KEEP=1 (keep the work folder).
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cache=${IRDMA_VM_CACHE:-${2:-$(dirname "$bin")/../vm-cache}}
iters=${IRDMA_VM_PT_ITERS:-200}
full=${IRDMA_VM_FULL:-0}

command -v tshark > /dev/null || { echo "1..0 # SKIP no tshark"; exit 0; }
# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
withverbs=$here/../../devtools/with-verbs.sh
vlib=$(dirname "$bin")/../lib/verbs/libirdma-verbs.so
hpid=
# hpid is in_ns's subshell; rdma-testpmd is the child of its timeout(1): kill the tree.
pt_cleanup() { [ -z "$hpid" ] || vm_kill_tree "$hpid"; }
VM_ON_EXIT=pt_cleanup
vm_test_start "$cache"
vm_counters before

# Timeouts: rdma-testpmd fails a run after --timeout ms without progress; a whole run is
# bounded by limit seconds on either side (TCG on a busy host: tens of ms a round trip).
# The RC local ACK timeout on both sides: 4.096 us x 2^20 = 4.3 s, longer than a TCG guest
# on a busy host takes to answer (perftest's default, 14 = 67 ms, is not).
tmo=20000
limit=300
qpt=20
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"
port=18515

# The host's perftest on the PMD (host=verbs): the verbs layer's EAL and device from the
# environment; perftest's client connects once, so it tries again while the guest's
# server is not listening yet (and the guest's command still runs).
verbs_host() {	# NAME DEVARGS ARGS...
	local name=$1 dev=$2 i rc=1 try
	shift 2
	try=$work/$name.try
	for i in $(seq 1 60); do
		IRDMA_PMD_EAL="$eal --file-prefix pt$$$name" IRDMA_PMD_DEVARGS="$dev" \
			timeout "$limit" "$withverbs" "$@" > "$try" 2>&1
		rc=$?
		cat "$try"
		if [ $rc -ne 0 ] && grep -q "Couldn't connect to" "$try" &&
			[ ! -e "$VM_DIR/share/cmd/$name.rc" ]; then
			echo "# try $i: the guest's server is not listening yet"
			sleep 1
			continue
		fi
		break
	done
	return $rc
}

# The host's side of a run in the background (pid in hpid, output in $work/NAME.host):
# rdma-testpmd (host=testpmd) or perftest through the verbs layer (host=verbs), the
# server, or the client of the guest's server.
host=testpmd
host_start() {	# NAME DEVARGS HOST-ROLE(server|client) HOPTS VOPTS
	local name=$1 dev=$2 role=$3 hopts=$4 vopts=$5 peer='' side=(--server)
	[ "$role" = client ] && peer=$VM_GUEST_IP && side=(--client "$VM_GUEST_IP")
	if [ "$host" = verbs ]; then
		# mode=thread: the engine answers while perftest is off its CPU (TCP exchange).
		# shellcheck disable=SC2086
		in_ns bash -c "$(declare -f verbs_host); eal='$eal' limit=$limit \
			withverbs='$withverbs' work='$work' VM_DIR='$VM_DIR' \
			verbs_host $name '$dev,mode=thread' $vopts $peer" > "$work/$name.host" 2>&1 &
	else
		# rdma-testpmd's client retries its connect while the server is not up yet.
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "pt$$$name" -- $hopts \
			"${side[@]}" --dev "$dev" > "$work/$name.host" 2>&1 &
	fi
	hpid=$!
}

host_listens() { in_ns ss -ltn | grep -q ":$port "; }

# Start one run: the host's side (host_start) and the guest's perftest (command NAME,
# output in share/cmd/NAME.out).
start_run() {	# NAME TEST(write_lat...) HOST-ROLE(server|client) SIZE CONN ITERS
	local name=$1 test=$2 role=$3 size=$4 conn=$5 it=$6
	local dev="irdma_model0,ip=$VM_NET.2,wire=eth:net_af_packet0,pcap=$work/$name.pcap"
	local gopts="-d rxe0 -x 1 -F -m 1024 -u $qpt -s $size -n $it -p $port"
	local hopts="-e $test -s $size -n $it -m 1024 -u $qpt -p $port --timeout $tmo"
	local vopts="ib_$test -x 0 -F -m 1024 -u $qpt -s $size -n $it -p $port"
	[ "$conn" = UD ] && gopts="$gopts -c UD" && hopts="$hopts -c UD" && vopts="$vopts -c UD"
	# The guest forgets the model's MAC: rxe's connect (or AH) asks for it by ARP, and the
	# model (a new process each run) learns the guest's MAC from that request.
	vm_neigh_flush "$name"
	if [ "$role" = server ]; then
		host_start "$name" "$dev" server "$hopts" "$vopts"
		vm_host_ready "$hpid" 300 host_listens
		vm_cmd "$name" "exec timeout $limit ib_$test $gopts $VM_HOST_IP"
	else
		vm_cmd "$name" "exec timeout $limit ib_$test $gopts"
		host_start "$name" "$dev" client "$hopts" "$vopts"
	fi
}

# Wait for both sides; hrc and grc their exit statuses.
end_run() {	# NAME
	vm_host_join "$1" "$hpid"
	hpid=
	vm_guest_join "$1" "$limit" "$work/$1.guest"
}

rexmit=0
run_case() {	# as start_run
	local name=$1 test=$2 role=$3 size=$4 t hrow grow what line
	t=$(date +%s.%N)
	start_run "$@"
	end_run "$name"
	what="$test $5 $size B, rdma-testpmd $role"
	[ "$host" = verbs ] && what="$test $5 $size B, the host's ib_$test on the PMD as $role"
	echo "# time: $name $(since "$t") s"
	sed 's/^/# host: /' "$work/$name.host"
	sed 's/^# guest [^:]*: /# guest: /' "$work/$name.guest"
	hrow=$(perftest_row "$work/$name.host")
	grow=$(perftest_row "$VM_DIR/share/cmd/$name.out")
	if [ $hrc -ne 0 ] || [ "$grc" -ne 0 ]; then
		notok "$what: the host exited $hrc, the guest's perftest $grc"
	elif [ -z "$hrow" ] && [ "$test $role" != "read_lat server" ]; then
		notok "$what: the host printed no result row"
	elif [ -z "$grow" ] && [ "$test $role" != "read_lat client" ]; then
		notok "$what: perftest printed no result row"
	elif [ -n "$hrow" ] && [ -n "$grow" ] &&
		{ [ "$(echo "$hrow" | awk '{ print $1, $2 }')" != \
		    "$(echo "$grow" | awk '{ print $1, $2 }')" ] ||
		  [ "$(perftest_cols "$work/$name.host")" != \
		    "$(perftest_cols "$VM_DIR/share/cmd/$name.out")" ] ||
		  { [ "$test $role" != "send_bw server" ] &&
		    [ "$(echo "$hrow" | awk '{ print NF }')" != "$(echo "$grow" | awk '{ print NF }')" ]; }; }; then
		notok "$what: the rows do not line up: [$hrow] [$grow]"
	elif [ -n "$hrow" ] && [ -n "$grow" ] && [ "$role" = server ] &&
		{ [ "$test" = write_bw ] || [ "$test" = read_bw ]; } && [ "$(echo "$hrow" | awk '{ $1 = $1; print }')" != \
		"$(echo "$grow" | awk '{ $1 = $1; print }')" ]; then
		notok "$what: our server's row is not the client's: [$hrow] [$grow]"
	else
		ok "$what: both ends report [${hrow:-$grow}]"
	fi
	if "$here/roce_pcap.py" "$work/$name.pcap" "$VM_NET.2" > "$work/$name.check" 2>&1; then
		line=$(grep "^sender $VM_NET.2:" "$work/$name.check")
		line=$(echo "${line:-0 0 0 0 0 0 0 0 0}" | awk '{ print $9 + 0 }')
		rexmit=$((rexmit + line))
		if [ "$line" -eq 0 ]; then
			ok "$what: capture: ICRCs and checksums right, the model resent nothing"
		else
			notok "$what: the model resent $line requests"
		fi
	else
		notok "$what: capture check failed"
	fi
	sed "s/^/# capture: /" "$work/$name.check"
}

all_sizes=(2 4096 65536)
k=0
for test in write_lat read_lat send_lat write_bw read_bw send_bw; do
	for role in server client; do
		# bounded: one size a run, in turn, so that it still meets all three
		sizes=${all_sizes[$((k % 3))]}
		[ "$full" = 1 ] && sizes=${all_sizes[*]}
		k=$((k + 1))
		for size in $sizes; do
			it=$iters
			if [ "${test#*_}" = bw ]; then
				it=$((iters * 5))
				[ "$size" -gt 4096 ] && it=$iters
			fi
			run_case "$test-$role-$size" "$test" "$role" "$size" RC "$it"
		done
	done
done
for role in server client; do
	run_case "send_lat-ud-$role" send_lat "$role" 2 UD "$iters"
done

# Unmodified perftest on the PMD through the verbs layer.
if [ -f "$vlib" ]; then
	host=verbs
	if [ "$full" = 1 ]; then
		for test in write_lat read_lat send_lat; do
			for role in server client; do
				for size in 2 4096; do
					run_case "verbs-$test-$role-$size" "$test" "$role" "$size" RC "$iters"
				done
			done
		done
		run_case verbs-send_lat-ud-server send_lat server 2 UD "$iters"
	else
		run_case verbs-write_lat-server-2 write_lat server 2 RC "$iters"
		run_case verbs-write_lat-client-2 write_lat client 2 RC "$iters"
	fi
	run_case verbs-send_lat-ud-client send_lat client 2 UD "$iters"
	host=testpmd
else
	ok "# SKIP the verbs layer is not built ($vlib; needs libibverbs-dev)"
fi

vm_counters after
vm_deltas_zero out_of_seq_request rcvd_seq_err rcvd_rnr_err send_rnr_err retry_exceeded_err \
	retry_rnr_exceeded_err send_err link_downed duplicate_request
echo "# rxe completer_retry_err (its own timer retries): $(vm_delta completer_retry_err)"
echo "# rxe rcvd_pkts $(vm_delta rcvd_pkts), sent_pkts $(vm_delta sent_pkts)"
if [ -z "$errs" ]; then
	ok "rxe counters: no sequence, RNR, retry-exceeded, send error or duplicate"
else
	notok "rxe counters:$errs"
fi
echo "# the model resent $rexmit requests in all"

# Every frame of one run decoded by tshark's InfiniBand dissector (RoCEv2 on UDP 4791):
# the frames it decodes as InfiniBand are all the RoCEv2 frames of the capture, and none
# is malformed. tshark also tries its heuristics on a WRITE's payload: two payload bytes that
# happen to be a known ethertype (0x88a1, say) are decoded as such a frame and called
# malformed. That is the application's data, not a header: those frames are counted apart.
cap=$(ls "$work"/write_bw-server-*.pcap | head -1)
all=$(tshark -r "$cap" -Y "udp.dstport == 4791" 2>/dev/null | wc -l)
ib=$(tshark -r "$cap" -Y "infiniband" 2>/dev/null | wc -l)
payload='frame.protocols contains "infiniband:ethertype"'
bad=$(tshark -r "$cap" -Y "(_ws.malformed || _ws.expert.severity >= warning) && !($payload)" \
	2>/dev/null | wc -l)
guess=$(tshark -r "$cap" -Y "$payload" 2>/dev/null | wc -l)
echo "# tshark: $(basename "$cap"): $all RoCEv2 frames, $ib InfiniBand, $bad malformed or warned" \
	"($guess payloads decoded as an ethertype frame, not counted)"
if [ "$all" -gt 0 ] && [ "$ib" -eq "$all" ] && [ "$bad" -eq 0 ]; then
	ok "tshark decodes every frame of $(basename "$cap") as InfiniBand"
else
	notok "tshark: $ib of $all frames InfiniBand, $bad malformed"
fi

# A peer killed mid-run. The guest's perftest first: rdma-testpmd (a write_lat server)
# ends on its --timeout or a retry-exceeded completion, with a message that says so.
kill_case() {	# NAME TEST HOST-ROLE VICTIM(guest|host)
	local name=$1 test=$2 role=$3 victim=$4 t i=0 why
	start_run "$name" "$test" "$role" 2 RC 1000000
	# Until traffic flows (the model's capture grows), then kill.
	while [ "$(stat -c %s "$work/$name.pcap" 2>/dev/null || echo 0)" -lt 20000 ] &&
		[ $i -lt 600 ] && kill -0 "$hpid" 2>/dev/null; do
		sleep 0.2
		i=$((i + 1))
	done
	t=$(date +%s.%N)
	if [ "$victim" = guest ]; then
		vm_cmd "kill$name" "kill -KILL \$(cat /host/cmd/$name.pid)"
		vm_wait "kill$name" 60 > /dev/null
		wait "$hpid"
		hrc=$?
		hpid=
		why=$(grep -E "failed|closed" "$work/$name.host" | head -3)
		echo "# rdma-testpmd ended $(since "$t") s after the kill (--timeout $tmo ms), exit $hrc:"
		sed 's/^/# host: /' "$work/$name.host" | tail -5
		if [ $hrc -ne 0 ] && [ $hrc -ne 124 ] && [ -n "$why" ]; then
			ok "kill the guest's ib_$test: rdma-testpmd ends with an error: $why"
		else
			notok "kill the guest's ib_$test: rdma-testpmd exit $hrc, said [$why]"
		fi
	else
		vm_kill_tree "$hpid"
		wait "$hpid" 2>/dev/null
		hpid=
		vm_wait "$name" "$limit" > "$work/$name.guest"
		grc=$?
		why=$(grep -iE "error|fail|couldn" "$work/$name.guest" | head -3)
		echo "# ib_$test ended $(since "$t") s after the kill, exit $grc:"
		tail -5 "$work/$name.guest"
		if [ "$grc" -ne 0 ] && [ $grc -ne 124 ] && [ $grc -ne 143 ] && [ -n "$why" ]; then
			ok "kill rdma-testpmd: the guest's ib_$test ends with an error: $why"
		else
			notok "kill rdma-testpmd: ib_$test exit $grc, said [$why]"
		fi
	fi
}
# Then rdma-testpmd, a write_bw client: the guest's ib_write_bw server, waiting for the
# client's handshake after the run, fails on the TCP connection's close. (An active rxe
# side would never give up: perftest sets retry_cnt 7, which rxe_completer() takes as
# infinite; and perftest's ping-pong loops poll memory with no time limit.)
kill_case kill-guest write_lat server guest
kill_case kill-host write_bw client host

echo "1..$n"
[ $failed -eq 0 ]
