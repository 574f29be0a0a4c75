#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# examples/pingpong as a user runs it: a server and a client process, each with its own model
# device on the UDP wire (127.N.M.1 and 127.N.M.2, N and M from our pid, so that two runs at
# once do not both bind port 4791 of one address), QP parameters over TCP, each on its own
# CPU (two busy-polling processes on one CPU would share it in scheduler time slices), 64-byte
# messages (-s 64) and the given number of iterations on both sides (-n). Both must report and
# exit 0. usage: run_pingpong.sh <pingpong binary> [iterations]. Prints TAP.
set -u
bin=$1
iters=${2:-200}
port=$((20000 + $$ % 20000))
net=127.$((1 + $$ % 250)).$(($$ / 250 % 250))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; kill $spid 2>/dev/null' EXIT
eal="--no-huge -m 512 --no-pci --log-level=lib.eal:error"
echo "1..4"
# shellcheck disable=SC2086
timeout 60 "$bin" $eal -l 0 --file-prefix "pps$$" -- -p "$port" -s 64 -n "$iters" server \
	irdma_model0,ip=$net.1,wire=udp:$net.1 >"$tmp/s" 2>&1 &
spid=$!
sleep 1
# shellcheck disable=SC2086
timeout 60 "$bin" $eal -l 1 --file-prefix "ppc$$" -- -p "$port" -s 64 -n "$iters" client \
	irdma_model0,ip=$net.2,wire=udp:$net.2 127.0.0.1 >"$tmp/c" 2>&1
crc=$?
wait $spid
src=$?
[ $crc -eq 0 ] && echo "ok 1 - client exits 0" || echo "not ok 1 - client exited $crc"
[ $src -eq 0 ] && echo "ok 2 - server exits 0" || echo "not ok 2 - server exited $src"
if grep -Eq "^pingpong: $iters round trips of 64 bytes, [0-9.]+ us each" "$tmp/c"
then echo "ok 3 - client reports $iters round trips"
else echo "not ok 3 - client report missing"; fi
if grep -q "^pingpong: echoed $iters messages of 64 bytes" "$tmp/s"
then echo "ok 4 - server echoed $iters messages"
else echo "not ok 4 - server report missing"; fi
sed 's/^/# client: /' "$tmp/c"
sed 's/^/# server: /' "$tmp/s"
