//! The experiment's outcome in plain words: what the knee is, which split
//! won and by how much, and why the models' errors are what they are.

use super::summary::{summary, Summary, SummaryInput};
use crate::core::domain::error::Error;

/// A fraction as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

/// What the fitted levels say about the machine.
fn knee_words(s: &Summary, knee: Option<f64>) -> String {
    let ms = |slope: f64| format!("{:.2} ms per MB", slope * 1000.0);
    match (knee, s.levels.as_slice()) {
        (Some(r), [first, .., last]) => format!(
            "Your computer followed a chunk at {} while a worker's chunk was under about \
             {r:.1} MB, and at {} past it: the knee. A chunk that fits in the processor's \
             caches is read at cache speed; the part beyond them waits for the main memory at \
             every step. It is [2]'s core and out-of-core memory one level up: the same \
             shape, max(a1 α, a2 α + b2), for the same reason.",
            ms(first[1]),
            ms(last[1]),
        ),
        (_, [level, ..]) => format!(
            "The fit kept one line ({}): over the sizes measured, the data did not support \
             a knee (the chunks all fit in one level of the memory, or the noise hid the \
             change). M3 then predicts what M2 does.",
            ms(level[1]),
        ),
        _ => "The fit gave no computing levels.".into(),
    }
}

/// Which split won past the knee.
fn split_words(s: &Summary) -> String {
    match s.equal_over_m3_past {
        Some(ratio) if ratio > 1.0 => format!(
            "Past the knee, the equal split took {ratio:.3} times as long as M3's split: the \
             memory-aware split was faster by {}, because it gives each worker a share the \
             fitted levels say finishes at the same time.",
            pct(ratio - 1.0)
        ),
        Some(ratio) => format!(
            "Past the knee, the equal split took {ratio:.3} times as long as M3's split: M3's \
             split did not win here. With workers alike and a fast link, M3's split is close \
             to equal, and the difference is within the noise of the runs."
        ),
        None => "No run was past the knee, so the splits were not compared there.".into(),
    }
}

/// How far the models were, and why.
fn error_words(s: &Summary) -> String {
    let mut text = format!(
        "M3 (the fitted levels) predicted the runs' makespans within {} on average, M2 \
         (one line) within {}",
        pct(s.m3_error),
        pct(s.m2_error)
    );
    let past = s.m3_error_past.zip(s.m2_error_past);
    if let Some((m3, m2)) = past {
        text.push_str(&format!("; past the knee {} against {}", pct(m3), pct(m2)));
    }
    text.push('.');
    if past.is_some_and(|(m3, m2)| m2 > m3) {
        text.push_str(
            " M2's one line through the origin cannot bend at the knee: it is too slow for \
             chunks in the caches and too fast for chunks past them.",
        );
    }
    if let Some(alone) = &s.alone {
        text.push_str(&format!(
            " The runs' chunks computed at {:.2} times the time the one-worker calibration \
             fitted",
            alone.ratio
        ));
        text.push_str(if alone.ratio > 1.1 {
            ": workers computing at once share the processor's last-level cache and memory \
             bus (and any other program running takes its share), so each is slower than \
             alone, and the models, calibrated alone, are too optimistic."
        } else {
            "."
        });
    }
    text
}

/// Which calibration predicts the runs' chunks better.
fn calibration_words(s: &Summary) -> Option<String> {
    let (alone, together) = (s.alone.as_ref()?, s.together.as_ref()?);
    let better = if together.mean_abs_error < alone.mean_abs_error {
        "every worker at once (the runs' conditions)"
    } else {
        "one worker alone"
    };
    Some(format!(
        "Against the runs' chunks, the calibration with one worker alone was off by {} on \
         average and the one with every worker at once by {}: {better} predicts the runs \
         better.",
        pct(alone.mean_abs_error),
        pct(together.mean_abs_error)
    ))
}

/// The reading, one paragraph each.
pub fn reading(s: &Summary, knee: Option<f64>, timer: f64) -> Vec<String> {
    let mut words = vec![knee_words(s, knee), split_words(s), error_words(s)];
    words.extend(calibration_words(s));
    if timer > 20e-6 {
        words.push(format!(
            "This browser's clock ticks every {:.3} ms, so the shortest times are known only \
             to that: a small chunk's time carries an error of up to a tick.",
            timer * 1000.0
        ));
    }
    words
}

/// The experiment's outcome whole: the summary of its checks and runs, its
/// reading in words, and the exercises on the largest equal split run.
/// Here rather than in the summary, which the reading reads.
///
/// # Errors
///
/// A check that cannot be read ([`summary`]).
pub fn finish(input: &SummaryInput) -> Result<Summary, Error> {
    let mut summary = summary(input)?;
    summary.reading = reading(&summary, input.knee, input.timer);
    // The largest load whose equal split was run: past the knee when any is.
    let largest = summary
        .rows
        .iter()
        .filter(|r| r.equal.is_some())
        .max_by(|a, b| a.load.total_cmp(&b.load));
    if let Some(row) = largest {
        let m3 = &input.hierarchical["report"]["requests"]["hierarchical"];
        summary.exercises = super::exercise::exercises(m3, input.machines, row.load, row.equal);
    }
    Ok(summary)
}
