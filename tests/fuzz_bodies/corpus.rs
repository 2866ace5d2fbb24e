//! Turns a Linux reference trace into a fuzz input that `linux::run` decodes back into
//! (nearly) the same events: the seed corpus for `cargo fuzz`, so fuzzing starts from
//! the paths the kernel's own traces take.

/// Default-configured prefix: beta 717, bic_scale 41, fast convergence, friendliness,
/// HyStart with both detectors, low window 16, no initial_ssthresh, no clamp, IW10,
/// srtt 20 ms, no pacing, MSS 1448, ISS 0. Byte layout as `linux::flow_from` reads it.
fn config_prefix() -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&717u16.to_le_bytes());
    v.extend_from_slice(&41u16.to_le_bytes());
    v.push(1 | 2 | 4 | (3 << 3));
    v.push(16);
    v.push(0);
    v.push(0); // clamp: u32::MAX
    v.push(10);
    v.extend_from_slice(&2500u16.to_le_bytes()); // 2500 * 8 = 20 ms
    v.push(0);
    v.extend_from_slice(&1448u16.to_le_bytes());
    v.extend_from_slice(&0u32.to_le_bytes());
    v
}

/// Encodes a time step of `dt_us` (non-negative).
fn time_step(out: &mut Vec<u8>, dt_us: u64) {
    if dt_us <= u64::from(u16::MAX) {
        out.push(3);
        out.extend_from_slice(&(dt_us as u16).to_le_bytes());
    } else {
        out.push(1);
        out.extend_from_slice(
            &u32::try_from(dt_us / 1000)
                .unwrap_or(u32::MAX)
                .to_le_bytes(),
        );
    }
}

/// Encodes an amount as `Bytes::amount(1)` decodes it.
fn amount(out: &mut Vec<u8>, n: u64) {
    if n == 0 {
        out.push(0);
    } else if n < 64 {
        out.extend_from_slice(&[3, n as u8]);
    } else {
        out.push(1);
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
}

/// Encodes an RTT as `Bytes::rtt_us` decodes it (rounded to 4 µs below 262 ms).
fn rtt(out: &mut Vec<u8>, rtt_us: i64) {
    match rtt_us {
        r if r < 0 => out.push(0),
        0 => out.push(1),
        r if r < 262_140 => {
            out.push(5);
            out.extend_from_slice(&((r / 4) as u16).to_le_bytes());
        }
        r => {
            out.push(4);
            out.extend_from_slice(&((r / 1000) as u32).to_le_bytes());
        }
    }
}

/// The fuzz input for a `.events` trace (events it cannot express are skipped).
pub fn from_trace(text: &str) -> Vec<u8> {
    let mut out = config_prefix();
    let mut last_t = 0u64;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&kw, args)) = words.split_first() else {
            continue;
        };
        let num = |i: usize| args.get(i).and_then(|w| w.parse::<i64>().ok()).unwrap_or(0);
        if kw == "set" || kw.starts_with('#') {
            continue;
        }
        let t = u64::try_from(num(0)).unwrap_or(0);
        time_step(&mut out, t.saturating_sub(last_t));
        last_t = t;
        // Op codes as `linux::run` decodes them (the byte modulo 16).
        match kw {
            "ack" => {
                out.push(0);
                amount(&mut out, num(1) as u64);
                rtt(&mut out, num(2));
                // The response: what is in flight afterwards, at the same instant, as
                // the stack counts it (`SentEvent::new`).
                time_step(&mut out, 0);
                out.push(6);
                amount(&mut out, num(3) as u64);
                out.push(1);
            }
            "init" | "send" => {
                out.push(6);
                amount(&mut out, num(1).max(10) as u64);
                out.push(1);
            }
            // One unnamed congestion event of nothing lost (`LossEvent::episode(0)`),
            // as a bare `loss T` line replays.
            "loss" => out.extend_from_slice(&[9, 0, 0]),
            "rto" => out.push(12),
            "undo" => out.push(14),
            _ => out.push(15),
        }
    }
    out
}
