//! The figures measured in the seed documents, as data. Each block cites its seed.

/// One nuttcp summary line.
#[derive(Clone, Copy, Debug)]
pub struct NuttcpFigure {
    /// Seconds the 8192 MB took.
    pub secs: f64,
    /// Mbit/s.
    pub mbps: f64,
    /// Retransmissions.
    pub retrans: u32,
    /// Mean RTT, ms.
    pub ms_rtt: f64,
}

/// One run of seed 000's HZ=250 table: (RTT ms, socket buffer MB or 0 = autotuning,
/// HyStart, the measured repetitions).
pub type FinkRun = (u32, u32, bool, &'static [NuttcpFigure]);

const fn f(secs: f64, mbps: f64, retrans: u32, ms_rtt: f64) -> NuttcpFigure {
    NuttcpFigure {
        secs,
        mbps,
        retrans,
        ms_rtt,
    }
}

/// Seed 000 (shared/seeds/000): Bill Fink, "Re: [PATCH] Make CUBIC Hystart more robust
/// to RTT variations", netdev, 10 Mar 2011; the HZ=250, tcp_timestamps=1 runs, `nuttcp
/// -n8g -i1 [-w40m|-w100m]`, 9000-byte frames, 10 GbE.
pub const FINK_2011: [FinkRun; 8] = [
    (18, 0, true, &[f(9.80, 7009.7460, 0, 18.91)]),
    (18, 40, true, &[f(9.34, 7356.7856, 0, 18.92)]),
    (18, 0, false, &[f(7.23, 9499.4276, 0, 18.95)]),
    (18, 40, false, &[f(7.15, 9609.9893, 0, 18.92)]),
    (80, 0, true, &[f(10.99, 6250.8745, 0, 80.78)]),
    (
        80,
        100,
        true,
        &[f(8.48, 8102.4984, 0, 80.81), f(8.48, 8104.4831, 0, 80.77)],
    ),
    (80, 0, false, &[f(10.99, 6253.7478, 0, 80.80)]),
    (
        80,
        100,
        false,
        &[
            f(11.31, 6077.0651, 72, 80.82),
            f(10.03, 6852.2803, 33, 80.81),
            f(9.21, 7460.8789, 36, 80.81),
        ],
    ),
];

/// One netperf run of seed 002: (tcp_limit_output_bytes, Mbit/s, tcpi_rtt µs).
pub type TsqRun = (u64, f64, u32);

/// Seed 002 (shared/seeds/002): Eric Dumazet, "[RFC PATCH v2] tcp: TCP Small Queues",
/// 11 Jul 2012; single netperf TCP flow, 20 s, 1500-byte MTU, "Tests on 10Gbit links".
pub const TSQ_2012_10G: [TsqRun; 16] = [
    (16_384, 1389.53, 1875),
    (24_576, 1483.03, 1875),
    (32_768, 2039.67, 1875),
    (49_152, 4448.86, 1875),
    (65_536, 5975.12, 1875),
    (81_920, 5190.08, 1875),
    (98_304, 5976.00, 1875),
    (114_688, 5975.14, 1875),
    (131_072, 5976.16, 1875),
    (147_456, 5975.64, 1875),
    (163_840, 5975.56, 1875),
    (180_224, 5976.80, 1875),
    (196_608, 5975.46, 1875),
    (262_144, 5975.49, 1875),
    (524_288, 5976.61, 2000),
    (1_048_576, 5975.11, 2500),
];

/// Seed 002, "Tests on Gbit link".
pub const TSQ_2012_1G: [TsqRun; 16] = [
    (16_384, 689.70, 1875),
    (24_576, 860.21, 1875),
    (32_768, 867.76, 1875),
    (49_152, 873.61, 1875),
    (65_536, 875.90, 1875),
    (81_920, 879.10, 1875),
    (98_304, 880.30, 1875),
    (114_688, 881.30, 1875),
    (131_072, 880.43, 1875),
    (147_456, 880.57, 2000),
    (163_840, 880.23, 1875),
    (180_224, 880.34, 2000),
    (196_608, 879.73, 2000),
    (262_144, 879.89, 2875),
    (524_288, 879.84, 5000),
    (1_048_576, 880.70, 9875),
];

/// One nuttcp run of seed 004: (nuttcp -w MB, TSO on, MB, seconds, Mbit/s).
pub type TsoRun = (u32, bool, f64, f64, f64);

/// Seed 004 (shared/seeds/004): Bill Fink replying to David S. Miller, netdev, 15 Dec
/// 2005; 10 GbE, about 1 ms RTT, transmitter-side figures. The -w2m run had TSO off
/// ("Re-enable TSO"), the -w5m run TSO on.
pub const TSO_2005: [TsoRun; 2] = [
    (2, false, 6299.0625, 10.01, 5278.6065),
    (5, true, 3644.1193, 10.03, 3047.8321),
];
