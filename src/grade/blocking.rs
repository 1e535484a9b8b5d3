//! Grading from synchronous code (plain mode, `quizz grade`, `quizz doctor --check`).

use std::sync::Arc;

use super::{GradeError, GradeEvent, Grader, regrade_pending};
use crate::llm::run_blocking;
use crate::quiz::{Answers, Outcome, Quiz};

/// Runs [`regrade_pending`] through [`run_blocking`] and calls `on_event` on the caller's
/// thread as each event arrives. Pass [`grade_closed`](crate::quiz::grade_closed)'s
/// outcomes as `previous` to grade every open answer. Do not call it from async code: use
/// [`grade_open`](super::grade_open) there.
pub fn grade_blocking(
    quiz: &Quiz,
    answers: &Answers,
    previous: &[Outcome],
    grader: Arc<dyn Grader>,
    concurrency: usize,
    on_event: impl FnMut(&GradeEvent),
) -> Result<Vec<Outcome>, GradeError> {
    run_blocking(
        move |tx| regrade_pending(quiz, answers, previous, grader, concurrency, tx),
        on_event,
    )
}
