//! Slow-start exit: deciding when exponential growth must stop before it overflows
//! the bottleneck.
//!
//! - [`LinuxHystart`]: the kernel's HyStart (ACK train and delay increase).

mod linux;

pub use linux::{
    HYSTART_DELAY_MAX_US, HYSTART_DELAY_MIN_US, HYSTART_MAX_ACK_DELAY_US, HYSTART_MIN_SAMPLES,
    HystartExit, HystartInput, LinuxHystart, PacingStatus, hystart_ack_delay_us,
};
