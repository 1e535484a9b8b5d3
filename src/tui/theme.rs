//! Styles, with and without colour. Meaning never rides on colour alone: every state also
//! has a glyph or a word, and under `NO_COLOR` no colour is emitted at all.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub no_color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set to anything non-empty (no-color.org).
    pub fn from_env() -> Self {
        Self {
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }

    fn color(self, style: Style, color: Color) -> Style {
        if self.no_color {
            style
        } else {
            style.fg(color)
        }
    }

    /// Removes colours from a style made elsewhere (markdown, diagrams) under `NO_COLOR`.
    pub fn adapt(self, style: Style) -> Style {
        if self.no_color {
            Style {
                fg: None,
                bg: None,
                underline_color: None,
                ..style
            }
        } else {
            style
        }
    }

    pub fn title(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
    }
    pub fn dim(self) -> Style {
        if self.no_color {
            Style::new()
        } else {
            Style::new().fg(Color::DarkGray)
        }
    }
    pub fn key(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }
    /// The row under the cursor.
    pub fn cursor(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }
    /// The chosen option.
    pub fn chosen(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Green)
    }
    pub fn right(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Green)
    }
    /// Answered, not judged: not the green that says right.
    pub fn answered(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Cyan)
    }
    pub fn wrong(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Red)
    }
    pub fn flag(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Magenta)
    }
    pub fn warn(self) -> Style {
        self.color(Style::new().add_modifier(Modifier::BOLD), Color::Yellow)
    }
    pub fn code(self) -> Style {
        self.color(Style::new(), Color::Yellow)
    }
    pub fn border(self) -> Style {
        self.dim()
    }
}
