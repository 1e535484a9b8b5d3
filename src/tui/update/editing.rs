//! The open answer: the built-in editor, pastes, `$EDITOR`, clearing.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, DataCursor, TextArea};
use unicode_segmentation::UnicodeSegmentation;

use super::{Effect, busy_message, save_batch, saved};
use crate::quiz::QuestionKind;
use crate::tui::action::EditedFile;
use crate::tui::app::{App, Confirm, QuestionScreen, Screen};

pub use crate::tui::undo::new_editor;

/// Opens the answer box on the answer, or on this window's unsaved draft of it (while
/// read-only, only a draft opens: it is kept, not saved).
pub fn start_editing(app: &mut App) {
    if app.reading() || !app.on_open_question() {
        return;
    }
    let Some(id) = app.question().map(|q| q.id.clone()) else {
        return;
    };
    let draft = app.drafts.get(&id).map(|d| d.text.clone());
    if let Some(owner) = app.session.busy()
        && draft.is_none()
    {
        app.status = Some(busy_message(&app.session, owner));
        return;
    }
    let text = draft.unwrap_or_else(|| app.session.answer(&id).unwrap_or_default().to_string());
    let Some(screen) = app.question_screen_mut() else {
        return;
    };
    screen.editor = Some(new_editor(&text));
    undo_for(app, &id);
}

/// The undo history of this question's answer (a fresh one on another question).
fn undo_for<'a>(app: &'a mut App, id: &str) -> &'a mut super::Undo {
    if app.undo.as_ref().is_none_or(|u| u.question != id) {
        app.undo = Some(super::Undo::new(id));
    }
    app.undo.get_or_insert_with(|| super::Undo::new(id))
}

/// Another window took over while the answer box was open: its text is kept as a draft
/// (keys typed on go into it, unsaved).
pub fn keep_editor_as_draft(app: &mut App) {
    let Some(text) = app.editor().map(|e| e.lines().join("\n")) else {
        return;
    };
    if let Some(id) = app.question().map(|q| q.id.clone()) {
        keep_draft(app, &id, text);
    }
}

fn keep_draft(app: &mut App, id: &str, text: String) {
    let base = app.session.answer(id).map(str::to_string);
    app.drafts
        .entry(id.to_string())
        .or_insert(crate::tui::app::Draft {
            text: String::new(),
            base,
        })
        .text = text;
}

/// After taking over: each draft written over an answer the other window left as it was
/// becomes the answer again; the others stay drafts (`i` opens one). Returns the ids
/// restored.
pub fn restore_drafts(app: &mut App) -> Vec<String> {
    let mut restored = Vec::new();
    for (id, draft) in std::mem::take(&mut app.drafts) {
        let unchanged = app.session.answer(&id).map(str::to_string) == draft.base;
        let blank = draft.text.trim().is_empty();
        if unchanged
            && app
                .session
                .set_answer(&id, (!blank).then(|| draft.text.clone()))
                .is_ok()
        {
            restored.push(id);
        } else {
            app.drafts.insert(id, draft);
        }
    }
    restored
}

/// A letter typed on an open question outside the answer box: it starts an empty answer;
/// a written one is changed only after an edit key, so arriving on it and typing a
/// command's letter never changes it.
pub fn write_key(app: &mut App, typed: KeyEvent) {
    if app.reading() || !app.on_open_question() {
        return;
    }
    if app.question().is_some_and(|q| app.is_answered(&q.id)) {
        app.status = Some(written_answer_note());
        return;
    }
    start_editing(app);
    if app.editor().is_some() {
        key(app, typed);
    }
}

fn written_answer_note() -> String {
    format!(
        "Your answer is written: {} edits it (typing outside the box never changes it).",
        crate::tui::keymap::key_for(
            crate::tui::keymap::Context::Question,
            &crate::tui::action::Action::StartEditing
        )
    )
}

/// A key inside the answer box; the answer is saved with the batch.
pub fn key(app: &mut App, key: KeyEvent) {
    edit(app, |undo, editor| {
        if crate::tui::undo::is_undo(&key) {
            undo.undo(editor)
        } else if crate::tui::undo::is_redo(&key) {
            undo.redo(editor)
        } else {
            undo.before_key(editor, &key);
            editor_input(editor, key)
        }
    });
}

/// Ctrl-Z in the answer box: its last step undone.
pub fn undo(app: &mut App) {
    edit(app, crate::tui::undo::Undo::undo);
}

/// Changes the open answer box with its undo steps; saves it when `change` says it changed.
fn edit(app: &mut App, change: impl FnOnce(&mut super::Undo, &mut TextArea<'static>) -> bool) {
    let Some(id) = app.question().map(|q| q.id.clone()) else {
        return;
    };
    let Some(mut editor) = app.close_editor() else {
        return;
    };
    let changed = change(undo_for(app, &id), &mut editor);
    if let Some(screen) = app.question_screen_mut() {
        screen.editor = Some(editor);
    }
    if changed {
        save_editor(app);
    }
}

/// Backspace, Delete and the arrows work on whole graphemes (`👍🏽` is one), the rest
/// as the text area does it.
fn editor_input(editor: &mut TextArea<'static>, key: KeyEvent) -> bool {
    // Ctrl-J is a line feed (what a raw paste of `a\nb` and many terminals' Enter send):
    // a new line, not the text area's own "delete to the line's start".
    if key.code == KeyCode::Char('j') && key.modifiers == KeyModifiers::CONTROL {
        editor.insert_newline();
        return true;
    }
    if key.modifiers - KeyModifiers::SHIFT != KeyModifiers::NONE {
        return editor.input(key);
    }
    let DataCursor(row, col) = editor.cursor();
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

/// Pasted text goes into the open answer (an empty one outside the box too; a written one
/// only from inside it); terminals send its line breaks as CR.
pub fn paste(app: &mut App, text: &str) {
    if app.editor().is_none() && app.on_question() && !app.reading() {
        if app.question().is_some_and(|q| app.is_answered(&q.id)) && app.on_open_question() {
            app.status = Some(written_answer_note());
            return;
        }
        start_editing(app);
    }
    let Screen::Question(QuestionScreen {
        editor: Some(editor),
        ..
    }) = &mut app.screen
    else {
        if app.status.is_none() {
            app.status = Some("Paste goes into an open answer.".into());
        }
        return;
    };
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if let Some(undo) = app.undo.as_mut() {
        undo.before_whole(editor);
    }
    editor.insert_str(crate::text::sanitize(&text));
    save_editor(app);
}

/// x, Del, Backspace: a pick goes at once; written text only after a y/N.
pub fn clear_answer(app: &mut App) {
    if super::refuse_answer_change(app) {
        return;
    }
    let Some(q) = app.question() else { return };
    let id = q.id.clone();
    let chars = app.session.answer(&id).map_or(0, |a| a.chars().count());
    if chars == 0 {
        return;
    }
    if matches!(q.kind, QuestionKind::Open { .. }) {
        app.ask(Confirm::ClearAnswer { id, chars });
    } else {
        let r = app.session.set_answer(&id, None);
        saved(app, r);
    }
}

pub fn external_editor(app: &mut App) -> Effect {
    if app.reading() || !app.on_open_question() {
        return Effect::None;
    }
    if let Some(owner) = app.session.busy() {
        app.status = Some(busy_message(&app.session, owner));
        return Effect::None;
    }
    let Some(q) = app.question() else {
        return Effect::None;
    };
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
pub fn editor_done(app: &mut App, edited: &EditedFile) {
    let text = edited.text.trim_end().to_string();
    let before = app
        .session
        .answer(&edited.question_id)
        .unwrap_or_default()
        .to_string();
    // An editor left empty (vi's `:q!` on a new file, a wiped buffer) never wipes a
    // written answer: clearing asks first, and that is `x`.
    if text.trim().is_empty() || text == before {
        let _ = std::fs::remove_file(&edited.path);
        app.status = Some(if text == before {
            "No change from the editor.".to_string()
        } else {
            format!(
                "The editor came back empty: your answer is kept ({} clears it, asking first).",
                crate::tui::keymap::key_for(
                    crate::tui::keymap::Context::Question,
                    &crate::tui::action::Action::ClearAnswer
                )
            )
        });
        reopen_editor(app, &edited.question_id, &before);
        return;
    }
    // The round trip is one step back (the answer box is made again from the text).
    let was = app.close_editor().unwrap_or_else(|| new_editor(&before));
    undo_for(app, &edited.question_id).before_whole(&was);
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
    reopen_editor(app, &edited.question_id, &text);
}

/// The editor failed: why, whole, in a box (the footer cut it at the terminal's width,
/// hiding where the text was kept), and in the log.
pub fn editor_failed(app: &mut App, why: String) {
    tracing::warn!("the external editor failed: {why}");
    app.ask(Confirm::Notice {
        title: " The editor failed ".into(),
        text: why,
    });
}

fn reopen_editor(app: &mut App, id: &str, text: &str) {
    let on_it = app.question().is_some_and(|q| q.id == id);
    if on_it
        && !app.reading()
        && let Some(screen) = app.question_screen_mut()
    {
        screen.editor = Some(new_editor(text));
    }
}

/// Every keystroke goes to the session; the batch saves it. While another window owns the
/// attempt it goes to this window's draft instead, so nothing typed is lost.
fn save_editor(app: &mut App) {
    let Some(text) = app.editor().map(|e| e.lines().join("\n")) else {
        return;
    };
    let Some(id) = app.question().map(|q| q.id.clone()) else {
        return;
    };
    if app.session.busy().is_none() {
        let value = (!text.trim().is_empty()).then(|| text.clone());
        let r = app.session.set_answer(&id, value);
        let refused = matches!(r, Err(crate::store::StoreError::Busy { .. }));
        saved(app, r);
        if !refused {
            app.drafts.remove(&id);
            return;
        }
    }
    keep_draft(app, &id, text);
}
