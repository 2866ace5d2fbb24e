/* The project's benchmark ACK stream (benches/common/mod.rs) driving Linux's own DCTCP
 * hooks (tcp_dctcp.c, with tcp_reno_cong_avoid from tcp_cong.c), compiled from a kernel
 * tree by scripts/kernel-dctcp.sh, beside `count dctcp-hooks` (perf/src/dctcp.rs).
 *
 *   dctcp_stream <kernel|null> <ca|loss|base> <n>
 *
 * Per ACK, as tcp_ack() calls them: in_ack_event (dctcp_update_alpha), then cong_avoid
 * (tcp_reno_cong_avoid), both through the registered ops (indirect calls, as in the
 * kernel); every 50th ACK reports its segments CE-marked (delivered_ce), as the Rust
 * wrapper does. The flow is always window-limited (is_cwnd_limited = 1). A loss sets
 * ssthresh from ops->ssthresh and cwnd to it. `null` runs the same loop with no hooks. */
#include "dctcp_shim.h"

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
#define CE_EVERY_ACKS 50u

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

int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int min,
			  unsigned int max)
{
	(void)val, (void)kp, (void)min, (void)max;
	return 0;
}

int param_get_uint(char *buffer, const struct kernel_param *kp)
{
	(void)buffer, (void)kp;
	return 0;
}

void __tcp_send_ack(struct sock *sk, u32 rcv_nxt)
{
	(void)sk, (void)rcv_nxt;
}

__attribute__((noinline, cold)) void warn_slowpath(const char *file, int line)
{
	fprintf(stderr, "WARN_ON_ONCE at %s:%d\n", file, line);
}

struct flow {
	struct tcp_sock tp;
	u32 in_flight;
	u32 acks;
};

/* The hooks, or nothing for the null stream; volatile so that the call stays
 * indirect, as the kernel's icsk_ca_ops calls are. */
static struct tcp_congestion_ops *volatile ops;
static int null_stream;

static void flow_ack(struct flow *f, u64 now_us, u32 packets, u32 rtt_us)
{
	struct sock *sk = &f->tp.sk;

	(void)rtt_us;
	f->in_flight -= packets;
	f->tp.tcp_mstamp = now_us;
	f->tp.snd_una += packets;
	f->tp.delivered += packets;
	if (++f->acks % CE_EVERY_ACKS == 0)
		f->tp.delivered_ce += packets;
	if (null_stream)
		return;
	ops->in_ack_event(sk, 0);
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
	tp->mss_cache = 1200;
	tp->ecn_flags = TCP_ECN_OK;
	s->now_us = START_US;
	if (!null_stream) {
		tp->icsk_ca_ops = ops;
		ops->init(&tp->sk);
		if (tp->icsk_ca_ops != ops) {
			fprintf(stderr, "DCTCP fell back to Reno\n");
			exit(1);
		}
	}
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
		fprintf(stderr, "usage: dctcp_stream <kernel|null> <ca|loss|base> <n>\n");
		return 2;
	}
	null_stream = strcmp(argv[1], "null") == 0;
	if (!null_stream && strcmp(argv[1], "kernel") != 0) {
		fprintf(stderr, "unknown controller %s\n", argv[1]);
		return 2;
	}
	if (kernel_module_init() != 0 || registered == NULL) {
		fprintf(stderr, "the DCTCP module did not register\n");
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
