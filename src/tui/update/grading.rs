//! Submitting, grading, the results, and starting again.

use std::time::Instant;

use super::{Effect, navigation, saved};
use crate::quiz::{Outcome, QuestionKind, assemble, grade_closed};
use crate::tui::app::{App, Confirm, GradeRow, Grading, ResultDiagrams, ResultsScreen, Screen};
use crate::tui::body;

/// Enter on the overview: carry on; a graded attempt shows its results instead (its
/// answers were graded; changing them is a new attempt).
pub fn start_or_show(app: &mut App) -> Effect {
    if app.results.is_some() {
        show_results(app);
    } else {
        navigation::go(app, app.current());
    }
    Effect::None
}

pub fn show_results(app: &mut App) {
    if app.results.is_some() {
        let cursor = match &app.screen {
            Screen::Results(r) => r.cursor,
            _ => 0,
        };
        app.screen = Screen::Results(ResultsScreen { cursor, scroll: 0 });
    } else {
        app.status = Some("Not graded yet: submit from the review first.".into());
    }
}

/// Enter on the review. Asks first when questions are unanswered or flagged.
pub fn submit(app: &mut App, confirmed: bool) -> Effect {
    if refuse_when_read_only(app) {
        return Effect::None;
    }
    let unanswered = app.question_count() - app.session.answered_count();
    let flagged = app.session.flagged_count();
    if !confirmed && (unanswered > 0 || flagged > 0) {
        app.ask(Confirm::Submit {
            unanswered,
            flagged,
        });
        return Effect::None;
    }
    app.close_editor();
    let closed = grade_closed(&app.session.quiz, &app.session.answers());
    start(app, closed)
}

/// A read-only window grades nothing and starts no new attempt: its results could not be
/// saved (they were shown, and printed on quitting, as if they were). Says so; true then.
fn refuse_when_read_only(app: &mut App) -> bool {
    let Some(owner) = app.session.busy() else {
        return false;
    };
    app.status = Some(super::busy_message(&app.session, owner));
    true
}

/// Grades what is pending in `previous`, or finishes at once when nothing can be graded.
fn start(app: &mut App, previous: Vec<Outcome>) -> Effect {
    let answers = app.session.answers();
    let pending: Vec<String> = app
        .session
        .quiz
        .questions
        .iter()
        .zip(&previous)
        .filter(|(q, o)| matches!(o, Outcome::Pending) && answers.get(&q.id).is_some())
        .map(|(q, _)| q.id.clone())
        .collect();
    if pending.is_empty() || app.settings.grader.is_none() {
        finish(app, previous);
        return Effect::None;
    }
    app.outcomes.clone_from(&previous);
    app.grading = Some(Grading {
        started: Instant::now(),
        rows: pending
            .into_iter()
            .map(|id| (id, GradeRow::Waiting))
            .collect(),
    });
    app.clock = Instant::now();
    app.screen = Screen::Grading;
    Effect::StartGrading { previous }
}

/// `g` on the overview of a graded attempt: grade the open answers still pending.
pub fn grade_pending(app: &mut App) -> Effect {
    if refuse_when_read_only(app) {
        return Effect::None;
    }
    let Some(results) = &app.results else {
        app.status = Some("Not graded yet: submit from the review first.".into());
        return Effect::None;
    };
    if results.pending.is_empty() {
        app.status = Some("Nothing is pending: every answer is graded.".into());
        return Effect::None;
    }
    if app.settings.grader.is_none() {
        app.status =
            Some("No grader is set up, so pending answers stay pending (see quizz doctor).".into());
        return Effect::None;
    }
    let previous = results.outcomes(&app.session.quiz);
    start(app, previous)
}

/// `N` on the overview of a graded attempt: asks, then clears the answers.
pub fn new_attempt(app: &mut App) {
    if refuse_when_read_only(app) {
        return;
    }
    if app.results.is_none() && app.session.answered_count() == 0 {
        app.status = Some("This attempt is fresh already.".into());
        return;
    }
    let pending = app.results.as_ref().map_or(0, |r| r.pending.len());
    app.ask(Confirm::NewAttempt {
        graded: app.results.is_some(),
        pending,
        answered: app.session.answered_count(),
    });
}

pub fn start_new_attempt(app: &mut App) {
    let graded = app.results.is_some();
    let r = app.session.new_attempt();
    saved(app, r);
    app.results = None;
    app.outcomes.clear();
    app.grading = None;
    app.result_diagrams = None;
    app.reload_cursors();
    navigation::go(app, 0);
    app.status = Some(if graded {
        "New attempt: the answers are cleared; earlier scores are kept.".into()
    } else {
        "New attempt: the answers are cleared.".into()
    });
}

/// The stop key on the grading screen: the grading task ends.
pub fn stop_on_key(app: &mut App) -> Effect {
    if !matches!(app.screen, Screen::Grading) {
        return Effect::None;
    }
    stop(app);
    Effect::CancelGrading
}

pub fn stop(app: &mut App) {
    let outcomes = std::mem::take(&mut app.outcomes);
    finish(app, outcomes);
    app.status = Some("Grading stopped: open answers stay pending; your answers are kept.".into());
}

pub fn started(app: &mut App, id: &str) {
    set_row(
        app,
        id,
        GradeRow::Running {
            since: Instant::now(),
        },
    );
}

/// One open answer graded (or failed): progress only; the outcomes come with `done`.
pub fn finished(app: &mut App, id: &str, result: Result<crate::quiz::OpenGrade, String>) {
    let row = match result {
        Ok(g) => GradeRow::Done { score: g.score },
        Err(reason) => GradeRow::Failed { reason },
    };
    set_row(app, id, row);
}

pub fn done(app: &mut App, outcomes: Vec<Outcome>) {
    if matches!(app.screen, Screen::Grading) {
        finish(app, outcomes);
    }
}

fn set_row(app: &mut App, id: &str, row: GradeRow) {
    if let Some(grading) = app.grading.as_mut()
        && let Some((_, slot)) = grading.rows.iter_mut().find(|(rid, _)| rid == id)
    {
        *slot = row;
    }
    app.clock = Instant::now();
}

fn finish(app: &mut App, outcomes: Vec<Outcome>) {
    let outcomes = if outcomes.len() == app.question_count() {
        outcomes
    } else {
        grade_closed(&app.session.quiz, &app.session.answers())
    };
    let mut results = assemble(&app.session.quiz, &outcomes);
    results.set_confidence(&app.session.attempt().confidence);
    app.outcomes = outcomes;
    let r = app.session.set_results(&results);
    saved(app, r);
    app.results = Some(results);
    app.screen = Screen::Results(ResultsScreen::default());
}

/// Draws the right diagram of each mermaid question (and the taker's, when wrong) for
/// the results' width, when the results or the width changed.
pub fn refresh_result_diagrams(app: &mut App) {
    if !matches!(app.screen, Screen::Results(_)) || app.results.is_none() {
        return;
    }
    let width = crate::tui::view::measure::widths(app).results_diagram;
    if app
        .result_diagrams
        .as_ref()
        .is_some_and(|d| d.width == width)
    {
        return;
    }
    let mut drawn = Vec::new();
    for (i, q) in app.session.quiz.questions.iter().enumerate() {
        let QuestionKind::Mermaid { options, answer } = &q.kind else {
            continue;
        };
        let chosen = app.session.answer(&q.id);
        let wanted: Vec<&str> = std::iter::once(answer.as_str())
            .chain(chosen.filter(|c| c != answer))
            .collect();
        let picked: Vec<_> = options
            .iter()
            .filter(|o| wanted.contains(&o.label.as_str()))
            .cloned()
            .collect();
        let lines = body::diagrams(&picked, width, app.settings.theme);
        for (option, lines) in picked.iter().zip(lines) {
            drawn.push((i, option.label.clone(), lines));
        }
    }
    app.result_diagrams = Some(ResultDiagrams { width, drawn });
}
