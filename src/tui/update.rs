//! The one place state changes: `update(&mut App, Action)`.
//!
//! Answer changes go through the session, which saves them at once; what needs the
//! terminal or a runtime (an external editor, grading) comes back as an [`Effect`].

use std::time::Instant;

use ratatui_textarea::{CursorMove, TextArea, WrapMode};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use unicode_segmentation::UnicodeSegmentation;

use super::action::{Action, EditedFile};
use super::app::{App, Confirm, DiagramCache, Exit, GradeRow, Grading, Screen};
use super::body;
use crate::quiz::{Outcome, QuestionKind, assemble, grade_closed};
use crate::store::StoreError;

/// Work the event loop does for `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    Quit,
    /// Suspend the UI and edit this question's answer in `$VISUAL`/`$EDITOR`, in a file
    /// in `dir` (quizz's private folder).
    ExternalEditor {
        question_id: String,
        text: String,
        dir: std::path::PathBuf,
    },
    /// Grade these open answers in the background.
    StartGrading(Vec<String>),
    CancelGrading,
}

/// Applies one action; then keeps the current question's diagrams drawn for its width
/// and the scroll within what the screen can show.
pub fn update(app: &mut App, action: Action) -> Effect {
    let moves_view = matches!(
        action,
        Action::ScrollDown
            | Action::ScrollUp
            | Action::PageDown
            | Action::PageUp
            | Action::CursorDown
            | Action::CursorUp
            | Action::FirstQuestion
            | Action::LastQuestion
            | Action::Resize(..)
    );
    let effect = apply(app, action);
    refresh_diagrams(app);
    if moves_view {
        app.scroll = app.scroll.min(super::ui::max_scroll(app));
    }
    effect
}

/// After a batch of input, before drawing: write what changed, so what is on screen is
/// on disk.
pub fn save_batch(app: &mut App) {
    if app.session.is_dirty() {
        let r = app.session.flush();
        saved(app, r);
    }
}

/// Draws the diagrams of the current question again when the question or the width changed.
pub fn refresh_diagrams(app: &mut App) {
    let Some(QuestionKind::Mermaid { options, .. }) = app.question().map(|q| &q.kind) else {
        app.diagrams = None;
        return;
    };
    let width = body::width(app);
    if app
        .diagrams
        .as_ref()
        .is_some_and(|c| c.question == app.current() && c.width == width)
    {
        return;
    }
    let drawn = body::diagrams(
        options,
        width.saturating_sub(body::DIAGRAM_INDENT.len()),
        app.settings.theme,
    );
    app.diagrams = Some(DiagramCache {
        question: app.current(),
        width,
        options: drawn,
    });
}

#[allow(clippy::too_many_lines)] // one arm per action
fn apply(app: &mut App, action: Action) -> Effect {
    // A status line lasts until the next thing the user does.
    if !matches!(
        action,
        Action::Tick
            | Action::Resize(..)
            | Action::GradeStarted(_)
            | Action::GradeFinished(..)
            | Action::GradingDone
            | Action::ExternalEditorDone(_)
    ) {
        app.status = None;
    }
    match action {
        Action::ForceQuit => return quit(app),
        Action::Quit => {
            if app.results.is_some() || app.session.answered_count() == 0 {
                return quit(app);
            }
            app.confirm = Some(Confirm::Quit);
        }
        Action::Confirm => match app.confirm.take() {
            Some(Confirm::Quit) => return quit(app),
            Some(Confirm::ClearAnswer { id, .. }) => {
                let r = app.session.set_answer(&id, None);
                saved(app, r);
                app.status = Some("Answer cleared.".into());
            }
            None if app.screen == Screen::Results => return quit(app),
            None => {}
        },
        Action::Cancel => {
            if app.confirm.is_some() {
                app.confirm = None;
            } else if app.screen == Screen::Grading {
                finish_grading(app);
                app.status = Some(
                    "Grading stopped: open answers stay pending; your answers are kept.".into(),
                );
                return Effect::CancelGrading;
            }
        }
        Action::Start | Action::Back => {
            app.scroll = 0;
            go(app, app.current());
        }
        Action::NextQuestion => go(app, app.current() + 1),
        Action::PrevQuestion => go(app, app.current().saturating_sub(1)),
        Action::FirstQuestion => match app.screen {
            Screen::Results => app.scroll = 0,
            _ => go(app, 0),
        },
        Action::LastQuestion => match app.screen {
            Screen::Results => app.scroll = u16::MAX,
            _ => go(app, app.question_count().saturating_sub(1)),
        },
        Action::CursorDown => move_cursor(app, 1),
        Action::CursorUp => move_cursor(app, -1),
        Action::Choose => choose(app),
        Action::Pick(n) => pick(app, n),
        Action::PickTrue => pick_bool(app, true),
        Action::PickFalse => pick_bool(app, false),
        Action::ClearAnswer => clear_answer(app),
        Action::ToggleFlag => {
            if let Some(id) = app.question().map(|q| q.id.clone()) {
                let flagged = !app.session.is_flagged(&id);
                let r = app.session.set_flag(&id, flagged);
                saved(app, r);
            }
        }
        Action::StartEditing => start_editing(app),
        Action::StopEditing => app.editor = None,
        Action::StopEditingThen(key) => {
            app.editor = None;
            if let Some(next) = super::keymap::dispatch(app.context(), &key) {
                return apply(app, next);
            }
        }
        Action::EditorKey(key) => {
            let changed = app.editor.as_mut().is_some_and(|e| editor_input(e, key));
            if changed {
                save_editor(app);
            }
        }
        Action::Paste(text) => paste(app, &text),
        Action::ExternalEditor => return external_editor(app),
        Action::ExternalEditorDone(result) => match result {
            Ok(edited) => editor_done(app, &edited),
            Err(why) => app.status = Some(why),
        },
        Action::TakeOver => take_over(app),
        Action::OpenReview => {
            app.editor = None;
            app.screen = Screen::Review;
            app.review_cursor = app.current();
        }
        Action::Submit => return submit(app),
        Action::Post => {
            if app.screen == Screen::Results && app.settings.can_post {
                app.exit = Some(Exit::QuitAndPost);
                return Effect::Quit;
            }
        }
        Action::ToggleHelp => app.help = !app.help,
        Action::ScrollDown => app.scroll = app.scroll.saturating_add(1),
        Action::ScrollUp => app.scroll = app.scroll.saturating_sub(1),
        Action::PageDown => {
            app.scroll = app
                .scroll
                .saturating_add(page(app))
                .min(super::ui::max_scroll(app));
            cursor_to_view(app);
        }
        Action::PageUp => {
            app.scroll = app.scroll.saturating_sub(page(app));
            cursor_to_view(app);
        }
        Action::Resize(w, h) => app.size = (w, h),
        Action::Tick => {
            app.clock = Instant::now();
            app.spinner = app.spinner.wrapping_add(1);
        }
        Action::GradeStarted(id) => set_row(
            app,
            &id,
            GradeRow::Running {
                since: Instant::now(),
            },
        ),
        Action::GradeFinished(id, result) => {
            let row = match &result {
                Ok(g) => GradeRow::Done { score: g.score },
                Err(e) => GradeRow::Failed { reason: e.clone() },
            };
            set_row(app, &id, row);
            if let (Ok(grade), Some(i)) = (
                result,
                app.session.quiz.questions.iter().position(|q| q.id == id),
            ) && let Some(slot) = app.outcomes.get_mut(i)
            {
                *slot = Outcome::Scored {
                    score: grade.score.min(100),
                    feedback: grade.feedback,
                };
            }
        }
        Action::GradingDone => finish_grading(app),
    }
    Effect::None
}

fn quit(app: &mut App) -> Effect {
    app.exit = Some(Exit::Quit);
    Effect::Quit
}

fn saved(app: &mut App, result: Result<(), StoreError>) {
    match result {
        Ok(()) => {}
        Err(StoreError::Busy { owner }) => {
            app.editor = None;
            app.status = Some(busy_message(&owner));
        }
        Err(e) => {
            tracing::error!("saving the attempt failed: {e}");
            app.status = Some(format!("Could not save: {e}"));
        }
    }
}

fn go(app: &mut App, index: usize) {
    let index = index.min(app.question_count().saturating_sub(1));
    app.editor = None;
    app.screen = Screen::Question;
    if index != app.current() {
        app.scroll = 0;
    }
    app.session.set_current(index);
    // An open question is a text field: typing on it writes the answer.
    if app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Open { .. }))
        && app.session.busy().is_none()
    {
        start_editing(app);
    }
}

fn page(app: &App) -> u16 {
    app.size.1.saturating_sub(6).max(1)
}

fn move_cursor(app: &mut App, delta: isize) {
    if app.screen == Screen::Review {
        let last = app.question_count().saturating_sub(1);
        app.review_cursor = app.review_cursor.saturating_add_signed(delta).min(last);
        return;
    }
    let i = app.current();
    let Some(q) = app.question() else { return };
    let count = q.choices().len();
    if count == 0 {
        // Nothing to choose (open question): the arrows scroll the prompt.
        app.scroll = if delta > 0 {
            app.scroll.saturating_add(1)
        } else {
            app.scroll.saturating_sub(1)
        };
        return;
    }
    if let Some(c) = app.cursors.get_mut(i) {
        *c = c.saturating_add_signed(delta).min(count - 1);
    }
    scroll_to_cursor(app);
}

/// Keeps the option under the cursor on screen (tall diagrams scroll into view).
fn scroll_to_cursor(app: &mut App) {
    let width = body::width(app);
    let viewport = body::viewport_rows(app);
    let built = body::build(app, width);
    let cursor = app.cursors.get(app.current()).copied().unwrap_or(0);
    if let Some(&(start, end)) = built.option_rows.get(cursor) {
        let (start, end) = (clamp_u16(start), clamp_u16(end));
        if start < app.scroll {
            app.scroll = start;
        } else if end > app.scroll.saturating_add(viewport) {
            app.scroll = end.saturating_sub(viewport).min(start);
        }
    }
}

/// After paging, the option under the cursor is one the taker can see: Enter never
/// chooses an option that is off screen.
fn cursor_to_view(app: &mut App) {
    if app.screen != Screen::Question {
        return;
    }
    let width = body::width(app);
    let viewport = usize::from(body::viewport_rows(app));
    let top = usize::from(app.scroll);
    let bottom = top + viewport;
    let built = body::build(app, width);
    let i = app.current();
    let Some(&cursor) = app.cursors.get(i) else {
        return;
    };
    let visible = |&(start, end): &(usize, usize)| start < bottom && end > top;
    if built.option_rows.get(cursor).is_some_and(visible) {
        return;
    }
    let first_whole = built
        .option_rows
        .iter()
        .position(|&(start, end)| start >= top && end <= bottom);
    if let Some(n) = first_whole.or_else(|| built.option_rows.iter().position(visible))
        && let Some(c) = app.cursors.get_mut(i)
    {
        *c = n;
    }
}

fn clamp_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

fn choose(app: &mut App) {
    if app.screen == Screen::Review {
        let i = app.review_cursor;
        go(app, i);
        return;
    }
    let Some(q) = app.question() else { return };
    if matches!(q.kind, QuestionKind::Open { .. }) {
        start_editing(app);
    } else {
        let n = app.cursors.get(app.current()).copied().unwrap_or(0);
        pick(app, n);
    }
}

fn pick(app: &mut App, n: usize) {
    let i = app.current();
    let Some(q) = app.question() else { return };
    let choices = q.choices();
    let Some((key, text)) = choices.get(n) else {
        if !choices.is_empty() {
            app.status = Some(format!("There is no option {}.", n + 1));
        }
        return;
    };
    let value = match &q.kind {
        QuestionKind::Mcq { .. } => (*text).to_string(),
        _ => key.clone(),
    };
    let id = q.id.clone();
    if let Some(c) = app.cursors.get_mut(i) {
        *c = n;
    }
    let r = app.session.set_answer(&id, Some(value));
    saved(app, r);
    scroll_to_cursor(app);
}

fn pick_bool(app: &mut App, value: bool) {
    if app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::TrueFalse { .. }))
    {
        pick(app, usize::from(!value));
    }
}

fn new_editor(text: &str) -> TextArea<'static> {
    let mut editor = TextArea::new(text.lines().map(str::to_string).collect());
    editor.set_wrap_mode(WrapMode::WordOrGlyph);
    editor.move_cursor(CursorMove::Bottom);
    editor.move_cursor(CursorMove::End);
    editor
}

fn start_editing(app: &mut App) {
    if let Some(owner) = app.session.busy() {
        app.status = Some(busy_message(owner));
        return;
    }
    if let Some(q) = app
        .question()
        .filter(|q| matches!(q.kind, QuestionKind::Open { .. }))
    {
        let text = app.session.answer(&q.id).unwrap_or_default().to_string();
        app.editor = Some(new_editor(&text));
    }
}

fn busy_message(owner: &crate::store::Owner) -> String {
    format!("This quiz is open in another quizz ({owner}): read-only here. Press T to take over.")
}

/// Backspace, Delete and the arrows work on whole graphemes (`👍🏽` is one), the rest
/// as the text area does it.
fn editor_input(editor: &mut TextArea<'static>, key: KeyEvent) -> bool {
    if key.modifiers - KeyModifiers::SHIFT != KeyModifiers::NONE {
        return editor.input(key);
    }
    let ratatui_textarea::DataCursor(row, col) = editor.cursor();
    let Some(line) = editor.lines().get(row) else {
        return editor.input(key);
    };
    let byte = line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
    let (before, after) = line.split_at(byte);
    let chars = |g: Option<&str>| g.map_or(0, |g| g.chars().count());
    match key.code {
        KeyCode::Backspace if col > 0 => {
            let n = chars(before.graphemes(true).next_back());
            for _ in 0..n {
                editor.move_cursor(CursorMove::Back);
            }
            editor.delete_str(n)
        }
        KeyCode::Delete if !after.is_empty() => {
            editor.delete_str(chars(after.graphemes(true).next()))
        }
        KeyCode::Left if col > 0 => {
            for _ in 0..chars(before.graphemes(true).next_back()) {
                editor.move_cursor(CursorMove::Back);
            }
            false
        }
        KeyCode::Right if !after.is_empty() => {
            for _ in 0..chars(after.graphemes(true).next()) {
                editor.move_cursor(CursorMove::Forward);
            }
            false
        }
        _ => editor.input(key),
    }
}

/// Pasted text goes into the open answer; terminals send its line breaks as CR.
fn paste(app: &mut App, text: &str) {
    let is_open = app
        .question()
        .is_some_and(|q| matches!(q.kind, QuestionKind::Open { .. }));
    if app.editor.is_none() && app.screen == Screen::Question && is_open {
        start_editing(app);
    }
    let Some(editor) = app.editor.as_mut() else {
        if app.status.is_none() {
            app.status = Some("Paste goes into an open answer.".into());
        }
        return;
    };
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    editor.insert_str(crate::text::sanitize(&text));
    save_editor(app);
}

/// x, Del, Backspace: a pick goes at once; written text only after a y/N.
fn clear_answer(app: &mut App) {
    let Some(q) = app.question() else { return };
    let id = q.id.clone();
    let chars = app.session.answer(&id).map_or(0, |a| a.chars().count());
    if chars == 0 {
        return;
    }
    if matches!(q.kind, QuestionKind::Open { .. }) {
        app.confirm = Some(Confirm::ClearAnswer { id, chars });
    } else {
        let r = app.session.set_answer(&id, None);
        saved(app, r);
    }
}

fn external_editor(app: &mut App) -> Effect {
    let Some(q) = app
        .question()
        .filter(|q| matches!(q.kind, QuestionKind::Open { .. }))
    else {
        return Effect::None;
    };
    if let Some(owner) = app.session.busy() {
        app.status = Some(busy_message(owner));
        return Effect::None;
    }
    let question_id = q.id.clone();
    let text = app.session.answer(&q.id).unwrap_or_default().to_string();
    // What the editor sees is saved first: a crash while it runs loses nothing.
    save_batch(app);
    match app.session.store().scratch_dir() {
        Ok(dir) => Effect::ExternalEditor {
            question_id,
            text,
            dir,
        },
        Err(e) => {
            app.status = Some(format!("Cannot open the editor: {e}"));
            Effect::None
        }
    }
}

/// The editor closed: its text becomes the answer, saved at once; only then is its file
/// removed (when saving fails, the file stays and the status line names it).
fn editor_done(app: &mut App, edited: &EditedFile) {
    let text = edited.text.trim_end().to_string();
    let r = app
        .session
        .set_answer(&edited.question_id, Some(text.clone()))
        .and_then(|()| app.session.flush());
    match r {
        Ok(()) => {
            let _ = std::fs::remove_file(&edited.path);
            app.status = Some("Answer saved from the editor.".into());
        }
        Err(e) => {
            tracing::error!("saving the edited answer failed: {e}");
            app.status = Some(format!(
                "Could not save: {e}. Your text is in {}",
                edited.path.display()
            ));
        }
    }
    let on_it = app.question().is_some_and(|q| q.id == edited.question_id);
    if on_it && app.screen == Screen::Question {
        app.editor = Some(new_editor(&text));
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
            app.status = Some("Taken over: this window saves the answers now.".into());
            if app.screen == Screen::Question {
                go(app, app.current());
            }
        }
        Err(e) => app.status = Some(format!("Cannot take over: {e}")),
    }
}

/// Every keystroke is saved: a killed process keeps a half-typed answer.
fn save_editor(app: &mut App) {
    let Some(text) = app.editor.as_ref().map(|e| e.lines().join("\n")) else {
        return;
    };
    if let Some(id) = app.question().map(|q| q.id.clone()) {
        let value = if text.trim().is_empty() {
            None
        } else {
            Some(text)
        };
        let r = app.session.set_answer(&id, value);
        saved(app, r);
    }
}

fn submit(app: &mut App) -> Effect {
    app.editor = None;
    app.outcomes = grade_closed(&app.session.quiz, &app.session.answers());
    let pending: Vec<String> = app
        .session
        .quiz
        .questions
        .iter()
        .zip(&app.outcomes)
        .filter(|(_, o)| matches!(o, Outcome::Pending))
        .map(|(q, _)| q.id.clone())
        .collect();
    if pending.is_empty() || !app.settings.grader_available {
        finish_grading(app);
        return Effect::None;
    }
    app.grading = Some(Grading {
        started: Instant::now(),
        rows: pending
            .iter()
            .map(|id| (id.clone(), GradeRow::Waiting))
            .collect(),
    });
    app.clock = Instant::now();
    app.screen = Screen::Grading;
    Effect::StartGrading(pending)
}

fn set_row(app: &mut App, id: &str, row: GradeRow) {
    if let Some(grading) = app.grading.as_mut()
        && let Some((_, slot)) = grading.rows.iter_mut().find(|(rid, _)| rid == id)
    {
        *slot = row;
    }
    app.clock = Instant::now();
}

fn finish_grading(app: &mut App) {
    let results = assemble(&app.session.quiz, &app.outcomes);
    let r = app.session.set_results(&results);
    saved(app, r);
    app.results = Some(results);
    app.screen = Screen::Results;
    app.scroll = 0;
}
