//! The code a question is about: the anchored lines of a file at the PR's head, with a
//! little context, highlighted, ready for the UI and the line protocol.
//!
//! Files come from the local clone when it has the head commit (no request, works
//! offline), else from GitHub's contents API, and are cached with the quiz. Everything
//! read is untrusted: paths are checked before anything is read, sizes are bounded, and
//! every line is stripped of control sequences before it leaves this module.

pub mod coverage;
pub mod fetch;
pub mod highlight;
pub mod path;

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

pub use coverage::Coverage;
pub use fetch::{CodeContext, Provenance, collect};
pub use highlight::{Token, TokenKind};

use crate::quiz::{Anchor, Quiz};
use crate::text::sanitize_line;

/// Lines shown before and after the anchored ones.
pub const CONTEXT_LINES: u64 = 3;
/// A file larger than this is not read (its size is asked first).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Anchored lines shown at most; a longer anchor is cut with a note.
pub const MAX_SNIPPET_LINES: u64 = 200;

/// A file's text as read for the snippets, or why it could not be used. Kept in the cache,
/// so an offline take shows the same thing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileText {
    Text(String),
    /// A one-line reason, shown in place of the snippet.
    Unusable(String),
}

/// One question's code: the lines, or a one-line note saying why there are none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    Snippet(Snippet),
    Note { path: String, note: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// Repository-relative, safe to print.
    pub path: String,
    /// The anchored lines (1-based, inclusive), within the file.
    pub marked: RangeInclusive<u64>,
    /// The number of the first line in `lines`.
    pub first: u64,
    /// Highlighted lines, control sequences stripped, tabs expanded.
    pub lines: Vec<Vec<Token>>,
    /// The file on GitHub at the head commit, with `#L41-L47`; `None` for the demo or a
    /// quiz with no pull request.
    pub url: Option<String>,
    /// Where the text was read: shown dim beside the path.
    pub from: Provenance,
    /// The anchor ran past what is shown (a very long range): said under the lines.
    pub cut: bool,
}

impl Code {
    pub fn path(&self) -> &str {
        match self {
            Self::Snippet(s) => &s.path,
            Self::Note { path, .. } => path,
        }
    }
}

/// Every anchored question's code, by question id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeBook {
    pub by_question: BTreeMap<String, Code>,
}

impl CodeBook {
    pub fn get(&self, question_id: &str) -> Option<&Code> {
        self.by_question.get(question_id)
    }

    pub fn is_empty(&self) -> bool {
        self.by_question.is_empty()
    }

    /// The book for `quiz` from the files read (`files`: path as written in the anchor →
    /// its text or why not).
    pub fn build(
        quiz: &Quiz,
        files: &BTreeMap<String, FileText>,
        url_base: Option<&str>,
        from: &Provenance,
    ) -> Self {
        let mut by_question = BTreeMap::new();
        for q in &quiz.questions {
            let Some(anchor) = &q.anchor else { continue };
            let shown = sanitize_line(&anchor.path);
            let code = match files.get(&anchor.path) {
                Some(FileText::Text(text)) => snippet(text, anchor, url_base, from.clone())
                    .map_or_else(
                        |note| Code::Note {
                            path: shown.clone(),
                            note,
                        },
                        Code::Snippet,
                    ),
                Some(FileText::Unusable(note)) => Code::Note {
                    path: shown.clone(),
                    note: sanitize_line(note),
                },
                None => Code::Note {
                    path: shown.clone(),
                    note: "not available: no copy of the pull request's code here".into(),
                },
            };
            by_question.insert(q.id.clone(), code);
        }
        Self { by_question }
    }
}

/// The anchored lines of `text` with context, or why they cannot be shown.
pub fn snippet(
    text: &str,
    anchor: &Anchor,
    url_base: Option<&str>,
    from: Provenance,
) -> Result<Snippet, String> {
    let total = u64::try_from(text.lines().count()).unwrap_or(u64::MAX);
    let start = anchor.start_line.unwrap_or(1).max(1);
    let end = anchor.end_line.unwrap_or(start).max(start);
    if start > total {
        return Err(format!(
            "line {start} is past the end of the file ({} at this commit)",
            crate::text::plural(
                usize::try_from(total).unwrap_or(usize::MAX),
                "line",
                "lines"
            )
        ));
    }
    let end_in_file = end.min(total);
    let last_marked = end_in_file.min(start + MAX_SNIPPET_LINES - 1);
    let cut = last_marked < end_in_file;
    let first = start.saturating_sub(CONTEXT_LINES).max(1);
    let last = (last_marked + CONTEXT_LINES).min(total);
    let skip = usize::try_from(first - 1).unwrap_or(usize::MAX);
    let take = usize::try_from(last - first + 1).unwrap_or(0);
    let raw: Vec<&str> = text.lines().skip(skip).take(take).collect();
    let lines = highlight::highlight(&anchor.path, &raw);
    let path = sanitize_line(&anchor.path);
    let url = url_base.map(|base| {
        let range = if start == end {
            format!("#L{start}")
        } else {
            format!("#L{start}-L{end}")
        };
        format!("{base}/{}{range}", path::url_path(&anchor.path))
    });
    Ok(Snippet {
        path,
        marked: start..=last_marked,
        first,
        lines,
        url,
        from,
        cut,
    })
}

impl Snippet {
    /// `path:41-47`, as the header names the lines.
    pub fn title(&self) -> String {
        let (a, b) = (self.marked.start(), self.marked.end());
        if a == b {
            format!("{}:{a}", self.path)
        } else {
            format!("{}:{a}-{b}", self.path)
        }
    }

    /// Each line's number and whether it is anchored.
    pub fn numbered(&self) -> impl Iterator<Item = (u64, bool, &[Token])> {
        (self.first..)
            .zip(&self.lines)
            .map(|(n, tokens)| (n, self.marked.contains(&n), tokens.as_slice()))
    }

    /// Columns the widest line number takes.
    pub fn number_width(&self) -> usize {
        let last = self.first + u64::try_from(self.lines.len()).unwrap_or(0);
        last.max(1).to_string().len()
    }
}

#[cfg(test)]
mod tests;
