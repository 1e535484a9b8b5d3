//! Layering and ordering (Sugiyama-lite): break cycles, longest-path layers, dummy nodes on
//! long edges, barycenter sweeps that keep subgraph members together.

use crate::graph::cycles;
use crate::graph::ids::{ClusterId, EdgeId, Id, IdVec, ItemId, NodeId, SegId};
use crate::graph::model::{ClusterPaths, Graph};

/// One element of a layer: a real node or a dummy carrying a long edge through the layer.
#[derive(Debug, Clone)]
pub struct Item {
    pub node: Option<NodeId>,
    pub layer: usize,
    pub cluster: Option<ClusterId>,
}

/// A piece of an edge between two consecutive layers.
#[derive(Debug, Clone)]
pub struct Seg {
    pub edge: EdgeId,
    /// item in the lower-index layer
    pub upper: ItemId,
    /// item in the next layer
    pub lower: ItemId,
    /// the piece touching the edge's upper end / lower end
    pub first: bool,
    pub last: bool,
}

#[derive(Debug, Clone)]
pub struct Ranked {
    pub items: IdVec<ItemId, Item>,
    pub layers: Vec<Vec<ItemId>>,
    pub segs: IdVec<SegId, Seg>,
    /// per edge: drawn against its direction to break a cycle
    pub reversed: IdVec<EdgeId, bool>,
    /// self loops: edge indices
    pub loops: Vec<EdgeId>,
    /// back edges kept out of the layers, drawn around the outside (see [`laned`])
    pub lanes: Vec<EdgeId>,
}

/// One layering constraint `from` above `to` made by edge `edge`: the edge itself, or a
/// soft one that keeps a subgraph's members below what enters its frame and above what
/// leaves it. A soft constraint turns with its edge.
#[derive(Debug, Clone, Copy)]
struct Constraint {
    from: NodeId,
    to: NodeId,
    edge: EdgeId,
    soft: bool,
}

fn constraints(g: &Graph, paths: &ClusterPaths) -> Vec<Constraint> {
    let mut out: Vec<Constraint> = g
        .edges
        .iter_enumerated()
        .filter(|(_, e)| e.from != e.to)
        .map(|(i, e)| Constraint {
            from: e.from,
            to: e.to,
            edge: i,
            soft: false,
        })
        .collect();
    let members = |c: ClusterId| {
        g.nodes
            .ids()
            .filter(move |&n| paths.of(g.nodes[n].cluster).contains(&c))
    };
    for (i, e) in g.edges.iter_enumerated() {
        let (left, entered) = if g.composite_states {
            crossed_frames(g, paths, e.from, e.to)
        } else {
            (None, None)
        };
        let from_frame = e.from_frame.or(left);
        let to_frame = e.to_frame.or(entered);
        if let Some(c) = to_frame {
            out.extend(members(c).filter(|&m| m != e.from).map(|m| Constraint {
                from: e.from,
                to: m,
                edge: i,
                soft: true,
            }));
        }
        if let Some(c) = from_frame {
            out.extend(members(c).filter(|&m| m != e.to).map(|m| Constraint {
                from: m,
                to: e.to,
                edge: i,
                soft: true,
            }));
        }
    }
    out
}

/// The outermost subgraph an edge from `from` to `to` leaves, and the outermost one it
/// enters. An edge from a member to a node outside keeps that node off the frame's side,
/// below all its members, as an edge from the frame itself does (beside the frame it
/// squeezed the frame's rows and crossed them).
fn crossed_frames(
    g: &Graph,
    paths: &ClusterPaths,
    from: NodeId,
    to: NodeId,
) -> (Option<ClusterId>, Option<ClusterId>) {
    let pf = paths.of(g.nodes[from].cluster);
    let pt = paths.of(g.nodes[to].cluster);
    let shared = pf.iter().zip(pt).take_while(|(x, y)| x == y).count();
    (pf.get(shared).copied(), pt.get(shared).copied())
}

/// Lowest common cluster of two nodes (dummies of an edge live there).
fn common_cluster(
    paths: &ClusterPaths,
    a: Option<ClusterId>,
    b: Option<ClusterId>,
) -> Option<ClusterId> {
    let (pa, pb) = (paths.of(a), paths.of(b));
    pa.iter()
        .zip(pb)
        .take_while(|(x, y)| x == y)
        .last()
        .map(|(x, _)| *x)
}

pub fn rank(g: &Graph) -> Ranked {
    let (layer, reversed) = layers_of_nodes(g);
    let loops: Vec<EdgeId> = g
        .edges
        .ids()
        .filter(|&i| g.edges[i].from == g.edges[i].to)
        .collect();
    let depth = layer.iter().copied().max().unwrap_or(0) + 1;
    let (items, segs) = items_and_segments(g, &layer, &reversed);
    ordered(
        g,
        Ranked {
            layers: layered(&items, depth),
            items,
            segs,
            reversed,
            loops,
            lanes: Vec::new(),
        },
    )
}

/// Each layer's items, in item order.
fn layered(items: &IdVec<ItemId, Item>, depth: usize) -> Vec<Vec<ItemId>> {
    let mut layers: Vec<Vec<ItemId>> = vec![Vec::new(); depth];
    for (i, it) in items.iter_enumerated() {
        layers[it.layer].push(i);
    }
    layers
}

/// `r` with each layer ordered across to cut crossings.
fn ordered(g: &Graph, mut r: Ranked) -> Ranked {
    order(g, &mut r);
    r
}

/// The layer of every node, and which edges run against the flow: longest path layering
/// over the acyclic orientation (Kahn's order). Cycles are broken one nesting level at a
/// time ([`cycles`]); should an oriented constraint still close one, a soft one is dropped
/// and an edge turned.
fn layers_of_nodes(g: &Graph) -> (IdVec<NodeId, usize>, IdVec<EdgeId, bool>) {
    let n = g.nodes.len();
    let cons = constraints(g, &g.cluster_paths());
    let forward: Vec<(NodeId, NodeId)> = cons.iter().map(|c| (c.from, c.to)).collect();
    let mut reversed = cycles::reversed_edges(g, &forward);
    let arcs: Vec<(NodeId, NodeId)> = cons
        .iter()
        .map(|c| {
            if reversed[c.edge] {
                (c.to, c.from)
            } else {
                (c.from, c.to)
            }
        })
        .collect();
    let back = cycles::back_arcs(n, &arcs);
    let mut indeg: IdVec<NodeId, usize> = IdVec::filled(n, 0);
    let mut out: IdVec<NodeId, Vec<NodeId>> = IdVec::filled(n, Vec::new());
    for ((c, &(u, v)), &closes) in cons.iter().zip(&arcs).zip(&back) {
        let (u, v) = match (closes, c.soft) {
            (true, true) => continue,
            (true, false) => {
                reversed[c.edge] = !reversed[c.edge];
                (v, u)
            }
            (false, _) => (u, v),
        };
        out[u].push(v);
        indeg[v] += 1;
    }
    let sources: Vec<NodeId> = g.nodes.ids().filter(|&v| indeg[v] == 0).collect();
    let mut layer: IdVec<NodeId, usize> = IdVec::filled(n, 0);
    let mut queue: std::collections::VecDeque<NodeId> = sources.iter().copied().collect();
    while let Some(u) = queue.pop_front() {
        for &v in &out[u] {
            layer[v] = layer[v].max(layer[u] + 1);
            indeg[v] -= 1;
            if indeg[v] == 0 {
                queue.push_back(v);
            }
        }
    }
    // A subgraph member that nothing enters sits right above the first layer it feeds: at
    // the top it would stretch its frame up over everything ranked above its siblings.
    for v in sources
        .into_iter()
        .filter(|&v| g.nodes[v].cluster.is_some())
    {
        if let Some(first) = out[v].iter().map(|&w| layer[w]).min() {
            layer[v] = first - 1;
        }
    }
    (layer, reversed)
}

/// An item per node, a dummy item per layer an edge skips, and the segments of every edge
/// (self-loops aside) from layer to layer.
fn items_and_segments(
    g: &Graph,
    layer: &IdVec<NodeId, usize>,
    reversed: &IdVec<EdgeId, bool>,
) -> (IdVec<ItemId, Item>, IdVec<SegId, Seg>) {
    let mut items: IdVec<ItemId, Item> = g
        .nodes
        .iter_enumerated()
        .map(|(i, nd)| Item {
            node: Some(i),
            layer: layer[i],
            cluster: nd.cluster,
        })
        .collect();
    let mut segs = IdVec::new();
    let paths = g.cluster_paths();
    let spans = cluster_spans(g, &paths, layer);
    for (i, e) in g.edges.iter_enumerated() {
        if e.from == e.to {
            continue;
        }
        let (u, v) = if reversed[i] {
            (e.to, e.from)
        } else {
            (e.from, e.to)
        };
        let common = common_cluster(&paths, g.nodes[u].cluster, g.nodes[v].cluster);
        let ends = [g.nodes[u].cluster, g.nodes[v].cluster];
        let layers = layer[u] + 1..layer[v];
        let (u, v) = (ItemId::of_node(u), ItemId::of_node(v));
        let mut prev = u;
        for l in layers {
            let inside = g
                .composite_states
                .then(|| dummy_cluster(&paths, &spans, ends, l));
            let cluster = inside.flatten().or(common);
            let d = items.push(Item {
                node: None,
                layer: l,
                cluster,
            });
            segs.push(Seg {
                edge: i,
                upper: prev,
                lower: d,
                first: prev == u,
                last: false,
            });
            prev = d;
        }
        segs.push(Seg {
            edge: i,
            upper: prev,
            lower: v,
            first: prev == u,
            last: true,
        });
    }
    (items, segs)
}

/// The first and last layer of each cluster's members (`None`: no members).
fn cluster_spans(
    g: &Graph,
    paths: &ClusterPaths,
    layer: &IdVec<NodeId, usize>,
) -> IdVec<ClusterId, Option<(usize, usize)>> {
    let mut spans: IdVec<ClusterId, Option<(usize, usize)>> = IdVec::filled(g.clusters.len(), None);
    for n in g.nodes.ids() {
        for &c in paths.of(g.nodes[n].cluster) {
            let l = layer[n];
            spans[c] = Some(spans[c].map_or((l, l), |(a, b)| (a.min(l), b.max(l))));
        }
    }
    spans
}

/// The deepest subgraph holding one of an edge's ends whose layers reach layer `l`: the
/// edge runs inside that frame and crosses its top or bottom border, not its side (where
/// it pushed the frame aside and crossed the edges round it).
fn dummy_cluster(
    paths: &ClusterPaths,
    spans: &IdVec<ClusterId, Option<(usize, usize)>>,
    ends: [Option<ClusterId>; 2],
    l: usize,
) -> Option<ClusterId> {
    let reaches = |c: &ClusterId| spans[*c].is_some_and(|(a, b)| a <= l && l <= b);
    ends.iter()
        .filter_map(|&end| {
            let path = paths.of(end);
            let depth = path.iter().take_while(|c| reaches(c)).count();
            depth.checked_sub(1).map(|d| (depth, path[d]))
        })
        .max_by_key(|&(depth, _)| depth)
        .map(|(_, c)| c)
}

/// Each item's neighbours in the layer above or below, in segment order: one flat list
/// with each item's range in it, built once per layering instead of a `Vec` per item
/// (the barycentre and cross sweeps read them for every layer of every sweep).
#[derive(Debug, Clone)]
pub(super) struct Neighbours {
    /// `targets[start[i]..start[i + 1]]` are item i's neighbours
    start: Vec<usize>,
    targets: Vec<ItemId>,
}

impl Neighbours {
    /// The neighbours above (`upward`) or below each of `n` items along `segs`.
    pub(super) fn along(n: usize, segs: &IdVec<SegId, Seg>, upward: bool) -> Neighbours {
        let ends = |s: &Seg| {
            if upward {
                (s.lower, s.upper)
            } else {
                (s.upper, s.lower)
            }
        };
        let mut start = vec![0; n + 1];
        for s in segs {
            start[ends(s).0.index() + 1] += 1;
        }
        for k in 1..=n {
            start[k] += start[k - 1];
        }
        let mut next = start.clone();
        let mut targets = vec![ItemId::new(0); segs.len()];
        for s in segs {
            let (from, to) = ends(s);
            targets[next[from.index()]] = to;
            next[from.index()] += 1;
        }
        Neighbours { start, targets }
    }

    /// Item i's neighbours.
    pub(super) fn of(&self, i: ItemId) -> &[ItemId] {
        &self.targets[self.start[i.index()]..self.start[i.index() + 1]]
    }

    /// Each item's list cut down to the neighbours `keep(item, neighbour)` lets through,
    /// when it lets one through (else left whole).
    pub(super) fn narrow(&mut self, keep: impl Fn(ItemId, ItemId) -> bool) {
        let n = self.start.len() - 1;
        let (mut write, mut read) = (0, 0);
        for k in 0..n {
            let (from, to) = (read, self.start[k + 1]);
            read = to;
            let item = ItemId::new(k);
            let any = self.targets[from..to].iter().any(|&x| keep(item, x));
            self.start[k] = write;
            for t in from..to {
                let x = self.targets[t];
                if !any || keep(item, x) {
                    self.targets[write] = x;
                    write += 1;
                }
            }
        }
        self.start[n] = write;
        self.targets.truncate(write);
    }
}

/// Barycenter sweeps; members of a subgraph stay contiguous in every layer.
fn order(g: &Graph, r: &mut Ranked) {
    let up = Neighbours::along(r.items.len(), &r.segs, true);
    let down = Neighbours::along(r.items.len(), &r.segs, false);
    let clusters = g.cluster_paths();
    let paths: IdVec<ItemId, &[ClusterId]> =
        r.items.iter().map(|it| clusters.of(it.cluster)).collect();
    let mut pos: IdVec<ItemId, f64> = IdVec::filled(r.items.len(), 0.0);
    // one buffer of (item, barycentre) for every layer of every sweep
    let mut bary: Vec<(ItemId, f64)> = Vec::new();
    let mut sorter = GroupSort::new(&paths);
    let mut sort_layer =
        |layer: &mut Vec<ItemId>, bary: &mut Vec<(ItemId, f64)>, pos: &mut IdVec<ItemId, f64>| {
            sorter.sort(bary, 0);
            layer.clear();
            layer.extend(bary.iter().map(|&(i, _)| i));
            for (k, &i) in layer.iter().enumerate() {
                pos[i] = k as f64;
            }
        };
    // Initial grouping so clusters start contiguous.
    for layer in &mut r.layers {
        bary.clear();
        bary.extend(layer.iter().enumerate().map(|(k, &i)| (i, k as f64)));
        sort_layer(layer, &mut bary, &mut pos);
    }
    let sweeps = if r.items.len() > 300 { 2 } else { 6 };
    for it in 0..sweeps {
        let downward = it % 2 == 0;
        let nb = if downward { &up } else { &down };
        for l in sweep_order(r.layers.len(), downward) {
            bary.clear();
            bary.extend(r.layers[l].iter().map(|&i| {
                let ns = nb.of(i);
                let b = if ns.is_empty() {
                    pos[i]
                } else {
                    ns.iter().map(|&x| pos[x]).sum::<f64>() / ns.len() as f64
                };
                (i, b)
            }));
            sort_layer(&mut r.layers[l], &mut bary, &mut pos);
        }
    }
}

/// Sorting a layer by barycentre while the items of one cluster stay together, with its
/// buffers kept from layer to layer (it ran for every layer of every sweep and, nested,
/// for every cluster in it: a `Vec` per group each time).
struct GroupSort<'a> {
    paths: &'a IdVec<ItemId, &'a [ClusterId]>,
    /// this level's groups in order of first appearance: (key, sum of barycentres, count)
    groups: Vec<(GroupKey, f64, usize)>,
    /// per group (in order of first appearance): its place once sorted by mean
    rank: Vec<usize>,
    /// the items tagged with their group's place, to sort stably by it
    tagged: Vec<(usize, (ItemId, f64))>,
}

/// What an item is grouped by at one depth: the cluster it is in there, or (outside any
/// cluster at that depth) itself alone.
#[derive(Debug, Clone, Copy, PartialEq)]
enum GroupKey {
    Cluster(ClusterId),
    Alone(ItemId),
}

impl<'a> GroupSort<'a> {
    fn new(paths: &'a IdVec<ItemId, &'a [ClusterId]>) -> Self {
        GroupSort {
            paths,
            groups: Vec::new(),
            rank: Vec::new(),
            tagged: Vec::new(),
        }
    }

    fn key(&self, i: ItemId, depth: usize) -> GroupKey {
        self.paths[i]
            .get(depth)
            .map_or(GroupKey::Alone(i), |&c| GroupKey::Cluster(c))
    }

    /// Sort `items` by barycentre, keeping items of the same cluster (at `depth`) together:
    /// the groups by their mean barycentre (ties: the first seen first), each cluster's
    /// members sorted the same way one cluster deeper.
    fn sort(&mut self, items: &mut [(ItemId, f64)], depth: usize) {
        if items.iter().all(|&(i, _)| self.paths[i].len() <= depth) {
            // no clusters here (most layers): each item is a group of its own, so this is a
            // stable sort by barycentre
            items.sort_by(|a, b| a.1.total_cmp(&b.1));
            return;
        }
        self.rank_groups(items, depth);
        self.tagged.clear();
        for &(i, b) in items.iter() {
            let key = self.key(i, depth);
            let gi = self.groups.iter().position(|g| g.0 == key).unwrap_or(0);
            self.tagged.push((self.rank[gi], (i, b)));
        }
        self.tagged.sort_by_key(|t| t.0);
        for (slot, t) in items.iter_mut().zip(&self.tagged) {
            *slot = t.1;
        }
        if depth >= 16 {
            return;
        }
        // each cluster's run of members, one cluster deeper
        let mut k = 0;
        while k < items.len() {
            let key = self.key(items[k].0, depth);
            let len = items[k..]
                .iter()
                .take_while(|m| self.key(m.0, depth) == key)
                .count();
            if matches!(key, GroupKey::Cluster(_)) {
                self.sort(&mut items[k..k + len], depth + 1);
            }
            k += len;
        }
    }

    /// `groups` of `items` at `depth`, and each one's `rank` by mean barycentre.
    fn rank_groups(&mut self, items: &[(ItemId, f64)], depth: usize) {
        self.groups.clear();
        for &(i, b) in items {
            let key = self.key(i, depth);
            match self.groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => {
                    g.1 += b;
                    g.2 += 1;
                }
                None => self.groups.push((key, b, 1)),
            }
        }
        let groups = &self.groups;
        let mean = |gi: usize| groups[gi].1 / groups[gi].2 as f64;
        // sorted group indices first, then turned into each group's place
        self.tagged.clear();
        self.tagged
            .extend((0..groups.len()).map(|gi| (gi, (ItemId::new(0), mean(gi)))));
        self.tagged
            .sort_by(|a, b| a.1.1.total_cmp(&b.1.1).then(a.0.cmp(&b.0)));
        self.rank.clear();
        self.rank.resize(groups.len(), 0);
        for (place, t) in self.tagged.iter().enumerate() {
            self.rank[t.0] = place;
        }
    }
}

/// The same layering with the dummies of back edges (outside any subgraph) moved to the
/// right end of their layers, so back edges run up the far side of the drawing instead of
/// crossing the edges that leave a node downwards. `None` when there is nothing to move.
pub fn far_side(r: &Ranked) -> Option<Ranked> {
    let mut back_dummy: IdVec<ItemId, bool> = IdVec::filled(r.items.len(), false);
    for s in &r.segs {
        if r.reversed[s.edge] && r.items[s.lower].node.is_none() {
            back_dummy[s.lower] = r.items[s.lower].cluster.is_none();
        }
    }
    if !back_dummy.contains(&true) {
        return None;
    }
    let mut out = r.clone();
    for layer in &mut out.layers {
        let (back, front): (Vec<ItemId>, Vec<ItemId>) = layer.iter().partition(|&&i| back_dummy[i]);
        *layer = front.into_iter().chain(back).collect();
    }
    Some(out)
}

/// The same layering with the back edges that span `min_span` layers or more taken out of
/// it (with their dummies), to be drawn around the outside once the rest is drawn: such an
/// edge drawn through the layers climbs between the boxes it skips and crosses the edges
/// leaving them. A back edge to the next layer up stays (it runs beside its forward
/// partner), and so does one naming a flowchart's subgraph (a composite state's frame
/// is reached on its border), and unless `inside_frames` one inside a subgraph (round the
/// outside it leaves its frame and comes back in). `None` when there is nothing to take
/// out.
pub fn laned(g: &Graph, r: &Ranked, min_span: usize, inside_frames: bool) -> Option<Ranked> {
    let layer = |n: NodeId| r.items[ItemId::of_node(n)].layer;
    let paths = g.cluster_paths();
    let lane: IdVec<EdgeId, bool> = g
        .edges
        .iter_enumerated()
        .map(|(i, e)| {
            r.reversed[i]
                && e.from != e.to
                && (g.composite_states || (e.from_frame.is_none() && e.to_frame.is_none()))
                && (inside_frames
                    || common_cluster(&paths, g.nodes[e.from].cluster, g.nodes[e.to].cluster)
                        .is_none())
                && layer(e.from).abs_diff(layer(e.to)) >= min_span.max(2)
        })
        .collect();
    if !lane.contains(&true) {
        return None;
    }
    let mut keep: IdVec<ItemId, bool> = IdVec::filled(r.items.len(), true);
    for s in r.segs.iter().filter(|s| lane[s.edge]) {
        if r.items[s.lower].node.is_none() {
            keep[s.lower] = false;
        }
    }
    // the items kept keep their order: the nodes stay first, at their own indices
    let mut index: IdVec<ItemId, Option<ItemId>> = IdVec::filled(r.items.len(), None);
    let mut items = IdVec::with_capacity(r.items.len());
    for (i, it) in r.items.iter_enumerated() {
        if keep[i] {
            index[i] = Some(items.push(it.clone()));
        }
    }
    // a segment kept joins items kept: a dummy dropped is on a lane's segments only
    let segs = r
        .segs
        .iter()
        .filter(|s| !lane[s.edge])
        .map(|s| {
            Some(Seg {
                upper: index[s.upper]?,
                lower: index[s.lower]?,
                ..s.clone()
            })
        })
        .collect::<Option<IdVec<SegId, Seg>>>()?;
    Some(ordered(
        g,
        Ranked {
            layers: layered(&items, r.layers.len()),
            items,
            segs,
            reversed: r.reversed.clone(),
            loops: r.loops.clone(),
            lanes: g.edges.ids().filter(|&i| lane[i]).collect(),
        },
    ))
}

/// The same layering with states that lead nowhere further down (the choice's `Retrying`
/// whose only way on is back up) moved to the layer below theirs while that one is
/// narrower: longest-path layering puts every such sink right under its lowest
/// predecessor, so a fan-out of three beside its own sinks' end makes one layer wider
/// than the terminal while the next holds only `[*]`. Only nodes outside subgraphs move (a
/// member moved would stretch its frame). With its back edges round the outside (see
/// [`laned`]) and as they are; empty when no sink moves.
pub fn lowered(g: &Graph, r: &Ranked) -> Vec<Ranked> {
    with_lanes(g, sinks_moved_down(g, r, false))
}

/// Like [`lowered`], with a new layer under the last one for the sinks to move to: the
/// four leaves of one class side by side are wider than the terminal, two of them a row
/// lower (their edges running down past the other two) are not. Empty when no sink moves
/// to the new layer (what [`lowered`] tries already).
pub fn split_bottom(g: &Graph, r: &Ranked) -> Vec<Ranked> {
    let split = sinks_moved_down(g, r, true).filter(|s| s.layers.len() > r.layers.len());
    with_lanes(g, split)
}

/// A layering with its back edges round the outside (see [`laned`]), then as it is.
fn with_lanes(g: &Graph, r: Option<Ranked>) -> Vec<Ranked> {
    let Some(r) = r else {
        return Vec::new();
    };
    laned(g, &r, 2, false)
        .into_iter()
        .chain(std::iter::once(r))
        .collect()
}

/// The layering with the sinks moved down (see [`lowered`]); `None` when none moves.
/// `row_below`: a layer under the last one to move to (dropped when it stays empty).
fn sinks_moved_down(g: &Graph, r: &Ranked, row_below: bool) -> Option<Ranked> {
    let mut layer: IdVec<NodeId, usize> = g
        .nodes
        .ids()
        .map(|n| r.items[ItemId::of_node(n)].layer)
        .collect();
    let mut leads_down: IdVec<NodeId, bool> = IdVec::filled(g.nodes.len(), false);
    for s in r.segs.iter().filter(|s| s.first) {
        if let Some(n) = r.items[s.upper].node {
            leads_down[n] = true;
        }
    }
    let wide = estimated_widths(g);
    let depth = r.layers.len() + usize::from(row_below);
    let mut across: Vec<usize> = vec![0; depth];
    for it in &r.items {
        across[it.layer] += it.node.map_or(1, |n| wide[n]) + LEAST_SEP;
    }
    let mut moved = false;
    for n in g.nodes.ids() {
        if leads_down[n] || g.nodes[n].cluster.is_some() {
            continue;
        }
        while let Some(&below) = across.get(layer[n] + 1) {
            let w = wide[n] + LEAST_SEP;
            if below + w >= across[layer[n]] {
                break;
            }
            // its old place keeps a dummy per edge into it
            let into = r
                .segs
                .iter()
                .filter(|s| s.last && r.items[s.lower].node == Some(n))
                .count();
            across[layer[n]] = across[layer[n]] - w + into * (1 + LEAST_SEP);
            layer[n] += 1;
            across[layer[n]] += w;
            moved = true;
        }
    }
    if !moved {
        return None;
    }
    let depth = layer
        .iter()
        .map(|&l| l + 1)
        .fold(r.layers.len(), usize::max);
    let (items, segs) = items_and_segments(g, &layer, &r.reversed);
    Some(ordered(
        g,
        Ranked {
            layers: layered(&items, depth),
            items,
            segs,
            reversed: r.reversed.clone(),
            loops: r.loops.clone(),
            lanes: Vec::new(),
        },
    ))
}

/// The least columns between two neighbours in a layer.
const LEAST_SEP: usize = 2;

/// Columns each node takes across a top-down layer, roughly: its box round its widest
/// label or member line (lines wrap at 30 at most), and the notes beside it.
fn estimated_widths(g: &Graph) -> IdVec<NodeId, usize> {
    let widest = |lines: &[String]| {
        lines
            .iter()
            .map(|l| crate::text::display_width(l))
            .max()
            .unwrap_or(0)
            .min(30)
    };
    // a class box is as wide as its widest member too
    let mut wide: IdVec<NodeId, usize> = g
        .nodes
        .iter()
        .map(|n| {
            n.sections
                .iter()
                .map(|s| widest(s))
                .fold(widest(&n.label), usize::max)
                + 4
        })
        .collect();
    for note in &g.notes {
        if let Some(n) = note.node {
            wide[n] += widest(&note.text) + 4 + LEAST_SEP;
        }
    }
    wide
}

/// The layers one sweep of a barycentre pass visits, each against its neighbour already
/// placed: downward from the second layer, upward from the one before last.
pub(super) fn sweep_order(layers: usize, downward: bool) -> impl Iterator<Item = usize> {
    let count = layers.saturating_sub(1);
    (0..count).map(move |k| if downward { k + 1 } else { count - 1 - k })
}

#[cfg(test)]
mod tests {
    use super::{laned, rank};
    use crate::graph::ids::ItemId;
    use crate::graph::parse_flowchart::parse;

    /// `ItemId::of_node` relies on it: in every layering the nodes are the first items, in
    /// node order, the lanes' layering too (it drops the dummies of the edges it takes out).
    #[test]
    fn every_layering_keeps_each_node_at_its_own_item() {
        let body = "    A[quizz generate] --> B[ask claude for an outline]
    B --> C[write the options]
    subgraph check [validate]
        C --> D{every mermaid option parses?}
    end
    D -->|yes| E[cache the quiz]
    D -->|no| F[log the error]
    F -->|retry up to 3 times| B";
        let g = parse("flowchart TD", body).unwrap_or_else(|e| panic!("{e}"));
        let r = rank(&g);
        let lanes = laned(&g, &r, 2, false);
        assert!(lanes.as_ref().is_some_and(|l| !l.lanes.is_empty()));
        for ranked in std::iter::once(&r).chain(lanes.as_ref()) {
            for n in g.nodes.ids() {
                assert_eq!(ranked.items[ItemId::of_node(n)].node, Some(n));
            }
        }
    }
}
