//! Sequence diagrams: participants too wide for their boxes side by side at the width of
//! an 80-column terminal, and where labels may break.

use crate::mermaid_common::labels::{labels, pieces};
use crate::mermaid_common::{at, text};
use mermaid_terminal::Form;

/// Six participants named by identifiers that cannot wrap (`ReviewSummarizer`,
/// `pull_request_handler`): side by side their boxes alone were wider than 75 columns, so
/// the diagram was listed. Every other box now goes a row lower, neighbours sharing
/// columns, each lifeline clear of the boxes beside it.
#[test]
fn six_wide_participants_drawn_with_boxes_in_two_rows() {
    let src = include_str!("../fixtures/sequence/six-wide-participants.mmd");
    let r = at(src, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 75), "{all}");
    let lines: Vec<&str> = all.lines().collect();
    // the first, third and fifth boxes in the first row, the others in the second
    for name in ["GitHub", "ReviewSummarizer", "TerminalNotifier"] {
        assert!(lines[1].contains(name), "{name} in the first row:\n{all}");
    }
    for name in ["pull_request_handler", "QuizQueue", "AttemptLog"] {
        assert!(
            lines[4].contains(name) && !lines[1].contains(name),
            "{name} in the second row:\n{all}"
        );
    }
    for label in [
        "summarize(&diff)",
        "Summary {",
        "files: 4 }",
        "notify(\"quiz ready\")",
        "record(pr_number)",
        "202 Accepted",
    ] {
        assert!(all.contains(label), "{label:?} missing:\n{all}");
    }
}

/// A host name or an e-mail-like token stays whole: `git@github.` / `com` read as two
/// things. A dotted name wider than the line still breaks after its `.`
/// (`response_body.` / `content[0].text`).
#[test]
fn host_names_stay_whole_dotted_names_still_break() {
    let src = "sequenceDiagram
    participant CLI as quizz
    participant Git as git
    participant GH as GitHub API
    CLI->>Git: git push git@github.com:octo/quizz.git
    Git->>GH: ssh git@github.com
    GH-->>CLI: mail ops@hooks.example.org
    GH-->>CLI: reviews at api.github.com";
    // drawn from 50, listed at 40: whole in both
    for width in [40, 50, 60, 75] {
        let r = at(src, width);
        let all = text(&r);
        for host in ["git@github.com", "ops@hooks.example.org", "api.github.com"] {
            assert!(all.contains(host), "{host} split at {width}:\n{all}");
        }
    }
    let dotted = "sequenceDiagram
    participant P as parser
    participant M as model
    P->>M: response_body.content[0].text";
    let all = text(&at(dotted, 30));
    assert!(
        all.lines()
            .any(|l| l.trim_end_matches([' ', '│']).ends_with("response_body."))
            && all.contains("content[0].text"),
        "{all}"
    );
}

/// Six participants, a `par` with a `loop` inside, long messages and a note right of the
/// last participant: its gaps were as wide as `ExitCode{value:` and `state=needs_review`,
/// which could not break, and it was listed below 80 columns. A piece too wide for its line breaks after `{` and `=` too: drawn at 75.
#[test]
fn six_participants_with_fields_and_settings_drawn_at_75() {
    let src = "sequenceDiagram
    participant W as build worker
    participant R as Runner
    participant Q as Queue API
    participant C as CacheStore
    participant B as Blob storage
    participant GH as GitHub Status API
    W->>+R: Start(ctx, build.Plan)
    par keepalive
        loop every 15s until ctx.Done()
            W->>Q: PUT /api/v2/builds/{build_id}/keepalive
            W->>C: Touch(buildKey, 60s)
            C-->>Q: TouchedAt
        end
    and artifacts
        R-)W: Artifact{path, size, digest}
        W->>B: PUT /artifacts/{build_id}/{digest}.tar
    end
    R-->>-W: ExitCode{value: 0}
    opt build.Plan.PostStatus
        W->>Q: POST /api/v2/builds/{build_id}/finish
        Q->>GH: POST /repos/{owner}/{repo}/statuses/{sha}
    end
    Note right of GH: state=needs_review shows on the commit";
    let r = at(src, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 75), "{all}");
    let flat: String = all.split_whitespace().collect();
    for piece in [
        "ExitCode{",
        "value:",
        "state=",
        "needs_review",
        "TouchedAt",
        "Touch(buildKey,",
    ] {
        assert!(flat.contains(piece), "{piece:?} missing:\n{all}");
    }
}

/// Six participants whose messages between neighbours hold names too wide for any gap
/// (`acquire_reindex_lease_for_shard(7)`, `"2025-01-14T03:00:00Z")`): each gap was as wide
/// as its name, and the diagram was listed below 95 columns. When nothing else fits, a
/// name is cut after its `_` or `-`: drawn at 75, every piece of every label there.
#[test]
fn names_too_wide_for_their_gap_cut_after_underscores_at_75() {
    let src = "sequenceDiagram
    participant Cr as cron (every hour)
    participant IX as indexer-worker
    participant ES as Elasticsearch
    participant S3 as S3 snapshots
    participant SL as slack-notifier
    participant M as Prometheus
    Cr->>+IX: reindex(since = \"2025-01-14T03:00:00Z\")
    critical acquire_reindex_lease(shard_id)
        IX->>ES: POST /_leases acquire_reindex_lease_for_shard(7)
        ES-->>IX: lease granted
    option lease held elsewhere
        IX-->>Cr: skipped (another reindex_in_progress)
    end
    loop each changed document batch
        IX->>ES: POST /products_v3/_bulk {index: products_v3}
        ES-->>IX: 200 {errors: false, took: 112}
    end
    IX->>S3: PUT snapshot products_v3-2025-01-14.json
    IX->>SL: notify #search-ops (documents_reindexed_total = 48210)
    IX->>M: push reindex_duration_seconds{shard=\"7\"} 412
    IX-->>-Cr: done
    Note over IX,ES: a shard keeps its old index_alias_target until the bulk load finishes";
    let r = at(src, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 75), "{all}");
    let flat: String = all.split_whitespace().collect();
    for label in labels(src) {
        for piece in pieces(&label) {
            assert!(flat.contains(&piece), "{piece:?} missing:\n{all}");
        }
    }
}

/// Messages that pass other participants (a handler called past the worker that set it
/// up, its reply back): the label covers the lifelines it crosses, and one ending on such
/// a lifeline, or a cell from it, or with a space over it, read as cut there
/// (`│      handler(args)  │`, the `h` on a lifeline). Over every arrow crossing a
/// lifeline, the label's row holds the lifeline clear a cell each side, or letters there.
#[test]
fn labels_over_lifelines_they_pass_cover_them_mid_word_or_stay_a_cell_off() {
    let src = "sequenceDiagram
    participant W as webhook
    participant D as dispatch_worker
    participant Q as job_queue
    participant S as status_api
    W->>D: dispatch(job_id)
    D->>Q: push(job)
    Q-->>D: queued
    D-->>W: accepted
    W->>S: handler(args)
    S-->>W: ok response
    W->>Q: peek(job_id)
    Q-->>W: still queued";
    let is_letter = |c: char| !matches!(c, ' ' | '│' | '┃');
    for width in 50..=100 {
        let all = text(&at(src, width));
        let rows: Vec<Vec<char>> = all.lines().map(|l| l.chars().collect()).collect();
        for pair in rows.windows(2) {
            let (label, arrow) = (&pair[0], &pair[1]);
            for x in (1..arrow.len()).filter(|&x| arrow[x] == '┼') {
                let at = |c: usize| label.get(c).copied().unwrap_or(' ');
                let near = [at(x - 1), at(x), at(x + 1)];
                let clear = !is_letter(near[0]) && !is_letter(near[2]) && near[1] != ' ';
                let mid_word = near.iter().all(|&c| is_letter(c));
                assert!(clear || mid_word, "at {width}, column {x}:\n{all}");
            }
        }
    }
}
