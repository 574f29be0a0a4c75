/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd statistics, with perftest's definitions so the numbers compare one to one:
 *
 * Latency (print_report_lat): the client stamps every post; a sample is the time between two
 * consecutive posts (one round trip for a ping-pong, one request/response for a read). The
 * samples are sorted and the two largest dropped (perftest's LAT_MEASURE_TAIL): count = n - 3
 * kept; each is divided by the RTT factor (2 for ping-pong: one-way latency; 1 for read).
 * As in perftest's print_report_lat: t_min = sorted[0], t_max = sorted[count] (the smaller of
 * the two dropped samples), t_typical the median of the kept (the mean of the two middle ones
 * for an even count), t_avg and t_stdev over the kept, the percentiles sorted[ceil(count *
 * 0.99)] and sorted[ceil(count * 0.999)] (with fewer than 1000 kept the latter is t_max). The
 * histogram covers the kept samples only: t_min .. sorted[count - 1].
 * perftest truncates each deviation to an integer before squaring; we do not (the standard
 * deviation here is the exact one).
 *
 * Bandwidth (print_report_bw): average = bytes / (last completion - first post), MB = 2^20;
 * message rate = messages / time in Mpps; peak = the best per-message time over windows from
 * a post burst to a signaled completion.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testpmd.h"

/* perftest drops the largest samples: "LAT_MEASURE_TAIL". */
#define TP_LAT_TAIL	2u
/* Peak search: at most this many (start, end) windows; starts are strided beyond it. */
#define TP_PEAK_WINDOWS	50000000ull

static int
tp_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* perftest's median: even count -> mean of the two middle samples (in ticks, truncated). */
static uint64_t
tp_median(const uint64_t *d, uint64_t cnt)
{
	if ((cnt - 1) % 2)
		return (d[cnt / 2] + d[cnt / 2 - 1]) / 2;
	return d[cnt / 2];
}

static void
tp_lat_histogram(const uint64_t *d, uint64_t cnt, double q, struct tp_lat_result *r)
{
	double width = (r->kept_max - r->t_min) / TP_HIST_BINS;
	uint64_t i;
	long b;

	if (width <= 0)
		width = 0.001;
	r->hist_lo = r->t_min;
	r->hist_width = width;
	memset(r->hist, 0, sizeof(r->hist));
	for (i = 0; i < cnt; i++) {
		b = (long)((d[i] / q - r->t_min) / width);
		if (b < 0)
			b = 0;
		if (b >= TP_HIST_BINS)
			b = TP_HIST_BINS - 1;
		r->hist[b]++;
	}
}

int
tp_lat_compute(const uint64_t *tposted, uint64_t n, uint64_t *d, double ticks_per_us,
	       unsigned int rtt_factor, uint64_t size, struct tp_lat_result *r)
{
	double q, sum = 0, var = 0, x;
	uint64_t cnt, i;

	if (tposted == NULL || d == NULL || r == NULL || n < 4 || ticks_per_us <= 0 ||
	    rtt_factor == 0)
		return -EINVAL;
	for (i = 0; i + 1 < n; i++)
		d[i] = tposted[i + 1] - tposted[i];
	qsort(d, n - 1, sizeof(*d), tp_cmp_u64);
	cnt = n - 1 - TP_LAT_TAIL;
	q = ticks_per_us * rtt_factor;

	memset(r, 0, sizeof(*r));
	r->size = size;
	r->iters = n;
	r->measured = (uint32_t)cnt;
	for (i = 0; i < cnt; i++)
		sum += d[i] / q;
	r->t_avg = sum / (double)cnt;
	for (i = 0; i < cnt; i++) {
		x = r->t_avg - d[i] / q;
		var += x * x;
	}
	r->t_stdev = sqrt(var / (double)cnt);
	r->t_min = d[0] / q;
	r->t_max = d[cnt] / q;
	r->kept_max = d[cnt - 1] / q;
	r->t_typical = tp_median(d, cnt) / q;
	r->p99 = d[(uint64_t)ceil((double)cnt * 0.99)] / q;
	r->p999 = d[(uint64_t)ceil((double)cnt * 0.999)] / q;
	tp_lat_histogram(d, cnt, q, r);
	return 0;
}

static uint64_t
tp_window_min(const uint64_t *tp, const uint64_t *tc, uint64_t n, uint64_t i, uint32_t cq_mod,
	      uint64_t best)
{
	uint64_t j, t;

	/* Windows end at signaled completions: positions cq_mod - 1, 2 cq_mod - 1, ... */
	for (j = ((i + 1 + cq_mod - 1) / cq_mod) * cq_mod - 1; j < n; j += cq_mod) {
		t = (tc[j] - tp[i]) / (j - i + 1);
		if (t < best)
			best = t;
	}
	/* The last WR of a test is signaled even off the cq_mod grid. */
	if (n % cq_mod) {
		j = n - 1;
		t = (tc[j] - tp[i]) / (j - i + 1);
		if (t < best)
			best = t;
	}
	return best;
}

int
tp_bw_compute(const uint64_t *tp, const uint64_t *tc, uint64_t n, uint32_t post_list,
	      uint32_t cq_mod, uint64_t size, double ticks_per_s, bool no_peak,
	      struct tp_bw_result *r)
{
	uint64_t best, i, stride, starts;
	double total;

	if (tp == NULL || tc == NULL || r == NULL || n == 0 || post_list == 0 || cq_mod == 0 ||
	    ticks_per_s <= 0)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->size = size;
	r->iters = n;
	total = (double)(tc[n - 1] - tp[0]);
	if (total <= 0)
		total = 1;
	r->bw_avg = (double)size * (double)n * ticks_per_s / (total * 1048576.0);
	r->msg_rate = (double)n * ticks_per_s / (total * 1e6);
	if (no_peak)
		return 0;
	best = tc[0] - tp[0];
	/* perftest tries every post burst as a start; cap the work on very long runs. */
	stride = post_list;
	starts = (n + post_list - 1) / post_list;
	if (starts * (n / cq_mod + 1) > TP_PEAK_WINDOWS)
		stride = post_list * (starts * (n / cq_mod + 1) / TP_PEAK_WINDOWS + 1);
	for (i = 0; i < n; i += stride)
		best = tp_window_min(tp, tc, n, i, cq_mod, best);
	if (best == 0)
		best = 1;
	r->bw_peak = (double)size * ticks_per_s / ((double)best * 1048576.0);
	return 0;
}
