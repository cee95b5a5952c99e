//! M2's best set of machines against brute force: one LP per subset of the
//! machines kept in the serving order (an unused machine pays no start-up),
//! on random heterogeneous stars with groups of identical copies.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::solving::lp::{Cmp, Problem};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::linear::{split, Instance, Machine, Objective, Power};

/// A small deterministic generator (xorshift), so that every run checks
/// the same instances and a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-uniform in `[low, high]`.
    fn log(&mut self, low: f64, high: f64) -> f64 {
        (low.ln() + (high.ln() - low.ln()) * self.next()).exp()
    }
}

fn instance(load: f64, machines: Vec<Machine>) -> Instance {
    Instance {
        load,
        machines,
        order: None,
        best_order: false,
        power: None,
        series: false,
        objective: Default::default(),
        deadline: None,
    }
}

/// The fastest schedule with exactly the machines in `subset` served in
/// this order (each may still get no load, but pays its start-up).
fn lp_makespan(subset: &[&Machine], load: f64) -> f64 {
    lp_schedule(subset, load).0
}

/// The same, with the loads.
fn lp_schedule(subset: &[&Machine], load: f64) -> (f64, Vec<f64>) {
    let mut lp = Problem::new();
    let t = lp.add_var(1.0, 0.0, f64::INFINITY);
    let alphas: Vec<_> = subset
        .iter()
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    let mut startups = 0.0;
    for (k, m) in subset.iter().enumerate() {
        startups += m.startup;
        let mut terms: Vec<_> = subset[..=k]
            .iter()
            .zip(&alphas)
            .map(|(v, &a)| (a, v.rate))
            .collect();
        terms[k].1 += m.compute;
        terms.push((t, -1.0));
        lp.add_constraint(&terms, Cmp::Le, -startups);
    }
    let all: Vec<_> = alphas.iter().map(|&a| (a, 1.0)).collect();
    lp.add_constraint(&all, Cmp::Eq, load);
    let solution = lp.solve().unwrap();
    let loads = alphas
        .iter()
        .map(|a| solution.values()[a.index()])
        .collect();
    (solution.objective(), loads)
}

/// The least energy of every non-empty subset that finishes by `deadline`,
/// by brute force: the `[1]` formula on each subset's fastest schedule.
fn brute_force_energy(instance: &Instance, deadline: f64) -> Option<f64> {
    let p = instance.power.unwrap();
    let k = p.idle_factor;
    let all = instance.expanded();
    (1u32..1 << all.len())
        .filter_map(|mask| {
            let subset: Vec<&Machine> = (0..all.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| all[i])
                .collect();
            let (t, loads) = lp_schedule(&subset, instance.load);
            let sending: f64 = subset
                .iter()
                .zip(&loads)
                .map(|(m, a)| m.startup + m.rate * a)
                .sum();
            let busy: f64 = subset
                .iter()
                .zip(&loads)
                .map(|(m, a)| m.startup + (m.rate + m.compute) * a)
                .sum();
            let idle = t * ((all.len() as f64 + 1.0) * p.processor + p.network) / k;
            let e = idle + (k - 1.0) / k * (p.network * sending + p.processor * (sending + busy));
            (t <= deadline).then_some(e)
        })
        .min_by(f64::total_cmp)
}

#[test]
fn the_least_energy_set_agrees_with_brute_force() {
    let mut rng = Rng(0x00e1_e7c0_5eed_0042);
    let mut differs_from_fastest = 0;
    for case in 0..200 {
        let mut inst = random_instance(&mut rng);
        inst.power = Some(Power {
            processor: rng.log(1.0, 500.0),
            network: rng.log(1.0, 500.0),
            idle_factor: 1.0 + 9.0 * rng.next(),
        });
        let fastest = inst.solve(&mut Silent).unwrap();
        inst.objective = Objective::Energy;
        // Half the cases with a deadline between the fastest and twice it.
        let deadline = if case % 2 == 0 {
            f64::INFINITY
        } else {
            fastest.makespan * (1.0 + rng.next())
        };
        inst.deadline = deadline.is_finite().then_some(deadline);
        let report = inst.solve(&mut Silent).unwrap();
        let want = brute_force_energy(&inst, deadline * (1.0 + 1e-9)).unwrap();
        let got = report.energy.unwrap().total;
        assert!(report.verdict.ok, "case {case}: {:?}", report.verdict);
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "case {case}: {got} vs brute force {want} ({inst:?})"
        );
        assert!(report.makespan <= deadline * (1.0 + 1e-9));
        if report.used != fastest.used {
            differs_from_fastest += 1;
        }
    }
    assert!(
        differs_from_fastest > 5,
        "{differs_from_fastest} cases differ from the fastest set"
    );
}

/// The best of every non-empty subset, by brute force.
fn brute_force(instance: &Instance) -> f64 {
    let all = instance.expanded();
    (1u32..1 << all.len())
        .map(|mask| {
            let subset: Vec<&Machine> = (0..all.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| all[i])
                .collect();
            lp_makespan(&subset, instance.load)
        })
        .fold(f64::INFINITY, f64::min)
}

/// A random star of at most 10 machines (counting copies), start-ups from
/// 0 to 40, loads from 0.5 to 2 000.
fn random_instance(rng: &mut Rng) -> Instance {
    let mut machines = Vec::new();
    let mut total = 0;
    let groups = 1 + (rng.next() * 6.0) as u64;
    for _ in 0..groups {
        let count = 1 + (rng.next() * 3.0) as u64;
        if total + count > 10 {
            break;
        }
        total += count;
        let startup = if rng.next() < 0.2 {
            0.0
        } else {
            40.0 * rng.next()
        };
        machines.push(Machine {
            startup,
            rate: rng.log(1e-3, 2.0),
            compute: rng.log(1e-2, 5.0),
            count: Count(count),
        });
    }
    instance(rng.log(0.5, 2000.0), machines)
}

#[test]
fn the_best_subset_agrees_with_brute_force_on_500_random_stars() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let (mut skipped_inside, mut beats_prefix) = (0, 0);
    for case in 0..500 {
        let inst = random_instance(&mut rng);
        let report = inst.solve(&mut Silent).unwrap();
        let want = brute_force(&inst);
        assert!(report.verdict.ok, "case {case}: {:?}", report.verdict);
        assert!(report.lower_bound.is_none(), "case {case}: not proven");
        let error = (report.makespan - want).abs() / want;
        assert!(
            error <= 1e-9,
            "case {case}: {} vs brute force {want} ({inst:?})",
            report.makespan
        );
        let served = inst.expanded();
        if report.makespan < split(&served, inst.load).makespan * (1.0 - 1e-9) {
            beats_prefix += 1;
        }
        // A machine skipped before a used one: what a prefix cannot do.
        let last = report.used.last().copied().unwrap_or(0);
        if report.used.len() < last + 1 {
            skipped_inside += 1;
        }
    }
    assert!(
        skipped_inside > 10,
        "only {skipped_inside} cases skip inside"
    );
    // The best prefix (what M2 did before) is slower on many of them.
    assert!(
        beats_prefix > 50,
        "only {beats_prefix} cases beat the best prefix"
    );
    eprintln!("{skipped_inside} skip inside, {beats_prefix} beat the best prefix");
}

/// Loads a billion times apart: the affine form in the first load cancels
/// catastrophically; the schedule must still pass the verifier.
#[test]
fn loads_orders_of_magnitude_apart_give_a_verified_schedule() {
    let inst = instance(
        3.5e7,
        vec![
            Machine {
                startup: 0.0,
                rate: 1.0,
                compute: 8.6e8,
                count: Count(10),
            },
            Machine {
                startup: 3e7,
                rate: 0.0,
                compute: 1.5e-7,
                count: Count(1),
            },
        ],
    );
    let report = inst.solve(&mut Silent).unwrap();
    assert!(report.verdict.ok, "{:?}", report.verdict);
    let want = brute_force(&inst);
    assert!(
        (report.makespan - want).abs() <= 1e-9 * want,
        "{} vs {want}",
        report.makespan
    );
}

/// Skipping a machine in the middle of the order: a slow link with a long
/// start-up between two fast machines.
#[test]
fn a_machine_in_the_middle_is_skipped_and_the_report_says_why() {
    let inst = instance(
        100.0,
        vec![
            Machine {
                startup: 1.0,
                rate: 0.1,
                compute: 1.0,
                count: Count(1),
            },
            Machine {
                startup: 30.0,
                rate: 0.1,
                compute: 1.0,
                count: Count(1),
            },
            Machine {
                startup: 1.0,
                rate: 0.1,
                compute: 1.0,
                count: Count(1),
            },
        ],
    );
    let report = inst.solve(&mut Silent).unwrap();
    assert_eq!(report.used, [0, 2]);
    assert_eq!(report.skipped.len(), 1);
    assert_eq!((report.skipped[0].from, report.skipped[0].to), (1, 1));
    assert!(report.skipped[0]
        .reason
        .contains("cost more than its share saves"));
    let want = brute_force(&inst);
    assert!((report.makespan - want).abs() <= 1e-9 * want);
}

/// A million identical machines: the best number of copies, exact against
/// the closed form of every count.
#[test]
fn a_million_identical_machines_use_the_best_count() {
    let inst = instance(
        1e3,
        vec![Machine {
            startup: 100.0,
            rate: 1e-6,
            compute: 1.0,
            count: Count(1_000_000),
        }],
    );
    let report = inst.solve(&mut Silent).unwrap();
    // T(n) for n identical machines, all used: back to front.
    let t = |n: usize| {
        let (mut s, mut g) = (0.0_f64, 0.0_f64);
        for _ in 0..n {
            s = 1.0 / 1.000001 + 1.0 / 1.000001 * s;
            g -= 100.0 * s;
        }
        (1e3 - g) / s
    };
    let best = (1..=20).map(t).fold(f64::INFINITY, f64::min);
    assert!(
        (report.makespan - best).abs() <= 1e-9 * best,
        "{} vs {best}",
        report.makespan
    );
    assert!(report.verdict.ok);
}

/// Start-ups, rates, speeds and loads spread over many orders of magnitude:
/// every schedule passes the verifier, and the best set is never slower
/// than the best prefix.
#[test]
fn magnitudes_far_apart_always_give_verified_schedules() {
    let mut rng = Rng(0x0bad_5ca1_e000_0001);
    for case in 0..400 {
        let n = 1 + (rng.next() * 5.0) as usize;
        let machines: Vec<Machine> = (0..n)
            .map(|_| Machine {
                startup: if rng.next() < 0.2 {
                    0.0
                } else {
                    rng.log(1e-6, 1e8)
                },
                rate: if rng.next() < 0.2 {
                    0.0
                } else {
                    rng.log(1e-9, 1e3)
                },
                compute: rng.log(1e-9, 1e9),
                count: Count(1 + (rng.next() * 3.0) as u64),
            })
            .collect();
        let inst = instance(rng.log(1e-3, 1e12), machines);
        let report = inst
            .solve(&mut Silent)
            .unwrap_or_else(|e| panic!("case {case}: {e} ({inst:?})"));
        assert!(
            report.verdict.ok,
            "case {case}: {:?} ({inst:?})",
            report.verdict
        );
        assert!(report.makespan.is_finite() && report.makespan > 0.0);
        let prefix = split(&inst.expanded(), inst.load).makespan;
        assert!(
            report.makespan <= prefix * (1.0 + 1e-9),
            "case {case}: {} vs best prefix {prefix} ({inst:?})",
            report.makespan
        );
    }
}

/// A search stopped by its time limit (a progress that says stop) returns
/// the best prefix with a proven lower bound, verified, instead of nothing.
#[test]
fn a_stopped_search_returns_the_best_prefix_with_a_lower_bound() {
    struct Stop;
    impl dlt_calc::core::solving::progress::Progress for Stop {
        fn report(&mut self, _done: f64, _what: &str) -> bool {
            false
        }
    }
    let inst = instance(
        1e13,
        vec![Machine {
            startup: 100.0,
            rate: 1e-6,
            compute: 1.0,
            count: Count(1_000_000),
        }],
    );
    let report = inst.solve(&mut Stop).unwrap();
    let bound = report.lower_bound.expect("a lower bound");
    assert!(bound > 0.0 && bound <= report.makespan);
    assert!(report.verdict.ok);
    assert!(report.note.unwrap().contains("not proven optimal"));
    let prefix = split(&inst.expanded(), inst.load).makespan;
    assert!((report.makespan - prefix).abs() <= 1e-9 * prefix);
}
