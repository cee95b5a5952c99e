//! M7: the exact search against a brute force over every sequence, M5's
//! optima on identical machines, the single machine's closed form, and the
//! heuristics (always verified, never better than the optimum with as few
//! chunks).
#![cfg(not(target_arch = "wasm32"))]

mod rng;

use rng::Rng;

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::solving::lp::{Cmp, LpError, Problem, Var};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::heterogeneous::{
    Algorithm, Instance, Machine, Mode, Objective, Originator, Power, SortRule, Status,
};
use dlt_calc::models::startup;

fn random_machine(rng: &mut Rng) -> Machine {
    let a1 = rng.between(0.05, 0.3);
    let a2 = a1 * rng.between(2.0, 40.0);
    let ram = rng.between(500.0, 8000.0);
    let mode = [Mode::On, Mode::Suspend, Mode::Hibernate, Mode::Off][rng.below(4) as usize];
    let idle = rng.between(0.0, 150.0);
    Machine {
        a1,
        a2,
        b2: -(a2 - a1) * ram,
        rate: if rng.below(5) == 0 {
            0.0
        } else {
            rng.between(0.001, 0.02)
        },
        overhead: rng.between(0.0, 2.0),
        startup: if rng.below(2) == 0 {
            None
        } else {
            Some(rng.between(0.0, 100.0))
        },
        count: Count(1),
        mode,
        power: Power {
            sleep: if rng.below(2) == 0 {
                None
            } else {
                Some(idle * rng.unit())
            },
            wake: idle + rng.between(0.0, 100.0),
            idle,
            network: rng.between(0.0, 30.0),
            compute: rng.between(0.0, 100.0),
        },
    }
}

/// An instance of `m ≤ 3` machines (two of them sometimes identical) and
/// `n ≤ 4` chunks, with a load from a fifth to three times their RAM.
fn random_instance(rng: &mut Rng) -> Instance {
    let m = 1 + rng.below(3) as usize;
    let mut machines: Vec<Machine> = (0..m).map(|_| random_machine(rng)).collect();
    if m >= 2 && rng.below(3) == 0 {
        machines[1] = machines[0].clone();
    }
    let ram: f64 = machines.iter().map(|x| x.b2 / (x.a1 - x.a2)).sum();
    Instance {
        load: ram * rng.between(0.2, 3.0),
        chunks: Count(1 + rng.below(4)),
        originator: Originator {
            idle_power: rng.between(0.0, 50.0),
            network_power: rng.between(0.0, 10.0),
        },
        machines,
        ..Instance::mixed()
    }
}

/// Every sequence of 1 to `n` chunks over `m` machines.
fn sequences(m: usize, n: usize) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = vec![Vec::new()];
    let mut out = Vec::new();
    for _ in 0..n {
        all = all
            .iter()
            .flat_map(|s| {
                (0..m).map(move |i| {
                    let mut t = s.clone();
                    t.push(i);
                    t
                })
            })
            .collect();
        out.extend(all.iter().cloned());
    }
    out
}

/// The least objective of one sequence (chunk `j` to machine
/// `sequence[j]`, machines as listed with counts expanded) within the
/// instance's limits, none when no schedule meets them: an LP written here
/// from the model's definition rather than the program's. Send starts
/// `t_j`, sizes `α_j`, computing times `τ_j`, each used machine's wake-up
/// `w_i`, and `T`: a used machine is ready (`w_i + S_i`) before any of its
/// chunks is sent; one message at a time; each chunk received whole, then
/// computed (`τ_j` on both lines of `τ`), before `T` and before its
/// machine's next chunk is sent; the sizes add up to `V`. The energy term by
/// term as the model states it: the originator idle over `T` and sending,
/// each used machine asleep until `w_i`, waking for `S_i`, on until `T`,
/// receiving and computing above idle, each unused machine asleep over
/// `T`. Sizes are fractions of `V`; times and energies are scaled to about
/// the makespan and its energy at every power.
fn sequence_optimum(instance: &Instance, sequence: &[usize]) -> Option<f64> {
    let mut p = SequenceLp::new(instance, sequence);
    p.rows_and_energy(sequence);
    let (big_t, unit, eu) = (p.big_t, p.unit, p.eu);
    let all: Vec<(Var, f64)> = p.alpha.iter().map(|&a| (a, 1.0)).collect();
    p.lp.add_constraint(&all, Cmp::Eq, 1.0);
    if let Some(limit) = instance.makespan_limit {
        p.lp.add_constraint(&[(big_t, 1.0)], Cmp::Le, limit / unit);
    }
    if let Some(limit) = instance.energy_limit {
        p.lp.add_constraint(&p.energy, Cmp::Le, limit / eu - p.constant);
    }
    match instance.objective {
        Objective::Energy => {
            for &(var, coef) in &p.energy {
                p.lp.set_cost(var, p.lp.cost(var) + coef);
            }
        }
        _ => p.lp.set_cost(big_t, 1.0),
    }
    match p.lp.solve() {
        Ok(s) if instance.objective == Objective::Energy => Some((s.objective() + p.constant) * eu),
        Ok(s) => Some(s.objective() * unit),
        Err(LpError::Infeasible) => None,
        Err(e) => panic!("sequence {sequence:?}: {e}"),
    }
}

/// The test's LP of one sequence (see [`sequence_optimum`]) as it is built:
/// its variables, units, and the energy as `Σ coef·var + constant` in
/// units of `eu`.
struct SequenceLp<'a> {
    lp: Problem,
    /// The machines, counts expanded.
    rows: Vec<&'a Machine>,
    load: f64,
    originator: dlt_calc::models::heterogeneous::Originator,
    unit: f64,
    eu: f64,
    big_t: Var,
    t: Vec<Var>,
    alpha: Vec<Var>,
    tau: Vec<Var>,
    wake: Vec<Var>,
    energy: Vec<(Var, f64)>,
    constant: f64,
}

impl<'a> SequenceLp<'a> {
    /// The variables, and the units: time about the makespan (the least
    /// time one machine takes for an equal share), energy that time at the
    /// sum of all powers.
    fn new(instance: &'a Instance, sequence: &[usize]) -> SequenceLp<'a> {
        let rows: Vec<&Machine> = (instance.machines.iter())
            .flat_map(|r| std::iter::repeat_n(r, r.count.get()))
            .collect();
        let share = instance.load / rows.len() as f64;
        let single = |w: &&Machine| {
            w.wake_time() + w.overhead + w.rate * share + (w.a1 * share).max(w.a2 * share + w.b2)
        };
        let unit = rows.iter().map(single).fold(f64::INFINITY, f64::min);
        let o0 = instance.originator;
        let watts: f64 = (rows.iter())
            .map(|w| {
                w.sleep_power() + w.power.wake + w.power.idle + w.power.network + w.power.compute
            })
            .sum::<f64>()
            + o0.idle_power
            + o0.network_power;
        let mut lp = Problem::new();
        let mut vars = |n: usize| -> Vec<Var> {
            (0..n)
                .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
                .collect()
        };
        let (k, m) = (sequence.len(), rows.len());
        let (t, alpha, tau, wake) = (vars(k), vars(k), vars(k), vars(m));
        let big_t = lp.add_var(0.0, 0.0, f64::INFINITY);
        let eu = if watts > 0.0 { unit * watts } else { 1.0 };
        SequenceLp {
            lp,
            rows,
            load: instance.load,
            originator: o0,
            unit,
            eu,
            big_t,
            t,
            alpha,
            tau,
            wake,
            energy: vec![(big_t, o0.idle_power * unit / eu)],
            constant: 0.0,
        }
    }

    /// Each chunk's rows and energy, then each machine's energy over `T`.
    fn rows_and_energy(&mut self, sequence: &[usize]) {
        let (v, unit, eu, big_t) = (self.load, self.unit, self.eu, self.big_t);
        let (t, alpha, tau) = (&self.t, &self.alpha, &self.tau);
        let k = sequence.len();
        for (j, &i) in sequence.iter().enumerate() {
            let w = self.rows[i];
            let (o, c) = (w.overhead / unit, w.rate * v / unit);
            let ready = [(t[j], 1.0), (self.wake[i], -1.0)];
            self.lp
                .add_constraint(&ready, Cmp::Ge, w.wake_time() / unit);
            if j > 0 {
                let p = self.rows[sequence[j - 1]];
                let after = [
                    (t[j], 1.0),
                    (t[j - 1], -1.0),
                    (alpha[j - 1], -p.rate * v / unit),
                ];
                self.lp.add_constraint(&after, Cmp::Ge, p.overhead / unit);
            }
            let core = [(tau[j], 1.0), (alpha[j], -w.a1 * v / unit)];
            self.lp.add_constraint(&core, Cmp::Ge, 0.0);
            let out = [(tau[j], 1.0), (alpha[j], -w.a2 * v / unit)];
            self.lp.add_constraint(&out, Cmp::Ge, w.b2 / unit);
            let done = |after| [(after, 1.0), (t[j], -1.0), (alpha[j], -c), (tau[j], -1.0)];
            self.lp.add_constraint(&done(big_t), Cmp::Ge, o);
            if let Some(l) = (j + 1..k).find(|&l| sequence[l] == i) {
                self.lp.add_constraint(&done(t[l]), Cmp::Ge, o);
            }
            let net = w.power.network + self.originator.network_power;
            self.energy.push((alpha[j], net * w.rate * v / eu));
            self.energy.push((tau[j], w.power.compute * unit / eu));
            self.constant += net * w.overhead / eu;
        }
        for (i, w) in self.rows.iter().enumerate() {
            if sequence.contains(&i) {
                let p = &w.power;
                self.energy
                    .push((self.wake[i], (w.sleep_power() - p.idle) * unit / eu));
                self.energy.push((big_t, p.idle * unit / eu));
                self.constant += (p.wake - p.idle) * w.wake_time() / eu;
            } else {
                self.energy.push((big_t, w.sleep_power() * unit / eu));
            }
        }
    }
}

/// The least objective over every sequence (none when no sequence meets
/// the limits), each from the LP above.
fn brute_force(instance: &Instance) -> Option<f64> {
    let m = instance.machine_count();
    sequences(m, instance.chunks.get())
        .iter()
        .filter_map(|s| sequence_optimum(instance, s))
        .min_by(f64::total_cmp)
}

#[test]
fn exact_search_agrees_with_brute_force_on_300_instances_and_both_objectives() {
    let mut rng = Rng(7);
    for case in 0..300 {
        let base = random_instance(&mut rng);
        let fastest = brute_force(&base).expect("a schedule");
        let exact = base.solve(&mut Silent).expect("solves");
        assert_eq!(exact.status, Status::Optimal, "case {case}");
        assert!(exact.verdict.ok, "case {case}: {:?}", exact.verdict);
        let tol = 1e-7 * fastest;
        assert!(
            (exact.makespan - fastest).abs() <= tol,
            "case {case}: search {} brute force {fastest}",
            exact.makespan
        );
        // Least energy, sometimes within a makespan limit.
        let limit = (rng.below(2) == 0).then(|| fastest * rng.between(1.0, 1.5));
        let thrifty = Instance {
            objective: Objective::Energy,
            makespan_limit: limit,
            ..base.clone()
        };
        let least = brute_force(&thrifty).expect("a schedule within the limit");
        let exact = thrifty.solve(&mut Silent).expect("solves");
        assert!(exact.verdict.ok, "case {case}: {:?}", exact.verdict);
        let tol = 1e-7 * least.abs().max(1e-9);
        assert!(
            (exact.energy - least).abs() <= tol,
            "case {case}: search {} brute force {least}",
            exact.energy
        );
        if let Some(t) = limit {
            assert!(exact.makespan <= t * (1.0 + 1e-9), "case {case}");
        }
        assert!(
            exact.lower_bound.unwrap() <= exact.energy * (1.0 + 1e-12),
            "case {case}"
        );
    }
}

#[test]
fn identical_machines_woken_at_zero_give_the_m5_optimum() {
    for (m, n, v) in [
        (2, 3, 9000.0),
        (2, 4, 20_000.0),
        (3, 4, 15_000.0),
        (3, 5, 40_000.0),
        (2, 5, 134_485.0),
    ] {
        let m5 = startup::Instance {
            chunks: Count(n),
            ..startup::Instance::reference(m, v)
        };
        let expected = m5.solve(&mut Silent).expect("M5 solves");
        assert_eq!(expected.status, startup::Status::Optimal);
        let row = Machine {
            a1: m5.a1,
            a2: m5.a2,
            b2: m5.b2,
            rate: m5.rate,
            overhead: m5.overhead,
            startup: Some(m5.startup),
            count: Count(m as u64),
            mode: Mode::On,
            power: Power {
                sleep: None,
                wake: 1.0,
                idle: 1.0,
                network: 1.0,
                compute: 1.0,
            },
        };
        let m7 = Instance {
            load: v,
            chunks: Count(n),
            machines: vec![row],
            ..Instance::mixed()
        };
        let found = m7.solve(&mut Silent).expect("M7 solves");
        assert_eq!(found.status, Status::Optimal);
        let tol = 1e-7 * expected.makespan;
        assert!(
            (found.makespan - expected.makespan).abs() <= tol,
            "m = {m}, n = {n}, V = {v}: M7 {} M5 {}",
            found.makespan,
            expected.makespan
        );
    }
}

#[test]
fn one_machine_one_chunk_is_the_closed_form() {
    let mut rng = Rng(11);
    for _ in 0..50 {
        let mut instance = random_instance(&mut rng);
        instance.machines.truncate(1);
        instance.chunks = Count(1);
        let w = &instance.machines[0];
        let v = instance.load;
        let expected = w.wake_time() + w.overhead + w.rate * v + (w.a1 * v).max(w.a2 * v + w.b2);
        let found = instance.solve(&mut Silent).expect("solves");
        assert!(
            (found.makespan - expected).abs() <= 1e-9 * expected,
            "{} vs {expected}",
            found.makespan
        );
        // Its energy, by hand: woken at 0 (ready at S, sent at S).
        let p = &w.power;
        let o = &instance.originator;
        let send = w.overhead + w.rate * v;
        let compute = (w.a1 * v).max(w.a2 * v + w.b2);
        let energy = p.wake * w.wake_time()
            + p.idle * (expected - w.wake_time())
            + p.network * send
            + p.compute * compute
            + o.idle_power * expected
            + o.network_power * send;
        assert!(
            (found.energy - energy).abs() <= 1e-8 * energy.max(1.0),
            "{} vs {energy}",
            found.energy
        );
    }
}

#[test]
fn heuristics_are_verified_and_never_beat_the_optimum_with_as_few_chunks() {
    let mut rng = Rng(23);
    for case in 0..120 {
        let base = random_instance(&mut rng);
        let optimum = base.solve(&mut Silent).expect("solves").makespan;
        for algorithm in [Algorithm::Ssc, Algorithm::Gss] {
            for sort in SortRule::ALL {
                let h = Instance {
                    algorithm,
                    sort,
                    seed: Some(Count(case)),
                    ..base.clone()
                };
                let r = h.solve(&mut Silent).expect("a heuristic solves");
                assert!(
                    r.verdict.ok,
                    "case {case} {algorithm:?} {sort:?}: {:?}",
                    r.verdict
                );
                assert_eq!(r.status, Status::Heuristic);
                let loads: f64 = r.sizes.iter().sum();
                assert!((loads - base.load).abs() <= 1e-9 * base.load);
                // The optimum is proven to 1e-9, and tied to 1e-9 on energy.
                if r.sequence.len() <= base.chunks.get() {
                    assert!(
                        r.makespan >= optimum * (1.0 - 1e-8),
                        "case {case} {algorithm:?} {sort:?}: {} < {optimum}",
                        r.makespan
                    );
                }
            }
        }
    }
}

#[test]
fn a_limit_below_the_least_value_is_an_error_that_states_it() {
    let tight = Instance {
        makespan_limit: Some(10.0),
        objective: Objective::Energy,
        max_seconds: Some(600.0),
        ..Instance::mixed()
    };
    let error = tight.solve(&mut Silent).unwrap_err().to_string();
    assert!(
        error.starts_with(
            "makespan_limit: cannot be met: 10 is below the least value of any schedule, 1091.6"
        ),
        "{error}"
    );
    let tight = Instance {
        energy_limit: Some(1000.0),
        max_seconds: Some(600.0),
        ..Instance::mixed()
    };
    let error = tight.solve(&mut Silent).unwrap_err().to_string();
    assert!(
        error.starts_with(
            "energy_limit: cannot be met: 1000 is below the least value of any schedule, 7"
        ),
        "{error}"
    );
}

#[test]
fn the_pareto_front_is_proven_and_falls() {
    let request = Instance {
        objective: Objective::Pareto,
        points: Some(Count(4)),
        chunks: Count(4),
        max_seconds: Some(600.0),
        ..Instance::mixed()
    };
    let r = request.solve(&mut Silent).expect("solves");
    assert!(r.front.len() >= 3, "{}", r.front.len());
    for pair in r.front.windows(2) {
        assert!(pair[0].makespan < pair[1].makespan && pair[0].energy > pair[1].energy);
    }
    assert!(r.front.iter().all(|p| p.proven));
    assert!(!r.compare.is_empty());
}

/// A plain machine for the edge cases below.
fn plain(b2: f64, startup: f64) -> Machine {
    Machine {
        a1: 1.0,
        a2: 2.0,
        b2,
        rate: 0.01,
        overhead: 0.01,
        startup: Some(startup),
        count: Count(1),
        mode: Mode::On,
        power: Power {
            sleep: None,
            wake: 1.0,
            idle: 1.0,
            network: 1.0,
            compute: 1.0,
        },
    }
}

#[test]
fn edge_cases_found_in_review_end_with_verified_answers() {
    // SSC's last round when the load is the RAMs' sum up to rounding.
    let rams = Instance {
        load: 0.6000000000000001,
        chunks: Count(4),
        algorithm: Algorithm::Ssc,
        sort: SortRule::Ram,
        machines: vec![plain(-0.1, 0.0), plain(-0.2, 0.0), plain(-0.3, 0.0)],
        ..Instance::mixed()
    };
    for algorithm in [Algorithm::Ssc, Algorithm::SuperSsc, Algorithm::Exact] {
        let r = Instance {
            algorithm,
            ..rams.clone()
        }
        .solve(&mut Silent)
        .expect("ends");
        assert!(r.verdict.ok, "{algorithm:?}: {:?}", r.verdict);
    }
    // Wake-up times far beyond the rest (SSC's doubling, the LP's numbers).
    let mut late = Instance {
        algorithm: Algorithm::Ssc,
        load: 60_000.0,
        ..Instance::mixed()
    };
    late.machines
        .iter_mut()
        .for_each(|m| m.startup = Some(1e16));
    assert!(late.solve(&mut Silent).expect("ends").verdict.ok);
    let mut asleep = Instance {
        objective: Objective::Energy,
        max_seconds: Some(60.0),
        ..Instance::mixed()
    };
    let mut copy = asleep.machines[0].clone();
    copy.startup = Some(1e18);
    asleep.machines.push(copy);
    assert!(asleep.solve(&mut Silent).expect("solves").verdict.ok);
    // No power at all, with an energy limit: every schedule has E = 0.
    let mut free = Instance {
        energy_limit: Some(5.0),
        max_seconds: Some(60.0),
        ..Instance::mixed()
    };
    free.originator = Originator {
        idle_power: 0.0,
        network_power: 0.0,
    };
    for m in &mut free.machines {
        m.power = Power {
            sleep: None,
            wake: 0.0,
            idle: 0.0,
            network: 0.0,
            compute: 0.0,
        };
    }
    let r = free.solve(&mut Silent).expect("solves");
    assert_eq!(r.energy, 0.0);
    assert!(r.makespan < 1091.67);
    // SSC takes more than a thousand machines.
    let many = Instance {
        load: 1000.0,
        algorithm: Algorithm::Ssc,
        machines: vec![Machine {
            count: Count(1200),
            ..Instance::mixed().machines[0].clone()
        }],
        ..Instance::mixed()
    };
    assert!(many.solve(&mut Silent).expect("solves").verdict.ok);
}

#[test]
fn a_requested_gap_reports_a_bound_below_the_optimum() {
    for (objective, optimum) in [
        (Objective::Makespan, 1091.665168),
        (Objective::Energy, 718324.44),
    ] {
        let r = Instance {
            objective,
            gap: Some(0.3),
            ..Instance::mixed()
        }
        .solve(&mut Silent)
        .unwrap();
        let value = if objective == Objective::Energy {
            r.energy
        } else {
            r.makespan
        };
        let bound = r.lower_bound.unwrap();
        assert!(
            bound <= optimum * (1.0 + 1e-9),
            "{objective:?}: bound {bound} above the optimum {optimum}"
        );
        assert!((value - bound) / value <= 0.3 + 1e-12);
    }
}

#[test]
fn the_energy_of_the_fastest_is_the_least_among_all_fastest_schedules() {
    // Four machines alike but for their powers: the same makespan whichever
    // is listed first, and the same least energy (the thrifty one used).
    let row = |scale: f64| Machine {
        a1: 0.1,
        a2: 4.0,
        b2: -27_000.0,
        rate: 0.005,
        overhead: 0.075,
        startup: Some(10.0),
        count: Count(1),
        mode: Mode::On,
        power: Power {
            sleep: None,
            wake: 120.0 * scale,
            idle: 100.0 * scale,
            network: 20.0 * scale,
            compute: 80.0 * scale,
        },
    };
    let solve = |rows: Vec<Machine>| {
        Instance {
            load: 20_000.0,
            chunks: Count(4),
            machines: rows,
            ..Instance::mixed()
        }
        .solve(&mut Silent)
        .unwrap()
    };
    let a = solve(vec![row(1.0), row(1.0), row(1.0), row(0.1)]);
    let b = solve(vec![row(0.1), row(1.0), row(1.0), row(1.0)]);
    assert!((a.makespan - b.makespan).abs() <= 1e-7 * a.makespan);
    assert!(
        (a.energy - b.energy).abs() <= 1e-6 * a.energy,
        "{} vs {}",
        a.energy,
        b.energy
    );
}

#[test]
fn waking_below_sleeping_and_limits_on_heuristics_are_refused_by_name() {
    let mut cheap = Instance::mixed();
    cheap.machines[1].power.wake = 1.0;
    let error = dlt_calc::core::domain::error::Validate::check(&cheap)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("machines[1].power.wake: must be at least the sleep power 4 W (got 1)"),
        "{error}"
    );
    let limited = Instance {
        algorithm: Algorithm::Gss,
        makespan_limit: Some(2000.0),
        ..Instance::mixed()
    };
    let error = dlt_calc::core::domain::error::Validate::check(&limited)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(
            "makespan_limit: is used only by the exact search (algorithm exact or compare)"
        ),
        "{error}"
    );
}

#[test]
fn a_front_cut_short_by_its_time_limit_is_still_an_answer() {
    let request = Instance {
        objective: Objective::Pareto,
        chunks: Count(12),
        load: 100_000.0,
        max_seconds: Some(1.0),
        ..Instance::mixed()
    };
    let r = request.solve(&mut Silent).expect("an answer");
    assert!(!r.front.is_empty());
    assert!(r.verdict.ok);
}

/// Counts the provisional answers a search hands out, and asks it to stop
/// once it has seen `stop_after` of them.
struct Watcher {
    partials: usize,
    stop_after: usize,
}

impl dlt_calc::core::solving::progress::Progress for Watcher {
    fn report(&mut self, _: f64, _: &str) -> bool {
        self.partials < self.stop_after
    }

    fn partial(&mut self, response: &dlt_calc::core::presentation::response::Response) {
        assert_eq!(response.get("report").unwrap()["status"], "interrupted");
        self.partials += 1;
    }
}

/// Twenty different machines and 24 chunks: far from proven in a minute.
fn a_long_search(max_seconds: f64) -> Instance {
    let mut rng = Rng(5);
    Instance {
        chunks: Count(24),
        machines: (0..20).map(|_| random_machine(&mut rng)).collect(),
        load: 120_000.0,
        max_seconds: Some(max_seconds),
        ..Instance::mixed()
    }
}

/// The search hands out its best schedule so far while it runs (a page
/// keeps it when stopped), and a stop from outside keeps a verified
/// answer. Counted, not timed: the watcher stops the search after two,
/// however slow the machine.
#[test]
fn a_long_search_hands_out_its_best_schedule_so_far() {
    let mut watcher = Watcher {
        partials: 0,
        stop_after: 2,
    };
    let r = a_long_search(60.0)
        .solve(&mut watcher)
        .expect("an answer when stopped");
    assert_eq!(watcher.partials, 2);
    assert_eq!(r.status, Status::Interrupted, "gap {:?}", r.gap);
    assert!(r.verdict.ok);
    assert!(r.lower_bound.unwrap() <= r.makespan);
}

/// At its time limit the search ends with its best schedule, verified,
/// and a proven lower bound.
#[test]
fn a_long_search_stops_at_its_time_limit() {
    let r = a_long_search(2.0)
        .solve(&mut Silent)
        .expect("an answer at the time limit");
    assert_eq!(r.status, Status::StoppedAtTime, "gap {:?}", r.gap);
    assert!(r.verdict.ok);
    assert!(r.lower_bound.unwrap() <= r.makespan);
}

/// Choosing a mode in a row fills in its wake-up time and sleep power (the
/// mode's share of the row's idle power), table-driven; other columns and
/// unreadable rows change nothing.
#[test]
fn a_mode_chosen_in_a_row_fills_in_its_wake_time_and_sleep_power() {
    use std::collections::BTreeMap;
    let row = |cells: &[(&str, &str)]| -> BTreeMap<String, String> {
        cells
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let cases = [
        ("mode", "suspend", "80", Some("10"), Some("4")),
        ("mode", "hibernate", "150", Some("60"), Some("1.5")),
        ("mode", "off", "100", Some("120"), Some("0.5")),
        ("mode", "on", "100", Some("0"), Some("100")),
        // No idle power to take a share of: the sleep power is left alone.
        ("mode", "suspend", "", Some("10"), None),
        ("mode", "suspend", "lots", Some("10"), None),
        // Not the mode column, or no known mode: nothing changes.
        ("a1", "suspend", "80", None, None),
        ("mode", "sleepy", "80", None, None),
    ];
    for (column, mode, idle, startup, sleep) in cases {
        let before = row(&[("mode", mode), ("Pi", idle), ("S", ""), ("Ps", "")]);
        let after = dlt_calc::api::fill_row("heterogeneous", column, before.clone()).unwrap();
        assert_eq!(after["S"], startup.unwrap_or(""), "{column} {mode} {idle}");
        assert_eq!(after["Ps"], sleep.unwrap_or(""), "{column} {mode} {idle}");
        assert_eq!(after["Pi"], before["Pi"]);
    }
    let unknown = dlt_calc::api::fill_row("no-such-model", "mode", BTreeMap::new());
    assert!(unknown.unwrap_err().to_string().contains("no-such-model"));
    // Every other model's rows are left as they are.
    let kept = row(&[("a1", "1")]);
    assert_eq!(
        dlt_calc::api::fill_row("startup", "a1", kept.clone()).unwrap(),
        kept
    );
}

/// M5 with powers is this model with one row of M5's machines: its fastest
/// schedule is M5's (M5 wakes every machine at 0; waking later only saves
/// energy), and its energy is the least among the fastest.
#[test]
fn m5_with_powers_is_one_row_of_m5_machines() {
    for (m, load) in [(1, 5e3), (3, 2e4), (4, 1.5e5), (6, 4e5)] {
        let m5 = startup::Instance {
            chunks: Count(6),
            ..startup::Instance::reference(m, load)
        };
        let want = m5.solve(&mut Silent).unwrap().makespan;
        let with_powers = Instance::of_startup(&m5).solve(&mut Silent).unwrap();
        assert!(
            (with_powers.makespan - want).abs() <= 1e-7 * want,
            "m = {m}, V = {load}: {} against M5's {want}",
            with_powers.makespan
        );
        assert_eq!(with_powers.status, Status::Optimal);
        assert!(with_powers.energy > 0.0);
    }
}

/// A map sets a number of one machine row (`machines[k].count`) or the wake
/// time of one mode, and every cell is the model's answer with it set; a
/// row the base has not, or a name it does not know, is named.
#[test]
fn maps_vary_one_machine_row_or_one_modes_wake_time() {
    use dlt_calc::maps::contour;
    use dlt_calc::registry::Models;
    use serde_json::json;
    let base = Instance {
        algorithm: Algorithm::SuperGss,
        ..Instance::mixed()
    };
    let map = |x: &str, y: &str| {
        let body = json!({
            "base": {"model": "heterogeneous", "algorithm": "super-gss", "load": base.load,
                "chunks": 6, "originator": base.originator, "machines": base.machines},
            "x": {"parameter": x, "from": 1, "to": 3, "steps": 3},
            "y": {"parameter": y, "from": 5, "to": 90, "steps": 2},
            "quantity": "energy",
            "levels": [1e6],
        });
        serde_json::from_value::<contour::Request<Models>>(body).unwrap()
    };
    let grid = map("machines[1].count", "wake_time_suspend")
        .contour(&mut Silent)
        .unwrap();
    for (j, &wake) in grid.y.iter().enumerate() {
        for (i, &count) in grid.x.iter().enumerate() {
            let mut one = base.clone();
            one.machines[1].count = Count(count as u64);
            one.machines[1].startup = Some(wake);
            let want = one.solve(&mut Silent).unwrap().energy;
            assert_eq!(grid.values[j][i], Some(want), "count {count}, S {wake}");
        }
    }
    let error = |x: &str| map(x, "load").contour(&mut Silent).unwrap_err().to_string();
    assert!(
        error("machines[3].rate").contains("rows 0 to 2"),
        "{}",
        error("machines[3].rate")
    );
    let unknown = error("machines[0].speed");
    // A record's names are written once: `machines[k].{count, …, idle_power, …}`.
    assert!(
        unknown.contains("machines[k].{count, ") && unknown.contains(" idle_power, "),
        "{unknown}"
    );
}

/// The table of blocks of a report, by its id: caption, head and rows.
fn table_of(
    report: &dlt_calc::models::heterogeneous::Report,
    id: &str,
) -> (String, Vec<String>, Vec<Vec<String>>) {
    use dlt_calc::core::presentation::response::Describe;
    use dlt_calc::core::presentation::view::Block;
    report
        .view()
        .into_iter()
        .find_map(|b| match b {
            Block::Table {
                id: i,
                caption,
                head,
                rows,
            } if i == id => Some((caption, head, rows)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no table {id}"))
}

/// A row of several machines is expanded, and its copies are named by the
/// row and the copy (`P2·1`, `P2·2`), not renumbered (`P2`, `P3`).
#[test]
fn copies_of_a_row_are_named_by_row_and_copy() {
    let request = Instance::mixed();
    let counts: Vec<usize> = request.machines.iter().map(|m| m.count.get()).collect();
    assert_eq!(counts, [1, 2, 1]);
    let report = request.solve(&mut Silent).expect("solves");
    let names: Vec<String> = (0..4).map(|i| report.machine_name(i)).collect();
    assert_eq!(names, ["P1", "P2·1", "P2·2", "P3"]);
    let (_, _, rows) = table_of(&report, "heterogeneous-energy-parts");
    let shown: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(shown, ["originator", "P1", "P2·1", "P2·2", "P3", "all"]);
    let (_, _, chunks) = table_of(&report, "heterogeneous-chunks");
    assert!(chunks.iter().all(|r| names.contains(&r[0])), "{chunks:?}");
}

/// The proven lower bound says which objective it bounds, in its unit.
#[test]
fn the_lower_bound_names_its_objective_and_unit() {
    use dlt_calc::core::presentation::response::Describe;
    use dlt_calc::core::presentation::view::Block;
    for (objective, words) in [
        (Objective::Makespan, "the makespan: T ≥ "),
        (Objective::Energy, "the energy: E ≥ "),
    ] {
        let report = Instance {
            objective,
            ..Instance::mixed()
        }
        .solve(&mut Silent)
        .expect("solves");
        let bound = report.lower_bound.expect("the exact search bounds");
        let unit = if objective == Objective::Energy {
            "J"
        } else {
            "s"
        };
        let note = report.view().into_iter().find_map(|b| match b {
            Block::Note { id, text, .. } if id == "heterogeneous-bound" => Some(text),
            _ => None,
        });
        let note = note.expect("a bound note");
        let want = format!(
            "{words}{} {unit} with at most n = 6 chunks",
            dlt_calc::core::domain::number::number(bound)
        );
        assert!(note.contains(&want), "{note} lacks {want}");
    }
}

/// Beside the exact front, a heuristic that sends more than `n` chunks may
/// beat it: its legend and the tables say so; the front's makespans are
/// told apart by their distance from the fastest point.
#[test]
fn the_front_says_heuristics_may_send_more_chunks() {
    let request = Instance {
        objective: Objective::Pareto,
        points: Some(Count(4)),
        max_seconds: Some(600.0),
        ..Instance::mixed()
    };
    use dlt_calc::core::framework::model::Model;
    let answer = dlt_calc::models::heterogeneous::Heterogeneous::solve(&request, &mut Silent)
        .expect("solves");
    let report = *answer.report;
    let most = report
        .compare
        .iter()
        .filter(|c| c.algorithm != "exact")
        .map(|c| c.chunks)
        .max()
        .unwrap();
    assert!(most > 6, "the heuristics send {most} chunks");
    let labels: Vec<&str> = answer
        .charts
        .iter()
        .flat_map(|c| c.lines.iter().map(|l| l.name.as_str()))
        .collect();
    assert!(
        labels
            .iter()
            .any(|l| l.contains("chunks, more than the front's n = 6")),
        "{labels:?}"
    );
    let (caption, _, rows) = table_of(&report, "heterogeneous-compare");
    assert!(caption.contains("at most n = 6 chunks"), "{caption}");
    assert!(
        rows.iter().any(|r| r[3].ends_with("(more than n)")),
        "{rows:?}"
    );
    let (caption, head, rows) = table_of(&report, "heterogeneous-front");
    assert!(caption.contains("at most n = 6 chunks"), "{caption}");
    assert_eq!(head[1], "T above the fastest (s)");
    let fastest = report
        .front
        .iter()
        .map(|p| p.makespan)
        .fold(f64::INFINITY, f64::min);
    for (row, point) in rows.iter().zip(&report.front) {
        let above: f64 = row[1].parse().unwrap();
        assert!(
            (above - (point.makespan - fastest)).abs() <= 1e-6 * point.makespan,
            "{row:?}"
        );
    }
}

/// One colour per machine state in both charts: every state the energy
/// chart stacks is drawn in the colour the Gantt chart's legend gives the
/// same words, no colour stands for two states in either chart, computing
/// is split in and out of core as the Gantt chart draws it, and the energy
/// chart's axis names the machines as the tables and the Gantt chart do.
#[test]
fn the_energy_chart_and_the_gantt_chart_share_one_table_of_states() {
    use dlt_calc::api::{gantt_styles, run, Request};
    use dlt_calc::plot::legend_items;
    // A preset with chunks in and out of core.
    let response = run(&Request::example("heterogeneous").unwrap(), &mut Silent).unwrap();
    let gantt = response.gantt().unwrap();
    let styles = gantt_styles("heterogeneous");
    let (items, _) = legend_items(gantt, &styles, 900, 12);
    let mut states: Vec<(String, (u8, u8, u8))> = items
        .iter()
        .filter_map(|i| Some((i.text.clone(), i.swatch?)))
        .collect();
    let energy = response.charts().iter().find(|c| c.name == "energy");
    let energy = energy.expect("an energy chart");
    let named: Vec<&str> = energy.lines.iter().map(|l| l.name.as_str()).collect();
    assert!(
        named.contains(&"compute in core") && named.contains(&"compute out of core"),
        "{named:?}"
    );
    for line in &energy.lines {
        let colour = line.own_colour().expect("a state's own colour");
        match states.iter().find(|(text, _)| *text == line.name) {
            Some((_, c)) => assert_eq!(*c, colour, "{} in two colours", line.name),
            None => states.push((line.name.clone(), colour)),
        }
    }
    for (i, (a, ca)) in states.iter().enumerate() {
        for (b, cb) in &states[i + 1..] {
            assert!(ca != cb, "{a} and {b} share a colour");
        }
    }
    let rows: Vec<&str> = gantt.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(energy.x.names[0], "originator");
    assert_eq!(&energy.x.names[1..], rows.as_slice());
    assert!(rows.iter().all(|r| r.starts_with('P')), "{rows:?}");
    let laid = dlt_calc::plot::layout::layout(energy, 900, 560).unwrap();
    let shown: Vec<&String> = laid
        .ticks
        .0
        .labels
        .iter()
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        !shown.is_empty() && shown.iter().all(|l| energy.x.names.contains(l)),
        "{shown:?}"
    );
}
