//! A flowchart, state or class diagram as comparable items (see
//! [`crate::items`]): nodes by what their box shows, edges between them, members,
//! subgraphs and notes. Node ids are not compared: `A[start]` and `X[start]` read alike.

use crate::glyphs::Glyphs;
use crate::graph::compact::{edge_token, node_text};
use crate::graph::ids::{ClusterId, IdVec, NodeId};
use crate::graph::model::{Direction, Graph, NoteSide, Shape};
use crate::items::{Item, ItemKind};

pub fn items(g: &Graph) -> Vec<Item> {
    let mut labels: Vec<String> = g.nodes.iter().map(|n| n.label.join(" ")).collect();
    labels.sort();
    // Labels that repeat are told apart by their ids, as the listing does.
    let dup = labels.windows(2).any(|w| w[0] == w[1]);
    let text: IdVec<NodeId, String> = g.nodes.ids().map(|n| node_text(g, n, dup)).collect();
    let item = |kind, text: String, involves: Vec<String>, label: String| Item {
        kind,
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
    let mut out = vec![item(
        ItemKind::Direction,
        across.to_string(),
        Vec::new(),
        String::new(),
    )];
    for c in g.clusters.ids() {
        out.push(item(
            ItemKind::Subgraph,
            nesting(g, c),
            Vec::new(),
            g.cluster_name(c),
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
        out.push(Item {
            id: node.id.clone(),
            ..item(
                ItemKind::Node,
                format!("{}{place}", text[n]),
                vec![text[n].clone()],
                node.label.join(" "),
            )
        });
        for member in node.sections.iter().flatten() {
            out.push(item(
                ItemKind::Member,
                format!("{}: {member}", text[n]),
                vec![text[n].clone()],
                member.clone(),
            ));
        }
    }
    let glyphs = Glyphs::new(false);
    for e in g.edges.iter().filter(|e| !e.invisible) {
        let label = e.label.join(" ");
        let mut row = format!("{} {} {}", text[e.from], edge_token(glyphs, e), text[e.to]);
        if !label.is_empty() {
            row.push_str(" : ");
            row.push_str(&label);
        }
        out.push(item(
            ItemKind::Edge,
            row,
            vec![text[e.from].clone(), text[e.to].clone()],
            label,
        ));
    }
    for note in &g.notes {
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
        out.push(item(
            ItemKind::Note,
            format!("{place}: {body}"),
            involves,
            body,
        ));
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
