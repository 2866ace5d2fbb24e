//! A 2.6.35 receiver's delayed-ACK timeout (`icsk_ack.ato`), in jiffies.
//!
//! The kernel does not wait a fixed 40 ms: `ato` starts at `TCP_ATO_MIN` (HZ/25) on the
//! first data, moves with the gaps between arriving segments, and doubles each time the
//! delayed-ACK timer has to fire; the timer itself is a jiffies timer that fires on a
//! tick. Linux 2.6.35 (net/ipv4):
//! - `tcp_event_data_recv` (tcp_input.c), per in-order data segment, with `m` the
//!   jiffies since the last one: `m <= ATO_MIN/2`: `ato = ato/2 + ATO_MIN/2`; else
//!   `m < ato`: `ato = min(ato/2 + m, rto)`; otherwise unchanged.
//! - `tcp_delack_timer` (tcp_timer.c), when it sends the ACK: `ato = min(2 ato, rto)`
//!   ("delayed ACK missed: inflate ATO").
//! - `tcp_send_delayed_ack` (tcp_output.c): above `TCP_DELACK_MIN` (also HZ/25) the
//!   wait is at most HZ/2, and at most `max(srtt, TCP_DELACK_MIN)` once the socket has
//!   an RTT; the timer is armed for `jiffies + ato`.
//!
//! The data receiver's own RTT (`srtt`, and the `icsk_rto` the rules cap `ato` at) comes
//! only from the handshake, and only with timestamps: `tcp_rcv_state_process` runs
//! `tcp_ack_saw_tstamp` on the ACK that completes a passive open ("fix it at least with
//! timestamps"). Without timestamps `srtt` stays 0 and `icsk_rto` is `TCP_TIMEOUT_INIT`
//! (3 s). The receiver sends no data, so nothing updates either afterwards.

/// The delayed-ACK timeout state of a 2.6.35 receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayedAckTimeout {
    /// `TCP_ATO_MIN` = `TCP_DELACK_MIN`, jiffies (HZ/25).
    ato_min: u32,
    /// HZ/2, the longest wait without an RTT bound.
    ato_max: u32,
    /// `icsk_ack.ato`, jiffies; 0 before the first data.
    ato: u32,
    /// `icsk_ack.lrcvtime`: jiffies of the last in-order data.
    lrcvtime: u32,
    /// `icsk_rto`, jiffies.
    rto: u32,
    /// `srtt >> 3`, jiffies, when the handshake gave a sample.
    srtt: Option<u32>,
}

impl DelayedAckTimeout {
    /// The state at `hz` of a receiver whose handshake ACK gave an RTT sample of
    /// `handshake_rtt` jiffies (`Some` only with timestamps).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rtt_estimator() on the first sample:
    // srtt = m << 3, rttvar = max(m << 1, tcp_rto_min = HZ/5), rto = (srtt >> 3) + rttvar
    pub fn new(hz: u32, handshake_rtt: Option<u32>) -> Self {
        let hz = hz.max(1);
        let srtt = handshake_rtt.map(|m| m.max(1));
        let rto = match srtt {
            Some(m) => m.saturating_add((m.saturating_mul(2)).max(hz / 5)),
            // TCP_TIMEOUT_INIT
            None => hz.saturating_mul(3),
        };
        DelayedAckTimeout {
            ato_min: (hz / 25).max(1),
            ato_max: hz / 2,
            ato: 0,
            lrcvtime: 0,
            rto,
            srtt,
        }
    }

    /// In-order data arrived at jiffies `now` (`tcp_event_data_recv`).
    pub fn on_data(&mut self, now: u32) {
        if self.ato == 0 {
            self.ato = self.ato_min;
        } else {
            // The kernel's signed difference of two jiffies stamps.
            let m = now.wrapping_sub(self.lrcvtime) as i32;
            if m <= (self.ato_min / 2) as i32 {
                self.ato = self.ato / 2 + self.ato_min / 2;
            } else if m < self.ato as i32 {
                self.ato = (self.ato / 2).saturating_add(m as u32).min(self.rto);
            }
        }
        self.lrcvtime = now;
    }

    /// The delayed-ACK timer fired and sent an ACK (`tcp_delack_timer`).
    pub fn on_timer_ack(&mut self) {
        self.ato = self.ato.saturating_mul(2).min(self.rto);
    }

    /// How many jiffies on a delayed ACK scheduled now fires (`tcp_send_delayed_ack`).
    pub fn wait(&self) -> u32 {
        let ato = self.ato.max(1);
        if ato <= self.ato_min {
            return ato;
        }
        let bound = match self.srtt {
            Some(rtt) => self.ato_max.min(rtt.max(self.ato_min)),
            None => self.ato_max,
        };
        ato.min(bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_to_back_data_keeps_the_minimum_and_a_missed_timer_doubles_it() {
        // HZ=250: ATO_MIN 10 jiffies (40 ms); handshake 20 jiffies, so rto = 20 +
        // max(40, 50) = 70 and the wait is bounded by srtt, 20 jiffies.
        let mut d = DelayedAckTimeout::new(250, Some(20));
        d.on_data(1000);
        assert_eq!(d.wait(), 10);
        d.on_data(1000);
        assert_eq!(d.wait(), 10, "10/2 + 5");
        d.on_timer_ack();
        assert_eq!(d.wait(), 20, "20 jiffies, the srtt bound");
        d.on_timer_ack();
        assert_eq!(d.ato, 40);
        assert_eq!(d.wait(), 20, "still the srtt bound");
        // A gap of 20 jiffies, between ATO_MIN/2 and ato: 40/2 + 20; then back-to-back
        // data halves it towards the minimum: 40 -> 25 -> 17 -> 13 -> 11 -> 10.
        d.on_data(1020);
        assert_eq!(d.ato, 40);
        d.on_data(1060);
        assert_eq!(d.ato, 40, "a gap of 40, not below ato: unchanged");
        let atos: Vec<u32> = (0..5)
            .map(|_| {
                d.on_data(1060);
                d.ato
            })
            .collect();
        assert_eq!(atos, [25, 17, 13, 11, 10]);
    }

    #[test]
    fn a_gap_between_half_the_minimum_and_ato_moves_it_towards_the_gap() {
        // HZ=1000, no timestamps: rto is 3000 jiffies and there is no srtt bound.
        let mut d = DelayedAckTimeout::new(1000, None);
        d.on_data(0);
        d.on_timer_ack();
        d.on_timer_ack();
        assert_eq!(d.ato, 160);
        assert_eq!(d.wait(), 160, "below HZ/2");
        d.on_data(30);
        assert_eq!(d.ato, 80 + 30);
        for _ in 0..5 {
            d.on_timer_ack();
        }
        assert_eq!(d.ato, 3000, "capped at rto");
        assert_eq!(d.wait(), 500, "at most HZ/2");
    }
}
