//! The import graph of `src/tui`, read from its source: no two files import each other
//! (directly or round a circle), and `update` never imports the drawing code (`ui`): it
//! clamps against the measured view.
//!
//! An edge is a path in a `use` line or in code that starts with `crate::tui::` or
//! `super::` (or, in a private `use` line, names a child module), resolved to the file of
//! the longest module it names. A parent's `mod` lines and its re-exports of its children
//! (`pub use child::item`) are its shape, not imports; test-only code is left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Files holding only tests.
const TEST_FILES: [&str; 3] = ["tests.rs", "measure.rs", "generating/tests.rs"];

fn tui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui")
}

/// Every file under `src/tui`, relative to it (`ui/code.rs`), with its text.
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .map_or_else(|_| path.display().to_string(), |p| p.display().to_string());
                if !TEST_FILES.contains(&rel.as_str())
                    && let Ok(text) = std::fs::read_to_string(&path)
                {
                    out.insert(rel, text);
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&tui_dir(), &tui_dir(), &mut out);
    out
}

/// The module path of a file: `ui/code.rs` → `[ui, code]`, `ui/mod.rs` → `[ui]`.
fn module_of(file: &str) -> Vec<String> {
    let stem = file.trim_end_matches(".rs");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The file of the longest module `path` names, if it is one of `files`.
fn resolve(path: &[String], files: &BTreeMap<String, String>) -> Option<String> {
    (1..=path.len()).rev().find_map(|n| {
        let module = path[..n].join("/");
        [format!("{module}.rs"), format!("{module}/mod.rs")]
            .into_iter()
            .find(|f| files.contains_key(f))
    })
}

/// The code of a file without comments, up to its tests.
fn code_of(text: &str) -> String {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|l| !l.trim_start().starts_with("mod ") && !l.trim_start().starts_with("pub mod "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a piece of code names: each `a::b::{c, d::e}` expanded, as segments.
/// `true` with a path of a private `use` line.
fn paths_in(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    // `use` statements, braces expanded one level.
    for stmt in code.split(';') {
        let stmt = stmt.trim();
        let private = stmt.starts_with("use ");
        let Some(rest) = stmt
            .strip_prefix("use ")
            .or_else(|| stmt.strip_prefix("pub use "))
            .or_else(|| stmt.strip_prefix("pub(crate) use "))
            .or_else(|| stmt.strip_prefix("pub(super) use "))
        else {
            continue;
        };
        let rest: String = rest.split_whitespace().collect();
        let (head, items) = match rest.split_once('{') {
            Some((head, items)) => (head.to_string(), items.trim_end_matches('}').to_string()),
            None => (rest.clone(), String::new()),
        };
        let head: Vec<String> = head
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if items.is_empty() {
            out.push((private, head));
        } else {
            for item in items.split(',') {
                let mut path = head.clone();
                path.extend(
                    item.split("::")
                        .map(|s| s.trim_matches(|c: char| !c.is_alphanumeric() && c != '_'))
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                );
                out.push((private, path));
            }
        }
    }
    // Paths in code.
    for start in ["crate::tui::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: Vec<String> = code[at..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            out.push((false, path));
        }
    }
    out
}

/// Each file's imports, as files.
fn graph() -> BTreeMap<String, Vec<String>> {
    let files = sources();
    let mut graph = BTreeMap::new();
    for (file, text) in &files {
        let module = module_of(file);
        let mut edges = Vec::new();
        for (private_use, path) in paths_in(&code_of(text)) {
            let absolute: Vec<String> = match path.first().map(String::as_str) {
                Some("crate") if path.get(1).is_some_and(|s| s == "tui") => path[2..].to_vec(),
                Some("super") => {
                    let ups = path.iter().take_while(|s| *s == "super").count();
                    let mut base = module.clone();
                    base.truncate(base.len().saturating_sub(ups));
                    base.extend(path[ups..].iter().cloned());
                    base
                }
                Some("self") => {
                    let mut base = module.clone();
                    base.extend(path[1..].iter().cloned());
                    base
                }
                Some(_) if private_use => {
                    // A child module, when one of that name exists.
                    let mut base = module.clone();
                    base.extend(path.iter().cloned());
                    if resolve(&base[..=module.len()], &files).is_none() {
                        continue;
                    }
                    base
                }
                _ => continue,
            };
            if let Some(to) = resolve(&absolute, &files)
                && to != *file
                && !edges.contains(&to)
            {
                edges.push(to);
            }
        }
        graph.insert(file.clone(), edges);
    }
    graph
}

/// A circle of imports, if there is one: the files round it.
fn circle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, Vec<String>>,
        stack: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut round = stack[at..].to_vec();
            round.push(node.to_string());
            return Some(round);
        }
        if done.iter().any(|n| n == node) {
            return None;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(round) = visit(next, graph, stack, done) {
                return Some(round);
            }
        }
        stack.pop();
        done.push(node.to_string());
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_two_files_of_the_tui_import_each_other() {
    let graph = graph();
    assert!(graph.len() > 20, "read the sources: {:?}", graph.keys());
    assert!(
        graph["ui/question.rs"].contains(&"app.rs".to_string()),
        "edges are read: {graph:?}"
    );
    if let Some(round) = circle(&graph) {
        panic!("an import circle: {}", round.join(" → "));
    }
}

#[test]
fn update_never_imports_the_drawing_code() {
    let graph = graph();
    let into_ui: Vec<(String, String)> = graph
        .iter()
        .filter(|(from, _)| from.starts_with("update/"))
        .flat_map(|(from, to)| to.iter().map(move |t| (from.clone(), t.clone())))
        .filter(|(_, to)| to.starts_with("ui/"))
        .collect();
    assert!(into_ui.is_empty(), "update imports ui: {into_ui:?}");
    // And by name, however the path is spelled.
    for (file, text) in sources().iter().filter(|(f, _)| f.starts_with("update/")) {
        let code = code_of(text);
        let named = code.match_indices("ui::").any(|(at, _)| {
            !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        });
        assert!(!named, "{file} names ui::");
    }
}

/// The string literals of a piece of code (escapes left as written).
fn literals(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else { break };
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

#[test]
fn drawing_names_keys_only_through_the_keymap() {
    // The names `keymap::key_label` gives keys that are no single letter.
    let names = [
        "PgDn",
        "PgUp",
        "Enter",
        "Esc",
        "Tab",
        "Ctrl-",
        "Backspace",
        "Home",
        "End",
        "Space",
        "F1",
        "j/k",
        "g/G",
    ];
    let written = |literal: &str, name: &str| {
        literal.match_indices(name).any(|(at, _)| {
            let before = literal[..at].chars().next_back();
            let after = literal[at + name.len()..].chars().next();
            let letter = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
            !letter(before) && (name.ends_with('-') || !letter(after))
        })
    };
    assert!(
        written("▼ more below (PgDn)", "PgDn"),
        "the check finds a name"
    );
    assert!(!written("Ending", "End"), "and only whole names");
    let mut found = Vec::new();
    for (file, text) in sources().iter().filter(|(f, _)| f.starts_with("ui/")) {
        let code = code_of(text);
        for literal in literals(&code) {
            for name in names.iter().filter(|n| written(literal, n)) {
                found.push(format!("{file}: {name} in \"{literal}\""));
            }
        }
    }
    assert!(found.is_empty(), "key names written by hand: {found:#?}");
}
