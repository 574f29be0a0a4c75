#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Prove the packaging, not just the in-tree build: install the build tree into a temporary
# directory, then compile an example with nothing but pkg-config, once against the shared
# library and once against the static one, and run both on the device model.
# usage: out_of_tree.sh <build dir> <example source>. Prints TAP.
set -u
build=$1
src=$2
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"
if meson install -C "$build" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1
then echo "ok 1 - meson install into a temporary root"
else echo "not ok 1 - meson install failed"; sed 's/^/# /' "$tmp/install.log"; exit 0; fi

pcdir=$(dirname "$(find "$tmp/root" -name libirdma-pmd.pc | head -n 1)")
export PKG_CONFIG_PATH="$pcdir"
hdr=$(find "$tmp/root" -name rdmadev.h | head -n 1)
if [ -n "$hdr" ] && [ -z "$(find "$tmp/root" -name 'irdma_*.h' -o -name 'model_*.h' \
	-o -name 'rdmadev_driver.h' | head -n 1)" ]
then echo "ok 2 - public headers installed, driver and model internals not"
else echo "not ok 2 - installed headers: $(find "$tmp/root" -name '*.h' | xargs -n1 basename | tr '\n' ' ')"; fi

# Shared: the drivers register from the library's constructors when it is loaded.
# shellcheck disable=SC2046
if $cc -o "$tmp/ex_shared" "$src" $(pkg-config --cflags --libs libirdma-pmd) \
	>"$tmp/cc1.log" 2>&1
then echo "ok 3 - compiled against libirdma-pmd.pc (shared)"
else echo "not ok 3 - shared compile failed"; sed 's/^/# /' "$tmp/cc1.log"; fi
# Static: -u irdma_pmd_drivers keeps the object holding the driver constructors.
# shellcheck disable=SC2046
if $cc -o "$tmp/ex_static" "$src" $(pkg-config --cflags --libs libirdma-pmd-static) \
	>"$tmp/cc2.log" 2>&1
then echo "ok 4 - compiled against libirdma-pmd-static.pc"
else echo "not ok 4 - static compile failed"; sed 's/^/# /' "$tmp/cc2.log"; fi

run() {
	LD_LIBRARY_PATH="$(dirname "$(find "$tmp/root" -name 'libirdma-pmd.so' | head -n 1)")" \
		"$1" --no-huge -m 512 --no-pci --file-prefix "oot$$" \
		--log-level=lib.eal:error 2>&1
}
out=$(run "$tmp/ex_shared"); rc=$?
if [ $rc -eq 0 ] && printf '%s' "$out" | grep -q "lqpn"
then echo "ok 5 - the shared build runs on the model"
else echo "not ok 5 - shared build: rc $rc"; printf '%s\n' "$out" | sed 's/^/# /'; fi
if [ -x "$tmp/ex_static" ] && ! ldd "$tmp/ex_static" | grep -q libirdma-pmd
then echo "ok 6 - the static build does not load libirdma-pmd.so"
else echo "not ok 6 - the static build links libirdma-pmd.so"; fi
out=$(run "$tmp/ex_static"); rc=$?
if [ $rc -eq 0 ] && printf '%s' "$out" | grep -q "lqpn"
then echo "ok 7 - the static build runs on the model (driver constructors kept)"
else echo "not ok 7 - static build: rc $rc"; printf '%s\n' "$out" | sed 's/^/# /'; fi
