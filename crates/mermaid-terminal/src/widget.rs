//! A ratatui widget of a rendered diagram (feature `ratatui`): the crate's styled lines as
//! ratatui text, each [`Style`] mapped to a ratatui style by a function the caller picks.
//!
//! ```
//! use mermaid_terminal::{RenderOptions, render, widget::Diagram};
//! use ratatui_core::{buffer::Buffer, layout::Rect, widgets::Widget};
//!
//! let drawn = render("graph LR\n  A --> B", &RenderOptions { width: 40, ascii: false });
//! let area = Rect::new(0, 0, 40, 5);
//! let mut buf = Buffer::empty(area);
//! Diagram::new(&drawn).render(area, &mut buf);
//! ```

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::style::{Color, Modifier, Style as TuiStyle};
use ratatui_core::text::{Line as TuiLine, Span as TuiSpan};
use ratatui_core::widgets::Widget;

use crate::{Line, Rendered, Style};

/// Maps the crate's styles to ratatui's.
pub type Styles = fn(Style) -> TuiStyle;

/// Bold names, cyan arrows, italic notes, dark-grey frames, a yellow warning.
pub fn default_styles(style: Style) -> TuiStyle {
    match style {
        Style::Plain | Style::Label => TuiStyle::new(),
        Style::Participant => TuiStyle::new().add_modifier(Modifier::BOLD),
        Style::Arrow => TuiStyle::new().fg(Color::Cyan),
        Style::Note => TuiStyle::new().add_modifier(Modifier::ITALIC),
        Style::Border | Style::Block | Style::Dim => TuiStyle::new().fg(Color::DarkGray),
        Style::Warning => TuiStyle::new().fg(Color::Yellow),
    }
}

/// One rendered row as a ratatui line.
pub fn to_line(line: &Line, styles: Styles) -> TuiLine<'static> {
    TuiLine::from(
        line.spans
            .iter()
            .map(|s| TuiSpan::styled(s.text.clone(), styles(s.style)))
            .collect::<Vec<_>>(),
    )
}

/// A rendered diagram drawn from its top-left corner, clipped to the area, scrolled by
/// whole rows.
#[derive(Debug, Clone, Copy)]
pub struct Diagram<'a> {
    lines: &'a [Line],
    styles: Styles,
    scroll: usize,
}

impl<'a> Diagram<'a> {
    /// The lines of a rendering, in [`default_styles`].
    pub fn new(rendered: &'a Rendered) -> Self {
        Diagram::lines(&rendered.lines)
    }

    /// Any styled lines (a rendering's, or some of them).
    pub fn lines(lines: &'a [Line]) -> Self {
        Diagram {
            lines,
            styles: default_styles,
            scroll: 0,
        }
    }

    /// Map the crate's styles with `styles` instead (a theme's colours).
    #[must_use]
    pub fn styles(mut self, styles: Styles) -> Self {
        self.styles = styles;
        self
    }

    /// Start `rows` rows down.
    #[must_use]
    pub fn scroll(mut self, rows: usize) -> Self {
        self.scroll = rows;
        self
    }
}

impl Diagram<'_> {
    fn draw(&self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        let rows = self.lines.iter().skip(self.scroll);
        for (y, line) in (area.top()..area.bottom()).zip(rows) {
            buf.set_line(area.x, y, &to_line(line, self.styles), area.width);
        }
    }
}

impl Widget for Diagram<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        self.draw(area, buf);
    }
}

impl Widget for &Diagram<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        self.draw(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RenderOptions, render};

    fn row(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol())
            .collect::<String>()
    }

    #[test]
    fn draws_the_rendered_rows_with_their_styles_clipped_to_the_area() {
        let opts = RenderOptions {
            width: 30,
            ascii: false,
        };
        let drawn = render("sequenceDiagram\n  Alice->>Bob: hello", &opts);
        let area = Rect::new(0, 0, 30, 3);
        let mut buf = Buffer::empty(area);
        Diagram::new(&drawn).render(area, &mut buf);
        for (y, line) in (0..3).zip(&drawn.lines) {
            assert_eq!(row(&buf, y).trim_end(), line.text().trim_end());
        }
        // A participant's name is bold, as default_styles says.
        let name_row = (0..3).find(|&y| row(&buf, y).contains("Alice")).unwrap();
        let x = u16::try_from(row(&buf, name_row).find("Alice").unwrap()).unwrap();
        assert!(buf[(x, name_row)].modifier.contains(Modifier::BOLD));
    }

    #[test]
    fn scrolls_by_rows_and_maps_styles_with_the_callers_function() {
        let opts = RenderOptions {
            width: 30,
            ascii: true,
        };
        let drawn = render("graph TD\n  A[Start] --> B[Stop]", &opts);
        let area = Rect::new(0, 0, 30, 2);
        let mut buf = Buffer::empty(area);
        Diagram::new(&drawn)
            .scroll(1)
            .styles(|_| TuiStyle::new().fg(Color::Red))
            .render(area, &mut buf);
        assert_eq!(row(&buf, 0).trim_end(), drawn.lines[1].text().trim_end());
        let x = u16::try_from(row(&buf, 0).find(|c: char| c != ' ').unwrap()).unwrap();
        assert_eq!(buf[(x, 0)].fg, Color::Red);
    }
}
