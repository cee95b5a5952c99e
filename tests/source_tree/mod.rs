//! The project's own source files, for the tests that check the code's
//! layout (formatting, module declarations, function length, circles).

use std::path::{Path, PathBuf};

/// The crate's root folder.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted (build output and npm's folders
/// left out).
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        // cannot fail: the folder was just listed by its parent (or is a
        // folder of the crate).
        let entries = std::fs::read_dir(&at).expect("a readable folder");
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let skipped = name == "target" || name == "node_modules" || name == "pkg";
            if path.is_dir() && !skipped {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
