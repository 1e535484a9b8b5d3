//! Prompts are markdown: rendered by tui-markdown, with our styles, wrapped to the width.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use tui_markdown::{Options, StyleSheet};

use super::theme::Theme;
use super::wrap::wrap_line;
use crate::text::sanitize;

#[derive(Clone)]
struct Sheet(Theme);

impl StyleSheet for Sheet {
    fn heading(&self, _level: u8) -> Style {
        self.0.title()
    }
    fn code(&self) -> Style {
        self.0.code()
    }
    fn link(&self) -> Style {
        Style::new().add_modifier(Modifier::UNDERLINED)
    }
    fn blockquote(&self) -> Style {
        self.0.dim()
    }
}

/// Markdown (untrusted: control sequences are stripped first) as wrapped, owned lines.
pub fn render(markdown: &str, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let clean = sanitize(markdown.trim());
    let text = tui_markdown::from_str_with_options(&clean, &Options::new(Sheet(theme)));
    let mut out = Vec::new();
    for line in &text.lines {
        let owned = Line::from(
            line.spans
                .iter()
                .map(|s| {
                    Span::styled(
                        s.content.to_string(),
                        theme.adapt(text.style.patch(line.style).patch(s.style)),
                    )
                })
                .collect::<Vec<_>>(),
        );
        out.extend(wrap_line(&owned, width));
    }
    out
}

/// Plain text (untrusted) as wrapped lines in one style.
pub fn plain(text: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    sanitize(text)
        .lines()
        .flat_map(|l| wrap_line(&Line::from(Span::styled(l.to_string(), style)), width))
        .collect()
}
