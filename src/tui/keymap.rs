//! One table of keys: it dispatches input, fills the footer hints and the help overlay,
//! so the three can never disagree.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// Where the user is; a key means different things in different places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Overview,
    Question,
    Editing,
    Review,
    Grading,
    Results,
    Help,
    Confirm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Code(KeyCode),
    Ctrl(char),
    /// `1`–`9`, mapped to [`Action::Pick`].
    Digits,
}

pub struct Binding {
    pub contexts: &'static [Context],
    pub keys: &'static [Key],
    pub action: Action,
    /// Footer label; `None` keeps the binding out of the footer (still in the overlay).
    pub hint: Option<&'static str>,
    pub help: &'static str,
}

use Context as C;
use Key::{Char, Code, Ctrl};

const ANY: &[Context] = &[
    C::Overview,
    C::Question,
    C::Editing,
    C::Review,
    C::Grading,
    C::Results,
    C::Help,
    C::Confirm,
];
const NAV: &[Context] = &[C::Overview, C::Question, C::Review, C::Results];

/// The keymap. Order matters: the first binding that matches wins.
#[allow(clippy::too_many_lines)] // one table, one row per binding
pub fn bindings() -> &'static [Binding] {
    static TABLE: std::sync::OnceLock<Vec<Binding>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let b = |contexts, keys, action, hint, help| Binding {
            contexts,
            keys,
            action,
            hint,
            help,
        };
        vec![
            b(
                ANY,
                &[Ctrl('c')],
                Action::ForceQuit,
                None,
                "quit now (answers are saved)",
            ),
            b(
                &[C::Confirm],
                &[Char('y'), Code(KeyCode::Enter)],
                Action::Confirm,
                Some("yes"),
                "yes (quit, or clear the answer)",
            ),
            b(
                &[C::Confirm],
                &[Char('n'), Code(KeyCode::Esc)],
                Action::Cancel,
                Some("no"),
                "no, keep things as they are",
            ),
            b(
                &[C::Help],
                &[
                    Char('?'),
                    Code(KeyCode::Esc),
                    Code(KeyCode::F(1)),
                    Char('q'),
                ],
                Action::ToggleHelp,
                Some("close"),
                "close this help",
            ),
            b(
                &[C::Editing],
                &[Code(KeyCode::Esc)],
                Action::StopEditing,
                Some("done"),
                "leave the editor (the answer is saved as you type)",
            ),
            b(
                &[C::Editing],
                &[Ctrl('e')],
                Action::ExternalEditor,
                Some("$EDITOR"),
                "edit the answer in $VISUAL / $EDITOR",
            ),
            b(
                &[C::Editing],
                &[Ctrl('z')],
                Action::EditorKey(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
                Some("undo"),
                "undo (Ctrl-R redo)",
            ),
            b(
                &[C::Editing],
                &[Code(KeyCode::Tab)],
                Action::NextQuestion,
                Some("next"),
                "next question (the answer is saved)",
            ),
            b(
                &[C::Editing],
                &[Code(KeyCode::BackTab)],
                Action::PrevQuestion,
                Some("prev"),
                "previous question",
            ),
            b(
                &[C::Overview],
                &[
                    Code(KeyCode::Enter),
                    Char(' '),
                    Char('n'),
                    Code(KeyCode::Right),
                ],
                Action::Start,
                Some("start"),
                "start the quiz",
            ),
            b(
                &[C::Question],
                &[Key::Digits],
                Action::Pick(0),
                Some("pick"),
                "pick option 1–9",
            ),
            b(
                &[C::Question, C::Review],
                &[Char('j'), Code(KeyCode::Down)],
                Action::CursorDown,
                Some("move"),
                "move down",
            ),
            b(
                &[C::Question, C::Review],
                &[Char('k'), Code(KeyCode::Up)],
                Action::CursorUp,
                None,
                "move up",
            ),
            b(
                &[C::Results],
                &[Char('j'), Code(KeyCode::Down)],
                Action::ScrollDown,
                Some("scroll"),
                "scroll down",
            ),
            b(
                &[C::Results],
                &[Char('k'), Code(KeyCode::Up)],
                Action::ScrollUp,
                None,
                "scroll up",
            ),
            b(
                &[C::Question],
                &[Char(' '), Code(KeyCode::Enter)],
                Action::Choose,
                Some("choose"),
                "choose the option under the cursor; on an open question, write",
            ),
            b(
                &[C::Question],
                &[Char('t')],
                Action::PickTrue,
                None,
                "answer true",
            ),
            b(
                &[C::Question],
                &[Char('f')],
                Action::PickFalse,
                None,
                "answer false",
            ),
            b(
                &[C::Question],
                &[Char('i')],
                Action::StartEditing,
                None,
                "write the open answer (an open question opens ready to type)",
            ),
            b(
                &[C::Question],
                &[Char('e')],
                Action::ExternalEditor,
                None,
                "write the open answer in $VISUAL / $EDITOR",
            ),
            b(
                &[C::Question],
                &[Char('x'), Code(KeyCode::Delete), Code(KeyCode::Backspace)],
                Action::ClearAnswer,
                None,
                "clear the answer (a written answer asks first)",
            ),
            b(
                &[C::Question],
                &[
                    Char('n'),
                    Code(KeyCode::Tab),
                    Code(KeyCode::Right),
                    Char(']'),
                ],
                Action::NextQuestion,
                Some("next"),
                "next question",
            ),
            b(
                &[C::Question],
                &[
                    Char('p'),
                    Code(KeyCode::BackTab),
                    Code(KeyCode::Left),
                    Char('['),
                ],
                Action::PrevQuestion,
                Some("prev"),
                "previous question",
            ),
            b(
                &[C::Question, C::Results],
                &[Char('g'), Code(KeyCode::Home)],
                Action::FirstQuestion,
                None,
                "first question / top",
            ),
            b(
                &[C::Question, C::Results],
                &[Char('G'), Code(KeyCode::End)],
                Action::LastQuestion,
                None,
                "last question / bottom",
            ),
            b(
                &[C::Question],
                &[Char('m')],
                Action::ToggleFlag,
                Some("flag"),
                "flag the question to come back to",
            ),
            b(
                &[C::Question, C::Results],
                &[Code(KeyCode::PageDown), Ctrl('d')],
                Action::PageDown,
                None,
                "scroll a page down",
            ),
            b(
                &[C::Question, C::Results],
                &[Code(KeyCode::PageUp), Ctrl('u')],
                Action::PageUp,
                None,
                "scroll a page up",
            ),
            b(
                &[C::Overview, C::Question],
                &[Char('s')],
                Action::OpenReview,
                Some("review"),
                "review all answers before submitting",
            ),
            b(
                &[C::Review],
                &[Code(KeyCode::Enter)],
                Action::Submit,
                Some("submit"),
                "submit and grade",
            ),
            b(
                &[C::Review],
                &[Char(' '), Char('o')],
                Action::Choose,
                Some("open"),
                "go to the question under the cursor",
            ),
            b(
                &[C::Review],
                &[Code(KeyCode::Esc), Char('b')],
                Action::Back,
                Some("back"),
                "back to the questions",
            ),
            b(
                &[C::Grading],
                &[Code(KeyCode::Esc), Char('c')],
                Action::Cancel,
                Some("cancel"),
                "stop grading (answers are kept; open ones stay pending)",
            ),
            b(
                NAV,
                &[Char('?'), Code(KeyCode::F(1))],
                Action::ToggleHelp,
                Some("help"),
                "this help",
            ),
            b(
                &[C::Editing],
                &[Code(KeyCode::F(1))],
                Action::ToggleHelp,
                None,
                "this help",
            ),
            b(
                &[C::Results],
                &[Char('P')],
                Action::Post,
                None,
                "post the results to the pull request, then quit",
            ),
            b(
                &[C::Results],
                &[Char('q'), Code(KeyCode::Enter), Code(KeyCode::Esc)],
                Action::Confirm,
                Some("quit"),
                "quit",
            ),
            b(
                &[C::Overview, C::Question, C::Review],
                &[Char('T')],
                Action::TakeOver,
                None,
                "take over a quiz open in another quizz window",
            ),
            b(
                &[C::Overview, C::Question, C::Review],
                &[Char('q')],
                Action::Quit,
                Some("quit"),
                "quit (asks first; answers are saved)",
            ),
        ]
    })
}

fn matches(key: Key, event: &KeyEvent) -> Option<Action> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    match (key, event.code) {
        (Ctrl(c), KeyCode::Char(k)) if ctrl && k.eq_ignore_ascii_case(&c) => Some(Action::Cancel),
        (Char(c), KeyCode::Char(k)) if !ctrl && k == c => Some(Action::Cancel),
        (Code(code), k) if !ctrl && k == code => Some(Action::Cancel),
        (Key::Digits, KeyCode::Char(d @ '1'..='9')) if !ctrl => {
            Some(Action::Pick(d as usize - '1' as usize))
        }
        _ => None,
    }
}

/// The action for a key in a context; `None` when the key means nothing there.
/// In the editor, keys without a binding are text.
pub fn dispatch(context: Context, event: &KeyEvent) -> Option<Action> {
    for binding in bindings().iter().filter(|b| b.contexts.contains(&context)) {
        for key in binding.keys {
            if let Some(found) = matches(*key, event) {
                // `matches` says only that the key fits; digits carry their number.
                return Some(if let Action::Pick(_) = found {
                    found
                } else {
                    binding.action.clone()
                });
            }
        }
    }
    if context != Context::Editing {
        return None;
    }
    match event.code {
        KeyCode::Char(c) if event.modifiers == KeyModifiers::ALT => Some(Action::StopEditingThen(
            KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
        )),
        _ => Some(Action::EditorKey(*event)),
    }
}

pub fn key_label(key: Key) -> String {
    match key {
        Char(' ') => "Space".into(),
        Char(c) => c.to_string(),
        Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
        Key::Digits => "1-9".into(),
        Code(code) => match code {
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "Shift-Tab".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Delete => "Del".into(),
            KeyCode::Backspace => "Backspace".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        },
    }
}

/// Footer hints for a context: `(keys, label)`, first key of each binding.
pub fn hints(context: Context) -> Vec<(String, &'static str)> {
    bindings()
        .iter()
        .filter(|b| b.contexts.contains(&context))
        .filter_map(|b| {
            let label = b.hint?;
            let keys = b
                .keys
                .iter()
                .take(2)
                .map(|k| key_label(*k))
                .collect::<Vec<_>>()
                .join("/");
            Some((keys, label))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn digits_pick_and_letters_are_text_in_the_editor() {
        assert_eq!(
            dispatch(Context::Question, &key('3')),
            Some(Action::Pick(2))
        );
        assert_eq!(dispatch(Context::Question, &key('q')), Some(Action::Quit));
        assert_eq!(
            dispatch(Context::Editing, &key('q')),
            Some(Action::EditorKey(key('q')))
        );
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(dispatch(Context::Editing, &ctrl_c), Some(Action::ForceQuit));
        assert_eq!(dispatch(Context::Results, &ctrl_c), Some(Action::ForceQuit));
    }

    #[test]
    fn esc_then_a_key_typed_fast_leaves_the_editor_first() {
        let alt_s = KeyEvent::new(KeyCode::Char('s'), KeyModifiers::ALT);
        assert_eq!(
            dispatch(Context::Editing, &alt_s),
            Some(Action::StopEditingThen(key('s')))
        );
    }

    #[test]
    fn arrows_and_vim_keys_agree() {
        let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
        assert_eq!(
            dispatch(Context::Question, &down),
            dispatch(Context::Question, &key('j'))
        );
        let tab = KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE);
        assert_eq!(
            dispatch(Context::Question, &tab),
            Some(Action::NextQuestion)
        );
        let back = KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT);
        assert_eq!(
            dispatch(Context::Question, &back),
            Some(Action::PrevQuestion)
        );
    }

    #[test]
    fn every_context_has_a_way_out_in_the_footer() {
        for c in [
            Context::Overview,
            Context::Question,
            Context::Editing,
            Context::Review,
            Context::Grading,
            Context::Results,
            Context::Help,
            Context::Confirm,
        ] {
            assert!(!hints(c).is_empty(), "{c:?}");
        }
    }
}
