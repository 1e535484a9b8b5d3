//! Checks that make a parsed quiz takeable; each error names the question.

use std::collections::HashSet;

use super::error::FormatError;
use super::model::{QuestionKind, Quiz};

/// Most questions a quiz may carry; a bot writes a handful, so more is a broken producer.
pub const MAX_QUESTIONS: usize = 1000;

pub fn validate(quiz: &Quiz) -> Result<(), FormatError> {
    if quiz.questions.is_empty() {
        return Err(FormatError::shape("quiz", "it has no questions"));
    }
    if quiz.questions.len() > MAX_QUESTIONS {
        return Err(FormatError::shape(
            "quiz",
            format!(
                "{} questions is more than the {MAX_QUESTIONS} a quiz may have",
                quiz.questions.len()
            ),
        ));
    }
    let mut seen = HashSet::new();
    for q in &quiz.questions {
        let at = format!("question {:?}", q.id);
        if q.id.trim().is_empty() {
            return Err(FormatError::shape(at, "the id is empty"));
        }
        if !seen.insert(q.id.as_str()) {
            return Err(FormatError::shape(
                at,
                "the id is used by more than one question",
            ));
        }
        match &q.kind {
            QuestionKind::Mcq { options, answer } => {
                if options.is_empty() {
                    return Err(FormatError::shape(at, "mcq has no options"));
                }
                if !options.contains(answer) {
                    return Err(FormatError::shape(
                        at,
                        format!("the answer {answer:?} is not one of the options"),
                    ));
                }
            }
            QuestionKind::Mermaid { options, answer } => {
                if options.is_empty() {
                    return Err(FormatError::shape(at, "mermaid question has no options"));
                }
                if !options.iter().any(|o| &o.label == answer) {
                    let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
                    return Err(FormatError::shape(
                        at,
                        format!(
                            "the answer {answer:?} is not a label (labels: {})",
                            labels.join(", ")
                        ),
                    ));
                }
            }
            QuestionKind::TrueFalse { .. }
            | QuestionKind::Open { .. }
            | QuestionKind::Unsupported { .. } => {}
        }
    }
    Ok(())
}
