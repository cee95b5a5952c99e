//! The energy of a schedule, by state: the one accounting every algorithm's
//! schedule goes through (the LPs use the same terms as linear functions,
//! `sequence.rs`; the verifier recomputes it on its own from the states'
//! time spans).
//!
//! A used worker sleeps until woken (`P^sleep w`), wakes (`P^wake S`), is
//! on from then to the makespan (`P^idle (T − w − S)`), and draws
//! `P^net (O + Cα)` above idle while receiving and `P^comp τ(α)` while
//! computing each chunk. An unused worker sleeps throughout (`P^sleep T`).
//! The originator is on throughout and draws its network power above idle
//! while sending.

use serde::{Deserialize, Serialize};

use super::instance::{Originator, Worker};
use super::plan::Plan;

/// Energy by state, in J.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Parts {
    /// Asleep.
    pub sleep: f64,
    /// Waking up.
    pub wake: f64,
    /// On (idle power over the whole time on).
    pub idle: f64,
    /// Above idle while receiving (or sending, for the originator).
    pub network: f64,
    /// Above idle while computing.
    pub compute: f64,
}

impl Parts {
    /// The sum of the parts.
    pub fn total(&self) -> f64 {
        self.sleep + self.wake + self.idle + self.network + self.compute
    }

    /// The parts with their states' names, in the order of a stacked bar.
    pub fn states(&self) -> [(&'static str, f64); 5] {
        [
            ("asleep", self.sleep),
            ("waking", self.wake),
            ("idle", self.idle),
            ("network", self.network),
            ("computing", self.compute),
        ]
    }

    fn add(&mut self, other: &Parts) {
        self.sleep += other.sleep;
        self.wake += other.wake;
        self.idle += other.idle;
        self.network += other.network;
        self.compute += other.compute;
    }
}

/// A schedule's energy: each machine's and the originator's parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnergyParts {
    /// The originator's.
    pub originator: Parts,
    /// Each worker's (counts expanded).
    pub machines: Vec<Parts>,
    /// Everyone's, by state.
    pub sum: Parts,
}

impl EnergyParts {
    /// The energy of `plan` with makespan `makespan`.
    pub(crate) fn of(
        workers: &[Worker],
        originator: &Originator,
        plan: &Plan,
        makespan: f64,
    ) -> EnergyParts {
        let mut machines: Vec<Parts> = workers
            .iter()
            .map(|w| Parts {
                sleep: w.sleep * makespan,
                ..Parts::default()
            })
            .collect();
        for wake in plan.wakes(workers) {
            let w = &workers[wake.machine];
            machines[wake.machine] = Parts {
                sleep: w.sleep * wake.at,
                wake: w.wake * w.startup,
                idle: w.idle * (makespan - wake.ready).max(0.0),
                ..Parts::default()
            };
        }
        let mut originator_parts = Parts {
            idle: originator.idle_power * makespan,
            ..Parts::default()
        };
        for (&i, &size) in plan.sequence.iter().zip(&plan.sizes) {
            let w = &workers[i];
            machines[i].network += w.network * w.send(size);
            machines[i].compute += w.compute * w.time(size);
            originator_parts.network += originator.network_power * w.send(size);
        }
        let mut sum = originator_parts;
        for p in &machines {
            sum.add(p);
        }
        EnergyParts {
            originator: originator_parts,
            machines,
            sum,
        }
    }

    /// The total energy.
    pub fn total(&self) -> f64 {
        self.sum.total()
    }
}
