//! Every rule of every verifier shown rejecting: for each rule of the
//! shared verifier (under the rule set where it applies) and of M7's and
//! M8's own checks, a schedule that is valid but for that one rule, which
//! the verdict must name, alone. The rules are enumerated from the code
//! (`Rule::ALL`) and each case is chosen by an exhaustive `match`, so a
//! new rule without a case here does not compile.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::platform::Processor;
use dlt_calc::core::domain::processing::ProcessingTime;
use dlt_calc::core::domain::schedule::{Chunk, Interval, Schedule};
use dlt_calc::core::domain::verify::{verify, Rule, Rules, Verdict};
use dlt_calc::core::framework::model::Model;
use dlt_calc::models::heterogeneous::{self, Claim, Heterogeneous, Plan};
use dlt_calc::models::mapreduce::{self, Job, Shuffle, Transfer};

/// M5's rules: machines ready at 1, no buffering.
const STARTUP: Rules = Rules {
    single_installment: false,
    ready: 1.0,
    receive_after_compute: true,
};

/// Two machines: `S = 0.5`, `C = 1`; P1 computes at 5 per unit, P2 at 1,
/// each with a memory cap of 10.
fn machines() -> Vec<Processor> {
    [5.0, 1.0]
        .map(|w| Processor {
            startup: 0.5,
            rate: 1.0,
            levels: ProcessingTime::linear(w),
            cap: Some(10.0),
        })
        .to_vec()
}

/// The schedule of `chunks` (machine, size) in this order, each sent and
/// computed as early as `rules` allow; `wait`: a machine receives only
/// once it has computed its previous chunk.
fn build(ps: &[Processor], ready: f64, wait: bool, chunks: &[(usize, f64)]) -> Schedule {
    let mut channel = ready;
    let mut free = vec![ready; ps.len()];
    let mut done = vec![0.0_f64; ps.len()];
    let list = chunks.iter().map(|&(m, size)| {
        let start = if wait { channel.max(done[m]) } else { channel };
        let arrived = start + ps[m].send_time(size);
        let from = arrived.max(free[m]);
        let end = from + ps[m].levels.eval(size);
        (channel, free[m], done[m]) = (arrived, end, end);
        Chunk {
            machine: m,
            size,
            send: Interval {
                start,
                end: arrived,
            },
            compute: Interval { start: from, end },
            level: 0,
        }
    });
    Schedule::new(ps.len(), list.collect())
}

/// A case: machines, load, schedule and the rules it is checked under.
struct Case {
    ps: Vec<Processor>,
    load: f64,
    s: Schedule,
    rules: Rules,
}

impl Case {
    /// One chunk of 1 to each machine, under `rules` (with `ready` from them).
    fn single(rules: Rules) -> Case {
        let ps = machines();
        let s = build(&ps, rules.ready, true, &[(0, 1.0), (1, 1.0)]);
        Case {
            ps,
            load: 2.0,
            s,
            rules,
        }
    }

    /// Three chunks, P1 twice, sent without waiting (`wait` false) or each
    /// once its machine is done.
    fn many(rules: Rules, wait: bool) -> Case {
        let ps = machines();
        let s = build(&ps, rules.ready, wait, &[(0, 0.6), (1, 0.8), (0, 0.6)]);
        Case {
            ps,
            load: 2.0,
            s,
            rules,
        }
    }

    /// The makespan made the last end again after an edit.
    fn settled(mut self) -> Case {
        self.s.makespan = self
            .s
            .chunks
            .iter()
            .map(|c| c.compute.end)
            .fold(0.0, f64::max);
        self
    }

    fn verdict(&self) -> Verdict {
        verify(&self.ps, self.load, &self.s, self.rules)
    }
}

/// The valid schedules the cases break: each rule set's own.
#[test]
fn the_unbroken_schedules_are_valid() {
    let cases = [
        Case::single(Rules::SINGLE_INSTALLMENT),
        Case::many(Rules::BUFFERED, false),
        Case::many(STARTUP, true),
        Case::many(Rules::SINGLE_INSTALLMENT, true).settled(),
    ];
    for (i, case) in cases.iter().enumerate().take(3) {
        let v = case.verdict();
        assert!(v.ok && v.violations.is_empty(), "case {i}: {v:?}");
    }
    // The fourth is valid but for its one installment.
    assert_eq!(cases[3].verdict().rules(), ["single-installment"]);
}

/// A schedule that breaks the shared verifier's `rule` and no other.
fn shared_case(rule: Rule) -> Case {
    let single = || Case::single(Rules::SINGLE_INSTALLMENT);
    match rule {
        Rule::MachineCount => {
            let mut c = single();
            c.s.machines = 3;
            c
        }
        Rule::FiniteMakespan => {
            let mut c = single();
            c.s.makespan = f64::NAN;
            c
        }
        Rule::MachineExists => {
            let mut c = single();
            c.s.chunks[1].machine = 7;
            c
        }
        Rule::FiniteNumbers => {
            let mut c = single();
            c.s.chunks[0].compute.end = f64::INFINITY;
            c
        }
        Rule::NegativeSize => {
            let ps = machines();
            let s = build(&ps, 0.0, true, &[(0, -0.2), (1, 2.2)]);
            let rules = Rules::SINGLE_INSTALLMENT;
            Case {
                ps,
                load: 2.0,
                s,
                rules,
            }
        }
        Rule::MemoryCap => {
            let mut c = single();
            c.ps[1].cap = Some(0.75);
            c
        }
        Rule::Ready => {
            // Sent 0.5 before the start-up ends, computed when it was.
            let mut c = Case::many(STARTUP, true);
            c.s.chunks[0].send.start -= 0.5;
            c.s.chunks[0].send.end -= 0.5;
            c
        }
        Rule::SendTime => {
            let mut c = single();
            c.s.chunks[0].send.end -= 0.25;
            c
        }
        Rule::Arrival => {
            let mut c = single();
            c.s.chunks[0].compute.start -= 0.25;
            c
        }
        Rule::ComputeTime => {
            // P1's chunk, the last to end, ends 0.25 early, and so the makespan.
            let mut c = single();
            c.s.chunks[0].compute.end -= 0.25;
            c.settled()
        }
        Rule::MemoryLevel => {
            let mut c = single();
            c.s.chunks[1].level = 1;
            c
        }
        Rule::LoadTotal => {
            let mut c = single();
            c.load = 2.5;
            c
        }
        Rule::Makespan => {
            let mut c = single();
            c.s.makespan += 1.0;
            c
        }
        Rule::Channel => {
            // P2's chunk sent (and computed) 0.5 early, into P1's send.
            let mut c = single();
            let chunk = &mut c.s.chunks[1];
            for i in [&mut chunk.send, &mut chunk.compute] {
                i.start -= 0.5;
                i.end -= 0.5;
            }
            c.settled()
        }
        Rule::OneAtATime => {
            // P1's second chunk computed 0.25 after it arrives, while P1
            // still computes its first.
            let mut c = Case::many(Rules::BUFFERED, false);
            let arrived = c.s.chunks[2].send.end;
            let compute = &mut c.s.chunks[2].compute;
            (compute.start, compute.end) = (arrived + 0.25, arrived + 0.25 + 3.0);
            assert!(compute.start < c.s.chunks[0].compute.end);
            c.settled()
        }
        Rule::SingleInstallment => Case::many(Rules::SINGLE_INSTALLMENT, true).settled(),
        Rule::ReceiveAfterCompute => Case::many(STARTUP, false),
    }
}

#[test]
fn every_shared_rule_is_named_alone_when_broken() {
    for &rule in Rule::ALL {
        let v = shared_case(rule).verdict();
        assert!(!v.ok, "{rule:?} not rejected");
        assert_eq!(v.rules(), [rule.name()], "{rule:?}: {v:?}");
        assert_eq!(
            v.violation.as_deref(),
            Some(v.violations[0].message.as_str())
        );
    }
}

#[test]
fn violations_name_the_machine_the_chunk_and_the_amounts() {
    let v = shared_case(Rule::SendTime).verdict();
    let found = &v.violations[0];
    assert_eq!((found.machine, found.chunk), (Some(0), Some(0)));
    // S + C·α = 0.5 + 1 = 1.5, sent in 1.25.
    assert_eq!((found.value, found.expected), (Some(1.25), Some(1.5)));
    let v = shared_case(Rule::MemoryCap).verdict();
    let found = &v.violations[0];
    assert_eq!((found.machine, found.chunk), (Some(1), Some(1)));
    assert_eq!((found.value, found.expected), (Some(1.0), Some(0.75)));
    assert!(
        found.message.contains("above the memory cap 0.75"),
        "{found:?}"
    );
}

#[test]
fn every_broken_rule_is_named_not_only_the_first() {
    let mut c = shared_case(Rule::SendTime);
    c.s.chunks[1].level = 1;
    c.load = 3.0;
    let v = c.verdict();
    assert_eq!(v.rules(), ["send-time", "memory-level", "load-total"]);
}

/// M7: two machines of one each, ready at 1, whose computing outlasts a
/// send (so that a send can come too early for its machine only).
fn m7_instance() -> heterogeneous::Instance {
    let mut instance = Heterogeneous::presets()[0].request.clone();
    instance.machines.truncate(2);
    for m in &mut instance.machines {
        (m.a1, m.a2, m.b2, m.rate, m.overhead) = (2.0, 1.0, 0.1, 0.1, 0.01);
        m.startup = Some(1.0);
        m.count = Count::from(1);
    }
    instance.load = 1.0;
    instance.chunks = Count::from(10);
    instance
}

/// The plan of `chunks` (machine, size) in order, each sent as early as
/// the channel and its machine allow.
fn m7_plan(instance: &heterogeneous::Instance, chunks: &[(usize, f64)]) -> Plan {
    let mut channel = 0.0_f64;
    let mut free: Vec<f64> = instance.machines.iter().map(|m| m.wake_time()).collect();
    let mut starts = Vec::new();
    for &(i, a) in chunks {
        let m = &instance.machines[i];
        let start = channel.max(free[i]);
        channel = start + m.overhead + m.rate * a;
        free[i] = channel + (m.a1 * a).max(m.a2 * a + m.b2);
        starts.push(start);
    }
    Plan {
        sequence: chunks.iter().map(|c| c.0).collect(),
        sizes: chunks.iter().map(|c| c.1).collect(),
        starts,
    }
}

/// The makespan and energy the verifier derives for `plan` (the amounts
/// it names when a claim of neither is given), claimed with no bounds.
fn m7_claim(instance: &heterogeneous::Instance, plan: &Plan) -> Claim {
    let nothing = Claim {
        makespan: f64::NAN,
        energy: f64::NAN,
        chunks: None,
        makespan_limit: None,
        energy_limit: None,
    };
    let v = heterogeneous::verify(instance, plan, nothing);
    let derived = |rule: &str| {
        let found = v.violations.iter().find(|x| x.rule == rule);
        found
            .and_then(|x| x.expected)
            .expect("a claim of NaN is always named")
    };
    Claim {
        makespan: derived("makespan"),
        energy: derived("energy"),
        ..nothing
    }
}

/// An M7 plan broken in `rule` alone: instance, plan, claim.
fn m7_case(rule: heterogeneous::Rule) -> (heterogeneous::Instance, Plan, Claim) {
    use heterogeneous::Rule as R;
    let mut instance = m7_instance();
    let chunks = [(0, 0.25), (1, 0.5), (0, 0.25)];
    let mut plan = m7_plan(&instance, &chunks);
    let mut claim = None;
    match rule {
        R::PlanLengths => drop(plan.starts.pop()),
        R::ChunkCount => {
            claim = Some(Claim {
                chunks: Some(2),
                ..m7_claim(&instance, &plan)
            })
        }
        R::MachineExists => plan.sequence[2] = 9,
        R::FiniteStart => plan.starts[1] = f64::NAN,
        R::PositiveSize => plan = m7_plan(&instance, &[(0, 0.25), (1, 0.5), (0, 0.25), (1, 0.0)]),
        R::LoadTotal => instance.load = 2.0,
        // P2's chunk sent while P1's still is (P2 is awake by then).
        R::Channel => plan.starts[1] -= 0.5 * (plan.starts[1] - 1.0),
        R::Ready => instance.machines[0].startup = Some(1.5),
        // P1's second chunk sent as soon as the channel is free.
        R::ReceiveAfterCompute => plan.starts[2] = plan.starts[1] + 0.01 + 0.1 * 0.5,
        R::Makespan => {
            let c = m7_claim(&instance, &plan);
            claim = Some(Claim {
                makespan: c.makespan + 1.0,
                ..c
            });
        }
        R::Energy => {
            let c = m7_claim(&instance, &plan);
            claim = Some(Claim {
                energy: c.energy * 1.01,
                ..c
            });
        }
        R::MakespanLimit => {
            let c = m7_claim(&instance, &plan);
            claim = Some(Claim {
                makespan_limit: Some(0.9 * c.makespan),
                ..c
            });
        }
        R::EnergyLimit => {
            let c = m7_claim(&instance, &plan);
            claim = Some(Claim {
                energy_limit: Some(0.9 * c.energy),
                ..c
            });
        }
    }
    let claim = claim.unwrap_or_else(|| {
        // Claims of an unreadable plan are never read.
        let readable = plan.starts.len() == plan.sequence.len()
            && plan.sequence.iter().all(|&i| i < 2)
            && plan.starts.iter().all(|t| t.is_finite());
        if readable {
            m7_claim(&instance, &plan)
        } else {
            m7_claim(&instance, &m7_plan(&instance, &chunks))
        }
    });
    (instance, plan, claim)
}

#[test]
fn every_m7_rule_is_named_alone_when_broken() {
    let instance = m7_instance();
    let good = m7_plan(&instance, &[(0, 0.25), (1, 0.5), (0, 0.25)]);
    let v = heterogeneous::verify(&instance, &good, m7_claim(&instance, &good));
    assert!(v.ok && v.violations.is_empty(), "{v:?}");
    for &rule in heterogeneous::Rule::ALL {
        let (instance, plan, claim) = m7_case(rule);
        let v = heterogeneous::verify(&instance, &plan, claim);
        assert!(!v.ok, "{rule:?} not rejected");
        assert_eq!(v.rules(), [rule.name()], "{rule:?}: {v:?}");
    }
}

/// M8: 2 mappers and 2 reducers, `V = 100`, `S = 1`, `C = γ = 1`,
/// `A = 0.05`, `B = 0.1`: mappers done at 3.5 and 4.5, reducers ready at
/// 3 and 4, each transfer 25 long, each reduce 5.
fn m8_job(reduce: f64, load: f64) -> Job {
    Job {
        load,
        mappers: 2,
        reducers: 2,
        channels: 2,
        width: 2,
        startup: 1.0,
        rate: 1.0,
        gamma: 1.0,
        map: 0.05,
        reduce,
    }
}

/// The schedule of transfers `(mapper, reducer, start)`, each 25 long,
/// the reducers reducing as soon as they can.
fn m8_shuffle(job: &Job, transfers: &[(usize, usize, f64)]) -> Shuffle {
    let list = transfers.iter().map(|&(mapper, reducer, start)| Transfer {
        mapper,
        reducer,
        start,
        end: start + 25.0,
    });
    Shuffle::finish(job, vec![50.0, 50.0], list.collect())
}

/// A valid shuffle: P1→R2 and P2→R1 first, then the other two.
const M8_GOOD: [(usize, usize, f64); 4] = [(0, 1, 4.0), (1, 0, 4.5), (0, 0, 29.5), (1, 1, 29.5)];

/// An M8 schedule broken in `rule` alone: job, bisection width, schedule.
fn m8_case(rule: mapreduce::Rule) -> (Job, usize, Shuffle) {
    use mapreduce::Rule as R;
    let job = m8_job(0.1, 100.0);
    let mut s = m8_shuffle(&job, &M8_GOOD);
    let mut transfers = M8_GOOD.to_vec();
    let rebuilt = |t: &[(usize, usize, f64)]| m8_shuffle(&job, t);
    match rule {
        R::Shape => s.sizes.push(0.0),
        R::ChunkSize => s.sizes[0] = -1.0,
        // The load of 110 with the reduce as long as for 100.
        R::LoadTotal => return (m8_job(0.1 * 100.0 / 110.0, 110.0), 2, s),
        R::FiniteTimes => s.makespan = f64::NAN,
        R::TransferEnds => s.transfers[0].reducer = 5,
        R::TransferLength => s.transfers[2].end -= 1.0,
        // R2 is ready at 4, P1 has mapped at 3.5.
        R::ReducerReady => transfers[0].2 = 3.8,
        // R1 is ready at 3, P2 maps until 4.5.
        R::Mapped => transfers[1].2 = 4.2,
        R::ServedOnce => drop(transfers.pop()),
        R::MapperOneAtATime => {
            transfers = vec![(0, 0, 4.0), (0, 1, 28.0), (1, 0, 29.0), (1, 1, 54.0)];
        }
        R::ReducerOneAtATime => {
            transfers = vec![(0, 0, 4.0), (1, 0, 28.0), (0, 1, 29.0), (1, 1, 54.0)];
        }
        R::Bisection => return (job, 1, s),
        R::ReduceAfter => {
            s.reducers[0].start -= 1.0;
            s.reducers[0].end -= 1.0;
        }
        R::ReduceLength => s.reducers[0].end -= 1.0,
        R::Makespan => s.makespan += 1.0,
    }
    if transfers != M8_GOOD {
        s = rebuilt(&transfers);
    }
    (job, 2, s)
}

#[test]
fn every_m8_rule_is_named_alone_when_broken() {
    let job = m8_job(0.1, 100.0);
    let v = mapreduce::verify(&job, 2, &m8_shuffle(&job, &M8_GOOD));
    assert!(v.ok && v.violations.is_empty(), "{v:?}");
    for &rule in mapreduce::Rule::ALL {
        let (job, channels, s) = m8_case(rule);
        let v = mapreduce::verify(&job, channels, &s);
        assert!(!v.ok, "{rule:?} not rejected");
        assert_eq!(v.rules(), [rule.name()], "{rule:?}: {v:?}");
    }
}
