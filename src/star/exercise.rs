//! Exercises on the visitor's own experiment: its fitted knee read off the
//! two levels, and the equal split's makespan predicted by hand from the
//! fitted link and levels, then compared with the run. The answers are
//! checked as every exercise's are ([`crate::api::check_answer`]).

use serde_json::Value;

use crate::core::framework::exercise::{with_unit, Answer, Posed};

/// The fitted worker of an M3 request: link `S + C α`, levels `[b, a]`.
struct Worker {
    startup: f64,
    rate: f64,
    levels: Vec<[f64; 2]>,
}

fn worker_of(m3: &Value) -> Option<Worker> {
    let p = &m3["processors"][0];
    let levels = p["levels"]
        .as_array()?
        .iter()
        .filter_map(|l| Some([l["intercept"].as_f64()?, l["slope"].as_f64()?]))
        .collect();
    Some(Worker {
        startup: p["startup"].as_f64()?,
        rate: p["rate"].as_f64()?,
        levels,
    })
}

/// `t(α) = max_k (b_k + a_k α)`.
fn time(levels: &[[f64; 2]], alpha: f64) -> f64 {
    levels
        .iter()
        .map(|[b, a]| b + a * alpha)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The levels written as the question gives them.
fn written(levels: &[[f64; 2]]) -> String {
    let parts: Vec<String> = levels
        .iter()
        .enumerate()
        .map(|(k, [b, a])| {
            format!(
                "<i>a</i><sub>{n}</sub> = {} s/MB, <i>b</i><sub>{n}</sub> = {} s",
                with_unit(*a, "").trim(),
                with_unit(*b, "").trim(),
                n = k + 1
            )
        })
        .collect();
    parts.join("; ")
}

/// The knee of the first two levels, read off by hand.
fn knee(w: &Worker, m3: &Value) -> Option<Posed> {
    let [[b1, a1], [b2, a2], ..] = w.levels.as_slice() else {
        return None;
    };
    let r = (b2 - b1) / (a1 - a2);
    (r.is_finite() && r > 0.0).then(|| Posed {
        question: format!(
            "Your computer's fitted computing time of a chunk of α MB is \
             <i>t</i>(α) = max(<i>a</i><sub>1</sub> α + <i>b</i><sub>1</sub>, \
             <i>a</i><sub>2</sub> α + <i>b</i><sub>2</sub>) with {}. At what chunk size does \
             the second level take over (the knee)?",
            written(&w.levels[..2])
        ),
        answer: Answer::Number {
            asked: "the knee <i>r</i>".into(),
            value: r,
            unit: "MB".into(),
            tolerance: 0.01,
        },
        hints: vec!["The two lines cross where a1 α + b1 = a2 α + b2.".into()],
        solution: vec![format!(
            "α = (b2 − b1)/(a1 − a2) = {}: below it the chunk fits in the fast level.",
            with_unit(r, "MB")
        )],
        request: m3.clone(),
    })
}

/// The equal split's makespan on the one-port star, by hand.
fn equal(w: &Worker, m3: &Value, machines: usize, load: f64, measured: Option<f64>) -> Posed {
    let m = machines as f64;
    let alpha = load / m;
    let send = w.startup + w.rate * alpha;
    let makespan = m * send + time(&w.levels, alpha);
    let run = measured.map_or(String::new(), |t| {
        format!(" Your run of this split measured {}.", with_unit(t, "s"))
    });
    Posed {
        question: format!(
            "The originator sends {} MB in equal chunks to {machines} workers, one chunk at a time: \
             a chunk of α MB takes <i>S</i> + <i>C</i> α to arrive, with <i>S</i> = {} and \
             <i>C</i> = {}, and a worker computes it in <i>t</i>(α) = max over the levels of \
             <i>a</i> α + <i>b</i> once it has arrived ({}). What makespan does this predict?",
            with_unit(load, ""),
            with_unit(w.startup, "s"),
            with_unit(w.rate, "s/MB"),
            written(&w.levels)
        ),
        answer: Answer::Number {
            asked: "the equal split's makespan".into(),
            value: makespan,
            unit: "s".into(),
            tolerance: 0.01,
        },
        hints: vec!["The last worker finishes last: it waits for every chunk to be sent, \
                     its own included, then computes."
            .into()],
        solution: vec![format!(
            "α = {} MB per worker; m (S + C α) + t(α) = {}.{run}",
            with_unit(alpha, "").trim(),
            with_unit(makespan, "s")
        )],
        request: m3.clone(),
    }
}

/// The exercises on an experiment whose M3 request (as the fit filled it)
/// is `m3`: the knee (when two levels were fitted) and the equal split of
/// `load` MB on `machines` workers, `measured` its run's makespan.
pub fn exercises(m3: &Value, machines: usize, load: f64, measured: Option<f64>) -> Vec<Posed> {
    let Some(w) = worker_of(m3) else {
        return Vec::new();
    };
    if w.levels.is_empty() || machines == 0 || load.is_nan() || load <= 0.0 {
        return Vec::new();
    }
    let mut posed: Vec<Posed> = knee(&w, m3).into_iter().collect();
    posed.push(equal(&w, m3, machines, load, measured));
    posed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m3() -> Value {
        json!({"processors": [{"startup": 0.001, "rate": 0.01, "levels": [
            {"intercept": 0.0, "slope": 0.002}, {"intercept": -0.08, "slope": 0.012}]}]})
    }

    #[test]
    fn the_knee_is_where_the_levels_cross_and_the_equal_split_is_sent_then_computed() {
        let posed = exercises(&m3(), 2, 40.0, Some(0.5));
        assert_eq!(posed.len(), 2);
        let Answer::Number { value, .. } = &posed[0].answer else {
            panic!("a number is asked")
        };
        assert!((value - 8.0).abs() < 1e-9, "{value}");
        // α = 20: 2 × (0.001 + 0.2) + max(0.04, 0.16) = 0.562.
        let Answer::Number { value, .. } = &posed[1].answer else {
            panic!("a number is asked")
        };
        assert!((value - 0.562).abs() < 1e-9, "{value}");
        assert!(posed[1].solution[0].contains("measured"));
    }

    #[test]
    fn one_level_poses_no_knee_and_nonsense_poses_nothing() {
        let one = json!({"processors": [{"startup": 0.0, "rate": 0.01,
            "levels": [{"intercept": 0.0, "slope": 0.002}]}]});
        assert_eq!(exercises(&one, 2, 10.0, None).len(), 1);
        assert!(exercises(&json!({}), 2, 10.0, None).is_empty());
        assert!(exercises(&one, 0, 10.0, None).is_empty());
        assert!(exercises(&one, 2, f64::NAN, None).is_empty());
    }
}
