//! quizz: take the quiz a bot posted on a pull request, in the terminal.
//!
//! The quiz model and scoring (`quiz`), the comment format (`comment`) and local state
//! (`store`) know nothing of the terminal; the line protocol (`plain`) and the full-screen
//! UI (`tui`) are front ends over the same `session`.

pub mod children;
pub mod cli;
pub mod code;
pub mod comment;
pub mod config;
pub mod generate;
pub mod github;
pub mod grade;
pub mod llm;
pub mod logging;
pub use mermaid_terminal as mermaid;
pub mod plain;
pub mod quiz;
pub mod redact;
pub mod session;
pub mod signals;
pub mod source;
pub mod store;
pub mod text;
pub mod tui;
