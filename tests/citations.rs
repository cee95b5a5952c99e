//! One citation scheme: the presets, the page's headings and the README
//! cite a work by its number in the page's bibliography (`[3]`), and a
//! number a tab's preset cites is one of the works that tab names.

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

/// The README's list of sources numbers the works as the page does.
#[test]
fn readme_numbers_the_sources_as_the_bibliography() {
    let readme = include_str!("../README.md");
    assert!(
        !readme.contains("`[000]`"),
        "the README still cites by seed name"
    );
    for (k, work) in WORKS.iter().enumerate() {
        let line = format!("- `[{}]` {}", k + 1, work.authors);
        assert!(readme.contains(&line), "the README has no {line:?}");
    }
}
