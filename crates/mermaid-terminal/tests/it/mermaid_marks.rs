//! Marks where the options of a graph question differ (`d`), by what they say: the labels
//! and edges one option has and another lacks, never a label all of them have.

use crate::mermaid_common::show;
use mermaid_terminal::compare::{Marks, differences, marks_of};
use mermaid_terminal::what_differs::compare;
use mermaid_terminal::{Form, RenderOptions, render_options};

/// Four flowcharts like a quiz bot's: a worker loop, a subgraph, and one retry edge that
/// differs — `held -->|yes| take` loops back in A only, the others go to `route`.
fn worker(retry_to: &str, retry_from_inbox_to: &str) -> String {
    format!(
        "flowchart TD\n    poll([\"Worker.poll(ctx)\"]) --> take_batch[\"inbox.Take(ctx, 16)\"]\n    take_batch --> empty{{\"len(batch) == 0?\"}}\n    empty -->|yes| idle[\"time.Sleep(w.idle)\"]\n    idle --> poll\n    subgraph handle [\"internal/worker/handle.go\"]\n        route[\"route(msg.Topic)\"] --> found{{\"handler found?\"}}\n        found -->|no| retry[\"inbox.Retry(msg, delay)\"]\n        found -->|yes| take[\"lock.Take(msg.ID, 10s)\"]\n        take --> held{{\"err == ErrLocked?\"}}\n        held -->|yes| {retry_to}\n        held -->|no| run[[\"h.Run(msg)\"]]\n    end\n    empty -->|no| route\n    run --> db[(\"UPDATE msgs SET done = true\")]\n    retry --> {retry_from_inbox_to}\n    db --> poll"
    )
}

fn marked_cells(lines: &[mermaid_terminal::Line], marks: &Marks, text: &str) -> Vec<bool> {
    lines
        .iter()
        .zip(marks)
        .filter_map(|(line, m)| {
            let row = line.text();
            let at = row.find(text)?;
            let start = mermaid_terminal::display_width(&row[..at]);
            let end = start + mermaid_terminal::display_width(text);
            Some(m.iter().any(|r| r.start < end && start < r.end))
        })
        .collect()
}

#[test]
fn only_what_the_options_say_differently_is_marked_in_graph_drawings() {
    let a = worker("take", "poll");
    let b = worker("route", "take_batch");
    let c = worker("route", "poll");
    let sources = [a.as_str(), b.as_str(), c.as_str(), c.as_str()];
    let opts = RenderOptions {
        width: 95,
        ascii: false,
    };
    let drawn = render_options(&sources, &opts);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let cells = differences(&drawn);
    let says = compare(&sources);
    let marks: Vec<Marks> = (0..sources.len())
        .map(|i| {
            let differing = says.differing(i);
            marks_of(
                sources[i],
                &drawn[i],
                &opts,
                &cells.marks[i],
                &differing,
                &says.same,
            )
        })
        .collect();
    // Labels every option has are never marked, however the layouts shift them.
    for (r, m) in drawn.iter().zip(&marks) {
        for label in [
            "Worker.poll(ctx)",
            "inbox.Take(ctx, 16)",
            "len(batch) == 0?",
            "route(msg.Topic)",
            "lock.Take(msg.ID,",
            "err == ErrLocked?",
        ] {
            let hits = marked_cells(&r.lines, m, label);
            assert!(!hits.is_empty(), "{label} is drawn");
            assert!(hits.iter().all(|h| !h), "{label} marked:\n{}", show(r, m));
        }
    }
    // Nor are the frames of boxes every option has (an edge's line beside them may be).
    for (r, m) in drawn.iter().zip(&marks) {
        let frames = frame_cells(r, "Worker.poll(ctx)");
        assert!(!frames.is_empty());
        for (row, col) in frames {
            let hit = m[row].iter().any(|range| range.contains(&col));
            assert!(!hit, "frame of Worker.poll at {row}:{col}:\n{}", show(r, m));
        }
    }
    // A's loop back to `take` is its own: its `yes` is marked.
    let yes_marked = marked_cells(&drawn[0].lines, &marks[0], "yes");
    assert!(yes_marked.contains(&true), "{}", show(&drawn[0], &marks[0]));
    // C and D say the same as each other; what C marks is what another option lacks.
    assert_eq!(marks[2], marks[3]);
}

/// The cells of the frame around `label`'s box: the rows over and under it, across the
/// label's row from one side of the box to the other.
fn frame_cells(r: &mermaid_terminal::Rendered, label: &str) -> Vec<(usize, usize)> {
    let texts: Vec<String> = r.lines.iter().map(mermaid_terminal::Line::text).collect();
    let Some(row) = texts.iter().position(|t| t.contains(label)) else {
        return Vec::new();
    };
    let t = &texts[row];
    let at = mermaid_terminal::display_width(&t[..t.find(label).unwrap_or(0)]);
    let (from, to) = (
        at.saturating_sub(2),
        at + mermaid_terminal::display_width(label) + 2,
    );
    let mut out = Vec::new();
    for r in [row.saturating_sub(1), row + 1] {
        out.extend((from..to).map(|c| (r, c)));
    }
    out
}
