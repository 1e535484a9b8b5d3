//! `quizz fetch [PR...]`: cache PR quizzes for offline use.

use anyhow::{Result, bail};
use clap::Args;

use crate::github::{
    Connection, Fetched, PrRef, QuizPick, Target, pick_quiz, resolve, resolve_target, trust_from,
};
use crate::store::Store;
use crate::text::sanitize_line;

/// Cache the quizzes of pull requests so `quizz take` works offline.
///
/// With no PR, every open pull request of the repository is fetched (those without a quiz
/// are listed as such).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz fetch                      every open PR of this clone's repository\n  quizz fetch 7 9                  PRs 7 and 9\n  quizz fetch --repo octo/app      every open PR of octo/app\n  quizz fetch https://github.com/octo/app/pull/7"
)]
pub struct FetchArgs {
    /// Pull requests: numbers, URLs or OWNER/REPO#N. Default: every open PR of the repository.
    #[arg(value_name = "PR")]
    prs: Vec<String>,
    /// The repository: [HOST/]OWNER/REPO (default: `GH_REPO`, else the git remotes).
    #[arg(long, short = 'R', value_name = "[HOST/]OWNER/REPO")]
    repo: Option<String>,
    /// Also accept quizzes posted by LOGIN. Repeatable.
    #[arg(long, value_name = "LOGIN")]
    trust: Vec<String>,
}

#[derive(serde::Deserialize)]
struct PullSummary {
    number: u64,
}

pub fn run(args: &FetchArgs) -> Result<()> {
    let store = Store::open_default()?;
    let cwd = std::env::current_dir()?;
    let targets: Vec<Target> = if args.prs.is_empty() {
        let base = resolve::base_repo(args.repo.as_deref(), &cwd)?;
        vec![Target::Branch {
            base,
            head_owner: String::new(),
            branch: String::new(),
        }]
    } else {
        args.prs
            .iter()
            .map(|p| resolve_target(Some(p), args.repo.as_deref(), &cwd))
            .collect::<Result<_, _>>()?
    };
    let (trust, note) = trust_from(&args.trust);
    if let Some(n) = note {
        errln!("note: {}", sanitize_line(&n));
    }
    let mut failures = 0;
    let mut conn: Option<Connection> = None;
    for target in targets {
        let host = target.host().to_string();
        if conn.as_ref().is_none_or(|c| c.host != host) {
            conn = Some(Connection::open(&host, store.clone())?);
        }
        let Some(c) = conn.as_ref() else { continue };
        let prs: Vec<PrRef> = match target {
            Target::Pr { pr, .. } => vec![pr],
            Target::Branch { base, .. } => {
                let url = format!(
                    "/repos/{}/{}/pulls?state=open&per_page=100",
                    base.owner, base.repo
                );
                let what = format!("the open pull requests of {base}");
                match c.block_on(c.client.get_all::<PullSummary>(&url, None, &what))? {
                    Fetched::Fresh { value, .. } => {
                        if value.is_empty() {
                            outln!("{base}: no open pull requests");
                        }
                        value.iter().map(|p| base.pr(p.number)).collect()
                    }
                    Fetched::NotModified => Vec::new(),
                }
            }
        };
        for pr in prs {
            match c.sync(&pr) {
                Ok((cache, freshness)) => {
                    if let crate::github::Freshness::Offline(e) = freshness {
                        outln!("{pr}: offline ({e}); the cached copy is kept");
                        failures += 1;
                        continue;
                    }
                    match pick_quiz(&cache.comments, &trust) {
                        QuizPick::Found { comment, .. } => {
                            outln!("{pr}: quiz cached (comment by {})", comment.describe());
                        }
                        QuizPick::Untrusted(list) => outln!(
                            "{pr}: cached, but the quiz is by {}, not a trusted bot (--trust {} to take it)",
                            list[0].describe(),
                            sanitize_line(list[0].login())
                        ),
                        QuizPick::None if !cache.listed_complete => outln!(
                            "{pr}: no quiz in the comments quizz could list ({})",
                            crate::github::sync::cut_listing_note()
                        ),
                        QuizPick::None => outln!("{pr}: no quiz"),
                    }
                }
                Err(e) => {
                    errln!("{pr}: {}", sanitize_line(&e.to_string()));
                    failures += 1;
                }
            }
        }
    }
    if failures > 0 {
        bail!(
            "{} could not be fetched",
            crate::text::plural(failures, "pull request", "pull requests")
        );
    }
    Ok(())
}
