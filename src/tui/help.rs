//! The help's text: the keys of the screen under it first, from the keymap table.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::text::display_width;
use crate::tui::app::App;
use crate::tui::keymap::{Context, EMPTY_ANSWER_ROWS, everywhere_rows, help_rows, help_rows_where};
use crate::tui::layout::centered;
use crate::tui::markdown;
use crate::tui::wrap::labelled;

/// The help box: the whole screen up to 110 columns wide.
pub fn help_box(area: Rect) -> Rect {
    centered(area, area.width.min(110), area.height)
}

/// The help's text width and height inside its box.
pub fn help_text_area(area: Rect) -> (usize, usize) {
    let inner = Block::default().borders(Borders::ALL).inner(help_box(area));
    (
        usize::from(inner.width.saturating_sub(1)).max(10),
        usize::from(inner.height),
    )
}

/// The keys of the screen under the help first, then the others, each key once; rows
/// wrap under their description.
pub fn help_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = app.settings.theme;
    let here = app.context_under_help();
    let order = std::iter::once(here).chain(
        Context::ALL
            .into_iter()
            // The help is never open over a terminal too small to draw in.
            .filter(|c| ![here, Context::Help, Context::TooSmall].contains(c)),
    );
    let mut sections: Vec<(String, Vec<(String, &'static str)>)> = order
        .map(|c| {
            let title = if c == here {
                format!("{} (here)", c.title())
            } else {
                c.title().to_string()
            };
            (title, help_rows(c))
        })
        .collect();
    // The screen's own section lists what works on it now; its other keys (`t` on a
    // true/false question, `c` where there is code) follow under their own title.
    if !app.letters_type() {
        let works = help_rows_where(here, &app.hint_filter());
        let elsewhere: Vec<_> = help_rows(here)
            .into_iter()
            .filter(|row| !works.contains(row))
            .collect();
        sections[0].1 = works;
        if !elsewhere.is_empty() {
            sections.insert(
                1,
                (format!("{} (when they apply)", here.title()), elsewhere),
            );
        }
    }
    // Not a row of the table (the key means "back" on a question opened from the review):
    // said while it works, under the screen's own keys.
    if app.writing.as_ref().is_some_and(|w| w.pending() > 0) {
        sections.insert(
            1,
            (
                "While the rest of the quiz is written".into(),
                vec![(
                    crate::tui::keymap::key_label(crate::tui::keymap::STOP_WRITING),
                    "stop writing the rest and take the questions written (asks first); q quits, keeping them too",
                )],
            ),
        );
    }
    // Letters are text on an empty open answer: what works there comes first, then the
    // question keys as they are after Esc.
    if app.letters_type() {
        let mut rows: Vec<(String, &'static str)> = EMPTY_ANSWER_ROWS
            .iter()
            .map(|(keys, help)| ((*keys).to_string(), *help))
            .collect();
        rows.extend(help_rows_where(here, &app.hint_filter()));
        sections[0] = ("An empty open answer (here)".into(), rows);
        sections.insert(
            1,
            (
                format!("{} (after Esc on the empty answer)", here.title()),
                help_rows(here),
            ),
        );
    }
    sections.push((
        "Marks on the question strip".into(),
        crate::tui::ui::chrome::STRIP_MARKS
            .iter()
            .map(|(mark, says)| ((*mark).to_string(), *says))
            .collect(),
    ));
    sections.push(("Everywhere".into(), everywhere_rows()));
    sections.push(("While this help is open".into(), help_rows(Context::Help)));
    let key_width = sections
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(|(k, _)| display_width(k)))
        .max()
        .unwrap_or(0)
        .min(width / 3)
        + 3;
    let mut lines = Vec::new();
    for (title, rows) in sections.into_iter().filter(|(_, rows)| !rows.is_empty()) {
        lines.push(Line::styled(title, theme.title()));
        for (keys, help) in rows {
            let text = markdown::plain(help, width.saturating_sub(key_width).max(10), Style::new());
            lines.extend(labelled(
                Span::styled(format!("  {keys}"), theme.key()),
                key_width,
                text,
            ));
        }
        lines.push(Line::default());
    }
    lines
}
