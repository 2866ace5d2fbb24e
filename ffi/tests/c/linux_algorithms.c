/*
 * The kernel-style algorithms' C calls (congestion_linux_{bbr,bbr3,dctcp,prague}_*),
 * checked from C against the committed header and the static library
 * (ffi/tests/c_linux_algorithms.rs builds and runs it): a short transfer per algorithm
 * with hand-computed values in the comments, then BBR v1 and BBRv3 over a modelled
 * 1-segment-per-ms bottleneck until they reach PROBE_BW, drawing from the caller's
 * random callback, and the refusals (a bad config field names itself, a NULL random
 * source, a state of another algorithm). Prints "ok N checks" and exits 0, or names the
 * first failed check and exits 1.
 */
#include "congestion.h"

#include <stdio.h>
#include <string.h>

static int checks;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        checks++;                                                                       \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "linux_algorithms.c:%d: check failed: %s\n", __LINE__, #cond); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

#define OK(call) CHECK((call) == CONGESTION_OK)
#define MS 1000u
#define T0 1000000u

/* The caller's generator: a scripted sequence (a replay's recorded draws), counting the
 * calls and remembering the last ceiling asked for. */
typedef struct {
    uint32_t calls, last_ceil;
} Draws;

static uint32_t scripted_below(void *ctx, uint32_t ceil) {
    Draws *d = ctx;
    d->calls++;
    d->last_ceil = ceil;
    return 3 + d->calls; /* reduced modulo ceil by the library */
}

/* The value a getter wrote into `v`, read after the call (the ?: sequences them). */
#define GOT(call) ((call) == CONGESTION_OK ? v : (uint64_t)0xdeadu)

/* ---- BBR v1: the Rust doc example, through C ---------------------------------------- */
static int bbr_short_transfer(void) {
    static CongestionLinuxBbrParams params;
    static CongestionLinuxBbrState s;
    CongestionLinuxBbrConfig c;
    CongestionRandom rand = {NULL, NULL, 0}; /* BBR v1 draws only on entering PROBE_BW */
    OK(congestion_linux_bbr_config_default(&c));
    c.initial_rtt_us = 10000; /* the handshake took 10 ms */
    OK(congestion_linux_bbr_params_init(&params, sizeof params, &c));
    OK(congestion_linux_bbr_init(&s, sizeof s, &params, T0, &rand));
    uint64_t v = 0;
    uint32_t w = 0;
    /* 10 * 2^24 / 10000 us = 16777; at gain 739/256, less 1 %: 4,138,115 bytes/s. */
    CHECK(GOT(congestion_linux_bbr_cwnd(&s, &v)) == 10);
    CHECK(GOT(congestion_linux_bbr_pacing_rate(&s, &v)) == 4138115);
    CHECK(GOT(congestion_linux_bbr_ssthresh(&s, &v)) == CONGESTION_SSTHRESH_NONE);
    OK(congestion_linux_bbr_mode(&s, &w));
    CHECK(w == CONGESTION_BBR_MODE_STARTUP);

    /* Ten segments leave at T0; the caller keeps each one's departure and snapshot. */
    CongestionFlight flight = {0, 0, 0, 0};
    CongestionDeliveredSegment seg[10];
    memset(seg, 0, sizeof seg);
    for (uint32_t i = 0; i < 10; i++) {
        OK(congestion_linux_bbr_on_send(&s, T0, flight, &rand, &seg[i].departure_ns, &seg[i].snapshot));
        seg[i].end_seq = i + 1;
        flight.packets_out++;
    }
    /* The first 10 segments are not paced (data_segs_out < 10): all leave at T0. */
    CHECK(seg[0].departure_ns == (uint64_t)T0 * 1000u && seg[9].departure_ns == (uint64_t)T0 * 1000u);
    /* The first send found an empty pipe: its send phase starts at T0, nothing delivered. */
    CHECK(seg[0].snapshot.first_tx_mstamp == T0 && seg[0].snapshot.delivered_mstamp == T0);
    CHECK(seg[0].snapshot.delivered == 0);

    /* 10 ms later the first two are acknowledged with an RTT of 10 ms. */
    CongestionLinuxBbrAck ack;
    memset(&ack, 0, sizeof ack);
    ack.delivered = seg;
    ack.delivered_len = 2;
    ack.snd_una = 2;
    ack.snd_nxt = 10;
    ack.delivered_count = 2;
    ack.rtt_us = 10000;
    ack.srtt_us = 10000;
    ack.prior_flight = flight;
    flight.packets_out -= 2;
    ack.flight = flight;
    OK(congestion_linux_bbr_on_ack(&s, T0 + 10 * MS, &ack, &rand));
    /* 2 segments over 10,000 us: bw 2 * 2^24 / 10000 = 3355; cwnd grows by the 2
     * delivered (fewer than 10 delivered so far): 12. */
    OK(congestion_linux_bbr_bw(&s, &w));
    CHECK(w == 3355);
    CHECK(GOT(congestion_linux_bbr_cwnd(&s, &v)) == 12);
    /* STARTUP only raises the rate: 3355 * 1448 * 739 >> 8 ... is below 4,138,115. */
    CHECK(GOT(congestion_linux_bbr_pacing_rate(&s, &v)) == 4138115);
    /* TSO goal: min(4138115 >> 10, 65535 - 320) / 1448 = 4041 / 1448 = 2. */
    OK(congestion_linux_bbr_tso_segs_goal(&s, &w));
    CHECK(w == 2);
    OK(congestion_linux_bbr_min_rtt(&s, &w));
    CHECK(w == 10000);
    OK(congestion_linux_bbr_ca_state(&s, &w));
    CHECK(w == 0);

    /* Refusals: a NULL random source; a flag byte that is not a bool; another
     * algorithm's state. Nothing changes. */
    CHECK(congestion_linux_bbr_on_ack(&s, T0 + 11 * MS, &ack, NULL) == CONGESTION_ERR_NULL);
    seg[2].sacked = 2;
    ack.delivered = &seg[2];
    ack.delivered_len = 1;
    CHECK(congestion_linux_bbr_on_ack(&s, T0 + 11 * MS, &ack, &rand) == CONGESTION_ERR_ARGUMENT);
    CHECK(congestion_linux_bbr3_cwnd((const CongestionLinuxBbr3State *)(const void *)&s, &v) ==
          CONGESTION_ERR_UNINITIALIZED);
    CHECK(GOT(congestion_linux_bbr_cwnd(&s, &v)) == 12);

    /* Each bad field is named. */
    OK(congestion_linux_bbr_config_default(&c));
    c.mss = 0;
    CHECK(congestion_linux_bbr_params_init(&params, sizeof params, &c) == CONGESTION_ERR_MSS);
    OK(congestion_linux_bbr_config_default(&c));
    c.max_tcp_header = 65535;
    CHECK(congestion_linux_bbr_params_init(&params, sizeof params, &c) == CONGESTION_ERR_TCP_HEADER);
    OK(congestion_linux_bbr_config_default(&c));
    c.pacing_status = 3;
    CHECK(congestion_linux_bbr_params_init(&params, sizeof params, &c) == CONGESTION_ERR_PACING_STATUS);
    OK(congestion_linux_bbr_config_default(&c));
    c.init_cwnd = 0;
    CHECK(congestion_linux_bbr3_params_init((CongestionLinuxBbr3Params *)(void *)&params, sizeof params, &c) ==
          CONGESTION_ERR_INITIAL_WINDOW);
    return 0;
}

/* ---- BBRv3: the same transfer ------------------------------------------------------- */
static int bbr3_short_transfer(void) {
    static CongestionLinuxBbr3Params params;
    static CongestionLinuxBbr3State s;
    CongestionLinuxBbrConfig c;
    CongestionRandom rand = {NULL, NULL, 0};
    OK(congestion_linux_bbr_config_default(&c));
    c.initial_rtt_us = 10000;
    OK(congestion_linux_bbr3_params_init(&params, sizeof params, &c));
    OK(congestion_linux_bbr3_init(&s, sizeof s, &params, T0, &rand));
    uint64_t v = 0;
    uint32_t w = 0;
    CHECK(GOT(congestion_linux_bbr3_cwnd(&s, &v)) == 10);
    OK(congestion_linux_bbr3_mode(&s, &w));
    CHECK(w == CONGESTION_BBR_MODE_STARTUP);

    CongestionFlight flight = {0, 0, 0, 0};
    CongestionDeliveredSegment seg[10];
    memset(seg, 0, sizeof seg);
    for (uint32_t i = 0; i < 10; i++) {
        OK(congestion_linux_bbr3_on_send(&s, T0, flight, &rand, &seg[i].departure_ns, &seg[i].snapshot));
        seg[i].end_seq = i + 1;
        flight.packets_out++;
    }
    /* v3's snapshot records the flight at the send, the packet included: 1, then 10. */
    CHECK(seg[0].snapshot.in_flight == 1 && seg[9].snapshot.in_flight == 10);

    CongestionLinuxBbr3Ack ack;
    memset(&ack, 0, sizeof ack);
    ack.delivered = seg;
    ack.delivered_len = 2;
    ack.snd_una = 2;
    ack.snd_nxt = 10;
    ack.delivered_count = 2;
    ack.rtt_us = 10000;
    ack.srtt_us = 10000;
    ack.prior_flight = flight;
    flight.packets_out -= 2;
    ack.flight = flight;
    OK(congestion_linux_bbr3_on_ack(&s, T0 + 10 * MS, &ack, &rand));
    /* The same sample as v1, which v3 rounds up (bbr_calculate_bw_sample's
     * DIV_ROUND_UP): 2 * 2^24 / 10000 = 3355.44 -> 3356; cwnd + 2 = 12 while fewer than
     * 10 were delivered. */
    OK(congestion_linux_bbr3_bw(&s, &w));
    CHECK(w == 3356);
    CHECK(GOT(congestion_linux_bbr3_cwnd(&s, &v)) == 12);
    OK(congestion_linux_bbr3_ca_state(&s, &w));
    CHECK(w == 0);

    /* An RTO after marking the 8 outstanding segments lost: Loss (4), cwnd 1. */
    CongestionLinuxBbr3Rto rto;
    memset(&rto, 0, sizeof rto);
    rto.newly_lost = &seg[2].snapshot;
    rto.newly_lost_len = 1; /* one snapshot is enough to exercise the array */
    rto.prior_flight = flight;
    flight.lost_out = flight.packets_out;
    rto.flight = flight;
    rto.snd_una = 2;
    rto.snd_nxt = 10;
    OK(congestion_linux_bbr3_on_rto(&s, T0 + 300 * MS, &rto, &rand));
    OK(congestion_linux_bbr3_ca_state(&s, &w));
    CHECK(w == 4);
    CHECK(GOT(congestion_linux_bbr3_cwnd(&s, &v)) == 1);
    return 0;
}

/* ---- BBR over a 1-segment-per-ms bottleneck, 10 ms of propagation ------------------- */
#define SEGS 4096u
typedef struct {
    CongestionDeliveredSegment seg[SEGS];
    uint64_t ack_at[SEGS];
} Path;

/* Runs `version` (1 or 3) for 2 s of virtual time: the sender sends whenever cwnd and
 * the pacer allow; each segment leaves the bottleneck 1 ms after the previous one and
 * is acknowledged 10 ms later, one ACK per segment. */
static int bbr_reaches_probe_bw(int version) {
    static Path path;
    static CongestionLinuxBbrParams p1;
    static CongestionLinuxBbrState s1;
    static CongestionLinuxBbr3Params p3;
    static CongestionLinuxBbr3State s3;
    CongestionLinuxBbrConfig c;
    Draws draws = {0, 0};
    CongestionRandom rand = {scripted_below, &draws, 0};
    OK(congestion_linux_bbr_config_default(&c));
    c.initial_rtt_us = 10000;
    if (version == 1) {
        OK(congestion_linux_bbr_params_init(&p1, sizeof p1, &c));
        OK(congestion_linux_bbr_init(&s1, sizeof s1, &p1, T0, &rand));
    } else {
        OK(congestion_linux_bbr3_params_init(&p3, sizeof p3, &c));
        OK(congestion_linux_bbr3_init(&s3, sizeof s3, &p3, T0, &rand));
    }
    CongestionFlight flight = {0, 0, 0, 0};
    uint32_t sent = 0, acked = 0;
    uint64_t link_free = T0;
    for (uint64_t now = T0; now < T0 + 2000 * MS && sent < SEGS; now += 100) {
        /* ACKs due by now, one per segment. */
        while (acked < sent && path.ack_at[acked] <= now) {
            CongestionFlight prior = flight;
            flight.packets_out--;
            uint64_t rtt = path.ack_at[acked] - path.seg[acked].departure_ns / 1000u;
            if (version == 1) {
                CongestionLinuxBbrAck a;
                memset(&a, 0, sizeof a);
                a.delivered = &path.seg[acked];
                a.delivered_len = 1;
                a.snd_una = acked + 1;
                a.snd_nxt = sent;
                a.delivered_count = 1;
                a.rtt_us = (int64_t)rtt;
                a.srtt_us = 10000;
                a.prior_flight = prior;
                a.flight = flight;
                OK(congestion_linux_bbr_on_ack(&s1, path.ack_at[acked], &a, &rand));
            } else {
                CongestionLinuxBbr3Ack a;
                memset(&a, 0, sizeof a);
                a.delivered = &path.seg[acked];
                a.delivered_len = 1;
                a.snd_una = acked + 1;
                a.snd_nxt = sent;
                a.delivered_count = 1;
                a.rtt_us = (int64_t)rtt;
                a.srtt_us = 10000;
                a.is_cwnd_limited = 1;
                a.prior_flight = prior;
                a.flight = flight;
                OK(congestion_linux_bbr3_on_ack(&s3, path.ack_at[acked], &a, &rand));
            }
            acked++;
        }
        /* Sends the window and the pacer allow. */
        for (;;) {
            uint64_t cwnd = 0, next_ns = 0;
            if (version == 1) {
                OK(congestion_linux_bbr_cwnd(&s1, &cwnd));
                OK(congestion_linux_bbr_next_departure_ns(&s1, &next_ns));
            } else {
                OK(congestion_linux_bbr3_cwnd(&s3, &cwnd));
                OK(congestion_linux_bbr3_next_departure_ns(&s3, &next_ns));
            }
            if (flight.packets_out >= cwnd || next_ns > now * 1000u || sent >= SEGS) break;
            CongestionDeliveredSegment *g = &path.seg[sent];
            if (version == 1)
                OK(congestion_linux_bbr_on_send(&s1, now, flight, &rand, &g->departure_ns, &g->snapshot));
            else
                OK(congestion_linux_bbr3_on_send(&s3, now, flight, &rand, &g->departure_ns, &g->snapshot));
            g->end_seq = sent + 1;
            uint64_t start = link_free > now ? link_free : now;
            link_free = start + MS;
            path.ack_at[sent] = link_free + 10 * MS;
            flight.packets_out++;
            sent++;
        }
    }
    uint32_t mode = 9, bw = 0;
    if (version == 1) {
        OK(congestion_linux_bbr_mode(&s1, &mode));
        OK(congestion_linux_bbr_bw(&s1, &bw));
    } else {
        OK(congestion_linux_bbr3_mode(&s3, &mode));
        OK(congestion_linux_bbr3_bw(&s3, &bw));
    }
    /* STARTUP saw the plateau, DRAIN emptied the queue, and PROBE_BW began with a draw
     * from the caller's generator: BBR v1 picks one of the last 7 of its 8 gain phases
     * (ceiling 7); BBRv3 draws its probe wait (the last ceiling: 1,000,000 us of
     * jitter). */
    CHECK(mode == CONGESTION_BBR_MODE_PROBE_BW);
    CHECK(draws.calls >= (version == 1 ? 1u : 2u));
    CHECK(draws.last_ceil == (version == 1 ? 7u : 1000000u));
    /* The bottleneck's rate: one segment per 1,000 us = 2^24 / 1000 = 16777.2: 16777
     * (v1 truncates), 16778 (v3 rounds up). */
    CHECK(bw == (version == 1 ? 16777u : 16778u));
    return 0;
}

/* ---- DCTCP: the Rust doc example, then a loss and its undo -------------------------- */
static int dctcp_short_transfer(void) {
    static CongestionLinuxDctcpParams params;
    static CongestionLinuxDctcpState s;
    CongestionLinuxDctcpConfig c;
    OK(congestion_linux_dctcp_config_default(&c));
    c.socket.initial_srtt_us = 10000;
    OK(congestion_linux_dctcp_params_init(&params, sizeof params, &c));
    OK(congestion_linux_dctcp_init(&s, sizeof s, &params, 0));
    uint64_t v = 0;
    uint32_t w = 0, outcome = 9;
    uint8_t flag = 9;
    OK(congestion_linux_dctcp_alpha(&s, &w));
    CHECK(w == 1024); /* dctcp_alpha_on_init */
    OK(congestion_linux_dctcp_on_transmit(&s, 0, 10)); /* the initial window leaves */
    CHECK(GOT(congestion_linux_dctcp_in_flight(&s, &v)) == 10);
    /* 2 segments ACKed after 10 ms, 1 of them CE-marked: the round (begun at snd_nxt 0)
     * ends first: alpha = 1024 - 1024/16 + (1 << 6) / 2 = 992; then CWR with
     * ssthresh = 10 - (10 * 992 >> 11) = 6. */
    OK(congestion_linux_dctcp_on_ack(&s, 10 * MS, 2, 10000, 1, 0, &outcome));
    CHECK(outcome == CONGESTION_ACK_PROCESSED);
    OK(congestion_linux_dctcp_on_transmit(&s, 10 * MS, 9));
    OK(congestion_linux_dctcp_alpha(&s, &w));
    CHECK(w == 992);
    OK(congestion_linux_dctcp_ca_state(&s, &w));
    CHECK(w == 2);
    CHECK(GOT(congestion_linux_dctcp_ssthresh(&s, &v)) == 6);

    /* A fresh flow: 10 sent, then a fast-retransmit loss: Recovery (3) with DCTCP's
     * loss response, ssthresh = max(10 / 2, 2) = 5, once per episode. */
    OK(congestion_linux_dctcp_init(&s, sizeof s, &params, 0));
    OK(congestion_linux_dctcp_on_transmit(&s, 0, 10));
    CHECK(GOT(congestion_linux_dctcp_ssthresh(&s, &v)) == CONGESTION_SSTHRESH_NONE);
    OK(congestion_linux_dctcp_on_loss(&s, 5 * MS, &flag));
    CHECK(flag == 1);
    OK(congestion_linux_dctcp_ca_state(&s, &w));
    CHECK(w == 3);
    CHECK(GOT(congestion_linux_dctcp_ssthresh(&s, &v)) == 5);
    OK(congestion_linux_dctcp_on_loss(&s, 6 * MS, &flag));
    CHECK(flag == 0);
    /* The loss proves spurious: cwnd back to max(cwnd, loss_cwnd 10) = 10. */
    OK(congestion_linux_dctcp_on_undo(&s, 7 * MS, &flag));
    CHECK(flag == 1);
    CHECK(GOT(congestion_linux_dctcp_cwnd(&s, &v)) == 10);
    /* An RTO: Loss (4), cwnd 1, the head retransmitted. */
    OK(congestion_linux_dctcp_on_rto(&s, 300 * MS, 1));
    OK(congestion_linux_dctcp_ca_state(&s, &w));
    CHECK(w == 4);
    CHECK(GOT(congestion_linux_dctcp_cwnd(&s, &v)) == 1);
    CHECK(GOT(congestion_linux_dctcp_in_flight(&s, &v)) == 1);

    /* Each bad field is named. */
    OK(congestion_linux_dctcp_config_default(&c));
    c.dctcp_shift_g = 11;
    CHECK(congestion_linux_dctcp_params_init(&params, sizeof params, &c) == CONGESTION_ERR_DCTCP_SHIFT_G);
    OK(congestion_linux_dctcp_config_default(&c));
    c.socket.pacing_ca_ratio = 0;
    CHECK(congestion_linux_dctcp_params_init(&params, sizeof params, &c) == CONGESTION_ERR_PACING_RATIO);
    OK(congestion_linux_dctcp_config_default(&c));
    c.socket.mss = 0;
    CHECK(congestion_linux_dctcp_params_init(&params, sizeof params, &c) == CONGESTION_ERR_MSS);
    /* A DCTCP block is not a Prague block. */
    static CongestionLinuxPragueState ps;
    CHECK(congestion_linux_prague_init(&ps, sizeof ps, (const CongestionLinuxPragueParams *)(const void *)&params,
                                       0) == CONGESTION_ERR_UNINITIALIZED);
    CHECK(congestion_linux_dctcp_init(&s, sizeof s - 64, &params, 0) == CONGESTION_ERR_SIZE);
    return 0;
}

/* ---- TCP Prague ---------------------------------------------------------------------- */
static int prague_short_transfer(void) {
    static CongestionLinuxPragueParams params;
    static CongestionLinuxPragueState s;
    CongestionLinuxPragueConfig c;
    OK(congestion_linux_prague_config_default(&c));
    c.socket.initial_srtt_us = 10000;
    OK(congestion_linux_prague_params_init(&params, sizeof params, &c));
    OK(congestion_linux_prague_init(&s, sizeof s, &params, 0));
    uint64_t v = 0;
    uint32_t w = 0, outcome = 9;
    /* Window mode: 8e6 * 1500 (MSS 1448 + 52) / (10,000 << 3) = 150,000 per segment,
     * times 10 = 1,500,000, doubled while cwnd < ssthresh / 2: 3,000,000. */
    CHECK(GOT(congestion_linux_prague_pacing_rate(&s, &v)) == 3000000);
    OK(congestion_linux_prague_mode(&s, &w));
    CHECK(w == 0);
    /* TSO: 3,000,000 / 1500 = 2000 packets/s >> 12 = 0, at least 1. */
    OK(congestion_linux_prague_tso_segs_goal(&s, &w));
    CHECK(w == 1);
    CHECK(GOT(congestion_linux_prague_alpha(&s, &v)) == 0);
    OK(congestion_linux_prague_on_transmit(&s, 0, 10));
    /* 2 segments ACKed, no CE: slow start, cwnd 10 + 2 = 12. */
    OK(congestion_linux_prague_on_ack(&s, 10 * MS, 2, 10000, 0, 0, &outcome));
    CHECK(outcome == CONGESTION_ACK_PROCESSED);
    OK(congestion_linux_prague_on_transmit(&s, 10 * MS, 12));
    CHECK(GOT(congestion_linux_prague_cwnd(&s, &v)) == 12);
    /* Then 2 more with 1 CE mark: CWR (2). */
    OK(congestion_linux_prague_on_ack(&s, 20 * MS, 2, 10000, 1, 0, &outcome));
    OK(congestion_linux_prague_ca_state(&s, &w));
    CHECK(w == 2);
    /* An ACK beyond what was sent is discarded. */
    OK(congestion_linux_prague_on_ack(&s, 21 * MS, 100, 10000, 0, 0, &outcome));
    CHECK(outcome == CONGESTION_ACK_DISCARDED);

    OK(congestion_linux_prague_config_default(&c));
    c.prague_burst_shift = 64;
    CHECK(congestion_linux_prague_params_init(&params, sizeof params, &c) == CONGESTION_ERR_PRAGUE_BURST_SHIFT);
    return 0;
}

int main(void) {
    if (bbr_short_transfer()) return 1;
    if (bbr3_short_transfer()) return 1;
    if (bbr_reaches_probe_bw(1)) return 1;
    if (bbr_reaches_probe_bw(3)) return 1;
    if (dctcp_short_transfer()) return 1;
    if (prague_short_transfer()) return 1;
    printf("ok %d checks\n", checks);
    return 0;
}
