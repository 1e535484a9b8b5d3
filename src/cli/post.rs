//! `quizz post`: send the results waiting in the outbox; and the posting step of a take.

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Result, bail};
use clap::Args;

use super::pr::PostChoice;
use crate::github::{Connection, GithubError, PostOutcome, PrRef, PrTake, Queued, post_results};
use crate::quiz::Results;
use crate::store::{AttemptStamp, OutboxEntry, Store};
use crate::text::sanitize_line;

/// Post the results waiting in the outbox (saved when posting failed, the machine was
/// offline, or a take could not ask for confirmation).
///
/// At a terminal, each waiting result is shown (pull request, score, when) and posted only
/// when you say y. Without a terminal, results you confirmed in the take are sent, and those
/// never confirmed need --yes. Before posting, quizz looks for your own results comment on
/// the PR and edits it, so a post that looked failed but went through is never duplicated;
/// results of an older attempt never replace a newer attempt's. Two `quizz post` at once
/// take turns.
#[derive(Args)]
#[command(after_help = "Examples:\n  \
        quizz post           show each waiting result and ask before posting it\n  \
        quizz post --yes     post everything waiting without asking (scripts)\n  \
        quizz status         see what is waiting first\n\n\
        Exit status: 0 when nothing is left that should have been sent (declining at the \
        prompt keeps a result waiting), 1 when a result could not be posted or, without a \
        terminal, was never confirmed (it stays in the outbox).")]
pub struct PostArgs {
    /// Post every waiting result without asking, also those a take queued unconfirmed.
    #[arg(long, short = 'y')]
    yes: bool,
}

pub fn run(args: &PostArgs) -> Result<()> {
    let store = Store::open_default()?;
    let waiting = store.outbox_list();
    if waiting.is_empty() {
        outln!("Nothing waiting to be posted.");
        return Ok(());
    }
    let stdin = std::io::stdin();
    let ask = Ask {
        yes: args.yes,
        can_ask: stdin.is_terminal(),
    };
    let mut input = stdin.lock();
    let (mut failed, mut unconfirmed) = (0, 0);
    // First what to send (asking takes the time it takes, and holds up nobody) …
    let mut chosen = Vec::new();
    for w in &waiting {
        let entry = match &w.entry {
            Ok(e) => e,
            Err(e) => {
                errln!("skipped {}: unreadable ({e})", w.path.display());
                failed += 1;
                continue;
            }
        };
        let pr = pr_of(entry);
        let results = match Results::from_value(entry.results.clone()) {
            Ok(r) => r,
            Err(e) => {
                errln!("skipped results for {pr}: {e} ({})", w.path.display());
                failed += 1;
                continue;
            }
        };
        match ask.decide(&pr, entry, &results, &mut input, &mut std::io::stdout())? {
            Decision::Send => chosen.push((w.path.clone(), entry.clone(), results)),
            Decision::Keep => {}
            Decision::NeedsYes => unconfirmed += 1,
        }
    }
    // … then send it under the outbox lock: a second `quizz post` waits, then finds what
    // this one sent gone.
    let _lock = store.lock_outbox()?;
    let mut connections: HashMap<String, Connection> = HashMap::new();
    for (path, entry, results) in &chosen {
        let pr = pr_of(entry);
        match store.outbox_read(path) {
            Ok(now) if now == *entry => {}
            Ok(_) => {
                outln!(
                    "{pr}: newer results were queued meanwhile: not sent; run `quizz post` again"
                );
                continue;
            }
            Err(_) => {
                outln!("{pr}: sent meanwhile by another `quizz post`");
                continue;
            }
        }
        if !connections.contains_key(&pr.host) {
            let conn = Connection::open(&pr.host, store.clone())?;
            connections.insert(pr.host.clone(), conn);
        }
        let Some(conn) = connections.get(&pr.host) else {
            continue;
        };
        match post_results(
            conn,
            &pr,
            entry.quiz_comment_id,
            results,
            entry.stamp.as_ref(),
        ) {
            Ok(outcome) => {
                store.outbox_remove(path)?;
                outln!("{pr}: {}", describe(&outcome, results));
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
    if unconfirmed > 0 {
        bail!(
            "{} never confirmed {} in the outbox: `quizz post --yes` posts {}, or run `quizz post` at a terminal to be asked",
            crate::text::plural(unconfirmed, "result", "results"),
            if unconfirmed == 1 { "waits" } else { "wait" },
            if unconfirmed == 1 { "it" } else { "them" }
        );
    }
    Ok(())
}

fn pr_of(entry: &OutboxEntry) -> PrRef {
    PrRef {
        host: entry.host.clone(),
        owner: entry.owner.clone(),
        repo: entry.repo.clone(),
        number: entry.number,
    }
}

/// How `quizz post` decides, entry by entry.
#[derive(Debug, Clone, Copy)]
struct Ask {
    /// `--yes`: send everything.
    yes: bool,
    /// stdin is a terminal: show each entry and ask.
    can_ask: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Send,
    /// The taker said no at the prompt: it stays waiting.
    Keep,
    /// Never confirmed, and no terminal to ask at: it stays waiting until `--yes`.
    NeedsYes,
}

impl Ask {
    fn decide(
        self,
        pr: &PrRef,
        entry: &OutboxEntry,
        results: &Results,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<Decision> {
        if self.yes {
            return Ok(Decision::Send);
        }
        if !self.can_ask {
            if entry.is_confirmed() {
                return Ok(Decision::Send);
            }
            eprintln!(
                "{pr}: not posted: {} (`quizz post --yes` posts it)",
                waiting_line(entry, results)
            );
            return Ok(Decision::NeedsYes);
        }
        let question = format!(
            "{pr}: {}\nPost it as your results comment? [y/N] ",
            waiting_line(entry, results)
        );
        if super::ask_yes_no(&question, input, out)? {
            Ok(Decision::Send)
        } else {
            writeln!(out, "{pr}: kept in the outbox.")?;
            Ok(Decision::Keep)
        }
    }
}

/// `83% (provisional: 1 open answer not graded), attempt 2, queued 5 min ago: why`.
pub fn waiting_line(entry: &OutboxEntry, results: &Results) -> String {
    let provisional = if results.pending.is_empty() {
        String::new()
    } else {
        format!(
            " (provisional: {} not graded)",
            crate::text::plural(results.pending.len(), "open answer", "open answers")
        )
    };
    let attempt = entry
        .stamp
        .as_ref()
        .filter(|s| s.number > 0)
        .map_or_else(String::new, |s| format!(", attempt {}", s.number));
    format!(
        "{}%{provisional}{attempt}, queued {}: {}",
        results.total_score,
        crate::text::time_ago(entry.queued_at),
        sanitize_line(&entry.reason)
    )
}

fn describe(outcome: &PostOutcome, results: &Results) -> String {
    match outcome {
        PostOutcome::Created { url } => format!("posted your results: {}", sanitize_line(url)),
        PostOutcome::Updated { url } => {
            format!("updated your results comment: {}", sanitize_line(url))
        }
        PostOutcome::AlreadyPosted { url } => {
            format!("these results were posted already: {}", sanitize_line(url))
        }
        PostOutcome::Superseded { url, score } => format!(
            "not posted: your results comment holds a newer attempt ({score}%), which stays; these results ({}%) are dropped: {}",
            results.total_score,
            sanitize_line(url)
        ),
    }
}

/// What the posting step of a take did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakePost {
    /// The results are on the pull request.
    Posted,
    /// Not posted, as the taker chose (or they wait unconfirmed, or a newer attempt's
    /// results are on GitHub already).
    NotPosted,
    /// The taker said to post and it failed: the results wait in the outbox.
    Failed,
}

/// After a PR take: post (when confirmed), or queue, and say what happened.
pub fn after_take(
    take: &PrTake,
    results: &Results,
    stamp: Option<&AttemptStamp>,
    choice: PostChoice,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<TakePost> {
    let queued = |confirmed: bool, reason: &str| {
        take.queue(&Queued {
            results,
            stamp: stamp.cloned(),
            confirmed,
            reason,
        })
    };
    let confirmed = match choice {
        PostChoice::Yes => true,
        PostChoice::No => {
            writeln!(out, "Not posted (--no-post).")?;
            return Ok(TakePost::NotPosted);
        }
        PostChoice::Ask if std::io::stdin().is_terminal() => {
            let question = format!("Post these results to {} as a comment? [y/N] ", take.pr);
            super::ask_yes_no(&question, input, out)?
        }
        PostChoice::Ask => {
            let path = queued(false, "not confirmed: the take could not ask")?;
            writeln!(
                out,
                "Not posted: nothing is posted without your confirmation, and this take cannot ask \
                 (stdin is not a terminal). The results wait in the outbox ({}): `quizz post` at a \
                 terminal asks before sending them (`quizz post --yes` does not ask); next time pass \
                 --post or --no-post.",
                path.display()
            )?;
            return Ok(TakePost::NotPosted);
        }
    };
    if !confirmed {
        writeln!(out, "Not posted.")?;
        return Ok(TakePost::NotPosted);
    }
    if take.offline {
        queued(true, "offline during the take")?;
        writeln!(
            out,
            "Offline: the results wait in the outbox; run `quizz post` when GitHub can be reached."
        )?;
        return Ok(TakePost::Failed);
    }
    match take.post(results, stamp) {
        Ok(outcome) => {
            writeln!(out, "{}", capitalize(&describe(&outcome, results)))?;
            // What waits from an older attempt of this quiz must never be sent over these.
            if let Some(stamp) = stamp
                && take.supersede_queued(stamp)?
            {
                writeln!(
                    out,
                    "Dropped the results of an earlier attempt that waited in the outbox."
                )?;
            }
            Ok(match outcome {
                PostOutcome::Superseded { .. } => TakePost::NotPosted,
                _ => TakePost::Posted,
            })
        }
        Err(e @ GithubError::TooBig { .. }) => Err(e.into()),
        Err(e) => {
            let reason = sanitize_line(&e.to_string());
            queued(true, &reason)?;
            writeln!(
                out,
                "Could not post: {reason}\nThe results wait in the outbox: run `quizz post` to send them."
            )?;
            Ok(TakePost::Failed)
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(confirmed: Option<bool>, reason: &str) -> (PrRef, OutboxEntry, Results) {
        let pr = PrRef {
            host: "github.com".into(),
            owner: "octo".into(),
            repo: "app".into(),
            number: 7,
        };
        let results = Results {
            pr_number: 7,
            total_score: 83,
            pending: vec!["q5".into()],
            ..Results::default()
        };
        let entry = OutboxEntry {
            format: 1,
            host: pr.host.clone(),
            owner: pr.owner.clone(),
            repo: pr.repo.clone(),
            number: 7,
            quiz_comment_id: 11,
            results: results.to_value(),
            queued_at: crate::store::now(),
            reason: reason.into(),
            stamp: Some(AttemptStamp {
                number: 2,
                id: "ab".into(),
                graded_at_ms: 1,
            }),
            confirmed,
        };
        (pr, entry, results)
    }

    fn decide(ask: Ask, confirmed: Option<bool>, typed: &str) -> (Decision, String) {
        let (pr, entry, results) = waiting(confirmed, "not confirmed: the take could not ask");
        let mut input = std::io::Cursor::new(typed.as_bytes().to_vec());
        let mut out = Vec::new();
        let d = ask
            .decide(&pr, &entry, &results, &mut input, &mut out)
            .unwrap();
        (d, String::from_utf8(out).unwrap())
    }

    #[test]
    fn at_a_terminal_each_result_is_shown_and_posted_only_on_yes() {
        let terminal = Ask {
            yes: false,
            can_ask: true,
        };
        let (d, out) = decide(terminal, Some(false), "y\n");
        assert_eq!(d, Decision::Send);
        assert!(
            out.starts_with(
                "octo/app#7: 83% (provisional: 1 open answer not graded), attempt 2, queued just now: not confirmed: the take could not ask\nPost it as your results comment? [y/N] "
            ),
            "{out}"
        );
        let (d, out) = decide(terminal, Some(true), "\n");
        assert_eq!(d, Decision::Keep, "confirmed in the take, still asked here");
        assert!(out.ends_with("octo/app#7: kept in the outbox.\n"), "{out}");
    }

    #[test]
    fn without_a_terminal_only_confirmed_results_are_sent_unless_yes() {
        let script = Ask {
            yes: false,
            can_ask: false,
        };
        assert_eq!(decide(script, Some(false), "").0, Decision::NeedsYes);
        assert_eq!(decide(script, Some(true), "").0, Decision::Send);
        // An entry of an older version: its reason says whether it was confirmed.
        assert_eq!(decide(script, None, "").0, Decision::NeedsYes);
        let yes = Ask {
            yes: true,
            can_ask: false,
        };
        assert_eq!(decide(yes, Some(false), "").0, Decision::Send);
    }
}
