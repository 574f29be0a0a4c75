/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd reports: the tables in perftest's exact columns (its header strings and row
 * formats, so scripts that parse perftest output parse ours), plus a JSON document (rows and
 * latency histograms) and CSV rows, and the latency histogram drawn in the terminal.
 */

#include <inttypes.h>
#include <string.h>

#include "testpmd.h"

#define TP_RESULT_LINE \
	"---------------------------------------------------------------------------------------\n"
/* perftest's column headers (RESULT_FMT_LAT, RESULT_FMT with the MB unit of older perftest). */
#define TP_HDR_LAT \
	" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]" \
	"    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec] \n"
#define TP_HDR_BW \
	" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
/* perftest's row formats (REPORT_FMT_LAT, REPORT_FMT). */
#define TP_ROW_LAT \
	" %-7" PRIu64 " %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f" \
	"     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n"
#define TP_ROW_BW \
	" %-7" PRIu64 "    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t     %-7.6lf\n"
/* Width of the longest histogram bar. */
#define TP_BAR_MAX	50

static const char *
tp_verb_title(const char *test)
{
	if (strncmp(test, "write", 5) == 0)
		return "RDMA_Write";
	if (strncmp(test, "read", 4) == 0)
		return "RDMA_Read";
	return "Send";
}

void
tp_report_header(struct tp_report *rep, enum tp_kind kind, const char *test,
		 const struct tp_config *cfg)
{
	uint32_t tx_depth, post_list, cq_mod;

	/* The table and the JSON both say what the run uses (latency: one WR at a time). */
	tp_config_effective(cfg, kind, &tx_depth, &post_list, &cq_mod);
	rep->kind = kind;
	fprintf(rep->out, TP_RESULT_LINE);
	fprintf(rep->out, "                    %s %s Test\n", tp_verb_title(test),
		kind == TP_LAT ? "Latency" : "BW");
	fprintf(rep->out, " Number of qps   : %-10u Transport type : IB\n", cfg->qps);
	fprintf(rep->out, " Connection type : %-10s Using SRQ      : OFF\n",
		rdmadev_qp_type_name(cfg->conn));
	fprintf(rep->out, " TX depth        : %-10u Mtu            : %u[B]\n", tx_depth,
		128u << cfg->mtu);
	fprintf(rep->out, " Post List       : %-10u CQ Moderation  : %u\n", post_list, cq_mod);
	fprintf(rep->out, " Max inline data : %u[B]\n", cfg->inline_size);
	fprintf(rep->out, TP_RESULT_LINE);
	fprintf(rep->out, kind == TP_LAT ? TP_HDR_LAT : TP_HDR_BW);
	fflush(rep->out);
	if (rep->json != NULL) {
		fprintf(rep->json, "{\n\"test\": \"%s\",\n\"connection\": \"%s\",\n\"qps\": %u,\n"
			"\"tx_depth\": %u,\n\"post_list\": %u,\n\"cq_mod\": %u,\n"
			"\"inline\": %u,\n\"mtu\": %u,\n\"results\": [", test,
			rdmadev_qp_type_name(cfg->conn), cfg->qps, tx_depth, post_list, cq_mod,
			cfg->inline_size, 128u << cfg->mtu);
	}
	if (rep->csv != NULL) {
		fprintf(rep->csv, kind == TP_LAT ?
			"test,bytes,iterations,t_min_us,t_max_us,t_typical_us,t_avg_us,"
			"t_stdev_us,p99_us,p99_9_us\n" :
			"test,bytes,iterations,bw_peak_mbs,bw_avg_mbs,msg_rate_mpps\n");
	}
	rep->test = test;
	rep->rows = 0;
}

void
tp_report_histogram(FILE *f, const struct tp_lat_result *r)
{
	uint32_t most = 1, i, bar;

	for (i = 0; i < TP_HIST_BINS; i++)
		if (r->hist[i] > most)
			most = r->hist[i];
	fprintf(f, "   histogram of %u samples (usec; the kept ones, %.3f .. %.3f):\n",
		r->measured, r->t_min, r->kept_max);
	for (i = 0; i < TP_HIST_BINS; i++) {
		bar = (uint32_t)((uint64_t)r->hist[i] * TP_BAR_MAX / most);
		if (r->hist[i] > 0 && bar == 0)
			bar = 1;
		fprintf(f, "   [%9.3f, %9.3f) %-*.*s %u\n", r->hist_lo + i * r->hist_width,
			r->hist_lo + (i + 1) * r->hist_width, TP_BAR_MAX, (int)bar,
			"##################################################", r->hist[i]);
	}
}

void
tp_report_lat(struct tp_report *rep, const struct tp_lat_result *r)
{
	uint32_t i;

	fprintf(rep->out, TP_ROW_LAT, r->size, r->iters, r->t_min, r->t_max, r->t_typical,
		r->t_avg, r->t_stdev, r->p99, r->p999);
	if (rep->histogram)
		tp_report_histogram(rep->out, r);
	fflush(rep->out);
	if (rep->json != NULL) {
		fprintf(rep->json, "%s\n{\"MsgSize\": %" PRIu64 ", \"n_iterations\": %" PRIu64
			", \"t_min\": %.3f, \"t_max\": %.3f, \"t_typical\": %.3f, \"t_avg\": %.3f"
			", \"t_stdev\": %.3f, \"percentile_99\": %.3f, \"percentile_99_9\": %.3f"
			", \"histogram\": {\"lo\": %.3f, \"hi\": %.3f, \"width\": %.4f, "
			"\"counts\": [", rep->rows ? "," : "", r->size, r->iters, r->t_min, r->t_max,
			r->t_typical, r->t_avg, r->t_stdev, r->p99, r->p999, r->hist_lo,
			r->kept_max, r->hist_width);
		for (i = 0; i < TP_HIST_BINS; i++)
			fprintf(rep->json, "%s%u", i ? ", " : "", r->hist[i]);
		fprintf(rep->json, "]}}");
	}
	if (rep->csv != NULL)
		fprintf(rep->csv, "%s,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
			rep->test, r->size, r->iters, r->t_min, r->t_max, r->t_typical,
			r->t_avg, r->t_stdev, r->p99, r->p999);
	rep->rows++;
}

void
tp_report_bw(struct tp_report *rep, const struct tp_bw_result *r)
{
	fprintf(rep->out, TP_ROW_BW, r->size, r->iters, r->bw_peak, r->bw_avg, r->msg_rate);
	fflush(rep->out);
	if (rep->json != NULL)
		fprintf(rep->json, "%s\n{\"MsgSize\": %" PRIu64 ", \"n_iterations\": %" PRIu64
			", \"BW_peak\": %.2f, \"BW_average\": %.2f, \"MsgRate\": %.6f}",
			rep->rows ? "," : "", r->size, r->iters, r->bw_peak, r->bw_avg,
			r->msg_rate);
	if (rep->csv != NULL)
		fprintf(rep->csv, "%s,%" PRIu64 ",%" PRIu64 ",%.2f,%.2f,%.6f\n", rep->test,
			r->size, r->iters, r->bw_peak, r->bw_avg, r->msg_rate);
	rep->rows++;
}

void
tp_report_footer(struct tp_report *rep)
{
	fprintf(rep->out, TP_RESULT_LINE);
	fflush(rep->out);
	/* The run's end flushes and closes the sinks, and reports their write errors. */
	if (rep->json != NULL)
		fprintf(rep->json, "\n]\n}\n");
}
