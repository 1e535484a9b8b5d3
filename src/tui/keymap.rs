//! One table of keys: it dispatches input, fills the footer, the `?` overlay, every hint
//! that names a key, and the README's key table, so none of them can disagree.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// Where the user is; a key means different things in different places.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Context {
    Overview,
    Question,
    Editing,
    Review,
    Grading,
    Results,
    /// A question opened from the results: read only.
    Reading,
    /// Practice, after an answer: how sure was it? (any key without a binding skips)
    Rating,
    Help,
    Confirm,
    /// A terminal below the minimum size: nothing is drawn, so no key acts blindly.
    TooSmall,
}

impl Context {
    pub const ALL: [Context; 11] = [
        Context::Question,
        Context::Rating,
        Context::Editing,
        Context::Review,
        Context::Results,
        Context::Reading,
        Context::Overview,
        Context::Grading,
        Context::Confirm,
        Context::Help,
        Context::TooSmall,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Context::Overview => "Start",
            Context::Question => "Questions",
            Context::Editing => "Writing an open answer",
            Context::Review => "Review",
            Context::Grading => "Grading",
            Context::Results => "Results",
            Context::Reading => "A question opened from the results",
            Context::Rating => "Practice: how sure are you? (after an answer, before the reveal)",
            Context::Help => "This help",
            Context::Confirm => "A yes/no question",
            Context::TooSmall => "A terminal too small to draw in",
        }
    }
}

/// Which questions a binding is for: the footer and the overlay show it only there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Only {
    Always,
    /// Questions with options to pick (mcq, mermaid).
    Options,
    TrueFalse,
    Open,
    /// An attempt that was graded already.
    Graded,
    /// Diagram questions.
    Diagrams,
    /// An attempt not graded yet.
    Fresh,
    /// Results that `P` posts to a pull request.
    Postable,
    /// Another window owns the attempt.
    Busy,
    /// The question points at code.
    Anchored,
    /// The code panel is open on a question that has code.
    CodeOpen,
    /// The question was opened from the review.
    FromReview,
    /// An empty open question takes letters as text ([`crate::tui::App::letters_type`]):
    /// the footer offers only the keys that are no letter there.
    LettersType,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Char(char),
    Code(KeyCode),
    Ctrl(char),
    /// `1`–`9`: the binding's action takes the digit ([`Action::Pick`] the option,
    /// [`Action::Rate`] how sure); the table writes it with 1.
    Digits,
}

/// The footer keeps rank 1 whatever the width, then 2, then 3.
const MUST: u8 = 1;
const MAIN: u8 = 2;
const MORE: u8 = 3;
/// Not in the footer (still in `?`).
const HIDE: u8 = 0;

pub struct Binding {
    pub contexts: &'static [Context],
    pub keys: &'static [Key],
    pub action: Action,
    /// Footer label (the footer shows the first two keys).
    pub hint: &'static str,
    pub rank: u8,
    pub only: Only,
    pub help: &'static str,
}

use Context as C;
use Key::{Char, Code, Ctrl, Digits};
use Only::{
    Always, Anchored, Busy, CodeOpen, Diagrams, Fresh, FromReview, Graded, Open, Options, Postable,
    TrueFalse,
};

const EVERYWHERE: &[Context] = &C::ALL;
const SCREENS: &[Context] = &[C::Overview, C::Question, C::Review, C::Results, C::Reading];
const QUESTIONS: &[Context] = &[C::Question, C::Reading];
const LISTS: &[Context] = &[C::Question, C::Reading, C::Review, C::Results];

const fn bind(
    contexts: &'static [Context],
    keys: &'static [Key],
    action: Action,
    (hint, rank): (&'static str, u8),
    only: Only,
    help: &'static str,
) -> Binding {
    Binding {
        contexts,
        keys,
        action,
        hint,
        rank,
        only,
        help,
    }
}

/// The keymap: one row per binding. A key is bound once per context (a test checks).
#[rustfmt::skip]
static BINDINGS: &[Binding] = &[
    bind(&[C::Confirm], &[Char('y'), Code(KeyCode::Enter)], Action::Yes, ("yes", MUST), Always, "yes"),
    bind(&[C::Confirm], &[Char('n'), Code(KeyCode::Esc)], Action::No, ("no", MUST), Always, "no, keep things as they are"),
    bind(&[C::Help], &[Char('j'), Code(KeyCode::Down)], Action::ScrollDown, ("scroll", MAIN), Always, "scroll down"),
    bind(&[C::Help], &[Char('k'), Code(KeyCode::Up)], Action::ScrollUp, ("", HIDE), Always, "scroll up"),
    bind(&[C::Help], &[Code(KeyCode::PageDown), Ctrl('d'), Char(' ')], Action::PageDown, ("", HIDE), Always, "a page down"),
    bind(&[C::Help], &[Code(KeyCode::PageUp), Ctrl('u')], Action::PageUp, ("", HIDE), Always, "a page up"),
    bind(&[C::Help], &[Char('g'), Code(KeyCode::Home)], Action::Top, ("", HIDE), Always, "top"),
    bind(&[C::Help], &[Char('G'), Code(KeyCode::End)], Action::Bottom, ("", HIDE), Always, "bottom"),
    bind(&[C::Help], &[Code(KeyCode::Esc), Char('?'), Code(KeyCode::F(1)), Char('q')], Action::ToggleHelp, ("close", MUST), Always, "close this help"),
    bind(&[C::Editing], &[Code(KeyCode::Esc)], Action::StopEditing, ("done", MUST), Always, "leave the answer box (what you typed is saved as you type)"),
    bind(&[C::Editing], &[Code(KeyCode::Tab)], Action::NextQuestion, ("next", MAIN), Always, "next question"),
    bind(&[C::Editing], &[Code(KeyCode::BackTab)], Action::PrevQuestion, ("prev", MORE), Always, "previous question"),
    bind(&[C::Editing], &[Ctrl('e')], Action::ExternalEditor, ("$EDITOR", MAIN), Always, "write the answer in $VISUAL / $EDITOR"),
    bind(&[C::Editing], &[Ctrl('z')], Action::Undo, ("undo", MORE), Always, "undo (Ctrl-R redo)"),
    bind(&[C::Editing], &[Code(KeyCode::F(1))], Action::ToggleHelp, ("help", MUST), Always, "every key"),
    bind(&[C::Overview], &[Code(KeyCode::Enter), Char(' '), Char('n'), Code(KeyCode::Right)], Action::Start, ("start", MAIN), Fresh, "start, or carry on where you were"),
    bind(&[C::Overview], &[Char('r')], Action::ShowResults, ("results", MAIN), Graded, "see the results of the graded attempt"),
    bind(&[C::Overview], &[Char('g')], Action::GradePending, ("grade", MORE), Graded, "grade the open answers still pending"),
    bind(&[C::Overview], &[Char('N')], Action::NewAttempt, ("new attempt", MAIN), Graded, "start a new attempt (answers cleared, earlier scores kept)"),
    bind(&[C::Question], &[Digits], Action::Pick(0), ("pick", MAIN), Options, "pick option 1–9"),
    bind(&[C::Rating], &[Digits], Action::Rate(1), ("how sure (1 guessing … 5 certain)", MUST), Always, "1–5: how sure you are, 1 guessing to 5 certain; then the answer shows"),
    bind(&[C::Rating], &[Char('?'), Code(KeyCode::F(1))], Action::ToggleHelp, ("help", MUST), Always, "every key (the question stays asked)"),
    bind(&[C::Rating], &[Code(KeyCode::Esc)], Action::SkipRating, ("skip", MUST), Always, "skip the rating (so does any other key); then the answer shows"),
    bind(&[C::Question], &[Code(KeyCode::Esc), Char('b')], Action::Back, ("back", MUST), FromReview, "back to the review (a question opened from it)"),
    bind(&[C::Question], &[Char('t')], Action::PickTrue, ("true", MAIN), TrueFalse, "answer true"),
    bind(&[C::Question], &[Char('f')], Action::PickFalse, ("false", MAIN), TrueFalse, "answer false"),
    bind(LISTS, &[Char('j'), Code(KeyCode::Down)], Action::CursorDown, ("move", MORE), Always, "move down (scrolls where there is nothing to pick)"),
    bind(LISTS, &[Char('k'), Code(KeyCode::Up)], Action::CursorUp, ("", HIDE), Always, "move up"),
    bind(&[C::Question], &[Char(' '), Code(KeyCode::Enter)], Action::Choose, ("choose", MAIN), Options, "choose the option under the cursor"),
    bind(&[C::Question], &[Char('i')], Action::StartEditing, ("write", MAIN), Open, "write or edit the answer (Enter too; typing starts an empty one)"),
    bind(&[C::Question], &[Char('e'), Ctrl('e')], Action::ExternalEditor, ("$EDITOR", MORE), Open, "write the answer in $VISUAL / $EDITOR"),
    bind(&[C::Question], &[Char('x'), Code(KeyCode::Delete), Code(KeyCode::Backspace)], Action::ClearAnswer, ("", HIDE), Always, "clear the answer (a written answer asks first)"),
    bind(QUESTIONS, &[Char('n'), Code(KeyCode::Tab), Code(KeyCode::Right), Char(']')], Action::NextQuestion, ("next", MAIN), Always, "next question (after the last: the review, or from the results: the results)"),
    bind(QUESTIONS, &[Char('p'), Code(KeyCode::BackTab), Code(KeyCode::Left), Char('[')], Action::PrevQuestion, ("prev", MORE), Always, "previous question"),
    bind(LISTS, &[Char('g'), Code(KeyCode::Home)], Action::Top, ("", HIDE), Always, "top, then first question"),
    bind(LISTS, &[Char('G'), Code(KeyCode::End)], Action::Bottom, ("", HIDE), Always, "last question, then bottom"),
    bind(LISTS, &[Code(KeyCode::PageDown), Ctrl('d')], Action::PageDown, ("", HIDE), Always, "a page down"),
    bind(LISTS, &[Code(KeyCode::PageUp), Ctrl('u')], Action::PageUp, ("", HIDE), Always, "a page up"),
    bind(&[C::Reading], &[Code(KeyCode::Esc), Char('b')], Action::Back, ("back", MUST), Always, "back to the results"),
    bind(QUESTIONS, &[Char('d')], Action::ToggleDifferences, ("diff", MAIN), Diagrams, "mark where the diagrams differ from each other (not which is right)"),
    bind(QUESTIONS, &[Char('C')], Action::ToggleComparison, ("compare", MAIN), Diagrams, "only what differs between the diagrams: the edges, messages or states one has and another lacks"),
    bind(QUESTIONS, &[Char('v')], Action::ToggleDiagramList, ("list/drawn", MAIN), Diagrams, "show the diagrams drawn, or as lists of edges and messages"),
    bind(QUESTIONS, &[Char('c')], Action::ToggleCode, ("code", MAIN), Anchored, "show or hide the code the question is about (stays open while you move on)"),
    bind(&[C::Editing], &[Code(KeyCode::F(2))], Action::ToggleCode, ("code", MORE), Anchored, "show or hide the code the question is about"),
    bind(QUESTIONS, &[Char('J')], Action::CodeDown, ("", HIDE), CodeOpen, "scroll the code down"),
    bind(QUESTIONS, &[Char('K')], Action::CodeUp, ("", HIDE), CodeOpen, "scroll the code up"),
    bind(&[C::Question], &[Char('m')], Action::ToggleFlag, ("flag", MORE), Always, "flag the question to come back to"),
    bind(&[C::Overview, C::Question], &[Char('s')], Action::OpenReview, ("review", MAIN), Always, "review all answers, then submit"),
    bind(&[C::Review], &[Code(KeyCode::Enter)], Action::Submit, ("submit", MUST), Always, "submit and grade (asks first when some are unanswered or flagged)"),
    bind(&[C::Review, C::Results], &[Char(' '), Char('o')], Action::Choose, ("open", MAIN), Always, "open the question under the cursor"),
    bind(&[C::Review], &[Code(KeyCode::Esc), Char('b')], Action::Back, ("back", MAIN), Always, "back to the questions"),
    bind(&[C::Grading], &[Code(KeyCode::Esc), Char('c')], Action::StopGrading, ("stop", MUST), Always, "stop grading (answers are kept; open ones stay pending)"),
    bind(&[C::Results], &[Code(KeyCode::Enter)], Action::Choose, ("", HIDE), Always, "open the question under the cursor (Esc comes back)"),
    bind(&[C::Results], &[Code(KeyCode::Esc), Char('b')], Action::Back, ("overview", MORE), Always, "back to the overview (a new attempt starts there)"),
    bind(&[C::Results], &[Char('P')], Action::Post, ("post", MAIN), Postable, "post the results to the pull request, then quit"),
    bind(&[C::Overview, C::Question, C::Review], &[Char('T')], Action::TakeOver, ("take over", MUST), Busy, "take over a quiz open in another quizz window"),
    bind(SCREENS, &[Char('?'), Code(KeyCode::F(1))], Action::ToggleHelp, ("help", MUST), Always, "every key"),
    bind(&[C::Results, C::Reading], &[Char('q')], Action::Quit, ("quit", MUST), Always, "quit"),
    bind(&[C::Overview, C::Question, C::Review], &[Char('q')], Action::Quit, ("quit", MUST), Always, "quit (asks first while answers are not graded; they are saved)"),
    bind(&[C::TooSmall], &[Char('q')], Action::ForceQuit, ("quit", MUST), Always, "quit (answers are saved); every other key waits for a bigger terminal"),
    bind(EVERYWHERE, &[Ctrl('c')], Action::ForceQuit, ("", HIDE), Always, "quit at once (answers are saved)"),
];

pub fn fits(key: Key, event: &KeyEvent) -> bool {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    match (key, event.code) {
        (Ctrl(c), KeyCode::Char(k)) => ctrl && k.eq_ignore_ascii_case(&c),
        (Char(c), KeyCode::Char(k)) => !ctrl && k == c,
        (Code(code), k) => !ctrl && k == code,
        (Digits, KeyCode::Char('1'..='9')) => !ctrl,
        _ => false,
    }
}

/// The action for a key on an open question, where `here` holds (see
/// [`crate::tui::App::hint_filter`]): a key whose command is for other questions (`t` is
/// true/false, `1` picks an option) is text like any unbound letter, [`Action::WriteKey`]:
/// it starts an empty answer, and never changes a written one.
pub fn dispatch_on_open(here: &[Only], event: &KeyEvent) -> Option<Action> {
    let applies = |b: &&Binding| b.only == Always || here.contains(&b.only);
    if let Some(action) = find(BINDINGS.iter().filter(applies), Context::Question, event) {
        return Some(action);
    }
    // Enter edits, as the `i` row says (its own binding is for picking options).
    if event.code == KeyCode::Enter && event.modifiers == KeyModifiers::NONE {
        return Some(Action::StartEditing);
    }
    let plain = event.modifiers - KeyModifiers::SHIFT == KeyModifiers::NONE;
    matches!(event.code, KeyCode::Char(_))
        .then_some(Action::WriteKey(*event))
        .filter(|_| plain)
}

fn find<'a>(
    bindings: impl Iterator<Item = &'a Binding>,
    context: Context,
    event: &KeyEvent,
) -> Option<Action> {
    for binding in bindings.filter(|b| b.contexts.contains(&context)) {
        if let Some(&key) = binding.keys.iter().find(|k| fits(**k, event)) {
            return Some(match (key, event.code) {
                (Digits, KeyCode::Char(d)) => binding.action.with_digit(d),
                _ => binding.action.clone(),
            });
        }
    }
    None
}

/// The action for a key in a context; `None` when the key means nothing there.
/// In the editor, keys without a binding are text.
pub fn dispatch(context: Context, event: &KeyEvent) -> Option<Action> {
    if let Some(action) = find(BINDINGS.iter(), context, event) {
        return Some(action);
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

/// While the rest of the quiz is written, this key stops the writing on the question and
/// the overview screens, where it means nothing else (asks first). Not a row of the table:
/// on a question opened from the review the same key goes back to it.
pub const STOP_WRITING: Key = Code(KeyCode::Esc);

pub fn key_label(key: Key) -> String {
    match key {
        Char(' ') => "Space".into(),
        Char(c) => c.to_string(),
        Ctrl(c) => format!("Ctrl-{}", c.to_ascii_uppercase()),
        Digits => "1-9".into(),
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

/// The binding of `action` in `context`, if any.
fn binding_for(context: Context, action: &Action) -> Option<&'static Binding> {
    BINDINGS
        .iter()
        .find(|b| b.contexts.contains(&context) && &b.action == action)
}

/// The first key of `action` in `context`, as a hint names it (`Enter`, `T`, `Ctrl-E`).
/// Every hint that names a key asks here, so renaming a key renames it everywhere.
pub fn key_for(context: Context, action: &Action) -> String {
    binding_for(context, action)
        .and_then(|b| b.keys.first())
        .map_or_else(|| "?".into(), |k| key_label(*k))
}

/// `key`'s name when it is bound to `action` in `context`, else the first key's (a hint
/// that names the key most takers press, `Enter` rather than `Space`).
pub fn key_for_preferring(context: Context, action: &Action, key: Key) -> String {
    match binding_for(context, action) {
        Some(b) if b.keys.contains(&key) => key_label(key),
        _ => key_for(context, action),
    }
}

/// Footer hints for a context where `here` holds (the question's kind, graded or not):
/// `(keys, label, rank)` in table order.
#[cfg(test)]
pub fn hints(context: Context, here: &[Only]) -> Vec<(String, &'static str, u8)> {
    hints_naming(context, here, 2)
}

/// [`hints`] naming at most `keys` keys of each binding (a narrow footer names one).
pub fn hints_naming(
    context: Context,
    here: &[Only],
    keys: usize,
) -> Vec<(String, &'static str, u8)> {
    BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&context) && b.rank != HIDE)
        .filter(|b| b.only == Always || here.contains(&b.only))
        .filter_map(|b| {
            let keys = b
                .keys
                .iter()
                .filter(|k| is_command_where(**k, here))
                .take(keys)
                .map(|k| key_label(*k))
                .collect::<Vec<_>>()
                .join("/");
            (!keys.is_empty()).then_some((keys, b.hint, b.rank))
        })
        .collect()
}

/// Whether `key` is a command where `here` holds. Where letters are text (an empty open
/// answer), no letter, digit or sign but `?` is, and `Esc` only makes the letters
/// commands ([`letter_on_empty_answer`]).
fn is_command_where(key: Key, here: &[Only]) -> bool {
    !here.contains(&Only::LettersType)
        || !(matches!(key, Char(c) if c != '?') || key == Digits || key == Code(KeyCode::Esc))
}

/// The rows of `context` whose commands work where `here` holds, with only the keys
/// that are commands there (the help over an empty open answer).
pub fn help_rows_where(context: Context, here: &[Only]) -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&context) && b.contexts != EVERYWHERE)
        .filter(|b| b.only == Always || here.contains(&b.only))
        .filter_map(|b| {
            let keys: Vec<String> = b
                .keys
                .iter()
                .filter(|k| is_command_where(**k, here))
                .map(|k| key_label(*k))
                .collect();
            (!keys.is_empty()).then(|| (keys.join(" "), b.help))
        })
        .collect()
}

/// What keys do on an empty open answer beyond the table's rows: letters are text, and
/// Enter and Esc are as [`letter_on_empty_answer`] and [`dispatch_on_open`] take them.
pub const EMPTY_ANSWER_ROWS: &[(&str, &str)] = &[
    (
        "letters",
        "start the answer: every letter, digit and sign is text here (? aside) until Esc",
    ),
    (
        "Esc",
        "make the letters commands on this question (the Questions keys below)",
    ),
    ("Enter", "write the answer, as typing does"),
];

/// A key on an empty open question whose letters are text: a plain letter starts the
/// answer ([`Action::WriteKey`]), except `?` (help) and `n`/`p` while `moving_through`;
/// `Esc` makes the letters commands on this question ([`Action::StopEditing`]);
/// `None`: the key means what [`dispatch_on_open`] says.
pub fn letter_on_empty_answer(event: &KeyEvent, moving_through: bool) -> Option<Action> {
    if event.modifiers - KeyModifiers::SHIFT != KeyModifiers::NONE {
        return None;
    }
    match event.code {
        KeyCode::Char('?') => None,
        KeyCode::Esc => Some(Action::StopEditing),
        KeyCode::Char('n' | 'p') if moving_through => None,
        KeyCode::Char(_) => Some(Action::WriteKey(*event)),
        _ => None,
    }
}

/// The overlay's rows for one context: `(all its keys, what they do)`, each key once.
/// Bindings that work everywhere are left to their own section.
pub fn help_rows(context: Context) -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&context) && b.contexts != EVERYWHERE)
        .map(|b| {
            let keys = b.keys.iter().map(|k| key_label(*k)).collect::<Vec<_>>();
            (keys.join(" "), b.help)
        })
        .collect()
}

/// The bindings that work on every screen (`Ctrl-C`).
pub fn everywhere_rows() -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.contexts == EVERYWHERE)
        .map(|b| {
            let keys = b.keys.iter().map(|k| key_label(*k)).collect::<Vec<_>>();
            (keys.join(" "), b.help)
        })
        .collect()
}

/// The README's key table, made from the keymap (a test keeps the README equal to it).
#[cfg(test)]
fn markdown_table() -> String {
    let mut out = String::from("| where | keys | what they do |\n|---|---|---|\n");
    let cell = |keys: &str| {
        keys.split(' ')
            .map(|k| format!("`{}`", k.replace('|', "\\|")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for context in Context::ALL {
        for (keys, help) in help_rows(context) {
            out.push_str(&format!(
                "| {} | {} | {help} |\n",
                context.title(),
                cell(&keys)
            ));
        }
    }
    for (keys, help) in everywhere_rows() {
        out.push_str(&format!("| everywhere | {} | {help} |\n", cell(&keys)));
    }
    out
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
        // Asked how sure: a digit rates (1 is 1), it picks no option.
        assert_eq!(dispatch(Context::Rating, &key('3')), Some(Action::Rate(3)));
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
    fn no_key_is_bound_twice_in_one_context() {
        for context in Context::ALL {
            let mut seen: Vec<Key> = Vec::new();
            for b in BINDINGS.iter().filter(|b| b.contexts.contains(&context)) {
                for k in b.keys {
                    let clash = seen.iter().any(|s| {
                        s == k
                            || matches!(
                                (s, k),
                                (Digits, Char('1'..='9')) | (Char('1'..='9'), Digits)
                            )
                    });
                    assert!(!clash, "{k:?} is bound twice in {context:?}");
                    seen.push(*k);
                }
            }
        }
    }

    #[test]
    fn every_context_has_help_and_a_way_out_in_the_footer() {
        for c in Context::ALL {
            let hints = hints(c, &[]);
            assert!(hints.iter().any(|h| h.2 == MUST), "{c:?}: {hints:?}");
        }
        for c in [
            Context::Overview,
            Context::Question,
            Context::Review,
            Context::Results,
        ] {
            let labels: Vec<_> = hints(c, &[]).iter().map(|h| h.1).collect();
            assert!(
                labels.contains(&"help") && labels.contains(&"quit"),
                "{c:?}: {labels:?}"
            );
        }
    }

    #[test]
    fn a_terminal_too_small_quits_on_its_keys_only() {
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(
            dispatch(Context::TooSmall, &key('q')),
            Some(Action::ForceQuit)
        );
        assert_eq!(
            dispatch(Context::TooSmall, &ctrl_c),
            Some(Action::ForceQuit)
        );
        assert_eq!(dispatch(Context::TooSmall, &key('j')), None);
        assert_eq!(key_for(Context::TooSmall, &Action::ForceQuit), "q");
    }

    #[test]
    fn hints_name_the_bound_key() {
        assert_eq!(key_for(Context::Question, &Action::StartEditing), "i");
        assert_eq!(key_for(Context::Editing, &Action::ExternalEditor), "Ctrl-E");
        assert_eq!(key_for(Context::Overview, &Action::TakeOver), "T");
    }

    #[test]
    fn the_readme_key_table_is_the_keymap() {
        let readme = include_str!("../../README.md");
        let start = readme
            .find("<!-- keys:start -->\n")
            .expect("README has <!-- keys:start -->")
            + "<!-- keys:start -->\n".len();
        let end = readme
            .find("<!-- keys:end -->")
            .expect("README has <!-- keys:end -->");
        let table = markdown_table();
        if readme[start..end] != table {
            let out = std::env::temp_dir().join("quizz-keys-table.md");
            let _ = std::fs::write(&out, &table);
            panic!(
                "README's key table differs from the keymap: paste {} between the markers",
                out.display()
            );
        }
    }
}
