//! `quizz status`: results waiting to be posted, and the quizzes cached for offline use.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use crate::github::{PrCache, Trust, pick_quiz};
use crate::store::Store;
use crate::text::{sanitize_line, time_ago};

/// Show what is waiting to be posted and which PR quizzes are cached for offline use.
#[derive(Args)]
#[command(after_help = "Examples:\n  quizz status\n  quizz post        send what is waiting")]
pub struct StatusArgs {}

pub fn run(_args: &StatusArgs) -> Result<()> {
    let store = Store::open_default()?;
    let mut out = std::io::stdout().lock();
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
            let quiz = match pick_quiz(&cache.comments, &Trust::default()) {
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

/// One line for `take`: results still waiting from earlier takes.
pub fn mention_outbox(store: &Store, out: &mut dyn Write) -> std::io::Result<()> {
    let n = store.outbox_list().len();
    if n > 0 {
        writeln!(
            out,
            "Note: {n} result(s) from earlier takes wait to be posted: `quizz status` lists them, `quizz post` sends them."
        )?;
    }
    Ok(())
}
