//! A quiz written a question at a time (the pipeline), taken in plain mode: the writing
//! runs on a thread of its own; the take asks the first question as soon as it is ready,
//! and each next one as it arrives (stage lines on stderr, as `generate` prints them).

use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::generate::{Job, say_stage};
use crate::generate::cache::QuizKey;
use crate::generate::growing::{Grew, Growing, Kept};
use crate::generate::{Cancel, Generator, Stage};
use crate::quiz::Quiz;
use crate::session::Session;
use crate::store::{Origin, Store};
use crate::tui::generating::is_cancelled;

/// What the writing's thread tells.
#[allow(clippy::large_enum_variant)] // one at a time, straight from the channel
enum Told {
    Stage(Stage),
    Done(Result<Quiz>),
}

/// The rest of the quiz, being written on its thread. Dropped, the writing is cancelled
/// and waited for.
pub struct PlainRest {
    rx: mpsc::Receiver<Told>,
    cancel: Cancel,
    worker: Option<std::thread::JoinHandle<()>>,
    growing: Growing,
    /// What an ending signal keeps: the questions written so far (`None` once the quiz is
    /// whole or kept, its answers where every take looks).
    shared: Arc<Mutex<Option<Growing>>>,
    key: QuizKey,
    whole: bool,
    started: Instant,
}

/// How often a take waiting for a question says it still waits.
const STILL_WAITING: Duration = Duration::from_secs(10);

/// Has the model write `job`'s quiz with stage lines on stderr: the whole quiz (the
/// one-call design), or, written a question at a time, as soon as its first question is
/// ready, that much and the rest to come.
pub fn write_plain(job: Job, store: &Store) -> Result<(Quiz, Option<PlainRest>)> {
    if Generator::chosen_for(&job.selection) != Generator::Pipeline {
        return Ok((job.write(store, &mut say_stage, &Cancel::new())?, None));
    }
    let (tx, rx) = mpsc::channel();
    let cancel = Cancel::new();
    let key = job.key.clone();
    let growing = Growing::new(job.context.pr.as_ref().map_or(0, |p| p.number));
    let (stop, store) = (cancel.clone(), store.clone());
    let worker = std::thread::spawn(move || {
        let stages = tx.clone();
        let answer = job.write(
            &store,
            &mut |stage| {
                let _ = stages.send(Told::Stage(stage.clone()));
            },
            &stop,
        );
        let _ = tx.send(Told::Done(answer));
    });
    let mut rest = PlainRest {
        rx,
        cancel,
        worker: Some(worker),
        shared: Arc::new(Mutex::new(Some(growing.clone()))),
        growing,
        key,
        whole: false,
        started: Instant::now(),
    };
    loop {
        match rest.recv() {
            Told::Stage(stage) => {
                say_stage(&stage);
                rest.growing.apply(&stage);
                rest.share();
                if rest.growing.first_ready() {
                    return Ok((rest.growing.quiz(), Some(rest)));
                }
            }
            Told::Done(answer) => return Ok((answer?, None)),
        }
    }
}

impl PlainRest {
    /// Where the answers are saved until the quiz is whole.
    pub fn attempt_path(&self, store: &Store, origin: &Origin) -> std::path::PathBuf {
        store.writing_attempt_path(origin, &self.key.writing_name())
    }

    /// From now on an ending signal (Ctrl-C, SIGTERM) keeps what was written, as `q` does
    /// on the screen: the questions so far, when a quiz's worth, with the answers saved at
    /// `writing`; and says so before quizz exits.
    pub fn keep_on_signals(&self, store: &Store, origin: &Origin, writing: &std::path::Path) {
        let shared = Arc::clone(&self.shared);
        let (key, store, origin) = (self.key.clone(), store.clone(), origin.clone());
        let writing = writing.to_path_buf();
        crate::signals::exit_on_signals_after(move || {
            let growing = shared.lock().ok().and_then(|g| g.clone());
            let Some(growing) = growing else {
                return Some(crate::plain::SAVED_ON_INTERRUPT.to_string());
            };
            Some(match growing.keep_saved(&key, &store, &origin, &writing) {
                Ok(Kept::Quiz(n)) => format!(
                    "Interrupted: the quiz is the {n} questions written, kept with your answers. Run the same command to carry on."
                ),
                Ok(Kept::TooFew(n)) => format!(
                    "Interrupted: only {} written, too few for a quiz: the next take writes a fresh one.",
                    crate::text::plural(n, "question was", "questions were")
                ),
                Err(e) => format!("Interrupted: cannot keep the questions written ({e})."),
            })
        });
    }

    /// What an ending signal would keep is what is written now.
    fn share(&self) {
        if let Ok(mut shared) = self.shared.lock() {
            *shared = Some(self.growing.clone());
        }
    }

    /// The quiz is whole or kept: an ending signal has nothing more to keep.
    fn unshare(&self) {
        if let Ok(mut shared) = self.shared.lock() {
            *shared = None;
        }
    }

    fn recv(&self) -> Told {
        self.rx
            .recv()
            .unwrap_or_else(|_| Told::Done(Err(stopped())))
    }

    /// Applies one thing the writing told; `true` when a question arrived or it ended.
    fn apply(&mut self, told: Told, session: &mut Session) -> Result<bool> {
        match told {
            Told::Stage(stage) => {
                say_stage(&stage);
                let grew = self.growing.apply(&stage);
                self.share();
                if let Grew::Arrived { .. } = grew {
                    session.grow(self.growing.quiz());
                    session.flush()?;
                    return Ok(true);
                }
                Ok(false)
            }
            Told::Done(Ok(quiz)) => {
                self.whole = true;
                self.unshare();
                session.grow(quiz);
                session.settle()?;
                Ok(true)
            }
            Told::Done(Err(e)) => {
                self.whole = true;
                self.unshare();
                let why = if is_cancelled(&e) {
                    "the writing stopped".to_string()
                } else {
                    format!("the writing failed ({e:#})")
                };
                match self.growing.keep(&self.key, session)? {
                    Kept::Quiz(n) => {
                        errln!(
                            "quizz: {}: the quiz is the {n} questions written, kept with your answers (--regenerate writes a fresh one)",
                            crate::text::sanitize_line(&why)
                        );
                        Ok(true)
                    }
                    // The take stopped it (its input ended): too few to keep is what
                    // became of the writing, not a failure of the take.
                    Kept::TooFew(n) if is_cancelled(&e) => {
                        errln!(
                            "quizz: the writing stopped: only {} written, too few for a quiz: the next take writes a fresh one",
                            crate::text::plural(n, "question was", "questions were")
                        );
                        Ok(true)
                    }
                    Kept::TooFew(_) => Err(e),
                }
            }
        }
    }
}

impl crate::plain::Rest for PlainRest {
    fn news(&mut self, session: &mut Session, wait: bool) -> Result<()> {
        if self.whole {
            return Ok(());
        }
        if wait {
            let secs = self.started.elapsed().as_secs();
            errln!(
                "quizz: the next question is still being written ({} so far, {}:{:02})…",
                crate::text::plural(self.growing.ready(), "question", "questions"),
                secs / 60,
                secs % 60
            );
        }
        loop {
            let told = if wait {
                match self.rx.recv_timeout(STILL_WAITING) {
                    Ok(told) => told,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let secs = self.started.elapsed().as_secs();
                        errln!(
                            "quizz: still writing ({} of {} ready, {}:{:02})…",
                            self.growing.ready(),
                            self.growing.slots.len(),
                            secs / 60,
                            secs % 60
                        );
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => Told::Done(Err(stopped())),
                }
            } else {
                match self.rx.try_recv() {
                    Ok(told) => told,
                    Err(mpsc::TryRecvError::Empty) => return Ok(()),
                    Err(mpsc::TryRecvError::Disconnected) => Told::Done(Err(stopped())),
                }
            };
            if self.apply(told, session)? && (wait || self.whole) {
                return Ok(());
            }
        }
    }

    fn is_whole(&self) -> bool {
        self.whole
    }

    fn planned(&self) -> usize {
        self.growing
            .slots
            .iter()
            .filter(|s| !matches!(s, crate::generate::growing::Slot::Dropped))
            .count()
    }

    fn stop(&mut self, session: &mut Session) -> Result<()> {
        if self.whole {
            return Ok(());
        }
        self.cancel.cancel();
        while !self.whole {
            let told = self.recv();
            self.apply(told, session)?;
        }
        Ok(())
    }
}

impl Drop for PlainRest {
    fn drop(&mut self) {
        self.cancel.cancel();
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn stopped() -> anyhow::Error {
    anyhow::anyhow!("the thread writing the quiz stopped without an answer")
}
