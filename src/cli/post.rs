//! `quizz post`: send the results waiting in the outbox; and the posting step of a take.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args;

use super::pr::PostChoice;
use crate::github::{Connection, GithubError, PostOutcome, PrRef, PrTake, post_results};
use crate::quiz::Results;
use crate::store::Store;
use crate::text::sanitize_line;

/// Post the results waiting in the outbox (saved when posting failed, the machine was
/// offline, or a take could not ask for confirmation).
///
/// Before posting, quizz looks for your own results comment on the PR and edits it, so a
/// post that looked failed but went through is never duplicated.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz post           send everything waiting\n  quizz status         see what is waiting first"
)]
pub struct PostArgs {}

pub fn run(_args: &PostArgs) -> Result<()> {
    let store = Store::open_default()?;
    let waiting = store.outbox_list();
    if waiting.is_empty() {
        outln!("Nothing waiting to be posted.");
        return Ok(());
    }
    let mut connections: HashMap<String, Connection> = HashMap::new();
    let mut failed = 0;
    for w in &waiting {
        let entry = match &w.entry {
            Ok(e) => e,
            Err(e) => {
                errln!("skipped {}: unreadable ({e})", w.path.display());
                failed += 1;
                continue;
            }
        };
        let pr = PrRef {
            host: entry.host.clone(),
            owner: entry.owner.clone(),
            repo: entry.repo.clone(),
            number: entry.number,
        };
        let results = match Results::from_value(entry.results.clone()) {
            Ok(r) => r,
            Err(e) => {
                errln!("skipped results for {pr}: {e} ({})", w.path.display());
                failed += 1;
                continue;
            }
        };
        if !connections.contains_key(&pr.host) {
            let conn = Connection::open(&pr.host, store.clone())?;
            connections.insert(pr.host.clone(), conn);
        }
        let Some(conn) = connections.get(&pr.host) else {
            continue;
        };
        match post_results(conn, &pr, entry.quiz_comment_id, &results, false) {
            Ok(outcome) => {
                store.outbox_remove(&w.path)?;
                outln!("{pr}: {}", describe(&outcome));
            }
            Err(e) => {
                errln!(
                    "{pr}: not posted: {} (still waiting)",
                    sanitize_line(&e.to_string())
                );
                failed += 1;
            }
        }
    }
    if failed > 0 {
        bail!(
            "{failed} of {} could not be posted; they stay in the outbox",
            crate::text::plural(waiting.len(), "result", "results")
        );
    }
    Ok(())
}

fn describe(outcome: &PostOutcome) -> String {
    match outcome {
        PostOutcome::Created { url } => format!("posted your results: {}", sanitize_line(url)),
        PostOutcome::Updated { url } => {
            format!("updated your results comment: {}", sanitize_line(url))
        }
    }
}

/// After a PR take: post (when confirmed), or queue, and say what happened.
/// Posts (or queues) the results of a take as the taker chose; true when they were posted.
pub fn after_take(
    take: &PrTake,
    results: &Results,
    choice: PostChoice,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<bool> {
    let confirmed = match choice {
        PostChoice::Yes => true,
        PostChoice::No => {
            writeln!(out, "Not posted (--no-post).")?;
            return Ok(false);
        }
        PostChoice::Ask if std::io::stdin().is_terminal() => {
            write!(
                out,
                "Post these results to {} as a comment? [y/N] ",
                take.pr
            )?;
            out.flush()?;
            let mut line = String::new();
            input.read_line(&mut line)?;
            matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes")
        }
        PostChoice::Ask => {
            let path = take.queue(results, "not confirmed: the take could not ask")?;
            writeln!(
                out,
                "Not posted: nothing is posted without your confirmation, and this take cannot ask \
                 (stdin is not a terminal). The results wait in the outbox ({}): `quizz post` sends them; \
                 next time pass --post or --no-post.",
                path.display()
            )?;
            return Ok(false);
        }
    };
    if !confirmed {
        writeln!(out, "Not posted.")?;
        return Ok(false);
    }
    if take.offline {
        take.queue(results, "offline during the take")?;
        writeln!(
            out,
            "Offline: the results wait in the outbox; run `quizz post` when GitHub can be reached."
        )?;
        return Ok(false);
    }
    match take.post(results) {
        Ok(outcome) => {
            writeln!(out, "{}", capitalize(&describe(&outcome)))?;
            return Ok(true);
        }
        Err(e @ GithubError::TooBig { .. }) => return Err(e.into()),
        Err(e) => {
            let reason = sanitize_line(&e.to_string());
            take.queue(results, &reason)?;
            writeln!(
                out,
                "Could not post: {reason}\nThe results wait in the outbox: run `quizz post` to send them."
            )?;
        }
    }
    Ok(false)
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}
