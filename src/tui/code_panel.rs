//! The code panel's text: the anchored lines of the question's file with a little
//! context, numbered, highlighted, long lines wrapped. Measured by the view; drawn by
//! `ui::code`.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::code::{Code, TokenKind};
use crate::text::display_width;
use crate::tui::theme::Theme;

/// The panel rows (wrapped, as drawn) where the anchored lines start and end:
/// `(first row, rows through the last)`.
pub fn anchor_rows(code: &Code, width: usize) -> (usize, usize) {
    let Code::Snippet(s) = code else {
        return (0, 0);
    };
    let room = width.saturating_sub(s.number_width() + 2).max(4);
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

/// The panel's lines for `width` columns: long code lines wrap under a dotted rule, so
/// nothing is cut off.
pub fn lines(code: &Code, theme: Theme, width: usize) -> Vec<Line<'static>> {
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
