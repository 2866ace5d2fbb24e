//! Slow-start exit: deciding when exponential growth must stop before it overflows
//! the bottleneck.
//!
//! - [`LinuxHystart`]: the kernel's HyStart (ACK train and delay increase).
//! - [`HystartPlusPlus`]: RFC 9406 HyStart++ with Conservative Slow Start.

mod hystart_pp;
mod linux;

pub use hystart_pp::{
    CSS_GROWTH_DIVISOR, CSS_ROUNDS, HystartPlusPlus, HystartPpVerdict, L, MAX_RTT_THRESH,
    MIN_RTT_DIVISOR, MIN_RTT_THRESH, N_RTT_SAMPLE, rtt_thresh_us,
};
pub use linux::{
    HYSTART_DELAY_MAX_US, HYSTART_DELAY_MIN_US, HYSTART_MAX_ACK_DELAY_US, HYSTART_MIN_SAMPLES,
    HystartExit, HystartInput, LinuxHystart, PacingStatus, hystart_ack_delay_us,
};
