/*
 * Replays a Linux CUBIC reference trace (tests/data/linux-cubic/NAME.events) through
 * the C ABI and checks every row against the expected CSV (already decompressed).
 *
 *   replay NAME.events NAME.expected.csv
 *
 * Mirrors tests/replay/linux.rs: `set` fills the config before `init`; an event before
 * any `init` initialises implicitly at its time (and prints no row of its own); `ack T
 * ACKED RTT INFLIGHT` is an ACK then the transmit step; `send T N` transmits N more;
 * `idle T [LSND_US]` sets the last send time then signals transmit start.
 * Exit status 0 when every row matches, 1 on the first difference, 2 on bad input.
 * Uses no heap: the flow lives in a CongestionState on the stack.
 */
#include "congestion.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 512
#define ROW_MAX_LEN 1024

static int fail(const char *what, long line) {
    fprintf(stderr, "replay: %s (events line %ld)\n", what, line);
    return 2;
}

static int check(int32_t rc, const char *call, long line) {
    if (rc != CONGESTION_OK) {
        fprintf(stderr, "replay: %s returned %d (events line %ld)\n", call, (int)rc, line);
        exit(2);
    }
    return 0;
}

/* Applies `set KEY VALUE` to the configuration. */
static int set_key(CongestionConfig *c, const char *key, uint64_t v) {
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
    else return -1;
    return 0;
}

/* Writes the CSV row of event `idx` (all zeros before the first init). */
static void write_row(char *out, size_t n, long idx, const char *ev, int initialised,
                      const CongestionState *s, uint64_t t_us, long line) {
    if (!initialised) {
        int k = snprintf(out, n, "%ld,%s", idx, ev);
        for (int i = 0; i < 32 && k > 0 && (size_t)k < n; i++) k += snprintf(out + k, n - (size_t)k, ",0");
        return;
    }
    CongestionLinuxSnapshot v;
    check(congestion_linux_snapshot(s, &v), "congestion_linux_snapshot", line);
    snprintf(out, n,
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
}

/* Initialises the flow at `t` and transmits `n` segments (the init's cwnd if n < 0). */
static void init_flow(CongestionState *s, const CongestionConfig *c, uint64_t t, long long n,
                      long line) {
    int32_t rc = congestion_init(s, c, t);
    if (rc != CONGESTION_OK) {
        fprintf(stderr, "replay: congestion_init refused the config: %d (line %ld)\n", (int)rc, line);
        exit(2);
    }
    uint32_t cwnd = 0;
    check(congestion_cwnd(s, &cwnd), "congestion_cwnd", line);
    check(congestion_on_transmit(s, t, n < 0 ? cwnd : (uint32_t)n), "congestion_on_transmit", line);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: replay NAME.events NAME.expected.csv\n");
        return 2;
    }
    FILE *events = fopen(argv[1], "r");
    FILE *expected = fopen(argv[2], "r");
    if (!events || !expected) return fail("cannot open input", 0);

    CongestionConfig config;
    CongestionState state;
    if (congestion_config_default(&config) != CONGESTION_OK) return fail("config_default", 0);
    int initialised = 0;
    uint64_t now_us = 0;
    char line[LINE_MAX_LEN], want[ROW_MAX_LEN], got[ROW_MAX_LEN];
    long line_no = 0, idx = 0;

    if (!fgets(want, sizeof want, expected)) return fail("empty expected CSV", 0); /* header */
    while (fgets(line, sizeof line, events)) {
        line_no++;
        char kw[32] = {0}, a1[64] = {0};
        long long t = 0, x = 0, y = 0, z = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0) continue;
        int words = sscanf(p, "%31s %63s", kw, a1);
        if (words < 1) continue;
        idx++;
        if (!strcmp(kw, "set")) {
            unsigned long long v = 0;
            if (sscanf(p, "%*s %*s %llu", &v) != 1) return fail("set needs a value", line_no);
            if (initialised) return fail("set after init is not supported by this replay", line_no);
            if (set_key(&config, a1, (uint64_t)v) != 0) return fail("unknown set key", line_no);
        } else {
            int n = sscanf(p, "%*s %lld %lld %lld %lld", &t, &x, &y, &z);
            if (n < 1 || t < 0) return fail("event needs a time", line_no);
            now_us = (uint64_t)t;
            if (!strcmp(kw, "init")) {
                init_flow(&state, &config, now_us, n >= 2 ? x : -1, line_no);
                initialised = 1;
            } else {
                if (!initialised) {
                    init_flow(&state, &config, now_us, -1, line_no);
                    initialised = 1;
                }
                if (!strcmp(kw, "ack")) {
                    if (n < 4) return fail("ack needs T ACKED RTT INFLIGHT", line_no);
                    /* RTT -1 (any negative s32): no sample. */
                    int64_t rtt = (int32_t)y;
                    check(congestion_on_ack(&state, now_us, (uint32_t)x, rtt < 0 ? -1 : rtt),
                          "congestion_on_ack", line_no);
                    check(congestion_on_transmit(&state, now_us, (uint32_t)z), "congestion_on_transmit",
                          line_no);
                } else if (!strcmp(kw, "loss")) {
                    check(congestion_on_loss(&state, now_us), "congestion_on_loss", line_no);
                } else if (!strcmp(kw, "ecn")) {
                    check(congestion_on_ecn(&state, now_us), "congestion_on_ecn", line_no);
                } else if (!strcmp(kw, "rto")) {
                    check(congestion_on_rto(&state, now_us, n >= 2 ? (uint32_t)x : 1), "congestion_on_rto",
                          line_no);
                } else if (!strcmp(kw, "undo")) {
                    check(congestion_on_undo(&state, now_us), "congestion_on_undo", line_no);
                } else if (!strcmp(kw, "idle")) {
                    if (n >= 2)
                        check(congestion_set_last_send_jiffies(&state, (uint32_t)((uint64_t)x / 1000)),
                              "congestion_set_last_send_jiffies", line_no);
                    check(congestion_on_transmit_start(&state, now_us), "congestion_on_transmit_start",
                          line_no);
                } else if (!strcmp(kw, "send")) {
                    CongestionLinuxSnapshot v;
                    if (n < 2) return fail("send needs N", line_no);
                    check(congestion_linux_snapshot(&state, &v), "congestion_linux_snapshot", line_no);
                    check(congestion_on_transmit(&state, now_us, v.packets_out + (uint32_t)x),
                          "congestion_on_transmit", line_no);
                } else {
                    return fail("unknown event", line_no);
                }
            }
        }
        write_row(got, sizeof got, idx, kw, initialised, &state, now_us, line_no);
        if (!fgets(want, sizeof want, expected)) {
            fprintf(stderr, "replay: expected CSV ends before event %ld\n", idx);
            return 1;
        }
        want[strcspn(want, "\r\n")] = 0;
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "replay: row %ld differs\n  got  %s\n  want %s\n", idx, got, want);
            return 1;
        }
    }
    if (fgets(want, sizeof want, expected)) {
        fprintf(stderr, "replay: expected CSV has rows beyond event %ld\n", idx);
        return 1;
    }
    printf("%ld rows match\n", idx);
    return 0;
}
