//! SVG plots (plotters, SVG backend only): cwnd, throughput and RTT against time, one
//! line per run, and the seed's own per-second figures beside them.
//!
//! Made to be read: the legend sits in its own column right of the data, never over
//! it; every simulated run has a marker shape of its own, and the seed's figures alone
//! are crosses (×) on thin dotted lines; a caller may give several runs one colour
//! (one experiment simulated two ways) and tell them apart by solid and dashed lines.
//! A line that coincides with one drawn before it (within half a percent of the
//! panel's height at nine points in ten) is drawn a few pixels higher, and the legend
//! says so, so no run hides another. The three panels share one time axis. Tick labels
//! carry no needless decimals (`10000`, not `10000.0`).

use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
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
const LEGEND_WIDTH: u32 = 320;
/// Height of one legend row, and of the note under a row whose line was moved.
const ROW: i32 = 16;
const NOTE_ROW: i32 = 13;
/// How far a line that coincides with an earlier one is moved up, pixels.
const NUDGE_PX: f64 = 3.0;
/// The dash of a run drawn dashed: dash and gap, pixels.
const DASH: (u32, u32) = (9, 5);

/// One simulated run of a figure.
pub struct PlotRun<'a> {
    /// Its legend label.
    pub label: String,
    /// Its trace.
    pub series: &'a Series,
    /// Index of its colour.
    pub colour: usize,
    /// Drawn dashed rather than solid.
    pub dashed: bool,
}

impl<'a> PlotRun<'a> {
    /// The `i`th of a figure's runs, each in its own colour, solid.
    pub fn nth(i: usize, label: String, series: &'a Series) -> Self {
        PlotRun {
            label,
            series,
            colour: i,
            dashed: false,
        }
    }
}

/// How one line is drawn.
#[derive(Clone, Copy)]
struct LineLook {
    colour: RGBColor,
    dashed: bool,
    /// The marker shape ([`SHAPES`]) and the phase of the markers along the line.
    marker: usize,
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

/// The simulated runs' marker shapes, outlines in pixels around the point: circle,
/// square, triangle, diamond, inverted triangle, plus, pentagon, hexagon. None is a
/// cross, which is the seed's.
const SHAPES: usize = 8;

fn polygon(corners: usize, r: f64, turn: f64) -> Vec<(i32, i32)> {
    let mut v: Vec<(i32, i32)> = (0..=corners)
        .map(|k| {
            let a = turn + std::f64::consts::TAU * k as f64 / corners as f64;
            ((r * a.sin()).round() as i32, (-r * a.cos()).round() as i32)
        })
        .collect();
    v.dedup();
    v
}

/// The strokes that draw shape `shape`.
fn shape_strokes(shape: usize) -> Vec<Vec<(i32, i32)>> {
    let r = 4;
    match shape % SHAPES {
        0 => vec![polygon(16, 4.0, 0.0)],
        1 => vec![vec![(-r, -r), (r, -r), (r, r), (-r, r), (-r, -r)]],
        2 => vec![polygon(3, 5.0, 0.0)],
        3 => vec![polygon(4, 5.0, 0.0)],
        4 => vec![polygon(3, 5.0, std::f64::consts::PI)],
        5 => vec![vec![(-5, 0), (5, 0)], vec![(0, -5), (0, 5)]],
        6 => vec![polygon(5, 5.0, 0.0)],
        _ => vec![polygon(6, 5.0, 0.0)],
    }
}

/// The seed's cross (×).
fn cross_strokes() -> Vec<Vec<(i32, i32)>> {
    vec![vec![(-4, -4), (4, 4)], vec![(-4, 4), (4, -4)]]
}

fn strokes_of(look: LineLook) -> Vec<Vec<(i32, i32)>> {
    if look.measured {
        cross_strokes()
    } else {
        shape_strokes(look.marker)
    }
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn draw_marker(chart: &mut Chart, at: (f64, f64), look: LineLook) -> Result<(), String> {
    let style = look.colour.stroke_width(2);
    chart
        .draw_series(
            strokes_of(look)
                .into_iter()
                .map(|s| EmptyElement::at(at) + PathElement::new(s, style)),
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `y` of `points` (sorted by x) at `x`, linearly interpolated; `None` outside them.
fn y_at(points: &[(f64, f64)], x: f64) -> Option<f64> {
    let i = points.partition_point(|p| p.0 < x);
    let hi = *points.get(i)?;
    if hi.0 == x {
        return Some(hi.1);
    }
    let lo = *points.get(i.checked_sub(1)?)?;
    Some(lo.1 + (hi.1 - lo.1) * (x - lo.0) / (hi.0 - lo.0))
}

/// Whether line `a` runs on line `b`: over at least half of `a`'s points `b` is
/// there too, and at nine in ten of those within `tolerance`.
fn coincides(a: &[(f64, f64)], b: &[(f64, f64)], tolerance: f64) -> bool {
    let shared: Vec<f64> = a
        .iter()
        .filter_map(|&(x, y)| y_at(b, x).map(|yb| (y - yb).abs()))
        .collect();
    if a.is_empty() || shared.len() * 2 < a.len() {
        return false;
    }
    let close = shared.iter().filter(|&&d| d <= tolerance).count();
    close * 10 >= shared.len() * 9
}

/// For each line, how many nudges up it is drawn and which earlier line it coincides
/// with. Simulated lines are compared with simulated ones, the seed's with the seed's
/// (two of its runs can report the same per-second figures); a simulated line never
/// moves the seed's.
fn nudges(lines: &[Line], tolerance: f64) -> Vec<(u32, Option<usize>)> {
    let mut out: Vec<(u32, Option<usize>)> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let mut level = (0, None);
        for (j, earlier) in lines[..i].iter().enumerate() {
            if earlier.look.measured == line.look.measured
                && coincides(&line.points, &earlier.points, tolerance)
                && out[j].0 + 1 > level.0
            {
                level = (out[j].0 + 1, Some(j));
            }
        }
        out.push(level);
    }
    out
}

fn panel(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    y_desc: &str,
    x_max: f64,
    lines: &[Line],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let (plot_area, legend_area) = area.split_horizontally(WIDTH - LEGEND_WIDTH);
    let data_max = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|q| q.1))
        .fold(0.0f64, f64::max)
        .max(1e-3);
    let moved = nudges(lines, data_max * 0.005);
    // Headroom for the lines moved up: the plot is its area less the caption and the
    // axis labels (about 80 pixels).
    let top_level = moved.iter().map(|m| m.0).max().unwrap_or(0);
    let plot_px = f64::from(plot_area.dim_in_pixel().1.saturating_sub(80).max(50));
    let y_max = data_max * 1.05 / (1.0 - (f64::from(top_level) * NUDGE_PX / plot_px).min(0.5));
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
    let height_px = f64::from(chart.plotting_area().dim_in_pixel().1.max(1));
    let per_px = y_max / height_px;
    for (line, &(level, _)) in lines.iter().zip(&moved) {
        let look = line.look;
        let lift = f64::from(level) * NUDGE_PX * per_px;
        let pts: Vec<(f64, f64)> = line.points.iter().map(|&(x, y)| (x, y + lift)).collect();
        if look.measured {
            chart
                .draw_series(DashedLineSeries::new(
                    pts.iter().copied(),
                    2,
                    5,
                    look.colour.stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
            for &p in &pts {
                draw_marker(&mut chart, p, look)?;
            }
            continue;
        }
        let style = look.colour.stroke_width(2);
        if look.dashed {
            chart
                .draw_series(DashedLineSeries::new(
                    pts.iter().copied(),
                    DASH.0,
                    DASH.1,
                    style,
                ))
                .map(|_| ())
        } else {
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), style))
                .map(|_| ())
        }
        .map_err(|e| err(&e))?;
        // Markers at a phase of their own along each line, so lines with the same
        // points show every set.
        let n = pts.len();
        if n > 0 {
            let every = (n / MARKERS_PER_LINE).max(1);
            let offset = (every * (look.marker % SHAPES) / SHAPES).min(n - 1);
            for &p in pts.iter().skip(offset).step_by(every) {
                draw_marker(&mut chart, p, look)?;
            }
        }
    }
    legend(&legend_area, lines, &moved)
}

/// The legend, in its own column beside the panel's data: a sample of each line with
/// its marker, and under a line that was moved up, what it coincides with.
fn legend(
    area: &DrawingArea<SVGBackend, Shift>,
    lines: &[Line],
    moved: &[(u32, Option<usize>)],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let text = ("sans-serif", 12).into_font().color(&BLACK);
    let note = ("sans-serif", 10).into_font().color(&BLACK);
    let mut y = 34;
    for (line, &(level, with)) in lines.iter().zip(moved) {
        let look = line.look;
        let style = look.colour.stroke_width(if look.measured { 1 } else { 2 });
        let sample: Vec<(i32, i32)> = vec![(6, y), (40, y)];
        match (look.measured, look.dashed) {
            (true, _) => area.draw(&DashedPathElement::new(sample, 2, 5, style)),
            (false, true) => area.draw(&DashedPathElement::new(sample, DASH.0, DASH.1, style)),
            (false, false) => area.draw(&PathElement::new(sample, style)),
        }
        .map_err(|e| err(&e))?;
        let mstyle = look.colour.stroke_width(2);
        for s in strokes_of(look) {
            area.draw(&(EmptyElement::at((23, y)) + PathElement::new(s, mstyle)))
                .map_err(|e| err(&e))?;
        }
        area.draw(&Text::new(line.label.clone(), (46, y - 7), text.clone()))
            .map_err(|e| err(&e))?;
        y += ROW;
        if let Some(j) = with {
            let said = format!(
                "drawn {} px up: runs on \"{}\"",
                f64::from(level) * NUDGE_PX,
                lines[j].label
            );
            area.draw(&Text::new(said, (46, y - 8), note.clone()))
                .map_err(|e| err(&e))?;
            y += NOTE_ROW;
        }
    }
    Ok(())
}

/// Write `path`: three panels (cwnd, throughput, RTT) on one time axis, one line per
/// run; `measured` adds the seed's figures to the throughput panel, each `(label,
/// points, colour index)`, usually the colour of the simulated run they belong to.
pub fn write_svg(
    path: &Path,
    title: &str,
    runs: &[PlotRun],
    measured: &[(String, Points, usize)],
) -> Result<(), String> {
    let pick = |f: fn(&Series) -> Points| -> Vec<Line> {
        runs.iter()
            .enumerate()
            .map(|(i, r)| Line {
                label: r.label.clone(),
                points: f(r.series),
                look: LineLook {
                    colour: COLOURS[r.colour % COLOURS.len()],
                    dashed: r.dashed,
                    marker: i,
                    measured: false,
                },
            })
            .collect()
    };
    let cwnd = pick(Series::cwnd_mb);
    let mut throughput = pick(Series::throughput_mbps);
    for (label, points, colour) in measured {
        throughput.push(Line {
            label: label.clone(),
            points: points.clone(),
            look: LineLook {
                colour: COLOURS[colour % COLOURS.len()],
                dashed: false,
                marker: 0,
                measured: true,
            },
        });
    }
    let rtt = pick(Series::rtt_ms);
    let panels = [
        ("congestion window", "cwnd (MB)", &cwnd),
        ("throughput", "Mbit/s", &throughput),
        ("RTT samples", "RTT (ms)", &rtt),
    ];
    // One time axis for the figure: the longest line of any panel sets it.
    let x_max = panels
        .iter()
        .flat_map(|(_, _, lines)| lines.iter())
        .flat_map(|l| l.points.iter().map(|q| q.0))
        .fold(0.0f64, f64::max)
        .max(1e-3);
    // Each panel tall enough for its legend (rows, each with room for a note should its
    // line be moved), at least 320 pixels.
    let rows = throughput.len() as u32;
    let panel_h = (40 + rows * (ROW + NOTE_ROW) as u32).max(320);
    let root = SVGBackend::new(path, (WIDTH, 40 + 3 * panel_h)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let root = root
        .titled(title, ("sans-serif", 18))
        .map_err(|e| e.to_string())?;
    let areas = root.split_evenly((3, 1));
    for (area, (name, y_desc, lines)) in areas.iter().zip(panels) {
        panel(area, name, y_desc, x_max, lines)?;
    }
    root.present()
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_carry_no_needless_decimals() {
        assert_eq!(tick_label(10000.0), "10000");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(2.0), "2");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(80.4), "80.4");
    }

    #[test]
    fn a_line_on_another_is_found_and_a_different_one_is_not() {
        let a: Vec<(f64, f64)> = (0..100).map(|i| (f64::from(i), 50.0)).collect();
        // The same values at other x positions (interpolated), within tolerance.
        let b: Vec<(f64, f64)> = (0..50).map(|i| (f64::from(2 * i) + 0.5, 50.2)).collect();
        assert!(coincides(&a, &b, 0.5));
        // One part in ten off: still coincides; two parts: no longer.
        let mut c = a.clone();
        for p in c.iter_mut().take(10) {
            p.1 = 80.0;
        }
        assert!(coincides(&c, &a, 0.5));
        for p in c.iter_mut().take(20) {
            p.1 = 80.0;
        }
        assert!(!coincides(&c, &a, 0.5));
        // Overlapping less than half of its points: not on it.
        let short: Vec<(f64, f64)> = (0..40).map(|i| (f64::from(i), 50.0)).collect();
        assert!(!coincides(&a, &short, 0.5));
        assert!(coincides(&short, &a, 0.5));
    }

    #[test]
    fn every_marker_shape_differs_from_the_others_and_from_the_seeds_cross() {
        let shapes: Vec<_> = (0..SHAPES).map(shape_strokes).collect();
        for (i, s) in shapes.iter().enumerate() {
            assert_ne!(*s, cross_strokes(), "shape {i}");
            for t in &shapes[..i] {
                assert_ne!(s, t, "shape {i}");
            }
        }
    }
}
