// SPDX-License-Identifier: GPL-2.0
/*
 * ecn_mark: an ECN step marker for the testbed's bottleneck, for kernels built
 * without an ECN-marking qdisc (no sch_red, sch_fq_codel, sch_fq_pie: the test
 * machine's kernel has only tbf, htb and fifo).
 *
 * A tc egress program on the router's bottleneck device, which runs before the tbf
 * qdisc enqueues. It keeps a virtual queue that fills with each packet's length and
 * drains at the tbf's rate, so it tracks the tbf backlog (less what tbf drops), and
 * sets CE on an ECT packet while that backlog is above a threshold: DCTCP's step
 * marking (RFC 8257 §3.1, "mark when the instantaneous queue exceeds K").
 *
 * Built by testbed.sh with -DRATE_BYTES_PER_SEC=... -DMARK_BYTES=...
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#ifndef RATE_BYTES_PER_SEC
#error "build with -DRATE_BYTES_PER_SEC"
#endif
#ifndef MARK_BYTES
#error "build with -DMARK_BYTES"
#endif

#define TC_ACT_OK 0
#define NSEC_PER_SEC 1000000000ull
#define ETH_HLEN 14
#define ETH_P_IP_BE 0x0008 /* htons(ETH_P_IP) */
#define IPPROTO_TCP_NUM 6

struct vqueue {
	struct bpf_spin_lock lock;
	__u64 stamp_ns;
	__u64 backlog;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct vqueue);
} vqueue SEC(".maps");

/* Packets seen and packets marked, for the testbed's report. */
__u64 ecn_mark_seen;
__u64 ecn_mark_marked;

/*
 * The bytes this skb puts on the wire. A GSO skb carries its headers once, but tbf
 * (which segments it) and the link carry them once per segment; counting skb->len
 * alone under-fills the virtual queue by ~4.5 % of the rate at MSS 1448, enough for
 * it to stay empty while the real one grows. Headers: Ethernet + IPv4 + TCP, read
 * from the packet.
 */
static __always_inline __u64 wire_bytes(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct iphdr *ip = data + ETH_HLEN;
	struct tcphdr *tcp;
	__u32 hdr;

	if (skb->gso_segs <= 1 || skb->protocol != ETH_P_IP_BE)
		return skb->len;
	if ((void *)(ip + 1) > data_end || ip->protocol != IPPROTO_TCP_NUM)
		return skb->len;
	tcp = (void *)ip + ip->ihl * 4;
	if ((void *)(tcp + 1) > data_end)
		return skb->len;
	hdr = ETH_HLEN + ip->ihl * 4 + tcp->doff * 4;
	return skb->len + (__u64)(skb->gso_segs - 1) * hdr;
}

SEC("tc")
int ecn_mark(struct __sk_buff *skb)
{
	__u32 zero = 0;
	struct vqueue *q = bpf_map_lookup_elem(&vqueue, &zero);
	__u64 now = bpf_ktime_get_ns();
	__u64 len = wire_bytes(skb);
	__u64 dt, drained;
	int mark;

	if (!q)
		return TC_ACT_OK;
	bpf_spin_lock(&q->lock);
	dt = now - q->stamp_ns;
	/* Idle for a second or more (or the first packet): the queue is empty. */
	drained = dt >= NSEC_PER_SEC ? q->backlog : dt * RATE_BYTES_PER_SEC / NSEC_PER_SEC;
	q->backlog = q->backlog > drained ? q->backlog - drained : 0;
	q->backlog += len;
	q->stamp_ns = now;
	mark = q->backlog > MARK_BYTES;
	bpf_spin_unlock(&q->lock);
	__sync_fetch_and_add(&ecn_mark_seen, 1);
	/* bpf_skb_ecn_set_ce() marks only ECT packets and returns 1 when it did. */
	if (mark && bpf_skb_ecn_set_ce(skb) == 1)
		__sync_fetch_and_add(&ecn_mark_marked, 1);
	return TC_ACT_OK;
}
