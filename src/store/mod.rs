//! Local state under the XDG data dir: attempts (answers saved as they change).
//!
//! Every write is atomic (temp file, fsync, rename, fsync of the folder), so a killed
//! process leaves the previous or the new file, never half of one.

mod atomic;
mod attempt;
mod cache;
mod list;
mod lock;
mod origin;
mod outbox;
mod private;

pub use atomic::{write_atomic, write_json_atomic, write_user_file};
pub(crate) use attempt::now;
pub use attempt::{Attempt, AttemptStamp, LoadedAttempt};
pub use list::SavedAttempt;
pub use lock::{AttemptLock, Locked, Owner};
pub use origin::Origin;
pub use outbox::{OutboxEntry, Waiting};
pub use private::{create_private_dir, make_private, open_lock_file, private_file_options};

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Each error says its cause in its own message and does not chain it (`source()` is
/// `None`), so an error printed with `{:#}` says the cause once.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("no home folder to keep answers in; set XDG_DATA_HOME")]
    NoDataDir,
    #[error("cannot write {path}: {cause}")]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("cannot save {path}: the data could not be turned into JSON ({cause})")]
    Serialize {
        path: PathBuf,
        cause: serde_json::Error,
    },
    #[error("this quiz is open in another quizz ({owner}): answers here are not saved")]
    Busy { owner: Owner },
    #[error("cannot read {path}: {cause}")]
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("not kept: {what}")]
    Refused { what: String },
}

/// The root of quizz's saved data.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// `$XDG_DATA_HOME/quizz`, or the platform's data dir (`~/.local/share/quizz`).
    pub fn open_default() -> Result<Self, StoreError> {
        let base = directories::BaseDirs::new().ok_or(StoreError::NoDataDir)?;
        Ok(Self::at(base.data_dir().join("quizz")))
    }

    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A private folder (mode 0700) for files quizz hands to other programs, such as the
    /// answer an external editor works on.
    pub fn scratch_dir(&self) -> Result<PathBuf, StoreError> {
        let dir = self.root.join("editing");
        let err = |cause| StoreError::Write {
            path: dir.clone(),
            cause,
        };
        create_private_dir(&dir).map_err(err)?;
        Ok(dir)
    }

    /// One file per (origin, quiz digest): a changed quiz starts a fresh attempt.
    /// Where the answers to a quiz still being written are saved (`writing` names the
    /// writing, [`crate::generate::cache::QuizKey::writing_name`]), until the quiz is whole
    /// and they move to its [`Store::attempt_path`].
    pub fn writing_attempt_path(&self, origin: &Origin, writing: &str) -> PathBuf {
        let safe: String = writing
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        self.root
            .join("attempts")
            .join(origin.key_path())
            .join(format!("writing-{safe}.json"))
    }

    pub fn attempt_path(&self, origin: &Origin, quiz_digest: &str) -> PathBuf {
        let short = quiz_digest.get(..16).unwrap_or(quiz_digest);
        self.root
            .join("attempts")
            .join(origin.key_path())
            .join(format!("{short}.json"))
    }
}
