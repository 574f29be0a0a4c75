#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Interop with a real kernel RoCEv2 peer: rdma-core's unmodified ibv_rc_pingpong on Linux
# soft-RoCE (rdma_rxe) in a QEMU (TCG) VM, against examples/pingpong on this host, whose
# device model puts its frames on the Ethernet wire through DPDK's net_af_packet on the
# VM's tap (in a private network namespace; tests/vm/vm.sh). Four runs: 64 B and 4 KiB,
# the guest as server and as client, then two over IPv6 (rxe's GID 0, its link-local
# address, against a link-local GID of the model's, resolved by neighbour discovery), the
# data checked on both sides (ibv_rc_pingpong -c on
# the guest's server: a 0 at every 4 KiB offset; examples/pingpong: every byte). Each run's
# capture (the model's pcap devarg) is checked by tests/vm/roce_pcap.py: every ICRC and IPv4
# checksum right both ways, no IP ID 0 from the model; it also counts the requests each
# side sent again, and of rxe's those the model had already acknowledged (rxe arms its
# retransmit timer at a send and pushes it back only while requests are outstanding, so a
# timer armed for an earlier message can expire on a later one, "spurious timeouts" in the
# comment of rxe_completer(); rxe counts them in completer_retry_err). At the end rxe's own counters
# (/sys/class/infiniband/rxe0/ports/1/hw_counters): no sequence, RNR, retry-exceeded or send
# error; rxe accepted every frame the model sent (rcvd_pkts) and the model got every frame
# rxe sent (sent_pkts); and the model sent nothing again: the wire loses nothing and its
# retransmit timer is the IBA's (4.096 us x 2^timeout, `-t 20` = 4.3 s here, longer than a
# TCG guest on a busy host takes to ACK), so a retransmission would be a bug. rxe's
# duplicate_request must read zero too.
#
# usage: interop_pingpong.sh <examples/pingpong> [cache dir]. Needs root (namespace, tap);
# skips (TAP "1..0 # SKIP") when not root, without /dev/net/tun, or when the packages or
# the guest kernel cannot be fetched. Environment: IRDMA_VM_ITERS (iterations per run,
# 1000 as ibv_rc_pingpong's default), IRDMA_VM_CACHE (cache folder), IRDMA_VM_KEEP=1 (keep
# the work folder: console log, captures, outputs).
set -u
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cache=${IRDMA_VM_CACHE:-${2:-$(dirname "$bin")/../vm-cache}}
iters=${IRDMA_VM_ITERS:-1000}

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
vm_test_start "$cache"
echo "1..15"
vm_counters before

# A run: limit for each side, generous (TCG: ~20 ms a 64-byte round trip on a busy host).
limit=$((120 + iters / 4))
eal="--no-huge -m 512 --no-pci -l 0 --log-level=lib.eal:error --vdev net_af_packet0,iface=$VM_TAP"
model_frames=0
rxe_frames=0
run_case() {	# run_case NAME guest-role(server|client) size [v6]
	local name=$1 role=$2 size=$3 t hrc grc out=$work/$1 pcap=$work/$1.pcap line
	local dev="irdma_model0,mode=thread,ip=$VM_NET.2,wire=eth:net_af_packet0,pcap=$pcap"
	local opts="-t 20 -s $size -n $iters" g=1 me=$VM_NET.2 peer=$VM_GUEST_IP
	if [ "${4:-}" = v6 ]; then
		# GID 1 of ours a link-local address; rxe's GID 0 is its own (eth0's).
		dev="irdma_model0,mode=thread,ip=$VM_NET.2;fe80::77:2,wire=eth:net_af_packet0,pcap=$pcap"
		opts="$opts -g 1"
		g=0
		me=fe80::77:2
	fi
	# Forget the model's MAC: rxe's connect then asks for it by ARP, and the model (a new
	# process each run) learns the guest's MAC from that request before its first send.
	vm_neigh_flush "$name"
	t=$(date +%s.%N)
	if [ "$role" = server ]; then
		vm_cmd "$name" "exec timeout $limit ibv_rc_pingpong -d rxe0 -g $g -s $size -n $iters -c"
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vm$$$name" -- $opts \
			client "$dev" "$VM_GUEST_IP" > "$out.host" 2>&1
		hrc=$?
	else
		# shellcheck disable=SC2086
		in_ns timeout "$limit" "$bin" $eal --file-prefix "vm$$$name" -- $opts \
			server "$dev" > "$out.host" 2>&1 &
		local hpid=$!
		vm_host_ready $hpid 300 grep -q "listening on TCP" "$out.host"
		vm_cmd "$name" "exec timeout $limit ibv_rc_pingpong -d rxe0 -g $g -s $size -n $iters -c $VM_HOST_IP"
		# Until the guest is done or the host side ended (bounded by the host's timeout).
		vm_host_join "$name" $hpid
	fi
	vm_guest_join "$name" "$limit" "$out.guest"
	vm_case_log "$name" "$t" "$out"
	if [ $hrc -eq 0 ] && [ "$grc" -eq 0 ] &&
		grep -Eq "^pingpong: ($iters round trips|echoed $iters messages) of $size bytes" "$out.host" &&
		grep -q "$iters iters in" "$out.guest" && ! grep -q "invalid data" "$out.guest"; then
		ok "$name: ibv_rc_pingpong (guest $role) and examples/pingpong, $iters x $size B, data checked"
	else
		notok "$name: guest $role exited $grc, host exited $hrc, $iters x $size B"
	fi
	# Over IPv6 the guest's address is the GID it printed ("local address: ... GID g").
	[ "$me" = "$VM_NET.2" ] ||
		peer=$(sed -n 's/.*local address:.*GID \([0-9a-f:]*\).*/\1/p' "$out.guest" | head -1)
	if "$here/roce_pcap.py" "$pcap" "$me" > "$out.check" 2>&1; then
		ok "$name: capture: ICRCs (and IPv4 checksums) right both ways, real IP IDs"
	else
		notok "$name: capture check failed"
	fi
	sed "s/^/# capture: /" "$out.check"
	line=$(grep "^sender $me:" "$out.check")
	model_frames=$((model_frames + $(echo "${line:-0 0}" | awk '{ print $3 + 0 }')))
	line=$(grep "^sender $peer:" "$out.check")
	rxe_frames=$((rxe_frames + $(echo "${line:-0 0}" | awk '{ print $3 + 0 }')))
	line=$(grep "^sender $me:" "$out.check")
	model_rexmit=$((model_rexmit + $(echo "${line:-0 0 0 0 0 0 0 0 0}" |
		awk '{ print $9 + 0 }')))
}
model_rexmit=0
run_case srv64 server 64
run_case srv4k server 4096
run_case cli64 client 64
run_case cli4k client 4096
run_case srv4k6 server 4096 v6
run_case cli64v6 client 64 v6

vm_counters after
vm_deltas_zero out_of_seq_request rcvd_seq_err rcvd_rnr_err send_rnr_err \
	retry_exceeded_err retry_rnr_exceeded_err send_err link_downed
# rxe's own requester retries (its retransmit timer is not re-armed by every ACK, so a
# slow guest sees some that no loss caused): counted, not an error of the peer.
echo "# rxe completer_retry_err (its own timer retries): $(vm_delta completer_retry_err)"
if [ -z "$errs" ]; then
	ok "rxe counters: no sequence, RNR, retry-exceeded or send errors"
else
	notok "rxe counters:$errs"
fi
rcvd=$(vm_delta rcvd_pkts)
sent=$(vm_delta sent_pkts)
echo "# rxe rcvd_pkts $rcvd, model frames sent $model_frames; rxe sent_pkts $sent, model frames received $rxe_frames"
if [ "$rcvd" -eq "$model_frames" ] && [ "$sent" -eq "$rxe_frames" ]; then
	ok "rxe accepted every frame the model sent, the model got every frame rxe sent"
else
	notok "frames lost or refused: rxe rcvd $rcvd of $model_frames, model got $rxe_frames of $sent"
fi
dup=$(vm_delta duplicate_request)
echo "# model retransmitted $model_rexmit request packets; rxe duplicate_request $dup"
if [ "$model_rexmit" -eq 0 ] && [ "$dup" -eq 0 ]; then
	ok "the model retransmitted nothing on a loss-free wire (rxe saw no duplicate)"
else
	notok "model retransmitted $model_rexmit packets, rxe saw $dup duplicates"
fi
[ $failed -eq 0 ]
