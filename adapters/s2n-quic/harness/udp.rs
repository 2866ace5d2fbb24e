//! One bulk transfer between two s2n-quic endpoints (tokio UDP I/O) on 127.0.0.1,
//! joined through `congestion-harness`'s UDP relay (the one the quinn and noq
//! transfers use): rate, one-way delay, drop-tail buffer, seeded random loss on the
//! data direction. The same exchange as [`super::sim`], in real time.

use super::common::{Cc, Counter, OurEndpoint, Report, certificate, limits, our_endpoint};
use bytes::Bytes;
use congestion_harness::relay::{Relay, RelayConfig};
use congestion_s2n_quic::AdapterStats;
use s2n_quic::client::Connect;
use s2n_quic::provider::congestion_controller::{Bbr, Cubic, Endpoint};
use s2n_quic::provider::tls::rustls as tls;
use s2n_quic::{Client, Server};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to move over which link.
#[derive(Clone, Copy, Debug)]
pub struct UdpConfig {
    /// The controller on both endpoints (only the sender's matters).
    pub cc: Cc,
    /// Bytes the client sends.
    pub bytes: u64,
    /// Our controllers' timer slack (`congestion_s2n_quic::DEFAULT_TIMER_SLACK`).
    pub timer_slack: congestion::Duration,
    /// The link.
    pub relay: RelayConfig,
    /// Period of the cwnd samples.
    pub sample_every: Duration,
    /// Give up after this long.
    pub timeout: Duration,
}

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs one transfer.
pub async fn run(config: UdpConfig) -> Result<Report, Error> {
    let stats = Arc::new(AdapterStats::default());
    // Only the sender (the client) counts; the server runs the same controller.
    let quiet = Arc::new(AdapterStats::default());
    match (
        our_endpoint(config.cc, config.timer_slack, &stats, None),
        our_endpoint(config.cc, config.timer_slack, &quiet, None),
    ) {
        (Some(OurEndpoint::Cubic(c)), Some(OurEndpoint::Cubic(s))) => {
            run_with(config, stats, c, s).await
        }
        (Some(OurEndpoint::NewReno(c)), Some(OurEndpoint::NewReno(s))) => {
            run_with(config, stats, c, s).await
        }
        (Some(OurEndpoint::Bbr(c)), Some(OurEndpoint::Bbr(s))) => {
            run_with(config, stats, c, s).await
        }
        (Some(OurEndpoint::Bbr3(c)), Some(OurEndpoint::Bbr3(s))) => {
            run_with(config, stats, c, s).await
        }
        _ if config.cc == Cc::Bbr => run_with(config, stats, Bbr::default(), Bbr::default()).await,
        _ => run_with(config, stats, Cubic::default(), Cubic::default()).await,
    }
}

async fn run_with<C: Endpoint, S: Endpoint>(
    config: UdpConfig,
    stats: Arc<AdapterStats>,
    client_cc: C,
    server_cc: S,
) -> Result<Report, Error> {
    let (cert, key) = certificate();
    let server_tls = tls::Server::builder()
        .with_certificate(cert.as_str(), key.as_str())?
        .build()?;
    let mut server = Server::builder()
        .with_io("127.0.0.1:0")?
        .with_tls(server_tls)?
        .with_congestion_controller(server_cc)?
        .with_limits(limits())?
        .start()?;
    let server_addr = server.local_addr()?;
    let relay = Relay::start(server_addr, config.relay).await?;
    let received = Arc::new(AtomicU64::new(0));
    let server_task = {
        let received = received.clone();
        tokio::spawn(async move {
            let Some(mut conn) = server.accept().await else {
                return;
            };
            let Ok(Some(mut stream)) = conn.accept_bidirectional_stream().await else {
                return;
            };
            let mut total = 0u64;
            while let Ok(Some(chunk)) = stream.receive().await {
                total += chunk.len() as u64;
            }
            received.store(total, Ordering::Relaxed);
            let _ = stream.send(Bytes::from_static(b"k")).await;
            let _ = stream.finish();
            // Hold the connection until the client closes it (bounded by the idle timeout).
            let _ = conn.accept_bidirectional_stream().await;
        })
    };

    let counter = Counter::new(config.sample_every);
    let client_tls = tls::Client::builder()
        .with_certificate(cert.as_str())?
        .build()?;
    let client = Client::builder()
        .with_io("127.0.0.1:0")?
        .with_tls(client_tls)?
        .with_congestion_controller(client_cc)?
        .with_limits(limits())?
        .with_event(counter.clone())?
        .start()?;
    let to: SocketAddr = relay.client_facing;
    let work = async {
        let mut conn = client
            .connect(Connect::new(to).with_server_name("localhost"))
            .await?;
        let start = Instant::now();
        let mut stream = conn.open_bidirectional_stream().await?;
        let chunk = Bytes::from(vec![0u8; 64 * 1024]);
        let mut left = config.bytes;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            stream.send(chunk.slice(..n)).await?;
            left -= n as u64;
        }
        stream.finish()?;
        stream.receive().await?.ok_or("no answer")?;
        let elapsed = start.elapsed();
        conn.close(0u32.into());
        Ok::<_, Error>(elapsed)
    };
    let outcome = tokio::time::timeout(config.timeout, work).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), server_task).await;
    let forward = relay.forward.clone();
    relay.stop().await;
    let elapsed = outcome.map_err(|_| "transfer timed out")??;
    Ok(Report {
        cc: config.cc,
        bytes: received.load(Ordering::Relaxed),
        elapsed,
        events: counter.get(),
        tail_drops: forward.tail_drops.load(Ordering::Relaxed),
        random_drops: forward.random_drops.load(Ordering::Relaxed),
        blackout_drops: 0,
        adapter: stats,
    })
}
