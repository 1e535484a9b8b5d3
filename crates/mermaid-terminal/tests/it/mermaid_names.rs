//! Flowcharts whose boxes hold function names a quiz bot writes whole
//! (`upload_release_artifacts()`): no wrap width breaks inside a name, so as a last resort
//! a node label is cut after a `_` or `-` inside it.

use crate::mermaid_common::labels::{flowchart_labels, pieces};
use crate::mermaid_common::{at, text};
use mermaid_terminal::Form;

/// A loop through a decision, a subgraph whose members are named after functions, and a
/// back edge round them all: one layer needs a 28-column box beside the subgraph.
const RELEASE_LOOP: &str = "flowchart TB
    poll[poll job queue] --> pick{Scheduler::next_job(queue)}
    pick -->|Some Job::Build| build[runner.active += 1]
    pick -->|Some Job::Publish| publish[upload_release_artifacts()]
    pick -->|None| poll
    subgraph release [release: src/release/mod.rs]
        publish --> signed[sign_artifacts_locally(&keys)]
        notes[render_release_notes(&changelog)] --> signed
    end
    build --> report[status.report(&runner)]
    notes --> report
    report --> poll
";

#[test]
fn function_names_cut_inside_when_nothing_else_fits_75_columns() {
    let r = at(RELEASE_LOOP, 75);
    assert_eq!(r.form, Form::Drawing, "{}", text(&r));
    let drawn = text(&r);
    for label in flowchart_labels(RELEASE_LOOP) {
        for piece in pieces(&label) {
            assert!(
                drawn.contains(&piece),
                "`{piece}` of `{label}` lost:\n{drawn}"
            );
        }
    }
    // where the name fits whole it stays whole
    let wide = text(&at(RELEASE_LOOP, 160));
    assert!(wide.contains("upload_release_artifacts()"), "{wide}");
}
