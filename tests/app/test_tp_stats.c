/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd's pieces without a device: the statistics against values computed by hand
 * with perftest's definitions (print_report_lat, print_report_bw), the report formats against
 * perftest's column headers, and option parsing (every bad input refused with a message).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "testpmd.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

/* Post timestamps whose consecutive differences are @p d. */
static void
posts_from_deltas(const uint64_t *d, size_t nd, uint64_t *tp)
{
	size_t i;

	tp[0] = 1000;
	for (i = 0; i < nd; i++)
		tp[i + 1] = tp[i] + d[i];
}

/* Even count: 10 round trips, the two largest dropped, 8 measured, halved (ping-pong). */
static void
test_lat_even(void)
{
	static const uint64_t d[] = { 30, 10, 90, 20, 1000, 40, 60, 50, 80, 70 };
	uint64_t tp[11], scratch[10];
	struct tp_lat_result r;
	uint32_t i, sum = 0;

	posts_from_deltas(d, 10, tp);
	TEST_CHECK_EQ(tp_lat_compute(tp, 11, scratch, 1.0, 2, 64, &r), 0);
	TEST_CHECK_EQ(r.size, 64);
	TEST_CHECK_EQ(r.iters, 11);
	TEST_CHECK_EQ(r.measured, 8);
	TEST_CHECK(NEAR(r.t_min, 5.0));
	TEST_CHECK(NEAR(r.t_max, 45.0));		/* sorted[8] = 90, not the dropped 1000 */
	TEST_CHECK(NEAR(r.t_typical, 22.5));		/* (40 + 50) / 2 / 2 */
	TEST_CHECK(NEAR(r.t_avg, 22.5));		/* (10 + ... + 80) / 8 / 2 */
	TEST_CHECK(NEAR(r.t_stdev, sqrt(1050.0 / 8)));
	TEST_CHECK(NEAR(r.p99, 45.0));			/* index ceil(8 * 0.99) = 8 */
	TEST_CHECK(NEAR(r.p999, 45.0));
	for (i = 0; i < TP_HIST_BINS; i++)
		sum += r.hist[i];
	TEST_CHECK_EQ(sum, 8);
	TEST_CHECK_EQ(r.hist[0], 1);			/* 5 us: the first bin */
	TEST_CHECK(NEAR(r.hist_lo, 5.0));
	TEST_CHECK(NEAR(r.hist_width, 2.0));		/* (45 - 5) / 20 */
}

/* Odd count, RTT factor 1 (reads), ticks at 2 per microsecond. */
static void
test_lat_odd(void)
{
	static const uint64_t d[] = { 14, 6, 10, 2, 18 };
	uint64_t tp[6], scratch[5];
	struct tp_lat_result r;

	posts_from_deltas(d, 5, tp);
	TEST_CHECK_EQ(tp_lat_compute(tp, 6, scratch, 2.0, 1, 2, &r), 0);
	TEST_CHECK_EQ(r.measured, 3);			/* 5 samples - tail of 2 */
	TEST_CHECK(NEAR(r.t_min, 1.0));
	TEST_CHECK(NEAR(r.t_typical, 3.0));		/* sorted[1] = 6 ticks */
	TEST_CHECK(NEAR(r.t_max, 7.0));			/* sorted[3] = 14 ticks */
	TEST_CHECK(NEAR(r.t_avg, 3.0));
	TEST_CHECK(NEAR(r.t_stdev, sqrt(8.0 / 3)));
	TEST_CHECK(NEAR(r.p99, 7.0));			/* index ceil(3 * 0.99) = 3 */
	TEST_CHECK(r.t_min <= r.t_typical && r.t_typical <= r.p99 && r.p99 <= r.p999 &&
		   r.p999 <= r.t_max);
}

/* perftest's median of an even count is the integer mean of the two middle tick counts. */
static void
test_lat_median_truncates(void)
{
	static const uint64_t d[] = { 2, 1, 100, 100 };
	uint64_t tp[5], scratch[4];
	struct tp_lat_result r;

	posts_from_deltas(d, 4, tp);
	TEST_CHECK_EQ(tp_lat_compute(tp, 5, scratch, 1.0, 1, 2, &r), 0);
	TEST_CHECK(NEAR(r.t_typical, 1.0));		/* (1 + 2) / 2 in integers */
	TEST_CHECK(NEAR(r.t_avg, 1.5));
}

static void
test_lat_refuses(void)
{
	uint64_t tp[4] = { 0, 1, 2, 3 }, scratch[4];
	struct tp_lat_result r;

	TEST_CHECK_EQ(tp_lat_compute(tp, 3, scratch, 1.0, 2, 2, &r), -EINVAL);
	TEST_CHECK_EQ(tp_lat_compute(tp, 4, scratch, 0.0, 2, 2, &r), -EINVAL);
	TEST_CHECK_EQ(tp_lat_compute(tp, 4, scratch, 1.0, 0, 2, &r), -EINVAL);
	TEST_CHECK_EQ(tp_lat_compute(NULL, 4, scratch, 1.0, 2, 2, &r), -EINVAL);
	TEST_CHECK_EQ(tp_lat_compute(tp, 4, scratch, 1.0, 2, 2, &r), 0);
}

/* 4 writes of 1 MiB, one signaled every 2, 1 tick = 1 us. */
static void
test_bw(void)
{
	const uint64_t tp[] = { 0, 10, 20, 30 }, tc[] = { 100, 100, 110, 110 };
	const uint64_t tp3[] = { 0, 10, 20 }, tc3[] = { 40, 40, 50 };
	struct tp_bw_result r;

	TEST_CHECK_EQ(tp_bw_compute(tp, tc, 4, 1, 2, 1 << 20, 1e6, false, &r), 0);
	TEST_CHECK_EQ(r.iters, 4);
	TEST_CHECK(NEAR(r.bw_avg, 4e6 / 110));		/* 4 MiB in 110 us, MB = 2^20 */
	TEST_CHECK(NEAR(r.msg_rate, 4.0 / 110));	/* Mpps */
	/* Best window: posts 0..3 completing at 110: 110 / 4 = 27 ticks (integer). */
	TEST_CHECK(NEAR(r.bw_peak, 1e6 / 27));
	/* Post lists of 2: the windows start at 0 and 2 only (same best here). */
	TEST_CHECK_EQ(tp_bw_compute(tp, tc, 4, 2, 2, 1 << 20, 1e6, false, &r), 0);
	TEST_CHECK(NEAR(r.bw_peak, 1e6 / 27));
	/* 3 WRs, cq_mod 2: the last WR is signaled off the grid: window 0..2 = 50 / 3 = 16. */
	TEST_CHECK_EQ(tp_bw_compute(tp3, tc3, 3, 1, 2, 1 << 20, 1e6, false, &r), 0);
	TEST_CHECK(NEAR(r.bw_peak, 1e6 / 16));
	TEST_CHECK_EQ(tp_bw_compute(tp3, tc3, 3, 1, 2, 1 << 20, 1e6, true, &r), 0);
	TEST_CHECK(NEAR(r.bw_peak, 0.0));
	TEST_CHECK(NEAR(r.bw_avg, 3e6 / 50));
	TEST_CHECK_EQ(tp_bw_compute(tp, tc, 0, 1, 2, 2, 1e6, false, &r), -EINVAL);
	TEST_CHECK_EQ(tp_bw_compute(tp, tc, 4, 0, 2, 2, 1e6, false, &r), -EINVAL);
	TEST_CHECK_EQ(tp_bw_compute(tp, tc, 4, 1, 0, 2, 1e6, false, &r), -EINVAL);
}

/* Split a line into whitespace-separated fields. */
static int
fields(char *line, char **f, int max)
{
	int n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, " \t\n", &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, " \t\n", &save))
		f[n++] = tok;
	return n;
}

static char *
line_after(char *text, const char *marker)
{
	char *p = strstr(text, marker);

	if (p == NULL)
		return NULL;
	p = strchr(p, '\n');
	return p == NULL ? NULL : p + 1;
}

static void
test_report_lat(void)
{
	/* perftest's RESULT_FMT_LAT, character for character. */
	static const char hdr[] = " #bytes #iterations    t_min[usec]    t_max[usec]  "
		"t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   "
		"99.9% percentile[usec] \n";
	struct tp_lat_result r = { .size = 64, .iters = 1000, .t_min = 1.25, .t_max = 9.5,
		.t_typical = 2.5, .t_avg = 2.75, .t_stdev = 0.5, .p99 = 7.25, .p999 = 9.25,
		.measured = 997, .hist_lo = 1.25, .hist_width = 0.4125 };
	struct tp_config cfg;
	struct tp_report rep = { 0 };
	char *out = NULL, *js = NULL, *csv = NULL, *row, *f[12];
	size_t ol = 0, jl = 0, cl = 0;

	tp_config_defaults(&cfg);
	r.hist[0] = 997;
	rep.out = open_memstream(&out, &ol);
	rep.json = open_memstream(&js, &jl);
	rep.csv = open_memstream(&csv, &cl);
	rep.histogram = true;
	tp_report_header(&rep, TP_LAT, "write_lat", &cfg);
	tp_report_lat(&rep, &r);
	tp_report_footer(&rep);
	fclose(rep.out);
	fclose(rep.json);
	fclose(rep.csv);
	TEST_CHECK(strstr(out, hdr) != NULL);
	TEST_CHECK(strstr(out, "RDMA_Write Latency Test") != NULL);
	TEST_CHECK(strstr(out, "histogram of 997 samples") != NULL);
	row = line_after(out, "99.9% percentile[usec]");
	TEST_CHECK(row != NULL);
	if (row != NULL) {
		TEST_CHECK_EQ(fields(row, f, 12), 12);	/* the row's 9 + the histogram's first */
		TEST_CHECK(strcmp(f[0], "64") == 0 && strcmp(f[1], "1000") == 0);
		TEST_CHECK(strcmp(f[2], "1.25") == 0 && strcmp(f[3], "9.50") == 0);
		TEST_CHECK(strcmp(f[4], "2.50") == 0 && strcmp(f[5], "2.75") == 0);
		TEST_CHECK(strcmp(f[6], "0.50") == 0 && strcmp(f[7], "7.25") == 0);
		TEST_CHECK(strcmp(f[8], "9.25") == 0);
	}
	TEST_CHECK(strstr(js, "\"t_typical\": 2.500") != NULL);
	TEST_CHECK(strstr(js, "\"counts\": [997, 0,") != NULL);
	TEST_CHECK(strstr(js, "\"results\": [") != NULL && strstr(js, "]\n}\n") != NULL);
	TEST_CHECK(strstr(csv, "write_lat,64,1000,1.250,9.500,2.500,2.750,0.500,7.250,9.250\n")
		   != NULL);
	free(out);
	free(js);
	free(csv);
}

static void
test_report_bw(void)
{
	static const char hdr[] = " #bytes     #iterations    BW peak[MB/sec]    "
		"BW average[MB/sec]   MsgRate[Mpps]\n";
	struct tp_bw_result r = { .size = 4096, .iters = 5000, .bw_peak = 1234.5678,
		.bw_avg = 1000.004, .msg_rate = 0.256001 };
	struct tp_config cfg;
	struct tp_report rep = { 0 };
	char *out = NULL, *row, *f[8];
	size_t ol = 0;

	tp_config_defaults(&cfg);
	rep.out = open_memstream(&out, &ol);
	tp_report_header(&rep, TP_BW, "write_bw", &cfg);
	tp_report_bw(&rep, &r);
	fclose(rep.out);
	TEST_CHECK(strstr(out, hdr) != NULL);
	TEST_CHECK(strstr(out, "RDMA_Write BW Test") != NULL);
	row = line_after(out, "MsgRate[Mpps]");
	TEST_CHECK(row != NULL);
	if (row != NULL) {
		TEST_CHECK_EQ(fields(row, f, 8), 5);
		TEST_CHECK(strcmp(f[0], "4096") == 0 && strcmp(f[1], "5000") == 0);
		TEST_CHECK(strcmp(f[2], "1234.57") == 0 && strcmp(f[3], "1000.00") == 0);
		TEST_CHECK(strcmp(f[4], "0.256001") == 0);
	}
	free(out);
}

/* Parse an argument list; returns the result and leaves the error text in *msg. */
static int
parse(struct tp_config *cfg, char **msg, int argc, const char **argv)
{
	static char buf[512];
	FILE *err = fmemopen(buf, sizeof(buf), "w");
	int rc;

	memset(buf, 0, sizeof(buf));
	tp_config_defaults(cfg);
	rc = tp_parse_args(cfg, argc, (char **)(uintptr_t)argv, err);
	fclose(err);
	*msg = buf;
	return rc;
}

#define PARSE(cfg, msg, ...) ({							\
	const char *av_[] = { "rdma-testpmd", __VA_ARGS__, NULL };		\
	parse(cfg, msg, (int)RTE_DIM(av_) - 1, av_);				\
})

static void
test_options(void)
{
	struct tp_config c;
	char *m;

	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "send_bw", "-s", "4K", "-q", "4", "-t", "64", "-Q",
			    "16", "-l", "8", "-I", "64", "-m", "4096", "--json", "-"), 0);
	TEST_CHECK(strcmp(c.test, "send_bw") == 0);
	TEST_CHECK_EQ(c.size, 4096);
	TEST_CHECK_EQ(c.qps, 4);
	TEST_CHECK_EQ(c.tx_depth, 64);
	TEST_CHECK_EQ(c.cq_mod, 16);
	TEST_CHECK_EQ(c.post_list, 8);
	TEST_CHECK_EQ(c.inline_size, 64);
	TEST_CHECK_EQ(c.mtu, RDMADEV_MTU_4096);
	TEST_CHECK(strcmp(c.json_path, "-") == 0);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "10.0.0.2:7000", "-n", "50"), 0);
	TEST_CHECK_EQ(c.mode, TP_MODE_CLIENT);
	TEST_CHECK(strcmp(c.peer, "10.0.0.2") == 0);
	TEST_CHECK_EQ(c.port, 7000);
	TEST_CHECK_EQ(PARSE(&c, &m, "-a", "--size-max", "4K"), 0);
	TEST_CHECK(c.sweep && c.size_min == 2 && c.size_max == 4096);
	TEST_CHECK_EQ(PARSE(&c, &m, "-a", "-s", "64"), 0);
	TEST_CHECK(c.sweep);				/* -a wins over -s */

	TEST_CHECK_EQ(PARSE(&c, &m, "--bogus"), -EINVAL);
	TEST_CHECK(strstr(m, "unknown option '--bogus'") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "0"), -EINVAL);
	TEST_CHECK(strstr(m, "size: bad value '0'") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "9M"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "12x"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "ping"), -EINVAL);
	TEST_CHECK(strstr(m, "test: bad value 'ping'") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-n", "3"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-m", "1500"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-c", "UC"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_lat", "-q", "2"), -EINVAL);
	TEST_CHECK(strstr(m, "latency tests use one QP") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-c", "UD"), -EINVAL);
	TEST_CHECK(strstr(m, "needs RC") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "send_lat", "-c", "UD", "-s", "2048"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-t", "10", "-l", "20"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-t", "10", "-Q", "20"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-a", "--size-min", "3"), -EINVAL);
	TEST_CHECK(strstr(m, "powers of two") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--server", "-D", "2"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "h:0"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "h:70000"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--dev", "a", "--dev", "b", "--dev", "c"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-n"), -EINVAL);
	TEST_CHECK(strstr(m, "needs a value") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "stray"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--lcores", "0,x"), -EINVAL);
}

static void
test_knobs(void)
{
	struct tp_config c;
	char buf[256];
	FILE *err = fmemopen(buf, sizeof(buf), "w");

	tp_config_defaults(&c);
	c.sweep = true;
	TEST_CHECK_EQ(tp_knob_set(&c, "size", "1M", err), 0);
	TEST_CHECK(c.size == (1u << 20) && !c.sweep);	/* a size alone ends the sweep */
	TEST_CHECK_EQ(tp_knob_set(&c, "histogram", "on", err), 0);
	TEST_CHECK(c.histogram);
	TEST_CHECK_EQ(tp_knob_set(&c, "conn", "ud", err), 0);
	TEST_CHECK_EQ(c.conn, RDMADEV_QPT_UD);
	TEST_CHECK_EQ(tp_knob_set(&c, "lcores", "0,1", err), 0);
	TEST_CHECK(c.lcore_client == 0 && c.lcore_server == 1);
	TEST_CHECK_EQ(tp_knob_set(&c, "model_mode", "thread", err), 0);
	TEST_CHECK_EQ(tp_knob_set(&c, "model_mode", "fast", err), -EINVAL);
	TEST_CHECK_EQ(tp_knob_set(&c, "nosuch", "1", err), -ENOENT);
	TEST_CHECK_EQ(tp_knob_set(&c, "histogram", "maybe", err), -EINVAL);
	TEST_CHECK_EQ(tp_knob_set(&c, "qps", "17", err), -EINVAL);
	fclose(err);
}

int
main(void)
{
	TEST_RUN(test_lat_even);
	TEST_RUN(test_lat_odd);
	TEST_RUN(test_lat_median_truncates);
	TEST_RUN(test_lat_refuses);
	TEST_RUN(test_bw);
	TEST_RUN(test_report_lat);
	TEST_RUN(test_report_bw);
	TEST_RUN(test_options);
	TEST_RUN(test_knobs);
	return test_done();
}
