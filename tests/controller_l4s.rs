//! DCTCP and TCP Prague driven through [`CongestionController`] as a stack drives them:
//! an ACK clock with AccECN CE counts on the ACKs ([`AckEvent::with_ce`]), a loss, an
//! undo and a retransmission timeout. After every event the controller's socket and
//! algorithm state are compared with a [`TcpFlow`] driven by the same events through
//! its kernel-style calls; DCTCP's alpha and ssthresh are checked against values worked
//! out by hand in the comments.

use congestion::linux::dctcp::DctcpConfig;
use congestion::linux::prague::PragueConfig;
use congestion::linux::tcp::{ReplayedRandom, TcpAck, TcpCongestionOps, TcpSysctl};
use congestion::linux::{CaState, DctcpController, PragueController, TcpController};
use congestion::linux::{TcpFlow, TcpSocketConfig};
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
};

const RTT_US: u64 = 10_000;

type Rand = ReplayedRandom<1>;

fn socket() -> TcpSocketConfig {
    let mut s = TcpSocketConfig::new();
    s.initial_srtt_us = RTT_US as u32;
    s
}

/// The controller and its kernel-style twin, fed the same events.
struct Twin<O: TcpCongestionOps> {
    ctl: TcpController<O, Rand>,
    flow: TcpFlow<O>,
    p: O::Params,
    sysctl: TcpSysctl,
    rand: Rand,
    /// The stack's numbering: the next segment's sequence and the highest acknowledged.
    next_seq: u64,
    acked_seq: u64,
}

impl<O: TcpCongestionOps> Twin<O>
where
    O::Params: Copy,
    O::Ca: PartialEq + core::fmt::Debug,
{
    fn new(p: O::Params) -> Self {
        let sysctl = TcpSysctl::new();
        let mut rand = Rand::new();
        Twin {
            ctl: TcpController::new(p, sysctl, &socket(), Instant::ZERO, Rand::new()).unwrap(),
            flow: TcpFlow::new(&p, &socket(), 0, &mut rand).unwrap(),
            p,
            sysctl,
            rand,
            next_seq: 0,
            acked_seq: 0,
        }
    }

    fn check(&self) {
        assert_eq!(self.ctl.flow().socket(), self.flow.socket());
        assert_eq!(self.ctl.flow().ca(), self.flow.ca());
    }

    /// The stack sends `n` new segments at `t_us`.
    fn send(&mut self, t_us: u64, n: u64) {
        let now = Instant::from_micros(t_us);
        self.next_seq += n;
        let after = self.ctl.in_flight() + n;
        self.ctl
            .on_sent(now, &SentEvent::new(after, self.next_seq - 1));
        let (p, sysctl) = (&self.p, &self.sysctl);
        self.flow.send(p, sysctl, t_us, n as u32, &mut self.rand);
        self.check();
    }

    /// An ACK at `t_us` of the next `acked` segments, `ce` of them CE-marked (AccECN).
    fn ack(&mut self, t_us: u64, acked: u64, ce: u64) {
        let now = Instant::from_micros(t_us);
        self.acked_seq += acked;
        let rtt = Some(Duration::from_micros(RTT_US));
        let ack = AckEvent::new(acked, self.acked_seq - 1, rtt).with_ce(ce);
        self.ctl.on_ack(now, &ack);
        // The stack's numbering moves snd_una past segments declared lost (what the
        // controller documents it does with largest_acked).
        let (sk, _) = self.flow.parts_mut();
        let una = self.acked_seq as u32;
        if una > sk.snd_una + acked as u32 {
            sk.snd_una = una - acked as u32;
        }
        let tcp_ack = TcpAck {
            acked: acked as u32,
            rtt_us: Some(RTT_US as u32),
            ce_delta: ce as u32,
            ece: false,
        };
        let (p, sysctl) = (&self.p, &self.sysctl);
        self.flow.ack(p, sysctl, t_us, &tcp_ack, &mut self.rand);
        self.check();
    }

    /// The next unacknowledged segment is declared lost at `t_us` (its number is
    /// skipped by the ACKs that follow: the stack sends its data again as new).
    fn lose_next(&mut self, t_us: u64) {
        let now = Instant::from_micros(t_us);
        self.ctl.on_loss(now, &LossEvent::packet(1, self.acked_seq));
        self.acked_seq += 1;
        self.flow.loss(&self.p, t_us, &mut self.rand);
        let (sk, _) = self.flow.parts_mut();
        sk.packets_out -= 1;
        self.check();
    }

    fn undo(&mut self, t_us: u64) {
        self.ctl.on_spurious_congestion(Instant::from_micros(t_us));
        self.flow.undo(&self.p, t_us, &mut self.rand);
    }

    fn rto(&mut self, t_us: u64) {
        self.ctl
            .on_retransmission_timeout(Instant::from_micros(t_us));
        self.flow.rto(&self.p, t_us, 1, &mut self.rand);
        self.check();
        // Everything outstanding was lost; the head's retransmission is the one segment
        // in flight, numbered as new data.
        self.acked_seq = self.next_seq;
        self.next_seq += 1;
        let nxt = self.next_seq - 1;
        self.ctl
            .on_sent(Instant::from_micros(t_us), &SentEvent::new(1, nxt));
        let (sk, _) = self.flow.parts_mut();
        sk.snd_nxt = nxt as u32 + 1;
        self.flow.transmit(&self.p, t_us, 1, &mut self.rand);
        self.check();
    }

    /// An ACK clock: every `step_us` one segment is acknowledged (CE-marked when `ce`
    /// says so for its index) and the stack refills the window.
    fn clock(&mut self, from_us: u64, acks: u64, step_us: u64, ce: impl Fn(u64) -> bool) -> u64 {
        let mut t = from_us;
        for i in 0..acks {
            t += step_us;
            if self.ctl.in_flight() == 0 {
                self.send(t, 1);
            }
            self.ack(t, 1, u64::from(ce(i)));
            let room = self.ctl.cwnd().saturating_sub(self.ctl.in_flight());
            if room > 0 {
                self.send(t, room);
            }
        }
        t
    }
}

#[test]
fn dctcp_counts_ce_on_the_ack_that_carries_it_before_updating_alpha() {
    type Ops = congestion::linux::dctcp::DctcpOps;
    let p = DctcpConfig::new().validate().unwrap();
    let mut twin = Twin::<Ops>::new(p);
    twin.send(0, 10);
    // The first ACK (2 segments, 1 CE) ends DCTCP's first observation window (it began
    // at snd_nxt 0): delivered 2, delivered_ce 1, g = 1/16:
    // alpha = 1024 - 1024/16 + (1 << 6) / 2 = 992; then the CE enters CWR with
    // ssthresh = cwnd - (cwnd · alpha >> 11) = 10 - (9920 >> 11) = 6.
    twin.ack(10_000, 2, 1);
    let ctl = &twin.ctl;
    assert_eq!(ctl.flow().ca().dctcp_alpha, 992);
    assert_eq!((ctl.ssthresh(), ctl.phase()), (Some(6), Phase::Recovery));
    assert_eq!(ctl.flow().socket().icsk_ca_state, CaState::Cwr);

    // The classic path instead: the same ACK without the count, then on_ecn. The window
    // ends with no CE counted: alpha = 1024 - 64 = 960, and slow start grows cwnd to 12
    // on that ACK; the CE comes after it, too late for both: ssthresh = 12 -
    // (12 · 960 >> 11 = 5) = 7, alpha 960 until the next window.
    let mut classic =
        DctcpController::new(p, TcpSysctl::new(), &socket(), Instant::ZERO, Rand::new()).unwrap();
    classic.on_sent(Instant::ZERO, &SentEvent::new(10, 9));
    let t = Instant::from_micros(10_000);
    let rtt = Some(Duration::from_micros(RTT_US));
    classic.on_ack(t, &AckEvent::new(2, 1, rtt));
    classic.on_ecn(t, &EcnEvent::new(1, 1));
    assert_eq!(classic.flow().ca().dctcp_alpha, 960);
    assert_eq!(classic.ssthresh(), Some(7));
}

#[test]
fn dctcp_through_the_trait_matches_the_kernel_style_calls() {
    type Ops = congestion::linux::dctcp::DctcpOps;
    let p = DctcpConfig::new().validate().unwrap();
    let mut twin = Twin::<Ops>::new(p);
    twin.send(0, 10);
    // An ACK clock of 1 segment per ms with every fourth segment CE-marked.
    let t = twin.clock(10_000, 200, 1_000, |i| i % 4 == 0);
    // With a steady 1/4 of segments marked, alpha converges towards 1024/4 = 256:
    // alpha' = alpha - alpha/16 + (marked · 64)/delivered per window, whose fixed point
    // is 16 · 64 / 4 = 256 (within a few units of rounding).
    let alpha = twin.ctl.flow().ca().dctcp_alpha;
    assert!((240..=272).contains(&alpha), "alpha {alpha}");

    // A loss: fast retransmit (Recovery); DCTCP answers a loss as Reno does
    // (dctcp_react_to_loss() on entering Recovery): ssthresh = max(cwnd / 2, 2).
    let cwnd = twin.ctl.cwnd() as u32;
    let in_cwr = twin.ctl.flow().socket().icsk_ca_state == CaState::Cwr;
    twin.lose_next(t + 500);
    let sk = twin.ctl.flow().socket();
    assert_eq!(sk.icsk_ca_state, CaState::Recovery);
    if !in_cwr {
        assert_eq!(sk.snd_ssthresh, (cwnd >> 1).max(2));
    }
    // It was spurious: undo restores the window (dctcp_cwnd_undo: max(cwnd, loss_cwnd)).
    twin.undo(t + 600);
    twin.check();
    assert_eq!(twin.ctl.flow().socket().icsk_ca_state, CaState::Open);
    let t = twin.clock(t + 600, 50, 1_000, |_| false);
    // A retransmission timeout: cwnd 1, Loss, in flight the head's retransmission.
    twin.rto(t + 1_000_000);
    let ctl = &twin.ctl;
    assert_eq!(
        (ctl.cwnd(), ctl.in_flight(), ctl.phase()),
        (1, 1, Phase::SlowStart)
    );
    // Its ACK ends Loss (the first ACK of a segment sent after the timeout).
    twin.ack(t + 1_010_000, 1, 0);
    assert_eq!(twin.ctl.flow().socket().icsk_ca_state, CaState::Open);
    twin.clock(t + 1_010_000, 100, 1_000, |i| i % 10 == 0);
}

#[test]
fn prague_through_the_trait_matches_the_kernel_style_calls() {
    type Ops = congestion::linux::prague::PragueOps;
    let p = PragueConfig::new().validate().unwrap();
    let mut twin = Twin::<Ops>::new(p);
    twin.send(0, 10);
    let t = twin.clock(10_000, 300, 500, |i| i % 8 == 3);
    // Prague reduces on CE (CWR) and paces itself (cong_control): a positive rate.
    assert!(twin.ctl.pacing_rate().as_bytes_per_second() > 0);
    twin.lose_next(t + 100);
    assert_eq!(twin.ctl.phase(), Phase::Recovery);
    twin.undo(t + 200);
    twin.check();
    let t = twin.clock(t + 200, 100, 500, |_| false);
    twin.rto(t + 1_000_000);
    assert_eq!(twin.ctl.cwnd(), 1);
    twin.ack(t + 1_010_000, 1, 0);
    twin.clock(t + 1_010_000, 200, 500, |i| i % 16 == 0);
}

#[test]
fn prague_and_dctcp_in_any_controller_take_ce_on_the_ack() {
    use congestion::AnyController;
    use congestion::linux::RandomFn;
    fn no_draws(_ceil: u32) -> u32 {
        0
    }
    let p = DctcpConfig::new().validate().unwrap();
    let flow = DctcpController::new(
        p,
        TcpSysctl::new(),
        &socket(),
        Instant::ZERO,
        RandomFn(no_draws),
    )
    .unwrap();
    let mut any = AnyController::LinuxDctcp(flow);
    any.on_sent(Instant::ZERO, &SentEvent::new(10, 9));
    let rtt = Some(Duration::from_micros(RTT_US));
    any.on_ack(
        Instant::from_micros(10_000),
        &AckEvent::new(2, 1, rtt).with_ce(1),
    );
    // As above: ssthresh 6, CWR.
    assert_eq!((any.ssthresh(), any.phase()), (Some(6), Phase::Recovery));

    let p = PragueConfig::new().validate().unwrap();
    let flow = PragueController::new(
        p,
        TcpSysctl::new(),
        &socket(),
        Instant::ZERO,
        RandomFn(no_draws),
    )
    .unwrap();
    let mut any = AnyController::LinuxPrague(flow);
    any.on_sent(Instant::ZERO, &SentEvent::new(10, 9));
    any.on_ack(
        Instant::from_micros(10_000),
        &AckEvent::new(2, 1, rtt).with_ce(1),
    );
    // Prague enters CWR on the CE and reduces through its own cong_control over the
    // round, not through ssthresh.
    assert_eq!(any.phase(), Phase::Recovery);
    let AnyController::LinuxPrague(prague) = &any else {
        unreachable!()
    };
    assert_eq!(prague.flow().socket().icsk_ca_state, CaState::Cwr);
    // Prague paces at its window over srtt: its 2^20-scaled window after this ACK is
    // frac_cwnd = 11 · 2^20 (cwnd 11), times its MTU of 1500 bytes per srtt 10 ms =
    // 1,650,000 B/s, doubled in slow start (200 %): 3,300,000 B/s.
    assert_eq!(prague.flow().ca().frac_cwnd, 11 << 20);
    assert_eq!(prague.flow().ca().rate_bytes, 1_650_000);
    assert_eq!(any.pacing_rate().as_bytes_per_second(), 3_300_000);
}
