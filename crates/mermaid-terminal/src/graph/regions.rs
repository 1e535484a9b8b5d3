//! Concurrent regions of a composite state stacked one under the other, for when side by
//! side they are wider than the screen: each region is tied below the one before it by
//! invisible edges, from the states it ends at to those it starts from.

use crate::glyphs::{Head, LineKind};
use crate::graph::ids::{ClusterId, NodeId};
use crate::graph::model::{Edge, Graph};

/// The graph with each region tied under the one before it; `None` when it has no
/// composite with two regions or more.
pub fn stacked(g: &Graph) -> Option<Graph> {
    let mut ties = Vec::new();
    for upper in g.clusters.ids() {
        let Some(lower) = next_region(g, upper) else {
            continue;
        };
        for &from in &ends(g, upper, false) {
            for &to in &ends(g, lower, true) {
                ties.push(tie(from, to));
            }
        }
    }
    if ties.is_empty() {
        return None;
    }
    let mut out = g.clone();
    for e in ties {
        out.edges.push(e);
    }
    Some(out)
}

/// The region after `c` in the same composite state.
fn next_region(g: &Graph, c: ClusterId) -> Option<ClusterId> {
    let k = g.clusters[c].region?;
    let parent = g.clusters[c].parent;
    g.clusters
        .position(|x| x.parent == parent && x.region == Some(k + 1))
}

/// Is node `n` inside cluster `c` (at any depth)?
fn member(g: &Graph, n: NodeId, c: ClusterId) -> bool {
    g.cluster_path(g.nodes[n].cluster).contains(&c)
}

/// The states region `c` starts from (`first`: no transition into them from inside it)
/// or ends at (none out of them to another of its states); when a cycle leaves none,
/// its first or last state named.
fn ends(g: &Graph, c: ClusterId, first: bool) -> Vec<NodeId> {
    let members: Vec<NodeId> = g.nodes.ids().filter(|&n| member(g, n, c)).collect();
    let reached = |n: NodeId| {
        g.edges.iter().any(|e| {
            let (near, far) = if first {
                (e.to, e.from)
            } else {
                (e.from, e.to)
            };
            near == n && far != n && member(g, far, c)
        })
    };
    let open: Vec<NodeId> = members.iter().copied().filter(|&n| !reached(n)).collect();
    if !open.is_empty() {
        return open;
    }
    let fallback = if first {
        members.first()
    } else {
        members.last()
    };
    fallback.copied().into_iter().collect()
}

/// An invisible edge that only orders `from` above `to`.
fn tie(from: NodeId, to: NodeId) -> Edge {
    Edge {
        from,
        to,
        label: Vec::new(),
        line: LineKind::Solid,
        head: Head::None,
        tail: Head::None,
        invisible: true,
        from_frame: None,
        to_frame: None,
    }
}
