/*
 * The v0.2 event model checked from C, against the committed header and the static
 * library (ffi/tests/c_abi.rs builds and runs it): in both modes, with the same calls,
 * every lost packet of one episode reported alone gives one reduction, a loss of a
 * packet sent after recovery began gives a second, lost amounts leave flight at once,
 * CE-count increases react once per recovery, an RFC-mode flow (CUBIC and NewReno) gives
 * a pacing rate and a send quantum, an RFC-mode flow paces itself through its send path
 * fed by the same calls, and misaligned and too-small states are refused.
 * Hand-computed values in the comments. Prints "ok N checks" and exits 0, or names the
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
            fprintf(stderr, "recovery.c:%d: check failed: %s\n", __LINE__, #cond);     \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

#define OK(call) CHECK((call) == CONGESTION_OK)
#define MS 1000u

static uint64_t lget(const CongestionLinuxCubicState *s,
                     int32_t (*getter)(const CongestionLinuxCubicState *, uint64_t *)) {
    uint64_t v = 0;
    return getter(s, &v) == CONGESTION_OK ? v : 0xdeadu;
}

static uint64_t rget(const CongestionRfcCubicState *s,
                     int32_t (*getter)(const CongestionRfcCubicState *, uint64_t *)) {
    uint64_t v = 0;
    return getter(s, &v) == CONGESTION_OK ? v : 0xdeadu;
}

/* One parameter block for every Linux-mode flow here, as a stack keeps one per endpoint. */
static CongestionLinuxCubicParams linux_params;

/* Linux mode, the kernel's defaults: segments 0..=9 sent (snd_nxt, the next high_seq, 10). */
static int linux_ten(CongestionLinuxCubicState *s) {
    CongestionLinuxCubicConfig c;
    OK(congestion_linux_cubic_config_default(&c));
    OK(congestion_linux_cubic_params_init(&linux_params, sizeof linux_params, &c));
    OK(congestion_linux_cubic_init(s, sizeof *s, &linux_params, 0));
    OK(congestion_linux_cubic_on_sent(s, 0, 10, 10));
    return 0;
}

/* RFC mode's parameter block: CUBIC's and NewReno's flows each get one. */
static CongestionRfcCubicParams rfc_params[2];

/* RFC mode (MSS 1200, IW 12000), CUBIC or NewReno, packets 1..=10 sent, the flow counting. */
static int rfc_ten(CongestionRfcCubicState *s, uint8_t algorithm) {
    CongestionRfcCubicConfig c;
    CongestionRfcCubicParams *p = &rfc_params[algorithm == CONGESTION_RFC_ALGORITHM_NEWRENO];
    OK(congestion_rfc_cubic_config_default(&c));
    c.algorithm = algorithm;
    OK(congestion_rfc_cubic_params_init(p, sizeof *p, &c));
    OK(congestion_rfc_cubic_init(s, sizeof *s, p, 0));
    for (uint64_t pn = 1; pn <= 10; pn++) OK(congestion_rfc_cubic_on_sent_counted(s, 0, 1200, pn));
    CHECK(rget(s, congestion_rfc_cubic_in_flight) == 12000);
    return 0;
}

static int linux_mode(void) {
    CongestionLinuxCubicState s;
    uint32_t phase;
    /* One episode reported segment by segment: 10 * 717 >> 10 = 7, once; 10 - 4 in flight. */
    if (linux_ten(&s)) return 1;
    for (uint64_t seq = 0; seq < 4; seq++) OK(congestion_linux_cubic_on_loss(&s, 30 * MS, 1, seq));
    CHECK(lget(&s, congestion_linux_cubic_cwnd) == 7 && lget(&s, congestion_linux_cubic_ssthresh) == 7);
    CHECK(lget(&s, congestion_linux_cubic_in_flight) == 6);
    OK(congestion_linux_cubic_phase(&s, &phase));
    CHECK(phase == CONGESTION_PHASE_RECOVERY);
    /* Segment 10 goes out in the recovery period and is lost: 7 * 717 >> 10 = 4. */
    OK(congestion_linux_cubic_on_sent(&s, 31 * MS, 7, 11));
    OK(congestion_linux_cubic_on_loss(&s, 60 * MS, 1, 10));
    CHECK(lget(&s, congestion_linux_cubic_cwnd) == 4);
    /* Lost and discarded segments leave flight at once: 7 - 1 - 2 = 4. */
    OK(congestion_linux_cubic_on_discarded(&s, 61 * MS, 2));
    CHECK(lget(&s, congestion_linux_cubic_in_flight) == 4);

    /* CE: one reduction for marks on segments before high_seq, a second after it. */
    if (linux_ten(&s)) return 1;
    OK(congestion_linux_cubic_on_ecn(&s, 30 * MS, 1, 1));
    OK(congestion_linux_cubic_on_ecn(&s, 31 * MS, 3, 9));
    CHECK(lget(&s, congestion_linux_cubic_cwnd) == 7 && lget(&s, congestion_linux_cubic_in_flight) == 10);
    OK(congestion_linux_cubic_on_ecn(&s, 60 * MS, 1, 10));
    CHECK(lget(&s, congestion_linux_cubic_cwnd) == 4);

    /* No ssthresh yet: UINT64_MAX; the pacing rate and the burst once an RTT is known:
     * 1448 * 20 * 200 % / 20 ms = 2,896,000 B/s; tcp_tso_autosize gives 2 segments. */
    if (linux_ten(&s)) return 1;
    CHECK(lget(&s, congestion_linux_cubic_ssthresh) == CONGESTION_SSTHRESH_NONE);
    OK(congestion_linux_cubic_on_ack(&s, 20 * MS, 10, 10, 20000, 0));
    CHECK(lget(&s, congestion_linux_cubic_cwnd) == 20);
    CHECK(lget(&s, congestion_linux_cubic_pacing_rate) == 2896000);
    CHECK(lget(&s, congestion_linux_cubic_send_quantum) == 2 * 1448);
    return 0;
}

static int rfc_mode(void) {
    CongestionRfcCubicState s;
    uint32_t phase;
    /* CUBIC: 12000 * 0.7 = 8400 once for packets 1..=4; NewReno: 12000 / 2 = 6000. Then
     * packet 11, sent in the recovery period, is lost: 8400 * 0.7 = 5880, 6000 / 2 = 3000. */
    const uint8_t algorithms[2] = {CONGESTION_RFC_ALGORITHM_CUBIC, CONGESTION_RFC_ALGORITHM_NEWRENO};
    const uint64_t first[2] = {8400, 6000}, second[2] = {5880, 3000};
    for (int a = 0; a < 2; a++) {
        if (rfc_ten(&s, algorithms[a])) return 1;
        for (uint64_t pn = 1; pn <= 4; pn++) OK(congestion_rfc_cubic_on_loss(&s, 30 * MS, 1200, pn));
        CHECK(rget(&s, congestion_rfc_cubic_cwnd) == first[a]);
        CHECK(rget(&s, congestion_rfc_cubic_ssthresh) == first[a]);
        CHECK(rget(&s, congestion_rfc_cubic_in_flight) == 12000 - 4 * 1200);
        OK(congestion_rfc_cubic_phase(&s, &phase));
        CHECK(phase == CONGESTION_PHASE_RECOVERY);
        OK(congestion_rfc_cubic_on_sent_counted(&s, 31 * MS, 1200, 11));
        OK(congestion_rfc_cubic_on_loss(&s, 60 * MS, 1200, 11));
        CHECK(rget(&s, congestion_rfc_cubic_cwnd) == second[a]);
        OK(congestion_rfc_cubic_on_loss(&s, 61 * MS, 1200, 5)); /* sent before both: no cut */
        CHECK(rget(&s, congestion_rfc_cubic_cwnd) == second[a]);
        CHECK(rget(&s, congestion_rfc_cubic_in_flight) == 12000 + 1200 - 6 * 1200);

        /* Pacing: before an RTT sample none; after the ACK of 2400 bytes with 20 ms, slow
         * start's 14400 * 200 % / 20 ms = 1,440,000 B/s and a burst of 2 * 1200 bytes. */
        if (rfc_ten(&s, algorithms[a])) return 1;
        CHECK(rget(&s, congestion_rfc_cubic_pacing_rate) == CONGESTION_RATE_UNLIMITED);
        OK(congestion_rfc_cubic_on_ack(&s, 20 * MS, 2400, 2, 20000, 0));
        CHECK(rget(&s, congestion_rfc_cubic_cwnd) == 14400);
        CHECK(rget(&s, congestion_rfc_cubic_pacing_rate) == 1440000);
        CHECK(rget(&s, congestion_rfc_cubic_send_quantum) == 2400);
    }
    /* CE once per recovery: 14400 * 0.7 = 10080; marks on packets up to 10 do not cut
     * again; a mark on packet 11, sent after the reduction, does: 10080 * 0.7 = 7056. */
    if (rfc_ten(&s, CONGESTION_RFC_ALGORITHM_CUBIC)) return 1;
    OK(congestion_rfc_cubic_on_ack(&s, 20 * MS, 2400, 2, 20000, 0));
    OK(congestion_rfc_cubic_on_ecn(&s, 20 * MS, 1, 2));
    OK(congestion_rfc_cubic_on_ecn(&s, 21 * MS, 2, 10));
    CHECK(rget(&s, congestion_rfc_cubic_cwnd) == 10080);
    OK(congestion_rfc_cubic_on_sent_counted(&s, 22 * MS, 1200, 11));
    OK(congestion_rfc_cubic_on_ecn(&s, 40 * MS, 1, 11));
    CHECK(rget(&s, congestion_rfc_cubic_cwnd) == 7056);
    return 0;
}

/* An RFC-mode flow that paces itself: the send path in its state sees the same on_ack
 * (the RTT once) and gives each burst's departure. */
static int rfc_paced(void) {
    static CongestionRfcCubicParams p;
    CongestionRfcCubicConfig c;
    CongestionRfcCubicState s;
    uint32_t verdict, segments;
    uint64_t departure, pn = 0;
    uint8_t reopened;
    OK(congestion_rfc_cubic_config_default(&c));
    c.pacing_status = 1;
    OK(congestion_rfc_cubic_params_init(&p, sizeof p, &c));
    OK(congestion_rfc_cubic_init(&s, sizeof s, &p, 0));
    /* No RTT yet, no pacing: the 12000-byte initial window leaves in two bursts of 5. */
    for (;;) {
        OK(congestion_rfc_cubic_send_poll(&s, 0, 0, 0, &verdict, &segments, &departure));
        if (verdict != CONGESTION_SEND_NOW) break;
        CHECK(segments == 5);
        OK(congestion_rfc_cubic_send_enqueue(&s, 0, segments * 1200, segments, 0, 0, &departure));
        CHECK(departure == 0);
        pn += segments;
        OK(congestion_rfc_cubic_on_sent_counted(&s, 0, segments * 1200, pn));
    }
    CHECK(verdict == CONGESTION_SEND_WAIT_FOR_ACK && pn == 10);
    OK(congestion_rfc_cubic_send_tx_completion(&s, 12000, &reopened));
    /* 1,440,000 B/s after the first ACK; a burst of 2 segments departs now, the next
     * 2400 B / 1,440,000 B/s = 1,666,666 ns later less half of it forgiven for coming
     * 20 ms late: 20,833,333 ns. */
    OK(congestion_rfc_cubic_on_ack(&s, 20 * MS, 2400, 2, 20000, 0));
    OK(congestion_rfc_cubic_send_poll(&s, 20 * MS, 0, 0, &verdict, &segments, &departure));
    CHECK(verdict == CONGESTION_SEND_NOW && segments == 2);
    OK(congestion_rfc_cubic_send_enqueue(&s, 20 * MS, 2400, 2, 0, 0, &departure));
    CHECK(departure == 20000000u);
    OK(congestion_rfc_cubic_on_sent_counted(&s, 20 * MS, 2400, 12));
    OK(congestion_rfc_cubic_send_poll(&s, 20 * MS + 1, 0, 0, &verdict, &segments, &departure));
    CHECK(verdict == CONGESTION_SEND_WAIT_UNTIL && departure == 20833333u);
    return 0;
}

static int refusals(void) {
    /* 8-aligned storage; a pointer 4 bytes into it is misaligned for either state
       (Linux mode's needs 64, RFC mode's 8). */
    static uint64_t buffer[CONGESTION_RFC_STATE_WORDS + 1];
    CongestionLinuxCubicConfig lc;
    CongestionRfcCubicConfig rc;
    uint64_t v;
    OK(congestion_linux_cubic_config_default(&lc));
    OK(congestion_rfc_cubic_config_default(&rc));
    CongestionLinuxCubicState *l = (CongestionLinuxCubicState *)(void *)((unsigned char *)buffer + 4);
    CongestionRfcCubicState *r = (CongestionRfcCubicState *)(void *)((unsigned char *)buffer + 4);
    OK(congestion_linux_cubic_params_init(&linux_params, sizeof linux_params, &lc));
    CHECK(congestion_linux_cubic_init(l, CONGESTION_LINUX_STATE_SIZE, &linux_params, 0) ==
          CONGESTION_ERR_ALIGNMENT);
    CHECK(congestion_linux_cubic_on_loss(l, 0, 1, 1) == CONGESTION_ERR_ALIGNMENT);
    CHECK(congestion_linux_cubic_cwnd(l, &v) == CONGESTION_ERR_ALIGNMENT);
    OK(congestion_rfc_cubic_params_init(&rfc_params[0], sizeof rfc_params[0], &rc));
    CHECK(congestion_rfc_cubic_init(r, CONGESTION_RFC_STATE_SIZE, &rfc_params[0], 0) ==
          CONGESTION_ERR_ALIGNMENT);
    CHECK(congestion_rfc_cubic_on_ack(r, 0, 1, 1, 1, 0) == CONGESTION_ERR_ALIGNMENT);
    CHECK(congestion_rfc_cubic_pacing_rate(r, &v) == CONGESTION_ERR_ALIGNMENT);
    for (size_t i = 0; i < sizeof buffer / sizeof buffer[0]; i++) CHECK(buffer[i] == 0);
    /* Too small: refused, nothing written. */
    CongestionLinuxCubicState ls;
    CongestionRfcCubicState rs;
    memset(&ls, 0, sizeof ls);
    memset(&rs, 0, sizeof rs);
    CHECK(congestion_linux_cubic_init(&ls, sizeof ls - 1, &linux_params, 0) == CONGESTION_ERR_SIZE);
    CHECK(congestion_rfc_cubic_init(&rs, CONGESTION_LINUX_STATE_SIZE, &rfc_params[0], 0) ==
          CONGESTION_ERR_SIZE);
    CHECK(congestion_linux_cubic_cwnd(&ls, &v) == CONGESTION_ERR_UNINITIALIZED);
    CHECK(congestion_rfc_cubic_cwnd(&rs, &v) == CONGESTION_ERR_UNINITIALIZED);
    /* A state of the other mode, in storage that could hold either (an RFC-mode call
     * reads its magic word where an RFC-mode state keeps it, past a Linux state's end). */
    static union {
        CongestionLinuxCubicState linux;
        CongestionRfcCubicState rfc;
    } either;
    OK(congestion_linux_cubic_init(&either.linux, sizeof either.linux, &linux_params, 0));
    CHECK(congestion_rfc_cubic_cwnd(&either.rfc, &v) == CONGESTION_ERR_UNINITIALIZED);
    return 0;
}

int main(void) {
    if (linux_mode() || rfc_mode() || rfc_paced() || refusals()) return 1;
    printf("ok %d checks\n", checks);
    return 0;
}
