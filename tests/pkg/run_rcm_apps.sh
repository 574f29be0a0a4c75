#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# The rdma_cm examples beside rcm_ping as a user runs them, a server and a client process
# each with its own model device on the UDP wire (127.N.M.1 and .2, N and M from our pid):
# examples/rcm_udaddy (RDMA_PS_UDP: SIDR, then 10 datagrams each way) and examples/rcm_ping
# -E (rdma_server / rdma_client's exchange: a 16-byte SEND each way, the disconnect). Each
# side must print its success line and exit 0.
# usage: run_rcm_apps.sh <rcm_udaddy binary> <rcm_ping binary>. Prints TAP.
set -u
uda=$1
ping=$2
port=$((20000 + $$ % 20000))
net=127.$((1 + $$ % 250)).$(($$ / 250 % 250))
tmp=$(mktemp -d)
spid=
trap 'rm -rf "$tmp"; [ -z "$spid" ] || kill $spid 2>/dev/null' EXIT
eal="--no-huge -m 512 --no-pci --log-level=lib.eal:error"
n=0
check() {	# CONDITION-RC TEXT
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
pair() {	# NAME BINARY OPTIONS SERVER-LINE CLIENT-LINE
	# shellcheck disable=SC2086
	timeout 60 "$2" $eal -l 0 --file-prefix "ras$$$1" -- -p "$port" $3 server \
		irdma_model0,ip=$net.1,wire=udp:$net.1 >"$tmp/$1.s" 2>&1 &
	spid=$!
	sleep 1
	# shellcheck disable=SC2086
	timeout 60 "$2" $eal -l 1 --file-prefix "rac$$$1" -- -p "$port" $3 client \
		irdma_model0,ip=$net.2,wire=udp:$net.2 "$net.1" >"$tmp/$1.c" 2>&1
	crc=$?
	wait $spid
	src=$?
	spid=
	check $crc "$1: client exits 0"
	check $src "$1: server exits 0"
	grep -q "$4" "$tmp/$1.s"
	check $? "$1: server: $4"
	grep -q "$5" "$tmp/$1.c"
	check $? "$1: client: $5"
	sed "s/^/# $1 client: /" "$tmp/$1.c"
	sed "s/^/# $1 server: /" "$tmp/$1.s"
	port=$((port + 1))
}
pair udaddy "$uda" "-C 10 -S 100" \
	"^rcm_udaddy: 10 datagrams of 100 bytes received, 10 replies sent" \
	"^rcm_udaddy: 10 datagrams of 100 bytes sent, 10 replies received"
pair echo "$ping" "-E" "^rcm_ping: 16 bytes each way" "^rcm_ping: disconnected"
echo "1..$n"
