//! Word wrapping of styled lines by display width, so scroll offsets are known up front.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Wraps `line` to `width` columns at spaces; words longer than a row are cut.
pub fn wrap_line(line: &Line<'_>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut rows: Vec<Line<'static>> = Vec::new();
    let mut row: Vec<Span<'static>> = Vec::new();
    let mut row_width = 0;
    for span in &line.spans {
        let style = line.style.patch(span.style);
        for word in split_keep_spaces(&span.content) {
            let w = crate::text::display_width(word);
            if row_width + w > width && row_width > 0 {
                rows.push(Line::from(std::mem::take(&mut row)));
                row_width = 0;
                if word.trim().is_empty() {
                    continue; // a space at the start of a row is dropped
                }
            }
            if w > width {
                // A word wider than a row: cut it by characters.
                let mut piece = String::new();
                for c in word.chars() {
                    let cw = c.width().unwrap_or(0);
                    if row_width + cw > width {
                        row.push(Span::styled(std::mem::take(&mut piece), style));
                        rows.push(Line::from(std::mem::take(&mut row)));
                        row_width = 0;
                    }
                    piece.push(c);
                    row_width += cw;
                }
                row.push(Span::styled(piece, style));
            } else {
                row.push(Span::styled(word.to_string(), style));
                row_width += w;
            }
        }
    }
    rows.push(Line::from(row));
    rows
}

/// Splits into words and the runs of spaces between them, keeping both.
fn split_keep_spaces(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_space = None;
    for (i, c) in text.char_indices() {
        let space = c == ' ';
        if in_space.is_some_and(|s| s != space) {
            parts.push(&text[start..i]);
            start = i;
        }
        in_space = Some(space);
    }
    if start < text.len() {
        parts.push(&text[start..]);
    }
    parts
}

/// `lines` behind a label: the first row starts with `label` (padded to `width`), the
/// others with as many spaces, so wrapped text keeps its indent.
pub fn labelled(
    label: Span<'static>,
    width: usize,
    lines: Vec<Line<'static>>,
) -> Vec<Line<'static>> {
    let pad = width.saturating_sub(crate::text::display_width(&label.content));
    let mut first = Some(label);
    lines
        .into_iter()
        .map(|line| {
            let lead = match first.take() {
                Some(label) => vec![label, Span::raw(" ".repeat(pad))],
                None => vec![Span::raw(" ".repeat(width))],
            };
            let mut spans = lead;
            spans.extend(line.spans);
            Line::from(spans).style(line.style)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(rows: &[Line<'_>]) -> Vec<String> {
        rows.iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        let line = Line::from("the quick brown fox");
        assert_eq!(texts(&wrap_line(&line, 10)), ["the quick ", "brown fox"]);
        let long = Line::from("abcdefghijkl");
        assert_eq!(texts(&wrap_line(&long, 5)), ["abcde", "fghij", "kl"]);
    }

    #[test]
    fn wide_characters_count_two_columns() {
        let line = Line::from("日本語 テキスト");
        for row in wrap_line(&line, 6) {
            assert!(row.width() <= 6, "{row:?}");
        }
    }
}
