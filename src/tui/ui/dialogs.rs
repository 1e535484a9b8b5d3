//! Overlays: the help (from the keymap table) and the quit confirmation.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::layout::centered;
use crate::text::sanitize_line;
use crate::tui::app::{App, Confirm};
use crate::tui::keymap::{Context, bindings, key_label};

const SECTIONS: [(Context, &str); 7] = [
    (Context::Question, "Questions"),
    (Context::Editing, "Writing an open answer"),
    (Context::Review, "Review"),
    (Context::Overview, "Start"),
    (Context::Grading, "Grading"),
    (Context::Results, "Results"),
    (Context::Confirm, "Asked to confirm"),
];

pub fn help(frame: &mut Frame, area: Rect, app: &App) {
    let theme = app.settings.theme;
    let mut lines = Vec::new();
    for (context, title) in SECTIONS {
        lines.push(Line::styled(title, theme.title()));
        for b in bindings().iter().filter(|b| b.contexts.contains(&context)) {
            let keys = b
                .keys
                .iter()
                .map(|k| key_label(*k))
                .collect::<Vec<_>>()
                .join(" ");
            lines.push(Line::from(vec![
                Span::styled(format!("  {keys:<22}"), theme.key()),
                Span::raw(b.help),
            ]));
        }
        lines.push(Line::default());
    }
    let box_area = centered(area, 78, area.height.saturating_sub(2).max(6));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.key())
        .title(" Keys — ? or Esc closes ");
    let inner_height = usize::from(block.inner(box_area).height);
    let scroll_hint = if lines.len() > inner_height {
        " (more below: widen or heighten the terminal)"
    } else {
        ""
    };
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block.title_bottom(scroll_hint))
            .wrap(Wrap { trim: false }),
        box_area,
    );
}

pub fn confirm(frame: &mut Frame, area: Rect, app: &App, confirm: &Confirm) {
    let theme = app.settings.theme;
    let (title, text, yes, no) = match confirm {
        Confirm::Quit => (
            " Quit? ",
            "Quit now? Your answers are saved: run the same command again to carry on. Nothing is graded yet.".to_string(),
            "quit",
            "stay",
        ),
        Confirm::ClearAnswer { id, chars } => (
            " Clear the answer? ",
            format!(
                "Clear your answer to {} ({chars} character{})? It cannot be brought back.",
                sanitize_line(id),
                if *chars == 1 { "" } else { "s" }
            ),
            "clear",
            "keep it",
        ),
    };
    let box_area = centered(area, 54, 6);
    let lines = vec![
        Line::from(text),
        Line::from(vec![
            Span::styled("y", theme.key()),
            Span::raw(format!(" {yes}   ")),
            Span::styled("n", theme.key()),
            Span::raw(format!(" {no}")),
        ]),
    ];
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.warn())
        .title(title);
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        box_area,
    );
}
