#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Build (or reuse) what the VM boots, in a cache folder:
#   CACHE/vmlinuz          Debian's linux-image-6.1 kernel (fetched with `apt-get download`,
#                          unpacked with `dpkg-deb -x`: never installed on this host)
#   CACHE/initrd.cpio.gz   busybox-static, the modules rdma_rxe / ib_uverbs / rdma_ucm /
#                          crc32_generic / virtio_net / 9p / vfio_pci / vfio_iommu_type1
#                          need (with their depmod tree, so the guest's
#                          modprobe works), the rdma-core tools and their libraries, init
#   CACHE/stamp            hash of every input; equal means the files above are reused
#   CACHE/linux-image-*.deb the package, kept so that a rebuild needs no download
# usage: mkcache.sh CACHE. Exit 0 ready, 77 when the package mirror cannot be reached (the
# caller skips), 1 on any other failure (a message names it).
set -u
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$cache" && cache=$(cd "$cache" && pwd) || exit 1
log() { echo "vm-cache: $*" >&2; }
trap 'rm -rf "$cache/kernel.tmp" "$cache/initrd.tmp" "$cache/initrd.cpio.gz.tmp"' EXIT

# The kernel: what Debian's linux-image-amd64 currently depends on (a 6.1 flavour).
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-6\.1\.[0-9]*-[0-9]*-amd64\)$/\1/p' | head -n 1)
if [ -z "$kpkg" ]; then
	# No package lists: reuse a kernel fetched before, else skip.
	kpkg=$(cat "$cache/kernel.pkg" 2>/dev/null)
	[ -n "$kpkg" ] || { log "no linux-image-6.1 package known to apt"; exit 77; }
fi
kver=${kpkg#linux-image-}

# The guest's programs and the host libraries they are copied from.
tools="/usr/bin/rdma /usr/bin/ibv_rc_pingpong /usr/bin/ibv_devinfo /usr/bin/ibv_devices
/usr/bin/ib_write_lat /usr/bin/ib_send_lat /usr/bin/ib_read_lat /usr/bin/ib_write_bw
/usr/bin/ib_read_bw /usr/bin/ib_send_bw /usr/bin/rping /usr/bin/rdma_server /usr/bin/rdma_client
/usr/bin/udaddy"
rxe_lib=/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
mods="crc32_generic rdma_rxe ib_uverbs rdma_ucm virtio_net virtio_pci 9p 9pnet_virtio
vfio_pci vfio_iommu_type1"
for f in $tools $rxe_lib /etc/libibverbs.d/rxe.driver /bin/busybox; do
	[ -e "$f" ] || { log "$f missing (tests/vm/install.sh installs it)"; exit 1; }
done

stamp=$( {
	echo "$kpkg $mods"
	cat "$here/mkcache.sh" "$here/guest-init.sh"
	dpkg-query -W busybox-static rdma-core ibverbs-utils perftest rdmacm-utils iproute2 libc6 2>/dev/null
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$cache/stamp" 2>/dev/null)" = "$stamp" ] && [ -s "$cache/vmlinuz" ] &&
	[ -s "$cache/initrd.cpio.gz" ]; then
	exit 0
fi
log "building for $kpkg in $cache"
rm -f "$cache/stamp"

# Fetch the kernel package (once per version; the .deb stays, 70 MB), unpack it for the
# build (400 MB, removed after).
deb=$(find "$cache" -maxdepth 1 -name "${kpkg}_*.deb" | head -n 1)
if [ -z "$deb" ]; then
	rm -f "$cache"/linux-image-*.deb
	if ! (cd "$cache" && timeout 300 apt-get download "$kpkg" >/dev/null 2>&1); then
		log "apt-get download $kpkg failed (no mirror?)"
		exit 77
	fi
	deb=$(find "$cache" -maxdepth 1 -name "${kpkg}_*.deb" | head -n 1)
	[ -n "$deb" ] || { log "no .deb after apt-get download"; exit 77; }
	echo "$kpkg" > "$cache/kernel.pkg"
fi
kroot=$cache/kernel.tmp
rm -rf "$kroot"
dpkg-deb -x "$deb" "$kroot" || { log "dpkg-deb -x $deb failed"; exit 1; }
depmod -b "$kroot" "$kver" || { log "depmod failed"; exit 1; }
cp "$kroot/boot/vmlinuz-$kver" "$cache/vmlinuz" || exit 1

# The initramfs tree.
root=$cache/initrd.tmp
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib/x86_64-linux-gnu" "$root/usr/lib64" \
	"$root/etc/libibverbs.d" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/host" \
	"$root/run" "$root/var" || exit 1
ln -s usr/bin "$root/bin"
ln -s usr/sbin "$root/sbin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
cp /bin/busybox "$root/usr/bin/busybox" || exit 1
# modprobe must exist as /sbin/modprobe: the kernel calls it (rxe's crc32 lookup).
for a in $(busybox --list); do
	case $a in
	busybox) ;;
	modprobe|insmod|rmmod|lsmod|depmod|ifconfig|ip|route) ln -sf ../bin/busybox "$root/usr/sbin/$a" ;;
	*) ln -sf busybox "$root/usr/bin/$a" ;;
	esac
done
# Modules with their dependencies, at their own paths, and a depmod tree for them.
mdir=lib/modules/$kver
for m in $mods; do
	modprobe -d "$kroot" -S "$kver" --show-depends "$m" 2>/dev/null || {
		log "module $m not found in $kpkg"
		exit 1
	}
done | sed -n 's/^insmod \([^ ]*\).*/\1/p' | sort -u | while read -r ko; do
	rel=${ko#"$kroot"/}
	mkdir -p "$root/usr/$(dirname "$rel")" && cp "$ko" "$root/usr/$rel" || exit 1
done || exit 1
cp "$kroot/$mdir/modules.order" "$kroot/$mdir/modules.builtin" \
	"$kroot/$mdir/modules.builtin.modinfo" "$root/usr/$mdir/" 2>/dev/null
depmod -b "$root" "$kver" || { log "depmod failed"; exit 1; }
echo "$mods" > "$root/etc/modules"
# Programs, the rxe provider, and every library they load (ldd closure).
for f in $tools; do cp "$f" "$root/usr/bin/" || exit 1; done
mkdir -p "$root/usr/lib/x86_64-linux-gnu/libibverbs"
cp "$rxe_lib" "$root/usr/lib/x86_64-linux-gnu/libibverbs/" || exit 1
cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/" || exit 1
# libgcc_s is loaded at run time by pthread_exit / pthread_cancel (rping's threads), so ldd
# does not list it.
{ for f in $tools $rxe_lib; do ldd "$f"; done
  echo "	/usr/lib/x86_64-linux-gnu/libgcc_s.so.1"; } |
	awk '/=> \// { print $3 } /^\t\// { print $1 }' | sort -u | while read -r lib; do
	cp -L --parents "$lib" "$root" || exit 1
done || exit 1
cp "$here/guest-init.sh" "$root/init" && chmod 755 "$root/init" || exit 1
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$cache/initrd.cpio.gz.tmp" ||
	{ log "cpio failed"; exit 1; }
mv "$cache/initrd.cpio.gz.tmp" "$cache/initrd.cpio.gz"
rm -rf "$root" "$kroot"
echo "$stamp" > "$cache/stamp"
log "ready: $(du -h "$cache/initrd.cpio.gz" | cut -f1) initramfs, kernel $kver"
exit 0
