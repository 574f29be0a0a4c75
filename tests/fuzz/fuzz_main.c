/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * A fuzz target without libFuzzer: replays every file given (or every file of a folder
 * given), then @p N deterministic mutations of each (bytes flipped, cut short, a MAD-sized
 * block repeated), so that a gcc build runs the corpus and some garbage in the unit suite.
 *   fuzz_<target> [-n N] <file or folder>...
 * Prints TAP: one line per corpus file, a crash is the test's failure.
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static size_t
load(const char *path, uint8_t *buf)
{
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (fp == NULL)
		return SIZE_MAX;
	n = fread(buf, 1, FUZZ_MAX_INPUT, fp);
	fclose(fp);
	return n;
}

static unsigned int tests;

static void
one(const char *path, unsigned int mutations)
{
	static uint8_t in[FUZZ_MAX_INPUT], m[2 * FUZZ_MAX_INPUT];
	size_t n = load(path, in), len, i, k;

	if (n == SIZE_MAX) {
		printf("not ok %u - cannot read %s\n", ++tests, path);
		return;
	}
	LLVMFuzzerTestOneInput(in, n);
	for (i = 0; i < mutations; i++) {
		memcpy(m, in, n);
		len = n;
		switch (next() % 4) {
		case 0:		/* flip up to 8 bytes */
			for (k = next() % 8 + 1; k > 0 && len > 0; k--)
				m[next() % len] ^= (uint8_t)(next() | 1);
			break;
		case 1:		/* cut short */
			len = len > 0 ? next() % len : 0;
			break;
		case 2:		/* the input twice: every MAD replayed */
			memcpy(m + len, in, n);
			len += n;
			break;
		default:	/* one field-sized run of random bytes */
			if (len > 0) {
				size_t at = next() % len;

				for (k = 0; k < 8 && at + k < len; k++)
					m[at + k] = (uint8_t)next();
			}
			break;
		}
		LLVMFuzzerTestOneInput(m, len);
	}
	printf("ok %u - %s and %u mutations\n", ++tests, path, mutations);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	unsigned int mutations = 0;
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		mutations = (unsigned int)strtoul(argv[2], NULL, 0);
		i = 3;
	}
	if (fuzz_setup_once() != 0) {
		printf("Bail out! set-up failed\n");
		return 1;
	}
	for (; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		char path[4096];

		if (d == NULL) {
			one(argv[i], mutations);
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			one(path, mutations);
		}
		closedir(d);
	}
	printf("1..%u\n", tests);
	return 0;
}
