//! The defects the second realistic set (`realistic-mermaid/unseen.json`) showed, each on
//! an input of its own: sequence messages over several rows between the lifelines, notes
//! over several lifelines as wide as they span, frame headers along their rule, graph
//! labels beside their edges rather than as footnotes, graphs kept in their own direction.

use crate::mermaid_common::{at, text};
use crate::mermaid_measure::questions;
use mermaid_terminal::{Form, RenderOptions, Rendered, render_options};

const FIVE: &str = "sequenceDiagram
    actor Dev as developer
    participant CLI as quizz post
    participant O as Outbox (pending.jsonl)
    participant K as OS keyring
    participant GH as GitHub API
    Dev->>CLI: quizz post --all
    CLI->>K: get_password(\"quizz\", \"github.com\")
    K-->>CLI: token (never printed or logged)
    loop every pending entry in the outbox
        CLI->>GH: PATCH /repos/o/r/issues/comments/{comment_id}
        opt 404 Not Found because the comment was deleted
            CLI->>GH: POST /repos/o/r/issues/{pr}/comments
        end
        GH-->>CLI: 200 OK with html_url of the results comment
        CLI->>O: remove(entry.id) and fsync
    end
    Note over CLI,GH: prints one line per posted comment with its URL";

/// Five aliased participants with long messages were listed at 75 columns (each label
/// could grow by three rows at most, and frame headers wrapped into the first gap). The
/// messages now wrap over more rows, arrows spanning several gaps rewrap to the room
/// they have, and a frame header runs along its rule in one line.
#[test]
fn five_participants_with_long_messages_draw_at_75() {
    let r = at(FIVE, 75);
    let all = text(&r);
    assert_eq!(r.form, Form::Drawing, "{all}");
    assert!(r.lines.iter().all(|l| l.width() <= 75), "{all}");
    assert!(
        all.contains("loop [every pending entry in the outbox]"),
        "{all}"
    );
    assert!(
        all.contains("opt [404 Not Found because the comment was deleted]"),
        "{all}"
    );
    // the note over quizz post..GitHub API takes the width of those lifelines
    assert!(all.contains("prints one line per posted"), "{all}");
    // no label line ends against a lifeline it passes (`comment│`)
    for line in all.lines() {
        for w in ["comment│", "html_url│", "expired│"] {
            assert!(!line.contains(w), "{line}\n{all}");
        }
    }
}

/// A composite state whose inner edges have labels drew them as footnotes (`1` on the
/// line, the text under the picture) at every width; spread apart, they sit beside their
/// edges.
#[test]
fn composite_state_labels_sit_beside_their_edges() {
    let src = "stateDiagram-v2
    [*] --> Unanswered
    Unanswered --> Answered : select option
    Answered --> Unanswered : clear with backspace
    state Grading {
        [*] --> Closed
        Closed --> Open : closed graded locally
        Open --> Retrying : backend timeout
        Retrying --> Open : retry after 2 s
        Open --> [*] : score received
    }
    Answered --> Grading : /grade
    Grading --> Graded
    Graded --> [*]";
    for width in [75, 95] {
        let r = at(src, width);
        let all = text(&r);
        assert_eq!(r.form, Form::Drawing, "{all}");
        assert!(all.contains("/grade"), "{all}");
        assert!(!all.contains("/ grade"), "{all}");
        let footnotes: Vec<&str> = all
            .lines()
            .filter(|l| l.len() > 2 && l.as_bytes()[1] == b' ' && l.as_bytes()[0].is_ascii_digit())
            .collect();
        assert!(footnotes.len() <= 1, "at {width}: {footnotes:?}\n{all}");
        assert!(
            all.lines()
                .any(|l| l.contains("score received") && !l.starts_with('2')),
            "{all}"
        );
    }
}

/// A tall `flowchart TB` that fits top-down was turned left to right once it was over 30
/// rows and a turned drawing was a third shorter (so at 160 columns, not at 95, and one
/// option of a question but not its siblings). It is turned only when it does not fit.
#[test]
fn a_tall_top_down_flowchart_stays_top_down_when_it_fits() {
    let mut src = String::from("flowchart TB\n");
    for i in 0..11 {
        src.push_str(&format!("    s{i} --> s{}\n", i + 1));
    }
    src.push_str("    s11 -->|retry| s3\n");
    for width in [95, 160, 200] {
        let r = at(&src, width);
        let all = text(&r);
        assert_eq!(r.form, Form::Drawing, "{all}");
        assert!(!r.across(), "turned at {width}:\n{all}");
    }
}

/// The four options of every question of every set read in one direction at 160 columns,
/// all drawn or none.
#[test]
fn options_read_in_one_direction_at_160() {
    for file in crate::mermaid_measure::SETS {
        for (id, options) in questions(file) {
            let sources: Vec<&str> = options.iter().map(|(_, s)| s.as_str()).collect();
            let rendered = render_options(
                &sources,
                &RenderOptions {
                    width: 160,
                    ascii: false,
                },
            );
            let across: Vec<bool> = rendered.iter().map(Rendered::across).collect();
            assert!(across.iter().all(|a| *a == across[0]), "{id}: {across:?}");
            // All pictures, or none: an option shown as its source lists the others.
            let forms: Vec<Form> = rendered.iter().map(|r| r.form).collect();
            let drawn = |f: &Form| *f == Form::Drawing;
            assert!(
                forms.iter().all(|f| drawn(f) == drawn(&forms[0])),
                "{id}: {forms:?}"
            );
        }
    }
}
