/*
 * Replays a Linux BBR v1 or BBRv3 kernel trace (tests/data/linux-bbr{,3}/NAME.events,
 * the event language of their READMEs) through the C ABI's scoreboard calls
 * (congestion_linux_bbr{,3}_init, _on_send, _on_app_limited, _on_ack, _on_rto) as a TCP
 * stack written in C would drive them: the stack keeps the scoreboard (per segment the
 * departure time and CongestionTxSnapshot the send call gave, and its SACKED/LOST/
 * RETRANS bits), its flight counters, its RTT estimator (the README's srtt rule) and
 * the trace's random draws (a CongestionRandom callback); for BBRv3 also its own
 * tcp_cwnd_validate() round, the lost segments' snapshots and the ECE/`al` flags. It is
 * the C twin of the Rust tests tests/linux_bbr_flow.rs and tests/linux_bbr3_flow.rs.
 *
 *   bbr_replay bbr|bbr3 IN.events OUT.csv
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
static CongestionTxSnapshot lost_snaps[2 * RING];
static uint32_t sacked_seqs[RING];
static long line_no;

static int v3; /* BBRv3 (congestion_linux_bbr3_*) rather than v1 */
static CongestionLinuxBbrConfig config;
static CongestionLinuxBbrParams params;
static CongestionLinuxBbrState flow;
static CongestionLinuxBbr3Params params3;
static CongestionLinuxBbr3State flow3;
static int started;
static uint32_t snd_una, snd_nxt, srtt8, timeouts;
static CongestionFlight fl;
/* BBRv3's stack also keeps tcp_cwnd_validate()'s round. */
static uint8_t is_cwnd_limited;
static uint32_t max_packets_out, cwnd_usage_seq;
static size_t lost_len;

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
    if (v3)
        ok(congestion_linux_bbr3_on_send(&flow3, now, fl, &rand_source, &s->departure_ns,
                                         &s->snap),
           "congestion_linux_bbr3_on_send");
    else
        ok(congestion_linux_bbr_on_send(&flow, now, fl, &rand_source, &s->departure_ns, &s->snap),
           "congestion_linux_bbr_on_send");
}

static uint32_t ca_state_now(void) {
    uint32_t ca = 0;
    ok(v3 ? congestion_linux_bbr3_ca_state(&flow3, &ca) : congestion_linux_bbr_ca_state(&flow, &ca),
       "ca_state");
    return ca;
}

/* tcp_mark_skb_lost(): 1 when the flow's `lost` count grows (the segment's snapshot then
 * joins lost_snaps, for BBRv3). */
static uint32_t mark_lost(uint32_t seq) {
    Seg *s = seg(seq);
    if (s->bits & ACKED) return 0;
    if (s->bits & LOST) {
        if (s->bits & RETRANS) {
            s->bits &= (uint8_t)~RETRANS;
            fl.retrans_out--;
            lost_snaps[lost_len++] = s->snap;
            return 1;
        }
        return 0;
    }
    s->bits |= LOST;
    fl.lost_out++;
    lost_snaps[lost_len++] = s->snap;
    return 1;
}

static void ack(uint64_t now, char **w, int n) {
    uint32_t cum = (uint32_t)num(w[2]);
    long long rtt = strtoll(w[3] ? w[3] : "-1", NULL, 10);
    CongestionFlight prior = fl;
    size_t len = 0, sacked = 0;
    int undo = 0, delayed = 0, ece = 0, al = 0;
    /* BBRv3's stack: an ACK with nothing outstanding is tcp_ack()'s no_queue path. */
    int live = !v3 || prior.packets_out > 0;
    lost_len = 0;
    for (int i = 4; live && i < n; i++) {
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
    if (live && cum > snd_una) timeouts = 0;
    for (uint32_t seq = snd_una; live && seq < cum; seq++) {
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
    if (live) snd_una = cum;
    if (!live) rtt = -1;
    if (rtt >= 0) {
        uint32_t m = (uint32_t)rtt;
        srtt8 = srtt8 == 0 ? m << 3 : srtt8 + (m - (srtt8 >> 3));
        if (srtt8 == 0) srtt8 = 1;
    }
    for (int i = 4; i < n; i++) {
        if (strcmp(w[i], "undo") == 0) undo = 1;
        if (strcmp(w[i], "delayed") == 0) delayed = 1;
        if (strcmp(w[i], "ece") == 0) ece = 1;
        if (strcmp(w[i], "al") == 0) al = 1;
    }
    undo &= live;
    uint32_t ca_state = ca_state_now();
    /* The flow undoes only with its undo marker set (entering Loss sets it): in Loss the
     * stack clears its LOST marks as tcp_undo_cwnd_reduction() does. */
    if (undo && ca_state == 4) {
        for (uint32_t seq = snd_una; seq != snd_nxt; seq++) seg(seq)->bits &= (uint8_t)~LOST;
        fl.lost_out = 0;
    }
    uint32_t newly_lost = 0;
    for (int i = 4; live && i < n; i++) {
        if (strncmp(w[i], "lost=", 5) != 0) continue;
        uint32_t a, b;
        range(w[i] + 5, &a, &b);
        for (uint32_t seq = a > snd_una ? a : snd_una; seq < (b < snd_nxt ? b : snd_nxt); seq++)
            newly_lost += mark_lost(seq);
    }
    if (v3) {
        CongestionLinuxBbr3Ack a3 = {
            .delivered = len ? delivered : NULL,
            .delivered_len = len,
            .newly_lost = lost_len ? lost_snaps : NULL,
            .newly_lost_len = lost_len,
            .snd_una = snd_una,
            .snd_nxt = snd_nxt,
            .delivered_count = (uint32_t)len,
            .srtt_us = srtt8 >> 3,
            .rtt_us = rtt,
            .ack_maybe_delayed = (uint8_t)delayed,
            .ece = (uint8_t)ece,
            .nothing_queued = (uint8_t)al,
            .is_cwnd_limited = is_cwnd_limited,
            .undo = (uint8_t)undo,
            .prior_flight = prior,
            .flight = fl,
        };
        ok(congestion_linux_bbr3_on_ack(&flow3, now, &a3, &rand_source),
           "congestion_linux_bbr3_on_ack");
        for (size_t i = 0; i < sacked; i++) seg(sacked_seqs[i])->snap = delivered[i].snapshot;
        return;
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
    else if (!strcmp(key, "ecn")) { /* v1 has none; v3: bit 0 ECN, bit 1 a low threshold */
        config.ecn = (uint8_t)(v & 1);
        config.ecn_low = (uint8_t)((v >> 1) & 1);
    }
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
        memset(ring, 0, sizeof ring);
        snd_una = snd_nxt = timeouts = 0;
        memset(&fl, 0, sizeof fl);
        is_cwnd_limited = 0;
        max_packets_out = cwnd_usage_seq = 0;
        srtt8 = config.initial_rtt_us << 3;
        if (v3) {
            ok(congestion_linux_bbr3_params_init(&params3, sizeof params3, &config),
               "congestion_linux_bbr3_params_init");
            ok(congestion_linux_bbr3_init(&flow3, sizeof flow3, &params3, now, &rand_source),
               "congestion_linux_bbr3_init");
        } else {
            ok(congestion_linux_bbr_params_init(&params, sizeof params, &config),
               "congestion_linux_bbr_params_init");
            ok(congestion_linux_bbr_init(&flow, sizeof flow, &params, now, &rand_source),
               "congestion_linux_bbr_init");
        }
        started = 1;
    } else if (!started) {
        die("an event before init");
    } else if (!strcmp(kw, "send")) {
        uint32_t count = (uint32_t)num(w[2]);
        if (n > 3 && !strcmp(w[3], "al"))
            ok(v3 ? congestion_linux_bbr3_on_app_limited(&flow3, now, fl, 1)
                  : congestion_linux_bbr_on_app_limited(&flow, now, fl, 1),
               "on_app_limited");
        for (uint32_t i = 0; i < count; i++) {
            Seg *s = seg(snd_nxt);
            memset(s, 0, sizeof *s);
            send_one(now, s);
            snd_nxt++;
            fl.packets_out++;
        }
        if (v3) { /* tcp_cwnd_validate() */
            uint64_t cwnd = 0;
            ok(congestion_linux_bbr3_cwnd(&flow3, &cwnd), "congestion_linux_bbr3_cwnd");
            uint32_t in_flight = fl.packets_out - (fl.sacked_out + fl.lost_out) + fl.retrans_out;
            int lim = in_flight >= cwnd;
            if ((count > 0 || lim) &&
                (snd_una >= cwnd_usage_seq || lim ||
                 (!is_cwnd_limited && fl.packets_out > max_packets_out))) {
                is_cwnd_limited = (uint8_t)lim;
                max_packets_out = fl.packets_out;
                cwnd_usage_seq = snd_nxt;
            }
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
        CongestionFlight prior = fl;
        uint32_t newly_lost = 0;
        lost_len = 0;
        for (uint32_t seq = snd_una; seq != snd_nxt; seq++) newly_lost += mark_lost(seq);
        if (v3) {
            CongestionLinuxBbr3Rto r = {
                .newly_lost = lost_len ? lost_snaps : NULL,
                .newly_lost_len = lost_len,
                .prior_flight = prior,
                .flight = fl,
                .snd_una = snd_una,
                .snd_nxt = snd_nxt,
                .timeouts = timeouts,
                .nothing_queued = (uint8_t)(n > 2 && !strcmp(w[2], "al")),
            };
            ok(congestion_linux_bbr3_on_rto(&flow3, now, &r, &rand_source),
               "congestion_linux_bbr3_on_rto");
        } else {
            ok(congestion_linux_bbr_on_rto(&flow, now, fl, newly_lost, snd_una, snd_nxt, timeouts,
                                           &rand_source),
               "congestion_linux_bbr_on_rto");
        }
        timeouts++;
    } else {
        die("unknown event");
    }
}

static void row(FILE *out, long idx) {
    uint64_t cwnd, ssthresh, rate, wstamp;
    uint32_t ca, mode, bw, min_rtt, tso;
    if (v3) {
        ok(congestion_linux_bbr3_cwnd(&flow3, &cwnd), "cwnd");
        ok(congestion_linux_bbr3_ssthresh(&flow3, &ssthresh), "ssthresh");
        ok(congestion_linux_bbr3_pacing_rate(&flow3, &rate), "pacing_rate");
        ok(congestion_linux_bbr3_ca_state(&flow3, &ca), "ca_state");
        ok(congestion_linux_bbr3_mode(&flow3, &mode), "mode");
        ok(congestion_linux_bbr3_bw(&flow3, &bw), "bw");
        ok(congestion_linux_bbr3_min_rtt(&flow3, &min_rtt), "min_rtt");
        ok(congestion_linux_bbr3_tso_segs_goal(&flow3, &tso), "tso_segs_goal");
        ok(congestion_linux_bbr3_next_departure_ns(&flow3, &wstamp), "next_departure_ns");
    } else {
        ok(congestion_linux_bbr_cwnd(&flow, &cwnd), "cwnd");
        ok(congestion_linux_bbr_ssthresh(&flow, &ssthresh), "ssthresh");
        ok(congestion_linux_bbr_pacing_rate(&flow, &rate), "pacing_rate");
        ok(congestion_linux_bbr_ca_state(&flow, &ca), "ca_state");
        ok(congestion_linux_bbr_mode(&flow, &mode), "mode");
        ok(congestion_linux_bbr_bw(&flow, &bw), "bw");
        ok(congestion_linux_bbr_min_rtt(&flow, &min_rtt), "min_rtt");
        ok(congestion_linux_bbr_tso_segs_goal(&flow, &tso), "tso_segs_goal");
        ok(congestion_linux_bbr_next_departure_ns(&flow, &wstamp), "next_departure_ns");
    }
    if (ssthresh == CONGESTION_SSTHRESH_NONE) ssthresh = 2147483647u; /* the kernel's "infinite" */
    fprintf(out, "%ld,%llu,%llu,%llu,%lu,%lu,%lu,%lu,%lu,%llu\n", idx, (unsigned long long)cwnd,
            (unsigned long long)ssthresh, (unsigned long long)rate, (unsigned long)ca,
            (unsigned long)mode, (unsigned long)bw, (unsigned long)min_rtt, (unsigned long)tso,
            (unsigned long long)wstamp);
}

int main(int argc, char **argv) {
    static char line[LINE_MAX_LEN];
    char *w[MAX_WORDS + 1];
    if (argc != 4 || (strcmp(argv[1], "bbr") && strcmp(argv[1], "bbr3"))) {
        fprintf(stderr, "usage: bbr_replay bbr|bbr3 IN.events OUT.csv\n");
        return 2;
    }
    v3 = !strcmp(argv[1], "bbr3");
    FILE *in = fopen(argv[2], "r");
    FILE *out = fopen(argv[3], "w");
    if (!in || !out) {
        fprintf(stderr, "bbr_replay: cannot open %s or %s\n", argv[2], argv[3]);
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
