//! The compact list that always fits: one edge per row (`[Req] ──▶ [Auth] : label`),
//! shapes shown with Mermaid-like brackets, subgraph members listed.

use crate::mermaid::glyphs::{Dir4, Glyphs, Head};
use crate::mermaid::graph::model::{Edge, Graph, Shape};
use crate::mermaid::style::{Line, Style};
use crate::mermaid::text::{display_width, wrap_hard};

/// A node as text: its label in shape brackets, with the id when labels repeat.
pub fn node_text(g: &Graph, n: usize, with_id: bool) -> String {
    let node = &g.nodes[n];
    let label = node.label.join(" ");
    let (open, close) = match node.shape {
        Shape::Rect => ("[", "]"),
        Shape::Round => ("(", ")"),
        Shape::Stadium => ("([", "])"),
        Shape::Subroutine => ("[[", "]]"),
        Shape::Cylinder => ("[(", ")]"),
        Shape::Circle => ("((", "))"),
        Shape::DoubleCircle => ("(((", ")))"),
        Shape::Rhombus => ("{", "}"),
        Shape::Hexagon => ("{{", "}}"),
        Shape::LeanRight => ("[/", "/]"),
        Shape::LeanLeft => ("[\\", "\\]"),
        Shape::Trapezoid => ("[/", "\\]"),
        Shape::TrapezoidAlt => ("[\\", "/]"),
        Shape::Asymmetric => (">", "]"),
        Shape::Start | Shape::End => return "[*]".into(),
        Shape::Bar => return format!("{}<<fork/join>>", node.id),
        Shape::Choice => return format!("{}<<choice>>", node.id),
    };
    let plain_rect = node.shape == Shape::Rect && label == node.id;
    let body = if plain_rect {
        label.clone()
    } else {
        format!("{open}{label}{close}")
    };
    if with_id && label != node.id && !plain_rect {
        format!("{}{body}", node.id)
    } else {
        body
    }
}

/// `──▶`, `┄┄▶`, `━━▶`, `◀─▶`, `◁──` ...
pub fn edge_token(g: Glyphs, e: &Edge) -> String {
    let shaft = g.hshaft(e.line);
    let head = if e.head == Head::None {
        shaft
    } else {
        g.head(e.head, Dir4::Right)
    };
    let tail = if e.tail == Head::None {
        shaft
    } else {
        g.head(e.tail, Dir4::Left)
    };
    format!("{tail}{shaft}{head}")
}

/// Wrap `tail` after `line`, continuation rows indented under it (or by 4 when narrow).
fn push_wrapped(out: &mut Vec<Line>, mut line: Line, tail: &str, style: Style, width: usize) {
    let used = line.width();
    let avail = width.saturating_sub(used);
    if tail.is_empty() {
        out.push(line);
        return;
    }
    let (indent, pieces) = if avail >= 12 {
        (used, wrap_hard(tail, avail))
    } else {
        out.push(std::mem::take(&mut line));
        (
            4.min(width),
            wrap_hard(tail, width.saturating_sub(4).max(1)),
        )
    };
    let mut first = true;
    for p in pieces {
        if first && indent == used {
            line.push(p, style);
            out.push(std::mem::take(&mut line));
        } else {
            let mut l = Line::styled(" ".repeat(indent), Style::Plain);
            l.push(p, style);
            out.push(l);
        }
        first = false;
    }
}

pub fn render(g: &Graph, width: usize, ascii: bool) -> Vec<Line> {
    let glyphs = Glyphs::new(ascii);
    let mut labels: Vec<String> = g.nodes.iter().map(|n| n.label.join(" ")).collect();
    labels.sort();
    let dup = labels.windows(2).any(|w| w[0] == w[1]);
    let full: Vec<String> = (0..g.nodes.len()).map(|n| node_text(g, n, dup)).collect();
    // Long node texts: refer to nodes by id and list `id = text` first.
    let long = full.iter().any(|t| display_width(t) > width / 3);
    let text: Vec<String> = if long {
        g.nodes.iter().map(|n| n.id.clone()).collect()
    } else {
        full.clone()
    };
    let mut out = Vec::new();
    if long {
        for (i, n) in g.nodes.iter().enumerate() {
            let plain = n.shape == Shape::Rect && n.label.join(" ") == n.id;
            if !plain && !matches!(n.shape, Shape::Start | Shape::End) {
                let line = Line::styled(format!("{} = ", n.id), Style::Border);
                push_wrapped(&mut out, line, &node_text(g, i, false), Style::Plain, width);
            }
        }
    }
    for (c, cl) in g.clusters.iter().enumerate() {
        let depth = g.cluster_depth(c).saturating_sub(1);
        let members: Vec<&str> = g
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.cluster == Some(c))
            .map(|(i, _)| text[i].as_str())
            .collect();
        let subs: Vec<&str> = g
            .clusters
            .iter()
            .filter(|x| x.parent == Some(c))
            .map(|x| x.title.as_str())
            .collect();
        let mut all = members.clone();
        all.extend(subs);
        let mut line = Line::styled("  ".repeat(depth.min(8)), Style::Plain);
        line.push(format!("subgraph {}: ", cl.title), Style::Block);
        push_wrapped(&mut out, line, &all.join(", "), Style::Plain, width);
    }
    let mut mentioned = vec![false; g.nodes.len()];
    for e in &g.edges {
        if e.invisible {
            continue;
        }
        mentioned[e.from] = true;
        mentioned[e.to] = true;
        let mut line = Line::styled(text[e.from].clone(), Style::Border);
        line.push(" ", Style::Plain);
        line.push(edge_token(glyphs, e), Style::Arrow);
        line.push(" ", Style::Plain);
        let target = text[e.to].clone();
        let label = e.label.join(" ");
        if line.width() + display_width(&target) > width {
            // target does not fit on the row: continue on the next one
            out.push(line);
            line = Line::styled("    ", Style::Plain);
        }
        line.push(target, Style::Border);
        if label.is_empty() {
            out.push(line);
        } else {
            line.push(" : ", Style::Dim);
            push_wrapped(&mut out, line, &label, Style::Label, width);
        }
    }
    for (i, m) in mentioned.iter().enumerate() {
        let in_cluster = g.nodes[i].cluster.is_some();
        if !m && !in_cluster {
            push_wrapped(&mut out, Line::default(), &text[i], Style::Border, width);
        }
    }
    // Sections (class members, state descriptions) are listed under the node.
    for (i, n) in g.nodes.iter().enumerate() {
        let members: Vec<String> = n.sections.iter().flatten().cloned().collect();
        if !members.is_empty() {
            let line = Line::styled(format!("{}: ", text[i]), Style::Border);
            push_wrapped(&mut out, line, &members.join("; "), Style::Plain, width);
        }
    }
    out
}
