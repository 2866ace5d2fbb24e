/* The kernel environment that Google's BBRv3 net/ipv4/tcp_bbr.c (the google/bbr v3
 * tree), its net/ipv4/tcp_rate.c, lib/win_minmax.c and two helpers of tcp_output.c /
 * tcp_input.c need in order to build as ordinary userspace objects: types, the socket
 * and skb fields they read and write (with v3's rate-sample and skb fields), constants,
 * and no-op stand-ins for module, BTF, diagnostics and statistics macros.
 *
 * No kernel logic lives here: scripts/kernel-bbr3.sh takes that from a v3 tree at
 * measurement time (the whole three files, and the helpers extracted by name into
 * kernel_helpers.h, which this header includes at its end). Where v3's tcp_bbr.c uses
 * something outside those files, this header only declares it and says what stands in:
 * PLB (tcp_plb.c, off by default: the harness's functions return at once, as the
 * kernel's do with sysctl_tcp_plb_enabled = 0), the receiver-side CE hook of
 * tcp_dctcp.h (never raised here) and one WARN_ONCE diagnostic predicate.
 *
 * The structs are laid out for the fields these files name, not as the kernel's; where
 * a width matters to the arithmetic (tx.in_flight:20, tx.delivered_ce:20, u32 tx
 * stamps), it is the v3 width. Force-included (-include) before every kernel file; the
 * kernel's own #include lines resolve to empty files. */
#ifndef CONGESTION_KERNEL_BBR3_SHIM_H
#define CONGESTION_KERNEL_BBR3_SHIM_H

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
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;

/* win_minmax.h, extracted by the script (types and two inline helpers). */
#include "win_minmax_extract.h"

#define HZ 1000
#define NSEC_PER_USEC 1000UL
#define NSEC_PER_SEC 1000000000UL
#define USEC_PER_MSEC 1000UL
#define USEC_PER_SEC 1000000UL
/* struct bbr of the v3 tree is 152 bytes (gcc, x86-64); the v3 tree raises the
 * private area above mainline's 104 to hold it. */
#define ICSK_CA_PRIV_SIZE 160
#define GSO_LEGACY_MAX_SIZE 65536u
#define MAX_TCP_HEADER 320u /* L1_CACHE_ALIGN(128 + MAX_HEADER), x86-64 */
#define BITS_PER_TYPE(t) (sizeof(t) * 8)
#define TCP_INFINITE_SSTHRESH 0x7fffffff
#define TCP_CONG_NON_RESTRICTED 0x1
#define TCP_CONG_WANTS_CE_EVENTS 0x4
#define TCP_CA_NAME_MAX 16
#define FLAG_ACK_MAYBE_DELAYED 0x10000
#define TCPCB_SACKED_ACKED 0x01
#define TCPCB_SACKED_RETRANS 0x02
#define TCPCB_LOST 0x04
#define TCPCB_REPAIRED 0x10
#define TCPCB_EVER_RETRANS 0x80
#define TCPCB_RETRANS (TCPCB_SACKED_RETRANS | TCPCB_EVER_RETRANS | TCPCB_REPAIRED)
#define TCPCB_DELIVERED_CE_MASK ((1U << 20) - 1)
#define TCPCB_IN_FLIGHT_BITS 20
#define TCPCB_IN_FLIGHT_MAX ((1U << TCPCB_IN_FLIGHT_BITS) - 1)
/* tp->ecn_flags bits: distinct values; the streams run without ECN (ecn_flags 0). */
#define TCP_ECN_OK 0x01
#define TCP_ECN_QUIET 0x02
#define TCP_ECN_DEMAND_CWR 0x04
#define TCP_ECN_SEEN 0x08
#define TCP_ECN_LOW 0x10
#define TCP_ECN_ECT_PERMANENT 0x20
#define TCP_PLB_SCALE 8

enum { SK_PACING_NONE = 0, SK_PACING_NEEDED = 1, SK_PACING_FQ = 2 };
enum { TCP_CA_Open = 0, TCP_CA_Disorder = 1, TCP_CA_CWR = 2, TCP_CA_Recovery = 3, TCP_CA_Loss = 4 };
enum tcp_ca_event {
	CA_EVENT_TX_START,
	CA_EVENT_CWND_RESTART,
	CA_EVENT_COMPLETE_CWR,
	CA_EVENT_LOSS,
	CA_EVENT_ECN_NO_CE,
	CA_EVENT_ECN_IS_CE,
	CA_EVENT_TLP_RECOVERY,
};

/* The socket, flattened: struct sock, inet_connection_sock and tcp_sock in one, with
 * the fields these files touch. tcp_sk(), inet_csk() and inet_csk_ca() are casts and a
 * field address, as in the kernel. */
struct sock {
	unsigned long sk_pacing_rate;
	unsigned long sk_max_pacing_rate;
	unsigned int sk_gso_max_size;
	u8 sk_pacing_status;
	u8 sk_pacing_shift;
};
struct tcp_congestion_ops;
struct tcp_sock {
	struct sock sk;
	u8 icsk_ca_state;
	const struct tcp_congestion_ops *icsk_ca_ops;
	u64 icsk_ca_priv[ICSK_CA_PRIV_SIZE / sizeof(u64)];
	u64 tcp_mstamp;
	u64 tcp_clock_cache;
	u64 tcp_wstamp_ns;
	u64 first_tx_mstamp;
	u64 delivered_mstamp;
	struct minmax rtt_min;
	u32 srtt_us;
	u32 mss_cache;
	u32 snd_una;
	u32 snd_nxt;
	u32 write_seq;
	u32 rcv_nxt;
	u32 high_seq;
	u32 snd_cwnd;
	u32 snd_ssthresh;
	u32 prior_ssthresh;
	u32 prior_cwnd;
	u32 snd_cwnd_cnt;
	u32 snd_cwnd_clamp;
	u32 packets_out;
	u32 sacked_out;
	u32 lost_out;
	u32 retrans_out;
	u32 delivered;
	u32 delivered_ce;
	u32 lost;
	u32 app_limited;
	u32 rate_delivered;
	u32 rate_interval_us;
	u32 data_segs_out;
	u8 rate_app_limited;
	u8 ecn_flags;
	u8 is_cwnd_limited;
	u8 is_sack_reneg;
	u8 fast_ack_mode;
	u8 tlp_orig_data_app_limited;
	struct {
		u8 sack_ok;
	} rx_opt;
};
#define tcp_sk(sk) ((struct tcp_sock *)(sk))
#define inet_csk(sk) tcp_sk(sk)
#define inet_csk_ca(sk) ((void *)tcp_sk(sk)->icsk_ca_priv)

/* v3's per-skb send snapshot: u32 stamps, a 20-bit in_flight and the lost count. */
struct tcp_skb_cb {
	u32 seq;
	u32 end_seq;
	union {
		u32 tcp_tw_isn;
		struct {
			u16 tcp_gso_segs;
			u16 tcp_gso_size;
		};
	};
	u8 tcp_flags;
	u8 sacked;
	u8 ip_dsfield;
	u8 txstamp_ack : 1, eor : 1, has_rxtstamp : 1, unused : 5;
	u32 ack_seq;
	struct {
		u32 is_app_limited : 1, delivered_ce : 20, unused : 11;
		u32 delivered;
		u32 first_tx_mstamp;
		u32 delivered_mstamp;
		u32 in_flight : 20, unused2 : 12;
		u32 lost;
	} tx;
};
struct sk_buff {
	u64 skb_mstamp_ns;
	unsigned int len;
	char cb[48] __attribute__((aligned(8)));
};
#define TCP_SKB_CB(skb) ((struct tcp_skb_cb *)&((skb)->cb[0]))

/* v3's rate sample (prior_lost, tx_in_flight, lost, is_ece) and the TLP flag its
 * tcp_bbr.c reads (always false here: there is no TLP in these streams). */
struct rate_sample {
	u64 prior_mstamp;
	u32 prior_lost;
	u32 prior_delivered;
	u32 prior_delivered_ce;
	u32 tx_in_flight;
	s32 lost;
	s32 delivered;
	s32 delivered_ce;
	long interval_us;
	u32 snd_interval_us;
	u32 rcv_interval_us;
	long rtt_us;
	int losses;
	u32 acked_sacked;
	u32 prior_in_flight;
	u32 last_end_seq;
	bool is_app_limited;
	bool is_retrans;
	bool is_ack_delayed;
	bool is_ece;
	bool is_acking_tlp_retrans_seq;
};

enum tcp_bbr_phase {
	BBR_PHASE_INVALID,
	BBR_PHASE_STARTUP,
	BBR_PHASE_DRAIN,
	BBR_PHASE_PROBE_RTT,
	BBR_PHASE_PROBE_BW_UP,
	BBR_PHASE_PROBE_BW_DOWN,
	BBR_PHASE_PROBE_BW_CRUISE,
	BBR_PHASE_PROBE_BW_REFILL,
};
struct tcp_bbr_info {
	u32 bbr_bw_lo;
	u32 bbr_bw_hi;
	u32 bbr_min_rtt;
	u32 bbr_pacing_gain;
	u32 bbr_cwnd_gain;
	u32 bbr_bw_hi_lsb;
	u32 bbr_bw_hi_msb;
	u32 bbr_bw_lo_lsb;
	u32 bbr_bw_lo_msb;
	u8 bbr_mode;
	u8 bbr_phase;
	u8 unused1;
	u8 bbr_version;
	u32 unused2;
	u32 bbr_inflight_lo;
	u32 bbr_inflight_hi;
	u32 bbr_extra_acked;
};
union tcp_cc_info {
	struct tcp_bbr_info bbr;
};
enum { INET_DIAG_VEGASINFO = 3, INET_DIAG_BBRINFO = 16 };

/* The ops of the v3 tree: skb_marked_lost and tso_segs, cong_control(sk, rs). */
struct ack_sample;
struct tcp_congestion_ops {
	u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, u32 ack, u32 acked);
	void (*set_state)(struct sock *sk, u8 new_state);
	void (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev);
	void (*in_ack_event)(struct sock *sk, u32 flags);
	void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample);
	u32 (*tso_segs)(struct sock *sk, unsigned int mss_now);
	void (*skb_marked_lost)(struct sock *sk, const struct sk_buff *skb);
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

/* The sysctls these files read, at their defaults. */
struct net {
	struct {
		int sysctl_tcp_min_rtt_wlen;
		int sysctl_tcp_min_tso_segs;
		int sysctl_tcp_plb_enabled;
	} ipv4;
};
extern struct net init_net;
#define sock_net(sk) (&init_net)

/* PLB's per-flow state (tcp.h); its functions are the harness's, see above. */
struct tcp_plb_state {
	u8 consec_cong_rounds : 5, unused : 3;
	u32 pause_until;
} __attribute__((__packed__));
void tcp_plb_update_state(const struct sock *sk, struct tcp_plb_state *plb, const int cong_ratio);
void tcp_plb_check_rehash(struct sock *sk, struct tcp_plb_state *plb);
void tcp_plb_update_state_upon_rto(struct sock *sk, struct tcp_plb_state *plb);
/* tcp_dctcp.h's receiver-side CE hook: the harness's stands in (never called here). */
void dctcp_ece_ack_update(struct sock *sk, enum tcp_ca_event evt, u32 *prior_rcv_nxt,
			  u32 *ce_state);
/* A WARN_ONCE condition in bbr_inflight_hi_from_lost_skb(), reached only when an skb's
 * tx.in_flight is below its pcount (never here; the WARN then fires, see harness). */
#define tcp_skb_tx_in_flight_is_suspicious(pcount, sacked, in_flight) \
	((void)(pcount), (void)(sacked), (void)(in_flight), true)

/* What the harness provides (perf/kernel/bbr3_stream.c). */
extern u32 tcp_jiffies32;
int tcp_register_congestion_control(struct tcp_congestion_ops *ops);
void tcp_unregister_congestion_control(struct tcp_congestion_ops *ops);
u32 harness_random_below(u32 ceil);
void warn_slowpath(const char *file, int line);

#include "kernel_idioms.h"

/* Kernel idioms this file needs besides. */
#define WRITE_ONCE(x, v) ((x) = (v))
#define WARN_ONCE(c, ...) WARN_ON_ONCE(c)
#define before(a, b) after(b, a)
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define div_u64(a, b) ((u64)(a) / (u32)(b))
#define div64_ul(a, b) ((u64)(a) / (unsigned long)(b))
#define do_div(n, base) ({ u32 __b = (base); u32 __r = (u32)((n) % __b); (n) /= __b; __r; })
/* DIV_ROUND_UP_ULL: round up, then do_div()'s 32-bit divisor, as the kernel's */
#define DIV_ROUND_UP_ULL(ll, d) ({ u64 __n = (u64)(ll) + (d) - 1; (void)do_div(__n, (d)); __n; })
/* ilog2() of a run-time u64: fls64(n) - 1, so -1 for 0 */
#define ilog2(n) ((n) ? 63 - __builtin_clzll((u64)(n)) : -1)
#define msecs_to_jiffies(ms) ((unsigned long)(ms)) /* HZ = 1000 */
#define jiffies_to_usecs(j) ((j) * 1000u)
#define get_random_u32_below(ceil) harness_random_below(ceil)
#define cmpxchg(p, old, new) ({ __typeof__(*(p)) __o = *(p); if (__o == (old)) *(p) = (new); __o; })
#define sk_wmem_alloc_get(sk) 0
#define SKB_TRUESIZE(x) (x)
#define list_move_tail(a, b) do { } while (0)
#define pr_debug(...) do { } while (0)
#define NET_INC_STATS(net, f) do { } while (0)
#define NET_ADD_STATS(net, f, v) do { (void)(v); } while (0)

/* Module registration this file needs besides. */
#define EXPORT_SYMBOL(x)

/* tcp_rate.c's functions. */
void tcp_set_tx_in_flight(struct sock *sk, struct sk_buff *skb);
void tcp_rate_skb_sent(struct sock *sk, struct sk_buff *skb);
void tcp_rate_skb_delivered(struct sock *sk, struct sk_buff *skb, struct rate_sample *rs);
void tcp_rate_gen(struct sock *sk, u32 delivered, u32 lost, bool is_sack_reneg,
		  struct rate_sample *rs);
void tcp_rate_check_app_limited(struct sock *sk);

/* tcp.h's inline helpers, extracted by the script. */
#include "kernel_helpers.h"

#endif
