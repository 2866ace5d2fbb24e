// SPDX-License-Identifier: GPL-2.0
/*
 * rcubic: a BPF struct_ops TCP congestion control whose CUBIC and HyStart are the
 * `congestion` crate's Linux mode, compiled from Rust (bpf/rcubic).
 *
 * This shim is the only code that touches kernel structures. Each hook copies the
 * socket fields CUBIC needs and the 72-byte CUBIC state kept in icsk_ca_priv into a
 * struct RcubicCtx on the stack, calls one Rust function, and writes back what the
 * kernel's tcp_cubic.c would have written (snd_cwnd, snd_cwnd_cnt, snd_ssthresh,
 * icsk_ca_priv). The glue that decides *when* CUBIC runs is the kernel's own.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

extern unsigned long CONFIG_HZ __kconfig;

/* Mirror of the Rust #[repr(C)] RcubicCtx (bpf/rcubic/src/lib.rs). The Rust side
 * checks the layout at compile time; `state` is opaque here. */
#define RCUBIC_STATE_BYTES 72
struct RcubicCtx {
	__u64 pacing_rate;
	__u32 cwnd;
	__u32 ssthresh;
	__u32 cwnd_cnt;
	__u32 clamp;
	__u32 snd_una;
	__u32 snd_nxt;
	__u32 gso_max_size;
	__u32 pacing_status;
	__u64 state[RCUBIC_STATE_BYTES / 8];
};

_Static_assert(sizeof(struct RcubicCtx) == 40 + RCUBIC_STATE_BYTES, "RcubicCtx layout");
_Static_assert(RCUBIC_STATE_BYTES <= sizeof(((struct inet_connection_sock *)0)->icsk_ca_priv),
	       "CUBIC state must fit icsk_ca_priv");

/* The Rust functions (global BPF functions, verified one by one). */
extern __u32 rcubic_init(struct RcubicCtx *c, __u32 now_us);
extern __u32 rcubic_ssthresh(struct RcubicCtx *c);
extern __u32 rcubic_cong_avoid(struct RcubicCtx *c, __u32 acked, __u32 now_jiffies,
			       __u32 cwnd_limited);
extern __u32 rcubic_set_state(struct RcubicCtx *c, __u32 new_state, __u32 now_us);
extern __u32 rcubic_cwnd_event(struct RcubicCtx *c, __u32 event, __u32 now_jiffies,
			       __u32 last_send_jiffies);
extern __u32 rcubic_pkts_acked(struct RcubicCtx *c, __s32 rtt_us, __u32 now_jiffies,
			       __u32 now_us);

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

/* The library counts "jiffies" at HZ = 1000; scale the kernel's so the 1/32 s
 * update skip, the 1 s blackout and idle shifts land on the kernel's own ticks. */
static __always_inline __u32 to_ms_jiffies(__u32 jiffies)
{
	return jiffies * (__u32)(1000 / CONFIG_HZ);
}

static __always_inline __u32 now_jiffies(void)
{
	return to_ms_jiffies((__u32)bpf_jiffies64());
}

/* bictcp_clock_us(): the socket's µs clock, truncated as the kernel does. */
static __always_inline __u32 now_us(const struct sock *sk)
{
	return (__u32)tcp_sk(sk)->tcp_mstamp;
}

static __always_inline void load(struct sock *sk, struct RcubicCtx *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u64 *priv = (__u64 *)inet_csk(sk)->icsk_ca_priv;

	c->pacing_rate = sk->sk_pacing_rate;
	c->cwnd = tp->snd_cwnd;
	c->ssthresh = tp->snd_ssthresh;
	c->cwnd_cnt = tp->snd_cwnd_cnt;
	c->clamp = tp->snd_cwnd_clamp;
	c->snd_una = tp->snd_una;
	c->snd_nxt = tp->snd_nxt;
	c->gso_max_size = sk->sk_gso_max_size;
	c->pacing_status = sk->sk_pacing_status;
	for (int i = 0; i < RCUBIC_STATE_BYTES / 8; i++)
		c->state[i] = priv[i];
}

static __always_inline void store_state(struct sock *sk, const struct RcubicCtx *c)
{
	__u64 *priv = (__u64 *)inet_csk(sk)->icsk_ca_priv;

	for (int i = 0; i < RCUBIC_STATE_BYTES / 8; i++)
		priv[i] = c->state[i];
}

/* Build with -DRCUBIC_DEBUG to report, in /sys/kernel/tracing/trace_pipe, any window
 * above a million segments: which hook saw it first, coming in or going out. */
#ifdef RCUBIC_DEBUG
#define RCUBIC_ODD 1000000u
#define check_window(where, sk)                                                          \
	do {                                                                             \
		const struct tcp_sock *tp_ = tcp_sk(sk);                                 \
		if (tp_->snd_cwnd > RCUBIC_ODD ||                                        \
		    (tp_->snd_ssthresh > RCUBIC_ODD && tp_->snd_ssthresh != 0x7fffffff)) \
			bpf_printk("rcubic %s: cwnd %u ssthresh %u", where, tp_->snd_cwnd,  \
				   tp_->snd_ssthresh);                                   \
	} while (0)
/* Calls per hook (0 init, 1 ssthresh, 2 cong_avoid, 3 set_state, 4 cwnd_event,
 * 5 pkts_acked, 6 undo_cwnd), in rcubic.bss: `bpftool map dump name rcubic.bss`. */
__u64 rcubic_calls[8];
#define count_call(i) __sync_fetch_and_add(&rcubic_calls[i], 1)
#else
#define check_window(where, sk) do { } while (0)
#define count_call(i) do { } while (0)
#endif

static __always_inline void store_window(struct sock *sk, const struct RcubicCtx *c)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (tp->snd_cwnd != c->cwnd)
		tp->snd_cwnd = c->cwnd;
	if (tp->snd_cwnd_cnt != c->cwnd_cnt)
		tp->snd_cwnd_cnt = c->cwnd_cnt;
	if (tp->snd_ssthresh != c->ssthresh)
		tp->snd_ssthresh = c->ssthresh;
}

/* Linux include/net/tcp.h tcp_is_cwnd_limited() */
static __always_inline __u32 is_cwnd_limited(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (tp->is_cwnd_limited)
		return 1;
	if (tp->snd_cwnd < tp->snd_ssthresh)
		return tp->snd_cwnd < 2 * tp->max_packets_out;
	return 0;
}

SEC("struct_ops")
void BPF_PROG(rcubic_init_hook, struct sock *sk)
{
	count_call(0);
	struct RcubicCtx c = {};

	check_window("init in", sk);
	load(sk, &c);
	rcubic_init(&c, now_us(sk));
	store_state(sk, &c);
	store_window(sk, &c);
	check_window("init out", sk);
}

SEC("struct_ops")
__u32 BPF_PROG(rcubic_ssthresh_hook, struct sock *sk)
{
	count_call(1);
	struct RcubicCtx c = {};
	__u32 ssthresh;

	check_window("ssthresh in", sk);
	load(sk, &c);
	ssthresh = rcubic_ssthresh(&c);
	store_state(sk, &c);
#ifdef RCUBIC_DEBUG
	if (ssthresh > RCUBIC_ODD)
		bpf_printk("rcubic ssthresh returns %u for cwnd %u", ssthresh, c.cwnd);
#endif
	return ssthresh;
}

SEC("struct_ops")
void BPF_PROG(rcubic_cong_avoid_hook, struct sock *sk, __u32 ack, __u32 acked)
{
	count_call(2);
	struct RcubicCtx c = {};

	check_window("cong_avoid in", sk);
	load(sk, &c);
	rcubic_cong_avoid(&c, acked, now_jiffies(), is_cwnd_limited(sk));
	store_state(sk, &c);
	store_window(sk, &c);
	check_window("cong_avoid out", sk);
}

SEC("struct_ops")
void BPF_PROG(rcubic_set_state_hook, struct sock *sk, __u8 new_state)
{
	count_call(3);
	struct RcubicCtx c = {};

	check_window("set_state in", sk);
	load(sk, &c);
	rcubic_set_state(&c, new_state, now_us(sk));
	store_state(sk, &c);
}

SEC("struct_ops")
void BPF_PROG(rcubic_cwnd_event_hook, struct sock *sk, enum tcp_ca_event ev)
{
	count_call(4);
	struct RcubicCtx c = {};

	check_window("cwnd_event in", sk);
	if (ev != CA_EVENT_TX_START)
		return;
	load(sk, &c);
	rcubic_cwnd_event(&c, ev, now_jiffies(), to_ms_jiffies(tcp_sk(sk)->lsndtime));
	store_state(sk, &c);
}

SEC("struct_ops")
void BPF_PROG(rcubic_pkts_acked_hook, struct sock *sk, const struct ack_sample *sample)
{
	count_call(5);
	struct RcubicCtx c = {};

	check_window("pkts_acked in", sk);
	load(sk, &c);
	if (rcubic_pkts_acked(&c, sample->rtt_us, now_jiffies(), now_us(sk)))
		store_window(sk, &c);
	store_state(sk, &c);
	check_window("pkts_acked out", sk);
}

/* Linux net/ipv4/tcp_cong.c tcp_reno_undo_cwnd(), which tcp_cubic uses as is. */
SEC("struct_ops")
__u32 BPF_PROG(rcubic_undo_cwnd_hook, struct sock *sk)
{
	count_call(6);
	const struct tcp_sock *tp = tcp_sk(sk);
	__u32 cwnd = tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;

	check_window("undo in", sk);
#ifdef RCUBIC_DEBUG
	if (cwnd > RCUBIC_ODD)
		bpf_printk("rcubic undo returns %u (prior_cwnd %u)", cwnd, tp->prior_cwnd);
#endif
	return cwnd;
}

SEC(".struct_ops")
struct tcp_congestion_ops rcubic = {
	.init = (void *)rcubic_init_hook,
	.ssthresh = (void *)rcubic_ssthresh_hook,
	.cong_avoid = (void *)rcubic_cong_avoid_hook,
	.set_state = (void *)rcubic_set_state_hook,
	.cwnd_event = (void *)rcubic_cwnd_event_hook,
	.pkts_acked = (void *)rcubic_pkts_acked_hook,
	.undo_cwnd = (void *)rcubic_undo_cwnd_hook,
	.name = "rcubic",
};
