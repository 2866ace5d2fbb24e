/* The kernel environment that Linux's net/ipv4/tcp_dctcp.c (with its tcp_dctcp.h) and
 * the Reno helpers of tcp_cong.c need in order to build as userspace objects: types, the
 * socket fields they touch, constants and no-op module/BTF/diagnostics macros. No kernel
 * logic lives here: scripts/kernel-dctcp.sh compiles tcp_dctcp.c whole and extracts the
 * tcp.h / tcp_cong.c helpers by name (kernel_helpers.h, included at the end, and
 * tcp_cong_helpers.c). Force-included (-include) before every kernel file. */
#ifndef CONGESTION_KERNEL_DCTCP_SHIM_H
#define CONGESTION_KERNEL_DCTCP_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define HZ 1000
#define ICSK_CA_PRIV_SIZE 104
#define TCP_CA_NAME_MAX 16
#define TCP_CONG_NEEDS_ECN 0x2
#define TCP_ECN_OK 1
#define TCP_ECN_DEMAND_CWR 4
#define ICSK_ACK_TIMER 2
#define ICSK_ACK_NOW 4
enum { TCP_LISTEN = 10, TCP_CLOSE = 7 };
enum { TCP_CA_Open = 0, TCP_CA_Disorder = 1, TCP_CA_CWR = 2, TCP_CA_Recovery = 3, TCP_CA_Loss = 4 };
enum tcp_ca_event {
	CA_EVENT_TX_START,
	CA_EVENT_CWND_RESTART,
	CA_EVENT_COMPLETE_CWR,
	CA_EVENT_LOSS,
	CA_EVENT_ECN_NO_CE,
	CA_EVENT_ECN_IS_CE,
};
enum { CA_ACK_SLOWPATH = 1, CA_ACK_WIN_UPDATE = 2, CA_ACK_ECE = 4 };

/* The socket, flattened (sock, inet_connection_sock, tcp_sock): the fields these
 * files touch. */
struct sock {
	u8 sk_state;
};
struct tcp_congestion_ops;
struct tcp_sock {
	struct sock sk;
	u8 icsk_ca_state;
	const struct tcp_congestion_ops *icsk_ca_ops;
	struct {
		u8 pending;
	} icsk_ack;
	u64 icsk_ca_priv[ICSK_CA_PRIV_SIZE / sizeof(u64)];
	u64 tcp_mstamp;
	u32 snd_una;
	u32 snd_nxt;
	u32 rcv_nxt;
	u32 snd_cwnd;
	u32 snd_ssthresh;
	u32 snd_cwnd_cnt;
	u32 snd_cwnd_clamp;
	u32 prior_cwnd;
	u32 max_packets_out;
	u32 delivered;
	u32 delivered_ce;
	u32 mss_cache;
	u8 ecn_flags;
	u8 is_cwnd_limited;
};
#define tcp_sk(sk) ((struct tcp_sock *)(sk))
#define inet_csk(sk) tcp_sk(sk)
#define inet_csk_ca(sk) ((void *)tcp_sk(sk)->icsk_ca_priv)

struct tcp_dctcp_info {
	u16 dctcp_enabled;
	u16 dctcp_ce_state;
	u32 dctcp_alpha;
	u32 dctcp_ab_ecn;
	u32 dctcp_ab_tot;
};
union tcp_cc_info {
	struct tcp_dctcp_info dctcp;
};
enum { INET_DIAG_VEGASINFO = 3, INET_DIAG_DCTCPINFO = 9 };

struct ack_sample;
struct rate_sample;
struct tcp_congestion_ops {
	u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
	void (*set_state)(struct sock *sk, u8 new_state);
	void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
	void (*in_ack_event)(struct sock *sk, u32 flags);
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	u32 (*min_tso_segs)(struct sock *sk);
	void (*cong_control)(struct sock *sk, const struct rate_sample *rs);
	u32 (*undo_cwnd)(struct sock *sk);
	u32 (*sndbuf_expand)(struct sock *sk);
	size_t (*get_info)(struct sock *sk, u32 ext, int *attr, union tcp_cc_info *info);
	char name[TCP_CA_NAME_MAX];
	void *owner;
	u32 key;
	u32 flags;
	void (*init)(struct sock *sk);
	void (*release)(struct sock *sk);
};

struct kernel_param;
struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

/* What the harness provides (perf/kernel/dctcp_stream.c). */
int tcp_register_congestion_control(struct tcp_congestion_ops *ops);
void tcp_unregister_congestion_control(struct tcp_congestion_ops *ops);
int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int min,
			  unsigned int max);
int param_get_uint(char *buffer, const struct kernel_param *kp);
void __tcp_send_ack(struct sock *sk, u32 rcv_nxt);
void warn_slowpath(const char *file, int line);
u32 tcp_slow_start(struct tcp_sock *tp, u32 acked);
void tcp_cong_avoid_ai(struct tcp_sock *tp, u32 w, u32 acked);
void tcp_reno_cong_avoid(struct sock *sk, u32 ack, u32 acked);
u32 tcp_reno_ssthresh(struct sock *sk);
u32 tcp_reno_undo_cwnd(struct sock *sk);

#include "kernel_idioms.h"

/* Kernel idioms this file needs besides. */
#define WRITE_ONCE(x, v) ((x) = (v))
#define before(a, b) after(b, a)
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define min_not_zero(x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); __x == 0 ? __y : ((__y == 0) ? __x : min(__x, __y)); })
#define INET_ECN_dontxmit(sk) do { } while (0)
#define module_param_cb(name, ops, arg, perm)
#define MODULE_ALIAS(x)
#define EXPORT_SYMBOL(x)

/* tcp.h's inline helpers, extracted by the script. */
#include "kernel_helpers.h"

#endif
