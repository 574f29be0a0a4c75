#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Run an example on the device model (--no-huge: no hugepage set-up needed) and check its
# output has every line it must print. usage: run_example.sh <binary> <expected regex>...
# Prints TAP.
set -u
bin=$1
shift
out=$("$bin" --no-huge -m 512 --no-pci --file-prefix "ex$$" --log-level=lib.eal:error \
	--log-level=pmd.rdma.irdma:warning 2>&1)
rc=$?
n=$(($# + 1))
echo "1..$n"
if [ $rc -eq 0 ]; then echo "ok 1 - $(basename "$bin") exits 0"; else
	echo "not ok 1 - $(basename "$bin") exited $rc"; fi
i=2
for re in "$@"; do
	if printf '%s\n' "$out" | grep -Eq -- "$re"; then echo "ok $i - output has /$re/"; else
		echo "not ok $i - output lacks /$re/"; fi
	i=$((i + 1))
done
printf '%s\n' "$out" | sed 's/^/# /'
