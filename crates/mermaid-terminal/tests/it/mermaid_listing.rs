//! The listing (compact form) of state diagrams: every state named so a reader tells it
//! apart, in the brackets the listing gives shapes.

use mermaid_terminal::{RenderOptions, render_compact};

/// Like a quiz bot's job lifecycle: a composite with its own start and end, and a choice.
const LIFECYCLE: &str = "stateDiagram-v2\n    [*] --> Queued\n    Queued --> Syncing: worker.pick(job)\n    state Syncing {\n        [*] --> Fetching\n        Fetching --> Applying: batch read\n        Applying --> Fetching: more batches\n        Applying --> [*]: last batch applied\n    }\n    state outcome <<choice>>\n    Syncing --> outcome: sync ended\n    outcome --> Done: errors == 0\n    outcome --> Parked: errors > 0\n    Done --> [*]\n    Parked --> [*]";

fn listed(source: &str) -> Vec<String> {
    let opts = RenderOptions {
        width: 75,
        ascii: false,
    };
    render_compact(source, &opts)
        .lines
        .iter()
        .map(mermaid_terminal::Line::text)
        .collect()
}

#[test]
fn a_composites_start_and_end_are_named_apart_and_a_choice_is_bracketed() {
    let rows = listed(LIFECYCLE);
    let all = rows.join("\n");
    assert!(
        rows.iter().any(|r| r
            .contains("subgraph Syncing: start of Syncing, Fetching, Applying, end of Syncing")),
        "{all}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("start of Syncing ──▶ Fetching")),
        "{all}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("Applying ──▶ end of Syncing")),
        "{all}"
    );
    assert!(
        rows.iter().any(|r| r.starts_with("{outcome} ──▶ Done")),
        "{all}"
    );
    assert!(!all.contains("<<choice>>"), "{all}");
    assert!(!all.contains("[*] of"), "{all}");
}
