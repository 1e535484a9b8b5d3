use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::chrome;
use crate::quiz::QuestionKind;
use crate::text::{display_width, sanitize_line};
use crate::tui::app::App;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let [title, list, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let answered = app.session.answered_count();
    let total = app.question_count();
    let missing = total - answered;
    let summary = if missing == 0 {
        format!(" Review: all {total} answered. Enter submits.")
    } else {
        format!(
            " Review: {answered} of {total} answered, {missing} unanswered. Enter submits anyway."
        )
    };
    frame.render_widget(Paragraph::new(Line::styled(summary, theme.title())), title);

    let width = usize::from(list.width);
    let height = usize::from(list.height);
    let first = app.review_cursor.saturating_sub(height.saturating_sub(1));
    let lines: Vec<Line> = app
        .session
        .quiz
        .questions
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, q)| {
            let (glyph, state_style) = if app.session.is_flagged(&q.id) {
                ("⚑ flagged   ", theme.flag())
            } else if app.is_answered(&q.id) {
                ("✓ answered  ", theme.right())
            } else {
                ("· unanswered", theme.warn())
            };
            let answer = app.session.answer(&q.id).map(|a| match &q.kind {
                QuestionKind::Mermaid { .. } => format!("Option {a}"),
                _ => a.to_string(),
            });
            let lead = format!(" {:>2}. {:<7} ", i + 1, q.kind.type_name());
            let used = display_width(&lead) + display_width(glyph) + 2;
            let answer = answer
                .map(|a| clip(&sanitize_line(&a), width.saturating_sub(used)))
                .unwrap_or_default();
            let line = Line::from(vec![
                Span::raw(lead),
                Span::styled(glyph, state_style),
                Span::raw("  "),
                Span::raw(answer),
            ]);
            if i == app.review_cursor {
                line.style(theme.cursor())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list);
    chrome::footer(frame, footer, app);
}

/// Cuts text to `width` columns with an ellipsis.
pub fn clip(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}
