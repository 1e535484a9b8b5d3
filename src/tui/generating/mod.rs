//! The generation screen: a quiz being written by the model, full screen, until it is
//! written, fails, or the user cancels it.
//!
//! Its own small loop, as the main UI's: input → [`Action`] → [`update`] → [`draw`]
//! (which only reads the state). The writing runs on a worker thread and sends its stages
//! over a channel; the screen knows nothing of how the quiz is written.

mod draw;
mod state;

pub use draw::draw;
pub use state::{Action, Effect, Phase, State, update};

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use futures_util::StreamExt;
use ratatui::crossterm::event::{Event, EventStream, KeyCode, KeyEventKind, KeyModifiers};
use tokio::sync::mpsc;

use super::terminal;
use super::theme::Theme;
use crate::generate::{Cancel, Stage};
use crate::quiz::Quiz;

/// What the screen shows besides the stages.
#[derive(Debug, Clone)]
pub struct GenerationScreen {
    /// What the quiz is for: "the local change in app", "octo/app#7 · Fix the parser".
    pub title: String,
    /// What was read of the change (`reading the diff: …`, uncommitted work left out).
    pub reading: Vec<String>,
    /// The backend and model that write the quiz, as the offer names them.
    pub backend: String,
    pub model: String,
    /// `Some(why)`: ask first ("y writes a quiz …, q/Esc leaves"), e.g. "no quiz on
    /// octo/app#7 (no bot has posted one)". `None`: start writing at once.
    pub offer: Option<String>,
    pub theme: Theme,
}

/// How the screen ended.
#[derive(Debug)]
pub enum GenerationOutcome {
    Written(Quiz),
    /// The offer was refused: nothing was asked of the model.
    Declined,
    /// The user stopped the writing (Esc, q, Ctrl-C, or an ending signal); nothing kept.
    Cancelled,
    /// Why no quiz was written (a [`crate::generate::GenerateError`], or the job's own failure).
    Failed(anyhow::Error),
}

/// The job that writes the quiz: tells each stage, stops when cancelled (then returns
/// [`crate::generate::GenerateError::Cancelled`] or any answer: a cancelled screen drops it).
pub trait WriteJob: FnOnce(&mut dyn FnMut(&Stage), &Cancel) -> Result<Quiz> + Send {}
impl<J: FnOnce(&mut dyn FnMut(&Stage), &Cancel) -> Result<Quiz> + Send> WriteJob for J {}

/// How often the spinner and the elapsed time move.
const TICK: Duration = Duration::from_millis(200);

/// Shows `screen`, runs `job` on a worker thread (after the offer is taken, when there is
/// one), and returns how it ended once the terminal is restored. A cancel waits for the
/// job to return (it does quickly: the model's request is dropped).
pub fn run_generation(screen: GenerationScreen, job: impl WriteJob) -> Result<GenerationOutcome> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let cancel = Cancel::new();
    std::thread::scope(|scope| {
        // Whatever ends the screen, an error too, stops the job: the scope waits for it.
        let _stop = CancelOnDrop(cancel.clone());
        runtime.block_on(event_loop(screen, job, scope, &cancel))
    })
}

struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

async fn event_loop<'scope>(
    screen: GenerationScreen,
    job: impl WriteJob + 'scope,
    scope: &'scope std::thread::Scope<'scope, '_>,
    cancel: &Cancel,
) -> Result<GenerationOutcome> {
    let mut guard = terminal::enter(false).context("cannot set up the terminal")?;
    let size = guard.terminal.size()?;
    let offered = screen.offer.is_some();
    let mut state = State::new(screen, (size.width, size.height), Instant::now());
    let (tx, mut rx) = mpsc::unbounded_channel::<Action>();
    // Held until the job starts: once the job has it, a closed channel means it ended.
    let mut sender = Some(tx);
    let mut job = Some(job);
    let mut worker = None;
    let mut events = EventStream::new();
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // SIGINT, SIGTERM, SIGHUP, SIGQUIT cancel as Esc does (the terminal is restored); the
    // command's exit status then says the signal.
    let mut signals = crate::signals::EndSignals::new();
    let mut next = (!offered).then_some(Action::Start);
    loop {
        if let Some(action) = next.take() {
            update(&mut state, Action::Tick(Instant::now()));
            match update(&mut state, action) {
                Effect::None => {}
                Effect::StartJob => {
                    if let (Some(job), Some(tx)) = (job.take(), sender.take()) {
                        worker = Some(start(scope, job, tx, cancel.clone()));
                    }
                }
                Effect::Cancel => cancel.cancel(),
            }
        }
        if state.outcome.is_some() {
            break;
        }
        if !state.quiet {
            guard.terminal.draw(|f| draw(f, &state))?;
        }
        next = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => to_action(&state, &event),
                Some(Err(e)) => return Err(e).context("cannot read the terminal"),
                None => Some(Action::Leave),
            },
            message = rx.recv(), if worker.is_some() => Some(message.unwrap_or_else(|| {
                Action::Done(Err(anyhow::anyhow!(
                    "the thread writing the quiz stopped without an answer"
                )))
            })),
            _ = ticker.tick() => Some(Action::Tick(Instant::now())),
            _ = signals.recv() => Some(Action::Signal),
        };
    }
    if let Some(worker) = worker {
        // It has sent its answer: it returns at once. A panic there was said already.
        let _ = worker.join();
    }
    drop(guard);
    state
        .outcome
        .take()
        .context("the generation screen ended without an outcome")
}

/// Runs `job` on a thread of `scope`; its stages and its answer come back through `tx`.
fn start<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    job: impl WriteJob + 'scope,
    tx: mpsc::UnboundedSender<Action>,
    cancel: Cancel,
) -> std::thread::ScopedJoinHandle<'scope, ()> {
    scope.spawn(move || {
        let mut on_stage = |stage: &Stage| {
            let _ = tx.send(Action::Stage(stage.clone()));
        };
        let answer = job(&mut on_stage, &cancel);
        let _ = tx.send(Action::Done(answer));
    })
}

/// What a terminal event means on the screen. Below the minimum size nothing is drawn,
/// so only leaving works (Esc, q, Ctrl-C): y does not start what cannot be seen.
fn to_action(state: &State, event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            let ctrl_c =
                key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                _ if ctrl_c => Some(Action::Leave),
                KeyCode::Esc | KeyCode::Char('q') => Some(Action::Leave),
                KeyCode::Char('n') if state.phase == Phase::Offered => Some(Action::Leave),
                KeyCode::Char('y') | KeyCode::Enter
                    if state.phase == Phase::Offered && state.fits() =>
                {
                    Some(Action::Start)
                }
                _ => None,
            }
        }
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
