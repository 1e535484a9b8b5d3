//! The app's whole state. Drawing reads it; only `update` changes it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui_textarea::TextArea;

use super::keymap::{Context, Only};
use super::theme::Theme;
use crate::grade::ChosenGrader;
use crate::quiz::{Outcome, Question, QuestionKind, Results};
use crate::session::Session;

/// How long after arriving on a question `n`/`p` still count as moving through it.
pub const MOVING_THROUGH: Duration = Duration::from_millis(1200);

/// What fills the screen, each with the state only it has.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // the answer box; one screen in one App, never moved
pub enum Screen {
    Overview,
    Question(QuestionScreen),
    /// The review before submitting, with the question under its cursor.
    Review {
        cursor: usize,
    },
    Grading,
    Results(ResultsScreen),
}

/// Where the question screen was entered from: where `Esc` goes back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entered {
    /// The overview (or another question).
    Overview,
    /// The review: `Esc` goes back there.
    Review,
    /// The results of a graded attempt: read only, `Esc` goes back to them.
    Results,
}

/// A question on screen.
#[derive(Debug, Clone)]
pub struct QuestionScreen {
    pub entered: Entered,
    /// Scroll of the body, in rows; `update` keeps it within what the screen can scroll.
    pub scroll: u16,
    /// The open-answer editor while it has focus.
    pub editor: Option<TextArea<'static>>,
    /// Practice: the question whose answer waits for a confidence rating before the
    /// reveal (`1`–`5` rate it, any other key skips; the help can open over it).
    pub rating: Option<String>,
    /// `Esc` on this question: its letters are commands even on an empty open answer
    /// (until another question, or the answer box, is opened).
    pub letters_are_commands: bool,
}

impl QuestionScreen {
    pub fn entered(entered: Entered) -> Self {
        Self {
            entered,
            scroll: 0,
            editor: None,
            rating: None,
            letters_are_commands: false,
        }
    }
}

/// The graded results.
#[derive(Debug, Clone, Default)]
pub struct ResultsScreen {
    /// The question under the cursor.
    pub cursor: usize,
    /// In rows, kept within the results' text by `update`.
    pub scroll: u16,
}

/// What lies over the screen, taking the keys until it closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The help, with its scroll in rows (kept within its text by `update`).
    Help { scroll: u16 },
    /// A y/N question, or a notice.
    Confirm(Confirm),
}

/// What the UI hands back when it closes.
pub struct Finished {
    pub session: Session,
    /// The results, when the attempt was graded (now or before).
    pub results: Option<Results>,
    /// The taker pressed `P` on the results: post them.
    pub post: bool,
    /// Open answers whose grading failed: `(question id, reason)`.
    pub failures: Vec<(String, String)>,
    /// What became of a quiz that was still being written (kept, or too short to keep).
    pub writing_note: Option<String>,
}

/// Where graded results go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Posting {
    /// The demo, a file or a local change: posted nowhere, for the reason given.
    Nowhere(NoPost),
    /// `P` on the results posts them to this pull request (`o/r#7`).
    OnKey { pr: String },
    /// `--post`: posted to this pull request when the UI closes.
    OnExit { pr: String },
    /// `--no-post`.
    Off,
    /// quizz wrote this PR's quiz here (`o/r#7`): it is in no comment, so its results
    /// stay on this machine.
    WrittenHere { pr: String },
}

/// Why a quiz is posted nowhere: the demo's header names a PR (#7), so "this quiz has no
/// pull request" would not be true of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPost {
    Demo,
    File,
    Local,
}

impl NoPost {
    /// Why, in a few words: `the demo is posted nowhere`.
    pub fn why(self) -> &'static str {
        match self {
            Self::Demo => "the demo is posted nowhere",
            Self::File => "a quiz from a file is posted nowhere",
            Self::Local => "a local change has no pull request",
        }
    }
}

/// What practice asks after an answer, before the reveal.
pub const CONFIDENCE_ASK: &str =
    "How sure are you? 1 guessing · 2 · 3 · 4 · 5 certain — any other key skips.";

/// A question the UI asks before doing something that cannot be undone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Quit before grading.
    Quit,
    /// Not a question: a message too long for the footer (an editor that failed, and
    /// where its text was kept), shown whole until a key closes it.
    Notice { title: String, text: String },
    /// Stop writing the rest of the quiz and take the `ready` questions written.
    StopWriting { ready: usize },
    /// Clear a written open answer (`chars` characters).
    ClearAnswer { id: String, chars: usize },
    /// Submit while some questions are unanswered or flagged.
    Submit { unanswered: usize, flagged: usize },
    /// Clear the answers and start again. `graded`: a score exists and is kept;
    /// `pending`: graded attempt's open answers still waiting for a grader (lost with
    /// the attempt); `answered`: how many answers go.
    NewAttempt {
        graded: bool,
        pending: usize,
        answered: usize,
    },
}

/// One open answer on the grading screen.
#[derive(Debug, Clone, PartialEq)]
pub enum GradeRow {
    Waiting,
    Running { since: Instant },
    Done { score: u32 },
    Failed { reason: String },
}

#[derive(Debug, Clone)]
pub struct Grading {
    pub started: Instant,
    /// (question id, state), in quiz order.
    pub rows: Vec<(String, GradeRow)>,
}

/// For each question of a mermaid kind: its right diagram, and the taker's when wrong,
/// drawn for the results' width.
#[derive(Debug, Clone)]
pub struct ResultDiagrams {
    pub width: usize,
    /// `(question index, label, lines)`.
    pub drawn: Vec<(usize, String, Vec<ratatui::text::Line<'static>>)>,
}

/// The current question's diagrams, drawn for the body's width (drawing them is the costly
/// part of a frame, so `update` keeps them ready).
#[derive(Debug, Clone)]
pub struct DiagramCache {
    pub question: usize,
    pub width: usize,
    pub view: super::diagrams::View,
    pub arranged: Arc<super::diagrams::Arranged>,
}

/// Text typed into an answer after another window took the attempt over: kept, shown,
/// and made the answer again when this window takes over (unless the other window
/// changed that answer meanwhile; then `i` opens the draft).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub text: String,
    /// The answer the draft was written over.
    pub base: Option<String>,
}

/// Options the taker chose on the command line, and facts about the environment.
#[derive(Debug, Clone)]
#[allow(clippy::struct_excessive_bools)] // independent settings, each read alone
pub struct Settings {
    pub practice: bool,
    pub theme: Theme,
    /// The mouse wheel scrolls (off: the terminal's own text selection works).
    pub mouse: bool,
    /// Which grader grades open answers; `None`: they stay pending.
    pub grader: Option<ChosenGrader>,
    /// Why there is no grader when `QUIZZ_GRADER` chose so (`None`: none was set up).
    pub no_grader_why: Option<String>,
    pub posting: Posting,
    /// The command that grades pending open answers later, such as `quizz grade --demo`.
    pub grade_later: String,
    /// The pull request's title and author, and who took its quiz (`None` off a PR).
    pub pr: Option<PullRequestInfo>,
    /// Each anchored question's code, read before the UI starts.
    pub code: std::sync::Arc<crate::code::CodeBook>,
    /// Which of the PR's changed files the quiz probes, when the files are known.
    pub coverage: Option<crate::code::Coverage>,
    /// Paths are terminal hyperlinks (OSC 8) to the file on GitHub.
    pub hyperlinks: bool,
    /// Practice asks how sure the taker is before revealing (`[practice] confidence`).
    pub ask_confidence: bool,
}

/// What the overview says about the pull request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PullRequestInfo {
    pub title: Option<String>,
    pub author: Option<String>,
    /// `3 people took this quiz · best 90%`, when known.
    pub takers: Option<String>,
}

pub struct App {
    pub session: Session,
    pub settings: Settings,
    pub screen: Screen,
    /// Option cursor per question (index into its choices).
    pub cursors: Vec<usize>,
    /// The code panel is open (kept while moving between questions).
    pub code_open: bool,
    /// Scroll of the code panel, in rows (back to the top on another question).
    pub code_scroll: u16,
    /// The answer box's undo steps (by word, paste, `$EDITOR`), for one question.
    pub undo: Option<super::undo::Undo>,
    /// Unsaved drafts by question id (see [`Draft`]).
    pub drafts: std::collections::BTreeMap<String, Draft>,
    /// When the question on screen was arrived at: `n`/`p` pressed right after arriving
    /// on an empty open question move on through it; later they are the answer's text.
    pub arrived: Option<Instant>,
    pub overlay: Option<Overlay>,
    /// One line for the footer: what just happened or went wrong.
    pub status: Option<String>,
    pub size: (u16, u16),
    pub outcomes: Vec<Outcome>,
    pub results: Option<Results>,
    pub grading: Option<Grading>,
    /// The time that drawing uses for elapsed times (set by update, so frames are pure).
    pub clock: Instant,
    pub spinner: usize,
    pub diagrams: Option<DiagramCache>,
    /// Every question's drawn options, kept for revisits and drawn off the UI thread.
    pub drawings: super::drawings::Drawings,
    /// Set when the UI is to close.
    pub exit: bool,
    /// `P` was pressed on the results.
    pub post: bool,
    /// How diagram options are shown (drawn or listed, differences marked).
    pub diagram_view: super::diagrams::View,
    /// The results' diagrams, drawn for the results' width (see [`DiagramCache`]).
    pub result_diagrams: Option<ResultDiagrams>,
    /// What is on screen, measured after each update (drawing reads it).
    pub view: super::view::View,
    /// The rest of the quiz, while it is written (`None`: the quiz is whole).
    pub writing: Option<super::rest::Writing>,
    /// Where the taker was on the question before a resize, kept until the options are
    /// drawn for the new width (or a key moves elsewhere).
    pub place: Option<Place>,
}

/// A place on a question's body that outlives its rows being laid out again: option
/// `option`'s title `from_top` rows below the top of the view, or when negative, the
/// view starting that many rows into the option (`rows` tall when it was measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub question: usize,
    pub option: usize,
    pub from_top: isize,
    pub rows: usize,
    /// The view was at the very top (the prompt in view): it stays there when it can.
    pub at_top: bool,
}

impl App {
    pub fn new(session: Session, settings: Settings, size: (u16, u16)) -> Self {
        let cursors = saved_cursors(&session);
        // A graded attempt comes back graded: its answers are not changed unseen.
        let results = session
            .attempt()
            .results
            .clone()
            .and_then(|v| Results::from_value(v).ok());
        Self {
            session,
            settings,
            screen: Screen::Overview,
            cursors,
            code_open: false,
            code_scroll: 0,
            drafts: std::collections::BTreeMap::new(),
            undo: None,
            status: None,
            size,
            outcomes: Vec::new(),
            results,
            grading: None,
            clock: Instant::now(),
            arrived: None,
            overlay: None,
            spinner: 0,
            exit: false,
            post: false,
            result_diagrams: None,
            diagram_view: super::diagrams::View::default(),
            diagrams: None,
            drawings: super::drawings::Drawings::default(),
            view: super::view::View::default(),
            writing: None,
            place: None,
        }
    }

    /// Puts each option cursor on the saved answer (after reading answers saved elsewhere).
    pub fn reload_cursors(&mut self) {
        self.cursors = saved_cursors(&self.session);
    }

    pub fn current(&self) -> usize {
        self.session.current()
    }

    pub fn question(&self) -> Option<&Question> {
        self.session.question(self.current())
    }

    /// The question on screen asks for a written answer.
    /// An empty open question takes letters as its answer's first words (its box is as
    /// good as focused): only keys that are no letter, `?`, and `n`/`p` while moving
    /// through (see [`Self::moving_through`]) are commands there. A written answer changes
    /// only after an edit key.
    pub fn letters_type(&self) -> bool {
        self.question_screen().is_some_and(|q| {
            q.entered != Entered::Results && q.editor.is_none() && !q.letters_are_commands
        }) && self.session.busy().is_none()
            && self.on_open_question()
            && self
                .question()
                .is_some_and(|q| !self.is_answered(&q.id) && !self.drafts.contains_key(&q.id))
    }

    /// The question was arrived at a moment ago: a key pressed now moves on through it
    /// rather than starting its answer (nobody reads a prompt and types in a second).
    pub fn moving_through(&self) -> bool {
        self.arrived.is_some_and(|at| at.elapsed() < MOVING_THROUGH)
    }

    pub fn on_open_question(&self) -> bool {
        self.question()
            .is_some_and(|q| matches!(q.kind, QuestionKind::Open { .. }))
    }

    pub fn question_count(&self) -> usize {
        self.session.quiz.questions.len()
    }

    /// How many questions the quiz has, counting those still being written.
    pub fn planned_count(&self) -> usize {
        self.writing
            .as_ref()
            .map_or(self.question_count(), super::rest::Writing::planned)
    }

    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Confirm(_)) => Context::Confirm,
            Some(Overlay::Help { .. }) => Context::Help,
            None if self.rating().is_some() => Context::Rating,
            None => self.context_under_help(),
        }
    }

    /// Where the user is, under the help overlay.
    pub fn context_under_help(&self) -> Context {
        match &self.screen {
            Screen::Overview => Context::Overview,
            Screen::Question(q) if q.editor.is_some() => Context::Editing,
            Screen::Question(q) if q.entered == Entered::Results => Context::Reading,
            Screen::Question(_) => Context::Question,
            Screen::Review { .. } => Context::Review,
            Screen::Grading => Context::Grading,
            Screen::Results(_) => Context::Results,
        }
    }

    /// The question screen's state, when a question is on screen.
    pub fn question_screen(&self) -> Option<&QuestionScreen> {
        match &self.screen {
            Screen::Question(q) => Some(q),
            _ => None,
        }
    }

    pub fn question_screen_mut(&mut self) -> Option<&mut QuestionScreen> {
        match &mut self.screen {
            Screen::Question(q) => Some(q),
            _ => None,
        }
    }

    pub fn on_question(&self) -> bool {
        matches!(self.screen, Screen::Question(_))
    }

    /// A question of a graded attempt is on screen, read only.
    pub fn reading(&self) -> bool {
        self.question_screen()
            .is_some_and(|q| q.entered == Entered::Results)
    }

    /// A question opened from the review is on screen (`Esc` goes back there).
    pub fn from_review(&self) -> bool {
        self.question_screen()
            .is_some_and(|q| q.entered == Entered::Review)
    }

    /// The open-answer editor, while it has focus.
    pub fn editor(&self) -> Option<&TextArea<'static>> {
        self.question_screen().and_then(|q| q.editor.as_ref())
    }

    /// Takes the answer box away (it loses focus).
    pub fn close_editor(&mut self) -> Option<TextArea<'static>> {
        self.question_screen_mut().and_then(|q| q.editor.take())
    }

    /// Practice: the question whose answer waits for a rating.
    pub fn rating(&self) -> Option<&str> {
        self.question_screen().and_then(|q| q.rating.as_deref())
    }

    /// The scroll of the screen on show, in rows: the question's body or the results.
    pub fn scroll(&self) -> u16 {
        match &self.screen {
            Screen::Question(q) => q.scroll,
            Screen::Results(r) => r.scroll,
            _ => 0,
        }
    }

    /// The scroll of the screen on show, when it scrolls.
    pub fn scroll_mut(&mut self) -> Option<&mut u16> {
        match &mut self.screen {
            Screen::Question(q) => Some(&mut q.scroll),
            Screen::Results(r) => Some(&mut r.scroll),
            _ => None,
        }
    }

    pub fn confirm(&self) -> Option<&Confirm> {
        match &self.overlay {
            Some(Overlay::Confirm(c)) => Some(c),
            _ => None,
        }
    }

    /// Asks a y/N question (or shows a notice) over the screen.
    pub fn ask(&mut self, confirm: Confirm) {
        self.overlay = Some(Overlay::Confirm(confirm));
    }

    /// The help's scroll, while it is open.
    pub fn help_scroll(&self) -> Option<u16> {
        match self.overlay {
            Some(Overlay::Help { scroll }) => Some(scroll),
            _ => None,
        }
    }

    /// What holds here, as the keymap tells bindings apart: the current question's kind,
    /// and whether the attempt is graded.
    pub fn hint_filter(&self) -> Vec<Only> {
        let mut here = match self.question().map(|q| &q.kind) {
            Some(QuestionKind::Mcq { .. }) => vec![Only::Options],
            Some(QuestionKind::Mermaid { .. }) => vec![Only::Options, Only::Diagrams],
            Some(QuestionKind::TrueFalse { .. }) => vec![Only::TrueFalse],
            Some(QuestionKind::Open { .. }) => vec![Only::Open],
            _ => vec![],
        };
        here.push(if self.results.is_some() {
            Only::Graded
        } else {
            Only::Fresh
        });
        if matches!(self.settings.posting, Posting::OnKey { .. }) {
            here.push(Only::Postable);
        }
        if self.session.busy().is_some() {
            here.push(Only::Busy);
        }
        if self.from_review() {
            here.push(Only::FromReview);
        }
        if self.letters_type() {
            here.push(Only::LettersType);
        }
        if self.code().is_some() {
            here.push(Only::Anchored);
            if self.code_open {
                here.push(Only::CodeOpen);
            }
        }
        here
    }

    /// The current question's code (or the note saying why there is none).
    pub fn code(&self) -> Option<&crate::code::Code> {
        let q = self.question()?;
        self.settings.code.get(&q.id)
    }

    pub fn is_answered(&self, id: &str) -> bool {
        self.session
            .answer(id)
            .is_some_and(|a| !a.trim().is_empty())
    }

    pub fn elapsed(&self, since: Instant) -> Duration {
        self.clock.saturating_duration_since(since)
    }

    /// Whether the terminal is big enough to draw anything.
    pub fn fits(&self) -> bool {
        self.size.0 >= super::layout::MIN_WIDTH && self.size.1 >= super::layout::MIN_HEIGHT
    }

    /// Whether work is running that needs the spinner to move.
    pub fn is_busy(&self) -> bool {
        (matches!(self.screen, Screen::Grading) && self.grading.is_some()) || self.writing.is_some()
    }
}

fn saved_cursors(session: &Session) -> Vec<usize> {
    session
        .quiz
        .questions
        .iter()
        .map(|q| {
            session
                .answer(&q.id)
                .and_then(|saved| q.choice_of(saved))
                .unwrap_or(0)
        })
        .collect()
}
