// SPDX-License-Identifier: GPL-2.0
/*
 * rbbr: a BPF struct_ops TCP congestion control whose BBR v1 is the congestion
 * crate's Linux mode (congestion::linux::bbr), compiled from Rust (bpf/rops).
 *
 * The kernel is the glue: its tcp_ack(), rate sampler (tcp_rate.c), CA state machine
 * and undo call these hooks exactly where they call the kernel's own bbr. This shim
 * copies the tcp_sock and rate_sample fields BBR reads into a struct RbbrCtx on a
 * per-CPU map (too big for the 512-byte stack together with the Rust side's frame),
 * copies BBR's 104-byte state in from icsk_ca_priv, calls one Rust function, and
 * writes back the state and whatever socket fields changed.
 *
 * GPL because BPF programs that call GPL-only helpers must say so; the Rust side is
 * the crate's MIT OR Apache-2.0 code.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

#define RBBR_STATE_WORDS 13 /* ICSK_CA_PRIV_SIZE (104 bytes) as u64 */
#define RBBR_SOCK_WORDS 28  /* the library's TcpSock (224 bytes) as u64 */

/* Mirrors rops::bbr::RbbrCtx (bpf/rops/src/bbr.rs), field for field. */
struct RbbrCtx {
	__u64 tcp_mstamp;
	__u64 tcp_clock_cache;
	__u64 tcp_wstamp_ns;
	__u64 pacing_rate;
	__u64 max_pacing_rate;
	__u64 delivered_mstamp;
	__u64 first_tx_mstamp;
	__u64 rs_prior_mstamp;
	__s64 rs_interval_us;
	__s64 rs_rtt_us;
	__u32 cwnd;
	__u32 ssthresh;
	__u32 clamp;
	__u32 mss;
	__u32 srtt_us;
	__u32 snd_una;
	__u32 snd_nxt;
	__u32 high_seq;
	__u32 packets_out;
	__u32 sacked_out;
	__u32 lost_out;
	__u32 retrans_out;
	__u32 prior_ssthresh;
	__u32 delivered;
	__u32 lost;
	__u32 app_limited;
	__u32 data_segs_out;
	__u32 min_rtt_us;
	__u32 ca_state;
	__u32 retransmits;
	__u32 pacing_status;
	__u32 pacing_shift;
	__u32 undo_marker;
	__u32 rate_app_limited;
	__u32 rs_prior_delivered;
	__s32 rs_delivered;
	__u32 rs_snd_interval_us;
	__u32 rs_rcv_interval_us;
	__s32 rs_losses;
	__u32 rs_acked_sacked;
	__u32 rs_prior_in_flight;
	__u32 rs_is_app_limited;
	__u32 rs_is_retrans;
	__u32 rs_is_ack_delayed;
	__u64 state[RBBR_STATE_WORDS];
	__u64 sk[RBBR_SOCK_WORDS]; /* the library's TcpSock: Rust's scratch, opaque here */
};

_Static_assert(__builtin_offsetof(struct RbbrCtx, state) == 216, "RbbrCtx layout");
_Static_assert(sizeof(struct RbbrCtx) == 216 + 104 + 224, "RbbrCtx size");

extern __u32 rbbr_init(struct RbbrCtx *c);
extern __u32 rbbr_cong_control(struct RbbrCtx *c);
extern __u32 rbbr_ssthresh(struct RbbrCtx *c);
extern __u32 rbbr_undo_cwnd(struct RbbrCtx *c);
extern __u32 rbbr_set_state(struct RbbrCtx *c, __u32 new_state);
extern __u32 rbbr_cwnd_event(struct RbbrCtx *c, __u32 event);
extern __u32 rbbr_min_tso_segs(__u64 pacing_rate);

/* One context per CPU: hooks of one CPU never nest (they run under the socket lock
 * with softirqs off), and the value never outlives the hook. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct RbbrCtx);
} rbbr_ctx SEC(".maps");

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

/* The socket snapshot and BBR's state, with an empty rate sample. */
static __always_inline struct RbbrCtx *load(struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct inet_connection_sock *icsk = inet_csk(sk);
	__u64 *priv = (__u64 *)icsk->icsk_ca_priv;
	__u32 zero = 0;
	struct RbbrCtx *c = bpf_map_lookup_elem(&rbbr_ctx, &zero);
	int i;

	if (!c)
		return NULL;
	c->tcp_mstamp = tp->tcp_mstamp;
	c->tcp_clock_cache = tp->tcp_clock_cache;
	c->tcp_wstamp_ns = tp->tcp_wstamp_ns;
	c->pacing_rate = sk->sk_pacing_rate;
	c->max_pacing_rate = sk->sk_max_pacing_rate;
	c->delivered_mstamp = tp->delivered_mstamp;
	c->first_tx_mstamp = tp->first_tx_mstamp;
	c->rs_prior_mstamp = 0;
	c->rs_interval_us = -1;
	c->rs_rtt_us = -1;
	c->cwnd = tp->snd_cwnd;
	c->ssthresh = tp->snd_ssthresh;
	c->clamp = tp->snd_cwnd_clamp;
	c->mss = tp->mss_cache;
	c->srtt_us = tp->srtt_us;
	c->snd_una = tp->snd_una;
	c->snd_nxt = tp->snd_nxt;
	c->high_seq = tp->high_seq;
	c->packets_out = tp->packets_out;
	c->sacked_out = tp->sacked_out;
	c->lost_out = tp->lost_out;
	c->retrans_out = tp->retrans_out;
	c->prior_ssthresh = tp->prior_ssthresh;
	c->delivered = tp->delivered;
	c->lost = tp->lost;
	c->app_limited = tp->app_limited;
	c->data_segs_out = tp->data_segs_out;
	/* tcp_min_rtt(): minmax_get(&tp->rtt_min) */
	c->min_rtt_us = tp->rtt_min.s[0].v;
	c->ca_state = icsk->icsk_ca_state;
	c->retransmits = icsk->icsk_retransmits;
	c->pacing_status = sk->sk_pacing_status;
	c->pacing_shift = sk->sk_pacing_shift;
	c->undo_marker = tp->undo_marker;
	c->rate_app_limited = tp->rate_app_limited;
	c->rs_prior_delivered = 0;
	c->rs_delivered = -1;
	c->rs_snd_interval_us = 0;
	c->rs_rcv_interval_us = 0;
	c->rs_losses = 0;
	c->rs_acked_sacked = 0;
	c->rs_prior_in_flight = 0;
	c->rs_is_app_limited = 0;
	c->rs_is_retrans = 0;
	c->rs_is_ack_delayed = 0;
	for (i = 0; i < RBBR_STATE_WORDS; i++)
		c->state[i] = priv[i];
	return c;
}

/* BBR's state back to icsk_ca_priv, and the socket fields a BBR hook may change. */
static __always_inline void store(struct sock *sk, const struct RbbrCtx *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u64 *priv = (__u64 *)inet_csk(sk)->icsk_ca_priv;
	int i;

	for (i = 0; i < RBBR_STATE_WORDS; i++)
		priv[i] = c->state[i];
	if (tp->snd_cwnd != c->cwnd)
		tp->snd_cwnd = c->cwnd;
	if (tp->snd_ssthresh != c->ssthresh)
		tp->snd_ssthresh = c->ssthresh;
	if (tp->app_limited != c->app_limited)
		tp->app_limited = c->app_limited;
	if (sk->sk_pacing_rate != c->pacing_rate)
		sk->sk_pacing_rate = c->pacing_rate;
	if (sk->sk_pacing_status != c->pacing_status)
		sk->sk_pacing_status = c->pacing_status;
}

SEC("struct_ops")
void BPF_PROG(rbbr_init_hook, struct sock *sk)
{
	struct RbbrCtx *c = load(sk);

	if (!c)
		return;
	rbbr_init(c);
	store(sk, c);
}

SEC("struct_ops")
void BPF_PROG(rbbr_cong_control_hook, struct sock *sk, __u32 ack, int flag,
	      const struct rate_sample *rs)
{
	struct RbbrCtx *c = load(sk);

	if (!c)
		return;
	c->rs_prior_mstamp = rs->prior_mstamp;
	c->rs_interval_us = rs->interval_us;
	c->rs_rtt_us = rs->rtt_us;
	c->rs_prior_delivered = rs->prior_delivered;
	c->rs_delivered = rs->delivered;
	c->rs_snd_interval_us = rs->snd_interval_us;
	c->rs_rcv_interval_us = rs->rcv_interval_us;
	c->rs_losses = rs->losses;
	c->rs_acked_sacked = rs->acked_sacked;
	c->rs_prior_in_flight = rs->prior_in_flight;
	c->rs_is_app_limited = rs->is_app_limited;
	c->rs_is_retrans = rs->is_retrans;
	c->rs_is_ack_delayed = rs->is_ack_delayed;
	rbbr_cong_control(c);
	store(sk, c);
}

SEC("struct_ops")
__u32 BPF_PROG(rbbr_ssthresh_hook, struct sock *sk)
{
	struct RbbrCtx *c = load(sk);
	__u32 ssthresh;

	if (!c)
		return tcp_sk(sk)->snd_ssthresh;
	ssthresh = rbbr_ssthresh(c);
	store(sk, c);
	return ssthresh;
}

SEC("struct_ops")
__u32 BPF_PROG(rbbr_undo_cwnd_hook, struct sock *sk)
{
	struct RbbrCtx *c = load(sk);
	__u32 cwnd;

	if (!c)
		return tcp_sk(sk)->snd_cwnd;
	cwnd = rbbr_undo_cwnd(c);
	store(sk, c);
	return cwnd;
}

SEC("struct_ops")
void BPF_PROG(rbbr_set_state_hook, struct sock *sk, __u8 new_state)
{
	struct RbbrCtx *c = load(sk);

	if (!c)
		return;
	rbbr_set_state(c, new_state);
	store(sk, c);
}

SEC("struct_ops")
void BPF_PROG(rbbr_cwnd_event_hook, struct sock *sk, enum tcp_ca_event ev)
{
	struct RbbrCtx *c;

	/* bbr_cwnd_event() acts on CA_EVENT_TX_START only. */
	if (ev != CA_EVENT_TX_START)
		return;
	c = load(sk);
	if (!c)
		return;
	rbbr_cwnd_event(c, ev);
	store(sk, c);
}

SEC("struct_ops")
__u32 BPF_PROG(rbbr_min_tso_segs_hook, struct sock *sk)
{
	return rbbr_min_tso_segs(sk->sk_pacing_rate);
}

/*
 * Linux net/ipv4/tcp_bbr.c bbr_sndbuf_expand(): BBR asks for 3 windows of send buffer
 * (it may keep sending at its rate in recovery). A constant with no state, so it
 * stays in C; the library's Linux mode has no send buffer to size.
 */
SEC("struct_ops")
__u32 BPF_PROG(rbbr_sndbuf_expand_hook, struct sock *sk)
{
	return 3;
}

SEC(".struct_ops")
struct tcp_congestion_ops rbbr = {
	.init = (void *)rbbr_init_hook,
	.cong_control = (void *)rbbr_cong_control_hook,
	.ssthresh = (void *)rbbr_ssthresh_hook,
	.undo_cwnd = (void *)rbbr_undo_cwnd_hook,
	.set_state = (void *)rbbr_set_state_hook,
	.cwnd_event = (void *)rbbr_cwnd_event_hook,
	.min_tso_segs = (void *)rbbr_min_tso_segs_hook,
	.sndbuf_expand = (void *)rbbr_sndbuf_expand_hook,
	.flags = 0x1, /* TCP_CONG_NON_RESTRICTED, as tcp_bbr_cong_ops */
	.name = "rbbr",
};
