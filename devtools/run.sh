#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's first command: set up, build, run the main job.
# Until rdma-testpmd exists the main job is the restrack benchmark.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
devtools/setup.sh || exit 1
devtools/build.sh build || exit 1
exec build/tests/restrack/bench_restrack "$@"
