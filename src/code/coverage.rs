//! Which of the PR's changed files the quiz probes: an anchor matches a changed file by
//! its exact path, else by a repository-relative suffix, else by its base name (the
//! original tool's order).

use crate::quiz::Quiz;
use crate::text::sanitize_line;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// Every changed file (safe to print), with the numbers (1-based) of the questions that
    /// probe it, in the PR's order.
    pub files: Vec<(String, Vec<usize>)>,
}

impl Coverage {
    pub fn of(quiz: &Quiz, changed: &[String]) -> Self {
        let mut files: Vec<(String, Vec<usize>)> = changed
            .iter()
            .map(|f| (sanitize_line(f), Vec::new()))
            .collect();
        for (n, q) in quiz.questions.iter().enumerate() {
            let Some(anchor) = &q.anchor else { continue };
            if let Some(i) = matching(&anchor.path, changed) {
                files[i].1.push(n + 1);
            }
        }
        Self { files }
    }

    pub fn covered(&self) -> usize {
        self.files.iter().filter(|(_, qs)| !qs.is_empty()).count()
    }

    /// `Covers 3 of 5 changed files`.
    pub fn line(&self) -> String {
        format!(
            "Covers {} of {} changed {}",
            self.covered(),
            self.files.len(),
            if self.files.len() == 1 {
                "file"
            } else {
                "files"
            }
        )
    }
}

/// The changed file an anchor path names, if any.
fn matching(anchor: &str, changed: &[String]) -> Option<usize> {
    let anchor = anchor.trim_start_matches("./");
    if anchor.is_empty() {
        return None;
    }
    if let Some(i) = changed.iter().position(|f| f == anchor) {
        return Some(i);
    }
    let suffix = |long: &str, short: &str| {
        long.len() > short.len()
            && long.ends_with(short)
            && long.as_bytes()[long.len() - short.len() - 1] == b'/'
    };
    if let Some(i) = changed
        .iter()
        .position(|f| suffix(f, anchor) || suffix(anchor, f))
    {
        return Some(i);
    }
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let name = base(anchor);
    changed.iter().position(|f| base(f) == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_then_suffix_then_base_name() {
        let changed: Vec<String> = [
            "src/app/generate.py",
            "README.md",
            "lib/util.py",
            "x/util.py",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(matching("src/app/generate.py", &changed), Some(0));
        assert_eq!(matching("app/generate.py", &changed), Some(0));
        assert_eq!(matching("repo/src/app/generate.py", &changed), Some(0));
        assert_eq!(
            matching("x/util.py", &changed),
            Some(3),
            "exact beats base name"
        );
        assert_eq!(matching("other/README.md", &changed), Some(1));
        assert_eq!(matching("nope.rs", &changed), None);
        assert_eq!(
            matching("ap/generate.py", &changed),
            Some(0),
            "base name last"
        );
    }
}
