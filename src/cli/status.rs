//! `quizz status`: attempts in progress, answers waiting to be graded, results waiting to
//! be posted, and the quizzes cached for offline use.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use clap::Args;

use crate::github::{PrCache, PrRef, Trust, pick_quiz};
use crate::quiz::{Quiz, Results};
use crate::store::{SavedAttempt, Store};
use crate::text::{plural, sanitize_line, time_ago};

/// Show attempts in progress, answers waiting to be graded, results waiting to be posted,
/// and which PR quizzes are cached for offline use.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz status\n  quizz post     send the results waiting to be posted"
)]
pub struct StatusArgs {}

pub fn run(_args: &StatusArgs) -> Result<()> {
    let store = Store::open_default()?;
    let mut out = std::io::stdout().lock();
    print_attempts(&store, &mut out)?;
    let waiting = store.outbox_list();
    if waiting.is_empty() {
        writeln!(out, "Nothing waiting to be posted.")?;
    } else {
        writeln!(
            out,
            "Waiting to be posted ({}): run `quizz post` to send.",
            waiting.len()
        )?;
        for w in &waiting {
            match &w.entry {
                Ok(e) => {
                    let total = e
                        .results
                        .get("total_score")
                        .and_then(serde_json::Value::as_u64);
                    let pr = crate::github::PrRef::from_origin(&e.origin())
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "  {pr}  {}%  queued {}  ({})",
                        total.unwrap_or(0),
                        time_ago(e.queued_at),
                        sanitize_line(&e.reason)
                    )?;
                }
                Err(err) => writeln!(out, "  {} (unreadable: {err})", w.path.display())?,
            }
        }
    }
    let cached: Vec<_> = store
        .cached_keys()
        .into_iter()
        .filter(|k| k.components().count() == 4)
        // host/owner/repo/N; `N-code` beside it holds the code read for N's quiz.
        .filter(|k| {
            k.file_name()
                .is_some_and(|n| n.to_string_lossy().bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    if cached.is_empty() {
        writeln!(
            out,
            "No quizzes cached (`quizz fetch` caches them for offline use)."
        )?;
    } else {
        writeln!(out, "Cached pull requests ({}):", cached.len())?;
        for key in cached {
            let Some(cache) = store.load_cached::<PrCache>(&key) else {
                continue;
            };
            let parts: Vec<String> = key
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            // You trust yourself, as `take` does: your own posted quiz counts.
            let trust = Trust {
                logins: crate::github::sync::cached_user(&store, &parts[0])
                    .into_iter()
                    .collect(),
            };
            let quiz = match pick_quiz(&cache.comments, &trust) {
                crate::github::QuizPick::Found { comment, .. } => {
                    format!("quiz by {}", comment.describe())
                }
                crate::github::QuizPick::Untrusted(list) => {
                    format!("only an untrusted quiz, by {}", list[0].describe())
                }
                crate::github::QuizPick::None => "no quiz".to_string(),
            };
            writeln!(
                out,
                "  {}/{}/{}#{}  synced {}  {quiz}",
                parts[0],
                parts[1],
                parts[2],
                parts[3],
                time_ago(cache.synced_at)
            )?;
        }
    }
    Ok(())
}

/// A saved attempt as `status` shows it.
struct Shown {
    /// "the demo quiz (PR #7)", "octo/app#7", "file quiz.md (PR #20)".
    what: String,
    /// The arguments that name the quiz again (`--demo`, `octo/app#7`).
    args: String,
    /// Whether `quizz grade` can grade it (the demo or a file; a PR's quiz is graded by
    /// taking it again).
    gradable: bool,
    /// Questions in the quiz, when the quiz can be found (the demo, a cached PR).
    total: Option<usize>,
}

fn show(store: &Store, saved: &SavedAttempt) -> Option<Shown> {
    let parts = saved.origin_parts();
    let attempt = &saved.attempt;
    let pr = if attempt.pr_number > 0 {
        format!(" (PR #{})", attempt.pr_number)
    } else {
        String::new()
    };
    let matches = |quiz: &Quiz| quiz.digest() == attempt.quiz_digest;
    match parts.as_slice() {
        [demo] if demo == "demo" => {
            let quiz = crate::quiz::parse_quiz(crate::source::DEMO_QUIZ).ok()?;
            // An attempt at an older demo can never be taken again.
            matches(&quiz).then(|| Shown {
                what: format!("the demo quiz{pr}"),
                args: "--demo".into(),
                gradable: true,
                total: Some(quiz.questions.len()),
            })
        }
        [file, key] if file == "file" => {
            // The key is the file's name and a hash of its path: the name is what is known.
            let name = key
                .rsplit_once('-')
                .map_or(key.as_str(), |(name, _)| name)
                .to_string();
            let (what, args) = if name == "stdin" {
                (
                    format!("a quiz read from stdin{pr}"),
                    "--file -".to_string(),
                )
            } else {
                (
                    format!("file {}{pr}", sanitize_line(&name)),
                    format!("--file PATH/{}", sanitize_line(&name)),
                )
            };
            Some(Shown {
                what,
                args,
                gradable: true,
                total: None,
            })
        }
        [local, key, _digest] if local == "local" => {
            // The key is the repository's name and a hash of where it is.
            let name = key.rsplit_once('-').map_or(key.as_str(), |(name, _)| name);
            Some(Shown {
                what: format!("the local change in {}", sanitize_line(name)),
                args: "--local".into(),
                gradable: false,
                total: None,
            })
        }
        [host, owner, repo, number] => {
            let pr = PrRef {
                host: host.clone(),
                owner: owner.clone(),
                repo: repo.clone(),
                number: number.parse().ok()?,
            };
            let total = store
                .load_cached::<PrCache>(Path::new(&attempt.origin))
                .and_then(|cache| {
                    cache.comments.iter().find_map(|c| {
                        crate::comment::read_quiz(c.body())
                            .ok()
                            .filter(|found| matches(&found.quiz))
                            .map(|found| found.quiz.questions.len())
                    })
                });
            Some(Shown {
                what: sanitize_line(&pr.to_string()),
                args: sanitize_line(&pr.to_string()),
                gradable: false,
                total,
            })
        }
        _ => None,
    }
}

/// Attempts with answers and no results yet, and graded attempts whose open answers still
/// wait for a grader, each with the command that carries on.
fn print_attempts(store: &Store, out: &mut dyn Write) -> std::io::Result<()> {
    let mut in_progress = Vec::new();
    let mut to_grade = Vec::new();
    for saved in store.list_attempts() {
        let answered = saved
            .attempt
            .answers
            .values()
            .filter(|a| !a.trim().is_empty())
            .count();
        if answered == 0 {
            continue;
        }
        let Some(shown) = show(store, &saved) else {
            continue;
        };
        match &saved.attempt.results {
            None => in_progress.push((shown, answered, saved.attempt.updated_at)),
            Some(value) => {
                let pending = Results::from_value(value.clone())
                    .map(|r| r.pending)
                    .unwrap_or_default();
                if !pending.is_empty() {
                    to_grade.push((shown, pending));
                }
            }
        }
    }
    if in_progress.is_empty() {
        writeln!(out, "No attempts in progress.")?;
    } else {
        writeln!(out, "Attempts in progress ({}):", in_progress.len())?;
        for (shown, answered, at) in &in_progress {
            let count = match shown.total {
                Some(total) => format!("{answered} of {total} answered"),
                None => format!("{answered} answered"),
            };
            writeln!(
                out,
                "  {}: {count}, last answer {}",
                shown.what,
                time_ago(*at)
            )?;
            writeln!(out, "    carry on: quizz take {}", shown.args)?;
        }
    }
    if to_grade.is_empty() {
        writeln!(out, "No answers waiting to be graded.")?;
    } else {
        writeln!(out, "Answers waiting to be graded ({}):", to_grade.len())?;
        for (shown, pending) in &to_grade {
            let ids: Vec<String> = pending.iter().map(|i| sanitize_line(i)).collect();
            writeln!(
                out,
                "  {}: {} pending ({})",
                shown.what,
                plural(pending.len(), "open answer", "open answers"),
                ids.join(", ")
            )?;
            if shown.gradable {
                writeln!(out, "    grade them: quizz grade {}", shown.args)?;
            } else {
                writeln!(
                    out,
                    "    grade them: quizz take {} (its overview offers to grade what is pending)",
                    shown.args
                )?;
            }
        }
    }
    Ok(())
}

/// One line for `take`: results still waiting from earlier takes.
pub fn mention_outbox(store: &Store, out: &mut dyn Write) -> std::io::Result<()> {
    let n = store.outbox_list().len();
    if n > 0 {
        let what = if n == 1 {
            "1 result from an earlier take waits to be posted: `quizz status` lists it, `quizz post` sends it."
                .to_string()
        } else {
            format!(
                "{n} results from earlier takes wait to be posted: `quizz status` lists them, `quizz post` sends them."
            )
        };
        writeln!(out, "Note: {what}")?;
    }
    Ok(())
}
