//! Why a fit is refused: one case per kind of bad input, each message
//! lowercase and specific. A sample is named by its 0-based index in the
//! slices given; the caller turns it into a row of the user's table.

use std::fmt;

/// Which of a fit's two series a value belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// The load (or message size): the `x` of the fit.
    X,
    /// The measured time, energy or power: the `y` of the fit.
    Y,
    /// A sample's weight in a weighted fit.
    Weight,
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Weight => "the weight",
        })
    }
}

/// A fit that cannot be made from the samples given.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// The two series differ in length.
    Lengths {
        /// Samples of `x`.
        x: usize,
        /// Samples of `y`.
        y: usize,
    },
    /// Weights given for a different number of samples.
    Weights {
        /// Samples.
        samples: usize,
        /// Weights.
        weights: usize,
    },
    /// More samples than a fit accepts (a million, `MAX_ROWS`).
    TooMany {
        /// Samples given.
        rows: usize,
        /// The most accepted.
        limit: usize,
    },
    /// NaN or infinite.
    NotFinite {
        /// The sample's 0-based index.
        index: usize,
        /// Its series.
        axis: Axis,
    },
    /// Zero or negative: loads, times, energies and powers are positive.
    NotPositive {
        /// The sample's 0-based index.
        index: usize,
        /// Its series.
        axis: Axis,
        /// The value given.
        value: f64,
    },
    /// Too few samples to fit the parameters and still estimate the noise
    /// (a fit with intervals needs at least one sample more than parameters).
    TooFew {
        /// Samples given.
        points: usize,
        /// Parameters to fit.
        parameters: usize,
    },
    /// Every `x` is the same, so no slope can be told from an intercept.
    AllEqual {
        /// The one value of `x`.
        x: f64,
    },
    /// Every `y` is the same: nothing to fit, and `R²` is undefined.
    Flat {
        /// The one value of `y`.
        y: f64,
    },
    /// Too few distinct loads to put the knees between lines that each
    /// have enough points to be determined.
    KneeSide {
        /// Distinct values of `x` in the data.
        distinct: usize,
        /// Distinct values needed.
        needed: usize,
        /// Lines of the fit.
        lines: usize,
    },
    /// A number of lines the piecewise fit does not offer.
    Lines {
        /// Lines asked for.
        asked: usize,
        /// The most lines offered.
        most: usize,
    },
    /// The exact enumeration of the knees' gaps would be too long.
    TooManyCombinations {
        /// Combinations of gaps the data imply.
        combinations: f64,
        /// The most accepted.
        limit: f64,
    },
    /// A knee whose position the data do not determine: the lines on its
    /// two sides have the same slope.
    Undetermined {
        /// The knee's 1-based number, from the smallest load.
        knee: usize,
    },
    /// A power state with no reading that a result needs.
    NoReadings {
        /// The state, as the report names it.
        state: String,
    },
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::Lengths { x, y } => {
                write!(f, "{x} values of x but {y} of y: every sample needs both")
            }
            FitError::Weights { samples, weights } => {
                write!(f, "{weights} weights for {samples} samples: every sample needs one")
            }
            FitError::TooMany { rows, limit } => {
                write!(f, "{rows} samples are too many: a fit takes at most {limit}")
            }
            FitError::NotFinite { index, axis } => {
                write!(f, "sample {index}: {axis} is not a finite number")
            }
            FitError::NotPositive {
                index,
                axis: Axis::Weight,
                value,
            } => write!(f, "sample {index}: the weight is {value}, but weights must be positive"),
            FitError::NotPositive { index, axis, value } => write!(
                f,
                "sample {index}: {axis} is {value}, but loads, times, energies and powers must be positive"
            ),
            FitError::TooFew { points, parameters } => write!(
                f,
                "{points} samples are too few for {parameters} parameters: a fit with intervals needs at least {}",
                parameters + 1
            ),
            FitError::AllEqual { x } => {
                write!(f, "every x is {x}: a slope needs at least two different loads")
            }
            FitError::Flat { y } => write!(
                f,
                "every y is {y}: a flat series has no trend to fit and no r²"
            ),
            FitError::KneeSide { distinct, needed, lines } => write!(
                f,
                "{lines} lines need {needed} different loads so that no knee has too few points on one side, but the data have {distinct}"
            ),
            FitError::Lines { asked, most } => write!(
                f,
                "{asked} lines asked for: the piecewise fit takes 2 to {most} lines"
            ),
            FitError::TooManyCombinations { combinations, limit } => write!(
                f,
                "the exact fit would try {combinations:.3e} combinations of the knees' gaps, more than the limit of {limit:.0e}: use fewer lines or fewer different loads"
            ),
            FitError::Undetermined { knee } => write!(
                f,
                "knee {knee} is not determined by the data: the lines on its two sides have the same slope"
            ),
            FitError::NoReadings { state } => {
                write!(f, "no power readings for the {state} state, which the fit needs")
            }
        }
    }
}

impl std::error::Error for FitError {}
