//! A flowchart, state or class diagram as comparable items (see
//! [`crate::items`]): nodes by what their box shows, edges between them, members,
//! subgraphs and notes. Node ids are not compared: `A[start]` and `X[start]` read alike.

use crate::compare::Shown;
use crate::glyphs::{Glyphs, LineKind};
use crate::graph::compact::{edge_token, labels_repeat, node_text};
use crate::graph::ids::{ClusterId, EdgeId, IdVec, NodeId};
use crate::graph::model::{Direction, Graph, NoteSide, Shape};
use crate::items::{Item, ItemKind, stand_in_all};

pub fn items(g: &Graph) -> Vec<Item> {
    parts(g).into_iter().map(|(item, _)| item).collect()
}

/// The part of a graph an item says, whose label its drawing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Direction,
    Cluster(ClusterId),
    Node(NodeId),
    /// a node's compartment and line in it
    Member(NodeId, usize, usize),
    Edge(EdgeId),
    Note(usize),
}

/// The graph with the labels of the items `differing` (their texts as
/// [`crate::what_differs`] keys them) in stand-in letters of the same widths and kinds,
/// or their edges in another line (thick for solid or dotted, solid for thick), as `shown` asks,
/// so that a drawing of it shows where they are; `None` when none of them is drawn so.
pub fn with_stand_ins(g: &Graph, differing: &[&str], shown: Shown) -> Option<Graph> {
    let said = parts(g);
    let items: Vec<Item> = said.iter().map(|(item, _)| item.clone()).collect();
    let keys = crate::what_differs::keyed_texts(&items);
    let mut out = g.clone();
    let mut changed = false;
    for ((_, part), key) in said.iter().zip(&keys) {
        if !differing.contains(&key.as_str()) {
            continue;
        }
        if shown == Shown::Edges {
            if let Part::Edge(e) = *part {
                let edge = &mut out.edges[e];
                // Thick lines take the room solid ones do (dotted ones need longer shafts).
                edge.line = match edge.line {
                    LineKind::Solid | LineKind::Dotted => LineKind::Thick,
                    LineKind::Thick => LineKind::Solid,
                };
                changed = true;
            }
            continue;
        }
        let label: Option<&mut [String]> = match *part {
            Part::Direction => None,
            Part::Cluster(c) => Some(std::slice::from_mut(&mut out.clusters[c].title)),
            Part::Node(n) => Some(&mut out.nodes[n].label[..]),
            Part::Member(n, s, k) => out.nodes[n]
                .sections
                .get_mut(s)
                .and_then(|section| section.get_mut(k..=k)),
            Part::Edge(e) => Some(&mut out.edges[e].label[..]),
            Part::Note(k) => out.notes.get_mut(k).map(|note| &mut note.text[..]),
        };
        if let Some(label) = label {
            changed |= stand_in_all(label);
        }
    }
    changed.then_some(out)
}

fn parts(g: &Graph) -> Vec<(Item, Part)> {
    // Labels that repeat are told apart by their ids, as the listing does.
    let dup = labels_repeat(g);
    let text: IdVec<NodeId, String> = g.nodes.ids().map(|n| node_text(g, n, dup)).collect();
    let item = |kind, text: String, involves: Vec<String>, label: String| Item {
        kind,
        key: text.clone(),
        text,
        involves,
        label,
        id: String::new(),
    };
    let across = match g.direction {
        Direction::TopDown => "top down",
        Direction::BottomUp => "bottom up",
        Direction::LeftRight => "left to right",
        Direction::RightLeft => "right to left",
    };
    let mut out = vec![(
        item(
            ItemKind::Direction,
            across.to_string(),
            Vec::new(),
            String::new(),
        ),
        Part::Direction,
    )];
    for c in g.clusters.ids() {
        out.push((
            item(
                ItemKind::Subgraph,
                nesting(g, c),
                Vec::new(),
                g.cluster_name(c),
            ),
            Part::Cluster(c),
        ));
    }
    for (n, node) in g.nodes.iter_enumerated() {
        // `[*]` and subgraph names are said by the edges and subgraphs they are part of.
        if matches!(node.shape, Shape::Start | Shape::End)
            || g.clusters.iter().any(|c| c.id == node.id && !node.defined)
        {
            continue;
        }
        let place = match node.cluster {
            Some(c) => format!(" in {}", g.cluster_name(c)),
            None => String::new(),
        };
        let said = Item {
            id: node.id.clone(),
            ..item(
                ItemKind::Node,
                format!("{}{place}", text[n]),
                vec![text[n].clone()],
                node.label.join(" "),
            )
        };
        out.push((said, Part::Node(n)));
        for (s, section) in node.sections.iter().enumerate() {
            for (k, member) in section.iter().enumerate() {
                let said = item(
                    ItemKind::Member,
                    format!("{}: {member}", text[n]),
                    vec![text[n].clone()],
                    member.clone(),
                );
                out.push((said, Part::Member(n, s, k)));
            }
        }
    }
    let glyphs = Glyphs::new(false);
    for (id, e) in g.edges.iter_enumerated().filter(|(_, e)| !e.invisible) {
        let label = e.label.join(" ");
        let mut row = format!("{} {} {}", text[e.from], edge_token(glyphs, e), text[e.to]);
        if !label.is_empty() {
            row.push_str(" : ");
            row.push_str(&label);
        }
        let said = item(
            ItemKind::Edge,
            row,
            vec![text[e.from].clone(), text[e.to].clone()],
            label,
        );
        out.push((said, Part::Edge(id)));
    }
    for (k, note) in g.notes.iter().enumerate() {
        let body = note.text.join(" ");
        let (place, involves) = match (note.node, note.side) {
            (Some(n), NoteSide::Left) => {
                (format!("note left of {}", text[n]), vec![text[n].clone()])
            }
            (Some(n), NoteSide::Right) => {
                (format!("note right of {}", text[n]), vec![text[n].clone()])
            }
            (None, _) => ("note".to_string(), Vec::new()),
        };
        let said = item(ItemKind::Note, format!("{place}: {body}"), involves, body);
        out.push((said, Part::Note(k)));
    }
    out
}

/// A subgraph with those it is nested in, `Outer › Inner › region 2`.
fn nesting(g: &Graph, c: ClusterId) -> String {
    let path: Vec<String> = g
        .cluster_path(Some(c))
        .into_iter()
        .map(|p| match g.clusters[p].region {
            Some(k) => format!("region {k}"),
            None => g.clusters[p].title.clone(),
        })
        .collect();
    path.join(" › ")
}
