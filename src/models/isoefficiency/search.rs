//! Searches along the load axis for one machine count: the maximum of
//! `E(V)` and the loads where `E(V)` crosses a level.
//!
//! Both start from one sweep of probes on a geometric grid of loads, which
//! brackets the maximum and every crossing at once (a bracket is reused by
//! all the levels it holds, and the probe's hint carries from one load to
//! the next). The maximum is then narrowed as in `[3]`: two probes inside
//! the bracket, and the side with the smaller efficiency dropped (golden
//! section, so one probe is reused at each step). A crossing is narrowed
//! by regula falsi with the Illinois modification, falling back to a
//! bisection step when the bracket does not halve; both stop once the
//! bracket is narrower than the load tolerance.

use crate::core::domain::error::Error;
use crate::core::solving::progress::Progress;

use crate::models::startup::probe::{Point, Probe};

/// The most narrowing steps of one search. Validation keeps the tolerance
/// above the floating-point spacing of the loads, so the searches end long
/// before (golden section shrinks a bracket of `1e30` to `1e-12` of its
/// width in under 200 steps); this bound makes their end certain whatever
/// the input.
const MAX_STEPS: usize = 400;

/// Golden-section ratio `1/φ`.
const INVERSE_PHI: f64 = 0.618_033_988_749_894_9;

/// Efficiencies this close (relatively) are taken as equal by the search
/// for the maximum, which then keeps the smaller load. On a flat `E(V)`
/// (communication dominating, every load as efficient) the maximum would
/// otherwise sit wherever the last bits of the arithmetic put it, and the
/// page's wasm (whose `ln`, `exp` and `powf` round otherwise) would find
/// another `Vmax` than the command line. It is far above that rounding
/// (1e-16) and far below any efficiency a table shows.
const TIE: f64 = 1e-12;

/// Whether `e` is at least `other`, up to [`TIE`].
fn at_least(e: f64, other: f64) -> bool {
    e >= other - TIE * other.abs()
}

/// A grid sweep: probes at loads growing geometrically.
pub(crate) fn sweep(
    probe: &mut Probe,
    low: f64,
    high: f64,
    per_decade: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Vec<Point>, Error> {
    // Validation bounds high / low, so the count is small and finite.
    let decades = (high / low).log10().clamp(0.0, 30.0);
    let steps = ((decades * per_decade as f64).ceil() as usize).max(2);
    let mut points = Vec::with_capacity(steps + 1);
    for i in 0..=steps {
        let load = low * (high / low).powf(i as f64 / steps as f64);
        points.push(probe.at(load)?);
        if !progress(i as f64 / steps as f64) {
            return Err(Error::Cancelled);
        }
    }
    Ok(points)
}

/// The maximum of `E` on `[a, b]` (a bracket from the sweep), narrowed until
/// the bracket is narrower than `tolerance`.
fn maximum(probe: &mut Probe, a: f64, b: f64, tolerance: f64) -> Result<Point, Error> {
    let (mut a, mut b) = (a, b);
    let mut left = probe.at(b - INVERSE_PHI * (b - a))?;
    let mut right = probe.at(a + INVERSE_PHI * (b - a))?;
    for _ in 0..MAX_STEPS {
        if b - a <= tolerance {
            break;
        }
        if at_least(left.efficiency, right.efficiency) {
            b = right.load;
            right = left;
            left = probe.at(b - INVERSE_PHI * (b - a))?;
        } else {
            a = left.load;
            left = right;
            right = probe.at(a + INVERSE_PHI * (b - a))?;
        }
    }
    Ok(if at_least(left.efficiency, right.efficiency) {
        left
    } else {
        right
    })
}

/// The maximum of `E` from a sweep: the best grid point and its neighbours
/// bracket it, [`maximum`] narrows the bracket, and the better of the
/// narrowed point and the grid point is kept. Near-equal efficiencies
/// ([`TIE`]) count as equal, the smaller load winning, so that the answer
/// does not hang on rounding.
pub(crate) fn peak(probe: &mut Probe, sweep: &[Point], tolerance: f64) -> Result<Point, Error> {
    let Some(best) = sweep.iter().map(|p| p.efficiency).max_by(f64::total_cmp) else {
        return Err(Error::Malformed("a sweep without points".into()));
    };
    // The sweep is in increasing load: the first point as good as the best.
    let top = sweep
        .iter()
        .position(|p| at_least(p.efficiency, best))
        .unwrap_or(0);
    let (a, b) = (
        sweep[top.saturating_sub(1)].load,
        sweep[(top + 1).min(sweep.len() - 1)].load,
    );
    let found = maximum(probe, a, b, tolerance)?;
    let grid = sweep[top];
    let better = !at_least(grid.efficiency, found.efficiency);
    let as_good_and_smaller = at_least(found.efficiency, grid.efficiency) && found.load < grid.load;
    Ok(if better || as_good_and_smaller {
        found
    } else {
        grid
    })
}

/// The load in `[lo, hi]` where `E` crosses `level`, given the efficiencies
/// at both ends on opposite sides of it; narrowed until the bracket is
/// narrower than `tolerance`, then probed at the bracket's middle.
pub(crate) fn crossing(
    probe: &mut Probe,
    lo: Point,
    hi: Point,
    level: f64,
    tolerance: f64,
) -> Result<Point, Error> {
    let (mut a, mut b) = (lo, hi);
    let (mut fa, mut fb) = (a.efficiency - level, b.efficiency - level);
    // Which end was kept last, for the Illinois halving.
    let mut kept = 0i8;
    for _ in 0..MAX_STEPS {
        if b.load - a.load <= tolerance {
            break;
        }
        let width = b.load - a.load;
        let mut load = if fa != fb {
            a.load - fa * width / (fb - fa)
        } else {
            0.5 * (a.load + b.load)
        };
        // Stay inside, and away from the ends by a little.
        let margin = 0.25 * tolerance.min(width);
        load = load.clamp(a.load + margin, b.load - margin);
        let p = probe.at(load)?;
        let f = p.efficiency - level;
        if f == 0.0 {
            return Ok(p);
        }
        if (f < 0.0) == (fa < 0.0) {
            (a, fa) = (p, f);
            if kept == 1 {
                fb *= 0.5;
            }
            kept = 1;
        } else {
            (b, fb) = (p, f);
            if kept == -1 {
                fa *= 0.5;
            }
            kept = -1;
        }
        // Slow progress (one end stuck): bisect once.
        if b.load - a.load > 0.5 * width && b.load - a.load > tolerance {
            let mid = probe.at(0.5 * (a.load + b.load))?;
            let fm = mid.efficiency - level;
            if (fm < 0.0) == (fa < 0.0) {
                (a, fa) = (mid, fm);
            } else {
                (b, fb) = (mid, fm);
            }
            kept = 0;
        }
    }
    probe.at(0.5 * (a.load + b.load))
}

/// Adapts a [`Progress`] to report the fraction of a part of the work.
pub(crate) fn part<'a>(
    progress: &'a mut dyn Progress,
    from: f64,
    to: f64,
    what: &'a str,
) -> impl FnMut(f64) -> bool + 'a {
    move |done| progress.report(from + (to - from) * done, what)
}
