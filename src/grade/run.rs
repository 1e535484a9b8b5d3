//! Grading every open answer of a quiz, concurrently and bounded, with progress events.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinSet;

use super::{GradeError, GradeRequest, Grader};
use crate::quiz::{Answers, OpenGrade, Outcome, QuestionKind, Quiz, grade_closed};

/// The outcomes before any call: closed questions (and blank answers) graded locally,
/// open grades already in `previous` kept, every other answered open question pending.
pub fn keep_previous(quiz: &Quiz, answers: &Answers, previous: &[Outcome]) -> Vec<Outcome> {
    let mut outcomes = grade_closed(quiz, answers);
    for (index, question) in quiz.questions.iter().enumerate() {
        if let (QuestionKind::Open { .. }, Outcome::Pending, Some(kept @ Outcome::Scored { .. })) =
            (&question.kind, &outcomes[index], previous.get(index))
        {
            outcomes[index] = kept.clone();
        }
    }
    outcomes
}

/// Open answers graded at the same time unless told otherwise.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// Progress of one open answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GradeEvent {
    /// The call for this question has begun (it holds one of the concurrency slots).
    Started { question_id: String },
    /// The question is done: its validated grade, or why it failed (it stays pending).
    Finished {
        question_id: String,
        outcome: Result<OpenGrade, GradeError>,
    },
}

/// Grades a quiz: closed questions locally, every answered open question through `grader`
/// with at most `concurrency` calls at once. Outcomes come in quiz order; an open answer
/// whose grading failed stays [`Outcome::Pending`] (the failure is in its `Finished` event).
pub async fn grade_open(
    quiz: &Quiz,
    answers: &Answers,
    grader: Arc<dyn Grader>,
    concurrency: usize,
    events: UnboundedSender<GradeEvent>,
) -> Vec<Outcome> {
    let closed = grade_closed(quiz, answers);
    regrade_pending(quiz, answers, &closed, grader, concurrency, events).await
}

/// Like [`grade_open`], but keeps the open grades already in `previous` (one outcome per
/// question, quiz order) and grades only the open answers still pending: the retry of the
/// failed ones. Closed questions are always graded again locally.
pub async fn regrade_pending(
    quiz: &Quiz,
    answers: &Answers,
    previous: &[Outcome],
    grader: Arc<dyn Grader>,
    concurrency: usize,
    events: UnboundedSender<GradeEvent>,
) -> Vec<Outcome> {
    let mut outcomes = keep_previous(quiz, answers, previous);
    let semaphore = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = JoinSet::new();
    let mut task_question = HashMap::new();
    for (index, question) in quiz.questions.iter().enumerate() {
        let QuestionKind::Open { rubric } = &question.kind else {
            continue;
        };
        if outcomes[index] != Outcome::Pending {
            continue;
        }
        let Some(answer) = answers.get(&question.id) else {
            continue;
        };
        let request = GradeRequest {
            question_id: question.id.clone(),
            question: question.prompt.clone(),
            rubric: rubric.clone(),
            answer: answer.to_string(),
        };
        let grader = Arc::clone(&grader);
        let semaphore = Arc::clone(&semaphore);
        let events = events.clone();
        let handle = tasks.spawn(async move {
            // The semaphore is never closed; a closed one would only mean "no limit".
            let _permit = semaphore.acquire_owned().await.ok();
            let _ = events.send(GradeEvent::Started {
                question_id: request.question_id.clone(),
            });
            let outcome = grader.grade(&request).await;
            let _ = events.send(GradeEvent::Finished {
                question_id: request.question_id,
                outcome: outcome.clone(),
            });
            (index, outcome)
        });
        task_question.insert(handle.id(), (index, question.id.clone()));
    }
    while let Some(joined) = tasks.join_next_with_id().await {
        match joined {
            Ok((_, (index, Ok(grade)))) => {
                outcomes[index] = Outcome::Scored {
                    score: grade.score.min(100),
                    feedback: grade.feedback,
                };
            }
            Ok((_, (_, Err(_)))) => {} // stays pending; the event carried the reason
            Err(join_error) => {
                if let Some((_, id)) = task_question.get(&join_error.id()) {
                    let _ = events.send(GradeEvent::Finished {
                        question_id: id.clone(),
                        outcome: Err(GradeError::Runtime(
                            "the grading task stopped unexpectedly".into(),
                        )),
                    });
                }
            }
        }
    }
    outcomes
}
