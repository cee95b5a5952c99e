//! The layout rules the code keeps, checked on the tree itself: every
//! source file is under the formatter and compiled (so clippy reads it).

use std::path::{Path, PathBuf};

mod source_tree;

use source_tree::{root, rust_files};
use std::process::Command;

/// Every Rust file of the project: the crate, its tests and benchmarks.
fn project_files() -> Vec<PathBuf> {
    ["src", "tests", "benches"]
        .iter()
        .flat_map(|d| rust_files(&root().join(d)))
        .collect()
}

/// `cargo fmt` only reads the modules it can follow, so each file is given
/// to rustfmt by name as well: a file declared where rustfmt cannot see it
/// (inside a macro, say) is still checked.
#[test]
fn every_rust_file_is_formatted() {
    let files = project_files();
    assert!(files.len() > 100, "only {} Rust files found", files.len());
    let output = Command::new("rustfmt")
        .args(["--check", "--edition", "2021"])
        .args(&files)
        .output()
        .expect("rustfmt runs (it comes with the toolchain: rustup component add rustfmt)");
    assert!(
        output.status.success(),
        "rustfmt --check:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The module a file of `src` is declared in, and the name it is declared
/// under (`None` for the crate's roots).
fn parent_of(file: &Path) -> Option<(PathBuf, String)> {
    let name = file.file_stem()?.to_str()?.to_string();
    let dir = file.parent()?;
    if dir.ends_with("src") && (name == "lib" || name == "main") || dir.ends_with("src/bin") {
        return None;
    }
    if name == "mod" {
        let up = dir.parent()?;
        let folder = dir.file_name()?.to_str()?.to_string();
        let module = up.join("mod.rs");
        let parent = if up.ends_with("src") {
            up.join("lib.rs")
        } else if module.exists() {
            module
        } else {
            up.with_extension("rs")
        };
        return Some((parent, folder));
    }
    let module = dir.join("mod.rs");
    let parent = if dir.ends_with("src") {
        dir.join("lib.rs")
    } else if module.exists() {
        module
    } else {
        dir.with_extension("rs")
    };
    Some((parent, name))
}

/// Every file of `src` is declared by a plain `mod` line of its parent, so
/// the compiler, clippy and rustfmt all read it.
#[test]
fn every_source_file_is_declared_by_a_plain_mod_line() {
    for file in rust_files(&root().join("src")) {
        let Some((parent, name)) = parent_of(&file) else {
            continue;
        };
        let text = std::fs::read_to_string(&parent).unwrap_or_default();
        let declared = text.lines().any(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("pub ").unwrap_or(line);
            let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
            line == format!("mod {name};")
        });
        assert!(
            declared,
            "{} is not declared by a `mod {name};` line in {}",
            file.display(),
            parent.display()
        );
    }
}

/// The places that serve every model alike, and so name none.
const SHARED: &[&str] = &[
    "src/core",
    "src/maps",
    "src/exercises",
    "src/api.rs",
    "src/web.rs",
    "src/bin",
    "www/js",
    "tests/registry.rs",
];

/// Words that are a model's id and also a notion every model shares, with
/// the one file each may appear in and why.
const SHARED_WORDS: &[(&str, &str, &str)] = &[
    (
        "src/core/presentation/gantt.rs",
        "startup",
        "the start-up activity of any machine",
    ),
    (
        "src/core/presentation/form.rs",
        "startup",
        "the start-up cost column of a machine table",
    ),
];

/// Every file under `path` (a folder or a file), as text.
fn texts(path: &str) -> Vec<(String, String)> {
    let at = root().join(path);
    let files = if at.is_dir() {
        let mut all = Vec::new();
        let mut todo = vec![at];
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let p = entry.path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    all.push(p);
                }
            }
        }
        all
    } else {
        vec![at]
    };
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            let name = f
                .strip_prefix(root())
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            Some((name, text))
        })
        .collect()
}

/// Shared code names no model, neither by its module path nor by its id
/// in quotes, so that a new model needs nothing outside its folder and its
/// registry line.
#[test]
fn shared_code_names_no_model() {
    let mut ids: Vec<&str> = dlt_calc::registry::all().map(|e| e.id().name).collect();
    ids.extend(dlt_calc::registry::all().filter_map(|e| e.id().former.tag));
    let mut found = Vec::new();
    for (file, text) in SHARED.iter().flat_map(|p| texts(p)) {
        for id in &ids {
            let quoted = ['"', '\'', '`']
                .iter()
                .any(|q| text.contains(&format!("{q}{id}{q}")));
            let path = text.contains(&format!("models::{id}"));
            let allowed = SHARED_WORDS.iter().any(|(f, w, _)| *f == file && w == id);
            // A tool over every model is named in its own folder or file.
            let stem = file.rsplit('/').next().and_then(|f| f.split('.').next());
            let own = file.contains(&format!("/{id}/")) || stem == Some(id);
            if (quoted || path) && !allowed && !own {
                found.push(format!("{file}: {id}"));
            }
        }
    }
    assert!(found.is_empty(), "model names in shared code: {found:#?}");
}
