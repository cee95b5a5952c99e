//! Every function of the crate reads in one screen: at most
//! [`SCREEN`] lines from its `fn` line to its closing brace.

mod source_tree;

use source_tree::{root, rust_files};

/// The most lines a function may take, its `fn` line and closing brace
/// included.
const SCREEN: usize = 60;

/// Functions allowed to be longer, as `"path::fn"` (the path from the
/// crate's root).
const ALLOWED: &[&str] = &[
    // Data: the M7 tab's form, a struct literal of field descriptions (its
    // closures only shorten the field constructors).
    "src/models/heterogeneous/view.rs::form",
    // Data: the M2 tab's form, a struct literal of field descriptions.
    "src/models/linear/view.rs::form",
    // Data: the M8 tab's form, a struct literal of field descriptions (its
    // closure only shortens the field constructor).
    "src/models/mapreduce/view.rs::form",
    // Data: the M1 tab's form, a struct literal of field descriptions.
    "src/models/metrics/view.rs::form",
];

/// The name of the function a line starts, if it starts one: `fn`
/// after any of the qualifiers an item may carry.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let before = rest;
        for qualifier in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(qualifier).unwrap_or(rest);
        }
        if rest.starts_with("extern \"") {
            rest = rest.split_once("\" ").map_or(rest, |(_, r)| r);
        }
        if rest == before {
            break;
        }
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The leading spaces of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The length of the function whose `fn` line is `lines[start]`: rustfmt
/// closes a body with a lone `}` at the indentation of its `fn` line.
/// `None` for a declaration without a body (a trait's `fn f();`).
fn length(lines: &[&str], start: usize) -> Option<usize> {
    let depth = indent(lines[start]);
    for (at, line) in lines.iter().enumerate().skip(start) {
        let code = line.split("//").next().unwrap_or(line).trim_end();
        if at == start && code.ends_with('}') {
            return Some(1);
        }
        if code.ends_with(';') && !lines[start..at].iter().any(|l| l.contains('{')) {
            return None;
        }
        if at > start && indent(line) == depth && line.trim() == "}" {
            return Some(at - start + 1);
        }
    }
    None
}

/// Every function of `text` as (name, line number, length).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if let Some(name) = fn_name(line) {
            if let Some(length) = length(&lines, at) {
                found.push((name.to_string(), at + 1, length));
            }
        }
    }
    found
}

/// The scanner finds the functions it should, nested ones included.
#[test]
fn the_scanner_measures_functions() {
    let text = "fn a() {\n    let f = |x| {\n        x\n    };\n\n    fn b() -> u8 {\n        1\n    }\n}\n\
                pub(crate) fn c<T>(t: T)\nwhere\n    T: Copy,\n{\n}\ntrait D {\n    fn e();\n    fn f() {}\n}\n";
    let found = functions(text);
    let expected = [("a", 1, 9), ("b", 6, 3), ("c", 10, 5), ("f", 17, 1)];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(n, at, len)| (n.to_string(), at, len))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn no_function_is_longer_than_a_screen() {
    let files = rust_files(&root().join("src"));
    assert!(files.len() > 50, "only {} source files found", files.len());
    let mut long = Vec::new();
    for file in files {
        // cannot fail: the file was just listed.
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        // cannot fail: the file was listed under the root.
        let path = file.strip_prefix(root()).expect("a file under the root");
        let path = path.to_string_lossy().replace('\\', "/");
        for (name, line, length) in functions(&text) {
            if length > SCREEN && !ALLOWED.contains(&format!("{path}::{name}").as_str()) {
                long.push(format!("{path}:{line} fn {name}: {length} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions longer than {SCREEN} lines (split them along the domain's seams):\n{}",
        long.join("\n")
    );
}
