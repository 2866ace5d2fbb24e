//! A bottleneck link on s2n-quic's virtual-time network (`unstable-provider-io-testing`):
//! the same model as `congestion-harness`'s UDP relay (a rate, a
//! one-way delay, a drop-tail buffer in bytes, seeded random loss on the data
//! direction), run inside s2n-quic's simulated time, plus an optional blackout during
//! which the data direction drops everything (to make persistent congestion).
//!
//! s2n-quic's own `Model` limits packets per scheduling round, not bits per second, so
//! the tests use this `Network` instead; it plugs into `io::testing::test` the same way.

use s2n_quic::provider::congestion_controller::Timestamp;
use s2n_quic::provider::io::testing::network::{Buffers, Network, Packet};
use s2n_quic::provider::io::testing::{spawn, time};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The link's settings, the same both ways except random loss and the blackout.
#[derive(Clone, Copy, Debug)]
pub struct LinkConfig {
    /// Bottleneck rate, bits per second.
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: Duration,
    /// Drop-tail buffer, bytes queued behind the bottleneck.
    pub buffer_bytes: u64,
    /// Random loss probability on the data direction (towards the server), ppm.
    pub loss_ppm: u32,
    /// Seed of the loss draws.
    pub seed: u64,
    /// From when, and for how long, the data direction drops every packet.
    pub blackout: Option<(Duration, Duration)>,
}

/// Drop counts of the data direction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Drops {
    /// Buffer full.
    pub tail: u64,
    /// Random loss.
    pub random: u64,
    /// Blackout.
    pub blackout: u64,
    /// Packets that went through the data direction's queue.
    pub admitted: u64,
}

struct Queue {
    /// Departure times (virtual µs) and sizes of the packets still queued.
    queue: VecDeque<(Duration, u64)>,
    queued_bytes: u64,
    last_departure: Duration,
}

impl Queue {
    fn new() -> Self {
        Queue {
            queue: VecDeque::new(),
            queued_bytes: 0,
            last_departure: Duration::ZERO,
        }
    }
}

struct State {
    config: LinkConfig,
    rng: u64,
    server: Option<SocketAddr>,
    forward: Queue,
    reverse: Queue,
    drops: Drops,
    start: Option<Timestamp>,
}

/// The link; clones share it (one goes to the executor, one to the test).
#[derive(Clone)]
pub struct Bottleneck(Arc<Mutex<State>>);

impl Bottleneck {
    /// A link with `config`; call [`set_server`](Self::set_server) once the server has
    /// its address.
    pub fn new(config: LinkConfig) -> Self {
        Bottleneck(Arc::new(Mutex::new(State {
            config,
            rng: config.seed | 1,
            server: None,
            forward: Queue::new(),
            reverse: Queue::new(),
            drops: Drops::default(),
            start: None,
        })))
    }

    /// Packets to this address travel the data direction (loss and blackout apply).
    pub fn set_server(&self, addr: SocketAddr) {
        self.0.lock().unwrap().server = Some(addr);
    }

    /// The data direction's drops so far.
    pub fn drops(&self) -> Drops {
        self.0.lock().unwrap().drops
    }
}

impl State {
    /// xorshift64*, as the UDP relay draws its losses.
    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A packet of `len` bytes enters at `now` (virtual time since the first packet):
    /// when it reaches the receiver, or `None` if dropped.
    fn admit(&mut self, now: Duration, len: u64, forward: bool) -> Option<Duration> {
        let config = self.config;
        if forward {
            if let Some((from, lasting)) = config.blackout
                && now >= from
                && now < from + lasting
            {
                self.drops.blackout += 1;
                return None;
            }
            if config.loss_ppm > 0 && self.next_random() % 1_000_000 < u64::from(config.loss_ppm) {
                self.drops.random += 1;
                return None;
            }
        }
        let q = if forward {
            &mut self.forward
        } else {
            &mut self.reverse
        };
        while let Some(&(departs, size)) = q.queue.front() {
            if departs > now {
                break;
            }
            q.queue.pop_front();
            q.queued_bytes -= size;
        }
        if q.queued_bytes + len > config.buffer_bytes {
            if forward {
                self.drops.tail += 1;
            }
            return None;
        }
        let serialize = Duration::from_nanos(len * 8 * 1_000_000_000 / config.rate_bps.max(1));
        let departs = now.max(q.last_departure) + serialize;
        q.last_departure = departs;
        q.queue.push_back((departs, len));
        q.queued_bytes += len;
        if forward {
            self.drops.admitted += 1;
        }
        Some(departs + config.delay)
    }
}

impl Network for Bottleneck {
    fn execute(&mut self, buffers: &Buffers) -> usize {
        let now = time::now();
        let mut count = 0;
        let mut state = self.0.lock().unwrap();
        let start = *state.start.get_or_insert(now);
        let since = now.saturating_duration_since(start);
        buffers.drain_pending_transmissions(|mut packet: Packet| {
            count += 1;
            let to: SocketAddr = packet.path.remote_address.0.into();
            let forward = state.server == Some(to);
            let Some(arrives) = state.admit(since, packet.payload.len() as u64, forward) else {
                return Ok(());
            };
            let at = start + arrives;
            // The receiver's view: its local address is the packet's destination.
            packet.switch();
            let buffers = buffers.clone();
            spawn(async move {
                time::delay_until(at).await;
                buffers.rx(packet.path.local_address.0, |queue| queue.enqueue(packet));
            });
            Ok(())
        });
        count
    }
}
