//! `struct tcp_congestion_ops`: the hooks an algorithm module fills.

use crate::linux::CaState;
use crate::linux::tcp::{RateSample, TcpSock, TxSnapshot};

/// Events the glue reports through the `cwnd_event` hook (`enum tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CaEvent {
    /// `CA_EVENT_TX_START`: first transmit when nothing was in flight.
    TxStart,
    /// `CA_EVENT_CWND_RESTART`: congestion window restart after idle.
    CwndRestart,
    /// `CA_EVENT_COMPLETE_CWR`: end of a congestion window reduction.
    CompleteCwr,
    /// `CA_EVENT_LOSS`: a retransmission timeout (`tcp_enter_loss`).
    Loss,
    /// `CA_EVENT_ECN_NO_CE`: an ECT packet arrived without CE (receiver side).
    EcnNoCe,
    /// `CA_EVENT_ECN_IS_CE`: a CE packet arrived (receiver side).
    EcnIsCe,
}

/// The `flag` bits of `tcp_ack()` that the hooks read (`in_ack_event`, `cong_control`).
pub mod ack_flags {
    /// `FLAG_DATA`: the incoming segment carried data.
    pub const DATA: u32 = 0x01;
    /// `FLAG_WIN_UPDATE`: the ACK updated the send window.
    pub const WIN_UPDATE: u32 = 0x02;
    /// `FLAG_DATA_ACKED`: new data was cumulatively acknowledged.
    pub const DATA_ACKED: u32 = 0x04;
    /// `FLAG_RETRANS_DATA_ACKED`: some acknowledged data had been retransmitted.
    pub const RETRANS_DATA_ACKED: u32 = 0x08;
    /// `FLAG_SYN_ACKED`.
    pub const SYN_ACKED: u32 = 0x10;
    /// `FLAG_DATA_SACKED`: new data was SACKed.
    pub const DATA_SACKED: u32 = 0x20;
    /// `FLAG_ECE`: the ACK carried ECN-Echo (or an AccECN CE increase).
    pub const ECE: u32 = 0x40;
    /// `FLAG_LOST_RETRANS`: a retransmission was marked lost.
    pub const LOST_RETRANS: u32 = 0x80;
    /// `FLAG_SLOWPATH`: the ACK took the slow path.
    pub const SLOWPATH: u32 = 0x100;
    /// `FLAG_SND_UNA_ADVANCED`: `snd_una` moved forward.
    pub const SND_UNA_ADVANCED: u32 = 0x400;
    /// `FLAG_DSACKING_ACK`: the ACK carried a D-SACK.
    pub const DSACKING_ACK: u32 = 0x800;
    /// `FLAG_SACK_RENEGING`: the receiver discarded SACKed data.
    pub const SACK_RENEGING: u32 = 0x2000;
    /// `FLAG_UPDATE_TS_RECENT`.
    pub const UPDATE_TS_RECENT: u32 = 0x4000;
    /// `FLAG_NO_CHALLENGE_ACK`.
    pub const NO_CHALLENGE_ACK: u32 = 0x8000;
    /// `FLAG_ACK_MAYBE_DELAYED`: the ACK may have been delayed by the receiver.
    pub const ACK_MAYBE_DELAYED: u32 = 0x10000;
    /// `FLAG_DSACK_TLP`.
    pub const DSACK_TLP: u32 = 0x20000;
    /// `FLAG_TS_PROGRESS`: the timestamp echo moved forward.
    pub const TS_PROGRESS: u32 = 0x40000;
    /// `FLAG_ACKED`: `DATA_ACKED | SYN_ACKED`.
    pub const ACKED: u32 = DATA_ACKED | SYN_ACKED;
}

/// Where an algorithm's random draws come from (`get_random_u32_below(ceil)`).
///
/// The library never owns a generator: a stack passes its own (a PRNG seeded per flow,
/// a hardware RNG), a test or a trace replay passes recorded values. A draw must lie in
/// `0..ceil`; an implementation that returns more is clamped by the caller of the hook
/// (`value % ceil`), never trusted as an index. See the examples of [`ReplayedRandom`]
/// and [`RandomFn`](crate::linux::RandomFn) (a plain function).
pub trait RandomSource {
    /// One value in `0..ceil`; `ceil` is at least 1.
    fn below(&mut self, ceil: u32) -> u32;
}

/// A [`RandomSource`] that returns recorded draws in order, then zero once they run
/// out (a trace's `rand` lines; a test's scripted values).
///
/// ```
/// use congestion::linux::tcp::{RandomSource, ReplayedRandom};
///
/// let mut rand = ReplayedRandom::<2>::new();
/// assert!(rand.push(7) && rand.push(1) && !rand.push(9)); // holds 2
/// assert_eq!((rand.below(4), rand.below(4)), (3, 1)); // 7 % 4, then 1
/// assert_eq!((rand.below(4), rand.exhausted), (0, 1)); // ran out: 0, counted
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayedRandom<const N: usize> {
    values: [u32; N],
    len: usize,
    next: usize,
    /// Draws asked for after the recorded ones ran out.
    pub exhausted: u32,
}

impl<const N: usize> ReplayedRandom<N> {
    /// An empty queue.
    pub const fn new() -> Self {
        ReplayedRandom {
            values: [0; N],
            len: 0,
            next: 0,
            exhausted: 0,
        }
    }

    /// Queues `value`; returns `false` (and drops it) when `N` values are already queued.
    pub fn push(&mut self, value: u32) -> bool {
        if self.next == self.len {
            self.next = 0;
            self.len = 0;
        }
        match self.values.get_mut(self.len) {
            Some(slot) => {
                *slot = value;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// How many queued values have not been drawn yet.
    pub const fn pending(&self) -> usize {
        self.len.saturating_sub(self.next)
    }
}

impl<const N: usize> Default for ReplayedRandom<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> RandomSource for ReplayedRandom<N> {
    fn below(&mut self, ceil: u32) -> u32 {
        let ceil = ceil.max(1);
        match self.values.get(self.next).filter(|_| self.next < self.len) {
            Some(&value) => {
                self.next += 1;
                value % ceil
            }
            None => {
                self.exhausted = self.exhausted.saturating_add(1);
                0
            }
        }
    }
}

/// The hook table of one algorithm (`struct tcp_congestion_ops`), called by the glue
/// exactly where the kernel calls it.
///
/// `Ca` is the algorithm's private per-flow state (what the kernel keeps in
/// `icsk_ca_priv`, at most 104 bytes there); `Params` its module parameters, validated
/// once and shared by every flow. Hooks the kernel may leave `NULL` have default
/// bodies that do what the glue does when the pointer is `NULL`. A flow of it is a
/// [`TcpFlow`](crate::linux::TcpFlow):
///
/// ```
/// use congestion::linux::tcp::{RandomSource, ReplayedRandom, TcpCongestionOps, TcpSock};
/// use congestion::linux::{TcpFlow, TcpSocketConfig};
///
/// struct Halve; // halves on a loss, never grows (no `cong_avoid`)
/// impl TcpCongestionOps for Halve {
///     type Ca = ();
///     type Params = ();
///     const NAME: &'static str = "halve";
///     fn init<R: RandomSource>(_: &mut (), _: &mut TcpSock, _: &(), _: &mut R) {}
///     fn ssthresh(_: &mut (), sk: &TcpSock, _: &()) -> u32 { (sk.snd_cwnd / 2).max(2) }
///     fn undo_cwnd(_: &mut (), sk: &TcpSock, _: &()) -> u32 { sk.snd_cwnd }
/// }
/// let mut rand = ReplayedRandom::<1>::new();
/// let mut flow = TcpFlow::<Halve>::new(&(), &TcpSocketConfig::new(), 0, &mut rand)?;
/// flow.loss(&(), 1_000, &mut rand);
/// assert_eq!(flow.socket().snd_ssthresh, 5);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub trait TcpCongestionOps {
    /// The algorithm's per-flow private state (`inet_csk_ca(sk)`).
    type Ca: Copy + Default;
    /// The module parameters, shared by every flow.
    type Params;
    /// The kernel's `.name`: `"cubic"`, `"bbr"`, `"dctcp"`, …
    const NAME: &'static str;
    /// Whether the algorithm has a `cong_control` hook: then `tcp_cong_control()` calls
    /// it instead of PRR / `cong_avoid` and the glue's pacing-rate update.
    const HAS_CONG_CONTROL: bool = false;

    /// `.init`: the connection starts (or the algorithm is switched to).
    fn init<R: RandomSource>(ca: &mut Self::Ca, sk: &mut TcpSock, p: &Self::Params, rand: &mut R);

    /// `.ssthresh`: the slow-start threshold after a loss or an ECN reduction.
    fn ssthresh(ca: &mut Self::Ca, sk: &TcpSock, p: &Self::Params) -> u32;

    /// `.undo_cwnd`: the window to restore when a reduction proves spurious.
    fn undo_cwnd(ca: &mut Self::Ca, sk: &TcpSock, p: &Self::Params) -> u32;

    /// `.cong_avoid`: window growth on an ACK (`ack` is the new `snd_una`).
    fn cong_avoid(ca: &mut Self::Ca, sk: &mut TcpSock, p: &Self::Params, ack: u32, acked: u32) {
        let _ = (ca, sk, p, ack, acked);
    }

    /// `.set_state`: called *before* `icsk_ca_state` takes `new_state`.
    fn set_state(ca: &mut Self::Ca, sk: &mut TcpSock, p: &Self::Params, new_state: CaState) {
        let _ = (ca, sk, p, new_state);
    }

    /// `.cwnd_event`.
    fn cwnd_event(ca: &mut Self::Ca, sk: &mut TcpSock, p: &Self::Params, event: CaEvent) {
        let _ = (ca, sk, p, event);
    }

    /// `.set_state` for an algorithm whose hook may draw random numbers (BBR's may
    /// restart its gain cycle). The glue calls this one; the default calls
    /// [`Self::set_state`].
    fn set_state_with_random<R: RandomSource>(
        ca: &mut Self::Ca,
        sk: &mut TcpSock,
        p: &Self::Params,
        new_state: CaState,
        rand: &mut R,
    ) {
        let _ = rand;
        Self::set_state(ca, sk, p, new_state);
    }

    /// `.cwnd_event` for an algorithm whose hook may draw random numbers. The glue
    /// calls this one; the default calls [`Self::cwnd_event`].
    fn cwnd_event_with_random<R: RandomSource>(
        ca: &mut Self::Ca,
        sk: &mut TcpSock,
        p: &Self::Params,
        event: CaEvent,
        rand: &mut R,
    ) {
        let _ = rand;
        Self::cwnd_event(ca, sk, p, event);
    }

    /// `.cong_control`: called on every ACK instead of `cong_avoid`, PRR and the glue's
    /// pacing-rate update when [`Self::HAS_CONG_CONTROL`] is set. `ack` is the new
    /// `snd_una`, `flag` the [`ack_flags`], `rs` the ACK's delivery-rate sample.
    fn cong_control<R: RandomSource>(
        ca: &mut Self::Ca,
        sk: &mut TcpSock,
        p: &Self::Params,
        ack: u32,
        flag: u32,
        rs: &RateSample,
        rand: &mut R,
    ) {
        let _ = (ca, sk, p, ack, flag, rs, rand);
    }

    /// `.skb_marked_lost` (Google's BBRv3 tree): the glue marked a segment of `pcount`
    /// segments lost (`tcp_mark_skb_lost`, after counting it in `tp->lost`); `tx` is
    /// its send snapshot.
    fn skb_marked_lost<R: RandomSource>(
        ca: &mut Self::Ca,
        sk: &mut TcpSock,
        p: &Self::Params,
        tx: &TxSnapshot,
        pcount: u32,
        rand: &mut R,
    ) {
        let _ = (ca, sk, p, tx, pcount, rand);
    }

    /// `.tso_segs` (Google's BBRv3 tree): segments per TSO/GSO skb for `mss_now`, or
    /// `None` for the glue's `tcp_tso_autosize()`.
    fn tso_segs(ca: &Self::Ca, sk: &TcpSock, p: &Self::Params, mss_now: u32) -> Option<u32> {
        let _ = (ca, sk, p, mss_now);
        None
    }

    /// `.in_ack_event`: `flags` are [`ack_flags`].
    fn in_ack_event(ca: &mut Self::Ca, sk: &mut TcpSock, p: &Self::Params, flags: u32) {
        let _ = (ca, sk, p, flags);
    }

    /// `.pkts_acked`: `acked` segments newly acknowledged, `rtt_us` the ACK's RTT sample
    /// (negative: none), `in_flight` the flight before the ACK (`struct ack_sample`).
    fn pkts_acked(
        ca: &mut Self::Ca,
        sk: &mut TcpSock,
        p: &Self::Params,
        acked: u32,
        rtt_us: i32,
        in_flight: u32,
    ) {
        let _ = (ca, sk, p, acked, rtt_us, in_flight);
    }

    /// `.min_tso_segs`: the minimum TSO burst, or `None` for the glue's default.
    fn min_tso_segs(ca: &Self::Ca, sk: &TcpSock, p: &Self::Params) -> Option<u32> {
        let _ = (ca, sk, p);
        None
    }
}
