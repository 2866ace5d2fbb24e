//! `BBR.extra_acked` (§5.5.9): what was acknowledged beyond what `BBR.bw` predicts,
//! as a windowed max over rounds.

use super::Bbr3;
use super::params::{BW_SCALE, EXTRA_ACKED_SLOT_ROUNDS};
use crate::time::Instant;

impl Bbr3 {
    /// `UpdateACKAggregation()` (§5.5.9). The windowed max is the kernel's two slots
    /// (`bbr_update_ack_aggregation`): in Startup a slot lasts one round, after it
    /// [`EXTRA_ACKED_SLOT_ROUNDS`] (see there for the draft's 10-round window).
    pub(super) fn update_ack_aggregation(&mut self, now: Instant) {
        if self.newly_acked == 0 {
            return;
        }
        if self.m.round_start {
            self.m.extra_acked_slot_rounds = self.m.extra_acked_slot_rounds.saturating_add(1);
            let slot_len = if self.m.full_bw_reached {
                EXTRA_ACKED_SLOT_ROUNDS
            } else {
                1
            };
            // draft-ietf-ccwg-bbr §5.5.9: 1 round in Startup, ExtraAckedFilterLen rounds after (two slots, as the kernel)
            if self.m.extra_acked_slot_rounds >= slot_len {
                self.m.extra_acked_slot_rounds = 0;
                self.m.extra_acked_slot ^= 1;
                self.set_extra_acked_slot(0);
            }
        }
        let interval_us = now
            .saturating_duration_since(self.m.extra_acked_interval_start)
            .as_micros();
        // draft-ietf-ccwg-bbr §5.5.9 UpdateACKAggregation(): expected_delivered = BBR.bw * interval
        let expected = (u64::from(self.m.bw).saturating_mul(interval_us) >> BW_SCALE)
            .min(u64::from(u32::MAX)) as u32;
        let mut expected_delivered = expected;
        // draft-ietf-ccwg-bbr §5.5.9: an ACK rate below the expected rate restarts the interval
        if self.m.extra_acked_delivered <= expected_delivered {
            self.m.extra_acked_delivered = 0;
            self.m.extra_acked_interval_start = now;
            expected_delivered = 0;
        }
        self.m.extra_acked_delivered = self
            .m
            .extra_acked_delivered
            .saturating_add(self.newly_acked);
        // draft-ietf-ccwg-bbr §5.5.9: extra = min(extra_acked_delivered - expected, C.cwnd)
        let extra = self
            .m
            .extra_acked_delivered
            .saturating_sub(expected_delivered)
            .min(self.cwnd);
        let [a, b] = self.m.extra_acked_slots;
        let current = if self.m.extra_acked_slot == 0 { a } else { b };
        if extra > current {
            self.set_extra_acked_slot(extra);
        }
        let [a, b] = self.m.extra_acked_slots;
        // Linux net/ipv4/tcp_bbr.c bbr_extra_acked(): the larger of the two slots
        self.m.extra_acked = a.max(b);
    }

    fn set_extra_acked_slot(&mut self, value: u32) {
        let [a, b] = &mut self.m.extra_acked_slots;
        if self.m.extra_acked_slot == 0 {
            *a = value;
        } else {
            *b = value;
        }
    }
}
