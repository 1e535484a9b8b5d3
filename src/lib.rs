//! quizz: take the quiz a bot posted on a pull request, in the terminal.
//!
//! The library holds everything but the terminal: the quiz model and scoring (`quiz`),
//! the comment format (`comment`), local state (`store`), the line protocol (`plain`).

pub mod cli;
pub mod comment;
pub mod github;
pub mod plain;
pub mod quiz;
pub mod session;
pub mod source;
pub mod store;
pub mod text;
