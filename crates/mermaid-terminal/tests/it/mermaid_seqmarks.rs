//! Marks where the options of a sequence question differ (`d`), by what they say: the
//! messages, notes, blocks and participants one option has and another lacks, wherever
//! the drawing puts them, never a message every option has.

use crate::mermaid_common as common;
use crate::mermaid_common::show;
use crate::mermaid_measure::{SETS, questions};

use mermaid_terminal::compare::{Marks, differences, marks_of_option};
use mermaid_terminal::what_differs::compare;
use mermaid_terminal::{Form, RenderOptions, Rendered, render_options};

fn opts(width: usize) -> RenderOptions {
    RenderOptions {
        width,
        ascii: false,
    }
}

/// The options drawn and marked as the quiz's `d` key marks them.
fn marked(sources: &[&str], width: usize) -> (Vec<Rendered>, Vec<Marks>) {
    let opts = opts(width);
    let drawn = render_options(sources, &opts);
    let mut cells = differences(&drawn);
    let says = compare(sources);
    let structured = says.unread.len() + 1 < sources.len();
    for (i, m) in cells.marks.iter_mut().enumerate() {
        if structured && !says.unread.contains(&i) {
            let differing = says.differing(i);
            *m = marks_of_option(sources, i, &drawn[i], &opts, m, &differing, &says.same);
        }
    }
    (drawn, cells.marks)
}

/// Rows with a mark, of all rows.
fn rows_marked(drawn: &Rendered, marks: &Marks) -> (usize, usize) {
    let marked = marks.iter().filter(|m| !m.is_empty()).count();
    (marked, drawn.lines.len())
}

/// The share of rows marked per option, for the demo's sequence question and every
/// sequence question of the realistic sets at 75 columns.
#[test]
fn measure_rows_marked_in_sequence_drawings() {
    let mut all = vec![(
        "demo q6".to_string(),
        common::quiz_options("seed/pr7-quiz.json", "q6"),
    )];
    for set in SETS {
        let name = set.trim_start_matches("realistic-mermaid/");
        for (id, options) in questions(set) {
            all.push((format!("{name} {id}"), options));
        }
    }
    println!("rows marked per option at 75 columns (sequence questions drawn)");
    for (name, options) in all {
        let sources: Vec<&str> = options.iter().map(|(_, s)| s.as_str()).collect();
        if !sources
            .iter()
            .all(|s| s.trim_start().starts_with("sequenceDiagram"))
        {
            continue;
        }
        let (drawn, marks) = marked(&sources, 75);
        if !drawn.iter().all(|r| r.form == Form::Drawing) {
            println!("{name:<16} listed");
            continue;
        }
        let shares: Vec<String> = drawn
            .iter()
            .zip(&marks)
            .map(|(r, m)| {
                let (n, of) = rows_marked(r, m);
                format!("{n:>2}/{of:<2}")
            })
            .collect();
        println!("{name:<16} {}", shares.join("  "));
    }
}

/// A login flow like a quiz bot's: five participants, an `alt`, long messages that wrap.
/// `variant` stands in for the 200 reply; `store` keeps the session store and what it says.
fn login(reply: &str, store: bool) -> String {
    let mut src = String::from(
        "sequenceDiagram\n    participant U as Browser\n    participant G as api-gateway\n    participant A as auth-service\n",
    );
    if store {
        src.push_str("    participant S as session-store (Redis)\n");
    }
    src.push_str("    participant D as Postgres\n    U->>G: POST /login {email, password} with the remember-me flag set\n    G->>A: verify credentials for the account and issue a session token\n    A->>D: SELECT password_hash FROM accounts WHERE email = $1\n    D-->>A: password_hash row for the account\n    alt password matches the stored hash\n");
    if store {
        src.push_str("        A->>S: SET session token for the account with a 30 day expiry\n        S-->>A: OK\n");
    }
    src.push_str(&format!("        A-->>G: {reply}\n    else password does not match\n        A-->>G: 401 invalid credentials\n    end\n    G-->>U: Set-Cookie with the session token"));
    src
}

const REPLY: &str = "200 session token for the account";

/// The login flow autonumbered, and the same with one message more sent first (it
/// renumbers every later one).
fn autonumbered_with_one_more_first() -> (String, String) {
    let base = login(REPLY, true);
    let numbered = base.replacen("sequenceDiagram\n", "sequenceDiagram\n    autonumber\n", 1);
    let extra = "    U->>G: GET /login/csrf-token for the form\n";
    let at = numbered.find("    U->>G").unwrap();
    let first = format!("{}{extra}{}", &numbered[..at], &numbered[at..]);
    (numbered, first)
}

/// A cell of a line, frame, arrow or head.
fn line_glyph(c: char) -> bool {
    ('\u{2500}'..='\u{25FF}').contains(&c) || ('\u{2190}'..='\u{21FF}').contains(&c)
}

/// Per row, the marked cells' characters.
fn marked_rows(r: &Rendered, m: &Marks) -> Vec<String> {
    r.lines
        .iter()
        .zip(m)
        .map(|(line, marks)| {
            let cells: Vec<char> = line.text().chars().collect();
            marks
                .iter()
                .flat_map(Clone::clone)
                .filter_map(|k| cells.get(k).copied())
                .collect()
        })
        .collect()
}

/// The marked text of a drawing in reading order, without spaces and lines.
fn marked_text(r: &Rendered, m: &Marks) -> String {
    marked_rows(r, m)
        .concat()
        .chars()
        .filter(|c| !c.is_whitespace() && !line_glyph(*c))
        .collect()
}

fn squash(parts: &[&str]) -> String {
    parts
        .concat()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Marked rows holding an arrow's head.
fn arrows_marked(r: &Rendered, m: &Marks) -> usize {
    marked_rows(r, m)
        .iter()
        .filter(|row| row.contains(['▶', '◀']))
        .count()
}

/// Marked rows holding neither text nor a head nor a box's rule (a lifeline, a frame).
fn bare_rows_marked(r: &Rendered, m: &Marks) -> usize {
    marked_rows(r, m)
        .iter()
        .filter(|row| !row.is_empty())
        .filter(|row| {
            !row.chars().any(|c| !c.is_whitespace() && !line_glyph(c))
                && !row.contains(['▶', '◀', '┌', '└', '╭', '╰'])
        })
        .count()
}

/// A message whose every word other messages say, sent by one option only: marked whole
/// there (all its rows, and its arrow), and nothing else; the others mark only the reply it
/// stands in for.
#[test]
fn a_message_of_common_words_is_marked_whole_and_alone() {
    let variant = "200 with the session token for the account and the expiry";
    let (a, b) = (login(REPLY, true), login(variant, true));
    let sources = [a.as_str(), b.as_str(), a.as_str(), a.as_str()];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let rows =
        |r: &Rendered, text: &str| r.lines.iter().filter(|l| l.text().contains(text)).count();
    assert!(
        rows(&drawn[1], "expiry") >= 2,
        "the variant wraps:\n{}",
        show(&drawn[1], &marks[1])
    );
    assert_eq!(
        marked_text(&drawn[1], &marks[1]),
        squash(&[variant]),
        "\n{}",
        show(&drawn[1], &marks[1])
    );
    assert_eq!(
        arrows_marked(&drawn[1], &marks[1]),
        1,
        "\n{}",
        show(&drawn[1], &marks[1])
    );
    assert_eq!(
        bare_rows_marked(&drawn[1], &marks[1]),
        0,
        "\n{}",
        show(&drawn[1], &marks[1])
    );
    for k in [0, 2, 3] {
        let (r, m) = (&drawn[k], &marks[k]);
        assert_eq!(marked_text(r, m), squash(&[REPLY]), "\n{}", show(r, m));
        assert_eq!(arrows_marked(r, m), 1, "\n{}", show(r, m));
        assert_eq!(bare_rows_marked(r, m), 0, "\n{}", show(r, m));
    }
}

/// An option lacking a participant: the others mark its box and the messages it sends or
/// gets, not the rows its lifeline crosses; the option lacking it says nothing another lacks.
#[test]
fn an_option_lacking_a_participant_marks_only_what_it_lacks() {
    let (with, without) = (login(REPLY, true), login(REPLY, false));
    let sources = [
        with.as_str(),
        with.as_str(),
        without.as_str(),
        with.as_str(),
    ];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let lacked = squash(&[
        "session-store (Redis)",
        "SET session token for the account with a 30 day expiry",
        "OK",
    ]);
    for k in [0, 1, 3] {
        let (r, m) = (&drawn[k], &marks[k]);
        assert_eq!(marked_text(r, m), lacked, "\n{}", show(r, m));
        assert_eq!(arrows_marked(r, m), 2, "\n{}", show(r, m));
        assert_eq!(bare_rows_marked(r, m), 0, "\n{}", show(r, m));
        // the box whole, frame and all
        let top = r
            .lines
            .iter()
            .position(|l| l.text().contains("session-store"))
            .unwrap()
            - 1;
        assert!(marked_rows(r, m)[top].contains('┌'), "\n{}", show(r, m));
    }
    assert!(
        marks[2].iter().all(Vec::is_empty),
        "\n{}",
        show(&drawn[2], &marks[2])
    );
}

/// The demo quiz's sequence question (five participants, one option without `MCP
/// handler`): each option marks what it says that another does not, nothing else.
#[test]
fn the_demo_sequence_question_marks_what_its_options_say_differently() {
    let options = common::quiz_options("seed/pr7-quiz.json", "q6");
    let sources: Vec<&str> = options.iter().map(|(_, s)| s.as_str()).collect();
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let with_handler = squash(&[
        "MCP handler",
        "drain complete",
        "handler(args)",
        "ok response",
    ]);
    let expected = [
        with_handler.clone(),
        squash(&[
            "MCP handler",
            "drain complete",
            "handler(args)",
            "ok response",
        ]),
        squash(&["process tool call", "tool args", "append to captured"]),
        squash(&[
            "MCP handler",
            "handler(args)",
            "ok response",
            "drain complete",
        ]),
    ];
    for ((r, m), want) in drawn.iter().zip(&marks).zip(&expected) {
        assert_eq!(&marked_text(r, m), want, "\n{}", show(r, m));
        assert_eq!(bare_rows_marked(r, m), 0, "\n{}", show(r, m));
    }
    assert_eq!(arrows_marked(&drawn[0], &marks[0]), 3);
    assert_eq!(arrows_marked(&drawn[2], &marks[2]), 3);
}

/// Autonumbered options, one sending a message more at the start: it marks that message,
/// not every later one whose number it shifts; the others mark nothing.
#[test]
fn a_message_sent_first_does_not_mark_the_ones_it_renumbers() {
    let (numbered, first) = autonumbered_with_one_more_first();
    let sources = [
        numbered.as_str(),
        first.as_str(),
        numbered.as_str(),
        numbered.as_str(),
    ];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let (r, m) = (&drawn[1], &marks[1]);
    assert_eq!(
        marked_text(r, m),
        squash(&["GET /login/csrf-token for the form"]),
        "\n{}",
        show(r, m)
    );
    assert_eq!(arrows_marked(r, m), 1, "\n{}", show(r, m));
    for k in [0, 2, 3] {
        assert!(
            marks[k].iter().all(Vec::is_empty),
            "\n{}",
            show(&drawn[k], &marks[k])
        );
    }
}

/// An `alt` whose condition one option words otherwise: its condition is marked whole,
/// signs and spaces too, and nothing else: the messages under it are the same messages
/// in the same place (a block is compared by its place, its condition is its own row).
#[test]
fn a_block_condition_is_marked_whole_with_its_signs() {
    let a = login(REPLY, true);
    let condition = "failed_attempts < 5 and the password matches";
    let b = a.replace(
        "alt password matches the stored hash",
        &format!("alt {condition}"),
    );
    let sources = [a.as_str(), b.as_str(), a.as_str(), a.as_str()];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let (r, m) = (&drawn[1], &marks[1]);
    let bracketed = format!("[{condition}]");
    assert_eq!(marked_text(r, m), squash(&[&bracketed]), "\n{}", show(r, m));
    let row = r
        .lines
        .iter()
        .position(|l| l.text().contains("failed_attempts"))
        .unwrap();
    let text = r.lines[row].text();
    let at = text.find('<').unwrap();
    let col = mermaid_terminal::display_width(&text[..at]);
    assert!(
        m[row].iter().any(|range| range.contains(&col)),
        "\n{}",
        show(r, m)
    );
}

/// An actor only some options have is marked by its round box too.
#[test]
fn an_actor_only_some_options_have_is_marked_by_its_box() {
    let base = login(REPLY, true);
    let at = base.find("    U->>G").unwrap();
    let page = "page the on-call engineer about repeated 401 invalid credentials";
    let with = format!(
        "{}    actor O as On-call engineer\n{}\n    G->>O: {page}",
        &base[..at],
        &base[at..]
    );
    let sources = [with.as_str(), with.as_str(), base.as_str(), with.as_str()];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let (r, m) = (&drawn[0], &marks[0]);
    assert_eq!(
        marked_text(r, m),
        squash(&["On-call engineer", page]),
        "\n{}",
        show(r, m)
    );
    let name = r
        .lines
        .iter()
        .position(|l| l.text().contains("On-call"))
        .unwrap();
    let top = (0..name)
        .rev()
        .find(|&k| r.lines[k].text().contains('╭'))
        .unwrap();
    assert!(marked_rows(r, m)[top].contains('╭'), "\n{}", show(r, m));
}

/// A note only one option writes is marked by its box whole (one highlight from side to
/// side, over the lifelines it covers), not word by word.
#[test]
fn a_note_only_one_option_has_is_marked_by_its_box() {
    let a = login(REPLY, true);
    let note = "the session token expires after 30 days unless the browser refreshes it";
    let b = a.replace(
        "    G-->>U: Set-Cookie",
        &format!("    Note over G,S: {note}\n    G-->>U: Set-Cookie"),
    );
    let sources = [a.as_str(), b.as_str(), a.as_str(), a.as_str()];
    let (drawn, marks) = marked(&sources, 75);
    assert!(drawn.iter().all(|r| r.form == Form::Drawing));
    let (r, m) = (&drawn[1], &marks[1]);
    assert_eq!(marked_text(r, m), squash(&[note]), "\n{}", show(r, m));
    let rows = marked_rows(r, m);
    let boxed: Vec<&String> = rows.iter().filter(|row| !row.is_empty()).collect();
    assert!(
        boxed
            .first()
            .is_some_and(|row| row.starts_with('┌') && row.ends_with('┐'))
    );
    assert!(
        boxed
            .last()
            .is_some_and(|row| row.starts_with('└') && row.ends_with('┘'))
    );
    let inside = &boxed[1..boxed.len() - 1];
    assert!(
        inside
            .iter()
            .all(|row| row.starts_with('│') && row.ends_with('│')),
        "\n{}",
        show(r, m)
    );
    assert!(
        marks[0].iter().all(Vec::is_empty),
        "\n{}",
        show(&drawn[0], &marks[0])
    );
}

/// The options listed (as `v` shows them): marks on the rows another option lacks,
/// whole, never on a row every option has, though a message sent first renumbers the
/// rest, and never on the legend.
#[test]
fn listed_options_mark_only_the_rows_another_option_lacks() {
    let (numbered, first) = autonumbered_with_one_more_first();
    let sources = [
        numbered.as_str(),
        first.as_str(),
        numbered.as_str(),
        numbered.as_str(),
    ];
    let opts = opts(75);
    let listed: Vec<Rendered> = sources
        .iter()
        .map(|s| mermaid_terminal::render_compact(s, &opts))
        .collect();
    let mut cells = differences(&listed);
    let says = compare(&sources);
    for (i, m) in cells.marks.iter_mut().enumerate() {
        let differing = says.differing(i);
        *m = marks_of_option(&sources, i, &listed[i], &opts, m, &differing, &says.same);
    }
    let (r, m) = (&listed[1], &cells.marks[1]);
    let rows = marked_rows(r, m);
    let marked: Vec<&String> = rows.iter().filter(|row| !row.is_empty()).collect();
    assert_eq!(marked.len(), 1, "\n{}", show(r, m));
    assert!(
        marked[0].contains("GET /login/csrf-token for the form"),
        "\n{}",
        show(r, m)
    );
    for k in [0, 2, 3] {
        assert!(
            cells.marks[k].iter().all(Vec::is_empty),
            "\n{}",
            show(&listed[k], &cells.marks[k])
        );
    }
}
