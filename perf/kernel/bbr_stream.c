/* The BBR streams of perf/src/bbr driving Linux's own C: tcp_bbr.c's ops, tcp_rate.c's
 * sampler, win_minmax.c, and tcp_update_skb_after_send() / tcp_update_rtt_min() from
 * tcp_output.c / tcp_input.c (compiled from a kernel tree by scripts/kernel-bbr.sh), so
 * their instructions per ACK can be set beside `linux::Bbr`'s (scripts/instructions.sh,
 * ONLY=bbr).
 *
 *   bbr_stream <kernel|null> <bbr-steady|bbr-probertt> <n>
 *
 * The stream is the Rust one, tick for tick: the path delivers a packet no earlier than
 * 20 ms after it left, at most 2 per 40 µs tick; one ACK per tick with a packet due;
 * after every tick the sender sends one segment at a time while cwnd allows and the
 * pacing clock (tcp_wstamp_ns) has reached now. The stack side is the Rust wrapper's
 * scoreboard (perf/src/bbr/ours.rs): the oldest segment on the wire dropped at a loss,
 * marked lost on the next ACK, retransmitted first, SACKs above it until it arrives.
 * Per ACK, in tcp_ack()'s order: tcp_rate_skb_delivered() per (S)ACKed skb, the min-RTT
 * filter, the end or start of Recovery (set_state, ssthresh as tcp_enter_recovery()
 * calls them), tcp_rate_gen(), then cong_control (bbr_main) through the ops, an
 * indirect call as in the kernel. Per segment sent, as __tcp_transmit_skb() does it: the
 * departure time, tcp_rate_skb_sent(), CA_EVENT_TX_START into an empty pipe, the
 * pacing step. `null` runs the same scoreboard and loop at a fixed 2000-segment window,
 * unpaced, with no kernel code: the stream alone, to subtract. */
#include "bbr_shim.h"

#include <stdio.h>
#include <stdlib.h>

#define RTT_US 20000u
#define LATE_RTT_US (RTT_US + 100u)
#define ACK_INTERVAL_US 40u
#define START_US 1000000u
#define MSS 1200u
#define WARMUP_ACKS 37500u
#define STEADY_CYCLE_ACKS 50000u
#define PROBE_RTT_LEAD_ACKS 2500u
#define PROBE_RTT_CYCLE_ACKS 25000u
#define LOSS_EVERY_ACKS 2500u
#define PROBE_RTT_WAIT_MAX_ACKS 300000u
#define RING (1u << 15)
#define NONE 0xffffffffu
#define BBR_PROBE_RTT 3

u32 tcp_jiffies32;
struct net init_net = { .ipv4 = { .sysctl_tcp_min_rtt_wlen = 300 } };
static struct tcp_congestion_ops *registered;
int kernel_module_init(void);
int harness_bbr_mode(struct sock *sk);

/* tcp_update_skb_after_send(), tcp_update_rtt_min(): extracted by the script. */
#include "kernel_glue.h"

int tcp_register_congestion_control(struct tcp_congestion_ops *ops)
{
	registered = ops;
	return 0;
}

void tcp_unregister_congestion_control(struct tcp_congestion_ops *ops)
{
	(void)ops;
	registered = NULL;
}

static u32 xorshift = 0x9e3779b9u;

/* get_random_u32_below(): the Rust streams' generator (xorshift32, multiply-shift). */
u32 harness_random_below(u32 ceil)
{
	u32 x = xorshift;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	xorshift = x;
	return (u32)(((u64)x * (ceil ? ceil : 1)) >> 32);
}

__attribute__((noinline, cold)) void warn_slowpath(const char *file, int line)
{
	fprintf(stderr, "WARN_ON_ONCE at %s:%d\n", file, line);
}

/* The hooks, or nothing for the null stream; volatile so that the calls stay indirect. */
static struct tcp_congestion_ops *volatile ops;
static int null_stream;

struct flow {
	struct tcp_sock tp;
	struct sk_buff skbs[RING];
	struct {
		u32 seq;
		u64 sent_us;
	} wire[RING];
	u32 wire_head, wire_len, hole, high_sacked, losses;
	bool pending_loss, retransmit_due;
};

static void clocks(struct tcp_sock *tp, u64 now_us)
{
	tp->tcp_mstamp = now_us;
	tp->tcp_clock_cache = now_us * 1000;
	tcp_jiffies32 = (u32)(now_us / 1000);
}

static u32 due(const struct flow *f, u64 now_us)
{
	u32 n = 0;
	for (u32 i = 0; i < 2 && i < f->wire_len; i++)
		if (f->wire[(f->wire_head + i) & (RING - 1)].sent_us + RTT_US <= now_us)
			n++;
	return n;
}

static u32 pop(struct flow *f)
{
	u32 seq = f->wire[f->wire_head & (RING - 1)].seq;
	f->wire_head++;
	f->wire_len--;
	return seq;
}

static void flow_ack(struct flow *f, u64 now_us, u32 packets, u32 rtt_us)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = &tp->sk;
	struct rate_sample rs = { .prior_in_flight = tcp_packets_in_flight(tp) };
	u32 prior_delivered = tp->delivered, prior_lost = tp->lost;

	clocks(tp, now_us);
	if (f->pending_loss) {
		f->pending_loss = false;
		if (f->hole == NONE && f->wire_len > packets) {
			u32 seq = pop(f);
			TCP_SKB_CB(&f->skbs[seq & (RING - 1)])->sacked |= TCPCB_LOST;
			f->hole = seq;
			f->high_sacked = seq;
			tp->lost_out++;
			tp->lost++;
			f->retransmit_due = true;
			f->losses++;
		}
	}
	for (u32 i = 0; i < packets && i < 2 && f->wire_len; i++) {
		u32 seq = pop(f);
		struct sk_buff *skb = &f->skbs[seq & (RING - 1)];
		struct tcp_skb_cb *scb = TCP_SKB_CB(skb);

		if (f->hole == NONE) {
			if (!null_stream)
				tcp_rate_skb_delivered(sk, skb, &rs);
			tp->snd_una = seq + 1;
			tp->packets_out--;
		} else if (seq == f->hole) {
			if (!null_stream)
				tcp_rate_skb_delivered(sk, skb, &rs);
			u32 una = f->high_sacked > seq + 1 ? f->high_sacked : seq + 1;
			tp->packets_out -= una - tp->snd_una;
			tp->snd_una = una;
			tp->sacked_out = 0;
			tp->lost_out = 0;
			tp->retrans_out = 0;
			f->hole = NONE;
		} else {
			scb->sacked |= TCPCB_SACKED_ACKED;
			if (!null_stream)
				tcp_rate_skb_delivered(sk, skb, &rs);
			tp->sacked_out++;
			f->high_sacked = seq + 1;
		}
		tp->delivered++;
	}
	if (null_stream)
		return;
	rs.rtt_us = rtt_us;
	tcp_update_rtt_min(sk, rtt_us, 0);
	tp->srtt_us = RTT_US << 3; /* the stack's smoothed RTT, as the Rust wrapper's */
	if (tp->icsk_ca_state == TCP_CA_Recovery && !before(tp->snd_una, tp->high_seq)) {
		ops->set_state(sk, TCP_CA_Open);
		tp->icsk_ca_state = TCP_CA_Open;
	}
	if (tp->icsk_ca_state < TCP_CA_Recovery && tp->lost_out) {
		/* tcp_enter_recovery() -> tcp_init_cwnd_reduction(), tcp_set_ca_state() */
		tp->prior_ssthresh = 0;
		tp->high_seq = tp->snd_nxt;
		tp->snd_cwnd_cnt = 0;
		tp->prior_cwnd = tp->snd_cwnd;
		tp->snd_ssthresh = ops->ssthresh(sk);
		ops->set_state(sk, TCP_CA_Recovery);
		tp->icsk_ca_state = TCP_CA_Recovery;
	}
	tcp_rate_gen(sk, tp->delivered - prior_delivered, tp->lost - prior_lost, false, &rs);
#ifdef CONG_CONTROL_ACK_FLAG
	ops->cong_control(sk, tp->snd_una, 0, &rs);
#else
	ops->cong_control(sk, &rs);
#endif
}

static void flow_send(struct flow *f, u64 now_us)
{
	struct tcp_sock *tp = &f->tp;
	struct sock *sk = &tp->sk;
	u32 seq;
	bool retrans = f->retransmit_due;

	if (retrans) {
		f->retransmit_due = false;
		seq = f->hole;
	} else {
		seq = tp->snd_nxt++;
		if (tp->packets_out + 1 >= RING) {
			fprintf(stderr, "flight above RING\n");
			exit(1);
		}
	}
	struct sk_buff *skb = &f->skbs[seq & (RING - 1)];
	struct tcp_skb_cb *scb = TCP_SKB_CB(skb);
	scb->seq = seq;
	scb->end_seq = seq + 1;
	scb->sacked = retrans ? TCPCB_EVER_RETRANS | TCPCB_SACKED_RETRANS : 0;
	skb->len = MSS;
	if (!null_stream) {
		clocks(tp, now_us);
		u64 prior_wstamp = tp->tcp_wstamp_ns;
		tp->tcp_wstamp_ns = max(tp->tcp_wstamp_ns, tp->tcp_clock_cache);
		skb->skb_mstamp_ns = tp->tcp_wstamp_ns;
		tcp_rate_skb_sent(sk, skb);
		if (tcp_packets_in_flight(tp) == 0)
			ops->cwnd_event(sk, CA_EVENT_TX_START);
		tp->data_segs_out++;
		tcp_update_skb_after_send(sk, skb, prior_wstamp);
	} else {
		skb->skb_mstamp_ns = now_us * 1000;
	}
	if (retrans)
		tp->retrans_out++;
	else
		tp->packets_out++;
	f->wire[(f->wire_head + f->wire_len) & (RING - 1)].seq = seq;
	f->wire[(f->wire_head + f->wire_len) & (RING - 1)].sent_us = now_us;
	f->wire_len++;
}

static u32 cwnd(const struct flow *f)
{
	return null_stream ? 2000 : f->tp.snd_cwnd;
}

static bool may_send(const struct flow *f, u64 now_us)
{
	return null_stream || f->tp.tcp_wstamp_ns <= now_us * 1000;
}

static int phase_probe_rtt(struct flow *f)
{
	return null_stream || harness_bbr_mode(&f->tp.sk) == BBR_PROBE_RTT;
}

struct stream {
	struct flow snapshot, live;
	u64 snapshot_now_us, now_us;
	u32 acks_in_cycle, cycle_acks, loss_every, rtt_us;
};

static void send_allowed(struct stream *s, u64 now)
{
	while (cwnd(&s->live) > tcp_packets_in_flight(&s->live.tp) && may_send(&s->live, now))
		flow_send(&s->live, now);
}

static void one_ack(struct stream *s)
{
	for (;;) {
		s->now_us += ACK_INTERVAL_US;
		u32 acked = due(&s->live, s->now_us);
		if (acked)
			flow_ack(&s->live, s->now_us, acked, s->rtt_us);
		send_allowed(s, s->now_us);
		if (acked)
			return;
	}
}

static void warm(struct stream *s, u32 acks)
{
	struct tcp_sock *tp = &s->live.tp;

	memset(&s->live, 0, sizeof(s->live));
	s->live.hole = NONE;
	tp->snd_cwnd = 10;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
	tp->snd_cwnd_clamp = ~0u;
	tp->mss_cache = MSS;
	tp->sk.sk_max_pacing_rate = ~0ul;
	tp->sk.sk_pacing_shift = 10;
	tp->sk.sk_gso_max_size = 65536;
	tp->app_limited = ~0u; /* tcp_init_sock(): a bubble until the first ACK */
	tp->rx_opt.sack_ok = 1;
	s->now_us = START_US;
	s->rtt_us = RTT_US;
	clocks(tp, START_US);
	minmax_reset(&tp->rtt_min, tcp_jiffies32, ~0u);
	xorshift = 0x9e3779b9u;
	if (!null_stream) {
		tp->icsk_ca_ops = ops;
		ops->init(&tp->sk);
	}
	send_allowed(s, s->now_us);
	for (u32 i = 0; i < acks; i++)
		one_ack(s);
}

static void stream_init(struct stream *s, int probertt)
{
	warm(s, WARMUP_ACKS);
	s->cycle_acks = STEADY_CYCLE_ACKS;
	if (probertt) {
		u32 more = 0;
		s->rtt_us = LATE_RTT_US;
		while (!phase_probe_rtt(&s->live) && more < PROBE_RTT_WAIT_MAX_ACKS) {
			one_ack(s);
			more++;
		}
		if (!phase_probe_rtt(&s->live)) {
			fprintf(stderr, "no PROBE_RTT\n");
			exit(1);
		}
		u32 lead = more > PROBE_RTT_LEAD_ACKS ? more - PROBE_RTT_LEAD_ACKS : 0;
		warm(s, WARMUP_ACKS);
		s->rtt_us = LATE_RTT_US;
		for (u32 i = 0; i < lead; i++)
			one_ack(s);
		s->cycle_acks = PROBE_RTT_CYCLE_ACKS;
		s->loss_every = LOSS_EVERY_ACKS;
	}
	s->snapshot = s->live;
	s->snapshot_now_us = s->now_us;
}

static u32 losses_total;

static void step(struct stream *s)
{
	if (s->loss_every && s->acks_in_cycle % s->loss_every == s->loss_every / 2)
		s->live.pending_loss = true;
	one_ack(s);
	if (++s->acks_in_cycle == s->cycle_acks) {
		losses_total += s->live.losses - s->snapshot.losses;
		s->live = s->snapshot;
		s->now_us = s->snapshot_now_us;
		s->acks_in_cycle = 0;
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: bbr_stream <kernel|null> <bbr-steady|bbr-probertt> <n>\n");
		return 2;
	}
	null_stream = strcmp(argv[1], "null") == 0;
	if (!null_stream && strcmp(argv[1], "kernel") != 0) {
		fprintf(stderr, "unknown controller %s\n", argv[1]);
		return 2;
	}
	int probertt = strcmp(argv[2], "bbr-probertt") == 0;
	if (!probertt && strcmp(argv[2], "bbr-steady") != 0) {
		fprintf(stderr, "unknown scenario %s\n", argv[2]);
		return 2;
	}
	if (kernel_module_init() != 0 || registered == NULL) {
		fprintf(stderr, "the BBR module did not register\n");
		return 1;
	}
	ops = registered;
	long long n = atoll(argv[3]);
	static struct stream s;
	stream_init(&s, probertt);
	u32 entries = 0, was = 0;
	int check = getenv("BBR_STREAM_CHECK") != NULL;
	for (long long i = 0; i < n; i++) {
		step(&s);
		if (check) {
			u32 now = phase_probe_rtt(&s.live);
			entries += now && !was;
			was = now;
		}
	}
	printf("%s %s %lld: final cwnd %u, losses in whole cycles %u, PROBE_RTT entries %u (with BBR_STREAM_CHECK)\n",
	       argv[1], argv[2], n, s.live.tp.snd_cwnd, losses_total, entries);
	return 0;
}
