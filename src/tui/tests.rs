//! `update` unit tests and whole-screen snapshots (80x24, 100x30, 40x12, and `NO_COLOR`).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{App, Screen, Settings};
use super::theme::Theme;
use super::{Action, Effect, update};
use crate::quiz::{OpenGrade, parse_quiz};
use crate::session::Session;
use crate::source::{DEMO_QUIZ, LoadedQuiz};
use crate::store::{Origin, Store};

struct Fixture {
    app: App,
    _dir: tempfile::TempDir,
}

fn settings(no_color: bool) -> Settings {
    Settings {
        practice: false,
        theme: Theme { no_color },
        grader_label: "no grader configured: open answers stay pending".into(),
        grader_available: false,
        after_grading: "not posted: the demo quiz has no pull request.".into(),
        grade_later: "quizz grade --demo".into(),
        can_post: false,
    }
}

fn fixture_with(settings: Settings, size: (u16, u16)) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::at(dir.path());
    let loaded = LoadedQuiz {
        quiz: parse_quiz(DEMO_QUIZ).unwrap(),
        origin: Origin::Demo,
        notes: Vec::new(),
    };
    let session = Session::open(store, loaded).unwrap();
    Fixture {
        app: App::new(session, settings, size),
        _dir: dir,
    }
}

/// A grader is there: submitting goes through the grading screen.
fn grading_fixture() -> Fixture {
    let mut s = settings(false);
    s.grader_available = true;
    fixture_with(s, (80, 24))
}

fn fixture() -> Fixture {
    fixture_with(settings(false), (80, 24))
}

fn key(c: char) -> Action {
    Action::EditorKey(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn run(app: &mut App, actions: impl IntoIterator<Item = Action>) {
    for a in actions {
        update(app, a);
    }
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn navigation_stays_in_bounds() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::PrevQuestion]);
    assert_eq!(app.current(), 0);
    run(app, [Action::LastQuestion, Action::NextQuestion]);
    assert_eq!(app.current(), 5);
    run(app, [Action::FirstQuestion, Action::NextQuestion]);
    assert_eq!(app.current(), 1);
    assert_eq!(app.screen, Screen::Question);
}

#[test]
fn picking_saves_at_once_and_moves_the_cursor() {
    let mut f = fixture();
    let app = &mut f.app;
    run(
        app,
        [
            Action::Start,
            Action::Pick(0),
            Action::NextQuestion,
            Action::PickFalse,
        ],
    );
    assert!(
        app.session
            .answer("q1")
            .unwrap()
            .starts_with("So tests can override")
    );
    assert_eq!(app.session.answer("q2"), Some("false"));
    // Digits past the options are refused with a word, not a crash.
    run(app, [Action::PrevQuestion, Action::Pick(7)]);
    assert_eq!(app.status.as_deref(), Some("There is no option 8."));
    run(
        app,
        [Action::CursorDown, Action::CursorDown, Action::Choose],
    );
    assert!(
        app.session
            .answer("q1")
            .unwrap()
            .starts_with("So `_invoke_tool` can pass")
    );
    run(app, [Action::ClearAnswer]);
    assert_eq!(app.session.answer("q1"), None);
    // t/f mean nothing on an mcq.
    run(app, [Action::PickTrue]);
    assert_eq!(app.session.answer("q1"), None);
}

#[test]
fn mermaid_is_chosen_by_label() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::LastQuestion, Action::Pick(3)]);
    assert_eq!(app.session.answer("q6"), Some("D"));
    run(app, [Action::CursorUp, Action::Choose]);
    assert_eq!(app.session.answer("q6"), Some("C"));
}

#[test]
fn editing_an_open_answer_saves_every_key_and_letters_are_text() {
    let mut f = fixture();
    let app = &mut f.app;
    run(
        app,
        [
            Action::Start,
            Action::NextQuestion,
            Action::NextQuestion,
            Action::NextQuestion,
            Action::NextQuestion,
        ],
    );
    assert_eq!(app.question().unwrap().id, "q5");
    run(app, [Action::Choose]);
    assert!(app.editor.is_some());
    assert_eq!(
        super::dispatch(
            app.context(),
            &KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)
        ),
        Some(key('q'))
    );
    run(
        app,
        [key('q'), key('u'), key('i'), Action::Paste("t\nnow".into())],
    );
    assert_eq!(app.session.answer("q5"), Some("quit\nnow"));
    run(
        app,
        [Action::EditorKey(KeyEvent::new(
            KeyCode::Char('u'),
            KeyModifiers::CONTROL,
        ))],
    );
    assert_ne!(
        app.session.answer("q5"),
        Some("quit\nnow"),
        "undo changes the saved answer too"
    );
    run(app, [Action::StopEditing]);
    assert!(app.editor.is_none());
    run(
        app,
        [Action::ExternalEditorDone(Ok("from the editor\n".into()))],
    );
    assert_eq!(app.session.answer("q5"), Some("from the editor"));
}

#[test]
fn flagging_toggles_and_persists() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleFlag]);
    assert!(app.session.is_flagged("q1"));
    run(app, [Action::ToggleFlag]);
    assert!(!app.session.is_flagged("q1"));
}

#[test]
fn quit_asks_only_when_answers_are_not_graded() {
    let mut f = fixture();
    let app = &mut f.app;
    assert_eq!(
        update(app, Action::Quit),
        Effect::Quit,
        "nothing answered: quit at once"
    );
    app.exit = None;
    run(app, [Action::Start, Action::Pick(0)]);
    assert_eq!(update(app, Action::Quit), Effect::None);
    assert!(app.confirm_quit);
    run(app, [Action::Cancel]);
    assert!(!app.confirm_quit);
    assert_eq!(update(app, Action::ForceQuit), Effect::Quit);
}

#[test]
fn submit_grades_closed_questions_and_keeps_open_ones_pending() {
    let mut f = fixture();
    let app = &mut f.app;
    run(
        app,
        [
            Action::Start,
            Action::Pick(0),
            Action::NextQuestion,
            Action::PickFalse,
            Action::OpenReview,
        ],
    );
    assert_eq!(app.screen, Screen::Review);
    assert_eq!(update(app, Action::Submit), Effect::None);
    let results = app.results.as_ref().unwrap();
    assert_eq!(app.screen, Screen::Results);
    assert_eq!(results.total_score, 33);
    assert!(
        results.pending.is_empty(),
        "q5 has no answer, so it scores 0"
    );
    assert!(
        app.session.attempt().results.is_some(),
        "results are saved with the attempt"
    );
}

#[test]
fn grading_progress_fills_in_open_scores() {
    let mut f = grading_fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Pick(0)]);
    app.session
        .set_answer("q5", Some("an answer".into()))
        .unwrap();
    assert_eq!(
        update(app, Action::Submit),
        Effect::StartGrading(vec!["q5".into()])
    );
    assert_eq!(app.screen, Screen::Grading);
    run(
        app,
        [
            Action::GradeStarted("q5".into()),
            Action::GradeFinished(
                "q5".into(),
                Ok(OpenGrade {
                    score: 80,
                    feedback: "good".into(),
                }),
            ),
            Action::GradingDone,
        ],
    );
    let results = app.results.as_ref().unwrap();
    assert!(results.result("q5").unwrap().correct);
    assert_eq!(results.total_score, 30);
}

#[test]
fn cancelling_grading_keeps_answers_and_leaves_open_ones_pending() {
    let mut f = grading_fixture();
    let app = &mut f.app;
    app.session
        .set_answer("q5", Some("an answer".into()))
        .unwrap();
    update(app, Action::Submit);
    assert_eq!(update(app, Action::Cancel), Effect::CancelGrading);
    assert_eq!(app.results.as_ref().unwrap().pending, ["q5"]);
    assert_eq!(app.session.answer("q5"), Some("an answer"));
}

#[test]
fn tall_diagrams_scroll_the_chosen_option_into_view() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(
        app,
        [
            Action::Start,
            Action::LastQuestion,
            Action::CursorDown,
            Action::CursorDown,
            Action::CursorDown,
        ],
    );
    assert!(app.scroll > 0);
    let shown = screen(app, 80, 24);
    assert!(shown.contains("4. Option D"), "{shown}");
}

#[test]
fn resize_and_too_small() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Resize(20, 5)]);
    assert!(screen(app, 20, 5).contains("Terminal too small"));
    run(app, [Action::Resize(80, 24)]);
    assert!(screen(app, 80, 24).contains("Question 1/6"));
}

/// Every screen at every size, as text.
#[test]
fn snapshots_of_every_screen() {
    for (w, h) in [(100, 30), (80, 24), (40, 12)] {
        let mut f = fixture_with(settings(false), (w, h));
        let app = &mut f.app;
        let name = |s: &str| format!("{s}_{w}x{h}");
        insta::assert_snapshot!(name("overview"), screen(app, w, h));
        run(app, [Action::Start, Action::Pick(0)]);
        insta::assert_snapshot!(name("mcq"), screen(app, w, h));
        run(app, [Action::NextQuestion]);
        insta::assert_snapshot!(name("tf"), screen(app, w, h));
        run(
            app,
            [
                Action::NextQuestion,
                Action::NextQuestion,
                Action::NextQuestion,
                Action::StartEditing,
                key('h'),
                key('i'),
            ],
        );
        insta::assert_snapshot!(name("open_editing"), screen(app, w, h));
        run(
            app,
            [Action::StopEditing, Action::NextQuestion, Action::Pick(1)],
        );
        insta::assert_snapshot!(name("mermaid"), screen(app, w, h));
        run(app, [Action::ToggleHelp]);
        insta::assert_snapshot!(name("help"), screen(app, w, h));
        run(app, [Action::ToggleHelp, Action::OpenReview]);
        insta::assert_snapshot!(name("review"), screen(app, w, h));
        run(app, [Action::Quit]);
        insta::assert_snapshot!(name("confirm_quit"), screen(app, w, h));
        run(app, [Action::Cancel, Action::Submit]);
        insta::assert_snapshot!(name("results"), screen(app, w, h));
    }
}

#[test]
fn grading_screen_snapshots() {
    for (w, h) in [(100, 30), (80, 24), (40, 12)] {
        let mut s = settings(false);
        s.grader_available = true;
        let mut f = fixture_with(s, (w, h));
        let app = &mut f.app;
        app.session
            .set_answer("q5", Some("an answer".into()))
            .unwrap();
        update(app, Action::Submit);
        insta::assert_snapshot!(format!("grading_{w}x{h}"), screen(app, w, h));
    }
}

#[test]
fn practice_mode_says_right_or_wrong_at_once() {
    let mut s = settings(false);
    s.practice = true;
    let mut f = fixture_with(s, (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start, Action::NextQuestion, Action::PickTrue]);
    assert!(screen(app, 100, 30).contains("✗ Not quite — the answer is: false"));
    run(app, [Action::PickFalse]);
    assert!(screen(app, 100, 30).contains("✓ Right."));
}

/// Under `NO_COLOR` no cell carries a colour; meaning stays in glyphs and reverse video.
#[test]
fn no_color_emits_no_colour() {
    let mut f = fixture_with(settings(true), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Pick(1)]);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|fr| super::draw(fr, app)).unwrap();
    let buffer = terminal.backend().buffer();
    for cell in buffer.content() {
        assert_eq!(cell.fg, ratatui::style::Color::Reset, "{cell:?}");
        assert_eq!(cell.bg, ratatui::style::Color::Reset, "{cell:?}");
    }
    insta::assert_snapshot!("mcq_no_color_80x24", screen(app, 80, 24));
    let reversed = buffer
        .content()
        .iter()
        .filter(|c| c.modifier.contains(ratatui::style::Modifier::REVERSED))
        .count();
    assert!(reversed > 0, "the cursor row is shown in reverse video");
}

#[test]
fn p_on_the_results_posts_only_when_the_quiz_has_a_pull_request() {
    let mut f = fixture();
    let app = &mut f.app;
    run(
        app,
        [
            Action::Start,
            Action::Pick(0),
            Action::OpenReview,
            Action::Submit,
        ],
    );
    assert_eq!(
        update(app, Action::Post),
        Effect::None,
        "the demo has no PR"
    );
    assert_eq!(app.exit, None);
    app.settings.can_post = true;
    assert_eq!(update(app, Action::Post), Effect::Quit);
    assert_eq!(app.exit, Some(super::app::Exit::QuitAndPost));
}
