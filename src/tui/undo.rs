//! Undo for the answer box by word, by paste and by `$EDITOR` round trip (the text area's
//! own history undoes a character at a time and is lost when the editor comes back).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, DataCursor, TextArea, WrapMode};

/// The text and cursor before one step.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Snapshot {
    lines: Vec<String>,
    cursor: (usize, usize),
}

/// What the last change was: typing goes on in one step until a word starts after a
/// space; deleting goes on until something else happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    None,
    /// Typing: whether the last character was a space, and whether this step holds a
    /// word yet (a word after a space starts a new step only then).
    Typing {
        space: bool,
        word: bool,
    },
    Deleting,
}

/// One answer's undo history (kept across `$EDITOR`, dropped on another question).
#[derive(Debug, Clone)]
pub struct Undo {
    pub question: String,
    past: Vec<Snapshot>,
    future: Vec<Snapshot>,
    last: Last,
}

/// Steps kept: enough for an answer, bounded for a long session.
const KEEP: usize = 200;

impl Undo {
    pub fn new(question: &str) -> Self {
        Self {
            question: question.to_string(),
            past: Vec::new(),
            future: Vec::new(),
            last: Last::None,
        }
    }

    fn snapshot(editor: &TextArea<'_>) -> Snapshot {
        let DataCursor(row, col) = editor.cursor();
        Snapshot {
            lines: editor.lines().to_vec(),
            cursor: (row, col),
        }
    }

    fn push(&mut self, editor: &TextArea<'_>) {
        let now = Self::snapshot(editor);
        if self.past.last() != Some(&now) {
            self.past.push(now);
            if self.past.len() > KEEP {
                self.past.remove(0);
            }
        }
        self.future.clear();
    }

    /// Before a key changes the text: starts a new step where one begins.
    pub fn before_key(&mut self, editor: &TextArea<'_>, key: &KeyEvent) {
        let plain = key.modifiers - KeyModifiers::SHIFT == KeyModifiers::NONE;
        let next = match key.code {
            KeyCode::Char(c) if plain => Some(Last::Typing {
                space: c.is_whitespace(),
                word: !c.is_whitespace(),
            }),
            KeyCode::Backspace | KeyCode::Delete => Some(Last::Deleting),
            // Moving the cursor ends a step; other keys (Enter, Ctrl-W, Ctrl-K…) are
            // steps of their own.
            KeyCode::Left
            | KeyCode::Right
            | KeyCode::Up
            | KeyCode::Down
            | KeyCode::Home
            | KeyCode::End
            | KeyCode::PageUp
            | KeyCode::PageDown => {
                self.last = Last::None;
                return;
            }
            _ => None,
        };
        let (starts, last) = match (self.last, next) {
            (Last::Typing { space, word }, Some(Last::Typing { space: now, .. })) => {
                let starts = space && !now && word;
                let word = if starts { true } else { word || !now };
                (starts, Last::Typing { space: now, word })
            }
            (Last::Deleting, Some(Last::Deleting)) => (false, Last::Deleting),
            (_, next) => (true, next.unwrap_or(Last::None)),
        };
        if starts {
            self.push(editor);
        }
        self.last = last;
    }

    /// Before a paste or the editor's text replaces the answer: one step.
    pub fn before_whole(&mut self, editor: &TextArea<'_>) {
        self.push(editor);
        self.last = Last::None;
    }

    /// Ctrl-Z: back one step; `false` when there is none.
    pub fn undo(&mut self, editor: &mut TextArea<'static>) -> bool {
        let Some(before) = self.past.pop() else {
            return false;
        };
        self.future.push(Self::snapshot(editor));
        restore(editor, &before);
        self.last = Last::None;
        true
    }

    /// Ctrl-R: forward one step.
    pub fn redo(&mut self, editor: &mut TextArea<'static>) -> bool {
        let Some(after) = self.future.pop() else {
            return false;
        };
        self.past.push(Self::snapshot(editor));
        restore(editor, &after);
        self.last = Last::None;
        true
    }
}

/// An answer box holding `text`, the cursor at its end.
pub fn new_editor(text: &str) -> TextArea<'static> {
    let mut editor = TextArea::new(text.split('\n').map(str::to_string).collect());
    // Undo is ours (by word, paste and editor round trip): see `undo.rs`.
    editor.set_max_histories(0);
    editor.set_wrap_mode(WrapMode::WordOrGlyph);
    editor.move_cursor(CursorMove::Bottom);
    editor.move_cursor(CursorMove::End);
    editor
}

fn restore(editor: &mut TextArea<'static>, to: &Snapshot) {
    let mut fresh = new_editor(&to.lines.join("\n"));
    let (row, col) = to.cursor;
    fresh.move_cursor(CursorMove::Jump(
        u16::try_from(row).unwrap_or(u16::MAX),
        u16::try_from(col).unwrap_or(u16::MAX),
    ));
    *editor = fresh;
}

/// Ctrl-Z (sent as the text area's Ctrl-U) and Ctrl-R.
pub fn is_undo(key: &KeyEvent) -> bool {
    key.modifiers == KeyModifiers::CONTROL && key.code == KeyCode::Char('u')
}

pub fn is_redo(key: &KeyEvent) -> bool {
    key.modifiers == KeyModifiers::CONTROL && key.code == KeyCode::Char('r')
}
