//! Cross-axis placement: pack each layer, pull items toward their neighbours, then push
//! items apart until no subgraph frame covers an item that is not its member.

use std::cell::RefCell;

use crate::graph::ids::{ClusterId, IdVec, ItemId};
use crate::graph::model::Graph;
use crate::graph::rank::{Neighbours, Ranked, sweep_order};

/// Place items across each layer: pack, then pull toward the mean of their neighbours
/// (with `inside`, each item's cluster path: a member only by those in its own frame).
/// `anchor2[i]` is twice the offset of item i's centre line from its start (its box
/// centre, which a note or a self-loop beside the box moves off the item's middle).
pub fn cross_positions(
    r: &Ranked,
    csize: &IdVec<ItemId, usize>,
    anchor2: &IdVec<ItemId, i64>,
    sep: &dyn Fn(ItemId, ItemId) -> i64,
    inside: Option<&IdVec<ItemId, Vec<ClusterId>>>,
) -> IdVec<ItemId, i64> {
    let n = r.items.len();
    let mut up = Neighbours::along(n, &r.segs, true);
    let mut down = Neighbours::along(n, &r.segs, false);
    if let Some(paths) = inside {
        pulled_inside_only(paths, &mut up, &mut down);
    }
    let mut pos: IdVec<ItemId, i64> = IdVec::filled(n, 0);
    for layer in &r.layers {
        let mut x = 0i64;
        for (k, &i) in layer.iter().enumerate() {
            if k > 0 {
                x += sep(layer[k - 1], i);
            }
            pos[i] = x;
            x += csize[i] as i64;
        }
    }
    let center = |pos: &IdVec<ItemId, i64>, i: ItemId| pos[i] * 2 + anchor2[i];
    let iterations = if n > 300 { 2 } else { 6 };
    // the desired and the placed left edges of one layer's items, kept for every layer
    let (mut desired, mut placed): (Vec<i64>, Vec<i64>) = (Vec::new(), Vec::new());
    for it in 0..iterations {
        let downward = it % 2 == 0;
        let nb = if downward { &up } else { &down };
        for l in sweep_order(r.layers.len(), downward) {
            let layer = &r.layers[l];
            // desired left edge for each item (centers doubled to stay in integers)
            desired.clear();
            desired.extend(layer.iter().map(|&i| {
                let ns = nb.of(i);
                if ns.is_empty() {
                    pos[i]
                } else {
                    let mean2 = ns.iter().map(|&x| center(&pos, x)).sum::<i64>() / ns.len() as i64;
                    (mean2 - anchor2[i]).div_euclid(2)
                }
            }));
            placed.clear();
            placed.extend_from_slice(&desired);
            for k in 1..layer.len() {
                let min = placed[k - 1] + csize[layer[k - 1]] as i64 + sep(layer[k - 1], layer[k]);
                placed[k] = placed[k].max(min);
            }
            for k in (0..layer.len().saturating_sub(1)).rev() {
                let max = placed[k + 1] - sep(layer[k], layer[k + 1]) - csize[layer[k]] as i64;
                placed[k] = placed[k].min(max).max(desired[k].min(placed[k]));
                placed[k] = placed[k].min(max);
            }
            for (k, &i) in layer.iter().enumerate() {
                pos[i] = placed[k];
            }
        }
    }
    let min = pos.iter().copied().min().unwrap_or(0);
    for p in &mut pos {
        *p -= min;
    }
    pos
}

/// Neighbours outside an item's innermost frame dropped, when it has some inside: a decision
/// pulled toward the ends outside its frame spreads the frame, which is then pushed clear
/// of those ends anyway, as wide as it was spread.
fn pulled_inside_only(
    paths: &IdVec<ItemId, Vec<ClusterId>>,
    up: &mut Neighbours,
    down: &mut Neighbours,
) {
    let in_own_frame =
        |i: ItemId, x: ItemId| paths[i].last().is_none_or(|inner| paths[x].contains(inner));
    up.narrow(in_own_frame);
    down.narrow(in_own_frame);
}

/// Room a frame takes beyond its members, per cluster.
#[derive(Debug, Clone, Copy)]
pub struct FrameRoom<'a> {
    /// TD: the least width (cross1 - cross0) of each frame (room for its title)
    pub min_w: Option<&'a IdVec<ClusterId, i64>>,
    /// cells each frame reaches out left and right of its members to hold the labels of
    /// the edges inside it
    pub labels: &'a IdVec<ClusterId, (i64, i64)>,
}

/// Push items so that no frame covers an item that is not its member.
pub fn resolve_frames(
    g: &Graph,
    r: &Ranked,
    cross: &mut IdVec<ItemId, i64>,
    csize: &IdVec<ItemId, usize>,
    paths: &IdVec<ItemId, Vec<ClusterId>>,
    margin: i64,
    room: FrameRoom,
) -> Result<(), String> {
    if g.clusters.is_empty() {
        return Ok(());
    }
    let extents = Extents {
        g,
        r,
        csize,
        paths,
        margin,
        room,
        known: RefCell::new(IdVec::filled(g.clusters.len(), Known::Stale)),
        members: members_of(g, r, paths),
    };
    let extent = |c: ClusterId, cross: &IdVec<ItemId, i64>| extents.of(c, cross);
    let shift_cluster =
        |c: ClusterId, lo: usize, hi: usize, d: i64, cross: &mut IdVec<ItemId, i64>| {
            for l2 in lo..=hi {
                if let Some(&first) = r.layers[l2]
                    .iter()
                    .filter(|&&i| paths[i].contains(&c))
                    .min_by_key(|&&i| cross[i])
                {
                    shift_from(r, cross, l2, first, d);
                }
            }
        };
    for _ in 0..40 {
        let mut moved = false;
        for c in g.clusters.ids() {
            let Some((lo, hi, f0, f1)) = extent(c, cross) else {
                continue;
            };
            'layers: for l in lo..=hi {
                for &j in &r.layers[l] {
                    if paths[j].contains(&c) {
                        continue;
                    }
                    let (j0, j1) = (cross[j], cross[j] + csize[j] as i64 - 1);
                    if j1 < f0 - 1 || j0 > f1 + 1 {
                        continue;
                    }
                    moved = true;
                    // right of the frame's first member in the layer (a frame widened
                    // for its title reaches far right of its members)
                    let first_member = r.layers[l]
                        .iter()
                        .filter(|&&i| paths[i].contains(&c))
                        .map(|&i| cross[i])
                        .min();
                    let right = first_member.map_or((j0 + j1) >= (f0 + f1), |m| j0 > m);
                    if right {
                        // item is to the right: push it and what follows in its layer
                        shift_from(r, cross, l, j, f1 + 2 - j0);
                    } else {
                        // item is to the left: push the whole cluster (and what follows) right
                        shift_cluster(c, lo, hi, j1 + 2 - f0, cross);
                    }
                    extents.forget();
                    break 'layers;
                }
            }
            // Sibling frames sharing layers must not overlap either.
            for c2 in g.clusters.ids() {
                if c2 == c || g.clusters[c2].parent != g.clusters[c].parent {
                    continue;
                }
                let (Some((lo, hi, f0, f1)), Some((lo2, hi2, g0, g1))) =
                    (extent(c, cross), extent(c2, cross))
                else {
                    continue;
                };
                if hi < lo2 || hi2 < lo || f1 + 1 < g0 || g1 + 1 < f0 {
                    continue;
                }
                moved = true;
                if g0 + g1 >= f0 + f1 {
                    shift_cluster(c2, lo2, hi2, f1 + 2 - g0, cross);
                } else {
                    shift_cluster(c, lo, hi, g1 + 2 - f0, cross);
                }
                extents.forget();
            }
        }
        if !moved {
            return Ok(());
        }
        if cross.iter().any(|&x| x > 20_000) {
            break;
        }
    }
    Err("subgraph frames overlap".into())
}

fn shift_from(r: &Ranked, cross: &mut IdVec<ItemId, i64>, layer: usize, item: ItemId, d: i64) {
    let threshold = cross[item];
    for &i in &r.layers[layer] {
        if cross[i] >= threshold {
            cross[i] = cross[i].saturating_add(d.clamp(0, 100_000));
        }
    }
}

/// Where each subgraph's frame lies: its layers and cross range.
struct Extents<'a> {
    g: &'a Graph,
    r: &'a Ranked,
    csize: &'a IdVec<ItemId, usize>,
    paths: &'a IdVec<ItemId, Vec<ClusterId>>,
    margin: i64,
    room: FrameRoom<'a>,
    /// each frame's extent worked out since the items last moved (a pass asks for every
    /// frame's, and for both of every pair of siblings', mostly with nothing moved)
    known: RefCell<IdVec<ClusterId, Known>>,
    /// each frame's member items, at any depth (they stay members as items move)
    members: IdVec<ClusterId, Vec<ItemId>>,
}

/// Each cluster's member items at any depth, in item order.
fn members_of(
    g: &Graph,
    r: &Ranked,
    paths: &IdVec<ItemId, Vec<ClusterId>>,
) -> IdVec<ClusterId, Vec<ItemId>> {
    let mut members: IdVec<ClusterId, Vec<ItemId>> = IdVec::filled(g.clusters.len(), Vec::new());
    for i in r.items.ids() {
        for &c in &paths[i] {
            if members[c].last() != Some(&i) {
                members[c].push(i);
            }
        }
    }
    members
}

/// A frame's extent as last worked out.
#[derive(Debug, Clone, Copy)]
enum Known {
    /// not since the items last moved
    Stale,
    /// `None`: the frame has no members
    Measured(Option<Extent>),
}

/// (first layer, last layer, cross0, cross1) of a frame.
type Extent = (usize, usize, i64, i64);

impl Extents<'_> {
    /// The extents known are stale: items moved.
    fn forget(&self) {
        for e in self.known.borrow_mut().iter_mut() {
            *e = Known::Stale;
        }
    }

    /// [`Self::measure`], once per frame until the items move.
    fn of(&self, c: ClusterId, cross: &IdVec<ItemId, i64>) -> Option<Extent> {
        if let Known::Measured(extent) = self.known.borrow()[c] {
            return extent;
        }
        let extent = self.measure(c, cross);
        self.known.borrow_mut()[c] = Known::Measured(extent);
        extent
    }

    /// (first layer, last layer, cross0, cross1) of cluster `c`'s frame, wide enough for
    /// its members, the frames inside it (with their titles) and its own title.
    fn measure(&self, c: ClusterId, cross: &IdVec<ItemId, i64>) -> Option<Extent> {
        let (r, paths, margin) = (self.r, self.paths, self.margin);
        let depth_below = |i: ItemId| {
            paths[i]
                .len()
                .saturating_sub(paths[i].iter().position(|&x| x == c).unwrap_or(0) + 1)
                as i64
        };
        // (first layer, last layer, cross0, cross1) over the members, in one pass
        let (lo, hi, mut f0, mut f1) = self.members[c]
            .iter()
            .map(|&i| {
                let (layer, deep) = (r.items[i].layer, margin * depth_below(i));
                let end = cross[i] + self.csize[i] as i64 - 1;
                (layer, layer, cross[i] - deep, end + deep)
            })
            .reduce(|a, b| (a.0.min(b.0), a.1.max(b.1), a.2.min(b.2), a.3.max(b.3)))?;
        f0 -= margin;
        f1 += margin;
        for child in self
            .g
            .clusters
            .ids()
            .filter(|&k| self.g.clusters[k].parent == Some(c))
        {
            if let Some((_, _, c0, c1)) = self.of(child, cross) {
                f0 = f0.min(c0 - margin);
                f1 = f1.max(c1 + margin);
            }
        }
        if let Some(&(left, right)) = self.room.labels.get(c) {
            f0 -= left;
            f1 += right;
        }
        if let Some(min_w) = self.room.min_w {
            f1 = f1.max(f0 + min_w[c]);
        }
        Some((lo, hi, f0, f1))
    }
}
