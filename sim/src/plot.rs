//! SVG plots (plotters, SVG backend only): cwnd, throughput and RTT against time, one
//! line per run.

use std::path::Path;

use plotters::prelude::*;

use crate::series::{Points, Series};

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    title: &str,
    y_desc: &str,
    lines: &[(String, Points)],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let x_max = lines
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(0.0f64, f64::max)
        .max(1e-3);
    let y_max = lines
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.05;
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(y_desc)
        .draw()
        .map_err(|e| err(&e))?;
    for (i, (label, points)) in lines.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(1)))
            .map_err(|e| err(&e))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c));
    }
    if lines.len() > 1 {
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// Write `path`: three panels (cwnd, throughput, RTT), one line per `(label, series)`.
pub fn write_svg(path: &Path, title: &str, runs: &[(String, &Series)]) -> Result<(), String> {
    let root = SVGBackend::new(path, (1000, 960)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| e.to_string())?;
    let areas = root.split_evenly((3, 1));
    let pick = |f: fn(&Series) -> Points| -> Vec<(String, Points)> {
        runs.iter().map(|(l, s)| (l.clone(), f(s))).collect()
    };
    panel(
        &areas[0],
        "congestion window",
        "cwnd (MB)",
        &pick(Series::cwnd_mb),
    )?;
    panel(
        &areas[1],
        "throughput",
        "Mbit/s",
        &pick(Series::throughput_mbps),
    )?;
    panel(&areas[2], "RTT samples", "RTT (ms)", &pick(Series::rtt_ms))?;
    root.present()
        .map_err(|e| format!("{}: {e}", path.display()))
}
