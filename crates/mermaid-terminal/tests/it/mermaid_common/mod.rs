//! Shared test helpers: the peer corpus and the quiz fixtures.
#![allow(dead_code)]

pub mod labels;

use std::path::{Path, PathBuf};

use mermaid_terminal::{Line, RenderOptions, Rendered, render};

/// `src` rendered at `width` columns in Unicode.
pub fn at(src: &str, width: usize) -> Rendered {
    render(
        src,
        &RenderOptions {
            width,
            ascii: false,
        },
    )
}

/// A rendering's lines as plain text, one per row.
pub fn text(r: &Rendered) -> String {
    r.lines
        .iter()
        .map(Line::text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The in-repo test data (`tests/fixtures`, see its README).
pub fn fixtures_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"));
    assert!(
        dir.join("mermaid-corpus").is_dir(),
        "test data missing: expected the Mermaid corpus at {}/mermaid-corpus",
        dir.display()
    );
    dir
}

/// One corpus input.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub source: String,
}

impl Case {
    /// The diagram keyword of the first meaningful line.
    pub fn keyword(&self) -> &str {
        self.source
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("%%"))
            .and_then(|l| l.split(|c: char| c.is_whitespace() || c == ';').next())
            .unwrap_or("")
    }

    pub fn is_sequence(&self) -> bool {
        self.keyword() == "sequenceDiagram"
    }

    pub fn is_flowchart(&self) -> bool {
        matches!(self.keyword(), "graph" | "flowchart")
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every input of the corpus: golden `.txt` files (source before the `---` line) and `.mmd` files.
pub fn corpus() -> Vec<Case> {
    let root = fixtures_dir().join("mermaid-corpus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut cases = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(&root)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let golden_txt = rel.ends_with(".txt")
            && (rel.starts_with("mermaid-ascii") || rel.starts_with("beautiful-mermaid"));
        if golden_txt {
            let src: Vec<&str> = text
                .lines()
                .skip_while(|l| l.starts_with("paddingX") || l.starts_with("paddingY"))
                .take_while(|l| *l != "---")
                .collect();
            cases.push(Case {
                name: rel,
                source: src.join("\n"),
            });
        } else if rel.ends_with(".mmd") {
            cases.push(Case {
                name: rel,
                source: text,
            });
        }
    }
    assert!(
        cases.len() > 400,
        "corpus looks incomplete: {} cases",
        cases.len()
    );
    cases
}

/// The options object of the question with `id` in a quiz-state fixture, in file order.
pub fn quiz_options(file: &str, id: &str) -> Vec<(String, String)> {
    let path = fixtures_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let quiz: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let question = quiz["questions"]
        .as_array()
        .and_then(|qs| qs.iter().find(|q| q["id"] == id))
        .unwrap_or_else(|| panic!("question {id} not in {file}"));
    question["options"]
        .as_object()
        .unwrap_or_else(|| panic!("question {id} in {file} has no options object"))
        .iter()
        .map(|(k, v)| {
            let v = v
                .as_str()
                .unwrap_or_else(|| panic!("option {k} of {id} is not a string"));
            (k.clone(), v.to_string())
        })
        .collect()
}

/// A drawing with its marks under each row (`^` under a marked cell), for test messages.
pub fn show(r: &mermaid_terminal::Rendered, m: &mermaid_terminal::compare::Marks) -> String {
    let mut out = String::new();
    for (line, marks) in r.lines.iter().zip(m) {
        out.push_str(&line.text());
        out.push('\n');
        let mut under = String::new();
        for range in marks {
            while under.chars().count() < range.start {
                under.push(' ');
            }
            while under.chars().count() < range.end {
                under.push('^');
            }
        }
        if !under.is_empty() {
            out.push_str(&under);
            out.push('\n');
        }
    }
    out
}
