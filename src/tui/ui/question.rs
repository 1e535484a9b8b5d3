use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::layout::question_areas;
use super::{chrome, position_title};
use crate::quiz::QuestionKind;
use crate::tui::app::App;
use crate::tui::{body, markdown};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let Some(q) = app.question() else { return };
    let open = matches!(q.kind, QuestionKind::Open { .. });
    let areas = question_areas(area, open);
    if let Some(header) = areas.header {
        let mut title = position_title(app);
        if app.session.is_flagged(&q.id) {
            title.push_str(" · ⚑ flagged");
        }
        if app.session.busy().is_some() {
            title.push_str(" · read-only (T takes over)");
        }
        chrome::header(frame, header, app, &title);
    }
    chrome::strip(frame, areas.strip, app);

    let width = usize::from(areas.body.width.saturating_sub(2)).max(1);
    let built = body::build(app, width);
    // A body taller than its area gives up its last row to say so.
    let height = usize::from(areas.body.height);
    let overflows = built.lines.len() > height;
    let rows = if overflows {
        height.saturating_sub(1)
    } else {
        height
    };
    let max_scroll = built.lines.len().saturating_sub(rows);
    let scroll = usize::from(app.scroll).min(max_scroll);
    let visible: Vec<Line> = built.lines.into_iter().skip(scroll).take(rows).collect();
    let body_area = areas.body.inner(ratatui::layout::Margin::new(1, 0));
    frame.render_widget(Paragraph::new(visible), body_area);
    if overflows {
        let more = match (scroll > 0, scroll < max_scroll) {
            (false, _) => "▼ more below (j/k, PgDn)",
            (true, true) => "▲▼ more (PgUp/PgDn)",
            (true, false) => "▲ more above (PgUp)",
        };
        let label = Line::styled(more, theme.dim()).right_aligned();
        let row = Rect::new(
            areas.body.x,
            areas.body.bottom().saturating_sub(1),
            areas.body.width,
            1,
        );
        frame.render_widget(Paragraph::new(label), row);
    }

    if let Some(answer_area) = areas.answer {
        if let Some(editor) = &app.editor {
            let mut editor = editor.clone();
            editor.set_block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(theme.key())
                    .title(" Your answer — Esc done · Ctrl-E $EDITOR · Ctrl-Z undo "),
            );
            editor.set_cursor_line_style(ratatui::style::Style::new());
            editor.set_cursor_style(theme.cursor());
            frame.render_widget(&editor, answer_area);
        } else {
            let block = Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border())
                .title(" Your answer ");
            let inner = block.inner(answer_area);
            frame.render_widget(block, answer_area);
            let text = app.session.answer(&q.id).filter(|a| !a.trim().is_empty());
            let lines = match text {
                Some(t) => markdown::plain(
                    t,
                    usize::from(inner.width).max(1),
                    ratatui::style::Style::new(),
                ),
                None => vec![Line::styled(
                    "(no answer yet — press Enter or i to write, e for $EDITOR)",
                    theme.dim(),
                )],
            };
            frame.render_widget(Paragraph::new(lines), inner);
        }
    }
    chrome::footer(frame, areas.footer, app);
}
