//! No two source files depend on each other, directly or through others:
//! every path a file names (`use crate::…`, `use super::…`, or a path in
//! its code) is an edge to the file that defines it, and the graph of these
//! edges has no circle; and the files stand in layers, each naming only
//! files of its own layer or of those below it (`LAYERS`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

mod source_tree;

use source_tree::rust_files;

/// Circles allowed for now, as `"a.rs <-> b.rs"` (paths under `src`).
const ALLOWED: &[&str] = &[];

/// The crate's layers, lowest first, as path prefixes under `src`: a file
/// may name files of its own layer and of the layers before it, never one
/// after. `core/` is split by concern (see `core/mod.rs`); the models sit
/// on the framework; the edges walk the registry.
const LAYERS: &[&[&str]] = &[
    &["core/domain/"],
    &["core/presentation/"],
    &["plot/"],
    &["core/solving/"],
    &["core/framework/"],
    &["models/"],
    &["maps/", "exercises/"],
    &["registry.rs"],
    &["sweep.rs", "api.rs", "star/"],
    &["web.rs", "bin/", "lib.rs", "core/mod.rs"],
];

/// Edges that still run up a layer, as `"from.rs -> to.rs"`.
const UPWARD_ALLOWED: &[&str] = &[];

/// The crate's source folder.
fn src() -> PathBuf {
    source_tree::root().join("src")
}

/// The module a file defines, as its names from the crate's root
/// (`core/mod.rs` and `core.rs` are both `["core"]`, `lib.rs` is `[]`).
fn module_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let mut names: Vec<String> = stem.split('/').map(str::to_string).collect();
    if names.last().is_some_and(|n| n == "mod" || n == "lib") {
        names.pop();
    }
    names
}

/// The file that defines the deepest existing module along `names`.
fn file_of(files: &BTreeSet<String>, names: &[String]) -> String {
    for depth in (1..=names.len()).rev() {
        let stem = names[..depth].join("/");
        for file in [format!("{stem}.rs"), format!("{stem}/mod.rs")] {
            if files.contains(&file) {
                return file;
            }
        }
    }
    "lib.rs".to_string()
}

/// The code of a Rust file with its comments, strings and character
/// literals blanked out, so that only real paths are read (and only ASCII
/// is left, so that the code can be read byte by byte).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let rest = &chars[at..];
        let skip = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            (2..rest.len())
                .find(|&i| rest[i - 1] == '*' && rest[i] == '/')
                .map_or(rest.len(), |i| i + 1)
        } else if rest[0] == '"' || raw_string(rest) {
            string_length(rest)
        } else if rest[0] == '\'' {
            char_length(rest)
        } else {
            0
        };
        if skip == 0 {
            out.push(if chars[at].is_ascii() { chars[at] } else { ' ' });
            at += 1;
        } else {
            out.push(' ');
            at += skip;
        }
    }
    out
}

/// Whether `s` starts with a raw string (`r"…"`, `r#"…"#`), not a raw
/// identifier (`r#type`).
fn raw_string(s: &[char]) -> bool {
    let hashes = s.iter().skip(1).take_while(|&&c| c == '#').count();
    s[0] == 'r' && s.get(1 + hashes) == Some(&'"')
}

/// The length of the string literal `s` starts with (raw ones included).
fn string_length(s: &[char]) -> usize {
    if s[0] == 'r' {
        let hashes = s[1..].iter().take_while(|&&c| c == '#').count();
        let open = 1 + hashes + 1;
        let close: Vec<char> = std::iter::once('"')
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        return (open..s.len())
            .find(|&i| s[i..].starts_with(&close))
            .map_or(s.len(), |i| i + close.len());
    }
    let mut at = 1;
    while at < s.len() {
        match s[at] {
            '\\' => at += 2,
            '"' => return at + 1,
            _ => at += 1,
        }
    }
    s.len()
}

/// The length of the character literal `s` starts with, or 0 for a
/// lifetime (`'a`).
fn char_length(s: &[char]) -> usize {
    if s.get(1) == Some(&'\\') {
        return s[2..].iter().position(|&c| c == '\'').map_or(0, |i| i + 3);
    }
    if s.get(2) == Some(&'\'') {
        3
    } else {
        0
    }
}

/// Every path named in `code` that starts at `crate`, `super` or `self`,
/// with the number of inline modules (`mod tests { … }`) around it, use
/// trees (`use a::{b, c::d}`) spelled out.
fn paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut braces = 0usize;
    let mut inline = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let before = if at == 0 { b' ' } else { bytes[at - 1] };
        let starts = !is_ident(before) && before != b'.';
        if starts && code[at..].starts_with("mod ") {
            let name_end = code[at + 4..].find(|c: char| !(c.is_alphanumeric() || c == '_'));
            let after = name_end.map(|e| code[at + 4 + e..].trim_start());
            if after.is_some_and(|a| a.starts_with('{')) {
                inline.push(braces + 1);
            }
        }
        let path = ["crate::", "super::", "self::"]
            .iter()
            .any(|root| code[at..].starts_with(root));
        if starts && path {
            let (trees, end) = tree(code, at);
            found.extend(trees.into_iter().map(|p| (inline.len(), p)));
            at = end;
            continue;
        }
        match bytes[at] {
            b'{' => braces += 1,
            b'}' => {
                if inline.last() == Some(&braces) {
                    inline.pop();
                }
                braces = braces.saturating_sub(1);
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// The paths of the use tree (or plain path) at `at`, and where it ends.
fn tree(code: &str, mut at: usize) -> (Vec<Vec<String>>, usize) {
    let skip_space = |at: usize| code.len() - code[at..].trim_start().len();
    let mut prefix: Vec<String> = Vec::new();
    loop {
        at = skip_space(at);
        if code[at..].starts_with('{') {
            let mut all = Vec::new();
            at += 1;
            loop {
                at = skip_space(at);
                if code[at..].starts_with('}') || at == code.len() {
                    return (all, (at + 1).min(code.len()));
                }
                let (subtrees, end) = tree(code, at);
                all.extend(subtrees.into_iter().map(|s| [prefix.clone(), s].concat()));
                at = skip_space(end);
                if let Some(renamed) = code[at..].strip_prefix("as ") {
                    let name = renamed.trim_start();
                    let len = name.find(|c: char| !(c.is_alphanumeric() || c == '_'));
                    at = code.len() - name.len() + len.unwrap_or(name.len());
                    at = skip_space(at);
                }
                if !code[at..].starts_with('}') {
                    // past the comma (or whatever stands in its place)
                    at += 1;
                }
            }
        }
        let rest = &code[at..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
            .unwrap_or(rest.len());
        if len == 0 {
            return (vec![prefix], at);
        }
        prefix.push(rest[..len].to_string());
        at += len;
        if code[at..].starts_with("::") {
            at += 2;
        } else {
            return (vec![prefix], at);
        }
    }
}

/// Every file's edges: the files it names, each with a path naming it.
fn graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let root = src();
    let listed = rust_files(&root);
    let names = |p: &PathBuf| {
        // cannot fail: the file was listed under `src`.
        let name = p.strip_prefix(&root).expect("a file under src");
        name.to_string_lossy().replace('\\', "/")
    };
    let files: BTreeSet<String> = listed.iter().map(names).collect();
    let mut edges = BTreeMap::new();
    for path in &listed {
        let file = names(path);
        // cannot fail: the file was just listed.
        let text = std::fs::read_to_string(path).expect("a readable source file");
        let here = module_of(&file);
        let mut out: BTreeMap<String, String> = BTreeMap::new();
        for (inline, names) in paths(&code_only(&text)) {
            let mut module = here.clone();
            let mut words = names.iter().peekable();
            match words.next().map(String::as_str) {
                Some("crate") => module.clear(),
                Some("super") => {
                    let mut ups = 1usize;
                    while words.next_if(|w| *w == "super").is_some() {
                        ups += 1;
                    }
                    let leaving = ups.saturating_sub(inline);
                    module.truncate(module.len().saturating_sub(leaving));
                }
                _ => {}
            }
            module.extend(words.cloned());
            let target = file_of(&files, &module);
            if target != file {
                out.entry(target).or_insert_with(|| names.join("::"));
            }
        }
        edges.insert(file, out);
    }
    edges
}

/// The strongly connected groups of the graph with more than one file:
/// each is a set of files that all reach one another.
fn circles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(at) = todo.pop() {
            for next in edges.get(&at).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|f| (f, reach(f))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for (file, from_here) in &reached {
        if !from_here.contains(*file) || groups.iter().any(|g| g.contains(*file)) {
            continue;
        }
        let group = from_here
            .iter()
            .filter(|other| reached[other].contains(*file))
            .cloned()
            .collect();
        groups.push(group);
    }
    groups
}

/// The scanner reads use trees, inline paths and inline modules.
#[test]
fn the_scanner_reads_paths() {
    let code = code_only(
        "use crate::a::{b, c::{d, e as f}};\n// use crate::z;\nfn f() { super::g::h(\"crate::y\"); }\n\
         mod tests {\n    use super::*;\n}\nuse self::k;\n",
    );
    let found: Vec<(usize, String)> = paths(&code)
        .into_iter()
        .map(|(i, p)| (i, p.join("::")))
        .collect();
    let expected = [
        (0, "crate::a::b"),
        (0, "crate::a::c::d"),
        (0, "crate::a::c::e"),
        (0, "super::g::h"),
        (1, "super::*"),
        (0, "self::k"),
    ];
    let expected: Vec<(usize, String)> =
        expected.iter().map(|&(i, p)| (i, p.to_string())).collect();
    assert_eq!(found, expected);
}

#[test]
fn no_import_circles_between_files() {
    let edges = graph();
    assert!(edges.len() > 50, "only {} source files found", edges.len());
    let mut report = Vec::new();
    for group in circles(&edges) {
        let files: Vec<&str> = group.iter().map(String::as_str).collect();
        if ALLOWED.contains(&files.join(" <-> ").as_str()) {
            continue;
        }
        let mut lines = vec![format!("circle: {}", files.join(", "))];
        for from in &group {
            for (to, path) in &edges[from] {
                if group.contains(to) {
                    lines.push(format!("    {from} -> {to} ({path})"));
                }
            }
        }
        report.push(lines.join("\n"));
    }
    assert!(
        report.is_empty(),
        "files that depend on each other (move the shared code to a lower file, or pass it in):\n{}",
        report.join("\n")
    );
}

/// The layer a file belongs to (its index in [`LAYERS`]).
fn layer_of(file: &str) -> usize {
    LAYERS
        .iter()
        .position(|layer| layer.iter().any(|prefix| file.starts_with(prefix)))
        .unwrap_or_else(|| panic!("{file} is in no layer: add its folder to LAYERS"))
}

#[test]
fn every_file_names_only_its_own_layer_or_lower() {
    let edges = graph();
    let mut report = Vec::new();
    for (from, targets) in &edges {
        for (to, path) in targets {
            let edge = format!("{from} -> {to}");
            if layer_of(to) > layer_of(from) && !UPWARD_ALLOWED.contains(&edge.as_str()) {
                report.push(format!("    {edge} ({path})"));
            }
        }
    }
    assert!(
        report.is_empty(),
        "files that name a layer above their own (move the code down, or pass it in):\n{}",
        report.join("\n")
    );
}
