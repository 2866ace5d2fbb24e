//! An in-process UDP relay that is the network link between two QUIC endpoints on
//! 127.0.0.1: a bottleneck rate, a one-way propagation delay, a drop-tail buffer in
//! bytes and optional seeded random loss. This kernel has no netem; this is its stand-in.
//!
//! The client sends to the relay's client-facing socket; the relay forwards through its
//! server-facing socket to the server and back. Each direction is one link:
//! a packet arriving at `t` is dropped if the bytes still queued plus its own exceed the
//! buffer (drop-tail) or by the loss draw (forward direction only); otherwise it leaves
//! the queue at `max(t, previous departure) + len / rate` and is delivered one delay later.
//!
//! It sends only to 127.0.0.1 (its sockets are bound there; [`Relay::start`] refuses a
//! server elsewhere). Every loop is bounded: it stops when the relay is stopped, or when `max_lifetime`
//! has passed, or after `idle_timeout` without any packet, whichever comes first.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::net::UdpSocket;
use tokio::sync::{Mutex, mpsc};
use tokio::time::Instant;

/// One direction's link settings.
#[derive(Clone, Copy, Debug)]
pub struct LinkConfig {
    /// Bottleneck rate, bits per second.
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: Duration,
    /// Drop-tail buffer, bytes queued behind the bottleneck.
    pub buffer_bytes: u64,
    /// Random loss probability, parts per million.
    pub loss_ppm: u32,
}

/// The relay's settings.
#[derive(Clone, Copy, Debug)]
pub struct RelayConfig {
    /// Client to server (the data direction).
    pub forward: LinkConfig,
    /// Server to client (ACKs): same rate and delay, no random loss.
    pub reverse: LinkConfig,
    /// Seed of the loss draws.
    pub seed: u64,
    /// Hard stop for every loop.
    pub max_lifetime: Duration,
    /// Stop after this long without a packet in either direction.
    pub idle_timeout: Duration,
}

impl RelayConfig {
    /// A symmetric path: `rtt` split evenly, the same rate and buffer both ways,
    /// `loss_ppm` on the data direction only.
    pub fn symmetric(rate_bps: u64, rtt: Duration, buffer_bytes: u64, loss_ppm: u32) -> Self {
        let forward = LinkConfig {
            rate_bps,
            delay: rtt / 2,
            buffer_bytes,
            loss_ppm,
        };
        RelayConfig {
            forward,
            reverse: LinkConfig {
                loss_ppm: 0,
                ..forward
            },
            seed: 1,
            max_lifetime: Duration::from_secs(120),
            idle_timeout: Duration::from_secs(5),
        }
    }
}

/// Counters of one direction.
#[derive(Debug, Default)]
pub struct LinkCounters {
    /// Packets admitted to the queue (delivered one delay after leaving it).
    pub admitted: AtomicU64,
    /// Packets dropped because the buffer was full.
    pub tail_drops: AtomicU64,
    /// Packets dropped by the random loss draw.
    pub random_drops: AtomicU64,
}

/// A running relay.
pub struct Relay {
    /// Where the client must send.
    pub client_facing: SocketAddr,
    /// Data direction counters.
    pub forward: Arc<LinkCounters>,
    /// ACK direction counters.
    pub reverse: Arc<LinkCounters>,
    stop: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Relay {
    /// Starts a relay in front of `server`, which must be a loopback address: the relay
    /// sends nowhere else.
    pub async fn start(server: SocketAddr, config: RelayConfig) -> std::io::Result<Relay> {
        if !server.ip().is_loopback() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("the relay only forwards to loopback, not to {server}"),
            ));
        }
        let a = Arc::new(bind().await?);
        let b = Arc::new(bind().await?);
        let client_facing = a.local_addr()?;
        let client_addr: Arc<Mutex<Option<SocketAddr>>> = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let deadline = Instant::now() + config.max_lifetime;
        let forward = Arc::new(LinkCounters::default());
        let reverse = Arc::new(LinkCounters::default());
        let mut tasks = Vec::new();
        let (ftx, frx) = mpsc::unbounded_channel();
        let (rtx, rrx) = mpsc::unbounded_channel();
        let fwd = Link::new(config.forward, config.seed, forward.clone());
        let rev = Link::new(config.reverse, config.seed ^ 0x9e37_79b9, reverse.clone());
        let limits = Limits {
            stop: stop.clone(),
            deadline,
            idle: config.idle_timeout,
        };
        tasks.push(tokio::spawn(ingress(
            a.clone(),
            fwd,
            ftx,
            Some(client_addr.clone()),
            limits.clone(),
        )));
        tasks.push(tokio::spawn(ingress(
            b.clone(),
            rev,
            rtx,
            None,
            limits.clone(),
        )));
        tasks.push(tokio::spawn(egress(
            b,
            frx,
            Dest::Fixed(server),
            limits.clone(),
        )));
        tasks.push(tokio::spawn(egress(
            a,
            rrx,
            Dest::Learned(client_addr),
            limits,
        )));
        Ok(Relay {
            client_facing,
            forward,
            reverse,
            stop,
            tasks,
        })
    }

    /// Stops every loop and waits for them.
    pub async fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}

/// Binds a UDP socket on 127.0.0.1 with room for a window's burst.
async fn bind() -> std::io::Result<UdpSocket> {
    let socket = socket2::Socket::new(
        socket2::Domain::IPV4,
        socket2::Type::DGRAM,
        Some(socket2::Protocol::UDP),
    )?;
    // Bursts from the endpoints must not overflow the relay's socket instead of its
    // emulated buffer; the kernel may cap this at net.core.rmem_max.
    let _ = socket.set_recv_buffer_size(8 << 20);
    let _ = socket.set_send_buffer_size(8 << 20);
    socket.set_nonblocking(true)?;
    let addr: SocketAddr = "127.0.0.1:0".parse().map_err(std::io::Error::other)?;
    socket.bind(&addr.into())?;
    UdpSocket::from_std(socket.into())
}

/// When every loop stops.
#[derive(Clone)]
struct Limits {
    stop: Arc<AtomicBool>,
    deadline: Instant,
    idle: Duration,
}

impl Limits {
    fn over(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}

/// Queue and loss state of one direction.
struct Link {
    config: LinkConfig,
    rng: u64,
    /// Departure times and sizes of the packets still in the bottleneck queue.
    queue: VecDeque<(Instant, u64)>,
    queued_bytes: u64,
    last_departure: Instant,
    counters: Arc<LinkCounters>,
}

impl Link {
    fn new(config: LinkConfig, seed: u64, counters: Arc<LinkCounters>) -> Self {
        Link {
            config,
            rng: seed | 1,
            queue: VecDeque::new(),
            queued_bytes: 0,
            last_departure: Instant::now(),
            counters,
        }
    }

    /// xorshift64*: a small seeded generator, enough for loss draws.
    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A packet of `len` bytes arrives at `now`: its delivery time, or `None` if dropped.
    fn admit(&mut self, now: Instant, len: u64) -> Option<Instant> {
        while let Some(&(departs, size)) = self.queue.front() {
            if departs > now {
                break;
            }
            self.queue.pop_front();
            self.queued_bytes -= size;
        }
        if self.config.loss_ppm > 0
            && self.next_random() % 1_000_000 < u64::from(self.config.loss_ppm)
        {
            self.counters.random_drops.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        if self.queued_bytes + len > self.config.buffer_bytes {
            self.counters.tail_drops.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        let serialize_ns = len * 8 * 1_000_000_000 / self.config.rate_bps.max(1);
        let departs = now.max(self.last_departure) + Duration::from_nanos(serialize_ns);
        self.last_departure = departs;
        self.queue.push_back((departs, len));
        self.queued_bytes += len;
        self.counters.admitted.fetch_add(1, Ordering::Relaxed);
        Some(departs + self.config.delay)
    }
}

/// Receives packets on `socket`, decides their fate, and queues the survivors.
async fn ingress(
    socket: Arc<UdpSocket>,
    mut link: Link,
    out: mpsc::UnboundedSender<(Instant, Vec<u8>)>,
    learn_peer: Option<Arc<Mutex<Option<SocketAddr>>>>,
    limits: Limits,
) {
    let mut buf = vec![0u8; 65_536];
    let mut last_packet = Instant::now();
    while !limits.over() && last_packet.elapsed() < limits.idle {
        let recv = tokio::time::timeout(Duration::from_millis(50), socket.recv_from(&mut buf));
        let Ok(Ok((len, from))) = recv.await else {
            continue;
        };
        last_packet = Instant::now();
        if let Some(peer) = &learn_peer {
            *peer.lock().await = Some(from);
        }
        if let Some(at) = link.admit(last_packet, len as u64) {
            if out.send((at, buf[..len].to_vec())).is_err() {
                return;
            }
        }
    }
}

/// Where a direction delivers.
enum Dest {
    Fixed(SocketAddr),
    Learned(Arc<Mutex<Option<SocketAddr>>>),
}

/// Delivers queued packets at their times (FIFO: delivery times never decrease).
async fn egress(
    socket: Arc<UdpSocket>,
    mut queue: mpsc::UnboundedReceiver<(Instant, Vec<u8>)>,
    dest: Dest,
    limits: Limits,
) {
    while !limits.over() {
        let next = tokio::time::timeout(Duration::from_millis(50), queue.recv()).await;
        let (at, packet) = match next {
            Ok(Some(p)) => p,
            Ok(None) => return,
            Err(_) => continue,
        };
        tokio::time::sleep_until(at).await;
        let to = match &dest {
            Dest::Fixed(a) => Some(*a),
            Dest::Learned(a) => *a.lock().await,
        };
        // Only loopback: the sockets are bound to 127.0.0.1, and the check keeps it so.
        if let Some(to) = to.filter(|a| a.ip().is_loopback()) {
            let _ = socket.send_to(&packet, to).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_server_off_loopback_is_refused() {
        let config = RelayConfig::symmetric(1_000_000, Duration::from_millis(10), 10_000, 0);
        let elsewhere: SocketAddr = "192.0.2.1:4433".parse().unwrap();
        assert!(Relay::start(elsewhere, config).await.is_err());
    }

    #[tokio::test]
    async fn packets_cross_after_the_delay_and_a_full_buffer_drops_the_tail() {
        // 8 Mbit/s (1 µs per byte), 10 ms one way, a 3000-byte buffer.
        let mut config = RelayConfig::symmetric(8_000_000, Duration::from_millis(20), 3_000, 0);
        config.idle_timeout = Duration::from_secs(1);
        config.max_lifetime = Duration::from_secs(5);
        let server = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let relay = Relay::start(server.local_addr().unwrap(), config)
            .await
            .unwrap();
        let client = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let sent_at = Instant::now();
        // Three 1200-byte packets at once: two fit the 3000-byte buffer, the third is
        // dropped at the tail.
        for _ in 0..3 {
            client
                .send_to(&[7u8; 1200], relay.client_facing)
                .await
                .unwrap();
        }
        let mut buf = [0u8; 2000];
        let (n, _) = server.recv_from(&mut buf).await.unwrap();
        assert_eq!(n, 1200);
        // 1.2 ms serialisation + 10 ms delay.
        assert!(
            sent_at.elapsed() >= Duration::from_millis(11),
            "{:?}",
            sent_at.elapsed()
        );
        server.recv_from(&mut buf).await.unwrap();
        let third = tokio::time::timeout(Duration::from_millis(100), server.recv_from(&mut buf));
        assert!(
            third.await.is_err(),
            "the third packet crossed a full buffer"
        );
        assert_eq!(relay.forward.tail_drops.load(Ordering::Relaxed), 1);
        relay.stop().await;
    }
}
