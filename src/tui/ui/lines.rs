//! Pre-wrapped lines into the buffer, faster than a `Paragraph`.
//!
//! The body and the results are wrapped by quizz already, and most of their cells are
//! diagram glyphs and blanks. A `Paragraph` splits every line into graphemes and measures
//! each one; here a character that is its own one-column grapheme (ASCII, box drawing,
//! arrows, blocks, geometric shapes) is written directly, a blank in the default style is
//! left as the reset buffer has it, and only other text takes the grapheme path.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Widget;

use crate::text::display_width;

/// Lines drawn one per row from the top of the area, cut at its right edge.
pub struct Lines<'a>(pub &'a [Line<'a>]);

impl Widget for Lines<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        // A view measured for another size (a resize not handled yet) draws what fits.
        let area = area.intersection(buf.area);
        for (line, y) in self.0.iter().zip(area.top()..area.bottom()) {
            render_line(line, area, y, buf);
        }
    }
}

fn render_line(line: &Line, area: Rect, y: u16, buf: &mut Buffer) {
    let width = || u16::try_from(line.width()).unwrap_or(u16::MAX);
    let mut x = match line.alignment {
        Some(Alignment::Right) => area.right().saturating_sub(width()).max(area.left()),
        Some(Alignment::Center) => area.left() + area.width.saturating_sub(width()) / 2,
        _ => area.left(),
    };
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let plain = style == Style::default();
        let mut chars = span.content.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if x >= area.right() {
                return;
            }
            // A simple character followed by one that may join it (a combining accent)
            // starts the careful path too.
            let joins = chars.peek().is_some_and(|&(_, next)| !is_simple(next));
            if !is_simple(c) || joins {
                // The rest of the span the careful way (graphemes, wide characters).
                let rest = &span.content[i..];
                let room = usize::from(area.right() - x);
                let (end, _) = buf.set_stringn(x, y, rest, room, style);
                x = end;
                break;
            }
            if !(plain && c == ' ') {
                buf[(x, y)].set_char(c).set_style(style);
            }
            x += 1;
        }
    }
}

/// A character that is a one-column grapheme on its own and never joins the next one.
fn is_simple(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{2190}'..='\u{21FF}' | '\u{2500}'..='\u{25FF}')
}

/// Cuts text to `width` columns with an ellipsis.
pub fn clip(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = display_width(c.encode_utf8(&mut [0; 4]));
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Stylize};
    use ratatui::text::Span;
    use ratatui::widgets::Paragraph;

    /// Whatever the text, the cells are those a `Paragraph` would write.
    #[test]
    fn the_cells_are_those_of_a_paragraph() {
        let lines = vec![
            Line::from(vec![Span::raw("┌──┐ plain "), Span::raw("bold").bold()]),
            Line::from("wide 漢字 and é and 👍🏽 then ──▶ more text that is cut at the edge"),
            Line::from(vec![
                Span::styled("   ", Style::new().bg(Color::Red)),
                Span::raw("x"),
            ]),
            Line::from("right").right_aligned(),
            Line::styled("styled line", Style::new().fg(Color::Green)),
            Line::from("e\u{301} combining after an ASCII letter"),
            Line::from(vec![Span::raw("cursor "), Span::raw("row").bold()])
                .style(Style::new().reversed()),
        ];
        let area = Rect::new(2, 1, 30, 8);
        let mut fast = Buffer::empty(Rect::new(0, 0, 34, 10));
        let mut slow = fast.clone();
        Lines(&lines).render(area, &mut fast);
        Paragraph::new(lines.clone()).render(area, &mut slow);
        assert_eq!(fast, slow);
    }
}
