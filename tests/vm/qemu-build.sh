#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build (or reuse) a QEMU 7.2 with the irdma-e810 test device (tests/vm/qemu/) in a cache
# folder. Test harness only: QEMU and the device are GPL-2; nothing here is linked into the
# project's BSD libraries (the device links them: libirdma_model_ext.a and the model).
#   CACHE/src/qemu-7.2*/      Debian's source package (`apt-get source qemu` through a
#                             private APT config with a deb-src entry for the mirror the
#                             system uses; the system's APT state is not touched)
#   CACHE/build/              QEMU's build tree (ninja rebuilds only what changed)
#   CACHE/qemu-system-x86_64  the binary (x86_64-softmmu, TCG only, the devices the VM
#                             tests use: q35, intel-iommu, virtio-net, virtio-9p, e1000e,
#                             irdma-e810)
#   CACHE/stamp               hash of the configure inputs; equal: the tree is reused
#   CACHE/build-seconds       wall time of the last build that compiled something (a relink
#                             after a change of the model's archives does not count)
# usage: qemu-build.sh CACHE PROJECT_BUILD_DIR. Exit 0 ready, 77 when the source package or
# its build dependencies cannot be had (the caller skips), 1 on any other failure.
set -u
cache=$1
pbuild=$(cd "$2" && pwd) || exit 1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$cache" && cache=$(cd "$cache" && pwd) || exit 1
log() { echo "qemu-build: $*" >&2; }

modellib=$pbuild/drivers/rdma/irdma/model
for f in "$modellib/libirdma_model_ext.a" "$modellib/libirdma_model.a"; do
	[ -s "$f" ] || { log "$f missing (build the project first)"; exit 1; }
done

# Build dependencies (a minimal QEMU, not Debian's full build-dep set).
deps="libglib2.0-dev libpixman-1-dev libattr1-dev libcap-ng-dev ninja-build meson"
missing=
for p in $deps; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "installing$missing"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 ||
		{ log "apt-get install$missing failed"; exit 77; }
fi

# The source package, through a private APT configuration.
src=$(find "$cache/src" -maxdepth 1 -type d -name 'qemu-7.2*' 2>/dev/null | head -n 1)
if [ -z "$src" ]; then
	mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources \
		2>/dev/null | head -n 1)
	suite=$(sed -n 's/^Suites: *\([a-z]*\).*/\1/p' /etc/apt/sources.list.d/*.sources \
		2>/dev/null | head -n 1)
	mirror=${mirror:-http://deb.debian.org/debian}
	suite=${suite:-bookworm}
	mkdir -p "$cache/apt/lists/partial" "$cache/src" || exit 1
	echo "deb-src $mirror $suite main" > "$cache/apt/sources.list"
	aptq="-o Dir::Etc::SourceList=$cache/apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State::Lists=$cache/apt/lists"
	log "apt-get source qemu from $mirror $suite"
	# shellcheck disable=SC2086
	if ! timeout 300 apt-get $aptq update >"$cache/fetch.log" 2>&1 ||
		! (cd "$cache/src" && timeout 600 apt-get $aptq source qemu) >>"$cache/fetch.log" 2>&1; then
		log "apt-get source qemu failed (see $cache/fetch.log)"
		exit 77
	fi
	src=$(find "$cache/src" -maxdepth 1 -type d -name 'qemu-7.2*' | head -n 1)
	[ -n "$src" ] || { log "no qemu-7.2 in the source package"; exit 1; }
fi

# Our device in the tree (copied only when it changed, so that ninja rebuilds only it).
put() { cmp -s "$1" "$2" || cp "$1" "$2"; }
put "$here/qemu/irdma_e810.c" "$src/hw/misc/irdma_e810.c" &&
put "$here/../../drivers/rdma/irdma/model/irdma_model_ext.h" "$src/hw/misc/irdma_model_ext.h" ||
	exit 1
if ! grep -q IRDMA_E810 "$src/hw/misc/Kconfig"; then
	printf '\nconfig IRDMA_E810\n    bool\n    depends on PCI_EXPRESS && MSI_NONBROKEN\n' \
		>> "$src/hw/misc/Kconfig"
fi
dpdk_libs=$(pkg-config --libs libdpdk) || { log "pkg-config libdpdk failed"; exit 1; }
{
	sed '/^# irdma-e810 begin/,$d' "$src/hw/misc/meson.build"
	echo "# irdma-e810 begin (tests/vm/qemu-build.sh)"
	printf "irdma_e810_dep = declare_dependency(link_args: ['-Wl,--whole-archive', '%s', '-Wl,--no-whole-archive', '%s'" \
		"$modellib/libirdma_model_ext.a" "$modellib/libirdma_model.a"
	for a in $dpdk_libs -lrte_bus_vdev -lpthread -lm; do printf ", '%s'" "$a"; done
	echo "])"
	echo "softmmu_ss.add(when: 'CONFIG_IRDMA_E810', if_true: [files('irdma_e810.c'), irdma_e810_dep])"
} > "$cache/misc-meson.build" && put "$cache/misc-meson.build" "$src/hw/misc/meson.build" || exit 1
# The dfsg tarball has no edk2 blobs; meson.build would unpack them.
# (Every edit only when needed: a rewritten file would make meson reconfigure and ninja
# rebuild most of QEMU.)
if grep -q '^    unpack_edk2_blobs = bzip2.found()$' "$src/meson.build"; then
	sed -i 's/^    unpack_edk2_blobs = bzip2.found()$/    unpack_edk2_blobs = false/' "$src/meson.build"
fi
# Only the devices the tests use.
devs="$src/configs/devices/i386-softmmu/default.mak"
grep -q '^CONFIG_IRDMA_E810=y' "$devs" || cat >> "$devs" <<'MAK'
# irdma-pmd VM tests (tests/vm/qemu-build.sh)
CONFIG_VTD=y
CONFIG_IRDMA_E810=y
CONFIG_E1000E_PCI_EXPRESS=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_NET=y
CONFIG_VIRTIO_9P=y
MAK
if grep -q '^CONFIG_\(ISAPC\|I440FX\|MICROVM\)=y$' "$devs"; then
	sed -i 's/^CONFIG_\(ISAPC\|I440FX\|MICROVM\)=y$/CONFIG_\1=n/' "$devs"
fi

conf="--target-list=x86_64-softmmu --without-default-features --without-default-devices
--enable-tcg --disable-kvm --enable-virtfs --enable-attr --enable-cap-ng --disable-docs
--disable-werror --disable-install-blobs"
stamp=$( {
	echo "$src $conf $dpdk_libs"
	cat "$src/hw/misc/Kconfig" "$devs"
} | sha256sum | cut -d' ' -f1)
if [ "$(cat "$cache/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$cache/build/build.ninja" ]; then
	log "configuring QEMU in $cache/build"
	rm -rf "$cache/build" "$cache/stamp"
	mkdir -p "$cache/build" || exit 1
	# shellcheck disable=SC2086
	(cd "$cache/build" && "$src/configure" $conf) >"$cache/configure.log" 2>&1 ||
		{ tail -n 30 "$cache/configure.log" >&2; log "configure failed"; exit 1; }
	echo "$stamp" > "$cache/stamp"
fi
# The archives are link arguments, not inputs ninja knows: relink when they changed.
# (meson's archives are thin: hash their members.)
libsum=$(for a in "$modellib/libirdma_model_ext.a" "$modellib/libirdma_model.a"; do
	ar t "$a" | while read -r o; do
		case $o in /*) cat "$o" ;; *) cat "$pbuild/$o" ;; esac
	done
done | sha256sum)
if [ "$(cat "$cache/libsum" 2>/dev/null)" != "$libsum" ]; then
	rm -f "$cache/build/qemu-system-x86_64"
fi
t0=$(date +%s)
if ! nice -n 10 ninja -C "$cache/build" qemu-system-x86_64 >"$cache/build.log" 2>&1; then
	grep -E -A12 'FAILED|error' "$cache/build.log" | head -n 60 >&2
	log "build failed (see $cache/build.log)"
	exit 1
fi
t1=$(date +%s)
echo "$libsum" > "$cache/libsum"
if grep -q 'Compiling' "$cache/build.log"; then
	echo $((t1 - t0)) > "$cache/build-seconds"
	log "built in $((t1 - t0)) s"
elif ! grep -q 'ninja: no work to do' "$cache/build.log"; then
	log "relinked in $((t1 - t0)) s"
fi
ln -sf build/qemu-system-x86_64 "$cache/qemu-system-x86_64"
exit 0
