//! The command line: flags for one run, and the seed presets as subcommands.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::app::AppModel;
use crate::aqm::DUALPI2_LIMIT_PACKETS;
use crate::config::{
    Amount, AqmKind, CcKind, DEFAULT_AUTOTUNE_MAX_BYTES, DEFAULT_HZ, DEFAULT_UPTIME_NS, Kernel,
    SimConfig, SizeGoal, SlowStart, TsoMode, TsqMode, VALID_HZ, WindowMode, least_autotuned_buffer,
    quickacks_for, rcv_ssthresh_growth_for, receiver_hz_for,
};
use crate::units::{
    parse_bytes, parse_duration_ns, parse_mtu, parse_positive_duration_ns, parse_probability,
    parse_rate, parse_rtt_ns,
};

/// ccsim: replay TCP transfers over a simulated path, with the `congestion` crate as
/// the sender's congestion control. Output as nuttcp prints it.
#[derive(Parser, Debug)]
#[command(name = "ccsim", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A seed experiment to replay; without one, a single run set by the flags.
    #[command(subcommand)]
    pub preset: Option<Preset>,
    /// The single run's settings.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Scenario presets that reproduce the seed documents.
#[derive(Subcommand, Debug)]
pub enum Preset {
    /// Seed 000: Bill Fink's 8 GB transfers, 10 GbE, 18 and 80 ms, HyStart on/off,
    /// autotuned and -w 40m/100m socket buffers (both tables: HZ=250 with timestamps,
    /// HZ=1000 without).
    Fink2011(PresetArgs),
    /// Seed 002: Eric Dumazet's tcp_limit_output_bytes sweep, 16 KB..1 MB, 10 GbE and 1 GbE.
    Tsq2012(PresetArgs),
    /// Seed 004: the 2005 10 GbE TSO thread, 2 MB and 5 MB windows, large fixed TSO
    /// bursts against autosized ones.
    Tso2005(PresetArgs),
    /// Seeds 000 and 002 under BBR: BBR v1 and v3 beside today's CUBIC + HyStart on
    /// seed 000's 10 GbE paths (18 and 80 ms) and on seed 002's TSQ sweep. Every BBR
    /// figure is a prediction: the seeds hold no BBR measurement.
    Bbr2011(PresetArgs),
    /// The point of L4S: TCP Prague and CUBIC, one at a time, on the same RFC 9332
    /// DualQ path (dualpi2's defaults, 100 Mbit/s, 20 ms): queueing delay and
    /// utilisation of each.
    L4s(PresetArgs),
}

/// Options of a preset.
#[derive(Args, Debug)]
pub struct PresetArgs {
    /// Directory for the SVG plots.
    #[arg(long, default_value = "ccsim-out")]
    pub out: PathBuf,
    /// Print events processed per second for each run.
    #[arg(long)]
    pub stats: bool,
    /// The sender's controller: cubic (Linux-mode CUBIC, the seeds' own, default) or
    /// cubic-rfc (RFC 9438 CUBIC in bytes), whose "HyStart on" runs use RFC 9406
    /// HyStart++. The 0.2 words linux and rfc9438 still work this release.
    #[arg(long, default_value = "cubic", value_parser = parse_cc)]
    pub cc: String,
    /// How the --kernel 2.6.35 runs' writer sizes its skbs (fink2011's 2.6.35 column;
    /// the other presets have no 2.6.35 runs): gso (default) or half-window, as for a
    /// single run.
    #[arg(long, default_value = "gso", value_parser = ["gso", "half-window"])]
    pub size_goal: String,
    /// The qdisc's limit in skbs (txqueuelen) of every run's sender host, instead of
    /// the preset's (1000); at least 1.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub txqueuelen: Option<u32>,
    /// The receive buffer every autotuned run's receiver starts from (`tcp_rmem[1]`),
    /// bytes, instead of the kernel's default 87380 (the seeds do not give their
    /// receivers'); as for a single run.
    #[arg(long, value_parser = parse_bytes, allow_hyphen_values = true)]
    pub rmem_default: Option<u64>,
}

impl Preset {
    /// The flags every preset takes.
    pub fn args(&self) -> &PresetArgs {
        match self {
            Preset::Fink2011(a)
            | Preset::Tsq2012(a)
            | Preset::Tso2005(a)
            | Preset::Bbr2011(a)
            | Preset::L4s(a) => a,
        }
    }
}

impl PresetArgs {
    /// Apply the host flags (`--size-goal` where the run is a 2.6.35 host with whole
    /// TSO skbs, `--txqueuelen`, and `--rmem-default` where the run autotunes) to a
    /// preset's configuration.
    pub fn apply_host(&self, mut cfg: SimConfig) -> SimConfig {
        if self.size_goal == "half-window" && cfg.tso_defer() {
            cfg.size_goal = SizeGoal::HalfWindow;
        }
        if let Some(q) = self.txqueuelen {
            cfg.txqueuelen = q;
        }
        if let (Some(b), WindowMode::Auto { .. }) = (self.rmem_default, cfg.window) {
            cfg.rmem_default_bytes = Some(b);
        }
        cfg
    }

    /// Apply the host flags and `--cc` to a preset's configuration: RFC mode replaces
    /// Linux HyStart by HyStart++ (standard slow start stays standard).
    pub fn apply(&self, cfg: SimConfig) -> SimConfig {
        let mut cfg = self.apply_host(cfg);
        if self.cc == "cubic-rfc" {
            cfg.cc = CcKind::Rfc9438;
            if cfg.slow_start == SlowStart::Hystart {
                cfg.slow_start = SlowStart::HystartPp;
            }
        }
        cfg
    }
}

/// Flags of a single run.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Bottleneck rate, bit/s, above 0 (k/m/g/t = 10^3/10^6/10^9/10^12), e.g. 10g,
    /// 2.5g, 100mbit.
    #[arg(long, default_value = "10g", value_parser = parse_rate, allow_hyphen_values = true)]
    pub rate: u64,
    /// The sender NIC's rate, bit/s; default: --rate (the host queue is then the
    /// bottleneck's queue, as in the TSQ seed).
    #[arg(long, value_parser = parse_rate, allow_hyphen_values = true)]
    pub nic_rate: Option<u64>,
    /// Base round-trip time, above 0 and at most 1 h, with its unit: e.g. 80ms, 500us,
    /// 1h (half each way).
    #[arg(long, default_value = "20ms", value_parser = parse_rtt_ns, allow_hyphen_values = true)]
    pub rtt: u64,
    /// IP MTU, 68 to 65535 bytes (MSS = MTU - 52 with TCP timestamps).
    #[arg(long, default_value = "1500", value_parser = parse_mtu, allow_hyphen_values = true)]
    pub mtu: u32,
    /// Bottleneck drop-tail buffer, bytes (k/m/g or KiB/MiB/GiB = 2^10/2^20/2^30;
    /// kB/MB/GB = 10^3/10^6/10^9); default: one bandwidth-delay product.
    #[arg(long, value_parser = parse_bytes, allow_hyphen_values = true)]
    pub buffer: Option<u64>,
    /// Send this many bytes (nuttcp -n), e.g. 8g, 1.5g.
    #[arg(long, short = 'n', value_parser = parse_bytes, conflicts_with = "time", allow_hyphen_values = true)]
    pub bytes: Option<u64>,
    /// Send for this long (nuttcp -T), e.g. 10s; the default when --bytes is absent.
    #[arg(long, short = 'T', value_parser = parse_positive_duration_ns, allow_hyphen_values = true)]
    pub time: Option<u64>,
    /// The application writes at most this rate, bit/s (nuttcp -R), e.g. 50m;
    /// absent: bulk, as fast as the socket takes it.
    #[arg(long, value_parser = parse_rate, conflicts_with = "on_off", allow_hyphen_values = true)]
    pub app_rate: Option<u64>,
    /// The application alternates ON,OFF: data for ON, nothing for OFF, e.g.
    /// 200ms,1s (each off period makes the flow idle and restart).
    #[arg(long)]
    pub on_off: Option<String>,
    /// Socket buffer, bytes, as nuttcp -w (Linux doubles it, 3/4 of that is window),
    /// 2·MSS to 715816960 (682.7 MiB, whose window is the largest window scale 14
    /// advertises); absent: autotuning.
    #[arg(short = 'w', value_parser = parse_bytes, allow_hyphen_values = true)]
    pub window: Option<u64>,
    /// Autotuning's largest socket buffer (`tcp_rmem[2]`/`tcp_wmem[2]`), bytes: 8/3·MSS
    /// (its window, 3/4 of it, holds two segments) to 1431633920 (1365.3 MiB, whose
    /// window is the largest window scale 14 advertises).
    #[arg(long, default_value_t = DEFAULT_AUTOTUNE_MAX_BYTES, value_parser = parse_bytes, allow_hyphen_values = true)]
    pub autotune_max: u64,
    /// The receive buffer autotuning starts from (`tcp_rmem[1]`), bytes: 3/4 of it is
    /// the receiver's first window. At least 8/3·MSS and at most --autotune-max;
    /// default 87380, the Linux default before 4.20 (the seeds' kernels). Not with -w.
    #[arg(long, value_parser = parse_bytes, allow_hyphen_values = true)]
    pub rmem_default: Option<u64>,
    /// Which Linux kernel's CUBIC + HyStart decides cwnd (Linux mode): 6 (today's) or
    /// 2.6.35 (the seed-000 kernel, HyStart in jiffies; its host: no TSQ, 64 KiB TSO
    /// bursts with deferral, unless --tsq-limit/--tso say otherwise; its receiver:
    /// window opened by tcp_grow_window, autotuning timed with its own RTT estimate in
    /// jiffies, from --timestamps and per window, delayed ACKs on its jiffies timer
    /// with the kernel's adaptive timeout).
    #[arg(long, default_value = "6", value_parser = parse_kernel)]
    pub kernel: Kernel,
    /// Kernel timer frequency for --kernel 2.6.35 (its HyStart, its receiver's
    /// autotuning and its delayed ACKs count jiffies): 100, 250 or 1000; default 250.
    /// Today's kernel has no use for it.
    #[arg(long, value_parser = parse_hz)]
    pub hz: Option<u32>,
    /// How long the --kernel 2.6.35 host has been up when the transfer starts, e.g.
    /// 1000s, 1000.002s, 3d (0 s to 20 days; default 1000 s, the first send on a tick): sets
    /// the phase of its jiffies ticks, which its HyStart and TSO deferral count.
    #[arg(long, value_parser = parse_duration_ns)]
    pub uptime: Option<u64>,
    /// Congestion control: cubic (Linux-mode CUBIC, default), cubic-rfc (RFC 9438 CUBIC
    /// in bytes), newreno-rfc (RFC 9002 NewReno in bytes), or the Linux-mode flows
    /// bbr (BBR v1), bbr3 (BBRv3), dctcp, prague (TCP Prague), and their RFC-mode
    /// counterparts in bytes bbr3-rfc (draft-ietf-ccwg-bbr), dctcp-rfc, prague-rfc
    /// (BBR, BBRv3 and Prague always pace, in both modes). The 0.2 words linux and
    /// rfc9438 still work this release.
    #[arg(long, default_value = "cubic", value_parser = parse_run_cc)]
    pub cc: String,
    /// The bottleneck's AQM: droptail (default), step:DURATION (L4S step marking: CE
    /// when a packet's sojourn exceeds DURATION, e.g. step:1ms), or dualq (RFC 9332
    /// coupled DualQ with Linux dualpi2's defaults: target 15ms, tupdate 16ms, alpha
    /// 0.16, beta 3.2, k 2, L4S step 1ms; its buffer is dualpi2's limit, 10000
    /// packets, unless --buffer says otherwise), or pi2 (a classic single-queue AQM:
    /// dualpi2's PI core alone, p'² marking with the 15ms target, ECT(0) and ECT(1)
    /// alike, as an RFC 3168 AQM; the same buffer). A not-ECT packet is dropped where
    /// an ECT one would be marked.
    #[arg(long, default_value = "droptail", value_parser = parse_aqm)]
    pub aqm: AqmKind,
    /// ECN: on (default; prague sends ECT(1), cubic, the RFC-mode controllers and
    /// dctcp ECT(0); bbr and bbr3 send not-ECT) or off (every packet not-ECT). CE marks
    /// come back as AccECN counts: dctcp, prague and bbr3 read them, the others make
    /// one classic reduction per window (RFC 3168).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub ecn: String,
    /// prague-rfc's classic-ECN bottleneck detection (RFC 9331 §4.3): on (default; on
    /// a detected classic ECN queue a CE halves the window) or off (always scalable).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub classic_ecn_fallback: String,
    /// Slow-start exit: off, hystart (Linux) or hystartpp (RFC 9406).
    #[arg(long, default_value = "hystart", value_parser = ["off", "hystart", "hystartpp"])]
    pub slow_start: String,
    /// TCP pacing (EDT): on or off.
    #[arg(long, default_value = "off", value_parser = ["on", "off"])]
    pub pacing: String,
    /// TCP timestamps (tcp_timestamps): on or off. Off frees 12 bytes per segment
    /// (MSS = MTU - 40) and leaves a --kernel 2.6.35 receiver only its per-window RTT
    /// samples (seed 000's HZ=1000 table ran without).
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    pub timestamps: String,
    /// TSQ limit: auto (current Linux), off, or a fixed tcp_limit_output_bytes in
    /// bytes as the 2012 patch (e.g. 128k).
    #[arg(long, default_value = "auto")]
    pub tsq_limit: String,
    /// TSO burst size: auto (tcp_tso_autosize), off (1 segment), or a segment count.
    #[arg(long, default_value = "auto")]
    pub tso: String,
    /// How the --kernel 2.6.35 writer sizes its skbs: gso (every skb a whole GSO skb,
    /// default) or half-window (bounded to half the largest window the receiver has
    /// advertised when the data is written, tcp_bound_to_half_wnd).
    #[arg(long, default_value = "gso", value_parser = ["gso", "half-window"])]
    pub size_goal: String,
    /// Delay from a burst leaving the NIC to its TX completion, e.g. 100us.
    #[arg(long, default_value = "100us", value_parser = parse_duration_ns, allow_hyphen_values = true)]
    pub tx_completion: u64,
    /// The qdisc's limit in skbs (txqueuelen), at least 1; when full, Linux enters CWR.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true)]
    pub txqueuelen: u32,
    /// The receiver ACKs every N full segments (2: delayed ACKs; more: stretch ACKs).
    #[arg(long, default_value_t = 2, allow_hyphen_values = true)]
    pub ack_ratio: u32,
    /// Random loss probability at the bottleneck, in [0, 1): e.g. 0.0001 (or 0.01%).
    #[arg(long, default_value = "0", value_parser = parse_probability, allow_hyphen_values = true)]
    pub loss: f64,
    /// Largest extra one-way delay (uniform), e.g. 1ms; never reorders.
    #[arg(long, default_value = "0s", value_parser = parse_duration_ns, allow_hyphen_values = true)]
    pub jitter: u64,
    /// PRNG seed for loss and jitter.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub seed: u64,
    /// Report interval with its unit (nuttcp -i), e.g. 1s; at least 10ms (the lines
    /// print hundredths of a second).
    #[arg(short = 'i', value_parser = parse_positive_duration_ns, allow_hyphen_values = true)]
    pub interval: Option<u64>,
    /// Write a per-ACK trace as CSV: time, cwnd, ssthresh, phase, segments in flight, RTT
    /// sample, pacing rate, bytes queued, and the receive window the ACK advertised.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write cwnd, throughput and RTT against time as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Print events processed and events per second (on stderr).
    #[arg(long)]
    pub stats: bool,
}

impl RunArgs {
    /// The configuration these flags describe.
    pub fn to_config(&self) -> Result<SimConfig, String> {
        let mut c = SimConfig::new();
        c.rate_bps = self.rate;
        c.nic_rate_bps = self.nic_rate.unwrap_or(self.rate);
        c.rtt_ns = self.rtt;
        c.mtu = self.mtu;
        // Before anything reads the MSS: timestamps take 12 bytes of each segment.
        c.timestamps = self.timestamps == "on";
        c.aqm = self.aqm;
        c.ecn = self.ecn == "on";
        c.classic_ecn_fallback = self.classic_ecn_fallback == "on";
        c.buffer_bytes = match (self.buffer, self.aqm) {
            (Some(b), _) => b,
            (None, AqmKind::DualQ | AqmKind::Pi2) => {
                DUALPI2_LIMIT_PACKETS * u64::from(c.wire_bytes())
            }
            (None, _) => c.bdp_bytes().max(u64::from(c.wire_bytes()) * 4),
        };
        c.amount = match (self.bytes, self.time) {
            (Some(b), _) => Amount::Bytes(b),
            (None, Some(t)) => Amount::TimeNs(t),
            (None, None) => Amount::TimeNs(10_000_000_000),
        };
        c.app = match (self.app_rate, self.on_off.as_deref()) {
            (Some(bps), _) => AppModel::RateLimited { bps },
            (None, Some(spec)) => {
                let (on, off) = spec
                    .split_once(',')
                    .ok_or_else(|| format!("--on-off: expected ON,OFF durations, got {spec}"))?;
                let duration = |d| parse_duration_ns(d).map_err(|e| format!("--on-off: {e}"));
                AppModel::OnOff {
                    on_ns: duration(on)?,
                    off_ns: duration(off)?,
                }
            }
            (None, None) => AppModel::Bulk,
        };
        c.window = match self.window {
            Some(w) => {
                congestion_units::limits::check_socket_buffer(w, u64::from(c.mss()))
                    .map_err(|e| format!("-w: {e}"))?;
                WindowMode::Fixed(w)
            }
            None => {
                check_autotune_max(self.autotune_max, u64::from(c.mss()))?;
                WindowMode::Auto {
                    max_bytes: self.autotune_max,
                }
            }
        };
        match (self.rmem_default, self.window) {
            (Some(_), Some(_)) => {
                return Err("--rmem-default sets where autotuning starts: -w fixes the \
                            buffer instead, so use one or the other"
                    .into());
            }
            (Some(b), None) => c.rmem_default_bytes = Some(b),
            (None, _) => {}
        }
        c.kernel = self.kernel;
        c.hz = match (self.kernel, self.hz) {
            (Kernel::Linux2635, hz) => hz.unwrap_or(DEFAULT_HZ),
            (Kernel::Linux6, None) => DEFAULT_HZ,
            (Kernel::Linux6, Some(_)) => {
                return Err(
                    "--hz is only meaningful with --kernel 2.6.35 (today's kernel \
                            times HyStart in microseconds)"
                        .into(),
                );
            }
        };
        c.uptime_ns = match (self.kernel, self.uptime) {
            (Kernel::Linux2635, u) => u.unwrap_or(DEFAULT_UPTIME_NS),
            (Kernel::Linux6, None) => DEFAULT_UPTIME_NS,
            (Kernel::Linux6, Some(_)) => {
                return Err("--uptime is only meaningful with --kernel 2.6.35 (today's \
                            kernel has no jiffies in its HyStart)"
                    .into());
            }
        };
        // The receiver is of the same era as the sender (its quick ACKs at start).
        c.quickacks = quickacks_for(c.kernel, c.mss());
        c.rcv_ssthresh_growth = rcv_ssthresh_growth_for(c.kernel, c.mss());
        c.receiver_hz = receiver_hz_for(c.kernel, c.hz);
        c.cc = cc_kind(&self.cc);
        c.slow_start = match self.slow_start.as_str() {
            "off" => SlowStart::Off,
            "hystartpp" => SlowStart::HystartPp,
            _ => SlowStart::Hystart,
        };
        c.pacing = self.pacing == "on";
        c.tsq = match self.tsq_limit.as_str() {
            "auto" => TsqMode::Auto,
            "off" => TsqMode::Off,
            b => TsqMode::Fixed(parse_bytes(b).map_err(|e| format!("--tsq-limit: {e}"))?),
        };
        c.tso = match self.tso.as_str() {
            "auto" => TsoMode::Auto,
            "off" => TsoMode::Off,
            n => TsoMode::Segs(
                n.parse()
                    .map_err(|_| format!("--tso: not auto, off or a count: {n}"))?,
            ),
        };
        c.size_goal = if self.size_goal == "half-window" {
            SizeGoal::HalfWindow
        } else {
            SizeGoal::Gso
        };
        c.tx_completion_ns = self.tx_completion;
        c.txqueuelen = self.txqueuelen;
        c.ack_ratio = self.ack_ratio;
        c.loss = self.loss;
        c.jitter_ns = self.jitter;
        c.seed = self.seed;
        c.interval_ns = self.interval;
        c.validate()?;
        Ok(c)
    }
}

/// `--kernel`: `6` or `2.6.35`.
pub fn parse_kernel(text: &str) -> Result<Kernel, String> {
    match text.trim() {
        "6" | "6.x" => Ok(Kernel::Linux6),
        "2.6.35" => Ok(Kernel::Linux2635),
        _ => Err("valid kernels: 6 (today's), 2.6.35".into()),
    }
}

/// `--cc`: the words of the crate's vocabulary (`cubic`, `cubic-rfc`), or a 0.2 word
/// (`linux`, `rfc9438`), translated with a deprecation note on stderr.
pub fn parse_cc(text: &str) -> Result<String, String> {
    let word = match text.trim() {
        w @ ("cubic" | "cubic-rfc") => return Ok(w.into()),
        "linux" => "cubic",
        "rfc9438" => "cubic-rfc",
        _ => return Err("valid values: cubic (Linux mode), cubic-rfc (RFC 9438)".into()),
    };
    eprintln!("ccsim: --cc {text} is deprecated since 0.3.0 and will be removed: use --cc {word}");
    Ok(word.into())
}

/// Every `--cc` word of a single run: the replay's `Cc::WORDS` (cubic, bbr, bbr3,
/// dctcp, prague) and the RFC-mode controllers (cubic-rfc, newreno-rfc, bbr3-rfc,
/// dctcp-rfc, prague-rfc).
pub const RUN_CC_WORDS: &str =
    "cubic, cubic-rfc, newreno-rfc, bbr, bbr3, bbr3-rfc, dctcp, dctcp-rfc, prague, prague-rfc";

/// A single run's `--cc`: one of [`RUN_CC_WORDS`], or a 0.2 word ([`parse_cc`]).
pub fn parse_run_cc(text: &str) -> Result<String, String> {
    match text.trim() {
        w @ ("newreno-rfc" | "bbr" | "bbr3" | "bbr3-rfc" | "dctcp" | "dctcp-rfc" | "prague"
        | "prague-rfc") => Ok(w.into()),
        other => parse_cc(other).map_err(|_| format!("valid values: {RUN_CC_WORDS}")),
    }
}

/// The controller a `--cc` word (as [`parse_run_cc`] returns it) names.
pub fn cc_kind(word: &str) -> CcKind {
    match word {
        "cubic-rfc" => CcKind::Rfc9438,
        "newreno-rfc" => CcKind::RfcNewReno,
        "bbr" => CcKind::Bbr,
        "bbr3" => CcKind::Bbr3,
        "dctcp" => CcKind::Dctcp,
        "prague" => CcKind::Prague,
        "bbr3-rfc" => CcKind::RfcBbr3,
        "dctcp-rfc" => CcKind::RfcDctcp,
        "prague-rfc" => CcKind::RfcPrague,
        _ => CcKind::Linux,
    }
}

/// `--aqm`: `droptail`, `step:DURATION` (e.g. `step:1ms`), `dualq` or `pi2`.
pub fn parse_aqm(text: &str) -> Result<AqmKind, String> {
    const VALID: &str = "valid values: droptail, step:DURATION (e.g. step:1ms), dualq, pi2";
    match text.trim() {
        "droptail" => Ok(AqmKind::DropTail),
        "dualq" => Ok(AqmKind::DualQ),
        "pi2" => Ok(AqmKind::Pi2),
        t => match t.strip_prefix("step:") {
            Some(d) => {
                let threshold_ns =
                    parse_duration_ns(d).map_err(|e| format!("step threshold: {e}; {VALID}"))?;
                Ok(AqmKind::Step { threshold_ns })
            }
            None => Err(VALID.into()),
        },
    }
}

/// `--hz`: one of 100, 250, 1000.
pub fn parse_hz(text: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|hz| VALID_HZ.contains(hz))
        .ok_or_else(|| "valid values: 100, 250, 1000".into())
}

/// Autotuning's largest buffer must leave a window of two segments
/// ([`least_autotuned_buffer`]).
fn check_autotune_max(bytes: u64, mss: u64) -> Result<(), String> {
    let least = least_autotuned_buffer(mss);
    if bytes < least {
        return Err(format!(
            "--autotune-max: {bytes} bytes is below {least} bytes (MSS {mss}): 3/4 of the \
             buffer is the window, which must hold two segments"
        ));
    }
    Ok(())
}
