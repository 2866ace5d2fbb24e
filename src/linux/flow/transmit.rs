//! The transmit step: `snd_nxt`, `packets_out` and the window-use round
//! (`tcp_cwnd_validate`).

use super::*;

impl LinuxFlowState {
    /// The transmit step: after sending, `in_flight` segments are outstanding.
    ///
    /// More than before means new data left: after an empty pipe CUBIC gets
    /// `CA_EVENT_TX_START` (reading the previous send time), and the send time is
    /// stamped. Then the kernel's window-use tracking (`tcp_cwnd_validate` and the
    /// `tcp_write_xmit` rule `in_flight >= cwnd`) decides `is_cwnd_limited`.
    /// `snd_nxt` moves up to `snd_una + in_flight` if that is ahead of it.
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_cwnd_validate()
    #[inline(always)]
    #[doc(hidden)]
    pub fn transmit(&mut self, now: Instant, in_flight: u32) {
        self.transmit_up_to(now, in_flight, None);
    }

    /// [`transmit`](Self::transmit), with the stack's `snd_nxt` when it gave one.
    // Linux net/ipv4/tcp_output.c tcp_event_data_sent(), tcp_cwnd_validate()
    #[inline(always)]
    pub(super) fn transmit_up_to(
        &mut self,
        now: Instant,
        in_flight: u32,
        stack_snd_nxt: Option<u32>,
    ) {
        let sent = in_flight.saturating_sub(self.hot.packets_out);
        let jiffies = now.jiffies32();
        if sent > 0 {
            if self.hot.packets_out == 0 {
                let h = &mut self.hot;
                h.epoch_start = epoch_after_idle(h.epoch_start, jiffies, h.last_send_jiffies);
            }
            self.hot.last_send_jiffies = jiffies;
        }
        let snd_nxt = self.advance_snd_nxt(in_flight, stack_snd_nxt);
        // Linux tcp_cwnd_validate(): record the window use when cwnd-limited (the common
        // case, tested first), when the recorded round is over, or when more is in flight.
        let h = &mut self.hot;
        let limited = in_flight >= h.cwnd;
        if limited {
            h.flags |= IS_CWND_LIMITED;
            h.max_packets_out = in_flight;
            h.cwnd_usage_seq = snd_nxt;
        } else if sent > 0
            && (!linux_after(h.cwnd_usage_seq, h.snd_una)
                || (h.flags & IS_CWND_LIMITED == 0 && in_flight > h.max_packets_out))
        {
            h.flags &= !IS_CWND_LIMITED;
            h.max_packets_out = in_flight;
            h.cwnd_usage_seq = snd_nxt;
        }
    }

    /// `packets_out = in_flight`, and `snd_nxt` moves up to `snd_una + in_flight`, and to
    /// the stack's own `snd_nxt` if it gave one, whichever is ahead of it (never back);
    /// returns it.
    #[inline(always)]
    pub(super) fn advance_snd_nxt(&mut self, in_flight: u32, stack_snd_nxt: Option<u32>) -> u32 {
        let h = &mut self.hot;
        // snd_nxt is snd_una + packets_out unless ahead (the kernel's `after() || ==`,
        // wrapping); a stack's own snd_nxt is compared only after an event that may have
        // left segments out of its flight (one flag test with the other).
        let cold = if stack_snd_nxt.is_some() {
            SND_NXT_AHEAD | COMPARE_SND_NXT
        } else {
            SND_NXT_AHEAD
        };
        if h.flags & cold != 0 {
            return self.advance_stored_snd_nxt(in_flight, stack_snd_nxt);
        }
        if (h.packets_out.wrapping_sub(in_flight) as i32) > 0 {
            return self.advance_stored_snd_nxt(in_flight, stack_snd_nxt);
        }
        h.packets_out = in_flight;
        h.snd_una.wrapping_add(in_flight)
    }

    /// [`advance_snd_nxt`](Self::advance_snd_nxt) when `snd_nxt` is, or is about to be,
    /// ahead of the flight (losses or discards left it, less is in flight after a send),
    /// or the stack's own `snd_nxt` is to be compared: a stack that counts SACKed or lost
    /// segments out of its flight is ahead of `snd_una + in_flight`, and its `snd_nxt`
    /// goes to the cold line; equal or behind, the flight's stands.
    #[inline(never)]
    pub(super) fn advance_stored_snd_nxt(
        &mut self,
        in_flight: u32,
        stack_snd_nxt: Option<u32>,
    ) -> u32 {
        let before = self.snd_nxt();
        let top = self.hot.snd_una.wrapping_add(in_flight);
        self.hot.packets_out = in_flight;
        let mut snd_nxt = if linux_after(top, before) {
            top
        } else {
            before
        };
        if let Some(stack) = stack_snd_nxt {
            if linux_after(stack, snd_nxt) {
                snd_nxt = stack;
            }
        }
        self.store_snd_nxt(snd_nxt);
        self.hot.flags &= !COMPARE_SND_NXT;
        snd_nxt
    }
}
