/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_FUZZ_H
#define IRDMA_FUZZ_H

/*
 * What a fuzz target provides (fuzz_setup / fuzz_teardown / LLVMFuzzerTestOneInput) and
 * what fuzz_common.c gives it. The same target links with libFuzzer (clang, meson option
 * fuzz) or with fuzz_main.c, which replays a corpus and deterministic mutations of it.
 */

#include <stddef.h>
#include <stdint.h>

/* The target's one-time set-up (EAL, device); 0 or -1. */
int fuzz_setup(void);
/* Its teardown at exit: leaks are failures (fuzz_fail). */
void fuzz_teardown(void);
/* One input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* rte_eal_init for a fuzz process: no hugepages, no PCI, quiet logs, its own prefix. */
int fuzz_eal_init(const char *prog);
/* fuzz_setup() the first time (and fuzz_teardown() registered at exit); its result. */
int fuzz_setup_once(void);
/* Report a failure found outside an input (a leak at teardown): print, exit 1 at the end. */
void fuzz_fail(const char *what);

#endif /* IRDMA_FUZZ_H */
