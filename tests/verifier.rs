//! The verifier accepts what the solver returns and rejects every broken
//! variant of it, naming the broken rule.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::domain::schedule::Schedule;
use dlt_calc::core::domain::verify::{verify, Rules};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::hierarchical::Instance;

const RULES: Rules = Rules::SINGLE_INSTALLMENT;

#[test]
fn rejects_each_broken_rule() {
    let inst = Instance::worked_example();
    let good = inst.solve(&mut Silent).unwrap().schedule;
    assert!(verify(&inst.processors, inst.load, &good, RULES).ok);

    type Break = fn(&mut Schedule);
    let cases: &[(Break, &str)] = &[
        (|s| s.chunks[1].send.start -= 0.5, "takes 2.25 to send"),
        (
            |s| {
                s.chunks[1].send.start -= 0.5;
                s.chunks[1].send.end -= 0.5;
                s.chunks[1].compute.start -= 0.5;
                s.chunks[1].compute.end -= 0.5;
                s.makespan = 5.75;
            },
            "the channel carries chunks 1 and 2 at once",
        ),
        (
            |s| s.chunks[0].compute.start = 2.0,
            "is computed from 2 before it has arrived at 2.25",
        ),
        (
            |s| s.chunks[0].compute.end = 5.0,
            "is computed in 2.75 but needs 3.5",
        ),
        (
            |s| s.chunks[0].level = 0,
            "claims memory level 0 but level 1 is active",
        ),
        (|s| s.makespan = 5.0, "ends at 5.75 after the makespan 5"),
        (
            |s| s.makespan = 6.0,
            "the makespan 6 is not when the last machine finishes",
        ),
        (
            |s| {
                s.chunks[1].size = 0.5;
                s.chunks[1].send.end = 3.75;
                s.chunks[1].compute.start = 3.75;
                s.chunks[1].compute.end = 5.25;
            },
            "the chunks add up to 1.75, not the load 2",
        ),
        (
            |s| s.chunks[1].machine = 0,
            "P1 receives 2 chunks instead of one",
        ),
        (|s| s.chunks[0].size = f64::NAN, "not a finite number"),
        (
            |s| s.chunks[1].machine = 5,
            "goes to machine 6 which does not exist",
        ),
    ];
    for (brk, want) in cases {
        let mut s = good.clone();
        brk(&mut s);
        let v = verify(&inst.processors, inst.load, &s, RULES);
        let got = v.violation.unwrap_or_default();
        assert!(!v.ok && got.contains(want), "got {got:?}, want {want:?}");
    }
}

#[test]
fn rejects_a_machine_computing_two_chunks_at_once() {
    let inst = Instance::worked_example();
    let mut s = inst.solve(&mut Silent).unwrap().schedule;
    let mut extra = s.chunks[0].clone();
    extra.size = 0.0;
    extra.level = 0;
    extra.send.start = 5.75;
    extra.send.end = 6.75;
    extra.compute.start = 6.75;
    extra.compute.end = 7.75;
    s.chunks[0].compute.end = 7.0;
    s.chunks[0].level = 1;
    s.makespan = 7.75;
    s.chunks.push(extra);
    let loose = Rules::BUFFERED;
    let v = verify(&inst.processors, inst.load, &s, loose);
    assert_eq!(
        v.violation.as_deref(),
        Some("P1 computes chunks 1 and 3 at once")
    );
}
