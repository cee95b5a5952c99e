//! The integration tests of `tests/*.rs`, built as one binary: a binary
//! per file linked the whole crate once per file, which took much of the
//! tests' build time. Each file stays where it is, a module here; its
//! `#[path]` makes the modules it declares (such as `cli_support`) resolve
//! beside it, as they do when the file is a binary of its own.
//!
//! Each file named here is also a `[[test]]` of `Cargo.toml` with
//! `test = false`, so `cargo test` runs it here only, and
//! `cargo test --test NAME` still builds and runs it alone. A new file of
//! `tests/` runs as a binary of its own until it is named in both places;
//! `make test` checks that the two lists agree.

// Each file declares the helper modules it uses (`cli_support`, `rng`, …)
// as it does when it is a binary of its own, so they are loaded once per
// file here.
#![allow(clippy::duplicate_mod)]

#[path = "calibration.rs"]
mod calibration;
#[path = "charts.rs"]
mod charts;
#[path = "check.rs"]
mod check;
#[path = "citations.rs"]
mod citations;
#[path = "cli.rs"]
mod cli;
#[path = "defects.rs"]
mod defects;
#[path = "exercises.rs"]
mod exercises;
#[path = "exercises_m6_m8.rs"]
mod exercises_m6_m8;
#[path = "fit_bad_input.rs"]
mod fit_bad_input;
#[path = "fit_data.rs"]
mod fit_data;
#[path = "fit_math.rs"]
mod fit_math;
#[path = "fit_model.rs"]
mod fit_model;
#[path = "fit_noise.rs"]
mod fit_noise;
#[path = "fit_table.rs"]
mod fit_table;
#[path = "fit_validity.rs"]
mod fit_validity;
#[path = "function_length.rs"]
mod function_length;
#[path = "fuzz.rs"]
mod fuzz;
#[path = "gantt.rs"]
mod gantt;
#[path = "heterogeneous.rs"]
mod heterogeneous;
#[path = "hierarchical.rs"]
mod hierarchical;
#[path = "import_circles.rs"]
mod import_circles;
#[path = "installments.rs"]
mod installments;
#[path = "isoefficiency.rs"]
mod isoefficiency;
#[path = "layout.rs"]
mod layout;
#[path = "linear.rs"]
mod linear;
#[path = "linear_subsets.rs"]
mod linear_subsets;
#[path = "lp_backends.rs"]
mod lp_backends;
#[path = "mapreduce.rs"]
mod mapreduce;
#[path = "metrics.rs"]
mod metrics;
#[path = "registry.rs"]
mod registry;
#[path = "schema.rs"]
mod schema;
#[path = "split_join.rs"]
mod split_join;
#[path = "startup.rs"]
mod startup;
#[path = "verifier.rs"]
mod verifier;
#[path = "verifier_rules.rs"]
mod verifier_rules;
#[path = "warm_starts.rs"]
mod warm_starts;
