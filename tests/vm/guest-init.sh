#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# The guest's /init (tests/vm/mkcache.sh puts it into the initramfs). From the kernel command
# line (unknown name=value parameters reach init as its environment): vm_ip, the address of
# eth0 (/24). Mounts the host's share (virtfs tag host0) on /host, loads the modules, sets
# up eth0 and rxe0 on it, writes /host/ready, then serves the command channel: a file
# /host/cmd/NAME.sh that the host writes (atomically, by rename) is run once, in the
# background, its output in NAME.out and its exit status in NAME.rc (written last, by
# rename). The command sets its own time limit (busybox timeout); the host kills the VM.
export PATH=/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mkdir -p /var/run	# DPDK's runtime folder goes under it
echo "init: kernel $(uname -r)"
# /etc/modules may span several lines: every word is a module.
mods=$(cat /etc/modules)
for m in $mods; do
	modprobe "$m" || echo "init: modprobe $m failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 /host ||
	echo "init: cannot mount the host share"
ip link set lo up
ip addr add "${vm_ip:-10.99.0.1}/24" dev eth0
ip link set eth0 up
rdma link add rxe0 type rxe netdev eth0 || echo "init: rdma link add failed"
# Wait (10 s at most) for the port to come up before saying ready.
i=0
while [ $i -lt 100 ]; do
	grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null && break
	sleep 0.1
	i=$((i + 1))
done
echo "init: rxe0 $(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)"
mkdir -p /host/cmd
{
	ip addr show eth0
	rdma link show
	ibv_devinfo -d rxe0 -v 2>&1 | grep -E 'state|active_mtu|GID\['
} > /host/ready.tmp 2>&1
mv /host/ready.tmp /host/ready
echo "init: ready"
while :; do
	for f in /host/cmd/*.sh; do
		[ -e "$f" ] || continue
		[ -e "$f.started" ] && continue
		: > "$f.started"
		(sh "$f" > "${f%.sh}.out" 2>&1; echo $? > "${f%.sh}.rc.tmp"
		 mv "${f%.sh}.rc.tmp" "${f%.sh}.rc") &
	done
	sleep 0.2
done
