//! Node boxes: each shape keeps a distinct look (corners and sides), in Unicode and ASCII.

use crate::mermaid::canvas::Canvas;
use crate::mermaid::glyphs::{Glyphs, LineKind};
use crate::mermaid::graph::model::Shape;
use crate::mermaid::style::Style;
use crate::mermaid::text::{display_width, max_width};

/// Text of a node prepared for drawing.
#[derive(Debug, Clone)]
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
    let ((row, col), (w, h)) = (at, size);
    let st = Style::Border;
    if t.shape.is_point() {
        let mark = match (t.shape, g.ascii) {
            (Shape::Start, false) => '●',
            (Shape::End, false) => '◉',
            (Shape::Choice, false) => '◆',
            (Shape::Start, true) => '*',
            (Shape::End, true) => '@',
            (Shape::Choice, true) => '?',
            _ => {
                if g.ascii {
                    '='
                } else {
                    '━'
                }
            }
        };
        if horizontal {
            for r in row..row + h {
                canvas.put(
                    r,
                    col,
                    if t.shape == Shape::Bar {
                        mark
                    } else {
                        g.vshaft(LineKind::Solid)
                    },
                    st,
                );
            }
            canvas.put(row + h / 2, col, mark, Style::Participant);
        } else {
            for c in col..col + w {
                canvas.put(
                    row,
                    c,
                    if t.shape == Shape::Bar {
                        mark
                    } else {
                        g.hshaft(LineKind::Solid)
                    },
                    st,
                );
            }
            canvas.put(row, col + w / 2, mark, Style::Participant);
        }
        return;
    }
    let (c0, c1, r0, r1) = (col, col + w - 1, row, row + h - 1);
    canvas.rect(r0, c0, r1, c1, LineKind::Solid, st);
    let round = matches!(
        t.shape,
        Shape::Round | Shape::Stadium | Shape::Circle | Shape::DoubleCircle | Shape::Cylinder
    );
    if round {
        for (r, c) in [(r0, c0), (r0, c1), (r1, c0), (r1, c1)] {
            canvas.round(r, c);
        }
    }
    let ascii = g.ascii;
    // Diagonal corners for rhombus and hexagon.
    if matches!(t.shape, Shape::Rhombus | Shape::Hexagon) {
        let (a, b) = if ascii { ('/', '\\') } else { ('╱', '╲') };
        canvas.put(r0, c0, a, st);
        canvas.put(r0, c1, b, st);
        canvas.put(r1, c0, b, st);
        canvas.put(r1, c1, a, st);
    }
    // Sides on the text rows.
    let (left, right): (&str, &str) = match t.shape {
        Shape::Stadium => ("(", ")"),
        Shape::Circle => ("((", "))"),
        Shape::DoubleCircle => ("(((", ")))"),
        Shape::Rhombus => ("<", ">"),
        Shape::LeanRight => ("/", "/"),
        Shape::LeanLeft => ("\\", "\\"),
        Shape::Trapezoid => ("/", "\\"),
        Shape::TrapezoidAlt => ("\\", "/"),
        Shape::Asymmetric => (">", if ascii { "|" } else { "│" }),
        Shape::Subroutine => (
            if ascii { "||" } else { "││" },
            if ascii { "||" } else { "││" },
        ),
        _ => ("", ""),
    };
    let body_top = if t.shape == Shape::Cylinder {
        r0 + 2
    } else {
        r0 + 1
    };
    if t.shape == Shape::Cylinder {
        canvas.hline(r0 + 1, c0, c1, LineKind::Solid, st);
    }
    if !left.is_empty() {
        for r in body_top..r1 {
            canvas.text(r, c0, left, st);
            canvas.text(r, c1 + 1 - display_width(right), right, st);
        }
    }
    if t.shape == Shape::Subroutine {
        canvas.join(
            r0,
            c0 + 1,
            crate::mermaid::glyphs::DOWN,
            LineKind::Solid,
            st,
        );
        canvas.join(
            r0,
            c1 - 1,
            crate::mermaid::glyphs::DOWN,
            LineKind::Solid,
            st,
        );
        canvas.join(r1, c0 + 1, crate::mermaid::glyphs::UP, LineKind::Solid, st);
        canvas.join(r1, c1 - 1, crate::mermaid::glyphs::UP, LineKind::Solid, st);
    }
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
        canvas.hline(r, c0, c1, LineKind::Solid, st);
        r += 1;
        for line in section {
            canvas.text(r, c0 + 2, line, Style::Plain);
            r += 1;
        }
    }
}
