//! The figures measured in the seed documents, as data. Each block cites its seed.

/// One nuttcp transfer: its summary line and its per-second (`-i1`) lines.
#[derive(Clone, Copy, Debug)]
pub struct NuttcpFigure {
    /// Seconds the 8192 MB took.
    pub secs: f64,
    /// Mbit/s.
    pub mbps: f64,
    /// Retransmissions.
    pub retrans: u32,
    /// msRTT as nuttcp printed it, ms: its client's `connect()` time for the data
    /// connection, one handshake on the idle path before the transfer.
    pub ms_rtt: f64,
    /// Mbit/s of each 1 s interval, in order.
    pub per_second: &'static [f64],
}

/// One run of seed 000: the path, the socket buffer, HyStart, the measured repetitions.
#[derive(Clone, Copy, Debug)]
pub struct FinkRun {
    /// Path RTT, ms (18 or 80).
    pub rtt_ms: u32,
    /// nuttcp `-w`, MiB; 0 = autotuning.
    pub window_mb: u32,
    /// Whether HyStart was on.
    pub hystart: bool,
    /// The measured repetitions.
    pub seed: &'static [NuttcpFigure],
}

/// One of seed 000's two tables: the kernel's HZ and whether TCP timestamps were on.
#[derive(Clone, Copy, Debug)]
pub struct FinkTable {
    /// The sender kernel's `CONFIG_HZ`.
    pub hz: u32,
    /// `tcp_timestamps` (12 bytes of TCP option per segment).
    pub timestamps: bool,
    /// The eight runs, in the seed's order.
    pub runs: [FinkRun; 8],
}

const fn f(
    secs: f64,
    mbps: f64,
    retrans: u32,
    ms_rtt: f64,
    per_second: &'static [f64],
) -> NuttcpFigure {
    NuttcpFigure {
        secs,
        mbps,
        retrans,
        ms_rtt,
        per_second,
    }
}

/// Seed 000: Bill Fink, "Re: \[PATCH\] Make CUBIC Hystart more robust
/// to RTT variations", netdev, 10 Mar 2011; 2.6.35 sender, `nuttcp -n8g -i1
/// [-w40m|-w100m]`, 9000-byte frames, 10 GbE. The rerun with HZ=250 and
/// `tcp_timestamps` on (the 80 ms `-w100m` HyStart run twice, without HyStart three times).
pub const FINK_2011_HZ250: FinkTable = FinkTable {
    hz: 250,
    timestamps: true,
    runs: [
        FinkRun {
            rtt_ms: 18,
            window_mb: 0,
            hystart: true,
            seed: &[f(
                9.80,
                7009.7460,
                0,
                18.91,
                &[
                    5155.1383, 6914.5038, 6934.5632, 6975.7146, 7006.1867, 7086.7867, 7231.9274,
                    7437.0402, 7706.5633,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 40,
            hystart: true,
            seed: &[f(
                9.34,
                7356.7856,
                0,
                18.92,
                &[
                    6006.0812, 7251.9589, 7265.4596, 7307.7746, 7345.2308, 7433.8796, 7584.3654,
                    7794.4728, 8066.7839,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 0,
            hystart: false,
            seed: &[f(
                7.23,
                9499.4276,
                0,
                18.95,
                &[
                    7137.3642, 9909.3396, 9909.5486, 9908.5883, 9909.0621, 9909.4396, 9908.5189,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 40,
            hystart: false,
            seed: &[f(
                7.15,
                9609.9893,
                0,
                18.92,
                &[
                    8135.2793, 9908.0541, 9909.1810, 9909.9044, 9909.0729, 9908.0532, 9908.9549,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 0,
            hystart: true,
            seed: &[f(
                10.99,
                6250.8745,
                0,
                80.78,
                &[
                    89.1274, 4208.6979, 7323.2651, 7259.8901, 7172.0224, 7314.8735, 7270.3017,
                    7172.9354, 7288.1352, 7283.8238,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 100,
            hystart: true,
            seed: &[
                f(
                    8.48,
                    8102.4984,
                    0,
                    80.81,
                    &[
                        870.8197, 8989.8315, 9140.6929, 9172.4186, 9187.1262, 9183.3460, 9208.9431,
                        9261.2584,
                    ],
                ),
                f(
                    8.48,
                    8104.4831,
                    0,
                    80.77,
                    &[
                        870.8075, 8995.0653, 9139.0926, 9170.0646, 9190.3914, 9189.8303, 9207.8952,
                        9262.5405,
                    ],
                ),
            ],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 0,
            hystart: false,
            seed: &[f(
                10.99,
                6253.7478,
                0,
                80.80,
                &[
                    83.8847, 4045.8172, 7241.4224, 7334.7304, 7172.3889, 7244.6840, 7340.5489,
                    7173.6390, 7246.9044, 7325.9788,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 100,
            hystart: false,
            seed: &[
                f(
                    11.31,
                    6077.0651,
                    72,
                    80.82,
                    &[
                        870.7945, 9633.6860, 9872.7291, 9127.4342, 1435.1370, 7558.3275, 9731.1831,
                        9836.5508, 9101.2174, 1261.5908, 236.4544,
                    ],
                ),
                f(
                    10.03,
                    6852.2803,
                    33,
                    80.81,
                    &[
                        867.6472, 9589.1347, 5280.0886, 1383.0759, 9408.7878, 9799.0309, 9793.5725,
                        9780.0841, 8052.4902, 4765.8065,
                    ],
                ),
                f(
                    9.21,
                    7460.8789,
                    36,
                    80.81,
                    &[
                        870.8241, 9636.9570, 9876.4287, 9877.0024, 5817.6335, 2209.7701, 9540.7263,
                        9814.2354, 9803.7005,
                    ],
                ),
            ],
        },
    ],
};

/// Seed 000, "Previous HZ=1000 tests (with tcp_timestamps disabled)".
pub const FINK_2011_HZ1000: FinkTable = FinkTable {
    hz: 1000,
    timestamps: false,
    runs: [
        FinkRun {
            rtt_ms: 18,
            window_mb: 0,
            hystart: true,
            seed: &[f(
                11.26,
                6102.4718,
                0,
                18.92,
                &[
                    4344.6096, 5775.1998, 5812.7462, 5855.8078, 5871.0123, 5960.5707, 6113.7652,
                    6302.9210, 6575.6201, 6921.8145, 7343.9811,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 40,
            hystart: true,
            seed: &[f(
                7.13,
                9633.5814,
                0,
                18.91,
                &[
                    8136.8475, 9909.0045, 9908.6369, 9909.8747, 9909.0531, 9908.8153, 9909.0729,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 0,
            hystart: false,
            seed: &[f(
                7.25,
                9484.4524,
                0,
                18.92,
                &[
                    7091.5828, 9910.0134, 9907.1830, 9910.8936, 9908.1721, 9909.5774, 9908.6874,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 18,
            window_mb: 40,
            hystart: false,
            seed: &[f(
                7.15,
                9611.8053,
                0,
                18.95,
                &[
                    8135.6571, 9909.3990, 9908.9342, 9909.4098, 9908.8252, 9909.0630, 9909.3504,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 0,
            hystart: true,
            seed: &[f(
                12.85,
                5348.9677,
                0,
                80.81,
                &[
                    94.8954, 3704.1021, 5765.8657, 6002.6273, 5955.5958, 5799.0626, 6028.3538,
                    6023.0205, 5905.5387, 6151.4096, 6198.2381, 6139.3695,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 100,
            hystart: true,
            seed: &[
                f(
                    8.37,
                    8207.2049,
                    0,
                    80.81,
                    &[
                        871.8378, 9114.6102, 9283.5583, 9305.5226, 9321.9596, 9334.8452, 9341.6620,
                        9398.0054,
                    ],
                ),
                f(
                    8.38,
                    8204.8394,
                    0,
                    80.80,
                    &[
                        871.3353, 9116.4474, 9276.2276, 9306.5339, 9322.5327, 9322.8053, 9342.8962,
                        9397.5711,
                    ],
                ),
            ],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 0,
            hystart: false,
            seed: &[f(
                10.98,
                6259.4379,
                0,
                80.81,
                &[
                    94.3703, 4354.1596, 7224.7970, 7306.4191, 7220.4438, 7290.3340, 7242.7707,
                    7218.0606, 7344.3071, 7240.8257,
                ],
            )],
        },
        FinkRun {
            rtt_ms: 80,
            window_mb: 100,
            hystart: false,
            seed: &[
                f(
                    10.34,
                    6647.9394,
                    435,
                    80.81,
                    &[
                        862.9487, 4386.2811, 7394.6534, 9766.6682, 9819.7042, 9788.2067, 9729.1530,
                        6804.8017, 614.4674, 7420.2900,
                    ],
                ),
                f(
                    9.42,
                    7292.9879,
                    21,
                    80.81,
                    &[
                        870.3015, 9616.4520, 9864.6070, 5164.7353, 1168.1253, 9143.8053, 9818.6654,
                        9852.8754, 9855.6052,
                    ],
                ),
                f(
                    12.39,
                    5545.7570,
                    30,
                    80.80,
                    &[
                        862.4227, 9633.6860, 9877.3086, 9798.9133, 1116.7457, 4025.4631, 9652.4830,
                        9876.0624, 9876.0139, 2686.6452, 544.7363, 617.6113,
                    ],
                ),
            ],
        },
    ],
};

/// One netperf run of seed 002: (tcp_limit_output_bytes, Mbit/s, tcpi_rtt µs).
pub type TsqRun = (u64, f64, u32);

/// Seed 002: Eric Dumazet, "[RFC PATCH v2] tcp: TCP Small Queues",
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

/// Seed 004: Bill Fink replying to David S. Miller, netdev, 15 Dec
/// 2005; 10 GbE, about 1 ms RTT, transmitter-side figures. The -w2m run had TSO off
/// ("Re-enable TSO"), the -w5m run TSO on.
pub const TSO_2005: [TsoRun; 2] = [
    (2, false, 6299.0625, 10.01, 5278.6065),
    (5, true, 3644.1193, 10.03, 3047.8321),
];
