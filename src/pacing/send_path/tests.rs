use super::*;
use crate::controller::{AckEvent, EcnEvent, LossEvent, Phase, SentEvent};
use crate::pacing::send_config::SendPathConfig;

/// A fixed window, to test the send path alone.
struct Fixed(WindowUnit, u64);

impl CongestionController for Fixed {
    fn unit(&self) -> WindowUnit {
        self.0
    }
    fn on_sent(&mut self, _: Instant, _: &SentEvent) {}
    fn on_ack(&mut self, _: Instant, _: &AckEvent) {}
    fn on_loss(&mut self, _: Instant, _: &LossEvent) {}
    fn on_ecn(&mut self, _: Instant, _: &EcnEvent) {}
    fn on_retransmission_timeout(&mut self, _: Instant) {}
    fn on_discarded(&mut self, _: Instant, _: u64) {}
    fn on_spurious_congestion(&mut self, _: Instant) {}
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        self.1
    }
    fn ssthresh(&self) -> Option<u64> {
        None
    }
    fn phase(&self) -> Phase {
        Phase::CongestionAvoidance
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        Rate::UNLIMITED
    }
    fn mss_bytes(&self) -> u64 {
        1
    }
    fn send_quantum_bytes(&self) -> u64 {
        1
    }
}

const GBIT: Rate = Rate::from_bits_per_second(1_000_000_000);

fn path(status: PacingStatus) -> SendPath {
    let mut c = SendPathConfig::new();
    c.pacing_status = status;
    let Ok(p) = c.validate() else { unreachable!() };
    SendPath::new(p)
}

fn ctx(now_us: u64, in_flight: u64) -> SendContext {
    SendContext {
        now: Instant::from_micros(now_us),
        in_flight,
        mss: 1448,
        pacing_rate: GBIT,
        retransmit: false,
        rtx_queue_at_most_one: false,
    }
}

#[test]
fn the_burst_is_the_smallest_of_tso_size_room_and_half_the_window() {
    let mut p = path(PacingStatus::None);
    // 1 Gbit/s >> 10 = 122070 B -> capped 65536 B / 1448 = 45 segments by TSO.
    assert_eq!(p.tso_segs(GBIT, 1448), 45);
    // cwnd 100, 10 in flight: room 90, half-window 50 -> 45 (TSO).
    assert_eq!(
        p.poll(&Fixed(WindowUnit::Segments, 100), &ctx(0, 10)),
        SendVerdict::Send { segments: 45 }
    );
    // cwnd 20, 0 in flight: half-window 10.
    assert_eq!(
        p.poll(&Fixed(WindowUnit::Segments, 20), &ctx(0, 0)),
        SendVerdict::Send { segments: 10 }
    );
    // cwnd 20, 17 in flight: room 3.
    assert_eq!(
        p.poll(&Fixed(WindowUnit::Segments, 20), &ctx(0, 17)),
        SendVerdict::Send { segments: 3 }
    );
    // Full window.
    assert_eq!(
        p.poll(&Fixed(WindowUnit::Segments, 20), &ctx(0, 20)),
        SendVerdict::WaitForAck
    );
    // Bytes: 20000 B window, 19000 in flight: 1000 B room rounds up to 1 segment.
    assert_eq!(
        p.poll(&Fixed(WindowUnit::Bytes, 20_000), &ctx(0, 19_000)),
        SendVerdict::Send { segments: 1 }
    );
}

#[test]
fn a_self_paced_flow_waits_for_its_departure_time() {
    let mut p = path(PacingStatus::Needed);
    let cc = Fixed(WindowUnit::Segments, 1000);
    // 10 segments: the 10th is paced: 14480 B at 1 Gbit/s = 115840 ns.
    assert_eq!(p.on_send(Instant::ZERO, 14_480, 10, GBIT), 0);
    let v = p.poll(&cc, &ctx(100, 10));
    assert_eq!(
        v,
        SendVerdict::WaitUntil {
            departure_ns: 115_840
        }
    );
    assert_eq!(v.retry_at(), Some(Instant::from_micros(116)));
    assert!(matches!(
        p.poll(&cc, &ctx(116, 10)),
        SendVerdict::Send { .. }
    ));
    // With fq the qdisc waits, not the stack.
    let mut q = path(PacingStatus::Fq);
    q.on_send(Instant::ZERO, 14_480, 10, GBIT);
    assert!(matches!(
        q.poll(&cc, &ctx(100, 10)),
        SendVerdict::Send { .. }
    ));
}

#[test]
fn tsq_throttles_until_a_completion_reopens_the_budget() {
    let mut p = path(PacingStatus::Fq);
    let cc = Fixed(WindowUnit::Segments, 10_000);
    // Paced at 1 Gbit/s, 45-segment bursts of 65160 B: the limit is
    // max(2 * 65160, 122070) = 130320 B. Three bursts queued: 195480 B > 130320.
    for _ in 0..3 {
        p.on_send(Instant::ZERO, 65_160, 45, GBIT);
    }
    assert_eq!(p.poll(&cc, &ctx(0, 135)), SendVerdict::WaitForTxCompletion);
    assert!(p.tsq().is_throttled());
    assert!(p.on_tx_completion(65_160), "130320 <= 130320: reopened");
    assert_eq!(
        p.poll(&cc, &ctx(0, 135)),
        SendVerdict::Send { segments: 45 }
    );
}

#[test]
fn try_enqueue_refuses_nothing_is_queued_when_throttled() {
    let mut p = path(PacingStatus::None);
    // Unpaced, 1 Gbit/s rate: limit min(max(2*65160, 122070), 4 MiB) = 130320.
    assert_eq!(p.tsq_limit_bytes(GBIT, 65_160, false), 130_320);
    for _ in 0..3 {
        assert!(matches!(
            p.try_enqueue(Instant::ZERO, 65_160, 45, GBIT, false, false),
            Enqueue::Departs { .. }
        ));
    }
    // 195480 queued > 130320.
    assert_eq!(
        p.try_enqueue(Instant::ZERO, 65_160, 45, GBIT, false, false),
        Enqueue::Throttled
    );
    assert_eq!(p.tsq().queued_bytes(), 195_480);
    // Retransmits get twice the limit: 260640 >= 195480.
    assert!(matches!(
        p.try_enqueue(Instant::ZERO, 65_160, 45, GBIT, true, false),
        Enqueue::Departs { .. }
    ));
}

#[test]
fn the_state_is_one_cache_line_and_the_parameters_live_outside_it() {
    assert_eq!(core::mem::size_of::<EdtPacer>(), 16);
    assert_eq!(core::mem::size_of::<TsqBudget>(), 16);
    assert_eq!(core::mem::size_of::<MinRttFilter>(), 24);
    assert_eq!(core::mem::size_of::<SendPathParams>(), 28);
    // 16 + 16 + 24 + 8 = 64: one line, aligned to it.
    assert_eq!(core::mem::size_of::<SendPathState>(), 64);
    assert_eq!(SendPathState::BYTES, 64);
    assert_eq!(core::mem::align_of::<SendPathState>(), 64);
    // The line, then the owned parameters or a pointer to them.
    assert_eq!(core::mem::size_of::<SendPath>(), 128);
    assert_eq!(
        core::mem::size_of::<SendPath<&'static SendPathParams>>(),
        128
    );
    assert_eq!(core::mem::size_of::<SendPath<Defaults>>(), 64);
}

/// A zero-sized handle whose `Borrow` returns a `static`, as firmware would use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Defaults;

static FQ: SendPathParams = {
    let mut c = SendPathConfig::new();
    c.pacing_status = PacingStatus::Fq;
    c.truesize_overhead_bytes = 256;
    match c.validate() {
        Ok(p) => p,
        Err(_) => panic!("valid"),
    }
};

impl Borrow<SendPathParams> for Defaults {
    fn borrow(&self) -> &SendPathParams {
        &FQ
    }
}

/// Drives a send path through every call and returns what it answered.
fn drive<P: Borrow<SendPathParams>>(p: &mut SendPath<P>) -> [u64; 8] {
    let cc = Fixed(WindowUnit::Segments, 10_000);
    p.on_rtt_sample(Instant::from_micros(10), Duration::from_micros(300));
    let mut out = [0; 8];
    let mut i = 0;
    while i < out.len() {
        let v = p.poll(&cc, &ctx(100 * i as u64, 0));
        out[i] = match v {
            SendVerdict::Send { segments } => {
                let d = p.on_send(
                    Instant::from_micros(100 * i as u64),
                    segments * 1448,
                    segments,
                    GBIT,
                );
                d ^ u64::from(segments) << 48
            }
            SendVerdict::WaitForTxCompletion => u64::from(p.on_tx_completion(65_160)) | 1 << 63,
            _ => u64::MAX,
        };
        i += 1;
    }
    out
}

#[test]
fn a_shared_handle_behaves_exactly_as_owned_parameters() {
    let mut owned = SendPath::new(FQ);
    let mut by_ref = SendPath::with_params(&FQ);
    let mut zst = SendPath::with_params(Defaults);
    let a = drive(&mut owned);
    assert_eq!(a, drive(&mut by_ref));
    assert_eq!(a, drive(&mut zst));
    assert_eq!(owned.state(), by_ref.state());
    assert_eq!(owned.state(), zst.state());
    // 300 us RTT: 45-segment bursts; the overhead (256 B per burst) counts in TSQ.
    assert_eq!(a[0] >> 48, 45);
    assert_eq!(owned.min_rtt_us(), 300);
    // The bare state with the parameters passed per call is the same machine.
    let mut state = SendPathState::new();
    let cc = Fixed(WindowUnit::Segments, 10_000);
    state.on_rtt_sample(&FQ, Instant::from_micros(10), Duration::from_micros(300));
    assert_eq!(
        state.poll(&FQ, &cc, &ctx(0, 0)),
        SendVerdict::Send { segments: 45 }
    );
    assert_eq!(state.on_send(&FQ, Instant::ZERO, 65_160, 45, GBIT), 0);
    assert_eq!(state.last_departure_ns(), 0);
    assert_eq!(state.tsq().queued_bytes(), 65_160 + 256);
    let mut first = SendPath::with_params(&FQ);
    let _ = drive(&mut first);
    assert_eq!(SendPath::from_parts(*first.state(), FQ), owned);
}

#[test]
fn the_parameters_reached_through_the_handle_are_the_ones_in_force() {
    // Same state, different parameters: Needed waits for the departure time, Fq
    // does not; changing the handle changes the verdict and keeps the state.
    static NEEDED: SendPathParams = {
        let mut c = SendPathConfig::new();
        c.pacing_status = PacingStatus::Needed;
        match c.validate() {
            Ok(p) => p,
            Err(_) => panic!("valid"),
        }
    };
    let cc = Fixed(WindowUnit::Segments, 1000);
    let mut p = SendPath::with_params(&NEEDED);
    assert_eq!(p.on_send(Instant::ZERO, 14_480, 10, GBIT), 0);
    assert_eq!(p.last_departure_ns(), 0);
    assert_eq!(
        p.next_departure(Instant::from_micros(100)),
        Some(Instant::from_micros(116))
    );
    assert_eq!(
        p.poll(&cc, &ctx(100, 10)),
        SendVerdict::WaitUntil {
            departure_ns: 115_840
        }
    );
    p.set_params(&FQ);
    assert!(core::ptr::eq(p.params(), &FQ));
    assert_eq!(p.next_departure(Instant::from_micros(100)), None);
    assert!(matches!(
        p.poll(&cc, &ctx(100, 10)),
        SendVerdict::Send { .. }
    ));
    assert_eq!(p.pacer().next_departure_ns(), 115_840, "the state is kept");
    // The next burst leaves at the pacer's time, and is remembered.
    assert_eq!(p.on_send(Instant::from_micros(100), 1448, 1, GBIT), 115_840);
    assert_eq!(p.last_departure_ns(), 115_840);
    let (state, handle) = p.into_parts();
    assert!(core::ptr::eq(handle, &FQ));
    assert_eq!(state.last_departure_ns(), 115_840);
}
