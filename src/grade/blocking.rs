//! Grading from synchronous code (plain mode, `quizz grade`, `quizz doctor --check`).

use std::sync::Arc;

use tokio::sync::mpsc;

use super::{GradeError, GradeEvent, Grader, regrade_pending};
use crate::quiz::{Answers, Outcome, Quiz};

/// Runs [`regrade_pending`] on a runtime of its own, on a thread of its own, and calls
/// `on_event` on the caller's thread as each event arrives. Pass
/// [`grade_closed`](crate::quiz::grade_closed)'s outcomes as `previous` to grade every open
/// answer. Do not call it from async code: use [`grade_open`](super::grade_open) there.
pub fn grade_blocking(
    quiz: &Quiz,
    answers: &Answers,
    previous: &[Outcome],
    grader: Arc<dyn Grader>,
    concurrency: usize,
    mut on_event: impl FnMut(&GradeEvent),
) -> Result<Vec<Outcome>, GradeError> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| GradeError::Runtime(e.to_string()))?;
            Ok(runtime.block_on(regrade_pending(
                quiz,
                answers,
                previous,
                grader,
                concurrency,
                tx,
            )))
        });
        while let Some(event) = rx.blocking_recv() {
            on_event(&event);
        }
        worker
            .join()
            .unwrap_or_else(|_| Err(GradeError::Runtime("the grading thread panicked".into())))
    })
}
