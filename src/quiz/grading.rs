//! Scoring: closed questions here, open ones through whatever grader is available.

use super::answers::Answers;
use super::model::{Question, QuestionKind, Quiz};
use super::results::{NotCounted, OPEN_PASS_SCORE, QuestionResult, Results};

/// What happened to one question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Scored {
        score: u32,
        feedback: String,
    },
    /// An open answer that waits for a grader.
    Pending,
    NotCounted {
        reason: String,
    },
}

/// A grade for an open answer, from a model (validated by the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenGrade {
    pub score: u32,
    pub feedback: String,
}

/// Grades one question. Open answers are left [`Outcome::Pending`] unless blank.
pub fn grade_question(question: &Question, answer: Option<&str>) -> Outcome {
    let Some(answer) = answer.map(str::trim).filter(|a| !a.is_empty()) else {
        return match &question.kind {
            QuestionKind::Unsupported { type_name } => not_counted(type_name),
            _ => Outcome::Scored {
                score: 0,
                feedback: String::new(),
            },
        };
    };
    let Some(right) = question.is_right(answer) else {
        return match &question.kind {
            QuestionKind::Unsupported { type_name } => not_counted(type_name),
            _ => Outcome::Pending,
        };
    };
    Outcome::Scored {
        score: if right { 100 } else { 0 },
        feedback: String::new(),
    }
}

fn not_counted(type_name: &str) -> Outcome {
    Outcome::NotCounted {
        reason: format!(
            "question type {type_name:?} is not supported by this quizz; not counted in the total"
        ),
    }
}

/// `true`/`false`, also `t`/`f`, any case.
pub fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "t" => Some(true),
        "false" | "f" => Some(false),
        _ => None,
    }
}

/// Grades every question, closed ones at once; open ones stay pending.
pub fn grade_closed(quiz: &Quiz, answers: &Answers) -> Vec<Outcome> {
    quiz.questions
        .iter()
        .map(|q| grade_question(q, answers.get(&q.id)))
        .collect()
}

/// Puts outcomes (one per question, in quiz order) together into the results state.
pub fn assemble(quiz: &Quiz, outcomes: &[Outcome]) -> Results {
    let mut results = Results {
        pr_number: quiz.pr_number,
        ..Results::default()
    };
    let mut sum: u64 = 0;
    let mut counted: u64 = 0;
    for (q, outcome) in quiz.questions.iter().zip(outcomes) {
        match outcome {
            Outcome::Scored { score, feedback } => {
                let score = (*score).min(100);
                let correct = if q.kind.is_closed() {
                    score == 100
                } else {
                    score >= OPEN_PASS_SCORE
                };
                results.per_question.push(QuestionResult {
                    question_id: q.id.clone(),
                    correct,
                    score,
                    feedback: feedback.clone(),
                    confidence: None,
                    extra: serde_json::Map::new(),
                });
                sum += u64::from(score);
                counted += 1;
            }
            Outcome::Pending => {
                results.pending.push(q.id.clone());
                counted += 1;
            }
            Outcome::NotCounted { reason } => results.not_counted.push(NotCounted {
                question_id: q.id.clone(),
                reason: reason.clone(),
            }),
        }
    }
    // The mean of at most MAX_QUESTIONS scores of at most 100 fits in u32.
    results.total_score = u32::try_from(sum.checked_div(counted).unwrap_or(0)).unwrap_or(100);
    results
}
