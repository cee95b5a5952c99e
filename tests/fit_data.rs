//! The fit's built-in data sets: every one is read as a user's table
//! would be, the measured one holds `[1]`'s published figures, and the
//! synthetic ones are exactly what their generator below makes from its
//! fixed seed (run with `DLT_WRITE_FIT_DATA=1` to write them anew).
#![cfg(not(target_arch = "wasm32"))]

mod rng;

use dlt_calc::models::fit::data::{self, DataSet};
use dlt_calc::models::fit::Quantity;
use rng::Rng;

/// The seed of every synthetic data set (the number).
const SEED: u64 = 31;
/// The relative standard deviation of the noise on each timing.
const NOISE: f64 = 0.03;

/// A standard normal number (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit(); // in (0, 1]: its logarithm is finite
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// `[3]`'s two-level computing time of a machine: `max(a1 α, a2 α + b2)`.
fn two_level(a1: f64, ram: f64, load: f64) -> f64 {
    let a2 = a1 * (4.132 / 0.109);
    let b2 = -(a2 - a1) * ram;
    (a1 * load).max(a2 * load + b2)
}

fn two_level_000() -> String {
    let mut rng = Rng(SEED);
    let mut csv = String::from(
        "# Synthetic, not measured: [3]'s reference machine, t = max(0.109 a, 4.132 a - 27109) s \
         (RAM = 27109/4.023 = 6738.5 MB),\n\
         # each time times (1 + 0.03 z), z standard normal; made by tests/fit_data.rs, seed 31.\n\
         machine,size_MB,time_s\n",
    );
    for k in 1..=40 {
        let load = 500.0 * k as f64;
        let time = (0.109 * load).max(4.132 * load - 27_109.0) * (1.0 + NOISE * normal(&mut rng));
        csv.push_str(&format!("reference,{load},{time:.3}\n"));
    }
    csv
}

fn network_000() -> String {
    let mut rng = Rng(SEED + 1);
    let mut csv = String::from(
        "# Synthetic, not measured: a link with [3]'s C = 0.005 s/MB and O = 0.075 s, t = O + C x,\n\
         # each time times (1 + 0.03 z), z standard normal; made by tests/fit_data.rs, seed 32.\n\
         machine,size_MB,time_s\n",
    );
    for size in [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0] {
        for _ in 0..3 {
            let time = (0.075 + 0.005 * size) * (1.0 + NOISE * normal(&mut rng));
            csv.push_str(&format!("link,{size},{time:.4}\n"));
        }
    }
    csv
}

fn cluster() -> String {
    let mut rng = Rng(SEED + 2);
    let mut csv = String::from(
        "# Synthetic, not measured: the heterogeneous tab's three machine kinds, t = max(a1 x, a2 x + b2) s\n\
         # with a2 = a1 * 4.132/0.109 and b2 = -(a2 - a1) * RAM: node-a a1 = 0.109 s/MB, RAM 6739 MB;\n\
         # node-b a1 = 0.15 s/MB, RAM 4000 MB; node-c a1 = 0.08 s/MB, RAM 8000 MB.\n\
         # Each time times (1 + 0.03 z), z standard normal; made by tests/fit_data.rs, seed 33.\n\
         machine,size_MB,time_s\n",
    );
    for (machine, a1, ram) in [
        ("node-a", 0.109, 6739.0),
        ("node-b", 0.15, 4000.0),
        ("node-c", 0.08, 8000.0),
    ] {
        for k in 1..=25 {
            let load = 800.0 * k as f64;
            let time = two_level(a1, ram, load) * (1.0 + NOISE * normal(&mut rng));
            csv.push_str(&format!("{machine},{load},{time:.3}\n"));
        }
    }
    csv
}

/// The committed file of a synthetic data set is its generator's output.
fn same_as_generated(set: DataSet, file: &str, generated: String) {
    if std::env::var_os("DLT_WRITE_FIT_DATA").is_some() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src/models/fit/data")
            .join(file);
        std::fs::write(&path, &generated).expect("the data folder is writable");
        return;
    }
    assert_eq!(set.csv, generated, "{file} is not what its generator makes");
}

#[test]
fn synthetic_sets_are_their_generators_output() {
    same_as_generated(data::TWO_LEVEL_000, "two_level_000.csv", two_level_000());
    same_as_generated(data::NETWORK_000, "network_000.csv", network_000());
    same_as_generated(data::CLUSTER, "cluster.csv", cluster());
}

#[test]
fn every_set_parses_and_says_whether_it_is_synthetic() {
    for set in data::ALL {
        let table = set.table().unwrap_or_else(|e| panic!("{}: {e}", set.name));
        assert!(table.rows() >= 10, "{}: {} rows", set.name, table.rows());
        assert_eq!(
            set.label.starts_with("synthetic"),
            set.synthetic,
            "{}",
            set.name
        );
        assert!(set.name.starts_with("fit-"), "{}", set.name);
        assert_eq!(data::find(set.name), Some(set));
    }
}

#[test]
fn power_table_holds_the_published_figures() {
    let table = data::POWER_004.table().expect("the power table reads");
    let power = table.require(Quantity::Power, "the test").expect("power_W");
    let states = table.require_texts("state", "the test").expect("state");
    let of = |state: &str| -> Vec<f64> {
        let rows = states.iter().zip(power).filter(|(s, _)| *s == state);
        rows.map(|(_, p)| *p).collect()
    };
    let compute = of("compute");
    assert_eq!(compute.len(), 15);
    // [1]: P_C of 125.6–131.9 W; idle P_C/k = 73.0 W, k ≈ 1.8; hibernation 6.3 W, k ≈ 20.2.
    let mean = compute.iter().sum::<f64>() / 15.0;
    assert!((125.6..=131.9).contains(&mean));
    assert_eq!(of("idle"), vec![73.0]);
    assert_eq!(of("hibernation"), vec![6.3]);
    assert!((mean / 73.0 - 1.8).abs() < 0.05, "k idle {}", mean / 73.0);
    assert!(
        (mean / 6.3 - 20.2).abs() < 0.2,
        "k hibernation {}",
        mean / 6.3
    );
}

#[test]
fn synthetic_sets_straddle_their_machines_ram() {
    for (set, rams) in [
        (data::TWO_LEVEL_000, &[6739.0][..]),
        (data::CLUSTER, &[6739.0, 4000.0, 8000.0][..]),
    ] {
        let table = set.table().expect("reads");
        let size = table.require(Quantity::Size, "the test").expect("size");
        let groups = table.groups();
        assert_eq!(groups.len(), rams.len(), "{}", set.name);
        for (group, ram) in groups.iter().zip(rams) {
            let sizes = group.pick(size);
            let below = sizes.iter().filter(|s| *s < ram).count();
            assert!(
                below >= 4 && sizes.len() - below >= 4,
                "{}: {below}",
                group.machine
            );
        }
    }
}

#[test]
fn synthetic_noise_is_a_few_percent() {
    let table = data::TWO_LEVEL_000.table().expect("reads");
    let size = table.require(Quantity::Size, "the test").expect("size");
    let time = table.require(Quantity::Time, "the test").expect("time");
    let relative: Vec<f64> = size
        .iter()
        .zip(time)
        .map(|(s, t)| t / two_level(0.109, 27_109.0 / (4.132 - 0.109), *s) - 1.0)
        .collect();
    let rms = (relative.iter().map(|r| r * r).sum::<f64>() / relative.len() as f64).sqrt();
    assert!((0.015..0.05).contains(&rms), "rms noise {rms}");
}

/// The least-squares line `y = a x + b` of the points.
fn line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let a = sxy / sxx;
    (a, my - a * mx)
}

#[test]
fn each_side_of_the_reference_knee_gives_back_its_line() {
    let table = data::TWO_LEVEL_000.table().expect("reads");
    let size = table.require(Quantity::Size, "the test").expect("size");
    let time = table.require(Quantity::Time, "the test").expect("time");
    let points: Vec<(f64, f64)> = size.iter().copied().zip(time.iter().copied()).collect();
    // In core (well below 6739 MB): through the origin, t = a1 α.
    let core: Vec<&(f64, f64)> = points.iter().filter(|(s, _)| *s < 6000.0).collect();
    let a1 =
        core.iter().map(|(s, t)| s * t).sum::<f64>() / core.iter().map(|(s, _)| s * s).sum::<f64>();
    assert!((a1 / 0.109 - 1.0).abs() < 0.02, "a1 = {a1}");
    // Out of core (well above): t = a2 α + b2.
    let out: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(s, _)| *s > 8000.0)
        .collect();
    let (a2, b2) = line(&out);
    assert!((a2 / 4.132 - 1.0).abs() < 0.05, "a2 = {a2}");
    assert!((b2 / -27_109.0 - 1.0).abs() < 0.15, "b2 = {b2}");
    let ram = b2 / (a1 - a2);
    assert!((ram / 6739.0 - 1.0).abs() < 0.1, "RAM = {ram} MB");
    // The link: t = O + C x.
    let table = data::NETWORK_000.table().expect("reads");
    let size = table.require(Quantity::Size, "the test").expect("size");
    let time = table.require(Quantity::Time, "the test").expect("time");
    let points: Vec<(f64, f64)> = size.iter().copied().zip(time.iter().copied()).collect();
    let (rate, overhead) = line(&points);
    assert!((rate / 0.005 - 1.0).abs() < 0.03, "C = {rate}");
    assert!((overhead - 0.075).abs() < 0.03, "O = {overhead}");
}
