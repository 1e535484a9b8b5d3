//! Snapshots of the quiz fixtures: the seed quiz's q6 (four sequence diagrams) and the
//! cognit sample's four flowcharts, at widths 100, 80 and 60.

use crate::mermaid_common as common;

use common::quiz_options;
use mermaid_terminal::{RenderOptions, render, render_plain};

const WIDTHS: [usize; 3] = [100, 80, 60];

fn q6() -> Vec<(String, String)> {
    let opts = quiz_options("seed/pr7-quiz.json", "q6");
    assert_eq!(opts.len(), 4, "q6 has four options");
    opts
}

fn cognit() -> Vec<(String, String)> {
    let opts = quiz_options("cognit/quiz.json", "q2");
    assert_eq!(
        opts.len(),
        4,
        "the cognit mermaid question has four options"
    );
    opts
}

fn snapshot_all(prefix: &str, options: &[(String, String)]) {
    for (key, source) in options {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let r = render(source, &opts);
            assert!(
                r.fallback.is_none(),
                "{prefix} {key} fell back: {:?}",
                r.fallback
            );
            for line in &r.lines {
                assert!(
                    line.width() <= width,
                    "{prefix} {key} w{width}: {:?}",
                    line.text()
                );
            }
            insta::assert_snapshot!(
                format!("{prefix}_{key}_w{width}"),
                render_plain(source, &opts)
            );
        }
    }
}

#[test]
fn seed_q6_sequence_options() {
    snapshot_all("q6", &q6());
}

#[test]
fn cognit_flowchart_options() {
    snapshot_all("cognit", &cognit());
}

#[test]
fn seed_q6_ascii() {
    for (key, source) in q6() {
        let opts = RenderOptions {
            width: 80,
            ascii: true,
        };
        let text = render_plain(&source, &opts);
        assert!(text.lines().all(|l| l.chars().count() <= 80));
        insta::assert_snapshot!(format!("q6_{key}_ascii_w80"), text);
    }
}

/// Where two options' sources differ, their renderings differ at every width.
#[test]
fn options_render_visibly_different() {
    for options in [q6(), cognit()] {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let rendered: Vec<String> = options
                .iter()
                .map(|(_, s)| render_plain(s, &opts))
                .collect();
            for i in 0..options.len() {
                for j in i + 1..options.len() {
                    if options[i].1 != options[j].1 {
                        assert_ne!(
                            rendered[i], rendered[j],
                            "options {} and {} look the same at width {width}",
                            options[i].0, options[j].0
                        );
                    }
                }
            }
        }
    }
}

/// The forced compact form (for comparing options row by row) fits and tells options apart.
#[test]
fn compact_form_of_all_options() {
    for options in [q6(), cognit()] {
        for width in WIDTHS {
            let opts = RenderOptions {
                width,
                ascii: false,
            };
            let texts: Vec<String> = options
                .iter()
                .map(|(_, s)| {
                    let r = mermaid_terminal::render_compact(s, &opts);
                    assert!(r.fallback.is_none());
                    assert!(r.lines.iter().all(|l| l.width() <= width));
                    r.lines
                        .iter()
                        .map(mermaid_terminal::Line::text)
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .collect();
            for i in 0..texts.len() {
                for j in i + 1..texts.len() {
                    assert_ne!(texts[i], texts[j]);
                }
            }
        }
    }
    let cognit_a = &cognit()[0].1;
    let compact = mermaid_terminal::render_compact(cognit_a, &RenderOptions::default());
    let text: Vec<String> = compact
        .lines
        .iter()
        .map(mermaid_terminal::Line::text)
        .collect();
    insta::assert_snapshot!("cognit_A_compact_w80", text.join("\n"));
}
