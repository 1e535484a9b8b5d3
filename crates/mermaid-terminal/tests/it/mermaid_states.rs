//! State diagrams as a quiz bot writes them: composite states entered and left, guards on
//! `<<choice>>` branches, long event labels; and a flowchart whose loop runs through
//! nested subgraphs, as cycles are now broken one nesting level at a time. One test per
//! defect class the realistic sets showed.

use crate::mermaid_common::labels::{pieces, state_labels};
use crate::mermaid_common::{at, text};
use mermaid_terminal::what_differs::compare;
use mermaid_terminal::{Form, Line, RenderOptions, Rendered, render_compact, render_options};

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

/// An order fulfilled by three things at once (Mermaid's concurrent regions, `--`), each
/// with its own `[*]` start and end, the composite entered and left by long events.
const FULFILMENT: &str = "stateDiagram-v2
    [*] --> Idle
    Idle --> Fulfilling: order_paid(order_id)
    state Fulfilling {
        [*] --> Picking
        Picking --> Packed: all items scanned
        Packed --> [*]
        --
        [*] --> AwaitingCapture
        AwaitingCapture --> Captured: payment captured by gateway
        Captured --> [*]
        --
        [*] --> Drafting
        Drafting --> Sent: invoice emailed to customer
        Sent --> [*]
    }
    Fulfilling --> Shipped: carrier picked up parcel
    Fulfilling --> Cancelled: cancel requested before dispatch
    Shipped --> [*]
    Cancelled --> [*]";

/// The regions of FULFILMENT, by their states.
const REGIONS: [[&str; 2]; 3] = [
    ["Picking", "Packed"],
    ["AwaitingCapture", "Captured"],
    ["Drafting", "Sent"],
];

/// Every cell where `needle` starts.
fn find_all(grid: &[Vec<char>], needle: &str) -> Vec<(usize, usize)> {
    let n: Vec<char> = needle.chars().collect();
    let mut out = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        for (c, w) in row.windows(n.len()).enumerate() {
            if w == n.as_slice() {
                out.push((r, c));
            }
        }
    }
    out
}

/// The dashed frames (concurrent regions): (top, left, bottom, right) of each border.
fn dashed_frames(grid: &[Vec<char>]) -> Vec<(usize, usize, usize, usize)> {
    find_all(grid, "┌┄")
        .into_iter()
        .filter_map(|(top, left)| {
            let right = (left..grid[top].len()).find(|&c| grid[top][c] == '┐')?;
            let bottom = (top + 1..grid.len()).find(|&r| grid[r].get(left) == Some(&'└'))?;
            Some((top, left, bottom, right))
        })
        .collect()
}

/// Is cell (r, c) inside the frame `f`?
fn within(f: (usize, usize, usize, usize), (r, c): (usize, usize)) -> bool {
    f.0 < r && r < f.2 && f.1 < c && c < f.3
}

#[test]
fn concurrent_regions_are_dashed_frames_each_with_its_own_start_and_end() {
    for width in [60, 75] {
        let r = at(FULFILMENT, width);
        let all = text(&r);
        assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
        assert!(r.lines.iter().all(|l| l.width() <= width), "{all}");
        let grid = rows(&r);
        let frames = dashed_frames(&grid);
        assert_eq!(
            frames.len(),
            3,
            "at {width}: one dashed frame a region\n{all}"
        );
        for (f, states) in frames.iter().zip(REGIONS) {
            for state in states {
                let at = find_all(&grid, &format!(" {state} "));
                assert_eq!(at.len(), 1, "at {width}: {state} drawn once\n{all}");
                assert!(
                    within(*f, at[0]),
                    "at {width}: {state} in its region\n{all}"
                );
            }
            for mark in ["●", "◉"] {
                let inside = find_all(&grid, mark).into_iter().filter(|&p| within(*f, p));
                assert_eq!(inside.count(), 1, "at {width}: {mark} of {states:?}\n{all}");
            }
        }
        for state in ["Idle", "Shipped", "Cancelled"] {
            assert!(
                !inside(&grid, state, "Fulfilling"),
                "at {width}: {state}\n{all}"
            );
        }
        for label in state_labels(FULFILMENT) {
            for piece in pieces(&label) {
                assert!(
                    all.contains(&piece),
                    "at {width}: {piece} of {label}\n{all}"
                );
            }
        }
    }
}

/// In the listing each region is a subgraph of its own, named after its composite, with
/// its own start and end: the rows tell which region a state and its start belong to.
#[test]
fn the_listing_names_each_region_and_its_start() {
    let opts = RenderOptions {
        width: 200,
        ascii: false,
    };
    let all = text(&render_compact(FULFILMENT, &opts));
    let composite = "state Fulfilling: region 1, region 2, region 3";
    assert!(all.contains(composite), "{all}");
    for (k, [first, second]) in REGIONS.iter().enumerate() {
        let name = format!("region {} of Fulfilling", k + 1);
        let row = format!("{name}: start, {first}, {second}, end");
        assert!(all.contains(&row), "{row}\n{all}");
        let start = format!("start of {name} ──▶ {first}");
        assert!(all.contains(&start), "{start}\n{all}");
    }
}

/// Two options that differ only in the region a state is in: the comparison says so, by
/// the region's name (both were shown as their source, and compared by nothing).
#[test]
fn options_differing_by_region_compare_by_the_region_named() {
    let moved = FULFILMENT
        .replace(
            "        Drafting --> Sent: invoice emailed to customer\n",
            "",
        )
        .replace(
            "        Captured --> [*]\n",
            "        Captured --> [*]\n        Drafting --> Sent: invoice emailed to customer\n",
        );
    let says = compare(&[FULFILMENT, moved.as_str()]);
    assert!(says.unread.is_empty(), "{says:?}");
    let differing = says.differing(0);
    assert!(
        differing.contains(&"Sent in region 3 of Fulfilling"),
        "{differing:?}"
    );
    assert!(
        says.differing(1)
            .contains(&"Sent in region 2 of Fulfilling"),
        "{says:?}"
    );
}

/// A bot names its composite by a `state "Long name" as X` line, before or after the
/// `state X { ... }` block: it was drawn twice, as a box with the long name and as a frame
/// titled `X` (transitions to `X` ending at the box, so nothing entered the frame).
const SYNCING: &str = "stateDiagram-v2
    state \"Syncing with upstream mirror\" as Syncing
    [*] --> Idle
    Idle --> Syncing: cron tick every 15 minutes
    state Syncing {
        [*] --> Fetching
        Fetching --> Verifying: packfile received
        Verifying --> [*]
    }
    Syncing --> Idle: sync complete
    Syncing --> Failed: checksum mismatch
    Failed --> [*]";

#[test]
fn a_composite_named_by_a_state_line_is_one_frame_with_that_name() {
    let line = "    state \"Syncing with upstream mirror\" as Syncing\n";
    let after = format!("{}\n{}", SYNCING.replacen(line, "", 1), line.trim_end());
    for src in [SYNCING.to_string(), after] {
        for width in [75, 95] {
            let r = at(&src, width);
            let all = text(&r);
            assert_eq!(r.form, Form::Drawing, "at {width}:\n{all}");
            let grid = rows(&r);
            let name = find_all(&grid, "Syncing with upstream mirror");
            assert_eq!(name.len(), 1, "at {width}: drawn once\n{all}");
            for state in ["Fetching", "Verifying"] {
                assert!(
                    inside(&grid, state, "Syncing with upstream mirror"),
                    "{all}"
                );
            }
            assert!(
                !inside(&grid, "Idle", "Syncing with upstream mirror"),
                "{all}"
            );
        }
    }
}

/// In ASCII a region's frame is dotted (`+....+`, `:` sides) as a dotted line is, inside
/// its composite's solid frame.
#[test]
fn concurrent_regions_in_ascii_are_dotted_frames() {
    let opts = RenderOptions {
        width: 75,
        ascii: true,
    };
    let r = mermaid_terminal::render(FULFILMENT, &opts);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(all.is_ascii(), "{all}");
    let grid = rows(&r);
    // three regions: a top and a bottom border each
    assert_eq!(find_all(&grid, "+....").len(), 6, "{all}");
    assert_eq!(find_all(&grid, "+- Fulfilling -").len(), 1, "{all}");
    let (top, left) = find_all(&grid, "+....")[0];
    assert_eq!(grid[top + 1][left], ':', "{all}");
}

/// Two options of one question, the second's regions too wide side by side at 75: its
/// regions are stacked, and the first's are stacked too, so the options read alike (one
/// had its regions side by side, the other one under the other).
#[test]
fn sibling_options_stack_their_regions_alike() {
    let wide = FULFILMENT
        .replace("AwaitingCapture", "AwaitingCaptureFromPaymentGateway")
        .replace("Drafting", "DraftingInvoiceForTheCustomer");
    let opts = RenderOptions {
        width: 75,
        ascii: false,
    };
    let alone = rows(&at(FULFILMENT, 75));
    let beside = |grid: &[Vec<char>]| {
        let frames = dashed_frames(grid);
        frames.len() == 3 && frames.iter().all(|f| f.0 == frames[0].0)
    };
    assert!(beside(&alone), "drawn alone, side by side");
    for r in render_options(&[FULFILMENT, wide.as_str()], &opts) {
        let all = text(&r);
        assert_eq!(r.form, Form::Drawing, "{all}");
        let frames = dashed_frames(&rows(&r));
        assert_eq!(frames.len(), 3, "{all}");
        // each region's frame starts under the one before it
        for pair in frames.windows(2) {
            assert!(pair[1].0 > pair[0].2, "{all}");
        }
    }
}

/// An upload composite left from its member `Sending` (to `Aborted`) and from its frame.
const LEFT_FROM_A_MEMBER: &str = "stateDiagram-v2
    [*] --> Queued
    Queued --> Upload : worker picks the job
    state Upload {
        [*] --> Hashing
        Hashing --> Sending : digest ready
        Sending --> Verifying : bytes sent
        Verifying --> Checked : checksum matches
        Checked --> [*]
    }
    Upload --> Done : upload confirmed
    Sending --> Aborted : connection reset by peer
    Aborted --> [*]
    Done --> [*]";

/// A composite state left from one of its members (`Sending --> Aborted`), not from its
/// frame: the state it reaches was ranked right after the member, so it sat beside the
/// frame, squeezed between the frame and the edges round it, and the drawing took 120
/// columns (fifth p13 C). It is now drawn below the whole frame, as one reached from the
/// frame is, the edge leaving through the frame's bottom border.
#[test]
fn a_state_reached_from_a_member_is_drawn_below_the_frame() {
    let r = at(LEFT_FROM_A_MEMBER, 75);
    assert_eq!(r.form, Form::Drawing, "{}", text(&r));
    let grid = rows(&r);
    let (_, _, bottom, _) = frame(&grid, "Upload");
    let (aborted, _) = find(&grid, "Aborted").expect("Aborted drawn");
    assert!(aborted > bottom, "{}", text(&r));
}

/// The edge from a member to a state below the frame runs inside the frame down to its
/// bottom border: out through the frame's side, its bends squeezed between the frame and
/// the edges round it, and its label pushed the frame wider.
#[test]
fn an_edge_from_a_member_leaves_through_the_frame_bottom() {
    let r = at(LEFT_FROM_A_MEMBER, 75);
    let grid = rows(&r);
    let (top, left, bottom, right) = frame(&grid, "Upload");
    let sides_crossed = (top + 1..bottom)
        .filter(|&row| [left, right].iter().any(|&c| grid[row][c] != '│'))
        .count();
    assert_eq!(sides_crossed, 0, "{}", text(&r));
    let (label, col) = find(&grid, "connection").expect("label drawn");
    assert!(
        top < label && label < bottom && left < col && col < right,
        "{}",
        text(&r)
    );
}

/// A retry that goes back to a composite state (`Retrying --> Running`) from below a
/// choice stayed in the layers, as back edges naming a frame did: it climbed beside the
/// choice's branches, whose labels then found no room, and the diagram was listed (fresh
/// m12 A at 75; this one below 60). It is now routed round the outside to the frame's
/// border, as a back edge between two states is.
#[test]
fn a_back_edge_to_a_composite_goes_round_the_outside() {
    let src = "stateDiagram-v2
    [*] --> Waiting
    Waiting --> Syncing : scheduler.tick()
    state Syncing {
        [*] --> Fetching
        Fetching --> Applying : diff computed
        Applying --> [*] : all rows written
    }
    state outcome <<choice>>
    Syncing --> outcome : sync returned
    outcome --> Synced : errors == 0
    outcome --> Backoff : errors > 0 and attempt < 3
    outcome --> Broken : attempt >= 3
    Backoff --> Syncing : retry after backoff
    Synced --> [*]
    Broken --> [*]";
    let r = at(src, 52);
    assert_eq!(r.form, Form::Drawing, "{}", text(&r));
    let grid = rows(&r);
    let (top, left, bottom, right) = frame(&grid, "Syncing");
    // the retry's head on the frame's side, pointing in from outside
    let on_side = (top + 1..bottom).any(|row| {
        grid[row].get(left.wrapping_sub(1)) == Some(&'▶') || grid[row].get(right + 1) == Some(&'◀')
    });
    assert!(on_side, "{}", text(&r));
}
