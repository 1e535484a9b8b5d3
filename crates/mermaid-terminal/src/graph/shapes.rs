//! Node boxes: each shape keeps a distinct look (corners and sides), in Unicode and ASCII.

use crate::canvas::Canvas;
use crate::glyphs::{DOWN, Glyphs, LineKind, UP};
use crate::graph::model::Shape;
use crate::style::Style;
use crate::text::{display_width, max_width};

/// Text of a node prepared for drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeText {
    pub shape: Shape,
    pub label: Vec<String>,
    pub sections: Vec<Vec<String>>,
}

/// Extra columns a shape's sides take on each side of the text (beyond the border).
fn side_extra(shape: Shape) -> usize {
    match shape {
        Shape::Circle | Shape::Subroutine => 1,
        Shape::DoubleCircle => 2,
        _ => 0,
    }
}

/// Natural (width, height) of a node box.
pub fn size(t: &NodeText) -> (usize, usize) {
    if t.shape.is_point() {
        return (1, 1);
    }
    let sections: Vec<&Vec<String>> = t.sections.iter().filter(|s| !s.is_empty()).collect();
    let text_w = max_width(&t.label).max(sections.iter().map(|s| max_width(s)).max().unwrap_or(0));
    let w = text_w + 4 + 2 * side_extra(t.shape);
    let mut h = t.label.len().max(1) + 2 + sections.iter().map(|s| s.len() + 1).sum::<usize>();
    if t.shape == Shape::Cylinder {
        h += 1;
    }
    (w, h)
}

/// Draw a node with its top-left corner at `at` = (row, col), `size` = (width, height).
pub fn draw(
    canvas: &mut Canvas,
    g: Glyphs,
    t: &NodeText,
    at: (usize, usize),
    size: (usize, usize),
    horizontal: bool,
) {
    if t.shape.is_point() {
        draw_point(canvas, g, t.shape, at, size, horizontal);
        return;
    }
    let body_top = outline(canvas, g, t.shape, at, size);
    let ((_, c0), (w, _)) = (at, size);
    let inner = w - 2;
    let mut r = body_top;
    for line in &t.label {
        let lw = display_width(line);
        canvas.text(
            r,
            c0 + 1 + (inner.saturating_sub(lw)) / 2,
            line,
            Style::Plain,
        );
        r += 1;
    }
    for section in t.sections.iter().filter(|s| !s.is_empty()) {
        canvas.hline(r, c0, c0 + w - 1, LineKind::Solid, Style::Border);
        r += 1;
        for line in section {
            canvas.text(r, c0 + 2, line, Style::Plain);
            r += 1;
        }
    }
}

/// `[*]`, a choice, a fork/join bar: one mark on a line as long as the ports need.
fn draw_point(
    canvas: &mut Canvas,
    g: Glyphs,
    shape: Shape,
    (row, col): (usize, usize),
    (w, h): (usize, usize),
    horizontal: bool,
) {
    let mark = match (shape, g.ascii) {
        (Shape::Start, false) => '●',
        (Shape::End, false) => '◉',
        (Shape::Choice, false) => '◆',
        (Shape::Start, true) => '*',
        (Shape::End, true) => '@',
        (Shape::Choice, true) => '?',
        (_, true) => '=',
        (_, false) => '━',
    };
    let cells = if horizontal { h } else { w };
    if shape == Shape::Bar {
        for k in 0..cells {
            let (r, c) = if horizontal {
                (row + k, col)
            } else {
                (row, col + k)
            };
            canvas.put(r, c, mark, Style::Border);
        }
    } else if cells > 1 {
        // a line the edges join (`┌◆┐`), so they leave the point, not a loose bar
        if horizontal {
            canvas.vline(col, row, row + cells - 1, LineKind::Solid, Style::Border);
        } else {
            canvas.hline(row, col, col + cells - 1, LineKind::Solid, Style::Border);
        }
    }
    let (r, c) = if horizontal {
        (row + h / 2, col)
    } else {
        (row, col + w / 2)
    };
    canvas.put(r, c, mark, Style::Participant);
}

/// A box's border in its shape's look; returns the first row of its text.
fn outline(
    canvas: &mut Canvas,
    g: Glyphs,
    shape: Shape,
    (row, col): (usize, usize),
    (w, h): (usize, usize),
) -> usize {
    let st = Style::Border;
    let (c0, c1, r0, r1) = (col, col + w - 1, row, row + h - 1);
    canvas.rect(r0, c0, r1, c1, LineKind::Solid, st);
    let round = matches!(
        shape,
        Shape::Round | Shape::Stadium | Shape::Circle | Shape::DoubleCircle | Shape::Cylinder
    );
    if round {
        for (r, c) in [(r0, c0), (r0, c1), (r1, c0), (r1, c1)] {
            canvas.round(r, c);
        }
    }
    let ascii = g.ascii;
    // Diagonal corners for rhombus and hexagon.
    if matches!(shape, Shape::Rhombus | Shape::Hexagon) {
        let (a, b) = if ascii { ('/', '\\') } else { ('╱', '╲') };
        canvas.put(r0, c0, a, st);
        canvas.put(r0, c1, b, st);
        canvas.put(r1, c0, b, st);
        canvas.put(r1, c1, a, st);
    }
    let body_top = if shape == Shape::Cylinder {
        canvas.hline(r0 + 1, c0, c1, LineKind::Solid, st);
        r0 + 2
    } else {
        r0 + 1
    };
    // Sides on the text rows.
    let (left, right) = sides(shape, ascii);
    if !left.is_empty() {
        for r in body_top..r1 {
            canvas.text(r, c0, left, st);
            canvas.text(r, c1 + 1 - display_width(right), right, st);
        }
    }
    if shape == Shape::Subroutine {
        for c in [c0 + 1, c1 - 1] {
            canvas.join(r0, c, DOWN, LineKind::Solid, st);
            canvas.join(r1, c, UP, LineKind::Solid, st);
        }
    }
    body_top
}

/// The left and right sides a shape draws on its text rows.
fn sides(shape: Shape, ascii: bool) -> (&'static str, &'static str) {
    match shape {
        Shape::Stadium => ("(", ")"),
        Shape::Circle => ("((", "))"),
        Shape::DoubleCircle => ("(((", ")))"),
        Shape::Rhombus => ("<", ">"),
        Shape::LeanRight => ("/", "/"),
        Shape::LeanLeft => ("\\", "\\"),
        Shape::Trapezoid => ("/", "\\"),
        Shape::TrapezoidAlt => ("\\", "/"),
        Shape::Asymmetric => (">", if ascii { "|" } else { "│" }),
        Shape::Subroutine if ascii => ("||", "||"),
        Shape::Subroutine => ("││", "││"),
        _ => ("", ""),
    }
}
