//! The quiz wire model, its validation, answers, results and local scoring.

mod answers;
mod choice;
mod error;
mod grading;
mod model;
mod results;
mod validate;
mod wire;

pub use answers::Answers;
pub use error::FormatError;
pub use grading::{OpenGrade, Outcome, assemble, grade_closed, grade_question, parse_bool};
pub use model::{Anchor, MermaidOption, Question, QuestionKind, Quiz, WIRE_VERSION};
pub use results::{Calibration, NotCounted, OPEN_PASS_SCORE, QuestionResult, Results};
pub use validate::{MAX_QUESTIONS, validate};
pub use wire::{parse_quiz, quiz_from_value, quiz_to_value, to_pretty_json};

impl Quiz {
    /// The normalized quiz state as pretty JSON (unknown fields kept).
    pub fn to_pretty_json(&self) -> String {
        to_pretty_json(&quiz_to_value(self))
    }

    /// A stable digest of the normalized quiz: a changed quiz never reuses old answers.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        // `Value`'s Display is its compact JSON and cannot fail (keys are always strings).
        let canonical = quiz_to_value(self).to_string();
        let hash = Sha256::digest(canonical.as_bytes());
        crate::text::hex(&hash)
    }
}

#[cfg(test)]
mod tests;
