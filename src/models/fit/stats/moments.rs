//! The samples sorted by load, grouped by distinct load, with prefix sums
//! of their moments, so that the least-squares line of any run of groups
//! costs `O(1)`. With weights, every moment is the weighted one (a sample
//! of weight `w` counts `w` times), so that the same closed forms give the
//! weighted least-squares lines.
//!
//! The prefix sums are of values shifted by the means of all samples, and
//! every run's moments are turned into centred ones (`Σ(x − x̄)²`, …): the
//! moments that a line's fit needs are unchanged by a shift, and the shift
//! keeps the differences of large prefix sums from losing digits.

/// A run of samples' count, means and centred second moments.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Moments {
    /// Samples (their total weight).
    pub n: f64,
    /// Mean `x`.
    pub mx: f64,
    /// Mean `y`.
    pub my: f64,
    /// `Σ(x − x̄)²`.
    pub sxx: f64,
    /// `Σ(x − x̄)(y − ȳ)`.
    pub sxy: f64,
    /// `Σ(y − ȳ)²`.
    pub syy: f64,
}

impl Moments {
    /// The moments of these samples, in two passes (exact to rounding);
    /// `ws` their weights (`None`: 1 each).
    pub fn direct(xs: &[f64], ys: &[f64], ws: Option<&[f64]>) -> Self {
        let w = |i: usize| ws.map_or(1.0, |w| w[i]);
        let n: f64 = (0..xs.len()).map(w).sum();
        let mx = xs.iter().enumerate().map(|(i, x)| w(i) * x).sum::<f64>() / n;
        let my = ys.iter().enumerate().map(|(i, y)| w(i) * y).sum::<f64>() / n;
        let mut m = Moments {
            n,
            mx,
            my,
            ..Moments::default()
        };
        for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
            let (dx, dy) = (x - mx, y - my);
            let (wx, wy) = (w(i) * dx, w(i) * dy);
            m.sxx += wx * dx;
            m.sxy += wx * dy;
            m.syy += wy * dy;
        }
        m
    }
}

/// The samples sorted by `x`, grouped by distinct `x`.
#[derive(Debug, Clone)]
pub(super) struct Sorted {
    /// `x`, ascending.
    pub xs: Vec<f64>,
    /// `y`, in the same order.
    pub ys: Vec<f64>,
    /// The weights, in the same order (`None`: 1 each).
    ws: Option<Vec<f64>>,
    /// Where each group of equal `x` starts, and the number of samples last.
    starts: Vec<usize>,
    /// Shifted weighted sums `(w, x, y, x², xy, y²)` of the groups before
    /// each group boundary (one more entry than groups).
    prefix: Vec<[f64; 6]>,
    /// The shifts: the weighted means of all `x` and all `y`.
    shift: (f64, f64),
}

impl Sorted {
    /// Sorts once (`O(n log n)`) and sums once (`O(n)`); `ws` the weights
    /// (`None`: 1 each).
    pub fn new(xs: &[f64], ys: &[f64], ws: Option<&[f64]>) -> Self {
        let (xs, ys, ws) = sorted(xs, ys, ws);
        let w = |i: usize| ws.as_ref().map_or(1.0, |w| w[i]);
        let n: f64 = (0..xs.len()).map(w).sum();
        let shift = (
            xs.iter().enumerate().map(|(i, x)| w(i) * x).sum::<f64>() / n,
            ys.iter().enumerate().map(|(i, y)| w(i) * y).sum::<f64>() / n,
        );
        let mut starts = Vec::new();
        let mut prefix = vec![[0.0; 6]];
        let mut sum = [0.0; 6];
        for (i, (&x, &y)) in xs.iter().zip(&ys).enumerate() {
            if i > 0 && x != xs[i - 1] {
                prefix.push(sum);
            }
            if i == 0 || x != xs[i - 1] {
                starts.push(i);
            }
            let (dx, dy) = (x - shift.0, y - shift.1);
            let (wx, wy) = (w(i) * dx, w(i) * dy);
            for (s, v) in sum
                .iter_mut()
                .zip([w(i), wx, wy, wx * dx, wx * dy, wy * dy])
            {
                *s += v;
            }
        }
        prefix.push(sum);
        starts.push(xs.len());
        Self {
            xs,
            ys,
            ws,
            starts,
            prefix,
            shift,
        }
    }

    /// Distinct values of `x`.
    pub fn groups(&self) -> usize {
        self.starts.len() - 1
    }

    /// The `x` of group `g`.
    pub fn value(&self, g: usize) -> f64 {
        self.xs[self.starts[g]]
    }

    /// The moments of groups `from..to`, from the prefix sums (`O(1)`).
    pub fn moments(&self, from: usize, to: usize) -> Moments {
        let (a, b) = (&self.prefix[from], &self.prefix[to]);
        let [n, sx, sy, sxx, sxy, syy] = [0, 1, 2, 3, 4, 5].map(|i| b[i] - a[i]);
        Moments {
            n,
            mx: self.shift.0 + sx / n,
            my: self.shift.1 + sy / n,
            sxx: sxx - sx * sx / n,
            sxy: sxy - sx * sy / n,
            syy: syy - sy * sy / n,
        }
    }

    /// The moments of groups `from..to`, summed afresh (`O(samples)`).
    pub fn direct(&self, from: usize, to: usize) -> Moments {
        let range = self.starts[from]..self.starts[to];
        let ws = self.ws.as_ref().map(|w| &w[range.clone()]);
        Moments::direct(&self.xs[range.clone()], &self.ys[range], ws)
    }
}

/// The samples (and their weights) in ascending `x`.
fn sorted(xs: &[f64], ys: &[f64], ws: Option<&[f64]>) -> (Vec<f64>, Vec<f64>, Option<Vec<f64>>) {
    let by_x = |a: &(f64, f64, f64), b: &(f64, f64, f64)| a.0.total_cmp(&b.0);
    let Some(ws) = ws else {
        let mut pairs: Vec<(f64, f64)> = xs.iter().copied().zip(ys.iter().copied()).collect();
        pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let (xs, ys) = pairs.into_iter().unzip();
        return (xs, ys, None);
    };
    let mut triples: Vec<(f64, f64, f64)> = (xs.iter().zip(ys).zip(ws))
        .map(|((&x, &y), &w)| (x, y, w))
        .collect();
    triples.sort_unstable_by(by_x);
    let xs = triples.iter().map(|t| t.0).collect();
    let ys = triples.iter().map(|t| t.1).collect();
    let ws = triples.iter().map(|t| t.2).collect();
    (xs, ys, Some(ws))
}
