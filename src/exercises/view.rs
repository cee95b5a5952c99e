//! The exercise tab's form, and a drawn sheet as blocks and as an answer
//! key (CSV) for the teacher.

use std::borrow::Cow;

use crate::core::framework::exercise::{Answer, Template};
use crate::core::presentation::form::{
    Column, Field, Form, Formula as F, Group, Kind, Layout, Rows,
};
use crate::core::presentation::view::{number, Block};

use super::Paper;

/// The sheet's column of exercises: one of every model's templates, the
/// names older sheets used read as today's.
fn exercise_column(
    templates: &[(&'static str, Template)],
    published: Vec<(String, &'static str)>,
) -> Column {
    let ids: Vec<&'static str> = templates.iter().map(|(_, t)| t.id).collect();
    Column {
        kind: Kind::Choice,
        options: Cow::Owned(ids.clone()),
        aliases: published
            .into_iter()
            .map(|(old, id)| (old, id.to_string()))
            .collect(),
        range: "one of the exercises listed",
        ..Column::number(
            "exercise",
            "exercise",
            "exercise",
            "exercise",
            "the kind of exercise; its numbers are drawn from the seed",
            ids.first().copied().unwrap_or(""),
        )
    }
}

/// The tab: a title, a seed and the list of exercises (chosen from every
/// model's templates); `published` maps the names older sheets used to
/// the ids.
pub fn form(
    templates: &[(&'static str, Template)],
    published: Vec<(String, &'static str)>,
) -> Form {
    let exercise = exercise_column(templates, published);
    Form {
        tab: "Exercises",
        title: "Exercise sheets",
        citation: "exercises drawn from the models' sources",
        // Every work a template comes from (a test keeps the two lists
        // together).
        sources: &[
            "drozdowski-basics",
            "drozdowski-singh-marszalkowski",
            "drozdowski-wolniewicz-2003",
            "grama-2003",
            "karp-flatt-1990",
            "marszalkowski-energy",
        ],
        intro: "Each exercise draws its numbers from the sheet's seed and its place on the \
            sheet, and the calculator computes its answer, so a sheet is the same for every \
            student who opens its link or file. Type an answer and check it; hints and the \
            worked solution are there when needed. Answers stay in this browser and can be \
            downloaded as CSV. Teachers: pick the exercises and a seed, then share the link \
            or download the sheet."
            .into(),
        about: ABOUT,
        groups: vec![Group::of(
            "Sheet:",
            vec![
                Field::new("title", "title", "title", Kind::Text),
                Field::number("seed", "seed", "seed")
                    .help("draws every exercise's numbers")
                    .range("a whole number, 0 to 2⁵³ − 1"),
            ],
        )],
        rows: Some(Rows {
            path: "items",
            item: "exercise",
            prefix: "",
            caption: "Exercises on the sheet, in order",
            columns: vec![exercise],
        }),
        fixed: Vec::new(),
        layout: Layout::Exercises,
        parts: "",
    }
}

/// One note per exercise: its question (for the command line's view).
pub fn blocks(paper: &Paper) -> Vec<Block> {
    paper
        .exercises
        .iter()
        .map(|e| {
            Block::note(
                &format!("exercise-{}", e.number),
                format!("{}. {}: {}", e.number, e.title, plain(&e.posed.question)),
            )
        })
        .collect()
}

/// Markup (`<i>`, `<sub>`, `<sup>`) taken out, for text files.
pub fn plain(markup: &str) -> String {
    let mut out = String::with_capacity(markup.len());
    let mut inside = false;
    for c in markup.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

impl Paper {
    /// The answer key as CSV: number, exercise, question, answer, unit,
    /// tolerance; numbers at the calculator's ten significant digits
    /// (`1.8928`, not the float's `1.8927999999999998`).
    pub fn key(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut csv = String::from("number,exercise,question,answer,unit,tolerance\n");
        for e in &self.exercises {
            let (answer, unit, tolerance) = match &e.posed.answer {
                Answer::Number {
                    value,
                    unit,
                    tolerance,
                    ..
                } => (number(*value), unit.clone(), number(*tolerance)),
                choice => (choice.text(), String::new(), String::new()),
            };
            let row = [
                e.number.to_string(),
                e.template.clone(),
                plain(&e.posed.question),
                answer,
                unit,
                tolerance,
            ];
            let row: Vec<String> = row.iter().map(|c| quote(c)).collect();
            csv.push_str(&row.join(","));
            csv.push('\n');
        }
        csv
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("a typed number is right when", "|typed − answer| ≤ 0.005 · |answer| (three significant digits)"),
    F::new("an exercise's numbers", "drawn from the sheet's seed, the exercise's place and its name: the same sheet gives the same exercises everywhere"),
];
