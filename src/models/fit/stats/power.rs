//! Power readings per state → the energy models' parameters (`[1]`,
//! `[4]`): `P_C` while computing, `P_N` of the network, the idle factor
//! `k = P_C/P_idle` (idle power is `P_C/k`) and, for each sleep mode, its
//! power `P_C/k_mode` and factor `k_mode`.
//!
//! Each power is the mean of its readings with the Student-t 95 % interval
//! `mean ± t_975(n − 1) s/√n`; a state read once has a value but no
//! interval. A factor `P_C/P` gets its standard error by the delta method,
//! `k √((se_C/P_C)² + (se_P/P)²)`, with `min(n_C, n_P) − 1` degrees of
//! freedom (the fewer readings bound what is known).
//!
//! Energy per chunk `(α, E)` needs no fit of its own: it is piecewise
//! linear in the chunk like time, so [`two_level`](super::knee::two_level)
//! fits it unchanged.

use serde::{Deserialize, Serialize};

use super::check;
use super::error::{Axis, FitError};
use super::estimate::Estimate;

/// The state a power reading was taken in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    /// Computing: `P_C`.
    Compute,
    /// The network sending: `P_N`.
    Network,
    /// Idle: `P_C/k`.
    Idle,
    /// A named sleep mode (suspend, hibernation, …): `P_C/k_mode`.
    Sleep(String),
}

/// The mean of a state's readings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mean {
    /// Readings taken.
    pub readings: usize,
    /// Their mean, in watts.
    pub value: f64,
    /// With its interval, from two readings up.
    pub estimate: Option<Estimate>,
}

/// A factor `P_C/P` (dimensionless).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    /// The ratio of the means.
    pub value: f64,
    /// With its interval, when both powers have one.
    pub estimate: Option<Estimate>,
}

/// A sleep mode's power and factor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SleepMode {
    /// Its name, as read.
    pub name: String,
    /// Its power, `P_C/k_mode`.
    pub power: Mean,
    /// `k_mode = P_C/P_mode`.
    pub k: Factor,
}

/// The energy models' power parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerFit {
    /// `P_C`.
    pub compute: Mean,
    /// `P_N`, if read.
    pub network: Option<Mean>,
    /// The idle power `P_C/k`, if read.
    pub idle: Option<Mean>,
    /// `k = P_C/P_idle`, if the idle power was read.
    pub k: Option<Factor>,
    /// Each sleep mode, in the order first read.
    pub sleep: Vec<SleepMode>,
}

/// The powers and factors from readings `(state, watts)`.
pub fn states(readings: &[(State, f64)]) -> Result<PowerFit, FitError> {
    let watts: Vec<f64> = readings.iter().map(|r| r.1).collect();
    check::values(&watts, Axis::Y)?;
    let of = |want: &State| -> Option<Mean> {
        let v: Vec<f64> = readings
            .iter()
            .filter(|(s, _)| s == want)
            .map(|r| r.1)
            .collect();
        mean(&v)
    };
    let compute = of(&State::Compute).ok_or(FitError::NoReadings {
        state: "computing".into(),
    })?;
    let idle = of(&State::Idle);
    let mut names: Vec<&String> = Vec::new();
    for (s, _) in readings {
        if let State::Sleep(name) = s {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let sleep = names
        .into_iter()
        .filter_map(|name| {
            let power = of(&State::Sleep(name.clone()))?;
            Some(SleepMode {
                name: name.clone(),
                k: factor(&compute, &power),
                power,
            })
        })
        .collect();
    Ok(PowerFit {
        k: idle.as_ref().map(|i| factor(&compute, i)),
        network: of(&State::Network),
        idle,
        compute,
        sleep,
    })
}

/// The mean of `v` with its interval (`None` for no readings).
fn mean(v: &[f64]) -> Option<Mean> {
    let n = v.len();
    if n == 0 {
        return None;
    }
    let m = v.iter().sum::<f64>() / n as f64;
    let estimate = (n > 1).then(|| {
        let s2 = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
        Estimate::new(m, (s2 / n as f64).sqrt(), n - 1)
    });
    Some(Mean {
        readings: n,
        value: m,
        estimate,
    })
}

/// `P_C/P` with its delta-method interval.
fn factor(compute: &Mean, power: &Mean) -> Factor {
    let value = compute.value / power.value;
    let estimate = compute.estimate.zip(power.estimate).map(|(c, p)| {
        let rel = ((c.std_error / c.value).powi(2) + (p.std_error / p.value).powi(2)).sqrt();
        let df = compute.readings.min(power.readings) - 1;
        Estimate::new(value, value * rel, df)
    });
    Factor { value, estimate }
}
