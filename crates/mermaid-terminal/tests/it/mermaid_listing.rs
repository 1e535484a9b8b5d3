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
        rows.iter()
            .any(|r| r.contains("state Syncing: start, Fetching, Applying, end")),
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

/// A runner's states, named in quotes as a quiz bot writes them, with a start and an end.
const RUNNER: &str = "stateDiagram-v2\n    state \"Waiting for work (GET /tasks/next)\" as Waiting\n    state \"Running a claimed task\" as Working\n    [*] --> Waiting\n    Waiting --> Working: 200 task claimed\n    Working --> Waiting: task done\n    Waiting --> [*]: shutdown";

/// Two `[*]` are no repeated label: states are listed, and compared, by the text they are
/// drawn with, not as `Waiting[Waiting for work …]`.
#[test]
fn states_are_listed_and_compared_by_the_text_they_are_drawn_with() {
    let all = listed(RUNNER).join("\n");
    assert!(
        all.contains("[Waiting for work (GET /tasks/next)] ──▶ [Running a claimed task]"),
        "{all}"
    );
    assert!(!all.contains("Waiting["), "{all}");
    let other = RUNNER.replace("task done", "task finished");
    let says = mermaid_terminal::what_differs::compare(&[RUNNER, other.as_str()]);
    let rows: Vec<&str> = says.differing(0);
    assert_eq!(
        rows,
        vec!["[Running a claimed task] ──▶ [Waiting for work (GET /tasks/next)] : task done"]
    );
}
