use thiserror::Error;

/// Why a quiz, answers or results document could not be used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum FormatError {
    /// The text is not JSON (or is cut short). Line and column count from 1.
    #[error("line {line}, column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    /// JSON, but not of the expected shape: `at` names the place, such as `question q3`.
    #[error("{at}: {message}")]
    Shape { at: String, message: String },
    #[error("version {found:?} is not supported (this quizz reads version \"1\"); upgrade quizz")]
    Version { found: String },
}

impl FormatError {
    pub(crate) fn shape(at: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Shape {
            at: at.into(),
            message: message.into(),
        }
    }

    /// Moves a JSON position by the lines that came before the JSON in its file.
    #[must_use]
    pub fn shifted(self, lines_before: usize) -> Self {
        match self {
            Self::Json {
                line,
                column,
                message,
            } => Self::Json {
                line: line + lines_before,
                column,
                message,
            },
            other => other,
        }
    }
}

impl From<serde_json::Error> for FormatError {
    fn from(e: serde_json::Error) -> Self {
        // serde_json's message ends with " at line L column C"; keep only the reason.
        let text = e.to_string();
        let message = text
            .rsplit_once(" at line ")
            .map_or(text.as_str(), |(reason, _)| reason)
            .to_string();
        Self::Json {
            line: e.line(),
            column: e.column(),
            message,
        }
    }
}
