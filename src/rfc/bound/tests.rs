use super::*;
use crate::controller::AckEvent;
use crate::cubic::RfcCubic;
use crate::rfc;
use crate::time::Duration;

/// A bound state and an owned flow fed the same events stay identical, field for
/// field, through losses, ECN, discards, a restart, an RTO and an undo.
#[test]
fn a_bound_state_runs_as_the_owned_flow_does() {
    let config = rfc::CubicConfig::quic(1200);
    let params = RfcParams::new(&config).expect("valid");
    let mut owned = rfc::Cubic::new(config, Instant::ZERO).expect("valid");
    let mut state = ClassicState::<RfcCubic>::new(&params, Instant::ZERO);
    let (mut pn, mut acked) = (0u64, 0u64);
    for step in 0..3_000u64 {
        let now = Instant::from_micros(step * 1_000);
        let mut bound = state.bind(&params);
        let flows: [&mut dyn CongestionController; 2] = [&mut owned, &mut bound];
        let room = flows[0].cwnd().saturating_sub(flows[0].in_flight()) / 1_200;
        for f in flows {
            if room > 0 {
                f.on_sent_counted(now, room * 1_200, pn + room);
            }
            match step % 97 {
                40 => f.on_loss(now, &LossEvent::packet(1_200, acked + 1)),
                60 => f.on_ecn(now, &EcnEvent::new(1, acked)),
                70 => f.on_discarded(now, 1_200),
                75 => f.on_transmit_start(now),
                41 if step % 2 == 0 => f.on_spurious_congestion(now),
                90 if step % 3 == 0 => f.on_retransmission_timeout(now),
                _ => {}
            }
            if pn + room > acked + 2 {
                let ack = AckEvent::new(2_400, acked + 2, Some(Duration::from_millis(30)));
                f.on_ack(now, &ack);
            }
        }
        pn += room;
        if pn > acked + 2 {
            acked += 2;
        }
        assert_eq!(owned.state(), &state, "step {step}");
    }
    assert!(
        owned.cwnd() > 2 * 1_200,
        "the flow kept growing after each event"
    );
}
