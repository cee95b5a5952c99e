//! Isoefficiency maps, Table 1 and generalised maps.

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::error::Validate;
use dlt_calc::core::framework::model::Model;
use dlt_calc::core::presentation::map::Tagged;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::maps::contour;
use dlt_calc::maps::contour::GeneralisedMap;
use dlt_calc::models::isoefficiency::overlay::Estimate;
use dlt_calc::models::isoefficiency::Request as MapRequest;
use dlt_calc::models::linear::Objective;
use dlt_calc::models::startup::probe::Probe;
use dlt_calc::models::table1::table::PAPER;
use dlt_calc::models::{linear::Linear, startup::Startup};
use dlt_calc::registry::Models;
use dlt_calc::Error;

fn small_map() -> MapRequest {
    MapRequest {
        machines_from: Count(2),
        machines_to: Count(3),
        levels: vec![1.0, 20.0, 30.0],
        load_max: 1e6,
        ..MapRequest::reference()
    }
}

/// Every point of a map is what a direct evaluation at its load gives: the
/// schedule's efficiency is reproduced, the exact search's optimum lies
/// between it and the point's bound, and the level is crossed within the
/// load tolerance.
#[test]
fn map_points_agree_with_direct_evaluation() {
    let request = small_map();
    let map = request.map(&mut Silent).unwrap();
    assert_eq!(map.columns.len(), 2);
    for column in &map.columns {
        let m = column.machines;
        let crossings = column.below.iter().chain(&column.above);
        assert!(column.below.len() == 3, "m = {m}: every level below Vmax");
        for c in crossings {
            let p = c.point;
            let mut fresh = Probe::new(&request.instance(m, 1.0)).unwrap();
            let direct = fresh.at(p.load).unwrap();
            assert!((direct.efficiency - p.efficiency).abs() <= 1e-6 * p.efficiency);
            // The level is crossed within the tolerance around the load.
            let t = request.tolerance;
            let (a, b) = (fresh.at(p.load - t).unwrap(), fresh.at(p.load + t).unwrap());
            let (lo, hi) = (
                a.efficiency.min(b.efficiency),
                a.efficiency.max(b.efficiency),
            );
            assert!(
                lo - 1e-6 <= c.level && c.level <= hi + 1e-6,
                "m = {m}, level {}: E is {lo}..{hi} around V = {}",
                c.level,
                p.load
            );
            // The exact optimum is between the point and its bound.
            let mut exact = request.instance(m, p.load);
            exact.max_lps = Some(Count(300));
            let report = exact.solve(&mut Silent).unwrap();
            assert!(report.efficiency >= p.efficiency * (1.0 - 1e-9));
            assert!(report.efficiency <= p.efficiency_bound * (1.0 + 1e-9));
        }
        // Above Vmax only levels of at least 1, below Vmax only under Emax.
        assert!(column.above.iter().all(|c| c.level >= 1.0));
        assert!(column.below.iter().all(|c| c.level < column.max.efficiency));
        assert!(column.below.iter().all(|c| c.point.load < column.max.load));
        assert!(column.above.iter().all(|c| c.point.load > column.max.load));
        assert!(column.largest_gap <= map.largest_gap);
    }
}

/// The qualitative facts of `[3]` on the reference map: efficiency above
/// 1 near `V ≈ ρ`, the low lines coalescing near `ρ`, `MAX` at the paper's
/// Table 1, lines above `Vmax` nearly horizontal, every point certified to
/// 1 %. About 25 s in release.
#[test]
#[ignore = "the full reference map: run optimised (make test does)"]
fn reference_map_shows_the_papers_phenomena() {
    let request = MapRequest::reference();
    let rho = request.instance(2, 1.0).ram();
    let map = request.map(&mut Silent).unwrap();
    assert_eq!(map.columns.len(), 19);
    for column in &map.columns {
        let m = column.machines;
        let mut probe = Probe::new(&request.instance(m, 1.0)).unwrap();
        assert!(probe.at(1.5 * rho).unwrap().efficiency > 1.0, "m = {m}");
        for c in column
            .below
            .iter()
            .filter(|c| (1.0..=4.0).contains(&c.level))
        {
            let v = c.point.load;
            assert!(
                v > 0.9 * rho && v < 1.6 * rho,
                "m = {m}: e = {} at {v}",
                c.level
            );
        }
        let (_, emax, vmax) = *PAPER.iter().find(|r| r.0 == m).unwrap();
        assert!(
            column.max.efficiency >= emax - 0.05,
            "m = {m}: Emax {}",
            column.max.efficiency
        );
        let ratio = column.max.load / vmax;
        assert!(
            (0.85..1.15).contains(&ratio),
            "m = {m}: Vmax {}",
            column.max.load
        );
        // Every point certified to 1 % within the default LP budget.
        assert!(
            column.largest_gap <= 0.01,
            "m = {m}: gap {}",
            column.largest_gap
        );
    }
    // Above Vmax, the line of e = 10 hardly moves with m (approximation 15).
    let loads: Vec<f64> = map
        .columns
        .iter()
        .filter_map(|c| c.above.iter().find(|x| x.level == 10.0))
        .map(|x| x.point.load)
        .collect();
    assert_eq!(loads.len(), 19);
    let (lo, hi) = loads
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(hi / lo < 1.05, "e = 10 above Vmax spans {lo}..{hi}");
}

/// Table 1: every efficiency is at least the paper's (to its one decimal),
/// with a proven bound, and the certification never loses to the probe.
#[test]
#[ignore = "the full Table 1: run optimised (make test does)"]
fn table_1_beats_the_paper() {
    let table = MapRequest::reference().table(&mut Silent).unwrap();
    assert!(table.reference);
    assert_eq!(table.rows.len(), 19);
    for row in &table.rows {
        let [emax, _] = row.paper.unwrap();
        assert!(
            (row.max.efficiency * 10.0).round() / 10.0 >= emax,
            "m = {}: {} < {emax}",
            row.machines,
            row.max.efficiency
        );
        assert!(row.max.efficiency <= row.max.efficiency_bound);
        assert!(
            row.max.gap < 0.05,
            "m = {}: gap {}",
            row.machines,
            row.max.gap
        );
        let at = row.at_paper_load.unwrap();
        assert!((at.efficiency * 10.0).round() / 10.0 >= emax);
    }
}

/// The overlays of `[3]`: the bounds (13) straddle the computed line
/// below `Vmax`, and (15) lies above `Vmax`.
#[test]
fn overlays_straddle_the_computed_lines() {
    let request = small_map();
    let map = request.map(&mut Silent).unwrap();
    let mut straddled = 0;
    for column in &map.columns {
        for c in &column.below {
            let (Some(least), Some(most)) = (
                column.overlay.load(Estimate::UpperBound, c.level),
                column.overlay.load(Estimate::LowerBound, c.level),
            ) else {
                continue;
            };
            // The upper bound reaches the level first (no smaller load can
            // have it), the lower bound last (that load surely has it): the
            // computed line lies between them, on both sides.
            assert!(
                least <= c.point.load * 1.001,
                "m = {}: {least} > {}",
                column.machines,
                c.point.load
            );
            assert!(
                c.point.load <= most * 1.001,
                "m = {}: {} > {most}",
                column.machines,
                c.point.load
            );
            straddled += 1;
        }
        for (i, v) in column.overlay.approximation.iter().enumerate() {
            if let Some(v) = v {
                assert!(*v > column.max.load && column.overlay.levels[i] > 1.0);
            }
        }
    }
    assert!(
        straddled >= 4,
        "only {straddled} crossings between both bounds"
    );
    let chart = map.chart(true);
    assert!(chart.lines.iter().any(|l| l.name.ends_with("(15)")));
    assert!(chart
        .lines
        .iter()
        .any(|l| l.label.as_deref() == Some("MAX")));
}

/// Bad map requests name their field.
#[test]
fn invalid_map_requests_name_the_field() {
    let cases: Vec<(MapRequest, &str)> = vec![
        (
            MapRequest {
                machines_from: Count(1),
                ..small_map()
            },
            "machines_from",
        ),
        (
            MapRequest {
                machines_from: Count(5),
                machines_to: Count(3),
                ..small_map()
            },
            "machines_to",
        ),
        (
            MapRequest {
                levels: vec![1.0, -2.0],
                ..small_map()
            },
            "levels[1]",
        ),
        (
            MapRequest {
                levels: vec![],
                ..small_map()
            },
            "levels",
        ),
        (
            MapRequest {
                tolerance: 0.0,
                ..small_map()
            },
            "tolerance",
        ),
        (
            MapRequest {
                load_max: 0.5,
                ..small_map()
            },
            "load_max",
        ),
        (
            MapRequest {
                load_min: -1.0,
                ..small_map()
            },
            "load_min",
        ),
        (
            MapRequest {
                a2: 0.01,
                ..small_map()
            },
            "a2",
        ),
        (
            MapRequest {
                chunks: Count(0),
                ..small_map()
            },
            "chunks",
        ),
    ];
    for (request, field) in cases {
        let err = request.map(&mut Silent).unwrap_err();
        assert_eq!(err.field_path(), Some(field), "{err}");
    }
}

/// A generalised map of linear DLT: the lines pass where the model has the
/// level (up to the grid's interpolation).
#[test]
fn contour_lines_lie_on_their_level() {
    let request = map_preset("contour-compute-communication");
    let contour::Output { contour, charts } =
        GeneralisedMap::<Models>::solve(&request, &mut Silent).unwrap();
    assert_eq!(charts.len(), 1);
    assert_eq!(contour.invalid_cells, 0);
    let base = request.base.read::<Linear>().unwrap();
    let mut checked = 0;
    let summary = serde_json::to_string(&contour.view()).unwrap();
    for (level, pieces) in &contour.lines {
        // A level met on a plateau along the grid's edge traces no line,
        // and the summary says so.
        if pieces.is_empty() {
            let said = format!("level {level} is met only along the grid's edge");
            assert!(
                summary.contains(&said),
                "level {level} has no line: {summary}"
            );
            continue;
        }
        for &[a, c] in pieces.iter().flatten().step_by(5) {
            let mut inst = base.clone();
            inst.machines[0].compute = a;
            inst.machines[0].rate = c;
            let r = inst.solve(&mut Silent).unwrap();
            let e = r.single / (r.makespan * r.machines as f64);
            assert!(
                (e - level).abs() < 0.03,
                "at A = {a}, C = {c}: {e} vs {level}"
            );
            checked += 1;
        }
    }
    assert!(checked > 20);
}

/// A map of M2's energy over a power (`contour-energy`, on a smaller grid)
/// solves each schedule once per band of rows and prices it for every
/// power: every cell is, bit for bit, the energy of its own request solved
/// whole, whether the machines are chosen for time or for energy (which
/// the powers do change).
#[test]
fn an_energy_map_over_the_powers_equals_its_cells_solved_one_by_one() {
    for objective in [Objective::Time, Objective::Energy] {
        let mut request = map_preset("contour-energy");
        request.x.to = 3000.0;
        request.x.steps = Count(5);
        request.y.steps = Count(7);
        let mut base = request.base.read::<Linear>().unwrap();
        base.objective = objective;
        request.base = Tagged::of::<Linear>(&base);
        let grid = request.contour(&mut Silent).unwrap();
        for (j, &factor) in grid.y.iter().enumerate() {
            for (i, &count) in grid.x.iter().enumerate() {
                let mut cell = base.clone();
                cell.machines[0].count = Count(count as u64);
                cell.power.as_mut().unwrap().idle_factor = factor;
                let energy = cell.solve(&mut Silent).unwrap().energy.unwrap().total;
                assert_eq!(
                    grid.values[j][i],
                    Some(energy),
                    "{objective:?}, {count}, {factor}"
                );
            }
        }
    }
}

/// Generalised maps check their axes and quantity.
#[test]
fn invalid_contour_requests_name_the_field() {
    let base = map_preset("contour-startup");
    let mut unknown = base.clone();
    unknown.x.parameter = "speed".into();
    let mut energy = base.clone();
    energy.quantity = contour::Quantity::Energy;
    let mut steps = base.clone();
    steps.y.steps = Count(1);
    let mut log = base.clone();
    log.x.from = 0.0;
    for (request, field) in [
        (unknown, "x.parameter"),
        (energy, "quantity"),
        (steps, "y.steps"),
        (log, "x.from"),
    ] {
        let err: Error = request.contour(&mut Silent).unwrap_err();
        assert_eq!(err.field_path(), Some(field), "{err}");
    }
    let message = {
        let mut r = map_preset("contour-startup");
        r.x.parameter = "speed".into();
        r.problems()[0].to_string()
    };
    assert!(message.contains("\"speed\" is not one"), "{message}");
}

/// A start-up map over `C` and `V`: values are probe efficiencies, with gaps.
#[test]
fn startup_contour_carries_gaps() {
    let mut request = map_preset("contour-startup");
    request.x.steps = Count(5);
    request.y.steps = Count(5);
    let c = request.contour(&mut Silent).unwrap();
    assert_eq!(c.values.len(), 5);
    assert!(c
        .values
        .iter()
        .flatten()
        .all(|v| v.is_some_and(|v| v > 0.0)));
    assert!(c.largest_gap >= 0.0 && c.largest_gap < 1.0);
    assert!(c.csv().lines().count() == 26);
}

/// The usable RAM `ρ` is an axis of the start-up model (through `b2`).
#[test]
fn ram_is_an_axis_of_the_startup_model() {
    let mut request = map_preset("contour-startup");
    request.x = contour::AxisRange {
        parameter: "ram".into(),
        from: 2000.0,
        to: 20000.0,
        steps: Count(3),
        log: true,
    };
    request.y.steps = Count(3);
    let c = request.contour(&mut Silent).unwrap();
    assert_eq!(c.invalid_cells, 0);
    // Each cell is the probe of the instance whose b2 gives that ρ.
    let base = request.base.read::<Startup>().unwrap();
    for (j, &load) in c.y.iter().enumerate() {
        for (i, &ram) in c.x.iter().enumerate() {
            let template = dlt_calc::models::startup::Instance {
                b2: ram * (base.a1 - base.a2),
                ..base.clone()
            };
            assert!((template.ram() - ram).abs() < 1e-9 * ram);
            let want = Probe::new(&template).unwrap().at(load).unwrap().efficiency;
            let got = c.values[j][i].unwrap();
            // The grid's probe re-optimises LPs it keeps; a new probe may
            // stop at another optimal point of the same LP (1e-7 apart).
            assert!(
                (got - want).abs() <= 1e-6 * want,
                "ρ = {ram}, V = {load}: {got} vs {want}"
            );
        }
    }
}

/// Maps, Table 1 and generalised maps computed on every core equal those
/// computed on one thread, bit for bit (their pieces are independent).
#[test]
#[cfg(not(target_arch = "wasm32"))] // one thread: rayon, native only
fn every_core_gives_the_results_of_one_thread() {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let map = small_map();
    let table = MapRequest {
        machines_to: Count(4),
        ..MapRequest::reference()
    };
    let mut grid = map_preset("contour-startup");
    (grid.x.steps, grid.y.steps) = (Count(5), Count(9));
    let all = (
        map.map(&mut Silent).unwrap(),
        table.table(&mut Silent).unwrap(),
        grid.contour(&mut Silent).unwrap(),
    );
    let one = one_thread.install(|| {
        (
            map.map(&mut Silent).unwrap(),
            table.table(&mut Silent).unwrap(),
            grid.contour(&mut Silent).unwrap(),
        )
    });
    assert_eq!(all.0, one.0, "the map");
    assert_eq!(all.1, one.1, "Table 1");
    assert_eq!(all.2, one.2, "the generalised map");
}

/// A generalised map asks whether to go on before every cell (a cell may
/// be a whole search), not once a row: a cancel waits for one cell.
#[test]
#[cfg(not(target_arch = "wasm32"))]
fn a_generalised_map_can_be_stopped_at_every_cell() {
    let request = map_preset("contour-compute-communication");
    let mut asked = 0;
    let mut count = |_: f64, _: &str| {
        asked += 1;
        true
    };
    // On one thread every question reaches the caller (the pool relays
    // only some of them, and stops its pieces itself).
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let contour::Output { contour, .. } = one
        .install(|| GeneralisedMap::<Models>::solve(&request, &mut count))
        .unwrap();
    let cells = contour.x.len() * contour.y.len();
    assert!(asked >= cells, "asked {asked} times for {cells} cells");
    // Asked to stop at the first question, it stops before the first cell
    // (on every core the relay asks only every 50 ms, and a map this quick
    // may be done by then).
    let mut stop = |_: f64, _: &str| false;
    let stopped = one.install(|| GeneralisedMap::<Models>::solve(&request, &mut stop));
    assert!(matches!(stopped, Err(Error::Cancelled)), "{stopped:?}");
}

/// A preset of the generalised maps, as its typed request.
fn map_preset(name: &str) -> contour::Request<Models> {
    let mut value = dlt_calc::api::Request::example(name).unwrap().to_json();
    value.as_object_mut().unwrap().remove("model");
    serde_json::from_value(value).unwrap()
}
