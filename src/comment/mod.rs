//! The bot's comment format: find the quiz state in markdown, render and read results.
//!
//! Anchoring is on the `<details>` block whose summary names the state, never on "the
//! first json fence": a prompt can carry its own json fence, and a copy taken from the
//! rendered page has neither the hidden marker nor the fences.

mod escape;
mod locate;
mod quiz_comment;
mod results_comment;
mod results_parse;

pub use locate::{Marker, QUIZ_SUMMARY, RESULTS_SUMMARY, StateBlock, locate_state};
pub use quiz_comment::{render_quiz_comment, render_written_quiz_comment};
pub use results_comment::{GITHUB_COMMENT_LIMIT, render_results_comment, results_summary_markdown};
pub use results_parse::{ParsedResults, parse_results_comment};

use crate::quiz::{FormatError, Quiz, quiz_from_value};
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum CommentError {
    #[error("the text is empty")]
    Empty,
    #[error("this is a results comment, not a quiz")]
    ResultsNotQuiz,
    #[error(
        "no quiz found: expected quiz JSON or a comment with a `<details>` block titled \"{QUIZ_SUMMARY}\""
    )]
    NoQuiz,
    #[error(
        "no results found: expected a `<details>` block titled \"{RESULTS_SUMMARY}\" or a \"## Quiz results\" list"
    )]
    NoResults,
    #[error("the \"{0}\" block holds no JSON")]
    EmptyState(&'static str),
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error(
        "the results state alone is {json_chars} characters; GitHub takes at most {GITHUB_COMMENT_LIMIT} in a comment"
    )]
    TooLarge { json_chars: usize },
}

/// A quiz read from a comment or from bare JSON, with what the reader noticed.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundQuiz {
    pub quiz: Quiz,
    pub marker: Option<Marker>,
    /// Things worth telling the user ("3 quiz blocks found; took the last").
    pub notes: Vec<String>,
}

/// Reads a quiz from bare JSON or from a comment (bot markdown or a rendered-page copy).
pub fn read_quiz(text: &str) -> Result<FoundQuiz, CommentError> {
    let trimmed = text.trim_start_matches('\u{feff}');
    if trimmed.trim().is_empty() {
        return Err(CommentError::Empty);
    }
    if trimmed.trim_start().starts_with('{') {
        let quiz = crate::quiz::parse_quiz(trimmed)?;
        return Ok(FoundQuiz {
            quiz,
            marker: None,
            notes: Vec::new(),
        });
    }
    let Some(block) = locate_state(trimmed, QUIZ_SUMMARY) else {
        if locate_state(trimmed, RESULTS_SUMMARY).is_some() || trimmed.contains("## Quiz results") {
            return Err(CommentError::ResultsNotQuiz);
        }
        return Err(CommentError::NoQuiz);
    };
    let value = block.parse_json().map_err(CommentError::from)?;
    let quiz = quiz_from_value(value)?;
    let mut notes = Vec::new();
    if block.blocks > 1 {
        notes.push(format!(
            "{} quiz blocks found; took the last one",
            block.blocks
        ));
    }
    if block.marker.is_none() {
        notes.push(
            "no quiz marker (a copy of the rendered page?); read the state block".to_string(),
        );
    }
    Ok(FoundQuiz {
        quiz,
        marker: block.marker,
        notes,
    })
}

#[cfg(test)]
mod tests;
