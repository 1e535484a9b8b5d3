//! A quiz taken while the rest of it is written (the pipeline): how each thing the
//! writing tells changes the app ([`crate::tui::rest`] holds what is known of the rest).
//! The questions arrive as actions from the writing's thread, as keys do from the terminal.

use super::Effect;
use crate::generate::Stage;
use crate::generate::checks::MIN_QUESTIONS;
use crate::generate::growing::{Grew, Kept, WritingNews};
use crate::quiz::Quiz;
use crate::tui::app::{App, Confirm, Screen};

/// The actions of a quiz being written, handled before any other (`None`: not one of
/// them): what the writing told, Esc, and what waits for the rest.
pub fn handle(app: &mut App, action: &crate::tui::Action) -> Option<Effect> {
    match action {
        crate::tui::Action::Writing(told) => Some(news(app, told)),
        crate::tui::Action::StopWriting => {
            app.status = None;
            stop(app);
            Some(Effect::None)
        }
        crate::tui::Action::CodeRead(book) => {
            add_code(app, book);
            Some(Effect::None)
        }
        // A refused review or submit leaves the wait; any other key ends it.
        _ if hold(app, action) => Some(Effect::None),
        _ => {
            forget_wait_on_other_keys(app, action);
            None
        }
    }
}

/// `n` past the last ready question waits for the next one; another key the taker
/// presses meanwhile (an answer to this question, say) means they stayed: the question
/// that arrives then does not take the screen, nor the keys that follow.
fn forget_wait_on_other_keys(app: &mut App, action: &crate::tui::Action) {
    use crate::tui::Action;
    let from_the_taker = !matches!(
        action,
        Action::NextQuestion
            | Action::Tick
            | Action::Poll
            | Action::Resize(..)
            | Action::DiagramsDrawn(..)
            | Action::GradeStarted(_)
            | Action::GradeFinished(..)
            | Action::GradingDone(_)
            | Action::ExternalEditorDone(_)
    );
    if from_the_taker && let Some(w) = app.writing.as_mut() {
        w.waiting = None;
    }
}

/// Applies what the writing told.
fn news(app: &mut App, news: &WritingNews) -> Effect {
    match news {
        WritingNews::Stage(stage) => arrived(app, stage),
        WritingNews::Done(Ok(quiz)) => {
            whole(app, quiz.clone());
            Effect::None
        }
        WritingNews::Done(Err(why)) => {
            keep_written(app, why.as_deref());
            Effect::None
        }
    }
}

/// The anchored questions of the quiz that have no code yet (they arrived after the UI
/// opened, when its code was read), as a quiz to read the code of.
pub fn without_code(app: &App) -> Quiz {
    let mut quiz = app.session.quiz.clone();
    quiz.questions
        .retain(|q| q.anchor.is_some() && app.settings.code.get(&q.id).is_none());
    quiz
}

/// [`Effect::ReadCode`] when a question has an anchor but no code yet.
fn code_wanted(app: &App) -> Effect {
    if without_code(app).questions.is_empty() {
        Effect::None
    } else {
        Effect::ReadCode
    }
}

/// The code read for questions that arrived late joins the book: `c` shows it.
fn add_code(app: &mut App, book: &crate::code::CodeBook) {
    std::sync::Arc::make_mut(&mut app.settings.code)
        .by_question
        .extend(book.by_question.clone());
    // The view is measured again: the current question may have its panel now.
    app.view.inputs = None;
}

fn arrived(app: &mut App, stage: &Stage) -> Effect {
    let Some(writing) = app.writing.as_mut() else {
        return Effect::None;
    };
    if !matches!(stage, Stage::Writing { activity: None, .. }) || writing.summary.is_empty() {
        writing.summary = stage.summary().trim_end_matches(':').to_string();
    }
    match writing.growing.apply(stage) {
        Grew::Arrived { slot, position } => {
            let waited = writing.waiting.take();
            let quiz = writing.growing.quiz();
            let anchored = quiz
                .questions
                .get(position)
                .is_some_and(|q| q.anchor.is_some());
            let on = app.question().map(|q| q.id.clone());
            insert(app, quiz, position);
            match waited {
                // Still where `n` was pressed: the question waited for opens.
                Some((s, from)) if s == slot => {
                    if app.on_question() && on.as_deref() == Some(from.as_str()) {
                        super::go_to(app, position);
                        app.status = None;
                    }
                }
                other => {
                    if let Some(w) = app.writing.as_mut() {
                        w.waiting = other;
                    }
                }
            }
            if anchored {
                return code_wanted(app);
            }
        }
        Grew::Dropped { slot } => {
            if writing.waiting.as_ref().is_some_and(|(s, _)| *s == slot) {
                writing.waiting = None;
                app.status = Some(format!(
                    "question {} is left out: it failed its checks.",
                    slot + 1
                ));
            }
        }
        Grew::Planned | Grew::Nothing => {}
    }
    Effect::None
}

/// A question arrived at `position`: the quiz grows; the taker stays on the question they
/// are on, and every answer and option cursor stays with its question.
fn insert(app: &mut App, quiz: Quiz, position: usize) {
    let shifts = position <= app.current() && app.question_count() > 0;
    let current = app.current() + usize::from(shifts);
    app.session.grow(quiz);
    app.session.set_current(current);
    app.cursors.insert(position.min(app.cursors.len()), 0);
    if let Screen::Review { cursor } = &mut app.screen
        && *cursor >= position
        && shifts
    {
        *cursor += 1;
    }
    app.diagrams = None;
    app.drawings.shifted(position);
}

/// The whole quiz is written: it is the one taken, its answers saved where every later
/// take of it looks.
fn whole(app: &mut App, quiz: Quiz) {
    let count = quiz.questions.len();
    let on = app.question().map(|q| q.id.clone());
    app.session.grow(quiz);
    if let Some(at) = on.and_then(|id| app.session.quiz.questions.iter().position(|q| q.id == id)) {
        app.session.set_current(at);
    }
    app.reload_cursors();
    app.diagrams = None;
    app.drawings.shifted(0);
    app.writing = None;
    // "Stop writing?" has nothing left to stop.
    if matches!(app.confirm(), Some(Confirm::StopWriting { .. })) {
        app.overlay = None;
    }
    let r = app.session.settle();
    if let Err(e) = r {
        app.status = Some(format!("cannot save the answers: {e}"));
    } else {
        app.status = Some(format!(
            "All {count} questions are written: the review and submitting are open."
        ));
    }
}

/// The writing stopped (asked to, or failed) or the taker quits while it runs: the
/// questions written so far are the quiz, kept for the change with their answers. Fewer
/// than a quiz needs: nothing can be kept, and the taker is told.
pub fn keep_written(app: &mut App, failure: Option<&str>) {
    let Some(writing) = app.writing.as_mut() else {
        return;
    };
    let why = match &failure {
        Some(why) => format!("The writing failed ({why})"),
        None => "The writing stopped".to_string(),
    };
    let answered = app.session.answered_count() > 0;
    match writing.growing.keep(&writing.key, &mut app.session) {
        Ok(Kept::TooFew(ready)) => {
            writing.ended = Some(format!(
                "{why}: only {ready} question was written, too few for a quiz; q quits ({}).",
                if answered {
                    "its answer is not kept"
                } else {
                    "nothing is kept"
                }
            ));
            app.status = writing.ended.clone();
        }
        Ok(Kept::Quiz(ready)) => {
            app.writing = None;
            app.status = Some(format!(
                "{why}: you keep the {ready} questions written, with your answers."
            ));
        }
        Err(e) => {
            app.writing = None;
            app.status = Some(format!("{why}; cannot keep what was written: {e}"));
        }
    }
}

/// Esc while the rest is written: asks before stopping (what is written is kept).
fn stop(app: &mut App) {
    let Some(writing) = &app.writing else {
        return;
    };
    if writing.ended.is_some() || writing.stopping {
        return;
    }
    let ready = writing.growing.ready();
    if ready < MIN_QUESTIONS {
        app.status = Some(format!(
            "Only {ready} question is written: a quiz needs {MIN_QUESTIONS}, so the writing goes on (q quits)."
        ));
    } else {
        app.ask(Confirm::StopWriting { ready });
    }
}

/// y on "stop writing?".
pub fn stop_confirmed(app: &mut App) -> Effect {
    match app.writing.as_mut() {
        Some(w) if !w.stopping => {
            w.stopping = true;
            Effect::StopWriting
        }
        _ => Effect::None,
    }
}

/// While the rest is written, what waits for it: `n` past the last ready question says
/// so (and opens the one it waits for when it arrives), the review and submitting wait.
/// `true`: the action was handled here.
fn hold(app: &mut App, action: &crate::tui::Action) -> bool {
    use crate::tui::Action;
    let Some(writing) = app.writing.as_ref() else {
        return false;
    };
    if !matches!(
        app.context(),
        super::Context::Question | super::Context::Overview
    ) {
        return false;
    }
    let pending = writing.pending();
    let blocked = writing.ended.clone();
    match action {
        Action::NextQuestion
            if app.on_question()
                && !app.reading()
                && app.current() + 1 >= app.question_count()
                && pending > 0 =>
        {
            let from = writing.growing.slot_of(app.current()).unwrap_or_default();
            let Some(slot) = writing.growing.next_writing(from) else {
                return false;
            };
            let id = app.question().map(|q| q.id.clone()).unwrap_or_default();
            if let Some(w) = app.writing.as_mut() {
                w.waiting = Some((slot, id));
            }
            app.status = Some(format!(
                "question {} is still being written: it opens here when it is ready.",
                slot + 1
            ));
            true
        }
        Action::OpenReview | Action::Submit | Action::NextQuestion
            if matches!(action, Action::OpenReview | Action::Submit)
                || app.current() + 1 >= app.question_count() =>
        {
            app.status = Some(match blocked {
                Some(why) => why,
                None if pending == 0 => {
                    "The review and submitting wait for the whole quiz's last checks.".into()
                }
                None => format!(
                    "Review and submit wait for all: {} still being written.",
                    crate::text::plural(pending, "question is", "questions are")
                ),
            });
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::cache;
    use crate::generate::cache::QuizKey;
    use crate::generate::growing::Growing;
    use crate::quiz::{Question, parse_quiz};
    use crate::source::{DEMO_QUIZ, LoadedQuiz};
    use crate::store::{Origin, Store};
    use crate::tui::rest::Writing;
    use crate::tui::{Action, update};
    use std::time::Instant;

    fn demo(i: usize) -> Question {
        parse_quiz(DEMO_QUIZ).unwrap().questions[i].clone()
    }

    fn ready(index: usize) -> Action {
        Action::Writing(Box::new(WritingNews::Stage(Stage::QuestionReady {
            index,
            question: demo(index),
        })))
    }

    fn key() -> QuizKey {
        QuizKey {
            repository: "/repo".into(),
            digest: "ab".repeat(32),
            model: "m".into(),
        }
    }

    /// The demo's first four questions planned; slots 0 and 2 ready; the question screen on
    /// the first.
    fn app(dir: &std::path::Path) -> App {
        let mut growing = Growing::new(0);
        growing.apply(&Stage::Planned {
            slots: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        });
        for i in [0, 2] {
            growing.apply(&Stage::QuestionReady {
                index: i,
                question: demo(i),
            });
        }
        let store = Store::at(dir);
        let origin = Origin::Demo;
        let path = store.writing_attempt_path(&origin, &key().writing_name());
        let loaded = LoadedQuiz {
            quiz: growing.quiz(),
            origin,
            notes: Vec::new(),
        };
        let session = Session::open_writing(store, loaded, path).unwrap();
        let settings = crate::tui::Settings {
            practice: false,
            theme: crate::tui::theme::Theme { no_color: true },
            mouse: false,
            grader: None,
            no_grader_why: None,
            posting: crate::tui::Posting::Nowhere(crate::tui::NoPost::Local),
            grade_later: String::new(),
            pr: None,
            // Read as a take reads it when the UI opens: for the questions there then.
            code: std::sync::Arc::new(demo_code(&growing.quiz())),
            coverage: None,
            hyperlinks: false,
            ask_confidence: false,
        };
        let mut app = App::new(session, settings, (80, 24));
        app.writing = Some(Writing::new(growing, key(), Instant::now(), String::new()));
        update(&mut app, Action::Start);
        app
    }

    use crate::session::Session;

    fn demo_code(quiz: &Quiz) -> crate::code::CodeBook {
        crate::code::collect(quiz, &crate::code::CodeContext::Demo)
    }

    #[test]
    fn a_question_that_arrives_anchored_gets_its_code_panel() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        assert!(app.code().is_some(), "q1's code was read as the UI opened");
        assert!(demo(1).anchor.is_some());
        assert_eq!(update(&mut app, ready(1)), Effect::ReadCode);
        let late = without_code(&app);
        let ids: Vec<&str> = late.questions.iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids, ["q2"], "only the one that arrived is read");
        // What the event loop does with the effect.
        update(&mut app, Action::CodeRead(Box::new(demo_code(&late))));
        assert_eq!(without_code(&app).questions.len(), 0);
        update(&mut app, Action::NextQuestion);
        assert_eq!(app.question().unwrap().id, "q2");
        assert!(app.code().is_some(), "q2 has its code");
        update(&mut app, Action::ToggleCode);
        assert!(app.code_open);
        let panel = app.view.question.as_ref().and_then(|q| q.code.as_ref());
        assert!(panel.is_some(), "c shows q2's code panel");
    }

    #[test]
    fn a_question_arriving_before_the_one_on_screen_keeps_the_place_and_every_answer() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        assert!(app.on_question());
        update(&mut app, Action::Pick(1));
        update(&mut app, Action::NextQuestion);
        assert_eq!(app.question().unwrap().id, "q3");
        update(&mut app, Action::CursorDown);
        let cursor = app.cursors[1];
        update(&mut app, ready(1));
        assert_eq!(app.question().unwrap().id, "q3", "still on q3");
        assert_eq!(app.current(), 2);
        assert_eq!(app.cursors.len(), 3);
        assert_eq!(app.cursors[2], cursor, "its cursor moved with it");
        assert!(app.is_answered("q1"));
        assert_eq!(app.session.answered_count(), 1);
    }

    #[test]
    fn n_past_the_last_ready_question_waits_for_the_next_one_and_opens_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        update(&mut app, Action::NextQuestion);
        update(&mut app, Action::NextQuestion);
        assert!(app.on_question(), "no review yet");
        assert_eq!(app.question().unwrap().id, "q3");
        let status = app.status.clone().unwrap();
        assert!(
            status.contains("question 4 is still being written"),
            "{status}"
        );
        update(&mut app, ready(3));
        assert_eq!(app.question().unwrap().id, "q4", "opened as it arrived");
        // One that arrives elsewhere (slot 1) does not move the taker.
        update(&mut app, ready(1));
        assert_eq!(app.question().unwrap().id, "q4");
    }

    /// A fresh-eyes review: `n` on q3, then `t` to answer q3 after all; q4 arrived and
    /// took the screen, and the keys that followed went into q4's answer box.
    #[test]
    fn a_key_pressed_after_n_keeps_the_taker_where_they_are_when_the_question_arrives() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        update(&mut app, Action::NextQuestion);
        update(&mut app, Action::NextQuestion);
        assert_eq!(app.question().unwrap().id, "q3");
        update(&mut app, Action::Tick);
        update(&mut app, Action::Pick(0));
        update(&mut app, ready(3));
        assert_eq!(
            app.question().unwrap().id,
            "q3",
            "stays where it was answered"
        );
        assert_eq!(app.question_count(), 3, "and the question arrived");
    }

    #[test]
    fn the_review_and_submit_wait_for_every_question() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        for action in [Action::OpenReview, Action::Submit] {
            update(&mut app, action);
            assert!(app.on_question());
            let status = app.status.clone().unwrap();
            assert!(
                status.contains("2 questions are still being written"),
                "{status}"
            );
        }
        // Whole: the quiz is the one the pipeline returned, the answers under its digest.
        update(&mut app, Action::Pick(0));
        update(&mut app, ready(1));
        update(&mut app, ready(3));
        let whole = app.writing.as_ref().unwrap().growing.quiz();
        update(
            &mut app,
            Action::Writing(Box::new(WritingNews::Done(Ok(whole.clone())))),
        );
        assert!(app.writing.is_none());
        let store = app.session.store().clone();
        assert_eq!(
            app.session.path(),
            store.attempt_path(&Origin::Demo, &whole.digest())
        );
        crate::tui::save_batch(&mut app);
        let found = store.load_attempt(&Origin::Demo, &whole).unwrap();
        assert_eq!(found.attempt.answers.len(), 1);
        update(&mut app, Action::OpenReview);
        assert!(matches!(app.screen, Screen::Review { .. }));
    }

    #[test]
    fn stopping_keeps_the_questions_written_and_their_answers() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(dir.path());
        update(&mut app, Action::Pick(0));
        update(&mut app, Action::StopWriting);
        assert_eq!(app.confirm(), Some(&Confirm::StopWriting { ready: 2 }));
        assert_eq!(update(&mut app, Action::Yes), Effect::StopWriting);
        update(
            &mut app,
            Action::Writing(Box::new(WritingNews::Done(Err(None)))),
        );
        assert!(app.writing.is_none());
        let kept = cache::load(app.session.store(), &key()).unwrap().0;
        assert_eq!(kept.questions.len(), 2);
        let found = app
            .session
            .store()
            .load_attempt(&Origin::Demo, &kept)
            .unwrap();
        assert_eq!(
            found.attempt.answers.len(),
            1,
            "the answer moved with the quiz"
        );
    }
}
