//! What the local clone says: the current branch, its upstream, and the remotes.

use std::path::Path;
use std::process::Command;

use super::repo::{RepoRef, parse_remote_url};

/// A remote that points at a GitHub-like host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    pub name: String,
    pub repo: RepoRef,
}

/// The branch checked out, and what git knows about where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchInfo {
    pub name: String,
    /// `branch.NAME.remote`
    pub remote: Option<String>,
    /// `branch.NAME.merge`, e.g. `refs/heads/feature` or `refs/pull/7/head`.
    pub merge: Option<String>,
    /// `branch.NAME.pushRemote`, else `remote.pushDefault`.
    pub push_remote: Option<String>,
}

impl BranchInfo {
    /// `refs/pull/N/head` names the PR directly (what `gh pr checkout` sets up).
    pub fn pull_number(&self) -> Option<u64> {
        let merge = self.merge.as_deref()?;
        let n = merge.strip_prefix("refs/pull/")?.strip_suffix("/head")?;
        n.parse().ok()
    }

    /// The branch name on the remote: the upstream's, else the local name.
    pub fn head_name(&self) -> &str {
        self.merge
            .as_deref()
            .and_then(|m| m.strip_prefix("refs/heads/"))
            .unwrap_or(&self.name)
    }
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// Whether `dir` is inside a git work tree.
pub fn is_repo(dir: &Path) -> bool {
    git(dir, &["rev-parse", "--is-inside-work-tree"]).as_deref() == Some("true")
}

pub fn current_branch(dir: &Path) -> Option<BranchInfo> {
    let name = git(dir, &["symbolic-ref", "--quiet", "--short", "HEAD"])?;
    let get = |key: String| git(dir, &["config", "--get", &key]);
    Some(BranchInfo {
        remote: get(format!("branch.{name}.remote")),
        merge: get(format!("branch.{name}.merge")),
        push_remote: get(format!("branch.{name}.pushRemote"))
            .or_else(|| get("remote.pushDefault".to_string())),
        name,
    })
}

/// Remotes whose URL names a repository, ordered like gh: upstream, github, origin, then
/// the rest by name.
pub fn remotes(dir: &Path) -> Vec<Remote> {
    let Some(text) = git(dir, &["config", "--get-regexp", r"^remote\..*\.url$"]) else {
        return Vec::new();
    };
    let mut found: Vec<Remote> = text
        .lines()
        .filter_map(|line| {
            let (key, url) = line.split_once(char::is_whitespace)?;
            let name = key.strip_prefix("remote.")?.strip_suffix(".url")?;
            Some(Remote {
                name: name.to_string(),
                repo: parse_remote_url(url)?,
            })
        })
        .collect();
    found.sort_by_key(|r| {
        let rank = match r.name.as_str() {
            "upstream" => 0,
            "github" => 1,
            "origin" => 2,
            _ => 3,
        };
        (rank, r.name.clone())
    });
    found.dedup_by(|a, b| a.name == b.name);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_refs() {
        let mut b = BranchInfo {
            name: "local".into(),
            remote: Some("origin".into()),
            merge: Some("refs/pull/42/head".into()),
            push_remote: None,
        };
        assert_eq!(b.pull_number(), Some(42));
        b.merge = Some("refs/heads/feature/x".into());
        assert_eq!(b.pull_number(), None);
        assert_eq!(b.head_name(), "feature/x");
        b.merge = None;
        assert_eq!(b.head_name(), "local");
    }
}
