//! What the generation screen knows, and how each action changes it.

use std::time::{Duration, Instant};

use super::{GenerationOutcome, GenerationScreen};
use crate::generate::growing::Growing;
use crate::generate::{GenerateError, Stage};
use crate::quiz::Quiz;
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The offer is on screen: nothing is asked of the model before y.
    Offered,
    Running,
    /// Cancelled: waiting for the job to return.
    Cancelling,
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one at a time, straight from the channel to `update`
pub enum Action {
    /// Start writing (y on the offer; at once without one).
    Start,
    /// Esc, q, Ctrl-C: leave the offer, or cancel the writing.
    Leave,
    /// An ending signal: cancel, and draw nothing more (the terminal may be gone).
    Signal,
    Stage(Stage),
    /// The job returned.
    Done(anyhow::Result<Quiz>),
    /// The clock: the spinner and the elapsed time.
    Tick(Instant),
    Resize(u16, u16),
}

/// What the loop does after an update.
#[derive(Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    StartJob,
    Cancel,
}

pub struct State {
    pub screen: GenerationScreen,
    pub phase: Phase,
    /// Each stage, with when it came (since the writing started).
    pub stages: Vec<(Duration, Stage)>,
    /// Output tokens the model has written in this round so far (a streamed reply).
    pub tokens: Option<u64>,
    pub started: Option<Instant>,
    pub now: Instant,
    pub size: (u16, u16),
    /// Set: the screen ends with it.
    pub outcome: Option<GenerationOutcome>,
    /// A signal came: nothing more is drawn.
    pub quiet: bool,
    /// A quiz written a question at a time, handed over as soon as its first question is
    /// ready (`None`: the screen waits for the whole quiz).
    pub growing: Option<Growing>,
}

impl State {
    pub fn new(screen: GenerationScreen, size: (u16, u16), now: Instant) -> Self {
        let phase = if screen.offer.is_some() {
            Phase::Offered
        } else {
            Phase::Running
        };
        Self {
            screen,
            phase,
            stages: Vec::new(),
            tokens: None,
            started: None,
            now,
            size,
            outcome: None,
            quiet: false,
            growing: None,
        }
    }

    /// How long the writing has run (zero before it starts).
    pub fn elapsed(&self) -> Duration {
        self.started
            .map_or(Duration::ZERO, |s| self.now.saturating_duration_since(s))
    }

    /// How long the current stage has run.
    /// How long the running stage has run (events told under it do not restart it).
    pub fn stage_elapsed(&self) -> Duration {
        let since = self
            .stages
            .iter()
            .rev()
            .find(|(_, s)| !s.is_event())
            .map_or(Duration::ZERO, |(at, _)| *at);
        self.elapsed().saturating_sub(since)
    }

    /// The first question of a quiz written a question at a time is ready, while writing
    /// (not after a cancel): the screen ends and the question is taken.
    pub fn handed_over(&self) -> bool {
        self.phase == Phase::Running
            && self.outcome.is_none()
            && self.growing.as_ref().is_some_and(Growing::first_ready)
    }

    pub fn fits(&self) -> bool {
        self.size.0 >= MIN_WIDTH && self.size.1 >= MIN_HEIGHT
    }
}

pub fn update(state: &mut State, action: Action) -> Effect {
    match action {
        Action::Start if state.started.is_none() => {
            state.phase = Phase::Running;
            state.started = Some(state.now);
            Effect::StartJob
        }
        Action::Start => Effect::None,
        Action::Leave | Action::Signal if state.phase == Phase::Offered => {
            state.outcome = Some(GenerationOutcome::Declined);
            Effect::None
        }
        Action::Leave | Action::Signal if state.phase == Phase::Cancelling => {
            state.quiet |= matches!(action, Action::Signal);
            Effect::None
        }
        Action::Leave | Action::Signal => {
            state.quiet |= matches!(action, Action::Signal);
            state.phase = Phase::Cancelling;
            Effect::Cancel
        }
        // Tokens so far update the line of the stage that runs; what the model reads and
        // each question written are lines of their own.
        Action::Stage(Stage::Writing {
            activity: None,
            output_tokens,
            ..
        }) => {
            state.tokens = Some(output_tokens);
            Effect::None
        }
        Action::Stage(came) => {
            if let Some(growing) = state.growing.as_mut() {
                growing.apply(&came);
            }
            if matches!(came, Stage::Asking { .. }) {
                state.tokens = None;
            }
            state.stages.push((state.elapsed(), came));
            Effect::None
        }
        Action::Done(answer) => {
            state.outcome = Some(match answer {
                // Asked to stop: whatever came back is not wanted.
                _ if state.phase == Phase::Cancelling => GenerationOutcome::Cancelled,
                Ok(quiz) => GenerationOutcome::Written(quiz),
                Err(e) if is_cancelled(&e) => GenerationOutcome::Cancelled,
                Err(e) => GenerationOutcome::Failed(e),
            });
            Effect::None
        }
        Action::Tick(now) => {
            state.now = now;
            Effect::None
        }
        Action::Resize(w, h) => {
            state.size = (w, h);
            Effect::None
        }
    }
}

pub fn is_cancelled(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<GenerateError>()
            .is_some_and(|g| matches!(g, GenerateError::Cancelled))
    })
}
