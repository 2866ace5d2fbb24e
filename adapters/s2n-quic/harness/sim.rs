//! One bulk transfer on s2n-quic's virtual-time network through the [`Bottleneck`]:
//! real s2n-quic endpoints and TLS (rustls) in one process, simulated time. The client
//! opens a bidirectional stream, writes N bytes and finishes; the server counts them
//! and answers one byte. Goodput is the bytes over the time from opening the stream to
//! that answer, in virtual time.

use super::common::{Cc, Counter, OurEndpoint, Report, certificate, limits, our_endpoint};
use super::vnet::{Bottleneck, LinkConfig};
use bytes::Bytes;
use congestion_s2n_quic::{AdapterStats, DepartureLog};
use s2n_quic::client::Connect;
use s2n_quic::provider::congestion_controller::{Bbr, Cubic, Endpoint};
use s2n_quic::provider::io::testing::{self, primary, spawn, time};
use s2n_quic::provider::tls::rustls as tls;
use s2n_quic::{Client, Server};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What to move over which link.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The sender's (and receiver's) controller.
    pub cc: Cc,
    /// Bytes the client sends.
    pub bytes: u64,
    /// Our controllers' timer slack (`congestion_s2n_quic::DEFAULT_TIMER_SLACK`).
    pub timer_slack: congestion::Duration,
    /// The link.
    pub link: LinkConfig,
    /// Where our controllers record their departures, if anywhere.
    pub log: Option<DepartureLog>,
}

type Error = Box<dyn std::error::Error>;

/// Runs one transfer to its end (virtual time; the wall time is the CPU's).
pub fn run(config: SimConfig) -> Result<Report, Error> {
    let stats = Arc::new(AdapterStats::default());
    // Only the sender (the client) counts and logs; the server runs the same controller.
    let quiet = Arc::new(AdapterStats::default());
    match (
        our_endpoint(config.cc, config.timer_slack, &stats, config.log.as_ref()),
        our_endpoint(config.cc, config.timer_slack, &quiet, None),
    ) {
        (Some(OurEndpoint::Cubic(c)), Some(OurEndpoint::Cubic(s))) => {
            run_with(&config, stats, move || c.clone(), move || s.clone())
        }
        (Some(OurEndpoint::NewReno(c)), Some(OurEndpoint::NewReno(s))) => {
            run_with(&config, stats, move || c.clone(), move || s.clone())
        }
        (Some(OurEndpoint::Bbr(c)), Some(OurEndpoint::Bbr(s))) => {
            run_with(&config, stats, move || c.clone(), move || s.clone())
        }
        (Some(OurEndpoint::Bbr3(c)), Some(OurEndpoint::Bbr3(s))) => {
            run_with(&config, stats, move || c.clone(), move || s.clone())
        }
        _ if config.cc == Cc::Bbr => run_with(&config, stats, Bbr::default, Bbr::default),
        _ => run_with(&config, stats, Cubic::default, Cubic::default),
    }
}

fn run_with<C: Endpoint, S: Endpoint>(
    config: &SimConfig,
    stats: Arc<AdapterStats>,
    client_cc: impl Fn() -> C,
    server_cc: impl Fn() -> S,
) -> Result<Report, Error> {
    let network = Bottleneck::new(config.link);
    let (cert, key) = certificate();
    let counter = Counter::new(Duration::from_millis(100));
    let elapsed: Arc<Mutex<Option<Duration>>> = Arc::default();
    let received = Arc::new(AtomicU64::new(0));
    let bytes = config.bytes;
    testing::test_seed(network.clone(), config.link.seed, |handle| {
        let server_tls = tls::Server::builder()
            .with_certificate(cert.as_str(), key.as_str())
            .map_err(boxed)?
            .build()
            .map_err(boxed)?;
        let mut server = Server::builder()
            .with_io(handle.builder().build()?)?
            .with_tls(server_tls)?
            .with_congestion_controller(server_cc())?
            .with_limits(limits())?
            .start()?;
        let addr = server.local_addr()?;
        network.set_server(addr);
        let received = received.clone();
        spawn(async move {
            while let Some(mut conn) = server.accept().await {
                let received = received.clone();
                spawn(async move {
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
                    // Hold the connection until the client closes it.
                    let _ = conn.accept_bidirectional_stream().await;
                });
            }
        });

        let client_tls = tls::Client::builder()
            .with_certificate(cert.as_str())
            .map_err(boxed)?
            .build()
            .map_err(boxed)?;
        let client = Client::builder()
            .with_io(handle.builder().build()?)?
            .with_tls(client_tls)?
            .with_congestion_controller(client_cc())?
            .with_limits(limits())?
            .with_event(counter.clone())?
            .start()?;
        let elapsed = elapsed.clone();
        primary::spawn(async move {
            let connect = Connect::new(addr).with_server_name("localhost");
            let mut conn = client.connect(connect).await.expect("handshake");
            let start = time::now();
            let mut stream = conn
                .open_bidirectional_stream()
                .await
                .expect("open a stream");
            let chunk = Bytes::from(vec![0u8; 64 * 1024]);
            let mut left = bytes;
            while left > 0 {
                let n = left.min(chunk.len() as u64) as usize;
                stream.send(chunk.slice(..n)).await.expect("send");
                left -= n as u64;
            }
            stream.finish().expect("finish");
            if let Ok(Some(_answer)) = stream.receive().await {
                *elapsed.lock().unwrap() = Some(time::now().saturating_duration_since(start));
            }
        });
        Ok(())
    })?;
    let elapsed = elapsed
        .lock()
        .unwrap()
        .ok_or("the transfer did not complete")?;
    let drops = network.drops();
    Ok(Report {
        cc: config.cc,
        bytes: received.load(Ordering::Relaxed),
        elapsed,
        events: counter.get(),
        tail_drops: drops.tail,
        random_drops: drops.random,
        blackout_drops: drops.blackout,
        adapter: stats,
    })
}

/// rustls' errors are `Send + Sync`; the test closure returns a plain boxed error.
fn boxed(e: Box<dyn std::error::Error + Send + Sync>) -> Box<dyn std::error::Error> {
    e
}
