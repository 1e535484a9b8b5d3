//! The app's whole state. Drawing reads it; only `update` changes it.

use std::time::{Duration, Instant};

use ratatui_textarea::TextArea;

use super::keymap::Context;
use super::theme::Theme;
use crate::quiz::{Outcome, Question, QuestionKind, Results};
use crate::session::Session;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Overview,
    Question,
    Review,
    Grading,
    Results,
}

/// How the UI closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Quit,
    /// The taker pressed `P` on the results: post them once the UI has closed.
    QuitAndPost,
}

/// A question the UI asks before doing something that cannot be undone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Quit before grading.
    Quit,
    /// Clear a written open answer (`chars` characters).
    ClearAnswer { id: String, chars: usize },
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

/// The current question's diagrams, drawn for the body's width (drawing them is the costly
/// part of a frame, so `update` keeps them ready).
#[derive(Debug, Clone)]
pub struct DiagramCache {
    pub question: usize,
    pub width: usize,
    pub options: Vec<Vec<ratatui::text::Line<'static>>>,
}

/// Options the taker chose on the command line, and facts about the environment.
#[derive(Debug, Clone)]
pub struct Settings {
    pub practice: bool,
    pub theme: Theme,
    /// Says which grader will grade open answers (or that none will).
    pub grader_label: String,
    pub grader_available: bool,
    /// What happens to the results after grading (posted, saved to post later, not posted).
    pub after_grading: String,
    /// The command that grades pending open answers later, such as `quizz grade --demo`.
    pub grade_later: String,
    /// Whether `P` on the results posts them (a PR quiz, posting not decided by a flag).
    pub can_post: bool,
}

pub struct App {
    pub session: Session,
    pub settings: Settings,
    pub screen: Screen,
    /// Option cursor per question (index into its choices).
    pub cursors: Vec<usize>,
    /// Scroll of the question body or the results, in rows; `update` keeps it within
    /// what the screen can scroll.
    pub scroll: u16,
    pub review_cursor: usize,
    /// The open-answer editor while it has focus.
    pub editor: Option<TextArea<'static>>,
    pub help: bool,
    /// A y/N question over the screen.
    pub confirm: Option<Confirm>,
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
    /// Set when the UI is to close, and how.
    pub exit: Option<Exit>,
}

impl App {
    pub fn new(session: Session, settings: Settings, size: (u16, u16)) -> Self {
        let cursors = saved_cursors(&session);
        Self {
            session,
            settings,
            screen: Screen::Overview,
            cursors,
            scroll: 0,
            review_cursor: 0,
            editor: None,
            help: false,
            confirm: None,
            status: None,
            size,
            outcomes: Vec::new(),
            results: None,
            grading: None,
            clock: Instant::now(),
            spinner: 0,
            exit: None,
            diagrams: None,
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

    pub fn question_count(&self) -> usize {
        self.session.quiz.questions.len()
    }

    pub fn context(&self) -> Context {
        if self.confirm.is_some() {
            Context::Confirm
        } else if self.help {
            Context::Help
        } else if self.editor.is_some() {
            Context::Editing
        } else {
            match self.screen {
                Screen::Overview => Context::Overview,
                Screen::Question => Context::Question,
                Screen::Review => Context::Review,
                Screen::Grading => Context::Grading,
                Screen::Results => Context::Results,
            }
        }
    }

    pub fn is_answered(&self, id: &str) -> bool {
        self.session
            .answer(id)
            .is_some_and(|a| !a.trim().is_empty())
    }

    pub fn elapsed(&self, since: Instant) -> Duration {
        self.clock.saturating_duration_since(since)
    }

    /// Whether work is running that needs the spinner to move.
    pub fn is_busy(&self) -> bool {
        self.screen == Screen::Grading && self.grading.is_some()
    }
}

fn saved_cursors(session: &Session) -> Vec<usize> {
    session
        .quiz
        .questions
        .iter()
        .map(|q| {
            let saved = session.answer(&q.id);
            q.choices()
                .iter()
                .position(|(key, text)| match &q.kind {
                    QuestionKind::Mcq { .. } => Some(*text) == saved,
                    _ => Some(key.as_str()) == saved,
                })
                .unwrap_or(0)
        })
        .collect()
}
