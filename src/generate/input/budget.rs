//! From raw changed files to the input: leave out what teaches nothing, then keep within
//! the budget by dropping whole diffs, largest first, and adding whole file texts,
//! smallest first, while they fit.

use super::exclude::{by_name, looks_binary, looks_minified};
use super::raw::{RawFile, digest, line_count};
use super::{FileChange, FileStatus, Input, LeftOut, MAX_TEXT_BYTES, Marked, Reason, Uncommitted};

/// Where a file's text at the head comes from (the work tree, a commit, GitHub).
pub type HeadText<'a> = dyn FnMut(&str) -> Option<Vec<u8>> + 'a;

pub fn assemble(
    mut raw: Vec<RawFile>,
    marked: &Marked,
    head: &mut HeadText<'_>,
    budget: usize,
    uncommitted: Uncommitted,
) -> Input {
    let digest = digest(&raw);
    raw.sort_by(|a, b| a.path.cmp(&b.path));
    let mut files = Vec::with_capacity(raw.len());
    let mut reasons: Vec<Option<Reason>> = Vec::with_capacity(raw.len());
    for r in raw {
        let mut reason = left_out_reason(&r, marked);
        let mut text = None;
        if reason.is_none() && r.status != FileStatus::Deleted {
            match head(&r.path) {
                Some(bytes) if looks_binary(&bytes) => reason = Some(Reason::Binary),
                Some(bytes) => text = String::from_utf8(bytes).ok(),
                None => {}
            }
        }
        let patch = if reason.is_some() {
            None
        } else {
            Some(r.patch.unwrap_or_default())
        };
        files.push(FileChange {
            lines: text.as_deref().map(line_count),
            path: r.path,
            old_path: r.old_path,
            status: r.status,
            additions: r.additions,
            deletions: r.deletions,
            patch,
            text,
        });
        reasons.push(reason);
    }
    let mut chars = keep_within(&mut files, &mut reasons, budget);
    let texts_left_out = add_texts(&mut files, &mut chars, budget);
    let left_out = files
        .iter()
        .zip(reasons)
        .filter_map(|(f, r)| {
            r.map(|reason| LeftOut {
                path: f.path.clone(),
                reason,
            })
        })
        .collect();
    Input {
        files,
        left_out,
        uncommitted,
        budget,
        chars,
        texts_left_out,
        digest,
    }
}

fn left_out_reason(r: &RawFile, marked: &Marked) -> Option<Reason> {
    if let Some(reason) = marked.get(&r.path) {
        return Some(reason.clone());
    }
    if let Some(reason) = by_name(&r.path) {
        return Some(reason);
    }
    if r.binary {
        return Some(Reason::Binary);
    }
    match &r.patch {
        None if r.additions + r.deletions > 0 => Some(Reason::NoDiff),
        Some(patch) if looks_minified(patch) => Some(Reason::Minified),
        _ => None,
    }
}

/// Drops whole diffs, largest first (ties by path), until the rest fit; the texts are
/// dropped with them. Returns the characters kept.
fn keep_within(files: &mut [FileChange], reasons: &mut [Option<Reason>], budget: usize) -> usize {
    let sizes: Vec<usize> = files
        .iter()
        .map(|f| f.patch.as_deref().map_or(0, |p| p.chars().count()))
        .collect();
    let mut total: usize = sizes.iter().sum();
    let mut order: Vec<usize> = (0..files.len()).filter(|&i| reasons[i].is_none()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    for i in order {
        if total <= budget {
            break;
        }
        total -= sizes[i];
        reasons[i] = Some(Reason::OverBudget { chars: sizes[i] });
        let f = &mut files[i];
        f.patch = None;
        f.text = None;
        f.lines = None;
    }
    total
}

/// Keeps whole texts, smallest first (ties by path), while they fit; returns how many
/// given files lost their text.
fn add_texts(files: &mut [FileChange], chars: &mut usize, budget: usize) -> usize {
    let mut order: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.text.as_deref().map(|t| (t.chars().count(), i)))
        .collect();
    order.sort_unstable();
    let mut dropped = 0;
    for (size, i) in order {
        let fits = *chars + size <= budget
            && files[i]
                .text
                .as_ref()
                .is_some_and(|t| t.len() <= MAX_TEXT_BYTES);
        if fits {
            *chars += size;
        } else {
            files[i].text = None;
            dropped += 1;
        }
    }
    dropped
}
