//! SVG plots (plotters, SVG backend only): cwnd, throughput and RTT against time, one
//! line per run, and the seed's own per-second figures beside them.
//!
//! Made to be read: the legend sits in its own column right of the data, never over
//! it; each run has its own colour *and* dash pattern, with markers at offsets that
//! differ per run, so two runs with identical results both stay visible; measured
//! figures are crosses joined by thin dotted lines; tick labels carry no needless
//! decimals (`10000`, not `10000.0`).

use std::path::Path;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
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

/// Width of the figure and of its legend column, pixels.
const WIDTH: u32 = 1200;
const LEGEND_WIDTH: u32 = 300;

/// How one line is drawn.
#[derive(Clone, Copy)]
struct LineLook {
    colour: RGBColor,
    /// Dash length and gap, pixels; `None`: solid.
    dash: Option<(u32, u32)>,
    /// Which marker shape, and the phase of the markers along the line.
    marker: usize,
    phase: usize,
    /// A measured (seed) series: crosses on a thin dotted line.
    measured: bool,
}

/// One line of a panel.
struct Line {
    label: String,
    points: Points,
    look: LineLook,
}

/// A tick label without needless decimals: `10000`, `2.5`, `0.25`.
pub fn tick_label(v: f64) -> String {
    let a = v.abs();
    let text = if a >= 100.0 || a == 0.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if text.contains('.') {
        let t = text.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" { "0".into() } else { t.into() }
    } else {
        text
    }
}

const MARKERS_PER_LINE: usize = 12;

fn draw_marker(
    chart: &mut ChartContext<
        SVGBackend,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    at: (f64, f64),
    look: LineLook,
) -> Result<(), String> {
    let style = look.colour.stroke_width(2);
    let r = 4;
    let res = match look.marker % 3 {
        0 => chart.draw_series(std::iter::once(Circle::new(at, r, style))),
        1 => chart.draw_series(std::iter::once(TriangleMarker::new(at, r + 1, style))),
        _ => chart.draw_series(std::iter::once(Cross::new(at, r, style))),
    };
    res.map(|_| ()).map_err(|e| e.to_string())
}

fn panel(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    y_desc: &str,
    lines: &[Line],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let (plot_area, legend_area) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let x_max = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|q| q.0))
        .fold(0.0f64, f64::max)
        .max(1e-3);
    let y_max = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|q| q.1))
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.05;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(y_desc)
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .draw()
        .map_err(|e| err(&e))?;
    for line in lines {
        let look = line.look;
        let pts = line.points.iter().copied();
        if look.measured {
            chart
                .draw_series(DashedLineSeries::new(
                    pts,
                    2,
                    5,
                    look.colour.stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
            for &p in &line.points {
                chart
                    .draw_series(std::iter::once(Cross::new(
                        p,
                        5,
                        look.colour.stroke_width(2),
                    )))
                    .map_err(|e| err(&e))?;
            }
            continue;
        }
        match look.dash {
            None => chart
                .draw_series(LineSeries::new(pts, look.colour.stroke_width(2)))
                .map(|_| ()),
            Some((d, g)) => chart
                .draw_series(DashedLineSeries::new(
                    pts,
                    d,
                    g,
                    look.colour.stroke_width(2),
                ))
                .map(|_| ()),
        }
        .map_err(|e| err(&e))?;
        // Markers at a per-run phase, so identical runs show both sets.
        let n = line.points.len();
        if n > 0 {
            let every = (n / MARKERS_PER_LINE).max(1);
            let offset = (every * look.phase / 4).min(n - 1);
            for &p in line.points.iter().skip(offset).step_by(every) {
                draw_marker(&mut chart, p, look)?;
            }
        }
    }
    legend(&legend_area, lines)
}

/// The legend, in its own column beside the panel's data.
fn legend(area: &DrawingArea<SVGBackend, Shift>, lines: &[Line]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let text = ("sans-serif", 12).into_font().color(&BLACK);
    for (i, line) in lines.iter().enumerate() {
        let y = 40 + 18 * i as i32;
        let look = line.look;
        let style = look.colour.stroke_width(if look.measured { 1 } else { 2 });
        let sample: Vec<(i32, i32)> = vec![(6, y), (40, y)];
        match (look.measured, look.dash) {
            (false, None) => area
                .draw(&PathElement::new(sample, style))
                .map_err(|e| err(&e))?,
            (true, _) => area
                .draw(&DashedPathElement::new(sample, 2, 5, style))
                .map_err(|e| err(&e))?,
            (false, Some((d, g))) => area
                .draw(&DashedPathElement::new(sample, d, g, style))
                .map_err(|e| err(&e))?,
        }
        let m = (23, y);
        let mstyle = look.colour.stroke_width(2);
        if look.measured {
            area.draw(&Cross::new(m, 5, mstyle)).map_err(|e| err(&e))?;
        } else {
            match look.marker % 3 {
                0 => area.draw(&Circle::new(m, 4, mstyle)),
                1 => area.draw(&TriangleMarker::new(m, 5, mstyle)),
                _ => area.draw(&Cross::new(m, 4, mstyle)),
            }
            .map_err(|e| err(&e))?;
        }
        area.draw(&Text::new(line.label.clone(), (46, y - 7), text.clone()))
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

fn look_of_run(i: usize) -> LineLook {
    const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 6)), Some((3, 4)), Some((14, 4))];
    LineLook {
        colour: COLOURS[i % COLOURS.len()],
        dash: DASHES[i % DASHES.len()],
        marker: i,
        phase: i % 4,
        measured: false,
    }
}

/// Write `path`: three panels (cwnd, throughput, RTT), one line per `(label, series)`;
/// `measured` adds the seed's figures to the throughput panel, each `(label, points,
/// run index)` in the colour of the simulated run it belongs to.
pub fn write_svg(
    path: &Path,
    title: &str,
    runs: &[(String, &Series)],
    measured: &[(String, Points, usize)],
) -> Result<(), String> {
    let root = SVGBackend::new(path, (WIDTH, 1000)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| e.to_string())?;
    let areas = root.split_evenly((3, 1));
    let pick = |f: fn(&Series) -> Points| -> Vec<Line> {
        runs.iter()
            .enumerate()
            .map(|(i, (l, s))| Line {
                label: l.clone(),
                points: f(s),
                look: look_of_run(i),
            })
            .collect()
    };
    panel(
        &areas[0],
        "congestion window",
        "cwnd (MB)",
        &pick(Series::cwnd_mb),
    )?;
    let mut throughput = pick(Series::throughput_mbps);
    for (label, points, run) in measured {
        throughput.push(Line {
            label: label.clone(),
            points: points.clone(),
            look: LineLook {
                measured: true,
                ..look_of_run(*run)
            },
        });
    }
    panel(&areas[1], "throughput", "Mbit/s", &throughput)?;
    panel(&areas[2], "RTT samples", "RTT (ms)", &pick(Series::rtt_ms))?;
    root.present()
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::tick_label;

    #[test]
    fn tick_labels_carry_no_needless_decimals() {
        assert_eq!(tick_label(10000.0), "10000");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(2.0), "2");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(80.4), "80.4");
    }
}
