//! Linux 2.6.35 `tcp_tso_should_defer()`: whether the skb at the send head waits for
//! more room rather than go out as a short TSO burst. The jiffies limit on how long a
//! deferral may last is the sender's (it needs the deferral's start); this is the test
//! on one transmit attempt, in whole segments.

use crate::config::GSO_MAX_SIZE_BYTES;

/// What one deferral test reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeferInputs {
    /// Segments in the skb at the send head (`tcp_skb_pcount`).
    pub skb_segs: u32,
    /// Whether it is the write queue's last skb (the writer may still add to it).
    pub skb_is_tail: bool,
    /// Whether it carries the FIN (the writer has written everything).
    pub skb_has_fin: bool,
    /// Whether the connection is in the Open state (no recovery, no CWR).
    pub open: bool,
    /// `snd_cwnd`, segments.
    pub cwnd: u32,
    /// `tcp_packets_in_flight`, segments.
    pub in_flight: u32,
    /// `snd_wnd`: the receiver's window, whole segments.
    pub snd_wnd: u32,
    /// Whole segments from the skb's start to the window's end (`send_win`).
    pub send_win: u32,
    /// Bytes per segment (`mss_cache`).
    pub mss: u32,
}

/// True when the head skb should wait: it has more than one segment, data is in
/// flight, the connection is Open, it is not the FIN, and the room (`limit`, the least
/// of `send_win` and cwnd's room) neither reaches `sk_gso_max_size`, nor holds the whole
/// skb of one in the middle of the queue, nor is at least a third of
/// `min(snd_wnd, snd_cwnd)` (`tcp_tso_win_divisor` = 3).
// Linux 2.6.35 net/ipv4/tcp_output.c tcp_tso_should_defer() (limit and chunk in bytes:
// limit * mss >= min(snd_wnd, cwnd) * mss / 3, rounded down, holds for whole segments
// exactly when 3 * limit >= min(snd_wnd, cwnd))
pub fn wants_to_defer(i: &DeferInputs) -> bool {
    if i.skb_segs <= 1 || i.skb_has_fin || !i.open || i.in_flight == 0 {
        return false;
    }
    let limit = i.send_win.min(i.cwnd.saturating_sub(i.in_flight));
    let limit_bytes = u64::from(limit) * u64::from(i.mss);
    if limit_bytes >= u64::from(GSO_MAX_SIZE_BYTES) {
        return false;
    }
    if !i.skb_is_tail && limit >= i.skb_segs {
        return false;
    }
    u64::from(limit) * 3 < u64::from(i.snd_wnd.min(i.cwnd))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cwnd 16 with 11 in flight at MSS 8948: 5 segments of room for a 7-segment skb.
    fn base() -> DeferInputs {
        DeferInputs {
            skb_segs: 7,
            skb_is_tail: false,
            skb_has_fin: false,
            open: true,
            cwnd: 16,
            in_flight: 11,
            snd_wnd: 100,
            send_win: 100,
            mss: 8948,
        }
    }

    #[test]
    fn a_third_of_the_window_is_compared_in_bytes_not_whole_thirds() {
        // 5 * 8948 = 44740 B < 16 * 8948 / 3 = 47722 B: defer (5 >= 16 / 3 rounded down
        // would wrongly send).
        assert!(wants_to_defer(&base()));
        // 6 segments: 53688 B >= 47722 B: send.
        assert!(!wants_to_defer(&DeferInputs {
            in_flight: 10,
            ..base()
        }));
        // cwnd 15: chunk 44740 B, room 5 = 44740 B: send.
        assert!(!wants_to_defer(&DeferInputs {
            cwnd: 15,
            in_flight: 10,
            ..base()
        }));
    }

    #[test]
    fn a_split_remainder_in_the_middle_of_the_queue_goes_when_the_room_holds_it() {
        // The 2 segments left of a split skb, 3 segments of room.
        let i = DeferInputs {
            skb_segs: 2,
            in_flight: 13,
            cwnd: 16,
            ..base()
        };
        assert!(!wants_to_defer(&i));
        // The same skb as the queue's tail may still grow: it waits.
        assert!(wants_to_defer(&DeferInputs {
            skb_is_tail: true,
            ..i
        }));
        // ... unless it carries the FIN.
        assert!(!wants_to_defer(&DeferInputs {
            skb_is_tail: true,
            skb_has_fin: true,
            ..i
        }));
    }

    #[test]
    fn one_segment_skbs_and_non_open_states_are_never_deferred() {
        assert!(!wants_to_defer(&DeferInputs {
            skb_segs: 1,
            ..base()
        }));
        assert!(!wants_to_defer(&DeferInputs {
            open: false,
            ..base()
        }));
        assert!(!wants_to_defer(&DeferInputs {
            in_flight: 0,
            cwnd: 4,
            ..base()
        }));
    }

    #[test]
    fn room_for_a_full_gso_skb_or_limited_by_the_receiver_window() {
        // 8 segments of 8948 B = 71584 B >= 65536: send, whatever the skb.
        let big = DeferInputs {
            skb_segs: 45,
            mss: 8948,
            cwnd: 100,
            in_flight: 92,
            ..base()
        };
        assert!(!wants_to_defer(&big));
        // The receiver's window leaves 2 segments of a 30-segment window: 2 * 3 < 30, defer.
        let rwnd = DeferInputs {
            cwnd: 100,
            in_flight: 20,
            snd_wnd: 30,
            send_win: 2,
            ..base()
        };
        assert!(wants_to_defer(&rwnd));
    }
}
