/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd: perftest's RDMA latency and bandwidth tests on rdmadev, and a testpmd-style
 * prompt to look inside the device.
 *
 *   rdma-testpmd [EAL options] -- [options]          (rdma-testpmd -- --help)
 *
 * Without -i or --cmdline-file it runs the configured test (every size of a sweep), prints
 * perftest's tables, tears everything down and exits 0 on success, non-zero on any failure.
 */

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "testpmd.h"

static struct tp_ctx tp_main_ctx;

static void
tp_on_signal(int sig)
{
	RTE_SET_USED(sig);
	tp_main_ctx.stop = true;
}

static int
tp_finish(struct tp_ctx *t, int rc)
{
	int leaks, trc;

	trc = tp_teardown(t);
	if (trc < 0) {
		fprintf(stderr, "rdma-testpmd: teardown: %s\n", strerror(-trc));
		rc = rc < 0 ? rc : trc;
	}
	leaks = tp_devices_close(t);
	if (leaks < 0) {
		fprintf(stderr, "rdma-testpmd: closing the devices: %s\n", strerror(-leaks));
		rc = rc < 0 ? rc : leaks;
	} else if (leaks > 0) {
		fprintf(stderr, "rdma-testpmd: teardown: %d leaked objects\n", leaks);
		rc = rc < 0 ? rc : -EBUSY;
	} else if (t->cfg.verbose) {
		fprintf(t->out, "rdma-testpmd: teardown: every object destroyed, 0 leaked objects\n");
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct tp_ctx *t = &tp_main_ctx;
	int n, rc, werr;

	n = rte_eal_init(argc, argv);
	if (n < 0) {
		fprintf(stderr, "rdma-testpmd: EAL initialisation failed (EAL options come first, "
			"then -- and the application's)\n");
		return 1;
	}
	argc -= n;
	argv += n;
	argv[0] = (char *)(uintptr_t)"rdma-testpmd";
	t->out = stdout;
	tp_config_defaults(&t->cfg);
	rc = tp_parse_args(&t->cfg, argc, argv, stderr);
	if (rc != 0) {
		rte_eal_cleanup();
		return rc > 0 ? 0 : 2;
	}
	signal(SIGINT, tp_on_signal);
	signal(SIGTERM, tp_on_signal);
	signal(SIGPIPE, SIG_IGN);

	rc = tp_devices_open(t);
	if (rc == 0 && (t->cfg.interactive || t->cfg.cmdline_file[0] != '\0')) {
		/* The objects exist from the start so `show` and `dump` have something to show. */
		rc = tp_setup(t);
		if (rc == 0)
			rc = tp_cmdline_run(t);
	} else if (rc == 0) {
		rc = tp_run_test(t);
	}
	rc = tp_finish(t, rc);
	/* The tables are output too: a write error on stdout (a full disk) fails the run. */
	werr = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
	if (werr != 0 && rc == 0) {
		fprintf(stderr, "rdma-testpmd: writing the output: %s\n", strerror(werr));
		rc = -EIO;
	}
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
