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

/*
 * The ssthresh audit, in every build: did snd_ssthresh change to a value that rcubic
 * did not produce? A struct_ops program the kernel skips (a non-upstream check in
 * __bpf_prog_enter* on the test machine's kernel does this in some task contexts)
 * leaves its return value as whatever the trampoline's stack slot held, and the
 * kernel stores that as ssthresh. The audit keeps, after CUBIC's 72 bytes in
 * icsk_ca_priv, the ssthresh it last saw and the value the ssthresh hook last
 * returned; every hook first compares snd_ssthresh with them. Counters in
 * rcubic.bss (`bpftool map dump name rcubic.bss`), rcubic_ssthresh_audit[]:
 *   0 changed to the value rcubic's ssthresh hook returned (or HyStart wrote)
 *   1 changed to TCP_INFINITE_SSTHRESH or to prior_ssthresh (the kernel's undo)
 *   2 raised to at most 3/4 of the window (tcp_current_ssthresh(): the kernel's own
 *     tcp_cwnd_application_limited() and tcp_cwnd_restart())
 *   3 anything else: not produced by rcubic or the kernel's rules; printed to
 *     /sys/kernel/tracing/trace_pipe. compare.sh reruns a flow that adds to it.
 *   4 the flow entered CWR, Recovery or Loss from Open or Disorder without a call to
 *     the ssthresh hook first. The kernel always calls it on that edge
 *     (tcp_init_cwnd_reduction(), tcp_enter_loss()), so the call was skipped. Also
 *     printed.
 *   5 icsk_ca_state changed without the set_state hook running: the kernel calls it
 *     on every change (tcp_set_ca_state()), so that call was skipped. Printed.
 *   6 repaired: a case-3 value out of range (below 2, or above the largest window
 *     since the last change, which no rule can produce) is replaced in the next
 *     pkts_acked by what the skipped ssthresh call would have returned for that
 *     window; a cwnd above that window is brought down to it. Printed.
 * A garbage value that happens to look like case 1 or 2 is not caught.
 */
#define TCP_INFINITE_SSTHRESH 0x7fffffffu
enum { AUDIT_SEEN = RCUBIC_STATE_BYTES / 4, AUDIT_RETURNED, AUDIT_PENDING, AUDIT_MAX_CWND,
       AUDIT_CALLED, AUDIT_STATE, AUDIT_REPAIR, AUDIT_END };
_Static_assert(AUDIT_END * 4 <= sizeof(((struct inet_connection_sock *)0)->icsk_ca_priv),
	       "the audit must fit icsk_ca_priv after the CUBIC state");
__u64 rcubic_ssthresh_audit[7];

static __always_inline __u32 *audit_slots(struct sock *sk)
{
	return (__u32 *)inet_csk(sk)->icsk_ca_priv;
}

/* A new flow: nothing seen or returned yet. */
static __always_inline void audit_start(struct sock *sk)
{
	__u32 *a = audit_slots(sk);

	a[AUDIT_SEEN] = tcp_sk(sk)->snd_ssthresh;
	a[AUDIT_RETURNED] = 0;
	a[AUDIT_PENDING] = 0;
	a[AUDIT_MAX_CWND] = tcp_sk(sk)->snd_cwnd;
	a[AUDIT_CALLED] = 0;
	a[AUDIT_STATE] = inet_csk(sk)->icsk_ca_state;
	a[AUDIT_REPAIR] = 0;
}

/* On entry to every hook: classify a change of snd_ssthresh since rcubic last looked. */
static __always_inline void audit_check(struct sock *sk, const char *where)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	__u32 *a = audit_slots(sk);
	__u32 now = tp->snd_ssthresh;
	__u32 cwnd = tp->snd_cwnd;
	__u32 was = a[AUDIT_SEEN];
	__u32 before = a[AUDIT_MAX_CWND]; /* largest window at rcubic's hooks since `was` */
	__u32 most = before > cwnd ? before : cwnd;

	a[AUDIT_MAX_CWND] = most;
	if (inet_csk(sk)->icsk_ca_state != a[AUDIT_STATE]) {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[5], 1);
		bpf_printk("rcubic audit at %s: sk %llx ca_state %u -> %u without a set_state call",
			   where, (__u64)sk, a[AUDIT_STATE], inet_csk(sk)->icsk_ca_state);
		a[AUDIT_STATE] = inet_csk(sk)->icsk_ca_state;
	}
	if (now == was)
		return;
	if (a[AUDIT_PENDING] && now == a[AUDIT_RETURNED]) {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[0], 1);
	} else if (now == TCP_INFINITE_SSTHRESH || now == tp->prior_ssthresh) {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[1], 1);
	} else if (now > was && now <= (most >> 1) + (most >> 2)) {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[2], 1);
	} else {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[3], 1);
		/* The window before the change, for the repair in pkts_acked. */
		if (before && (now < 2 || now > before))
			a[AUDIT_REPAIR] = before;
		bpf_printk("rcubic audit at %s: sk %llx snd_ssthresh %u not produced by rcubic (was %u, cwnd %u, last returned %u)",
			   where, (__u64)sk, now, was, cwnd, a[AUDIT_RETURNED]);
	}
	a[AUDIT_SEEN] = now;
	a[AUDIT_PENDING] = 0;
	a[AUDIT_MAX_CWND] = cwnd;
}

/* After rcubic wrote the window itself (HyStart sets ssthresh in pkts_acked). */
static __always_inline void audit_own_write(struct sock *sk)
{
	__u32 *a = audit_slots(sk);

	if (a[AUDIT_SEEN] != tcp_sk(sk)->snd_ssthresh)
		__sync_fetch_and_add(&rcubic_ssthresh_audit[0], 1);
	a[AUDIT_SEEN] = tcp_sk(sk)->snd_ssthresh;
}

/* What the ssthresh hook returns; the kernel stores it before the next hook runs. */
static __always_inline void audit_returned(struct sock *sk, __u32 ssthresh)
{
	__u32 *a = audit_slots(sk);

	a[AUDIT_RETURNED] = ssthresh;
	a[AUDIT_PENDING] = 1;
	a[AUDIT_CALLED] = 1;
	a[AUDIT_REPAIR] = 0; /* a real ssthresh call supersedes any repair */
}

/* pkts_acked runs on every ACK, in recovery too (cong_avoid does not): replace an
 * out-of-range snd_ssthresh by rcubic's own value for the window before it, which also
 * updates CUBIC's state as the skipped call would have. PRR then recomputes cwnd from
 * the repaired ssthresh on each ACK; a cwnd already inflated beyond any window the
 * flow had is brought down to the repaired ssthresh. */
static __always_inline void audit_repair(struct sock *sk, struct RcubicCtx *c)
{
	struct tcp_sock *tp = tcp_sk(sk);
	__u32 *a = audit_slots(sk);
	__u32 before = a[AUDIT_REPAIR];
	__u32 bad = tp->snd_ssthresh;
	__u32 fixed;

	if (!before)
		return;
	a[AUDIT_REPAIR] = 0;
	if (bad != a[AUDIT_SEEN])
		return; /* changed again since: nothing of ours to repair */
	c->cwnd = before;
	fixed = rcubic_ssthresh(c);
	store_state(sk, c);
	tp->snd_ssthresh = fixed;
	if (tp->snd_cwnd > before)
		tp->snd_cwnd = fixed;
	a[AUDIT_SEEN] = fixed;
	__sync_fetch_and_add(&rcubic_ssthresh_audit[6], 1);
	bpf_printk("rcubic audit: sk %llx snd_ssthresh %u repaired to %u (window before %u)",
		   (__u64)sk, bad, fixed, before);
	load(sk, c);
}

/* set_state: an edge from Open/Disorder into a window reduction must follow a call
 * of the ssthresh hook (icsk_ca_state still holds the old state here). */
static __always_inline void audit_state_edge(struct sock *sk, __u8 new_state)
{
	__u32 *a = audit_slots(sk);
	__u8 old_state = inet_csk(sk)->icsk_ca_state;

	if (old_state <= TCP_CA_Disorder && new_state >= TCP_CA_CWR && !a[AUDIT_CALLED]) {
		__sync_fetch_and_add(&rcubic_ssthresh_audit[4], 1);
		bpf_printk("rcubic audit: sk %llx entered ca_state %u from %u without an ssthresh call (snd_ssthresh %u)",
			   (__u64)sk, new_state, old_state, tcp_sk(sk)->snd_ssthresh);
	}
	a[AUDIT_CALLED] = 0;
	a[AUDIT_STATE] = new_state;
}

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
	audit_start(sk);
	check_window("init out", sk);
}

SEC("struct_ops")
__u32 BPF_PROG(rcubic_ssthresh_hook, struct sock *sk)
{
	count_call(1);
	struct RcubicCtx c = {};
	__u32 ssthresh;

	check_window("ssthresh in", sk);
	audit_check(sk, "ssthresh");
	load(sk, &c);
	ssthresh = rcubic_ssthresh(&c);
	store_state(sk, &c);
	audit_returned(sk, ssthresh);
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
	audit_check(sk, "cong_avoid");
	load(sk, &c);
	rcubic_cong_avoid(&c, acked, now_jiffies(), is_cwnd_limited(sk));
	store_state(sk, &c);
	store_window(sk, &c);
	audit_own_write(sk);
	check_window("cong_avoid out", sk);
}

SEC("struct_ops")
void BPF_PROG(rcubic_set_state_hook, struct sock *sk, __u8 new_state)
{
	count_call(3);
	struct RcubicCtx c = {};

	check_window("set_state in", sk);
	audit_check(sk, "set_state");
	audit_state_edge(sk, new_state);
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
	audit_check(sk, "cwnd_event");
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
	audit_check(sk, "pkts_acked");
	load(sk, &c);
	audit_repair(sk, &c);
	if (rcubic_pkts_acked(&c, sample->rtt_us, now_jiffies(), now_us(sk))) {
		store_window(sk, &c);
		audit_own_write(sk);
	}
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
	audit_check(sk, "undo_cwnd");
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
