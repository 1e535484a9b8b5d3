//! A changed file as read from git or GitHub, before anything is left out.

use sha2::{Digest, Sha256};

use super::FileStatus;

/// One changed file as its source describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFile {
    pub path: String,
    pub old_path: Option<String>,
    pub status: FileStatus,
    pub additions: u64,
    pub deletions: u64,
    /// The hunks, from the first `@@` line; `None` when the source gave none.
    pub patch: Option<String>,
    /// The source said the file is binary.
    pub binary: bool,
    /// What identifies the content when the patch does not (blob ids, GitHub's sha).
    pub object: Option<String>,
}

/// SHA-256 (hex) of the whole change, in path order, each field ended by a NUL: the same
/// change always gives the same digest, and any change to a path, a status, a hunk or a
/// binary's content gives another.
pub fn digest(files: &[RawFile]) -> String {
    let mut sorted: Vec<&RawFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut hash = Sha256::new();
    for f in sorted {
        for field in [
            f.path.as_str(),
            f.old_path.as_deref().unwrap_or(""),
            f.status.as_str(),
            f.patch.as_deref().unwrap_or(""),
            f.object.as_deref().unwrap_or(""),
            if f.binary { "binary" } else { "" },
        ] {
            hash.update(field.as_bytes());
            hash.update([0]);
        }
    }
    crate::text::hex(&hash.finalize())
}

/// The hunks of a git patch chunk: from its first `@@` line (the `diff --git`, `index`
/// and `---`/`+++` lines say what the file list already says).
pub fn hunks(chunk: &str) -> Option<&str> {
    if chunk.starts_with("@@") {
        return Some(chunk);
    }
    chunk.find("\n@@").map(|at| &chunk[at + 1..])
}

/// Lines in a text, as an editor numbers them (a last line without a newline counts).
pub fn line_count(text: &str) -> u64 {
    let n = text.lines().count();
    u64::try_from(n).unwrap_or(u64::MAX)
}
