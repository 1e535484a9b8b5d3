//! Reading a quiz from where the user pointed: the embedded demo, a file, or stdin.

use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::comment::{CommentError, FoundQuiz, read_quiz};
use crate::quiz::{FormatError, Quiz, validate};
use crate::store::Origin;

/// The seed quiz of the project (PR 7, all four question types), compiled in.
pub const DEMO_QUIZ: &str = include_str!("../assets/demo-quiz.json");

/// A quiz source larger than this is refused: a GitHub comment holds at most 65,536
/// characters, so even a generous local quiz stays far below it.
pub const MAX_SOURCE_BYTES: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuizSource {
    Demo,
    /// A path, or `-` for stdin.
    File(PathBuf),
}

/// A quiz ready to take, with where it came from and what the reader noticed.
#[derive(Debug, Clone)]
pub struct LoadedQuiz {
    pub quiz: Quiz,
    pub origin: Origin,
    pub notes: Vec<String>,
}

/// Unusable input: the command exits with status 2.
///
/// Each message carries its cause (a `cause` field, not `source`): it is shown whole on its
/// own, and the error chain printed by the CLI does not repeat it.
#[derive(Debug, Error)]
pub enum SourceError {
    #[error("{name}: cannot read: {cause}")]
    Read { name: String, cause: std::io::Error },
    #[error(
        "{name}: {size} bytes is more than the {MAX_SOURCE_BYTES}-byte limit for a quiz or answers file"
    )]
    TooLarge { name: String, size: u64 },
    #[error("{name}: not valid UTF-8 (first bad byte at offset {offset})")]
    NotUtf8 { name: String, offset: usize },
    #[error("{name}: {cause}")]
    Comment { name: String, cause: CommentError },
    #[error("{name}: {cause}")]
    Format { name: String, cause: FormatError },
}

impl QuizSource {
    pub fn load(&self) -> Result<LoadedQuiz, SourceError> {
        let (name, text, origin) = match self {
            Self::Demo => ("demo quiz".to_string(), DEMO_QUIZ.to_string(), Origin::Demo),
            Self::File(path) => {
                let text = read_text(path)?;
                let origin = if path.as_os_str() == "-" {
                    Origin::File(PathBuf::from("stdin"))
                } else {
                    Origin::File(std::path::absolute(path).unwrap_or_else(|_| path.clone()))
                };
                (display_name(path), text, origin)
            }
        };
        let FoundQuiz { quiz, notes, .. } =
            read_quiz(&text).map_err(|cause| SourceError::Comment {
                name: name.clone(),
                cause,
            })?;
        validate(&quiz).map_err(|cause| SourceError::Format { name, cause })?;
        Ok(LoadedQuiz {
            quiz,
            origin,
            notes,
        })
    }
}

fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads a UTF-8 text file (or stdin for `-`), refusing oversized input before reading it all.
pub fn read_text(path: &Path) -> Result<String, SourceError> {
    let name = display_name(path);
    let read_err = |cause| SourceError::Read {
        name: name.clone(),
        cause,
    };
    let limit = MAX_SOURCE_BYTES as u64;
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
    } else {
        let file = std::fs::File::open(path).map_err(read_err)?;
        let size = file.metadata().map_err(read_err)?.len();
        if size > limit {
            return Err(SourceError::TooLarge { name, size });
        }
        // one read for the whole file (it grew from 32 bytes, 7 reads for a diagram)
        bytes.reserve(usize::try_from(size).map_or(0, |n| n + 1));
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
    }
    if bytes.len() as u64 > limit {
        return Err(SourceError::TooLarge {
            name,
            size: bytes.len() as u64,
        });
    }
    String::from_utf8(bytes).map_err(|e| SourceError::NotUtf8 {
        name,
        offset: e.utf8_error().valid_up_to(),
    })
}
