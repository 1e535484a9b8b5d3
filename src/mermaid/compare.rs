//! Where the options of a question differ from each other, for a "differences" highlight.
//!
//! [`differences`] takes the options as rendered (one form for all, see
//! [`render_options`](crate::mermaid::render_options)) and returns, for each option, the
//! display-column ranges of each of its rows to highlight. It says where the options
//! differ, never which one is right: the marks are symmetric.
//!
//! - Compact lists and source (or options in different forms): whole rows. A row is marked
//!   when some other option has no matching row in the same order (a longest common
//!   subsequence of rows, pair by pair).
//! - Drawings: cells. Rows are aligned pair by pair (an edit-distance alignment that costs
//!   the cells that differ, so an inserted box shifts the rows below it without marking
//!   them), then aligned rows are compared cell by cell along a longest common subsequence
//!   (so a box shifted by a longer label is not marked, the label is), and every drawn cell
//!   of a row with no counterpart is marked.

use std::ops::Range;

use crate::mermaid::style::Line;
use crate::mermaid::text::clusters;
use crate::mermaid::{Form, Rendered};

/// Per row of an option's lines: the display-column ranges that differ from the other
/// options (empty: the row reads the same in all of them). In a drawing a range may run
/// past the row's text: there another option draws something this one does not.
pub type Marks = Vec<Vec<Range<usize>>>;

/// For each option, where it differs from the others (see the module documentation).
/// Options are compared in the form they were rendered in; `marks[i][row]` lines up with
/// `options[i].lines[row]`.
pub fn differences(options: &[Rendered]) -> Vec<Marks> {
    let lines: Vec<&[Line]> = options.iter().map(|r| r.lines.as_slice()).collect();
    let cells = !options.is_empty() && options.iter().all(|r| r.form == Form::Drawing);
    if cells {
        cell_marks(&lines)
    } else {
        row_marks(&lines)
    }
}

/// The share of an option's drawn (non-blank) cells that carry a mark: near 1 when the
/// drawings are laid out so differently that marks land nearly everywhere.
pub fn marked_share(lines: &[Line], marks: &Marks) -> f64 {
    let drawn: usize = lines
        .iter()
        .map(|l| l.text().chars().filter(|c| !c.is_whitespace()).count())
        .sum();
    let marked: usize = marks.iter().flatten().map(ExactSizeIterator::len).sum();
    #[allow(clippy::cast_precision_loss)] // cell counts are small
    let share = marked as f64 / drawn.max(1) as f64;
    share
}

/// Whole-row marks for lists: rows outside a common subsequence with some other option.
pub fn row_marks(options: &[&[Line]]) -> Vec<Marks> {
    let texts: Vec<Vec<String>> = options
        .iter()
        .map(|ls| ls.iter().map(|l| l.text().trim_end().to_string()).collect())
        .collect();
    let mut differ: Vec<Vec<bool>> = texts.iter().map(|t| vec![false; t.len()]).collect();
    for i in 0..texts.len() {
        for j in i + 1..texts.len() {
            let (in_a, in_b) = common_rows(&texts[i], &texts[j]);
            for (d, keep) in differ[i].iter_mut().zip(in_a) {
                *d |= !keep;
            }
            for (d, keep) in differ[j].iter_mut().zip(in_b) {
                *d |= !keep;
            }
        }
    }
    options
        .iter()
        .zip(differ)
        .map(|(ls, d)| {
            ls.iter()
                .zip(d)
                .map(|(l, d)| {
                    let w = l.width();
                    let mut marks = Vec::new();
                    if d && w > 0 {
                        marks.push(0..w);
                    }
                    marks
                })
                .collect()
        })
        .collect()
}

/// Which rows of `a` and of `b` belong to a longest common subsequence of the two.
fn common_rows(a: &[String], b: &[String]) -> (Vec<bool>, Vec<bool>) {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: length of the LCS of a[i..] and b[j..]
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut in_a, mut in_b) = (vec![false; n], vec![false; m]);
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            in_a[i] = true;
            in_b[j] = true;
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    (in_a, in_b)
}

/// A row as one string per display column (`""` for the right half of a wide grapheme).
fn grid_row(line: &Line) -> Vec<String> {
    let mut out = Vec::new();
    for span in &line.spans {
        for (g, w) in clusters(&span.text) {
            if w == 0 {
                if let Some(last) = out.last_mut() {
                    let last: &mut String = last;
                    last.push_str(g);
                }
                continue;
            }
            out.push(g.to_string());
            if w == 2 {
                out.push(String::new());
            }
        }
    }
    out
}

fn blank(c: Option<&String>) -> bool {
    c.is_none_or(|c| c == " ")
}

/// Cells of row `a` that differ from row `b`.
fn differing(a: &[String], b: &[String]) -> usize {
    (0..a.len().max(b.len()))
        .filter(|&k| {
            let (x, y) = (a.get(k), b.get(k));
            !(x == y || blank(x) && blank(y))
        })
        .count()
}

/// Cells drawn in a row (what a row with no counterpart costs).
fn drawn(a: &[String]) -> usize {
    a.iter().filter(|c| !blank(Some(c))).count()
}

/// Rows of `a` matched to rows of `b` in order, at the least cost of differing cells.
fn align(a: &[Vec<String>], b: &[Vec<String>]) -> Vec<Option<usize>> {
    let (n, m) = (a.len(), b.len());
    let gap_a: Vec<usize> = a.iter().map(|r| drawn(r) + 1).collect();
    let gap_b: Vec<usize> = b.iter().map(|r| drawn(r) + 1).collect();
    // cost[i][j]: least cost of aligning a[i..] with b[j..]
    let mut cost = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        cost[i][m] = cost[i + 1][m] + gap_a[i];
    }
    for j in (0..m).rev() {
        cost[n][j] = cost[n][j + 1] + gap_b[j];
    }
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let pair = if a[i] == b[j] {
                0
            } else {
                differing(&a[i], &b[j])
            };
            cost[i][j] = (cost[i + 1][j + 1] + pair)
                .min(cost[i + 1][j] + gap_a[i])
                .min(cost[i][j + 1] + gap_b[j]);
        }
    }
    let mut matched = vec![None; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let pair = if a[i] == b[j] {
            0
        } else {
            differing(&a[i], &b[j])
        };
        if cost[i][j] == cost[i + 1][j + 1] + pair {
            matched[i] = Some(j);
            i += 1;
            j += 1;
        } else if cost[i][j] == cost[i + 1][j] + gap_a[i] {
            i += 1;
        } else {
            j += 1;
        }
    }
    matched
}

/// Cell marks for drawings.
pub fn cell_marks(options: &[&[Line]]) -> Vec<Marks> {
    let grids: Vec<Vec<Vec<String>>> = options
        .iter()
        .map(|ls| ls.iter().map(grid_row).collect())
        .collect();
    let mut marked: Vec<Vec<Vec<bool>>> = grids
        .iter()
        .map(|g| g.iter().map(|r| vec![false; r.len()]).collect())
        .collect();
    for i in 0..grids.len() {
        for j in 0..grids.len() {
            if i == j {
                continue;
            }
            let (a, b) = (&grids[i], &grids[j]);
            for (ra, m) in align(a, b).into_iter().enumerate() {
                let row = &a[ra];
                let differs = match m {
                    Some(rb) => cells_apart(row, &b[rb]),
                    None => row.iter().map(|c| !blank(Some(c))).collect(),
                };
                let flags = &mut marked[i][ra];
                for (flag, d) in flags.iter_mut().zip(differs) {
                    *flag |= d;
                }
            }
        }
    }
    marked
        .into_iter()
        .map(|rows| rows.into_iter().map(|r| ranges(&r)).collect())
        .collect()
}

/// The cells of row `a` outside a longest common subsequence with row `b` (the shorter
/// one taken as padded with blanks): what a shifted box or a longer label moves along is
/// kept, what changed is marked.
fn cells_apart(a: &[String], b: &[String]) -> Vec<bool> {
    if a == b {
        return vec![false; a.len()];
    }
    let len = a.len().max(b.len());
    let same = |i: usize, j: usize| {
        let (x, y) = (a.get(i), b.get(j));
        x == y || blank(x) && blank(y)
    };
    // lcs[i][j]: longest common subsequence of a[i..] and b[j..]
    let w = len + 1;
    let mut lcs = vec![0u16; w * w];
    for i in (0..len).rev() {
        for j in (0..len).rev() {
            lcs[i * w + j] = if same(i, j) {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut differs = vec![true; len];
    let (mut i, mut j) = (0, 0);
    while i < len && j < len {
        if same(i, j) {
            differs[i] = false;
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    differs.truncate(a.len());
    differs
}

/// Runs of `true` as ranges.
fn ranges(flags: &[bool]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (k, &f) in flags.iter().enumerate() {
        if !f {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.end == k => r.end = k + 1,
            _ => out.push(k..k + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mermaid::{RenderOptions, render_options};

    fn opts(width: usize) -> RenderOptions {
        RenderOptions {
            width,
            ascii: false,
        }
    }

    #[test]
    fn rows_that_differ_in_lists() {
        let a = [Line::styled("A ──▶ B", crate::mermaid::Style::Plain)];
        let b = [Line::styled("A ┄┄▶ B", crate::mermaid::Style::Plain)];
        let same = [Line::styled("A ──▶ B", crate::mermaid::Style::Plain)];
        let marks = row_marks(&[&a, &b, &same]);
        assert_eq!(marks[0], vec![vec![0..7]]);
        assert_eq!(marks[1], vec![vec![0..7]]);
        assert_eq!(marks[2], vec![vec![0..7]]);
        let marks = row_marks(&[&a, &same]);
        assert!(marks.iter().flatten().all(Vec::is_empty));
    }

    #[test]
    fn drawings_mark_only_the_cells_that_differ() {
        let a = "graph LR\nA[start] --> B[end]";
        let b = "graph LR\nA[start] -.-> B[end]";
        let r = render_options(&[a, b, a, a], &opts(80));
        assert!(r.iter().all(|r| r.form == Form::Drawing));
        let marks = differences(&r);
        let marked = |m: &Marks| {
            m.iter()
                .flatten()
                .map(ExactSizeIterator::len)
                .sum::<usize>()
        };
        // the shaft differs (and the legend only the dotted option has), nothing else
        assert!(marked(&marks[1]) > 0);
        assert!(marked(&marks[1]) < 40, "{:?}", marks[1]);
        assert_eq!(marked(&marks[0]), marked(&marks[2]));
    }

    #[test]
    fn an_inserted_row_shifts_without_marking_the_rest() {
        let a = "sequenceDiagram\nA->>B: one\nB-->>A: two";
        let b = "sequenceDiagram\nA->>B: one\nB->>A: new\nB-->>A: two";
        let r = render_options(&[a, b], &opts(60));
        let marks = differences(&r);
        let rows_marked = |m: &Marks| m.iter().filter(|r| !r.is_empty()).count();
        // the new message's label and arrow rows
        assert_eq!(rows_marked(&marks[1]), 2, "{:?}", marks[1]);
        assert_eq!(rows_marked(&marks[0]), 0, "{:?}", marks[0]);
    }
}
