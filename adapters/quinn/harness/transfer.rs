//! One bulk transfer between two quinn endpoints on 127.0.0.1 through the shared relay
//! (`congestion-harness`): the client opens a bidirectional stream, writes N bytes and
//! finishes; the server counts them and answers one byte. Shared by the `quinn_transfer`
//! example and the CI test.
#![allow(dead_code, reason = "each includer uses a different part")]

use congestion::linux;
use congestion::rfc::{self, SlowStartKind};
use congestion_harness::relay::{Relay, RelayConfig};
use congestion_quinn::{AdapterStats, CubicFactory, QuinnController};
use quinn::congestion::{BbrConfig, Controller, ControllerFactory, CubicConfig, NewRenoConfig};
use quinn::{ClientConfig, Endpoint, ServerConfig, TransportConfig};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// Which congestion controller the sender runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cc {
    /// This crate's controller for QUIC: RFC 9438 CUBIC + RFC 9406 HyStart++, bytes.
    Ours,
    /// RFC 9438 CUBIC in bytes with Linux HyStart as the slow-start exit.
    OursLinuxHystart,
    /// This crate's Linux-mode CUBIC + HyStart (segments, bit-exact with the kernel).
    Linux,
    /// This crate's RFC 9002 NewReno + HyStart++, bytes.
    OursNewReno,
    /// quinn-proto's own `Cubic` (`--cc cubic`, or `quinn` as before).
    Quinn,
    /// quinn-proto's own `NewReno`.
    QuinnNewReno,
    /// This crate's Linux-mode BBR v1 (segments), with per-packet snapshots.
    OursBbr,
    /// This crate's Linux-mode BBRv3 (segments), with per-packet snapshots.
    OursBbr3,
    /// quinn-proto's own `Bbr`.
    QuinnBbr,
}

impl Cc {
    /// The name printed in reports.
    pub fn name(self) -> &'static str {
        match self {
            Cc::Ours => "ours-cubic-rfc",
            Cc::OursLinuxHystart => "ours-cubic-rfc-linux-hystart",
            Cc::Linux => "ours-cubic",
            Cc::OursNewReno => "ours-newreno-rfc",
            Cc::Quinn => "cubic",
            Cc::QuinnNewReno => "newreno",
            Cc::OursBbr => "ours-bbr",
            Cc::OursBbr3 => "ours-bbr3",
            Cc::QuinnBbr => "bbr",
        }
    }

    /// Parses `ours-cubic-rfc`, `ours-cubic-rfc-linux-hystart`, `ours-cubic`,
    /// `ours-newreno-rfc` (this crate's, `ours-` and the crate's `--cc` word), `cubic` (or
    /// `quinn`) and `newreno` (the stack's own controllers under the names every
    /// adapter's `quinn_transfer` uses).
    pub fn parse(s: &str) -> Option<Cc> {
        match s {
            "ours-cubic-rfc" => Some(Cc::Ours),
            "ours-cubic-rfc-linux-hystart" => Some(Cc::OursLinuxHystart),
            "ours-cubic" => Some(Cc::Linux),
            "ours-newreno-rfc" => Some(Cc::OursNewReno),
            "cubic" | "quinn" => Some(Cc::Quinn),
            "newreno" => Some(Cc::QuinnNewReno),
            "ours-bbr" => Some(Cc::OursBbr),
            "ours-bbr3" => Some(Cc::OursBbr3),
            "bbr" => Some(Cc::QuinnBbr),
            _ => Cc::renamed(s),
        }
    }

    /// The 0.2 `--cc` words, still accepted this release with a note on stderr.
    fn renamed(s: &str) -> Option<Cc> {
        let cc = match s {
            "ours" => Cc::Ours,
            "ours-linux-hystart" => Cc::OursLinuxHystart,
            "linux" => Cc::Linux,
            "ours-newreno" => Cc::OursNewReno,
            _ => return None,
        };
        eprintln!(
            "--cc {s} is deprecated since 0.3.0 and will be removed: use --cc {}",
            cc.name()
        );
        Some(cc)
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
    /// quinn's congestion window, bytes.
    pub cwnd: u64,
    /// Lost packets so far (quinn's path stats).
    pub lost_packets: u64,
    /// Congestion events so far (quinn's path stats).
    pub congestion_events: u64,
    /// Smoothed RTT.
    pub rtt: Duration,
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
    /// quinn's path stats of the sender at the end.
    pub lost_packets: u64,
    /// Lost bytes (quinn's path stats).
    pub lost_bytes: u64,
    /// Congestion events quinn signalled to the controller.
    pub congestion_events: u64,
    /// Packets sent.
    pub sent_packets: u64,
    /// Relay drops on the data direction: buffer full, random.
    pub tail_drops: u64,
    /// Random drops on the data direction.
    pub random_drops: u64,
    /// Sampled cwnd over time.
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

/// The factory for [`Cc::Ours`] or [`Cc::OursLinuxHystart`].
pub fn ours_factory(slow_start: SlowStartKind) -> Arc<dyn ControllerFactory + Send + Sync> {
    Arc::new(CubicFactory::<rfc::Cubic>::quic(slow_start).expect("default settings are valid"))
}

/// The factory for [`Cc::Linux`].
pub fn linux_factory() -> Arc<dyn ControllerFactory + Send + Sync> {
    let params = congestion::cubic::LinuxCubicConfig::new()
        .validate()
        .expect("default Linux CUBIC settings are valid");
    Arc::new(CubicFactory::<linux::Cubic>::new(params).expect("default settings are valid"))
}

fn transport(cc: Cc) -> TransportConfig {
    let mut t = TransportConfig::default();
    let factory: Arc<dyn ControllerFactory + Send + Sync> = match cc {
        Cc::Ours => ours_factory(SlowStartKind::HystartPlusPlus),
        Cc::OursLinuxHystart => ours_factory(SlowStartKind::LinuxHystart),
        Cc::Linux => linux_factory(),
        Cc::OursNewReno => Arc::new(
            CubicFactory::<rfc::NewReno>::new(rfc::CubicConfig::new())
                .expect("default settings are valid"),
        ),
        Cc::Quinn => Arc::new(CubicConfig::default()),
        Cc::QuinnNewReno => Arc::new(NewRenoConfig::default()),
        Cc::OursBbr => Arc::new(
            CubicFactory::<linux::BbrController<linux::RandomFn>>::new(linux::BbrConfig::new())
                .expect("default BBR settings are valid"),
        ),
        Cc::OursBbr3 => Arc::new(
            CubicFactory::<linux::Bbr3Controller<linux::RandomFn>>::new(linux::Bbr3Config::new())
                .expect("default BBRv3 settings are valid"),
        ),
        Cc::QuinnBbr => Arc::new(BbrConfig::default()),
    };
    t.congestion_controller_factory(factory);
    // Flow control must never be what limits the sender: the controller must.
    t.stream_receive_window(quinn::VarInt::from_u32(64 << 20));
    t.receive_window(quinn::VarInt::from_u32(64 << 20));
    t.send_window(64 << 20);
    t.max_idle_timeout(Some(quinn::VarInt::from_u32(30_000).into()));
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
    while let Some(chunk) = recv.read_chunk(1 << 20, true).await? {
        total += chunk.bytes.len() as u64;
    }
    let _ = report.send(total);
    send.write_all(b"k").await?;
    send.finish()?;
    conn.closed().await;
    Ok(())
}

/// Runs one transfer.
pub async fn run(config: TransferConfig) -> Result<TransferReport, Box<dyn std::error::Error>> {
    let (server_cfg, client_cfg) = configs(config.cc)?;
    let localhost: SocketAddr = "127.0.0.1:0".parse()?;
    let server = Endpoint::server(server_cfg, localhost)?;
    let server_addr = server.local_addr()?;
    let relay = Relay::start(server_addr, config.relay).await?;
    let mut client = Endpoint::client(localhost)?;
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
                    let s = conn.stats().path;
                    samples.push(Sample {
                        at: start.elapsed(),
                        cwnd: s.cwnd,
                        lost_packets: s.lost_packets,
                        congestion_events: s.congestion_events,
                        rtt: s.rtt,
                    });
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
        let stats = conn.stats().path;
        let adapter = adapter_stats(conn.congestion_state());
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
        sent_packets: stats.sent_packets,
        tail_drops: forward.tail_drops.load(Relaxed),
        random_drops: forward.random_drops.load(Relaxed),
        samples,
        adapter,
    })
}

/// The adapter's counters, if the connection runs one of ours.
fn adapter_stats(state: Box<dyn Controller>) -> Option<AdapterStats> {
    let any = match state.into_any().downcast::<QuinnController<rfc::Cubic>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    let any = match any.downcast::<QuinnController<rfc::NewReno>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    let any = match any.downcast::<QuinnController<linux::Cubic>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    let any = match any.downcast::<QuinnController<linux::BbrController<linux::RandomFn>>>() {
        Ok(c) => return Some(c.stats()),
        Err(any) => any,
    };
    any.downcast::<QuinnController<linux::Bbr3Controller<linux::RandomFn>>>()
        .ok()
        .map(|c| c.stats())
}
