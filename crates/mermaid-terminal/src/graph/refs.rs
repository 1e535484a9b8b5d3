//! Edges that name a subgraph (a composite state) end at its frame, as Mermaid draws them.
//!
//! For the layout such an edge is attached to a member of the subgraph (its representative:
//! a member on the frame's near layer), and marked with the frame it really ends at; the
//! drawing stops it at the frame's border. The placeholder node the parser made for the
//! subgraph's name is dropped.

use crate::graph::ids::{ClusterId, IdVec, ItemId, NodeId};
use crate::graph::model::{Graph, Shape};
use crate::graph::rank::Ranked;

/// The subgraph each node stands for, when its id names one and it is not a node itself.
fn cluster_refs(g: &Graph) -> IdVec<NodeId, Option<ClusterId>> {
    g.nodes
        .iter()
        .map(|n| {
            if n.defined || !n.sections.is_empty() {
                return None;
            }
            g.clusters.position(|c| c.id == n.id)
        })
        .collect()
}

/// Is node `n` inside cluster `c` (at any depth)?
fn member(g: &Graph, n: NodeId, c: ClusterId) -> bool {
    g.within(g.nodes[n].cluster, c)
}

/// A member of `c` to attach edges to: its inner `[*]` start (`entry`) or end, else one
/// with no incoming (`entry`) or outgoing edge from inside the cluster, else the first.
fn representative(
    g: &Graph,
    c: ClusterId,
    entry: bool,
    refs: &IdVec<NodeId, Option<ClusterId>>,
) -> Option<NodeId> {
    let members: Vec<NodeId> = g
        .nodes
        .ids()
        .filter(|&n| refs[n].is_none() && member(g, n, c))
        .collect();
    let inside = |n: NodeId| {
        g.edges.iter().any(|e| {
            let (near, far) = if entry {
                (e.to, e.from)
            } else {
                (e.from, e.to)
            };
            near == n && far != n && refs[far].is_none() && member(g, far, c)
        })
    };
    let pseudo = if entry { Shape::Start } else { Shape::End };
    members
        .iter()
        .copied()
        .find(|&n| g.nodes[n].shape == pseudo && g.nodes[n].cluster == Some(c))
        .or_else(|| members.iter().copied().find(|&n| !inside(n)))
        .or_else(|| members.first().copied())
}

/// The graph with subgraph references turned into frame ends. `Ok(None)`: there are none;
/// `Err`: a reference this layout cannot draw (to an empty subgraph, or from inside it).
pub fn resolve(g: &Graph) -> Result<Option<Graph>, ()> {
    let refs = cluster_refs(g);
    if refs.iter().all(Option::is_none) {
        return Ok(None);
    }
    if g.notes
        .iter()
        .any(|n| n.node.is_some_and(|n| refs[n].is_some()))
    {
        return Err(());
    }
    let mut out = g.clone();
    for e in &mut out.edges {
        let (from_c, to_c) = (refs[e.from], refs[e.to]);
        if let Some(c) = from_c {
            if e.from == e.to || member(g, e.to, c) || to_c == Some(c) {
                return Err(());
            }
            e.from = representative(g, c, false, &refs).ok_or(())?;
            e.from_frame = Some(c);
        }
        if let Some(c) = to_c {
            if from_c.is_none() && member(g, e.from, c) {
                return Err(());
            }
            e.to = representative(g, c, true, &refs).ok_or(())?;
            e.to_frame = Some(c);
        }
    }
    // Drop the placeholder nodes, renumbering the rest.
    let mut index: IdVec<NodeId, Option<NodeId>> = IdVec::filled(g.nodes.len(), None);
    let mut nodes = IdVec::new();
    for (i, n) in out.nodes.iter_enumerated() {
        if refs[i].is_none() {
            index[i] = Some(nodes.push(n.clone()));
        }
    }
    out.nodes = nodes;
    // every edge end and note is on a node kept: the placeholders were replaced above
    for e in &mut out.edges {
        e.from = index[e.from].ok_or(())?;
        e.to = index[e.to].ok_or(())?;
    }
    for n in &mut out.notes {
        n.node = n.node.map(|x| index[x].ok_or(())).transpose()?;
    }
    Ok(Some(out))
}

/// After ranking: an edge that reaches a frame from above must be attached to a member on
/// the frame's first layer, one that leaves it downwards to a member on its last layer.
/// Moves representatives that are not; returns whether any moved (rank again then), or
/// `Err` when a frame end cannot be placed.
pub fn settle(g: &mut Graph, r: &Ranked) -> Result<bool, ()> {
    let layer_of = |n: NodeId| r.items[ItemId::of_node(n)].layer;
    let mut moved = false;
    for ei in g.edges.ids() {
        let e = &g.edges[ei];
        // (frame, node index slot is `to`?, must be on the frame's first layer?)
        let mut ends = Vec::new();
        if let Some(c) = e.to_frame {
            ends.push((c, true, !r.reversed[ei]));
        }
        if let Some(c) = e.from_frame {
            ends.push((c, false, r.reversed[ei]));
        }
        for (c, is_to, first_layer) in ends {
            let members: Vec<NodeId> = g.nodes.ids().filter(|&n| member(g, n, c)).collect();
            let layers = members.iter().map(|&n| layer_of(n));
            let want = if first_layer {
                layers.min()
            } else {
                layers.max()
            }
            .ok_or(())?;
            let e = &mut g.edges[ei];
            let cur = if is_to { e.to } else { e.from };
            if layer_of(cur) == want {
                continue;
            }
            let rep = members
                .iter()
                .copied()
                .find(|&n| layer_of(n) == want)
                .ok_or(())?;
            if is_to {
                e.to = rep;
            } else {
                e.from = rep;
            }
            moved = true;
        }
    }
    Ok(moved)
}
