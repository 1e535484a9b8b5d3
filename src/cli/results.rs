//! `quizz results [PR]`: who took the PR's quiz, and how they did.

use std::io::Write;

use anyhow::Result;
use clap::Args;

use crate::github::results::parse_timestamp;
use crate::github::{PrOptions, PrResults, ResultRow, open_results};
use crate::store::Store;
use crate::text::{display_width, sanitize_line, time_ago};

/// List every taker's latest results on a pull request: score, right answers, pending open
/// answers, attempts, and whether each row can be trusted.
///
/// A row is verified when the comment's author is the taker it names (anyone can paste a
/// results block naming someone else); it is stale when it is the result of an older quiz
/// than the PR's current one. Uses the same PR lookup, trust rules and cache as `take`: a
/// second run with nothing new costs one request, answered 304.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  quizz results                    the current branch's PR\n  quizz results 7 --repo octo/app\n  quizz results https://github.com/octo/app/pull/7 --json\n\n\
JSON: an array, best score first, of objects with taker, author, total_score, correct,\n\
questions, pending, attempts, updated_at, url, verified, stale, quiz_comment_id, comment_id."
)]
pub struct ResultsArgs {
    /// The pull request: a number (7), a URL, or OWNER/REPO#7. Default: the open PR of the
    /// current branch (found like `gh pr view`).
    #[arg(value_name = "PR")]
    pr: Option<String>,
    /// The repository for a PR number: [HOST/]OWNER/REPO (default: `GH_REPO`, else the git
    /// remotes: upstream, github, origin).
    #[arg(long, short = 'R', value_name = "[HOST/]OWNER/REPO")]
    repo: Option<String>,
    /// Also count a quiz posted by LOGIN as the current quiz (quiz bots are trusted already).
    #[arg(long, value_name = "LOGIN")]
    trust: Vec<String>,
    /// Print the rows as a JSON array on stdout (notes go to stderr).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ResultsArgs) -> Result<()> {
    let store = Store::open_default()?;
    let cwd = std::env::current_dir()?;
    let opts = PrOptions {
        pr: args.pr.clone(),
        repo: args.repo.clone(),
        trust: args.trust.clone(),
    };
    let found = open_results(&opts, store, &cwd)?;
    {
        let mut err = std::io::stderr().lock();
        for note in &found.notes {
            writeln!(err, "note: {}", sanitize_line(note))?;
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&found.rows)?);
        return Ok(());
    }
    print_table(&mut std::io::stdout().lock(), &found)?;
    Ok(())
}

fn when(row: &ResultRow) -> String {
    parse_timestamp(&row.updated_at).map_or_else(
        || {
            row.updated_at
                .get(..10)
                .unwrap_or(&row.updated_at)
                .to_string()
        },
        time_ago,
    )
}

fn marks(row: &ResultRow) -> String {
    let mut marks = Vec::new();
    if !row.verified {
        marks.push(format!(
            "unverified: posted by @{}, not by the taker",
            row.author
        ));
    }
    if row.stale {
        marks.push("stale: an older quiz".to_string());
    }
    marks.join("; ")
}

/// The table: one line per row, columns padded to their widest cell.
fn print_table(out: &mut dyn Write, found: &PrResults) -> std::io::Result<()> {
    if found.rows.is_empty() {
        writeln!(out, "No results posted on {} yet.", found.pr)?;
        return Ok(());
    }
    let header = [
        "TAKER", "SCORE", "CORRECT", "PENDING", "ATTEMPTS", "WHEN", "MARKS", "LINK",
    ];
    let mut cells: Vec<[String; 8]> = vec![header.map(str::to_string)];
    for row in &found.rows {
        let taker = if row.verified {
            row.taker.clone()
        } else {
            format!("{}?", row.taker)
        };
        cells.push(
            [
                taker,
                format!("{}%", row.total_score),
                format!("{}/{}", row.correct, row.questions),
                row.pending.to_string(),
                row.attempts.to_string(),
                when(row),
                marks(row),
                row.url.clone(),
            ]
            .map(|c| sanitize_line(&c)),
        );
    }
    let mut widths = [0usize; 8];
    for line in &cells {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(display_width(cell));
        }
    }
    // Numbers are right-aligned; the rest left-aligned.
    let right = [false, true, true, true, true, false, false, false];
    for line in &cells {
        let mut text = String::new();
        for (i, cell) in line.iter().enumerate() {
            let pad = " ".repeat(widths[i] - display_width(cell));
            if i > 0 {
                text.push_str("  ");
            }
            if right[i] {
                text.push_str(&pad);
                text.push_str(cell);
            } else {
                text.push_str(cell);
                if i + 1 < line.len() {
                    text.push_str(&pad);
                }
            }
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    let summary = found.summary();
    let unverified = found.rows.iter().filter(|r| !r.verified).count();
    let stale = found.rows.iter().filter(|r| r.stale).count();
    let mut tail = summary
        .line()
        .unwrap_or_else(|| "Nobody has posted verified results for the current quiz yet".into());
    if unverified > 0 {
        tail.push_str(&format!(" · {unverified} unverified (not counted)"));
    }
    if stale > 0 {
        tail.push_str(&format!(" · {stale} for an older quiz"));
    }
    writeln!(out, "\n{}.", sanitize_line(&tail))?;
    Ok(())
}
