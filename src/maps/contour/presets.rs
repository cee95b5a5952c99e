//! The generalised maps of the seeds, as requests.

use std::marker::PhantomData;

use super::{AxisRange, Quantity, Request};
use crate::core::count::Count;
use crate::core::map::Tagged;
use crate::models::heterogeneous::{self, Heterogeneous};
use crate::models::linear::{self, Linear};
use crate::models::mapreduce::{self, MapReduce};
use crate::models::startup::{self, Startup};

impl AxisRange {
    /// `steps` points of `parameter` from `from` to `to`.
    fn of(parameter: &str, from: f64, to: f64, steps: u64, log: bool) -> AxisRange {
        AxisRange {
            parameter: parameter.into(),
            from,
            to,
            steps: Count(steps),
            log,
        }
    }
}

impl<C> Request<C> {
    /// `[004]`'s `A` vs `C` map of linear DLT: efficiency of 10 machines.
    pub fn compute_vs_communication() -> Request<C> {
        let mut base = linear::Instance::energy_preset(1e6, 10);
        base.series = false;
        base.power = None;
        base.machines[0].startup = 1.0;
        Request {
            base: Tagged::of::<Linear>(&base),
            x: AxisRange::of("compute", 1e-6, 1e-2, 25, true),
            y: AxisRange::of("rate", 1e-7, 1e-3, 25, true),
            quantity: Quantity::Efficiency,
            levels: vec![0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95],
            catalogue: PhantomData,
        }
    }

    /// `[004]`'s iso-energy map: energy over the idle power factor `k` and
    /// the machine count `m`.
    pub fn energy_vs_idle_factor() -> Request<C> {
        let mut base = linear::Instance::energy_preset(1e13, 1000);
        base.series = false;
        Request {
            base: Tagged::of::<Linear>(&base),
            x: AxisRange::of("machines", 10.0, 1e6, 30, true),
            y: AxisRange::of("idle_factor", 1.0, 10.0, 19, false),
            quantity: Quantity::Energy,
            levels: vec![2.2e15, 2.5e15, 3e15, 4e15, 5e15, 6e15, 8e15],
            catalogue: PhantomData,
        }
    }

    /// The M5 reference instance: efficiency over `C` and `V` at `m = 8`.
    pub fn startup_reference() -> Request<C> {
        Request {
            base: Tagged::of::<Startup>(&startup::Instance::reference(8, 60_000.0)),
            x: AxisRange::of("rate", 1e-3, 1.0, 16, true),
            y: AxisRange::of("load", 1e3, 1e6, 16, true),
            quantity: Quantity::Efficiency,
            levels: vec![1.0, 2.0, 5.0, 10.0, 20.0, 30.0],
            catalogue: PhantomData,
        }
    }

    /// M7's iso-energy map: the least energy of the 100-machine cluster's
    /// mix (four kinds in four modes, super-GSS by energy) over the number
    /// of machines of each kind and the load.
    pub fn heterogeneous_energy() -> Request<C> {
        let base = heterogeneous::Instance {
            objective: heterogeneous::Objective::Energy,
            ..heterogeneous::Instance::hundred()
        };
        Request {
            base: Tagged::of::<Heterogeneous>(&base),
            x: AxisRange::of("machines", 1.0, 40.0, 40, false),
            y: AxisRange::of("load", 1e4, 1e6, 25, true),
            quantity: Quantity::Energy,
            levels: vec![3e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7],
            catalogue: PhantomData,
        }
    }

    /// M5 with powers: the energy of the fastest schedule of the reference
    /// machines (`n = 6`) over their number and the load, where using more
    /// machines costs more idle power than it saves in time.
    pub fn startup_energy() -> Request<C> {
        let m5 = startup::Instance {
            chunks: Count(6),
            ..startup::Instance::reference(4, 1e5)
        };
        Request {
            base: Tagged::of::<Heterogeneous>(&heterogeneous::Instance::of_startup(&m5)),
            x: AxisRange::of("machines", 1.0, 8.0, 8, false),
            y: AxisRange::of("load", 1e3, 1e6, 10, true),
            quantity: Quantity::Energy,
            levels: vec![1e5, 3e5, 1e6, 3e6, 1e7, 3e7, 1e8, 3e8],
            catalogue: PhantomData,
        }
    }

    /// `[004]`'s MapReduce reference: speedup over `m` and `γ` (`r = ℓ = 100`),
    /// where the lines bend as `γ` grows: `γ` decides how far mappers pay.
    pub fn mapreduce_gamma() -> Request<C> {
        Request {
            base: Tagged::of::<MapReduce>(&mapreduce::Instance::reference()),
            x: AxisRange::of("mappers", 10.0, 2000.0, 12, true),
            y: AxisRange::of("gamma", 0.01, 1.0, 10, true),
            quantity: Quantity::Speedup,
            levels: vec![50.0, 100.0, 200.0, 300.0, 500.0, 700.0],
            catalogue: PhantomData,
        }
    }
}
