//! The code panel: the anchored lines of the question's file with a little context,
//! numbered, highlighted, the anchored lines marked in a column of their own (so the mark
//! survives `NO_COLOR`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::code::{Code, TokenKind};
use crate::text::display_width;
use crate::tui::action::Action;
use crate::tui::app::App;
use crate::tui::keymap::{Context, key_for};
use crate::tui::theme::Theme;

/// The panel's text lines (without its borders).
pub fn rows(code: &Code) -> usize {
    match code {
        Code::Snippet(s) => s.lines.len() + usize::from(s.cut),
        Code::Note { .. } => 1,
    }
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
    let lines = lines(code, theme);
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
        let keys = format!(
            " {}/{} scroll · {}/{} ",
            key_for(Context::Question, &Action::CodeDown),
            key_for(Context::Question, &Action::CodeUp),
            scroll + 1,
            max_scroll + 1
        );
        block = block.title_bottom(Line::styled(keys, theme.dim()).right_aligned());
    }
    let visible: Vec<Line> = lines.into_iter().skip(scroll).collect();
    frame.render_widget(Paragraph::new(visible).block(block), area);
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

fn lines(code: &Code, theme: Theme) -> Vec<Line<'static>> {
    let s = match code {
        Code::Snippet(s) => s,
        Code::Note { note, .. } => return vec![Line::styled(note.clone(), theme.warn())],
    };
    let digits = s.number_width();
    let mut out: Vec<Line<'static>> = s
        .numbered()
        .map(|(n, marked, tokens)| {
            let mark = if marked {
                Span::styled("▌", theme.key())
            } else {
                Span::raw(" ")
            };
            let number = Span::styled(
                format!("{n:>digits$} "),
                if marked {
                    theme.adapt(Style::new().add_modifier(Modifier::BOLD))
                } else {
                    theme.dim()
                },
            );
            let mut spans = vec![mark, number];
            spans.extend(
                tokens
                    .iter()
                    .map(|t| Span::styled(t.text.clone(), style_of(t.kind, theme))),
            );
            Line::from(spans)
        })
        .collect();
    if s.cut {
        out.push(Line::styled(
            "  (the anchor runs on; the rest is in the file)",
            theme.dim(),
        ));
    }
    out
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
