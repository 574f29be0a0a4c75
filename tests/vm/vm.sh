# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Copyright (c) 2026 the irdma-pmd authors
#
# Functions to boot the test VM (sourced by the tests in tests/vm/; needs root):
#   vm_up CACHE WORKDIR   private network namespace vm_ns ($VM_NS), a tap ($VM_TAP) in it with
#                         $VM_HOST_IP/24, QEMU (TCG) on that tap, the folder WORKDIR/share
#                         as the guest's /host, the serial console in WORKDIR/console.log;
#                         waits for the guest's init to write share/ready (VM_BOOT_S the
#                         seconds it took). Returns non-zero when the VM did not come up.
#   vm_cmd NAME SCRIPT    run SCRIPT (sh text) in the guest, in the background; its shell's
#                         pid is in share/cmd/NAME.pid (exec a long-running program)
#   vm_stop NAME          send that pid a TERM (a peer on the host failed: do not wait)
#   vm_wait NAME SECONDS  wait for it, print its output; returns its exit status (124 on
#                         timeout)
#   vm_down               stop QEMU, delete the tap and the namespace (also on failure:
#                         callers trap it on EXIT)
#   in_ns CMD...          run CMD in the namespace
# For a TAP test script (sets work, n, failed; defines ok, notok):
#   vm_test_start CACHE   skip (TAP "1..0 # SKIP") when not root, without /dev/net/tun, or
#                         when the packages or the guest kernel cannot be had; build the
#                         cache; boot the VM in a new work folder $work, which goes at exit
#                         unless a check failed or IRDMA_VM_KEEP=1; $VM_ON_EXIT runs first
#   vm_addrs PCAP [v6]    one case's addresses, into the caller's (local) variables: dev
#                         (the model's devargs on the tap, capture to PCAP), gip (the
#                         guest's address), hip (the model's), bind (a host server's bind
#                         address, empty for any), what (the capture check's words); v6:
#                         $VM_V6_GUEST and $VM_V6_HOST (the model's second address)
#   vm_ipv6 ADDR          give the guest's eth0 the IPv6 address ADDR/64 (no duplicate
#                         address detection: usable at once) and wait (10 s at most) for
#                         rxe0's GID table to list it; non-zero when it does not
#   vm_counters NAME      rxe's hw_counters (name value lines) into $work/NAME
#   vm_delta KEY          counter KEY in $work/after minus $work/before
#   vm_deltas_zero KEY... each counter's delta printed as a comment; those not 0 into errs
#                         (" KEY=delta" each), empty when all are
#   since T0              seconds since T0 (date +%s.%N), one decimal
# For a case's two sides (the guest's command NAME, a host program in the background):
#   vm_neigh_flush NAME   the guest forgets its neighbours (the model, a new process each
#                         case, learns the guest's MAC from its ARP or ND request)
#   vm_host_ready PID TRIES CMD...  wait (TRIES x 0.2 s at most) until CMD succeeds, e.g.
#                         the host's server says it listens, or until PID exits
#   vm_host_join NAME PID wait until the guest's NAME ended or PID exited, then for PID:
#                         its status in hrc
#   vm_guest_join NAME LIMIT OUT  stop NAME when the host failed ($hrc non-zero), wait for
#                         it (LIMIT s), its output into OUT, its status in grc
#   vm_kill_tree PID      KILL PID and all its descendants, the deepest first (timeout(1)
#                         does not forward a KILL to its child)
#   vm_case_log NAME T0 OUT  the case's time, the host's output OUT.host, the guest's OUT.guest
#   vm_capture_check NAME HIP GIP WHAT  tests/vm/roce_pcap.py on $work/NAME.pcap (the model
#                         at HIP): a TAP line, ok when the ICRCs and WHAT are right and the
#                         guest's address GIP sent frames; the check's output as comments
#   perftest_row FILE     the first result row after perftest's table header (#bytes)
#   perftest_cols FILE    the number of columns of that header
# Addresses: the guest's eth0 is $VM_GUEST_IP, its rxe0 GID index 1 ::ffff:$VM_GUEST_IP.
# The machine: VM_QEMU (the binary; default qemu-system-x86_64 from PATH), VM_MEM (MiB,
# 512), VM_QEMU_ARGS (more arguments: machine, IOMMU, devices), VM_APPEND (more kernel
# command line).
VM_NS=${VM_NS:-irdmavm$$}
VM_TAP=${VM_TAP:-vmtap0}
VM_NET=${VM_NET:-10.77.0}
VM_GUEST_IP=$VM_NET.1
VM_HOST_IP=$VM_NET.3
VM_V6_GUEST=fd00:99::1	# vm_ipv6 gives it to the guest's eth0
VM_V6_HOST=fd00:99::2
VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-120}
VM_QEMU_PID=
VM_DIR=

in_ns() { ip netns exec "$VM_NS" "$@"; }

vm_up() {
	local cache=$1 t0 i
	VM_DIR=$2
	mkdir -p "$VM_DIR/share/cmd" || return 1
	rm -f "$VM_DIR/share/ready" "$VM_DIR/share/cmd/"* "$VM_DIR/qemu.pid"
	ip netns add "$VM_NS" || return 1
	in_ns ip link set lo up &&
	in_ns ip tuntap add dev "$VM_TAP" mode tap &&
	in_ns ip addr add "$VM_HOST_IP/24" dev "$VM_TAP" &&
	in_ns ip link set "$VM_TAP" up || return 1
	t0=$(date +%s.%N)
	# An upper bound on the VM's life whatever happens to this script.
	# shellcheck disable=SC2086  # VM_QEMU_ARGS: words
	in_ns timeout -s KILL 1800 "${VM_QEMU:-qemu-system-x86_64}" -accel tcg,thread=multi \
		-cpu max -m "${VM_MEM:-512}" -smp 2 -nodefaults -no-reboot -display none \
		-monitor none ${VM_QEMU_ARGS:-} \
		-serial "file:$VM_DIR/console.log" -pidfile "$VM_DIR/qemu.pid" \
		-kernel "$cache/vmlinuz" -initrd "$cache/initrd.cpio.gz" \
		-append "console=ttyS0 panic=-1 quiet vm_ip=$VM_GUEST_IP ${VM_APPEND:-}" \
		-netdev "tap,id=n0,ifname=$VM_TAP,script=no,downscript=no" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:4d:00:01 \
		-virtfs "local,path=$VM_DIR/share,mount_tag=host0,security_model=none,id=host0" \
		> "$VM_DIR/qemu.log" 2>&1 &
	VM_QEMU_PID=$!
	i=0
	while [ ! -e "$VM_DIR/share/ready" ]; do
		if ! kill -0 "$VM_QEMU_PID" 2>/dev/null; then
			echo "# vm: QEMU exited:"; sed 's/^/#   /' "$VM_DIR/qemu.log"
			return 1
		fi
		if [ $i -ge $((VM_BOOT_TIMEOUT * 5)) ]; then
			echo "# vm: not up in $VM_BOOT_TIMEOUT s; console:"
			tail -30 "$VM_DIR/console.log" | sed 's/^/#   /'
			return 1
		fi
		sleep 0.2
		i=$((i + 1))
	done
	# shellcheck disable=SC2034  # for the caller
	VM_BOOT_S=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")
	return 0
}

vm_cmd() {
	printf 'echo $$ > /host/cmd/%s.pid\n%s\n' "$1" "$2" > "$VM_DIR/share/cmd/$1.tmp" &&
	mv "$VM_DIR/share/cmd/$1.tmp" "$VM_DIR/share/cmd/$1.sh"
}

vm_stop() {
	[ -e "$VM_DIR/share/cmd/$1.rc" ] && return 0
	vm_cmd "stop$1" "kill \$(cat /host/cmd/$1.pid) 2>/dev/null; true"
	vm_wait "stop$1" 30 > /dev/null
}

vm_wait() {
	local name=$1 limit=$2 i=0 f=$VM_DIR/share/cmd/$1
	while [ ! -e "$f.rc" ]; do
		if [ $i -ge $((limit * 5)) ] || ! kill -0 "$VM_QEMU_PID" 2>/dev/null; then
			echo "# vm: $name: no result in $limit s"
			[ -e "$f.out" ] && sed "s/^/# guest $name: /" "$f.out"
			return 124
		fi
		sleep 0.2
		i=$((i + 1))
	done
	sed "s/^/# guest $name: /" "$f.out"
	return "$(cat "$f.rc")"
}

vm_down() {
	if [ -n "$VM_QEMU_PID" ]; then
		kill "$VM_QEMU_PID" 2>/dev/null
		# timeout(1) forwards the TERM to QEMU; give it 5 s, then KILL both.
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$VM_QEMU_PID" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$VM_QEMU_PID" 2>/dev/null
		[ -s "$VM_DIR/qemu.pid" ] && kill -KILL "$(cat "$VM_DIR/qemu.pid")" 2>/dev/null
		wait "$VM_QEMU_PID" 2>/dev/null
		VM_QEMU_PID=
	fi
	if ip netns list 2>/dev/null | grep -qw "$VM_NS"; then
		in_ns ip link del "$VM_TAP" 2>/dev/null
		ip netns del "$VM_NS"
	fi
}

since() { awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $1 }"; }

vm_neigh_flush() {
	vm_cmd "neigh$1" "ip neigh flush dev eth0"
	vm_wait "neigh$1" 60 > /dev/null
}

vm_host_ready() {
	local pid=$1 tries=$2 i=0
	shift 2
	while ! "$@" && [ $i -lt "$tries" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.2
		i=$((i + 1))
	done
}

# shellcheck disable=SC2034  # hrc: for the caller
vm_host_join() {
	while [ ! -e "$VM_DIR/share/cmd/$1.rc" ] && kill -0 "$2" 2>/dev/null; do
		sleep 0.2
	done
	wait "$2"
	hrc=$?
}

# shellcheck disable=SC2034  # grc: for the caller
vm_guest_join() {
	[ "$hrc" -eq 0 ] || vm_stop "$1"
	vm_wait "$1" "$2" > "$3"
	grc=$?
}

vm_kill_tree() {
	local p kids=$1 all=
	while [ -n "$kids" ]; do
		all="$kids $all"
		kids=$(for p in $kids; do pgrep -P "$p"; done)
	done
	# shellcheck disable=SC2086  # a list of pids
	kill -KILL $all 2>/dev/null
}

vm_case_log() {
	echo "# time: $1 $(since "$2") s"
	sed 's/^/# host: /' "$3.host"
	cat "$3.guest"
}

vm_capture_check() {
	local name=$1 hip=$2 gip=$3 what=$4 out=$work/$1.check
	if "$(dirname "${BASH_SOURCE[0]}")/roce_pcap.py" "$work/$name.pcap" "$hip" > "$out" 2>&1 &&
		grep -q "^sender $gip: [1-9]" "$out"; then
		ok "$name: capture: ICRCs and $what right both ways"
	else
		notok "$name: capture check failed"
	fi
	sed "s/^/# capture: /" "$out"
}

perftest_row() { awk '/^ *#bytes/ { h = 1; next } h && /^ *[0-9]/ { print; exit }' "$1"; }
perftest_cols() { awk '/^ *#bytes/ { print NF; exit }' "$1"; }

vm_skip() { echo "1..0 # SKIP $*"; exit 0; }

ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

vm_test_finish() {
	${VM_ON_EXIT:-:}
	vm_down
	if [ "${IRDMA_VM_KEEP:-0}" = 1 ] || [ "$failed" -ne 0 ]; then
		echo "# work folder kept: $work"
	else
		rm -rf "$work"
	fi
}

vm_test_start() {
	local cache=$1 here t0 rc
	here=$(dirname "${BASH_SOURCE[0]}")
	[ "$(id -u)" -eq 0 ] || vm_skip "not root (network namespace, tap)"
	[ -c /dev/net/tun ] || vm_skip "no /dev/net/tun"
	"$here/install.sh" || vm_skip "cannot install the VM packages (tests/vm/install.sh)"
	t0=$(date +%s.%N)
	"$here/mkcache.sh" "$cache"
	rc=$?
	[ $rc -eq 77 ] && vm_skip "cannot fetch the guest kernel (package mirror)"
	if [ $rc -ne 0 ]; then
		echo "1..1"
		echo "not ok 1 - VM cache ($cache) could not be built"
		exit 1
	fi
	echo "# cache: $cache ready in $(since "$t0") s"
	n=0
	failed=0
	work=$(mktemp -d /tmp/irdma-vm.XXXXXX)
	trap vm_test_finish EXIT
	trap 'exit 1' INT TERM
	if ! vm_up "$cache" "$work"; then
		notok "the VM boots with rxe0 up"
		echo "Bail out! no VM"
		exit 1
	fi
	echo "# VM up in $VM_BOOT_S s:"
	sed 's/^/#   /' "$work/share/ready"
}

# shellcheck disable=SC2034  # for the caller
vm_addrs() {
	dev="irdma_model0,mode=thread,ip=$VM_NET.2,wire=eth:net_af_packet0,pcap=$1"
	gip=$VM_GUEST_IP hip=$VM_NET.2 bind='' what="IPv4 checksums"
	if [ "${2:-}" = v6 ]; then
		dev="irdma_model0,mode=thread,ip=$VM_NET.2;$VM_V6_HOST,wire=eth:net_af_packet0,pcap=$1"
		gip=$VM_V6_GUEST hip=$VM_V6_HOST bind=$VM_V6_HOST what="IPv6 headers"
	fi
}

vm_ipv6() {
	local full name
	name=v6$(echo "$1" | tr -c '0-9a-f\n' _)
	full=$(python3 -c 'import ipaddress, sys; print(ipaddress.IPv6Address(sys.argv[1]).exploded)' "$1")
	vm_cmd "$name" "echo 0 > /proc/sys/net/ipv6/conf/eth0/accept_dad &&
		ip -6 addr add $1/64 dev eth0 || exit 1
		i=0; while [ \$i -lt 50 ]; do
			grep -qx $full /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null && exit 0
			sleep 0.2; i=\$((i + 1)); done; exit 1"
	vm_wait "$name" 60 > /dev/null || { echo "# the guest's rxe0 has no GID for $1"; return 1; }
}

vm_counters() {
	# shellcheck disable=SC2016  # expanded in the guest
	vm_cmd "cnt$1" 'cd /sys/class/infiniband/rxe0/ports/1/hw_counters &&
		for f in *; do echo "$f $(cat "$f")"; done'
	vm_wait "cnt$1" 60 > /dev/null
	cp "$work/share/cmd/cnt$1.out" "$work/$1"
}

vm_delta() {
	echo $(($(awk -v k="$1" '$1 == k { print $2 }' "$work/after") - \
		$(awk -v k="$1" '$1 == k { print $2 }' "$work/before")))
}

# shellcheck disable=SC2034  # errs: for the caller
vm_deltas_zero() {
	local c d
	errs=
	for c in "$@"; do
		d=$(vm_delta "$c")
		echo "# rxe $c: $d"
		[ "$d" = 0 ] || errs="$errs $c=$d"
	done
}
