#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# The PMD's VFIO backend end to end in a VM (TAP): our QEMU with the irdma-e810 device
# (tests/vm/qemu/, built by tests/vm/qemu-build.sh) on a q35 machine with intel-iommu; the
# guest (intel_iommu=on) binds the function to vfio-pci, reserves hugepages and runs
# rdma-testpmd on irdma:<the function> (the VFIO backend) against rdma-testpmd with a device
# model on the host. The two engines meet on the model's UDP wire in the VM's network
# namespace (guest device 127.0.0.2 in the QEMU process, host peer 127.0.0.1); the TCP
# exchange goes over the guest's virtio-net and the tap. Then a function-level reset during
# traffic, and tests/vm/vfio_fault in the guest (loopback WRITE, MSI-X, an IOMMU fault).
# When libirdma-verbs is built, the unmodified ibv_devinfo and ibv_rc_pingpong of the guest
# run on the VFIO device through it too.
# usage: vfio_e810.sh PROJECT_BUILD_DIR. Needs root (namespace, tap); skips (TAP
# "1..0 # SKIP") without it, or when the QEMU source or the guest kernel cannot be fetched.
# Environment: IRDMA_QEMU_CACHE (QEMU cache, default BUILD/qemu-cache), IRDMA_VM_CACHE
# (kernel and initramfs, default BUILD/vm-cache), IRDMA_VM_ITERS (iterations per test,
# 200), IRDMA_VM_TESTS (the rdma-testpmd tests, default write_lat read_lat send_bw
# write_bw), IRDMA_VM_KEEP=1 (keep the work folder).
set -u
build=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
qcache=${IRDMA_QEMU_CACHE:-$build/qemu-cache}
cache=${IRDMA_VM_CACHE:-$build/vm-cache}
iters=${IRDMA_VM_ITERS:-200}
tests=${IRDMA_VM_TESTS:-write_lat read_lat send_bw write_bw}
testpmd=$build/app/rdma-testpmd
fault=$build/tests/vm/vfio_fault
pingpong=$build/examples/pingpong
verbs=$build/lib/verbs/libirdma-verbs.so
bdf=0000:00:04.0
n=0
failed=0

skip() { echo "1..0 # SKIP $*"; exit 0; }
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
since() { awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $1 }"; }
[ "$(id -u)" -eq 0 ] || skip "not root (network namespace, tap)"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
for p in "$testpmd" "$fault" "$pingpong"; do
	[ -x "$p" ] || { echo "1..1"; echo "not ok 1 - $p missing"; exit 1; }
done
"$here/install.sh" || skip "cannot install the VM packages (tests/vm/install.sh)"

t0=$(date +%s.%N)
"$here/qemu-build.sh" "$qcache" "$build"
rc=$?
[ $rc -eq 77 ] && skip "cannot fetch QEMU's source package or its build dependencies"
qemu_s=$(since "$t0")
# checks: cache, boot, bind, BAR0 + MSI-X, one per test, the pingpong, no DMAR fault, FLR,
# its teardown and the run after it, the 13 of vfio_fault, vfio_fault on --no-huge, the
# guest's DMAR fault line
ntests=$(($(echo "$tests" | wc -w) + 6 + 3 + 13 + 2))
# and the two verbs checks (ibv_devinfo with the layer's defaults, ibv_rc_pingpong -e -c)
[ -f "$verbs" ] && ntests=$((ntests + 2))
t0=$(date +%s.%N)
[ $rc -eq 0 ] && { "$here/mkcache.sh" "$cache"; rc=$?; }
[ $rc -eq 77 ] && skip "cannot fetch the guest kernel (package mirror)"
echo "1..$ntests"
if [ $rc -ne 0 ]; then
	echo "not ok 1 - QEMU ($qcache) and the VM cache ($cache) built"
	exit 1
fi
ok "QEMU with irdma-e810 ready in $qemu_s s, VM cache in $(since "$t0") s"

# shellcheck source=tests/vm/vm.sh
. "$here/vm.sh"
work=$(mktemp -d /tmp/irdma-vfio.XXXXXX)
hpid=
finish() {
	[ -n "$hpid" ] && kill "$hpid" 2>/dev/null
	vm_down
	if [ "${IRDMA_VM_KEEP:-0}" = 1 ] || [ "$failed" -ne 0 ]; then
		echo "# work folder kept: $work"
	else
		rm -rf "$work"
	fi
}
trap finish EXIT

# rdma-testpmd and every library it loads, for the guest (its loader and libc are the
# initramfs's, the same as the host's).
mkdir -p "$work/share/lib" || exit 1
cp "$testpmd" "$fault" "$pingpong" "$work/share/" || exit 1
[ -f "$verbs" ] && { cp "$verbs" "$work/share/lib/" || exit 1; }
# shellcheck disable=SC2046
ldd "$testpmd" "$fault" $([ -f "$verbs" ] && echo "$verbs") |
	awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
	cp -L "$lib" "$work/share/lib/" || exit 1
done || exit 1
cp -L /lib/x86_64-linux-gnu/libgcc_s.so.1 "$work/share/lib/"  # a DPDK program exits through it

VM_QEMU=$qcache/qemu-system-x86_64
VM_MEM=1024
VM_APPEND="intel_iommu=on"
VM_BOOT_TIMEOUT=${VM_BOOT_TIMEOUT:-300}
# intel-iommu: interrupt remapping (vfio_iommu_type1 refuses MSI without it), 48-bit
# IOVAs (EAL's IOVA-as-VA addresses are user virtual addresses). QEMU splits -device
# options at commas: the model's devargs double theirs. The iPXE ROMs of virtio-net live
# in Debian's ipxe-qemu, not in our QEMU's data folder.
VM_QEMU_ARGS="-L /usr/share/seabios -L /usr/share/qemu -L /usr/lib/ipxe/qemu -machine q35
-device intel-iommu,intremap=on,caching-mode=on,aw-bits=48
-device irdma-e810,bus=pcie.0,addr=04.0,devargs=wire=udp:127.0.0.2,,mac=02:00:7f:00:00:02"
if ! vm_up "$cache" "$work"; then
	nok "VM boots (q35, intel-iommu, irdma-e810)"
	sed 's/^/#   /' "$work/qemu.log"
	exit 1
fi
ok "VM boots with irdma-e810 in $VM_BOOT_S s"

# Bind the function to vfio-pci (alone in its IOMMU group), reserve hugepages.
vm_cmd bind "d=/sys/bus/pci/devices/$bdf
echo \"id \$(cat \$d/vendor):\$(cat \$d/device) group \$(basename \$(readlink \$d/iommu_group))\"
[ \"\$(ls \$d/iommu_group/devices)\" = $bdf ] || { echo 'IOMMU group not ours alone'; exit 1; }
echo vfio-pci > \$d/driver_override
[ -e \$d/driver ] && echo $bdf > \$d/driver/unbind
echo $bdf > /sys/bus/pci/drivers/vfio-pci/bind || exit 1
ls /dev/vfio
echo 96 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
mkdir -p /dev/hugepages && mount -t hugetlbfs none /dev/hugepages
grep -E 'HugePages_(Total|Free)' /proc/meminfo
dmesg | grep -iE 'DMAR|IOMMU' | tail -5"
if vm_wait bind 120; then
	ok "guest: $bdf alone in its IOMMU group, bound to vfio-pci, hugepages reserved"
else
	nok "guest: $bdf alone in its IOMMU group, bound to vfio-pci, hugepages reserved"
fi

# One rdma-testpmd run: the model on the host serves, the guest's VFIO device connects.
# Each run opens the device, brings it up, runs, closes it: the runs after the first are
# the close / re-open check.
run() {
	local name=$1 test=${1%%-*} t0
	t0=$(date +%s.%N)
	in_ns "$testpmd" --no-huge -m 256 --no-pci -l 0 --file-prefix "irdmavfio$$" -- \
		--dev irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1,mac=02:00:7f:00:00:01 \
		-e "$test" -s 64 -n "$iters" --server --timeout 60000 > "$work/host-$name.out" 2>&1 &
	hpid=$!
	vm_cmd "$name" "cd /tmp && LD_LIBRARY_PATH=/host/lib timeout 600 /host/rdma-testpmd -l 0 \
-m 128 --huge-unlink --file-prefix g --log-level=pmd.rdma.irdma:info -- \
--dev irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02 \
-e $test -s 64 -n $iters --client $VM_HOST_IP --timeout 60000"
	if vm_wait "$name" 900 > "$work/guest-$name.out" && wait "$hpid"; then
		hpid=
		ok "$name 64 B x $iters, guest VFIO backend <-> host model ($(since "$t0") s)"
		return 0
	fi
	vm_stop "$name"
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
	hpid=
	nok "$name 64 B x $iters, guest VFIO backend <-> host model"
	cat "$work/guest-$name.out"
	sed 's/^/# host: /' "$work/host-$name.out"
	grep -iE 'dmar|vfio|irdma' "$work/console.log" | tail -20 | sed 's/^/# console: /'
	return 1
}
first=1
for t in $tests; do
	run "$t"
	if [ "$first" = 1 ]; then
		first=0
		# The backend's open: BAR0 the E810's size, the MSI-X vectors the device offers.
		if grep -q 'BAR0 134217728 bytes, 64 MSI-X vectors' "$work/guest-$t.out"; then
			ok "VFIO open: BAR0 128 MiB, 64 MSI-X vectors"
		else
			nok "VFIO open: BAR0 128 MiB, 64 MSI-X vectors"
			grep -i 'vfio' "$work/guest-$t.out" | head -5
		fi
	fi
	grep -E 'usec|MB/s|Gb/s|#bytes' "$work/host-$t.out" | tail -2 | sed "s/^/# host $t: /"
done

# Data checked across the wire: examples/pingpong (ibv_rc_pingpong's exchange; both sides
# fill every message with a pattern and compare every byte they receive), the host's model
# as server, the guest's VFIO device as client, 4 KiB messages.
# host_pingpong NAME: examples/pingpong serving 4 KiB messages on a host model, its output in
# $work/host-NAME.out, its pid in hpid; returns once it listens (or ended).
host_pingpong() {
	local out=$work/host-$1.out i=0
	in_ns "$pingpong" --no-huge -m 256 --no-pci -l 0 --file-prefix "irdmavfio$1$$" -- \
		-s 4096 -n "$iters" server \
		irdma_model0,mode=thread,ip=127.0.0.1,wire=udp:127.0.0.1,mac=02:00:7f:00:00:01 \
		> "$out" 2>&1 &
	hpid=$!
	while ! grep -q "listening on TCP" "$out" && [ $i -lt 300 ] && kill -0 $hpid 2>/dev/null; do
		sleep 0.2
		i=$((i + 1))
	done
}
t0=$(date +%s.%N)
host_pingpong pingpong
vm_cmd pingpong "cd /tmp && LD_LIBRARY_PATH=/host/lib timeout 600 /host/pingpong -l 0 -m 128 \
--huge-unlink --file-prefix p -- -s 4096 -n $iters client \
irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02 $VM_HOST_IP"
vm_wait pingpong 900 > "$work/guest-pingpong.out"
prc=$?
wait "$hpid"
hrc=$?
hpid=
if [ $prc -eq 0 ] && [ $hrc -eq 0 ] &&
	grep -q "pingpong: $iters round trips of 4096 bytes" "$work/guest-pingpong.out" &&
	grep -q "echoed $iters messages of 4096 bytes" "$work/host-pingpong.out"; then
	ok "pingpong 4096 B x $iters, every byte checked both ways, guest VFIO <-> host model ($(since "$t0") s)"
else
	nok "pingpong 4096 B x $iters, every byte checked both ways (guest $prc, host $hrc)"
	cat "$work/guest-pingpong.out"
	sed 's/^/# host: /' "$work/host-pingpong.out"
fi

# Unmodified verbs programs of the guest (rdma-core's, from its initramfs) on the VFIO device
# through libirdma-verbs. First with none of the layer's settings: it must find the E810 on
# vfio-pci by itself (before the device model it also opens) and show its port up.
if [ -f "$verbs" ]; then
	vm_cmd verbs-devinfo "cd /tmp && LD_LIBRARY_PATH=/host/lib \
LD_PRELOAD=/host/lib/libirdma-verbs.so timeout 300 ibv_devinfo"
	vm_wait verbs-devinfo 400 > "$work/guest-verbs-devinfo.out"
	vrc=$?
	# the first hca_id is ours, named after the function, with its port active (vm_wait
	# puts "# guest NAME: " before each line)
	first_hca=$(awk '/hca_id:/ { print $NF; exit }' "$work/guest-verbs-devinfo.out")
	if [ $vrc -eq 0 ] && [ "$first_hca" = "irdma:$bdf" ] &&
		awk -v h="irdma:$bdf" '/hca_id:/ { on = ($NF == h) } on && /PORT_ACTIVE/ { f = 1 }
			END { exit !f }' "$work/guest-verbs-devinfo.out" &&
		grep -q "E810 $bdf on vfio-pci: opening" "$work/guest-verbs-devinfo.out"; then
		ok "verbs: ibv_devinfo with the layer's defaults lists irdma:$bdf first, PORT_ACTIVE"
	else
		nok "verbs: ibv_devinfo with the layer's defaults lists irdma:$bdf first, PORT_ACTIVE (rc $vrc, first '$first_hca')"
		sed 's/^/#   /' "$work/guest-verbs-devinfo.out" | head -40
	fi
	# ibv_rc_pingpong -e (a completion channel: the CQ's event through MSI-X) -c (every byte
	# of every message checked) in the guest, examples/pingpong on the host.
	t0=$(date +%s.%N)
	host_pingpong verbs-pingpong
	vm_cmd verbs-pingpong "cd /tmp && LD_LIBRARY_PATH=/host/lib \
LD_PRELOAD=/host/lib/libirdma-verbs.so \
IRDMA_PMD_EAL='-l 0 -m 128 --huge-unlink --file-prefix v --no-pci --no-telemetry' \
IRDMA_PMD_DEVARGS='irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02' \
timeout 600 ibv_rc_pingpong -g 0 -e -c -s 4096 -n $iters $VM_HOST_IP"
	vm_wait verbs-pingpong 900 > "$work/guest-verbs-pingpong.out"
	prc=$?
	wait "$hpid"
	hrc=$?
	hpid=
	if [ $prc -eq 0 ] && [ $hrc -eq 0 ] &&
		grep -q "$iters iters in" "$work/guest-verbs-pingpong.out" &&
		! grep -q "invalid data" "$work/guest-verbs-pingpong.out" &&
		grep -q "echoed $iters messages of 4096 bytes" "$work/host-verbs-pingpong.out"; then
		ok "verbs: ibv_rc_pingpong -e -c 4096 B x $iters on the guest's VFIO device <-> host model ($(since "$t0") s)"
	else
		nok "verbs: ibv_rc_pingpong -e -c 4096 B x $iters on the guest's VFIO device (guest $prc, host $hrc)"
		sed 's/^/#   /' "$work/guest-verbs-pingpong.out" | tail -30
		sed 's/^/# host: /' "$work/host-verbs-pingpong.out" | tail -20
	fi
fi

# No traffic above may have touched an IOVA the guest did not map.
vm_cmd dmar "dmesg | grep -iE 'DMAR:.*fault|DMAR: \\[DMA' ; true"
vm_wait dmar 60 > "$work/dmar.out"
if grep -qiE 'fault|DMA (Read|Write)' "$work/dmar.out"; then
	nok "no DMAR fault during the runs"
	sed 's/^/# /' "$work/dmar.out"
else
	ok "no DMAR fault during the runs"
fi
# A function-level reset during traffic (sysfs reset: FLR, the device model re-created in
# its power-on state): the run in progress must end by itself within its time limit (an
# error, not a hang), and the device must open and carry traffic again afterwards.
in_ns "$testpmd" --no-huge -m 256 --no-pci -l 0 --file-prefix "irdmavfio$$" -- \
	--dev irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1,mac=02:00:7f:00:00:01 \
	-e write_bw -s 64 -n 5000000 --server --timeout 15000 > "$work/host-reset.out" 2>&1 &
hpid=$!
t0=$(date +%s.%N)
vm_cmd reset "cd /tmp && LD_LIBRARY_PATH=/host/lib timeout 300 /host/rdma-testpmd -l 0 \
-m 128 --huge-unlink --file-prefix g -- --dev irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02 \
-e write_bw -s 64 -n 5000000 --client $VM_HOST_IP --timeout 15000 -v"
vm_cmd flr "sleep 8; echo 1 > /sys/bus/pci/devices/$bdf/reset && echo reset done"
vm_wait flr 120 > "$work/flr.out"
flr_rc=$?
vm_wait reset 400 > "$work/guest-reset.out"
reset_rc=$?
kill "$hpid" 2>/dev/null
wait "$hpid" 2>/dev/null
hpid=
if [ $flr_rc -eq 0 ] && [ $reset_rc -ne 0 ] && [ $reset_rc -ne 124 ] && [ $reset_rc -ne 143 ]; then
	ok "FLR during write_bw: the run ended by itself with an error ($(since "$t0") s)"
else
	nok "FLR during write_bw: the run ended by itself with an error (FLR $flr_rc, run $reset_rc)"
	cat "$work/flr.out"
fi
tail -4 "$work/guest-reset.out"
# The driver noticed the reset (no OICR cause after an FLR: its reset poll or the CQP), and
# the process's teardown still freed every object.
if grep -q "device reset" "$work/guest-reset.out" &&
	grep -q "0 leaked objects" "$work/guest-reset.out"; then
	ok "FLR: the driver saw the reset, the teardown freed every object"
else
	nok "FLR: the driver saw the reset, the teardown freed every object"
	grep -E "reset|leak|CQP|stop|close" "$work/guest-reset.out" | head -10
fi
run write_lat-after-reset

# Loopback WRITE with a data check, the event interrupt, an IOMMU fault (vfio_fault.c):
# one TAP line per "vfio_fault: ok|FAIL" line, 13 expected (5 of them the completion
# channel's: a CQ armed, its completion delivered by MSI-X to the channel's fd).
vm_cmd fault "cd /tmp && LD_LIBRARY_PATH=/host/lib timeout 600 /host/vfio_fault -l 0 -m 128 \
--huge-unlink --file-prefix f -- irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02"
vm_wait fault 900 > "$work/fault.out"
k=0
while read -r _ verdict what; do
	k=$((k + 1))
	if [ "$verdict" = ok ]; then ok "vfio_fault: $what"; else nok "vfio_fault: $what"; fi
done < <(sed -n 's/^# guest fault: \(vfio_fault: \(ok\|FAIL\) .*\)/\1/p' "$work/fault.out")
while [ $k -lt 13 ]; do
	k=$((k + 1))
	nok "vfio_fault: check $k did not run"
done
if [ "$failed" -ne 0 ]; then
	grep -vE 'vfio_fault: (ok|FAIL)' "$work/fault.out" | tail -30
fi
grep -E 'vfio_fault: (iova|faulting|event|interrupts)' "$work/fault.out" | sed 's/^# guest fault: /# /'
# The same without hugepages: EAL's plain memory, IOVA as VA, mapped by VFIO like any other.
vm_cmd nohuge "cd /tmp && LD_LIBRARY_PATH=/host/lib timeout 600 /host/vfio_fault -l 0 -m 128 \
--no-huge --file-prefix n -- irdma:$bdf,ip=127.0.0.2,mac=02:00:7f:00:00:02"
if vm_wait nohuge 900 > "$work/nohuge.out"; then
	ok "vfio_fault with --no-huge (IOVA as VA): every check passed"
else
	nok "vfio_fault with --no-huge (IOVA as VA): every check passed"
	grep -E 'FAIL|rror' "$work/nohuge.out" | head -10
fi
# The guest's IOMMU driver saw the device read the unmapped IOVA.
vm_cmd dmar2 "dmesg | grep -iE 'DMAR.*(fault|DMA (Read|Write))' ; true"
vm_wait dmar2 60 > "$work/dmar2.out"
if grep -qE '00:04.0|fault addr' "$work/dmar2.out"; then
	ok "the guest logged the DMAR fault of 0000:00:04.0"
	sed -n 's/^# guest dmar2: /# /p' "$work/dmar2.out" | head -4
else
	nok "the guest logged the DMAR fault of 0000:00:04.0"
	cat "$work/dmar2.out"
fi
[ "$failed" -eq 0 ]
