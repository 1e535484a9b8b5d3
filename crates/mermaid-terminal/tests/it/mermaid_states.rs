//! State diagrams as a quiz bot writes them: composite states entered and left, guards on
//! `<<choice>>` branches, long event labels; and a flowchart whose loop runs through
//! nested subgraphs, as cycles are now broken one nesting level at a time. One test per
//! defect class the realistic sets showed.

use crate::mermaid_common::{at, text};
use mermaid_terminal::{Form, Line, Rendered};

fn rows(r: &Rendered) -> Vec<Vec<char>> {
    r.lines
        .iter()
        .map(|l| Line::text(l).chars().collect())
        .collect()
}

/// (row, column) of the first cell of `needle`, in chars.
fn find(grid: &[Vec<char>], needle: &str) -> Option<(usize, usize)> {
    let n: Vec<char> = needle.chars().collect();
    grid.iter().enumerate().find_map(|(r, row)| {
        row.windows(n.len())
            .position(|w| w == n.as_slice())
            .map(|c| (r, c))
    })
}

/// The frame titled `title`: (top, left, bottom, right) cells of its border.
fn frame(grid: &[Vec<char>], title: &str) -> (usize, usize, usize, usize) {
    let (top, at) = find(grid, &format!("─ {title} ")).expect("frame title");
    let left = (0..at)
        .rev()
        .find(|&c| grid[top][c] == '┌')
        .expect("frame's top left corner");
    let right = (left..grid[top].len())
        .find(|&c| grid[top][c] == '┐')
        .expect("frame's top right corner");
    let bottom = (top + 1..grid.len())
        .find(|&r| grid[r].get(left) == Some(&'└'))
        .expect("frame's bottom left corner");
    (top, left, bottom, right)
}

/// Is the text `needle` drawn inside the frame titled `title`?
fn inside(grid: &[Vec<char>], needle: &str, title: &str) -> bool {
    let (top, left, bottom, right) = frame(grid, title);
    let (r, c) = find(grid, needle).expect("label drawn");
    top < r && r < bottom && left < c && c < right
}

/// A composite state with transitions into and out of it, and a state both entered from
/// it and returning to it: it was listed at every width (cycles broken one constraint at a
/// time put `Parked` inside `Review`'s frame, and the frame ends never settled).
const REVIEW: &str = "stateDiagram-v2
    direction LR
    [*] --> Review: open_pr()
    state Review {
        [*] --> Pending
        Pending --> Checking: ci_started
        Checking --> Rework: ci_failed
        Rework --> Pending: push()
        Checking --> Passed: ci_green
    }
    Review --> Parked: park()
    Parked --> Review: unpark()
    Review --> Merged: merge()
    Merged --> [*]";

#[test]
fn a_state_entered_from_and_returning_to_a_composite_is_drawn_outside_it() {
    for width in [75, 95, 200] {
        let r = at(REVIEW, width);
        let all = text(&r);
        assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
        let grid = rows(&r);
        for state in ["Parked", "Merged"] {
            assert!(
                !inside(&grid, state, "Review"),
                "at {width}: {state}\n{all}"
            );
        }
        for state in ["Pending", "Checking", "Rework", "Passed"] {
            assert!(inside(&grid, state, "Review"), "at {width}: {state}\n{all}");
        }
    }
}

/// A guard `<<choice>>` that sends one branch back to the state before it: the arrow into
/// the choice ended on the bar beside the `◆` (`◆──` over `▲`), so it read as leaving it.
const VERDICT: &str = "stateDiagram-v2
    state verdict <<choice>>
    [*] --> Grading
    Grading --> verdict: graded
    verdict --> Passed: [ok]
    verdict --> Grading: [retry]
    verdict --> Failed: [fail]
    Passed --> [*]
    Failed --> [*]";

/// Does an arrowhead next to the `◆` point into it?
fn arrow_on_mark(grid: &[Vec<char>]) -> bool {
    let Some((r, c)) = find(grid, "◆") else {
        return false;
    };
    let at = |r: Option<usize>, c: Option<usize>| {
        r.zip(c)
            .and_then(|(r, c)| grid.get(r).and_then(|row| row.get(c)))
            .copied()
    };
    [
        (at(r.checked_sub(1), Some(c)), '▼'),
        (at(Some(r + 1), Some(c)), '▲'),
        (at(Some(r), c.checked_sub(1)), '▶'),
        (at(Some(r), Some(c + 1)), '◀'),
    ]
    .iter()
    .any(|&(cell, head)| cell == Some(head))
}

#[test]
fn an_arrow_into_a_choice_ends_on_its_mark() {
    for src in [
        VERDICT.to_string(),
        VERDICT.replace("stateDiagram-v2", "stateDiagram-v2\n    direction LR"),
    ] {
        for width in [60, 75, 95] {
            let r = at(&src, width);
            let all = text(&r);
            assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
            assert!(arrow_on_mark(&rows(&r)), "at {width}:\n{all}");
        }
    }
}

/// The lines under a drawing that give a footnote's text (`1 text`).
fn footnotes(all: &str) -> Vec<&str> {
    all.lines()
        .filter(|l| {
            let mut c = l.chars();
            c.next().is_some_and(|d| d.is_ascii_digit()) && c.next() == Some(' ')
        })
        .collect()
}

/// A worker's job states with events as long as a quiz bot writes them.
const JOBS: &str = "stateDiagram-v2
    [*] --> Idle
    Idle --> Verifying: webhook_received / verify_signature()
    Verifying --> Queued: signature ok
    Verifying --> Rejected: bad signature
    Queued --> Running: worker picked the job up
    Running --> Queued: transient error, retry later
    Running --> Done: job finished
    Done --> [*]
    Rejected --> [*]";

/// A label with no room on one line beside its edge became a footnote; it wraps at its
/// spaces first and stays beside the edge, its text unchanged.
#[test]
fn a_label_without_room_wraps_beside_its_edge_before_it_becomes_a_footnote() {
    let r = at(JOBS, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(footnotes(&all).is_empty(), "{all}");
    // broken at the space after the comma, never inside a word
    let first = find(&rows(&r), "transient error,").expect("first line");
    let second = find(&rows(&r), "retry later").expect("second line");
    assert_eq!(second.0, first.0 + 1, "{all}");
    assert!(
        all.contains("webhook_received / verify_signature()"),
        "{all}"
    );
}

/// Events inside composite states, each labelled: the frames were as wide as their
/// members, so a label planned beside its edge lay on or past the frame's border and
/// became a footnote.
const HANDLING: &str = "stateDiagram-v2
    [*] --> Idle
    state Handling {
        [*] --> Verifying
        Verifying --> Queued: signature ok
        Queued --> Running: worker picked the job up
        Running --> Queued: transient error, retry later
        Running --> [*]: job finished
    }
    Idle --> Handling: webhook_received / verify_signature()
    Handling --> Idle: response sent
    Handling --> Failed: bad signature
    Failed --> [*]";

const CONNECTED: &str = "stateDiagram-v2
    [*] --> Connected
    state Connected {
        [*] --> Healthy
        Healthy --> Degraded: request failed
        Degraded --> Degraded: request failed [failures < 5]
        Degraded --> Healthy: request ok [failures = 0]
    }
    Connected --> Tripped: 5th consecutive failure
    Tripped --> [*]";

#[test]
fn labels_inside_a_composite_stay_beside_their_edges_in_a_wider_frame() {
    let cases = [
        (
            HANDLING,
            "Handling",
            &["worker picked the job up", "transient error, retry later"][..],
        ),
        (
            CONNECTED,
            "Connected",
            &["request failed", "request ok"][..],
        ),
    ];
    for (src, title, labels) in cases {
        for width in [75, 95] {
            let r = at(src, width);
            let all = text(&r);
            assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
            assert!(footnotes(&all).is_empty(), "at {width}:\n{all}");
            for label in labels {
                assert!(
                    inside(&rows(&r), label, title),
                    "at {width}: {label}\n{all}"
                );
            }
        }
    }
}

/// A back edge between two states of one composite (`Rework --> Pending`) was routed
/// round the outside of the drawing: it left the frame and came back in, as if it came
/// from outside. It stays in the frame, whose sides no line crosses.
#[test]
fn a_back_edge_inside_a_composite_stays_inside_its_frame() {
    for width in [75, 95] {
        let r = at(REVIEW, width);
        let all = text(&r);
        let grid = rows(&r);
        let (top, left, bottom, right) = frame(&grid, "Review");
        for row in &grid[top + 1..bottom] {
            assert_eq!(row.get(left), Some(&'│'), "at {width}:\n{all}");
            assert_eq!(row.get(right), Some(&'│'), "at {width}:\n{all}");
        }
        assert!(inside(&grid, "push()", "Review"), "at {width}:\n{all}");
    }
}

/// A state that retries on itself inside a composite: its self-loop's label, joined on one
/// row, was wider than the room the frame keeps beside the loop, and became a footnote.
/// It takes the lines it was wrapped into, beside the loop.
const DRAINING: &str = "stateDiagram-v2
    [*] --> Connected
    state Connected {
        [*] --> Healthy
        Healthy --> Degraded: request failed
        Degraded --> Degraded: request failed again [failures < 5]
        Degraded --> Healthy: request ok [failures = 0]
        Degraded --> Draining: shutdown requested by operator
    }
    Connected --> Tripped: 5th consecutive failure
    Tripped --> [*]";

#[test]
fn a_self_loop_label_wraps_beside_its_loop() {
    let r = at(DRAINING, 60);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(footnotes(&all).is_empty(), "{all}");
    let grid = rows(&r);
    let (row, col) = find(&grid, "request failed again").expect("first line");
    let (next, _) = find(&grid, "[failures < 5]").expect("second line");
    assert_eq!(next, row + 1, "{all}");
    // beside the loop's corner, one cell off it
    assert_eq!(grid[row].get(col - 2), Some(&'┐'), "{all}");
}

/// A retry loop inside a subgraph, entered from outside at `send`, its way back through
/// a nested subgraph: a search rooted at the subgraph's first node turned the edge into
/// `poll` the other way round, so the loop ran backwards from where the flow enters it.
const OUTBOX: &str = "flowchart LR
    subgraph api [\"src/api/outbox.rs\"]
        enqueue[\"enqueue(event)\"] --> table[(\"outbox\")]
    end
    subgraph relay [\"src/relay/loop.rs\"]
        poll[\"poll_batch(&pool)\"] --> send[\"publish(&event)\"]
        send --> result{\"acked?\"}
        subgraph wait [\"backoff\"]
            sleep[\"sleep_for(attempt)\"]
        end
        result -->|no| sleep
        sleep --> poll
    end
    table --> send
    result -->|yes| done[\"mark_sent(id)\"]";

#[test]
fn a_loop_in_a_subgraph_runs_from_where_the_flow_enters_it() {
    let r = at(OUTBOX, 95);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    let grid = rows(&r);
    // where along the flow: the column left to right, the row top-down
    let along = |label: &str| {
        let (row, col) = find(&grid, label).expect("label drawn");
        if r.across() { col } else { row }
    };
    assert!(along("publish(") < along("acked?"), "{all}");
    assert!(along("acked?") < along("sleep_for("), "{all}");
    assert!(along("sleep_for(") < along("poll_batch("), "{all}");
}
