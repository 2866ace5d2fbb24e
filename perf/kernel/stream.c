/* The project's benchmark ACK stream (benches/common/mod.rs) driving Linux's own CUBIC
 * hooks, compiled from a kernel tree by scripts/kernel-hooks.sh, so their instructions
 * per ACK can be set beside ours (the `hooks` row of scripts/instructions.sh).
 *
 *   stream <kernel|null> <ca|loss|base> <n>
 *
 * Per ACK, as tcp_ack() calls them: pkts_acked (cubictcp_acked) with the RTT sample,
 * then cong_avoid (cubictcp_cong_avoid), both through the registered ops (indirect
 * calls, as in the kernel). The flow is always window-limited (is_cwnd_limited = 1), as
 * the Rust hooks wrapper assumes. A loss sets ssthresh from ops->ssthresh and cwnd to it.
 * `null` runs the same loop with no hooks, to subtract. */
#include "shim.h"

#include <stdio.h>
#include <stdlib.h>

#define RTT_US 20000u
#define ACK_INTERVAL_US 40u
#define PACKETS_PER_ACK 2u
#define ACKS_PER_LOSS 10000u
#define WARMUP_PEAK_PACKETS 1430u
#define WARMUP_AFTER_LOSS_ACKS 25000u
#define WARMUP_MAX_ACKS 4000000u
#define START_US 1000000u

u32 tcp_jiffies32;
static struct tcp_congestion_ops *registered;
int kernel_module_init(void);

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

u32 tcp_reno_undo_cwnd(struct sock *sk)
{
	return tcp_sk(sk)->snd_cwnd;
}

__attribute__((noinline)) unsigned long usecs_to_jiffies(unsigned int us)
{
	/* HZ = 1000: round up to whole milliseconds. */
	return (us + 999ul) / 1000ul;
}

__attribute__((noinline, cold)) void warn_slowpath(const char *file, int line)
{
	fprintf(stderr, "WARN_ON_ONCE at %s:%d\n", file, line);
}

struct flow {
	struct tcp_sock tp;
	u32 in_flight;
};

/* The hooks, or nothing for the null stream; volatile so that the call stays
 * indirect, as the kernel's icsk_ca_ops calls are. */
static struct tcp_congestion_ops *volatile ops;
static int null_stream;

static void flow_ack(struct flow *f, u64 now_us, u32 packets, u32 rtt_us)
{
	struct sock *sk = &f->tp.sk;

	f->in_flight -= packets;
	tcp_jiffies32 = (u32)(now_us / 1000);
	f->tp.tcp_mstamp = now_us;
	f->tp.snd_una += packets;
	if (null_stream)
		return;
	struct ack_sample sample = { .pkts_acked = packets, .rtt_us = (s32)rtt_us };
	ops->pkts_acked(sk, &sample);
	ops->cong_avoid(sk, f->tp.snd_una, packets);
}

static void flow_send(struct flow *f, u32 packets)
{
	f->in_flight += packets;
	f->tp.snd_nxt += packets;
}

static void flow_loss(struct flow *f)
{
	f->in_flight -= 1;
	if (null_stream)
		return;
	f->tp.snd_ssthresh = ops->ssthresh(&f->tp.sk);
	f->tp.snd_cwnd = f->tp.snd_ssthresh;
	f->tp.snd_cwnd_cnt = 0;
}

static u32 cwnd(const struct flow *f)
{
	return null_stream ? WARMUP_PEAK_PACKETS : f->tp.snd_cwnd;
}

struct stream {
	struct flow snapshot, live;
	u64 snapshot_now_us, now_us;
	u32 acks_in_cycle;
};

static void one_ack(struct stream *s)
{
	s->now_us += ACK_INTERVAL_US;
	u32 acked = PACKETS_PER_ACK < s->live.in_flight ? PACKETS_PER_ACK : s->live.in_flight;
	flow_ack(&s->live, s->now_us, acked, RTT_US);
	u32 c = cwnd(&s->live);
	if (c > s->live.in_flight)
		flow_send(&s->live, c - s->live.in_flight);
}

static void restore(struct stream *s)
{
	s->live = s->snapshot;
	s->now_us = s->snapshot_now_us;
	s->acks_in_cycle = 0;
}

static void stream_init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	struct tcp_sock *tp = &s->live.tp;
	tp->snd_cwnd = 10;
	tp->snd_ssthresh = 0x7fffffff;
	tp->snd_cwnd_clamp = ~0u;
	tp->is_cwnd_limited = 1;
	tp->tcp_mstamp = START_US;
	tp->sk.sk_gso_max_size = 65536;
	s->now_us = START_US;
	tcp_jiffies32 = START_US / 1000;
	if (!null_stream)
		ops->init(&tp->sk);
	flow_send(&s->live, cwnd(&s->live));
	for (u32 i = 0; cwnd(&s->live) < WARMUP_PEAK_PACKETS && i < WARMUP_MAX_ACKS; i++)
		one_ack(s);
	flow_loss(&s->live);
	for (u32 i = 0; i < WARMUP_AFTER_LOSS_ACKS; i++)
		one_ack(s);
	s->snapshot = s->live;
	s->snapshot_now_us = s->now_us;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: stream <kernel|null> <ca|loss|base> <n>\n");
		return 2;
	}
	null_stream = strcmp(argv[1], "null") == 0;
	if (!null_stream && strcmp(argv[1], "kernel") != 0) {
		fprintf(stderr, "unknown controller %s\n", argv[1]);
		return 2;
	}
	if (kernel_module_init() != 0 || registered == NULL) {
		fprintf(stderr, "the CUBIC module did not register\n");
		return 1;
	}
	ops = registered;
	long long n = atoll(argv[3]);
	static struct stream s;
	stream_init(&s);
	if (strcmp(argv[2], "ca") == 0) {
		for (long long i = 0; i < n; i++) {
			one_ack(&s);
			if (++s.acks_in_cycle == ACKS_PER_LOSS) {
				flow_loss(&s.live);
				restore(&s);
			}
		}
	} else if (strcmp(argv[2], "loss") == 0 || strcmp(argv[2], "base") == 0) {
		int loss = strcmp(argv[2], "loss") == 0;
		for (long long i = 0; i < n; i++) {
			restore(&s);
			if (loss)
				flow_loss(&s.live);
			one_ack(&s);
		}
	} else {
		fprintf(stderr, "unknown scenario %s\n", argv[2]);
		return 2;
	}
	printf("%s %s %lld: final cwnd %u packets\n", argv[1], argv[2], n, s.live.tp.snd_cwnd);
	return 0;
}
