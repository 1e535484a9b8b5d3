//! Which edges run against the flow, chosen one nesting level at a time.
//!
//! At each level (the top, or inside one subgraph) a subgraph counts as one vertex: an edge
//! is seen between the level's children that hold its ends. Breaking the cycles of every
//! level apart keeps a subgraph whole: something both entered from and left to a composite
//! state lands above or below all of its members, never among them (breaking the node
//! graph's cycles one constraint at a time put `Closed` inside `Open`'s frame). Only edges
//! on a cycle of the nodes' own constraints are candidates: a subgraph entered and left
//! twice along one path is no cycle.

use std::collections::HashMap;

use crate::graph::ids::{ClusterId, EdgeId, Id, IdVec, NodeId};
use crate::graph::model::Graph;

/// One of a level's children: a node placed right at that level, or a subgraph in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Child {
    Node(NodeId),
    Cluster(ClusterId),
}

/// The child of `level` that holds node `n`, when `n` lies within `level`.
fn child_at(g: &Graph, n: NodeId, level: Option<ClusterId>) -> Option<Child> {
    let path = g.cluster_path(g.nodes[n].cluster);
    let below = match level {
        None => 0,
        Some(c) => path.iter().position(|&x| x == c)? + 1,
    };
    Some(
        path.get(below)
            .map_or(Child::Node(n), |&c| Child::Cluster(c)),
    )
}

/// Lowest subgraph holding both nodes (`None`: the top level).
fn common_level(g: &Graph, a: NodeId, b: NodeId) -> Option<ClusterId> {
    let pa = g.cluster_path(g.nodes[a].cluster);
    let pb = g.cluster_path(g.nodes[b].cluster);
    pa.iter()
        .zip(&pb)
        .take_while(|(x, y)| x == y)
        .last()
        .map(|(x, _)| *x)
}

/// Per edge: drawn against its direction to break a cycle. `arcs`: the layering
/// constraints between nodes, edges and soft ones alike; an edge whose ends lie on no
/// common cycle of them never turns, nor does a self loop.
pub fn reversed_edges(g: &Graph, arcs: &[(usize, usize)]) -> IdVec<EdgeId, bool> {
    let n = g.nodes.len();
    let component = components(n, arcs);
    let mut by_level: HashMap<Option<ClusterId>, Vec<(EdgeId, Child, Child)>> = HashMap::new();
    let on_cycle = |e: &&crate::graph::model::Edge| {
        e.from != e.to && component[e.from.index()] == component[e.to.index()]
    };
    for (i, e) in g.edges.iter_enumerated().filter(|(_, e)| on_cycle(e)) {
        let level = common_level(g, e.from, e.to);
        if let (Some(a), Some(b)) = (child_at(g, e.from, level), child_at(g, e.to, level)) {
            by_level.entry(level).or_default().push((i, a, b));
        }
    }
    // a level's search starts where a search of the whole graph from the first edge's
    // source enters its cycles
    let order = discovery_order(&adjacency(n, arcs), &written_start_first(g));
    let mut reversed = IdVec::filled(g.edges.len(), false);
    for (level, edges) in by_level {
        let mut vertex: HashMap<Child, usize> = HashMap::new();
        for &n in &order {
            if let Some(c) = child_at(g, NodeId::new(n), level) {
                let next = vertex.len();
                vertex.entry(c).or_insert(next);
            }
        }
        let arcs: Vec<(usize, usize)> = edges
            .iter()
            .map(|&(_, a, b)| (vertex[&a], vertex[&b]))
            .collect();
        for (k, back) in back_arcs(vertex.len(), &arcs).into_iter().enumerate() {
            reversed[edges[k].0] = back;
        }
    }
    reversed
}

/// Depth-first search marking the arcs that close a cycle (iterative, so deep graphs
/// cannot overflow the stack): turning them leaves the graph acyclic.
pub fn back_arcs(n: usize, arcs: &[(usize, usize)]) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, &(from, _)) in arcs.iter().enumerate() {
        out[from].push(k);
    }
    let mut back = vec![false; arcs.len()];
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&ai) = out[v].get(*k) {
                *k += 1;
                let w = arcs[ai].1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[ai] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// Each vertex's strongly connected component (Kosaraju, iterative): two vertices share
/// one when each reaches the other.
fn components(n: usize, arcs: &[(usize, usize)]) -> Vec<usize> {
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in arcs {
        into[b].push(a);
    }
    let roots: Vec<usize> = (0..n).collect();
    let finished = dfs_orders(&adjacency(n, arcs), &roots).1;
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in finished.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        let mut stack = vec![root];
        component[root] = count;
        while let Some(v) = stack.pop() {
            for &w in &into[v] {
                if component[w] == usize::MAX {
                    component[w] = count;
                    stack.push(w);
                }
            }
        }
        count += 1;
    }
    component
}

/// Each vertex's successors.
fn adjacency(n: usize, arcs: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in arcs {
        out[a].push(b);
    }
    out
}

/// Vertices in the order a depth-first search from `roots` reaches them.
fn discovery_order(out: &[Vec<usize>], roots: &[usize]) -> Vec<usize> {
    dfs_orders(out, roots).0
}

/// Every vertex, the first edge's source first, then in index order: the search enters
/// the cycles where the flow is first written to start and turns the edges that return
/// there. From the first node named, a `<<choice>>` declared before `[*] --> Queued`, it
/// turned the edge into the choice and drew the diagram from the choice down.
fn written_start_first(g: &Graph) -> Vec<usize> {
    let start = g
        .edges
        .iter()
        .find(|e| e.from != e.to)
        .map(|e| e.from.index());
    start
        .into_iter()
        .chain((0..g.nodes.len()).filter(|&v| Some(v) != start))
        .collect()
}

/// Vertices in the order a depth-first search (from `roots` in turn) reaches them, and in
/// the order it finishes them.
fn dfs_orders(out: &[Vec<usize>], roots: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut seen = vec![false; out.len()];
    let mut reached = Vec::with_capacity(out.len());
    let mut finished = Vec::with_capacity(out.len());
    for &root in roots {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        reached.push(root);
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&w) = out[v].get(*k) {
                *k += 1;
                if !seen[w] {
                    seen[w] = true;
                    reached.push(w);
                    stack.push((w, 0));
                }
            } else {
                finished.push(v);
                stack.pop();
            }
        }
    }
    (reached, finished)
}
