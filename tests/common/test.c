/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#include "test.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>

int test_case_failures;
static int test_count;
static int test_failed;
static int test_huge;
static unsigned int watchdog_seconds;
static const char *volatile current_case;

/* SIGALRM: a case ran past the watchdog. Only async-signal-safe calls. */
static void
watchdog_fired(int sig)
{
	static const char head[] = "Bail out! watchdog: case ";
	static const char tail[] = " hung\n";
	const char *name = current_case;

	(void)sig;
	if (write(STDOUT_FILENO, head, sizeof(head) - 1) < 0 ||
	    (name != NULL && write(STDOUT_FILENO, name, strlen(name)) < 0) ||
	    write(STDOUT_FILENO, tail, sizeof(tail) - 1) < 0)
		_exit(2);
	_exit(1);
}

void
test_set_watchdog(unsigned int seconds)
{
	watchdog_seconds = seconds;
	signal(SIGALRM, watchdog_fired);
}

void
test_sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int
test_wait_count(const uint32_t *n, uint32_t want, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() * ms / 1000;

	while (__atomic_load_n(n, __ATOMIC_ACQUIRE) < want) {
		if (rte_get_timer_cycles() > end)
			return 0;
		sched_yield();
	}
	return 1;
}

void
test_run(const char *name, void (*fn)(void))
{
	test_case_failures = 0;
	current_case = name;
	if (watchdog_seconds)
		alarm(watchdog_seconds);
	fn();
	if (watchdog_seconds)
		alarm(0);
	test_count++;
	if (test_case_failures) {
		test_failed++;
		printf("not ok %d - %s (%d failed checks)\n", test_count, name, test_case_failures);
	} else {
		printf("ok %d - %s\n", test_count, name);
	}
	fflush(stdout);
}

int
test_done(void)
{
	printf("1..%d\n", test_count);
	if (test_failed)
		printf("# %d of %d cases failed\n", test_failed, test_count);
	fflush(stdout);
	return test_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Free 2 MB hugepages and a mounted hugetlbfs, enough for a test's 256 MB. */
static int
hugepages_usable(void)
{
	const char *env = getenv("IRDMA_TEST_NO_HUGE");
	char line[256];
	long free_pages = 0;
	int mounted = 0;
	FILE *f;

	if (env != NULL && env[0] != '\0' && strcmp(env, "0") != 0)
		return 0;
	f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &free_pages) == 1)
			break;
	fclose(f);
	f = fopen("/proc/mounts", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, " hugetlbfs ") != NULL)
			mounted = 1;
	fclose(f);
	return mounted && free_pages >= 128;
}

int
test_eal_bail(void)
{
	printf("Bail out! EAL init failed\n");
	return 1;
}

int
test_eal_init(const char *prog, const char *const *extra_args)
{
	static char prefix[64];
	const char *argv[32];
	int argc = 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=%s-%d", prog, (int)getpid());
	argv[argc++] = prog;
	argv[argc++] = prefix;
	argv[argc++] = "--no-pci";
	argv[argc++] = "--log-level=lib.eal:error";
	argv[argc++] = "-l";
	argv[argc++] = "0-1";
	test_huge = hugepages_usable();
	if (test_huge) {
		argv[argc++] = "-m";
		argv[argc++] = "256";
		/* The page files go with the process, however it ends (a timeout's kill, an
		 * abort): kept files would hold their pages from the tests after this one. */
		argv[argc++] = "--huge-unlink";
	} else {
		argv[argc++] = "--no-huge";
		argv[argc++] = "-m";
		argv[argc++] = "512";
	}
	while (extra_args != NULL && *extra_args != NULL && argc < 31)
		argv[argc++] = *extra_args++;
	/* IRDMA_TEST_EAL_ARGS: more EAL arguments for every test process, space-separated,
	 * e.g. "--huge-dir /dev/hugepages-1G" to run on 1 GB pages. */
	if (getenv("IRDMA_TEST_EAL_ARGS") != NULL) {
		static char env_args[512];
		char *save = NULL, *tok;

		snprintf(env_args, sizeof(env_args), "%s", getenv("IRDMA_TEST_EAL_ARGS"));
		for (tok = strtok_r(env_args, " ", &save); tok != NULL && argc < 31;
		     tok = strtok_r(NULL, " ", &save)) {
			/* A test that runs on --no-huge (its own choice) takes no hugepage option. */
			if (!test_huge && strcmp(tok, "--huge-dir") == 0) {
				tok = strtok_r(NULL, " ", &save);
				continue;
			}
			if (!test_huge && strncmp(tok, "--huge-", 7) == 0)
				continue;
			argv[argc++] = tok;
		}
	}
	argv[argc] = NULL;
	printf("# EAL: %s\n", test_huge ? "2 MB hugepages" : "--no-huge (4 KB pages)");
	return rte_eal_init(argc, (char **)(uintptr_t)argv);
}

int
test_eal_uses_hugepages(void)
{
	return test_huge;
}
