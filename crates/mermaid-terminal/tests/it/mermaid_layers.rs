//! Diagrams whose layers grow too wide as a quiz bot writes them: a `<<choice>>`
//! fanning out to three states with guards, a composite state, several states ending in
//! `[*]`, a choice declared before the first transition; an interface with four
//! implementations; a worker subgraph whose decision ends outside it. Each is drawn at 75
//! columns (the option width of an 80-column terminal), every label on the picture; two
//! frames side by side at 60.

use crate::mermaid_common::labels::{labels, pieces};
use crate::mermaid_common::{at, text};
use mermaid_terminal::{Form, Rendered};

const WIDTH: usize = 75;

/// The picture at `WIDTH`, checked: drawn, no line too wide, every label piece on it.
fn drawn_whole(src: &str) -> Rendered {
    drawn_whole_at(src, WIDTH)
}

/// The picture at `width`, checked as [`drawn_whole`] checks it.
fn drawn_whole_at(src: &str, width: usize) -> Rendered {
    let r = at(src, width);
    let picture = text(&r);
    assert_eq!(r.form, Form::Drawing, "not drawn at {width}:\n{picture}");
    assert!(
        r.lines.iter().all(|l| l.width() <= width),
        "wider than {width}:\n{picture}"
    );
    let flat: String = picture.chars().filter(|c| !c.is_whitespace()).collect();
    for piece in labels(src).iter().flat_map(|l| pieces(l)) {
        let piece: String = piece.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(flat.contains(&piece), "{piece:?} missing:\n{picture}");
    }
    r
}

/// The row of the first line holding `glyph`.
fn row_of(r: &Rendered, glyph: char) -> Option<usize> {
    text(r).lines().position(|l| l.contains(glyph))
}

/// A choice declared before the first transition: the cycles were broken from the first
/// node named, so the edge into the choice was turned and the diagram hung from the choice,
/// its start drawn below it (and at 75 columns not drawn at all).
const CHOICE_FIRST: &str = "stateDiagram-v2
    state verdict <<choice>>
    [*] --> Submitted: upload(build)
    Submitted --> Scanning: scanner.pick()
    Scanning --> Submitted: scanner lost [no progress 60s]
    Scanning --> Testing: scan clean
    state Testing {
        [*] --> Unit
        Unit --> Integration: unit suite green
        Integration --> [*]
    }
    Testing --> verdict
    verdict --> Released: all_green == true
    verdict --> Flaky: failures && reruns < 2
    verdict --> Rejected: reruns >= 2
    Flaky --> Scanning: rerun queued
    Released --> [*]
    Rejected --> [*]";

#[test]
fn a_choice_declared_first_hangs_below_the_start() {
    let r = drawn_whole(CHOICE_FIRST);
    let start = row_of(&r, '●');
    let choice = row_of(&r, '◆');
    assert!(
        start.zip(choice).is_some_and(|(s, c)| s < c),
        "start not above the choice:\n{}",
        text(&r)
    );
}

/// A choice fanning out to three states beside the states that end in `[*]`, one of them
/// retrying far back up, with a note: every sink sat right under the choice, one layer too
/// wide for 75 columns while the next held only `[*]`.
const FANOUT_BESIDE_SINKS: &str = "stateDiagram-v2
    [*] --> Waiting
    Waiting --> Syncing: worker.lease(repo_id)
    state Syncing {
        direction LR
        [*] --> Fetching
        Fetching --> Applying: batch fetched
        Applying --> [*]: cursor saved
    }
    state outcome <<choice>>
    Syncing --> outcome: batch loop ended
    outcome --> Done: errors == 0
    outcome --> Backoff: errors > 0 and attempts < 5
    outcome --> Broken: attempts exhausted
    Backoff --> Waiting: sleep then requeue
    Waiting --> Aborted: abort() before lease
    Syncing --> Aborted: abort() at batch end
    note right of Backoff: wait = 10s * 2^attempts
    Done --> [*]
    Broken --> [*]
    Aborted --> [*]";

#[test]
fn a_fanout_beside_its_sinks_fits_by_moving_a_sink_down() {
    let r = drawn_whole(FANOUT_BESIDE_SINKS);
    let picture = text(&r);
    let row = |name: &str| picture.lines().position(|l| l.contains(name));
    // the retry drawn under its siblings, level with nothing but the end
    assert!(
        row("Backoff").zip(row("Done")).is_some_and(|(b, d)| b > d),
        "Backoff not below Done:\n{picture}"
    );
}

/// A composite state written `direction LR` in a top-down diagram is drawn top-down with
/// the rest: the picture says so, as it does when the whole diagram is turned.
#[test]
fn a_composite_drawn_across_its_own_direction_says_so() {
    let r = drawn_whole(FANOUT_BESIDE_SINKS);
    let picture = text(&r);
    assert_eq!(
        picture.lines().next(),
        Some("Syncing drawn top-down to fit"),
        "{picture}"
    );
    let without = at(&FANOUT_BESIDE_SINKS.replace("direction LR", ""), WIDTH);
    assert!(!text(&without).contains("to fit"), "{}", text(&without));
}

/// An interface with four implementations, each with two fields: the four boxes side by
/// side are wider than 75 columns, and there is no layer below to move one to.
const FOUR_IMPLEMENTATIONS: &str = "classDiagram
    class Notifier {
        <<interface>>
        +notify(event: &ReviewEvent) Result~()~
    }
    class Dispatcher {
        -channels: Vec~Box~dyn Notifier~~
        +dispatch(event: ReviewEvent)
    }
    class EmailNotifier {
        -smtp: SmtpTransport
        -from: Mailbox
    }
    class SlackNotifier {
        -webhook_url: Url
        -client: reqwest::Client
    }
    class MatrixNotifier {
        -room_id: OwnedRoomId
        -session: MatrixSession
    }
    class ConsoleNotifier {
        -colour: bool
        -writer: Stderr
    }
    Dispatcher o-- Notifier : channels
    Notifier <|.. EmailNotifier
    Notifier <|.. SlackNotifier
    Notifier <|.. MatrixNotifier
    Notifier <|.. ConsoleNotifier";

#[test]
fn four_leaves_too_wide_side_by_side_are_drawn_in_two_rows() {
    let r = drawn_whole(FOUR_IMPLEMENTATIONS);
    let picture = text(&r);
    let row = |name: &str| picture.lines().position(|l| l.contains(name));
    let rows: Vec<Option<usize>> = ["EmailNotifier", "SlackNotifier", "MatrixNotifier"]
        .into_iter()
        .chain(["ConsoleNotifier"])
        .map(row)
        .collect();
    assert!(rows.iter().all(Option::is_some), "{picture}");
    assert!(rows.iter().any(|&r| r != rows[0]), "one row:\n{picture}");
}

/// A worker subgraph (`direction TB` in an LR flowchart) whose decision leads back into a
/// nested retry frame and out to two ends outside it: drawn top-down, the two ends beside
/// the retry frame made the frame's last layer too wide for 75 columns.
const DECISION_OUT_OF_A_WORKER: &str = r#"flowchart LR
    subgraph api ["src/api/upload.rs"]
        route["upload_handler(Multipart)"] --> spool[("pending_uploads")]
    end
    subgraph scan ["src/scan/runner.rs"]
        direction TB
        pick["claim_upload(&pool)"] --> run["scan_file(&upload, &engine)"]
        run --> verdict{"verdict?"}
        subgraph backoff ["rescan policy"]
            wait["schedule_rescan(upload.tries)"]
        end
        verdict -->|"engine busy"| wait
        wait --> pick
    end
    spool --> pick
    verdict -->|clean| publish["publish_upload(upload.id)"]
    verdict -->|"infected / tries >= 5"| quarantine[("quarantined_uploads")]"#;

#[test]
fn ends_outside_a_worker_frame_move_below_it_to_fit() {
    let r = drawn_whole(DECISION_OUT_OF_A_WORKER);
    let picture = text(&r);
    assert!(picture.starts_with("drawn top-down to fit"), "{picture}");
    let row = |name: &str| picture.lines().position(|l| l.contains(name));
    assert!(
        row("publish_upload")
            .zip(row("schedule_rescan"))
            .is_some_and(|(p, s)| p > s),
        "publish_upload not below the retry frame:\n{picture}"
    );
}

/// Two subgraphs top-down, a retry loop in the first and an edge from the middle of the
/// loop into the second: the loop's nodes pulled toward the second frame spread the first
/// one, and the two frames side by side were too wide for 60 columns.
const RETRY_LOOP_BESIDE_A_FRAME: &str = "flowchart TD
    subgraph sync [Mirror sync: src/mirror/sync.rs]
        list[list_refs(remote, prefix)] --> push[push_with_retry(refs, 5)]
        push --> check{exit code != 0?}
        check -->|yes, retries left| wait[sleep_ms *= 2]
        wait --> push
    end
    subgraph log [Audit journal: src/audit/log.rs]
        append[append_entry(fd, &event)] --> flush[fsync_journal(fd)]
    end
    push -->|pushed| append";

#[test]
fn a_frame_pulled_only_by_its_own_members_fits_beside_another() {
    let r = drawn_whole_at(RETRY_LOOP_BESIDE_A_FRAME, 60);
    let picture = text(&r);
    assert!(!picture.contains("to fit"), "turned:\n{picture}");
}
