/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef TEST_MODEL_GID_H
#define TEST_MODEL_GID_H

/*
 * GIDs of the model's codec and wire tests, written the test's own way rather than with
 * the model's helpers.
 */

#include <stdint.h>
#include <string.h>

/* @p g = ::ffff:a.b.c.d, the IPv4-mapped GID a RoCEv2 frame over IPv4 carries. */
static inline void
gid_v4(uint8_t g[16], uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(g, 0, 16);
	g[10] = g[11] = 0xff;
	g[12] = a;
	g[13] = b;
	g[14] = c;
	g[15] = d;
}

#endif /* TEST_MODEL_GID_H */
