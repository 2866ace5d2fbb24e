/*
 * Replays a trace of the replay/ (congestion-replay) language through the C ABI and
 * writes the same CSV as the host's `cargo run --example replay` (scripts/qemu.sh and
 * ffi/tests/c_firmware.rs compare them byte for byte). Linux mode (`congestion_linux_cubic_*`,
 * segments), RFC mode (`set mode rfc9438`: `congestion_rfc_cubic_*`, bytes) and NewReno (`set
 * mode newreno`: the same calls with CONGESTION_RFC_ALGORITHM_NEWRENO). Both modes use
 * the same event calls: `loss T [LOST [PN]]`, `ecn T [CE]`, `persistent T [LOST]`,
 * `discard T N`, `rto`, `undo`, `idle`, `send`. Runs on the host or, through newlib's
 * semihosting stdio, on an emulated Cortex-M4.
 *
 *   replay IN.events OUT.csv
 *
 * Linux-mode traces that use the send path (`xmit`, `txdone`, its `set` keys) get the
 * five send-path columns, through `congestion_linux_cubic_send_*`. `set` after `init`
 * reconfigures the running flow (`congestion_linux_cubic_reconfigure` on its parameter block,
 * `congestion_rfc_cubic_reconfigure`); the live
 * `set cwnd|ssthresh|clamp` has no C ABI call and is refused. Exit status 0 on success,
 * 2 on a bad or unsupported trace.
 * No heap of its own: each flow lives in a caller-owned state on the stack.
 */
#include "congestion.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Debian's newlib 3.3 with GCC 12 leaves the 64-bit PRI macros undefined (its
 * inttypes.h tests a macro that GCC's stdint.h does not set); int64_t is long long on
 * every target this program is built for. */
#ifndef PRIu64
#define PRIu64 "llu"
#define PRId64 "lld"
#endif

#define LINE_MAX_LEN 512

/* One parsed line: keyword, its first two words, up to 4 arguments as integers. */
typedef struct {
    char kw[32];
    char a1[64];
    char a2[64];
    long long num[4];
    int nums;
} Event;

static long line_no;

static void die(const char *what) {
    fprintf(stderr, "replay: %s (events line %ld)\n", what, line_no);
    exit(2);
}

static void check(int32_t rc, const char *call) {
    if (rc != CONGESTION_OK) {
        fprintf(stderr, "replay: %s returned %d (events line %ld)\n", call, (int)rc, line_no);
        exit(2);
    }
}

/* Reads the next event; 0 at the end of the file. Skips blank lines and comments. */
static int next_event(FILE *in, Event *ev) {
    char line[LINE_MAX_LEN];
    while (fgets(line, sizeof line, in)) {
        line_no++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0) continue;
        memset(ev, 0, sizeof *ev);
        if (sscanf(p, "%31s %63s %63s", ev->kw, ev->a1, ev->a2) < 1) continue;
        int n = sscanf(p, "%*s %lld %lld %lld %lld", &ev->num[0], &ev->num[1], &ev->num[2],
                       &ev->num[3]);
        ev->nums = n < 0 ? 0 : n;
        return 1;
    }
    return 0;
}

static int is_set(const Event *ev, const char *key) {
    return !strcmp(ev->kw, "set") && !strcmp(ev->a1, key);
}

/* ---- Linux mode ---------------------------------------------------------------- */

static const char LINUX_HEADER[] =
    "idx,ev,t_us,jiffies,cwnd,ssthresh,cwnd_cnt,ca_state,cnt,last_max_cwnd,last_cwnd,"
    "last_time,origin_point,bic_K,delay_min,epoch_start,ack_cnt,tcp_cwnd,found,sample_cnt,"
    "round_start,end_seq,last_ack,curr_rtt,snd_una,snd_nxt,packets_out,is_cwnd_limited,"
    "max_packets_out,srtt_us,pacing_rate,prior_cwnd,prior_ssthresh,hs_reason";

static int linux_set(CongestionLinuxCubicConfig *c, const char *key, uint64_t v) {
    uint32_t v32 = (uint32_t)v;
    uint8_t flag = v != 0;
    if (v > UINT32_MAX && strcmp(key, "max_pacing_rate") != 0) return -1;
    if (!strcmp(key, "beta")) c->beta = v32;
    else if (!strcmp(key, "bic_scale")) c->bic_scale = v32;
    else if (!strcmp(key, "fast_convergence")) c->fast_convergence = flag;
    else if (!strcmp(key, "tcp_friendliness")) c->tcp_friendliness = flag;
    else if (!strcmp(key, "hystart")) c->hystart = flag;
    else if (!strcmp(key, "hystart_detect")) c->hystart_detect = (uint8_t)(v > 255 ? 255 : v);
    else if (!strcmp(key, "hystart_low_window")) c->hystart_low_window = v32;
    else if (!strcmp(key, "hystart_ack_delta_us")) c->hystart_ack_delta_us = v32;
    else if (!strcmp(key, "initial_ssthresh")) c->initial_ssthresh = v32;
    else if (!strcmp(key, "init_cwnd")) c->init_cwnd = v32;
    else if (!strcmp(key, "init_ssthresh")) c->init_ssthresh = v32;
    else if (!strcmp(key, "cwnd_clamp")) c->cwnd_clamp = v32;
    else if (!strcmp(key, "mss")) c->mss = v32;
    else if (!strcmp(key, "srtt_us")) c->initial_srtt_us = v32;
    else if (!strcmp(key, "iss")) c->iss = v32;
    else if (!strcmp(key, "pacing_status")) c->pacing_status = (uint8_t)(v > 255 ? 255 : v);
    else if (!strcmp(key, "gso_max_size")) c->gso_max_size = v32;
    else if (!strcmp(key, "max_pacing_rate")) c->max_pacing_rate = v;
    else if (!strcmp(key, "pacing_ss_ratio")) c->pacing_ss_ratio = v32;
    else if (!strcmp(key, "pacing_ca_ratio")) c->pacing_ca_ratio = v32;
    else if (!strcmp(key, "model_pacing")) c->model_pacing = flag;
    else if (!strcmp(key, "tsq_limit")) c->tsq_limit_bytes = v32;
    else if (!strcmp(key, "truesize_overhead")) c->truesize_overhead_bytes = v32;
    else if (!strcmp(key, "gso_max_segs")) c->gso_max_segs = v32;
    else if (!strcmp(key, "min_tso_segs")) c->min_tso_segs = v32;
    else return -1;
    return 0;
}

/* Whether an event is one of the send path's (its events, or its own `set` keys; not
 * gso_max_size, which HyStart's traces set too). Only then are its columns printed. */
static int is_send_path(const Event *ev) {
    if (!strcmp(ev->kw, "xmit") || !strcmp(ev->kw, "txdone")) return 1;
    return is_set(ev, "tsq_limit") || is_set(ev, "truesize_overhead") ||
           is_set(ev, "gso_max_segs") || is_set(ev, "min_tso_segs");
}

/* What the send-path columns print: the departure time of the last queued packet and
 * the length of the last `xmit` (the TSQ limit is for a packet of that size). */
typedef struct {
    uint64_t last_departure_ns;
    uint32_t last_len;
} SendColumns;

static void send_columns(FILE *out, int initialised, const CongestionLinuxCubicState *s,
                         const SendColumns *c) {
    if (!initialised) {
        fputs(",0,0,0,0,0", out);
        return;
    }
    uint64_t queued, limit;
    uint8_t throttled;
    uint32_t tso;
    check(congestion_linux_cubic_send_tsq(s, c->last_len, &queued, &limit, &throttled),
          "congestion_linux_cubic_send_tsq");
    check(congestion_linux_cubic_send_tso_segs(s, &tso), "congestion_linux_cubic_send_tso_segs");
    fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu32, c->last_departure_ns, queued,
            limit, (unsigned)throttled, tso);
}

static void linux_row(FILE *out, long idx, const char *ev, int initialised,
                      const CongestionLinuxCubicState *s, uint64_t t_us, const SendColumns *send) {
    if (!initialised) {
        fprintf(out, "%ld,%s", idx, ev);
        for (int i = 0; i < 32; i++) fputs(",0", out);
        if (send) send_columns(out, 0, s, send);
        fputc('\n', out);
        return;
    }
    CongestionLinuxCubicSnapshot v;
    check(congestion_linux_cubic_snapshot(s, &v), "congestion_linux_cubic_snapshot");
    fprintf(out,
            "%ld,%s,%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
            ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
            ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
            ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
            ",%" PRIu32 ",%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32,
            idx, ev, t_us, (uint32_t)(t_us / 1000), v.cwnd, v.ssthresh, v.cwnd_cnt, v.ca_state,
            v.cnt, v.last_max_cwnd, v.last_cwnd, v.last_time, v.origin_point, v.bic_k,
            v.delay_min, v.epoch_start, v.ack_cnt, v.tcp_cwnd, v.found, v.sample_cnt,
            v.round_start, v.end_seq, v.last_ack, v.curr_rtt, v.snd_una, v.snd_nxt,
            v.packets_out, v.is_cwnd_limited, v.max_packets_out, v.srtt_us_x8, v.pacing_rate,
            v.prior_cwnd, v.prior_ssthresh, v.hystart_exit);
    if (send) send_columns(out, 1, s, send);
    fputc('\n', out);
}

/* Initialises the flow at `t` on the parameters `c` (validated into `p`, the one block
 * the flow reads them from) and sends `n` segments (the initial cwnd if n < 0). */
static void linux_init(CongestionLinuxCubicState *s, CongestionLinuxCubicParams *p,
                       const CongestionLinuxCubicConfig *c, uint64_t t, long long n) {
    check(congestion_linux_cubic_params_init(p, sizeof *p, c), "congestion_linux_cubic_params_init");
    check(congestion_linux_cubic_init(s, sizeof *s, p, t), "congestion_linux_cubic_init");
    uint64_t cwnd = 0;
    check(congestion_linux_cubic_cwnd(s, &cwnd), "congestion_linux_cubic_cwnd");
    uint64_t sent = n < 0 ? cwnd : (uint32_t)n;
    check(congestion_linux_cubic_on_sent(s, t, sent, sent), "congestion_linux_cubic_on_sent");
}

/* The optional arguments of `loss T [LOST [NEWEST]]`, `ecn T [CE]`, `persistent T [LOST]`:
 * the amount (0 without one) and the newest packet (unknown without one). */
static uint64_t amount_arg(const Event *ev) {
    if (ev->nums >= 2 && ev->num[1] < 0) die("a negative amount");
    return ev->nums >= 2 ? (uint64_t)ev->num[1] : 0;
}
static uint64_t newest_arg(const Event *ev) {
    if (ev->nums >= 3 && ev->num[2] < 0) die("a negative packet number");
    return ev->nums >= 3 ? (uint64_t)ev->num[2] : CONGESTION_PACKET_UNKNOWN;
}

static void replay_linux(FILE *in, FILE *out, int send_path) {
    CongestionLinuxCubicConfig config;
    CongestionLinuxCubicParams params;
    CongestionLinuxCubicState state;
    SendColumns columns = {0, 0};
    const SendColumns *send = send_path ? &columns : NULL;
    check(congestion_linux_cubic_config_default(&config), "congestion_linux_cubic_config_default");
    int initialised = 0;
    uint64_t now = 0;
    long idx = 0;
    Event ev;
    fprintf(out, "%s%s\n", LINUX_HEADER,
            send_path ? ",departure_ns,tsq_queued,tsq_limit,tsq_throttled,tso_segs" : "");
    while (next_event(in, &ev)) {
        idx++;
        long long *x = ev.num;
        if (is_set(&ev, "mode")) {
            /* `set mode linux` only names the default. */
        } else if (!strcmp(ev.kw, "set")) {
            unsigned long long v;
            if (sscanf(ev.a2, "%llu", &v) != 1) die("set needs a value");
            if (linux_set(&config, ev.a1, v) != 0) die("unknown set key");
            if (initialised)
                check(congestion_linux_cubic_reconfigure(&params, &config), "congestion_linux_cubic_reconfigure");
        } else {
            if (ev.nums < 1 || x[0] < 0) die("event needs a time");
            now = (uint64_t)x[0];
            if (!strcmp(ev.kw, "init")) {
                linux_init(&state, &params, &config, now, ev.nums >= 2 ? x[1] : -1);
                initialised = 1;
            } else {
                if (!initialised) {
                    linux_init(&state, &params, &config, now, -1);
                    initialised = 1;
                }
                if (!strcmp(ev.kw, "ack")) {
                    if (ev.nums < 4) die("ack needs T ACKED RTT INFLIGHT");
                    int64_t rtt = (int32_t)x[2]; /* RTT -1 (any negative s32): no sample */
                    /* The trace names no cumulative ACK (largest_acked unknown: snd_una moves
                     * by ACKED) and no snd_nxt (largest_sent snd_una + INFLIGHT, never ahead
                     * of the flow's own): the flow keeps both as the kernel-style calls do. */
                    check(congestion_linux_cubic_on_ack(&state, now, (uint32_t)x[1], CONGESTION_PACKET_UNKNOWN,
                                                        rtt < 0 ? -1 : rtt, 0),
                          "congestion_linux_cubic_on_ack");
                    CongestionLinuxCubicSnapshot v;
                    check(congestion_linux_cubic_snapshot(&state, &v), "congestion_linux_cubic_snapshot");
                    uint64_t snd_nxt = (uint32_t)(v.snd_una + (uint32_t)x[3]);
                    check(congestion_linux_cubic_on_sent(&state, now, (uint32_t)x[3], snd_nxt),
                          "congestion_linux_cubic_on_sent");
                } else if (!strcmp(ev.kw, "loss")) {
                    /* `loss T` alone: one congestion event (the kernel's fast retransmit). */
                    check(congestion_linux_cubic_on_loss(&state, now, amount_arg(&ev), newest_arg(&ev)),
                          "congestion_linux_cubic_on_loss");
                } else if (!strcmp(ev.kw, "ecn")) {
                    if (ev.nums < 2) {
                        check(congestion_linux_cubic_on_ecn(&state, now, 1, CONGESTION_PACKET_UNKNOWN),
                              "congestion_linux_cubic_on_ecn");
                    } else { /* judged by the last acknowledged sequence, snd_una */
                        CongestionLinuxCubicSnapshot v;
                        check(congestion_linux_cubic_snapshot(&state, &v), "congestion_linux_cubic_snapshot");
                        check(congestion_linux_cubic_on_ecn(&state, now, amount_arg(&ev), v.snd_una),
                              "congestion_linux_cubic_on_ecn");
                    }
                } else if (!strcmp(ev.kw, "persistent")) {
                    check(congestion_linux_cubic_on_persistent_congestion(&state, now, amount_arg(&ev)),
                          "congestion_linux_cubic_on_persistent_congestion");
                } else if (!strcmp(ev.kw, "discard")) {
                    if (ev.nums < 2) die("discard needs T N");
                    check(congestion_linux_cubic_on_discarded(&state, now, amount_arg(&ev)),
                          "congestion_linux_cubic_on_discarded");
                } else if (!strcmp(ev.kw, "rto")) {
                    check(congestion_linux_cubic_on_rto_retransmitted(&state, now,
                                                                ev.nums >= 2 ? (uint32_t)x[1] : 1),
                          "congestion_linux_cubic_on_rto_retransmitted");
                } else if (!strcmp(ev.kw, "undo")) {
                    check(congestion_linux_cubic_on_spurious(&state, now), "congestion_linux_cubic_on_spurious");
                } else if (!strcmp(ev.kw, "idle")) {
                    if (ev.nums >= 2)
                        check(congestion_linux_cubic_set_last_send_jiffies(&state,
                                                                     (uint32_t)((uint64_t)x[1] / 1000)),
                              "congestion_linux_cubic_set_last_send_jiffies");
                    check(congestion_linux_cubic_on_transmit_start(&state, now),
                          "congestion_linux_cubic_on_transmit_start");
                } else if (!strcmp(ev.kw, "send")) {
                    if (ev.nums < 2) die("send needs N");
                    check(congestion_linux_cubic_on_sent_counted(&state, now, (uint32_t)x[1], 0),
                          "congestion_linux_cubic_on_sent_counted");
                } else if (send_path && !strcmp(ev.kw, "xmit")) {
                    CongestionLinuxCubicSnapshot v;
                    if (ev.nums < 2 || x[1] < 0 || x[1] > UINT32_MAX) die("xmit needs BYTES");
                    check(congestion_linux_cubic_snapshot(&state, &v), "congestion_linux_cubic_snapshot");
                    uint32_t len = (uint32_t)x[1], mss = config.mss ? config.mss : 1;
                    uint32_t segments = len / mss + (len % mss != 0); /* tcp_skb_pcount */
                    uint64_t departure_ns;
                    int32_t rc = congestion_linux_cubic_send_enqueue(&state, now, len, segments ? segments : 1,
                                                               0, v.packets_out <= 1, &departure_ns);
                    if (rc == CONGESTION_OK) columns.last_departure_ns = departure_ns;
                    else if (rc != CONGESTION_THROTTLED) check(rc, "congestion_linux_cubic_send_enqueue");
                    columns.last_len = len;
                } else if (send_path && !strcmp(ev.kw, "txdone")) {
                    uint8_t reopened;
                    if (ev.nums < 2 || x[1] < 0 || x[1] > UINT32_MAX) die("txdone needs BYTES");
                    check(congestion_linux_cubic_send_tx_completion(&state, (uint32_t)x[1], &reopened),
                          "congestion_linux_cubic_send_tx_completion");
                } else {
                    die("unknown event");
                }
            }
        }
        linux_row(out, idx, ev.kw, initialised, &state, now, send);
    }
}

/* ---- RFC mode (CUBIC or NewReno) ------------------------------------------------ */

static const char RFC_HEADER[] =
    "idx,ev,t_us,cwnd,ssthresh,phase,w_max,k_us,w_est,cwnd_prior,t_epoch_us,cwnd_epoch,"
    "in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";
/* NewReno's own columns (bytes_acked, cwnd_prior) stand where CUBIC's six do. */
static const char NEWRENO_HEADER[] =
    "idx,ev,t_us,cwnd,ssthresh,phase,bytes_acked,cwnd_prior,"
    "in_flight,srtt_us,min_rtt_us,cwnd_limited,css_rounds,mss";

static void rfc_row(FILE *out, long idx, const char *ev, int initialised, int newreno,
                    const CongestionRfcCubicState *s, uint64_t t_us) {
    static const char *const phases[] = {"ss", "css", "ca", "recovery"};
    if (!initialised) {
        fprintf(out, "%ld,%s,0,0,0,ss,%s0,0,-1,0,0,0\n", idx, ev,
                newreno ? "0,0," : "0,0,0,0,-1,0,");
        return;
    }
    CongestionRfcCubicSnapshot v;
    check(congestion_rfc_cubic_snapshot(s, &v), "congestion_rfc_cubic_snapshot");
    /* ssthresh "none" prints as CONGESTION_SSTHRESH_NONE, 18446744073709551615. */
    fprintf(out, "%ld,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,", idx, ev, t_us, v.cwnd_bytes,
            v.ssthresh_bytes, phases[v.phase & 3]);
    if (newreno)
        fprintf(out, "%" PRIu64 ",%" PRIu64 ",", v.bytes_acked, v.cwnd_prior_bytes);
    else
        fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",",
                v.w_max_bytes, v.k_us, v.w_est_bytes, v.cwnd_prior_bytes, v.epoch_start_us,
                v.cwnd_epoch_bytes);
    fprintf(out, "%" PRIu64 ",%" PRIu64 ",", v.in_flight_bytes, v.srtt_us);
    if (v.min_rtt_us == UINT64_MAX) fputs("-1", out);
    else fprintf(out, "%" PRIu64, v.min_rtt_us);
    fprintf(out, ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 "\n", v.cwnd_limited, v.css_rounds, v.mss_bytes);
}

static int rfc_set(CongestionRfcCubicConfig *c, const char *key, const char *word) {
    if (!strcmp(key, "slow_start")) {
        if (!strcmp(word, "off")) c->slow_start = CONGESTION_RFC_SLOW_START_STANDARD;
        else if (!strcmp(word, "hystart")) c->slow_start = CONGESTION_RFC_SLOW_START_LINUX_HYSTART;
        else if (!strcmp(word, "hystartpp")) c->slow_start = CONGESTION_RFC_SLOW_START_HYSTART_PLUS_PLUS;
        else return -1;
        return 0;
    }
    unsigned long long v;
    if (sscanf(word, "%llu", &v) != 1) return -1;
    if (!strcmp(key, "mss")) c->mss_bytes = v;
    else if (!strcmp(key, "paced")) c->paced = v != 0;
    else if (!strcmp(key, "init_cwnd")) c->initial_window_bytes = v;
    else if (!strcmp(key, "init_ssthresh")) c->initial_ssthresh_bytes = v;
    else if (v > UINT32_MAX) return -1;
    else if (!strcmp(key, "beta")) c->beta_permille = (uint32_t)v;
    else if (!strcmp(key, "ecn_beta")) c->ecn_beta_permille = (uint32_t)v;
    else if (!strcmp(key, "c")) c->c_permille = (uint32_t)v;
    else if (!strcmp(key, "fast_convergence")) c->fast_convergence = v != 0;
    else if (!strcmp(key, "reno_friendly")) c->reno_friendly = v != 0;
    else return -1;
    return 0;
}

typedef struct {
    CongestionRfcCubicState state;
    CongestionRfcCubicParams params; /* the flow's settings, validated; the state refers to them */
    uint64_t snd_una, snd_nxt;
} RfcReplay;

/* Initialises the flow at `t` on the settings `c` and sends `bytes` (the initial window
 * if bytes < 0). */
static void rfc_init(RfcReplay *r, const CongestionRfcCubicConfig *c, uint64_t t, long long bytes) {
    check(congestion_rfc_cubic_params_init(&r->params, sizeof r->params, c), "congestion_rfc_cubic_params_init");
    check(congestion_rfc_cubic_init(&r->state, sizeof r->state, &r->params, t), "congestion_rfc_cubic_init");
    uint64_t n = 0;
    check(congestion_rfc_cubic_cwnd(&r->state, &n), "congestion_rfc_cubic_cwnd");
    if (bytes >= 0) n = (uint64_t)bytes;
    r->snd_una = 0;
    r->snd_nxt = n;
    check(congestion_rfc_cubic_on_sent(&r->state, t, n, n), "congestion_rfc_cubic_on_sent");
}

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static void replay_rfc(FILE *in, FILE *out, int newreno) {
    CongestionRfcCubicConfig config;
    RfcReplay r;
    check(congestion_rfc_cubic_config_default(&config), "congestion_rfc_cubic_config_default");
    config.algorithm = newreno ? CONGESTION_RFC_ALGORITHM_NEWRENO : CONGESTION_RFC_ALGORITHM_CUBIC;
    int initialised = 0;
    uint64_t now = 0;
    long idx = 0;
    Event ev;
    fprintf(out, "%s\n", newreno ? NEWRENO_HEADER : RFC_HEADER);
    while (next_event(in, &ev)) {
        idx++;
        long long *x = ev.num;
        if (is_set(&ev, "mode")) {
            /* the mode this replay runs */
        } else if (!strcmp(ev.kw, "set")) {
            if (rfc_set(&config, ev.a1, ev.a2) != 0) die("unknown set key or bad value");
            if (initialised)
                check(congestion_rfc_cubic_reconfigure(&r.params, &r.state, &config),
                      "congestion_rfc_cubic_reconfigure");
        } else {
            if (ev.nums < 1 || x[0] < 0) die("event needs a time");
            now = (uint64_t)x[0];
            if (!strcmp(ev.kw, "init")) {
                rfc_init(&r, &config, now, ev.nums >= 2 ? x[1] : -1);
                initialised = 1;
            } else {
                if (!initialised) {
                    rfc_init(&r, &config, now, -1);
                    initialised = 1;
                }
                CongestionRfcCubicState *s = &r.state;
                if (!strcmp(ev.kw, "ack")) {
                    if (ev.nums < 4 || x[1] < 0 || x[3] < 0) die("ack needs T ACKED RTT INFLIGHT");
                    uint64_t acked = (uint64_t)x[1], in_flight = (uint64_t)x[3];
                    r.snd_una = saturating_add(r.snd_una, acked);
                    /* Nothing acknowledged yet: the ACK names no byte (0 would be byte 0). */
                    uint64_t largest = r.snd_una ? r.snd_una : CONGESTION_PACKET_UNKNOWN;
                    check(congestion_rfc_cubic_on_ack(s, now, acked, largest, x[2], 0), "congestion_rfc_cubic_on_ack");
                    uint64_t end = saturating_add(r.snd_una, in_flight);
                    if (end > r.snd_nxt) r.snd_nxt = end;
                    check(congestion_rfc_cubic_on_sent(s, now, in_flight, r.snd_nxt), "congestion_rfc_cubic_on_sent");
                } else if (!strcmp(ev.kw, "loss")) {
                    /* `loss T` alone: one congestion event, as it always meant. */
                    check(congestion_rfc_cubic_on_loss(s, now, amount_arg(&ev), newest_arg(&ev)),
                          "congestion_rfc_cubic_on_loss");
                } else if (!strcmp(ev.kw, "ecn")) {
                    /* `ecn T`: one CE mark, a new event; `ecn T CE`: judged by snd_una. */
                    if (ev.nums < 2)
                        check(congestion_rfc_cubic_on_ecn(s, now, 1, CONGESTION_PACKET_UNKNOWN),
                              "congestion_rfc_cubic_on_ecn");
                    else
                        check(congestion_rfc_cubic_on_ecn(s, now, amount_arg(&ev), r.snd_una),
                              "congestion_rfc_cubic_on_ecn");
                } else if (!strcmp(ev.kw, "rto")) {
                    check(congestion_rfc_cubic_on_rto(s, now), "congestion_rfc_cubic_on_rto");
                } else if (!strcmp(ev.kw, "persistent")) {
                    check(congestion_rfc_cubic_on_persistent_congestion(s, now, amount_arg(&ev)),
                          "congestion_rfc_cubic_on_persistent_congestion");
                } else if (!strcmp(ev.kw, "discard")) {
                    if (ev.nums < 2) die("discard needs T BYTES");
                    check(congestion_rfc_cubic_on_discarded(s, now, amount_arg(&ev)), "congestion_rfc_cubic_on_discarded");
                } else if (!strcmp(ev.kw, "undo")) {
                    check(congestion_rfc_cubic_on_spurious(s, now), "congestion_rfc_cubic_on_spurious");
                } else if (!strcmp(ev.kw, "idle")) {
                    check(congestion_rfc_cubic_on_transmit_start(s, now), "congestion_rfc_cubic_on_transmit_start");
                } else if (!strcmp(ev.kw, "send")) {
                    if (ev.nums < 2 || x[1] < 0) die("send needs BYTES");
                    r.snd_nxt = saturating_add(r.snd_nxt, (uint64_t)x[1]);
                    check(congestion_rfc_cubic_on_sent_counted(s, now, (uint64_t)x[1], r.snd_nxt),
                          "congestion_rfc_cubic_on_sent_counted");
                } else {
                    die("unknown event");
                }
            }
        }
        rfc_row(out, idx, ev.kw, initialised, newreno, &r.state, now);
    }
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: replay IN.events OUT.csv\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    FILE *out = fopen(argv[2], "w");
    if (!in || !out) {
        fprintf(stderr, "replay: cannot open %s or %s\n", argv[1], argv[2]);
        return 2;
    }
    /* The first `set mode NAME` chooses the mode, Linux by default; send-path events
     * anywhere add the send-path columns. */
    Event ev;
    int rfc = 0, newreno = 0, mode_seen = 0, send_path = 0;
    while (next_event(in, &ev)) {
        if (!mode_seen && is_set(&ev, "mode")) {
            mode_seen = 1;
            if (!strcmp(ev.a2, "rfc9438")) rfc = 1;
            else if (!strcmp(ev.a2, "newreno")) rfc = newreno = 1;
            else if (strcmp(ev.a2, "linux") != 0) die("unknown mode: linux, rfc9438 or newreno");
        }
        send_path |= is_send_path(&ev);
    }
    rewind(in);
    line_no = 0;
    if (rfc) replay_rfc(in, out, newreno);
    else replay_linux(in, out, send_path);
    if (fclose(out) != 0) return 2;
    fclose(in);
    return 0;
}
