//! The pull-request flags shared by `take` and `fetch`.

use clap::Args;

use crate::github::PrOptions;

/// Which pull request, and what to do with the results.
#[derive(Args, Debug, Clone, Default)]
pub struct PrArgs {
    /// The pull request: a number (7), a URL, or OWNER/REPO#7. Default: the open PR of the
    /// current branch (found like `gh pr view`).
    #[arg(value_name = "PR", conflicts_with_all = ["demo", "file"])]
    pub pr: Option<String>,
    /// The repository for a PR number: [HOST/]OWNER/REPO (default: `GH_REPO`, else the git
    /// remotes: upstream, github, origin).
    #[arg(long, short = 'R', value_name = "[HOST/]OWNER/REPO")]
    pub repo: Option<String>,
    /// Also take a quiz posted by LOGIN (quiz bots are trusted already). Repeatable.
    #[arg(long, value_name = "LOGIN")]
    pub trust: Vec<String>,
    /// Post the results to the PR without asking.
    #[arg(long, conflicts_with = "no_post")]
    pub post: bool,
    /// Do not post the results.
    #[arg(long)]
    pub no_post: bool,
}

/// Whether to post the results of a PR take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PostChoice {
    Yes,
    No,
    Ask,
}

impl PrArgs {
    pub fn options(&self) -> PrOptions {
        PrOptions {
            pr: self.pr.clone(),
            repo: self.repo.clone(),
            trust: self.trust.clone(),
        }
    }

    pub fn choice(&self) -> PostChoice {
        if self.post {
            PostChoice::Yes
        } else if self.no_post {
            PostChoice::No
        } else {
            PostChoice::Ask
        }
    }
}
