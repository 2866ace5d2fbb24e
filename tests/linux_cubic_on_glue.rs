//! CUBIC as a hook table on the generic glue (`TcpFlow<CubicOps>`,
//! `congestion::linux::cubic_ops`) replays every reference trace of the kernel's CUBIC
//! (tests/data/linux-cubic) byte for byte: the same CSV as the packed `linux::Cubic`
//! writes in tests/linux_traces.rs, so the two implementations agree on all 35.

mod replay;

const FOLDER: &str = "linux-cubic";

#[test]
fn all_35_reference_traces_replay_bit_exactly_through_the_generic_glue() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        35,
        "expected the 35 shipped traces, found {names:?}"
    );
    let mut failures = Vec::new();
    let mut rows = 0;
    for name in &names {
        let want = replay::expected_csv(FOLDER, name);
        let events = replay::events(FOLDER, name);
        let got = replay::replay_cubic_on_glue(&events).unwrap_or_else(|e| panic!("{name}: {e}"));
        rows += want.lines().count().saturating_sub(1);
        if got != want {
            failures.push(
                replay::first_difference(name, &got, &want)
                    .unwrap_or_else(|| format!("{name}: differs (line endings?)")),
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 114,735 events in all, per the conformance README.
    assert_eq!(rows, 114_735);
}

#[test]
fn a_changed_module_parameter_changes_the_replay_on_the_glue() {
    // Guards the comparison: the same trace with beta 512 must not match.
    let name = "loss_fastconv_on";
    let events = replay::events(FOLDER, name);
    let got = replay::replay_cubic_on_glue(&format!("set beta 512\n{events}")).expect("replay");
    let want = replay::expected_csv(FOLDER, name);
    assert!(replay::first_difference(name, &got, &want).is_some());
}

use proptest::prelude::*;

/// One event of a generated script, before it is fitted to the harness's state.
#[derive(Clone, Debug)]
enum Step {
    /// `ack`: a share of what is outstanding, an RTT (`None`: -1), the flight after.
    Ack {
        share: u32,
        rtt_us: Option<u32>,
        in_flight: u32,
    },
    Loss,
    Rto(u32),
    Undo,
    Send(u32),
    /// `idle T [LSND]`: the last send this many µs before now, if given.
    Idle(Option<u64>),
}

fn step() -> impl Strategy<Value = (u64, Step)> {
    let gap = prop_oneof![8 => 0u64..20_000, 1 => 0u64..3_000_000];
    let ack = (
        0u32..=64,
        prop_oneof![1 => Just(None), 6 => (0u32..300_000).prop_map(Some)],
        0u32..=400,
    )
        .prop_map(|(share, rtt_us, in_flight)| Step::Ack {
            share,
            rtt_us,
            in_flight,
        });
    let kind = prop_oneof![
        30 => ack,
        2 => Just(Step::Loss),
        1 => (0u32..=3).prop_map(Step::Rto),
        1 => Just(Step::Undo),
        2 => (0u32..=60).prop_map(Step::Send),
        1 => prop::option::of(0u64..5_000_000).prop_map(Step::Idle),
    ];
    (gap, kind)
}

/// The settings of a script: `set` lines before `init`.
fn settings() -> impl Strategy<Value = String> {
    (
        0u8..=3,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(0u32), 1_000u32..150_000],
        0u8..=2,
        1u32..=20,
        prop_oneof![Just(717u32), 100u32..1000],
        prop_oneof![Just(0u32), 2u32..100],
    )
        .prop_map(
            |(detect, hystart, fast_conv, friendly, srtt, pacing, iw, beta, initial_ssthresh)| {
                format!(
                    "set hystart_detect {detect}\nset hystart {}\nset fast_convergence {}\n\
                     set tcp_friendliness {}\nset srtt_us {srtt}\nset pacing_status {pacing}\n\
                     set init_cwnd {iw}\nset beta {beta}\nset initial_ssthresh {initial_ssthresh}\n",
                    u8::from(hystart),
                    u8::from(fast_conv),
                    u8::from(friendly)
                )
            },
        )
}

/// The script: the events fitted to the harness's socket as the conformance README
/// defines it (an ACK covers at most what was sent, `rto N` retransmits at most what
/// is outstanding), staying on the paths the README says the harness shares with the
/// kernel (no ACK of nothing while nothing is outstanding).
fn script(settings: &str, start_us: u64, steps: &[(u64, Step)]) -> String {
    let mut text = settings.to_owned();
    let (mut t, mut snd_una, mut snd_nxt, mut packets_out) = (start_us, 0u32, 10u32, 10u32);
    text.push_str(&format!("init {t} {packets_out}\n"));
    for (gap, step) in steps {
        t += gap;
        match step {
            Step::Ack {
                share,
                rtt_us,
                in_flight,
            } => {
                let sent = snd_nxt - snd_una;
                let mut acked = if sent == 0 { 0 } else { share % (sent + 1) };
                if packets_out == 0 && acked == 0 {
                    if sent == 0 {
                        continue;
                    }
                    acked = 1;
                }
                snd_una += acked;
                let rtt = rtt_us.map_or(-1, i64::from);
                text.push_str(&format!("ack {t} {acked} {rtt} {in_flight}\n"));
                packets_out = *in_flight;
                snd_nxt = snd_nxt.max(snd_una + in_flight);
            }
            Step::Loss => text.push_str(&format!("loss {t}\n")),
            Step::Rto(n) => {
                let n = (*n).min(snd_nxt - snd_una);
                text.push_str(&format!("rto {t} {n}\n"));
                packets_out = n;
            }
            Step::Undo => text.push_str(&format!("undo {t}\n")),
            Step::Send(n) => {
                text.push_str(&format!("send {t} {n}\n"));
                packets_out += n;
                snd_nxt = snd_nxt.max(snd_una + packets_out);
            }
            Step::Idle(ago) => match ago {
                Some(ago) => text.push_str(&format!("idle {t} {}\n", t.saturating_sub(*ago))),
                None => text.push_str(&format!("idle {t}\n")),
            },
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Beyond the traces: on any script of the harness's events the packed
    /// `linux::Cubic` and `TcpFlow<CubicOps>` on the generic glue print the same CSV.
    #[test]
    fn the_packed_flow_and_the_hooks_on_the_glue_agree_on_any_script(
        settings in settings(),
        start_us in prop_oneof![Just(0u64), Just(1_000_000u64), Just((u64::from(u32::MAX) - 10_000) * 1000)],
        steps in prop::collection::vec(step(), 1..300),
    ) {
        let text = script(&settings, start_us, &steps);
        let packed = replay::replay(&text).expect("packed replay");
        let glue = replay::replay_cubic_on_glue(&text).expect("glue replay");
        let diff = replay::first_difference("generated", &glue, &packed);
        prop_assert!(diff.is_none(), "{}\n{}", diff.unwrap_or_default(), text);
    }
}
