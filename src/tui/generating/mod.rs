//! The generation screen: a quiz being written by the model, full screen, until it is
//! written, fails, or the user cancels it.
//!
//! Its own small loop, as the main UI's: input → [`Action`] → [`update`] → [`draw`]
//! (which only reads the state). The writing runs on a worker thread and sends its stages
//! over a channel; the screen knows nothing of how the quiz is written.

mod draw;
mod state;

pub use draw::draw;
pub use state::{Action, Effect, Phase, State, is_cancelled, update};

use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use futures_util::StreamExt;
use ratatui::crossterm::event::{Event, EventStream, KeyCode, KeyEventKind, KeyModifiers};
use tokio::sync::mpsc;

use super::terminal;
use super::theme::Theme;
use crate::generate::growing::Growing;
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

/// How a screen that hands over its first question ended.
pub enum GrowingOutcome {
    Ended(GenerationOutcome),
    /// The first question passed its checks: it can be taken while `feed` brings the rest.
    FirstReady {
        growing: Growing,
        feed: Feed,
    },
}

/// The job that writes the quiz: tells each stage, stops when cancelled (then returns
/// [`crate::generate::GenerateError::Cancelled`] or any answer: a cancelled screen drops it).
pub trait WriteJob:
    FnOnce(&mut dyn FnMut(&Stage), &Cancel) -> Result<Quiz> + Send + 'static
{
}
impl<J: FnOnce(&mut dyn FnMut(&Stage), &Cancel) -> Result<Quiz> + Send + 'static> WriteJob for J {}

/// How often the spinner and the elapsed time move.
const TICK: Duration = Duration::from_millis(200);

/// Shows `screen`, runs `job` on a worker thread (after the offer is taken, when there is
/// one), and returns how it ended once the terminal is restored. A cancel waits for the
/// job to return (it does quickly: the model's request is dropped).
pub fn run_generation(screen: GenerationScreen, job: impl WriteJob) -> Result<GenerationOutcome> {
    match run_screen(screen, job, None)? {
        GrowingOutcome::Ended(outcome) => Ok(outcome),
        GrowingOutcome::FirstReady { .. } => {
            anyhow::bail!("the generation screen handed over a question nobody asked for")
        }
    }
}

/// As [`run_generation`], but a quiz written a question at a time (the pipeline) ends the
/// screen as soon as its first question is ready: the job goes on, and the rest of what it
/// tells comes through the [`Feed`]. `pr_number`: the quiz's.
pub fn run_generation_growing(
    screen: GenerationScreen,
    job: impl WriteJob,
    pr_number: u64,
) -> Result<GrowingOutcome> {
    run_screen(screen, job, Some(Growing::new(pr_number)))
}

fn run_screen(
    screen: GenerationScreen,
    job: impl WriteJob,
    growing: Option<Growing>,
) -> Result<GrowingOutcome> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(event_loop(screen, job, growing))
}

/// The thread that writes the quiz. Dropped, it is cancelled and waited for.
struct Worker {
    cancel: Cancel,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel.cancel();
        if let Some(handle) = self.handle.take() {
            // It returns at once once cancelled. A panic there was said already.
            let _ = handle.join();
        }
    }
}

/// What the writing tells after the screen handed over its first question.
#[allow(clippy::large_enum_variant)] // one at a time, straight from the channel
pub enum Written {
    Stage(Stage),
    /// The job returned: the whole quiz, or why not.
    Done(Result<Quiz>),
}

/// The rest of a quiz being written, after its first question was handed over: the stages
/// as they come, then the job's answer. Dropped, the writing is cancelled (and waited for).
pub struct Feed {
    rx: mpsc::UnboundedReceiver<Action>,
    worker: Worker,
    done: bool,
    /// When the writing started, and each stage with when it came (since then).
    pub started: Instant,
    pub stages: Vec<(Duration, Stage)>,
}

impl Feed {
    /// The next thing the writing tells; `None` once it answered.
    pub async fn next(&mut self) -> Option<Written> {
        if self.done {
            return None;
        }
        loop {
            match self.rx.recv().await {
                Some(Action::Stage(stage)) => return Some(Written::Stage(stage)),
                Some(Action::Done(answer)) => {
                    self.done = true;
                    return Some(Written::Done(answer));
                }
                Some(_) => {}
                None => {
                    self.done = true;
                    return Some(Written::Done(Err(stopped_without_answer())));
                }
            }
        }
    }

    /// Asks the writing to stop: it answers (through [`Feed::next`]) soon after.
    pub fn cancel(&self) {
        self.worker.cancel.cancel();
    }
}

fn stopped_without_answer() -> anyhow::Error {
    anyhow::anyhow!("the thread writing the quiz stopped without an answer")
}

async fn event_loop(
    screen: GenerationScreen,
    job: impl WriteJob,
    growing: Option<Growing>,
) -> Result<GrowingOutcome> {
    let cancel = Cancel::new();
    let mut guard = terminal::enter(false).context("cannot set up the terminal")?;
    let size = guard.terminal.size()?;
    let offered = screen.offer.is_some();
    let mut state = State::new(screen, (size.width, size.height), Instant::now());
    state.growing = growing;
    let (tx, mut rx) = mpsc::unbounded_channel::<Action>();
    // Held until the job starts: once the job has it, a closed channel means it ended.
    let mut sender = Some(tx);
    let mut job = Some(job);
    // Whatever ends the screen, an error too, stops the job and waits for it.
    let mut worker: Option<Worker> = None;
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
                        worker = Some(start(job, tx, cancel.clone()));
                    }
                }
                Effect::Cancel => cancel.cancel(),
            }
        }
        if state.outcome.is_some() || state.handed_over() {
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
                Action::Done(Err(stopped_without_answer()))
            })),
            _ = ticker.tick() => Some(Action::Tick(Instant::now())),
            _ = signals.recv() => Some(Action::Signal),
        };
    }
    if state.handed_over()
        && let (Some(growing), Some(worker), Some(started)) =
            (state.growing.take(), worker.take(), state.started)
    {
        drop(guard);
        let feed = Feed {
            rx,
            worker,
            done: false,
            started,
            stages: std::mem::take(&mut state.stages),
        };
        return Ok(GrowingOutcome::FirstReady { growing, feed });
    }
    // It has sent its answer: it returns at once.
    drop(worker);
    drop(guard);
    state
        .outcome
        .take()
        .map(GrowingOutcome::Ended)
        .context("the generation screen ended without an outcome")
}

/// Runs `job` on a thread; its stages and its answer come back through `tx`.
fn start(job: impl WriteJob, tx: mpsc::UnboundedSender<Action>, cancel: Cancel) -> Worker {
    let stop = cancel.clone();
    let handle = std::thread::spawn(move || {
        let mut on_stage = |stage: &Stage| {
            let _ = tx.send(Action::Stage(stage.clone()));
        };
        let answer = job(&mut on_stage, &stop);
        let _ = tx.send(Action::Done(answer));
    });
    Worker {
        cancel,
        handle: Some(handle),
    }
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
