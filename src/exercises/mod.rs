//! Exercise sheets: a teacher lists exercises (templates the models pose)
//! and a seed; the sheet draws each exercise's numbers from the seed and
//! its position, and computes its answer with the calculator. The same
//! sheet gives the same exercises everywhere, so a link or a JSON file is
//! the whole sheet. Answers are checked by [`crate::core::framework::exercise::check`].

mod view;

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::{Count, MAX_COUNT};
use crate::core::domain::error::{shorten, Checker, Error, Invalid, Validate};
use crate::core::framework::exercise::{draw_for, Posed, Template};
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::framework::registry::Registry;
use crate::core::presentation::form::Form;
use crate::core::presentation::response::Views;
use crate::core::presentation::view::Block;
use crate::core::solving::progress::Progress;

/// The most exercises on one sheet.
pub const MAX_ITEMS: usize = 40;
/// The longest title, in characters.
pub const MAX_TITLE: usize = 200;

/// The exercise sheets of the models of the registry `R`.
#[derive(Debug)]
pub struct ExerciseSheet<R>(PhantomData<fn() -> R>);

/// Every template the registry's models pose, with the id of the model
/// that poses each, in the registry's order.
pub fn templates<R: Registry>() -> Vec<(&'static str, Template)> {
    R::entries()
        .into_iter()
        .flat_map(|m| m.exercises().into_iter().map(move |t| (m.id().name, t)))
        .collect()
}

/// The name a template of `model` was first published under, which seeds
/// its numbers so that a shared sheet keeps them: before every model had
/// one id, a numbered model's templates were named `m<number>-…`
/// (`m3-two-levels` for `hierarchical-two-levels`).
pub fn published<R: Registry>(model: &str, template: &Template) -> String {
    let rest = template
        .id
        .strip_prefix(model)
        .and_then(|r| r.strip_prefix('-'));
    let number = R::find(model).and_then(|m| m.id().number);
    match (number, rest) {
        (Some(n), Some(rest)) => format!("m{n}-{rest}"),
        _ => template.id.to_string(),
    }
}

/// A sheet as a teacher makes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sheet<R> {
    /// Shown above the exercises.
    #[serde(default)]
    pub title: String,
    /// Draws every exercise's numbers (a whole number).
    pub seed: Count,
    /// The exercises, in order.
    pub items: Vec<Item>,
    #[serde(skip)]
    registry: PhantomData<fn() -> R>,
}

/// One exercise of a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// The template's name (`hierarchical-two-levels`; the name it was first
    /// published under, `m3-two-levels`, is read too). Missing, it is no
    /// exercise's name, so the message lists the names there are.
    #[serde(default)]
    pub exercise: String,
}

/// A drawn exercise, numbered as on the sheet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exercise {
    /// 1, 2, … on the sheet.
    pub number: usize,
    /// The template's name.
    pub template: String,
    /// The template's title.
    pub title: String,
    /// The tag of the model that poses it.
    pub model: String,
    /// The bibliography key of its source.
    pub source: String,
    /// The right answer as the worked solution states it (`5.75 s, within
    /// 0.5 %`).
    pub shown: String,
    /// The question, the answer, hints and solution.
    #[serde(flatten)]
    pub posed: Posed,
}

/// A sheet drawn: its exercises with their answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paper {
    /// The sheet's title.
    pub title: String,
    /// The seed it was drawn with.
    pub seed: u64,
    /// The exercises.
    pub exercises: Vec<Exercise>,
}

impl<R: Registry> Sheet<R> {
    /// A sheet of `items` drawn with `seed`.
    pub fn new(title: &str, seed: u64, items: &[&str]) -> Sheet<R> {
        Sheet {
            title: title.into(),
            seed: Count(seed),
            items: items
                .iter()
                .map(|e| Item {
                    exercise: (*e).into(),
                })
                .collect(),
            registry: PhantomData,
        }
    }

    /// The template named `name`, by its id or by the name it was first
    /// published under (so that older sheets keep working).
    fn template(name: &str) -> Option<(&'static str, Template)> {
        templates::<R>()
            .into_iter()
            .find(|(m, t)| t.id == name || published::<R>(m, t) == name)
    }

    /// Draws every exercise and computes its answer.
    ///
    /// # Errors
    ///
    /// A template's solver error (with the exercise's position), or
    /// [`Error::Cancelled`] when `progress` asks to stop.
    pub fn draw(&self, progress: &mut dyn Progress) -> Result<Paper, Error> {
        let mut exercises = Vec::with_capacity(self.items.len());
        for (k, item) in self.items.iter().enumerate() {
            let what = format!("exercise {} of {}", k + 1, self.items.len());
            if !progress.report(k as f64 / self.items.len() as f64, &what) {
                return Err(Error::Cancelled);
            }
            let (model, template) = Self::template(&item.exercise).ok_or_else(|| {
                Error::Malformed(format!("no exercise named {:?}", item.exercise))
            })?;
            let mut draw = draw_for(self.seed.0, k, &published::<R>(model, &template));
            let posed = (template.make)(&mut draw).map_err(|e| {
                Error::Malformed(format!("exercise {} ({}): {e}", k + 1, template.id))
            })?;
            exercises.push(Exercise {
                number: k + 1,
                template: template.id.into(),
                title: template.title.into(),
                model: model.into(),
                source: template.source.into(),
                shown: posed.answer.shown(),
                posed,
            });
        }
        Ok(Paper {
            title: self.title.clone(),
            seed: self.seed.0,
            exercises,
        })
    }
}

impl<R: Registry> Validate for Sheet<R> {
    fn check_into(&self, c: &mut Checker) {
        let length = self.title.chars().count();
        if length > MAX_TITLE {
            let limit = MAX_TITLE;
            c.fail("title", Invalid::TooLong { length, limit });
        }
        c.whole_up_to("seed", self.seed, 0, MAX_COUNT - 1);
        if c.count("items", self.items.len(), MAX_ITEMS) {
            let known: Vec<&str> = templates::<R>().iter().map(|(_, t)| t.id).collect();
            for (k, item) in self.items.iter().enumerate() {
                if Self::template(&item.exercise).is_none() {
                    c.fail(
                        format!("items[{k}].exercise"),
                        Invalid::UnknownExercise {
                            name: shorten(&item.exercise),
                            known: known.join(", "),
                        },
                    );
                }
            }
        }
    }
}

impl Views for Paper {
    fn csv(&self) -> Option<String> {
        Some(self.key())
    }

    fn view(&self) -> Vec<Block> {
        view::blocks(self)
    }
}

impl<R: Registry> Model for ExerciseSheet<R> {
    const ID: Identity = Identity {
        former: Former {
            tag: None,
            tab: "exercises",
            prefix: "x.",
        },
        ..Identity::new("exercises", "Exercises")
    };
    type Request = Sheet<R>;
    type Output = Paper;

    fn presets() -> Vec<Preset<Sheet<R>>> {
        let templates = templates::<R>();
        let every: Vec<&str> = templates.iter().map(|(_, t)| t.id).collect();
        let hand = templates.iter().filter(|(_, t)| t.by_hand);
        let by_hand: Vec<&str> = hand.map(|(_, t)| t.id).collect();
        vec![
            Preset {
                name: "exercises-tour",
                label: "One exercise of every kind",
                request: Sheet::new("A tour of divisible load theory", 2026, &every),
            },
            Preset {
                name: "exercises-basics",
                label: "Hand calculations: speedup, efficiency, splitting a load",
                request: Sheet::new("Speedup, efficiency and splitting a load", 1, &by_hand),
            },
        ]
    }

    fn solve(request: &Sheet<R>, progress: &mut dyn Progress) -> Result<Paper, Error> {
        request.draw(progress)
    }

    fn form() -> Form {
        let templates = templates::<R>();
        let published: Vec<(String, &'static str)> = templates
            .iter()
            .map(|(m, t)| (published::<R>(m, t), t.id))
            .filter(|(old, id)| old != id)
            .collect();
        view::form(&templates, published)
    }
}
