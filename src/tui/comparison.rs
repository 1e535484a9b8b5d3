//! The compact comparison of a diagram question's options (`C`): only what differs, each
//! difference with what every option has in its place — "A, C: `Client ──▶ API: retry`
//! · B: missing · D: `API ──▶ Client: retry`" — one group of options to a row.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::theme::Theme;
use super::wrap::wrap_line;
use crate::mermaid::what_differs::{Comparison, Row, compare};
use crate::quiz::MermaidOption;
use crate::text::{display_width, plural, sanitize_line};

/// What an option that has nothing in a difference's place shows.
pub const MISSING: &str = "missing";

/// The comparison of `options` as lines at most `width` columns wide.
pub fn lines(options: &[MermaidOption], width: usize, theme: Theme) -> Vec<Line<'static>> {
    let sources: Vec<&str> = options.iter().map(|o| o.source.as_str()).collect();
    let comparison = compare(&sources);
    let labels: Vec<String> = options.iter().map(|o| sanitize_line(&o.label)).collect();
    let mut out = wrap_line(
        &Line::styled(summary(&comparison, &labels), theme.dim()),
        width.max(8),
    );
    let names = |group: &[usize]| {
        group
            .iter()
            .filter_map(|&i| labels.get(i).map(String::as_str))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let groups: Vec<Vec<(Vec<usize>, Option<&str>)>> = comparison
        .rows
        .iter()
        .map(|r| r.groups(&comparison.unread))
        .collect();
    // The options' names in one column, as wide as the widest group (within reason).
    let column = groups
        .iter()
        .flatten()
        .map(|(g, _)| display_width(&names(g)))
        .max()
        .unwrap_or(1)
        .min(width / 3)
        + 2;
    for (n, (row, groups)) in comparison.rows.iter().zip(&groups).enumerate() {
        out.extend(heading(n + 1, row, width, theme));
        for (group, has) in groups {
            let lead = format!("  {:<column$}", names(group));
            let (text, style) = match has {
                Some(text) => (sanitize_line(text), Style::new()),
                None => (MISSING.to_string(), theme.dim()),
            };
            let room = width.saturating_sub(display_width(&lead)).max(8);
            for (k, piece) in wrap_line(&Line::styled(text, style), room)
                .into_iter()
                .enumerate()
            {
                let lead = if k == 0 {
                    Span::styled(lead.clone(), theme.key())
                } else {
                    Span::raw(" ".repeat(display_width(&lead)))
                };
                let mut spans = vec![lead];
                spans.extend(piece.spans);
                out.push(Line::from(spans));
            }
        }
    }
    out
}

/// The first line: how much differs, and what could not be compared.
fn summary(c: &Comparison, labels: &[String]) -> String {
    let unread: Vec<&str> = c
        .unread
        .iter()
        .filter_map(|&i| labels.get(i).map(String::as_str))
        .collect();
    let read = labels.len() - unread.len();
    let mut text = if read < 2 {
        "Too few options read as diagrams to compare them.".to_string()
    } else if c.rows.is_empty() {
        format!(
            "The options say the same: {} in each (drawn alike or not).",
            plural(c.same.len(), "item", "items")
        )
    } else {
        format!(
            "Only what differs: {}; {} the same in all {read}.",
            plural(c.rows.len(), "difference", "differences"),
            plural(c.same.len(), "item", "items")
        )
    };
    match unread.as_slice() {
        [] => {}
        [one] => text.push_str(&format!(" Option {one} is no diagram quizz reads.")),
        many => text.push_str(&format!(
            " Options {} are no diagram quizz reads.",
            many.join(", ")
        )),
    }
    text
}

/// `2. message` or `3. message in another place: A ──▶ B: one`.
fn heading(n: usize, row: &Row, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let text = match &row.moved {
        Some(item) => format!(
            "{n}. {} in another place: {}",
            row.kind.word(),
            sanitize_line(item)
        ),
        None => format!("{n}. {}", row.kind.word()),
    };
    wrap_line(&Line::styled(text, theme.dim()), width.max(8))
}
