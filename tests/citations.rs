//! One citation scheme: the presets, the page's headings, the README and
//! the docs cite a work by its number in the page's bibliography (`[3]`),
//! and a number a tab's preset cites is one of the works that tab names.
//! The works are written out once, in the code; `docs/bibliography.md` is
//! made from it (`DLT_WRITE_BIBLIOGRAPHY=1 cargo test --test citations`
//! rewrites it).

use dlt_calc::api::tabs;
use dlt_calc::core::domain::bibliography::WORKS;

/// The numbers in brackets in `text` (`[3] … [1]` → 3, 1); other brackets
/// (`[s]`, `[0, 1]`) are no citation.
fn cited(text: &str) -> Vec<String> {
    text.split('[')
        .skip(1)
        .filter_map(|rest| rest.split_once(']').map(|(inside, _)| inside.to_string()))
        .filter(|inside| !inside.is_empty() && inside.chars().all(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn presets_cite_the_bibliography_by_its_numbers() {
    let mut citations = 0;
    for tab in tabs() {
        for (name, label) in &tab.presets {
            for number in cited(label) {
                citations += 1;
                assert!(
                    !number.starts_with('0'),
                    "{name}: {label:?} cites [{number}], a seed's name, not the bibliography's number"
                );
                let n: usize = number.parse().expect("digits only, checked above");
                assert!((1..=WORKS.len()).contains(&n), "{name}: [{n}] is no work");
                let key = WORKS[n - 1].key;
                assert!(
                    tab.form.sources.contains(&key),
                    "{name} cites [{n}] ({key}), which the {} tab does not list among its sources",
                    tab.model
                );
            }
        }
    }
    assert!(citations >= 20, "only {citations} citations found");
}

/// `docs/bibliography.md` as made from [`WORKS`]: one line a work, in
/// the page's order and with its number.
fn bibliography_page() -> String {
    let mut page = String::from(
        "# Bibliography\n\n\
         The works the models come from, numbered as at the foot of the page.\n\
         The README, the docs, the presets and `dlt example` cite them by these\n\
         numbers (`[3]`); each model's page says which part of a work it follows.\n\n\
         This file is made from `src/core/domain/bibliography.rs`, the one list:\n\
         edit that, then run `DLT_WRITE_BIBLIOGRAPHY=1 cargo test --test citations`\n\
         (the test fails while this file differs from what the list makes).\n\n",
    );
    for (k, work) in WORKS.iter().enumerate() {
        let (n, authors, title, venue) = (k + 1, work.authors, work.title, work.venue);
        page.push_str(&format!("- `[{n}]` {authors}, *{title}*, {venue}.\n"));
    }
    page
}

/// The path of a file of the project.
fn project_file(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_docs_bibliography_is_made_from_the_code() {
    let path = project_file("docs/bibliography.md");
    let made = bibliography_page();
    if std::env::var_os("DLT_WRITE_BIBLIOGRAPHY").is_some() {
        std::fs::write(&path, &made).expect("the docs folder is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "docs/bibliography.md is not what src/core/domain/bibliography.rs makes: \
         run DLT_WRITE_BIBLIOGRAPHY=1 cargo test --test citations"
    );
}

/// The README and every page of the docs (the bibliography itself
/// excepted), with the name of each.
fn texts() -> Vec<(String, String)> {
    let readme = include_str!("../README.md").to_string();
    let mut texts = vec![("README.md".to_string(), readme)];
    let docs = std::fs::read_dir(project_file("docs")).expect("the docs folder exists");
    for entry in docs {
        let path = entry.expect("the docs folder is readable").path();
        let name = format!(
            "docs/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        if path.extension().is_some_and(|e| e == "md") && name != "docs/bibliography.md" {
            let text = std::fs::read_to_string(&path).expect("a docs page is text");
            texts.push((name, text));
        }
    }
    texts
}

/// The README cites by number and sends the reader to the bibliography.
#[test]
fn the_readme_cites_by_number_and_links_the_bibliography() {
    let readme = include_str!("../README.md");
    assert!(
        !readme.contains("`[000]`"),
        "the README still cites by seed name"
    );
    assert!(
        readme.contains("(docs/bibliography.md)"),
        "the README does not link docs/bibliography.md"
    );
    assert!(cited(readme).len() >= 10, "the README cites too little");
}

/// A citation written `` `[n]` `` in the README or the docs is a work's
/// number.
#[test]
fn the_readme_and_the_docs_cite_works_that_exist() {
    let mut citations = 0;
    for (name, text) in texts() {
        for piece in text.split('`').skip(1).step_by(2) {
            let Some(number) = piece.strip_prefix('[').and_then(|p| p.strip_suffix(']')) else {
                continue;
            };
            let Ok(n) = number.parse::<usize>() else {
                continue;
            };
            citations += 1;
            assert!(
                (1..=WORKS.len()).contains(&n),
                "{name} cites [{n}], no work"
            );
        }
    }
    assert!(citations >= 20, "only {citations} citations found");
}

/// The works are written out in one place: no README or docs page spells
/// out a citation (`authors, *title*`) that the bibliography holds.
#[test]
fn no_page_but_the_bibliography_writes_a_work_out() {
    for (name, text) in texts() {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for (k, work) in WORKS.iter().enumerate() {
            let written = format!("{}, *", work.authors);
            assert!(
                !text.contains(&written),
                "{name} writes out [{}] ({}): cite it by its number",
                k + 1,
                work.authors
            );
        }
    }
}
