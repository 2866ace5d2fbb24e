//! [`RandomFn`]: a caller's random-number function as a [`RandomSource`], so that a flow
//! whose type must be fixed (a variant of [`AnyController`](crate::AnyController)) can
//! still draw from the generator the caller chose.
//!
//! The library never holds a generator of its own: the kernel calls
//! `get_random_u32_below()`, a function of the host, and so does a flow built with a
//! `RandomFn`, on whatever the caller points it at (the OS's generator, a hardware RNG,
//! a seeded generator of the caller's in a `static`). A caller that wants to keep
//! generator state in the flow itself uses the generic controllers with its own
//! [`RandomSource`] type instead.

use crate::linux::tcp::RandomSource;
use core::fmt;

/// A function `f(ceil)` returning a value in `0..ceil` (`ceil` at least 1), used as a
/// [`RandomSource`]. A value at or above `ceil` is reduced modulo `ceil`, never trusted.
///
/// ```
/// use congestion::linux::RandomFn;
/// use congestion::linux::tcp::RandomSource;
///
/// fn always_last(ceil: u32) -> u32 {
///     ceil - 1
/// }
/// let mut rand = RandomFn(always_last);
/// assert_eq!(rand.below(8), 7);
/// ```
#[derive(Clone, Copy)]
pub struct RandomFn(pub fn(u32) -> u32);

impl RandomSource for RandomFn {
    fn below(&mut self, ceil: u32) -> u32 {
        let ceil = ceil.max(1);
        (self.0)(ceil) % ceil
    }
}

/// Two flows compare by their congestion state: where their random numbers come from is
/// not part of it (and function addresses are not stable enough to compare).
impl PartialEq for RandomFn {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for RandomFn {}

impl fmt::Debug for RandomFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RandomFn")
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for RandomFn {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "RandomFn")
    }
}
