/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the irdma-pmd authors
 */
#ifndef RDMA_TESTPMD_H
#define RDMA_TESTPMD_H

/*
 * rdma-testpmd: shared types. The program is split so each piece can be tested alone:
 *
 *   tp_stats.c    perftest's statistics (latency from round trips, BW peak / average)
 *   tp_report.c   the tables in perftest's columns, --json, --csv, the histogram
 *   tp_params.c   options and the knob table (`set <knob> <value>` uses the same table)
 *   tp_setup.c    devices, objects, QP connection (one process, or two through rdmadev_cm)
 *   tp_fastpath.c helpers the engines share (post, poll, receive ring)
 *   tp_xchg.c     the two-process exchange: perftest 4.x's TCP protocol
 *   tp_run.c      the run loop: sweep sizes, drive the sides, watchdog, progress line
 *   eng_*.c       the test engines, one per file, behind struct tp_engine
 *   tp_cmdline.c  the interactive mode (librte_cmdline) and --cmdline-file
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmadev.h>
#include <rdmadev_rcm.h>

/** Largest number of QPs per side. */
#define TP_MAX_QPS		16
/** Largest message: 8 MiB. */
#define TP_MAX_SIZE		(8u << 20)
/** Devices the app opens at most (one per side). */
#define TP_MAX_DEVS		2
/** Length of a devargs string. */
#define TP_DEVARGS_LEN		128
/** Histogram bins (JSON and terminal). */
#define TP_HIST_BINS		20
/** Q_Key of the UD QPs (perftest's DEF_QKEY). */
#define TP_QKEY			0x11111111u
/** -R: the UD QPs' Q_Key is rdma_cm's (RDMA_UDP_QKEY), as perftest -R takes it from the CM. */
#define TP_QKEY_OF(cfg)		((cfg)->rdma_cm ? RDMADEV_RCM_UDP_QKEY : TP_QKEY)
/** Largest post list (burst). */
#define TP_MAX_POST_LIST	512
/** Default TCP port of the two-process exchange (perftest's). */
#define TP_DEFAULT_PORT		18515

/** What a test measures. */
enum tp_kind {
	TP_LAT,		/**< ping-pong or request/response latency */
	TP_BW,		/**< streaming bandwidth and message rate */
};

/** Process role. */
enum tp_mode {
	TP_MODE_LOCAL,	/**< both sides in this process */
	TP_MODE_SERVER,	/**< the passive side of a two-process run */
	TP_MODE_CLIENT,	/**< the active side of a two-process run */
};

/** Everything a user can set (options, `set` knobs). */
struct tp_config {
	char test[16];			/**< engine name ("write_lat", ...) */
	uint32_t size;			/**< message size when not sweeping */
	uint32_t size_min;		/**< sweep: first size (power of two) */
	uint32_t size_max;		/**< sweep: last size */
	bool sweep;			/**< powers of two from size_min to size_max */
	uint32_t iters;			/**< iterations per size (per QP for BW) */
	uint32_t duration;		/**< seconds per size (one-process only), 0: iterations */
	uint32_t qps;			/**< QPs per side */
	uint32_t inline_size;		/**< largest inline message, 0: never inline */
	enum rdmadev_qp_type conn;	/**< RC or UD */
	uint32_t tx_depth;		/**< outstanding send WRs per QP */
	uint32_t qp_timeout;		/**< RC local ACK timeout exponent (IBA) */
	bool qp_timeout_set;		/**< qp_timeout was given (-u, `set qp_timeout`) */
	bool mtu_set;			/**< mtu was given (-m, `set mtu`): caps the CM's */
	uint32_t rx_depth;		/**< posted receive WRs per QP */
	uint32_t post_list;		/**< WRs per post call (burst) */
	uint32_t cq_mod;		/**< one signaled WR every cq_mod (unsignaled ratio) */
	bool cq_mod_set;		/**< cq_mod was given (-Q, `set cq_mod`): see tp_cq_mod() */
	enum rdmadev_mtu mtu;		/**< path MTU */
	uint32_t timeout_ms;		/**< every wait: no progress for this long is an error */
	bool histogram;			/**< draw the latency histogram after each row */
	bool verbose;			/**< print the teardown's leak count and the setup */
	bool no_peak;			/**< skip the BW peak (perftest -N) */
	bool atomic_cas;		/**< atomic tests: compare-and-swap, not fetch-and-add */
	char model_mode[8];		/**< device model: "inline" or "thread" */
	int lcore_client;		/**< lcore of the client side (-1: main) */
	int lcore_server;		/**< lcore of the server side (-1: main, interleaved) */
	enum tp_mode mode;		/**< one process, server or client */
	char peer[64];			/**< client: server host */
	uint16_t port;			/**< TCP port of the exchange (-R: the rdma_cm port) */
	bool rdma_cm;			/**< -R: connect through rdma_cm, exchange over it */
	char devargs[TP_MAX_DEVS][TP_DEVARGS_LEN];	/**< --dev, in order */
	unsigned int nb_devargs;	/**< --dev given */
	char json_path[256];		/**< --json FILE ("-": stdout), "" none */
	char csv_path[256];		/**< --csv FILE ("-": stdout), "" none */
	char cmdline_file[256];		/**< --cmdline-file */
	bool interactive;		/**< -i */
	bool auto_start;		/**< --auto-start */
};

/* ---- statistics (tp_stats.c) ---- */

/** One latency row, in microseconds, perftest's definitions. */
struct tp_lat_result {
	uint64_t size;			/**< message bytes */
	uint64_t iters;			/**< iterations run */
	double t_min;			/**< smallest sample */
	double t_max;			/**< perftest's t_max: sorted[measured], the smaller of the
					 *   two dropped samples */
	double t_typical;		/**< median */
	double t_avg;			/**< mean */
	double t_stdev;			/**< standard deviation */
	double p99;			/**< 99% percentile */
	double p999;			/**< 99.9% percentile (sorted[ceil(measured * 0.999)]) */
	uint32_t measured;		/**< samples the numbers cover */
	double kept_max;		/**< largest kept sample (sorted[measured - 1]) */
	double hist_lo;			/**< histogram: first bin's lower edge (t_min) */
	double hist_width;		/**< histogram: bin width ((kept_max - t_min) / bins) */
	uint32_t hist[TP_HIST_BINS];	/**< histogram counts (they add up to measured) */
};

/** One bandwidth row, perftest's definitions (MB = 2^20 bytes). */
struct tp_bw_result {
	uint64_t size;			/**< message bytes */
	uint64_t iters;			/**< messages */
	double bw_peak;			/**< MB/s of the best window */
	double bw_avg;			/**< MB/s over the run */
	double msg_rate;		/**< Mpps over the run */
};

/**
 * Latency statistics from the post timestamps of a ping-pong (perftest's print_report_lat):
 * delta[i] = tposted[i + 1] - tposted[i] (one round trip, or one request/response for reads),
 * sorted; the two largest dropped; each divided by @p rtt_factor (2 for ping-pong: one-way
 * latency; 1 for reads) and by the ticks per microsecond.
 *
 * @param tposted  @p n timestamps (ticks), n >= 4.
 * @param scratch  @p n - 1 entries of work space.
 * @return 0, -EINVAL (n < 4, zero rate or factor).
 */
int tp_lat_compute(const uint64_t *tposted, uint64_t n, uint64_t *scratch, double ticks_per_us,
		   unsigned int rtt_factor, uint64_t size, struct tp_lat_result *r);

/**
 * Bandwidth statistics (perftest's print_report_bw): average over tcompleted[n-1] -
 * tposted[0]; peak as the best per-message time over windows that start at a post burst
 * (every @p post_list WRs) and end at a signaled completion (every @p cq_mod WRs, and the last).
 *
 * @return 0, -EINVAL (n == 0, zero rate, post_list or cq_mod).
 */
int tp_bw_compute(const uint64_t *tposted, const uint64_t *tcompleted, uint64_t n,
		  uint32_t post_list, uint32_t cq_mod, uint64_t size, double ticks_per_s,
		  bool no_peak, struct tp_bw_result *r);

/* ---- reports (tp_report.c) ---- */

/** Output sinks of one run. */
struct tp_report {
	FILE *out;		/**< tables (stdout) */
	FILE *json;		/**< JSON document, or NULL */
	FILE *csv;		/**< CSV rows, or NULL */
	bool histogram;		/**< draw histograms on @c out */
	unsigned int rows;	/**< rows written so far (JSON commas) */
	enum tp_kind kind;	/**< table kind of the current test */
	const char *test;	/**< engine name (CSV's first column) */
};

/** Print the table header (perftest's dashed line and column names). */
void tp_report_header(struct tp_report *rep, enum tp_kind kind, const char *test,
		      const struct tp_config *cfg);
/** Print one latency row (and its histogram when asked), to every sink. */
void tp_report_lat(struct tp_report *rep, const struct tp_lat_result *r);
/** Print one bandwidth row, to every sink. */
void tp_report_bw(struct tp_report *rep, const struct tp_bw_result *r);
/** Close the table (dashed line) and the JSON document. */
void tp_report_footer(struct tp_report *rep);
/** Draw a latency histogram on @p f. */
void tp_report_histogram(FILE *f, const struct tp_lat_result *r);

/* ---- options and knobs (tp_params.c) ---- */

/** Defaults: write_lat, 2 bytes, 1000 iterations, one QP, ... */
void tp_config_defaults(struct tp_config *cfg);

/**
 * Parse the application arguments (after EAL's "--"). Errors go to @p err with the option
 * named.
 * @return 0, 1 when --help was printed, -EINVAL.
 */
int tp_parse_args(struct tp_config *cfg, int argc, char **argv, FILE *err);

/**
 * Set one knob by name (the `set` command and the options share it).
 * @return 0, -ENOENT (no such knob), -EINVAL (bad value; a message on @p err).
 */
int tp_knob_set(struct tp_config *cfg, const char *knob, const char *value, FILE *err);

/** Print every knob with its value. */
void tp_knob_show(const struct tp_config *cfg, FILE *f);

/**
 * Check a configuration as a whole (sizes against the engine, depths, modes).
 * @return 0 or -EINVAL with a message on @p err.
 */
int tp_config_check(const struct tp_config *cfg, FILE *err);

/** Print the usage text. */
void tp_usage(FILE *f, const char *prog);

/**
 * CQ moderation of a bandwidth run, perftest's rule: cq_mod when it was given, else the post
 * list when it is longer than 1 (every list then ends with a signaled WR), else cq_mod's
 * default.
 */
uint32_t tp_cq_mod(const struct tp_config *cfg);

/**
 * The TX depth, post list and CQ moderation a test of @p kind runs with (the table header and
 * the JSON report these): a latency test keeps one WR in flight, posts one at a time and
 * signals every one (1, 1, 1); a bandwidth test uses tx_depth, post_list and tp_cq_mod().
 */
void tp_config_effective(const struct tp_config *cfg, enum tp_kind kind, uint32_t *tx_depth,
			 uint32_t *post_list, uint32_t *cq_mod);

struct rdmadev_cm_param;

/**
 * Two-process runs between two rdma-testpmds: the options both sides must share (test,
 * transport, QPs, sizes, iterations, MTU, atomic type), packed into the options message that
 * tp_xchg.c adds to perftest's exchange when both version fields carry its tag (its QPN field
 * is TP_OPTS_TAG).
 */
void tp_opts_pack(const struct tp_config *cfg, struct rdmadev_cm_param *p);

/**
 * Compare the peer's packed options (tp_opts_pack()) with ours; print one line per option that
 * differs on @p err, naming the option, our value and the peer's.
 * @return the number of options that differ, or -EPROTO when @p peer is not an options
 *         message (a line says so).
 */
int tp_opts_compare(const struct tp_config *cfg, const struct rdmadev_cm_param *peer,
		    FILE *err);

/** QPN field of the options message of the two-process exchange (no QP has it). */
#define TP_OPTS_TAG	0xfffffeu

/* ---- engines ---- */

struct tp_side;

/** A test engine: one per file (eng_*.c), like testpmd's forwarding engines. */
struct tp_engine {
	const char *name;		/**< "write_lat", ... */
	enum tp_kind kind;		/**< latency or bandwidth */
	uint8_t opcode;			/**< RDMADEV_WR_* the client posts */
	uint8_t rtt_factor;		/**< latency: samples per one-way (2) or 1 for reads */
	bool uses_recv;			/**< the server (and for ping-pong the client) receives */
	bool ud_ok;			/**< runs on UD QPs */
	/** Prepare one side for one message size (pre-post receives, reset counters). */
	int (*start)(struct tp_side *s);
	/** Make progress without blocking: 1 done, 0 more to do, negative errno on failure. */
	int (*step)(struct tp_side *s);
};

extern const struct tp_engine tp_eng_write_lat;	/**< RDMA write ping-pong */
extern const struct tp_engine tp_eng_read_lat;	/**< RDMA read request/response */
extern const struct tp_engine tp_eng_send_lat;	/**< send/receive ping-pong */
extern const struct tp_engine tp_eng_write_bw;	/**< RDMA write stream */
extern const struct tp_engine tp_eng_read_bw;	/**< RDMA read stream */
extern const struct tp_engine tp_eng_send_bw;	/**< send stream */
extern const struct tp_engine tp_eng_atomic_lat;	/**< fetch-add request/response */
extern const struct tp_engine tp_eng_atomic_bw;	/**< fetch-add stream */

/** Size of every atomic operation (bytes): the test size of the atomic engines. */
#define TP_ATOMIC_SIZE	8u

/** True for the atomic opcodes (their WRs name one 8-byte word, fetched into the SGE). */
static inline bool
tp_is_atomic(uint8_t opcode)
{
	return opcode == RDMADEV_WR_ATOMIC_FA || opcode == RDMADEV_WR_ATOMIC_CS;
}

/**
 * End of an atomic run (client): each QP's atomics on its own remote word (fetch-adds of 1,
 * or compare-and-swaps of k for k + 1 by the QP's k-th WR) returned 0, 1, 2 ... in order, so
 * the last old value, in the local word, is the QP's WR count - 1.
 * @return 1 when every QP's word says so, else the side's failure (logged).
 */
int tp_atomic_check(struct tp_side *s);

/** The engine called @p name, or NULL. */
const struct tp_engine *tp_engine_find(const char *name);
/** Engine names, space separated (for messages). */
const char *tp_engine_names(void);

/* ---- one side of a test (tp_setup.c, tp_fastpath.c) ---- */

/** Role of a side. */
enum tp_role {
	TP_CLIENT,	/**< posts the requests, takes the timestamps */
	TP_SERVER,	/**< answers (ping-pong) or receives */
};

/** What a side knows about the peer's QP. */
struct tp_remote {
	uint32_t qpn;		/**< peer QPN */
	uint32_t psn;		/**< peer initial PSN */
	uint8_t gid[16];	/**< peer GID */
	uint8_t mac[6];		/**< peer port MAC (AV destination) */
	uint32_t rkey;		/**< peer buffer's rkey */
	uint64_t addr;		/**< peer buffer's address */
	uint32_t out_reads;	/**< RDMA reads the peer accepts outstanding (0: in-process) */
};

/** One side: its device objects, its buffers, and an engine's counters. */
struct tp_side {
	enum tp_role role;			/**< client or server */
	const struct tp_config *cfg;		/**< configuration */
	const struct tp_engine *eng;		/**< engine of the current run */
	int16_t dev_id;				/**< device */
	const char *devargs;			/**< its devargs (the GID comes from ip=) */
	struct rdmadev_ctx *ctx;		/**< context */
	struct rdmadev_pd *pd;			/**< PD */
	struct rdmadev_cq *scq;			/**< send CQ (all QPs) */
	struct rdmadev_cq *rcq;			/**< receive CQ (all QPs) */
	struct rdmadev_qp *qp[TP_MAX_QPS];	/**< QPs */
	struct rdmadev_ah *ah[TP_MAX_QPS];	/**< UD: address of the peer QP */
	struct rdmadev_mr *mr;			/**< MR over buf */
	uint8_t *buf;				/**< per QP: [recv area | send area] */
	uint64_t buf_len;			/**< bytes of buf */
	uint32_t area;				/**< bytes of one area (largest size + UD GRH) */
	uint32_t nb_qps;			/**< QPs created */
	enum rdmadev_mtu xchg_mtu;		/**< two processes: the MTU both sides use */
	struct tp_remote remote[TP_MAX_QPS];	/**< peer QPs */
	struct tp_side *peer;			/**< the other side when in this process */
	struct tp_xchg *xchg;		/**< the connection to it in two processes */
	/* Per message size. */
	uint32_t size;				/**< message size */
	uint64_t iters;				/**< target (per side, all QPs) */
	uint64_t scnt;				/**< WRs posted */
	uint64_t ccnt;				/**< send completions accounted */
	uint64_t rcnt;				/**< receives (or responses seen) */
	uint64_t outstanding[TP_MAX_QPS];	/**< posted, not completed, per QP */
	uint64_t qp_posted[TP_MAX_QPS];		/**< posted per QP */
	uint32_t rx_posted[TP_MAX_QPS];		/**< receives posted and not consumed */
	uint32_t unsig[TP_MAX_QPS];		/**< unsignaled WRs since the last signaled */
	uint8_t seq;				/**< ping-pong: last byte value sent */
	bool waiting;				/**< ping-pong: a request is in flight */
	bool done;				/**< finished this size */
	uint32_t idle;				/**< UD receiver: empty polls after the client ended */
	uint32_t peeks;				/**< UD receiver, two processes: steps since the
						 *   last look at the connection */
	bool peer_finished;			/**< UD receiver: the client is done sending */
	uint32_t cq_mod;			/**< CQ moderation of this run (tp_cq_mod()) */
	uint64_t signaled;			/**< signaled WRs posted */
	uint64_t deadline;			/**< duration mode: tick to stop posting */
	uint64_t *tposted;			/**< client: post timestamps */
	uint64_t *tcompleted;			/**< client BW: completion timestamps */
	uint64_t nb_samples;			/**< capacity of tposted / tcompleted */
	uint64_t progress;			/**< bumps on every event (watchdog) */
	int error;				/**< first error, negative errno */
	char errmsg[320];			/**< what went wrong */
};

/** Length of perftest's QP record with a GID (KEY_MSG_SIZE_GID), its NUL included. */
#define TP_RECORD_LEN		108u

/** One QP record of perftest's exchange (its struct pingpong_dest, as sent). */
struct tp_record {
	uint32_t lid;		/**< LID (0 on RoCE) */
	uint32_t out_reads;	/**< RDMA reads the sender accepts outstanding */
	uint32_t qpn;		/**< QPN, 24 bits */
	uint32_t psn;		/**< initial PSN, 24 bits */
	uint32_t rkey;		/**< rkey of the buffer */
	uint64_t addr;		/**< address the peer writes to / reads from */
	uint8_t gid[16];	/**< GID */
	uint32_t srqn;		/**< SRQ number (XRC, DC; 0 here) */
};

/** The two-process connection (tp_xchg.c). */
struct tp_xchg {
	int fd;				/**< the connected TCP socket when up */
	bool up;			/**< connected */
	bool peer_is_tp;		/**< the peer is rdma-testpmd (took the options message) */
	bool patient;			/**< the next wait lasts while the peer works (tp_xchg.c) */
	char rem_version[16];		/**< the peer's version field */
	enum rdmadev_mtu mtu;		/**< path MTU both sides use (the smaller of the two) */
	struct rdmadev_xstat *xs;	/**< scratch for the device activity check */
	unsigned int nb_xs;		/**< entries of xs */
	/* -R (tp_rcm.c): the exchange's messages are SENDs on a control connection. */
	bool rcm;				/**< this connection is rdma_cm's */
	struct rdmadev_rcm_channel *ch;		/**< the CM channel of the device */
	struct rdmadev_rcm_id *cid;		/**< the control connection's id */
	struct rdmadev_rcm_id *tid[TP_MAX_QPS];	/**< the test QPs' ids */
	unsigned int nb_tid;			/**< test ids connected */
	uint32_t tid_down;			/**< bit i: tid[i] saw DISCONNECTED */
	uint32_t hello_qpn[TP_MAX_QPS];		/**< UD latency server: the client's QPN datagrams */
	struct rdmadev_cq *ccq;			/**< control QP's CQ (both directions) */
	struct rdmadev_qp *cqp;			/**< control QP */
	struct rdmadev_mr *cmr;			/**< over cbuf */
	uint8_t *cbuf;				/**< [send message | receive message] */
	bool disconnected;			/**< the control connection went down */
	bool held;				/**< held_wc: a receive completion taken early */
	struct rdmadev_wc held_wc;		/**< ... while waiting for a SEND's */
	struct rdmadev_rcm_event evq[8];	/**< events of other ids taken in a message wait */
	unsigned int nb_evq;			/**< events in evq */
};

/**
 * When a test exchanges what (perftest 4.5's ib_<test> main()). Every test sends its QP
 * records once before connecting its QPs and once after; "sync" is a handshake with QP 0's
 * record.
 */
struct tp_plan {
	bool lead_sync;			/**< a sync before the first records (write/read lat) */
	bool sync_after_connect_first;	/**< after connecting: sync, then the records (send) */
	bool sync_before_size;		/**< a sync before each size (receives are posted) */
	bool sync_after_size;		/**< a sync after each size (send_bw with -a) */
	bool server_passive;		/**< the server runs no size: it waits at the final sync */
	bool bw_report;			/**< the client sends its last BW row to the server */
	bool close;			/**< a final sync and "done" (all but write_lat) */
};

/** The whole program's state. */
struct tp_ctx {
	struct tp_config cfg;			/**< configuration */
	int16_t dev[TP_MAX_DEVS];		/**< open devices, -1 none */
	char dev_args[TP_MAX_DEVS][TP_DEVARGS_LEN];	/**< their devargs */
	unsigned int nb_dev;			/**< devices open */
	bool model;				/**< running on the device model */
	struct tp_side side[2];			/**< client [0], server [1] */
	unsigned int nb_sides;			/**< 2 in one process, 1 in two-process mode */
	struct tp_xchg xchg;			/**< two-process connection */
	bool ready;				/**< objects exist and QPs are connected */
	bool stale;				/**< a run failed: rebuild the objects first */
	struct tp_config shape;			/**< configuration the objects were built for */
	volatile bool stop;			/**< ask a run to stop (SIGINT, `stop`) */
	struct tp_report rep;			/**< output sinks */
	struct tp_bw_result last_bw;		/**< the client's last BW row (two processes) */
	FILE *out;				/**< where commands print */
};

/** Pick and open the devices (the first output line says which). @return 0 or -errno. */
int tp_devices_open(struct tp_ctx *t);
/** Create every object of the sides and connect their QPs. @return 0 or -errno. */
int tp_setup(struct tp_ctx *t);
/** True when the objects must be (re)built for the configuration (see tp_setup()). */
bool tp_needs_setup(const struct tp_ctx *t);
/** Destroy every object (safe on a partial setup). @return 0 or the first -errno. */
int tp_teardown(struct tp_ctx *t);
/** Stop and close the devices; returns the leaks rdmadev_close counted (>= 0) or -errno. */
int tp_devices_close(struct tp_ctx *t);
/** The QP whose number is @p qpn on any side, or NULL. */
struct rdmadev_qp *tp_find_qp(struct tp_ctx *t, uint32_t qpn);
/** The CQ whose number is @p cqn on any side, or NULL. */
struct rdmadev_cq *tp_find_cq(struct tp_ctx *t, uint32_t cqn);
/** Fill @p p with what QP @p i of side @p s tells its peer (QPN, PSN, GID, rkey, address). */
void tp_local_param(struct tp_side *s, uint32_t i, struct rdmadev_cm_param *p);

/* ---- the two-process exchange (tp_xchg.c) ---- */

/**
 * Connect to the peer (server: accept one client; client: connect, retrying while nobody
 * listens) and exchange the version, rdma-testpmd's options (when the peer is one), the system
 * data and the MTU. Errors are printed.
 * @return 0, -ETIMEDOUT, -EPROTO (not perftest's exchange), -EINVAL (options differ), socket
 *         errors.
 */
int tp_xchg_open(struct tp_ctx *t);
/**
 * One lockstep exchange of @p len bytes (the client sends first, the server receives first),
 * polling the device while it waits; @p what names the message in errors.
 * @return 0 or a negative errno (printed).
 */
int tp_xchg_raw(struct tp_ctx *t, const void *mine, void *theirs, size_t len, const char *what);
/**
 * Exchange the records of QP @p i: with @p store the peer's becomes s->remote[i], else it must
 * equal it. @return 0 or the side's failure.
 */
int tp_xchg_record(struct tp_ctx *t, struct tp_side *s, uint32_t i, bool store);
/** A handshake: exchange QP 0's records. @return 0 or the side's failure. */
int tp_xchg_sync(struct tp_ctx *t);
/** The final handshake, "done", and close (perftest's ctx_close_connection()). */
int tp_xchg_close(struct tp_ctx *t);
/**
 * True when the peer's next message has begun to arrive (a UD receiver learns so that the
 * client finished sending: it went on to its handshake). One poll() without waiting, or
 * with -R tp_rcm_pending().
 */
bool tp_xchg_pending(struct tp_xchg *x);
/* ---- -R: the exchange and the test QPs through rdma_cm (tp_rcm.c) ---- */

/** Bytes of a QP record on the rdma_cm exchange (perftest's struct pingpong_dest). */
#define TP_RCM_RECORD_LEN	56u

/**
 * Open the control connection (server: listen on the port, accept one client; client:
 * resolve and connect, retrying while nobody listens). @return 0 or a negative errno.
 */
int tp_rcm_open(struct tp_ctx *t);
/**
 * -R, a UD latency server: each test QP's QPN datagram from the client (taken while
 * connecting) against the client's record. @return 0 or the side's failure.
 */
int tp_rcm_hello_check(struct tp_ctx *t, struct tp_side *s);
/**
 * -R: true when the peer's next message has arrived on the control QP: one poll of its CQ,
 * a completion kept for tp_rcm_poll().
 */
bool tp_rcm_pending(struct tp_xchg *x);
/** Send one message of @p len bytes (at most TP_RCM_RECORD_LEN) on the control QP. */
int tp_rcm_send(struct tp_ctx *t, const void *buf, size_t len, const char *what);
/**
 * One look for the peer's next message: 1 and @p len bytes in @p buf when it arrived, 0 when
 * not yet, a negative errno when the connection failed or the message's length differs.
 */
int tp_rcm_poll(struct tp_ctx *t, void *buf, size_t len, const char *what);
/** Connect the test QPs of @p s through the CM (perftest's create_rdma_cm_connection()). */
int tp_rcm_connect_qps(struct tp_ctx *t, struct tp_side *s);
/** A QP record as perftest's rdma_write_keys() sends it (56 bytes, big endian). */
void tp_rcm_record_format(const struct tp_record *r, uint8_t out[TP_RCM_RECORD_LEN]);
/** Decode a record of tp_rcm_record_format(). */
void tp_rcm_record_parse(const uint8_t in[TP_RCM_RECORD_LEN], struct tp_record *r);
/** Disconnect and destroy every id, the control QP and the channel. */
void tp_rcm_end(struct tp_ctx *t);

/** Exchange BW reports (perftest's xchg_bw_reports()); @p mine NULL sends zeros. */
int tp_xchg_bw_report(struct tp_ctx *t, const struct tp_bw_result *mine,
		      struct tp_bw_result *theirs);
/** Close the connection (no message). */
void tp_xchg_end(struct tp_ctx *t);
/** What engine @p e exchanges when. */
void tp_xchg_plan(const struct tp_engine *e, struct tp_plan *p);
/** Record @p r as perftest's 108 bytes (KEY_PRINT_FMT_GID and the NUL). */
void tp_record_format(const struct tp_record *r, char out[TP_RECORD_LEN]);
/**
 * Parse a peer's record strictly (hex digits, ':' separators, the NUL); a line on @p err names
 * the first byte that is wrong. @return 0 or -EPROTO.
 */
int tp_record_parse(const char msg[TP_RECORD_LEN], struct tp_record *r, FILE *err);
/** The record QP @p i of side @p s sends. */
void tp_record_local(struct tp_side *s, uint32_t i, struct tp_record *r);

/** Record an error on a side (first one wins) and return @p rc. */
int tp_side_fail(struct tp_side *s, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- fast-path helpers shared by the engines (tp_fastpath.c) ---- */

/** Receive area of QP @p i. */
uint8_t *tp_recv_area(struct tp_side *s, uint32_t i);
/** Send area of QP @p i. */
uint8_t *tp_send_area(struct tp_side *s, uint32_t i);
/**
 * Post @p n WRs of the engine's opcode on QP @p i, @p size bytes each; the WR at position p
 * (counting scnt) is signaled when (p + 1) % cq_mod == 0 or it is the last of the test, or
 * always when @p signal_all. Records tposted when the side has room.
 * @return WRs posted, or a negative errno (recorded on the side).
 */
int tp_post(struct tp_side *s, uint32_t i, uint32_t n, bool signal_all);
/** Post receives on QP @p i until rx_depth are outstanding. @return 0 or -errno. */
int tp_fill_recv(struct tp_side *s, uint32_t i);
/**
 * Poll the send CQ: account completions (each signaled one covers the unsignaled WRs before
 * it), stamp tcompleted. @return completions seen, or a negative errno on an error status.
 */
int tp_poll_send(struct tp_side *s);
/** Poll the receive CQ; @p qp_hits counts receives per QP index. @return receives or -errno. */
int tp_poll_recv(struct tp_side *s, uint32_t *qp_hits);
/** Read the byte a ping-pong peer writes last (volatile). */
uint8_t tp_poll_byte(struct tp_side *s, uint32_t i);
/** Reset a side's counters for message size @p size. */
void tp_reset_side(struct tp_side *s, uint32_t size);
/** Change the iteration target of a side and of its in-process peer (duration runs). */
void tp_set_target(struct tp_side *s, uint64_t iters);
/** True when the side runs for a duration and its time is up. */
bool tp_deadline_passed(const struct tp_side *s);
/** Step of a side that only serves (RDMA read/write target): done when the client is. */
int tp_passive_step(struct tp_side *s);
/** Next ping-pong byte value (perftest's: the low byte of the iteration count). */
uint8_t tp_next_seq(uint8_t seq);
/** Step of a streaming client (the BW engines): keep tx_depth in flight, cq_mod signaling. */
int tp_stream_step(struct tp_side *s);
/** Engine start that has nothing to prepare. */
int tp_start_none(struct tp_side *s);
/** Step of the RDMA streams: the client streams, the server serves. */
int tp_rdma_stream_step(struct tp_side *s);

/* ---- runs (tp_run.c) ---- */

/**
 * Run the configured test: every size of the sweep, both sides, the reports.
 * @return 0, or a negative errno after printing why.
 */
int tp_run_test(struct tp_ctx *t);

/** Ticks (rte_rdtsc) and their rate. */
uint64_t tp_ticks(void);
/** Ticks per second. */
double tp_ticks_hz(void);

/* ---- interactive mode (tp_cmdline.c) ---- */

/**
 * Run --cmdline-file and then, with -i, the prompt.
 * @return 0, or a negative errno when a command failed in a file.
 */
int tp_cmdline_run(struct tp_ctx *t);

#endif /* RDMA_TESTPMD_H */
