/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef IRDMA_TEST_VARIANT_H
#define IRDMA_TEST_VARIANT_H

/*
 * The variant of a test program that runs on the device model: the model's mode, "inline"
 * (nothing runs on its own: deterministic) or "thread" (the model's own thread). One binary
 * runs either; meson runs it once per variant with IRDMA_TEST_VARIANT=inline or =thread in
 * its environment (test names <name>_inline and <name>_thread). Without the variable the
 * variant is "inline"; any other value stops the program with a TAP "Bail out!".
 *
 * Header only; needs nothing but the model's public header (irdma_model.h), so programs
 * that drive the model without the PMD use it too. test_fixture.h builds on it.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irdma_model.h"
#include "test.h"

/** The variant this run was asked for: "inline" or "thread" (IRDMA_TEST_VARIANT). */
static inline const char *
test_variant(void)
{
	const char *v = getenv("IRDMA_TEST_VARIANT");

	if (v == NULL || v[0] == '\0' || strcmp(v, "inline") == 0)
		return "inline";
	if (strcmp(v, "thread") == 0)
		return "thread";
	printf("Bail out! IRDMA_TEST_VARIANT=%s: not inline or thread\n", v);
	exit(1);
}

/** Whether the variant is the model's thread mode. */
static inline bool
test_variant_thread(void)
{
	return strcmp(test_variant(), "thread") == 0;
}

/** The model mode of the variant, for tests that create a model directly. */
static inline enum irdma_model_mode
test_variant_model_mode(void)
{
	return test_variant_thread() ? IRDMA_MODEL_MODE_THREAD : IRDMA_MODEL_MODE_INLINE;
}

/**
 * @p devargs with ",mode=<variant>" appended, in one of four static buffers used in turn
 * (so that two results may be live at once); @p devargs itself when it names a mode already
 * (a case that needs one model mode whatever the variant). Longer devargs stop the program.
 */
static inline const char *
test_variant_devargs(const char *devargs)
{
	static char bufs[4][256];
	static unsigned int next;
	char *b = bufs[next++ % 4];

	if (strstr(devargs, ",mode=") != NULL)
		return devargs;
	if ((size_t)snprintf(b, sizeof(bufs[0]), "%s,mode=%s", devargs, test_variant()) >=
	    sizeof(bufs[0])) {
		printf("Bail out! devargs too long: %s\n", devargs);
		exit(1);
	}
	return b;
}

/**
 * test_eal_init() under @p prog with the variant appended ("<prog>_<variant>": one EAL
 * file prefix per variant), and the variant printed as a TAP comment.
 */
static inline int
test_variant_eal_init(const char *prog)
{
	char name[128];

	snprintf(name, sizeof(name), "%s_%s", prog, test_variant());
	printf("# model mode: %s\n", test_variant());
	return test_eal_init(name, NULL);
}

#endif /* IRDMA_TEST_VARIANT_H */
