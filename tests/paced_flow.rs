//! `PacedFlow`: a controller and its send path fed by one call per event, in both modes.

use congestion::hystart::PacingStatus;
use congestion::linux;
use congestion::pacing::{NextPacket, PacedFlow, SendPathConfig, SendVerdict};
use congestion::rfc;
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};

fn paced(status: PacingStatus) -> congestion::pacing::SendPathParams {
    let mut c = SendPathConfig::new();
    c.pacing_status = status;
    c.validate().unwrap()
}

#[test]
fn one_on_ack_feeds_the_controller_and_the_min_rtt_filter() {
    let cc = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let mut f = PacedFlow::new(cc, paced(PacingStatus::Fq));
    f.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
    let rtt = Duration::from_millis(30);
    f.on_ack(
        Instant::from_micros(30_000),
        &AckEvent::new(2, 2, Some(rtt)),
    );
    // The controller saw the ACK (slow start: 10 + 2) and the RTT (srtt·8 = 240000) ...
    assert_eq!(f.cwnd(), 12);
    assert_eq!(f.controller().socket_view().srtt_us_x8, 240_000);
    // ... and so did the send path, from the same call.
    assert_eq!(f.send_path().min_rtt_us(), 30_000);
}

#[test]
fn one_on_sent_feeds_the_controller_the_pacer_and_tsq() {
    let cc = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let mut f = PacedFlow::new(cc, paced(PacingStatus::Fq));
    f.on_sent(Instant::ZERO, &SentEvent::new(4, 4));
    // 4 segments of the default MSS (1448): the controller's flight, the pacer's
    // count and the TSQ charge all moved by the same burst.
    assert_eq!(f.in_flight(), 4);
    assert_eq!(f.send_path().pacer().segments_sent(), 4);
    assert_eq!(f.send_path().tsq().queued_bytes(), 4 * 1448);
    // A send that adds nothing (the flight shrank) stamps nothing.
    f.on_sent(Instant::ZERO, &SentEvent::new(3, 4));
    assert_eq!(f.send_path().pacer().segments_sent(), 4);
}

#[test]
fn a_self_pacing_rfc_flow_waits_for_its_departures_once_past_the_first_ten_segments() {
    let cc = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO).unwrap();
    let mut f = PacedFlow::new(cc, paced(PacingStatus::Needed));
    let mut pn = 0;
    // IW10 leaves unpaced (sch_fq's first 10 MSS).
    while let SendVerdict::Send { segments } = f.poll(Instant::ZERO, &NextPacket::default()) {
        pn += u64::from(segments);
        f.on_sent_counted(Instant::ZERO, u64::from(segments) * 1200, pn);
    }
    assert_eq!(pn, 10);
    // The NIC sent them: TSQ's budget (about 1 ms of the rate) is free again.
    for _ in 0..10 {
        f.on_tx_completion(1_200);
    }
    // The ACK of 2 packets: cwnd 14400, srtt 20 ms, rate (RFC 9002 §7.7, `quic`'s
    // default) 1.25 · 14400 / 20 ms = 900,000 B/s.
    let now = Instant::from_micros(20_000);
    f.on_ack(
        now,
        &AckEvent::new(2_400, 2, Some(Duration::from_millis(20))),
    );
    let verdict = f.poll(now, &NextPacket::default());
    let SendVerdict::Send { segments } = verdict else {
        panic!("the window has room: {verdict:?}");
    };
    // The send quantum: 2 segments (see rfc_mode_gives_a_pacing_rate_and_a_send_quantum).
    assert_eq!(segments, 2);
    assert_eq!(f.send_quantum_bytes(), 2_400);
    f.on_sent_counted(now, 2_400, 12);
    // 2400 B at 900,000 B/s = 2666.67 µs; the sender comes back late (the last
    // departure was at 0), so half of that is forgiven (EdtPacer): 1333.33 µs, and the
    // next departure, rounded up to the µs, is 21334 µs.
    assert_eq!(f.next_departure(now), Some(Instant::from_micros(21_334)));
    assert!(matches!(
        f.poll(now, &NextPacket::default()),
        SendVerdict::WaitUntil { .. }
    ));
    assert_eq!(f.last_departure_ns(), 20_000_000);
    // Losses reach the controller through the same object.
    f.on_loss(now, &LossEvent::packet(1_200, 3));
    assert_eq!(f.cwnd(), 14_400 * 7 / 10);
}

/// The parameters once, for every flow (as a firmware image or a server keeps them).
static SHARED: congestion::pacing::SendPathParams = {
    let mut c = SendPathConfig::new();
    c.pacing_status = PacingStatus::Needed;
    match c.validate() {
        Ok(p) => p,
        Err(_) => panic!("valid"),
    }
};

/// A zero-sized handle to `SHARED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shared;

impl core::borrow::Borrow<congestion::pacing::SendPathParams> for Shared {
    fn borrow(&self) -> &congestion::pacing::SendPathParams {
        &SHARED
    }
}

/// Where a self-paced transfer stands: the time, segments sent and acknowledged.
#[derive(Default)]
struct Transfer {
    now_us: u64,
    sent: u64,
    acked: u64,
}

/// One step's verdict, the last departure, the pacer's next one, TSQ's queued bytes and
/// the minimum RTT after it.
type Step = (SendVerdict, u64, u64, u64, u32);

impl Transfer {
    /// Not over yet (200 ms).
    fn running(&self) -> bool {
        self.now_us < 200_000
    }

    /// One step of a self-paced Linux-mode transfer on `f`: a poll, then a send with its
    /// completion, or an ACK and 500 µs.
    fn step<C, P, S>(&mut self, f: &mut PacedFlow<C, P, S>) -> Step
    where
        C: CongestionController,
        P: core::borrow::Borrow<congestion::pacing::SendPathParams>,
        S: core::borrow::BorrowMut<congestion::pacing::SendPathState>,
    {
        let now = Instant::from_micros(self.now_us);
        let v = f.poll(now, &NextPacket::default());
        match v {
            SendVerdict::Send { segments } => {
                self.sent += u64::from(segments);
                f.on_sent(now, &SentEvent::new(self.sent - self.acked, self.sent));
                f.on_tx_completion(segments * 1448);
            }
            _ => {
                // An ACK for 2 segments every 500 µs once a 10 ms RTT has passed.
                if self.now_us >= 10_000 && self.acked + 2 <= self.sent {
                    self.acked += 2;
                    let rtt = Duration::from_micros(10_000 + self.now_us % 700);
                    f.on_ack(now, &AckEvent::new(2, self.acked, Some(rtt)));
                }
                self.now_us += 500;
            }
        }
        let p = f.send_path();
        (
            v,
            f.last_departure_ns(),
            p.pacer().next_departure_ns(),
            p.tsq().queued_bytes(),
            p.min_rtt_us(),
        )
    }
}

/// A self-paced Linux-mode transfer: polls, sends, completions and ACKs for 200 ms;
/// every verdict, departure and the state after each step.
fn transfer<P: core::borrow::Borrow<congestion::pacing::SendPathParams>>(
    mut f: PacedFlow<linux::Cubic, P>,
) -> Vec<Step> {
    let mut t = Transfer::default();
    let mut out = Vec::new();
    while t.running() {
        out.push(t.step(&mut f));
    }
    out
}

#[test]
fn shared_parameters_give_the_same_transfer_as_owned_ones() {
    let cc = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    let owned = transfer(PacedFlow::new(cc, SHARED));
    assert_eq!(owned, transfer(PacedFlow::with_params(cc, &SHARED)));
    assert_eq!(owned, transfer(PacedFlow::with_params(cc, Shared)));
    assert_eq!(
        owned,
        transfer(PacedFlow::with_params(cc, std::sync::Arc::new(SHARED)))
    );
    // The run paced (some verdict waited for a departure) and sent past IW10.
    assert!(
        owned
            .iter()
            .any(|r| matches!(r.0, SendVerdict::WaitUntil { .. }))
    );
    assert!(
        owned
            .iter()
            .filter(|r| matches!(r.0, SendVerdict::Send { .. }))
            .count()
            > 10
    );
    // The minimum RTT is one of the samples (10.0 to 10.6 ms).
    assert!(
        owned
            .last()
            .is_some_and(|r| (10_000..=10_600).contains(&r.4))
    );
}

#[test]
fn states_bound_in_a_table_per_event_give_the_same_transfer_as_an_owned_flow() {
    use congestion::linux::{LinuxFlowState, LinuxParams};
    use congestion::pacing::{SendPath, SendPathState};
    let owned = transfer(PacedFlow::new(
        linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap(),
        SHARED,
    ));
    // A stack's table: each slot the controller's bare state and the send path's line.
    let params = LinuxParams::new(linux::CubicConfig::new()).unwrap();
    let fresh = (
        LinuxFlowState::new(&params, Instant::ZERO),
        SendPathState::new(),
    );
    let mut table = [fresh; 3];
    let mut t = Transfer::default();
    let mut bound = Vec::new();
    while t.running() {
        let (cc, path) = &mut table[1];
        let mut f = PacedFlow::from_parts(
            linux::Cubic::bind(cc, &params),
            SendPath::bind(path, &SHARED),
        );
        bound.push(t.step(&mut f));
    }
    assert_eq!(owned, bound);
    // The transfer's state is in the table's slot, and only there.
    let last = owned.last().unwrap();
    assert_eq!(table[1].1.min_rtt_us(), last.4);
    assert_eq!(table[1].1.pacer().next_departure_ns(), last.2);
    assert_ne!(table[1], fresh);
    assert_eq!((table[0], table[2]), (fresh, fresh));
}

#[test]
fn a_paced_flow_reaching_its_parameters_through_a_zero_sized_handle_adds_only_its_line() {
    use congestion::pacing::{SendPath, SendPathState};
    let cc = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO).unwrap();
    assert_eq!(size_of::<SendPathState>(), 64);
    assert_eq!(size_of::<SendPath<Shared>>(), 64);
    let f = PacedFlow::with_params(cc, Shared);
    assert!(core::ptr::eq(f.send_path().params(), &SHARED));
    // The controller and the send path's one line, padded to whole lines.
    assert_eq!(
        size_of::<PacedFlow<linux::Cubic, Shared>>(),
        (size_of::<linux::Cubic>() + 64).div_ceil(64) * 64
    );
}
