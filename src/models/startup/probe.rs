//! One efficiency probe `E(m, n, V)` for map searches, reusing the work of
//! the previous probe.
//!
//! A map needs hundreds of probes per machine count, so a probe cannot run
//! the full branch and bound. It takes the best round-robin sequence (`p`
//! machines, `k` chunks): the family that holds the optimum in most cases
//! (see `startup`'s docs) and whose best member moves little between nearby
//! loads. A probe starts at the previous probe's `(p, k)` and climbs to the
//! best neighbour (`p ± 1`, `k ± 1`, and both) until none is better: a few
//! LPs instead of the `m·n` of a full scan. The makespan is that of a real,
//! verified-constructible schedule (an upper bound on `T`); the simple lower
//! bound of `startup` gives its gap, which [`Probe::tighten`] improves for
//! the points a search keeps.

use std::collections::HashMap;

use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::domain::error::Validate;
use crate::models::startup::Instance;
use crate::models::startup::LoadLp;

/// The efficiency at one load, with its proven accuracy.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// The load `V`.
    pub load: f64,
    /// The makespan of the best schedule found.
    pub makespan: f64,
    /// `T(1,1,V)/(m T)` of that schedule: never above the true efficiency.
    pub efficiency: f64,
    /// A proven upper bound on the true efficiency.
    pub efficiency_bound: f64,
    /// `(T − lower bound)/T`.
    pub gap: f64,
    /// Machines of the round robin that gave it.
    pub machines_used: usize,
    /// Chunks of that round robin.
    pub chunks_used: usize,
}

impl Point {
    /// The round-robin sequence that gave the point (machine of every chunk).
    pub fn round_robin(&self) -> Vec<usize> {
        (0..self.chunks_used)
            .map(|j| j % self.machines_used)
            .collect()
    }
}

/// Probes one instance template (everything but the load) at many loads.
#[derive(Debug, Clone)]
pub struct Probe {
    template: Instance,
    hint: Option<(usize, usize)>,
    /// The round robins' LPs kept solved, re-optimised at each new load
    /// ([`LoadLp`]); `None` solves every LP from scratch.
    kept: Option<HashMap<(usize, usize), Vec<LoadLp>>>,
    /// LPs solved so far.
    pub lps: u64,
    /// Probes made so far.
    pub probes: u64,
}

impl Probe {
    /// A probe for `template` (its load is replaced at every probe).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] if the template is invalid.
    pub fn new(template: &Instance) -> Result<Probe, Error> {
        template.check()?;
        Ok(Probe {
            template: Instance {
                gap: None,
                max_lps: None,
                max_seconds: None,
                ..template.clone()
            },
            hint: None,
            kept: Some(HashMap::new()),
            lps: 0,
            probes: 0,
        })
    }

    /// A probe that solves every LP from scratch (the reference for the
    /// warm-started one in tests and benchmarks).
    ///
    /// # Errors
    ///
    /// As [`Probe::new`].
    pub fn cold(template: &Instance) -> Result<Probe, Error> {
        Ok(Probe {
            kept: None,
            ..Probe::new(template)?
        })
    }

    /// Tightens the gap of a point with the exact search's bound at its
    /// root: every sequence starts with its first `min(m, n)` chunks on
    /// distinct machines, or has fewer chunks (`Instance::root_bound`: one
    /// LP larger than a probe's, plus the short sequences the area bound
    /// cannot rule out; worth it only for the points a search returns).
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if an LP fails.
    pub fn tighten(&mut self, point: Point) -> Result<Point, Error> {
        let instance = self.instance(point.load);
        let (root, lps) = instance.root_bound(point.makespan)?;
        self.lps += lps;
        let lower = (point.makespan * (1.0 - point.gap))
            .max(root)
            .min(point.makespan);
        let single = instance.single();
        Ok(Point {
            efficiency_bound: single / (instance.machines.as_f64() * lower),
            gap: (point.makespan - lower) / point.makespan,
            ..point
        })
    }

    /// Certifies a point to the relative gap `gap`: the root bound first
    /// ([`Probe::tighten`]), then, if that is not enough, the exact search
    /// from the point's round robin with at most `max_lps` more LPs. The
    /// search may also find a better schedule; the point then takes it.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if an LP fails; [`Error::Field`] for a `gap` outside
    /// `[0, 1)` or a budget of no LP.
    pub fn certify(&mut self, point: Point, gap: f64, max_lps: u64) -> Result<Point, Error> {
        let point = self.tighten(point)?;
        if point.gap <= gap {
            return Ok(point);
        }
        let instance = Instance {
            gap: Some(gap),
            max_lps: Some(Count(max_lps)),
            ..self.instance(point.load)
        };
        let report = instance.solve_from(
            Some(&point.round_robin()),
            &mut crate::core::solving::progress::Silent,
        )?;
        self.lps += report.lps;
        let lower = (point.makespan * (1.0 - point.gap)).max(report.lower_bound);
        let better = report.makespan < point.makespan;
        let makespan = point.makespan.min(report.makespan);
        let lower = lower.min(makespan);
        let used = report.sequence.iter().max().map_or(0, |&u| u + 1);
        Ok(Point {
            makespan,
            efficiency: report.single / (instance.machines.as_f64() * makespan),
            efficiency_bound: report.single / (instance.machines.as_f64() * lower),
            gap: (makespan - lower) / makespan,
            machines_used: if better { used } else { point.machines_used },
            chunks_used: if better {
                report.sequence.len()
            } else {
                point.chunks_used
            },
            ..point
        })
    }

    /// Probes another template from now on, keeping the hint (for grids
    /// whose neighbouring cells differ in one parameter).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] if the template is invalid.
    pub fn retarget(&mut self, template: &Instance) -> Result<(), Error> {
        let hint = self.hint;
        let (lps, probes, warm) = (self.lps, self.probes, self.kept.is_some());
        *self = Probe::new(template)?;
        (self.hint, self.lps, self.probes) = (hint, lps, probes);
        if !warm {
            self.kept = None;
        }
        Ok(())
    }

    /// The instance at `load`.
    pub fn instance(&self, load: f64) -> Instance {
        Instance {
            load,
            ..self.template.clone()
        }
    }

    /// `E(m, n, V)` at `load` (see the module docs).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for a load that is not positive and finite,
    /// [`Error::Solver`] if an LP fails.
    pub fn at(&mut self, load: f64) -> Result<Point, Error> {
        let instance = self.instance(load);
        instance.check()?;
        self.probes += 1;
        let mut family = RoundRobins {
            instance: &instance,
            known: HashMap::new(),
            kept: self.kept.as_mut(),
        };
        let hint = self.hint.filter(|&at| family.allowed(at));
        // The first probe scans every round robin; later ones climb.
        let start = match hint {
            Some(at) => (at, family.makespan(at, &mut self.lps)?),
            None => family.scan(&mut self.lps)?,
        };
        let (at, best) = family.climb(start, &mut self.lps)?;
        self.hint = Some(at);
        let single = instance.single();
        let lower = instance.lower_bound().min(best);
        let mf = instance.machines.as_f64();
        Ok(Point {
            load,
            makespan: best,
            efficiency: single / (mf * best),
            efficiency_bound: single / (mf * lower),
            gap: (best - lower) / best,
            machines_used: at.0,
            chunks_used: at.1,
        })
    }
}

/// The round robins of one probe's instance, by machines `p` and chunks
/// `k`, each solved at most once: a climb comes back to the same `(p, k)`
/// from several neighbours.
struct RoundRobins<'a> {
    instance: &'a Instance,
    known: HashMap<(usize, usize), f64>,
    kept: Option<&'a mut HashMap<(usize, usize), Vec<LoadLp>>>,
}

impl RoundRobins<'_> {
    /// Whether `p` machines and `k` chunks make a sequence the instance
    /// allows.
    fn allowed(&self, (p, k): (usize, usize)) -> bool {
        let m = self.instance.machines_usize();
        let n = self.instance.chunks.get();
        (1..=m).contains(&p)
            && if self.instance.exactly {
                k == n
            } else {
                (p..=n).contains(&k)
            }
    }

    /// The makespan of the round robin over `p` machines with `k` chunks;
    /// `lps` counts the LP when it is solved here.
    fn makespan(&mut self, (p, k): (usize, usize), lps: &mut u64) -> Result<f64, Error> {
        self.solve((p, k), lps, true)
    }

    /// [`RoundRobins::makespan`], from the round robin's kept LP if `keep`
    /// (and the probe keeps LPs), else solved from scratch.
    fn solve(&mut self, (p, k): (usize, usize), lps: &mut u64, keep: bool) -> Result<f64, Error> {
        if let Some(&t) = self.known.get(&(p, k)) {
            return Ok(t);
        }
        let sequence: Vec<usize> = (0..k).map(|j| j % p).collect();
        let t = match self.kept.as_deref_mut().filter(|_| keep) {
            None => self.instance.solve_sequence(&sequence)?.makespan,
            Some(kept) => {
                // One LP per stretch of loads: a search comes back to
                // loads it left (a crossing below `Vmax` after the sweep).
                let lps = kept.entry((p, k)).or_default();
                let load = self.instance.load;
                let lp = match lps.iter().position(|lp| lp.reaches(load)) {
                    Some(i) => &mut lps[i],
                    None => {
                        lps.push(LoadLp::new(self.instance, &sequence)?);
                        // cannot fail: the LP was pushed on the line above.
                        lps.last_mut().expect("just pushed")
                    }
                };
                lp.solve(self.instance, &sequence)?.makespan
            }
        };
        *lps += 1;
        self.known.insert((p, k), t);
        Ok(t)
    }

    /// The best of every allowed round robin (the first of equals), for a
    /// probe without a hint.
    fn scan(&mut self, lps: &mut u64) -> Result<((usize, usize), f64), Error> {
        let m = self.instance.machines_usize();
        let n = self.instance.chunks.get();
        let mut best = ((m.min(n), n), f64::INFINITY);
        for p in 1..=m {
            for k in 1..=n {
                if self.allowed((p, k)) {
                    // Most of these are never visited again: solved once.
                    let t = self.solve((p, k), lps, false)?;
                    if t < best.1 {
                        best = ((p, k), t);
                    }
                }
            }
        }
        Ok(best)
    }

    /// From `(at, best)`, moves to a better neighbour (`p ± 1`, `k ± 1`,
    /// both) until none is better by a relative `1e-12`; each move is
    /// taken at once, so later neighbours are those of the new point.
    fn climb(
        &mut self,
        (mut at, mut best): ((usize, usize), f64),
        lps: &mut u64,
    ) -> Result<((usize, usize), f64), Error> {
        loop {
            let mut moved = false;
            for (dp, dk) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)] {
                let (p, k) = (at.0 as isize + dp, at.1 as isize + dk);
                if p < 1 || k < 1 || !self.allowed((p as usize, k as usize)) {
                    continue;
                }
                let t = self.makespan((p as usize, k as usize), lps)?;
                if t < best * (1.0 - 1e-12) {
                    (best, at, moved) = (t, (p as usize, k as usize), true);
                }
            }
            if !moved {
                return Ok((at, best));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::solving::progress::Silent;

    /// Where every chunk fits in RAM the root bound alone certifies a map
    /// point: the machines share the channel (the `q` smallest starts of
    /// their remaining work add up to the first `q` position starts).
    /// Without that the root gap here was 1.1 %.
    #[test]
    fn the_root_bound_certifies_in_core_points() {
        let mut probe = Probe::new(&Instance::reference(10, 1.0)).unwrap();
        let point = probe.at(10_000.0).unwrap();
        assert!(point.gap > 0.02, "the probe's own bound: {}", point.gap);
        let tightened = probe.tighten(point).unwrap();
        assert!(tightened.gap < 0.002, "the root bound: {}", tightened.gap);
    }

    /// Certifying a point whose root bound leaves more than 1 % runs the
    /// search until the gap is at most 1 %, never losing schedule quality.
    #[test]
    fn certify_reaches_the_asked_gap() {
        let mut probe = Probe::new(&Instance::reference(8, 1.0)).unwrap();
        let point = probe.at(106_921.0).unwrap();
        let tightened = probe.tighten(point).unwrap();
        assert!(
            tightened.gap > 0.01,
            "the root bound alone: {}",
            tightened.gap
        );
        let certified = probe.certify(point, 0.01, 2_000).unwrap();
        assert!(certified.gap <= 0.01, "{}", certified.gap);
        assert!(certified.makespan <= point.makespan);
        assert!(certified.efficiency_bound >= certified.efficiency);
    }

    /// The climb finds the best round robin of the full scan, on the
    /// reference instance across the loads of a map, with kept LPs or
    /// without. A kept LP may rebuild a schedule below the scan's (another
    /// optimal point of the same LP, with an empty chunk and its overhead
    /// saved), never far.
    #[test]
    fn climb_matches_the_full_round_robin_scan() {
        for m in [2, 5, 11] {
            for kept in [false, true] {
                let template = Instance::reference(m, 1.0);
                let mut probe = match kept {
                    true => Probe::new(&template).unwrap(),
                    false => Probe::cold(&template).unwrap(),
                };
                let (mut worst, mut below): (f64, f64) = (0.0, 0.0);
                for load in (0..20).map(|i| 10f64.powf(1.0 + i as f64 * 0.3)) {
                    let point = probe.at(load).unwrap();
                    let (scan, _) = probe.instance(load).round_robin(&mut Silent).unwrap();
                    let above = (point.makespan - scan.makespan) / scan.makespan;
                    (worst, below) = (worst.max(above), below.min(above));
                }
                eprintln!(
                    "m = {m}, kept {kept}: worst {worst:e}, below {below:e}, lps {}",
                    probe.lps
                );
                assert!(worst < 2e-3, "m = {m}: the climb is {worst} above the scan");
                let floor = if kept { -1e-4 } else { -1e-9 };
                assert!(
                    below >= floor,
                    "m = {m}: the climb is {below} below the scan"
                );
            }
        }
    }
}
