/*
 * A firmware main loop a C team can copy: one TCP-like flow paced and windowed by the
 * congestion library's C ABI (Linux mode, `congestion_linux_cubic_*`), with no heap and no
 * std. It feeds the library the events a NIC core sees (sends, ACKs, losses, timers, TX
 * completions) and asks the send-path verdict before every transmission. Every lost
 * segment is reported on its own: the flow reduces once per recovery period and ignores
 * losses of segments sent before the current one began, so the stack keeps no recovery
 * filter of its own. The flow also keeps the count of segments in flight.
 *
 * The "NIC" here is a model so that the program runs anywhere (scripts/qemu.sh runs it
 * on an emulated Cortex-M4): a 50 Mbit/s bottleneck with a 10 ms round trip and a
 * 64-packet drop-tail buffer. Replace path_send() / next_ack() with your hardware's
 * queues and the virtual clock with your timer.
 */
#include "congestion.h"

#include <stdint.h>
#include <stdio.h>

#define MSS 1448u
#define LINK_BYTES_PER_SEC (50000000u / 8u)
#define PROPAGATION_RTT_US 10000u
#define BUFFER_PACKETS 64u
#define RUN_US 3000000u            /* 3 s of virtual time */
#define RTO_US 200000u             /* retransmission timeout of this toy stack */
#define RING 1024u                 /* packets the path model can hold in flight */

/* ---- the path model: per segment, when its ACK comes back (or that it was lost) ---- */
static uint64_t sent_at_us[RING], ack_at_us[RING];
static uint8_t lost[RING];
static uint32_t head, tail;          /* segments sent = tail, resolved = head */
static uint64_t link_free_us;

/* Time one segment takes on the bottleneck, us (231 at 50 Mbit/s). */
#define SEGMENT_TIME_US ((uint64_t)MSS * 1000000u / LINK_BYTES_PER_SEC)

/* Hands one segment to the path at `now_us`; drop-tail when the queue is full. */
static void path_send(uint64_t now_us) {
    uint64_t start = link_free_us > now_us ? link_free_us : now_us;
    uint64_t queued = (start - now_us) / SEGMENT_TIME_US;
    uint32_t slot = tail++ % RING;
    sent_at_us[slot] = now_us;
    lost[slot] = queued >= BUFFER_PACKETS;
    if (!lost[slot]) link_free_us = start + SEGMENT_TIME_US;
    /* A lost segment is reported one round trip later (three duplicate ACKs). */
    ack_at_us[slot] = (lost[slot] ? now_us : link_free_us) + PROPAGATION_RTT_US;
}

int main(void) {
    static CongestionLinuxCubicParams params; /* one block, shared by every flow */
    static CongestionLinuxCubicState flow; /* caller-owned: a static, a table slot, the stack */
    CongestionLinuxCubicConfig cfg;
    congestion_linux_cubic_config_default(&cfg); /* Linux defaults: IW10, HyStart, CUBIC */
    cfg.mss = MSS;
    cfg.pacing_status = 1;           /* this firmware paces (EDT), no fq qdisc below */
    if (congestion_linux_cubic_params_init(&params, sizeof params, &cfg) != CONGESTION_OK) return 1;
    if (congestion_linux_cubic_init(&flow, sizeof flow, &params, 0) != CONGESTION_OK) return 1;

    uint64_t now = 0, wake_at = 0, last_ack_us = 0;
    uint32_t delivered = 0, lost_segments = 0, reductions = 0, timeouts = 0;
    uint64_t next_report = 0;

    while (now < RUN_US) {
        /* 1. ACK events: every segment the path resolved by now. */
        while (head != tail && ack_at_us[head % RING] <= now) {
            uint32_t seq = head++, slot = seq % RING;
            if (lost[slot]) {
                /* Report every lost segment, named by its send time: the flow reduces
                 * once per recovery period, and the lost segment leaves flight. */
                uint64_t ssthresh_before, ssthresh_after;
                congestion_linux_cubic_ssthresh(&flow, &ssthresh_before);
                congestion_linux_cubic_on_loss_sent_at(&flow, now, 1, sent_at_us[slot]);
                congestion_linux_cubic_ssthresh(&flow, &ssthresh_after);
                lost_segments++;
                reductions += ssthresh_after != ssthresh_before; /* a new ssthresh: a reduction */
                continue;
            }
            delivered++;
            last_ack_us = now;
            /* One segment acknowledged, up to sequence seq + 1; the RTT sample, us. */
            congestion_linux_cubic_on_ack(&flow, now, 1, seq + 1, (int64_t)(now - sent_at_us[slot]), 0);
        }
        /* 2. Timer events: the retransmission timeout. */
        uint64_t in_flight;
        congestion_linux_cubic_in_flight(&flow, &in_flight);
        if (in_flight > 0 && now - last_ack_us > RTO_US) {
            congestion_linux_cubic_on_rto(&flow, now);
            timeouts++;
            last_ack_us = now;
        }
        /* 3. Send while the send path says so (window, EDT pacer, TSQ, TSO burst). */
        for (;;) {
            uint32_t verdict, segments;
            uint64_t departure_ns;
            congestion_linux_cubic_in_flight(&flow, &in_flight);
            congestion_linux_cubic_send_poll(&flow, now, 0, in_flight <= 1, &verdict, &segments,
                                       &departure_ns);
            if (verdict == CONGESTION_SEND_WAIT_UNTIL) {
                wake_at = departure_ns / 1000;   /* arm the pacing timer */
                break;
            }
            if (verdict != CONGESTION_SEND_NOW) break; /* wait for an ACK / TX completion */
            if (tail - head + segments > RING) break; /* descriptor ring full */
            uint64_t at_ns;
            if (congestion_linux_cubic_send_enqueue(&flow, now, segments * MSS, segments, 0,
                                              in_flight <= 1, &at_ns) != CONGESTION_OK)
                break;                            /* TSQ throttled: wait for completion */
            for (uint32_t i = 0; i < segments; i++) path_send(now);
            /* The flow counts what is in flight: `segments` more, up to sequence tail. */
            congestion_linux_cubic_on_sent_counted(&flow, now, segments, tail);
            uint8_t reopened;                     /* the NIC reports the burst sent */
            congestion_linux_cubic_send_tx_completion(&flow, segments * MSS, &reopened);
        }
        if (now >= next_report) {
            uint64_t cwnd, rate, quantum;
            uint32_t phase;
            congestion_linux_cubic_cwnd(&flow, &cwnd);
            congestion_linux_cubic_phase(&flow, &phase);
            congestion_linux_cubic_in_flight(&flow, &in_flight);
            congestion_linux_cubic_pacing_rate(&flow, &rate);
            congestion_linux_cubic_send_quantum(&flow, &quantum);
            printf("t=%4lu ms cwnd=%4lu phase=%lu in_flight=%4lu pacing=%lu kB/s burst=%lu B\n",
                   (unsigned long)(now / 1000), (unsigned long)cwnd, (unsigned long)phase,
                   (unsigned long)in_flight,
                   (unsigned long)(rate == CONGESTION_RATE_UNLIMITED ? 0 : rate / 1000),
                   (unsigned long)quantum);
            next_report += 250000;
        }
        /* 4. Sleep until the next event: an ACK, the pacing timer, or 1 ms. */
        uint64_t next = now + 1000;
        if (head != tail && ack_at_us[head % RING] < next) next = ack_at_us[head % RING];
        if (wake_at > now && wake_at < next) next = wake_at;
        now = next > now ? next : now + 1;
    }
    uint64_t goodput_kbps = (uint64_t)delivered * MSS * 8 / (RUN_US / 1000);
    printf("delivered %lu segments (%lu kbit/s of %lu), %lu lost segments in %lu reductions, "
           "%lu timeouts\n",
           (unsigned long)delivered, (unsigned long)goodput_kbps,
           (unsigned long)(LINK_BYTES_PER_SEC * 8 / 1000), (unsigned long)lost_segments,
           (unsigned long)reductions, (unsigned long)timeouts);
    /* A sanity check for CI: the flow filled most of the link and never timed out. */
    return goodput_kbps * 10 >= (uint64_t)LINK_BYTES_PER_SEC * 8 / 1000 * 7 && timeouts == 0 ? 0 : 1;
}
