use super::*;

fn params() -> LinuxCubicParams {
    LinuxCubicParams::default()
}

#[test]
fn usecs_to_jiffies_rounds_up_and_saturates_like_the_kernel() {
    assert_eq!(usecs_to_jiffies(0), 0);
    assert_eq!(usecs_to_jiffies(1), 1);
    assert_eq!(usecs_to_jiffies(1000), 1);
    assert_eq!(usecs_to_jiffies(1001), 2);
    assert_eq!(usecs_to_jiffies(4_294_965_296), 4_294_966);
    assert_eq!(usecs_to_jiffies(4_294_965_297), (i64::MAX as u64 >> 1) - 1);
}

#[test]
fn loss_sets_wmax_with_fast_convergence_and_ssthresh_to_beta_cwnd() {
    let mut c = LinuxCubic {
        last_max_cwnd: 205,
        epoch_start: 7,
        ..Default::default()
    };
    // cwnd 170 < Wmax 205: Wmax = 170 * 1741 / 2048 = 144; ssthresh = 170*717/1024 = 119
    assert_eq!(c.recalc_ssthresh(&params(), 170), 119);
    assert_eq!(c.last_max_cwnd, 144);
    assert_eq!(c.epoch_start, 0);
    // cwnd 2 < Wmax 144: Wmax = 2 * 1741 / 2048 = 1; ssthresh floored at 2.
    assert_eq!(c.recalc_ssthresh(&params(), 2), 2);
    assert_eq!(c.last_max_cwnd, 1);
    // cwnd at or above Wmax: Wmax = cwnd.
    assert_eq!(c.recalc_ssthresh(&params(), 300), 210);
    assert_eq!(c.last_max_cwnd, 300);
}

#[test]
fn first_update_after_loss_starts_an_epoch_with_the_kernel_k() {
    let mut c = LinuxCubic {
        last_max_cwnd: 12000,
        delay_min: 50_000,
        ..Default::default()
    };
    c.update(&params(), 8402, 1, 1000);
    assert_eq!(c.epoch_start, 1000);
    assert_eq!(c.origin_point, 12000);
    assert_eq!(c.bic_k, 21284);
    // t = (0 + 50 jiffies) * 1024 / 1000 = 51; offs = 21233;
    // delta = 410 * 21233^3 >> 40 = 3569; target = 8431; cnt = 8402 / 29 = 289.
    assert_eq!(c.cnt, 289);
}

#[test]
fn idle_shifts_the_epoch_but_never_past_now() {
    let mut c = LinuxCubic {
        epoch_start: 1500,
        ..Default::default()
    };
    c.on_transmit_start(6000, 3000);
    assert_eq!(c.epoch_start, 4500);
    c.on_transmit_start(7000, 100);
    assert_eq!(c.epoch_start, 7000);
    // Last send in the future: no shift.
    c.on_transmit_start(7100, 8000);
    assert_eq!(c.epoch_start, 7000);
}
