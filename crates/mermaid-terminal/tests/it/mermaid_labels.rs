//! An edge label is read as the nearest line's, so it must sit nearer its own edge than
//! any other. The drawing checks that in debug builds (a label another edge's line sits
//! strictly nearer to fails an assertion); these tests draw inputs that used to break it,
//! and every realistic set and the corpus, so the check runs on all of them.

use crate::mermaid_common as common;
use crate::mermaid_measure::{SETS, questions};

use mermaid_terminal::{Form, RenderOptions, render, render_options};

/// A deploy state machine like the ones a quiz bot writes: drawn top-down, the start
/// edge runs down beside the labelled `Ship --> deploy_gate` and under `checks failing`.
const BESIDE_START: &str = "stateDiagram-v2
    direction LR
    state deploy_gate <<choice>>
    [*] --> Ship: deploy_request.made
    state Ship {
        [*] --> Stage
        Stage --> ReadyForDeploy: mark_built()
        ReadyForDeploy --> FixesRequiredNow: verify(changes_requested)
        FixesRequiredNow --> ReadyForDeploy: push(new patches)
        ReadyForDeploy --> Accepted: verify(approved)
    }
    Ship --> deploy_gate: start()
    deploy_gate --> Landed: accepted && checks green
    deploy_gate --> Ship: checks failing
    Ship --> Paused: pause()
    Paused --> Ship: resume()
    Landed --> [*]
";

/// `checks failing` used to sit right under the start edge's run, nearer it than its own
/// line (the drawing's debug assertion fails then); now it moves along its own edge.
#[test]
fn a_label_beside_another_edge_moves_to_its_own() {
    for width in [75, 95, 120] {
        let r = common::at(BESIDE_START, width);
        let text = common::text(&r);
        assert_eq!(r.form, Form::Drawing, "at {width}:\n{text}");
        assert!(text.contains("start()"), "at {width}:\n{text}");
    }
}

/// At 75 columns `start()` sits over its own edge's run, right of the start edge's
/// vertical: one blank cell from that line it read as the start edge's label.
#[test]
fn a_label_keeps_clear_of_another_edges_line_on_its_row() {
    let text = common::text(&common::at(BESIDE_START, 75));
    let row = text
        .lines()
        .find(|l| l.contains("start()"))
        .unwrap_or_else(|| panic!("start() drawn beside its edge:\n{text}"));
    assert!(!row.contains("│ start()"), "{text}");
}

#[test]
fn every_realistic_drawing_keeps_labels_by_their_own_edges() {
    for file in SETS {
        for (_, options) in questions(file) {
            let sources: Vec<&str> = options.iter().map(|(_, s)| s.as_str()).collect();
            for width in [60, 75, 95, 160] {
                let opts = RenderOptions {
                    width,
                    ascii: false,
                };
                render_options(&sources, &opts);
                for (_, src) in &options {
                    render(src, &opts);
                }
            }
        }
    }
}

#[test]
fn every_corpus_drawing_keeps_labels_by_their_own_edges() {
    for case in common::corpus() {
        for width in [60, 75, 95, 160] {
            common::at(&case.source, width);
        }
    }
}
