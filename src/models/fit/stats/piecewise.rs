//! The exact continuous piecewise-linear least-squares fit with `k` lines
//! and unknown knees: M3's `max_k (A_k1 + α A_k2)` and, with `k = 2` and the
//! first line through the origin, `[3]`'s `max(a1 α, a2 α + b2)`.
//!
//! **Why it is exact** (Hudson 1966, *Fitting segmented curves whose join
//! points have to be estimated*, JASA 61). Sort the samples by load once.
//! Put each knee in a gap between consecutive distinct loads; that fixes
//! which samples each line fits. For this partition:
//!
//! 1. fit every line to its own samples alone (a closed form, `O(1)` from
//!    prefix sums of the moments). Their residual sum of squares is a lower
//!    bound; if every two neighbouring lines meet inside their knee's gap,
//!    the lines are continuous and the bound is reached: that is the
//!    partition's optimum;
//! 2. otherwise the optimum has some knees at an end of their gap. With a
//!    knee `r` held fixed, continuity at it is one linear constraint and the
//!    fit a linear least-squares problem; a knee left free adds none. Over
//!    one knee's gap, with the rest fixed, the constrained residual sum of
//!    squares is `rss₀ + (uᵀβ̂(r))²/(u(r)ᵀ V u(r))`, a ratio of quadratics in
//!    `r` whose only stationary points are the free fits' meeting point (its
//!    minimum) and a maximum; so an optimum with the knee inside the gap is
//!    the free fits' meeting point, and otherwise the knee is at an end.
//!    Trying, for each knee, "free", "at the gap's left end" and "at its
//!    right end" (`3^(k−1)` linear problems, each a few lines of algebra on
//!    the lines' `2 × 2` normal matrices), keeping the ones whose free knees
//!    land in their gaps, finds the partition's optimum.
//!
//! The best over all partitions is the global optimum over every knee
//! placement that leaves each line at least two distinct loads (one for a
//! line through the origin): with fewer, a line is not determined (it can
//! turn about its one point), so such placements are not fits.
//!
//! **Cost.** Sorting `O(n log n)`, then `O(3^(k−1))` per combination of
//! gaps, `C(m, k − 1)` combinations for `m` distinct loads: `O(n log n)` for
//! two lines, `O(m²)` for three. The search is a branch and bound: a line's
//! own residual sum of squares only grows as its run of samples grows, so a
//! run whose lines already fit worse than the best found ends the loop.
//! Inputs whose combinations exceed [`MAX_COMBINATIONS`] are refused.
//!
//! **Uncertainty.** The standard errors are the nonlinear least-squares
//! covariance `σ²(JᵀJ)⁻¹` at the optimum of the parameters
//! `(c, s, d_i, r_i)` of `y = c + s x + Σ d_i (x − r_i)₊` (`d_i` the change
//! of slope at knee `r_i`), with `σ² = rss/(n − p)`; each line's intercept
//! and slope follow by the delta method.
//!
//! **Weighted.** With weights (`weights.rs`) every moment is the weighted
//! one, `rss` is `Σ w r²` and the covariance `σ²(JᵀWJ)⁻¹`: the argument
//! above holds word for word, so the weighted fit is as exact.

use serde::{Deserialize, Serialize};

use super::check;
use super::error::FitError;
use super::estimate::{Estimate, Goodness};
use super::linalg::Matrix;
use super::moments::{Moments, Sorted};
use super::weights::{self, Weights};

/// The most lines a piecewise fit takes.
pub const MAX_LINES: usize = 4;

/// The most combinations of the knees' gaps the exact fit tries (three
/// lines: about 4 500 distinct loads; four lines: about 390).
pub const MAX_COMBINATIONS: f64 = 1e7;

/// Whether the first line passes through the origin.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// `y = s x` below the first knee (`[3]`: no work, no time).
    #[default]
    Through,
    /// `y = c + s x` below the first knee (M3's general form).
    Free,
}

/// One fitted line `y = intercept + slope · x`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FittedLine {
    /// In `y`'s unit; `None` for a first line held through the origin.
    pub intercept: Option<Estimate>,
    /// In `y`'s unit per `x`'s unit.
    pub slope: Estimate,
}

/// A continuous piecewise-linear fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinesFit {
    /// The lines, from the smallest load up.
    pub lines: Vec<FittedLine>,
    /// The knees, ascending, in `x`'s unit; knee `i` joins lines `i` and
    /// `i + 1`.
    pub knees: Vec<Estimate>,
    /// Residuals, `R²`, `σ` and BIC.
    pub fit: Goodness,
    /// Every slope above the one before it, so that the fit is the maximum
    /// of its lines (M3's form) rather than only continuous.
    pub convex: bool,
}

/// The exact continuous fit with `k` lines (2 to 4, `MAX_LINES`), each line
/// with its own intercept (M3's form).
pub fn k_lines(xs: &[f64], ys: &[f64], k: usize) -> Result<LinesFit, FitError> {
    k_lines_with(xs, ys, k, Origin::Free)
}

/// The exact continuous fit with `k` lines, the first through the origin
/// or not.
pub fn k_lines_with(
    xs: &[f64],
    ys: &[f64],
    k: usize,
    origin: Origin,
) -> Result<LinesFit, FitError> {
    k_lines_weighted(xs, ys, k, origin, Weights::Unit)
}

/// [`k_lines_with`] with its samples weighted.
pub fn k_lines_weighted(
    xs: &[f64],
    ys: &[f64],
    k: usize,
    origin: Origin,
    weights: Weights,
) -> Result<LinesFit, FitError> {
    let fit = |ws: Option<&[f64]>| exact(xs, ys, ws, k, origin);
    weights::weighted(ys, weights, fit, |f| &f.fit)
}

/// The exact fit for fixed weights (`None`: unweighted).
fn exact(
    xs: &[f64],
    ys: &[f64],
    ws: Option<&[f64]>,
    k: usize,
    origin: Origin,
) -> Result<LinesFit, FitError> {
    if !(2..=MAX_LINES).contains(&k) {
        return Err(FitError::Lines {
            asked: k,
            most: MAX_LINES,
        });
    }
    check::samples(xs, ys)?;
    weights::check(ws, xs.len())?;
    check::enough(xs.len(), parameters(k, origin))?;
    check::spread(xs)?;
    check::not_flat(ys)?;
    let sorted = Sorted::new(xs, ys, ws);
    let minima = minima(k, origin);
    let needed: usize = minima.iter().sum();
    if sorted.groups() < needed {
        return Err(FitError::KneeSide {
            distinct: sorted.groups(),
            needed,
            lines: k,
        });
    }
    let combinations = combinations(sorted.groups(), &minima);
    if combinations > MAX_COMBINATIONS {
        return Err(FitError::TooManyCombinations {
            combinations,
            limit: MAX_COMBINATIONS,
        });
    }
    let best = search(&sorted, &minima, origin)?;
    assemble(xs, ys, ws, origin, &best)
}

/// Parameters of a fit with `k` lines: each line's intercept and slope,
/// less one equation of continuity per knee, plus the knee.
pub fn parameters(k: usize, origin: Origin) -> usize {
    2 * k - usize::from(origin == Origin::Through)
}

/// The fewest distinct loads each line needs to be determined.
fn minima(k: usize, origin: Origin) -> Vec<usize> {
    let mut m = vec![2; k];
    if origin == Origin::Through {
        m[0] = 1;
    }
    m
}

/// How many ways `groups` distinct loads split into runs of at least
/// `minima[i]` each: `C(groups − Σ minima + k − 1, k − 1)`.
fn combinations(groups: usize, minima: &[usize]) -> f64 {
    let k = minima.len();
    let free = (groups - minima.iter().sum::<usize>()) as f64;
    (1..k).fold(1.0, |c, i| c * (free + i as f64) / i as f64)
}

/// A line's own least-squares fit to its run of samples, with the inverse
/// of its normal matrix (for the constrained fits).
#[derive(Debug, Clone, Copy, Default)]
struct Piece {
    /// Intercept.
    c: f64,
    /// Slope.
    s: f64,
    /// Its residual sum of squares.
    rss: f64,
    /// The inverse normal matrix `[m_cc, m_cs, m_ss]` (zero in `c` for a
    /// line through the origin, whose intercept is not free).
    m: [f64; 3],
}

impl Piece {
    /// `y = c + s x` (at least two distinct `x`).
    fn free(mo: &Moments) -> Self {
        if mo.sxx.is_nan() || mo.sxx <= 0.0 {
            return Piece::unusable();
        }
        let s = mo.sxy / mo.sxx;
        Piece {
            c: mo.my - s * mo.mx,
            s,
            rss: (mo.syy - s * mo.sxy).max(0.0),
            m: [
                1.0 / mo.n + mo.mx * mo.mx / mo.sxx,
                -mo.mx / mo.sxx,
                1.0 / mo.sxx,
            ],
        }
    }

    /// `y = s x`.
    fn through_origin(mo: &Moments) -> Self {
        let xx = mo.sxx + mo.n * mo.mx * mo.mx;
        let xy = mo.sxy + mo.n * mo.mx * mo.my;
        let yy = mo.syy + mo.n * mo.my * mo.my;
        let s = xy / xx;
        Piece {
            c: 0.0,
            s,
            rss: (yy - s * xy).max(0.0),
            m: [0.0, 0.0, 1.0 / xx],
        }
    }

    /// A run whose moments lost their spread to rounding: never chosen.
    fn unusable() -> Self {
        Piece {
            rss: f64::INFINITY,
            ..Piece::default()
        }
    }
}

/// A continuous fit of one partition: its lines `(c, s)` and knees.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    rss: f64,
    lines: [(f64, f64); MAX_LINES],
    knees: [f64; MAX_LINES - 1],
    /// The last load of each knee's left line: a sample lies above knee
    /// `i` if its load exceeds `splits[i]`, also when the knee is held on a
    /// load (the partition, not the knee, says which line a sample is on).
    splits: [f64; MAX_LINES - 1],
    /// Lines used.
    k: usize,
}

/// The best continuous fit of one partition: `pieces[i]` are the lines'
/// own fits, `gaps[i]` the ends of knee `i`'s gap. `None` when no choice
/// of free and held knees is feasible (only by rounding).
fn best_for(pieces: &[Piece], gaps: &[(f64, f64)]) -> Option<Candidate> {
    let mut best: Option<Candidate> = None;
    for code in 0..3usize.pow(gaps.len() as u32) {
        let mut held = [None; MAX_LINES - 1];
        let mut rest = code;
        for (i, gap) in gaps.iter().enumerate() {
            held[i] = match rest % 3 {
                0 => None,
                1 => Some(gap.0),
                _ => Some(gap.1),
            };
            rest /= 3;
        }
        if let Some(c) = constrained(pieces, gaps, &held[..gaps.len()]) {
            if best.is_none_or(|b| c.rss < b.rss) {
                best = Some(c);
            }
        }
        // The lines' own fits meet in their gaps: the lower bound is reached.
        if code == 0 && best.is_some() {
            break;
        }
    }
    best
}

/// The direction a knee's continuity constraint takes in line `l`'s
/// `(c, s)`: `line_i(ρ) − line_{i+1}(ρ) = 0`.
fn direction(knee: usize, rho: f64, l: usize) -> Option<(f64, f64)> {
    if l == knee {
        Some((1.0, rho))
    } else if l == knee + 1 {
        Some((-1.0, -rho))
    } else {
        None
    }
}

/// `uᵀ M v` for a line's inverse normal matrix `m`.
fn quad(m: &[f64; 3], u: (f64, f64), v: (f64, f64)) -> f64 {
    u.0 * (m[0] * v.0 + m[1] * v.1) + u.1 * (m[1] * v.0 + m[2] * v.1)
}

/// The least-squares lines continuous at the `held` knees (the others
/// free), by `β = β̂ − M Aᵀ (A M Aᵀ)⁻¹ A β̂`, `rss = rss₀ + eᵀ(A M Aᵀ)⁻¹e`;
/// `None` if a free knee's lines do not meet inside its gap. Fixed-size
/// arrays only: this runs for most gaps of a million samples.
fn constrained(pieces: &[Piece], gaps: &[(f64, f64)], held: &[Option<f64>]) -> Option<Candidate> {
    let mut pins = [(0, 0.0); MAX_LINES - 1];
    let mut count = 0;
    for (i, h) in held.iter().enumerate() {
        if let Some(rho) = *h {
            pins[count] = (i, rho);
            count += 1;
        }
    }
    let pins = &pins[..count];
    let mut w = [[0.0; MAX_LINES - 1]; MAX_LINES - 1];
    let mut e = [0.0; MAX_LINES - 1];
    for (a, &(i, rho)) in pins.iter().enumerate() {
        let (p, q) = (&pieces[i], &pieces[i + 1]);
        e[a] = (p.c - q.c) + (p.s - q.s) * rho;
        for (b, &(j, sigma)) in pins.iter().enumerate() {
            for l in [i, i + 1] {
                if let (Some(u), Some(v)) = (direction(i, rho, l), direction(j, sigma, l)) {
                    w[a][b] += quad(&pieces[l].m, u, v);
                }
            }
        }
    }
    let lambda = solve_small(w, e, count)?;
    let mut c = Candidate {
        rss: pieces.iter().map(|p| p.rss).sum::<f64>()
            + (0..count).map(|a| e[a] * lambda[a]).sum::<f64>(),
        lines: [(0.0, 0.0); MAX_LINES],
        knees: [0.0; MAX_LINES - 1],
        splits: [0.0; MAX_LINES - 1],
        k: pieces.len(),
    };
    for (l, p) in pieces.iter().enumerate() {
        let (mut dc, mut ds) = (0.0, 0.0);
        for (&(i, rho), lam) in pins.iter().zip(&lambda) {
            if let Some(u) = direction(i, rho, l) {
                dc += (p.m[0] * u.0 + p.m[1] * u.1) * lam;
                ds += (p.m[1] * u.0 + p.m[2] * u.1) * lam;
            }
        }
        c.lines[l] = (p.c - dc, p.s - ds);
    }
    place_knees(&mut c, gaps, held)?;
    Some(c)
}

/// `λ` with `W λ = e` for the first `n` rows (Gaussian elimination with
/// partial pivoting on at most 3 × 3); `None` if `W` is singular.
fn solve_small(
    mut w: [[f64; MAX_LINES - 1]; MAX_LINES - 1],
    mut e: [f64; MAX_LINES - 1],
    n: usize,
) -> Option<[f64; MAX_LINES - 1]> {
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| w[i][k].abs().total_cmp(&w[j][k].abs()))?;
        w.swap(k, p);
        e.swap(k, p);
        let pivot = w[k];
        if pivot[k] == 0.0 || pivot[k].is_nan() {
            return None;
        }
        for i in k + 1..n {
            let f = w[i][k] / pivot[k];
            for (wij, pj) in w[i][k..n].iter_mut().zip(&pivot[k..n]) {
                *wij -= f * pj;
            }
            e[i] -= f * e[k];
        }
    }
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| w[k][j] * e[j]).sum();
        e[k] = (e[k] - s) / w[k][k];
    }
    Some(e)
}

/// Each knee: its held place, or where its lines meet if that lies in its
/// gap (to within rounding; then pulled onto the gap).
fn place_knees(c: &mut Candidate, gaps: &[(f64, f64)], held: &[Option<f64>]) -> Option<()> {
    for (i, &(low, high)) in gaps.iter().enumerate() {
        c.splits[i] = low;
        c.knees[i] = match held[i] {
            Some(rho) => rho,
            None => {
                let ((c0, s0), (c1, s1)) = (c.lines[i], c.lines[i + 1]);
                let r = (c1 - c0) / (s0 - s1);
                let slack = 1e-9 * (high - low);
                if !(r >= low - slack && r <= high + slack) {
                    return None;
                }
                r.clamp(low, high)
            }
        };
    }
    Some(())
}

/// The branch and bound over the knees' gaps.
struct Search<'a> {
    sorted: &'a Sorted,
    minima: &'a [usize],
    origin: Origin,
    /// The lines' own fits along the current partition.
    pieces: [Piece; MAX_LINES],
    /// The last group of each line along the current partition.
    ends: [usize; MAX_LINES],
    /// The best fit so far and its lines' last groups.
    best: Option<(Candidate, [usize; MAX_LINES])>,
}

impl Search<'_> {
    /// Line `line`'s own fit to groups `from..to`, summed by `moments`.
    fn piece(&self, line: usize, m: Moments) -> Piece {
        if line == 0 && self.origin == Origin::Through {
            Piece::through_origin(&m)
        } else {
            Piece::free(&m)
        }
    }

    fn best_rss(&self) -> f64 {
        self.best.map_or(f64::INFINITY, |(b, _)| b.rss)
    }

    /// Every partition of groups `from..` into lines `line..`, given that
    /// the lines before fit with `partial` residual sum of squares.
    fn descend(&mut self, line: usize, from: usize, partial: f64) {
        let groups = self.sorted.groups();
        let k = self.minima.len();
        let last = if line + 1 == k {
            groups - 1
        } else {
            groups - 1 - self.minima[line + 1..].iter().sum::<usize>()
        };
        let first = if line + 1 == k {
            last
        } else {
            from + self.minima[line] - 1
        };
        for end in first..=last {
            let piece = self.piece(line, self.sorted.moments(from, end + 1));
            if piece.rss.is_infinite() {
                continue;
            }
            // A longer run only fits worse: no later `end` can win either.
            if partial + piece.rss >= self.best_rss() {
                break;
            }
            self.pieces[line] = piece;
            self.ends[line] = end;
            if line + 1 < k {
                self.descend(line + 1, end + 1, partial + piece.rss);
            } else {
                self.settle();
            }
        }
    }

    /// The current partition's best continuous fit, kept if the best yet.
    fn settle(&mut self) {
        let k = self.minima.len();
        let gaps = gaps(self.sorted, &self.ends[..k]);
        if let Some(c) = best_for(&self.pieces[..k], &gaps[..k - 1]) {
            if c.rss < self.best_rss() {
                self.best = Some((c, self.ends));
            }
        }
    }
}

/// The ends of each knee's gap, for lines ending at groups `ends`.
fn gaps(sorted: &Sorted, ends: &[usize]) -> [(f64, f64); MAX_LINES - 1] {
    let mut g = [(0.0, 0.0); MAX_LINES - 1];
    for (gap, &e) in g.iter_mut().zip(&ends[..ends.len() - 1]) {
        *gap = (sorted.value(e), sorted.value(e + 1));
    }
    g
}

/// The exact fit: the branch and bound on prefix sums, then the winning
/// partition fitted again on sums taken afresh (prefix sums of a million
/// samples lose digits that the reported values should keep).
fn search(sorted: &Sorted, minima: &[usize], origin: Origin) -> Result<Candidate, FitError> {
    let mut s = Search {
        sorted,
        minima,
        origin,
        pieces: [Piece::default(); MAX_LINES],
        ends: [0; MAX_LINES],
        best: None,
    };
    s.descend(0, 0, 0.0);
    let k = minima.len();
    // Only rounding can leave no partition fitted (every run's spread lost).
    let (rough, ends) = s.best.ok_or(FitError::Undetermined { knee: 1 })?;
    let mut from = 0;
    for (line, &end) in ends[..k].iter().enumerate() {
        s.pieces[line] = s.piece(line, sorted.direct(from, end + 1));
        from = end + 1;
    }
    Ok(best_for(&s.pieces[..k], &gaps(sorted, &ends[..k])[..k - 1]).unwrap_or(rough))
}

/// The fit's parameters `(c, s, d_i, r_i)` of
/// `y = c + s x + Σ d_i (x − r_i)₊` (`c` only when free).
fn theta(c: &Candidate, origin: Origin) -> Vec<f64> {
    let k = c.k;
    let mut t = Vec::with_capacity(2 * k);
    if origin == Origin::Free {
        t.push(c.lines[0].0);
    }
    t.push(c.lines[0].1);
    t.extend((1..k).map(|i| c.lines[i].1 - c.lines[i - 1].1));
    t.extend_from_slice(&c.knees[..k - 1]);
    t
}

/// The fitted `y` at `x`, and the gradient of it in the parameters
/// (written into `grad`), for `y = c + s x + Σ d_i (x − r_i)₊`. Which side
/// of a knee a sample lies on is read from the partition (`splits`), so that
/// a knee held on a load keeps that load's samples on their own line.
fn model(theta: &[f64], splits: &[f64], free: bool, x: f64, grad: &mut [f64]) -> f64 {
    let k = splits.len() + 1;
    let base = usize::from(free);
    let (c, s) = (if free { theta[0] } else { 0.0 }, theta[base]);
    if free {
        grad[0] = 1.0;
    }
    grad[base] = x;
    let mut y = c + s * x;
    for i in 0..k - 1 {
        let (d, r) = (theta[base + 1 + i], theta[base + k + i]);
        let above = x > splits[i];
        y += if above { d * (x - r) } else { 0.0 };
        grad[base + 1 + i] = if above { x - r } else { 0.0 };
        grad[base + k + i] = if above { -d } else { 0.0 };
    }
    y
}

/// Residuals, goodness and every parameter's estimate from the best fit.
fn assemble(
    xs: &[f64],
    ys: &[f64],
    ws: Option<&[f64]>,
    origin: Origin,
    best: &Candidate,
) -> Result<LinesFit, FitError> {
    let k = best.k;
    let free = origin == Origin::Free;
    let t = theta(best, origin);
    let p = t.len();
    let mut jtj = Matrix::zeros(p);
    let mut grad = vec![0.0; p];
    let mut residuals = Vec::with_capacity(xs.len());
    for (i, (&x, &y)) in xs.iter().zip(ys).enumerate() {
        residuals.push(y - model(&t, &best.splits[..k - 1], free, x, &mut grad));
        let w = ws.map_or(1.0, |w| w[i]);
        for a in 0..p {
            for b in 0..=a {
                jtj.add(a, b, w * grad[a] * grad[b]);
            }
        }
    }
    for a in 0..p {
        for b in a + 1..p {
            jtj.a[a * p + b] = jtj.at(b, a);
        }
    }
    let fit = Goodness::weighted(ys, residuals, p, ws);
    let cov = jtj.inverse().ok_or_else(|| flattest(&t, free, k))?;
    let df = fit.df();
    let var = fit.sigma * fit.sigma;
    let estimate = |g: &[f64], value: f64| {
        let v: f64 = (0..p)
            .map(|a| (0..p).map(|b| g[a] * cov.at(a, b) * g[b]).sum::<f64>())
            .sum();
        Estimate::new(value, (var * v).max(0.0).sqrt(), df)
    };
    let lines = (0..k)
        .map(|j| line_estimates(&t, free, k, j, &estimate))
        .collect();
    let base = usize::from(free);
    let knees = (0..k - 1)
        .map(|i| {
            let mut g = vec![0.0; p];
            g[base + k + i] = 1.0;
            estimate(&g, t[base + k + i])
        })
        .collect();
    Ok(LinesFit {
        lines,
        knees,
        fit,
        convex: (1..k).all(|i| best.lines[i].1 > best.lines[i - 1].1),
    })
}

/// Line `j`'s intercept `c − Σ_{i<j} d_i r_i` and slope `s + Σ_{i<j} d_i`,
/// with their gradients in the parameters for the delta method.
fn line_estimates(
    t: &[f64],
    free: bool,
    k: usize,
    j: usize,
    estimate: &impl Fn(&[f64], f64) -> Estimate,
) -> FittedLine {
    let base = usize::from(free);
    let p = t.len();
    let (mut gc, mut gs) = (vec![0.0; p], vec![0.0; p]);
    let mut c = if free { t[0] } else { 0.0 };
    let mut s = t[base];
    if free {
        gc[0] = 1.0;
    }
    gs[base] = 1.0;
    for i in 0..j {
        let (d, r) = (t[base + 1 + i], t[base + k + i]);
        c -= d * r;
        s += d;
        gc[base + 1 + i] = -r;
        gc[base + k + i] = -d;
        gs[base + 1 + i] = 1.0;
    }
    FittedLine {
        intercept: (free || j > 0).then(|| estimate(&gc, c)),
        slope: estimate(&gs, s),
    }
}

/// The knee with the smallest change of slope: the one the data do not
/// place when the covariance is singular.
fn flattest(t: &[f64], free: bool, k: usize) -> FitError {
    let base = usize::from(free);
    let knee = (0..k - 1)
        .min_by(|&a, &b| t[base + 1 + a].abs().total_cmp(&t[base + 1 + b].abs()))
        .unwrap_or(0);
    FitError::Undetermined { knee: knee + 1 }
}
