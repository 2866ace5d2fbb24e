//! Kathleen Nichols' windowed min/max filter (`lib/win_minmax.c`): the best, second
//! and third best samples of a stream over a sliding window, in constant space.
//!
//! BBR keeps its bottleneck bandwidth in a running max over 10 packet-timed rounds,
//! and the socket keeps `tp->rtt_min` in a running min over 300 s of jiffies. Times
//! and windows are `u32` in whatever unit the caller uses; differences wrap as the
//! kernel's do.

/// One sample of a [`Minmax`] filter (`struct minmax_sample`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
// `#[repr(C)]`: fixed member order, which the BTF of the BPF struct_ops in `bpf/` needs.
#[repr(C)]
pub struct MinmaxSample {
    /// When it was taken (the caller's unit: jiffies, rounds).
    pub t: u32,
    /// Its value.
    pub v: u32,
}

/// A windowed min or max filter (`struct minmax`): `s[0]` is the best sample, `s[1]`
/// and `s[2]` the later second and third choices that take over as it ages out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
// `#[repr(C)]`: fixed member order, which the BTF of the BPF struct_ops in `bpf/` needs.
#[repr(C)]
pub struct Minmax {
    /// Best, second and third choice, oldest first in time.
    pub s: [MinmaxSample; 3],
}

const _: () = assert!(core::mem::size_of::<Minmax>() == 24);

impl Minmax {
    /// A filter holding `meas` at time `t` in all three slots.
    pub const fn new(t: u32, meas: u32) -> Self {
        let val = MinmaxSample { t, v: meas };
        Minmax { s: [val; 3] }
    }

    /// `minmax_get()`: the current best value.
    pub const fn get(&self) -> u32 {
        self.s[0].v
    }

    /// `minmax_reset()`: forgets every sample; `meas` at `t` fills all three slots.
    /// Returns `meas`.
    pub fn reset(&mut self, t: u32, meas: u32) -> u32 {
        *self = Minmax::new(t, meas);
        meas
    }

    /// `minmax_running_max()`: takes `meas` at `t` into a max filter of window `win`;
    /// returns the new maximum.
    pub fn running_max(&mut self, win: u32, t: u32, meas: u32) -> u32 {
        let val = MinmaxSample { t, v: meas };
        // Linux lib/win_minmax.c minmax_running_max(): a new max, or nothing left in the window
        if val.v >= self.s[0].v || val.t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, meas);
        }
        if val.v >= self.s[1].v {
            self.s[1] = val;
            self.s[2] = val;
        } else if val.v >= self.s[2].v {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }

    /// `minmax_running_min()`: takes `meas` at `t` into a min filter of window `win`;
    /// returns the new minimum.
    pub fn running_min(&mut self, win: u32, t: u32, meas: u32) -> u32 {
        let val = MinmaxSample { t, v: meas };
        // Linux lib/win_minmax.c minmax_running_min(): a new min, or nothing left in the window
        if val.v <= self.s[0].v || val.t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, meas);
        }
        if val.v <= self.s[1].v {
            self.s[1] = val;
            self.s[2] = val;
        } else if val.v <= self.s[2].v {
            self.s[2] = val;
        }
        self.subwin_update(win, val)
    }

    /// `minmax_subwin_update()`: as time passes, promotes the later choices when the
    /// best one has left the window, and takes fresh second and third choices from the
    /// second quarter and the second half of the window.
    fn subwin_update(&mut self, win: u32, val: MinmaxSample) -> u32 {
        // Linux lib/win_minmax.c minmax_subwin_update(): dt wraps as u32
        let dt = val.t.wrapping_sub(self.s[0].t);
        if dt > win {
            // The best sample aged out: shift once, and once more if the promoted
            // second choice is out of the window too (the third one was checked to be in).
            self.shift_in(val);
            if val.t.wrapping_sub(self.s[0].t) > win {
                self.shift_in(val);
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            self.s[1] = val;
            self.s[2] = val;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            self.s[2] = val;
        }
        self.s[0].v
    }

    /// Second choice becomes best, third becomes second, `val` becomes third.
    fn shift_in(&mut self, val: MinmaxSample) {
        self.s[0] = self.s[1];
        self.s[1] = self.s[2];
        self.s[2] = val;
    }
}

#[cfg(test)]
mod tests {
    use super::{Minmax, MinmaxSample};

    const fn s(t: u32, v: u32) -> MinmaxSample {
        MinmaxSample { t, v }
    }

    #[test]
    fn a_new_max_forgets_everything_else() {
        let mut m = Minmax::new(0, 10);
        assert_eq!(m.running_max(10, 1, 11), 11);
        assert_eq!(m.s, [s(1, 11); 3]);
    }

    #[test]
    fn a_lower_sample_becomes_second_choice_after_a_quarter_window() {
        // win 8: at t=3 (dt 3 > 8/4 = 2) with s[1].t == s[0].t, 7 becomes 2nd and 3rd.
        let mut m = Minmax::new(0, 10);
        assert_eq!(m.running_max(8, 3, 7), 10);
        assert_eq!(m.s, [s(0, 10), s(3, 7), s(3, 7)]);
        // At t=5 (dt 5 > 4), 6 is a third choice from the second half.
        assert_eq!(m.running_max(8, 5, 6), 10);
        assert_eq!(m.s, [s(0, 10), s(3, 7), s(5, 6)]);
        // At t=9 (dt 9 > 8) the best ages out: 7 is the max, 6 second, 5 third.
        assert_eq!(m.running_max(8, 9, 5), 7);
        assert_eq!(m.s, [s(3, 7), s(5, 6), s(9, 5)]);
    }

    #[test]
    fn the_second_shift_runs_when_the_promoted_choice_is_also_old() {
        // s = [(0,10), (1,9), (7,8)], win 8: at t=10 (s[2] is 3 old, in the window),
        // 4 < 8 keeps the slots; dt 10 > 8 promotes (1,9), whose age 9 > 8 promotes
        // again: [(7,8), (10,4), (10,4)].
        let mut m = Minmax {
            s: [s(0, 10), s(1, 9), s(7, 8)],
        };
        assert_eq!(m.running_max(8, 10, 4), 8);
        assert_eq!(m.s, [s(7, 8), s(10, 4), s(10, 4)]);
    }

    #[test]
    fn the_running_min_replaces_its_second_and_third_choices() {
        // win 300: best 5 at t=0, 2nd/3rd 9 at t=100 (dt 100 > 75).
        let mut m = Minmax::new(0, 5);
        assert_eq!(m.running_min(300, 100, 9), 5);
        assert_eq!(m.s, [s(0, 5), s(100, 9), s(100, 9)]);
        // 8 <= 9 replaces the second (and third) choice.
        assert_eq!(m.running_min(300, 120, 8), 5);
        assert_eq!(m.s, [s(0, 5), s(120, 8), s(120, 8)]);
        // 8 > 7 is not a second choice, 7 <= 8 replaces the third.
        let mut m2 = Minmax {
            s: [s(0, 5), s(120, 6), s(130, 8)],
        };
        assert_eq!(m2.running_min(300, 140, 7), 5);
        assert_eq!(m2.s, [s(0, 5), s(120, 6), s(140, 7)]);
    }

    #[test]
    fn nothing_left_in_the_window_resets() {
        let mut m = Minmax::new(0, 5);
        // t - s[2].t = 301 > 300: reset to the new sample even though it is larger.
        assert_eq!(m.running_min(300, 301, 50), 50);
        assert_eq!(m.s, [s(301, 50); 3]);
        // Times wrap: t = 3 after u32::MAX - 1 is 5 later.
        let mut w = Minmax::new(u32::MAX - 1, 9);
        assert_eq!(w.running_max(4, 3, 1), 1);
    }
}
