//! Rows a taker scrolls to see every difference between a diagram question's options.
//! The tests hold the comparison to what it promises (every difference within a few rows
//! at 80x24); `cargo test --lib tui::measure -- --nocapture` prints the figures.

use super::app::{App, Posting, Settings};
use super::theme::Theme;
use super::{Action, update};
use crate::quiz::{QuestionKind, parse_quiz};
use crate::session::Session;
use crate::source::{DEMO_QUIZ, LoadedQuiz};
use crate::store::{Origin, Store};

fn app_of(json: &str, dir: &std::path::Path, size: (u16, u16)) -> App {
    let quiz = parse_quiz(json).unwrap();
    let settings = Settings {
        practice: false,
        theme: Theme { no_color: false },
        mouse: true,
        grader: None,
        no_grader_why: None,
        posting: Posting::Nowhere(crate::tui::NoPost::Demo),
        grade_later: String::new(),
        pr: None,
        code: std::sync::Arc::new(crate::code::collect(&quiz, &crate::code::CodeContext::Demo)),
        coverage: None,
        hyperlinks: false,
        ask_confidence: false,
    };
    let loaded = LoadedQuiz {
        quiz,
        origin: Origin::Demo,
        notes: Vec::new(),
    };
    App::new(
        Session::open(Store::at(dir), loaded).unwrap(),
        settings,
        size,
    )
}

/// Per diagram question: (id, body rows, rows marked, rows to scroll to the last mark,
/// rows to scroll to the end of the comparison).
fn marks(json: &str, size: (u16, u16)) -> Vec<(String, usize, usize, usize, usize)> {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_of(json, dir.path(), size);
    update(&mut app, Action::Start);
    app.diagram_view.differences = true;
    let mut out = Vec::new();
    loop {
        if let Some(q) = app.question()
            && matches!(q.kind, QuestionKind::Mermaid { .. })
        {
            let id = q.id.clone();
            super::update::refresh(&mut app);
            let built = super::body::build(&app, app.view.widths.body);
            let built_len = built.lines.len();
            let marked: Vec<usize> = built
                .lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.spans.iter().any(|s| s.content.as_ref() == " ▌ "))
                .map(|(i, _)| i)
                .collect();
            drop(built);
            let viewport = app.view.question.as_ref().map_or(1, |q| q.rows);
            let last = marked.last().map_or(0, |l| l + 1);
            app.diagram_view.compare = true;
            super::update::refresh(&mut app);
            let compared = super::body::build(&app, app.view.widths.body);
            assert!(
                compared.lines.iter().any(|l| {
                    let t = l.to_string();
                    t.contains("Only what differs:") || t.contains("The options say the same")
                }),
                "{id}: the comparison is on screen"
            );
            let end = compared
                .lines
                .iter()
                .position(|l| {
                    let t = l.to_string();
                    t.starts_with("( ) 1. Option") || t.starts_with("(•) 1. Option")
                })
                .unwrap_or(0)
                .saturating_sub(1);
            drop(compared);
            app.diagram_view.compare = false;
            out.push((
                id,
                built_len,
                marked.len(),
                last.saturating_sub(viewport),
                end.saturating_sub(viewport),
            ));
        }
        let at = app.current();
        update(&mut app, Action::NextQuestion);
        if !app.on_question() || app.current() == at {
            break;
        }
    }
    out
}

/// With the comparison (`C`) every difference of a question is within 8 rows of scrolling
/// at 80x24, and never further than with the marks (`d`) on the drawings.
#[test]
fn the_comparison_shows_every_difference_within_a_few_rows() {
    let realistic =
        include_str!("../../crates/mermaid-terminal/tests/fixtures/realistic-mermaid/quiz.json");
    for (name, json) in [("demo", DEMO_QUIZ), ("realistic", realistic)] {
        for size in [(80, 24), (100, 30), (160, 50)] {
            let rows = marks(json, size);
            println!("{name} {}x{}", size.0, size.1);
            let mut total = (0, 0, 0, 0);
            for (id, all, marked, scroll, compared) in &rows {
                assert!(
                    compared <= scroll || *scroll == 0,
                    "{name} {id} at {size:?}: the comparison scrolls {compared} rows, the marks {scroll}"
                );
                if size == (80, 24) {
                    assert!(
                        *compared <= 8,
                        "{name} {id} at 80x24: {compared} rows to scroll"
                    );
                }
                #[allow(clippy::cast_precision_loss)]
                let share = *marked as f64 * 100.0 / (*all).max(1) as f64;
                println!(
                    "  {id:4} rows {all:4}  marked {marked:4} ({share:3.0}%)  scroll {scroll:4}  compared: scroll {compared:4}"
                );
                total = (
                    total.0 + all,
                    total.1 + marked,
                    total.2 + scroll,
                    total.3 + compared,
                );
            }
            println!(
                "  all  rows {:4}  marked {:4}  scroll {:4}  compared: scroll {:4}",
                total.0, total.1, total.2, total.3
            );
        }
    }
}

/// Every diagram question's comparison has something to say, and fits the 75 columns it
/// was drawn for (printed with `--nocapture`, for a look).
#[test]
fn every_comparison_says_something_and_fits_its_width() {
    let realistic =
        include_str!("../../crates/mermaid-terminal/tests/fixtures/realistic-mermaid/quiz.json");
    for json in [DEMO_QUIZ, realistic] {
        for q in parse_quiz(json).unwrap().questions {
            if let QuestionKind::Mermaid { options, .. } = &q.kind {
                println!("== {}", q.id);
                let lines = super::comparison::lines(options, 75, Theme { no_color: true });
                assert!(!lines.is_empty(), "{}: an empty comparison", q.id);
                for l in lines {
                    let text = l.to_string();
                    assert!(
                        crate::text::display_width(&text) <= 75,
                        "{}: {text:?} is wider than 75 columns",
                        q.id
                    );
                    println!("{text}");
                }
            }
        }
    }
}
