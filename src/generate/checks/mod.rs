//! The checks only quizz can make, each failure a sentence the model (or a bot's author)
//! can act on. The quality checks (`check_quality`) apply to any quiz; a generated quiz is
//! also held to the change it was written from (`check_generated`: anchors).

mod anchors;

pub use anchors::check_anchor;
mod diagrams;
mod structure;
mod tells;
mod words;

use super::finding::Finding;
use super::input::Input;
use crate::quiz::{Question, Quiz};

/// Fewest and most questions a generated quiz may have.
pub const MIN_QUESTIONS: usize = 2;
pub const MAX_QUESTIONS: usize = 10;
/// Columns a diagram option must be drawn in: an 80-column terminal's body.
pub const DIAGRAM_WIDTH: usize = 75;

/// Every quality check: ids, counts, options, rubrics, explanations, diagrams drawn at
/// [`DIAGRAM_WIDTH`] and alike, and the tells that give an answer away.
/// Findings about the whole quiz come first, then each question's in quiz order.
pub fn check_quality(quiz: &Quiz) -> Vec<Finding> {
    let mut findings = structure::check(quiz);
    for q in &quiz.questions {
        findings.extend(diagrams::check(q));
        findings.extend(tells::check(q));
    }
    in_quiz_order(quiz, &mut findings);
    findings
}

fn in_quiz_order(quiz: &Quiz, findings: &mut [Finding]) {
    let position = |f: &Finding| {
        f.question.as_deref().map_or(0, |id| {
            quiz.questions
                .iter()
                .position(|q| q.id == id)
                .map_or(usize::MAX, |i| i + 1)
        })
    };
    findings.sort_by_key(position);
}

/// The quality checks, and the anchors against the change the quiz was written from.
pub fn check_generated(quiz: &Quiz, input: &Input) -> Vec<Finding> {
    let mut findings = check_quality(quiz);
    for q in &quiz.questions {
        findings.extend(anchors::check(q, input));
    }
    in_quiz_order(quiz, &mut findings);
    findings
}

/// One question on its own, as [`check_generated`] holds each question: its shape, its
/// diagrams, its tells and its anchor (what a drafter of one question is held to; the
/// count and the ids are the whole quiz's).
pub fn check_question(q: &Question, input: &Input) -> Vec<Finding> {
    let mut findings = structure::check_one(q);
    findings.extend(diagrams::check(q));
    findings.extend(tells::check(q));
    findings.extend(anchors::check(q, input));
    findings
}
