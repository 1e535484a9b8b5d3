//! The one place state changes: `update(&mut App, Action)`.
//!
//! Answer changes go to the session, which [`save_batch`] writes once per batch of input;
//! what needs the terminal or a runtime (an external editor, grading) comes back as an
//! [`Effect`].

mod editing;
mod grading;
mod navigation;
pub mod writing;

pub use super::undo::Undo;

use std::time::Instant;

use super::action::Action;
use super::app::{App, Confirm, DiagramCache, Overlay, Screen};
use super::body;
use super::drawings::{DrawingJob, DrawingKey};
use super::keymap::{Context, key_for};
use crate::quiz::{Outcome, QuestionKind};
use crate::store::StoreError;

/// Work the event loop does for `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    /// Suspend the UI and edit this question's answer in `$VISUAL`/`$EDITOR`, in a file
    /// in `dir` (quizz's private folder).
    ExternalEditor {
        question_id: String,
        text: String,
        dir: std::path::PathBuf,
    },
    /// Grade the open answers still pending in `previous` (one outcome per question).
    StartGrading {
        previous: Vec<Outcome>,
    },
    CancelGrading,
    /// Stop writing the rest of the quiz (it answers with what it was cancelled at).
    StopWriting,
    /// Read the code of the anchored questions that have none yet (they arrived while
    /// the UI was open): it comes back as [`crate::tui::Action::CodeRead`].
    ReadCode,
}

/// Applies one action; then keeps the current question's diagrams drawn for its width
/// and every scroll within what its screen can show.
pub fn update(app: &mut App, action: Action) -> Effect {
    let moves_view = matches!(
        action,
        Action::ScrollDown
            | Action::ScrollUp
            | Action::PageDown
            | Action::PageUp
            | Action::CursorDown
            | Action::CursorUp
            | Action::Top
            | Action::Bottom
            | Action::WheelDown
            | Action::WheelUp
            | Action::ToggleHelp
            | Action::ToggleDiagramList
            | Action::ToggleComparison
            | Action::Resize(..)
    );
    let differences = matches!(action, Action::ToggleDifferences)
        || matches!(&action, Action::DiagramsDrawn(key, _) if key.view.differences);
    let reform = matches!(action, Action::ToggleDiagramList);
    let before = (app.on_question(), app.current());
    // A resize lays the body out again: the place is kept by what is there, not by row.
    let resized = matches!(action, Action::Resize(..));
    if resized {
        app.place = app.place.or_else(|| navigation::place(app));
    } else if !action.is_passive() || matches!(action, Action::WheelDown | Action::WheelUp) {
        app.place = None;
    }
    let effect = writing::handle(app, &action).unwrap_or_else(|| apply(app, action));
    if (app.on_question(), app.current()) != before && app.on_question() {
        app.arrived = Some(Instant::now());
    }
    refresh(app);
    if reform {
        // Drawn elsewhere: the place is kept once the new form arrives.
        app.drawings.keep_place = true;
    }
    if app.drawings.keep_place && app.diagrams.is_some() {
        app.drawings.keep_place = false;
        navigation::keep_place_after_reform(app);
    }
    // The drawings may be too different for cell marks: the status says what happened.
    if differences && let Some(note) = app.diagrams.as_ref().and_then(|c| c.arranged.note.as_ref())
    {
        app.status = Some(body::note_text(note));
    }
    if moves_view {
        navigation::clamp_scrolls(app);
    }
    if app.place.is_some() {
        navigation::restore_place(app);
    }
    effect
}

/// The diagrams drawn and the view measured for the state as it is now (when what they
/// depend on changed): after each action, and before the first frame.
pub fn refresh(app: &mut App) {
    refresh_diagrams(app);
    grading::refresh_result_diagrams(app);
    crate::tui::view::measure::refresh(app);
}

/// Opens question `index` (a question the taker waited for has arrived).
pub fn go_to(app: &mut App, index: usize) {
    navigation::go(app, index);
}

/// After a batch of input, before drawing: write what changed, so what is on screen is
/// on disk.
pub fn save_batch(app: &mut App) {
    if app.session.is_dirty() {
        let r = app.session.flush();
        if matches!(r, Err(StoreError::Busy { .. })) {
            editing::keep_editor_as_draft(app);
        }
        saved(app, r);
    }
}

/// Draws the diagrams of the current question again when the question or the width changed.
pub fn refresh_diagrams(app: &mut App) {
    let Some(QuestionKind::Mermaid { options, .. }) = app.question().map(|q| &q.kind) else {
        app.diagrams = None;
        return;
    };
    let width = crate::tui::view::measure::widths(app).body;
    let view = app.diagram_view;
    if app
        .diagrams
        .as_ref()
        .is_some_and(|c| c.question == app.current() && c.width == width && c.view == view)
    {
        return;
    }
    let key = DrawingKey {
        question: app.current(),
        width,
        view,
    };
    let theme = app.settings.theme;
    let options = options.clone();
    let job = move || DrawingJob {
        key,
        options,
        theme,
    };
    // Until the drawing arrives the body lists the options' titles (they can be picked).
    app.diagrams = app
        .drawings
        .get_or_ask(job, key)
        .map(|arranged| DiagramCache {
            question: key.question,
            width,
            view,
            arranged,
        });
}

#[allow(clippy::too_many_lines)] // one arm per action, each a call or a line
fn apply(app: &mut App, action: Action) -> Effect {
    // A status line lasts until the next thing the user does.
    if !action.is_passive() {
        app.status = None;
    }
    if navigation::scroll_help(app, &action) {
        return Effect::None;
    }
    if navigation::rate_or_skip(app, &action) {
        return Effect::None;
    }
    match action {
        Action::ForceQuit => app.exit = true,
        Action::Quit => {
            if app.results.is_some() || app.session.answered_count() == 0 {
                app.exit = true;
            } else {
                app.ask(Confirm::Quit);
            }
        }
        Action::Yes => return confirm(app),
        Action::No => app.overlay = None,
        Action::StopGrading => return grading::stop_on_key(app),
        Action::Start => return grading::start_or_show(app),
        Action::Back => navigation::back(app),
        Action::NextQuestion => navigation::next(app),
        Action::PrevQuestion => navigation::go(app, app.current().saturating_sub(1)),
        Action::Top => navigation::first(app),
        Action::Bottom => navigation::last(app),
        Action::CursorDown => navigation::move_cursor(app, 1),
        Action::CursorUp => navigation::move_cursor(app, -1),
        Action::Choose => navigation::choose(app),
        Action::Pick(n) => navigation::pick(app, n),
        Action::PickTrue => navigation::pick_bool(app, true),
        Action::PickFalse => navigation::pick_bool(app, false),
        Action::ClearAnswer => editing::clear_answer(app),
        Action::ToggleFlag => toggle_flag(app),
        Action::ToggleDifferences => toggle_differences(app),
        Action::ToggleDiagramList => toggle_list(app),
        Action::ToggleComparison => toggle_comparison(app),
        // Handled by the rating they rate or skip; without one they mean nothing. The
        // writing's own are handled before (`writing::handle`).
        Action::SkipRating
        | Action::Rate(_)
        | Action::Writing(_)
        | Action::StopWriting
        | Action::CodeRead(_) => {}
        Action::ToggleCode => navigation::toggle_code(app),
        Action::CodeDown => navigation::scroll_code(app, 1),
        Action::CodeUp => navigation::scroll_code(app, -1),
        Action::StartEditing => editing::start_editing(app),
        Action::StopEditing => {
            // Out of the box (or Esc on an empty one): letters are commands here now.
            if let Some(q) = app.question_screen_mut() {
                q.editor = None;
                q.letters_are_commands = true;
            }
        }
        Action::StopEditingThen(key) => {
            app.close_editor();
            if let Some(next) = super::keymap::dispatch(app.context(), &key) {
                return apply(app, next);
            }
        }
        Action::CloseNoticeThen(key) => {
            app.overlay = None;
            if let Some(next) = super::to_action_of_key(app, &key) {
                return apply(app, next);
            }
        }
        Action::EditorKey(key) => editing::key(app, key),
        Action::Undo => editing::undo(app),
        Action::WriteKey(key) => editing::write_key(app, key),
        Action::Paste(text) => editing::paste(app, &text),
        Action::ExternalEditor => return editing::external_editor(app),
        Action::ExternalEditorDone(result) => match result {
            Ok(edited) => editing::editor_done(app, &edited),
            Err(why) => editing::editor_failed(app, why),
        },
        Action::TakeOver => take_over(app),
        // Submitted already: the results are the review.
        Action::OpenReview if app.results.is_some() => grading::show_results(app),
        Action::OpenReview => navigation::open_review(app),
        Action::Submit => return grading::submit(app, false),
        Action::ShowResults => grading::show_results(app),
        Action::GradePending => return grading::grade_pending(app),
        Action::NewAttempt => grading::new_attempt(app),
        Action::Post => post(app),
        Action::ToggleHelp => {
            app.overlay = match app.overlay {
                Some(Overlay::Help { .. }) => None,
                _ => Some(Overlay::Help { scroll: 0 }),
            };
        }
        Action::ScrollDown | Action::WheelDown => navigation::scroll(app, 1),
        Action::ScrollUp | Action::WheelUp => navigation::scroll(app, -1),
        Action::PageDown => navigation::page(app, 1),
        Action::PageUp => navigation::page(app, -1),
        Action::Resize(w, h) => app.size = (w, h),
        Action::Tick => {
            app.clock = Instant::now();
            app.spinner = app.spinner.wrapping_add(1);
        }
        Action::Poll => poll(app),
        Action::DiagramsDrawn(key, arranged) => app.drawings.arrived(key, arranged),
        Action::GradeStarted(id) => grading::started(app, &id),
        Action::GradeFinished(id, result) => grading::finished(app, &id, result),
        Action::GradingDone(outcomes) => grading::done(app, outcomes),
    }
    Effect::None
}

/// In practice a closed answer whose verdict showed stays as it is (else a wrong answer
/// becomes a right one): says so and returns true. A graded attempt refuses too.
pub fn refuse_answer_change(app: &mut App) -> bool {
    if refuse_when_graded(app) {
        return true;
    }
    let revealed = app.settings.practice
        && app.rating().is_none()
        && app.question().is_some_and(|q| {
            q.kind.is_closed() && app.session.answer(&q.id).is_some_and(|a| !a.is_empty())
        });
    if revealed {
        app.status = Some("Practice: the verdict is shown, so this answer stays.".into());
    }
    revealed
}

/// On a graded attempt nothing changes an answer: says so and returns true.
pub fn refuse_when_graded(app: &mut App) -> bool {
    if app.results.is_none() {
        return false;
    }
    app.status = Some(format!(
        "This attempt is graded: answers stay as they were. {} on the overview starts a new attempt.",
        key_for(Context::Overview, &Action::NewAttempt)
    ));
    true
}

/// `d`: marks where a diagram question's options differ (nothing to mark elsewhere).
fn toggle_differences(app: &mut App) {
    let diagrams = app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Mermaid { .. }));
    if !diagrams {
        app.status = Some("Nothing to compare here: d marks where diagram options differ.".into());
        return;
    }
    // From the comparison, `d` shows the options with their differences marked.
    let was_comparing = std::mem::take(&mut app.diagram_view.compare);
    app.diagram_view.differences = was_comparing || !app.diagram_view.differences;
    app.status = Some(if app.diagram_view.differences {
        "Marked: where the options differ from each other (not which one is right).".into()
    } else {
        "Differences no longer marked.".into()
    });
}

/// Whether this question's options are diagrams; else the status says what `key` is for.
fn on_diagrams(app: &mut App, action: &Action, what: &str) -> bool {
    let diagrams = app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Mermaid { .. }));
    if !diagrams {
        let key = key_for(Context::Question, action);
        app.status = Some(format!(
            "Nothing to {what} here: {key} is for diagram options."
        ));
    }
    diagrams
}

/// `v`: the options drawn, or listed one row per edge or message; the status says which.
fn toggle_list(app: &mut App) {
    if !on_diagrams(app, &Action::ToggleDiagramList, "list") {
        return;
    }
    let key = key_for(Context::Question, &Action::ToggleDiagramList);
    let was_comparing = std::mem::take(&mut app.diagram_view.compare);
    // Back from the comparison, `v` shows the options in the form they had.
    if !was_comparing {
        app.diagram_view.list = !app.diagram_view.list;
    }
    app.status = Some(if app.diagram_view.list {
        format!("Listed: one row per edge or message (press {key} to draw them).")
    } else {
        format!("Drawn where they fit, else listed (press {key} to list them).")
    });
}

/// `C`: only what differs between the options, item by item, or the options again.
fn toggle_comparison(app: &mut App) {
    if !on_diagrams(app, &Action::ToggleComparison, "compare") {
        return;
    }
    let key = key_for(Context::Question, &Action::ToggleComparison);
    app.diagram_view.compare = !app.diagram_view.compare;
    if let Some(scroll) = app.scroll_mut() {
        *scroll = 0;
    }
    app.status = Some(if app.diagram_view.compare {
        format!("Compared: only what differs between the options (press {key} to see them again).")
    } else {
        format!("The options again (press {key} to compare them).")
    });
}

fn toggle_flag(app: &mut App) {
    if refuse_when_graded(app) {
        return;
    }
    if let Some(id) = app.question().map(|q| q.id.clone()) {
        let flagged = !app.session.is_flagged(&id);
        let r = app.session.set_flag(&id, flagged);
        saved(app, r);
    }
}

/// `P` on the results posts them, when they go to a pull request on that key.
fn post(app: &mut App) {
    use super::app::Posting;
    if !matches!(app.screen, Screen::Results(_)) {
        return;
    }
    match &app.settings.posting {
        Posting::OnKey { .. } => {
            app.post = true;
            app.exit = true;
        }
        // `P` means nothing here; say why rather than nothing.
        Posting::Nowhere(why) => {
            app.status = Some(format!("Not posted: {}; its results stay here.", why.why()));
        }
        Posting::Off => {
            app.status = Some("Posting is off for this take (--no-post).".into());
        }
        Posting::WrittenHere { pr } => {
            let _ = pr;
            app.status =
                Some("Not posted: quizz wrote this quiz, so its results stay here.".into());
        }
        Posting::OnExit { .. } => {
            app.status = Some("These results are posted when you quit (--post).".into());
        }
    }
}

fn confirm(app: &mut App) -> Effect {
    let confirm = match app.overlay.take() {
        Some(Overlay::Confirm(c)) => Some(c),
        other => {
            app.overlay = other;
            None
        }
    };
    match confirm {
        Some(Confirm::Quit) => app.exit = true,
        Some(Confirm::ClearAnswer { id, .. }) => {
            let r = app.session.set_answer(&id, None);
            saved(app, r);
            app.status = Some("Answer cleared.".into());
        }
        Some(Confirm::Submit { .. }) => return grading::submit(app, true),
        Some(Confirm::NewAttempt { .. }) => grading::start_new_attempt(app),
        Some(Confirm::StopWriting { .. }) => return writing::stop_confirmed(app),
        Some(Confirm::Notice { .. }) | None => {}
    }
    Effect::None
}

fn saved(app: &mut App, result: Result<(), StoreError>) {
    match result {
        Ok(()) => {}
        Err(StoreError::Busy { owner }) => {
            // The answer box stays: what is typed in it is kept as a draft.
            app.status = Some(busy_message(&app.session, &owner));
        }
        Err(e) => {
            tracing::error!("saving the attempt failed: {e}");
            app.status = Some(format!("Could not save: {e}"));
        }
    }
}

fn busy_message(session: &crate::session::Session, owner: &crate::store::Owner) -> String {
    let take_over = key_for(Context::Question, &Action::TakeOver);
    // Once the owner has closed, it is not "open in another quizz" any more.
    if session.owner_closed() {
        format!("Read-only: the other quizz ({owner}) has closed. {take_over} takes over.")
    } else {
        format!("Read-only: open in another quizz ({owner}). {take_over} takes over.")
    }
}

/// What the twice-a-second look found: said at once, not on the next key.
fn poll(app: &mut App) {
    use crate::session::PollNews;
    match app.session.poll() {
        PollNews::Nothing => {}
        PollNews::Reread => app.reload_cursors(),
        PollNews::TakenOver(owner) => {
            // What the answer box holds stays there, as a draft this window keeps.
            editing::keep_editor_as_draft(app);
            // One footer line at 80 columns: the box's title says how to keep the draft.
            app.status = Some(if app.editor().is_some() {
                format!("Another quizz ({owner}) took this quiz over: typing here is a draft.")
            } else {
                busy_message(&app.session, &owner)
            });
        }
        PollNews::OwnerClosed => {
            let owner = app
                .session
                .busy()
                .map(ToString::to_string)
                .unwrap_or_default();
            let leave = if app.editor().is_some() {
                format!("{}, then ", key_for(Context::Editing, &Action::StopEditing))
            } else {
                String::new()
            };
            app.status = Some(format!(
                "The other quizz ({owner}) has closed: {leave}{} takes over and saves here.",
                key_for(Context::Question, &Action::TakeOver)
            ));
        }
    }
}

fn take_over(app: &mut App) {
    if app.session.busy().is_none() {
        app.status = Some("This window saves the answers already.".into());
        return;
    }
    match app.session.take_over() {
        Ok(()) => {
            app.reload_cursors();
            let restored = editing::restore_drafts(app);
            app.status = Some(if restored.is_empty() {
                "Taken over: this window saves the answers now.".into()
            } else {
                format!(
                    "Taken over: this window saves now; your draft is the answer to {} again.",
                    restored.join(", ")
                )
            });
            if app.on_question() {
                navigation::go(app, app.current());
            }
        }
        Err(e) => app.status = Some(format!("Cannot take over: {e}")),
    }
}
