#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# Run an unmodified libibverbs program on the PMD's devices from the build tree
# (doc/verbs.md): libirdma-verbs is preloaded and answers the verbs for the devices of
# IRDMA_PMD_DEVARGS (';'-separated devargs, default one device model), with EAL started from
# IRDMA_PMD_EAL on the first ibv_get_device_list(); other devices stay the system's.
#   devtools/with-verbs.sh COMMAND ARGS...
#   IRDMA_PMD_DEVARGS='irdma_model0,ip=127.0.0.1,wire=udp:127.0.0.1' devtools/with-verbs.sh ibv_devinfo -v
# BUILD=dir selects the build directory (default build/).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
lib=$build/lib/verbs/libirdma-verbs.so
if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi
if [ ! -f "$lib" ]; then
    echo "$0: $lib is not built (ninja -C $build; needs libibverbs-dev)" >&2
    exit 1
fi
LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD}
export LD_PRELOAD
exec "$@"
