//! The full-screen UI: input → `Action` → `update` → draw, in one loop.
//!
//! The loop redraws only when something happened (a key, a resize, grading progress);
//! a timer runs only while the spinner has something to show.

mod action;
pub mod app;
mod body;
mod code_panel;
mod comparison;
mod diagrams;
mod drawings;
pub mod generating;
mod help;
mod keymap;
mod layout;
mod markdown;
pub mod rest;
mod results_text;
mod terminal;
pub mod theme;
mod ui;
mod undo;
mod update;
mod view;
mod wrap;

pub use action::Action;
pub use app::{App, Finished, NoPost, Posting, PullRequestInfo, Screen, Settings};
pub use keymap::{Context, dispatch};
pub use ui::draw;
pub use update::{Effect, save_batch, update};

use std::time::Duration;

use anyhow::{Context as _, Result};
use futures_util::StreamExt;
use ratatui::crossterm::event::{self, Event, EventStream, KeyEventKind, MouseEventKind};
use tokio::sync::mpsc;

use std::sync::Arc;

use crate::grade::{DEFAULT_CONCURRENCY, GradeEvent, Grader, regrade_pending};
use crate::quiz::Outcome;
use crate::session::Session;

/// Runs the UI until the taker quits; hands back the session, the results (if graded)
/// and whether to post them. The settings' grader grades open answers in the background
/// (none: they stay pending).
pub fn run(session: Session, settings: Settings) -> Result<Finished> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(event_loop(session, settings, None))
}

/// As [`run`], for a quiz still being written: `session` holds its first questions,
/// `writing` what is known of the rest, and `feed` brings the rest as it is written. The
/// question screen opens on the first question at once.
/// `read_code` reads the code of questions that arrive anchored (it is called outside the
/// UI's runtime, on a thread of its own, and blocks the UI while it reads).
pub fn run_growing(
    session: Session,
    settings: Settings,
    writing: rest::Writing,
    feed: generating::Feed,
    read_code: &CodeReader<'_>,
) -> Result<Finished> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(event_loop(
        session,
        settings,
        Some((writing, feed, read_code)),
    ))
}

/// Reads the code of a quiz's anchored questions (those that arrived while the UI was open).
pub type CodeReader<'a> = dyn Fn(&crate::quiz::Quiz) -> crate::code::CodeBook + Sync + 'a;

/// How often the window looks at who saves the attempt.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// How long the end of a batch of input waits for more.
const DRAIN_WAIT: Duration = Duration::from_millis(1);

fn to_action(app: &App, event: Event) -> Option<Action> {
    match event {
        // Below the minimum size nothing is drawn, so no key acts blindly: only the keys
        // the keymap gives that place (they quit at once; answers are saved).
        Event::Key(key) if key.kind != KeyEventKind::Release && !app.fits() => {
            keymap::dispatch(keymap::Context::TooSmall, &key)
        }
        // Esc while the rest of the quiz is written, where it means nothing else: stop it.
        Event::Key(key)
            if key.kind != KeyEventKind::Release
                && keymap::fits(keymap::STOP_WRITING, &key)
                && app.writing.is_some()
                && matches!(
                    app.context(),
                    keymap::Context::Question | keymap::Context::Overview
                )
                && !app.from_review() =>
        {
            Some(Action::StopWriting)
        }
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            let context = app.context();
            let action = to_action_of_key(app, &key);
            if context == keymap::Context::Confirm
                && matches!(app.confirm(), Some(app::Confirm::Notice { .. }))
            {
                return Some(action.unwrap_or(Action::CloseNoticeThen(key)));
            }
            // Asked how sure: any key without a meaning there skips the rating.
            if context == keymap::Context::Rating {
                return Some(action.unwrap_or(Action::SkipRating));
            }
            action
        }
        Event::Paste(text) if app.fits() => Some(Action::Paste(text)),
        Event::Resize(w, h) => Some(Action::Resize(w, h)),
        Event::Mouse(mouse) if app.fits() => match mouse.kind {
            MouseEventKind::ScrollDown => Some(Action::WheelDown),
            MouseEventKind::ScrollUp => Some(Action::WheelUp),
            _ => None,
        },
        _ => None,
    }
}

/// What a key means where the app is (on an open question, a key whose command is for
/// other questions is text).
fn to_action_of_key(app: &App, key: &ratatui::crossterm::event::KeyEvent) -> Option<Action> {
    if app.context() == keymap::Context::Question && app.on_open_question() {
        if app.letters_type()
            && let Some(action) = keymap::letter_on_empty_answer(key, app.moving_through())
        {
            return Some(action);
        }
        keymap::dispatch_on_open(&app.hint_filter(), key)
    } else {
        keymap::dispatch(app.context(), key)
    }
}

async fn event_loop(
    session: Session,
    settings: Settings,
    growing: Option<(rest::Writing, generating::Feed, &CodeReader<'_>)>,
) -> Result<Finished> {
    let mut guard = terminal::enter(settings.mouse).context("cannot set up the terminal")?;
    let size = guard.terminal.size()?;
    let mut app = App::new(session, settings, (size.width, size.height));
    let read_code = growing.as_ref().map(|(_, _, read)| *read);
    let mut feed = growing.map(|(writing, feed, _)| {
        app.writing = Some(writing);
        // The first question is ready: it is on screen at once.
        update::update(&mut app, Action::Start);
        feed
    });
    let (tx, mut rx) = mpsc::unbounded_channel::<Action>();
    app.drawings.drawer = drawings::on_threads(tx.clone());
    update::refresh(&mut app);
    let mut events = EventStream::new();
    let mut ticker: Option<tokio::time::Interval> = None;
    // Twice a second, whatever else happens: a window taken over says so at once.
    let mut poll = tokio::time::interval(POLL_EVERY);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // SIGINT, SIGTERM, SIGHUP, SIGQUIT end the UI cleanly (the terminal is restored,
    // answers are saved); in raw mode Ctrl-C arrives as a key.
    let mut signals = crate::signals::EndSignals::new();
    let mut grading_task: Option<tokio::task::JoinHandle<()>> = None;
    guard.draw(&app)?;
    'run: loop {
        let first = tokio::select! {
            event = events.next() => match event {
                Some(Ok(event)) => to_action(&app, event),
                Some(Err(e)) => return Err(e).context("cannot read the terminal"),
                None => Some(Action::ForceQuit),
            },
            Some(action) = rx.recv() => Some(action),
            Some(news) = written(feed.as_mut()) => Some(Action::Writing(Box::new(news))),
            () = tick(ticker.as_mut()) => Some(Action::Tick),
            _ = poll.tick() => Some(Action::Poll),
            _ = signals.recv() => Some(Action::ForceQuit),
        };
        // Everything the terminal already sent is handled before one save and one frame:
        // a fast paste or a burst of keys costs one write, not one per character.
        let mut next = first;
        loop {
            if let Some(action) = next.take() {
                tracing::trace!(?action, "action");
                match update::update(&mut app, action) {
                    Effect::None => {}
                    Effect::ExternalEditor {
                        question_id,
                        text,
                        dir,
                    } => {
                        // The event stream is dropped first: it would race the editor and
                        // the terminal for input.
                        drop(events);
                        let edited = guard
                            .suspend(|| terminal::external_editor(&question_id, &text, &dir))?;
                        events = EventStream::new();
                        let _ = tx.send(Action::ExternalEditorDone(edited));
                        break;
                    }
                    Effect::StartGrading { previous } => {
                        grading_task =
                            app.settings.grader.as_ref().map(|g| {
                                start_grading(&app, previous, g.grader.clone(), tx.clone())
                            });
                    }
                    Effect::StopWriting => {
                        if let Some(feed) = &feed {
                            feed.cancel();
                        }
                    }
                    Effect::ReadCode => read_late_code(&app, read_code, &tx),
                    Effect::CancelGrading => {
                        if let Some(task) = grading_task.take() {
                            task.abort();
                        }
                    }
                }
                if app.exit {
                    break 'run;
                }
            }
            // Read what is already there. Not with the stream (its wake-up thread would
            // be left with a waker nobody listens to), and not with a zero timeout (the
            // /dev/tty reader then reads nothing at all): 1 ms ends a batch.
            match event::poll(DRAIN_WAIT) {
                Ok(true) => {
                    let event = event::read().context("cannot read the terminal")?;
                    next = to_action(&app, event);
                }
                Ok(false) => break,
                Err(e) => return Err(e).context("cannot read the terminal"),
            }
        }
        update::save_batch(&mut app);
        let ticking = app.is_busy();
        ticker = match (ticking, ticker) {
            (true, Some(t)) => Some(t),
            (true, None) => Some(tokio::time::interval(Duration::from_millis(100))),
            (false, _) => None,
        };
        guard.draw(&app)?;
    }
    let writing_note = end_writing(&mut app, feed);
    update::save_batch(&mut app);
    if let Some(task) = grading_task {
        task.abort();
    }
    drop(guard);
    Ok(finished(app, writing_note))
}

/// Reads the code of the anchored questions that arrived after the UI opened; it comes
/// back as an action.
fn read_late_code(
    app: &App,
    read_code: Option<&CodeReader<'_>>,
    tx: &mpsc::UnboundedSender<Action>,
) {
    let Some(read) = read_code else {
        return;
    };
    let quiz = update::writing::without_code(app);
    // Off the UI's runtime: reading from GitHub runs one of its own.
    let book = std::thread::scope(|s| s.spawn(|| read(&quiz)).join()).unwrap_or_default();
    let _ = tx.send(Action::CodeRead(Box::new(book)));
}

/// What the UI hands back once it closed.
fn finished(app: App, writing_note: Option<String>) -> Finished {
    let failures = app
        .grading
        .iter()
        .flat_map(|g| &g.rows)
        .filter_map(|(id, row)| match row {
            app::GradeRow::Failed { reason } => Some((id.clone(), reason.clone())),
            _ => None,
        })
        .collect();
    Finished {
        results: app.results,
        post: app.post,
        failures,
        session: app.session,
        writing_note,
    }
}

/// Quitting while the rest is written stops it: what was written is kept, with its
/// answers. What became of it, for the line after the UI.
fn end_writing(app: &mut App, feed: Option<generating::Feed>) -> Option<String> {
    if let Some(feed) = feed {
        feed.cancel();
    }
    let writing = app.writing.as_ref()?;
    if writing.ended.is_some() {
        return writing.ended.clone();
    }
    app.status = None;
    update::writing::keep_written(app, None);
    app.writing
        .as_ref()
        .and_then(|w| w.ended.clone())
        .or_else(|| app.status.clone())
}

/// The next thing the writing tells (never, without a writing).
async fn written(
    feed: Option<&mut generating::Feed>,
) -> Option<crate::generate::growing::WritingNews> {
    let Some(feed) = feed else {
        return std::future::pending().await;
    };
    match feed.next().await {
        Some(generating::Written::Stage(stage)) => {
            Some(crate::generate::growing::WritingNews::Stage(stage))
        }
        Some(generating::Written::Done(answer)) => {
            Some(crate::generate::growing::WritingNews::Done(answer.map_err(
                |e| (!generating::is_cancelled(&e)).then(|| format!("{e:#}")),
            )))
        }
        None => std::future::pending().await,
    }
}

async fn tick(ticker: Option<&mut tokio::time::Interval>) {
    match ticker {
        Some(t) => {
            t.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// Grades the open answers pending in `previous` in the background, reporting each one
/// through `tx`, then the outcomes.
fn start_grading(
    app: &App,
    previous: Vec<Outcome>,
    grader: Arc<dyn Grader>,
    tx: mpsc::UnboundedSender<Action>,
) -> tokio::task::JoinHandle<()> {
    let quiz = app.session.quiz.clone();
    let answers = app.session.answers();
    tokio::spawn(async move {
        let (events_tx, mut events) = mpsc::unbounded_channel();
        let forward = {
            let tx = tx.clone();
            async move {
                while let Some(event) = events.recv().await {
                    let action = match event {
                        GradeEvent::Started { question_id } => Action::GradeStarted(question_id),
                        GradeEvent::Finished {
                            question_id,
                            outcome,
                        } => Action::GradeFinished(question_id, outcome.map_err(|e| e.to_line())),
                    };
                    let _ = tx.send(action);
                }
            }
        };
        let grading = regrade_pending(
            &quiz,
            &answers,
            &previous,
            grader,
            DEFAULT_CONCURRENCY,
            events_tx,
        );
        let ((), outcomes) = tokio::join!(forward, grading);
        let _ = tx.send(Action::GradingDone(outcomes));
    })
}

#[cfg(test)]
mod imports;
#[cfg(test)]
mod measure;
#[cfg(test)]
mod tests;
