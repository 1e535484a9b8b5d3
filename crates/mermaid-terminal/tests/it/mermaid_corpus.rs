//! Every sequence and flowchart input of the peer corpus: renders without panic, keeps every
//! label, fits the width, keeps order, keeps arrow kinds apart. Run with `--nocapture` to see
//! the fallback counts grouped by reason.

use crate::mermaid_common as common;

use common::labels::{flowchart_labels, pieces, sequence_labels};
use common::{Case, corpus};
use mermaid_terminal::{RenderOptions, render, render_plain};
use std::collections::BTreeMap;

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Output text without whitespace and without drawing characters, for order checks.
fn reading_text(s: &str) -> String {
    s.chars()
        .filter(|c| {
            !c.is_whitespace()
                && !('\u{2500}'..='\u{259f}').contains(c)
                && !"▶◀▲▼▷◁△▽×╳○◆◇●◉".contains(*c)
        })
        .collect()
}

fn reason_group(reason: &str) -> String {
    reason
        .split([':', '`'])
        .next()
        .unwrap_or(reason)
        .trim()
        .to_string()
}

fn check_labels(case: &Case, labels: &[String], out: &str, failures: &mut Vec<String>) {
    let flat = squash(out);
    for label in labels {
        for piece in pieces(label) {
            if !flat.contains(&squash(&piece)) {
                failures.push(format!(
                    "{}: label piece {piece:?} of {label:?} missing",
                    case.name
                ));
            }
        }
    }
}

#[test]
fn corpus_sequence_and_flowchart() {
    let cases = corpus();
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut reasons: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut drawn_counts: BTreeMap<(&str, usize), (usize, usize)> = BTreeMap::new();
    let mut compact_names: Vec<String> = Vec::new();
    for case in &cases {
        let kind = if case.is_sequence() {
            "sequence"
        } else if case.is_flowchart() {
            "flowchart"
        } else {
            "other"
        };
        for width in [80usize, 60] {
            for ascii in [false, true] {
                let opts = RenderOptions { width, ascii };
                let r = render(&case.source, &opts);
                for line in &r.lines {
                    if line.width() > width {
                        failures.push(format!(
                            "{} (w{width}, ascii {ascii}): line wider than {width}: {:?}",
                            case.name,
                            line.text()
                        ));
                    }
                }
                if !ascii && r.fallback.is_none() && kind != "other" {
                    let drawn = r
                        .lines
                        .iter()
                        .any(|l| l.text().contains(['┌', '╭', '╱', '●']));
                    let e = drawn_counts.entry((kind, width)).or_default();
                    e.0 += usize::from(drawn);
                    e.1 += usize::from(!drawn);
                    if !drawn && width == 80 {
                        compact_names.push(case.name.clone());
                    }
                }
                if width == 80 && !ascii {
                    let entry = counts.entry(kind).or_default();
                    entry.0 += 1;
                    if let Some(reason) = &r.fallback {
                        entry.1 += 1;
                        reasons
                            .entry((kind.to_string(), reason_group(reason)))
                            .or_default()
                            .push(case.name.clone());
                    }
                }
                if r.fallback.is_some() || ascii || kind == "other" {
                    continue;
                }
                let out = render_plain(&case.source, &opts);
                if kind == "sequence" {
                    let (messages, others) = sequence_labels(&case.source);
                    check_labels(case, &messages, &out, &mut failures);
                    check_labels(case, &others, &out, &mut failures);
                    // Messages keep their order.
                    let text = reading_text(&out);
                    let mut at = 0usize;
                    for m in &messages {
                        let Some(first) = pieces(m).into_iter().next() else {
                            continue;
                        };
                        match text[at..].find(&squash(&first)) {
                            Some(p) => at += p + 1,
                            None => failures.push(format!(
                                "{} (w{width}): message {m:?} out of order",
                                case.name
                            )),
                        }
                    }
                } else {
                    check_labels(case, &flowchart_labels(&case.source), &out, &mut failures);
                }
            }
        }
    }
    println!("\n== corpus at width 80 (unicode) ==");
    for (kind, (n, fb)) in &counts {
        println!("{kind:>10}: {n} cases, {fb} fall back to source");
    }
    for ((kind, reason), names) in &reasons {
        println!(
            "  [{kind}] {reason}: {} ({})",
            names.len(),
            names.iter().take(4).cloned().collect::<Vec<_>>().join(", ")
        );
    }
    for ((kind, width), (drawn, compact)) in &drawn_counts {
        println!("{kind:>10} at width {width}: {drawn} drawn, {compact} in the compact list form");
    }
    if std::env::var_os("MM_LIST_COMPACT").is_some() {
        println!("compact at 80: {compact_names:#?}");
    }
    for f in failures.iter().take(60) {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} corpus failures (first: {})",
        failures.len(),
        failures[0]
    );
    let (seq, seq_fb) = counts.get("sequence").copied().unwrap_or_default();
    let (flow, flow_fb) = counts.get("flowchart").copied().unwrap_or_default();
    assert!(
        seq >= 134 && flow >= 344,
        "corpus counts too low: {seq} sequence, {flow} flowchart"
    );
    assert!(
        seq_fb * 20 <= seq,
        "too many sequence fallbacks: {seq_fb}/{seq}"
    );
    assert!(
        flow_fb * 10 <= flow,
        "too many flowchart fallbacks: {flow_fb}/{flow}"
    );
}

const FLIPS: &[(&str, &str)] = &[
    ("<<-->>", "<<->>"),
    ("<<->>", "<<-->>"),
    ("-->>", "->>"),
    ("->>", "-->>"),
    ("--)", "-)"),
    ("-)", "--)"),
    ("--x", "-x"),
    ("-x", "--x"),
    ("-->", "->"),
    ("->", "-->"),
];

/// Flipping one message between solid and dotted always changes the picture.
#[test]
fn corpus_solid_and_dotted_never_render_alike() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in corpus().iter().filter(|c| c.is_sequence()) {
        let lines: Vec<&str> = case.source.lines().collect();
        for width in [80, 60] {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let base = render(&case.source, &opts);
            if base.fallback.is_some() {
                continue;
            }
            let base = render_plain(&case.source, &opts);
            let mut flips = 0;
            for (i, line) in lines.iter().enumerate() {
                let Some((head, _)) = line.split_once(':') else {
                    continue;
                };
                let Some((from, to)) = FLIPS.iter().find(|(a, _)| head.contains(a)) else {
                    continue;
                };
                if flips >= 6 {
                    break;
                }
                flips += 1;
                let mut changed = lines.clone();
                let new_line = line.replacen(from, to, 1);
                changed[i] = &new_line;
                let variant = changed.join("\n");
                checked += 1;
                if render_plain(&variant, &opts) == base {
                    failures.push(format!(
                        "{} line {i} ({from} -> {to}) renders the same at width {width}",
                        case.name
                    ));
                }
            }
        }
    }
    println!("checked {checked} arrow flips");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Flipping one flowchart edge between solid, dotted and thick always changes the picture.
#[test]
fn corpus_flowchart_edge_kinds_never_render_alike() {
    let mut failures = Vec::new();
    for case in corpus().iter().filter(|c| c.is_flowchart()) {
        let opts = RenderOptions {
            width: 80,
            ascii: false,
        };
        let base = render(&case.source, &opts);
        if base.fallback.is_some() {
            continue;
        }
        let base = render_plain(&case.source, &opts);
        let lines: Vec<&str> = case.source.lines().collect();
        let mut flips = 0;
        for (i, line) in lines.iter().enumerate() {
            if flips >= 4 || line.contains("-->|") && line.matches("-->").count() > 1 {
                continue;
            }
            if !line.contains("-->") {
                continue;
            }
            flips += 1;
            let mut changed = lines.clone();
            let new_line = line.replacen("-->", "-.->", 1);
            changed[i] = &new_line;
            if render_plain(&changed.join("\n"), &opts) == base {
                failures.push(format!(
                    "{} line {i}: --> and -.-> render the same",
                    case.name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
