use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::chrome;
use crate::text::sanitize_line;
use crate::tui::action::Action;
use crate::tui::app::{App, GradeRow};
use crate::tui::keymap::{Context, key_for};
use crate::tui::markdown;
use ratatui::style::Style;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let [main, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let Some(grading) = &app.grading else { return };
    let spin = SPINNER[app.spinner % SPINNER.len()];
    let width = usize::from(main.width.saturating_sub(1)).max(1);
    let grader = app
        .settings
        .grader
        .as_ref()
        .map(|g| format!(" · {} · model {}", g.backend, g.model))
        .unwrap_or_default();
    let title = format!(
        "Grading open answers · {:.0}s{grader}",
        app.elapsed(grading.started).as_secs_f32(),
    );
    let mut lines = markdown::plain(&title, width, theme.title());
    lines.extend(markdown::plain(
        &format!(
            "Closed questions are graded already; open answers go to the grader. {} stops and keeps them pending.",
            key_for(Context::Grading, &Action::StopGrading)
        ),
        width,
        Style::new(),
    ));
    lines.push(Line::default());
    for (id, row) in &grading.rows {
        let (glyph, text, style) = match row {
            GradeRow::Waiting => ("·".to_string(), "waiting".to_string(), theme.dim()),
            GradeRow::Running { since } => (
                spin.to_string(),
                format!("grading… {:.0}s", app.elapsed(*since).as_secs_f32()),
                theme.key(),
            ),
            GradeRow::Done { score } => ("✓".to_string(), format!("{score}%"), theme.right()),
            GradeRow::Failed { reason } => (
                "✗".to_string(),
                format!("failed: {}", sanitize_line(reason)),
                theme.wrong(),
            ),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {glyph} "), style),
            Span::raw(format!("{:<8} ", sanitize_line(id))),
            Span::styled(text, style),
        ]));
    }
    frame.render_widget(
        Paragraph::new(lines),
        main.inner(ratatui::layout::Margin::new(1, 0)),
    );
    chrome::footer(frame, footer, app);
}
