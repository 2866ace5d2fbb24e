/* One Linux-mode CUBIC flow in caller-owned memory: sends, ACKs, a loss. */
#include <inttypes.h>
#include <stdio.h>
#include "congestion.h" /* ffi/include/: the C ABI, no malloc */

static CongestionLinuxCubicParams params; /* once, shared by every flow: validated settings */
static CongestionLinuxCubicState flow;    /* per flow: a static, a table slot; 64-byte aligned */

int main(void) {
    CongestionLinuxCubicConfig cfg;
    uint64_t now_us = 0, cwnd = 0, sent = 0, acked = 0;
    congestion_linux_cubic_config_default(&cfg); /* Linux defaults: IW10, HyStart, CUBIC */
    cfg.mss = 1448;
    if (congestion_linux_cubic_params_init(&params, sizeof params, &cfg) != CONGESTION_OK ||
        congestion_linux_cubic_init(&flow, sizeof flow, &params, now_us) != CONGESTION_OK)
        return 1;
    for (int round = 1; round <= 3; round++) {
        /* Send the window: segments in flight after the send, the largest sequence sent. */
        congestion_linux_cubic_cwnd(&flow, &cwnd);
        for (; sent - acked < cwnd; sent++)
            congestion_linux_cubic_on_sent(&flow, now_us, sent - acked + 1, sent + 1);
        /* 20 ms later an ACK per two segments: acked, largest acked, RTT (us; -1: none),
           app-limited (0: no). */
        now_us += 20000;
        for (; acked < sent; acked += 2)
            congestion_linux_cubic_on_ack(&flow, now_us, 2, acked + 2, 20000, 0);
        congestion_linux_cubic_cwnd(&flow, &cwnd);
        printf("round %d: cwnd %" PRIu64 " segments\n", round, cwnd);
    }
    /* A segment sent at now_us is declared lost 30 ms later, named by its send time:
       one reduction per recovery period. */
    congestion_linux_cubic_on_sent(&flow, now_us, 1, ++sent);
    congestion_linux_cubic_on_loss_sent_at(&flow, now_us + 30000, 1, now_us);
    congestion_linux_cubic_cwnd(&flow, &cwnd);
    printf("after a loss: cwnd %" PRIu64 " segments\n", cwnd);
    return 0;
}
