#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configure (once) and build one flavour of the project.
#   devtools/build.sh DIR [meson setup options...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$top" "$@" >"$dir.setup.log" 2>&1 || {
        cat "$dir.setup.log" >&2
        exit 1
    }
fi
ninja -C "$dir" >"$dir.ninja.log" 2>&1 || {
    grep -E -B2 -A12 'error|FAILED' "$dir.ninja.log" | head -80 >&2
    exit 1
}
