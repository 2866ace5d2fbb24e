//! One bulk transfer between two noq endpoints on 127.0.0.1 through the shared relay
//! (`congestion-harness`): the client opens a bidirectional stream, writes N bytes and
//! finishes; the server counts them and answers one byte. Shared by the `noq_transfer`
//! example and the CI test.
#![allow(dead_code, reason = "each includer uses a different part")]

use congestion::rfc::{Cubic, NewReno, SlowStartKind};
use congestion_harness::relay::{Relay, RelayConfig};
use congestion_noq::{AdapterStats, NoqController, NoqFactory};
use noq::congestion::{Bbr3Config, Controller, ControllerFactory, CubicConfig, NewRenoConfig};
use noq::{ClientConfig, Endpoint, PathId, ServerConfig, TransportConfig};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Which congestion controller the sender runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cc {
    /// This crate's RFC 9438 CUBIC + RFC 9406 HyStart++, bytes.
    Ours,
    /// This crate's RFC 9438 CUBIC with Linux HyStart as the slow-start exit.
    OursLinuxHystart,
    /// This crate's RFC 9002 NewReno with HyStart++.
    OursNewReno,
    /// noq-proto's own `Cubic`.
    Cubic,
    /// noq-proto's own `NewReno`.
    NewReno,
    /// This crate's Linux-mode BBR v1 (segments, per-packet snapshots), its pacing rate
    /// and send quantum fed to noq's pacer.
    OursBbr,
    /// This crate's Linux-mode BBRv3, the same way.
    OursBbr3,
    /// noq-proto's own BBR (`Bbr3`).
    Bbr,
}

/// Our Linux-mode BBR v1 as noq's flow.
type OursBbrFlow = congestion::linux::BbrController<congestion::linux::RandomFn>;
/// Our Linux-mode BBRv3 as noq's flow.
type OursBbr3Flow = congestion::linux::Bbr3Controller<congestion::linux::RandomFn>;

impl Cc {
    /// Every choice, as `--cc` spells it.
    pub const ALL: [Cc; 8] = [
        Cc::Ours,
        Cc::OursLinuxHystart,
        Cc::OursNewReno,
        Cc::Cubic,
        Cc::NewReno,
        Cc::OursBbr,
        Cc::OursBbr3,
        Cc::Bbr,
    ];

    /// The name printed in reports and read by `--cc`.
    pub fn name(self) -> &'static str {
        match self {
            Cc::Ours => "ours-cubic-rfc",
            Cc::OursLinuxHystart => "ours-cubic-rfc-linux-hystart",
            Cc::OursNewReno => "ours-newreno-rfc",
            Cc::Cubic => "cubic",
            Cc::NewReno => "newreno",
            Cc::OursBbr => "ours-bbr",
            Cc::OursBbr3 => "ours-bbr3",
            Cc::Bbr => "bbr",
        }
    }

    /// Parses one of [`Cc::ALL`]'s names.
    pub fn parse(s: &str) -> Option<Cc> {
        Cc::ALL
            .into_iter()
            .find(|cc| cc.name() == s)
            .or_else(|| Cc::renamed(s))
    }

    /// The 0.2 `--cc` words, still accepted this release with a note on stderr.
    fn renamed(s: &str) -> Option<Cc> {
        let cc = match s {
            "ours" => Cc::Ours,
            "ours-linux-hystart" => Cc::OursLinuxHystart,
            "ours-newreno" => Cc::OursNewReno,
            _ => return None,
        };
        eprintln!(
            "--cc {s} is deprecated since 0.3.0 and will be removed: use --cc {}",
            cc.name()
        );
        Some(cc)
    }

    fn factory(self) -> Arc<dyn ControllerFactory + Send + Sync> {
        const VALID: &str = "the default settings are valid";
        match self {
            Cc::Ours => {
                Arc::new(NoqFactory::<Cubic>::quic(SlowStartKind::HystartPlusPlus).expect(VALID))
            }
            Cc::OursLinuxHystart => {
                Arc::new(NoqFactory::<Cubic>::quic(SlowStartKind::LinuxHystart).expect(VALID))
            }
            Cc::OursNewReno => {
                Arc::new(NoqFactory::<NewReno>::quic(SlowStartKind::HystartPlusPlus).expect(VALID))
            }
            Cc::Cubic => Arc::new(CubicConfig::default()),
            Cc::NewReno => Arc::new(NewRenoConfig::default()),
            Cc::OursBbr => Arc::new(
                NoqFactory::<OursBbrFlow>::new(congestion::linux::BbrConfig::new()).expect(VALID),
            ),
            Cc::OursBbr3 => Arc::new(
                NoqFactory::<OursBbr3Flow>::new(congestion::linux::Bbr3Config::new()).expect(VALID),
            ),
            Cc::Bbr => Arc::new(Bbr3Config::default()),
        }
    }
}

/// What to move and over which path.
#[derive(Clone, Copy, Debug)]
pub struct TransferConfig {
    /// The controller on both endpoints (only the sender's matters).
    pub cc: Cc,
    /// Bytes the client sends.
    pub bytes: u64,
    /// The link.
    pub relay: RelayConfig,
    /// How often the sender's cwnd and loss counters are sampled.
    pub sample_every: Duration,
    /// Give up after this long.
    pub timeout: Duration,
}

/// One sample of the sender's state.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Time since the stream opened.
    pub at: Duration,
    /// noq's congestion window, bytes.
    pub cwnd: u64,
    /// Lost packets so far (noq's path stats).
    pub lost_packets: u64,
    /// Congestion events so far (noq's path stats).
    pub congestion_events: u64,
    /// Smoothed RTT.
    pub rtt: Duration,
    /// The pacing rate the controller reported to noq, bytes/s (ours only).
    pub pacing_rate: Option<u64>,
    /// The send quantum the controller reported to noq, bytes (ours only).
    pub send_quantum: Option<u64>,
}

/// What happened.
#[derive(Clone, Debug)]
pub struct TransferReport {
    /// The controller.
    pub cc: Cc,
    /// Bytes delivered to the server's application.
    pub bytes: u64,
    /// From opening the stream to the server's answer reaching the client.
    pub elapsed: Duration,
    /// noq's path stats of the sender at the end: lost packets.
    pub lost_packets: u64,
    /// Lost bytes.
    pub lost_bytes: u64,
    /// Congestion events noq signalled to the controller.
    pub congestion_events: u64,
    /// Spurious congestion events noq detected.
    pub spurious_congestion_events: u64,
    /// Packets sent.
    pub sent_packets: u64,
    /// Relay drops on the data direction because the buffer was full.
    pub tail_drops: u64,
    /// Random drops on the data direction.
    pub random_drops: u64,
    /// Sampled state over time.
    pub samples: Vec<Sample>,
    /// The adapter's counters (our controllers only).
    pub adapter: Option<AdapterStats>,
}

impl TransferReport {
    /// Application bytes per second over `elapsed`, in Mbit/s.
    pub fn goodput_mbit(&self) -> f64 {
        congestion_harness::args::goodput_mbit(self.bytes, self.elapsed)
    }
}

fn transport(cc: Cc) -> TransportConfig {
    let mut t = TransportConfig::default();
    t.congestion_controller_factory(cc.factory());
    // Flow control must never be what limits the sender: the controller must.
    t.stream_receive_window(noq::VarInt::from_u32(64 << 20));
    t.receive_window(noq::VarInt::from_u32(64 << 20));
    t.send_window(64 << 20);
    t.max_idle_timeout(Some(noq::VarInt::from_u32(30_000).into()));
    t
}

fn configs(cc: Cc) -> Result<(ServerConfig, ClientConfig), Box<dyn std::error::Error>> {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()])?;
    let cert_der = cert.cert.der().clone();
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der());
    let mut server = ServerConfig::with_single_cert(vec![cert_der.clone()], key.into())?;
    server.transport_config(Arc::new(transport(cc)));
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert_der)?;
    let mut client = ClientConfig::with_root_certificates(Arc::new(roots))?;
    client.transport_config(Arc::new(transport(cc)));
    Ok((server, client))
}

/// Counts the stream's bytes, hands the count to `report` and answers one byte. The count
/// leaves before the connection's close: if the client's CONNECTION_CLOSE is lost (random
/// loss on the data direction), the server only learns of it from its idle timeout.
async fn serve(
    endpoint: Endpoint,
    report: tokio::sync::oneshot::Sender<u64>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let incoming = endpoint.accept().await.ok_or("endpoint closed")?;
    let conn = incoming.await?;
    let (mut send, mut recv) = conn.accept_bi().await?;
    let mut total = 0u64;
    while let Some(chunk) = recv.read_chunk(1 << 20).await? {
        total += chunk.len() as u64;
    }
    let _ = report.send(total);
    send.write_all(b"k").await?;
    send.finish()?;
    conn.closed().await;
    Ok(())
}

/// What the controller reports to noq: pacing rate and send quantum.
fn reported(conn: &noq::Connection) -> (Option<u64>, Option<u64>) {
    match conn.congestion_state(PathId::ZERO) {
        Some(c) => {
            let m = c.metrics();
            (m.pacing_rate, m.send_quantum)
        }
        None => (None, None),
    }
}

/// Runs one transfer.
pub async fn run(config: TransferConfig) -> Result<TransferReport, Box<dyn std::error::Error>> {
    let (server_cfg, client_cfg) = configs(config.cc)?;
    let localhost: SocketAddr = "127.0.0.1:0".parse()?;
    let server = Endpoint::server(server_cfg, localhost)?;
    let server_addr = server.local_addr()?;
    let relay = Relay::start(server_addr, config.relay).await?;
    let client = Endpoint::client(localhost)?;
    client.set_default_client_config(client_cfg);
    let (report, received) = tokio::sync::oneshot::channel();
    let server_task = tokio::spawn(serve(server.clone(), report));

    let work = async {
        let conn = client.connect(relay.client_facing, "localhost")?.await?;
        let start = Instant::now();
        let (mut send, mut recv) = conn.open_bi().await?;
        let sampler = {
            let conn = conn.clone();
            let every = config.sample_every;
            tokio::spawn(async move {
                let mut samples = Vec::new();
                let mut tick = tokio::time::interval(every);
                // Bounded: the transfer's own timeout aborts this task at the latest.
                loop {
                    tick.tick().await;
                    if let Some(s) = conn.path_stats(PathId::ZERO) {
                        let (pacing_rate, send_quantum) = reported(&conn);
                        samples.push(Sample {
                            at: start.elapsed(),
                            cwnd: s.cwnd,
                            lost_packets: s.lost_packets,
                            congestion_events: s.congestion_events,
                            rtt: s.rtt,
                            pacing_rate,
                            send_quantum,
                        });
                    }
                    if conn.close_reason().is_some() {
                        return samples;
                    }
                }
            })
        };
        let chunk = vec![0u8; 64 * 1024];
        let mut left = config.bytes;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            send.write_all(&chunk[..n]).await?;
            left -= n as u64;
        }
        send.finish()?;
        let mut answer = [0u8; 1];
        recv.read_exact(&mut answer).await?;
        let elapsed = start.elapsed();
        let stats = conn.path_stats(PathId::ZERO).ok_or("path zero is gone")?;
        let adapter = conn.congestion_state(PathId::ZERO).and_then(adapter_stats);
        conn.close(0u32.into(), b"done");
        let samples = tokio::time::timeout(Duration::from_secs(2), sampler)
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        Ok::<_, Box<dyn std::error::Error>>((elapsed, stats, adapter, samples))
    };
    let outcome = tokio::time::timeout(config.timeout, work).await;
    let received = tokio::time::timeout(Duration::from_secs(2), received).await;
    server_task.abort();
    client.close(0u32.into(), b"bye");
    server.close(0u32.into(), b"bye");
    let forward = relay.forward.clone();
    relay.stop().await;
    let (elapsed, stats, adapter, samples) = outcome.map_err(|_| "transfer timed out")??;
    let bytes = match received {
        Ok(Ok(n)) => n,
        _ => return Err("server did not report".into()),
    };
    use std::sync::atomic::Ordering::Relaxed;
    Ok(TransferReport {
        cc: config.cc,
        bytes,
        elapsed,
        lost_packets: stats.lost_packets,
        lost_bytes: stats.lost_bytes,
        congestion_events: stats.congestion_events,
        spurious_congestion_events: stats.spurious_congestion_events,
        sent_packets: stats.sent_packets,
        tail_drops: forward.tail_drops.load(Relaxed),
        random_drops: forward.random_drops.load(Relaxed),
        samples,
        adapter,
    })
}

/// The adapter's counters, if the connection runs one of ours.
fn adapter_stats(state: Box<dyn Controller>) -> Option<AdapterStats> {
    let any = match state.into_any().downcast::<NoqController<Cubic>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    let any = match any.downcast::<NoqController<NewReno>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    let any = match any.downcast::<NoqController<OursBbrFlow>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    any.downcast::<NoqController<OursBbr3Flow>>()
        .ok()
        .map(|c| c.stats())
}
