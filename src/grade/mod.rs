//! Grading open answers with an LLM.
//!
//! The backend is chosen from the environment ([`select_grader`]): the Anthropic Messages
//! API over HTTPS ([`HttpGrader`]), or the `claude` CLI as a subprocess
//! ([`ClaudeCliGrader`]). Every backend shares one prompt builder ([`build_prompt`]), one
//! output schema ([`grade_schema`]) and one validator ([`validate_grade`]); the answer is
//! untrusted data, and `correct` is always computed in code from the score.
//!
//! [`grade_open`] grades all open answers of a quiz concurrently and reports progress as
//! [`GradeEvent`]s; a failed question stays [`Outcome::Pending`](crate::quiz::Outcome) so
//! it can be graded again alone ([`regrade_pending`]).

mod blocking;
mod claude_cli;
mod error;
mod http;
mod prompt;
mod run;
mod schema;
mod select;
mod validate;

use std::future::Future;
use std::pin::Pin;

pub use blocking::grade_blocking;
pub use claude_cli::{ClaudeCliConfig, ClaudeCliGrader, claude_version};
pub use error::GradeError;
pub use http::{Auth, HttpConfig, HttpGrader};
pub use prompt::{GradePrompt, MAX_ANSWER_CHARS, build_prompt, neutralise_tags};
pub use run::{DEFAULT_CONCURRENCY, GradeEvent, grade_open, keep_previous, regrade_pending};
pub use schema::{TOOL_NAME, grade_schema};
pub use select::{
    BackendKind, DEFAULT_BASE_URL, DEFAULT_CLI_MODEL, DEFAULT_HTTP_MODEL, EnvSnapshot,
    GRADER_SETUP, Selection, select_grader,
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
