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
    #[inline]
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
    #[inline]
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
        } else if dt > win / 4 && self.s[1].t == self.s[0].t {
            self.s[1] = val;
            self.s[2] = val;
        } else if dt > win / 2 && self.s[2].t == self.s[1].t {
            self.s[2] = val;
        }
        self.s[0].v
    }

    fn shift_in(&mut self, val: MinmaxSample) {
        self.s[0] = self.s[1];
        self.s[1] = self.s[2];
        self.s[2] = val;
    }
}

#[cfg(test)]
mod tests;
