//! Reading a results comment back: the JSON state, or the legacy list without JSON.

use super::CommentError;
use super::locate::{RESULTS_SUMMARY, locate_state};
use crate::quiz::{QuestionResult, Results};

#[derive(Debug, Clone, PartialEq)]
pub struct ParsedResults {
    pub results: Results,
    /// Read from the human list of an old comment with no state block: no PR number,
    /// and scores are only what the list shows.
    pub legacy: bool,
}

pub fn parse_results_comment(text: &str) -> Result<ParsedResults, CommentError> {
    if text.trim().is_empty() {
        return Err(CommentError::Empty);
    }
    if let Some(block) = locate_state(text, RESULTS_SUMMARY) {
        let results = Results::from_value(block.parse_json()?)?;
        return Ok(ParsedResults {
            results,
            legacy: false,
        });
    }
    parse_legacy(text).map(|results| ParsedResults {
        results,
        legacy: true,
    })
}

/// `**Total: N%**`, then `- ✅ `id` — N%` lines, each optionally followed by `  > feedback`.
fn parse_legacy(text: &str) -> Result<Results, CommentError> {
    let mut total = None;
    let mut per_question: Vec<QuestionResult> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("**Total:") {
            total = rest
                .trim()
                .trim_end_matches("**")
                .trim()
                .trim_end_matches('%')
                .parse()
                .ok();
        } else if let Some(item) = t.strip_prefix("- ") {
            if let Some(r) = parse_item(item) {
                per_question.push(r);
            }
        } else if let Some(quote) = t.strip_prefix('>')
            && let Some(last) = per_question.last_mut()
        {
            if !last.feedback.is_empty() {
                last.feedback.push('\n');
            }
            last.feedback.push_str(quote.trim());
        }
    }
    let total_score = total.ok_or(CommentError::NoResults)?;
    Ok(Results {
        total_score,
        per_question,
        ..Results::default()
    })
}

fn parse_item(item: &str) -> Option<QuestionResult> {
    let (correct, rest) = if let Some(r) = item.strip_prefix('✅') {
        (true, r)
    } else {
        (false, item.strip_prefix('❌')?)
    };
    let rest = rest.trim_start();
    let ticks = rest.len() - rest.trim_start_matches('`').len();
    if ticks == 0 {
        return None;
    }
    let fence = &rest[..ticks];
    let after_open = &rest[ticks..];
    let close = after_open.find(fence)?;
    let id = after_open[..close].trim().to_string();
    let score_text = after_open[close + ticks..]
        .trim()
        .trim_start_matches('—')
        .trim();
    let score = score_text.trim_end_matches('%').trim().parse().ok()?;
    Some(QuestionResult {
        question_id: id,
        correct,
        score,
        feedback: String::new(),
        confidence: None,
        extra: serde_json::Map::new(),
    })
}
