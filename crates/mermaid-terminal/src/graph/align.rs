//! A second cross placement (Brandes–Köpf): each item lined up with a median neighbour
//! into vertical blocks, the blocks packed as close as their layers allow. Four passes
//! (aligned with the layer above or below, packed to the left or right) and their
//! balance; the narrowest wins. Tried only when the barycentre placement of
//! [`crate::graph::cross::cross_positions`] draws nothing: a chain of decisions then
//! stays in one column instead of drifting sideways until its layers add up.
//!
//! Coordinates here are item centres doubled (`2 * start + anchor2`), so boxes of any
//! width line up on their centre lines in integers.

use crate::graph::ids::{IdVec, ItemId};
use crate::graph::rank::Ranked;

/// Cross positions (start of each item) from the four alignments and their balance,
/// the narrowest; `None` when the graph has no layers to align. Same contract as
/// `cross_positions`: neighbours in a layer at least `sep` apart, the least start at 0.
pub fn aligned_positions(
    r: &Ranked,
    csize: &IdVec<ItemId, usize>,
    anchor2: &IdVec<ItemId, i64>,
    sep: &dyn Fn(ItemId, ItemId) -> i64,
    blocks: Blocks,
) -> Option<IdVec<ItemId, i64>> {
    let n = r.items.len();
    if n == 0 {
        return None;
    }
    let shape = Shape::new(r, csize, anchor2, sep);
    let conflicts = type1_conflicts(r, &shape.up);
    let short = blocks == Blocks::Pairs;
    let mut layouts = Vec::with_capacity(4);
    for downward in [true, false] {
        for leftward in [true, false] {
            let pass = Pass {
                downward,
                leftward,
                short,
            };
            layouts.push(shape.pass(r, pass, &conflicts)?);
        }
    }
    Some(shape.narrowest(layouts))
}

/// Ports of one box side moved together so the one at `straight` (the port of the edge
/// to the box lined up with this one) sits on the box's centre line, `centre`: that edge
/// runs straight down. Left as they are when a port would leave `lo..=hi`.
pub fn centre_ports(spots: &mut [i64], straight: Option<usize>, centre: i64, (lo, hi): (i64, i64)) {
    let Some(at) = straight.and_then(|k| spots.get(k)) else {
        return;
    };
    let d = centre - at;
    if spots.iter().all(|&p| (lo..=hi).contains(&(p + d))) {
        for p in spots.iter_mut() {
            *p += d;
        }
    }
}

/// How far items line up: into blocks as long as their medians allow, or only in pairs
/// (an item already lined up with the layer before takes none after it). Pairs leave a
/// frame's members freer to move off a long column that runs through it, so they are
/// tried when long blocks draw nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocks {
    Long,
    Pairs,
}

/// One of the four passes: aligned with the layer above (`downward`) or below, packed
/// toward the left (`leftward`) or the right.
#[derive(Debug, Clone, Copy)]
struct Pass {
    downward: bool,
    leftward: bool,
    /// lined up only in pairs ([`Blocks::Pairs`])
    short: bool,
}

/// What every pass reads: neighbours, positions in the layers, least centre distances.
struct Shape<'a> {
    csize: &'a IdVec<ItemId, usize>,
    anchor2: &'a IdVec<ItemId, i64>,
    /// neighbours in the layer above / below, in layer order
    up: IdVec<ItemId, Vec<ItemId>>,
    down: IdVec<ItemId, Vec<ItemId>>,
    /// index of each item in its layer
    index: IdVec<ItemId, usize>,
    /// least doubled centre distance from each item to its right neighbour
    gap_right: IdVec<ItemId, i64>,
}

impl<'a> Shape<'a> {
    fn new(
        r: &Ranked,
        csize: &'a IdVec<ItemId, usize>,
        anchor2: &'a IdVec<ItemId, i64>,
        sep: &dyn Fn(ItemId, ItemId) -> i64,
    ) -> Self {
        let n = r.items.len();
        let mut index = IdVec::filled(n, 0);
        let mut gap_right = IdVec::filled(n, 0);
        for layer in &r.layers {
            for (k, &i) in layer.iter().enumerate() {
                index[i] = k;
                if let Some(&next) = layer.get(k + 1) {
                    // start(next) >= start(i) + csize(i) + sep, in doubled centres
                    gap_right[i] =
                        anchor2[next] - anchor2[i] + 2 * (csize[i] as i64 + sep(i, next).max(0));
                }
            }
        }
        let mut up: IdVec<ItemId, Vec<ItemId>> = IdVec::filled(n, Vec::new());
        let mut down: IdVec<ItemId, Vec<ItemId>> = IdVec::filled(n, Vec::new());
        for s in &r.segs {
            down[s.upper].push(s.lower);
            up[s.lower].push(s.upper);
        }
        for list in up.iter_mut().chain(down.iter_mut()) {
            list.sort_by_key(|&i| index[i]);
        }
        Shape {
            csize,
            anchor2,
            up,
            down,
            index,
            gap_right,
        }
    }

    /// Doubled centres of one pass, in left-to-right terms.
    fn pass(
        &self,
        r: &Ranked,
        pass: Pass,
        conflicts: &[(ItemId, ItemId)],
    ) -> Option<IdVec<ItemId, i64>> {
        let layers: Vec<Vec<ItemId>> = {
            let mut ls: Vec<Vec<ItemId>> = r.layers.clone();
            if !pass.downward {
                ls.reverse();
            }
            if !pass.leftward {
                for l in &mut ls {
                    l.reverse();
                }
            }
            ls
        };
        let neighbours = if pass.downward { &self.up } else { &self.down };
        let root = self.vertical(&layers, neighbours, pass, conflicts);
        let x = self.compact(&layers, &root, pass)?;
        Some(if pass.leftward {
            x
        } else {
            x.iter().map(|v| -v).collect()
        })
    }

    /// Position of an item along the pass's order of its layer.
    fn order(&self, i: ItemId, len: usize, pass: Pass) -> usize {
        if pass.leftward {
            self.index[i]
        } else {
            len - 1 - self.index[i]
        }
    }

    /// Vertical alignment: each item joins the block of a median neighbour in the layer
    /// before (in pass order), unless that crosses an alignment made already or a long
    /// edge's straight run. Returns the root (first item) of each item's block.
    fn vertical(
        &self,
        layers: &[Vec<ItemId>],
        neighbours: &IdVec<ItemId, Vec<ItemId>>,
        pass: Pass,
        conflicts: &[(ItemId, ItemId)],
    ) -> IdVec<ItemId, ItemId> {
        let mut root: IdVec<ItemId, ItemId> = self.index.ids().collect();
        let mut align: IdVec<ItemId, ItemId> = self.index.ids().collect();
        for w in layers.windows(2) {
            let prev_len = w[0].len();
            let mut last: Option<usize> = None;
            for &v in &w[1] {
                let mut ns: Vec<ItemId> = neighbours[v].clone();
                if ns.is_empty() {
                    continue;
                }
                ns.sort_by_key(|&u| self.order(u, prev_len, pass));
                let d = ns.len();
                let medians = [ns[(d - 1) / 2], ns[d / 2]];
                let medians = if medians[0] == medians[1] {
                    &medians[..1]
                } else {
                    &medians[..]
                };
                for &m in medians {
                    if align[v] != v {
                        break;
                    }
                    let at = self.order(m, prev_len, pass);
                    let crossed = conflicts.binary_search(&(m.min(v), m.max(v))).is_ok();
                    let grown = pass.short && align[m] != m;
                    if !crossed && !grown && last.is_none_or(|l| l < at) {
                        align[m] = v;
                        root[v] = root[m];
                        align[v] = root[v];
                        last = Some(at);
                    }
                }
            }
        }
        root
    }

    /// Least doubled centre distance between `a` and the item after it in pass order.
    fn gap(&self, a: ItemId, b: ItemId, pass: Pass) -> i64 {
        if pass.leftward {
            self.gap_right[a]
        } else {
            self.gap_right[b]
        }
    }

    /// Horizontal compaction: blocks pushed as far as their layers' neighbours allow
    /// (longest path over the block graph), then pulled back toward the items after them
    /// where that leaves room, so a side block does not trail far from its neighbours.
    /// `None` if the block graph has a cycle (an alignment that cannot be).
    fn compact(
        &self,
        layers: &[Vec<ItemId>],
        root: &IdVec<ItemId, ItemId>,
        pass: Pass,
    ) -> Option<IdVec<ItemId, i64>> {
        let n = root.len();
        // block graph: root -> root of the next item in a layer, with the least distance
        let mut succ: IdVec<ItemId, Vec<(ItemId, i64)>> = IdVec::filled(n, Vec::new());
        let mut indegree: IdVec<ItemId, usize> = IdVec::filled(n, 0);
        for l in layers {
            for w in l.windows(2) {
                let (a, b) = (root[w[0]], root[w[1]]);
                let d = self.gap(w[0], w[1], pass);
                if let Some(e) = succ[a].iter_mut().find(|(t, _)| *t == b) {
                    e.1 = e.1.max(d);
                } else {
                    succ[a].push((b, d));
                    indegree[b] += 1;
                }
            }
        }
        let roots: Vec<ItemId> = root.ids().filter(|&i| root[i] == i).collect();
        let mut queue: Vec<ItemId> = roots
            .iter()
            .copied()
            .filter(|&i| indegree[i] == 0)
            .collect();
        let mut topo = Vec::with_capacity(roots.len());
        while let Some(v) = queue.pop() {
            topo.push(v);
            for &(w, _) in &succ[v] {
                indegree[w] -= 1;
                if indegree[w] == 0 {
                    queue.push(w);
                }
            }
        }
        if topo.len() != roots.len() {
            return None;
        }
        let mut x: IdVec<ItemId, i64> = IdVec::filled(n, 0);
        for &v in &topo {
            for &(w, d) in &succ[v] {
                x[w] = x[w].max(x[v] + d);
            }
        }
        for &v in topo.iter().rev() {
            if let Some(limit) = succ[v].iter().map(|&(w, d)| x[w] - d).min() {
                x[v] = x[v].max(limit);
            }
        }
        Some(root.iter().map(|&b| x[b]).collect())
    }

    /// Starts from doubled centres `sum / div` (rounded up, which keeps every least
    /// distance), the least at 0.
    fn starts(&self, centres: &IdVec<ItemId, i64>, div: i64) -> IdVec<ItemId, i64> {
        let starts: IdVec<ItemId, i64> = centres
            .iter()
            .zip(self.anchor2)
            .map(|(&c, &a)| ceil_div(c - div * a, 2 * div))
            .collect();
        let min = starts.iter().copied().min().unwrap_or(0);
        starts.iter().map(|s| s - min).collect()
    }

    /// Columns a placement spans.
    fn width(&self, starts: &IdVec<ItemId, i64>) -> i64 {
        let hi = starts
            .iter()
            .zip(self.csize)
            .map(|(&s, &c)| s + c as i64)
            .max()
            .unwrap_or(0);
        hi - starts.iter().copied().min().unwrap_or(0)
    }

    /// The four layouts lined up on the narrowest one (left passes on its left edge, right
    /// passes on its right), their balance (the mean of the two middle centres of each
    /// item), and the narrowest of all five; the balance on a tie.
    fn narrowest(&self, mut layouts: Vec<IdVec<ItemId, i64>>) -> IdVec<ItemId, i64> {
        let extent = |x: &IdVec<ItemId, i64>| {
            let lo = x.iter().copied().min().unwrap_or(0);
            let hi = x.iter().copied().max().unwrap_or(0);
            (lo, hi)
        };
        let singles: Vec<IdVec<ItemId, i64>> = layouts.iter().map(|x| self.starts(x, 1)).collect();
        let Some(best) = (0..singles.len()).min_by_key(|&k| self.width(&singles[k])) else {
            return IdVec::new();
        };
        let (lo, hi) = extent(&layouts[best]);
        for (k, x) in layouts.iter_mut().enumerate() {
            let (l, h) = extent(x);
            // passes 0 and 2 pack leftward, 1 and 3 rightward
            let shift = if k % 2 == 0 { lo - l } else { hi - h };
            for v in x.iter_mut() {
                *v += shift;
            }
        }
        let sums: IdVec<ItemId, i64> = self
            .index
            .ids()
            .map(|i| {
                let mut v: Vec<i64> = layouts.iter().map(|x| x[i]).collect();
                v.sort_unstable();
                v[1] + v[2]
            })
            .collect();
        let balanced = self.starts(&sums, 2);
        if self.width(&balanced) <= self.width(&singles[best]) {
            balanced
        } else {
            singles.into_iter().nth(best).unwrap_or(balanced)
        }
    }
}

/// `x / d` rounded up (`d` > 0).
fn ceil_div(x: i64, d: i64) -> i64 {
    -(-x).div_euclid(d)
}

/// Segments between two non-dummy-only items that cross a segment between two dummies (a
/// long edge's straight run): never aligned, so long edges stay straight. As pairs
/// (smaller item, larger item).
fn type1_conflicts(r: &Ranked, up: &IdVec<ItemId, Vec<ItemId>>) -> Vec<(ItemId, ItemId)> {
    let dummy = |i: ItemId| r.items[i].node.is_none();
    let mut index: IdVec<ItemId, usize> = IdVec::filled(r.items.len(), 0);
    for l in &r.layers {
        for (k, &i) in l.iter().enumerate() {
            index[i] = k;
        }
    }
    let mut out = Vec::new();
    for w in r.layers.windows(2) {
        let (prev, layer) = (&w[0], &w[1]);
        let mut k0 = 0usize;
        let mut scan = 0usize;
        for (l1, &v) in layer.iter().enumerate() {
            let inner = dummy(v)
                .then(|| up[v].iter().copied().find(|&u| dummy(u)))
                .flatten();
            if inner.is_none() && l1 + 1 != layer.len() {
                continue;
            }
            let k1 = inner.map_or(prev.len().saturating_sub(1), |u| index[u]);
            for &s in &layer[scan..=l1] {
                for &u in &up[s] {
                    if (index[u] < k0 || index[u] > k1) && !(dummy(u) && dummy(s)) {
                        out.push((u.min(s), u.max(s)));
                    }
                }
            }
            scan = l1 + 1;
            k0 = k1;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::ids::{EdgeId, Id, NodeId};
    use crate::graph::rank::{Item, Seg};

    /// Node `n`'s item (items are numbered as their nodes here: no dummies).
    fn at(n: usize) -> ItemId {
        ItemId::new(n)
    }

    fn item(layer: usize, n: usize) -> Item {
        Item {
            node: Some(NodeId::new(n)),
            layer,
            cluster: None,
        }
    }

    fn seg(edge: usize, upper: usize, lower: usize) -> Seg {
        Seg {
            edge: EdgeId::new(edge),
            upper: at(upper),
            lower: at(lower),
            first: true,
            last: true,
        }
    }

    /// Two decisions in a row, each with a narrow exit on its left: the chain
    /// (0 → 2 → 4) stays in one column, each exit beside it, the least distances kept.
    #[test]
    fn a_chain_of_decisions_stays_in_one_column() {
        // layer 0: decision 0; layer 1: exit 1, decision 2; layer 2: exit 3, end 4
        let r = Ranked {
            items: IdVec::from(vec![
                item(0, 0),
                item(1, 1),
                item(1, 2),
                item(2, 3),
                item(2, 4),
            ]),
            layers: vec![vec![at(0)], vec![at(1), at(2)], vec![at(3), at(4)]],
            segs: IdVec::from(vec![seg(0, 0, 1), seg(1, 0, 2), seg(2, 2, 3), seg(3, 2, 4)]),
            reversed: IdVec::filled(4, false),
            loops: Vec::new(),
            lanes: Vec::new(),
        };
        let csize: IdVec<ItemId, usize> = IdVec::from(vec![21, 9, 21, 9, 11]);
        let anchor2: IdVec<ItemId, i64> = csize.iter().map(|&c| c as i64 - 1).collect();
        let sep = |_: ItemId, _: ItemId| 2;
        let cross = aligned_positions(&r, &csize, &anchor2, &sep, Blocks::Long).unwrap();
        let start = |n: usize| cross[at(n)];
        let centre = |n: usize| start(n) + (csize[at(n)] as i64 - 1) / 2;
        assert_eq!(centre(0), centre(2), "{cross:?}");
        assert_eq!(centre(2), centre(4), "{cross:?}");
        assert_eq!(start(2), start(1) + 9 + 2, "{cross:?}");
        assert!(start(4) >= start(3) + 9 + 2, "{cross:?}");
        assert_eq!(cross.iter().min(), Some(&0));
    }
}
