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
        // Tagged so `render` can find inline code again (the tag is removed there).
        self.0.code().add_modifier(CODE_TAG)
    }
    fn link(&self) -> Style {
        Style::new().add_modifier(Modifier::UNDERLINED)
    }
    fn blockquote(&self) -> Style {
        self.0.dim()
    }
}

/// Marks inline code between tui-markdown and us; never drawn.
const CODE_TAG: Modifier = Modifier::SLOW_BLINK;

/// Markdown (untrusted: control sequences are stripped first) as wrapped, owned lines.
/// Prompts, options, explanations, rubrics and feedback all go through here, so they look
/// the same. Without colour, inline code keeps its backticks: `del handler` stays code.
pub fn render(markdown: &str, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let clean = sanitize(markdown.trim());
    let text = tui_markdown::from_str_with_options(&clean, &Options::new(Sheet(theme)));
    let mut out = Vec::new();
    for line in &text.lines {
        let owned = Line::from(
            line.spans
                .iter()
                .map(|s| {
                    let style = text.style.patch(line.style).patch(s.style);
                    let code = style.add_modifier.contains(CODE_TAG);
                    let style = theme.adapt(style.remove_modifier(CODE_TAG));
                    let content = if code && theme.no_color {
                        format!("`{}`", s.content)
                    } else {
                        s.content.to_string()
                    };
                    Span::styled(content, style)
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
