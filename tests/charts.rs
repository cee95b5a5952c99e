//! How charts are laid out and drawn: level labels apart and inside the
//! plot, every level its own look and the estimates theirs, nothing cut at
//! a phone's width, legends over no data, the Gantt chart's gaps and
//! slowdown shades. Checked on the layout and on the SVG drawn (the maps
//! take minutes to compute in a debug build, so their charts are read from
//! answers stored under `tests/data`).
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use dlt_calc::api::{gantt_styles, run, Request};
use dlt_calc::core::presentation::chart::{LineChart, Style};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::plot::layout::{layout, pixel_lines};
use dlt_calc::plot::looks::looks;
use dlt_calc::plot::text::{text_height, text_width, Rect};
use dlt_calc::plot::{gantt_height, gantt_svg, lines_svg};
use serde_json::json;

/// A stored file of `tests/data`.
fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("the stored answer")
}

/// The reference isoefficiency map's chart, with or without the estimates.
fn reference_map(overlays: bool) -> LineChart {
    let value: serde_json::Value = serde_json::from_str(&data("isoefficiency-reference")).unwrap();
    let entry = dlt_calc::registry::find("isoefficiency").unwrap();
    let mut charts = entry
        .page()
        .charts(value, &json!({ "overlays": overlays }))
        .unwrap();
    charts.remove(0)
}

/// A chart stored as JSON.
fn stored(name: &str) -> LineChart {
    serde_json::from_str(&data(name)).unwrap()
}

/// Each stored chart file with the preset that computes it.
const STORED: [(&str, &str); 9] = [
    ("isoefficiency-reference", "isoefficiency"),
    (
        "contour-compute-communication",
        "contour-compute-communication",
    ),
    ("contour-energy", "contour-energy"),
    ("contour-startup", "contour-startup"),
    (
        "contour-heterogeneous-energy",
        "contour-heterogeneous-energy",
    ),
    ("contour-startup-energy", "contour-startup-energy"),
    ("contour-mapreduce", "contour-mapreduce"),
    ("pareto", "heterogeneous-pareto"),
    ("speedup-reducers", "mapreduce-reducers"),
];

/// Where two JSON values differ, as a path (none when they agree):
/// numbers to a relative `10⁻⁴`, as the files store them (rounded to five
/// or six significant digits).
fn json_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64()?, y.as_f64()?);
            let close = (x - y).abs() <= 1e-4 * x.abs().max(y.abs()).max(1e-300);
            (!close).then(|| format!("{at}: {x} vs {y}"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() != y.len() => {
            Some(format!("{at}: {} items vs {}", x.len(), y.len()))
        }
        (Value::Array(x), Value::Array(y)) => (x.iter().zip(y))
            .enumerate()
            .find_map(|(i, (p, q))| json_difference(p, q, &format!("{at}[{i}]"))),
        (Value::Object(x), Value::Object(y)) => {
            let keys = |o: &serde_json::Map<String, Value>| o.keys().cloned().collect::<Vec<_>>();
            if keys(x) != keys(y) {
                return Some(format!("{at}: fields {:?} vs {:?}", keys(x), keys(y)));
            }
            x.iter()
                .find_map(|(k, p)| json_difference(p, &y[k], &format!("{at}.{k}")))
        }
        _ => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

/// The charts the layout tests read from `tests/data` are the charts the
/// models draw now: each preset solved again, its chart of the same name
/// equal to the stored one (a change of a model's answers or of its
/// charts must come with new files, or the layout tests check old data).
#[test]
#[ignore = "minutes in a debug build; make test runs it in an optimised build"]
fn stored_charts_are_what_the_models_compute_now() {
    for (file, preset) in STORED {
        let response = run(&Request::example(preset).unwrap(), &mut Silent).unwrap();
        let (stored, computed) = if file == "isoefficiency-reference" {
            // The whole answer is stored: the page draws its chart from it.
            let value = serde_json::to_value(&response).unwrap();
            let entry = dlt_calc::registry::find("isoefficiency").unwrap();
            let mut charts = entry
                .page()
                .charts(value, &json!({ "overlays": true }))
                .unwrap();
            (reference_map(true), charts.remove(0))
        } else {
            let stored = stored(file);
            let same = response.charts().iter().find(|c| c.name == stored.name);
            let computed = same.unwrap_or_else(|| panic!("{preset}: no chart {}", stored.name));
            (stored, computed.clone())
        };
        let (a, b) = (json!(stored), json!(computed));
        assert!(
            a["lines"].as_array().is_some_and(|l| !l.is_empty()),
            "{file}: no lines"
        );
        if let Some(at) = json_difference(&a, &b, file) {
            panic!("tests/data/{file}.json is not what {preset} computes now: {at}");
        }
    }
}

/// The generalised maps' presets' charts.
fn generalised_maps() -> Vec<LineChart> {
    [
        "contour-compute-communication",
        "contour-energy",
        "contour-startup",
        "contour-heterogeneous-energy",
        "contour-startup-energy",
        "contour-mapreduce",
    ]
    .iter()
    .map(|n| stored(n))
    .collect()
}

/// The charts of a built-in example, solved.
fn example_charts(name: &str) -> Vec<LineChart> {
    let request = Request::example(name).unwrap();
    run(&request, &mut Silent).unwrap().charts().to_vec()
}

/// A text of an SVG document: its words, its colour and its box in pixels
/// (from its position, anchors and font size; plotters writes font sizes
/// divided by 1.24, the canvas draws them at the size asked for).
#[derive(Debug)]
struct SvgText {
    text: String,
    fill: String,
    rect: Rect,
}

/// The value of attribute `name` in `attrs`.
fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let start = attrs.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&attrs[start..start + attrs[start..].find('"')?])
}

/// Every text of `svg` with its box.
fn svg_texts(svg: &str) -> Vec<SvgText> {
    let mut out = Vec::new();
    for piece in svg.split("<text").skip(1) {
        let (attrs, rest) = piece.split_once('>').unwrap();
        let text = rest.split("</text>").next().unwrap().trim();
        let text = text
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
        let num = |n: &str| attr(attrs, n).unwrap().parse::<f64>().unwrap();
        let size = (num("font-size") * 1.24).round() as u32;
        let (w, h) = (text_width(&text, size), text_height(size));
        let (x, y) = (num("x") as i32, num("y") as i32);
        let x0 = match attr(attrs, "text-anchor") {
            Some("middle") => x - w / 2,
            Some("end") => x - w,
            _ => x,
        };
        let y0 = match attr(attrs, "dy") {
            Some("0.76em") => y,
            Some("0.5ex") => y - h / 2,
            Some("-0.5ex") => y - h,
            _ => y - h * 4 / 5,
        };
        let mut rect = Rect::at(x0, y0, w, h);
        if attr(attrs, "transform").is_some_and(|t| t.starts_with("rotate(270")) {
            // Turned a quarter anticlockwise about (x, y).
            rect = Rect {
                x0: x + (rect.y0 - y),
                x1: x + (rect.y1 - y),
                y0: y - (rect.x1 - x),
                y1: y - (rect.x0 - x),
            };
        }
        let fill = attr(attrs, "fill").unwrap_or("#000000").to_string();
        out.push(SvgText { text, fill, rect });
    }
    out
}

/// The sizes charts are drawn at: the desktop page's and a phone's.
const SIZES: [(u32, u32); 2] = [(900, 560), (360, 300)];

/// The level labels of `chart` (the texts drawn in a line's colour) lie
/// inside its plotting area and apart, in the layout and in the SVG.
fn assert_labels_apart_and_inside(chart: &LineChart, (w, h): (u32, u32)) {
    let laid = layout(chart, w, h).unwrap();
    let plot = laid.plot();
    for (i, a) in laid.labels.iter().enumerate() {
        assert!(
            a.rect.inside(&plot),
            "{} at {:?} leaves {plot:?}",
            a.text,
            a.rect
        );
        for b in &laid.labels[i + 1..] {
            assert!(
                !a.rect.overlaps(&b.rect),
                "{} and {} overlap",
                a.text,
                b.text
            );
        }
    }
    let labelled = chart.lines.iter().filter(|l| l.label.is_some()).count();
    if w >= 900 {
        assert_eq!(
            laid.labels.len(),
            labelled,
            "{}: labels left out",
            chart.name
        );
    }
    let svg = lines_svg(chart, w, h).unwrap();
    let texts = svg_texts(&svg);
    // The labels drawn: texts in their line's colour (MAX's is black) at
    // the layout's place.
    let coloured: Vec<&SvgText> = texts
        .iter()
        .filter(|t| {
            laid.labels.iter().any(|l| {
                let (r, g, b) = laid.looks[l.line].colour;
                l.text == t.text
                    && t.fill == format!("#{r:02X}{g:02X}{b:02X}")
                    && (t.rect.x0 - l.rect.x0).abs() <= 2
                    && (t.rect.y0 - l.rect.y0).abs() <= 2
            })
        })
        .collect();
    assert_eq!(coloured.len(), laid.labels.len(), "{}", chart.name);
    // The SVG's boxes, measured independently of the layout's.
    let grown = Rect {
        x0: plot.x0 - 1,
        y0: plot.y0 - 1,
        x1: plot.x1 + 1,
        y1: plot.y1 + 1,
    };
    for (i, a) in coloured.iter().enumerate() {
        assert!(
            a.rect.inside(&grown),
            "{}: {} at {:?} leaves {plot:?}",
            chart.name,
            a.text,
            a.rect
        );
        for b in &coloured[i + 1..] {
            assert!(
                !a.rect.overlaps(&b.rect),
                "{}: {} and {} overlap",
                chart.name,
                a.text,
                b.text
            );
        }
    }
}

#[test]
fn reference_map_labels_stand_apart_inside_the_plot() {
    for overlays in [false, true] {
        let chart = reference_map(overlays);
        // The 12 levels (below MAX, above it or both) and MAX.
        let mut names: Vec<&str> = chart
            .lines
            .iter()
            .filter_map(|l| l.label.as_deref())
            .collect();
        names.dedup();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 13, "{names:?}");
        for size in SIZES {
            assert_labels_apart_and_inside(&chart, size);
        }
    }
}

/// The sizes the page lays the map out at: a 1 280 pixel wide window
/// (the canvas at its widest, 900, and the map 600 high) and a 360 pixel
/// wide phone (the canvas as wide as the page leaves it, 300 high), with
/// widths around the phone's.
const PAGE_SIZES: [(u32, u32); 4] = [(900, 600), (344, 300), (328, 300), (360, 300)];

/// The distance in pixels from `p` to the box.
fn distance_to_box(p: (i32, i32), r: &Rect) -> f64 {
    let dx = f64::from((r.x0 - p.0).max(p.0 - (r.x1 - 1)).max(0));
    let dy = f64::from((r.y0 - p.1).max(p.1 - (r.y1 - 1)).max(0));
    dx.hypot(dy)
}

/// The distance in pixels from `p` to the line through `points`.
fn distance_to_line(p: (i32, i32), points: &[(i32, i32)]) -> f64 {
    let (px, py) = (f64::from(p.0), f64::from(p.1));
    let segment = |a: (i32, i32), b: (i32, i32)| {
        let (ax, ay, bx, by) = (
            f64::from(a.0),
            f64::from(a.1),
            f64::from(b.0),
            f64::from(b.1),
        );
        let length = (bx - ax).powi(2) + (by - ay).powi(2);
        let t = if length == 0.0 {
            0.0
        } else {
            (((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length).clamp(0.0, 1.0)
        };
        (px - ax - t * (bx - ax)).hypot(py - ay - t * (by - ay))
    };
    match points {
        [single] => segment(*single, *single),
        _ => points
            .windows(2)
            .map(|s| segment(s[0], s[1]))
            .fold(f64::INFINITY, f64::min),
    }
}

/// Every label of `chart` at `size` is written beside a point of its own
/// line (its box a few pixels from that point, the point on the line),
/// apart from the others and inside the plot; returns the labels whose
/// point is one of their line's ends.
fn assert_labels_on_their_lines(chart: &LineChart, (w, h): (u32, u32)) -> Vec<String> {
    let laid = layout(chart, w, h).unwrap();
    let lines = pixel_lines(chart, &laid.frame);
    let mut at_ends = Vec::new();
    for (i, a) in laid.labels.iter().enumerate() {
        let what = format!("{} at {w}×{h}: {} {:?}", chart.name, a.text, a);
        assert_eq!(
            chart.lines[a.line].label.as_deref(),
            Some(a.text.as_str()),
            "{what}"
        );
        assert!(
            distance_to_box(a.anchor, &a.rect) <= 4.5,
            "{what}: away from its point"
        );
        assert!(
            distance_to_line(a.anchor, &lines[a.line]) <= 1.5,
            "{what}: point off its line"
        );
        assert_eq!(
            lines[a.line].last(),
            Some(&a.end),
            "{what}: not its line's end"
        );
        assert!(a.rect.inside(&laid.plot()), "{what}: outside the plot");
        for b in &laid.labels[i + 1..] {
            assert!(
                !a.rect.overlaps(&b.rect),
                "{what} overlaps {} {:?}",
                b.text,
                b.rect
            );
        }
        if [lines[a.line].first(), lines[a.line].last()].contains(&Some(&a.anchor)) {
            at_ends.push(a.text.clone());
        }
    }
    at_ends
}

/// The isoefficiency map's labels at the page's sizes: each beside its own
/// line, none stacked apart from it; MAX at its line's end; all of them at
/// the widest; most of them at one of their line's ends.
#[test]
fn map_labels_sit_on_their_own_lines_at_the_pages_sizes() {
    for overlays in [false, true] {
        let chart = reference_map(overlays);
        let labelled = chart.lines.iter().filter(|l| l.label.is_some()).count();
        for size in PAGE_SIZES {
            let laid = layout(&chart, size.0, size.1).unwrap();
            let max = laid.labels.iter().find(|l| l.text == "MAX");
            let max = max.unwrap_or_else(|| panic!("no MAX at {size:?}"));
            assert_eq!(max.anchor, max.end, "MAX away from its end at {size:?}");
            let at_ends = assert_labels_on_their_lines(&chart, size);
            if size.0 >= 900 {
                assert_eq!(laid.labels.len(), labelled, "labels left out at {size:?}");
            }
            assert!(
                2 * at_ends.len() >= laid.labels.len(),
                "at {size:?} only {at_ends:?} at an end of {}",
                laid.labels.len()
            );
        }
    }
    for chart in generalised_maps() {
        for size in PAGE_SIZES {
            assert_labels_on_their_lines(&chart, size);
        }
    }
}

#[test]
fn generalised_map_labels_stand_apart_inside_the_plot() {
    for chart in generalised_maps() {
        for size in SIZES {
            assert_labels_apart_and_inside(&chart, size);
        }
    }
}

/// No level is drawn on an axis: a line along the grid's edge lies a few
/// pixels inside the plot, apart from the axis lines.
#[test]
fn no_level_lies_on_an_axis() {
    let mut charts = generalised_maps();
    charts.push(reference_map(false));
    for chart in charts {
        let laid = layout(&chart, 900, 560).unwrap();
        let plot = laid.plot();
        let inner = Rect {
            x0: plot.x0 + 3,
            y0: plot.y0 + 3,
            x1: plot.x1 - 3,
            y1: plot.y1 - 3,
        };
        for line in pixel_lines(&chart, &laid.frame) {
            for p in line {
                assert!(
                    inner.contains(p),
                    "{}: a point at {p:?}, plot {plot:?}",
                    chart.name
                );
            }
        }
    }
}

/// Every level (a line's name) has a look of its own, and the estimates a
/// dashed stroke no computed line has, on the map with estimates and on
/// the generalised maps.
#[test]
fn every_level_has_its_own_look_and_estimates_theirs() {
    let mut charts = generalised_maps();
    charts.push(reference_map(true));
    for chart in charts {
        let looks = looks(&chart);
        let mut levels: Vec<(&str, _)> = Vec::new();
        for (line, look) in chart.lines.iter().zip(&looks) {
            let key = (look.colour, look.marker, look.dash);
            match line.style {
                Style::Dashed => assert!(look.dash.is_some(), "{} is not dashed", line.name),
                _ => assert_eq!(look.dash, None, "computed {} is dashed", line.name),
            }
            if line.style == Style::Solid && !levels.iter().any(|(n, _)| *n == line.name) {
                levels.push((&line.name, key));
            }
        }
        for (i, (a, ka)) in levels.iter().enumerate() {
            for (b, kb) in &levels[i + 1..] {
                assert_ne!(ka, kb, "{}: levels {a} and {b} look alike", chart.name);
            }
        }
    }
    // With the estimates on, the map has dashed lines to tell apart.
    let chart = reference_map(true);
    assert!(chart.lines.iter().any(|l| l.style == Style::Dashed));
}

/// At a phone's width, no text of any chart (title, ticks, axes, labels,
/// legend) reaches beyond the image.
#[test]
fn nothing_is_cut_at_360_pixels() {
    let mut charts = vec![reference_map(false), reference_map(true)];
    charts.extend(generalised_maps());
    charts.extend(["speedup-reducers", "pareto"].map(stored));
    for name in [
        "metrics-adding",
        "metrics-edge",
        "metrics-cubic",
        "metrics-karp-flatt",
        "metrics-usl",
        "installments",
        "linear-energy-small",
        "heterogeneous-compare",
        "heterogeneous-100",
        "mapreduce-small",
    ] {
        charts.extend(example_charts(name));
    }
    let image = Rect::at(0, 0, 360, 300);
    for chart in &charts {
        let svg = lines_svg(chart, 360, 300).unwrap();
        for t in svg_texts(&svg) {
            assert!(
                t.rect.inside(&image),
                "{}: {:?} at {:?}",
                chart.name,
                t.text,
                t.rect
            );
        }
    }
    for name in ["hierarchical", "startup", "mapreduce", "heterogeneous"] {
        let response = run(&Request::example(name).unwrap(), &mut Silent).unwrap();
        let gantt = response.gantt().unwrap();
        let styles = gantt_styles(name);
        let h = gantt_height(gantt, &styles, 360);
        let svg = gantt_svg(gantt, &styles, 360, h).unwrap();
        for t in svg_texts(&svg) {
            let image = Rect::at(0, 0, 360, h as i32);
            assert!(
                t.rect.inside(&image),
                "{name} Gantt: {:?} at {:?}",
                t.text,
                t.rect
            );
        }
    }
}

/// Whether the box covers a point or crosses a segment of the lines,
/// sampled every half pixel.
fn covers(rect: &Rect, lines: &[Vec<(i32, i32)>]) -> bool {
    let inside = |x: f64, y: f64| {
        x >= f64::from(rect.x0)
            && x <= f64::from(rect.x1)
            && y >= f64::from(rect.y0)
            && y <= f64::from(rect.y1)
    };
    lines.iter().any(|line| {
        line.iter()
            .any(|&(x, y)| inside(f64::from(x), f64::from(y)))
            || line.windows(2).any(|s| {
                let (a, b) = (s[0], s[1]);
                let n = 2 * (b.0 - a.0).abs().max((b.1 - a.1).abs()).max(1);
                (0..=n).any(|k| {
                    let t = f64::from(k) / f64::from(n);
                    inside(
                        f64::from(a.0) + t * f64::from(b.0 - a.0),
                        f64::from(a.1) + t * f64::from(b.1 - a.1),
                    )
                })
            })
    })
}

/// The legends of the charts the new user found covering data (M7's
/// Pareto front, the speedup, M4, M8 and the laws charts) cover no point
/// and no line, at both sizes, and lie inside the image.
#[test]
fn legends_hide_no_data() {
    let mut charts = vec![stored("pareto"), stored("speedup-reducers")];
    for (example, name) in [
        ("metrics-adding", "speedup"),
        ("metrics-karp-flatt", "laws"),
        ("installments", "time-vs-load"),
    ] {
        let found = example_charts(example).into_iter().find(|c| c.name == name);
        charts.push(found.unwrap_or_else(|| panic!("{example} has no chart {name}")));
    }
    for chart in &charts {
        for (w, h) in SIZES {
            let laid = layout(chart, w, h).unwrap();
            let legend = laid
                .legend
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no legend", chart.name));
            let lines = pixel_lines(chart, &laid.frame);
            assert!(
                !covers(&legend.frame, &lines),
                "{} at {w}: the legend hides data",
                chart.name
            );
            assert!(legend.frame.inside(&Rect::at(0, 0, w as i32, h as i32)));
            // Every entry's words lie in the box.
            for e in &legend.entries {
                let words = Rect::at(
                    e.at.0 + 22,
                    e.at.1,
                    text_width(&e.text, laid.fonts.legend),
                    1,
                );
                assert!(
                    words.inside(&legend.frame),
                    "{}: {} sticks out",
                    chart.name,
                    e.text
                );
            }
        }
    }
    // The Pareto chart's super-SSC point in particular.
    let pareto = stored("pareto");
    let laid = layout(&pareto, 900, 560).unwrap();
    let ssc = pareto
        .lines
        .iter()
        .position(|l| l.name == "super-ssc")
        .unwrap();
    let [x, y] = pareto.lines[ssc].points[0];
    assert!(!laid
        .legend
        .unwrap()
        .frame
        .contains(laid.frame.pixel_at(x, y)));
}

/// The ticks of a generalised map read as powers of ten, never as
/// `10·10⁻⁶`.
#[test]
fn ticks_read_as_powers_of_ten() {
    for chart in generalised_maps() {
        let svg = lines_svg(&chart, 900, 560).unwrap();
        for t in svg_texts(&svg) {
            if let Some((mantissa, _)) = t.text.split_once("·10") {
                let m: f64 = mantissa.trim_start_matches('−').parse().unwrap();
                assert!((1.0..10.0).contains(&m), "{}: tick {}", chart.name, t.text);
            }
        }
    }
}

/// `dlt solve --svg` of M8's reference job writes a Gantt chart that marks
/// where mappers and reducers are left out, and how many; `--charts`
/// writes line charts whose texts all lie in the image.
#[test]
fn the_command_line_draws_the_gaps_and_keeps_texts_inside() {
    let dir = std::env::temp_dir().join(format!("dlt-charts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gantt = dir.join("gantt.svg");
    let example = cli_support::dlt(&["example", "mapreduce"], "").stdout;
    let out = cli_support::dlt(&["solve", "-", "--svg", gantt.to_str().unwrap()], &example);
    assert!(out.success(), "{}", out.stderr);
    let svg = std::fs::read_to_string(&gantt).unwrap();
    assert!(svg.contains("… 976 mappers not shown"), "no gap mark");
    assert!(svg.contains("… 84 reducers not shown"), "no gap mark");
    let example = cli_support::dlt(&["example", "metrics-adding"], "").stdout;
    let charts = dir.join("charts");
    let out = cli_support::dlt(
        &["solve", "-", "--charts", charts.to_str().unwrap()],
        &example,
    );
    assert!(out.success(), "{}", out.stderr);
    let mut seen = 0;
    for file in std::fs::read_dir(&charts).unwrap() {
        let svg = std::fs::read_to_string(file.unwrap().path()).unwrap();
        for t in svg_texts(&svg) {
            assert!(
                t.rect.inside(&Rect::at(0, 0, 900, 560)),
                "{:?} at {:?}",
                t.text,
                t.rect
            );
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} texts");
    std::fs::remove_dir_all(&dir).unwrap();
}
