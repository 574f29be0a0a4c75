#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# A bounded libFuzzer run: usage run_fuzz.sh <fuzzer> <seconds> <seed corpus folder>.
# New inputs go to a temporary folder (never the source tree); a crash leaves its input in
# the current folder (crash-*, as libFuzzer names it) and fails the test.
set -u
bin=$1
secs=$2
seeds=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -print_final_stats=1 "$tmp" "$seeds"
