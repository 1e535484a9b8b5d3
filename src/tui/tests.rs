//! `update` unit tests and whole-screen snapshots (80x24, 100x30, 40x12, and `NO_COLOR`).

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::EditedFile;
use super::app::Confirm;
use super::app::{App, NoPost, Posting, Screen, Settings};
use super::theme::Theme;
use super::{Action, Effect, save_batch, update};
use crate::quiz::{OpenGrade, QuestionKind, parse_quiz};
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
        mouse: true,
        grader: None,
        no_grader_why: None,
        posting: Posting::Nowhere(NoPost::Demo),
        grade_later: "quizz grade --demo".into(),
        pr: None,
        code: std::sync::Arc::new(crate::code::collect(
            &parse_quiz(DEMO_QUIZ).unwrap(),
            &crate::code::CodeContext::Demo,
        )),
        coverage: None,
        hyperlinks: false,
        ask_confidence: true,
    }
}

/// A grader the tests drive by hand (its events come as actions); never called.
struct HandGrader;

impl crate::grade::Grader for HandGrader {
    fn grade<'a>(&'a self, _: &'a crate::grade::GradeRequest) -> crate::grade::GradeFuture<'a> {
        Box::pin(std::future::pending())
    }
    fn name(&self) -> &'static str {
        "by hand"
    }
}

/// The demo in the data folder `dir` (two of them there are two windows on one quiz).
fn app_in(dir: &std::path::Path, size: (u16, u16)) -> App {
    let loaded = LoadedQuiz {
        quiz: parse_quiz(DEMO_QUIZ).unwrap(),
        origin: Origin::Demo,
        notes: Vec::new(),
    };
    App::new(
        Session::open(Store::at(dir), loaded).unwrap(),
        settings(false),
        size,
    )
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
    s.grader = Some(crate::grade::ChosenGrader {
        grader: std::sync::Arc::new(HandGrader),
        backend: "by hand",
        model: "none".into(),
    });
    fixture_with(s, (80, 24))
}

fn fixture() -> Fixture {
    fixture_with(settings(false), (80, 24))
}

fn key(c: char) -> Action {
    Action::EditorKey(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// One batch of input, as the event loop handles it: every action, then one save.
/// Which screen is on show.
fn on_screen(app: &App) -> &'static str {
    match app.screen {
        Screen::Overview => "overview",
        Screen::Question(_) => "question",
        Screen::Review { .. } => "review",
        Screen::Grading => "grading",
        Screen::Results(_) => "results",
    }
}

/// The results' cursor, while they are on show.
fn results_cursor(app: &App) -> Option<usize> {
    match &app.screen {
        Screen::Results(r) => Some(r.cursor),
        _ => None,
    }
}

fn run(app: &mut App, actions: impl IntoIterator<Item = Action>) {
    for a in actions {
        update(app, a);
    }
    save_batch(app);
}

/// Two windows on one attempt at 80x24: the first owns it (started, q1 answered), the
/// second opened after it, read-only.
fn two_windows(dir: &std::path::Path) -> (App, App) {
    let mut first = app_in(dir, (80, 24));
    run(&mut first, [Action::Start, Action::Pick(0)]);
    (first, app_in(dir, (80, 24)))
}

/// Runs `actions`, then opens the review, submits and confirms: the way every test reaches
/// the results.
fn submit_after(app: &mut App, actions: impl IntoIterator<Item = Action>) {
    run(app, actions);
    run(app, [Action::OpenReview, Action::Submit, Action::Yes]);
}

/// The screen at `w`x`h` (the terminal resized to it first, as the event loop would).
fn screen(app: &mut App, w: u16, h: u16) -> String {
    if app.size != (w, h) {
        update(app, Action::Resize(w, h));
    }
    drawn(w, h, |f| super::draw(f, app))
}

/// What `draw` puts on a `w`x`h` terminal, row by row, without trailing spaces.
pub(super) fn drawn(w: u16, h: u16, draw: impl FnOnce(&mut ratatui::Frame)) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(draw).unwrap();
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
    run(app, [Action::Bottom, Action::NextQuestion]);
    assert_eq!(app.current(), 5);
    assert_eq!(
        on_screen(app),
        "review",
        "after the last question: the review"
    );
    run(app, [Action::Back, Action::Top, Action::NextQuestion]);
    assert_eq!(app.current(), 1);
    assert_eq!(on_screen(app), "question");
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
    run(app, [Action::Start, Action::Bottom, Action::Pick(3)]);
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
    assert!(app.editor().is_some());
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
    assert!(app.editor().is_none());
    run(app, [edited(app, "q5", "from the editor\n")]);
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
    update(app, Action::Quit);
    assert!(app.exit, "nothing answered: quit at once");
    app.exit = false;
    run(app, [Action::Start, Action::Pick(0)]);
    update(app, Action::Quit);
    assert!(!app.exit);
    assert_eq!(app.confirm().cloned(), Some(Confirm::Quit));
    run(app, [Action::No]);
    assert_eq!(app.confirm().cloned(), None);
    update(app, Action::ForceQuit);
    assert!(app.exit);
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
    assert_eq!(on_screen(app), "review");
    assert_eq!(update(app, Action::Submit), Effect::None);
    assert_eq!(
        app.confirm().cloned(),
        Some(Confirm::Submit {
            unanswered: 4,
            flagged: 0
        }),
        "asks first: four are unanswered"
    );
    assert_eq!(on_screen(app), "review");
    assert_eq!(update(app, Action::Yes), Effect::None);
    let results = app.results.as_ref().unwrap();
    assert_eq!(on_screen(app), "results");
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
    update(app, Action::Submit);
    let Effect::StartGrading { previous } = update(app, Action::Yes) else {
        panic!("grading starts");
    };
    assert_eq!(previous[4], crate::quiz::Outcome::Pending);
    assert_eq!(on_screen(app), "grading");
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
            Action::GradingDone({
                let mut outcomes = previous.clone();
                outcomes[4] = crate::quiz::Outcome::Scored {
                    score: 80,
                    feedback: "good".into(),
                };
                outcomes
            }),
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
    update(app, Action::Yes);
    assert_eq!(update(app, Action::StopGrading), Effect::CancelGrading);
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
            Action::Bottom,
            Action::CursorDown,
            Action::CursorDown,
            Action::CursorDown,
        ],
    );
    assert!(app.scroll() > 0);
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
    for (w, h) in [(100, 30), (80, 24), (160, 50), (40, 12)] {
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
        run(app, [Action::No, Action::Submit]);
        insta::assert_snapshot!(name("confirm_submit"), screen(app, w, h));
        run(app, [Action::Yes]);
        insta::assert_snapshot!(name("results"), screen(app, w, h));
        run(app, [Action::Bottom]);
        insta::assert_snapshot!(name("results_end"), screen(app, w, h));
        run(app, [Action::Choose]);
        insta::assert_snapshot!(name("reading"), screen(app, w, h));
        run(app, [Action::Back, Action::ToggleHelp]);
        insta::assert_snapshot!(name("help_results"), screen(app, w, h));
    }
}

#[test]
fn a_graded_attempt_comes_back_graded() {
    let dir = tempfile::tempdir().unwrap();
    let open = || app_in(dir.path(), (100, 30));
    let mut first = open();
    submit_after(&mut first, [Action::Start, Action::Pick(0)]);
    let score = first.results.as_ref().unwrap().total_score;
    drop(first);
    let mut again = open();
    let shown = screen(&mut again, 100, 30);
    assert!(shown.contains(&format!("Graded     {score}%")), "{shown}");
    insta::assert_snapshot!("overview_graded_100x30", shown);
    // Enter shows the results; picking is not possible there.
    run(&mut again, [Action::Start]);
    assert_eq!(on_screen(&again), "results");
    // A new attempt asks, clears the answers and keeps the score.
    run(&mut again, [Action::NewAttempt, Action::Yes]);
    assert_eq!(again.session.answered_count(), 0);
    assert!(again.results.is_none());
    assert_eq!(again.session.attempt().earlier_scores, [score]);
    assert_eq!(on_screen(&again), "question");
}

/// Issue 19, item 18: from the results an open question showed only its answer box, and
/// the strip showed `✓` for wrong and pending questions.
#[test]
fn a_question_opened_from_the_results_shows_its_verdict_and_the_strip_agrees() {
    let mut f = fixture_with(settings(false), (100, 30));
    let app = &mut f.app;
    go_to_q5(app);
    press(app, "\nmy words");
    run(app, [Action::StopEditing, Action::Top]);
    // A wrong pick on q1 (whichever option is not the right one).
    let wrong = (0..4)
        .find(|&n| {
            let q = &app.session.quiz.questions[0];
            let text = &q.choices()[n].1;
            crate::quiz::grade_question(q, Some(text))
                != crate::quiz::Outcome::Scored {
                    score: 100,
                    feedback: String::new(),
                }
        })
        .unwrap();
    submit_after(app, [Action::Pick(wrong)]);
    assert_eq!(on_screen(app), "results");
    // q5 from the results: pending, with its rubric.
    for _ in 0..4 {
        run(app, [Action::CursorDown]);
    }
    run(app, [Action::Choose]);
    assert_eq!(app.question().unwrap().id, "q5");
    let shown = screen(app, 100, 30);
    assert!(shown.contains("… pending: not graded yet"), "{shown}");
    assert!(shown.contains("Rubric"), "{shown}");
    assert!(shown.contains("my words"), "{shown}");
    assert!(shown.contains(" 1✗ "), "q1 is wrong in the strip:\n{shown}");
    assert!(
        shown.contains("▸5…"),
        "q5 is pending in the strip:\n{shown}"
    );
    assert!(shown.contains(" 2· "), "q2 is unanswered:\n{shown}");
}

/// Issue 19, item 20: `d` on an mcq said the differences were marked; `n` on the last
/// question opened from the results did nothing though the help said it went on; the code
/// panel offered J/K while they typed letters.
#[test]
fn keys_do_what_the_screen_says() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleDifferences]);
    assert!(!app.diagram_view.differences, "nothing to mark on an mcq");
    assert!(
        app.status
            .as_deref()
            .unwrap()
            .starts_with("Nothing to compare here")
    );
    go_to_q5(app);
    run(app, [Action::ToggleCode, Action::StartEditing]);
    let shown = screen(app, 80, 24);
    assert!(shown.contains("Esc, then J/K scroll"), "{shown}");
    run(app, [Action::StopEditing]);
    let shown = screen(app, 80, 24);
    assert!(
        shown.contains(" J/K scroll") && !shown.contains("then J/K"),
        "{shown}"
    );
    submit_after(app, [Action::ToggleCode]);
    run(app, [Action::Bottom, Action::Choose]);
    assert!(app.reading());
    run(app, [Action::NextQuestion]);
    assert_eq!(on_screen(app), "results", "after the last: the results");
}

#[test]
fn the_last_question_leads_to_the_review_and_help_scrolls() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom, Action::NextQuestion]);
    assert_eq!(on_screen(app), "review");
    assert!(app.status.as_deref().unwrap().contains("last question"));
    run(app, [Action::ToggleHelp]);
    let top = screen(app, 80, 24);
    assert!(top.contains("Review (here)"), "{top}");
    run(app, [Action::Bottom]);
    let bottom = screen(app, 80, 24);
    assert_ne!(top, bottom);
    assert!(app.help_scroll() > Some(0));
    assert_eq!(app.help_scroll(), Some(app.view.help_max_scroll()));
    run(app, [Action::ScrollUp]);
    assert_eq!(app.help_scroll(), Some(app.view.help_max_scroll() - 1));
}

#[test]
fn grading_screen_snapshots() {
    for (w, h) in [(100, 30), (80, 24), (160, 50), (40, 12)] {
        let mut f = grading_fixture();
        let app = &mut f.app;
        app.size = (w, h);
        app.session
            .set_answer("q5", Some("an answer".into()))
            .unwrap();
        update(app, Action::Submit);
        update(app, Action::Yes);
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
    // First: how sure? Nothing is revealed until rated or skipped.
    let asking = screen(app, 100, 30);
    assert!(asking.contains("How sure are you?"), "{asking}");
    assert!(!asking.contains("Not quite"), "{asking}");
    run(app, [Action::Rate(5)]);
    assert_eq!(app.session.confidence("q2"), Some(5));
    assert!(screen(app, 100, 30).contains("✗ Not quite — the answer is:"));
    assert!(app.status.as_deref().unwrap().contains("✗ not quite"));
    assert!(
        screen(app, 100, 30).contains("▸2✗"),
        "the strip says the verdict"
    );
    // The verdict showed: the answer stays (no fixing it into a right one)…
    run(app, [Action::PickFalse]);
    assert_eq!(app.session.answer("q2"), Some("true"));
    let refused = app.status.clone().unwrap_or_default();
    assert!(
        refused.contains("verdict is shown, so this answer stays"),
        "{refused}"
    );
    // …but flagging is not changing it.
    run(app, [Action::ToggleFlag]);
    assert!(app.session.is_flagged("q2"));
    run(app, [Action::ToggleFlag]);
    // Help while asked: the question stays asked.
    run(app, [Action::PrevQuestion, Action::Pick(0)]);
    let help = KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE);
    assert_eq!(
        super::dispatch(app.context(), &help),
        Some(Action::ToggleHelp)
    );
    run(app, [Action::ToggleHelp, Action::ToggleHelp]);
    assert_eq!(app.rating(), Some("q1"));
    // Any other key only skips the rating: `n` shows the verdict, no move.
    run(app, [Action::NextQuestion]);
    assert_eq!(app.current(), 0, "the key that skipped did nothing else");
    assert_eq!(app.session.confidence("q1"), None);
    assert!(screen(app, 100, 30).contains("✓ Right."));
}

#[test]
fn ratings_travel_into_the_results_and_flag_miscalibration() {
    let mut s = settings(false);
    s.practice = true;
    let mut f = fixture_with(s, (100, 30));
    let app = &mut f.app;
    // q1 right (option 1) but rated 1; q2 wrong (true) but rated 5; q3 skipped with `n`.
    run(app, [Action::Start, Action::Pick(0), Action::Rate(1)]);
    run(
        app,
        [Action::NextQuestion, Action::PickTrue, Action::Rate(5)],
    );
    run(
        app,
        [Action::NextQuestion, Action::Pick(0), Action::NextQuestion],
    );
    assert_eq!(app.session.confidence("q3"), None, "any other key skips");
    run(app, [Action::OpenReview, Action::Submit, Action::Yes]);
    let results = app.results.clone().unwrap();
    assert_eq!(results.result("q1").unwrap().confidence, Some(1));
    assert_eq!(results.result("q2").unwrap().confidence, Some(5));
    assert_eq!(results.result("q3").unwrap().confidence, None);
    let shown = screen(app, 100, 30);
    assert!(
        shown.contains("Calibration: 1 confident but wrong · 1 right but unsure"),
        "{shown}"
    );
    assert!(shown.contains("right but unsure") && shown.contains("confident but wrong"));
    // The state carries them, parses back, and is read without them by older readers.
    let json = results.to_pretty_json();
    let back = crate::quiz::Results::parse(&json).unwrap();
    assert_eq!(back, results);
    assert!(json.contains("\"confidence\": 5"), "{json}");
    assert!(!json.contains("\"confidence\": null"), "{json}");
}

#[test]
fn the_code_panel_opens_under_the_question_and_stays_open() {
    let mut f = fixture_with(settings(false), (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleCode]);
    let shown = screen(app, 100, 30);
    assert!(
        shown.contains("src/cognit/llm_claude_agent.py:95-103 · demo sample"),
        "{shown}"
    );
    assert!(shown.contains("▌ 95     def _drain_agent("), "{shown}");
    insta::assert_snapshot!("code_panel_100x30", shown);
    run(app, [Action::NextQuestion]);
    let next = screen(app, 100, 30);
    assert!(
        next.contains("llm_claude_agent.py:90-93"),
        "stays open:\n{next}"
    );
    run(app, [Action::CodeDown, Action::CodeDown]);
    assert_eq!(app.code_scroll, 0, "all of it shows: nothing to scroll");
    run(app, [Action::ToggleCode]);
    assert!(!screen(app, 100, 30).contains("demo sample"));
}

#[test]
fn wide_terminals_put_the_code_beside_the_question() {
    let mut f = fixture_with(settings(true), (160, 50));
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleCode]);
    let shown = screen(app, 160, 50);
    let beside = shown
        .lines()
        .any(|l| l.contains("( ) 1. So tests") && l.contains("│"));
    assert!(beside, "{shown}");
    insta::assert_snapshot!("code_panel_160x50_no_color", shown);
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
    submit_after(app, [Action::Start, Action::Pick(0)]);
    update(app, Action::Post);
    assert!(!app.exit, "the demo has no PR");
    assert_eq!(
        app.status.as_deref(),
        Some("Not posted: the demo is posted nowhere; its results stay here."),
        "and says so"
    );
    app.settings.posting = Posting::OnKey { pr: "o/r#7".into() };
    update(app, Action::Post);
    assert!(app.exit && app.post);
}

/// The demo's header says PR #7: its end and overview say the demo is posted nowhere,
/// not that the quiz has no pull request; a file's and a local change's say theirs.
#[test]
fn a_quiz_posted_nowhere_says_why_in_its_own_words() {
    let mut f = fixture();
    let app = &mut f.app;
    submit_after(app, [Action::Start, Action::Pick(0)]);
    let results = screen(app, 80, 24);
    assert!(
        results.contains("Next: not posted: the demo is posted nowhere; its results stay here."),
        "{results}"
    );
    assert!(!results.contains("no pull request"), "{results}");
    run(app, [Action::Back]);
    let overview = screen(app, 80, 24);
    assert!(
        overview.contains("kept on this machine (the demo is posted nowhere)"),
        "{overview}"
    );
    app.settings.posting = Posting::Nowhere(NoPost::File);
    assert_eq!(
        crate::tui::results_text::posting(app),
        "not posted: a quiz from a file is posted nowhere; its results stay here \
         (`quizz take N` takes PR N's quiz and posts its results)."
    );
    app.settings.posting = Posting::Nowhere(NoPost::Local);
    assert_eq!(
        crate::tui::results_text::posting(app),
        "not posted: a local change has no pull request; its results stay here."
    );
}

/// What the external editor hands back: a file in the private folder holding `text`.
fn edited(app: &App, id: &str, text: &str) -> Action {
    let dir = app.session.store().scratch_dir().unwrap();
    let path = dir.join(format!("answer-{id}-test.md"));
    std::fs::write(&path, text).unwrap();
    Action::ExternalEditorDone(Ok(EditedFile {
        question_id: id.into(),
        path,
        text: text.into(),
    }))
}

fn saved_on_disk(app: &App) -> crate::store::Attempt {
    let loaded = app
        .session
        .store()
        .load_attempt(&app.session.origin, &app.session.quiz)
        .unwrap();
    loaded.attempt
}

fn go_to_q5(app: &mut App) {
    run(app, [Action::Start]);
    while app.question().unwrap().id != "q5" {
        run(app, [Action::NextQuestion]);
    }
}

/// Keys as the event loop turns them into actions, one batch each.
fn press(app: &mut App, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\t' => KeyCode::Tab,
            '\n' => KeyCode::Enter,
            '\u{1b}' => KeyCode::Esc,
            c => KeyCode::Char(c),
        };
        let event = ratatui::crossterm::event::Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        if let Some(action) = super::to_action(app, event) {
            run(app, [action]);
        }
    }
}

/// Issue 19, item 7: `n` and `p` were typed into an open answer (`My careful answer.nn`),
/// and `n` through an empty open question saved `nn`.
#[test]
fn arriving_on_an_open_question_never_changes_its_answer() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    assert!(app.editor().is_none(), "arriving opens no answer box");
    press(app, "My careful answer.\tpnn");
    assert_eq!(app.session.answer("q5"), Some("My careful answer."));
    assert_eq!(saved_on_disk(app).answers["q5"], "My careful answer.");
    assert_eq!(on_screen(app), "review", "n n went on to the review");
    // On the written answer, a letter that is no command changes nothing and says why.
    run(app, [Action::Back, Action::PrevQuestion]);
    assert_eq!(app.question().unwrap().id, "q5");
    press(app, "z");
    assert_eq!(app.session.answer("q5"), Some("My careful answer."));
    assert!(app.status.as_deref().unwrap().contains("i edits it"));
    // `i` edits it: then every letter is text.
    press(app, "i nn");
    assert_eq!(app.session.answer("q5"), Some("My careful answer. nn"));
}

/// The help and the README say Enter edits an open answer, as `i` does; on an open
/// question Enter did nothing (its binding picks options, which an open question has not).
#[test]
fn enter_on_an_open_question_opens_the_answer_box() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    press(app, "\n");
    assert!(app.editor().is_some(), "Enter opens the empty answer");
    press(app, "nn");
    assert_eq!(app.session.answer("q5"), Some("nn"));
    run(app, [Action::StopEditing]);
    press(app, "\n");
    assert!(app.editor().is_some(), "Enter opens a written answer too");
    press(app, " more");
    assert_eq!(app.session.answer("q5"), Some("nn more"));
}

/// The empty box says what its letters do, and the footer offers only keys that stay
/// commands there.
#[test]
fn the_empty_answer_box_names_the_keys_that_open_it() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    let shown = screen(app, 80, 24);
    assert!(
        shown.contains("type to write, Ctrl-E for $EDITOR"),
        "{shown}"
    );
    // The footer offers no letter that would be typed instead (`i`, `e`, `s`, `q`).
    let footer = shown.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    for letter in [" i ", " e ", " s ", " q "] {
        assert!(!footer.contains(letter), "{footer}");
    }
    // Narrow, it wraps rather than losing its end.
    let shown = screen(app, 50, 16);
    assert!(shown.contains("Esc for commands)"), "{shown}");
}

/// Found by a fresh-eyes pass: a word typed on an empty open answer ran its letters as
/// commands ("next" moved on and its `x` cleared q6's answer, "quickly" quit, "keep" opened
/// $EDITOR, "maybe" flagged q5). Once the prompt has been read, every letter is text; `n`
/// and `p` move on only right after arriving (moving through).
#[test]
fn words_typed_on_an_empty_open_answer_are_text_once_the_prompt_is_read() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    run(
        app,
        [Action::NextQuestion, Action::Pick(0), Action::PrevQuestion],
    );
    assert_eq!(app.question().unwrap().id, "q5");
    let q6 = app.session.answer("q6").map(str::to_string);
    assert!(q6.is_some());
    app.arrived = app
        .arrived
        .and_then(|t| t.checked_sub(crate::tui::app::MOVING_THROUGH));
    press(app, "next quickly, keep each maybe so: x");
    assert_eq!(app.question().unwrap().id, "q5");
    assert_eq!(
        app.session.answer("q5"),
        Some("next quickly, keep each maybe so: x")
    );
    assert_eq!(app.session.answer("q6").map(str::to_string), q6);
    assert!(!app.exit && app.overlay.is_none());
    // Esc leaves the box: then letters are commands (`m` flags, `n` moves on).
    run(
        app,
        [
            Action::StopEditing,
            Action::ClearAnswer,
            Action::Yes,
            Action::NextQuestion,
            Action::PrevQuestion,
        ],
    );
    assert_eq!(app.session.answer("q5"), None);
    app.arrived = app
        .arrived
        .and_then(|t| t.checked_sub(crate::tui::app::MOVING_THROUGH));
    press(app, "x");
    assert_eq!(app.session.answer("q5"), Some("x"), "letters type again");
    run(app, [Action::StopEditing, Action::ClearAnswer]);
    run(app, [Action::NextQuestion, Action::PrevQuestion]);
    app.arrived = app
        .arrived
        .and_then(|t| t.checked_sub(crate::tui::app::MOVING_THROUGH));
    press(app, "\u{1b}");
    press(app, "mn");
    assert!(app.session.attempt().flagged.contains("q5"));
    assert_eq!(app.question().unwrap().id, "q6");
}

#[test]
fn n_through_an_empty_open_question_leaves_it_unanswered() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start]);
    press(app, "nnnnn");
    assert_eq!(app.question().unwrap().id, "q6");
    assert_eq!(app.session.answer("q5"), None);
    assert!(!app.is_answered("q5"));
}

/// The old problem stays fixed another way: on an empty open question a letter with no
/// command there starts the answer, and once in the box no letter fires a command.
#[test]
fn typing_on_an_empty_open_question_starts_the_answer_and_fires_no_command() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    // `t` (true/false) and `1` (pick) are commands for other questions: text here.
    press(app, "the exit now; send quickly 1");
    assert_eq!(
        app.session.answer("q5"),
        Some("the exit now; send quickly 1")
    );
    assert_eq!(app.question().unwrap().id, "q5");
    assert!(app.editor().is_some());
    // Tab moves on from inside the answer, as in a form.
    press(app, "\t");
    assert_eq!(app.question().unwrap().id, "q6");
    assert!(app.editor().is_none());
}

#[test]
fn clearing_a_written_answer_asks_first_and_a_pick_goes_at_once() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    run(
        app,
        [Action::Paste("a long answer".into()), Action::StopEditing],
    );
    run(app, [Action::ClearAnswer]);
    assert_eq!(
        app.confirm().cloned(),
        Some(Confirm::ClearAnswer {
            id: "q5".into(),
            chars: 13
        })
    );
    assert_eq!(app.session.answer("q5"), Some("a long answer"));
    run(app, [Action::No]);
    assert_eq!(app.session.answer("q5"), Some("a long answer"));
    assert_eq!(saved_on_disk(app).answers["q5"], "a long answer");
    run(app, [Action::ClearAnswer, Action::Yes]);
    assert_eq!(app.session.answer("q5"), None);
    // A closed question's pick is one key away from coming back: no question asked.
    run(app, [Action::Top, Action::Pick(1), Action::ClearAnswer]);
    assert_eq!(app.confirm().cloned(), None);
    assert_eq!(app.session.answer("q1"), None);
}

#[test]
fn pasted_line_breaks_survive_as_terminals_send_them() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    run(app, [Action::StopEditing]);
    // Not in the editor: a paste on an open question writes it.
    run(app, [Action::Paste("one\rtwo\r\nthree\nfour\r".into())]);
    assert!(app.editor().is_some());
    assert_eq!(app.session.answer("q5"), Some("one\ntwo\nthree\nfour\n"));
    assert_eq!(app.editor().unwrap().lines().len(), 5);
}

/// A fresh-eyes review: `raw A`, Ctrl-J, `raw B` left only `raw B` (the text area's
/// Ctrl-J deleted to the line's start). A line feed is a new line.
#[test]
fn ctrl_j_in_the_answer_box_is_a_new_line() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    let ctrl_j = Action::EditorKey(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL));
    run(app, [Action::Paste("raw A".into()), ctrl_j.clone()]);
    run(app, [Action::Paste("raw B".into())]);
    assert_eq!(app.session.answer("q5"), Some("raw A\nraw B"));
}

#[test]
fn backspace_and_arrows_work_on_whole_graphemes() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    let code = |c| Action::EditorKey(KeyEvent::new(c, KeyModifiers::NONE));
    run(app, [Action::Paste("ok 👍🏽 e\u{301}".into())]);
    run(app, [code(KeyCode::Backspace)]);
    assert_eq!(app.session.answer("q5"), Some("ok 👍🏽 "));
    run(app, [code(KeyCode::Backspace), code(KeyCode::Backspace)]);
    assert_eq!(app.session.answer("q5"), Some("ok "));
    run(
        app,
        [
            Action::Paste("👍🏽x".into()),
            code(KeyCode::Left),
            code(KeyCode::Left),
            code(KeyCode::Delete),
        ],
    );
    assert_eq!(app.session.answer("q5"), Some("ok x"));
}

#[test]
fn scroll_stays_within_what_the_screen_can_show() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    for _ in 0..10 {
        run(app, [Action::PageDown]);
    }
    let max = app.view.max_scroll();
    assert!(max > 0);
    assert_eq!(app.scroll(), max);
    let bottom = screen(app, 80, 24);
    run(app, [Action::PageUp]);
    assert_ne!(
        screen(app, 80, 24),
        bottom,
        "one PgUp after many PgDn moves the view"
    );

    run(app, [Action::OpenReview, Action::Submit, Action::Bottom]);
    let max = app.view.max_scroll();
    assert_eq!(app.scroll(), max);
    run(app, [Action::ScrollUp]);
    assert_eq!(
        app.scroll(),
        max.saturating_sub(1),
        "G then k scrolls up at once"
    );
}

#[test]
fn after_paging_the_cursor_is_on_an_option_in_view() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    assert_eq!(app.cursors[5], 0);
    run(app, [Action::PageDown, Action::PageDown]);
    let shown = screen(app, 80, 24);
    assert_ne!(app.cursors[5], 0, "the cursor followed the view:\n{shown}");
    let title = format!("{}. Option", app.cursors[5] + 1);
    assert!(shown.contains(&title), "{title} is on screen:\n{shown}");
    run(app, [Action::Choose]);
    let label = ["A", "B", "C", "D"][app.cursors[5]];
    assert_eq!(app.session.answer("q6"), Some(label));
}

#[test]
fn the_edited_file_goes_only_after_its_text_is_saved() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    let action = edited(app, "q5", "written in vim\nsecond line\n");
    let Action::ExternalEditorDone(Ok(file)) = &action else {
        unreachable!()
    };
    let path = file.path.clone();
    run(app, [action]);
    assert_eq!(
        saved_on_disk(app).answers["q5"],
        "written in vim\nsecond line"
    );
    assert!(!path.exists(), "removed once saved");
    assert_eq!(
        app.editor().unwrap().lines(),
        ["written in vim", "second line"]
    );
    // A failed editor leaves the answer as it was, with its reason on the status line.
    run(
        app,
        [Action::ExternalEditorDone(Err("vi exited with 1".into()))],
    );
    assert_eq!(
        app.session.answer("q5"),
        Some("written in vim\nsecond line")
    );
    assert_eq!(
        app.confirm().cloned(),
        Some(Confirm::Notice {
            title: " The editor failed ".into(),
            text: "vi exited with 1".into()
        })
    );
}

/// Issue 19, item 14: a question whose options take seconds to draw froze every visit.
/// Here the drawing waits for the test: keys are answered meanwhile, the drawing shows
/// when it arrives, and a second visit finds it kept.
#[test]
fn keys_are_answered_while_the_diagrams_are_drawn_and_a_revisit_draws_nothing() {
    let mut f = fixture();
    let app = &mut f.app;
    let (asked, jobs) = std::sync::mpsc::channel();
    let asked = std::sync::Mutex::new(asked);
    app.drawings.drawer = super::drawings::Drawer::Elsewhere(std::sync::Arc::new(move |job| {
        asked.lock().unwrap().send(job).unwrap();
    }));
    run(app, [Action::Start, Action::Bottom]);
    let job = jobs.try_recv().expect("the drawing was asked for");
    let shown = screen(app, 80, 24);
    assert!(shown.contains("Drawing the options…"), "{shown}");
    assert!(
        shown.contains("4. Option D"),
        "the titles are there to pick:\n{shown}"
    );
    // The drawing has not finished: keys still work.
    run(app, [Action::Pick(2), Action::ToggleFlag, Action::CursorUp]);
    assert_eq!(app.session.answer("q6"), Some("C"));
    assert!(app.session.is_flagged("q6"));
    assert!(jobs.try_recv().is_err(), "asked once");
    run(
        app,
        [Action::DiagramsDrawn(
            job.key,
            std::sync::Arc::new(job.run()),
        )],
    );
    let shown = screen(app, 80, 24);
    assert!(!shown.contains("Drawing the options…"), "{shown}");
    assert!(shown.contains("┌"), "drawn:\n{shown}");
    // One drawing at a time: a width asked for meanwhile is drawn after it.
    run(app, [Action::Resize(100, 30)]);
    let wider = jobs.try_recv().expect("the new width is drawn");
    run(app, [Action::Resize(90, 30), Action::Resize(120, 30)]);
    assert!(jobs.try_recv().is_err(), "not while another is drawn");
    run(
        app,
        [Action::DiagramsDrawn(
            wider.key,
            std::sync::Arc::new(wider.run()),
        )],
    );
    let latest = jobs.try_recv().expect("then the latest width");
    assert_eq!(latest.key.width, 118);
    run(
        app,
        [Action::DiagramsDrawn(
            latest.key,
            std::sync::Arc::new(latest.run()),
        )],
    );
    run(app, [Action::Resize(80, 24)]);
    assert!(jobs.try_recv().is_err(), "80 columns was kept");
    let hits = app.drawings.hits;
    run(app, [Action::PrevQuestion, Action::NextQuestion]);
    assert!(jobs.try_recv().is_err(), "a revisit draws nothing again");
    assert_eq!(app.drawings.hits, hits + 1);
    assert!(app.diagrams.is_some());
}

/// Issue 19, item 16: undo went a character at a time (12 Ctrl-Z for "Second line.") and
/// `$EDITOR` wiped its history.
#[test]
fn undo_goes_by_word_by_paste_and_by_editor_round_trip() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    let ctrl = |c| Action::EditorKey(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    let undo = ctrl('u');
    press(app, "\nFirst");
    run(app, [Action::Paste("\nSecond line.".into())]);
    press(app, " More words");
    assert_eq!(
        app.session.answer("q5"),
        Some("First\nSecond line. More words")
    );
    run(app, [undo.clone()]);
    assert_eq!(app.session.answer("q5"), Some("First\nSecond line. More "));
    run(app, [undo.clone()]);
    assert_eq!(
        app.session.answer("q5"),
        Some("First\nSecond line."),
        "one word a step"
    );
    run(app, [undo.clone()]);
    assert_eq!(
        app.session.answer("q5"),
        Some("First"),
        "the paste is one step"
    );
    run(app, [ctrl('r'), ctrl('r')]);
    assert_eq!(app.session.answer("q5"), Some("First\nSecond line. More "));
    // The editor's round trip is one step, and what came before it stays undoable.
    run(app, [edited(app, "q5", "Rewritten in vi\n")]);
    assert_eq!(app.session.answer("q5"), Some("Rewritten in vi"));
    run(app, [undo.clone()]);
    assert_eq!(app.session.answer("q5"), Some("First\nSecond line. More "));
    run(app, [undo.clone(), undo]);
    assert_eq!(app.session.answer("q5"), Some("First"));
}

/// Issue 19, item 15: an editor's failure was cut at 80 columns, where the edit was kept
/// visible only at ~200: it is shown whole, and a key closes it and goes on.
#[test]
fn an_editor_failure_is_shown_whole() {
    let mut f = fixture();
    let app = &mut f.app;
    go_to_q5(app);
    run(app, [Action::StartEditing]);
    let why = "/home/someone/bin/failingeditor.sh exited with exit status: 3; the answer is unchanged; your text is kept in /home/someone/.local/share/quizz/editing/answer-q5-Xy12ab.md";
    run(app, [Action::ExternalEditorDone(Err(why.into()))]);
    let shown = screen(app, 80, 24);
    let flat: String = shown
        .lines()
        .map(|l| l.trim_matches(|c| c == ' ' || c == '│'))
        .collect();
    assert!(flat.contains("answer-q5-Xy12ab.md"), "{shown}");
    assert!(flat.contains("exit status: 3"), "{shown}");
    let x = ratatui::crossterm::event::Event::Key(KeyEvent::new(
        KeyCode::Char('x'),
        KeyModifiers::NONE,
    ));
    let action = super::to_action(app, x).unwrap();
    run(app, [action]);
    assert!(app.confirm().is_none());
    assert_eq!(
        app.session.answer("q5"),
        Some("x"),
        "the key went on into the box"
    );
}

/// A read-only window's review at 80 columns says so whole (it was cut to `read-on`).
#[test]
fn a_read_only_review_says_so_whole_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let (_first, mut second) = two_windows(dir.path());
    run(&mut second, [Action::Start, Action::OpenReview]);
    let shown = screen(&mut second, 80, 24);
    let top: String = shown.lines().take(2).collect::<Vec<_>>().join(" ");
    assert!(top.contains("read-only (T takes over)"), "{shown}");
}

/// At 80 columns a read-only, flagged question's header ran into the answered count
/// (`…(T takes over)2/24 answered`): the count goes short and the title gives way.
#[test]
fn a_long_header_never_runs_into_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let (_first, mut second) = two_windows(dir.path());
    run(&mut second, [Action::Start, Action::NextQuestion]);
    for width in [60, 80] {
        let shown = screen(&mut second, width, 24);
        let header = shown.lines().next().unwrap_or_default().to_string();
        assert!(
            header.contains("read-only") || header.contains('…'),
            "{header}"
        );
        assert!(
            header.trim_end().ends_with(" answered") || header.trim_end().ends_with("/6"),
            "{header}"
        );
        let count = header
            .trim_end()
            .rsplit(' ')
            .find(|w| w.contains('/'))
            .unwrap_or("");
        let before = &header[..header.rfind(count).unwrap_or(0)];
        assert!(before.ends_with(' '), "the count stands apart: {header}");
    }
}

/// A read-only window showed what it read when it opened, until a key: it now follows
/// what the other window saves (answers and flags) while it ticks.
#[test]
fn a_read_only_window_follows_the_other_window() {
    let dir = tempfile::tempdir().unwrap();
    let open = || app_in(dir.path(), (80, 24));
    let mut first = open();
    run(&mut first, [Action::Start]);
    let mut second = open();
    run(&mut second, [Action::Start]);
    assert!(second.session.busy().is_some());
    run(&mut first, [Action::Pick(1), Action::ToggleFlag]);
    super::update::save_batch(&mut first);
    assert_eq!(second.session.answer("q1"), None);
    run(&mut second, [Action::Poll]);
    assert!(second.session.answer("q1").is_some(), "the answer shows");
    assert!(second.session.is_flagged("q1"), "the flag shows");
    assert_eq!(second.cursors[0], 1, "the highlight is on the answer");
}

#[test]
fn a_second_window_reads_only_until_it_takes_over() {
    let dir = tempfile::tempdir().unwrap();
    let (mut first, mut second) = two_windows(dir.path());
    assert!(second.session.busy().is_some());
    run(
        &mut second,
        [Action::Start, Action::NextQuestion, Action::PickTrue],
    );
    assert_eq!(second.session.answer("q2"), None, "read-only");
    assert!(second.status.as_deref().unwrap().contains("T takes over"));
    run(&mut second, [Action::TakeOver]);
    assert!(
        second.session.answer("q1").is_some(),
        "the first window's answers came along"
    );
    assert_eq!(
        second.question().unwrap().id,
        "q2",
        "and the second stays where it was"
    );
    run(&mut second, [Action::PickTrue]);
    assert_eq!(saved_on_disk(&second).answers["q2"], "true");
    // The first window learns it on its next save, and saves nothing over the second.
    run(&mut first, [Action::NextQuestion, Action::PickFalse]);
    assert!(first.status.as_deref().unwrap().contains("another quizz"));
    let on_disk = saved_on_disk(&second);
    assert_eq!(on_disk.answers["q2"], "true");
    assert!(on_disk.answers.contains_key("q1"));
}

/// Issue 19, item 8: a window taken over found out only on its next key, and dropped
/// that key and the rest of the typing (or ran it as commands).
#[test]
fn a_window_taken_over_says_so_at_once_and_keeps_the_typing_as_a_draft() {
    let dir = tempfile::tempdir().unwrap();
    let open = || app_in(dir.path(), (80, 24));
    let mut first = open();
    go_to_q5(&mut first);
    press(&mut first, "half");
    assert_eq!(saved_on_disk(&first).answers["q5"], "half");
    let mut second = open();
    run(&mut second, [Action::TakeOver]);
    // No key: the poll finds it, and the answer box stays with its text.
    run(&mut first, [Action::Poll]);
    assert!(first.session.busy().is_some());
    let status = first.status.clone().unwrap();
    assert!(status.contains("took this quiz over"), "{status}");
    assert!(first.editor().is_some(), "the box stays open");
    // The whole line fits 80 columns (it was cut after "kept as a"); the title says the rest.
    let shown = screen(&mut first, 80, 24);
    assert!(shown.contains("typing here is a draft."), "{shown}");
    assert!(shown.contains("Esc, then T keeps it"), "{shown}");
    press(&mut first, " done");
    assert_eq!(first.drafts["q5"].text, "half done", "typing goes on, kept");
    assert_eq!(saved_on_disk(&first).answers["q5"], "half", "not saved");
    let shown = screen(&mut first, 80, 24);
    assert!(shown.contains("half done"), "{shown}");
    assert!(shown.contains("not saved"), "{shown}");
    // Leaving the box, letters are not lost as commands either: the draft is shown.
    run(&mut first, [Action::StopEditing]);
    let shown = screen(&mut first, 80, 24);
    assert!(shown.contains("half done"), "{shown}");
    // Taking over again makes the draft the answer (the other window left it as it was).
    drop(second);
    run(&mut first, [Action::TakeOver]);
    assert_eq!(saved_on_disk(&first).answers["q5"], "half done");
    assert!(first.drafts.is_empty());
    assert!(
        first
            .status
            .as_deref()
            .unwrap()
            .contains("draft is the answer to q5")
    );
}

/// A draft written over an answer the other window changed meanwhile overwrites nothing:
/// it stays a draft, and `i` opens it.
#[test]
fn a_draft_never_overwrites_what_the_other_window_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let open = || app_in(dir.path(), (80, 24));
    let mut first = open();
    go_to_q5(&mut first);
    press(&mut first, "\nmine");
    let mut second = open();
    go_to_q5(&mut second);
    run(&mut second, [Action::TakeOver]);
    press(&mut second, "i theirs");
    press(&mut first, "!");
    assert_eq!(first.drafts["q5"].text, "mine!");
    drop(second);
    run(&mut first, [Action::StopEditing, Action::TakeOver]);
    assert_eq!(saved_on_disk(&first).answers["q5"], "mine theirs");
    assert_eq!(first.drafts["q5"].text, "mine!", "still kept");
    run(&mut first, [Action::StartEditing]);
    assert_eq!(first.editor().unwrap().lines(), ["mine!"]);
    press(&mut first, "?");
    assert_eq!(saved_on_disk(&first).answers["q5"], "mine!?");
    assert!(first.drafts.is_empty());
}

/// A read-only window submitted: it showed results (and printed them on quitting) that
/// were never saved, while the owner went on with the attempt ungraded.
#[test]
fn a_read_only_window_neither_submits_nor_starts_a_new_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let (first, mut second) = two_windows(dir.path());
    assert!(second.session.busy().is_some());
    run(&mut second, [Action::OpenReview, Action::Submit]);
    assert_eq!(second.confirm().cloned(), None, "no dialog");
    assert!(second.status.as_deref().unwrap().contains("T takes over"));
    run(&mut second, [Action::Yes]);
    assert!(second.results.is_none(), "nothing graded here");
    assert_ne!(on_screen(&second), "results");
    run(&mut second, [Action::NewAttempt]);
    assert_eq!(second.confirm().cloned(), None);
    assert!(saved_on_disk(&first).results.is_none());
    assert_eq!(second.session.answered_count(), 1);
}

/// After the owner quit, the other window stayed read-only naming a dead pid.
#[test]
fn a_read_only_window_notices_the_owner_closed_and_offers_to_take_over() {
    let dir = tempfile::tempdir().unwrap();
    let (first, mut second) = two_windows(dir.path());
    run(&mut second, [Action::Start]);
    run(&mut second, [Action::Poll, Action::Poll, Action::Poll]);
    assert!(!second.session.owner_closed(), "the owner still runs");
    drop(first);
    run(&mut second, [Action::Poll, Action::Poll, Action::Poll]);
    assert!(second.session.owner_closed());
    let status = second.status.clone().unwrap();
    assert!(status.contains("has closed: T takes over"), "{status}");
    let shown = screen(&mut second, 100, 30);
    assert!(
        shown.contains("other window closed (T takes over)"),
        "{shown}"
    );
    // A change refused meanwhile names the closed owner as closed (it said "open in
    // another quizz", naming the dead pid).
    run(&mut second, [Action::Pick(1)]);
    let status = second.status.clone().unwrap();
    assert!(status.contains("has closed. T takes over"), "{status}");
    let before = saved_on_disk(&second).answers["q1"].clone();
    run(&mut second, [Action::TakeOver, Action::Pick(1)]);
    assert_ne!(
        saved_on_disk(&second).answers["q1"],
        before,
        "this window saves"
    );
}

#[test]
fn the_mouse_wheel_scrolls_and_keys_are_inert_below_the_minimum_size() {
    use ratatui::crossterm::event::{Event, MouseEvent, MouseEventKind};
    let wheel = |kind| {
        Event::Mouse(MouseEvent {
            kind,
            column: 1,
            row: 1,
            modifiers: KeyModifiers::NONE,
        })
    };
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    assert_eq!(
        super::to_action(app, wheel(MouseEventKind::ScrollDown)),
        Some(Action::WheelDown)
    );
    assert_eq!(
        super::to_action(app, wheel(MouseEventKind::ScrollUp)),
        Some(Action::WheelUp)
    );
    run(
        app,
        [
            Action::Start,
            Action::Bottom,
            Action::WheelDown,
            Action::WheelDown,
        ],
    );
    assert_eq!(app.scroll(), 2, "two notches, two rows");
    let key = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    run(app, [Action::Resize(20, 6)]);
    assert_eq!(super::to_action(app, key('1')), None);
    assert_eq!(super::to_action(app, key('q')), Some(Action::ForceQuit));
}

#[test]
fn a_pull_request_quiz_names_its_title_author_and_takers() {
    let mut s = settings(false);
    s.pr = Some(super::app::PullRequestInfo {
        title: Some("Fix the parser \u{1b}[31mnow".into()),
        author: Some("@alice".into()),
        takers: Some("3 people took this quiz · best 90%".into()),
    });
    s.posting = Posting::OnKey {
        pr: "octo/app#7".into(),
    };
    let mut f = fixture_with(s, (100, 30));
    let shown = screen(&mut f.app, 100, 30);
    assert!(shown.contains("Title      Fix the parser now"), "{shown}");
    assert!(shown.contains("Author     @alice"), "{shown}");
    assert!(
        shown.contains("Taken      3 people took this quiz · best 90%"),
        "{shown}"
    );
    assert!(!shown.contains('\u{1b}'), "control sequences are stripped");
}

#[test]
fn a_graded_attempt_cannot_be_changed_after_the_right_answers_were_shown() {
    let mut f = fixture();
    let app = &mut f.app;
    submit_after(app, [Action::Start, Action::Pick(1)]);
    let score = app.results.as_ref().unwrap().total_score;
    // Esc goes to the overview; s (review) shows the results again, not the questions.
    run(app, [Action::Back]);
    assert_eq!(on_screen(app), "overview");
    run(app, [Action::OpenReview]);
    assert_eq!(on_screen(app), "results");
    // Opened from the results, a question reads only: picks, flags and clears are refused.
    run(
        app,
        [
            Action::Choose,
            Action::Pick(0),
            Action::ToggleFlag,
            Action::ClearAnswer,
        ],
    );
    assert!(app.reading());
    assert!(app.status.as_deref().unwrap().contains("graded"));
    run(
        app,
        [
            Action::NextQuestion,
            Action::PickTrue,
            Action::Paste("x".into()),
        ],
    );
    assert_eq!(app.session.answer("q2"), None);
    assert!(app.editor().is_none());
    assert_eq!(app.results.as_ref().unwrap().total_score, score);
    // Back on the results, the cursor is on the question just read.
    run(app, [Action::Back]);
    assert_eq!(results_cursor(app), Some(1));
}

/// Back on the results from the last question, only that question's heading was in view,
/// on the bottom line (its block was taken to be one row long).
#[test]
fn back_from_the_last_question_the_results_show_it() {
    let mut f = fixture();
    let app = &mut f.app;
    submit_after(app, [Action::Start]);
    run(app, [Action::Bottom, Action::Choose]);
    assert_eq!(app.question().unwrap().id, "q6");
    run(app, [Action::Back]);
    assert_eq!(results_cursor(app), Some(5));
    let shown = screen(app, 80, 24);
    assert!(
        shown.contains("q6 · mermaid") && shown.contains("Which sequence diagram"),
        "{shown}"
    );
}

#[test]
fn a_new_attempt_says_what_it_throws_away() {
    // Never submitted: no score to keep, and the dialog says so.
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Pick(0), Action::NewAttempt]);
    assert_eq!(
        app.confirm().cloned(),
        Some(Confirm::NewAttempt {
            graded: false,
            pending: 0,
            answered: 1
        })
    );
    let shown = screen(app, 100, 30);
    assert!(shown.contains("no score is kept"), "{shown}");
    assert!(!shown.contains("score is kept as"), "{shown}");
    run(app, [Action::No]);

    // Graded with an open answer still pending (no grader): the dialog counts it as lost.
    go_to_q5(app);
    run(
        app,
        [edited(app, "q5", "a written answer"), Action::OpenReview],
    );
    run(app, [Action::Submit, Action::Yes]);
    assert_eq!(app.results.as_ref().unwrap().pending, ["q5"]);
    run(app, [Action::NewAttempt]);
    let shown = screen(app, 100, 30);
    let text = match app.confirm() {
        Some(Confirm::NewAttempt { pending: 1, .. }) => shown.replace('│', " "),
        other => panic!("{other:?}"),
    };
    assert!(text.contains("1 open answer"), "{shown}");
    assert!(text.contains("will be lost"), "{shown}");
    run(app, [Action::No]);
    assert!(app.results.is_some(), "cancel keeps the graded attempt");
}

#[test]
fn enter_chooses_nothing_while_no_option_title_is_on_screen() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    let untitled = (0..200).find(|_| {
        run(app, [Action::ScrollDown]);
        !screen(app, 80, 24).contains(". Option ")
    });
    let shown = screen(app, 80, 24);
    assert!(untitled.is_some(), "a diagram fills the screen:\n{shown}");
    run(app, [Action::Choose]);
    assert_eq!(app.session.answer("q6"), None, "{shown}");
    assert!(
        app.status
            .as_deref()
            .unwrap_or("")
            .contains("scroll to one")
    );
}

/// Back on a diagram question scrolled to its top, the highlighted option (D) was off
/// screen while option 1's title was on it: Enter said no title was on screen. It now
/// highlights the first option in view and picks nothing; the next Enter picks it.
#[test]
fn enter_with_the_highlighted_option_off_screen_highlights_one_in_view() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    run(
        app,
        [Action::CursorDown, Action::CursorDown, Action::CursorDown],
    );
    for _ in 0..200 {
        run(app, [Action::ScrollUp]);
    }
    let shown = screen(app, 80, 24);
    assert!(shown.contains("1. Option A"), "{shown}");
    assert!(!shown.contains("4. Option D"), "{shown}");
    run(app, [Action::Choose]);
    assert_eq!(app.session.answer("q6"), None, "{shown}");
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("Option 1 is highlighted"), "{status}");
    run(app, [Action::Choose]);
    assert_eq!(app.session.answer("q6"), Some("A"));
}

/// `g`/Home on a scrolled question goes to its top (there was no key for that: it
/// jumped to question 1); on the top it goes to question 1. `G`/End on the last question
/// goes to its bottom.
#[test]
fn g_and_shift_g_reach_the_top_and_bottom_of_a_question() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    let last = app.current();
    run(app, [Action::Bottom]);
    assert!(
        app.scroll() > 0,
        "G on the last question scrolls to its bottom"
    );
    run(app, [Action::Top]);
    assert_eq!(
        (app.current(), app.scroll()),
        (last, 0),
        "g goes to its top first"
    );
    run(app, [Action::Top]);
    assert_eq!(app.current(), 0, "then to question 1");
}

/// `v` on a scrolled diagram question kept the scroll offset, which in the other form
/// pointed somewhere else: the highlighted option's title is now at the top.
#[test]
fn switching_pictures_and_lists_keeps_the_highlighted_option_in_view() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    run(app, [Action::CursorDown, Action::CursorDown]);
    let shown = screen(app, 80, 24);
    assert!(shown.contains("3. Option C"), "{shown}");
    run(app, [Action::ToggleDiagramList]);
    let listed = screen(app, 80, 24);
    assert!(listed.contains("3. Option C"), "{listed}");
    run(app, [Action::ToggleDiagramList]);
    let drawn = screen(app, 80, 24);
    assert!(drawn.contains("3. Option C"), "{drawn}");
}

#[test]
fn esc_on_a_question_opened_from_the_review_goes_back_there() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::OpenReview, Action::CursorDown]);
    run(app, [Action::CursorDown, Action::Choose]);
    assert_eq!((on_screen(app), app.current()), ("question", 2));
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(super::dispatch(app.context(), &esc), Some(Action::Back));
    let shown = screen(app, 100, 30);
    assert!(shown.contains("Esc/b back"), "the footer says so: {shown}");
    run(app, [Action::Back]);
    assert!(matches!(app.screen, Screen::Review { cursor: 2 }));
}

/// The diagram question opened from the review at 80 columns: the footer still offers the
/// comparison (a long "back to the review" hint once pushed it out; `v` is then in `?`).
#[test]
fn a_diagram_question_opened_from_the_review_still_offers_compare_at_80_columns() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::OpenReview, Action::Bottom]);
    let Screen::Review { cursor } = app.screen else {
        panic!("on the review")
    };
    run(app, [Action::Choose]);
    assert_eq!(app.current(), cursor);
    assert!(app.from_review());
    let footer = screen(app, 80, 24)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    for hint in ["Esc back", "C compare", "? help"] {
        assert!(footer.contains(hint), "{hint}: {footer}");
    }
}

/// On a diagram question the help's own section lists what works there; `t`/`f` (true or
/// false) come under "when they apply", not among this question's keys.
#[test]
fn the_help_lists_what_works_on_this_question_first() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    assert!(
        app.question()
            .is_some_and(|q| matches!(q.kind, QuestionKind::Mermaid { .. }))
    );
    run(app, [Action::ToggleHelp]);
    let help = crate::tui::help::help_lines(app, 100)
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>();
    let at = |title: &str| help.iter().position(|l| l.contains(title));
    let (here, apply) = (at("Questions (here)"), at("Questions (when they apply)"));
    let (Some(here), Some(apply)) = (here, apply) else {
        panic!("{help:#?}")
    };
    let true_key = help.iter().position(|l| l.contains("answer true")).unwrap();
    let compare = help
        .iter()
        .position(|l| l.contains("only what differs"))
        .unwrap();
    assert!(here < compare && compare < apply, "{help:#?}");
    assert!(apply < true_key, "{help:#?}");
}

#[test]
fn wide_terminals_show_diagram_options_side_by_side() {
    let mut f = fixture_with(settings(false), (160, 50));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    let shown = screen(app, 160, 50);
    let pair = shown
        .lines()
        .any(|l| l.contains("1. Option A") && l.contains("2. Option B"));
    assert!(pair, "A and B share a row:\n{shown}");
    // Every participant box of both drawings closes on screen.
    let whole = shown
        .lines()
        .any(|l| l.matches('┌').count() == 10 && l.matches('┐').count() == 10);
    assert!(whole, "the right-hand drawing is whole:\n{shown}");
}

#[test]
fn a_bad_anchor_shows_its_note_in_the_panel() {
    let mut quiz = parse_quiz(DEMO_QUIZ).unwrap();
    quiz.questions[0].anchor.as_mut().unwrap().path = "../../etc/passwd".into();
    quiz.questions[1].anchor.as_mut().unwrap().start_line = Some(9000);
    let mut s = settings(false);
    s.code = std::sync::Arc::new(crate::code::collect(&quiz, &crate::code::CodeContext::Demo));
    let mut f = fixture_with(s, (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleCode]);
    let shown = screen(app, 100, 30);
    assert!(shown.contains("┌ ../../etc/passwd "), "{shown}");
    assert!(
        shown.contains("the path leaves the repository (..): not read"),
        "{shown}"
    );
    run(app, [Action::NextQuestion]);
    let shown = screen(app, 100, 30);
    assert!(
        shown.contains("line 9000 is past the end of the file (109 lines at this commit)"),
        "{shown}"
    );
}

#[test]
fn the_panel_path_is_where_the_link_goes() {
    let text = (1..=30)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    let anchor = crate::quiz::Anchor {
        path: "src/a.rs".into(),
        start_line: Some(10),
        end_line: Some(12),
        extra: serde_json::Map::new(),
    };
    let snippet = crate::code::snippet(
        &text,
        &anchor,
        Some("https://github.com/o/r/blob/abc1234"),
        crate::code::Provenance::GitHub,
    )
    .unwrap();
    let mut book = crate::code::CodeBook::default();
    book.by_question
        .insert("q1".into(), crate::code::Code::Snippet(snippet));
    let mut s = settings(false);
    s.code = std::sync::Arc::new(book);
    let mut f = fixture_with(s, (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start]);
    assert_eq!(crate::tui::ui::code::link(app), None, "closed: no link");
    run(app, [Action::ToggleCode]);
    let (x, y, text, url) = crate::tui::ui::code::link(app).unwrap();
    assert_eq!(
        (text.as_str(), url.as_str()),
        (
            "src/a.rs:10-12",
            "https://github.com/o/r/blob/abc1234/src/a.rs#L10-L12"
        )
    );
    let shown = screen(app, 100, 30);
    let row: String = shown
        .lines()
        .nth(usize::from(y))
        .unwrap()
        .chars()
        .skip(usize::from(x))
        .collect();
    assert!(
        row.starts_with("src/a.rs:10-12 · at the PR's head"),
        "{row}"
    );
}

#[test]
fn a_short_code_panel_starts_at_the_anchor_and_scrolls_within_its_lines() {
    let mut f = fixture_with(settings(false), (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleCode]);
    assert_eq!(
        app.code_scroll, 3,
        "the three lines of context are a scroll away"
    );
    assert!(screen(app, 80, 24).contains("▌ 95     def _drain_agent("));
    run(
        app,
        [
            Action::CodeUp,
            Action::CodeUp,
            Action::CodeUp,
            Action::CodeUp,
        ],
    );
    assert_eq!(app.code_scroll, 0);
    for _ in 0..30 {
        run(app, [Action::CodeDown]);
    }
    let last = app.code_scroll;
    run(app, [Action::CodeUp]);
    assert_eq!(app.code_scroll, last - 1, "no hidden scroll past the end");
    run(app, [Action::CodeDown]);
    let end = screen(app, 80, 24);
    assert!(end.contains("│ 106 "), "the last line shows:\n{end}");
    // q6's context above the anchor wraps: the panel still opens on the first anchored row.
    run(app, [Action::Bottom]);
    let q6 = screen(app, 80, 24);
    let first = q6
        .lines()
        .skip_while(|l| !l.starts_with("┌ src/cognit/llm_claude_agent.py:55-62"))
        .nth(1)
        .unwrap_or_default()
        .to_string();
    assert!(first.starts_with("│▌55"), "{q6}");
}

/// `QUIZZ_GRADER=none` turned grading off: the overview says so, not that none is set up.
#[test]
fn the_overview_says_grading_was_turned_off_when_it_was() {
    let mut f = fixture_with(settings(false), (100, 30));
    let shown = screen(&mut f.app, 100, 30);
    assert!(shown.contains("no grader set up"), "{shown}");
    let mut s = settings(false);
    s.no_grader_why = Some("turned off by QUIZZ_GRADER=none".into());
    let mut f = fixture_with(s, (100, 30));
    let shown = screen(&mut f.app, 100, 30);
    assert!(
        shown.contains("no grader (turned off by QUIZZ_GRADER=none): open answers stay pending"),
        "{shown}"
    );
    assert!(!shown.contains("set up"), "{shown}");
}

#[test]
fn the_overview_says_what_the_quiz_covers_of_the_changed_files() {
    let quiz = parse_quiz(DEMO_QUIZ).unwrap();
    let changed: Vec<String> = [
        "README.md",
        "src/cognit/llm_claude_agent.py",
        "cognit/take.py",
    ]
    .map(String::from)
    .to_vec();
    let mut s = settings(false);
    s.coverage = Some(crate::code::Coverage::of(&quiz, &changed));
    let mut f = fixture_with(s, (100, 30));
    let shown = screen(&mut f.app, 100, 30);
    assert!(shown.contains("Covers     2 of 3 changed files"), "{shown}");
    let files: Vec<&str> = shown
        .lines()
        .skip_while(|l| !l.contains("Changed files and the questions on them"))
        .skip(1)
        .take(3)
        .collect();
    assert!(
        files[0].contains("src/cognit/llm_claude_agent.py  q1 q2 q3 q5 q6"),
        "{shown}"
    );
    assert!(
        files[1].contains("cognit/take.py  q4"),
        "suffix match: {shown}"
    );
    assert!(
        files[2].contains("README.md  —"),
        "not probed, listed last: {shown}"
    );
}

#[test]
fn many_changed_files_leave_room_for_the_prompt_to_start() {
    let quiz = parse_quiz(DEMO_QUIZ).unwrap();
    let changed: Vec<String> = (0..30).map(|i| format!("src/module_{i}.rs")).collect();
    let mut s = settings(false);
    s.coverage = Some(crate::code::Coverage::of(&quiz, &changed));
    let mut f = fixture_with(s, (80, 24));
    let shown = screen(&mut f.app, 80, 24);
    assert!(shown.contains("Press Enter to start"), "{shown}");
    assert!(shown.contains("more"), "{shown}");
}

#[test]
fn every_bad_anchor_shows_its_note_in_the_panel() {
    let repo = tempfile::tempdir().unwrap();
    let work = repo.path();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(work)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(work.join("short.py"), "a = 1\n").unwrap();
    std::fs::write(work.join("logo.png"), b"\x89PNG\0\0").unwrap();
    std::fs::File::create(work.join("big.txt"))
        .unwrap()
        .set_len(50 * 1024 * 1024)
        .unwrap();
    std::os::unix::fs::symlink("../../etc/passwd", work.join("escape")).unwrap();
    git(&["add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e",
        "commit",
        "-qm",
        "c",
    ]);
    let cases = [
        ("missing.py", 1, "no such file at this commit"),
        (
            "../../etc/passwd",
            1,
            "the path leaves the repository (..): not read",
        ),
        (
            "/etc/passwd",
            1,
            "an absolute path is outside the repository: not read",
        ),
        (
            "escape",
            1,
            "a symlink that leaves the repository: not read",
        ),
        ("logo.png", 1, "a binary file: nothing to show"),
        (
            "big.txt",
            1,
            "too large to show (50.0 MB; quizz reads files up to 1 MB)",
        ),
        // (the demo has six questions; a line past the end has its own tests)
        (
            "short.py",
            40,
            "line 40 is past the end of the file (1 line at this commit)",
        ),
    ];
    let mut quiz = parse_quiz(DEMO_QUIZ).unwrap();
    quiz.questions
        .truncate(cases.len().min(quiz.questions.len()));
    for (q, (path, line, _)) in quiz.questions.iter_mut().zip(&cases) {
        let anchor = q.anchor.as_mut().unwrap();
        anchor.path = (*path).into();
        anchor.start_line = Some(*line);
        anchor.end_line = Some(*line);
    }
    let book = crate::code::collect(&quiz, &crate::code::CodeContext::File { cwd: work });
    let mut s = settings(false);
    s.code = std::sync::Arc::new(book);
    let mut f = fixture_with(s, (120, 30));
    let app = &mut f.app;
    run(app, [Action::Start, Action::ToggleCode]);
    for (i, (_, _, note)) in cases.iter().enumerate().take(quiz.questions.len()) {
        while app.current() < i {
            run(app, [Action::NextQuestion]);
        }
        let shown = screen(app, 120, 30).replace('│', " ");
        assert!(shown.contains(note), "{note}:\n{shown}");
        assert!(!shown.contains("root:"), "{shown}");
    }
}

/// `C` on the demo's diagram question at 80x24: only what differs, each difference with
/// what every option has in its place, the options' titles under it to pick from.
#[test]
fn the_compact_comparison_at_80x24() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::Bottom]);
    let footer = screen(app, 80, 24);
    let footer = footer.lines().nth(23).unwrap();
    assert!(
        footer.contains("C compare")
            && footer.contains("v list/drawn")
            && footer.contains("d diff"),
        "{footer}"
    );
    run(app, [Action::ToggleComparison]);
    assert_eq!(
        app.status.as_deref(),
        Some("Compared: only what differs between the options (press C to see them again).")
    );
    run(app, [Action::ScrollDown]);
    run(app, [Action::ScrollUp]);
    let shown = screen(app, 80, 24);
    insta::assert_snapshot!("compare_80x24", shown);
    assert!(shown.contains("A, B, D  MCP handler"), "{shown}");
    assert!(shown.contains("C        missing"), "{shown}");
    // the options are still there to pick, under the comparison
    run(app, [Action::Pick(3)]);
    assert_eq!(app.session.answer("q6"), Some("D"));
    run(app, [Action::ToggleComparison]);
    assert!(!app.diagram_view.compare);
    assert!(screen(app, 80, 24).contains("┌────────┐"));
    // `d` from the comparison shows the options marked (it never turns marks off there).
    run(
        app,
        [
            Action::ToggleDifferences,
            Action::ToggleComparison,
            Action::ToggleDifferences,
        ],
    );
    assert!(app.diagram_view.differences && !app.diagram_view.compare);
}

/// `v` says what it did, in words, each time.
#[test]
fn v_says_what_it_did() {
    let mut f = fixture();
    let app = &mut f.app;
    run(
        app,
        [Action::Start, Action::Bottom, Action::ToggleDiagramList],
    );
    assert_eq!(
        app.status.as_deref(),
        Some("Listed: one row per edge or message (press v to draw them).")
    );
    assert!(app.diagram_view.list);
    run(app, [Action::ToggleDiagramList]);
    assert_eq!(
        app.status.as_deref(),
        Some("Drawn where they fit, else listed (press v to list them).")
    );
    // From the comparison, `v` shows the options again in the form they had.
    run(app, [Action::ToggleComparison, Action::ToggleDiagramList]);
    assert!(!app.diagram_view.compare && !app.diagram_view.list);
    // Elsewhere it says what it is for.
    run(app, [Action::Top, Action::ToggleDiagramList]);
    assert_eq!(
        app.status.as_deref(),
        Some("Nothing to list here: v is for diagram options.")
    );
}

/// Issue 22, item 4: a mermaid answer stored in another case (`d` for option `D`) was
/// graded right and practice said "✓ Right.", while the body marked no option. One rule
/// now says what it is: not option `D`, so not picked and not right, on screen and graded.
#[test]
fn a_mermaid_answer_in_another_case_is_neither_picked_nor_right() {
    let mut s = settings(false);
    s.practice = true;
    let mut f = fixture_with(s, (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start]);
    while app.question().unwrap().id != "q6" {
        run(app, [Action::NextQuestion]);
    }
    let body_text = |app: &App| {
        super::body::build(app, 97)
            .lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    };
    app.session.set_answer("q6", Some("d".into())).unwrap();
    let shown = body_text(app);
    assert!(!shown.contains("(•)"), "{shown}");
    assert!(shown.contains("✗ Not quite"), "{shown}");
    assert!(!shown.contains("✓ Right."), "{shown}");
    let outcomes = crate::quiz::grade_closed(&app.session.quiz, &app.session.answers());
    assert!(matches!(
        outcomes[5],
        crate::quiz::Outcome::Scored { score: 0, .. }
    ));
    // The label as the quiz spells it is option 4, picked and right.
    app.session.set_answer("q6", Some("D".into())).unwrap();
    let shown = body_text(app);
    assert!(shown.contains("(•) 4. Option D"), "{shown}");
    assert!(shown.contains("✓ Right."), "{shown}");
}

/// The terminal shrinks between two frames: the next frame is drawn before the resize
/// reaches `update`, from a view measured for the bigger size. It draws what fits.
#[test]
fn a_frame_drawn_before_a_resize_reaches_update_draws_what_fits() {
    let mut f = fixture_with(settings(false), (160, 50));
    let app = &mut f.app;
    go_to_q5(app);
    run(app, [Action::ToggleCode, Action::Top]);
    for (w, h) in [(60, 20), (30, 8)] {
        let shown = drawn(w, h, |f| super::draw(f, app));
        assert_eq!(shown.lines().count(), usize::from(h));
    }
    run(app, [Action::Bottom]);
    let shown = drawn(60, 20, |f| super::draw(f, app));
    assert_eq!(shown.lines().count(), 20);
}

/// The help's lines at `width`, as text.
fn help_text(app: &App, width: usize) -> Vec<String> {
    super::help::help_lines(app, width)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// On an empty open answer letters are text until Esc: the help's first section lists
/// what works there (no `e`, `m` or `q` as commands), and the question keys follow as
/// they are after Esc; the footer offers no Esc for "back" there either (Esc makes the
/// letters commands).
#[test]
fn the_help_on_an_empty_open_answer_lists_what_works_there() {
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start]);
    run(app, (0..4).map(|_| Action::NextQuestion));
    assert!(app.letters_type(), "q5 is open and empty");
    run(app, [Action::ToggleHelp]);
    let lines = help_text(app, 90);
    let end = lines.iter().position(String::is_empty).unwrap();
    let here = &lines[..end];
    let all = here.join("\n");
    assert_eq!(here[0], "An empty open answer (here)", "{all}");
    for command in ["  e ", "  m ", "  q ", "  x ", "  i "] {
        assert!(
            !here.iter().any(|l| l.starts_with(command)),
            "{command:?} types a letter here: {all}"
        );
    }
    assert!(all.contains("  Esc "), "{all}");
    assert!(
        here.iter().any(|l| l.starts_with("  Ctrl-E ")),
        "Ctrl-E still opens $EDITOR: {all}"
    );
    let after_esc = lines
        .iter()
        .position(|l| l.starts_with("Questions"))
        .unwrap();
    assert!(
        lines[after_esc..]
            .iter()
            .take_while(|l| !l.is_empty())
            .any(|l| l.starts_with("  e Ctrl-E ")),
        "after Esc, e is a command: {lines:?}"
    );

    // The review's cursor is on q5, where it was opened.
    run(
        app,
        [Action::ToggleHelp, Action::OpenReview, Action::Choose],
    );
    assert!(app.from_review() && app.letters_type());
    let footer = super::keymap::hints(super::keymap::Context::Question, &app.hint_filter());
    assert!(
        !footer.iter().any(|(keys, _, _)| keys.contains("Esc")),
        "Esc makes the letters commands here: {footer:?}"
    );
}

/// Before grading, an answer is only answered: its mark (`●`) judges nothing; `✓` is
/// kept for "right", once graded. The review's list says the same.
#[test]
fn answered_is_no_tick_until_the_answer_is_graded() {
    let mut f = fixture_with(settings(false), (100, 30));
    let app = &mut f.app;
    run(app, [Action::Start, Action::Pick(0)]);
    let asked = screen(app, 100, 30);
    assert!(asked.contains("▸1● "), "answered, not judged:\n{asked}");
    assert!(!asked.contains('✓'), "{asked}");
    run(app, [Action::OpenReview]);
    let review = screen(app, 100, 30);
    assert!(review.contains("  1. ● mcq"), "{review}");
    assert!(!review.contains('✓'), "{review}");
    run(app, [Action::Submit, Action::Yes, Action::Choose]);
    let graded = screen(app, 100, 30);
    assert!(graded.contains("▸1✓ "), "q1 is right:\n{graded}");
    assert!(!graded.contains('●'), "{graded}");
}

/// Review: `J` (the code panel's scroll) on a quiz with no code did nothing and said
/// nothing; `c` says why. Now `J` says so too, and with the code hidden, how to show it.
#[test]
fn scrolling_code_that_is_not_shown_says_why() {
    let mut s = settings(false);
    s.code = std::sync::Arc::new(crate::code::CodeBook::default());
    let mut f = fixture_with(s, (80, 24));
    let app = &mut f.app;
    run(app, [Action::Start, Action::CodeDown]);
    assert_eq!(
        app.status.as_deref(),
        Some("This question points at no code.")
    );
    let shown = screen(app, 80, 24);
    assert!(shown.contains("points at no code"), "{shown}");
    let mut f = fixture();
    let app = &mut f.app;
    run(app, [Action::Start, Action::CodeUp]);
    assert_eq!(
        app.status.as_deref(),
        Some("The code is hidden: c shows it.")
    );
}

/// Review: at 80 columns a read-only question's header cut "answered" off
/// (`read-only (T takes over)      1/16`). The question's kind gives way first, then the
/// word "Question": the note and the whole count stay.
#[test]
fn a_read_only_header_keeps_the_answered_count_whole_at_80_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = app_in(dir.path(), (80, 24));
    run(&mut first, [Action::Start, Action::Pick(0), Action::Bottom]);
    run(&mut first, [Action::ToggleFlag]);
    let mut second = app_in(dir.path(), (80, 24));
    run(&mut second, [Action::Start, Action::Bottom]);
    assert_eq!(second.current(), 5);
    let shown = screen(&mut second, 80, 24);
    let header = shown.lines().next().unwrap_or_default();
    assert!(header.contains("read-only (T takes over)"), "{header}");
    assert!(header.contains("⚑ flagged"), "{header}");
    assert!(header.trim_end().ends_with("1/6 answered"), "{header}");
    let wide = screen(&mut second, 120, 30);
    let header = wide.lines().next().unwrap_or_default();
    assert!(header.contains("Question 6/6 · mermaid"), "{header}");
}

/// The first choice of question `n` that is not its right one.
fn wrong_choice(app: &App, n: usize) -> usize {
    let right = app.session.quiz.questions[n].right_choice();
    (0..4).find(|&c| Some(c) != right).unwrap()
}

/// The body row holding `text`, as the view built it.
fn body_row<'a>(app: &'a App, text: &str) -> &'a ratatui::text::Line<'static> {
    let lines = &app.view.question.as_ref().unwrap().lines;
    lines
        .iter()
        .find(|l| l.to_string().contains(text))
        .unwrap_or_else(|| panic!("no row with {text:?}"))
}

/// Review: a diagram question opened from the results showed the wrong pick in the green
/// of "selected", no mark on the right option, and its only verdict ~160 rows down. Now
/// the verdict is at the top, the right option says so and the wrong pick is marked as
/// wrong; mcq and true/false alike.
#[test]
fn a_graded_question_marks_the_right_option_and_the_wrong_pick_at_the_top() {
    let mut f = fixture();
    let app = &mut f.app;
    let (mcq, tf, diagram) = (wrong_choice(app, 0), wrong_choice(app, 1), 1);
    run(
        app,
        [Action::Start, Action::Pick(mcq), Action::NextQuestion],
    );
    run(
        app,
        [Action::Pick(tf), Action::Bottom, Action::Pick(diagram)],
    );
    submit_after(app, []);
    let wrong_pick = app.settings.theme.wrong();
    run(app, [Action::Bottom, Action::Choose]);
    assert_eq!(app.question().unwrap().id, "q6");
    let shown = screen(app, 80, 24);
    let top: Vec<&str> = shown.lines().take(4).collect();
    assert!(
        top.iter()
            .any(|l| l.contains("✗ Not quite: you picked Option B; the answer is Option D")),
        "{shown}"
    );
    let picked = body_row(app, "2. Option B");
    assert!(
        picked
            .to_string()
            .contains("✗ (•) 2. Option B · your answer, wrong")
    );
    assert_eq!(picked.style, wrong_pick, "not the green of a pick");
    let right = body_row(app, "4. Option D").to_string();
    assert!(
        right.contains("✓ ( ) 4. Option D · correct answer"),
        "{right}"
    );
    // mcq and true/false, opened from the results.
    for (n, wrong) in [(0, mcq), (1, tf)] {
        run(app, [Action::Back, Action::Top]);
        for _ in 0..n {
            run(app, [Action::CursorDown]);
        }
        run(app, [Action::Choose]);
        let shown = screen(app, 80, 24);
        let q = app.question().unwrap().clone();
        assert_eq!(q.id, format!("q{}", n + 1));
        let right = q.right_choice().unwrap();
        let top = shown.lines().nth(2).unwrap_or_default();
        assert!(top.contains("✗ Not quite: you picked"), "{shown}");
        let lines = &app.view.question.as_ref().unwrap().lines;
        let rows: Vec<String> = lines.iter().map(ToString::to_string).collect();
        let lead = |c: usize| match q.kind {
            QuestionKind::TrueFalse { .. } => format!("{} ", ["t", "f"][c]),
            _ => format!("{}. ", c + 1),
        };
        let row_of = |c: usize| {
            rows.iter()
                .position(|r| {
                    r.contains(&format!("(•) {}", lead(c)))
                        || r.contains(&format!("( ) {}", lead(c)))
                })
                .unwrap()
        };
        assert!(
            rows[row_of(wrong)].starts_with(&format!("✗ (•) {}", lead(wrong))),
            "{shown}"
        );
        assert_eq!(lines[row_of(wrong)].style, wrong_pick);
        assert!(
            rows[row_of(right)].starts_with(&format!("✓ ( ) {}", lead(right))),
            "{shown}"
        );
        assert!(
            rows[row_of(right)..]
                .iter()
                .any(|r| r.contains("correct answer")),
            "{shown}"
        );
    }
}

/// Whether the body on screen shows option `title`'s title row.
fn title_on_screen(app: &mut App, w: u16, h: u16, title: &str) -> bool {
    let shown = screen(app, w, h);
    shown
        .lines()
        .skip(2)
        .take(usize::from(h) - 3)
        .any(|l| l.contains(title))
}

/// Review: on a diagram question at 100x30, `j j j` to `4. Option D`, then a resize to
/// 80x24 jumped back to the prompt (the options, drawn again for the new width elsewhere,
/// listed titles only meanwhile, and the scroll fell to 0). The focused option stays in
/// view, whether the drawing comes at once or later.
#[test]
fn a_resize_keeps_the_focused_option_in_view() {
    for later in [false, true] {
        let mut f = fixture_with(settings(false), (100, 30));
        let app = &mut f.app;
        run(app, [Action::Start, Action::Bottom]);
        run(
            app,
            [Action::CursorDown, Action::CursorDown, Action::CursorDown],
        );
        assert!(title_on_screen(app, 100, 30, "4. Option D"));
        assert!(app.scroll() > 0);
        let (asked, jobs) = std::sync::mpsc::channel();
        if later {
            let asked = std::sync::Mutex::new(asked);
            app.drawings.drawer =
                super::drawings::Drawer::Elsewhere(std::sync::Arc::new(move |job| {
                    asked.lock().unwrap().send(job).unwrap();
                }));
        }
        run(app, [Action::Resize(90, 27), Action::Resize(80, 24)]);
        while let Ok(job) = jobs.try_recv() {
            let drawn = std::sync::Arc::new(job.run());
            run(app, [Action::DiagramsDrawn(job.key, drawn)]);
        }
        assert!(app.diagrams.is_some());
        let shown = screen(app, 80, 24);
        assert!(
            title_on_screen(app, 80, 24, "4. Option D"),
            "later: {later}\n{shown}"
        );
        // Back at the top, a resize keeps the prompt in view.
        run(app, [Action::Top, Action::Resize(100, 30)]);
        assert_eq!(app.current(), 5);
        assert_eq!(app.scroll(), 0);
    }
}
