//! M8 exercises on `[1]`'s MapReduce: one machine's time (by hand), the
//! speedup the shuffle and the reducers allow however many mappers there
//! are (by hand, from the bounds), and the fastest schedule with one
//! reducer (with the calculator, which proves it optimal).

use serde_json::{json, Value};

use super::series::plateau;
use super::{Instance, MapReduce, Report};
use crate::core::domain::error::Error;
use crate::core::framework::exercise::{
    figure, request, with_unit, worth_asking, Answer, Posed, Template,
};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M8 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "mapreduce-sequential",
            title: "One machine maps and reduces the whole load",
            source: "drozdowski-basics",
            make: sequential,
            by_hand: false,
        },
        Template {
            id: "mapreduce-plateau",
            title: "The speedup that more mappers approach",
            source: "drozdowski-basics",
            make: level,
            by_hand: false,
        },
        Template {
            id: "mapreduce-one-reducer",
            title: "Speedup of the fastest schedule with one reducer",
            source: "drozdowski-basics",
            make: one_reducer,
            by_hand: false,
        },
    ]
}

/// A drawn job: `[1]`'s reference with some numbers changed.
struct Job {
    load: f64,
    unit: f64,
    map: f64,
    reduce: f64,
    gamma: f64,
}

impl Job {
    fn draw(d: &mut Draw) -> Job {
        Job {
            load: d.pick(&[1e12, 1e13, 1e14, 1e15]),
            // Small records, so that each one's start-up counts.
            unit: d.pick(&[1e3, 4e3, 16e3]),
            map: d.pick(&[1e-5, 2e-5, 5e-6]),
            reduce: d.pick(&[1e-5, 2e-5, 5e-6]),
            gamma: d.pick(&[0.01, 0.1, 0.5, 1.0]),
        }
    }

    fn json(&self, mappers: u64, reducers: u64, channels: u64) -> Value {
        json!({
            "load": self.load, "mappers": mappers, "reducers": reducers,
            "channels": channels, "unit": self.unit, "startup": 1.0, "rate": 1e-6,
            "gamma": self.gamma,
            "map": {"rate": self.map, "unit_startup": 0.01},
            "reduce": {"rate": self.reduce, "unit_startup": 0.01},
        })
    }

    /// The setting, as the question states it.
    fn setting(&self) -> String {
        format!(
            "A MapReduce job on identical machines: the load <i>V</i> = {} bytes comes in load \
             units of <i>lu</i> = {} bytes; mapping takes <i>a</i><sub>map</sub> = {} s per \
             byte plus <i>s</i><sub>map</sub> = 0.01 s per load unit, reducing \
             <i>a</i><sub>red</sub> = {} s per byte plus <i>s</i><sub>red</sub> = 0.01 s per \
             load unit; the mappers emit <i>γ</i> = {} of what they read; a machine is ready \
             <i>S</i> = 1 s after it is started; sending a byte takes <i>C</i> = 10⁻⁶ s.",
            figure(self.load),
            figure(self.unit),
            figure(self.map),
            figure(self.reduce),
            figure(self.gamma)
        )
    }

    /// `A` and `B`, the time per byte of each phase with its start-ups.
    fn rates(&self) -> (f64, f64) {
        (self.map + 0.01 / self.unit, self.reduce + 0.01 / self.unit)
    }

    /// The worked steps to `T_seq`.
    fn sequential_steps(&self) -> Vec<String> {
        let (a, b) = self.rates();
        vec![
            format!(
                "<i>A</i> = <i>a</i><sub>map</sub> + <i>s</i><sub>map</sub>/<i>lu</i> = {} + \
                 0.01/{} = {} s per byte; likewise <i>B</i> = {} s per byte.",
                figure(self.map),
                figure(self.unit),
                with_unit(a, ""),
                with_unit(b, "")
            ),
            format!(
                "<i>T</i><sub>seq</sub> = <i>S</i> + <i>AV</i> + <i>BγV</i> = 1 + {} + {} = {}.",
                with_unit(a * self.load, ""),
                with_unit(b * self.gamma * self.load, ""),
                with_unit(1.0 + a * self.load + b * self.gamma * self.load, "s")
            ),
        ]
    }
}

fn solved(json: &Value) -> Result<Report, Error> {
    request::<Instance>(json)?.solve(&mut Silent)
}

fn sequential(d: &mut Draw) -> Result<Posed, Error> {
    let job = Job::draw(d);
    let json = job.json(4, 2, 2);
    let value = request::<Instance>(&json)?.job().sequential();
    Ok(Posed {
        question: format!(
            "{} One machine does everything, with no shuffle: it starts, maps the whole load, \
             then reduces what the mapping emitted. How long does it take, \
             <i>T</i><sub>seq</sub>?",
            job.setting()
        ),
        answer: Answer::number("<i>T</i><sub>seq</sub>", value, "s"),
        hints: vec![
            "The start-up of each load unit is spread over its bytes: mapping a byte takes \
             <i>A</i> = <i>a</i><sub>map</sub> + <i>s</i><sub>map</sub>/<i>lu</i>."
                .into(),
            "Reducing works on the <i>γV</i> bytes the mapping emitted.".into(),
        ],
        solution: job.sequential_steps(),
        request: tagged::<MapReduce>(&json),
    })
}

fn level(d: &mut Draw) -> Result<Posed, Error> {
    let job = Job::draw(d);
    let r = d.pick(&[10_u64, 50, 100, 200]);
    let l = d.pick(&[r, r / 2]);
    let json = job.json(1000, r, l);
    let instance = request::<Instance>(&json)?;
    let p = plateau(&instance.job());
    let value = p
        .level
        .ok_or_else(|| Error::Malformed("drawn job has no plateau".into()))?;
    let width = r.min(l);
    let mut solution = job.sequential_steps();
    solution.extend([
        format!(
            "However many mappers there are, the shuffle sends <i>γV</i> bytes over at most \
             min(ℓ, <i>r</i>) = {width} channels: at least <i>CγV</i>/{width} = {}.",
            with_unit(p.shuffle, "s")
        ),
        format!(
            "Each reducer then reduces <i>γV</i>/<i>r</i> bytes: <i>BγV</i>/{r} = {}.",
            with_unit(p.reduce, "s")
        ),
        format!(
            "The speedup approaches at most <i>T</i><sub>seq</sub> / ({} + {}) = {}, then falls \
             as the start-ups (<i>m</i> + <i>r</i>)<i>S</i> grow.",
            with_unit(p.shuffle, ""),
            with_unit(p.reduce, ""),
            with_unit(value, "")
        ),
    ]);
    Ok(Posed {
        question: format!(
            "{} There are <i>r</i> = {r} reducers and at most ℓ = {l} transfers run at once. \
             As the number of mappers <i>m</i> grows, mapping takes less and less time, but \
             the shuffle and the reduce do not. Ignoring the machines' start-ups \
             (<i>m</i> + <i>r</i>)<i>S</i>, which speedup <i>T</i><sub>seq</sub>/<i>T</i> can \
             the job approach at most?",
            job.setting()
        ),
        answer: Answer::number("speedup", value, ""),
        hints: vec![
            "<i>T</i><sub>seq</sub> = <i>S</i> + <i>AV</i> + <i>BγV</i>, with <i>A</i> and \
             <i>B</i> including the per-unit start-ups."
                .into(),
            "With many mappers, <i>T</i> is at least the shuffle through the channels plus one \
             reducer's work."
                .into(),
        ],
        solution,
        request: tagged::<MapReduce>(&json),
    })
}

fn one_reducer(d: &mut Draw) -> Result<Posed, Error> {
    let (job, m, json, r) = worth_asking(d, 8, |d| {
        let job = Job::draw(d);
        let m = d.pick(&[2_u64, 3, 4, 5]);
        let json = job.json(m, 1, 1);
        let r = solved(&json)?;
        // Proven optimal (gap 0 with one reducer) and the mappers matter.
        let good = r.gap <= 1e-9 && r.speedup > 1.05;
        Ok(((job, m, json, r), good))
    })?;
    Ok(Posed {
        question: format!(
            "{} <i>m</i> = {m} mappers and one reducer. Find the fastest schedule with the \
             calculator: what is its speedup <i>T</i><sub>seq</sub>/<i>T</i>?",
            job.setting()
        ),
        answer: Answer::number("speedup", r.speedup, ""),
        hints: vec![
            "Open the MapReduce tab with these numbers; with one reducer it proves its \
             schedule optimal (gap 0): sending in the mappers' order is best."
                .into(),
            "<i>T</i><sub>seq</sub> = <i>S</i> + <i>AV</i> + <i>BγV</i> (one machine, no \
             shuffle)."
                .into(),
        ],
        solution: {
            let mut s = job.sequential_steps();
            s.extend([
                format!(
                    "The fastest schedule ends at <i>T</i> = {} (lower bound {}).",
                    with_unit(r.makespan, "s"),
                    with_unit(r.lower_bound, "s")
                ),
                format!(
                    "Speedup {} / {} = {}.",
                    with_unit(r.sequential, ""),
                    with_unit(r.makespan, ""),
                    with_unit(r.speedup, "")
                ),
            ]);
            s
        },
        request: tagged::<MapReduce>(&json),
    })
}
