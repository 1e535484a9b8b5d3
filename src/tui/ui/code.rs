//! The code panel: the anchored lines of the question's file with a little context,
//! numbered, highlighted, the anchored lines marked in a column of their own (so the mark
//! survives `NO_COLOR`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::code::{Code, TokenKind};
use crate::text::display_width;
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};
use crate::tui::theme::Theme;

/// The panel's text lines (without its borders) at this terminal size.
pub fn rows(code: &Code, size: (u16, u16), theme: Theme) -> usize {
    lines(code, theme, inner_width(size)).len()
}

/// The panel rows (wrapped, as drawn) where the anchored lines start and end:
/// `(first row, rows through the last)`.
pub fn anchor_rows(code: &Code, size: (u16, u16)) -> (usize, usize) {
    let Code::Snippet(s) = code else {
        return (0, 0);
    };
    let room = inner_width(size)
        .saturating_sub(s.number_width() + 2)
        .max(4);
    let mut row = 0;
    let (mut first, mut end) = (None, 0);
    for (_, marked, tokens) in s.numbered() {
        let width: usize = tokens.iter().map(|t| display_width(&t.text)).sum();
        let rows = width.div_ceil(room).max(1);
        if marked {
            first.get_or_insert(row);
            end = row + rows;
        }
        row += rows;
    }
    (first.unwrap_or(0), end)
}

/// Columns inside the panel: beside the question on wide terminals, else the full width.
pub fn inner_width(size: (u16, u16)) -> usize {
    let outer = crate::tui::layout::code_beside(size.0).unwrap_or(size.0);
    usize::from(outer.saturating_sub(2)).max(12)
}

/// The panel's title: `path:41-47 · at the PR's head`.
fn title(code: &Code) -> (String, String) {
    match code {
        Code::Snippet(s) => (s.title(), format!(" · {}", s.from.label())),
        Code::Note { path, .. } => (path.clone(), String::new()),
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, code: &Code) {
    let theme = app.settings.theme;
    let (path, from) = title(code);
    let lines = lines(
        code,
        theme,
        usize::from(area.width.saturating_sub(2)).max(12),
    );
    let inner_rows = usize::from(area.height.saturating_sub(2));
    let max_scroll = lines.len().saturating_sub(inner_rows);
    let scroll = usize::from(app.code_scroll).min(max_scroll);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(Line::from(vec![
            Span::raw(" "),
            Span::styled(path, theme.title()),
            Span::styled(format!("{from} "), theme.dim()),
        ]));
    if max_scroll > 0 {
        // In the answer box J and K are letters: the panel scrolls once out of it.
        let leave = if app.editor.is_some() {
            format!("{}, then ", key_for(Context::Editing, &Action::StopEditing))
        } else {
            String::new()
        };
        let keys = format!(
            " {leave}{}/{} scroll · {}/{} ",
            key_for(Context::Question, &Action::CodeDown),
            key_for(Context::Question, &Action::CodeUp),
            scroll + 1,
            max_scroll + 1
        );
        block = block.title_bottom(Line::styled(keys, theme.dim()).right_aligned());
    }
    let visible: Vec<Line> = lines.into_iter().skip(scroll).collect();
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(super::lines::Lines(&visible), inner);
}

/// Where the path sits on screen, for a terminal hyperlink over it: `(x, y, text, url)`.
pub fn link(app: &App) -> Option<(u16, u16, String, String)> {
    let Some(Code::Snippet(s)) = app.code() else {
        return None;
    };
    let url = s.url.clone()?;
    let area = crate::tui::body::areas_of(app).code?;
    let text = s.title();
    // The title starts after the corner and a space; it may be cut by a narrow panel.
    let room = usize::from(area.width.saturating_sub(3));
    (display_width(&text) <= room && text.is_ascii()).then(|| (area.x + 2, area.y, text, url))
}

/// The panel's lines for `width` columns: long code lines wrap under a dotted rule, so
/// nothing is cut off.
fn lines(code: &Code, theme: Theme, width: usize) -> Vec<Line<'static>> {
    let s = match code {
        Code::Snippet(s) => s,
        Code::Note { note, .. } => {
            return crate::text::wrap(note, width)
                .into_iter()
                .map(|l| Line::styled(l, theme.warn()))
                .collect();
        }
    };
    let digits = s.number_width();
    let room = width.saturating_sub(digits + 2).max(4);
    let mut out: Vec<Line<'static>> = Vec::new();
    for (n, marked, tokens) in s.numbered() {
        let mark = || {
            if marked {
                Span::styled("▌", theme.key())
            } else {
                Span::raw(" ")
            }
        };
        let number_style = if marked {
            theme.adapt(Style::new().add_modifier(Modifier::BOLD))
        } else {
            theme.dim()
        };
        let mut row = vec![mark(), Span::styled(format!("{n:>digits$} "), number_style)];
        let mut used = 0;
        for t in tokens {
            let style = style_of(t.kind, theme);
            let mut rest = t.text.as_str();
            while !rest.is_empty() {
                if used >= room {
                    out.push(Line::from(std::mem::take(&mut row)));
                    row = vec![
                        mark(),
                        Span::styled(format!("{:>digits$}┆", ""), theme.dim()),
                    ];
                    used = 0;
                }
                let piece = take_columns(rest, room - used);
                used += display_width(piece);
                rest = &rest[piece.len()..];
                row.push(Span::styled(piece.to_string(), style));
            }
        }
        out.push(Line::from(row));
    }
    if s.cut {
        out.push(Line::styled(
            "  (the anchor runs on; the rest is in the file)",
            theme.dim(),
        ));
    }
    out
}

/// The longest start of `text` within `room` columns (at least one character).
fn take_columns(text: &str, room: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w > room && i > 0 {
            return &text[..i];
        }
        used += w;
    }
    text
}

fn style_of(kind: TokenKind, theme: Theme) -> Style {
    if theme.no_color {
        return Style::new();
    }
    let fg = |c: Color| Style::new().fg(c);
    match kind {
        TokenKind::Plain => Style::new(),
        TokenKind::Comment => fg(Color::DarkGray),
        TokenKind::String => fg(Color::Green),
        TokenKind::Number | TokenKind::Constant => fg(Color::Magenta),
        TokenKind::Keyword => fg(Color::Blue).add_modifier(Modifier::BOLD),
        TokenKind::Function => fg(Color::Cyan),
        TokenKind::Type => fg(Color::Yellow),
    }
}
