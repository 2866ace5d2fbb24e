use super::*;
use crate::{CongestionController, Phase};

fn at_us(us: u64) -> Instant {
    Instant::from_micros(us)
}

#[test]
fn the_first_ack_of_the_fink_trace_matches_the_readme_hand_check() {
    // fink_10g_18ms_hz1000 row 8: init at T = 1000 s with IW2 in flight; the first ACK
    // (A=1, R=18007 us) arrives at jiffies 1000018 and was sent at jiffies 1000000.
    let mut f = Cubic::new(CubicConfig::new(), at_us(1_000_000_000)).unwrap();
    f.transmit(at_us(1_000_000_000), 2);
    f.ack(at_us(1_000_018_007), 1, Some(Duration::from_micros(18_007)));
    // ca_seq_rtt = 18 jiffies -> rtt_us 18,000 -> delay 18 << 3 = 144 = delay_min.
    assert_eq!(f.rtt_us_passed(), 18_000);
    let b = f.bictcp();
    assert_eq!(b.delay_min, 144);
    // delayed_ack: 32 + (u16)(1 - 2) = 31.
    assert_eq!(b.delayed_ack, 31);
    // after(snd_una 1, end_seq 0): a new round at 1000018 ending at snd_nxt 2.
    assert_eq!(
        (b.round_start, b.end_seq, b.last_jiffies),
        (1_000_018, 2, 1_000_018)
    );
    // Slow start +1, cwnd_cnt unchanged; cwnd 2 < low window 16: no HyStart sample.
    assert_eq!(
        (f.state().cwnd, f.state().cwnd_cnt, b.sample_cnt),
        (3, 0, 0)
    );
}

#[test]
fn the_hystart_exit_ack_sets_ssthresh_and_still_grows_once() {
    // HZ=1000, low window 2: a train of close ACKs spanning delay_min >> 4 jiffies.
    let mut c = CubicConfig::new();
    c.hystart_low_window = 2;
    c.init_cwnd = 10;
    let t0 = 1_000_000_000u64;
    let mut f = Cubic::new(c, at_us(t0)).unwrap();
    f.transmit(at_us(t0), 10);
    // ACKs 1 ms apart with a 16 ms RTT: delay_min = 16 << 3 = 128, threshold 8 j.
    let mut exit_at = None;
    for i in 1..=10u64 {
        let now = at_us(t0 + 16_000 + i * 1000);
        f.ack(now, 1, Some(Duration::from_micros(16_000)));
        // The sender fills the window, so every ACK is cwnd-limited.
        let cwnd = f.state().cwnd;
        f.transmit(now, cwnd);
        if exit_at.is_none() && f.hystart_exit().is_some() {
            exit_at = Some(i);
        }
    }
    // The round restarted on the first ACK (jiffies 1000017); the train reaches
    // 8 jiffies on the ACK at 1000025, the 9th.
    assert_eq!(exit_at, Some(9));
    assert_eq!(f.hystart_exit(), Some(HystartExit2635::AckTrain));
    // On that ACK cwnd was 18 -> ssthresh 18, then slow start made it 19; the 10th
    // ACK is in congestion avoidance.
    assert_eq!(f.state().ssthresh, 18);
    assert_eq!(f.phase(), Phase::CongestionAvoidance);
}

#[test]
fn a_bad_config_is_refused_and_set_config_keeps_the_old_one() {
    let mut c = CubicConfig::new();
    c.hz = 512;
    assert_eq!(Cubic::new(c, Instant::ZERO), Err(ConfigError::HzOutOfRange));
    let mut f = Cubic::new(CubicConfig::new(), Instant::ZERO).unwrap();
    assert_eq!(f.set_config(c), Err(ConfigError::HzOutOfRange));
    assert_eq!(f.config().hz, 1000);
}
