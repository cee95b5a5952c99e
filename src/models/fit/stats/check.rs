//! The checks every fit makes before computing, in the order a user would
//! fix them: lengths, size, each sample's value, then the shape of the data.

use super::error::{Axis, FitError};

/// The most samples a fit takes: a million rows is far more than anyone
/// times by hand, and keeps the page's memory and time bounded.
pub const MAX_ROWS: usize = 1_000_000;

/// Both series have one value per sample, not too many, every one finite
/// and positive.
pub fn samples(xs: &[f64], ys: &[f64]) -> Result<(), FitError> {
    if xs.len() != ys.len() {
        return Err(FitError::Lengths {
            x: xs.len(),
            y: ys.len(),
        });
    }
    values(xs, Axis::X)?;
    values(ys, Axis::Y)
}

/// One series: not too many values, every one finite and positive.
pub fn values(vs: &[f64], axis: Axis) -> Result<(), FitError> {
    if vs.len() > MAX_ROWS {
        return Err(FitError::TooMany {
            rows: vs.len(),
            limit: MAX_ROWS,
        });
    }
    for (index, &value) in vs.iter().enumerate() {
        if !value.is_finite() {
            return Err(FitError::NotFinite { index, axis });
        }
        if value <= 0.0 {
            return Err(FitError::NotPositive { index, axis, value });
        }
    }
    Ok(())
}

/// At least one sample more than `parameters`, so that the noise, hence
/// every interval, can be estimated.
pub fn enough(points: usize, parameters: usize) -> Result<(), FitError> {
    if points <= parameters {
        return Err(FitError::TooFew { points, parameters });
    }
    Ok(())
}

/// Not every `x` equal (a slope needs two loads).
pub fn spread(xs: &[f64]) -> Result<(), FitError> {
    match xs.first() {
        Some(&x) if xs.iter().all(|&v| v == x) => Err(FitError::AllEqual { x }),
        _ => Ok(()),
    }
}

/// Not every `y` equal (a flat series has nothing to fit).
pub fn not_flat(ys: &[f64]) -> Result<(), FitError> {
    match ys.first() {
        Some(&y) if ys.iter().all(|&v| v == y) => Err(FitError::Flat { y }),
        _ => Ok(()),
    }
}
