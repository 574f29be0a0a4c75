/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#include "stress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
stress_parse(int argc, char **argv, struct stress_args *args)
{
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		char *end;
		unsigned long long v = strtoull(argv[i + 1], &end, 0);

		if (*end != '\0' || v == 0) {
			fprintf(stderr, "bad value '%s' for %s\n", argv[i + 1], argv[i]);
			return -1;
		}
		if (strcmp(argv[i], "--ops") == 0) {
			args->ops = v;
		} else if (strcmp(argv[i], "--threads") == 0) {
			args->threads = (unsigned int)v;
		} else if (strcmp(argv[i], "--seed") == 0) {
			args->seed = v;
		} else {
			fprintf(stderr, "unknown option %s (--ops N --threads N --seed N)\n",
				argv[i]);
			return -1;
		}
	}
	if (i < argc) {
		fprintf(stderr, "option %s needs a value\n", argv[i]);
		return -1;
	}
	return 0;
}

int
stress_run_threads(unsigned int n, void *(*fn)(void *), void *args, size_t stride)
{
	pthread_t *tid = calloc(n, sizeof(*tid));
	unsigned int i, started = 0;
	int ret = 0;

	if (tid == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid[i], NULL, fn, (char *)args + i * stride) != 0) {
			ret = -1;
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return ret;
}
