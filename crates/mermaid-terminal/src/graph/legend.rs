//! One dim line naming the edge kinds a graph mixes, when they differ by a single glyph
//! (solid and dotted shafts; the relation heads of a class diagram).

use crate::RenderOptions;
use crate::glyphs::{Dir4, Glyphs, Head, LineKind};
use crate::graph::model::{Edge, Graph};
use crate::style::{Line, Style};
use crate::text::display_width;

/// What a class-diagram relation means, from its heads and line.
fn relation(e: &Edge) -> Option<(&'static str, Head)> {
    let head = if e.head == Head::None { e.tail } else { e.head };
    let dotted = e.line == LineKind::Dotted;
    Some(match (head, dotted) {
        (Head::Triangle, false) => ("inheritance", head),
        (Head::Triangle, true) => ("realization", head),
        (Head::Diamond, _) => ("composition", head),
        (Head::HollowDiamond, _) => ("aggregation", head),
        (Head::Arrow, true) => ("dependency", head),
        (Head::Arrow, false) => ("association", head),
        (Head::None, true) => ("dashed link", head),
        (Head::None, false) => ("link", head),
        _ => return None,
    })
}

/// `──▷ inheritance`, `┄┄ dotted`: one legend entry.
fn entry(g: Glyphs, line: LineKind, head: Head, text: &str) -> String {
    let shaft = g.hshaft(line);
    let tip = if head == Head::None {
        shaft
    } else {
        g.head(head, Dir4::Right)
    };
    format!("{shaft}{shaft}{tip} {text}")
}

/// The legend entries of a graph, empty when it uses one kind only.
pub fn entries(graph: &Graph, ascii: bool) -> Vec<String> {
    let g = Glyphs::new(ascii);
    let visible = || graph.edges.iter().filter(|e| !e.invisible);
    let class = graph
        .nodes
        .iter()
        .any(|n| n.sections.len() == 2 && n.shape == crate::graph::model::Shape::Rect)
        && visible().any(|e| {
            matches!(
                (e.head, e.tail),
                (Head::Triangle | Head::Diamond | Head::HollowDiamond, _)
                    | (_, Head::Triangle | Head::Diamond | Head::HollowDiamond)
            )
        });
    let mut out: Vec<String> = Vec::new();
    if class {
        let mut kinds: Vec<(&str, Head, LineKind)> = Vec::new();
        for e in visible() {
            if let Some((name, head)) = relation(e)
                && !kinds.iter().any(|k| k.0 == name)
            {
                kinds.push((name, head, e.line));
            }
        }
        if kinds.len() > 1 {
            out = kinds
                .iter()
                .map(|&(name, head, line)| entry(g, line, head, name))
                .collect();
        }
        return out;
    }
    let mut lines: Vec<LineKind> = Vec::new();
    for e in visible() {
        if !lines.contains(&e.line) {
            lines.push(e.line);
        }
    }
    if lines.len() > 1 {
        for (kind, name) in [
            (LineKind::Solid, "solid"),
            (LineKind::Dotted, "dotted"),
            (LineKind::Thick, "thick"),
        ] {
            if lines.contains(&kind) {
                out.push(entry(g, kind, Head::None, name));
            }
        }
    }
    out
}

/// Legend rows (usually one) under a drawing, no wider than the width.
pub fn drawn(graph: &Graph, opts: &RenderOptions) -> Vec<Line> {
    rows(&entries(graph, opts.ascii), opts.width)
}

/// Lay entries out as `a  b  c` rows no wider than `width` (an entry wider than a row is
/// wrapped).
pub fn rows(items: &[String], width: usize) -> Vec<Line> {
    let items: Vec<String> = items
        .iter()
        .flat_map(|i| crate::text::wrap_hard(i, width.max(1)))
        .collect();
    let mut rows = Vec::new();
    let mut cur = String::new();
    for item in &items {
        if !cur.is_empty() && display_width(&cur) + 2 + display_width(item) > width {
            rows.push(Line::styled(std::mem::take(&mut cur), Style::Dim));
        }
        if !cur.is_empty() {
            cur.push_str("  ");
        }
        cur.push_str(item);
    }
    if !cur.is_empty() {
        rows.push(Line::styled(cur, Style::Dim));
    }
    rows
}
