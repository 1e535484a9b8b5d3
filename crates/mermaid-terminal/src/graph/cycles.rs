//! Which edges run against the flow, chosen one nesting level at a time.
//!
//! At each level (the top, or inside one subgraph) a subgraph counts as one vertex: an edge
//! is seen between the level's children that hold its ends. Breaking the cycles of every
//! level apart keeps a subgraph whole: something both entered from and left to a composite
//! state lands above or below all of its members, never among them (breaking the node
//! graph's cycles one constraint at a time put `Closed` inside `Open`'s frame). Only edges
//! on a cycle of the nodes' own constraints are candidates: a subgraph entered and left
//! twice along one path is no cycle.

use crate::graph::ids::{ClusterId, EdgeId, Id, IdVec, NodeId};
use crate::graph::model::Edge;
use crate::graph::model::{ClusterPaths, Graph};

/// One of a level's children: a node placed right at that level, or a subgraph in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Child {
    Node(NodeId),
    Cluster(ClusterId),
}

/// The child of `level` that holds node `n`, when `n` lies within `level`.
fn child_at(g: &Graph, paths: &ClusterPaths, n: NodeId, level: Option<ClusterId>) -> Option<Child> {
    let path = paths.of(g.nodes[n].cluster);
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
fn common_level(g: &Graph, paths: &ClusterPaths, a: NodeId, b: NodeId) -> Option<ClusterId> {
    let (pa, pb) = (paths.of(g.nodes[a].cluster), paths.of(g.nodes[b].cluster));
    pa.iter()
        .zip(pb)
        .take_while(|(x, y)| x == y)
        .last()
        .map(|(x, _)| *x)
}

/// An edge seen at one level: between the level's children holding its ends.
type LevelEdge = (EdgeId, Child, Child);

/// A vertex of one level's search: one of its children, numbered in the order the whole
/// graph's search reaches them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Vertex(usize);

impl Id for Vertex {
    fn new(index: usize) -> Self {
        Vertex(index)
    }
    fn index(self) -> usize {
        self.0
    }
}

/// Per edge: drawn against its direction to break a cycle. `arcs`: the layering
/// constraints between nodes, edges and soft ones alike; an edge whose ends lie on no
/// common cycle of them never turns, nor does a self loop.
pub fn reversed_edges(g: &Graph, arcs: &[(NodeId, NodeId)]) -> IdVec<EdgeId, bool> {
    let n = g.nodes.len();
    let component = components(n, arcs);
    // the edges seen at each level: the top (0), then inside each cluster (1 + its index)
    let level_slot = |level: Option<ClusterId>| level.map_or(0, |c| c.index() + 1);
    let mut by_level: Vec<(Option<ClusterId>, Vec<LevelEdge>)> = std::iter::once(None)
        .chain(g.clusters.ids().map(Some))
        .map(|level| (level, Vec::new()))
        .collect();
    let on_cycle = |e: &&Edge| e.from != e.to && component[e.from] == component[e.to];
    let paths = g.cluster_paths();
    for (i, e) in g.edges.iter_enumerated().filter(|(_, e)| on_cycle(e)) {
        let level = common_level(g, &paths, e.from, e.to);
        let child = |n: NodeId| child_at(g, &paths, n, level);
        if let (Some(a), Some(b)) = (child(e.from), child(e.to)) {
            by_level[level_slot(level)].1.push((i, a, b));
        }
    }
    // a level's search starts where a search of the whole graph from the first edge's
    // source enters its cycles
    let order = discovery_order(&adjacency(n, arcs), &written_start_first(g));
    let mut reversed = IdVec::filled(g.edges.len(), false);
    // each child's vertex, by its place among all children (nodes, then clusters)
    let slot = |c: Child| match c {
        Child::Node(v) => v.index(),
        Child::Cluster(k) => n + k.index(),
    };
    let mut vertex: Vec<Option<Vertex>> = Vec::new();
    for (level, edges) in by_level.iter().filter(|(_, edges)| !edges.is_empty()) {
        vertex.clear();
        vertex.resize(n + g.clusters.len(), None);
        let mut count = 0;
        for &v in &order {
            if let Some(c) = child_at(g, &paths, v, *level)
                && vertex[slot(c)].is_none()
            {
                vertex[slot(c)] = Some(Vertex(count));
                count += 1;
            }
        }
        let of = |c: Child| vertex[slot(c)].unwrap_or(Vertex(0));
        let arcs: Vec<(Vertex, Vertex)> = edges.iter().map(|&(_, a, b)| (of(a), of(b))).collect();
        for (k, back) in back_arcs(count, &arcs).into_iter().enumerate() {
            reversed[edges[k].0] = back;
        }
    }
    reversed
}

/// Depth-first search over `n` vertices marking the arcs that close a cycle (iterative,
/// so deep graphs cannot overflow the stack): turning them leaves the graph acyclic.
pub fn back_arcs<V: Id>(n: usize, arcs: &[(V, V)]) -> Vec<bool> {
    let mut out: IdVec<V, Vec<usize>> = IdVec::filled(n, Vec::new());
    for (k, &(from, _)) in arcs.iter().enumerate() {
        out[from].push(k);
    }
    let mut back = vec![false; arcs.len()];
    let mut state: IdVec<V, u8> = IdVec::filled(n, 0); // 0 new, 1 on stack, 2 done
    for root in out.ids() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(V, usize)> = vec![(root, 0)];
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

/// Each node's strongly connected component (Kosaraju, iterative): two nodes share one
/// when each reaches the other.
fn components(n: usize, arcs: &[(NodeId, NodeId)]) -> IdVec<NodeId, usize> {
    let mut into: IdVec<NodeId, Vec<NodeId>> = IdVec::filled(n, Vec::new());
    for &(a, b) in arcs {
        into[b].push(a);
    }
    let roots: Vec<NodeId> = into.ids().collect();
    let finished = dfs_orders(&adjacency(n, arcs), &roots).1;
    let mut component: IdVec<NodeId, usize> = IdVec::filled(n, usize::MAX);
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

/// Each node's successors.
fn adjacency(n: usize, arcs: &[(NodeId, NodeId)]) -> IdVec<NodeId, Vec<NodeId>> {
    let mut out: IdVec<NodeId, Vec<NodeId>> = IdVec::filled(n, Vec::new());
    for &(a, b) in arcs {
        out[a].push(b);
    }
    out
}

/// Nodes in the order a depth-first search from `roots` reaches them.
fn discovery_order(out: &IdVec<NodeId, Vec<NodeId>>, roots: &[NodeId]) -> Vec<NodeId> {
    dfs_orders(out, roots).0
}

/// Every node, the first edge's source first, then in index order: the search enters the
/// cycles where the flow is first written to start and turns the edges that return there.
/// From the first node named, a `<<choice>>` declared before `[*] --> Queued`, it turned
/// the edge into the choice and drew the diagram from the choice down.
fn written_start_first(g: &Graph) -> Vec<NodeId> {
    let start = g.edges.iter().find(|e| e.from != e.to).map(|e| e.from);
    start
        .into_iter()
        .chain(g.nodes.ids().filter(|&v| Some(v) != start))
        .collect()
}

/// Nodes in the order a depth-first search (from `roots` in turn) reaches them, and in the
/// order it finishes them.
fn dfs_orders(out: &IdVec<NodeId, Vec<NodeId>>, roots: &[NodeId]) -> (Vec<NodeId>, Vec<NodeId>) {
    let mut seen: IdVec<NodeId, bool> = IdVec::filled(out.len(), false);
    let mut reached = Vec::with_capacity(out.len());
    let mut finished = Vec::with_capacity(out.len());
    for &root in roots {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        reached.push(root);
        let mut stack: Vec<(NodeId, usize)> = vec![(root, 0)];
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
