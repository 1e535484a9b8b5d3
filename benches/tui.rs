//! One full frame of the TUI, drawn into an off-screen buffer.
//! Run: cargo bench --bench tui
#![allow(clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quizz::quiz::parse_quiz;
use quizz::session::Session;
use quizz::source::{DEMO_QUIZ, LoadedQuiz};
use quizz::store::{Origin, Store};
use quizz::tui::theme::Theme;
use quizz::tui::{Action, App, NoPost, Posting, Settings, draw, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn app_on_mermaid_question(dir: &std::path::Path, size: (u16, u16)) -> App {
    let loaded = LoadedQuiz {
        quiz: parse_quiz(DEMO_QUIZ).expect("demo"),
        origin: Origin::Demo,
        notes: Vec::new(),
    };
    let session = Session::open(Store::at(dir), loaded).expect("store");
    let settings = Settings {
        practice: false,
        theme: Theme { no_color: false },
        mouse: false,
        grader: None,
        no_grader_why: None,
        posting: Posting::Nowhere(NoPost::Demo),
        grade_later: "quizz grade --demo".into(),
        pr: None,
        code: std::sync::Arc::new(quizz::code::collect(
            &parse_quiz(DEMO_QUIZ).expect("demo"),
            &quizz::code::CodeContext::Demo,
        )),
        coverage: None,
        hyperlinks: false,
        ask_confidence: true,
    };
    let mut app = App::new(session, settings, size);
    update(&mut app, Action::Start);
    update(&mut app, Action::Bottom);
    app
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (w, h) in [(200u16, 60u16), (80, 24)] {
        let app = app_on_mermaid_question(dir.path(), (w, h));
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
        c.bench_function(&format!("frame: mermaid question {w}x{h}"), |b| {
            b.iter(|| {
                terminal.draw(|f| draw(f, black_box(&app))).expect("draw");
            });
        });
    }
    // One key on the mermaid question at 200x60: the update (scrolling the option into
    // view) and the frame after it, as the event loop does.
    {
        let (w, h) = (200u16, 60u16);
        let mut app = app_on_mermaid_question(dir.path(), (w, h));
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
        let mut down = true;
        c.bench_function(&format!("key and frame: mermaid question {w}x{h}"), |b| {
            b.iter(|| {
                let key = if down {
                    Action::CursorDown
                } else {
                    Action::CursorUp
                };
                down = !down;
                update(&mut app, black_box(key));
                terminal.draw(|f| draw(f, black_box(&app))).expect("draw");
            });
        });
    }
    // The first question with its code panel open (under it at 100x30, beside at 200x60).
    for (w, h) in [(200u16, 60u16), (100, 30)] {
        let mut app = app_on_mermaid_question(dir.path(), (w, h));
        update(&mut app, Action::Top);
        update(&mut app, Action::ToggleCode);
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
        c.bench_function(&format!("frame: code panel open {w}x{h}"), |b| {
            b.iter(|| {
                terminal.draw(|f| draw(f, black_box(&app))).expect("draw");
            });
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
