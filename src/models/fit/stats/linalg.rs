//! Gaussian elimination for the fits' small symmetric systems (at most
//! 8 × 8: a piecewise fit's normal matrix and its constraints), in a few
//! lines rather than a linear-algebra crate for matrices this small.

/// A square matrix, row-major.
#[derive(Debug, Clone)]
pub(super) struct Matrix {
    /// Rows (= columns).
    pub n: usize,
    /// `n × n` entries, row after row.
    pub a: Vec<f64>,
}

impl Matrix {
    /// The `n × n` zero matrix.
    pub fn zeros(n: usize) -> Self {
        Self {
            n,
            a: vec![0.0; n * n],
        }
    }

    /// Entry `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }

    /// Adds `v` to entry `(i, j)`.
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        self.a[i * self.n + j] += v;
    }

    /// The inverse of a symmetric positive semi-definite matrix, or `None`
    /// when it is singular to within rounding. Rows and columns are first
    /// scaled to a unit diagonal, so that the test for singularity does not
    /// depend on the parameters' units.
    pub fn inverse(&self) -> Option<Matrix> {
        let n = self.n;
        let scale: Vec<f64> = (0..n).map(|i| 1.0 / self.at(i, i).abs().sqrt()).collect();
        if scale.iter().any(|s| !s.is_finite()) {
            return None;
        }
        let mut m = Matrix::zeros(n);
        for i in 0..n {
            for j in 0..n {
                m.a[i * n + j] = self.at(i, j) * scale[i] * scale[j];
            }
        }
        let mut inv = Matrix::zeros(n);
        for i in 0..n {
            let mut unit = vec![0.0; n];
            unit[i] = 1.0;
            let column = m.solve(&unit)?;
            for (j, v) in column.into_iter().enumerate() {
                inv.a[j * n + i] = v * scale[i] * scale[j];
            }
        }
        Some(inv)
    }

    /// `x` with `A x = b`, by elimination with partial pivoting; `None` when
    /// a pivot vanishes to within rounding of the matrix's entries.
    pub fn solve(&self, b: &[f64]) -> Option<Vec<f64>> {
        let n = self.n;
        let mut a = self.a.clone();
        let mut x = b.to_vec();
        let size = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let tiny = 1e-13 * size;
        for k in 0..n {
            let p = (k..n).max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))?;
            if a[p * n + k].abs() <= tiny || size == 0.0 {
                return None;
            }
            if p != k {
                for j in 0..n {
                    a.swap(p * n + j, k * n + j);
                }
                x.swap(p, k);
            }
            for i in k + 1..n {
                let f = a[i * n + k] / a[k * n + k];
                for j in k..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
                x[i] -= f * x[k];
            }
        }
        for k in (0..n).rev() {
            let s: f64 = (k + 1..n).map(|j| a[k * n + j] * x[j]).sum();
            x[k] = (x[k] - s) / a[k * n + k];
        }
        Some(x)
    }
}
