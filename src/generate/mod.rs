//! Writing a quiz from a change: the change prepared for a model (`input`), the schema the
//! model answers in (`schema`) and its translation into a quiz (`translate`), the checks
//! only quizz can make (`checks`), the shuffle that keeps the answer from giving itself
//! away (`shuffle`), and the prompt (`prompt`).
//!
//! `run` asks the chosen backend for the quiz in one call, `pipeline` plans it and has each
//! question written in parallel, and `cache` keeps what was written; the rest
//! talks to no model: it makes the change and the model's answer safe and checkable.

mod accept;
pub mod cache;
pub mod checks;
mod finding;
pub mod growing;
pub mod input;
pub mod pipeline;
pub mod prompt;
mod run;
pub mod schema;
pub mod shuffle;
pub mod translate;

pub use accept::accept;
pub use checks::{check_generated, check_quality};
pub use finding::{Finding, listed};
pub use input::{
    DEFAULT_BUDGET_CHARS, FileChange, FileStatus, Input, InputError, LeftOut, LocalOptions, Marked,
    PrFile, Reason, Uncommitted, has_commits, prepare_commits, prepare_local, prepare_pr,
    repository,
};
pub use pipeline::write_quiz_pipelined;
pub use prompt::{Context, PROMPT_VERSION, PrText, user_message};
pub use run::{
    Cancel, GenerateError, Generator, Stage, select_generator, write_quiz, write_quiz_single,
};
pub use schema::{Draft, TOOL_NAME, parse_draft, submit_quiz_schema};
pub use shuffle::shuffle;
pub use translate::to_quiz;
