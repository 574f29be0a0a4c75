#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# examples/rcm_ping as a user runs it: a server and a client process, each with its own model
# device on the UDP wire (127.N.M.1 and 127.N.M.2, N and M from our pid), connected through
# the IB CM and rdma_cm (QP 1 on both), rping's exchange for the given number of pings, the
# client's disconnect. Both must report every ping checked, the disconnect, and exit 0.
# usage: run_rcm_ping.sh <rcm_ping binary> [pings [rcm_ping options for both sides]], e.g.
# -T: the CM in a thread of its own. Prints TAP.
set -u
bin=$1
pings=${2:-20}
shift $(($# < 2 ? $# : 2))
opts="$*"
port=$((20000 + $$ % 20000))
net=127.$((1 + $$ % 250)).$(($$ / 250 % 250))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; kill $spid 2>/dev/null' EXIT
eal="--no-huge -m 512 --no-pci --log-level=lib.eal:error"
echo "1..6"
# shellcheck disable=SC2086
timeout 90 "$bin" $eal -l 0 --file-prefix "rps$$" -- -p "$port" -S 100 $opts server \
	irdma_model0,ip=$net.1,wire=udp:$net.1 >"$tmp/s" 2>&1 &
spid=$!
sleep 1
# shellcheck disable=SC2086
timeout 90 "$bin" $eal -l 1 --file-prefix "rpc$$" -- -p "$port" -S 100 -C "$pings" $opts client \
	irdma_model0,ip=$net.2,wire=udp:$net.2 "$net.1" >"$tmp/c" 2>&1
crc=$?
wait $spid
src=$?
[ $crc -eq 0 ] && echo "ok 1 - client exits 0" || echo "not ok 1 - client exited $crc"
[ $src -eq 0 ] && echo "ok 2 - server exits 0" || echo "not ok 2 - server exited $src"
if grep -q "^rcm_ping: $pings pings of 100 bytes, each read and written back and checked" "$tmp/c"
then echo "ok 3 - client checked $pings pings"
else echo "not ok 3 - client report missing"; fi
if grep -q "^rcm_ping: $pings pings of 100 bytes read, checked and written back" "$tmp/s"
then echo "ok 4 - server checked $pings pings"
else echo "not ok 4 - server report missing"; fi
if grep -q "^rcm_ping: connection from $net.2:" "$tmp/s"
then echo "ok 5 - the server saw the client's address"
else echo "not ok 5 - no connection line with $net.2"; fi
if [ "$(grep -c '^rcm_ping: disconnected' "$tmp/c" "$tmp/s" | cut -d: -f2 | paste -sd+ | bc)" = 2 ]
then echo "ok 6 - both sides disconnected through timewait"
else echo "not ok 6 - a side did not report its disconnect"; fi
sed 's/^/# client: /' "$tmp/c"
sed 's/^/# server: /' "$tmp/s"
