//! `ccsim`: see `ccsim --help`.

use std::fs::File;
use std::process::ExitCode;
use std::time::Instant;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use congestion_sim::cli::{Cli, Preset, RunArgs};
use congestion_sim::config::Amount;
use congestion_sim::recorder::Recorder;
use congestion_sim::series::Series;
use congestion_sim::{plot, presets, report, run};

fn single(args: &RunArgs) -> Result<(), String> {
    let cfg = args.to_config()?;
    let csv = match &args.csv {
        Some(p) => Some(File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => None,
    };
    let series = args.svg.as_ref().map(|_| Series::new(cfg.mss()));
    let (total, by_time) = match cfg.amount {
        Amount::Bytes(b) => (b, false),
        Amount::TimeNs(t) => (t, true),
    };
    let mut rec = Recorder::new(true, csv, series, total, by_time);
    let started = Instant::now();
    let summary = run(&cfg, &mut rec)?;
    let wall = started.elapsed();
    rec.finish().map_err(|e| format!("writing the CSV: {e}"))?;
    congestion_sim::say!("{}", report::summary_line(&summary));
    congestion_sim::say!("{}", report::limits_line(&summary));
    if args.stats {
        eprintln!("{}", report::stats_line(&summary, wall));
    }
    if !summary.complete {
        return Err(format!(
            "gave up after {} s of simulated time without finishing the transfer",
            summary.duration_ns / 1_000_000_000
        ));
    }
    if let (Some(path), Some(series)) = (&args.svg, rec.series.as_ref()) {
        let title = format!(
            "ccsim: --cc {}, {:?} slow start, {} Mbit/s, {} ms RTT",
            cfg.cc.word(),
            cfg.slow_start,
            cfg.rate_bps / 1_000_000,
            cfg.rtt_ns as f64 / 1e6
        );
        let run = plot::PlotRun::nth(0, String::from("run"), series);
        plot::write_svg(path, &title, &[run], &[])?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Flags that parse but do not fit together (-w below 2·MSS, a buffer smaller than a
    // packet, ...) are usage errors too: clap's format and exit status 2.
    match &cli.preset {
        None => {
            if let Err(e) = cli.run.to_config() {
                Cli::command().error(ErrorKind::ValueValidation, e).exit();
            }
        }
        // A plot directory that cannot be made fails now, not after the whole preset
        // has run.
        Some(p) => {
            let out = &p.args().out;
            if let Err(e) = std::fs::create_dir_all(out) {
                let msg = format!("--out {}: {e}", out.display());
                Cli::command().error(ErrorKind::ValueValidation, msg).exit();
            }
        }
    }
    let result = match &cli.preset {
        None => single(&cli.run),
        Some(Preset::Fink2011(a)) => presets::fink2011::run(a),
        Some(Preset::Tsq2012(a)) => presets::tsq2012::run(a),
        Some(Preset::Tso2005(a)) => presets::tso2005::run(a),
        Some(Preset::Bbr2011(a)) => presets::bbr2011::run(a),
        Some(Preset::L4s(a)) => presets::l4s::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ccsim: {e}");
            ExitCode::FAILURE
        }
    }
}
