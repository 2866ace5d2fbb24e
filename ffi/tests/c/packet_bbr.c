/*
 * The per-packet BBR calls (congestion_rfc_bbr3_*, congestion_linux_bbr_controller_*,
 * congestion_linux_bbr3_controller_*) checked from C against the committed header and
 * the static library (ffi/tests/c_packet_bbr.rs builds and runs it; scripts/qemu.sh
 * runs it on the Cortex-M4): a QUIC-like sender over a modelled bottleneck of one
 * 1200-byte packet per ms and a 20 ms base RTT, storing each packet's
 * CongestionTxSnapshot beside it and handing it back on the packet's ACK; every flow
 * must leave Startup with a sane window and pacing rate. Then the refusals: a NULL
 * snapshot, a snapshot with flag bits no send sets, one stamped in the future, one of
 * another flow, a bad config field, a state of another algorithm. Prints "ok N checks"
 * and exits 0, or names the first failed check and exits 1.
 */
#include "congestion.h"

#include <stdio.h>
#include <string.h>

static int checks;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            fprintf(stderr, "packet_bbr.c:%d: check failed: %s\n", __LINE__, #cond); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

#define OK(call) CHECK((call) == CONGESTION_OK)

/* The snapshot is the plain 32-byte struct the header asserts; so does C here. */
_Static_assert(sizeof(CongestionTxSnapshot) == 32, "snapshot size");

#define MSS 1200u
#define BOTTLENECK_US 1000u /* one packet per ms: 1,200,000 bytes/s */
#define BASE_RTT_US 20000u
#define PACKETS 1500u
#define T0 1000000u

/* What the stack keeps per packet: its send time, its snapshot and when its ACK
 * arrives (the bottleneck's departure plus the base RTT). */
typedef struct {
    uint64_t sent_us, ack_us;
    CongestionTxSnapshot snap;
} Packet;

static Packet packets[PACKETS];

/* FNV-1a over every value the transfer reads after each call: the trace of a run in
 * one number, printed per algorithm, so that the host's run and the Cortex-M4's
 * (scripts/qemu.sh) can be compared byte for byte. */
static uint64_t trace_hash;

static void trace(uint64_t v) {
    for (int i = 0; i < 8; i++) {
        trace_hash ^= (v >> (8 * i)) & 0xffu;
        trace_hash *= 1099511628211ull;
    }
}

static uint32_t draw(void *ctx, uint32_t ceil) {
    uint32_t *x = ctx;
    *x = *x * 1103515245u + 12345u;
    return (*x >> 16) % ceil;
}

/*
 * One transfer on one algorithm, the calls named PREFIX_*; UNIT is the size of one
 * packet in the algorithm's unit (MSS bytes in RFC mode, 1 segment in Linux mode).
 * Packets leave at the pacing rate while the window allows; each is acknowledged alone
 * when its ACK arrives, with its own snapshot. Writes the final window (bytes), pacing
 * rate and phase.
 */
#define TRANSFER(NAME, PREFIX, STATE_T, UNIT)                                                \
    static int NAME(STATE_T *s, uint64_t *cwnd_bytes, uint64_t *rate, uint32_t *phase) {     \
        uint64_t now = T0, next_send = T0, bottleneck_free = T0;                             \
        uint32_t sent = 0, acked = 0;                                                        \
        uint64_t v = 0;                                                                      \
        memset(packets, 0, sizeof packets);                                                  \
        trace_hash = 14695981039346656037ull;                                                \
        while (acked < PACKETS) {                                                            \
            /* ACKs due now, oldest first. */                                                \
            while (acked < sent && packets[acked].ack_us <= now) {                           \
                Packet *p = &packets[acked];                                                 \
                OK(PREFIX##_on_ack_sampled(s, now, UNIT, acked, (int64_t)(now - p->sent_us), \
                                           0, 0, p->sent_us, &p->snap));                     \
                acked++;                                                                     \
            }                                                                                \
            uint64_t cwnd = 0, in_flight = 0, pace = 0;                                      \
            OK(PREFIX##_cwnd(s, &cwnd));                                                     \
            OK(PREFIX##_in_flight(s, &in_flight));                                           \
            OK(PREFIX##_pacing_rate(s, &pace));                                              \
            trace(now), trace(cwnd), trace(in_flight), trace(pace);                          \
            if (sent < PACKETS && in_flight + UNIT <= cwnd && next_send <= now) {            \
                Packet *p = &packets[sent];                                                  \
                OK(PREFIX##_on_packet_sent_counted(s, now, UNIT, sent, &p->snap));           \
                p->sent_us = now;                                                            \
                uint64_t arrive = now > bottleneck_free ? now : bottleneck_free;             \
                bottleneck_free = arrive + BOTTLENECK_US;                                    \
                p->ack_us = bottleneck_free + BASE_RTT_US;                                   \
                sent++;                                                                      \
                next_send = now + (pace ? (uint64_t)MSS * 1000000u / pace : 0);              \
                continue; /* send again at the same time if allowed */                       \
            }                                                                                \
            now += 100;                                                                      \
        }                                                                                    \
        uint64_t mss = 0;                                                                    \
        OK(PREFIX##_cwnd(s, &v));                                                            \
        OK(PREFIX##_mss(s, &mss));                                                           \
        *cwnd_bytes = UNIT == 1 ? v * mss : v;                                               \
        OK(PREFIX##_pacing_rate(s, rate));                                                   \
        OK(PREFIX##_phase(s, phase));                                                        \
        CHECK(mss == MSS);                                                                   \
        CHECK(*rate != 0);                                                                   \
        return 0;                                                                            \
    }

TRANSFER(transfer_rfc_bbr3, congestion_rfc_bbr3, CongestionRfcBbr3State, MSS)
TRANSFER(transfer_linux_bbr, congestion_linux_bbr_controller, CongestionLinuxBbrControllerState, 1)
TRANSFER(transfer_linux_bbr3, congestion_linux_bbr3_controller,
         CongestionLinuxBbr3ControllerState, 1)

/* A sane end state: out of Startup (phase no longer slow start), the window between
 * 4 packets and 8 BDPs (the BDP is 21 packets), the pacing rate within [0.5, 3] times
 * the bottleneck's 1.2 MB/s. */
static int sane(uint64_t cwnd_bytes, uint64_t rate, uint32_t phase) {
    CHECK(phase != CONGESTION_PHASE_SLOW_START);
    CHECK(cwnd_bytes >= 4 * MSS && cwnd_bytes <= 8 * 21 * MSS);
    CHECK(rate >= 600000u && rate <= 3600000u);
    return 0;
}

/* The refusals every per-packet family shares, on a flow that sent one packet. */
#define REFUSALS(NAME, PREFIX, STATE_T, UNIT)                                                \
    static int NAME(STATE_T *s) {                                                            \
        CongestionTxSnapshot snap, bad;                                                      \
        uint64_t before = 0, after = 0;                                                      \
        OK(PREFIX##_on_packet_sent_counted(s, T0, UNIT, 0, &snap));                          \
        CHECK(PREFIX##_on_packet_sent_counted(s, T0, UNIT, 1, NULL) == CONGESTION_ERR_NULL); \
        OK(PREFIX##_in_flight(s, &before));                                                  \
        CHECK(PREFIX##_on_ack_sampled(s, T0 + 20000, UNIT, 0, 20000, 0, 0, T0, NULL) ==      \
              CONGESTION_ERR_NULL);                                                          \
        bad = snap;                                                                          \
        bad.flags |= 1u << 30; /* no send sets it: garbage */                                \
        CHECK(PREFIX##_on_ack_sampled(s, T0 + 20000, UNIT, 0, 20000, 0, 0, T0, &bad) ==      \
              CONGESTION_ERR_SNAPSHOT);                                                      \
        bad = snap;                                                                          \
        bad.first_tx_mstamp = T0 + 10000000u; /* stamped after now */                        \
        CHECK(PREFIX##_on_ack_sampled(s, T0 + 20000, UNIT, 0, 20000, 0, 0, T0, &bad) ==      \
              CONGESTION_ERR_SNAPSHOT);                                                      \
        CHECK(PREFIX##_on_ack_sampled(s, T0 + 20000, UNIT, 0, 20000, 0, 0, T0 + 30000,       \
                                      &snap) == CONGESTION_ERR_SNAPSHOT); /* sent later */   \
        CHECK(PREFIX##_on_packet_lost(s, T0 + 20000, UNIT, 0, 0, &bad) ==                    \
              CONGESTION_ERR_SNAPSHOT);                                                      \
        OK(PREFIX##_in_flight(s, &after));                                                   \
        CHECK(after == before); /* nothing changed */                                        \
        OK(PREFIX##_on_packet_lost(s, T0 + 20000, UNIT, 0, 0, &snap));                       \
        OK(PREFIX##_in_flight(s, &after));                                                   \
        CHECK(after == 0);                                                                   \
        return 0;                                                                            \
    }

REFUSALS(refusals_rfc_bbr3, congestion_rfc_bbr3, CongestionRfcBbr3State, MSS)
REFUSALS(refusals_linux_bbr, congestion_linux_bbr_controller, CongestionLinuxBbrControllerState,
         1)
REFUSALS(refusals_linux_bbr3, congestion_linux_bbr3_controller,
         CongestionLinuxBbr3ControllerState, 1)

int main(void) {
    static CongestionRfcBbr3Params rp;
    static CongestionLinuxBbrParams lp;
    static CongestionLinuxBbr3Params lp3;
    static CongestionRfcBbr3State rs;
    static CongestionLinuxBbrControllerState ls;
    static CongestionLinuxBbr3ControllerState ls3;
    uint32_t seed = 1;
    CongestionRandom rand = {draw, &seed, 0};
    CongestionRfcBbr3Config rc;
    CongestionLinuxBbrConfig lc;
    uint64_t cwnd = 0, rate = 0;
    uint32_t state = 0, phase = 0;

    /* Configs: QUIC's defaults; a bad field names itself. */
    OK(congestion_rfc_bbr3_config_quic(&rc, MSS));
    CHECK(rc.smss == MSS && rc.initial_cwnd == 10 * MSS && rc.has_selective_acks == 1);
    rc.smss = 0;
    CHECK(congestion_rfc_bbr3_params_init(&rp, sizeof rp, &rc) == CONGESTION_ERR_MSS);
    rc.smss = 70000;
    CHECK(congestion_rfc_bbr3_params_init(&rp, sizeof rp, &rc) == CONGESTION_ERR_MSS_RANGE);
    rc.smss = MSS;
    rc.initial_cwnd = 100;
    CHECK(congestion_rfc_bbr3_params_init(&rp, sizeof rp, &rc) == CONGESTION_ERR_INITIAL_WINDOW);
    rc.initial_cwnd = 10 * MSS;
    rc.pacing_offload_bytes = 1u << 30;
    CHECK(congestion_rfc_bbr3_params_init(&rp, sizeof rp, &rc) == CONGESTION_ERR_PACING_OFFLOAD);
    rc.pacing_offload_bytes = 0;
    CHECK(congestion_rfc_bbr3_params_init(&rp, sizeof rp - 1, &rc) == CONGESTION_ERR_SIZE);
    OK(congestion_rfc_bbr3_params_init(&rp, sizeof rp, &rc));
    OK(congestion_linux_bbr_config_default(&lc));
    lc.mss = MSS;
    OK(congestion_linux_bbr_params_init(&lp, sizeof lp, &lc));
    OK(congestion_linux_bbr3_params_init(&lp3, sizeof lp3, &lc));

    /* Init: a NULL random source, a small buffer, another algorithm's block. */
    CHECK(congestion_rfc_bbr3_init(&rs, sizeof rs, &rp, T0, NULL) == CONGESTION_ERR_NULL);
    CHECK(congestion_rfc_bbr3_init(&rs, sizeof rs - 64, &rp, T0, &rand) == CONGESTION_ERR_SIZE);
    CHECK(congestion_linux_bbr_controller_init(&ls, sizeof ls, (const CongestionLinuxBbrParams *)&lp3,
                                               T0, &rand) == CONGESTION_ERR_UNINITIALIZED);

    /* The transfers. */
    OK(congestion_rfc_bbr3_init(&rs, sizeof rs, &rp, T0, &rand));
    OK(congestion_rfc_bbr3_cwnd(&rs, &cwnd));
    CHECK(cwnd == 10 * MSS);
    if (transfer_rfc_bbr3(&rs, &cwnd, &rate, &phase) || sane(cwnd, rate, phase)) return 1;
    OK(congestion_rfc_bbr3_bbr_state(&rs, &state));
    CHECK(state != CONGESTION_RFC_BBR3_STATE_STARTUP);
    printf("rfc bbr3: cwnd %llu bytes, pacing %llu bytes/s, state %u, trace %016llx\n",
           (unsigned long long)cwnd, (unsigned long long)rate, (unsigned)state, (unsigned long long)trace_hash);

    OK(congestion_linux_bbr_controller_init(&ls, sizeof ls, &lp, T0, &rand));
    if (transfer_linux_bbr(&ls, &cwnd, &rate, &phase) || sane(cwnd, rate, phase)) return 1;
    OK(congestion_linux_bbr_controller_mode(&ls, &state));
    CHECK(state != CONGESTION_BBR_MODE_STARTUP);
    printf("linux bbr: cwnd %llu bytes, pacing %llu bytes/s, mode %u, trace %016llx\n",
           (unsigned long long)cwnd, (unsigned long long)rate, (unsigned)state, (unsigned long long)trace_hash);

    OK(congestion_linux_bbr3_controller_init(&ls3, sizeof ls3, &lp3, T0, &rand));
    if (transfer_linux_bbr3(&ls3, &cwnd, &rate, &phase) || sane(cwnd, rate, phase))
        return 1;
    OK(congestion_linux_bbr3_controller_mode(&ls3, &state));
    CHECK(state != CONGESTION_BBR_MODE_STARTUP);
    printf("linux bbr3: cwnd %llu bytes, pacing %llu bytes/s, mode %u, trace %016llx\n",
           (unsigned long long)cwnd, (unsigned long long)rate, (unsigned)state, (unsigned long long)trace_hash);

    /* A state of another algorithm is refused before anything is read. */
    uint64_t v;
    CHECK(congestion_rfc_bbr3_cwnd((const CongestionRfcBbr3State *)&ls3, &v) ==
          CONGESTION_ERR_UNINITIALIZED);
    CHECK(congestion_linux_bbr_controller_cwnd((const CongestionLinuxBbrControllerState *)&ls3,
                                               &v) == CONGESTION_ERR_UNINITIALIZED);

    /* The refusals, each on a fresh flow. */
    OK(congestion_rfc_bbr3_init(&rs, sizeof rs, &rp, T0, &rand));
    if (refusals_rfc_bbr3(&rs)) return 1;
    OK(congestion_linux_bbr_controller_init(&ls, sizeof ls, &lp, T0, &rand));
    if (refusals_linux_bbr(&ls)) return 1;
    OK(congestion_linux_bbr3_controller_init(&ls3, sizeof ls3, &lp3, T0, &rand));
    if (refusals_linux_bbr3(&ls3)) return 1;
    /* A snapshot of another flow: counters ahead of this fresh one's. */
    CongestionTxSnapshot other;
    OK(congestion_linux_bbr_controller_init(&ls, sizeof ls, &lp, T0, &rand));
    OK(congestion_linux_bbr_controller_on_packet_sent_counted(&ls, T0, 1, 0, &other));
    other.delivered += 1000;
    CHECK(congestion_linux_bbr_controller_on_ack_sampled(&ls, T0 + 20000, 1, 0, 20000, 0, 0, T0,
                                                         &other) == CONGESTION_ERR_SNAPSHOT);

    printf("ok %d checks\n", checks);
    return 0;
}
