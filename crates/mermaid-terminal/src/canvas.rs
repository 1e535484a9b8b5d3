//! A character grid with line-joining: segments record which directions they connect in,
//! so crossings and corners get the right box-drawing glyph.

use crate::glyphs::{DOWN, Glyphs, LEFT, LineKind, RIGHT, UP};
use crate::style::{Line, Span, Style};
use crate::text::{clusters, grapheme_width};
use unicode_width::UnicodeWidthChar;

/// A cell's content, `Copy` so rows grow, clone and drop without visiting each cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    Empty,
    /// a one-char grapheme (the common case: no allocation)
    Char(char),
    /// a multi-char grapheme cluster: its index in [`Canvas::clusters`]
    Text(u32),
    /// right half of a wide grapheme
    Cont,
    Lines {
        bits: u8,
        h: LineKind,
        v: LineKind,
        round: bool,
    },
}

#[derive(Debug, Clone, Copy)]
struct Cell {
    content: Content,
    style: Style,
}

const EMPTY: Cell = Cell {
    content: Content::Empty,
    style: Style::Plain,
};

/// The grid. Coordinates are (row, col); writes outside grow the grid.
#[derive(Debug, Clone)]
pub struct Canvas {
    rows: Vec<Vec<Cell>>,
    /// the multi-char grapheme clusters written, referred to by [`Content::Text`]
    clusters: Vec<String>,
    glyphs: Glyphs,
    /// capacity of each new row (fewer reallocations as rows grow)
    row_capacity: usize,
}

impl Canvas {
    pub fn new(glyphs: Glyphs) -> Self {
        Canvas {
            rows: Vec::new(),
            clusters: Vec::new(),
            glyphs,
            row_capacity: 0,
        }
    }

    /// A canvas with room for about `rows` x `cols` cells (it still grows past them).
    pub fn with_capacity(glyphs: Glyphs, rows: usize, cols: usize) -> Self {
        Canvas {
            rows: Vec::with_capacity(rows),
            clusters: Vec::new(),
            glyphs,
            row_capacity: cols,
        }
    }

    /// True when the cell holds a line segment (box borders included).
    pub fn is_line(&self, row: usize, col: usize) -> bool {
        matches!(
            self.cell(row, col),
            Some(Cell {
                content: Content::Lines { .. },
                ..
            })
        )
    }

    /// The line directions a cell joins (`None` when it holds no line).
    pub fn line_bits(&self, row: usize, col: usize) -> Option<u8> {
        match self.cell(row, col)?.content {
            Content::Lines { bits, .. } => Some(bits),
            _ => None,
        }
    }

    /// First and last column holding anything (`None` when blank).
    pub fn col_range(&self) -> Option<(usize, usize)> {
        let blank = |c: &Cell| matches!(c.content, Content::Empty);
        let first = self
            .rows
            .iter()
            .filter_map(|r| r.iter().position(|c| !blank(c)))
            .min()?;
        let last = self
            .rows
            .iter()
            .filter_map(|r| r.iter().rposition(|c| !blank(c)))
            .max()?;
        Some((first, last))
    }

    /// Rows in use.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// Drop the blank rows above the drawing and the blank columns left of it (room kept
    /// for lines that might have gone there).
    pub fn trim_leading(&mut self) {
        let blank = |c: &Cell| matches!(c.content, Content::Empty);
        let top = self
            .rows
            .iter()
            .position(|r| !r.iter().all(blank))
            .unwrap_or(0);
        self.rows.drain(..top);
        let left = self
            .rows
            .iter()
            .filter_map(|r| r.iter().position(|c| !blank(c)))
            .min()
            .unwrap_or(0);
        if left > 0 {
            for r in &mut self.rows {
                r.drain(..left.min(r.len()));
            }
        }
    }

    /// Widest used column + 1.
    pub fn width(&self) -> usize {
        self.rows
            .iter()
            .map(|r| {
                r.iter()
                    .rposition(|c| !matches!(c.content, Content::Empty))
                    .map_or(0, |p| p + 1)
            })
            .max()
            .unwrap_or(0)
    }

    fn cell_mut(&mut self, row: usize, col: usize) -> &mut Cell {
        if self.rows.len() <= row {
            let cap = self.row_capacity;
            self.rows.resize_with(row + 1, || Vec::with_capacity(cap));
        }
        let r = &mut self.rows[row];
        if r.len() <= col {
            r.resize(col + 1, EMPTY);
        }
        &mut r[col]
    }

    fn cell(&self, row: usize, col: usize) -> Option<&Cell> {
        self.rows.get(row).and_then(|r| r.get(col))
    }

    /// The style of a cell that holds something.
    pub fn style_at(&self, row: usize, col: usize) -> Option<Style> {
        self.cell(row, col)
            .filter(|c| !matches!(c.content, Content::Empty))
            .map(|c| c.style)
    }

    /// True when the cell holds nothing.
    pub fn is_empty(&self, row: usize, col: usize) -> bool {
        self.cell(row, col)
            .is_none_or(|c| matches!(c.content, Content::Empty))
    }

    /// True when every cell of `row` in `c0..c1` is empty.
    pub fn is_free(&self, row: usize, c0: usize, c1: usize) -> bool {
        (c0..c1).all(|c| self.is_empty(row, c))
    }

    /// False when the cell surely is no half of a wide grapheme (blank, a line or an ASCII
    /// char: nearly every cell written), to skip [`Self::clear_partner`].
    fn may_have_partner(&self, row: usize, col: usize) -> bool {
        self.cell(row, col).is_some_and(|c| may_be_half(c.content))
    }

    /// Clear a wide grapheme whose half is about to be overwritten.
    fn clear_partner(&mut self, row: usize, col: usize) {
        const BLANK: Cell = Cell {
            content: Content::Char(' '),
            style: Style::Plain,
        };
        let Some(cell) = self.cell(row, col) else {
            return;
        };
        let wide = match cell.content {
            Content::Cont if col > 0 => {
                *self.cell_mut(row, col - 1) = BLANK;
                return;
            }
            Content::Char(ch) => !ch.is_ascii() && UnicodeWidthChar::width(ch) == Some(2),
            Content::Text(i) => grapheme_width(self.cluster(i)) == 2,
            _ => false,
        };
        if wide && self.cell(row, col + 1).is_some() {
            *self.cell_mut(row, col + 1) = BLANK;
        }
    }

    /// Write text starting at (row, col); returns the columns used.
    pub fn text(&mut self, row: usize, col: usize, s: &str, style: Style) -> usize {
        if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            // printable ASCII: a column a char, as `clusters` measures it (without its
            // boxed iterator)
            for (k, ch) in s.chars().enumerate() {
                self.put_cluster(row, col + k, Content::Char(ch), 1, style);
            }
            return s.len();
        }
        let mut c = col;
        for (g, w) in clusters(s) {
            let mut chars = g.chars();
            let content = match (chars.next(), chars.next()) {
                (Some(ch), None) => Content::Char(ch),
                _ => self.add_cluster(g),
            };
            c += self.put_cluster(row, c, content, w, style);
        }
        c - col
    }

    /// Keep a multi-char grapheme cluster; the content that refers to it.
    fn add_cluster(&mut self, g: &str) -> Content {
        self.clusters.push(g.to_string());
        Content::Text((self.clusters.len() - 1) as u32)
    }

    fn cluster(&self, index: u32) -> &str {
        self.clusters.get(index as usize).map_or("", String::as_str)
    }

    fn put_cluster(
        &mut self,
        row: usize,
        c: usize,
        content: Content,
        w: usize,
        style: Style,
    ) -> usize {
        if w == 0 {
            return 0;
        }
        let cell = self.cell_mut(row, c);
        if w == 1 && !may_be_half(cell.content) {
            // the common case: one narrow cell over nothing wide
            *cell = Cell { content, style };
            return w;
        }
        if self.may_have_partner(row, c) {
            self.clear_partner(row, c);
        }
        if w == 2 && self.may_have_partner(row, c + 1) {
            self.clear_partner(row, c + 1);
        }
        *self.cell_mut(row, c) = Cell { content, style };
        if w == 2 {
            *self.cell_mut(row, c + 1) = Cell {
                content: Content::Cont,
                style,
            };
        }
        w
    }

    /// Write one character.
    pub fn put(&mut self, row: usize, col: usize, ch: char, style: Style) {
        let w = UnicodeWidthChar::width(ch).unwrap_or(0).min(2);
        self.put_cluster(row, col, Content::Char(ch), w, style);
    }

    /// Add line connections to a cell (joins with what is there).
    pub fn join(&mut self, row: usize, col: usize, add: u8, kind: LineKind, style: Style) {
        let cell = self.cell_mut(row, col);
        if !may_be_half(cell.content) {
            // a line has no wide partner to clear (most joins cross or extend one)
            join_cell(cell, add, kind, style);
            return;
        }
        self.clear_partner(row, col);
        join_cell(self.cell_mut(row, col), add, kind, style);
    }

    /// Mark a cell's corner as rounded.
    pub fn round(&mut self, row: usize, col: usize) {
        if let Content::Lines { round, .. } = &mut self.cell_mut(row, col).content {
            *round = true;
        }
    }

    /// Horizontal segment between two columns (inclusive); ends connect inward only.
    pub fn hline(&mut self, row: usize, c0: usize, c1: usize, kind: LineKind, style: Style) {
        let (a, b) = if c0 <= c1 { (c0, c1) } else { (c1, c0) };
        if a == b {
            self.join(row, a, LEFT | RIGHT, kind, style);
            return;
        }
        // the row grown to the line's end once, then each cell joined in place (a cell
        // that may be half of a wide grapheme goes the long way, to clear the other half)
        self.cell_mut(row, b);
        for c in a..=b {
            let mut bits = 0;
            if c > a {
                bits |= LEFT;
            }
            if c < b {
                bits |= RIGHT;
            }
            if self.may_have_partner(row, c) {
                self.join(row, c, bits, kind, style);
            } else {
                join_cell(&mut self.rows[row][c], bits, kind, style);
            }
        }
    }

    /// Vertical segment between two rows (inclusive); ends connect inward only.
    pub fn vline(&mut self, col: usize, r0: usize, r1: usize, kind: LineKind, style: Style) {
        let (a, b) = if r0 <= r1 { (r0, r1) } else { (r1, r0) };
        if a == b {
            self.join(a, col, UP | DOWN, kind, style);
            return;
        }
        for r in a..=b {
            let mut bits = 0;
            if r > a {
                bits |= UP;
            }
            if r < b {
                bits |= DOWN;
            }
            self.join(r, col, bits, kind, style);
        }
    }

    /// A rectangle outline.
    pub fn rect(
        &mut self,
        top: usize,
        left: usize,
        bottom: usize,
        right: usize,
        kind: LineKind,
        style: Style,
    ) {
        self.hline(top, left, right, kind, style);
        self.hline(bottom, left, right, kind, style);
        self.vline(left, top, bottom, kind, style);
        self.vline(right, top, bottom, kind, style);
    }

    /// Render to styled lines, trailing spaces trimmed.
    pub fn into_lines(self) -> Vec<Line> {
        self.lines()
    }

    /// The styled lines, trailing spaces trimmed, the canvas kept (a drawing kept for a
    /// stage that may come again is read more than once).
    pub fn lines(&self) -> Vec<Line> {
        // One text buffer and one list of runs, reused for every row: each span's text is
        // then allocated once, at its final size.
        let mut text = String::new();
        let mut runs = Vec::new();
        self.rows
            .iter()
            .map(|row| self.row_line(row, &mut text, &mut runs))
            .collect()
    }

    /// One row as styled spans: a span per run of one style (empty cells are plain
    /// spaces, a wide grapheme's right half adds nothing), trailing spaces cut.
    fn row_line(&self, row: &[Cell], text: &mut String, runs: &mut Vec<(usize, Style)>) -> Line {
        text.clear();
        runs.clear();
        let used = row
            .iter()
            .rposition(|c| !matches!(c.content, Content::Empty))
            .map_or(0, |last| last + 1);
        let mut col = 0;
        while col < used {
            let cell = &row[col];
            if matches!(cell.content, Content::Empty) {
                // a gap (most of a lifeline row): one plain run of spaces, pushed at once
                let gap = row[col..used]
                    .iter()
                    .take_while(|c| matches!(c.content, Content::Empty))
                    .count();
                start_run(runs, text.len(), Style::Plain);
                push_spaces(text, gap);
                col += gap;
                continue;
            }
            col += 1;
            if matches!(cell.content, Content::Cont) {
                continue;
            }
            start_run(runs, text.len(), cell.style);
            match cell.content {
                Content::Char(ch) => text.push(ch),
                Content::Text(i) => text.push_str(self.cluster(i)),
                Content::Lines { bits, h, v, round } => {
                    text.push(self.glyphs.line(bits, h, v, round));
                }
                Content::Empty | Content::Cont => {}
            }
        }
        let end = text.trim_end_matches(' ').len();
        while runs.last().is_some_and(|&(start, _)| start >= end) {
            runs.pop();
        }
        let ends = runs.iter().skip(1).map(|&(start, _)| start).chain([end]);
        let spans = runs
            .iter()
            .zip(ends)
            .map(|(&(start, style), stop)| Span {
                text: text[start..stop].to_string(),
                style,
            })
            .collect();
        Line { spans }
    }
}

/// False when a cell's content surely is no half of a wide grapheme.
fn may_be_half(content: Content) -> bool {
    match content {
        Content::Empty | Content::Lines { .. } => false,
        Content::Char(ch) => !ch.is_ascii(),
        Content::Text(_) | Content::Cont => true,
    }
}

/// Add line connections `add` to a cell: joined with the line there, else a line of
/// `kind` replacing what was there.
fn join_cell(cell: &mut Cell, add: u8, kind: LineKind, style: Style) {
    let horizontal = add & (LEFT | RIGHT) != 0;
    if let Content::Lines { bits, h, v, .. } = &mut cell.content {
        *bits |= add;
        if horizontal {
            *h = kind;
        } else {
            *v = kind;
        }
    } else {
        cell.content = Content::Lines {
            bits: add,
            h: kind,
            v: kind,
            round: false,
        };
        cell.style = style;
    }
}

/// Start a run at byte `at` unless the last one has this style (equal styles merge).
fn start_run(runs: &mut Vec<(usize, Style)>, at: usize, style: Style) {
    if runs.last().is_none_or(|&(_, last)| last != style) {
        runs.push((at, style));
    }
}

/// Append `n` spaces.
fn push_spaces(text: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > 0 {
        let chunk = left.min(SPACES.len());
        text.push_str(&SPACES[..chunk]);
        left -= chunk;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row as (text, style) runs.
    fn runs(canvas: &Canvas) -> Vec<Vec<(String, Style)>> {
        canvas
            .lines()
            .into_iter()
            .map(|l| l.spans.into_iter().map(|s| (s.text, s.style)).collect())
            .collect()
    }

    fn run(text: &str, style: Style) -> (String, Style) {
        (text.to_string(), style)
    }

    #[test]
    fn spans_merge_equal_styles_and_split_at_each_change() {
        let mut c = Canvas::new(Glyphs::new(false));
        // two writes of one style side by side make one span; a gap is a plain space
        c.text(0, 0, "ab", Style::Label);
        c.text(0, 2, "cd", Style::Label);
        c.text(0, 5, "e", Style::Label);
        // a line, then a style change at the very last column
        c.hline(1, 0, 2, LineKind::Solid, Style::Arrow);
        c.put(1, 3, '▶', Style::Label);
        assert_eq!(
            runs(&c),
            vec![
                vec![
                    run("abcd", Style::Label),
                    run(" ", Style::Plain),
                    run("e", Style::Label),
                ],
                vec![run("───", Style::Arrow), run("▶", Style::Label)],
            ]
        );
    }

    #[test]
    fn spans_keep_empty_rows_and_cut_trailing_spaces_of_any_style() {
        let mut c = Canvas::new(Glyphs::new(true));
        c.text(1, 2, "x", Style::Note);
        // spaces written in a style at the end of a row are cut, whatever their style
        c.text(1, 3, "  ", Style::Label);
        c.text(2, 0, "   ", Style::Note);
        c.vline(4, 3, 3, LineKind::Dotted, Style::Block);
        assert_eq!(
            runs(&c),
            vec![
                vec![],
                vec![run("  ", Style::Plain), run("x", Style::Note)],
                vec![],
                vec![run("    ", Style::Plain), run(":", Style::Block)],
            ]
        );
    }

    #[test]
    fn spans_take_a_wide_grapheme_once_and_a_clipped_one_as_a_space() {
        let mut c = Canvas::new(Glyphs::new(false));
        c.text(0, 0, "名前", Style::Participant);
        c.text(0, 4, "e\u{301}", Style::Label);
        // a line over the right half of a wide grapheme leaves a plain space on its left
        c.text(1, 0, "日", Style::Label);
        c.join(1, 1, UP | DOWN, LineKind::Solid, Style::Arrow);
        assert_eq!(
            runs(&c),
            vec![
                vec![
                    run("名前", Style::Participant),
                    run("e\u{301}", Style::Label)
                ],
                vec![run(" ", Style::Plain), run("│", Style::Arrow)],
            ]
        );
        assert!(c.lines().iter().all(|l| l.width() <= 5));
    }

    #[test]
    fn spans_show_a_space_for_a_wide_grapheme_whose_left_half_is_overwritten() {
        let mut c = Canvas::new(Glyphs::new(false));
        c.text(0, 0, "日本", Style::Label);
        c.join(0, 0, LEFT | RIGHT, LineKind::Solid, Style::Arrow);
        // a flag is one cluster of two chars
        c.text(1, 0, "\u{1f1ef}\u{1f1f5}!", Style::Note);
        c.put(1, 0, 'x', Style::Label);
        assert_eq!(
            runs(&c),
            vec![
                vec![
                    run("─", Style::Arrow),
                    run(" ", Style::Plain),
                    run("本", Style::Label),
                ],
                vec![
                    run("x", Style::Label),
                    run(" ", Style::Plain),
                    run("!", Style::Note),
                ],
            ]
        );
    }
}
