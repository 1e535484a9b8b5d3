//! What a user sees on the realistic sets (`realistic-mermaid/quiz.json`, tuned with the
//! renderer; `unseen.json`, `fresh.json`, `final.json`, `fifth.json` and `sixth.json`, written without it) at the option widths
//! of 60-, 80- and 100-column terminals: questions whose four options are all pictures,
//! questions listed and why (each option alone, and the narrowest width it draws at),
//! labels shown as footnotes, footnotes whose text differs from the source, lines wider
//! than the width, and label pieces missing.
//!
//! `cargo test --test it mermaid_measure -- --nocapture` prints the table.

use crate::mermaid_common as common;

use common::labels::{labels, pieces};
use mermaid_terminal::{Form, Line, RenderOptions, Rendered, Style, render, render_options};

pub const SETS: [&str; 6] = [
    "realistic-mermaid/quiz.json",
    "realistic-mermaid/unseen.json",
    "realistic-mermaid/fresh.json",
    "realistic-mermaid/final.json",
    "realistic-mermaid/fifth.json",
    "realistic-mermaid/sixth.json",
];
const WIDTHS: [usize; 3] = [60, 75, 95];

/// The questions of a quiz-state fixture: id and options in file order.
pub fn questions(file: &str) -> Vec<(String, Vec<(String, String)>)> {
    let text = std::fs::read_to_string(common::fixtures_dir().join(file)).expect(file);
    let quiz: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    quiz["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .map(|q| {
            let id = q["id"].as_str().expect("id").to_string();
            (id.clone(), common::quiz_options(file, &id))
        })
        .collect()
}

fn opts(width: usize) -> RenderOptions {
    RenderOptions {
        width,
        ascii: false,
    }
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Footnotes under a graph drawing: a line `1 text` whose marker is drawn as an arrow.
pub fn footnotes(lines: &[Line]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| {
            l.spans.len() == 2
                && l.spans[0].style == Style::Arrow
                && l.spans[0].text.chars().count() == 2
                && l.spans[0].text.ends_with(' ')
        })
        .map(|l| l.spans[1].text.clone())
        .collect()
}

/// The narrowest width (in steps of 5, up to 200) at which one option alone is drawn.
fn draws_from(src: &str) -> Option<usize> {
    (60..=200)
        .step_by(5)
        .find(|&w| render(src, &opts(w)).form == Form::Drawing)
}

#[derive(Default)]
struct Tally {
    all_drawn: usize,
    listed: Vec<String>,
    footnoted: Vec<String>,
    changed: Vec<String>,
    overflows: Vec<String>,
    lost: Vec<String>,
}

fn tally(file: &str, width: usize) -> (usize, Tally) {
    let qs = questions(file);
    let mut t = Tally::default();
    for (id, options) in &qs {
        let sources: Vec<&str> = options.iter().map(|(_, s)| s.as_str()).collect();
        let rendered: Vec<Rendered> = render_options(&sources, &opts(width));
        if rendered.iter().all(|r| r.form == Form::Drawing) {
            t.all_drawn += 1;
        } else {
            let why: Vec<String> = options
                .iter()
                .map(|(key, src)| {
                    let alone = render(src, &opts(width));
                    match (alone.form, &alone.fallback) {
                        (Form::Drawing, _) => format!("{key} drawn"),
                        (_, Some(reason)) => format!("{key} source: {reason}"),
                        (form, None) => match draws_from(src) {
                            Some(w) => format!("{key} {form:?}, draws from {w}"),
                            None => format!("{key} {form:?}, not drawn up to 200"),
                        },
                    }
                })
                .collect();
            t.listed.push(format!("{id} ({})", why.join(", ")));
        }
        for ((key, src), r) in options.iter().zip(&rendered) {
            let name = format!("{id}{key}");
            let all_labels = labels(src);
            for f in footnotes(&r.lines) {
                if !all_labels.contains(&f) {
                    t.changed.push(format!("{name}: {f:?}"));
                }
                t.footnoted.push(format!("{name}: {f:?}"));
            }
            if let Some(l) = r.lines.iter().find(|l| l.width() > width) {
                t.overflows.push(format!("{name}: {:?}", l.text()));
            }
            let flat = squash(&r.lines.iter().map(Line::text).collect::<String>());
            for label in &all_labels {
                for piece in pieces(label) {
                    if !flat.contains(&squash(&piece)) {
                        t.lost.push(format!("{name}: {piece:?}"));
                    }
                }
            }
        }
    }
    (qs.len(), t)
}

/// Prints the table; fails on an overflow, a lost label piece or a changed footnote.
#[test]
fn both_sets_at_60_75_95() {
    let mut report = String::new();
    let mut bad = Vec::new();
    for file in SETS {
        for width in WIDTHS {
            let (n, t) = tally(file, width);
            report.push_str(&format!(
                "{file} at {width}: {}/{n} all four drawn; {} footnotes, {} changed, {} overflows, {} lost\n",
                t.all_drawn,
                t.footnoted.len(),
                t.changed.len(),
                t.overflows.len(),
                t.lost.len()
            ));
            for (what, list) in [
                ("listed", &t.listed),
                ("footnote", &t.footnoted),
                ("changed", &t.changed),
                ("overflow", &t.overflows),
                ("lost", &t.lost),
            ] {
                for item in list {
                    report.push_str(&format!("    {what} {item}\n"));
                }
            }
            bad.extend(t.changed.iter().chain(&t.overflows).chain(&t.lost).cloned());
        }
    }
    println!("\n{report}");
    assert!(bad.is_empty(), "{bad:#?}");
}
