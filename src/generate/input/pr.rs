//! A pull request's changed files, in the shape GitHub's `/pulls/{n}/files` returns them
//! (fetching them is the caller's business).

use serde::{Deserialize, Serialize};

use super::budget::{HeadText, assemble};
use super::raw::RawFile;
use super::{FileStatus, Input, Marked, Uncommitted};

/// One entry of `/pulls/{n}/files`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrFile {
    pub filename: String,
    /// `added`, `removed`, `modified`, `renamed`, `copied`, `changed`, `unchanged`
    pub status: String,
    #[serde(default)]
    pub additions: u64,
    #[serde(default)]
    pub deletions: u64,
    /// The hunks; GitHub leaves it out for binaries and very large diffs.
    #[serde(default)]
    pub patch: Option<String>,
    #[serde(default)]
    pub previous_filename: Option<String>,
    /// The blob's sha at the head.
    #[serde(default)]
    pub sha: Option<String>,
}

impl PrFile {
    fn status(&self) -> FileStatus {
        match self.status.as_str() {
            "added" => FileStatus::Added,
            "removed" => FileStatus::Deleted,
            "renamed" => FileStatus::Renamed,
            "copied" => FileStatus::Copied,
            _ => FileStatus::Modified,
        }
    }

    fn raw(&self) -> RawFile {
        RawFile {
            path: self.filename.clone(),
            old_path: self.previous_filename.clone(),
            status: self.status(),
            additions: self.additions,
            deletions: self.deletions,
            patch: self.patch.clone(),
            binary: false,
            object: self.sha.clone(),
        }
    }
}

/// The input for a PR: its files, the paths its attributes mark, and where the texts at
/// its head come from (`None` for a file that cannot be read: its diff is still given).
pub fn prepare_pr(
    files: &[PrFile],
    marked: &Marked,
    head: &mut HeadText<'_>,
    budget: usize,
) -> Input {
    let raw = files
        .iter()
        .filter(|f| f.status != "unchanged")
        .map(PrFile::raw)
        .collect();
    assemble(raw, marked, head, budget, Uncommitted::None)
}
