//! Grading open answers with an LLM.
//!
//! The backend is [`crate::llm`]'s choice ([`select_grader`]): the Anthropic Messages API
//! or the `claude` CLI, asked through the shared structured-output call ([`LlmGrader`]).
//! Grading brings one prompt builder ([`build_prompt`]), one output schema
//! ([`grade_schema`]) and one validator ([`validate_grade`]); the answer is untrusted data,
//! and `correct` is always computed in code from the score.
//!
//! [`grade_open`] grades all open answers of a quiz concurrently and reports progress as
//! [`GradeEvent`]s; a failed question stays [`Outcome::Pending`](crate::quiz::Outcome) so
//! it can be graded again alone ([`regrade_pending`]).

mod blocking;
mod grader;
mod prompt;
mod run;
mod schema;
mod select;
mod validate;

use std::future::Future;
use std::pin::Pin;

pub use blocking::grade_blocking;
pub use grader::{HttpGrader, LlmGrader};
pub use prompt::{GradePrompt, MAX_ANSWER_CHARS, build_prompt, neutralise_tags};
pub use run::{DEFAULT_CONCURRENCY, GradeEvent, grade_open, keep_previous, regrade_pending};
pub use schema::{SHAPE, TOOL_DESCRIPTION, TOOL_NAME, grade_schema};
pub use select::{ChosenGrader, Selection, select_grader};
// The backend's parts, where grading's callers have always found them.
pub use crate::llm::LlmError as GradeError;
pub use crate::llm::{
    Auth, BackendKind, ClaudeCliConfig, DEFAULT_BASE_URL, DEFAULT_CLI_MODEL, DEFAULT_HTTP_MODEL,
    EnvSnapshot, GRADER_SETUP, HttpConfig, claude_version,
};
pub use validate::{MAX_FEEDBACK_CHARS, validate_grade};

use crate::quiz::OpenGrade;

/// One open answer to grade: the question's prompt, its rubric, and the taker's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeRequest {
    pub question_id: String,
    pub question: String,
    pub rubric: String,
    pub answer: String,
}

/// A boxed future, so that graders can live behind `Arc<dyn Grader>`.
pub type GradeFuture<'a> = Pin<Box<dyn Future<Output = Result<OpenGrade, GradeError>> + Send + 'a>>;

/// Something that grades one open answer against its rubric.
pub trait Grader: Send + Sync {
    /// Grades one answer; the grade is validated (score 0–100, feedback sanitized).
    fn grade<'a>(&'a self, request: &'a GradeRequest) -> GradeFuture<'a>;

    /// A short name for messages, such as `Anthropic Messages API`.
    fn name(&self) -> &'static str;
}
