// SPDX-License-Identifier: GPL-2.0
/*
 * rdctcp: a BPF struct_ops TCP congestion control whose DCTCP is the congestion
 * crate's Linux mode (congestion::linux::dctcp), compiled from Rust (bpf/rops).
 *
 * The kernel is the glue: its tcp_ack() and CA state machine call these hooks where
 * they call the kernel's own dctcp, and TCP_CONG_NEEDS_ECN makes the handshake
 * negotiate ECN. The shim copies the tcp_sock fields DCTCP reads and its 28-byte
 * state from icsk_ca_priv into a struct RdctcpCtx on the stack, calls one Rust
 * function, and writes back the state and the window.
 *
 * The receiver's half of DCTCP (an immediate ACK whenever the CE state of arriving
 * segments flips, so that ECE echoes each CE run exactly) is not part of the library,
 * which models a sender; it is done here in C on the same state fields, as
 * net/ipv4/tcp_dctcp.h does.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

#define RDCTCP_STATE_WORDS 7 /* the 28-byte DctcpCa as u32 */
#define CA_PRIOR_RCV_NXT 2   /* DctcpCa::prior_rcv_nxt, in u32 words */
#define CA_CE_STATE 5        /* DctcpCa::ce_state, in u32 words */
#define TCP_ECN_DEMAND_CWR 4 /* include/net/tcp.h */

/* Mirrors rops::dctcp::RdctcpCtx (bpf/rops/src/dctcp.rs), field for field. */
struct RdctcpCtx {
	__u32 cwnd;
	__u32 ssthresh;
	__u32 cwnd_cnt;
	__u32 clamp;
	__u32 snd_una;
	__u32 snd_nxt;
	__u32 delivered;
	__u32 delivered_ce;
	__u32 ca_state;
	__u32 cwnd_limited;
	__u32 state[RDCTCP_STATE_WORDS];
};

_Static_assert(__builtin_offsetof(struct RdctcpCtx, state) == 40, "RdctcpCtx layout");

extern __u32 rdctcp_init(struct RdctcpCtx *c);
extern __u32 rdctcp_ssthresh(struct RdctcpCtx *c);
extern __u32 rdctcp_undo_cwnd(struct RdctcpCtx *c);
extern __u32 rdctcp_cong_avoid(struct RdctcpCtx *c, __u32 ack, __u32 acked);
extern __u32 rdctcp_set_state(struct RdctcpCtx *c, __u32 new_state);
extern __u32 rdctcp_cwnd_event(struct RdctcpCtx *c, __u32 event);
extern __u32 rdctcp_in_ack_event(struct RdctcpCtx *c);

static __always_inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return (struct tcp_sock *)sk;
}

static __always_inline struct inet_connection_sock *inet_csk(const struct sock *sk)
{
	return (struct inet_connection_sock *)sk;
}

static __always_inline __u32 *ca_words(struct sock *sk)
{
	return (__u32 *)inet_csk(sk)->icsk_ca_priv;
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

#define TCP_INFINITE_SSTHRESH 0x7fffffffu
#define CA_SEEN_CWND 7 /* after DctcpCa: snd_cwnd as the last hook left it */

/*
 * Garbage snd_ssthresh. The test machine's kernel has been seen to skip BPF
 * struct_ops calls and store a stack slot the program never wrote as snd_ssthresh
 * (bpf/README.md, "Garbage snd_ssthresh"; 0x81104110 here too). No DCTCP rule puts
 * ssthresh above TCP_INFINITE_SSTHRESH, so on the next hook (in_ack_event runs on
 * every ACK, recovery included) the shim redoes the skipped call: DCTCP's ssthresh
 * for the window before it, which also records loss_cwnd, and brings cwnd (which PRR
 * has inflated from the garbage) down to it. Counted in rdctcp_repairs and printed
 * to trace_pipe.
 */
__u64 rdctcp_repairs;

extern __u32 rdctcp_ssthresh(struct RdctcpCtx *c);
static __always_inline void load(struct sock *sk, struct RdctcpCtx *c);

static __always_inline void repair_ssthresh(struct sock *sk, const char *where)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u32 *priv = ca_words(sk);
	struct RdctcpCtx c = {};
	__u32 before, ssthresh;
	int i;

	if (tp->snd_ssthresh <= TCP_INFINITE_SSTHRESH)
		return;
	before = priv[CA_SEEN_CWND];
	load(sk, &c);
	c.cwnd = before;
	ssthresh = rdctcp_ssthresh(&c);
	for (i = 0; i < RDCTCP_STATE_WORDS; i++)
		priv[i] = c.state[i];
	bpf_printk("rdctcp %s: snd_ssthresh %u repaired to %u (cwnd %u, before %u)", where,
		   tp->snd_ssthresh, ssthresh, tp->snd_cwnd, before);
	tp->snd_ssthresh = ssthresh;
	if (tp->snd_cwnd > before)
		tp->snd_cwnd = ssthresh;
	__sync_fetch_and_add(&rdctcp_repairs, 1);
}

static __always_inline void load(struct sock *sk, struct RdctcpCtx *c)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	__u32 *priv = ca_words(sk);
	int i;

	c->cwnd = tp->snd_cwnd;
	c->ssthresh = tp->snd_ssthresh;
	c->cwnd_cnt = tp->snd_cwnd_cnt;
	c->clamp = tp->snd_cwnd_clamp;
	c->snd_una = tp->snd_una;
	c->snd_nxt = tp->snd_nxt;
	c->delivered = tp->delivered;
	c->delivered_ce = tp->delivered_ce;
	c->ca_state = inet_csk(sk)->icsk_ca_state;
	c->cwnd_limited = 0;
	for (i = 0; i < RDCTCP_STATE_WORDS; i++)
		c->state[i] = priv[i];
}

static __always_inline void store(struct sock *sk, const struct RdctcpCtx *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u32 *priv = ca_words(sk);
	int i;

	for (i = 0; i < RDCTCP_STATE_WORDS; i++)
		priv[i] = c->state[i];
	if (tp->snd_cwnd != c->cwnd)
		tp->snd_cwnd = c->cwnd;
	if (tp->snd_ssthresh != c->ssthresh)
		tp->snd_ssthresh = c->ssthresh;
	if (tp->snd_cwnd_cnt != c->cwnd_cnt)
		tp->snd_cwnd_cnt = c->cwnd_cnt;
	priv[CA_SEEN_CWND] = c->cwnd;
}

SEC("struct_ops")
void BPF_PROG(rdctcp_init_hook, struct sock *sk)
{
	struct RdctcpCtx c = {};

	load(sk, &c);
	rdctcp_init(&c);
	/* The receiver's half starts from rcv_nxt (dctcp_init()). */
	c.state[CA_PRIOR_RCV_NXT] = tcp_sk(sk)->rcv_nxt;
	store(sk, &c);
}

SEC("struct_ops")
__u32 BPF_PROG(rdctcp_ssthresh_hook, struct sock *sk)
{
	struct RdctcpCtx c = {};
	__u32 ssthresh;

	load(sk, &c);
	ssthresh = rdctcp_ssthresh(&c);
	store(sk, &c);
	return ssthresh;
}

SEC("struct_ops")
__u32 BPF_PROG(rdctcp_undo_cwnd_hook, struct sock *sk)
{
	struct RdctcpCtx c = {};

	load(sk, &c);
	return rdctcp_undo_cwnd(&c);
}

SEC("struct_ops")
void BPF_PROG(rdctcp_cong_avoid_hook, struct sock *sk, __u32 ack, __u32 acked)
{
	struct RdctcpCtx c = {};

	repair_ssthresh(sk, "cong_avoid");
	load(sk, &c);
	c.cwnd_limited = is_cwnd_limited(sk);
	rdctcp_cong_avoid(&c, ack, acked);
	store(sk, &c);
}

SEC("struct_ops")
void BPF_PROG(rdctcp_set_state_hook, struct sock *sk, __u8 new_state)
{
	struct RdctcpCtx c = {};

	load(sk, &c);
	rdctcp_set_state(&c, new_state);
	store(sk, &c);
}

/* Linux net/ipv4/tcp_dctcp.h dctcp_ece_ack_cwr(): echo ECE while CE arrives. */
static __always_inline void ece_ack_cwr(struct sock *sk, __u32 ce_state)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (ce_state == 1)
		tp->ecn_flags |= TCP_ECN_DEMAND_CWR;
	else
		tp->ecn_flags &= ~TCP_ECN_DEMAND_CWR;
}

/*
 * Linux net/ipv4/tcp_dctcp.h dctcp_ece_ack_update(): when the CE state flips, first
 * send the delayed ACK that covers the old state, then ACK at once for the new one.
 */
static __always_inline void ece_ack_update(struct sock *sk, enum tcp_ca_event ev)
{
	__u32 *priv = ca_words(sk);
	__u32 new_ce_state = ev == CA_EVENT_ECN_IS_CE ? 1 : 0;

	if (priv[CA_CE_STATE] != new_ce_state) {
		if (inet_csk(sk)->icsk_ack.pending & ICSK_ACK_TIMER) {
			ece_ack_cwr(sk, priv[CA_CE_STATE]);
			bpf_tcp_send_ack(sk, priv[CA_PRIOR_RCV_NXT]);
		}
		inet_csk(sk)->icsk_ack.pending |= ICSK_ACK_NOW;
	}
	priv[CA_PRIOR_RCV_NXT] = tcp_sk(sk)->rcv_nxt;
	priv[CA_CE_STATE] = new_ce_state;
	ece_ack_cwr(sk, new_ce_state);
}

SEC("struct_ops")
void BPF_PROG(rdctcp_cwnd_event_hook, struct sock *sk, enum tcp_ca_event ev)
{
	struct RdctcpCtx c = {};

	if (ev == CA_EVENT_ECN_IS_CE || ev == CA_EVENT_ECN_NO_CE) {
		ece_ack_update(sk, ev);
		return;
	}
	if (ev != CA_EVENT_LOSS)
		return;
	load(sk, &c);
	rdctcp_cwnd_event(&c, ev);
	store(sk, &c);
}

SEC("struct_ops")
void BPF_PROG(rdctcp_in_ack_event_hook, struct sock *sk, __u32 flags)
{
	struct RdctcpCtx c = {};

	repair_ssthresh(sk, "in_ack_event");
	load(sk, &c);
	rdctcp_in_ack_event(&c);
	store(sk, &c);
}

SEC(".struct_ops")
struct tcp_congestion_ops rdctcp = {
	.init = (void *)rdctcp_init_hook,
	.in_ack_event = (void *)rdctcp_in_ack_event_hook,
	.cwnd_event = (void *)rdctcp_cwnd_event_hook,
	.ssthresh = (void *)rdctcp_ssthresh_hook,
	.cong_avoid = (void *)rdctcp_cong_avoid_hook,
	.undo_cwnd = (void *)rdctcp_undo_cwnd_hook,
	.set_state = (void *)rdctcp_set_state_hook,
	.flags = 0x2, /* TCP_CONG_NEEDS_ECN, as the kernel's dctcp */
	.name = "rdctcp",
};
