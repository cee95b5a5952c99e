//! The fastest schedule over every subset of the machines, kept in their
//! serving order: an unused machine gets no message and pays no start-up.
//!
//! **Time to load.** Let `r` be the time left, when the channel becomes
//! free, until the makespan `T`. Serving machine `(S, C, A)` with equal
//! finish gives it `α = (r − S)/(A + C)` and leaves `r' = (r − S)ρ`,
//! `ρ = A/(A + C)`, to the machines after it. Along a *plan* (a subset in
//! order) every `r` and every `α` is affine in `T`, so the load a plan
//! processes by `T` is `ℓ_P(T) = g_P + s_P T`, and its makespan for load `V`
//! is the equal-finish closed form `T_P = (V − g_P)/s_P`.
//!
//! **Why `min_P T_P` is the optimum, even over plans with negative loads.**
//! A plan with a negative load at machine `u` (`r_u < S_u`) leaves every
//! machine after `u` a negative `r`, hence a negative load: dropping `u`
//! and everything after it gives a feasible plan that processes more by
//! every `T`. So `G(T) = max_P ℓ_P(T)`, over all plans, is the most load
//! any feasible schedule processes by `T`, and the optimum is the least
//! `T` with `G(T) ≥ V`, which is `min_P T_P`.
//!
//! **Hulls instead of `2^m` plans.** Serving machine `u` in front of a plan
//! maps its `(s, g)` by the affine map `s' = 1/(A+C) + ρs`, `g' = g − S s'`,
//! and maximising `ℓ` at time `r` is maximising the linear function
//! `g + s r`. So only plans on the upper hull of the `(s, g)` points, for
//! directions `r` in `[0, T̄]`, can be optimal (`T̄`: the makespan of any
//! schedule, here the best prefix's): the search builds, from the last
//! machine to the first, the hull of the plans of each suffix, the images of
//! the previous hull added, and at the front takes `min (V − g)/s`. Every
//! pruned plan is beaten, at every time a front could leave it, by a kept
//! one; the answer is therefore exact (up to rounding, which the tests bound
//! by brute force at `1e-9`).
//!
//! **Identical copies.** A run of `c` identical machines, consecutive in the
//! order, contributes the images `f^j(h)` of each hull point `h` for
//! `j = 0..c` copies (which copies does not matter). At the direction `T̄`
//! the gain of the `(j+1)`-th copy, `[u_j(1 − s_h C) − S(1 + s_h A)]/(A+C)`
//! with `u_j` the time left at copy `j`, falls as `j` grows, and the best
//! `j` grows with the direction: copies past the first non-positive gain at
//! `T̄` are never optimal. A single run of a million machines is one pass
//! over its useful copies.

use super::Machine;

/// A run of identical machines, consecutive in the serving order.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The machine.
    pub machine: &'a Machine,
    /// Its copies.
    pub count: usize,
}

/// Which machines to use: a prefix of each run's copies.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Copies used of each run.
    pub used: Vec<usize>,
    /// The equal-finish makespan of the chosen machines.
    pub makespan: f64,
}

/// Why the search stopped before proving its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// More candidate plans than [`MAX_CANDIDATES`].
    Size,
    /// The caller asked to stop.
    Asked,
}

/// The most candidate plans one search makes (each a few words).
pub const MAX_CANDIDATES: usize = 40_000_000;

/// A plan of a suffix: its `(s, g)`, the copies of its first run and where
/// the rest of it is in the next hull.
#[derive(Debug, Clone, Copy)]
struct Point {
    s: f64,
    g: f64,
    copies: usize,
    parent: usize,
}

/// The consecutive runs of identical machines of `served`.
pub fn runs<'a>(served: &[&'a Machine]) -> Vec<Run<'a>> {
    let mut out: Vec<Run<'a>> = Vec::new();
    for &m in served {
        match out.last_mut() {
            Some(run) if same(run.machine, m) => run.count += 1,
            _ => out.push(Run {
                machine: m,
                count: 1,
            }),
        }
    }
    out
}

/// The runs of the first `m` machines of `runs`.
pub fn first<'a>(runs: &[Run<'a>], m: usize) -> Vec<Run<'a>> {
    let mut left = m;
    runs.iter()
        .map_while(|run| {
            let count = run.count.min(left);
            left -= count;
            (count > 0).then_some(Run { count, ..*run })
        })
        .collect()
}

/// The copies of each run used by the first `active` machines.
pub fn prefix_use(runs: &[Run], active: usize) -> Vec<usize> {
    let mut left = active;
    runs.iter()
        .map(|run| {
            let n = run.count.min(left);
            left -= n;
            n
        })
        .collect()
}

/// The machines used, in serving order.
pub fn used<'r, 'a: 'r>(
    runs: &'r [Run<'a>],
    used: &'r [usize],
) -> impl Iterator<Item = &'a Machine> + 'r {
    runs.iter()
        .zip(used)
        .flat_map(|(run, &n)| std::iter::repeat_n(run.machine, n))
}

fn same(a: &Machine, b: &Machine) -> bool {
    a.startup == b.startup && a.rate == b.rate && a.compute == b.compute
}

/// The fastest choice of machines for `load`, given `upper`, the makespan
/// of some schedule (the best prefix's); `go_on` is asked now and then.
///
/// # Errors
///
/// [`Stop`] when the search was cut short.
pub fn best(
    runs: &[Run],
    load: f64,
    upper: f64,
    go_on: &mut dyn FnMut() -> bool,
) -> Result<Choice, Stop> {
    let mut budget = Budget {
        left: MAX_CANDIDATES,
        go_on,
    };
    let origin = Point {
        s: 0.0,
        g: 0.0,
        copies: 0,
        parent: 0,
    };
    // hulls[i]: the plans of runs i+1.. that may be optimal.
    let mut hulls: Vec<Vec<Point>> = vec![Vec::new(); runs.len()];
    if let Some(last) = hulls.last_mut() {
        last.push(origin);
    }
    for i in (1..runs.len()).rev() {
        let candidates = images(runs[i], &hulls[i], upper, &mut budget)?;
        hulls[i - 1] = upper_hull(candidates, upper);
    }
    let Some(first) = runs.first() else {
        return Err(Stop::Size);
    };
    let candidates = images(*first, &hulls[0], upper, &mut budget)?;
    let best = candidates
        .iter()
        .filter(|p| p.s > 0.0)
        .map(|p| ((load - p.g) / p.s, p))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some((makespan, point)) = best else {
        return Err(Stop::Size);
    };
    let mut used = vec![0; runs.len()];
    let mut at = *point;
    for (i, copies) in used.iter_mut().enumerate() {
        *copies = at.copies;
        if i + 1 < runs.len() {
            at = hulls[i][at.parent];
        }
    }
    Ok(Choice { used, makespan })
}

/// Counts candidates and asks the caller now and then.
struct Budget<'a> {
    left: usize,
    go_on: &'a mut dyn FnMut() -> bool,
}

impl Budget<'_> {
    fn spend(&mut self, n: usize) -> Result<(), Stop> {
        let before = self.left;
        self.left = self.left.checked_sub(n).ok_or(Stop::Size)?;
        if before / 65_536 != self.left / 65_536 && !(self.go_on)() {
            return Err(Stop::Asked);
        }
        Ok(())
    }
}

/// Every plan with `j` copies of `run` in front of a plan of `hull`, for the
/// copies that may pay at some time up to `upper`.
fn images(run: Run, hull: &[Point], upper: f64, budget: &mut Budget) -> Result<Vec<Point>, Stop> {
    let m = run.machine;
    let (a, c, s0) = (m.compute, m.rate, m.startup);
    let share = 1.0 / (a + c);
    let rho = a * share;
    let mut out = Vec::with_capacity(hull.len());
    for (parent, h) in hull.iter().enumerate() {
        out.push(Point {
            copies: 0,
            parent,
            ..*h
        });
        let (mut s, mut g, mut left) = (h.s, h.g, upper);
        for copies in 1..=run.count {
            // The gain of one more copy at the direction `upper`.
            if left * (1.0 - h.s * c) - s0 * (1.0 + h.s * a) <= 0.0 {
                break;
            }
            s = share + rho * s;
            g -= s0 * s;
            left = (left - s0) * rho;
            out.push(Point {
                s,
                g,
                copies,
                parent,
            });
            if copies % 4096 == 0 {
                budget.spend(4096)?;
            }
        }
        budget.spend(1)?;
    }
    Ok(out)
}

/// The plans that maximise `g + s r` for some `r` in `[0, upper]`, by
/// growing `s`.
fn upper_hull(mut points: Vec<Point>, upper: f64) -> Vec<Point> {
    points.sort_by(|p, q| p.s.total_cmp(&q.s).then(q.g.total_cmp(&p.g)));
    points.dedup_by(|later, earlier| later.s == earlier.s);
    let mut hull: Vec<Point> = Vec::with_capacity(points.len());
    for p in points {
        // Lines by growing slope: drop the last while the new one beats it
        // wherever it was best.
        while hull.len() >= 2 {
            let (before, last) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            // `last` is best on [x(before, last), x(last, p)]; empty: drop.
            if (last.g - p.g) * (last.s - before.s) <= (before.g - last.g) * (p.s - last.s) {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(p);
    }
    // Keep the lines best somewhere in [0, upper].
    let cross = |p: &Point, q: &Point| (p.g - q.g) / (q.s - p.s);
    let first = hull
        .windows(2)
        .take_while(|w| cross(&w[0], &w[1]) <= 0.0)
        .count();
    let mut kept: Vec<Point> = hull[first..].to_vec();
    while kept.len() >= 2 && cross(&kept[kept.len() - 2], &kept[kept.len() - 1]) >= upper {
        kept.pop();
    }
    kept
}
