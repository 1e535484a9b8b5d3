//! Shared test helpers: the peer corpus and the quiz fixtures.
#![allow(dead_code)]

pub mod labels;

use std::path::{Path, PathBuf};

/// `shared/` beside the crate (the crate moves to /work/main with `shared` still beside it).
pub fn shared_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"));
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
    let root = shared_dir().join("mermaid-corpus");
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

/// Minimal JSON string-value lookup for the quiz fixtures (no serde in dev-dependencies):
/// returns the options object of the question with `id`.
pub fn quiz_options(file: &str, id: &str) -> Vec<(String, String)> {
    let path = shared_dir().join("fixtures").join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let key = format!("\"id\": \"{id}\"");
    let at = text
        .find(&key)
        .unwrap_or_else(|| panic!("question {id} not in {file}"));
    let opts_at = at + text[at..].find("\"options\"").expect("options");
    let body = &text[opts_at..];
    let open = body.find('{').expect("{");
    let mut out = Vec::new();
    let mut rest = &body[open + 1..];
    loop {
        rest = rest.trim_start_matches([' ', '\n', '\r', '\t', ',']);
        if rest.starts_with('}') || rest.is_empty() {
            break;
        }
        let (k, r) = json_string(rest);
        let r = r.trim_start().trim_start_matches(':').trim_start();
        let (v, r) = json_string(r);
        out.push((k, v));
        rest = r;
    }
    out
}

fn json_string(s: &str) -> (String, &str) {
    let s = s.trim_start();
    assert!(
        s.starts_with('"'),
        "expected a JSON string at {:?}",
        &s[..s.len().min(20)]
    );
    let mut out = String::new();
    let mut chars = s[1..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (out, &s[i + 2..]),
            '\\' => {
                let (_, e) = chars.next().expect("escape");
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'u' => {
                        let hex: String =
                            (0..4).filter_map(|_| chars.next().map(|x| x.1)).collect();
                        out.push(
                            u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .unwrap_or('?'),
                        );
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    panic!("unterminated JSON string");
}
