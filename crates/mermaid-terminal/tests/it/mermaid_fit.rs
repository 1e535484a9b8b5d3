//! Diagrams that were listed at the width of an 80-column terminal (or narrower) and are
//! now drawn, each on an input of its own: what kept them from fitting, and that the
//! drawing still says what the source says.

use crate::mermaid_common::{at, text};
use mermaid_terminal::Form;

/// Drawn, within `width`, every word of `words` on some line.
fn assert_drawn_with(src: &str, width: usize, words: &[&str]) -> String {
    let r = at(src, width);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
    assert!(r.lines.iter().all(|l| l.width() <= width), "{all}");
    for w in words {
        assert!(all.contains(w), "{w:?} missing:\n{all}");
    }
    all
}

/// A long note made every label wrap at its own narrowest width: the messages could not
/// wrap narrower than what the note needed, so the diagram was listed below 75 columns.
/// Each label now has its own floor.
#[test]
fn a_long_note_does_not_keep_messages_from_wrapping() {
    let src = "sequenceDiagram
    participant Shop as storefront
    participant Cart as cart service
    participant Pay as payment gateway
    participant Ledger as ledger
    Shop->>Cart: add line item with quantity and price
    Note over Shop,Cart: prices are frozen when the item lands in the cart so a later catalogue change never alters an open order
    Cart->>Pay: authorise the order total in cents
    Pay-->>Cart: authorisation code or a decline reason
    Pay->>Ledger: record a pending charge for the order";
    let all = assert_drawn_with(src, 60, &["authorise the", "catalogue", "decline"]);
    // the note keeps its whole text, in its box over the two lifelines
    assert!(all.contains("prices are frozen"), "{all}");
}

/// Messages between close lifelines wrap down to 8 columns (they stopped at 12, and the
/// diagram was listed) while each adds at most a few rows.
#[test]
fn messages_wrap_narrower_between_close_lifelines() {
    let src = "sequenceDiagram
    participant A as admin console
    participant S as scheduler
    participant W as worker pool
    participant D as database
    A->>S: pause every nightly job now
    S->>W: drain the queue before stopping
    W->>D: mark jobs as paused in one transaction
    D-->>W: rows updated
    W-->>S: drained
    S-->>A: paused";
    let all = assert_drawn_with(src, 50, &["transaction", "stopping", "nightly"]);
    // no word is cut
    for w in ["transaction", "scheduler", "database"] {
        assert!(all.lines().any(|l| l.contains(w)), "{w}\n{all}");
    }
}

const SIX: &str = "sequenceDiagram
    participant I as order intake queue
    participant F as fraud scoring engine
    participant R as pricing rules engine
    participant T as tax calculation service
    participant N as customer notification hub
    participant A as audit trail writer
    I->>F: score against velocity limits
    F->>R: price for the segment
    R->>T: tax
    T->>N: notify
    N->>A: audit
    A-->>I: done";

/// Six participants whose names, even wrapped into three lines, make boxes wider than 75
/// columns with a space inside each side: the boxes hug their names instead, and get the
/// spaces back where the lifelines leave room.
#[test]
fn six_long_participant_names_fit_in_boxes_that_hug_them() {
    let all = assert_drawn_with(SIX, 75, &["notification", "calculation", "velocity"]);
    assert!(all.contains("│order │"), "{all}");
    // the fraud engine's lifeline has room on both sides: its box keeps its spaces
    assert!(all.contains("│ scoring │"), "{all}");
    // wide enough, every box keeps its inner spaces
    let wide = assert_drawn_with(SIX, 95, &["notification"]);
    assert!(!wide.contains("│order"), "{wide}");
}

/// A label wider than its gap breaks after the `.` that follows a call or an index
/// (`rows[0].` `created_at`), as it does between two names, rather than needing the room
/// for the whole word.
#[test]
fn a_label_breaks_after_an_index_or_a_call() {
    let src = "sequenceDiagram
    participant API as orders api
    participant DB as postgres
    participant Q as outbox
    API->>DB: SELECT id FROM orders LIMIT 1
    DB-->>API: rows[0].created_at
    API->>Q: publish(event).await";
    let all = assert_drawn_with(src, 40, &["created_at"]);
    assert!(
        all.lines()
            .any(|l| l.contains("rows[0].") && !l.contains("created_at")),
        "{all}"
    );
}

const TWO_FRAMES: &str = "flowchart TD
    subgraph ingest [Ingest service: services/ingest/main.go]
        recv[receive_batch(conn)] --> check{checksum ok?}
        check -->|no| reject[send_nack(batch_id)]
    end
    subgraph archive [Cold archive: services/archive/writer.go]
        put[put_object(bucket, key)]
    end
    check -->|yes| put";

/// Two subgraphs side by side whose titles (a name and a path) are wider than what they
/// hold were as wide as their titles on one line: the pair was listed below 105 columns.
/// A title now wraps like the labels, its first line on the top border and the others
/// under it; broken only at its spaces, but at the narrowest wrap, and wrapped again to
/// its frame when the frame turned out wider.
#[test]
fn subgraph_titles_wider_than_their_members_wrap() {
    let all = assert_drawn_with(TWO_FRAMES, 95, &["Cold archive:", "yes", "no"]);
    let row = |w: &str| all.lines().position(|l| l.contains(w));
    // broken at the space, the path whole under the name, inside the frame
    assert!(all.contains("┌─ Ingest service: ─"), "{all}");
    assert_eq!(
        row("Ingest service:").map(|r| r + 1),
        row("│  services/ingest/main.go"),
        "{all}"
    );
    assert!(all.contains("│  services/archive/writer.go │"), "{all}");
    // at an 80-column terminal too, every part of both titles shown
    let narrow = assert_drawn_with(TWO_FRAMES, 75, &["Ingest", "archive/", "writer.go"]);
    assert!(narrow.contains("main.go"), "{narrow}");
    // narrower still, a path breaks after a `/` (`services/` `archive/`), and a title
    // wrapped narrower than its frame turned out is wrapped again to the frame
    let narrower = assert_drawn_with(TWO_FRAMES, 60, &["writer.go"]);
    assert!(
        narrower.contains("│  services/ingest/main.go"),
        "{narrower}"
    );
    assert!(
        !narrower.contains("services/archive/writer.go"),
        "{narrower}"
    );
}

/// A subgraph member that nothing enters was ranked at the top, so its frame reached up
/// over every layer above the member it feeds and pushed the nodes ranked there aside. It
/// now sits right above what it feeds.
#[test]
fn a_subgraph_member_nothing_enters_sits_above_what_it_feeds() {
    let src = "flowchart TB
    req[incoming request] --> auth[check session cookie]
    auth --> route[match route table]
    route --> handler
    subgraph workers [worker pool]
        spawn[spawn worker threads] --> handler[run handler]
    end";
    let all = assert_drawn_with(src, 60, &["spawn worker", "run handler", "worker pool"]);
    let row = |w: &str| all.lines().position(|l| l.contains(w)).unwrap();
    assert!(row("spawn worker") > row("check session"), "{all}");
    assert!(row("worker pool") > row("incoming"), "{all}");
}

/// Two edge labels on one row, a space apart, read as one label (`resubmit auto
/// approve`): a label keeps two cells off any other.
#[test]
fn labels_of_two_edges_never_run_together() {
    let src = "stateDiagram-v2
    state check <<choice>>
    [*] --> Draft
    Draft --> check : submit
    Review --> check : resubmit
    check --> Review : needs review
    check --> Published : auto approve
    Review --> Published : approve
    Published --> [*]";
    for width in [60, 75] {
        let all = assert_drawn_with(src, width, &["resubmit", "auto approve", "needs review"]);
        for line in all.lines() {
            for (a, b) in [("resubmit", "auto"), ("review", "resubmit")] {
                let joined = format!("{a} {b}");
                assert!(!line.contains(&joined), "{joined:?} at {width}:\n{all}");
            }
        }
    }
}

/// A `flowchart RL` too wide for the terminal is turned a quarter, so it runs bottom-up;
/// its note said "top-down" while every arrow pointed up.
#[test]
fn a_right_to_left_flowchart_turned_to_fit_says_it_runs_bottom_up() {
    let src = r#"flowchart RL
    open["os.Open(artifact.Path)"] --> sum["sha256.Sum256(data)"]
    sum --> head{"HEAD /artifacts/{digest} == 200?"}
    head -->|yes| skip(["skip: already stored"])
    head -->|no| put["retry_with_backoff(&req, 3)"]
    put --> insert[("artifacts.Insert(ctx, meta)")]"#;
    let all = assert_drawn_with(src, 75, &["os.Open(artifact.Path)", "artifacts.Insert("]);
    let first = all.lines().next().unwrap_or_default();
    assert_eq!(first, "drawn bottom-up to fit", "{all}");
    assert!(all.contains('▲') && !all.contains('▼'), "{all}");
}
