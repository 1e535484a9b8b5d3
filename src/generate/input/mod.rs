//! The change a quiz is written about, prepared for a model: the changed files with their
//! +/− counts, each file's diff, the whole text of changed files where it fits, and what
//! was left out and why. The same for a local branch (`git`) and for a PR's files (the
//! shape GitHub's `/pulls/{n}/files` returns). Deterministic: the same change gives the
//! same input and the same digest.

mod attributes;
mod budget;
mod exclude;
mod git;
mod pr;
mod raw;
#[cfg(test)]
mod tests;

use std::fmt;

pub use attributes::Marked;
pub use budget::HeadText;
pub use git::{
    LocalOptions, default_base, has_commits, prepare_commits, prepare_local, repository,
};
pub use pr::{PrFile, prepare_pr};
pub use raw::RawFile;

/// What a model is given of a change by default, in characters of diffs and file texts:
/// what peers found a model handles well in one prompt (the CLI can read more itself).
pub const DEFAULT_BUDGET_CHARS: usize = 100_000;

/// A file larger than this is never given whole (its diff still is).
pub const MAX_TEXT_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileStatus {
    Added,
    Modified,
    Deleted,
    Renamed,
    Copied,
}

impl FileStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Modified => "modified",
            Self::Deleted => "deleted",
            Self::Renamed => "renamed",
            Self::Copied => "copied",
        }
    }
}

/// One changed file as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    /// The path before a rename or copy.
    pub old_path: Option<String>,
    pub status: FileStatus,
    pub additions: u64,
    pub deletions: u64,
    /// The file's hunks (from the first `@@`); `None` when the file was left out.
    pub patch: Option<String>,
    /// The whole file at the head, when it fit the budget.
    pub text: Option<String>,
    /// Lines of the file at the head, when known (anchors must fall inside them).
    pub lines: Option<u64>,
}

/// Why a changed file is not given to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    Lockfile,
    Minified,
    SourceMap,
    Binary,
    /// Vendored: by its path, or `linguist-vendored` in `.gitattributes`.
    Vendored {
        by_attribute: bool,
    },
    /// Generated: by its name, or `linguist-generated` in `.gitattributes`.
    Generated {
        by_attribute: bool,
    },
    /// The diff came without hunks (GitHub sends none for a very large file).
    NoDiff,
    /// Dropped whole to keep within the budget: its diff was this many characters.
    OverBudget {
        chars: usize,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Lockfile => f.write_str("a lockfile"),
            Self::Minified => f.write_str("minified"),
            Self::SourceMap => f.write_str("a source map"),
            Self::Binary => f.write_str("binary"),
            Self::Vendored { by_attribute: true } => {
                f.write_str("vendored (linguist-vendored in .gitattributes)")
            }
            Self::Vendored {
                by_attribute: false,
            } => f.write_str("vendored"),
            Self::Generated { by_attribute: true } => {
                f.write_str("generated (linguist-generated in .gitattributes)")
            }
            Self::Generated {
                by_attribute: false,
            } => f.write_str("generated"),
            Self::NoDiff => f.write_str("no diff available (too large)"),
            Self::OverBudget { chars } => {
                write!(f, "over the budget: a diff of {chars} characters")
            }
        }
    }
}

/// A changed file the model is not given, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub path: String,
    pub reason: Reason,
}

/// Changes not committed yet, for a local branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Uncommitted {
    /// None, or not a local input.
    None,
    /// Part of the input (this many files).
    Included { files: usize },
    /// There are some (this many files), and they are not part of the input.
    LeftOut { files: usize },
}

/// The change, ready for the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// Every changed file, in path order; a left-out one has no patch and no text.
    pub files: Vec<FileChange>,
    /// What was left out and why, in path order.
    pub left_out: Vec<LeftOut>,
    pub uncommitted: Uncommitted,
    /// The budget the diffs and texts were kept within, in characters.
    pub budget: usize,
    /// Characters of diffs and texts given.
    pub chars: usize,
    /// Files whose whole text did not fit (their diff is given).
    pub texts_left_out: usize,
    /// SHA-256 of the whole change (hex), before anything was left out: the cache key.
    pub digest: String,
}

impl Input {
    pub fn file(&self, path: &str) -> Option<&FileChange> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Lines added and deleted over every changed file.
    pub fn changed_lines(&self) -> u64 {
        self.files.iter().map(|f| f.additions + f.deletions).sum()
    }

    /// The files given to the model.
    pub fn given(&self) -> impl Iterator<Item = &FileChange> {
        self.files.iter().filter(|f| f.patch.is_some())
    }

    /// One line for a user: "12 files, 340 lines changed; 2 left out: Cargo.lock (a
    /// lockfile), logo.png (binary)".
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{}, {} changed",
            crate::text::plural(self.files.len(), "file", "files"),
            crate::text::plural(
                usize::try_from(self.changed_lines()).unwrap_or(usize::MAX),
                "line",
                "lines"
            )
        );
        if !self.left_out.is_empty() {
            let named: Vec<String> = self
                .left_out
                .iter()
                .map(|l| format!("{} ({})", l.path, l.reason))
                .collect();
            line.push_str(&format!(
                "; {} left out: {}",
                self.left_out.len(),
                named.join(", ")
            ));
        }
        match self.uncommitted {
            Uncommitted::None => {}
            Uncommitted::Included { files } => line.push_str(&format!(
                "; uncommitted changes included ({})",
                crate::text::plural(files, "file", "files")
            )),
            Uncommitted::LeftOut { files } => line.push_str(&format!(
                "; uncommitted changes left out ({}; --include-uncommitted adds them)",
                crate::text::plural(files, "file", "files")
            )),
        }
        line
    }
}

/// Why a local change could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{dir}: not inside a git repository")]
    NotARepo { dir: String },
    #[error(
        "no base branch to compare with: the upstream has no default branch (refs/remotes/*/HEAD) and there is no main or master; name one: --local BASE"
    )]
    NoBase,
    #[error("{base}: no such branch or commit here")]
    UnknownBase { base: String },
    #[error("{base} and HEAD have no commit in common")]
    NoMergeBase { base: String },
    #[error("git {args} failed: {message}")]
    Git { args: String, message: String },
    #[error("git could not be run: {0}")]
    Spawn(std::io::Error),
}
