//! What the taker knows of the rest of a quiz while it is written: the questions still
//! coming, what the writing said last, and whether the taker asked it to stop. State only:
//! how what the writing tells changes the app is in [`super::writing`].

use std::time::Instant;

use crate::generate::cache::QuizKey;
use crate::generate::growing::Growing;

/// The rest of the quiz, being written.
#[derive(Debug, Clone)]
pub struct Writing {
    pub growing: Growing,
    /// What the quiz is kept under: what was written is kept there when the writing stops.
    pub key: QuizKey,
    pub started: Instant,
    /// The latest stage, in a few words.
    pub summary: String,
    /// `n` past the last ready question: the slot it waits for, and the question it was
    /// pressed on (it opens only if the taker is still there).
    pub waiting: Option<(usize, String)>,
    /// The taker asked the writing to stop (Esc, then y): what was written is kept.
    pub stopping: bool,
    /// The writing ended without a quiz that can be kept (too few questions): why.
    pub ended: Option<String>,
}

impl Writing {
    pub fn new(growing: Growing, key: QuizKey, started: Instant, summary: String) -> Self {
        Self {
            growing,
            key,
            started,
            summary,
            waiting: None,
            stopping: false,
            ended: None,
        }
    }

    /// The questions the quiz will have: ready, or being written (none left out).
    pub fn planned(&self) -> usize {
        if self.ended.is_some() {
            return self.growing.ready();
        }
        self.growing.ready() + self.growing.writing()
    }

    /// Questions still being written (none once it ended).
    pub fn pending(&self) -> usize {
        if self.ended.is_some() {
            0
        } else {
            self.growing.writing()
        }
    }

    /// What the footer says of the writing: `q3, q4 being written · planned 4 … · 0:12`.
    pub fn progress(&self, now: Instant) -> String {
        if let Some(why) = &self.ended {
            return why.clone();
        }
        let slots: Vec<String> = self
            .growing
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, crate::generate::growing::Slot::Writing))
            .map(|(i, _)| format!("q{}", i + 1))
            .collect();
        let secs = now.saturating_duration_since(self.started).as_secs();
        let clock = format!("{}:{:02}", secs / 60, secs % 60);
        let what = if self.stopping {
            "stopping the writing…".to_string()
        } else {
            format!("{} being written", slots.join(", "))
        };
        format!("✎ {what} · {} · {clock}", self.summary)
    }
}
