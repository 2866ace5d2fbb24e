//! Replays every reference trace of the Linux 2.6.35 profile (tests/data/linux-2.6.35,
//! copied from shared/conformance/linux-2.6.35) and requires every column of every row
//! to match; plus hand-worked scripts for the events those traces do not exercise.

mod replay;

/// The folder of this profile's traces under tests/data.
const FOLDER: &str = "linux-2.6.35";

fn expected_csv(name: &str) -> String {
    replay::expected_csv(FOLDER, name)
}

fn events(name: &str) -> String {
    replay::events(FOLDER, name)
}

fn replay_2635(text: &str) -> Result<String, String> {
    replay::replay_kernel(text, replay::Kernel::V2_6_35)
}

#[test]
fn all_8_reference_traces_replay_bit_exactly() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(
        names.len(),
        8,
        "expected the 8 shipped traces, found {names:?}"
    );
    let (rows, failures) = replay::replay_folder(FOLDER, &names, replay::Kernel::V2_6_35);
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Events per the README's scenario table: 2813 + 2606 + 10241 * 2 + 6000 + 759 +
    // 1949 + 6000.
    assert_eq!(rows, 40_609);
}

#[test]
fn a_changed_hz_or_beta_changes_the_replay() {
    // Guards the comparison itself.
    let name = "ca_cycles_fastconv_on";
    let want = expected_csv(name);
    let text = events(name);
    for change in ["set beta 512\n", "set hz 1000\n"] {
        // Appending after the trace's own settings but before init.
        let changed = text.replacen("init ", &format!("{change}init "), 1);
        let got = replay_2635(&changed).expect("replay");
        assert!(
            replay::first_difference(name, &got, &want).is_some(),
            "{change}"
        );
    }
}

/// The cells of row `row` (1-based event index) of a replay, by column name.
fn row(csv: &str, row: usize) -> impl Fn(&str) -> String + '_ {
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let cells: Vec<&str> = csv.lines().nth(row).expect("row").split(',').collect();
    move |col: &str| {
        let i = header.iter().position(|h| *h == col).expect("column");
        cells[i].to_owned()
    }
}

#[test]
fn rows_before_init_are_zero_with_no_rtt_and_an_event_runs_an_implicit_init() {
    let csv = replay_2635("set hz 250\nack 1000000000 1 -1 3\n").expect("replay");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[1], format!("1,set{},-1,0", ",0".repeat(31)));
    // Implicit init at T = 1000 s, IW2, X(2); then an ACK of 1 with no RTT: +1.
    let r = row(&csv, 2);
    assert_eq!(r("jiffies"), "250000");
    assert_eq!(r("cwnd"), "3");
    assert_eq!(r("rtt_us_passed"), "-1");
    assert_eq!(r("snd_una"), "1");
}

#[test]
fn an_rtt_under_one_jiffy_is_no_sample_and_a_long_one_is_whole_jiffies() {
    // HZ=1000, start at 1000 s. ACK at 1000.0105 s with R = 400 us: both ends in the same
    // jiffy 1000010 -> ca_seq_rtt 0 -> -1. R = 1 us at a jiffy boundary: 1000011 -
    // 1000010 = 1 jiffy -> 1000 us. R = 30 s -> 30,000 jiffies -> 30,000,000 us.
    let csv = replay_2635(
        "init 1000000000 10\n\
         ack 1000010500 1 400 10\n\
         ack 1000011000 1 1 10\n\
         ack 1001011000 1 30000000 10\n",
    )
    .expect("replay");
    assert_eq!(row(&csv, 2)("rtt_us_passed"), "-1");
    assert_eq!(row(&csv, 3)("rtt_us_passed"), "1000");
    assert_eq!(row(&csv, 4)("rtt_us_passed"), "30000000");
    // With epoch_start 0, (s32)(1000011 - 0) is far above HZ, so the samples count:
    // delay_min = 1 jiffy << 3 = 8, kept against the 30 s one.
    assert_eq!(row(&csv, 4)("delay_min"), "8");
}

#[test]
fn rtt_samples_are_dropped_while_jiffies_are_in_the_upper_half_before_any_epoch() {
    // 6 s before the u32 jiffies wrap at HZ=1000: jiffies >= 2^31, epoch_start 0, so
    // (s32)(jiffies - 0) < 0 < HZ: every sample is dropped and delay_min stays 0.
    let start_us = ((1u64 << 32) - 6000) * 1000;
    let text = format!(
        "init {start_us} 10\nack {} 1 18000 10\nack {} 1 18000 10\n",
        start_us + 18_000,
        start_us + 7_000_000
    );
    let csv = replay_2635(&text).expect("replay");
    assert_eq!(row(&csv, 2)("rtt_us_passed"), "18000");
    assert_eq!(row(&csv, 2)("delay_min"), "0");
    // After the wrap jiffies = 1000: (s32)(1000 - 0) = 1000, not < 1000, so it counts.
    assert_eq!(row(&csv, 3)("jiffies"), "1000");
    assert_eq!(row(&csv, 3)("delay_min"), "144");
}

#[test]
fn rto_then_undo_follows_the_readme_socket_model() {
    // IW10 at 1000 s, HZ=1000. rto: Open -> ssthresh = max(10*717/1024, 2) = 7,
    // prior_ssthresh = max(2^31-1, 7) = 2147483647, cwnd 1, Loss, 1 retransmit.
    let csv = replay_2635(
        "set hystart 0\n\
         set init_cwnd 10\n\
         init 1000000000 10\n\
         rto 1000300000\n\
         rto 1000900000\n\
         undo 1001000000\n",
    )
    .expect("replay");
    let r = row(&csv, 4);
    assert_eq!(
        [
            "cwnd",
            "ssthresh",
            "ca_state",
            "prior_ssthresh",
            "undo_marker",
            "retransmits",
            "packets_out",
            "high_seq",
            "last_max_cwnd",
            "loss_cwnd"
        ]
        .map(&r),
        ["1", "7", "4", "2147483647", "1", "1", "1", "10", "0", "0"]
    );
    // The Loss state reset CUBIC: Wmax and loss_cwnd are 0 again (bictcp_state).
    // Second RTO: Loss with retransmits 1 and snd_una 0 != high_seq 10: ssthresh kept,
    // undo no longer possible (something was retransmitted).
    let r = row(&csv, 5);
    assert_eq!(
        ["cwnd", "ssthresh", "undo_marker", "retransmits"].map(&r),
        ["1", "7", "0", "2"]
    );
    // Undo does nothing without the marker.
    assert_eq!(row(&csv, 6)("cwnd"), "1");
    assert_eq!(row(&csv, 6)("ca_state"), "4");
}

#[test]
fn undo_after_an_rto_does_not_restore_the_window_but_ends_loss() {
    let csv = replay_2635(
        "set hystart 0\n\
         init 1000000000 10\n\
         rto 1000300000\n\
         undo 1000400000\n",
    )
    .expect("replay");
    // prior_ssthresh != 0: cwnd = max(1, Wmax 0) = 1; ssthresh back to 2^31 - 1;
    // moderate: min(1, 1 + 3) = 1; Loss -> Open, retransmits 0.
    let r = row(&csv, 4);
    assert_eq!(
        ["cwnd", "ssthresh", "ca_state", "undo_marker", "retransmits"].map(&r),
        ["1", "2147483647", "0", "0", "0"]
    );
}

#[test]
fn loss_reduces_enters_disorder_and_undo_is_capped_by_the_flight() {
    // cwnd 100 in flight 100 (set by init's transmit): loss -> ssthresh 100*717/1024 =
    // 70, prior_ssthresh max(2^31 - 1, 75), cwnd 70, Disorder, high_seq = snd_nxt = 100,
    // moderate min(70, 100 + 3) = 70.
    let csv = replay_2635(
        "set hystart 0\n\
         set init_cwnd 100\n\
         init 1000000000 100\n\
         loss 1000100000\n\
         ack 1000110000 10 100000 60\n\
         undo 1000120000\n\
         ack 1000130000 90 100000 0\n",
    )
    .expect("replay");
    let r = row(&csv, 4);
    assert_eq!(
        [
            "cwnd",
            "ssthresh",
            "ca_state",
            "prior_ssthresh",
            "high_seq",
            "last_max_cwnd",
            "loss_cwnd"
        ]
        .map(&r),
        ["70", "70", "1", "2147483647", "100", "100", "100"]
    );
    // ACK 10 in Disorder: no delayed_ack update (not Open); cwnd 70 <= ssthresh 70 so
    // slow start +1 = 71 (prior flight 100 >= cwnd); then moderate min(71, 90 + 3) = 71.
    let r = row(&csv, 5);
    assert_eq!(
        ["cwnd", "ca_state", "delayed_ack"].map(&r),
        ["71", "1", "32"]
    );
    // Undo: cwnd = max(71, Wmax 100) = 100, ssthresh back to 2^31 - 1; moderate
    // min(100, 60 + 3) = 63.
    let r = row(&csv, 6);
    assert_eq!(
        ["cwnd", "ssthresh", "undo_marker"].map(&r),
        ["63", "2147483647", "0"]
    );
    // Slow start 63 -> 64 (left 3: TSO deferral); snd_una reaches high_seq 100:
    // Disorder -> Open, then moderate min(64, 0 + 3) = 3.
    let r = row(&csv, 7);
    assert_eq!(["ca_state", "cwnd"].map(&r), ["0", "3"]);
}

#[test]
fn send_and_gso_settings_reach_the_window_use_test() {
    // cwnd 20, 14 in flight: left 6. With GSO and MSS 1448: 18 < 20 and 8688 < 65536,
    // cwnd-limited: slow start grows. Without GSO: 6 > reordering 3: no growth.
    for (gso, want) in [(1, "21"), (0, "20")] {
        let text = format!(
            "set gso {gso}\nset mss 1448\nset init_cwnd 20\nset hystart 0\n\
             init 1000000000 13\nsend 1000000100 1\nack 1000020000 1 20000 13\n"
        );
        let csv = replay_2635(&text).expect("replay");
        assert_eq!(row(&csv, 6)("packets_out"), "14");
        assert_eq!(row(&csv, 7)("cwnd"), want, "gso {gso}");
    }
}

#[test]
fn iss_and_reordering_are_socket_settings() {
    let csv = replay_2635(
        "set iss 4294967290\nset reordering 5\nset hystart 0\nset init_cwnd 10\n\
         init 1000000000 10\nloss 1000100000\nack 1000110000 8 100000 0\n",
    )
    .expect("replay");
    // snd_nxt wraps: 4294967290 + 10 = 4.
    assert_eq!(row(&csv, 5)("snd_nxt"), "4");
    // After the loss cwnd = ssthresh = 7; the ACK leaves 2 in flight: Disorder
    // continues (before high_seq), slow start 7 -> 8, moderate min(8, 2 + 5) = 7.
    let r = row(&csv, 7);
    assert_eq!(["snd_una", "cwnd", "ca_state"].map(&r), ["2", "7", "1"]);
}

#[test]
fn bad_settings_and_unknown_events_are_reported_with_their_line() {
    assert!(replay_2635("set hz 300\n").unwrap_err().contains("line 1"));
    assert!(replay_2635("set hz 300\n").unwrap_err().contains("hz"));
    assert!(
        replay_2635("\nset nonsense 1\n")
            .unwrap_err()
            .contains("line 2")
    );
    assert!(
        replay_2635("idle 5\n")
            .unwrap_err()
            .contains("unknown event")
    );
}

#[test]
fn without_kernel_the_replay_is_todays() {
    assert_eq!(replay::Kernel::parse("6"), Ok(replay::Kernel::Today));
    assert!(replay::Kernel::parse("2.6.36").is_err());
    let text = "ack 1000 2 1000 12\n";
    assert_eq!(
        replay::replay_kernel(text, replay::Kernel::Today),
        replay::replay(text)
    );
}
