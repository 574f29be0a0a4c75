/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */

/*
 * rdma-testpmd options and knobs. Every tunable is a knob in one table (name, kind, range);
 * the command-line options and the interactive `set <knob> <value>` both go through
 * tp_knob_set(), so they accept the same values and reject them with the same messages.
 * Option letters follow perftest where perftest has one (-s, -n, -a, -D, -q, -I, -c, -t, -r,
 * -l, -Q, -m, -p, -N, -H).
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "testpmd.h"

/** How a knob's value is read. */
enum tp_knob_kind {
	TK_U32,		/**< unsigned number in [min, max] */
	TK_SIZE,	/**< bytes with an optional K or M suffix (powers of 1024) */
	TK_BOOL,	/**< on/off, 1/0, yes/no, true/false */
	TK_TEST,	/**< engine name */
	TK_CONN,	/**< RC or UD */
	TK_MTU,		/**< 256 .. 4096 */
	TK_MODEL,	/**< inline or thread */
	TK_LCORES,	/**< C or C,S */
	TK_U16,		/**< port number */
	TK_ATOMIC,	/**< FETCH_AND_ADD or CMP_AND_SWAP */
};

/** One knob. */
struct tp_knob {
	const char *name;		/**< knob name (`set` and the long option) */
	enum tp_knob_kind kind;		/**< value syntax */
	size_t off;			/**< member of struct tp_config */
	uint32_t min;			/**< smallest value (numbers) */
	uint32_t max;			/**< largest value (numbers) */
	const char *help;		/**< one line */
};

#define K(n, k, m, lo, hi, h) { n, k, offsetof(struct tp_config, m), lo, hi, h }

static const struct tp_knob tp_knobs[] = {
	K("test", TK_TEST, test, 0, 0,
	  "engine: write_lat read_lat send_lat write_bw read_bw send_bw atomic_lat atomic_bw"),
	K("size", TK_SIZE, size, 1, TP_MAX_SIZE, "message size in bytes (K, M suffixes)"),
	K("size_min", TK_SIZE, size_min, 1, TP_MAX_SIZE, "sweep: first size"),
	K("size_max", TK_SIZE, size_max, 1, TP_MAX_SIZE, "sweep: last size"),
	K("sweep", TK_BOOL, sweep, 0, 1, "sweep powers of two from size_min to size_max"),
	K("iters", TK_U32, iters, 4, 100000000, "iterations per size (per QP for BW)"),
	K("duration", TK_U32, duration, 0, 3600, "seconds per size instead of iterations (0: off)"),
	K("qps", TK_U32, qps, 1, TP_MAX_QPS, "QPs per side (BW tests)"),
	K("inline", TK_SIZE, inline_size, 0, 1024, "largest message sent inline (0: none)"),
	K("conn", TK_CONN, conn, 0, 0, "transport: RC or UD (UD: send tests only)"),
	K("atomic_type", TK_ATOMIC, atomic_cas, 0, 0,
	  "atomic tests: FETCH_AND_ADD or CMP_AND_SWAP"),
	K("tx_depth", TK_U32, tx_depth, 1, 32768, "outstanding send WRs per QP (BW)"),
	K("rx_depth", TK_U32, rx_depth, 1, 32768, "posted receives per QP"),
	K("post_list", TK_U32, post_list, 1, 512, "WRs per post call (burst)"),
	K("cq_mod", TK_U32, cq_mod, 1, 1024, "one signaled WR every cq_mod (BW)"),
	K("mtu", TK_MTU, mtu, 0, 0, "path MTU: 256 512 1024 2048 4096"),
	K("timeout", TK_U32, timeout_ms, 100, 3600000, "ms without progress before a run fails"),
	K("qp_timeout", TK_U32, qp_timeout, 0, 31,
	  "RC local ACK timeout: 4.096 us x 2^N (0: none), perftest's -u"),
	K("histogram", TK_BOOL, histogram, 0, 1, "draw latency histograms"),
	K("verbose", TK_BOOL, verbose, 0, 1, "setup details and the teardown's leak count"),
	K("no_peak", TK_BOOL, no_peak, 0, 1, "skip the BW peak computation"),
	K("model_mode", TK_MODEL, model_mode, 0, 0, "device model: inline or thread"),
	K("tp_cores", TK_LCORES, lcore_client, 0, 0, "client[,server] lcores (one process)"),
	K("port", TK_U16, port, 1, 65535, "TCP port of the two-process exchange"),
	K("rdma_cm", TK_BOOL, rdma_cm, 0, 1,
	  "two processes: connect through rdma_cm (perftest's -R)"),
};

#define TP_NB_KNOBS (sizeof(tp_knobs) / sizeof(tp_knobs[0]))

void
tp_config_defaults(struct tp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->test, "write_lat");
	cfg->size = 2;
	cfg->size_min = 2;
	cfg->size_max = TP_MAX_SIZE;
	cfg->iters = 1000;
	cfg->qps = 1;
	cfg->inline_size = 0;
	cfg->conn = RDMADEV_QPT_RC;
	cfg->tx_depth = 128;
	cfg->rx_depth = 512;
	cfg->post_list = 1;
	cfg->cq_mod = 100;
	cfg->mtu = RDMADEV_MTU_1024;
	cfg->timeout_ms = 5000;
	cfg->qp_timeout = 14;
	strcpy(cfg->model_mode, "inline");
	cfg->lcore_client = -1;
	cfg->lcore_server = -1;
	cfg->mode = TP_MODE_LOCAL;
	cfg->port = TP_DEFAULT_PORT;
}

static const struct tp_knob *
tp_knob_find(const char *name)
{
	size_t i;

	for (i = 0; i < TP_NB_KNOBS; i++)
		if (strcmp(tp_knobs[i].name, name) == 0)
			return &tp_knobs[i];
	return NULL;
}

/*
 * A number: decimal digits, or 0x and hex digits (no sign, no blanks: strtoull would accept
 * " -1" and wrap it), and with @p suffix a K or M (powers of 1024).
 * @return 0, -EINVAL (syntax), -ERANGE (beyond 64 bits, also after the suffix).
 */
static int
tp_parse_u64(const char *v, bool suffix, uint64_t *out)
{
	unsigned long long x;
	unsigned int shift = 0;
	bool hex;
	char *end;

	if (v == NULL || !isdigit((unsigned char)v[0]))
		return -EINVAL;
	hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
	if (hex && !isxdigit((unsigned char)v[2]))
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, hex ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0 || end == v)
		return -EINVAL;
	if (suffix && (*end == 'K' || *end == 'k'))
		shift = 10;
	else if (suffix && (*end == 'M' || *end == 'm'))
		shift = 20;
	if (shift != 0)
		end++;
	if (*end != '\0')
		return -EINVAL;
	if (x > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = x << shift;
	return 0;
}

static int
tp_parse_bool(const char *v, bool *out)
{
	static const char *const on[] = { "1", "on", "yes", "true" };
	static const char *const off[] = { "0", "off", "no", "false" };
	size_t i;

	for (i = 0; i < RTE_DIM(on); i++) {
		if (strcasecmp(v, on[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, off[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int
tp_parse_lcores(struct tp_config *cfg, const char *v)
{
	uint64_t c, s;
	char buf[32], *comma;

	if (strlen(v) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, v);
	comma = strchr(buf, ',');
	if (comma != NULL)
		*comma++ = '\0';
	if (tp_parse_u64(buf, false, &c) < 0 || c >= RTE_MAX_LCORE)
		return -EINVAL;
	s = c;
	if (comma != NULL && (tp_parse_u64(comma, false, &s) < 0 || s >= RTE_MAX_LCORE))
		return -EINVAL;
	cfg->lcore_client = (int)c;
	cfg->lcore_server = (int)s;
	return 0;
}

static int
tp_knob_apply(struct tp_config *cfg, const struct tp_knob *k, const char *v)
{
	void *p = (uint8_t *)cfg + k->off;
	uint64_t x;
	int m, rc;
	bool b;

	switch (k->kind) {
	case TK_U32:
	case TK_U16:
	case TK_SIZE:
		rc = tp_parse_u64(v, k->kind == TK_SIZE, &x);
		if (rc < 0)
			return rc;
		if (x < k->min || x > k->max)
			return -ERANGE;
		if (k->kind == TK_U16)
			*(uint16_t *)p = (uint16_t)x;
		else
			*(uint32_t *)p = (uint32_t)x;
		return 0;
	case TK_BOOL:
		if (tp_parse_bool(v, &b) < 0)
			return -EINVAL;
		*(bool *)p = b;
		return 0;
	case TK_TEST:
		if (tp_engine_find(v) == NULL)
			return -EINVAL;
		snprintf(cfg->test, sizeof(cfg->test), "%s", v);
		return 0;
	case TK_ATOMIC:
		if (strcasecmp(v, "FETCH_AND_ADD") == 0)
			cfg->atomic_cas = false;
		else if (strcasecmp(v, "CMP_AND_SWAP") == 0)
			cfg->atomic_cas = true;
		else
			return -EINVAL;
		return 0;
	case TK_CONN:
		if (strcasecmp(v, "RC") == 0)
			cfg->conn = RDMADEV_QPT_RC;
		else if (strcasecmp(v, "UD") == 0)
			cfg->conn = RDMADEV_QPT_UD;
		else
			return -EINVAL;
		return 0;
	case TK_MTU:
		/* enum rdmadev_mtu: 256 << (value - 1) bytes. */
		if (tp_parse_u64(v, false, &x) < 0)
			return -EINVAL;
		for (m = RDMADEV_MTU_256; m <= RDMADEV_MTU_4096; m++)
			if ((128u << m) == x) {
				cfg->mtu = (enum rdmadev_mtu)m;
				return 0;
			}
		return -EINVAL;
	case TK_MODEL:
		if (strcmp(v, "inline") != 0 && strcmp(v, "thread") != 0)
			return -EINVAL;
		snprintf(cfg->model_mode, sizeof(cfg->model_mode), "%s", v);
		return 0;
	case TK_LCORES:
		return tp_parse_lcores(cfg, v);
	}
	return -EINVAL;
}

int
tp_knob_set(struct tp_config *cfg, const char *knob, const char *value, FILE *err)
{
	const struct tp_knob *k = tp_knob_find(knob);
	int rc;

	if (k == NULL) {
		fprintf(err, "rdma-testpmd: unknown knob '%s' (see 'show config')\n", knob);
		return -ENOENT;
	}
	rc = value == NULL ? -EINVAL : tp_knob_apply(cfg, k, value);
	if (rc < 0) {
		if (rc == -ERANGE)
			fprintf(err, "rdma-testpmd: %s: bad value '%s': out of range (%" PRIu32
				" .. %" PRIu32 "%s): %s\n", knob, value, k->min, k->max,
				k->kind == TK_SIZE ? " bytes" : "", k->help);
		else if (k->kind == TK_U32 || k->kind == TK_SIZE || k->kind == TK_U16)
			fprintf(err, "rdma-testpmd: %s: bad value '%s' (%" PRIu32 " .. %" PRIu32
				", decimal or 0x hex%s): %s\n", knob, value ? value : "", k->min,
				k->max, k->kind == TK_SIZE ? ", K or M suffix" : "", k->help);
		else
			fprintf(err, "rdma-testpmd: %s: bad value '%s': %s\n", knob,
				value ? value : "", k->help);
		return -EINVAL;
	}
	/* A size given alone is a single-size run. */
	if (strcmp(knob, "size") == 0)
		cfg->sweep = false;
	/* An explicit moderation is kept; without one a post list sets it (tp_cq_mod()). */
	if (strcmp(knob, "cq_mod") == 0)
		cfg->cq_mod_set = true;
	/* -R: an explicit ACK timeout replaces the path's (tp_rcm.c). */
	if (strcmp(knob, "qp_timeout") == 0)
		cfg->qp_timeout_set = true;
	/* -R: an explicit MTU caps the CM's (the port's active MTU otherwise). */
	if (strcmp(knob, "mtu") == 0)
		cfg->mtu_set = true;
	return 0;
}

static void
tp_knob_print(const struct tp_config *cfg, const struct tp_knob *k, FILE *f)
{
	const void *p = (const uint8_t *)cfg + k->off;

	fprintf(f, "  %-11s ", k->name);
	switch (k->kind) {
	case TK_U32:
	case TK_SIZE:
		/* cq_mod: the value a BW run uses (a post list sets it when it was not given). */
		fprintf(f, "%-10" PRIu32, p == &cfg->cq_mod ? tp_cq_mod(cfg) :
			*(const uint32_t *)p);
		break;
	case TK_U16:
		fprintf(f, "%-10u", *(const uint16_t *)p);
		break;
	case TK_BOOL:
		fprintf(f, "%-10s", *(const bool *)p ? "on" : "off");
		break;
	case TK_TEST:
	case TK_MODEL:
		fprintf(f, "%-10s", (const char *)p);
		break;
	case TK_CONN:
		fprintf(f, "%-10s", rdmadev_qp_type_name(cfg->conn));
		break;
	case TK_ATOMIC:
		fprintf(f, "%-10s", cfg->atomic_cas ? "CMP_AND_SWAP" : "FETCH_AND_ADD");
		break;
	case TK_MTU:
		fprintf(f, "%-10u", 128u << cfg->mtu);
		break;
	case TK_LCORES:
		if (cfg->lcore_client < 0)
			fprintf(f, "%-10s", "main");
		else
			fprintf(f, "%d,%-8d", cfg->lcore_client, cfg->lcore_server);
		break;
	}
	fprintf(f, " %s\n", k->help);
}

void
tp_knob_show(const struct tp_config *cfg, FILE *f)
{
	size_t i;

	for (i = 0; i < TP_NB_KNOBS; i++)
		tp_knob_print(cfg, &tp_knobs[i], f);
}

static bool
tp_pow2(uint32_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

uint32_t
tp_cq_mod(const struct tp_config *cfg)
{
	return !cfg->cq_mod_set && cfg->post_list > 1 ? cfg->post_list : cfg->cq_mod;
}

void
tp_config_effective(const struct tp_config *cfg, enum tp_kind kind, uint32_t *tx_depth,
		    uint32_t *post_list, uint32_t *cq_mod)
{
	*tx_depth = kind == TP_LAT ? 1 : cfg->tx_depth;
	*post_list = kind == TP_LAT ? 1 : cfg->post_list;
	*cq_mod = kind == TP_LAT ? 1 : tp_cq_mod(cfg);
}

static uint32_t
tp_gcd(uint32_t a, uint32_t b)
{
	while (b != 0) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * The stream of a BW test posts whole lists of L WRs while at most T (tx_depth) are
 * outstanding, and only a signaled WR (every Q-th) frees the window. When every signaled WR
 * posted has completed, the outstanding ones are the posted count modulo Q, which reaches
 * Q - gcd(L, Q); the next list must still fit then, or nothing ever completes again:
 * Q - gcd(L, Q) + L <= T. (L = 1: Q <= T.)
 */
static int
tp_window_check(const struct tp_config *cfg, FILE *err)
{
	uint32_t l = cfg->post_list, q = tp_cq_mod(cfg), t = cfg->tx_depth;
	uint64_t need = (uint64_t)q - tp_gcd(l, q) + l;

	if (l > t) {
		fprintf(err, "rdma-testpmd: post_list %u exceeds tx_depth %u\n", l, t);
		return -EINVAL;
	}
	if (need > t) {
		fprintf(err, "rdma-testpmd: post_list %u with cq_mod %u needs tx_depth >= %" PRIu64
			" (cq_mod - gcd(post_list, cq_mod) + post_list), tx_depth is %u: the "
			"window would fill with unsignaled WRs and stall; raise -t, or give a "
			"-Q that divides -l (e.g. -Q %u)\n", l, q, need, t, l);
		return -EINVAL;
	}
	return 0;
}

int
tp_config_check(const struct tp_config *cfg, FILE *err)
{
	const struct tp_engine *e = tp_engine_find(cfg->test);

	if (e == NULL) {
		fprintf(err, "rdma-testpmd: unknown test '%s' (one of: %s)\n", cfg->test,
			tp_engine_names());
		return -EINVAL;
	}
	if (cfg->sweep && (!tp_pow2(cfg->size_min) || !tp_pow2(cfg->size_max) ||
			   cfg->size_min > cfg->size_max)) {
		fprintf(err, "rdma-testpmd: sweep sizes must be powers of two with size_min <= "
			"size_max (got %u .. %u)\n", cfg->size_min, cfg->size_max);
		return -EINVAL;
	}
	if (cfg->conn == RDMADEV_QPT_UD && !e->ud_ok) {
		fprintf(err, "rdma-testpmd: %s needs RC (UD has no RDMA operations)\n", e->name);
		return -EINVAL;
	}
	if (cfg->conn == RDMADEV_QPT_UD &&
	    (cfg->sweep ? cfg->size_max : cfg->size) > (128u << cfg->mtu)) {
		fprintf(err, "rdma-testpmd: UD messages are at most one MTU (%u B)\n",
			128u << cfg->mtu);
		return -EINVAL;
	}
	if (e->kind == TP_LAT && cfg->qps != 1) {
		fprintf(err, "rdma-testpmd: latency tests use one QP (qps=%u)\n", cfg->qps);
		return -EINVAL;
	}
	if (e->kind == TP_BW && tp_cq_mod(cfg) > cfg->tx_depth) {
		fprintf(err, "rdma-testpmd: cq_mod %u exceeds tx_depth %u: the SQ would fill "
			"before a completion frees it\n", tp_cq_mod(cfg), cfg->tx_depth);
		return -EINVAL;
	}
	if (e->kind == TP_BW && tp_window_check(cfg, err) < 0)
		return -EINVAL;
	if (cfg->rdma_cm && cfg->mode == TP_MODE_LOCAL) {
		fprintf(err, "rdma-testpmd: -R connects two processes: add --server or --client\n");
		return -EINVAL;
	}
	if (cfg->rdma_cm && cfg->conn != RDMADEV_QPT_RC && cfg->conn != RDMADEV_QPT_UD) {
		fprintf(err, "rdma-testpmd: -R connects RC and UD QPs only\n");
		return -EINVAL;
	}
	if (cfg->duration != 0 && cfg->mode != TP_MODE_LOCAL) {
		fprintf(err, "rdma-testpmd: --duration runs in one process only; use --iters "
			"with --server/--client\n");
		return -EINVAL;
	}
	if (cfg->mode != TP_MODE_LOCAL && cfg->lcore_server != cfg->lcore_client) {
		fprintf(err, "rdma-testpmd: --tp-cores C,S is for one-process runs\n");
		return -EINVAL;
	}
	return 0;
}

void
tp_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [EAL options] -- [options]\n"
		"\n"
		"  -e, --test NAME         write_lat (default) read_lat send_lat write_bw read_bw send_bw\n"
		"                          atomic_lat atomic_bw (devices with atomics)\n"
		"  -A, --atomic-type T     FETCH_AND_ADD (default) or CMP_AND_SWAP (atomic tests)\n"
		"  -s, --size BYTES        message size (K and M suffixes), default 2\n"
		"  -a, --all               sweep powers of two, 2 B .. 8 MiB\n"
		"      --size-min BYTES    sweep from (with -a)\n"
		"      --size-max BYTES    sweep to (with -a)\n"
		"  -n, --iters N           iterations per size (default 1000)\n"
		"  -D, --duration SEC      run each size for SEC seconds (one process)\n"
		"  -q, --qps N             QPs (BW tests), default 1\n"
		"  -I, --inline BYTES      send messages up to BYTES inline\n"
		"  -c, --conn RC|UD        transport (UD: send_lat, send_bw)\n"
		"  -t, --tx-depth N        outstanding sends per QP (BW), default 128\n"
		"  -r, --rx-depth N        posted receives per QP, default 512\n"
		"  -l, --post-list N       WRs per post call, default 1\n"
		"  -Q, --cq-mod N          one signaled WR every N (BW), default 100\n"
		"  -m, --mtu BYTES         path MTU 256..4096, default the port's active MTU\n"
		"  -u, --qp-timeout N      RC local ACK timeout 4.096 us x 2^N (0: none), default 14\n"
		"  -N, --no-peak           skip the BW peak\n"
		"  -H, --histogram         draw latency histograms\n"
		"      --server            two-process mode: wait for a client\n"
		"      --client HOST[:PORT] two-process mode: connect to a server\n"
		"  -p, --port PORT         TCP port of the exchange (default %u)\n"
		"  -R, --rdma-cm           two processes: connect the QPs through rdma_cm and\n"
		"                          exchange over it, as perftest's -R (RC; UD through\n"
		"                          rdma_cm's UDP port space)\n"
		"      --dev DEVARGS       device (twice: one per side); default: an E810 on\n"
		"                          vfio-pci, else the device model irdma_model0\n"
		"      --model-mode M      device model: inline (default) or thread\n"
		"      --tp-cores C[,S]    lcores of the client and server sides (one process;\n"
		"                          EAL's -l must enable them)\n"
		"      --timeout MS        fail a run after MS without progress (default 5000)\n"
		"      --json FILE         write the results as JSON (- for stdout)\n"
		"      --csv FILE          write the results as CSV (- for stdout)\n"
		"  -i, --interactive       the rdma-testpmd> prompt\n"
		"      --cmdline-file FILE run the commands in FILE\n"
		"      --auto-start        start the configured test at once (with -i)\n"
		"  -v, --verbose           setup details and leak count\n"
		"  -h, --help              this text\n", prog, TP_DEFAULT_PORT);
}

enum {
	OPT_SIZE_MIN = 256, OPT_SIZE_MAX, OPT_SERVER, OPT_CLIENT, OPT_DEV, OPT_MODEL, OPT_TP_CORES,
	OPT_TIMEOUT, OPT_JSON, OPT_CSV, OPT_CMDFILE, OPT_AUTOSTART,
};

static const struct option tp_long_opts[] = {
	{ "test", required_argument, NULL, 'e' },
	{ "size", required_argument, NULL, 's' },
	{ "all", no_argument, NULL, 'a' },
	{ "size-min", required_argument, NULL, OPT_SIZE_MIN },
	{ "size-max", required_argument, NULL, OPT_SIZE_MAX },
	{ "iters", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'D' },
	{ "qps", required_argument, NULL, 'q' },
	{ "inline", required_argument, NULL, 'I' },
	{ "conn", required_argument, NULL, 'c' },
	{ "atomic-type", required_argument, NULL, 'A' },
	{ "tx-depth", required_argument, NULL, 't' },
	{ "rx-depth", required_argument, NULL, 'r' },
	{ "post-list", required_argument, NULL, 'l' },
	{ "cq-mod", required_argument, NULL, 'Q' },
	{ "mtu", required_argument, NULL, 'm' },
	{ "qp-timeout", required_argument, NULL, 'u' },
	{ "no-peak", no_argument, NULL, 'N' },
	{ "histogram", no_argument, NULL, 'H' },
	{ "server", no_argument, NULL, OPT_SERVER },
	{ "client", required_argument, NULL, OPT_CLIENT },
	{ "port", required_argument, NULL, 'p' },
	{ "rdma-cm", no_argument, NULL, 'R' },
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "model-mode", required_argument, NULL, OPT_MODEL },
	{ "tp-cores", required_argument, NULL, OPT_TP_CORES },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "interactive", no_argument, NULL, 'i' },
	{ "cmdline-file", required_argument, NULL, OPT_CMDFILE },
	{ "auto-start", no_argument, NULL, OPT_AUTOSTART },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Options that are knobs: option character -> knob name. */
static const char *
tp_opt_knob(int c)
{
	switch (c) {
	case 'e': return "test";
	case 's': return "size";
	case OPT_SIZE_MIN: return "size_min";
	case OPT_SIZE_MAX: return "size_max";
	case 'n': return "iters";
	case 'D': return "duration";
	case 'q': return "qps";
	case 'I': return "inline";
	case 'c': return "conn";
	case 'A': return "atomic_type";
	case 't': return "tx_depth";
	case 'r': return "rx_depth";
	case 'l': return "post_list";
	case 'Q': return "cq_mod";
	case 'm': return "mtu";
	case 'u': return "qp_timeout";
	case 'p': return "port";
	case OPT_MODEL: return "model_mode";
	case OPT_TP_CORES: return "tp_cores";
	case OPT_TIMEOUT: return "timeout";
	default: return NULL;
	}
}

static int
tp_copy_opt(char *dst, size_t len, const char *v, const char *opt, FILE *err)
{
	if (strlen(v) >= len || *v == '\0') {
		fprintf(err, "rdma-testpmd: %s: value empty or longer than %zu\n", opt, len - 1);
		return -EINVAL;
	}
	strcpy(dst, v);
	return 0;
}

static int
tp_parse_client(struct tp_config *cfg, const char *v, FILE *err)
{
	char *colon;
	uint64_t port;

	cfg->mode = TP_MODE_CLIENT;
	if (tp_copy_opt(cfg->peer, sizeof(cfg->peer), v, "--client", err) < 0)
		return -EINVAL;
	colon = strrchr(cfg->peer, ':');
	if (colon != NULL) {
		*colon = '\0';
		if (tp_parse_u64(colon + 1, false, &port) < 0 || port == 0 || port > 65535) {
			fprintf(err, "rdma-testpmd: --client %s: bad port\n", v);
			return -EINVAL;
		}
		cfg->port = (uint16_t)port;
	}
	return 0;
}

static int
tp_parse_one(struct tp_config *cfg, int c, const char *arg, FILE *err)
{
	const char *knob = tp_opt_knob(c);

	if (knob != NULL)
		return tp_knob_set(cfg, knob, arg, err) < 0 ? -EINVAL : 0;
	switch (c) {
	case 'a':
		cfg->sweep = true;
		return 0;
	case 'N':
		cfg->no_peak = true;
		return 0;
	case 'H':
		cfg->histogram = true;
		return 0;
	case 'i':
		cfg->interactive = true;
		return 0;
	case 'v':
		cfg->verbose = true;
		return 0;
	case 'R':
		cfg->rdma_cm = true;
		return 0;
	case OPT_AUTOSTART:
		cfg->auto_start = true;
		return 0;
	case OPT_SERVER:
		if (cfg->mode == TP_MODE_CLIENT) {
			fprintf(err, "rdma-testpmd: --server and --client exclude each other (one "
				"process is one side)\n");
			return -EINVAL;
		}
		cfg->mode = TP_MODE_SERVER;
		return 0;
	case OPT_CLIENT:
		if (cfg->mode == TP_MODE_SERVER) {
			fprintf(err, "rdma-testpmd: --server and --client exclude each other (one "
				"process is one side)\n");
			return -EINVAL;
		}
		return tp_parse_client(cfg, arg, err);
	case OPT_DEV:
		if (cfg->nb_devargs == TP_MAX_DEVS) {
			fprintf(err, "rdma-testpmd: --dev given more than %d times\n", TP_MAX_DEVS);
			return -EINVAL;
		}
		return tp_copy_opt(cfg->devargs[cfg->nb_devargs++], TP_DEVARGS_LEN, arg, "--dev",
				   err);
	case OPT_JSON:
		return tp_copy_opt(cfg->json_path, sizeof(cfg->json_path), arg, "--json", err);
	case OPT_CSV:
		return tp_copy_opt(cfg->csv_path, sizeof(cfg->csv_path), arg, "--csv", err);
	case OPT_CMDFILE:
		return tp_copy_opt(cfg->cmdline_file, sizeof(cfg->cmdline_file), arg,
				   "--cmdline-file", err);
	default:
		return -EINVAL;
	}
}

int
tp_parse_args(struct tp_config *cfg, int argc, char **argv, FILE *err)
{
	bool all = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:s:an:D:q:I:c:A:t:r:l:Q:m:u:NHp:Rivh", tp_long_opts,
				NULL)) != -1) {
		if (c == 'h') {
			tp_usage(stdout, argv[0]);
			return 1;
		}
		if (c == '?') {
			fprintf(err, "rdma-testpmd: unknown option '%s' (try --help)\n",
				argv[optind - 1]);
			return -EINVAL;
		}
		if (c == ':') {
			fprintf(err, "rdma-testpmd: option '%s' needs a value\n", argv[optind - 1]);
			return -EINVAL;
		}
		if (tp_parse_one(cfg, c, optarg, err) < 0)
			return -EINVAL;
		all |= c == 'a';
	}
	/* -a wins over -s whatever their order (setting the size knob ends a sweep). */
	if (all)
		cfg->sweep = true;
	if (optind < argc) {
		fprintf(err, "rdma-testpmd: unexpected argument '%s' (try --help)\n", argv[optind]);
		return -EINVAL;
	}
	return tp_config_check(cfg, err);
}
