/*
 * Replays a Linux BBR v1 kernel trace (tests/data/linux-bbr/NAME.events, the event
 * language of its README) through the C ABI's scoreboard calls
 * (congestion_linux_bbr_init, _on_send, _on_app_limited, _on_ack, _on_rto) as a TCP
 * stack written in C would drive them: the stack keeps the scoreboard (per segment the
 * departure time and CongestionTxSnapshot the send call gave, and its SACKED/LOST/
 * RETRANS bits), its flight counters, its RTT estimator (the README's srtt rule) and
 * the trace's random draws (a CongestionRandom callback). It is the C twin of the Rust
 * test tests/linux_bbr_flow.rs.
 *
 *   bbr_replay IN.events OUT.csv
 *
 * Writes, from the `init` row on, one row per event with the columns the C ABI's
 * getters give: idx,cwnd,ssthresh,pacing_rate,ca_state,mode,bw,tcp_min_rtt,
 * tso_segs_goal,wstamp_ns, named and valued as in the kernel's expected CSV (ssthresh
 * "infinite" printed as the kernel's 2147483647). ffi/tests/c_bbr_replay.rs and
 * scripts/qemu.sh compare them with the kernel's columns, on the host and on an emulated
 * Cortex-M4. No heap: the scoreboard is a static ring. Exit status 0, or 2 on a trace
 * this stack cannot replay (named on stderr).
 */
#include "congestion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 8192
#define MAX_WORDS 512
#define RING 8192u /* segments outstanding at most (a power of two) */

#define ACKED 0x01u
#define RETRANS 0x02u
#define LOST 0x04u
#define EVER_RETRANS 0x80u

typedef struct {
    uint64_t departure_ns;
    CongestionTxSnapshot snap;
    uint8_t bits;
} Seg;

static Seg ring[RING];
static CongestionDeliveredSegment delivered[RING];
static uint32_t sacked_seqs[RING];
static long line_no;

static CongestionLinuxBbrConfig config;
static CongestionLinuxBbrParams params;
static CongestionLinuxBbrState flow;
static int started;
static uint32_t snd_una, snd_nxt, srtt8, timeouts;
static CongestionFlight fl;

/* The trace's `rand` queue: each draw takes the next value (the library reduces it
 * modulo the ceiling, as get_random_u32_below's replay does). */
static uint32_t draws[64];
static unsigned draws_head, draws_len;
static int draw_failed;

static uint32_t next_draw(void *ctx, uint32_t ceil) {
    (void)ctx;
    (void)ceil;
    if (draws_head == draws_len) {
        draw_failed = 1;
        return 0;
    }
    return draws[draws_head++];
}

static const CongestionRandom rand_source = {next_draw, NULL, 0};

static void die(const char *what) {
    fprintf(stderr, "bbr_replay: %s (events line %ld)\n", what, line_no);
    exit(2);
}

static void ok(int32_t rc, const char *call) {
    if (rc != CONGESTION_OK) {
        fprintf(stderr, "bbr_replay: %s returned %d (events line %ld)\n", call, (int)rc, line_no);
        exit(2);
    }
}

static Seg *seg(uint32_t seq) {
    if (seq - snd_una >= RING) die("more segments outstanding than the ring holds");
    return &ring[seq & (RING - 1)];
}

/* "A" or "A-B" as [a, b). */
static void range(const char *w, uint32_t *a, uint32_t *b) {
    char *end;
    *a = (uint32_t)strtoul(w, &end, 10);
    *b = *end == '-' ? (uint32_t)strtoul(end + 1, NULL, 10) : *a + 1;
}

static uint64_t num(const char *w) {
    if (!w) die("missing number");
    return strtoull(w, NULL, 10);
}

static void send_one(uint64_t now, Seg *s) {
    ok(congestion_linux_bbr_on_send(&flow, now, fl, &rand_source, &s->departure_ns, &s->snap),
       "congestion_linux_bbr_on_send");
}

/* tcp_mark_skb_lost(): 1 when the flow's `lost` count grows. */
static uint32_t mark_lost(uint32_t seq) {
    Seg *s = seg(seq);
    if (s->bits & ACKED) return 0;
    if (s->bits & LOST) {
        if (s->bits & RETRANS) {
            s->bits &= (uint8_t)~RETRANS;
            fl.retrans_out--;
            return 1;
        }
        return 0;
    }
    s->bits |= LOST;
    fl.lost_out++;
    return 1;
}

static void ack(uint64_t now, char **w, int n) {
    uint32_t cum = (uint32_t)num(w[2]);
    long long rtt = strtoll(w[3] ? w[3] : "-1", NULL, 10);
    CongestionFlight prior = fl;
    size_t len = 0, sacked = 0;
    int undo = 0, delayed = 0;
    for (int i = 4; i < n; i++) {
        if (strncmp(w[i], "sack=", 5) != 0) continue;
        uint32_t a, b;
        range(w[i] + 5, &a, &b);
        for (uint32_t seq = a > cum ? a : cum; seq < (b < snd_nxt ? b : snd_nxt); seq++) {
            Seg *s = seg(seq);
            if (s->bits & ACKED) continue;
            if (s->bits & RETRANS) {
                if (s->bits & LOST) {
                    s->bits &= (uint8_t)~(LOST | RETRANS);
                    fl.lost_out--;
                    fl.retrans_out--;
                }
            } else if (s->bits & LOST) {
                s->bits &= (uint8_t)~LOST;
                fl.lost_out--;
            }
            s->bits |= ACKED;
            fl.sacked_out++;
            delivered[len] = (CongestionDeliveredSegment){
                s->departure_ns, s->snap, seq + 1, (s->bits & (RETRANS | EVER_RETRANS)) != 0, 1};
            len++;
            sacked_seqs[sacked++] = seq;
        }
    }
    if (cum > snd_una) timeouts = 0;
    for (uint32_t seq = snd_una; seq < cum; seq++) {
        Seg *s = seg(seq);
        if (s->bits & RETRANS) fl.retrans_out--;
        if (s->bits & ACKED) {
            fl.sacked_out--;
        } else {
            delivered[len++] = (CongestionDeliveredSegment){
                s->departure_ns, s->snap, seq + 1, (s->bits & (RETRANS | EVER_RETRANS)) != 0, 0};
        }
        if (s->bits & LOST) fl.lost_out--;
        fl.packets_out--;
        memset(s, 0, sizeof *s);
    }
    snd_una = cum;
    if (rtt >= 0) {
        uint32_t m = (uint32_t)rtt;
        srtt8 = srtt8 == 0 ? m << 3 : srtt8 + (m - (srtt8 >> 3));
        if (srtt8 == 0) srtt8 = 1;
    }
    for (int i = 4; i < n; i++) {
        if (strcmp(w[i], "undo") == 0) undo = 1;
        if (strcmp(w[i], "delayed") == 0) delayed = 1;
    }
    uint32_t ca_state = 0;
    ok(congestion_linux_bbr_ca_state(&flow, &ca_state), "congestion_linux_bbr_ca_state");
    /* The flow undoes only with its undo marker set (entering Loss sets it): in Loss the
     * stack clears its LOST marks as tcp_undo_cwnd_reduction() does. */
    if (undo && ca_state == 4) {
        for (uint32_t seq = snd_una; seq != snd_nxt; seq++) seg(seq)->bits &= (uint8_t)~LOST;
        fl.lost_out = 0;
    }
    uint32_t newly_lost = 0;
    for (int i = 4; i < n; i++) {
        if (strncmp(w[i], "lost=", 5) != 0) continue;
        uint32_t a, b;
        range(w[i] + 5, &a, &b);
        for (uint32_t seq = a > snd_una ? a : snd_una; seq < (b < snd_nxt ? b : snd_nxt); seq++)
            newly_lost += mark_lost(seq);
    }
    CongestionLinuxBbrAck a = {
        .delivered = len ? delivered : NULL,
        .delivered_len = len,
        .snd_una = cum,
        .snd_nxt = snd_nxt,
        .delivered_count = (uint32_t)len,
        .newly_lost = newly_lost,
        .rtt_us = rtt,
        .srtt_us = srtt8 >> 3,
        .ack_maybe_delayed = (uint8_t)delayed,
        .undo = (uint8_t)undo,
        .prior_flight = prior,
        .flight = fl,
    };
    ok(congestion_linux_bbr_on_ack(&flow, now, &a, &rand_source), "congestion_linux_bbr_on_ack");
    /* The flow spent the SACKed segments' snapshots in the array: keep them so. */
    for (size_t i = 0; i < sacked; i++) seg(sacked_seqs[i])->snap = delivered[i].snapshot;
}

static void set(char **w) {
    const char *key = w[1];
    uint64_t v = num(w[2]);
    if (!strcmp(key, "mss")) config.mss = (uint32_t)v;
    else if (!strcmp(key, "init_cwnd")) config.init_cwnd = (uint32_t)v;
    else if (!strcmp(key, "cwnd_clamp")) config.cwnd_clamp = (uint32_t)v;
    else if (!strcmp(key, "syn_rtt_us")) config.initial_rtt_us = (uint32_t)v;
    else if (!strcmp(key, "max_pacing_rate")) config.max_pacing_rate = v;
    else if (!strcmp(key, "pacing_status")) config.pacing_status = (uint8_t)v;
    else if (!strcmp(key, "pacing_shift")) config.pacing_shift = (uint8_t)v;
    else if (!strcmp(key, "max_tcp_header")) config.max_tcp_header = (uint32_t)v;
    else if (!strcmp(key, "ecn")) { /* v1 has no ECN */ }
    else die("a setting this stack does not take (delivered0, iss)");
}

static void event(char **w, int n) {
    const char *kw = w[0];
    if (!strcmp(kw, "set")) return set(w);
    if (!strcmp(kw, "rand")) {
        if (draws_head == draws_len) draws_head = draws_len = 0;
        for (int i = 1; i < n; i++) {
            if (draws_len == 64) die("rand queue full");
            draws[draws_len++] = (uint32_t)num(w[i]);
        }
        return;
    }
    uint64_t now = num(w[1]);
    if (!strcmp(kw, "init")) {
        ok(congestion_linux_bbr_params_init(&params, sizeof params, &config),
           "congestion_linux_bbr_params_init");
        srtt8 = config.initial_rtt_us << 3;
        ok(congestion_linux_bbr_init(&flow, sizeof flow, &params, now, &rand_source),
           "congestion_linux_bbr_init");
        started = 1;
    } else if (!started) {
        die("an event before init");
    } else if (!strcmp(kw, "send")) {
        uint32_t count = (uint32_t)num(w[2]);
        if (n > 3 && !strcmp(w[3], "al"))
            ok(congestion_linux_bbr_on_app_limited(&flow, now, fl, 1),
               "congestion_linux_bbr_on_app_limited");
        for (uint32_t i = 0; i < count; i++) {
            Seg *s = seg(snd_nxt);
            memset(s, 0, sizeof *s);
            send_one(now, s);
            snd_nxt++;
            fl.packets_out++;
        }
    } else if (!strcmp(kw, "rtx")) {
        for (int i = 2; i < n; i++) {
            uint32_t a, b;
            range(w[i], &a, &b);
            for (uint32_t seq = a; seq < b; seq++) {
                Seg *s = seg(seq);
                send_one(now, s);
                s->bits |= RETRANS | EVER_RETRANS;
                fl.retrans_out++;
            }
        }
    } else if (!strcmp(kw, "ack")) {
        ack(now, w, n);
    } else if (!strcmp(kw, "rto")) {
        uint32_t newly_lost = 0;
        for (uint32_t seq = snd_una; seq != snd_nxt; seq++) newly_lost += mark_lost(seq);
        ok(congestion_linux_bbr_on_rto(&flow, now, fl, newly_lost, snd_una, snd_nxt, timeouts,
                                       &rand_source),
           "congestion_linux_bbr_on_rto");
        timeouts++;
    } else {
        die("unknown event");
    }
}

static void row(FILE *out, long idx) {
    uint64_t cwnd, ssthresh, rate, wstamp;
    uint32_t ca, mode, bw, min_rtt, tso;
    ok(congestion_linux_bbr_cwnd(&flow, &cwnd), "cwnd");
    ok(congestion_linux_bbr_ssthresh(&flow, &ssthresh), "ssthresh");
    ok(congestion_linux_bbr_pacing_rate(&flow, &rate), "pacing_rate");
    ok(congestion_linux_bbr_ca_state(&flow, &ca), "ca_state");
    ok(congestion_linux_bbr_mode(&flow, &mode), "mode");
    ok(congestion_linux_bbr_bw(&flow, &bw), "bw");
    ok(congestion_linux_bbr_min_rtt(&flow, &min_rtt), "min_rtt");
    ok(congestion_linux_bbr_tso_segs_goal(&flow, &tso), "tso_segs_goal");
    ok(congestion_linux_bbr_next_departure_ns(&flow, &wstamp), "next_departure_ns");
    if (ssthresh == CONGESTION_SSTHRESH_NONE) ssthresh = 2147483647u; /* the kernel's "infinite" */
    fprintf(out, "%ld,%llu,%llu,%llu,%lu,%lu,%lu,%lu,%lu,%llu\n", idx, (unsigned long long)cwnd,
            (unsigned long long)ssthresh, (unsigned long long)rate, (unsigned long)ca,
            (unsigned long)mode, (unsigned long)bw, (unsigned long)min_rtt, (unsigned long)tso,
            (unsigned long long)wstamp);
}

int main(int argc, char **argv) {
    static char line[LINE_MAX_LEN];
    char *w[MAX_WORDS + 1];
    if (argc != 3) {
        fprintf(stderr, "usage: bbr_replay IN.events OUT.csv\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    FILE *out = fopen(argv[2], "w");
    if (!in || !out) {
        fprintf(stderr, "bbr_replay: cannot open %s or %s\n", argv[1], argv[2]);
        return 2;
    }
    ok(congestion_linux_bbr_config_default(&config), "congestion_linux_bbr_config_default");
    fprintf(out, "idx,cwnd,ssthresh,pacing_rate,ca_state,mode,bw,tcp_min_rtt,tso_segs_goal,wstamp_ns\n");
    long idx = 0;
    while (fgets(line, sizeof line, in)) {
        line_no++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < MAX_WORDS; t = strtok(NULL, " \t\r\n"))
            w[n++] = t;
        if (n == 0) continue;
        w[n] = NULL;
        idx++;
        event(w, n);
        if (draw_failed) die("a random draw with an empty rand queue");
        if (started) row(out, idx);
    }
    fclose(in);
    return fclose(out) == 0 ? 0 : 2;
}
