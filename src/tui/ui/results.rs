use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::chrome;
use crate::quiz::QuestionKind;
use crate::text::sanitize_line;
use crate::tui::app::{App, GradeRow};
use crate::tui::markdown;
use crate::tui::wrap::wrap_line;

/// The text's width and height on the results screen.
pub fn text_area(area: Rect) -> (usize, usize) {
    let [main, _] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    (
        usize::from(main.width.saturating_sub(2)).max(10),
        usize::from(main.height),
    )
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let [main, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let (width, _) = text_area(area);
    let lines = lines(app, width);
    let max_scroll = lines.len().saturating_sub(usize::from(main.height));
    let scroll = usize::from(app.scroll).min(max_scroll);
    let visible: Vec<Line> = lines
        .into_iter()
        .skip(scroll)
        .take(usize::from(main.height))
        .collect();
    frame.render_widget(
        Paragraph::new(visible),
        main.inner(ratatui::layout::Margin::new(1, 0)),
    );
    chrome::footer(frame, footer, app);
}

/// A bar of `score` percent in `cells` cells; the number is always printed beside it.
fn bar(score: u32, cells: usize) -> String {
    let filled = (score.min(100) as usize * cells).div_ceil(100);
    format!("{}{}", "█".repeat(filled), "░".repeat(cells - filled))
}

#[allow(clippy::too_many_lines)] // one block per question, read top to bottom
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = app.settings.theme;
    let Some(results) = &app.results else {
        return Vec::new();
    };
    let quiz = &app.session.quiz;
    let correct = results.per_question.iter().filter(|r| r.correct).count();
    let total = Line::from(vec![
        Span::styled(format!("Total {}%", results.total_score), theme.title()),
        Span::raw(format!(" · {correct} of {} correct", quiz.questions.len())),
        Span::styled(
            if results.pending.is_empty() {
                String::new()
            } else {
                format!(" · provisional: {} pending", results.pending.len())
            },
            theme.warn(),
        ),
    ]);
    let mut out = wrap_line(&total, width);
    out.extend(markdown::plain(
        &format!("Next: {}", app.settings.after_grading),
        width,
        theme.dim(),
    ));
    if !results.pending.is_empty() {
        let later = format!(
            "Pending open answers: grade them later with `{}`",
            app.settings.grade_later
        );
        out.extend(markdown::plain(&later, width, theme.warn()));
    }
    let bar_cells = if width >= 70 { 20 } else { 10 };
    for (i, q) in quiz.questions.iter().enumerate() {
        out.push(Line::default());
        let id = sanitize_line(&q.id);
        let head = if let Some(r) = results.result(&q.id) {
            let (mark, style) = if r.correct {
                ("✓ right", theme.right())
            } else {
                ("✗ wrong", theme.wrong())
            };
            Line::from(vec![
                Span::styled(format!("{:>2}. {mark} ", i + 1), style),
                Span::raw(format!("{id} · {} ", q.kind.type_name())),
                Span::styled(bar(r.score, bar_cells), style),
                Span::raw(format!(" {:>3}%", r.score)),
            ])
        } else if results.pending.contains(&q.id) {
            let failed = app
                .grading
                .as_ref()
                .and_then(|g| g.rows.iter().find(|(rid, _)| rid == &q.id))
                .and_then(|(_, row)| match row {
                    GradeRow::Failed { reason } => Some(reason.clone()),
                    _ => None,
                });
            let why = failed.map_or_else(
                || "not graded yet".to_string(),
                |r| format!("grading failed: {}", sanitize_line(&r)),
            );
            Line::from(vec![
                Span::styled(format!("{:>2}. … pending ", i + 1), theme.warn()),
                Span::raw(format!("{id} · open · {why}")),
            ])
        } else {
            Line::from(vec![
                Span::styled(format!("{:>2}. – skipped ", i + 1), theme.dim()),
                Span::raw(format!("{id} · not counted")),
            ])
        };
        out.push(head);
        let indent = "      ";
        let inner = width.saturating_sub(indent.len()).max(10);
        let mut field = |label: &str, text: &str, style: Style| {
            for (n, row) in markdown::plain(&format!("{label}{text}"), inner, style)
                .into_iter()
                .enumerate()
            {
                let _ = n;
                let mut spans = vec![Span::raw(indent)];
                spans.extend(row.spans);
                out.push(Line::from(spans));
            }
        };
        let answer = app.session.answer(&q.id).filter(|a| !a.trim().is_empty());
        let shown = |a: &str| match &q.kind {
            QuestionKind::Mermaid { .. } => format!("Option {a}"),
            _ => a.to_string(),
        };
        field(
            "Your answer: ",
            &answer.map_or_else(|| "(none)".to_string(), |a| shown(&sanitize_line(a))),
            Style::new(),
        );
        let result = results.result(&q.id);
        if result.is_some_and(|r| !r.correct)
            && let Some(expected) = q.kind.expected_value()
        {
            field(
                "Correct:     ",
                &shown(&sanitize_line(&expected)),
                theme.right(),
            );
        }
        if let Some(r) = result.filter(|r| !r.feedback.trim().is_empty()) {
            field("Feedback:    ", &sanitize_line(&r.feedback), Style::new());
        }
        if let Some(explanation) = &q.explanation {
            field("Why:         ", &sanitize_line(explanation), theme.dim());
        }
    }
    out
}
