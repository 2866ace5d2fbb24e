/* The kernel environment that Linux's net/ipv4/tcp_cubic.c and the tcp_cong.c / tcp.h
 * helpers it calls need in order to build as an ordinary userspace object: types, the
 * socket fields CUBIC reads and writes, and no-op stand-ins for module, BTF and
 * statistics macros. No kernel logic lives here: the script extracts that from a Linux
 * tree at measurement time (scripts/kernel-hooks.sh). Force-included (-include) before
 * every kernel file; the kernel's own #include lines resolve to empty files. */
#ifndef CONGESTION_KERNEL_SHIM_H
#define CONGESTION_KERNEL_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define HZ 1000
#define USEC_PER_MSEC 1000UL
#define USEC_PER_SEC 1000000UL
#define ICSK_CA_PRIV_SIZE 104

/* The socket, flattened: the fields CUBIC touches, in one struct. tcp_sk() and
 * inet_csk_ca() are casts and a field address, as in the kernel. */
struct sock {
	unsigned long sk_pacing_rate;
	unsigned int sk_gso_max_size;
	u8 sk_pacing_status;
};
struct tcp_sock {
	struct sock sk;
	u64 icsk_ca_priv[ICSK_CA_PRIV_SIZE / sizeof(u64)];
	u64 tcp_mstamp;
	u32 snd_una;
	u32 snd_nxt;
	u32 lsndtime;
	u32 snd_cwnd;
	u32 snd_ssthresh;
	u32 snd_cwnd_cnt;
	u32 snd_cwnd_clamp;
	u32 max_packets_out;
	u8 is_cwnd_limited;
};
#define tcp_sk(sk) ((struct tcp_sock *)(sk))
#define inet_csk_ca(sk) ((void *)tcp_sk(sk)->icsk_ca_priv)

enum { SK_PACING_NONE = 0, SK_PACING_NEEDED = 1, SK_PACING_FQ = 2 };
enum { TCP_CA_Open = 0, TCP_CA_Loss = 4 };
enum tcp_ca_event { CA_EVENT_TX_START = 0 };

struct ack_sample {
	u32 pkts_acked;
	s32 rtt_us;
	u32 in_flight;
};

struct tcp_congestion_ops {
	void (*init)(struct sock *sk);
	u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
	void (*set_state)(struct sock *sk, u8 new_state);
	u32 (*undo_cwnd)(struct sock *sk);
	void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	void *owner;
	const char *name;
};

/* What the harness provides (perf/kernel/stream.c). */
extern u32 tcp_jiffies32;
int tcp_register_congestion_control(struct tcp_congestion_ops *ops);
void tcp_unregister_congestion_control(struct tcp_congestion_ops *ops);
u32 tcp_reno_undo_cwnd(struct sock *sk);
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked);
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked);
/* The kernel's usecs_to_jiffies() on a variable is an out-of-line call
 * (__usecs_to_jiffies, kernel/time/time.c): so here. */
unsigned long usecs_to_jiffies(unsigned int us);
void warn_slowpath(const char *file, int line);

#include "kernel_idioms.h"

/* Kernel idioms this file needs besides. */
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define fls64(x) ((x) ? 64 - __builtin_clzll(x) : 0)
#define div64_u64(a, b) ((u64)(a) / (u64)(b))
#define div64_ul(a, b) ((u64)(a) / (unsigned long)(b))
#define do_div(n, base) ({ u32 __b = (base); u32 __r = (u32)((n) % __b); (n) /= __b; __r; })
#define pr_debug(...) do { } while (0)
#define NET_INC_STATS(net, f) do { } while (0)
#define NET_ADD_STATS(net, f, v) do { (void)(v); } while (0)
#define sock_net(sk) NULL

#endif
