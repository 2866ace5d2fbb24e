//! noq's pacer is fed the controller's rate and quantum: two noq-proto endpoints joined
//! by an in-memory link (10 ms each way, no rate limit, virtual time), the client's
//! controller this crate's adapter around a flow with a huge window and a fixed pacing
//! rate and send quantum. With the window out of the way, what the client puts on the
//! wire per second is the rate noq's pacer was given, and the largest GSO batch it
//! builds is the quantum.

use bytes::BytesMut;
use congestion::pacing::Rate;
use congestion::{
    AckEvent, ConfigError, CongestionController, EcnEvent, Instant, LossEvent, Phase, SentEvent,
    WindowUnit,
};
use congestion_noq::{NoqController, NoqFlow};
use noq_proto::congestion::{Controller, ControllerFactory};
use noq_proto::{
    ClientConfig, Connection, ConnectionHandle, DatagramEvent, Dir, Endpoint, EndpointConfig,
    FourTuple, ServerConfig, StreamId, TransportConfig, VarInt,
};
use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::{Duration, Instant as StdInstant};

const MTU: u64 = 1200;
const ONE_WAY: Duration = Duration::from_millis(10);

/// A flow whose window, pacing rate and quantum are fixed.
#[derive(Clone, Copy, Debug)]
struct Fixed {
    cwnd: u64,
    rate: Rate,
    quantum_bytes: u64,
}

impl CongestionController for Fixed {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }
    fn on_sent(&mut self, _: Instant, _: &SentEvent) {}
    fn on_ack(&mut self, _: Instant, _: &AckEvent) {}
    fn on_loss(&mut self, _: Instant, _: &LossEvent) {}
    fn on_ecn(&mut self, _: Instant, _: &EcnEvent) {}
    fn on_retransmission_timeout(&mut self, _: Instant) {}
    fn on_discarded(&mut self, _: Instant, _: u64) {}
    fn on_spurious_congestion(&mut self, _: Instant) {}
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        self.cwnd
    }
    fn ssthresh(&self) -> Option<u64> {
        None
    }
    fn phase(&self) -> Phase {
        Phase::CongestionAvoidance
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        self.rate
    }
    fn mss_bytes(&self) -> u64 {
        MTU
    }
    fn send_quantum_bytes(&self) -> u64 {
        self.quantum_bytes
    }
}

impl NoqFlow for Fixed {
    type Config = Fixed;
    fn build(config: &Fixed, _: u16, _: Instant) -> Result<Self, ConfigError> {
        Ok(*config)
    }
    fn set_mtu(&mut self, _: u16) {}
}

/// Builds the adapter around a [`Fixed`] flow (the crate's own factory is generic too,
/// but this keeps the flow's settings in the test).
#[derive(Debug)]
struct FixedFactory(Fixed);

impl ControllerFactory for FixedFactory {
    fn build(self: Arc<Self>, now: StdInstant, _mtu: u16) -> Box<dyn Controller> {
        Box::new(NoqController::new(self.0, now))
    }
}

fn transport(factory: Option<Arc<FixedFactory>>) -> Arc<TransportConfig> {
    let mut t = TransportConfig::default();
    if let Some(f) = factory {
        t.congestion_controller_factory(f);
    }
    t.enable_segmentation_offload(true);
    // The fixed MTU keeps datagram counts exact: no path MTU probes.
    t.mtu_discovery_config(None);
    t.stream_receive_window(VarInt::from_u32(64 << 20));
    t.receive_window(VarInt::from_u32(64 << 20));
    t.send_window(64 << 20);
    Arc::new(t)
}

/// One side: its endpoint, address and (once there is one) connection.
struct Side {
    endpoint: Endpoint,
    addr: SocketAddr,
    conn: Option<(ConnectionHandle, Connection)>,
}

/// A datagram on the link: when it arrives, where, from where.
struct InFlight {
    at: StdInstant,
    to_server: bool,
    from: SocketAddr,
    data: Vec<u8>,
}

/// One transmit the client made: when, bytes, datagrams.
#[derive(Clone, Copy, Debug)]
struct Sent {
    at: StdInstant,
    bytes: usize,
    datagrams: usize,
}

/// Runs `duration` of virtual time with the client's flow `fixed`, the client writing
/// as fast as noq takes data; returns the client's transmits after the handshake.
fn run(fixed: Fixed, duration: Duration) -> Vec<Sent> {
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let cert_der = cert.cert.der().clone();
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(cert.key_pair.serialize_der());
    let mut server_config =
        ServerConfig::with_single_cert(vec![cert_der.clone()], key.into()).unwrap();
    server_config.transport_config(transport(None));
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert_der).unwrap();
    let mut client_config = ClientConfig::with_root_certificates(Arc::new(roots)).unwrap();
    client_config.transport_config(transport(Some(Arc::new(FixedFactory(fixed)))));

    let localhost = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let endpoint_config = Arc::new(EndpointConfig::default());
    let mut server = Side {
        endpoint: Endpoint::new(
            endpoint_config.clone(),
            Some(Arc::new(server_config)),
            false,
        ),
        addr: SocketAddr::new(localhost, 4433),
        conn: None,
    };
    let mut client = Side {
        endpoint: Endpoint::new(endpoint_config, None, false),
        addr: SocketAddr::new(localhost, 5000),
        conn: None,
    };
    let start = StdInstant::now();
    let mut now = start;
    client.conn = Some(
        client
            .endpoint
            .connect(now, client_config, server.addr, "localhost")
            .unwrap(),
    );

    let mut link: VecDeque<InFlight> = VecDeque::new();
    let mut sent = Vec::new();
    let mut buf = Vec::new();
    let mut stream: Option<StreamId> = None;
    let mut received: Vec<StreamId> = Vec::new();
    let data = vec![0u8; 64 * 1024];
    let end = start + duration;

    // Bounded: virtual time advances every pass (to the next event, at least 1 µs).
    while now < end {
        // Client application: open one stream once connected and keep it full.
        if let Some((_, conn)) = client.conn.as_mut() {
            while conn.poll().is_some() {}
            if stream.is_none() && !conn.is_handshaking() {
                stream = conn.streams().open(Dir::Uni);
            }
            if let Some(id) = stream {
                while matches!(conn.send_stream(id).write(&data), Ok(n) if n > 0) {}
            }
        }
        // Server application: accept and drain every stream.
        if let Some((_, conn)) = server.conn.as_mut() {
            while conn.poll().is_some() {}
            while let Some(id) = conn.streams().accept(Dir::Uni) {
                received.push(id);
            }
            for &id in &received {
                if let Ok(mut chunks) = conn.recv_stream(id).read(true) {
                    while let Ok(Some(_)) = chunks.next(usize::MAX) {}
                    let _ = chunks.finalize();
                }
            }
        }
        // Both sides: timers, endpoint events and transmits.
        for (side, to_server) in [(&mut client, true), (&mut server, false)] {
            let Some((handle, conn)) = side.conn.as_mut() else {
                continue;
            };
            if conn.poll_timeout().is_some_and(|t| t <= now) {
                conn.handle_timeout(now);
            }
            while let Some(event) = conn.poll_endpoint_events() {
                if let Some(back) = side.endpoint.handle_event(*handle, event) {
                    conn.handle_event(back);
                }
            }
            let max = NonZeroUsize::new(64).unwrap();
            loop {
                buf.clear();
                let Some(t) = conn.poll_transmit(now, max, &mut buf) else {
                    break;
                };
                let segment = t.segment_size.unwrap_or(t.size);
                if to_server && stream.is_some() {
                    sent.push(Sent {
                        at: now,
                        bytes: t.size,
                        datagrams: t.size.div_ceil(segment),
                    });
                }
                for datagram in buf[..t.size].chunks(segment) {
                    link.push_back(InFlight {
                        at: now + ONE_WAY,
                        to_server,
                        from: side.addr,
                        data: datagram.to_vec(),
                    });
                }
            }
        }
        // Advance to the next arrival or timer.
        let timers = [&client, &server]
            .into_iter()
            .filter_map(|s| s.conn.as_ref().and_then(|(_, c)| c.poll_timeout()));
        let next = link.front().map(|p| p.at).into_iter().chain(timers).min();
        now = next.unwrap_or(end).max(now + Duration::from_micros(1));
        // Deliver what has arrived.
        while link.front().is_some_and(|p| p.at <= now) {
            let p = link.pop_front().unwrap();
            let side = if p.to_server {
                &mut server
            } else {
                &mut client
            };
            let path = FourTuple::new(p.from, Some(localhost));
            let event =
                side.endpoint
                    .handle(now, path, None, BytesMut::from(&p.data[..]), &mut buf);
            match event {
                Some(DatagramEvent::ConnectionEvent(_, event)) => {
                    if let Some((_, conn)) = side.conn.as_mut() {
                        conn.handle_event(event);
                    }
                }
                Some(DatagramEvent::NewConnection(incoming)) => {
                    let accepted = side.endpoint.accept(incoming, now, &mut buf, None);
                    side.conn = Some(accepted.expect("the server accepts"));
                }
                // Stateless responses (version negotiation, resets) do not occur here.
                Some(DatagramEvent::Response(_)) | None => {}
            }
        }
    }
    sent
}

/// Bytes per second the client sent from `skip` after its first data transmit to the
/// end of the run, and the largest batch in datagrams.
fn measure(sent: &[Sent], skip: Duration) -> (f64, usize) {
    let first = sent.first().expect("the client sent data").at;
    let from = first + skip;
    let window: Vec<_> = sent.iter().filter(|s| s.at >= from).collect();
    let last = window.last().expect("sends after the skip").at;
    let bytes: usize = window.iter().map(|s| s.bytes).sum();
    let secs = last.duration_since(from).as_secs_f64();
    let largest = sent.iter().map(|s| s.datagrams).max().unwrap_or(0);
    (bytes as f64 / secs, largest)
}

#[test]
fn noq_sends_at_the_reported_pacing_rate_in_batches_of_the_reported_quantum() {
    let duration = Duration::from_millis(1500);
    let skip = Duration::from_millis(300);
    // 1.25 MB/s (10 Mbit/s), quantum 3 datagrams.
    let slow = Fixed {
        cwnd: 64 << 20,
        rate: Rate::from_bytes_per_second(1_250_000),
        quantum_bytes: 3 * MTU,
    };
    let (rate, batch) = measure(&run(slow, duration), skip);
    eprintln!("1.25 MB/s, 3 datagrams: sent {rate:.0} B/s, largest batch {batch}");
    assert!(
        (rate / 1_250_000.0 - 1.0).abs() < 0.05,
        "sent at {rate:.0} B/s, paced at 1250000"
    );
    assert_eq!(
        batch, 3,
        "batches of at most the 3600-byte quantum, and full ones"
    );

    // Twice the rate, quantum 5 datagrams: noq follows both.
    let fast = Fixed {
        cwnd: 64 << 20,
        rate: Rate::from_bytes_per_second(2_500_000),
        quantum_bytes: 5 * MTU,
    };
    let (rate, batch) = measure(&run(fast, duration), skip);
    eprintln!("2.5 MB/s, 5 datagrams: sent {rate:.0} B/s, largest batch {batch}");
    assert!(
        (rate / 2_500_000.0 - 1.0).abs() < 0.05,
        "sent at {rate:.0} B/s, paced at 2500000"
    );
    assert_eq!(batch, 5);

    // The control: a flow with no rate yet (no RTT sample) reports none, and noq paces
    // by its own rule, 1.25 · window / srtt; with a 200 kB window and the 20 ms RTT the
    // window allows 10 MB/s, four times the last rate.
    let unpaced = Fixed {
        cwnd: 200_000,
        rate: Rate::UNLIMITED,
        quantum_bytes: 5 * MTU,
    };
    let (rate, _) = measure(&run(unpaced, duration), skip);
    eprintln!("no rate, 200 kB window: sent {rate:.0} B/s");
    assert!(
        rate > 3.0 * 2_500_000.0,
        "sent at {rate:.0} B/s without a reported rate"
    );
}
