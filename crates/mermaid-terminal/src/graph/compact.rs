//! The compact list that always fits: one edge per row (`[Req] ──▶ [Auth] : label`),
//! shapes shown with Mermaid-like brackets, labels inline (wrapped under their row when
//! long), subgraph members listed, notes, and the same legend as the drawing.

use crate::glyphs::{Dir4, Glyphs, Head};
use crate::graph::ids::{ClusterId, IdVec, NodeId};
use crate::graph::legend;
use crate::graph::model::{Edge, Graph, NoteSide, Shape};
use crate::style::{Line, Style};
use crate::text::{display_width, wrap_hard};

/// Continuation rows are indented this much.
const INDENT: usize = 4;

/// The subgraph a node's id names (an edge to a whole subgraph or composite state).
fn names_cluster(g: &Graph, n: NodeId) -> Option<ClusterId> {
    let node = &g.nodes[n];
    if node.defined || !node.sections.is_empty() {
        return None;
    }
    g.clusters.position(|c| c.id == node.id)
}

/// A node as text: its label in shape brackets, with the id when labels repeat. A
/// subgraph is named by its title (as in its `subgraph` row); an inner `[*]` as the
/// start or end of its composite state.
pub fn node_text(g: &Graph, n: NodeId, with_id: bool) -> String {
    let node = &g.nodes[n];
    if let Some(c) = names_cluster(g, n) {
        return g.cluster_name(c);
    }
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
        // Inside a composite, its start and end are both `[*]`: named apart.
        Shape::Start | Shape::End => {
            let end = if node.shape == Shape::Start {
                "start"
            } else {
                "end"
            };
            return match node.cluster {
                Some(c) => format!("{end} of {}", g.cluster_name(c)),
                None => "[*]".into(),
            };
        }
        Shape::Bar => return format!("{}<<fork/join>>", node.id),
        // A choice is drawn as a diamond: listed by its name as a flowchart's decision is.
        Shape::Choice => return format!("{{{}}}", node.id),
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

/// Lay out `parts` one after the other on rows of `width`, a part that does not fit on
/// the current row starting the next one (indented), a part wider than a row wrapped.
fn flow(out: &mut Vec<Line>, first: Line, parts: &[(String, Style)], width: usize) {
    let indent = INDENT.min(width / 4);
    let mut line = first;
    let mut fresh = line.width() == 0;
    for (text, style) in parts {
        let w = display_width(text);
        // A part too long for any row starts on this one when a fair share of it fits.
        let too_long = w > width.saturating_sub(indent);
        let room = width.saturating_sub(line.width());
        if !fresh && line.width() + w > width && !(too_long && room >= 12) {
            out.push(std::mem::take(&mut line));
            line = Line::styled(" ".repeat(indent), Style::Plain);
        }
        if line.width() + w <= width {
            line.push(text.clone(), *style);
            fresh = false;
            continue;
        }
        let avail = width.saturating_sub(line.width()).max(1);
        let pieces = wrap_hard(text.trim_start(), avail);
        let n = pieces.len();
        for (k, piece) in pieces.into_iter().enumerate() {
            line.push(piece, *style);
            if k + 1 < n {
                out.push(std::mem::take(&mut line));
                line = Line::styled(" ".repeat(indent), Style::Plain);
            }
        }
        fresh = false;
    }
    if line.width() > 0 {
        out.push(line);
    }
}

/// How a subgraph's row begins: a state diagram's composites are states and its regions
/// are named by their number (`state Busy`, `region 2 of Busy`), a flowchart's are
/// `subgraph`s.
fn cluster_row_head(g: &Graph, c: ClusterId) -> String {
    let name = g.cluster_name(c);
    match (g.composite_states, g.clusters[c].region) {
        (true, Some(_)) => name,
        (true, None) => format!("state {name}"),
        (false, _) => format!("subgraph {name}"),
    }
}

/// Whether two nodes shown by their labels have the same label (then each is listed with
/// its id). `[*]`, choices, bars and subgraph names are not shown by a label: a diagram
/// with two `[*]` lists its states as they are drawn.
pub fn labels_repeat(g: &Graph) -> bool {
    let mut labels: Vec<String> = g
        .nodes
        .ids()
        .filter(|&n| !g.nodes[n].shape.is_point() && names_cluster(g, n).is_none())
        .map(|n| g.nodes[n].label.join(" "))
        .collect();
    labels.sort();
    labels.windows(2).any(|w| w[0] == w[1])
}

pub fn render(g: &Graph, width: usize, ascii: bool) -> Vec<Line> {
    let glyphs = Glyphs::new(ascii);
    let dup = labels_repeat(g);
    let text: IdVec<NodeId, String> = g.nodes.ids().map(|n| node_text(g, n, dup)).collect();
    let mut out = Vec::new();
    for c in g.clusters.ids() {
        let depth = g.cluster_depth(c).saturating_sub(1);
        let mut members: Vec<String> = g
            .nodes
            .iter_enumerated()
            .filter(|(_, n)| n.cluster == Some(c))
            // the row names the composite: its own start and end need no "of …"
            .map(|(i, n)| match n.shape {
                Shape::Start => "start".to_string(),
                Shape::End => "end".to_string(),
                _ => text[i].clone(),
            })
            .collect();
        // a composite's regions by their number: its own row names the composite
        members.extend(
            g.clusters
                .ids()
                .filter(|&x| g.clusters[x].parent == Some(c))
                .map(|x| match g.clusters[x].region {
                    Some(k) => format!("region {k}"),
                    None => g.cluster_name(x),
                }),
        );
        let mut line = Line::styled("  ".repeat(depth.min(8)), Style::Plain);
        line.push(format!("{}: ", cluster_row_head(g, c)), Style::Block);
        flow(&mut out, line, &[(members.join(", "), Style::Plain)], width);
    }
    let mut mentioned: IdVec<NodeId, bool> = IdVec::filled(g.nodes.len(), false);
    for e in g.edges.iter().filter(|e| !e.invisible) {
        mentioned[e.from] = true;
        mentioned[e.to] = true;
        let mut parts = vec![
            (text[e.from].clone(), Style::Border),
            (format!(" {} ", edge_token(glyphs, e)), Style::Arrow),
            (text[e.to].clone(), Style::Border),
        ];
        let label = e.label.join(" ");
        if !label.is_empty() {
            parts.push((" : ".into(), Style::Dim));
            parts.push((label, Style::Label));
        }
        flow(&mut out, Line::default(), &parts, width);
    }
    for (i, m) in mentioned.iter_enumerated() {
        if !m && g.nodes[i].cluster.is_none() && names_cluster(g, i).is_none() {
            flow(
                &mut out,
                Line::default(),
                &[(text[i].clone(), Style::Border)],
                width,
            );
        }
    }
    // Sections (class members, state descriptions) are listed under the node.
    for (i, n) in g.nodes.iter_enumerated() {
        let members: Vec<String> = n.sections.iter().flatten().cloned().collect();
        if !members.is_empty() {
            let line = Line::styled(format!("{}: ", text[i]), Style::Border);
            flow(&mut out, line, &[(members.join("; "), Style::Plain)], width);
        }
    }
    for note in &g.notes {
        let place = match (note.node, note.side) {
            (Some(n), NoteSide::Left) => format!("note left of {}: ", text[n]),
            (Some(n), NoteSide::Right) => format!("note right of {}: ", text[n]),
            (None, _) => "note: ".to_string(),
        };
        flow(
            &mut out,
            Line::styled(place, Style::Note),
            &[(note.text.join(" "), Style::Note)],
            width,
        );
    }
    out.extend(legend::rows(&legend::entries(g, ascii), width));
    out
}
