//! Which pull request the user means, like `gh pr view`: an argument (number, URL,
//! `OWNER/REPO#N`), else the current branch (its merge ref `refs/pull/N/head`, else the
//! open PR whose head is `OWNER:BRANCH`).

use std::path::Path;

use thiserror::Error;

use super::client::{Client, Fetched, encode_query};
use super::error::GithubError;
use super::git;
use super::repo::{PrRef, PrSelector, RepoRef, default_host};

/// The arguments were not enough to name a pull request: exit status 2.
#[derive(Debug, Error)]
pub enum ResolveError {
    #[error(
        "`{0}` is not a pull request: give a number (7), a URL (https://github.com/OWNER/REPO/pull/7) or OWNER/REPO#7"
    )]
    BadPr(String),
    #[error("`{0}` is not a repository: expected OWNER/REPO or HOST/OWNER/REPO")]
    BadRepo(String),
    #[error(
        "which repository? There is no GitHub remote here: pass --repo OWNER/REPO (or set GH_REPO), or run inside a clone"
    )]
    NoRepo,
    #[error(
        "no current branch (not inside a git repository, or a detached HEAD): give the PR as a number with --repo OWNER/REPO, or its URL (`quizz take` also takes --file, --demo or --local for a quiz without a PR)"
    )]
    NoBranch,
    #[error(
        "no open pull request for branch `{branch}` (head {head}) in {repo}: push it and open one, or give the PR number or URL"
    )]
    NoOpenPr {
        branch: String,
        head: String,
        repo: String,
    },
}

/// What is known before asking GitHub.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Pr {
        pr: PrRef,
        /// How it was found, for messages ("from the URL", "from branch x's merge ref").
        how: String,
    },
    /// The open PR with this head, to look up with `GET /repos/o/r/pulls?head=`.
    Branch {
        base: RepoRef,
        head_owner: String,
        branch: String,
    },
}

impl Target {
    pub fn host(&self) -> &str {
        match self {
            Self::Pr { pr, .. } => &pr.host,
            Self::Branch { base, .. } => &base.host,
        }
    }
}

/// `--repo`, else `GH_REPO`.
pub fn repo_override(flag: Option<&str>) -> Result<Option<RepoRef>, ResolveError> {
    let text = match flag {
        Some(f) => Some(f.to_string()),
        None => std::env::var("GH_REPO")
            .ok()
            .filter(|v| !v.trim().is_empty()),
    };
    text.map(|t| RepoRef::parse(&t).ok_or(ResolveError::BadRepo(t)))
        .transpose()
}

/// The base repository: `--repo`/`GH_REPO`, else the remotes (upstream, github, origin…),
/// preferring the `GH_HOST` host when it is set.
pub fn base_repo(flag: Option<&str>, cwd: &Path) -> Result<RepoRef, ResolveError> {
    if let Some(r) = repo_override(flag)? {
        return Ok(r);
    }
    let remotes = git::remotes(cwd);
    let wanted = std::env::var("GH_HOST").ok().map(|_| default_host());
    remotes
        .iter()
        .find(|r| wanted.as_deref().is_none_or(|h| r.repo.host == h))
        .or_else(|| remotes.first())
        .map(|r| r.repo.clone())
        .ok_or(ResolveError::NoRepo)
}

/// Everything that can be decided locally.
pub fn resolve_target(
    pr: Option<&str>,
    repo_flag: Option<&str>,
    cwd: &Path,
) -> Result<Target, ResolveError> {
    if let Some(text) = pr {
        return match PrSelector::parse(text).ok_or_else(|| ResolveError::BadPr(text.to_string()))? {
            PrSelector::Full(pr) => Ok(Target::Pr {
                pr,
                how: "as given".into(),
            }),
            PrSelector::Number(n) => Ok(Target::Pr {
                pr: base_repo(repo_flag, cwd)?.pr(n),
                how: "as given".into(),
            }),
        };
    }
    let branch = git::current_branch(cwd).ok_or(ResolveError::NoBranch)?;
    let remotes = git::remotes(cwd);
    let remote_repo = |name: &Option<String>| {
        name.as_deref()
            .and_then(|n| remotes.iter().find(|r| r.name == n))
            .map(|r| r.repo.clone())
    };
    if let Some(n) = branch.pull_number() {
        let repo = match remote_repo(&branch.remote) {
            Some(r) => r,
            None => base_repo(repo_flag, cwd)?,
        };
        return Ok(Target::Pr {
            pr: repo.pr(n),
            how: format!("branch `{}` tracks refs/pull/{n}/head", branch.name),
        });
    }
    let base = base_repo(repo_flag, cwd)?;
    let head_owner = remote_repo(&branch.push_remote)
        .or_else(|| remote_repo(&branch.remote))
        .map_or_else(|| base.owner.clone(), |r| r.owner);
    Ok(Target::Branch {
        base,
        head_owner,
        branch: branch.head_name().to_string(),
    })
}

#[derive(serde::Deserialize)]
struct PullSummary {
    number: u64,
}

/// The pull request, asking GitHub for the open PR of a branch when needed.
pub async fn finish(client: &Client, target: Target) -> Result<(PrRef, String), PrLookupError> {
    match target {
        Target::Pr { pr, how } => Ok((pr, how)),
        Target::Branch {
            base,
            head_owner,
            branch,
        } => {
            let head = format!("{head_owner}:{branch}");
            let url = format!(
                "/repos/{}/{}/pulls?head={}&state=open&per_page=10",
                base.owner,
                base.repo,
                encode_query(&head)
            );
            let what = format!("the pull requests of {base}");
            let pulls = match client
                .get_json::<Vec<PullSummary>>(&url, None, &what)
                .await?
            {
                Fetched::Fresh { value, .. } => value,
                Fetched::NotModified => Vec::new(),
            };
            match pulls.first() {
                Some(p) => Ok((
                    base.pr(p.number),
                    format!("the open PR of branch `{branch}` ({head})"),
                )),
                None => Err(PrLookupError::Resolve(ResolveError::NoOpenPr {
                    branch,
                    head,
                    repo: base.to_string(),
                })),
            }
        }
    }
}

#[derive(Debug, Error)]
pub enum PrLookupError {
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    Github(#[from] GithubError),
}
