//! The results comment, in the original's layout, always within GitHub's size limit.

use super::CommentError;
use super::escape::{block_quote, inline_code, json_for_html};
use super::locate::RESULTS_SUMMARY;
use crate::quiz::Results;

/// GitHub refuses comment bodies longer than this many characters (HTTP 422).
pub const GITHUB_COMMENT_LIMIT: usize = 65_536;

/// How much of the human part to keep when the whole comment is too long.
#[derive(Clone, Copy)]
enum Detail {
    Full,
    ShortFeedback,
    TotalOnly,
}

/// The results comment: marker, human summary, then the results state JSON.
///
/// When it would pass GitHub's limit, the human part is shortened (the JSON never is);
/// when the JSON alone is too big, that is an error.
pub fn render_results_comment(results: &Results) -> Result<String, CommentError> {
    let json = json_for_html(&results.to_pretty_json());
    for detail in [Detail::Full, Detail::ShortFeedback, Detail::TotalOnly] {
        let body = format!(
            "<!-- quizz:results v1 -->\n{}\n---\n<details><summary>{RESULTS_SUMMARY}</summary>\n\n```json\n{json}\n```\n</details>",
            summary(results, detail)
        );
        if body.chars().count() <= GITHUB_COMMENT_LIMIT {
            return Ok(body);
        }
    }
    Err(CommentError::TooLarge {
        json_chars: json.chars().count(),
    })
}

/// The human part alone (heading, total, one line per question), for terminals.
pub fn results_summary_markdown(results: &Results) -> String {
    summary(results, Detail::Full)
}

fn summary(results: &Results, detail: Detail) -> String {
    let mut out = format!("## Quiz results\n\n**Total: {}%**", results.total_score);
    if !results.pending.is_empty() {
        let n = results.pending.len();
        out.push_str(&format!(
            " (provisional: {n} open answer{} not graded yet)",
            if n == 1 { "" } else { "s" }
        ));
    }
    out.push_str("\n\n");
    if let Detail::TotalOnly = detail {
        out.push_str("Per-question results are in the state below (shortened to fit GitHub's comment limit).\n");
        return out;
    }
    for r in &results.per_question {
        let mark = if r.correct { "✅" } else { "❌" };
        out.push_str(&format!(
            "- {mark} {} — {}%\n",
            inline_code(&r.question_id),
            r.score
        ));
        let feedback = r.feedback.trim();
        if !feedback.is_empty() {
            let feedback = match detail {
                Detail::ShortFeedback => shorten(feedback, 200),
                _ => feedback.to_string(),
            };
            out.push_str(&block_quote(&feedback, "  "));
            out.push('\n');
        }
    }
    for id in &results.pending {
        out.push_str(&format!(
            "- ⏳ {} — pending: not graded yet\n",
            inline_code(id)
        ));
    }
    for n in &results.not_counted {
        out.push_str(&format!(
            "- ➖ {} — not counted: {}\n",
            inline_code(&n.question_id),
            block_free(&n.reason)
        ));
    }
    out
}

fn block_free(text: &str) -> String {
    super::escape::html_escape(text).replace('\n', " ")
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let cut: String = text.chars().take(max_chars).collect();
    format!("{}…", cut.trim_end())
}
