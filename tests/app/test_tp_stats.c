/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd's pieces without a device: the statistics against values computed by hand
 * with perftest's definitions (print_report_lat, print_report_bw), the report formats against
 * perftest's column headers, and option parsing (every bad input refused with a message).
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "testpmd.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

static int fields(char *line, char **f, int max);

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
	TEST_CHECK(NEAR(r.kept_max, 40.0));		/* sorted[7] = 80: the kept ones only */
	TEST_CHECK(NEAR(r.hist_width, 1.75));		/* (40 - 5) / 20 */
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

/*
 * A known sample set through the whole latency report, every column checked against values
 * worked out by hand with perftest's print_report_lat: 999 round trips (1000 posts), sorted
 * 100, 155 x 986, 200, 210, 250 x 7, 300 | dropped 1000000, 2000000 ticks; 1 tick per us,
 * ping-pong (halved). count = 997 kept.
 */
static void
test_lat_known_set(void)
{
	static uint64_t d[999], tp[1000], scratch[999];
	struct tp_report rep = { 0 };
	struct tp_lat_result r;
	struct tp_config cfg;
	char *out = NULL, *row, *f[16];
	double avg, var = 0;
	size_t ol = 0, i, k = 0;

	d[k++] = 100;
	for (i = 0; i < 986; i++)
		d[k++] = 155;
	d[k++] = 200;
	d[k++] = 210;
	for (i = 0; i < 7; i++)
		d[k++] = 250;
	d[k++] = 300;
	d[k++] = 2000000;	/* out of order: the computation sorts */
	d[k++] = 1000000;
	TEST_CHECK_EQ(k, 999);
	/* Shuffle a little so the sort matters: swap the ends. */
	d[0] = 300;
	d[996] = 100;
	posts_from_deltas(d, 999, tp);
	TEST_CHECK_EQ(tp_lat_compute(tp, 1000, scratch, 1.0, 2, 8, &r), 0);
	TEST_CHECK_EQ(r.measured, 997);
	TEST_CHECK(NEAR(r.t_min, 50.0));		/* sorted[0] / 2 */
	TEST_CHECK(NEAR(r.t_max, 500000.0));		/* perftest: sorted[997], a dropped one */
	TEST_CHECK(NEAR(r.kept_max, 150.0));		/* sorted[996] / 2 */
	TEST_CHECK(NEAR(r.t_typical, 77.5));		/* odd count: sorted[498] / 2 */
	avg = (100 + 155.0 * 986 + 200 + 210 + 250 * 7 + 300) / 997 / 2;
	TEST_CHECK(NEAR(r.t_avg, avg));
	var = (50 - avg) * (50 - avg) + 986 * (77.5 - avg) * (77.5 - avg) +
	      (100 - avg) * (100 - avg) + (105 - avg) * (105 - avg) +
	      7 * (125 - avg) * (125 - avg) + (150 - avg) * (150 - avg);
	TEST_CHECK(NEAR(r.t_stdev, sqrt(var / 997)));
	TEST_CHECK(NEAR(r.p99, 105.0));			/* sorted[ceil(987.03) = 988] / 2 */
	TEST_CHECK(NEAR(r.p999, 500000.0));		/* sorted[ceil(996.003) = 997] / 2 */
	/* The histogram: the kept samples only, 50 .. 150 in 20 bins of 5. */
	TEST_CHECK(NEAR(r.hist_lo, 50.0));
	TEST_CHECK(NEAR(r.hist_width, 5.0));
	TEST_CHECK_EQ(r.hist[0], 1);			/* 50 */
	TEST_CHECK_EQ(r.hist[5], 986);			/* 77.5 */
	TEST_CHECK_EQ(r.hist[10], 1);			/* 100 */
	TEST_CHECK_EQ(r.hist[11], 1);			/* 105 */
	TEST_CHECK_EQ(r.hist[15], 7);			/* 125 */
	TEST_CHECK_EQ(r.hist[19], 1);			/* 150, the upper edge */
	for (i = 0, k = 0; i < TP_HIST_BINS; i++)
		k += r.hist[i];
	TEST_CHECK_EQ(k, 997);
	/* The printed row: every column. */
	tp_config_defaults(&cfg);
	rep.out = open_memstream(&out, &ol);
	rep.histogram = true;
	tp_report_header(&rep, TP_LAT, "write_lat", &cfg);
	tp_report_lat(&rep, &r);
	fclose(rep.out);
	row = strstr(out, "99.9% percentile[usec]");
	row = row != NULL ? strchr(row, '\n') : NULL;
	TEST_CHECK(row != NULL);
	if (row != NULL) {
		TEST_CHECK(fields(row + 1, f, 9) == 9);
		TEST_CHECK(strcmp(f[0], "8") == 0 && strcmp(f[1], "1000") == 0);
		TEST_CHECK(strcmp(f[2], "50.00") == 0 && strcmp(f[3], "500000.00") == 0);
		TEST_CHECK(strcmp(f[4], "77.50") == 0);
		TEST_CHECK(fabs(atof(f[5]) - avg) < 0.005);
		TEST_CHECK(fabs(atof(f[6]) - sqrt(var / 997)) < 0.005);
		TEST_CHECK(strcmp(f[7], "105.00") == 0 && strcmp(f[8], "500000.00") == 0);
	}
	free(out);
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
	TEST_CHECK_EQ(PARSE(&c, &m, "--tp-cores", "0,x"), -EINVAL);
	/* The EAL's option name is not ours (before "--" EAL would take it). */
	TEST_CHECK_EQ(PARSE(&c, &m, "--lcores", "0,1"), -EINVAL);
	TEST_CHECK(strstr(m, "unknown option '--lcores'") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--tp-cores", "0,1"), 0);
	TEST_CHECK(c.lcore_client == 0 && c.lcore_server == 1);
	/* One process is one side. */
	TEST_CHECK_EQ(PARSE(&c, &m, "--server", "--client", "127.0.0.1"), -EINVAL);
	TEST_CHECK(strstr(m, "--server and --client exclude each other") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "127.0.0.1", "--server"), -EINVAL);
	TEST_CHECK(strstr(m, "--server and --client exclude each other") != NULL);
}

/* Numbers that wrap: suffixes beyond 64 bits, signs strtoull would accept, blanks. */
static void
test_numbers(void)
{
	static const char *const bad_size[] = {
		"18014398509481985K",	/* (2^54 + 1) << 10 wraps to 1024 */
		"17592186044417M",	/* (2^44 + 1) << 20 wraps to 1 MiB */
		"18446744073709551616",	/* 2^64 */
		"99999999999999999999K", " 2", "+2", "-2", " -18446744073709551614", "2 ",
		"0x", "2KK", "K", "",
	};
	struct tp_config c;
	char buf[512];
	size_t i;
	FILE *err;
	char *m;

	for (i = 0; i < RTE_DIM(bad_size); i++) {
		tp_config_defaults(&c);
		memset(buf, 0, sizeof(buf));
		err = fmemopen(buf, sizeof(buf), "w");
		TEST_CHECK_EQ(tp_knob_set(&c, "size", bad_size[i], err), -EINVAL);
		fclose(err);
		TEST_CHECK_EQ(c.size, 2);			/* untouched */
		TEST_CHECK(strstr(buf, "size: bad value") != NULL);
		if (test_case_failures)
			printf("# '%s': %s", bad_size[i], buf);
	}
	/* The wrapping ones say so. */
	memset(buf, 0, sizeof(buf));
	err = fmemopen(buf, sizeof(buf), "w");
	TEST_CHECK_EQ(tp_knob_set(&c, "size", "17592186044417M", err), -EINVAL);
	fclose(err);
	TEST_CHECK(strstr(buf, "out of range (1 .. 8388608 bytes)") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "18014398509481985K"), -EINVAL);
	TEST_CHECK(strstr(m, "out of range") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-n", " -18446744073709551612"), -EINVAL);	/* was 4 */
	TEST_CHECK_EQ(PARSE(&c, &m, "-n", "4294967297"), -EINVAL);	/* 2^32 + 1 */
	TEST_CHECK_EQ(PARSE(&c, &m, "-q", "18446744073709551617"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-p", "65537"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "h:18446744073709551617"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--client", "h: 80"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "--tp-cores", "0,18446744073709551617"), -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-m", "18446744073709552640"), -EINVAL);
	/* What is valid stays valid. */
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "8M"), 0);
	TEST_CHECK_EQ(c.size, 8u << 20);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "0x100"), 0);
	TEST_CHECK_EQ(c.size, 256);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "010"), 0);		/* decimal, not octal */
	TEST_CHECK_EQ(c.size, 10);
	TEST_CHECK_EQ(PARSE(&c, &m, "-s", "4k"), 0);
	TEST_CHECK_EQ(c.size, 4096);
}

/*
 * Post lists: perftest's CQ moderation (the post list when -Q is not given) and the window
 * rule: with every signaled WR completed, (posted mod cq_mod) unsignaled WRs are outstanding,
 * up to cq_mod - gcd(post_list, cq_mod); a list must still fit in tx_depth then.
 */
static void
test_post_lists(void)
{
	uint32_t tx, pl, cqm;
	struct tp_config c;
	char *m;

	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "64"), 0);
	TEST_CHECK_EQ(tp_cq_mod(&c), 64);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "33"), 0);
	TEST_CHECK_EQ(tp_cq_mod(&c), 33);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "send_bw", "-l", "33"), 0);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "read_bw", "-l", "128"), 0);	/* one list, one CQE */
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "64", "-Q", "64"), 0);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "4", "-Q", "8", "-t", "64"), 0);
	TEST_CHECK_EQ(tp_cq_mod(&c), 8);
	/* 100 - gcd(64, 100) + 64 = 160 > 128: it would stall; 160 is enough. */
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "64", "-Q", "100"), -EINVAL);
	TEST_CHECK(strstr(m, "post_list 64 with cq_mod 100 needs tx_depth >= 160") != NULL);
	TEST_CHECK(strstr(m, "tx_depth is 128") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "64", "-Q", "100", "-t", "160"), 0);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "33", "-Q", "100"), -EINVAL);
	TEST_CHECK(strstr(m, "needs tx_depth >= 132") != NULL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "33", "-Q", "100", "-t", "131"),
		      -EINVAL);
	TEST_CHECK_EQ(PARSE(&c, &m, "-e", "write_bw", "-l", "33", "-Q", "100", "-t", "132"), 0);
	/* The order does not matter; `set` counts as given. */
	TEST_CHECK_EQ(PARSE(&c, &m, "-Q", "100", "-e", "send_bw", "-l", "64"), -EINVAL);
	tp_config_defaults(&c);
	TEST_CHECK_EQ(tp_knob_set(&c, "post_list", "16", stderr), 0);
	TEST_CHECK_EQ(tp_cq_mod(&c), 16);
	TEST_CHECK_EQ(tp_knob_set(&c, "cq_mod", "100", stderr), 0);
	TEST_CHECK_EQ(tp_cq_mod(&c), 100);
	/* Latency tests run one signaled WR at a time whatever the knobs say. */
	tp_config_effective(&c, TP_LAT, &tx, &pl, &cqm);
	TEST_CHECK(tx == 1 && pl == 1 && cqm == 1);
	tp_config_effective(&c, TP_BW, &tx, &pl, &cqm);
	TEST_CHECK(tx == 128 && pl == 16 && cqm == 100);
}

/* An integer after "KEY: " (the table) or "\"KEY\": " (the JSON) in @p text, or -1. */
static long
value_after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p == NULL ? -1 : strtol(p + strlen(key), NULL, 10);
}

/* The JSON's run parameters are the table's (the values the run uses). */
static void
check_effective(enum tp_kind kind, const char *test, const char *knob, const char *value,
		long tx, long pl, long cqm)
{
	struct tp_report rep = { 0 };
	struct tp_config cfg;
	char *out = NULL, *js = NULL;
	size_t ol = 0, jl = 0;

	tp_config_defaults(&cfg);
	if (knob != NULL)
		TEST_CHECK_EQ(tp_knob_set(&cfg, knob, value, stderr), 0);
	rep.out = open_memstream(&out, &ol);
	rep.json = open_memstream(&js, &jl);
	tp_report_header(&rep, kind, test, &cfg);
	tp_report_footer(&rep);
	fclose(rep.out);
	fclose(rep.json);
	TEST_CHECK_EQ(value_after(out, "TX depth        : "), tx);
	TEST_CHECK_EQ(value_after(out, "Post List       : "), pl);
	TEST_CHECK_EQ(value_after(out, "CQ Moderation  : "), cqm);
	TEST_CHECK_EQ(value_after(js, "\"tx_depth\": "), tx);
	TEST_CHECK_EQ(value_after(js, "\"post_list\": "), pl);
	TEST_CHECK_EQ(value_after(js, "\"cq_mod\": "), cqm);
	TEST_CHECK_EQ(value_after(js, "\"qps\": "), value_after(out, "Number of qps   : "));
	TEST_CHECK_EQ(value_after(js, "\"mtu\": "), value_after(out, "Mtu            : "));
	TEST_CHECK_EQ(value_after(js, "\"inline\": "), value_after(out, "Max inline data : "));
	if (test_case_failures)
		printf("%s%s", out, js);
	free(out);
	free(js);
}

static void
test_report_effective(void)
{
	check_effective(TP_LAT, "write_lat", NULL, NULL, 1, 1, 1);
	check_effective(TP_LAT, "send_lat", "post_list", "8", 1, 1, 1);
	check_effective(TP_BW, "write_bw", NULL, NULL, 128, 1, 100);
	check_effective(TP_BW, "write_bw", "post_list", "8", 128, 8, 8);
	check_effective(TP_BW, "send_bw", "cq_mod", "16", 128, 1, 16);
}

/* tp_opts_compare() of @p a against @p p, its lines in @p buf. */
static int
opts_diff(const struct tp_config *a, const struct rdmadev_cm_param *p, char *buf, size_t len)
{
	FILE *err;
	int rc;

	memset(buf, 0, len);
	err = fmemopen(buf, len, "w");
	rc = tp_opts_compare(a, p, err);
	fclose(err);
	return rc;
}

/* Two-process runs: the options message names every option that differs. */
static void
test_opts_exchange(void)
{
	struct rdmadev_cm_param p;
	struct tp_config a, b;
	char buf[1024];

	tp_config_defaults(&a);
	tp_config_defaults(&b);
	tp_opts_pack(&b, &p);
	TEST_CHECK_EQ(p.qpn, TP_OPTS_TAG);
	TEST_CHECK_EQ(tp_opts_compare(&a, &p, stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "test", "write_bw", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "qps", "2", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "iters", "500", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "size", "64", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "mtu", "4096", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "conn", "UD", stderr), 0);
	TEST_CHECK_EQ(tp_knob_set(&b, "tx_depth", "64", stderr), 0);	/* local: not compared */
	tp_opts_pack(&b, &p);
	TEST_CHECK_EQ(opts_diff(&a, &p, buf, sizeof(buf)), 6);
	TEST_CHECK(strstr(buf, "-e (test): this side write_lat, the peer write_bw") != NULL);
	TEST_CHECK(strstr(buf, "-q (qps): this side 1, the peer 2") != NULL);
	TEST_CHECK(strstr(buf, "-n (iters): this side 1000, the peer 500") != NULL);
	TEST_CHECK(strstr(buf, "-s (size): this side 2, the peer 64") != NULL);
	TEST_CHECK(strstr(buf, "-m (mtu): this side 1024, the peer 4096") != NULL);
	TEST_CHECK(strstr(buf, "-c (conn): this side RC, the peer UD") != NULL);
	/* A sweep against a single size; then two sweeps with other bounds. */
	tp_config_defaults(&b);
	b.sweep = true;
	tp_opts_pack(&b, &p);
	TEST_CHECK_EQ(opts_diff(&a, &p, buf, sizeof(buf)), 1);
	TEST_CHECK(strstr(buf, "-a (sweep): this side off, the peer on") != NULL);
	a.sweep = true;
	b.size_max = 4096;
	tp_opts_pack(&b, &p);
	TEST_CHECK_EQ(opts_diff(&a, &p, buf, sizeof(buf)), 1);
	TEST_CHECK(strstr(buf, "--size-max: this side 8388608, the peer 4096") != NULL);
	/* Not an options message (a QP's parameters): refused as such. */
	p.qpn = 5;
	TEST_CHECK_EQ(opts_diff(&a, &p, buf, sizeof(buf)), -EPROTO);
	TEST_CHECK(strstr(buf, "no options message") != NULL);
}

/* tp_record_parse() of @p msg, its error line in @p buf. */
static int
record_err(const char *msg, char *buf, size_t len)
{
	struct tp_record r;
	FILE *err;
	int rc;

	memset(buf, 0, len);
	err = fmemopen(buf, len, "w");
	rc = tp_record_parse(msg, &r, err);
	fclose(err);
	return rc;
}

/* perftest's QP record: KEY_PRINT_FMT_GID's 107 characters and a NUL, parsed strictly. */
static void
test_record(void)
{
	static const char want[] = "0000:0010:00abcd:123456:deadbeef:00007f0012345000:"
				   "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:01:00000000:";
	struct tp_record r = { .out_reads = 16, .qpn = 0xabcd, .psn = 0x123456,
			       .rkey = 0xdeadbeef, .addr = 0x7f0012345000ull };
	struct tp_record back;
	char msg[TP_RECORD_LEN], buf[512];

	TEST_CHECK_EQ(sizeof(want), TP_RECORD_LEN);
	r.gid[10] = r.gid[11] = 0xff;
	r.gid[12] = 10;
	r.gid[15] = 1;
	tp_record_format(&r, msg);
	TEST_CHECK(memcmp(msg, want, TP_RECORD_LEN) == 0);
	TEST_CHECK_EQ(tp_record_parse(msg, &back, stderr), 0);
	TEST_CHECK(back.qpn == r.qpn && back.psn == r.psn && back.rkey == r.rkey &&
		   back.addr == r.addr && back.out_reads == 16 && back.lid == 0 &&
		   memcmp(back.gid, r.gid, 16) == 0);
	/* perftest's own letters may be upper case too (its strtol takes them). */
	msg[15] = 'A';
	TEST_CHECK_EQ(tp_record_parse(msg, &back, stderr), 0);
	TEST_CHECK_EQ(back.qpn, 0xabcau);
	/* A bad digit, a missing separator, no NUL: each named by its byte. */
	memcpy(msg, want, TP_RECORD_LEN);
	msg[7] = 'g';
	TEST_CHECK_EQ(record_err(msg, buf, sizeof(buf)), -EPROTO);
	TEST_CHECK(strstr(buf, "0x67 at byte 7, in its outstanding reads") != NULL);
	memcpy(msg, want, TP_RECORD_LEN);
	msg[4] = '-';
	TEST_CHECK_EQ(record_err(msg, buf, sizeof(buf)), -EPROTO);
	TEST_CHECK(strstr(buf, "0x2d at byte 4, after its LID") != NULL);
	memcpy(msg, want, TP_RECORD_LEN);
	msg[TP_RECORD_LEN - 1] = 'x';
	TEST_CHECK_EQ(tp_record_parse(msg, &back, stderr), -EPROTO);
}

/* The ping-pong byte runs through perftest's values: (char)1, 2 ... 255, 0, 1. */
/*
 * -R's binary record: perftest's struct pingpong_dest as its rdma_write_keys() sends it
 * (htobe32 of lid, out_reads, qpn, psn, rkey; 4 bytes of padding; htobe64 of vaddr; the raw
 * GID; srqn and gid_index big endian), spelled out byte by byte here.
 */
static void
test_record_rcm(void)
{
	static const uint8_t want[TP_RCM_RECORD_LEN] = {
		0, 0, 0, 0,  0, 0, 0, 16,  0, 0, 0xab, 0xcd,  0, 0x12, 0x34, 0x56,
		0xde, 0xad, 0xbe, 0xef,  0, 0, 0, 0,
		0, 0, 0x7f, 0, 0x12, 0x34, 0x50, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1,
		0, 0, 0, 7,  0, 0, 0, 0,
	};
	struct tp_record r = { .out_reads = 16, .qpn = 0xabcd, .psn = 0x123456,
			       .rkey = 0xdeadbeef, .addr = 0x7f0012345000ull, .srqn = 7 };
	struct tp_record back;
	uint8_t msg[TP_RCM_RECORD_LEN];

	r.gid[10] = r.gid[11] = 0xff;
	r.gid[12] = 10;
	r.gid[15] = 1;
	tp_rcm_record_format(&r, msg);
	TEST_CHECK(memcmp(msg, want, sizeof(want)) == 0);
	tp_rcm_record_parse(want, &back);
	TEST_CHECK(back.qpn == r.qpn && back.psn == r.psn && back.rkey == r.rkey &&
		   back.addr == r.addr && back.out_reads == 16 && back.lid == 0 &&
		   back.srqn == 7 && memcmp(back.gid, r.gid, 16) == 0);
	/* QPN and PSN are 24 bits: perftest's ints carry no more */
	memcpy(msg, want, sizeof(want));
	msg[8] = 0xff;
	tp_rcm_record_parse(msg, &back);
	TEST_CHECK_EQ(back.qpn, 0xabcdu);
}

static void
test_seq(void)
{
	TEST_CHECK_EQ(tp_next_seq(0), 1);
	TEST_CHECK_EQ(tp_next_seq(254), 255);
	TEST_CHECK_EQ(tp_next_seq(255), 0);
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
	TEST_CHECK_EQ(tp_knob_set(&c, "tp_cores", "0,1", err), 0);
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
	TEST_RUN(test_lat_known_set);
	TEST_RUN(test_bw);
	TEST_RUN(test_report_lat);
	TEST_RUN(test_report_bw);
	TEST_RUN(test_options);
	TEST_RUN(test_numbers);
	TEST_RUN(test_post_lists);
	TEST_RUN(test_report_effective);
	TEST_RUN(test_opts_exchange);
	TEST_RUN(test_knobs);
	TEST_RUN(test_record);
	TEST_RUN(test_record_rcm);
	TEST_RUN(test_seq);
	return test_done();
}
