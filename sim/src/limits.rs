//! What held a sender back: each time its transmit loop stops, the reason it stopped
//! holds until the next attempt, and the time in each reason adds up, as Linux's
//! `tcp_chrono_start()`/`tcp_chrono_stop()` time a socket busy, receive-window limited
//! and send-buffer limited (`tcpi_busy_time`, `tcpi_rwnd_limited`,
//! `tcpi_sndbuf_limited`). A run's report names the reason that held it longest.

/// Why the transmit loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The congestion window is full: the path (as the controller sees it) limits.
    Cwnd,
    /// The pacer holds the next burst back.
    Pacing,
    /// TSQ: the host queues hold the flow's budget.
    Tsq,
    /// The qdisc is full.
    Qdisc,
    /// TSO deferral waits for a bigger burst.
    TsoDeferral,
    /// The receiver's advertised window is full.
    ReceiveWindow,
    /// The send buffer is full (it is smaller than the receive window).
    SendBuffer,
    /// The application has not written more.
    Application,
    /// Everything is sent (or the application is closed): nothing to limit; this time
    /// is left out of the shares.
    Done,
}

impl Limit {
    /// Every reason that counts, in the order the report breaks ties.
    pub const COUNTED: [Limit; 8] = [
        Limit::Cwnd,
        Limit::Pacing,
        Limit::Tsq,
        Limit::Qdisc,
        Limit::TsoDeferral,
        Limit::ReceiveWindow,
        Limit::SendBuffer,
        Limit::Application,
    ];

    /// The words the report uses.
    pub fn describe(self) -> &'static str {
        match self {
            Limit::Cwnd => "congestion window",
            Limit::Pacing => "pacing rate",
            Limit::Tsq => "TSQ budget",
            Limit::Qdisc => "full qdisc",
            Limit::TsoDeferral => "TSO deferral",
            Limit::ReceiveWindow => "receive window",
            Limit::SendBuffer => "send buffer",
            Limit::Application => "application",
            Limit::Done => "nothing left to send",
        }
    }

    /// Whether this is the path's limit: the congestion window, or the host's ways of
    /// spreading the flight over the path's rate (pacing, TSQ, the qdisc, TSO
    /// deferral, which waits for congestion-window room); the others are the
    /// receiver's, the socket's or the application's.
    pub fn is_path(self) -> bool {
        matches!(
            self,
            Limit::Cwnd | Limit::Pacing | Limit::Tsq | Limit::Qdisc | Limit::TsoDeferral
        )
    }

    fn index(self) -> Option<usize> {
        Limit::COUNTED.iter().position(|&l| l == self)
    }
}

/// Time spent in each [`Limit`], ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitTimes {
    ns: [u64; 8],
    current: Option<(Limit, u64)>,
}

impl LimitTimes {
    /// The sender stopped for `limit` at `now_ns`: the previous reason held until now.
    pub fn note(&mut self, now_ns: u64, limit: Limit) {
        match self.current {
            Some((l, _)) if l == limit => {}
            _ => {
                self.close(now_ns);
                self.current = Some((limit, now_ns));
            }
        }
    }

    /// The run ended at `now_ns`: count the reason in force up to then.
    pub fn close(&mut self, now_ns: u64) {
        if let Some((l, since)) = self.current.take() {
            if let Some(i) = l.index() {
                self.ns[i] += now_ns.saturating_sub(since);
            }
            self.current = Some((l, now_ns));
        }
    }

    /// Time spent held back by `limit`, ns (0 for [`Limit::Done`]).
    pub fn ns(&self, limit: Limit) -> u64 {
        limit.index().map_or(0, |i| self.ns[i])
    }

    /// The counted reasons with their time, longest first (ties in
    /// [`Limit::COUNTED`] order), those never in force left out.
    pub fn ranked(&self) -> Vec<(Limit, u64)> {
        let mut v: Vec<(Limit, u64)> = Limit::COUNTED
            .iter()
            .map(|&l| (l, self.ns(l)))
            .filter(|&(_, ns)| ns > 0)
            .collect();
        v.sort_by_key(|&(_, ns)| std::cmp::Reverse(ns));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_holds_until_the_next_and_done_is_not_counted() {
        let mut t = LimitTimes::default();
        t.note(0, Limit::ReceiveWindow);
        t.note(30, Limit::ReceiveWindow); // unchanged: still counting from 0
        t.note(50, Limit::Cwnd);
        t.note(60, Limit::Done);
        t.note(100, Limit::Application);
        t.close(125);
        assert_eq!(t.ns(Limit::ReceiveWindow), 50);
        assert_eq!(t.ns(Limit::Cwnd), 10);
        assert_eq!(t.ns(Limit::Application), 25);
        assert_eq!(t.ns(Limit::Done), 0);
        assert_eq!(
            t.ranked(),
            vec![
                (Limit::ReceiveWindow, 50),
                (Limit::Application, 25),
                (Limit::Cwnd, 10)
            ]
        );
        // Closing twice counts nothing twice.
        t.close(125);
        assert_eq!(t.ns(Limit::Application), 25);
    }
}
